// gemm_sm90_grouped through the JIT, with a host side that needs no CUDA toolkit and no CUDA
// runtime: the grouped kernel of kernels/gemm/sm90_grouped_kernel.cuh and its prepare kernel
// compiled by NVRTC (one program per kernel), their arguments built on the host, the launch through
// the driver (jit/driver.hpp). What kernels::gemm_sm90_grouped (kernels/gemm_sm90_grouped.cuh, nvcc)
// does, step by step:
//
//   gemm_sm90_grouped_jit_kernel(problem)       which kernel: gemm_sm90_grouped_pick's tile, the
//                                               types, B's major (16 in all: index())
//   gemm_sm90_grouped_jit_source(kernel, align) the program: sm90_grouped_kernel.cuh and the
//                                               static_asserts that hold it to the host's copies
//   gemm_sm90_grouped_jit_names(kernel)         [0] the grouped kernel, [1] its prepare kernel
//   gemm_sm90_grouped_jit_launch(problem, grouped, prepare, stream, sms)
//                                               checks, the workspace, the two launches
//
// The arguments, as jit/gemm_sm90.hpp's: the kernel takes the values (GemmSm90GroupedParams) by
// value and the TMA atoms (GemmSm90GroupedMaps) as a __grid_constant__; the host fills copies of
// both layouts, checked member by member against the device structs by the program.
#pragma once

#if defined(__CUDACC_RTC__)
#error "tessera/jit/gemm_sm90_grouped.hpp: host only (it builds and launches gemm_sm90_grouped's kernels)"
#endif

#include <algorithm>
#include <cstddef>
#include <cstdint>
#include <stdexcept>
#include <string>
#include <type_traits>
#include <vector>

#include "tessera/jit/attention_sm90.hpp"
#include "tessera/jit/gemm_sm90.hpp"
#include "tessera/kernels/gemm/sm90_grouped_policy.hpp"
#include "tessera/kernels/gemm_grouped_problem.hpp"

namespace tessera::jit {

// One kernel of gemm_sm90_grouped: the tile (gemm_sm90_grouped_pick's), the input type (bf16 or
// fp16), the output (fp32 or the input type), B's major. index(): a dense number in [0, kCount).
struct GemmSm90GroupedJitKernel {
  kernels::GemmSm90GroupedPick config = kernels::GemmSm90GroupedPick::large;
  bool bf16 = true;
  bool out_f32 = false;
  bool b_k_major = true;

