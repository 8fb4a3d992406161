"""Cases from Python validate as the CLI does (issue 14, items 1 and 2)."""
import json

import pytest

import granular
from conftest import CASES, DATA, granular_cli


def test_version_is_the_clis():
    assert granular_cli("--version").stdout == f"granular {granular.__version__}\n"


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


def test_overrides_reach_the_echo_and_none_removes_a_key():
    case = granular.load_case(CASES / "demo_sweep.json", set={"/drive/gamma": [1, 2]})
    assert case.model == "packing_ensemble"
    assert case.echo["drive"]["gamma"] == [1, 2]
    assert granular.load_case(CASES / "demo_sweep.json").echo["seed"] == 1
    with pytest.raises(granular.CaseError, match="/drive/gamma"):
        granular.load_case(CASES / "demo_sweep.json", set={"/drive/gamma": None})


def test_describe_holds_the_clis_derived_quantities():
    path = str(CASES / "demo_sweep.json")
    cli = granular_cli("validate", path).stdout
    d = granular.load_case(path).describe()
    assert d["model"] == "packing_ensemble"
    assert d["text"] in cli  # the same lines, between the CLI's header and its estimate
    assert "time step" in d and "dt =" in d["time step"]
    assert isinstance(d["drive"], list) and any("Γ = 8" in line for line in d["drive"])
