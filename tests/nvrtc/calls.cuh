// One kernel per device-usable header, for the per-header NVRTC test (CMakeLists.txt here; the
// host-compiler twin is tests/headers/calls.inc): the program for header H includes H alone,
// defines TESSERA_NVRTC_HEADER_<H as a C identifier> and includes this file, whose block for H
// defines `extern "C" __global__ void call(int* out, int n)` using H (and nothing H does not
// include) on static operands and on the dynamic `n`, writing what it computes to `out` so that
// nothing is left out of the PTX. A header without a block is a compile error, so a new header
// cannot skip the test. The programs are compiled for compute_90a, never run (no GPU is needed).

// ---- core ----------------------------------------------------------------------------------------
#if defined(TESSERA_NVRTC_HEADER_tessera_core_config_hpp)
TESSERA_HOST_DEVICE int twice(int x) { return 2 * x; }
extern "C" __global__ void call(int* out, int n) {  // no checks on the device unless asked for
  TESSERA_UNROLL
  for (int i = 0; i < 4; ++i) out[i] = twice(n + i) + TESSERA_RUNTIME_CHECKS;
}
#elif defined(TESSERA_NVRTC_HEADER_tessera_core_stdlib_hpp)
// std:: names reach libcu++ under NVRTC: the facilities the library uses, spelled as in host code.
template <std::size_t... Is>
__device__ int index_sum(std::index_sequence<Is...>) {
  return (int(Is) + ... + 0);
}
extern "C" __global__ void call(int* out, int n) {
  static_assert(std::is_same_v<std::remove_cvref_t<int const&>, int> && std::is_integral_v<std::uint8_t>);
  static_assert(sizeof(std::uint64_t) == 8 && sizeof(std::int16_t) == 2 && sizeof(std::size_t) == 8);
  static_assert(std::is_same_v<std::common_type_t<int, long long>, long long>);
  static_assert(std::integral_constant<int, 3>::value == 3 && std::conditional_t<true, std::true_type, void>::value);
  std::uint32_t const x = std::uint32_t(n);
  out[0] = int(x) + index_sum(std::make_index_sequence<4>{}) + std::forward<int>(std::move(n));
}
#elif defined(TESSERA_NVRTC_HEADER_tessera_core_integer_hpp)
extern "C" __global__ void call(int* out, int n) {
  using namespace tessera;
  using namespace tessera::literals;
  static_assert(_4{} * _2{} == _8{} && 12_c == Int<12>{});
  static_assert(is_static_v<decltype(_0{} * n)> && !is_static_v<decltype(_1{} * n)>);  // _0 * x == _0
  out[0] = int(n * _2{}) + int(n % _1{});
}
#elif defined(TESSERA_NVRTC_HEADER_tessera_core_numeric_hpp)
extern "C" __global__ void call(int* out, int n) {  // 1.0 and its neighbour 1 + 2^-10, and back
  static_assert(tessera::half_t(1.0f).raw() == 0x3c00);
  tessera::half_t const h{float(n)};
  tessera::bfloat16_t const b{float(n)};
  out[0] = int(h.raw()) + int(float(tessera::half_t::bitcast(0x3c01)) * 1024.0f) + int(float(b));
}
#elif defined(TESSERA_NVRTC_HEADER_tessera_core_tuple_hpp)
extern "C" __global__ void call(int* out, int n) {
  auto const t = tessera::make_tuple(n, tessera::_4{});
  auto const [a, b] = t;  // structured bindings: std::tuple_size of a const tuple
  static_assert(decltype(b)::value == 4);
  out[0] = tessera::get<0>(t) + a + int(b);
}
#elif defined(TESSERA_NVRTC_HEADER_tessera_core_error_hpp)
extern "C" __global__ void call(int* out, int n) {
  TESSERA_REQUIRE(tessera::_2{} < tessera::_4{}, "call: static check");  // a static_assert
  TESSERA_REQUIRE(n > 0, "call: n must be positive", n);                 // compiled out (no TESSERA_DEVICE_CHECKS)
  tessera::detail::printf_sink k;
  tessera::detail::write(k, tessera::make_tuple(n, tessera::_2{}));  // "(n,_2)" through printf
  out[0] = n;
}
#elif defined(TESSERA_NVRTC_HEADER_tessera_core_int_tuple_hpp)
extern "C" __global__ void call(int* out, int n) {
  using namespace tessera;
  auto const shape = make_tuple(n, make_tuple(_2{}, _4{}));
  static_assert(decltype(product(make_tuple(_2{}, _4{})))::value == 8);
  out[0] = int(product(shape)) + int(ceil_div(n, _4{})) +
           int(crd2idx(make_tuple(1, 1), make_tuple(n, _4{}), make_tuple(_1{}, n)));
  out[1] = int(get<1>(idx2crd(n, make_tuple(_4{}, n))));
}
#elif defined(TESSERA_NVRTC_HEADER_tessera_core_arithmetic_tuple_hpp)
extern "C" __global__ void call(int* out, int n) {
  auto const strides = tessera::make_identity_strides(tessera::make_tuple(n, tessera::_2{}));  // (_1@0,_1@1)
  out[0] = int(tessera::get<0>(strides).value()) + n;
}
#elif defined(TESSERA_NVRTC_HEADER_tessera_core_layout_hpp)
extern "C" __global__ void call(int* out, int n) {
  using namespace tessera;
  auto const s = make_layout(make_tuple(_4{}, _8{}), LayoutRight{});  // (_4,_8):(_8,_1)
  static_assert(decltype(s(_1{}, _2{}))::value == 10 && decltype(cosize(s))::value == 32);
  auto const d = make_layout(make_tuple(n, 8));  // (n,8):(_1,n)
  out[threadIdx.x] = int(d(1, 2)) + int(size(d)) + int(s(int(threadIdx.x) % 32));
}
#elif defined(TESSERA_NVRTC_HEADER_tessera_core_print_hpp)
extern "C" __global__ void call(int* out, int n) {
  using namespace tessera;
  auto const l = make_layout(make_tuple(_2{}, n + 3), make_tuple(n + 3, _1{}));  // (_2,4):(4,_1) for n = 1
  if (thread0()) {
    print(l);
    print("\n");
    print_layout(Layout<Shape<_2, _4>>{});
  }
  out[0] = int(l(1, 1));
}
#elif defined(TESSERA_NVRTC_HEADER_tessera_core_composition_hpp)
extern "C" __global__ void call(int* out, int n) {
  using namespace tessera;
  auto const a = make_layout(make_tuple(_4{}, _8{}), make_tuple(_1{}, C<100>{}));
  static_assert(std::is_same_v<decltype(composition(a, make_layout(_2{}, _2{}))), Layout<_2, _2>>);
  auto const r = composition(make_layout(make_tuple(4 * n, 8), make_tuple(1, 100)), make_layout(_4{}, _2{}));
  out[0] = int(r(3)) + int(size(coalesce(make_layout(make_tuple(n, _4{}), make_tuple(_4{}, _1{})))));
}
#elif defined(TESSERA_NVRTC_HEADER_tessera_core_complement_hpp)
extern "C" __global__ void call(int* out, int n) {
  using namespace tessera;
  static_assert(decltype(size(complement(Layout<_4, _2>{}, _24{})))::value == 6);
  auto const r = right_inverse(Layout<Shape<_4, _8>, Stride<_8, _1>>{});
  out[0] = int(size(complement(make_layout(4 * n, 2), 24))) + int(r(n));
}
#elif defined(TESSERA_NVRTC_HEADER_tessera_core_divide_hpp)
extern "C" __global__ void call(int* out, int n) {
  using namespace tessera;
  auto const z = zipped_divide(make_layout(make_tuple(8 * n, _8{})), make_tuple(_4{}, _2{}));  // ((4,2),(2n,4))
  static_assert(decltype(size<0>(z))::value == 8);
  out[0] = int(size(z)) + int(size(logical_divide(Layout<_16>{}, Layout<_4>{})));
}
#elif defined(TESSERA_NVRTC_HEADER_tessera_core_product_hpp)
extern "C" __global__ void call(int* out, int n) {
  using namespace tessera;
  static_assert(decltype(size(logical_product(Layout<_2>{}, Layout<_3>{})))::value == 6);
  out[0] = int(size(logical_product(make_layout(2 * n), make_layout(3)))) +
           int(size(blocked_product(Layout<Shape<_2, _2>>{}, make_layout(make_tuple(n, _2{})))));
}
#elif defined(TESSERA_NVRTC_HEADER_tessera_core_recast_hpp)
extern "C" __global__ void call(int* out, int n) {
  using namespace tessera;
  static_assert(decltype(size(upcast<2>(Layout<_8>{})))::value == 4);
  out[0] = int(size(upcast<2>(make_layout(8 * n)))) + int(size(downcast<2>(make_layout(n))));
}
#elif defined(TESSERA_NVRTC_HEADER_tessera_core_swizzle_hpp)
extern "C" __global__ void call(int* out, int n) {
  using namespace tessera;
  auto const sw = composition(Swizzle<3, 3, 3>{}, make_layout(make_tuple(8 * n, _64{}), LayoutRight{}));
  auto const st = composition(Swizzle<3, 3, 3>{}, Layout<Shape<_8, _64>, Stride<_64, _1>>{});
  out[threadIdx.x] = int(sw(1, 0)) + int(st(int(threadIdx.x) % 8, 8)) + Swizzle<2, 3, 3>{}(n);
}
// ---- tensor --------------------------------------------------------------------------------------
#elif defined(TESSERA_NVRTC_HEADER_tessera_tensor_pointer_hpp)
extern "C" __global__ void call(int* out, int n) {
  __shared__ int s[32];
  auto const g = tessera::make_gmem_ptr(out) + n;
  auto const p = tessera::make_smem_ptr(+s) + int(threadIdx.x);
  *p = n;
  __syncthreads();
  *g = s[(threadIdx.x + 1) % 32];
}
#elif defined(TESSERA_NVRTC_HEADER_tessera_tensor_engine_hpp)
extern "C" __global__ void call(int* out, int n) {
  tessera::ViewEngine<int*> e{out};
  e.begin()[n] = n;
}
#elif defined(TESSERA_NVRTC_HEADER_tessera_tensor_tensor_hpp)
extern "C" __global__ void call(int* out, int n) {
  using namespace tessera;
  auto mO = make_tensor(make_gmem_ptr(out), make_layout(make_tuple(n, _4{})));  // (n,4)
  auto rX = make_tensor<int>(Layout<Shape<_2, _2>>{});                          // (2,2) in registers
  auto cX = make_identity_tensor(make_tuple(_2{}, _2{}));                       // (2,2) -> (m,n)
  for (int i = 0; i < 4; ++i) rX(i) = int(get<0>(cX(i))) + n;
  mO(threadIdx.x % n, 1) = rX(1, 1);
}
#elif defined(TESSERA_NVRTC_HEADER_tessera_tensor_tiling_hpp)
extern "C" __global__ void call(int* out, int n) {
  using namespace tessera;
  auto mO = make_tensor(make_gmem_ptr(out), make_layout(make_tuple(n, 64), LayoutRight{}));  // (n,64)
  auto gO = local_tile(mO, make_tuple(_8{}, _64{}), make_coord(blockIdx.x, 0));              // (8,64)
  auto tOgO = local_partition(gO, Layout<Shape<_8, _8>>{}, threadIdx.x);                     // (1,8)
  for (int i = 0; i < int(size(tOgO)); ++i) tOgO(i) = i;
}
#elif defined(TESSERA_NVRTC_HEADER_tessera_tensor_print_hpp)
extern "C" __global__ void call(int* out, int n) {
  using namespace tessera;
  auto t = make_tensor(make_gmem_ptr(out), make_layout(make_tuple(_2{}, n)));
  if (thread0()) {
    print(t);
    print_tensor(t);
  }
}
// ---- algorithm -----------------------------------------------------------------------------------
#elif defined(TESSERA_NVRTC_HEADER_tessera_algorithm_copy_hpp)
extern "C" __global__ void call(int* out, int n) {
  using namespace tessera;
  __shared__ alignas(16) int s[4 * 128];
  auto gO = make_tensor(make_gmem_ptr(out), make_layout(make_tuple(n, _4{}), LayoutRight{}));  // (n,4)
  auto sO = make_tensor(make_smem_ptr(+s), Layout<Shape<_4>>{});                               // 4 contiguous
  copy(gO(threadIdx.x, _), sO);                             // dynamic rows: element-wise
  copy(sO, make_tensor(make_gmem_ptr(out), Layout<_4>{}));  // static and aligned: one 128-bit access
}
#elif defined(TESSERA_NVRTC_HEADER_tessera_algorithm_copy_rules_hpp)
struct Step {  // element i at offset i * step
  long long step;
  TESSERA_HOST_DEVICE constexpr long long operator()(long long i) const { return i * step; }
};
struct Below8 {  // the inverse of Step{1} over 8 elements
  TESSERA_HOST_DEVICE constexpr long long operator()(long long o) const { return o >= 0 && o < 8 ? o : -1; }
};
struct AnyRun {
  TESSERA_HOST_DEVICE constexpr bool operator()(long long) const { return true; }
};
extern "C" __global__ void call(int* out, int n) {  // the rules at compile time and on the device
  using namespace tessera;
  static_assert(copy_runs_violation(8, 4, 8, Step{1}, Step{1}, Below8{}, AnyRun{}).rule == CopyRule::ok);
  out[threadIdx.x] = int(copy_runs_violation(8, 4, 8, Step{n}, Step{1}, Below8{}, AnyRun{}).rule);
}
#elif defined(TESSERA_NVRTC_HEADER_tessera_algorithm_functional_hpp)
extern "C" __global__ void call(int* out, int n) {
  using namespace tessera;
  float x[4] = {1, 2, 3, float(n)};
  auto rX = make_tensor(+x, Layout<_4>{});
  auto rY = make_tensor<float>(Layout<_4>{});
  clear(rY);
  axpby(2.0f, rX, 1.0f, rY);
  fill(rX, float(n));
  out[0] = int(rY(3) + rX(0));
}
#elif defined(TESSERA_NVRTC_HEADER_tessera_algorithm_cooperative_copy_hpp)
extern "C" __global__ void call(int* out, int n) {
  using namespace tessera;
  __shared__ alignas(16) int s[256];
  auto gO = make_tensor(make_gmem_ptr(out), make_layout(make_tuple(_256{})));
  auto sO = make_tensor(make_smem_ptr(+s), Layout<_256>{});
  cooperative_copy<64>(threadIdx.x, gO, sO);
  __syncthreads();
  auto gN = make_tensor(make_gmem_ptr(out + 256), make_layout(n));
  cooperative_copy<64>(threadIdx.x, make_tensor(make_smem_ptr(+s), make_layout(n)), gN);
}
#elif defined(TESSERA_NVRTC_HEADER_tessera_algorithm_prefetch_hpp)
extern "C" __global__ void call(int* out, int n) {
  tessera::prefetch(tessera::make_tensor(tessera::make_gmem_ptr(out), tessera::make_layout(4 * n)));
  out[0] = n;
}
#elif defined(TESSERA_NVRTC_HEADER_tessera_algorithm_gemm_hpp)
extern "C" __global__ void call(int* out, int n) {
  using namespace tessera;
  float a[4] = {1, 2, 3, float(n)}, b[4] = {1, 0, 0, 1}, c[4] = {};
  auto l = Layout<Shape<_2, _2>>{};  // (m,k), (n,k), (m,n)
  gemm(make_tensor(+a, l), make_tensor(+b, l), make_tensor(+c, l));
  out[0] = int(c[0] + c[3]);
}
#elif defined(TESSERA_NVRTC_HEADER_tessera_pipeline_tma_pipeline_hpp)
extern "C" __global__ void call(int* out, int n) {  // one producer thread, one consumer warp
  using namespace tessera;
  __shared__ std::uint64_t bars[2 * 4];
  TmaPipeline<4> pipe{bars};
  if (threadIdx.x == 0) pipe.init(1);
  __syncthreads();
  PipelineState<4> st = PipelineState<4>::at(n);
  if (threadIdx.x == 0) {
    pipe.producer_acquire(st);
    mbarrier_arrive(pipe.producer_expect(st, 0));
  } else if (threadIdx.x == 32) {
    pipe.consumer_wait(st);
    pipe.consumer_release(st);
  }
  ++st;
  out[threadIdx.x] = st.index + st.phase;
}
#elif defined(TESSERA_NVRTC_HEADER_tessera_tessera_hpp)
extern "C" __global__ void call(int* out, int n) {
  using namespace tessera;
  auto l = make_layout(make_tuple(_2{}, 3 * n));
  auto t = make_tensor(make_gmem_ptr(out), l);
  t(1, threadIdx.x % 3) = int(cosize(l));
}
#elif defined(TESSERA_NVRTC_HEADER_tessera_version_hpp)
extern "C" __global__ void call(int* out, int n) {
  static_assert(TESSERA_VERSION_MAJOR >= 0 && TESSERA_VERSION_MINOR >= 0 && TESSERA_VERSION_PATCH >= 0);
  out[0] = n + TESSERA_VERSION_MAJOR + (TESSERA_VERSION_STRING[0] - '0');
}
// ---- arch ----------------------------------------------------------------------------------------
#elif defined(TESSERA_NVRTC_HEADER_tessera_arch_util_hpp)
extern "C" __global__ void call(int* out, int n) {
  __shared__ int s[4];
  s[threadIdx.x % 4] = int(threadIdx.x);
  int m = n + 1;
  tessera::schedule_here(m);
  out[0] = int(tessera::smem_address(&s[1]) - tessera::smem_address(&s[0])) + s[0] + m;
}
#elif defined(TESSERA_NVRTC_HEADER_tessera_arch_sfu_hpp)
extern "C" __global__ void call(int* out, int n) {
  out[0] = int(tessera::ex2_approx(float(n)) * tessera::rcp_approx(float(n)));
}
#elif defined(TESSERA_NVRTC_HEADER_tessera_arch_red_sm90_hpp)
extern "C" __global__ void call(int* out, int n) {  // red.global.add.v2.f32 on the pair at out + 2 n
  tessera::red_add_v2_f32(reinterpret_cast<float*>(out) + 2 * n, 1.0f, float(n));
}
#elif defined(TESSERA_NVRTC_HEADER_tessera_arch_smem_hpp)
extern "C" __global__ void call(int* out, int n) {  // a 32-bit store by shared-window address, read back
  __shared__ std::uint32_t s[32];
  tessera::st_shared_b32(tessera::smem_address(s + threadIdx.x % 32), std::uint32_t(n));
  __syncthreads();
  out[threadIdx.x] = int(s[(threadIdx.x + 1) % 32]);
}
#elif defined(TESSERA_NVRTC_HEADER_tessera_arch_move_hpp)
extern "C" __global__ void call(int* out, int n) {
  __shared__ alignas(16) int s[8];
  tessera::cp_async_bytes<16>(s, out);
  tessera::cp_async_bytes<16, true>(s + 4, out + 4);
  tessera::cp_async_fence();
  tessera::cp_async_wait<0>();
  tessera::move_bytes<8>(out + 8, s + 2 * (n & 1));
}
#elif defined(TESSERA_NVRTC_HEADER_tessera_arch_prefetch_hpp)
extern "C" __global__ void call(int* out, int n) {
  tessera::prefetch_l2(out + n);
  out[0] = n;
}
#elif defined(TESSERA_NVRTC_HEADER_tessera_arch_copy_hpp)
extern "C" __global__ void call(int* out, int n) {
  tessera::uint128_t const src{std::uint64_t(n), 2};
  tessera::uint128_t dst{};
  tessera::UniversalCopy<tessera::uint128_t>::copy(src, dst);
  out[0] = int(dst.lo);
}
#elif defined(TESSERA_NVRTC_HEADER_tessera_arch_copy_sm75_hpp)
extern "C" __global__ void call(int* out, int n) {
  __shared__ tessera::uint128_t rows[32];
  rows[threadIdx.x] = tessera::uint128_t{std::uint64_t(threadIdx.x + n), 0};
  __syncthreads();
  std::uint32_t r[4];
  tessera::SM75_U32x4_LDSM_N::copy(rows[threadIdx.x], r[0], r[1], r[2], r[3]);
  out[threadIdx.x] = int(r[0] + r[1] + r[2] + r[3]);
}
#elif defined(TESSERA_NVRTC_HEADER_tessera_arch_copy_sm80_hpp)
extern "C" __global__ void call(int* out, int n) {
  __shared__ tessera::uint128_t s;
  auto const* src = reinterpret_cast<tessera::uint128_t const*>(out);
  tessera::SM80_CP_ASYNC_CACHEGLOBAL_ZFILL<tessera::uint128_t>::copy(src[n], s, n > 0);
  tessera::cp_async_fence();
  tessera::cp_async_wait<0>();
  out[0] = int(s.lo);
}
#elif defined(TESSERA_NVRTC_HEADER_tessera_arch_copy_sm90_hpp)
extern "C" __global__ void call(int* out, int n) {
  __shared__ tessera::uint128_t rows[32];
  std::uint32_t const v = std::uint32_t(n) + threadIdx.x;
  tessera::SM90_U32x4_STSM_N::copy(v, v + 1, v + 2, v + 3, rows[threadIdx.x]);
  __syncwarp();
  out[threadIdx.x] = int(rows[threadIdx.x].lo);
}
#elif defined(TESSERA_NVRTC_HEADER_tessera_arch_copy_sm90_tma_cuh)
// The tensor map arrives as a kernel parameter; NVRTC's TmaDescriptor has CUtensorMap's size and
// alignment (the host half of the check is the static_assert in the header, seen by nvcc and g++).
static_assert(sizeof(tessera::TmaDescriptor) == 128 &&
              alignof(tessera::TmaDescriptor) == (__CUDACC_VER_MAJOR__ >= 13 ? 128 : 64));
