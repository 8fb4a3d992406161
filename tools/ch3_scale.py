#!/usr/bin/env python3
"""The thesis' fig. 3.6 exponents from the runs of scripts/ch3_scale_run.sh (issue 33, item 5).

Reads the runs' summary.json (per packing and disk ω̄; packings with a status flag left out) and
prints, per Γ, ⟨ω̄²⟩ with its standard error over packings, then the thesis' fits with two
standard errors: the least-squares line's and a bootstrap over packings (each Γ's packings
resampled, 2 000 draws), which carries the points' own scatter:

  low   the slope of log⟨ω̄²⟩ vs log Γ over Γ ≤ 0.8 (the thesis: 3.85)
  high  the slope of log(⟨ω̄²⟩ − ω_c) vs log(Γ − 1) over 1 < Γ < 10, ω_c = ⟨ω̄²⟩(Γ = 1) (0.99)
  split two low runs with different windows T1 > T2 (independent packings): per Γ the drift Ω²
        and 2D of ⟨ω̄²⟩(T) = Ω² + 2D/T, the slope at the thesis' 1 000 s window and the drift's

Several folders given to low or high pool their packings (runs with different seeds).

    python3 tools/ch3_scale.py high RUN [RUN ...]
    python3 tools/ch3_scale.py low RUN [RUN ...]
    python3 tools/ch3_scale.py split RUN_T1 RUN_T2
"""
import json
import math
import random
import sys

from drift_vs_diffusion import mean_se  # the script's own folder is on sys.path


def load(folder):
    """(measure_time, {Γ: [per-packing mean of ω̄² over its disks]}) of one run."""
    with open(f"{folder}/summary.json") as f:
        s = json.load(f)
    by = {}
    for p in s["packings"]:
        if p["status"] == "ok":
            w = p["omega_bar"]
            by.setdefault(p["gamma"], []).append(sum(x * x for x in w) / len(w))
    return s["case"]["run"]["measure_time"], by


def pooled(folders):
    by = {}
    for folder in folders:
        for g, v in load(folder)[1].items():
            by.setdefault(g, []).extend(v)
    return by


def sd(xs):
    m = sum(xs) / len(xs)
    return math.sqrt(sum((x - m) ** 2 for x in xs) / (len(xs) - 1))


def slope(x, y):
    """Least-squares slope and its standard error."""
    n = len(x)
    mx, my = sum(x) / n, sum(y) / n
    sxx = sum((a - mx) ** 2 for a in x)
    b = sum((a - mx) * (c - my) for a, c in zip(x, y)) / sxx
    res = sum((c - my - b * (a - mx)) ** 2 for a, c in zip(x, y))
    return b, math.sqrt(res / (n - 2) / sxx) if n > 2 else math.nan


def fit(kind, gs, ms):
    if kind == "low":
        sel = [i for i, g in enumerate(gs) if 0 < g <= 0.8]
        return slope([math.log(gs[i]) for i in sel], [math.log(ms[i]) for i in sel])
    wc = ms[gs.index(1.0)]
    sel = [i for i, g in enumerate(gs) if 1 < g < 10]
    return slope([math.log(gs[i] - 1) for i in sel], [math.log(ms[i] - wc) for i in sel])


def resample(rnd, by):
    return {g: [rnd.choice(v) for _ in v] for g, v in by.items()}


def means(by, gs):
    return [sum(by[g]) / len(by[g]) for g in gs]


def exponent(kind, folders):
    by = pooled(folders)
    gs = sorted(by)
    for g in gs:
        m, se = mean_se(by[g])
        print(f"Γ = {g:g}: {len(by[g])} packings, ⟨ω̄²⟩ = {m:.4g} ± {se:.2g} rad²/s²")
    b, se = fit(kind, gs, means(by, gs))
    rnd = random.Random(1)
    draws = [fit(kind, gs, means(resample(rnd, by), gs))[0] for _ in range(2000)]
    print(f"{kind} exponent {b:.3f}: line SE {se:.3f}, bootstrap over packings ±{sd(draws):.3f}")


def split(long_folder, short_folder):
    t1, b1 = load(long_folder)
    t2, b2 = load(short_folder)
    gs = sorted(g for g in b1 if g in b2 and 0 < g <= 0.8)

    def parts(r1, r2):
        m1, m2 = means(r1, gs), means(r2, gs)
        drift = [(t1 * a - t2 * b) / (t1 - t2) for a, b in zip(m1, m2)]
        two_d = [(b - a) * t1 * t2 / (t1 - t2) for a, b in zip(m1, m2)]
        return drift, two_d

    drift, two_d = parts(b1, b2)
    for g, o, d in zip(gs, drift, two_d):
        share = [d / t / (o + d / t) for t in (20.0, t1, 1000.0)]
        print(f"Γ = {g:g}: Ω² = {o:.3g}, 2D = {d:.3g} rad²/s; diffusion's share of ⟨ω̄²⟩ at "
              f"20 s, {t1:g} s, 1 000 s: " + ", ".join(f"{x:.0%}" for x in share))
    lg = [math.log(g) for g in gs]

    def slopes(drift, two_d):
        at_1000 = [o + d / 1000.0 for o, d in zip(drift, two_d)]
        s_drift = slope(lg, [math.log(o) for o in drift])[0] if min(drift) > 0 else math.nan
        return slope(lg, [math.log(m) for m in at_1000])[0], s_drift

    s1000, sdrift = slopes(drift, two_d)
    rnd = random.Random(2)
    draws = [slopes(*parts(resample(rnd, b1), resample(rnd, b2))) for _ in range(2000)]
    d1000 = [a for a, _ in draws]
    ddrift = [b for _, b in draws if not math.isnan(b)]
    print(f"slope at 1 000 s {s1000:.3f} ± {sd(d1000):.3f}; the drift's {sdrift:.3f} ± "
          f"{sd(ddrift):.3f} (bootstrap over packings; {len(ddrift)} of 2000 draws with Ω² > 0)")


def main():
    if len(sys.argv) < 3 or sys.argv[1] not in ("low", "high", "split"):
        sys.exit(__doc__)
    if sys.argv[1] == "split":
        if len(sys.argv) != 4:
            sys.exit(__doc__)
        split(sys.argv[2], sys.argv[3])
    else:
        exponent(sys.argv[1], sys.argv[2:])


if __name__ == "__main__":
    main()
