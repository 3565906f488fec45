// Core vs twin for the typed copy atoms and tiled copies of `tessera eval` (atom/copy_atom.hpp
// against runtime/copy_atom.hpp). Like the MMA atoms (mma_atom.cpp) these are a finite set of
// static types, so the comparisons enumerate: the element layouts of Copy_Atom<Op, T> for pairs of
// instruction and element type, and make_tiled_copy / make_tiled_copy_A/B/C over thread and value
// layouts and tiled MMAs, each through layout_s_tv, layout_d_tv, tidfrg_s and tidfrg_d of a few
// memory layouts (static and dynamic). What the core refuses at compile time (an element wider
// than the registers, a thread's values not a multiple of the atom's, an untyped atom) the twin
// must refuse too.
#include <string>
#include <tuple>
#include <vector>

#include "differential.hpp"
#include "tessera/atom/copy_atom.hpp"
#include "tessera/atom/copy_traits_sm75.hpp"
#include "tessera/atom/copy_traits_sm80.hpp"
#include "tessera/atom/copy_traits_sm90.hpp"
#include "tessera/atom/mma_traits_sm80.hpp"

namespace tessera::test {
namespace {

// Copy_Atom<Op, T> with its name in `tessera eval`.
template <class Op, class T>
struct Typed {
  using atom = Copy_Atom<Op, T>;
  char const* name;
};

auto typed_atoms() {
  return std::make_tuple(
      Typed<SM75_U32x1_LDSM_N, half_t>{"Copy_Atom<SM75_U32x1_LDSM_N,half_t>"},
      Typed<SM75_U32x2_LDSM_N, bfloat16_t>{"Copy_Atom<SM75_U32x2_LDSM_N,bfloat16_t>"},
      Typed<SM75_U32x4_LDSM_N, half_t>{"Copy_Atom<SM75_U32x4_LDSM_N,half_t>"},
      Typed<SM75_U32x4_LDSM_N, float>{"Copy_Atom<SM75_U32x4_LDSM_N,float>"},
      Typed<SM75_U16x8_LDSM_T, half_t>{"Copy_Atom<SM75_U16x8_LDSM_T,half_t>"},
      Typed<SM75_U16x4_LDSM_T, bfloat16_t>{"Copy_Atom<SM75_U16x4_LDSM_T,bfloat16_t>"},
      Typed<SM90_U32x4_STSM_N, half_t>{"Copy_Atom<SM90_U32x4_STSM_N,half_t>"},
      Typed<SM90_U16x8_STSM_T, half_t>{"Copy_Atom<SM90_U16x8_STSM_T,half_t>"},
      Typed<UniversalCopy<std::uint32_t>, float>{"Copy_Atom<UniversalCopy<uint32_t>,float>"},
      Typed<UniversalCopy<std::uint32_t>, half_t>{"Copy_Atom<UniversalCopy<uint32_t>,half_t>"},
      Typed<UniversalCopy<uint128_t>, float>{"Copy_Atom<UniversalCopy<uint128_t>,float>"},
      Typed<UniversalCopy<uint128_t>, half_t>{"Copy_Atom<UniversalCopy<uint128_t>,half_t>"},
      Typed<SM80_CP_ASYNC_CACHEGLOBAL<uint128_t>, half_t>{"Copy_Atom<SM80_CP_ASYNC_CACHEGLOBAL<uint128_t>,half_t>"},
      Typed<SM80_CP_ASYNC_CACHEGLOBAL_ZFILL<uint128_t>, float>{
          "Copy_Atom<SM80_CP_ASYNC_CACHEGLOBAL_ZFILL<uint128_t>,float>"},
      Typed<SM80_CP_ASYNC_CACHEALWAYS<std::uint64_t>, half_t>{"Copy_Atom<SM80_CP_ASYNC_CACHEALWAYS<uint64_t>,half_t>"},
      Typed<SM80_CP_ASYNC_CACHEALWAYS<std::uint32_t>, std::uint8_t>{
          "Copy_Atom<SM80_CP_ASYNC_CACHEALWAYS<uint32_t>,uint8_t>"});
}

// What the core prints for one tiled copy, computed once per TiledCopy type.
struct CopyCase {
  std::string expr;  // make_tiled_copy...(...) in `tessera eval`'s syntax
  std::string s_tv, d_tv;
  std::vector<std::pair<std::string, std::string>> tidfrg_s, tidfrg_d;  // (memory layout, result)
};

// Memory layouts a tiled copy over an (M,N) tile partitions: the tile itself column- and
// row-major, two tiles by two, and a dynamic two tiles.
template <class C>
void add_tidfrg(CopyCase& c, C const& copy) {
  using Tiler = typename C::Tiler_MN;
  constexpr int M = int(decltype(size<0>(Tiler{}))::value), N = int(decltype(size<1>(Tiler{}))::value);
  auto one = [&](auto const& l) {
    c.tidfrg_s.emplace_back(str(l), str(copy.tidfrg_S(l)));
    c.tidfrg_d.emplace_back(str(l), str(copy.tidfrg_D(l)));
  };
  one(make_layout(Shape<Int<M>, Int<N>>{}));
  one(make_layout(Shape<Int<M>, Int<N>>{}, Stride<Int<N>, _1>{}));
  one(make_layout(Shape<Int<2 * M>, Int<2 * N>>{}, Stride<Int<2 * N>, _1>{}));
  one(make_layout(make_shape(2 * M, Int<N>{})));
}

template <class C>
CopyCase copy_case(std::string expr, C const& copy) {
  CopyCase c{std::move(expr), str(copy.get_layoutS_TV()), str(copy.get_layoutD_TV()), {}, {}};
  add_tidfrg(c, copy);
  return c;
}

std::vector<CopyCase> const& copy_cases() {
  static const std::vector<CopyCase> cases = [] {
    std::vector<CopyCase> out;
    using CG = Copy_Atom<SM80_CP_ASYNC_CACHEGLOBAL<uint128_t>, half_t>;
    using U128f = Copy_Atom<UniversalCopy<uint128_t>, float>;
    using U32f = Copy_Atom<UniversalCopy<std::uint32_t>, float>;
    using CA64h = Copy_Atom<SM80_CP_ASYNC_CACHEALWAYS<std::uint64_t>, half_t>;
    const std::string cg = "Copy_Atom<SM80_CP_ASYNC_CACHEGLOBAL<uint128_t>,half_t>";
    out.push_back(copy_case("make_tiled_copy(" + cg + ", (_32,_4):(_4,_1), (_1,_8))",
                            make_tiled_copy(CG{}, Layout<Shape<_32, _4>, Stride<_4, _1>>{}, Layout<Shape<_1, _8>>{})));
    out.push_back(copy_case("make_tiled_copy(" + cg + ", (_16,_8):(_8,_1), (_1,_8))",
                            make_tiled_copy(CG{}, Layout<Shape<_16, _8>, Stride<_8, _1>>{}, Layout<Shape<_1, _8>>{})));
    out.push_back(copy_case("make_tiled_copy(" + cg + ", (_8,_16), (_8,_1))",
                            make_tiled_copy(CG{}, Layout<Shape<_8, _16>>{}, Layout<Shape<_8, _1>>{})));
    out.push_back(copy_case("make_tiled_copy(" + cg + ", (_16,_8):(_8,_1), (_2,_8))",
                            make_tiled_copy(CG{}, Layout<Shape<_16, _8>, Stride<_8, _1>>{}, Layout<Shape<_2, _8>>{})));
    out.push_back(
        copy_case("make_tiled_copy(Copy_Atom<UniversalCopy<uint128_t>,float>, (_32,_8):(_8,_1), (_1,_4))",
                  make_tiled_copy(U128f{}, Layout<Shape<_32, _8>, Stride<_8, _1>>{}, Layout<Shape<_1, _4>>{})));
    out.push_back(copy_case("make_tiled_copy(Copy_Atom<UniversalCopy<uint32_t>,float>, (_32,_8))",
                            make_tiled_copy(U32f{}, Layout<Shape<_32, _8>>{})));
    out.push_back(
        copy_case("make_tiled_copy(Copy_Atom<SM80_CP_ASYNC_CACHEALWAYS<uint64_t>,half_t>, (_16,_8):(_8,_1), (_1,_4))",
                  make_tiled_copy(CA64h{}, Layout<Shape<_16, _8>, Stride<_8, _1>>{}, Layout<Shape<_1, _4>>{})));

    const std::string mma1 = "make_tiled_mma(SM80_16x8x16_F32F16F16F32_TN, (_2,_2,_1))";
    const std::string mma2 = "make_tiled_mma(SM80_16x8x16_F32F16F16F32_TN, (_2,_2,_1), [_32,_32,_16])";
    const auto m1 = make_tiled_mma(SM80_16x8x16_F32F16F16F32_TN{}, Layout<Shape<_2, _2, _1>>{});
    const auto m2 =
        make_tiled_mma(SM80_16x8x16_F32F16F16F32_TN{}, Layout<Shape<_2, _2, _1>>{}, make_tile(_32{}, _32{}, _16{}));
    using LdsmN4 = Copy_Atom<SM75_U32x4_LDSM_N, half_t>;
    using LdsmN2 = Copy_Atom<SM75_U32x2_LDSM_N, half_t>;
    using LdsmT4 = Copy_Atom<SM75_U16x8_LDSM_T, half_t>;
    using U32h = Copy_Atom<UniversalCopy<std::uint32_t>, half_t>;
    using StsmN4 = Copy_Atom<SM90_U32x4_STSM_N, half_t>;
    out.push_back(copy_case("make_tiled_copy_A(Copy_Atom<SM75_U32x4_LDSM_N,half_t>, " + mma1 + ")",
                            make_tiled_copy_A(LdsmN4{}, m1)));
    out.push_back(copy_case("make_tiled_copy_A(Copy_Atom<SM75_U32x4_LDSM_N,half_t>, " + mma2 + ")",
                            make_tiled_copy_A(LdsmN4{}, m2)));
    out.push_back(copy_case("make_tiled_copy_B(Copy_Atom<SM75_U32x2_LDSM_N,half_t>, " + mma1 + ")",
                            make_tiled_copy_B(LdsmN2{}, m1)));
    out.push_back(copy_case("make_tiled_copy_B(Copy_Atom<SM75_U32x4_LDSM_N,half_t>, " + mma2 + ")",
                            make_tiled_copy_B(LdsmN4{}, m2)));
    out.push_back(copy_case("make_tiled_copy_B(Copy_Atom<SM75_U16x8_LDSM_T,half_t>, " + mma2 + ")",
                            make_tiled_copy_B(LdsmT4{}, m2)));
    out.push_back(copy_case("make_tiled_copy_C(Copy_Atom<UniversalCopy<uint32_t>,half_t>, " + mma1 + ")",
                            make_tiled_copy_C(U32h{}, m1)));
    out.push_back(copy_case("make_tiled_copy_C(Copy_Atom<SM90_U32x4_STSM_N,half_t>, " + mma2 + ")",
                            make_tiled_copy_C(StsmN4{}, m2)));
    return out;
  }();
  return cases;
}

template <class F>
Coverage for_each_copy(F&& f) {
  Coverage c;
  for (auto const& cc : copy_cases()) {
    f(cc);
    ++c.static_cases;
  }
  return c;
}

template <class F>
Coverage for_each_typed_atom(F&& f) {
  Coverage c;
  std::apply([&](auto... atoms) { ((f(atoms.name, typename decltype(atoms)::atom{}), ++c.static_cases), ...); },
             typed_atoms());
  return c;
}

std::string of(char const* fn, char const* name) { return std::string(fn) + "(" + name + ")"; }

// Copy_Atom<Op, T>: the element layouts (layout_src/dst/ref of a typed atom). The registrations for
// these names in mma_atom.cpp cover the bare instructions (bit layouts).
const Register reg_layout_src("layout_src", [](Tally& t) {
  check_refused(t, "layout_src(Copy_Atom<SM75_U32x4_LDSM_N,uint128_t>)");  // 128-bit elements do not fit the registers
  check_refused(t, "layout_src(Copy_Atom<SM80_16x8x16_F32F16F16F32_TN,half_t>)");  // not a copy instruction
  return for_each_typed_atom([&](char const* n, auto a) {
    check(t, of("layout_src", n), [&] { return str(typename decltype(a)::ValLayoutSrc{}); });
  });
});
const Register reg_layout_dst("layout_dst", [](Tally& t) {
  return for_each_typed_atom([&](char const* n, auto a) {
    check(t, of("layout_dst", n), [&] { return str(typename decltype(a)::ValLayoutDst{}); });
  });
});
const Register reg_layout_ref("layout_ref", [](Tally& t) {
  return for_each_typed_atom([&](char const* n, auto a) {
    check(t, of("layout_ref", n), [&] { return str(typename decltype(a)::ValLayoutRef{}); });
  });
});
const Register reg_thr_id("thr_id", [](Tally& t) {
  return for_each_typed_atom(
      [&](char const* n, auto a) { check(t, of("thr_id", n), [&] { return str(typename decltype(a)::ThrID{}); }); });
});

const Register reg_make_tiled_copy("make_tiled_copy", [](Tally& t) {
  check_refused(t, "layout_s_tv(make_tiled_copy(SM75_U32x4_LDSM_N, (_32,_1)))");  // no element type
  check_refused(t,
                "layout_s_tv(make_tiled_copy(Copy_Atom<SM80_CP_ASYNC_CACHEGLOBAL<uint128_t>,half_t>, (_32,_4), "
                "(_1,_4)))");  // 4 of 8 values
  check_refused(
      t, "layout_s_tv(make_tiled_copy(Copy_Atom<SM75_U32x4_LDSM_N,half_t>, (_16,_1), (_1,_8)))");  // 16 of 32 threads
  check_refused(t, "layout_s_tv(make_tiled_copy(Copy_Atom<UniversalCopy<uint32_t>,float>, (32,_1)))");  // dynamic
  Coverage c;
  for (auto const& cc : copy_cases())
    if (cc.expr.rfind("make_tiled_copy(", 0) == 0) {
      check(t, "layout_s_tv(" + cc.expr + ")", [&] { return cc.s_tv; });
      ++c.static_cases;
    }
  return c;
});
const Register reg_make_tiled_copy_a("make_tiled_copy_A", [](Tally& t) {
  check_refused(t,
                "layout_s_tv(make_tiled_copy_A(Copy_Atom<SM75_U32x4_LDSM_N,half_t>, "
                "make_tiled_mma(UniversalFMA<float>, (_2,_2,_1))))");
  Coverage c;
  for (auto const& cc : copy_cases())
    if (cc.expr.rfind("make_tiled_copy_A(", 0) == 0) {
      check(t, "layout_d_tv(" + cc.expr + ")", [&] { return cc.d_tv; });
      ++c.static_cases;
    }
  return c;
});
const Register reg_make_tiled_copy_b("make_tiled_copy_B", [](Tally& t) {
  Coverage c;
  for (auto const& cc : copy_cases())
    if (cc.expr.rfind("make_tiled_copy_B(", 0) == 0) {
      check(t, "layout_d_tv(" + cc.expr + ")", [&] { return cc.d_tv; });
      ++c.static_cases;
    }
  return c;
});
const Register reg_make_tiled_copy_c("make_tiled_copy_C", [](Tally& t) {
  // 4 accumulator values a thread, an stmatrix x4 of halves moves 8
  check_refused(t,
                "layout_s_tv(make_tiled_copy_C(Copy_Atom<SM90_U32x4_STSM_N,half_t>, "
                "make_tiled_mma(SM80_16x8x16_F32F16F16F32_TN, (_2,_2,_1))))");
  Coverage c;
  for (auto const& cc : copy_cases())
    if (cc.expr.rfind("make_tiled_copy_C(", 0) == 0) {
      check(t, "layout_s_tv(" + cc.expr + ")", [&] { return cc.s_tv; });
      ++c.static_cases;
    }
  return c;
});
const Register reg_layout_s_tv("layout_s_tv", [](Tally& t) {
  check_refused(t, "layout_s_tv(Copy_Atom<SM75_U32x4_LDSM_N,half_t>)");  // an atom, not a tiled copy
  return for_each_copy([&](CopyCase const& c) { check(t, "layout_s_tv(" + c.expr + ")", [&] { return c.s_tv; }); });
});
const Register reg_layout_d_tv("layout_d_tv", [](Tally& t) {
  return for_each_copy([&](CopyCase const& c) { check(t, "layout_d_tv(" + c.expr + ")", [&] { return c.d_tv; }); });
});
const Register reg_tidfrg_s("tidfrg_s", [](Tally& t) {
  return for_each_copy([&](CopyCase const& c) {
    for (auto const& [l, r] : c.tidfrg_s) check(t, "tidfrg_s(" + c.expr + ", " + l + ")", [&] { return r; });
  });
});
const Register reg_tidfrg_d("tidfrg_d", [](Tally& t) {
  return for_each_copy([&](CopyCase const& c) {
    for (auto const& [l, r] : c.tidfrg_d) check(t, "tidfrg_d(" + c.expr + ", " + l + ")", [&] { return r; });
  });
});

}  // namespace
}  // namespace tessera::test
