#!/usr/bin/env bash
# The first run of the CUDA path on a GPU machine (docs/gpu-first-run.md), in order, with every
# log under $OUT (or ./gpu-run): driver check, build with -lineinfo, smoke run, the whole suite
# with GRANULAR_REQUIRE_CUDA=1 (no CUDA test may skip), compute-sanitizer's four tools on the
# CUDA backend tests, CPU-vs-GPU cmp of the CLI's outputs, the bench, Nsight Compute on the
# block kernel. Stops at the first failure of a correctness step; the timing steps follow.
#   scripts/gpu_first_run.sh [quick]   (quick: no sanitizers, no ncu)
set -uo pipefail
cd "$(dirname "$0")/.."
out=${OUT:-gpu-run}
mkdir -p "$out"
quick=${1:-}
build=build-gpu
jobs=$(nproc)
log() { echo "== $*" | tee -a "$out/summary.txt"; }
fail() { log "FAILED: $*"; exit 1; }

log "commit $(git rev-parse --short HEAD 2>/dev/null || echo unknown), $(date -u +%FT%TZ)"
nvidia-smi --query-gpu=name,driver_version,memory.total --format=csv,noheader \
  | tee -a "$out/summary.txt" || fail "nvidia-smi"
nvcc --version | tail -1 | tee -a "$out/summary.txt"

deps=()
if [[ -d .gpu-deps ]]; then
  deps=(-DCMAKE_PREFIX_PATH="$PWD/.gpu-deps" -DGRANULAR_GTEST_SOURCE="$PWD/.gpu-deps/src/googletest")
fi
log "build ($build, sm_90, -lineinfo)"
cmake -S . -B "$build" -DCMAKE_BUILD_TYPE=Release -DGRANULAR_CUDA=ON \
  -DGRANULAR_CUDA_ARCHITECTURES=90 "${deps[@]}" > "$out/configure.log" 2>&1 \
  || fail "configure (see configure.log)"
cmake --build "$build" -j "$jobs" > "$out/build.log" 2>&1 || fail "build (see build.log)"

log "smoke run"
"$build/granular" run tests/data/good_ensemble.json --backend cuda --force --out "$out/smoke" \
  > "$out/smoke.log" 2>&1 || fail "smoke run (see smoke.log)"

log "tests, GRANULAR_REQUIRE_CUDA=1"
(cd "$build" && GRANULAR_REQUIRE_CUDA=1 ctest --output-on-failure -j 8) > "$out/ctest.log" 2>&1 \
  || fail "ctest (see ctest.log)"
grep -q "did not run" "$out/ctest.log" && fail "tests skipped (see ctest.log)"

if [[ "$quick" != quick ]]; then
  for tool in memcheck racecheck synccheck initcheck; do
    log "compute-sanitizer --tool $tool"
    compute-sanitizer --tool "$tool" --error-exitcode 9 "$build/tests/granular_tests" \
      --gtest_filter='BackendTest/1.*:BackendTest/2.*:CudaShapeTest/*' \
      > "$out/sanitizer-$tool.log" 2>&1 || fail "compute-sanitizer $tool (see sanitizer-$tool.log)"
  done
fi

log "CPU vs GPU outputs of cases/demo_sweep.json"
"$build/granular" run cases/demo_sweep.json --backend cpu --force --out "$out/demo-cpu" > /dev/null 2>&1
"$build/granular" run cases/demo_sweep.json --backend cuda --force --out "$out/demo-cuda" > /dev/null 2>&1
for f in disks.csv angles.csv energy.csv; do
  cmp "$out/demo-cpu/$f" "$out/demo-cuda/$f" >> "$out/summary.txt" 2>&1 \
    && log "$f identical" || log "$f DIFFERS"
done

log "bench: 1000 x 60 disks (both integrators), then 1 x 10^6 disks"
for integrator in velocity_verlet gear5; do
  timeout 300 "$build/granular_bench" --backend cuda --disks 60 --packings 1000 \
    --integrator "$integrator" | tee -a "$out/bench.jsonl" >> "$out/summary.txt" \
    || log "bench 1000 x 60 $integrator failed or timed out"
done
# the advancing-front construction of 10^6 disks takes minutes on the host (it is O(N^2))
timeout 900 "$build/granular_bench" --backend cuda --disks 1000000 --packings 1 --steps 2000 \
  --warmup 4000 | tee -a "$out/bench.jsonl" >> "$out/summary.txt" \
  || log "bench 1 x 10^6 failed or timed out"

if [[ "$quick" != quick ]]; then
  log "Nsight Compute: the block kernel and the grid path's force kernel"
  ncu --set full -k regex:advance_kernel -c 1 -o "$out/ncu-block" \
    "$build/granular_bench" --backend cuda --disks 60 --packings 1000 --steps 100 \
    > "$out/ncu-block.log" 2>&1 || log "ncu on advance_kernel failed (see ncu-block.log)"
  ncu --set full -k regex:forces_kernel -c 1 -o "$out/ncu-grid" \
    "$build/granular_bench" --backend cuda --disks 1000000 --packings 1 --steps 20 \
    > "$out/ncu-grid.log" 2>&1 || log "ncu on forces_kernel failed (see ncu-grid.log)"
fi
log "done"
