// tessera/runtime/mma_atom.hpp -- the run-time twin of the layout side of atom/mma_atom.hpp (and
// of the copy atoms' traits): atoms as values with their thread-value layouts, and the layouts of
// a tiled MMA computed with the run-time algebra.
//
//   MmaAtom    an MMA instruction's name, Shape_MNK, ThrID and (thr,val) -> index layouts of A, B, C
//   CopyAtom   a copy instruction's name, ThrID and (thr,val) -> bit layouts Src, Dst, Ref
//   TiledMma   atoms over an (M,N,K) grid with the tile's modes permuted; make_tiled_mma(),
//              layout_a_tv() / layout_b_tv() / layout_c_tv(), tile_size()
//
// The atoms' layouts come from the static traits (atom/names.hpp builds the table); the tiled
// layouts follow atom/mma_atom.hpp step by step, and tests/differential/mma_atom.cpp compares the
// two on random atom layouts and permutations.
//   layout_c_tv(make_tiled_mma(SM80_16x8x16_F32F16F16F32_TN, (_2,_2,_1)))
//     = ((_4,_8,_2,_2),((_2,_2),(_1,_1))):((_64,_1,_16,_256),((_32,_8),(_0,_0)))  (see the test)
#pragma once

#if defined(__CUDACC_RTC__)
#error "tessera/runtime/mma_atom.hpp: host only (the run-time twin); kernels use the static algebra, tessera/core/"
#endif

#include <optional>
#include <string>
#include <utility>
#include <vector>

#include "tessera/runtime/complement.hpp"
#include "tessera/runtime/divide.hpp"
#include "tessera/runtime/product.hpp"

