#!/usr/bin/python3
"""Plots thesis figures 3.11, 5.2-5.9 and 6.3-6.9 from `granular run` outputs (docs/figures.md).

    python3 tools/thesis_figures.py FIG OUT [OUT ...] [--output FILE] [--format png|pdf|svg]
                                    [--width single|double|INCHES]

FIG is the thesis' figure number (3.11, 5.2 ... 5.9, 6.3 ... 6.9); each OUT is the output folder
of a `granular run` of the case docs/figures.md names for that figure (a scan folder with
scan.csv, or for 3.11 packing_ensemble folders). The figure goes to OUT/fig<FIG>.<format> of
the first folder unless --output (or its older name --png) is given; --width sets it for a
journal column (docs/figures.md). A folder that does not hold what the figure needs gets a
one-line error naming what it should hold."""
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
RPM2_PER_RAD2_S2 = (60.0 / (2.0 * math.pi)) ** 2


class FigureError(Exception):
    pass


# ---------------------------------------------------------------- reading outputs


def pointer(obj, ptr, default=None):
    """The value at JSON pointer ptr ("/a/b") of obj, or default where it is absent."""
    for part in ptr.strip("/").split("/"):
        if not isinstance(obj, dict) or part not in obj:
            return default
        obj = obj[part]
    return obj


def number(text):
    try:
        return float(text)
    except (TypeError, ValueError):
        return math.nan


def read_scan(out):
    """The rows of OUT/scan.csv as dicts (numbers as floats), each with "case" (the point's case
    as run, from point_<k>/summary.json) and "dir" (the point's folder)."""
    path = os.path.join(out, "scan.csv")
    if not os.path.isfile(path):
        raise FigureError(f"{out}: no scan.csv (not the output folder of a scan)")
    with open(path) as f:
        raw = list(csv.DictReader(f))
    if not raw:
        raise FigureError(f"{path}: no rows")
    header = list(raw[0].keys())
    scanned = header[: header.index("status")]
    rows = []
    for k, r in enumerate(raw):
        row = {key: (val if key in ("status", "regime") else number(val)) for key, val in r.items()}
        pdir = os.path.join(out, f"point_{k}")
        try:
            with open(os.path.join(pdir, "summary.json")) as f:
                summary = json.load(f)
        except (OSError, ValueError) as e:
            raise FigureError(f"{pdir}/summary.json: cannot read it ({e})")
        row["case"] = summary["case"]
        row["model"] = summary.get("model")
        row["dir"] = pdir
        for key in scanned:  # the row and the point folder must describe the same point
            if not math.isclose(number(pointer(row["case"], key)), row[key], rel_tol=1e-9):
                raise FigureError(f"{out}: scan.csv row {k} does not match {pdir} ({key})")
        rows.append(row)
    return rows


def need(rows, out, model, varies, case_hint):
    """Checks that the scan is of `model` and that each (name, function) of `varies` takes more
    than one value over its points."""
    models = {r["model"] for r in rows}
    if models != {model}:
        raise FigureError(f"{out}: a scan of model {'/'.join(sorted(map(str, models)))}; "
                          f"this figure needs a {model} scan ({case_hint})")
    for name, fn in varies:
        if len({fn(r) for r in rows}) < 2:
            raise FigureError(f"{out}: {name} takes one value only; this figure needs a scan "
                              f"over it ({case_hint})")


def curves(rows, x, y, group, keep=lambda r: True):
    """[(style, label, sorted [(x, y, row)])] grouped by group(row) -> (sort key, label); rows
    with a non-finite x or y, or not kept, are left out. style is the group's rank among all
    rows' groups, so a group keeps its marker and colour when others are left out."""
    keys = sorted({group(r) for r in rows})
    out = {}
    for r in rows:
        if not keep(r):
            continue
        xv, yv = x(r), y(r)
        if math.isfinite(xv) and math.isfinite(yv):
            out.setdefault(group(r), []).append((xv, yv, r))
    return [(keys.index(k), k[1], sorted(pts, key=lambda p: p[0]))
            for k, pts in sorted(out.items())]


