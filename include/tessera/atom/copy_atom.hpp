// Copy atoms and tiled copies: a copy instruction's thread-value layouts put to work on tensors.
//
//   Copy_Atom<Op, T>          one instruction moving elements of T (Copy_Traits<Op>: ThrID and the
//                             (thr,val) -> bit layouts of source, destination and reference);
//                             call(src, dst) runs it on one thread's values.
//   TiledCopy<Atom, Layout_TV, Tiler_MN>
//                             atoms laid out over an (M,N) tile by a (thr_idx,val) -> (m,n) layout;
//                             get_slice(thr) partitions tensors for one thread.
//   make_tiled_copy(atom, thr_layout, val_layout)      threads (m,n) -> thr_idx, values (m,n) -> val
//   make_tiled_copy_A/B/C(atom, tiled_mma)              the copy that feeds (or drains) an MMA's
//                                                       registers, thread for thread
//   copy(copy, src, dst), copy_if(copy, pred, src, dst) over partitioned tensors
//
// For a thread, partition_S(tensor) is (CopyV,RestM,RestN,...): the values one atom moves, then how
// often the thread's atoms repeat over the tensor; retile_D(fragment) views a register fragment
// partitioned by another partitioner (e.g. an MMA's) the same way. docs/atoms.md.
#pragma once

#include "tessera/atom/copy_traits.hpp"
#include "tessera/atom/mma_atom.hpp"
#include "tessera/core/recast.hpp"
#include "tessera/core/stdlib.hpp"

namespace tessera {

namespace detail {
// A copy instruction that takes a predicate (zero-fill variants): Op::copy(src..., dst..., pred).
template <class Op, class S, class D>
concept PredicatedCopyOp = requires(S const& s, D& d) { Op::copy(s, d, true); };

// Runs Op on one thread's values: source and destination viewed as Op's register types and passed
// element by element (source registers, then destination registers[, pred]).
template <class Op, class TS, class TD, class... Pred>
TESSERA_HOST_DEVICE void copy_unpack(TS const& src, TD&& dst, Pred const&... pred) {
  auto rS = as_registers<typename Op::SRegisters>(src);
  auto rD = as_registers<typename Op::DRegisters>(dst);
  constexpr std::size_t NS = std::extent_v<typename Op::SRegisters>, ND = std::extent_v<typename Op::DRegisters>;
  static_assert(decltype(size(rS))::value == NS,
                "Copy_Atom::call: the source values do not form the instruction's registers (its layout "
                "does not vectorize into them); partition with a TiledCopy of this atom");
  static_assert(decltype(size(rD))::value == ND,
                "Copy_Atom::call: the destination values do not form the instruction's registers (its "
                "layout does not vectorize into them); partition with a TiledCopy of this atom");
  [&]<std::size_t... Is, std::size_t... Id>(std::index_sequence<Is...>, std::index_sequence<Id...>) {
    Op::copy(rS(int(Is))..., rD(int(Id))..., pred...);
  }(std::make_index_sequence<NS>{}, std::make_index_sequence<ND>{});
}

// ((a,b),(c,d)) -> ((a,c),(b,d)) for a layout of two rank-2 modes.
template <class L>
TESSERA_HOST_DEVICE constexpr auto zip2(L const& l) {
  return make_layout(make_layout(layout<0, 0>(l), layout<1, 0>(l)), make_layout(layout<0, 1>(l), layout<1, 1>(l)));
}
}  // namespace detail

// Copy_Atom<Op, T>: the instruction Op moving elements of T. Its layouts in units of T:
// ValLayoutSrc / ValLayoutDst / ValLayoutRef: (thr,val) -> element offset in the instruction's tile.
template <class Op, class T>
struct Copy_Atom : Copy_Traits<Op> {
  using Traits = Copy_Traits<Op>;
  using ValType = T;
  using ThrID = typename Traits::ThrID;
  using BitLayoutSrc = typename Traits::SrcLayout;                             // (thr,val) -> bit
  using BitLayoutDst = typename Traits::DstLayout;                             // (thr,val) -> bit
  using BitLayoutRef = typename Traits::RefLayout;                             // (thr,val) -> bit
  using ValLayoutSrc = decltype(recast<1, sizeof_bits_v<T>>(BitLayoutSrc{}));  // (thr,val) -> element
  using ValLayoutDst = decltype(recast<1, sizeof_bits_v<T>>(BitLayoutDst{}));  // (thr,val) -> element
  using ValLayoutRef = decltype(recast<1, sizeof_bits_v<T>>(BitLayoutRef{}));  // (thr,val) -> element
  static_assert(decltype(size<0>(ValLayoutSrc{}) == size(ThrID{}))::value &&
                    decltype(size<0>(ValLayoutDst{}) == size(ThrID{}))::value,
                "Copy_Atom<Op, T>: the instruction's layouts do not split into elements of T (T too wide)");
  static constexpr int NumValSrc = int(decltype(size<1>(ValLayoutSrc{}))::value);
  static constexpr int NumValDst = int(decltype(size<1>(ValLayoutDst{}))::value);

