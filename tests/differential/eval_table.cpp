// The differential test, driven by the evaluator's own function table: one test per function
// that `tessera eval` knows (rt::function_names(), include/tessera/runtime/eval.hpp). Each runs
// the core-vs-twin comparisons registered for that name (differential.hpp) over ~10,000 seeded
// random cases per kind mix (static, mixed, dynamic). A name with no comparison fails, naming
// itself, unless exempt() below gives the reason it has no core counterpart.
#include <cstdio>
#include <set>

#include "differential.hpp"
#include "tessera/atom/names.hpp"

namespace tessera::test {

void record(Tally& t, std::string const& expr, std::string const& core) {
  const rt::EvalResult r = rt::eval_line(expr, atom_names());
  const std::string& twin = r.ok ? r.text : kRefused;
  if (core == twin) {
    (core == kRefused ? t.refused_both : t.agreed)++;
    return;
  }
  ++t.disagreed;
  if (t.examples.size() < 8) t.examples.push_back(expr + "\n    core: " + core + "\n    twin: " + r.text);
}

void record_exact(Tally& t, std::string const& expr, std::string const& core, Exact const& exact) {
  const rt::EvalResult r = rt::eval_line(expr, atom_names());
  if (r.ok ? r.text != core : core != kRefused) {
    bool is_exact = false;
    try {
      is_exact = exact(r.ok ? std::optional<rt::Value>(rt::evaluate(expr, atom_names())) : std::nullopt, core);
    } catch (layout_error const&) {
      is_exact = false;
    }
    if (is_exact) {
      ++t.twin_exact;
      return;
    }
  }
  record(t, expr, core);
}

namespace {

// Eval functions that are not compared with the core, each with the reason. Every function of
// the table has a core counterpart today, so the list is empty; an entry makes its test skip
// with the reason, visibly.
//
// Functions whose operands are atoms, tiled MMAs or tiled copies: atoms are a finite set of static types, so
// their comparisons (mma_atom.cpp, copy_atom.cpp) enumerate every atom instead of drawing ~10,000 random cases
// of each kind mix; they need only static cases, at least one each.
bool enumerated(std::string const& name) {
  static const std::set<std::string> names = {
      "shape_mnk",         "layout_a",          "layout_b",          "layout_c",       "thr_id",
      "layout_src",        "layout_dst",        "layout_ref",        "make_tiled_mma", "thr_layout_vmnk",
      "layout_a_tv",       "layout_b_tv",       "layout_c_tv",       "tile_size",      "make_tiled_copy",
      "make_tiled_copy_A", "make_tiled_copy_B", "make_tiled_copy_C", "layout_s_tv",    "layout_d_tv",
      "tidfrg_s",          "tidfrg_d"};
  return names.count(name) > 0;
}

// Some argument forms of compared functions have no core counterpart and are not compared:
//   prepend(x, y, N)                  the core has append<N> but no prepend<N>;
//   `_` in a tiler (composition)      the core's tilers have no `_`;
//   select of a composed layout, tile_to_shape(composed, shape, order), rank of a value tuple:
//   the core has no select of a composed layout and no tile_to_shape(composed, shape, order)
//   (every other function of the core on composed layouts is compared: swizzle.cpp);
//   make_tile with `_`: the core's tilers have no `_`.
const std::map<std::string, std::string>& exempt() {
  static const std::map<std::string, std::string> reasons = {};
  return reasons;
}

class EvalFunction : public ::testing::TestWithParam<std::string> {};

TEST_P(EvalFunction, CoreAndTwinAgree) {
  const std::string& name = GetParam();
  if (const auto e = exempt().find(name); e != exempt().end())
    GTEST_SKIP() << name << "() is not compared: " << e->second;
  const auto [first, last] = comparisons().equal_range(name);
  ASSERT_NE(first, last) << "`tessera eval` knows " << name
                         << "() (include/tessera/runtime/eval.hpp), but no comparison with the core algebra is "
                            "registered for it: add one to the tests/differential/ file of its core header, or list "
                            "it in exempt() (tests/differential/eval_table.cpp) with the reason it has no core "
                            "counterpart";
  Tally t;
  for (auto it = first; it != last; ++it) t.cases = t.cases + it->second(t);
  std::printf("[ diff ] %-20s agreed %lld, both refused %lld, disagreed %lld, twin exact by its law %lld\n",
              name.c_str(), t.agreed, t.refused_both, t.disagreed, t.twin_exact);
  std::string examples;
  for (const auto& e : t.examples) examples += "\n  " + e;
  EXPECT_EQ(t.disagreed, 0) << name << ": the core and the run-time twin disagree, e.g." << examples;
  EXPECT_GT(t.agreed, 0) << name << ": every case was refused by both sides; the comparison checks nothing";
  if (enumerated(name)) {
    t.cases.report(name.c_str());
    EXPECT_GT(t.cases.static_cases, 0) << name;
  } else {
    expect_coverage(t.cases, name.c_str());
  }
}

INSTANTIATE_TEST_SUITE_P(Differential, EvalFunction, ::testing::ValuesIn(rt::function_names()),
                         [](const ::testing::TestParamInfo<std::string>& info) { return info.param; });

// The registry and the exemptions name only functions the evaluator knows (no typos, no leftovers
// of a removed function), and nothing is both compared and exempt.
TEST(Differential, ComparisonsNameEvalFunctions) {
  const auto names = rt::function_names();
  const std::set<std::string> known(names.begin(), names.end());
  for (const auto& entry : comparisons())
    EXPECT_TRUE(known.count(entry.first))
        << "a comparison is registered for " << entry.first << "(), which `tessera eval` does not know";
  for (const auto& [name, reason] : exempt()) {
    EXPECT_TRUE(known.count(name)) << name << "() is exempt but `tessera eval` does not know it";
    EXPECT_EQ(comparisons().count(name), 0u) << name << "() is both exempt and compared";
  }
  for (const auto& name : {"shape_mnk", "layout_a", "layout_c_tv", "tile_size"})
    EXPECT_TRUE(enumerated(name) && known.count(name)) << name;
}

}  // namespace
}  // namespace tessera::test
