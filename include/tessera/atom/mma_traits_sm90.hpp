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
// For the 8-bit forms SM90_64xNx32_F32{E4M3,E5M2}{E4M3,E5M2}_SS (arch/mma_sm90_fp8.hpp): Shape_MNK
// (_64,_N,_32), ALayout (_128,(_64,_32)):(_0,(_1,_64)), BLayout (_128,(_N,_32)):(_0,(_1,_N)), and
// the same CLayout (the accumulators do not depend on the input type).
// tests/atom/mma_traits_sm90.cpp checks CLayout against the PTX ISA's accumulator fragment
// (row = warp*16 + lane/4 + 8*(i%4/2), column = 2*(lane%4) + i%2 + 8*(i/4) for register i).
//
// Canonical shared-memory atoms (16-bit elements; the 128-byte swizzle Sw<3,4,3> in bytes is
// Sw<3,3,3> on element offsets), (MN,K) -> element offset:
//   GmmaLayoutKSw128Atom   Sw<3,3,3> o (_8,_64):(_64,_1)    8 rows of 64 K-contiguous elements
//   GmmaLayoutMNSw128Atom  Sw<3,3,3> o (_64,_8):(_1,_64)    8 K-rows of 64 MN-contiguous elements
// and, for every form (unswizzled, the 32-, 64-, 128-byte swizzle; K- or MN-major; 1-, 2-, 4-byte
// elements), GmmaLayoutAtom<Major, SwizzleBits, ElemBytes>. A stage is tile_to_shape(atom,
// (BMN,BK)); make_gmma_desc<Major, MN>(base, layout, mn0, k0) is the descriptor of the MN x (32
// bytes of K) block at (mn0, k0), its swizzle read off the layout (or given), its offsets read off
// the layout and checked against the canonical form by arch/wgmma_rules.hpp (a layout that is not
// canonical does not compile; `tessera check wgmma` applies the same rules at run time).
#pragma once

#include "tessera/arch/mma_sm90.hpp"
#include "tessera/arch/mma_sm90_fp8.hpp"
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
template <int N, class TA, class TB>
struct SM90_SS_Fp8_Traits {
  using ValTypeD = float;
  using ValTypeA = TA;
  using ValTypeB = TB;
  using ValTypeC = float;
  using Shape_MNK = Shape<_64, Int<N>, _32>;
  using ThrID = Layout<_128>;
  using ALayout = SM90_SmemABLayout<64, 32>;
  using BLayout = SM90_SmemABLayout<N, 32>;
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
  };                                                                                                 \
  TESSERA_SM90_FP8_TRAITS(N, E4M3E4M3, float_e4m3_t, float_e4m3_t)                                   \
  TESSERA_SM90_FP8_TRAITS(N, E4M3E5M2, float_e4m3_t, float_e5m2_t)                                   \
  TESSERA_SM90_FP8_TRAITS(N, E5M2E4M3, float_e5m2_t, float_e4m3_t)                                   \
  TESSERA_SM90_FP8_TRAITS(N, E5M2E5M2, float_e5m2_t, float_e5m2_t)
#define TESSERA_SM90_FP8_TRAITS(N, AB, TA, TB)                                                     \
  template <GmmaMajor A, GmmaMajor B>                                                              \
  struct MMA_Traits<SM90_64x##N##x32_F32##AB##_SS<A, B>> : detail::SM90_SS_Fp8_Traits<N, TA, TB> { \
    static constexpr GmmaMajor MajorA = A, MajorB = B;                                             \
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
#undef TESSERA_SM90_FP8_TRAITS

// ---- canonical shared-memory layouts and descriptors ----------------------------------------------

// The 128-byte-swizzled atoms for 16-bit elements, (MN,K) -> element offset (the kernels' stages).
using GmmaLayoutKSw128Atom =
    decltype(make_composed_layout(Swizzle<3, 3, 3>{}, _0{}, Layout<Shape<_8, _64>, Stride<_64, _1>>{}));
using GmmaLayoutMNSw128Atom =
    decltype(make_composed_layout(Swizzle<3, 3, 3>{}, _0{}, Layout<Shape<_64, _8>, Stride<_1, _64>>{}));

