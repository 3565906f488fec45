// The CUDA driver API, loaded while the program runs (host only): just what the JIT needs to load
// a compiled program into the current context, find its kernels, set their attributes and launch
// them, and what a host program without the CUDA runtime needs around those launches (tessera.ops,
// python/src/ops/module.cpp): counting devices, making a device's primary context current, device
// memory, and events to order one stream after another. libcuda.so.1 comes with the GPU driver;
// nothing links against it, so a program built with the JIT starts on a machine without a GPU and
// fails only when it loads a kernel, saying why.
//
// The types below are the driver's ABI (cuda.h, CUDA 12 and 13), declared here so that the JIT
// builds without a CUDA toolkit; tests/jit checks them against cuda.h where the toolkit is present.
#pragma once

#if defined(__CUDACC_RTC__)
#error "tessera/jit/driver.hpp: host only (it loads the CUDA driver)"
#endif

#include <dlfcn.h>

#include <cstddef>
#include <string>

#include "tessera/jit/nvrtc.hpp"  // jit_error

namespace tessera::jit::cu {

using Result = int;  // CUresult: 0 is CUDA_SUCCESS
using Device = int;  // CUdevice
using Context = struct CUctx_st*;
using Module = struct CUmod_st*;
using Function = struct CUfunc_st*;
using Stream = struct CUstream_st*;
using Event = struct CUevent_st*;
using DevicePtr = unsigned long long;  // CUdeviceptr

// CUdevice_attribute, CUfunction_attribute, CUjit_option and CUlaunchAttributeID values used.
enum : int {
  kDeviceMultiprocessorCount = 16,
  kDeviceComputeCapabilityMajor = 75,
  kDeviceComputeCapabilityMinor = 76,
  kDeviceMaxSharedPerBlockOptin = 97,
  kFuncMaxThreadsPerBlock = 0,
  kFuncSharedSizeBytes = 1,
  kFuncLocalSizeBytes = 3,
  kFuncNumRegs = 4,
  kFuncMaxDynamicSharedSizeBytes = 8,
  kFuncNonPortableClusterSizeAllowed = 14,
  kJitErrorLogBuffer = 5,
  kJitErrorLogBufferSizeBytes = 6,
  kLaunchCooperative = 2,
  kLaunchClusterDimension = 4,
  kLaunchProgrammaticStreamSerialization = 6,
  kEventDisableTiming = 2,                // CUevent_flags: CU_EVENT_DISABLE_TIMING
  kErrorOutOfMemory = 2,                  // CUresult: CUDA_ERROR_OUT_OF_MEMORY
  kErrorCooperativeLaunchTooLarge = 720,  // CUresult: CUDA_ERROR_COOPERATIVE_LAUNCH_TOO_LARGE
};

// CUlaunchAttribute: a 4-byte id, padding to 8, and a 64-byte value union.
struct LaunchAttribute {
  int id;
  char pad[4];
  union Value {
    char pad[64];
    int cooperative;
    struct {
      unsigned x, y, z;
    } cluster_dim;
    int programmatic_stream_serialization_allowed;
  } value;
};
static_assert(sizeof(LaunchAttribute) == 72, "CUlaunchAttribute is 72 bytes");

// CUlaunchConfig.
struct LaunchConfig {
  unsigned grid_x, grid_y, grid_z;
  unsigned block_x, block_y, block_z;
  unsigned shared_bytes;
  Stream stream;
  LaunchAttribute* attrs;
  unsigned num_attrs;
};

// The driver's entry points, opened at first use (thread-safe). Throws jit_error when libcuda
// cannot be opened (no GPU driver on this machine) or cuInit fails (no usable GPU).
class Driver {
 public:
  static Driver const& get() {
    static Driver const instance;
    return instance;
  }

