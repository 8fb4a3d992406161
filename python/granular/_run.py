"""granular.run: a case run as ``granular run`` runs it."""
from __future__ import annotations

import os
import shutil
import tempfile
from typing import Callable, NamedTuple, Optional

from . import _core
from ._cases import Case, PathLike, _case_error, _check_threads
from ._results import Result, read


class Progress(NamedTuple):
    """What a run's progress callback receives: each line the CLI prints on stderr and, for the
    periodic lines of a packing ensemble, the numbers it shows at full precision (None in the
    other lines: "resuming from ...", "stopped at ...")."""
    line: str                  #: the line, without its newline
    phase: Optional[str]       #: "settle", "transient" or "measure"
    t: Optional[float]         #: the simulated time [s]
    fraction: Optional[float]  #: of the run done, 0 to 1
    rate: Optional[float]      #: particle-steps per second of wall time (MD; nan for ED)
    events: Optional[float]    #: collisions so far (the event-driven method; nan for MD)
    elapsed: Optional[float]   #: wall time of this run so far [s]
    eta: Optional[float]       #: wall time left at the pace so far [s] (nan until known)


def _progress_lines(callback):
    """The engine's (line, numbers or None) as one Progress for `callback`."""
    def call(line, numbers):
        callback(Progress(line, *numbers) if numbers is not None
                 else Progress(line, None, None, None, None, None, None, None))
    return call


def run(case: Case, out: Optional[PathLike] = None, threads: Optional[int] = None,
        backend: str = "cpu", progress: Optional[Callable[[Progress], object]] = None,
        resume: bool = False, force: bool = False, checkpoint_interval: float = 600.0) -> Result:
    """Runs a case (any model) and returns its :class:`Result`.

    out                  the output folder: the CLI's files are written there (refused when it
                         holds another run's files, unless force=True). None: a temporary
                         folder, removed after its files are read.
    threads              CPU threads (None: the OpenMP default)
    backend              "cpu" or "cuda" (packing ensembles)
    progress             None, or a callable receiving a :class:`Progress` per progress line
                         (the line and, for the periodic ones, phase, t, fraction, rate,
                         elapsed and eta as numbers)
    resume               continue the interrupted run in out from its checkpoint.bin
    force                clear granular's files from out first (the CLI's --force)
    checkpoint_interval  seconds of wall time between checkpoints (0: none)

    The GIL is released while the engine runs. Ctrl-C stops a packing ensemble run within
    about half a second, writes out/checkpoint.bin and raises KeyboardInterrupt; run again
    with resume=True to continue it bitwise.
    """
    if not isinstance(case, Case):
        raise TypeError("run: expected a granular.Case (load_case or case_from_dict)")
    _check_threads(threads)
    if progress is not None and not callable(progress):
        raise TypeError("run: progress must be callable or None")
    request = _core.RunRequest()
    request.threads = threads or 0
    request.backend = backend
    request.resume = resume
    request.force = force
    request.checkpoint_interval = float(checkpoint_interval)
    lines = None if progress is None else _progress_lines(progress)
    temporary = out is None
    if temporary:
        if resume:
            raise _case_error("", "resume", "needs the folder of the interrupted run (out=...)")
        out = tempfile.mkdtemp(prefix="granular-")
    out = os.fspath(out)
    try:
        report = _core.run_case(case._loaded, out, request, lines)
        result = read(out, report)
    except KeyboardInterrupt:
        checkpoint = os.path.join(out, "checkpoint.bin")
        if not temporary and os.path.exists(checkpoint):
            raise KeyboardInterrupt(f"run interrupted; checkpoint in {checkpoint}: run again "
                                    "with resume=True to continue") from None
        raise
    finally:
        if temporary:
            shutil.rmtree(out, ignore_errors=True)
    if temporary:
        result.out = None
    return result
