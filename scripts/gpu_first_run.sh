#!/usr/bin/env bash
# The checks of the CUDA path on a GPU machine (docs/gpu-first-run.md), in order: driver check, build, smoke run, the CUDA tests with
# GRANULAR_REQUIRE_CUDA=1 (no CUDA test may skip), CPU-vs-GPU cmp of the CLI's outputs, the
# bench, the whole suite, compute-sanitizer's four tools on the CUDA tests, Nsight Compute on
# the two hot kernels. Stops at the first failure of a correctness step; the timing steps
# follow. Every step has a time limit, so one call fits a short loan. Runs and logs go to
# $GPU_RUN_WORK (/tmp/gpu-run); $OUT (the device tool's folder, which returns a few files only;
# ./gpu-run without it) gets summary.txt, bench.jsonl and logs.tar.gz of every log.
#   scripts/gpu_first_run.sh [--prebuilt] [STEP ...]
#   --prebuilt: run the binaries scripts/pack_gpu_build.sh built (carried), build nothing
#   STEP: driver build smoke cuda-tests cmp bench schedules suite sanitize ncu (the default:
#   all of them; schedules benches build-gpu's granular_bench on every CUDA schedule,
#   include/granular/md/cuda_schedule.hpp), sanitize-grid, variants
#   (build-gpu-var/*/granular_bench beside build-gpu's, built here by
#   scripts/gpu_kernel_variants.sh)
set -uo pipefail
cd "$(dirname "$0")/.."
out=${GPU_RUN_WORK:-/tmp/gpu-run}
back=${OUT:-gpu-run}
mkdir -p "$out" "$back"
build=build-gpu
jobs=$(nproc)
prebuilt=0
steps=()
for a in "$@"; do
  case "$a" in
    --prebuilt) prebuilt=1 ;;
    driver | build | smoke | cuda-tests | cmp | bench | suite | sanitize | sanitize-grid | ncu | \
      schedules | variants)
      steps+=("$a") ;;
    *) echo "gpu_first_run.sh: unknown argument $a" >&2; exit 2 ;;
  esac
