#!/usr/bin/env bash
# Installs the Debian packages granular needs that are missing; does nothing when all are there.
#   scripts/install_deps.sh          build and test dependencies (the snapshot tests' readers,
#                                    the figure tools' matplotlib and the browser of the report's
#                                    figure test too)
#   scripts/install_deps.sh --run    the same: what `make run` needs to plot
#   scripts/install_deps.sh --bench  also what `make bench` needs (LAMMPS, python3)
#   scripts/install_deps.sh --sanitize  also clang and its sanitizer and libFuzzer runtimes
set -euo pipefail

# python3-vtk9 (with numpy, which it only recommends) and lammps: the snapshot tests read the
# files back with VTK's and LAMMPS' readers;
# OpenMPI: the runs over MPI ranks and their tests (docs/mpi.md; GRANULAR_MPI=AUTO finds it)
# python3-venv and python3-dev: the Python module's environment and build (scripts/python_env.sh)
# python3-matplotlib: the figure tools (tools/), which `make run` and the tests run
# python3-gsd: tools/lammps_data.py reads GSD snapshots with it
# python3-pip: cmake/gsd.cmake downloads the gsd library's source distribution with it
# chromium and chromium-driver: the report's figures are checked in a real browser
# (tests/python/test_report_figures.py, with selenium from scripts/python_env.sh)
# libxxhash-dev: the files' XXH64 checksums (io/checksum.hpp); xxhash: its xxhsum, which the
# tests verify them with; python3-xxhash: tools/hostile_campaign.py recomputes them
packages=(cmake make g++ libeigen3-dev nlohmann-json3-dev libgtest-dev librandom123-dev
  libxxhash-dev xxhash python3-xxhash
  python3-vtk9 python3-numpy lammps libopenmpi-dev openmpi-bin python3-venv python3-dev
  python3-matplotlib python3-gsd python3-pip chromium chromium-driver)
if [[ "${1:-}" == "--bench" ]]; then
  packages+=(python3)
fi
if [[ "${1:-}" == "--sanitize" ]]; then
  packages+=(clang libclang-rt-14-dev)
fi

missing=()
for p in "${packages[@]}"; do
  dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q "install ok installed" || missing+=("$p")
done
[[ ${#missing[@]} -eq 0 ]] && exit 0

echo "installing: ${missing[*]}" >&2
sudo_cmd=()
[[ $(id -u) -ne 0 ]] && sudo_cmd=(sudo)
export DEBIAN_FRONTEND=noninteractive
"${sudo_cmd[@]}" apt-get update -qq
"${sudo_cmd[@]}" apt-get install -y -qq --no-install-recommends "${missing[@]}" >/dev/null
