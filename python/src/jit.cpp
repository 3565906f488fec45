// tessera._tessera's JIT part (bind_jit, called by module.cpp): include/tessera/jit/ for Python.
// The package's tessera/jit.py is the API; this file converts values only. Launch arguments
// arrive packed (one bytes object per kernel parameter, built by jit.py from tensors and scalars
// against the kernel's parameter sizes), so a call costs one crossing into C++.
#include <pybind11/pybind11.h>
#include <pybind11/stl.h>

#include <cstdint>
#include <string>
#include <vector>

#include "tessera/jit/compile.hpp"
#include "tessera/jit/spell.hpp"

namespace py = pybind11;
namespace jit = tessera::jit;

namespace {

jit::Dim3 dim3_of(py::handle h) {
  if (py::isinstance<py::int_>(h)) return {h.cast<unsigned>(), 1, 1};
  auto t = h.cast<std::vector<unsigned>>();
  if (t.empty() || t.size() > 3) throw py::value_error("a grid, block or cluster is an int or a tuple of 1 to 3 ints");
  jit::Dim3 d;
  d.x = t[0];
  if (t.size() > 1) d.y = t[1];
  if (t.size() > 2) d.z = t[2];
  return d;
}

}  // namespace

void bind_jit(py::module_& m) {
  py::module_ j = m.def_submodule("_jit", "include/tessera/jit/ for tessera.jit (use tessera.jit).");
  py::register_exception<jit::jit_error>(j, "JitError", PyExc_RuntimeError);

  py::class_<jit::KernelInfo>(j, "KernelInfo")
      .def_readonly("registers", &jit::KernelInfo::registers)
      .def_readonly("local_bytes", &jit::KernelInfo::local_bytes)
      .def_readonly("static_shared_bytes", &jit::KernelInfo::static_shared_bytes)
      .def_readonly("max_threads_per_block", &jit::KernelInfo::max_threads_per_block)
      .def("__repr__", [](jit::KernelInfo const& i) {
        return "KernelInfo(registers=" + std::to_string(i.registers) +
               ", local_bytes=" + std::to_string(i.local_bytes) +
               ", static_shared_bytes=" + std::to_string(i.static_shared_bytes) +
               ", max_threads_per_block=" + std::to_string(i.max_threads_per_block) + ")";
      });

  py::class_<jit::Kernel>(j, "Kernel")
      .def_property_readonly("name", &jit::Kernel::name)
      .def_property_readonly("lowered_name", &jit::Kernel::lowered_name)
      .def("info", &jit::Kernel::info)
      .def("param_sizes", &jit::Kernel::param_sizes)
      .def(
          "launch_packed",
          [](jit::Kernel const& k, py::handle grid, py::handle block, unsigned shared, std::uintptr_t stream,
             py::handle cluster, bool dependent, bool cooperative, py::list const& args) {
            jit::LaunchConfig c;
            c.grid = dim3_of(grid);
            c.block = dim3_of(block);
            c.shared_bytes = shared;
            c.stream = reinterpret_cast<void*>(stream);
            c.cluster = dim3_of(cluster);
            c.dependent = dependent;
            c.cooperative = cooperative;
            std::size_t const n = args.size();
            std::vector<void*> ptrs(n);
            std::vector<std::size_t> sizes(n);
            for (std::size_t i = 0; i < n; ++i) {
              PyObject* b = args[i].ptr();
              if (!PyBytes_Check(b)) throw py::type_error("launch_packed: each argument is a bytes object");
              ptrs[i] = PyBytes_AS_STRING(b);
              sizes[i] = std::size_t(PyBytes_GET_SIZE(b));
            }
            k.launch_raw(c, ptrs.data(), sizes.data(), n);
          },
          py::arg("grid"), py::arg("block"), py::arg("shared"), py::arg("stream"), py::arg("cluster"),
          py::arg("dependent"), py::arg("cooperative"), py::arg("args"));

  py::class_<jit::Program>(j, "Program")
      .def("__len__", &jit::Program::size)
      .def("kernel", py::overload_cast<std::size_t>(&jit::Program::kernel, py::const_), py::return_value_policy::copy)
      .def("kernel", py::overload_cast<std::string const&>(&jit::Program::kernel, py::const_),
           py::return_value_policy::copy)
      .def_property_readonly("log", &jit::Program::log)
      .def_property_readonly("key", &jit::Program::key)
      .def_property_readonly("options", &jit::Program::options)
      .def_property_readonly("from_disk_cache", &jit::Program::from_disk_cache)
      .def_property_readonly("compile_seconds", &jit::Program::compile_seconds)
      .def_property_readonly("is_ptx", [](jit::Program const& p) { return p.image().is_ptx; })
      .def_property_readonly("image", [](jit::Program const& p) { return py::bytes(p.image().data); });

  j.def(
      "compile",
      [](std::string const& source, std::vector<std::string> const& names, std::vector<std::string> const& options,
         int arch, std::vector<std::pair<std::string, std::string>> const& headers, bool cache,
         std::string const& program_name) {
        jit::CompileOptions o;
        o.options = options;
        o.arch = arch;
        o.cache = cache;
        o.program_name = program_name;
        for (auto const& [name, content] : headers) o.headers.push_back({name, content});
        py::gil_scoped_release release;  // NVRTC takes seconds: let other threads run
        return jit::compile(source, names, o);
      },
      py::arg("source"), py::arg("names"), py::arg("options"), py::arg("arch"), py::arg("headers"), py::arg("cache"),
      py::arg("program_name"));
  j.def("nvrtc_available", [] {
    std::string why;
    bool const ok = jit::Nvrtc::available(&why);
    return py::make_tuple(ok, why);
  });
  j.def("current_arch", &jit::current_arch);
  j.def("spell_type", [](tessera::rt::Layout const& l) { return jit::spell_type(l); });
  j.def("spell_value",
        [](tessera::rt::Layout const& l, std::string const& array) { return jit::spell_value(l, array); });
  j.def("dynamic_values", [](tessera::rt::Layout const& l) { return jit::dynamic_values(l); });
}