def plot_curves(ax, groups, fmt="-", filled=None, **kw):
    """One marked line per group; filled(row) False draws that point's marker open."""
    for rank, label, pts in groups:
        m, c = MARKERS[rank % len(MARKERS)], f"C{rank % 10}"
        ax.plot([p[0] for p in pts], [p[1] for p in pts], fmt, marker=m, color=c, label=label,
                **kw)
        if filled is not None:
            opened = [p for p in pts if not filled(p[2])]
            ax.plot([p[0] for p in opened], [p[1] for p in opened], ls="none", marker=m,
                    mfc="white", mec=c)


def loglog_guide(ax, x0, y0, x1, slope, style, label):
    ax.plot([x0, x1], [y0, y0 * (x1 / x0) ** slope], style, color="k", lw=1, label=label)


# ---------------------------------------------------------------- chapter 3


def fig_3_11(outs):
    """<omega_bar^2>(Gamma) of packing ensembles: MD full lines, ED dashed, one marker per k_n;
    linear (top) and log-log (bottom), standard errors as error bars."""
    fig, axes = plt.subplots(2, 1, figsize=style.figsize(1.33))
    kn_markers = {}
    for out in outs:
        try:
            with open(os.path.join(out, "summary.json")) as f:
                s = json.load(f)
        except (OSError, ValueError) as e:
            raise FigureError(f"{out}: no readable summary.json ({e})")
        if s.get("model") != "packing_ensemble":
            raise FigureError(f"{out}: not a packing_ensemble run (cases/thesis_fig3_11_*.json)")
        method = s.get("method", "md")
        kn = pointer(s["case"], "/contact/disk_disk/k_n")
        marker = kn_markers.setdefault(kn, MARKERS[len(kn_markers) % len(MARKERS)])
        pts = [(g, w, (e or 0.0) * RPM2_PER_RAD2_S2)
               for g, w, e in zip(s["gamma_values"], s["mean_sq_omega_rpm2"],
                                  s["mean_sq_omega_stderr"]) if w is not None and w > 0]
        if not pts:
            raise FigureError(f"{out}: no Gamma with a positive <omega_bar^2>")
        label = f"{method.upper()}, $k_n$ = {kn:.0e} N/m ({s['packings_per_gamma']} packings)"
        for ax in axes:
            ax.errorbar([p[0] for p in pts], [p[1] for p in pts], yerr=[p[2] for p in pts],
                        fmt="--" if method == "ed" else "-", marker=marker, capsize=3,
                        mfc="white" if method == "ed" else None, label=label)
    axes[1].set_xscale("log")
    axes[1].set_yscale("log")
    style.readable_log_axes(axes[1])
    for ax in axes:
        ax.set_xlabel(r"$\Gamma$")
        ax.set_ylabel(r"$\langle \bar\omega^2 \rangle$ [RPM$^2$]")
    axes[0].legend()
    style.title(axes[0], r"Fig. 3.11: mean square rotation rate vs $\Gamma$",
                "MD (full) and ED (dashed); linear (top) and log-log (bottom)")
    return fig


# ---------------------------------------------------------------- chapter 5: the 3-disk system


def tilt_pi(r):
    t = pointer(r["case"], "/tilt_pi")
    return t if t is not None else pointer(r["case"], "/tilt_deg", 0.0) / 180.0


def amplitude(r):
    return pointer(r["case"], "/torque/amplitude", 0.0)


def omega_e(r):
    return pointer(r["case"], "/torque/omega", 0.0)


def by_tilt(r):
    return tilt_pi(r), rf"$\theta_T$ = {tilt_pi(r):g}$\pi$"


def by_amplitude(r):
    return amplitude(r), f"$A_e$ = {amplitude(r):.3f}"


def harmonic_scan(outs, over, name, case):
    rows = read_scan(outs[0])
    fns = {"tilt": tilt_pi, "amplitude": amplitude}
    need(rows, outs[0], "three_disk", [(name, fns[over])], case)
    if not all(omega_e(r) > 0 for r in rows):
        raise FigureError(f"{outs[0]}: some points have no harmonic torque ({case})")
    return rows


