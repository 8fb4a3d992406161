#!/usr/bin/env bash
# The thesis' fig. 3.6 results (cases/thesis_fig3_6_kn1e4.json) at the scales that decide them,
# on a GPU machine with the binaries of scripts/pack_gpu_build.sh (docs/reproduce.md, "Chapter
# 3: which scale decides what"). The runs, one after the other on the device (wall times on one
# H100, 2026-11-28; 58 or 88 packings per Γ keep the block path at its 4 packings per SM):
#   high, high-seed2, high-seed3  Γ = 1 … 10, 58 packings × 20 s each, seeds 1–3: the (Γ − 1)
#                                 exponent, drift-dominated at 20 s (24 s each)
#   low                           Γ = 0.1 … 0.8, 88 packings × 200 s: the Γ^k exponent (267 s)
#   low-t50                       the same Γ, 88 other packings (seed 2) × 50 s: with `low`, the
#                                 split ⟨ω̄²⟩(T) = Ω² + 2D/T (80 s)
#   peak                          Γ = 6 … 29, 88 packings × 60 s: the maximum of ⟨ω̄²⟩(Γ) (45 s)
#   high-gn0.01, high-gn0.5, high-w0.30, high-dt100
#                                 `high` with γn = 0.01 or 0.5 kg/s (e_n ≈ 0.997, 0.85 instead
#                                 of 0.97), a 0.30 m box, dt = t_c/100: the model choices the
#                                 thesis leaves open (25–49 s)
#   peak-gn0.01, peak-gn0.5, peak-w0.30, peak-dt100, peak-seed2, peak-fine
#                                 `peak` with the same model choices, other packings, a finer
#                                 grid (Γ = 10 … 22, seed 3): where the maximum lies within the
#                                 thesis' open choices (one H200: 34–45 s each, dt/2 75 s; not in
#                                 the default list: run them by name)
# Each run is cut by the time left of LIMIT_S; $OUT/ch3.tar.gz gets the summaries, disks.csv,
# angles.csv and logs of every run. The whole list is ~10 min: two calls of the device tool.
#   scripts/ch3_scale_run.sh [RUN ...]   (default: all; env LIMIT_S=560,
#                                         GRANULAR=build-gpu/granular, BACKEND=cuda)
set -uo pipefail
cd "$(dirname "$0")/.."
bin=${GRANULAR:-build-gpu/granular}
backend=${BACKEND:-cuda}
case_file=cases/thesis_fig3_6_kn1e4.json
work=${CH3_WORK:-/tmp/ch3}
back=${OUT:-ch3-run}
limit=${LIMIT_S:-560}
mkdir -p "$work" "$back"
low='[0.1,0.2,0.3,0.5,0.7,0.8]'
high='[1,1.2,1.5,2,3,4,6,8,10]'
peak='[6,8,10,15,20,29]'
started=$(date +%s)
left() { echo $((limit - ($(date +%s) - started))); }
# NAME GAMMAS PACKINGS TRANSIENT WINDOW [--set ...]: one run on the device
device_run() {
  local name=$1 gammas=$2 packings=$3 transient=$4 window=$5
  shift 5
  (($(left) > 5)) || { echo "$name: no time left"; return; }
  timeout -s TERM "$(left)" "$bin" run "$case_file" --backend "$backend" --threads 2 \
    --out "$work/$name" --quiet --force --checkpoint-interval 0 --set /drive/gamma="$gammas" \
    --set /ensemble/packings_per_gamma="$packings" --set /run/transient_time="$transient" \
    --set /run/measure_time="$window" "$@" > "$work/$name.log" 2>&1
  echo "$name: exit $? after $(($(date +%s) - started)) s"
}
one() {
  case "$1" in
    high) device_run high "$high" 58 2 20 ;;
    high-seed2) device_run high-seed2 "$high" 58 2 20 --set /seed=2 ;;
    high-seed3) device_run high-seed3 "$high" 58 2 20 --set /seed=3 ;;
    low) device_run low "$low" 88 10 200 ;;
    low-t50) device_run low-t50 "$low" 88 10 50 --set /seed=2 ;;
    peak) device_run peak "$peak" 88 2 60 ;;
    peak-gn0.01 | peak-gn0.5) device_run "$1" "$peak" 88 2 60 --set /contact/disk_disk/gamma_n="${1#peak-gn}" \
      --set /contact/disk_wall/gamma_n="${1#peak-gn}" ;;
    peak-w0.30) device_run peak-w0.30 "$peak" 88 2 60 --set /packing/box_width=0.30 ;;
    peak-seed2) device_run peak-seed2 "$peak" 88 2 60 --set /seed=2 ;;
    peak-dt100) device_run peak-dt100 "$peak" 88 2 60 --set /integrator/steps_per_collision=100 ;;
    peak-fine) device_run peak-fine '[10,12,14,16,18,22]' 88 2 60 --set /seed=3 ;;
    high-gn0.01) device_run high-gn0.01 "$high" 58 2 20 --set /contact/disk_disk/gamma_n=0.01 \
      --set /contact/disk_wall/gamma_n=0.01 ;;
    high-gn0.5) device_run high-gn0.5 "$high" 58 2 20 --set /contact/disk_disk/gamma_n=0.5 \
      --set /contact/disk_wall/gamma_n=0.5 ;;
    high-w0.30) device_run high-w0.30 "$high" 58 2 20 --set /packing/box_width=0.30 ;;
    high-dt100) device_run high-dt100 "$high" 58 2 20 --set /integrator/steps_per_collision=100 ;;
    *) echo "ch3_scale_run.sh: unknown run $1" >&2; exit 2 ;;
  esac
}
runs=("$@")
((${#runs[@]})) || runs=(high high-seed2 high-seed3 low low-t50 peak high-gn0.01 high-gn0.5
  high-w0.30 high-dt100)
for r in "${runs[@]}"; do one "$r"; done
(cd "$work" && find . -name summary.json -o -name disks.csv -o -name angles.csv -o -name '*.log' |
  tar czf "$back/ch3.tar.gz" -T -)
ls -la "$back"
