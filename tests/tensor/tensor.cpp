// Tensor: construction, access, slicing, the layout algebra on tensors (checked element by
// element against the layout functions), recast, domain_offset, 64-bit offsets.
#include "tensor_test_util.hpp"

#include <cstring>
#include <numeric>
#include <vector>

using namespace tessera;
using tessera::test::offsets;
using tessera::test::v;

TEST(Tensor, AccessByCoordinateIndexAndBracket) {
  std::vector<float> buf(32);
  std::iota(buf.begin(), buf.end(), 0.0f);
  auto t = make_tensor(make_gmem_ptr(buf.data()), make_shape(4, 8), make_stride(8, _1{}));  // (4,8) row-major
  EXPECT_EQ(t(1, 2), 10.0f);
  EXPECT_EQ(t(make_coord(3, 7)), 31.0f);
  EXPECT_EQ(t(5), buf[t.layout()(5)]);  // 1-D index: colexicographic
  EXPECT_EQ(t[5], t(5));
  t(0, 1) = 100.0f;
  EXPECT_EQ(buf[1], 100.0f);
  EXPECT_EQ(v(size(t)), 32);
  EXPECT_EQ(decltype(t)::rank, 2);
  EXPECT_EQ(t.data().get(), buf.data());
  auto u = make_tensor(buf.data(), make_layout(make_shape(_4{}, _8{})));  // raw pointer iterator
  EXPECT_EQ(u(1, 1), buf[5]);
}

TEST(Tensor, SliceIsAViewWithAdvancedIterator) {
  std::vector<int> buf(2 * 3 * 4);
  std::iota(buf.begin(), buf.end(), 0);
  auto t = make_tensor(make_smem_ptr(buf.data()), make_shape(_2{}, _3{}, 4));  // (2,3,4)
  auto s = t(1, _, 2);                                                         // (3)
  EXPECT_PRINTS(s.layout(), "(_3):(_2)");
  EXPECT_EQ(s.data().get(), buf.data() + t.layout()(1, 0, 2));
  for (int j = 0; j < 3; ++j) EXPECT_EQ(s(j), t(1, j, 2));
  auto s2 = t(_, _, 3);  // (2,3)
  for (int i = 0; i < 2; ++i)
    for (int j = 0; j < 3; ++j) EXPECT_EQ(s2(i, j), t(i, j, 3));
  s2(1, 1) = -1;
  EXPECT_EQ(t(1, 1, 3), -1);
}

TEST(Tensor, OwningTensorsForStaticLayouts) {
  auto r = make_tensor<float>(make_layout(make_shape(_4{}, _8{})));  // (4,8) registers
  static_assert(std::is_same_v<decltype(r.engine_), ArrayEngine<float, 32>>);
  static_assert(sizeof(r) == 32 * sizeof(float));
  for (int i = 0; i < 32; ++i) r(i) = float(i);
  auto copy_of_r = r;  // value semantics
  copy_of_r(0) = 42.0f;
  EXPECT_EQ(r(0), 0.0f);
  EXPECT_EQ(r(3, 2), 11.0f);
  EXPECT_EQ(reinterpret_cast<std::uintptr_t>(r.data().get()) % 16, 0u);
  auto col = r(_, 1);  // a view into r's registers
  col(0) = -5.0f;
  EXPECT_EQ(r(0, 1), -5.0f);

  std::vector<double> buf(64);
  auto g = make_tensor(make_gmem_ptr(buf.data()), make_shape(64, 64), make_stride(64, _1{}));
  auto tile = local_tile(g, make_shape(_8{}, _4{}), make_coord(1, 2));  // (8,4) static shape
  auto frag = make_tensor_like(tile);                                   // (8,4) registers of double
  static_assert(std::is_same_v<decltype(frag)::value_type, double>);
  EXPECT_PRINTS(frag.layout(), "(_8,_4):(_1,_8)");
  auto frag2 = make_fragment_like(tile);
  EXPECT_PRINTS(frag2.layout(), "(_8,_4):(_1,_8)");
  // Static strides order the rest modes; the basis-vector strides of a coordinate tensor do not.
  auto ordered = make_fragment_like<float>(make_layout(make_shape(_2{}, _4{}, _3{}), make_stride(_1{}, _16{}, _2{})));
  EXPECT_PRINTS(ordered.layout(), "(_2,_4,_3):(_1,_6,_2)");
  auto coords = local_tile(make_identity_tensor(make_shape(_16{}, _8{})), make_shape(_4{}, _8{}), make_coord(1, 0));
  auto frag3 = make_fragment_like<float>(coords);
  EXPECT_PRINTS(frag3.layout(), "(_4,_8):(_1,_4)");
  auto tmp = make_tensor_like<float>(make_layout(make_shape(_8{})));  // the SGEMM tutorial's tmp_A
  EXPECT_PRINTS(tmp.layout(), "(_8):(_1)");
  static_assert(std::is_same_v<decltype(tmp)::value_type, float>);
}

