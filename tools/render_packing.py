#!/usr/bin/env python3
"""Draws one snapshot frame of a packing (docs/outputs.md, "snapshots/") as a PNG, PDF or SVG.

    render_packing.py FRAME.vtp [OUT.png]
    render_packing.py PACKING.pvd [OUT.png]     the collection's last frame
    render_packing.py PACKING.lammpstrj [OUT.png]   its last frame: disks only (no contacts)
    options: --format png|pdf|svg, --width single|double|INCHES (docs/figures.md)

Disks are circles coloured by their angular velocity ω (diverging colormap, limits ±max|ω|),
contacts are lines whose width is proportional to the normal force (the strongest 3 points
wide), walls are black lines. The title names the packing, its Γ and the frame's time (from the
run's summary.json next to snapshots/, where there is one). Reads the files granular writes
(raw appended VTK data, UInt64 block headers, little-endian) with numpy alone, so that
`make run` needs only matplotlib.
"""
import argparse
import json
import os
import re
import sys
import xml.etree.ElementTree as ET

import matplotlib

matplotlib.use("Agg")
import matplotlib.pyplot as plt  # noqa: E402
import numpy as np  # noqa: E402
from matplotlib.collections import LineCollection, PatchCollection  # noqa: E402
from matplotlib.patches import Circle  # noqa: E402

import figure_style as style  # noqa: E402  (the script's own folder is on sys.path)

TYPES = {"Float64": "<f8", "Int64": "<i8", "Int32": "<i4", "UInt64": "<u8"}


