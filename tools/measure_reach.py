#!/usr/bin/env python3
"""Measures how fast, how high and how deep into a wall the disks of a packing ensemble go, beside
the bounds a checkpoint's state is checked against (docs/outputs.md, "What a checkpoint's state
may hold"; include/granular/md/reach.hpp):

    .venv/bin/python tools/measure_reach.py CASE GAMMAS SECONDS [--packings K] [--every N]

runs CASE's first K packings (default 2) of each Γ of GAMMAS (comma-separated) through the
settling, the transient and SECONDS of measurement, looks at every disk every N steps (default
20), and prints per packing the largest |v|, rim speed |ω| R, height y and wall overlap seen, each
as a fraction of its bound (granular.Ensemble.reach): a fraction near 1 says the bound is tight.
"""
import argparse
import sys

import numpy as np

import granular


def main():
    a = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    a.add_argument("case")
    a.add_argument("gammas", help="comma-separated Γ values")
    a.add_argument("seconds", type=float, help="measurement time [s]")
    a.add_argument("--packings", type=int, default=2, help="packings per Γ")
    a.add_argument("--every", type=int, default=20, help="steps between looks")
    args = a.parse_args()
    gammas = [float(g) for g in args.gammas.split(",")]
    case = granular.load_case(args.case, set={"/drive/gamma": gammas,
                                              "/ensemble/packings_per_gamma": args.packings,
                                              "/run/measure_time": args.seconds})
    e = granular.Ensemble(case, threads=1)
    echo = case.echo
    width = echo["packing"]["box_width"]
    f = echo["drive"]["frequency"]
    s = e.schedule
    total = s["settle_steps"] + s["transient_steps"] + s["measure_chunks"] * s["sample_steps"]
    seen = [dict(speed=0.0, rim=0.0, height=-np.inf, overlap=0.0) for _ in range(e.n_packings)]
    while e.step < total:
        e.advance(min(args.every, total - e.step))
        for p in range(e.n_packings):
            if e.status(p) != "ok":
                continue
            x, v = e.positions(p), e.velocities(p)
            r, w = e.radii(p), e.angular_velocities(p)
            # the bottom wall's height now: y_b = A sin(ω t) once the drive has started
            amplitude = e.gammas[p] * echo["gravity"] / (2 * np.pi * f) ** 2
            y_b = amplitude * np.sin(2 * np.pi * f * e.time) if e.time > 0 else 0.0
            q = seen[p]
            q["speed"] = max(q["speed"], float(np.max(np.hypot(v[:, 0], v[:, 1]))))
            q["rim"] = max(q["rim"], float(np.max(np.abs(w) * r)))
            q["height"] = max(q["height"], float(np.max(x[:, 1])))
            overlap = np.maximum.reduce([r - x[:, 0], r - (width - x[:, 0]), r - (x[:, 1] - y_b)])
            q["overlap"] = max(q["overlap"], float(np.max(overlap)))
    for p in range(e.n_packings):
        b, q = e.reach(p), seen[p]
        print(f"{args.case} Γ = {e.gammas[p]:g} packing {p} ({e.status(p)}): "
              f"|v| {q['speed']:.3g} m/s = {q['speed'] / b['speed']:.3f} V, "
              f"|ω|R {q['rim']:.3g} m/s = {q['rim'] / b['speed']:.3f} V "
              f"(V = {b['speed']:.3g} m/s), y {q['height']:.3g} m = "
              f"{q['height'] / b['height']:.3f} of {b['height']:.3g} m, wall overlap "
              f"{q['overlap']:.3g} m = {q['overlap'] / b['overlap']:.3f} of {b['overlap']:.3g} m",
              flush=True)
    return 0


if __name__ == "__main__":
    sys.exit(main())
