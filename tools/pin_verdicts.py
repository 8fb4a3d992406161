#!/usr/bin/env python3
"""Pins the verdicts of the papers' stated results at the quick scale (issue 33, item 6).

Runs `granular reproduce --quick --max-cost 30` (every result that costs at most 30 s on one core,
the others listed as not measured) and writes what each result's verdict is into
tests/data/stated_verdicts_quick.json: {"<id>": "<verdict>"}, a disagreement with its class
("disagrees (a parameter the paper omits)"). tests/cli/stated_results_test.cpp reruns the same
and demands the same verdicts, and the same set of measured results: a change of the registry or
the engine that moves a verdict must change this file in its own commit, which says why.

    python3 tools/pin_verdicts.py build/granular [--threads N]
"""
import argparse
import json
import os
import subprocess
import sys
import tempfile

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
PIN = os.path.join(ROOT, "tests", "data", "stated_verdicts_quick.json")


def verdict_text(row):
    """A result's verdict as the pin writes it."""
    if row["verdict"] == "disagrees":
        return f"disagrees ({row['class']})"
    return row["verdict"]


def main():
    a = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    a.add_argument("binary")
    a.add_argument("--threads", type=int, default=2)
    args = a.parse_args()
    with tempfile.TemporaryDirectory(prefix="granular_verdicts_") as tmp:
        run = subprocess.run([os.path.abspath(args.binary), "reproduce", "--quick", "--max-cost",
                              "30", "--threads", str(args.threads), "--out", tmp, "--registry",
                              os.path.join(ROOT, "papers", "stated_results.json")],
                             capture_output=True, text=True)
        if run.returncode not in (0, 3):
            sys.exit(f"granular reproduce: exit {run.returncode}\n{run.stderr}")
        with open(os.path.join(tmp, "results.json")) as f:
            report = json.load(f)
    pins = {row["id"]: verdict_text(row) for row in report["results"]}
    with open(PIN, "w") as f:
        json.dump(pins, f, indent=1, ensure_ascii=False, sort_keys=True)
        f.write("\n")
    print(run.stdout.strip().splitlines()[-1])


if __name__ == "__main__":
    main()
