#!/usr/bin/python3
"""Plot <omega_bar^2> [RPM^2] vs Gamma of a packing_ensemble run (docs/outputs.md).

usage: /usr/bin/python3 tools/plot_sweep.py OUT_DIR
Reads OUT_DIR/summary.json, writes OUT_DIR/omega2_vs_gamma.png (log-log, standard errors as
error bars) with the thesis' MD slopes as dashed guides (spec ch2-3 §6): Gamma^3.85 below
Gamma = 1 and Gamma^1 above, each anchored at the data point nearest to Gamma = 1 on its side.
"""
import json
import math
import pathlib
import sys

import matplotlib

matplotlib.use("Agg")
import matplotlib.pyplot as plt  # noqa: E402

RPM2_PER_RAD2_S2 = (60.0 / (2.0 * math.pi)) ** 2


def main(out_dir):
    out = pathlib.Path(out_dir)
    s = json.loads((out / "summary.json").read_text())
    # keep the Γ with a finite, positive ⟨ω̄²⟩ (null: no healthy packing)
    rows = [(g, w, e) for g, w, e in zip(s["gamma_values"], s["mean_sq_omega_rpm2"],
                                         s["mean_sq_omega_stderr"])
            if g and w is not None and w > 0.0]
    if not rows:
        sys.exit(f"{out / 'summary.json'}: no Gamma with a positive <omega_bar^2>")
    gamma = [r[0] for r in rows]
    w2 = [r[1] for r in rows]
    err = [(r[2] or 0.0) * RPM2_PER_RAD2_S2 for r in rows]

    fig, ax = plt.subplots(figsize=(6, 4.5))
    ax.errorbar(gamma, w2, yerr=err, fmt="o-", capsize=3, label="MD")
    # reference slopes, anchored at the data point nearest to Γ = 1 on each side
    below = [(g, w) for g, w in zip(gamma, w2) if g <= 1.0]
    above = [(g, w) for g, w in zip(gamma, w2) if g >= 1.0]
    for slope, side, pts in ((3.85, "below", below), (1.0, "above", above)):
        if len(pts) < 2:
            continue
        g0, w0 = min(pts, key=lambda p: abs(math.log(p[0])))
        xs = [pts[0][0], pts[-1][0]]
        ax.plot(xs, [w0 * (x / g0) ** slope for x in xs], "k--", lw=1,
                label=f"guide: $\\Gamma^{{{slope:g}}}$ ({side} 1)")
    ax.set_xscale("log")
    ax.set_yscale("log")
    ax.set_xlabel(r"$\Gamma$")
    ax.set_ylabel(r"$\langle \bar\omega^2 \rangle$ [RPM$^2$]")
    ax.set_title(f"{s.get('packings_per_gamma', '?')} packings per $\\Gamma$")
    ax.legend()
    fig.tight_layout()
    fig.savefig(out / "omega2_vs_gamma.png", dpi=120)


if __name__ == "__main__":
    if len(sys.argv) != 2:
        sys.exit(__doc__)
    main(sys.argv[1])
