"""Cases from Python validate as the CLI does (issue 14, items 1 and 2)."""
import json
import math

import pytest

import granular
from conftest import CASES, DATA, granular_cli, set_args


def test_version_is_the_clis():
    line = granular_cli("--version").stdout
    assert line.startswith(f"granular {granular.__version__} (commit ")
    assert line == granular._core.version_line() + "\n"


def test_python_dash_m_granular_is_the_cli_and_help_leads_to_everything():
    import subprocess
    import sys
    p = subprocess.run([sys.executable, "-m", "granular", "--version"], capture_output=True,
                       text=True)
    assert p.returncode == 0, p.stderr
    assert p.stdout == granular_cli("--version").stdout
    p = subprocess.run([sys.executable, "-m", "granular", "run", "--help"], capture_output=True,
                       text=True)
    assert p.returncode == 0 and "--resume" in p.stdout
    for name in ("load_case", "run", "read", "Ensemble", "CaseError", "python -m granular"):
        assert name in granular.__doc__


@pytest.mark.parametrize("name", ["bad_negative_gamma", "bad_unknown_key", "bad_wrong_type",
                                  "bad_missing_key", "bad_syntax", "pendulum_bad_l1"])
def test_a_bad_case_raises_the_clis_message(name, tmp_path):
    path = str(DATA / f"{name}.json")
    cli = granular_cli("validate", path, check=False)
    assert cli.returncode == 2
    with pytest.raises(granular.CaseError) as raised:
        granular.load_case(path)
    assert str(raised.value) + "\n" == cli.stderr
    assert isinstance(raised.value, ValueError)
    assert raised.value.file == path


def test_a_bad_override_raises_the_clis_message():
    path = str(CASES / "demo_sweep.json")
    cli = granular_cli("validate", path, "--set", "/drive/gamma=[1,-2]", check=False)
    with pytest.raises(granular.CaseError) as raised:
        granular.load_case(path, set={"/drive/gamma": [1, -2]})
    assert str(raised.value) + "\n" == cli.stderr
    assert raised.value.pointer == "/drive/gamma/1"


def test_a_dict_validates_as_its_file_does():
    with open(DATA / "bad_unknown_key.json") as f:
        d = json.load(f)
    with pytest.raises(granular.CaseError) as from_file:
        granular.load_case(DATA / "bad_unknown_key.json")
    with pytest.raises(granular.CaseError) as from_dict:
        granular.case_from_dict(d, name=str(DATA / "bad_unknown_key.json"))
    assert str(from_dict.value) == str(from_file.value)
    with pytest.raises(granular.CaseError, match=r"^<dict>: "):
        granular.case_from_dict(d)
    with pytest.raises(granular.CaseError, match="not JSON"):
        granular.case_from_dict({"model": float("nan")})


def test_deep_nesting_is_a_case_error_at_every_entry_point(tmp_path):
    """Issue 20, item 1: a value nested ~300 000 deep killed the interpreter in the scan models'
    loader (a recursive copy); the file, the overrides and a dict are refused where parsed."""
    deep_text = "[" * 300000 + "]" * 300000
    path = tmp_path / "deep.json"
    with open(CASES / "three_disk_fig5_4_tilt_scan.json") as f:
        path.write_text(f.read().replace("{", '{"description": ' + deep_text + ", ", 1))
    with pytest.raises(granular.CaseError, match="nested deeper than 100 levels"):
        granular.load_case(path)
    deep = []
    for _ in range(300000):
        deep = [deep]
    with pytest.raises(granular.CaseError, match=r"^<dict>: nested deeper than a case may be"):
        granular.case_from_dict({"model": "three_disk", "description": deep})
    with pytest.raises(granular.CaseError, match=r"^--set /description: the value nests deeper"):
        granular.load_case(CASES / "demo_sweep.json", set={"/description": deep})
    shallow = []
    for _ in range(150):
        shallow = [shallow]
    with pytest.raises(granular.CaseError, match="the value nests deeper than a case may"):
        granular.load_case(CASES / "demo_sweep.json", set={"/description": shallow})
    assert granular._core.max_json_depth == 100


def test_overrides_reach_the_echo_and_none_removes_a_key():
    case = granular.load_case(CASES / "demo_sweep.json", set={"/drive/gamma": [1, 2]})
    assert case.model == "packing_ensemble"
    assert case.echo["drive"]["gamma"] == [1, 2]
    assert granular.load_case(CASES / "demo_sweep.json").echo["seed"] == 1
    with pytest.raises(granular.CaseError, match="/drive/gamma"):
        granular.load_case(CASES / "demo_sweep.json", set={"/drive/gamma": None})


def restitution(k_n, gamma_n, m_eff):
    """e_n and t_c of the linear dashpot, the collision ending when the normal force first
    vanishes (docs/model.md, eqs. 4.55-4.56; underdamped): tan(w t_c) = -2 b w / (w^2 - b^2)
    at its first root, e_n = exp(-b t_c). Not the naive pi/w and exp(-pi c / sqrt(1 - c^2)),
    which end the collision when the overlap vanishes."""
    b = gamma_n / (2 * m_eff)
    w = math.sqrt(k_n / m_eff - b * b)
    t_c = (math.pi - math.atan2(2 * b * w, w * w - b * b)) / w
    return math.exp(-b * t_c), t_c


