"""The figure tools write figures for print (issue 21, item 8): --format png|pdf|svg at a
journal column's width, the sweep's two guides in distinct styles with their exponents in the
legend, labelled log ticks, titles that say what is shown (docs/figures.md).

The tools run with /usr/bin/python3 (Debian's matplotlib), not this venv's Python; their
inputs are the CLI's outputs of runs shortened to seconds."""
import json
import pathlib
import re
import struct
import subprocess
import xml.etree.ElementTree as ET

import pytest

from conftest import CASES, CLI, SOURCE_DIR, granular_cli, set_args

TOOLS = SOURCE_DIR / "tools"
PYTHON = "/usr/bin/python3"
PNG_DPI = 300  # tools/figure_style.py: PNG_DPI
SINGLE, DOUBLE = 3.5, 7.2  # inches, a journal's columns
SHORT = {"/run/settle_time": 0.1, "/run/transient_time": 0.1, "/run/measure_time": 0.2,
         "/run/sample_interval": 0.02}


def tool(name, *args, check=True):
    """Runs tools/<name> with the tools' Python; returns the CompletedProcess (text)."""
    p = subprocess.run([PYTHON, str(TOOLS / name), *map(str, args)], capture_output=True,
                       text=True, timeout=120)
    if check and p.returncode != 0:
        raise AssertionError(f"{name} {' '.join(map(str, args))}: exit {p.returncode}\n"
                             f"{p.stderr}")
    return p


@pytest.fixture(scope="module", autouse=True)
def matplotlib_is_there():
    p = subprocess.run([PYTHON, "-c", "import matplotlib"], capture_output=True, text=True)
    assert p.returncode == 0, "the figure tools need python3-matplotlib: scripts/install_deps.sh"


def run(out, case, overrides):
    granular_cli("run", CASES / case, "--out", out, "--threads", 1, *set_args(overrides))
    return out


@pytest.fixture(scope="module")
def sweep(tmp_path_factory):
    """The demo sweep, Γ = 0.3 ... 8, with the snapshot of packing 0."""
    return run(tmp_path_factory.mktemp("fig") / "sweep", "demo_sweep.json", SHORT)


@pytest.fixture(scope="module")
def narrow_sweep(tmp_path_factory):
    """Γ within one decade (0.5 ... 4): no two decade ticks to label."""
    return run(tmp_path_factory.mktemp("fig") / "narrow", "demo_sweep.json",
               dict(SHORT, **{"/drive/gamma": [0.5, 1, 2, 4], "/ensemble/packings_per_gamma": 1}))


@pytest.fixture(scope="module")
def scan(tmp_path_factory):
    return run(tmp_path_factory.mktemp("fig") / "scan", "wedge_fig6_ed_tilt_scan.json",
               {"/run/collisions": 2000})


# ---------------------------------------------------------------- reading the files back


def assert_written(path, fmt, inches):
    """path holds a fmt file inches wide: PDF by its header, SVG by its root's width in points,
    PNG by its header and pixel width (read without matplotlib)."""
    data = pathlib.Path(path).read_bytes()
    if fmt == "pdf":
        assert data.startswith(b"%PDF")
    elif fmt == "svg":
        root = ET.fromstring(data)
        assert root.tag == "{http://www.w3.org/2000/svg}svg"
        width = float(root.get("width").removesuffix("pt"))
        assert abs(width - 72.0 * inches) <= 0.01 * 72.0 * inches, root.get("width")
    else:
        assert data[:8] == b"\x89PNG\r\n\x1a\n" and data[12:16] == b"IHDR"
        assert struct.unpack(">I", data[16:20])[0] == round(inches * PNG_DPI)


def svg_tree(path):
    """The SVG with its comments: matplotlib writes each text's string as a comment before its
    glyphs."""
    parser = ET.XMLParser(target=ET.TreeBuilder(insert_comments=True))
    return ET.parse(path, parser).getroot()


def texts(element):
    return [e.text.strip() for e in element.iter() if e.tag is ET.Comment]