TORQUE_CASE = "cases/three_disk_fig5_2_torque_scan.json"
W_LABEL = r"$\bar\omega\,\omega_e$ [rad/s$^2$]  (= $\bar\omega$ [rad/s] at $\omega_e$ = 1/s)"


def fig_5_2(outs):
    """omega_bar * omega_e vs A_e, one line per tilt."""
    rows = harmonic_scan(outs, "amplitude", "/torque/amplitude", TORQUE_CASE)
    fig, ax = plt.subplots(figsize=style.figsize(0.75))
    plot_curves(ax, curves(rows, amplitude, lambda r: r["omega_bar_omega_e"], by_tilt))
    ax.axhline(0.0, color="0.7", lw=0.8)
    ax.set_xlabel(r"$A_e$ [N m]")
    ax.set_ylabel(W_LABEL)
    style.title(ax, "Fig. 5.2: mean rotation vs torque amplitude",
                r"harmonic torque $A_e \sin(\omega_e t)$; one line per tilt")
    ax.legend()
    return fig


def fig_5_3(outs):
    """log-log omega_bar * omega_e vs A_e - A_S2 for the tilts > 0; open markers where
    A_e > A_S1 (bidirectional); guides of slope 2 (dashed) and 1 (dotted)."""
    rows = harmonic_scan(outs, "amplitude", "/torque/amplitude", TORQUE_CASE)
    groups = curves(rows, lambda r: amplitude(r) - r["A_S2"], lambda r: r["omega_bar_omega_e"],
                    by_tilt, keep=lambda r: tilt_pi(r) > 0 and amplitude(r) > r["A_S2"]
                    and r["omega_bar_omega_e"] > 0)
    if not groups:
        raise FigureError(f"{outs[0]}: no point with A_e > A_S2 and omega_bar > 0")
    fig, ax = plt.subplots(figsize=style.figsize(0.75))
    plot_curves(ax, groups, filled=lambda r: amplitude(r) <= r["A_S1"])
    pts = [p for _, _, g in groups for p in g]
    lo, hi = min(pts, key=lambda p: p[0]), max(pts, key=lambda p: p[0])
    loglog_guide(ax, lo[0], lo[1], hi[0], 2.0, "--", "slope 2")
    loglog_guide(ax, hi[0] / 10, hi[1] / 10, hi[0], 1.0, ":", "slope 1")
    ax.set_xscale("log")
    ax.set_yscale("log")
    style.readable_log_axes(ax)
    ax.set_xlabel(r"$A_e - A_{S2}$ [N m]")
    ax.set_ylabel(W_LABEL)
    style.title(ax, r"Fig. 5.3: mean rotation vs $A_e - A_{S2}$, log-log",
                "open markers: $A_e > A_{S1}$, bidirectional")
    ax.legend()
    return fig


def fig_5_4(outs):
    """omega_bar * omega_e vs theta_T, one line per A_e."""
    rows = harmonic_scan(outs, "tilt", "/tilt_pi", "cases/three_disk_fig5_4_tilt_scan.json")
    fig, ax = plt.subplots(figsize=style.figsize(0.75))
    plot_curves(ax, curves(rows, tilt_pi, lambda r: r["omega_bar_omega_e"], by_amplitude))
    ax.axhline(0.0, color="0.7", lw=0.8)
    ax.set_xlabel(r"$\theta_T / \pi$")
    ax.set_ylabel(W_LABEL)
    style.title(ax, "Fig. 5.4: mean rotation vs tilt",
                r"harmonic torque $A_e \sin(\omega_e t)$; one line per $A_e$")
    ax.legend()
    return fig


def onset_tilt(r):
    """theta_S2 / pi, where A_S2(theta_S2) = A_e (docs/three_disk.md, onset_tilt); 0 where A_e is
    above A_S2 at every tilt >= 0 (A_e >= A0: the disk slides CCW already at theta_T = 0)."""
    mu = pointer(r["case"], "/contact/mu")
    a_max = r["A0"] * math.sqrt(1 + mu * mu)
    if amplitude(r) >= r["A0"]:
        return 0.0
    return (math.acos(amplitude(r) / a_max) - math.atan(mu)) / math.pi


