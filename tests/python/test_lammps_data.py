"""tools/lammps_data.py on hostile and damaged snapshots (issue 32, item 7; docs/outputs.md,
"LAMMPS data files"): every damage is one line on stderr, exit 2, within seconds, and no output
file; a valid dump gives its atoms and velocities back and says that `fix nve/sphere disc` is the
integrator of granular's disks.

The tool runs with /usr/bin/python3 (Debian's gsd), as tests/cli/snapshot_test.cpp runs it.
LAMMPS_DATA_TOOL names another copy of the tool (e.g. the one before the fix, to see the
reproducers fail)."""
import math
import os
import resource
import shutil
import subprocess
import sys

import pytest

from conftest import SOURCE_DIR

TOOL = os.environ.get("LAMMPS_DATA_TOOL", str(SOURCE_DIR / "tools" / "lammps_data.py"))
PYTHON = "/usr/bin/python3" if os.path.exists("/usr/bin/python3") else sys.executable
RHO = 3.57  # kg/m², the areal density in the run's summary.json
SECONDS = 20  # a damaged file must be refused well within this

# three disks as src/io/snapshot_lammps.cpp writes them: id type radius x y vx vy omegaz theta
DISKS = [
    (1, 1, 0.0005, 0.0011, 0.00052, 0.25, -0.125, 3.5, 0.1),
    (2, 2, 0.00075, 0.0027, 0.0008, -1.5e-05, 0.0, -12.25, -0.2),
    (3, 1, 0.0005, 0.0042, 0.0006, 0.0, 2.5, 0.0, 0.0),
]
COLUMNS = "id type radius x y vx vy omegaz theta"


def frame_text(t=0.06, step=1600, disks=DISKS, count=None, box=None, columns=COLUMNS):
    """One frame of a dump in granular's layout (TIME before TIMESTEP)."""
    box = box or ["0 0.005", "0.00002 0.00155", "-0.00075 0.00075"]
    rows = "".join(" ".join(map(repr, d)) + "\n" for d in disks)
    return (f"ITEM: TIME\n{t!r}\nITEM: TIMESTEP\n{step}\nITEM: NUMBER OF ATOMS\n"
            f"{len(disks) if count is None else count}\nITEM: BOX BOUNDS ff ff ff\n"
            + "".join(b + "\n" for b in box) + f"ITEM: ATOMS {columns}\n" + rows)


def valid_dump():
    return frame_text(t=-0.04, step=0) + frame_text()


def run_folder(tmp_path, snapshot_text=None, name="packing_0.lammpstrj", density=RHO):
    """A run's folder: summary.json with the areal density, snapshots/<name>; the tool runs in
    an empty folder out/."""
    (tmp_path / "snapshots").mkdir()
    (tmp_path / "out").mkdir()
    (tmp_path / "summary.json").write_text(
        '{"case": {"packing": {"areal_density": %s}}}' % density)
    snapshot = tmp_path / "snapshots" / name
    if snapshot_text is not None:
        snapshot.write_bytes(snapshot_text.encode() if isinstance(snapshot_text, str)
                             else snapshot_text)
    return snapshot


def tool(snapshot, *args, cwd, memory=None):
    """Runs the tool; `memory` bounds its address space [bytes] (a tool that reads /dev/zero
    would take the machine's memory before the timeout)."""
    def bound():
        resource.setrlimit(resource.RLIMIT_AS, (memory, memory))
    try:
        return subprocess.run([PYTHON, TOOL, str(snapshot), *map(str, args)], cwd=cwd,
                              capture_output=True, text=True, timeout=SECONDS,
                              preexec_fn=bound if memory else None)
    except subprocess.TimeoutExpired:
        pytest.fail(f"lammps_data.py {snapshot.name} ran for more than {SECONDS} s")


def assert_refused(p, folder):
    """Exit 2, one line on stderr and no traceback, nothing written."""
    assert p.returncode == 2, f"exit {p.returncode}\n{p.stdout}\n{p.stderr}"
    assert "Traceback" not in p.stderr, p.stderr
    assert len(p.stderr.splitlines()) == 1 and p.stderr.endswith("\n"), p.stderr
    assert sorted(os.listdir(folder)) == [], f"wrote {os.listdir(folder)}"


def refused(tmp_path, text, *args, name="packing_0.lammpstrj"):
    snapshot = run_folder(tmp_path, text, name=name)
    p = tool(snapshot, *args, cwd=tmp_path / "out")
    assert_refused(p, tmp_path / "out")
    return p.stderr