namespace detail {
// log2 T, T = 16 / ElemBytes elements of a 16-byte unit
template <int ElemBytes>
inline constexpr int gmma_log2_unit = ElemBytes == 1 ? 4 : (ElemBytes == 2 ? 3 : 2);

template <GmmaMajor Major, int SwizzleBits, int ElemBytes>
struct GmmaLayoutAtom {
  static_assert(ElemBytes == 1 || ElemBytes == 2 || ElemBytes == 4,
                "GmmaLayoutAtom: wgmma.elem: wgmma reads 1-, 2- or 4-byte elements");
  static_assert(SwizzleBits >= 0 && SwizzleBits <= 3,
                "GmmaLayoutAtom: wgmma.swizzle: 0 (none), 1, 2 or 3 (the 32-, 64-, 128-byte swizzle)");
  static constexpr int row = gmma_row_elems(ElemBytes, SwizzleBits);  // R T elements: one swizzle row
  using Inner = std::conditional_t<Major == GmmaMajor::K, Layout<Shape<_8, Int<row>>, Stride<Int<row>, _1>>,
                                   Layout<Shape<Int<row>, _8>, Stride<_1, Int<row>>>>;
  using type = std::conditional_t<SwizzleBits == 0, Inner,
                                  decltype(make_composed_layout(Swizzle<SwizzleBits, gmma_log2_unit<ElemBytes>, 3>{},
                                                                _0{}, Inner{}))>;
};
}  // namespace detail

// GmmaLayoutAtom<Major, SwizzleBits, ElemBytes>: the canonical atom of every form of
// arch/wgmma_rules.hpp, (MN,K) -> element offset, T = 16 / ElemBytes elements a 16-byte unit, R =
// 2^SwizzleBits units a row. K-major: 8 rows of R T K-contiguous elements; MN-major: 8 K-rows of R T
// MN-contiguous elements; under Sw<SwizzleBits, log2 T, 3> when swizzled (SwizzleBits 1, 2, 3: the
// 32-, 64-, 128-byte swizzle), plain when not (0: one core matrix). A stage is tile_to_shape(atom,
// (BMN,BK)) (MN-major: with (_1,_0), a column of atoms' K-rows together). Examples (16-bit):
//   GmmaLayoutAtom<GmmaMajor::K, 3>   Sw<3,3,3> o (_8,_64):(_64,_1)    = GmmaLayoutKSw128Atom
//   GmmaLayoutAtom<GmmaMajor::K, 2>   Sw<2,3,3> o (_8,_32):(_32,_1)
//   GmmaLayoutAtom<GmmaMajor::MN, 1>  Sw<1,3,3> o (_16,_8):(_1,_16)
//   GmmaLayoutAtom<GmmaMajor::K, 0>   (_8,_8):(_8,_1)                  (unswizzled: the core matrix)
//   GmmaLayoutAtom<GmmaMajor::K, 3, 4> Sw<3,2,3> o (_8,_32):(_32,_1)  (tf32)
template <GmmaMajor Major, int SwizzleBits, int ElemBytes = 2>
using GmmaLayoutAtom = typename detail::GmmaLayoutAtom<Major, SwizzleBits, ElemBytes>::type;

// gmma_desc_bits(address, lbo, sbo, swizzle_bits): a matrix descriptor: start address, leading and
// stride byte offsets (each in 16-byte units in the descriptor), base offset 0, and the layout type
// at bits 62-63: 0 unswizzled, 1 the 128-byte, 2 the 64-byte, 3 the 32-byte swizzle (swizzle_bits
// 0, 3, 2, 1). Pre: address is the shared-window byte address of the block's first element in a
// tile that starts aligned to the swizzle's 8-row pattern (256, 512, 1024 bytes).
TESSERA_HOST_DEVICE constexpr std::uint64_t gmma_desc_bits(std::uint32_t address, std::uint32_t lbo, std::uint32_t sbo,
                                                           int swizzle_bits = 3) {
  std::uint64_t const layout_type = swizzle_bits == 0 ? 0u : std::uint64_t(4 - swizzle_bits);
  return std::uint64_t((address & 0x3FFFFu) >> 4) | (std::uint64_t((lbo >> 4) & 0x3FFFu) << 16) |
         (std::uint64_t((sbo >> 4) & 0x3FFFu) << 32) | (layout_type << 62);
}