// make_tensor_like keeps the source's stride order (as CuTe's make_layout_like), broadcast (_0)
// modes stay broadcast; make_fragment_like keeps broadcasts in mode 0 too.
TEST(Tensor, LikeTensorsKeepTheStrideOrder) {
  auto row_major = make_layout(make_shape(_4{}, _2{}), make_stride(_2{}, _1{}));
  EXPECT_PRINTS(make_tensor_like<float>(row_major).layout(), "(_4,_2):(_2,_1)");
  EXPECT_PRINTS(tensor_layout_like(make_layout(make_shape(_2{}, _3{}, _4{}), make_stride(_12{}, _1{}, _3{}))),
                "(_2,_3,_4):(_12,_1,_3)");
  EXPECT_PRINTS(
      tensor_layout_like(make_layout(make_shape(_2{}, _2{}, _2{}, _2{}), make_stride(_0{}, _2{}, _4{}, _1{}))),
      "(_2,_2,_2,_2):(_0,_2,_4,_1)");
  EXPECT_PRINTS(tensor_layout_like(make_layout(make_shape(_2{}, _3{}), make_stride(_0{}, _7{}))), "(_2,_3):(_0,_1)");
  // A strided source becomes compact in the same order: (_3,_2):(_10,_1) -> (_3,_2):(_2,_1).
  auto t = make_tensor_like<int>(make_layout(make_shape(_3{}, _2{}), make_stride(_10{}, _1{})));
  EXPECT_PRINTS(t.layout(), "(_3,_2):(_2,_1)");
  EXPECT_EQ(v(cosize(t.layout())), 6);
  // A broadcast mode takes no storage: 3 ints, not 6.
  auto b = make_tensor_like<int>(make_layout(make_shape(_2{}, _3{}), make_stride(_0{}, _1{})));
  EXPECT_EQ(v(cosize(b.layout())), 3);
  // Dynamic strides have no static order: column-major.
  EXPECT_PRINTS(tensor_layout_like(make_layout(make_shape(_2{}, _3{}), make_stride(3, 1))), "(_2,_3):(_1,_2)");
  // make_fragment_like: mode 0 compact (its broadcasts kept), the rest in stride order after it.
  EXPECT_PRINTS(fragment_layout_like(make_layout(make_shape(_2{}, _4{}), make_stride(_0{}, _1{}))), "(_2,_4):(_0,_1)");
  // A swizzled layout's fragment is that of its inner layout (registers are not swizzled).
  auto sw = composition(Swizzle<3, 3, 3>{}, make_layout(make_shape(_8{}, _64{}), make_stride(_64{}, _1{})));
  EXPECT_PRINTS(make_fragment_like<float>(sw).layout(), "(_8,(_64)):(_1,(_8))");
  EXPECT_PRINTS(fragment_layout_like(make_layout(make_shape(make_shape(_2{}, _2{}), _3{}, _2{}),
                                                 make_stride(make_stride(_1{}, _0{}), _2{}, _64{}))),
                "((_2,_2),_3,_2):((_1,_0),_2,_6)");
}

