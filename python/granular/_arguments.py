"""Checks of call arguments (docs/python.md, "Errors"): a wrong type raises TypeError, a value
out of its range ValueError, an index out of range IndexError, each naming the argument and
what it got. granular.CaseError is for cases, as the CLI's bad input."""
import math
import numbers
import operator


def integer(value, name):
    """An int or a numpy integer (not a bool, not a float: 1.5 is no count)."""
    if isinstance(value, bool):
        raise TypeError(f"{name}: expected an integer, got {value!r}")
    try:
        return operator.index(value)
    except TypeError:
        raise TypeError(f"{name}: expected an integer, got {value!r}") from None


def number(value, name):
    """A real number (int, float, numpy scalar; not a bool)."""
    if isinstance(value, bool) or not isinstance(value, numbers.Real):
        raise TypeError(f"{name}: expected a number, got {value!r}")
    return float(value)


def finite(value, name):
    """A real number that is finite."""
    x = number(value, name)
    if not math.isfinite(x):
        raise ValueError(f"{name}: expected a finite number, got {x!r}")
    return x


def index(value, count, name):
    """An index into `count` items, Python's way: -1 is the last."""
    i = integer(value, name)
    if not -count <= i < count:
        raise IndexError(f"{name}: {i} is out of range for {count} item(s)")
    return i % count


def threads(value):
    """None (the OpenMP default) or a thread count, as the CLI's --threads takes it."""
    if value is None:
        return None
    n = integer(value, "threads")
    if not 1 <= n <= 4096:
        raise ValueError(f"threads: expected an integer from 1 to 4096, got {n}")
    return n
