// The atoms under their CuTe names as run-time values: the name table of `tessera eval` (and of
// anything else that evaluates expressions at run time).
//
//   atom_names()   name -> rt::MmaAtom or rt::CopyAtom, the layouts read from the static traits
//
//   rt::eval_line("layout_c(SM80_16x8x16_F32F16F16F32_TN)", atom_names()).text
//     == "((_4,_8),(_2,_2)):((_32,_1),(_16,_8))"
//
// The wgmma atoms SM90_64xNx16_F32BF16BF16_SS and SM90_64xNx16_F32F16F16_SS, N = 8, 16, ..., 256
// (the layouts are those of every operand major), and their _RS forms (A from registers).
// Templated instructions appear once per register type they take: UniversalCopy<uint8_t> ..
// UniversalCopy<uint128_t>, SM80_CP_ASYNC_CACHEALWAYS<uint32_t|uint64_t|uint128_t> (and _ZFILL),
// SM80_CP_ASYNC_CACHEGLOBAL<uint128_t> (and _ZFILL), UniversalFMA<float|double>.
#pragma once

#if defined(__CUDACC_RTC__)
#error "tessera/atom/names.hpp: host only (the evaluator's atom names); kernels include an atom's traits header"
#endif

#include <cstdint>
#include <string>
#include <utility>

#include "tessera/atom/copy_traits.hpp"
#include "tessera/atom/copy_traits_sm75.hpp"
#include "tessera/atom/copy_traits_sm80.hpp"
#include "tessera/atom/copy_traits_sm90.hpp"
#include "tessera/atom/mma_traits.hpp"
#include "tessera/atom/mma_traits_sm80.hpp"
#include "tessera/atom/mma_traits_sm90.hpp"
#include "tessera/core/print.hpp"
#include "tessera/runtime/eval.hpp"

