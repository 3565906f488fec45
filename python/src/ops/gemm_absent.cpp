// tessera.ops.gemm in a build without the tensor-core GEMM (TESSERA_PYTHON_OPS_GEMM=OFF, the
// default of pip builds: its 96 kernels take many minutes of nvcc, and the rest of tessera._ops
// needs no CUDA compiler at all): the module still loads; gemm() says how to get it, in the words
// of the build that made this module (pip's, TESSERA_PYTHON_OPS_PIP_BUILD, or the project's CMake).
#include <stdexcept>

#include "kernels.hpp"

namespace tessera::python_ops {

void gemm(GemmArgs const&, void*) {
#if defined(TESSERA_PYTHON_OPS_PIP_BUILD)
  throw std::runtime_error(
      "tessera.ops.gemm: this package was built without the tensor-core GEMM (TESSERA_PYTHON_OPS_GEMM=OFF, "
      "the default: its 96 kernels take many minutes of nvcc, while add, sgemm and copy compile on first use "
      "and need no CUDA compiler to install; a GEMM compiled on first use is coming); reinstall it with them, "
      "e.g. from the root of a checkout of the repository, with nvcc (CUDA 12 or later) on PATH: python3 -m pip "
      "install ./python --config-settings=cmake.define.TESSERA_PYTHON_OPS_GEMM=ON (CMAKE_BUILD_PARALLEL_LEVEL=$(nproc) "
      "in the environment compiles them on every core)");
#else
  throw std::runtime_error(
      "tessera.ops.gemm: this build has no tensor-core GEMM (configured with TESSERA_PYTHON_OPS_GEMM=OFF, or "
      "without a CUDA compiler); reconfigure with -DTESSERA_PYTHON_OPS_GEMM=ON where nvcc is found and rebuild "
      "(a GEMM compiled on first use is coming)");
#endif
}

bool have_gemm() { return false; }

}  // namespace tessera::python_ops
