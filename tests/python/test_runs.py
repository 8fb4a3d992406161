"""Runs from Python write the CLI's outputs and return them as arrays (issue 14, item 3)."""
import json
import math
import pathlib

import numpy as np
import pytest

import granular
from conftest import CASES, RUN_DEPENDENT, SHORT_DEMO, assert_same_outputs, files_under


@pytest.fixture(scope="module")
def demo_module_run(tmp_path_factory):
    out = tmp_path_factory.mktemp("module") / "demo"
    case = granular.load_case(CASES / "demo_sweep.json", set=SHORT_DEMO)
    lines = []
    result = granular.run(case, out=out, threads=1, progress=lines.append)
    return out, result, lines


def test_a_run_writes_the_clis_files_byte_for_byte(demo_cli_run, demo_module_run):
    out, result, lines = demo_module_run
    assert_same_outputs(demo_cli_run, out)
    assert lines and all(isinstance(p, granular.Progress) and "\n" not in p.line for p in lines)
    assert "Γ" in result.report or "Gamma" in result.report


def test_the_progress_callback_receives_the_lines_numbers(demo_module_run):
    out, _, lines = demo_module_run
    periodic = [p for p in lines if p.phase is not None]
    assert periodic, [p.line for p in lines]
    # the lines of run.log are the callback's, each with the numbers it prints
    logged = (out / "run.log").read_text()
    for p in periodic:
        assert p.line in logged
        assert p.line.startswith(f"[{p.phase:<9}] t = {p.t:10.4f} s  {100 * p.fraction:5.1f} %")
        assert f"{p.rate:.3g} particle-steps/s" in p.line
        assert isinstance(p.elapsed, float) and p.elapsed >= 0 and math.isnan(p.events)
    # in order: phases, simulated time and the fraction go forward; the run ends at 1
    assert [p.phase for p in periodic] == sorted(
        (p.phase for p in periodic), key=["settle", "transient", "measure"].index)
    assert all(a.t <= b.t and a.fraction <= b.fraction for a, b in zip(periodic, periodic[1:]))
    assert periodic[-1].fraction == 1.0 and periodic[-1].phase == "measure"
    assert periodic[-1].eta == 0.0 and math.isnan(periodic[0].eta)


def test_the_result_holds_the_outputs_as_arrays(demo_module_run):
    out, r, _ = demo_module_run
    s = json.loads((out / "summary.json").read_text())
    assert r.summary == s and r.model == "packing_ensemble" and r.out == str(out)
    # per disk: ω̄, ρ², σ_a with their packing and Γ, the engine's doubles
    packings = s["packings"]
    assert np.array_equal(r.disks["omega_bar"], np.concatenate([p["omega_bar"] for p in packings]))
    assert np.array_equal(r.disks["gamma"],
                          np.concatenate([[p["gamma"]] * len(p["omega_bar"]) for p in packings]))
    assert r.disks["packing"].dtype == np.int64
    # per Γ: ⟨ω̄²⟩ and its standard error
    assert np.array_equal(r.gammas["gamma"], [0.6, 2, 8])
    assert np.array_equal(r.gammas["mean_sq_omega"], s["mean_sq_omega"])
    assert r.gammas["mean_sq_omega_stderr"].shape == (3,)
    # the time series
    assert set(r.energy) >= {"t", "packing", "gamma", "kinetic", "total"}
    assert set(r.angles) == {"t", "gamma", "packing", "disk", "theta"}
    assert len(r.angles["theta"]) > 0


def test_read_returns_the_runs_result(demo_module_run):
    out, r, _ = demo_module_run
    back = granular.read(out)
    assert back == r
    assert back.report == ""
    # the units summary.json records (issue 21, item 5), by table
    assert back.units["energy"]["t"] == "s"
    assert back.units["disks"]["omega_bar"] == "rad/s"
    assert back.units["disks"]["packing"] == ""
    assert set(back.units) == {"energy", "angles", "disks"}
    assert back.summary["provenance"]["command_line"].startswith("python")
    # run.log, as the CLI writes it (issue 21, item 7)
    log = (pathlib.Path(out) / "run.log").read_text()
    assert log.startswith("started ") and "\n$ python" in log and "\nfinished, outputs in " in log


def test_a_run_without_out_leaves_nothing(demo_module_run):
    _, r, _ = demo_module_run
    case = granular.load_case(CASES / "demo_sweep.json", set=SHORT_DEMO)
    temporary = granular.run(case, threads=1)
    assert temporary.out is None

    def timeless(res):
        summary = {k: v for k, v in res.summary.items() if k not in RUN_DEPENDENT}
        return granular.Result(None, summary, res.tables, res.points)

    assert timeless(temporary) == timeless(r)


def test_a_folder_with_another_runs_files_is_refused(demo_module_run):
    out, _, _ = demo_module_run
    case = granular.load_case(CASES / "demo_sweep.json", set=SHORT_DEMO)
    before = files_under(out)
    with pytest.raises(granular.CaseError, match="holds this case's finished outputs"):
        granular.run(case, out=out, threads=1)
    with pytest.raises(ValueError, match="^threads: "):
        granular.run(case, threads=0)
    with pytest.raises(granular.CaseError, match="backend"):
        granular.run(case, backend="gpu")
    assert files_under(out) == before


# One shipped case of every host model, shortened as the CLI tests shorten them
# (tests/cli/every_case_test.cpp), run from a dict.
HOST_CASES = {
    "collision_disk_wall": {},
    "pendulum_mu015": {"/run/t_end": 0.3},
    "prism_fig5_n22": {"/run/t_end": 0.3},
    "billiard_parabola_4p5hz": {"/run/collisions": 20},
    "dimer_fig3_ar39_mu012": {"/run/t_end": 0.04, "/run/average_from": 0.02},
    "wedge_fig6_ed_tilt10": {"/run/collisions": 2000},
    "three_disk_fig5_6_hysteresis": {"/run/settle_time": 0.001, "/run/transient_time": 0,
                                     "/run/measure_time": 0.002, "/run/sample_interval": 0.001},
    "wedge_fig6_md_tilt_scan": {"/run/settle_time": 0.0002, "/run/transient_time": 0,
                                "/run/measure_time": 0.0004, "/run/sample_interval": 0.0002},
}


@pytest.mark.parametrize("name", sorted(HOST_CASES))
def test_every_host_model_runs_from_a_dict(name, tmp_path):
    with open(CASES / f"{name}.json") as f:
        d = json.load(f)
    case = granular.case_from_dict(d, set=HOST_CASES[name])
    assert case.model == d["model"]
    r = granular.run(case, out=tmp_path / "out")
    assert r.summary["model"] == d["model"]
    assert r.summary == json.loads((tmp_path / "out" / "summary.json").read_text())
    assert r == granular.read(tmp_path / "out")
    if d["model"] in ("pendulum", "prism", "dimer", "billiard"):
        assert r.impacts is not None, sorted(r.tables)
        assert all(isinstance(v, np.ndarray) for v in r.impacts.values())
    if d["model"] != "wedge":  # the wedge map writes its summary only
        assert any(res.tables for res in [r] + r.points)
