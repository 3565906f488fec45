// tessera._ops -- the GPU kernels of include/tessera/kernels as Python functions on DLPack tensors
// (the public API is python/tessera/ops.py; docs/python.md, "tessera.ops"). This file reads the
// tensors through the DLPack protocol, checks them against the kernels' contracts (shapes, dtypes,
// strides, devices, alignment, overlap) with errors that name the fix, allocates the results
// through the caller's allocator and launches on the caller's stream. The kernels are behind
// kernels.hpp: add, sgemm, copy, gemm and attention compiled while the program runs (tessera::jit, on their
// first call). This file is compiled by the host compiler and needs no CUDA header or library: it
// talks to the GPU through the CUDA driver, opened while the program runs
// (tessera/jit/driver.hpp), in the devices' primary contexts -- those the CUDA runtime uses, so
// that its streams, its memory and its launches (PyTorch's) and these interoperate.
//
// DLPack (https://dmlc.github.io/dlpack/latest/): a producer's __dlpack__(stream=S) returns a
// PyCapsule named "dltensor" holding a DLManagedTensor; the consumer renames it "used_dltensor"
// and calls the tensor's deleter when done with it. S is the consumer's stream (1: the legacy
// default stream); the producer makes the data ready for work queued on S.
#include <pybind11/pybind11.h>
#include <pybind11/stl.h>

#include <algorithm>
#include <array>
#include <atomic>
#include <cstdint>
#include <limits>
#include <map>
#include <memory>
#include <mutex>
#include <numeric>
#include <optional>
#include <stdexcept>
#include <string>
#include <vector>

#include "attention_backward.hpp"
#include "kernels.hpp"
#include "tessera/jit/driver.hpp"

namespace py = pybind11;
namespace ops = tessera::python_ops;
namespace cu = tessera::jit::cu;
using tessera::jit::jit_error;

namespace {

// ---- DLPack: the structures of the specification (ABI of DLPack 0.x/1.x, unversioned) ---------

enum DLDeviceType : std::int32_t { kDLCPU = 1, kDLCUDA = 2, kDLCUDAHost = 3, kDLCUDAManaged = 13 };
enum DLDataTypeCode : std::uint8_t {
  kDLInt = 0,
  kDLUInt = 1,
  kDLFloat = 2,
  kDLBfloat = 4,
  kDLComplex = 5,
  kDLBool = 6,
  kDLFloat8_e4m3fn = 10,  // DLPack 1.1 (torch.float8_e4m3fn)
  kDLFloat8_e5m2 = 12     // DLPack 1.1 (torch.float8_e5m2)
};

struct DLDevice {
  std::int32_t device_type;
  std::int32_t device_id;
};
struct DLDataType {
  std::uint8_t code;
  std::uint8_t bits;
  std::uint16_t lanes;
};
struct DLTensor {
  void* data;
  DLDevice device;
  std::int32_t ndim;
  DLDataType dtype;
  std::int64_t* shape;
  std::int64_t* strides;  // elements; null: compact row-major
  std::uint64_t byte_offset;
};
struct DLManagedTensor {
  DLTensor dl_tensor;
  void* manager_ctx;
  void (*deleter)(DLManagedTensor* self);
};

constexpr char const* kCapsule = "dltensor";
constexpr char const* kUsedCapsule = "used_dltensor";

// ---- errors ------------------------------------------------------------------------------------

[[noreturn]] void value_error(std::string const& msg) { throw py::value_error(msg); }
[[noreturn]] void type_error(std::string const& msg) { throw py::type_error(msg); }

// The CUDA driver (a RuntimeError "fn: ..." when there is none: no libcuda.so.1, no usable GPU).
cu::Driver const& get_driver(char const* fn) {
  try {
    return cu::Driver::get();
  } catch (jit_error const& e) {
    throw std::runtime_error(std::string(fn) + ": " + e.what());
  }
}

// A driver call's result: a RuntimeError "fn: what failed: CUDA_ERROR_... (the driver's text)".
void check_cu(cu::Driver const& d, cu::Result r, char const* fn, char const* what) {
  if (r == 0) return;
  try {
    d.check(r, what);
  } catch (jit_error const& e) {
    throw std::runtime_error(std::string(fn) + ": " + e.what());
  }
}

// Runs f, which compiles (NVRTC), loads or launches a kernel: a jit_error (the JIT's message: the
// compiler's log, a missing NVRTC, the refused launch) becomes a RuntimeError "fn: what: ...";
// std::invalid_argument (a kernel's contract) passes as the ValueError it is.
template <class F>
void device_call(char const* fn, char const* what, F&& f) {
  try {
    f();
  } catch (jit_error const& e) {
    throw std::runtime_error(std::string(fn) + ": " + what + ": " + e.what());
  }
}

std::string tuple_text(std::vector<std::int64_t> const& v) {
  std::string s = "(";
  for (std::size_t i = 0; i < v.size(); ++i) s += (i ? ", " : "") + std::to_string(v[i]);
  return s + (v.size() == 1 ? ",)" : ")");
}

// ---- element types -------------------------------------------------------------------------------

std::string dtype_name(DLDataType t) {
  std::string base;
  switch (t.code) {
    case kDLInt: base = "int"; break;
    case kDLUInt: base = "uint"; break;
    case kDLFloat: base = "float"; break;
    case kDLBfloat: base = "bfloat"; break;
    case kDLComplex: base = "complex"; break;
    case kDLBool: return "bool";
    case kDLFloat8_e4m3fn: return t.bits == 8 && t.lanes == 1 ? "float8_e4m3fn" : "float8_e4m3fn (not 8 bits)";
    case kDLFloat8_e5m2: return t.bits == 8 && t.lanes == 1 ? "float8_e5m2" : "float8_e5m2 (not 8 bits)";
    default: base = "dtype code " + std::to_string(t.code) + " of "; break;
  }
  std::string name = base + std::to_string(t.bits);
  if (t.lanes != 1) name += "x" + std::to_string(t.lanes);
  return name;
}

char const* dtype_name(ops::DType t) {
  switch (t) {
    case ops::DType::f32: return "float32";
    case ops::DType::f16: return "float16";
    case ops::DType::bf16: return "bfloat16";
  }
  return "?";
}

std::optional<ops::DType> kernel_dtype(DLDataType t) {
  if (t.lanes != 1) return std::nullopt;
  if (t.code == kDLFloat && t.bits == 32) return ops::DType::f32;
  if (t.code == kDLFloat && t.bits == 16) return ops::DType::f16;
  if (t.code == kDLBfloat && t.bits == 16) return ops::DType::bf16;
  return std::nullopt;
}

std::optional<ops::DType> dtype_from_name(std::string const& name) {
  if (name == "float32") return ops::DType::f32;
  if (name == "float16") return ops::DType::f16;
  if (name == "bfloat16") return ops::DType::bf16;
  return std::nullopt;
}

int element_bytes(ops::DType t) { return t == ops::DType::f32 ? 4 : 2; }

// The DLPack type of a name dtype_name() writes ("float16", "bfloat16", "int32", "uint16",
// "complex64", "bool", ...), lanes 1; none for another name.
std::optional<DLDataType> dl_dtype_from_name(std::string const& name) {
  if (name == "bool") return DLDataType{kDLBool, 8, 1};
  struct Prefix {
    char const* text;
    DLDataTypeCode code;
  };
  for (Prefix const p : {Prefix{"bfloat", kDLBfloat}, Prefix{"float", kDLFloat}, Prefix{"uint", kDLUInt},
                         Prefix{"int", kDLInt}, Prefix{"complex", kDLComplex}}) {
    std::string const prefix = p.text;
    if (name.rfind(prefix, 0) != 0) continue;
    std::string const digits = name.substr(prefix.size());
    if (digits.empty() || digits.size() > 3 || digits.find_first_not_of("0123456789") != std::string::npos)
      return std::nullopt;
    int const bits = std::stoi(digits);
    if (bits < 8 || bits > 128 || bits % 8 != 0) return std::nullopt;
    return DLDataType{std::uint8_t(p.code), std::uint8_t(bits), 1};
  }
  return std::nullopt;
}

// ---- streams -------------------------------------------------------------------------------------

// The stream handle tessera.ops launches on (an int from Python: a CUstream, which is a
// cudaStream_t: 0 is the legacy default stream, 2 the per-thread default) and the value of
// __dlpack__'s `stream` argument that names it.
void* as_stream(std::uintptr_t handle) { return reinterpret_cast<void*>(handle); }
std::uintptr_t dlpack_stream(std::uintptr_t handle) { return handle == 0 ? 1 : handle; }

// ---- PyTorch's types, for reading torch.Tensor arguments directly ------------------------------

// torch.Tensor and the dtypes of the kernels, registered by tessera/ops.py the first time it meets
// a torch.Tensor (this module never imports torch). Held for the life of the process.
struct TorchTypes {
  py::object tensor, f32, f16, bf16;
};
TorchTypes& torch_types() {
  static TorchTypes* t = new TorchTypes;  // never destroyed: no Python object outlives the interpreter
  return *t;
}

// ---- a consumed DLPack tensor ----------------------------------------------------------------------

// One argument of an op, imported with __dlpack__(stream=...): its DLTensor stays valid while this
// object lives (the producer's deleter runs in the destructor).
class Imported {
 public:
  // fast: obj may be read as a torch.Tensor (TorchTypes) instead of through DLPack: the caller
  // launches on PyTorch's current stream, on which PyTorch's own work on the tensor is ordered.
  Imported(char const* fn, char const* name, py::handle obj, std::uintptr_t stream, bool fast = false) : name_(name) {
    if (fast && torch_types().tensor && py::isinstance(obj, torch_types().tensor)) {
      read_torch(fn, obj);
      return;
    }
    if (!py::hasattr(obj, "__dlpack__") || !py::hasattr(obj, "__dlpack_device__")) {
      type_error(std::string(fn) + ": " + name +
                 " must be a DLPack tensor (with __dlpack__ and __dlpack_device__: a torch.Tensor, "
                 "cupy.ndarray, jax.Array, ...), got " +
                 std::string(py::str(py::type::handle_of(obj).attr("__name__"))));
    }
    auto const dev = obj.attr("__dlpack_device__")().cast<std::pair<int, int>>();
    if (dev.first != kDLCUDA) {
      std::string where =
          dev.first == kDLCPU ? std::string("the CPU") : "DLPack device type " + std::to_string(dev.first);
      value_error(std::string(fn) + ": " + name + " is on " + where +
                  "; tessera.ops runs on CUDA device memory (DLPack device type 2): " +
                  "move it to the GPU first, e.g. " + name + ".cuda()");
    }
    py::object cap = obj.attr("__dlpack__")(py::arg("stream") = dlpack_stream(stream));
    if (!PyCapsule_IsValid(cap.ptr(), kCapsule)) {
      type_error(std::string(fn) + ": " + name +
                 ".__dlpack__() did not return a \"dltensor\" capsule (an unversioned DLPack tensor)");
    }
    managed_ = static_cast<DLManagedTensor*>(PyCapsule_GetPointer(cap.ptr(), kCapsule));
    if (PyCapsule_SetName(cap.ptr(), kUsedCapsule) != 0) throw py::error_already_set();
    DLTensor const& t = managed_->dl_tensor;
    shape_.assign(t.shape, t.shape + t.ndim);
    if (t.strides != nullptr) {
      strides_.assign(t.strides, t.strides + t.ndim);
    } else {
      strides_.assign(t.ndim, 1);
      for (int i = t.ndim - 2; i >= 0; --i) strides_[i] = strides_[i + 1] * shape_[i + 1];
    }
    data_ = static_cast<char*>(t.data) + t.byte_offset;
    device_ = t.device.device_id;
    dtype_ = kernel_dtype(t.dtype);
    dtype_text_ = dtype_name(t.dtype);
    if (t.dtype.bits % 8 == 0) element_bytes_ = t.dtype.bits / 8 * t.dtype.lanes;
    dtype_copyable_ =
        t.dtype.lanes == 1 && (t.dtype.code == kDLInt || t.dtype.code == kDLUInt || t.dtype.code == kDLFloat ||
                               t.dtype.code == kDLBfloat || t.dtype.code == kDLComplex);
  }
  ~Imported() {
    if (managed_ != nullptr && managed_->deleter != nullptr) managed_->deleter(managed_);
  }
  Imported(Imported const&) = delete;
  Imported& operator=(Imported const&) = delete;

  char const* name() const { return name_; }
  std::vector<std::int64_t> const& shape() const { return shape_; }
  std::vector<std::int64_t> const& strides() const { return strides_; }
  int ndim() const { return int(shape_.size()); }
  int device() const { return device_; }
  void* data() const { return data_; }
  std::optional<ops::DType> dtype() const { return dtype_; }  // none: not a kernel's type
  // The bytes of one element (0: not a whole number of bytes). Read from a torch.Tensor only when
  // asked (element_size()), and only for types other than the kernels'.
  int element_bytes() const {
    if (element_bytes_ == 0 && dtype_) return ::element_bytes(*dtype_);
    if (element_bytes_ == 0 && torch_) element_bytes_ = torch_.attr("element_size")().cast<int>();
    return element_bytes_;
  }
  // Whether copy may move it: a number type (integer, float, complex) of a name DLPack has.
  bool dtype_copyable() const { return dtype_copyable_; }
  std::string const& dtype_text() const { return dtype_text_; }
  std::int64_t numel() const {
    return std::accumulate(shape_.begin(), shape_.end(), std::int64_t(1), std::multiplies<>());
  }
  // The bytes [lo, hi) its elements occupy (empty for no elements; strides assumed >= 0).
  std::pair<std::uintptr_t, std::uintptr_t> extent(int esize) const {
    auto const lo = reinterpret_cast<std::uintptr_t>(data_);
    if (numel() == 0) return {lo, lo};
    std::int64_t last = 0;
    for (int i = 0; i < ndim(); ++i) last += (shape_[i] - 1) * strides_[i];
    return {lo, lo + std::uintptr_t((last + 1) * esize)};
  }

