#!/usr/bin/env python3
"""What the billiard's two missing inputs do to its stated results (issue 33, item 4).

The paper (Halev & Kalinin) gives neither the drive amplitude A nor the height of the ceiling
that closes the container, although its fig. 4 shows ceiling hits (docs/billiard.md). The cases
fix A = 2.54 cm (calibrated on the parabola's 7.5 cm orbit) and a 15 cm ceiling. This runs a case
over a grid of A and ceiling heights and prints, per point, what the registry's entries measure
on the last 1 000 of N collisions: the smallest period p ≤ 20 with max |h(n+p) − h(n)| ≤ 1e-6 m
("irregular" when none), the largest collision height, the share of ceiling hits, the share of
return-map points above the diagonal (all of them, as the registry counts) and the number of
cells of the (q2/q2,max, u4/u4,max) plane visited (50 × 50 grid, as the registry's fig. 7 entry).

    python3 tools/billiard_sensitivity.py build/granular cases/billiard_wedge_6p6hz.json \\
        --amplitude 0.02,0.0254,0.03 --ceiling 0.15,0.2 [--collisions 5000]
"""
import argparse
import csv
import os
import subprocess
import sys
import tempfile


def floats(text):
    return [float(x) for x in text.split(",")]


def measure(folder):
    with open(os.path.join(folder, "collisions.csv")) as f:
        rows = list(csv.DictReader(f))
    tail = rows[-1000:]
    h = [float(r["height"]) for r in tail]
    period = next((p for p in range(1, 21)
                   if max(abs(h[i + p] - h[i]) for i in range(len(h) - p)) <= 1e-6), None)
    ceiling = sum(r["surface"] == "ceiling" for r in tail) / len(tail)
    with open(os.path.join(folder, "return_map.csv")) as f:
        pairs = list(csv.DictReader(f))
    above = sum(float(r["height_n1"]) > float(r["height_n"]) for r in pairs) / len(pairs)
    cells = {(int(float(r["norm_height"]) * 50 // 1), int((float(r["norm_u_t"]) + 1) * 25 // 1))
             for r in tail}
    return period, max(h), ceiling, above, len(cells)


def main():
    p = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    p.add_argument("binary")
    p.add_argument("case")
    p.add_argument("--amplitude", type=floats, required=True, help="A values [m], comma-separated")
    p.add_argument("--ceiling", type=floats, required=True, help="ceiling heights [m]")
    p.add_argument("--collisions", type=int, default=5000)
    args = p.parse_args()
    print(f"{args.case}, {args.collisions} collisions; the last 1 000 measured")
    print("ceiling [m]  A [m]  period  max height [m]  ceiling hits  above diagonal  cells")
    with tempfile.TemporaryDirectory(prefix="granular_billiard_") as tmp:
        for ceiling in args.ceiling:
            for a in args.amplitude:
                run = subprocess.run(
                    [args.binary, "run", args.case, "--out", tmp, "--force",
                     "--set", f"/drive/amplitude={a}", "--set", f"/boundary/ceiling_height={ceiling}",
                     "--set", f"/run/collisions={args.collisions}"],
                    capture_output=True, text=True)
                if run.returncode != 0:
                    sys.exit(f"granular run: exit {run.returncode}\n{run.stderr}")
                period, top, hits, above, cells = measure(tmp)
                print(f"{ceiling:g}  {a:g}  {period or 'irregular'}  {top:.4f}  {hits:.1%}  "
                      f"{above:.3f}  {cells}", flush=True)


if __name__ == "__main__":
    main()