def disk_mass(areal_density, radius):
    return areal_density * math.pi * radius * radius


def test_describe_holds_the_clis_text_and_its_numbers():
    path = str(CASES / "demo_sweep.json")
    cli = granular_cli("validate", path).stdout
    d = granular.load_case(path).describe()
    assert d["model"] == "packing_ensemble" and d["notes"] == []
    assert d["text"] in cli  # the same lines, between the CLI's header and its estimate
    # the groups of the text, their numbers as numbers
    assert d["packings"] == {"gamma_values": 6, "packings_per_gamma": 4, "packings": 24,
                             "disks_per_packing": 60, "disks": 1440, "box_width": 0.4, "g": 9.8}
    assert d["drive"]["gamma"] == [0.3, 0.6, 1, 2, 4, 8]
    assert d["drive"]["f"] == 80.0 and d["units"]["drive"] == {"f": "Hz", "A": "m",
                                                               "peak_wall_speed": "m/s"}
    assert d["time_step"]["scheme"] == "gear5" and d["units"]["time_step"]["dt"] == "s"
    assert d["snapshots"]["frames"] == 1 and isinstance(d["snapshots"]["frames"], int)


def test_describe_of_the_demo_has_the_closed_forms():
    case = granular.load_case(CASES / "demo_sweep.json")
    d = case.describe()
    contact = case.echo["contact"]["disk_disk"]
    rho = case.echo["packing"]["areal_density"]
    m_light = disk_mass(rho, min(s["radius"] for s in case.echo["packing"]["species"]))
    m_heavy = disk_mass(rho, max(s["radius"] for s in case.echo["packing"]["species"]))
    for key, m_eff in [("disk_disk_smallest_pair", m_light / 2), ("disk_disk_largest_pair",
                                                                   m_heavy / 2),
                       ("disk_wall_smallest_disk", m_light), ("disk_wall_largest_disk",
                                                              m_heavy)]:
        e_n, t_c = restitution(contact["k_n"], contact["gamma_n"], m_eff)
        got = d["contacts"][key]
        assert got["m_eff"] == pytest.approx(m_eff, rel=1e-14), key
        assert got["c"] == pytest.approx(
            contact["gamma_n"] / (2 * math.sqrt(contact["k_n"] * m_eff)), rel=1e-14), key
        assert got["e_n"] == pytest.approx(e_n, rel=1e-13), key
        assert got["t_c"] == pytest.approx(t_c, rel=1e-13), key
    # dt = the shortest t_c (the lightest pair) / steps_per_collision, as the case asks
    t_c = restitution(contact["k_n"], contact["gamma_n"], m_light / 2)[1]
    steps = case.echo["integrator"]["steps_per_collision"]
    assert d["time_step"]["t_c"] == pytest.approx(t_c, rel=1e-13)
    assert d["time_step"]["dt"] == pytest.approx(t_c / steps, rel=1e-13)
    assert d["time_step"]["steps_per_t_c"] == pytest.approx(steps, rel=1e-13)
    # the drive: A = Γ g / ω² per Γ
    w = 2 * math.pi * case.echo["drive"]["frequency"]
    for gamma, a, speed in zip(d["drive"]["gamma"], d["drive"]["A"],
                               d["drive"]["peak_wall_speed"]):
        assert a == pytest.approx(gamma * case.echo["gravity"] / w**2, rel=1e-14)
        assert speed == pytest.approx(a * w, rel=1e-14)


def test_describe_of_a_collision_has_its_dt_and_closed_forms():
    case = granular.load_case(CASES / "collision_disk_wall.json")
    e = case.echo
    m_eff = disk_mass(e["disks"]["areal_density"], e["disks"]["radius_a"])  # against a wall
    e_n, t_c = restitution(e["contact"]["k_n"], e["contact"]["gamma_n"], m_eff)
    d = case.describe()
    assert d["collision"] == {"kind": "disk-wall", "m_a": pytest.approx(m_eff, rel=1e-14)}
    assert d["predicted"]["e_n"] == pytest.approx(e_n, rel=1e-13)
    assert d["predicted"]["t_c"] == pytest.approx(t_c, rel=1e-13)
    assert d["contact"]["e_n"] == d["predicted"]["e_n"]
    assert d["units"]["predicted"] == {"t_c": "s"}
    steps = e["integrator"]["steps_per_collision"]
    assert d["time_step"]["dt"] == pytest.approx(t_c / steps, rel=1e-13)
    # a dt given by the case is the dt described, to the bit
    given = granular.load_case(
        CASES / "collision_disk_wall.json",
        set={"/integrator/steps_per_collision": None, "/integrator/dt": 1.234567891e-6})
    assert given.describe()["time_step"]["dt"] == 1.234567891e-6
    assert given.describe()["time_step"]["steps_per_t_c"] == pytest.approx(t_c / 1.234567891e-6)


