// copy / copy_if: results, and the access width copy chooses (copy_vector_bits) for aligned,
// misaligned and strided tensors.
#include "tensor_test_util.hpp"

#include <vector>

using namespace tessera;
using tessera::test::v;

namespace {
template <class T, int N>
struct alignas(16) Buffer {
  T data[N];
};
}  // namespace

TEST(Copy, VectorWidthAlignedMisalignedStrided) {
  Buffer<float, 128> a{}, b{};
  auto L = make_layout(make_shape(_8{}, _8{}));  // (8,8) column-major, contiguous
  auto src = make_tensor(make_gmem_ptr(a.data), L);
  auto dst = make_tensor(make_smem_ptr(b.data), L);
  EXPECT_EQ(copy_vector_bits(src, dst), 128);  // aligned, contiguous: 4 floats per access

  // Misaligned by one float: only 32-bit accesses.
  auto src1 = make_tensor(make_gmem_ptr(a.data + 1), L);
  EXPECT_EQ(copy_vector_bits(src1, dst), 32);
  // Misaligned by two floats: 8-byte aligned, so 64-bit accesses.
  auto src2 = make_tensor(make_gmem_ptr(a.data + 2), L);
  EXPECT_EQ(copy_vector_bits(src2, dst), 64);

  // Strided: columns of 8 floats 10 apart; vectors of 2 stay aligned (10 is even), 4 would not.
  auto strided = make_tensor(make_gmem_ptr(a.data), make_layout(make_shape(_8{}, _8{}), make_stride(_1{}, _10{})));
  EXPECT_EQ(copy_vector_bits(strided, dst), 64);
  // Stride 9: every other column starts at an odd offset.
  auto odd = make_tensor(make_gmem_ptr(a.data), make_layout(make_shape(_8{}, _8{}), make_stride(_1{}, _9{})));
  EXPECT_EQ(copy_vector_bits(odd, dst), 32);
  // Transposed: no common contiguous run.
  auto tr = make_tensor(make_gmem_ptr(a.data), make_layout(make_shape(_8{}, _8{}), LayoutRight{}));
  EXPECT_EQ(copy_vector_bits(tr, dst), 32);
  // Both row-major: contiguous along mode 1 in both, vectorized.
  auto tr2 = make_tensor(make_smem_ptr(b.data), make_layout(make_shape(_8{}, _8{}), LayoutRight{}));
  EXPECT_EQ(copy_vector_bits(tr, tr2), 128);
  // Dynamic layouts: no static proof of contiguity, element by element.
  auto dyn = make_tensor(make_gmem_ptr(a.data), make_shape(8, 8));
  EXPECT_EQ(copy_vector_bits(dyn, dst), 32);
  // Narrow types: 16 halves (as uint16_t) aligned -> 128; a run of 2 bytes -> 16.
  Buffer<std::uint16_t, 64> h{}, h2{};
  auto hs = make_tensor(make_gmem_ptr(h.data), make_layout(make_shape(_8{}, _4{})));
  auto hd = make_tensor(make_rmem_ptr(h2.data), make_layout(make_shape(_8{}, _4{})));
  EXPECT_EQ(copy_vector_bits(hs, hd), 128);
  Buffer<std::uint8_t, 64> c{}, c2{};
  auto cs = make_tensor(make_gmem_ptr(c.data), make_layout(make_shape(_2{}, _4{}), make_stride(_1{}, _3{})));
  auto cd = make_tensor(make_gmem_ptr(c2.data), make_layout(make_shape(_2{}, _4{})));
  EXPECT_EQ(copy_vector_bits(cs, cd), 8);  // runs of 2 bytes, but column starts at odd offsets 3, 9
  auto cs2 = make_tensor(make_gmem_ptr(c.data), make_layout(make_shape(_2{}, _4{}), make_stride(_1{}, _4{})));
  EXPECT_EQ(copy_vector_bits(cs2, cd), 16);
  // Registers: owning tensors are 16-byte aligned.
  auto r = make_tensor<float>(L);
  EXPECT_EQ(copy_vector_bits(src, r), 128);
}