def fig_5_5(outs):
    """log-log omega_bar * omega_e vs theta_T - theta_S2, one line per A_e; guide of slope 2."""
    rows = harmonic_scan(outs, "tilt", "/tilt_pi", "cases/three_disk_fig5_4_tilt_scan.json")
    groups = curves(rows, lambda r: tilt_pi(r) - onset_tilt(r), lambda r: r["omega_bar_omega_e"],
                    lambda r: (amplitude(r), f"$A_e$ = {amplitude(r):.3f}, "
                               rf"$\theta_{{S2}}$ = {onset_tilt(r):.4f}$\pi$"),
                    keep=lambda r: tilt_pi(r) > onset_tilt(r) and r["omega_bar_omega_e"] > 0)
    if not groups:
        raise FigureError(f"{outs[0]}: no point above its onset tilt with omega_bar > 0")
    fig, ax = plt.subplots(figsize=style.figsize(0.75))
    plot_curves(ax, groups)
    pts = [p for _, _, g in groups for p in g]
    lo, hi = min(pts, key=lambda p: p[0]), max(pts, key=lambda p: p[0])
    loglog_guide(ax, lo[0], lo[1], hi[0], 2.0, "--", "slope 2")
    ax.set_xscale("log")
    ax.set_yscale("log")
    style.readable_log_axes(ax)
    ax.set_xlabel(r"$(\theta_T - \theta_{S2}) / \pi$")
    ax.set_ylabel(W_LABEL)
    style.title(ax, "Fig. 5.5: mean rotation above the onset tilt, log-log",
                r"$\theta_{S2}$ = 0 where $A_e \geq A_0$")
    ax.legend()
    return fig


def read_table(path):
    try:
        with open(path) as f:
            rows = list(csv.DictReader(f))
    except OSError as e:
        raise FigureError(f"{path}: cannot read it ({e})")
    return {k: [number(r[k]) for r in rows] for k in (rows[0].keys() if rows else [])}


def amonton_polygon(case):
    """Corners T1, S2, T2, S1 (in this order around the polygon) in (dtheta, Theta) at zero
    acceleration: the lines (4.32)-(4.35) in (tau01, tau02) intersected pairwise, then
    dtheta = -(tau01 + tau02)/(2 k_t R), Theta = (tau02 - tau01)/(2 k_t R) (4.17)-(4.18)."""
    m, R = pointer(case, "/disks/mass", 0.1), pointer(case, "/disks/radius", 1.0)
    g, mu, kt = pointer(case, "/gravity", 10.0), case["contact"]["mu"], case["contact"]["k_t"]
    th0 = math.radians(pointer(case, "/disks/half_angle_deg", 30.0))
    tt = math.pi * pointer(case, "/tilt_pi", pointer(case, "/tilt_deg", 0.0) / 180.0)
    w1, w2 = m * g * math.sin(th0 + tt), m * g * math.sin(th0 - tt)
    bm, bp = math.sin(2 * th0) / mu - math.cos(2 * th0), math.sin(2 * th0) / mu + math.cos(2 * th0)
    lines = {"a": (-bm, 1.0, w1), "b": (bp, 1.0, w1), "c": (-1.0, bm, w2), "d": (-1.0, -bp, w2)}

    def corner(p, q):
        (a1, b1, c1), (a2, b2, c2) = lines[p], lines[q]
        det = a1 * b2 - a2 * b1
        t1, t2 = (c1 * b2 - c2 * b1) / det, (a1 * c2 - a2 * c1) / det
        return -(t1 + t2) / (2 * kt * R), (t2 - t1) / (2 * kt * R)

    return {"T1": corner("a", "c"), "S2": corner("a", "d"), "T2": corner("b", "d"),
            "S1": corner("b", "c")}


