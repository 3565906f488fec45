// MMA_Traits of the sm_90a warpgroup MMAs (arch/mma_sm90.hpp), the canonical shared-memory
// layouts their operands must have, and the matrix descriptors built from them.
//
// Layouts, for SM90_64xNx16_F32{BF16BF16,F16F16}_SS and _RS (CuTe's names and layouts):
//   ThrID    _128:_1                       the 128 threads of a warpgroup
//   ALayout  (_128,(_64,_16)):(_0,(_1,_64)) every thread "holds" all of A: it is read from shared
//   BLayout  (_128,(_N,_16)):(_0,(_1,_N))   memory by the instruction, not held in registers
//   CLayout  ((_4,_8,_4),(_2,_2,_N/8)):((_128,_1,_16),(_64,_8,_512))
//            thread t = (t0,t1,t2) = (t%4, t/4%8, t/32), value (v0,v1,v2) -> m + 64 n with
//            m = t1 + 8 v1 + 16 t2 (warp t2 owns rows 16 t2 .. 16 t2 + 15), n = 2 t0 + v0 + 8 v2
//            (N = 8: value (v0,v1) only, ((_4,_8,_4),(_2,_2)):((_128,_1,_16),(_64,_8))).
//   _RS (A from registers) differs in ALayout only:
//   ALayout  ((_4,_8,_4),(_2,_2,_2)):((_128,_1,_16),(_64,_8,_512))   thread t, value (v0,v1,v2)
//            -> m + 64 k with m = t1 + 8 v1 + 16 t2, k = 2 t0 + v0 + 8 v2: register a_j of the
//            instruction holds values 2j, 2j+1 (the accumulator pattern of a 64 x 16 tile).
// tests/atom/mma_traits_sm90.cpp checks CLayout against the PTX ISA's accumulator fragment
// (row = warp*16 + lane/4 + 8*(i%4/2), column = 2*(lane%4) + i%2 + 8*(i/4) for register i).
//
// Canonical shared-memory atoms (16-bit elements; the 128-byte swizzle Sw<3,4,3> in bytes is
// Sw<3,3,3> on element offsets), (MN,K) -> element offset:
//   GmmaLayoutKSw128Atom   Sw<3,3,3> o (_8,_64):(_64,_1)    8 rows of 64 K-contiguous elements
//   GmmaLayoutMNSw128Atom  Sw<3,3,3> o (_64,_8):(_1,_64)    8 K-rows of 64 MN-contiguous elements
// A stage is tile_to_shape(atom, (BMN,BK)); make_gmma_desc<Major>(base, layout, mn0, k0) is the
// descriptor of the 64x16 (A) or Nx16 (B) block at (mn0, k0), its strides read off the layout and
// checked against the canonical form (a layout that is not canonical does not compile).
#pragma once

#include "tessera/arch/mma_sm90.hpp"
#include "tessera/arch/wgmma_rules.hpp"
#include "tessera/atom/mma_traits.hpp"
#include "tessera/core/numeric.hpp"
#include "tessera/core/stdlib.hpp"
#include "tessera/core/swizzle.hpp"

