// libFuzzer target: one input = one `tessera show` expression. Every successfully evaluated
// value of at most 4096 cells is drawn in all four formats (and, for a layout, also as a TV
// picture over a 1xN tile). Nothing may crash, hang or throw anything but tessera::layout_error.
#include <cstddef>
#include <cstdint>
#include <string_view>

#include "tessera/runtime/eval.hpp"
#include "tessera/tools/show_html.hpp"

namespace {

namespace rt = tessera::rt;
namespace tt = tessera::tools;

constexpr std::int64_t kCap = 4096;  // cells per picture: keeps one input fast under sanitizers

// The number of cells (and of (thread,value) pairs) a picture of v would need, or kCap + 1.
std::int64_t cells_of(const rt::Value& v) {
  if (v.is<rt::Layout>()) return rt::size(v.as<rt::Layout>()).value;
  if (v.is<rt::ComposedLayout>()) return rt::size(v.as<rt::ComposedLayout>().inner).value;
  if (v.is<rt::IntTuple>() && !v.as<rt::IntTuple>().is_underscore()) return rt::size(v.as<rt::IntTuple>()).value;
  if (v.is<rt::ValueTuple>()) {
    const auto& items = v.as<rt::ValueTuple>().items;
    if (items.size() == 2 && items[0].is<rt::IntTuple>() && items[1].is<rt::Layout>()) {
      const auto [m, n] = tt::tile_extent(items[0].as<rt::IntTuple>());
      const std::int64_t pairs = rt::size(items[1].as<rt::Layout>()).value;
      if (m > kCap || n > kCap || m * n > kCap || pairs > kCap) return kCap + 1;
      return m * n;
    }
  }
  return 1;  // anything else: make_grid rejects it at once
}

void draw(const rt::Value& v, const tt::ShowOptions& opt) {
  const tt::Grid g = tt::make_grid(v, opt);
  for (tt::Format f : {tt::Format::ascii, tt::Format::svg, tt::Format::html, tt::Format::latex}) (void)tt::render(g, f);
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  const std::string_view line(reinterpret_cast<const char*>(data), size);
  try {
    const rt::Value v = rt::evaluate(line);
    if (cells_of(v) > kCap) return 0;
    try {
      draw(v, {});
    } catch (const tessera::layout_error&) {
    }
    if (v.is<rt::Layout>()) {
      tt::ShowOptions tv;
      tv.tv = true;
      const std::int64_t n = rt::cosize(v.as<rt::Layout>()).value;
      tv.tile = std::make_pair(std::int64_t{1}, n < 1 ? std::int64_t{1} : (n > kCap ? kCap : n));
      draw(v, tv);
    }
  } catch (const tessera::layout_error&) {  // eval_error included: a bad expression or a refused picture
  }
  return 0;
}
