// Tensor = engine (iterator) + layout: t(c) is the element at data()[layout(c)]. Views over
// memory (make_tensor(ptr, layout)), owning register tensors for static layouts
// (make_tensor<T>(layout)), and the layout algebra lifted to tensors: slicing with `_`,
// composition, the divides, group_modes, flatten, coalesce, recast and domain_offset. Every
// derived tensor is a view (ViewEngine) of the original's memory. Semantics: docs/tensor.md.
#pragma once

#include "tessera/core/arithmetic_tuple.hpp"
#include "tessera/core/composition.hpp"
#include "tessera/core/divide.hpp"
#include "tessera/core/product.hpp"
#include "tessera/core/recast.hpp"
#include "tessera/tensor/engine.hpp"

namespace tessera {

// make_shape / make_stride / make_coord / make_step: tuples under the name of their role.
template <class... Ts>
TESSERA_HOST_DEVICE constexpr auto make_shape(Ts const&... ts) {
  return make_tuple(ts...);
}
template <class... Ts>
TESSERA_HOST_DEVICE constexpr auto make_stride(Ts const&... ts) {
  return make_tuple(ts...);
}
template <class... Ts>
TESSERA_HOST_DEVICE constexpr auto make_coord(Ts const&... ts) {
  return make_tuple(ts...);
}
// make_tile(t0, t1, ...): a tiler, one tile (a layout, a size or `_`) per mode.
template <class... Ts>
TESSERA_HOST_DEVICE constexpr auto make_tile(Ts const&... ts) {
  return make_tuple(ts...);
}

template <class Engine, class Layout>
struct Tensor;

template <class T>
struct is_tensor : std::false_type {};
template <class E, class L>
struct is_tensor<Tensor<E, L>> : std::true_type {};
template <class T>
inline constexpr bool is_tensor_v = is_tensor<std::remove_cvref_t<T>>::value;

template <class Iterator, class S, class D>
TESSERA_HOST_DEVICE constexpr auto make_tensor(Iterator const& it, Layout<S, D> const& layout);

// Tensor<Engine, Layout>: the element at coordinate c is data()[layout()(c)].
// t(c...) / t(i) / t[i]: an element (a reference for memory iterators, a value for counting
// iterators); t(c) with `_` in c: the view of the kept modes, its iterator advanced by the
// offset of the fixed ones. A view does not own memory: it must not outlive what it points to.
template <class Engine, class LayoutT>
struct Tensor {
  using engine_type = Engine;
  using layout_type = LayoutT;
  using iterator = typename Engine::iterator;
  using value_type = std::remove_cvref_t<decltype(*std::declval<iterator>())>;
  static constexpr int rank = rank_v<typename LayoutT::shape_type>;

  Engine engine_{};
  [[no_unique_address]] LayoutT layout_{};

  constexpr Tensor() = default;
  TESSERA_HOST_DEVICE constexpr Tensor(Engine const& e, LayoutT const& l) : engine_(e), layout_(l) {}

  TESSERA_HOST_DEVICE constexpr auto data() { return engine_.begin(); }
  TESSERA_HOST_DEVICE constexpr auto data() const { return engine_.begin(); }
  TESSERA_HOST_DEVICE constexpr LayoutT const& layout() const { return layout_; }
  TESSERA_HOST_DEVICE constexpr decltype(auto) shape() const { return layout_.shape(); }
  TESSERA_HOST_DEVICE constexpr decltype(auto) stride() const { return layout_.stride(); }
  TESSERA_HOST_DEVICE constexpr auto size() const { return tessera::size(layout_); }

  template <class... Cs>
  TESSERA_HOST_DEVICE constexpr decltype(auto) operator()(Cs const&... cs) {
    return access(*this, cs...);
  }
  template <class... Cs>
  TESSERA_HOST_DEVICE constexpr decltype(auto) operator()(Cs const&... cs) const {
    return access(*this, cs...);
  }
  template <class I>
  TESSERA_HOST_DEVICE constexpr decltype(auto) operator[](I const& i) {
    return data()[layout_(i)];
  }
  template <class I>
  TESSERA_HOST_DEVICE constexpr decltype(auto) operator[](I const& i) const {
    return data()[layout_(i)];
  }

  // `gmem_ptr[32b](0x...) o (4,8):(_1,4)`
  template <class Sink>
  TESSERA_HOST_DEVICE void write_to(Sink& k) const {
    detail::write(k, data());
    k.put(" o ");
    detail::write(k, layout_);
  }