extern "C" __global__ void call(int* out, int n, __grid_constant__ tessera::TmaDescriptor const desc) {
  using namespace tessera;
  __shared__ alignas(1024) std::uint16_t box[64 * 64];
  __shared__ std::uint64_t bar;
  if (threadIdx.x == 0) {
    tma_prefetch_desc(&desc);
    mbarrier_init(&bar, 1);
    fence_barrier_init();
  }
  __syncthreads();
  if (threadIdx.x == 0) {
    mbarrier_arrive_expect_tx(&bar, sizeof(box));
    SM90_TMA_LOAD_2D::copy(&desc, &bar, box, 0, 64 * n);
  }
  mbarrier_wait(&bar, 0);
  if (threadIdx.x == 0) {
    SM90_TMA_STORE_2D::copy(&desc, box, 64, 64 * n);
    tma_store_commit();
    tma_store_wait_read<0>();
    tma_store_wait<0>();
  }
  out[threadIdx.x] = box[threadIdx.x];
}
#elif defined(TESSERA_NVRTC_HEADER_tessera_arch_copy_sm90_tma_4d_cuh)
extern "C" __global__ void call(int* out, int n, __grid_constant__ tessera::TmaDescriptor const desc) {
  using namespace tessera;
  __shared__ alignas(1024) std::uint16_t box[64 * 64];  // 64 rows of (batch 2, head 1) from row n
  __shared__ std::uint64_t bar;
  if (threadIdx.x == 0) {
    mbarrier_init(&bar, 1);
    fence_barrier_init();
  }
  __syncthreads();
  if (threadIdx.x == 0) {
    mbarrier_arrive_expect_tx(&bar, sizeof(box));
    SM90_TMA_LOAD_4D::copy(&desc, &bar, box, 0, n, 1, 2);
  }
  mbarrier_wait(&bar, 0);
  out[threadIdx.x] = box[threadIdx.x];
}
#elif defined(TESSERA_NVRTC_HEADER_tessera_arch_mma_hpp)
extern "C" __global__ void call(int* out, int n) {
  float d = 0;
  tessera::UniversalFMA<float>::fma(d, float(n), 3.0f, -3.0f);
  out[0] = int(d);
}
#elif defined(TESSERA_NVRTC_HEADER_tessera_arch_mma_sm80_hpp)
extern "C" __global__ void call(int* out, int n) {
  float c[4] = {1, 2, 3, float(n)}, d[4];
  std::uint32_t const a = 0x3c003c00u;  // two f16 ones
  tessera::SM80_16x8x16_F32F16F16F32_TN::fma(d[0], d[1], d[2], d[3], a, a, a, a, a, a, c[0], c[1], c[2], c[3]);
  out[threadIdx.x] = int(d[0] + d[3]);
}
#elif defined(TESSERA_NVRTC_HEADER_tessera_arch_mma_sm90_hpp)
extern "C" __global__ void call(int* out, int n) {  // one warpgroup, descriptors made up (never run)
  using Op = tessera::SM90_64x8x16_F32BF16BF16_SS<tessera::GmmaMajor::K, tessera::GmmaMajor::MN>;
  float d[4] = {0, 0, 0, float(n)};
  for (float& x : d) tessera::warpgroup_fence_operand(x);
  tessera::warpgroup_arrive();
  Op::fma(std::uint64_t(n), std::uint64_t(n) + 1, d, tessera::GmmaScale::zero);
  tessera::warpgroup_commit_batch();
  tessera::warpgroup_wait<0>();
  for (float& x : d) tessera::warpgroup_fence_operand(x);
  out[threadIdx.x] = int(d[0] + d[3]);
}
#elif defined(TESSERA_NVRTC_HEADER_tessera_arch_mma_sm90_fp8_hpp)
extern "C" __global__ void call(int* out, int n) {  // one warpgroup, descriptors made up (never run)
  using Op = tessera::SM90_64x8x32_F32E4M3E5M2_SS<>;
  float d[4] = {0, 0, 0, float(n)};
  for (float& x : d) tessera::warpgroup_fence_operand(x);
  tessera::warpgroup_arrive();
  Op::fma(std::uint64_t(n), std::uint64_t(n) + 1, d, tessera::GmmaScale::zero);
  tessera::warpgroup_commit_batch();
  tessera::warpgroup_wait<0>();
  for (float& x : d) tessera::warpgroup_fence_operand(x);
  out[threadIdx.x] = int(d[0] + d[3]);
}
#elif defined(TESSERA_NVRTC_HEADER_tessera_arch_mma_sm90_fp8_rs_hpp)
extern "C" __global__ void call(int* out, int n) {  // one warpgroup, A in registers, a made-up descriptor
  using Op = tessera::SM90_64x8x32_F32E4M3E4M3_RS<>;
  float d[4] = {0, 0, 0, float(n)};
  for (float& x : d) tessera::warpgroup_fence_operand(x);
  tessera::warpgroup_arrive();
  std::uint32_t const a = std::uint32_t(n);
  Op::fma(a, a + 1, a + 2, a + 3, std::uint64_t(n), d, tessera::GmmaScale::zero);
  tessera::warpgroup_commit_batch();
  tessera::warpgroup_wait<0>();
  for (float& x : d) tessera::warpgroup_fence_operand(x);
  out[threadIdx.x] = int(d[0] + d[3]);
}
#elif defined(TESSERA_NVRTC_HEADER_tessera_arch_cvt_fp8_hpp)
extern "C" __global__ void call(int* out, int n) {  // four floats to e4m3 bytes (cvt ... e4m3x2)
  out[threadIdx.x] = int(tessera::cvt_e4m3x4(float(n), 0.5f, -2.0f, 1000.0f));
}
#elif defined(TESSERA_NVRTC_HEADER_tessera_arch_wgmma_rules_hpp)
struct RowsOf64 {  // (m,k) -> m 64 + k: a K-major 128-byte-swizzle tile of 16-bit elements, as its rules see it
  TESSERA_HOST_DEVICE constexpr long long operator()(int m, int k) const { return m * 64LL + k; }
};
extern "C" __global__ void call(int* out, int n) {  // the rules at compile time and on the device
  using namespace tessera;
  constexpr GmmaForm f = gmma_form_of(2, GmmaMajor::K, 3, RowsOf64{}, 0, 0, 64);
  static_assert(gmma_form_violation(f) == GmmaRule::ok && f.sbo == 512);
  static_assert(gmma_block_violation(f, RowsOf64{}, 0, 0, false).rule == GmmaRule::ok);
  GmmaForm const g = gmma_form_of(2, GmmaMajor::K, 3, RowsOf64{}, 8 * n, 16, 64);
  out[threadIdx.x] = int(gmma_form_violation(g)) + int(gmma_block_violation(g, RowsOf64{}, 8 * n, 16).rule);
}
#elif defined(TESSERA_NVRTC_HEADER_tessera_arch_tma_tile_rules_hpp)
struct RowsOf64Tile {  // (m,k) -> m 64 + k: boxes of 8 rows of 64 stacked along m (1024 bytes of 16-bit each)
  TESSERA_HOST_DEVICE constexpr long long operator()(long long m, long long k) const { return m * 64 + k; }
};
extern "C" __global__ void call(int* out, int n) {  // the rules at compile time and on the device
  using namespace tessera;
  static_assert(tma_swizzle_bytes(3, 3, 3, 2) == 128 && tma_box_align_bytes(128) == 1024);
  static_assert(tma_tile_violation(RowsOf64Tile{}, 64, 64, RowsOf64Tile{}, 8, 64, 2, 128, false).rule ==
                TmaTileRule::ok);
  out[threadIdx.x] = int(tma_tile_violation(RowsOf64Tile{}, 8 * n, 64, RowsOf64Tile{}, 8, 64, 2, 128).rule);
}
#elif defined(TESSERA_NVRTC_HEADER_tessera_arch_barrier_sm90_hpp)
extern "C" __global__ void call(int* out, int n) {
  using namespace tessera;
  __shared__ std::uint64_t bar;
  if (threadIdx.x == 0) {
    mbarrier_init(&bar, 1);
    fence_barrier_init();
  }
  __syncthreads();
  grid_dependency_wait();
  if (elect_one_sync()) mbarrier_arrive(&bar);
  mbarrier_wait(&bar, 0);
  named_barrier_sync(1, 64);
  store_release_gpu(reinterpret_cast<std::uint32_t*>(out), std::uint32_t(n));
  out[1] = int(load_acquire_gpu(reinterpret_cast<std::uint32_t const*>(out)) + cluster_ctarank());
  grid_dependents_launch();
}
// ---- atom ----------------------------------------------------------------------------------------
#elif defined(TESSERA_NVRTC_HEADER_tessera_atom_copy_traits_hpp)
extern "C" __global__ void call(int* out, int n) {  // (_1,_32):(_0,_1): bit n of the one value
  using Traits = tessera::Copy_Traits<tessera::UniversalCopy<std::uint32_t>>;
  static_assert(decltype(tessera::size(Traits::SrcLayout{}))::value == 32);
  out[0] = int(Traits::SrcLayout{}(0, n));
}
#elif defined(TESSERA_NVRTC_HEADER_tessera_atom_copy_traits_sm75_hpp)
extern "C" __global__ void call(int* out, int n) {  // lane 1's register 1 starts at bit 1024 + 32
  using Traits = tessera::Copy_Traits<tessera::SM75_U32x4_LDSM_N>;
  static_assert(decltype(Traits::DstLayout{}(tessera::_1{}, tessera::_32{}))::value == 1056);
  out[0] = int(Traits::DstLayout{}(n, 32));
}
#elif defined(TESSERA_NVRTC_HEADER_tessera_atom_copy_traits_sm80_hpp)
extern "C" __global__ void call(int* out, int n) {
  tessera::Copy_Traits<tessera::SM80_CP_ASYNC_CACHEGLOBAL_ZFILL<tessera::uint128_t>> t{};
  out[0] = t.with(n > 0).pred ? int(tessera::size(decltype(t)::DstLayout{})) : 0;
}
#elif defined(TESSERA_NVRTC_HEADER_tessera_atom_copy_traits_sm90_hpp)
extern "C" __global__ void call(int* out, int n) {  // lane 1 names tile row 1 of the stored matrices
  out[0] = int(tessera::Copy_Traits<tessera::SM90_U32x4_STSM_N>::DstLayout{}(n, 0));
}
#elif defined(TESSERA_NVRTC_HEADER_tessera_atom_mma_traits_hpp)
extern "C" __global__ void call(int* out, int n) {
  out[0] = int(tessera::size(tessera::MMA_Traits<tessera::UniversalFMA<float>>::CLayout{})) + n;
}
#elif defined(TESSERA_NVRTC_HEADER_tessera_atom_mma_traits_sm80_hpp)
extern "C" __global__ void call(int* out, int n) {  // lane 5, c1: row 1, column 3 of the 16x8 tile
  using C = tessera::MMA_Traits<tessera::SM80_16x8x16_F32F16F16F32_TN>::CLayout;
  static_assert(decltype(C{}(tessera::_5{}, tessera::_1{}))::value == 1 + 16 * 3);
  out[0] = int(C{}(5 * n, 1));
}
#elif defined(TESSERA_NVRTC_HEADER_tessera_atom_mma_traits_sm90_hpp)
extern "C" __global__ void call(int* out, int n) {  // a K-major 64 x 64 bf16 stage, its first block's descriptor
  using namespace tessera;
  __shared__ alignas(1024) bfloat16_t sA[64 * 64];
  constexpr auto stage = tile_to_shape(GmmaLayoutKSw128Atom{}.inner(), Shape<_64, _64>{});  // (m,k) -> offset
  std::uint64_t const desc = make_gmma_desc<GmmaMajor::K, 64>(smem_address(sA), stage, 0, 16 * n);
  using C = MMA_Traits<SM90_64x128x16_F32BF16BF16_SS<>>::CLayout;  // (thr,val) -> (m,n)
  out[threadIdx.x] = int(desc) + int(C{}(32 + 5 * n, 3));
}
#elif defined(TESSERA_NVRTC_HEADER_tessera_atom_mma_atom_hpp)
extern "C" __global__ void call(int* out, int n) {  // 2x2 threads of the universal FMA, a 2x2 tile
  using namespace tessera;
  auto mma = make_tiled_mma(UniversalFMA<float>{}, Layout<Shape<_2, _2, _1>>{});
  float a[2] = {float(n), 1}, b[2] = {1, float(n)}, c[4] = {};
  auto sA = make_tensor(+a, Layout<Shape<_2, _1>>{});  // (m,k)
  auto sB = make_tensor(+b, Layout<Shape<_2, _1>>{});  // (n,k)
  auto sC = make_tensor(+c, Layout<Shape<_2, _2>>{});  // (m,n)
  auto thr = mma.get_slice(threadIdx.x);
  auto tCrA = thr.partition_A(sA);  // (MMA,MMA_M,MMA_K), registers already
  auto tCrB = thr.partition_B(sB);  // (MMA,MMA_N,MMA_K)
  auto tCrC = thr.partition_C(sC);  // (MMA,MMA_M,MMA_N)
  auto tCrD = thr.partition_fragment_C(sC);
  gemm(mma, tCrD, tCrA, tCrB, tCrC);
  out[threadIdx.x] = int(tCrD(0)) + int(size(mma.get_layoutC_TV()));
}
#elif defined(TESSERA_NVRTC_HEADER_tessera_atom_copy_atom_hpp)
extern "C" __global__ void call(int* out, int n) {  // 32 threads copying 4 floats each, element by element
  using namespace tessera;
  auto cp = make_tiled_copy(Copy_Atom<UniversalCopy<int>, int>{}, Layout<_32>{}, Layout<_4>{});
  auto thr = cp.get_slice(threadIdx.x);
  auto gO = make_tensor(make_gmem_ptr(out), Layout<_128>{});
  auto gI = make_tensor(make_gmem_ptr(out + n), Layout<_128>{});
  copy(cp, thr.partition_S(gI), thr.partition_D(gO));
}
#elif defined(TESSERA_NVRTC_HEADER_tessera_atom_copy_traits_sm90_tma_cuh)
// One 64 x 64 K-major bf16 box of a row-major matrix, 128-byte swizzled (the TmaCopy comes from the
// host, made by make_tma_copy there).
using Box = decltype(tessera::make_composed_layout(
    tessera::Swizzle<3, 4, 3>{}, tessera::_0{},
    tessera::Layout<tessera::Shape<tessera::_64, tessera::_64>, tessera::Stride<tessera::_64, tessera::_1>>{}));
