"""The scripts of examples/ run (issue 14, item 5), each with its short settings."""
import pathlib
import subprocess
import sys

import pytest

from conftest import SOURCE_DIR

EXAMPLES = {
    "fig3_6_rotating_fraction.py": ([], "rotating"),
    "restitution_table.py": ([], "e_t sliding"),
    "pendulum_scan.py": (["--t-end", "2"], "impacts"),
}


@pytest.mark.parametrize("script", sorted(EXAMPLES))
def test_the_example_runs(script):
    args, header = EXAMPLES[script]
    p = subprocess.run([sys.executable, str(SOURCE_DIR / "examples" / script), *args],
                       capture_output=True, text=True, timeout=120)
    assert p.returncode == 0, p.stderr
    lines = p.stdout.splitlines()
    assert header in lines[0] and len(lines) >= 4


def test_every_example_is_tested():
    shipped = sorted(p.name for p in pathlib.Path(SOURCE_DIR / "examples").glob("*.py"))
    assert shipped == sorted(EXAMPLES)
