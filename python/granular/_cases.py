"""Cases: loaded and validated by the CLI's own loader (granular.CaseError on bad input)."""
import json
import os

from . import _core
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
    return texts


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
        ``text`` (the CLI's lines) and, per line "name: value" that starts a group, ``name`` ->
        the value's text, or the list of the group's lines when it has indented lines (a
        remark in parentheses after the name stays in the value). The numbers stay text."""
        text = self._loaded.describe()
        d = {"model": self.model, "notes": self.notes, "text": text}
        key = None
        for line in text.splitlines():
            if line[:1] in (" ", "\t") and key is not None:
                if not isinstance(d[key], list):
                    d[key] = [d[key]] if d[key] else []
                d[key].append(line.strip())
                continue
            name, sep, value = line.partition(":")
            # "contacts (c = ...; e_n, t_c from eqs. 4.55–4.56):" names the group "contacts"
            name, paren, remark = name.partition(" (")
            if not sep or not name.strip():
                key = None
                continue
            key = name.strip()
            d[key] = ((paren.strip() + remark).strip() + " " + value.strip()).strip()
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
    return Case(_core.load_case_text(text, name, _overrides(set)))
