// MMA atoms and tiled MMAs: an instruction's thread-value layouts put to work on tensors.
//
//   MMA_Atom<Op>              one instruction (MMA_Traits<Op>: value types, Shape_MNK, ThrID and
//                             the (thr,val) -> index layouts of A, B, C); call(D, A, B, C) runs it
//                             on register fragments.
//   TiledMMA<Atom, AtomLayoutMNK, PermutationMNK>
//                             atoms laid out over (M,N,K) (AtomLayoutMNK: (m,n,k) -> atom index)
//                             and the tile's modes permuted (PermutationMNK: one tile per mode, `_`
//                             for none); get_slice(thr) partitions tensors for one thread.
//   make_tiled_mma(atom, atom_layout, permutation)
//   gemm(mma, D, A, B, C)     D = A*B + C over partitioned fragments ((V,M)x(V,N) or (V,M,K)x(V,N,K)).
//
// The layouts follow the reference definitions: for a thread, partition_A(tensor) is
// (FrgV,RestM,RestK,...) -- the values one atom takes, then how often the thread's atoms repeat
// over M and K -- and get_layoutA_TV() is (thr_idx,val) -> column-major index of the (M,K) tile.
// docs/atoms.md shows them with pictures.
#pragma once

#include "tessera/atom/mma_traits.hpp"
#include "tessera/core/complement.hpp"
#include "tessera/core/stdlib.hpp"
#include "tessera/tensor/tiling.hpp"

namespace tessera {

namespace detail {
// Runs Op on the registers of four fragments: each tensor is viewed as Op's register type and
// passed element by element (D..., A..., B..., C...), as the instruction wrappers take them.
template <class Regs, class Frag>
TESSERA_HOST_DEVICE auto as_registers(Frag&& f) {
  using R = std::remove_extent_t<Regs>;
  using V = typename std::remove_cvref_t<Frag>::value_type;
  if constexpr (std::is_same_v<R, V>) {
    return make_tensor(f.data(), f.layout());
  } else {
    return recast<R>(f);
  }
}
template <class Op, class TD, class TA, class TB, class TC>
TESSERA_HOST_DEVICE void mma_unpack(TD&& D, TA const& A, TB const& B, TC const& C) {
  auto rD = as_registers<typename Op::DRegisters>(D);
  auto rA = as_registers<typename Op::ARegisters>(A);
  auto rB = as_registers<typename Op::BRegisters>(B);
  auto rC = as_registers<typename Op::CRegisters>(C);
  constexpr std::size_t ND = std::extent_v<typename Op::DRegisters>, NA = std::extent_v<typename Op::ARegisters>,
                        NB = std::extent_v<typename Op::BRegisters>, NC = std::extent_v<typename Op::CRegisters>;
  static_assert(decltype(size(rD))::value == ND && decltype(size(rA))::value == NA && decltype(size(rB))::value == NB &&
                    decltype(size(rC))::value == NC,
                "MMA_Atom::call: a fragment does not hold the instruction's registers (partition with "
                "partition_fragment_A/B/C of the same MMA)");
  [&]<std::size_t... Id, std::size_t... Ia, std::size_t... Ib, std::size_t... Ic>(
      std::index_sequence<Id...>, std::index_sequence<Ia...>, std::index_sequence<Ib...>, std::index_sequence<Ic...>) {
    Op::fma(rD(int(Id))..., rA(int(Ia))..., rB(int(Ib))..., rC(int(Ic))...);
  }(std::make_index_sequence<ND>{}, std::make_index_sequence<NA>{}, std::make_index_sequence<NB>{},
    std::make_index_sequence<NC>{});
}
}  // namespace detail

// MMA_Atom<Op>: the instruction Op with its traits. call(D, A, B, C) computes D = A*B + C for one
// atom: D, C hold size<1>(LayoutC_TV) values of this thread, A size<1>(LayoutA_TV), B
// size<1>(LayoutB_TV), each in the order of its layout's value mode.
template <class Op>
struct MMA_Atom : MMA_Traits<Op> {
  using Traits = MMA_Traits<Op>;
  using ValTypeD = typename Traits::ValTypeD;
  using ValTypeA = typename Traits::ValTypeA;
  using ValTypeB = typename Traits::ValTypeB;
  using ValTypeC = typename Traits::ValTypeC;
  using Shape_MNK = typename Traits::Shape_MNK;
  using ThrID = typename Traits::ThrID;
  using LayoutA_TV = typename Traits::ALayout;  // (thr,val) -> m + k*M
  using LayoutB_TV = typename Traits::BLayout;  // (thr,val) -> n + k*N
  using LayoutC_TV = typename Traits::CLayout;  // (thr,val) -> m + n*M
  static_assert(rank_v<Shape_MNK> == 3, "MMA_Atom: Shape_MNK must be (M,N,K)");

