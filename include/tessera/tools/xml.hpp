// xml_escape: text safe inside XML/SVG/HTML elements and attribute values, shared by every tool
// that writes SVG or HTML (tessera show, tessera analyze, tessera-bench).
#pragma once

#if defined(__CUDACC_RTC__)
#error "tessera/tools/xml.hpp: host only (the command's drawings); kernels print with tessera/core/print.hpp"
#endif

#include <string>

namespace tessera::tools {

// xml_escape(s): s with & < > " escaped. xml_escape("a<b") == "a&lt;b".
inline std::string xml_escape(const std::string& s) {
  std::string out;
  for (char ch : s) {
    switch (ch) {
      case '&': out += "&amp;"; break;
      case '<': out += "&lt;"; break;
      case '>': out += "&gt;"; break;
      case '"': out += "&quot;"; break;
      default: out += ch;
    }
  }
  return out;
}

}  // namespace tessera::tools
