// Reference texts of the algebra's specification (the worked examples Tessera was specified with) shared by the tests of every implementation that
// must reproduce them (core print_layout, the run-time twin, `tessera show --format ascii`).
#pragma once

namespace tessera::test {
// The specification's print_layout block for (_2,(_2,_2)):(_4,(_2,_1)), byte for byte.
inline constexpr const char* kPrintLayoutExample =
    "(_2,(_2,_2)):(_4,(_2,_1))\n"
    "      0   1   2   3 \n"
    "    +---+---+---+---+\n"
    " 0  | 0 | 2 | 1 | 3 |\n"
    "    +---+---+---+---+\n"
    " 1  | 4 | 6 | 5 | 7 |\n"
    "    +---+---+---+---+\n";
}  // namespace tessera::test