 private:
  // What __dlpack__ would give, read from the torch.Tensor's attributes (a few hundred nanoseconds
  // instead of microseconds); the same refusals: CPU tensors, tensors that require grad.
  void read_torch(char const* fn, py::handle obj) {
    TorchTypes const& tt = torch_types();
    device_ = obj.attr("get_device")().cast<int>();
    if (device_ < 0) {
      std::string where = py::str(obj.attr("device")).cast<std::string>();
      if (where == "cpu") where = "the CPU";
      value_error(std::string(fn) + ": " + name_ + " is on " + where +
                  "; tessera.ops runs on CUDA device memory (DLPack device type 2): move it to the GPU first, e.g. " +
                  name_ + ".cuda()");
    }
    if (obj.attr("requires_grad").cast<bool>()) {
      value_error(std::string(fn) + ": " + name_ + " requires grad; tessera.ops records no autograd graph: pass " +
                  name_ + ".detach()");
    }
    py::object const dt = obj.attr("dtype");
    if (dt.is(tt.f32)) dtype_ = ops::DType::f32;
    else if (dt.is(tt.f16)) dtype_ = ops::DType::f16;
    else if (dt.is(tt.bf16)) dtype_ = ops::DType::bf16;
    if (dtype_) {
      dtype_text_ = dtype_name(*dtype_);
    } else {
      dtype_text_ = py::str(dt).cast<std::string>();
      if (dtype_text_.rfind("torch.", 0) == 0) dtype_text_ = dtype_text_.substr(6);
      dtype_copyable_ = dl_dtype_from_name(dtype_text_).has_value() && dtype_text_ != "bool";
    }
    if (!dtype_) torch_ = py::reinterpret_borrow<py::object>(obj);  // element_bytes() asks it
    else dtype_copyable_ = true;
    shape_ = obj.attr("shape").cast<std::vector<std::int64_t>>();
    strides_ = obj.attr("stride")().cast<std::vector<std::int64_t>>();
    data_ = reinterpret_cast<void*>(obj.attr("data_ptr")().cast<std::uintptr_t>());
  }

  char const* name_;
  DLManagedTensor* managed_ = nullptr;
  std::vector<std::int64_t> shape_, strides_;
  void* data_ = nullptr;
  int device_ = 0;
  std::optional<ops::DType> dtype_;
  std::string dtype_text_;
  mutable int element_bytes_ = 0;
  bool dtype_copyable_ = false;
  py::object torch_;  // the torch.Tensor read directly, when its dtype is not a kernel's
};

// The element type of t, which must be one of `allowed` (else TypeError naming them).
ops::DType require_dtype(char const* fn, Imported const& t, std::vector<ops::DType> const& allowed,
                         std::string const& hint = "") {
  auto const d = t.dtype();
  if (!d || std::find(allowed.begin(), allowed.end(), *d) == allowed.end()) {
    std::string names;
    for (std::size_t i = 0; i < allowed.size(); ++i)
      names += std::string(i == 0 ? "" : (i + 1 == allowed.size() ? " or " : ", ")) + dtype_name(allowed[i]);
    type_error(std::string(fn) + ": " + t.name() + " is " + t.dtype_text() + "; it must be " + names +
               (hint.empty()
                    ? ": convert it, e.g. " + std::string(t.name()) + ".to(torch." + dtype_name(allowed[0]) + ")"
                    : hint));
  }
  return *d;
}

void require_same_device(char const* fn, Imported const& first, Imported const& t) {
  if (t.device() != first.device()) {
    value_error(std::string(fn) + ": " + first.name() + " is on cuda:" + std::to_string(first.device()) + " and " +
                t.name() + " on cuda:" + std::to_string(t.device()) + "; all tensors must be on one device: move " +
                t.name() + ", e.g. " + t.name() + ".to(" + first.name() + ".device)");
  }
}

void require_element_aligned(char const* fn, Imported const& t, int esize) {
  if (reinterpret_cast<std::uintptr_t>(t.data()) % std::uintptr_t(esize) != 0) {
    value_error(std::string(fn) + ": " + t.name() + "'s data pointer is not aligned to its " + std::to_string(esize) +
                "-byte elements; copy it into a fresh tensor (" + t.name() + ".clone())");
  }
  for (std::int64_t s : t.strides())
    if (s < 0) {
      value_error(std::string(fn) + ": " + t.name() + " has a negative stride " + tuple_text(t.strides()) +
                  "; pass a copy with positive strides (" + t.name() + ".contiguous())");
    }
}

bool overlap(std::pair<std::uintptr_t, std::uintptr_t> x, std::pair<std::uintptr_t, std::uintptr_t> y) {
  return x.first < x.second && y.first < y.second && x.first < y.second && y.first < x.second;
}

// Whether t's elements are exactly the same memory as u's, element for element.
bool same_view(Imported const& t, Imported const& u) {
  if (t.data() != u.data() || t.shape() != u.shape()) return false;
  for (int i = 0; i < t.ndim(); ++i)
    if (t.shape()[i] > 1 && t.strides()[i] != u.strides()[i]) return false;
  return true;
}

// ---- devices ---------------------------------------------------------------------------------------

// The primary context of device `ordinal` (the one the CUDA runtime uses), retained once for the
// life of the process, as the runtime does.
cu::Context primary_context(char const* fn, cu::Driver const& d, int ordinal, cu::Device dev) {
  static std::mutex mutex;
  static std::map<int, cu::Context> contexts;
  std::lock_guard<std::mutex> lock(mutex);
  if (auto it = contexts.find(ordinal); it != contexts.end()) return it->second;
  cu::Context ctx = nullptr;
  check_cu(d, d.primary_ctx_retain(&ctx, dev), fn, "cuDevicePrimaryCtxRetain");
  contexts.emplace(ordinal, ctx);
  return ctx;
}

// Makes device `device` current for the life of the guard, as cudaSetDevice does: its primary
// context, unless the thread's current context already is one of that device (then that one, as the
// runtime would use it). The context that was current before comes back after; when there was none,
// the device's stays current (as after the runtime's first call). With check_arch, first checks that
// the device can run the sm_90a kernels (RuntimeError naming its compute capability).
class DeviceGuard {
 public:
  DeviceGuard(char const* fn, int device, bool check_arch = true) : d_(get_driver(fn)) {
    cu::Device dev = 0;
    check_cu(d_, d_.device_get(&dev, device), fn, "cuDeviceGet");
    if (check_arch) require_sm90(fn, device, dev);
    check_cu(d_, d_.ctx_get_current(&previous_), fn, "cuCtxGetCurrent");
    if (previous_ != nullptr) {
      cu::Device current = -1;
      if (d_.ctx_get_device(&current) == 0 && current == dev) return;  // already there
    }
    cu::Context const ctx = primary_context(fn, d_, device, dev);
    check_cu(d_, d_.ctx_set_current(ctx), fn, "cuCtxSetCurrent");
    restore_ = previous_ != nullptr;
  }
  ~DeviceGuard() {
    if (restore_) (void)d_.ctx_set_current(previous_);
  }
  DeviceGuard(DeviceGuard const&) = delete;
  DeviceGuard& operator=(DeviceGuard const&) = delete;

  cu::Driver const& driver() const { return d_; }

 private:
  void require_sm90(char const* fn, int device, cu::Device dev) const {
    // Devices 0..63 found to be sm_90 (asked once: every call passes here).
    static std::atomic<std::uint64_t> checked{0};
    std::uint64_t const bit = device >= 0 && device < 64 ? std::uint64_t(1) << device : 0;
    if (bit != 0 && (checked.load(std::memory_order_relaxed) & bit) != 0) return;
    int major = 0, minor = 0;
    check_cu(d_, d_.device_get_attribute(&major, cu::kDeviceComputeCapabilityMajor, dev), fn, "cuDeviceGetAttribute");
    check_cu(d_, d_.device_get_attribute(&minor, cu::kDeviceComputeCapabilityMinor, dev), fn, "cuDeviceGetAttribute");
    if (major != 9 || minor != 0)
      throw std::runtime_error(std::string(fn) + ": cuda:" + std::to_string(device) + " has compute capability " +
                               std::to_string(major) + "." + std::to_string(minor) +
                               "; tessera.ops is built for sm_90a (Hopper: H100, H200) only");
    checked.fetch_or(bit, std::memory_order_relaxed);
  }

  cu::Driver const& d_;
  cu::Context previous_ = nullptr;
  bool restore_ = false;
};

// The CUDA devices visible (0 without a driver or a GPU).
int device_count() {
  try {
    auto const& d = cu::Driver::get();
    int n = 0;
    return d.device_get_count(&n) == 0 ? n : 0;
  } catch (jit_error const&) {
    return 0;
  }
}

// ---- DeviceArray: a result tessera.ops allocated itself --------------------------------------------

// A block of device memory holding one strided array, exported with __dlpack__ (for callers whose
// framework tessera.ops does not allocate through). Allocated with cuMemAlloc in the device's
// primary context (like cudaMalloc) and freed with cuMemFree when the last reference (Python's or a
// consumer's DLPack tensor) goes. `stream`: the stream that writes it; a consumer passing another
// stream to __dlpack__ waits for the work queued on it so far.
class DeviceArray {
 public:
  DeviceArray(std::vector<std::int64_t> shape, std::vector<std::int64_t> strides, std::string const& dtype, int device,
              std::uintptr_t stream)
      : shape_(std::move(shape)), strides_(std::move(strides)), device_(device), stream_(stream) {
    auto const d = dl_dtype_from_name(dtype);
    if (!d)
      type_error(
          "DeviceArray: dtype must be the name of a numeric type (float32, float16, bfloat16, int16, ...), got " +
          dtype);
    dtype_ = *d;
    if (strides_.size() != shape_.size()) value_error("DeviceArray: shape and strides differ in length");
    std::int64_t span = 1;
    for (std::size_t i = 0; i < shape_.size(); ++i) {
      if (shape_[i] < 0 || strides_[i] < 0) value_error("DeviceArray: shape and strides must be >= 0");
      if (shape_[i] == 0) span = 0;
    }
    if (span != 0)
      for (std::size_t i = 0; i < shape_.size(); ++i) span += (shape_[i] - 1) * strides_[i];
    DeviceGuard guard("DeviceArray", device_, false);
    std::size_t const bytes =
        std::size_t(std::max<std::int64_t>(span, 1)) * std::size_t(dtype_.bits / 8 * dtype_.lanes);
    check_cu(guard.driver(), guard.driver().mem_alloc(&ptr_, bytes), "DeviceArray", "cuMemAlloc");
  }
  ~DeviceArray() {
    try {
      DeviceGuard guard("DeviceArray", device_, false);
      (void)guard.driver().mem_free(ptr_);
    } catch (std::exception const&) {
      // no driver any more (the process is ending): nothing to free
    }
  }
  DeviceArray(DeviceArray const&) = delete;
  DeviceArray& operator=(DeviceArray const&) = delete;

  std::vector<std::int64_t> const& shape() const { return shape_; }
  std::vector<std::int64_t> const& strides() const { return strides_; }
  std::string dtype() const { return dtype_name(dtype_); }
  DLDataType dl_dtype() const { return dtype_; }
  int device() const { return device_; }
  std::uintptr_t data_ptr() const { return std::uintptr_t(ptr_); }
  std::uintptr_t stream() const { return stream_; }

  // The consumer's stream (DLPack: 1 the legacy default stream, 2 the per-thread one, -1 or None:
  // no synchronization) waits for the work queued on the array's stream.
  void synchronize_for(py::object const& consumer) const {
    if (consumer.is_none()) return;
    auto const s = consumer.cast<std::int64_t>();
    if (s == -1) return;
    if (s == 0)
      value_error("DeviceArray.__dlpack__: stream 0 is ambiguous in DLPack; pass 1 for the legacy default stream");
    std::uintptr_t const handle = s == 1 ? 0 : std::uintptr_t(s);
    if (handle == stream_) return;
    char const* fn = "DeviceArray.__dlpack__";
    DeviceGuard guard(fn, device_, false);
    cu::Driver const& d = guard.driver();
    cu::Event ev = nullptr;
    check_cu(d, d.event_create(&ev, cu::kEventDisableTiming), fn, "the stream synchronization (cuEventCreate)");
    cu::Result r = d.event_record(ev, static_cast<cu::Stream>(as_stream(stream_)));
    if (r == 0) r = d.stream_wait_event(static_cast<cu::Stream>(as_stream(handle)), ev, 0);
    (void)d.event_destroy(ev);
    check_cu(d, r, fn, "the stream synchronization (cuEventRecord, cuStreamWaitEvent)");
  }

