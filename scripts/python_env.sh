#!/usr/bin/env bash
# The Python environment of the module and its tests (docs/python.md): a virtual environment
# at .venv (or $1) from Debian's python3, with nanobind and scikit-build-core (to build the
# module), numpy (its arrays), pytest (the tests), gsd and ovito (the snapshot tests read the
# GSD files and dumps back with them: docs/outputs.md) and selenium (the report's figures opened
# in Chromium: tests/python/test_report_figures.py) from PyPI. Does nothing when all are there.
set -euo pipefail
venv="${1:-.venv}"
packages=(nanobind scikit-build-core numpy pytest gsd ovito selenium)
modules="import nanobind, scikit_build_core, numpy, pytest, gsd.hoomd, ovito, selenium"

if [[ ! -x "$venv/bin/python" ]]; then
  echo "creating the Python environment $venv" >&2
  /usr/bin/python3 -m venv "$venv"
fi
if ! "$venv/bin/python" -c "$modules" 2>/dev/null; then
  echo "installing into $venv: ${packages[*]}" >&2
  "$venv/bin/python" -m pip install --quiet --disable-pip-version-check "${packages[@]}"
fi
