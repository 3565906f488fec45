// Exact tests for include/tessera/core/swizzle.hpp (Swizzle, ComposedLayout).
#include "test_util.hpp"

using namespace tessera;
using tessera::test::S;

TEST(Swizzle, ReferenceValues) {
  Swizzle<3, 3, 3> sw;
  EXPECT_PRINTS(sw, "Sw<3,3,3>");
  const int in[] = {0, 8, 64, 72, 127};
  const int out[] = {0, 8, 72, 64, 119};
  for (int i = 0; i < 5; ++i) EXPECT_EQ(sw(in[i]), out[i]);
  static_assert(std::is_same_v<decltype(sw(C<64>{})), C<72>>);
  for (int x = 0; x < 4096; ++x) EXPECT_EQ(sw(sw(x)), x);  // an involution
}

TEST(Swizzle, ComposedLayout) {
  auto cl = composition(Swizzle<3, 3, 3>{}, make_layout(S<8, 64>(), S<64, 1>()));
  EXPECT_PRINTS(cl, "Sw<3,3,3> o _0 o (_8,_64):(_64,_1)");
  EXPECT_EQ(cl(1, 8), 64);
  for (int m = 0; m < 8; ++m)
    for (int n = 0; n < 64; ++n) EXPECT_EQ(cl(m, n), (Swizzle<3, 3, 3>{}(m * 64 + n)));
  auto row = cl(3, _);
  EXPECT_PRINTS(row, "Sw<3,3,3> o 192 o (_64):(_1)");
  EXPECT_PRINTS(cl(_3{}, _), "Sw<3,3,3> o _192 o (_64):(_1)");
  EXPECT_EQ(row(5), cl(3, 5));
  auto tiled = tile_to_shape(cl, S<32, 64>());
  EXPECT_PRINTS(tiled, "Sw<3,3,3> o _0 o ((_8,_4),(_64,_1)):((_64,_512),(_1,_0))");
}

// make_swizzle<Y, Z>: CuTe's examples, and the masks round-trip for every small swizzle.
TEST(Swizzle, MakeSwizzleFromMasks) {
  static_assert(std::is_same_v<decltype(make_swizzle<0b1000, 0b0100>()), Swizzle<1, 2, 1>>);
  static_assert(std::is_same_v<decltype(make_swizzle<0b11000000, 0b00000110>()), Swizzle<2, 1, 5>>);
  static_assert(std::is_same_v<decltype(make_swizzle<0b0100, 0b1000>()), Swizzle<1, 2, -1>>);
  static_assert(std::is_same_v<decltype(make_swizzle<0, 0>()), Swizzle<0, 0, 0>>);
  static_assert(std::is_same_v<decltype(make_swizzle<Swizzle<3, 4, 3>::read_mask, Swizzle<3, 4, 3>::write_mask>()),
                               Swizzle<3, 4, 3>>);
  static_assert(std::is_same_v<decltype(make_swizzle<Swizzle<2, 1, -3>::read_mask, Swizzle<2, 1, -3>::write_mask>()),
                               Swizzle<2, 1, -3>>);
  EXPECT_EQ((Swizzle<3, 4, 3>::read_mask), 0b1110000000);
  EXPECT_EQ((Swizzle<3, 4, 3>::write_mask), 0b0001110000);
}

// Law: composition(Sw0, Sw1)(x) == Sw0(Sw1(x)) for every x below the spans.
template <class Sw0, class Sw1>
void expect_swizzle_composition() {
  auto c = composition(Sw0{}, Sw1{});
  for (int x = 0; x < (1 << 14); ++x) ASSERT_EQ(c(x), Sw0{}(Sw1{}(x))) << to_string(c) << " at " << x;
}
TEST(Swizzle, CompositionOfSwizzles) {
  EXPECT_PRINTS(composition(Swizzle<1, 4, 3>{}, Swizzle<2, 2, 3>{}), "Sw<3,2,3>");
  EXPECT_PRINTS(composition(Swizzle<3, 3, 3>{}, Swizzle<3, 3, 3>{}), "Sw<0,0,0>");
  expect_swizzle_composition<Swizzle<1, 4, 3>, Swizzle<2, 2, 3>>();
  expect_swizzle_composition<Swizzle<2, 2, 3>, Swizzle<1, 4, 3>>();
  expect_swizzle_composition<Swizzle<3, 3, 3>, Swizzle<3, 3, 3>>();
  expect_swizzle_composition<Swizzle<2, 3, 3>, Swizzle<3, 3, 3>>();
  expect_swizzle_composition<Swizzle<0, 4, 3>, Swizzle<2, 1, 5>>();
  expect_swizzle_composition<Swizzle<1, 2, -3>, Swizzle<1, 3, -3>>();
}

