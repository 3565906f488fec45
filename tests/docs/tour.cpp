// The C++ snippets of README.md and docs/*.md, compiled and run. Each snippet sits between
// `// [snippet:NAME]` and `// [end-snippet]`; the markdown shows it after `<!-- snippet:NAME -->`,
// and the test docs.snippets_match (check_snippets.sh) fails when the two copies differ.
// EXPECT_EQ(to_string(x), "...") lines double as "this prints ..." in the docs.
#include <gtest/gtest.h>

#include <cstdint>
#include <string>

// [snippet:include]
#include "tessera/tessera.hpp"          // the compile-time algebra
#include "tessera/runtime/eval.hpp"     // the run-time twin and the expression evaluator
using namespace tessera;
// [end-snippet]
#include "tessera/atom/copy_traits_sm75.hpp"  // docs/atoms.md
#include "tessera/atom/copy_atom.hpp"
#include "tessera/atom/names.hpp"  // docs/eval.md
#include "tessera/atom/copy_traits_sm80.hpp"
#include "tessera/atom/mma_traits_sm80.hpp"
#include "tessera/atom/mma_traits_sm90.hpp"  // docs/advise.md
#include "tessera/tools/check.hpp"

// ---- README.md ---------------------------------------------------------------------------------

TEST(Readme, Basics) {
  // [snippet:readme_basics]
  auto a = make_layout(make_tuple(_2{}, 4), make_tuple(4, _1{}));  // (i,j) -> 4i + j
  EXPECT_EQ(to_string(a), "(_2,4):(4,_1)");   // _2 static, 4 dynamic
  EXPECT_EQ(a(1, 3), 7);                       // evaluate at a coordinate
  auto b = make_layout(make_tuple(_6{}, _2{}), make_tuple(_8{}, _2{}));
  auto c = make_layout(make_tuple(_4{}, _3{}), make_tuple(_3{}, _1{}));
  auto r = composition(b, c);                  // r(i) == b(c(i)) for every i
  EXPECT_EQ(to_string(r), "((_2,_2),_3):((_24,_2),_8)");
  static_assert(std::is_empty_v<decltype(r)>); // all static: computed at compile time
  // [end-snippet]
}

TEST(Readme, Seed) {
  // [snippet:readme_tv]
  auto mA = make_layout(make_tuple(2048, 2048), make_tuple(2048, _1{}));  // (m,n) -> offset
  EXPECT_EQ(to_string(zipped_divide(mA, make_tuple(_1{}, _4{}))),
            "((_1,_4),(2048,512)):((_0,_1),(2048,_4))");                 // ((vec),(m,n/4))
  auto thr = make_layout(make_tuple(_4{}, _32{}), make_tuple(_32{}, _1{}));
  auto val = make_layout(make_tuple(_4{}, _8{}), make_tuple(_8{}, _1{}));
  auto tv_pair = make_layout_tv(thr, val);     // (tiler, (thread,value) -> index in the tile)
  EXPECT_EQ(to_string(get<0>(tv_pair)), "(_16,_256)");
  EXPECT_EQ(to_string(get<1>(tv_pair)), "((_32,_4),(_8,_4)):((_128,_4),(_16,_1))");
  auto tile = layout<0>(zipped_divide(mA, get<0>(tv_pair)));            // (16,256) -> offset
  EXPECT_EQ(to_string(composition(tile, get<1>(tv_pair))),              // (thread,value) -> offset
            "((_32,_4),(_8,_4)):((_8,8192),(_1,2048))");
  // [end-snippet]
}

TEST(Readme, Errors) {
  // [snippet:readme_errors]
  std::string message;
  try {
    (void)make_layout(make_tuple(65536, 65536));  // 2^32 elements in 32-bit integers
  } catch (layout_error const& e) {
    message = e.what();
  }
  EXPECT_EQ(message,
            "make_layout: the layout's size does not fit the integer type of its shape; "
            "use 64-bit shape integers (e.g. int64_t) (got (65536,65536), (_1,65536))");
  // [end-snippet]
}

// ---- docs/eval.md ----------------------------------------------------------------------------

