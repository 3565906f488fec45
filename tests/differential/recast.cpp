// Core vs twin for upcast, downcast, recast, max_common_vector and max_common_layout
// (core/recast.hpp; max_common_layout with a swizzled operand: core/swizzle.hpp).
#include "differential.hpp"

namespace tessera::test {
namespace {

const Register reg_upcast("upcast", [](Tally& t) {
  return run_unary<Family::General, 2, kUnary>([&](auto const& l) {
    check(t, call("upcast", l, 1), [&] { return str(upcast<1>(l)); });
    check(t, call("upcast", l, 2), [&] { return str(upcast<2>(l)); });
    check(t, call("upcast", l, 4), [&] { return str(upcast<4>(l)); });
    return true;
  });
});

const Register reg_downcast("downcast", [](Tally& t) {
  return run_unary<Family::General, 2, kUnary>([&](auto const& l) {
    check(t, call("downcast", l, 2), [&] { return str(downcast<2>(l)); });
    check(t, call("downcast", l, 4), [&] { return str(downcast<4>(l)); });
    return true;
  });
});

const Register reg_recast("recast", [](Tally& t) {
  return run_unary<Family::General, 2, kUnary>([&](auto const& l) {
    check(t, call("recast", l, 16, 32), [&] { return str(recast<16, 32>(l)); });
    check(t, call("recast", l, 32, 8), [&] { return str(recast<32, 8>(l)); });
    check(t, call("recast", l, 16, 16), [&] { return str(recast<16, 16>(l)); });  // upcast<1>
    return true;
  });
});

const Register reg_max_common_vector("max_common_vector", [](Tally& t) {
  return run_binary<Family::Injective, 1, Family::Injective, 1, kProduct>([&](auto const& a, auto const& b) {
    using A = plain_t<decltype(a)>;
    using Inv = plain_t<decltype(right_inverse(b))>;
    if constexpr (!is_static_v<A> || !is_static_v<plain_t<decltype(b)>> || composition_compiles<A, Inv>()) {
      check(t, call("max_common_vector", a, b), [&] { return str(max_common_vector(a, b)); });
    } else {
      check_refused(t, call("max_common_vector", a, b));
    }
    return true;
  });
});

const Register reg_max_common_layout("max_common_layout", [](Tally& t) {
  return run_binary<Family::Injective, 1, Family::Injective, 1, kProduct>([&](auto const& a, auto const& b) {
    using A = plain_t<decltype(a)>;
    using Inv = plain_t<decltype(right_inverse(b))>;
    // With a swizzled operand (either order): the inner layouts' answer, cut to 2^M and to the
    // offset's alignment (static offsets _0 and _2, or a dynamic one).
    auto ca = swizzled(Swizzle<2, 1, 3>{}, a);
    auto cb = swizzled(Swizzle<1, 2, 3>{}, a);
    auto c2 = make_composed_layout(Swizzle<1, 3, 3>{}, _2{}, a);
    if constexpr (composition_compiles<A, Inv>()) {
      check(t, call("max_common_layout", a, b), [&] { return str(max_common_layout(a, b)); });
      check(t, call("max_common_layout", ca, b), [&] { return str(max_common_layout(ca, b)); });
      check(t, call("max_common_layout", b, cb), [&] { return str(max_common_layout(b, cb)); });
      check(t, call("max_common_layout", c2, b), [&] { return str(max_common_layout(c2, b)); });
    } else {
      check_refused(t, call("max_common_layout", a, b));
      check_refused(t, call("max_common_layout", ca, b));
    }
    check_refused(t, call("max_common_layout", ca, cb));  // two composed layouts: not defined
    return true;
  });
});

}  // namespace
}  // namespace tessera::test
