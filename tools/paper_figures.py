#!/usr/bin/python3
"""Plots the host impact models' paper figures from `granular run` outputs (docs/figures.md).

    python3 tools/paper_figures.py MODEL FIG OUT [OUT ...] [--output FILE] [--window T0 T1]
                                   [--format png|pdf|svg] [--width single|double|INCHES]

MODEL is pendulum, billiard, prism or dimer; FIG is the paper's figure number, or a name for a
plot the paper does not have (pendulum: phase, impacts; prism: kappa). Each OUT is the output
folder of a `granular run` of the case docs/figures.md names for that figure; several folders
give several curves (or panels). The figure goes to OUT/<MODEL>_fig<FIG>.<format> of the first
folder unless --output (or its older name --png) is given; --width sets it for a journal column
(docs/figures.md). --window limits the time axis of time plots. A folder that does not hold
what the figure needs gets a one-line error naming what it should hold."""
import argparse
import csv
import json
import math
import os
import sys

import matplotlib

matplotlib.use("Agg")
import matplotlib.pyplot as plt  # noqa: E402

import figure_style as style  # noqa: E402  (the script's own folder is on sys.path)

MARKERS = ["o", "v", "^", "s", "D", "P", "X", "*", "<", ">"]


class FigureError(Exception):
    pass


# ---------------------------------------------------------------- reading outputs


def number(text):
    try:
        return float(text)
    except (TypeError, ValueError):
        return math.nan


def read_run(out, model, files, hint):
    """summary.json of OUT (checked to be a run of `model`) and the rows of each CSV in files,
    as {"summary": ..., name: {column: [values]}} (numbers as floats, text kept as text)."""
    if not os.path.isdir(out):
        raise FigureError(f"{out}: no such folder")
    try:
        with open(os.path.join(out, "summary.json")) as f:
            summary = json.load(f)
    except (OSError, ValueError) as e:
        raise FigureError(f"{out}: no readable summary.json ({e.__class__.__name__}); "
                          f"not the output folder of a granular run ({hint})")
    if summary.get("model") != model:
        raise FigureError(f"{out}: a run of model {summary.get('model')!r}; this figure needs a "
                          f"{model} run ({hint})")
    run = {"summary": summary, "case": summary.get("case", {}), "dir": out}
    for name in files:
        path = os.path.join(out, name)
        if not os.path.isfile(path):
            raise FigureError(f"{out}: no {name} ({hint})")
        with open(path) as f:
            rows = list(csv.DictReader(f))
        if not rows:
            raise FigureError(f"{path}: no rows")
        cols = {}
        for key in rows[0]:
            vals = [r[key] for r in rows]
            nums = [number(v) for v in vals]
            cols[key] = vals if all(math.isnan(x) for x in nums) and any(vals) else nums
        run[name] = cols
    return run


def window(t, ys, win):
    """(t, each of ys) restricted to win = (t0, t1), or unchanged when win is None."""
    if win is None:
        return t, ys
    keep = [i for i, x in enumerate(t) if win[0] <= x <= win[1]]
    if not keep:
        raise FigureError(f"no samples in the window {win[0]} .. {win[1]} s")
    return [t[i] for i in keep], [[y[i] for i in keep] for y in ys]


def get(case, path, default=None):
    for part in path.strip("/").split("/"):
        if not isinstance(case, dict) or part not in case:
            return default
        case = case[part]
    return case


# ---------------------------------------------------------------- pendulum
# Sypniewska-Kamińska, Starosta & Awrejcewicz (2017): black without friction, red with it.

PENDULUM_HINT = "cases/pendulum_mu0.json, cases/pendulum_mu015.json"


def pendulum_runs(outs):
    runs = [read_run(o, "pendulum", ["pendulum.csv"], PENDULUM_HINT) for o in outs]
    for k, r in enumerate(runs):
        mu = get(r["case"], "/obstacle/mu", 0.0)
        r["label"] = f"μ = {mu:g}"
        r["color"] = ("k" if mu == 0 else "r") if len(runs) <= 2 else f"C{k % 10}"
    return runs


