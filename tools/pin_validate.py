#!/usr/bin/env python3
"""Pins what `granular validate` prints (issue 14: the describe text must not change when the
numbers it prints also become data).

Runs `granular validate cases/<case>.json --threads 2 [--set ...]` from the repository root for
every shipped case and for the variants below (branches of a model's text that no shipped case
reaches), and writes stdout into tests/data/validate/: <name>.txt each and index.json (the
invocations). The wall-time estimate of a packing ensemble is measured, so its times, rates,
build time and slice count are masked (mask() below; tests/cli/validate_text_test.cpp masks the
same way) and the rest of those lines is pinned. tests/cli/validate_text_test.cpp repeats every invocation and
demands the same bytes.

    python3 tools/pin_validate.py build/granular

Regenerate only when a change of the text is intended, and say so in the commit."""
import json
import os
import re
import subprocess
import sys

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
PINS = os.path.join(ROOT, "tests", "data", "validate")

# (name, case, overrides): branches of the text no shipped case takes
VARIANTS = [
    ("pendulum_mu0+dopri5", "pendulum_mu0",
     ['/integrator/scheme="dopri5"', "/run/sample_interval=0"]),
    ("prism_fig5_n22+not_cleared", "prism_fig5_n22", ["/ramp/slope_deg=0"]),
    ("billiard_parabola_4p5hz+gorski_dopri5", "billiard_parabola_4p5hz",
     ['/impact/law="gorski_srokowski"', '/integrator/scheme="dopri5"']),
    ("billiard_parabola_4p5hz+flat", "billiard_parabola_4p5hz",
     ['/boundary/shape="flat"', "/boundary/a=null", "/boundary/c=null"]),
    ("dimer_fig3_ar39_mu012+no_roots", "dimer_fig3_ar39_mu012", ["/contact/mu_i=0.5"]),
    ("thesis_fig3_11_ed+large_kappa", "thesis_fig3_11_ed", ['/ed/tangential="large_kappa"']),
    ("wedge_fig6_ed_tilt10+e_t_one", "wedge_fig6_ed_tilt10", ['/contact/tangential="none"']),
    ("demo_sweep+velocity_verlet", "demo_sweep",
     ['/integrator/scheme="velocity_verlet"', "/snapshots=null"]),
]


def mask(text):
    """The measured parts of the estimate and calibration lines replaced: wall times by <time>,
    <low> and <high>, the build time by <build>, the slices by <n>, rates by <rate>, <low> and
    <high>, the CPU share line by <measured>."""
    text = re.sub(r"^(estimate: about )\S+ (?:s|min|h|days)( of wall time on [^,\n]*, )\S+ "
                  r"(?:s|min|h|days) to \S+ (?:s|min|h|days)$", r"\1<time>\2<low> to <high>", text,
                  flags=re.M)
    text = re.sub(r"^(calibration: \d+ packing\(s\) built in )\S+( s, stepped )\d+"
                  r"( slice\(s\) after a warm-up: )\S+( particle-steps/s, slices )\S+ to \S+$",
                  r"\1<build>\2<n>\3<rate>\4<low> to <high>", text, flags=re.M)
    return re.sub(r"^(cpu share: ).*$", r"\1<measured>", text, flags=re.M)


def validate(binary, case, sets):
    cmd = [binary, "validate", "cases/" + case + ".json", "--threads", "2"]
    for s in sets:
        cmd += ["--set", s]
    return subprocess.run(cmd, cwd=ROOT, check=True, capture_output=True, text=True).stdout


def main():
    if len(sys.argv) != 2:
        sys.exit(__doc__)
    binary = os.path.abspath(sys.argv[1])
    runs = [(name[:-5], name[:-5], []) for name in sorted(os.listdir(os.path.join(ROOT, "cases")))
            if name.endswith(".json")]
    os.makedirs(PINS, exist_ok=True)
    index = []
    for name, case, sets in runs + VARIANTS:
        with open(os.path.join(PINS, name + ".txt"), "w", newline="") as f:
            f.write(mask(validate(binary, case, sets)))
        index.append({"file": name + ".txt", "case": case, "set": sets})
    with open(os.path.join(PINS, "index.json"), "w") as f:
        json.dump(index, f, indent=1, ensure_ascii=False)
        f.write("\n")
    print(f"pinned {len(index)} texts in {os.path.relpath(PINS, ROOT)}")


if __name__ == "__main__":
    main()