  static constexpr int kCount = 16;
  int index() const { return int(config) * 8 + (bf16 ? 4 : 0) + (out_f32 ? 2 : 0) + (b_k_major ? 1 : 0); }
  // Pre: 0 <= i < kCount (else std::invalid_argument).
  static GemmSm90GroupedJitKernel from_index(int i) {
    if (i < 0 || i >= kCount)
      throw std::invalid_argument("GemmSm90GroupedJitKernel: index " + std::to_string(i) + " is not in [0, " +
                                  std::to_string(kCount) + ")");
    return {kernels::GemmSm90GroupedPick(i / 8), (i & 4) != 0, (i & 2) != 0, (i & 1) != 0};
  }
  friend bool operator==(GemmSm90GroupedJitKernel const&, GemmSm90GroupedJitKernel const&) = default;
};

// The layout of kernels::detail::GemmSm90GroupedParams<TOut> (the values) and of
// GemmSm90GroupedMaps<Cfg, T, TOut> (the TMA atoms), member for member.
struct GemmSm90GroupedParamsHost {
  struct Rows {  // kernels::detail::GemmSm90GroupedRows
    int* tile_offsets = nullptr;
    int* begin = nullptr;
    int* end = nullptr;
  };
  int groups = 0, N = 0, K = 0;
  GemmSm90ParamsHost::Epilogue ep;
  bool tma_store_d = true;
  Rows rows;
  GemmSm90ParamsHost::Scales scales;  // the fp8 kernels' (none of the JIT's: 16-bit inputs)
  int b_group_step = 0;
};
template <int DescAlign>
struct GemmSm90GroupedMapsHost {
  using Descriptor = typename GemmSm90MapsHost<DescAlign>::Descriptor;
  Descriptor tma_a{}, b{}, tma_d{};
};

// The geometry of a tile, as the launch needs it.
struct GemmSm90GroupedJitGeometry {
  std::string config_name;
  int bm = 0, bn = 0, bk = 0, threads = 0, smem_bytes = 0;
};
inline GemmSm90GroupedJitGeometry gemm_sm90_grouped_jit_geometry(GemmSm90GroupedJitKernel const& k) {
  auto const g = [](auto cfg) {
    using Cfg = typename decltype(cfg)::type;
    return GemmSm90GroupedJitGeometry{
        kernels::detail::gemm_sm90_config_name<Cfg>(), Cfg::BM, Cfg::BN, Cfg::BK, Cfg::kThreads,
        detail::gemm_sm90_jit_smem_bytes<Cfg>(2)};
  };
  if (k.config == kernels::GemmSm90GroupedPick::small) return g(detail::TypeTag<kernels::GemmSm90GroupedSmall>{});
  return g(detail::TypeTag<kernels::GemmSm90GroupedLarge>{});
}

// gemm_sm90_grouped_jit_kernel(problem): the kernel kernels::gemm_sm90_grouped runs for `problem`.
// Pre: problem passes check_gemm_grouped_problem.
template <class T, class TOut>
GemmSm90GroupedJitKernel gemm_sm90_grouped_jit_kernel(kernels::GemmGroupedProblem<T, TOut> const& problem) {
  static_assert(std::is_same_v<T, half_t> || std::is_same_v<T, bfloat16_t>,
                "gemm_sm90_grouped (JIT): A and B must be half_t or bfloat16_t");
  static_assert(std::is_same_v<TOut, T> || std::is_same_v<TOut, float>,
                "gemm_sm90_grouped (JIT): D must be float or the input type");
  GemmSm90GroupedJitKernel k;
  k.config = kernels::gemm_sm90_grouped_pick(kernels::detail::gemm_grouped_total_rows(problem), problem.groups);
  k.bf16 = std::is_same_v<T, bfloat16_t>;
  k.out_f32 = std::is_same_v<TOut, float>;
  k.b_k_major = problem.b_major == Major::col;
  return k;
}

// The name expressions: [0] the grouped kernel, [1] gemm_sm90_grouped_prepare<void>.
inline std::vector<std::string> gemm_sm90_grouped_jit_names(GemmSm90GroupedJitKernel const& k) {
  std::string const type = k.bf16 ? "tessera::bfloat16_t" : "tessera::half_t";
  std::string const tout = k.out_f32 ? "float" : type;
  return {"tessera::sm90::warp_specialized_kernel<tessera::kernels::detail::GemmSm90GroupedRoles<" +
              gemm_sm90_grouped_jit_geometry(k).config_name + ", " + type + ", " + tout + ", " +
              (k.b_k_major ? "true" : "false") + "> >",
          "tessera::kernels::detail::gemm_sm90_grouped_prepare<void>"};
}

// gemm_sm90_grouped_jit_source(k, desc_align): the program of kernel k: sm90_grouped_kernel.cuh, then
// static_asserts holding the device code to the host's copies (the kernels' parameter lists, every
// member's offset and size, the structs' sizes and alignments, the shared memory, the threads, the A
// and D boxes). Pre: desc_align is 64 or 128.
inline std::string gemm_sm90_grouped_jit_source(GemmSm90GroupedJitKernel const& k, int desc_align) {
  if (desc_align != 64 && desc_align != 128)
    throw std::invalid_argument("gemm_sm90_grouped_jit_source: desc_align must be 64 or 128, got " +
                                std::to_string(desc_align));
  GemmSm90GroupedJitGeometry const g = gemm_sm90_grouped_jit_geometry(k);
  std::vector<std::string> const names = gemm_sm90_grouped_jit_names(k);
  std::string const type = k.bf16 ? "tessera::bfloat16_t" : "tessera::half_t";
  std::string const tout = k.out_f32 ? "float" : type;
  auto const n = [](auto v) { return std::to_string(v); };
  std::string s =
      "// tessera::jit::gemm_sm90_grouped (include/tessera/jit/gemm_sm90_grouped.hpp): the grouped kernel,\n"
      "// its prepare kernel, and the checks that their arguments are what the host side builds.\n"
      "#include \"tessera/kernels/gemm/sm90_grouped_kernel.cuh\"\n"
      "namespace tessera_jit_gemm_sm90_grouped_check {\n"
      "namespace kd = tessera::kernels::detail;\n"
      "using Cfg = " +
      g.config_name + ";\nusing T = " + type + ";\nusing TOut = " + tout +
      ";\nusing P = kd::GemmSm90GroupedParams<TOut>;\nusing M = kd::GemmSm90GroupedMaps<Cfg, T, TOut>;\n"
      "#if defined(__CUDACC_RTC__)\n"
      "#define TESSERA_OFFSET_OF(type, member) ((unsigned long long)__INTADDR__(&(((type*)0)->member)))\n"
      "#else\n"
      "#define TESSERA_OFFSET_OF(type, member) ((unsigned long long)__builtin_offsetof(type, member))\n"
      "#endif\n"
      "#define TESSERA_HOST_COPY(what, expected, actual) static_assert((actual) == (expected), \"gemm_sm90_grouped "
      "(JIT): \" what \" differs from the host's copy in include/tessera/jit/gemm_sm90_grouped.hpp: update it to "
      "kernels/gemm/sm90_grouped_kernel.cuh\")\n"
      "static_assert(std::is_same_v<decltype(&" +
      names[0] +
      "), void (*)(P, M)>, \"gemm_sm90_grouped (JIT): the kernel's parameters are no longer (GemmSm90GroupedParams, "
      "GemmSm90GroupedMaps): update include/tessera/jit/gemm_sm90_grouped.hpp\");\n"
      "static_assert(std::is_same_v<decltype(&" +
      names[1] +
      "), void (*)(int const*, kd::GemmSm90RowsForm, int, int, int, int, int, kd::GemmSm90GroupedRows)> && "
      "sizeof(kd::GemmSm90RowsForm) == sizeof(int) && sizeof(kd::GemmSm90GroupedRows) == " +
      n(sizeof(GemmSm90GroupedParamsHost::Rows)) +
      ", \"gemm_sm90_grouped (JIT): the prepare kernel's parameters changed: update "
      "include/tessera/jit/gemm_sm90_grouped.hpp\");\n";
  auto const member = [&](char const* dev, char const* name, char const* path, std::size_t offset, std::size_t size) {
    std::string const what = std::string(name) + "::" + path;
    s += "TESSERA_HOST_COPY(\"the offset of " + what + "\", " + n(offset) + "u, TESSERA_OFFSET_OF(" + dev + ", " +
         path + "));\n";
    s += "TESSERA_HOST_COPY(\"the size of " + what + "\", " + n(size) + "u, sizeof(static_cast<" + dev +
         "*>(nullptr)->" + path + "));\n";
  };
  {
    using HP = GemmSm90GroupedParamsHost;
#define TESSERA_JIT_GROUPED_MEMBER(path) \
  member("P", "GemmSm90GroupedParams", #path, offsetof(HP, path), sizeof(static_cast<HP*>(nullptr)->path))
    TESSERA_JIT_GROUPED_MEMBER(groups);
    TESSERA_JIT_GROUPED_MEMBER(N);
    TESSERA_JIT_GROUPED_MEMBER(K);
    TESSERA_JIT_GROUPED_MEMBER(ep);
    TESSERA_JIT_GROUPED_MEMBER(ep.alpha);
    TESSERA_JIT_GROUPED_MEMBER(ep.d);
    TESSERA_JIT_GROUPED_MEMBER(ep.ldd);
    TESSERA_JIT_GROUPED_MEMBER(ep.pairs_aligned);
    TESSERA_JIT_GROUPED_MEMBER(ep.plain);
    TESSERA_JIT_GROUPED_MEMBER(ep.last_m);
    TESSERA_JIT_GROUPED_MEMBER(ep.last_n);
    TESSERA_JIT_GROUPED_MEMBER(ep.act);
    TESSERA_JIT_GROUPED_MEMBER(tma_store_d);
    TESSERA_JIT_GROUPED_MEMBER(rows);
    TESSERA_JIT_GROUPED_MEMBER(rows.tile_offsets);
    TESSERA_JIT_GROUPED_MEMBER(rows.begin);
    TESSERA_JIT_GROUPED_MEMBER(rows.end);
    TESSERA_JIT_GROUPED_MEMBER(scales);
    TESSERA_JIT_GROUPED_MEMBER(b_group_step);
#undef TESSERA_JIT_GROUPED_MEMBER
    s += "TESSERA_HOST_COPY(\"sizeof(GemmSm90GroupedParams)\", " + n(sizeof(HP)) + "u, sizeof(P));\n";
    s += "TESSERA_HOST_COPY(\"alignof(GemmSm90GroupedParams)\", " + n(alignof(HP)) + "u, alignof(P));\n";
  }
  auto const maps = [&](auto host) {
    using HM = typename decltype(host)::type;
#define TESSERA_JIT_GROUPED_MAP(path) \
  member("M", "GemmSm90GroupedMaps", #path, offsetof(HM, path), sizeof(static_cast<HM*>(nullptr)->path))
    TESSERA_JIT_GROUPED_MAP(tma_a);
    TESSERA_JIT_GROUPED_MAP(b);
    TESSERA_JIT_GROUPED_MAP(tma_d);
#undef TESSERA_JIT_GROUPED_MAP
    s += "TESSERA_HOST_COPY(\"sizeof(GemmSm90GroupedMaps)\", " + n(sizeof(HM)) + "u, sizeof(M));\n";
    s += "TESSERA_HOST_COPY(\"alignof(GemmSm90GroupedMaps)\", " + n(alignof(HM)) + "u, alignof(M));\n";
  };
  if (desc_align == 128) {
    maps(detail::TypeTag<GemmSm90GroupedMapsHost<128>>{});
  } else {
    maps(detail::TypeTag<GemmSm90GroupedMapsHost<64>>{});
  }
  s += "TESSERA_HOST_COPY(\"the dynamic shared memory (gemm_sm90_smem_bytes)\", " + n(g.smem_bytes) +
       ", (kd::gemm_sm90_smem_bytes<Cfg, T>()));\n";
  s += "TESSERA_HOST_COPY(\"the block's threads\", " + n(g.threads) + ", Cfg::kThreads);\n";
  s += "TESSERA_HOST_COPY(\"the prepare kernel's threads\", 256, kd::kGemmSm90PrepareThreads);\n";
  // A's box: BM rows of 64 K-elements (mode 1 contiguous); D's: 64 rows x 128 bytes.
  auto const box = [&](std::string const& what, std::string const& atom, detail::GemmSm90Box bx) {
    s += "TESSERA_HOST_COPY(\"" + what + "'s TMA box (extents, contiguous mode)\", true, (decltype(tessera::size<0>(" +
         atom + "::box_layout()))::value == " + n(bx.extent0) + " && decltype(tessera::size<1>(" + atom +
         "::box_layout()))::value == " + n(bx.extent1) + " && " + atom + "::kInnerMode == " + n(bx.inner_mode) +
         "));\n";
  };
  box("A", "kd::GemmSm90TmaA<Cfg, T, true>", detail::gemm_sm90_load_box(g.bm, g.bk, true));
  box("D", "kd::GemmSm90TmaD<TOut>", detail::gemm_sm90_epilogue_box(k.out_f32 ? 4 : 2));
  s += "#undef TESSERA_HOST_COPY\n#undef TESSERA_OFFSET_OF\n}  // namespace tessera_jit_gemm_sm90_grouped_check\n";
  return s;
}

// gemm_sm90_grouped_jit_launch(problem, grouped, prepare, stream, sms): D_g = alpha A_g B_g on
// `stream` in the current context, as kernels::gemm_sm90_grouped computes it: grouped and prepare
// are the kernels of gemm_sm90_grouped_jit_kernel(problem)'s program (names [0] and [1]); sms the
// device's SM count. Throws std::invalid_argument for a problem check_gemm_grouped_problem refuses,
// jit_error when the driver refuses an allocation, a tensor map or a launch. Asynchronous.
template <class T, class TOut>
void gemm_sm90_grouped_jit_launch(kernels::GemmGroupedProblem<T, TOut> const& p, Kernel const& grouped,
                                  Kernel const& prepare, void* stream, int sms) {
  kernels::detail::check_gemm_grouped_problem("gemm_sm90_grouped", p);
  if (sms < 1) throw std::invalid_argument("gemm_sm90_grouped (JIT): sms must be >= 1, got " + std::to_string(sms));
  long long const total = kernels::detail::gemm_grouped_total_rows(p);
  if (total == 0) return;  // every group empty: nothing to write
  GemmSm90GroupedJitKernel const k = gemm_sm90_grouped_jit_kernel(p);
  GemmSm90GroupedJitGeometry const g = gemm_sm90_grouped_jit_geometry(k);
  GemmSm90GroupedParamsHost a;
  a.groups = p.groups;
  a.N = p.n;
  a.K = p.k;
  a.ep.alpha = p.alpha;
  a.ep.d = p.d;
  a.ep.ldd = p.ldd;
  a.ep.pairs_aligned = true;  // ldd a multiple of 8, D 16-byte aligned (checked)
  a.ep.plain = true;
  a.ep.last_m = int(total - 1);
  a.ep.last_n = p.n - 1;
  a.tma_store_d = true;
  constexpr int eb = int(sizeof(T)), ob = int(sizeof(TOut));
  GemmSm90TmaMap const map_a =
      detail::gemm_sm90_tma_map(p.a, eb, total, p.k, p.lda, detail::gemm_sm90_load_box(g.bm, g.bk, true));
  GemmSm90TmaMap const map_d =
      detail::gemm_sm90_tma_map(p.d, ob, total, p.n, p.ldd, detail::gemm_sm90_epilogue_box(ob));
  // B: (inner, outer, group, 1), each group's matrix bounded (K-major: (K, N); N-major: (N, K)).
  AttentionSm90TmaMap map_b;
  map_b.ptr = p.b;
  map_b.elem_bytes = eb;
  bool const bk = k.b_k_major;
  map_b.dims[0] = std::uint64_t(bk ? p.k : p.n);
  map_b.dims[1] = std::uint64_t(bk ? p.n : p.k);
  map_b.dims[2] = std::uint64_t(p.groups);
  map_b.dims[3] = 1;
  map_b.strides[0] = std::uint64_t(p.ldb) * eb;
  map_b.strides[1] = std::uint64_t(p.stride_b) * eb;
  map_b.strides[2] = std::uint64_t(p.stride_b) * eb * std::uint64_t(p.groups);
  map_b.box[0] = 64;
  map_b.box[1] = std::uint32_t(bk ? g.bn : g.bk);
  map_b.box[2] = map_b.box[3] = 1;
  // The prepared rows: tile_offsets (groups + 1), begin, end (groups each), freed after the launches.
  detail::StreamBuffer ws((3 * std::size_t(p.groups) + 1) * sizeof(int), stream);
  int* const base = static_cast<int*>(ws.get());
  a.rows = {base, base + p.groups + 1, base + 2 * p.groups + 1};
  int const form = p.form == kernels::GemmGroupedForm::offsets ? 0 : p.form == kernels::GemmGroupedForm::ends ? 1 : 2;
  int const groups = p.groups, total_i = int(total), capacity = p.m, bm = g.bm, tiles_n = (p.n + g.bn - 1) / g.bn;
  {
    LaunchConfig c;
    c.grid = {1};
    c.block = {256};
    c.stream = stream;
    prepare.launch(c, p.rows, form, groups, total_i, capacity, bm, tiles_n, a.rows);
  }
  auto const run = [&](auto maps) {
    gemm_sm90_jit_encode(map_a, &maps.tma_a);
    attention_sm90_jit_encode(map_b, &maps.b);
    gemm_sm90_jit_encode(map_d, &maps.tma_d);
    LaunchConfig c;
    c.grid = {unsigned(sms)};
    c.block = {unsigned(g.threads)};
    c.shared_bytes = unsigned(g.smem_bytes);
    c.stream = stream;
    c.dependent = kernels::detail::gemm_sm90_dependent_launch_enabled();
    void* ptr[2] = {&a, &maps};
    std::size_t const size[2] = {sizeof(a), sizeof(maps)};
    grouped.launch_raw(c, ptr, size, 2);
  };
  if (gemm_sm90_jit_descriptor_align() == 128) {
    run(GemmSm90GroupedMapsHost<128>{});
  } else {
    run(GemmSm90GroupedMapsHost<64>{});
  }
}

}  // namespace tessera::jit