  template <class TD, class TA, class TB, class TC>
  TESSERA_HOST_DEVICE void call(TD&& D, TA const& A, TB const& B, TC const& C) const {
    detail::mma_unpack<Op>(D, A, B, C);
  }
};

template <class T>
struct is_mma_atom : std::false_type {};
template <class Op>
struct is_mma_atom<MMA_Atom<Op>> : std::true_type {};

namespace detail {
// The thread coordinate (v,m,n,k) of thread index t in a bijective thread layout L: the natural
// coordinate of right_inverse(L)(t), one entry per top-level mode.
template <class L, class T>
TESSERA_HOST_DEVICE constexpr auto flat_thread_coord(L const& l, T const& t) {
  return idx2crd(right_inverse(l)(t), product_each(l.shape()));
}
// The tile of mode I: `_` becomes the atoms' extent, size<I>(Shape_MNK) * threads along I.
template <class Perm, class AtomSize, class ThrSize>
TESSERA_HOST_DEVICE constexpr auto tile_or_default(Perm const& p, AtomSize const& a, ThrSize const& t) {
  if constexpr (std::is_same_v<Perm, Underscore>) {
    return a * t;
  } else {
    return p;
  }
}
}  // namespace detail

template <class TiledMMA_, class ThrVMNK>
struct ThrMMA;

// TiledMMA: atoms repeated over an (M,N,K) grid of AtomLayoutMNK, with the tile's modes permuted by
// PermutationMNK. All static. The tile it covers is tile_size_mnk<I>() along mode I.
template <class Atom, class AtomLayoutMNK, class PermutationMNK>
struct TiledMMA : Atom {
  static_assert(is_mma_atom<Atom>::value, "TiledMMA: the first parameter must be an MMA_Atom<Op>");
  static_assert(rank_v<typename AtomLayoutMNK::shape_type> == 3,
                "TiledMMA: the atom layout must be rank 3, (m,n,k) -> atom, e.g. (_2,_2,_1)");
  static_assert(is_tuple_v<PermutationMNK> && tuple_size_v<PermutationMNK> == 3,
                "TiledMMA: the permutation must be a tiler of three modes (M,N,K); `_` keeps a mode");
  static_assert(is_static_v<AtomLayoutMNK> && is_static_v<PermutationMNK>,
                "TiledMMA: atom layout and permutation must be static");

  using AtomShape_MNK = typename Atom::Shape_MNK;
  using AtomThrID = typename Atom::ThrID;
  using AtomLayoutA_TV = typename Atom::LayoutA_TV;
  using AtomLayoutB_TV = typename Atom::LayoutB_TV;
  using AtomLayoutC_TV = typename Atom::LayoutC_TV;
  // (v,m,n,k) -> thread index: the atom's threads, then the atoms over M, N, K.
  using ThrLayoutVMNK = decltype(tiled_product(AtomThrID{}, AtomLayoutMNK{}));
  static_assert(decltype(cosize(ThrLayoutVMNK{}) == size(ThrLayoutVMNK{}))::value,
                "TiledMMA: the atom layout must be compact (a bijection onto its atoms)");

  TESSERA_HOST_DEVICE static constexpr auto get_thr_layout_vmnk() { return ThrLayoutVMNK{}; }
  TESSERA_HOST_DEVICE static constexpr auto num_threads() { return size(ThrLayoutVMNK{}); }

  // The tile of mode I (0: M, 1: N, 2: K): the permutation's, or the atoms' extent for `_`.
  template <int I>
  TESSERA_HOST_DEVICE static constexpr auto permutation_mnk() {
    return detail::tile_or_default(get<I>(PermutationMNK{}), size<I>(AtomShape_MNK{}), size<I + 1>(ThrLayoutVMNK{}));
  }
  template <int I>
  TESSERA_HOST_DEVICE static constexpr auto tile_size_mnk() {
    return size(permutation_mnk<I>());
  }

