// attention_forward_sm90 through the JIT, with a host side that needs no CUDA toolkit and no CUDA
// runtime: the kernel of kernels/attention/forward_sm90.cuh compiled by NVRTC (one program per
// kernel: head dimension, element type, main loop and schedule; at its first use, cached in memory
// and on disk by jit::compile), its two arguments built on the host (the values; the three 4-D
// tensor maps, encoded by the driver's cuTensorMapEncodeTiled) and the launch through the driver
// opened at run time (jit/driver.hpp).
// What kernels::attention_forward_sm90 (kernels/attention/forward.cuh, nvcc) does, step by step:
//
//   AttentionSm90JitProblem                the problem (kernels::AttentionProblem<T> with the element
//                                          type as a flag and untyped pointers)
//   check_attention_sm90_jit_problem(fn, p)
//                                          kernels::check_attention_problem on it
//   attention_sm90_jit_kernel(problem)     which kernel runs it: AttentionSm90Config<head_dim, loop,
//                                          persistent>, the type (the loop: TESSERA_ATTENTION_LOOP,
//                                          attention_sm90_jit_loop; persistent: seq_k <= 2048,
//                                          kernels::attention_sm90_persistent)
//   attention_sm90_jit_source(kernel, align), attention_sm90_jit_name(kernel)
//                                          the program: forward_sm90.cuh and static_asserts
//   attention_sm90_jit_params<Align>(kernel, problem, encode)
//                                          the kernel's arguments: AttentionSm90ParamsHost (the
//                                          values) and AttentionSm90MapsHost<Align> (the tensor maps)
//   attention_sm90_jit_launch(problem, kernel, stream)
//                                          the checks, the arguments, the launch
//
// The problem's checks are the launcher's own (kernels/attention/problem.hpp, plain C++).
//
// The arguments. The kernel takes two (sm90/warp_specialized.cuh): AttentionSm90Params<T>, the
// values it reads, by value, and AttentionSm90Maps<T>, the tensor maps TMA reads by address, as a
// __grid_constant__. Both are device code, so the host fills a copy of each layout,
// AttentionSm90ParamsHost and AttentionSm90MapsHost, and each program checks the copies against
// the real structs with static_asserts: every member's offset, size and type, each struct's size
// and alignment, the kernel's parameter list (the two, in that order), the configuration's tile
// (BM, BN), threads, dynamic shared memory, and the bytes the TMA boxes the host encodes bring per
// tile. A drift of the device code is a compile error naming the member and this file, never a
// kernel reading a misplaced field. The descriptors' alignment is NVRTC's (128 bytes from CUDA 13,
// 64 before: arch/copy_sm90_tma.cuh), so the maps' copy is a template on it.
#pragma once

#if defined(__CUDACC_RTC__)
#error "tessera/jit/attention_sm90.hpp: host only (it builds and launches attention_forward_sm90's kernel)"
#endif

#include <algorithm>
#include <cmath>
#include <cstddef>
#include <cstdint>
#include <cstdlib>
#include <cstring>
#include <limits>
#include <stdexcept>
#include <string>
#include <type_traits>
#include <vector>

#include "tessera/core/numeric.hpp"
#include "tessera/jit/driver.hpp"
#include "tessera/jit/kernel.hpp"
#include "tessera/jit/nvrtc.hpp"
#include "tessera/kernels/attention/problem.hpp"

