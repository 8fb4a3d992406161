"""``python -m granular ARGS``: the `granular` command (run, validate, merge; --help).

Runs the CLI installed beside the module by ``pip install .`` (the environment's bin/), or the
one of the build tree the module was loaded from, or the first `granular` on PATH."""
import os
import pathlib
import shutil
import sys
import sysconfig


def cli():
    """The `granular` executable to run, or None."""
    candidates = [os.environ.get("GRANULAR_CLI"),
                  pathlib.Path(sysconfig.get_path("scripts")) / "granular",
                  # the build tree: BUILD/python/granular/__main__.py and BUILD/granular
                  pathlib.Path(__file__).resolve().parent.parent.parent / "granular",
                  shutil.which("granular")]
    for c in candidates:
        if c and os.path.isfile(c) and os.access(c, os.X_OK):
            return str(c)
    return None


def main():
    exe = cli()
    if exe is None:
        sys.exit("python -m granular: no `granular` command found: install the package with "
                 "`pip install .`, or build it with `make` (docs/python.md)")
    os.execv(exe, [exe] + sys.argv[1:])


if __name__ == "__main__":
    main()
