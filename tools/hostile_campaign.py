#!/usr/bin/env python3
"""Hostile-input mutation campaign against the `granular` command line (issue 20).

Usage:
    /usr/bin/python3 tools/hostile_campaign.py GRANULAR_BINARY [--validate N] [--runs M]
        [--registries N [--registry-runs M]] [--summaries N] [--checkpoints N]
        [--seed S] [--jobs J] [--keep DIR] [--report FILE] [--only v:K|r:K|g:K|G:K|s:K|c:K]
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

Three more modes (issue 32), off by default, run after the two stages (`--validate 0 --runs 0`
runs them alone); they mutate the inputs that name files:

  registries   N mutants of small registries of stated results (docs/reproduce.md: results of
            papers/stated_results.json that cost <= 1 s at the quick scale, and one made here),
            each in DIR/papers/stated_results.json beside a copy of cases/, given to
            `granular reproduce --dry-run`; one slot in 20 (at most --registry-runs, default 20)
            also runs a mutant a dry run accepts (`--threads 1 --max-cost 1`). JSON mutations,
            and ids, run names, case paths and the files expressions read with traversal,
            absolute paths, links out, a FIFO; expressions truncated, with operators swapped,
            non-finite, repeated, nested deep, with unknown functions. Findings: signals, exit
            1, hangs, exit 2 not one line starting with the registry's path, anything changed
            outside DIR/rep, a result holding the number of a file planted outside its run
            (read_outside), a verdict "agrees"/"disagrees" whose value is not a finite number.
  summaries  N mutants of the summary.json of one of HostileMerge's two shards of
            tests/data/good_ensemble.json (tests/cli/hostile_cli_test.cpp), then `granular merge`:
            JSON mutations and records of files outside the shard, of the other shard's
            snapshots, of links out, with their true size and checksum (io::Checksum:
            XXH64, python3-xxhash). Findings: signals, exit 1, hangs, refusals not one line naming
            a shard, anything changed outside the merge's folder, a merge that exits 0 with a
            record that is not of the shard's own file, not a plain name, or not its bytes.
  checkpoints  N damages of a checkpoint of the same case stopped by SIGINT: one 8-byte word of
            the state overwritten with a hostile double or int64, the checksum recomputed,
            then `granular run ... --resume`: refused, resumed identical to the uninterrupted
            run, resumed different but flagged, or resumed different with every packing "ok"
            (listed with the word's array and values). Findings: signals, exit 1, hangs,
            refusals not one line naming checkpoint.bin, non-finite results reported "ok". The
            damages are the same for a seed; the stopped run depends on when SIGINT lands
            (--keep keeps it, and the uninterrupted run, beside the kept damages).

Every granular process runs under an address-space cap (--memory-limit, default 4 GiB), so
that a mutant asking for a billion disks meets a failed allocation instead of the machine's
OOM killer; what the program does then is part of what the campaign reports.

--fuzz-seeds DIR writes the validate stage's mutants, without running anything, as seeds of
the case-loader fuzz target (scripts/run_fuzz.sh): libFuzzer then mutates from hostile cases
of every model, not only from the shipped ones.

The campaign is deterministic for a seed: mutant K of a stage is built from its own
random.Random seeded by (seed, stage, K), so `--only v:K` (validate stage) or `--only r:K`
(run stage) rebuilds and reruns exactly that mutant (g, G, s, c: a registry dry run, a registry
run slot, a summary, a checkpoint). `--keep DIR` writes every failing mutant to DIR as
<stage><K>_<class>.json with a one-line reproducer <stage><K>_<class>.sh beside it (for the
modes of issue 32 a short script that rebuilds the scratch folder, with the unmutated shards or
stopped run copied into DIR once; checkpoint damages resumed as "ok" with other results are
kept too).
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
import stat
import struct
import subprocess
import sys
import tempfile
import threading
import time
from collections import Counter, defaultdict
from dataclasses import dataclass, field
from pathlib import Path

import xxhash  # python3-xxhash (scripts/install_deps.sh): the files' XXH64 checksums

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
    "signal", "exit1", "read_outside", "wrote_outside", "merged_through_link",
    "merged_foreign_record", "merged_nonplain_name", "merged_bad_record", "verdict_non_finite",
    "unflagged_non_finite", "non_finite_literal", "bad_summary",
    "exit2_not_one_line", "exit2_unnamed", "run_refused_after_validate", "no_summary",
    "no_report", "wrote_files", "unexpected_exit", "timeout", "exit2_control_chars",
]
# The fine classes of the registry, summary and checkpoint modes (below) are fine as well.
FINE = {"accepted", "refused", "ran", "merged_same", "merged_different",
        "merged_dropped_snapshot", "resumed_identical", "resumed_flagged", "resumed_different_ok"}
FINE_ORDER = ["accepted", "refused", "ran", "merged_same", "merged_different",
              "merged_dropped_snapshot", "resumed_identical", "resumed_flagged",
              "resumed_different_ok"]
STAGES = {"v": "validate", "r": "run", "g": "registry dry run", "G": "registry run",
          "s": "merge", "c": "resume"}


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
    extra: dict = field(default_factory=dict)  # files planted, the damaged word, ... (issue 32)


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
# Inputs that name files (issue 32): registries of stated results, shard summaries and
# checkpoints. Each mode builds its inputs once in the work folder and mutates copies in a
# scratch folder per mutant; a name that must be absolute is written with ROOT_TOKEN, which
# becomes that scratch folder, so that a mutant stays the same text for a seed.

ROOT_TOKEN = "@ROOT@"
MARKER = 424242  # the number in the files planted outside a registry's run folders
MARKER_JSON = json.dumps({"marker": MARKER, "impact_count": MARKER, "start": {"E_rest": MARKER}})
MARKER_CSV = f"marker,impact_count\n{MARKER},{MARKER}\n"
OUTSIDE_TEXT = "a file outside the shards\n"
REGISTRY_DRY_TIMEOUT_S = 20
REGISTRY_RUN_TIMEOUT_S = 60
REGISTRY_RUN_SHARE = 20  # one registry mutant in this many is also run (at most --registry-runs)
MERGE_TIMEOUT_S = 60
RESUME_TIMEOUT_S = 60
ENSEMBLE_CASE = REPO / "tests" / "data" / "good_ensemble.json"
# the shards of tests/cli/hostile_cli_test.cpp's HostileMerge
SHARD_SETS = ['/snapshots={"packings": [0, 1], "interval": 0.05}']
# a run of a few seconds, stopped by SIGINT after STOP_AFTER_S to leave a checkpoint
CHECKPOINT_SETS = ["/run/measure_time=20"]
STOP_AFTER_S = 0.6
# summary keys that differ from run to run: not compared
RUN_DEPENDENT = {"wall_time_s", "advance_time_s", "particle_steps_per_s", "threads", "provenance"}


def tree_listing(root, exclude=()):
    """{relative path: (kind, size, mtime)} of everything under root except `exclude` (relative
    paths, not descended into); folders by kind only, since their times change with entries."""
    out, excluded = {}, {os.path.normpath(e) for e in exclude}
    for dirpath, dirnames, filenames in os.walk(root):
        rel_dir = os.path.relpath(dirpath, root)
        for name in dirnames + filenames:
            rel = os.path.normpath(os.path.join(rel_dir, name))
            if rel in excluded:
                continue
            st = os.lstat(os.path.join(dirpath, name))
            out[rel] = ("dir",) if stat.S_ISDIR(st.st_mode) else \
                (stat.S_IFMT(st.st_mode), st.st_size, st.st_mtime_ns)
        dirnames[:] = [d for d in dirnames
                       if os.path.normpath(os.path.join(rel_dir, d)) not in excluded]
    return out


def tree_changes(before, after):
    """'+new', '-removed' and '~changed' entries between two listings."""
    return sorted([f"+{p}" for p in after.keys() - before.keys()] +
                  [f"-{p}" for p in before.keys() - after.keys()] +
                  [f"~{p}" for p in after.keys() & before.keys() if after[p] != before[p]])


def checksum(data):
    """io::Checksum (include/granular/io/checksum.hpp) of `data`: XXH64 with seed 0."""
    return xxhash.xxh64_intdigest(data)


def file_record(data):
    """A summary's record of a file's bytes (docs/outputs.md, `files`)."""
    return {"bytes": len(data), "checksum": f"{checksum(data):016x}"}


def plain_name(name):
    """io::plain_name_defect(name) is empty: parts separated by '/', none empty, '.' or '..', no
    backslash or control character, at most 255 bytes a part and 1024 in all."""
    parts = name.split("/")
    return (0 < len(name.encode("utf-8", "surrogateescape")) <= 1024
            and not re.search(r"[\\\x00-\x1f\x7f]", name)
            and all(p not in ("", ".", "..") and len(p.encode("utf-8", "surrogateescape")) <= 255
                    for p in parts))


def refusal_class(err, names):
    """The failure class of an exit-2 message, or None when it is one line that starts with one
    of `names`."""
    if err.count("\n") != 1 or not err.endswith("\n") or "\r" in err:
        return "exit2_not_one_line"
    if not any(err.startswith(n) for n in names):
        return "exit2_unnamed"
    if re.search(r"[\x00-\x08\x0b-\x1f\x7f]", err):
        return "exit2_control_chars"
    return None


def classify_named(rc, err, names, file_path):
    """classify_exit, with an exit 2 that may start with any of `names`."""
    if rc == 2:
        bad = refusal_class(err, names)
        first = next((l for l in err.splitlines() if l.strip()), "(no stderr)")
        return (bad, mask(first, file_path)) if bad else ("refused", "")
    return classify_exit(rc, err, file_path)


def apply_mutations(rng, holder, m, table, wanted):
    """`wanted` mutations drawn from `table` [(name, weight, function(rng, holder))]."""
    names, weights = [n for n, _, _ in table], [w for _, w, _ in table]
    funcs = {n: f for n, _, f in table}
    for _ in range(100 * wanted):
        if len(m.what) >= wanted:
            break
        name = rng.choices(names, weights)[0]
        what = funcs[name](rng, holder)
        if what:  # None: nothing of that kind left; draw again
            m.ops.append(name)
            m.what.append(what)


def finish_new(o, args, ctx):
    """finish() for the modes of issue 32: keep failing mutants (and, for the report, checkpoint
    damages resumed as 'ok' with other results), drop the bulk of fine ones."""
    if o.cls not in FINE or o.cls == "resumed_different_ok":
        if args.keep:
            keep_new(o, args, ctx)
    if o.cls in FINE:
        o.argv = None
        o.mutant.text = "" if o.mutant.text is not None else None
    return o


def shell_script(o, stem, setup, command):
    return "\n".join([f"# {o.mutant.case.name}: {'; '.join(o.mutant.what)}",
                      f"# campaign class: {o.cls} {o.detail}".rstrip(), "set -e",
                      f"R=/tmp/hostile_out_{stem}", 'rm -rf "$R"'] + setup + [command]) + "\n"


def keep_new(o, args, ctx):
    """The mutant and a shell script that rebuilds its scratch folder and reruns it."""
    directory = args.keep
    directory.mkdir(parents=True, exist_ok=True)
    stem = f"{o.mutant.stage}{o.mutant.index:05d}_{o.cls}"
    q, binary = shlex.quote, shlex.quote(str(args.binary))
    if o.mutant.stage in "gG":
        kept = directory / f"{stem}.json"
        kept.write_bytes(o.mutant.text.encode("utf-8", "surrogateescape"))
        setup = registry_setup_script() + [
            f'LC_ALL=C sed "s|{ROOT_TOKEN}|$R|g" {q(str(kept))} '
            '> "$R/project/papers/stated_results.json"', 'cd "$R/cwd"']
        command = (f'{binary} reproduce --registry "$R/project/papers/stated_results.json" '
                   f'--out "$R/project/rep" '
                   + ("--threads 1 --max-cost 1" if o.mutant.stage == "G" else "--dry-run"))
    elif o.mutant.stage == "s":
        kept = directory / f"{stem}.summary.json"
        kept.write_bytes(o.mutant.text.encode("utf-8", "surrogateescape"))
        shards = ctx["keep_shards"]
        setup = ['mkdir -p "$R/work/o"', f'cp -r {q(str(shards / "s0"))} "$R/work/d0"',
                 f'cp -r {q(str(shards / "s1"))} "$R/work/d1"',
                 f'printf %s {q(OUTSIDE_TEXT)} > "$R/outside.txt"']
        for kind, source, dest in o.mutant.extra.get("plant", []):
            if kind == "copy":
                setup.append(f'cp {q(str(shards / source))} "$R/{dest}"')
            else:
                target = source.replace(ROOT_TOKEN, "$R")
                setup.append(f'rm -f "$R/{dest}" && ln -s "{target}" "$R/{dest}"')
        setup += [f'LC_ALL=C sed "s|{ROOT_TOKEN}|$R|g" {q(str(kept))} > "$R/work/d0/summary.json"',
                  'cd "$R/work"']
        command = f"{binary} merge --out o/m d0 d1"
    else:
        kept = directory / f"{stem}.checkpoint.bin"
        kept.write_bytes(damaged_checkpoint(ctx["checkpoint"], o.mutant))
        setup = ['mkdir -p "$R"', f'cp -r {q(str(ctx["keep_stopped"]))} "$R/out"',
                 f'cp {q(str(kept))} "$R/out/checkpoint.bin"', 'cd "$R"',
                 f"# the uninterrupted run: {ctx['keep_reference']}"]
        command = command_line([str(args.binary), "run", str(ENSEMBLE_CASE), "--threads", "1"]
                               + set_args(CHECKPOINT_SETS) + ["--out", "out", "--resume"])
    sh = directory / f"{stem}.sh"
    sh.write_text(shell_script(o, stem, setup, command), encoding="utf-8",
                  errors="surrogateescape")
    o.kept = sh


# Registries: `granular reproduce --registry FILE` (docs/reproduce.md)

REGISTRY_BASES = {  # results of papers/stated_results.json whose quick runs cost <= 1 s each
    "pendulum": ["pendulum-impact-count-smooth", "pendulum-equilibrium-energy",
                 "pendulum-first-impact-loss-larger-with-friction"],
    "prism_dimer": ["prism-fig6-accelerate-then-saturate", "dimer-slip-roots-interval",
                    "dimer-static-friction-estimate"],
    "thesis": ["thesis-ch4-en-closed-form", "thesis-ch4-et-sticking-limit",
               "thesis-ch6-wall-restitution"],
}

HOSTILE_IDS = ["../x", "../../outside", "/tmp/x", ROOT_TOKEN + "/x", "a/../../b",
               "snapshots/../../x", ".", "..", "", "x" * 101, "-x", ".hidden", "a b", "a\nb",
               "é", "a\\b", "a\u0000b", "index", "x" * 100]
HOSTILE_RUN_NAMES = ["../x", "..", ".", "", "a/b", "main/..", "/abs", ROOT_TOKEN, "x" * 101,
                     "1run", "a-b", "é", "main ", "quick", "value", "summary.json"]
HOSTILE_CASE_PATHS = [
    "../cases/pendulum_mu0.json", "../../outside_case.json", ROOT_TOKEN + "/outside_case.json",
    str(CASES_DIR / "pendulum_mu0.json"), "cases/../cases/pendulum_mu0.json",
    "./cases/pendulum_mu0.json", "cases//pendulum_mu0.json", "cases/outside_link.json",
    "cases/dev_zero.json", "cases/fifo.json", "cases/folder.json", "cases/nosuch.json",
    "cases/pendulum_mu0.json/", "cases", "", "cases\\pendulum_mu0.json", "snapshots/../../x.json",
    "cases/pendulum_mu0.json\u0000.json", "~/x.json", "papers/stated_results.json",
    "cases/" + "x" * 300 + ".json", "/dev/stdin.json"]
# the file argument of json() and col(), relative to a run's folder DIR/rep/runs/<run>/
HOSTILE_EXPR_FILES = [
    "../../../outside.{ext}", "../../../../outside.{ext}", "main/../../../outside.{ext}",
    "snapshots/../../x", "snapshots/../../../../outside.{ext}", ROOT_TOKEN + "/outside.{ext}",
    "/etc/passwd", "/dev/zero", "/proc/self/environ", "./summary.json", "summary.json/", "",
    "main/", "main//summary.json", "..", ".", "nosuch/summary.json", "a\\..\\b",
    "summary.json\u0000.x", "x" * 300, "a/" * 600 + "x", "../longer/summary.json",
    "longer/../../../../outside.{ext}"]
NON_FINITE_EXPRS = ["1/0", "0/0", "log(0)", "-log(0)", "sqrt(-1)", "exp(1000)", "-exp(1000)",
                    "0*exp(1000)", "10^400", "(-8)^(1/3)", "1e308*10", "exp(1000)-exp(1000)",
                    "mean([])", "min([])", "at([1], 5)", "slope([1,1],[1,2])", "std([1])",
                    "interp(1, [], [])", "json('summary.json', '/no_such_key')",
                    "[1, 0*exp(1000)]", "log(-1)"]
BAD_EXPRS = ["nosuch(1)", "system('ls')", "eval('1')", "json()", "json('summary.json')",
             "col('x.csv')", "mean()", "mean(1,2,3)", "slope([1])", "at([1,2])", "abs", "abs(",
             "1 2", "'unterminated", "$x", "x y", "exp(1)(2)", "a.b", "1e400", "1e-400", "0x10",
             "NaN", "inf", "Infinity", "-", "()", "[]", "[1,]", ",", "'a' + 1", "'a' < 1",
             "[1,2] + [1,2,3]", "where([1,2],[true])", "undefined_name", "value", "quick + 1"]
OPERATORS = ["+", "-", "*", "/", "^", "==", "!=", "<", "<=", ">", ">=", " and ", " or ", " not ",
             ",", ""]


def tiny_result(rid, printed, compute):
    """A result of the pendulum paper measured on cases/pendulum_mu0.json, as in
    tests/cli/reproduce_cli_test.cpp."""
    return {"id": rid, "paper": "pendulum", "where": "§4", "statement": rid, "printed": printed,
            "tolerance": {"absolute": 0, "why": "a count"},
            "cost": {"quick_s": 0.2, "full_s": 0.2},
            "measure": {"case": "cases/pendulum_mu0.json", "set": {"/run/t_end": 6.0},
                        "quick_set": {"/run/t_end": 6.0}, "compute": compute}}


def load_registry_bases():
    """[(name, registry)]: small registries of shipped results that cost <= 1 s at the quick
    scale, and one made here on cases/pendulum_mu0.json."""
    shipped = json.loads((REPO / "papers" / "stated_results.json").read_text(encoding="utf-8"))
    by_id = {r["id"]: r for r in shipped["results"]}
    bases = []
    for name, ids in REGISTRY_BASES.items():
        results = [by_id[i] for i in ids if i in by_id
                   and is_number((by_id[i].get("cost") or {}).get("quick_s"))
                   and by_id[i]["cost"]["quick_s"] <= 1]
        if results:
            papers = sorted({r["paper"] for r in results})
            bases.append((name, {"format": 1,
                                 "papers": {p: shipped["papers"][p] for p in papers},
                                 "results": results}))
    count = {"value": "json('summary.json', '/impact_count')"}
    wrong = tiny_result("wrong", {"kind": "count", "value": 7}, count)
    wrong["known_disagreement"] = "a planted wrong number"
    curve = tiny_result("curve", {"kind": "trend", "trend": "rising"}, {
        "runs": {"main": {}, "longer": {"also": {"/run/t_end": 8.0}}},
        "let": {"n6": "json('summary.json', '/impact_count')",
                "n8": "json('longer/summary.json', '/impact_count')"},
        "value": "n8 - n6", "pass": "value >= 0",
        "figure": {"x": "[6, 8]", "y": "[n6, n8]", "x_label": "t_end", "y_label": "impacts",
                   "ref_x": [6], "ref_y": [6]}})
    bases.append(("tiny", {"format": 1, "papers": {"pendulum": "the double pendulum paper"},
                           "results": [tiny_result("count", {"kind": "count", "value": 6}, count),
                                       wrong, curve]}))
    return bases


def registry_results(holder):
    doc = holder[0]
    results = doc.get("results") if isinstance(doc, dict) else None
    return [(i, r) for i, r in enumerate(results) if isinstance(r, dict)] \
        if isinstance(results, list) else []


def computes(holder):
    """(result index, compute block) of every result that has one."""
    out = []
    for i, r in registry_results(holder):
        measure = r.get("measure")
        if isinstance(measure, dict) and isinstance(measure.get("compute"), dict):
            out.append((i, measure["compute"]))
    return out


def mutate_id(rng, holder):
    results = registry_results(holder)
    if not results:
        return None
    i, r = rng.choice(results)
    others = [x["id"] for j, x in results if j != i and isinstance(x.get("id"), str)]
    r["id"] = rng.choice(HOSTILE_IDS + others[:1] * 3)  # sometimes another result's id
    return f"/results/{i}/id := {short(r['id'], 40)}"


def mutate_run_name(rng, holder):
    found = computes(holder)
    if not found:
        return None
    i, c = rng.choice(found)
    runs = c.get("runs") if isinstance(c.get("runs"), dict) else {"main": {}}
    name = rng.choice(HOSTILE_RUN_NAMES)
    if rng.random() < 0.5:
        old = rng.choice(list(runs))
        c["runs"] = {name if k == old else k: v for k, v in runs.items()}
        return f"/results/{i}/measure/compute/runs: {old} renamed {short(name, 40)}"
    c["runs"] = dict(runs, **{name: {}})
    return f"/results/{i}/measure/compute/runs: add {short(name, 40)}"


def mutate_case_path(rng, holder):
    """A hostile case path in measure.case, a run's case or measure.paired_cases."""
    slots = []
    for i, r in registry_results(holder):
        measure = r.get("measure")
        if not isinstance(measure, dict):
            continue
        slots += [(measure, "case", f"/results/{i}/measure/case"),
                  (measure, "paired_cases", f"/results/{i}/measure/paired_cases")]
        c = measure.get("compute")
        if isinstance(c, dict) and isinstance(c.get("runs"), dict):
            slots += [(run, "case", f"/results/{i}/measure/compute/runs/{name}/case")
                      for name, run in c["runs"].items() if isinstance(run, dict)]
    if not slots:
        return None
    parent, key, where = rng.choice(slots)
    path = rng.choice(HOSTILE_CASE_PATHS)
    parent[key] = [path] if key == "paired_cases" else path
    return f"{where} := {short(parent[key], 50)}"


