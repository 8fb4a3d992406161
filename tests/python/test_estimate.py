"""The wall-time estimate on a shared machine (issue 35; docs/outputs.md, "Estimates"): niced
beside as many busy processes as there are processors, `granular validate` sees its small share
of the CPU and estimates the run at that share, not at an idle machine's pace. (How close the
estimate comes to the run is measured by tools/check_estimate.py: a timing, not a test.)"""
import multiprocessing
import os
import re
import subprocess
import time

from conftest import CLI, SHORT_DEMO, set_args

LINE = re.compile(r"^estimate: about (\S+) (s|min|h|days) of wall time", re.M)
SHARE = re.compile(r"^cpu share: one thread ran (\S+) % of the time it was ready, at \S+ "
                   r"particle-steps/s of CPU time; (.*)$", re.M)
SECONDS = {"s": 1, "min": 60, "h": 3600, "days": 86400}


def busy():
    while True:
        pass


def validate(nice=0):
    p = subprocess.run([CLI, "validate", "demo_sweep", "--threads", "2", *set_args(SHORT_DEMO)],
                       capture_output=True, text=True, timeout=300,
                       preexec_fn=lambda: os.nice(nice))
    assert p.returncode == 0, p.stderr
    wall, share = LINE.search(p.stdout), SHARE.search(p.stdout)
    assert wall and share, p.stdout
    return float(wall[1]) * SECONDS[wall[2]], float(share[1]), share[2]


def test_a_niced_run_beside_busy_processes_is_estimated_at_its_share():
    idle_wall, _, _ = validate()
    load = [multiprocessing.Process(target=busy, daemon=True) for _ in range(os.cpu_count())]
    for q in load:
        q.start()
    try:
        time.sleep(0.5)
        wall, share, how = validate(nice=19)
    finally:
        for q in load:
            q.terminate()
    assert share < 80 and how.startswith("shared: the estimate assumes that share"), how
    # nice 19 beside a busy process per processor gets a few per cent of a CPU
    assert wall > 3 * idle_wall, (wall, idle_wall, share)
