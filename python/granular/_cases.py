"""Cases: loaded and validated by the CLI's own loader (granular.CaseError on bad input)."""
import json
import os

from . import _arguments, _core
from ._core import CaseError


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
            texts.append(pointer + "=" + json.dumps(value, allow_nan=False, separators=(",", ":"),
                                                 ensure_ascii=False))
        except (TypeError, ValueError) as e:
            raise CaseError(f"--set {pointer}: the value is not JSON: {e}") from None
        except RecursionError:
            raise CaseError(f"--set {pointer}: the value nests deeper than a case may be "
                            f"({_core.max_json_depth} levels)") from None
    return texts


def _check_threads(threads):
    """None (the OpenMP default) or a thread count; TypeError or ValueError otherwise."""
    return _arguments.threads(threads)


class Case:
    """A validated case: its model, the case as it will run (``echo``, defaults filled), the
    loader's notes. Build one with :func:`load_case` or :func:`case_from_dict`."""

    def __init__(self, loaded):
        self._loaded = loaded

    @property
    def path(self):
        """The case file as given ("<dict>" for a dict)."""
        return self._loaded.path

    @property
    def model(self):
        """The value of "model" ("packing_ensemble", "collision", "pendulum", ...)."""
        return self._loaded.model

    @property
    def notes(self):
        """Remarks worth showing (a setting that does nothing, say), as the CLI prints them."""
        return list(self._loaded.notes)

    @property
    def echo(self):
        """The case as it will run, overrides applied and defaults filled (a new dict)."""
        return json.loads(self._loaded.echo_json)

    def describe(self):
        """The derived quantities ``granular validate`` prints, as a dict: ``model``, ``notes``,
        ``text`` (the CLI's lines, word for word), ``units`` and, per group of the text
        ("time_step", "drive", "run", ...), {key: value} with the printed numbers at full
        precision (float, int; lists for lines of a list, None for a value the text calls
        absent) and words such as the integrator's name (str). ``units[group][key]`` is the
        unit of a value, as the text spells it; numbers without one have no entry."""
        return self._dict(self._loaded.describe(), model=self.model, notes=self.notes)

    def estimate(self, threads=None, backend="cpu"):
        """What a run would cost, as ``granular validate --threads --backend`` prints it: a
        dict with ``text``, ``units`` and, for a packing ensemble by MD, ``work`` (steps,
        disks, particle_steps) and ``estimate`` (wall_time [s], backend, threads,
        calibration_packings, rate [particle-steps/s], build_time [s]) from a calibration run
        that writes nothing (0.4 s of stepping after building its packings; the GIL is
        released). Models without an estimate give the text alone."""
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


def load_case(path, set=None):
    """Reads and validates a case file as ``granular validate PATH --set ...`` does.

    ``set`` maps JSON pointers to values ({"/drive/gamma": [1, 2]}); None removes a key.
    Raises CaseError with the CLI's one-line message."""
    return Case(_core.load_case(os.fspath(path), _overrides(set)))


def case_from_dict(d, set=None, name="<dict>"):
    """Validates a case given as a dict (e.g. ``json.load`` of a case file); ``name`` stands
    for the file in messages."""
    if not isinstance(d, dict):
        raise TypeError("case_from_dict: expected a dict")
    try:
        text = json.dumps(d, allow_nan=False)
    except (TypeError, ValueError) as e:
        raise CaseError(f"{name}: not JSON: {e}") from None
    except RecursionError:
        raise CaseError(f"{name}: nested deeper than a case may be "
                        f"({_core.max_json_depth} levels)") from None
    return Case(_core.load_case_text(text, name, _overrides(set)))
