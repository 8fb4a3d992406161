#!/usr/bin/env python3
"""Writes one snapshot frame of a packing as a LAMMPS data file (docs/outputs.md, "LAMMPS data
files"): the packing at a time, ready for LAMMPS' read_data.

    lammps_data.py SNAPSHOT [OUT.data] [--time T] [--areal-density RHO]

SNAPSHOT is a run's snapshots/packing_<p>.lammpstrj (the state's doubles) or packing_<p>.gsd
(positions and radii at float32, the GSD schema's precision; needs gsd's Python module). The frame
is the last one, or with --time the one nearest t = T s. OUT is packing_<p>_step<N>.data in the
current folder unless given. The file is for `atom_style sphere` in 2D (`dimension 2`, `boundary
f f p`): atoms `id type diameter density x y 0`, velocities `id vx vy 0 0 0 omega`; the box is
the frame's (x: the side walls, y: the bottom wall to the highest disk top, z: ±largest radius).
LAMMPS' read_data gives a sphere the mass density × (4/3)πr³, in 2D too, so the density written
is 3ρ/(4r): the mass LAMMPS computes is the disk's, ρπr², with ρ the case's
packing/areal_density (from the run's summary.json, or --areal-density). The frame's time and
step are in the header line (a data file has no field for them).
Errors: one line, exit 2.
"""
import argparse
import json
import os
import re
import sys


class Refused(Exception):
    pass


def dump_frames(path):
    """Every frame of a dump granular wrote: (time, step, box rows, columns by name)."""
    lines = open(path).read().split("\n")
    frames, k = [], 0
    while k < len(lines) and lines[k]:
        if lines[k] != "ITEM: TIME":
            raise Refused(f"{path}: line {k + 1}: expected ITEM: TIME (a dump granular wrote)")
        t, step, n = float(lines[k + 1]), int(lines[k + 3]), int(lines[k + 5])
        box = [tuple(map(float, lines[k + 7 + d].split())) for d in range(3)]
        names = lines[k + 10].split()[2:]
        rows = [line.split() for line in lines[k + 11 : k + 11 + n]]
        columns = {name: [row[c] for row in rows] for c, name in enumerate(names)}
        frames.append((t, step, box, columns))
        k += 11 + n
    return frames


def frame_from_dump(path, time):
    frames = dump_frames(path)
    if not frames:
        raise Refused(f"{path}: holds no frame")
    index = nearest([f[0] for f in frames], time)
    t, step, box, c = frames[index]
    disks = {
        name: [float(v) for v in c[name]]
        for name in ("radius", "x", "y", "vx", "vy", "omegaz")
    }
    disks["type"] = [int(v) for v in c["type"]]
    return t, step, box, disks, index, len(frames)


def frame_from_gsd(path, time):
    try:
        import gsd.hoomd
    except ImportError:
        raise Refused(f"{path}: reading it needs gsd's Python module (pip install gsd)")
    try:
        trajectory = gsd.hoomd.open(path, "r")
    except ValueError:  # gsd before 3.0 (Debian 12's python3-gsd) names the mode "rb"
        trajectory = gsd.hoomd.open(path, "rb")
    with trajectory:
        if len(trajectory) == 0:
            raise Refused(f"{path}: holds no frame")
        times = [float(f.log["time"][0]) for f in trajectory]
        index = nearest(times, time)
        f = trajectory[index]
        lx, ly = float(f.configuration.box[0]), float(f.configuration.box[1])
        bottom = float(f.log["bottom_y"][0])
        p = f.particles
        # positions are relative to the box's centre (HOOMD's boxes are centred)
        disks = {
            "radius": [float(d) / 2 for d in p.diameter],
            "x": [float(v) + lx / 2 for v in p.position[:, 0]],
            "y": [float(v) + bottom + ly / 2 for v in p.position[:, 1]],
            "vx": [float(v) for v in p.velocity[:, 0]],
            "vy": [float(v) for v in p.velocity[:, 1]],
            "omegaz": [float(v) for v in f.log["particles/omega"]],
            "type": [int(i) + 1 for i in p.typeid],
        }
        r_max = max(disks["radius"])
        box = [(0.0, lx), (bottom, bottom + ly), (-r_max, r_max)]
        return times[index], int(f.configuration.step), box, disks, index, len(trajectory)


