// Tests for include/tessera/algorithm/cooperative_copy.hpp, copy_aligned and copy_aligned<W> (algorithm/copy.hpp) and
// algorithm/prefetch.hpp on the host. The threads of a cooperative copy run one after the other
// here; the law: together they copy every element, each element written by exactly one thread,
// and each thread's share is what the round-robin rule says.
#include <gtest/gtest.h>

#include <string>
#include <vector>

#include "tessera/algorithm/cooperative_copy.hpp"
#include "tessera/algorithm/prefetch.hpp"

using namespace tessera;

namespace {
template <class T, int N>
struct alignas(16) Buffer {
  T data[N];
};

// Runs cooperative_copy<NT, MaxVecBits> for every thread on src -> dst and checks the law; returns
// for each dst element the thread that wrote it.
template <int NT, int MaxVecBits, class Src, class Dst>
std::vector<int> run_all_threads(Src const& src, Dst const& dst, float* dst_base, int dst_cosize) {
  std::vector<int> writer(std::size_t(size(dst)), -1);
  for (unsigned tid = 0; tid < unsigned(NT); ++tid) {
    for (int o = 0; o < dst_cosize; ++o) dst_base[o] = -1.0f;
    cooperative_copy<NT, MaxVecBits>(tid, src, dst);
    for (int i = 0; i < int(size(dst)); ++i) {
      if (dst(i) != -1.0f) {
        EXPECT_EQ(dst(i), src(i)) << "element " << i << " thread " << tid;
        EXPECT_EQ(writer[std::size_t(i)], -1) << "element " << i << " written twice";
        writer[std::size_t(i)] = int(tid);
      }
    }
  }
  for (int i = 0; i < int(size(dst)); ++i) EXPECT_NE(writer[std::size_t(i)], -1) << "element " << i << " not copied";
  return writer;
}
}  // namespace

TEST(CooperativeCopy, VectorizedSharesAreRoundRobinVectors) {
  Buffer<float, 128> a{}, b{};
  for (int i = 0; i < 128; ++i) a.data[i] = float(i + 1);
  auto L = make_layout(make_shape(_16{}, _8{}));  // (16,8) column-major
  auto src = make_tensor(make_gmem_ptr(a.data), L);
  auto dst = make_tensor(make_smem_ptr(b.data), L);
  auto w = run_all_threads<32, 128>(src, dst, b.data, 128);
  for (int i = 0; i < 128; ++i) EXPECT_EQ(w[std::size_t(i)], (i / 4) % 32) << i;  // vectors of 4 floats
  auto w64 = run_all_threads<32, 64>(src, dst, b.data, 128);
  for (int i = 0; i < 128; ++i) EXPECT_EQ(w64[std::size_t(i)], (i / 2) % 32) << i;
  auto w32 = run_all_threads<32, 32>(src, dst, b.data, 128);
  for (int i = 0; i < 128; ++i) EXPECT_EQ(w32[std::size_t(i)], i % 32) << i;  // element by element
}

TEST(CooperativeCopy, TransposeMisalignedAndDynamicFallBackToElements) {
  Buffer<float, 160> a{}, b{};
  for (int i = 0; i < 160; ++i) a.data[i] = float(i + 1);
  auto src_t = make_tensor(make_gmem_ptr(a.data), make_layout(make_shape(_8{}, _8{}), LayoutRight{}));
  auto dst_c = make_tensor(make_smem_ptr(b.data), make_layout(make_shape(_8{}, _8{})));
  auto w = run_all_threads<8, 128>(src_t, dst_c, b.data, 64);
  for (int i = 0; i < 64; ++i) EXPECT_EQ(w[std::size_t(i)], i % 8);
  auto src_off = make_tensor(make_gmem_ptr(a.data + 1), make_layout(make_shape(_8{}, _8{})));  // 4-byte aligned
  auto w2 = run_all_threads<8, 128>(src_off, dst_c, b.data, 64);
  for (int i = 0; i < 64; ++i) EXPECT_EQ(w2[std::size_t(i)], i % 8);
  auto src_dyn = make_tensor(make_gmem_ptr(a.data), make_shape(8, 8));
  auto dst_dyn = make_tensor(make_smem_ptr(b.data), make_shape(8, 8));
  auto w3 = run_all_threads<5, 128>(src_dyn, dst_dyn, b.data, 64);  // 5 threads: uneven shares
  for (int i = 0; i < 64; ++i) EXPECT_EQ(w3[std::size_t(i)], i % 5);
}

TEST(CooperativeCopy, Errors) {
  std::vector<float> a(8), b(6);
  auto src = make_tensor(a.data(), make_shape(8));
  auto dst = make_tensor(b.data(), make_shape(6));
  EXPECT_THROW((cooperative_copy<4>(0u, src, dst)), layout_error);
  auto dst8 = make_tensor(a.data(), make_shape(8));
  try {
    cooperative_copy<4>(4u, src, dst8);
    FAIL() << "tid 4 of 4 threads accepted";
  } catch (layout_error const& e) {
    EXPECT_NE(std::string(e.what()).find("cooperative_copy"), std::string::npos) << e.what();
  }
}

