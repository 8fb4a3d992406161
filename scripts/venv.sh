#!/usr/bin/env bash
# A virtual environment from Debian's python3 with packages from PyPI: creates VENV when it is
# missing and installs PACKAGE... when MODULES (Python import statements) fail; does nothing
# when all are there. The project's environments use it: scripts/python_env.sh (.venv),
# scripts/docs_env.sh (.venv-docs), scripts/build_wheel.sh (.venv-wheel).
#   scripts/venv.sh VENV "import a, b" PACKAGE...
set -euo pipefail
venv="$1"
modules="$2"
shift 2
if [[ ! -x "$venv/bin/python" ]]; then
  echo "creating the Python environment $venv" >&2
  /usr/bin/python3 -m venv "$venv"
fi
if ! "$venv/bin/python" -c "$modules" 2>/dev/null; then
  echo "installing into $venv: $*" >&2
  "$venv/bin/python" -m pip install --quiet --disable-pip-version-check "$@"
fi
