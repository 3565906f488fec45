// Tests for the CuTe layout functions of include/tessera/core/layout.hpp (compact_major,
// compact_order, make_layout_like, coshape, coprofile, get_hier/flat/1d_coord, domain_offset,
// filter_zeros, unflatten, zip, with_shape), divide.hpp (tile_unzip, evenly_divides) and recast.hpp
// (max_alignment) (issue 9, "Missing API"): laws over seeded random layouts of every kind (static,
// mixed, dynamic) and CuTe's results on exact examples.
#include <algorithm>
#include <set>

#include "laws_driver.hpp"
#include "test_util.hpp"

using namespace tessera;
using namespace tessera::test;

TEST(LayoutApi, CompactMajorAndOrder) {
  EXPECT_PRINTS(compact_major<LayoutRight>(make_tuple(2, 3)), "(3,_1)");
  EXPECT_PRINTS(compact_major<LayoutLeft>(make_tuple(2, 3), make_tuple(_1{}, 10)), "(_1,10)");
  EXPECT_PRINTS(compact_major<LayoutLeft>(S<4, 1, 2>()), "(_1,_0,_4)");
  EXPECT_PRINTS(compact_order(make_tuple(2, 3, 4), S<1, 2, 0>()), "(4,8,_1)");
  EXPECT_PRINTS(compact_order(make_tuple(make_tuple(2, 3), 4), S<1, 0>()), "((4,8),_1)");
  EXPECT_PRINTS(compact_order(S<2, 3, 4>(), LayoutRight{}), "(_12,_4,_1)");
  // CuTe's compact_order of a dynamic order entry: after every static entry, in position order.
  EXPECT_PRINTS(compact_order(S<2, 3, 4>(), make_tuple(5, _1{}, _0{})), "(_12,_4,_1)");
  // Tessera rule: equal entries are taken in position order (CuTe overlaps them).
  EXPECT_PRINTS(compact_order(S<2, 3>(), S<0, 0>()), "(_1,_2)");
  // The same strides as make_ordered_layout for a flat order.
  EXPECT_TRUE(make_layout(S<2, 2, 2, 2>(), compact_order(S<2, 2, 2, 2>(), S<0, 2, 3, 1>())) ==
              make_ordered_layout(S<2, 2, 2, 2>(), S<0, 2, 3, 1>()));
  // Law: every static order gives a compact layout (a bijection onto [0, size)) whose mode of
  // smallest order has stride 1 and whose strides increase with the order.
  auto shape = make_tuple(3, make_tuple(2, 5), 4);
  for_each_index<6>([&](auto q) {
    constexpr int Q = decltype(q)::value;
    static constexpr int p[3] = {Q / 2, (Q / 2 + 1 + Q % 2) % 3, (Q / 2 + 2 - Q % 2) % 3};  // the 6 permutations
    auto l = make_layout(shape, compact_order(shape, make_tuple(C<p[0]>{}, C<p[1]>{}, C<p[2]>{})));
    std::set<long long> seen;
    for (int i = 0; i < size(l); ++i) seen.insert(l(i));
    EXPECT_EQ(seen.size(), 120u) << l;
    EXPECT_EQ(*seen.rbegin(), 119) << l;
    long long const first[] = {stride<0>(l), stride<1, 0>(l), stride<2>(l)};
    for (int m = 0; m < 3; ++m) {
      if (p[m] == 0) EXPECT_EQ(first[m], 1) << l;
      for (int k = 0; k < 3; ++k) {
        if (p[m] < p[k]) EXPECT_LT(first[m], first[k]) << l;
      }
    }
  });
  // A dynamic order ranks after the static ones, in position order (CuTe).
  EXPECT_PRINTS(compact_order(make_tuple(2, 3, 4), make_tuple(2, 1, 0)), "(_1,2,6)");
}

TEST(LayoutApi, MakeLayoutLikeExact) {
  // CuTe's documented examples (cute/layout.hpp).
  EXPECT_PRINTS(make_layout_like(make_layout(S<2, 2, 2, 2>(), S<0, 2, 4, 1>())), "(_2,_2,_2,_2):(_0,_2,_4,_1)");
  EXPECT_PRINTS(make_layout_like(make_layout(make_tuple(2, 3, 4, 5), make_tuple(_0{}, 42, _1{}, _0{}))),
                "(2,3,4,5):(_0,4,_1,_0)");
  EXPECT_PRINTS(make_layout_like(make_layout(S<4, 8>(), S<8, 1>())), "(_4,_8):(_8,_1)");
  EXPECT_PRINTS(make_layout_like(make_layout(S<4, 8>(), S<16, 2>())), "(_4,_8):(_8,_1)");
}

