// tessera.ops.gemm in a build without the tensor-core GEMM (TESSERA_PYTHON_OPS_GEMM=OFF): the
// module still loads; gemm() says how to get it.
#include <stdexcept>

#include "kernels.hpp"

namespace tessera::python_ops {

cudaError_t gemm(GemmArgs const&, cudaStream_t) {
  throw std::runtime_error(
      "tessera.ops.gemm: this build has no tensor-core GEMM (configured with TESSERA_PYTHON_OPS_GEMM=OFF); "
      "rebuild with -DTESSERA_PYTHON_OPS_GEMM=ON (the default of pip install ./python)");
}

bool have_gemm() { return false; }

}  // namespace tessera::python_ops