def nearest(times, time):
    if time is None:
        return len(times) - 1
    return min(range(len(times)), key=lambda k: abs(times[k] - time))


def areal_density(snapshot, given):
    if given is not None:
        return given
    summary = os.path.join(os.path.dirname(os.path.dirname(os.path.abspath(snapshot))),
                           "summary.json")
    try:
        case = json.load(open(summary))["case"]
        return float(case["packing"]["areal_density"])
    except (OSError, ValueError, KeyError, TypeError):
        raise Refused(f"{summary}: no finished run's case to take packing/areal_density from; "
                      "give --areal-density")


def data_text(name, t, step, box, disks, rho):
    n = len(disks["x"])
    lines = [f"granular {name} at t = {t!r} s (step {step}): atom_style sphere, dimension 2, "
             "units si", "", f"{n} atoms", f"{max(disks['type'])} atom types", ""]
    for (lo, hi), axis in zip(box, "xyz"):
        lines.append(f"{lo!r} {hi!r} {axis}lo {axis}hi")
    lines += ["", "Atoms # sphere", ""]
    for i in range(n):
        r = disks["radius"][i]
        density = 3 * rho / (4 * r)  # (4/3)πr³ · density = ρπr²
        lines.append(f"{i + 1} {disks['type'][i]} {2 * r!r} {density!r} {disks['x'][i]!r} "
                     f"{disks['y'][i]!r} 0")
    lines += ["", "Velocities", ""]
    for i in range(n):
        lines.append(f"{i + 1} {disks['vx'][i]!r} {disks['vy'][i]!r} 0 0 0 {disks['omegaz'][i]!r}")
    return "\n".join(lines) + "\n"


def main():
    a = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    a.add_argument("snapshot", help="snapshots/packing_<p>.lammpstrj or .gsd")
    a.add_argument("out", nargs="?", help="the data file (packing_<p>_step<N>.data)")
    a.add_argument("--time", type=float, help="take the frame nearest this time [s]")
    a.add_argument("--areal-density", type=float, help="ρ [kg/m²] (the case's, by default)")
    args = a.parse_args()
    try:
        name = os.path.splitext(os.path.basename(args.snapshot))[0]
        if not re.fullmatch(r"packing_\d+", name):
            raise Refused(f"{args.snapshot}: not a snapshot granular wrote (packing_<p>.lammpstrj "
                          "or .gsd)")
        read = {".lammpstrj": frame_from_dump, ".gsd": frame_from_gsd}.get(
            os.path.splitext(args.snapshot)[1])
        if read is None:
            raise Refused(f"{args.snapshot}: not a .lammpstrj or .gsd file")
        try:
            t, step, box, disks, index, frames = read(args.snapshot, args.time)
        except OSError as e:
            raise Refused(f"{args.snapshot}: {e.strerror}")
        except (ValueError, IndexError, KeyError) as e:
            raise Refused(f"{args.snapshot}: not a snapshot granular wrote ({e})")
        rho = areal_density(args.snapshot, args.areal_density)
        if not rho > 0:
            raise Refused(f"--areal-density {rho}: must be > 0")
        out = args.out or f"{name}_step{step}.data"
        try:
            with open(out, "w") as f:
                f.write(data_text(name, t, step, box, disks, rho))
        except OSError as e:
            raise Refused(f"{out}: cannot write: {e.strerror}")
    except Refused as e:
        print(e, file=sys.stderr)
        sys.exit(2)
    print(f"{out}: {name} at t = {t:.6g} s (step {step}, frame {index} of {frames}), "
          f"{len(disks['x'])} disks")


if __name__ == "__main__":
    main()
