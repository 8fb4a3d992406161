"""Thesis figure 3.6 (Peraza Mues 2018): ⟨ω̄²⟩ against Γ for 60-disk packings, with an analysis
the CLI does not do: the fraction of disks that rotate steadily at each Γ.

A disk counts as rotating when it turns at least OMEGA_MIN on average (|ω̄|), its angle follows a
straight line in time (ρ² ≥ RHO2_MIN) and its angular velocity is steadier than it is noisy
(σ_a < SIGMA_A_MAX): docs/outputs.md defines the three.

    python examples/fig3_6_rotating_fraction.py            # seconds: a reduced sweep
    python examples/fig3_6_rotating_fraction.py --full     # the case as shipped (a cluster's work)
"""
import argparse
import pathlib

import numpy as np

import granular

CASE = pathlib.Path(__file__).resolve().parents[1] / "cases" / "thesis_fig3_6_kn1e4.json"
OMEGA_MIN = 0.5  # [rad/s], about 5 RPM
RHO2_MIN = 0.9
SIGMA_A_MAX = 0.5

# a few Γ, two packings each, short times: the shape of the figure in seconds
REDUCED = {"/drive/gamma": [0.5, 2, 8], "/ensemble/packings_per_gamma": 2,
           "/run/settle_time": 0.1, "/run/transient_time": 0.2, "/run/measure_time": 1.0,
           "/run/sample_interval": 0.05}


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--full", action="store_true", help="run the case as shipped")
    parser.add_argument("--threads", type=int, default=None)
    args = parser.parse_args()

    case = granular.load_case(CASE, set=None if args.full else REDUCED)
    result = granular.run(case, threads=args.threads)

    disks = result.disks
    rotating = ((np.abs(disks["omega_bar"]) >= OMEGA_MIN) & (disks["rho2"] >= RHO2_MIN)
                & (disks["sigma_a"] < SIGMA_A_MAX))
    g = result.gammas
    print(f"{'Γ':>6} {'<ω̄²> [rad²/s²]':>16} {'± s.e.':>10} {'rotating':>9}")
    for k, gamma in enumerate(g["gamma"]):
        at = disks["gamma"] == gamma
        print(f"{gamma:6.3g} {g['mean_sq_omega'][k]:16.4g} {g['mean_sq_omega_stderr'][k]:10.2g} "
              f"{np.mean(rotating[at]):9.1%}")


if __name__ == "__main__":
    main()
