// Core vs twin for the products of core/product.hpp: logical, zipped, tiled and flat products (by
// a layout and a shape tiler; logical_product also by a tiler of layouts and an integer), blocked
// and raked products, on injective layouts and on the composed layout Sw o offset o A
// (core/swizzle.hpp: they act on A). The rest of core/product.hpp is in product_shape.cpp.
#include "differential.hpp"

namespace tessera::test {
namespace {

enum class Product { logical, zipped, tiled, flat };

template <Product P>
constexpr const char* product_name() {
  return P == Product::logical  ? "logical_product"
         : P == Product::zipped ? "zipped_product"
         : P == Product::tiled  ? "tiled_product"
                                : "flat_product";
}

template <Product P, class A, class B>
void product(Tally& t, A const& a, B const& b) {
  if constexpr (is_tuple_v<B> && !tiler_fits<plain_t<decltype(a.shape())>, B>()) {
    check_refused(t, call(product_name<P>(), a, b));
  } else {
    check(t, call(product_name<P>(), a, b), [&] {
      if constexpr (P == Product::logical) {
        return str(logical_product(a, b));
      } else if constexpr (P == Product::zipped) {
        return str(zipped_product(a, b));
      } else if constexpr (P == Product::tiled) {
        return str(tiled_product(a, b));
      } else {
        return str(flat_product(a, b));
      }
    });
  }
}

template <Product P>
Coverage products(Tally& t) {
  return run_binary<Family::Injective, 1, Family::Injective, 1, kProduct>([&](auto const& a, auto const& b) {
    product<P>(t, a, b);
    product<P>(t, a, b.shape());
    if constexpr (P == Product::logical) {
      product<P>(t, a, modes_tuple(b));
      product<P>(t, a, size(b));
    }
    product<P>(t, swizzled(Swizzle<3, 0, 3>{}, a), b);
    return true;
  });
}

const Register reg_logical_product("logical_product", [](Tally& t) { return products<Product::logical>(t); });
const Register reg_zipped_product("zipped_product", [](Tally& t) { return products<Product::zipped>(t); });
const Register reg_tiled_product("tiled_product", [](Tally& t) { return products<Product::tiled>(t); });
const Register reg_flat_product("flat_product", [](Tally& t) { return products<Product::flat>(t); });

const Register reg_blocked_product("blocked_product", [](Tally& t) {
  return run_binary<Family::Injective, 1, Family::Injective, 1, kProduct>([&](auto const& a, auto const& b) {
    check(t, call("blocked_product", a, b), [&] { return str(blocked_product(a, b)); });
    auto c = swizzled(Swizzle<3, 0, 3>{}, a);
    check(t, call("blocked_product", c, b), [&] { return str(blocked_product(c, b)); });
    return true;
  });
});

const Register reg_raked_product("raked_product", [](Tally& t) {
  return run_binary<Family::Injective, 1, Family::Injective, 1, kProduct>([&](auto const& a, auto const& b) {
    check(t, call("raked_product", a, b), [&] { return str(raked_product(a, b)); });
    auto c = swizzled(Swizzle<3, 0, 3>{}, a);
    check(t, call("raked_product", c, b), [&] { return str(raked_product(c, b)); });
    return true;
  });
});

}  // namespace
}  // namespace tessera::test