def read_data(path):
    """A data file's header line, box, atom rows and velocity rows."""
    lines = path.read_text().split("\n")
    sections, name = {"header": lines[0], "Atoms": [], "Velocities": [], "box": []}, None
    for line in lines[1:]:
        if line.startswith("Atoms") or line.startswith("Velocities"):
            name = line.split()[0]
        elif line and name:
            sections[name].append(line.split())
        elif line.endswith("hi"):
            sections["box"].append(line.split())
    return sections


# ---- a valid dump ----------------------------------------------------------------------------

def test_a_valid_dump_gives_its_atoms_and_velocities_back(tmp_path):
    snapshot = run_folder(tmp_path, valid_dump())
    p = tool(snapshot, cwd=tmp_path / "out")
    assert p.returncode == 0, p.stderr
    assert "(step 1600, frame 1 of 2), 3 disks" in p.stdout
    data = tmp_path / "out" / "packing_0_step1600.data"
    assert os.listdir(tmp_path / "out") == [data.name]  # no temporary left
    d = read_data(data)
    assert "at t = 0.06 s (step 1600" in d["header"]
    assert "fix nve/sphere disc" in d["header"] and "2/5" in d["header"]
    assert d["box"] == [["0.0", "0.005", "xlo", "xhi"], ["2e-05", "0.00155", "ylo", "yhi"],
                        ["-0.00075", "0.00075", "zlo", "zhi"]]
    assert len(d["Atoms"]) == len(d["Velocities"]) == 3
    for disk, atom, velocity in zip(DISKS, d["Atoms"], d["Velocities"]):
        i, kind, r, x, y, vx, vy, omega, _ = disk
        assert [int(atom[0]), int(atom[1])] == [i, kind]
        assert float(atom[2]) == 2 * r
        assert float(atom[3]) == 3 * RHO / (4 * r)  # LAMMPS' (4/3)πr³·density = ρπr²
        assert [float(atom[4]), float(atom[5]), float(atom[6])] == [x, y, 0]
        assert int(velocity[0]) == i
        assert [float(v) for v in velocity[1:]] == [vx, vy, 0, 0, 0, omega]


def test_time_takes_the_nearest_frame(tmp_path):
    snapshot = run_folder(tmp_path, valid_dump())
    p = tool(snapshot, "x.data", "--time", "-0.03", cwd=tmp_path / "out")
    assert p.returncode == 0, p.stderr
    assert "(step 0, frame 0 of 2), 3 disks" in p.stdout


@pytest.mark.skipif(shutil.which("lmp") is None, reason="LAMMPS (lmp) is missing")
def test_lammps_reads_it_and_integrates_disks(tmp_path):
    """read_data takes the file; fix nve/sphere disc takes the disks in 2D; each mass is ρπr²."""
    snapshot = run_folder(tmp_path, valid_dump())
    out = tmp_path / "out"
    assert tool(snapshot, "p.data", cwd=out).returncode == 0
    (out / "in.lmp").write_text(
        "units si\ndimension 2\nboundary f f p\natom_style sphere\nread_data p.data\n"
        "fix 1 all nve/sphere disc\nvariable m equal mass(all)\n"
        "thermo_style custom step atoms v_m\nthermo_modify format float %.17g\nrun 0\n")
    p = subprocess.run(["lmp", "-in", "in.lmp", "-log", "none"], cwd=out, capture_output=True,
                       text=True, timeout=60)
    assert p.returncode == 0, p.stdout + p.stderr
    mass = sum(RHO * math.pi * d[2] ** 2 for d in DISKS)
    rows = [line.split() for line in p.stdout.splitlines()]
    row = next(r for r in rows if len(r) == 3 and r[:2] == ["0", "3"])
    assert float(row[2]) == pytest.approx(mass, rel=1e-12)


# ---- damaged dumps -----------------------------------------------------------------------------

def damaged_row(column, value):
    disks = [list(d) for d in DISKS]
    disks[1][COLUMNS.split().index(column)] = value
    return frame_text(disks=disks)


class Raw(str):
    """A value written as it stands (repr of a str would quote it)."""

    def __repr__(self):
        return str(self)


