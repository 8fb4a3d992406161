"""``granular ARGS`` and ``python -m granular ARGS``: the `granular` command (run, validate, merge,
reproduce, cases, schema, plot; --help).

Runs the CLI installed inside the package (granular/_bin/granular, by the wheel or
``pip install .``), or the one of the build tree the module was loaded from, or $GRANULAR_CLI.
The figure tools it starts (``granular plot``) run with this Python, which has the package's
dependencies."""
import os
import pathlib
import sys

_HERE = pathlib.Path(__file__).resolve().parent


def _is_binary(path):
    """True for an executable ELF file: never a launcher script such as this one's."""
    try:
        with open(path, "rb") as f:
            return f.read(4) == b"\x7fELF" and os.access(path, os.X_OK)
    except OSError:
        return False


def cli():
    """The `granular` executable to run, or None."""
    candidates = [os.environ.get("GRANULAR_CLI"),
                  _HERE / "_bin" / "granular",
                  # the build tree: BUILD/python/granular/__main__.py and BUILD/granular
                  _HERE.parent.parent / "granular"]
    for c in candidates:
        if c and _is_binary(c):
            return str(c)
    return None


def main():
    exe = cli()
    if exe is None:
        sys.exit("granular: the `granular` binary is not installed beside this module: install "
                 "the wheel or `pip install .`, or build it with `make` (docs/python.md)")
    os.environ.setdefault("GRANULAR_PYTHON", sys.executable)
    os.execv(exe, [exe] + sys.argv[1:])


if __name__ == "__main__":
    main()
