// gemm_sm90_fp8 and gemm_sm90_fp8_block through the JIT, with a host side that needs no CUDA
// toolkit and no CUDA runtime: the fp8 kernels of kernels/gemm/sm90_kernel.cuh (gemm_sm90's kernels
// with 8-bit float operands, docs/gemm-fp8.md) compiled by NVRTC, one program per kernel, their
// arguments built on the host and launched through the driver. What kernels::gemm_sm90_fp8 and
// gemm_sm90_fp8_block (kernels/gemm_sm90.cuh, nvcc) do, step by step:
//
//   gemm_sm90_fp8_jit_kernel(problem, sms)   which kernel: gemm_sm90_pick's tile for the shape
//                                            (counted in 16-bit units of K; stream-K, which spills
//                                            for fp8, runs as the persistent 128x256 kernel), or the
//                                            block-scaled 192x128 kernel for block scales; the
//                                            fp8 type, the output type, the epilogue form
//   gemm_sm90_fp8_jit_source(kernel, align)  the program: gemm_sm90_jit_source's, for the fp8 types
//   gemm_sm90_fp8_jit_names(kernel)          [0] the GEMM kernel (no pack kernel: fp8 operands are
//                                            never packed, check_gemm_fp8_problem refuses them)
//   gemm_sm90_fp8_jit_params<Align>(...)     the kernel's arguments
//   gemm_sm90_fp8_jit_launch(problem, gemm, stream, sms)
//                                            checks, the arguments, the launch
//
// The fp8 kernels take the bf16 kernels' arguments (GemmSm90Params, GemmSm90Maps: the same layouts,
// checked by the same static_asserts) and move an fp8 operand as 16-bit units, pairs of elements
// along K (gemm_sm90_unit_t): K counts units and the TMA maps describe an (M, K) fp8 matrix as an
// (M, K/2) 16-bit one with ld/2. So the host builds the arguments of the 16-bit problem of those
// units (gemm_sm90_jit_params on GemmProblem<std::uint16_t, TOut>) and adds the scales
// (GemmSm90Params::scales, as kernels::detail::gemm_sm90_scales sets them).
#pragma once

#if defined(__CUDACC_RTC__)
#error "tessera/jit/gemm_sm90_fp8.hpp: host only (it builds and launches gemm_sm90_fp8's kernels)"
#endif

#include <cstdint>
#include <stdexcept>
#include <string>
#include <type_traits>
#include <vector>

#include "tessera/core/numeric.hpp"
#include "tessera/jit/gemm_sm90.hpp"

namespace tessera::jit {

// One fp8 kernel as the JIT compiles it: the tile (gemm_sm90_pick's, never stream_k), or the
// block-scaled kernel (GemmSm90BlockScaled<GemmSm90PersistentTall>: 192x128 tiles, three consumer
// warpgroups, gemm_sm90_fp8_block's default; `config` is then tall), A and B both e4m3 or both e5m2, D of bf16, fp16 or fp32, the epilogue form (never
// any). Both operands K-major (the only fp8 form of wgmma). index(): a dense number in [0, kCount).
struct GemmSm90Fp8JitKernel {
  enum class Out { bf16, f16, f32 };
  kernels::GemmSm90Pick config = kernels::GemmSm90Pick::large;
  bool block_scaled = false;
  bool e5m2 = false;
  Out out = Out::bf16;
  kernels::GemmSm90Epilogue epilogue = kernels::GemmSm90Epilogue::tma_plain;

  static constexpr int kSlots = 6;  // large, medium, small, wide, pingpong; 5: block-scaled (tall)
  static constexpr int kEpilogues = 3;
  static constexpr int kCount = kSlots * 2 * 3 * kEpilogues;