// Law: tensor_layout_like(L) has L's shape, the relative order of L's non-zero strides, _0 where L
// has a static _0, and is a bijection of the non-broadcast coordinates onto [0, cosize).
// make_fragment_like of a layout is a layout, as in CuTe; the expected text is what CuTe's
// make_fragment_like prints for the same layouts (CUTLASS 3.x headers, checked by hand).
TEST(Tensor, FragmentLikeOfALayoutIsCuTes) {
  EXPECT_PRINTS(make_fragment_like(make_layout(make_shape(_8{}, _64{}))), "(_8,(_64)):(_1,(_8))");
  EXPECT_PRINTS(make_fragment_like(make_layout(make_shape(_8{}, _64{}), LayoutRight{})), "(_8,(_64)):(_1,(_8))");
  EXPECT_PRINTS(make_fragment_like(make_layout(make_shape(_8{}, _4{}, _2{}))), "(_8,_4,_2):(_1,_8,_32)");
  EXPECT_PRINTS(make_fragment_like(make_layout(make_shape(_8{}, make_shape(_4{}, _2{})))),
                "(_8,((_4,_2))):(_1,((_8,_32)))");
  EXPECT_PRINTS(make_fragment_like(make_layout(make_shape(_8{}))), "(_8):(_1)");
  EXPECT_PRINTS(make_fragment_like(
                    make_layout(make_shape(make_shape(_2{}, _4{}), _4{}), make_stride(make_stride(_16{}, _1{}), _4{}))),
                "((_2,_4),(_4)):((_1,_2),(_8))");
  // A swizzled layout's fragment is not swizzled.
  EXPECT_PRINTS(
      make_fragment_like(composition(Swizzle<3, 3, 3>{}, make_layout(make_shape(_8{}, _64{}), LayoutRight{}))),
      "(_8,(_64)):(_1,(_8))");
}

TEST(Tensor, TensorLayoutLikeLaw) {
  auto check = [](auto const& L) {
    auto R = tensor_layout_like(L);
    EXPECT_EQ(to_string(shape(R)), to_string(shape(L)));
    auto fl = flatten(L);
    auto fr = flatten(R);
    constexpr int n = rank_v<decltype(fl.shape())>;
    long long kept = 1;
    [&]<int... Is>(std::integer_sequence<int, Is...>) {
      long long ds[] = {(long long)(get<Is>(fl.stride()))...};
      long long rs[] = {(long long)(get<Is>(fr.stride()))...};
      long long ss[] = {(long long)(get<Is>(fl.shape()))...};
      for (int i = 0; i < n; ++i) {
        EXPECT_EQ(ds[i] == 0 && ss[i] != 1, rs[i] == 0 && ss[i] != 1) << to_string(L) << " -> " << to_string(R);
        if (ds[i] != 0) kept *= ss[i];
        for (int j = 0; j < n; ++j)
          if (ds[i] != 0 && ds[j] != 0 && ds[i] < ds[j] && ss[i] > 1 && ss[j] > 1)
            EXPECT_LT(rs[i], rs[j]) << to_string(L);
      }
    }(std::make_integer_sequence<int, n>{});
    std::vector<int> hit(std::size_t(kept), 0);
    for (int i = 0; i < int(size(R)); ++i) {
      long long o = (long long)R(i);
      ASSERT_GE(o, 0);
      ASSERT_LT(o, kept);
      hit[std::size_t(o)] = 1;
    }
    for (int h : hit) EXPECT_EQ(h, 1);
  };
  check(make_layout(make_shape(_4{}, _3{}, _2{}), make_stride(_1{}, _8{}, _4{})));
  check(make_layout(make_shape(_4{}, _3{}, _2{}), make_stride(_6{}, _2{}, _1{})));
  check(make_layout(make_shape(_4{}, _3{}, _2{}), make_stride(_0{}, _5{}, _1{})));
  check(make_layout(make_shape(make_shape(_2{}, _2{}), _3{}), make_stride(make_stride(_16{}, _1{}), _0{})));
  check(make_layout(make_shape(_5{}, _1{}, _3{}), make_stride(_3{}, _0{}, _1{})));
}