def pendulum_phase(outs, win):
    """Phase portraits: ψ1 vs ψ̇1 and ψ2 vs ψ̇2 (not wrapped), impacts' states marked."""
    fig, axes = plt.subplots(1, 2, figsize=style.figsize(0.42, columns=2))
    for r in pendulum_runs(outs):
        c = r["pendulum.csv"]
        t, (p1, w1, p2, w2) = window(c["t"], [c["psi1"], c["omega1"], c["psi2"], c["omega2"]],
                                     win)
        for ax, p, w in ((axes[0], p1, w1), (axes[1], p2, w2)):
            ax.plot(p, w, "-", color=r["color"], lw=0.8, label=r["label"])
        imp = [i for i in r["summary"].get("impacts", [])
               if win is None or win[0] <= i["t"] <= win[1]]
        for ax, phi, w in ((axes[0], "phi1", "omega1"), (axes[1], "phi2", "omega2")):
            ax.plot([i[phi] for i in imp], [i[w + "_before"] for i in imp], "o", ms=4,
                    mfc="none", mec=r["color"])
            ax.plot([i[phi] for i in imp], [i[w + "_after"] for i in imp], "o", ms=4,
                    color=r["color"])
        axes[0].plot([p1[0]], [w1[0]], "s", color="0.5")
        axes[1].plot([p2[0]], [w2[0]], "s", color="0.5")
    for ax, k in zip(axes, "12"):
        ax.set_xlabel(f"ψ{k} [rad]")
        ax.set_ylabel(f"ψ̇{k} [rad/s]")
        style.title(ax, "Phase portrait of " + ("the rod OA" if k == "1" else
                                                "body 2 (rod and disk)"),
                    "open/full circles before/after impacts, square the start")
    axes[0].legend()
    return fig


def pendulum_impacts(outs, win):
    """The impact sequence: E (Fig. 5), ψ̇1 (Fig. 6) and ψ̇2 (Fig. 7) against t, with the
    values before (open) and after (full) each impact; impacts numbered on the top panel."""
    fig, axes = plt.subplots(3, 1, figsize=style.figsize(1.0, columns=2), sharex=True)
    runs = pendulum_runs(outs)
    for r in runs:
        c = r["pendulum.csv"]
        t, (e, w1, w2) = window(c["t"], [c["energy"], c["omega1"], c["omega2"]], win)
        imp = [i for i in r["summary"].get("impacts", [])
               if win is None or win[0] <= i["t"] <= win[1]]
        for ax, y, key in ((axes[0], e, "energy"), (axes[1], w1, "omega1"),
                           (axes[2], w2, "omega2")):
            ax.plot(t, y, "-", color=r["color"], lw=0.9, label=r["label"])
            ti = [i["t"] for i in imp]
            ax.plot(ti, [i[key + "_before"] for i in imp], "o", ms=4, mfc="none",
                    mec=r["color"])
            ax.plot(ti, [i[key + "_after"] for i in imp], "o", ms=4, color=r["color"])
        for n, i in enumerate(imp):
            axes[0].annotate(str(n + 1), (i["t"], i["energy_after"]), fontsize="small",
                             color=r["color"], xytext=(2, -9), textcoords="offset points")
    axes[0].set_ylabel("E [J] (Fig. 5)")
    axes[1].set_ylabel("ψ̇1 [rad/s] (Fig. 6)")
    axes[2].set_ylabel("ψ̇2 [rad/s] (Fig. 7)")
    axes[2].set_xlabel("t [s]")
    axes[0].legend(title=", ".join(
        f"{r['label']}: {r['summary'].get('impact_count')} impacts" for r in runs))
    style.title(axes[0], "Impact sequence: E, ψ̇1 and ψ̇2 vs t",
                "impacts: open before, full after")
    return fig


