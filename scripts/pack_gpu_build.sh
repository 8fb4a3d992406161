#!/usr/bin/env bash
# Builds here, where build time costs no device time, what scripts/gpu_first_run.sh --prebuilt
# runs on a GPU machine: the CLI, the bench and the test binary with the CUDA backend for sm_90,
# for any x86-64 (GRANULAR_NATIVE=OFF: the GPU machine's processor is not this one), without
# MPI or the Python module (that machine has neither OpenMPI nor the venv). The tests find the
# sources and the CLI by the absolute paths compiled into them; build-gpu/source_dir records
# them so that the GPU machine can link its checkout there. docs/gpu-first-run.md says what to
# carry.
set -euo pipefail
cd "$(dirname "$0")/.."
scripts/install_deps.sh
build=build-gpu
cmake -S . -B "$build" -DCMAKE_BUILD_TYPE=Release -DGRANULAR_CUDA=ON \
  -DGRANULAR_CUDA_ARCHITECTURES=90 -DGRANULAR_NATIVE=OFF -DGRANULAR_MPI=OFF \
  -DGRANULAR_PYTHON=OFF > /dev/null
cmake --build "$build" -j "$(nproc)" --target granular granular_bench granular_tests
pwd > "$build/source_dir"
du -ch "$build/granular" "$build/granular_bench" "$build/tests/granular_tests" | tail -1