using Tma = tessera::TmaCopy<tessera::SM90_TMA_LOAD, tessera::bfloat16_t, Box>;
extern "C" __global__ void call(int* out, int n, __grid_constant__ Tma const tma) {  // loads tile (0, 0)
  using namespace tessera;
  __shared__ alignas(1024) bfloat16_t smem[64 * 64];
  __shared__ std::uint64_t bar;
  if (threadIdx.x == 0) {
    mbarrier_init(&bar, 1);
    fence_barrier_init();
  }
  __syncthreads();
  if (threadIdx.x == 0) {
    auto const sA = make_tensor(make_smem_ptr(+smem), Layout<Shape<_64, _64>, Stride<_64, _1>>{});  // (64,64) -> smem
    auto const gA = tma.get_tma_tensor(make_shape(_64{}, _64{}));  // (64,64) -> (m,k): the first tile
    auto const [tAgA, tAsA] = tma_partition(tma, sA, gA);          // (BOX,1)
    mbarrier_arrive_expect_tx(&bar, std::uint32_t(size<1>(tAsA)) * Tma::kBoxBytes);
    copy(tma.with(&bar), tAgA, tAsA);
  }
  mbarrier_wait(&bar, 0);
  out[threadIdx.x] = int(float(smem[threadIdx.x]));
}
// ---- kernels (the kernels themselves, instantiated; their launchers are host-only) ---------------
#elif defined(TESSERA_NVRTC_HEADER_tessera_kernels_common_cuh)
extern "C" __global__ void call(int* out, int n) {
  using namespace tessera;
  __shared__ alignas(16) int s[4];
  auto l = kernels::make_matrix_layout<true>(n, 8, 8);  // (n,8):(8,_1)
  auto g = make_tensor(make_gmem_ptr(out), kernels::detail::row_layout(n, 8, 8));
  kernels::detail::copy_128(make_tensor(make_gmem_ptr(out), Layout<_4>{}),
                            make_tensor(make_smem_ptr(+s), Layout<_4>{}));
  g(0, 1) = int(l(1, 2)) + s[n % 4];
}
#elif defined(TESSERA_NVRTC_HEADER_tessera_kernels_elementwise_add_cuh)
template __global__ void tessera::kernels::detail::add_naive_kernel<float>(float const*, float const*, float*, int, int,
                                                                           std::int64_t);