def pendulum_forces(cols, labels, caption):
    def draw(outs, win):
        fig, axes = plt.subplots(len(cols), 1, figsize=style.figsize(len(cols) / 3, columns=2),
                                 sharex=True)
        for r in pendulum_runs(outs):
            c = r["pendulum.csv"]
            t, ys = window(c["t"], [c[k] for k in cols], win)
            for ax, y in zip(axes, ys):
                ax.plot(t, y, "-", color=r["color"], lw=0.8, label=r["label"])
        for ax, lab in zip(axes, labels):
            ax.set_ylabel(lab)
        axes[-1].set_xlabel("t [s]")
        axes[0].legend()
        style.title(axes[0], caption)
        return fig
    return draw


def pendulum_series(col, label, caption):
    def draw(outs, win):
        fig, ax = plt.subplots(figsize=style.figsize(0.44, columns=2))
        for r in pendulum_runs(outs):
            c = r["pendulum.csv"]
            t, (y,) = window(c["t"], [c[col]], win)
            ax.plot(t, y, "-", color=r["color"], lw=0.9, label=r["label"])
        ax.set_xlabel("t [s]")
        ax.set_ylabel(label)
        style.title(ax, caption)
        ax.legend()
        return fig
    return draw


# ---------------------------------------------------------------- billiard (Hartl et al. 2011)

BILLIARD_HINT = "cases/billiard_*.json"


def billiard_label(r):
    c = r["case"]
    return (f"{get(c, '/boundary/shape')}, {get(c, '/drive/frequency'):g} Hz "
            f"({len(r['collisions.csv']['n'])} collisions)")


def billiard_return_maps(outs, win):
    """Figs. 4 (and 6): collision heights q2,n+1 vs q2,n (left) and times of flight
    t_n+1 vs t_n (right), one row per folder. --window keeps impacts with n in [T0, T1]."""
    runs = [read_run(o, "billiard", ["return_map.csv", "collisions.csv"], BILLIARD_HINT)
            for o in outs]
    fig, axes = plt.subplots(len(runs), 2, figsize=style.figsize(4 * len(runs) / 9, columns=2),
                             squeeze=False)
    for row, r in zip(axes, runs):
        m = r["return_map.csv"]
        n, (h0, h1, f0, f1) = window(m["n"], [m["height_n"], m["height_n1"], m["flight_n"],
                                              m["flight_n1"]], win)
        row[0].plot([x * 100 for x in h0], [x * 100 for x in h1], ".", ms=2, color="k")
        row[0].set_xlabel("q2,n [cm]")
        row[0].set_ylabel("q2,n+1 [cm]")
        row[1].plot(f0, f1, ".", ms=2, color="k")
        row[1].set_xlabel("t_n [s] (time of flight)")
        row[1].set_ylabel("t_n+1 [s]")
        for ax in row:
            style.title(ax, "Return map of the " + ("collision heights" if ax is row[0]
                                                    else "times of flight"),
                        billiard_label(r))
            ax.set_aspect("equal", adjustable="datalim")
    return fig


def billiard_fig7(outs, win):
    """Fig. 7: normalised collision height q2/q2,max vs normalised tangential velocity
    u4/u4,max, one panel per folder."""
    runs = [read_run(o, "billiard", ["collisions.csv"], BILLIARD_HINT) for o in outs]
    cols = min(2, len(runs))
    nrow = (len(runs) + cols - 1) // cols
    fig, axes = plt.subplots(nrow, cols, figsize=style.figsize(0.84 * nrow / cols, columns=cols),
                             squeeze=False)
    for ax, r in zip(axes.flat, runs):
        c = r["collisions.csv"]
        n, (u, h) = window(c["n"], [c["norm_u_t"], c["norm_height"]], win)
        ax.plot(u, h, ".", ms=2, color="k")
        ax.set_xlabel("u4/u4,max")
        ax.set_ylabel("q2/q2,max")
        style.title(ax, "Collision height vs tangential velocity", billiard_label(r))
    for ax in list(axes.flat)[len(runs):]:
        ax.set_visible(False)
    return fig


