// Tests of the cuBLASLt reference's plain parts (bench/cublaslt_best.hpp): the key that caches a
// choice tells apart every field that changes the problem and spells each of them; the fastest
// candidate is the smallest valid time, the first on a tie, never a failed one. No GPU.
#include <gtest/gtest.h>

#include <cmath>
#include <limits>
#include <set>
#include <string>
#include <vector>

#include "bench/cublaslt_best.hpp"

namespace {

using namespace tessera::bench;
using tessera::Major;

LtGemmKey key_8192x8192x256() {
  LtGemmKey k;
  k.m = 8192;
  k.n = 8192;
  k.k = 256;
  k.lda = 256;
  k.ldb = 8192;
  k.ldd = 8192;
  return k;
}

TEST(CublasLtBest, KeySpellsEveryField) {
  EXPECT_EQ(to_string(key_8192x8192x256()), "8192x8192x256 bf16->bf16 A row 256, B row 8192, D row 8192");
  LtGemmKey k = key_8192x8192x256();
  k.in_type = CUDA_R_16F;
  k.out_type = CUDA_R_32F;
  k.b_major = Major::col;
  k.ldb = 256;
  EXPECT_EQ(to_string(k), "8192x8192x256 fp16->fp32 A row 256, B col 256, D row 8192");
  k.out_type = CUDA_R_8I;
  EXPECT_NE(to_string(k).find("->type " + std::to_string(int(CUDA_R_8I))), std::string::npos) << to_string(k);
}

TEST(CublasLtBest, KeysDifferInEveryFieldThatChangesTheProblem) {
  LtGemmKey const base = key_8192x8192x256();
  std::vector<LtGemmKey> keys(1, base);
  auto vary = [&](auto change) {
    LtGemmKey k = base;
    change(k);
    keys.push_back(k);
  };
  vary([](LtGemmKey& k) { k.m = 8191; });
  vary([](LtGemmKey& k) { k.n = 4096; });
  vary([](LtGemmKey& k) { k.k = 512; });
  vary([](LtGemmKey& k) { k.in_type = CUDA_R_16F; });
  vary([](LtGemmKey& k) { k.out_type = CUDA_R_32F; });
  vary([](LtGemmKey& k) { k.a_major = Major::col; });
  vary([](LtGemmKey& k) { k.b_major = Major::col; });
  vary([](LtGemmKey& k) { k.d_major = Major::col; });
  vary([](LtGemmKey& k) { k.lda = 264; });
  vary([](LtGemmKey& k) { k.ldb = 8200; });
  vary([](LtGemmKey& k) { k.ldd = 8200; });
  // a strict weak order that separates them all (they are std::map keys), and equal keys compare equal
  std::set<LtGemmKey> set(keys.begin(), keys.end());
  EXPECT_EQ(set.size(), keys.size());
  std::set<std::string> spelled;
  for (LtGemmKey const& k : keys) spelled.insert(to_string(k));
  EXPECT_EQ(spelled.size(), keys.size());  // and each spelling names what differs
  EXPECT_TRUE(base == key_8192x8192x256());
  EXPECT_FALSE(base < key_8192x8192x256());
  for (std::size_t i = 1; i < keys.size(); ++i) EXPECT_TRUE(base < keys[i] || keys[i] < base) << to_string(keys[i]);
}

TEST(CublasLtBest, FastestCandidateIsTheSmallestValidTime) {
  double const nan = std::numeric_limits<double>::quiet_NaN();
  double const inf = std::numeric_limits<double>::infinity();
  EXPECT_EQ(fastest_candidate({0.5, 0.4, 0.4, -1}), 1);  // the first of a tie
  EXPECT_EQ(fastest_candidate({0.3}), 0);
  EXPECT_EQ(fastest_candidate({-1, 0.9, 0.2, 0.2}), 2);
  EXPECT_EQ(fastest_candidate({-1, nan, 0.0, inf}), -1);  // failed, not a number, zero, infinite: none valid
  EXPECT_EQ(fastest_candidate({nan, 2.0}), 1);
  EXPECT_EQ(fastest_candidate({}), -1);
  // law: the winner's time is <= every valid time, and no valid time before it equals it
  std::vector<double> const ms = {0.7, -1, 0.61, 0.65, nan, 0.61, 0.9};
  int const w = fastest_candidate(ms);
  ASSERT_GE(w, 0);
  for (std::size_t i = 0; i < ms.size(); ++i) {
    if (!(ms[i] > 0) || !std::isfinite(ms[i])) continue;
    EXPECT_LE(ms[std::size_t(w)], ms[i]);
    if (int(i) < w) {
      EXPECT_LT(ms[std::size_t(w)], ms[i]);
    }
  }
}

TEST(CublasLtBest, ACandidateCountBelowOneIsRefused) {
  // checked before any CUDA call: the descriptors are host objects, no device is needed
  EXPECT_THROW(LtBestGemm(key_8192x8192x256(), nullptr, nullptr, nullptr, 0), std::invalid_argument);
}

}  // namespace