namespace tessera::rt {

// An MMA atom: (thr,val) -> m + k*M (a), n + k*N (b), m + n*M (c); thr_id: logical thread -> lane.
struct MmaAtom {
  std::string name;
  IntTuple shape_mnk;  // (M,N,K)
  Layout thr_id, a, b, c;
};

// A copy atom: (thr,val) -> bit of the source, of the destination, and of the reference layout
// (the one of the two a tiled copy is written in); thr_id: logical thread -> lane.
struct CopyAtom {
  std::string name;
  Layout thr_id, src, dst, ref;
  int value_bits = 0;  // Copy_Atom<Op, T>: the width of T (runtime/copy_atom.hpp); 0: the instruction alone
};

// A tiled MMA: atom repeated over atom_layout ((m,n,k) -> atom index), the tile's modes M, N, K
// permuted by permutation[i] (nullopt: `_`, the atoms' extent). thr_vmnk = (v,m,n,k) -> thread.
struct TiledMma {
  MmaAtom atom;
  Layout atom_layout;
  std::vector<std::optional<Layout>> permutation;  // three entries
  Layout thr_vmnk;
};

inline std::string to_string(const MmaAtom& a) { return a.name; }
inline std::string to_string(const CopyAtom& a) { return a.name; }

// TiledMMA(atom, atom_layout, [perm_M,perm_N,perm_K]) with `_` for an unpermuted mode.
inline std::string to_string(const TiledMma& m) {
  std::string p = "[";
  for (std::size_t i = 0; i < m.permutation.size(); ++i) {
    if (i) p += ",";
    p += m.permutation[i] ? to_string(*m.permutation[i]) : "_";
  }
  return "TiledMMA(" + m.atom.name + ", " + to_string(m.atom_layout) + ", " + p + "])";
}

// make_tiled_mma(atom, atom_layout = (_1,_1,_1), permutation = [_,_,_]). Pre: atom_layout has rank
// 3, static and compact (a bijection onto its atoms); three static permutation entries.
inline TiledMma make_tiled_mma(const MmaAtom& atom, const Layout& atom_layout,
                               std::vector<std::optional<Layout>> permutation = {std::nullopt, std::nullopt,
                                                                                 std::nullopt}) {
  if (rank(atom.shape_mnk).value != 3)
    fail("make_tiled_mma: the atom " + atom.name + " must have a rank-3 shape (M,N,K); got " +
         to_string(atom.shape_mnk));
  for (const Layout* l : {&atom.a, &atom.b, &atom.c})
    if (rank(*l).value != 2)
      fail("make_tiled_mma: the atom " + atom.name + "'s A, B and C layouts must be rank 2, (thr,val) -> index; got " +
           to_string(*l));
  if (rank(atom_layout).value != 3)
    fail("make_tiled_mma: the atom layout must be rank 3, (m,n,k) -> atom, e.g. (_2,_2,_1); got " +
         to_string(atom_layout));
  if (permutation.size() != 3)
    fail("make_tiled_mma: the permutation must be a tiler of three modes [M,N,K] (`_` keeps a mode); got " +
         std::to_string(permutation.size()) + " modes");
  // The core's TiledMMA is a type: its atom layout and permutation are static.
  if (!detail::all_static(atom_layout.shape) || !detail::all_static(atom_layout.stride))
    fail("make_tiled_mma: the atom layout must be static (write its integers _N), e.g. (_2,_2,_1); got " +
         to_string(atom_layout));
  for (const auto& p : permutation)
    if (p && (!detail::all_static(p->shape) || !detail::all_static(p->stride)))
      fail("make_tiled_mma: the permutation must be static (write its integers _N); got " + to_string(*p));
  Layout thr = tiled_product(atom.thr_id, atom_layout);
  if (cosize(thr).value != size(thr).value)
    fail("make_tiled_mma: the atom layout " + to_string(atom_layout) + " must be compact (a bijection onto its atoms)");
  return TiledMma{atom, atom_layout, std::move(permutation), thr};
}

namespace detail {
// The tile of mode i (0: M, 1: N, 2: K): the permutation's layout, or the atoms' extent
// size<i>(Shape_MNK) * threads along i as a layout n:_1.
inline Layout permutation_mnk(const TiledMma& m, std::int64_t i) {
  if (m.permutation[static_cast<std::size_t>(i)]) return *m.permutation[static_cast<std::size_t>(i)];
  return make_layout(IntTuple(product(get(m.atom.shape_mnk, i)) * size(layout(m.thr_vmnk, i + 1))));
}

// thrfrg(L) for the tile modes i0, i1: ((ThrV,(Thr0,Thr1)),(FrgV,(Rest0,Rest1,...))).
inline Layout thrfrg(const TiledMma& m, const Layout& l, std::int64_t i0, std::int64_t i1, const Layout& atom_tv) {
  Layout t = logical_divide(l, Tiler{permutation_mnk(m, i0), permutation_mnk(m, i1)});  // (Perm0,Perm1,...)
  Layout a = zipped_divide(
      t, Tiler{make_layout(IntTuple(product(get(m.atom.shape_mnk, i0)))),
               make_layout(IntTuple(product(get(m.atom.shape_mnk, i1))))});  // ((Atom0,Atom1),(Rest0,Rest1,...))
  Layout tv =
      make_layout(std::vector<Layout>{composition(layout(a, 0), atom_tv), layout(a, 1)});  // ((ThrV,FrgV),(Rest...))
  Layout r = zipped_divide(layout(tv, 1),
                           Tiler{make_layout(IntTuple(size(layout(m.thr_vmnk, i0 + 1)))),
                                 make_layout(IntTuple(size(layout(m.thr_vmnk, i1 + 1))))});  // ((Thr0,Thr1),(Rest'...))
  Layout tv0 = layout(tv, 0);
  return make_layout(std::vector<Layout>{make_layout(std::vector<Layout>{layout(tv0, 0), layout(r, 0)}),
                                         make_layout(std::vector<Layout>{layout(tv0, 1), layout(r, 1)})});
}

// ((ThrV,(Thr0,Thr1)),(FrgV,rest)) -> (thr_idx,(FrgV,rest)), as TiledMMA::layout_tv.
inline Layout layout_tv(const TiledMma& m, const Layout& tv, int which /* 0: A, 1: B, 2: C */) {
  Layout thr = layout(tv, 0);
  Layout thr_v = layout(thr, 0), thr_0 = layout(layout(thr, 1), 0), thr_1 = layout(layout(thr, 1), 1);
  auto zero = [&](std::int64_t mode) { return make_layout(IntTuple(size(layout(m.thr_vmnk, mode))), IntTuple(S(0))); };
  Layout vmnk = which == 0   ? make_layout(std::vector<Layout>{thr_v, thr_0, zero(2), thr_1})
                : which == 1 ? make_layout(std::vector<Layout>{thr_v, zero(1), thr_0, thr_1})
                             : make_layout(std::vector<Layout>{thr_v, thr_0, thr_1, zero(3)});
  return make_layout(std::vector<Layout>{composition(vmnk, right_inverse(m.thr_vmnk)), layout(tv, 1)});
}

inline Layout ref_layout(const TiledMma& m, std::int64_t i0, std::int64_t i1) {
  return make_layout(make_tuple({IntTuple(size(permutation_mnk(m, i0))), IntTuple(size(permutation_mnk(m, i1)))}));
}
}  // namespace detail

// tile_size(m, i): the extent of the tiled MMA's tile along mode i (0: M, 1: N, 2: K).
inline Int tile_size(const TiledMma& m, std::int64_t i) {
  if (i < 0 || i > 2)
    fail("tile_size: mode " + std::to_string(i) + " of a tiled MMA; the modes are 0 (M), 1 (N), 2 (K)");
  return size(detail::permutation_mnk(m, i));
}

// layout_X_tv(m): (thr_idx,val) -> column-major index of X's tile, X = A (M,K), B (N,K), C (M,N).
inline Layout layout_a_tv(const TiledMma& m) {
  return detail::layout_tv(m, detail::thrfrg(m, detail::ref_layout(m, 0, 2), 0, 2, m.atom.a), 0);
}
inline Layout layout_b_tv(const TiledMma& m) {
  return detail::layout_tv(m, detail::thrfrg(m, detail::ref_layout(m, 1, 2), 1, 2, m.atom.b), 1);
}
inline Layout layout_c_tv(const TiledMma& m) {
  return detail::layout_tv(m, detail::thrfrg(m, detail::ref_layout(m, 0, 1), 0, 1, m.atom.c), 2);
}

}  // namespace tessera::rt
