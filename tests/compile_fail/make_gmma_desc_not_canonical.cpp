// Compile-fail case: make_gmma_desc of a stage that is not the canonical layout of its swizzle.
//
// A K-major fp16 stage of 64 x 32 stored row-major (rows of 64 bytes) under the 64-byte swizzle is
// canonical: rows one swizzle row apart. Declared under the 32-byte swizzle (whose rows are 32
// bytes), element (1,0) is at 32 where the form puts it at 16: wgmma.core (arch/wgmma_rules.hpp;
// `tessera check wgmma --smem 'Sw<1,3,3> o (_64,_32):(_32,_1)'` says the same with the fix).
// The compiler's "required from" line names detail::GmmaDescCheck<..., GmmaRule::core, 1, 0, 16, 32>:
// the element (1,0), the offset the form puts it at and the layout's.
// Control: the same stage under its own swizzle (64-byte) compiles.
// EXPECT-ERROR: make_gmma_desc<K>: wgmma.core: not the canonical K-major layout of this swizzle
#include "tessera/atom/mma_traits_sm90.hpp"

using namespace tessera;

int main() {
  using Stage = Layout<Shape<_64, _32>, Stride<_32, _1>>;  // (m,k) -> element offset, rows of 64 bytes
#ifndef TESSERA_CONTROL
  constexpr std::uint64_t desc = make_gmma_desc<GmmaMajor::K, 64, 2, 1>(0, Stage{}, 0, 0);
#else
  constexpr std::uint64_t desc = make_gmma_desc<GmmaMajor::K, 64, 2, 2>(0, Stage{}, 0, 0);
  static_assert(desc == gmma_desc_bits(0, 16, 512, 2));
#endif
  (void)desc;
}
