// Consumer of an installed Tessera: builds a few static layouts, prints them in the reference
// notation and compares with the documented results (docs/algebra.md). Exit 1 on any mismatch.
#include <tessera/tessera.hpp>

#include <cstdio>
#include <string>

int main() {
  using namespace tessera;
  // (thr,val) -> (m,n) of 128 threads (_4,_32):(_32,_1), each holding (_4,_8):(_8,_1) values.
  auto tv = make_layout_tv(make_layout(make_tuple(_4{}, _32{}), make_tuple(_32{}, _1{})),
                           make_layout(make_tuple(_4{}, _8{}), make_tuple(_8{}, _1{})));
  // (m,n) -> offset of the composition example.
  auto composed = composition(make_layout(make_tuple(_6{}, _2{}), make_tuple(_8{}, _2{})),
                              make_layout(make_tuple(_4{}, _3{}), make_tuple(_3{}, _1{})));
  std::string const got = to_string(get<0>(tv)) + " " + to_string(get<1>(tv)) + " " + to_string(composed);
  std::string const expected = "(_16,_256) ((_32,_4),(_8,_4)):((_128,_4),(_16,_1)) ((_2,_2),_3):((_24,_2),_8)";
  std::printf("%s\n", got.c_str());
  if (got != expected) {
    std::printf("mismatch: expected %s\n", expected.c_str());
    return 1;
  }
  return 0;
}
