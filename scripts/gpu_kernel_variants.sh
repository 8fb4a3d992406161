#!/usr/bin/env bash
# Builds here, for a GPU loan, variants of the block kernel to bench side by side: each a copy of
# kernels/cuda_backend.cu edited by a sed expression (its launch bounds, a register cap, ...),
# compiled with build-gpu's CUDA flags and linked with build-gpu's link line into
# build-gpu-var/<name>/granular_bench. Prints each variant's registers and spills (ptxas).
# `scripts/gpu_first_run.sh --prebuilt variants` then benches every variant beside build-gpu's
# own bench on one machine (carry build-gpu-var too). Needs scripts/pack_gpu_build.sh first.
#   scripts/gpu_kernel_variants.sh NAME='SED' [NAME='SED' ...]
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
[[ $# -gt 0 ]] || { echo "usage: scripts/gpu_kernel_variants.sh NAME='SED' ..." >&2; exit 2; }
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
  grep -A3 "Compiling entry function '.*advance_kernel" "$dir/ptxas.txt" \
    | grep -E "spill|Used" | sed "s/^ptxas info *: //; s/^ */$name: /" | tee "$dir/registers.txt"
done
