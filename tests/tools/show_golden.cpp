// Golden-file tests of `tessera show`'s renderers on the algebra specification's examples: ascii, LaTeX and
// SVG of each picture are compared byte for byte with tests/tools/golden/<name>.{txt,tex,svg};
// every SVG is also checked to be well-formed XML. TESSERA_UPDATE_GOLDEN=1 rewrites the files
// (then review the diff: the committed files are the reference).
#include <gtest/gtest.h>

#include <cstdlib>
#include <fstream>
#include <sstream>
#include <string>

#include "algebra_reference.hpp"
#include "tessera/runtime/eval.hpp"
#include "tessera/tools/show_html.hpp"
#include "xml_check.hpp"

namespace {

namespace rt = tessera::rt;
namespace tt = tessera::tools;

struct GoldenCase {
  const char* name;
  const char* expr;
};

// The pictures: print_layout's example, the elementwise add's TV layout, a swizzled shared-memory layout,
// the specification's logical and zipped divides, and the tiles of an identity (coordinate) layout.
const GoldenCase kCases[] = {
    {"print_layout_example", "(_2,(_2,_2)):(_4,(_2,_1))"},
    {"tv_seed", "make_layout_tv((_4,_32):(_32,_1), (_4,_8):(_8,_1))"},
    {"swizzle_8x64", "composition(Sw<3,3,3>, (_8,_64):(_64,_1))"},
    {"logical_divide", "logical_divide((_9,(_4,_8)):(_59,(_13,_1)), [_3:_3, (_2,_4):(_1,_8)])"},
    {"zipped_divide", "zipped_divide((_9,(_4,_8)):(_59,(_13,_1)), [_3:_3, (_2,_4):(_1,_8)])"},
    // A coordinate layout: a 6x4 tensor in (_2,_2) tiles, every cell labelled with its coordinate.
    {"identity_tiles", "zipped_divide(make_identity_layout((_6,_4)), (_2,_2))"},
};

std::string read_file(const std::string& path) {
  std::ifstream in(path, std::ios::binary);
  std::stringstream ss;
  ss << in.rdbuf();
  return ss.str();
}

bool updating() {
  const char* v = std::getenv("TESSERA_UPDATE_GOLDEN");
  return v != nullptr && std::string(v) == "1";
}

void check_golden(const std::string& file, const std::string& actual) {
  const std::string path = std::string(TESSERA_GOLDEN_DIR) + "/" + file;
  if (updating()) {
    std::ofstream(path, std::ios::binary) << actual;
    return;
  }
  const std::string expected = read_file(path);
  ASSERT_FALSE(expected.empty()) << path << " is missing; run with TESSERA_UPDATE_GOLDEN=1 and review it";
  EXPECT_TRUE(expected == actual) << file << " differs from the golden file " << path
                                  << " (first 400 bytes of the actual output):\n"
                                  << actual.substr(0, 400);
}

class ShowGolden : public ::testing::TestWithParam<GoldenCase> {};

TEST_P(ShowGolden, Ascii) {
  const tt::Grid g = tt::make_grid(rt::evaluate(GetParam().expr));
  check_golden(std::string(GetParam().name) + ".txt", tt::render_ascii(g));
}

TEST_P(ShowGolden, Latex) {
  const tt::Grid g = tt::make_grid(rt::evaluate(GetParam().expr));
  const std::string tex = tt::render_latex(g);
  EXPECT_EQ(tex.find("\\documentclass[tikz"), tex.find("\\documentclass"));
  EXPECT_NE(tex.find("\\end{document}\n"), std::string::npos);
  check_golden(std::string(GetParam().name) + ".tex", tex);
}

TEST_P(ShowGolden, SvgIsWellFormedXml) {
  const tt::Grid g = tt::make_grid(rt::evaluate(GetParam().expr));
  const std::string svg = tt::render_svg(g);
  EXPECT_EQ(tessera::test::xml_error(svg), "");
  EXPECT_EQ(svg.find("<script"), std::string::npos);
  EXPECT_EQ(svg.find("href"), std::string::npos);
  EXPECT_EQ(svg.find("@import"), std::string::npos);
  check_golden(std::string(GetParam().name) + ".svg", svg);
}

TEST_P(ShowGolden, HtmlSvgIsWellFormedXml) {
  // The SVG inside the HTML page carries data attributes; it must be well-formed too.
  const tt::Grid g = tt::make_grid(rt::evaluate(GetParam().expr));
  EXPECT_EQ(tessera::test::xml_error(tt::render_svg(g, tt::SvgOptions{true}, false)), "");
}

INSTANTIATE_TEST_SUITE_P(Algebra, ShowGolden, ::testing::ValuesIn(kCases),
                         [](const ::testing::TestParamInfo<GoldenCase>& info) { return std::string(info.param.name); });

TEST(ShowGolden, PrintLayoutExampleIsAlgebraMdVerbatim) {
  // The specification's print_layout block, byte for byte (independent of the golden file).
  EXPECT_EQ(tt::render_ascii(tt::make_grid(rt::evaluate("(_2,(_2,_2)):(_4,(_2,_1))"))),
            tessera::test::kPrintLayoutExample);
}

TEST(XmlCheck, RejectsMalformedDocuments) {
  using tessera::test::xml_error;
  EXPECT_EQ(xml_error("<?xml version=\"1.0\"?>\n<a x=\"1\"><b/>t &amp; &#60;</a>\n"), "");
  EXPECT_NE(xml_error("<a><b></a></b>"), "");
  EXPECT_NE(xml_error("<a x=1/>"), "");
  EXPECT_NE(xml_error("<a>Sw<3,3,3></a>"), "");
  EXPECT_NE(xml_error("<a>&nbsp;</a>"), "");
  EXPECT_NE(xml_error("<a x=\"1\" x=\"2\"/>"), "");
  EXPECT_NE(xml_error("<a/><b/>"), "");
  EXPECT_NE(xml_error("<a>"), "");
}

}  // namespace
