// Core vs twin for coordinate layouts (core/arithmetic_tuple.hpp): make_identity_layout of the
// random shapes, its values (coordinate tuples), coalesce, filter, coshape, coprofile and slicing
// of it, and composition and the four divides of it by random tilers (layouts, shapes, modes):
// an identity layout divided like a data layout must give, text for text, the core's basis
// strides and coordinates. Also make_basis_like and basis_get. What the core refuses at compile
// time (a nested mode for make_basis_like, a basis mode beyond the tuple, a tiler with too many
// modes, a complement or a product of a coordinate layout, a coordinate layout as the B of a
// composition whose A has several modes) the twin must refuse.
#include "differential.hpp"

namespace tessera::test {
namespace {

constexpr std::uint64_t kIdentity = 3700, kIdentityTiled = 3710, kBasis = 3720;

// `expr(i)`: the value of an expression's layout at index i.
template <class I>
std::string at(std::string const& expr, I const& i) {
  return expr + "(" + text(i) + ")";
}

// No top-level mode of the shape is a tuple (make_basis_like compiles).
template <class Shape>
constexpr bool flat_modes_only() {
  if constexpr (is_tuple_v<Shape>) {
    return [&]<std::size_t... Is>(std::index_sequence<Is...>) {
      return (!is_tuple_v<tuple_element_t<Is, Shape>> && ... && true);
    }(std::make_index_sequence<tuple_size_v<Shape>>{});
  } else {
    return true;
  }
}

const Register reg_make_identity_layout("make_identity_layout", [](Tally& t) {
  return run_unary<Family::General, 2, kIdentity>([&](auto const& l) {
    auto const id = make_identity_layout(l.shape());
    std::string const e = call("make_identity_layout", l.shape());
    check(t, e, [&] { return str(id); });
    check(t, at(e, last_index(id)), [&] { return str(id(last_index(id))); });
    check(t, at(e, middle_index(id)), [&] { return str(id(middle_index(id))); });
    check(t, call("coalesce", id), [&] { return str(coalesce(id)); });
    check(t, call("coalesce", id, l.shape()), [&] { return str(coalesce(id, l.shape())); });
    check(t, call("filter", id), [&] { return str(filter(id)); });
    check(t, call("coshape", id), [&] { return str(coshape(id)); });
    check(t, call("coprofile", id), [&] { return str(coprofile(id)); });
    // An integer shape gives the integer layout n:_1; a tuple shape basis strides.
    if constexpr (is_tuple_v<plain_t<decltype(l.shape())>>) {
      // Slicing keeps the basis strides of the kept modes: (_, 0, 0, ...) keeps mode 0.
      auto c = replace_front(repeat_like(l.shape(), _0{}), _);
      check(t, e + str(c), [&] { return str(id(c)); });
      // The core does not compile these on basis strides: a coordinate has no complement, no
      // cosize and no product with a data layout.
      check_refused(t, call("complement", id));
      check_refused(t, call("cosize", id));
      check_refused(t, call("logical_product", id, l));
      // A coordinate layout as B: the core composes it only with an A of one mode (after
      // coalesce_x), scaling each basis stride; otherwise it does not compile.
      if constexpr (!is_tuple_v<plain_t<decltype(detail::coalesce_x(l).shape())>>) {
        check(t, call("composition", l, id), [&] { return str(composition(l, id)); });
      } else {
        check_refused(t, call("composition", l, id));
      }
    }
    return true;
  });
});

enum class Op { composition, logical, zipped, tiled, flat };

template <Op O>
constexpr const char* op_name() {
  return O == Op::composition ? "composition"
         : O == Op::logical   ? "logical_divide"
         : O == Op::zipped    ? "zipped_divide"
         : O == Op::tiled     ? "tiled_divide"
                              : "flat_divide";
}

template <Op O, class A, class T>
auto apply(A const& a, T const& tiler) {
  if constexpr (O == Op::composition) {
    return composition(a, tiler);
  } else if constexpr (O == Op::logical) {
    return logical_divide(a, tiler);
  } else if constexpr (O == Op::zipped) {
    return zipped_divide(a, tiler);
  } else if constexpr (O == Op::tiled) {
    return tiled_divide(a, tiler);
  } else {
    return flat_divide(a, tiler);
  }
}

template <Op O, class A, class T>
constexpr bool compiles() {
  if constexpr (O == Op::composition) {
    return composition_compiles<A, T>();
  } else if constexpr (is_tuple_v<T>) {
    return tiler_fits<plain_t<decltype(std::declval<A>().shape())>, T>();
  } else {
    return true;
  }
}

// op(identity, tiler) and its value at the last index, or the refusal both must share.
template <Op O, class A, class T>
void tiled(Tally& t, A const& id, T const& tiler) {
  std::string const e = call(op_name<O>(), id, tiler);
  if constexpr (compiles<O, A, T>()) {
    check(t, e, [&] { return str(apply<O>(id, tiler)); });
    std::string index;  // the result's middle index, where the core gives a result
    try {
      index = text(middle_index(apply<O>(id, tiler)));
    } catch (layout_error const&) {
      return;  // refused: compared above
    }
    check(t, at(e, index), [&] {
      auto const r = apply<O>(id, tiler);
      return str(r(middle_index(r)));
    });
  } else {
    check_refused(t, e);
  }
}

template <Op O>
Coverage identity_tiled(Tally& t) {
  return run_binary<Family::General, 2, Family::Injective, 1, kIdentityTiled + std::uint64_t(O)>(
      [&](auto const& a, auto const& b) {
        auto const id = make_identity_layout(a.shape());
        tiled<O>(t, id, b);
        tiled<O>(t, id, b.shape());
        tiled<O>(t, id, modes_tuple(b));
        return true;
      },
      kDraws / 2);
}

// Registered under make_identity_layout: these compare composition and the divides of identity
// layouts; the names' own comparisons (composition.cpp, divide.cpp) cover integer strides.
const Register reg_identity_composition("make_identity_layout",
                                        [](Tally& t) { return identity_tiled<Op::composition>(t); });
const Register reg_identity_logical("make_identity_layout", [](Tally& t) { return identity_tiled<Op::logical>(t); });
const Register reg_identity_zipped("make_identity_layout", [](Tally& t) { return identity_tiled<Op::zipped>(t); });
const Register reg_identity_tiled("make_identity_layout", [](Tally& t) { return identity_tiled<Op::tiled>(t); });
const Register reg_identity_flat("make_identity_layout", [](Tally& t) { return identity_tiled<Op::flat>(t); });

const Register reg_make_basis_like("make_basis_like", [](Tally& t) {
  return run_unary<Family::General, 2, kBasis>([&](auto const& l) {
    using Shape = plain_t<decltype(l.shape())>;
    if constexpr (flat_modes_only<Shape>()) {
      check(t, call("make_basis_like", l.shape()), [&] { return str(make_basis_like(l.shape())); });
      // crd2idx of a coordinate with make_basis_like's strides is the coordinate itself.
      auto const b = make_basis_like(l.shape());
      auto const c = repeat_like(l.shape(), _1{});
      check(t, call("crd2idx", c, l.shape(), b), [&] { return str(crd2idx(c, l.shape(), b)); });
    } else {
      check_refused(t, call("make_basis_like", l.shape()));
    }
    return true;
  });
});

const Register reg_basis_get("basis_get", [](Tally& t) {
  return run_unary<Family::General, 2, kBasis + 1>([&](auto const& l) {
    using Shape = plain_t<decltype(l.shape())>;
    constexpr int R = rank_v<Shape>;
    auto const s = l.shape();
    check(t, call("basis_get", E<0>{}, s), [&] { return str(basis_get(E<0>{}, s)); });
    check(t, call("basis_get", _4{} * E<R - 1>{}, s), [&] { return str(basis_get(_4{} * E<R - 1>{}, s)); });
    check(t, call("basis_get", _4{}, s), [&] { return str(basis_get(_4{}, s)); });
    check_refused(t, call("basis_get", E<R>{}, s));  // get<R> of a rank-R tuple does not compile
    return true;
  });
});

}  // namespace
}  // namespace tessera::test
