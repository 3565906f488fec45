// libFuzzer target: one input = one `tessera eval` line. The evaluator must never crash, hang or
// throw anything but tessera::layout_error (eval_line turns those into "error: ..." lines).
#include <cstddef>
#include <cstdint>
#include <string_view>

#include "tessera/runtime/eval.hpp"

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  const std::string_view line(reinterpret_cast<const char*>(data), size);
  (void)tessera::rt::eval_line(line);  // any other exception escapes and libFuzzer reports it
  return 0;
}
