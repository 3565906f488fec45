// sm_90 TMA over 4-D tensors: the tensor map of a tensor of rank 4 whose innermost dimension is
// contiguous and whose three outer dimensions have arbitrary strides (multiples of 16 bytes), and
// the bulk tensor load of one box of it. The attention kernels read Q, K and V of shape
// (batch, heads, seq, head_dim) this way: one tensor map a tensor, the box a tile of rows of one
// (batch, head), and the rows past that head's sequence read as zeros (TMA bounds every dimension,
// so a tile never reads the next head's rows). The 2-D maps and copies are copy_sm90_tma.cuh's.
//   make_tma_desc_4d(ptr, elem_bytes, dims, strides, box, swizzle)
//                                    host: the tensor map, through the driver's cuTensorMapEncodeTiled
//                                    (copy_sm90_tma.cuh finds it); every precondition an
//                                    invalid_argument naming it
//   SM90_TMA_LOAD_4D::copy(desc, bar, dst, c0, c1, c2, c3)
//                                    one thread loads the box at element coordinates (c0 innermost
//                                    .. c3 outermost) into shared memory; the bytes complete on
//                                    `bar`; elements outside the tensor are zero
#pragma once

#if !defined(__CUDACC_RTC__)  // host only: the tensor map encoder and its errors
#include <cstdint>
#include <stdexcept>
#include <string>
#endif

#include "tessera/arch/barrier_sm90.hpp"
#include "tessera/arch/copy_sm90_tma.cuh"
#include "tessera/core/stdlib.hpp"