  // thrfrg_X(L): L (X's tile modes, trailing...) -> ((ThrV,(Thr0,Thr1)),(FrgV,(Rest0,Rest1,...)))
  // for X = A (M,K), B (N,K), C (M,N): ThrV the atom's threads, Thr0/Thr1 the atoms along the two
  // modes, FrgV the atom's values, Rest how often a thread's atoms repeat.
  template <class L>
  TESSERA_HOST_DEVICE static constexpr auto thrfrg_A(L const& l) {
    return thrfrg<0, 2>(l, AtomLayoutA_TV{});
  }
  template <class L>
  TESSERA_HOST_DEVICE static constexpr auto thrfrg_B(L const& l) {
    return thrfrg<1, 2>(l, AtomLayoutB_TV{});
  }
  template <class L>
  TESSERA_HOST_DEVICE static constexpr auto thrfrg_C(L const& l) {
    return thrfrg<0, 1>(l, AtomLayoutC_TV{});
  }

  // get_layoutX_TV(): (thr_idx,val) -> column-major index in X's (tile_size, tile_size) tile.
  TESSERA_HOST_DEVICE static constexpr auto get_layoutA_TV() { return layout_tv<0, 2>(thrfrg_A(ref_layout<0, 2>())); }
  TESSERA_HOST_DEVICE static constexpr auto get_layoutB_TV() { return layout_tv<1, 2>(thrfrg_B(ref_layout<1, 2>())); }
  TESSERA_HOST_DEVICE static constexpr auto get_layoutC_TV() { return layout_tv<0, 1>(thrfrg_C(ref_layout<0, 1>())); }

  // get_slice(thr_idx) / get_thread_slice(thr_idx): the partitioner of thread thr_idx.
  template <class T>
  TESSERA_HOST_DEVICE constexpr auto get_slice(T const& thr_idx) const {
    auto c = detail::flat_thread_coord(ThrLayoutVMNK{}, thr_idx);
    return ThrMMA<TiledMMA, decltype(c)>{*this, c};
  }
  template <class T>
  TESSERA_HOST_DEVICE constexpr auto get_thread_slice(T const& thr_idx) const {
    return get_slice(thr_idx);
  }

 private:
  // (tile_size<I0>, tile_size<I1>) -> column-major index.
  template <int I0, int I1>
  TESSERA_HOST_DEVICE static constexpr auto ref_layout() {
    return make_layout(make_shape(tile_size_mnk<I0>(), tile_size_mnk<I1>()));
  }

  template <int I0, int I1, class L, class AtomTV>
  TESSERA_HOST_DEVICE static constexpr auto thrfrg(L const& l, AtomTV const& atom_tv) {
    static_assert(rank_v<typename L::shape_type> >= 2, "TiledMMA: partition a tensor of at least two modes");
    // Reorder the tile's modes by the permutation.
    auto t = logical_divide(l, make_tile(permutation_mnk<I0>(), permutation_mnk<I1>()));  // (Perm0,Perm1,...)
    // Tile by the atom.
    auto a = zipped_divide(t, make_tile(make_layout(size<I0>(AtomShape_MNK{})),
                                        make_layout(size<I1>(AtomShape_MNK{}))));  // ((Atom0,Atom1),(Rest0,Rest1,...))
    // The atom's (m,k) as (thr,val).
    auto tv = make_layout(composition(layout<0>(a), atom_tv), layout<1>(a));  // ((ThrV,FrgV),(Rest0,Rest1,...))
    // Hand the rest to the atoms of the thread layout along the two modes.
    auto r = zipped_divide(layout<1>(tv),
                           make_tile(make_layout(size<I0 + 1>(ThrLayoutVMNK{})),
                                     make_layout(size<I1 + 1>(ThrLayoutVMNK{}))));  // ((Thr0,Thr1),(Rest0',Rest1',...))
    return make_layout(make_layout(layout<0, 0>(tv), layout<0>(r)),                 // (ThrV,(Thr0,Thr1))
                       make_layout(layout<0, 1>(tv), layout<1>(r)));                // (FrgV,(Rest0',Rest1',...))
  }