 private:
  std::vector<std::int64_t> shape_, strides_;
  DLDataType dtype_{kDLFloat, 32, 1};
  int device_ = 0;
  std::uintptr_t stream_ = 0;
  cu::DevicePtr ptr_ = 0;
};

// The DLPack export of a DeviceArray: the managed tensor and the reference that keeps the array alive.
struct Export {
  DLManagedTensor managed{};
  std::vector<std::int64_t> shape, strides;
  py::object owner;
};

void export_deleter(DLManagedTensor* self) {
  py::gil_scoped_acquire gil;
  delete static_cast<Export*>(self->manager_ctx);
}

void capsule_destructor(PyObject* capsule) {
  // A capsule nobody consumed still owns its tensor (DLPack: the consumer renames what it takes).
  if (PyCapsule_IsValid(capsule, kCapsule)) {
    auto* m = static_cast<DLManagedTensor*>(PyCapsule_GetPointer(capsule, kCapsule));
    if (m != nullptr && m->deleter != nullptr) m->deleter(m);
  } else {
    PyErr_Clear();
  }
}

py::capsule export_array(py::object self, py::object stream) {
  auto& a = self.cast<DeviceArray&>();
  a.synchronize_for(stream);
  auto* ex = new Export;
  ex->shape = a.shape();
  ex->strides = a.strides();
  ex->owner = self;
  DLTensor& t = ex->managed.dl_tensor;
  t.data = reinterpret_cast<void*>(a.data_ptr());
  t.device = {kDLCUDA, a.device()};
  t.ndim = std::int32_t(ex->shape.size());
  t.dtype = a.dl_dtype();
  t.shape = ex->shape.data();
  t.strides = ex->strides.data();
  t.byte_offset = 0;
  ex->managed.manager_ctx = ex;
  ex->managed.deleter = export_deleter;
  PyObject* cap = PyCapsule_New(&ex->managed, kCapsule, capsule_destructor);
  if (cap == nullptr) {
    delete ex;
    throw py::error_already_set();
  }
  return py::reinterpret_steal<py::capsule>(cap);
}

// ---- results ---------------------------------------------------------------------------------------

// The result of an op: `out` when given, else allocate(shape, strides, dtype name, device) -- the
// caller's framework's allocator (ops.py) -- imported like an argument.
py::object make_result(py::object allocate, std::vector<std::int64_t> const& shape,
                       std::vector<std::int64_t> const& strides, std::string const& dtype, int device) {
  return allocate(py::tuple(py::cast(shape)), py::tuple(py::cast(strides)), dtype, device);
}
py::object make_result(py::object allocate, std::vector<std::int64_t> const& shape,
                       std::vector<std::int64_t> const& strides, ops::DType dtype, int device) {
  return make_result(std::move(allocate), shape, strides, std::string(dtype_name(dtype)), device);
}

// ---- matrices ----------------------------------------------------------------------------------------

// A 2-D tensor as a row- or column-major matrix with a leading dimension (GemmProblem's and
// SgemmProblem's operands); ValueError naming the fix for any other strides. A mode of extent 1
// has no stride that matters: a 1 x n matrix is row-major with ld = n rounded up to 8 elements
// (16 bytes of 16-bit elements, the alignment the tensor-core kernels' TMA wants), likewise n x 1.
ops::Matrix as_matrix(char const* fn, Imported const& t) {
  std::int64_t const r = t.shape()[0], c = t.shape()[1];
  std::int64_t const s0 = t.strides()[0], s1 = t.strides()[1];
  auto padded = [](std::int64_t x) { return (std::max<std::int64_t>(x, 1) + 7) / 8 * 8; };
  std::int64_t ld = 0;
  bool row = true;
  if ((c == 1 || s1 == 1) && (r == 1 || s0 >= std::max<std::int64_t>(c, 1))) {
    row = true;
    ld = r == 1 ? padded(c) : s0;
  } else if ((r == 1 || s0 == 1) && (c == 1 || s1 >= std::max<std::int64_t>(r, 1))) {
    row = false;
    ld = c == 1 ? padded(r) : s1;
  } else {
    value_error(
        std::string(fn) + ": " + t.name() + " has shape " + tuple_text(t.shape()) + " and strides " +
        tuple_text(t.strides()) +
        "; the kernel takes row-major (strides (ld, 1), ld >= columns) or column-major (strides (1, ld), ld >= rows) "
        "matrices: pass " +
        t.name() + ".contiguous()");
  }
  if (ld >= (std::int64_t(1) << 31)) {
    value_error(std::string(fn) + ": " + t.name() + "'s leading dimension " + std::to_string(ld) +
                " does not fit in 32 bits; pass a compact copy (" + t.name() + ".contiguous())");
  }
  return {t.data(), int(ld), row};
}

void require_2d(char const* fn, Imported const& t) {
  if (t.ndim() != 2) {
    value_error(std::string(fn) + ": " + t.name() + " must be a matrix (2-D), got shape " + tuple_text(t.shape()) +
                (t.ndim() == 1 ? "; make a vector a matrix with " + std::string(t.name()) + "[None, :] or " + t.name() +
                                     "[:, None]"
                               : "; batched products are not supported: loop over the batch"));
  }
  for (std::int64_t e : t.shape())
    if (e >= (std::int64_t(1) << 31))
      value_error(std::string(fn) + ": " + t.name() + "'s extents must be < 2^31, got " + tuple_text(t.shape()));
}

void require_shape(char const* fn, Imported const& t, std::vector<std::int64_t> const& shape, std::string const& why) {
  if (t.shape() != shape)
    value_error(std::string(fn) + ": " + t.name() + " has shape " + tuple_text(t.shape()) + "; it must be " +
                tuple_text(shape) + " (" + why + ")");
}

void require_disjoint(char const* fn, Imported const& out, Imported const& in, int out_bytes, int in_bytes) {
  if (overlap(out.extent(out_bytes), in.extent(in_bytes)))
    value_error(std::string(fn) + ": " + out.name() + " overlaps " + in.name() +
                "; write the result into separate memory");
}

// ---- kernels compiled on first use -----------------------------------------------------------------

// Compiles the program of (op, key) unless this process has it (NVRTC, about a second the first
// time on a machine; milliseconds from the disk cache after), with the GIL released so that other
// Python threads run meanwhile. A failure (no NVRTC, a compile error) is a RuntimeError naming fn.
void ensure_compiled(char const* fn, ops::Op op, int key) {
  if (ops::prepared(op, key)) return;
  device_call(fn, "compiling its kernel", [&] {
    py::gil_scoped_release nogil;
    ops::prepare(op, key);
  });
}

// ---- add -----------------------------------------------------------------------------------------

// Whether the strides lay the elements out densely (a permutation of a compact array): no gaps, no
// element twice.
bool dense(std::vector<std::int64_t> const& shape, std::vector<std::int64_t> const& strides) {
  std::vector<int> modes;
  for (int i = 0; i < int(shape.size()); ++i) {
    if (shape[i] == 0) return true;
    if (shape[i] > 1) modes.push_back(i);
  }
  std::sort(modes.begin(), modes.end(), [&](int x, int y) { return strides[x] < strides[y]; });
  std::int64_t expected = 1;
  for (int i : modes) {
    if (strides[i] != expected) return false;
    expected *= shape[i];
  }
  return true;
}

bool same_strides(Imported const& t, Imported const& u) {
  for (int i = 0; i < t.ndim(); ++i)
    if (t.shape()[i] > 1 && t.strides()[i] != u.strides()[i]) return false;
  return true;
}

py::object add(py::object a_obj, py::object b_obj, py::object out_obj, std::uintptr_t stream, py::object allocate,
               bool fast) {
  char const* fn = "tessera.ops.add";
  Imported a(fn, "a", a_obj, stream, fast);
  Imported b(fn, "b", b_obj, stream, fast);
  std::vector<ops::DType> const types = {ops::DType::f32, ops::DType::f16, ops::DType::bf16};
  ops::DType const dt = require_dtype(fn, a, types);
  require_dtype(fn, b, types);
  if (b.dtype() != dt)
    type_error(std::string(fn) + ": a is " + dtype_name(dt) + " and b " + b.dtype_text() +
               "; both must have one dtype (no type promotion): convert one, e.g. b.to(a.dtype)");
  require_same_device(fn, a, b);
  if (a.shape() != b.shape())
    value_error(std::string(fn) + ": a has shape " + tuple_text(a.shape()) + " and b " + tuple_text(b.shape()) +
                "; the shapes must be equal (no broadcasting): expand and copy, e.g. b.expand_as(a).contiguous()");
  int const esize = element_bytes(dt);
  require_element_aligned(fn, a, esize);
  require_element_aligned(fn, b, esize);
  if (!dense(a.shape(), a.strides()))
    value_error(std::string(fn) + ": a (shape " + tuple_text(a.shape()) + ", strides " + tuple_text(a.strides()) +
                ") is not densely stored; the kernel reads one flat array: pass a.contiguous()");
  if (a.numel() != 0 && !same_strides(a, b))
    value_error(
        std::string(fn) + ": a has strides " + tuple_text(a.strides()) + " and b " + tuple_text(b.strides()) +
        "; a, b and out must be stored alike (the kernel adds flat arrays): pass b.contiguous() and a.contiguous()");
  if (out_obj.is_none()) out_obj = make_result(allocate, a.shape(), a.strides(), dt, a.device());
  Imported out(fn, "out", out_obj, stream, fast);
  if (out.dtype() != dt)
    type_error(std::string(fn) + ": out is " + out.dtype_text() + " and a " + dtype_name(dt) +
               "; out must have the inputs' dtype");
  require_same_device(fn, a, out);
  require_shape(fn, out, a.shape(), "the inputs' shape");
  require_element_aligned(fn, out, esize);
  if (a.numel() != 0 && !same_strides(a, out))
    value_error(std::string(fn) + ": out has strides " + tuple_text(out.strides()) + " and a " +
                tuple_text(a.strides()) + "; out must be stored like the inputs: allocate it with torch.empty_like(a)");
  for (Imported const* in : {&a, &b})
    if (!same_view(out, *in) && overlap(out.extent(esize), in->extent(esize)))
      value_error(std::string(fn) + ": out overlaps " + in->name() +
                  " without being the same elements; write into separate memory or into " + in->name() + " itself");
  std::int64_t const n = a.numel();
  if (n == 0) return out_obj;
  DeviceGuard guard(fn, a.device());
  ensure_compiled(fn, ops::Op::add, int(dt));
  device_call(fn, "the kernel launch", [&] { ops::add(dt, a.data(), b.data(), out.data(), n, as_stream(stream)); });
  return out_obj;
}

// ---- sgemm -------------------------------------------------------------------------------------

// (M, K, N) of the product a b: both matrices on one device, a (M,K) and b (K,N) (else ValueError).
std::array<std::int64_t, 3> product_extents(char const* fn, Imported const& a, Imported const& b) {
  require_same_device(fn, a, b);
  require_2d(fn, a);
  require_2d(fn, b);
  std::int64_t const m = a.shape()[0], k = a.shape()[1], n = b.shape()[1];
  if (b.shape()[0] != k)
    value_error(std::string(fn) + ": a is " + tuple_text(a.shape()) + " and b " + tuple_text(b.shape()) +
                "; the product needs b's rows == a's columns (a (M,K), b (K,N))");
  return {m, k, n};
}

py::object sgemm(py::object a_obj, py::object b_obj, py::object out_obj, std::uintptr_t stream, py::object allocate,
                 bool fast) {
  char const* fn = "tessera.ops.sgemm";
  Imported a(fn, "a", a_obj, stream, fast);
  Imported b(fn, "b", b_obj, stream, fast);
  std::string const hint = "; sgemm is fp32 (tessera.ops.gemm takes float16 and bfloat16)";
  require_dtype(fn, a, {ops::DType::f32}, hint);
  require_dtype(fn, b, {ops::DType::f32}, hint);
  auto const [m, k, n] = product_extents(fn, a, b);
  require_element_aligned(fn, a, 4);
  require_element_aligned(fn, b, 4);
  ops::Matrix const ma = as_matrix(fn, a), mb = as_matrix(fn, b);
  if (out_obj.is_none()) out_obj = make_result(allocate, {m, n}, {n, 1}, ops::DType::f32, a.device());
  Imported out(fn, "out", out_obj, stream, fast);
  require_dtype(fn, out, {ops::DType::f32}, "; the result of sgemm is float32");
  require_same_device(fn, a, out);
  require_2d(fn, out);
  require_shape(fn, out, {m, n}, "a's rows by b's columns");
  require_element_aligned(fn, out, 4);
  ops::Matrix const md = as_matrix(fn, out);
  require_disjoint(fn, out, a, 4, 4);
  require_disjoint(fn, out, b, 4, 4);
  auto* const d = static_cast<float*>(out.data());
  ops::sgemm_check(fn, int(m), int(n), int(k), ma, mb, d, md.ld, md.row_major);
  if (m == 0 || n == 0) return out_obj;
  DeviceGuard guard(fn, a.device());
  ensure_compiled(fn, ops::Op::sgemm, 0);
  device_call(fn, "the kernel launch", [&] {
    ops::sgemm(int(m), int(n), int(k), 1.0f, ma, mb, 0.0f, d, md.ld, md.row_major, as_stream(stream));
  });
  return out_obj;
}

// ---- copy --------------------------------------------------------------------------------------

// A matrix as copy's kernel sees it: the row-major view (rows, cols, ld) of its storage -- of its
// transpose when it is column-major -- and which order that is. A mode of extent 1 has no stride
// that matters (then ld is the row rounded up to whole 16-byte vectors); where both orders fit
// (a vector), the one whose unit-stride extent is longer. ValueError naming the fix for strides that
// are neither.
struct RowView {
  std::int64_t rows = 0, cols = 0, ld = 0;
  bool row_major = true;
};

RowView copy_view(char const* fn, Imported const& t, int esize) {
  std::int64_t const r = t.shape()[0], c = t.shape()[1];
  std::int64_t const s0 = t.strides()[0], s1 = t.strides()[1];
  std::int64_t const vec = 16 / esize;
  auto padded = [vec](std::int64_t x) { return (std::max<std::int64_t>(x, 1) + vec - 1) / vec * vec; };
  bool const row_ok = (c == 1 || s1 == 1) && (r == 1 || s0 >= std::max<std::int64_t>(c, 1));
  bool const col_ok = (r == 1 || s0 == 1) && (c == 1 || s1 >= std::max<std::int64_t>(r, 1));
  if (row_ok && (!col_ok || c >= r)) return {r, c, r == 1 ? padded(c) : s0, true};
  if (col_ok) return {c, r, c == 1 ? padded(r) : s1, false};
  value_error(std::string(fn) + ": " + t.name() + " has shape " + tuple_text(t.shape()) + " and strides " +
              tuple_text(t.strides()) +
              "; the kernel copies row-major (strides (ld, 1), ld >= columns) or column-major (strides (1, ld), ld >= "
              "rows) matrices: pass " +
              t.name() + ".contiguous()");
}

py::object copy(py::object src_obj, py::object out_obj, std::uintptr_t stream, py::object allocate, bool fast) {
  char const* fn = "tessera.ops.copy";
  Imported src(fn, "src", src_obj, stream, fast);
  int const esize = src.element_bytes();
  if (!src.dtype_copyable() || (esize != 2 && esize != 4))
    type_error(std::string(fn) + ": src is " + src.dtype_text() +
               "; copy moves numbers of 2 or 4 bytes (float16, bfloat16, int16, uint16, float32, int32, uint32, "
               "complex32): for another dtype use the framework's own copy (e.g. src.clone())");
  if (src.ndim() != 2)
    value_error(std::string(fn) + ": src must be a matrix (2-D), got shape " + tuple_text(src.shape()) +
                "; view it as one, e.g. src.reshape(-1, src.shape[-1]) (or src[None, :] for a vector)");
  for (std::int64_t e : src.shape())
    if (e >= (std::int64_t(1) << 31))
      value_error(std::string(fn) + ": src's extents must be < 2^31, got " + tuple_text(src.shape()));
  require_element_aligned(fn, src, esize);
  RowView const v = copy_view(fn, src, esize);
  auto const vec = 16 / esize;
  if (src.numel() != 0) {
    if (v.cols % vec != 0)
      value_error(std::string(fn) + ": src's unit-stride mode has " + std::to_string(v.cols) + " elements of " +
                  std::to_string(esize) +
                  " bytes, not whole 16-byte vectors; the kernel moves 128-bit vectors "
                  "(cp.async): pad that extent to a multiple of " +
                  std::to_string(vec) + " elements");
    if (v.ld % vec != 0)
      value_error(std::string(fn) + ": src's leading dimension " + std::to_string(v.ld) + " (strides " +
                  tuple_text(src.strides()) +
                  ") is not a multiple of 16 bytes; every row must start on a 16-byte "
                  "boundary for cp.async: pass src.contiguous()");
    if (reinterpret_cast<std::uintptr_t>(src.data()) % 16 != 0)
      value_error(std::string(fn) +
                  ": src's data pointer is not 16-byte aligned (cp.async moves 16-byte vectors): "
                  "pass a copy that starts aligned, e.g. src.clone()");
  }
  if (out_obj.is_none()) out_obj = make_result(allocate, src.shape(), src.strides(), src.dtype_text(), src.device());
  Imported out(fn, "out", out_obj, stream, fast);
  if (out.dtype_text() != src.dtype_text() || out.element_bytes() != esize)
    type_error(std::string(fn) + ": out is " + out.dtype_text() + " and src " + src.dtype_text() +
               "; out must have src's dtype (copy converts nothing)");
  require_same_device(fn, src, out);
  require_shape(fn, out, src.shape(), "src's shape");
  require_element_aligned(fn, out, esize);
  if (src.numel() == 0) return out_obj;
  RowView const w = copy_view(fn, out, esize);
  if (w.row_major != v.row_major || (v.rows > 1 && w.ld != v.ld))
    value_error(std::string(fn) + ": out has strides " + tuple_text(out.strides()) + " and src " +
                tuple_text(src.strides()) +
                "; out must be stored like src (one leading dimension for both): leave out to None, or pass "
                "out=torch.empty_strided(src.shape, src.stride(), dtype=src.dtype, device=src.device)");
  if (reinterpret_cast<std::uintptr_t>(out.data()) % 16 != 0)
    value_error(std::string(fn) +
                ": out's data pointer is not 16-byte aligned (cp.async moves 16-byte vectors): "
                "write into a fresh tensor");
  if (!same_view(out, src) && overlap(out.extent(esize), src.extent(esize)))
    value_error(std::string(fn) + ": out overlaps src without being the same elements; write into separate memory");
  DeviceGuard guard(fn, src.device());
  ensure_compiled(fn, ops::Op::copy, esize);
  device_call(fn, "the kernel launch",
              [&] { ops::copy(esize, src.data(), out.data(), int(v.rows), int(v.cols), v.ld, as_stream(stream)); });
  return out_obj;
}

// ---- gemm --------------------------------------------------------------------------------------

int activation_code(char const* fn, py::object const& activation) {
  if (activation.is_none()) return 0;
  if (!py::isinstance<py::str>(activation))
    type_error(std::string(fn) + ": activation must be None or one of 'relu', 'gelu', 'gelu_tanh', got " +
               std::string(py::str(py::type::handle_of(activation).attr("__name__"))));
  auto const s = activation.cast<std::string>();
  if (s == "none") return 0;
  if (s == "relu") return 1;
  if (s == "gelu") return 2;
  if (s == "gelu_tanh") return 3;
  value_error(std::string(fn) + ": activation '" + s +
              "' is not one of None, 'relu', 'gelu' (exact erf form), 'gelu_tanh'");
}

py::object gemm(py::object a_obj, py::object b_obj, py::object c_obj, double alpha, py::object beta_obj,
                py::object bias_obj, py::object activation, py::object out_obj, py::object out_dtype_obj,
                std::uintptr_t stream, py::object allocate, bool fast) {
  char const* fn = "tessera.ops.gemm";
  int const act = activation_code(fn, activation);
  Imported a(fn, "a", a_obj, stream, fast);
  Imported b(fn, "b", b_obj, stream, fast);
  std::string const hint =
      "; gemm takes float16 or bfloat16 inputs (tessera.ops.sgemm is fp32): convert, e.g. a.to(torch.bfloat16)";
  ops::DType const in = require_dtype(fn, a, {ops::DType::f16, ops::DType::bf16}, hint);
  require_dtype(fn, b, {ops::DType::f16, ops::DType::bf16}, hint);
  if (b.dtype() != in)
    type_error(std::string(fn) + ": a is " + dtype_name(in) + " and b " + b.dtype_text() +
               "; a and b must have one dtype: convert one");
  auto const [m, k, n] = product_extents(fn, a, b);
  if (m == 0 || n == 0 || k == 0)
    value_error(std::string(fn) + ": M, N and K must be >= 1, got a " + tuple_text(a.shape()) + " and b " +
                tuple_text(b.shape()));
  require_element_aligned(fn, a, 2);
  require_element_aligned(fn, b, 2);
  ops::Matrix const ma = as_matrix(fn, a), mb = as_matrix(fn, b);

  std::optional<Imported> c, bias;
  if (!c_obj.is_none()) c.emplace(fn, "c", c_obj, stream, fast);
  if (!bias_obj.is_none()) bias.emplace(fn, "bias", bias_obj, stream, fast);
  // The output type: out_dtype, else out's, else c's, else the inputs'.
  std::optional<ops::DType> out_type;
  if (!out_dtype_obj.is_none()) {
    auto const name = py::str(out_dtype_obj).cast<std::string>();
    out_type = dtype_from_name(name);
    if (!out_type || (*out_type != in && *out_type != ops::DType::f32))
      type_error(std::string(fn) + ": out_dtype " + name + " is not the inputs' dtype (" + dtype_name(in) +
                 ") or float32");
  }
  std::vector<ops::DType> const outs = {in, ops::DType::f32};
  std::string const out_hint = std::string("; the output type is the inputs' (") + dtype_name(in) + ") or float32";
  std::optional<Imported> out;
  if (!out_obj.is_none()) out.emplace(fn, "out", out_obj, stream, fast);
  if (!out_type && out) out_type = require_dtype(fn, *out, outs, out_hint);
  if (!out_type && c) out_type = require_dtype(fn, *c, outs, out_hint);
  ops::DType const tout = out_type.value_or(in);
  int const ob = element_bytes(tout);

  double const beta = beta_obj.is_none() ? (c ? 1.0 : 0.0) : beta_obj.cast<double>();
  if (beta != 0.0 && !c)
    value_error(std::string(fn) + ": beta = " + std::to_string(beta) + " needs c (D = alpha A B + beta C); pass c");
  std::optional<ops::Matrix> mc;
  if (c) {
    require_same_device(fn, a, *c);
    if (c->dtype() != tout)
      type_error(std::string(fn) + ": c is " + c->dtype_text() + " but the output is " + dtype_name(tout) +
                 "; c must have the output's dtype: convert it, e.g. c.to(torch." + dtype_name(tout) + ")");
    require_2d(fn, *c);
    require_shape(fn, *c, {m, n}, "a's rows by b's columns");
    require_element_aligned(fn, *c, ob);
    mc = as_matrix(fn, *c);
  }
  if (bias) {
    require_same_device(fn, a, *bias);
    if (bias->dtype() != tout)
      type_error(std::string(fn) + ": bias is " + bias->dtype_text() + " but the output is " + dtype_name(tout) +
                 "; bias must have the output's dtype: convert it, e.g. bias.to(torch." + dtype_name(tout) + ")");
    require_shape(fn, *bias, {n}, "one element per column of the output");
    require_element_aligned(fn, *bias, ob);
    if (n > 1 && bias->strides()[0] != 1)
      value_error(std::string(fn) + ": bias must be contiguous (stride 1): pass bias.contiguous()");
  }
  // Without out: D is allocated in c's storage order (C and D share one), else row-major.
  if (out_obj.is_none()) {
    bool const row = !mc || mc->row_major;
    out_obj = make_result(allocate, {m, n}, row ? std::vector<std::int64_t>{n, 1} : std::vector<std::int64_t>{1, m},
                          tout, a.device());
    out.emplace(fn, "out", out_obj, stream, fast);
  }
  if (out->dtype() != tout)
    type_error(std::string(fn) + ": out is " + out->dtype_text() + " but the output type is " + dtype_name(tout) +
               "; pass an out of that dtype or out_dtype=" + out->dtype_text());
  require_same_device(fn, a, *out);
  require_2d(fn, *out);
  require_shape(fn, *out, {m, n}, "a's rows by b's columns");
  require_element_aligned(fn, *out, ob);
  ops::Matrix const md = as_matrix(fn, *out);
  if (mc && mc->row_major != md.row_major)
    value_error(
        std::string(fn) + ": c is " + (mc->row_major ? "row" : "column") + "-major and out " +
        (md.row_major ? "row" : "column") +
        "-major; they must share one storage order: pass c.contiguous() with a row-major out, or leave out to None");
  require_disjoint(fn, *out, a, ob, 2);
  require_disjoint(fn, *out, b, ob, 2);
  if (bias) require_disjoint(fn, *out, *bias, ob, ob);
  if (c && !same_view(*out, *c) && overlap(out->extent(ob), c->extent(ob)))
    value_error(
        std::string(fn) +
        ": out overlaps c without being the same elements; pass out=c to update c in place, or separate memory");

  ops::GemmArgs g;
  g.m = int(m);
  g.n = int(n);
  g.k = int(k);
  g.in = in;
  g.out = tout;
  g.alpha = float(alpha);
  g.beta = float(beta);
  g.a = ma;
  g.b = mb;
  if (mc) {
    g.c = mc->ptr;
    g.ldc = mc->ld;
  }
  g.d = out->data();
  g.ldd = md.ld;
  g.cd_row_major = md.row_major;
  g.bias = bias ? bias->data() : nullptr;
  g.activation = act;
  DeviceGuard guard(fn, a.device());
  // The kernel for the shape on this device, compiled with the GIL released (seconds the first
  // time on a machine), then launched in the context the guard made current.
  int key = 0;
  device_call(fn, "asking the device", [&] { key = ops::gemm_key(g, ops::gemm_sms()); });
  ensure_compiled(fn, ops::Op::gemm, key);
  device_call(fn, "the kernel launch", [&] { ops::gemm(g, as_stream(stream)); });
  return out_obj;
}

// ---- grouped gemm --------------------------------------------------------------------------------

// The leading dimension of a row-major view: (rows, cols) with strides (s0, 1); rows <= 1 take cols
// (a single row's pitch does not matter). ValueError naming the fix for any other strides.
std::int64_t row_major_ld(char const* fn, Imported const& t, std::int64_t rows, std::int64_t cols, std::int64_t s0,
                          std::int64_t s1, char const* what) {
  if ((cols <= 1 || s1 == 1) && (rows <= 1 || s0 >= cols)) return rows <= 1 ? cols : s0;
  value_error(std::string(fn) + ": " + t.name() + " has shape " + tuple_text(t.shape()) + " and strides " +
              tuple_text(t.strides()) + "; " + what + " must be row-major (its last dimension contiguous): pass " +
              t.name() + ".contiguous()");
}

// tessera.ops.grouped_gemm: D_g = alpha A_g B_g; form "offsets" / "ends": a (rows, K), rows (int32:
// groups + 1 offsets / groups cumulative ends), out (rows, N); "masked": a (G, capacity, K), rows
// the G valid counts, out (G, capacity, N). b (G, K, N) with K or N contiguous.
py::object grouped_gemm(py::object a_obj, py::object b_obj, py::object rows_obj, std::string const& form, double alpha,
                        py::object out_obj, py::object out_dtype_obj, std::uintptr_t stream, py::object allocate,
                        bool fast) {
  char const* fn = "tessera.ops.grouped_gemm";
  int const f = form == "offsets" ? 0 : form == "ends" ? 1 : form == "masked" ? 2 : -1;
  if (f < 0) value_error(std::string(fn) + ": form must be 'offsets', 'ends' or 'masked', got '" + form + "'");
  bool const masked = f == 2;
  Imported a(fn, "a", a_obj, stream, fast);
  Imported b(fn, "b", b_obj, stream, fast);
  Imported rows(fn, f == 0 ? "offsets" : f == 1 ? "ends" : "masked_m", rows_obj, stream, fast);
  std::string const hint = "; grouped_gemm takes float16 or bfloat16 inputs: convert, e.g. a.to(torch.bfloat16)";
  ops::DType const in = require_dtype(fn, a, {ops::DType::f16, ops::DType::bf16}, hint);
  require_dtype(fn, b, {ops::DType::f16, ops::DType::bf16}, hint);
  if (b.dtype() != in)
    type_error(std::string(fn) + ": a is " + dtype_name(in) + " and b " + b.dtype_text() +
               "; a and b must have one dtype: convert one");
  require_same_device(fn, a, b);
  require_same_device(fn, a, rows);
  if (b.ndim() != 3) value_error(std::string(fn) + ": b must be (groups, K, N), got shape " + tuple_text(b.shape()));
  std::int64_t const G = b.shape()[0], K = b.shape()[1], N = b.shape()[2];
  if (G < 1 || K < 1 || N < 1)
    value_error(std::string(fn) + ": b's extents must be >= 1, got " + tuple_text(b.shape()));
  // B_g (K, N): N contiguous (row-major, ldb >= N) or K contiguous (column-major: the transposed view
  // of (G, N, K) weights, ldb >= K)
  auto const& bs = b.strides();
  bool b_row = true;
  std::int64_t ldb = 0;
  if ((N == 1 || bs[2] == 1) && (K == 1 || bs[1] >= N)) {
    ldb = K == 1 ? (N + 7) / 8 * 8 : bs[1];
  } else if ((K == 1 || bs[1] == 1) && (N == 1 || bs[2] >= K)) {
    b_row = false;
    ldb = N == 1 ? (K + 7) / 8 * 8 : bs[2];
  } else {
    value_error(std::string(fn) + ": b has shape " + tuple_text(b.shape()) + " and strides " + tuple_text(bs) +
                "; each b[g] (K, N) must have N or K contiguous: pass b.contiguous() or the transpose of a "
                "contiguous (groups, N, K) tensor");
  }
  std::int64_t const stride_b = G == 1 ? (b_row ? K : N) * ldb : bs[0];
  // A: (rows, K), or (G, capacity, K) masked
  std::int64_t capacity = 0, total = 0, lda = 0;
  if (masked) {
    if (a.ndim() != 3 || a.shape()[0] != G || a.shape()[2] != K)
      value_error(std::string(fn) + ": with masked_m, a must be (groups, capacity, K) = (" + std::to_string(G) +
                  ", capacity, " + std::to_string(K) + "), got shape " + tuple_text(a.shape()));
    capacity = a.shape()[1];
    total = G * capacity;
    lda = row_major_ld(fn, a, capacity, K, a.strides()[1], a.strides()[2], "each a[g]");
    if (G > 1 && capacity > 0 && a.strides()[0] != capacity * lda)
      value_error(std::string(fn) +
                  ": a's groups must follow each other (stride of dimension 0 = capacity x "
                  "its row stride): pass a.contiguous()");
  } else {
    if (a.ndim() != 2 || a.shape()[1] != K)
      value_error(std::string(fn) + ": a must be (rows, K) with b's K = " + std::to_string(K) + ", got shape " +
                  tuple_text(a.shape()));
    total = a.shape()[0];
    lda = row_major_ld(fn, a, total, K, a.strides()[0], a.strides()[1], "a");
  }
  for (std::int64_t v : {G, K, N, total, lda, ldb, capacity})
    if (v >= (std::int64_t(1) << 31))
      value_error(std::string(fn) + ": extents and strides must be < 2^31; split the groups into several calls");
  // rows: int32, contiguous, groups + 1 (offsets) or groups values
  std::int64_t const count = f == 0 ? G + 1 : G;
  if (rows.dtype_text() != "int32")
    type_error(std::string(fn) + ": " + rows.name() + " is " + rows.dtype_text() +
               "; it must be int32: convert, e.g. " + rows.name() + ".to(torch.int32)");
  if (rows.ndim() != 1 || rows.shape()[0] != count || (count > 1 && rows.strides()[0] != 1))
    value_error(std::string(fn) + ": " + rows.name() + " must be a contiguous 1-D tensor of " + std::to_string(count) +
                (f == 0 ? " offsets (groups + 1)" : " values (one per group)") + ", got shape " +
                tuple_text(rows.shape()) + " and strides " + tuple_text(rows.strides()));
  // the output type: out_dtype, else out's, else the inputs'
  std::optional<ops::DType> out_type;
  if (!out_dtype_obj.is_none()) {
    auto const name = py::str(out_dtype_obj).cast<std::string>();
    out_type = dtype_from_name(name);
    if (!out_type || (*out_type != in && *out_type != ops::DType::f32))
      type_error(std::string(fn) + ": out_dtype " + name + " is not the inputs' dtype (" + dtype_name(in) +
                 ") or float32");
  }
  std::optional<Imported> out;
  if (!out_obj.is_none()) out.emplace(fn, "out", out_obj, stream, fast);
  if (!out_type && out)
    out_type = require_dtype(fn, *out, {in, ops::DType::f32},
                             std::string("; the output type is the inputs' (") + dtype_name(in) + ") or float32");
  ops::DType const tout = out_type.value_or(in);
  int const ob = element_bytes(tout);
  std::vector<std::int64_t> const out_shape =
      masked ? std::vector<std::int64_t>{G, capacity, N} : std::vector<std::int64_t>{total, N};
  if (!out) {
    out_obj = make_result(allocate, out_shape,
                          masked ? std::vector<std::int64_t>{capacity * N, N, 1} : std::vector<std::int64_t>{N, 1},
                          tout, a.device());
    out.emplace(fn, "out", out_obj, stream, fast);
  }
  if (out->dtype() != tout)
    type_error(std::string(fn) + ": out is " + out->dtype_text() + " but the output type is " + dtype_name(tout) +
               "; pass an out of that dtype or out_dtype=" + out->dtype_text());
  require_same_device(fn, a, *out);
  require_shape(fn, *out, out_shape, masked ? "groups x capacity x N" : "a's rows by N");
  std::int64_t ldd = 0;
  if (masked) {
    ldd = row_major_ld(fn, *out, capacity, N, out->strides()[1], out->strides()[2], "each out[g]");
    if (G > 1 && capacity > 0 && out->strides()[0] != capacity * ldd)
      value_error(std::string(fn) + ": out's groups must follow each other: pass a contiguous out");
  } else {
    ldd = row_major_ld(fn, *out, total, N, out->strides()[0], out->strides()[1], "out");
  }
  require_disjoint(fn, *out, a, ob, 2);
  require_disjoint(fn, *out, b, ob, 2);

  ops::GroupedGemmArgs g;
  g.groups = int(G);
  g.m = int(masked ? capacity : total);
  g.n = int(N);
  g.k = int(K);
  g.in = in;
  g.out = tout;
  g.alpha = float(alpha);
  g.form = f;
  g.rows = static_cast<int const*>(rows.data());
  g.a = a.data();
  g.lda = int(lda);
  g.b = b.data();
  g.ldb = int(ldb);
  g.stride_b = stride_b;
  g.b_row_major = b_row;
  g.d = out->data();
  g.ldd = int(ldd);
  DeviceGuard guard(fn, a.device());
  int const key = ops::grouped_gemm_key(g);  // std::invalid_argument (a ValueError) for a refused problem
  ensure_compiled(fn, ops::Op::grouped_gemm, key);
  device_call(fn, "the kernel launch", [&] { ops::grouped_gemm(g, as_stream(stream)); });
  return out_obj;
}

// ---- scaled gemm (fp8) ---------------------------------------------------------------------------

// One fp8 scale argument as the kernel takes it: its kind (ops::ScaledGemmArgs: 1 tensor, 2
// vector, 3 block) and its data.
struct Fp8Scale {
  int kind = 0;
  float const* data = nullptr;
};

std::string fp8_shape_text(std::int64_t r, std::int64_t c) { return tuple_text({r, c}); }

// tessera.ops.scaled_gemm: out (M, N) = sa sb (a @ b) (+ bias) for a (M, K) row-major and b (K, N)
// column-major, both float8_e4m3fn or both float8_e5m2; scales fp32: one value (per tensor), (M, 1)
// and (1, N) (per row of a, per column of b), or blocks: (M, ceil(K/128)) M-major for a's 1 x 128
// blocks and (ceil(N/128), ceil(K/128)) row-major for b's 128 x 128 blocks.
py::object scaled_gemm(py::object a_obj, py::object b_obj, py::object sa_obj, py::object sb_obj, py::object bias_obj,
                       py::object out_obj, py::object out_dtype_obj, std::uintptr_t stream, py::object allocate,
                       bool fast) {
  char const* fn = "tessera.ops.scaled_gemm";
  Imported a(fn, "a", a_obj, stream, fast);
  Imported b(fn, "b", b_obj, stream, fast);
  auto const fp8 = [&](Imported const& t) {
    std::string const& d = t.dtype_text();
    if (d != "float8_e4m3fn" && d != "float8_e5m2")
      type_error(std::string(fn) + ": " + t.name() + " is " + d +
                 "; it must be float8_e4m3fn or float8_e5m2 (tessera.ops.gemm multiplies float16 and bfloat16): "
                 "quantize it, e.g. (" +
                 t.name() + " / scale).to(torch.float8_e4m3fn)");
    return d == "float8_e5m2";
  };
  bool const e5m2 = fp8(a);
  if (fp8(b) != e5m2)
    type_error(std::string(fn) + ": a is " + a.dtype_text() + " and b " + b.dtype_text() +
               "; the kernel multiplies two operands of one fp8 type (mixed e4m3 x e5m2 is not supported yet): "
               "convert one, e.g. b.float().to(torch." +
               a.dtype_text() + ")");
  auto const [m, k, n] = product_extents(fn, a, b);
  if (m == 0 || n == 0 || k == 0)
    value_error(std::string(fn) + ": M, N and K must be >= 1, got a " + tuple_text(a.shape()) + " and b " +
                tuple_text(b.shape()));
  if (k % 16 != 0)
    value_error(std::string(fn) + ": K = " + std::to_string(k) +
                " is not a multiple of 16 (fp8 rows must be whole 16-byte units for TMA): pad a's columns and b's "
                "rows with zeros to K = " +
                std::to_string((k + 15) / 16 * 16) + " (the product does not change)");
  require_element_aligned(fn, a, 1);
  require_element_aligned(fn, b, 1);
  // a (M, K) K-major: row-major; b (K, N) K-major: column-major (wgmma's only fp8 form). A single
  // row (column) has no pitch that matters: K, already a multiple of 16.
  auto const& as = a.strides();
  auto const& bs = b.strides();
  if (!(as[1] == 1 && (m == 1 || as[0] >= k)))
    value_error(std::string(fn) + ": a has shape " + tuple_text(a.shape()) + " and strides " + tuple_text(as) +
                "; a must be row-major (strides (lda, 1), K contiguous: the only fp8 form of the tensor cores): pass "
                "a.contiguous()");
  if (!(bs[0] == 1 && (n == 1 || bs[1] >= k)))
    value_error(std::string(fn) + ": b has shape " + tuple_text(b.shape()) + " and strides " + tuple_text(bs) +
                "; b must be column-major (strides (1, ldb), K contiguous, as torch._scaled_mm takes it): pass the "
                "transpose of a row-major (N, K) tensor, e.g. w.t() for w of shape (N, K), or b.t().contiguous().t()");
  std::int64_t const lda = m == 1 ? k : as[0], ldb = n == 1 ? k : bs[1];
  if (lda % 16 != 0 || ldb % 16 != 0)
    value_error(
        std::string(fn) + ": a's row stride " + std::to_string(lda) + " and b's column stride " + std::to_string(ldb) +
        " must be multiples of 16 elements (16-byte rows for TMA): pass a.contiguous() and b.t().contiguous().t()");
  if (lda >= (std::int64_t(1) << 31) || ldb >= (std::int64_t(1) << 31))
    value_error(std::string(fn) + ": a's and b's strides must be < 2^31; pass compact copies");
  auto const aligned16 = [](void const* p) { return reinterpret_cast<std::uintptr_t>(p) % 16 == 0; };
  if (!aligned16(a.data()) || !aligned16(b.data()))
    value_error(std::string(fn) +
                ": a's and b's data must start 16-byte aligned (TMA); a view that starts inside a row is not: pass a "
                "fresh copy (.clone())");
  // The scales: fp32 on a's device; their kinds from their shapes.
  Imported sa(fn, "scale_a", sa_obj, stream, fast);
  Imported sb(fn, "scale_b", sb_obj, stream, fast);
  for (Imported const* s : {&sa, &sb}) {
    require_dtype(fn, *s, {ops::DType::f32},
                  std::string("; scales are float32: convert, e.g. ") + s->name() + ".float()");
    require_same_device(fn, a, *s);
    require_element_aligned(fn, *s, 4);
  }
  std::int64_t const kb = (k + 127) / 128, nb = (n + 127) / 128;
  auto const is2 = [](Imported const& t, std::int64_t r, std::int64_t c) {
    return t.ndim() == 2 && t.shape()[0] == r && t.shape()[1] == c;
  };
  // Block scales: a (M, KB) with KB > 1; b (NB, KB) that is not b's row-wise shape (1, N). With one
  // k-block (K <= 128), a's blocks are its rows' scales: (M, 1) is then a block scale when b's is.
  bool b_block = is2(sb, nb, kb) && !is2(sb, 1, n) && sb.numel() > 1;
  bool a_block = is2(sa, m, kb) && (kb > 1 || b_block);
  if (a_block && !b_block && is2(sb, nb, kb)) b_block = true;  // N <= 128 with KB == N: (1, N) is b's blocks
  auto const kind = [&](Imported const& t, bool block, bool is_a) -> Fp8Scale {
    std::string const name = t.name();
    if (block) {
      // a: M contiguous (strides (1, M): the transposed layout torch._scaled_mm and DeepGEMM take);
      // b: K-blocks contiguous (row-major)
      bool const ok = is_a ? (m == 1 || t.strides()[0] == 1) && (kb == 1 || t.strides()[1] == m)
                           : (kb == 1 || t.strides()[1] == 1) && (nb == 1 || t.strides()[0] == kb);
      if (!ok)
        value_error(std::string(fn) + ": " + name + " has shape " + tuple_text(t.shape()) + " and strides " +
                    tuple_text(t.strides()) + "; " +
                    (is_a ? "a's 1 x 128 block scales must be stored M-major, strides (1, M) = (1, " +
                                std::to_string(m) + ") (torch._scaled_mm's and DeepGEMM's layout): pass " + name +
                                ".t().contiguous().t()"
                          : "b's 128 x 128 block scales must be row-major, strides (ceil(K/128), 1) = (" +
                                std::to_string(kb) + ", 1): pass " + name + ".contiguous()"));
      return {3, static_cast<float const*>(t.data())};
    }
    if (t.numel() == 1) return {1, static_cast<float const*>(t.data())};
    std::int64_t const count = is_a ? m : n;
    if (is_a ? is2(t, m, 1) : is2(t, 1, n)) {
      if (t.strides()[is_a ? 0 : 1] != 1)
        value_error(std::string(fn) + ": " + name + " has shape " + tuple_text(t.shape()) + " and strides " +
                    tuple_text(t.strides()) + "; its " + std::to_string(count) + " values must be contiguous: pass " +
                    name + ".contiguous()");
      return {2, static_cast<float const*>(t.data())};
    }
    value_error(std::string(fn) + ": " + name + " has shape " + tuple_text(t.shape()) +
                (is_a ? "; for a " + tuple_text(a.shape()) + " it must be one value (per tensor: shape () or (1,)), " +
                            fp8_shape_text(m, 1) + " (one per row of a) or " + fp8_shape_text(m, kb) +
                            " (one per 1 x 128 block of a, with b's 128 x 128 blocks)"
                      : "; for b " + tuple_text(b.shape()) + " it must be one value (per tensor: shape () or (1,)), " +
                            fp8_shape_text(1, n) + " (one per column of b) or " + fp8_shape_text(nb, kb) +
                            " (one per 128 x 128 block of b, with a's 1 x 128 blocks)"));
  };
  Fp8Scale const scale_a = kind(sa, a_block, true), scale_b = kind(sb, b_block, false);
  if ((scale_a.kind == 3) != (scale_b.kind == 3))
    value_error(std::string(fn) + ": scale_a has shape " + tuple_text(sa.shape()) + " and scale_b " +
                tuple_text(sb.shape()) + "; block scales go together (a's 1 x 128 blocks " + fp8_shape_text(m, kb) +
                " with b's 128 x 128 blocks " + fp8_shape_text(nb, kb) +
                "): give both as blocks, or neither (per tensor or per row/column)");
  // The output type: out_dtype, else out's, else bfloat16.
  std::vector<ops::DType> const outs = {ops::DType::bf16, ops::DType::f16, ops::DType::f32};
  std::optional<ops::DType> out_type;
  if (!out_dtype_obj.is_none()) {
    auto const name = py::str(out_dtype_obj).cast<std::string>();
    out_type = dtype_from_name(name);
    if (!out_type)
      type_error(std::string(fn) + ": out_dtype " + name +
                 " is not bfloat16, float16 or float32 (no fp8 results: quantize the result yourself)");
  }
  std::optional<Imported> out, bias;
  if (!out_obj.is_none()) out.emplace(fn, "out", out_obj, stream, fast);
  if (!out_type && out)
    out_type = require_dtype(fn, *out, outs, "; the result of scaled_gemm is bfloat16, float16 or float32");
  ops::DType const tout = out_type.value_or(ops::DType::bf16);
  int const ob = element_bytes(tout);
  if (!bias_obj.is_none()) {
    bias.emplace(fn, "bias", bias_obj, stream, fast);
    require_same_device(fn, a, *bias);
    if (bias->dtype() != tout)
      type_error(std::string(fn) + ": bias is " + bias->dtype_text() + " but the output is " + dtype_name(tout) +
                 "; bias must have the output's dtype: convert it, e.g. bias.to(torch." + dtype_name(tout) + ")");
    require_shape(fn, *bias, {n}, "one element per column of the output");
    require_element_aligned(fn, *bias, ob);
    if (n > 1 && bias->strides()[0] != 1)
      value_error(std::string(fn) + ": bias must be contiguous (stride 1): pass bias.contiguous()");
  }
  if (!out) {
    out_obj = make_result(allocate, {m, n}, {n, 1}, tout, a.device());
    out.emplace(fn, "out", out_obj, stream, fast);
  }
  if (out->dtype() != tout)
    type_error(std::string(fn) + ": out is " + out->dtype_text() + " but the output type is " + dtype_name(tout) +
               "; pass an out of that dtype or out_dtype=" + out->dtype_text());
  require_same_device(fn, a, *out);
  require_2d(fn, *out);
  require_shape(fn, *out, {m, n}, "a's rows by b's columns");
  require_element_aligned(fn, *out, ob);
  ops::Matrix const md = as_matrix(fn, *out);
  if (scale_a.kind == 3 && !md.row_major)
    value_error(std::string(fn) +
                ": out is column-major; with block scales the result must be row-major: pass a row-major out (or "
                "none)");
  require_disjoint(fn, *out, a, ob, 1);
  require_disjoint(fn, *out, b, ob, 1);
  require_disjoint(fn, *out, sa, ob, 4);
  require_disjoint(fn, *out, sb, ob, 4);
  if (bias) require_disjoint(fn, *out, *bias, ob, ob);

  ops::ScaledGemmArgs g;
  g.m = int(m);
  g.n = int(n);
  g.k = int(k);
  g.e5m2 = e5m2;
  g.out = tout;
  g.a = a.data();
  g.lda = int(lda);
  g.b = b.data();
  g.ldb = int(ldb);
  g.d = out->data();
  g.ldd = md.ld;
  g.d_row_major = md.row_major;
  g.bias = bias ? bias->data() : nullptr;
  g.scale_a_kind = scale_a.kind;
  g.scale_a = scale_a.data;
  g.scale_b_kind = scale_b.kind;
  g.scale_b = scale_b.data;
  DeviceGuard guard(fn, a.device());
  int key = 0;  // std::invalid_argument (a ValueError) for a problem the kernel refuses
  device_call(fn, "asking the device", [&] { key = ops::scaled_gemm_key(fn, g, ops::gemm_sms()); });
  ensure_compiled(fn, ops::Op::scaled_gemm, key);
  device_call(fn, "the kernel launch", [&] { ops::scaled_gemm(fn, g, as_stream(stream)); });
  return out_obj;
}

// ---- attention ----------------------------------------------------------------------------------

// q, k and v's one dtype, float16 or bfloat16 (TypeError otherwise).
ops::DType attention_dtype(char const* fn, Imported const& q, Imported const& k, Imported const& v) {
  std::string const hint =
      "; attention takes float16 or bfloat16 (fp32 accumulation inside): convert, e.g. q.to(torch.bfloat16)";
  std::vector<ops::DType> const types = {ops::DType::f16, ops::DType::bf16};
  ops::DType const dt = require_dtype(fn, q, types, hint);
  require_dtype(fn, k, types, hint);
  require_dtype(fn, v, types, hint);
  if (k.dtype() != dt || v.dtype() != dt)
    type_error(std::string(fn) + ": q is " + dtype_name(dt) + ", k " + k.dtype_text() + " and v " + v.dtype_text() +
               "; q, k and v must have one dtype: convert, e.g. k.to(q.dtype)");
  require_same_device(fn, q, k);
  require_same_device(fn, q, v);
  return dt;
}

// t has `modes` modes (`layout` names them), each extent < 2^31.
void attention_modes(char const* fn, Imported const& t, int modes, char const* layout, char const* fix) {
  if (t.ndim() != modes)
    value_error(std::string(fn) + ": " + t.name() + " must be " + std::to_string(modes) + "-D " + layout +
                ", got shape " + tuple_text(t.shape()) + "; " + fix);
  for (std::int64_t e : t.shape())
    if (e >= (std::int64_t(1) << 31))
      value_error(std::string(fn) + ": " + t.name() + "'s extents must be < 2^31, got " + tuple_text(t.shape()));
}

// head_dim (the last mode) is 64, 128 or 256.
void attention_head_dim(char const* fn, std::int64_t d) {
  if (d != 64 && d != 128 && d != 256)
    value_error(std::string(fn) + ": head_dim must be 64, 128 or 256 (got " + std::to_string(d) +
                "); the kernel has no other: pad q, k and v with zeros to the next one, pass scale=1/sqrt(" +
                std::to_string(d) + ") and slice O's head_dim back");
}

// k's heads divide q's.
void attention_heads(char const* fn, std::int64_t hq, std::int64_t hkv) {
  if (hkv == 0 || hq % hkv != 0)
    value_error(std::string(fn) + ": k's heads (" + std::to_string(hkv) + ") must divide q's heads (" +
                std::to_string(hq) +
                "): query head h reads key/value head h // (heads_q // heads_kv) (grouped-query "
                "attention)");
}

// What TMA reads: head_dim (the last mode) contiguous, the data 16-byte aligned, the other modes'
// strides multiples of 8 elements where their extent is > 1, rows (mode seq_mode) not overlapping.
void attention_rows(char const* fn, Imported const& t, int seq_mode, std::int64_t d) {
  std::string const name = t.name();
  int const last = t.ndim() - 1;
  if (t.strides()[std::size_t(last)] != 1)
    value_error(std::string(fn) + ": " + name + " has strides " + tuple_text(t.strides()) +
                "; its head_dim stride must be 1 (the kernel reads contiguous rows with TMA): pass " + name +
                ".contiguous()");
  if (reinterpret_cast<std::uintptr_t>(t.data()) % 16 != 0)
    value_error(std::string(fn) + ": " + name +
                "'s data pointer is not 16-byte aligned (TMA reads from 16-byte aligned addresses): pass a copy that "
                "starts aligned, e.g. " +
                name + ".clone()");
  for (int i = 0; i < last; ++i)
    if (t.shape()[std::size_t(i)] > 1 && t.strides()[std::size_t(i)] % 8 != 0)
      value_error(std::string(fn) + ": " + name + " has strides " + tuple_text(t.strides()) + "; the strides of " +
                  (last == 3 ? "batch, heads and seq" : "seq and heads") +
                  " must be multiples of 8 elements (16 bytes, TMA's step): pass " + name + ".contiguous()");
  if (t.shape()[std::size_t(seq_mode)] > 1 && t.strides()[std::size_t(seq_mode)] < d)
    value_error(std::string(fn) + ": " + name + " has strides " + tuple_text(t.strides()) +
                "; rows of head_dim must not overlap (seq stride >= head_dim): pass " + name + ".contiguous()");
}

// The scale argument (None: 0, which the kernel reads as 1/sqrt(head_dim)) and the causal code.
float attention_scale_arg(char const* fn, py::object const& scale_obj, int causal) {
  if (causal < 0 || causal > 2)
    value_error(std::string(fn) + ": causal code " + std::to_string(causal) +
                " is not 0 (none), 1 (top_left) or 2 (bottom_right)");
  if (scale_obj.is_none()) return 0.0f;
  double const s = scale_obj.cast<double>();
  if (!(s > 0.0 && s <= double(std::numeric_limits<float>::max())) || float(s) == 0.0f)
    value_error(std::string(fn) + ": scale must be positive and finite (got " + py::str(scale_obj).cast<std::string>() +
                "); None means 1/sqrt(head_dim)");
  return float(s);
}

// The arguments both attention entries share: dtype, mask, scale, the sizes (batch, heads_q,
// heads_kv, seq_q, seq_k, head_dim; varlen: the longest sequences) and the inputs' addresses.
ops::AttentionArgs attention_args(char const* fn, ops::DType dt, int causal, py::object const& scale_obj,
                                  std::array<std::int64_t, 6> const& sizes, Imported const& q, Imported const& k,
                                  Imported const& v) {
  ops::AttentionArgs a;
  a.scale = attention_scale_arg(fn, scale_obj, causal);
  a.causal = causal;
  a.dtype = dt;
  a.batch = int(sizes[0]);
  a.heads_q = int(sizes[1]);
  a.heads_kv = int(sizes[2]);
  a.seq_q = int(sizes[3]);
  a.seq_k = int(sizes[4]);
  a.head_dim = int(sizes[5]);
  a.q = q.data();
  a.k = k.data();
  a.v = v.data();
  return a;
}

// Allocates O (and LSE) as the shapes say, checks the kernel's rules (kernels::check_attention_problem's,
// before O exists: q's address stands in for it, since O will be fresh, contiguous and aligned) and
// launches, unless `run` is false (nothing to compute: O and LSE are filled by fill()).
template <class Fill>
py::object attention_run(char const* fn, ops::AttentionArgs& a, Imported const& q,
                         std::vector<std::int64_t> const& o_shape, std::vector<std::int64_t> const& lse_shape, bool run,
                         bool return_lse, std::uintptr_t stream, py::object allocate, bool fast, Fill&& fill) {
  auto const dense = [](std::vector<std::int64_t> const& shape) {
    std::vector<std::int64_t> st(shape.size(), 1);
    for (std::size_t i = shape.size(); i-- > 1;) st[i - 1] = st[i] * shape[i];
    return st;
  };
  std::vector<std::int64_t> const o_strides = dense(o_shape);
  bool const packed = o_shape.size() == 3;     // varlen (total, heads, head_dim); else (batch, heads, seq, head_dim)
  a.o_strides[0] = packed ? 0 : o_strides[0];  // (batch, head, seq)
  a.o_strides[1] = o_strides[1];
  a.o_strides[2] = o_strides[packed ? 0 : 2];
  if (run) {
    a.o = const_cast<void*>(a.q);
    ops::attention_check(fn, a);
  }
  py::object o_obj = make_result(allocate, o_shape, o_strides, a.dtype, q.device());
  Imported o(fn, "out", o_obj, stream, fast);
  py::object lse_obj = py::none();
  std::optional<Imported> lse;
  if (return_lse) {
    lse_obj = make_result(allocate, lse_shape, dense(lse_shape), ops::DType::f32, q.device());
    lse.emplace(fn, "lse", lse_obj, stream, fast);
  }
  if (run) {
    a.o = o.data();
    a.lse = lse ? static_cast<float*>(lse->data()) : nullptr;
    ops::attention_check(fn, a);
    DeviceGuard guard(fn, q.device());
    int key = 0;
    device_call(fn, "choosing the kernel", [&] { key = ops::attention_key(a); });
    ensure_compiled(fn, ops::Op::attention, key);
    device_call(fn, "the kernel launch", [&] { ops::attention(a, as_stream(stream)); });
  } else {
    fill(o_obj, lse_obj);
  }
  if (return_lse) return py::make_tuple(o_obj, lse_obj);
  return o_obj;
}

// The attention forward on (batch, heads, seq, head_dim) tensors: O = softmax(scale q k^T [+ mask])
// v, and LSE when return_lse. causal: 0 none, 1 top_left, 2 bottom_right; scale None:
// 1/sqrt(head_dim). Every rule is checked before anything is allocated, compiled or launched.
py::object attention(py::object q_obj, py::object k_obj, py::object v_obj, int causal, py::object scale_obj,
                     bool return_lse, std::uintptr_t stream, py::object allocate, bool fast) {
  char const* fn = "tessera.ops.attention";
  Imported q(fn, "q", q_obj, stream, fast);
  Imported k(fn, "k", k_obj, stream, fast);
  Imported v(fn, "v", v_obj, stream, fast);
  ops::DType const dt = attention_dtype(fn, q, k, v);
  char const* const layout = "(batch, heads, seq, head_dim)";
  for (Imported const* t : {&q, &k, &v})
    attention_modes(fn, *t, 4, layout,
                    (std::string("add the missing modes, e.g. ") + t->name() + "[None] for one batch").c_str());
  std::int64_t const batch = q.shape()[0], hq = q.shape()[1], sq = q.shape()[2], d = q.shape()[3];
  std::int64_t const hkv = k.shape()[1], sk = k.shape()[2];
  if (k.shape()[0] != batch || k.shape()[3] != d)
    value_error(std::string(fn) + ": q has shape " + tuple_text(q.shape()) + " and k " + tuple_text(k.shape()) +
                "; k must be (batch, heads_kv, seq_k, head_dim) with q's batch and head_dim");
  if (v.shape() != k.shape())
    value_error(std::string(fn) + ": k has shape " + tuple_text(k.shape()) + " and v " + tuple_text(v.shape()) +
                "; v must have k's shape (batch, heads_kv, seq_k, head_dim)");
  attention_head_dim(fn, d);
  attention_heads(fn, hq, hkv);
  bool const empty = batch == 0 || hq == 0 || sq == 0;
  if (sk == 0 && !empty)
    value_error(std::string(fn) + ": k and v have no keys (seq_k = 0, shape " + tuple_text(k.shape()) +
                "); every query needs at least one key");
  for (Imported const* t : {&q, &k, &v}) {
    require_element_aligned(fn, *t, 2);  // and no negative strides
    if (!empty) attention_rows(fn, *t, 2, d);
  }
  ops::AttentionArgs a = attention_args(fn, dt, causal, scale_obj, {batch, hq, hkv, sq, sk, d}, q, k, v);
  for (int i = 0; i < 3; ++i) {
    a.q_strides[i] = q.strides()[std::size_t(i)];
    a.k_strides[i] = k.strides()[std::size_t(i)];
    a.v_strides[i] = v.strides()[std::size_t(i)];
  }
  return attention_run(fn, a, q, {batch, hq, sq, d}, {batch, hq, sq}, !empty, return_lse, stream, std::move(allocate),
                       fast, [](py::object const&, py::object const&) {});
}

// The attention forward on variable-length sequences packed along seq (FlashAttention's varlen
// layout): q (total_q, heads_q, head_dim), k and v (total_k, heads_kv, head_dim), cu_seqlens_q and
// cu_seqlens_k int32 (batch + 1) offsets on the device, max_seqlen_q/_k the longest sequences. O
// (total_q, heads_q, head_dim) and LSE (heads_q, total_q). fill(o, lse) is called instead of the
// kernel when there is nothing to compute (no query, or no key: O zeros, LSE -inf), by ops.py.
py::object attention_varlen(py::object q_obj, py::object k_obj, py::object v_obj, py::object cu_q_obj,
                            py::object cu_k_obj, std::int64_t max_q, std::int64_t max_k, int causal,
                            py::object scale_obj, bool return_lse, std::uintptr_t stream, py::object allocate,
                            bool fast, py::object fill) {
  char const* fn = "tessera.ops.attention_varlen";
  Imported q(fn, "q", q_obj, stream, fast);
  Imported k(fn, "k", k_obj, stream, fast);
  Imported v(fn, "v", v_obj, stream, fast);
  Imported cu_q(fn, "cu_seqlens_q", cu_q_obj, stream, fast);
  Imported cu_k(fn, "cu_seqlens_k", cu_k_obj, stream, fast);
  ops::DType const dt = attention_dtype(fn, q, k, v);
  char const* const layout = "(total, heads, head_dim): the sequences packed along the first mode";
  for (Imported const* t : {&q, &k, &v})
    attention_modes(fn, *t, 3, layout,
                    "pack a (batch, seq, heads, head_dim) tensor with .reshape(-1, heads, head_dim)");
  std::int64_t const total_q = q.shape()[0], hq = q.shape()[1], d = q.shape()[2];
  std::int64_t const total_k = k.shape()[0], hkv = k.shape()[1];
  if (k.shape()[2] != d)
    value_error(std::string(fn) + ": q has shape " + tuple_text(q.shape()) + " and k " + tuple_text(k.shape()) +
                "; k must be (total_k, heads_kv, head_dim) with q's head_dim");
  if (v.shape() != k.shape())
    value_error(std::string(fn) + ": k has shape " + tuple_text(k.shape()) + " and v " + tuple_text(v.shape()) +
                "; v must have k's shape (total_k, heads_kv, head_dim)");
  attention_head_dim(fn, d);
  attention_heads(fn, hq, hkv);
  for (Imported const* t : {&cu_q, &cu_k}) {
    require_same_device(fn, q, *t);
    if (t->dtype_text() != "int32")
      type_error(std::string(fn) + ": " + t->name() + " is " + t->dtype_text() +
                 "; the offsets must be int32: convert, e.g. " + t->name() + ".to(torch.int32)");
    if (t->ndim() != 1 || t->shape()[0] < 2 || (t->shape()[0] > 1 && t->strides()[0] != 1))
      value_error(std::string(fn) + ": " + t->name() +
                  " must be a contiguous 1-D tensor of batch + 1 >= 2 offsets, got shape " + tuple_text(t->shape()) +
                  " and strides " + tuple_text(t->strides()));
    if (reinterpret_cast<std::uintptr_t>(t->data()) % 4 != 0)
      value_error(std::string(fn) + ": " + t->name() + "'s data pointer is not 4-byte aligned: pass " + t->name() +
                  ".clone()");
  }
  if (cu_k.shape()[0] != cu_q.shape()[0])
    value_error(std::string(fn) + ": cu_seqlens_q has " + std::to_string(cu_q.shape()[0]) +
                " offsets and cu_seqlens_k " + std::to_string(cu_k.shape()[0]) + "; both hold batch + 1");
  std::int64_t const batch = cu_q.shape()[0] - 1;
  if (max_q < 0 || max_k < 0 || max_q > total_q || max_k > total_k)
    value_error(std::string(fn) + ": max_seqlen_q = " + std::to_string(max_q) +
                " and max_seqlen_k = " + std::to_string(max_k) +
                " must be >= 0 and at most the packed rows (total_q = " + std::to_string(total_q) +
                ", total_k = " + std::to_string(total_k) + ")");
  bool const run = total_q > 0 && hq > 0 && max_q > 0 && total_k > 0 && max_k > 0;
  for (Imported const* t : {&q, &k, &v}) {
    require_element_aligned(fn, *t, 2);  // and no negative strides
    if (run) attention_rows(fn, *t, 0, d);
  }
  ops::AttentionArgs a = attention_args(fn, dt, causal, scale_obj, {batch, hq, hkv, max_q, max_k, d}, q, k, v);
  a.cu_seqlens_q = static_cast<int const*>(cu_q.data());
  a.cu_seqlens_k = static_cast<int const*>(cu_k.data());
  a.total_q = int(total_q);
  a.total_k = int(total_k);
  auto const strides = [](Imported const& t, std::int64_t(&out)[3]) {  // (batch: unused, head, seq)
    out[0] = 0;
    out[1] = t.strides()[1];
    out[2] = t.strides()[0];
  };
  strides(q, a.q_strides);
  strides(k, a.k_strides);
  strides(v, a.v_strides);
  return attention_run(fn, a, q, {total_q, hq, d}, {hq, total_q}, run, return_lse, stream, std::move(allocate), fast,
                       [&](py::object const& o, py::object const& lse) { fill(o, lse); });
}

// ---- compiling without a GPU ---------------------------------------------------------------------

// The program (op, key) an op runs on dtype (ValueError for an op or dtype without one).
std::pair<ops::Op, int> program_key(char const* fn, std::string const& op, std::string const& dtype) {
  if (op == "add") {
    auto const d = dtype_from_name(dtype);
    if (!d) value_error(std::string(fn) + ": add runs on float32, float16 or bfloat16, got " + dtype);
    return {ops::Op::add, int(*d)};
  }
  if (op == "sgemm") {
    if (dtype != "float32") value_error(std::string(fn) + ": sgemm runs on float32, got " + dtype);
    return {ops::Op::sgemm, 0};
  }
  if (op == "copy") {
    auto const d = dl_dtype_from_name(dtype);
    if (!d || d->code == kDLBool || (d->bits != 16 && d->bits != 32))
      value_error(std::string(fn) + ": copy moves numbers of 2 or 4 bytes, got " + dtype);
    return {ops::Op::copy, d->bits / 8};
  }
  value_error(std::string(fn) + ": op must be 'add', 'sgemm' or 'copy', got '" + op + "'");
}

// Compiles the program op runs on dtype for sm_90a, or finds it in the caches: NVRTC only, no
// driver, no GPU. Returns what it did.
py::dict compile_only(std::string const& op, std::string const& dtype) {
  char const* fn = "tessera._ops._compile_only";
  auto const [o, key] = program_key(fn, op, dtype);
  bool const already = ops::prepared(o, key);
  ops::Prepared p;
  device_call(fn, "compiling", [&, o = o, key = key] {
    py::gil_scoped_release nogil;
    p = ops::prepare(o, key);
  });
  py::dict r;
  r["kernels"] = p.kernels;
  r["in_memory"] = already;
  r["from_disk_cache"] = p.from_disk_cache;
  r["compile_seconds"] = p.compile_seconds;
  r["log"] = p.log;
  return r;
}

// The kernel tessera.ops.gemm runs for an m x n x k product of dtype inputs (out_dtype: "" for the
// inputs' type) with those storage orders and epilogue (plain: D = alpha A B alone) into a dense,
// 16-byte aligned D on a GPU of `sms` SMs, compiled for sm_90a or found in the caches, as
// compile_only does for the other ops.
py::dict compile_gemm(int m, int n, int k, std::string const& dtype, std::string const& out_dtype, bool a_row_major,
                      bool b_row_major, bool out_row_major, bool plain, int sms) {
  char const* fn = "tessera._ops._compile_gemm";
  auto const in = dtype_from_name(dtype);
  if (!in || *in == ops::DType::f32)
    value_error(std::string(fn) + ": gemm's inputs are float16 or bfloat16, got " + dtype);
  auto const out = out_dtype.empty() ? in : dtype_from_name(out_dtype);
  if (!out || (*out != *in && *out != ops::DType::f32))
    value_error(std::string(fn) + ": gemm's output is the inputs' dtype or float32, got " + out_dtype);
  if (m < 1 || n < 1 || k < 1 || sms < 1)
    value_error(std::string(fn) + ": m, n, k and sms must be >= 1, got " + std::to_string(m) + ", " +
                std::to_string(n) + ", " + std::to_string(k) + ", " + std::to_string(sms));
  ops::GemmArgs g;
  g.m = m;
  g.n = n;
  g.k = k;
  g.in = *in;
  g.out = *out;
  g.a.row_major = a_row_major;
  g.b.row_major = b_row_major;
  g.cd_row_major = out_row_major;
  g.ldd = out_row_major ? n : m;  // a dense D: TMA addresses it when its rows are 16-byte multiples
  if (!plain) g.activation = 1;   // any epilogue beyond alpha A B picks the same way
  int const key = ops::gemm_key(g, sms);
  bool const already = ops::prepared(ops::Op::gemm, key);
  ops::Prepared p;
  device_call(fn, "compiling", [&] {
    py::gil_scoped_release nogil;
    p = ops::prepare(ops::Op::gemm, key);
  });
  py::dict r;
  r["kernels"] = p.kernels;
  r["key"] = key;
  r["in_memory"] = already;
  r["from_disk_cache"] = p.from_disk_cache;
  r["compile_seconds"] = p.compile_seconds;
  r["log"] = p.log;
  return r;
}

// The kernel tessera.ops.attention runs for head_dim and dtype, compiled for sm_90a or found in the
// caches, as compile_only does for the other ops.
py::dict compile_attention(int head_dim, std::string const& dtype) {
  char const* fn = "tessera._ops._compile_attention";
  auto const dt = dtype_from_name(dtype);
  if (!dt || *dt == ops::DType::f32)
    value_error(std::string(fn) + ": attention runs on float16 or bfloat16, got " + dtype);
  if (head_dim != 64 && head_dim != 128 && head_dim != 256)
    value_error(std::string(fn) + ": head_dim must be 64, 128 or 256 (got " + std::to_string(head_dim) + ")");
  ops::AttentionArgs a;
  a.dtype = *dt;
  a.head_dim = head_dim;
  int const key = ops::attention_key(a);
  bool const already = ops::prepared(ops::Op::attention, key);
  ops::Prepared p;
  device_call(fn, "compiling", [&] {
    py::gil_scoped_release nogil;
    p = ops::prepare(ops::Op::attention, key);
  });
  py::dict r;
  r["kernels"] = p.kernels;
  r["key"] = key;
  r["in_memory"] = already;
  r["from_disk_cache"] = p.from_disk_cache;
  r["compile_seconds"] = p.compile_seconds;
  r["log"] = p.log;
  return r;
}

// Whether this process has compiled (or loaded) the program op runs on dtype.
bool compiled(std::string const& op, std::string const& dtype) {
  auto const [o, key] = program_key("tessera._ops._compiled", op, dtype);
  return ops::prepared(o, key);
}

// ---- attention backward ---------------------------------------------------------------------------

// The attention backward on the forward's (batch, heads, seq, head_dim) tensors (fixed length):
// dq, dk, dv (given: like q, k, v, of their dtype) from q, k, v, o and lse (the forward's output
// and log-sum-exp, float32 (batch, heads_q, seq_q) contiguous) and dout (like q); workspace a 1-D
// float32 tensor of at least attention_backward_workspace_bytes(...) bytes. head_dim 64 or 128.
// causal and scale as the forward took them. Every rule is checked before anything is compiled
// or launched (the kernel's own checks included: kernels::check_attention_backward_problem).
void attention_backward(py::object q_obj, py::object k_obj, py::object v_obj, py::object o_obj, py::object lse_obj,
                        py::object dout_obj, py::object dq_obj, py::object dk_obj, py::object dv_obj, py::object ws_obj,
                        int causal, py::object scale_obj, std::uintptr_t stream, bool fast) {
  char const* fn = "tessera.ops.attention (backward)";
  Imported q(fn, "q", q_obj, stream, fast);
  Imported k(fn, "k", k_obj, stream, fast);
  Imported v(fn, "v", v_obj, stream, fast);
  Imported o(fn, "o", o_obj, stream, fast);
  Imported lse(fn, "lse", lse_obj, stream, fast);
  Imported dout(fn, "dout", dout_obj, stream, fast);
  Imported dq(fn, "dq", dq_obj, stream, fast);
  Imported dk(fn, "dk", dk_obj, stream, fast);
  Imported dv(fn, "dv", dv_obj, stream, fast);
  Imported ws(fn, "workspace", ws_obj, stream, fast);
  ops::DType const dt = attention_dtype(fn, q, k, v);
  char const* const layout = "(batch, heads, seq, head_dim)";
  for (Imported const* t : {&q, &k, &v, &o, &dout, &dq, &dk, &dv}) {
    attention_modes(fn, *t, 4, layout, "pass the forward's tensors and gradients of their shapes");
    require_same_device(fn, q, *t);
    if (t->dtype() != dt)
      type_error(std::string(fn) + ": " + t->name() + " is " + t->dtype_text() + " and q " + dtype_name(dt) +
                 "; the backward's tensors share q's dtype: convert, e.g. " + t->name() + ".to(q.dtype)");
  }
  std::int64_t const batch = q.shape()[0], hq = q.shape()[1], sq = q.shape()[2], d = q.shape()[3];
  std::int64_t const hkv = k.shape()[1], sk = k.shape()[2];
  for (Imported const* t : {&o, &dout, &dq})
    if (t->shape() != q.shape())
      value_error(std::string(fn) + ": " + t->name() + " has shape " + tuple_text(t->shape()) + " and q " +
                  tuple_text(q.shape()) + "; it must have q's shape");
  for (Imported const* t : {&v, &dk, &dv})
    if (t->shape() != k.shape())
      value_error(std::string(fn) + ": " + t->name() + " has shape " + tuple_text(t->shape()) + " and k " +
                  tuple_text(k.shape()) + "; it must have k's shape");
  if (k.shape()[0] != batch || k.shape()[3] != d)
    value_error(std::string(fn) + ": q has shape " + tuple_text(q.shape()) + " and k " + tuple_text(k.shape()) +
                "; k must be (batch, heads_kv, seq_k, head_dim) with q's batch and head_dim");
  if (d != 64 && d != 128)
    value_error(std::string(fn) + ": head_dim must be 64 or 128 for the backward (got " + std::to_string(d) +
                "; head_dim 256 has no backward kernel yet)");
  attention_heads(fn, hq, hkv);
  require_same_device(fn, q, lse);
  require_same_device(fn, q, ws);
  if (lse.dtype_text() != "float32" || lse.ndim() != 3 || lse.shape()[0] != batch || lse.shape()[1] != hq ||
      lse.shape()[2] != sq || (sq > 1 && lse.strides()[2] != 1) || (hq > 1 && lse.strides()[1] != sq) ||
      (batch > 1 && lse.strides()[0] != hq * sq))
    value_error(std::string(fn) +
                ": lse must be the forward's float32 (batch, heads_q, seq_q) = " + tuple_text({batch, hq, sq}) +
                " contiguous tensor, got " + lse.dtype_text() + " " + tuple_text(lse.shape()) + " with strides " +
                tuple_text(lse.strides()) + ": pass attention(..., return_lse=True)'s");
  if (ws.dtype_text() != "float32" || ws.ndim() != 1 || (ws.shape()[0] > 1 && ws.strides()[0] != 1))
    value_error(std::string(fn) + ": workspace must be a contiguous 1-D float32 tensor");
  for (Imported const* t : {&q, &k, &v, &o, &dout, &dq, &dk, &dv}) {
    require_element_aligned(fn, *t, 2);
    attention_rows(fn, *t, 2, d);
  }
  ops::AttentionBackwardArgs a;
  a.fwd = attention_args(fn, dt, causal, scale_obj, {batch, hq, hkv, sq, sk, d}, q, k, v);
  a.fwd.o = o.data();
  a.fwd.lse = static_cast<float*>(lse.data());
  a.dout = dout.data();
  a.dq = dq.data();
  a.dk = dk.data();
  a.dv = dv.data();
  for (int i = 0; i < 3; ++i) {
    std::size_t const at = std::size_t(i);
    a.fwd.q_strides[i] = q.strides()[at];
    a.fwd.k_strides[i] = k.strides()[at];
    a.fwd.v_strides[i] = v.strides()[at];
    a.fwd.o_strides[i] = o.strides()[at];
    a.dout_strides[i] = dout.strides()[at];
    a.dq_strides[i] = dq.strides()[at];
    a.dk_strides[i] = dk.strides()[at];
    a.dv_strides[i] = dv.strides()[at];
  }
  a.workspace = ws.data();
  a.workspace_bytes = std::size_t(ws.shape()[0]) * 4;
  device_call(fn, "checking the problem", [&] { ops::attention_backward_check(fn, a); });
  if (batch * hq * sq == 0 || batch * hkv * sk == 0) return;  // nothing to compute
  DeviceGuard guard(fn, q.device());
  int key = 0;
  device_call(fn, "choosing the kernel", [&] { key = ops::attention_backward_key(a); });
  device_call(fn, "compiling its kernels", [&] {
    py::gil_scoped_release nogil;
    ops::attention_backward_prepare(key);
  });
  device_call(fn, "the kernel launches", [&] { ops::attention_backward(a, as_stream(stream)); });
}

}  // namespace

