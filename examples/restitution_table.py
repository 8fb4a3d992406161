"""A restitution table of the contact law: e_n and e_t measured by single disk–wall collisions
(the collision model) over impact angles u_t/u_n, beside the closed forms (the thesis, ch. 3
and 4; docs/model.md): eq. 4.56 for e_n, eq. 4.75 for e_t where the contact slides throughout
(nan below that threshold), and the small-angle limit cos(ω_t t_c) of eq. 4.79. Each
collision runs from a dict, in milliseconds.

    python examples/restitution_table.py
"""
import json
import pathlib

import granular

CASE = pathlib.Path(__file__).resolve().parents[1] / "cases" / "collision_disk_wall.json"


def main():
    with open(CASE) as f:
        base = json.load(f)
    u_n = base["impact"]["u_n"]
    print(f"{'u_t/u_n':>8} {'e_n':>8} {'e_n eq.4.56':>12} {'e_t':>8} {'e_t sliding':>12} "
          f"{'e_t sticking':>13} {'t_c [ms]':>9}")
    for ratio in (0.1, 0.25, 0.5, 1.0, 2.0, 4.0):
        case = granular.case_from_dict(base, set={"/impact/u_t": ratio * u_n})
        s = granular.run(case).summary
        sliding = s["e_t_full_sliding"] if s["full_sliding_valid"] else float("nan")
        print(f"{ratio:8.3g} {s['e_n']:8.4f} {s['e_n_predicted']:12.4f} {s['e_t']:8.4f} "
              f"{sliding:12.4f} {s['e_t_sticking_limit']:13.4f} {1e3 * s['t_c']:9.4f}")


if __name__ == "__main__":
    main()