def expression_slots(holder):
    """(parent, key, path) of every expression of the registry's compute blocks."""
    out = []
    for parent, key, path in nodes(holder):
        if not isinstance(parent[key], str) or "compute" not in path:
            continue
        rel = path[path.index("compute") + 1:]
        if (len(rel) == 1 and rel[0] in ("value", "stderr", "pass")) or \
                (len(rel) == 2 and rel[0] in ("let", "require")) or \
                (rel[:1] == ["figure"] and rel[-1] in ("x", "y")):
            out.append((parent, key, path))
    return out


def hostile_file_call(rng, old):
    """`old` reading a hostile file name (a file planted outside the run holds MARKER)."""
    calls = list(re.finditer(r"\b(json|col)\(\s*'([^']*)'", old))
    name = rng.choice(HOSTILE_EXPR_FILES)
    if calls:
        c = rng.choice(calls)
        name = name.replace("{ext}", "json" if c.group(1) == "json" else "csv")
        return old[:c.start(2)] + name + old[c.end(2):], f"{c.group(1)} reads {short(name, 40)}"
    reads_json = rng.random() < 0.5
    name = name.replace("{ext}", "json" if reads_json else "csv")
    text = f"json('{name}', '/marker')" if reads_json else f"first(col('{name}', 'marker'))"
    return text, f"reads {short(name, 40)}"


