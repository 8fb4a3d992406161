"""A parameter scan of the double pendulum hitting a rough floor (Sypniewska-Kamińska et al.
2017; docs/pendulum.md): against the floor's friction μ, the impacts in the paper's 6 s (it
counts 6 at μ = 0 and 10 at μ = 0.15), the time of the last one, and the energy the impacts
took, Σ (energy_before − energy_after) over the impact list.

    python examples/pendulum_scan.py             # the paper's 6 s per point, seconds in all
    python examples/pendulum_scan.py --t-end 2   # shorter
"""
import argparse
import pathlib

import numpy as np

import granular

CASE = pathlib.Path(__file__).resolve().parents[1] / "cases" / "pendulum_mu015.json"


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--t-end", type=float, default=6.0, help="simulated time per point [s]")
    args = parser.parse_args()

    print(f"{'μ':>6} {'impacts':>8} {'last impact [s]':>16} {'lost [J]':>9} {'status':>10}")
    for mu in (0.0, 0.05, 0.1, 0.15, 0.2, 0.3):
        case = granular.load_case(CASE, set={"/obstacle/mu": mu, "/run/t_end": args.t_end})
        r = granular.run(case)
        impacts = r.impacts  # {column: array}, one row per impact
        last = left = float("nan")
        if impacts is not None and len(impacts["t"]):
            last = impacts["t"][-1]
            left = float(np.sum(impacts["energy_before"] - impacts["energy_after"]))
        print(f"{mu:6.3g} {r.summary['impact_count']:8d} {last:16.4f} {left:9.4f} "
              f"{r.summary['status']:>10}")


if __name__ == "__main__":
    main()
