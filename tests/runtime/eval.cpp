// tests/runtime/eval.cpp -- the `tessera eval` language: every worked example of the algebra's specification through the
// evaluator (tests/eval/algebra_examples.txt), syntax, and errors with columns.
#include <filesystem>
#include <fstream>

#include <algorithm>

#include "helpers.hpp"
#include "tessera/atom/names.hpp"

namespace tessera::rt::test {
namespace {

std::string unescape(const std::string& s) {
  std::string out;
  for (std::size_t i = 0; i < s.size(); ++i) {
    if (s[i] == '\\' && i + 1 < s.size() && s[i + 1] == 'n') {
      out += '\n';
      ++i;
    } else {
      out += s[i];
    }
  }
  return out;
}

TEST(RuntimeEval, AllAlgebraExamples) {
  const std::filesystem::path file =
      TESSERA_ALGEBRA_EXAMPLES;  // tests/eval/algebra_examples.txt (tests/CMakeLists.txt)
  std::ifstream in(file);
  ASSERT_TRUE(in) << "cannot open " << file;
  int count = 0;
  for (std::string line; std::getline(in, line);) {
    if (line.empty() || line[0] == '#') continue;
    const auto tab = line.find('\t');
    ASSERT_NE(tab, std::string::npos) << line;
    const EvalResult r = eval_line(line.substr(0, tab));
    EXPECT_TRUE(r.ok) << line;
    EXPECT_EQ(r.text, unescape(line.substr(tab + 1))) << line.substr(0, tab);
    ++count;
  }
  EXPECT_GE(count, 60);
}

TEST(RuntimeEval, Syntax) {
  EXPECT_EQ(E("8"), "8");
  EXPECT_EQ(E("_8"), "_8");
  EXPECT_EQ(E("-1"), "-1");
  EXPECT_EQ(E("_-1"), "_-1");
  EXPECT_EQ(E(" ( _2 , 4 ) : ( 4 , _1 ) "), "(_2,4):(4,_1)");
  EXPECT_EQ(E("(_8)"), "(_8)");
  EXPECT_EQ(E("()"), "()");
  EXPECT_EQ(E("[_3:_4, (_2,_4)]"), "(_3:_4,(_2,_4))");
  EXPECT_EQ(E("(_4,_8):(_8,_1)(_3)"), "_24");
  EXPECT_EQ(E("(_4,_8):(_8,_1)(3)"), "24");  // a dynamic coordinate gives a dynamic offset
  EXPECT_EQ(E("(_4,_8):(_8,_1)(_1,_2)"), "_10");
  EXPECT_EQ(E("(4,8):(8,_1)(1,2)"), "10");
  EXPECT_EQ(E("(2,3)(1,2)"), "5");  // a bare shape is its column-major layout
  EXPECT_EQ(E("composition((_6,_2):(_8,_2), (_4,_3):(_3,_1))(_3)"), "_26");
  EXPECT_EQ(E("Sw<3,3,3>(72)"), "64");
  EXPECT_EQ(E("Sw<3,3,3> o (_8,_64):(_64,_1)"), "Sw<3,3,3> o _0 o (_8,_64):(_64,_1)");
  EXPECT_EQ(E("(Sw<3,3,3> o _0 o (_8,_64):(_64,_1))"), "(Sw<3,3,3> o _0 o (_8,_64):(_64,_1))");
  EXPECT_EQ(E("composition(Sw<3,3,3>, (_8,_64):(_64,_1))(1,8)"), "64");
  EXPECT_EQ(E("composition(Sw<3,3,3>, (_8,_64):(_64,_1))(_1,_)"), "Sw<3,3,3> o _64 o (_64):(_1)");
  EXPECT_EQ(E("composition(composition(Sw<3,3,3>, (_8,_64):(_64,_1)), (_4,_8))"), "Sw<3,3,3> o _0 o (_4,_8):(_64,_1)");
  EXPECT_EQ(E("make_layout(_4:_1, _2:_4)"), "(_4,_2):(_1,_4)");
  EXPECT_EQ(E("make_layout((2,3), (3,1))"), "(2,3):(3,1)");
  EXPECT_EQ(E("get(make_layout_tv((_4,_32):(_32,_1), (_4,_8):(_8,_1)), 1)"), "((_32,_4),(_8,_4)):((_128,_4),(_16,_1))");
  EXPECT_EQ(E("shape((2,(3,4)):(1,(2,6)), 1, 0)"), "3");
  EXPECT_EQ(E("stride((2,(3,4)):(1,(2,6)), 1)"), "(2,6)");
  EXPECT_EQ(E("layout((2,(3,4)):(1,(2,6)), 1)"), "(3,4):(2,6)");
  EXPECT_EQ(E("rank((2,(3,4)):(1,(2,6)))"), "_2");
  EXPECT_EQ(E("size((2,(3,4)):(1,(2,6)))"), "24");
  EXPECT_EQ(E("cosize((_2,_4):(_4,_1))"), "_8");
  EXPECT_EQ(E("congruent((1,2),(3,4))"), "_true");
  EXPECT_EQ(E("equal((_2,_4):(_4,_1), (2,4):(4,1))"), "true");
  EXPECT_EQ(E("recast((_4,_8):(_8,_1), 16, 32)"), "(_4,_4):(_4,_1)");
  EXPECT_EQ(E("tile_to_shape((_2,_2):(_1,_2), (_4,_4), (_1,_0))"), "((_2,_2),(_2,_2)):((_1,_8),(_2,_4))");
  EXPECT_EQ(E(""), "");
  EXPECT_TRUE(eval_line("   ").ok);
}

struct BadCase {
  const char* expr;
  const char* contains;
  std::size_t column;
};

TEST(RuntimeEval, ErrorsCarryColumns) {
  const BadCase cases[] = {
      {"(2,3", "expected ',' or ')'", 5},
      {"(2,,3)", "unexpected ','", 4},
      {"_4:_1 junk", "after the expression", 7},
      {"nosuch(1)", "unknown function 'nosuch'", 1},
      {"size(", "unexpected end of input", 6},
      {"size((2,3), (4,5))", "size: takes 1 argument", 1},
      {"coalesce(make_layout((0,2)))", "shape leaf 0", 10},
      {"composition((4,8):(1,100), 4:3)", "stride 3 of B = 4:3 and mode size 4 of A = (4,8):(1,100)", 1},
      {"_4:_1(_, 2)", "coordinate (_,2) does not match", 6},
      {"99999999999999999999", "does not fit in int64", 1},
      {"Sw<3,3>", "expected ','", 7},
      {"Sw<3,3,1>", "swizzle", 1},
      {"o _4:_1", "unexpected 'o'", 1},
      {"_x", "after '_'", 2},
      {"size(_4:_1 o _4:_1)", "first term must be a swizzle", 6},
      {"print_layout(_4:_1)", "rank 1, not 2", 1},
      {"  left_inverse((_2,_2):(_1,_1))", "left_inverse", 3},
      {"(4000000000,4000000000,4000000000):(1,1,1)", "does not fit in int64", 1},
      {"upcast((_4,_8):(_3,_1), 2)", "upcast", 1},
      {"downcast((4,8):(8,1), 2)", "make that stride static _1", 1},
      {"complement((2,2):(1,1))", "overlap in stride order", 1},
      {"tile_to_shape((_3,_3):(_1,_3), (_8,_9))", "does not divide", 1},
      {"#", "unexpected '#'", 1},
  };
  for (const auto& c : cases) {
    try {
      (void)evaluate(c.expr);
      ADD_FAILURE() << c.expr << " should fail";
    } catch (const eval_error& e) {
      EXPECT_NE(std::string(e.what()).find(c.contains), std::string::npos) << c.expr << " -> " << e.what();
      EXPECT_EQ(e.column(), c.column) << c.expr << " -> " << e.what();
    }
    const EvalResult r = eval_line(c.expr);
    EXPECT_FALSE(r.ok);
    EXPECT_EQ(r.text.rfind("error: ", 0), 0u) << r.text;
    EXPECT_NE(r.text.find(" at input column " + std::to_string(c.column)), std::string::npos) << r.text;
  }
}

// Names: atoms from a name table (atom/names.hpp for `tessera eval`), with the functions that read
// them; an unknown name, a name called as a function and an atom of the wrong kind are errors.
TEST(RuntimeEval, AtomNames) {
  const auto& names = atom_names();
  auto ok = [&](const char* expr) {
    const EvalResult r = eval_line(expr, names);
    EXPECT_TRUE(r.ok) << expr << " -> " << r.text;
    return r.text;
  };
  EXPECT_EQ(ok("layout_c(SM80_16x8x16_F32F16F16F32_TN)"), "((_4,_8),(_2,_2)):((_32,_1),(_16,_8))");
  EXPECT_EQ(ok("shape_mnk(SM80_16x8x8_F32TF32TF32F32_TN)"), "(_16,_8,_8)");
  EXPECT_EQ(ok("thr_id(UniversalFMA<float>)"), "_1:_0");
  EXPECT_EQ(ok("layout_src(UniversalCopy<uint32_t>)"), "(_1,_32):(_0,_1)");
  EXPECT_EQ(ok("size(layout_dst(SM75_U32x4_LDSM_N))"), "_4096");  // 32 lanes x 4 registers x 32 bits
  EXPECT_EQ(ok("UniversalCopy< uint64_t >"), "UniversalCopy<uint64_t>");
  EXPECT_EQ(ok("tile_size(make_tiled_mma(SM80_16x8x16_F32F16F16F32_TN, (_2,_2,_1), [_,_32,_]), 1)"), "_32");
  EXPECT_EQ(ok("size(layout_c_tv(make_tiled_mma(SM80_16x8x16_F32BF16BF16F32_TN, (_2,_2,_1))))"), "_512");
  EXPECT_EQ(ok("thr_layout_vmnk(make_tiled_mma(UniversalFMA<float>, (_2,_4,_1)))"), "(_1,_2,_4,_1):(_0,_1,_2,_0)");

  const BadCase cases[] = {
      {"layout_c(Foo)", "unknown name 'Foo'", 10},
      {"UniversalCopy<uint32_t>(1)", "is a name, not a function", 24},
      {"UniversalCopy<>", "expected a type name", 15},
      {"UniversalCopy<uint32_t", "expected ',' or '>'", 23},
      {"layout_a(UniversalCopy<uint32_t>)", "is a copy atom UniversalCopy<uint32_t>, expected an MMA atom", 1},
      {"layout_src(UniversalFMA<float>)", "is an MMA atom UniversalFMA<float>, expected a copy atom", 1},
      {"layout_c_tv(SM80_16x8x16_F32F16F16F32_TN)", "expected a tiled MMA", 1},
      {"make_tiled_mma(UniversalFMA<float>, (_2,_2))", "must be rank 3", 1},
      {"make_tiled_mma(UniversalFMA<float>, (_2,_2,_1):(_1,_1,_0))", "must be compact", 1},
      {"make_tiled_mma(UniversalFMA<float>, (_2,_2,_1), [_,_])", "three modes", 1},
      {"make_tiled_mma(UniversalFMA<float>, (2,_2,_1))", "must be static", 1},
      {"make_tiled_mma(UniversalFMA<float>, (_2,_2,_1), [_,_,4])", "must be static", 1},
      {"tile_size(make_tiled_mma(UniversalFMA<float>), 3)", "the modes are 0 (M), 1 (N), 2 (K)", 1},
  };
  for (const auto& c : cases) {
    const EvalResult r = eval_line(c.expr, names);
    EXPECT_FALSE(r.ok) << c.expr;
    EXPECT_NE(r.text.find(c.contains), std::string::npos) << c.expr << " -> " << r.text;
    EXPECT_NE(r.text.find(" at input column " + std::to_string(c.column)), std::string::npos)
        << c.expr << " -> " << r.text;
  }
  // Without a table no name is known.
  const EvalResult bare = eval_line("layout_c(SM80_16x8x16_F32F16F16F32_TN)");
  EXPECT_FALSE(bare.ok);
  EXPECT_NE(bare.text.find("unknown name"), std::string::npos) << bare.text;
}

TEST(RuntimeEval, DeepNestingIsAnError) {
  std::string deep(500, '(');
  deep += "1" + std::string(500, ')');
  const EvalResult r = eval_line(deep);
  EXPECT_FALSE(r.ok);
  EXPECT_NE(r.text.find("nested too deeply"), std::string::npos) << r.text;
  std::string calls;
  for (int i = 0; i < 300; ++i) calls += "flatten(";
  calls += "_4:_1" + std::string(300, ')');
  EXPECT_FALSE(eval_line(calls).ok);
}

// The limits of one expression hold while parsing (docs/eval.md, "Limits"): a parse stops at the
// first integer, term or byte past its limit, so no input builds a large syntax tree first.
TEST(RuntimeEval, LimitsHoldWhileParsing) {
  // 400,000 integers: the error names the integer limit at the column of integer 65537 (k-th integer
  // at byte 1 + 2k), not a result that was built whole and then found too large.
  std::string many = "(";
  for (int i = 0; i < 400000; ++i) many += "1,";
  many += "1)";
  EvalResult r = eval_line(many);
  EXPECT_FALSE(r.ok);
  EXPECT_NE(r.text.find("more than 65536 integers"), std::string::npos) << r.text.substr(0, 200);
  EXPECT_NE(r.text.find("column " + std::to_string(2 + 2 * 65536)), std::string::npos) << r.text.substr(0, 200);
  // Terms without integers: ((),(),...) past 131072 terms.
  std::string empties = "(";
  for (int i = 0; i < 200000; ++i) empties += "(),";
  empties += "())";
  r = eval_line(empties);
  EXPECT_FALSE(r.ok);
  EXPECT_NE(r.text.find("more than 131072 terms"), std::string::npos) << r.text.substr(0, 200);
  // Input length: more than 1 MiB is refused before parsing.
  const std::string long_line = std::string(std::size_t{1} << 20, ' ') + "1";
  r = eval_line(long_line);
  EXPECT_FALSE(r.ok);
  EXPECT_NE(r.text.find("expression too long (more than 1048576 bytes, the limit of one expression)"),
            std::string::npos)
      << r.text;
  // At the limits an expression still works: 65536 integers in one tuple.
  std::string at_limit = "size((";
  for (int i = 0; i < 65535; ++i) at_limit += "1,";
  at_limit += "1))";
  EXPECT_EQ(eval_line(at_limit).text, "1");
}

// Messages show the input's bytes printably and boundedly, say "input column", and speak of the
// call the user made (issue 13, item 10): a NUL byte cut the message short, ESC and UTF-8 bytes
// reached the terminal raw, a 1 MB name was echoed whole, and a step's own function was named as
// if the user had called it.
bool all_printable(const std::string& s) {
  return std::all_of(s.begin(), s.end(), [](char c) { return c >= 0x20 && c < 0x7f; });
}

TEST(RuntimeEval, MessagesArePrintableBoundedAndNameTheUsersCall) {
  const std::string nul("size(\0)", 7);
  EvalResult r = eval_line(nul);
  EXPECT_EQ(r.text, "error: unexpected '\\x00' at input column 6");
  r = eval_line("size(\x1b[2J)");
  EXPECT_EQ(r.text, "error: unexpected '\\x1b' at input column 6");
  r = eval_line("size(\xc3\xa9)");
  EXPECT_EQ(r.text, "error: unexpected '\\xc3' at input column 6");
  const std::string name(1000000, 'a');
  r = eval_line(name + "(1)");
  EXPECT_TRUE(all_printable(r.text));
  EXPECT_LT(r.text.size(), 400u) << r.text.substr(0, 400);
  EXPECT_NE(r.text.find("aaaa... (1000000 bytes)' (see docs/eval.md"), std::string::npos) << r.text.substr(0, 400);
  // A step of logical_divide (its complement) is named as a step of the user's call.
  r = eval_line("logical_divide(_8:_1, (2,2):(1,1))");
  EXPECT_EQ(r.text.rfind("error: logical_divide: in its step complement: ", 0), 0u) << r.text;
  // The user's own call keeps its message.
  EXPECT_EQ(eval_line("size((2,3), (4,5))").text.rfind("error: size: takes 1 argument", 0), 0u);
}

TEST(RuntimeEval, CaretLinesPointAtTheInputColumn) {
  EXPECT_EQ(caret_lines("size((2,3", 10), "  size((2,3\n           ^\n");
  // Escaped bytes widen the line; the caret stays under the byte it names.
  EXPECT_EQ(caret_lines("a\xc3#", 3), "  a\\xc3#\n       ^\n");
  // A long line is cut around the column.
  const std::string text = std::string(1000, 'x') + "#" + std::string(1000, 'y');
  const std::string lines = caret_lines(text, 1001);
  const std::size_t nl = lines.find('\n');
  ASSERT_NE(nl, std::string::npos);
  EXPECT_LT(nl, 120u);
  const std::size_t caret = lines.find('^') - (nl + 1);
  EXPECT_EQ(lines[caret], '#') << lines;
}

// X(c) evaluates any layout-valued X (docs/eval.md), a composed layout in parentheses too (it
// was "cannot apply a value tuple"); without them the coordinate binds to the last term.
TEST(RuntimeEval, ApplyingAParenthesizedComposedLayout) {
  EXPECT_EQ(eval_line("(Sw<3,3,3> o (_8,_64):(_64,_1))(9)").text,
            eval_line("composition(Sw<3,3,3>, (_8,_64):(_64,_1))(9)").text);
  EXPECT_EQ(eval_line("(Sw<3,3,3> o (_8,_64):(_64,_1))(9)").text, "73");  // L(9) = 65, swizzled
  EXPECT_EQ(eval_line("((_8,_64):(_64,_1))(9)").text, "65");
}

TEST(RuntimeEval, BasisStrides) {
  EXPECT_EQ(E("make_identity_layout((4,8))"), "(4,8):(_1@0,_1@1)");
  EXPECT_EQ(E("(4,8):(_1@0,_1@1)(5)"), "(1,1)");
  EXPECT_EQ(E("(_4,_8):(_1@0,_1@1)(_5)"), "(_1,_1)");
  EXPECT_EQ(E("_4:4@1"), "_4:4@1");
  EXPECT_EQ(E("_4:-2@3(3)"), "-6@3");
  EXPECT_EQ(E("make_basis_like((4,8))"), "(_1@0,_1@1)");
  EXPECT_EQ(E("basis_get(_1@1, (2,(3,4)))"), "(3,4)");
  EXPECT_EQ(E("crd2idx(13, (4,8), (_1@0,_1@1))"), "(1,3)");
  EXPECT_EQ(E("elem_less(make_identity_layout((100,37))(99,36), (100,37))"), "true");
  EXPECT_EQ(E("domain_offset((1,2), make_identity_layout((4,8)))"), "((4,8):(_1@0,_1@1),(1,2))");
  EXPECT_EQ(E("coshape(make_identity_layout((4,8)))"), "(4,8)");
  EXPECT_EQ(E("zipped_divide(make_identity_layout((100,37)), (_16,_8))((0,(3,2)))"), "(48,16)");
  EXPECT_EQ(E("stride(make_identity_layout((4,(2,3))), 1)"), "(_1@1,2@1)");
  // The printed form reads back.
  EXPECT_EQ(E("(_4,(2,_4)):(_1@0,(_1@1,2@1))"), "(_4,(2,_4)):(_1@0,(_1@1,2@1))");
  // Errors: malformed basis, basis elements where integers go, integer-only functions.
  EXPECT_EQ(E("_1@"), "error: expected the mode of a basis element after '@' (digits, as in _1@0) at input column 4");
  EXPECT_EQ(E("_1@_0").rfind("error: expected the mode", 0), 0u);
  EXPECT_EQ(E("_1@99999").rfind("error: basis mode too large", 0), 0u);
  EXPECT_EQ(E("(_1@0,4):(1,2)").rfind("error: layout: shape leaf _1@0", 0), 0u) << E("(_1@0,4):(1,2)");
  EXPECT_EQ(E("(4,8)(_1@0)").rfind("error: evaluation: the coordinate", 0), 0u) << E("(4,8)(_1@0)");
  const std::string c = E("complement(make_identity_layout((4,8)))");
  EXPECT_EQ(c.rfind("error: complement: argument 1 is a layout (4,8):(_1@0,_1@1), which holds basis elements", 0), 0u)
      << c;
  EXPECT_NE(E("print_layout(make_identity_layout((2,3)))").find("`tessera show` draws coordinate layouts"),
            std::string::npos);
  EXPECT_EQ(E("Sw<3,3,3> o make_identity_layout((4,8))").rfind("error: composed layout:", 0), 0u);
  EXPECT_EQ(E("composition(Sw<1,1,1>, make_identity_layout((4,8)))").rfind("error: composition:", 0), 0u);
  EXPECT_EQ(E("(4,8):(1,_1@0)(5)").rfind("error: evaluation: the integer offset", 0), 0u);
}

}  // namespace
}  // namespace tessera::rt::test