done
[[ ${#steps[@]} -eq 0 ]] && steps=(driver build smoke cuda-tests cmp bench schedules suite sanitize ncu)
wants() { [[ " ${steps[*]} " == *" $1 "* ]]; }

pack() {
  cp "$out/summary.txt" "$back/" 2>/dev/null
  [[ -f "$out/bench.jsonl" ]] && cp "$out/bench.jsonl" "$back/"
  [[ -f "$out/variants.jsonl" ]] && cp "$out/variants.jsonl" "$back/"
  [[ -f "$out/schedules.jsonl" ]] && cp "$out/schedules.jsonl" "$back/"
  (cd "$out" && find . -maxdepth 1 -name '*.log' -o -maxdepth 1 -name '*.txt' | tar czf "$back/logs.tar.gz" -T -)
  [[ -d "$out" ]] && for r in "$out"/*.ncu-rep; do [[ -f "$r" ]] && cp "$r" "$back/"; done
}
trap pack EXIT
log() { echo "== [$(date -u +%T)] $*" | tee -a "$out/summary.txt"; }
fail() { log "FAILED: $*"; exit 1; }
cuda_tests='BackendTest/Cuda*:CudaShapeTest/*'
# every CSV of run folder $1 byte-identical in run folder $2 (there must be some)
same_csvs() {
  local files
  files=$(cd "$1" && find . -name '*.csv' | sort)
  [[ -n "$files" ]] || fail "no CSV files in $1"
  for f in $files; do
    cmp "$1/$f" "$2/$f" >> "$out/summary.txt" 2>&1 || fail "$f differs between $1 and $2"
  done
  log "$(echo "$files" | wc -l) CSV files identical: $(echo $files | tr ' ' '\n' | xargs -n1 basename | sort -u | tr '\n' ' ')"
}

log "commit $(git rev-parse --short HEAD 2>/dev/null || echo unknown)$(git diff --quiet 2>/dev/null || echo ' (+ uncommitted changes)')"
if wants driver; then
  nvidia-smi --query-gpu=name,driver_version,memory.total,clocks.max.sm,clocks.max.mem \
    --format=csv,noheader | tee -a "$out/summary.txt" || fail "nvidia-smi"
  (nvcc --version 2>/dev/null | tail -1; nproc; grep -m1 'model name' /proc/cpuinfo) \
    | tee -a "$out/summary.txt"
fi

if [[ $prebuilt == 1 ]]; then
  # the binaries read their sources and the CLI at the paths they were built with
  src=$(cat "$build/source_dir" 2>/dev/null) || fail "no $build/source_dir: carry what scripts/pack_gpu_build.sh built"
  if [[ "$src" != "$PWD" && ! -e "$src" ]]; then
    mkdir -p "$(dirname "$src")" && ln -s "$PWD" "$src" || fail "cannot link $src to $PWD"
  fi
  # the commit the binaries were built from (the checkout here may be another)
  log "prebuilt binaries (sources at $src): $("$build/granular" --version 2>&1)"
elif wants build; then
  deps=()
  if [[ -d .gpu-deps ]]; then
    deps=(-DCMAKE_PREFIX_PATH="$PWD/.gpu-deps" -DGRANULAR_GTEST_SOURCE="$PWD/.gpu-deps/src/googletest"
      -DGRANULAR_GSD_SDIST="$(ls "$PWD"/.gpu-deps/src/gsd-*.tar.gz)")
  fi
  log "build ($build, sm_90, -lineinfo)"
  cmake -S . -B "$build" -DCMAKE_BUILD_TYPE=Release -DGRANULAR_CUDA=ON \
    -DGRANULAR_CUDA_ARCHITECTURES=90 "${deps[@]}" > "$out/configure.log" 2>&1 \
    || fail "configure (see configure.log)"
  cmake --build "$build" -j "$jobs" > "$out/build.log" 2>&1 || fail "build (see build.log)"
fi
tests="$build/tests/granular_tests"

if wants smoke; then
  log "smoke run"
  timeout 60 "$build/granular" run tests/data/good_ensemble.json --backend cuda --force \
    --out "$out/smoke" > "$out/smoke.log" 2>&1 || fail "smoke run (see smoke.log)"
fi

if wants cuda-tests; then
  log "CUDA tests, GRANULAR_REQUIRE_CUDA=1 ($cuda_tests)"
  GRANULAR_REQUIRE_CUDA=1 timeout 180 "$tests" --gtest_filter="$cuda_tests" \
    > "$out/cuda-tests.log" 2>&1 || fail "CUDA tests (see cuda-tests.log)"
  grep -E '^\[  (PASSED|FAILED|SKIPPED) ' "$out/cuda-tests.log" | tee -a "$out/summary.txt"
  grep -q '^\[  SKIPPED \]' "$out/cuda-tests.log" && fail "CUDA tests skipped (see cuda-tests.log)"
fi

if wants cmp; then
  # the demo shortened to 2 s of measurement: the same code paths, a third of the device time
  log "CPU vs GPU outputs of cases/demo_sweep.json (measure_time = 2 s)"
  for backend in cpu cuda; do
    timeout 120 "$build/granular" run cases/demo_sweep.json --set /run/measure_time=2 \
      --backend "$backend" --threads "$jobs" --force --out "$out/demo-$backend" \
      > "$out/demo-$backend.log" 2>&1 || fail "demo on $backend (see demo-$backend.log)"
  done
  same_csvs "$out/demo-cpu" "$out/demo-cuda"
  log "CPU vs GPU: every point's three_disk.csv of the random-vibration scan (0.9 s per point)"
  for backend in cpu cuda; do
    timeout 120 "$build/granular" run cases/three_disk_fig5_8_5_9_random_scan.json \
      --set /run/transient_time=0.2 --set /run/measure_time=0.2 --backend "$backend" \
      --threads "$jobs" --force \
      --out "$out/scan-$backend" > "$out/scan-$backend.log" 2>&1 \
      || fail "three-disk scan on $backend (see scan-$backend.log)"
  done
  same_csvs "$out/scan-cpu" "$out/scan-cuda"
fi

if wants bench; then
  log "bench: 1000 x 60 disks on cuda (both integrators) and on all CPU cores, 1 x 10^6 on cuda"
  bench() { timeout "$1" "$build/granular_bench" "${@:2}" | tee -a "$out/bench.jsonl" >> "$out/summary.txt" \
    || log "bench ${*:2} failed or timed out"; }
  for integrator in velocity_verlet gear5; do
    bench 90 --backend cuda --disks 60 --packings 1000 --integrator "$integrator"
  done
  bench 90 --backend cpu --threads "$jobs" --disks 60 --packings 1000 --steps 5000 --warmup 20000
  bench 150 --backend cuda --disks 1000000 --packings 1 --steps 2000 --warmup 4000
fi

# one bench record of binary $1 on schedule $2, $3 packings of 60 disks, Gear5, into $4.jsonl
# (tagged with the variant's name $5)
bench_schedule() {
  local line
  line=$(timeout 90 "$1" --backend cuda --disks 60 --packings "$3" --integrator gear5 \
    --steps 10000 --warmup 5000 --cuda-schedule "$2" 2>> "$out/$4.log" | tail -1)
  [[ -n $line ]] || { log "$5 on $2 failed ($3 packings; see $4.log)"; return; }
  echo "{\"variant\": \"$5\", \"result\": $line}" | tee -a "$out/$4.jsonl" >> "$out/summary.txt"
}
if wants schedules; then
  # latency (132 packings: one per SM of an H100) and throughput (4 096), docs/performance.md
  log "bench of every CUDA schedule, 60-disk packings, Gear5"
  for packings in 132 4096; do
    for schedule in block block:state block:history warp:1 warp:2 warp:4 warp:8 \
      warp:2:state warp:4:state warp:8:state warp:2:history warp:4:history; do
      bench_schedule "$build/granular_bench" "$schedule" "$packings" schedules build-gpu
    done
  done
fi

if wants suite; then
  # the whole GoogleTest suite in $jobs shards at once (each test is its own process under ctest
  # too, so the tests are safe side by side); the CUDA tests may not skip
  log "the whole suite, $jobs shards, GRANULAR_REQUIRE_CUDA=1"
  pids=()
  for ((i = 0; i < jobs; i++)); do
    GRANULAR_REQUIRE_CUDA=1 GTEST_TOTAL_SHARDS=$jobs GTEST_SHARD_INDEX=$i timeout 240 "$tests" \
      > "$out/suite-$i.log" 2>&1 &
    pids+=($!)
  done
  bad=0
  for pid in "${pids[@]}"; do wait "$pid" || bad=1; done
  cat "$out"/suite-*.log > "$out/suite.log" && rm -f "$out"/suite-*.log
  passed=$(grep -h '^\[  PASSED  \]' "$out/suite.log" | awk '{s += $4} END {print s + 0}')
  # gtest names a failed test twice (when it ends, with its time, and in the closing list)
  failed=$(grep '^\[  FAILED  \] [A-Za-z]' "$out/suite.log" | awk '{print $4}' | sort -u)
  log "suite: $passed tests passed; failed: $(grep -c . <<< "$failed")"
  [[ -n "$failed" ]] && tee -a "$out/summary.txt" <<< "$failed"
  [[ $bad == 0 ]] || log "suite: some tests failed (see suite.log)"
fi

# compute-sanitizer's four tools side by side over the tests of one CUDA path ($1: block or
# grid). The grid path's 15 launches a step run so slowly under a sanitizer that none of its
# tests finished in 200 s on an H200: `sanitize-grid` is not among the default steps. initcheck
# reports reads inside CUB's scan by key, which polls its tile states before they are written,
# by design (NVIDIA/cccl issues 2104, 5327): only reports outside CUB count.
sanitize() {
  local path=$1 filter tool f rc ours cub passed bad=()
  [[ $path == block ]] \
    && filter='BackendTest/Cuda.*:CudaShapeTest/Cuda.*:BackendTest/Cuda_warp_4_state.*' \
    || filter='BackendTest/CudaGridWide.ADriveChanged*:CudaShapeTest/CudaGridWide.ThreeHundredDiskPacking'
  log "compute-sanitizer memcheck, racecheck, synccheck and initcheck on the $path path's tests"
  declare -A job
  for tool in memcheck racecheck synccheck initcheck; do
    timeout 200 compute-sanitizer --tool "$tool" --print-limit 1000 --error-exitcode 9 \
      "$tests" --gtest_filter="$filter" > "$out/sanitizer-$tool-$path.log" 2>&1 &
    job[$tool]=$!
  done
  for tool in memcheck racecheck synccheck initcheck; do
    f="$out/sanitizer-$tool-$path.log"
    wait "${job[$tool]}"
    rc=$?
    ours=$(grep -A1 '^========= [A-Z]' "$f" | grep -c '^=========     at ')
    cub=$(grep -A1 '^========= [A-Z]' "$f" | grep '^=========     at ' | grep -c 'cub::')
    passed=$(grep -c '^\[       OK \]' "$f")
    log "$tool: exit $rc, $passed tests passed, $((ours - cub)) reports outside CUB, $cub in CUB"
    if [[ $rc == 124 ]] || ((ours - cub > 0)) || { [[ $rc != 0 ]] && ((cub == 0)); }; then
      bad+=("$tool")
    fi
  done
  [[ ${#bad[@]} -eq 0 ]] || fail "compute-sanitizer ${bad[*]} on the $path path (see sanitizer-*.log)"
}
wants sanitize && sanitize block
wants sanitize-grid && sanitize grid

if wants ncu; then
  log "Nsight Compute: the block kernel, the warp schedule's and the grid path's force kernel"
  timeout 60 ncu --set full --clock-control none -k regex:advance_kernel -c 1 -o "$out/ncu-block" \
    "$build/granular_bench" --backend cuda --disks 60 --packings 1000 --steps 100 --warmup 0 \
    > "$out/ncu-block.log" 2>&1 || log "ncu on advance_kernel failed (see ncu-block.log)"
  timeout 60 ncu --set full --clock-control none -k regex:advance_warps_kernel -c 1 \
    -o "$out/ncu-warp" "$build/granular_bench" --backend cuda --disks 60 --packings 4096 \
    --steps 100 --warmup 0 --integrator gear5 --cuda-schedule warp:4 \
    > "$out/ncu-warp.log" 2>&1 || log "ncu on advance_warps_kernel failed (see ncu-warp.log)"
  timeout 60 ncu --set full --clock-control none -k regex:forces_kernel -c 1 -o "$out/ncu-grid" \
    "$build/granular_bench" --backend cuda --disks 100000 --packings 1 --steps 20 --warmup 0 \
    > "$out/ncu-grid.log" 2>&1 || log "ncu on forces_kernel failed (see ncu-grid.log)"
  for report in ncu-block ncu-warp ncu-grid; do
    [[ -f "$out/$report.ncu-rep" ]] && ncu --import "$out/$report.ncu-rep" --page details \
      > "$out/$report.txt" 2>&1
  done
fi
if wants variants; then
  # each variant (a register cap, ...) beside build-gpu's own, one after the other on this
  # machine, on the schedules scripts/gpu_kernel_variants.sh named for it (block if none)
  log "bench of the kernel variants in build-gpu-var/ beside $build"
  for packings in 132 4096; do
    for dir in "$build" build-gpu-var/*; do
      [[ -x $dir/granular_bench ]] || continue
      schedules=$(cat "$dir/schedules.txt" 2>/dev/null || echo block)
      for schedule in $schedules; do
        bench_schedule "$dir/granular_bench" "$schedule" "$packings" variants "$(basename "$dir")"
      done
    done
  done
fi
log "done"