  // ((ThrV,(Thr0,Thr1)),(FrgV,rest)) -> ((thr_idx),(FrgV,rest)): spread the thread mode over all
  // four thread modes (stride 0 along the mode this operand does not depend on), then index it by
  // the thread index through the inverse of the (v,m,n,k) layout.
  template <int I0, int I1, class L>
  TESSERA_HOST_DEVICE static constexpr auto layout_tv(L const& tv) {
    auto thr = layout<0>(tv);  // (ThrV,(Thr0,Thr1)) -> index
    auto thr_v = layout<0>(thr);
    auto thr_0 = layout<1, 0>(thr);
    auto thr_1 = layout<1, 1>(thr);
    constexpr auto nm = size<1>(ThrLayoutVMNK{});
    constexpr auto nn = size<2>(ThrLayoutVMNK{});
    // (ThrV,ThrM,ThrN,ThrK) -> index, zero along the mode the operand ignores.
    auto vmnk = [&] {
      if constexpr (I0 == 0 && I1 == 2) {  // A: (M,K), ignores N
        return make_layout(thr_v, thr_0, make_layout(nn, _0{}), thr_1);
      } else if constexpr (I0 == 1) {  // B: (N,K), ignores M
        return make_layout(thr_v, make_layout(nm, _0{}), thr_0, thr_1);
      } else {  // C: (M,N), ignores K
        return make_layout(thr_v, thr_0, thr_1, make_layout(size<3>(ThrLayoutVMNK{}), _0{}));
      }
    }();
    // thr_idx -> column-major index of its (v,m,n,k) coordinate.
    auto thridx_2_thrid = right_inverse(ThrLayoutVMNK{});
    return make_layout(composition(vmnk, thridx_2_thrid), layout<1>(tv));
  }
};

// ThrMMA: one thread's view of a TiledMMA (get_slice). partition_A(t) is this thread's share of an
// (M,K,...) tensor, (FrgV,RestM,RestK,...); partition_fragment_A(t) a register tensor for it.
template <class TiledMMA_, class ThrVMNK>
struct ThrMMA : TiledMMA_ {
  ThrVMNK thr_vmnk_;
  TESSERA_HOST_DEVICE constexpr ThrMMA(TiledMMA_ const& m, ThrVMNK const& c) : TiledMMA_(m), thr_vmnk_(c) {}

  template <class Tn>
  TESSERA_HOST_DEVICE constexpr auto partition_A(Tn&& t) const {
    auto thr = make_tensor(t.data(), TiledMMA_::thrfrg_A(t.layout()));  // ((ThrV,(ThrM,ThrK)),(FrgV,(RestM,RestK,...)))
    return slice_thread(thr, make_coord(get<0>(thr_vmnk_), make_coord(get<1>(thr_vmnk_), get<3>(thr_vmnk_))));
  }
  template <class Tn>
  TESSERA_HOST_DEVICE constexpr auto partition_B(Tn&& t) const {
    auto thr = make_tensor(t.data(), TiledMMA_::thrfrg_B(t.layout()));  // ((ThrV,(ThrN,ThrK)),(FrgV,(RestN,RestK,...)))
    return slice_thread(thr, make_coord(get<0>(thr_vmnk_), make_coord(get<2>(thr_vmnk_), get<3>(thr_vmnk_))));
  }
  template <class Tn>
  TESSERA_HOST_DEVICE constexpr auto partition_C(Tn&& t) const {
    auto thr = make_tensor(t.data(), TiledMMA_::thrfrg_C(t.layout()));  // ((ThrV,(ThrM,ThrN)),(FrgV,(RestM,RestN,...)))
    return slice_thread(thr, make_coord(get<0>(thr_vmnk_), make_coord(get<1>(thr_vmnk_), get<2>(thr_vmnk_))));
  }
  // Register fragments shaped like this thread's partitions (fragment_layout_like), of the atom's
  // value types.
  template <class Tn>
  TESSERA_HOST_DEVICE constexpr auto partition_fragment_A(Tn&& t) const {
    return make_fragment_like<typename TiledMMA_::ValTypeA>(partition_A(t));
  }
  template <class Tn>
  TESSERA_HOST_DEVICE constexpr auto partition_fragment_B(Tn&& t) const {
    return make_fragment_like<typename TiledMMA_::ValTypeB>(partition_B(t));
  }
  template <class Tn>
  TESSERA_HOST_DEVICE constexpr auto partition_fragment_C(Tn&& t) const {
    return make_fragment_like<typename TiledMMA_::ValTypeC>(partition_C(t));
  }

