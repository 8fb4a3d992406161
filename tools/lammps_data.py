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

Inertia: LAMMPS gives an atom_style sphere atom a sphere's moment of inertia, 2/5 m r², in 2D
too, unless it is integrated with `fix nve/sphere disc` (needs `dimension 2`), which takes a
disk's, 1/2 m r², granular's. Integrate with `fix nve/sphere disc` to move the disks as granular
does; `compute erotate/sphere` has no disc option and counts 2/5 m r², 0.8× a disk's rotational
energy. The header line says so.

Checks: the snapshot (and summary.json) must be a regular file (a FIFO or a device is refused
before it is opened) of at most 16 GiB (summary.json: 64 MiB). In a dump every frame's header
lines must be there and in order, its atom count a non-negative integer with that many rows
before the file's end or the next frame, its box lines two finite numbers lo < hi, its columns
include id type radius x y vx vy omegaz, and no line may be cut off; in the frame written every
value must be a finite number (nan and inf refused), radius > 0, ids and types positive
integers. A GSD file must open with gsd and the frame written hold every chunk the data file
needs, with finite values and radii > 0. An areal density must be a finite number > 0.
Errors: one line (the file, the line or frame, what is wrong), exit 2, and no output file: the
data file is made whole in memory, written to a temporary in its folder and renamed over OUT.
"""
import argparse
import json
import math
import os
import re
import stat
import sys
import tempfile

# bytes: about 1000 frames of the 108 000-disk thesis case's dump (17 MB a frame)
MAX_SNAPSHOT = 16 << 30
MAX_SUMMARY = 64 << 20
MAX_LINE = 1 << 16  # bytes; a dump's rows are ~200
MAX_ID = 2**31 - 1  # LAMMPS' ids and types are 32-bit ints
COLUMNS = ("id", "type", "radius", "x", "y", "vx", "vy", "omegaz")
NUMBER = re.compile(rb"[+-]?(?:\d+\.?\d*|\.\d+)(?:[eE][+-]?\d{1,4})?")
INTEGER = re.compile(rb"[+-]?\d{1,19}")


class Refused(Exception):
    pass


def shown(text, limit=40):
    """A bit of a damaged file, quoted and short, for a one-line message."""
    if isinstance(text, bytes):
        text = text.decode("utf-8", "replace")
    return repr(text if len(text) <= limit else text[:limit] + "...")


def regular_file(path, limit):
    """Refuses what is not a regular file of at most `limit` bytes before anything opens it (a
    FIFO would block the open, /dev/zero would read for ever)."""
    try:
        s = os.stat(path)
    except OSError as e:
        raise Refused(f"{path}: {e.strerror}")
    if not stat.S_ISREG(s.st_mode):
        raise Refused(f"{path}: not a regular file")
    if s.st_size > limit:
        raise Refused(f"{path}: {s.st_size} bytes, more than the {limit >> 20} MiB a "
                      "granular file can be")


def number(token, where, what):
    if NUMBER.fullmatch(token):
        v = float(token)
        if math.isfinite(v):
            return v
    elif token.lstrip(b"+-").lower() not in (b"nan", b"inf", b"infinity"):
        raise Refused(f"{where}: {what} {shown(token)} is not a number")
    raise Refused(f"{where}: {what} {shown(token)} is not finite")  # nan, inf, 1e999


def integer(token, where, what, low):
    if not INTEGER.fullmatch(token) or int(token) < low:
        raise Refused(f"{where}: {what} {shown(token)} is not an integer >= {low}")
    return int(token)


class Lines:
    """A dump's lines, one at a time, each with its number; a line cut off (no newline) or
    longer than MAX_LINE is refused, and so is more than MAX_SNAPSHOT bytes in all."""

    def __init__(self, path, f):
        self.path, self.f, self.number, self.bytes = path, f, 0, 0

    def next(self, expected):
        """The next line without its newline, or None at the end of the file."""
        line = self.f.readline(MAX_LINE + 1)
        if not line:
            return None
        self.number += 1
        self.bytes += len(line)
        if self.bytes > MAX_SNAPSHOT:
            raise Refused(f"{self.where()}: the file is longer than {MAX_SNAPSHOT >> 20} MiB")
        if not line.endswith(b"\n"):
            raise Refused(f"{self.where()}: "
                          + (f"longer than {MAX_LINE} bytes" if len(line) > MAX_LINE else
                             f"cut off (no newline) where {expected} was expected"))
        return line[:-1]

    def need(self, expected):
        line = self.next(expected)
        if line is None:
            raise Refused(f"{self.path}: line {self.number + 1}: the file ends where {expected} "
                          "was expected")
        return line

    def item(self, header, exact=True):
        line = self.need(header)
        if (line != header.encode()) if exact else not line.startswith(header.encode()):
            raise Refused(f"{self.where()}: expected {header} (a dump granular wrote), found "
                          f"{shown(line)}")
        return line

    def where(self):
        return f"{self.path}: line {self.number}"


def read_frame(lines, k):
    """Frame k of a dump, its ITEM: TIME line read: (t, step, box, column names, the line number
    of its first atom row, its atom rows unparsed). The header is checked here, the rows' values
    only for the frame written (parse_rows)."""
    t = number(lines.need("the time").strip(), lines.where(), "time")
    lines.item("ITEM: TIMESTEP")
    step = integer(lines.need("the step").strip(), lines.where(), "step", 0)
    lines.item("ITEM: NUMBER OF ATOMS")
    n = integer(lines.need("the atom count").strip(), lines.where(), "atom count", 0)
    lines.item("ITEM: BOX BOUNDS", exact=False)
    box = []
    for axis in "xyz":
        fields = lines.need(f"the box's {axis} bounds").split()
        if len(fields) != 2:
            raise Refused(f"{lines.where()}: the box's {axis} bounds are {shown(b' '.join(fields))}"
                          ", not two numbers lo hi")
        lo, hi = (number(v, lines.where(), f"box {axis}{side}")
                  for v, side in zip(fields, ("lo", "hi")))
        if not lo < hi:
            raise Refused(f"{lines.where()}: the box's {axis} bounds {lo!r} {hi!r} are not "
                          "lo < hi")
        box.append((lo, hi))
    names = lines.item("ITEM: ATOMS", exact=False).decode("ascii", "replace").split()[2:]
    for name in COLUMNS:
        if name not in names:
            raise Refused(f"{lines.where()}: no column {name} (the columns are "
                          f"{shown(' '.join(names), 80)})")
    if len(set(names)) != len(names):
        raise Refused(f"{lines.where()}: a column named twice ({shown(' '.join(names), 80)})")
    first, rows = lines.number + 1, []
    for i in range(n):
        # the count is trusted only row by row: a wrong one ends at the file's end or at the
        # next frame's header, never loops or allocates beyond the file
        row = lines.next(f"atom row {i + 1} of {n}")
        if row is None or row.startswith(b"ITEM:"):
            found = "the file ends" if row is None else f"{shown(row)} comes"
            raise Refused(f"{lines.path}: line {lines.number + (row is None)}: {found} after "
                          f"{i} atom rows of the {n} that frame {k}'s NUMBER OF ATOMS says")
        rows.append(row)
    return t, step, box, names, first, rows


def parse_rows(path, names, first, rows):
    """The atom rows of the frame written, every value checked: {column: values}."""
    disks = {name: [] for name in names}
    for i, row in enumerate(rows):
        where = f"{path}: line {first + i}: atom row {i + 1}"
        fields = row.split()
        if len(fields) != len(names):
            raise Refused(f"{where}: {len(fields)} values for the {len(names)} columns")
        for name, v in zip(names, fields):
            if name in ("id", "type"):
                value = integer(v, where, name, 1)
                if value > MAX_ID:
                    raise Refused(f"{where}: {name} {value} is beyond LAMMPS' {MAX_ID}")
            else:
                value = number(v, where, name)
            disks[name].append(value)
        if not disks["radius"][-1] > 0:
            raise Refused(f"{where}: radius {disks['radius'][-1]!r} is not > 0")
    if len(set(disks["id"])) != len(rows):
        raise Refused(f"{path}: line {first}: an atom id appears twice in the frame")
    # granular's types number the distinct radii; LAMMPS allocates for every type up to the
    # largest
    if max(disks["type"]) > len(rows):
        raise Refused(f"{path}: line {first}: type {max(disks['type'])} in a frame of "
                      f"{len(rows)} disks")
    return disks


def frame_from_dump(path, time):
    # O_NONBLOCK: should the path have become a FIFO since the check, the open cannot block
    try:
        fd = os.open(path, os.O_RDONLY | os.O_NONBLOCK)
    except OSError as e:
        raise Refused(f"{path}: {e.strerror}")
    with os.fdopen(fd, "rb") as f:
        if not stat.S_ISREG(os.fstat(fd).st_mode):
            raise Refused(f"{path}: not a regular file")
        os.set_blocking(fd, True)
        lines = Lines(path, f)
        chosen, chosen_k, k = None, 0, 0
        while True:
            header = lines.next("ITEM: TIME")
            if header is None:
                break
            if header != b"ITEM: TIME":
                raise Refused(f"{lines.where()}: expected ITEM: TIME (a dump granular wrote), "
                              f"found {shown(header)}")
            frame = read_frame(lines, k)
            # the last frame, or the first of those nearest to the time
            if chosen is None or time is None or abs(frame[0] - time) < abs(chosen[0] - time):
                chosen, chosen_k = frame, k
            k += 1
    if chosen is None:
        raise Refused(f"{path}: holds no frame")
    t, step, box, names, first, rows = chosen
    if not rows:
        raise Refused(f"{path}: frame {chosen_k} holds no disks")
    return t, step, box, parse_rows(path, names, first, rows), chosen_k, k


def frame_from_gsd(path, time):
    try:
        import gsd.hoomd
    except ImportError:
        raise Refused(f"{path}: reading it needs gsd's Python module (pip install gsd)")
    import numpy as np  # gsd needs it

    where = path
    needed = ("configuration/step", "configuration/box", "particles/N", "particles/typeid",
              "particles/diameter", "particles/position", "particles/velocity", "log/Time",
              "log/bottom_y", "log/particles/omega")
    # gsd raises what its C reader and numpy raise (RuntimeError, OSError, ValueError, KeyError,
    # ...) on a damaged file: any of them, here only, is the file's fault
    try:
        try:
            trajectory = gsd.hoomd.open(path, "r")
        except ValueError:  # gsd before 3.0 (Debian 12's python3-gsd) names the mode "rb"
            trajectory = gsd.hoomd.open(path, "rb")
        with trajectory:
            frames = len(trajectory)
            if frames == 0:
                raise Refused(f"{path}: holds no frame")
            times = []
            for k in range(frames):
                where = f"{path}: frame {k}"
                if not trajectory.file.chunk_exists(frame=k, name="log/Time"):
                    raise Refused(f"{where}: no log/Time (not a GSD file granular wrote)")
                times.append(float(np.asarray(trajectory.file.read_chunk(
                    frame=k, name="log/Time")).reshape(-1)[0]))
                if not math.isfinite(times[-1]):
                    raise Refused(f"{where}: log/Time {times[-1]!r} is not finite")
            index = nearest(times, time)
            where = f"{path}: frame {index}"
            for name in needed:
                if not trajectory.file.chunk_exists(frame=index, name=name):
                    raise Refused(f"{where}: no {name} (not a GSD file granular wrote)")
            f = trajectory[index]
            n = int(f.particles.N)
            arrays = {
                "box": np.asarray(f.configuration.box, dtype=float).reshape(-1),
                "bottom_y": np.asarray(f.log["bottom_y"], dtype=float).reshape(-1),
                "diameter": np.asarray(f.particles.diameter, dtype=float),
                "position": np.asarray(f.particles.position, dtype=float),
                "velocity": np.asarray(f.particles.velocity, dtype=float),
                "omega": np.asarray(f.log["particles/omega"], dtype=float).reshape(-1),
                "typeid": np.asarray(f.particles.typeid).reshape(-1),
            }
            step = int(f.configuration.step)
    except Refused:
        raise
    except Exception as e:
        raise Refused(f"{where}: gsd cannot read it ({type(e).__name__}: {e})")
    if n == 0:
        raise Refused(f"{where}: holds no disks")
    shapes = {"box": (6,), "bottom_y": (1,), "diameter": (n,), "position": (n, 3),
              "velocity": (n, 3), "omega": (n,), "typeid": (n,)}
    for name, shape in shapes.items():
        a = arrays[name]
        if a.shape != shape:
            raise Refused(f"{where}: {name} has shape {a.shape}, not {shape} for {n} disks")
        if name != "typeid" and not np.isfinite(a).all():
            bad = int(np.flatnonzero(~np.isfinite(a.reshape(len(a), -1)).all(axis=1))[0])
            which = "value" if name in ("box", "bottom_y") else "of disk"
            raise Refused(f"{where}: {name} {which} {bad + 1} is not finite")
    lx, ly = float(arrays["box"][0]), float(arrays["box"][1])
    if not (lx > 0 and ly > 0):
        raise Refused(f"{where}: box {lx!r} by {ly!r} is not positive")
    bottom = float(arrays["bottom_y"][0])
    if (arrays["diameter"] <= 0).any():
        bad = int(np.flatnonzero(arrays["diameter"] <= 0)[0])
        raise Refused(f"{where}: disk {bad + 1}: diameter {float(arrays['diameter'][bad])!r} is "
                      "not > 0")
    if int(arrays["typeid"].max()) >= n:  # as for a dump: types number the distinct radii
        raise Refused(f"{where}: typeid {int(arrays['typeid'].max())} in a frame of {n} disks")
    p, v = arrays["position"], arrays["velocity"]
    # positions are relative to the box's centre (HOOMD's boxes are centred)
    disks = {
        "id": list(range(1, n + 1)),
        "radius": [float(d) / 2 for d in arrays["diameter"]],
        "x": [float(x) + lx / 2 for x in p[:, 0]],
        "y": [float(y) + bottom + ly / 2 for y in p[:, 1]],
        "vx": [float(x) for x in v[:, 0]],
        "vy": [float(y) for y in v[:, 1]],
        "omegaz": [float(w) for w in arrays["omega"]],
        "type": [int(i) + 1 for i in arrays["typeid"]],
    }
    r_max = max(disks["radius"])
    box = [(0.0, lx), (bottom, bottom + ly), (-r_max, r_max)]
    return times[index], step, box, disks, index, frames


def nearest(times, time):
    if time is None:
        return len(times) - 1
    return min(range(len(times)), key=lambda k: abs(times[k] - time))


def areal_density(snapshot, given):
    if given is not None:
        if not (math.isfinite(given) and given > 0):
            raise Refused(f"--areal-density {given!r}: must be a finite number > 0")
        return given
    summary = os.path.join(os.path.dirname(os.path.dirname(os.path.abspath(snapshot))),
                           "summary.json")
    if not os.path.lexists(summary):
        raise Refused(f"{summary}: no finished run's case to take packing/areal_density from; "
                      "give --areal-density")
    regular_file(summary, MAX_SUMMARY)
    try:
        with open(summary, "rb") as f:
            text = f.read(MAX_SUMMARY + 1)
        case = json.loads(text)["case"]
        rho = case["packing"]["areal_density"]
    except OSError as e:
        raise Refused(f"{summary}: {e.strerror}")
    except (ValueError, KeyError, TypeError, IndexError, RecursionError) as e:
        raise Refused(f"{summary}: no case with packing/areal_density ({type(e).__name__}); "
                      "give --areal-density")
    # bool is an int to Python; json gives NaN and Infinity as floats
    if isinstance(rho, bool) or not isinstance(rho, (int, float)) or not (
            math.isfinite(rho) and rho > 0):
        raise Refused(f"{summary}: case/packing/areal_density {shown(json.dumps(rho))} is not a "
                      "finite number > 0; give --areal-density")
    return float(rho)


def data_text(path, name, t, step, box, disks, rho):
    n = len(disks["x"])
    if n == 0:
        raise Refused(f"{path}: step {step}: the frame holds no disks")
    # the first line is read_data's title: one line
    lines = [f"granular {name} at t = {t!r} s (step {step}): atom_style sphere, dimension 2, "
             "units si; inertia 2/5 m r^2 (LAMMPS' sphere) unless integrated with "
             "fix nve/sphere disc (1/2 m r^2, granular's disk)",
             "", f"{n} atoms", f"{max(disks['type'])} atom types", ""]
    for (lo, hi), axis in zip(box, "xyz"):
        lines.append(f"{lo!r} {hi!r} {axis}lo {axis}hi")
    lines += ["", "Atoms # sphere", ""]
    for i in range(n):
        r = disks["radius"][i]
        density = 3 * rho / (4 * r)  # (4/3)πr³ · density = ρπr²
        if not (math.isfinite(2 * r) and math.isfinite(density)):
            raise Refused(f"{path}: step {step}: disk {disks['id'][i]}: radius {r!r} gives a "
                          "diameter or density beyond a double")
        lines.append(f"{disks['id'][i]} {disks['type'][i]} {2 * r!r} {density!r} "
                     f"{disks['x'][i]!r} {disks['y'][i]!r} 0")
    lines += ["", "Velocities", ""]
    for i in range(n):
        lines.append(f"{disks['id'][i]} {disks['vx'][i]!r} {disks['vy'][i]!r} 0 0 0 "
                     f"{disks['omegaz'][i]!r}")
    return "\n".join(lines) + "\n"


def write_atomically(out, text):
    """The whole file or none: a temporary in out's folder, renamed over out."""
    folder = os.path.dirname(os.path.abspath(out))
    try:
        fd, tmp = tempfile.mkstemp(dir=folder, prefix="." + os.path.basename(out) + ".",
                                   suffix=".tmp")
    except OSError as e:
        raise Refused(f"{out}: cannot write: {e.strerror}")
    try:
        with os.fdopen(fd, "w", encoding="utf-8") as f:
            umask = os.umask(0)
            os.umask(umask)
            os.fchmod(f.fileno(), 0o666 & ~umask)  # mkstemp's 0600 is no data file's mode
            f.write(text)
            f.flush()
            os.fsync(f.fileno())
        os.replace(tmp, out)
    except OSError as e:
        try:
            os.unlink(tmp)
        except OSError:
            pass
        raise Refused(f"{out}: cannot write: {e.strerror}")


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
        if args.time is not None and not math.isfinite(args.time):
            raise Refused(f"--time {args.time!r}: must be a finite number")
        regular_file(args.snapshot, MAX_SNAPSHOT)
        try:
            t, step, box, disks, index, frames = read(args.snapshot, args.time)
        except OSError as e:
            raise Refused(f"{args.snapshot}: {e.strerror}")
        rho = areal_density(args.snapshot, args.areal_density)
        out = args.out or f"{name}_step{step}.data"
        if os.path.isdir(out):
            raise Refused(f"{out}: is a folder (give the data file's name)")
        if os.path.exists(out) and os.path.samefile(out, args.snapshot):
            raise Refused(f"{out}: is the snapshot itself")
        write_atomically(out, data_text(args.snapshot, name, t, step, box, disks, rho))
    except Refused as e:
        # one line whatever a file name or a library's message holds
        print(" ".join(str(e).splitlines()), file=sys.stderr)
        sys.exit(2)
    print(f"{out}: {name} at t = {t:.6g} s (step {step}, frame {index} of {frames}), "
          f"{len(disks['x'])} disks")


if __name__ == "__main__":
    main()