def fig_5_6(outs):
    """The paths in (dtheta, Theta) of the hysteresis scan's points, over the admissible
    quadrilateral S1, T1, S2, T2 (Section 4.4)."""
    rows = read_scan(outs[0])
    case = "cases/three_disk_fig5_6_hysteresis.json"
    need(rows, outs[0], "three_disk", [], case)
    fig, ax = plt.subplots(figsize=style.figsize(0.83))
    colours = ["0.6", "k"] if len(rows) == 2 else [f"C{i}" for i in range(10)]
    for i, r in enumerate(sorted(rows, key=amplitude)):
        t = read_table(os.path.join(r["dir"], "three_disk.csv"))
        if "tau_1" not in t:
            raise FigureError(f"{r['dir']}: no three_disk.csv with tau_1, tau_2 ({case})")
        kt, R = r["case"]["contact"]["k_t"], pointer(r["case"], "/disks/radius", 1.0)
        dth = [-(a + b) / (2 * kt * R) for a, b in zip(t["tau_1"], t["tau_2"])]
        Th = [(b - a) / (2 * kt * R) for a, b in zip(t["tau_1"], t["tau_2"])]
        ax.plot(dth, Th, color=colours[i % len(colours)], lw=1.2,
                label=rf"$A_e$ = {amplitude(r):.3f}, $\theta_T$ = {tilt_pi(r):g}$\pi$")
    corners = amonton_polygon(rows[0]["case"])
    if any(tilt_pi(r) != tilt_pi(rows[0]) for r in rows):
        print("note: the points differ in tilt; the polygon drawn is the first point's")
    ring = ["T1", "S2", "T2", "S1", "T1"]
    ax.plot([corners[c][0] for c in ring], [corners[c][1] for c in ring], "k:", lw=1)
    for name, (x, y) in corners.items():
        ax.plot(x, y, "ko", ms=4)
        ax.annotate(f"${name[0]}_{name[1]}$", (x, y), textcoords="offset points", xytext=(4, 4))
    ax.set_xlabel(r"$\delta\theta = -(\tau_{01} + \tau_{02})/(2 k_t R)$ [rad]")
    ax.set_ylabel(r"$\Theta = (\tau_{02} - \tau_{01})/(2 k_t R)$ [rad]")
    ax.ticklabel_format(style="sci", scilimits=(-3, 3))
    style.title(ax, "Fig. 5.6: paths in the Amonton quadrilateral",
                "one path per $A_e$; corners of the closed forms at zero acceleration")
    ax.legend()
    return fig


def fig_5_7(outs):
    """MD omega_bar * omega_e (points) against the stick-slip rotor, eq. (5.9) where valid
    (lines through the scan's amplitudes), per tilt; right: MD against rotor, with y = x."""
    rows = harmonic_scan(outs, "amplitude", "/torque/amplitude", TORQUE_CASE)
    fig, (ax, bx) = plt.subplots(1, 2, figsize=style.figsize(0.41, columns=2))
    md = curves(rows, amplitude, lambda r: r["omega_bar_omega_e"], by_tilt)
    for i, label, pts in md:
        ax.plot([p[0] for p in pts], [p[2]["omega_bar_omega_e_rotor"] for p in pts], "-",
                color=f"C{i}")
        ax.plot([p[0] for p in pts], [p[1] for p in pts], ls="none", marker=MARKERS[i],
                color=f"C{i}", label=label)
        bx.plot([p[2]["omega_bar_omega_e_rotor"] for p in pts], [p[1] for p in pts], ls="none",
                marker=MARKERS[i], color=f"C{i}", label=label)
    ax.set_xlabel(r"$A_e$ [N m]")
    ax.set_ylabel(W_LABEL)
    style.title(ax, "Fig. 5.7: mean rotation, MD and stick-slip rotor",
                "MD (points), eq. (5.9) / rotor (lines)")
    ax.legend()
    top = max(max(r["omega_bar_omega_e_rotor"], r["omega_bar_omega_e"]) for r in rows)
    bx.plot([0, top], [0, top], "k--", lw=1, label="y = x")
    bx.set_xlabel(r"rotor / eq. (5.9): $\bar\omega\,\omega_e$ [rad/s$^2$]")
    bx.set_ylabel(r"MD: $\bar\omega\,\omega_e$ [rad/s$^2$]")
    bx.legend()
    return fig


def support_amplitude(r):
    return pointer(r["case"], "/supports/amplitude", 0.0)


