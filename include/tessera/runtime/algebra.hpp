// tessera/runtime/algebra.hpp -- convenience: the whole run-time twin of the algebra
// (namespace tessera::rt). Each header below mirrors the core header of the same name and can be
// included on its own; nothing in the library includes this one.
#pragma once

#if defined(__CUDACC_RTC__)
#error "tessera/runtime/algebra.hpp: host only (the run-time twin); kernels use the static algebra, tessera/core/"
#endif

#include "tessera/runtime/complement.hpp"
#include "tessera/runtime/composition.hpp"
#include "tessera/runtime/divide.hpp"
#include "tessera/runtime/int_tuple.hpp"
#include "tessera/runtime/integer.hpp"
#include "tessera/runtime/layout.hpp"
#include "tessera/runtime/print.hpp"
#include "tessera/runtime/product.hpp"
#include "tessera/runtime/recast.hpp"
#include "tessera/runtime/swizzle.hpp"