# ---------------------------------------------------------------- prism (Zhao, Liu & Ma 2014)

PRISM_HINT = "cases/prism_fig*.json"


def prism_runs(outs, files):
    runs = [read_run(o, "prism", files, PRISM_HINT) for o in outs]
    for r in runs:
        c = r["case"]
        lab = f"N = {get(c, '/prism/n_sides')}"
        rho = get(c, "/prism/density")
        if rho is not None and len({get(x['case'], '/prism/density') for x in runs}) > 1:
            lab += {7850.0: ", steel", 2700.0: ", aluminium"}.get(rho, f", ρ = {rho:g}")
        if get(c, "/impact/model") == "point":
            lab += ", point impact"
        if len({get(x["case"], "/ramp/mu_s") for x in runs}) > 1:
            lab += f", μs = {get(c, '/ramp/mu_s'):g}"
        r["label"] = lab
    return runs


def prism_gauges(outs, win):
    """Figs. 5 and 7: the gauged points' velocities v_p1 = −θ̇h1 and v_p2 = −θ̇h2 vs t (one
    colour per gauge and folder)."""
    fig, ax = plt.subplots(figsize=style.figsize(0.5, columns=2))
    for k, r in enumerate(prism_runs(outs, ["rolling.csv"])):
        c = r["rolling.csv"]
        if "v_p1" not in c:
            raise FigureError(f"{r['dir']}: rolling.csv has no v_p1 (a case without gauges; "
                              f"cases/prism_fig5_n22.json, cases/prism_fig7_*.json)")
        t, (v1, v2) = window(c["t"], [c["v_p1"], c["v_p2"]], win)
        h1, h2 = get(r["case"], "/gauges/h1"), get(r["case"], "/gauges/h2")
        ax.plot(t, [v * 1e3 for v in v1], "-", color=f"C{2 * k}", lw=0.8,
                label=f"{r['label']}: v_p1 (h1 = {h1 * 1e3:g} mm)")
        ax.plot(t, [v * 1e3 for v in v2], "-", color=f"C{2 * k + 1}", lw=0.8,
                label=f"{r['label']}: v_p2 (h2 = {h2 * 1e3:g} mm)")
    ax.set_xlabel("t [s]")
    ax.set_ylabel("gauge velocity [mm/s]")
    style.title(ax, "Gauge velocities vs t")
    ax.legend()
    return fig


def prism_omega(outs, win):
    """Fig. 6: the rotary velocity −θ̇ (positive rolling downhill) vs t, one line per folder."""
    fig, ax = plt.subplots(figsize=style.figsize(0.5, columns=2))
    for k, r in enumerate(prism_runs(outs, ["rolling.csv"])):
        c = r["rolling.csv"]
        t, (w,) = window(c["t"], [c["theta_dot"]], win)
        ax.plot(t, [-x for x in w], "-", color=f"C{k}", lw=0.8,
                label=f"{r['label']}, λ0 = {get(r['case'], '/release/lambda0_deg'):g}°")
    ax.set_xlabel("t [s]")
    ax.set_ylabel(r"$-\dot\theta$ [rad/s]")
    style.title(ax, "Rotary velocity vs t")
    ax.legend()
    return fig


def prism_lp(outs, win):
    """Figs. 8 and 9: the line-impact count L_p vs t, one line per folder."""
    fig, ax = plt.subplots(figsize=style.figsize(0.625, columns=2))
    runs = prism_runs(outs, ["rolling.csv"])
    runs.sort(key=lambda r: get(r["case"], "/prism/n_sides", 0))
    for k, r in enumerate(runs):
        c = r["rolling.csv"]
        t, (lp,) = window(c["t"], [c["lp"]], win)
        ax.plot(t, lp, "-", color=f"C{k}", lw=1, label=r["label"])
    beta = sorted({get(r["case"], "/ramp/slope_deg") for r in runs})
    mus = sorted({get(r["case"], "/ramp/mu_s") for r in runs})
    style.title(ax, "Line impacts L_p vs t", f"β = {', '.join(f'{b:g}' for b in beta)}°, "
                f"μs = {', '.join(f'{m:g}' for m in mus)}")
    ax.set_xlabel("t [s]")
    ax.set_ylabel("L_p")
    ax.legend()
    return fig