namespace tessera::jit {

// ---- the problem ---------------------------------------------------------------------------------

// kernels::AttentionProblem<T> with T named by bf16 (bfloat16_t; else half_t) and untyped pointers:
// Q, O (batch, heads_q, seq_q, head_dim), K, V (batch, heads_kv, seq_k, head_dim), LSE fp32 (batch,
// heads_q, seq_q) contiguous or null; scale 0 means 1/sqrt(head_dim); or variable-length sequences
// packed along seq (cu_seqlens_q/_k, total_q/_k). The strides, the mask, varlen and the checks are
// kernels/attention/problem.hpp's.
struct AttentionSm90JitProblem {
  bool bf16 = true;
  void const* q = nullptr;
  void const* k = nullptr;
  void const* v = nullptr;
  void* o = nullptr;
  float* lse = nullptr;
  int batch = 1, heads_q = 1, heads_kv = 1, seq_q = 1, seq_k = 1, head_dim = 128;
  kernels::AttentionStrides q_strides, k_strides, v_strides, o_strides;
  float scale = 0.0f;
  kernels::AttentionCausal causal = kernels::AttentionCausal::none;
  int const* cu_seqlens_q = nullptr;  // varlen (kernels::AttentionProblem): batch + 1 offsets, device memory
  int const* cu_seqlens_k = nullptr;
  int total_q = 0, total_k = 0;
};

// The problem as the launcher's kernels::AttentionProblem<T> (T of 2 bytes: the checks and the scale
// depend on the element's size only).
template <class T>
kernels::AttentionProblem<T> attention_sm90_jit_typed(AttentionSm90JitProblem const& p) {
  kernels::AttentionProblem<T> t;
  t.q = static_cast<T const*>(p.q);
  t.k = static_cast<T const*>(p.k);
  t.v = static_cast<T const*>(p.v);
  t.o = static_cast<T*>(p.o);
  t.lse = p.lse;
  t.batch = p.batch;
  t.heads_q = p.heads_q;
  t.heads_kv = p.heads_kv;
  t.seq_q = p.seq_q;
  t.seq_k = p.seq_k;
  t.head_dim = p.head_dim;
  t.q_strides = p.q_strides;
  t.k_strides = p.k_strides;
  t.v_strides = p.v_strides;
  t.o_strides = p.o_strides;
  t.scale = p.scale;
  t.causal = p.causal;
  t.cu_seqlens_q = p.cu_seqlens_q;
  t.cu_seqlens_k = p.cu_seqlens_k;
  t.total_q = p.total_q;
  t.total_k = p.total_k;
  return t;
}

// The scale the kernel uses (kernels::attention_scale).
inline float attention_sm90_jit_scale(AttentionSm90JitProblem const& p) {
  return kernels::attention_scale(attention_sm90_jit_typed<half_t>(p));
}

// check_attention_sm90_jit_problem(fn, p): kernels::check_attention_problem(fn, p), the launcher's
// own checks: std::invalid_argument("<fn>: <rule> (<values>)") for the first rule p breaks.
// Example: head_dim 96 -> "<fn>: head_dim must be 64, 128 or 256 (got 96)".
inline void check_attention_sm90_jit_problem(char const* fn, AttentionSm90JitProblem const& p) {
  if (p.bf16) {
    kernels::check_attention_problem(fn, attention_sm90_jit_typed<bfloat16_t>(p));
  } else {
    kernels::check_attention_problem(fn, attention_sm90_jit_typed<half_t>(p));
  }
}

// ---- which kernel ----------------------------------------------------------------------------------

// The main loop of a kernel (kernels/attention/forward_sm90.cuh): plain (AttentionSm90Config<D>:
// the consumer warpgroups side by side), pingpong (AttentionSm90Config<D, true>: they take turns
// issuing their products; head_dim 64 and 128 only) or overlap (AttentionSm90Config<D, false,
// true>: each issues the next block's S before its softmax, FlashAttention-3's intra-warpgroup
// overlap).
enum class AttentionSm90JitLoop { plain, pingpong, overlap };

// One kernel of attention_forward_sm90 as the JIT compiles it: head_dim, the element type
// (bfloat16_t or half_t), the main loop (attention_sm90_jit_loop(head_dim): the default, or one of
// the variants) and whether its blocks loop over tiles (kernels::attention_sm90_persistent(seq_k)).
// index(): a dense number in [0, kCount), the key of its program.
struct AttentionSm90JitKernel {
  int head_dim = 128;  // 64, 128 or 256
  bool bf16 = true;
  AttentionSm90JitLoop loop = AttentionSm90JitLoop::plain;  // pingpong: head_dim 64 or 128 only
  bool persistent = false;                                  // AttentionSm90Config<..., true>

  // One block a tile: 0..5 the plain loop, (head_dim 64, 128, 256) x (half, bf16); 6..9 the
  // ping-pong loop, (64, 128) x (half, bf16); 10..15 the overlap loop, (64, 128, 256) x (half, bf16).
  // Persistent: the same + 16.
  static constexpr int kLoops = 16, kCount = 2 * kLoops;

