// Workspaces kept per (device, stream) for kernels whose blocks hand data to each other through
// global memory (stream-K's partial sums and flags), as a library handle keeps its workspace: the
// launches of one stream run one after the other, so they can share one; launches on different
// streams never do. Host, CUDA runtime.
//   StreamWorkspaces::get()                the process's registry
//   launch(device, stream, data_bytes, flags, f)
//                                          f(StreamWorkspace) launches the kernel with the stream's
//                                          workspace (grown if needed), the registry locked so that
//                                          no other thread grows or frees it in between
//   count(device)                          workspaces held for a device (at most kKeep)
//   release_all()                          frees them all (each device synchronized first)
// A workspace is `flags` 32-bit words (zeroed when allocated) then data_bytes, allocated on the
// stream (stream-ordered) at the stream's first launch and grown when a launch needs more. A stream
// is told apart by its id (cudaStreamGetId: unique per stream, also for the per-thread default
// stream and for a handle value that a destroyed stream's successor reuses), not by its handle.
// Each launch gets a new epoch (never 0): a flag left raised by an earlier launch does not count;
// the kernel lowers each flag it consumed. A launch captured into a CUDA graph gets no workspace
// (StreamWorkspace::flags == nullptr: the kernel must run without hand-overs): the graph may be
// replayed on another stream, beside this stream's own launches. Memory: at most kKeep workspaces
// per device: a stream's first launch beyond them frees the workspace of the device's least
// recently launched stream whose launches have completed, or, when all are still running, of the
// least recently launched one (stream-ordered after that stream's last launch, through an event
// recorded after each launch: the stream may have been destroyed since; if it launches again it
// gets a new workspace).
#pragma once

#if defined(__CUDACC_RTC__)
#error "tessera/sm90/stream_workspace.cuh: host only (workspaces of streams)"
#endif

#include <cuda_runtime.h>

#include <algorithm>
#include <cstdint>
#include <mutex>
#include <vector>

namespace tessera::sm90 {

// What a launch gets: the flags, the data after them, and the launch's epoch (flags == nullptr:
// none, the launch is being captured into a graph).
struct StreamWorkspace {
  std::uint32_t* flags = nullptr;
  unsigned char* data = nullptr;
  std::uint32_t epoch = 0;
};

struct StreamWorkspaces {
  static constexpr int kKeep = 8;
  struct Entry {
    int device;
    unsigned long long stream_id;
    unsigned char* mem;
    std::size_t bytes;
    std::uint32_t epoch;
    cudaEvent_t done;             // recorded after the entry's last launch
    unsigned long long last_use;  // the launch count when it was last used
  };
  std::mutex mutex;
  std::vector<Entry> entries;
  unsigned long long launches = 0;

  static StreamWorkspaces& get() {
    static StreamWorkspaces w;
    return w;
  }

  // count(device): the workspaces held for a device. Post: 0 <= result <= kKeep.
  // Example: after launches on 3 streams of device 0, count(0) == 3.
  int count(int device) {
    std::lock_guard<std::mutex> lock(mutex);
    return int(std::count_if(entries.begin(), entries.end(), [&](Entry const& x) { return x.device == device; }));
  }

  // launch(device, stream, data_bytes, flags, f): returns f(workspace)'s error, or the CUDA error
  // that kept the workspace from being had (then f is not called). Pre: flags >= 1.
  template <class F>
  cudaError_t launch(int device, cudaStream_t stream, std::size_t data_bytes, int flags, F&& f) {
    std::size_t const flag_bytes = (std::size_t(flags) * sizeof(std::uint32_t) + 255) / 256 * 256;
    std::size_t const need = flag_bytes + data_bytes;
    cudaStreamCaptureStatus capture = cudaStreamCaptureStatusNone;
    if (cudaError_t const err = cudaStreamIsCapturing(stream, &capture); err != cudaSuccess) return err;
    if (capture != cudaStreamCaptureStatusNone) return f(StreamWorkspace{});
    unsigned long long id = 0;
    if (cudaError_t const err = cudaStreamGetId(stream, &id); err != cudaSuccess) return err;
    std::lock_guard<std::mutex> lock(mutex);
    Entry* e = nullptr;
    for (auto& x : entries)
      if (x.device == device && x.stream_id == id) e = &x;
    if (e == nullptr) {
      if (cudaError_t const err = evict_beyond(device, kKeep - 1, stream); err != cudaSuccess) return err;
      cudaEvent_t done = nullptr;
      if (cudaError_t const err = cudaEventCreateWithFlags(&done, cudaEventDisableTiming); err != cudaSuccess)
        return err;
      entries.push_back(Entry{device, id, nullptr, 0, 0, done, 0});
      e = &entries.back();
    }
    if (e->bytes < need) {
      unsigned char* mem = nullptr;
      if (cudaError_t const err = cudaMallocAsync(reinterpret_cast<void**>(&mem), need, stream); err != cudaSuccess)
        return err;
      if (cudaError_t const err = cudaMemsetAsync(mem, 0, flag_bytes, stream); err != cudaSuccess) {
        (void)cudaFreeAsync(mem, stream);
        return err;
      }
      if (e->mem != nullptr) (void)cudaFreeAsync(e->mem, stream);  // after the launches queued on it
      e->mem = mem;
      e->bytes = need;
    }
    if (++e->epoch == 0) e->epoch = 1;
    e->last_use = ++launches;
    cudaError_t const launched =
        f(StreamWorkspace{reinterpret_cast<std::uint32_t*>(e->mem), e->mem + flag_bytes, e->epoch});
    if (launched != cudaSuccess) return launched;
    return cudaEventRecord(e->done, stream);
  }

