// tessera.ops.gemm in a build without the tensor-core GEMM (TESSERA_PYTHON_OPS_GEMM=OFF, the
// default of pip builds: its 96 kernels take many minutes of nvcc): the module still loads; gemm()
// says how to get it, in the words of the build that made this module (pip's,
// TESSERA_PYTHON_OPS_PIP_BUILD, or the project's CMake).
#include <stdexcept>

#include "kernels.hpp"

namespace tessera::python_ops {

cudaError_t gemm(GemmArgs const&, cudaStream_t) {
#if defined(TESSERA_PYTHON_OPS_PIP_BUILD)
  throw std::runtime_error(
      "tessera.ops.gemm: this package was built without the tensor-core GEMM (TESSERA_PYTHON_OPS_GEMM=OFF, "
      "the default: its 96 kernels take many minutes of nvcc); reinstall it with them, e.g. from the root of a "
      "checkout of the repository: python3 -m pip install ./python "
      "--config-settings=cmake.define.TESSERA_PYTHON_OPS_GEMM=ON (CMAKE_BUILD_PARALLEL_LEVEL=$(nproc) in the "
      "environment compiles them on every core)");
#else
  throw std::runtime_error(
      "tessera.ops.gemm: this build has no tensor-core GEMM (configured with TESSERA_PYTHON_OPS_GEMM=OFF); "
      "reconfigure with -DTESSERA_PYTHON_OPS_GEMM=ON and rebuild");
#endif
}

bool have_gemm() { return false; }

}  // namespace tessera::python_ops