namespace detail {
// The compile-time checks of make_gmma_desc, one static_assert a rule (arch/wgmma_rules.hpp, the
// checker's: `tessera check wgmma` says the same with the values). The violation's values are this
// template's arguments, so the compiler's "required from" line shows them: the rule, the element
// (Mn, K) of block (0,0), the offset the canonical form puts it at (Want) and the layout's (Got).
template <GmmaMajor Major, int SwizzleBits, int ElemBytes, int MNBlock, GmmaRule Rule, int Mn, int K, long long Want,
          long long Got>
struct GmmaDescCheck {
  static_assert(Rule != GmmaRule::elem,
                "make_gmma_desc: wgmma.elem: elements must be 1, 2 or 4 bytes, and MN-major operands 2-byte ones "
                "(wgmma transposes 16-bit operands only)");
  static_assert(Rule != GmmaRule::swizzle,
                "make_gmma_desc: wgmma.swizzle: the stage's swizzle must be none or Sw<1|2|3, log2(16 / element "
                "bytes), 3> (16-byte units permuted within rows of 32, 64 or 128 bytes)");
  static_assert(Rule != GmmaRule::block,
                "make_gmma_desc: wgmma.block: the block's MN extent must be a multiple of 8, at most 256, and "
                "(MN-major, swizzled) at most one swizzle row or whole rows");
  static_assert(Rule != GmmaRule::start,
                "make_gmma_desc: wgmma.start: the stage layout's element (0,0) must be 16-byte aligned and, swizzled, "
                "start the swizzle's 8-row pattern (256, 512 or 1024 bytes)");
  static_assert(Major != GmmaMajor::K || Rule != GmmaRule::core,
                "make_gmma_desc<K>: wgmma.core: not the canonical K-major layout of this swizzle (8 rows of 16 "
                "contiguous bytes; rows 16 bytes apart unswizzled, one swizzle row of 32, 64 or 128 bytes apart "
                "swizzled); build the stage with tile_to_shape(GmmaLayoutAtom<GmmaMajor::K, SwizzleBits, ElemBytes>)");
  static_assert(Major != GmmaMajor::MN || Rule != GmmaRule::core,
                "make_gmma_desc<MN>: wgmma.core: not the canonical MN-major layout of this swizzle (8 K-rows of 16 "
                "contiguous bytes; rows 16 bytes apart unswizzled, one swizzle row apart swizzled); build the stage "
                "with tile_to_shape(GmmaLayoutAtom<GmmaMajor::MN, SwizzleBits, ElemBytes>, (BMN,BK), (_1,_0))");
  static_assert(Rule != GmmaRule::lbo,
                "make_gmma_desc: wgmma.lbo: the leading byte offset (K-major unswizzled: between 16-byte units of K; "
                "MN-major: between swizzle rows of MN, or unswizzled between 8-row groups of K) must be a multiple of "
                "16 bytes below 2^18 and, swizzled, of the swizzle's 8-row pattern");
  static_assert(Rule != GmmaRule::sbo,
                "make_gmma_desc: wgmma.sbo: the stride byte offset (K-major: between 8-row groups of MN; MN-major: "
                "between 8-row groups of K, or unswizzled between 16-byte units of MN) must be a multiple of 16 bytes "
                "below 2^18 and, swizzled, of the swizzle's 8-row pattern");
  static_assert(Rule != GmmaRule::layout,
                "make_gmma_desc: wgmma.layout: the block's groups are not equally spaced (one descriptor's 8-row "
                "groups and units each one offset apart); build the stage with tile_to_shape of the atom");
  static constexpr bool ok = Rule == GmmaRule::ok;
};

// The first rule the block (0,0) of the stage L breaks (gmma_form_violation, then the block's
// elements at the probes a compile-time check affords: gmma_block_violation(..., false)), in the
// order `tessera check wgmma` reports them.
template <GmmaMajor Major, int SwizzleBits, int ElemBytes, int MNBlock, class L>
inline constexpr GmmaViolation gmma_desc_violation = [] {
  constexpr L c{};
  GmmaForm const f = gmma_form_of(ElemBytes, Major, SwizzleBits, c, 0, 0, MNBlock);
  GmmaRule const form = gmma_form_violation(f);
  GmmaViolation v;
  if (form == GmmaRule::elem || form == GmmaRule::swizzle || form == GmmaRule::block || form == GmmaRule::start) {
    v.rule = form;
    return v;
  }
  v = gmma_block_violation(f, c, 0, 0, false);
  if (v.rule == GmmaRule::core) return v;
  if (form != GmmaRule::ok) return GmmaViolation{form};
  return v;
}();
}  // namespace detail