 private:
  template <class Self, class... Cs>
  TESSERA_HOST_DEVICE static constexpr decltype(auto) access(Self& self, Cs const&... cs) {
    static_assert(sizeof...(Cs) >= 1, "Tensor::operator(): give a 1-D index or a coordinate");
    if constexpr (sizeof...(Cs) > 1) {
      return access(self, make_tuple(cs...));
    } else if constexpr ((has_underscore_v<Cs> || ...)) {
      auto so = slice_and_offset(cs..., self.layout_);
      return make_tensor(self.data() + get<1>(so), get<0>(so));
    } else {
      return self.data()[self.layout_(cs...)];
    }
  }
};

// ---- construction ----------------------------------------------------------------------------

// make_tensor(it, L): the view of iterator it through layout L. make_tensor(it, shape[, stride]):
// the same with make_layout(shape[, stride]). make_tensor(make_gmem_ptr(p), make_shape(4, 8))
// prints `gmem_ptr[32b](0x...) o (4,8):(_1,4)`.
template <class Iterator, class S, class D>
TESSERA_HOST_DEVICE constexpr auto make_tensor(Iterator const& it, Layout<S, D> const& layout) {
  static_assert(!is_layout_v<Iterator> && !IntTuple<Iterator>,
                "make_tensor(it, layout): the first argument must be an iterator (a pointer, "
                "make_gmem_ptr(p), a CountingIterator); for an owning tensor write make_tensor<T>(layout)");
  return Tensor<ViewEngine<Iterator>, Layout<S, D>>(ViewEngine<Iterator>(it), layout);
}
// make_tensor(p, Sw o offset o L): a tensor over a swizzled layout, for p a tagged pointer
// (make_smem_ptr(...)) to memory aligned to the swizzle's span (shared-memory tiles). The swizzle moves into the
// iterator (a SwizzledPtr swizzling byte offsets) and the tensor's layout is L, so slicing,
// dividing and partitioning work as for any tensor; element c is p[Sw(offset + L(c))].
// make_tensor(make_smem_ptr(p), composition(Sw<3,3,3>{}, (_8,_64):(_64,_1))) for half_t p prints
// `smem_ptr[16b]Sw<3,4,3>(0x...+0) o (_8,_64):(_64,_1)`.
template <class Iterator, int B, int M, int Sh, class Offset, class S, class D>
TESSERA_HOST_DEVICE constexpr auto make_tensor(Iterator const& it,
                                               ComposedLayout<Swizzle<B, M, Sh>, Offset, Layout<S, D>> const& c) {
  static_assert(is_tagged_ptr<Iterator>::value,
                "make_tensor(it, swizzled layout): the iterator must be a tagged pointer (make_smem_ptr(p)) "
                "to the aligned memory the swizzle applies to");
  static_assert(Sh >= 0, "make_tensor(it, swizzled layout): swizzles with a negative shift are not supported here");
  using T = typename Iterator::value_type;
  using Sw = decltype(detail::byte_swizzle<T>(Swizzle<B, M, Sh>{}));
  auto* p = raw_pointer(it);
  using P = std::remove_pointer_t<decltype(p)>;
  return make_tensor(
      SwizzledPtr<P, typename Iterator::memory_tag, Sw>(p, std::int32_t(c.offset()) * std::int32_t(sizeof(T))),
      c.inner());
}
template <class Iterator, IntTuple Shape>
TESSERA_HOST_DEVICE constexpr auto make_tensor(Iterator const& it, Shape const& shape) {
  return make_tensor(it, make_layout(shape));
}
template <class Iterator, IntTuple Shape, IntTuple Stride>
TESSERA_HOST_DEVICE constexpr auto make_tensor(Iterator const& it, Shape const& shape, Stride const& stride) {
  return make_tensor(it, make_layout(shape, stride));
}

// make_tensor<T>(L): an owning tensor of cosize(L) elements of T (registers in device code).
// Pre: L is static. make_tensor<float>(make_layout(make_shape(_4{}, _8{}))) holds 32 floats.
template <class T, class S, class D>
TESSERA_HOST_DEVICE constexpr auto make_tensor(Layout<S, D> const& layout) {
  static_assert(is_static_v<Layout<S, D>>,
                "make_tensor<T>(layout): an owning tensor needs a static layout (its size is the "
                "size of a register array); build the layout from static integers (_8{}, Int<N>{})");
  constexpr int N = int(decltype(cosize(layout))::value);
  return Tensor<ArrayEngine<T, N>, Layout<S, D>>(ArrayEngine<T, N>{}, layout);
}
template <class T, IntTuple Shape>
TESSERA_HOST_DEVICE constexpr auto make_tensor(Shape const& shape) {
  return make_tensor<T>(make_layout(shape));
}

namespace detail {
// Whether every leaf of a stride is a static integer (basis-vector strides are not: they have no
// order).
template <class D>
struct all_static_int_leaves : std::bool_constant<is_static_int_v<D>> {};
template <class... Ds>
struct all_static_int_leaves<tuple<Ds...>> : std::bool_constant<(all_static_int_leaves<Ds>::value && ...)> {};

// Replaces the shape of every static _0-stride leaf by _1 (a broadcast mode takes no storage).
template <class D, class S>
TESSERA_HOST_DEVICE constexpr auto broadcast_to_one(D const& d, S const& s) {
  return transform_leaf(d, s, [](auto const& di, auto const& si) {
    if constexpr (is_constant_v<0, std::remove_cvref_t<decltype(di)>>) {
      return _1{};
    } else {
      return si;
    }
  });
}
}  // namespace detail

// tensor_layout_like(L): the compact layout of L's shape whose modes are in the order of L's
// strides (smallest stride fastest), a static _0 stride kept _0 (a broadcast mode stays one and
// takes no storage); column-major when L's strides are not all static integers.
// Pre: none. Post: same shape as L; injective off its _0 modes; cosize == the product of the
// non-broadcast mode sizes.
// Example: tensor_layout_like((_2,_3,_4):(_12,_1,_3)) == (_2,_3,_4):(_12,_1,_3);
//          tensor_layout_like((_2,_2,_2,_2):(_0,_2,_4,_1)) == (_2,_2,_2,_2):(_0,_2,_4,_1).
template <class S, class D>
TESSERA_HOST_DEVICE constexpr auto tensor_layout_like(Layout<S, D> const& l) {
  if constexpr (detail::all_static_int_leaves<D>::value) {
    return make_layout(l.shape(),
                       make_ordered_layout(detail::broadcast_to_one(l.stride(), l.shape()), l.stride()).stride());
  } else {
    return make_layout(l.shape());
  }
}

// make_tensor_like<T>(x) / make_tensor_like(t): an owning tensor with the shape of x (a layout or
// a tensor) laid out by tensor_layout_like (in the order of x's strides, as CuTe's does); the
// element type is T, or t's value type. Pre: static shape.
// Example: make_tensor_like(t) for t over (_4,_2):(_2,_1) has layout (_4,_2):(_2,_1).
template <class T, class X>
TESSERA_HOST_DEVICE constexpr auto make_tensor_like(X const& x) {
  if constexpr (is_tensor_v<X>) {
    return make_tensor_like<T>(x.layout());
  } else {
    static_assert(is_layout_v<X>, "make_tensor_like<T>(x): x must be a layout or a tensor");
    static_assert(is_static_v<decltype(x.shape())>,
                  "make_tensor_like: the shape must be static to size a register array; tile with "
                  "static tile sizes (_8{}, Int<N>{})");
    return make_tensor<T>(tensor_layout_like(x));
  }
}
template <class E, class L>
TESSERA_HOST_DEVICE constexpr auto make_tensor_like(Tensor<E, L> const& t) {
  return make_tensor_like<typename Tensor<E, L>::value_type>(t.layout());
}

// fragment_layout_like(L): the layout of a register fragment for a partition L (V, rest...): mode 0
// (the values one instruction takes) compact column-major, a static _0 stride in it kept _0 (a
// broadcast value takes no register), the other modes compact in the order of L's strides
// (smallest stride fastest; column-major when L's strides are not all static integers, e.g.
// dynamic, or the basis vectors of a coordinate tensor), after mode 0.
// fragment_layout_like(((_2,_2,_2),_4,_2):((_1,_256,_8),_1024,_16)) == ((_2,_2,_2),_4,_2):((_1,_2,_4),_16,_8);
// fragment_layout_like((_2,_4):(_0,_1)) == (_2,_4):(_0,_1).
template <class S, class D>
TESSERA_HOST_DEVICE constexpr auto fragment_layout_like(Layout<S, D> const& l) {
  constexpr int R = rank_v<S>;
  static_assert(is_static_v<S>, "make_fragment_like: the shape must be static to size a register array");
  if constexpr (R > 1 && detail::all_static_int_leaves<D>::value) {
    using VShape = std::remove_cvref_t<decltype(get<0>(l.shape()))>;
    using VKept = decltype(detail::broadcast_to_one(get<0>(l.stride()), VShape{}));
    if constexpr (std::is_same_v<VKept, VShape>) {
      return tiled_product(make_layout(get<0>(l.shape())),
                           make_ordered_layout(take<1, R>(l.shape()), take<1, R>(l.stride())));
    } else {
      // Mode 0 broadcasts somewhere: its kept values first, the other modes after them.
      auto const v = make_layout(VShape{}, make_layout(VKept{}).stride());
      auto const rest = make_ordered_layout(take<1, R>(l.shape()), take<1, R>(l.stride()));
      auto const scaled = transform_leaf(rest.stride(), [](auto const& d) { return d * size(VKept{}); });
      return make_layout(prepend(rest.shape(), VShape{}), prepend(scaled, v.stride()));
    }
  } else {
    return make_layout(l.shape());
  }
}

// fragment_layout_like(sw o offset o L) = fragment_layout_like(L): registers are not swizzled.
template <class O, class F, class I>
TESSERA_HOST_DEVICE constexpr auto fragment_layout_like(ComposedLayout<O, F, I> const& c) {
  return fragment_layout_like(c.inner());
}

// make_fragment_like(t) / make_fragment_like<T>(x): an owning (register) tensor for a partition,
// laid out by fragment_layout_like; the element type is t's value type or T. Given a layout (no
// element type), the layout itself, as CuTe's make_fragment_like(layout):
// make_fragment_like((_8,_64):(_64,_1)) == (_8,(_64)):(_1,(_8)) (a rank-2 layout's modes after
// the first are grouped as one, as CuTe prints it).
template <class E, class L>
TESSERA_HOST_DEVICE constexpr auto make_fragment_like(Tensor<E, L> const& t) {
  return make_tensor<typename Tensor<E, L>::value_type>(fragment_layout_like(t.layout()));
}
template <class S, class D>
TESSERA_HOST_DEVICE constexpr auto make_fragment_like(Layout<S, D> const& l) {
  return fragment_layout_like(l);
}
template <class O, class F, class I>
TESSERA_HOST_DEVICE constexpr auto make_fragment_like(ComposedLayout<O, F, I> const& c) {
  return fragment_layout_like(c);
}
template <class T, class X>
TESSERA_HOST_DEVICE constexpr auto make_fragment_like(X const& x) {
  if constexpr (is_tensor_v<X>) {
    return make_tensor<T>(fragment_layout_like(x.layout()));
  } else {
    return make_tensor<T>(fragment_layout_like(x));
  }
}

// make_identity_tensor(shape): the tensor whose element at coordinate c is c itself, as an
// ArithmeticTuple with one entry per top-level mode: a CountingIterator starting at (0,...,0)
// through make_identity_layout(shape). Partitioned like a data tensor, it tells every thread the
// global coordinate of each element it holds (predication: elem_less(coord, shape)).
// make_identity_tensor((4,8))(1,2) == (1,2); it prints `counting_iter((_0,_0)) o (4,8):(_1@0,_1@1)`.
template <IntTuple Shape>
TESSERA_HOST_DEVICE constexpr auto make_identity_tensor(Shape const& shape) {
  auto zero = [&]<std::size_t... Is>(std::index_sequence<Is...>) {
    return make_arithmetic_tuple(((void)Is, _0{})...);
  }(std::make_index_sequence<rank_v<Shape>>{});
  return make_tensor(make_counting_iterator(zero), make_identity_layout(shape));
}

// ---- queries ---------------------------------------------------------------------------------

// size / rank / depth / shape / stride / layout / cosize of a tensor are those of its layout;
// with indices (size<I...>(t), rank<I...>(t), shape<I...>(t), ...) those of a (nested) mode.
template <class E, class L>
TESSERA_HOST_DEVICE constexpr auto size(Tensor<E, L> const& t) {
  return size(t.layout());
}
template <int I0, int... Is, class E, class L>
TESSERA_HOST_DEVICE constexpr auto size(Tensor<E, L> const& t) {
  return size<I0, Is...>(t.layout());
}
template <class E, class L>
TESSERA_HOST_DEVICE constexpr auto rank(Tensor<E, L> const& t) {
  return rank(t.layout());
}
template <int I0, int... Is, class E, class L>
TESSERA_HOST_DEVICE constexpr auto rank(Tensor<E, L> const& t) {
  return rank<I0, Is...>(t.layout());
}
template <class E, class L>
TESSERA_HOST_DEVICE constexpr auto depth(Tensor<E, L> const& t) {
  return depth(t.layout());
}
template <int I0, int... Is, class E, class L>
TESSERA_HOST_DEVICE constexpr auto depth(Tensor<E, L> const& t) {
  return depth<I0, Is...>(t.layout());
}
template <int... Is, class E, class L>
TESSERA_HOST_DEVICE constexpr decltype(auto) shape(Tensor<E, L> const& t) {
  return shape<Is...>(t.layout());
}
template <int... Is, class E, class L>
TESSERA_HOST_DEVICE constexpr decltype(auto) stride(Tensor<E, L> const& t) {
  return stride<Is...>(t.layout());
}
template <int... Is, class E, class L>
TESSERA_HOST_DEVICE constexpr auto layout(Tensor<E, L> const& t) {
  return layout<Is...>(t.layout());
}
template <class E, class L>
TESSERA_HOST_DEVICE constexpr auto cosize(Tensor<E, L> const& t) {
  return cosize(t.layout());
}
template <int I0, int... Is, class E, class L>
TESSERA_HOST_DEVICE constexpr auto cosize(Tensor<E, L> const& t) {
  return cosize<I0, Is...>(t.layout());
}

// ---- the layout algebra on tensors -----------------------------------------------------------
// Each returns a view with the same iterator and the transformed layout, so for every function f
// here: f(t)(c) is t's element at f(layout(t))(c). Divides are documented in docs/algebra.md;
// e.g. zipped_divide(t over (8,6):(1,8), (_4,_3)) is a view over ((_4,_3),(2,2)):((_1,8),(4,24)).

template <class E, class L, class X>
TESSERA_HOST_DEVICE constexpr auto composition(Tensor<E, L> const& t, X const& x) {
  return make_tensor(t.data(), composition(t.layout(), x));
}
template <class E, class L, class T>
TESSERA_HOST_DEVICE constexpr auto logical_divide(Tensor<E, L> const& t, T const& tiler) {
  return make_tensor(t.data(), logical_divide(t.layout(), tiler));
}
template <class E, class L, class T>
TESSERA_HOST_DEVICE constexpr auto zipped_divide(Tensor<E, L> const& t, T const& tiler) {
  return make_tensor(t.data(), zipped_divide(t.layout(), tiler));
}
template <class E, class L, class T>
TESSERA_HOST_DEVICE constexpr auto tiled_divide(Tensor<E, L> const& t, T const& tiler) {
  return make_tensor(t.data(), tiled_divide(t.layout(), tiler));
}
template <class E, class L, class T>
TESSERA_HOST_DEVICE constexpr auto flat_divide(Tensor<E, L> const& t, T const& tiler) {
  return make_tensor(t.data(), flat_divide(t.layout(), tiler));
}
// group_modes<B,E>(t): modes [B,E) become one mode. (4,8,3) -> group_modes<0,2> -> ((4,8),3).
template <int B, int End, class E, class L>
TESSERA_HOST_DEVICE constexpr auto group_modes(Tensor<E, L> const& t) {
  return make_tensor(t.data(), group<B, End>(t.layout()));
}
template <class E, class L>
TESSERA_HOST_DEVICE constexpr auto flatten(Tensor<E, L> const& t) {
  return make_tensor(t.data(), flatten(t.layout()));
}
template <class E, class L>
TESSERA_HOST_DEVICE constexpr auto coalesce(Tensor<E, L> const& t) {
  return make_tensor(t.data(), coalesce(t.layout()));
}
template <class E, class L, class P>
TESSERA_HOST_DEVICE constexpr auto coalesce(Tensor<E, L> const& t, P const& profile) {
  return make_tensor(t.data(), coalesce(t.layout(), profile));
}

// recast<U>(t): the same memory seen as elements of U (layout recast<bits(T), bits(U)>).
// Pre: t's iterator addresses memory; the layout allows the regrouping (see recast in
// docs/algebra.md). A float tensor over (_4,_8):(_8,_1) recast to double is over (_4,_4):(_4,_1).
template <class U, class E, class L>
TESSERA_HOST_DEVICE constexpr auto recast(Tensor<E, L> const& t) {
  using It = typename Tensor<E, L>::iterator;
  static_assert(PointerIterator<It>, "recast<U>(tensor): only tensors over memory (pointers) can be reinterpreted");
  using T = typename Tensor<E, L>::value_type;
  return make_tensor(rebind_pointer<U>(t.data()), recast<sizeof_bits_v<T>, sizeof_bits_v<U>>(t.layout()));
}

// domain_offset(c, t): t with its origin moved to coordinate c: domain_offset(c, t)(x) is
// t(c + x) for coordinates x with c + x inside t. The iterator is advanced by layout(c).
template <class Crd, class E, class L>
TESSERA_HOST_DEVICE constexpr auto domain_offset(Crd const& c, Tensor<E, L> const& t) {
  return make_tensor(t.data() + t.layout()(c), t.layout());
}

}  // namespace tessera