namespace tessera {

namespace detail {
// SM90_64xNx16_..._SS<> and _RS<> by N.
template <int N>
struct GemmSm90Name;
#define TESSERA_SM90_NAME(N)                           \
  template <>                                          \
  struct GemmSm90Name<N> {                             \
    using bf16 = SM90_64x##N##x16_F32BF16BF16_SS<>;    \
    using f16 = SM90_64x##N##x16_F32F16F16_SS<>;       \
    using bf16_rs = SM90_64x##N##x16_F32BF16BF16_RS<>; \
    using f16_rs = SM90_64x##N##x16_F32F16F16_RS<>;    \
  };
TESSERA_SM90_NAME(8)
TESSERA_SM90_NAME(16)
TESSERA_SM90_NAME(24)
TESSERA_SM90_NAME(32)
TESSERA_SM90_NAME(40)
TESSERA_SM90_NAME(48)
TESSERA_SM90_NAME(56)
TESSERA_SM90_NAME(64)
TESSERA_SM90_NAME(72)
TESSERA_SM90_NAME(80)
TESSERA_SM90_NAME(88)
TESSERA_SM90_NAME(96)
TESSERA_SM90_NAME(104)
TESSERA_SM90_NAME(112)
TESSERA_SM90_NAME(120)
TESSERA_SM90_NAME(128)
TESSERA_SM90_NAME(136)
TESSERA_SM90_NAME(144)
TESSERA_SM90_NAME(152)
TESSERA_SM90_NAME(160)
TESSERA_SM90_NAME(168)
TESSERA_SM90_NAME(176)
TESSERA_SM90_NAME(184)
TESSERA_SM90_NAME(192)
TESSERA_SM90_NAME(200)
TESSERA_SM90_NAME(208)
TESSERA_SM90_NAME(216)
TESSERA_SM90_NAME(224)
TESSERA_SM90_NAME(232)
TESSERA_SM90_NAME(240)
TESSERA_SM90_NAME(248)
TESSERA_SM90_NAME(256)
#undef TESSERA_SM90_NAME

// A static layout or shape as the run-time value it prints as.
template <class L>
rt::Layout to_rt_layout(L const& l) {
  rt::Value const v = rt::evaluate(std::string(to_string(l)));
  return v.as<rt::Layout>();
}
template <class S>
rt::IntTuple to_rt_shape(S const& s) {
  rt::Value const v = rt::evaluate(std::string(to_string(s)));
  return v.as<rt::IntTuple>();
}

template <class Op>
rt::MmaAtom rt_mma_atom(std::string name) {
  using T = MMA_Traits<Op>;
  return rt::MmaAtom{std::move(name),
                     to_rt_shape(typename T::Shape_MNK{}),
                     to_rt_layout(typename T::ThrID{}),
                     to_rt_layout(typename T::ALayout{}),
                     to_rt_layout(typename T::BLayout{}),
                     to_rt_layout(typename T::CLayout{})};
}
template <class Op>
rt::CopyAtom rt_copy_atom(std::string name) {
  using T = Copy_Traits<Op>;
  return rt::CopyAtom{std::move(name), to_rt_layout(typename T::ThrID{}), to_rt_layout(typename T::SrcLayout{}),
                      to_rt_layout(typename T::DstLayout{}), to_rt_layout(typename T::RefLayout{})};
}

// The wgmma atoms SM90_64xNx16_F32{BF16BF16,F16F16}_SS and _RS (K-major operands; the layouts do not
// depend on the majors) for N = 8, 16, ..., 256.
template <int N>
void add_sm90(rt::Names& n) {
  const std::string bf = "SM90_64x" + std::to_string(N) + "x16_F32BF16BF16_SS";
  const std::string f = "SM90_64x" + std::to_string(N) + "x16_F32F16F16_SS";
  using MmaBF = typename detail::GemmSm90Name<N>::bf16;
  using MmaF = typename detail::GemmSm90Name<N>::f16;
  n.emplace(bf, rt_mma_atom<MmaBF>(bf));
  n.emplace(f, rt_mma_atom<MmaF>(f));
  const std::string bf_rs = "SM90_64x" + std::to_string(N) + "x16_F32BF16BF16_RS";
  const std::string f_rs = "SM90_64x" + std::to_string(N) + "x16_F32F16F16_RS";
  n.emplace(bf_rs, rt_mma_atom<typename detail::GemmSm90Name<N>::bf16_rs>(bf_rs));
  n.emplace(f_rs, rt_mma_atom<typename detail::GemmSm90Name<N>::f16_rs>(f_rs));
}

template <template <class, class> class Op, class T>
void add_copy(rt::Names& n, std::string const& base, char const* type) {
  std::string name = base + "<" + type + ">";
  n.emplace(name, rt_copy_atom<Op<T, T>>(name));
}
}  // namespace detail

// atom_names(): every atom Tessera defines, by name. Built once.
inline rt::Names const& atom_names() {
  static rt::Names const table = [] {
    using namespace detail;
    rt::Names n;
    auto mma = [&n]<class Op>(Op*, char const* name) { n.emplace(name, rt_mma_atom<Op>(name)); };
    auto copy = [&n]<class Op>(Op*, char const* name) { n.emplace(name, rt_copy_atom<Op>(name)); };
    mma(static_cast<SM80_16x8x16_F16F16F16F16_TN*>(nullptr), "SM80_16x8x16_F16F16F16F16_TN");
    mma(static_cast<SM80_16x8x16_F32F16F16F32_TN*>(nullptr), "SM80_16x8x16_F32F16F16F32_TN");
    mma(static_cast<SM80_16x8x16_F32BF16BF16F32_TN*>(nullptr), "SM80_16x8x16_F32BF16BF16F32_TN");
    mma(static_cast<SM80_16x8x8_F16F16F16F16_TN*>(nullptr), "SM80_16x8x8_F16F16F16F16_TN");
    mma(static_cast<SM80_16x8x8_F32TF32TF32F32_TN*>(nullptr), "SM80_16x8x8_F32TF32TF32F32_TN");
    mma(static_cast<UniversalFMA<float>*>(nullptr), "UniversalFMA<float>");
    mma(static_cast<UniversalFMA<double>*>(nullptr), "UniversalFMA<double>");
    [&n]<int... Ks>(std::integer_sequence<int, Ks...>) {
      (add_sm90<8 * (Ks + 1)>(n), ...);
    }(std::make_integer_sequence<int, 32>{});
    copy(static_cast<SM75_U32x1_LDSM_N*>(nullptr), "SM75_U32x1_LDSM_N");
    copy(static_cast<SM75_U32x2_LDSM_N*>(nullptr), "SM75_U32x2_LDSM_N");
    copy(static_cast<SM75_U32x4_LDSM_N*>(nullptr), "SM75_U32x4_LDSM_N");
    copy(static_cast<SM75_U16x2_LDSM_T*>(nullptr), "SM75_U16x2_LDSM_T");
    copy(static_cast<SM75_U16x4_LDSM_T*>(nullptr), "SM75_U16x4_LDSM_T");
    copy(static_cast<SM75_U16x8_LDSM_T*>(nullptr), "SM75_U16x8_LDSM_T");
    copy(static_cast<SM90_U32x1_STSM_N*>(nullptr), "SM90_U32x1_STSM_N");
    copy(static_cast<SM90_U32x2_STSM_N*>(nullptr), "SM90_U32x2_STSM_N");
    copy(static_cast<SM90_U32x4_STSM_N*>(nullptr), "SM90_U32x4_STSM_N");
    copy(static_cast<SM90_U16x2_STSM_T*>(nullptr), "SM90_U16x2_STSM_T");
    copy(static_cast<SM90_U16x4_STSM_T*>(nullptr), "SM90_U16x4_STSM_T");
    copy(static_cast<SM90_U16x8_STSM_T*>(nullptr), "SM90_U16x8_STSM_T");
    add_copy<UniversalCopy, std::uint8_t>(n, "UniversalCopy", "uint8_t");
    add_copy<UniversalCopy, std::uint16_t>(n, "UniversalCopy", "uint16_t");
    add_copy<UniversalCopy, std::uint32_t>(n, "UniversalCopy", "uint32_t");
    add_copy<UniversalCopy, std::uint64_t>(n, "UniversalCopy", "uint64_t");
    add_copy<UniversalCopy, uint128_t>(n, "UniversalCopy", "uint128_t");
    add_copy<SM80_CP_ASYNC_CACHEALWAYS, std::uint32_t>(n, "SM80_CP_ASYNC_CACHEALWAYS", "uint32_t");
    add_copy<SM80_CP_ASYNC_CACHEALWAYS, std::uint64_t>(n, "SM80_CP_ASYNC_CACHEALWAYS", "uint64_t");
    add_copy<SM80_CP_ASYNC_CACHEALWAYS, uint128_t>(n, "SM80_CP_ASYNC_CACHEALWAYS", "uint128_t");
    add_copy<SM80_CP_ASYNC_CACHEALWAYS_ZFILL, std::uint32_t>(n, "SM80_CP_ASYNC_CACHEALWAYS_ZFILL", "uint32_t");
    add_copy<SM80_CP_ASYNC_CACHEALWAYS_ZFILL, std::uint64_t>(n, "SM80_CP_ASYNC_CACHEALWAYS_ZFILL", "uint64_t");
    add_copy<SM80_CP_ASYNC_CACHEALWAYS_ZFILL, uint128_t>(n, "SM80_CP_ASYNC_CACHEALWAYS_ZFILL", "uint128_t");
    add_copy<SM80_CP_ASYNC_CACHEGLOBAL, uint128_t>(n, "SM80_CP_ASYNC_CACHEGLOBAL", "uint128_t");
    add_copy<SM80_CP_ASYNC_CACHEGLOBAL_ZFILL, uint128_t>(n, "SM80_CP_ASYNC_CACHEGLOBAL_ZFILL", "uint128_t");
    return n;
  }();
  return table;
}

}  // namespace tessera
