#!/usr/bin/env bash
# run_pytest.sh PYTHON PACKAGE_ROOT TESTS WORK [TESSERA_CLI]: runs the pytest suite TESTS with the
# interpreter PYTHON on the package in PACKAGE_ROOT (PYTHONPATH), caches and byte code under WORK;
# TESSERA_CLI is the `tessera` command the differential tests compare with. Exit 77 (a CTest skip)
# with a SKIP: line when PYTHON has no pytest.
set -u
python=$1
root=$2
tests=$3
work=$4
cli=${5:-}
if ! "$python" -c "import pytest" 2>/dev/null; then
  echo "SKIP: pytest is not installed for $python (scripts/setup --python installs python3-pytest)"
  exit 77
fi
export PYTHONPATH="$root${PYTHONPATH:+:$PYTHONPATH}"
export PYTHONPYCACHEPREFIX="$work/pycache"
export TESSERA_CLI="$cli"
cd "$work" || exit 1
exec "$python" -m pytest -q -p no:cacheprovider "$tests"
