#!/usr/bin/env python3
"""Measures `granular validate`'s wall-time estimate against the run it estimates, on an idle
machine or under an artificial load (docs/outputs.md, "Estimates").

    python3 tools/check_estimate.py build/granular cases/demo_sweep.json --threads 2 [--load 5]
        [--nice 10] [--estimates 6] [--set POINTER=VALUE ...]

--load N starts N busy processes (a pure-Python loop each) for the whole measurement: with
--threads 2 on 2 cores, a load of 5 in `uptime`'s sense. --nice N runs granular (its estimates
and its run) at niceness N beside them, as a background job on a shared workstation. Prints
each estimate with its band, the measured wall time of one run, and the ratios; exits 1 when an
estimate is off by more than the issue's bounds (2x idle, 3x loaded or niced). A measurement, not a test: the suite asserts no timing.
"""
import argparse
import json
import multiprocessing
import os
import re
import subprocess
import sys
import tempfile
import time

UNITS = {"s": 1.0, "min": 60.0, "h": 3600.0, "days": 86400.0}
LINE = re.compile(r"^estimate: about (\S+) (s|min|h|days) of wall time .*, (\S+) (s|min|h|days) "
                  r"to (\S+) (s|min|h|days)$", re.M)


def busy():
    while True:
        pass


def estimate(cli, case, args, nice):
    out = subprocess.run([cli, "validate", case, *args], check=True, capture_output=True,
                         text=True, preexec_fn=lambda: os.nice(nice)).stdout
    m = LINE.search(out)
    if not m:
        sys.exit(f"no estimate line in:\n{out}")
    v = [float(m.group(i)) * UNITS[m.group(i + 1)] for i in (1, 3, 5)]
    return {"wall_time": v[0], "low": v[1], "high": v[2]}


def main():
    p = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    p.add_argument("cli")
    p.add_argument("case")
    p.add_argument("--threads", type=int, default=2)
    p.add_argument("--load", type=int, default=0, help="busy processes beside the run")
    p.add_argument("--nice", type=int, default=0, help="granular's niceness")
    p.add_argument("--estimates", type=int, default=6, help="validate calls")
    p.add_argument("--set", action="append", default=[], metavar="POINTER=VALUE")
    a = p.parse_args()
    args = ["--threads", str(a.threads)]
    for s in a.set:
        args += ["--set", s]

    load = [multiprocessing.Process(target=busy, daemon=True) for _ in range(a.load)]
    for q in load:
        q.start()
    try:
        time.sleep(1.0 if load else 0.0)  # let the scheduler spread the load
        estimates = [estimate(a.cli, a.case, args, a.nice) for _ in range(a.estimates)]
        with tempfile.TemporaryDirectory() as out:
            subprocess.run([a.cli, "run", a.case, *args, "--out", out, "--force", "--quiet"],
                           check=True, stdout=subprocess.DEVNULL,
                           preexec_fn=lambda: os.nice(a.nice))
            with open(os.path.join(out, "summary.json")) as f:
                measured = json.load(f)["wall_time_s"]
    finally:
        for q in load:
            q.terminate()

    bound = 3.0 if a.load or a.nice else 2.0
    print(f"{a.case}, {a.threads} thread(s), load {a.load} busy process(es), nice {a.nice}, "
          f"{os.cpu_count()} cores")
    print(f"measured run: {measured:.1f} s")
    worst = 1.0
    for e in estimates:
        ratio = e["wall_time"] / measured
        worst = max(worst, ratio, 1.0 / ratio)
        inside = e["low"] <= measured <= e["high"]
        print(f"estimate {e['wall_time']:8.1f} s  band {e['low']:.1f}-{e['high']:.1f} s  "
              f"estimate/measured {ratio:5.2f}  {'run inside the band' if inside else ''}")
    print(f"worst factor {worst:.2f} (bound {bound:g})")
    sys.exit(0 if worst <= bound else 1)


if __name__ == "__main__":
    main()