TEST(EvalDoc, LibraryUse) {
  // [snippet:eval_library]
  tessera::rt::Value v = tessera::rt::evaluate("logical_divide(_1000:_1, _128:_1)");  // throws eval_error
  tessera::rt::EvalResult r = tessera::rt::eval_line("size((2,3))");  // {ok, text}; never throws layout_error
  EXPECT_EQ(tessera::rt::to_string(v), "(_128,_8):(_1,_128)");
  EXPECT_EQ(r.text, "6");
  // Names (atoms) come from a table: tessera/atom/names.hpp.
  tessera::rt::EvalResult c = tessera::rt::eval_line("layout_c(SM80_16x8x16_F32F16F16F32_TN)", tessera::atom_names());
  EXPECT_EQ(c.text, "((_4,_8),(_2,_2)):((_32,_1),(_16,_8))");
  // [end-snippet]
}

TEST(EvalDoc, CoordinateLayouts) {
  // [snippet:eval_coordinates]
  namespace rt = tessera::rt;
  rt::Layout id = rt::make_identity_layout(rt::evaluate("(100,37)").as<rt::IntTuple>());  // (m,n) -> (m,n)
  rt::Layout tiles = rt::zipped_divide(id, rt::make_tiler(rt::evaluate("(_16,_8)").as<rt::IntTuple>()));
  EXPECT_EQ(rt::to_string(tiles), "((_16,_8),(7,5)):((_1@0,_1@1),(_16@0,_8@1))");
  rt::IntTuple c = rt::evaluate_any(tiles, rt::evaluate("(15,(6,4))").as<rt::IntTuple>());  // a coordinate tuple
  EXPECT_EQ(rt::to_string(c), "(111,32)");
  EXPECT_FALSE(rt::elem_less(c, rt::evaluate("(100,37)").as<rt::IntTuple>()).value);  // outside the tensor
  // [end-snippet]
}

// ---- docs/tour.md ------------------------------------------------------------------------------

TEST(Tour, Integers) {
  // [snippet:tour_integers]
  auto s = _8{};                                // static: the value lives in the type
  int d = 8;                                    // dynamic: any integral type
  EXPECT_EQ(to_string(s * _4{}), "_32");        // static op static is static
  EXPECT_EQ(s * d, 64);                         // anything with a dynamic operand is dynamic
  EXPECT_EQ(to_string(_0{} * d), "_0");         // ... except the absorbing rules (_0 * x)
  static_assert(decltype(s * _4{})::value == 32);
  auto big = Int<2048>{};                       // Int<n> for any n; _1.._10, _12, _16, ... exist
  EXPECT_EQ(to_string(big), "_2048");
  // [end-snippet]
}

TEST(Tour, Tuples) {
  // [snippet:tour_tuples]
  auto t = make_tuple(make_tuple(_2{}, 3), _4{});  // an IntTuple
  EXPECT_EQ(to_string(t), "((_2,3),_4)");
  EXPECT_EQ(to_string(rank(t)), "_2");           // top-level modes
  EXPECT_EQ(to_string(depth(t)), "_2");          // nesting depth
  EXPECT_EQ(size(t), 24);                        // product of the leaves (dynamic: 3 is)
  EXPECT_EQ(to_string(flatten(t)), "(_2,3,_4)");
  EXPECT_EQ(to_string(get<0>(t)), "(_2,3)");
  // [end-snippet]
}

TEST(Tour, Layouts) {
  // [snippet:tour_layouts]
  auto col = make_layout(make_tuple(2, 3, 5, 7));                // column-major by default
  EXPECT_EQ(to_string(col), "(2,3,5,7):(_1,2,6,30)");
  auto row = make_layout(make_tuple(2, 3, 4), LayoutRight{});    // row-major
  EXPECT_EQ(to_string(row), "(2,3,4):(12,4,_1)");
  auto one = make_layout(make_tuple(_4{}, _1{}, _2{}));          // a static size-1 mode gets _0
  EXPECT_EQ(to_string(one), "(_4,_1,_2):(_1,_0,_4)");
  EXPECT_EQ(to_string(select<1, 3>(col)), "(3,7):(2,30)");
  EXPECT_EQ(to_string(take<1, 3>(col)), "(3,5):(2,6)");
  EXPECT_EQ(to_string(group<0, 2>(col)), "((2,3),5,7):((_1,2),6,30)");
  EXPECT_EQ(size(col), 210);
  EXPECT_EQ(cosize(row), 24);                                    // largest offset + 1
  // [end-snippet]
}