template __global__ void tessera::kernels::detail::add_vectorized_kernel<__half, true, 1>(__half const*, __half const*,
                                                                                          __half*, int, int,
                                                                                          std::int64_t);
template __global__ void tessera::kernels::detail::add_tv_kernel<__nv_bfloat16, true>(__nv_bfloat16 const*,
                                                                                      __nv_bfloat16 const*,
                                                                                      __nv_bfloat16*, int, int,
                                                                                      std::int64_t);
extern "C" __global__ void call(int* out, int n) { out[0] = int(tessera::kernels::detail::add_elem(float(n), 1.0f)); }
#elif defined(TESSERA_NVRTC_HEADER_tessera_kernels_tile_copy_cuh)
template __global__ void tessera::kernels::detail::tile_copy_kernel<float>(float const*, float*, int, int, std::int64_t,
                                                                           int, int);
extern "C" __global__ void call(int* out, int n) {
  tessera::kernels::TileCopyConfig const cfg{};
  out[0] = cfg.tile_m + n;
}
#elif defined(TESSERA_NVRTC_HEADER_tessera_kernels_attention_forward_sm90_cuh) || \
    defined(TESSERA_NVRTC_HEADER_tessera_kernels_attention_forward_cuh)
// A block's tile and the shared-memory plan; the whole kernel is compiled by nvcc in
// tests/kernels/attention_forward.cu.
extern "C" __global__ void call(int* out, int n) {
  using namespace tessera::kernels;
  using Roles = detail::AttentionSm90Roles<AttentionSm90Config<256>, tessera::bfloat16_t>;
  static_assert(tessera::sm90::shared_storage_bytes<Roles::Storage>() <= 227 * 1024,
                "attention: the largest configuration fits in shared memory");
  AttentionSm90Shape s;
  s.seq_q = s.seq_k = n;
  s.m_blocks = (n + 127) / 128;
  s.causal = true;
  AttentionSm90Tile const t = attention_sm90_tile<128, 64>(s, int(blockIdx.x));
  out[blockIdx.x] = t.m + t.n_blocks + Roles::kThreads;
}
#elif defined(TESSERA_NVRTC_HEADER_tessera_kernels_attention_backward_sm90_cuh) || \
    defined(TESSERA_NVRTC_HEADER_tessera_kernels_attention_backward_cuh)