  int index() const {
    int const d = head_dim == 64 ? 0 : head_dim == 128 ? 1 : 2;
    int const base = loop == AttentionSm90JitLoop::pingpong ? 6 : loop == AttentionSm90JitLoop::overlap ? 10 : 0;
    return (persistent ? kLoops : 0) + base + d * 2 + (bf16 ? 1 : 0);
  }
  // Pre: 0 <= i < kCount (else std::invalid_argument).
  static AttentionSm90JitKernel from_index(int i) {
    if (i < 0 || i >= kCount)
      throw std::invalid_argument("AttentionSm90JitKernel: index " + std::to_string(i) + " is not in [0, " +
                                  std::to_string(kCount) + ")");
    bool const persistent = i >= kLoops;
    int const l = i % kLoops;
    AttentionSm90JitLoop const loop = l >= 10  ? AttentionSm90JitLoop::overlap
                                      : l >= 6 ? AttentionSm90JitLoop::pingpong
                                               : AttentionSm90JitLoop::plain;
    int const j = l >= 10 ? l - 10 : l >= 6 ? l - 6 : l;
    return {64 << (j / 2), (j % 2) != 0, loop, persistent};
  }
  friend bool operator==(AttentionSm90JitKernel const&, AttentionSm90JitKernel const&) = default;
};

// attention_sm90_jit_loop_from(loop, pingpong, fallback): the main loop that the environment's values
// ask for (null: unset): TESSERA_ATTENTION_LOOP = plain, pingpong or overlap, else
// TESSERA_ATTENTION_PINGPONG = 1 (the ping-pong loop's switch before there were three), else
// fallback (the head_dim's default: attention_sm90_default_loop). Any other value of
// TESSERA_ATTENTION_LOOP: std::invalid_argument (an A/B switch mistyped must not run another loop
// unnoticed). Example: (nullptr, "1", plain) -> pingpong; ("overlap", "1", plain) -> overlap.
inline AttentionSm90JitLoop attention_sm90_jit_loop_from(char const* loop, char const* pingpong,
                                                         AttentionSm90JitLoop fallback = AttentionSm90JitLoop::plain) {
  if (loop != nullptr) {
    std::string const v(loop);
    if (v == "plain") return AttentionSm90JitLoop::plain;
    if (v == "pingpong") return AttentionSm90JitLoop::pingpong;
    if (v == "overlap") return AttentionSm90JitLoop::overlap;
    throw std::invalid_argument("TESSERA_ATTENTION_LOOP must be plain, pingpong or overlap (got '" + v + "')");
  }
  if (pingpong != nullptr && std::string(pingpong) == "1") return AttentionSm90JitLoop::pingpong;
  return fallback;
}

// attention_sm90_default_loop(head_dim): the loop attention_forward_sm90 runs without a switch (the
// nvcc launcher's choice too, kernels/attention/forward.cuh): the overlap loop for head_dim 128
// (measured on an H200, 2026-11-27: 12-15 % faster than the plain loop at 4k and 16k without a
// mask, -2 to +3 % with the causal mask: docs/performance.md) and 256 (docs/performance.md, the
// second version), the plain loop for 64 (the variants were mixed there).
inline AttentionSm90JitLoop attention_sm90_default_loop(int head_dim) {
  return head_dim == 64 ? AttentionSm90JitLoop::plain : AttentionSm90JitLoop::overlap;
}

// The main loop that head_dim runs: what TESSERA_ATTENTION_LOOP or TESSERA_ATTENTION_PINGPONG ask
// for (read once per process: an A/B switch; attention_sm90_jit_loop_from), else
// attention_sm90_default_loop(head_dim). The ping-pong loop is for head_dim 64 and 128: asked for
// head_dim 256, that one keeps its default.
inline AttentionSm90JitLoop attention_sm90_jit_loop(int head_dim) {
  static char const* const loop = std::getenv("TESSERA_ATTENTION_LOOP");
  static char const* const pingpong = std::getenv("TESSERA_ATTENTION_PINGPONG");
  AttentionSm90JitLoop const l = attention_sm90_jit_loop_from(loop, pingpong, attention_sm90_default_loop(head_dim));
  return head_dim == 256 && l == AttentionSm90JitLoop::pingpong ? attention_sm90_default_loop(head_dim) : l;
}

// attention_sm90_jit_kernel(problem): the kernel attention_forward_sm90 runs for the problem: its
// loop (attention_sm90_jit_loop) and schedule (kernels::attention_sm90_persistent(seq_k)). Pre:
// head_dim is 64, 128 or 256 (else std::invalid_argument, check_attention_sm90_jit_problem's message).
inline AttentionSm90JitKernel attention_sm90_jit_kernel(AttentionSm90JitProblem const& p) {
  if (p.head_dim != 64 && p.head_dim != 128 && p.head_dim != 256)
    throw std::invalid_argument("attention_forward_sm90: head_dim must be 64, 128 or 256 (got " +
                                std::to_string(p.head_dim) + ")");
  return {p.head_dim, p.bf16, attention_sm90_jit_loop(p.head_dim), kernels::attention_sm90_persistent(p.seq_k)};
}

// The template arguments after head_dim of AttentionSm90Config for a kernel: "" (plain), ", true"
// (ping-pong), ", false, true" (overlap), then ", true" for a persistent one (after ", false, false"
// or ", false" where a loop's flags stop short).
inline std::string attention_sm90_jit_config_args(AttentionSm90JitKernel const& k) {
  using L = AttentionSm90JitLoop;
  if (!k.persistent) return k.loop == L::pingpong ? ", true" : k.loop == L::overlap ? ", false, true" : "";
  return k.loop == L::pingpong  ? ", true, false, true"
         : k.loop == L::overlap ? ", false, true, true"
                                : ", false, false, true";
}

// The configuration's geometry (AttentionSm90Config<D>, AttentionSm90Roles, AttentionSm90Storage),
// as the launch needs it; each number static_asserted by the program.
//   bm: query rows a block (128); bn: keys a step (128; 64 for D = 256); threads: a producer and two
//   consumer warpgroups (384); persistent: blocks loop over tiles (the kernel's); smem_bytes: sm90::shared_storage_bytes<AttentionSm90Storage>: Q
//   (BM x D), 2 stages of K and of V (BN x D each), 2 rings of 4 barriers, Q's two (full, empty),
//   the ping-pong's 2, and 1024 bytes of room to align the struct.
struct AttentionSm90JitGeometry {
  int bm = 128, bn = 128, threads = 384, smem_bytes = 0;
  bool persistent = false;  // Cfg::kPersistent: a block loops over tiles
};
inline AttentionSm90JitGeometry attention_sm90_jit_geometry(AttentionSm90JitKernel const& k) {
  AttentionSm90JitGeometry g;
  g.bm = 128;
  g.bn = k.head_dim == 256 ? 64 : 128;
  g.persistent = k.persistent;
  g.threads = 384;
  int const stages = 2, elem = 2;
  int const tiles = (g.bm * k.head_dim + 2 * stages * g.bn * k.head_dim) * elem;
  int const barriers = 8 * (2 * (2 * stages) + 2 + 2);
  g.smem_bytes = (tiles + barriers + 7) / 8 * 8 + 1024;
  return g;
}

// The name expression of the kernel (sm90::warp_specialized_kernel over AttentionSm90Roles).
inline std::string attention_sm90_jit_name(AttentionSm90JitKernel const& k) {
  return "tessera::sm90::warp_specialized_kernel<tessera::kernels::detail::AttentionSm90Roles<"
         "tessera::kernels::AttentionSm90Config<" +
         std::to_string(k.head_dim) + attention_sm90_jit_config_args(k) + ">, " +
         (k.bf16 ? "tessera::bfloat16_t" : "tessera::half_t") + "> >";
}

// ---- the kernel's arguments on the host ------------------------------------------------------------

// AttentionSm90ParamsHost: the layout of kernels::detail::AttentionSm90Params<T>, the kernel's first
// argument (the values, passed by value; the same for both types: O's pointer is a pointer), member
// for member. Checked against the device struct by every program (attention_sm90_jit_source).
struct AttentionSm90ParamsHost {
  using Shape = kernels::AttentionSm90Shape;  // plain C++ (kernels/attention/problem.hpp): the device's own
  void* o = nullptr;
  long long o_batch = 0, o_head = 0, o_seq = 0;
  float* lse = nullptr;
  long long lse_head = 0;
  Shape shape;
  float scale = 0.0f, scale_log2 = 0.0f;
  int tiles = 0;
};

// AttentionSm90MapsHost<DescAlign>: the layout of kernels::detail::AttentionSm90Maps<T>, the
// kernel's second argument (the tensor maps, a __grid_constant__), member for member; DescAlign is
// TmaDescriptor's alignment under the NVRTC that compiles the kernel. Checked like the values.
template <int DescAlign>
struct AttentionSm90MapsHost {
  struct alignas(DescAlign) Descriptor {  // TmaDescriptor (CUtensorMap)
    std::uint64_t opaque[16];
  };
  Descriptor q{}, k{}, v{};
};

// The descriptors' alignment in the kernels that the loaded NVRTC compiles (arch/copy_sm90_tma.cuh:
// 128 bytes from CUDA 13, 64 before). Throws jit_error without NVRTC.
inline int attention_sm90_jit_descriptor_align() { return Nvrtc::get().version_major() >= 13 ? 128 : 64; }

// attention_sm90_jit_source(k, desc_align): the program of kernel k: forward_sm90.cuh, then
// static_asserts that hold the device code to what the host launches with: the kernel's parameters
// (AttentionSm90Params<T>, AttentionSm90Maps<T>), laid out as AttentionSm90ParamsHost and
// AttentionSm90MapsHost<desc_align> (every member's offset, size and type; each struct's size and
// alignment), AttentionCausal's values, the tile, threads and dynamic shared
// memory of attention_sm90_jit_geometry, and the bytes of the boxes attention_sm90_jit_params
// encodes (D/64 boxes of 64 x BM for Q's tile, of 64 x BN for a K or V stage). Pre: desc_align is
// 64 or 128 (else std::invalid_argument).
inline std::string attention_sm90_jit_source(AttentionSm90JitKernel const& k, int desc_align) {
  if (desc_align != 64 && desc_align != 128)
    throw std::invalid_argument("attention_sm90_jit_source: desc_align must be 64 or 128, got " +
                                std::to_string(desc_align));
  AttentionSm90JitGeometry const g = attention_sm90_jit_geometry(k);
  auto const n = [](auto v) { return std::to_string(v); };
  std::string s =
      "// tessera::jit::attention_sm90 (include/tessera/jit/attention_sm90.hpp): the attention forward's\n"
      "// kernel and the checks that its arguments, tile, shared memory and TMA boxes are what the host\n"
      "// side builds.\n"
      "#include \"tessera/kernels/attention/forward_sm90.cuh\"\n"
      "namespace tessera_jit_attention_sm90_check {\n"
      "using T = " +
      std::string(k.bf16 ? "tessera::bfloat16_t" : "tessera::half_t") +
      ";\n"
      "using Cfg = tessera::kernels::AttentionSm90Config<" +
      n(k.head_dim) + attention_sm90_jit_config_args(k) +
      ">;\n"
      "using Roles = tessera::kernels::detail::AttentionSm90Roles<Cfg, T>;\n"
      "using P = tessera::kernels::detail::AttentionSm90Params<T>;\n"
      "using M = tessera::kernels::detail::AttentionSm90Maps<T>;\n"
      "// NVRTC has no constant offsetof; its front end's __INTADDR__ folds one.\n"
      "#if defined(__CUDACC_RTC__)\n"
      "#define TESSERA_ATTN_OFFSET_OF(type, member) ((unsigned long long)__INTADDR__(&(((type*)0)->member)))\n"
      "#else\n"
      "#define TESSERA_ATTN_OFFSET_OF(type, member) ((unsigned long long)__builtin_offsetof(type, member))\n"
      "#endif\n"
      "#define TESSERA_ATTN_HOST_COPY(what, expected, actual) static_assert((actual) == (expected), "
      "\"attention_sm90 (JIT): \" what \" differs from the host's copy in include/tessera/jit/attention_sm90.hpp "
      "(AttentionSm90ParamsHost, AttentionSm90MapsHost, attention_sm90_jit_geometry, its boxes): update it to "
      "kernels/attention/forward_sm90.cuh\")\n"
      "static_assert(std::is_same_v<typename Roles::Params, P> && std::is_same_v<typename Roles::Maps, M>, "
      "\"attention_sm90 (JIT): AttentionSm90Roles::Params and ::Maps are no longer AttentionSm90Params<T> and "
      "AttentionSm90Maps<T>: update include/tessera/jit/attention_sm90.hpp\");\n"
      "// The launch passes two arguments, the values and the maps, in that order.\n"
      "static_assert(std::is_same_v<decltype(&tessera::sm90::warp_specialized_kernel<Roles>), void (*)(P, M)>, "
      "\"attention_sm90 (JIT): the kernel's parameters are no longer (AttentionSm90Params<T>, AttentionSm90Maps<T>): "
      "update attention_sm90_jit_launch in include/tessera/jit/attention_sm90.hpp\");\n";
  // One member of the device struct `dev` (P or M, named `name` in the messages) against the host's
  // copy: its offset, size and type.
  auto const member = [&](char const* dev, char const* name, char const* path, std::size_t offset, std::size_t size,
                          char const* type) {
    std::string const what = std::string(name) + "::" + path;
    s += "TESSERA_ATTN_HOST_COPY(\"the offset of " + what + "\", " + n(offset) + "u, TESSERA_ATTN_OFFSET_OF(" + dev +
         ", " + path + "));\n";
    s += "TESSERA_ATTN_HOST_COPY(\"the size of " + what + "\", " + n(size) + "u, sizeof(static_cast<" + dev +
         "*>(nullptr)->" + path + "));\n";
    s += "TESSERA_ATTN_HOST_COPY(\"the type of " + what + " (" + type +
         ")\", true, (std::is_same_v<decltype(static_cast<" + dev + "*>(nullptr)->" + path + "), " + type + ">));\n";
  };
  {
    using HP = AttentionSm90ParamsHost;
#define TESSERA_JIT_ATTN_MEMBER(path, type) \
  member("P", "AttentionSm90Params", #path, offsetof(HP, path), sizeof(static_cast<HP*>(nullptr)->path), type)
    TESSERA_JIT_ATTN_MEMBER(o, "T*");
    TESSERA_JIT_ATTN_MEMBER(o_batch, "long long");
    TESSERA_JIT_ATTN_MEMBER(o_head, "long long");
    TESSERA_JIT_ATTN_MEMBER(o_seq, "long long");
    TESSERA_JIT_ATTN_MEMBER(lse, "float*");
    TESSERA_JIT_ATTN_MEMBER(lse_head, "long long");
    TESSERA_JIT_ATTN_MEMBER(shape, "tessera::kernels::AttentionSm90Shape");
    TESSERA_JIT_ATTN_MEMBER(shape.batch, "int");
    TESSERA_JIT_ATTN_MEMBER(shape.heads_q, "int");
    TESSERA_JIT_ATTN_MEMBER(shape.group, "int");
    TESSERA_JIT_ATTN_MEMBER(shape.seq_q, "int");
    TESSERA_JIT_ATTN_MEMBER(shape.seq_k, "int");
    TESSERA_JIT_ATTN_MEMBER(shape.m_blocks, "int");
    TESSERA_JIT_ATTN_MEMBER(shape.causal, "bool");
    TESSERA_JIT_ATTN_MEMBER(shape.bottom_right, "bool");
    TESSERA_JIT_ATTN_MEMBER(shape.cu_seqlens_q, "int const*");
    TESSERA_JIT_ATTN_MEMBER(shape.cu_seqlens_k, "int const*");
    TESSERA_JIT_ATTN_MEMBER(shape.order_pairs, "tessera::kernels::AttentionSm90Divisor");
    TESSERA_JIT_ATTN_MEMBER(shape.order_m, "tessera::kernels::AttentionSm90Divisor");
    TESSERA_JIT_ATTN_MEMBER(shape.order_heads, "tessera::kernels::AttentionSm90Divisor");
    TESSERA_JIT_ATTN_MEMBER(shape.order_m.d, "int");
    TESSERA_JIT_ATTN_MEMBER(shape.order_m.mul, "unsigned");
    TESSERA_JIT_ATTN_MEMBER(shape.order_m.shift, "int");
    TESSERA_JIT_ATTN_MEMBER(scale, "float");
    TESSERA_JIT_ATTN_MEMBER(scale_log2, "float");
    TESSERA_JIT_ATTN_MEMBER(tiles, "int");
#undef TESSERA_JIT_ATTN_MEMBER
    s += "TESSERA_ATTN_HOST_COPY(\"sizeof(AttentionSm90Params)\", " + n(sizeof(HP)) + "u, sizeof(P));\n";
    s += "TESSERA_ATTN_HOST_COPY(\"alignof(AttentionSm90Params)\", " + n(alignof(HP)) + "u, alignof(P));\n";
    s += "TESSERA_ATTN_HOST_COPY(\"sizeof(AttentionSm90Shape)\", " + n(sizeof(HP::Shape)) +
         "u, sizeof(tessera::kernels::AttentionSm90Shape));\n";
  }
  auto const maps = [&](auto const& host) {
    using HM = std::decay_t<decltype(host)>;
#define TESSERA_JIT_ATTN_MAP(path)                                                                     \
  member("M", "AttentionSm90Maps", #path, offsetof(HM, path), sizeof(static_cast<HM*>(nullptr)->path), \
         "tessera::TmaDescriptor")
    TESSERA_JIT_ATTN_MAP(q);
    TESSERA_JIT_ATTN_MAP(k);
    TESSERA_JIT_ATTN_MAP(v);
#undef TESSERA_JIT_ATTN_MAP
    s += "TESSERA_ATTN_HOST_COPY(\"sizeof(AttentionSm90Maps)\", " + n(sizeof(HM)) + "u, sizeof(M));\n";
    s += "TESSERA_ATTN_HOST_COPY(\"alignof(AttentionSm90Maps)\", " + n(alignof(HM)) + "u, alignof(M));\n";
  };
  if (desc_align == 128) {
    maps(AttentionSm90MapsHost<128>{});
  } else {
    maps(AttentionSm90MapsHost<64>{});
  }
  // The causal modes' numbering (kernels::AttentionCausal; the host computes causal and bottom_right from it).
  s += "TESSERA_ATTN_HOST_COPY(\"AttentionCausal's values (kernels::AttentionCausal)\", true, "
       "(int(tessera::kernels::AttentionCausal::none) == 0 && int(tessera::kernels::AttentionCausal::top_left) == 1 "
       "&& int(tessera::kernels::AttentionCausal::bottom_right) == 2));\n";
  // The tile, the block, the shared memory.
  s += "TESSERA_ATTN_HOST_COPY(\"the tile's query rows (BM)\", " + n(g.bm) + ", Cfg::BM);\n";
  s += "TESSERA_ATTN_HOST_COPY(\"the tile's keys a step (BN)\", " + n(g.bn) + ", Cfg::BN);\n";
  s += "TESSERA_ATTN_HOST_COPY(\"the head dimension\", " + n(k.head_dim) + ", Cfg::kHeadDim);\n";
  s += "TESSERA_ATTN_HOST_COPY(\"the block's threads\", " + n(g.threads) + ", Roles::kThreads);\n";
  s += "TESSERA_ATTN_HOST_COPY(\"whether a block loops over tiles (kPersistent)\", " +
       std::string(g.persistent ? "true" : "false") + ", Cfg::kPersistent);\n";
  s += "TESSERA_ATTN_HOST_COPY(\"the dynamic shared memory (shared_storage_bytes)\", " + n(g.smem_bytes) +
       ", (tessera::sm90::shared_storage_bytes<typename Roles::Storage>()));\n";
  s += "TESSERA_ATTN_HOST_COPY(\"the cluster (none)\", 1, Roles::kClusterSize);\n";
  // The boxes: Q's tile is D/64 boxes of 64 x BM (kQBytes complete q_full), a K or V stage D/64 of
  // 64 x BN (kKVBytes), 16-bit elements; the 128-byte swizzle is a box row of 64 elements.
  s += "TESSERA_ATTN_HOST_COPY(\"the bytes of Q's boxes (D/64 boxes of 64 x BM)\", " +
       n((k.head_dim / 64) * 64 * g.bm * 2) + "u, Roles::kQBytes);\n";
  s += "TESSERA_ATTN_HOST_COPY(\"the bytes of a K or V stage's boxes (D/64 boxes of 64 x BN)\", " +
       n((k.head_dim / 64) * 64 * g.bn * 2) + "u, Roles::kKVBytes);\n";
  s += "TESSERA_ATTN_HOST_COPY(\"the element size\", 2u, sizeof(T));\n";
  s += "#undef TESSERA_ATTN_HOST_COPY\n#undef TESSERA_ATTN_OFFSET_OF\n}  // namespace "
       "tessera_jit_attention_sm90_check\n";
  return s;
}

// One 4-D tensor map: cuTensorMapEncodeTiled's arguments for a (batch, heads, seq, head_dim) tensor
// of 16-bit elements: dims innermost first (head_dim, seq, heads, batch), the three outer strides in
// bytes, boxes of 64 x rows x 1 x 1 with the 128-byte swizzle, L2 promotion of 256 bytes, zeros
// outside (kernels::detail::attention_sm90_tma's make_tma_desc_4d call).
struct AttentionSm90TmaMap {
  void const* ptr = nullptr;
  int elem_bytes = 2;
  std::uint64_t dims[4] = {0, 0, 0, 0};
  std::uint64_t strides[3] = {0, 0, 0};  // bytes
  std::uint32_t box[4] = {64, 0, 1, 1};
  int swizzle_bytes = 128;
};

namespace detail {
// kernels::detail::attention_sm90_tma: a stride over an extent of 1 is never followed, so it is
// replaced by one past the whole tensor (TMA checks every stride; the problem's may be anything
// there).
inline AttentionSm90TmaMap attention_sm90_jit_tma_map(void const* ptr, int batch, int heads, int seq, int head_dim,
                                                      kernels::AttentionStrides const& s, int rows) {
  constexpr std::uint64_t eb = 2;
  std::uint64_t span = std::uint64_t(head_dim) * eb;  // bytes the used strides reach
  auto const reach = [&](long long stride, int extent) {
    if (extent > 1) span = std::max(span, std::uint64_t(stride) * std::uint64_t(extent) * eb);
  };
  reach(s.seq, seq);
  reach(s.head, heads);
  reach(s.batch, batch);
  auto const bytes = [&](long long stride, int extent) {
    return extent > 1 ? std::uint64_t(stride) * eb : (span + 15) / 16 * 16;
  };
  AttentionSm90TmaMap m;
  m.ptr = ptr;
  m.elem_bytes = int(eb);
  m.dims[0] = std::uint64_t(head_dim);
  m.dims[1] = std::uint64_t(seq);
  m.dims[2] = std::uint64_t(heads);
  m.dims[3] = std::uint64_t(batch);
  m.strides[0] = bytes(s.seq, seq);
  m.strides[1] = bytes(s.head, heads);
  m.strides[2] = bytes(s.batch, batch);
  m.box[0] = 64;
  m.box[1] = std::uint32_t(rows);
  m.box[2] = 1;
  m.box[3] = 1;
  return m;
}

// make_tma_desc_4d's rules (arch/copy_sm90_tma_4d.cuh), with its messages after "what: ".
inline void attention_sm90_jit_check_map(char const* what, AttentionSm90TmaMap const& m) {
  auto const require = [&](bool ok, std::string const& why) {
    if (!ok)
      throw std::invalid_argument(std::string("attention_forward_sm90 (JIT): the tensor map of ") + what + ": " + why);
  };
  require(m.ptr != nullptr && reinterpret_cast<std::uintptr_t>(m.ptr) % 16 == 0,
          "the tensor must start at a 16-byte aligned address");
  for (int i = 0; i < 4; ++i) {
    require(m.dims[i] >= 1 && m.dims[i] <= (std::uint64_t(1) << 32),
            "extent " + std::to_string(i) + " must be in [1, 2^32], got " + std::to_string(m.dims[i]));
    require(m.box[i] >= 1 && m.box[i] <= 256,
            "box extent " + std::to_string(i) + " must be in [1, 256], got " + std::to_string(m.box[i]));
  }
  for (int i = 0; i < 3; ++i)
    require(m.strides[i] % 16 == 0 && m.strides[i] > 0 && m.strides[i] < (std::uint64_t(1) << 40),
            "stride " + std::to_string(i + 1) + " must be a positive multiple of 16 bytes below 2^40, got " +
                std::to_string(m.strides[i]) + " bytes");
  std::uint64_t const row_bytes = std::uint64_t(m.box[0]) * std::uint64_t(m.elem_bytes);
  require(row_bytes % 16 == 0 && row_bytes <= std::uint64_t(m.swizzle_bytes),
          "a box row of " + std::to_string(row_bytes) + " bytes must be a multiple of 16 and at most the swizzle's " +
              std::to_string(m.swizzle_bytes) + " bytes");
}
}  // namespace detail

// What attention_sm90_jit_params made: the kernel's two arguments (the values; the tensor maps),
// what it asked the encoder for, the launch.
template <int DescAlign>
struct AttentionSm90JitArgs {
  AttentionSm90ParamsHost params;
  AttentionSm90MapsHost<DescAlign> maps;
  AttentionSm90TmaMap map_q, map_k, map_v;
  unsigned blocks = 0, threads = 0, smem_bytes = 0;
};

// attention_sm90_jit_params<DescAlign>(k, p, encode): the arguments of kernel k for problem p, what
// kernels::detail::attention_sm90_launch computes: the maps, Q's in boxes of 64 x BM, K's and V's in
// 64 x BN (varlen: over the packed rows, one batch); the values, O's pointer and strides, LSE's head
// stride; the shape (kernels::attention_sm90_shape), causal in the groups of
// kernels::attention_sm90_causal_group (sms 0: none); the scale and scale log2(e); the tiles
// (m_blocks heads_q batch) and the grid, kernels::attention_sm90_grid(tiles, sms, k.persistent) (sms 0: one
// block a tile). encode(map, out) writes the 128-byte tensor map of `map`
// to out (attention_sm90_jit_encode; a test records the maps instead). Pre: p passes
// check_attention_sm90_jit_problem and k is attention_sm90_jit_kernel(p). Throws
// std::invalid_argument naming a broken TMA rule.
template <int DescAlign, class Encode>
AttentionSm90JitArgs<DescAlign> attention_sm90_jit_params(AttentionSm90JitKernel const& k,
                                                          AttentionSm90JitProblem const& p, Encode&& encode,
                                                          int sms = 0) {
  AttentionSm90JitGeometry const g = attention_sm90_jit_geometry(k);
  AttentionSm90JitArgs<DescAlign> r;
  auto& a = r.params;
  // varlen: one batch of the packed rows (kernels::attention_sm90_extents, the nvcc launcher's too)
  kernels::AttentionSm90Extents const e = kernels::attention_sm90_extents(attention_sm90_jit_typed<half_t>(p), g.bm);
  r.map_q = detail::attention_sm90_jit_tma_map(p.q, e.batch, p.heads_q, e.rows_q, p.head_dim, p.q_strides, g.bm);
  r.map_k = detail::attention_sm90_jit_tma_map(p.k, e.batch, p.heads_kv, e.rows_k, p.head_dim, p.k_strides, g.bn);
  r.map_v = detail::attention_sm90_jit_tma_map(p.v, e.batch, p.heads_kv, e.rows_k, p.head_dim, p.v_strides, g.bn);
  detail::attention_sm90_jit_check_map("Q", r.map_q);
  detail::attention_sm90_jit_check_map("K", r.map_k);
  detail::attention_sm90_jit_check_map("V", r.map_v);
  encode(r.map_q, &r.maps.q);
  encode(r.map_k, &r.maps.k);
  encode(r.map_v, &r.maps.v);
  a.o = p.o;
  a.o_batch = e.o_batch;
  a.o_head = p.o_strides.head;
  a.o_seq = p.o_strides.seq;
  a.lse = p.lse;
  a.lse_head = e.lse_head;
  a.shape = e.shape;
  a.scale = attention_sm90_jit_scale(p);
  a.scale_log2 = a.scale * 1.4426950408889634f;
  a.tiles = int(e.tiles);
  r.blocks = unsigned(kernels::attention_sm90_grid(e.tiles, sms, g.persistent));
  if (a.shape.causal)  // the nvcc launcher's order (kernels::detail::attention_sm90_launch)
    kernels::attention_sm90_order(a.shape, kernels::attention_sm90_causal_group(
                                               a.shape, p.head_dim, g.persistent ? int(r.blocks) : sms, g.persistent));
  r.threads = unsigned(g.threads);
  r.smem_bytes = unsigned(g.smem_bytes);
  return r;
}

// ---- the driver's side -------------------------------------------------------------------------------

namespace detail {
// cuTensorMapEncodeTiled's enumerators (cuda.h; tests/jit/attention_sm90.cpp checks them there).
enum : int {
  kAttentionTmaUint16 = 1,           // CU_TENSOR_MAP_DATA_TYPE_UINT16
  kAttentionTmaInterleaveNone = 0,   // CU_TENSOR_MAP_INTERLEAVE_NONE
  kAttentionTmaSwizzle128B = 3,      // CU_TENSOR_MAP_SWIZZLE_128B
  kAttentionTmaL2Promotion256B = 3,  // CU_TENSOR_MAP_L2_PROMOTION_L2_256B
  kAttentionTmaOobFillNone = 0,      // CU_TENSOR_MAP_FLOAT_OOB_FILL_NONE
};
}  // namespace detail

// attention_sm90_jit_encode(map, out): the 128-byte tensor map of `map` into out (64-byte aligned
// storage), through the driver's cuTensorMapEncodeTiled (what make_tma_desc_4d does through the
// runtime). Throws jit_error when the driver lacks it or refuses.
inline void attention_sm90_jit_encode(AttentionSm90TmaMap const& m, void* out) {
  auto const& d = cu::Driver::get();
  if (!d.tensor_map_encode_tiled)
    throw jit_error("the CUDA driver has no cuTensorMapEncodeTiled: update the GPU driver (TMA needs CUDA 12)");
  alignas(64) std::uint64_t desc[16] = {};
  unsigned long long const dims[4] = {m.dims[0], m.dims[1], m.dims[2], m.dims[3]};
  unsigned long long const strides[3] = {m.strides[0], m.strides[1], m.strides[2]};
  unsigned const box[4] = {m.box[0], m.box[1], m.box[2], m.box[3]};
  unsigned const elem_strides[4] = {1, 1, 1, 1};
  d.check(d.tensor_map_encode_tiled(desc, detail::kAttentionTmaUint16, 4, const_cast<void*>(m.ptr), dims, strides, box,
                                    elem_strides, detail::kAttentionTmaInterleaveNone, detail::kAttentionTmaSwizzle128B,
                                    detail::kAttentionTmaL2Promotion256B, detail::kAttentionTmaOobFillNone),
          "cuTensorMapEncodeTiled");
  std::memcpy(out, desc, sizeof(desc));
}

// attention_sm90_jit_launch(problem, kernel, stream): O and LSE of `problem` on `stream` (a CUstream
// / cudaStream_t) in the current context, as kernels::attention_forward_sm90 computes them: kernel
// is the one of attention_sm90_jit_kernel(problem)'s program (attention_sm90_jit_name). Throws
// std::invalid_argument for a problem check_attention_sm90_jit_problem refuses (naming
// "attention_forward_sm90"), jit_error when the driver refuses the tensor maps or the launch.
// Asynchronous.
inline void attention_sm90_jit_launch(AttentionSm90JitProblem const& problem, Kernel const& kernel, void* stream) {
  check_attention_sm90_jit_problem("attention_forward_sm90", problem);
  AttentionSm90JitKernel const k = attention_sm90_jit_kernel(problem);
  auto const run = [&](auto&& args) {
    LaunchConfig c;
    c.grid = {args.blocks};
    c.block = {args.threads};
    c.shared_bytes = args.smem_bytes;
    c.stream = stream;
    // (params, maps): the values by value, the tensor maps as the __grid_constant__
    void* ptr[2] = {&args.params, &args.maps};
    std::size_t const size[2] = {sizeof(args.params), sizeof(args.maps)};
    kernel.launch_raw(c, ptr, size, 2);
  };
  auto const& d = cu::Driver::get();
  int const sms = d.device_attribute(cu::kDeviceMultiprocessorCount, d.current_device());
  if (attention_sm90_jit_descriptor_align() == 128) {
    auto args = attention_sm90_jit_params<128>(k, problem, attention_sm90_jit_encode, sms);
    run(args);
  } else {
    auto args = attention_sm90_jit_params<64>(k, problem, attention_sm90_jit_encode, sms);
    run(args);
  }
}

}  // namespace tessera::jit
