#!/usr/bin/env python3
"""Plots the per-frame PSNR that tests/quality_temporal writes (--csv) as an
SVG with no plotting library: one panel per noise, one line per method.

    examples/plot-psnr.py PSNR.csv OUT.svg
"""
import csv
import sys
from collections import OrderedDict

COLOURS = ["#888888", "#1f77b4", "#d62728", "#2ca02c"]


def main():
    if len(sys.argv) != 3:
        sys.exit(__doc__)
    rows = list(csv.DictReader(open(sys.argv[1])))
    methods = [c for c in rows[0].keys() if c not in ("noise", "frame")]
    panels = OrderedDict()
    for r in rows:
        panels.setdefault(r["noise"], []).append(r)
    pw, ph, m = 360, 220, 40
    width, height = pw * len(panels) + m, ph + 2 * m + 20
    out = ['<svg xmlns="http://www.w3.org/2000/svg" width="%d" height="%d" '
           'font-family="sans-serif" font-size="11">' % (width, height),
           '<rect width="100%" height="100%" fill="white"/>']
    for i, (name, rs) in enumerate(panels.items()):
        x0, y0 = m + i * pw, m
        vals = [float(r[k]) for r in rs for k in methods]
        lo, hi = min(vals) - 1, max(vals) + 1
        n = len(rs) - 1

        def px(k):
            return x0 + k * (pw - m) / max(n, 1)

        def py(v):
            return y0 + ph - (v - lo) * ph / (hi - lo)
        out.append('<rect x="%d" y="%d" width="%d" height="%d" fill="none" '
                   'stroke="black"/>' % (x0, y0, pw - m, ph))
        out.append('<text x="%d" y="%d">%s</text>' % (x0, y0 - 8, name))
        for t in range(int(lo) + 1, int(hi) + 1, max(1, int((hi - lo) / 6))):
            out.append('<text x="%d" y="%.1f" text-anchor="end">%d</text>'
                       % (x0 - 4, py(t) + 4, t))
        for k in range(0, n + 1, max(1, n // 5)):
            out.append('<text x="%.1f" y="%d" text-anchor="middle">%d</text>'
                       % (px(k), y0 + ph + 14, k))
        for j, meth in enumerate(methods):
            pts = " ".join("%.1f,%.1f" % (px(k), py(float(r[meth])))
                           for k, r in enumerate(rs))
            out.append('<polyline points="%s" fill="none" stroke="%s" '
                       'stroke-width="1.5"/>' % (pts, COLOURS[j % 4]))
    for j, meth in enumerate(methods):
        x = m + j * 170
        out.append('<rect x="%d" y="%d" width="12" height="4" fill="%s"/>'
                   % (x, height - 18, COLOURS[j % 4]))
        out.append('<text x="%d" y="%d">%s</text>' % (x + 16, height - 12,
                                                      meth))
    out.append('<text x="%d" y="%d">PSNR (dB) by frame</text>'
               % (m, 14))
    out.append("</svg>")
    open(sys.argv[2], "w").write("\n".join(out) + "\n")


main()
