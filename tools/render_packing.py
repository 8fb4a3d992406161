#!/usr/bin/env python3
"""Draws one snapshot frame of a packing (docs/outputs.md, "snapshots/") as a PNG.

    render_packing.py FRAME.vtp [OUT.png]
    render_packing.py PACKING.pvd [OUT.png]     the collection's last frame
    render_packing.py PACKING.lammpstrj [OUT.png]   its last frame: disks only (no contacts)

Disks are circles coloured by their angular velocity ω (diverging colormap, limits ±max|ω|),
contacts are lines whose width is proportional to the normal force (the strongest 3 points
wide), walls are black lines. Reads the files granular writes (raw appended VTK data, UInt64
block headers, little-endian) with numpy alone, so that `make run` needs only matplotlib.
"""
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


def read_last_dump_frame(path):
    """Disks of the last frame of a LAMMPS dump: no contacts, the box as the walls."""
    lines = open(path).read().split("\n")
    last = max(i for i, line in enumerate(lines) if line == "ITEM: TIMESTEP")
    step = int(lines[last + 1])
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
    return arrays, walls, f"step {step}"


def render(arrays, walls, title, out):
    points = arrays["Points"][:, :2]
    disks = arrays["disk"] >= 0
    omega = arrays["omega"][disks]
    radius = arrays["radius"][disks]
    centres = points[disks]
    limit = max(float(np.max(np.abs(omega))) if omega.size else 0.0, 1e-12)

    fig, ax = plt.subplots(figsize=(7, 5.5))
    circles = PatchCollection([Circle(c, r) for c, r in zip(centres, radius)], cmap="RdBu_r",
                              edgecolor="0.3", linewidth=0.4)
    circles.set_array(omega)
    circles.set_clim(-limit, limit)
    ax.add_collection(circles)

    # cells: contacts (kind 0 disk–disk, 1 disk–wall) and walls (kind 2)
    conn, offsets = arrays["connectivity"], arrays["offsets"]
    starts = np.concatenate([[0], offsets[:-1]]).astype(int)
    segments = [points[conn[s : e]] for s, e in zip(starts, offsets.astype(int))]
    kind = arrays["kind"]
    contacts = [seg for seg, k in zip(segments, kind) if k != 2]
    force = arrays["normal_force"][kind != 2] if len(kind) else np.array([])
    if contacts:
        widths = 3.0 * force / max(float(force.max()), 1e-300)
        ax.add_collection(LineCollection(contacts, linewidths=widths, colors="k", alpha=0.8))
    walls += [tuple(map(tuple, seg)) for seg, k in zip(segments, kind) if k == 2]
    ax.add_collection(LineCollection(walls, linewidths=2.0, colors="k"))

    everything = np.vstack([centres - radius[:, None], centres + radius[:, None]] +
                           [np.array(w) for w in walls])
    lo, hi = everything.min(axis=0), everything.max(axis=0)
    pad = 0.03 * float(np.max(hi - lo))
    ax.set_xlim(lo[0] - pad, hi[0] + pad)
    ax.set_ylim(lo[1] - pad, hi[1] + pad)
    ax.set_aspect("equal")
    ax.set_xlabel("x [m]")
    ax.set_ylabel("y [m]")
    ax.set_title(title)
    fig.colorbar(circles, ax=ax, shrink=0.7, label="ω [rad/s]")
    fig.tight_layout()
    fig.savefig(out, dpi=150)
    print(f"wrote {out}")


def main():
    if len(sys.argv) not in (2, 3):
        sys.exit(__doc__)
    source = sys.argv[1]
    out = sys.argv[2] if len(sys.argv) == 3 else os.path.splitext(source)[0] + ".png"
    if source.endswith(".lammpstrj"):
        arrays, walls, title = read_last_dump_frame(source)
        title = f"{os.path.basename(source)}, {title}\n(a dump holds no contacts)"
    else:
        t = None
        if source.endswith(".pvd"):
            source, t = last_dataset(source)
        arrays, walls = read_vtp(source), []
        title = os.path.basename(source) + (f", t = {t:.6g} s" if t is not None else "")
        title += "\ncontacts: line width ∝ normal force"
    render(arrays, walls, title, out)


if __name__ == "__main__":
    main()