  // call(src, dst): one thread's part of one instruction when src holds NumValSrc values (or dst
  // NumValDst); a larger rank-1 ((atom values, repeats)) tensor is copied atom by atom.
  template <class TS, class TD>
  TESSERA_HOST_DEVICE void call(TS const& src, TD&& dst) const {
    static_assert(std::remove_cvref_t<TS>::rank == 1 && std::remove_cvref_t<TD>::rank == 1,
                  "Copy_Atom::call: give one thread's values, a rank-1 tensor (slice the rest modes)");
    if constexpr (decltype(size(src))::value == NumValSrc || decltype(size(dst))::value == NumValDst) {
      detail::copy_unpack<Op>(src, dst);
    } else {
      copy(*this, make_tensor(src.data(), layout<0>(src.layout())), make_tensor(dst.data(), layout<0>(dst.layout())));
    }
  }
  // call(pred, src, dst): the same where pred(0) holds; zero-fill instructions take the predicate
  // (a false one fills the destination with zeros), the others are skipped.
  template <class TP, class TS, class TD>
  TESSERA_HOST_DEVICE void call(TP const& pred, TS const& src, TD&& dst) const {
    if constexpr (decltype(size(src))::value == NumValSrc || decltype(size(dst))::value == NumValDst) {
      using RS = std::remove_extent_t<typename Op::SRegisters>;
      using RD = std::remove_extent_t<typename Op::DRegisters>;
      if constexpr (detail::PredicatedCopyOp<Op, RS, RD>) {
        detail::copy_unpack<Op>(src, dst, static_cast<bool>(pred(0)));
      } else if (static_cast<bool>(pred(0))) {
        detail::copy_unpack<Op>(src, dst);
      }
    } else {
      copy_if(*this, make_tensor(pred.data(), layout<0>(pred.layout())),
              make_tensor(src.data(), layout<0>(src.layout())), make_tensor(dst.data(), layout<0>(dst.layout())));
    }
  }
};

template <class T>
struct is_copy_atom : std::false_type {};
template <class Op, class T>
struct is_copy_atom<Copy_Atom<Op, T>> : std::true_type {};

template <class TiledCopy_, class ThrIdx>
struct ThrCopy;

// TiledCopy: Layout_TV ((thr_idx,val) -> column-major index in the Tiler_MN tile) says which
// thread moves which element of each tile; the atom moves NumVal of a thread's values at a time.
template <class Atom, class LayoutCopy_TV, class ShapeTiler_MN>
struct TiledCopy : Atom {
  static_assert(is_copy_atom<Atom>::value, "TiledCopy: the first parameter must be a Copy_Atom<Op, T>");
  using AtomThrID = typename Atom::ThrID;
  using AtomLayoutSrc = typename Atom::ValLayoutSrc;  // (thr,val) -> offset
  using AtomLayoutDst = typename Atom::ValLayoutDst;  // (thr,val) -> offset
  using AtomLayoutRef = typename Atom::ValLayoutRef;  // (thr,val) -> offset
  using AtomNumThr = decltype(size<0>(AtomLayoutRef{}));
  using AtomNumVal = decltype(size<1>(AtomLayoutRef{}));
  using Tiler_MN = ShapeTiler_MN;
  using TiledLayout_TV = LayoutCopy_TV;
  using TiledNumThr = decltype(size<0>(TiledLayout_TV{}));
  using TiledNumVal = decltype(size<1>(TiledLayout_TV{}));
  static_assert(TiledNumThr::value % AtomNumThr::value == 0,
                "TiledCopy: the layout has fewer threads than the copy atom needs (or not a multiple)");
  static_assert(TiledNumVal::value % AtomNumVal::value == 0,
                "TiledCopy: each thread must own a multiple of the atom's values (val_layout too small for "
                "the instruction: e.g. 128-bit copies of half_t need 8 values per thread)");