namespace tessera {

#if !defined(__CUDACC_RTC__)  // host only: encoding a tensor map (the driver, exceptions, strings)
// make_tma_desc_4d(ptr, elem_bytes, dims, strides, box, swizzle): the tensor map of the tensor at
// ptr with extents dims[0] (contiguous) .. dims[3] (outermost), dimension i + 1 strides[i] bytes
// apart (i = 0, 1, 2), read in boxes of box[0] x .. x box[3] elements.
// Pre (else std::invalid_argument "make_tma_desc_4d: ..."): ptr 16-byte aligned; elem_bytes 1, 2 or
// 4; 1 <= dims[i] <= 2^32; strides positive multiples of 16 bytes below 2^40; 1 <= box[i] <= 256
// (a box may be larger than the tensor: the rest reads as zeros); box[0] * elem_bytes a multiple
// of 16 bytes and, with a swizzle, at most its span.
// Example: a bf16 tensor (batch 2, heads 8, seq 1000, d 128), contiguous, read in tiles of 128 rows
// x 64 columns with the 128-byte swizzle: dims {128, 1000, 8, 2}, strides {256, 256000, 2048000},
// box {64, 128, 1, 1}, TmaSwizzle::b128.
inline TmaDescriptor make_tma_desc_4d(void const* ptr, int elem_bytes, std::uint64_t const (&dims)[4],
                                      std::uint64_t const (&strides)[3], std::uint32_t const (&box)[4],
                                      TmaSwizzle swizzle) {
  auto require = [](bool ok, auto const& what) {
    if (!ok) throw std::invalid_argument("make_tma_desc_4d: " + std::string(what()));
  };
  require(ptr != nullptr && reinterpret_cast<std::uintptr_t>(ptr) % 16 == 0,
          [] { return "the tensor must start at a 16-byte aligned address"; });
  require(elem_bytes == 1 || elem_bytes == 2 || elem_bytes == 4,
          [&] { return "elements must be 1, 2 or 4 bytes, got " + std::to_string(elem_bytes); });
  for (int i = 0; i < 4; ++i) {
    require(dims[i] >= 1 && dims[i] <= (std::uint64_t(1) << 32),
            [&] { return "extent " + std::to_string(i) + " must be in [1, 2^32], got " + std::to_string(dims[i]); });
    require(box[i] >= 1 && box[i] <= 256,
            [&] { return "box extent " + std::to_string(i) + " must be in [1, 256], got " + std::to_string(box[i]); });
  }
  for (int i = 0; i < 3; ++i)
    require(strides[i] % 16 == 0 && strides[i] > 0 && strides[i] < (std::uint64_t(1) << 40), [&] {
      return "stride " + std::to_string(i + 1) + " must be a positive multiple of 16 bytes below 2^40, got " +
             std::to_string(strides[i]) + " bytes";
    });
  int const span = swizzle == TmaSwizzle::b128  ? 128
                   : swizzle == TmaSwizzle::b64 ? 64
                   : swizzle == TmaSwizzle::b32 ? 32
                                                : 0;
  std::uint64_t const row_bytes = std::uint64_t(box[0]) * std::uint64_t(elem_bytes);
  require(row_bytes % 16 == 0 && (span == 0 || row_bytes <= std::uint64_t(span)), [&] {
    return "a box row of " + std::to_string(row_bytes) + " bytes must be a multiple of 16" +
           (span > 0 ? " and at most the swizzle's " + std::to_string(span) + " bytes" : std::string());
  });
  const CUtensorMapDataType type = elem_bytes == 1   ? CU_TENSOR_MAP_DATA_TYPE_UINT8
                                   : elem_bytes == 2 ? CU_TENSOR_MAP_DATA_TYPE_UINT16
                                                     : CU_TENSOR_MAP_DATA_TYPE_UINT32;
  const CUtensorMapSwizzle sw = swizzle == TmaSwizzle::b128  ? CU_TENSOR_MAP_SWIZZLE_128B
                                : swizzle == TmaSwizzle::b64 ? CU_TENSOR_MAP_SWIZZLE_64B
                                : swizzle == TmaSwizzle::b32 ? CU_TENSOR_MAP_SWIZZLE_32B
                                                             : CU_TENSOR_MAP_SWIZZLE_NONE;
  const cuuint64_t gdims[4] = {dims[0], dims[1], dims[2], dims[3]};
  const cuuint64_t gstrides[3] = {strides[0], strides[1], strides[2]};
  const cuuint32_t gbox[4] = {box[0], box[1], box[2], box[3]};
  const cuuint32_t elem_strides[4] = {1, 1, 1, 1};
  TmaDescriptor desc{};
  const CUresult r = detail::tensor_map_encode_tiled()(
      &desc, type, 4, const_cast<void*>(ptr), gdims, gstrides, gbox, elem_strides, CU_TENSOR_MAP_INTERLEAVE_NONE, sw,
      CU_TENSOR_MAP_L2_PROMOTION_L2_256B, CU_TENSOR_MAP_FLOAT_OOB_FILL_NONE);
  require(r == CUDA_SUCCESS, [&] { return "cuTensorMapEncodeTiled failed with CUresult " + std::to_string(int(r)); });
  return desc;
}
#endif  // !__CUDACC_RTC__

// SM90_TMA_LOAD_4D: cp.async.bulk.tensor.4d global -> shared, completing on an mbarrier.
struct SM90_TMA_LOAD_4D {
  // copy(desc, bar, dst, c0, c1, c2, c3): the box at element coordinates (c0 innermost .. c3
  // outermost; it may lie partly outside the tensor, which reads as zeros) into dst. Pre: dst
  // aligned to 128 bytes (1024 with a 128-byte swizzle); `bar` expects the box's bytes
  // (mbarrier_arrive_expect_tx).
  template <class Unused = void>
  __device__ static void copy(TmaDescriptor const* desc, std::uint64_t* bar, void* dst, int c0, int c1, int c2,
                              int c3) {
#if defined(TESSERA_SM90_AVAILABLE)
    asm volatile(
        "cp.async.bulk.tensor.4d.shared::cluster.global.mbarrier::complete_tx::bytes"
        " [%0], [%1, {%3, %4, %5, %6}], [%2];\n" ::"r"(smem_address(dst)),
        "l"(reinterpret_cast<std::uint64_t>(desc)), "r"(smem_address(bar)), "r"(c0), "r"(c1), "r"(c2), "r"(c3)
        : "memory");
#elif defined(__CUDA_ARCH__)
    static_assert(detail::always_false<Unused>,
                  "SM90_TMA_LOAD_4D: TMA needs sm_90 or newer; build for -gencode arch=compute_90a");
#else
    (void)desc, (void)bar, (void)dst, (void)c0, (void)c1, (void)c2, (void)c3;
#endif
  }
};

}  // namespace tessera
