// libFuzzer target: one input = one `tessera analyze` run. The first byte picks the options
// (shared or global memory, element width, vector, heat maps); the rest is the memory layout's
// expression, a newline, and the access layout's expression (a layout, make_layout_tv's pair or a
// tiled copy). The model runs on inputs of at most 4096 elements and accesses (to stay fast under
// the sanitizers) and both heat maps are drawn. Nothing may crash, hang, overflow or throw
// anything but tessera::layout_error (an offset whose byte address overflows is an error).
#include <cstddef>
#include <cstdint>
#include <string_view>

#include "tessera/atom/names.hpp"
#include "tessera/runtime/eval.hpp"
#include "tessera/tools/analyze.hpp"

namespace {

namespace rt = tessera::rt;
namespace tt = tessera::tools;

constexpr std::int64_t kCap = 4096;

// Elements of the memory layout, or kCap + 1 when it is not one the model takes quickly.
std::int64_t memory_elements(const rt::Value& v) {
  if (v.is<rt::Layout>()) return rt::size(v.as<rt::Layout>()).value;
  if (v.is<rt::ComposedLayout>()) return rt::size(v.as<rt::ComposedLayout>().inner).value;
  if (v.is<rt::IntTuple>() && !v.as<rt::IntTuple>().is_underscore()) return rt::size(v.as<rt::IntTuple>()).value;
  return 1;  // anything else: analyze rejects it at once
}

// Accesses of the access layout (thr x val), or kCap + 1.
std::int64_t accesses(const rt::Value& v) {
  if (v.is<rt::Layout>()) return rt::size(v.as<rt::Layout>()).value;
  if (v.is<rt::ValueTuple>() && v.as<rt::ValueTuple>().items.size() == 2 &&
      v.as<rt::ValueTuple>().items[1].is<rt::Layout>())
    return rt::size(v.as<rt::ValueTuple>().items[1].as<rt::Layout>()).value;
  return 1;
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  if (size < 2) return 0;
  const std::uint8_t opts = data[0];
  const std::string_view text(reinterpret_cast<const char*>(data + 1), size - 1);
  const std::size_t nl = text.find('\n');
  if (nl == std::string_view::npos) return 0;
  const tt::MemoryKind kind = (opts & 1) ? tt::MemoryKind::global : tt::MemoryKind::shared;
  static constexpr int kWidths[] = {1, 2, 4, 8, 16, 4, 3, 0};
  const int elem_bytes = kWidths[(opts >> 1) & 7];
  const int vector = 1 << ((opts >> 4) & 3);
  try {
    const rt::Value memory = rt::evaluate(text.substr(0, nl), tessera::atom_names());
    const rt::Value access = rt::evaluate(text.substr(nl + 1), tessera::atom_names());
    if (memory_elements(memory) > kCap || accesses(access) > kCap) return 0;
    tt::Report r;
    if (access.is<rt::TiledCopy>()) {
      const auto side =
          (opts & 64) ? tt::CopySide::source : ((opts & 128) ? tt::CopySide::destination : tt::CopySide::automatic);
      r = tt::analyze_copy(memory, access.as<rt::TiledCopy>(), kind, side);
    } else {
      r = tt::analyze(memory, access, {kind, elem_bytes, vector, {}});
    }
    (void)tt::to_text(r);
    (void)tt::heatmap_ascii(r);
    (void)tt::heatmap_svg(r);
  } catch (const tessera::layout_error&) {  // a bad expression, an access the model rejects
  }
  return 0;
}