// Law for every function that keeps a composed layout: f(c) evaluated at every coordinate agrees
// with the composed function sw(offset + f(L)(i)).
template <class CL, class Ref>
void expect_agrees(CL const& c, Ref ref, int n) {
  ASSERT_EQ(int(size(c)), n) << to_string(c);
  for (int i = 0; i < n; ++i)
    ASSERT_EQ(static_cast<long long>(c(i)), static_cast<long long>(ref(i))) << to_string(c) << " at " << i;
}

TEST(Swizzle, ComposedTupleFunctionsAgreeElementwise) {
  auto L = make_layout(make_shape(_8{}, make_shape(_4{}, _16{})), make_stride(_64{}, make_stride(_1{}, _4{})));
  auto c = composition(Swizzle<3, 2, 3>{}, L);
  auto sw = Swizzle<3, 2, 3>{};
  EXPECT_PRINTS((take<0, 1>(c)), "Sw<3,2,3> o _0 o (_8):(_64)");
  expect_agrees(
      take<1, 2>(c), [&](int i) { return sw(take<1, 2>(L)(i)); }, 64);
  EXPECT_PRINTS(flatten(c), "Sw<3,2,3> o _0 o (_8,_4,_16):(_64,_1,_4)");
  expect_agrees(
      flatten(c), [&](int i) { return c(i); }, 512);
  expect_agrees(
      group<0, 2>(c), [&](int i) { return c(i); }, 512);
  EXPECT_EQ(int(rank(group<0, 2>(c))), 1);
  auto ap = append(c, make_layout(_2{}, _512{}));
  expect_agrees(
      ap, [&](int i) { return sw(i < 512 ? L(i) : L(i % 512) + 512); }, 1024);
  EXPECT_PRINTS(append<3>(c), "Sw<3,2,3> o _0 o (_8,(_4,_16),_1):(_64,(_1,_4),_0)");
  EXPECT_PRINTS(coalesce(composition(Swizzle<3, 3, 3>{}, make_layout(make_shape(_8{}, _8{})))),
                "Sw<3,3,3> o _0 o _64:_1");
  expect_agrees(
      coalesce(c), [&](int i) { return c(i); }, 512);
  expect_agrees(
      coalesce(c, make_shape(_1{}, _1{})), [&](int i) { return c(i); }, 512);
  expect_agrees(
      filter(c), [&](int i) { return c(i); }, 512);
  // slice / slice_and_offset / domain_offset: the fixed part's offset moves inside the swizzle.
  auto s = slice(make_coord(3, _), c);
  EXPECT_PRINTS(s, "Sw<3,2,3> o 192 o ((_4,_16)):((_1,_4))");
  expect_agrees(
      s, [&](int k) { return c(3, k); }, 64);
  auto so = slice_and_offset(make_coord(_, 5), c);
  EXPECT_EQ(int(get<1>(so)), 0);
  expect_agrees(
      get<0>(so), [&](int m) { return c(m, 5); }, 8);
  auto d = get<0>(domain_offset(make_coord(2, 3), c));
  for (int m = 0; m < 6; ++m)
    for (int k = 0; k < 61; ++k) ASSERT_EQ(d(m, k), sw(L(2, 3) + L(m, k)));
}

TEST(Swizzle, ComposedStrideIsRefusedAndPortions) {
  auto L = make_layout(make_shape(_8{}, _64{}), make_stride(_64{}, _1{}));
  auto c = composition(Swizzle<3, 3, 3>{}, L);
  EXPECT_PRINTS(get_swizzle_portion(c), "Sw<3,3,3>");
  EXPECT_PRINTS(get_nonswizzle_portion(c), "(_8,_64):(_64,_1)");
  EXPECT_PRINTS(get_swizzle_portion(L), "Sw<0,4,3>");
  EXPECT_PRINTS(get_nonswizzle_portion(L), "(_8,_64):(_64,_1)");
  EXPECT_PRINTS(get_nonswizzle_portion(c(3, _)), "(_64):(_1)");
}