  TESSERA_HOST_DEVICE static constexpr auto num_threads() { return TiledNumThr{}; }

  // tidfrg_S/D(L): L (tile modes, trailing...) -> (thr_idx, CopyV, (RestM,RestN,...)) for the
  // source / destination side of the atom.
  template <class L>
  TESSERA_HOST_DEVICE static constexpr auto tidfrg_S(L const& l) {
    return tile2thrfrg(zipped_divide(l, Tiler_MN{}), composition(right_inverse(AtomLayoutRef{}), AtomLayoutSrc{}));
  }
  template <class L>
  TESSERA_HOST_DEVICE static constexpr auto tidfrg_D(L const& l) {
    return tile2thrfrg(zipped_divide(l, Tiler_MN{}), composition(right_inverse(AtomLayoutRef{}), AtomLayoutDst{}));
  }

  // retile(L): a fragment layout (V,Rest...) partitioned by another partitioner, as this copy's
  // (CopyV,Rest...): its values regrouped into atoms in the order of this copy's TV layout.
  template <class L>
  TESSERA_HOST_DEVICE static constexpr auto retile(L const& l) {
    constexpr int R = rank_v<typename L::shape_type>;
    auto v = size<0>(l);
    // (m,n) -> v_idx: the order of the values inside Layout_TV.
    auto frg_layout_mn = upcast<static_cast<int>(TiledNumThr::value * decltype(v)::value)>(
        composition(right_inverse(TiledLayout_TV{}), make_layout(Tiler_MN{})));
    // (atom_vals,rest_vals) -> (v,m,n)
    auto frg_layout_v =
        zipped_divide(logical_product(make_layout(v), right_inverse(frg_layout_mn)), make_layout(AtomNumVal{}));
    // ((TileV,TileM,TileN,...),(1,RestM,RestN,...))
    auto t = zipped_divide(l, prepend(product_each(frg_layout_mn.shape()), v));
    // ((atom_vals,rest_vals),(1,RestM,RestN,...))
    auto vt = make_layout(composition(layout<0>(t), frg_layout_v), layout<1>(t));
    return slice(make_coord(_, append<R>(make_tuple(_0{}), _)), vt);
  }

  // get_layoutS_TV() / get_layoutD_TV(): (thr_idx,val) -> column-major index in the tile.
  TESSERA_HOST_DEVICE static constexpr auto get_layoutS_TV() {
    auto ref = make_layout(make_shape(Tiler_MN{}, _1{}));
    auto t = tile2thrfrg(ref, composition(right_inverse(AtomLayoutRef{}), AtomLayoutSrc{}));
    return slice(make_coord(_, _, _0{}), t);
  }
  TESSERA_HOST_DEVICE static constexpr auto get_layoutD_TV() {
    auto ref = make_layout(make_shape(Tiler_MN{}, _1{}));
    auto t = tile2thrfrg(ref, composition(right_inverse(AtomLayoutRef{}), AtomLayoutDst{}));
    return slice(make_coord(_, _, _0{}), t);
  }

  template <class T>
  TESSERA_HOST_DEVICE static constexpr auto get_slice(T const& thr_idx) {
    return ThrCopy<TiledCopy, T>{thr_idx};
  }
  template <class T>
  TESSERA_HOST_DEVICE static constexpr auto get_thread_slice(T const& thr_idx) {
    return get_slice(thr_idx);
  }

