"""The tutorial notebooks of examples/notebooks/ run (issue 35): each is executed at its small
scale in a kernel of this Python, into a scratch folder, and its results are checked."""
import json
import math
import pathlib
import sys

import jupyter_client
import nbclient
import nbformat
import pytest

from conftest import SOURCE_DIR

NOTEBOOKS = SOURCE_DIR / "examples" / "notebooks"
VERDICTS = {"reproduced", "consistent by construction", "calibrated", "erratum", "disagrees",
            "inconclusive", "failed", "not measured"}


def check_gamma_sweep(out):
    import granular
    result = granular.read(out / "run")
    table = [line.split(",") for line in (out / "omega2_vs_gamma.csv").read_text().splitlines()]
    assert table[0] == ["gamma", "mean_sq_omega", "mean_sq_omega_stderr"]
    rows = [[float(x) for x in row] for row in table[1:]]
    assert [r[0] for r in rows] == list(result.gammas["gamma"])  # one row per Γ of the run
    assert len(rows) >= 4 and all(math.isfinite(x) for r in rows for x in r)
    w2 = [r[1] for r in rows]
    assert all(w > 0 for w in w2)
    assert w2[-1] > 10 * w2[0]  # the rotation grows with Γ, by orders of magnitude from 0.3 to 4
    assert (out / "omega2_vs_gamma.png").read_bytes()[:8] == b"\x89PNG\r\n\x1a\n"


def check_impact_scan(out):
    import granular
    s = granular.read(out / "run").tables["sweep"]
    sweep = json.loads((out / "run" / "summary.json").read_text())["case"]["sweep"]
    assert len(s["aspect_ratio"]) == len(sweep["aspect_ratios"]) * len(sweep["frequencies"])
    assert set(s["status"]) == {"completed"}
    # 25 Hz: a forward drift falling with Ar on (3.1, 5), backward just above Ar = 5 (fig. 11)
    at = (s["frequency"] == 25) & (s["motion"] == "drift")
    ar, u = s["aspect_ratio"][at], s["scaled_drift"][at]
    forward = u[(ar > 3.1) & (ar < 4.8)]
    assert len(forward) >= 2 and all(forward > 0) and all(forward[1:] < forward[:-1])
    assert all(u[(ar > 4.8) & (ar < 5.5)] < 0)
    assert (out / "dimer_fig11.png").read_bytes()[:8] == b"\x89PNG\r\n\x1a\n"


def check_papers_report(out):
    report = json.loads((out / "report" / "results.json").read_text())
    registry = json.loads((SOURCE_DIR / "papers" / "stated_results.json").read_text())
    ids = {e["id"] for e in registry["results"]}
    rows = report["results"]
    assert report["scale"] == "quick" and len(rows) >= 3
    for r in rows:
        assert r["id"] in ids and r["verdict"] in VERDICTS and r["verdict"] != "failed"
        # a measured row has a number (or a word); a row not measured has none
        assert (r["value"] is None) == (r["verdict"] == "not measured")
    assert any(r["verdict"] == "disagrees" and r.get("class") for r in rows)
    assert (out / "report" / "report.html").stat().st_size > 0


CHECKS = {"gamma_sweep.ipynb": check_gamma_sweep, "impact_scan.ipynb": check_impact_scan,
          "papers_report.ipynb": check_papers_report}


def kernel_manager(tmp_path):
    """A kernel of this very Python (the venv's, with its ipykernel), whatever kernel specs the
    user or the system has installed under the name python3."""
    spec = tmp_path / "kernels" / "granular-test"
    spec.mkdir(parents=True)
    (spec / "kernel.json").write_text(json.dumps({
        "argv": [sys.executable, "-m", "ipykernel_launcher", "-f", "{connection_file}"],
        "display_name": "granular tests", "language": "python"}))
    specs = jupyter_client.kernelspec.KernelSpecManager(kernel_dirs=[str(spec.parent)])
    return jupyter_client.KernelManager(kernel_name="granular-test", kernel_spec_manager=specs)


@pytest.mark.parametrize("name", sorted(CHECKS))
def test_the_notebook_runs_at_the_small_scale(name, tmp_path, monkeypatch):
    out = tmp_path / "out"
    # the kernel inherits this environment: PYTHONPATH (the build's module), GRANULAR_CLI and
    # GRANULAR_SOURCE_DIR from the test's, and the notebook's scale and output folder
    monkeypatch.setenv("GRANULAR_NOTEBOOK_SCALE", "small")
    monkeypatch.setenv("GRANULAR_NOTEBOOK_OUT", str(out))
    monkeypatch.setenv("GRANULAR_SOURCE_DIR", str(SOURCE_DIR))
    monkeypatch.setenv("MPLBACKEND", "agg")
    monkeypatch.setenv("MPLCONFIGDIR", str(tmp_path / "mpl"))  # no writes to the home folder
    monkeypatch.setenv("IPYTHONDIR", str(tmp_path / "ipython"))
    nb = nbformat.read(NOTEBOOKS / name, as_version=4)
    client = nbclient.NotebookClient(nb, km=kernel_manager(tmp_path), timeout=120,
                                     resources={"metadata": {"path": str(NOTEBOOKS)}})
    client.execute()  # raises CellExecutionError, with the cell and its traceback, on an error
    CHECKS[name](out)


def test_every_notebook_is_tested():
    assert sorted(p.name for p in NOTEBOOKS.glob("*.ipynb")) == sorted(CHECKS)


@pytest.mark.parametrize("name", sorted(CHECKS))
def test_the_notebook_is_stored_clean(name):
    """No outputs (the repository keeps sources only), a title cell, one parameter cell."""
    nb = nbformat.read(NOTEBOOKS / name, as_version=4)
    nbformat.validate(nb)
    code = [c for c in nb.cells if c.cell_type == "code"]
    assert all(c.outputs == [] and c.execution_count is None for c in code)
    assert nb.cells[0].cell_type == "markdown" and nb.cells[0].source.startswith("# ")
    params = [c for c in code if "GRANULAR_NOTEBOOK_SCALE" in c.source]
    assert len(params) == 1 and "GRANULAR_NOTEBOOK_OUT" in params[0].source
    assert code.index(params[0]) == 0