// The roles' constants and the shared-memory plan; the whole kernel is compiled by nvcc in
// tests/kernels/attention_backward.cu.
extern "C" __global__ void call(int* out, int n) {
  using namespace tessera::kernels;
  using Roles = detail::AttentionBwdSm90Roles<AttentionBwdSm90Config<128>, tessera::bfloat16_t>;
  static_assert(tessera::sm90::shared_storage_bytes<Roles::Storage>() <= 227 * 1024,
                "attention backward: the configuration fits in shared memory");
  out[blockIdx.x] = n * Roles::BM + Roles::kThreads + int(Roles::kStepBytes);
}
#elif defined(TESSERA_NVRTC_HEADER_tessera_kernels_attention_backward_problem_hpp)
extern "C" __global__ void call(int* out, int n) {  // under NVRTC: the forward's problem header's part only
  tessera::kernels::AttentionSm90Shape s;
  s.seq_q = n;
  out[threadIdx.x] = s.seq_q;
}
#elif defined(TESSERA_NVRTC_HEADER_tessera_kernels_sgemm_problem_hpp)
extern "C" __global__ void call(int* out, int n) {  // the problem is a plain struct, passed to kernels
  tessera::kernels::SgemmProblem p;
  p.m = n;
  out[0] = p.m + (p.a_major == tessera::Major::row);
}
#elif defined(TESSERA_NVRTC_HEADER_tessera_kernels_gemm_problem_hpp)
extern "C" __global__ void call(int* out, int n) {
  tessera::kernels::GemmProblem<unsigned short, float> p;  // generic in its element types
  p.m = n;
  out[0] = p.m + int(tessera::kernels::detail::gemm_epilogue_plain(p)) + *tessera::kernels::to_string(p.activation);
}
#elif defined(TESSERA_NVRTC_HEADER_tessera_kernels_sgemm_tiled_cuh)
template __global__ void
tessera::kernels::sgemm_tiled_kernel<tessera::kernels::SgemmTiledConfig<128, 128, 8, false, 1, false>, true, true>(
    int, int, int, float, float const*, int, float const*, int, float, float*, int, bool, bool, bool);