TEST(Tour, Coordinates) {
  // [snippet:tour_coordinates]
  auto L = make_layout(make_tuple(_3{}, make_tuple(_2{}, _3{})),
                       make_tuple(_3{}, make_tuple(_12{}, _1{})));  // (_3,(_2,_3)):(_3,(_12,_1))
  EXPECT_EQ(L(16), 17);                            // 1-D index, colexicographic
  EXPECT_EQ(L(1, 5), 17);                          // one integer per top-level mode
  EXPECT_EQ(L(1, make_tuple(1, 2)), 17);           // natural coordinate
  EXPECT_EQ(to_string(idx2crd(16, L.shape())), "(1,(1,2))");
  EXPECT_EQ(to_string(L(_1{}, _5{})), "_17");      // static coordinates give a static offset
  // [end-snippet]
}

TEST(Tour, Slicing) {
  // [snippet:tour_slicing]
  auto A = make_layout(make_tuple(make_tuple(_3{}, _2{}), make_tuple(_2{}, _5{}, _2{})),
                       make_tuple(make_tuple(_4{}, _1{}), make_tuple(_2{}, Int<13>{}, Int<100>{})));
  EXPECT_EQ(to_string(A(2, _)), "((_2,_5,_2)):((_2,_13,_100))");        // keep mode 1
  EXPECT_EQ(to_string(A(make_tuple(_, 1), make_tuple(0, _, 1))), "(_3,_5):(_4,_13)");
  auto so = slice_and_offset(make_tuple(make_tuple(1, _), make_tuple(_, 3, _)), A);
  EXPECT_EQ(to_string(get<0>(so)), "(_2,_2,_2):(_1,_2,_100)");          // the kept modes
  EXPECT_EQ(get<1>(so), 43);                                             // offset of the fixed part
  // [end-snippet]
}

TEST(Tour, Coalesce) {
  // [snippet:tour_coalesce]
  auto a = make_layout(make_tuple(_2{}, make_tuple(_1{}, _6{})), make_tuple(_1{}, make_tuple(_6{}, _2{})));
  EXPECT_EQ(to_string(coalesce(a)), "_12:_1");                         // same function, fewer modes
  EXPECT_EQ(to_string(coalesce(a, make_tuple(_1{}, _1{}))), "(_2,_6):(_1,_2)");  // per mode
  auto d = make_layout(make_tuple(4, 8), make_tuple(_1{}, 4));
  EXPECT_EQ(to_string(coalesce(d)), "(4,8):(_1,4)");                   // dynamic: not merged
  // [end-snippet]
}

TEST(Tour, Composition) {
  // [snippet:tour_composition]
  auto A = make_layout(make_tuple(_12{}, make_tuple(_4{}, _8{})),
                       make_tuple(Int<59>{}, make_tuple(Int<13>{}, _1{})));
  auto tiler = make_tuple(make_layout(_3{}, _4{}), make_layout(_8{}, _2{}));  // [_3:_4, _8:_2]
  EXPECT_EQ(to_string(composition(A, tiler)), "(_3,(_2,_4)):(_236,(_26,_1))");  // mode by mode
  EXPECT_EQ(to_string(composition(A, make_tuple(_3{}, _8{}))), "(_3,(_4,_2)):(_59,(_13,_1))");
  auto B = make_layout(Int<20>{}, _2{});
  EXPECT_EQ(to_string(composition(B, make_layout(make_tuple(_5{}, _4{}), make_tuple(_4{}, _1{})))),
            "(_5,_4):(_8,_2)");
  // [end-snippet]
}

