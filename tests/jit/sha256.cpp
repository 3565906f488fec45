// tests/jit/sha256.cpp -- jit/sha256.hpp against FIPS 180-4's examples.
#include "tessera/jit/sha256.hpp"

#include <gtest/gtest.h>

#include <string>

namespace tessera::jit {
namespace {

TEST(Sha256, StandardVectors) {
  EXPECT_EQ(Sha256::of(""), "e3b0c44298fc1c149afbf4c8996fb92427ae41e4649b934ca495991b7852b855");
  EXPECT_EQ(Sha256::of("abc"), "ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad");
  EXPECT_EQ(Sha256::of("abcdbcdecdefdefgefghfghighijhijkijkljklmklmnlmnomnopnopq"),
            "248d6a61d20638b8e5c026930c3e6039a33ce45964ff2167f6ecedd419db06c1");
  EXPECT_EQ(Sha256::of(std::string(1000000, 'a')), "cdc76e5c9914fb9281a1c7e284d73e67f1809a48a497200e046d39ccc7112cd0");
}

TEST(Sha256, PiecewiseEqualsWhole) {
  std::string const text(1000, 'x');
  for (std::size_t cut : {0, 1, 55, 56, 63, 64, 65, 999}) {
    Sha256 h;
    h.update(text.substr(0, cut)).update(text.substr(cut));
    EXPECT_EQ(h.hex(), Sha256::of(text)) << "cut at " << cut;
  }
}

TEST(Sha256, FieldsAreDelimited) {
  EXPECT_NE(Sha256().field("ab").field("c").hex(), Sha256().field("a").field("bc").hex());
}

}  // namespace
}  // namespace tessera::jit
