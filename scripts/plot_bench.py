#!/usr/bin/env python3
"""Plot `tridi bench --csv` output: effective bandwidth and % of copy against n.

One column of panels per problem kind and layout; top row GB/s, bottom row %
of the copy bandwidth measured in the same run.  One line per backend/dtype
(solid: tridi, dashed: each baseline of that backend, e.g. LAPACK ?gtsv or
cuSPARSE), a dotted line at each backend's copy bandwidth and a dashed one at
its stream limit.  The launch-bound case is not plotted (it is a time, see the
table).  With several algorithms (--alg), tridi's line is the auto row.

    python3 scripts/plot_bench.py bench/results/cpu-2026-11-21.csv -o cpu.png
    python3 scripts/plot_bench.py cpu.csv gpu.csv -o all.png --title "..."
"""
import argparse
import math
import sys
from collections import defaultdict

from tridi_csv import num, read_csv

import matplotlib

matplotlib.use("Agg")
import matplotlib.pyplot as plt  # noqa: E402

LAYOUT_ORDER = ["contig", "interleaved", "mid3d", "padded"]


def read_rows(paths):
    rows = []
    for p in paths:
        for r in read_csv(p):
            r["_file"] = p
            r.setdefault("problem", "scalar")  # CSVs from before the problem column
            if not r.get("problem"):
                r["problem"] = "scalar"
            rows.append(r)
    return rows