def group(root, gid):
    found = [g for g in root.iter("{http://www.w3.org/2000/svg}g") if g.get("id") == gid]
    assert len(found) == 1, f"no single <g id={gid!r}>"
    return found[0]


def tick_labels(root, axis):
    """The labels of the first axes' x (axis_1) or y (axis_2) ticks, in order."""
    return [t for g in group(root, f"matplotlib.{axis}").iter()
            if re.fullmatch(r"[xy]tick_\d+", g.get("id") or "") for t in texts(g)]


def line_style(root, gid):
    """{property: value} of the path that draws the line with gid."""
    path = next(group(root, gid).iter("{http://www.w3.org/2000/svg}path"))
    return dict(item.split(":", 1) for item in
                (part.strip() for part in path.get("style").split(";")) if item)


# ---------------------------------------------------------------- plot_sweep.py


@pytest.mark.parametrize("options, fmt, inches", [
    ([], "png", SINGLE),  # `make run`'s command line: a PNG, one column wide
    (["--format", "pdf", "--width", "double"], "pdf", DOUBLE),
    (["--format", "svg", "--width", "5"], "svg", 5.0),
])
def test_the_sweep_plot_comes_in_each_format_at_its_width(sweep, options, fmt, inches):
    tool("plot_sweep.py", sweep, *options)
    assert_written(sweep / f"omega2_vs_gamma.{fmt}", fmt, inches)


def test_the_sweeps_guides_differ_in_style_and_show_their_exponents(sweep, tmp_path):
    out = tmp_path / "sweep.svg"
    tool("plot_sweep.py", sweep, "--output", out)
    root = svg_tree(out)
    low, high = line_style(root, "guide_low_gamma"), line_style(root, "guide_high_gamma")
    assert "stroke-dasharray" in low and "stroke-dasharray" in high
    assert low["stroke-dasharray"] != high["stroke-dasharray"]
    assert low["stroke"] != high["stroke"]
    legend = texts(group(root, "legend_1"))
    assert any("Gamma^{3.85}" in t and r"\leq 1" in t for t in legend), legend
    assert any("Gamma^{1}" in t and r"\geq 1" in t for t in legend), legend
    # what it shows, then the case in words: no folder path
    shown = texts(root)
    assert "Mean square rotation rate vs vibration intensity" in shown
    assert any(t.startswith("Demo sweep (make run)") for t in shown), shown
    assert not any(str(sweep) in t for t in shown)
    # Γ = 0.3 ... 8 holds one decade: 1-2-5 ticks are labelled too; ⟨ω̄²⟩ spans decades
    assert tick_labels(root, "axis_1") == ["0.5", "1", "2", "5"]
    assert {"1", "10", "100"} <= set(tick_labels(root, "axis_2"))


def test_a_gamma_range_within_a_decade_has_labelled_ticks_besides_1(narrow_sweep, tmp_path):
    out = tmp_path / "narrow.svg"
    tool("plot_sweep.py", narrow_sweep, "--output", out, "--width", "single")
    labels = tick_labels(svg_tree(out), "axis_1")
    assert len(labels) >= 3 and "1" in labels and "0.5" in labels and "2" in labels, labels


def test_a_name_that_contradicts_the_format_is_refused(sweep, tmp_path):
    p = tool("plot_sweep.py", sweep, "--output", tmp_path / "x.png", "--format", "pdf",
             check=False)
    assert p.returncode != 0 and "x.png" in p.stderr and ".pdf" in p.stderr
    assert not (tmp_path / "x.png").exists()


# ---------------------------------------------------------------- render_packing.py


