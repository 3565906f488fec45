// The evaluator with the atoms' names (evaluate.hpp), compiled once for the command.
#include "evaluate.hpp"

#include <iostream>

#include "tessera/atom/names.hpp"

namespace tessera::cli {

rt::Value evaluate(std::string_view text) { return rt::evaluate(text, atom_names()); }

rt::EvalResult eval_line(std::string_view text) { return rt::eval_line(text, atom_names()); }

bool evaluate_option(const char* option, const std::string& text, rt::Value& out) {
  try {
    out = evaluate(text);
    return true;
  } catch (const rt::eval_error& e) {
    std::cerr << "error: " << option << ": " << e.what() << "\n" << rt::caret_lines(text, e.column());
  } catch (const layout_error& e) {
    std::cerr << "error: " << option << ": " << e.what() << "\n";
  }
  return false;
}

}  // namespace tessera::cli
