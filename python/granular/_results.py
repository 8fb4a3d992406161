"""Results: a run's output folder (docs/outputs.md) as a dict and numpy arrays."""
from __future__ import annotations

import csv
import json
import math
import os
import re
import warnings
from typing import Any, Dict, List, Optional, Union

import numpy as np

_INTEGER = re.compile(r"^[+-]?[0-9]+$")


def _column(texts):
    """One CSV column as an array: int64 when every field is an integer, float64 when every
    field is a number ("nan" included; granular writes doubles at round-trip precision, so the
    floats are the engine's bits), else str."""
    if all(_INTEGER.match(t) for t in texts):
        return np.array([int(t) for t in texts], dtype=np.int64)
    try:
        return np.array([float(t) for t in texts], dtype=np.float64)
    except ValueError:
        return np.array(texts, dtype=str)


def read_table(path: Union[str, "os.PathLike[str]"],
               units: Optional[Dict[str, str]] = None) -> Dict[str, np.ndarray]:
    """A CSV file of granular's as {column name: numpy array} (columns in file order).

    ``units`` ({column: unit}, as summary.json's "tables" records them) gives the types: a
    column with a unit is float64, one without ("": counts, indices, words) int64, read by
    numpy's own parser (as fast as ``numpy.loadtxt``, and as exact: the engine's bits). A
    column of words, or a table without units, is read field by field instead: int64 when every
    field is an integer, float64 when every field is a number, else str."""
    with open(path, newline="") as f:
        header = next(csv.reader([f.readline()]), [])
        if units is not None and header and all(name in units for name in header):
            types = [(name, "i8" if units[name] == "" else "f8") for name in header]
            body_start = f.tell()
            try:
                with warnings.catch_warnings():
                    warnings.simplefilter("ignore", UserWarning)  # a table without rows
                    rows = np.loadtxt(f, delimiter=",", dtype=types, ndmin=1, comments=None)
                return {name: np.ascontiguousarray(rows[name]) for name in header}
            except ValueError:  # words in a column without a unit
                f.seek(body_start)
        body = list(csv.reader(f))
    if not header:
        return {}
    return {name: _column([r[k] for r in body]) for k, name in enumerate(header)}


def _floats(values):
    """A JSON list of numbers (null for a non-finite number) as float64."""
    return np.array([math.nan if v is None else v for v in values], dtype=np.float64)