def hostile_expression(rng, old):
    """(a hostile version of the expression `old`, how it was made)."""
    how = rng.choice(["truncated", "operator", "non_finite", "repeated", "unknown", "deep", "file"])
    if how == "truncated":
        return (old[:rng.randrange(len(old))] if len(old) > 1 else "("), how
    if how == "operator":
        spots = list(re.finditer(r"==|!=|<=|>=|\band\b|\bor\b|\bnot\b|[-+*/^<>,]", old))
        op = rng.choice(OPERATORS)
        if not spots:
            return old + op, f"operator {op.strip() or '(none)'} appended"
        s = rng.choice(spots)
        return old[:s.start()] + op + old[s.end():], \
            f"operator {s.group()} -> {op.strip() or '(none)'}"
    if how == "non_finite":
        bad = rng.choice(NON_FINITE_EXPRS)
        return rng.choice([bad, f"({old}) + {bad}", f"{bad} * ({old})"]), f"non-finite {bad}"
    if how == "repeated":
        n = rng.choice([10, 1000, 4999, 5000, 100000])
        sep, item = rng.choice([("+", "1"), ("*", "1"), ("^", "1"), ("-", "1"),
                                (" and ", "true"), (" or ", "false"), (",", "1")])
        text = sep.join([item] * n)
        if sep == ",":
            text = "mean([" + text + "])"
        return text, f"'{item}{sep.strip()}' x{n} ({len(text)} chars)"
    if how == "unknown":
        text = rng.choice(BAD_EXPRS)
        return text, f"bad {short(text, 30)}"
    if how == "deep":
        d = rng.choice([100, 1000, 2499, 3000, 4999, 5000, 20000])
        kind = rng.choice(["paren", "minus", "not", "array", "call"])
        text = {"paren": "(" * d + "1" + ")" * d, "minus": "-" * d + "1",
                "not": "not " * d + "true", "array": "[" * d + "1" + "]" * d,
                "call": "abs(" * d + "1" + ")" * d}[kind]
        return text, f"{kind} nested {d} deep ({len(text)} chars)"
    return hostile_file_call(rng, old)


def mutate_expression_slot(rng, holder, hostile):
    """One of holder's expressions replaced by hostile(rng, expression)."""
    slots = expression_slots(holder)
    if not slots:
        return None
    parent, key, path = rng.choice(slots)
    parent[key], how = hostile(rng, parent[key])
    return f"{pointer(path)}: {how}"


def mutate_expression(rng, holder):
    return mutate_expression_slot(rng, holder, hostile_expression)


def mutate_expression_file(rng, holder):
    return mutate_expression_slot(rng, holder, hostile_file_call)


def mutate_non_finite_verdict(rng, holder):
    """A value that is not a finite number, with a pass or a require that does not look at it."""
    found = computes(holder)
    if not found:
        return None
    i, c = rng.choice(found)
    c["value"] = rng.choice(NON_FINITE_EXPRS)
    how = rng.choice(["pass", "no pass", "require"])
    if how == "pass":
        c["pass"] = rng.choice(["true", "not false", "1 == 1", "quick or not quick"])
    elif how == "no pass":
        c.pop("pass", None)
    else:
        c["require"] = ["false"]
    return f"/results/{i}/measure/compute/value := {c['value']} ({how}" + \
        (f" {c['pass']})" if how == "pass" else ")")


def outside_overrides(mutate):
    """`mutate` restricted to numbers outside the runs' overrides (set, quick_set, also), which
    could make a run long."""
    def restricted(rng, holder):
        overrides = {p for p in pointers(holder[0])
                     if re.search(r"/(set|quick_set|also)(/|$)", p)}
        return mutate(rng, holder, overrides)
    return restricted


REGISTRY_MUTATIONS = [  # (name, weight, function)
    ("extreme", 8, mutate_extreme), ("scale", 5, mutate_scale), ("type_swap", 10, mutate_type),
    ("delete_key", 8, mutate_delete), ("unknown_key", 5, mutate_add_key),
    ("array", 4, mutate_array), ("nesting", 4, mutate_nest), ("duplicate_key", 4, mutate_duplicate),
    ("string", 5, mutate_string), ("id", 8, mutate_id), ("run_name", 6, mutate_run_name),
    ("case_path", 8, mutate_case_path), ("expression", 14, mutate_expression),
    ("expression_file", 8, mutate_expression_file),
    ("non_finite_verdict", 4, mutate_non_finite_verdict),
]
# Mutants that are run: nothing that can make a run long (no number of the overrides, no
# deleted or duplicated keys, which may drop a quick scale), mostly what a dry run accepts.
REGISTRY_RUN_MUTATIONS = [
    ("extreme", 6, outside_overrides(mutate_extreme)), ("scale", 4, outside_overrides(mutate_scale)),
    ("id", 4, mutate_id), ("run_name", 4, mutate_run_name), ("case_path", 8, mutate_case_path),
    ("expression", 12, mutate_expression), ("expression_file", 14, mutate_expression_file),
    ("non_finite_verdict", 14, mutate_non_finite_verdict),
]


def registry_mutant(seed, k, bases, attempt=None):
    """Registry mutant k (given to a dry run), or try `attempt` of run slot k (stage G)."""
    run = attempt is not None
    rng = random.Random(f"{seed}/registry-run/{k}/{attempt}" if run else f"{seed}/registry/{k}")
    name, doc = bases[k % len(bases)]
    holder = [json.loads(json.dumps(doc))]
    m = Mutant("G" if run else "g", k, Path(f"registry_{name}.json"), f"registry/{name}")
    apply_mutations(rng, holder, m, REGISTRY_RUN_MUTATIONS if run else REGISTRY_MUTATIONS,
                    rng.randint(1, 2))
    m.text = dump(holder[0])
    return m


