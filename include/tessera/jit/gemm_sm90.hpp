// gemm_sm90 through the JIT, with a host side that needs no CUDA toolkit and no CUDA runtime: the
// kernels of kernels/gemm/sm90_kernel.cuh compiled by NVRTC (one program per kernel, at its first
// use, cached in memory and on disk by jit::compile), their arguments built on the host, the
// packing of operands TMA cannot address and the launch through the driver opened at run time
// (jit/driver.hpp). What kernels::gemm_sm90 (kernels/gemm_sm90.cuh, nvcc) does, step by step:
//
//   gemm_sm90_jit_kernel(problem, sms)      which kernel runs the problem: gemm_sm90_pick's
//                                           configuration (kernels/gemm/sm90_policy.hpp) for the
//                                           row-major-D form, the types, the operands' majors
//   gemm_sm90_jit_source(kernel, align)     the program's source: sm90_kernel.cuh and static_asserts
//   gemm_sm90_jit_names(kernel)             its name expressions: the GEMM kernel, gemm_pack_kernel<T>
//   gemm_sm90_jit_params<Align>(...)        the kernel's arguments: GemmSm90ParamsHost (the values)
//                                           and GemmSm90MapsHost<Align> (the TMA atoms)
//   gemm_sm90_jit_launch(problem, gemm, pack, stream, sms)
//                                           checks, packing, the arguments, the launch
//
// The arguments. The kernel takes two (sm90/warp_specialized.cuh): GemmSm90Params, the values it
// reads (sizes, epilogue, raster, stream-K), by value, and GemmSm90Maps, the TMA atoms it hands to
// TMA by address, as a __grid_constant__. Both are device code (sm90_kernel.cuh's headers do not
// compile without the toolkit), so the host fills a copy of each layout, GemmSm90ParamsHost and
// GemmSm90MapsHost, and each program checks the copies against the real structs with
// static_asserts: every member's offset and size, each struct's size and alignment, the kernel's
// parameter list (the two, in that order), the dynamic shared memory, and the TMA boxes the host
// encodes (extents, contiguous mode, swizzle). A drift of the device code is a compile error naming
// the member and this file, never a kernel reading a misplaced field. The descriptors' alignment is
// NVRTC's (128 bytes from CUDA 13, 64 before: arch/copy_sm90_tma.cuh), so the maps' copy is a
// template on it and the loaded NVRTC's version picks it (gemm_sm90_jit_descriptor_align).
//
// Stream-K (gemm_sm90_pick's stream_k and the other stream-K picks, gemm_sm90_stream_k_plan's
// blocks and tiles) runs as kernels::gemm_sm90 runs it, cooperative, with a
// workspace allocated on the stream for each launch (flags zeroed, then the partial sums; freed
// after the launch, stream-ordered) instead of nvcc's workspace kept per stream
// (sm90/stream_workspace.cuh): nothing outlives a launch, a captured graph gets its own, and the
// pool of cuMemAllocAsync makes the allocation cheap. A refused cooperative launch or allocation
// runs the same kernel without sharing k-tiles out.
#pragma once

#if defined(__CUDACC_RTC__)
#error "tessera/jit/gemm_sm90.hpp: host only (it builds and launches gemm_sm90's kernels)"
#endif

#include <algorithm>
#include <cstddef>
#include <cstdint>
#include <cstring>
#include <optional>
#include <stdexcept>
#include <string>
#include <type_traits>
#include <vector>

#include "tessera/arch/tma_rules.hpp"
#include "tessera/jit/driver.hpp"
#include "tessera/jit/kernel.hpp"
#include "tessera/jit/nvrtc.hpp"
#include "tessera/kernels/gemm/sm90_config.hpp"
#include "tessera/kernels/gemm/sm90_policy.hpp"
#include "tessera/kernels/gemm_problem.hpp"

namespace tessera::jit {

// ---- which kernel ------------------------------------------------------------------------------

// One kernel of gemm_sm90 as the JIT compiles it: a configuration (gemm_sm90_pick's), the input type (bf16 or fp16), the output (fp32 or the input type), the majors of the
// row-major-D problem's operands: A (M,K) K-major (row-major), B (K,N) K-major (column-major), and
// the epilogue's form (kernels::GemmSm90Epilogue: tma_plain, tma or registers, never any: the JIT
// compiles for the problem it has, and leaves out the paths that problem does not take).
// index(): a dense number in [0, kCount), the key of its program.
struct GemmSm90JitKernel {
  kernels::GemmSm90Pick config = kernels::GemmSm90Pick::large;
  bool bf16 = true;
  bool out_f32 = false;
  bool a_k_major = true, b_k_major = true;
  kernels::GemmSm90Epilogue epilogue = kernels::GemmSm90Epilogue::tma_plain;

  static constexpr int kConfigs = 9;    // large, medium, small, wide, pingpong, stream_k, stream_k_medium,
                                        // stream_k_small, stream_k_narrow
  static constexpr int kEpilogues = 3;  // tma_plain, tma, registers
  static constexpr int kCount = kConfigs * 16 * kEpilogues;