TEST(Tour, Complement) {
  // [snippet:tour_complement]
  EXPECT_EQ(to_string(complement(make_layout(_4{}, _2{}), _24{})), "(_2,_3):(_1,_8)");
  EXPECT_EQ(to_string(complement(make_layout(_6{}, _4{}), _24{})), "_4:_1");
  auto two = make_layout(make_tuple(_2{}, _2{}), make_tuple(_1{}, _6{}));
  EXPECT_EQ(to_string(complement(two, _24{})), "(_3,_2):(_2,_12)");
  // [end-snippet]
}

TEST(Tour, Divide) {
  // [snippet:tour_divide]
  auto v = make_layout(Int<1000>{});                               // _1000:_1
  EXPECT_EQ(to_string(logical_divide(v, make_layout(_128{}))), "(_128,_8):(_1,_128)");  // rounds up
  auto A = make_layout(make_tuple(_9{}, make_tuple(_4{}, _8{})),
                       make_tuple(Int<59>{}, make_tuple(Int<13>{}, _1{})));
  auto T = make_tuple(make_layout(_3{}, _3{}),
                      make_layout(make_tuple(_2{}, _4{}), make_tuple(_1{}, _8{})));
  EXPECT_EQ(to_string(logical_divide(A, T)),
            "((_3,_3),((_2,_4),(_2,_2))):((_177,_59),((_13,_2),(_26,_1)))");
  EXPECT_EQ(to_string(zipped_divide(A, T)),  // ((tile),(rest))
            "((_3,(_2,_4)),(_3,(_2,_2))):((_177,(_13,_2)),(_59,(_26,_1)))");
  EXPECT_EQ(to_string(tiled_divide(A, T)),   // ((tile),rest...)
            "((_3,(_2,_4)),_3,(_2,_2)):((_177,(_13,_2)),_59,(_26,_1))");
  EXPECT_EQ(to_string(flat_divide(A, T)),    // (tile...,rest...)
            "(_3,(_2,_4),_3,(_2,_2)):(_177,(_13,_2),_59,(_26,_1))");
  // [end-snippet]
}

TEST(Tour, Product) {
  // [snippet:tour_product]
  auto a = make_layout(make_tuple(_2{}, _2{}), make_tuple(_4{}, _1{}));
  EXPECT_EQ(to_string(logical_product(a, make_layout(_6{}, _1{}))), "((_2,_2),(_2,_3)):((_4,_1),(_2,_8))");
  auto blk = make_layout(make_tuple(_2{}, _5{}), make_tuple(_5{}, _1{}));
  auto rep = make_layout(make_tuple(_3{}, _4{}), make_tuple(_1{}, _3{}));
  EXPECT_EQ(to_string(blocked_product(blk, rep)), "((_2,_3),(_5,_4)):((_5,_10),(_1,_30))");
  EXPECT_EQ(to_string(raked_product(blk, rep)), "((_3,_2),(_4,_5)):((_10,_5),(_30,_1))");
  auto atom = make_layout(make_tuple(_8{}, _8{}), make_tuple(_8{}, _1{}));
  EXPECT_EQ(to_string(tile_to_shape(atom, make_tuple(_64{}, _32{}))),
            "((_8,_8),(_8,_4)):((_8,_64),(_1,_512))");
  // [end-snippet]
}

TEST(Tour, ThreadValue) {
  // [snippet:tour_tv]
  auto thr = make_layout(make_tuple(_2{}, _4{}), make_tuple(_4{}, _1{}));  // (tm,tn) -> thread
  auto val = make_layout(make_tuple(_2{}, _2{}), make_tuple(_2{}, _1{}));  // (vm,vn) -> value
  auto tv_pair = make_layout_tv(thr, val);
  auto tiler = get<0>(tv_pair);  // the (m,n) tile that 8 threads x 4 values cover
  auto tv = get<1>(tv_pair);     // (thread,value) -> column-major index in the tile
  EXPECT_EQ(to_string(tiler), "(_4,_8)");
  EXPECT_EQ(to_string(tv), "((_4,_2),(_2,_2)):((_8,_2),(_4,_1))");
  auto idx = tv(5, 3);           // thread 5, value 3
  EXPECT_EQ(idx % 4, 3);         // row m = idx % 4
  EXPECT_EQ(idx / 4, 3);         // column n = idx / 4
  // [end-snippet]
}