def read_vtp(path):
    """The arrays of one .vtp file granular wrote, by name, plus the time if a .pvd lists it."""
    raw = open(path, "rb").read()
    start = raw.index(b"<AppendedData")
    data = raw[raw.index(b"_", start) + 1 :]
    head = ET.fromstring(raw[:start].decode() + "</VTKFile>")
    arrays = {}
    for a in head.iter("DataArray"):
        offset = int(a.get("offset"))
        size = int(np.frombuffer(data, "<u8", 1, offset)[0])
        values = np.frombuffer(data, TYPES[a.get("type")], size // np.dtype(TYPES[a.get("type")]).itemsize, offset + 8)
        components = int(a.get("NumberOfComponents", "1"))
        arrays[a.get("Name")] = values.reshape(-1, components) if components > 1 else values
    return arrays


def last_dataset(pvd):
    entries = re.findall(r'<DataSet timestep="([^"]+)"[^>]*file="([^"]+)"', open(pvd).read())
    if not entries:
        sys.exit(f"{pvd}: lists no frame")
    t, name = entries[-1]
    return os.path.join(os.path.dirname(pvd), name), float(t)


def frame_time(vtp):
    """The time the collection next to a .vtp lists for it, or None."""
    m = re.match(r"(packing_\d+)_\d+\.vtp$", os.path.basename(vtp))
    pvd = os.path.join(os.path.dirname(vtp), f"{m.group(1)}.pvd") if m else ""
    if not os.path.isfile(pvd):
        return None
    entries = re.findall(r'<DataSet timestep="([^"]+)"[^>]*file="([^"]+)"', open(pvd).read())
    return next((float(t) for t, name in entries if name == os.path.basename(vtp)), None)


def run_summary(source):
    """summary.json of the run whose snapshots/ holds source, or {} (a run still going has
    none yet)."""
    path = os.path.join(os.path.dirname(os.path.abspath(source)), os.pardir, "summary.json")
    try:
        with open(path) as f:
            return json.load(f)
    except (OSError, ValueError):
        return {}


def headline(source, summary, t=None, step=None):
    """What the picture shows: "Packing p at Γ = g, t = ... s", from the snapshot's name
    (packing_<p>...) and the run's summary, leaving out what they do not tell."""
    m = re.match(r"packing_(\d+)", os.path.basename(source))
    index = int(m.group(1)) if m else None
    gamma = next((p.get("gamma") for p in summary.get("packings", [])
                  if index is not None and p.get("index") == index), None)
    settle = (summary.get("case", {}).get("run") or {}).get("settle_time")
    if t is None and step is not None and summary.get("dt") is not None and settle is not None:
        t = -settle + step * summary["dt"]  # docs/outputs.md, "ITEM: TIMESTEP"
    parts = ["Packing" + (f" {index}" if index is not None else "")]
    if gamma is not None:
        parts.append(f"at Γ = {gamma:g}")
    when = f"t = {t:.4g} s" if t is not None else (f"step {step}" if step is not None else "")
    return " ".join(parts) + (f", {when}" if when else "")


def read_last_dump_frame(path):
    """Disks of the last frame of a LAMMPS dump: no contacts, the box as the walls."""
    lines = open(path).read().split("\n")
    last = max(i for i, line in enumerate(lines) if line == "ITEM: TIMESTEP")
    step = int(lines[last + 1])
    # the frame's time, written before its step (docs/outputs.md, "ITEM: TIME")
    t = float(lines[last - 1]) if last >= 2 and lines[last - 2] == "ITEM: TIME" else None
    n = int(lines[last + 3])
    (x0, x1), (y0, y1) = [tuple(map(float, lines[last + 5 + k].split())) for k in range(2)]
    columns = lines[last + 8].split()[2:]
    rows = np.array([[float(v) for v in line.split()] for line in lines[last + 9 : last + 9 + n]])
    col = {name: rows[:, k] for k, name in enumerate(columns)}
    n_disks = len(rows)
    arrays = {
        "Points": np.column_stack([col["x"], col["y"], np.zeros(n_disks)]),
        "disk": np.arange(n_disks),
        "radius": col["radius"],
        "omega": col["omegaz"],
        "connectivity": np.array([], dtype=int),
        "offsets": np.array([], dtype=int),
        "kind": np.array([], dtype=int),
        "normal_force": np.array([]),
    }
    walls = [((x0, y0), (x0, y1)), ((x1, y0), (x1, y1)), ((x0, y0), (x1, y0))]
    return arrays, walls, step, t


def render(arrays, walls, what, detail, out, fmt):
    points = arrays["Points"][:, :2]
    disks = arrays["disk"] >= 0
    omega = arrays["omega"][disks]
    radius = arrays["radius"][disks]
    centres = points[disks]
    limit = max(float(np.max(np.abs(omega))) if omega.size else 0.0, 1e-12)

    # cells: contacts (kind 0 disk–disk, 1 disk–wall) and walls (kind 2)
    conn, offsets = arrays["connectivity"], arrays["offsets"]
    starts = np.concatenate([[0], offsets[:-1]]).astype(int)
    segments = [points[conn[s : e]] for s, e in zip(starts, offsets.astype(int))]
    kind = arrays["kind"]
    contacts = [seg for seg, k in zip(segments, kind) if k != 2]
    force = arrays["normal_force"][kind != 2] if len(kind) else np.array([])
    walls += [tuple(map(tuple, seg)) for seg, k in zip(segments, kind) if k == 2]

    everything = np.vstack([centres - radius[:, None], centres + radius[:, None]] +
                           [np.array(w) for w in walls])
    lo, hi = everything.min(axis=0), everything.max(axis=0)
    pad = 0.03 * float(np.max(hi - lo))
    # the box's own shape: its axes take about 0.7 of the width (the colour bar the rest),
    # titles and labels about an inch of the height
    box = (hi[1] - lo[1] + 2 * pad) / (hi[0] - lo[0] + 2 * pad)
    width = style.figsize(1.0)[0]
    fig, ax = plt.subplots(figsize=style.figsize(0.7 * box + 1.0 / width))
    circles = PatchCollection([Circle(c, r) for c, r in zip(centres, radius)], cmap="RdBu_r",
                              edgecolor="0.3", linewidth=0.4)
    circles.set_array(omega)
    circles.set_clim(-limit, limit)
    ax.add_collection(circles)
    if contacts:
        widths = 3.0 * force / max(float(force.max()), 1e-300)
        ax.add_collection(LineCollection(contacts, linewidths=widths, colors="k", alpha=0.8))
    ax.add_collection(LineCollection(walls, linewidths=2.0, colors="k"))
    ax.set_xlim(lo[0] - pad, hi[0] + pad)
    ax.set_ylim(lo[1] - pad, hi[1] + pad)
    ax.set_aspect("equal")
    ax.set_xlabel("x [m]")
    ax.set_ylabel("y [m]")
    fig.colorbar(circles, ax=ax, shrink=0.7, label="ω [rad/s]")
    fig.tight_layout()
    style.title(ax, what, detail)  # after the layout: wrapped to the axes' final width
    fig.tight_layout()
    style.save(fig, out, fmt)
    print(f"wrote {out}")


def main():
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("source", help="FRAME.vtp, PACKING.pvd or PACKING.lammpstrj")
    ap.add_argument("out", nargs="?", help="the picture (default: SOURCE's name, the format's "
                                           "extension)")
    style.add_arguments(ap, output=False)
    a = ap.parse_args()
    style.apply(a)
    source = a.source
    out, fmt = style.target(a, os.path.splitext(source)[0], a.out)
    summary = run_summary(source)
    if source.endswith(".lammpstrj"):
        arrays, walls, step, t = read_last_dump_frame(source)
        what, detail = headline(source, summary, t=t, step=step), "disks coloured by ω; a dump " \
            "holds no contacts"
    else:
        name, t = source, None
        if source.endswith(".pvd"):
            source, t = last_dataset(source)
        arrays, walls = read_vtp(source), []
        if t is None:
            # the frame's own time (docs/outputs.md, "TimeValue"), else its collection's
            t = float(arrays["TimeValue"][0]) if "TimeValue" in arrays else frame_time(source)
        what = headline(name, summary, t=t)
        detail = "disks coloured by ω; line width ∝ normal force"
    render(arrays, walls, what, detail, out, fmt)


if __name__ == "__main__":
    main()
