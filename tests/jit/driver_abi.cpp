// tests/jit/driver_abi.cpp -- jit/driver.hpp declares the driver's ABI by hand (the JIT builds
// without a CUDA toolkit); where the toolkit's <cuda.h> is at hand, its declarations are checked
// here against cuda.h's: the launch structures' sizes and offsets, the enumerators' values, and
// every entry point's arity and parameter sizes. Skipped, saying why, without cuda.h.
#include <gtest/gtest.h>

#include <cstddef>
#include <cstdint>
#include <tuple>

#include "tessera/jit/driver.hpp"
#include "tessera/jit/gemm_sm90.hpp"

#if defined(TESSERA_JIT_TEST_CUDA_H)
#include <cuda.h>

namespace tessera::jit::cu {
namespace {

// Two function pointer types with the same arity, parameter sizes and return size.
template <class A, class B>
struct same_abi : std::false_type {};
template <class RA, class... A, class RB, class... B>
struct same_abi<RA (*)(A...), RB (*)(B...)>
    : std::bool_constant<sizeof...(A) == sizeof...(B) && sizeof(RA) == sizeof(RB) &&
                         ((sizeof(A) == sizeof(B)) && ... && true)> {};
#define TESSERA_SAME_ABI(member, fn) \
  static_assert(same_abi<decltype(Driver::member), decltype(&fn)>::value, #member " does not match " #fn)

static_assert(sizeof(Result) == sizeof(CUresult) && sizeof(Device) == sizeof(CUdevice));
static_assert(sizeof(DevicePtr) == sizeof(CUdeviceptr));
// The handles are pointers to opaque structures (declared in this namespace, so of other types).
static_assert(sizeof(Context) == sizeof(CUcontext) && sizeof(Module) == sizeof(CUmodule) &&
              sizeof(Function) == sizeof(CUfunction) && sizeof(Stream) == sizeof(CUstream) &&
              sizeof(Event) == sizeof(CUevent));

static_assert(sizeof(LaunchAttribute) == sizeof(CUlaunchAttribute));
static_assert(offsetof(LaunchAttribute, value) == offsetof(CUlaunchAttribute, value));
static_assert(sizeof(LaunchConfig) == sizeof(CUlaunchConfig));
static_assert(offsetof(LaunchConfig, shared_bytes) == offsetof(CUlaunchConfig, sharedMemBytes));
static_assert(offsetof(LaunchConfig, stream) == offsetof(CUlaunchConfig, hStream));
static_assert(offsetof(LaunchConfig, attrs) == offsetof(CUlaunchConfig, attrs));
static_assert(offsetof(LaunchConfig, num_attrs) == offsetof(CUlaunchConfig, numAttrs));

static_assert(int(kDeviceMultiprocessorCount) == int(CU_DEVICE_ATTRIBUTE_MULTIPROCESSOR_COUNT));
static_assert(int(kDeviceComputeCapabilityMajor) == int(CU_DEVICE_ATTRIBUTE_COMPUTE_CAPABILITY_MAJOR));
static_assert(int(kDeviceComputeCapabilityMinor) == int(CU_DEVICE_ATTRIBUTE_COMPUTE_CAPABILITY_MINOR));
static_assert(int(kDeviceMaxSharedPerBlockOptin) == int(CU_DEVICE_ATTRIBUTE_MAX_SHARED_MEMORY_PER_BLOCK_OPTIN));
static_assert(int(kFuncMaxThreadsPerBlock) == int(CU_FUNC_ATTRIBUTE_MAX_THREADS_PER_BLOCK));
static_assert(int(kFuncSharedSizeBytes) == int(CU_FUNC_ATTRIBUTE_SHARED_SIZE_BYTES));
static_assert(int(kFuncLocalSizeBytes) == int(CU_FUNC_ATTRIBUTE_LOCAL_SIZE_BYTES));
static_assert(int(kFuncNumRegs) == int(CU_FUNC_ATTRIBUTE_NUM_REGS));
static_assert(int(kFuncMaxDynamicSharedSizeBytes) == int(CU_FUNC_ATTRIBUTE_MAX_DYNAMIC_SHARED_SIZE_BYTES));
static_assert(int(kFuncNonPortableClusterSizeAllowed) == int(CU_FUNC_ATTRIBUTE_NON_PORTABLE_CLUSTER_SIZE_ALLOWED));
static_assert(int(kJitErrorLogBuffer) == int(CU_JIT_ERROR_LOG_BUFFER));
static_assert(int(kJitErrorLogBufferSizeBytes) == int(CU_JIT_ERROR_LOG_BUFFER_SIZE_BYTES));
static_assert(int(kLaunchCooperative) == int(CU_LAUNCH_ATTRIBUTE_COOPERATIVE));
static_assert(int(kLaunchClusterDimension) == int(CU_LAUNCH_ATTRIBUTE_CLUSTER_DIMENSION));
static_assert(int(kLaunchProgrammaticStreamSerialization) ==
              int(CU_LAUNCH_ATTRIBUTE_PROGRAMMATIC_STREAM_SERIALIZATION));
static_assert(int(kEventDisableTiming) == int(CU_EVENT_DISABLE_TIMING));
static_assert(int(kErrorOutOfMemory) == int(CUDA_ERROR_OUT_OF_MEMORY));
static_assert(int(kErrorCooperativeLaunchTooLarge) == int(CUDA_ERROR_COOPERATIVE_LAUNCH_TOO_LARGE));

TESSERA_SAME_ABI(init, cuInit);
TESSERA_SAME_ABI(driver_get_version, cuDriverGetVersion);
TESSERA_SAME_ABI(get_error_name, cuGetErrorName);
TESSERA_SAME_ABI(get_error_string, cuGetErrorString);
TESSERA_SAME_ABI(ctx_get_current, cuCtxGetCurrent);
TESSERA_SAME_ABI(ctx_set_current, cuCtxSetCurrent);
TESSERA_SAME_ABI(ctx_get_device, cuCtxGetDevice);
TESSERA_SAME_ABI(ctx_synchronize, cuCtxSynchronize);
TESSERA_SAME_ABI(device_get, cuDeviceGet);
TESSERA_SAME_ABI(device_get_attribute, cuDeviceGetAttribute);
TESSERA_SAME_ABI(primary_ctx_retain, cuDevicePrimaryCtxRetain);
TESSERA_SAME_ABI(module_load_data_ex, cuModuleLoadDataEx);
TESSERA_SAME_ABI(module_unload, cuModuleUnload);
TESSERA_SAME_ABI(module_get_function, cuModuleGetFunction);
TESSERA_SAME_ABI(func_get_attribute, cuFuncGetAttribute);
TESSERA_SAME_ABI(func_set_attribute, cuFuncSetAttribute);
TESSERA_SAME_ABI(func_get_param_info, cuFuncGetParamInfo);
TESSERA_SAME_ABI(launch_kernel_ex, cuLaunchKernelEx);
TESSERA_SAME_ABI(stream_synchronize, cuStreamSynchronize);
TESSERA_SAME_ABI(device_get_count, cuDeviceGetCount);
TESSERA_SAME_ABI(mem_alloc, cuMemAlloc_v2);
TESSERA_SAME_ABI(mem_free, cuMemFree_v2);
TESSERA_SAME_ABI(event_create, cuEventCreate);
TESSERA_SAME_ABI(event_record, cuEventRecord);
TESSERA_SAME_ABI(event_destroy, cuEventDestroy_v2);
TESSERA_SAME_ABI(stream_wait_event, cuStreamWaitEvent);
TESSERA_SAME_ABI(mem_alloc_async, cuMemAllocAsync);
TESSERA_SAME_ABI(mem_free_async, cuMemFreeAsync);
TESSERA_SAME_ABI(memset_d32_async, cuMemsetD32Async);
TESSERA_SAME_ABI(tensor_map_encode_tiled, cuTensorMapEncodeTiled);

// jit/gemm_sm90.hpp's values of cuTensorMapEncodeTiled's enumerations, and the size of the map.
static_assert(int(kTensorMapUint16) == int(CU_TENSOR_MAP_DATA_TYPE_UINT16));
static_assert(int(kTensorMapUint32) == int(CU_TENSOR_MAP_DATA_TYPE_UINT32));
static_assert(int(kTensorMapInterleaveNone) == int(CU_TENSOR_MAP_INTERLEAVE_NONE));
static_assert(int(kTensorMapSwizzle128B) == int(CU_TENSOR_MAP_SWIZZLE_128B));
static_assert(int(kTensorMapL2Promotion256B) == int(CU_TENSOR_MAP_L2_PROMOTION_L2_256B));
static_assert(int(kTensorMapOobFillNone) == int(CU_TENSOR_MAP_FLOAT_OOB_FILL_NONE));
static_assert(sizeof(CUtensorMap) == 16 * sizeof(std::uint64_t) && alignof(CUtensorMap) <= 128);

TEST(JitDriverAbi, DeclarationsMatchCudaH) { SUCCEED() << "checked at compile time against cuda.h " << CUDA_VERSION; }

}  // namespace
}  // namespace tessera::jit::cu
#else
TEST(JitDriverAbi, DeclarationsMatchCudaH) { GTEST_SKIP() << "no CUDA toolkit's cuda.h at build time"; }
#endif
