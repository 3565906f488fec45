// Tests for include/tessera/pipeline/tma_pipeline.hpp on the host: a ring position moves as the k-tile
// count does (at(i + 1) == ++at(i), index = i % Stages, the phase flips once per lap), and the
// barrier layout of TmaPipeline (full then empty). The barriers themselves run in the Hopper GEMMs'
// device tests (tests/kernels/gemm_sm90.cu).
#include <gtest/gtest.h>

#include <cstdint>

#include "tessera/pipeline/tma_pipeline.hpp"

namespace {

using tessera::PipelineState;
using tessera::TmaPipeline;

template <int Stages>
void expect_ring_law() {
  PipelineState<Stages> st;
  for (int i = 0; i < 5 * Stages + 3; ++i) {
    auto const at = PipelineState<Stages>::at(i);
    EXPECT_EQ(st, at) << "Stages = " << Stages << ", k-tile " << i;
    EXPECT_EQ(at.index, i % Stages);
    EXPECT_EQ(at.phase, std::uint32_t((i / Stages) & 1));
    ++st;
  }
}

TEST(PipelineState, AdvancesAsTheKTileCount) {
  expect_ring_law<1>();
  expect_ring_law<2>();
  expect_ring_law<4>();
  expect_ring_law<7>();
  // The contract's example: k-tile 5 of a 4-stage ring is stage 1 in the second phase.
  static_assert(PipelineState<4>::at(5).index == 1 && PipelineState<4>::at(5).phase == 1);
}

TEST(TmaPipeline, FullBarriersThenEmptyOnes) {
  std::uint64_t bars[2 * 3] = {};
  TmaPipeline<3> const pipe{bars};
  for (int s = 0; s < 3; ++s) {
    EXPECT_EQ(pipe.full(s), bars + s);
    EXPECT_EQ(pipe.empty(s), bars + 3 + s);
  }
  static_assert(TmaPipeline<3>::kBarriers == 6);
}

}  // namespace
