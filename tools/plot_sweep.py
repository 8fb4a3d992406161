#!/usr/bin/python3
"""Plot <omega_bar^2> [RPM^2] vs Gamma of a packing_ensemble run (docs/outputs.md).

usage: /usr/bin/python3 tools/plot_sweep.py OUT_DIR [--format png|pdf|svg]
                                            [--width single|double|INCHES] [--output FILE]
Reads OUT_DIR/summary.json, writes OUT_DIR/omega2_vs_gamma.<format> (log-log, standard errors
as error bars) with the thesis' MD slopes as guides (spec ch2-3 §6): Gamma^3.85 below Gamma = 1
(dashed) and Gamma^1 above (dotted), each anchored at the data point nearest to Gamma = 1 on its
side, with its exponent in the legend.
"""
import argparse
import json
import math
import pathlib
import sys

import matplotlib

matplotlib.use("Agg")
import matplotlib.pyplot as plt  # noqa: E402

import figure_style as style  # noqa: E402  (the script's own folder is on sys.path)

RPM2_PER_RAD2_S2 = (60.0 / (2.0 * math.pi)) ** 2

# The thesis' MD slopes: (exponent, side of Γ = 1, line style, colour, SVG id). Two styles and
# colours, so that the legend tells them apart in print and in grey.
GUIDES = ((3.85, "below", "--", "C3", "guide_low_gamma"),
          (1.0, "above", ":", "C2", "guide_high_gamma"))


def draw(s):
    """The figure of summary s."""
    # keep the Γ with a finite, positive ⟨ω̄²⟩ (null: no healthy packing)
    rows = [(g, w, e) for g, w, e in zip(s["gamma_values"], s["mean_sq_omega_rpm2"],
                                         s["mean_sq_omega_stderr"])
            if g and w is not None and w > 0.0]
    if not rows:
        return None
    gamma = [r[0] for r in rows]
    w2 = [r[1] for r in rows]
    err = [(r[2] or 0.0) * RPM2_PER_RAD2_S2 for r in rows]

    fig, ax = plt.subplots(figsize=style.figsize(0.8))
    ax.errorbar(gamma, w2, yerr=err, fmt="o-", color="C0", label="MD (this run)")
    # reference slopes, anchored at the data point nearest to Γ = 1 on each side
    for slope, side, ls, colour, gid in GUIDES:
        pts = [(g, w) for g, w in zip(gamma, w2) if (g <= 1.0 if side == "below" else g >= 1.0)]
        if len(pts) < 2:
            continue
        g0, w0 = min(pts, key=lambda p: abs(math.log(p[0])))
        xs = [pts[0][0], pts[-1][0]]
        relation = r"\leq" if side == "below" else r"\geq"
        ax.plot(xs, [w0 * (x / g0) ** slope for x in xs], ls=ls, color=colour, lw=1.2, gid=gid,
                label=f"∝ $\\Gamma^{{{slope:g}}}$ ($\\Gamma {relation} 1$, thesis MD)")
    ax.set_xscale("log")
    ax.set_yscale("log")
    style.readable_log_axes(ax)
    ax.set_xlabel(r"vibration intensity $\Gamma$")
    ax.set_ylabel(r"$\langle \bar\omega^2 \rangle$ [RPM$^2$]")
    detail = style.case_subtitle(s.get("case"))
    packings = f"{s.get('packings_per_gamma', '?')} packings per $\\Gamma$"
    detail = f"{detail}; {packings}" if detail else packings
    style.title(ax, "Mean square rotation rate vs vibration intensity", detail)
    handles, labels = ax.get_legend_handles_labels()
    first = sorted(range(len(labels)), key=lambda i: not labels[i].startswith("MD"))  # data
    ax.legend([handles[i] for i in first], [labels[i] for i in first])
    fig.tight_layout()
    return fig


def main():
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("out_dir", help="output folder of a packing_ensemble run")
    style.add_arguments(ap)
    a = ap.parse_args()
    style.apply(a)
    out = pathlib.Path(a.out_dir)
    fig = draw(json.loads((out / "summary.json").read_text()))
    if fig is None:
        sys.exit(f"{out / 'summary.json'}: no Gamma with a positive <omega_bar^2>")
    path, fmt = style.target(a, out / "omega2_vs_gamma")
    style.save(fig, path, fmt)


if __name__ == "__main__":
    main()