def prism_kappa(outs, win):
    """Not a paper figure: κ = θ̇⁺/θ̇⁻ of each folder's impacts vs N (mean and range), with the
    classic rigid point impact's κ_c (summary's kappa_classic) for comparison."""
    runs = prism_runs(outs, ["impacts.csv"])
    fig, ax = plt.subplots(figsize=style.figsize(0.64, columns=2))
    pts = {}
    for r in runs:
        n = get(r["case"], "/prism/n_sides")
        model = get(r["case"], "/impact/model", "line")
        ks = [k for k in r["impacts.csv"]["kappa"] if math.isfinite(k)]
        if not ks:
            raise FigureError(f"{r['dir']}: impacts.csv has no impacts")
        pts.setdefault(model, []).append((n, sum(ks) / len(ks), min(ks), max(ks)))
        pts.setdefault("classic", []).append((n, r["summary"]["kappa_classic"], None, None))
    styles = {"line": ("o-", "C0", "line impact (run: mean, bars min–max)"),
              "point": ("s-", "C1", "point impact (run)"),
              "classic": (":", "k", "κ_c, rigid point impact (closed form)")}
    for model, p in pts.items():
        p = sorted(set(p))
        fmt, col, lab = styles[model]
        ax.plot([x[0] for x in p], [x[1] for x in p], fmt, color=col, label=lab)
        if model != "classic":
            ax.errorbar([x[0] for x in p], [x[1] for x in p],
                        yerr=[[max(0.0, x[1] - x[2]) for x in p],
                              [max(0.0, x[3] - x[1]) for x in p]], fmt="none",
                        ecolor=col, capsize=3)
    ax.set_xlabel("N")
    ax.set_ylabel(r"$\kappa = \dot\theta^+/\dot\theta^-$")
    style.title(ax, "Impact ratio κ vs number of sides N")
    ax.legend()
    return fig


# ---------------------------------------------------------------- dimer (Zhao, Liu & Brogliato 2009)

DIMER_HINT = "cases/dimer_fig*.json"


def dimer_runs(outs):
    runs = []
    for o in outs:
        if os.path.isfile(os.path.join(o, "sweep.csv")) and \
                not os.path.isfile(os.path.join(o, "dimer.csv")):
            raise FigureError(f"{o}: a sweep folder (sweep.csv); this figure needs a single run "
                              f"({DIMER_HINT} other than dimer_fig11_sweep.json)")
        r = read_run(o, "dimer", ["dimer.csv"], DIMER_HINT)
        c = r["case"]
        r["label"] = (f"Ar = {get(c, '/dimer/aspect_ratio'):g}, f = "
                      f"{get(c, '/plate/frequency'):g} Hz, Γ = {get(c, '/plate/gamma'):g}")
        runs.append(r)
    return runs


def dimer_vertical(outs, win):
    """Figs. 3, 6, 12, 13, 15-20: the heights of the left (full) and right (dashed) contact
    points (plate position + gap) and the plate (thin dotted), one panel per folder."""
    runs = dimer_runs(outs)
    fig, axes = plt.subplots(len(runs), 1, figsize=style.figsize(0.4 * len(runs), columns=2),
                             squeeze=False)
    for ax, r in zip(axes[:, 0], runs):
        c = r["dimer.csv"]
        t, (yp, gl, gr) = window(c["t"], [c["y_plate"], c["gap_left"], c["gap_right"]], win)
        ax.plot(t, [(a + b) * 1e3 for a, b in zip(yp, gl)], "-", color="k", lw=0.9,
                label="left tip")
        ax.plot(t, [(a + b) * 1e3 for a, b in zip(yp, gr)], "--", color="C3", lw=0.9,
                label="right tip")
        ax.plot(t, [a * 1e3 for a in yp], ":", color="0.5", lw=0.7, label="plate")
        ax.set_ylabel("vertical position [mm]")
        style.title(ax, "Heights of the tips and the plate",
                    f"{r['label']}: {r['summary'].get('motion')}")
        ax.legend(loc="upper right")
    axes[-1, 0].set_xlabel("t [s]")
    return fig


