"""The report's figures in a real browser (issue 33, item 7): `granular reproduce` on a small
registry whose figures use error bars, fitted and reference lines, bands, values, points, log and
linear axes; report.html opened in headless Chromium. Every figure renders, its texts lie inside
its drawing and none overlaps another, and no text overflows its box in the figure cells.

Needs Chromium, its driver (scripts/install_deps.sh) and selenium (scripts/python_env.sh); skips
without them, and only then."""
import json
import shutil

import pytest

from conftest import CASES, granular_cli

# the pendulum paper's count of impacts on cases/pendulum_mu0.json (6 in 6 s, fractions of a
# second to run), as tests/cli/reproduce_cli_test.cpp writes its results
IMPACTS = "json('summary.json', '/impact_count')"


def result(rid, figure, compute=None):
    compute = compute or {"value": IMPACTS}
    return {
        "id": rid, "paper": "pendulum", "where": "§4", "statement": rid,
        "printed": {"kind": "count", "value": 6},
        "tolerance": {"absolute": 0, "why": "a count"},
        "cost": {"quick_s": 0.2, "full_s": 0.2},
        "measure": {"case": "cases/pendulum_mu0.json", "set": {"/run/t_end": 6.0},
                    "quick_set": {"/run/t_end": 6.0}, "compute": {**compute, "figure": figure}},
    }


def registry_results():
    # a power law on log-log axes: bars (one unknown, one reaching below zero), the engine's fit
    # over the points it fits, the paper's exponent through the data's mean, the paper's points
    power_law = result("power-law", {
        "x": "x", "y": "y", "y_err": "[0.004, 0.01, sqrt(-1), 0.1, 0.16, 0.13, 0.13]",
        "x_label": "Γ − 1",
        "y_label": "⟨ω̄²⟩ − ω_c [rad²/s²], a label longer than the frame is high, so it wraps",
        "log_x": True, "log_y": True,
        "fit": {"slope": "slope(log(x), log(y))",
                "intercept": "(mean(log(y)) - slope(log(x), log(y)) * mean(log(x))) / log(10)",
                "x": "where(x, x > 0.3)"},
        "ref_line": {"slope": 0.99,
                     "intercept": "(mean(log(y)) - 0.99 * mean(log(x))) / log(10)",
                     "label": "thesis: exponent 0.99, drawn through the data's mean point"},
        "ref_x": [0.5, 5], "ref_y": [0.05, 0.6],
    }, {"let": {"x": "[0.2, 0.5, 1, 2, 3, 5, 7]",
                "y": "[0.0083, 0.043, 0.097, 0.32, 0.42, 0.85, 0.96]"},
        "value": IMPACTS})
    # linear axes: two curves with their own bars, the paper's band and value
    linear = result("linear", {
        "x": "[0, 10, 20, 37]", "y": "[1.1, 1.3, 1.2, 1.25]",
        "y_err": "[0.05, 0.1, 0.08, 0.02]", "label": "the engine, μ = 0",
        "series": [{"label": "the engine, a second law", "x": "[0, 10, 20, 37]",
                    "y": "[0.9, 1.0, 1.05, 1.0]", "y_err": "[0.03, 0.03, 0.03, 0.03]"}],
        "x_label": "t_end [s]", "y_label": "impacts per second",
        "ref_band": {"low": 0.79, "high": 1.19}, "ref_hline": 0.99,
    })
    # semi-log, tiny and negative numbers: e-notation ticks, a line through the axes' own
    # coordinates (log10 y = c + s x), the count from the run as a point
    semilog = result("semilog", {
        "x": "[-0.0003, -0.0001, 0.0001, 0.0003, 0.0005]",
        "y": "[2e-7, 9e-7, 4e-6, 1.5e-5, 7e-5] * " + IMPACTS + " / 6",
        "x_label": "a shift [m]", "y_label": "a rate [1/s]", "log_y": True,
        "fit": {"slope": "slope([-0.0003, -0.0001, 0.0001, 0.0003, 0.0005], "
                         "log([2e-7, 9e-7, 4e-6, 1.5e-5, 7e-5])) / log(10)",
                "intercept": "log(4e-6) / log(10) - 0.0001 * slope([-0.0003, -0.0001, 0.0001, "
                             "0.0003, 0.0005], log([2e-7, 9e-7, 4e-6, 1.5e-5, 7e-5])) / log(10)"},
    })
    return [power_law, linear, semilog]


@pytest.fixture
def browser():
    try:
        from selenium import webdriver
        from selenium.webdriver.chrome.service import Service
    except ImportError:
        pytest.skip("selenium is missing (scripts/python_env.sh installs it)")
    binary = next((shutil.which(n) for n in ("chromium", "chromium-browser") if shutil.which(n)),
                  None)
    driver = shutil.which("chromedriver")
    if binary is None or driver is None:
        pytest.skip("Chromium or chromedriver is missing (scripts/install_deps.sh installs "
                    "Debian's chromium and chromium-driver)")
    options = webdriver.ChromeOptions()
    options.binary_location = binary
    for arg in ("--headless=new", "--no-sandbox", "--disable-gpu", "--disable-dev-shm-usage",
                "--window-size=1600,1200"):
        options.add_argument(arg)
    session = webdriver.Chrome(service=Service(driver), options=options)
    yield session
    session.quit()


