#!/usr/bin/env python3
"""Hostile-input mutation campaign against the `granular` command line (issue 20).

Usage:
    /usr/bin/python3 tools/hostile_campaign.py GRANULAR_BINARY [--validate N] [--runs M]
        [--seed S] [--jobs J] [--keep DIR] [--report FILE] [--only v:K|r:K]
        [--memory-limit GIB]
    /usr/bin/python3 tools/hostile_campaign.py --fuzz-seeds DIR [--validate N] [--seed S]

Two stages, both built from the shipped cases in cases/:

  validate  N mutants (default 20000), the shipped cases in round-robin, each with 1-3 random
            mutations of its JSON (extreme or rescaled numbers, type swaps, deleted and unknown
            keys, emptied or repeated arrays, deep nesting, duplicate keys, hostile strings) or,
            for about 10 %, hostile `--set` arguments; each is given to `granular validate`.
            Fine: exit 0, and exit 2 with exactly one stderr line that starts with the file or
            `--set`. Findings: signals, exit 1, timeouts, other exit codes, malformed exit-2
            messages, files written.
  run       M short runs (default 300), the models in turn, of mutants whose numbers were set
            to extremes or rescaled, then shortened with the `--set` overrides of
            tests/cli/every_case_test.cpp. Findings: signals, exit 1, timeouts, exit 0 without
            summary.json, and non-finite values (NaN, Infinity, or null where a number is
            documented) in a run that reports "completed" or "ok" ("unflagged non-finite").
            A null counts as documented where the docs say the key may be null
            (NULLABLE_KEYS), or where a shortened run of the unmutated case writes one.

Every granular process runs under an address-space cap (--memory-limit, default 4 GiB), so
that a mutant asking for a billion disks meets a failed allocation instead of the machine's
OOM killer; what the program does then is part of what the campaign reports.

--fuzz-seeds DIR writes the validate stage's mutants, without running anything, as seeds of
the case-loader fuzz target (scripts/run_fuzz.sh): libFuzzer then mutates from hostile cases
of every model, not only from the shipped ones.

The campaign is deterministic for a seed: mutant K of a stage is built from its own
random.Random seeded by (seed, stage, K), so `--only v:K` (validate stage) or `--only r:K`
(run stage) rebuilds and reruns exactly that mutant. `--keep DIR` writes every failing mutant
to DIR as <stage><K>_<class>.json with a one-line reproducer <stage><K>_<class>.sh beside it.
The report (totals per class and per model, and every distinct failure with its count and one
reproducer) is printed and, with --report, written as Markdown.

Python 3 standard library only; runs with /usr/bin/python3.
"""

import argparse
import concurrent.futures
import decimal
import json
import math
import os
import random
import re
import resource
import shlex
import shutil
import signal
import subprocess
import sys
import tempfile
import threading
import time
from collections import Counter, defaultdict
from dataclasses import dataclass, field
from pathlib import Path

REPO = Path(__file__).resolve().parent.parent
CASES_DIR = REPO / "cases"

VALIDATE_TIMEOUT_S = 20
RUN_TIMEOUT_S = 60
# A run-stage mutant that needs more work than this (as `granular validate` prints it, times
# the scan's points) is replaced by another: the stage looks for wrong results, not for slow
# ones. About ten seconds each: a packing steps ~1e7 particles/s, a one-body MD model ~1.5e6
# steps/s on one thread.
MAX_PARTICLE_STEPS = 1e8
MAX_STEPS = 2e7
RUN_ATTEMPTS = 40  # mutants tried per run slot before the slot is given up

# Overrides that make a run of each model short (tests/cli/every_case_test.cpp).
SHORTENED = {
    "packing_ensemble": ["/drive/gamma=[1]", "/ensemble/packings_per_gamma=1",
                         "/run/settle_time=0.002", "/run/transient_time=0",
                         "/run/measure_time=0.004", "/run/sample_interval=0.002"],
    "collision": [],
    "pendulum": ["/run/t_end=0.3"],
    "prism": ["/run/t_end=0.3"],
    "billiard": ["/run/collisions=20"],
    "dimer": ["/run/t_end=0.04", "/run/average_from=0.02"],
    "wedge": ["/run/collisions=2000"],
    "three_disk": ["/run/settle_time=0.001", "/run/transient_time=0",
                   "/run/measure_time=0.002", "/run/sample_interval=0.001"],
    "wedge_md": ["/run/settle_time=0.0002", "/run/transient_time=0",
                 "/run/measure_time=0.0004", "/run/sample_interval=0.0002"],
}

EXTREMES = [0, -0.0, -1, 1e-320, 1e-300, 1e-100, 1e-30, 1e-11, 1e8, 1e15, 1e100, 1e300,
            1e308, -1e308, 2**31, 2**53 + 1, 2**63, -2**63, 2**64]

# Depths of the nesting mutation; the last two make files of megabytes and are drawn rarely.
SHALLOW_DEPTHS = [20, 100, 1000]
DEEP_DEPTHS = [100000, 300000]
DEEP_SHARE = 0.08  # of nesting mutations: about 1 % of all mutants
# One argv string may not exceed 128 KiB (MAX_ARG_STRLEN), which bounds a nested `--set`:
# the deepest is cut to what fits (60000 arrays, 18000 objects).
SET_DEPTHS = [20, 100, 1000, 60000]
MAX_ARG_CHARS = 126000

SET_SHARE = 0.10  # mutants that go through --set rather than through the file

# Summary keys that the docs say may be null in a finished run (docs/outputs.md and the
# model pages), per model: a null there is not a non-finite result.
NULLABLE_KEYS = {
    "*": {"reason", "detail"},  # every impact model (outputs.md, "How an impact run ends")
    "packing_ensemble": {"mean_sq_omega_stderr", "shard"},
    "packing_ensemble/ed": {"mean_sq_omega_stderr", "shard", "dt", "steps", "particle_steps",
                            "particle_steps_per_s"},
    # e_t when u_t = 0; the full-sliding threshold when k_t = 0 (no skin)
    "collision": {"e_t", "e_t_full_sliding", "full_sliding_threshold"},
    "wedge_md": {"scaled_rotation"},  # at Γ = 0 (wedge.md)
    "pendulum": {"zeno", "p_n_stick"},
    "prism": {"mean_kappa"},  # without impacts
    "billiard": {"fallback"},
}
FINISHED = {"completed", "ok"}

