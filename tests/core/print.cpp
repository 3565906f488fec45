// Exact tests for include/tessera/core/print.hpp: the reference notation and print_layout.
#include <sstream>

#include "algebra_reference.hpp"
#include "test_util.hpp"

using namespace tessera;
using tessera::test::S;

TEST(Print, LayoutTableExact) {
  auto l = make_layout(make_tuple(_2{}, S<2, 2>()), make_tuple(_4{}, S<2, 1>()));
  EXPECT_EQ(layout_table(l), tessera::test::kPrintLayoutExample);
}

TEST(Print, NotationThroughEveryChannel) {
  auto l = make_layout(make_tuple(_2{}, 4), make_tuple(4, _1{}));
  std::ostringstream os;
  os << l << " " << _8{} << " " << make_tuple(1, _2{});
  EXPECT_EQ(os.str(), "(_2,4):(4,_1) _8 (1,_2)");
  testing::internal::CaptureStdout();
  print(l);
  EXPECT_EQ(testing::internal::GetCapturedStdout(), "(_2,4):(4,_1)");
}

TEST(Print, Booleans) {
  // A static boolean prints _true/_false like the run-time twin (it used to print _1/_0);
  // a dynamic one true/false.
  EXPECT_PRINTS(congruent(S<1, 2>(), S<3, 4>()), "_true");
  EXPECT_PRINTS(_2{} == _3{}, "_false");
  EXPECT_PRINTS(_2{} == 2, "true");
  EXPECT_PRINTS(make_tuple(true_type{}, false), "(_true,false)");
}