TEST(Tour, Swizzle) {
  // [snippet:tour_swizzle]
  Swizzle<3, 3, 3> sw;           // x ^ ((x >> 3) & 0b111000): row bits into chunk bits
  EXPECT_EQ(to_string(sw), "Sw<3,3,3>");
  EXPECT_EQ(sw(64), 72);
  EXPECT_EQ(sw(sw(64)), 64);     // an involution
  auto smem = composition(sw, make_layout(make_tuple(_8{}, _64{}), make_tuple(_64{}, _1{})));
  EXPECT_EQ(to_string(smem), "Sw<3,3,3> o _0 o (_8,_64):(_64,_1)");
  EXPECT_EQ(smem(1, 8), 64);     // element (1,8) lands in chunk 0 of row 1
  EXPECT_EQ(to_string(smem(_3{}, _)), "Sw<3,3,3> o _192 o (_64):(_1)");  // a row
  // [end-snippet]
}

TEST(Tour, Errors) {
  // [snippet:tour_errors]
  auto a = make_layout(make_tuple(4, 8), make_tuple(1, 100));  // dynamic: checked at run time
  std::string message;
  try {
    auto r = composition(a, make_layout(3, 3));
    (void)r;
  } catch (layout_error const& e) {
    message = e.what();
  }
  EXPECT_EQ(message,
            "composition: B's stride and a mode size of A do not divide one another (stride "
            "divisibility) and B's elements do not fit in that mode, so A o B is not a layout; "
            "choose a B whose stride divides A's mode sizes or is a multiple of them (got (4,8), "
            "(1,100), 3, 3)");
  // [end-snippet]
}

TEST(Tour, SixtyFourBit) {
  // [snippet:tour_int64]
  auto big = make_layout(make_tuple(int64_t(65536), int64_t(65536)), LayoutRight{});
  EXPECT_EQ(to_string(big), "(65536,65536):(65536,_1)");
  EXPECT_EQ(size(big), int64_t(1) << 32);
  EXPECT_EQ(big(65535, 65535), (int64_t(1) << 32) - 1);
  EXPECT_THROW(make_layout(make_tuple(65536, 65536)), layout_error);  // int: too small
  // [end-snippet]
}

TEST(Tour, Runtime) {
  // [snippet:tour_runtime]
  rt::Value v = rt::evaluate("logical_divide(_1000:_1, _128:_1)");  // throws rt::eval_error
  EXPECT_EQ(rt::to_string(v), "(_128,_8):(_1,_128)");
  rt::EvalResult ok = rt::eval_line("make_layout_tv((_2,_4):(_4,_1), (_2,_2):(_2,_1))");
  EXPECT_EQ(ok.text, "((_4,_8),((_4,_2),(_2,_2)):((_8,_2),(_4,_1)))");
  rt::EvalResult bad = rt::eval_line("size((2,3");                    // never throws
  EXPECT_FALSE(bad.ok);
  EXPECT_EQ(bad.text, "error: expected ',' or ')', got end of input at input column 10");
  // [end-snippet]
}

// ---- docs/atoms.md -----------------------------------------------------------------------------

TEST(Atoms, AccumulatorLayout) {
  // [snippet:atoms_accumulator]
  using Mma = MMA_Traits<SM80_16x8x16_F32F16F16F32_TN>;
  auto c = Mma::CLayout{};  // (thr,val) -> m + 16 n in the 16x8 tile of C and D
  EXPECT_EQ(to_string(c), "((_4,_8),(_2,_2)):((_32,_1),(_16,_8))");
  int const idx = c(5, 2);  // lane 5, its value c2
  EXPECT_EQ(idx % 16, 9);   // m = groupID + 8 = 5/4 + 8
  EXPECT_EQ(idx / 16, 2);   // n = 2 threadID_in_group = 2 (5%4)
  EXPECT_EQ(to_string(Mma::Shape_MNK{}), "(_16,_8,_16)");
  static_assert(std::is_same_v<Mma::ValTypeA, half_t> && std::is_same_v<Mma::ValTypeD, float>);
  // [end-snippet]
}