 private:
  // ((TileM,TileN),(RestM,RestN,...)) -> (thr, (atom_val,rest_val), (RestM,RestN,...)) with the
  // atom's values in the target's (source's or destination's) order.
  template <class L, class Ref2Trg>
  TESSERA_HOST_DEVICE static constexpr auto tile2thrfrg(L const& l, Ref2Trg const& ref2trg) {
    // ((atom_tid,atom_val),(rest_tid,rest_val)) -> (m,n)
    auto atom_layout_tv = zipped_divide(TiledLayout_TV{}, make_shape(AtomNumThr{}, AtomNumVal{}));
    // ((trg_tid,trg_val),(rest_tid,rest_val)) -> (m,n)
    auto trg_layout_tv = make_layout(composition(layout<0>(atom_layout_tv), ref2trg), layout<1>(atom_layout_tv));
    // ((trg_tid,rest_tid),(trg_val,rest_val)) -> (m,n), each mode merged as far as it goes
    auto z = detail::zip2(trg_layout_tv);
    auto thrval2mn =
        make_layout(coalesce(layout<0>(z)), make_layout(coalesce(layout<1, 0>(z)), coalesce(layout<1, 1>(z))));
    // ((thr,val),(RestM,RestN,...))
    auto tv = make_layout(composition(layout<0>(l), thrval2mn), layout<1>(l));
    return slice(make_coord(make_coord(_, _), _), tv);
  }
};

// ThrCopy: one thread's view of a TiledCopy (get_slice).
template <class TiledCopy_, class ThrIdx>
struct ThrCopy {
  ThrIdx thr_idx_;

  // partition_S(t) / partition_D(t): this thread's share of t, (CopyV,RestM,RestN,...).
  template <class Tn>
  TESSERA_HOST_DEVICE constexpr auto partition_S(Tn&& t) const {
    return slice_thread(make_tensor(t.data(), TiledCopy_::tidfrg_S(t.layout())));
  }
  template <class Tn>
  TESSERA_HOST_DEVICE constexpr auto partition_D(Tn&& t) const {
    return slice_thread(make_tensor(t.data(), TiledCopy_::tidfrg_D(t.layout())));
  }
  // retile_S(f) / retile_D(f): a fragment partitioned by another partitioner (e.g. an MMA's) in
  // this copy's (CopyV,Rest...) shape, the same registers.
  template <class Tn>
  TESSERA_HOST_DEVICE constexpr auto retile_S(Tn&& f) const {
    return make_tensor(f.data(), TiledCopy_::retile(f.layout()));
  }
  template <class Tn>
  TESSERA_HOST_DEVICE constexpr auto retile_D(Tn&& f) const {
    return make_tensor(f.data(), TiledCopy_::retile(f.layout()));
  }