def main(argv=None):
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("csv", nargs="+", help="CSV files written by `tridi bench --csv`")
    ap.add_argument("-o", "--output", default="bench.png", help="PNG to write (default bench.png)")
    ap.add_argument("--title", default=None, help="figure title (default: devices and dates)")
    ap.add_argument("--no-baseline", action="store_true", help="leave the baselines out")
    ap.add_argument("--logy", choices=["auto", "on", "off"], default="auto",
                    help="log scale for GB/s (auto: on when backends differ >10x in copy bandwidth)")
    args = ap.parse_args(argv)

    rows = [r for r in read_rows(args.csv) if r.get("layout") != "launch"]
    if not rows:
        print("plot_bench.py: no rows to plot", file=sys.stderr)
        return 1
    problems = sorted({r["problem"] for r in rows}, key=lambda p: (p != "scalar", p))
    panels = []
    for prob in problems:
        lays = {r["layout"] for r in rows if r["problem"] == prob}
        order = [l for l in LAYOUT_ORDER if l in lays] + sorted(lays - set(LAYOUT_ORDER))
        panels += [(prob, l) for l in order]

    # tridi[(backend, dtype, problem, layout)][n] = (gbps, pct): the auto row when
    # several algorithms were run, the first row of each case otherwise
    tridi = defaultdict(dict)
    # base[(backend, dtype, problem, layout, name)][n] = (gbps, pct)
    base = defaultdict(dict)
    copy, stream = {}, {}
    devices = set()
    has_auto = any(r.get("req_alg", "") in ("", "auto") for r in rows)
    for r in rows:
        n = num(r["n"])
        gbps, pct, cp = num(r["gbps"]), num(r["pct_copy"]), num(r.get("copy_gbps"))
        key = (r["backend"], r["dtype"], r["problem"], r["layout"])
        if r.get("req_alg", "") in ("", "auto") or not has_auto:
            tridi[key].setdefault(n, (gbps, pct))
        name = r.get("baseline", "")
        bg = num(r.get("baseline_gbps"))
        if math.isnan(bg):  # older CSVs: derive from the speed-up
            sp = num(r.get("speedup"))
            bg = gbps / sp if sp > 0 else math.nan
        if name and not math.isnan(bg):
            base[key + (name,)].setdefault(n, (bg, 100.0 * bg / cp if cp > 0 else math.nan))
        if cp > 0:
            copy[r["backend"]] = cp
        st = num(r.get("stream_gbps"))
        if st > 0:
            stream[r["backend"]] = st
        devices.add((r["backend"], r.get("device", ""), r.get("date", "")[:10]))

    keys = sorted({(b, d) for (b, d, _, _) in tridi})
    logy = args.logy == "on" or (
        args.logy == "auto" and len(copy) > 1 and max(copy.values()) > 10 * min(copy.values()))
    colors = plt.rcParams["axes.prop_cycle"].by_key()["color"]
    color = {k: colors[i % len(colors)] for i, k in enumerate(keys)}
    markers = ["s", "^", "v", "D", "x"]

    fig, axes = plt.subplots(2, len(panels), figsize=(4.2 * len(panels), 7.5),
                             sharex=True, squeeze=False)
    for j, (prob, lay) in enumerate(panels):
        ax_bw, ax_pct = axes[0][j], axes[1][j]
        for (b, d) in keys:
            c = color[(b, d)]
            pts = sorted(tridi.get((b, d, prob, lay), {}).items())
            if not pts:
                continue
            ns = [p[0] for p in pts]
            ax_bw.plot(ns, [p[1][0] for p in pts], "o-", color=c, label=f"tridi {b} {d}")
            ax_pct.plot(ns, [p[1][1] for p in pts], "o-", color=c, label=f"tridi {b} {d}")
            if args.no_baseline:
                continue
            names = sorted({k[4] for k in base if k[:4] == (b, d, prob, lay)})
            for i, name in enumerate(names):
                bp = sorted(base[(b, d, prob, lay, name)].items())
                m = markers[i % len(markers)]
                ax_bw.plot([p[0] for p in bp], [p[1][0] for p in bp], m + "--", color=c, alpha=0.7,
                           markersize=4, label=f"{name} {b} {d}")
                ax_pct.plot([p[0] for p in bp], [p[1][1] for p in bp], m + "--", color=c,
                            alpha=0.7, markersize=4, label=f"{name} {b} {d}")
        for b, cp in copy.items():
            ax_bw.axhline(cp, linestyle=":", color="gray", linewidth=1)
            ax_bw.annotate(f"{b} copy {cp:.0f} GB/s", (0.02, cp), xycoords=("axes fraction", "data"),
                           fontsize=7, color="gray", va="bottom")
        for b, st in stream.items():
            ax_bw.axhline(st, linestyle="--", color="gray", linewidth=0.8)
            ax_bw.annotate(f"{b} stream {st:.0f} GB/s", (0.55, st),
                           xycoords=("axes fraction", "data"), fontsize=7, color="gray", va="bottom")
        ax_pct.axhline(100.0, linestyle=":", color="gray", linewidth=1)
        ax_bw.set_title(lay if len(problems) == 1 else f"{prob} / {lay}")
        ax_pct.set_xlabel("n (system length)")
        for ax in (ax_bw, ax_pct):
            ax.set_xscale("log", base=2)
            ax.grid(True, which="major", alpha=0.3)
        ax_pct.set_ylim(bottom=0)
        if logy:
            ax_bw.set_yscale("log")
        else:
            ax_bw.set_ylim(bottom=0)
        if j == 0:
            ax_bw.set_ylabel("effective GB/s  (words/unknown x unknowns x sizeof(T) / time)")
            ax_pct.set_ylabel("% of copy bandwidth")
    handles, labels = axes[0][0].get_legend_handles_labels()
    for ax in axes[0][1:]:
        for h, l in zip(*ax.get_legend_handles_labels()):
            if l not in labels:
                handles.append(h)
                labels.append(l)
    fig.legend(handles, labels, loc="lower center", ncol=min(4, max(1, len(labels))), fontsize=8)
    title = args.title or "tridi bench: " + "; ".join(
        f"{b} {dev} {date}" for b, dev, date in sorted(devices))
    fig.suptitle(title, fontsize=10)
    fig.tight_layout(rect=(0, 0.06 + 0.02 * ((len(labels) - 1) // 4), 1, 0.96))
    fig.savefig(args.output, dpi=120)
    print(f"wrote {args.output}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