def random_scan(outs, name, fn, case):
    rows = read_scan(outs[0])
    need(rows, outs[0], "three_disk", [(name, fn)], case)
    if any(pointer(r["case"], "/supports/drive") != "random" for r in rows):
        raise FigureError(f"{outs[0]}: supports not randomly vibrated ({case})")
    return rows


def plot_random(ax, rows, x, group):
    """omega_bar per group, leaving out points where a contact opened (the thesis omits them);
    those are drawn as grey crosses."""
    plot_curves(ax, curves(rows, x, lambda r: r["omega_bar"], group,
                           keep=lambda r: r["contact_openings"] == 0))
    opened = [r for r in rows if r["contact_openings"] > 0]
    if opened:
        ax.plot([x(r) for r in opened], [r["omega_bar"] for r in opened], "x", color="0.5",
                label="a contact opened (omitted by the thesis)")
    ax.axhline(0.0, color="0.7", lw=0.8)
    ax.set_ylabel(r"$\bar\omega$ [rad/s]")
    ax.legend()


def fig_5_8(outs):
    """Random vibration: omega_bar vs the RMS amplitude A_b of the supports, one line per tilt."""
    rows = random_scan(outs, "/supports/amplitude", support_amplitude,
                       "cases/three_disk_fig5_8_5_9_random_scan.json")
    fig, ax = plt.subplots(figsize=style.figsize(0.75))
    plot_random(ax, rows, lambda r: support_amplitude(r) * 1e5, by_tilt)
    ax.set_xlabel(r"$A_b$ [$10^{-5}$ m]")
    style.title(ax, "Fig. 5.8: mean rotation vs support amplitude",
                "randomly vibrated supports; one line per tilt")
    return fig


def fig_5_9(outs):
    """Random vibration: omega_bar vs theta_T, one line per A_b."""
    rows = random_scan(outs, "/tilt_pi", tilt_pi, "cases/three_disk_fig5_8_5_9_random_scan.json")
    fig, ax = plt.subplots(figsize=style.figsize(0.75))
    plot_random(ax, rows, tilt_pi, lambda r: (support_amplitude(r),
                                              f"$A_b$ = {support_amplitude(r):.0e} m"))
    ax.set_xlabel(r"$\theta_T / \pi$")
    style.title(ax, "Fig. 5.9: mean rotation vs tilt",
                "randomly vibrated supports; one line per $A_b$")
    return fig


# ---------------------------------------------------------------- chapter 6: the wedge


def critical_tilt(r):
    """theta0 = (180 - theta_W)/2 [deg]."""
    return (180.0 - pointer(r["case"], "/wedge/aperture_deg", 120.0)) / 2.0


def wedge_tilt(r):
    """theta_T [deg], from tilt_deg or tilt_fraction."""
    f = pointer(r["case"], "/wedge/tilt_fraction")
    return f * critical_tilt(r) if f is not None else pointer(r["case"], "/wedge/tilt_deg", 0.0)


def wedge_scan(out, model, name, fn, case):
    rows = read_scan(out)
    need(rows, out, model, [(name, fn)], case)
    return rows


def gamma(r):
    return pointer(r["case"], "/drive/gamma")


def by_gamma(r):
    return gamma(r), rf"MD, $\Gamma$ = {gamma(r):g}"


def scaled(r):
    return r["scaled_rotation"]


def wedge_axes(ax, x_label=r"$\theta_T$ [deg]", y_label=r"$R\bar\omega / (A\omega_b)$"):
    ax.axhline(0.0, color="0.7", lw=0.8)
    ax.set_xlabel(x_label)
    ax.set_ylabel(y_label)
    ax.legend()


