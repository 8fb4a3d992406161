"""granular.run: a case run as ``granular run`` runs it."""
import os
import shutil
import tempfile

from . import _core
from ._cases import Case, _check_threads
from ._core import CaseError
from ._results import read


def run(case, out=None, threads=None, backend="cpu", progress=None, resume=False, force=False,
        checkpoint_interval=600.0):
    """Runs a case (any model) and returns its :class:`Result`.

    out                  the output folder: the CLI's files are written there (refused when it
                         holds another run's files, unless force=True). None: a temporary
                         folder, removed after its files are read.
    threads              CPU threads (None: the OpenMP default)
    backend              "cpu" or "cuda" (packing ensembles)
    progress             None, or a callable receiving each progress line (str)
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
    if progress is not None:
        request.progress = progress
    temporary = out is None
    if temporary:
        if resume:
            raise CaseError("resume: needs the folder of the interrupted run (out=...)")
        out = tempfile.mkdtemp(prefix="granular-")
    request.out = os.fspath(out)
    try:
        report = _core.run_case(case._loaded, request)
        result = read(request.out, report)
    except KeyboardInterrupt:
        checkpoint = os.path.join(request.out, "checkpoint.bin")
        if not temporary and os.path.exists(checkpoint):
            raise KeyboardInterrupt(f"run interrupted; checkpoint in {checkpoint}: run again "
                                    "with resume=True to continue") from None
        raise
    finally:
        if temporary:
            shutil.rmtree(request.out, ignore_errors=True)
    if temporary:
        result.out = None
    return result
