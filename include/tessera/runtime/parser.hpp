// tessera/runtime/parser.hpp -- the expression language of `tessera eval` (docs/eval.md).
//
//   expr    := postfix ('o' postfix)*              Sw<3,3,3> o _0 o (_8,_64):(_64,_1)
//   postfix := primary ('(' args ')')*             L(2,_), composition(A,B)(3)
//   primary := atom (':' atom)?                    (_2,4):(4,_1)
//   atom    := INT | _INT | INT@N | _INT@N | '_' | '(' args ')' | '[' args ']' | Sw<B,M,S>
//            | NAME '(' args ')'                   _1@0: a basis element (stride of a coordinate layout)
//            | NAME targs?                         a name the evaluator looks up (an atom):
//                                                   SM75_U32x4_LDSM_N, UniversalCopy<uint32_t>
//   targs   := '<' NAME targs? (',' NAME targs?)* '>'   Copy_Atom<SM75_U32x4_LDSM_N,half_t>
//   args    := (expr (',' expr)*)?
// Columns are 1-based byte offsets into the line ("at input column N" in messages).
#pragma once

#if defined(__CUDACC_RTC__)
#error "tessera/runtime/parser.hpp: host only (the run-time twin); kernels use the static algebra, tessera/core/"
#endif

#include <algorithm>
#include <cctype>
#include <string>
#include <string_view>
#include <vector>

#include "tessera/runtime/integer.hpp"

namespace tessera::rt {

namespace detail {
// How a message shows bytes of the input: printable ASCII as is, every other byte as \xNN (a NUL,
// an ESC, each byte of a UTF-8 character: "\xc3\xa9"), so that a message is one line of plain
// ASCII that no terminal interprets and no NUL cuts short. printable("a\x1b[2J") = "a\x1b[2J"
// with the ESC written as the four characters \x1b.
inline std::string printable(std::string_view s) {
  static constexpr char kHex[] = "0123456789abcdef";
  std::string out;
  out.reserve(s.size());
  for (const char ch : s) {
    const auto c = static_cast<unsigned char>(ch);
    if (c >= 0x20 && c < 0x7f) {
      out += ch;
    } else {
      out += "\\x";
      out += kHex[c >> 4];
      out += kHex[c & 15];
    }
  }
  return out;
}

// A piece of the input (a name, a value) inside a message: printable, and at most `max` bytes of
// it: shown("abc") = "abc"; a 1 MB name shows its first 60 bytes, "...", and its length.
inline std::string shown(std::string_view s, std::size_t max = 64) {
  if (s.size() <= max) return printable(s);
  return printable(s.substr(0, max - 4)) + "... (" + std::to_string(s.size()) + " bytes)";
}

// A whole message, printable and at most about 2000 bytes: a longer one keeps its start and its
// end (where the fix is named) around " ... ".
inline std::string bounded_message(const std::string& what) {
  std::string p = printable(what);
  if (p.size() <= 2000) return p;
  return p.substr(0, 1500) + " ... " + p.substr(p.size() - 400);
}
}  // namespace detail

// An error of `tessera eval`: message plus the 1-based column of the input it refers to ("at
// input column N": a byte offset into the expression, not a column of a layout). A layout_error,
// so one handler catches both a bad expression and a failed precondition. The message is printable
// ASCII and bounded (detail::bounded_message).
class eval_error : public layout_error {
 public:
  eval_error(const std::string& what, std::size_t column)
      : layout_error(detail::bounded_message(what) + " at input column " + std::to_string(column)),
        message_(detail::bounded_message(what)),
        column_(column) {}
  const std::string& message() const { return message_; }
  std::size_t column() const { return column_; }