TEST(Tensor, AlgebraOnTensorsMatchesTheLayouts) {
  auto L = make_layout(make_shape(_8{}, 6), make_stride(_1{}, 8));  // (8,6) mixed
  auto t = offsets(L);
  auto check = [&](auto const& view, auto const& layout) {
    ASSERT_EQ(to_string(view.layout()), to_string(layout));
    for (long long i = 0; i < v(size(layout)); ++i) ASSERT_EQ(view(i), v(layout(i)));
  };
  auto tiler = make_shape(_4{}, _3{});
  check(logical_divide(t, tiler), logical_divide(L, tiler));
  check(zipped_divide(t, tiler), zipped_divide(L, tiler));
  check(tiled_divide(t, tiler), tiled_divide(L, tiler));
  check(flat_divide(t, tiler), flat_divide(L, tiler));
  check(composition(t, make_layout(make_shape(_4{}, _2{}), make_stride(_2{}, _1{}))),
        composition(L, make_layout(make_shape(_4{}, _2{}), make_stride(_2{}, _1{}))));
  check(flatten(zipped_divide(t, tiler)), flatten(zipped_divide(L, tiler)));
  check(coalesce(t), coalesce(L));
  auto t3 = offsets(make_layout(make_shape(2, _3{}, 4)));
  auto g = group_modes<0, 2>(t3);  // ((2,3),4)
  EXPECT_PRINTS(g.layout(), "((2,_3),4):((_1,2),6)");
  for (int i = 0; i < 24; ++i) EXPECT_EQ(g(i), t3(i));
  EXPECT_PRINTS(zipped_divide(t, tiler).layout(), "((_4,_3),(_2,2)):((_1,8),(_4,24))");
}

TEST(Tensor, RecastAndDomainOffset) {
  alignas(16) float buf[32];
  for (int i = 0; i < 32; ++i) buf[i] = float(i);
  auto t = make_tensor(make_gmem_ptr(buf), make_layout(make_shape(_4{}, _8{}), make_stride(_8{}, _1{})));
  auto d = recast<double>(t);  // same memory, 64-bit elements
  EXPECT_PRINTS(d.layout(), "(_4,_4):(_4,_1)");
  EXPECT_EQ(static_cast<void*>(d.data().get()), static_cast<void*>(buf));
  double x = d(1, 2);
  EXPECT_EQ(std::memcmp(&x, &buf[8 + 4], sizeof(double)), 0);
  auto h = recast<std::uint16_t>(t);  // narrower: (4,16):(16,1)
  EXPECT_PRINTS(h.layout(), "(_4,_16):(_16,_1)");
  auto o = domain_offset(make_coord(1, 3), t);
  EXPECT_EQ(o(0, 0), t(1, 3));
  EXPECT_EQ(o(2, 4), t(3, 7));
}

TEST(Tensor, SixtyFourBitOffsetsBeyondTwoToThe31) {
  // 65536 x 65536 elements (2^32), never allocated: a counting iterator gives the offsets.
  auto L = make_layout(make_shape(std::int64_t(65536), std::int64_t(65536)), LayoutRight{});
  auto t = make_tensor(CountingIterator<std::int64_t>(0), L);
  EXPECT_EQ(t(65535, 65535), (std::int64_t(1) << 32) - 1);
  EXPECT_EQ(t(40000, 3), std::int64_t(40000) * 65536 + 3);
  auto gA = local_tile(t, make_shape(_128{}, _64{}), make_coord(400, _));  // (128,64,1024)
  EXPECT_EQ(gA(5, 7, 1000), (std::int64_t(400) * 128 + 5) * 65536 + 1000 * 64 + 7);
  // A float pointer advanced by a 64-bit offset: pointer arithmetic only, no access.
  float* base = nullptr;
  auto p = make_tensor(make_gmem_ptr(base), L);
  auto slice = p(65535, _);
  EXPECT_EQ(reinterpret_cast<std::uintptr_t>(slice.data().get()), std::uintptr_t(65535) * 65536 * sizeof(float));
  // The same extents in 32-bit integers are rejected with a message that says what to do.
  try {
    (void)make_tensor(make_gmem_ptr(base), make_shape(65536, 65536));
    FAIL() << "expected layout_error";
  } catch (layout_error const& e) {
    EXPECT_NE(std::string(e.what()).find("use 64-bit shape integers"), std::string::npos) << e.what();
  }
}

TEST(Tensor, CountingIteratorEvaluatesTheLayout) {
  auto L = make_layout(make_shape(_3{}, make_shape(2, _2{})), make_stride(_5{}, make_stride(1, _16{})));
  auto t = make_tensor(CountingIterator<int>(0), L);
  for (int i = 0; i < 12; ++i) EXPECT_EQ(t(i), L(i));
  auto it = CountingIterator<int>(7) + 5;
  EXPECT_EQ(*it, 12);
  EXPECT_PRINTS(make_tensor(CountingIterator<int>(0), make_shape(4, 8)), "counting_iter(0) o (4,8):(_1,4)");
}