DAMAGES = {
    "count_minus_11": frame_text(count=-11),
    "count_beyond_the_file": frame_text(count=10**12),
    "count_not_an_integer": frame_text(count="3.5"),
    "count_beyond_the_frame": frame_text(count=5) + frame_text(),
    "radius_0": damaged_row("radius", 0.0),
    "radius_negative": damaged_row("radius", -0.0005),
    "x_nan": damaged_row("x", math.nan),
    "x_inf": damaged_row("x", math.inf),
    "vx_nan": damaged_row("vx", math.nan),
    "vx_inf": damaged_row("vx", -math.inf),
    "omegaz_nan": damaged_row("omegaz", math.nan),
    "omegaz_inf": damaged_row("omegaz", math.inf),
    "x_beyond_a_double": damaged_row("x", Raw("1e999")),
    "x_not_a_number": damaged_row("x", Raw("0x1p-3")),
    "type_0": damaged_row("type", 0),
    "type_not_an_integer": damaged_row("type", 1.5),
    "type_beyond_the_disks": damaged_row("type", 2**31 - 1),
    "id_twice": damaged_row("id", 1),
    "a_value_missing": frame_text(disks=[DISKS[0], DISKS[1][:-1], DISKS[2]]),
    "box_one_number": frame_text(box=["0", "0.00002 0.00155", "-0.00075 0.00075"]),
    "box_letters": frame_text(box=["a b", "0.00002 0.00155", "-0.00075 0.00075"]),
    "box_lo_above_hi": frame_text(box=["0 0.005", "0.00155 0.00002", "-0.00075 0.00075"]),
    "box_lo_equals_hi": frame_text(box=["0 0.005", "0.00002 0.00155", "0.00075 0.00075"]),
    "box_nan": frame_text(box=["0 nan", "0.00002 0.00155", "-0.00075 0.00075"]),
    "column_omegaz_missing": frame_text(
        disks=[d[:7] + d[8:] for d in DISKS], columns="id type radius x y vx vy theta"),
    "truncated_frame": frame_text().rsplit("3 1 ", 1)[0],
    "cut_in_a_row": frame_text()[:-12],
    "cut_in_a_number": frame_text()[:-2],  # theta 0.0 cut to "0." still parses
    "truncated_header": frame_text().split("ITEM: BOX")[0],
    "timestep_before_time": frame_text().replace("ITEM: TIME\n0.06\nITEM: TIMESTEP\n1600\n",
                                                 "ITEM: TIMESTEP\n1600\nITEM: TIME\n0.06\n"),
    "time_nan": frame_text(t=math.nan),
    "no_frame": "",
    "not_text": bytes(range(256)) * 4,
}


@pytest.mark.parametrize("damage", DAMAGES)
def test_a_damaged_dump_is_one_line_and_no_file(tmp_path, damage):
    refused(tmp_path, DAMAGES[damage])


def test_the_message_names_the_line_and_the_column(tmp_path):
    message = refused(tmp_path, damaged_row("omegaz", math.nan))
    assert "packing_0.lammpstrj: line 13" in message and "omegaz" in message, message
    assert "atom row 2" in message, message


def test_a_fifo_is_refused_at_once(tmp_path):
    run_folder(tmp_path)
    os.mkfifo(tmp_path / "snapshots" / "packing_0.lammpstrj")
    p = tool(tmp_path / "snapshots" / "packing_0.lammpstrj", cwd=tmp_path / "out")
    assert_refused(p, tmp_path / "out")


def test_dev_zero_is_refused(tmp_path):
    run_folder(tmp_path)
    (tmp_path / "snapshots" / "packing_0.lammpstrj").symlink_to("/dev/zero")
    p = tool(tmp_path / "snapshots" / "packing_0.lammpstrj", cwd=tmp_path / "out",
             memory=1 << 30)
    assert_refused(p, tmp_path / "out")


def test_a_folder_is_refused(tmp_path):
    run_folder(tmp_path)
    (tmp_path / "snapshots" / "packing_0.lammpstrj").mkdir()
    p = tool(tmp_path / "snapshots" / "packing_0.lammpstrj", cwd=tmp_path / "out")
    assert_refused(p, tmp_path / "out")


@pytest.mark.parametrize("density", ["NaN", "-1", '"abc"', "0", "true", "Infinity"])
def test_a_bad_areal_density_is_one_line(tmp_path, density):
    snapshot = run_folder(tmp_path, valid_dump(), density=density)
    assert_refused(tool(snapshot, cwd=tmp_path / "out"), tmp_path / "out")


@pytest.mark.parametrize("density", ["nan", "inf", "-3"])
def test_a_bad_areal_density_argument_is_one_line(tmp_path, density):
    snapshot = run_folder(tmp_path, valid_dump())
    p = tool(snapshot, f"--areal-density={density}", cwd=tmp_path / "out")
    assert_refused(p, tmp_path / "out")


def test_a_summary_that_is_a_fifo_is_refused(tmp_path):
    snapshot = run_folder(tmp_path, valid_dump())
    (tmp_path / "summary.json").unlink()
    os.mkfifo(tmp_path / "summary.json")
    assert_refused(tool(snapshot, cwd=tmp_path / "out"), tmp_path / "out")