 private:
  std::string message_;
  std::size_t column_;
};

struct Node {
  enum class Kind { integer, underscore, tuple, tiler, layout, swizzle, call, apply, composed, name };
  Kind kind = Kind::tuple;
  std::size_t column = 1;
  Int value{};                     // integer
  std::string name;                // call; name (an atom: SM75_U32x4_LDSM_N, UniversalCopy<uint32_t>)
  std::int64_t sw[3] = {0, 0, 0};  // swizzle B, M, S
  std::vector<Node> kids;          // tuple/tiler items, layout (shape, stride), call args,
                                   // apply (callee, args...), composed terms
};

class Parser {
 public:
  // Limits of one expression, enforced while parsing, so that the syntax tree of any input stays
  // small (docs/eval.md, "Limits"): bytes of input, integer literals, terms (every integer, `_`,
  // name, call, tuple and tiler), and nesting.
  static constexpr std::size_t kMaxInputBytes = std::size_t{1} << 20;  // 1 MiB
  static constexpr std::size_t kMaxIntegers = std::size_t{1} << 16;    // as a result's limit
  static constexpr std::size_t kMaxTerms = std::size_t{1} << 17;
  static constexpr int kMaxDepth = 128;  // about 64 levels of brackets

  explicit Parser(std::string_view text) : text_(text) {}

  // parse(): the whole line as one expression. Throws eval_error with the column.
  Node parse() {
    if (text_.size() > kMaxInputBytes)
      throw eval_error("expression too long (more than " + std::to_string(kMaxInputBytes) +
                           " bytes, the limit of one expression); split it into smaller expressions",
                       kMaxInputBytes + 1);
    skip_space();
    if (pos_ == text_.size()) throw eval_error("empty expression", column());
    Node n = expr();
    skip_space();
    if (pos_ != text_.size())
      throw eval_error("unexpected '" + std::string(1, text_[pos_]) + "' after the expression", column());
    return n;
  }

 private:
  std::string_view text_;
  std::size_t pos_ = 0;
  int depth_ = 0;
  std::size_t integers_ = 0, terms_ = 0;

  // Counts one term (and one integer literal): an error past the limits, at the term's column.
  void count_term(bool integer) {
    if (++terms_ > kMaxTerms)
      throw eval_error("expression has more than " + std::to_string(kMaxTerms) +
                           " terms (the limit of one expression); split it into smaller expressions",
                       column());
    if (integer && ++integers_ > kMaxIntegers)
      throw eval_error("expression has more than " + std::to_string(kMaxIntegers) +
                           " integers (the limit of one expression); split it into smaller expressions",
                       column());
  }

  std::size_t column() const { return pos_ + 1; }

  void skip_space() {
    while (pos_ < text_.size() && (text_[pos_] == ' ' || text_[pos_] == '\t' || text_[pos_] == '\r')) ++pos_;
  }

  bool peek(char c) {
    skip_space();
    return pos_ < text_.size() && text_[pos_] == c;
  }

  void expect(char c, const char* what) {
    if (!peek(c)) {
      std::string got = pos_ < text_.size() ? "'" + std::string(1, text_[pos_]) + "'" : "end of input";
      throw eval_error(std::string("expected ") + what + ", got " + got, column());
    }
    ++pos_;
  }

  static bool is_name_start(char c) { return std::isalpha(static_cast<unsigned char>(c)) != 0; }
  static bool is_name_char(char c) { return std::isalnum(static_cast<unsigned char>(c)) != 0 || c == '_'; }
  static bool is_digit(char c) { return c >= '0' && c <= '9'; }

  // The word at pos_ without consuming it.
  std::string_view peek_name() {
    skip_space();
    std::size_t e = pos_;
    if (e < text_.size() && is_name_start(text_[e]))
      while (e < text_.size() && is_name_char(text_[e])) ++e;
    return text_.substr(pos_, e - pos_);
  }

  struct DepthGuard {
    Parser& p;
    explicit DepthGuard(Parser& q) : p(q) {
      if (++p.depth_ > kMaxDepth)
        throw eval_error(
            "expression nested too deeply (limit: about " + std::to_string(kMaxDepth / 2) + " levels of brackets)",
            p.column());
    }
    ~DepthGuard() { --p.depth_; }
  };

