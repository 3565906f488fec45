// Core vs twin on hand-picked operands that the random families never produce: negative strides,
// extents that are not powers of two, dynamic size-1 modes, a single element composed with a
// stride that divides nothing, a codomain size below 1, a product by a B of cosize < 1. Further
// comparisons for names compared on random operands in the other files of this test.
#include "differential.hpp"
#include "static_spelling.hpp"

namespace tessera::test {
namespace {

// Calls f(layout, is_static) for each edge layout.
template <class F>
Coverage for_edge_layouts(F&& f) {
  Coverage c;
  auto one = [&](auto const& l) { (is_static_v<plain_t<decltype(l)>> ? c.static_cases : c.dynamic_cases)++, f(l); };
  one(make_layout(make_tuple(_4{}, _2{}), make_tuple(C<-1>{}, _8{})));  // (_4,_2):(_-1,_8)
  one(make_layout(make_tuple(4, 2), make_tuple(-1, 8)));                // (4,2):(-1,8)
  one(make_layout(make_tuple(_2{}, _4{}), make_tuple(C<-4>{}, _1{})));  // (_2,_4):(_-4,_1)
  one(make_layout(_5{}, C<-1>{}));                                      // _5:_-1
  one(make_layout(make_tuple(_3{}, _6{}), make_tuple(_1{}, _3{})));     // (_3,_6):(_1,_3)
  one(make_layout(make_tuple(3, make_tuple(2, 5)), make_tuple(-2, make_tuple(1, -6))));
  one(make_layout(make_tuple(6, make_tuple(1, 3)), make_tuple(1, make_tuple(6, 6))));  // a dynamic 1
  one(make_layout(make_tuple(2, 3), make_tuple(-1, -2)));                              // cosize -4
  one(make_layout(make_tuple(_1{}, 4), make_tuple(C<7>{}, 3)));
  c.mixed_cases += 2;
  f(make_layout(make_tuple(_3{}, 5), make_tuple(C<-2>{}, 6)));
  f(make_layout(make_tuple(7, _1{}), make_tuple(_1{}, 9)));
  return c;
}

const Register reg_coalesce("coalesce", [](Tally& t) {
  return for_edge_layouts([&](auto const& l) { check(t, call("coalesce", l), [&] { return str(coalesce(l)); }); });
});
const Register reg_filter("filter", [](Tally& t) {
  return for_edge_layouts([&](auto const& l) { check(t, call("filter", l), [&] { return str(filter(l)); }); });
});
const Register reg_right_inverse("right_inverse", [](Tally& t) {
  return for_edge_layouts([&](auto const& l) {
    check_exact(
        t, call("right_inverse", l), [&] { return str(right_inverse(l)); }, exact_right_inverse_or_static(text(l)));
  });
});
const Register reg_nullspace("nullspace", [](Tally& t) {
  return for_edge_layouts([&](auto const& l) { check(t, call("nullspace", l), [&] { return str(nullspace(l)); }); });
});
const Register reg_cosize("cosize", [](Tally& t) {
  return for_edge_layouts([&](auto const& l) { check(t, call("cosize", l), [&] { return str(cosize(l)); }); });
});
const Register reg_print_layout("print_layout", [](Tally& t) {
  return for_edge_layouts([&](auto const& l) {
    if constexpr (rank_v<plain_t<decltype(l.shape())>> == 2) {
      check(t, call("print_layout", l), [&] {
        std::string s = layout_table(l);
        s.pop_back();
        return s;
      });
    } else {
      check_refused(t, call("print_layout", l));
    }
  });
});

// composition: one element (n == 1, static or not) needs no divisibility; a negative stride
// composes with one mode of A and is refused over several.
const Register reg_composition("composition", [](Tally& t) {
  Coverage c;
  auto a = make_layout(make_tuple(4, 8), make_tuple(1, 100));
  auto s = make_layout(make_tuple(_4{}, _8{}), make_tuple(_1{}, C<100>{}));
  auto one = [&](auto const& x, auto const& y) {
    check(t, call("composition", x, y), [&] { return str(composition(x, y)); });
  };
  one(a, make_layout(1, 3));
  one(a, make_layout(_1{}, 3));
  one(s, make_layout(1, _3{}));
  one(s, make_layout(_1{}, _3{}));
  one(make_layout(make_tuple(4, 8), make_tuple(1, 5)), make_layout(4, -4));
  one(make_layout(32, 1), make_layout(4, -4));
  one(make_layout(make_tuple(_4{}, _8{}), make_tuple(_1{}, _5{})), make_layout(4, -1));
  one(make_layout(make_tuple(6, 4), make_tuple(1, 6)), make_layout(make_tuple(3, 4), make_tuple(2, 6)));
  c.static_cases += 1;
  c.mixed_cases += 4;
  c.dynamic_cases += 3;
  return c;
});

// complement with a codomain size below 1: refused by both, never _0:_4. Static operands with a
// static M are refused at compile time (tests/compile_fail/complement_codomain_below_one.cpp), so
// the harness does not make that call; a dynamic M is refused by an exception. M = 1 is valid.
const Register reg_complement("complement", [](Tally& t) {
  Coverage c;
  auto s = make_layout(_4{}, _1{});
  auto d = make_layout(4, 1);
  check_refused(t, call("complement", s, _0{}));
  check_refused(t, call("complement", s, C<-4>{}));
  check_refused(t, call("complement", s, make_tuple(_8{}, C<-1>{})));
  check_refused(t, call("complement", make_layout(_1{}, _0{}), _0{}));
  check(t, call("complement", s, 0LL), [&] { return str(complement(s, 0LL)); });
  check(t, call("complement", d, 0LL), [&] { return str(complement(d, 0LL)); });
  check(t, call("complement", d, -4LL), [&] { return str(complement(d, -4LL)); });
  check(t, call("complement", s, _1{}), [&] { return str(complement(s, _1{})); });
  check(t, call("complement", d, 1LL), [&] { return str(complement(d, 1LL)); });
  c.static_cases += 5;
  c.mixed_cases += 1;
  c.dynamic_cases += 3;
  return c;
});

// logical_product with a B whose negative strides make cosize(B) < 1: refused by both (static
// operands at compile time: tests/compile_fail/logical_product_negative_stride.cpp); one whose
// cosize stays >= 1 gives the same layout on both sides.
const Register reg_logical_product("logical_product", [](Tally& t) {
  Coverage c;
  auto s = make_layout(_4{}, _1{});
  check_refused(t, call("logical_product", s, make_layout(_2{}, C<-1>{})));
  check_refused(t, call("logical_product", s, make_layout(make_tuple(_2{}, _2{}), make_tuple(_1{}, C<-2>{}))));
  auto one = [&](auto const& a, auto const& b) {
    check(t, call("logical_product", a, b), [&] { return str(logical_product(a, b)); });
  };
  one(s, make_layout(2, -1));
  one(make_layout(4, 1), make_layout(make_tuple(2, 2), make_tuple(1, -2)));
  one(s, make_layout(make_tuple(_2{}, _2{}), make_tuple(C<-1>{}, _2{})));
  one(make_layout(4, 1), make_layout(make_tuple(2, 2), make_tuple(-1, 2)));
  c.static_cases += 3;
  c.mixed_cases += 1;
  c.dynamic_cases += 2;
  return c;
});

}  // namespace
}  // namespace tessera::test