@pytest.mark.parametrize("out", ["missing/p.data", "."])
def test_an_unwritable_output_is_one_line(tmp_path, out):
    snapshot = run_folder(tmp_path, valid_dump())
    assert_refused(tool(snapshot, out, cwd=tmp_path / "out"), tmp_path / "out")


# ---- GSD files ---------------------------------------------------------------------------------

def tool_has_gsd():
    return subprocess.run([PYTHON, "-c", "import gsd.hoomd"], capture_output=True).returncode == 0


# writes a 3-disk frame as granular's GSD writer does (src/io/snapshot_gsd.cpp), less the log
# entries named in argv[2:] ("omega_nan": a disk's ω nan); with the tool's gsd (2.x names the
# modes "wb", Snapshot; 3+ "w", Frame)
WRITE_GSD = """
import sys, numpy as np, gsd.hoomd
drop = sys.argv[2:]
frame = gsd.hoomd.Frame() if hasattr(gsd.hoomd, "Frame") else gsd.hoomd.Snapshot()
frame.configuration.step = 1600
frame.configuration.dimensions = 2
frame.configuration.box = [0.005, 0.002, 0, 0, 0, 0]
frame.particles.N = 3
frame.particles.types = ["A", "B"]
frame.particles.typeid = np.array([0, 1, 0], dtype=np.uint32)
frame.particles.diameter = np.array([0.001, 0.0015, 0.001], dtype=np.float32)
frame.particles.position = np.array([[-0.0014, -0.0005, 0], [0.0002, -0.0002, 0],
                                     [0.0017, -0.0004, 0]], dtype=np.float32)
frame.particles.velocity = np.array([[0.25, -0.125, 0], [0, 0, 0], [0, 2.5, 0]],
                                    dtype=np.float32)
log = {"Time": np.array([0.06]), "bottom_y": np.array([0.00002]),
       "particles/omega": np.array([3.5, -12.25, np.nan if "omega_nan" in drop else 0])}
frame.log = {k: v for k, v in log.items() if k not in drop}
try:
    f = gsd.hoomd.open(sys.argv[1], "w")
except ValueError:
    f = gsd.hoomd.open(sys.argv[1], "wb")
with f:
    f.append(frame)
"""


def gsd_file(path, *drop):
    p = subprocess.run([PYTHON, "-c", WRITE_GSD, str(path), *drop], capture_output=True,
                       text=True)
    assert p.returncode == 0, p.stderr


needs_gsd = pytest.mark.skipif(not tool_has_gsd(), reason=f"{PYTHON} has no gsd module")


@needs_gsd
def test_a_corrupt_gsd_file_is_one_line_and_no_file(tmp_path):
    pytest.importorskip("gsd.hoomd")
    refused(tmp_path, os.urandom(4096), name="packing_0.gsd")


@needs_gsd
def test_a_cut_gsd_file_is_one_line_and_no_file(tmp_path):
    pytest.importorskip("gsd.hoomd")
    whole = tmp_path / "whole.gsd"
    gsd_file(whole)
    refused(tmp_path, whole.read_bytes()[:300], name="packing_0.gsd")


@needs_gsd
def test_a_valid_gsd_file_gives_its_disks(tmp_path):
    snapshot = run_folder(tmp_path, name="packing_0.gsd")
    gsd_file(snapshot)
    p = tool(snapshot, cwd=tmp_path / "out")
    assert p.returncode == 0, p.stderr
    assert "(step 1600, frame 0 of 1), 3 disks" in p.stdout
    d = read_data(tmp_path / "out" / "packing_0_step1600.data")
    assert "fix nve/sphere disc" in d["header"]
    # positions about the box's centre, y from the bottom wall
    assert float(d["Atoms"][0][4]) == pytest.approx(0.0011, abs=1e-9)
    assert float(d["Atoms"][0][5]) == pytest.approx(0.00052, abs=1e-9)
    assert [float(v) for v in d["Velocities"][1][1:]] == [0, 0, 0, 0, 0, -12.25]


@needs_gsd
@pytest.mark.parametrize("missing", ["Time", "bottom_y", "particles/omega", "omega_nan"])
def test_a_gsd_frame_without_a_log_entry_is_one_line(tmp_path, missing):
    snapshot = run_folder(tmp_path, name="packing_0.gsd")
    gsd_file(snapshot, missing)
    p = tool(snapshot, cwd=tmp_path / "out")
    assert_refused(p, tmp_path / "out")
    assert missing.replace("omega_nan", "omega") in p.stderr, p.stderr
