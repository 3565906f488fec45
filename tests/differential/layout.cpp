// Core vs twin for the layout functions of `tessera eval` from core/layout.hpp (construction,
// sub-layouts, cosize) and core/print.hpp (print_layout, the core's layout_table).
#include "differential.hpp"

namespace tessera::test {
namespace {

const Register reg_layout("layout", [](Tally& t) {
  return run_unary<Family::General, 2, kUnary>([&](auto const& l) {
    constexpr int R = rank_v<plain_t<decltype(l.shape())>>;
    check(t, call("layout", l, R - 1), [&] { return str(layout<R - 1>(l)); });
    check(t, call("layout", l, 0, 0), [&] { return str(layout<0, 0>(l)); });
    check(t, call("layout", l), [&] { return str(layout<>(l)); });
    check_refused(t, call("layout", l, R));
    return true;
  });
});

const Register reg_shape("shape", [](Tally& t) {
  return run_unary<Family::General, 2, kUnary>([&](auto const& l) {
    constexpr int R = rank_v<plain_t<decltype(l.shape())>>;
    check(t, call("shape", l), [&] { return str(shape(l)); });
    check(t, call("shape", l, R - 1), [&] { return str(shape<R - 1>(l)); });
    check(t, call("shape", l, R - 1, 0), [&] { return str(shape<R - 1, 0>(l)); });
    return true;
  });
});

const Register reg_stride("stride", [](Tally& t) {
  return run_unary<Family::General, 2, kUnary>([&](auto const& l) {
    constexpr int R = rank_v<plain_t<decltype(l.shape())>>;
    check(t, call("stride", l), [&] { return str(stride(l)); });
    check(t, call("stride", l, R - 1), [&] { return str(stride<R - 1>(l)); });
    return true;
  });
});

const Register reg_make_layout("make_layout", [](Tally& t) {
  auto c = run_unary<Family::General, 2, kUnary>([&](auto const& l) {
    check(t, call("make_layout", l.shape()), [&] { return str(make_layout(l.shape())); });
    check(t, call("make_layout", l.shape(), l.stride()), [&] { return str(make_layout(l.shape(), l.stride())); });
    check(t, call("make_layout", l), [&] { return str(make_layout(l)); });  // one layout: a rank-1 layout
    return true;
  });
  return c + run_binary<Family::General, 2, Family::General, 2, kBinary>([&](auto const& a, auto const& b) {
           check(t, call("make_layout", a, b), [&] { return str(make_layout(a, b)); });
           using S = plain_t<decltype(a.shape())>;
           using D = plain_t<decltype(b.stride())>;
           if constexpr (decltype(congruent(std::declval<S>(), std::declval<D>()))::value) {
             check(t, call("make_layout", a.shape(), b.stride()),
                   [&] { return str(make_layout(a.shape(), b.stride())); });
           } else {
             check_refused(t, call("make_layout", a.shape(), b.stride()));  // Layout: shape and stride not congruent
           }
           return true;
         });
});

const Register reg_make_layout_left("make_layout_left", [](Tally& t) {
  return run_unary<Family::General, 2, kUnary>([&](auto const& l) {
    check(t, call("make_layout_left", l.shape()), [&] { return str(make_layout(l.shape(), LayoutLeft{})); });
    return true;
  });
});

const Register reg_make_layout_right("make_layout_right", [](Tally& t) {
  return run_unary<Family::General, 2, kUnary>([&](auto const& l) {
    check(t, call("make_layout_right", l.shape()), [&] { return str(make_layout(l.shape(), LayoutRight{})); });
    return true;
  });
});

const Register reg_cosize("cosize", [](Tally& t) {
  return run_unary<Family::General, 2, kUnary>([&](auto const& l) {
    check(t, call("cosize", l), [&] { return str(cosize(l)); });
    check(t, call("cosize", l.shape()), [&] { return str(cosize(make_layout(l.shape()))); });
    return true;
  });
});

// print_layout(L) is the core's layout_table(L) without its last newline; rank 2 only.
const Register reg_print_layout("print_layout", [](Tally& t) {
  return run_unary<Family::General, 2, kUnary>([&](auto const& l) {
    if constexpr (rank_v<plain_t<decltype(l.shape())>> == 2) {
      check(t, call("print_layout", l), [&] {
        std::string s = layout_table(l);
        s.pop_back();
        return s;
      });
    } else {
      check_refused(t, call("print_layout", l));
    }
    return true;
  });
});

}  // namespace
}  // namespace tessera::test