extern "C" __global__ void call(int* out, int n) {
  out[0] = tessera::kernels::SgemmTiledConfig<128, 128, 8, false, 1, false>::kThreads + n;
}
#elif defined(TESSERA_NVRTC_HEADER_tessera_kernels_sgemm_cuh)
template __global__ void tessera::kernels::detail::sgemm_scale_c_kernel<float>(int, int, float, float*, int);
extern "C" __global__ void call(int* out, int n) { out[0] = tessera::kernels::SgemmTuned::kThreads + n; }
#elif defined(TESSERA_NVRTC_HEADER_tessera_kernels_gemm_epilogue_cuh)
template __global__ void tessera::kernels::detail::gemm_pack_kernel<tessera::half_t>(tessera::half_t const*, int, int,
                                                                                     int, tessera::half_t*, int);
extern "C" __global__ void call(int* out, int n, tessera::kernels::detail::GemmEpilogue<float> const ep) {
  int bm = 0, bn = 0;  // 10 x 3 tiles in groups of 8 rows: block 25 is row 9 of column 0
  tessera::kernels::detail::gemm_block_coord(25 * n, 10, 3, bm, bn);
  float x[2] = {float(bm), float(bn)};
  ep.store_pair(x[0], x[1], bm, bn, n, n);
  out[0] = bm + bn;
}
#elif defined(TESSERA_NVRTC_HEADER_tessera_kernels_gemm_sm80_cuh)
// A block's gmem -> smem copy of a K-major A tile into its swizzled stage; one whole kernel (14 s of
// CPU) is compiled by the test nvrtc.kernels.gemm_sm80_kernel (TESSERA_NVRTC_GEMM_SM80_KERNEL,
// LABELS slow).
using Cfg = tessera::kernels::GemmSm80Config<64, 64, 32, 2, 2, 2>;
#if defined(TESSERA_NVRTC_GEMM_SM80_KERNEL)
template __global__ void tessera::kernels::detail::gemm_sm80_kernel<Cfg, tessera::half_t, float, true, true>(
    int, int, int, tessera::half_t const*, int, tessera::half_t const*, int,
    tessera::kernels::detail::GemmEpilogue<float> const);