PYBIND11_MODULE(_ops, m) {
  m.doc() = "Tessera's GPU kernels on DLPack tensors (sm_90a). Use tessera.ops, not this module.";

  py::class_<DeviceArray>(
      m, "DeviceArray",
      "Device memory holding one strided array that tessera.ops allocated (when the inputs come from a "
      "framework it does not allocate through); import it with torch.from_dlpack, cupy.from_dlpack, ...")
      .def(py::init<std::vector<std::int64_t>, std::vector<std::int64_t>, std::string const&, int, std::uintptr_t>(),
           py::arg("shape"), py::arg("strides"), py::arg("dtype"), py::arg("device"), py::arg("stream") = 0)
      .def_property_readonly("shape", [](DeviceArray const& a) { return py::tuple(py::cast(a.shape())); })
      .def_property_readonly("strides", [](DeviceArray const& a) { return py::tuple(py::cast(a.strides())); })
      .def_property_readonly("dtype", &DeviceArray::dtype)
      .def_property_readonly("device", &DeviceArray::device)
      .def_property_readonly("data_ptr", &DeviceArray::data_ptr)
      .def_property_readonly("stream", &DeviceArray::stream)
      .def("__dlpack_device__", [](DeviceArray const& a) { return py::make_tuple(int(kDLCUDA), a.device()); })
      .def(
          "__dlpack__",
          [](py::object self, py::object stream, py::object max_version, py::object dl_device, py::object copy) {
            (void)max_version;  // the unversioned capsule is what every consumer takes
            if (!dl_device.is_none()) {
              auto const d = dl_device.cast<std::pair<int, int>>();
              auto const& a = self.cast<DeviceArray const&>();
              if (d.first != kDLCUDA || d.second != a.device())
                throw py::buffer_error("DeviceArray.__dlpack__: the array lives on cuda:" + std::to_string(a.device()) +
                                       "; no copies are made");
            }
            if (!copy.is_none() && copy.cast<bool>())
              throw py::buffer_error("DeviceArray.__dlpack__: copy=True is not supported");
            return export_array(self, stream);
          },
          py::kw_only(), py::arg("stream") = py::none(), py::arg("max_version") = py::none(),
          py::arg("dl_device") = py::none(), py::arg("copy") = py::none())
      .def("__repr__", [](DeviceArray const& a) {
        return "DeviceArray(shape=" + tuple_text(a.shape()) + ", dtype=" + a.dtype() +
               ", device=cuda:" + std::to_string(a.device()) + ")";
      });

  // fast: torch.Tensor arguments may be read directly (the caller launches on PyTorch's current stream)
  m.def("add", &add, py::arg("a"), py::arg("b"), py::arg("out"), py::arg("stream"), py::arg("allocate"),
        py::arg("fast") = false);
  m.def("sgemm", &sgemm, py::arg("a"), py::arg("b"), py::arg("out"), py::arg("stream"), py::arg("allocate"),
        py::arg("fast") = false);
  m.def("copy", &copy, py::arg("src"), py::arg("out"), py::arg("stream"), py::arg("allocate"), py::arg("fast") = false);
  m.def("gemm", &gemm, py::arg("a"), py::arg("b"), py::arg("c"), py::arg("alpha"), py::arg("beta"), py::arg("bias"),
        py::arg("activation"), py::arg("out"), py::arg("out_dtype"), py::arg("stream"), py::arg("allocate"),
        py::arg("fast") = false);
  m.def("grouped_gemm", &grouped_gemm, py::arg("a"), py::arg("b"), py::arg("rows"), py::arg("form"), py::arg("alpha"),
        py::arg("out"), py::arg("out_dtype"), py::arg("stream"), py::arg("allocate"), py::arg("fast") = false);
  m.def("scaled_gemm", &scaled_gemm, py::arg("a"), py::arg("b"), py::arg("scale_a"), py::arg("scale_b"),
        py::arg("bias"), py::arg("out"), py::arg("out_dtype"), py::arg("stream"), py::arg("allocate"),
        py::arg("fast") = false);
  m.def("attention", &attention, py::arg("q"), py::arg("k"), py::arg("v"), py::arg("causal"), py::arg("scale"),
        py::arg("return_lse"), py::arg("stream"), py::arg("allocate"), py::arg("fast") = false);
  m.def("attention_varlen", &attention_varlen, py::arg("q"), py::arg("k"), py::arg("v"), py::arg("cu_seqlens_q"),
        py::arg("cu_seqlens_k"), py::arg("max_seqlen_q"), py::arg("max_seqlen_k"), py::arg("causal"), py::arg("scale"),
        py::arg("return_lse"), py::arg("stream"), py::arg("allocate"), py::arg("fast"), py::arg("fill"));
  m.def("attention_backward", &attention_backward, py::arg("q"), py::arg("k"), py::arg("v"), py::arg("o"),
        py::arg("lse"), py::arg("dout"), py::arg("dq"), py::arg("dk"), py::arg("dv"), py::arg("workspace"),
        py::arg("causal"), py::arg("scale"), py::arg("stream"), py::arg("fast") = false);
  m.def("attention_backward_workspace_bytes", &ops::attention_backward_workspace_bytes, py::arg("batch"),
        py::arg("heads_q"), py::arg("seq_q"), py::arg("head_dim"),
        "The bytes of the attention backward's workspace (kernels::attention_backward_workspace_bytes).");
  m.def(
      "_register_torch",
      [](py::object tensor, py::object f32, py::object f16, py::object bf16) {
        if (tensor.is_none()) tensor = py::object();  // None: forget (tensor tests against nothing)
        torch_types() = TorchTypes{std::move(tensor), std::move(f32), std::move(f16), std::move(bf16)};
      },
      "Registers torch.Tensor and torch.float32, float16, bfloat16 (tessera/ops.py does, on meeting a torch.Tensor).");
  m.def("have_gemm", &ops::have_gemm,
        "Whether tessera.ops.gemm is here: always (compiled on first use; kept for callers of the nvcc-build days).");
  m.def("device_count", &device_count, "The CUDA devices visible (0 without a driver or a GPU).");
  m.def("_compile_only", &compile_only, py::arg("op"), py::arg("dtype"),
        "Compiles (or finds in the caches) the kernels of op ('add', 'sgemm', 'copy') for dtype, for sm_90a, without "
        "a GPU; returns what prepare() did. For tests and warm-up.");
  m.def("_compile_gemm", &compile_gemm, py::arg("m"), py::arg("n"), py::arg("k"), py::arg("dtype"),
        py::arg("out_dtype") = "", py::arg("a_row_major") = true, py::arg("b_row_major") = true,
        py::arg("out_row_major") = true, py::arg("plain") = true, py::arg("sms") = 132,
        "Compiles (or finds in the caches) the kernel tessera.ops.gemm runs for that product on a GPU of sms SMs, for "
        "sm_90a, without a GPU; returns what prepare() did and the kernel's key. For tests and warm-up.");
  m.def("_compile_attention", &compile_attention, py::arg("head_dim"), py::arg("dtype"),
        "Compiles (or finds in the caches) the kernel tessera.ops.attention runs for head_dim (64, 128, 256) and dtype "
        "(float16, bfloat16), for sm_90a, without a GPU; returns what prepare() did and the kernel's key.");
  m.def("_compiled", &compiled, py::arg("op"), py::arg("dtype"),
        "Whether this process has compiled (or loaded from the disk cache) the kernels of op for dtype.");
}