TEST(Atoms, LdmatrixLayout) {
  // [snippet:atoms_ldmatrix]
  using Ldsm = Copy_Traits<SM75_U32x4_LDSM_N>;
  EXPECT_EQ(to_string(Ldsm::SrcLayout{}), "(_32,_128):(_128,_1)");               // lane t names row t
  EXPECT_EQ(to_string(Ldsm::DstLayout{}), "(_32,(_32,_4)):(_32,(_1,_1024))");    // (lane, bit of 4 regs)
  int const bit = Ldsm::DstLayout{}(6, 32 * 3 + 16);  // lane 6, register 3, high half
  EXPECT_EQ(bit / 1024, 3);                           // matrix 3
  EXPECT_EQ(bit % 1024 / 128, 1);                     // row 6/4 = 1
  EXPECT_EQ(bit % 128 / 16, 5);                       // column 2 (6%4) + 1 = 5
  // [end-snippet]
}

TEST(Atoms, TiledMMA) {
  // [snippet:atoms_tiled_mma]
  // 2x2 warps of m16n8k16; the N tile of 32 gives each warp two n8 atoms (16 columns), so that one
  // ldmatrix.x4 feeds both.
  auto mma = make_tiled_mma(SM80_16x8x16_F32F16F16F32_TN{},   // the atom
                            Layout<Shape<_2, _2, _1>>{},      // (m,n,k) -> atom: 128 threads
                            make_tile(_32{}, _32{}, _16{}));  // the tile one step covers
  EXPECT_EQ(to_string(mma.get_layoutC_TV()),  // (thread,value) -> m + 32 n
            "((_4,_8,_2,_2),((_2,_2),(_1,_2))):((_64,_1,_16,_256),((_32,_8),(_0,_512)))");
  // [end-snippet]
  // [snippet:atoms_partition]
  auto sA = make_tensor(make_counting_iterator(0), make_layout(make_shape(_128{}, _32{}), LayoutRight{}));  // (m,k)
  auto thr = mma.get_slice(37);               // thread 37's view
  auto tCsA = thr.partition_A(sA);            // (MMA,MMA_M,MMA_K): one atom's values, then repeats
  auto tCrA = thr.partition_fragment_A(sA);   // registers shaped like it, of the atom's value type
  EXPECT_EQ(to_string(tCsA.layout()), "((_2,_2,_2),_4,_2):((_1,_256,_8),_1024,_16)");
  EXPECT_EQ(to_string(tCrA.layout()), "((_2,_2,_2),_4,_2):((_1,_2,_4),_16,_8)");
  static_assert(std::is_same_v<decltype(tCrA)::value_type, half_t>);
  // [end-snippet]
  // [snippet:atoms_retile]
  auto s2r = make_tiled_copy_A(Copy_Atom<SM75_U32x4_LDSM_N, half_t>{}, mma);
  auto s2r_thr = s2r.get_slice(37);
  EXPECT_EQ(to_string(s2r_thr.partition_S(sA).layout()), "((_8,_1),_4,_2):((_1,_0),_1024,_16)");  // row addresses
  EXPECT_EQ(to_string(s2r_thr.retile_D(tCrA).layout()), "((_8,_1),_4,_2):((_1,_0),_16,_8)");      // tCrA's registers
  // [end-snippet]
}

TEST(Atoms, TiledCopy) {
  // [snippet:atoms_tiled_copy]
  auto g2s = make_tiled_copy(Copy_Atom<SM80_CP_ASYNC_CACHEGLOBAL<uint128_t>, half_t>{},
                             Layout<Shape<_32, _4>, Stride<_4, _1>>{},  // 32 rows x 4 vectors
                             Layout<Shape<_1, _8>>{});                 // 8 contiguous elements each
  auto gA = make_tensor(make_counting_iterator(0), make_layout(make_shape(_128{}, _32{}), LayoutRight{}));
  auto tAgA = g2s.get_slice(5).partition_S(gA);  // (CPY,CPY_M,CPY_K): one cp.async per vector
  EXPECT_EQ(to_string(tAgA.layout()), "((_8,_1),_4,_1):((_1,_0),_1024,_0)");
  EXPECT_EQ(tAgA(0), 40);  // thread 5: row 1, elements 8..15
  // [end-snippet]
}