  // Throws jit_error naming `what` and the driver's message when r is an error.
  void check(Result r, char const* what) const {
    if (r == 0) return;
    char const* name = nullptr;
    char const* text = nullptr;
    if (get_error_name) get_error_name(r, &name);
    if (get_error_string) get_error_string(r, &text);
    throw jit_error(std::string(what) + " failed: " + (name ? name : "CUDA error " + std::to_string(r)) +
                        (text ? std::string(" (") + text + ")" : std::string()),
                    r);
  }

  // The current context, or device 0's primary context made current when the thread has none (as
  // the CUDA runtime does at its first call, so the JIT and the runtime share one context).
  Context current_context() const {
    Context ctx = nullptr;
    check(ctx_get_current(&ctx), "cuCtxGetCurrent");
    if (ctx) return ctx;
    Device dev = 0;
    check(device_get(&dev, 0), "cuDeviceGet");
    check(primary_ctx_retain(&ctx, dev), "cuDevicePrimaryCtxRetain");
    check(ctx_set_current(ctx), "cuCtxSetCurrent");
    return ctx;
  }

  Device current_device() const {
    current_context();
    Device dev = 0;
    check(ctx_get_device(&dev), "cuCtxGetDevice");
    return dev;
  }

  int device_attribute(int attribute, Device dev) const {
    int v = 0;
    check(device_get_attribute(&v, attribute, dev), "cuDeviceGetAttribute");
    return v;
  }

  Result (*init)(unsigned) = nullptr;
  Result (*driver_get_version)(int*) = nullptr;
  Result (*get_error_name)(Result, char const**) = nullptr;
  Result (*get_error_string)(Result, char const**) = nullptr;
  Result (*ctx_get_current)(Context*) = nullptr;
  Result (*ctx_set_current)(Context) = nullptr;
  Result (*ctx_get_device)(Device*) = nullptr;
  Result (*ctx_synchronize)() = nullptr;
  Result (*device_get)(Device*, int) = nullptr;
  Result (*device_get_attribute)(int*, int, Device) = nullptr;
  Result (*primary_ctx_retain)(Context*, Device) = nullptr;
  Result (*module_load_data_ex)(Module*, void const*, unsigned, int*, void**) = nullptr;
  Result (*module_unload)(Module) = nullptr;
  Result (*module_get_function)(Function*, Module, char const*) = nullptr;
  Result (*func_get_attribute)(int*, int, Function) = nullptr;
  Result (*func_set_attribute)(Function, int, int) = nullptr;
  Result (*func_get_param_info)(Function, std::size_t, std::size_t*, std::size_t*) = nullptr;  // CUDA >= 12.4
  Result (*launch_kernel_ex)(LaunchConfig const*, Function, void**, void**) = nullptr;
  Result (*stream_synchronize)(Stream) = nullptr;
  // Devices, device memory and events (the CUDA runtime's cudaGetDeviceCount, cudaMalloc, cudaFree,
  // cudaEventCreateWithFlags, cudaEventRecord, cudaStreamWaitEvent, cudaEventDestroy). Memory and
  // events belong to the current context: make the device's primary context current first (the
  // runtime's, so that they interoperate with its allocations and streams).
  Result (*device_get_count)(int*) = nullptr;
  Result (*mem_alloc)(DevicePtr*, std::size_t) = nullptr;
  Result (*mem_free)(DevicePtr) = nullptr;
  Result (*event_create)(Event*, unsigned) = nullptr;
  Result (*event_record)(Event, Stream) = nullptr;
  Result (*event_destroy)(Event) = nullptr;
  Result (*stream_wait_event)(Stream, Event, unsigned) = nullptr;
  // Optional (null when the driver lacks them; their users say so): stream-ordered device memory
  // (cuMemAllocAsync, cuMemFreeAsync: CUDA 11.2; cuMemsetD32Async) and TMA's tensor maps (cuTensorMapEncodeTiled:
  // CUDA 12.0; its enumerations are ints here, jit/gemm_sm90.hpp names the values it passes), for
  // gemm_sm90 through the JIT (jit/gemm_sm90.hpp).
  Result (*mem_alloc_async)(DevicePtr*, std::size_t, Stream) = nullptr;
  Result (*mem_free_async)(DevicePtr, Stream) = nullptr;
  Result (*memset_d32_async)(DevicePtr, unsigned, std::size_t, Stream) = nullptr;  // cuMemsetD32Async
  Result (*tensor_map_encode_tiled)(void* tensor_map, int data_type, unsigned rank, void* address,
                                    unsigned long long const* dims, unsigned long long const* strides,
                                    unsigned const* box, unsigned const* element_strides, int interleave, int swizzle,
                                    int l2_promotion, int oob_fill) = nullptr;
  int version = 0;  // the driver's CUDA version, e.g. 13000

