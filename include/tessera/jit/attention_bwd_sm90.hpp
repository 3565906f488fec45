// attention_backward_sm90 through the JIT, with a host side that needs no CUDA toolkit and no CUDA
// runtime (as jit/attention_sm90.hpp does for the forward): the three kernels of
// kernels/attention/backward.cuh (the preprocessing, the main kernel of backward_sm90.cuh, the
// postprocessing) compiled by NVRTC in one program per head_dim (64, 128), element type and
// varlen (8 programs), their arguments built on the host and launched through the driver.
//
//   AttentionBwdSm90JitProblem             kernels::AttentionBackwardProblem<T> with the element
//                                          type as a flag and untyped pointers
//   check_attention_bwd_sm90_jit_problem(fn, p)
//                                          kernels::check_attention_backward_problem on it
//   attention_bwd_sm90_jit_workspace_bytes(p)
//                                          kernels::attention_backward_workspace_bytes
//   AttentionBwdSm90JitKernel, attention_bwd_sm90_jit_kernel(p)
//                                          which program: head_dim, type, varlen (index 0..7)
//   attention_bwd_sm90_jit_source(kernel, align), attention_bwd_sm90_jit_names(kernel)
//                                          the program: backward.cuh and static_asserts that hold
//                                          the device structs to the host's copies below
//   attention_bwd_sm90_jit_args<Align>(problem, encode, encode_2d, sms)
//                                          the three kernels' arguments and grids
//   attention_bwd_sm90_jit_encode_2d(map, out)
//                                          a 2-D fp32 map of the workspace (LSE log2 e, D, the dQ
//                                          accumulator) through the driver
//   attention_bwd_sm90_jit_launch(problem, pre, main, post, stream)
//                                          the checks, the arguments, the three launches
//
// The host's copies of the four argument structs (AttentionBwdPreParamsHost,
// AttentionBwdSm90ParamsHost, AttentionBwdSm90MapsHost<Align> with its seven tensor maps,
// AttentionBwdPostParamsHost) are checked by every program, member by member (offset and size)
// and as wholes (size, alignment), with the tile, the step (DqTma), threads and dynamic shared
// memory: a drift of the device code is a compile error naming this file. What the launch
// computes is kernels::detail::attention_bwd_sm90_launch's.
#pragma once

#if defined(__CUDACC_RTC__)
#error "tessera/jit/attention_bwd_sm90.hpp: host only (it builds and launches attention_backward_sm90's kernels)"
#endif

#include <algorithm>
#include <cstddef>
#include <cstdint>
#include <cstring>
#include <optional>
#include <stdexcept>
#include <string>
#include <tuple>
#include <type_traits>
#include <utility>
#include <vector>

#include "tessera/arch/tma_rules.hpp"
#include "tessera/jit/attention_sm90.hpp"
#include "tessera/kernels/attention/backward_problem.hpp"

