// Core vs twin for the IntTuple functions of `tessera eval` (core/int_tuple.hpp): structure,
// arithmetic, comparisons, coordinates and sub-tuples. Operands are the shapes and strides of
// random layouts (and coordinates in them), pairs of unrelated shapes for the refusals, and a
// grid of small integers for the integer arithmetic.
#include "differential.hpp"

namespace tessera::test {
namespace {

// Seeds shared by the files of this test, so the random layout types are instantiated once.

// ---- structure ---------------------------------------------------------------------------------

const Register reg_rank("rank", [](Tally& t) {
  return run_unary<Family::General, 2, kUnary>([&](auto const& l) {
    check(t, call("rank", l.shape()), [&] { return str(rank(l.shape())); });
    check(t, call("rank", l), [&] { return str(rank(l)); });
    return true;
  });
});

const Register reg_depth("depth", [](Tally& t) {
  return run_unary<Family::General, 2, kUnary>([&](auto const& l) {
    check(t, call("depth", l.shape()), [&] { return str(depth(l.shape())); });
    check(t, call("depth", l), [&] { return str(depth(l)); });
    return true;
  });
});

const Register reg_size("size", [](Tally& t) {
  return run_unary<Family::General, 2, kUnary>([&](auto const& l) {
    check(t, call("size", l.shape()), [&] { return str(size(l.shape())); });
    check(t, call("size", l), [&] { return str(size(l)); });
    return true;
  });
});

const Register reg_product("product", [](Tally& t) {
  return run_unary<Family::General, 2, kUnary>([&](auto const& l) {
    check(t, call("product", l.shape()), [&] { return str(product(l.shape())); });
    check(t, call("product", l.stride()), [&] { return str(product(l.stride())); });  // _0 absorbs
    return true;
  });
});

const Register reg_product_each("product_each", [](Tally& t) {
  return run_unary<Family::General, 2, kUnary>([&](auto const& l) {
    check(t, call("product_each", l.shape()), [&] { return str(product_each(l.shape())); });
    check(t, call("product_each", l.stride()), [&] { return str(product_each(l.stride())); });
    return true;
  });
});

const Register reg_inner_product("inner_product", [](Tally& t) {
  auto c = run_unary<Family::General, 2, kUnary>([&](auto const& l) {
    check(t, call("inner_product", l.shape(), l.stride()), [&] { return str(inner_product(l.shape(), l.stride())); });
    return true;
  });
  return c + run_binary<Family::General, 2, Family::General, 2, kBinary>([&](auto const& a, auto const& b) {
           using A = plain_t<decltype(a.shape())>;
           using B = plain_t<decltype(b.stride())>;
           if constexpr (decltype(congruent(std::declval<A>(), std::declval<B>()))::value) {
             check(t, call("inner_product", a.shape(), b.stride()),
                   [&] { return str(inner_product(a.shape(), b.stride())); });
           } else {
             check_refused(t, call("inner_product", a.shape(), b.stride()));
           }
           return true;
         });
});

// ---- division ----------------------------------------------------------------------------------

// shape_div / ceil_div of two shapes, of a shape and a size, of a size and a shape.
template <bool Ceil>
Coverage division(Tally& t) {
  const char* name = Ceil ? "ceil_div" : "shape_div";
  auto op = [](auto const& x, auto const& y) {
    if constexpr (Ceil) {
      return str(ceil_div(x, y));
    } else {
      return str(shape_div(x, y));
    }
  };
  return run_binary<Family::General, 2, Family::General, 2, kBinary>([&](auto const& a, auto const& b) {
    using A = plain_t<decltype(a.shape())>;
    using B = plain_t<decltype(b.shape())>;
    if constexpr (same_rank_where_tuples<A, B>()) {
      check(t, call(name, a.shape(), b.shape()), [&] { return op(a.shape(), b.shape()); });
    } else {
      check_refused(t, call(name, a.shape(), b.shape()));
    }
    check(t, call(name, a.shape(), size(b)), [&] { return op(a.shape(), size(b)); });
    check(t, call(name, size(a), b.shape()), [&] { return op(size(a), b.shape()); });
    return true;
  });
}

// The integers -4..8 against each other, static and dynamic: signs, zero and non-dividing pairs.
template <bool Ceil>
Coverage integer_grid(Tally& t) {
  const char* name = Ceil ? "ceil_div" : "shape_div";
  Coverage c;
  for_seeds<0, 13>([&](auto i) {
    for_seeds<0, 13>([&](auto j) {
      constexpr long long x = static_cast<long long>(decltype(i)::value) - 4;
      constexpr long long y = static_cast<long long>(decltype(j)::value) - 4;
      constexpr bool ok = Ceil ? y > 0 : (y != 0 && (x % y == 0 || (x != 0 && y % x == 0)));
      const std::string sx = "_" + std::to_string(x), sy = "_" + std::to_string(y);
      if constexpr (ok) {
        check(t, call(name, sx, sy), [&] {
          if constexpr (Ceil) {
            return str(ceil_div(C<x>{}, C<y>{}));
          } else {
            return str(shape_div(C<x>{}, C<y>{}));
          }
        });
      } else {
        check_refused(t, call(name, sx, sy));
      }
      ++c.static_cases;
      check(t, call(name, x, y), [&] { return Ceil ? str(ceil_div(x, y)) : str(shape_div(x, y)); });
      ++c.dynamic_cases;
      check(t, call(name, sx, y), [&] { return Ceil ? str(ceil_div(C<x>{}, y)) : str(shape_div(C<x>{}, y)); });
      ++c.mixed_cases;
    });
  });
  return c;
}

const Register reg_shape_div("shape_div", [](Tally& t) { return division<false>(t) + integer_grid<false>(t); });
const Register reg_ceil_div("ceil_div", [](Tally& t) { return division<true>(t) + integer_grid<true>(t); });

// ---- profiles and equality -----------------------------------------------------------------------

// f(a, b) on two unrelated shapes, on a shape and its stride, and on a size and a shape.
template <class F>
Coverage profile_pairs(Tally& t, const char* name, F f) {
  auto c = run_unary<Family::General, 2, kUnary>([&](auto const& l) {
    check(t, call(name, l.shape(), l.stride()), [&] { return str(f(l.shape(), l.stride())); });
    check(t, call(name, size(l), l.shape()), [&] { return str(f(size(l), l.shape())); });
    return true;
  });
  return c + run_binary<Family::General, 2, Family::General, 2, kBinary>([&](auto const& a, auto const& b) {
           check(t, call(name, a.shape(), b.shape()), [&] { return str(f(a.shape(), b.shape())); });
           return true;
         });
}

const Register reg_congruent("congruent", [](Tally& t) {
  return profile_pairs(t, "congruent", [](auto const& x, auto const& y) { return congruent(x, y); });
});
const Register reg_weakly_congruent("weakly_congruent", [](Tally& t) {
  return profile_pairs(t, "weakly_congruent", [](auto const& x, auto const& y) { return weakly_congruent(x, y); });
});
const Register reg_compatible("compatible", [](Tally& t) {
  return profile_pairs(t, "compatible", [](auto const& x, auto const& y) { return compatible(x, y); });
});

const Register reg_equal("equal", [](Tally& t) {
  auto c = run_unary<Family::General, 2, kUnary>([&](auto const& l) {
    check(t, call("equal", l.shape(), l.shape()), [&] { return str(equal(l.shape(), l.shape())); });
    check(t, call("equal", l.shape(), l.stride()), [&] { return str(equal(l.shape(), l.stride())); });
    check(t, call("equal", l, l), [&] { return str(l == l); });
    auto compact = make_layout(l.shape());
    check(t, call("equal", l, compact), [&] { return str(l == compact); });
    return true;
  });
  return c + run_binary<Family::General, 2, Family::General, 2, kBinary>([&](auto const& a, auto const& b) {
           check(t, call("equal", a.shape(), b.shape()), [&] { return str(equal(a.shape(), b.shape())); });
           check(t, call("equal", a, b), [&] { return str(a == b); });
           return true;
         });
});

// ---- comparisons -------------------------------------------------------------------------------

const Register reg_elem_less("elem_less", [](Tally& t) {
  auto c = run_unary<Family::General, 2, kUnary>([&](auto const& l) {
    auto last = idx2crd(last_index(l), l.shape());   // static for a static shape
    auto mid = idx2crd(middle_index(l), l.shape());  // dynamic
    check(t, call("elem_less", last, l.shape()), [&] { return str(elem_less(last, l.shape())); });
    check(t, call("elem_less", mid, l.shape()), [&] { return str(elem_less(mid, l.shape())); });
    check(t, call("elem_less", l.stride(), l.shape()), [&] { return str(elem_less(l.stride(), l.shape())); });
    return true;
  });
  return c + run_binary<Family::General, 2, Family::General, 2, kBinary>([&](auto const& a, auto const& b) {
           using A = plain_t<decltype(a.shape())>;
           using B = plain_t<decltype(b.shape())>;
           if constexpr (elem_less_compiles<A, B>()) {
             check(t, call("elem_less", a.shape(), b.shape()), [&] { return str(elem_less(a.shape(), b.shape())); });
           } else {
             check_refused(t, call("elem_less", a.shape(), b.shape()));
           }
           return true;
         });
});

// lex_less / colex_less of a coordinate and the shape, of a shape and its stride, of two shapes.
template <bool Colex>
Coverage lexicographic(Tally& t) {
  const char* name = Colex ? "colex_less" : "lex_less";
  auto op = [](auto const& x, auto const& y) {
    if constexpr (Colex) {
      return str(colex_less(x, y));
    } else {
      return str(lex_less(x, y));
    }
  };
  auto c = run_unary<Family::General, 2, kUnary>([&](auto const& l) {
    auto last = idx2crd(last_index(l), l.shape());
    check(t, call(name, last, l.shape()), [&] { return op(last, l.shape()); });
    check(t, call(name, l.stride(), l.shape()), [&] { return op(l.stride(), l.shape()); });
    return true;
  });
  return c + run_binary<Family::General, 2, Family::General, 2, kBinary>([&](auto const& a, auto const& b) {
           using A = plain_t<decltype(a.shape())>;
           using B = plain_t<decltype(b.shape())>;
           if constexpr (leaf_count_v<A> == leaf_count_v<B>) {
             check(t, call(name, a.shape(), b.shape()), [&] { return op(a.shape(), b.shape()); });
           } else {
             check_refused(t, call(name, a.shape(), b.shape()));
           }
           return true;
         });
}

const Register reg_lex_less("lex_less", [](Tally& t) { return lexicographic<false>(t); });
const Register reg_colex_less("colex_less", [](Tally& t) { return lexicographic<true>(t); });

// ---- coordinates -------------------------------------------------------------------------------

const Register reg_crd2idx("crd2idx", [](Tally& t) {
  auto c = run_unary<Family::General, 2, kUnary>([&](auto const& l) {
    auto const& s = l.shape();
    auto const& d = l.stride();
    auto natural = idx2crd(last_index(l), s);
    auto rd = idx2crd(middle_index(l), product_each(s));  // one integer per mode
    check(t, call("crd2idx", last_index(l), s, d), [&] { return str(crd2idx(last_index(l), s, d)); });
    check(t, call("crd2idx", natural, s, d), [&] { return str(crd2idx(natural, s, d)); });
    check(t, call("crd2idx", rd, s, d), [&] { return str(crd2idx(rd, s, d)); });
    // crd2idx(c, shape): the compact column-major strides of shape.
    check(t, call("crd2idx", natural, s), [&] { return str(crd2idx(natural, s, compact_col_major(s))); });
    return true;
  });
  return c + run_binary<Family::General, 2, Family::General, 2, kBinary>([&](auto const& a, auto const& b) {
           using A = plain_t<decltype(a.shape())>;
           using B = plain_t<decltype(b.shape())>;
           if constexpr (coordinate_fits<A, B>()) {
             check(t, call("crd2idx", a.shape(), b.shape(), b.stride()),
                   [&] { return str(crd2idx(a.shape(), b.shape(), b.stride())); });
           } else {
             check_refused(t, call("crd2idx", a.shape(), b.shape(), b.stride()));
           }
           return true;
         });
});

const Register reg_idx2crd("idx2crd", [](Tally& t) {
  auto c = run_unary<Family::General, 2, kUnary>([&](auto const& l) {
    auto const& s = l.shape();
    auto rd = idx2crd(middle_index(l), product_each(s));
    check(t, call("idx2crd", last_index(l), s), [&] { return str(idx2crd(last_index(l), s)); });
    check(t, call("idx2crd", middle_index(l), s), [&] { return str(idx2crd(middle_index(l), s)); });
    check(t, call("idx2crd", rd, s), [&] { return str(idx2crd(rd, s)); });
    return true;
  });
  return c + run_binary<Family::General, 2, Family::General, 2, kBinary>([&](auto const& a, auto const& b) {
           using A = plain_t<decltype(a.shape())>;
           using B = plain_t<decltype(b.shape())>;
           if constexpr (coordinate_fits<A, B>()) {
             check(t, call("idx2crd", a.shape(), b.shape()), [&] { return str(idx2crd(a.shape(), b.shape())); });
           } else {
             check_refused(t, call("idx2crd", a.shape(), b.shape()));
           }
           return true;
         });
});

const Register reg_prefix_product("prefix_product", [](Tally& t) {
  return run_unary<Family::General, 2, kUnary>([&](auto const& l) {
    check(t, call("prefix_product", l.shape()), [&] { return str(prefix_product(l.shape())); });
    check(t, call("prefix_product", l.shape(), size(l)), [&] { return str(prefix_product(l.shape(), size(l))); });
    check(t, call("prefix_product", l.stride(), _2{}), [&] { return str(prefix_product(l.stride(), _2{})); });
    return true;
  });
});

// ---- sub-tuples (with layouts, whose eval forms act on shape and stride together) ---------------

const Register reg_get("get", [](Tally& t) {
  return run_unary<Family::General, 2, kUnary>([&](auto const& l) {
    using S = plain_t<decltype(l.shape())>;
    constexpr int R = rank_v<S>;
    check(t, call("get", l.shape(), R - 1), [&] { return str(get<R - 1>(l.shape())); });
    check(t, call("get", l.shape(), R - 1, 0), [&] { return str(get<R - 1, 0>(l.shape())); });
    check(t, call("get", l, 0), [&] { return str(layout<0>(l)); });  // get of a layout is layout<i>
    check_refused(t, call("get", l.shape(), R));                     // get<R>: out of range
    return true;
  });
});

const Register reg_select("select", [](Tally& t) {
  return run_unary<Family::General, 2, kUnary>([&](auto const& l) {
    constexpr int R = rank_v<plain_t<decltype(l.shape())>>;
    check(t, call("select", l.shape(), R - 1, 0), [&] { return str(select<R - 1, 0>(l.shape())); });
    check(t, call("select", l, R - 1), [&] { return str(select<R - 1>(l)); });
    check(t, call("select", l.shape()), [&] { return str(select<>(l.shape())); });
    check_refused(t, call("select", l.shape(), 0, R));
    return true;
  });
});

const Register reg_take("take", [](Tally& t) {
  return run_unary<Family::General, 2, kUnary>([&](auto const& l) {
    constexpr int R = rank_v<plain_t<decltype(l.shape())>>;
    check(t, call("take", l.shape(), 0, R), [&] { return str(take<0, R>(l.shape())); });
    check(t, call("take", l.shape(), 1, R), [&] { return str(take<1, R>(l.shape())); });
    check(t, call("take", l, R - 1, R), [&] { return str(take<R - 1, R>(l)); });
    check_refused(t, call("take", l.shape(), 0, R + 1));
    return true;
  });
});

const Register reg_group("group", [](Tally& t) {
  return run_unary<Family::General, 2, kUnary>([&](auto const& l) {
    constexpr int R = rank_v<plain_t<decltype(l.shape())>>;
    check(t, call("group", l.shape(), 0, R), [&] { return str(group<0, R>(l.shape())); });
    check(t, call("group", l.shape(), R - 1, R), [&] { return str(group<R - 1, R>(l.shape())); });
    check(t, call("group", l, 0, R - 1), [&] { return str(group<0, R - 1>(l)); });
    check_refused(t, call("group", l.shape(), 1, 0));
    return true;
  });
});

const Register reg_flatten("flatten", [](Tally& t) {
  return run_unary<Family::General, 2, kUnary>([&](auto const& l) {
    check(t, call("flatten", l.shape()), [&] { return str(flatten(l.shape())); });
    check(t, call("flatten", l), [&] { return str(flatten(l)); });
    return true;
  });
});

const Register reg_append("append", [](Tally& t) {
  return run_binary<Family::General, 2, Family::General, 2, kBinary>([&](auto const& a, auto const& b) {
    constexpr int R = rank_v<plain_t<decltype(a.shape())>>;
    check(t, call("append", a.shape(), b.shape()), [&] { return str(append(a.shape(), b.shape())); });
    check(t, call("append", a, b), [&] { return str(append(a, b)); });
    // append<N>: pads to rank N; with N <= rank an integer still becomes a tuple.
    check(t, call("append", a.shape(), _1{}, R + 1), [&] { return str(append<R + 1>(a.shape(), _1{})); });
    check(t, call("append", a.shape(), size(b), R), [&] { return str(append<R>(a.shape(), size(b))); });
    check(t, call("append", a, b, R + 1), [&] { return str(append<R + 1>(a, b)); });
    check(t, call("append", a, b, 1), [&] { return str(append<1>(a, b)); });
    return true;
  });
});

// prepend(x, y); the twin's prepend(x, y, N) has no core counterpart (the core has no prepend<N>).
const Register reg_prepend("prepend", [](Tally& t) {
  return run_binary<Family::General, 2, Family::General, 2, kBinary>([&](auto const& a, auto const& b) {
    check(t, call("prepend", a.shape(), b.shape()), [&] { return str(prepend(a.shape(), b.shape())); });
    check(t, call("prepend", a, b), [&] { return str(prepend(a, b)); });
    return true;
  });
});

}  // namespace
}  // namespace tessera::test
