// Core vs twin for the atoms and tiled MMAs of `tessera eval` (atom/mma_atom.hpp and the traits
// against runtime/mma_atom.hpp with the name table atom/names.hpp). Atoms are a finite set of
// static types, so these comparisons enumerate instead of drawing at random: every atom's layouts,
// and make_tiled_mma of every MMA atom over a list of atom layouts (compact, column- and
// row-major, along M, N and K) and permutations (`_`, integers, layouts that interleave). An
// atom of the wrong kind, or an atom layout that is not compact, is refused at compile time by the
// core and must be refused by the twin.
#include <string>
#include <tuple>
#include <vector>

#include "differential.hpp"
#include "tessera/atom/mma_atom.hpp"
#include "tessera/atom/mma_traits_sm90.hpp"
#include "tessera/atom/names.hpp"

namespace tessera::test {
namespace {

template <class Op>
struct Named {
  using type = Op;
  char const* name;
};

// The MMA atoms and copy atoms, each with its name in the table.
auto mma_atoms() {
  return std::make_tuple(Named<SM80_16x8x16_F16F16F16F16_TN>{"SM80_16x8x16_F16F16F16F16_TN"},
                         Named<SM80_16x8x16_F32F16F16F32_TN>{"SM80_16x8x16_F32F16F16F32_TN"},
                         Named<SM80_16x8x16_F32BF16BF16F32_TN>{"SM80_16x8x16_F32BF16BF16F32_TN"},
                         Named<SM80_16x8x8_F16F16F16F16_TN>{"SM80_16x8x8_F16F16F16F16_TN"},
                         Named<SM80_16x8x8_F32TF32TF32F32_TN>{"SM80_16x8x8_F32TF32TF32F32_TN"},
                         Named<UniversalFMA<float>>{"UniversalFMA<float>"},
                         Named<UniversalFMA<double>>{"UniversalFMA<double>"},
                         Named<SM90_64x8x16_F32F16F16_SS<>>{"SM90_64x8x16_F32F16F16_SS"},
                         Named<SM90_64x128x16_F32BF16BF16_SS<>>{"SM90_64x128x16_F32BF16BF16_SS"});
}
auto copy_atoms() {
  return std::make_tuple(
      Named<SM75_U32x1_LDSM_N>{"SM75_U32x1_LDSM_N"}, Named<SM75_U32x2_LDSM_N>{"SM75_U32x2_LDSM_N"},
      Named<SM75_U32x4_LDSM_N>{"SM75_U32x4_LDSM_N"}, Named<SM75_U16x2_LDSM_T>{"SM75_U16x2_LDSM_T"},
      Named<SM75_U16x4_LDSM_T>{"SM75_U16x4_LDSM_T"}, Named<SM75_U16x8_LDSM_T>{"SM75_U16x8_LDSM_T"},
      Named<SM90_U32x1_STSM_N>{"SM90_U32x1_STSM_N"}, Named<SM90_U32x2_STSM_N>{"SM90_U32x2_STSM_N"},
      Named<SM90_U32x4_STSM_N>{"SM90_U32x4_STSM_N"}, Named<SM90_U16x2_STSM_T>{"SM90_U16x2_STSM_T"},
      Named<SM90_U16x4_STSM_T>{"SM90_U16x4_STSM_T"}, Named<SM90_U16x8_STSM_T>{"SM90_U16x8_STSM_T"},
      Named<UniversalCopy<std::uint8_t>>{"UniversalCopy<uint8_t>"},
      Named<UniversalCopy<std::uint16_t>>{"UniversalCopy<uint16_t>"},
      Named<UniversalCopy<std::uint32_t>>{"UniversalCopy<uint32_t>"},
      Named<UniversalCopy<std::uint64_t>>{"UniversalCopy<uint64_t>"},
      Named<UniversalCopy<uint128_t>>{"UniversalCopy<uint128_t>"},
      Named<SM80_CP_ASYNC_CACHEALWAYS<std::uint32_t>>{"SM80_CP_ASYNC_CACHEALWAYS<uint32_t>"},
      Named<SM80_CP_ASYNC_CACHEALWAYS<std::uint64_t>>{"SM80_CP_ASYNC_CACHEALWAYS<uint64_t>"},
      Named<SM80_CP_ASYNC_CACHEALWAYS<uint128_t>>{"SM80_CP_ASYNC_CACHEALWAYS<uint128_t>"},
      Named<SM80_CP_ASYNC_CACHEALWAYS_ZFILL<std::uint32_t>>{"SM80_CP_ASYNC_CACHEALWAYS_ZFILL<uint32_t>"},
      Named<SM80_CP_ASYNC_CACHEALWAYS_ZFILL<std::uint64_t>>{"SM80_CP_ASYNC_CACHEALWAYS_ZFILL<uint64_t>"},
      Named<SM80_CP_ASYNC_CACHEALWAYS_ZFILL<uint128_t>>{"SM80_CP_ASYNC_CACHEALWAYS_ZFILL<uint128_t>"},
      Named<SM80_CP_ASYNC_CACHEGLOBAL<uint128_t>>{"SM80_CP_ASYNC_CACHEGLOBAL<uint128_t>"},
      Named<SM80_CP_ASYNC_CACHEGLOBAL_ZFILL<uint128_t>>{"SM80_CP_ASYNC_CACHEGLOBAL_ZFILL<uint128_t>"});
}

// Atom layouts (m,n,k) -> atom: compact, column- and row-major, along each mode.
auto atom_layouts() {
  return std::make_tuple(Layout<Shape<_1, _1, _1>>{}, Layout<Shape<_2, _1, _1>>{}, Layout<Shape<_1, _2, _1>>{},
                         Layout<Shape<_2, _2, _1>>{}, Layout<Shape<_2, _2, _1>, Stride<_2, _1, _0>>{},
                         Layout<Shape<_2, _4, _1>>{}, Layout<Shape<_1, _2, _2>>{});
}

// Permutations [M,N,K], each written once for the core and once for `tessera eval`.
template <class P>
struct Perm {
  P tile;
  char const* text;
};
auto permutations() {
  using Interleave32 = Layout<Shape<_8, _2, _2>, Stride<_1, _16, _8>>;  // a permutation of 0..31
  using Transpose32 = Layout<Shape<_2, _16>, Stride<_16, _1>>;          // another
  return std::make_tuple(Perm<tuple<Underscore, Underscore, Underscore>>{{}, "[_,_,_]"},
                         Perm<tuple<_64, _32, _16>>{{}, "[_64,_32,_16]"},
                         Perm<tuple<Underscore, Interleave32, Underscore>>{{}, "[_,(_8,_2,_2):(_1,_16,_8),_]"},
                         Perm<tuple<Transpose32, _32, Underscore>>{{}, "[(_2,_16):(_16,_1),_32,_]"});
}

// What the core prints for one tiled MMA, computed once per TiledMMA type (each comparison below
// reads it, so the many TiledMMA instantiations are made once, not once per function).
struct TiledCase {
  std::string expr;  // make_tiled_mma(...) in `tessera eval`'s syntax
  std::string vmnk, a_tv, b_tv, c_tv, tile[3];
};

// Every MMA atom x atom layout with `_` permutations, and two atoms x two atom layouts x every
// permutation.
std::vector<TiledCase> const& tiled_cases() {
  static const std::vector<TiledCase> cases = [] {
    std::vector<TiledCase> out;
    auto one = [&](auto named, auto al, auto perm) {
      using Op = typename decltype(named)::type;
      auto m = make_tiled_mma(Op{}, al, perm.tile);
      out.push_back({"make_tiled_mma(" + std::string(named.name) + ", " + str(al) + ", " + perm.text + ")",
                     str(m.get_thr_layout_vmnk()),
                     str(m.get_layoutA_TV()),
                     str(m.get_layoutB_TV()),
                     str(m.get_layoutC_TV()),
                     {str(tile_size<0>(m)), str(tile_size<1>(m)), str(tile_size<2>(m))}});
    };
    const Perm<tuple<Underscore, Underscore, Underscore>> none{{}, "[_,_,_]"};
    std::apply(
        [&](auto... atoms) {
          auto per_atom = [&](auto atom) {
            std::apply([&](auto... als) { (one(atom, als, none), ...); }, atom_layouts());
          };
          (per_atom(atoms), ...);
        },
        mma_atoms());
    auto some_atoms = std::make_tuple(Named<SM80_16x8x16_F32F16F16F32_TN>{"SM80_16x8x16_F32F16F16F32_TN"},
                                      Named<SM80_16x8x8_F32TF32TF32F32_TN>{"SM80_16x8x8_F32TF32TF32F32_TN"});
    auto some_layouts = std::make_tuple(Layout<Shape<_2, _2, _1>>{}, Layout<Shape<_2, _1, _1>>{});
    std::apply(
        [&](auto... atoms) {
          auto per_atom = [&](auto atom) {
            std::apply(
                [&](auto... als) {
                  auto per_layout = [&](auto al) {
                    std::apply([&](auto... perms) { (one(atom, al, perms), ...); }, permutations());
                  };
                  (per_layout(als), ...);
                },
                some_layouts);
          };
          (per_atom(atoms), ...);
        },
        some_atoms);
    return out;
  }();
  return cases;
}

// f(case) for every tiled MMA; the core's printing cannot throw (the types are checked statically).
template <class F>
Coverage for_each_tiled_mma(F&& f) {
  Coverage c;
  for (auto const& tc : tiled_cases()) {
    f(tc);
    ++c.static_cases;
  }
  return c;
}

template <class F>
Coverage for_each_mma_atom(F&& f) {
  Coverage c;
  std::apply(
      [&](auto... atoms) { ((f(atoms.name, MMA_Traits<typename decltype(atoms)::type>{}), ++c.static_cases), ...); },
      mma_atoms());
  return c;
}
template <class F>
Coverage for_each_copy_atom(F&& f) {
  Coverage c;
  std::apply(
      [&](auto... atoms) { ((f(atoms.name, Copy_Traits<typename decltype(atoms)::type>{}), ++c.static_cases), ...); },
      copy_atoms());
  return c;
}

std::string of(char const* fn, char const* name) { return std::string(fn) + "(" + name + ")"; }

const Register reg_shape_mnk("shape_mnk", [](Tally& t) {
  check_refused(t, "shape_mnk(SM75_U32x4_LDSM_N)");  // a copy atom: MMA_Traits has no specialization
  return for_each_mma_atom([&](char const* n, auto tr) {
    check(t, of("shape_mnk", n), [&] { return str(typename decltype(tr)::Shape_MNK{}); });
  });
});
const Register reg_layout_a("layout_a", [](Tally& t) {
  check_refused(t, "layout_a(SM80_CP_ASYNC_CACHEGLOBAL<uint128_t>)");
  return for_each_mma_atom([&](char const* n, auto tr) {
    check(t, of("layout_a", n), [&] { return str(typename decltype(tr)::ALayout{}); });
  });
});
const Register reg_layout_b("layout_b", [](Tally& t) {
  check_refused(t, "layout_b(UniversalCopy<uint32_t>)");
  return for_each_mma_atom([&](char const* n, auto tr) {
    check(t, of("layout_b", n), [&] { return str(typename decltype(tr)::BLayout{}); });
  });
});
const Register reg_layout_c("layout_c", [](Tally& t) {
  check_refused(t, "layout_c(SM90_U32x4_STSM_N)");
  return for_each_mma_atom([&](char const* n, auto tr) {
    check(t, of("layout_c", n), [&] { return str(typename decltype(tr)::CLayout{}); });
  });
});
const Register reg_thr_id("thr_id", [](Tally& t) {
  check_refused(t, "thr_id((_2,_2):(_1,_2))");  // a layout is not an atom
  return for_each_mma_atom([&](char const* n, auto tr) {
           check(t, of("thr_id", n), [&] { return str(typename decltype(tr)::ThrID{}); });
         }) +
         for_each_copy_atom([&](char const* n, auto tr) {
           check(t, of("thr_id", n), [&] { return str(typename decltype(tr)::ThrID{}); });
         });
});
const Register reg_layout_src("layout_src", [](Tally& t) {
  check_refused(t, "layout_src(SM80_16x8x16_F32F16F16F32_TN)");  // an MMA atom: Copy_Traits has no specialization
  return for_each_copy_atom([&](char const* n, auto tr) {
    check(t, of("layout_src", n), [&] { return str(typename decltype(tr)::SrcLayout{}); });
  });
});
const Register reg_layout_dst("layout_dst", [](Tally& t) {
  check_refused(t, "layout_dst(UniversalFMA<float>)");
  return for_each_copy_atom([&](char const* n, auto tr) {
    check(t, of("layout_dst", n), [&] { return str(typename decltype(tr)::DstLayout{}); });
  });
});
const Register reg_layout_ref("layout_ref", [](Tally& t) {
  check_refused(t, "layout_ref(SM80_16x8x8_F16F16F16F16_TN)");
  return for_each_copy_atom([&](char const* n, auto tr) {
    check(t, of("layout_ref", n), [&] { return str(typename decltype(tr)::RefLayout{}); });
  });
});

// make_tiled_mma through the thread layout it builds; what the core's static_asserts refuse.
const Register reg_make_tiled_mma("make_tiled_mma", [](Tally& t) {
  check_refused(t,
                "thr_layout_vmnk(make_tiled_mma(SM80_16x8x16_F32F16F16F32_TN, (_2,_2,_1):(_1,_1,_0)))");  // not compact
  check_refused(t, "thr_layout_vmnk(make_tiled_mma(SM80_16x8x16_F32F16F16F32_TN, (_2,_2)))");             // rank 2
  check_refused(t, "thr_layout_vmnk(make_tiled_mma(SM80_16x8x16_F32F16F16F32_TN, (_2,_2,_1), [_,_]))");   // two modes
  check_refused(t, "thr_layout_vmnk(make_tiled_mma(SM75_U32x4_LDSM_N, (_2,_2,_1)))");                     // a copy atom
  check_refused(t, "thr_layout_vmnk(make_tiled_mma(SM80_16x8x16_F32F16F16F32_TN, (2,_2,_1)))");           // dynamic
  check_refused(t, "thr_layout_vmnk(make_tiled_mma(SM80_16x8x16_F32F16F16F32_TN, (_2,_2,_1), [_,32,_]))");  // dynamic
  return for_each_tiled_mma(
      [&](TiledCase const& c) { check(t, "thr_layout_vmnk(" + c.expr + ")", [&] { return c.vmnk; }); });
});
const Register reg_thr_layout_vmnk("thr_layout_vmnk", [](Tally& t) {
  check_refused(t, "thr_layout_vmnk(SM80_16x8x16_F32F16F16F32_TN)");  // an atom, not a tiled MMA
  return for_each_tiled_mma(
      [&](TiledCase const& c) { check(t, "thr_layout_vmnk(" + c.expr + ")", [&] { return c.vmnk; }); });
});
const Register reg_layout_a_tv("layout_a_tv", [](Tally& t) {
  return for_each_tiled_mma(
      [&](TiledCase const& c) { check(t, "layout_a_tv(" + c.expr + ")", [&] { return c.a_tv; }); });
});
const Register reg_layout_b_tv("layout_b_tv", [](Tally& t) {
  return for_each_tiled_mma(
      [&](TiledCase const& c) { check(t, "layout_b_tv(" + c.expr + ")", [&] { return c.b_tv; }); });
});
const Register reg_layout_c_tv("layout_c_tv", [](Tally& t) {
  return for_each_tiled_mma(
      [&](TiledCase const& c) { check(t, "layout_c_tv(" + c.expr + ")", [&] { return c.c_tv; }); });
});
const Register reg_tile_size("tile_size", [](Tally& t) {
  return for_each_tiled_mma([&](TiledCase const& c) {
    for (int i = 0; i < 3; ++i)
      check(t, "tile_size(" + c.expr + ", " + std::to_string(i) + ")", [&] { return c.tile[i]; });
    check_refused(t, "tile_size(" + c.expr + ", 3)");  // tile_size<3> does not compile
  });
});

}  // namespace
}  // namespace tessera::test
