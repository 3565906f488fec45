"""Every worked example of the algebra's specification (tests/eval/algebra_examples.txt, the list
`tessera eval` is checked against: all of ALGEBRA.md's examples that the run-time twin supports)
computed through the Python API, and through tessera.eval."""

import pathlib

import pytest

import tessera
from expressions import build

EXAMPLES = pathlib.Path(__file__).resolve().parents[1] / "eval" / "algebra_examples.txt"


def examples():
    out = []
    for line in EXAMPLES.read_text().splitlines():
        if not line.strip() or line.startswith("#"):
            continue
        expr, expected = line.split("\t")
        out.append(pytest.param(expr, expected.replace("\\n", "\n"), id=expr[:60]))
    return out


@pytest.mark.parametrize("expr, expected", examples())
def test_example_through_the_python_api(expr, expected):
    # Built from Python values and calls: ints, S, tuples, lists, Layout, the functions, L(c).
    assert str(build(tessera._tessera.syntax_tree(expr))) == expected


@pytest.mark.parametrize("expr, expected", examples())
def test_example_through_eval(expr, expected):
    assert tessera.eval(expr) == expected


def test_the_examples_are_all_there():
    assert len(examples()) >= 60
