#!/usr/bin/python3
"""Plots one column of a scan's scan.csv against its first scanned key (docs/cases.md, "Scans").

    python3 tools/plot_scan.py OUT COLUMN [--output FILE] [--format png|pdf|svg]
                               [--width single|double|INCHES]

OUT is the scan's output folder; the figure goes to OUT/<COLUMN>_vs_<key>.<format> unless
--output (or its older name --png) is given. Rows whose other scanned keys differ become
separate curves; the title names the column, the key and the scanned case."""
import argparse
import csv
import json
import os
import sys

import matplotlib

matplotlib.use("Agg")
import matplotlib.pyplot as plt  # noqa: E402

import figure_style as style  # noqa: E402  (the script's own folder is on sys.path)


def scanned_case(out):
    """The case the scan ran (its summary.json), or {}."""
    try:
        with open(os.path.join(out, "summary.json")) as f:
            return json.load(f).get("case", {})
    except (OSError, ValueError):
        return {}


def main():
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("out")
    ap.add_argument("column")
    style.add_arguments(ap)
    a = ap.parse_args()
    style.apply(a)
    with open(os.path.join(a.out, "scan.csv")) as f:
        rows = list(csv.DictReader(f))
    if not rows:
        sys.exit("scan.csv has no rows")
    header = list(rows[0].keys())
    keys = header[: header.index("status")] if "status" in header else header[:1]
    if a.column not in header:
        sys.exit(f"no column {a.column!r}; columns: {', '.join(header)}")
    x, others = keys[0], keys[1:]
    curves = {}
    for r in rows:
        label = ", ".join(f"{k} = {r[k]}" for k in others)
        try:
            curves.setdefault(label, []).append((float(r[x]), float(r[a.column])))
        except ValueError:
            continue  # a point without that number
    fig, ax = plt.subplots(figsize=style.figsize(0.7))
    for label, pts in curves.items():
        pts.sort()
        ax.plot([p[0] for p in pts], [p[1] for p in pts], "o-", label=label or None)
    ax.set_xlabel(x)
    ax.set_ylabel(a.column)
    ax.axhline(0.0, color="0.7", lw=0.8)
    if any(curves.keys()) and len(curves) > 1:
        ax.legend()
    style.title(ax, f"{a.column} vs {x}", style.case_subtitle(scanned_case(a.out)))
    style.finish(fig, a, os.path.join(a.out, f"{a.column}_vs_{x.replace('/', '_')}"))


if __name__ == "__main__":
    main()
