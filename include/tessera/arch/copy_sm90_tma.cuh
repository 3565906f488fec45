// sm_90 tensor memory accelerator (TMA): bulk tensor copies global -> shared memory described by a
// tensor map, completing on an mbarrier (arch/barrier_sm90.hpp), and shared -> global stores
// tracked by bulk groups.
//   TmaDescriptor                    the 128-byte tensor map (CUtensorMap), passed to a kernel by
//                                    value as a __grid_constant__ parameter
//   make_tma_desc_2d(...)            host: the tensor map of a 2-D row-major matrix and a box,
//                                    through the driver's cuTensorMapEncodeTiled found at run time
//                                    (no link dependency on libcuda); every precondition an error
//   SM90_TMA_LOAD_2D::copy(desc, bar, dst, c0, c1)
//                                    one thread loads the box at element coordinates (c0 inner,
//                                    c1 outer) into shared memory; the bytes complete on `bar`;
//                                    elements outside the matrix are zero
//   SM90_TMA_LOAD_MULTICAST_2D::copy(desc, bar, dst, c0, c1, mask)
//                                    the same into every block of the cluster in mask
//   SM90_TMA_STORE_2D::copy(desc, src, c0, c1)
//                                    one thread stores a box from shared memory to the matrix at
//                                    (c0, c1); elements outside the matrix are not written; the
//                                    store joins the thread's open bulk group
//   SM90_TMA_REDUCE_ADD_2D::copy(desc, src, c0, c1)
//                                    one thread adds a box from shared memory into the matrix at
//                                    (c0, c1), element by element, atomically (f32 maps: fp32 add);
//                                    elements outside the matrix are not touched; joins the thread's
//                                    open bulk group, as a store does
//   tma_store_commit()               closes the thread's bulk group (cp.async.bulk.commit_group)
//   tma_store_wait_read<N>()         waits until at most N of the thread's groups still read
//                                    shared memory (their sources may be overwritten)
//   tma_store_wait<N>()              waits until at most N of the thread's groups are incomplete
//                                    (their writes are done)
//   tma_prefetch_desc(desc)          fetch the tensor map into the cache ahead of the first copy
// Shared-memory boxes are written row by row (the inner dimension contiguous), swizzled by the
// tensor map's mode: TmaSwizzle::b128 writes exactly the K-major 128-byte-swizzled atom of
// atom/mma_traits_sm90.hpp (Sw<3,4,3> in bytes over rows of 128 bytes).
#pragma once

#if !defined(__CUDACC_RTC__)  // host only: the driver's tensor map encoder and its errors
#include <cuda.h>
#include <cuda_runtime.h>

#include <optional>
#include <stdexcept>
#include <string>

#include "tessera/arch/tma_rules.hpp"
#endif

#include "tessera/arch/barrier_sm90.hpp"
#include "tessera/core/stdlib.hpp"

