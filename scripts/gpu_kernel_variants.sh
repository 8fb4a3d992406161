#!/usr/bin/env bash
# Builds here, for a GPU loan, variants of the block path's kernels to bench side by side: each
# a copy of kernels/cuda_backend.cu edited by a sed expression (its launch bounds, a register
# cap, ...), compiled with build-gpu's CUDA flags and linked with build-gpu's link line into
# build-gpu-var/<name>/granular_bench. Prints each variant's registers and spills (ptxas).
# `scripts/gpu_first_run.sh --prebuilt variants` then benches every variant beside build-gpu's
# own bench on one machine (carry build-gpu-var too), on the CUDA schedules named in SCHEDULES
# (block if unset). Needs scripts/pack_gpu_build.sh first. Without arguments it builds the
# prepared candidates (below).
#   [SCHEDULES='warp:4 ...'] scripts/gpu_kernel_variants.sh [NAME='SED' ...]
#   e.g. scripts/gpu_kernel_variants.sh cap128='s/kMinBlocks = 1;/kMinBlocks = 2;/'
set -euo pipefail
cd "$(dirname "$0")/.."
root=$PWD
build=$root/build-gpu
out=$root/build-gpu-var
[[ -f $build/CMakeFiles/granular_bench.dir/link.txt ]] || {
  echo "gpu_kernel_variants.sh: no $build: run scripts/pack_gpu_build.sh first" >&2
  exit 2
}
if [[ $# -eq 0 ]]; then
  # the warp schedule's kernel capped at 128 and at 80 registers a thread (16 and 25 resident
  # packings an SM instead of 12), on its resident-heavy schedules
  SCHEDULES='warp:4 warp:8 warp:8:state' "$0" \
    warp-cap128='s/kWarpMinBlocks = 1;/kWarpMinBlocks = 2;/' \
    warp-cap80='s/kWarpMinBlocks = 1;/kWarpMinBlocks = 3;/'
  exit
fi
flags_make=$build/CMakeFiles/granular_physics.dir/flags.make
defines=$(sed -n 's/^CUDA_DEFINES = //p' "$flags_make")
flags=$(sed -n 's/^CUDA_FLAGS = //p' "$flags_make")
nvcc=$(sed -n 's/^CMAKE_CUDA_COMPILER:[A-Z]*=//p' "$build/CMakeCache.txt")
for spec in "$@"; do
  name=${spec%%=*}
  expr=${spec#*=}
  dir=$out/$name
  rm -rf "$dir" && mkdir -p "$dir/obj"
  sed "$expr" kernels/cuda_backend.cu > "$dir/cuda_backend.cu"
  if cmp -s kernels/cuda_backend.cu "$dir/cuda_backend.cu"; then
    echo "$name: the expression changes nothing" >&2
    exit 2
  fi
  diff kernels/cuda_backend.cu "$dir/cuda_backend.cu" > "$dir/diff.txt" || true
  (cd "$build" && $nvcc -forward-unknown-to-host-compiler $defines \
    --options-file CMakeFiles/granular_physics.dir/includes_CUDA.rsp $flags -I"$root/kernels" \
    --resource-usage -x cu -c "$dir/cuda_backend.cu" -o "$dir/obj/cuda_backend.cu.o" \
    2> "$dir/ptxas.txt")
  cp "$build/libgranular_physics.a" "$dir/libgranular_physics.a"
  (cd "$dir/obj" && ar r "$dir/libgranular_physics.a" cuda_backend.cu.o)
  link=$(sed "s#libgranular_physics.a#$dir/libgranular_physics.a#; s#-o granular_bench#-o $dir/granular_bench#" \
    "$build/CMakeFiles/granular_bench.dir/link.txt")
  (cd "$build" && eval "$link")
  rm -rf "$dir/obj" "$dir/libgranular_physics.a"
  echo "${SCHEDULES:-block}" > "$dir/schedules.txt"
  grep -A3 "Compiling entry function '.*advance_\(warps_\)\?kernel" "$dir/ptxas.txt" \
    | grep -E "entry|spill|Used" | sed -E "s/^ptxas info *: //; s/^ */$name: /; \
      s/.*(advance_(warps_)?kernel)ILNS0_12TileContentsE([0-9]).* for '(sm_[0-9]+)'.*/$name: \1<\3> \4/" \
    | tee "$dir/registers.txt"
done