def fig_6_3(outs):
    """MD: omega_bar vs theta_T, one line per Gamma (with one tilt only: omega_bar vs Gamma)."""
    case = "cases/wedge_fig6_md_gamma_scan.json"
    rows = read_scan(outs[0])
    need(rows, outs[0], "wedge_md", [("/drive/gamma", gamma)], case)
    fig, ax = plt.subplots(figsize=style.figsize(0.75))
    if len({wedge_tilt(r) for r in rows}) > 1:
        plot_curves(ax, curves(rows, wedge_tilt, lambda r: r["omega_bar"], by_gamma))
        wedge_axes(ax, y_label=r"$\bar\omega$ [rad/s]")
    else:
        plot_curves(ax, curves(rows, gamma, lambda r: r["omega_bar"],
                               lambda r: (0, rf"MD, $\theta_T$ = {wedge_tilt(r):g} deg")))
        wedge_axes(ax, r"$\Gamma$", r"$\bar\omega$ [rad/s]")
    style.title(ax, "Fig. 6.3: mean rotation of the disk in the wedge, MD",
                f"{pointer(rows[0]['case'], '/drive/frequency'):g} Hz")
    return fig


def fig_6_4(outs):
    """ED: R omega_bar/(A omega_b) vs theta_T, one line per (Gamma, omega_b): the collapse."""
    rows = wedge_scan(outs[0], "wedge", "(/drive/gamma, /drive/frequency)",
                      lambda r: (gamma(r), pointer(r["case"], "/drive/frequency")),
                      "cases/wedge_fig6_ed_tilt_scan.json with a scan over Gamma, f and tilt")
    fig, ax = plt.subplots(figsize=style.figsize(0.75))

    def group(r):
        wb = 2 * math.pi * pointer(r["case"], "/drive/frequency")
        return (gamma(r), wb), rf"ED, $\Gamma$ = {gamma(r):g}, $\omega_b$ = {wb:.3g}/s"

    plot_curves(ax, curves(rows, wedge_tilt, scaled, group), fmt="--", mfc="none")
    wedge_axes(ax)
    style.title(ax, "Fig. 6.4: scaled rotation vs tilt, ED",
                r"scale invariance: one line per ($\Gamma$, $\omega_b$)")
    return fig


def fig_6_5(outs):
    """MD (one line per Gamma) and ED (thick line, open circles) on the same axes."""
    fig, ax = plt.subplots(figsize=style.figsize(0.75))
    seen = set()
    for out in outs:
        rows = read_scan(out)
        model = rows[0]["model"]
        if model == "wedge_md":
            need(rows, out, "wedge_md", [("the tilt", wedge_tilt)],
                 "cases/wedge_fig6_md_tilt_scan.json")
            plot_curves(ax, curves(rows, wedge_tilt, scaled, by_gamma))
        elif model == "wedge":
            need(rows, out, "wedge", [("the tilt", wedge_tilt)],
                 "cases/wedge_fig6_ed_tilt_scan.json")
            pts = curves(rows, wedge_tilt, scaled, lambda r: (0, "ED"))[0][2]
            ax.plot([p[0] for p in pts], [p[1] for p in pts], "k-", lw=2.5, marker="o",
                    mfc="white", label="ED")
        else:
            raise FigureError(f"{out}: a {model} scan; figure 6.5 takes wedge_md and wedge scans")
        seen.add(model)
    if seen != {"wedge", "wedge_md"}:
        print(f"note: only {', '.join(sorted(seen))} given; fig. 6.5 compares wedge_md with wedge")
    wedge_axes(ax)
    style.title(ax, "Fig. 6.5: scaled rotation vs tilt", "MD and ED")
    return fig


def fig_6_6(outs):
    """ED: R omega_bar/(A omega_b) vs theta_T, one line per mu."""
    rows = wedge_scan(outs[0], "wedge", "/contact/mu", lambda r: r["case"]["contact"]["mu"],
                      "cases/wedge_fig6_ed_mu_scan.json")
    fig, ax = plt.subplots(figsize=style.figsize(0.75))
    mu = lambda r: r["case"]["contact"]["mu"]  # noqa: E731
    plot_curves(ax, curves(rows, wedge_tilt, scaled, lambda r: (mu(r), rf"$\mu$ = {mu(r):g}")))
    wedge_axes(ax)
    style.title(ax, "Fig. 6.6: scaled rotation vs tilt, ED",
                r"one line per friction coefficient $\mu$")
    return fig