// complement of a composed layout: that of the inner layout; (L, complement) through the swizzle
// covers the cotarget once.
TEST(Swizzle, ComposedComplement) {
  auto L = make_layout(make_shape(_8{}, _8{}), make_stride(_1{}, _16{}));
  auto c = composition(Swizzle<3, 3, 3>{}, L);
  auto r = complement(c, _1024{});
  EXPECT_EQ(to_string(r), to_string(complement(L, _1024{})));
  EXPECT_EQ(to_string(complement(c)), to_string(complement(L)));
  std::vector<int> hit(1024, 0);
  for (int i = 0; i < int(size(L)); ++i)
    for (int j = 0; j < int(size(r)); ++j) hit[std::size_t(Swizzle<3, 3, 3>{}(L(i) + r(j)))] += 1;
  for (int h : hit) EXPECT_EQ(h, 1);
}

// composition(L, sw), right_inverse and left_inverse: checked laws.
TEST(Swizzle, LayoutTimesSwizzleAndInverses) {
  auto T = make_layout(make_shape(_8{}, _8{}), make_stride(_8{}, _1{}));  // a transpose
  auto ts = composition(T, Swizzle<3, 0, 3>{});
  EXPECT_PRINTS(ts, "Sw<3,0,-3> o _0 o (_8,_8):(_8,_1)");
  for (int x = 0; x < 64; ++x) ASSERT_EQ(ts(x), T(Swizzle<3, 0, 3>{}(x)));
  auto checks = [](auto const& c) {
    auto r = right_inverse(c);
    for (int i = 0; i < int(size(r)); ++i) ASSERT_EQ(static_cast<long long>(c(r(i))), i) << to_string(r);
    auto l = left_inverse(c);
    for (int i = 0; i < int(size(c)); ++i) ASSERT_EQ(static_cast<long long>(l(c(i))), i) << to_string(l);
  };
  checks(composition(Swizzle<3, 3, 3>{}, make_layout(make_shape(_8{}, _64{}), make_stride(_64{}, _1{}))));
  checks(composition(Swizzle<2, 4, 3>{}, make_layout(make_shape(_16{}, _32{}))));
  checks(composition(Swizzle<2, 0, -4>{}, make_layout(make_shape(_16{}, _4{}), make_stride(_4{}, _1{}))));
  EXPECT_PRINTS(right_inverse(Swizzle<3, 3, 3>{}), "Sw<3,3,3>");
}

// upcast / downcast / recast: the composed function in the other units.
TEST(Swizzle, ComposedUpcastDowncast) {
  EXPECT_PRINTS(upcast<2>(Swizzle<3, 4, 3>{}), "Sw<3,3,3>");
  EXPECT_PRINTS(downcast<2>(Swizzle<3, 3, 3>{}), "Sw<3,4,3>");
  for (int x = 0; x < 4096; ++x) {
    ASSERT_EQ((upcast<4>(Swizzle<3, 4, 3>{})(x)), (Swizzle<3, 4, 3>{}(x * 4) / 4));
    ASSERT_EQ((downcast<4>(Swizzle<3, 3, 3>{})(x)), (Swizzle<3, 3, 3>{}(x / 4) * 4 + x % 4));
  }
  auto c = composition(Swizzle<3, 4, 3>{}, make_layout(make_shape(_8{}, _64{}), make_stride(_64{}, _1{})));
  auto u = upcast<2>(c);
  EXPECT_PRINTS(u, "Sw<3,3,3> o _0 o (_8,_32):(_32,_1)");
  for (int m = 0; m < 8; ++m)
    for (int n = 0; n < 32; ++n) ASSERT_EQ(u(m, n) * 2, c(m, 2 * n));
  auto d = downcast<2>(c);
  for (int m = 0; m < 8; ++m)
    for (int n = 0; n < 128; ++n) ASSERT_EQ(d(m, n), c(m, n / 2) * 2 + n % 2);
  EXPECT_EQ(to_string(recast<16, 32>(c)), to_string(u));
  EXPECT_EQ(to_string(recast<16, 8>(c)), to_string(d));
  EXPECT_EQ(to_string(recast<16, 16>(c)), to_string(c));
  auto sliced = c(1, _);  // offset 64: upcast<2> divides it
  EXPECT_PRINTS(upcast<2>(sliced), "Sw<3,3,3> o 32 o (_32):(_1)");
}

