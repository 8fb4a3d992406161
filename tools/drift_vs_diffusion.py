#!/usr/bin/env python3
"""How much of ⟨ω̄²⟩ is drift and how much is the angle's diffusion (issue 33, item 5).

The thesis' ⟨ω̄²⟩ is the mean over disks of ω̄² = ((θ(t0 + T) − θ(t0)) / T)². A disk that turns
at a steady rate Ω while its angle also diffuses with coefficient D gives ⟨ω̄²⟩(T) = Ω² + 2D/T:
over a short measurement the diffusion adds a bias that falls as 1/T. This reads one run's
angles.csv (`outputs.angles`, sampled every `run.sample_interval`; it holds the first packing
of every Γ, so several runs with different seeds pool their packings), cuts each disk's θ(t) into
non-overlapping windows of several lengths T, and fits, packing by packing, ⟨ω̄²⟩(T) = a + b/T by
least squares over the windows: a estimates the drift's ⟨Ω²⟩, b = 2⟨D⟩. It prints per Γ the
mean over packings of a and b with their standard errors (over packings), and the share of
⟨ω̄²⟩ the diffusion makes at the measurement times that matter (20 s: the quick scale; 1 000 s:
the thesis).

With --reference T_REF (a window every packing has, e.g. the whole 1 000 s) it also prints, per
Γ, how far each shorter window's ⟨ω̄²⟩ lies above the T_REF one, and how far the T_REF value lies
above a + b/T_REF fitted to the shorter windows alone: paired over the same packings, as shares
of the T_REF value, so the packings' own spread cancels.

    python3 tools/drift_vs_diffusion.py RUN_DIR... [--windows 1,2,5,10,20,40,80] [--reference T]
"""
import argparse
import csv
import math
import os
import sys
from collections import defaultdict


def mean_se(xs):
    n = len(xs)
    m = sum(xs) / n
    if n < 2:
        return m, float("nan")
    return m, math.sqrt(sum((x - m) ** 2 for x in xs) / (n - 1) / n)


def fit_a_plus_b_over_t(ts, ms):
    """Least-squares a, b of m = a + b/T."""
    xs = [1.0 / t for t in ts]
    n = len(xs)
    mx, my = sum(xs) / n, sum(ms) / n
    sxx = sum((x - mx) ** 2 for x in xs)
    b = sum((x - mx) * (y - my) for x, y in zip(xs, ms)) / sxx
    return my - b * mx, b


def main():
    p = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    p.add_argument("run_dirs", nargs="+", metavar="RUN_DIR")
    p.add_argument("--windows", default="1,2,5,10,20,40,80",
                   help="window lengths T in seconds (those longer than the run are skipped)")
    p.add_argument("--reference", type=float, metavar="T_REF",
                   help="compare every shorter window, and the fit over them, with this one")
    args = p.parse_args()
    theta = defaultdict(list)  # (gamma, run, packing, disk) -> [(t, θ)]
    for run, folder in enumerate(args.run_dirs):
        path = os.path.join(folder, "angles.csv")
        if not os.path.exists(path):
            sys.exit(f"{path}: no such file (the case needs outputs.angles)")
        with open(path) as f:
            for row in csv.DictReader(f):
                theta[(float(row["gamma"]), run, int(row["packing"]), int(row["disk"]))].append(
                    (float(row["t"]), float(row["theta"])))
    series = next(iter(theta.values()))
    dt = (series[-1][0] - series[0][0]) / (len(series) - 1)
    span = series[-1][0] - series[0][0]
    windows = [float(w) for w in args.windows.split(",") if float(w) <= span * (1 + 1e-9)]
    if len(windows) < 2:
        sys.exit(f"{args.run_dirs[0]}: the run spans {span:.3g} s, too short for two windows")

    # per packing: ⟨ω̄²⟩ over its disks and windows, for each window length
    per_packing = defaultdict(lambda: defaultdict(list))  # (gamma, run, packing) -> T -> [ω̄²]
    for (gamma, run, packing, _), s in theta.items():
        s.sort()
        for w in windows:
            n = max(1, round(w / dt))
            for k in range(0, len(s) - n, n):
                d = (s[k + n][1] - s[k][1]) / (s[k + n][0] - s[k][0])
                per_packing[(gamma, run, packing)][w].append(d * d)

    by_gamma = defaultdict(list)  # gamma -> [(a, b, {T: m})]
    for (gamma, _, _), m_of_t in sorted(per_packing.items()):
        ts = [w for w in windows if m_of_t[w]]
        ms = [sum(m_of_t[w]) / len(m_of_t[w]) for w in ts]
        a, b = fit_a_plus_b_over_t(ts, ms)
        by_gamma[gamma].append((a, b, dict(zip(ts, ms))))

    print(f"{', '.join(args.run_dirs)}: windows {', '.join(f'{w:g}' for w in windows)} s "
          f"(θ sampled every {dt:.3g} s over {span:.4g} s)")
    print("Γ  packings  " + "  ".join(f"⟨ω̄²⟩({w:g} s)" for w in windows) +
          "  ⟨Ω²⟩ = a  2⟨D⟩ = b  diffusion share at 20 s, 1000 s")
    for gamma, rows in sorted(by_gamma.items()):
        cells = []
        for w in windows:
            m, se = mean_se([r[2][w] for r in rows if w in r[2]])
            cells.append(f"{m:.4g} ± {se:.2g}")
        a, a_se = mean_se([r[0] for r in rows])
        b, b_se = mean_se([r[1] for r in rows])
        share = [b / t / (a + b / t) if a + b / t > 0 else float("nan") for t in (20.0, 1000.0)]
        print(f"{gamma:g}  {len(rows)}  " + "  ".join(cells) +
              f"  {a:.4g} ± {a_se:.2g}  {b:.4g} ± {b_se:.2g}  {share[0]:.1%}, {share[1]:.2%}")
    if args.reference:
        paired_against_reference(by_gamma, windows, args.reference)


def paired_against_reference(by_gamma, windows, ref):
    """Per Γ: each shorter window's ⟨ω̄²⟩ above the reference window's, and the reference above
    a + b/ref fitted to the shorter windows, paired over packings, as shares of the reference."""
    shorter = [w for w in windows if w < ref]
    if ref not in windows or len(shorter) < 2:
        sys.exit(f"--reference {ref:g}: needs that window and two shorter ones")
    for gamma, rows in sorted(by_gamma.items()):
        rows = [r[2] for r in rows if ref in r[2] and all(w in r[2] for w in shorter)]
        if not rows:  # no packing at this Γ ran as long as the reference window
            print(f"Γ = {gamma:g}: no packing has the {ref:g} s window")
            continue
        scale = sum(m[ref] for m in rows) / len(rows)
        parts = []
        for w in shorter:
            d, se = mean_se([(m[w] - m[ref]) / scale for m in rows])
            parts.append(f"{w:g} s {d:+.1%} ± {se:.1%}")
        fits = [fit_a_plus_b_over_t(shorter, [m[w] for w in shorter]) for m in rows]
        d, se = mean_se([(m[ref] - a - b / ref) / scale for m, (a, b) in zip(rows, fits)])
        print(f"Γ = {gamma:g}, {len(rows)} packings, above the {ref:g} s window: " + ", ".join(parts) +
              f"; the {ref:g} s window above a + b/T fitted to the shorter ones: {d:+.1%} ± {se:.1%}")


if __name__ == "__main__":
    main()