  Node expr() {
    DepthGuard guard(*this);
    skip_space();
    const std::size_t col = column();
    Node first = postfix();
    if (peek_name() != "o") return first;
    Node comp;
    comp.kind = Node::Kind::composed;
    comp.column = col;
    comp.kids.push_back(std::move(first));
    while (peek_name() == "o") {
      ++pos_;
      comp.kids.push_back(postfix());
    }
    return comp;
  }

  Node postfix() {
    Node n = primary();
    while (peek('(')) {
      Node app;
      app.kind = Node::Kind::apply;
      app.column = column();
      app.kids.push_back(std::move(n));
      ++pos_;
      for (auto& a : args(')')) app.kids.push_back(std::move(a));
      n = std::move(app);
    }
    return n;
  }

  Node primary() {
    skip_space();
    const std::size_t col = column();
    Node a = atom();
    if (!peek(':')) return a;
    ++pos_;
    Node l;
    l.kind = Node::Kind::layout;
    l.column = col;
    l.kids.push_back(std::move(a));
    l.kids.push_back(atom());
    return l;
  }

  std::vector<Node> args(char close) {
    std::vector<Node> out;
    if (peek(close)) {
      ++pos_;
      return out;
    }
    for (;;) {
      out.push_back(expr());
      if (peek(',')) {
        ++pos_;
        continue;
      }
      expect(close, close == ')' ? "',' or ')'" : "',' or ']'");
      return out;
    }
  }

  // Digits at pos_ with an optional leading '-'; range-checked.
  std::int64_t integer_literal() {
    const std::size_t start = column();
    bool neg = false;
    if (pos_ < text_.size() && text_[pos_] == '-') {
      neg = true;
      ++pos_;
    }
    if (pos_ >= text_.size() || !is_digit(text_[pos_])) throw eval_error("expected digits", column());
    std::int64_t v = 0;
    while (pos_ < text_.size() && is_digit(text_[pos_])) {
      const int d = text_[pos_] - '0';
      if (__builtin_mul_overflow(v, 10, &v) || __builtin_sub_overflow(v, d, &v))
        throw eval_error("integer literal does not fit in int64", start);
      ++pos_;
    }
    if (!neg) {
      if (v == INT64_MIN) throw eval_error("integer literal does not fit in int64", start);
      v = -v;
    }
    return v;
  }

  // An integer literal directly followed by `@N` (N decimal digits, no sign, no `_`) is the basis
  // element value@N, as the core prints ScaledBasis: `_1@0`, `4@1`.
  Int basis_suffix(Int v) {
    if (pos_ >= text_.size() || text_[pos_] != '@') return v;
    ++pos_;
    const std::size_t start = column();
    if (pos_ >= text_.size() || !is_digit(text_[pos_]))
      throw eval_error("expected the mode of a basis element after '@' (digits, as in _1@0)", column());
    std::int64_t mode = 0;
    while (pos_ < text_.size() && is_digit(text_[pos_])) {
      mode = mode * 10 + (text_[pos_] - '0');
      if (mode > 65535) throw eval_error("basis mode too large (the limit is 65535)", start);
      ++pos_;
    }
    return E(v, static_cast<int>(mode));
  }

  Node atom() {
    DepthGuard guard(*this);
    skip_space();
    Node n;
    n.column = column();
    if (pos_ >= text_.size()) throw eval_error("unexpected end of input, expected a value", column());
    const char c = text_[pos_];
    count_term(is_digit(c) || c == '-' ||
               (c == '_' && pos_ + 1 < text_.size() && (is_digit(text_[pos_ + 1]) || text_[pos_ + 1] == '-')));
    if (is_digit(c) || c == '-') {
      n.kind = Node::Kind::integer;
      n.value = basis_suffix(D(integer_literal()));
      return n;
    }
    if (c == '_') {
      ++pos_;
      if (pos_ < text_.size() && (is_digit(text_[pos_]) || text_[pos_] == '-')) {
        n.kind = Node::Kind::integer;
        n.value = basis_suffix(S(integer_literal()));
        return n;
      }
      if (pos_ < text_.size() && is_name_char(text_[pos_]))
        throw eval_error("unexpected '" + std::string(1, text_[pos_]) + "' after '_'", column());
      n.kind = Node::Kind::underscore;
      return n;
    }
    if (c == '(' || c == '[') {
      ++pos_;
      n.kind = c == '(' ? Node::Kind::tuple : Node::Kind::tiler;
      n.kids = args(c == '(' ? ')' : ']');
      return n;
    }
    if (is_name_start(c)) return named(n);
    throw eval_error("unexpected '" + std::string(1, c) + "'", column());
  }

