"""pytest set-up for the Python package's tests (tests/python mirrors python/, as tests/ mirrors
the tree). They import `tessera` from wherever it is installed or from PYTHONPATH (the CTest test
python.pytest points it at <build>/python); the differential tests also run the `tessera` command
named by $TESSERA_CLI (CTest passes the one it built) and skip, saying so, without it."""

import os
import pathlib
import shutil
import subprocess

import pytest

REPO = pathlib.Path(__file__).resolve().parents[2]


@pytest.fixture(scope="session")
def repo():
    return REPO


@pytest.fixture(scope="session")
def cli():
    """The path of the `tessera` command to compare with."""
    path = os.environ.get("TESSERA_CLI") or shutil.which("tessera")
    if not path or not os.path.exists(path):
        pytest.skip("no `tessera` command: set TESSERA_CLI (the ctest test python.pytest sets it to build/bin/tessera)")
    return path


def run_cli(cli, args, stdin=None):
    """(exit status, stdout, stderr) of `tessera ARGS`."""
    p = subprocess.run([cli] + list(args), input=stdin, capture_output=True, text=True, timeout=300)
    return p.returncode, p.stdout, p.stderr


def torch_with_gpu():
    """(torch, "") when PyTorch is installed and sees a GPU, else (None, why not): for the tests
    that launch kernels to skip with the reason."""
    try:
        import torch
    except ImportError:
        return None, "PyTorch is not installed"
    if not torch.cuda.is_available():
        return None, "no GPU is visible"
    return torch, ""