  // evict_beyond(device, keep, stream): frees workspaces of `device` until it holds at most `keep`,
  // on `stream`: first the least recently used of those whose launches have all completed (freed
  // at once), else the least recently used one, after its stream's last launch (`stream` waits for
  // its event: a dependency on another stream's work only when every workspace is still in use).
  // Pre: the registry is locked, keep >= 0. Post: count(device) <= keep, or the CUDA error that
  // stopped it. Example: 8 held, keep 7, the one with the smallest last_use still running, the
  // others idle: the idle one with the smallest last_use is freed and `stream` waits for nothing.
  cudaError_t evict_beyond(int device, int keep, cudaStream_t stream) {
    for (;;) {
      int held = 0;
      auto oldest = entries.end(), oldest_idle = entries.end();
      for (auto it = entries.begin(); it != entries.end(); ++it) {
        if (it->device != device) continue;
        ++held;
        if (oldest == entries.end() || it->last_use < oldest->last_use) oldest = it;
      }
      if (held <= keep) return cudaSuccess;
      for (auto it = entries.begin(); it != entries.end(); ++it) {
        if (it->device != device || (oldest_idle != entries.end() && it->last_use >= oldest_idle->last_use)) continue;
        cudaError_t const before = cudaPeekAtLastError();
        cudaError_t const state = cudaEventQuery(it->done);
        if (state == cudaSuccess) {
          oldest_idle = it;
        } else if (state == cudaErrorNotReady) {
          // "not ready" is an answer, not an error to leave behind (a runtime that records it as
          // the last error); an earlier error of the caller's stays
          if (before == cudaSuccess && cudaPeekAtLastError() == cudaErrorNotReady) (void)cudaGetLastError();
        } else {
          return state;
        }
      }
      bool const idle = oldest_idle != entries.end();
      auto const victim = idle ? oldest_idle : oldest;
      if (!idle) {
        if (cudaError_t const err = cudaStreamWaitEvent(stream, victim->done, 0); err != cudaSuccess) return err;
      }
      if (victim->mem != nullptr) {
        if (cudaError_t const err = cudaFreeAsync(victim->mem, stream); err != cudaSuccess) return err;
      }
      (void)cudaEventDestroy(victim->done);  // released once the recorded work completes
      entries.erase(victim);
    }
  }

  cudaError_t release_all() {
    std::lock_guard<std::mutex> lock(mutex);
    cudaError_t result = cudaSuccess;
    int current = 0;
    if (cudaError_t const err = cudaGetDevice(&current); err != cudaSuccess) return err;
    std::vector<Entry> kept;  // those that could not be freed stay registered
    for (auto& x : entries) {
      cudaError_t err = cudaSetDevice(x.device);
      if (err == cudaSuccess) err = cudaDeviceSynchronize();
      if (err == cudaSuccess && x.mem != nullptr) err = cudaFree(x.mem);
      if (err == cudaSuccess) err = cudaEventDestroy(x.done);
      if (err != cudaSuccess) {
        kept.push_back(x);
        if (result == cudaSuccess) result = err;
      }
    }
    entries = std::move(kept);
    if (cudaError_t const err = cudaSetDevice(current); err != cudaSuccess && result == cudaSuccess) result = err;
    return result;
  }
};

}  // namespace tessera::sm90