 private:
  // thr(c, (_, (_,...))): the thread's values, (FrgV, Rest...) flattened one level.
  template <class Thr, class Crd>
  TESSERA_HOST_DEVICE static constexpr auto slice_thread(Thr const& thr, Crd const& c) {
    constexpr int R = rank_v<decltype(layout<1, 1>(thr.layout()).shape())>;
    return thr(make_coord(c, make_coord(_, repeat<R>(_))));
  }
};

// make_tiled_mma(atom, atom_layout = (_1,_1,_1), permutation = (_,_,_)): the TiledMMA of atom
// (an MMA_Atom or an instruction type) laid out over (M,N,K) by atom_layout, its tile permuted.
// make_tiled_mma(SM80_16x8x16_F32F16F16F32_TN{}, Layout<(_2,_2,_1)>) covers a 32x16x16 tile with
// 128 threads.
template <class AtomOrOp, class AtomLayout = decltype(make_layout(make_shape(_1{}, _1{}, _1{}))),
          class Permutation = tuple<Underscore, Underscore, Underscore>>
TESSERA_HOST_DEVICE constexpr auto make_tiled_mma(AtomOrOp const& = {}, AtomLayout const& = {},
                                                  Permutation const& = {}) {
  using Atom = std::conditional_t<is_mma_atom<AtomOrOp>::value, AtomOrOp, MMA_Atom<AtomOrOp>>;
  return TiledMMA<Atom, AtomLayout, Permutation>{};
}

// tile_size<I>(mma): the tile of mode I (0: M, 1: N, 2: K) one TiledMMA covers.
template <int I, class A, class L, class P>
TESSERA_HOST_DEVICE constexpr auto tile_size(TiledMMA<A, L, P> const&) {
  return TiledMMA<A, L, P>::template tile_size_mnk<I>();
}

// ---- gemm over fragments -------------------------------------------------------------------------

// gemm(mma, D, A, B, C): D = A*B + C on register fragments of one thread.
//   (V) x (V) -> (V)                one atom
//   (V,M) x (V,N) -> (V,M,N)        every (m,n) pair, serpentine over n for register reuse
//   (V,M,K) x (V,N,K) -> (V,M,N)    the same for each k
// mma is an MMA_Atom, a TiledMMA or a ThrMMA (its atom runs). Pre: the fragments come from
// partition_fragment_A/B/C (or partition_A/B/C of register tensors) of the same MMA.
template <class MMA, class TD, class TA, class TB, class TC>
  requires(is_tensor_v<std::remove_cvref_t<TD>> && is_tensor_v<TA> && is_tensor_v<TB> && is_tensor_v<TC>)
TESSERA_HOST_DEVICE void gemm(MMA const& mma, TD&& D, TA const& A, TB const& B, TC const& C) {
  constexpr int RA = std::remove_cvref_t<TA>::rank;
  constexpr int RD = std::remove_cvref_t<TD>::rank;
  if constexpr (RA == 1) {
    static_assert(RD == 1, "gemm(mma, D, A, B, C): a (V) A needs a (V) D");
    mma.call(D, A, B, C);
  } else if constexpr (RA == 2) {
    static_assert(RD == 3, "gemm(mma, D, A, B, C): (V,M) x (V,N) needs a (V,M,N) D");
    constexpr int M = int(decltype(size<1>(A))::value);
    constexpr int N = int(decltype(size<1>(B))::value);
    static_assert(M == int(decltype(size<1>(D))::value) && N == int(decltype(size<2>(D))::value),
                  "gemm(mma, D, A, B, C): D must be (V,M,N) for A (V,M) and B (V,N)");
    TESSERA_UNROLL
    for (int m = 0; m < M; ++m) {
      TESSERA_UNROLL
      for (int n0 = 0; n0 < N; ++n0) {
        int const n = (m & 1) ? N - 1 - n0 : n0;  // serpentine: B's fragment stays in registers
        auto d = D(_, m, n);
        mma.call(d, A(_, m), B(_, n), C(_, m, n));
      }
    }
  } else {
    static_assert(RA == 3, "gemm(mma, D, A, B, C): A must be (V), (V,M) or (V,M,K)");
    constexpr int K = int(decltype(size<2>(A))::value);
    static_assert(K == int(decltype(size<2>(B))::value), "gemm(mma, D, A, B, C): A and B must have the same K");
    gemm(mma, D, A(_, _, 0), B(_, _, 0), C);
    TESSERA_UNROLL
    for (int k = 1; k < K; ++k) {
      gemm(mma, D, A(_, _, k), B(_, _, k), D);
    }
  }
}

}  // namespace tessera