TEST(LayoutApi, CoordinatesOfOffsets) {
  auto l = make_layout(make_tuple(2, 4), make_tuple(4, 1));
  EXPECT_PRINTS(l.get_hier_coord(7), "(1,3)");
  EXPECT_PRINTS(l.get_flat_coord(7), "(1,3)");
  EXPECT_PRINTS(l.get_1d_coord(7), "7");
  auto m = make_layout(make_tuple(make_tuple(2, 2), 3), make_tuple(make_tuple(1, 6), 2));
  EXPECT_PRINTS(m.get_hier_coord(7), "((1,1),0)");
  EXPECT_PRINTS(m.get_flat_coord(7), "(3,0)");
  EXPECT_PRINTS(m.get_1d_coord(7), "3");
  EXPECT_PRINTS(make_layout(_8{}, _1{}).get_flat_coord(_5{}), "_5");
  auto s = make_layout(S<2, 4>(), S<4, 1>());
  static_assert(std::is_same_v<decltype(s.get_hier_coord(_6{})), tuple<C<1>, C<2>>>);
  // Not compact: offset 1 is not reached, so the coordinate found is wrong: refused.
  auto gap = make_layout(make_tuple(2, 4), make_tuple(8, 1));
  EXPECT_THROW(gap.get_hier_coord(4), layout_error);
  try {
    (void)gap.get_1d_coord(5);
    FAIL() << "no error";
  } catch (layout_error const& e) {
    EXPECT_NE(std::string(e.what()).find("need a compact layout"), std::string::npos) << e.what();
    EXPECT_NE(std::string(e.what()).find("(2,4):(8,1)"), std::string::npos) << e.what();
  }
}

TEST(LayoutApi, CoshapeCoprofileDomainOffset) {
  EXPECT_PRINTS(coshape(make_layout(S<4, 8>(), S<8, 1>())), "_32");
  EXPECT_PRINTS(coshape(make_layout(make_tuple(4, _8{}), make_tuple(_2{}, 16))), "119");
  EXPECT_PRINTS(coshape(make_layout(_4{}, Int<-2>{})), "_7");
  EXPECT_PRINTS(coshape(make_identity_layout(make_tuple(4, 8))), "(4,8)");
  EXPECT_PRINTS(coshape<1>(make_layout(S<4, 8>(), S<8, 1>())), "_8");
  EXPECT_PRINTS(coprofile(make_identity_layout(make_tuple(4, 8))), "(_0,_0)");
  EXPECT_PRINTS(coprofile(make_layout(make_tuple(4, 8), make_tuple(1, 4))), "_0");
  EXPECT_PRINTS(domain_offset(make_tuple(1, 2), make_layout(make_tuple(4, 8), make_tuple(_1{}, 4))),
                "((4,8):(_1,4),9)");
}

TEST(LayoutApi, FilterZerosUnflattenZipWithShape) {
  EXPECT_PRINTS(filter_zeros(make_layout(make_tuple(4, make_tuple(2, 3)), make_tuple(_0{}, make_tuple(_1{}, 2)))),
                "(_1,(2,3)):(_0,(_1,2))");
  EXPECT_PRINTS(filter_zeros(make_layout(S<4, 2>(), S<1, 4>()), S<0, 1>()), "(_1,_2):(_1,_4)");
  EXPECT_PRINTS(unflatten(make_layout(make_tuple(2, 3, 4), make_tuple(_1{}, 2, 6)), make_tuple(_, make_tuple(_, _))),
                "(2,(3,4)):(_1,(2,6))");
  auto pairs = make_layout(make_tuple(S<2, 3>(), S<4, 5>()), make_tuple(S<1, 2>(), S<6, 24>()));
  EXPECT_PRINTS(zip(pairs), "((_2,_4),(_3,_5)):((_1,_6),(_2,_24))");
  EXPECT_PRINTS(zip(make_layout(S<2, 3>(), S<1, 2>()), make_layout(S<4, 5>(), S<6, 24>())),
                "((_2,_4),(_3,_5)):((_1,_6),(_2,_24))");
  EXPECT_PRINTS(make_layout(_32{}, _1{}).with_shape(_4{}, _8{}), "(_4,_8):(_1,_4)");
  EXPECT_PRINTS(make_layout(S<4, 8>(), S<8, 1>()).with_shape(make_tuple(_8{}, _4{})), "((_4,_2),_4):((_8,_1),_2)");
}

