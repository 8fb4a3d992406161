#!/usr/bin/env bash
# Runs the case-loader fuzz target for a bounded time: scripts/run_fuzz.sh BUILD_DIR SECONDS.
# The corpus starts from every shipped case and test case and from 2 000 hostile mutants of
# them (tools/hostile_campaign.py --fuzz-seeds: extreme and rescaled numbers, deep nesting,
# type swaps, hostile --set arguments, every model), and keeps what libFuzzer adds, in
# BUILD_DIR/fuzz-corpus; a finding (crash, sanitizer report, uncaught exception, hang, huge
# allocation) is saved in BUILD_DIR/fuzz-findings/ and fails the script.
set -euo pipefail
cd "$(dirname "$0")/.."
build=${1:?usage: run_fuzz.sh BUILD_DIR SECONDS}
seconds=${2:?usage: run_fuzz.sh BUILD_DIR SECONDS}
corpus="$build/fuzz-corpus"
findings="$build/fuzz-findings"
mkdir -p "$corpus" "$findings"
cp cases/*.json tests/data/*.json "$corpus"/
/usr/bin/python3 tools/hostile_campaign.py --fuzz-seeds "$corpus" --validate 2000 --seed 7
# no leak checks: the loader allocates nothing it does not free, and LeakSanitizer needs ptrace,
# which containers often forbid. A hang is a unit past 300 s: the slowest valid load found (an
# event-driven case whose soft wall (k_n = 30) makes the single-collision check at u_t/u_n = 1000
# bin a 10 km box at every step: 0.84 s natively) takes 2 min under the sanitizers and coverage
ASAN_OPTIONS=detect_leaks=0 UBSAN_OPTIONS=print_stacktrace=1 \
  "$build/case_loader_fuzz" "$corpus" -dict=tests/fuzz/case.dict \
  -max_total_time="$seconds" -max_len=100000 -timeout=300 -rss_limit_mb=4096 \
  -artifact_prefix="$findings/" -print_final_stats=1 2>&1 | tee "$build/fuzz.log" | tail -n 60