def registry_setup_script():
    """The shell lines that make registry_scratch's folder in $R (reproducers)."""
    q = shlex.quote
    return ['mkdir -p "$R/project/papers" "$R/cwd"',
            f'cp -r {q(str(CASES_DIR))} "$R/project/cases"',
            'ln -s ../../outside_case.json "$R/project/cases/outside_link.json"',
            'ln -s /dev/zero "$R/project/cases/dev_zero.json"',
            'mkfifo "$R/project/cases/fifo.json" && mkdir "$R/project/cases/folder.json"',
            f'cp {q(str(CASES_DIR / "pendulum_mu0.json"))} "$R/outside_case.json"',
            f'for d in "$R" "$R/project"; do printf %s {q(MARKER_JSON)} > "$d/outside.json"; '
            f'printf %s {q(MARKER_CSV)} > "$d/outside.csv"; done']


def registry_scratch(root, text):
    """The project folder root/project of a registry mutant: the registry in
    papers/stated_results.json, a copy of cases/ holding a link out of it, a link to /dev/zero,
    a FIFO and a folder named as cases, and files holding MARKER outside the runs' folders (in
    the project and above it). Returns the registry's path."""
    project = root / "project"
    cases = project / "cases"
    shutil.copytree(CASES_DIR, cases)
    os.symlink("../../outside_case.json", cases / "outside_link.json")
    os.symlink("/dev/zero", cases / "dev_zero.json")
    os.mkfifo(cases / "fifo.json")
    (cases / "folder.json").mkdir()
    shutil.copy(CASES_DIR / "pendulum_mu0.json", root / "outside_case.json")
    for d in (root, project):
        (d / "outside.json").write_text(MARKER_JSON, encoding="utf-8")
        (d / "outside.csv").write_text(MARKER_CSV, encoding="utf-8")
    (project / "papers").mkdir()
    (root / "cwd").mkdir()
    registry = project / "papers" / "stated_results.json"
    registry.write_bytes(text.replace(ROOT_TOKEN, str(root)).encode("utf-8", "surrogateescape"))
    return registry


def not_finite_value(v):
    """Whether a result's value is not a finite number: null (NaN), a NaN or Infinity token, or
    an array holding one. A word or a boolean is a documented value."""
    if v is None or (isinstance(v, float) and not math.isfinite(v)):
        return True
    return isinstance(v, list) and any(not_finite_value(x) for x in v)


def registry_report(rep):
    """(verdicts, [(class, detail)]) of a reproduction's rep/results.json."""
    path = rep / "results.json"
    if not path.exists():
        return [], [("no_report", "exit 0 or 3 without rep/results.json")]
    problems = []
    text = path.read_text(encoding="utf-8", errors="replace")
    md = (rep / "report.md").read_text(encoding="utf-8", errors="replace") \
        if (rep / "report.md").exists() else ""
    if str(MARKER) in text or "4.242e+05" in md:
        problems.append(("read_outside", "a result holds the number of a file planted outside "
                                         "its run's folder"))
    try:
        doc = parse_summary(path)
        results = doc["results"]
    except (ValueError, KeyError, TypeError) as e:
        return [], problems + [("bad_summary", f"unreadable results.json: {short(str(e), 80)}")]
    verdicts = []
    for r in results:
        verdicts.append(str(r.get("verdict")))
        if r.get("verdict") in ("agrees", "disagrees") and not_finite_value(r.get("value")):
            problems.append(("verdict_non_finite",
                             f"{r.get('verdict')} with the value {short(dump(r.get('value')), 30)}"))
    return verdicts, problems


def registry_one(binary, m, workroot, run=False):
    """`granular reproduce --dry-run` (or, with `run`, a real reproduction with --max-cost 1) of a
    registry mutant; nothing may change outside DIR/rep."""
    root = Path(tempfile.mkdtemp(dir=workroot))
    try:
        registry = registry_scratch(root, m.text)
        rep = root / "project" / "rep"
        argv = [str(binary), "reproduce", "--registry", str(registry), "--out", str(rep)] + \
            (["--threads", "1", "--max-cost", "1"] if run else ["--dry-run"])
        before = tree_listing(root, ["project/rep"])
        rc, _, err = execute(argv, root / "cwd",
                             REGISTRY_RUN_TIMEOUT_S if run else REGISTRY_DRY_TIMEOUT_S)
        changes = tree_changes(before, tree_listing(root, ["project/rep"]))
        cls, detail = classify_named(rc, err, [str(registry)], registry)
        verdicts = []
        if run and rc in (0, 3):  # 3: a result disagrees or failed
            cls, detail = "ran", ""
            verdicts, problems = registry_report(rep)
            if problems:
                problems.sort(key=lambda p: SEVERITY.index(p[0]))
                cls, detail = problems[0]
        if changes and (cls in FINE or SEVERITY.index(cls) > SEVERITY.index("wrote_outside")):
            cls, detail = "wrote_outside", "changed outside DIR/rep: " + ", ".join(changes[:4])
        return Outcome(m, cls, detail, argv, rc, verdicts)
    finally:
        shutil.rmtree(root, ignore_errors=True)


def registry_run_slot(binary, seed, r, bases, workroot, counters, lock):
    """Real reproduction r: draws mutants until a dry run accepts one, then runs it."""
    findings = []
    for attempt in range(RUN_ATTEMPTS):
        m = registry_mutant(seed, r, bases, attempt)
        pre = registry_one(binary, m, workroot)
        with lock:
            counters["registry_" + ("refused" if pre.cls == "refused" else "precheck"
                                    if pre.cls not in FINE else "run")] += 1
        if pre.cls == "refused":
            continue
        if pre.cls not in FINE:
            pre.note = "in the dry-run precheck"
            findings.append(pre)
            continue
        return findings + [registry_one(binary, m, workroot, run=True)]
    with lock:
        counters["registry_slot_given_up"] += 1
    return findings


# Shard summaries: `granular merge` (docs/outputs.md, "Shards")

@dataclass
class Shards:
    base: Path  # s0 and s1 (HostileMerge's shards) and m, their merge
    summary: dict  # s0's summary.json
    records: dict  # s0's files: name -> record
    outside: dict  # names, relative to d0, of files that are not d0's own -> their true record
    other: dict  # the other shard's snapshots -> their true record


def make_shards(binary, workroot):
    """HostileMerge's two shards of tests/data/good_ensemble.json and their merge, once; checks
    the checksum computed here against every record granular wrote."""
    base = workroot / "shards"
    base.mkdir()
    run = [str(binary), "run", str(ENSEMBLE_CASE), "--threads", "1"] + set_args(SHARD_SETS)
    for name, packings in (("s0", "0:1"), ("s1", "1:2")):
        rc, _, err = execute(run + ["--out", str(base / name), "--packings", packings], base, 300)
        if rc != 0:
            sys.exit(f"hostile_campaign: shard {name}: exit {rc}: {err.strip()[-300:]}")
    rc, _, err = execute([str(binary), "merge", "--out", str(base / "m"), str(base / "s0"),
                          str(base / "s1")], base, 300)
    if rc != 0:
        sys.exit(f"hostile_campaign: merging the unmutated shards: exit {rc}: {err.strip()}")
    summary = json.loads((base / "s0" / "summary.json").read_text(encoding="utf-8"))
    records = summary["files"]
    for name, record in records.items():
        if file_record((base / "s0" / name).read_bytes()) != record:
            sys.exit(f"hostile_campaign: the checksum computed here gives another record of "
                     f"s0/{name} than granular's {record}")

    def true(path):
        return file_record(Path(path).read_bytes())
    s1 = base / "s1"
    outside_text = file_record(OUTSIDE_TEXT.encode())
    outside = {"../d1/energy.csv": true(s1 / "energy.csv"),
               "../d1/summary.json": true(s1 / "summary.json"),
               "../d1/snapshots/packing_1.pvd": true(s1 / "snapshots" / "packing_1.pvd"),
               "snapshots/../../d1/energy.csv": true(s1 / "energy.csv"),
               "../../outside.txt": outside_text,
               "snapshots/../../../outside.txt": outside_text,
               ROOT_TOKEN + "/outside.txt": outside_text,
               ROOT_TOKEN + "/work/d1/energy.csv": true(s1 / "energy.csv"),
               "./energy.csv": records["energy.csv"],
               "snapshots/../energy.csv": records["energy.csv"],
               "energy.csv/": records["energy.csv"],
               "snapshots//packing_0.pvd": records["snapshots/packing_0.pvd"],
               "snapshots/./packing_0.pvd": records["snapshots/packing_0.pvd"],
               "/energy.csv": records["energy.csv"],
               "energy.csv\u0000": records["energy.csv"],
               "snapshots\\packing_0.pvd": records["snapshots/packing_0.pvd"]}
    if os.access("/etc/hostname", os.R_OK):
        outside["/etc/hostname"] = true("/etc/hostname")
    s1_records = json.loads((s1 / "summary.json").read_text(encoding="utf-8"))["files"]
    other = {n: r for n, r in s1_records.items() if n.startswith("snapshots/")}
    return Shards(base, summary, records, outside, other)


def own_records(holder):
    files = holder[0].get("files") if isinstance(holder[0], dict) else None
    return files if isinstance(files, dict) else None


def mutate_record_outside(rng, holder, shards, m):
    """A record of a file that is not the shard's own, with that file's true size and checksum."""
    files = own_records(holder)
    if files is None:
        return None
    name, record = rng.choice(sorted(shards.outside.items()))
    files[name] = dict(record)
    return f"/files: add {short(name, 50)} with its true record"


