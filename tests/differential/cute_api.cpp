// Core vs twin for CuTe's integer, tuple and layout functions added for issue 9 ("Missing API"):
// round_up, elem_scale, filter_zeros, gcd, lcm, bit_width, log_2, crd2crd, idx2crd(i, shape,
// stride), elem_leq/gtr/geq, lex_ and colex_leq/gtr/geq, unflatten, zip, front, back,
// replace_front/back (core/int_tuple.hpp) and compact_order, make_layout_like, coshape, coprofile,
// get_hier/flat/1d_coord, domain_offset, with_shape (core/layout.hpp, composition.hpp),
// tile_unzip, evenly_divides (core/divide.hpp), max_alignment (core/recast.hpp); zip and tile_unzip
// of composed layouts too (core/swizzle.hpp). Operands: the
// shapes, strides and layouts of the seeded random layouts, their compact versions, and pairs of
// unrelated shapes for what the core refuses at compile time.
#include "differential.hpp"

namespace tessera::test {
namespace {

// ---- what the core refuses at compile time -------------------------------------------------------

// round_up(a, b) compiles: tuple/tuple with rank(a) >= rank(b) (b's missing modes are _1) and every
// pair compiling, or integer/integer.
template <class A, class B>
constexpr bool round_up_compiles() {
  if constexpr (is_tuple_v<A> && is_tuple_v<B>) {
    if constexpr (tuple_size_v<A> < tuple_size_v<B>) {
      return false;
    } else {
      return [&]<std::size_t... Is>(std::index_sequence<Is...>) {
        return ([] {
          if constexpr (Is < tuple_size_v<B>) {
            return round_up_compiles<tuple_element_t<Is, A>, tuple_element_t<Is, B>>();
          } else {
            return !is_tuple_v<tuple_element_t<Is, A>>;
          }
        }() && ... &&
                true);
      }(std::make_index_sequence<tuple_size_v<A>>{});
    }
  } else {
    return !is_tuple_v<A> && !is_tuple_v<B>;
  }
}

template <class A, class B>
constexpr bool weakly_congruent_v = decltype(weakly_congruent(std::declval<A>(), std::declval<B>()))::value;

// zip(t) compiles: t an integer, empty, a tuple whose first mode is no tuple, or a tuple of tuples
// of one rank.
template <class T>
constexpr bool zip_compiles() {
  if constexpr (!is_tuple_v<T>) {
    return true;
  } else if constexpr (tuple_size_v<T> == 0) {
    return true;
  } else if constexpr (!is_tuple_v<tuple_element_t<0, T>>) {
    return true;
  } else {
    return [&]<std::size_t... Is>(std::index_sequence<Is...>) {
      return ((is_tuple_v<tuple_element_t<Is, T>> &&
               rank_v<tuple_element_t<Is, T>> == rank_v<tuple_element_t<0, T>>)&&... &&
              true);
    }(std::make_index_sequence<tuple_size_v<T>>{});
  }
}

// The compact layout of L's non-zero-stride modes: every offset in [0, size) has one coordinate.
template <class L>
auto compact_of(L const& l) {
  return filter_zeros(make_layout_like(l));
}

// ---- integers ------------------------------------------------------------------------------------

const Register reg_round_up("round_up", [](Tally& t) {
  auto c = run_unary<Family::General, 2, kUnary>([&](auto const& l) {
    check(t, call("round_up", l.shape(), l.shape()), [&] { return str(round_up(l.shape(), l.shape())); });
    check(t, call("round_up", size(l), _3{}), [&] { return str(round_up(size(l), _3{})); });
    check(t, call("round_up", middle_index(l), size(l)), [&] { return str(round_up(middle_index(l), size(l))); });
    return true;
  });
  return c + run_binary<Family::General, 2, Family::General, 2, kBinary>([&](auto const& a, auto const& b) {
           using A = plain_t<decltype(a.shape())>;
           using B = plain_t<decltype(b.shape())>;
           if constexpr (round_up_compiles<A, B>()) {
             check(t, call("round_up", a.shape(), b.shape()), [&] { return str(round_up(a.shape(), b.shape())); });
           } else {
             check_refused(t, call("round_up", a.shape(), b.shape()));
           }
           return true;
         });
});

const Register reg_elem_scale("elem_scale", [](Tally& t) {
  auto c = run_unary<Family::General, 2, kUnary>([&](auto const& l) {
    check(t, call("elem_scale", l.stride(), l.shape()), [&] { return str(elem_scale(l.stride(), l.shape())); });
    check(t, call("elem_scale", size(l), l.shape()), [&] { return str(elem_scale(size(l), l.shape())); });
    return true;
  });
  return c + run_binary<Family::General, 2, Family::General, 2, kBinary>([&](auto const& a, auto const& b) {
           using A = plain_t<decltype(a.shape())>;
           using B = plain_t<decltype(b.shape())>;
           if constexpr (weakly_congruent_v<A, B>) {
             check(t, call("elem_scale", a.shape(), b.shape()), [&] { return str(elem_scale(a.shape(), b.shape())); });
           } else {
             check_refused(t, call("elem_scale", a.shape(), b.shape()));
           }
           return true;
         });
});

const Register reg_filter_zeros("filter_zeros", [](Tally& t) {
  auto c = run_unary<Family::General, 2, kUnary>([&](auto const& l) {
    check(t, call("filter_zeros", l.stride(), l.shape()), [&] { return str(filter_zeros(l.stride(), l.shape())); });
    if constexpr (is_tuple_v<plain_t<decltype(l.stride())>>) {  // an integer alone is a layout for eval
      check(t, call("filter_zeros", l.stride()), [&] { return str(filter_zeros(l.stride())); });
    }
    check(t, call("filter_zeros", l), [&] { return str(filter_zeros(l)); });
    check(t, call("filter_zeros", l, l.stride()), [&] { return str(filter_zeros(l, l.stride())); });
    return true;
  });
  return c + run_binary<Family::General, 2, Family::General, 2, kBinary>([&](auto const& a, auto const& b) {
           using A = plain_t<decltype(a.stride())>;
           using B = plain_t<decltype(b.shape())>;
           if constexpr (weakly_congruent_v<A, B>) {
             check(t, call("filter_zeros", a.stride(), b.shape()),
                   [&] { return str(filter_zeros(a.stride(), b.shape())); });
           } else {
             check_refused(t, call("filter_zeros", a.stride(), b.shape()));
           }
           return true;
         });
});

const Register reg_gcd("gcd", [](Tally& t) {
  return run_unary<Family::General, 2, kUnary>([&](auto const& l) {
    check(t, call("gcd", l.shape()), [&] { return str(gcd(l.shape())); });
    check(t, call("gcd", size(l), l.stride()), [&] { return str(gcd(size(l), l.stride())); });
    check(t, call("gcd", l.stride(), l.shape(), _6{}), [&] { return str(gcd(l.stride(), l.shape(), _6{})); });
    check(t, call("gcd", cosize(l), size(l)), [&] { return str(gcd(cosize(l), size(l))); });
    return true;
  });
});

const Register reg_lcm("lcm", [](Tally& t) {
  return run_unary<Family::General, 2, kUnary>([&](auto const& l) {
    check(t, call("lcm", size(l), _6{}), [&] { return str(lcm(size(l), _6{})); });
    check(t, call("lcm", cosize(l), size(l)), [&] { return str(lcm(cosize(l), size(l))); });
    return true;
  });
});

const Register reg_bit_width("bit_width", [](Tally& t) {
  return run_unary<Family::General, 2, kUnary>([&](auto const& l) {
    check(t, call("bit_width", size(l)), [&] { return str(bit_width(size(l))); });
    check(t, call("bit_width", cosize(l) - _1{}), [&] { return str(bit_width(cosize(l) - _1{})); });
    return true;
  });
});

const Register reg_log_2("log_2", [](Tally& t) {
  return run_unary<Family::General, 2, kUnary>([&](auto const& l) {
    check(t, call("log_2", size(l)), [&] { return str(log_2(size(l))); });
    check(t, call("log_2", middle_index(l)), [&] { return str(log_2(middle_index(l))); });  // 0: refused
    return true;
  });
});

// ---- coordinates ---------------------------------------------------------------------------------

const Register reg_crd2crd("crd2crd", [](Tally& t) {
  return run_unary<Family::General, 2, kUnary>([&](auto const& l) {
    auto const& s = l.shape();
    auto c = idx2crd(middle_index(l), s);
    auto last = idx2crd(last_index(l), s);
    check(t, call("crd2crd", c, s, size(l)), [&] { return str(crd2crd(c, s, size(l))); });
    check(t, call("crd2crd", last, s, product_each(s)), [&] { return str(crd2crd(last, s, product_each(s))); });
    check(t, call("crd2crd", middle_index(l), size(l), s), [&] { return str(crd2crd(middle_index(l), size(l), s)); });
    check(t, call("crd2crd", c, s, s), [&] { return str(crd2crd(c, s, s)); });
    return true;
  });
});

// idx2crd(i, shape, stride) on compact layouts (the 2-argument form: int_tuple.cpp).
const Register reg_idx2crd_stride("idx2crd", [](Tally& t) {
  return run_unary<Family::General, 2, kUnary>([&](auto const& l) {
    auto f = compact_of(l);
    auto off = f(middle_index(f));
    check(t, call("idx2crd", off, f.shape(), f.stride()), [&] { return str(idx2crd(off, f.shape(), f.stride())); });
    check(t, call("idx2crd", last_index(f), f.shape(), _1{}),
          [&] { return str(idx2crd(last_index(f), f.shape(), _1{})); });
    return true;
  });
});

// ---- comparisons ---------------------------------------------------------------------------------

enum class Cmp { elem_leq, elem_gtr, elem_geq, lex_leq, lex_gtr, lex_geq, colex_leq, colex_gtr, colex_geq };

template <Cmp K>
constexpr const char* cmp_name() {
  constexpr const char* names[] = {"elem_leq", "elem_gtr",  "elem_geq",  "lex_leq",  "lex_gtr",
                                   "lex_geq",  "colex_leq", "colex_gtr", "colex_geq"};
  return names[int(K)];
}

template <Cmp K, class A, class B>
std::string compare(A const& a, B const& b) {
  if constexpr (K == Cmp::elem_leq) return str(elem_leq(a, b));
  else if constexpr (K == Cmp::elem_gtr) return str(elem_gtr(a, b));
  else if constexpr (K == Cmp::elem_geq) return str(elem_geq(a, b));
  else if constexpr (K == Cmp::lex_leq) return str(lex_leq(a, b));
  else if constexpr (K == Cmp::lex_gtr) return str(lex_gtr(a, b));
  else if constexpr (K == Cmp::lex_geq) return str(lex_geq(a, b));
  else if constexpr (K == Cmp::colex_leq) return str(colex_leq(a, b));
  else if constexpr (K == Cmp::colex_gtr) return str(colex_gtr(a, b));
  else return str(colex_geq(a, b));
}

template <Cmp K>
Coverage comparison(Tally& t) {
  constexpr bool elementwise = K == Cmp::elem_leq || K == Cmp::elem_gtr || K == Cmp::elem_geq;
  const char* name = cmp_name<K>();
  auto c = run_unary<Family::General, 2, kUnary>([&](auto const& l) {
    auto last = idx2crd(last_index(l), l.shape());
    auto mid = idx2crd(middle_index(l), l.shape());
    check(t, call(name, last, l.shape()), [&] { return compare<K>(last, l.shape()); });
    check(t, call(name, mid, l.shape()), [&] { return compare<K>(mid, l.shape()); });
    check(t, call(name, l.stride(), l.shape()), [&] { return compare<K>(l.stride(), l.shape()); });
    return true;
  });
  return c + run_binary<Family::General, 2, Family::General, 2, kBinary>([&](auto const& a, auto const& b) {
           using A = plain_t<decltype(a.shape())>;
           using B = plain_t<decltype(b.shape())>;
           if constexpr (elementwise ? elem_less_compiles<A, B>() : leaf_count_v<A> == leaf_count_v<B>) {
             check(t, call(name, a.shape(), b.shape()), [&] { return compare<K>(a.shape(), b.shape()); });
           } else {
             check_refused(t, call(name, a.shape(), b.shape()));
           }
           return true;
         });
}

const Register reg_elem_leq("elem_leq", [](Tally& t) { return comparison<Cmp::elem_leq>(t); });
const Register reg_elem_gtr("elem_gtr", [](Tally& t) { return comparison<Cmp::elem_gtr>(t); });
const Register reg_elem_geq("elem_geq", [](Tally& t) { return comparison<Cmp::elem_geq>(t); });
const Register reg_lex_leq("lex_leq", [](Tally& t) { return comparison<Cmp::lex_leq>(t); });
const Register reg_lex_gtr("lex_gtr", [](Tally& t) { return comparison<Cmp::lex_gtr>(t); });
const Register reg_lex_geq("lex_geq", [](Tally& t) { return comparison<Cmp::lex_geq>(t); });
const Register reg_colex_leq("colex_leq", [](Tally& t) { return comparison<Cmp::colex_leq>(t); });
const Register reg_colex_gtr("colex_gtr", [](Tally& t) { return comparison<Cmp::colex_gtr>(t); });
const Register reg_colex_geq("colex_geq", [](Tally& t) { return comparison<Cmp::colex_geq>(t); });

// ---- tuple algorithms ----------------------------------------------------------------------------

const Register reg_unflatten("unflatten", [](Tally& t) {
  return run_unary<Family::General, 2, kUnary>([&](auto const& l) {
    check(t, call("unflatten", flatten(l.shape()), l.stride()),
          [&] { return str(unflatten(flatten(l.shape()), l.stride())); });
    check(t, call("unflatten", flatten(l), l.shape()), [&] { return str(unflatten(flatten(l), l.shape())); });
    return true;
  });
});

const Register reg_zip("zip", [](Tally& t) {
  auto c = run_unary<Family::General, 2, kUnary>([&](auto const& l) {
    using S = plain_t<decltype(l.shape())>;
    auto c = swizzled(Swizzle<2, 1, 3>{}, l);  // zip of a composed layout acts on its inner layout
    if constexpr (zip_compiles<S>()) {
      check(t, call("zip", l.shape()), [&] { return str(zip(l.shape())); });
      check(t, call("zip", l), [&] { return str(zip(l)); });
      check(t, call("zip", c), [&] { return str(zip(c)); });
    } else {
      check_refused(t, call("zip", l.shape()));
      check_refused(t, call("zip", l));
      check_refused(t, call("zip", c));
    }
    return true;
  });
  return c + run_binary<Family::General, 2, Family::General, 2, kBinary>([&](auto const& a, auto const& b) {
           using P = plain_t<decltype(make_tuple(a.shape(), b.shape()))>;
           if constexpr (zip_compiles<P>()) {
             check(t, call("zip", a.shape(), b.shape()), [&] { return str(zip(a.shape(), b.shape())); });
             check(t, call("zip", a, b), [&] { return str(zip(a, b)); });
           } else {
             check_refused(t, call("zip", a.shape(), b.shape()));
             check_refused(t, call("zip", a, b));
           }
           return true;
         });
});

const Register reg_front("front", [](Tally& t) {
  return run_unary<Family::General, 2, kUnary>([&](auto const& l) {
    check(t, call("front", l.shape()), [&] { return str(front(l.shape())); });
    check(t, call("front", l.stride()), [&] { return str(front(l.stride())); });
    return true;
  });
});
const Register reg_back("back", [](Tally& t) {
  return run_unary<Family::General, 2, kUnary>([&](auto const& l) {
    check(t, call("back", l.shape()), [&] { return str(back(l.shape())); });
    check(t, call("back", l.stride()), [&] { return str(back(l.stride())); });
    return true;
  });
});
const Register reg_replace_front("replace_front", [](Tally& t) {
  return run_unary<Family::General, 2, kUnary>([&](auto const& l) {
    check(t, call("replace_front", l.shape(), l.stride()), [&] { return str(replace_front(l.shape(), l.stride())); });
    check(t, call("replace_front", l.shape(), _7{}), [&] { return str(replace_front(l.shape(), _7{})); });
    return true;
  });
});
const Register reg_replace_back("replace_back", [](Tally& t) {
  return run_unary<Family::General, 2, kUnary>([&](auto const& l) {
    check(t, call("replace_back", l.shape(), l.stride()), [&] { return str(replace_back(l.shape(), l.stride())); });
    check(t, call("replace_back", l.shape(), size(l)), [&] { return str(replace_back(l.shape(), size(l))); });
    return true;
  });
});

// ---- layouts -------------------------------------------------------------------------------------

const Register reg_compact_order("compact_order", [](Tally& t) {
  return run_unary<Family::General, 2, kUnary>([&](auto const& l) {
    check(t, call("compact_order", l.shape(), l.stride()), [&] { return str(compact_order(l.shape(), l.stride())); });
    check(t, call("compact_order", l.shape(), repeat_like(l.shape(), _0{})),
          [&] { return str(compact_order(l.shape(), repeat_like(l.shape(), _0{}))); });
    return true;
  });
});

const Register reg_make_layout_like("make_layout_like", [](Tally& t) {
  return run_unary<Family::General, 2, kUnary>([&](auto const& l) {
    check(t, call("make_layout_like", l), [&] { return str(make_layout_like(l)); });
    return true;
  });
});

const Register reg_coshape("coshape", [](Tally& t) {
  return run_unary<Family::General, 2, kUnary>([&](auto const& l) {
    check(t, call("coshape", l), [&] { return str(coshape(l)); });
    return true;
  });
});
const Register reg_coprofile("coprofile", [](Tally& t) {
  return run_unary<Family::General, 2, kUnary>([&](auto const& l) {
    check(t, call("coprofile", l), [&] { return str(coprofile(l)); });
    return true;
  });
});

// get_*_coord on the compact version of a layout (found), and on the layout with its static _0
// modes filtered (a dynamic 0 stride or a gap: refused by both).
template <int Which>
Coverage coord_of_offset(Tally& t) {
  const char* name = Which == 0 ? "get_hier_coord" : Which == 1 ? "get_flat_coord" : "get_1d_coord";
  auto run = [](auto const& l, auto const& i) {
    if constexpr (Which == 0) {
      return str(l.get_hier_coord(i));
    } else if constexpr (Which == 1) {
      return str(l.get_flat_coord(i));
    } else {
      return str(l.get_1d_coord(i));
    }
  };
  return run_unary<Family::General, 2, kUnary>([&](auto const& l) {
    auto f = compact_of(l);
    int const off = static_cast<int>(f(middle_index(f)));
    check(t, call(name, f, off), [&] { return run(f, off); });
    auto g = filter_zeros(l);
    check(t, call(name, g, middle_index(g)), [&] { return run(g, middle_index(g)); });
    return true;
  });
}
const Register reg_get_hier_coord("get_hier_coord", [](Tally& t) { return coord_of_offset<0>(t); });
const Register reg_get_flat_coord("get_flat_coord", [](Tally& t) { return coord_of_offset<1>(t); });
const Register reg_get_1d_coord("get_1d_coord", [](Tally& t) { return coord_of_offset<2>(t); });

const Register reg_domain_offset("domain_offset", [](Tally& t) {
  return run_unary<Family::General, 2, kUnary>([&](auto const& l) {
    auto c = idx2crd(middle_index(l), l.shape());
    check(t, call("domain_offset", c, l), [&] { return str(domain_offset(c, l)); });
    check(t, call("domain_offset", last_index(l), l), [&] { return str(domain_offset(last_index(l), l)); });
    return true;
  });
});

const Register reg_with_shape("with_shape", [](Tally& t) {
  auto c = run_unary<Family::General, 2, kUnary>([&](auto const& l) {
    check(t, call("with_shape", l, size(l)), [&] { return str(l.with_shape(size(l))); });
    return true;
  });
  return c + run_binary<Family::General, 2, Family::General, 2, kBinary>([&](auto const& a, auto const& b) {
           using A = plain_t<decltype(a)>;
           using B = plain_t<decltype(make_layout(b.shape()))>;
           if constexpr (composition_compiles<A, B>()) {
             check(t, call("with_shape", a, b.shape()), [&] { return str(a.with_shape(b.shape())); });
           } else {
             check_refused(t, call("with_shape", a, b.shape()));
           }
           return true;
         });
});

const Register reg_tile_unzip("tile_unzip", [](Tally& t) {
  return run_binary<Family::General, 2, Family::Injective, 1, kDivide>([&](auto const& a, auto const& b) {
    using S = plain_t<decltype(a.shape())>;
    using T = plain_t<decltype(b.shape())>;
    if constexpr (tiler_fits<S, T>()) {
      auto p = logical_divide(a, b.shape());
      check(t, call("tile_unzip", p, b.shape()), [&] { return str(tile_unzip(p, b.shape())); });
    }
    auto q = logical_divide(a, b);
    check(t, call("tile_unzip", q, b), [&] { return str(tile_unzip(q, b)); });
    auto cq = swizzled(Swizzle<2, 1, 3>{}, q);  // of a composed layout: on its inner layout
    check(t, call("tile_unzip", cq, b), [&] { return str(tile_unzip(cq, b)); });
    return true;
  });
});

const Register reg_evenly_divides("evenly_divides", [](Tally& t) {
  return run_binary<Family::General, 2, Family::Injective, 1, kDivide>([&](auto const& a, auto const& b) {
    check(t, call("evenly_divides", a.shape(), b.shape()), [&] { return str(evenly_divides(a.shape(), b.shape())); });
    check(t, call("evenly_divides", a, size(b)), [&] { return str(evenly_divides(a, size(b))); });
    check(t, call("evenly_divides", a.shape(), b), [&] { return str(evenly_divides(a.shape(), b)); });
    return true;
  });
});

const Register reg_max_alignment("max_alignment", [](Tally& t) {
  return run_unary<Family::Injective, 1, kDivide>([&](auto const& l) {
    check(t, call("max_alignment", l), [&] { return str(max_alignment(l)); });
    return true;
  });
});

}  // namespace
}  // namespace tessera::test