def test_describe_of_a_host_model_has_its_energies():
    case = granular.load_case(CASES / "pendulum_mu0.json")
    p, o, g = case.echo["pendulum"], case.echo["obstacle"], case.echo["gravity"]
    init = case.echo["initial"]
    psi1, psi2 = math.radians(init["psi1_deg"]), math.radians(init["psi2_deg"])
    w1, w2 = init["omega1"], init["omega2"]
    # the mass matrix and potential of docs/pendulum.md (spec §2.1), potential zero at O
    a11 = p["I1"] + p["l1"] ** 2 * (0.25 * p["m1"] + p["m2"])
    a22 = p["I2"] + p["lc"] ** 2 * p["m2"]
    a12 = p["l1"] * p["lc"] * p["m2"] * math.cos(psi1 - psi2)

    def potential(q1, q2):
        return -(0.5 * p["m1"] + p["m2"]) * g * p["l1"] * math.cos(q1) - \
            p["m2"] * g * p["lc"] * math.cos(q2)

    energy = 0.5 * (a11 * w1 * w1 + 2 * a12 * w1 * w2 + a22 * w2 * w2) + potential(psi1, psi2)
    d = case.describe()
    assert d["start"]["E"] == pytest.approx(energy, rel=1e-13)
    assert d["start"]["E_rest"] == pytest.approx(potential(0.0, 0.0), rel=1e-14)
    assert d["units"]["start"] == {"gap": "m", "E": "J", "E_rest": "J"}
    # the gap f = D - l1 cos psi1 - (l2 + r) cos psi2 - r (eq. 7)
    gap = o["D"] - p["l1"] * math.cos(psi1) - (p["l2"] + p["r"]) * math.cos(psi2) - p["r"]
    assert d["start"]["gap"] == pytest.approx(gap, rel=1e-13)
    assert d["double_pendulum"]["L"] == pytest.approx(p["l2"] + p["r"], rel=1e-15)
    assert d["integrator"] == {"scheme": "rk4", "step": 1e-4,
                               "event_time_tol": pytest.approx(1e-12)}
    assert d["run"] == {"t_end": 6.0, "rows": 6000.0}
    assert "E(0) = " + format(energy, ".10g") + " J" in d["text"]


def test_a_prism_that_cannot_clear_the_second_edge_has_no_smallest_lambda0():
    d = granular.load_case(CASES / "prism_fig5_n22.json", set={"/ramp/slope_deg": 0}).describe()
    assert d["release"] == {"lambda0_min": None}
    assert d["first_impact"]["next_top"] == "NOT cleared"


def test_estimate_holds_the_work_and_the_wall_time():
    case = granular.load_case(CASES / "demo_sweep.json", set={"/drive/gamma": [1, 2]})
    e = case.estimate(threads=2)
    assert e["work"]["disks"] == 2 * 4 * 60
    # counts are integers, and the steps are the ones describe() gives for the same schedule
    assert all(isinstance(e["work"][k], int) for k in ("steps", "disks", "particle_steps"))
    assert e["work"]["particle_steps"] == e["work"]["steps"] * e["work"]["disks"]
    total = case.describe()["total"]
    assert total == {"steps_per_packing": e["work"]["steps"],
                     "disk_steps": e["work"]["particle_steps"]}
    est = e["estimate"]
    assert est["backend"] == "cpu" and est["threads"] == 2 and est["calibration_packings"] == 8
    # the band holds the estimate, the slices' rates hold the rate
    assert 0 < est["wall_time_low"] <= est["wall_time"] <= est["wall_time_high"]
    assert 0 < est["rate_low"] <= est["rate"] <= est["rate_high"]
    assert isinstance(est["slices"], int) and est["slices"] >= 1 and est["build_time"] >= 0
    assert e["units"]["estimate"] == {
        "wall_time": "s", "wall_time_low": "s", "wall_time_high": "s", "build_time": "s",
        "rate": "particle-steps/s", "rate_low": "particle-steps/s",
        "rate_high": "particle-steps/s", "cpu_share": "%", "cpu_rate": "particle-steps/s"}
    assert 0 < est["cpu_share"] <= 100 and est["cpu_rate"] > 0
    assert e["text"].startswith(f"work: {e['work']['steps']} steps × 480 disks")
    # the CLI prints the same work line
    cli = granular_cli("validate", CASES / "demo_sweep.json", "--threads", "2",
                       *set_args({"/drive/gamma": [1, 2]})).stdout
    assert e["text"].splitlines()[0] in cli.splitlines()
    # a model without an estimate says so; bad requests are the CLI's errors
    other = granular.load_case(CASES / "collision_disk_wall.json").estimate()
    assert other == {"text": "estimate: none for this model (its runs take seconds to minutes)\n",
                     "units": {}}
    with pytest.raises(granular.CaseError, match="only packing_ensemble runs offer a backend"):
        granular.load_case(CASES / "collision_disk_wall.json").estimate(backend="cuda")
    with pytest.raises(ValueError, match="^threads: "):
        case.estimate(threads=0)
