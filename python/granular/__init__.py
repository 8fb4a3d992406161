"""granular: a granular DEM engine (vibrated 2D disk packings, host impact models) in Python.

Cases load and validate exactly as the CLI's ``granular validate``; runs write the CLI's
outputs and return them as numpy arrays.

    case = granular.load_case("cases/demo_sweep.json", set={"/run/measure_time": 2})
    case.describe()          # the derived quantities, as numbers
    result = granular.run(case, out="out/demo", threads=2)
    result.disks["omega_bar"], result.units["disks"]

Functions and classes: load_case, case_from_dict and Case (cases), cases (the shipped cases:
names, path, copy), schema (the case files' JSON Schema), run (a run into a folder),
read and Result (a run's outputs as numpy arrays, with their units), Progress (what a
run's progress callback receives), Ensemble (a packing
ensemble stepped from Python), CaseError (a case's one-line error). ``python -m granular
--help`` runs the `granular` command. Documentation: docs/python.md (this module),
docs/cases.md (case files), docs/outputs.md (outputs), README.md.
"""
import shlex as _shlex
import sys as _sys

from . import _core
from ._core import CaseError, __version__
from ._cases import Case, load_case, case_from_dict, schema
from . import cases
from ._ensemble import Ensemble
from ._results import Result, read
from ._run import Progress, run

__all__ = ["CaseError", "__version__", "Case", "load_case", "case_from_dict", "schema", "cases",
           "Ensemble", "Result", "read", "run", "Progress"]

# summary.json records what started a run (docs/outputs.md, "Provenance"): here, the script
_core.set_command_line(_shlex.join(["python"] + [a for a in _sys.argv if a]))