// max_common_layout with a swizzled operand: the inner layouts' common layout cut to 2^M and to
// the offset's alignment; law: A(R(i)) == B(R(i)) and both run contiguously over R's image.
TEST(Swizzle, ComposedMaxCommonLayout) {
  auto v = make_layout(_64{});
  auto c = composition(Swizzle<3, 2, 3>{}, v);
  EXPECT_PRINTS(max_common_layout(c, v), "_4:_1");
  EXPECT_PRINTS(max_common_layout(v, c), "_4:_1");
  auto shifted = make_composed_layout(Swizzle<3, 4, 3>{}, _2{}, v);
  EXPECT_PRINTS(max_common_layout(shifted, v), "_2:_1");
  auto t = make_layout(make_shape(_8{}, _8{}), make_stride(_8{}, _1{}));  // row-major 8x8
  auto ct = composition(Swizzle<3, 3, 3>{}, make_layout(make_shape(_8{}, _8{}), make_stride(_8{}, _1{})));
  auto common = max_common_layout(ct, t);
  EXPECT_PRINTS(common, "_8:_8");  // 8 elements of a row (coordinates 8 apart in column-major order)
  for (int i = 0; i < int(size(common)); ++i) {
    EXPECT_EQ(static_cast<long long>(ct(common(i))), static_cast<long long>(t(common(i))));
    EXPECT_EQ(static_cast<long long>(ct(common(i))), static_cast<long long>(ct(common(0))) + i);
  }
}

// zip and tile_unzip of a composed layout act on its inner layout.
TEST(Swizzle, ComposedZipAndTileUnzip) {
  auto l = make_layout(make_shape(make_shape(_2{}, _4{}), make_shape(_8{}, _8{})),
                       make_stride(make_stride(_1{}, _2{}), make_stride(_8{}, _64{})));
  auto c = make_composed_layout(Swizzle<3, 3, 3>{}, _0{}, l);
  EXPECT_PRINTS(zip(c), "Sw<3,3,3> o _0 o " + to_string(zip(l)));
  auto tiler = make_shape(_4{}, _8{});
  auto d = logical_divide(make_composed_layout(Swizzle<3, 3, 3>{}, _0{}, make_layout(make_shape(_16{}, _32{}))), tiler);
  EXPECT_PRINTS(
      tile_unzip(d, tiler),
      "Sw<3,3,3> o _0 o " + to_string(tile_unzip(logical_divide(make_layout(make_shape(_16{}, _32{})), tiler), tiler)));
}

TEST(Swizzle, ComposedMaxCommonVector) {
  auto v = make_layout(_64{});
  auto c = composition(Swizzle<3, 2, 3>{}, v);
  EXPECT_EQ(int(max_common_vector(c, v)), 4);
  EXPECT_EQ(int(max_common_vector(v, c)), 4);
  EXPECT_EQ(int(max_common_vector(c, c)), 64);  // the same permutation on both sides
  auto c4 = composition(Swizzle<3, 4, 3>{}, v);
  EXPECT_EQ(int(max_common_vector(c, c4)), 4);
  static_assert(is_static_int_v<decltype(max_common_vector(c, v))>);
  auto shifted = make_composed_layout(Swizzle<3, 4, 3>{}, _2{}, make_layout(_64{}));
  EXPECT_EQ(int(max_common_vector(shifted, v)), 2);  // starts 2 into a 16-element block
  // Law: the answer's runs are contiguous in both operands' offsets.
  auto law = [](auto const& a, auto const& b) {
    int n = int(max_common_vector(a, b));
    for (int i = 1; i < n; ++i) {
      ASSERT_EQ(static_cast<long long>(a(i)), static_cast<long long>(a(0)) + i);
      ASSERT_EQ(static_cast<long long>(b(i)), static_cast<long long>(b(0)) + i);
    }
  };
  law(c, v);
  law(c4, v);
  law(shifted, v);
  law(composition(Swizzle<2, 3, -3>{}, make_layout(make_shape(_8{}, _16{}))), make_layout(make_shape(_8{}, _16{})));
}
