#!/usr/bin/env bash
# The wheel as a user without a compiler meets it (docs/python.md, "Installing"): installed with
# `pip install --no-index` from a folder holding it and its dependencies' wheels into a fresh
# virtual environment, then used from outside the clone with a PATH that has no compiler: the
# shipped demo runs by name, a figure is drawn, the module finds its cases and the schema.
#   scripts/test_wheel.sh [DIST]       DIST holds the wheel (make wheel)
set -euo pipefail
cd "$(dirname "$0")/.."
dist="$(realpath "${1:-dist}")"
wheel=$(ls -t "$dist"/granular-*manylinux*.whl | head -1)
work=$(mktemp -d)
trap '/bin/rm -rf "$work"' EXIT
# the wheels of its dependencies (numpy, matplotlib for the figures), fetched now, so that the
# install itself reads no index
/usr/bin/python3 -m pip download --quiet --disable-pip-version-check --only-binary=:all: \
  --dest "$work/wheelhouse" numpy matplotlib
cp "$wheel" "$work/wheelhouse/"
/usr/bin/python3 -m venv "$work/venv"
"$work/venv/bin/python" -m pip install --quiet --disable-pip-version-check --no-index \
  --find-links "$work/wheelhouse" "granular[plot]"

# no compiler on PATH: only the environment's bin/ and a folder of the few tools used here
mkdir "$work/bin"
for t in env sh ls head tail; do ln -s "$(command -v $t)" "$work/bin/$t"; done
export PATH="$work/venv/bin:$work/bin"
for c in cc gcc g++ c++ clang nvcc; do
  if command -v "$c" >/dev/null; then echo "test_wheel: $c is on PATH" >&2; exit 1; fi
done
cd "$work"
unset GRANULAR_CLI GRANULAR_PYTHON PYTHONPATH
granular --version
granular cases | tail -1
granular run demo_sweep --out demo --quiet --set /drive/gamma=[1,4] \
  --set /ensemble/packings_per_gamma=2 --set /run/measure_time=1 --set /snapshots=null
granular plot sweep demo --format svg
test -s demo/omega2_vs_gamma.svg
granular schema packing_ensemble > schema.json
python - <<'PY'
import json, pathlib
import granular
shipped = granular.cases.path("demo_sweep")
assert shipped.is_file() and "site-packages" in str(shipped), shipped
assert json.loads(shipped.read_text()) == json.loads(granular.cases.text("demo_sweep"))
result = granular.read("demo")
assert len(result.gammas["gamma"]) == 2, result.gammas
schema = json.loads(pathlib.Path("schema.json").read_text())
assert schema["properties"]["model"] == {"const": "packing_ensemble"}
print("wheel:", granular.__version__, "cases:", len(granular.cases.names()),
      "demo rows:", len(result.gammas["gamma"]))
PY
# the papers' registry installed in the package, not the clone's
granular reproduce --dry-run --result thesis-ch3-md-low-gamma-exponent --quick > dry_run.txt
head -3 dry_run.txt
python - <<'PY'
import pathlib
import granular
line = next(l for l in open("dry_run.txt") if l.startswith("registry: "))
registry = pathlib.Path(line.split(": ", 1)[1].strip()).resolve()
assert registry == pathlib.Path(granular.__file__).parent / "papers" / "stated_results.json", line
PY
echo "test_wheel: ${wheel##*/} installs and runs without a compiler"