// make_gmma_desc<Major, MNBlock, ElemBytes, SwizzleBits>(base, L, mn0, k0): the descriptor of the
// MNBlock x (32 bytes of K) block at (mn0, k0) of an operand whose stage layout without its swizzle
// is L ((MN,K) -> element offset, static), base the stage's shared-window byte address (aligned to
// the swizzle's pattern: 256, 512, 1024 bytes; 16 unswizzled). SwizzleBits (default 3, the
// kernels' 128-byte swizzle): 0 none, 1, 2, 3 the 32-, 64-, 128-byte swizzle; ElemBytes (default
// 2): 1, 2 or 4. L must be the canonical form (tile_to_shape of GmmaLayoutAtom<Major, SwizzleBits,
// ElemBytes>'s layout), checked at compile time by the rules of arch/wgmma_rules.hpp (the
// checker's, `tessera check wgmma`) on the block at (0, 0): its first core matrix and the ends of
// every group; each static_assert names the rule it enforces (detail::GmmaDescCheck, whose template
// arguments give the values). The offsets are read off L: unused ones are written as 0, except a
// swizzled K-major block's LBO (16 bytes, as the PTX ISA's examples). Example: for the K-major
// (_128,_64) stage ((_8,_16),(_64,_1)):((_64,_512),(_1,_0)),
// make_gmma_desc<GmmaMajor::K, 64>(0, L, 64, 16) == gmma_desc_bits(8224, 16, 1024)
// (tests/atom/mma_traits_sm90.cpp).
template <GmmaMajor Major, int MNBlock, int ElemBytes = 2, int SwizzleBits = 3, class L>
  requires(!is_composed_layout<L>::value)
TESSERA_HOST_DEVICE constexpr std::uint64_t make_gmma_desc(std::uint32_t base, L const& l, int mn0, int k0) {
  static_assert(is_static_v<L>, "make_gmma_desc: the stage layout must be static");
  constexpr GmmaViolation v = detail::gmma_desc_violation<Major, SwizzleBits, ElemBytes, MNBlock, L>;
  // instantiating the check fires its static_assert of the broken rule, the values in its arguments
  [[maybe_unused]] constexpr bool checked =
      detail::GmmaDescCheck<Major, SwizzleBits, ElemBytes, MNBlock, v.rule, v.mn, v.k, v.expected, v.got>::ok;
  constexpr GmmaForm f = gmma_form_of(ElemBytes, Major, SwizzleBits, L{}, 0, 0, MNBlock);
  std::uint32_t const address = base + std::uint32_t(ElemBytes) * std::uint32_t(l(mn0, k0));
  std::uint32_t const unit = std::uint32_t(ElemBytes);
  std::uint32_t const lbo = Major == GmmaMajor::K && SwizzleBits != 0 ? 16u  // unused
                            : gmma_lbo_used(f)                        ? unit * std::uint32_t(f.lbo)
                                                                      : 0u;
  std::uint32_t const sbo = gmma_sbo_used(f) ? unit * std::uint32_t(f.sbo) : 0u;
  return gmma_desc_bits(address, lbo, sbo, SwizzleBits);
}

// make_gmma_desc<Major, MNBlock, ElemBytes>(base, stage, mn0, k0): the same for a stage layout
// given with its swizzle (Sw<B,M,S> o L, offset _0), the swizzle read off it (wgmma.swizzle: one
// of Sw<1|2|3, log2 T, 3>, or B = 0). Example: with stage = tile_to_shape(GmmaLayoutAtom<
// GmmaMajor::K, 2>{}, Shape<_64, _32>{}) (the 64-byte swizzle, SBO 512 bytes),
// make_gmma_desc<GmmaMajor::K, 64>(0, stage, 0, 16) == gmma_desc_bits(32, 16, 512, 2).
template <GmmaMajor Major, int MNBlock, int ElemBytes = 2, int B, int M, int S, class O, class L>
TESSERA_HOST_DEVICE constexpr std::uint64_t make_gmma_desc(std::uint32_t base,
                                                           ComposedLayout<Swizzle<B, M, S>, O, L> const& stage, int mn0,
                                                           int k0) {
  static_assert(O::value == 0, "make_gmma_desc: wgmma.rank: a swizzled stage layout has offset _0");
  constexpr int bits = gmma_swizzle_bits(B, M, S, ElemBytes);
  static_assert(bits >= 0,
                "make_gmma_desc: wgmma.swizzle: the stage's swizzle must be none or Sw<1|2|3, log2(16 / element "
                "bytes), 3> (16-byte units permuted within rows of 32, 64 or 128 bytes)");
  return make_gmma_desc<Major, MNBlock, ElemBytes, (bits < 0 ? 0 : bits)>(base, stage.inner(), mn0, k0);
}

}  // namespace tessera