namespace tessera {

namespace detail {
template <int N>
struct SM90_CLayout {
  using type =
      Layout<Shape<Shape<_4, _8, _4>, Shape<_2, _2, Int<N / 8>>>, Stride<Stride<_128, _1, _16>, Stride<_64, _8, _512>>>;
};
template <>
struct SM90_CLayout<8> {
  using type = Layout<Shape<Shape<_4, _8, _4>, Shape<_2, _2>>, Stride<Stride<_128, _1, _16>, Stride<_64, _8>>>;
};
template <int M, int K>
using SM90_SmemABLayout = Layout<Shape<_128, Shape<Int<M>, Int<K>>>, Stride<_0, Stride<_1, Int<M>>>>;

template <int N, class TAB>
struct SM90_SS_Traits {
  using ValTypeD = float;
  using ValTypeA = TAB;
  using ValTypeB = TAB;
  using ValTypeC = float;
  using Shape_MNK = Shape<_64, Int<N>, _16>;
  using ThrID = Layout<_128>;
  using ALayout = SM90_SmemABLayout<64, 16>;
  using BLayout = SM90_SmemABLayout<N, 16>;
  using CLayout = typename SM90_CLayout<N>::type;
};
template <int N, class TAB>
struct SM90_RS_Traits : SM90_SS_Traits<N, TAB> {
  using ALayout = typename SM90_CLayout<16>::type;  // the 64 x 16 A tile in registers
};
}  // namespace detail

#define TESSERA_SM90_SS_TRAITS(N)                                                                    \
  template <GmmaMajor A, GmmaMajor B>                                                                \
  struct MMA_Traits<SM90_64x##N##x16_F32BF16BF16_SS<A, B>> : detail::SM90_SS_Traits<N, bfloat16_t> { \
    static constexpr GmmaMajor MajorA = A, MajorB = B;                                               \
  };                                                                                                 \
  template <GmmaMajor A, GmmaMajor B>                                                                \
  struct MMA_Traits<SM90_64x##N##x16_F32F16F16_SS<A, B>> : detail::SM90_SS_Traits<N, half_t> {       \
    static constexpr GmmaMajor MajorA = A, MajorB = B;                                               \
  };                                                                                                 \
  template <GmmaMajor A, GmmaMajor B>                                                                \
  struct MMA_Traits<SM90_64x##N##x16_F32BF16BF16_RS<A, B>> : detail::SM90_RS_Traits<N, bfloat16_t> { \
    static constexpr GmmaMajor MajorA = A, MajorB = B;                                               \
  };                                                                                                 \
  template <GmmaMajor A, GmmaMajor B>                                                                \
  struct MMA_Traits<SM90_64x##N##x16_F32F16F16_RS<A, B>> : detail::SM90_RS_Traits<N, half_t> {       \
    static constexpr GmmaMajor MajorA = A, MajorB = B;                                               \
  };
TESSERA_SM90_SS_TRAITS(8)
TESSERA_SM90_SS_TRAITS(16)
TESSERA_SM90_SS_TRAITS(24)
TESSERA_SM90_SS_TRAITS(32)
TESSERA_SM90_SS_TRAITS(40)
TESSERA_SM90_SS_TRAITS(48)
TESSERA_SM90_SS_TRAITS(56)
TESSERA_SM90_SS_TRAITS(64)
TESSERA_SM90_SS_TRAITS(72)
TESSERA_SM90_SS_TRAITS(80)
TESSERA_SM90_SS_TRAITS(88)
TESSERA_SM90_SS_TRAITS(96)
TESSERA_SM90_SS_TRAITS(104)
TESSERA_SM90_SS_TRAITS(112)
TESSERA_SM90_SS_TRAITS(120)
TESSERA_SM90_SS_TRAITS(128)
TESSERA_SM90_SS_TRAITS(136)
TESSERA_SM90_SS_TRAITS(144)
TESSERA_SM90_SS_TRAITS(152)
TESSERA_SM90_SS_TRAITS(160)
TESSERA_SM90_SS_TRAITS(168)
TESSERA_SM90_SS_TRAITS(176)
TESSERA_SM90_SS_TRAITS(184)
TESSERA_SM90_SS_TRAITS(192)
TESSERA_SM90_SS_TRAITS(200)
TESSERA_SM90_SS_TRAITS(208)
TESSERA_SM90_SS_TRAITS(216)
TESSERA_SM90_SS_TRAITS(224)
TESSERA_SM90_SS_TRAITS(232)
TESSERA_SM90_SS_TRAITS(240)
TESSERA_SM90_SS_TRAITS(248)
TESSERA_SM90_SS_TRAITS(256)
#undef TESSERA_SM90_SS_TRAITS

// ---- canonical shared-memory layouts and descriptors ----------------------------------------------

// The 128-byte-swizzled atoms for 16-bit elements, (MN,K) -> element offset.
using GmmaLayoutKSw128Atom =
    decltype(make_composed_layout(Swizzle<3, 3, 3>{}, _0{}, Layout<Shape<_8, _64>, Stride<_64, _1>>{}));
using GmmaLayoutMNSw128Atom =
    decltype(make_composed_layout(Swizzle<3, 3, 3>{}, _0{}, Layout<Shape<_64, _8>, Stride<_1, _64>>{}));