# Failure classes, most severe first; the report lists the distinct failures in this order.
SEVERITY = [
    "signal", "exit1", "unflagged_non_finite", "non_finite_literal", "bad_summary",
    "exit2_not_one_line", "exit2_unnamed", "run_refused_after_validate", "no_summary",
    "wrote_files", "unexpected_exit", "timeout", "exit2_control_chars",
]
FINE = {"accepted", "refused", "ran"}


# ----------------------------------------------------------------------------------------
# JSON text: a small writer, because some mutants are not what json.dumps can write
# (duplicate keys, numbers beyond a double, nesting deeper than Python's recursion limit).

class Raw:
    """JSON text written as it is: overflowing numbers, deep nesting, raw control bytes."""

    def __init__(self, text):
        self.text = text


class Pairs:
    """An object written entry by entry, so that a key can appear twice."""

    def __init__(self, items):
        self.items = items


def dump(node):
    """The JSON text of a (possibly mutated) case. Cases are shallow: recursion is safe."""
    if isinstance(node, Raw):
        return node.text
    if isinstance(node, (dict, Pairs)):
        items = node.items if isinstance(node, Pairs) else node.items()
        return "{" + ", ".join(json.dumps(k) + ": " + dump(v) for k, v in items) + "}"
    if isinstance(node, list):
        return "[" + ", ".join(dump(v) for v in node) + "]"
    if isinstance(node, float):
        return repr(node)  # shortest round trip: 1e-320, -0.0, 1e+308
    return json.dumps(node)  # str (control characters escaped), int, bool, None


def short(text, limit=60):
    """A value or message cut for a report line."""
    text = text if isinstance(text, str) else dump(text)
    text = re.sub(r"[\x00-\x1f\x7f\ud800-\udfff]", lambda c: escape_char(c.group()), text)
    return text if len(text) <= limit else text[:limit - 12] + f"…[{len(text)} chars]"


def pointer(path):
    """RFC 6901 pointer of a list of tokens."""
    return "".join("/" + str(t).replace("~", "~0").replace("/", "~1") for t in path)


def is_number(v):
    return isinstance(v, (int, float)) and not isinstance(v, bool)


def scaled_text(value, k):
    """value × 10**k as exact JSON text: may lie beyond a double (1.5E+400) on purpose."""
    d = decimal.Decimal(repr(value) if isinstance(value, float) else value)
    return str(d.scaleb(k))


def draw_exponent(rng):
    # Mostly moderate factors (which can pass validation), sometimes anything up to 10**±300.
    return rng.choice([rng.randint(-300, 300), rng.randint(-30, 30), rng.randint(-6, 6)])


def nested(text, depth, kind):
    """`text` wrapped `depth` times in arrays or in objects."""
    if kind == "array":
        return "[" * depth + text + "]" * depth
    return '{"k": ' * depth + text + "}" * depth


# ----------------------------------------------------------------------------------------
# Mutations of the parsed case. The document sits in a one-element list (the holder) so that
# the root can be replaced like any other value.

def nodes(holder):
    """(parent, key, path) for every value, root first; Raw and Pairs are leaves."""
    out, stack = [], [(holder, 0, [])]
    while stack:
        parent, key, path = stack.pop()
        out.append((parent, key, path))
        value = parent[key]
        if isinstance(value, dict):
            stack.extend((value, k, path + [k]) for k in reversed(list(value)))
        elif isinstance(value, list):
            stack.extend((value, i, path + [i]) for i in reversed(range(len(value))))
    return out


def pick(rng, holder, accept):
    """A random (parent, key, path) whose value passes `accept`, or None."""
    found = [n for n in nodes(holder) if accept(n[0][n[1]], n[2])]
    return rng.choice(found) if found else None


def hostile_value(rng, old=None):
    """A value of any kind for an added or duplicated key."""
    choices = [rng.choice(EXTREMES), Raw("1e+100"), Raw("1E+400"), "text", None, True, [], {}]
    if old is not None:
        choices += [[old], {"k": old}]
    return rng.choice(choices)


def mutate_extreme(rng, holder, exclude=()):
    hit = pick(rng, holder, lambda v, p: is_number(v) and pointer(p) not in exclude)
    if not hit:
        return None
    parent, key, path = hit
    parent[key] = rng.choice(EXTREMES)
    return f"{pointer(path)} := {dump(parent[key])}"


def mutate_scale(rng, holder, exclude=()):
    hit = pick(rng, holder, lambda v, p: is_number(v) and pointer(p) not in exclude)
    if not hit:
        return None
    parent, key, path = hit
    k = draw_exponent(rng)
    parent[key] = Raw(scaled_text(parent[key], k))
    return f"{pointer(path)} *= 1e{k} -> {parent[key].text}"


def mutate_type(rng, holder):
    hit = pick(rng, holder, lambda v, p: not isinstance(v, Raw))
    if not hit:
        return None
    parent, key, path = hit
    old = parent[key]
    parent[key] = rng.choice(["text", [], {}, None, True, [old], {"k": old}])
    return f"{pointer(path) or '(root)'} := {short(parent[key], 40)} (type swap)"


def mutate_delete(rng, holder):
    hit = pick(rng, holder, lambda v, p: p and isinstance(p[-1], str))
    if not hit:
        return None
    parent, key, path = hit
    del parent[key]
    return f"delete {pointer(path)}"


def hostile_key(rng):
    return rng.choice(["no_such_key", "", "x" * 1000, "a\nb", "tab\tkey", "\u0000",
                       "\u001b[31mred", "~0/~1", "model", "Γ", "é"])


def mutate_add_key(rng, holder):
    hit = pick(rng, holder, lambda v, p: isinstance(v, dict))
    if not hit:
        return None
    parent, key, path = hit
    name = hostile_key(rng)
    if name in parent[key]:
        name += "_extra"
    parent[key][name] = hostile_value(rng)
    return f"add {pointer(path + [name])} = {short(parent[key][name], 30)}"