// ---- docs/from-cute.md -------------------------------------------------------------------------

TEST(FromCute, Conveniences) {
  // [snippet:from_cute_conveniences]
  using SmemLayoutA = Layout<Shape<_128, _8>>;               // default stride: (_1,_128)
  float smemA[cosize_v<SmemLayoutA>];                        // a static bound, as in CuTe
  auto cta_tiler = make_shape(_128{}, _128{}, _8{});         // (BLK_M,BLK_N,BLK_K)
  TESSERA_STATIC_ASSERT_V(size<0>(SmemLayoutA{}) == size<0>(cta_tiler), "BLK_M");
  auto sA = make_tensor(make_smem_ptr(smemA), SmemLayoutA{});  // (BLK_M,BLK_K)
  EXPECT_EQ(to_string(rank(sA)), "_2");                      // rank, depth, size, cosize, shape,
  EXPECT_EQ(to_string(get<1>(sA.layout())), "_8:_128");      // stride, get<I> on layouts and tensors
  auto tA = make_layout(make_shape(_32{}, _8{}), LayoutRight{});  // (m,k) -> thread, K-major
  auto tAsA = local_partition(sA, tA, 9);                    // (THR_M,THR_K) of thread 9 = (1,1)
  EXPECT_EQ(to_string(tAsA.layout()), "(_4,_1):(_32,_0)");
  EXPECT_EQ(raw_pointer(tAsA.data()) - smemA, 1 + 1 * 128);  // starts at (m,k) = (1,1)
  if (thread0()) {                                           // true on the host
    print("tAsA: ");
    print(tAsA.layout());
    print("\n");
  }
  // [end-snippet]
}

// ---- docs/advise.md ------------------------------------------------------------------------------

TEST(Advise, CheckWgmma) {
  // [snippet:check_wgmma]
  // The GEMM's K-major stage (128 x 64 fp16), without its swizzle: (m,k) -> element offset
  constexpr auto stage = tile_to_shape(GmmaLayoutKSw128Atom{}.inner(), Shape<_128, _64>{});
  constexpr GmmaForm form = gmma_form_of(2, GmmaMajor::K, 3, stage, 0, 0, 64);
  static_assert(gmma_form_violation(form) == GmmaRule::ok && form.sbo * 2 == 1024);  // SBO: 1024 bytes
  static_assert(gmma_block_violation(form, stage, 0, 0).rule == GmmaRule::ok);      // every element
  // A tile of 256-byte rows under the 128-byte swizzle, at run time:
  tools::WgmmaCheck const r = tools::check_wgmma(rt::evaluate("Sw<3,3,3> o (_64,_128):(_128,_1)"), 2);
  EXPECT_EQ(r.rule, "wgmma.core");
  // [end-snippet]
}

TEST(Advise, CheckCopy) {
  // [snippet:check_copy]
  // add_tv_static's thread: 4 rows of 8 halves in a row-major 4096-wide matrix, (v) -> element offset
  constexpr auto thr = make_layout(make_shape(_8{}, _4{}), make_stride(_1{}, Int<4096>{}));
  constexpr auto frag = make_layout(make_shape(_8{}, _4{}));  // (v) registers, compact
  // copy's compile-time plan runs algorithm/copy_rules.hpp: 128-bit vectors (8 halves), one a row
  static_assert(detail::vector_plan_v<decltype(thr), decltype(frag), 8>.ok);
  // The same rules at run time, naming the rule, the run and the fix: rows of 4100 halves
  tools::CopyVectorRequest req{.src = rt::evaluate("(_8,_4):(_1,_4100)"), .width_bits = 128, .elem_bits = 16};
  tools::CopyVectorCheck const r = tools::check_copy_vector(req);
  EXPECT_EQ(r.rule, "copy.run_align");  // row 1 starts at byte 8200, not a multiple of 16
  EXPECT_EQ(r.widest_bits, 64);         // the width copy() falls back to
  // [end-snippet]
}
