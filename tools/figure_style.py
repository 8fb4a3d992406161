"""Print sizes, formats and readable axes shared by the figure tools (docs/figures.md).

Every tool takes --format png|pdf|svg and --width single|double|INCHES: the journal column
widths (single 3.5 in = 89 mm, double 7.2 in = 183 mm); each figure keeps its own aspect, so
the height follows. Text is set at 8 pt (ticks and legends 7 pt), the size journals ask for,
and grows only on figures wider than a double column (slides, screens).
"""
import argparse
import math
import os
import re
import sys

import matplotlib
import matplotlib.ticker

FORMATS = ("png", "pdf", "svg")
WIDTHS = {"single": 3.5, "double": 7.2}
PNG_DPI = 300  # a print raster: a single column is 1050 pixels wide
BASE_PT = 8.0

_width = None  # inches, from --width; None: each figure's own column count decides


def width_inches(text):
    """--width's value: single, double or a width in inches."""
    if text in WIDTHS:
        return WIDTHS[text]
    try:
        inches = float(text)
    except ValueError:
        inches = math.nan
    if not 1.0 <= inches <= 40.0:
        raise argparse.ArgumentTypeError(f"{text!r}: single, double or a width in inches "
                                         "(1 to 40)")
    return inches


def add_arguments(parser, output=True):
    """--format, --width and (output=True) --output FILE, whose older name --png stays."""
    parser.add_argument("--format", choices=FORMATS,
                        help="file format (default: the output name's extension, else png)")
    parser.add_argument("--width", type=width_inches, metavar="single|double|INCHES",
                        help="figure width: a journal's single (3.5 in) or double (7.2 in) "
                             "column, or inches (default: the figure's own column count)")
    if output:
        parser.add_argument("--output", "--png", dest="output", metavar="FILE",
                            help="the file to write (--png FILE: its older name)")


def apply(args):
    """Takes --width for every figure drawn after it and sets the print style."""
    global _width
    _width = args.width
    base = BASE_PT * max(1.0, (_width or 0.0) / WIDTHS["double"])
    small = base - 1.0
    matplotlib.rcParams.update({
        "font.size": base, "axes.labelsize": base, "axes.titlesize": base,
        "figure.titlesize": base + 1.0, "xtick.labelsize": small, "ytick.labelsize": small,
        "legend.fontsize": small, "legend.title_fontsize": small,
        "legend.handlelength": 2.8,  # long enough to tell a dashed sample from a dotted one
        "lines.linewidth": 1.0, "lines.markersize": 4.0, "errorbar.capsize": 2.0,
        "axes.linewidth": 0.6, "xtick.major.width": 0.6, "ytick.major.width": 0.6,
        "xtick.minor.width": 0.4, "ytick.minor.width": 0.4,
        "xtick.major.size": 3.0, "ytick.major.size": 3.0,
        "xtick.minor.size": 1.8, "ytick.minor.size": 1.8,
        "pdf.fonttype": 42, "ps.fonttype": 42,  # TrueType, not Type 3: what journals accept
        "savefig.dpi": PNG_DPI,
    })


def figsize(aspect, columns=1):
    """(width, height) in inches: --width, else a single or double column; height =
    aspect * width."""
    width = _width or WIDTHS["double" if columns == 2 else "single"]
    return width, aspect * width


def target(args, default_stem, explicit=None):
    """(file, format) to write: the explicit name (a positional OUT or --output) or
    default_stem + the format's extension. The format is --format, else the explicit name's
    extension, else png; a name without that extension gets it appended."""
    explicit = explicit or getattr(args, "output", None)
    ext = os.path.splitext(explicit)[1].lower().lstrip(".") if explicit else ""
    fmt = args.format or (ext if ext in FORMATS else "png")
    if not explicit:
        return f"{default_stem}.{fmt}", fmt
    if ext in FORMATS and ext != fmt:
        sys.exit(f"{explicit}: a .{ext} name for a {fmt} file; name it .{fmt} or drop --format")
    return (explicit if ext == fmt else f"{explicit}.{fmt}"), fmt


def save(fig, path, fmt):
    """Writes fig at its own size (no tight bounding box: the width stays the column's)."""
    fig.savefig(path, format=fmt, dpi=PNG_DPI)


def finish(fig, args, default_stem):
    """Lays fig out and writes it where args ask (target), printing the path."""
    fig.tight_layout()
    path, fmt = target(args, default_stem)
    save(fig, path, fmt)
    print(path)


# ---------------------------------------------------------------- titles


def _visible_length(token):
    """Characters a token prints as: mathtext commands count one, markup none."""
    return len(re.sub(r"[${}^_]", "", re.sub(r"\\[A-Za-z]+", "x", token)))