#endif
extern "C" __global__ void call(int* out, int n, tessera::half_t const* A) {
  using namespace tessera;
  constexpr int smem_bytes = kernels::detail::gemm_sm80_smem_bytes<Cfg, half_t>();
  static_assert(smem_bytes == 2 * (64 + 64) * 32 * 2 + 1024);
  __shared__ alignas(128) half_t smem[64 * 32];
  constexpr auto sA_layout = kernels::detail::gemm_sm80_smem_layout<64, 32, true>();  // (BM,BK) -> offset
  auto g2s = kernels::detail::gemm_sm80_g2s_copy<half_t, 64, 32, Cfg::kThreads, true, false>();
  auto mA = make_tensor(make_gmem_ptr(A), make_layout(make_shape(n, _32{}), LayoutRight{}));  // (M,BK)
  auto sA = make_tensor(make_smem_ptr(+smem), sA_layout);                                     // (BM,BK)
  auto thr = g2s.get_slice(threadIdx.x);
  auto gA = make_tensor(mA.data(), make_layout(make_shape(_64{}, _32{}), make_stride(_32{}, _1{})));  // (BM,BK)
  copy(g2s, thr.partition_S(gA), thr.partition_D(sA));
  cp_async_fence();
  cp_async_wait<0>();
  out[threadIdx.x] = int(float(smem[threadIdx.x])) + smem_bytes;
}
#elif defined(TESSERA_NVRTC_HEADER_tessera_kernels_gemm_sm90_cuh) || \
    defined(TESSERA_NVRTC_HEADER_tessera_kernels_gemm_sm90_kernel_cuh)
// The device side of the schedule and the shared-memory plan; one whole kernel (the persistent
// kernel on the warp-specialized skeleton) is compiled by the test nvrtc.kernels.gemm_sm90_kernel
// (TESSERA_NVRTC_GEMM_SM90_KERNEL, LABELS slow).
#if defined(TESSERA_NVRTC_GEMM_SM90_KERNEL)
template __global__ void tessera::sm90::warp_specialized_kernel<tessera::kernels::detail::GemmSm90WsRoles<
    tessera::kernels::GemmSm90PersistentDefault, tessera::bfloat16_t, float, true, true>>(
    tessera::kernels::detail::GemmSm90Params<tessera::kernels::GemmSm90PersistentDefault, tessera::bfloat16_t, float,
                                             true, true> const,
    __grid_constant__ tessera::kernels::detail::GemmSm90Maps<tessera::kernels::GemmSm90PersistentDefault,
                                                             tessera::bfloat16_t, float, true, true> const);
#endif
#if defined(TESSERA_NVRTC_GEMM_SM90_FP8_KERNEL)  // nvrtc.kernels.gemm_sm90_fp8_kernel: the fp8 kernels too
template __global__ void tessera::sm90::warp_specialized_kernel<tessera::kernels::detail::GemmSm90WsRoles<
    tessera::kernels::GemmSm90PersistentDefault, tessera::float_e4m3_t, tessera::bfloat16_t, true, true>>(
    tessera::kernels::detail::GemmSm90Params<tessera::kernels::GemmSm90PersistentDefault, tessera::float_e4m3_t,
                                             tessera::bfloat16_t, true, true> const,
    __grid_constant__ tessera::kernels::detail::GemmSm90Maps<
        tessera::kernels::GemmSm90PersistentDefault, tessera::float_e4m3_t, tessera::bfloat16_t, true, true> const);
template __global__ void tessera::sm90::warp_specialized_kernel<tessera::kernels::detail::GemmSm90WsRoles<
    tessera::kernels::GemmSm90Fp8BlockDefault, tessera::float_e4m3_t, tessera::bfloat16_t, true, true>>(
    tessera::kernels::detail::GemmSm90Params<tessera::kernels::GemmSm90Fp8BlockDefault, tessera::float_e4m3_t,
                                             tessera::bfloat16_t, true, true> const,
    __grid_constant__ tessera::kernels::detail::GemmSm90Maps<
        tessera::kernels::GemmSm90Fp8BlockDefault, tessera::float_e4m3_t, tessera::bfloat16_t, true, true> const);
#endif
extern "C" __global__ void call(int* out, int n) {
  using namespace tessera::kernels;
  using Cfg = GemmSm90PersistentDefault;
  constexpr int smem = detail::gemm_sm90_smem_bytes<Cfg, tessera::bfloat16_t>();
  static_assert(smem <= 227 * 1024, "gemm_sm90: the default persistent configuration fits in shared memory");
  tessera::sm90::StreamKScheduler const s{512, 64, 132, int(blockIdx.x), n};
  int work = 0;
  s.for_each([&](tessera::sm90::TileWork const& w, auto) { work += w.k1 - w.k0; });
  out[blockIdx.x] = work + smem;
}
#elif defined(TESSERA_NVRTC_HEADER_tessera_kernels_gemm_grouped_problem_hpp)
extern "C" __global__ void call(int* out, int n) {  // the problem type is generic in its element types
  tessera::kernels::GemmGroupedProblem<unsigned short, float> p;
  p.groups = n;
  out[0] = p.groups + *tessera::kernels::to_string(p.form);
}
#elif defined(TESSERA_NVRTC_HEADER_tessera_kernels_gemm_sm90_grouped_cuh) || \
    defined(TESSERA_NVRTC_HEADER_tessera_kernels_gemm_sm90_grouped_kernel_cuh)
