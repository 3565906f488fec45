// Core vs twin on composed layouts `Sw<B,M,S> o offset o L` (core/swizzle.hpp): size, rank and
// cosize are those of L; and every other function the core defines on composed layouts: shape,
// depth, layout/get of a mode, stride (refused), take, group, flatten, append, slice,
// slice_and_offset, domain_offset, coalesce, filter, complement, right_inverse, left_inverse
// (through composition(L, Sw)), upcast, downcast, recast, get_swizzle_portion,
// get_nonswizzle_portion, max_common_vector; composition(Sw0, Sw1) and composition(L, Sw).
// (Composition, the divides, the products and tile_to_shape of a composed layout are compared in
// composition.cpp, divide.cpp and product.cpp, max_common_layout in recast.cpp, zip and tile_unzip
// in cute_api.cpp, next to the same functions on plain layouts, so that the core's instantiations
// for L are shared.)
#include "differential.hpp"

namespace tessera::test {
namespace {

// size, rank and cosize of Sw o offset o L are those of L.
const Register reg_size("size", [](Tally& t) {
  return run_unary<Family::General, 2, kUnary>([&](auto const& l) {
    auto c = swizzled(Swizzle<2, 1, 3>{}, l);
    check(t, call("size", c), [&] { return str(size(c)); });
    return true;
  });
});
const Register reg_rank("rank", [](Tally& t) {
  return run_unary<Family::General, 2, kUnary>([&](auto const& l) {
    auto c = swizzled(Swizzle<2, 1, 3>{}, l);
    check(t, call("rank", c), [&] { return str(rank(c)); });
    return true;
  });
});
const Register reg_cosize("cosize", [](Tally& t) {
  return run_unary<Family::General, 2, kUnary>([&](auto const& l) {
    auto c = swizzled(Swizzle<2, 1, 3>{}, l);
    check(t, call("cosize", c), [&] { return str(cosize(c)); });
    return true;
  });
});

// ---- the rest of the core's functions on composed layouts --------------------------------------

// Sw o offset o L with the swizzle the functions below use (span 2^(1+2+3) = 64 bits, written
// bits 1..2: it divides nothing by accident).
template <class L>
auto sw(L const& l) {
  return swizzled(Swizzle<2, 1, 3>{}, l);
}

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

// composition(L, Swizzle<B,M,S>) compiles: L static, size(L) a multiple of the span and at most
// 2^16, L maps the swizzle's masks to non-negative offsets that make a swizzle (make_swizzle<Y,Z>:
// runs of equal length, disjoint), and L commutes with the swizzle (the core's static_asserts).
template <class L, int B, int M, int S>
constexpr bool composes_with_swizzle() {
  if constexpr (!is_static_v<L>) {
    return false;
  } else {
    constexpr long long n = static_cast<long long>(decltype(size(L{}))::value);
    constexpr long long span = B == 0 ? 1 : 1LL << (M + B + (S < 0 ? -S : S));
    if (n % span != 0 || n > (1 << 16)) return false;
    if (B == 0) return true;
    using Sw = Swizzle<B, M, S>;
    const long long y = static_cast<long long>(L{}(static_cast<long long>(Sw::read_mask)));
    const long long z = static_cast<long long>(L{}(static_cast<long long>(Sw::write_mask)));
    if (y < 0 || z < 0) return false;
    auto pop = [](unsigned long long x) {
      int k = 0;
      for (; x != 0; x &= x - 1) ++k;
      return k;
    };
    auto tz = [](unsigned long long x) {
      int k = 0;
      if (x == 0) return 0;
      for (; (x & 1) == 0; x >>= 1) ++k;
      return k;
    };
    auto run = [&](unsigned long long x) {
      if (x == 0) return true;
      unsigned long long lo = x >> tz(x);
      return (lo & (lo + 1)) == 0;
    };
    const auto uy = static_cast<unsigned long long>(y), uz = static_cast<unsigned long long>(z);
    if (pop(uy) != pop(uz) || !run(uy) || !run(uz) || (uy & uz) != 0) return false;
    // sw' = Sw<pop(y), min(tz(y), tz(z)), tz(y) - tz(z)>, a valid swizzle (|S| >= B), applied as
    // the twin's apply.
    const int b2 = pop(uy), shift = tz(uy) - tz(uz), base = tz(uy) < tz(uz) ? tz(uy) : tz(uz);
    if (b2 != 0 && (shift < 0 ? -shift : shift) < b2) return false;
    auto apply2 = [&](long long x) {
      if (b2 == 0) return x;
      const unsigned long long ux = static_cast<unsigned long long>(x), mask = ((1ULL << b2) - 1) << base;
      const unsigned long long moved = shift >= 0 ? ((ux >> shift) & mask) : ((ux & mask) << -shift);
      return static_cast<long long>(ux ^ moved);
    };
    for (long long x = 0; x < n; ++x) {
      if (static_cast<long long>(L{}(static_cast<long long>(Sw::apply(x)))) != apply2(static_cast<long long>(L{}(x))))
        return false;
    }
    return true;
  }
}

template <class L, class Sw>
void compose_with_swizzle(Tally& t, L const& l, Sw const& s) {
  if constexpr (composes_with_swizzle<L, Sw::num_bits, Sw::num_base, Sw::num_shft>()) {
    check(t, call("composition", l, s), [&] { return str(composition(l, s)); });
  } else {
    check_refused(t, call("composition", l, s));
  }
}

const Register reg_shape("shape", [](Tally& t) {
  return run_unary<Family::General, 2, kUnary>([&](auto const& l) {
    auto c = sw(l);
    check(t, call("shape", c), [&] { return str(shape(c)); });
    check(t, call("shape", c, 0), [&] { return str(shape<0>(c)); });
    return true;
  });
});
const Register reg_depth("depth", [](Tally& t) {
  return run_unary<Family::General, 2, kUnary>([&](auto const& l) {
    auto c = sw(l);
    check(t, call("depth", c), [&] { return str(depth(c)); });
    return true;
  });
});
const Register reg_stride("stride", [](Tally& t) {
  return run_unary<Family::General, 2, kUnary>([&](auto const& l) {
    check_refused(t, call("stride", sw(l)));  // a composed layout has no stride (static_assert in the core)
    check(t, call("stride", call("get_nonswizzle_portion", sw(l))),
          [&] { return str(stride(get_nonswizzle_portion(sw(l)))); });
    return true;
  });
});
const Register reg_layout("layout", [](Tally& t) {
  return run_unary<Family::General, 2, kUnary>([&](auto const& l) {
    constexpr int R = rank_v<plain_t<decltype(l.shape())>>;
    auto c = sw(l);
    check(t, call("layout", c, R - 1), [&] { return str(layout<R - 1>(c)); });
    check(t, call("get", c, 0), [&] { return str(get<0>(c)); });
    check_refused(t, call("layout", c, R));
    return true;
  });
});
const Register reg_take("take", [](Tally& t) {
  return run_unary<Family::General, 2, kUnary>([&](auto const& l) {
    constexpr int R = rank_v<plain_t<decltype(l.shape())>>;
    auto c = sw(l);
    check(t, call("take", c, 0, R), [&] { return str(take<0, R>(c)); });
    check(t, call("take", c, R - 1, R), [&] { return str(take<R - 1, R>(c)); });
    return true;
  });
});
const Register reg_group("group", [](Tally& t) {
  return run_unary<Family::General, 2, kUnary>([&](auto const& l) {
    constexpr int R = rank_v<plain_t<decltype(l.shape())>>;
    auto c = sw(l);
    check(t, call("group", c, 0, R), [&] { return str(group<0, R>(c)); });
    return true;
  });
});
const Register reg_flatten("flatten", [](Tally& t) {
  return run_unary<Family::General, 2, kUnary>([&](auto const& l) {
    auto c = sw(l);
    check(t, call("flatten", c), [&] { return str(flatten(c)); });
    return true;
  });
});
const Register reg_append("append", [](Tally& t) {
  return run_unary<Family::General, 2, kUnary>([&](auto const& l) {
    constexpr int R = rank_v<plain_t<decltype(l.shape())>>;
    auto c = sw(l);
    check(t, call("append", c, layout<0>(l)), [&] { return str(append(c, layout<0>(l))); });
    check(t, call("append", c, Layout<_1, _0>{}, R + 1), [&] { return str(append<R + 1>(c)); });
    return true;
  });
});
const Register reg_composed_slice("slice", [](Tally& t) {
  return run_unary<Family::General, 2, kUnary>([&](auto const& l) {
    auto c = sw(l);
    auto k = keep_first(l);
    check(t, call("slice", k, c), [&] { return str(slice(k, c)); });
    return true;
  });
});
const Register reg_composed_slice_and_offset("slice_and_offset", [](Tally& t) {
  return run_unary<Family::General, 2, kUnary>([&](auto const& l) {
    auto c = sw(l);
    auto k = keep_first(l);
    check(t, call("slice_and_offset", k, c), [&] { return str(slice_and_offset(k, c)); });
    return true;
  });
});
const Register reg_domain_offset("domain_offset", [](Tally& t) {
  return run_unary<Family::General, 2, kUnary>([&](auto const& l) {
    auto c = sw(l);
    auto crd = idx2crd(middle_index(l), l.shape());
    check(t, call("domain_offset", crd, c), [&] { return str(domain_offset(crd, c)); });
    check(t, call("domain_offset", last_index(l), c), [&] { return str(domain_offset(last_index(l), c)); });
    return true;
  });
});
const Register reg_coalesce("coalesce", [](Tally& t) {
  return run_unary<Family::General, 2, kUnary>([&](auto const& l) {
    auto c = sw(l);
    check(t, call("coalesce", c), [&] { return str(coalesce(c)); });
    return true;
  });
});
const Register reg_filter("filter", [](Tally& t) {
  return run_unary<Family::General, 2, kUnary>([&](auto const& l) {
    auto c = sw(l);
    check(t, call("filter", c), [&] { return str(filter(c)); });
    return true;
  });
});
const Register reg_complement("complement", [](Tally& t) {
  return run_unary<Family::Injective, 2, kInjective>([&](auto const& l) {
    auto c = sw(l);
    check(t, call("complement", c), [&] { return str(complement(c)); });
    check(t, call("complement", c, cosize(l) * _2{}), [&] { return str(complement(c, cosize(l) * _2{})); });
    return true;
  });
});

template <bool Right, class X>
auto inverse_of(X const& x) {
  if constexpr (Right) {
    return right_inverse(x);
  } else {
    return left_inverse(x);
  }
}

// right_inverse / left_inverse of Sw o _0 o L: composition(inverse(L), Sw) where that compiles;
// a non-static L has a dynamic offset here (swizzled), which the core refuses.
template <bool Right>
Coverage inverses(Tally& t) {
  const char* name = Right ? "right_inverse" : "left_inverse";
  return run_unary<Family::Injective, 2, kInjective>([&](auto const& l) {
    using L = plain_t<decltype(l)>;
    auto c = sw(l);
    if constexpr (!is_static_v<L>) {
      check_refused(t, call(name, c));
    } else {
      using Inv = plain_t<decltype(inverse_of<Right>(l))>;
      if constexpr (composes_with_swizzle<Inv, 2, 1, 3>()) {
        check(t, call(name, c), [&] { return str(inverse_of<Right>(c)); });
      } else {
        check_refused(t, call(name, c));
      }
      check(t, call(name, Swizzle<2, 1, 3>{}), [&] { return str(inverse_of<Right>(Swizzle<2, 1, 3>{})); });
    }
    return true;
  });
}
const Register reg_right_inverse("right_inverse", [](Tally& t) { return inverses<true>(t); });
const Register reg_left_inverse("left_inverse", [](Tally& t) { return inverses<false>(t); });

const Register reg_upcast("upcast", [](Tally& t) {
  return run_unary<Family::General, 2, kUnary>([&](auto const& l) {
    auto c = sw(l);
    check(t, call("upcast", c, 2), [&] { return str(upcast<2>(c)); });
    check_refused(t, call("upcast", c, 4));  // Sw<2,1,3> writes bit 1: upcast by at most 2^1
    check(t, call("upcast", Swizzle<3, 4, 3>{}, 4), [&] { return str(upcast<4>(Swizzle<3, 4, 3>{})); });
    return true;
  });
});
const Register reg_downcast("downcast", [](Tally& t) {
  return run_unary<Family::General, 2, kUnary>([&](auto const& l) {
    auto c = sw(l);
    check(t, call("downcast", c, 2), [&] { return str(downcast<2>(c)); });
    check(t, call("downcast", Swizzle<3, 3, 3>{}, 2), [&] { return str(downcast<2>(Swizzle<3, 3, 3>{})); });
    return true;
  });
});
const Register reg_recast("recast", [](Tally& t) {
  return run_unary<Family::General, 2, kUnary>([&](auto const& l) {
    auto c = sw(l);
    check(t, call("recast", c, 16, 32), [&] { return str(recast<16, 32>(c)); });
    check(t, call("recast", c, 16, 8), [&] { return str(recast<16, 8>(c)); });
    check(t, call("recast", c, 16, 16), [&] { return str(recast<16, 16>(c)); });
    return true;
  });
});
const Register reg_get_swizzle_portion("get_swizzle_portion", [](Tally& t) {
  return run_unary<Family::General, 2, kUnary>([&](auto const& l) {
    check(t, call("get_swizzle_portion", sw(l)), [&] { return str(get_swizzle_portion(sw(l))); });
    check(t, call("get_swizzle_portion", l), [&] { return str(get_swizzle_portion(l)); });
    return true;
  });
});
const Register reg_get_nonswizzle_portion("get_nonswizzle_portion", [](Tally& t) {
  return run_unary<Family::General, 2, kUnary>([&](auto const& l) {
    check(t, call("get_nonswizzle_portion", sw(l)), [&] { return str(get_nonswizzle_portion(sw(l))); });
    check(t, call("get_nonswizzle_portion", l), [&] { return str(get_nonswizzle_portion(l)); });
    return true;
  });
});
const Register reg_max_common_vector("max_common_vector", [](Tally& t) {
  return run_binary<Family::Injective, 1, Family::Injective, 1, kProduct>([&](auto const& a, auto const& b) {
    using A = plain_t<decltype(a)>;
    using Inv = plain_t<decltype(right_inverse(b))>;
    if constexpr (!is_static_v<A> || !is_static_v<plain_t<decltype(b)>> || composition_compiles<A, Inv>()) {
      auto ca = sw(a);
      auto cb = swizzled(Swizzle<1, 2, 3>{}, b);
      check(t, call("max_common_vector", ca, b), [&] { return str(max_common_vector(ca, b)); });
      check(t, call("max_common_vector", ca, sw(b)), [&] { return str(max_common_vector(ca, sw(b))); });
      check(t, call("max_common_vector", ca, cb), [&] { return str(max_common_vector(ca, cb)); });
    }
    // (a, Sw o off o b) computes max_common_vector(b, a) in the core: its own guard.
    using B = plain_t<decltype(b)>;
    using InvA = plain_t<decltype(right_inverse(a))>;
    if constexpr (!is_static_v<A> || !is_static_v<B> || composition_compiles<B, InvA>()) {
      auto cb = swizzled(Swizzle<1, 2, 3>{}, b);
      check(t, call("max_common_vector", a, cb), [&] { return str(max_common_vector(a, cb)); });
    }
    return true;
  });
});

// composition(Sw0, Sw1) and composition(L, Sw).
const Register reg_composition("composition", [](Tally& t) {
  return run_unary<Family::Injective, 2, kInjective>([&](auto const& l) {
    if constexpr (is_static_v<plain_t<decltype(l)>>) {
      check(t, call("composition", Swizzle<1, 4, 3>{}, Swizzle<2, 2, 3>{}),
            [&] { return str(composition(Swizzle<1, 4, 3>{}, Swizzle<2, 2, 3>{})); });
      check(t, call("composition", Swizzle<0, 4, 3>{}, Swizzle<2, 2, 3>{}),
            [&] { return str(composition(Swizzle<0, 4, 3>{}, Swizzle<2, 2, 3>{})); });
      check_refused(t, call("composition", Swizzle<1, 2, 3>{}, Swizzle<1, 2, 4>{}));  // the shifts differ
    }
    compose_with_swizzle(t, l, Swizzle<1, 0, 1>{});
    compose_with_swizzle(t, l, Swizzle<1, 1, 2>{});
    compose_with_swizzle(t, l, Swizzle<0, 4, 3>{});
    return true;
  });
});

}  // namespace
}  // namespace tessera::test
