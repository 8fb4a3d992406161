#!/usr/bin/env python3
"""Times granular.read() on a run's folder against numpy.loadtxt of its largest CSV and of all
its CSVs (docs/python.md, "Runs"): the issue's bound is read() within 1.5x of loadtxt.

    python3 tools/check_read_speed.py OUT_DIR [--repeat 3]

Needs the module (make; .venv/bin/python, or pip install .). Prints the best of the repeats."""
import argparse
import os
import time

import numpy as np

import granular


def best(f, repeat):
    times = []
    for _ in range(repeat):
        t = time.perf_counter()
        f()
        times.append(time.perf_counter() - t)
    return min(times)


def main():
    p = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    p.add_argument("out_dir")
    p.add_argument("--repeat", type=int, default=3)
    a = p.parse_args()
    csvs = [os.path.join(a.out_dir, n) for n in sorted(os.listdir(a.out_dir)) if n.endswith(".csv")]
    largest = max(csvs, key=os.path.getsize)
    load = lambda path: np.loadtxt(path, delimiter=",", skiprows=1, comments=None, ndmin=2)
    t_read = best(lambda: granular.read(a.out_dir), a.repeat)
    t_largest = best(lambda: load(largest), a.repeat)
    t_all = best(lambda: [load(c) for c in csvs], a.repeat)
    mb = sum(os.path.getsize(c) for c in csvs) / 1e6
    print(f"{a.out_dir}: {len(csvs)} CSV files, {mb:.1f} MB")
    print(f"granular.read          {t_read:.3f} s")
    print(f"loadtxt of {os.path.basename(largest):12s} {t_largest:.3f} s  "
          f"read/loadtxt {t_read / t_largest:.2f}")
    print(f"loadtxt of every CSV   {t_all:.3f} s  read/loadtxt {t_read / t_all:.2f}")


if __name__ == "__main__":
    main()