def dimer_tangential(outs, win):
    """Figs. 4 and 7: the slip velocities v_t of the left (full) and right (dashed) tips."""
    runs = dimer_runs(outs)
    fig, axes = plt.subplots(len(runs), 1, figsize=style.figsize(0.4 * len(runs), columns=2),
                             squeeze=False)
    for ax, r in zip(axes[:, 0], runs):
        c = r["dimer.csv"]
        t, (vl, vr) = window(c["t"], [c["vt_left"], c["vt_right"]], win)
        ax.plot(t, vl, "-", color="k", lw=0.8, label="left tip")
        ax.plot(t, vr, "--", color="C3", lw=0.8, label="right tip")
        ax.axhline(0.0, color="0.7", lw=0.6)
        ax.set_ylabel("v_t [m/s]")
        style.title(ax, "Slip velocities of the tips", r["label"])
        ax.legend(loc="upper right")
    axes[-1, 0].set_xlabel("t [s]")
    return fig


def dimer_position(outs, win):
    """Figs. 5, 10 and 14: the horizontal position of the left tip (x_left; the tip is below
    the sphere's centre) vs t, one line per folder, with the run's mean drift ⟨u⟩."""
    fig, ax = plt.subplots(figsize=style.figsize(0.5, columns=2))
    for k, r in enumerate(dimer_runs(outs)):
        c = r["dimer.csv"]
        t, (x,) = window(c["t"], [c["x_left"]], win)
        u = r["summary"].get("mean_drift_mm_per_s")
        ax.plot(t, [(v - x[0]) * 1e3 for v in x], ["-", "--", "-.", ":"][k % 4], color=f"C{k}",
                lw=1, label=f"{r['label']}: ⟨u⟩ = {u:+.2f} mm/s, {r['summary'].get('motion')}"
                if u is not None else r["label"])
    ax.set_xlabel("t [s]")
    ax.set_ylabel("x_left − x_left(start of plot) [mm]")
    style.title(ax, "Drift of the left tip vs t")
    ax.legend()
    return fig


def dimer_velocity(default_window):
    def draw(outs, win):
        """Figs. 8 and 9 (9: t = 0.94-1.14 s): the horizontal velocity of the left tip (its
        slip velocity v_t: the plate moves vertically), one line per folder."""
        win = win or default_window
        fig, ax = plt.subplots(figsize=style.figsize(0.5, columns=2))
        for k, r in enumerate(dimer_runs(outs)):
            c = r["dimer.csv"]
            t, (v,) = window(c["t"], [c["vt_left"]], win)
            ax.plot(t, v, ["-", "--", "-.", ":"][k % 4], color=f"C{k}", lw=0.9,
                    label=r["label"])
        ax.axhline(0.0, color="0.7", lw=0.6)
        ax.set_xlabel("t [s]")
        ax.set_ylabel("horizontal velocity of the left tip [m/s]")
        style.title(ax, "Horizontal velocity of the left tip vs t")
        ax.legend()
        return fig
    return draw


