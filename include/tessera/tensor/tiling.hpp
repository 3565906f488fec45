// Partitioning tensors among blocks and threads: inner_partition / local_tile (which tile: keep
// the tile's elements), outer_partition / local_partition (which element of every tile: keep one
// element per tile), with projection steps (Step<_1,X,_1>) to share one tiler among tensors that
// see only some of its modes (A sees (M,K) of an (M,N,K) tiler). Semantics: docs/tensor.md.
#pragma once

#include "tessera/tensor/tensor.hpp"

namespace tessera {

// X: the "not this mode" marker of a projection step.
struct X {};

// Step<...>: a tuple of _1 (keep the mode) and X (drop it). Step<_1, X, _1>{}.
template <class... Ts>
using Step = tuple<Ts...>;

// dice(step, t): the modes of t where step has _1 (those with X dropped); an integer t is kept.
// dice(Step<_1,X,_1>{}, (64,64,8)) == (64,8).
template <class StepT, class T>
TESSERA_HOST_DEVICE constexpr auto dice(StepT const&, T const& t) {
  if constexpr (!is_tuple_v<T>) {
    return t;
  } else {
    static_assert(tuple_size_v<StepT> == tuple_size_v<T>,
                  "dice: the projection step must have one entry (_1 or X) per mode of the tiler "
                  "and of the coordinate");
    return [&]<std::size_t... Is>(std::index_sequence<Is...>) {
      return tuple_cat(tuple<>{}, [&] {
        if constexpr (std::is_same_v<tuple_element_t<Is, StepT>, X>) {
          return tuple<>{};
        } else {
          return make_tuple(get<Is>(t));
        }
      }()...);
    }(std::make_index_sequence<tuple_size_v<T>>{});
  }
}

namespace detail {
// The tiler as a tuple of tiles (an integer n is the one-mode tiler (n)).
template <class T>
TESSERA_HOST_DEVICE constexpr auto as_tiler(T const& tiler) {
  if constexpr (is_tuple_v<T>) {
    return tiler;
  } else {
    static_assert(Integer<T>, "local_tile/partition: the tiler must be a tuple of tile sizes or an integer");
    return make_tuple(tiler);
  }
}
}  // namespace detail

// inner_partition(t, tiler, c): the tile at tile-coordinate c of zipped_divide(t, tiler), with
// the tile's modes flattened first and the modes that c leaves open (`_`, and t's modes beyond
// the tiler) after them. A tile size that does not divide its mode rounds the tile count up: the
// last tiles overhang the extent, and their coordinates past it are the caller's to predicate
// (docs/tensor.md, "Partial tiles"); 100 x 37 by 32 x 16 gives 4 x 3 tiles.
// t over (m,k), tiler (BM,BK), c = (bm,_) -> the view (BM,BK,k/BK) whose element (i,j,kb) is
// t(bm*BM + i, kb*BK + j).
template <class E, class L, class Tiler, class Crd>
TESSERA_HOST_DEVICE constexpr auto inner_partition(Tensor<E, L> const& t, Tiler const& tiler, Crd const& c) {
  auto z = zipped_divide(t, detail::as_tiler(tiler));  // ((tile...),(rest..., trailing...))
  constexpr int R0 = rank_v<decltype(shape<0>(z.layout()))>;
  constexpr int R1 = rank_v<decltype(shape<1>(z.layout()))>;
  if constexpr (is_tuple_v<Crd>) {
    static_assert(tuple_size_v<Crd> <= R1,
                  "inner_partition/local_tile: the coordinate has more modes than the tiled tensor has tiles");
    return z(make_tuple(repeat<R0>(Underscore{}), append<R1>(c, Underscore{})));
  } else {
    return z(make_tuple(repeat<R0>(Underscore{}), c));
  }
}

// outer_partition(t, tiler, c): the element at coordinate c inside every tile of
// zipped_divide(t, tiler): the view over the (rest..., trailing...) modes (tile counts rounded up,
// as for inner_partition).
// t over (64,8), tiler (8,8), c = (r,s) -> the view (8,1) whose element (i,j) is t(r + 8i, s + 8j).
template <class E, class L, class Tiler, class Crd>
TESSERA_HOST_DEVICE constexpr auto outer_partition(Tensor<E, L> const& t, Tiler const& tiler, Crd const& c) {
  auto z = zipped_divide(t, detail::as_tiler(tiler));  // ((tile...),(rest..., trailing...))
  constexpr int R1 = rank_v<decltype(shape<1>(z.layout()))>;
  return z(make_tuple(c, repeat<R1>(Underscore{})));
}

// local_tile(t, tiler, c): this block's tile: inner_partition(t, tiler, c).
// local_tile(t, tiler, c, step): the same with the modes where step has X removed from the tiler
// and from c. local_tile(mA over (M,K), (BM,BN,BK), (bm,bn,_), Step<_1,X,_1>{}) == local_tile(mA,
// (BM,BK), (bm,_)) -> (BM,BK,k).
template <class E, class L, class Tiler, class Crd>
TESSERA_HOST_DEVICE constexpr auto local_tile(Tensor<E, L> const& t, Tiler const& tiler, Crd const& c) {
  return inner_partition(t, tiler, c);
}
template <class E, class L, class Tiler, class Crd, class StepT>
TESSERA_HOST_DEVICE constexpr auto local_tile(Tensor<E, L> const& t, Tiler const& tiler, Crd const& c,
                                              StepT const& step) {
  return inner_partition(t, dice(step, tiler), dice(step, c));
}

namespace detail {
// (i / d) % s for a thread index i >= 0, of the type (i / d) % s has. With a dynamic signed i and a
// static stride d > 0 (a thread layout's), i is divided as its unsigned type: the same value for
// i >= 0 (s, a shape, is >= 1), where signed division costs sign fix-ups and leaves the compiler
// unaware that the coordinate, and every offset computed from it, is >= 0 (sign-extended 64-bit
// addresses): in the CuTe tutorial's TN SGEMM (examples/sgemm/tutorial.cuh, whose thread index is
// int(threadIdx.x)) it cost registers in the main loop against CuTe's build, whose threadIdx.x is
// unsigned (docs/performance/log.md).
// Pre: i >= 0 when I is a signed integer and d a static positive number (else the signed result
// is not kept). Post: the value of (i / d) % s, of its type.
// Example: thread_index_div_mod(int(13), _8{}, 4) == 1, computed as (13u / 8u) % 4u.
template <class D, bool = is_static_int_v<D>>
inline constexpr bool is_static_positive_v = false;
template <class D>
inline constexpr bool is_static_positive_v<D, true> = (D::value > 0);

template <class I, class D, class S>
TESSERA_HOST_DEVICE constexpr auto thread_index_div_mod(I const& i, D const& d, S const& s) {
  using R = decltype((i / d) % s);
  if constexpr (std::is_integral_v<I> && std::is_signed_v<I> && std::is_integral_v<R> && is_static_positive_v<D>) {
    using U = std::make_unsigned_t<R>;
    return R((U(i) / U(d)) % U(s));
  } else {
    return (i / d) % s;
  }
}
}  // namespace detail

// thread_coord(thr, i): the coordinate, one 1-D index per top-level mode, of thread i in the
// thread layout thr: the c with thr(c) == i. Pre: thr is a bijection of [0, size(thr)) (any
// order, e.g. (8,8):(8,1) row-major) and 0 <= i < size(thr). thread_coord((8,8):(8,1), 10) == (1,2).
template <class S, class D, class I>
TESSERA_HOST_DEVICE constexpr auto thread_coord(Layout<S, D> const& thr, I const& i) {
  return transform(wrap(thr.shape()), wrap(thr.stride()), [&](auto const& s, auto const& d) {
    auto leaf = transform_leaf(s, d, [&](auto const& sl, auto const& dl) {
      using DL = std::remove_cvref_t<decltype(dl)>;
      if constexpr (is_constant_v<0, DL>) {
        return _0{};
      } else if constexpr (is_static_int_v<DL> || is_static_int_v<decltype((i / dl) % sl)>) {
        return detail::thread_index_div_mod(i, dl, sl);
      } else {
        return dl == 0 ? decltype((i / dl) % sl)(0) : detail::thread_index_div_mod(i, dl, sl);
      }
    });
    return crd2idx(leaf, s, compact_col_major(s));
  });
}

// local_partition(t, thr, i): thread i's elements when the threads of layout thr tile t:
// outer_partition(t, shape of thr (mode sizes), thread_coord(thr, i)). With a step, the modes
// where step has X are dropped from both. t over (BM,BK,k) = (64,8,k), thr (8,8):(8,1), thread i
// -> (8,1,k) whose element (a,b,kb) is t(i/8 + 8a, i%8 + 8b, kb).
template <class E, class L, class S, class D, class I>
TESSERA_HOST_DEVICE constexpr auto local_partition(Tensor<E, L> const& t, Layout<S, D> const& thr, I const& i) {
  return outer_partition(t, product_each(wrap(thr.shape())), thread_coord(thr, i));
}
template <class E, class L, class S, class D, class I, class StepT>
TESSERA_HOST_DEVICE constexpr auto local_partition(Tensor<E, L> const& t, Layout<S, D> const& thr, I const& i,
                                                   StepT const& step) {
  return outer_partition(t, dice(step, product_each(wrap(thr.shape()))), dice(step, thread_coord(thr, i)));
}

}  // namespace tessera