// gmma_desc_bits(address, lbo, sbo): a 128-byte-swizzle matrix descriptor: start address, leading
// and stride byte offsets (each in 16-byte units in the descriptor), layout type 1 (128B swizzle),
// base offset 0. Pre: address is the shared-window byte address of the block's first element in an
// atom that starts 1024-byte aligned.
TESSERA_HOST_DEVICE constexpr std::uint64_t gmma_desc_bits(std::uint32_t address, std::uint32_t lbo,
                                                           std::uint32_t sbo) {
  return std::uint64_t((address & 0x3FFFFu) >> 4) | (std::uint64_t((lbo >> 4) & 0x3FFFu) << 16) |
         (std::uint64_t((sbo >> 4) & 0x3FFFu) << 32) | (std::uint64_t(1) << 62);
}

// make_gmma_desc<Major, MN>(base, L, mn0, k0): the descriptor of the MN x 16 block at (mn0, k0)
// of a 16-bit operand whose stage layout (without its swizzle) is L: (MN,K) -> element offset,
// base the stage's shared-window byte address (1024-byte aligned). L must be the canonical
// 128-byte-swizzled form (tile_to_shape of GmmaLayout{K,MN}Sw128Atom's inner layout), checked at
// compile time by the rules of arch/wgmma_rules.hpp (the checker's, `tessera check wgmma`) on the
// block at (0, 0): its first core matrix and the ends of every group; each static_assert names the
// rule it enforces. Example: for the K-major (_128,_64) stage ((_8,_16),(_64,_1)):((_64,_512),(_1,_0)),
// make_gmma_desc<GmmaMajor::K, 64>(0, L, 64, 16) == gmma_desc_bits(8224, 16, 1024)
// (tests/atom/mma_traits_sm90.cpp).
template <GmmaMajor Major, int MNBlock, class L>
TESSERA_HOST_DEVICE constexpr std::uint64_t make_gmma_desc(std::uint32_t base, L const& l, int mn0, int k0) {
  static_assert(is_static_v<L>, "make_gmma_desc: the stage layout must be static");
  constexpr L c{};
  constexpr GmmaForm f = gmma_form_of(2, Major, 3, c, 0, 0, MNBlock);
  constexpr GmmaRule form = gmma_form_violation(f);
  static_assert(form != GmmaRule::block,
                "make_gmma_desc: wgmma.block: the block's MN extent must be a multiple of 8, at most 256, and "
                "(MN-major) at most 64 or whole 64-element chunks");
  static_assert(form != GmmaRule::start,
                "make_gmma_desc: wgmma.start: the stage layout's element (0,0) must be at an offset that starts the "
                "128-byte swizzle's 1024-byte pattern");
  constexpr GmmaViolation v = gmma_block_violation(f, c, 0, 0, false);
  static_assert(
      Major != GmmaMajor::K || v.rule != GmmaRule::core,
      "make_gmma_desc<K>: wgmma.core: not the canonical K-major 128-byte-swizzle layout (8 rows of 64 "
      "contiguous 16-bit elements, 128 bytes apart); build the stage with tile_to_shape(GmmaLayoutKSw128Atom)");
  static_assert(
      Major != GmmaMajor::MN || v.rule != GmmaRule::core,
      "make_gmma_desc<MN>: wgmma.core: not the canonical MN-major 128-byte-swizzle layout (8 K-rows of 64 "
      "contiguous 16-bit elements, 128 bytes apart); build the stage with tile_to_shape(GmmaLayoutMNSw128Atom)");
  static_assert(form != GmmaRule::sbo,
                "make_gmma_desc: wgmma.sbo: the 8-row groups (K-major: of MN; MN-major: of K) must be a multiple of "
                "1024 bytes apart, below 2^18 bytes");
  static_assert(form != GmmaRule::lbo,
                "make_gmma_desc<MN>: wgmma.lbo: the 64-element MN chunks must be a multiple of 1024 bytes apart, below "
                "2^18 bytes");
  static_assert(v.rule != GmmaRule::layout,
                "make_gmma_desc: wgmma.layout: the block's groups are not equally spaced (K-major: 8-row groups; "
                "MN-major: 64-element chunks and 8-row K groups); build the stage with tile_to_shape of the atom");
  std::uint32_t const address = base + 2u * std::uint32_t(l(mn0, k0));
  if constexpr (Major == GmmaMajor::K) {
    return gmma_desc_bits(address, 16u, 2u * std::uint32_t(f.sbo));  // LBO unused (swizzled K-major)
  } else {
    return gmma_desc_bits(address, 2u * std::uint32_t(f.lbo), 2u * std::uint32_t(f.sbo));
  }
}

}  // namespace tessera
