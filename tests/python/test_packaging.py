"""The package as Python users meet it: ``from tessera import *`` replaces no builtin, the
version is the library's one version, the stub's ``__all__`` is the package's, and the build reads
the headers through python/include and the CMake script that builds them into the modules through
python/cmake (a checkout's symlinks to include/ and cmake/, stored as files in the sdist)."""

import ast
import builtins
import os
import re
import subprocess
import sys

import pytest

import tessera

BUILTINS = frozenset(dir(builtins))


def test_star_import_shadows_no_builtin():
    namespace = {}
    exec("from tessera import *", namespace)  # noqa: S102 (the statement under test)
    imported = set(namespace) - {"__builtins__"}
    assert sorted(imported & BUILTINS) == [], "from tessera import * replaces these builtins"
    assert imported == set(tessera.__all__)


def test_star_import_in_a_fresh_interpreter_leaves_the_builtins():
    # The check: afterwards `sum` is still the builtin, in a new process (PYTHONPATH is the
    # package's, as for this suite).
    code = ("import builtins\n"
            "names_before = dict(globals())\n"
            "builtins_before = dict(vars(builtins))\n"
            "from tessera import *\n"
            "bound = [n for n in globals() if n not in names_before or globals()[n] is not names_before[n]]\n"
            "print(sorted(n for n in bound if n in builtins_before),\n"
            "      sorted(n for n in builtins_before if vars(builtins).get(n) is not builtins_before[n]))\n")
    p = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, timeout=120)
    assert p.returncode == 0, p.stderr
    assert p.stdout.strip() == "[] []", p.stdout


def test_functions_named_like_builtins_stay_attributes():
    named_like_builtins = sorted(set(tessera.FUNCTIONS) & BUILTINS)
    assert "sum" in named_like_builtins and "min" in named_like_builtins  # the cases
    for name in named_like_builtins + ["eval"]:
        f = getattr(tessera, name)
        assert f is not getattr(builtins, name) and f.__name__ == name, name
        assert name not in tessera.__all__, name
    assert str(tessera.sum((2, 3))) == "5" and tessera.eval("max(3, 7)") == "7"


def test_every_other_public_name_is_exported():
    public = [n for n in vars(tessera) if not n.startswith("_") and n not in ("analysis", "jit", "lang", "ops", "pictures")]
    assert sorted(set(public) - BUILTINS) == sorted(tessera.__all__)


def test_the_stubs_all_is_the_packages(repo):
    tree = ast.parse((repo / "python" / "tessera" / "__init__.pyi").read_text(encoding="utf-8"))
    stub_all = [ast.literal_eval(node.value) for node in tree.body
                if isinstance(node, ast.Assign) and [getattr(t, "id", None) for t in node.targets] == ["__all__"]]
    assert stub_all == [tessera.__all__]


def test_submodules_and_their_names_at_top_level():
    import tessera.analysis
    import tessera.pictures

    assert tessera.show is tessera.pictures.show and tessera.pictures.__all__ == ["show"]
    assert tessera.analyze is tessera.analysis.analyze and tessera.analysis.__all__ == [
        "advise", "analyze", "check_copy", "check_tiled_copy", "check_tma", "check_wgmma"]
    assert tessera.advise is tessera.analysis.advise and tessera.check_tma is tessera.analysis.check_tma
    assert tessera.check_tiled_copy is tessera.analysis.check_tiled_copy
    assert tessera.check_wgmma is tessera.analysis.check_wgmma and tessera.check_copy is tessera.analysis.check_copy
    assert tessera.pictures.show("_2:_1", "ascii") == tessera.show("_2:_1", "ascii")


def header_version(repo):
    text = (repo / "include" / "tessera" / "version.hpp").read_text(encoding="utf-8")
    fields = dict(re.findall(r"^#define TESSERA_VERSION_(MAJOR|MINOR|PATCH|STRING) (\S+)", text, flags=re.M))
    return fields


def test_version_is_the_headers(repo):
    fields = header_version(repo)
    assert fields["STRING"] == '"%s.%s.%s"' % (fields["MAJOR"], fields["MINOR"], fields["PATCH"])
    assert tessera.__version__ == fields["STRING"].strip('"')
    assert tessera.__version__ == tessera._tessera.__version__


def test_pyproject_reads_the_version_from_the_header(repo):
    text = (repo / "python" / "pyproject.toml").read_text(encoding="utf-8")
    assert 'dynamic = ["version"]' in text and not re.search(r"^version\s*=", text, flags=re.M)
    # The regex of [tool.scikit-build.metadata.version] finds the header's string.
    regex = re.search(r"^regex = '(.*)'$", text, flags=re.M).group(1)
    input_path = re.search(r'^input = "(.*)"$', text, flags=re.M).group(1)
    found = re.search(regex, (repo / "python" / input_path).read_text(encoding="utf-8"), flags=re.M)
    assert found and found.group("value") == tessera.__version__


def test_an_installed_distribution_has_the_version():
    from importlib import metadata

    try:
        dist = metadata.distribution("tessera")
    except metadata.PackageNotFoundError:
        pytest.skip("tessera is not installed as a distribution here (the suite runs on the build tree's copy)")
    init = [f for f in dist.files or () if f.as_posix() == "tessera/__init__.py"]
    if not init or not os.path.samefile(dist.locate_file(init[0]), tessera.__file__):
        pytest.skip("the installed distribution is not the package under test")
    assert dist.version == tessera.__version__


def test_python_include_is_the_repositorys_include(repo):
    # The standalone build (and the sdist, which stores the files the link points to) reads the
    # headers from python/include.
    link = repo / "python" / "include"
    assert link.is_symlink() and os.readlink(link) == os.path.join("..", "include")
    assert (link / "tessera" / "version.hpp").samefile(repo / "include" / "tessera" / "version.hpp")


def test_python_cmake_is_the_repositorys_cmake(repo):
    # The standalone build builds the JIT's headers into the modules with the repository's script
    # (cmake/TesseraJitHeaders.cmake), through python/cmake.
    link = repo / "python" / "cmake"
    assert link.is_symlink() and os.readlink(link) == os.path.join("..", "cmake")
    for name in ("TesseraJitHeaders.cmake", "tessera_embed_headers.cmake"):
        assert (link / name).samefile(repo / "cmake" / name)
