// The evaluator with the atoms' names (evaluate.hpp), compiled once for the command.
#include "evaluate.hpp"

#include "tessera/atom/names.hpp"

namespace tessera::cli {

rt::Value evaluate(std::string_view text) { return rt::evaluate(text, atom_names()); }

rt::EvalResult eval_line(std::string_view text) { return rt::eval_line(text, atom_names()); }

}  // namespace tessera::cli