  // Pre: a valid kernel: config not stream-K, block_scaled exactly with tall, epilogue not any (else
  // std::invalid_argument).
  int index() const {
    if (epilogue == kernels::GemmSm90Epilogue::any)
      throw std::invalid_argument("GemmSm90Fp8JitKernel: the JIT compiles kernels of one epilogue form, not any");
    if (kernels::gemm_sm90_pick_is_stream_k(config))
      throw std::invalid_argument("GemmSm90Fp8JitKernel: no stream-K fp8 kernel (it spills); use large");
    if (block_scaled != (config == kernels::GemmSm90Pick::tall))
      throw std::invalid_argument(block_scaled
                                      ? "GemmSm90Fp8JitKernel: the block-scaled kernel has 192x128 tiles (tall)"
                                      : "GemmSm90Fp8JitKernel: the 192x128 tile (tall) is the block-scaled kernel's");
    int const slot = block_scaled ? 5 : int(config);
    return ((slot * 2 + (e5m2 ? 1 : 0)) * 3 + int(out)) * kEpilogues + (int(epilogue) - 1);
  }
  // Pre: 0 <= i < kCount (else std::invalid_argument).
  static GemmSm90Fp8JitKernel from_index(int i) {
    if (i < 0 || i >= kCount)
      throw std::invalid_argument("GemmSm90Fp8JitKernel: index " + std::to_string(i) + " is not in [0, " +
                                  std::to_string(kCount) + ")");
    GemmSm90Fp8JitKernel k;
    k.epilogue = kernels::GemmSm90Epilogue(i % kEpilogues + 1);
    int r = i / kEpilogues;
    k.out = Out(r % 3);
    r /= 3;
    k.e5m2 = r % 2 != 0;
    int const slot = r / 2;
    k.block_scaled = slot == 5;
    k.config = k.block_scaled ? kernels::GemmSm90Pick::tall : kernels::GemmSm90Pick(slot);
    return k;
  }
  friend bool operator==(GemmSm90Fp8JitKernel const&, GemmSm90Fp8JitKernel const&) = default;
};

namespace detail {
template <class T>
constexpr bool gemm_sm90_fp8_jit_e5m2() {
  static_assert(is_fp8_v<T>, "gemm_sm90_fp8 (JIT): A and B must be float_e4m3_t or float_e5m2_t");
  return std::is_same_v<T, float_e5m2_t>;
}
template <class TOut>
constexpr GemmSm90Fp8JitKernel::Out gemm_sm90_fp8_jit_out() {
  static_assert(std::is_same_v<TOut, bfloat16_t> || std::is_same_v<TOut, half_t> || std::is_same_v<TOut, float>,
                "gemm_sm90_fp8 (JIT): C and D must be bfloat16_t, half_t or float");
  if constexpr (std::is_same_v<TOut, bfloat16_t>) return GemmSm90Fp8JitKernel::Out::bf16;
  else if constexpr (std::is_same_v<TOut, half_t>) return GemmSm90Fp8JitKernel::Out::f16;
  else return GemmSm90Fp8JitKernel::Out::f32;
}
inline int gemm_sm90_fp8_jit_out_bytes(GemmSm90Fp8JitKernel::Out o) {
  return o == GemmSm90Fp8JitKernel::Out::f32 ? 4 : 2;
}
inline char const* gemm_sm90_fp8_jit_out_name(GemmSm90Fp8JitKernel::Out o) {
  switch (o) {
    case GemmSm90Fp8JitKernel::Out::f16: return "tessera::half_t";
    case GemmSm90Fp8JitKernel::Out::f32: return "float";
    case GemmSm90Fp8JitKernel::Out::bf16: break;
  }
  return "tessera::bfloat16_t";
}
// The bf16 kernel of the same tile, majors and epilogue form: its geometry is the fp8 kernel's (the
// fp8 kernels' plans count 16-bit units: the same stages, boxes and shared memory; the block-scaled
// wrapper keeps its base's geometry), and gemm_sm90_jit_params builds the units' arguments with it.
inline GemmSm90JitKernel gemm_sm90_fp8_jit_shape(GemmSm90Fp8JitKernel const& k) {
  GemmSm90JitKernel s;
  s.config = k.config;
  s.bf16 = true;
  s.out_f32 = k.out == GemmSm90Fp8JitKernel::Out::f32;
  s.a_k_major = s.b_k_major = true;
  s.epilogue = k.epilogue;
  return s;
}
// The problem of 16-bit units an fp8 problem is (pairs of elements along K): K, lda and ldb halved.
// Pre: K, lda, ldb even (check_gemm_fp8_problem asks multiples of 16).
template <class T, class TOut>
kernels::GemmProblem<std::uint16_t, TOut> gemm_sm90_fp8_jit_units(kernels::GemmProblem<T, TOut> const& p) {
  kernels::GemmProblem<std::uint16_t, TOut> u;
  u.m = p.m;
  u.n = p.n;
  u.k = p.k / 2;
  u.alpha = p.alpha;
  u.a = reinterpret_cast<std::uint16_t const*>(p.a);
  u.lda = p.lda / 2;
  u.a_major = p.a_major;
  u.b = reinterpret_cast<std::uint16_t const*>(p.b);
  u.ldb = p.ldb / 2;
  u.b_major = p.b_major;
  u.beta = p.beta;
  u.c = p.c;
  u.ldc = p.ldc;
  u.d = p.d;
  u.ldd = p.ldd;
  u.cd_major = p.cd_major;
  u.bias = p.bias;
  u.activation = p.activation;
  return u;
}
}  // namespace detail

// gemm_sm90_fp8_jit_kernel(problem, sms): the kernel for `problem` on a GPU of `sms` SMs. Block
// scales: the block-scaled 192x128 kernel (gemm_sm90_fp8_block's default). Others: gemm_sm90_pick's
// tile for D as computed (a column-major D transposed) with K in 16-bit units (a k-tile of 64 units
// is 128 fp8 elements, as the fp8 kernels count it) without stream-K (no fp8 stream-K kernel: it
// spills): gemm_sm90_pick_data_parallel's (the persistent 128x256 tile where gemm_sm90 runs
// stream-K on 128x256 tiles). Then the epilogue form, as gemm_sm90_jit_kernel.
// Pre: problem passes check_gemm_fp8_problem; sms >= 1.
// Example: 4096^3 e4m3, bf16 D row-major, beta 0, no bias: large, tma_plain.
template <class T, class TOut>
GemmSm90Fp8JitKernel gemm_sm90_fp8_jit_kernel(kernels::GemmFp8Problem<T, TOut> const& problem, int sms) {
  GemmSm90Fp8JitKernel k;
  k.e5m2 = detail::gemm_sm90_fp8_jit_e5m2<T>();
  k.out = detail::gemm_sm90_fp8_jit_out<TOut>();
  k.block_scaled = problem.scale_a.kind == kernels::GemmScaleKind::block;
  if (k.block_scaled) {
    k.config = kernels::GemmSm90Pick::tall;
  } else {
    long long const m = problem.cd_major == Major::row ? problem.m : problem.n;
    long long const n = problem.cd_major == Major::row ? problem.n : problem.m;
    bool const plain16 = sizeof(TOut) == 2 && kernels::detail::gemm_epilogue_plain(problem);
    k.config = kernels::gemm_sm90_pick_data_parallel(m, n, (problem.k + 1) / 2, plain16, sms);
  }
  kernels::GemmProblem<T, TOut> const& base = problem;
  GemmSm90JitKernel const shape = detail::gemm_sm90_fp8_jit_shape(k);
  k.epilogue = gemm_sm90_jit_epilogue(gemm_sm90_jit_geometry(shape).epilogue_buffers,
                                      kernels::detail::gemm_as_row_major_d(base));
  return k;
}

// The C++ type of the kernel's configuration: gemm_sm90_config_name's, wrapped in
// GemmSm90BlockScaled<...> for the block-scaled kernel.
inline std::string gemm_sm90_fp8_jit_config(GemmSm90Fp8JitKernel const& k) {
  std::string const base = gemm_sm90_jit_geometry(detail::gemm_sm90_fp8_jit_shape(k)).config_name;
  return k.block_scaled ? "tessera::kernels::GemmSm90BlockScaled<" + base + " >" : base;
}

// The name expressions of the kernel's program: [0] the GEMM kernel (GemmSm90Kernel<...>::name() of
// sm90_kernel.cuh with the epilogue form, spelled here).
inline std::vector<std::string> gemm_sm90_fp8_jit_names(GemmSm90Fp8JitKernel const& k) {
  std::string const type = k.e5m2 ? "tessera::float_e5m2_t" : "tessera::float_e4m3_t";
  std::string const roles = k.config == kernels::GemmSm90Pick::pingpong ? "GemmSm90PingpongRoles" : "GemmSm90WsRoles";
  return {"tessera::sm90::warp_specialized_kernel<tessera::kernels::detail::" + roles + "<" +
          gemm_sm90_fp8_jit_config(k) + ", " + type + ", " + detail::gemm_sm90_fp8_jit_out_name(k.out) +
          ", true, true, " + kernels::detail::gemm_sm90_epilogue_name(k.epilogue) + "> >"};
}

// gemm_sm90_fp8_jit_source(k, desc_align): the program of kernel k: sm90_kernel.cuh and the
// static_asserts of gemm_sm90_jit_source (the arguments' layouts, the parameter list, the shared
// memory, the threads, the TMA boxes in units) for the fp8 types. Pre: desc_align is 64 or 128.
inline std::string gemm_sm90_fp8_jit_source(GemmSm90Fp8JitKernel const& k, int desc_align) {
  if (desc_align != 64 && desc_align != 128)
    throw std::invalid_argument("gemm_sm90_fp8_jit_source: desc_align must be 64 or 128, got " +
                                std::to_string(desc_align));
  return detail::gemm_sm90_jit_program_source(
      {gemm_sm90_jit_geometry(detail::gemm_sm90_fp8_jit_shape(k)), gemm_sm90_fp8_jit_config(k),
       k.e5m2 ? "tessera::float_e5m2_t" : "tessera::float_e4m3_t", detail::gemm_sm90_fp8_jit_out_name(k.out),
       gemm_sm90_fp8_jit_names(k)[0], true, true, detail::gemm_sm90_fp8_jit_out_bytes(k.out)},
      desc_align);
}

// The scales as the kernel takes them (kernels::detail::gemm_sm90_scales, for the row-major-D form):
// block scales with their k-block strides (A's M, B's ceil(K/128)); else a pointer (null for none)
// and a step (1 for a vector, 0 for one value), exchanged for a column-major D (computed transposed).
template <class T, class TOut>
GemmSm90ParamsHost::Scales gemm_sm90_fp8_jit_scales(kernels::GemmFp8Problem<T, TOut> const& problem) {
  GemmSm90ParamsHost::Scales s;
  if (problem.scale_a.kind == kernels::GemmScaleKind::block) {
    s.a = problem.scale_a.data;
    s.a_step = problem.m;
    s.b = problem.scale_b.data;
    s.b_step = (problem.k + 127) / 128;
    return s;
  }
  auto const one = [](kernels::GemmScale const& x, float const*& data, int& step) {
    data = x.kind == kernels::GemmScaleKind::none ? nullptr : x.data;
    step = x.kind == kernels::GemmScaleKind::vector ? 1 : 0;
  };
  bool const flip = problem.cd_major == Major::col;
  one(flip ? problem.scale_b : problem.scale_a, s.a, s.a_step);
  one(flip ? problem.scale_a : problem.scale_b, s.b, s.b_step);
  return s;
}

// gemm_sm90_fp8_jit_params<DescAlign>(k, problem, sms, encode): the arguments of kernel k for the
// fp8 problem: those of its 16-bit units' problem (gemm_sm90_jit_params: K and the leading
// dimensions halved, the TMA maps of 2-byte elements) and the scales. Pre: problem passes
// check_gemm_fp8_problem; k is gemm_sm90_fp8_jit_kernel(problem, sms)'s kernel or another tile of
// the same types and epilogue form (else std::invalid_argument, as gemm_sm90_jit_params).
template <int DescAlign, class T, class TOut, class Encode>
GemmSm90JitArgs<DescAlign> gemm_sm90_fp8_jit_params(GemmSm90Fp8JitKernel const& k,
                                                    kernels::GemmFp8Problem<T, TOut> const& problem, int sms,
                                                    Encode&& encode) {
  if (k.e5m2 != detail::gemm_sm90_fp8_jit_e5m2<T>() || k.out != detail::gemm_sm90_fp8_jit_out<TOut>())
    throw std::invalid_argument("gemm_sm90_fp8 (JIT): the kernel was compiled for other types than the problem's");
  if (k.block_scaled != (problem.scale_a.kind == kernels::GemmScaleKind::block))
    throw std::invalid_argument(k.block_scaled ? "gemm_sm90_fp8 (JIT): the block-scaled kernel needs block scales"
                                               : "gemm_sm90_fp8 (JIT): block scales need the block-scaled kernel");
  kernels::GemmProblem<T, TOut> const& base = problem;
  auto const units = detail::gemm_sm90_fp8_jit_units(base);
  auto const units_d = detail::gemm_sm90_fp8_jit_units(kernels::detail::gemm_as_row_major_d(base));
  GemmSm90JitArgs<DescAlign> r =
      gemm_sm90_jit_params<DescAlign>(detail::gemm_sm90_fp8_jit_shape(k), units, units_d, sms, encode);
  r.params.scales = gemm_sm90_fp8_jit_scales(problem);
  return r;
}

// gemm_sm90_fp8_jit_launch(problem, gemm, stream, sms): what kernels::gemm_sm90_fp8 (or
// gemm_sm90_fp8_block, for block scales) computes, on `stream` in the current context: gemm is the
// kernel of gemm_sm90_fp8_jit_kernel(problem, sms)'s program (gemm_sm90_fp8_jit_names()[0]), sms the
// device's SM count. Throws std::invalid_argument for a problem check_gemm_fp8_problem refuses
// (naming fn), jit_error when the driver refuses a tensor map or the launch. Asynchronous.
template <class T, class TOut>
void gemm_sm90_fp8_jit_launch(kernels::GemmFp8Problem<T, TOut> const& problem, Kernel const& gemm, void* stream,
                              int sms, char const* fn = "gemm_sm90_fp8") {
  kernels::detail::check_gemm_fp8_problem(fn, problem);
  if (sms < 1) throw std::invalid_argument(std::string(fn) + " (JIT): sms must be >= 1, got " + std::to_string(sms));
  GemmSm90Fp8JitKernel const k = gemm_sm90_fp8_jit_kernel(problem, sms);
  auto const launch = [&](auto const& args) {
    LaunchConfig c;
    c.grid = {args.blocks};
    c.block = {args.threads};
    c.shared_bytes = args.smem_bytes;
    c.stream = stream;
    c.dependent = args.dependent;
    void* ptr[2] = {const_cast<GemmSm90ParamsHost*>(&args.params),
                    const_cast<void*>(static_cast<void const*>(&args.maps))};
    std::size_t const size[2] = {sizeof(args.params), sizeof(args.maps)};
    gemm.launch_raw(c, ptr, size, 2);
  };
  if (gemm_sm90_jit_descriptor_align() == 128) {
    launch(gemm_sm90_fp8_jit_params<128>(k, problem, sms, gemm_sm90_jit_encode));
  } else {
    launch(gemm_sm90_fp8_jit_params<64>(k, problem, sms, gemm_sm90_jit_encode));
  }
}

}  // namespace tessera::jit
