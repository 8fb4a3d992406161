#!/usr/bin/python3
"""Plots one column of a scan's scan.csv against its first scanned key (docs/cases.md, "Scans").

    python3 tools/plot_scan.py OUT COLUMN [--png FILE]

OUT is the scan's output folder; the figure goes to OUT/<COLUMN>_vs_<key>.png unless --png is
given. Rows whose other scanned keys differ become separate curves."""
import argparse
import csv
import os
import sys

import matplotlib

matplotlib.use("Agg")
import matplotlib.pyplot as plt  # noqa: E402


def main():
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("out")
    ap.add_argument("column")
    ap.add_argument("--png")
    a = ap.parse_args()
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
    fig, ax = plt.subplots(figsize=(6, 4))
    for label, pts in curves.items():
        pts.sort()
        ax.plot([p[0] for p in pts], [p[1] for p in pts], "o-", label=label or None)
    ax.set_xlabel(x)
    ax.set_ylabel(a.column)
    ax.axhline(0.0, color="0.7", lw=0.8)
    if any(curves.keys()) and len(curves) > 1:
        ax.legend(fontsize=8)
    fig.tight_layout()
    png = a.png or os.path.join(a.out, f"{a.column}_vs_{x.replace('/', '_')}.png")
    fig.savefig(png, dpi=120)
    print(png)


if __name__ == "__main__":
    main()
