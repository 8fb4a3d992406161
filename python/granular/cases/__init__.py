"""The cases that ship with granular: the papers' figures and the demo, as ``granular cases``
lists them (docs/cases.md, "Shipped cases").

    granular.cases.names()                       # ['billiard_hyperbola_4p5hz', ..., 'demo_sweep', ...]
    granular.cases.path("demo_sweep")            # the installed file
    granular.load_case("demo_sweep")             # a shipped case also loads by its name
    granular.cases.copy("demo_sweep", "mine/")   # mine/demo_sweep.json, to edit

The files are installed with the package; the CLI and the module carry the same texts compiled
in, so ``granular run demo_sweep`` needs no file.
"""
from __future__ import annotations

import os
import pathlib
from typing import List, Union

from .. import _core

__all__ = ["names", "path", "text", "copy"]

_FOLDER = pathlib.Path(__file__).resolve().parent


def names() -> List[str]:
    """The shipped cases' names, sorted."""
    return list(_core.shipped_case_names())


def _checked(name: str) -> str:
    if not isinstance(name, str):
        raise TypeError(f"a case name is a str, not {type(name).__name__}")
    stem = name[:-5] if name.endswith(".json") else name
    shipped = names()
    if stem not in shipped:
        near = _core.did_you_mean(stem, shipped)
        raise KeyError(f"no shipped case {stem!r}{near} (granular.cases.names() lists them)")
    return stem


def path(name: str) -> pathlib.Path:
    """The installed file of the shipped case ``name`` (its stem, or NAME.json); KeyError with a
    "did you mean" when there is none."""
    stem = _checked(name)
    file = _FOLDER / (stem + ".json")
    if not file.is_file():
        raise FileNotFoundError(f"{file}: the shipped case's file is not installed here; "
                                f"granular.cases.copy({stem!r}, DIR) writes it from the module")
    return file


def text(name: str) -> str:
    """The JSON text of the shipped case ``name``."""
    return _core.shipped_case_text(_checked(name))


def copy(name: str, folder: Union[str, os.PathLike] = ".", force: bool = False) -> pathlib.Path:
    """Writes the shipped case ``name`` to FOLDER/NAME.json (the folder created if missing) and
    returns that path; an existing file is replaced only with ``force``."""
    stem = _checked(name)
    target = pathlib.Path(folder) / (stem + ".json")
    if target.exists() and not force:
        raise FileExistsError(f"{target}: exists already (force=True replaces it)")
    target.parent.mkdir(parents=True, exist_ok=True)
    partial = target.with_name(target.name + ".partial")
    partial.write_text(text(stem), encoding="utf-8")
    os.replace(partial, target)
    return target