 private:
  template <class Thr>
  TESSERA_HOST_DEVICE constexpr auto slice_thread(Thr const& thr) const {
    constexpr int R = rank_v<decltype(layout<2>(thr.layout()).shape())>;
    return thr(make_coord(thr_idx_, _, repeat<R>(_)));
  }
};

// make_tiled_copy(atom, thr_layout, val_layout): threads (m,n) -> thr_idx and each thread's
// values (m,n) -> val_idx, raked together (make_layout_tv): the tile is their product.
// make_tiled_copy(Copy_Atom<SM80_CP_ASYNC_CACHEGLOBAL<uint128_t>, half_t>{},
//                 (_32,_4):(_4,_1), (_1,_8)) copies (32,32) tiles, 8 contiguous halves per thread.
template <class Atom, class ThrLayout, class ValLayout = decltype(make_layout(_1{}))>
TESSERA_HOST_DEVICE constexpr auto make_tiled_copy(Atom const& = {}, ThrLayout const& thr = {},
                                                   ValLayout const& val = {}) {
  static_assert(is_copy_atom<Atom>::value, "make_tiled_copy: the first argument must be a Copy_Atom<Op, T>");
  auto tv = make_layout_tv(thr, val);
  return TiledCopy<Atom, decltype(get<1>(tv)), decltype(get<0>(tv))>{};
}
// make_tiled_copy_impl(atom, layout_tv, tiler): a TiledCopy from its TV layout and tile directly.
template <class Atom, class LayoutTV, class Tiler>
TESSERA_HOST_DEVICE constexpr auto make_tiled_copy_impl(Atom const& = {}, LayoutTV const& = {}, Tiler const& = {}) {
  return TiledCopy<Atom, LayoutTV, Tiler>{};
}
// make_tiled_copy_A/B/C(atom, mma): the copy whose threads hold exactly the values the MMA's
// threads hold of A (M,K), B (N,K) or C (M,N).
template <class Atom, class MA, class ML, class MP>
TESSERA_HOST_DEVICE constexpr auto make_tiled_copy_A(Atom const& atom, TiledMMA<MA, ML, MP> const& mma) {
  return make_tiled_copy_impl(atom, mma.get_layoutA_TV(), make_shape(tile_size<0>(mma), tile_size<2>(mma)));
}
template <class Atom, class MA, class ML, class MP>
TESSERA_HOST_DEVICE constexpr auto make_tiled_copy_B(Atom const& atom, TiledMMA<MA, ML, MP> const& mma) {
  return make_tiled_copy_impl(atom, mma.get_layoutB_TV(), make_shape(tile_size<1>(mma), tile_size<2>(mma)));
}
template <class Atom, class MA, class ML, class MP>
TESSERA_HOST_DEVICE constexpr auto make_tiled_copy_C(Atom const& atom, TiledMMA<MA, ML, MP> const& mma) {
  return make_tiled_copy_impl(atom, mma.get_layoutC_TV(), make_shape(tile_size<0>(mma), tile_size<1>(mma)));
}

// ---- copy over partitioned tensors ---------------------------------------------------------------

// copy(atom, src, dst): src and dst (CopyV,Rest...) of one thread; the atom runs once per Rest
// index. atom is a Copy_Atom, a TiledCopy or... (the TiledCopy's atom runs).
template <class Atom, class TS, class TD>
  requires(is_tensor_v<TS> && is_tensor_v<std::remove_cvref_t<TD>> &&
           (is_copy_atom<Atom>::value || requires { typename Atom::TiledLayout_TV; }))
TESSERA_HOST_DEVICE void copy(Atom const& atom, TS const& src, TD&& dst) {
  constexpr int R = TS::rank;
  static_assert(R == std::remove_cvref_t<TD>::rank, "copy(atom, src, dst): src and dst must have the same rank");
  if constexpr (R == 1) {
    atom.call(src, dst);
  } else {
    auto src_v = group_modes<1, R>(src);  // (CopyV,(Rest...))
    auto dst_v = group_modes<1, R>(dst);  // (CopyV,(Rest...))
    constexpr int N = int(decltype(size<1>(dst_v))::value);
    TESSERA_UNROLL
    for (int i = 0; i < N; ++i) {
      atom.call(src_v(_, i), dst_v(_, i));
    }
  }
}
// copy_if(atom, pred, src, dst): the same where pred (a tensor shaped like src) holds per atom:
// zero-fill instructions fill the destination with zeros where it does not.
template <class Atom, class TP, class TS, class TD>
  requires(is_tensor_v<TS> && is_tensor_v<std::remove_cvref_t<TD>> &&
           (is_copy_atom<Atom>::value || requires { typename Atom::TiledLayout_TV; }))
TESSERA_HOST_DEVICE void copy_if(Atom const& atom, TP const& pred, TS const& src, TD&& dst) {
  constexpr int R = TS::rank;
  if constexpr (R == 1) {
    atom.call(pred, src, dst);
  } else {
    auto pred_v = group_modes<1, R>(pred);
    auto src_v = group_modes<1, R>(src);
    auto dst_v = group_modes<1, R>(dst);
    constexpr int N = int(decltype(size<1>(dst_v))::value);
    TESSERA_UNROLL
    for (int i = 0; i < N; ++i) {
      atom.call(pred_v(_, i), src_v(_, i), dst_v(_, i));
    }
  }
}

}  // namespace tessera
