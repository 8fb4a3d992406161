"""Ctrl-C during granular.run leaves a checkpoint that resumes bitwise (issue 14, item 3)."""
import json
import os
import signal
import subprocess
import sys
import time

import granular
from conftest import CASES, SHORT_DEMO, assert_same_outputs, granular_cli, set_args

# long enough to be interrupted in its measurement, a few seconds in all
LONGER = {**SHORT_DEMO, "/run/measure_time": 1.5}

CHILD = r"""
import sys, granular
case = granular.load_case(sys.argv[1], set=__import__("json").loads(sys.argv[2]))
def progress(p):
    print("progress", p.line, flush=True)
try:
    granular.run(case, out=sys.argv[3], threads=1, progress=progress, checkpoint_interval=0)
except KeyboardInterrupt as e:
    print("interrupted:", e, flush=True)
    sys.exit(130)
print("finished", flush=True)
"""


def test_ctrl_c_writes_a_checkpoint_and_resume_gives_the_uninterrupted_outputs(tmp_path):
    out = tmp_path / "interrupted"
    child = subprocess.Popen([sys.executable, "-c", CHILD, str(CASES / "demo_sweep.json"),
                              json.dumps(LONGER), str(out)],
                             stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True,
                             env=os.environ.copy())
    # interrupt once the run is under way (its second progress line: past construction)
    lines = 0
    for line in child.stdout:
        if line.startswith("progress"):
            lines += 1
            if lines == 2:
                break
    time.sleep(0.3)
    child.send_signal(signal.SIGINT)
    rest, err = child.communicate(timeout=60)
    assert child.returncode == 130, (rest, err)
    assert "interrupted: run interrupted; checkpoint in" in rest
    assert (out / "checkpoint.bin").exists()
    assert not (out / "summary.json").exists()

    # resumed from Python, against the CLI's uninterrupted run
    case = granular.load_case(CASES / "demo_sweep.json", set=LONGER)
    resumed = granular.run(case, out=out, threads=1, resume=True)
    assert not (out / "checkpoint.bin").exists()
    whole = tmp_path / "whole"
    granular_cli("run", CASES / "demo_sweep.json", "--out", whole, "--threads", 1,
                 *set_args(LONGER))
    assert_same_outputs(whole, out)
    assert resumed == granular.read(out)


ADVANCE_CHILD = r"""
import sys, granular
e = granular.Ensemble(granular.load_case(sys.argv[1]), threads=1)
print("built", flush=True)
try:
    e.advance(10**9)
except KeyboardInterrupt:
    assert 0 < e.step < 10**9
    assert e.positions(0).shape == (e.packing_size(0), 2)
    print("interrupted at step", e.step, flush=True)
    sys.exit(130)
"""


def test_ctrl_c_during_an_ensemble_advance_raises_with_a_whole_state():
    child = subprocess.Popen([sys.executable, "-c", ADVANCE_CHILD, str(CASES / "demo_sweep.json")],
                             stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
    assert child.stdout.readline() == "built\n"
    time.sleep(0.5)
    child.send_signal(signal.SIGINT)
    rest, err = child.communicate(timeout=30)
    assert child.returncode == 130, (rest, err)
    assert rest.startswith("interrupted at step")
