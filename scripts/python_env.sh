#!/usr/bin/env bash
# The Python environment of the module and its tests (docs/python.md): a virtual environment
# at .venv (or $1) from Debian's python3, with nanobind and scikit-build-core (to build the
# module), numpy (its arrays), pytest (the tests), gsd and ovito (the snapshot tests read the
# GSD files and dumps back with them: docs/outputs.md) and selenium (the report's figures opened
# in Chromium: tests/python/test_report_figures.py), and matplotlib, nbformat, nbclient and
# ipykernel (the tutorial notebooks of examples/notebooks/ draw their figures with matplotlib;
# tests/python/test_notebooks.py runs them in a kernel of this Python: docs/python.md) and
# jsonschema (tests/python/test_schema.py checks the case schema and every shipped case with
# it) from PyPI. Does nothing when all are there.
set -euo pipefail
venv="${1:-.venv}"
packages=(nanobind scikit-build-core numpy pytest gsd ovito selenium matplotlib nbformat nbclient
          ipykernel jsonschema)
modules="import nanobind, scikit_build_core, numpy, pytest, gsd.hoomd, ovito, selenium
import matplotlib, nbformat, nbclient, ipykernel, jsonschema"

"$(dirname "$0")/venv.sh" "$venv" "$modules" "${packages[@]}"
