#!/usr/bin/env bash
# Copies what a build needs but a GPU machine without package registries lacks into .gpu-deps/
# (in .gitignore; name it in the device tool's `carry`): Eigen, nlohmann-json and Random123 headers with
# their CMake configurations (relocatable: they find their headers relative to themselves), the
# GoogleTest sources and PyPI's gsd source distribution (cmake/gsd.cmake). docs/gpu-first-run.md
# uses it.
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
gsd_version=$(sed -n 's/^set(GRANULAR_GSD_VERSION \(.*\))$/\1/p' cmake/gsd.cmake)
python3 -m pip download --quiet --disable-pip-version-check --no-deps --no-binary gsd \
  --ignore-requires-python --dest "$deps/src" "gsd==$gsd_version"
du -sh "$deps"
