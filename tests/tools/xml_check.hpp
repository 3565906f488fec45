// xml_check.hpp -- a small XML well-formedness checker for the SVG tests: the prolog (<?xml ...?>,
// comments), one root element, properly nested and closed tags, quoted unique attributes, and
// only the predefined or numeric entity references in text and attribute values.
#pragma once

#include <cctype>
#include <set>
#include <string>
#include <string_view>
#include <vector>

namespace tessera::test {

// xml_error(doc): "" when doc is well-formed, else what is wrong and where (byte offset).
inline std::string xml_error(std::string_view doc) {
  std::size_t p = 0;
  const auto err = [&](const std::string& what) { return what + " at byte " + std::to_string(p); };
  const auto is_name_start = [](char c) { return std::isalpha(static_cast<unsigned char>(c)) || c == '_' || c == ':'; };
  const auto is_name = [&](char c) {
    return is_name_start(c) || std::isdigit(static_cast<unsigned char>(c)) || c == '-' || c == '.';
  };
  const auto skip_ws = [&] {
    while (p < doc.size() && std::isspace(static_cast<unsigned char>(doc[p]))) ++p;
  };
  const auto name = [&]() -> std::string {
    const std::size_t b = p;
    if (p >= doc.size() || !is_name_start(doc[p])) return "";
    while (p < doc.size() && is_name(doc[p])) ++p;
    return std::string(doc.substr(b, p - b));
  };
  // Checks text up to `stop` (exclusive) for bare '&' or '<'.
  const auto check_chars = [&](std::size_t stop, bool attribute) -> std::string {
    for (; p < stop; ++p) {
      if (doc[p] == '<') return attribute ? err("'<' in an attribute value") : std::string();
      if (doc[p] != '&') continue;
      const std::size_t semi = doc.find(';', p);
      if (semi == std::string_view::npos || semi > stop) return err("unterminated entity reference");
      const std::string_view ref = doc.substr(p + 1, semi - p - 1);
      static const std::set<std::string_view> predefined{"amp", "lt", "gt", "quot", "apos"};
      bool ok = predefined.count(ref) > 0;
      if (!ok && ref.size() > 1 && ref[0] == '#') {
        ok = true;
        const bool hex = ref[1] == 'x';
        for (std::size_t k = hex ? 2 : 1; k < ref.size(); ++k)
          ok = ok && (hex ? std::isxdigit(static_cast<unsigned char>(ref[k]))
                          : std::isdigit(static_cast<unsigned char>(ref[k])));
        ok = ok && ref.size() > (hex ? 2u : 1u);
      }
      if (!ok) return err("unknown entity &" + std::string(ref) + ";");
      p = semi;
    }
    return "";
  };
  std::vector<std::string> open;
  bool seen_root = false;
  while (p < doc.size()) {
    if (doc[p] != '<') {
      const std::size_t lt = std::min(doc.find('<', p), doc.size());
      if (open.empty()) {
        for (; p < lt; ++p)
          if (!std::isspace(static_cast<unsigned char>(doc[p]))) return err("text outside the root element");
      } else if (auto e = check_chars(lt, false); !e.empty()) {
        return e;
      }
      continue;
    }
    if (doc.substr(p, 4) == "<!--") {
      const std::size_t e = doc.find("-->", p + 4);
      if (e == std::string_view::npos) return err("unterminated comment");
      p = e + 3;
      continue;
    }
    if (doc.substr(p, 2) == "<?") {
      if (seen_root || !open.empty()) return err("processing instruction after the root element started");
      const std::size_t e = doc.find("?>", p + 2);
      if (e == std::string_view::npos) return err("unterminated <?");
      p = e + 2;
      continue;
    }
    if (doc.substr(p, 2) == "</") {
      p += 2;
      const std::string n = name();
      if (open.empty() || open.back() != n) return err("end tag </" + n + "> does not match the open element");
      open.pop_back();
      skip_ws();
      if (p >= doc.size() || doc[p] != '>') return err("expected '>' closing </" + n);
      ++p;
      continue;
    }
    ++p;
    const std::string n = name();
    if (n.empty()) return err("expected an element name after '<'");
    if (open.empty() && seen_root) return err("a second root element <" + n + ">");
    seen_root = true;
    std::set<std::string> attrs;
    for (;;) {
      const std::size_t before = p;
      skip_ws();
      if (p >= doc.size()) return err("unterminated start tag <" + n);
      if (doc[p] == '>') {
        ++p;
        open.push_back(n);
        break;
      }
      if (doc.substr(p, 2) == "/>") {
        p += 2;
        break;
      }
      if (p == before) return err("expected whitespace before an attribute of <" + n);
      const std::string a = name();
      if (a.empty()) return err("expected an attribute name in <" + n);
      if (!attrs.insert(a).second) return err("duplicate attribute " + a + " in <" + n);
      skip_ws();
      if (p >= doc.size() || doc[p] != '=') return err("expected '=' after attribute " + a);
      ++p;
      skip_ws();
      if (p >= doc.size() || (doc[p] != '"' && doc[p] != '\'')) return err("unquoted value of attribute " + a);
      const char q = doc[p++];
      const std::size_t close = doc.find(q, p);
      if (close == std::string_view::npos) return err("unterminated value of attribute " + a);
      if (auto e = check_chars(close, true); !e.empty()) return e;
      p = close + 1;
    }
  }
  if (!seen_root) return "no root element";
  if (!open.empty()) return "element <" + open.back() + "> is not closed";
  return "";
}

}  // namespace tessera::test
