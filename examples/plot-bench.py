#!/usr/bin/env python3
"""Plots the markdown tables that the benchmarks print (build/tests/bench_*)
or that the docs hold, one PNG per table with timings.

    examples/plot-bench.py [-o OUTDIR] [--prefix NAME] FILE...

Save a benchmark's output first, e.g.
    build/tests/bench_median > bench_median.txt
    examples/plot-bench.py -o docs/img bench_median.txt
writes docs/img/bench-median-1.png, ... (PREFIX-N.png with --prefix): one
per table, numbered in the file's order.

A table is plotted when it has time columns: the headers ending in "ms", or,
when there are none, every number column of a table whose heading says "ms" /
"milliseconds". The x axis is the first other number column with 3 or more
values (sigma, radius, window; "5x5" counts as 5); the columns that are not a
growing function of x (format, size, passes, mode, iterations) split the rows
into panels; ratio columns ("a/b", "2.1x") are left out. A table whose
column headers are "r=1", "r=3", ... (bilateral) is read transposed: one
line per row. Needs matplotlib (Debian: python3-matplotlib).
"""
import argparse
import os
import re
import sys
import textwrap

try:
    import matplotlib
except ImportError:  # e.g. a pyenv python3 first on PATH: try the system's
    if os.path.exists("/usr/bin/python3") and sys.executable != "/usr/bin/python3":
        os.execv("/usr/bin/python3", ["/usr/bin/python3"] + sys.argv)
    sys.exit("plot-bench.py needs matplotlib (Debian: python3-matplotlib)")

matplotlib.use("Agg")
import matplotlib.pyplot as plt  # noqa: E402


def tables(text):
    """Yields (heading, header cells, rows of cells) of every markdown table."""
    heading, lines = "", text.splitlines()
    i = 0
    while i < len(lines):
        line = lines[i].strip()
        if line.startswith("#"):
            heading = line.lstrip("#").strip()
        if (line.startswith("|") and i + 1 < len(lines)
                and re.match(r"^\|[\s:|-]+\|$", lines[i + 1].strip())):
            cells = lambda l: [c.strip() for c in l.strip().strip("|").split("|")]
            header, rows, i = cells(line), [], i + 2
            while i < len(lines) and lines[i].strip().startswith("|"):
                row = cells(lines[i])
                if len(row) == len(header):
                    rows.append(row)
                i += 1
            yield heading, header, rows
            continue
        i += 1


def number(cell):
    """A cell as a float: "1.5", "5x5" -> 5; None otherwise."""
    m = re.fullmatch(r"(\d+)x(\d+)", cell)
    if m:
        return float(m.group(1)) if m.group(1) == m.group(2) else None
    try:
        return float(cell)
    except ValueError:
        return None


def is_ratio(head, values):
    return "/" in head or any(re.fullmatch(r"[\d.]+x", v) for v in values)


