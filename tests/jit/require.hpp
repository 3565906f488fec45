// tests/jit/require.hpp -- what the JIT's tests need to run, as GoogleTest skips that say why:
// TESSERA_REQUIRE_NVRTC() (compiling: NVRTC loads) and TESSERA_REQUIRE_GPU() (launching: a visible
// GPU and NVRTC; the CUDA runtime's context made current, which the JIT launches into).
#pragma once

#include <gtest/gtest.h>

#include <string>

#include "tessera/jit/nvrtc.hpp"

#define TESSERA_REQUIRE_NVRTC()                                         \
  do {                                                                  \
    std::string why_;                                                   \
    if (!::tessera::jit::Nvrtc::available(&why_)) GTEST_SKIP() << why_; \
  } while (0)

#define TESSERA_REQUIRE_GPU()                                                                   \
  do {                                                                                          \
    int n_ = 0;                                                                                 \
    if (cudaGetDeviceCount(&n_) != cudaSuccess || n_ == 0) GTEST_SKIP() << "no GPU is visible"; \
    TESSERA_REQUIRE_NVRTC();                                                                    \
    cudaFree(nullptr); /* the runtime's context: the JIT launches into it */                    \
  } while (0)
