// Compiles one Tessera program with NVRTC, CUDA's run-time compiler, and checks the outcome: the
// driver of the NVRTC tests (CMakeLists.txt here). A host program: NVRTC is opened with dlopen
// (tessera/jit/nvrtc.hpp), nothing links against the toolkit, and no GPU is needed (the programs
// become PTX for compute_90a and are never run).
//
//   tessera_nvrtc_headers [-I<dir>]... [-D<macro>]... PROGRAM [CHECKS]...
// PROGRAM, one of
//   --header H        H alone, then its kernel from calls.cuh (H = tessera/core/layout.hpp defines
//                     TESSERA_NVRTC_HEADER_tessera_core_layout_hpp)
//   --host-only H     H alone; H must refuse NVRTC with its "#error "H: host only ..."
//   --source FILE     the text of FILE
// CHECKS
//   --expect-error T  the compile must fail and the log contain T (without: it must succeed with no
//                     warning in the log, and the PTX must hold a kernel, `.entry`)
//   --ptx-has T, --ptx-lacks T   the PTX contains / does not contain the word T (an instruction
//                     or a name, not part of a longer name: `trap` is not found in `..._trapsE`)
//   --ptx-out FILE    also write the PTX to FILE (to read what a check found)
// Every program is compiled with -std=c++20 -arch=compute_90a -default-device (Tessera's NVRTC
// mode, core/config.hpp) and the -I and -D options given. Exit status: 0 pass, 1 fail (NVRTC's log
// is printed), 2 bad arguments, 77 skipped: NVRTC does not load, or no libcu++ headers were found
// (the reason is printed; CTest's SKIP_RETURN_CODE).
#include <sys/stat.h>

#include <cctype>
#include <ctime>
#include <fstream>
#include <iostream>
#include <sstream>
#include <string>
#include <vector>

#include "tessera/jit/nvrtc.hpp"

namespace {

constexpr int kPass = 0, kFail = 1, kUsage = 2, kSkip = 77;

struct Args {
  std::vector<std::string> options;  // -I and -D, passed on to NVRTC
  std::string mode, target;          // --header / --host-only / --source and its operand
  std::string expect_error;
  std::vector<std::string> ptx_has, ptx_lacks;
  std::string ptx_out;
};

bool contains(std::string const& text, std::string const& part) { return text.find(part) != std::string::npos; }

// Whether `word` occurs in `text` with no identifier character right before or after it.
bool contains_word(std::string const& text, std::string const& word) {
  auto ident = [](char c) { return std::isalnum(static_cast<unsigned char>(c)) || c == '_' || c == '$'; };
  for (std::size_t at = text.find(word); at != std::string::npos; at = text.find(word, at + 1)) {
    std::size_t const end = at + word.size();
    if ((at == 0 || !ident(text[at - 1])) && (end == text.size() || !ident(text[end]))) return true;
  }
  return false;
}

bool contains_word_warning(std::string const& log) {
  std::string lower(log);
  for (char& c : lower) c = char(std::tolower(static_cast<unsigned char>(c)));
  return contains(lower, "warning");
}

// The C identifier of a header path, as CMake's string(MAKE_C_IDENTIFIER): tessera/core/layout.hpp
// -> tessera_core_layout_hpp.
std::string c_identifier(std::string const& path) {
  std::string id(path);
  for (char& c : id)
    if (!std::isalnum(static_cast<unsigned char>(c))) c = '_';
  return id;
}

bool parse(int argc, char** argv, Args& a) {
  for (int i = 1; i < argc; ++i) {
    std::string const arg = argv[i];
    auto operand = [&](std::string& out) {
      if (i + 1 >= argc) return false;
      out = argv[++i];
      return true;
    };
    if (arg.rfind("-I", 0) == 0 || arg.rfind("-D", 0) == 0) {
      a.options.push_back(arg);
    } else if (arg == "--header" || arg == "--host-only" || arg == "--source") {
      if (!a.mode.empty() || !operand(a.target)) return false;
      a.mode = arg;
    } else if (arg == "--expect-error") {
      if (!operand(a.expect_error)) return false;
    } else if (arg == "--ptx-out") {
      if (!operand(a.ptx_out)) return false;
    } else if (arg == "--ptx-has" || arg == "--ptx-lacks") {
      std::string t;
      if (!operand(t)) return false;
      (arg == "--ptx-has" ? a.ptx_has : a.ptx_lacks).push_back(t);
    } else {
      std::cerr << "tessera_nvrtc_headers: unknown argument '" << arg << "'\n";
      return false;
    }
  }
  return !a.mode.empty();
}

// Whether an -I directory holds libcu++'s <cuda/std/type_traits>: without it nothing of Tessera
// compiles under NVRTC (core/stdlib.hpp).
bool have_libcudacxx(std::vector<std::string> const& options) {
  for (auto const& o : options) {
    struct stat st {};
    if (o.rfind("-I", 0) == 0 && stat((o.substr(2) + "/cuda/std/type_traits").c_str(), &st) == 0) return true;
  }
  return false;
}

}  // namespace