def fig_6_7(outs):
    """ED: R omega_bar/(A omega_b) vs theta_T/theta0, one line per aperture."""
    rows = wedge_scan(outs[0], "wedge", "/wedge/aperture_deg",
                      lambda r: pointer(r["case"], "/wedge/aperture_deg", 120.0),
                      "cases/wedge_fig6_ed_aperture_scan.json")
    fig, ax = plt.subplots(figsize=style.figsize(0.75))
    ap = lambda r: pointer(r["case"], "/wedge/aperture_deg", 120.0)  # noqa: E731
    plot_curves(ax, curves(rows, lambda r: wedge_tilt(r) / critical_tilt(r), scaled,
                           lambda r: (ap(r), rf"$\theta_W$ = {ap(r):g} deg")))
    wedge_axes(ax, r"$\theta_T / \theta_0$")
    style.title(ax, r"Fig. 6.7: scaled rotation vs $\theta_T / \theta_0$, ED",
                r"one line per wedge aperture $\theta_W$")
    return fig


def fig_6_8(outs):
    """ED: R omega_bar/(A omega_b) vs theta_T, one line per e_n."""
    en = lambda r: pointer(r["case"], "/contact/e_n", 0.9)  # noqa: E731
    rows = wedge_scan(outs[0], "wedge", "/contact/e_n", en, "cases/wedge_fig6_ed_en_scan.json")
    fig, ax = plt.subplots(figsize=style.figsize(0.75))
    plot_curves(ax, curves(rows, wedge_tilt, scaled, lambda r: (en(r), f"$e_n$ = {en(r):g}")))
    wedge_axes(ax)
    style.title(ax, "Fig. 6.8: scaled rotation vs tilt, ED",
                "one line per normal restitution $e_n$")
    return fig


def fig_6_9(outs):
    """ED: R omega_bar/(A omega_b) vs theta_T, one line per kappa = k_t/k_n (contact-law e_t),
    and a line for every folder run with the large-kappa e_t."""
    fig, ax = plt.subplots(figsize=style.figsize(0.75))
    rows = []
    for out in outs:
        r = read_scan(out)
        need(r, out, "wedge", [("the tilt", wedge_tilt)], "cases/wedge_fig6_ed_tilt_scan.json")
        rows += r

    def group(r):
        c = r["case"]["contact"]
        if c.get("tangential", "large_kappa") == "contact_law":
            kappa = c["k_t"] / c["k_n"]
            return (0, kappa), rf"$\kappa$ = {kappa:g}"
        return (1, 0), rf"large-$\kappa$ $e_t$ ($e_n$ = {c.get('e_n', 0.9):g})"

    groups = curves(rows, wedge_tilt, scaled, group)
    if not any(group(r)[0][0] == 0 for r in rows) or len(groups) < 2:
        raise FigureError("needs a wedge scan over /contact/k_t with the "
                          "contact-law e_t (docs/figures.md)")
    plot_curves(ax, groups)
    wedge_axes(ax)
    style.title(ax, "Fig. 6.9: scaled rotation vs tilt, ED",
                r"one line per stiffness ratio $\kappa = k_t/k_n$")
    return fig


FIGURES = {"3.11": fig_3_11, "5.2": fig_5_2, "5.3": fig_5_3, "5.4": fig_5_4, "5.5": fig_5_5,
           "5.6": fig_5_6, "5.7": fig_5_7, "5.8": fig_5_8, "5.9": fig_5_9, "6.3": fig_6_3,
           "6.4": fig_6_4, "6.5": fig_6_5, "6.6": fig_6_6, "6.7": fig_6_7, "6.8": fig_6_8,
           "6.9": fig_6_9}


def main():
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("fig", choices=list(FIGURES))
    ap.add_argument("out", nargs="+", help="output folder(s) of the figure's case(s)")
    style.add_arguments(ap)
    a = ap.parse_args()
    style.apply(a)
    try:
        fig = FIGURES[a.fig](a.out)
    except FigureError as e:
        sys.exit(f"figure {a.fig}: {e}")
    style.finish(fig, a, os.path.join(a.out[0], f"fig{a.fig}"))


if __name__ == "__main__":
    main()