def mutate_record_other_shard(rng, holder, shards, m):
    """A record of a snapshot of the other shard's packings, its file copied in or not."""
    files = own_records(holder)
    if files is None:
        return None
    name, record = rng.choice(sorted(shards.other.items()))
    files[name] = dict(record)
    if rng.random() < 0.5:
        m.extra.setdefault("plant", []).append(("copy", f"s1/{name}", f"work/d0/{name}"))
        return f"/files: add the other shard's {name}, the file copied into d0"
    return f"/files: add the other shard's {name}"


def mutate_record_link_out(rng, holder, shards, m):
    """One of the shard's files replaced by a link to an identical copy outside it (its record
    unchanged), or a new record of a link out with the linked file's true record."""
    files = own_records(holder)
    if files is None:
        return None
    plant = m.extra.setdefault("plant", [])
    if rng.random() < 0.3:
        name = "snapshots/packing_0_999999.vtp"
        m.extra.setdefault("link_out", []).append(name)
        target = rng.choice(["../../../outside.txt", ROOT_TOKEN + "/outside.txt"])
        plant.append(("symlink", target, f"work/d0/{name}"))
        files[name] = file_record(OUTSIDE_TEXT.encode())
        return f"/files: add {name}, a link to {short(target, 40)}, with its true record"
    name = rng.choice(sorted(shards.records))
    m.extra.setdefault("link_out", []).append(name)
    plant.append(("copy", f"s0/{name}", "outside_copy"))
    target = rng.choice(["../" * (2 + name.count("/")) + "outside_copy",
                         ROOT_TOKEN + "/outside_copy"])
    plant.append(("symlink", target, f"work/d0/{name}"))
    return f"d0/{name} replaced by a link to an identical copy ({short(target, 40)})"


def mutate_record_value(rng, holder, shards, m):
    """A record's bytes or checksum changed (or respelled: a float, upper-case hex)."""
    files = own_records(holder)
    if not files:
        return None
    name = rng.choice(sorted(files))
    record = files[name]
    if not isinstance(record, dict):
        return None
    if rng.random() < 0.5 and is_number(record.get("bytes")):
        b = record["bytes"]
        record["bytes"] = rng.choice([b + 1, b - 1, 0, -1, 2**63, 2**64, 1e300, float(b), str(b),
                                      None, Raw("1E+400")])
        return f"/files/{pointer([name])[1:]}/bytes := {short(record['bytes'], 30)}"
    c = record.get("checksum")
    if not isinstance(c, str) or len(c) != 16:
        return None
    flipped = c[:-1] + ("0" if c[-1] != "0" else "1")
    record["checksum"] = rng.choice([flipped, c.upper(), c[1:], c + "0", "", "0x" + c[2:],
                                     int(c, 16), None, "g" * 16, c[::-1]])
    return f"/files/{pointer([name])[1:]}/checksum := {short(record['checksum'], 30)}"


def mutate_record_delete(rng, holder, shards, m):
    files = own_records(holder)
    if not files:
        return None
    name = rng.choice(sorted(files))
    del files[name]
    return f"/files: delete the record of {name}"


def mutate_record_swap(rng, holder, shards, m):
    files = own_records(holder)
    if not files or len(files) < 2:
        return None
    a, b = rng.sample(sorted(files), 2)
    files[a], files[b] = files[b], files[a]
    return f"/files: the records of {a} and {b} swapped"


def mutate_record_rename(rng, holder, shards, m):
    """An own record renamed to a hostile spelling of the same or of another name."""
    files = own_records(holder)
    if not files:
        return None
    old = rng.choice(sorted(files))
    new = rng.choice([n for n in [
        f"./{old}", f"{old}/", f"/{old}", f"{old}\u0000", old.replace("/", "//"),
        old.replace("/", "/./"), old.replace("/", "\\"), "", "x" * 300, "snapshots/" + "x" * 300,
        old.upper(), f"{old}.bak", f"../d0/{old}", f"{ROOT_TOKEN}/work/d0/{old}", "snapshots",
        "snapshots/"] if n != old])
    files[new] = files.pop(old)
    return f"/files: {old} renamed {short(new, 50)}"


def with_shards(mutate, shards, m):
    return lambda rng, holder: mutate(rng, holder, shards, m)


def summary_mutant(seed, k, shards):
    """Mutant k of d0/summary.json: JSON mutations and mutations of its file records."""
    rng = random.Random(f"{seed}/summary/{k}")
    holder = [json.loads(json.dumps(shards.summary))]
    m = Mutant("s", k, Path("d0/summary.json"), "summary")
    records = [("record_outside", 10, mutate_record_outside),
               ("record_other_shard", 8, mutate_record_other_shard),
               ("record_link_out", 6, mutate_record_link_out),
               ("record_value", 8, mutate_record_value), ("record_delete", 4, mutate_record_delete),
               ("record_swap", 3, mutate_record_swap), ("record_rename", 8, mutate_record_rename)]
    table = [(n, w, with_shards(f, shards, m)) for n, w, f in records] + [
        ("extreme", 6, mutate_extreme), ("scale", 3, mutate_scale), ("type_swap", 8, mutate_type),
        ("delete_key", 6, mutate_delete), ("unknown_key", 3, mutate_add_key),
        ("array", 4, mutate_array), ("nesting", 3, mutate_nest),
        ("duplicate_key", 3, mutate_duplicate), ("string", 4, mutate_string)]
    apply_mutations(rng, holder, m, table, rng.randint(1, 2))
    m.text = dump(holder[0])
    return m


def plant(root, shards_base, plants):
    """The files a summary mutant adds to its scratch folder: copies of the unmutated shards'
    files, and links."""
    for kind, source, dest in plants:
        dest = root / dest
        if dest.is_symlink() or dest.exists():
            dest.unlink()
        if kind == "copy":
            shutil.copy(shards_base / source, dest)
        else:
            os.symlink(source.replace(ROOT_TOKEN, str(root)), dest)


def same_record(record, truth):
    """Whether a (mutated) record says what the true record says: bytes as a number, the
    checksum's hex digits in either case."""
    return (isinstance(record, dict) and is_number(record.get("bytes"))
            and record["bytes"] == truth["bytes"] and isinstance(record.get("checksum"), str)
            and record["checksum"].lower() == truth["checksum"])


def merged_differs(out_dir, pristine):
    """Whether a merged folder differs from the unmutated shards' merge: its files' names and
    bytes, summary.json without the keys that differ from run to run, run.log not compared."""
    def listing(d):
        return {str(p.relative_to(d)) for p in d.rglob("*") if p.is_file() and p.name != "run.log"}
    names = listing(out_dir)
    if names != listing(pristine):
        return True
    for name in names:
        a, b = out_dir / name, pristine / name
        if name == "summary.json":
            sa, sb = parse_summary(a), parse_summary(b)
            if {k: v for k, v in sa.items() if k not in RUN_DEPENDENT} != \
                    {k: v for k, v in sb.items() if k not in RUN_DEPENDENT}:
                return True
        elif a.read_bytes() != b.read_bytes():
            return True
    return False


def merge_accepted(m, shards, root):
    """(class, detail) of a merge that exited 0 after d0's summary was mutated."""
    try:
        files = json.loads(m.text.replace(ROOT_TOKEN, str(root)))["files"]
    except (ValueError, KeyError, TypeError, RecursionError):
        files = ...  # not a summary Python reads: judged by the merged files alone
    links = [n for n in m.extra.get("link_out", []) if files is ... or
             (isinstance(files, dict) and n in files)]
    if links:  # a recorded file that is a link out of the shard: merge verified it through it
        return "merged_through_link", "merge read a shard's file through a link out of it"
    if files is not ...:
        if not isinstance(files, dict):
            return "merged_bad_record", f"/files is {short(dump(files), 40)}"
        for name, record in files.items():
            if name not in shards.records:
                return ("merged_foreign_record" if plain_name(name) else "merged_nonplain_name",
                        f"a record of {short(name.replace(str(root), ROOT_TOKEN), 60)}")
            if not same_record(record, shards.records[name]):
                return "merged_bad_record", f"{name}: {short(dump(record), 60)}"
        dropped = sorted(shards.records.keys() - files.keys())
        if any(not n.startswith("snapshots/") for n in dropped):
            return "merged_bad_record", f"no record of {dropped[0]}"
        if dropped:
            return "merged_dropped_snapshot", f"no record of {dropped[0]}"
    if not (root / "work" / "o" / "m" / "summary.json").exists():
        return "no_summary", "exit 0 without o/m/summary.json"
    different = merged_differs(root / "work" / "o" / "m", shards.base / "m")
    return ("merged_different" if different else "merged_same"), ""


def summary_one(binary, m, shards, workroot):
    """`granular merge --out o/m d0 d1` with d0's summary mutated; nothing may change outside o/."""
    root = Path(tempfile.mkdtemp(dir=workroot))
    try:
        work = root / "work"
        (work / "o").mkdir(parents=True)
        shutil.copytree(shards.base / "s0", work / "d0", symlinks=True)
        shutil.copytree(shards.base / "s1", work / "d1", symlinks=True)
        (root / "outside.txt").write_text(OUTSIDE_TEXT, encoding="utf-8")
        plant(root, shards.base, m.extra.get("plant", []))
        (work / "d0" / "summary.json").write_bytes(
            m.text.replace(ROOT_TOKEN, str(root)).encode("utf-8", "surrogateescape"))
        argv = [str(binary), "merge", "--out", "o/m", "d0", "d1"]
        before = tree_listing(root, ["work/o"])
        rc, _, err = execute(argv, work, MERGE_TIMEOUT_S)
        changes = tree_changes(before, tree_listing(root, ["work/o"]))
        cls, detail = classify_named(rc, err, ["d0/", "d0:", "d1/", "d1:"], "d0/summary.json")
        if cls == "accepted":
            cls, detail = merge_accepted(m, shards, root)
        if changes and (cls in FINE or SEVERITY.index(cls) > SEVERITY.index("wrote_outside")):
            cls, detail = "wrote_outside", "changed outside o/: " + ", ".join(changes[:4])
        return Outcome(m, cls, detail, argv, rc)
    finally:
        shutil.rmtree(root, ignore_errors=True)