  Driver(Driver const&) = delete;
  Driver& operator=(Driver const&) = delete;

 private:
  Driver() {
    handle_ = dlopen("libcuda.so.1", RTLD_NOW | RTLD_LOCAL);
    if (!handle_) {
      char const* err = dlerror();
      throw jit_error(std::string("the CUDA driver (libcuda.so.1) is not installed on this machine: no GPU to run "
                                  "kernels on (") +
                      (err ? err : "dlopen failed") + ")");
    }
    sym(init, "cuInit");
    sym(driver_get_version, "cuDriverGetVersion");
    sym(get_error_name, "cuGetErrorName");
    sym(get_error_string, "cuGetErrorString");
    sym(ctx_get_current, "cuCtxGetCurrent");
    sym(ctx_set_current, "cuCtxSetCurrent");
    sym(ctx_get_device, "cuCtxGetDevice");
    sym(ctx_synchronize, "cuCtxSynchronize");
    sym(device_get, "cuDeviceGet");
    sym(device_get_attribute, "cuDeviceGetAttribute");
    sym(primary_ctx_retain, "cuDevicePrimaryCtxRetain_v2", "cuDevicePrimaryCtxRetain");
    sym(module_load_data_ex, "cuModuleLoadDataEx");
    sym(module_unload, "cuModuleUnload");
    sym(module_get_function, "cuModuleGetFunction");
    sym(func_get_attribute, "cuFuncGetAttribute");
    sym(func_set_attribute, "cuFuncSetAttribute");
    sym(launch_kernel_ex, "cuLaunchKernelEx");
    sym(stream_synchronize, "cuStreamSynchronize");
    sym(device_get_count, "cuDeviceGetCount");
    sym(mem_alloc, "cuMemAlloc_v2");
    sym(mem_free, "cuMemFree_v2");
    sym(event_create, "cuEventCreate");
    sym(event_record, "cuEventRecord");
    sym(event_destroy, "cuEventDestroy_v2");
    sym(stream_wait_event, "cuStreamWaitEvent");
    func_get_param_info =
        reinterpret_cast<decltype(func_get_param_info)>(dlsym(handle_, "cuFuncGetParamInfo"));  // optional
    mem_alloc_async = reinterpret_cast<decltype(mem_alloc_async)>(dlsym(handle_, "cuMemAllocAsync"));
    mem_free_async = reinterpret_cast<decltype(mem_free_async)>(dlsym(handle_, "cuMemFreeAsync"));
    memset_d32_async = reinterpret_cast<decltype(memset_d32_async)>(dlsym(handle_, "cuMemsetD32Async"));
    tensor_map_encode_tiled =
        reinterpret_cast<decltype(tensor_map_encode_tiled)>(dlsym(handle_, "cuTensorMapEncodeTiled"));
    check(init(0), "cuInit");
    check(driver_get_version(&version), "cuDriverGetVersion");
  }
  ~Driver() = default;

  template <class F>
  void sym(F& f, char const* name, char const* fallback = nullptr) {
    f = reinterpret_cast<F>(dlsym(handle_, name));
    if (!f && fallback) f = reinterpret_cast<F>(dlsym(handle_, fallback));
    if (!f)
      throw jit_error(std::string("the CUDA driver has no ") + name +
                      ": update the GPU driver (the JIT needs CUDA 12 or newer)");
  }

  void* handle_ = nullptr;
};

}  // namespace tessera::jit::cu
