"""Shared pieces of the Python tests: where the CLI and the sources are, and the CLI run."""
import os
import pathlib
import subprocess

import pytest

SOURCE_DIR = pathlib.Path(os.environ.get("GRANULAR_SOURCE_DIR",
                                         pathlib.Path(__file__).resolve().parents[2]))
CLI = os.environ.get("GRANULAR_CLI", str(SOURCE_DIR / "build" / "granular"))
CASES = SOURCE_DIR / "cases"
DATA = SOURCE_DIR / "tests" / "data"

# The demo shortened as the MPI tests shorten it (tests/cli/mpi_test.cpp): three Γ, seconds.
SHORT_DEMO = {"/drive/gamma": [0.6, 2, 8], "/run/settle_time": 0.05,
              "/run/transient_time": 0.05, "/run/measure_time": 0.1}

# The keys of summary.json a run's timing and machine decide (tests/support/same_outputs.hpp).
RUN_DEPENDENT = ("wall_time_s", "advance_time_s", "particle_steps_per_s", "threads", "provenance")


def set_args(overrides):
    """{"/pointer": value} as the CLI's --set arguments."""
    import json
    args = []
    for pointer, value in overrides.items():
        args += ["--set", f"{pointer}={json.dumps(value, separators=(',', ':'))}"]
    return args


def granular_cli(*args, check=True):
    """Runs the CLI; returns the CompletedProcess (text)."""
    p = subprocess.run([CLI, *map(str, args)], capture_output=True, text=True)
    if check and p.returncode != 0:
        raise AssertionError(f"granular {' '.join(map(str, args))}: exit {p.returncode}\n"
                             f"{p.stderr}")
    return p


def files_under(folder):
    folder = pathlib.Path(folder)
    return sorted(str(p.relative_to(folder)) for p in folder.rglob("*") if p.is_file())


def assert_same_outputs(a, b):
    """Two output folders hold the same files, byte for byte, and the same summary.json apart
    from the run-dependent keys."""
    import json
    a, b = pathlib.Path(a), pathlib.Path(b)
    names = files_under(a)
    assert names == files_under(b)
    for name in names:
        if name in ("summary.json", "run.log"):  # run.log: the run's own dates and progress
            continue
        assert (a / name).read_bytes() == (b / name).read_bytes(), f"{name} differs"
    sa = json.loads((a / "summary.json").read_text())
    sb = json.loads((b / "summary.json").read_text())
    for key in RUN_DEPENDENT:
        sa.pop(key, None)
        sb.pop(key, None)
    assert sa == sb


@pytest.fixture(scope="session")
def demo_cli_run(tmp_path_factory):
    """The CLI's run of the shortened demo on one thread (shared by the tests that compare)."""
    out = tmp_path_factory.mktemp("cli") / "demo"
    granular_cli("run", CASES / "demo_sweep.json", "--out", out, "--threads", 1,
                 *set_args(SHORT_DEMO))
    return out
