// tessera.ops.attention's backward (attention.cpp over include/tessera/jit/attention_bwd_sm90.hpp):
// dQ, dK, dV of the Hopper attention from Q, K, V, O and LSE (the forward's) and dO, by the three
// kernels of kernels::attention_backward_sm90 compiled by the JIT (one NVRTC program per head_dim
// 64 or 128 and element type; fixed-length batches here) and launched through the driver. Host
// compiler only. module.cpp binds it (tessera._ops.attention_backward), tessera/_attention_grad.py
// calls it from the autograd Function behind tessera.ops.attention.
#pragma once

#include <cstddef>
#include <cstdint>

#include "kernels.hpp"

namespace tessera::python_ops {

// The forward's arguments (q, k, v, o, lse, sizes, strides incl. o's, scale, causal) and the
// backward's: dO, dQ, dK, dV (strides (batch, head, seq) in elements, head_dim's 1) and the
// workspace (device memory of attention_backward_workspace_bytes bytes, 16-byte aligned).
struct AttentionBackwardArgs {
  AttentionArgs fwd;
  void const* dout = nullptr;
  void* dq = nullptr;
  void* dk = nullptr;
  void* dv = nullptr;
  std::int64_t dout_strides[3] = {0, 0, 0}, dq_strides[3] = {0, 0, 0}, dk_strides[3] = {0, 0, 0},
               dv_strides[3] = {0, 0, 0};
  void* workspace = nullptr;
  std::size_t workspace_bytes = 0;
};

// kernels::attention_backward_workspace_bytes of the sizes (fixed length).
std::size_t attention_backward_workspace_bytes(int batch, int heads_q, int seq_q, int head_dim);
// kernels::check_attention_backward_problem's rules (std::invalid_argument "fn: <rule> (<values>)").
void attention_backward_check(char const* fn, AttentionBackwardArgs const& args);
// The program for args: jit::AttentionBwdSm90JitKernel's index (0..7).
int attention_backward_key(AttentionBackwardArgs const& args);
// Compiles program `key` when this process has not (NVRTC; the JIT's disk cache).
void attention_backward_prepare(int key);
// The three launches on `stream` (asynchronous). Pre: attention_backward_check passes.
void attention_backward(AttentionBackwardArgs const& args, void* stream);

}  // namespace tessera::python_ops
