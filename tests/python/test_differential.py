"""Differential test: the Python API against the `tessera` command on seeded random expressions.

Each expression is a syntax tree (expressions.py). The command evaluates its text (all of them in
one `tessera eval` run on standard input); Python computes the same tree through the API alone
(ints, S, tuples, lists, tessera.Layout, the package's functions, calling layouts). Both must give
the same text, or both an error with the same message (the command's line ends with the input
column, which a Python call does not have).
"""

import collections
import re

import pytest

import tessera
from conftest import run_cli
from expressions import RandomExpressions, build, text

SEED = 20261212
COUNT = 12000
COLUMN = re.compile(r" at input column \d+$")


def python_line(tree):
    """(ok, printed lines) of the tree computed in Python."""
    try:
        value = build(tree)
    except tessera.LayoutError as e:
        return False, ["error: " + e.message]
    return True, str(value).split("\n")


@pytest.fixture(scope="module")
def expressions():
    gen = RandomExpressions(SEED)
    return gen.many(COUNT, tessera.FUNCTIONS)


def test_python_api_matches_tessera_eval(cli, expressions):
    texts = [text(t) for t in expressions]
    status, out, err = run_cli(cli, ["eval"], stdin="\n".join(texts) + "\n")
    assert status in (0, 1), err
    lines = out.split("\n")
    at = 0
    mismatches = []
    ok_by_function = collections.Counter()
    calls_by_function = collections.Counter()
    for tree, expr in zip(expressions, texts):
        ok, mine = python_line(tree)
        theirs = lines[at:at + len(mine)]
        at += len(mine)
        if not ok:
            theirs = [COLUMN.sub("", theirs[0])] if theirs else []
        if mine != theirs:
            mismatches.append("%s\n  python:  %s\n  tessera: %s" % (expr, "\\n".join(mine), "\\n".join(theirs)))
            if len(mismatches) >= 10:
                break
        fn = tree[1] if tree[0] == "call" else "(apply)"
        calls_by_function[fn] += 1
        ok_by_function[fn] += ok
    assert not mismatches, "%d mismatches, the first:\n%s" % (len(mismatches), "\n".join(mismatches))
    assert at == len(lines) - 1, "the command printed %d lines, Python %d" % (len(lines) - 1, at)
    # The generator reaches every function, and most of its calls evaluate (errors are the minority).
    missing = [f for f in tessera.FUNCTIONS if calls_by_function[f] == 0]
    assert not missing, "functions never called: %s" % missing
    never_ok = [f for f in tessera.FUNCTIONS if ok_by_function[f] == 0]
    assert not never_ok, "functions whose every random call failed: %s" % never_ok
    total_ok = sum(ok_by_function.values())
    assert total_ok > 0.6 * len(expressions), "only %d of %d expressions evaluated" % (total_ok, len(expressions))


def test_generator_trees_print_as_the_parser_reads_them(expressions):
    # The printer is the parser's inverse on the trees the generator makes (so `text` sends the
    # command the very expression Python computes).
    for tree in expressions[:2000]:
        assert tessera._tessera.syntax_tree(text(tree)) == tree, text(tree)


def test_python_eval_matches_tessera_eval(cli, expressions):
    # tessera.eval(text) is the command's line: the same evaluator through the module.
    texts = [text(t) for t in expressions[:3000] if t[1] != "print_layout"]
    status, out, err = run_cli(cli, ["eval"], stdin="\n".join(texts) + "\n")
    lines = out.split("\n")[:-1]
    assert len(lines) == len(texts)
    for expr, line in zip(texts, lines):
        try:
            mine = tessera.eval(expr)
        except tessera.LayoutError as e:
            mine = "error: " + str(e)
        assert mine == line, expr