// A thread's fragment stored to rows of a large matrix: the destination's offsets span more than
// a dense offset table holds (rows 2^16 elements apart), and are searched instead; 16-byte
// vectors along each row, none across rows.
TEST(Copy, VectorWidthToASparseDestination) {
  constexpr int row = 1 << 16;
  std::vector<float> big(3 * row + 8 + 4);
  float* base = big.data();
  while (reinterpret_cast<std::uintptr_t>(base) % 16 != 0) ++base;
  auto rows = make_layout(make_shape(_8{}, _4{}), make_stride(_1{}, Int<row>{}));  // (8,4) -> 4 rows of 8
  auto r = make_tensor<float>(make_layout(make_shape(_8{}, _4{})));                // (8,4) registers
  auto g = make_tensor(make_gmem_ptr(base), rows);
  for (int i = 0; i < 32; ++i) r(i) = float(i);
  EXPECT_EQ(copy_vector_bits(r, g), 128);
  EXPECT_EQ(copy_vector_bits(g, r), 128);
  copy(r, g);
  for (int j = 0; j < 4; ++j)
    for (int i = 0; i < 8; ++i) EXPECT_EQ(base[j * row + i], float(i + 8 * j));
  // Rows row + 2 floats apart: every other row starts 8 bytes past a 16-byte boundary: 8-byte vectors.
  auto odd_rows = make_layout(make_shape(_8{}, _4{}), make_stride(_1{}, Int<row + 2>{}));
  EXPECT_EQ(copy_vector_bits(r, make_tensor(make_gmem_ptr(base), odd_rows)), 64);
}

TEST(Copy, ResultsMatchElementByElement) {
  Buffer<float, 128> a{}, b{};
  for (int i = 0; i < 128; ++i) a.data[i] = float(i);
  auto check = [&](auto const& src, auto&& dst) {
    for (auto& x : b.data) x = -1.0f;
    copy(src, dst);
    for (long long i = 0; i < v(size(src)); ++i) ASSERT_EQ(dst(i), src(i)) << i;
  };
  auto L = make_layout(make_shape(_8{}, _8{}));
  check(make_tensor(make_gmem_ptr(a.data), L), make_tensor(make_smem_ptr(b.data), L));
  check(make_tensor(make_gmem_ptr(a.data + 1), L), make_tensor(make_smem_ptr(b.data), L));
  check(make_tensor(make_gmem_ptr(a.data), make_layout(make_shape(_8{}, _8{}), make_stride(_1{}, _10{}))),
        make_tensor(make_smem_ptr(b.data), L));
  check(make_tensor(make_gmem_ptr(a.data), make_layout(make_shape(_8{}, _8{}), LayoutRight{})),
        make_tensor(make_smem_ptr(b.data), make_layout(make_shape(_8{}, _8{}), LayoutRight{})));
  check(make_tensor(make_gmem_ptr(a.data), make_shape(8, 8)), make_tensor(make_smem_ptr(b.data), make_shape(8, 8)));
  // The SGEMM tutorial (docs/background.md): copy a (BM,BK) tile from gmem into smem through the thread partitions.
  std::vector<float> A(64 * 32);
  for (std::size_t i = 0; i < A.size(); ++i) A[i] = float(i);
  auto mA = make_tensor(make_gmem_ptr(A.data()), make_shape(64, 32), make_stride(32, _1{}));  // (M,K)
  auto gA = local_tile(mA, make_shape(_64{}, _8{}), make_coord(0, _));                        // (BM,BK,k)
  alignas(16) float smem[64 * 8];
  auto sA = make_tensor(make_smem_ptr(smem), make_layout(make_shape(_64{}, _8{}), LayoutRight{}));  // (BM,BK)
  auto thr = make_layout(make_shape(_8{}, _8{}), LayoutRight{});
  for (int k = 0; k < 4; ++k) {
    for (int tid = 0; tid < 64; ++tid) copy(local_partition(gA, thr, tid)(_, _, k), local_partition(sA, thr, tid));
    for (int m = 0; m < 64; ++m)
      for (int kk = 0; kk < 8; ++kk) ASSERT_EQ(sA(m, kk), mA(m, k * 8 + kk));
  }
}

TEST(Copy, CopyIfWithPredicateTensorAndCallable) {
  std::vector<int> a(16), b(16, -1);
  for (int i = 0; i < 16; ++i) a[std::size_t(i)] = i;
  auto src = make_tensor(a.data(), make_shape(4, 4));
  auto dst = make_tensor(b.data(), make_shape(4, 4));
  auto pred = make_tensor<bool>(make_layout(make_shape(_4{}, _4{})));
  for (int i = 0; i < 16; ++i) pred(i) = (i % 3 == 0);
  copy_if(pred, src, dst);
  for (int i = 0; i < 16; ++i) EXPECT_EQ(b[std::size_t(i)], i % 3 == 0 ? i : -1);
  copy_if([](auto i) { return i < 2; }, src, dst);
  EXPECT_EQ(b[1], 1);
  EXPECT_EQ(b[2], -1);
}