namespace tessera {

namespace detail {
// The tensor map as a kernel compiled by NVRTC sees it. <cuda.h> does not compile there (it
// includes the host's <stdlib.h>), so the layout of CUtensorMap is spelled here: 16 opaque
// quadwords, aligned as the toolkit aligns CUtensorMap (128 bytes since CUDA 13, 64 before), so
// that a __grid_constant__ parameter has the same size and offset as the host's CUtensorMap. The
// static_assert below holds it to <cuda.h>'s definition wherever that is seen.
#if defined(__CUDACC_RTC__)
inline constexpr int tma_descriptor_align = __CUDACC_VER_MAJOR__ >= 13 ? 128 : 64;
#else
inline constexpr int tma_descriptor_align = CUDA_VERSION >= 13000 ? 128 : 64;
#endif
struct alignas(tma_descriptor_align) TmaDescriptorBytes {
  std::uint64_t opaque[16];
};
}  // namespace detail

#if defined(__CUDACC_RTC__)
using TmaDescriptor = detail::TmaDescriptorBytes;
#else
using TmaDescriptor = CUtensorMap;
static_assert(sizeof(CUtensorMap) == sizeof(detail::TmaDescriptorBytes) &&
                  alignof(CUtensorMap) == alignof(detail::TmaDescriptorBytes),
              "copy_sm90_tma.cuh: NVRTC's TmaDescriptor (detail::TmaDescriptorBytes) must have CUtensorMap's size "
              "and alignment; update it to this toolkit's <cuda.h>");
#endif

enum class TmaSwizzle { none, b32, b64, b128 };
// The element type a tensor map declares: bits (unsigned integers of elem_bytes: copies move bits,
// whatever the values are) or f32 (4-byte floats: what a reduction's arithmetic needs, e.g.
// SM90_TMA_REDUCE_ADD_2D's add).
enum class TmaData { bits, f32 };

#if !defined(__CUDACC_RTC__)  // host only: encoding a tensor map (the driver, exceptions, strings)
namespace detail {
using TensorMapEncodeTiled = CUresult (*)(CUtensorMap*, CUtensorMapDataType, cuuint32_t, void*, cuuint64_t const*,
                                          cuuint64_t const*, cuuint32_t const*, cuuint32_t const*,
                                          CUtensorMapInterleave, CUtensorMapSwizzle, CUtensorMapL2promotion,
                                          CUtensorMapFloatOOBfill);

// The driver's cuTensorMapEncodeTiled, looked up once through the runtime.
inline TensorMapEncodeTiled tensor_map_encode_tiled() {
  static TensorMapEncodeTiled const fn = [] {
    void* p = nullptr;
    cudaDriverEntryPointQueryResult q{};
    if (cudaGetDriverEntryPointByVersion("cuTensorMapEncodeTiled", &p, 12000, cudaEnableDefault, &q) != cudaSuccess ||
        q != cudaDriverEntryPointSuccess || p == nullptr)
      throw std::runtime_error("make_tma_desc: the driver has no cuTensorMapEncodeTiled (TMA needs a CUDA 12 driver)");
    return reinterpret_cast<TensorMapEncodeTiled>(p);
  }();
  return fn;
}

// Throws invalid_argument("make_tma_desc_2d: " + what()) unless ok; the message is built only then
// (the checks run on every launch).
template <class What>
void tma_require(bool ok, What const& what) {
  if (!ok) throw std::invalid_argument("make_tma_desc_2d: " + std::string(what()));
}
}  // namespace detail

// make_tma_desc_2d(ptr, elem_bytes, inner, outer, ld, box_inner, box_outer, swizzle[, data]): the
// tensor map of a row-major matrix of `outer` rows of `inner` elements, rows `ld` elements apart,
// read in boxes of box_outer rows x box_inner elements, its elements `data` (TmaData::bits unless
// given; TmaData::f32 needs elem_bytes 4, else invalid_argument). Pre: the rules of
// arch/tma_rules.hpp (tma_2d_violation; a broken one is an invalid_argument with its message): ptr
// 16-byte aligned; elem_bytes 1, 2 or 4; ld * elem_bytes a multiple of 16 (TMA strides) and ld >=
// inner; 1 <= box sizes <= 256; box_inner * elem_bytes a multiple of 16, and with a swizzle at most
// the swizzle's span (32, 64 or 128 bytes). Out-of-bounds box elements read as zero.
inline TmaDescriptor make_tma_desc_2d(void const* ptr, int elem_bytes, std::uint64_t inner, std::uint64_t outer,
                                      std::uint64_t ld, std::uint32_t box_inner, std::uint32_t box_outer,
                                      TmaSwizzle swizzle, TmaData data = TmaData::bits) {
  const int span = swizzle == TmaSwizzle::b128  ? 128
                   : swizzle == TmaSwizzle::b64 ? 64
                   : swizzle == TmaSwizzle::b32 ? 32
                                                : 0;
  TmaMatrix2d const m{ptr != nullptr && reinterpret_cast<std::uintptr_t>(ptr) % 16 == 0,
                      elem_bytes,
                      inner,
                      outer,
                      ld,
                      box_inner,
                      box_outer,
                      span};
  if (std::optional<std::string> const v = tma_2d_violation(m)) throw std::invalid_argument("make_tma_desc_2d: " + *v);
  detail::tma_require(data == TmaData::bits || elem_bytes == 4, [&] {
    return "TmaData::f32 needs elem_bytes 4 (got " + std::to_string(elem_bytes) + "): pass TmaData::bits";
  });
  const CUtensorMapDataType type = data == TmaData::f32 ? CU_TENSOR_MAP_DATA_TYPE_FLOAT32
                                   : elem_bytes == 1    ? CU_TENSOR_MAP_DATA_TYPE_UINT8
                                   : elem_bytes == 2    ? CU_TENSOR_MAP_DATA_TYPE_UINT16
                                                        : CU_TENSOR_MAP_DATA_TYPE_UINT32;
  const CUtensorMapSwizzle sw = swizzle == TmaSwizzle::b128  ? CU_TENSOR_MAP_SWIZZLE_128B
                                : swizzle == TmaSwizzle::b64 ? CU_TENSOR_MAP_SWIZZLE_64B
                                : swizzle == TmaSwizzle::b32 ? CU_TENSOR_MAP_SWIZZLE_32B
                                                             : CU_TENSOR_MAP_SWIZZLE_NONE;
  const cuuint64_t dims[2] = {inner, outer};
  const cuuint64_t strides[1] = {ld * elem_bytes};
  const cuuint32_t box[2] = {box_inner, box_outer};
  const cuuint32_t elem_strides[2] = {1, 1};
  TmaDescriptor desc{};
  const CUresult r = detail::tensor_map_encode_tiled()(
      &desc, type, 2, const_cast<void*>(ptr), dims, strides, box, elem_strides, CU_TENSOR_MAP_INTERLEAVE_NONE, sw,
      CU_TENSOR_MAP_L2_PROMOTION_L2_256B, CU_TENSOR_MAP_FLOAT_OOB_FILL_NONE);
  detail::tma_require(r == CUDA_SUCCESS,
                      [&] { return "cuTensorMapEncodeTiled failed with CUresult " + std::to_string(int(r)); });
  return desc;
}
#endif  // !__CUDACC_RTC__

// SM90_TMA_LOAD_2D: cp.async.bulk.tensor.2d global -> shared, completing on an mbarrier.
struct SM90_TMA_LOAD_2D {
  // copy(desc, bar, dst, c0, c1): the box at (c0, c1) (inner, outer element coordinates; may lie
  // partly outside the matrix) into dst. Pre: dst aligned to 128 bytes (1024 with a 128-byte
  // swizzle); `bar` expects the box's bytes (mbarrier_arrive_expect_tx).
  template <class Unused = void>
  __device__ static void copy(TmaDescriptor const* desc, std::uint64_t* bar, void* dst, int c0, int c1) {
#if defined(TESSERA_SM90_AVAILABLE)
    asm volatile(
        "cp.async.bulk.tensor.2d.shared::cluster.global.mbarrier::complete_tx::bytes [%0], [%1, {%3, %4}], [%2];\n" ::
            "r"(smem_address(dst)),
        "l"(reinterpret_cast<std::uint64_t>(desc)), "r"(smem_address(bar)), "r"(c0), "r"(c1)
        : "memory");
#elif defined(__CUDA_ARCH__)
    static_assert(detail::always_false<Unused>,
                  "SM90_TMA_LOAD_2D: TMA needs sm_90 or newer; build for -gencode arch=compute_90a");
#else
    (void)desc, (void)bar, (void)dst, (void)c0, (void)c1;
#endif
  }
};

// SM90_TMA_LOAD_MULTICAST_2D: the same box written to the same shared-memory offset of every block
// of the cluster in `mask` (bit i: block rank i), each completing on its barrier at bar's offset.
struct SM90_TMA_LOAD_MULTICAST_2D {
  // copy(desc, bar, dst, c0, c1, mask): as SM90_TMA_LOAD_2D::copy, into every block of mask. Pre:
  // each receiving block's barrier expects the box's bytes; the blocks of mask are running (a
  // cluster launch).
  template <class Unused = void>
  __device__ static void copy(TmaDescriptor const* desc, std::uint64_t* bar, void* dst, int c0, int c1,
                              std::uint16_t mask) {
#if defined(TESSERA_SM90_AVAILABLE)
    asm volatile(
        "cp.async.bulk.tensor.2d.shared::cluster.global.mbarrier::complete_tx::bytes.multicast::cluster"
        " [%0], [%1, {%3, %4}], [%2], %5;\n" ::"r"(smem_address(dst)),
        "l"(reinterpret_cast<std::uint64_t>(desc)), "r"(smem_address(bar)), "r"(c0), "r"(c1), "h"(mask)
        : "memory");
#elif defined(__CUDA_ARCH__)
    static_assert(detail::always_false<Unused>,
                  "SM90_TMA_LOAD_MULTICAST_2D: TMA needs sm_90 or newer; build for -gencode arch=compute_90a");
#else
    (void)desc, (void)bar, (void)dst, (void)c0, (void)c1, (void)mask;
#endif
  }
};

// SM90_TMA_STORE_2D: cp.async.bulk.tensor.2d shared -> global, tracked by bulk groups.
struct SM90_TMA_STORE_2D {
  // copy(desc, src, c0, c1): the box at src (laid out as the tensor map's box and swizzle say)
  // into the matrix at (c0 inner, c1 outer); the parts outside the matrix are dropped. Pre: src
  // aligned to 128 bytes (1024 with a 128-byte swizzle); every thread that wrote src ran
  // fence_view_async_shared() and then met this thread at a barrier (the async proxy reads src).
  template <class Unused = void>
  __device__ static void copy(TmaDescriptor const* desc, void const* src, int c0, int c1) {
#if defined(TESSERA_SM90_AVAILABLE)
    asm volatile("cp.async.bulk.tensor.2d.global.shared::cta.bulk_group [%0, {%2, %3}], [%1];\n" ::"l"(
                     reinterpret_cast<std::uint64_t>(desc)),
                 "r"(smem_address(src)), "r"(c0), "r"(c1)
                 : "memory");
#elif defined(__CUDA_ARCH__)
    static_assert(detail::always_false<Unused>,
                  "SM90_TMA_STORE_2D: TMA needs sm_90 or newer; build for -gencode arch=compute_90a");
#else
    (void)desc, (void)src, (void)c0, (void)c1;
#endif
  }
};

// SM90_TMA_REDUCE_ADD_2D: cp.reduce.async.bulk.tensor.2d shared -> global with .add, tracked by
// bulk groups: each element of the box is added to the matrix's element (an atomic read-modify-write
// in global memory, as red.global.add: boxes from many blocks may add to the same elements; the
// arithmetic is the tensor map's element type: fp32 needs a map made with TmaData::f32, since a
// TmaData::bits map of 4-byte elements adds them as unsigned integers). The attention backward
// adds its dQ shares with it (kernels/attention/backward_sm90.cuh).
struct SM90_TMA_REDUCE_ADD_2D {
  // copy(desc, src, c0, c1): the box at src (laid out as the tensor map's box and swizzle say)
  // added into the matrix at (c0 inner, c1 outer); the parts outside the matrix are dropped. Pre:
  // as SM90_TMA_STORE_2D::copy (src aligned to 128 bytes, 1024 with a 128-byte swizzle; its
  // writers ran fence_view_async_shared() and met this thread at a barrier); src is not written
  // again before tma_store_wait_read says the group has read it.
  template <class Unused = void>
  __device__ static void copy(TmaDescriptor const* desc, std::uint32_t src, int c0, int c1) {
#if defined(TESSERA_SM90_AVAILABLE)
    asm volatile("cp.reduce.async.bulk.tensor.2d.global.shared::cta.add.tile.bulk_group [%0, {%2, %3}], [%1];\n" ::"l"(
                     reinterpret_cast<std::uint64_t>(desc)),
                 "r"(src), "r"(c0), "r"(c1)
                 : "memory");
#elif defined(__CUDA_ARCH__)
    static_assert(detail::always_false<Unused>,
                  "SM90_TMA_REDUCE_ADD_2D: TMA needs sm_90 or newer; build for -gencode arch=compute_90a");
#else
    (void)desc, (void)src, (void)c0, (void)c1;
#endif
  }
};

// tma_store_commit(): the bulk stores this thread issued since the last commit form one group.
template <class Unused = void>
__device__ void tma_store_commit() {
#if defined(TESSERA_SM90_AVAILABLE)
  asm volatile("cp.async.bulk.commit_group;\n" ::: "memory");
#elif defined(__CUDA_ARCH__)
  static_assert(detail::always_false<Unused>,
                "tma_store_commit: TMA needs sm_90 or newer; build for -gencode arch=compute_90a");
#endif
}

// tma_store_wait_read<N>(): at most N of this thread's committed groups still read their shared
// memory sources (the others' sources may be overwritten).
template <int N>
__device__ void tma_store_wait_read() {
#if defined(TESSERA_SM90_AVAILABLE)
  asm volatile("cp.async.bulk.wait_group.read %0;\n" ::"n"(N) : "memory");
#elif defined(__CUDA_ARCH__)
  static_assert(N < 0, "tma_store_wait_read: TMA needs sm_90 or newer; build for -gencode arch=compute_90a");
#endif
}

// tma_store_wait<N>(): at most N of this thread's committed groups are incomplete (the others'
// writes to global memory are done). Not needed before a block exits: tma_store_wait_read<0>()
// there keeps the shared-memory sources alive until read, and the writes are visible to what runs
// after the grid.
template <int N>
__device__ void tma_store_wait() {
#if defined(TESSERA_SM90_AVAILABLE)
  asm volatile("cp.async.bulk.wait_group %0;\n" ::"n"(N) : "memory");
#elif defined(__CUDA_ARCH__)
  static_assert(N < 0, "tma_store_wait: TMA needs sm_90 or newer; build for -gencode arch=compute_90a");
#endif
}

// tma_prefetch_desc(desc): brings the tensor map into the cache. Pre: desc is a kernel parameter
// (__grid_constant__) or in global memory.
template <class Unused = void>
__device__ void tma_prefetch_desc(TmaDescriptor const* desc) {
#if defined(TESSERA_SM90_AVAILABLE)
  asm volatile("prefetch.tensormap [%0];\n" ::"l"(reinterpret_cast<std::uint64_t>(desc)) : "memory");
#elif defined(__CUDA_ARCH__)
  static_assert(detail::always_false<Unused>,
                "tma_prefetch_desc: TMA needs sm_90 or newer; build for -gencode arch=compute_90a");
#else
  (void)desc;
#endif
}

}  // namespace tessera
