// What the attention tests share (attention_forward.cu, attention_backward.cu): a case of the sweep,
// its printed name, the sequence-length pairs every sweep runs, and the value that marks an output
// element not yet written.
#pragma once

#include <string>
#include <utility>
#include <vector>

#include "tessera/kernels/attention/problem.hpp"

namespace tessera::test::attention {

struct Case {
  int batch, heads_q, heads_kv, seq_q, seq_k, head_dim;
  kernels::AttentionCausal causal;
  float scale = 0.0f;  // 0: 1/sqrt(head_dim)
  std::string name() const {
    char const* c = causal == kernels::AttentionCausal::none       ? "none"
                    : causal == kernels::AttentionCausal::top_left ? "top_left"
                                                                   : "bottom_right";
    return "b" + std::to_string(batch) + " hq" + std::to_string(heads_q) + " hkv" + std::to_string(heads_kv) + " sq" +
           std::to_string(seq_q) + " sk" + std::to_string(seq_k) + " d" + std::to_string(head_dim) + " causal " + c;
  }
};

// A NaN in both 16-bit types: never a result.
template <class T>
T sentinel() {
  return T::bitcast(0x7fff);
}

// Sequence-length pairs (seq_q, seq_k): every length with itself, and pairs of different lengths
// (longer and shorter keys, both ragged; 1000 / 1 the extremes).
inline std::vector<std::pair<int, int>> const& seq_pairs() {
  static std::vector<std::pair<int, int>> const pairs = [] {
    std::vector<std::pair<int, int>> v;
    for (int s : {1, 2, 17, 113, 128, 255, 1000}) v.push_back({s, s});
    for (auto pr : std::vector<std::pair<int, int>>{
             {1, 1000}, {1000, 1}, {2, 17}, {17, 113}, {113, 17}, {128, 255}, {255, 128}, {113, 1000}, {1000, 255}})
      v.push_back(pr);
    return v;
  }();
  return pairs;
}

}  // namespace tessera::test::attention
