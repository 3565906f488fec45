// Tessera: the whole compile-time layout algebra. Include this, or the one header you need.
#pragma once

#include "tessera/core/config.hpp"
#include "tessera/core/integer.hpp"
#include "tessera/core/tuple.hpp"
#include "tessera/core/int_tuple.hpp"
#include "tessera/core/arithmetic_tuple.hpp"
#include "tessera/core/layout.hpp"
#include "tessera/core/print.hpp"
#include "tessera/core/composition.hpp"
#include "tessera/core/complement.hpp"
#include "tessera/core/divide.hpp"
#include "tessera/core/product.hpp"
#include "tessera/core/recast.hpp"
#include "tessera/core/swizzle.hpp"