def mutate_array(rng, holder):
    hit = pick(rng, holder, lambda v, p: isinstance(v, list))
    if not hit:
        return None
    parent, key, path = hit
    arr = parent[key]
    how = rng.choice(["empty", "one", "repeat"])
    if how == "empty":
        parent[key] = []
    elif how == "one":
        parent[key] = arr[:1]
    else:
        # bounded so that a long string inside cannot make a file of gigabytes
        n = min(rng.choice([2, 10, 100, 1000]), max(1, 4_000_000 // max(1, len(dump(arr)))))
        parent[key] = arr * n
        how = f"repeat x{n}"
    return f"{pointer(path)}: array {how}"


def mutate_nest(rng, holder):
    hit = pick(rng, holder, lambda v, p: True)
    parent, key, path = hit
    depths = DEEP_DEPTHS if rng.random() < DEEP_SHARE else SHALLOW_DEPTHS
    depth, kind = rng.choice(depths), rng.choice(["array", "object"])
    parent[key] = Raw(nested(dump(parent[key]), depth, kind))
    return f"{pointer(path) or '(root)'} nested {depth} deep in {kind}s"


def mutate_duplicate(rng, holder):
    hit = pick(rng, holder, lambda v, p: isinstance(v, dict) and v)
    if not hit:
        return None
    parent, key, path = hit
    obj = parent[key]
    name = rng.choice(list(obj))
    value = hostile_value(rng, obj[name])
    items = list(obj.items())
    after = rng.random() < 0.5  # which of the two entries a parser keeps is what is tested
    at = list(obj).index(name) + (1 if after else 0)
    items.insert(at, (name, value))
    parent[key] = Pairs(items)
    return (f"{pointer(path + [name])} twice, the {'second' if after else 'first'} "
            f"= {short(value, 30)}")


def mutate_string(rng, holder):
    hit = pick(rng, holder, lambda v, p: isinstance(v, str))
    if not hit:
        return None
    parent, key, path = hit
    how = rng.choice(["empty", "long", "escaped_control", "raw_control", "bad_utf8"])
    if how == "empty":
        parent[key] = ""
    elif how == "long":
        parent[key] = "x" * 100000
    elif how == "escaped_control":  # valid JSON: the string holds NUL, LF, ESC, DEL
        parent[key] = parent[key] + "\u0000\n\u001b[2J\u007f\r"
    elif how == "raw_control":  # invalid JSON: control bytes unescaped inside the quotes
        parent[key] = Raw('"' + parent[key][:20] + '\n\u0001\u001b[2J"')
    else:  # invalid UTF-8 (written through surrogateescape)
        parent[key] = Raw('"' + parent[key][:20] + '\udcff\udcfe"')
    return f"{pointer(path)}: string {how}"


FILE_MUTATIONS = [  # (name, weight, function)
    ("extreme", 20, mutate_extreme), ("scale", 12, mutate_scale), ("type_swap", 18, mutate_type),
    ("delete_key", 10, mutate_delete), ("unknown_key", 8, mutate_add_key),
    ("array", 8, mutate_array), ("nesting", 6, mutate_nest), ("duplicate_key", 6, mutate_duplicate),
    ("string", 8, mutate_string),
]


# ----------------------------------------------------------------------------------------
# Hostile --set arguments: a separate entry point, with its own parser of values and pointers.

def set_value_text(rng, old):
    """The text after '=' of a hostile --set."""
    choices = [dump(rng.choice(EXTREMES)), '"text"', "[]", "{}", "null", "true", "1e400",
               "-1e400", "1e-400", "NaN", "Infinity", "0x10", "[1,", "x" * 100000,
               "a\nb", "\u001b[31mred", "tab\there", "é"]
    if is_number(old):
        choices.append(scaled_text(old, draw_exponent(rng)))
    if old is not None:
        choices += ["[" + dump(old) + "]", '{"k": ' + dump(old) + "}"]
    return rng.choice(choices)


def set_argument(rng, doc):
    """One hostile --set argument and its description."""
    kind = rng.choices(["existing", "deep", "long_pointer", "malformed"], [60, 15, 10, 15])[0]
    holder = [doc]
    if kind == "existing":
        parent, key, path = pick(rng, holder, lambda v, p: bool(p))
        text = set_value_text(rng, parent[key])
        return f"{pointer(path)}={text}", f"--set {pointer(path)}={short(text, 40)}"
    if kind == "deep":
        depth, kind2 = rng.choice(SET_DEPTHS), rng.choice(["array", "object"])
        depth = min(depth, MAX_ARG_CHARS // len(nested("", 1, kind2)))
        target = rng.choice(["/description", "/run", "/drive/gamma", "/model", "/seed"])
        return (f"{target}={nested('1', depth, kind2)}",
                f"--set {target}=<1 nested {depth} deep in {kind2}s>")
    if kind == "long_pointer":
        n = rng.choice([1000, 5000, 30000])
        token = rng.choice(["/a", "/0", "/-", "/~0", "/~1"])
        head = rng.choice(["", "/run", "/description"])
        return f"{head}{token * n}=1", f"--set {head}{token}×{n}=1"
    bad = rng.choice(["garbage", "/a", "=1", "/run/t_end=", "run/t_end=1", "/~2=1",
                      "/run/t_end/~=1", "/=1", "//=1", "/run/t_end/99999999999999999999=1",
                      "/drive/gamma/-=1", "/model=", "=", "/\u0001=1"])
    return bad, f"--set {short(bad, 40)} (malformed)"


# ----------------------------------------------------------------------------------------
# Mutants

@dataclass
class Mutant:
    stage: str  # "v" (validate stage) or "r" (run stage)
    index: int
    case: Path
    model: str
    text: str = None  # the mutated file; None: the shipped file unchanged (--set mutants)
    sets: list = field(default_factory=list)  # --set arguments after the file
    ops: list = field(default_factory=list)  # mutation classes
    what: list = field(default_factory=list)  # one description per mutation


def load_cases():
    """The shipped cases, sorted, with their parsed JSON and model."""
    cases = []
    for path in sorted(CASES_DIR.glob("*.json")):
        doc = json.loads(path.read_text(encoding="utf-8"))
        model = doc["model"]
        if model == "packing_ensemble" and doc.get("method") == "ed":
            model = "packing_ensemble/ed"  # its own slot: the event-driven code is separate
        cases.append((path, doc, model))
    return cases


def base_model(model):
    return model.split("/")[0]


def validate_mutant(seed, k, cases):
    """Mutant k of the validate stage, from its own random stream."""
    rng = random.Random(f"{seed}/validate/{k}")
    path, doc, model = cases[k % len(cases)]
    doc = json.loads(json.dumps(doc))  # a private copy
    m = Mutant("v", k, path, model)
    if rng.random() < SET_SHARE:
        for _ in range(rng.randint(1, 3)):
            arg, what = set_argument(rng, doc)
            m.sets.append(arg)
            m.what.append(what)
            m.ops.append("set")
        return m
    holder = [doc]
    names, weights = [n for n, _, _ in FILE_MUTATIONS], [w for _, w, _ in FILE_MUTATIONS]
    funcs = {n: f for n, _, f in FILE_MUTATIONS}
    wanted = rng.randint(1, 3)
    while len(m.what) < wanted:
        name = rng.choices(names, weights)[0]
        what = funcs[name](rng, holder)
        if what:  # None: the case has no value of that kind; draw again
            m.ops.append(name)
            m.what.append(what)
    m.text = dump(holder[0])
    return m


def run_mutant(seed, r, attempt, slots, by_model):
    """Mutant r (try `attempt`) of the run stage: numbers only, so that most pass validation."""
    rng = random.Random(f"{seed}/run/{r}/{attempt}")
    model = slots[r % len(slots)]
    path, doc = rng.choice(by_model[model])
    doc = json.loads(json.dumps(doc))
    overridden = shortening(model)
    # a leaf below an overridden key would be replaced by the override anyway
    exclude = {p for p in pointers(doc)
               if any(p == o or p.startswith(o + "/") for o in overridden)}
    m = Mutant("r", r, path, model, sets=list(SHORTENED[base_model(model)]))
    holder = [doc]
    for _ in range(rng.randint(1, 3)):
        name = rng.choice(["extreme", "scale"])
        what = (mutate_extreme if name == "extreme" else mutate_scale)(rng, holder, exclude)
        if what:
            m.ops.append(name)
            m.what.append(what)
    m.text = dump(holder[0])
    return m


def shortening(model):
    return [s.split("=", 1)[0] for s in SHORTENED[base_model(model)]]


def pointers(doc):
    return [pointer(p) for _, _, p in nodes([doc])]


# ----------------------------------------------------------------------------------------
# Running the binary

@dataclass
class Outcome:
    mutant: Mutant
    cls: str  # "accepted", "refused", "ran", or a failure class (SEVERITY)
    detail: str = ""  # the message the failures are grouped by
    argv: list = None
    rc: int = None
    statuses: list = field(default_factory=list)  # run stage: the statuses reported
    note: str = ""


def signal_name(rc):
    try:
        return signal.Signals(-rc).name
    except ValueError:
        return f"signal {-rc}"


def execute(argv, cwd, timeout):
    """(returncode or None on timeout, stdout text, stderr text)."""
    try:
        p = subprocess.run(argv, cwd=cwd, capture_output=True, timeout=timeout)
    except subprocess.TimeoutExpired as e:  # subprocess.run has killed the child
        return None, (e.stdout or b"").decode("utf-8", "replace"), \
            (e.stderr or b"").decode("utf-8", "replace")
    return p.returncode, p.stdout.decode("utf-8", "replace"), p.stderr.decode("utf-8", "replace")


def mask(line, file_path):
    """A message with the mutant's path and its numbers masked, to group failures by."""
    line = line.replace(str(file_path), "CASE")
    line = re.sub(r"[-+]?\d+(\.\d*)?([eE][-+]?\d+)?", "N", line)
    return short(line, 160)


def write_mutant(m, directory):
    """The mutant's file in `directory`; the shipped file itself when only --set changes it."""
    if m.text is None:
        return m.case
    path = directory / f"{m.stage}{m.index:05d}_{m.case.stem}.json"
    path.write_bytes(m.text.encode("utf-8", "surrogateescape"))
    return path


def set_args(sets):
    return [a for s in sets for a in ("--set", s)]


def check_refusal(err, file_path):
    """The failure class of an exit-2 message, or None when it is one line naming the input."""
    if err.count("\n") != 1 or not err.endswith("\n") or "\r" in err:
        return "exit2_not_one_line"
    if not (err.startswith(str(file_path)) or err.startswith("--set")):
        return "exit2_unnamed"
    if re.search(r"[\x00-\x08\x0b-\x1f\x7f]", err):
        return "exit2_control_chars"
    return None


def classify_exit(rc, err, file_path):
    """(class, grouping detail) of a finished process, for the cases every stage shares."""
    lines = [l for l in err.splitlines() if l.strip()]
    first = lines[0] if lines else "(no stderr)"
    if rc is None:
        return "timeout", ""
    if rc < 0:
        return "signal", signal_name(rc)
    if rc == 1:
        return "exit1", mask(lines[-1] if lines else "(no stderr)", file_path)
    if rc == 2:
        bad = check_refusal(err, file_path)
        return (bad, mask(first, file_path)) if bad else ("refused", "")
    if rc == 0:
        return "accepted", ""
    return "unexpected_exit", f"exit {rc}: {mask(first, file_path)}"


def validate_one(binary, m, workroot):
    """`granular validate` of one mutant in a scratch folder, which must stay empty."""
    work = Path(tempfile.mkdtemp(dir=workroot))
    try:
        file_path = write_mutant(m, work)
        cwd = work / "cwd"
        cwd.mkdir()
        argv = [str(binary), "validate", str(file_path)] + set_args(m.sets)
        rc, _, err = execute(argv, cwd, VALIDATE_TIMEOUT_S)
        cls, detail = classify_exit(rc, err, file_path)
        # validate writes nothing: not in its working folder, not beside the case
        written = [p.name for p in cwd.iterdir()] + \
            [p.name for p in work.iterdir() if p not in (file_path, cwd)]
        if cls in FINE and written:
            cls, detail = "wrote_files", "validate wrote " + ", ".join(sorted(written))
        return Outcome(m, cls, detail, argv, rc)
    finally:
        shutil.rmtree(work, ignore_errors=True)


# ----------------------------------------------------------------------------------------
# Reading a run's summary.json

class NonFinite(float):
    """A NaN or Infinity token found in summary.json (the docs promise null instead)."""


def parse_summary(path):
    return json.loads(path.read_text(encoding="utf-8"),
                      parse_constant=lambda token: NonFinite("nan"))


def has_literal(doc):
    """Whether a parsed summary held a NaN or Infinity token (not the word inside a string)."""
    stack = [doc]
    while stack:
        v = stack.pop()
        if isinstance(v, NonFinite):
            return True
        if isinstance(v, dict):
            stack.extend(v.values())
        elif isinstance(v, list):
            stack.extend(v)
    return False


def bad_values(value, path, model, allowed_nulls):
    """Paths of non-finite values: NaN/Infinity, and nulls the docs and baseline do not allow."""
    nullable = NULLABLE_KEYS["*"] | NULLABLE_KEYS.get(model, set())
    out = []
    stack = [(value, path)]
    while stack:
        v, p = stack.pop()
        if isinstance(v, dict):
            stack.extend((x, p + [k]) for k, x in v.items() if not (not p and k == "case"))
        elif isinstance(v, list):
            stack.extend((x, p + ["*"]) for x in v)
        elif isinstance(v, float) and not math.isfinite(v):
            out.append("/".join(map(str, p)) + "=NaN/Inf")
        elif v is None:
            keys = [t for t in p if t != "*"]
            where = "/".join(map(str, p))
            if not (keys and keys[-1] in nullable) and where not in allowed_nulls:
                out.append(where + "=null")
    return sorted(out)


def null_paths(value, path=()):
    """Every null of a summary (to learn which nulls an unmutated run writes)."""
    out = set()
    stack = [(value, list(path))]
    while stack:
        v, p = stack.pop()
        if isinstance(v, dict):
            stack.extend((x, p + [k]) for k, x in v.items() if not (not p and k == "case"))
        elif isinstance(v, list):
            stack.extend((x, p + ["*"]) for x in v)
        elif v is None:
            out.add("/".join(map(str, p)))
    return out


def results_of(out_dir, summary, model):
    """The per-run results of an output folder: the summary, each scan point's, or a sweep's."""
    if isinstance(summary.get("scan"), dict):
        runs = []
        for k in range(int(summary["scan"].get("points", 0))):
            point = out_dir / f"point_{k}" / "summary.json"
            runs.append(parse_summary(point) if point.exists() else None)
        return runs
    if model == "dimer" and isinstance(summary.get("sweep"), list):
        return summary["sweep"]
    return [summary]


def finished_parts(run, model):
    """(status list, [(label, part)] of the parts reported as finished) of one run."""
    if model == "packing_ensemble":
        packings = run.get("packings") or []
        statuses = [str(p.get("status")) for p in packings]
        parts = [(f"packings/{i}", p) for i, p in enumerate(packings) if p.get("status") == "ok"]
        if parts:  # the per-Γ means are over the healthy packings
            parts.append(("", {k: v for k, v in run.items() if k not in ("packings", "case")}))
        return statuses, parts
    status = str(run.get("status"))
    return [status], ([("", run)] if status in FINISHED else [])


def inspect_output(out_dir, model, allowed_nulls):
    """(statuses, [(class, detail)]) of a finished run's output folder."""
    summary_path = out_dir / "summary.json"
    if not summary_path.exists():
        return [], [("no_summary", "exit 0 without summary.json")]
    try:
        summary = parse_summary(summary_path)
        runs = results_of(out_dir, summary, base_model(model))
    except (ValueError, OSError) as e:
        return [], [("bad_summary", f"unreadable summary.json: {short(str(e), 80)}")]
    problems = []
    if any(has_literal(run) for run in [summary] + runs if run is not None):
        problems.append(("non_finite_literal", "NaN/Infinity token in summary.json"))
    statuses = []
    for k, run in enumerate(runs):
        if run is None:
            problems.append(("no_summary", f"scan point_{k} without summary.json"))
            continue
        st, parts = finished_parts(run, base_model(model))
        statuses += st
        for label, part in parts:
            bad = bad_values(part, [], model, allowed_nulls)
            if bad:
                shown = ", ".join(("" if not label else label + "/") + b for b in bad[:3])
                problems.append(("unflagged_non_finite",
                                 f"status {st[0] if len(st) == 1 else 'ok'}: {shown}"))
    return statuses, problems


def learned_nulls(out_dir, model):
    """The nulls an unmutated shortened run of the case writes: its finished runs may have them."""
    try:
        summary = parse_summary(out_dir / "summary.json")
        out = set()
        for run in results_of(out_dir, summary, base_model(model)):
            if run is not None:
                for _, part in finished_parts(run, base_model(model))[1]:
                    out |= null_paths(part)
        return out
    except (ValueError, OSError):
        return set()


def too_heavy(validate_stdout):
    """Whether the work `granular validate` printed is beyond the run stage's bounds."""
    points = re.search(r"^scan: (\d+) points", validate_stdout, re.M)
    times = int(points.group(1)) if points else 1  # it prints the first point's work only
    particle_steps = re.findall(r"=\s*([0-9.e+-]+) particle-steps", validate_stdout)
    steps = re.findall(r"\(([0-9.e+-]+) steps\)", validate_stdout)
    return (any(float(x) * times > MAX_PARTICLE_STEPS for x in particle_steps)
            or any(float(x) * times > MAX_STEPS for x in steps))


def run_one(binary, m, workroot, allowed_nulls):
    """Precheck with `granular validate`, then a short `granular run` of one mutant.

    Returns (outcome, why it was skipped): outcome None when the mutant was refused or too
    heavy, so the slot draws another; a failing precheck is an outcome of its own.
    """
    work = Path(tempfile.mkdtemp(dir=workroot))
    try:
        file_path = write_mutant(m, work)
        pre = [str(binary), "validate", str(file_path)] + set_args(m.sets)
        rc, out, err = execute(pre, work, VALIDATE_TIMEOUT_S)
        cls, detail = classify_exit(rc, err, file_path)
        if cls == "refused":
            return None, "refused"
        if cls != "accepted":
            return Outcome(m, cls, detail, pre, rc, note="in the validate precheck"), "precheck"
        if too_heavy(out):
            return None, "too_heavy"
        out_dir = work / "out"
        argv = [str(binary), "run", str(file_path), "--out", str(out_dir), "--threads", "1"] \
            + set_args(m.sets)
        rc, _, err = execute(argv, work, RUN_TIMEOUT_S)
        cls, detail = classify_exit(rc, err, file_path)
        if cls == "refused" or (rc == 2 and cls.startswith("exit2")):
            detail = mask(err.splitlines()[0] if err.strip() else "", file_path)
            cls = "run_refused_after_validate"
        if cls != "accepted":
            return Outcome(m, cls, detail, argv, rc), "ran"
        statuses, problems = inspect_output(out_dir, m.model, allowed_nulls)
        if problems:
            problems.sort(key=lambda p: SEVERITY.index(p[0]))
            return Outcome(m, problems[0][0], problems[0][1], argv, rc, statuses), "ran"
        return Outcome(m, "ran", "", argv, rc, statuses), "ran"
    finally:
        shutil.rmtree(work, ignore_errors=True)


def baseline_one(binary, path, model, workroot):
    """Shortened run of an unmutated shipped case: the nulls its finished runs may write."""
    work = Path(tempfile.mkdtemp(dir=workroot))
    try:
        argv = [str(binary), "run", str(path), "--out", str(work / "out"), "--threads", "1"] \
            + set_args(SHORTENED[base_model(model)])
        rc, _, _ = execute(argv, work, RUN_TIMEOUT_S)
        return learned_nulls(work / "out", model) if rc == 0 else set()
    finally:
        shutil.rmtree(work, ignore_errors=True)


def run_slot(binary, seed, r, slots, by_model, workroot, baselines, counters, lock):
    """The r-th short run: draws mutants until one passes the precheck and is light enough."""
    findings = []
    for attempt in range(RUN_ATTEMPTS):
        m = run_mutant(seed, r, attempt, slots, by_model)
        outcome, why = run_one(binary, m, workroot, baselines.get(m.case, set()))
        with lock:
            counters[why] += 1
        if why == "precheck":
            findings.append(outcome)
            continue
        if outcome is not None:
            return findings + [outcome]
    with lock:
        counters["slot_given_up"] += 1
    return findings


# ----------------------------------------------------------------------------------------
# Reproducers and the report

def escape_char(c):
    return f"\\x{ord(c):02x}" if ord(c) < 0x100 else f"\\u{ord(c):04x}"


def shell_quote(arg):
    """shlex.quote, but control characters as bash $'\\n' escapes: the command stays one line."""
    if not re.search(r"[\x00-\x1f\x7f]", arg):
        return shlex.quote(arg)
    body = "".join(c if c.isprintable() and c not in "'\\" else
                   {"'": "\\'", "\\": "\\\\"}.get(c, escape_char(c)) for c in arg)
    return f"$'{body}'"


def command_line(argv):
    return " ".join(shell_quote(a) for a in argv)


def reproducer(o, args):
    """A one-line command that reruns the finding."""
    kept = o.__dict__.get("kept")
    if kept:
        return f"bash {shlex.quote(str(kept))}"
    cmd = command_line(o.argv)
    if len(cmd) <= 400 and o.mutant.text is None:  # the shipped file: the command is enough
        return cmd
    return (f"/usr/bin/python3 tools/hostile_campaign.py {shlex.quote(str(args.binary))} "
            f"--seed {args.seed} --only {o.mutant.stage}:{o.mutant.index}")


def keep(o, directory):
    """The failing mutant and a one-line reproducer beside it, in `directory`."""
    directory.mkdir(parents=True, exist_ok=True)
    stem = f"{o.mutant.stage}{o.mutant.index:05d}_{o.cls}"
    argv = list(o.argv)
    if o.mutant.text is not None:
        kept_file = directory / f"{stem}.json"
        kept_file.write_bytes(o.mutant.text.encode("utf-8", "surrogateescape"))
        argv[2] = str(kept_file)
    if "--out" in argv:  # a fresh output folder for the rerun
        argv[argv.index("--out") + 1] = f"/tmp/hostile_out_{stem}"
    sh = directory / f"{stem}.sh"
    sh.write_text(f"# {o.mutant.case.name}: {'; '.join(o.mutant.what)}\n"
                  f"{command_line(argv)}\n", encoding="utf-8", errors="surrogateescape")
    o.kept = sh


def finish(o, args):
    """In the worker: keep a failing mutant; drop the bulk (texts, long arguments) of a fine one,
    since thousands of outcomes stay in memory until the report."""
    if o.cls not in FINE:
        if args.keep:
            keep(o, args.keep)
    else:
        o.argv = None
        o.mutant.text = "" if o.mutant.text is not None else None
        o.mutant.sets, o.mutant.what = [], []
    return o


def group_key(o):
    if o.cls == "signal":
        return (o.cls, o.detail, base_model(o.mutant.model))
    if o.cls == "timeout":
        stage = {"v": "validate", "r": "run"}[o.mutant.stage] + (" precheck" if o.note else "")
        return (o.cls, f"{stage}, {o.mutant.model}", "")
    return (o.cls, o.detail, "")


class Report:
    """Markdown lines."""

    def __init__(self):
        self.lines = []

    def add(self, line=""):
        self.lines.append(line)

    def table(self, header, rows):
        self.add("| " + " | ".join(header) + " |")
        self.add("|" + "---|" * len(header))
        for row in rows:
            self.add("| " + " | ".join(str(c) for c in row) + " |")
        self.add()

    def text(self):
        return "\n".join(self.lines) + "\n"


def per_class_rows(outcomes):
    counts = Counter(o.cls for o in outcomes)
    order = ["accepted", "refused", "ran"] + SEVERITY
    return [(c, counts[c]) for c in order if counts[c]]


def per_model_rows(outcomes, stage):
    by = defaultdict(list)
    for o in outcomes:
        by[o.mutant.model].append(o)
    rows = []
    for model in sorted(by):
        os_ = by[model]
        fails = Counter(o.cls for o in os_ if o.cls not in FINE)
        if stage == "v":
            fine = Counter(o.cls for o in os_)
            rows.append((model, len(os_), fine["accepted"], fine["refused"],
                         ", ".join(f"{c} {n}" for c, n in sorted(fails.items())) or "0"))
        else:
            statuses = Counter(s for o in os_ for s in o.statuses)
            rows.append((model, len(os_),
                         ", ".join(f"{s} {n}" for s, n in statuses.most_common()) or "-",
                         ", ".join(f"{c} {n}" for c, n in sorted(fails.items())) or "0"))
    return rows


def count(outcomes, cls):
    return sum(o.cls == cls for o in outcomes)


def report_header(rep, args, v_outcomes, r_outcomes, elapsed):
    rep.add("# Hostile-input campaign (issue 20)")
    rep.add()
    rep.add(f"- binary: `{args.binary}`")
    rep.add(f"- command: `/usr/bin/python3 tools/hostile_campaign.py {args.binary} "
            f"--validate {args.validate} --runs {args.runs} --seed {args.seed} --jobs {args.jobs}`")
    rep.add(f"- address space of each granular process: "
            f"{f'{args.memory_limit:g} GiB' if args.memory_limit > 0 else 'not capped'}")
    rep.add(f"- wall time: {elapsed / 60:.1f} min")
    rep.add()
    runs = [o for o in r_outcomes if not o.note]  # not the failures of a validate precheck
    rep.add("## Verdict")
    rep.add()
    rep.add(f"- validate: {len(v_outcomes)} mutants, {count(v_outcomes, 'signal')} signals, "
            f"{count(v_outcomes, 'exit1')} exit 1, "
            f"{sum(o.cls not in FINE for o in v_outcomes)} findings in all")
    rep.add(f"- run: {len(runs)} short runs, {count(r_outcomes, 'signal')} signals, "
            f"{count(r_outcomes, 'exit1')} exit 1, "
            f"{count(r_outcomes, 'unflagged_non_finite')} unflagged non-finite, "
            f"{sum(o.cls not in FINE for o in r_outcomes)} findings in all")
    rep.add()


def report_validate(rep, v_outcomes, dup_accepted):
    rep.add("## Validate stage")
    rep.add()
    n_set = sum(1 for o in v_outcomes if o.mutant.text is None)
    rep.add(f"{len(v_outcomes)} mutants ({len(v_outcomes) - n_set} mutated files, {n_set} "
            f"through --set) of {len({o.mutant.case for o in v_outcomes})} shipped cases.")
    rep.add()
    rep.table(["class", "count"], per_class_rows(v_outcomes))
    rep.table(["model", "mutants", "exit 0", "exit 2 (one line)", "findings"],
              per_model_rows(v_outcomes, "v"))
    ops = defaultdict(Counter)
    for o in v_outcomes:
        for op in set(o.mutant.ops):
            ops[op][o.cls if o.cls in FINE else "finding"] += 1
    rep.table(["mutation", "mutants with it", "exit 0", "exit 2", "findings"],
              [(op, sum(c.values()), c["accepted"], c["refused"], c["finding"])
               for op, c in sorted(ops.items())])
    if dup_accepted:
        rep.add(f"Note: {dup_accepted} mutants whose only mutations were duplicate keys exited "
                "0: a duplicate key is taken silently, its last entry winning (not a finding "
                "under the contract, which says nothing of duplicates).")
        rep.add()


def report_runs(rep, r_outcomes, counters):
    rep.add("## Run stage")
    rep.add()
    rep.add(f"{sum(not o.note for o in r_outcomes)} short runs (`--threads 1`, shortened as in "
            f"tests/cli/every_case_test.cpp) of mutants with extreme or rescaled numbers. "
            f"Drawn and replaced: {counters['refused']} mutants refused by validate, "
            f"{counters['too_heavy']} that needed more than {MAX_PARTICLE_STEPS:.0e} "
            f"particle-steps or {MAX_STEPS:.0e} steps, {counters['precheck']} whose validate "
            f"precheck failed (listed below); {counters['slot_given_up']} slots found no "
            f"runnable mutant.")
    rep.add()
    rep.table(["class", "count"], per_class_rows(r_outcomes))
    rep.table(["model", "runs", "statuses reported", "findings"], per_model_rows(r_outcomes, "r"))


def report_failures(rep, args, failures):
    rep.add("## Distinct failures, most severe first")
    rep.add()
    groups = defaultdict(list)
    for o in failures:
        groups[group_key(o)].append(o)
    if not groups:
        rep.add("None.")
    ordered = sorted(groups.items(), key=lambda kv: (SEVERITY.index(kv[0][0]), -len(kv[1])))
    for n, (key, os_) in enumerate(ordered, 1):
        o = os_[0]
        models = Counter(x.mutant.model for x in os_)
        stages = Counter({"v": "validate", "r": "run"}[x.mutant.stage] for x in os_)
        rep.add(f"### {n}. {key[0]}: {', '.join(k for k in key[1:] if k)}")
        rep.add()
        rep.add(f"- count: {len(os_)} ({', '.join(f'{s} {c}' for s, c in stages.items())}); "
                f"models: {', '.join(f'{m} {c}' for m, c in models.most_common())}")
        rep.add(f"- example: {o.mutant.stage}:{o.mutant.index} `{o.mutant.case.name}`"
                f"{' (' + o.note + ')' if o.note else ''}: {'; '.join(o.mutant.what)}")
        rep.add(f"- reproduce: `{short(reproducer(o, args), 400)}`")
        rep.add()


def build_report(args, v_outcomes, r_outcomes, counters, elapsed, dup_accepted):
    rep = Report()
    report_header(rep, args, v_outcomes, r_outcomes, elapsed)
    report_validate(rep, v_outcomes, dup_accepted)
    report_runs(rep, r_outcomes, counters)
    report_failures(rep, args, [o for o in v_outcomes + r_outcomes if o.cls not in FINE])
    return rep.text()


# ----------------------------------------------------------------------------------------
# Driver

def parse_args(argv):
    p = argparse.ArgumentParser(description=__doc__.split("\n\n")[0],
                                formatter_class=argparse.RawDescriptionHelpFormatter)
    p.add_argument("binary", type=Path, nargs="?", help="the granular executable")
    p.add_argument("--validate", type=int, default=20000, metavar="N",
                   help="mutants given to `granular validate` (default 20000)")
    p.add_argument("--runs", type=int, default=300, metavar="M",
                   help="short runs of mutants (default 300)")
    p.add_argument("--seed", type=int, default=1, metavar="S")
    p.add_argument("--jobs", type=int, default=2, metavar="J", help="processes at a time")
    p.add_argument("--keep", type=Path, metavar="DIR", help="write failing mutants here")
    p.add_argument("--report", type=Path, metavar="FILE", help="write the Markdown report here")
    p.add_argument("--only", metavar="v:K|r:K", help="rebuild and rerun one mutant only")
    p.add_argument("--memory-limit", type=float, default=4, metavar="GIB",
                   help="address space of each granular process (default 4 GiB; 0: none)")
    p.add_argument("--fuzz-seeds", type=Path, metavar="DIR",
                   help="write the N validate-stage mutants as seeds of the case-loader fuzz "
                        "target (tests/fuzz/case_loader_fuzz.cpp: the file, then each --set "
                        "after a NUL byte) into DIR and run nothing")
    args = p.parse_args(argv)
    if args.fuzz_seeds:
        return args
    if args.binary is None:
        p.error("the granular executable is required (or --fuzz-seeds)")
    args.binary = args.binary.resolve()
    if not os.access(args.binary, os.X_OK):
        p.error(f"{args.binary}: not an executable")
    return args


def write_fuzz_seeds(args, cases):
    """The validate stage's mutants in the fuzz target's input format; larger ones than the
    fuzzer's -max_len (100 000 bytes) are left out."""
    args.fuzz_seeds.mkdir(parents=True, exist_ok=True)
    written = 0
    for k in range(args.validate):
        m = validate_mutant(args.seed, k, cases)
        text = m.text if m.text is not None else m.case.read_text(encoding="utf-8")
        data = "\0".join([text] + m.sets).encode("utf-8", "surrogateescape")
        if len(data) > 100000:
            continue
        (args.fuzz_seeds / f"mutant_{k:06d}").write_bytes(data)
        written += 1
    print(f"{written} fuzz seeds in {args.fuzz_seeds}")
    return 0


def limit_memory(gib):
    """Cap the address space of this process, which its children inherit (setting it here, not
    in preexec_fn, is safe with threads): a mutant that asks for a billion disks then meets a
    failed allocation, as on a smaller machine, instead of the machine's OOM killer."""
    if gib > 0:
        _, hard = resource.getrlimit(resource.RLIMIT_AS)
        want = int(gib * 2**30)
        resource.setrlimit(resource.RLIMIT_AS, (want if hard < 0 else min(want, hard), hard))


def progress(label, done, total, started, failures):
    rate = done / max(1e-9, time.time() - started)
    print(f"\r{label}: {done}/{total}, {failures} findings, {rate:.1f}/s", end="",
          file=sys.stderr, flush=True)


def only(args, cases, slots, by_model, workroot):
    """--only v:K or r:K: rebuild one mutant, rerun it, print what happened."""
    stage, k = args.only.split(":")
    k = int(k)
    if stage == "v":
        outcomes = [validate_one(args.binary, validate_mutant(args.seed, k, cases), workroot)]
    else:  # the nulls of the slot's unmutated cases, as in the campaign
        model = slots[k % len(slots)]
        baselines = {path: baseline_one(args.binary, path, model, workroot)
                     for path, _ in by_model[model]}
        outcomes = run_slot(args.binary, args.seed, k, slots, by_model, workroot, baselines,
                            Counter(), threading.Lock())
    for o in outcomes:
        if args.keep and o.cls not in FINE:
            keep(o, args.keep)
        print(f"{o.mutant.case.name}: {'; '.join(o.mutant.what)}")
        print(f"command: {short(command_line(o.argv), 300)}")
        print(f"class: {o.cls} {o.detail} {o.note}".rstrip())
    return 1 if any(o.cls not in FINE for o in outcomes) else 0


def main(argv=None):
    args = parse_args(argv)
    cases = load_cases()
    if args.fuzz_seeds:
        return write_fuzz_seeds(args, cases)
    limit_memory(args.memory_limit)
    by_model = defaultdict(list)
    for path, doc, model in cases:
        by_model[model].append((path, doc))
    slots = sorted(by_model)
    workroot = Path(tempfile.mkdtemp(prefix="hostile_campaign_"))
    try:
        if args.only:
            return only(args, cases, slots, by_model, workroot)
        return campaign(args, cases, slots, by_model, workroot)
    finally:
        shutil.rmtree(workroot, ignore_errors=True)


def campaign(args, cases, slots, by_model, workroot):
    started = time.time()
    v_outcomes, r_outcomes = [], []
    with concurrent.futures.ThreadPoolExecutor(args.jobs) as pool:
        # validate stage; the mutants are built in the workers (the deep ones take a while)
        def build_and_validate(k):
            m = validate_mutant(args.seed, k, cases)
            return finish(validate_one(args.binary, m, workroot), args)

        for o in pool.map(build_and_validate, range(args.validate)):
            v_outcomes.append(o)
            if len(v_outcomes) % 100 == 0 or len(v_outcomes) == args.validate:
                progress("validate", len(v_outcomes), args.validate, started,
                         sum(x.cls not in FINE for x in v_outcomes))
        print(file=sys.stderr)
        # run stage: first the nulls that unmutated runs write, then the mutants
        t_run = time.time()
        baselines = dict(zip([c[0] for c in cases], pool.map(
            lambda c: baseline_one(args.binary, c[0], c[2], workroot), cases))) \
            if args.runs else {}
        counters, lock = Counter(), threading.Lock()
        def slot(r):
            outcomes = run_slot(args.binary, args.seed, r, slots, by_model, workroot,
                                baselines, counters, lock)
            return [finish(o, args) for o in outcomes]

        for r, outcomes in enumerate(pool.map(slot, range(args.runs)), 1):
            r_outcomes.extend(outcomes)
            progress("run", r, args.runs, t_run, sum(x.cls not in FINE for x in r_outcomes))
        print(file=sys.stderr)
    dup_accepted = sum(1 for o in v_outcomes
                       if set(o.mutant.ops) == {"duplicate_key"} and o.cls == "accepted")
    text = build_report(args, v_outcomes, r_outcomes, counters, time.time() - started,
                        dup_accepted)
    print(text)
    if args.report:
        args.report.write_text(text, encoding="utf-8")
    failures = [o for o in v_outcomes + r_outcomes if o.cls not in FINE]
    return 1 if failures else 0


if __name__ == "__main__":
    sys.exit(main())
