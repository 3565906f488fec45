// tests/runtime/cute_api.cpp -- the run-time twins of CuTe's integer, tuple and layout functions
// (runtime/int_tuple.hpp, layout.hpp, composition.hpp, divide.hpp, recast.hpp; issue 9): exact
// results, laws over small ranges, and the refusals with messages that name the function and the
// values. Agreement with the core on random operands: tests/differential/cute_api.cpp.
#include <set>

#include "helpers.hpp"

namespace tessera::rt::test {
namespace {

TEST(RuntimeCuteApi, IntegersAndTuples) {
  EXPECT_EQ(E("round_up((_5,(7,_8)),(_4,(2,_3)))"), "(_8,(8,_9))");
  EXPECT_EQ(E("elem_scale((2,3),(4,(2,3)))"), "(8,18)");
  EXPECT_EQ(E("filter_zeros((_0,2),((4,5),6))"), "((_1,_1),6)");
  EXPECT_EQ(E("gcd(_12,_18)"), "_6");
  EXPECT_EQ(E("gcd(_6,(_4,10))"), "2");
  EXPECT_EQ(E("lcm(_4,_6)"), "_12");
  EXPECT_EQ(E("bit_width(_8)"), "_4");
  EXPECT_EQ(E("log_2(9)"), "3");
  EXPECT_EQ(E("unflatten((2,3,4,5),((1,1),(1,1)))"), "((2,3),(4,5))");
  EXPECT_EQ(E("zip(((_1,_2,_3),(4,5,6)))"), "((_1,4),(_2,5),(_3,6))");
  EXPECT_EQ(E("front(((2,3),4))"), "2");
  EXPECT_EQ(E("back((2,(3,4)))"), "4");
  EXPECT_EQ(E("replace_front((2,(3,4)),_8)"), "(_8,(3,4))");
  EXPECT_EQ(E("elem_leq((1,5),(2,3))"), "false");  // every leaf (CuTe: some leaf)
  EXPECT_EQ(E("lex_gtr((_2,_0),(_1,_5))"), "_true");
  EXPECT_EQ(E("colex_geq((_1,_2),(_2,_1))"), "_true");
}

TEST(RuntimeCuteApi, Laws) {
  for (std::int64_t a = -20; a <= 20; ++a) {
    for (std::int64_t b = -20; b <= 20; ++b) {
      const Int g = gcd(D(a), D(b)), l = lcm(D(a), D(b));
      if (g.value != 0) {
        EXPECT_EQ(a % g.value, 0);
        EXPECT_EQ(b % g.value, 0);
      }
      EXPECT_EQ(g.value * l.value, std::abs(a * b));
      if (a >= 0 && b > 0) {
        const Int r = round_up(IntTuple(D(a)), IntTuple(D(b))).as_int();
        EXPECT_EQ(r.value % b, 0);
        EXPECT_TRUE(r.value >= a && r.value - a < b);
      }
    }
  }
  // idx2crd(i, shape, stride) inverts crd2idx on every compact order of ((2,3),4).
  for (const char* order : {"(_0,_1)", "(_1,_0)", "((_2,_0),_1)", "((_0,_2),_1)"}) {
    const IntTuple shape = T("((2,3),4)");
    const IntTuple stride = compact_order(shape, T(order));
    std::set<std::int64_t> seen;
    for (std::int64_t i = 0; i < 24; ++i) {
      const IntTuple c = idx2crd(IntTuple(D(i)), shape, stride);
      EXPECT_EQ(crd2idx(c, shape, stride).value, i) << order;
      seen.insert(crd2idx(idx2crd(IntTuple(D(i)), shape), shape, stride).value);
    }
    EXPECT_EQ(seen.size(), 24u) << order;  // compact: a bijection onto [0, 24)
  }
}

TEST(RuntimeCuteApi, Layouts) {
  EXPECT_EQ(E("make_layout_like((_2,_2,_2,_2):(_0,_2,_4,_1))"), "(_2,_2,_2,_2):(_0,_2,_4,_1)");
  EXPECT_EQ(E("make_layout_like((2,3,4,5):(_0,42,_1,_0))"), "(2,3,4,5):(_0,4,_1,_0)");
  EXPECT_EQ(E("compact_order((2,3),(_0,_0))"), "(_1,2)");  // equal entries in position order
  EXPECT_EQ(E("coshape((4,_8):(_2,16))"), "119");
  EXPECT_EQ(E("coprofile((4,8):(1,4))"), "_0");
  EXPECT_EQ(E("get_hier_coord((2,4):(4,1),7)"), "(1,3)");
  EXPECT_EQ(E("get_flat_coord(_8:_1,_5)"), "_5");
  EXPECT_EQ(E("domain_offset((1,2),(4,8):(_1,4))"), "((4,8):(_1,4),9)");
  EXPECT_EQ(E("with_shape((_4,_8):(_8,_1),(_8,_4))"), "((_4,_2),_4):((_8,_1),_2)");
  EXPECT_EQ(E("zip((_2,_3):(_1,_2),(_4,_5):(_6,_24))"), "((_2,_4),(_3,_5)):((_1,_6),(_2,_24))");
  EXPECT_EQ(E("unflatten((2,3,4):(_1,2,6),(1,(1,1)))"), "(2,(3,4)):(_1,(2,6))");
  EXPECT_EQ(E("tile_unzip(logical_product((_6,_20),(_2,_5)),(_2,_5))"), E("zipped_product((_6,_20),(_2,_5))"));
  EXPECT_EQ(E("evenly_divides((_8,_6),(_4,_3))"), "_true");
  EXPECT_EQ(E("evenly_divides((_8),(_4,_2))"), "_false");
  EXPECT_EQ(E("evenly_divides((8,6),(_,_4))"), "false");
  EXPECT_EQ(E("max_alignment((_4,_8):(_1,_4))"), "_32");
  EXPECT_EQ(E("max_alignment((4,_8):(_1,4))"), "_1");
}

TEST(RuntimeCuteApi, Refusals) {
  auto error = [](const std::string& expr) {
    const EvalResult r = eval_line(expr);
    EXPECT_FALSE(r.ok) << expr;
    return r.text;
  };
  EXPECT_NE(error("log_2(0)").find("log_2(x): x must be positive"), std::string::npos);
  EXPECT_NE(error("round_up(5,0)").find("round_up(a, b): the multiple b must be positive (got 5, 0)"),
            std::string::npos);
  EXPECT_NE(error("round_up((5),(4,4))").find("has more modes than a"), std::string::npos);
  EXPECT_NE(error("idx2crd(3,(2,4),(0,1))").find("stride 0"), std::string::npos);
  EXPECT_NE(error("get_1d_coord((2,4):(8,1),5)").find("need a compact layout"), std::string::npos);
  EXPECT_NE(error("zip(((2,3),4))").find("zip: every mode"), std::string::npos);
  EXPECT_NE(error("unflatten((2,(3,4)),(1,1,1))").find("must be flat"), std::string::npos);
  EXPECT_NE(error("elem_geq((1,2,3),(4,5))").find("elem_geq: the coordinate (1,2,3) has more modes"),
            std::string::npos);
}

}  // namespace
}  // namespace tessera::rt::test