def wrap(text, ax, fontsize=None):
    """text broken into lines that fit ax's width, never inside $...$ (an estimate: a
    character is about half the font size wide)."""
    fontsize = fontsize or matplotlib.rcParams["font.size"]
    fig = ax.get_figure()
    width_pt = 72.0 * fig.get_figwidth() * ax.get_position().width
    per_line = max(20, int(width_pt / (0.52 * fontsize)))
    lines, line, length = [], [], 0
    for token in re.findall(r"(?:\$[^$]*\$|[^\s$])+", text):
        n = _visible_length(token)
        if line and length + 1 + n > per_line:
            lines.append(" ".join(line))
            line, length = [], 0
        line.append(token)
        length += n + (1 if length else 0)
    if line:
        lines.append(" ".join(line))
    return "\n".join(lines)


def title(ax, what, detail=None):
    """A title saying what the axes show, then a detail (the case, how to read it) wrapped to
    the axes' width."""
    ax.set_title(what + (f"\n{wrap(detail, ax)}" if detail else ""))


def case_subtitle(case, longest=90):
    """The case's name in words: its description up to the first colon (the shipped cases say
    what they are before it), cut at a word within `longest` characters."""
    text = ((case or {}).get("description") or "").split(": ", 1)[0].strip().rstrip(".")
    if len(text) > longest:
        text = text[:longest].rsplit(" ", 1)[0] + " …"
    return text


# ---------------------------------------------------------------- log axes


class ReadableLogLocator(matplotlib.ticker.Locator):
    """Major ticks of a log axis that leave at least two labelled: the decades where the view
    holds two of them; else the sparsest of 1-2-5, 1-2-3-5 and 1 ... 9 times a decade that
    labels four (else the one with most); else evenly spaced."""

    def __call__(self):
        lo, hi = self.axis.get_view_interval()
        return self.tick_values(lo, hi)

    def tick_values(self, vmin, vmax):
        lo, hi = sorted((vmin, vmax))
        if not (hi > 0 and math.isfinite(hi)):
            return []
        lo = lo if lo > 0 and math.isfinite(lo) else hi / 10.0
        k0, k1 = math.floor(math.log10(lo)), math.ceil(math.log10(hi))
        inside = lambda v: lo * (1 - 1e-9) <= v <= hi * (1 + 1e-9)  # noqa: E731
        decades = [10.0 ** k for k in range(k0, k1 + 1) if inside(10.0 ** k)]
        if len(decades) >= 2:
            step = max(1, math.ceil(len(decades) / 8))  # at most about 8 labels
            return decades[::step]
        best = []
        for subs in ((1, 2, 5), (1, 2, 3, 5), range(1, 10)):  # the sparsest with 4 labels
            ticks = [float(f"{s}e{k}") for k in range(k0, k1 + 1) for s in subs]
            ticks = [v for v in ticks if inside(v)]
            if len(ticks) >= 4:
                return ticks
            best = ticks if len(ticks) > len(best) else best
        if len(best) >= 2:
            return best
        return [v for v in matplotlib.ticker.MaxNLocator(4).tick_values(lo, hi) if inside(v)]


class ReadableLogFormatter(matplotlib.ticker.Formatter):
    """Plain numbers (0.5, 1, 20) where every label of the axis is between 0.01 and 10^4,
    else powers of ten (and a x 10^k where a tick is not a decade)."""

    def __call__(self, x, pos=None):
        if x <= 0:
            return ""
        if all(1e-2 <= v < 1e4 for v in self.locs if v > 0):
            return f"{x:g}"
        k = math.floor(math.log10(x) + 1e-9)
        mantissa = x / 10.0 ** k
        if abs(mantissa - 1.0) < 1e-6:
            return f"$10^{{{k}}}$"
        return f"${mantissa:g}\\times10^{{{k}}}$"


def readable_log_axis(axis):
    """Labelled major ticks that say where the data are (ReadableLogLocator), unlabelled minor
    ticks at 2 ... 9 times each decade. Call after set_xscale/set_yscale("log")."""
    axis.set_major_locator(ReadableLogLocator())
    axis.set_major_formatter(ReadableLogFormatter())
    axis.set_minor_locator(matplotlib.ticker.LogLocator(subs=range(1, 10), numticks=100))
    axis.set_minor_formatter(matplotlib.ticker.NullFormatter())


def readable_log_axes(ax):
    """readable_log_axis on each log axis of ax."""
    for axis, scale in ((ax.xaxis, ax.get_xscale()), (ax.yaxis, ax.get_yscale())):
        if scale == "log":
            readable_log_axis(axis)