def dimer_sweep(outs, win):
    """Fig. 11: the scaled drift ⟨u⟩(f/g)·10² (towards the bouncing end) vs Ar, one colour per
    f; the marker tells the point's motion mode (full circle: drift, open circle: rest)."""
    fig, ax = plt.subplots(figsize=style.figsize(0.625, columns=2))
    rows = []
    for o in outs:
        read_run(o, "dimer", [], DIMER_HINT)
        path = os.path.join(o, "sweep.csv")
        if not os.path.isfile(path):
            raise FigureError(f"{o}: no sweep.csv (not a sweep; cases/dimer_fig11_sweep.json)")
        with open(path) as f:
            rows += list(csv.DictReader(f))
    freqs = sorted({float(r["frequency"]) for r in rows})
    shapes = {"drift": "o", "rest": "o", "jump": "^", "flutter": "s", "mixed": "X"}
    for k, f in enumerate(freqs):
        pts = sorted((float(r["aspect_ratio"]), float(r["scaled_drift"]), r["motion"])
                     for r in rows if float(r["frequency"]) == f and r["status"] == "completed")
        col = f"C{k}"
        ax.plot([p[0] for p in pts], [p[1] for p in pts], "-", color=col, lw=1,
                label=f"f = {f:g} Hz")
        for p in pts:
            ax.plot([p[0]], [p[1]], shapes.get(p[2], "*"), color=col, ms=6,
                    mfc="white" if p[2] == "rest" else col)
    for mode in sorted({r["motion"] for r in rows}):  # legend of the markers
        ax.plot([], [], shapes.get(mode, "*"), color="0.3", mfc="white" if mode == "rest"
                else "0.3", ls="none", label=mode)
    ax.axhline(0.0, color="0.7", lw=0.6)
    ax.set_xlabel("Ar")
    ax.set_ylabel("⟨u⟩ (f/g) × 10²")
    style.title(ax, "Scaled drift vs aspect ratio Ar",
                "one colour per f; the marker tells the motion mode")
    ax.legend(ncol=2)
    return fig


# ---------------------------------------------------------------- the figures

FIGURES = {
    "pendulum": {
        "phase": pendulum_phase,
        "impacts": pendulum_impacts,
        "5": pendulum_series("energy", "E [J]", "Fig. 5: mechanical energy"),
        "6": pendulum_series("omega1", "ψ̇1 [rad/s]", "Fig. 6: angular velocity of the rod OA"),
        "7": pendulum_series("omega2", "ψ̇2 [rad/s]",
                             "Fig. 7: angular velocity of the second part"),
        "8": pendulum_forces(["P", "R"], ["P [N]", "R [N]"], "Fig. 8: joint forces at O"),
        "9": pendulum_forces(["V", "H"], ["V [N]", "H [N]"], "Fig. 9: joint forces at A"),
    },
    "billiard": {"4": billiard_return_maps, "6": billiard_return_maps, "7": billiard_fig7},
    "prism": {"5": prism_gauges, "6": prism_omega, "7": prism_gauges, "8": prism_lp,
              "9": prism_lp, "kappa": prism_kappa},
    "dimer": dict({str(n): dimer_vertical for n in (3, 6, 12, 13, 15, 16, 17, 18, 19, 20)},
                  **{"4": dimer_tangential, "7": dimer_tangential, "5": dimer_position,
                     "10": dimer_position, "14": dimer_position,
                     "8": dimer_velocity(None), "9": dimer_velocity((0.94, 1.14)),
                     "11": dimer_sweep}),
}


def main():
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("model", choices=sorted(FIGURES))
    ap.add_argument("fig", help="the paper's figure number, or phase, impacts (pendulum), "
                                "kappa (prism)")
    ap.add_argument("out", nargs="+")
    style.add_arguments(ap)
    ap.add_argument("--window", nargs=2, type=float, metavar=("T0", "T1"),
                    help="time range of time plots [s] (billiard: impact numbers)")
    a = ap.parse_args()
    style.apply(a)
    figs = FIGURES[a.model]
    if a.fig not in figs:
        sys.exit(f"paper_figures.py: {a.model} has no figure {a.fig!r}; known: "
                 f"{', '.join(sorted(figs, key=lambda k: (not k.isdigit(), k.zfill(3))))}")
    try:
        fig = figs[a.fig](a.out, a.window)
    except FigureError as e:
        sys.exit(f"paper_figures.py: {a.model} figure {a.fig}: {e}")
    style.finish(fig, a, os.path.join(a.out[0], f"{a.model}_fig{a.fig}"))


if __name__ == "__main__":
    main()
