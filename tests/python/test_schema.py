"""The case schema (`granular schema`, docs/cases.md "Schema") and the shipped cases by name
(`granular cases`, granular.cases; issue 35): the schema is valid JSON Schema 2020-12, accepts
every shipped case, and refuses what the loader refuses, key by key."""
import copy
import json

import jsonschema
import pytest

import granular
from conftest import CASES, granular_cli

SCHEMA = json.loads(granular_cli("schema").stdout)
VALIDATOR = jsonschema.Draft202012Validator(SCHEMA)
SHIPPED = sorted(CASES.glob("*.json"))


def test_the_schema_is_json_schema_2020_12_with_one_definition_per_model():
    jsonschema.Draft202012Validator.check_schema(SCHEMA)
    assert SCHEMA["$schema"] == "https://json-schema.org/draft/2020-12/schema"
    models = {json.loads(f.read_text())["model"] for f in SHIPPED}
    assert set(SCHEMA["$defs"]) == models
    assert granular.schema() == SCHEMA
    one = json.loads(granular_cli("schema", "dimer").stdout)
    assert one["properties"]["model"] == {"const": "dimer"}
    assert one == dict(granular.schema("dimer"))


def test_an_unknown_model_is_refused_with_a_suggestion():
    p = granular_cli("schema", "dimmer", check=False)
    assert p.returncode == 2 and 'did you mean "dimer"' in p.stderr
    with pytest.raises(granular.CaseError, match="did you mean"):
        granular.schema("dimmer")


@pytest.mark.parametrize("case", SHIPPED, ids=lambda p: p.stem)
def test_every_shipped_case_is_valid(case):
    doc = json.loads(case.read_text())
    errors = [e.message for e in VALIDATOR.iter_errors(doc)]
    assert not errors, errors[:3]
    # a case that names the schema is still a case
    doc["$schema"] = "granular-case.schema.json"
    assert not list(VALIDATOR.iter_errors(doc))
    granular.case_from_dict(doc)


def test_a_schema_that_is_not_a_string_is_refused():
    doc = json.loads((CASES / "demo_sweep.json").read_text())
    doc["$schema"] = 1
    assert list(VALIDATOR.iter_errors(doc))
    with pytest.raises(granular.CaseError, match=r"/\$schema: must be a string"):
        granular.case_from_dict(doc)


def _definition(model):
    return SCHEMA["$defs"][model]


def _mutants(doc, schema, pointer=""):
    """(what, mutated document) for each refusal the schema states at the keys `doc` holds:
    an unknown key in a closed object, a required key removed, a number below its bound, a
    value of the wrong type, a choice that is none of the choices."""
    props = schema.get("properties", {})
    if schema.get("additionalProperties") is False:
        yield f"{pointer}/zz_unknown", {**doc, "zz_unknown": 1}
    for key in schema.get("required", []):
        if key in doc:
            yield f"{pointer}/{key} removed", {k: v for k, v in doc.items() if k != key}
    for key, value in doc.items():
        sub = props.get(key, {})
        where = f"{pointer}/{key}"
        mutated = []
        if "exclusiveMinimum" in sub:
            mutated.append(("at the exclusive minimum", sub["exclusiveMinimum"]))
        if "minimum" in sub:
            mutated.append(("below the minimum", sub["minimum"] - 1))
        if sub.get("type") in ("number", "integer"):
            mutated.append(("a string", "1"))
        if sub.get("type") == "integer":
            mutated.append(("not an integer", 1.5))
        if sub.get("type") == "string":
            mutated.append(("a number", 1))
        if "enum" in sub:
            mutated.append(("no choice", "zz_choice"))
        for what, v in mutated:
            yield f"{where} {what}", {**doc, key: v}
        if isinstance(value, dict) and sub.get("type") == "object":
            for what, inner in _mutants(value, sub, where):
                yield what, {**doc, key: inner}
        if isinstance(value, list) and value and isinstance(value[0], dict) and "items" in sub:
            for what, inner in _mutants(value[0], sub["items"], where + "/0"):
                yield what, {**doc, key: [inner] + value[1:]}


def _first_point(doc):
    """A scan's first point as a plain case (each scanned key at its first value), or doc."""
    if "scan" not in doc:
        return doc
    doc = copy.deepcopy(doc)
    for pointer, values in doc.pop("scan").items():
        *path, last = pointer.split("/")[1:]
        at = doc
        for token in path:
            at = at[int(token)] if isinstance(at, list) else at.setdefault(token, {})
        at[last] = values[0]
    return doc


# one case per model, a plain one where the model has one, else a scan's first point
ONE_PER_MODEL = {}
for _f in sorted(SHIPPED, key=lambda f: "scan" in json.loads(f.read_text())):
    ONE_PER_MODEL.setdefault(json.loads(_f.read_text())["model"], _f)


def test_one_case_per_model_is_mutated():
    assert set(ONE_PER_MODEL) == set(SCHEMA["$defs"])


@pytest.mark.parametrize("case", sorted(ONE_PER_MODEL.values()), ids=lambda p: p.stem)
def test_what_the_schema_refuses_the_loader_refuses(case):
    doc = _first_point(json.loads(case.read_text()))
    granular.case_from_dict(copy.deepcopy(doc))
    mutants = list(_mutants(doc, _definition(doc["model"])))
    assert len(mutants) >= 10, [w for w, _ in mutants]
    for what, mutant in mutants:
        assert list(VALIDATOR.iter_errors(mutant)), f"the schema accepts {what}"
        with pytest.raises(granular.CaseError):
            granular.case_from_dict(copy.deepcopy(mutant), name=f"{case.name} ({what})")


def test_shipped_cases_by_name():
    names = granular.cases.names()
    assert names == sorted(f.stem for f in SHIPPED)
    listing = granular_cli("cases").stdout
    assert all(n in listing for n in names)
    shipped = granular.cases.path("demo_sweep")
    assert shipped.read_text() == (CASES / "demo_sweep.json").read_text()
    assert granular_cli("cases", "show", "demo_sweep").stdout == shipped.read_text()
    assert granular.load_case("demo_sweep").echo == granular.load_case(str(shipped)).echo
    with pytest.raises(KeyError, match='did you mean "demo_sweep"'):
        granular.cases.path("demo_swep")
    p = granular_cli("validate", "demo_swep", check=False)
    assert p.returncode == 2 and 'did you mean "demo_sweep"' in p.stderr


def test_copying_a_shipped_case(tmp_path):
    out = granular_cli("cases", "copy", "pendulum_mu0", tmp_path / "mine").stdout.strip()
    assert out == str(tmp_path / "mine" / "pendulum_mu0.json")
    assert (tmp_path / "mine" / "pendulum_mu0.json").read_text() == \
        (CASES / "pendulum_mu0.json").read_text()
    p = granular_cli("cases", "copy", "pendulum_mu0", tmp_path / "mine", check=False)
    assert p.returncode == 2 and "exists already" in p.stderr
    granular_cli("cases", "copy", "pendulum_mu0", tmp_path / "mine", "--force")
    with pytest.raises(FileExistsError):
        granular.cases.copy("pendulum_mu0", tmp_path / "mine")
    assert granular.cases.copy("pendulum_mu0", tmp_path / "py").read_text() == \
        (CASES / "pendulum_mu0.json").read_text()