@pytest.fixture
def report(tmp_path):
    """report.html of a reproduction of registry_results(): the registry beside a copy of the
    shipped cases (a copy: a registry reads no case through a link out of its project)."""
    (tmp_path / "papers").mkdir()
    shutil.copytree(CASES, tmp_path / "cases")
    registry = tmp_path / "papers" / "stated_results.json"
    registry.write_text(json.dumps({"format": 1,
                                    "papers": {"pendulum": "the double pendulum paper"},
                                    "results": registry_results()}, ensure_ascii=False))
    out = tmp_path / "rep"
    granular_cli("reproduce", "--registry", registry, "--out", out, "--threads", 1)
    return out


# Per figure: its box, its viewBox, and every <text>'s box in the drawing's units (rotated ones
# too: the boxes the browser lays out), and the overflowing elements of its table cell.
MEASURE = """
return Array.from(document.querySelectorAll('svg')).map(svg => {
  const r = svg.getBoundingClientRect(), vb = svg.viewBox.baseVal;
  const sx = vb.width / r.width, sy = vb.height / r.height;
  const texts = Array.from(svg.querySelectorAll('text')).map(t => {
    const b = t.getBoundingClientRect();
    return {text: t.textContent, x0: (b.left - r.left) * sx + vb.x, x1: (b.right - r.left) * sx + vb.x,
            y0: (b.top - r.top) * sy + vb.y, y1: (b.bottom - r.top) * sy + vb.y};
  });
  const cell = svg.closest('td');
  // the cell's boxes: its HTML elements and the drawing's own (an SVG's inner elements have no
  // box of their own to overflow: their texts are measured above)
  const overflowing = cell ? [cell, ...cell.querySelectorAll('*')]
      .filter(e => e instanceof HTMLElement || e instanceof SVGSVGElement)
      .filter(e => e.clientWidth > 0 && e.scrollWidth > e.clientWidth)
      .map(e => e.tagName + ' ' + e.scrollWidth + ' > ' + e.clientWidth) : [];
  return {width: r.width, height: r.height, vbw: vb.width, vbh: vb.height, texts, overflowing,
          caption: (svg.querySelector('text.caption') || {}).textContent || ''};
});
"""

# Rounding of the layout: boxes may touch, not overlap.
SLACK = 0.5


def overlap(a, b):
    return (min(a["x1"], b["x1"]) - max(a["x0"], b["x0"]) > SLACK and
            min(a["y1"], b["y1"]) - max(a["y0"], b["y0"]) > SLACK)


def test_every_figure_renders_with_its_text_inside_and_apart(browser, report):
    results = json.loads((report / "results.json").read_text())
    assert [r["verdict"] for r in results["results"]] == ["reproduced"] * 3, results
    browser.get((report / "report.html").as_uri())
    figures = browser.execute_script(MEASURE)
    assert len(figures) == 3
    for k, fig in enumerate(figures):
        name = results["results"][k]["id"]
        assert fig["width"] > 0 and fig["height"] > 0, name
        assert fig["caption"].startswith("quick scale — reproduced"), (name, fig["caption"])
        assert len(fig["texts"]) > 8, name
        for t in fig["texts"]:
            assert t["x1"] > t["x0"] and t["y1"] > t["y0"], (name, t)
            inside = (t["x0"] >= -SLACK and t["y0"] >= -SLACK and t["x1"] <= fig["vbw"] + SLACK
                      and t["y1"] <= fig["vbh"] + SLACK)
            assert inside, f"{name}: {t['text']!r} at {t} outside the 0 0 {fig['vbw']} {fig['vbh']}"
        texts = fig["texts"]
        for i, a in enumerate(texts):
            for b in texts[i + 1:]:
                assert not overlap(a, b), f"{name}: {a['text']!r} overlaps {b['text']!r}: {a} {b}"
        assert fig["overflowing"] == [], (name, fig["overflowing"])


def test_the_figures_say_what_they_draw(report):
    """The drawings the browser measured carry the new keys' elements."""
    svg = {p.stem: p.read_text() for p in (report / "figures").glob("*.svg")}
    assert sorted(svg) == ["linear", "power-law", "semilog"]
    assert svg["power-law"].count('class="error-bar"') == 6  # not the point without an SE
    for element in ('class="fit"', 'class="ref-line"', 'class="ref-point"',
                    "bars: ±1 standard error"):
        assert element in svg["power-law"], element
    assert svg["linear"].count('class="error-bar"') == 8
    for element in ('class="ref-band"', 'class="ref-hline"'):
        assert element in svg["linear"], element
    # e-notation compact, in the ticks and in the legend
    assert 'class="fit"' in svg["semilog"]
    assert ">1e-6<" in svg["semilog"] or ">1e-5<" in svg["semilog"]
    assert ">least-squares fit, slope 3.15e3<" in svg["semilog"]
    assert all("e+" not in s and "e-0" not in s for s in svg.values())
