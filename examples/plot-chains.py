#!/usr/bin/env python3
"""Plots bench_pipeline's chain table (`bench_pipeline SECONDS chains`): fps
of each path per format against the copy floor, and fps by chain length.

    examples/plot-chains.py BENCH_OUTPUT OUT.png
"""
import sys

import matplotlib

matplotlib.use("Agg")
import matplotlib.pyplot as plt  # noqa: E402


def rows(path):
    """(size, format, path, fps) of every table row with an fps."""
    for line in open(path):
        cells = [c.strip() for c in line.strip().strip("|").split("|")]
        if len(cells) == 8 and cells[4].replace(".", "").isdigit():
            yield cells[0], cells[1], cells[2], float(cells[4])


def main(src, out):
    data = list(rows(src))
    lengths = [(int(p.split(" x ")[0]), fps) for _, _, p, fps in data
               if " x cudamedian" in p]
    formats = []
    for size, fmt, _, _ in data:
        if (size, fmt) not in formats:
            formats.append((size, fmt))
    paths = [p for s, f, p, _ in data if (s, f) == formats[0]
             and " x cudamedian" not in p]
    fig, (ax, ax2) = plt.subplots(1, 2, figsize=(13, 5.2),
                                  gridspec_kw={"width_ratios": [3, 1]})
    width = 0.8 / len(paths)
    for i, p in enumerate(paths):
        ratios = []
        for s, f in formats:
            fps = {q: v for s2, f2, q, v in data if (s2, f2) == (s, f)}
            floor = next(v for q, v in fps.items() if q.startswith("floor"))
            ratios.append(100 * fps.get(p, 0) / floor)
        ax.bar([k + i * width for k in range(len(formats))], ratios, width,
               label=p.replace(", 2 streams", ""))
    ax.axhline(85, color="k", linestyle=":", linewidth=1)
    ax.set_xticks([k + 0.4 - width / 2 for k in range(len(formats))])
    ax.set_xticklabels([f"{f}\n{s}" for s, f in formats])
    ax.set_ylabel("% of the pinned copy floor")
    ax.set_title("median ! bilateral ! gaussian, 2 frames in flight")
    ax.legend(fontsize=7, loc="upper center", bbox_to_anchor=(0.5, -0.15),
              ncol=3)
    if lengths:
        ax2.plot([n for n, _ in lengths], [v for _, v in lengths], "o-")
        ax2.set_ylim(0, max(v for _, v in lengths) * 1.2)
        ax2.set_xlabel("cudamedian elements in a row")
        ax2.set_ylabel("fps, 4K RGBA")
        ax2.set_xticks([n for n, _ in lengths])
        ax2.set_title("cost per added element")
    fig.tight_layout()
    fig.savefig(out, dpi=90)


if __name__ == "__main__":
    main(*sys.argv[1:3])
