// Core vs twin for make_ordered_layout, tile_to_shape and make_layout_tv (core/product.hpp; the
// products themselves are in product.cpp). tile_to_shape is also compared on the composed layout
// Sw o offset o A (core/swizzle.hpp: it acts on A).
#include "differential.hpp"

namespace tessera::test {
namespace {

// The order of make_ordered_layout and tile_to_shape is static in the core (a type): a dynamic
// one does not compile, and the twin must refuse it.
template <class F>
void with_order(Tally& t, std::string const& expr, F&& core_with_order, auto const& order) {
  if constexpr (is_static_v<plain_t<decltype(order)>>) {
    check(t, expr, [&] { return core_with_order(order); });
  } else {
    check_refused(t, expr);
  }
}

const Register reg_make_ordered_layout("make_ordered_layout", [](Tally& t) {
  return run_unary<Family::General, 2, kUnary>([&](auto const& l) {
    auto const& s = l.shape();
    auto reversed = reverse(make_seq_tuple<leaf_count_v<plain_t<decltype(s)>>>());  // static, flat
    check(t, call("make_ordered_layout", s, reversed), [&] { return str(make_ordered_layout(s, reversed)); });
    auto by_stride = flatten(l.stride());  // static for static strides (ties by position), else refused
    with_order(
        t, call("make_ordered_layout", s, by_stride), [&](auto const& o) { return str(make_ordered_layout(s, o)); },
        by_stride);
    return true;
  });
});

// True when some mode of the target sizes TS is not a multiple of the block size BS there and
// both are static: tile_to_shape does not compile then (its check is a static_assert).
template <class B, class T>
constexpr bool static_mismatch_one() {
  if constexpr (is_static_int_v<B> && is_static_int_v<T>) {
    return T::value % B::value != 0;
  } else {
    return false;
  }
}
template <class BS, class TS>
constexpr bool static_mismatch() {
  return []<std::size_t... Is>(std::index_sequence<Is...>) {
    return (static_mismatch_one<tuple_element_t<Is, BS>, tuple_element_t<Is, TS>>() || ... || false);
  }(std::make_index_sequence<tuple_size_v<BS>>{});
}

const Register reg_tile_to_shape("tile_to_shape", [](Tally& t) {
  return run_binary<Family::Injective, 1, Family::Injective, 1, kProduct>([&](auto const& a, auto const& b) {
    // A target of rank(a) + rank(b) modes, each a multiple of the block's: (2*size(a_i)..., b...).
    constexpr int RA = rank_v<plain_t<decltype(a.shape())>>;
    auto twice = transform(product_each(wrap(a.shape())), [](auto const& x) { return x * _2{}; });
    auto target = tuple_cat(twice, wrap(b.shape()));
    check(t, call("tile_to_shape", a, target), [&] { return str(tile_to_shape(a, target)); });
    auto c = swizzled(Swizzle<3, 0, 3>{}, a);
    check(t, call("tile_to_shape", c, target), [&] { return str(tile_to_shape(c, target)); });
    auto order = reverse(make_seq_tuple<rank_v<plain_t<decltype(target)>>>());
    check(t, call("tile_to_shape", a, target, order), [&] { return str(tile_to_shape(a, target, order)); });
    auto dynamic_order = transform(order, [](auto i) { return int(i); });
    check_refused(t, call("tile_to_shape", a, target, dynamic_order));
    // The block's modes must divide the target's; with static values a mismatch does not compile.
    auto target_b = product_each(wrap(b.shape()));
    using BS = plain_t<decltype(product_each(wrap(a.shape())))>;
    using TS = plain_t<decltype(target_b)>;
    if constexpr (tuple_size_v<TS> < RA) {
      check_refused(t, call("tile_to_shape", a, target_b));  // the block has more modes than the target
    } else if constexpr (static_mismatch<BS, TS>()) {
      check_refused(t, call("tile_to_shape", a, target_b));
    } else {
      check(t, call("tile_to_shape", a, target_b), [&] { return str(tile_to_shape(a, target_b)); });
    }
    return true;
  });
});

const Register reg_make_layout_tv("make_layout_tv", [](Tally& t) {
  return run_binary<Family::Injective, 1, Family::Injective, 1, kProduct>([&](auto const& thr, auto const& val) {
    // Where the core's TV layout is not a bijection (its right_inverse stops at a dynamic
    // stride), the twin's must be one; the twin refuses when raked_product(thr, val) is not a
    // bijection onto [0, size), which the core does not check (check_exact).
    check_exact(
        t, call("make_layout_tv", thr, val), [&] { return str(make_layout_tv(thr, val)); },
        exact_tv(text(thr), text(val)));
    return true;
  });
});

}  // namespace
}  // namespace tessera::test
