// tests/jit/spell.cpp -- jit/spell.hpp: run-time layouts (parsed by `tessera eval`'s evaluator)
// spelled as C++ types and values, and compiled by NVRTC with static_asserts that the spelled
// type computes, index for index, what the run-time layout computes.
#include "tessera/jit/spell.hpp"

#include <gtest/gtest.h>

#include <string>
#include <vector>

#include "tessera/jit/compile.hpp"
#include "tessera/runtime/eval.hpp"

namespace tessera::jit {
namespace {

rt::Layout L(std::string const& text) {
  rt::Value v = rt::evaluate(text);
  if (v.is<rt::IntTuple>()) return rt::make_layout(v.as<rt::IntTuple>());
  return v.as<rt::Layout>();
}

TEST(JitSpell, Types) {
  EXPECT_EQ(spell_type(L("(_2048,_2048):(_2048,_1)")),
            "tessera::Layout<tessera::Shape<tessera::Int<2048>,tessera::Int<2048>>,"
            "tessera::Stride<tessera::Int<2048>,tessera::Int<1>>>");
  EXPECT_EQ(spell_type(L("(2048,_1):(_1,2048)")),
            "tessera::Layout<tessera::Shape<int,tessera::Int<1>>,tessera::Stride<tessera::Int<1>,int>>");
  EXPECT_EQ(spell_type(L("_8:_1")), "tessera::Layout<tessera::Int<8>,tessera::Int<1>>");
  EXPECT_EQ(spell_type(L("((_2,_4),_3):((_1,_6),_2)")),
            "tessera::Layout<tessera::Shape<tessera::tuple<tessera::Int<2>,tessera::Int<4>>,tessera::Int<3>>,"
            "tessera::Stride<tessera::tuple<tessera::Int<1>,tessera::Int<6>>,tessera::Int<2>>>");
  EXPECT_EQ(spell_type(L("make_identity_layout((_4,_2))")),
            "tessera::Layout<tessera::Shape<tessera::Int<4>,tessera::Int<2>>,"
            "tessera::Stride<tessera::ScaledBasis<tessera::Int<1>,0>,tessera::ScaledBasis<tessera::Int<1>,1>>>");
  EXPECT_EQ(spell_type(rt::Swizzle{3, 4, 3}), "tessera::Swizzle<3,4,3>");
}

TEST(JitSpell, ValuesAndDynamicIntegers) {
  rt::Layout const l = L("(2048,_1):(_1,2048)");
  EXPECT_EQ(spell_value(l, "d"),
            "tessera::make_layout(tessera::make_tuple(int(d[0]),tessera::Int<1>{}),"
            "tessera::make_tuple(tessera::Int<1>{},int(d[1])))");
  EXPECT_EQ(dynamic_values(l), (std::vector<std::int64_t>{2048, 2048}));
  EXPECT_TRUE(dynamic_values(L("(_4,_8):(_8,_1)")).empty());
}

TEST(JitSpell, MakeStaticKeepsTheChosenLeavesDynamic) {
  rt::Layout const l = L("(4096,512):(512,1)");
  EXPECT_EQ(rt::to_string(make_static(l)), "(_4096,_512):(_512,_1)");
  EXPECT_EQ(rt::to_string(make_static(l, {0})), "(4096,_512):(_512,_1)");
  EXPECT_EQ(rt::to_string(make_static(l, {1}, {0})), "(_4096,512):(512,_1)");
}

// The spelled types, compiled by NVRTC: every value of each layout checked at compile time.
TEST(JitSpell, SpelledTypesComputeWhatTheRunTimeLayoutsCompute) {
  std::string why;
  if (!Nvrtc::available(&why)) GTEST_SKIP() << why;
  std::vector<std::string> const layouts = {"(_4,_8):(_8,_1)",
                                            "(_4,_8):(_1,_4)",
                                            "((_2,_4),_3):((_1,_6),_2)",
                                            "(_3,(_2,_5)):(_10,(_5,_1))",
                                            "_7:_3",
                                            "(_2,_2,_2):(_0,_1,_2)",
                                            "((_4,_2),(_2,_3)):((_3,_24),(_12,_1))",
                                            "blocked_product((_2,_2):(_1,_2), (_3,_2):(_2,_1))",
                                            "logical_divide(_24:_1, _4:_2)",
                                            "composition((_4,_6):(_6,_1), (_3,_8):(_8,_1))"};
  std::string src = "#include \"tessera/tessera.hpp\"\n";
  int n = 0;
  for (auto const& text : layouts) {
    rt::Layout const l = L(text);
    std::string const t = "T" + std::to_string(n++);
    src += "using " + t + " = " + spell_type(l) + ";\n";
    src += "static_assert(decltype(tessera::size(" + t + "{}))::value == " + std::to_string(rt::size(l).value) +
           ", \"" + text + ": size\");\n";
    for (std::int64_t i = 0; i < rt::size(l).value; ++i)
      src += "static_assert(" + t + "{}(" + std::to_string(i) +
             ") == " + std::to_string(rt::evaluate(l, rt::IntTuple(rt::D(i))).value) + ", \"" + text + " at " +
             std::to_string(i) + "\");\n";
  }
  // Values with dynamic integers have the spelled type.
  rt::Layout const dyn = L("((4,_2),8):((_1,4),16)");
  src += "__global__ void k(int const* d, int* out) {\n  auto l = " + spell_value(dyn, "d") +
         ";\n  static_assert(std::is_same_v<decltype(l), " + spell_type(dyn) + ">);\n  out[0] = l(3);\n}\n";
  CompileOptions o;
  o.arch = 90;
  o.cache = false;
  o.program_name = "spelled_layouts.cu";
  try {
    compile(src, {"k"}, o);
  } catch (jit_error const& e) {
    FAIL() << e.what() << "\nsource:\n" << src;
  }
}

}  // namespace
}  // namespace tessera::jit