// The grouped kernel's prepare step and its schedule's lookup on the device (the whole kernel is
// nvcc's: tests/kernels/gemm_sm90_grouped.cu).
template __global__ void tessera::kernels::detail::gemm_sm90_grouped_prepare<void>(
    int const*, tessera::kernels::detail::GemmSm90RowsForm, int, int, int, int, int,
    tessera::kernels::detail::GemmSm90GroupedRows);
extern "C" __global__ void call(int* out, int n) {
  int const offsets[4] = {0, 2, 2, 5};  // three groups, the second empty
  tessera::sm90::GroupedScheduler const s{offsets, 3, 4, int(gridDim.x), int(blockIdx.x)};
  out[blockIdx.x] = s.locate(n % 5).group;
}
#elif defined(TESSERA_NVRTC_HEADER_tessera_kernels_gemm_sm90_grouped_policy_hpp)
extern "C" __global__ void call(int* out, int n) {  // the tiles are constants on the device too
  out[threadIdx.x] = n * tessera::kernels::GemmSm90GroupedSmall::BN + tessera::kernels::GemmSm90GroupedLarge::BM;
}
#elif defined(TESSERA_NVRTC_HEADER_tessera_kernels_attention_forward_fp8_sm90_cuh) || \
    defined(TESSERA_NVRTC_HEADER_tessera_kernels_attention_forward_fp8_cuh)
// The shared-memory plan and V's key order; the whole kernel is compiled by nvcc in
// tests/kernels/attention_forward_fp8.cu.
extern "C" __global__ void call(int* out, int n) {
  using namespace tessera::kernels;
  using Roles = detail::AttentionFp8Sm90Roles<AttentionFp8Sm90Config<256>>;
  static_assert(tessera::sm90::shared_storage_bytes<Roles::Storage>() <= 227 * 1024,
                "FP8 attention: the largest configuration fits in shared memory");
  out[blockIdx.x] = attention_fp8_pv_key(n) + Roles::kThreads;
}
#elif defined(TESSERA_NVRTC_HEADER_tessera_kernels_attention_problem_fp8_hpp)
extern "C" __global__ void call(int* out, int n) {  // under NVRTC: the descales' kinds and V's key order
  tessera::kernels::AttentionFp8Descale d;
  out[threadIdx.x] = tessera::kernels::attention_fp8_pv_key(n) + int(d.kind);
}
#elif defined(TESSERA_NVRTC_HEADER_tessera_kernels_attention_problem_hpp)
extern "C" __global__ void call(int* out, int n) {  // under NVRTC: the mask's enum and the kernel's shape
  tessera::kernels::AttentionSm90Shape s;
  s.seq_q = n;
  out[threadIdx.x] = (n == int(tessera::kernels::AttentionCausal::bottom_right) ? 2 : 0) + s.seq_q;
}
#elif defined(TESSERA_NVRTC_HEADER_tessera_kernels_gemm_sm90_config_hpp)
extern "C" __global__ void call(int* out, int n) {  // the configurations are constants on the device too
  using namespace tessera::kernels;
  out[threadIdx.x] = n * GemmSm90PersistentWide::BN + detail::gemm_sm90_cluster_m<GemmSm90ClusterDefault>;
}
#elif defined(TESSERA_NVRTC_HEADER_tessera_sm90_tile_scheduler_hpp)
extern "C" __global__ void call(int* out, int n) {  // each block's share of 7 tiles of 4 k-tiles, 4 shared out
  int work = 0;
  tessera::sm90::StreamKScheduler{7, 4, int(gridDim.x), int(blockIdx.x), n}.for_each(
      [&](tessera::sm90::TileWork const& w, auto) { work += w.k1 - w.k0; });
  out[blockIdx.x] = work;
}
#elif defined(TESSERA_NVRTC_HEADER_tessera_sm90_shared_storage_hpp)
struct NvrtcStorage {
  float stage[256];
  tessera::SmemBytes<128> buffers;
  std::uint64_t bars[2];
};
extern "C" __global__ void call(int* out, int n) {  // the storage at the first 1024-byte boundary
  auto& s = tessera::sm90::shared_storage<NvrtcStorage>();
  s.stage[threadIdx.x] = float(n);
  out[threadIdx.x] = int(s.stage[threadIdx.x]) + tessera::sm90::shared_storage_bytes<NvrtcStorage>();
}
#elif defined(TESSERA_NVRTC_HEADER_tessera_sm90_warp_specialized_cuh)
// Roles that only count: the producer's thread 0 and each consumer's thread 0 add to out[0].
struct NvrtcRoles {
  static constexpr int kConsumers = 2, kThreads = 384, kProducerRegs = 40, kConsumerRegs = 232, kClusterSize = 1;
  struct Params {
    int* out;
  };
  struct Maps {
    int unused;
  };
  struct Storage {
    int flag;
  };
  __device__ static void setup(Params const&, Maps const&, Storage& s) { s.flag = 1; }
  __device__ static void produce(Params const& p, Maps const&, Storage& s, int lt) {
    if (lt == 0) atomicAdd(p.out, s.flag);
  }
  __device__ static void consume(Params const& p, Maps const&, Storage& s, int c, int lt) {
    if (lt == 0) atomicAdd(p.out, s.flag << (c + 1));
  }
};
template __global__ void tessera::sm90::warp_specialized_kernel<NvrtcRoles>(NvrtcRoles::Params const,
                                                                            __grid_constant__ NvrtcRoles::Maps const);
extern "C" __global__ void call(int* out, int n) { out[threadIdx.x] = n; }
#elif defined(TESSERA_NVRTC_HEADER_tessera_pipeline_ordered_barrier_hpp)
extern "C" __global__ void call(int* out, int n) {  // two warps take turns n times
  using namespace tessera;
  __shared__ std::uint64_t bars[2];
  OrderedBarrier<2> const order{bars};
  if (threadIdx.x == 0) order.init();
  __syncthreads();
  OrderedTurn t = order.turn(int(threadIdx.x) / 32);
  for (int i = 0; i < n; ++i) {
    order.enter(t);
    if (threadIdx.x % 32 == 0) {
      out[0] += 1;
      order.leave(t);
    }
  }
}
#elif defined(TESSERA_NVRTC_HEADER_tessera_pipeline_tma_store_ring_cuh)
extern "C" __global__ void call(int* out, int n) {  // the slot of store n of a two-buffer ring
  __shared__ alignas(128) unsigned char buffers[2 * 256];
  tessera::TmaStoreRing<2, 256> ring{buffers, n};
  if (threadIdx.x == 0) ring.wait_free();
  out[threadIdx.x] = int(ring.slot() - buffers);
}
#else
#error "tests/nvrtc/calls.cuh has no kernel for this header: add a block for it"
#endif