class Result:
    """The outputs of one run.

    Attributes:
      out      the output folder (None when the run wrote into a temporary one)
      summary  summary.json as a dict
      model    the case's model
      tables   {CSV file stem: {column: numpy array}} for every CSV of the folder
      points   a scan's points, one Result per point_<k>/ folder, in order (else [])
      report   the table the CLI prints at the end of a run ("" for a result read back)
      units    {CSV file stem: {column: unit}} as summary.json records them ("" for a count,
               an index or a dimensionless number; {} for a run written before it did)
    """

    out: Optional[str]
    summary: Dict[str, Any]
    model: Optional[str]
    tables: Dict[str, Dict[str, np.ndarray]]
    points: List["Result"]
    report: str
    units: Dict[str, Dict[str, str]]

    def __init__(self, out: Optional[str], summary: Dict[str, Any],
                 tables: Dict[str, Dict[str, np.ndarray]], points: List["Result"],
                 report: str = ""):
        self.out = out
        self.summary = summary
        self.model = summary.get("model")
        self.tables = tables
        self.points = points
        self.report = report
        self.units = {name.rsplit(".", 1)[0]: {c["name"]: c["unit"] for c in columns}
                      for name, columns in summary.get("tables", {}).items()}

    # packing ensembles (docs/outputs.md, "packing_ensemble")
    @property
    def disks(self) -> Optional[Dict[str, np.ndarray]]:
        """Per disk of every packing (disks.csv): packing, gamma, disk, radius [m],
        omega_bar [rad/s], rho2 [-], sigma_a [-]."""
        return self.tables.get("disks")

    @property
    def gammas(self) -> Optional[Dict[str, np.ndarray]]:
        """Per Γ (summary.json): gamma, mean_sq_omega [rad²/s²], mean_sq_omega_stderr
        [rad²/s²] (nan below two healthy packings), mean_sq_omega_rpm2 [RPM²], mean_rho2,
        mean_sigma_a."""
        s = self.summary
        if "gamma_values" not in s:
            return None
        keys = ["mean_sq_omega", "mean_sq_omega_stderr", "mean_sq_omega_rpm2", "mean_rho2",
                "mean_sigma_a"]
        out = {"gamma": _floats(s["gamma_values"])}
        out.update({k: _floats(s[k]) for k in keys if k in s})
        return out

    @property
    def energy(self) -> Optional[Dict[str, np.ndarray]]:
        """energy.csv: the energy budget of every packing after every chunk."""
        return self.tables.get("energy")

    @property
    def angles(self) -> Optional[Dict[str, np.ndarray]]:
        """angles.csv: θ of every disk of the first packing of every Γ at every sample."""
        return self.tables.get("angles")

    # host impact models
    @property
    def impacts(self) -> Optional[Dict[str, np.ndarray]]:
        """The impact list of a host model as {column: array}: impacts.csv (prism, dimer),
        collisions.csv (billiard), or the pendulum's summary list "impacts" (its numbers and
        words; nested objects left out). None for a model without one."""
        for name in ("impacts", "collisions"):
            if name in self.tables:
                return self.tables[name]
        listed = self.summary.get("impacts")
        if isinstance(listed, list) and all(isinstance(i, dict) for i in listed):
            return _columns_of(listed)
        return None

    def __eq__(self, other: object) -> bool:
        if not isinstance(other, Result):
            return NotImplemented
        return (self.summary == other.summary and self.points == other.points
                and _same_tables(self.tables, other.tables))

    def __repr__(self):
        return (f"<granular.Result {self.model}: tables {sorted(self.tables)}"
                + (f", {len(self.points)} points" if self.points else "") + ">")


def _columns_of(records):
    """A list of JSON objects as {key: array} over the keys whose values are numbers (null as
    nan), booleans or strings in every record."""
    if not records:
        return {}
    out = {}
    for key in records[0]:
        values = [r.get(key) for r in records]
        if all(isinstance(v, bool) for v in values):
            out[key] = np.array(values, dtype=bool)
        elif all(v is None or (isinstance(v, (int, float)) and not isinstance(v, bool))
                 for v in values):
            out[key] = _floats(values)
        elif all(isinstance(v, str) for v in values):
            out[key] = np.array(values, dtype=str)
    return out


def _same_tables(a, b):
    if a.keys() != b.keys():
        return False
    for name in a:
        if a[name].keys() != b[name].keys():
            return False
        for column in a[name]:
            x, y = a[name][column], b[name][column]
            if x.dtype != y.dtype or x.shape != y.shape:
                return False
            if x.dtype.kind == "f":
                # bitwise, so that nan equals nan
                if x.tobytes() != y.tobytes():
                    return False
            elif not np.array_equal(x, y):
                return False
    return True


def _point_number(name):
    m = re.fullmatch(r"point_([0-9]+)", name)
    return int(m.group(1)) if m else None


def read(out_dir: Union[str, "os.PathLike[str]"], report: str = "") -> Result:
    """The Result of the finished run in out_dir (its summary.json, CSVs and scan points)."""
    out_dir = os.fspath(out_dir)
    summary_path = os.path.join(out_dir, "summary.json")
    if not os.path.isfile(summary_path):
        raise FileNotFoundError(f"{out_dir}: no summary.json: not the folder of a finished run")
    with open(summary_path) as f:
        summary = json.load(f)
    tables, points = {}, []
    for name in sorted(os.listdir(out_dir)):
        path = os.path.join(out_dir, name)
        if name.endswith(".csv") and os.path.isfile(path):
            columns = summary.get("tables", {}).get(name)
            units = {c["name"]: c["unit"] for c in columns} if columns else None
            tables[name[:-4]] = read_table(path, units)
        elif _point_number(name) is not None and os.path.isdir(path):
            points.append((_point_number(name), path))
    points = [read(path) for _, path in sorted(points)]
    return Result(out_dir, summary, tables, points, report)
