#!/usr/bin/env python3
"""Pins the results a restructuring must not change (issue 11, step 0).

Runs the `granular` binary on the shipped cases below and writes what they print into
tests/data/pins/: pins.json (the runs, their --set overrides and the pinned values) and the
shortened demo ensemble's disks.csv and angles.csv. tests/cli/pinned_results_test.cpp runs the
same commands and demands the same values: bitwise, or within a pin's "tolerance"
({"relative": r, "reason": why}), which is written by hand and kept when pins are regenerated.

    python3 tools/pin_results.py build/granular [MODEL]

With MODEL (pendulum, dimer, prism, billiard, wedge or ed) only that model's runs are pinned
again; the others, the demo CSVs and their formats stay as they are. With MODEL demo only the
demo ensemble's CSVs are. Regenerate only when a change of results is intended, and say so in
the commit."""
import json
import os
import shutil
import subprocess
import sys
import tempfile

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
PINS = os.path.join(ROOT, "tests", "data", "pins")

# (model, case, overrides, what to keep of summary.json)
RUNS = [
    ("pendulum", "pendulum_mu0", [], ["status", "impacts"]),
    ("pendulum", "pendulum_mu015", [], ["status", "impacts"]),
    ("dimer", "dimer_fig8_ar39_mui008", [], ["status", "mean_drift", "mean_drift_right",
                                             "impact_count"]),
    ("dimer", "dimer_fig8_ar57_mui008", [], ["status", "mean_drift", "mean_drift_right",
                                             "impact_count"]),
]
for name in sorted(os.listdir(os.path.join(ROOT, "cases"))):
    if name.startswith("prism_"):
        RUNS.append(("prism", name[:-5], [], ["impact_count", "mean_kappa", "kappa_model",
                                              "kappa_classic", "termination"]))
for name in sorted(os.listdir(os.path.join(ROOT, "cases"))):
    if name.startswith("billiard_"):
        RUNS.append(("billiard", name[:-5], ["/run/collisions=200"], ["status", "collisions"]))
# the thesis' collision rules and restitution tables (issue 22): the wedge map with the large-κ
# and the tabulated e_t, and the event-driven packings
WEDGE_KEYS = ["status", "omega_bar", "scaled_rotation", "flight_time", "wall_speed",
              "rejections", "wall_changes"]
RUNS += [
    ("wedge", "wedge_fig6_ed_tilt10", ["/run/collisions=20000"], WEDGE_KEYS),
    ("wedge", "wedge_fig6_ed_contact_law", ["/run/collisions=20000"], WEDGE_KEYS),
    ("ed", "thesis_fig3_11_ed", ["/drive/gamma=[2,7]", "/ensemble/packings_per_gamma=1",
                                 "/run/transient_time=0.5", "/run/measure_time=2"],
     ["mean_sq_omega", "mean_rho2", "mean_sigma_a", "events"]),
]

# the demo ensemble, shortened: two Γ, 0.4 s; its CSVs are pinned byte for byte
DEMO = ("packing_ensemble", "demo_sweep",
        ["/drive/gamma=[0.6,4]", "/run/settle_time=0.1", "/run/transient_time=0.1",
         "/run/measure_time=0.2", "/run/sample_interval=0.02"])


def run(binary, case, sets, out):
    cmd = [binary, "run", os.path.join(ROOT, "cases", case + ".json"), "--out", out,
           "--threads", "2"]
    for s in sets:
        cmd += ["--set", s]
    subprocess.run(cmd, check=True, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    with open(os.path.join(out, "summary.json")) as f:
        return json.load(f)


def pin_demo(binary, tmp):
    """Runs the shortened demo ensemble and copies its CSVs into the pins; returns its pin."""
    _, case, sets = DEMO
    out = os.path.join(tmp, case)
    run(binary, case, sets, out)
    demo = {"case": case, "set": sets, "files": ["disks.csv", "angles.csv"]}
    for f in demo["files"]:
        shutil.copy(os.path.join(out, f), os.path.join(PINS, "demo_" + f))
    print("pinned", case, "CSVs")
    return demo


def repin_model(binary, model, commit):
    """Runs `model`'s runs of RUNS and puts their values into pins.json: in place of the pinned
    ones (a tolerance written by hand is kept), or added when the model had none."""
    path = os.path.join(PINS, "pins.json")
    with open(path) as f:
        pins = json.load(f)
    kept = {r["case"]: r for r in pins["runs"] if r["model"] == model}
    pins["runs"] = [r for r in pins["runs"] if r["model"] != model]
    tmp = tempfile.mkdtemp(prefix="granular_pins_")
    try:
        if model == "demo":
            pins["demo"] = pin_demo(binary, tmp)
        for m, case, sets, keys in RUNS:
            if m != model:
                continue
            summary = run(binary, case, sets, os.path.join(tmp, case))
            pin = {"model": model, "case": case, "set": sets,
                   "values": {k: summary[k] for k in keys}, "commit": commit}
            if "tolerance" in kept.get(case, {}):
                pin["tolerance"] = kept[case]["tolerance"]
            pins["runs"].append(pin)
            print("pinned", case)
    finally:
        shutil.rmtree(tmp)
    with open(path, "w") as f:
        json.dump(pins, f, indent=1)
        f.write("\n")


def main():
    if len(sys.argv) not in (2, 3):
        sys.exit(__doc__)
    binary = os.path.abspath(sys.argv[1])
    commit = subprocess.run(["git", "-C", ROOT, "rev-parse", "--short", "HEAD"],
                            capture_output=True, text=True).stdout.strip()
    if len(sys.argv) == 3:
        repin_model(binary, sys.argv[2], commit)
        return
    pins = {"commit": commit, "runs": []}
    try:
        with open(os.path.join(PINS, "pins.json")) as f:
            kept = {r["case"]: r["tolerance"] for r in json.load(f)["runs"] if "tolerance" in r}
    except FileNotFoundError:
        kept = {}
    tmp = tempfile.mkdtemp(prefix="granular_pins_")
    try:
        for model, case, sets, keys in RUNS:
            summary = run(binary, case, sets, os.path.join(tmp, case))
            pins["runs"].append({"model": model, "case": case, "set": sets,
                                 "values": {k: summary[k] for k in keys}})
            if case in kept:
                pins["runs"][-1]["tolerance"] = kept[case]
            print("pinned", case)
        pins["demo"] = pin_demo(binary, tmp)
    finally:
        shutil.rmtree(tmp)
    with open(os.path.join(PINS, "pins.json"), "w") as f:
        json.dump(pins, f, indent=1)
        f.write("\n")


if __name__ == "__main__":
    main()