# Checkpoints with their checksum recomputed: `granular run ... --resume`
# (include/granular/io/checkpoint.hpp, src/io/checkpoint.cpp)

# md::for_each_state_array's order (include/granular/md/state.hpp) and element types
STATE_ARRAYS = [("x", "f64"), ("y", "f64"), ("theta", "f64"), ("vx", "f64"), ("vy", "f64"),
                ("omega", "f64"), ("ax", "f64"), ("ay", "f64"), ("alpha", "f64"),
                ("gear_high", "f64"), ("fx", "f64"), ("fy", "f64"), ("torque", "f64"),
                ("x_ref", "f64"), ("y_ref", "f64"), ("neighbors", "i32"),
                ("neighbor_count", "i32"), ("neighbor_upper", "i32"), ("cell_offset", "i32"),
                ("cell_start", "i32"), ("cell_disks", "i32"), ("grids", "CellGrid"),
                ("contacts", "ContactSlot"), ("walls", "ContactSlot"), ("body_motion", "f64"),
                ("body_walls", "ContactSlot"), ("slots_used", "u64"), ("contact_mask", "u64"),
                ("status", "u32"), ("rebuild_count", "i64")]
# the 8-byte words of an element (those of 4-byte elements hold two)
ELEMENT_WORDS = {
    "f64": ["f64"], "i64": ["i64"], "u64": ["u64"], "i32": ["i32x2"], "u32": ["u32x2"],
    "ContactSlot": ["i32x2 partner,mirror", "f64 skin.theta_a", "f64 skin.theta_b",
                    "f64 skin.anchor_x", "f64 skin.anchor_y", "f64 skin.xi_anchor"],
    "CellGrid": ["i32x2 nx,ny", "f64 size", "f64 y_min"],
    "RotationStats": ["i64 count"] + [f"f64 {n}" for n in (
        "t_first", "theta_first", "t_last", "theta_last", "mean_tau", "mean_phi", "m2_tau",
        "m2_phi", "c_tau_phi", "mean_rate", "m2_rate")],
}
DAMAGES = ["nan", "inf", "-inf", "1e300", "-1e300", "1e3", "1e6", "1e30", "-1e3", "x1.001",
           "x0.999", "x10", "x-1", "int64 -1", "int64 2^62"]


@dataclass
class Region:
    name: str
    start: int  # offset of its first byte in the file
    size: int  # bytes
    elem: int  # bytes per element
    kind: str  # a key of ELEMENT_WORDS


@dataclass
class Checkpoint:
    stopped: Path  # the interrupted run's folder (checkpoint.bin, the streamed files)
    reference: Path  # the uninterrupted run's folder
    data: bytes  # stopped/checkpoint.bin
    regions: list  # the state's Regions: step, t0, the arrays, rotation
    header_end: int
    resume_identical: bool  # the unmutated checkpoint resumes to the reference's results
    nulls: set  # the nulls the reference's summary holds
    stopped_after: float  # seconds from the start to SIGINT


def parse_checkpoint(data):
    """(state regions, end of the header) of a checkpoint: the header is read field by field and
    each array's extent from its count, element sizes from the file's layout line."""
    pos = 0

    def take(fmt):
        nonlocal pos
        values = struct.unpack_from(fmt, data, pos)
        pos += struct.calcsize(fmt)
        return values

    def text():
        nonlocal pos
        (n,) = take("<Q")
        pos += n
    if data[:8] != b"GRANCKPT":
        raise ValueError("not a granular checkpoint")
    pos = 8
    take("<I")  # version
    sizes = dict(zip(["double", "ContactSlot", "CellGrid", "RotationStats"], take("<4I")))
    text()  # fingerprint
    text()  # backend
    (streams,) = take("<Q")
    for _ in range(streams):
        text()
        take("<QQ")
    take("<iqqddd")  # RunPosition
    (gammas,) = take("<Q")
    pos += 8 * gammas
    header_end = pos
    regions = [Region("step", pos, 8, 8, "i64"), Region("t0", pos + 8, 8, 8, "f64")]
    pos += 16
    elem = {"f64": 8, "i64": 8, "u64": 8, "i32": 4, "u32": 4}
    for kind in ("ContactSlot", "CellGrid", "RotationStats"):
        if sizes[kind] != 8 * len(ELEMENT_WORDS[kind]):
            raise ValueError(f"sizeof({kind}) = {sizes[kind]}: update ELEMENT_WORDS")
        elem[kind] = sizes[kind]
    for name, kind in STATE_ARRAYS + [("rotation", "RotationStats")]:
        (count,) = take("<Q")
        regions.append(Region(name, pos, count * elem[kind], elem[kind], kind))
        pos += count * elem[kind]
    if data[pos:pos + 8] != b"GRANCKPT" or pos + 16 != len(data):
        raise ValueError("the checkpoint's layout is not STATE_ARRAYS' (update it)")
    return regions, header_end


