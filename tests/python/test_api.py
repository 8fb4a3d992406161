"""The module as Python users expect it (issue 21, item 6): numpy values wherever numbers are,
docstrings and type hints on every public member, stubs and py.typed, counts as integers, and
read() typed by the tables' units."""
import ast
import inspect
import json
import pathlib

import numpy as np
import pytest

import granular
from conftest import CASES, SHORT_DEMO, granular_cli

PACKAGE = pathlib.Path(granular.__file__).parent


def test_numpy_values_are_numbers_and_lists():
    plain = granular.load_case(CASES / "demo_sweep.json",
                               set={"/drive/gamma": [0.5, 1.0, 1.5], "/run/measure_time": 2,
                                    "/run/settle_time": 0.25})
    numpy = granular.load_case(CASES / "demo_sweep.json",
                               set={"/drive/gamma": np.linspace(0.5, 1.5, 3),
                                    "/run/measure_time": np.int64(2),
                                    "/run/settle_time": np.float32(0.25)})
    assert numpy.echo == plain.echo
    d = json.loads((CASES / "demo_sweep.json").read_text())
    d["drive"]["gamma"] = np.array([1, 2], dtype=np.int32)
    assert granular.case_from_dict(d).echo["drive"]["gamma"] == [1, 2]
    # what JSON cannot hold is still the case's error
    with pytest.raises(granular.CaseError, match="/drive/gamma"):
        granular.load_case(CASES / "demo_sweep.json", set={"/drive/gamma": np.array([np.nan])})
    with pytest.raises(granular.CaseError, match="not JSON"):
        granular.load_case(CASES / "demo_sweep.json", set={"/drive/gamma": object()})


def test_numpy_scalars_are_accepted_by_every_call():
    case = granular.load_case(CASES / "demo_sweep.json", set=SHORT_DEMO)
    e = granular.Ensemble(case, threads=np.int64(1))
    e.set_gamma(np.float32(1.5), packing=np.int64(-1))
    e.advance(np.int64(3))
    e.advance_to(np.float64(e.time + 2 * e.dt))
    assert e.step == 5 and e.gammas[-1] == 1.5
    assert e.positions(np.int32(0)).shape == (e.packing_size(0), 2)


PUBLIC = [granular.load_case, granular.case_from_dict, granular.run, granular.read,
          granular.Case, granular.Ensemble, granular.Result, granular.Progress]


def members(cls):
    for name, value in vars(cls).items():
        if name.startswith("_") or name in getattr(cls, "_fields", ()):
            continue
        yield f"{cls.__name__}.{name}", value


def test_every_public_member_has_a_docstring_and_type_hints():
    missing_doc, missing_hints = [], []
    for item in PUBLIC:
        targets = [(item.__name__, item)]
        if inspect.isclass(item):
            targets += list(members(item))
        for name, value in targets:
            function = value.fget if isinstance(value, property) else value
            if not callable(function):
                continue
            if not (inspect.getdoc(function) or "").strip():
                missing_doc.append(name)
            if inspect.isfunction(function):
                hints = function.__annotations__
                params = [p for p in inspect.signature(function).parameters if p != "self"]
                if "return" not in hints or any(p not in hints for p in params):
                    missing_hints.append(name)
    assert not missing_doc, f"no docstring: {missing_doc}"
    assert not missing_hints, f"no type hints: {missing_hints}"
    # units in the docstrings of the arrays and times that have them
    for name in ("positions", "velocities", "angles", "angular_velocities", "radii", "forces",
                 "energy", "dt", "time"):
        member = getattr(granular.Ensemble, name)
        doc = inspect.getdoc(member.fget if isinstance(member, property) else member)
        assert "[" in doc and "]" in doc, f"Ensemble.{name}: no unit in {doc!r}"


def test_the_package_is_typed_and_the_core_has_stubs():
    assert (PACKAGE / "py.typed").is_file()
    stub = ast.parse((PACKAGE / "_core.pyi").read_text())
    names = {node.name for node in stub.body if isinstance(node, (ast.ClassDef, ast.FunctionDef))}
    assert {"Ensemble", "RunRequest", "load_case", "run_case", "version_line"} <= names, names


def test_counts_are_integers(tmp_path):
    case = granular.load_case(CASES / "demo_sweep.json", set=SHORT_DEMO)
    total = case.describe()["total"]
    assert isinstance(total["steps_per_packing"], int) and isinstance(total["disk_steps"], int)
    assert total["disk_steps"] == total["steps_per_packing"] * case.describe()["packings"]["disks"]
    # the CLI's total line says the same count as its work line
    text = granular_cli("validate", CASES / "demo_sweep.json", "--threads", "1").stdout
    total_line = next(line for line in text.splitlines() if line.startswith("total: "))
    work_line = next(line for line in text.splitlines() if line.startswith("work: "))
    assert total_line.split()[1] == work_line.split()[1]
    r = granular.run(case, threads=1)
    assert isinstance(r.summary["particle_steps"], int)
    assert r.summary["particle_steps"] == total["disk_steps"]


def test_read_types_the_columns_by_their_units(tmp_path):
    # integral Γ values stay numbers: their unit says so, not their digits
    case = granular.load_case(CASES / "demo_sweep.json", set=dict(SHORT_DEMO, **{
        "/drive/gamma": [1, 2]}))
    r = granular.run(case, out=tmp_path / "run", threads=1)
    back = granular.read(tmp_path / "run")
    assert back == r
    assert back.disks["gamma"].dtype == np.float64 and back.disks["packing"].dtype == np.int64
    assert back.energy["disk_contacts"].dtype == np.int64
    assert back.energy["kinetic"].dtype == np.float64
    # the same arrays as the field-by-field reader of a folder without units
    for name, table in back.tables.items():
        slow = granular._results.read_table(tmp_path / "run" / f"{name}.csv")
        for column, values in table.items():
            assert np.array_equal(slow[column].astype(values.dtype), values,
                                  equal_nan=values.dtype.kind == "f"), (name, column)


def test_every_case_error_carries_its_parts():
    """Raised by the engine or by the module, a CaseError has file, pointer and detail, and its
    message is the three joined as the CLI joins them."""
    def parts(call):
        with pytest.raises(granular.CaseError) as raised:
            call()
        e = raised.value
        assert str(e) == ": ".join(p for p in (e.file, e.pointer, e.detail) if p)
        return e.file, e.pointer, e.detail

    path = str(CASES / "demo_sweep.json")
    assert parts(lambda: granular.load_case(path, set={"/drive/gamma": -1}))[:2] == (
        path, "/drive/gamma")
    assert parts(lambda: granular.load_case(path, set={"/x": object()}))[0] == "--set /x"
    assert parts(lambda: granular.case_from_dict({"a": object()}, name="mine"))[0] == "mine"
    case = granular.load_case(path, set=SHORT_DEMO)
    assert parts(lambda: granular.run(case, resume=True))[1] == "resume"
    assert parts(lambda: granular.run(case, backend="gpu"))[1] == "backend"
    # call arguments are Python's own errors, not case errors
    with pytest.raises(ValueError) as raised:
        granular.run(case, threads=0)
    assert not isinstance(raised.value, granular.CaseError)
