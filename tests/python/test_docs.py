"""The documentation of the Python package: every function has a contract whose worked example
runs, the stubs are the generator's output, and docs/python.md's sessions run as written."""

import doctest
import pathlib
import re
import subprocess
import sys

import pytest

import tessera
import tessera.analysis
import tessera.jit
import tessera.ops
import tessera.pictures
from tessera import _docs, _types

REPO = pathlib.Path(__file__).resolve().parents[2]


def run_doctest(obj, name):
    finder = doctest.DocTestFinder(recurse=False)
    runner = doctest.DocTestRunner(optionflags=doctest.ELLIPSIS)
    tests = finder.find(obj, name, globs={"tessera": tessera, "S": tessera.S})
    examples = 0
    for t in tests:
        runner.run(t)
        examples += len(t.examples)
    result = runner.summarize(verbose=False)
    assert result.failed == 0, "%s: %d of its examples failed (output above)" % (name, result.failed)
    return examples


def test_the_contracts_cover_exactly_the_evaluators_functions():
    assert sorted(_docs.FUNCTIONS) == sorted(tessera.FUNCTIONS)


@pytest.mark.parametrize("name", sorted(_docs.FUNCTIONS))
def test_function_contract_and_example(name):
    doc = getattr(tessera, name).__doc__
    for part in ("Precondition:", "Postcondition:", "Example:", ">>> print(tessera." + name + "("):
        assert part in doc, (name, part)
    assert run_doctest(getattr(tessera, name), name) == 1


@pytest.mark.parametrize("obj", [tessera, tessera.parse, tessera.eval, tessera.atom, tessera.atom_names, tessera.pictures,
                                 tessera.show, tessera.analysis, tessera.analyze, _types.S, _types.Basis, _types.IntTuple,
                                 _types.Bool, _types.LayoutError],
                         ids=lambda o: getattr(o, "__name__", str(o)))
def test_other_docstring_examples(obj):
    assert run_doctest(obj, getattr(obj, "__name__", "tessera")) >= 1


def test_stubs_are_generated():
    script = REPO / "scripts" / "gen_python_stubs.py"
    stub = REPO / "python" / "tessera" / "__init__.pyi"
    p = subprocess.run([sys.executable, str(script), "--check", str(stub)], capture_output=True, text=True)
    assert p.returncode == 0, p.stderr
    text = stub.read_text()
    for name in tessera.FUNCTIONS:
        assert "\ndef %s(" % name in text, name


@pytest.mark.parametrize("module", ["ops", "pictures", "analysis", "jit"])
def test_submodule_stubs_are_generated(module):
    script = REPO / "scripts" / "gen_python_stubs.py"
    stub = REPO / "python" / "tessera" / (module + ".pyi")
    p = subprocess.run([sys.executable, str(script), "--module", module, "--check", str(stub)], capture_output=True, text=True)
    assert p.returncode == 0, p.stderr
    text = stub.read_text()
    for name in getattr(tessera, module).__all__:
        assert ("\ndef %s(" % name) in text or ("\nclass %s" % name) in text, name


@pytest.mark.parametrize("page, least", [("docs/python.md", 40), ("README.md", 4)])
def test_python_sessions_of_the_docs_run(page, least):
    # Every `>>>` line of the page runs, in order, in one namespace; its output must be the text
    # the page shows below it. Sessions between <!-- gpu-session --> and <!-- end-gpu-session -->
    # need a GPU and PyTorch: tests/python/test_ops.py runs them.
    text = re.sub(r"<!-- gpu-session -->.*?<!-- end-gpu-session -->", "", (REPO / page).read_text(), flags=re.S)
    test = doctest.DocTestParser().get_doctest(text, {}, page, str(REPO / page), 0)
    runner = doctest.DocTestRunner(optionflags=doctest.ELLIPSIS)
    runner.run(test)
    result = runner.summarize(verbose=False)
    assert result.attempted >= least, "%s shows only %d examples" % (page, result.attempted)
    assert result.failed == 0, "%d examples of %s failed (output above)" % (result.failed, page)
