#!/usr/bin/env bash
# Runs the fuzz targets for a bounded time each: scripts/run_fuzz.sh BUILD_DIR SECONDS.
# - case_loader_fuzz: the corpus starts from every shipped case and test case and from 2 000
#   hostile mutants of them (tools/hostile_campaign.py --fuzz-seeds: extreme and rescaled
#   numbers, deep nesting, type swaps, hostile --set arguments, every model);
# - registry_fuzz: registries of stated results, one per entry of papers/stated_results.json;
# - summary_records_fuzz: a shard's summary.json as `granular merge` reads it, from a real
#   shard's and from ones whose file records name files outside the shard.
# Each keeps what libFuzzer adds in BUILD_DIR/fuzz-corpus[-registry|-summary]; a finding (crash,
# sanitizer report, uncaught exception, hang, huge allocation) is saved in
# BUILD_DIR/fuzz-findings/ and fails the script (set -o pipefail: libFuzzer's exit status).
set -euo pipefail
cd "$(dirname "$0")/.."
build=${1:?usage: run_fuzz.sh BUILD_DIR SECONDS}
seconds=${2:?usage: run_fuzz.sh BUILD_DIR SECONDS}
findings="$build/fuzz-findings"
mkdir -p "$findings"

# no leak checks: the targets allocate nothing they do not free, and LeakSanitizer needs ptrace,
# which containers often forbid
export ASAN_OPTIONS=detect_leaks=0 UBSAN_OPTIONS=print_stacktrace=1
fuzz() {  # TARGET CORPUS [libFuzzer options...]
  local target=$1 corpus=$2
  shift 2
  "$build/$target" "$corpus" -max_total_time="$seconds" -rss_limit_mb=4096 \
    -artifact_prefix="$findings/$target-" -print_final_stats=1 "$@" 2>&1 |
    tee "$build/$target.log" | tail -n 40
}

corpus="$build/fuzz-corpus"
mkdir -p "$corpus"
cp cases/*.json tests/data/*.json "$corpus"/
/usr/bin/python3 tools/hostile_campaign.py --fuzz-seeds "$corpus" --validate 2000 --seed 7
# A hang is a unit past 300 s: the slowest valid load found (an event-driven case whose soft wall
# (k_n = 30) makes the single-collision check at u_t/u_n = 1000 bin a 10 km box at every step:
# 0.84 s natively) takes 2 min under the sanitizers and coverage
fuzz case_loader_fuzz "$corpus" -dict=tests/fuzz/case.dict -max_len=100000 -timeout=300

corpus="$build/fuzz-corpus-registry"
mkdir -p "$corpus"
/usr/bin/python3 - "$corpus" <<'PY'
import json, sys
registry = json.load(open("papers/stated_results.json"))
for k, entry in enumerate(registry["results"]):
    one = {"format": 1, "papers": registry["papers"], "results": [entry]}
    open(f"{sys.argv[1]}/entry_{k:03d}.json", "w").write(json.dumps(one))
PY
fuzz registry_fuzz "$corpus" -max_len=100000 -timeout=60

corpus="$build/fuzz-corpus-summary"
mkdir -p "$corpus"
shard=$(mktemp -d)
"$build/granular" run tests/data/good_ensemble.json --out "$shard/s0" --packings 0:1 --threads 1 \
  --set '/snapshots={"packings": [0, 1], "interval": 0.05}' >/dev/null 2>&1
/usr/bin/python3 - "$corpus" "$shard/s0/summary.json" <<'PY'
import json, sys
corpus, path = sys.argv[1:]
text = open(path).read()
open(f"{corpus}/shard.json", "w").write(text)
summary = json.loads(text)
record = summary["files"]["snapshots/packing_0.pvd"]
for k, name in enumerate(["snapshots/../../victim.txt", "/etc/hostname",
                          "snapshots/packing_1.pvd", "notes.txt"]):
    summary["files"][name] = record
    open(f"{corpus}/records_{k}.json", "w").write(json.dumps(summary))
    del summary["files"][name]
PY
rm -rf "$shard"
fuzz summary_records_fuzz "$corpus" -max_len=200000 -timeout=60