// copy_aligned agrees with copy element-wise and takes the widest width the layouts allow; a
// pointer that breaks the alignment it assumes is refused on the host.
TEST(CopyAligned, AgreesWithCopyAndRefusesMisalignedPointers) {
  Buffer<float, 128> a{}, b{}, c{};
  for (int i = 0; i < 128; ++i) a.data[i] = float(3 * i - 7);
  auto L = make_layout(make_shape(_8{}, _8{}), make_stride(_1{}, _10{}));  // runs of 8, 10 apart
  auto src = make_tensor(make_gmem_ptr(a.data), L);
  copy_aligned(src, make_tensor(make_smem_ptr(b.data), L));
  copy(src, make_tensor(make_smem_ptr(c.data), L));
  for (int i = 0; i < 64; ++i) EXPECT_EQ(b.data[L(i)], c.data[L(i)]);
  for (int i = 0; i < 64; ++i) EXPECT_EQ(b.data[L(i)], a.data[L(i)]);
  // Dynamic layouts: element by element, no alignment needed.
  auto dyn = make_tensor(make_gmem_ptr(a.data + 1), make_shape(8, 8));
  copy_aligned(dyn, make_tensor(make_smem_ptr(b.data + 1), make_shape(8, 8)));
  for (int i = 0; i < 64; ++i) EXPECT_EQ(b.data[i + 1], a.data[i + 1]);
  // Static layouts that allow 64-bit vectors, on a pointer aligned to 4 bytes only: refused.
  auto bad = make_tensor(make_gmem_ptr(a.data + 1), L);
  try {
    copy_aligned(bad, make_tensor(make_smem_ptr(b.data), L));
    FAIL() << "a misaligned pointer was accepted";
  } catch (layout_error const& e) {
    EXPECT_NE(std::string(e.what()).find("copy_aligned"), std::string::npos) << e.what();
    EXPECT_NE(std::string(e.what()).find("rule copy.align"), std::string::npos) << e.what();
  }
}

// copy_aligned<W> caps the access width at what the caller can prove: a slice at a 4-byte offset
// copies with 32-bit accesses (the unbounded form refuses that pointer), a width the layouts and
// the pointer allow copies as copy does.
TEST(CopyAligned, BoundedWidthTakesPointersAlignedToItOnly) {
  Buffer<float, 128> a{}, b{}, c{};
  for (int i = 0; i < 128; ++i) a.data[i] = float(5 * i + 1);
  auto L = make_layout(make_shape(_8{}, _8{}), make_stride(_1{}, _10{}));
  auto off = make_tensor(make_gmem_ptr(a.data + 1), L);
  copy_aligned<32>(off, make_tensor(make_smem_ptr(b.data + 1), L));
  for (int i = 0; i < 64; ++i) EXPECT_EQ(b.data[1 + L(i)], a.data[1 + L(i)]);
  copy_aligned<64>(make_tensor(make_gmem_ptr(a.data + 2), L), make_tensor(make_smem_ptr(c.data + 2), L));
  for (int i = 0; i < 64; ++i) EXPECT_EQ(c.data[2 + L(i)], a.data[2 + L(i)]);
  try {
    copy_aligned<64>(off, make_tensor(make_smem_ptr(b.data + 1), L));
    FAIL() << "a pointer aligned to 4 bytes was accepted for 64-bit accesses";
  } catch (layout_error const& e) {
    EXPECT_NE(std::string(e.what()).find("copy_aligned"), std::string::npos) << e.what();
  }
}

// On the host a prefetch is a hint with no effect: it neither reads nor writes the tensor.
TEST(Prefetch, HostPrefetchIsANoOp) {
  std::vector<float> a(64, 1.0f);
  auto t = make_tensor(make_gmem_ptr(a.data()), make_layout(make_shape(_16{}, _4{})));
  prefetch(t);
  for (unsigned tid = 0; tid < 4; ++tid) cooperative_prefetch<4>(tid, t);
  cooperative_prefetch<4, 128>(1u, make_tensor(make_gmem_ptr(a.data()), make_shape(8, 8)));
  for (float x : a) EXPECT_EQ(x, 1.0f);
  static_assert(detail::prefetch_run<64, decltype(t)>() == 16, "64 bytes of floats per prefetch");
  static_assert(detail::prefetch_run<32, decltype(t)>() == 8);
  auto strided = make_tensor(make_gmem_ptr(a.data()), make_layout(make_shape(_4{}, _4{}), make_stride(_4{}, _1{})));
  static_assert(detail::prefetch_run<64, decltype(strided)>() == 1, "no contiguous run at index 0 in 1-D order");
}