  // Pre: epilogue is not any, config is one of gemm_sm90's (not tall) (else std::invalid_argument).
  int index() const {
    if (epilogue == kernels::GemmSm90Epilogue::any)
      throw std::invalid_argument("GemmSm90JitKernel: the JIT compiles kernels of one epilogue form, not any");
    if (int(config) >= kConfigs)
      throw std::invalid_argument(std::string("GemmSm90JitKernel: ") + kernels::to_string(config) +
                                  " is not one of gemm_sm90's configurations");
    int const bits = int(config) * 16 + (bf16 ? 8 : 0) + (out_f32 ? 4 : 0) + (a_k_major ? 2 : 0) + (b_k_major ? 1 : 0);
    return bits * kEpilogues + (int(epilogue) - 1);
  }
  // Pre: 0 <= i < kCount (else std::invalid_argument).
  static GemmSm90JitKernel from_index(int i) {
    if (i < 0 || i >= kCount)
      throw std::invalid_argument("GemmSm90JitKernel: index " + std::to_string(i) + " is not in [0, " +
                                  std::to_string(kCount) + ")");
    int const bits = i / kEpilogues;
    return {kernels::GemmSm90Pick(bits / 16),
            (bits & 8) != 0,
            (bits & 4) != 0,
            (bits & 2) != 0,
            (bits & 1) != 0,
            kernels::GemmSm90Epilogue(i % kEpilogues + 1)};
  }
  friend bool operator==(GemmSm90JitKernel const&, GemmSm90JitKernel const&) = default;
};

namespace detail {
template <class T>
struct TypeTag {
  using type = T;
};

// f(TypeTag<Cfg>{}) for the configuration of `pick`.
template <class F>
decltype(auto) gemm_sm90_jit_with_config(kernels::GemmSm90Pick pick, F&& f) {
  using namespace kernels;
  switch (pick) {
    case GemmSm90Pick::medium: return f(TypeTag<GemmSm90PersistentMedium>{});
    case GemmSm90Pick::small: return f(TypeTag<GemmSm90PersistentSmall>{});
    case GemmSm90Pick::wide: return f(TypeTag<GemmSm90PersistentWide>{});
    case GemmSm90Pick::pingpong: return f(TypeTag<GemmSm90PingpongDefault>{});
    case GemmSm90Pick::stream_k: return f(TypeTag<GemmSm90StreamKDefault>{});
    case GemmSm90Pick::stream_k_medium: return f(TypeTag<GemmSm90StreamKMedium>{});
    case GemmSm90Pick::stream_k_small: return f(TypeTag<GemmSm90StreamKSmall>{});
    case GemmSm90Pick::stream_k_narrow: return f(TypeTag<GemmSm90StreamKNarrow>{});
    case GemmSm90Pick::tall: return f(TypeTag<GemmSm90PersistentTall>{});
    case GemmSm90Pick::large: break;
  }
  return f(TypeTag<GemmSm90PersistentDefault>{});
}

// f(TypeTag<T>{}, TypeTag<TOut>{}) for the kernel's types.
template <class F>
decltype(auto) gemm_sm90_jit_with_types(GemmSm90JitKernel const& k, F&& f) {
  if (k.bf16) {
    if (k.out_f32) return f(TypeTag<bfloat16_t>{}, TypeTag<float>{});
    return f(TypeTag<bfloat16_t>{}, TypeTag<bfloat16_t>{});
  }
  if (k.out_f32) return f(TypeTag<half_t>{}, TypeTag<float>{});
  return f(TypeTag<half_t>{}, TypeTag<half_t>{});
}
}  // namespace detail

// ---- the kernel's arguments on the host ----------------------------------------------------------

// GemmSm90ParamsHost: the layout of kernels::detail::GemmSm90Params<Cfg, T, TOut, AK, BK>, the
// kernel's first argument (the values, passed by value; the same for every configuration, type pair
// and majors: pointers are pointers), member for member. Checked against the device struct by every
// program (gemm_sm90_jit_source).
struct GemmSm90ParamsHost {
  struct Epilogue {  // kernels::detail::GemmEpilogue<TOut> (kernels/gemm_epilogue.cuh)
    float alpha = 1.0f, beta = 0.0f;
    void const* c = nullptr;
    int ldc = 0;
    void* d = nullptr;
    int ldd = 0;
    void const* bias = nullptr;
    bool bias_per_row = false;
    bool pairs_aligned = false;
    bool plain = true;
    int last_m = 0, last_n = 0;
    bool fragment_pairs = false;
    int act = 0;  // kernels::GemmActivation (an enum class over int)
  };
  struct StreamK {  // kernels::detail::GemmSm90StreamK (tiles = 0: no stream-K)
    float* partials = nullptr;
    std::uint32_t* flags = nullptr;
    std::uint32_t epoch = 0;
    int tiles = 0;
  };
  struct Scales {  // kernels::detail::GemmSm90Scales (read by the fp8 kernels only)
    float const* a = nullptr;
    float const* b = nullptr;
    int a_step = 0, b_step = 0;
  };
  int M = 0, N = 0, K = 0;
  Epilogue ep;
  bool tma_store_d = false;
  int raster = 1;
  StreamK sk;
  Scales scales;
};

// GemmSm90MapsHost<DescAlign>: the layout of kernels::detail::GemmSm90Maps<Cfg, T, TOut, AK, BK>,
// the kernel's second argument (the TMA atoms, a __grid_constant__: one descriptor each), member for
// member; DescAlign is TmaDescriptor's alignment under the NVRTC that compiles the kernel. Checked
// like the values.
template <int DescAlign>
struct GemmSm90MapsHost {
  struct alignas(DescAlign) Descriptor {  // TmaCopy<...>: one TmaDescriptor (CUtensorMap)
    std::uint64_t opaque[16];
  };
  Descriptor tma_a{}, tma_b{}, tma_d{};
};

// The descriptors' alignment in the kernels that the loaded NVRTC compiles (arch/copy_sm90_tma.cuh:
// 128 bytes from CUDA 13, 64 before). Throws jit_error without NVRTC.
inline int gemm_sm90_jit_descriptor_align() { return Nvrtc::get().version_major() >= 13 ? 128 : 64; }

// One 2-D tensor map: cuTensorMapEncodeTiled's arguments for a row-major matrix of `outer` rows of
// `inner` elements, rows pitch_bytes apart, in boxes of box_outer x box_inner elements, 128-byte
// swizzled (the only mode the GEMM's boxes use), L2 promotion of 256 bytes, zeros outside.
struct GemmSm90TmaMap {
  void const* ptr = nullptr;
  int elem_bytes = 2;
  std::uint64_t inner = 0, outer = 0, ld = 0;  // ld: elements from one row to the next
  std::uint32_t box_inner = 0, box_outer = 0;
  int swizzle_bytes = 128;
};

namespace detail {
// The shared-memory box of an operand tile (BP x BK) as gemm_sm90_load_box lays it out: its two
// modes' extents (p, k) and the contiguous one (TMA's inner dimension). K-major: BP rows of 64
// k-elements (mode 1 contiguous); MN-major: one 64-wide p chunk of BK k-rows (mode 0 contiguous).
struct GemmSm90Box {
  int extent0, extent1, inner_mode;
  int box_inner() const { return inner_mode == 0 ? extent0 : extent1; }
  int box_outer() const { return inner_mode == 0 ? extent1 : extent0; }
};
inline GemmSm90Box gemm_sm90_load_box(int bp, int bk, bool k_major) {
  return k_major ? GemmSm90Box{bp, bk, 1} : GemmSm90Box{64, bk, 0};
}
// The epilogue's box: 64 rows x 128 bytes of D, row-major (mode 1 contiguous).
inline GemmSm90Box gemm_sm90_epilogue_box(int out_bytes) { return {64, 128 / out_bytes, 1}; }

// The tensor map of a matrix (rows x cols as the kernel indexes it: A (M,K), B as (N,K), D (M,N))
// whose mode `contiguous` has stride 1 and the other stride ld, read in `box`es (tma_box_params of
// atom/copy_traits_sm90_tma.cuh: a matrix of one row gets the smallest pitch TMA accepts).
inline GemmSm90TmaMap gemm_sm90_tma_map(void const* ptr, int elem_bytes, long long rows, long long cols, int ld,
                                        GemmSm90Box box) {
  GemmSm90TmaMap m;
  m.ptr = ptr;
  m.elem_bytes = elem_bytes;
  m.inner = std::uint64_t(box.inner_mode == 0 ? rows : cols);
  m.outer = std::uint64_t(box.inner_mode == 0 ? cols : rows);
  long long const one_row_pitch = (static_cast<long long>(m.inner) * elem_bytes + 15) / 16 * 16 / elem_bytes;
  m.ld = std::uint64_t(m.outer == 1 ? one_row_pitch : ld);
  m.box_inner = std::uint32_t(box.box_inner());
  m.box_outer = std::uint32_t(box.box_outer());
  return m;
}

// The bytes of dynamic shared memory the kernel asks for: sm90::shared_storage_bytes of
// GemmSm90Storage<Cfg, T> (the stages, SmemBytes<kEpilogueBytes> aligned to 128, the ring's 2 x
// Stages and the turn's 2 barriers of 8 bytes, the struct rounded to its 128-byte alignment) and
// 1024 bytes of room to align it. Checked by the program's static_assert.
template <class Cfg>
constexpr int gemm_sm90_jit_smem_bytes(int elem_bytes) {
  int const stages = Cfg::Stages * (Cfg::BM + Cfg::BN) * Cfg::BK * elem_bytes;
  int const epilogue = Cfg::kEpilogueBytes > 0 ? Cfg::kEpilogueBytes : 128;
  int const barriers = 8 * (2 * Cfg::Stages + 2);
  int const storage = (stages + epilogue + barriers + 127) / 128 * 128;
  return storage + 1024;
}

// TMA addresses a matrix directly when it starts 16-byte aligned and both its row pitch and its row
// length are multiples of 16 bytes (kernels/gemm_sm90.cuh, gemm_sm90_tma_addressable, whose comment
// says why the row length too).
inline bool gemm_sm90_tma_addressable(void const* p, long long ld, long long contiguous, int elem_bytes) {
  return reinterpret_cast<std::uintptr_t>(p) % 16 == 0 && (ld * elem_bytes) % 16 == 0 &&
         (contiguous * elem_bytes) % 16 == 0;
}
}  // namespace detail

// The configuration's geometry, as the launch needs it.
struct GemmSm90JitGeometry {
  std::string config_name;  // gemm_sm90_config_name, e.g. "tessera::kernels::GemmSm90WsConfig<128, 256, ...>"
  int bm = 0, bn = 0, bk = 0, threads = 0, smem_bytes = 0;
  bool epilogue_buffers = false;  // Cfg::kEpilogueBytes > 0: D may be stored through TMA
  int consumers = 0;              // consumer warpgroups (stream-K's partial sums: one slot each a block)
  bool stream_k = false;          // the blocks share out the last tiles' k-tiles (Cfg::StreamK)
};
inline GemmSm90JitGeometry gemm_sm90_jit_geometry(GemmSm90JitKernel const& k) {
  return detail::gemm_sm90_jit_with_config(k.config, [&](auto cfg) {
    using Cfg = typename decltype(cfg)::type;
    static_assert(kernels::detail::gemm_sm90_persistent_config<Cfg> && kernels::detail::gemm_sm90_cluster_m<Cfg> == 1,
                  "gemm_sm90 (JIT): the persistent kernels without clusters");
    return GemmSm90JitGeometry{kernels::detail::gemm_sm90_config_name<Cfg>(),
                               Cfg::BM,
                               Cfg::BN,
                               Cfg::BK,
                               Cfg::kThreads,
                               detail::gemm_sm90_jit_smem_bytes<Cfg>(2),
                               Cfg::kEpilogueBytes > 0,
                               Cfg::kConsumers,
                               kernels::detail::gemm_sm90_stream_k_config<Cfg>};
  });
}

// gemm_sm90_jit_epilogue(tma_buffers, p): the epilogue form of a kernel for the row-major-D problem
// p (gemm_as_row_major_d's form) in a configuration with epilogue buffers (tma_buffers) or not:
// registers where D cannot go through TMA, tma_plain for D = alpha A B, else tma.
// Example: a 16-byte aligned D of 4096 columns, beta 0, no bias or activation: tma_plain; with a
// bias: tma; with 4097 columns (rows TMA cannot address): registers.
template <class T, class TOut>
kernels::GemmSm90Epilogue gemm_sm90_jit_epilogue(bool tma_buffers, kernels::GemmProblem<T, TOut> const& p) {
  using kernels::GemmSm90Epilogue;
  if (!tma_buffers || !detail::gemm_sm90_tma_addressable(p.d, p.ldd, p.n, int(sizeof(TOut))))
    return GemmSm90Epilogue::registers;
  return kernels::detail::gemm_epilogue_plain(p) ? GemmSm90Epilogue::tma_plain : GemmSm90Epilogue::tma;
}

// gemm_sm90_jit_kernel(problem, sms): the kernel kernels::gemm_sm90 would run for `problem` on a
// GPU of `sms` SMs (gemm_sm90_pick on the tiles of D as computed: a column-major D transposed),
// compiled for the problem's epilogue form:
// registers where TMA cannot address D, else tma_plain for D = alpha A B, else tma. Pre: problem
// passes check_gemm_problem; sms >= 1. Example: 4096^3 bf16 row-major operands and D, beta 0, no
// bias or activation: large, A K-major, B not, tma_plain.
template <class T, class TOut>
GemmSm90JitKernel gemm_sm90_jit_kernel(kernels::GemmProblem<T, TOut> const& problem, int sms) {
  static_assert(std::is_same_v<T, half_t> || std::is_same_v<T, bfloat16_t>,
                "gemm_sm90 (JIT): A and B must be half_t or bfloat16_t");
  static_assert(std::is_same_v<TOut, T> || std::is_same_v<TOut, float>,
                "gemm_sm90 (JIT): C and D must be float or the input type");
  long long const m = problem.cd_major == Major::row ? problem.m : problem.n;
  long long const n = problem.cd_major == Major::row ? problem.n : problem.m;
  bool const plain16 = sizeof(TOut) == 2 && kernels::detail::gemm_epilogue_plain(problem);
  GemmSm90JitKernel k;
  k.config = kernels::gemm_sm90_pick(m, n, problem.k, plain16, sms);
  k.bf16 = std::is_same_v<T, bfloat16_t>;
  k.out_f32 = std::is_same_v<TOut, float>;
  kernels::GemmProblem<T, TOut> const p = kernels::detail::gemm_as_row_major_d(problem);
  k.a_k_major = p.a_major == Major::row;
  k.b_k_major = p.b_major == Major::col;
  k.epilogue = gemm_sm90_jit_epilogue(gemm_sm90_jit_geometry(k).epilogue_buffers, p);
  return k;
}

// The name expressions of the kernel's program: [0] the GEMM kernel (GemmSm90Kernel<...>::name() of
// sm90_kernel.cuh, which host code cannot include: spelled here, and a misspelling does not
// compile), [1] gemm_pack_kernel<T> (kernels/gemm_epilogue.cuh) for operands TMA cannot address.
inline std::vector<std::string> gemm_sm90_jit_names(GemmSm90JitKernel const& k) {
  return detail::gemm_sm90_jit_with_types(k, [&](auto t, auto tout) {
    using T = typename decltype(t)::type;
    using TOut = typename decltype(tout)::type;
    std::string const type = kernels::detail::gemm_sm90_type_name<T>();
    std::string const args = gemm_sm90_jit_geometry(k).config_name + ", " + type + ", " +
                             kernels::detail::gemm_sm90_type_name<TOut>() + ", " + (k.a_k_major ? "true" : "false") +
                             ", " + (k.b_k_major ? "true" : "false") + ", " +
                             kernels::detail::gemm_sm90_epilogue_name(k.epilogue);
    std::string const roles = k.config == kernels::GemmSm90Pick::pingpong ? "GemmSm90PingpongRoles" : "GemmSm90WsRoles";
    return std::vector<std::string>{
        "tessera::sm90::warp_specialized_kernel<tessera::kernels::detail::" + roles + "<" + args + "> >",
        "tessera::kernels::detail::gemm_pack_kernel<" + type + ">"};
  });
}

// gemm_sm90_jit_source(k, desc_align): the program of kernel k: sm90_kernel.cuh, then static_asserts
// that hold the device code to what the host launches with: the kernel's parameters (GemmSm90Params,
// GemmSm90Maps), laid out as GemmSm90ParamsHost and GemmSm90MapsHost<desc_align> (every member's
// offset and size; each struct's size and alignment), the dynamic shared memory, the threads, and the three TMA atoms' boxes (extents, contiguous mode,
// 128-byte swizzle) that gemm_sm90_jit_params encodes. Pre: desc_align is 64 or 128.
namespace detail {
// The program of one kernel of sm90_kernel.cuh (gemm_sm90_jit_source's, and jit/gemm_sm90_fp8.hpp's
// for the fp8 kernels): configuration `config` (a C++ type: g.config_name, or a wrapper of it such as
// GemmSm90BlockScaled<...>), input type `type` and output `tout` (C++ names), the majors, the
// kernel's name expression, D's element bytes, the descriptors' alignment.
struct GemmSm90JitProgram {
  GemmSm90JitGeometry g;
  std::string config, type, tout, kernel_name;
  bool a_k_major = true, b_k_major = true;
  int out_bytes = 2;
};
inline std::string gemm_sm90_jit_program_source(GemmSm90JitProgram const& k, int desc_align) {
  GemmSm90JitGeometry const& g = k.g;
  std::string const& type = k.type;
  std::string const& tout = k.tout;
  auto const b = [](bool v) { return std::string(v ? "true" : "false"); };
  auto const n = [](auto v) { return std::to_string(v); };
  std::string s =
      "// tessera::jit::gemm_sm90 (include/tessera/jit/gemm_sm90.hpp): one kernel of gemm_sm90 and the\n"
      "// checks that its arguments, shared memory and TMA boxes are what the host side builds.\n"
      "#include \"tessera/kernels/gemm/sm90_kernel.cuh\"\n"
      "namespace tessera_jit_gemm_sm90_check {\n"
      "using Cfg = " +
      k.config + ";\nusing T = " + type + ";\nusing TOut = " + tout +
      ";\n"
      "using P = tessera::kernels::detail::GemmSm90Params<Cfg, T, TOut, " +
      b(k.a_k_major) + ", " + b(k.b_k_major) +
      ">;\n"
      "using M = tessera::kernels::detail::GemmSm90Maps<Cfg, T, TOut, " +
      b(k.a_k_major) + ", " + b(k.b_k_major) +
      ">;\n"
      "// NVRTC has no constant offsetof (<cuda/std/cstddef>'s is pointer arithmetic); its front end's\n"
      "// __INTADDR__ folds one.\n"
      "#if defined(__CUDACC_RTC__)\n"
      "#define TESSERA_OFFSET_OF(type, member) ((unsigned long long)__INTADDR__(&(((type*)0)->member)))\n"
      "#else\n"
      "#define TESSERA_OFFSET_OF(type, member) ((unsigned long long)__builtin_offsetof(type, member))\n"
      "#endif\n"
      "#define TESSERA_HOST_COPY(what, expected, actual) static_assert((actual) == (expected), \"gemm_sm90 (JIT): \" "
      "what \" differs from the host's copy in include/tessera/jit/gemm_sm90.hpp (GemmSm90ParamsHost, "
      "GemmSm90MapsHost, gemm_sm90_jit_smem_bytes, its boxes): update it to kernels/gemm/sm90_kernel.cuh\")\n"
      "// The launch passes two arguments, the values and the TMA atoms, in that order.\n"
      "static_assert(std::is_same_v<decltype(&" +
      k.kernel_name +
      "), void (*)(P, M)>, \"gemm_sm90 (JIT): the kernel's parameters are no longer (GemmSm90Params, GemmSm90Maps): "
      "update gemm_sm90_jit_launch in include/tessera/jit/gemm_sm90.hpp\");\n";
  // One member of the device struct `dev` (P or M, named `name` in the messages) against the host's
  // copy: its offset and size.
  auto const member = [&](char const* dev, char const* name, char const* path, std::size_t offset, std::size_t size) {
    std::string const what = std::string(name) + "::" + path;
    s += "TESSERA_HOST_COPY(\"the offset of " + what + "\", " + n(offset) + "u, TESSERA_OFFSET_OF(" + dev + ", " +
         path + "));\n";
    s += "TESSERA_HOST_COPY(\"the size of " + what + "\", " + n(size) + "u, sizeof(static_cast<" + dev +
         "*>(nullptr)->" + path + "));\n";
  };
  {
    using HP = GemmSm90ParamsHost;
#define TESSERA_JIT_GEMM_MEMBER(path) \
  member("P", "GemmSm90Params", #path, offsetof(HP, path), sizeof(static_cast<HP*>(nullptr)->path))
    TESSERA_JIT_GEMM_MEMBER(M);
    TESSERA_JIT_GEMM_MEMBER(N);
    TESSERA_JIT_GEMM_MEMBER(K);
    TESSERA_JIT_GEMM_MEMBER(ep);
    TESSERA_JIT_GEMM_MEMBER(ep.alpha);
    TESSERA_JIT_GEMM_MEMBER(ep.beta);
    TESSERA_JIT_GEMM_MEMBER(ep.c);
    TESSERA_JIT_GEMM_MEMBER(ep.ldc);
    TESSERA_JIT_GEMM_MEMBER(ep.d);
    TESSERA_JIT_GEMM_MEMBER(ep.ldd);
    TESSERA_JIT_GEMM_MEMBER(ep.bias);
    TESSERA_JIT_GEMM_MEMBER(ep.bias_per_row);
    TESSERA_JIT_GEMM_MEMBER(ep.pairs_aligned);
    TESSERA_JIT_GEMM_MEMBER(ep.plain);
    TESSERA_JIT_GEMM_MEMBER(ep.last_m);
    TESSERA_JIT_GEMM_MEMBER(ep.last_n);
    TESSERA_JIT_GEMM_MEMBER(ep.fragment_pairs);
    TESSERA_JIT_GEMM_MEMBER(ep.act);
    TESSERA_JIT_GEMM_MEMBER(tma_store_d);
    TESSERA_JIT_GEMM_MEMBER(raster);
    TESSERA_JIT_GEMM_MEMBER(sk);
    TESSERA_JIT_GEMM_MEMBER(sk.partials);
    TESSERA_JIT_GEMM_MEMBER(sk.flags);
    TESSERA_JIT_GEMM_MEMBER(sk.epoch);
    TESSERA_JIT_GEMM_MEMBER(sk.tiles);
    TESSERA_JIT_GEMM_MEMBER(scales);
    TESSERA_JIT_GEMM_MEMBER(scales.a);
    TESSERA_JIT_GEMM_MEMBER(scales.b);
    TESSERA_JIT_GEMM_MEMBER(scales.a_step);
    TESSERA_JIT_GEMM_MEMBER(scales.b_step);
#undef TESSERA_JIT_GEMM_MEMBER
    s += "TESSERA_HOST_COPY(\"sizeof(GemmSm90Params)\", " + n(sizeof(HP)) + "u, sizeof(P));\n";
    s += "TESSERA_HOST_COPY(\"alignof(GemmSm90Params)\", " + n(alignof(HP)) + "u, alignof(P));\n";
  }
  auto const maps = [&](auto host) {
    using HM = typename decltype(host)::type;
#define TESSERA_JIT_GEMM_MAP(path) \
  member("M", "GemmSm90Maps", #path, offsetof(HM, path), sizeof(static_cast<HM*>(nullptr)->path))
    TESSERA_JIT_GEMM_MAP(tma_a);
    TESSERA_JIT_GEMM_MAP(tma_b);
    TESSERA_JIT_GEMM_MAP(tma_d);
#undef TESSERA_JIT_GEMM_MAP
    s += "TESSERA_HOST_COPY(\"sizeof(GemmSm90Maps)\", " + n(sizeof(HM)) + "u, sizeof(M));\n";
    s += "TESSERA_HOST_COPY(\"alignof(GemmSm90Maps)\", " + n(alignof(HM)) + "u, alignof(M));\n";
  };
  if (desc_align == 128) {
    maps(detail::TypeTag<GemmSm90MapsHost<128>>{});
  } else {
    maps(detail::TypeTag<GemmSm90MapsHost<64>>{});
  }
  // The activation: the host writes kernels::GemmActivation's value (kernels/gemm_problem.hpp, the
  // enum both sides include) as an int, so the member must be that enum, the size of an int.
  s += "static_assert(std::is_same_v<decltype(static_cast<P*>(nullptr)->ep.act), tessera::kernels::GemmActivation> && "
       "sizeof(tessera::kernels::GemmActivation) == sizeof(int), \"gemm_sm90 (JIT): GemmEpilogue::act must be a "
       "GemmActivation over int\");\n";
  // Shared memory and threads.
  s += "TESSERA_HOST_COPY(\"the dynamic shared memory (gemm_sm90_smem_bytes)\", " + n(g.smem_bytes) +
       ", (tessera::kernels::detail::gemm_sm90_smem_bytes<Cfg, T>()));\n";
  s += "TESSERA_HOST_COPY(\"the block's threads\", " + n(g.threads) + ", Cfg::kThreads);\n";
  // The boxes: (extent of mode 0, extent of mode 1, contiguous mode) and the 128-byte swizzle
  // (Swizzle<3, 4 - log2(bytes), 3>) of each TMA atom.
  auto const box = [&](std::string const& what, std::string const& atom, detail::GemmSm90Box bx, int bytes) {
    std::string const base = n(bytes == 2 ? 3 : 2);
    s += "TESSERA_HOST_COPY(\"" + what + "'s TMA box (extents, contiguous mode, swizzle)\", true, (" + "decltype(" +
         "tessera::size<0>(" + atom + "::box_layout()))::value == " + n(bx.extent0) + " && decltype(tessera::size<1>(" +
         atom + "::box_layout()))::value == " + n(bx.extent1) + " && " + atom + "::kInnerMode == " + n(bx.inner_mode) +
         " && tessera::detail::TmaBoxSwizzle<" + atom + "::box_type>::bits == 3 && tessera::detail::TmaBoxSwizzle<" +
         atom + "::box_type>::base == " + base + " && tessera::detail::TmaBoxSwizzle<" + atom +
         "::box_type>::shift == 3));\n";
  };
  box("A", "tessera::kernels::detail::GemmSm90TmaA<Cfg, T, " + b(k.a_k_major) + ">",
      detail::gemm_sm90_load_box(g.bm, g.bk, k.a_k_major), 2);
  box("B", "tessera::kernels::detail::GemmSm90TmaB<Cfg, T, " + b(k.b_k_major) + ", 1>",
      detail::gemm_sm90_load_box(g.bn, g.bk, k.b_k_major), 2);
  box("D", "tessera::kernels::detail::GemmSm90TmaD<TOut>", detail::gemm_sm90_epilogue_box(k.out_bytes), k.out_bytes);
  s += "#undef TESSERA_HOST_COPY\n#undef TESSERA_OFFSET_OF\n}  // namespace tessera_jit_gemm_sm90_check\n";
  return s;
}
}  // namespace detail

inline std::string gemm_sm90_jit_source(GemmSm90JitKernel const& k, int desc_align) {
  if (desc_align != 64 && desc_align != 128)
    throw std::invalid_argument("gemm_sm90_jit_source: desc_align must be 64 or 128, got " +
                                std::to_string(desc_align));
  GemmSm90JitGeometry g = gemm_sm90_jit_geometry(k);
  std::string const config = g.config_name;
  std::string const type = k.bf16 ? "tessera::bfloat16_t" : "tessera::half_t";
  return detail::gemm_sm90_jit_program_source({std::move(g), config, type, k.out_f32 ? "float" : type,
                                               gemm_sm90_jit_names(k)[0], k.a_k_major, k.b_k_major, k.out_f32 ? 4 : 2},
                                              desc_align);
}

// What gemm_sm90_jit_params made: the kernel's two arguments (the values; the TMA atoms), the
// tensor maps it encoded, and the launch.
template <int DescAlign>
struct GemmSm90JitArgs {
  GemmSm90ParamsHost params;
  GemmSm90MapsHost<DescAlign> maps;
  GemmSm90TmaMap map_a, map_b;
  std::optional<GemmSm90TmaMap> map_d;  // none: D stored from registers
  unsigned blocks = 0, threads = 0, smem_bytes = 0;
  bool dependent = false;
  // Stream-K (params.sk.tiles > 0): the workspace the launch allocates, `flags` 32-bit words (zeroed
  // before the launch) then `partial_bytes` of partial sums, and a cooperative launch (a block
  // waits for others: every block resident at once); params.sk's pointers are the launch's to fill.
  int sk_flags = 0;
  std::size_t sk_partial_bytes = 0;
  bool cooperative = false;
};

// gemm_sm90_jit_params<DescAlign>(k, problem, p, sms, encode): the arguments of kernel k for the
// problem as the user gave it (`problem`: its D's order decides where the bias runs) and its
// row-major-D form `p` after packing (operands TMA can address), on `sms` SMs; what
// kernels::detail::gemm_sm90_launch and make_gemm_epilogue compute. encode(map, out) writes the
// 128-byte tensor map of `map` to out (gemm_sm90_jit_encode; a test records the maps instead).
// Pre: p's A and B TMA-addressable; k is gemm_sm90_jit_kernel(problem, sms)'s kernel (or another
// configuration of the same types, majors and epilogue form). Throws std::invalid_argument naming a
// broken TMA rule (arch/tma_rules.hpp), or when p's epilogue form is not k's.
template <int DescAlign, class T, class TOut, class Encode>
GemmSm90JitArgs<DescAlign> gemm_sm90_jit_params(GemmSm90JitKernel const& k,
                                                kernels::GemmProblem<T, TOut> const& problem,
                                                kernels::GemmProblem<T, TOut> const& p, int sms, Encode&& encode) {
  GemmSm90JitGeometry const g = gemm_sm90_jit_geometry(k);
  // The kernel leaves out the epilogue paths of other forms: refuse a problem of another form.
  if (kernels::GemmSm90Epilogue const form = gemm_sm90_jit_epilogue(g.epilogue_buffers, p); form != k.epilogue)
    throw std::invalid_argument("gemm_sm90 (JIT): the kernel was compiled for the epilogue " +
                                kernels::detail::gemm_sm90_epilogue_name(k.epilogue) + ", the problem needs " +
                                kernels::detail::gemm_sm90_epilogue_name(form) +
                                " (gemm_sm90_jit_kernel(problem, sms) names the kernel to compile)");
  GemmSm90JitArgs<DescAlign> r;
  auto& a = r.params;
  a.M = p.m;
  a.N = p.n;
  a.K = p.k;
  // make_gemm_epilogue (kernels/gemm_epilogue.cuh)
  auto const pair_aligned = [](void const* q) { return reinterpret_cast<std::uintptr_t>(q) % (2 * sizeof(TOut)) == 0; };
  a.ep.alpha = p.alpha;
  a.ep.beta = p.beta;
  a.ep.c = p.c;
  a.ep.ldc = p.ldc;
  a.ep.d = p.d;
  a.ep.ldd = p.ldd;
  a.ep.bias = p.bias;
  a.ep.bias_per_row = problem.cd_major == Major::col;
  a.ep.pairs_aligned = p.ldd % 2 == 0 && pair_aligned(p.d);
  a.ep.act = int(p.activation);
  a.ep.last_m = p.m - 1;
  a.ep.last_n = p.n - 1;
  a.ep.fragment_pairs =
      (p.beta == 0.0f || (p.ldc % 2 == 0 && pair_aligned(p.c))) && (p.bias == nullptr || pair_aligned(p.bias));
  a.ep.plain = kernels::detail::gemm_epilogue_plain(p);
  // The tensor maps (gemm_sm90_launch): A (M,K), B seen as (N,K), D (M,N) row-major.
  constexpr int eb = int(sizeof(T)), ob = int(sizeof(TOut));
  r.map_a = detail::gemm_sm90_tma_map(p.a, eb, p.m, p.k, p.lda, detail::gemm_sm90_load_box(g.bm, g.bk, k.a_k_major));
  r.map_b = detail::gemm_sm90_tma_map(p.b, eb, p.n, p.k, p.ldb, detail::gemm_sm90_load_box(g.bn, g.bk, k.b_k_major));
  a.tma_store_d = k.epilogue != kernels::GemmSm90Epilogue::registers;  // the form checked above decided it
  if (a.tma_store_d) r.map_d = detail::gemm_sm90_tma_map(p.d, ob, p.m, p.n, p.ldd, detail::gemm_sm90_epilogue_box(ob));
  auto const check_and_encode = [&](char const* name, GemmSm90TmaMap const& m, void* out) {
    TmaMatrix2d const rule{m.ptr != nullptr && reinterpret_cast<std::uintptr_t>(m.ptr) % 16 == 0,
                           m.elem_bytes,
                           m.inner,
                           m.outer,
                           m.ld,
                           m.box_inner,
                           m.box_outer,
                           m.swizzle_bytes};
    if (std::optional<std::string> const v = tma_2d_violation(rule))
      throw std::invalid_argument(std::string("gemm_sm90 (JIT): the tensor map of ") + name + ": " + *v);
    encode(m, out);
  };
  check_and_encode("A", r.map_a, &r.maps.tma_a);
  check_and_encode("B", r.map_b, &r.maps.tma_b);
  if (r.map_d) check_and_encode("D", *r.map_d, &r.maps.tma_d);
  // The launch: one block per SM at most (persistent), the raster for sms units of bm x bn tiles.
  long long const tiles = ((p.m + g.bm - 1LL) / g.bm) * ((p.n + g.bn - 1LL) / g.bn);
  r.blocks = unsigned(std::min<long long>(tiles, sms));
  r.threads = unsigned(g.threads);
  r.smem_bytes = unsigned(g.smem_bytes);
  a.raster = kernels::detail::gemm_sm90_raster_rows(sms, g.bm, g.bn);
  r.dependent = kernels::detail::gemm_sm90_dependent_launch_enabled();
  if (g.stream_k) {  // kernels::detail::gemm_sm90_launch's stream-K: gemm_sm90_stream_k_plan's blocks and tiles
    kernels::detail::GemmSm90StreamKPlan const plan =
        kernels::detail::gemm_sm90_stream_k_plan(tiles, (p.k + g.bk - 1) / g.bk, sms);
    a.sk.tiles = plan.tiles;
    if (a.sk.tiles > 0) {
      int const units = plan.units;
      r.blocks = unsigned(units);
      a.sk.epoch = 1;  // the flags are zeroed before each launch (a fresh workspace)
      r.sk_flags = units * g.consumers;
      r.sk_partial_bytes = std::size_t(units) * std::size_t(g.consumers) * 128 * std::size_t(g.bn / 2) * sizeof(float);
      r.cooperative = true;  // alone: a cooperative grid starts whole, so no programmatic dependent launch
      r.dependent = false;
    }
  }
  return r;
}

// ---- the driver's side ---------------------------------------------------------------------------

// cuTensorMapEncodeTiled's enumerators (cuda.h; tests/jit/driver_abi.cpp checks them).
enum : int {
  kTensorMapUint16 = 1,           // CU_TENSOR_MAP_DATA_TYPE_UINT16
  kTensorMapUint32 = 2,           // CU_TENSOR_MAP_DATA_TYPE_UINT32
  kTensorMapInterleaveNone = 0,   // CU_TENSOR_MAP_INTERLEAVE_NONE
  kTensorMapSwizzle128B = 3,      // CU_TENSOR_MAP_SWIZZLE_128B
  kTensorMapL2Promotion256B = 3,  // CU_TENSOR_MAP_L2_PROMOTION_L2_256B
  kTensorMapOobFillNone = 0,      // CU_TENSOR_MAP_FLOAT_OOB_FILL_NONE
};

// gemm_sm90_jit_encode(map, out): the 128-byte tensor map of `map` into out (64-byte aligned
// storage), through the driver's cuTensorMapEncodeTiled (what make_tma_desc_2d does through the
// runtime). Throws jit_error when the driver lacks it or refuses.
inline void gemm_sm90_jit_encode(GemmSm90TmaMap const& m, void* out) {
  auto const& d = cu::Driver::get();
  if (!d.tensor_map_encode_tiled)
    throw jit_error("the CUDA driver has no cuTensorMapEncodeTiled: update the GPU driver (TMA needs CUDA 12)");
  alignas(64) std::uint64_t desc[16] = {};
  unsigned long long const dims[2] = {m.inner, m.outer};
  unsigned long long const strides[1] = {m.ld * std::uint64_t(m.elem_bytes)};
  unsigned const box[2] = {m.box_inner, m.box_outer};
  unsigned const elem_strides[2] = {1, 1};
  int const swizzle = m.swizzle_bytes == 128 ? kTensorMapSwizzle128B : 0;
  d.check(d.tensor_map_encode_tiled(
              desc, m.elem_bytes == 2 ? kTensorMapUint16 : kTensorMapUint32, 2, const_cast<void*>(m.ptr), dims, strides,
              box, elem_strides, kTensorMapInterleaveNone, swizzle, kTensorMapL2Promotion256B, kTensorMapOobFillNone),
          "cuTensorMapEncodeTiled");
  std::memcpy(out, desc, sizeof(desc));
}

namespace detail {
// Device memory allocated on a stream (cuMemAllocAsync), freed on it (cuMemFreeAsync) when the
// holder goes: after the launches queued on the stream meanwhile, which read it.
class StreamBuffer {
 public:
  StreamBuffer(std::size_t bytes, void* stream) : stream_(stream) {
    auto const& d = cu::Driver::get();
    if (!d.mem_alloc_async)
      throw jit_error("the CUDA driver has no cuMemAllocAsync: update the GPU driver (CUDA 11.2 or newer)");
    d.check(d.mem_alloc_async(&ptr_, bytes, static_cast<cu::Stream>(stream)), "cuMemAllocAsync");
  }
  StreamBuffer(StreamBuffer const&) = delete;
  StreamBuffer& operator=(StreamBuffer const&) = delete;
  ~StreamBuffer() {
    if (ptr_ != 0) (void)cu::Driver::get().mem_free_async(ptr_, static_cast<cu::Stream>(stream_));
  }
  void* get() const { return reinterpret_cast<void*>(static_cast<std::uintptr_t>(ptr_)); }

 private:
  cu::DevicePtr ptr_ = 0;
  void* stream_ = nullptr;
};
}  // namespace detail

// gemm_sm90_jit_launch(problem, gemm, pack, stream, sms): D = act(alpha A B + beta C + bias) on
// `stream` (a CUstream / cudaStream_t) in the current context, as kernels::gemm_sm90 computes it:
// gemm and pack are the kernels of gemm_sm90_jit_kernel(problem, sms)'s program
// (gemm_sm90_jit_names: [0] and [1]), sms the device's SM count. Operands TMA cannot address are
// packed first into stream-ordered buffers (gemm_pack_kernel, rows padded to 8 elements). Throws
// std::invalid_argument for a problem check_gemm_problem refuses (naming "gemm_sm90"), jit_error
// when the driver refuses an allocation or launch. Asynchronous.
template <class T, class TOut>
void gemm_sm90_jit_launch(kernels::GemmProblem<T, TOut> const& problem, Kernel const& gemm, Kernel const& pack,
                          void* stream, int sms) {
  kernels::detail::check_gemm_problem("gemm_sm90", problem);
  if (sms < 1) throw std::invalid_argument("gemm_sm90 (JIT): sms must be >= 1, got " + std::to_string(sms));
  GemmSm90JitKernel const k = gemm_sm90_jit_kernel(problem, sms);
  kernels::GemmProblem<T, TOut> p = kernels::detail::gemm_as_row_major_d(problem);
  // Operands TMA cannot address, packed (kernels::detail::gemm_sm90_run's pack).
  std::optional<detail::StreamBuffer> packed[2];
  auto const pack_operand = [&](T const*& ptr, int& ld, Major major, int rows, int cols,
                                std::optional<detail::StreamBuffer>& out) {
    int const contiguous = major == Major::row ? cols : rows;
    if (detail::gemm_sm90_tma_addressable(ptr, ld, contiguous, int(sizeof(T)))) return;
    int const lines = major == Major::row ? rows : cols;
    int const ld_packed = (contiguous + 7) / 8 * 8;
    std::size_t const count = std::size_t(lines) * std::size_t(ld_packed);
    T* const dst = static_cast<T*>(out.emplace(count * sizeof(T), stream).get());
    LaunchConfig c;
    c.grid = {unsigned((count + 255) / 256)};
    c.block = {256};
    c.stream = stream;
    pack.launch(c, ptr, ld, lines, contiguous, dst, ld_packed);
    ptr = dst;
    ld = ld_packed;
  };
  pack_operand(p.a, p.lda, p.a_major, p.m, p.k, packed[0]);
  pack_operand(p.b, p.ldb, p.b_major, p.k, p.n, packed[1]);
  auto const launch = [&](auto&& args) {
    LaunchConfig c;
    c.grid = {args.blocks};
    c.block = {args.threads};
    c.shared_bytes = args.smem_bytes;
    c.stream = stream;
    c.dependent = args.dependent;
    c.cooperative = args.cooperative;
    // Stream-K's workspace: allocated on the stream for this launch and freed after it (stream-
    // ordered, so a captured graph gets its own), its flags zeroed first (the kernel lowers each
    // flag it consumed, but a new allocation holds anything).
    std::optional<detail::StreamBuffer> workspace;  // freed (stream-ordered) after the launch
    if (args.params.sk.tiles > 0) {
      auto const& d = cu::Driver::get();
      if (!d.memset_d32_async) throw jit_error("the CUDA driver has no cuMemsetD32Async: update the GPU driver");
      std::size_t const flag_bytes = (std::size_t(args.sk_flags) * sizeof(std::uint32_t) + 255) / 256 * 256;
      auto* const base =
          static_cast<unsigned char*>(workspace.emplace(flag_bytes + args.sk_partial_bytes, stream).get());
      d.check(d.memset_d32_async(reinterpret_cast<std::uintptr_t>(base), 0u, std::size_t(args.sk_flags),
                                 static_cast<cu::Stream>(stream)),
              "cuMemsetD32Async");
      args.params.sk.flags = reinterpret_cast<std::uint32_t*>(base);
      args.params.sk.partials = reinterpret_cast<float*>(base + flag_bytes);
    }
    // (params, maps): the values by value, the TMA atoms as the __grid_constant__
    void* ptr[2] = {&args.params, &args.maps};
    std::size_t const size[2] = {sizeof(args.params), sizeof(args.maps)};
    gemm.launch_raw(c, ptr, size, 2);
  };
  // Stream-K where its cooperative launch or its workspace is refused (another kernel holding SMs,
  // a partitioned GPU, no memory): the same kernel without sharing k-tiles out (sk.tiles = 0: no
  // waits, no workspace), as kernels::gemm_sm90 falls back to its persistent kernel.
  auto const run = [&](auto&& args) {
    if (args.params.sk.tiles == 0) return launch(args);
    try {
      launch(args);
    } catch (jit_error const& e) {
      if (e.code() != cu::kErrorCooperativeLaunchTooLarge && e.code() != cu::kErrorOutOfMemory) throw;
      args.params.sk = {};
      args.cooperative = false;
      args.dependent = kernels::detail::gemm_sm90_dependent_launch_enabled();
      launch(args);
    }
  };
  if (gemm_sm90_jit_descriptor_align() == 128) {
    auto args = gemm_sm90_jit_params<128>(k, problem, p, sms, gemm_sm90_jit_encode);
    run(args);
  } else {
    auto args = gemm_sm90_jit_params<64>(k, problem, p, sms, gemm_sm90_jit_encode);
    run(args);
  }
}

}  // namespace tessera::jit