  // '<' NAME targs? (',' NAME targs?)* '>' after `outer`, as "<A,B<C>>" (no spaces): the template
  // arguments of a name, e.g. Copy_Atom<SM80_CP_ASYNC_CACHEGLOBAL<uint128_t>,half_t>.
  std::string template_arguments(const std::string& outer, int depth) {
    if (depth >= 8)
      throw eval_error("template arguments nested more than 8 deep in '" + detail::shown(outer) + "'", column());
    ++pos_;
    std::string out = "<";
    for (bool first = true;; first = false) {
      if (!first) out += ',';
      skip_space();
      std::string arg(peek_name());
      if (arg.empty()) throw eval_error("expected a type name in '" + detail::shown(outer + out) + "...>'", column());
      pos_ += arg.size();
      if (peek('<')) arg += template_arguments(outer + out + arg, depth + 1);
      out += arg;
      skip_space();
      if (pos_ < text_.size() && text_[pos_] == ',') {
        ++pos_;
        continue;
      }
      expect('>', "',' or '>'");
      break;
    }
    return out + '>';
  }

  Node named(Node& n) {
    std::string name(peek_name());
    if (name == "o") throw eval_error("unexpected 'o' (the composition operator needs a left operand)", column());
    pos_ += name.size();
    if (name == "Sw" && peek('<')) {
      ++pos_;
      n.kind = Node::Kind::swizzle;
      for (int i = 0; i < 3; ++i) {
        skip_space();
        n.sw[i] = integer_literal();
        if (i < 2) expect(',', "','");
      }
      expect('>', "'>'");
      return n;
    }
    if (peek('<')) name += template_arguments(name, 0);
    n.name = name;
    if (!peek('(')) {  // a bare name: the evaluator looks it up
      n.kind = Node::Kind::name;
      return n;
    }
    if (name.find('<') != std::string::npos)
      throw eval_error("'" + detail::shown(name) + "' is a name, not a function", column());
    n.kind = Node::Kind::call;
    ++pos_;
    n.kids = args(')');
    return n;
  }
};

// parse(text): the syntax tree of one expression line. Throws eval_error with a column.
inline Node parse(std::string_view text) { return Parser(text).parse(); }

// caret_lines(text, column): how the tools show where an error is: the input line (bytes as
// messages show them, tabs and line breaks as spaces, at most about 100 bytes around `column`,
// "..." where cut) and a caret under the byte at `column`, each line indented by two spaces and
// ended by '\n'. caret_lines("size((2,3", 10) = "  size((2,3\n           ^\n".
inline std::string caret_lines(std::string_view text, std::size_t column) {
  const std::size_t at = column > 0 ? column - 1 : 0;
  const std::size_t begin = at > 60 ? at - 60 : 0;
  const std::size_t end = std::min(text.size(), begin + 100);
  const auto show = [](std::string_view part) {
    std::string out;
    for (const char ch : part)
      out +=
          (ch == '\t' || ch == '\r' || ch == '\n') ? std::string(1, ' ') : detail::printable(std::string_view(&ch, 1));
    return out;
  };
  const std::string head = begin > 0 ? "..." : "";
  const std::string line = head + show(text.substr(begin, end - begin)) + (end < text.size() ? "..." : "");
  const std::size_t caret = head.size() + show(text.substr(begin, std::min(at, text.size()) - begin)).size();
  return "  " + line + "\n  " + std::string(caret, ' ') + "^\n";
}

}  // namespace tessera::rt