def word_at(region, w):
    """(file offset, word kind, label) of the 8-byte word w of a region's data."""
    byte = 8 * w
    if region.elem == 4:
        return region.start + byte, region.kind + "x2", \
            f"{region.name}[{byte // 4}..{byte // 4 + 1}]"
    field_ = ELEMENT_WORDS[region.kind][(byte % region.elem) // 8]
    kind, _, member = field_.partition(" ")
    label = f"{region.name}[{byte // region.elem}]" if region.name not in ("step", "t0") \
        else region.name
    return region.start + byte, kind, label + (f".{member}" if member else "")


def word_text(kind, word):
    if kind == "f64":
        return repr(struct.unpack("<d", word)[0])
    if kind in ("i64", "u64"):
        return str(struct.unpack("<q" if kind == "i64" else "<Q", word)[0])
    return str(struct.unpack("<ii" if kind == "i32x2" else "<II", word))


def damaged_word(rng, old, kind):
    """(the new 8 bytes, the damage drawn); redrawn while the word would stay the same."""
    for _ in range(20):
        how = rng.choice(DAMAGES)
        if how.startswith("int64"):
            new = struct.pack("<q", -1 if how.endswith("-1") else 2**62)
        elif how.startswith("x"):  # a factor on the old value, read as the word's type
            f = float(how[1:])
            if kind == "f64":
                new = struct.pack("<d", struct.unpack("<d", old)[0] * f)
            elif kind in ("i64", "u64"):
                v = round(struct.unpack("<q", old)[0] * f)
                new = struct.pack("<q", max(-2**63, min(2**63 - 1, v)))
            else:  # the first of two 32-bit integers
                fmt = "<ii" if kind == "i32x2" else "<II"
                a, b = struct.unpack(fmt, old)
                lo, hi = (-2**31, 2**31 - 1) if kind == "i32x2" else (0, 2**32 - 1)
                new = struct.pack(fmt, max(lo, min(hi, round(a * f))), b)
        else:
            new = struct.pack("<d", float(how))
        if new != old:
            break
    return new, how


def checkpoint_mutant(seed, k, ckpt):
    """Damage k: one 8-byte word of the state (an array drawn first, then a word of it,
    counted from the array's start) overwritten with a hostile value."""
    rng = random.Random(f"{seed}/checkpoint/{k}")
    region = rng.choice([r for r in ckpt.regions if r.size >= 8])
    offset, kind, label = word_at(region, rng.randrange(region.size // 8))
    old = ckpt.data[offset:offset + 8]
    new, how = damaged_word(rng, old, kind)
    m = Mutant("c", k, Path("checkpoint.bin"), region.name, ops=[how])
    m.what = [f"{label} (byte {offset}): {word_text(kind, old)} -> {word_text(kind, new)} ({how})"]
    m.extra = {"offset": offset, "word": new, "array": region.name, "label": label,
               "old": word_text(kind, old), "new": word_text(kind, new), "how": how}
    return m


def damaged_checkpoint(ckpt, m):
    """The stopped run's checkpoint with the mutant's word, its checksum recomputed."""
    data = bytearray(ckpt.data)
    offset = m.extra["offset"]
    data[offset:offset + 8] = m.extra["word"]
    data[-8:] = struct.pack("<Q", checksum(bytes(data[:-8])))
    return bytes(data)


def resumed_class(out, ckpt):
    """(class, detail, statuses) of a resume that exited 0, against the uninterrupted run:
    the packings' omega_bar, rho2, sigma_a and status, energy.csv and disks.csv."""
    if not (out / "summary.json").exists():
        return "no_summary", "exit 0 without summary.json", []
    statuses, problems = inspect_output(out, "packing_ensemble", ckpt.nulls)
    if problems:
        problems.sort(key=lambda p: SEVERITY.index(p[0]))
        return problems[0][0], problems[0][1], statuses
    got = parse_summary(out / "summary.json").get("packings") or []
    want = parse_summary(ckpt.reference / "summary.json")["packings"]
    keys = ("omega_bar", "rho2", "sigma_a", "status")
    same = len(got) == len(want) and all(
        dump([p.get(k) for k in keys]) == dump([q.get(k) for k in keys]) for p, q in zip(got, want))
    same = same and all((out / f).exists() and
                        (out / f).read_bytes() == (ckpt.reference / f).read_bytes()
                        for f in ("energy.csv", "disks.csv"))
    if same:
        return "resumed_identical", "", statuses
    if any(s != "ok" for s in statuses):
        return "resumed_flagged", "", statuses
    return "resumed_different_ok", "", statuses


def resume_argv(binary):
    return [str(binary), "run", str(ENSEMBLE_CASE), "--threads", "1"] + \
        set_args(CHECKPOINT_SETS) + ["--out", "out", "--resume"]


def checkpoint_one(binary, m, ckpt, workroot):
    """`granular run ... --resume` from a copy of the stopped run with the damaged checkpoint."""
    trial = Path(tempfile.mkdtemp(dir=workroot))
    try:
        out = trial / "out"
        shutil.copytree(ckpt.stopped, out)
        (out / "checkpoint.bin").write_bytes(damaged_checkpoint(ckpt, m) if m else ckpt.data)
        argv = resume_argv(binary)
        rc, _, err = execute(argv, trial, RESUME_TIMEOUT_S)
        cls, detail = classify_named(rc, err, ["out/checkpoint.bin:"], "out/checkpoint.bin")
        statuses = []
        if cls == "accepted":
            cls, detail, statuses = resumed_class(out, ckpt)
        return Outcome(m, cls, detail, argv, rc, statuses)
    finally:
        shutil.rmtree(trial, ignore_errors=True)


def make_checkpoint(binary, workroot):
    """The uninterrupted run of the shortened case, the same run stopped by SIGINT (exit 75,
    checkpoint.bin), and a resume of the unmutated checkpoint, once."""
    base = workroot / "checkpoint"
    base.mkdir()
    argv = [str(binary), "run", str(ENSEMBLE_CASE), "--threads", "1"] + set_args(CHECKPOINT_SETS)
    rc, _, err = execute(argv + ["--out", str(base / "reference")], base, 600)
    if rc != 0:
        sys.exit(f"hostile_campaign: the uninterrupted run: exit {rc}: {err.strip()[-300:]}")
    delay = STOP_AFTER_S
    for _ in range(8):
        shutil.rmtree(base / "stopped", ignore_errors=True)
        p = subprocess.Popen(argv + ["--out", str(base / "stopped")], cwd=base,
                             stdout=subprocess.DEVNULL, stderr=subprocess.PIPE)
        time.sleep(delay)
        p.send_signal(signal.SIGINT)
        _, err = p.communicate(timeout=600)
        if p.returncode == 75 and (base / "stopped" / "checkpoint.bin").exists():
            break
        delay = delay / 2 if p.returncode == 0 else delay * 1.5  # finished / not yet started
    else:
        sys.exit("hostile_campaign: could not stop the run with a checkpoint")
    data = (base / "stopped" / "checkpoint.bin").read_bytes()
    if struct.unpack("<Q", data[-8:])[0] != checksum(data[:-8]):
        sys.exit("hostile_campaign: the checksum reimplemented here does not match checkpoint.bin's")
    regions, header_end = parse_checkpoint(data)
    ckpt = Checkpoint(base / "stopped", base / "reference", data, regions, header_end, False,
                      learned_nulls(base / "reference", "packing_ensemble"), delay)
    ckpt.resume_identical = checkpoint_one(binary, None, ckpt, workroot).cls == "resumed_identical"
    return ckpt


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
    if o.mutant.stage in "gGsc":
        return (f"/usr/bin/python3 tools/hostile_campaign.py {shlex.quote(str(args.binary))} "
                f"--seed {args.seed} --only {o.mutant.stage}:{o.mutant.index}")
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
        stage = STAGES[o.mutant.stage] + (" precheck" if o.note else "")
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
    order = FINE_ORDER + SEVERITY
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


def new_mode_options(args):
    """The options of the modes of issue 32 that are on, as on the command line."""
    out = ""
    if args.registries:
        out += f" --registries {args.registries} --registry-runs {args.registry_runs}"
    if args.summaries:
        out += f" --summaries {args.summaries}"
    if args.checkpoints:
        out += f" --checkpoints {args.checkpoints}"
    return out


def report_header(rep, args, v_outcomes, r_outcomes, elapsed, more=None):
    rep.add("# Hostile-input campaign (issue 20)")
    rep.add()
    rep.add(f"- binary: `{args.binary}`")
    rep.add(f"- command: `/usr/bin/python3 tools/hostile_campaign.py {args.binary} "
            f"--validate {args.validate} --runs {args.runs} --seed {args.seed} --jobs {args.jobs}"
            f"{new_mode_options(args)}`")
    rep.add(f"- address space of each granular process: "
            f"{f'{args.memory_limit:g} GiB' if args.memory_limit > 0 else 'not capped'}")
    rep.add(f"- wall time: {elapsed / 60:.1f} min")
    rep.add()
    runs = [o for o in r_outcomes if not o.note]  # not the failures of a validate precheck
    rep.add("## Verdict")
    rep.add()
    if args.validate:
        rep.add(f"- validate: {len(v_outcomes)} mutants, {count(v_outcomes, 'signal')} signals, "
                f"{count(v_outcomes, 'exit1')} exit 1, "
                f"{sum(o.cls not in FINE for o in v_outcomes)} findings in all")
    if args.runs:
        rep.add(f"- run: {len(runs)} short runs, {count(r_outcomes, 'signal')} signals, "
                f"{count(r_outcomes, 'exit1')} exit 1, "
                f"{count(r_outcomes, 'unflagged_non_finite')} unflagged non-finite, "
                f"{sum(o.cls not in FINE for o in r_outcomes)} findings in all")
    more = more or {}
    for stage, label in (("g", "registries, dry runs"), ("G", "registries, real runs"),
                         ("s", "summaries"), ("c", "checkpoints")):
        if stage in more:
            os_ = more[stage]
            fine = Counter(o.cls for o in os_ if o.cls in FINE)
            rep.add(f"- {label}: {len(os_)}; "
                    + ", ".join(f"{c} {n}" for c, n in sorted(fine.items()))
                    + f"; {count(os_, 'signal')} signals, {count(os_, 'exit1')} exit 1, "
                    f"{sum(o.cls not in FINE for o in os_)} findings in all")
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
        stages = Counter(STAGES[x.mutant.stage] for x in os_)
        rep.add(f"### {n}. {key[0]}: {', '.join(k for k in key[1:] if k)}")
        rep.add()
        rep.add(f"- count: {len(os_)} ({', '.join(f'{s} {c}' for s, c in stages.items())}); "
                f"models: {', '.join(f'{m} {c}' for m, c in models.most_common())}")
        rep.add(f"- example: {o.mutant.stage}:{o.mutant.index} `{o.mutant.case.name}`"
                f"{' (' + o.note + ')' if o.note else ''}: {'; '.join(o.mutant.what)}")
        rep.add(f"- reproduce: `{short(reproducer(o, args), 400)}`")
        rep.add()


def ops_rows(outcomes, fine_columns):
    """(mutation, mutants with it, per fine class..., findings) rows."""
    ops = defaultdict(Counter)
    for o in outcomes:
        for op in set(o.mutant.ops):
            ops[op][o.cls if o.cls in FINE else "finding"] += 1
    return [(op, sum(c.values()), *[c[f] for f in fine_columns], c["finding"])
            for op, c in sorted(ops.items())]


def report_registries(rep, g_outcomes, run_outcomes, counters, bases):
    rep.add("## Registries (`granular reproduce --registry`)")
    rep.add()
    sizes = ", ".join(f"{n}: {len(d['results'])} results" for n, d in bases)
    rep.add(f"{len(g_outcomes)} mutants of {len(bases)} small registries ({sizes}; each in "
            "DIR/papers/stated_results.json beside a copy of cases/, with a link out of it, a "
            "link to /dev/zero, a FIFO and files holding the number "
            f"{MARKER} outside the run folders), given to `granular reproduce --dry-run`. A "
            "finding is also a refusal that is not one line starting with the registry's path, "
            "or anything changed outside DIR/rep.")
    rep.add()
    rep.table(["class", "count"], per_class_rows(g_outcomes))
    by_base = defaultdict(list)
    for o in g_outcomes:
        by_base[o.mutant.model].append(o)
    rep.table(["registry", "mutants", "exit 0", "exit 2 (one line)", "findings"],
              [(b, len(os_), count(os_, "accepted"), count(os_, "refused"),
                sum(o.cls not in FINE for o in os_)) for b, os_ in sorted(by_base.items())])
    rep.table(["mutation", "mutants with it", "exit 0", "exit 2", "findings"],
              ops_rows(g_outcomes, ["accepted", "refused"]))
    runs = [o for o in run_outcomes if not o.note]
    rep.add(f"{len(runs)} real reproductions (`--threads 1 --max-cost 1`) of mutants a dry run "
            f"accepted (targeted mutations: expressions, the files they read, ids, run names, "
            f"case paths, values that are not finite numbers; no number of the runs' overrides). "
            f"Drawn: {counters['registry_refused']} refused by the dry run, "
            f"{counters['registry_precheck']} whose dry run failed (listed below), "
            f"{counters['registry_slot_given_up']} slots found none. A finding is also a result "
            f"that holds the number {MARKER} (a file read outside its run's folder), a verdict "
            "'agrees' or 'disagrees' whose value is not a finite number, or anything changed "
            "outside DIR/rep.")
    rep.add()
    rep.table(["class", "count"], per_class_rows(run_outcomes))
    verdicts = Counter(v for o in runs for v in o.statuses)
    rep.add("Verdicts reported: " + (", ".join(f"{v} {n}" for v, n in verdicts.most_common())
                                     or "none") + ".")
    rep.add()
    rep.table(["mutation", "runs with it", "ran", "refused", "findings"],
              ops_rows(runs, ["ran", "refused"]))


def report_summaries(rep, s_outcomes):
    rep.add("## Shard summaries (`granular merge`)")
    rep.add()
    rep.add(f"{len(s_outcomes)} mutants of d0/summary.json, d0 and d1 copies of HostileMerge's "
            "two shards of tests/data/good_ensemble.json, merged with `granular merge --out o/m "
            "d0 d1`. Fine: a refusal in one line naming d0 or d1; a merge identical to the "
            "unmutated shards' (`merged_same`) or not (`merged_different`: the summary's values "
            "are taken as they are), or without a snapshot whose record was deleted "
            "(`merged_dropped_snapshot`). Findings: a merge that exits 0 with a record naming "
            "a file that is not the shard's own (`merged_foreign_record`), a name that is not "
            "plain (`merged_nonplain_name`), a record whose bytes or checksum are not the file's "
            "(`merged_bad_record`), a file read through a link out of the shard "
            "(`merged_through_link`); anything changed outside o/.")
    rep.add()
    rep.table(["class", "count"], per_class_rows(s_outcomes))
    rep.table(["mutation", "mutants with it", "same", "different", "dropped snapshot", "refused",
               "findings"],
              ops_rows(s_outcomes, ["merged_same", "merged_different", "merged_dropped_snapshot",
                                    "refused"]))


def report_checkpoints(rep, c_outcomes, ckpt):
    rep.add("## Checkpoints with their checksum recomputed (`granular run ... --resume`)")
    rep.add()
    regions = [r for r in ckpt.regions if r.size >= 8]
    rep.add(f"tests/data/good_ensemble.json with `{' '.join(set_args(CHECKPOINT_SETS))}`, "
            f"stopped by SIGINT after {ckpt.stopped_after:.2g} s (exit 75): a checkpoint of "
            f"{len(ckpt.data)} bytes, its state from byte {ckpt.header_end} "
            f"({len(regions)} arrays and scalars of 8 bytes or more). Each of {len(c_outcomes)} "
            "damages overwrites one 8-byte word of the state (an array drawn, then a word "
            "counted from its start) with a hostile double or int64, recomputes the trailing "
            "checksum and resumes a copy of the stopped folder. The unmutated checkpoint resumes "
            + ("to the uninterrupted run's results bitwise." if ckpt.resume_identical else
               "to OTHER results than the uninterrupted run's: the classes below mean little."))
    rep.add()
    rep.table(["class", "count"], per_class_rows(c_outcomes))
    by_array = defaultdict(Counter)
    for o in c_outcomes:
        by_array[o.mutant.model][o.cls if o.cls in FINE else "finding"] += 1
    columns = ["refused", "resumed_identical", "resumed_flagged", "resumed_different_ok",
               "finding"]
    rep.table(["array", "damages"] + columns,
              [(a, sum(c.values()), *[c[k] for k in columns])
               for a, c in sorted(by_array.items(), key=lambda kv: [r.name for r in
                                                                    ckpt.regions].index(kv[0]))])
    different = [o for o in c_outcomes if o.cls == "resumed_different_ok"]
    rep.add(f"Resumed with other results and every packing 'ok' ({len(different)}): the word, "
            "its old and new value (a state a run could have reached, or one the reach checks "
            "should refuse).")
    rep.add()
    if different:
        rep.table(["damage", "word", "old", "new", "drawn"],
                  [(f"c:{o.mutant.index}", o.mutant.extra["label"], o.mutant.extra["old"],
                    o.mutant.extra["new"], o.mutant.extra["how"]) for o in different])


def build_report(args, v_outcomes, r_outcomes, counters, elapsed, dup_accepted, more=None):
    """The Markdown report; `more` holds the outcomes of the modes of issue 32 by stage ("g",
    "G", "s", "c") and what they were built from ("bases", "checkpoint")."""
    more = more or {}
    rep = Report()
    report_header(rep, args, v_outcomes, r_outcomes, elapsed, more)
    if args.validate:
        report_validate(rep, v_outcomes, dup_accepted)
    if args.runs:
        report_runs(rep, r_outcomes, counters)
    if "g" in more:
        report_registries(rep, more["g"], more["G"], counters, more["bases"])
    if "s" in more:
        report_summaries(rep, more["s"])
    if "c" in more:
        report_checkpoints(rep, more["c"], more["checkpoint"])
    everything = v_outcomes + r_outcomes + [o for k in "gGsc" for o in more.get(k, [])]
    report_failures(rep, args, [o for o in everything if o.cls not in FINE])
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
    p.add_argument("--only", metavar="v:K|r:K|g:K|G:K|s:K|c:K",
                   help="rebuild and rerun one mutant only (g: registry dry run, G: registry "
                        "run slot, s: summary, c: checkpoint)")
    p.add_argument("--registries", type=int, default=0, metavar="N",
                   help="mutants of small registries given to `granular reproduce --dry-run` "
                        f"(default 0); one in {REGISTRY_RUN_SHARE} slots also runs one")
    p.add_argument("--registry-runs", type=int, default=20, metavar="M",
                   help="at most this many real reproductions (--max-cost 1) of registry "
                        "mutants (default 20)")
    p.add_argument("--summaries", type=int, default=0, metavar="N",
                   help="mutants of a shard's summary.json given to `granular merge` (default 0)")
    p.add_argument("--checkpoints", type=int, default=0, metavar="N",
                   help="checkpoints damaged with their checksum recomputed, resumed "
                        "(default 0)")
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


def keep_context(args, shards=None, ckpt=None):
    """What keep_new needs: the unmutated shards and the stopped run, copied into --keep once."""
    ctx = {"checkpoint": ckpt}
    if args.keep and shards:
        ctx["keep_shards"] = args.keep / "shards"
        for name in ("s0", "s1"):
            if not (args.keep / "shards" / name).exists():
                shutil.copytree(shards.base / name, args.keep / "shards" / name, symlinks=True)
    if args.keep and ckpt:
        ctx["keep_stopped"] = args.keep / "checkpoint_stopped"
        ctx["keep_reference"] = args.keep / "checkpoint_reference"
        for name, source in (("checkpoint_stopped", ckpt.stopped),
                             ("checkpoint_reference", ckpt.reference)):
            if not (args.keep / name).exists():
                shutil.copytree(source, args.keep / name)
    return ctx


def only(args, cases, slots, by_model, workroot):
    """--only v:K, r:K, g:K, G:K, s:K or c:K: rebuild one mutant, rerun it, print what
    happened."""
    stage, k = args.only.split(":")
    k = int(k)
    ctx = {}
    if stage == "v":
        outcomes = [validate_one(args.binary, validate_mutant(args.seed, k, cases), workroot)]
    elif stage == "r":  # the nulls of the slot's unmutated cases, as in the campaign
        model = slots[k % len(slots)]
        baselines = {path: baseline_one(args.binary, path, model, workroot)
                     for path, _ in by_model[model]}
        outcomes = run_slot(args.binary, args.seed, k, slots, by_model, workroot, baselines,
                            Counter(), threading.Lock())
    elif stage == "g":
        m = registry_mutant(args.seed, k, load_registry_bases())
        outcomes = [registry_one(args.binary, m, workroot)]
    elif stage == "G":
        outcomes = registry_run_slot(args.binary, args.seed, k, load_registry_bases(), workroot,
                                     Counter(), threading.Lock())
    elif stage == "s":
        shards = make_shards(args.binary, workroot)
        ctx = keep_context(args, shards=shards)
        outcomes = [summary_one(args.binary, summary_mutant(args.seed, k, shards), shards,
                                workroot)]
    else:
        ckpt = make_checkpoint(args.binary, workroot)
        ctx = keep_context(args, ckpt=ckpt)
        outcomes = [checkpoint_one(args.binary, checkpoint_mutant(args.seed, k, ckpt), ckpt,
                                   workroot)]
    for o in outcomes:
        if args.keep and (o.cls not in FINE or o.cls == "resumed_different_ok"):
            if stage in "vr":
                keep(o, args.keep)
            else:
                keep_new(o, args, ctx)
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
        more = new_modes(args, pool, workroot, counters, lock)
    dup_accepted = sum(1 for o in v_outcomes
                       if set(o.mutant.ops) == {"duplicate_key"} and o.cls == "accepted")
    text = build_report(args, v_outcomes, r_outcomes, counters, time.time() - started,
                        dup_accepted, more)
    print(text)
    if args.report:
        args.report.write_text(text, encoding="utf-8")
    failures = [o for o in v_outcomes + r_outcomes + [o for k in "gGsc" for o in more.get(k, [])]
                if o.cls not in FINE]
    return 1 if failures else 0


def run_mode(label, pool, work, total):
    """The outcomes of `work` (index -> outcome or list of outcomes) over range(total)."""
    outcomes, started = [], time.time()
    for k, got in enumerate(pool.map(work, range(total)), 1):
        outcomes.extend(got if isinstance(got, list) else [got])
        if k % 10 == 0 or k == total:
            progress(label, k, total, started, sum(x.cls not in FINE for x in outcomes))
    if total:
        print(file=sys.stderr)
    return outcomes


def new_modes(args, pool, workroot, counters, lock):
    """The registry, summary and checkpoint modes (issue 32), those that are on."""
    more = {}
    if args.registries:
        bases = load_registry_bases()
        more["bases"] = bases
        more["g"] = run_mode("registries", pool, lambda k: finish_new(registry_one(
            args.binary, registry_mutant(args.seed, k, bases), workroot), args, {}),
            args.registries)
        slots = min(args.registry_runs, -(-args.registries // REGISTRY_RUN_SHARE))
        more["G"] = run_mode("registry runs", pool, lambda r: [
            finish_new(o, args, {}) for o in registry_run_slot(
                args.binary, args.seed, r, bases, workroot, counters, lock)], slots)
    if args.summaries:
        shards = make_shards(args.binary, workroot)
        ctx = keep_context(args, shards=shards)
        more["s"] = run_mode("summaries", pool, lambda k: finish_new(summary_one(
            args.binary, summary_mutant(args.seed, k, shards), shards, workroot), args, ctx),
            args.summaries)
    if args.checkpoints:
        ckpt = make_checkpoint(args.binary, workroot)
        more["checkpoint"] = ckpt
        ctx = keep_context(args, ckpt=ckpt)
        more["c"] = run_mode("checkpoints", pool, lambda k: finish_new(checkpoint_one(
            args.binary, checkpoint_mutant(args.seed, k, ckpt), ckpt, workroot), args, ctx),
            args.checkpoints)
    return more


if __name__ == "__main__":
    sys.exit(main())
