// tools/tessera/evaluate.hpp -- the evaluator of the run-time twin with the atoms' names
// (rt::evaluate / rt::eval_line over atom_names()), compiled once for the whole command in
// evaluate.cpp: the name table and the evaluator's function table are the costliest code of the
// command to compile, and every subcommand needs them.
#pragma once

#include <string>
#include <string_view>

#include "tessera/runtime/eval.hpp"

namespace tessera::cli {

// rt::evaluate(text, atom_names()): the value of one expression; throws rt::eval_error (with the
// input column) on a bad one.
rt::Value evaluate(std::string_view text);

// rt::eval_line(text, atom_names()): the line `tessera eval` prints for one expression.
rt::EvalResult eval_line(std::string_view text);

// evaluate_option(option, text, out): out = evaluate(text) and true; on a bad expression false,
// after printing to stderr "error: OPTION: " and the message, with a caret under the column for a
// parse error (the subcommands' options that take an expression: analyze, advise, check).
bool evaluate_option(const char* option, const std::string& text, rt::Value& out);

}  // namespace tessera::cli
