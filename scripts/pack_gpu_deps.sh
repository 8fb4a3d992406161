#!/usr/bin/env bash
# Copies what a build needs but a GPU machine without package registries lacks into .gpu-deps/
# (in .gitignore; name it in the device tool's `carry`): Eigen, nlohmann-json and Random123 headers with
# their CMake configurations (relocatable: they find their headers relative to themselves) and
# the GoogleTest sources. docs/gpu-first-run.md uses it.
set -euo pipefail
cd "$(dirname "$0")/.."
scripts/install_deps.sh
deps=.gpu-deps
rm -rf "$deps"
mkdir -p "$deps/include" "$deps/share/cmake" "$deps/share/eigen3" "$deps/src"
cp -r /usr/include/eigen3 "$deps/include/"
cp -r /usr/share/eigen3/cmake "$deps/share/eigen3/"
cp -r /usr/include/nlohmann "$deps/include/"
cp -r /usr/include/Random123 "$deps/include/"
cp -r /usr/share/cmake/nlohmann_json "$deps/share/cmake/"
cp -r /usr/src/googletest "$deps/src/"
du -sh "$deps"
