// Tessera: the layout algebra, tensors and the tensor algorithms, and cp.async's group fences
// (cp_async_fence, cp_async_wait<N>) that a copy into shared memory pairs with. Include this, or
// the one header you need. (The run-time twin, include/tessera/runtime, the other instructions
// (arch/), atoms (atom/) and the tools are separate.)
#pragma once

#include "tessera/algorithm/cooperative_copy.hpp"
#include "tessera/algorithm/copy.hpp"
#include "tessera/algorithm/functional.hpp"
#include "tessera/algorithm/gemm.hpp"
#include "tessera/algorithm/prefetch.hpp"
#include "tessera/arch/copy_sm80.hpp"
#include "tessera/core/arithmetic_tuple.hpp"
#include "tessera/core/complement.hpp"
#include "tessera/core/composition.hpp"
#include "tessera/core/config.hpp"
#include "tessera/core/divide.hpp"
#include "tessera/core/int_tuple.hpp"
#include "tessera/core/integer.hpp"
#include "tessera/core/layout.hpp"
#include "tessera/core/numeric.hpp"
#include "tessera/core/print.hpp"
#include "tessera/core/product.hpp"
#include "tessera/core/recast.hpp"
#include "tessera/core/swizzle.hpp"
#include "tessera/core/tuple.hpp"
#include "tessera/tensor/engine.hpp"
#include "tessera/tensor/pointer.hpp"
#include "tessera/tensor/print.hpp"
#include "tessera/tensor/tensor.hpp"
#include "tessera/tensor/tiling.hpp"