int main(int argc, char** argv) {
  Args a;
  if (!parse(argc, argv, a)) {
    std::cerr << "usage: tessera_nvrtc_headers [-I<dir>]... [-D<macro>]... (--header H | --host-only H | --source "
                 "FILE) [--expect-error TEXT] [--ptx-has TEXT]... [--ptx-lacks TEXT]... [--ptx-out FILE]\n";
    return kUsage;
  }
  std::string why;
  if (!tessera::jit::Nvrtc::available(&why)) {
    std::cout << "SKIP: NVRTC cannot be loaded, so nothing is compiled: " << why << "\n";
    return kSkip;
  }
  if (!have_libcudacxx(a.options)) {
    std::cout << "SKIP: no -I directory holds libcu++'s cuda/std/type_traits (CMake found no CUDA toolkit's "
                 "include/cccl; set TESSERA_CCCL_INCLUDE_DIR): Tessera's headers need it under NVRTC\n";
    return kSkip;
  }

  std::string source, expect_error = a.expect_error;
  if (a.mode == "--header") {
    source = "#include \"" + a.target + "\"\n#define TESSERA_NVRTC_HEADER_" + c_identifier(a.target) +
             "\n#include \"calls.cuh\"\n";
  } else if (a.mode == "--host-only") {
    source = "#include \"" + a.target + "\"\n";
    if (expect_error.empty()) expect_error = a.target + ": host only";
  } else {
    std::ifstream in(a.target);
    if (!in) {
      std::cerr << "tessera_nvrtc_headers: cannot read " << a.target << "\n";
      return kUsage;
    }
    std::ostringstream text;
    text << in.rdbuf();
    source = text.str();
  }

  std::vector<std::string> options = {"-std=c++20", "-arch=compute_90a", "-default-device"};
  options.insert(options.end(), a.options.begin(), a.options.end());
  tessera::jit::Nvrtc const& nvrtc = tessera::jit::Nvrtc::get();
  std::clock_t const start = std::clock();
  tessera::jit::NvrtcResult const r = nvrtc.compile(source, c_identifier(a.target) + ".cu", options);
  double const cpu_s = double(std::clock() - start) / CLOCKS_PER_SEC;

  if (!a.ptx_out.empty()) std::ofstream(a.ptx_out) << r.ptx;
  std::vector<std::string> failures;
  if (!expect_error.empty()) {
    if (r.ok) failures.push_back("compiled, but it must fail with \"" + expect_error + "\"");
    if (!r.ok && !contains(r.log, expect_error)) failures.push_back("the log lacks \"" + expect_error + "\"");
  } else {
    if (!r.ok) failures.push_back("NVRTC reports errors");
    if (r.ok && contains_word_warning(r.log)) failures.push_back("NVRTC warns (warnings fail, as nvcc's -Werror)");
    if (r.ok && !contains(r.ptx, ".entry")) failures.push_back("the PTX holds no kernel (.entry)");
  }
  for (auto const& t : a.ptx_has)
    if (r.ok && !contains_word(r.ptx, t)) failures.push_back("the PTX lacks \"" + t + "\"");
  for (auto const& t : a.ptx_lacks)
    if (r.ok && contains_word(r.ptx, t)) failures.push_back("the PTX contains \"" + t + "\"");

  std::cout << "NVRTC " << nvrtc.version_major() << "." << nvrtc.version_minor() << " (" << nvrtc.library_path()
            << "), " << a.mode << " " << a.target << ": " << (r.ok ? "compiled" : "refused") << " in " << cpu_s
            << " s of CPU";
  if (r.ok) std::cout << ", " << r.ptx.size() << " bytes of PTX";
  std::cout << "\n";
  if (failures.empty()) return kPass;
  for (auto const& f : failures) std::cout << "FAIL: " << f << "\n";
  std::cout << "options:";
  for (auto const& o : options) std::cout << " " << o;
  std::cout << "\n---- program ----\n" << source << "---- NVRTC log ----\n" << r.log << "\n";
  return kFail;
}