def test_the_packing_picture_says_which_packing_when(sweep, tmp_path):
    gamma = json.loads((sweep / "summary.json").read_text())["packings"][0]["gamma"]
    snapshots = sweep / "snapshots"
    # the collection's last frame, its format from the name
    tool("render_packing.py", snapshots / "packing_0.pvd", tmp_path / "packing.svg")
    assert_written(tmp_path / "packing.svg", "svg", SINGLE)
    shown = texts(svg_tree(tmp_path / "packing.svg"))
    title = [t for t in shown if t.startswith("Packing 0 at")]
    assert title and re.fullmatch(rf"Packing 0 at Γ = {gamma:g}, t = [0-9.]+ s", title[0]), shown
    assert not any("packing_0" in t for t in shown)
    # one frame file, the default name: the frame's, with the format's extension
    tool("render_packing.py", snapshots / "packing_0_000000.vtp")
    assert_written(snapshots / "packing_0_000000.png", "png", SINGLE)
    # the dump, as a PDF two columns wide
    tool("render_packing.py", snapshots / "packing_0.lammpstrj", tmp_path / "dump", "--format",
         "pdf", "--width", "double")
    assert_written(tmp_path / "dump.pdf", "pdf", DOUBLE)


# ---------------------------------------------------------------- the other tools


def test_the_scan_plot_keeps_png_and_takes_the_other_formats(scan, tmp_path):
    tool("plot_scan.py", scan, "scaled_rotation", "--png", tmp_path / "old.png")
    assert_written(tmp_path / "old.png", "png", SINGLE)
    tool("plot_scan.py", scan, "scaled_rotation", "--format", "svg", "--width", "double")
    out = scan / "scaled_rotation_vs_wedge_tilt_deg.svg"
    assert_written(out, "svg", DOUBLE)
    shown = texts(svg_tree(out))
    assert "scaled_rotation vs wedge/tilt_deg" in shown
    assert "Thesis ch. 6.3, the tilt dependence" in shown


def test_thesis_and_paper_figures_take_format_and_width(sweep, tmp_path):
    tool("thesis_figures.py", "3.11", sweep, "--format", "svg")
    root = svg_tree(sweep / "fig3.11.svg")
    assert_written(sweep / "fig3.11.svg", "svg", SINGLE)
    assert r"Fig. 3.11: mean square rotation rate vs $\Gamma$" in texts(root)
    assert tick_labels(root, "axis_3") == ["0.5", "1", "2", "5"]  # the log-log panel's Γ
    pendulum = run(tmp_path / "pendulum", "pendulum_mu0.json", {})
    tool("paper_figures.py", "pendulum", "5", pendulum, "--format", "pdf", "--width", "double")
    assert_written(pendulum / "pendulum_fig5.pdf", "pdf", DOUBLE)



def test_granular_plot_runs_the_same_tools(sweep, tmp_path):
    """`granular plot KIND ARGS` runs the tool of KIND with the same arguments (issue 35), with
    $GRANULAR_PYTHON; an unknown kind gets a "did you mean"."""
    import os
    recorder = tmp_path / "python"
    recorder.write_text('#!/bin/sh\nprintf "%s\\n" "$@" > "$(dirname "$0")/argv"\n')
    recorder.chmod(0o755)
    for kind, script, args in (("sweep", "plot_sweep.py", [str(sweep), "--format", "svg"]),
                               ("thesis", "thesis_figures.py", ["5.2", "x", "--width", "single"])):
        p = subprocess.run([CLI, "plot", kind, *args], capture_output=True, text=True,
                           env=dict(os.environ, GRANULAR_PYTHON=str(recorder)))
        assert p.returncode == 0, p.stderr
        argv = (tmp_path / "argv").read_text().splitlines()
        assert argv == [str(TOOLS / script), *args]
    # and for real, with the tools' Python
    figure = tmp_path / "sweep.svg"
    p = subprocess.run([CLI, "plot", "sweep", str(sweep), "--output", str(figure)],
                       capture_output=True, text=True, env=dict(os.environ, GRANULAR_PYTHON=PYTHON))
    assert p.returncode == 0, p.stderr
    assert ET.parse(figure).getroot().tag.endswith("svg")
    p = subprocess.run([CLI, "plot", "swep", str(sweep)], capture_output=True, text=True)
    assert p.returncode == 2 and 'did you mean "sweep"' in p.stderr