namespace tessera::jit {

// ---- the problem ---------------------------------------------------------------------------------

// kernels::AttentionBackwardProblem<T> with T named by fwd.bf16 and untyped pointers: the forward's
// problem (Q, K, V, O, LSE, sizes, strides, scale, mask, varlen), dO, dQ, dK, dV and their strides,
// the caller's workspace.
struct AttentionBwdSm90JitProblem {
  AttentionSm90JitProblem fwd;
  void const* dout = nullptr;
  void* dq = nullptr;
  void* dk = nullptr;
  void* dv = nullptr;
  kernels::AttentionStrides dout_strides, dq_strides, dk_strides, dv_strides;
  void* workspace = nullptr;
  std::size_t workspace_bytes = 0;
};

// The problem as the launcher's kernels::AttentionBackwardProblem<T> (the checks and the sizes
// depend on the element's size only).
template <class T>
kernels::AttentionBackwardProblem<T> attention_bwd_sm90_jit_typed(AttentionBwdSm90JitProblem const& p) {
  kernels::AttentionBackwardProblem<T> b;
  b.fwd = attention_sm90_jit_typed<T>(p.fwd);
  b.dout = static_cast<T const*>(p.dout);
  b.dq = static_cast<T*>(p.dq);
  b.dk = static_cast<T*>(p.dk);
  b.dv = static_cast<T*>(p.dv);
  b.dout_strides = p.dout_strides;
  b.dq_strides = p.dq_strides;
  b.dk_strides = p.dk_strides;
  b.dv_strides = p.dv_strides;
  b.workspace = p.workspace;
  b.workspace_bytes = p.workspace_bytes;
  return b;
}

// The workspace the caller allocates (kernels::attention_backward_workspace_bytes).
inline std::size_t attention_bwd_sm90_jit_workspace_bytes(AttentionBwdSm90JitProblem const& p) {
  return kernels::attention_backward_workspace_bytes(attention_bwd_sm90_jit_typed<half_t>(p));
}

// check_attention_bwd_sm90_jit_problem(fn, p): kernels::check_attention_backward_problem(fn, p):
// std::invalid_argument("<fn>: <rule> (<values>)") for the first rule p breaks.
inline void check_attention_bwd_sm90_jit_problem(char const* fn, AttentionBwdSm90JitProblem const& p) {
  kernels::check_attention_backward_problem(fn, attention_bwd_sm90_jit_typed<half_t>(p));
}

// ---- which program -------------------------------------------------------------------------------

// One program: head_dim (64 or 128), the element type, varlen (AttentionBwdSm90Config<D, false,
// varlen>, the launcher's default: the lean step in the plain order, dQ added by a TMA reduce-add,
// DqTma). index(): a dense number in [0, kCount).
struct AttentionBwdSm90JitKernel {
  static constexpr int kCount = 8;
  int head_dim = 128;
  bool bf16 = true;
  bool varlen = false;
  int index() const { return (head_dim == 128 ? 4 : 0) + (bf16 ? 2 : 0) + (varlen ? 1 : 0); }
  static AttentionBwdSm90JitKernel from_index(int i) {
    if (i < 0 || i >= kCount)
      throw std::invalid_argument("AttentionBwdSm90JitKernel::from_index: " + std::to_string(i) + " is not in [0, " +
                                  std::to_string(kCount) + ")");
    return AttentionBwdSm90JitKernel{i >= 4 ? 128 : 64, (i & 2) != 0, (i & 1) != 0};
  }
};

inline AttentionBwdSm90JitKernel attention_bwd_sm90_jit_kernel(AttentionBwdSm90JitProblem const& p) {
  return AttentionBwdSm90JitKernel{p.fwd.head_dim, p.fwd.bf16, p.fwd.cu_seqlens_q != nullptr};
}

// The geometry (the program's AttentionBwdSm90Config, its Roles and Storage), static_asserted by the
// program: bm 64 queries a step, bn 128 keys a block, 384 threads; smem_bytes
// sm90::shared_storage_bytes of the storage: the dQ staging first (2 consumer warpgroups' shares of
// 64 x 64 fp32, 1024-byte aligned), K, V (bn D), 2 stages of Q and dO (bm D), 2 dS^T buffers
// (bn bm) of 16-bit elements, LSE log2 e and D (2 stages of bm fp32 each, 128-byte aligned), 5
// barriers, the struct rounded up to its alignment (1024 bytes: the staging's), and 1024 bytes of
// room to align it. head_dim 128: 199,680 bytes; 64: 134,144.
struct AttentionBwdSm90JitGeometry {
  int bm = 64, bn = 128, threads = 384, stages = 2, smem_bytes = 0;
};
inline AttentionBwdSm90JitGeometry attention_bwd_sm90_jit_geometry(AttentionBwdSm90JitKernel const& k) {
  AttentionBwdSm90JitGeometry g;
  int const dq_shares = 2 * 64 * 64 * 4;  // AttentionBwdSm90DqStage: a share a consumer warpgroup
  int const tiles = (2 * g.bn * k.head_dim + 2 * g.stages * g.bm * k.head_dim + 2 * g.bn * g.bm) * 2;
  int const rows = 2 * g.stages * g.bm * 4;  // LSE log2 e, D (the tiles end 1024-byte aligned)
  int const barriers = 8 * (2 * g.stages + 1);
  g.smem_bytes = (dq_shares + tiles + rows + barriers + 1023) / 1024 * 1024 + 1024;
  return g;
}

inline std::string attention_bwd_sm90_jit_type(AttentionBwdSm90JitKernel const& k) {
  return k.bf16 ? "tessera::bfloat16_t" : "tessera::half_t";
}

// The three kernels' name expressions: the preprocessing, the main kernel, the postprocessing.
inline std::vector<std::string> attention_bwd_sm90_jit_names(AttentionBwdSm90JitKernel const& k) {
  std::string const t = attention_bwd_sm90_jit_type(k);
  return {"tessera::kernels::detail::attention_bwd_preprocess<" + t + ">",
          "tessera::sm90::warp_specialized_kernel<tessera::kernels::detail::AttentionBwdSm90Roles<"
          "tessera::kernels::AttentionBwdSm90Config<" +
              std::to_string(k.head_dim) + ", false, " + (k.varlen ? "true" : "false") + ">, " + t + "> >",
          "tessera::kernels::detail::attention_bwd_postprocess<" + t + ">"};
}

// ---- the kernels' arguments on the host ------------------------------------------------------------

// kernels::detail::AttentionBwdPreParams<T>, member for member.
struct AttentionBwdPreParamsHost {
  void const* o = nullptr;
  long long o_batch = 0, o_head = 0, o_seq = 0;
  void const* dout = nullptr;
  long long do_batch = 0, do_head = 0, do_seq = 0;
  float const* lse = nullptr;
  float* lse2 = nullptr;
  float* dsum = nullptr;
  float* dq_accum = nullptr;
  int heads_q = 0, seq_q = 0, rows_pad = 0, d = 0;
  long long rows = 0;
  int const* cu_seqlens_q = nullptr;
  int batch = 0, total_q = 0;
};

// kernels::detail::AttentionBwdPostParams<T>, member for member.
struct AttentionBwdPostParamsHost {
  float const* dq_accum = nullptr;
  void* dq = nullptr;
  long long dq_batch = 0, dq_head = 0, dq_seq = 0;
  int heads_q = 0, seq_q = 0, rows_pad = 0, d = 0;
  long long pairs = 0;
  float scale = 0.0f;
  int const* cu_seqlens_q = nullptr;
  int batch = 0, total_q = 0;
};

// kernels::AttentionBwdSm90Params<T>, member for member.
struct AttentionBwdSm90ParamsHost {
  void* dk = nullptr;
  long long dk_batch = 0, dk_head = 0, dk_seq = 0;
  void* dv = nullptr;
  long long dv_batch = 0, dv_head = 0, dv_seq = 0;
  float* dq_accum = nullptr;
  int rows_pad = 0;
  int batch = 0, heads_q = 0, heads_kv = 0, group = 0, seq_q = 0, seq_k = 0, m_blocks = 0, n_blocks = 0;
  int causal = 0, bottom_right = 0;
  float scale = 0.0f, scale_log2 = 0.0f;
  float* debug = nullptr;
  int const* cu_seqlens_q = nullptr;
  int const* cu_seqlens_k = nullptr;
};

// kernels::AttentionBwdSm90DqMaps<T>: AttentionBwdSm90Maps<T>'s six tensor maps and the dQ
// accumulator's (DescAlign: TmaDescriptor's alignment under the NVRTC that compiles the program,
// attention_sm90_jit_descriptor_align).
template <int DescAlign>
struct AttentionBwdSm90MapsHost {
  struct alignas(DescAlign) Descriptor {
    std::uint64_t opaque[16];
  };
  Descriptor q{}, k{}, v{}, dout{}, lse2{}, dsum{}, dq{};
};

// attention_bwd_sm90_jit_source(k, desc_align): the program of k: backward.cuh and the
// static_asserts on the host's copies (every member's offset and size, each struct's size and
// alignment), the kernels' parameter lists, the tile, threads and dynamic shared memory. Pre:
// desc_align 64 or 128 (else std::invalid_argument).
inline std::string attention_bwd_sm90_jit_source(AttentionBwdSm90JitKernel const& k, int desc_align) {
  if (desc_align != 64 && desc_align != 128)
    throw std::invalid_argument("attention_bwd_sm90_jit_source: desc_align must be 64 or 128, got " +
                                std::to_string(desc_align));
  AttentionBwdSm90JitGeometry const g = attention_bwd_sm90_jit_geometry(k);
  auto const n = [](auto v) { return std::to_string(v); };
  std::string s =
      "// tessera::jit::attention_bwd_sm90 (include/tessera/jit/attention_bwd_sm90.hpp): the attention\n"
      "// backward's three kernels and the checks that their arguments and geometry are the host's.\n"
      "#include \"tessera/kernels/attention/backward.cuh\"\n"
      "namespace tessera_jit_attention_bwd_sm90_check {\n"
      "using T = " +
      attention_bwd_sm90_jit_type(k) +
      ";\n"
      "using Cfg = tessera::kernels::AttentionBwdSm90Config<" +
      n(k.head_dim) + ", false, " + (k.varlen ? "true" : "false") +
      ">;\n"
      "using Roles = tessera::kernels::detail::AttentionBwdSm90Roles<Cfg, T>;\n"
      "using Pre = tessera::kernels::detail::AttentionBwdPreParams<T>;\n"
      "using Post = tessera::kernels::detail::AttentionBwdPostParams<T>;\n"
      "using P = tessera::kernels::AttentionBwdSm90Params<T>;\n"
      "using M = tessera::kernels::AttentionBwdSm90DqMaps<T>;\n"
      "#if defined(__CUDACC_RTC__)\n"
      "#define TESSERA_BWD_OFFSET_OF(type, member) ((unsigned long long)__INTADDR__(&(((type*)0)->member)))\n"
      "#else\n"
      "#define TESSERA_BWD_OFFSET_OF(type, member) ((unsigned long long)__builtin_offsetof(type, member))\n"
      "#endif\n"
      "#define TESSERA_BWD_HOST_COPY(what, expected, actual) static_assert((actual) == (expected), "
      "\"attention_bwd_sm90 (JIT): \" what \" differs from the host's copy in "
      "include/tessera/jit/attention_bwd_sm90.hpp: update it to kernels/attention/backward*.cuh\")\n"
      "static_assert(std::is_same_v<typename Roles::Params, P> && std::is_same_v<typename Roles::Maps, M>, "
      "\"attention_bwd_sm90 (JIT): the roles' Params and Maps changed: update "
      "include/tessera/jit/attention_bwd_sm90.hpp\");\n"
      "static_assert(std::is_same_v<decltype(&tessera::sm90::warp_specialized_kernel<Roles>), void (*)(P, M)> && "
      "std::is_same_v<decltype(&tessera::kernels::detail::attention_bwd_preprocess<T>), void (*)(Pre)> && "
      "std::is_same_v<decltype(&tessera::kernels::detail::attention_bwd_postprocess<T>), void (*)(Post)>, "
      "\"attention_bwd_sm90 (JIT): a kernel's parameters changed: update attention_bwd_sm90_jit_launch\");\n";
  auto const member = [&](char const* dev, char const* path, std::size_t offset, std::size_t size) {
    std::string const what = std::string(dev) + "::" + path;
    s += "TESSERA_BWD_HOST_COPY(\"the offset of " + what + "\", " + n(offset) + "u, TESSERA_BWD_OFFSET_OF(" + dev +
         ", " + path + "));\n";
    s += "TESSERA_BWD_HOST_COPY(\"the size of " + what + "\", " + n(size) + "u, sizeof(static_cast<" + dev +
         "*>(nullptr)->" + path + "));\n";
  };
  auto const whole = [&](char const* dev, std::size_t size, std::size_t align) {
    s += "TESSERA_BWD_HOST_COPY(\"sizeof(" + std::string(dev) + ")\", " + n(size) + "u, sizeof(" + dev + "));\n";
    s += "TESSERA_BWD_HOST_COPY(\"alignof(" + std::string(dev) + ")\", " + n(align) + "u, alignof(" + dev + "));\n";
  };

  {
    using H = AttentionBwdPreParamsHost;
    for (auto const& [path, off, size] : std::vector<std::tuple<char const*, std::size_t, std::size_t>>{
             {"o", offsetof(H, o), sizeof(H::o)},
             {"o_batch", offsetof(H, o_batch), 8},
             {"o_head", offsetof(H, o_head), 8},
             {"o_seq", offsetof(H, o_seq), 8},
             {"dout", offsetof(H, dout), sizeof(H::dout)},
             {"do_batch", offsetof(H, do_batch), 8},
             {"do_head", offsetof(H, do_head), 8},
             {"do_seq", offsetof(H, do_seq), 8},
             {"lse", offsetof(H, lse), sizeof(H::lse)},
             {"lse2", offsetof(H, lse2), sizeof(H::lse2)},
             {"dsum", offsetof(H, dsum), sizeof(H::dsum)},
             {"dq_accum", offsetof(H, dq_accum), sizeof(H::dq_accum)},
             {"heads_q", offsetof(H, heads_q), 4},
             {"seq_q", offsetof(H, seq_q), 4},
             {"rows_pad", offsetof(H, rows_pad), 4},
             {"d", offsetof(H, d), 4},
             {"rows", offsetof(H, rows), 8},
             {"cu_seqlens_q", offsetof(H, cu_seqlens_q), sizeof(H::cu_seqlens_q)},
             {"batch", offsetof(H, batch), 4},
             {"total_q", offsetof(H, total_q), 4}})
      member("Pre", path, off, size);
    whole("Pre", sizeof(H), alignof(H));
  }
  {
    using H = AttentionBwdPostParamsHost;
    for (auto const& [path, off, size] : std::vector<std::tuple<char const*, std::size_t, std::size_t>>{
             {"dq_accum", offsetof(H, dq_accum), sizeof(H::dq_accum)},
             {"dq", offsetof(H, dq), sizeof(H::dq)},
             {"dq_batch", offsetof(H, dq_batch), 8},
             {"dq_head", offsetof(H, dq_head), 8},
             {"dq_seq", offsetof(H, dq_seq), 8},
             {"heads_q", offsetof(H, heads_q), 4},
             {"seq_q", offsetof(H, seq_q), 4},
             {"rows_pad", offsetof(H, rows_pad), 4},
             {"d", offsetof(H, d), 4},
             {"pairs", offsetof(H, pairs), 8},
             {"scale", offsetof(H, scale), 4},
             {"cu_seqlens_q", offsetof(H, cu_seqlens_q), sizeof(H::cu_seqlens_q)},
             {"batch", offsetof(H, batch), 4},
             {"total_q", offsetof(H, total_q), 4}})
      member("Post", path, off, size);
    whole("Post", sizeof(H), alignof(H));
  }
  {
    using H = AttentionBwdSm90ParamsHost;
    for (auto const& [path, off, size] : std::vector<std::tuple<char const*, std::size_t, std::size_t>>{
             {"dk", offsetof(H, dk), sizeof(H::dk)},
             {"dk_batch", offsetof(H, dk_batch), 8},
             {"dk_head", offsetof(H, dk_head), 8},
             {"dk_seq", offsetof(H, dk_seq), 8},
             {"dv", offsetof(H, dv), sizeof(H::dv)},
             {"dv_batch", offsetof(H, dv_batch), 8},
             {"dv_head", offsetof(H, dv_head), 8},
             {"dv_seq", offsetof(H, dv_seq), 8},
             {"dq_accum", offsetof(H, dq_accum), sizeof(H::dq_accum)},
             {"rows_pad", offsetof(H, rows_pad), 4},
             {"batch", offsetof(H, batch), 4},
             {"heads_q", offsetof(H, heads_q), 4},
             {"heads_kv", offsetof(H, heads_kv), 4},
             {"group", offsetof(H, group), 4},
             {"seq_q", offsetof(H, seq_q), 4},
             {"seq_k", offsetof(H, seq_k), 4},
             {"m_blocks", offsetof(H, m_blocks), 4},
             {"n_blocks", offsetof(H, n_blocks), 4},
             {"causal", offsetof(H, causal), 4},
             {"bottom_right", offsetof(H, bottom_right), 4},
             {"scale", offsetof(H, scale), 4},
             {"scale_log2", offsetof(H, scale_log2), 4},
             {"debug", offsetof(H, debug), sizeof(H::debug)},
             {"cu_seqlens_q", offsetof(H, cu_seqlens_q), sizeof(H::cu_seqlens_q)},
             {"cu_seqlens_k", offsetof(H, cu_seqlens_k), sizeof(H::cu_seqlens_k)}})
      member("P", path, off, size);
    whole("P", sizeof(H), alignof(H));
  }

  auto const maps = [&](auto const& host) {
    using H = std::decay_t<decltype(host)>;
    for (auto const& [path, off] : std::vector<std::pair<char const*, std::size_t>>{{"q", offsetof(H, q)},
                                                                                    {"k", offsetof(H, k)},
                                                                                    {"v", offsetof(H, v)},
                                                                                    {"dout", offsetof(H, dout)},
                                                                                    {"lse2", offsetof(H, lse2)},
                                                                                    {"dsum", offsetof(H, dsum)},
                                                                                    {"dq", offsetof(H, dq)}})
      member("M", path, off, sizeof(typename H::Descriptor));
    whole("M", sizeof(H), alignof(H));
  };
  if (desc_align == 128) {
    maps(AttentionBwdSm90MapsHost<128>{});
  } else {
    maps(AttentionBwdSm90MapsHost<64>{});
  }
  s += "TESSERA_BWD_HOST_COPY(\"the queries a step (BM)\", " + n(g.bm) + ", Cfg::BM);\n";
  s += "TESSERA_BWD_HOST_COPY(\"the keys a block (BN)\", " + n(g.bn) + ", Cfg::BN);\n";
  s += "TESSERA_BWD_HOST_COPY(\"the stages\", " + n(g.stages) + ", Cfg::Stages);\n";
  s += "TESSERA_BWD_HOST_COPY(\"the step (the lean one, plain order, dQ by TMA reduce-add)\", true, (Cfg::kLean && "
       "!Cfg::kOverlap && Cfg::kDqTma));\n";
  s += "TESSERA_BWD_HOST_COPY(\"the block's threads\", " + n(g.threads) + ", Roles::kThreads);\n";
  s += "TESSERA_BWD_HOST_COPY(\"the cluster (none)\", 1, Roles::kClusterSize);\n";
  s += "TESSERA_BWD_HOST_COPY(\"the dynamic shared memory (shared_storage_bytes)\", " + n(g.smem_bytes) +
       ", (tessera::sm90::shared_storage_bytes<typename Roles::Storage>()));\n";
  s += "TESSERA_BWD_HOST_COPY(\"AttentionCausal's values\", true, (int(tessera::kernels::AttentionCausal::none) == 0 "
       "&& int(tessera::kernels::AttentionCausal::top_left) == 1 && "
       "int(tessera::kernels::AttentionCausal::bottom_right) == 2));\n";
  s += "#undef TESSERA_BWD_HOST_COPY\n#undef TESSERA_BWD_OFFSET_OF\n}  // namespace "
       "tessera_jit_attention_bwd_sm90_check\n";
  return s;
}

// ---- the launch ------------------------------------------------------------------------------------

// One 2-D tensor map over the workspace (4-byte elements): make_tma_desc_2d(ptr, 4, inner, outer,
// ld, box_inner, box_outer, swizzle, data)'s arguments, as the nvcc launcher passes them. LSE log2 e
// and D: (rows_pad, batch heads_q) in boxes of bm x 1, no swizzle, TmaData::bits (UINT32); the dQ
// accumulator (DqTma's reduce-add): (D, batch heads_q rows_pad) in boxes of 32 x bm, the 128-byte
// swizzle, TmaData::f32 (FLOAT32: the reduce adds by the map's element type). Varlen: heads_q for
// batch heads_q.
struct AttentionBwdSm90TmaMap2d {
  void const* ptr = nullptr;
  std::uint64_t inner = 0, outer = 0, ld = 0;  // ld: elements from one row to the next
  std::uint32_t box_inner = 0, box_outer = 0;
  int swizzle_bytes = 0;  // 0 (none) or 128
  bool f32 = false;       // CU_TENSOR_MAP_DATA_TYPE_FLOAT32, else UINT32
};

namespace detail {
// cuTensorMapEncodeTiled's enumerators the 2-D maps add to jit/attention_sm90.hpp's (cuda.h;
// tests/jit/attention_bwd_sm90.cpp checks them there).
enum : int {
  kAttentionBwdTmaUint32 = 2,       // CU_TENSOR_MAP_DATA_TYPE_UINT32
  kAttentionBwdTmaFloat32 = 7,      // CU_TENSOR_MAP_DATA_TYPE_FLOAT32
  kAttentionBwdTmaSwizzleNone = 0,  // CU_TENSOR_MAP_SWIZZLE_NONE
};

// make_tma_desc_2d's rules (arch/tma_rules.hpp's tma_2d_violation), with their messages after
// "what: ".
inline void attention_bwd_sm90_jit_check_map(char const* what, AttentionBwdSm90TmaMap2d const& m) {
  TmaMatrix2d const rule{m.ptr != nullptr && reinterpret_cast<std::uintptr_t>(m.ptr) % 16 == 0,
                         4,
                         m.inner,
                         m.outer,
                         m.ld,
                         m.box_inner,
                         m.box_outer,
                         m.swizzle_bytes};
  if (std::optional<std::string> const v = tma_2d_violation(rule))
    throw std::invalid_argument(std::string("attention_backward_sm90 (JIT): the tensor map of ") + what + ": " + *v);
}
}  // namespace detail

// attention_bwd_sm90_jit_encode_2d(map, out): the 128-byte tensor map of `map` into out (64-byte
// aligned storage), through the driver's cuTensorMapEncodeTiled (what make_tma_desc_2d does through
// the runtime: L2 promotion of 256 bytes, zeros outside). Throws jit_error when the driver lacks it
// or refuses.
inline void attention_bwd_sm90_jit_encode_2d(AttentionBwdSm90TmaMap2d const& m, void* out) {
  auto const& d = cu::Driver::get();
  if (!d.tensor_map_encode_tiled)
    throw jit_error("the CUDA driver has no cuTensorMapEncodeTiled: update the GPU driver (TMA needs CUDA 12)");
  alignas(64) std::uint64_t desc[16] = {};
  unsigned long long const dims[2] = {m.inner, m.outer};
  unsigned long long const strides[1] = {m.ld * 4};
  unsigned const box[2] = {m.box_inner, m.box_outer};
  unsigned const elem_strides[2] = {1, 1};
  int const type = m.f32 ? detail::kAttentionBwdTmaFloat32 : detail::kAttentionBwdTmaUint32;
  int const swizzle =
      m.swizzle_bytes == 128 ? int(detail::kAttentionTmaSwizzle128B) : int(detail::kAttentionBwdTmaSwizzleNone);
  d.check(d.tensor_map_encode_tiled(desc, type, 2, const_cast<void*>(m.ptr), dims, strides, box, elem_strides,
                                    detail::kAttentionTmaInterleaveNone, swizzle, detail::kAttentionTmaL2Promotion256B,
                                    detail::kAttentionTmaOobFillNone),
          "cuTensorMapEncodeTiled");
  std::memcpy(out, desc, sizeof(desc));
}

// What attention_bwd_sm90_jit_args made: the three kernels' arguments (the main kernel's values
// and tensor maps), what it asked the encoders for, and the launches' geometry.
template <int DescAlign>
struct AttentionBwdSm90JitArgs {
  AttentionBwdPreParamsHost pre;
  AttentionBwdSm90ParamsHost main;
  AttentionBwdSm90MapsHost<DescAlign> maps;
  AttentionBwdPostParamsHost post;
  AttentionSm90TmaMap map_q, map_k, map_v, map_dout;
  AttentionBwdSm90TmaMap2d map_lse2, map_dsum, map_dq;
  unsigned pre_blocks = 0, main_blocks = 0, post_blocks = 0, threads = 0, smem_bytes = 0;
};

// attention_bwd_sm90_jit_args<DescAlign>(problem, encode, encode_2d, sms): the arguments of the
// three launches for `problem`, what kernels::detail::attention_bwd_sm90_launch computes: the
// workspace's parts (the accumulator, then LSE log2 e, then D, batch heads_q rows_pad each; varlen:
// heads_q attention_backward_varlen_rows), the 4-D maps of Q, dO (boxes of 64 x bm) and K, V (64 x
// bn) over the packed rows for varlen (one batch), the 2-D maps of LSE log2 e and D in boxes of
// bm x 1 and of the dQ accumulator (the whole of it: D floats a row) in boxes of 32 x bm
// (AttentionBwdSm90TmaMap2d), the values, and the grids (preprocessing: a warp a padded row, 8 a
// block; the main kernel: key blocks x heads_kv x batch; postprocessing: a thread a pair, at most 8
// blocks an SM). encode(map, out) and encode_2d(map2d, out) write the tensor maps
// (attention_sm90_jit_encode and attention_bwd_sm90_jit_encode_2d; a test records them). Pre:
// check_attention_bwd_sm90_jit_problem passes. Throws std::invalid_argument naming a broken TMA
// rule, or when the accumulator has 2^31 rows or more (the reduce-add's row coordinate is a 32-bit
// signed int; the nvcc launcher returns cudaErrorInvalidValue there), before any map is encoded.
template <int DescAlign, class Encode, class Encode2d>
AttentionBwdSm90JitArgs<DescAlign> attention_bwd_sm90_jit_args(AttentionBwdSm90JitProblem const& problem,
                                                               Encode&& encode, Encode2d&& encode_2d, int sms) {
  AttentionBwdSm90JitKernel const k = attention_bwd_sm90_jit_kernel(problem);
  AttentionBwdSm90JitGeometry const g = attention_bwd_sm90_jit_geometry(k);
  AttentionSm90JitProblem const& f = problem.fwd;
  int const D = f.head_dim, BM = g.bm, BN = g.bn;
  bool const varlen = k.varlen;
  long long const rows_pad = varlen ? kernels::attention_backward_varlen_rows(f.total_q, f.batch)
                                    : kernels::attention_backward_rows_pad(f.seq_q);
  long long const bh = varlen ? f.heads_q : (long long)f.batch * f.heads_q;
  if (bh * rows_pad >= (1LL << 31))
    throw std::invalid_argument("attention_backward_sm90 (JIT): the dQ accumulator's rows (" +
                                std::string(varlen ? "heads_q" : "batch heads_q") +
                                " rows_pad = " + std::to_string(bh * rows_pad) +
                                ") must be < 2^31 (the TMA reduce-add's 32-bit row coordinate): split the batch");
  int const t_batch = varlen ? 1 : f.batch, t_rows_q = varlen ? f.total_q : f.seq_q,
            t_rows_k = varlen ? f.total_k : f.seq_k;
  float* const dq_accum = static_cast<float*>(problem.workspace);
  float* const lse2 = dq_accum + bh * rows_pad * D;
  float* const dsum = lse2 + bh * rows_pad;
  float const scale = attention_sm90_jit_scale(f);
  AttentionBwdSm90JitArgs<DescAlign> r;

  AttentionBwdPreParamsHost& a = r.pre;
  a.o = f.o;
  a.o_batch = f.o_strides.batch;
  a.o_head = f.o_strides.head;
  a.o_seq = f.o_strides.seq;
  a.dout = problem.dout;
  a.do_batch = problem.dout_strides.batch;
  a.do_head = problem.dout_strides.head;
  a.do_seq = problem.dout_strides.seq;
  a.lse = f.lse;
  a.lse2 = lse2;
  a.dsum = dsum;
  a.dq_accum = dq_accum;
  a.heads_q = f.heads_q;
  a.seq_q = f.seq_q;
  a.rows_pad = int(rows_pad);
  a.d = D;
  a.rows = bh * rows_pad;
  a.cu_seqlens_q = f.cu_seqlens_q;
  a.batch = f.batch;
  a.total_q = f.total_q;

  AttentionBwdSm90ParamsHost& m = r.main;
  m.dk = problem.dk;
  m.dk_batch = varlen ? 0 : problem.dk_strides.batch;
  m.dk_head = problem.dk_strides.head;
  m.dk_seq = problem.dk_strides.seq;
  m.dv = problem.dv;
  m.dv_batch = varlen ? 0 : problem.dv_strides.batch;
  m.dv_head = problem.dv_strides.head;
  m.dv_seq = problem.dv_strides.seq;
  m.dq_accum = dq_accum;
  m.rows_pad = int(rows_pad);
  m.batch = f.batch;
  m.heads_q = f.heads_q;
  m.heads_kv = f.heads_kv;
  m.group = f.heads_q / f.heads_kv;
  m.seq_q = f.seq_q;
  m.seq_k = f.seq_k;
  m.m_blocks = (f.seq_q + BM - 1) / BM;
  m.n_blocks = (f.seq_k + BN - 1) / BN;
  m.causal = f.causal != kernels::AttentionCausal::none ? 1 : 0;
  m.bottom_right = f.causal == kernels::AttentionCausal::bottom_right ? 1 : 0;
  m.scale = scale;
  m.scale_log2 = scale * 1.4426950408889634f;
  m.cu_seqlens_q = f.cu_seqlens_q;
  m.cu_seqlens_k = f.cu_seqlens_k;

  AttentionBwdPostParamsHost& o = r.post;
  o.dq_accum = dq_accum;
  o.dq = problem.dq;
  o.dq_batch = varlen ? 0 : problem.dq_strides.batch;
  o.dq_head = problem.dq_strides.head;
  o.dq_seq = problem.dq_strides.seq;
  o.heads_q = f.heads_q;
  o.seq_q = f.seq_q;
  o.rows_pad = int(rows_pad);
  o.d = D;
  o.pairs = bh * t_rows_q * (D / 2);
  o.scale = scale;
  o.cu_seqlens_q = f.cu_seqlens_q;
  o.batch = f.batch;
  o.total_q = f.total_q;

  auto const map4 = [&](void const* ptr, int heads, int rows, kernels::AttentionStrides const& s, int box,
                        char const* what, AttentionSm90TmaMap& rec, void* out) {
    rec = jit::detail::attention_sm90_jit_tma_map(ptr, t_batch, heads, rows, D, s, box);
    jit::detail::attention_sm90_jit_check_map(what, rec);
    encode(rec, out);
  };
  map4(f.q, f.heads_q, t_rows_q, f.q_strides, BM, "Q", r.map_q, &r.maps.q);
  map4(problem.dout, f.heads_q, t_rows_q, problem.dout_strides, BM, "dO", r.map_dout, &r.maps.dout);
  map4(f.k, f.heads_kv, t_rows_k, f.k_strides, BN, "K", r.map_k, &r.maps.k);
  map4(f.v, f.heads_kv, t_rows_k, f.v_strides, BN, "V", r.map_v, &r.maps.v);
  auto const map2 = [&](AttentionBwdSm90TmaMap2d const& map, char const* what, AttentionBwdSm90TmaMap2d& rec,
                        void* out) {
    rec = map;
    jit::detail::attention_bwd_sm90_jit_check_map(what, rec);
    encode_2d(static_cast<AttentionBwdSm90TmaMap2d const&>(rec), out);
  };
  std::uint64_t const rp = std::uint64_t(rows_pad), nbh = std::uint64_t(bh);
  map2({lse2, rp, nbh, rp, unsigned(BM), 1, 0, false}, "LSE log2 e", r.map_lse2, &r.maps.lse2);
  map2({dsum, rp, nbh, rp, unsigned(BM), 1, 0, false}, "D", r.map_dsum, &r.maps.dsum);
  // the accumulator as bh rows_pad rows of D floats, in boxes of 32 floats x BM rows (the dQ
  // shares' reduce-adds; 128 bytes: the 128-byte swizzle's span)
  map2({dq_accum, std::uint64_t(D), nbh * rp, std::uint64_t(D), 32, unsigned(BM), 128, true}, "the dQ accumulator",
       r.map_dq, &r.maps.dq);

  r.pre_blocks = unsigned((a.rows + 7) / 8);
  r.main_blocks = unsigned((long long)m.n_blocks * f.heads_kv * f.batch);
  long long const want = (o.pairs + 255) / 256, cap = 8LL * (sms > 0 ? sms : 132);
  r.post_blocks = unsigned(std::min(want, cap));
  r.threads = unsigned(g.threads);
  r.smem_bytes = unsigned(g.smem_bytes);
  return r;
}

// attention_bwd_sm90_jit_launch(problem, pre, main, post, stream): dQ, dK, dV of `problem` on
// `stream` (a CUstream) in the current context, as kernels::attention_backward_sm90 computes them:
// pre, main, post are the three kernels of attention_bwd_sm90_jit_kernel(problem)'s program
// (attention_bwd_sm90_jit_names' order), launched with attention_bwd_sm90_jit_args' arguments.
// Throws std::invalid_argument for a problem the checks refuse (naming "attention_backward_sm90"),
// jit_error when the driver refuses. Asynchronous.
inline void attention_bwd_sm90_jit_launch(AttentionBwdSm90JitProblem const& problem, Kernel const& pre,
                                          Kernel const& main, Kernel const& post, void* stream) {
  check_attention_bwd_sm90_jit_problem("attention_backward_sm90", problem);
  auto const& d = cu::Driver::get();
  int const sms = d.device_attribute(cu::kDeviceMultiprocessorCount, d.current_device());
  auto const launch = [&](Kernel const& kernel, unsigned blocks, unsigned threads, unsigned smem, void* arg0,
                          std::size_t size0, void* arg1 = nullptr, std::size_t size1 = 0) {
    LaunchConfig c;
    c.grid = {blocks};
    c.block = {threads};
    c.shared_bytes = smem;
    c.stream = stream;
    void* ptr[2] = {arg0, arg1};
    std::size_t const size[2] = {size0, size1};
    kernel.launch_raw(c, ptr, size, arg1 != nullptr ? 2 : 1);
  };
  auto const run = [&](auto&& r) {
    launch(pre, r.pre_blocks, 256, 0, &r.pre, sizeof(r.pre));
    launch(main, r.main_blocks, r.threads, r.smem_bytes, &r.main, sizeof(r.main), &r.maps, sizeof(r.maps));
    launch(post, r.post_blocks, 256, 0, &r.post, sizeof(r.post));
  };
  if (attention_sm90_jit_descriptor_align() == 128) {
    run(attention_bwd_sm90_jit_args<128>(problem, attention_sm90_jit_encode, attention_bwd_sm90_jit_encode_2d, sms));
  } else {
    run(attention_bwd_sm90_jit_args<64>(problem, attention_sm90_jit_encode, attention_bwd_sm90_jit_encode_2d, sms));
  }
}

}  // namespace tessera::jit
