// Core vs twin for the tuple and integer functions `tessera eval` gained for issue 9's second pass:
// the core's functions with a template index, here a run-time argument (insert<N>, remove<I>,
// replace<I>, repeat<N>, make_seq_tuple<N>), and sum, wrap, unwrap, reverse, repeat_like, find,
// tuple_cat, flatten_to_tuple, and_, or_, min, max, abs, signum (core/int_tuple.hpp,
// core/integer.hpp); dice and thread_coord (tensor/tiling.hpp); compact_col_major,
// compact_row_major, compact_major<LayoutLeft/LayoutRight>, slice and slice_and_offset
// (core/layout.hpp); make_shape, make_stride, make_coord and make_tile (tensor/tensor.hpp).
// Operands: the shapes, strides and layouts of the seeded random layouts (static, mixed, dynamic).
#include "differential.hpp"
#include "tessera/tensor/tensor.hpp"
#include "tessera/tensor/tiling.hpp"

namespace tessera::test {
namespace {

// The rank of L's shape, as the core sees it.
template <class L>
constexpr int rank_of_shape = rank_v<plain_t<decltype(std::declval<L>().shape())>>;

// ---- integers and whole tuples -----------------------------------------------------------------

const Register reg_sum("sum", [](Tally& t) {
  return run_unary<Family::General, 2, kUnary>([&](auto const& l) {
    check(t, call("sum", l.shape()), [&] { return str(sum(l.shape())); });
    check(t, call("sum", l.stride()), [&] { return str(sum(l.stride())); });
    check(t, call("sum", make_tuple()), [&] { return str(sum(make_tuple())); });
    return true;
  });
});

const Register reg_wrap("wrap", [](Tally& t) {
  return run_unary<Family::General, 2, kUnary>([&](auto const& l) {
    check(t, call("wrap", l.shape()), [&] { return str(wrap(l.shape())); });
    check(t, call("wrap", size(l)), [&] { return str(wrap(size(l))); });
    return true;
  });
});

const Register reg_unwrap("unwrap", [](Tally& t) {
  return run_unary<Family::General, 2, kUnary>([&](auto const& l) {
    check(t, call("unwrap", l.stride()), [&] { return str(unwrap(l.stride())); });
    auto nested = make_tuple(make_tuple(l.shape()));
    check(t, call("unwrap", nested), [&] { return str(unwrap(nested)); });
    return true;
  });
});

const Register reg_reverse("reverse", [](Tally& t) {
  return run_unary<Family::General, 2, kUnary>([&](auto const& l) {
    check(t, call("reverse", l.shape()), [&] { return str(reverse(l.shape())); });
    check(t, call("reverse", l.stride()), [&] { return str(reverse(l.stride())); });
    return true;
  });
});

const Register reg_make_seq_tuple("make_seq_tuple", [](Tally& t) {
  return run_unary<Family::General, 2, kUnary>([&](auto const& l) {
    constexpr int R = rank_of_shape<decltype(l)>;
    check(t, call("make_seq_tuple", R), [&] { return str(make_seq_tuple<R>()); });
    check(t, call("make_seq_tuple", rank(l)), [&] { return str(make_seq_tuple<R>()); });  // a static argument
    check(t, call("make_seq_tuple", 0), [&] { return str(make_seq_tuple<0>()); });
    check_refused(t, call("make_seq_tuple", -1));  // make_seq_tuple<-1>: no index sequence of that length
    return true;
  });
});

const Register reg_repeat("repeat", [](Tally& t) {
  return run_unary<Family::General, 2, kUnary>([&](auto const& l) {
    constexpr int R = rank_of_shape<decltype(l)>;
    check(t, call("repeat", R, size(l)), [&] { return str(repeat<R>(size(l))); });
    check(t, call("repeat", 2, l.shape()), [&] { return str(repeat<2>(l.shape())); });
    check(t, call("repeat", 0, l.stride()), [&] { return str(repeat<0>(l.stride())); });
    return true;
  });
});

const Register reg_repeat_like("repeat_like", [](Tally& t) {
  return run_unary<Family::General, 2, kUnary>([&](auto const& l) {
    check(t, call("repeat_like", l.shape(), size(l)), [&] { return str(repeat_like(l.shape(), size(l))); });
    check(t, call("repeat_like", l.stride(), _0{}), [&] { return str(repeat_like(l.stride(), _0{})); });
    check(t, call("repeat_like", l.stride(), l.shape()), [&] { return str(repeat_like(l.stride(), l.shape())); });
    return true;
  });
});

// ---- modes by a (template) index ---------------------------------------------------------------

const Register reg_insert("insert", [](Tally& t) {
  return run_unary<Family::General, 2, kUnary>([&](auto const& l) {
    using S = plain_t<decltype(l.shape())>;
    constexpr int R = rank_v<S>;
    if constexpr (is_tuple_v<S>) {
      check(t, call("insert", l.shape(), 0, size(l)), [&] { return str(insert<0>(l.shape(), size(l))); });
      check(t, call("insert", l.shape(), R, l.stride()), [&] { return str(insert<R>(l.shape(), l.stride())); });
      check(t, call("insert", l.stride(), R / 2, _1{}), [&] { return str(insert<R / 2>(l.stride(), _1{})); });
    } else {
      check_refused(t, call("insert", l.shape(), 0, size(l)));  // an integer t: wrap it first
    }
    check_refused(t, call("insert", wrap(l.shape()), R + 1, _1{}));  // past the end
    return true;
  });
});

const Register reg_remove("remove", [](Tally& t) {
  return run_unary<Family::General, 2, kUnary>([&](auto const& l) {
    constexpr int R = rank_of_shape<decltype(l)>;
    check(t, call("remove", l.shape(), R - 1), [&] { return str(remove<R - 1>(l.shape())); });
    check(t, call("remove", l.stride(), 0), [&] { return str(remove<0>(l.stride())); });
    check_refused(t, call("remove", l.shape(), R));
    return true;
  });
});

const Register reg_replace("replace", [](Tally& t) {
  return run_unary<Family::General, 2, kUnary>([&](auto const& l) {
    constexpr int R = rank_of_shape<decltype(l)>;
    check(t, call("replace", l.shape(), R - 1, size(l)), [&] { return str(replace<R - 1>(l.shape(), size(l))); });
    check(t, call("replace", l.stride(), 0, l.shape()), [&] { return str(replace<0>(l.stride(), l.shape())); });
    check_refused(t, call("replace", l.shape(), R, _1{}));
    return true;
  });
});

const Register reg_find("find", [](Tally& t) {
  return run_unary<Family::General, 2, kUnary>([&](auto const& l) {
    check(t, call("find", l.stride(), _1{}), [&] { return str(find(l.stride(), _1{})); });
    check(t, call("find", l.shape(), _4{}), [&] { return str(find(l.shape(), _4{})); });
    check(t, call("find", l.shape(), back(wrap(l.shape()))),
          [&] { return str(find(l.shape(), back(wrap(l.shape())))); });
    check(t, call("find", l.stride(), size(l)), [&] { return str(find(l.stride(), size(l))); });
    return true;
  });
});

const Register reg_tuple_cat("tuple_cat", [](Tally& t) {
  return run_unary<Family::General, 2, kUnary>([&](auto const& l) {
    using S = plain_t<decltype(l.shape())>;
    check(t, call("tuple_cat", wrap(l.shape()), wrap(l.stride())),
          [&] { return str(tuple_cat(wrap(l.shape()), wrap(l.stride()))); });
    check(t, call("tuple_cat", wrap(l.shape()), make_tuple(), make_tuple(size(l))),
          [&] { return str(tuple_cat(wrap(l.shape()), make_tuple(), make_tuple(size(l)))); });
    if constexpr (!is_tuple_v<S>) check_refused(t, call("tuple_cat", l.shape(), l.stride()));  // integers: wrap them
    return true;
  });
});

// min/max/abs/signum of the leaves at the ends of a layout's shape and stride.
const Register reg_min("min", [](Tally& t) {
  return run_unary<Family::General, 2, kUnary>([&](auto const& l) {
    check(t, call("min", size(l), _6{}), [&] { return str(min(size(l), _6{})); });
    check(t, call("min", front(l.stride()), back(l.shape())),
          [&] { return str(min(front(l.stride()), back(l.shape()))); });
    return true;
  });
});
const Register reg_max("max", [](Tally& t) {
  return run_unary<Family::General, 2, kUnary>([&](auto const& l) {
    check(t, call("max", size(l), _6{}), [&] { return str(max(size(l), _6{})); });
    check(t, call("max", front(l.stride()), back(l.shape())),
          [&] { return str(max(front(l.stride()), back(l.shape()))); });
    return true;
  });
});
const Register reg_abs("abs", [](Tally& t) {
  return run_unary<Family::General, 2, kUnary>([&](auto const& l) {
    check(t, call("abs", front(l.stride())), [&] { return str(abs(front(l.stride()))); });
    check(t, call("abs", back(l.stride())), [&] { return str(abs(back(l.stride()))); });
    return true;
  });
});
const Register reg_signum("signum", [](Tally& t) {
  return run_unary<Family::General, 2, kUnary>([&](auto const& l) {
    check(t, call("signum", front(l.stride())), [&] { return str(signum(front(l.stride()))); });
    check(t, call("signum", back(l.stride())), [&] { return str(signum(back(l.stride()))); });
    return true;
  });
});

const Register reg_flatten_to_tuple("flatten_to_tuple", [](Tally& t) {
  return run_unary<Family::General, 2, kUnary>([&](auto const& l) {
    check(t, call("flatten_to_tuple", l.shape()), [&] { return str(flatten_to_tuple(l.shape())); });
    check(t, call("flatten_to_tuple", size(l)), [&] { return str(flatten_to_tuple(size(l))); });
    return true;
  });
});

// and_/or_ of predicates' results: static ones (congruent) and ones static only for static
// operands (equal of a size).
template <bool And>
Coverage and_or(Tally& t) {
  const char* name = And ? "and_" : "or_";
  auto op = [](auto const& a, auto const& b) {
    if constexpr (And) {
      return and_(a, b);
    } else {
      return or_(a, b);
    }
  };
  return run_unary<Family::General, 2, kUnary>([&](auto const& l) {
    const std::string eq8 = call("equal", size(l), _8{}), cong = call("congruent", l.shape(), l.stride());
    const std::string eq1 = call("equal", front(l.stride()), _1{});
    check(t, call(name, eq8, cong), [&] { return str(op(equal(size(l), _8{}), congruent(l.shape(), l.stride()))); });
    check(t, call(name, eq1, eq8), [&] { return str(op(equal(front(l.stride()), _1{}), equal(size(l), _8{}))); });
    check(t, call(name, call("congruent", l.shape(), _1{}), eq1),
          [&] { return str(op(congruent(l.shape(), _1{}), equal(front(l.stride()), _1{}))); });
    check_refused(t, call(name, size(l), eq1));  // an integer is no boolean in eval
    return true;
  });
}
const Register reg_and("and_", [](Tally& t) { return and_or<true>(t); });
const Register reg_or("or_", [](Tally& t) { return and_or<false>(t); });

// dice(step, t) with the step (X,_1,...,_1) (drop mode 0) and (_1,...,_1,X) (drop the last).
const Register reg_dice("dice", [](Tally& t) {
  return run_unary<Family::General, 2, kUnary>([&](auto const& l) {
    using S = plain_t<decltype(l.shape())>;
    if constexpr (is_tuple_v<S>) {
      constexpr int R = rank_v<S>;
      auto first = replace<0>(repeat<R>(_1{}), X{});
      auto last = replace<R - 1>(repeat<R>(_1{}), X{});
      std::string tf = "(X", tl = "(";
      for (int i = 1; i < R; ++i) tf += ",_1";
      for (int i = 0; i + 1 < R; ++i) tl += "_1,";
      tf += ")";
      tl += "X)";
      check(t, call("dice", tf, l.shape()), [&] { return str(dice(first, l.shape())); });
      check(t, call("dice", tl, l.stride()), [&] { return str(dice(last, l.stride())); });
      check_refused(t, call("dice", tf, append(l.shape(), _1{})));  // one step entry too few
    } else {
      check(t, call("dice", std::string("(X)"), l.shape()), [&] { return str(dice(make_tuple(X{}), l.shape())); });
    }
    return true;
  });
});

// thread_coord(thr, i) on the layouts as they are (not bijections: the core computes anyway) and on
// their compact versions (the thread layouts it is meant for), at a middle and the last index.
const Register reg_thread_coord("thread_coord", [](Tally& t) {
  return run_unary<Family::General, 2, kUnary>([&](auto const& l) {
    auto f = make_layout_like(l);
    check(t, call("thread_coord", l, middle_index(l)), [&] { return str(thread_coord(l, middle_index(l))); });
    check(t, call("thread_coord", f, middle_index(f)), [&] { return str(thread_coord(f, middle_index(f))); });
    check(t, call("thread_coord", f, last_index(f)), [&] { return str(thread_coord(f, last_index(f))); });
    return true;
  });
});

// ---- compact strides and slices ----------------------------------------------------------------

const Register reg_compact_col_major("compact_col_major", [](Tally& t) {
  return run_unary<Family::General, 2, kUnary>([&](auto const& l) {
    check(t, call("compact_col_major", l.shape()), [&] { return str(compact_col_major(l.shape())); });
    check(t, call("compact_col_major", l.shape(), size(l)), [&] { return str(compact_col_major(l.shape(), size(l))); });
    return true;
  });
});
const Register reg_compact_row_major("compact_row_major", [](Tally& t) {
  return run_unary<Family::General, 2, kUnary>([&](auto const& l) {
    check(t, call("compact_row_major", l.shape()), [&] { return str(compact_row_major(l.shape())); });
    check(t, call("compact_row_major", l.shape(), _2{}), [&] { return str(compact_row_major(l.shape(), _2{})); });
    return true;
  });
});
const Register reg_compact_major("compact_major", [](Tally& t) {
  return run_unary<Family::General, 2, kUnary>([&](auto const& l) {
    using S = plain_t<decltype(l.shape())>;
    const std::string s = text(l.shape());
    check(t, "compact_major(" + s + ", LayoutLeft)", [&] { return str(compact_major<LayoutLeft>(l.shape())); });
    check(t, "compact_major(" + s + ", LayoutRight, " + text(size(l)) + ")",
          [&] { return str(compact_major<LayoutRight>(l.shape(), size(l))); });
    // A tuple start: one per top-level mode (the strides are congruent with the shape).
    if constexpr (is_tuple_v<S>) {
      check(t, "compact_major(" + s + ", LayoutRight, " + text(l.stride()) + ")",
            [&] { return str(compact_major<LayoutRight>(l.shape(), l.stride())); });
    }
    check_refused(t, "compact_major(" + s + ", " + text(size(l)) + ")");  // no Major tag
    return true;
  });
});

// The coordinate that keeps mode 0 of L and fixes the others at 0 (`_` for an integer shape).
template <class L>
auto keep_first(L const& l) {
  using S = plain_t<decltype(l.shape())>;
  if constexpr (is_tuple_v<S>) {
    return replace<0>(repeat<rank_v<S>>(_0{}), _);
  } else {
    return _;
  }
}
// The coordinate that keeps the last mode and fixes the others at their middle (1 where it fits).
template <class L>
auto keep_last(L const& l) {
  using S = plain_t<decltype(l.shape())>;
  if constexpr (is_tuple_v<S>) {
    return replace<rank_v<S> - 1>(repeat<rank_v<S>>(_1{}), _);
  } else {
    return 1;
  }
}

const Register reg_slice("slice", [](Tally& t) {
  return run_unary<Family::General, 2, kUnary>([&](auto const& l) {
    auto a = keep_first(l);
    auto b = keep_last(l);
    check(t, call("slice", a, l), [&] { return str(slice(a, l)); });
    check(t, call("slice", b, l), [&] { return str(slice(b, l)); });
    check(t, call("slice", a, l.shape()), [&] { return str(slice(a, l.shape())); });
    check(t, call("slice", b, l.stride()), [&] { return str(slice(b, l.stride())); });
    return true;
  });
});
const Register reg_slice_and_offset("slice_and_offset", [](Tally& t) {
  return run_unary<Family::General, 2, kUnary>([&](auto const& l) {
    auto a = keep_first(l);
    auto b = keep_last(l);
    check(t, call("slice_and_offset", a, l), [&] { return str(slice_and_offset(a, l)); });
    check(t, call("slice_and_offset", b, l), [&] { return str(slice_and_offset(b, l)); });
    return true;
  });
});

// ---- tensor/tensor.hpp's tuple makers ----------------------------------------------------------

const Register reg_make_shape("make_shape", [](Tally& t) {
  return run_unary<Family::General, 2, kUnary>([&](auto const& l) {
    check(t, call("make_shape", size(l), l.shape()), [&] { return str(make_shape(size(l), l.shape())); });
    check(t, "make_shape()", [&] { return str(make_shape()); });
    return true;
  });
});
const Register reg_make_stride("make_stride", [](Tally& t) {
  return run_unary<Family::General, 2, kUnary>([&](auto const& l) {
    check(t, call("make_stride", l.stride(), _1{}), [&] { return str(make_stride(l.stride(), _1{})); });
    return true;
  });
});
const Register reg_make_coord("make_coord", [](Tally& t) {
  return run_unary<Family::General, 2, kUnary>([&](auto const& l) {
    check(t, call("make_coord", middle_index(l), last_index(l)),
          [&] { return str(make_coord(middle_index(l), last_index(l))); });
    return true;
  });
});
// make_tile of layouts and sizes, printed and used as the tiler of a divide.
const Register reg_make_tile("make_tile", [](Tally& t) {
  return run_binary<Family::General, 2, Family::Injective, 1, 3300>([&](auto const& a, auto const& b) {
    using S = plain_t<decltype(a.shape())>;
    auto tile = make_tile(b, size(b));
    const std::string tile_text = "make_tile(" + text(b) + ", " + text(size(b)) + ")";
    check(t, tile_text, [&] { return str(tile); });
    check(t, call("make_tile", size(b)), [&] { return str(make_tile(size(b))); });
    if constexpr (tiler_fits<S, plain_t<decltype(tile)>>()) {
      check(t, "logical_divide(" + text(a) + ", " + tile_text + ")", [&] { return str(logical_divide(a, tile)); });
    }
    return true;
  });
});

}  // namespace
}  // namespace tessera::test