TEST(LayoutApi, TileUnzipEvenlyDividesMaxAlignment) {
  auto a = make_layout(S<6, 20>());
  auto t = S<2, 5>();
  EXPECT_PRINTS(tile_unzip(logical_divide(a, t), t), "((_2,_5),(_3,_4)):((_1,_6),(_2,_30))");
  EXPECT_TRUE(tile_unzip(logical_divide(a, t), t) == zipped_divide(a, t));
  EXPECT_TRUE(tile_unzip(logical_product(a, t), t) == zipped_product(a, t));
  EXPECT_PRINTS(evenly_divides(S<8, 6>(), S<4, 3>()), "_true");
  EXPECT_PRINTS(evenly_divides(make_tuple(8, 6), S<4, 4>()), "false");
  EXPECT_PRINTS(evenly_divides(S<4, 6>(), _8{}), "_true");
  EXPECT_PRINTS(evenly_divides(S<8, 6>(), make_tuple(make_layout(_4{}, _2{}), _3{})), "_true");
  EXPECT_PRINTS(evenly_divides(S<8>(), S<4, 2>()), "_false");  // more tiles than modes
  EXPECT_PRINTS(evenly_divides(make_layout(S<8, 6>()), make_tuple(_, _4{})), "_false");
  // Law: an integer tile divides evenly iff it divides the mode size.
  for (int n = 1; n <= 24; ++n) {
    for (int b = 1; b <= 24; ++b) EXPECT_EQ(bool(evenly_divides(n, b)), n % b == 0) << n << " " << b;
  }
  EXPECT_PRINTS(max_alignment(make_layout(S<4, 8>(), S<1, 4>())), "_32");
  EXPECT_PRINTS(max_alignment(make_layout(S<4, 8>(), S<1, 8>())), "_4");
  EXPECT_PRINTS(max_alignment(make_layout(S<2, 3, 4>(), S<1, 4, 16>())), "_2");
  EXPECT_PRINTS(max_alignment(make_layout(make_tuple(4, _8{}), make_tuple(_1{}, 4))), "_1");
  EXPECT_PRINTS(max_alignment(make_layout(S<4, 8>(), S<8, 1>())), "_32");
  // The alignment found is one upcast accepts.
  static_assert(decltype(size(upcast<4>(make_layout(S<4, 8>(), S<1, 8>()))))::value == 8);
}

// ---- laws over random layouts -------------------------------------------------------------------

TEST(Laws, MakeLayoutLikeCoshapeFilterZerosWithShape) {
  auto c = run_unary<Family::General, 2, 2100>([](auto const& l) {
    // make_layout_like: same shape; injective on the modes of non-zero stride, onto [0, n).
    auto like = make_layout_like(l);
    EXPECT_TRUE(like.shape() == l.shape()) << l;
    auto f = filter_zeros(like);
    std::set<long long> seen;
    for (long long i = 0; i < static_cast<long long>(size(f)); ++i) seen.insert(f(i));
    EXPECT_EQ(static_cast<long long>(seen.size()), static_cast<long long>(size(f))) << l << " -> " << like;
    EXPECT_EQ(*seen.rbegin() + 1, static_cast<long long>(size(f))) << l << " -> " << like;
    // coshape bounds every offset (non-negative strides: it is the cosize).
    EXPECT_EQ(static_cast<long long>(coshape(l)), static_cast<long long>(cosize(l))) << l;
    // filter_zeros: same offsets where defined, filter == coalesce(filter_zeros).
    EXPECT_TRUE(filter(l) == coalesce(filter_zeros(l))) << l;
    // with_shape(size): the same function of 1-D indices.
    auto w = l.with_shape(size(l));
    for (long long i = 0; i < static_cast<long long>(size(l)); ++i)
      EXPECT_EQ(static_cast<long long>(w(i)), static_cast<long long>(l(i))) << l;
    // coordinates of offsets on the compact layout: they map back.
    for (long long i = 0; i < static_cast<long long>(size(f)); ++i) {
      long long const off = f(i);
      EXPECT_EQ(static_cast<long long>(f(f.get_hier_coord(off))), off) << f;
      EXPECT_EQ(static_cast<long long>(f(f.get_flat_coord(off))), off) << f;
      EXPECT_EQ(static_cast<long long>(f(f.get_1d_coord(off))), off) << f;
    }
    // domain_offset
    EXPECT_EQ(static_cast<long long>(get<1>(domain_offset(size(l) - _1{}, l))),
              static_cast<long long>(l(size(l) - _1{})));
    return true;
  });
  expect_coverage(c, "make_layout_like");
}
