"""Cases: loaded and validated by the CLI's own loader (granular.CaseError on bad input)."""
from __future__ import annotations

import json
import os
from typing import Any, Dict, List, Optional, Union

import numpy

from . import _arguments, _core
from ._core import CaseError


def _case_error(file, pointer, detail):
    """A CaseError as the engine raises one: the one-line message "file: pointer: detail" (empty
    parts left out) with the parts as attributes."""
    error = CaseError(": ".join(part for part in (file, pointer, detail) if part))
    error.file, error.pointer, error.detail = file, pointer, detail
    return error


def _json_value(value):
    """json.dumps' default: numpy scalars as Python numbers, numpy arrays as lists."""
    if isinstance(value, numpy.generic):
        return value.item()
    if isinstance(value, numpy.ndarray):
        return value.tolist()
    raise TypeError(f"Object of type {type(value).__name__} is not JSON serializable")


def _json(value):
    return json.dumps(value, allow_nan=False, separators=(",", ":"), ensure_ascii=False,
                      default=_json_value)


def _overrides(set):
    """{"/json/pointer": value} -> the CLI's --set texts, "/json/pointer=<value as JSON>"."""
    if set is None:
        return []
    if not isinstance(set, dict):
        raise TypeError("set: expected a dict {\"/json/pointer\": value}")
    texts = []
    for pointer, value in set.items():
        if not isinstance(pointer, str):
            raise TypeError(f"set: the pointer {pointer!r} is not a str")
        try:
            texts.append(pointer + "=" + _json(value))
        except (TypeError, ValueError) as e:
            raise _case_error(f"--set {pointer}", "", f"the value is not JSON: {e}") from None
        except RecursionError:
            raise _case_error(f"--set {pointer}", "", "the value nests deeper than a case may be "
                              f"({_core.max_json_depth} levels)") from None
    return texts


def _check_threads(threads):
    """None (the OpenMP default) or a thread count; TypeError or ValueError otherwise."""
    return _arguments.threads(threads)


PathLike = Union[str, "os.PathLike[str]"]
#: JSON pointers to values: {"/drive/gamma": [1, 2]}; None removes a key
Overrides = Optional[Dict[str, Any]]


class Case:
    """A validated case: its model, the case as it will run (``echo``, defaults filled), the
    loader's notes. Build one with :func:`load_case` or :func:`case_from_dict`."""

    def __init__(self, loaded):
        self._loaded = loaded

    @property
    def path(self) -> str:
        """The case file as given ("<dict>" for a dict)."""
        return self._loaded.path

    @property
    def model(self) -> str:
        """The value of "model" ("packing_ensemble", "collision", "pendulum", ...)."""
        return self._loaded.model

    @property
    def notes(self) -> List[str]:
        """Remarks worth showing (a setting that does nothing, say), as the CLI prints them."""
        return list(self._loaded.notes)

    @property
    def echo(self) -> Dict[str, Any]:
        """The case as it will run, overrides applied and defaults filled (a new dict)."""
        return json.loads(self._loaded.echo_json)

    def describe(self) -> Dict[str, Any]:
        """The derived quantities ``granular validate`` prints, as a dict: ``model``, ``notes``,
        ``text`` (the CLI's lines, word for word), ``units`` and, per group of the text
        ("time_step", "drive", "run", ...), {key: value} with the printed numbers at full
        precision (float, int; lists for lines of a list, None for a value the text calls
        absent) and words such as the integrator's name (str). ``units[group][key]`` is the
        unit of a value, as the text spells it; numbers without one have no entry."""
        return self._dict(self._loaded.describe(), model=self.model, notes=self.notes)

    def estimate(self, threads: Optional[int] = None, backend: str = "cpu") -> Dict[str, Any]:
        """What a run would cost, as ``granular validate --threads --backend`` prints it: a
        dict with ``text``, ``units`` and, for a packing ensemble by MD, ``work`` (steps,
        disks, particle_steps: integers) and ``estimate`` (wall_time [s] and its band
        wall_time_low, wall_time_high [s], backend, threads, calibration_packings, build_time
        [s], slices, rate [particle-steps/s] and the slices' rate_low, rate_high) from a
        calibration run that writes nothing (a warm-up, then 0.4 s of measured slices after
        building its packings; the GIL is released). Models without an estimate give the text
        alone (docs/outputs.md, "Estimates")."""
        _check_threads(threads)
        return self._dict(self._loaded.estimate(threads or 0, backend))

    @staticmethod
    def _dict(described, **first):
        """{"text", "data", "units"} from the engine -> first, text, units, then the groups."""
        r = json.loads(described)
        d = dict(first, text=r["text"], units=r["units"])
        d.update(r["data"])
        return d

    def __repr__(self):
        return f"<granular.Case {self.model} from {self.path}>"


def load_case(path: PathLike, set: Overrides = None) -> Case:
    """Reads and validates a case file as ``granular validate PATH --set ...`` does.

    ``set`` maps JSON pointers to values ({"/drive/gamma": [1, 2]}); None removes a key.
    Raises CaseError with the CLI's one-line message."""
    return Case(_core.load_case(os.fspath(path), _overrides(set)))


def case_from_dict(d: Dict[str, Any], set: Overrides = None, name: str = "<dict>") -> Case:
    """Validates a case given as a dict (e.g. ``json.load`` of a case file); ``name`` stands
    for the file in messages."""
    if not isinstance(d, dict):
        raise TypeError("case_from_dict: expected a dict")
    try:
        text = _json(d)
    except (TypeError, ValueError) as e:
        raise _case_error(name, "", f"not JSON: {e}") from None
    except RecursionError:
        raise _case_error(name, "", "nested deeper than a case may be "
                          f"({_core.max_json_depth} levels)") from None
    return Case(_core.load_case_text(text, name, _overrides(set)))


def schema(model: Optional[str] = None) -> Dict[str, Any]:
    """The JSON Schema (draft 2020-12) of case files, or of ``model``'s only, as ``granular schema
    [MODEL]`` prints it: the keys, types, bounds, choices and defaults the loaders read
    (docs/cases.md, "Schema"). Raises CaseError for an unknown model."""
    return json.loads(_core.case_schema(model or ""))