def series(heading, header, rows):
    """Returns (x label, y label, {panel: {line: [(x, y)]}}) or None."""
    cols = list(zip(*rows)) if rows else []
    if not cols:
        return None
    # Transposed: "| case | r=1 | r=3 |": one line per row, x from the header.
    xs = [re.fullmatch(r"(\w+)=([\d.]+)", h) for h in header[1:]]
    if len(header) > 2 and all(xs):
        lines = {}
        for row in rows:
            pts = [(float(m.group(2)), number(c)) for m, c in zip(xs, row[1:])]
            if all(y is not None for _, y in pts) and not is_ratio(row[0], row[1:]):
                lines[row[0]] = pts
        return (xs[0].group(1), "ms", {"": lines}) if lines else None
    ms_table = re.search(r"\bms\b|millisecond", heading) is not None
    # A number column: most cells are numbers; rows with others are dropped.
    numeric = [sum(number(v) is not None for v in c) >= 0.75 * len(c) or
               (all(number(v) is not None or v in ("-", "") for v in c) and
                any(number(v) is not None for v in c)) for c in cols]
    ratio = [is_ratio(h, c) for h, c in zip(header, cols)]
    xcol = next((j for j, h in enumerate(header) if numeric[j] and not ratio[j]
                 and not h.endswith("ms")
                 and len({number(v) for v in cols[j]}) >= 3), None)
    if xcol is None:
        return None
    # Columns named "... ms" when there are any, else every number column of
    # a table whose heading says ms (not "box" or "passes" beside "ours ms").
    named = [j for j, h in enumerate(header) if h.endswith(" ms") or h == "ms"]
    if not named and ms_table:
        named = [j for j in range(len(header)) if numeric[j]]
    times = [j for j in named if j != xcol and not ratio[j]]
    if not times:
        return None
    # Panel columns: the rest that take several values at one x.
    panel_cols = []
    for j in range(len(header)):
        if j == xcol or j in times or ratio[j] or header[j] == "target":
            continue
        seen = {}
        for row in rows:
            seen.setdefault(number(row[xcol]), set()).add(row[j])
        # A function of x that grows with it (radius of sigma, box of
        # radius) is not a panel; one that does not (iterations) is.
        vals = [number(next(iter(seen[x]))) for x in sorted(
            k for k in seen if k is not None)]
        derived = (all(len(v) == 1 for v in seen.values()) and
                   (None in vals or vals == sorted(vals)))
        if not derived:
            panel_cols.append(j)
    panels = {}
    for row in rows:
        if number(row[xcol]) is None:
            continue
        name = ", ".join(row[j] if number(row[j]) is None else
                         f"{header[j]} {row[j]}" for j in panel_cols)
        for j in times:
            y = number(row[j])
            if y is not None:
                panels.setdefault(name, {}).setdefault(header[j], []).append(
                    (number(row[xcol]), y))
    # A panel of one x value is no curve (e.g. one row of 3 passes).
    panels = {k: v for k, v in panels.items()
              if len({x for pts in v.values() for x, _ in pts}) >= 2}
    return (header[xcol], "ms", panels) if panels else None


def plot(title, xlabel, ylabel, panels, path):
    n = len(panels)
    ncols = min(n, 3)
    nrows = (n + ncols - 1) // ncols
    fig, axes = plt.subplots(nrows, ncols, figsize=(4.2 * ncols, 3.2 * nrows),
                             squeeze=False, sharey=True)
    for ax, (name, lines) in zip(axes.flat, panels.items()):
        for label, pts in lines.items():
            pts.sort()
            ref = re.search(r"npp|floor", label, re.I)   # what we compare to
            style = "--." if ref else "-o"
            ax.plot([p[0] for p in pts], [p[1] for p in pts], style, label=label,
                    markersize=4)
        ax.set_title(name, fontsize=9)
        ax.set_yscale("log")
        xs = [p[0] for pts in lines.values() for p in pts]
        if min(xs) > 0 and max(xs) >= 20 * min(xs):
            ax.set_xscale("log")
        ax.set_xlabel(xlabel)
        ax.grid(True, which="both", alpha=0.3)
        ax.legend(fontsize=7)
    for ax in axes.flat[n:]:
        ax.set_visible(False)
    for ax in axes[:, 0]:
        ax.set_ylabel(ylabel + " (log)")
    fig.suptitle(textwrap.fill(title, 60 * ncols), fontsize=10)
    fig.tight_layout()
    fig.savefig(path, dpi=100)
    plt.close(fig)


def main():
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("files", nargs="+")
    ap.add_argument("-o", "--outdir", default="docs/img")
    ap.add_argument("--prefix", help="output name (default: the input's name)")
    args = ap.parse_args()
    os.makedirs(args.outdir, exist_ok=True)
    written = 0
    for f in args.files:
        with open(f) as fh:
            text = fh.read()
        base = args.prefix or "bench-" + re.sub(
            r"^bench[_-]", "", os.path.splitext(os.path.basename(f))[0])
        k = 0
        for heading, header, rows in tables(text):
            s = series(heading, header, rows)
            if not s:
                continue
            k += 1
            path = os.path.join(args.outdir, f"{base}-{k}.png")
            plot(f"{os.path.basename(f)}: {heading}", s[0], s[1], s[2], path)
            print(f"wrote {path} ({heading or 'table'} {k})")
            written += 1
    if not written:
        sys.exit("no table with timings found")


if __name__ == "__main__":
    main()
