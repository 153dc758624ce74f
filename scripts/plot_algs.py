#!/usr/bin/env python3
"""Plot the algorithm comparison of docs/algorithms.md.

Input: CSV of bench/tuning/alg_sweep.c (GPU: columns what,data,dtype,layout,n,...,
alg,gbps,failed) or of `tridi bench --alg ... --csv` (columns backend,dtype,
layout,n,alg,gbps,ok,...).  One panel per (layout, dtype): effective
bandwidth against n, one line per algorithm; a cross where the algorithm
reported breakdowns (its time is then not that of a full solve).  --switch
plots the switch-size sweep of alg_sweep --sweep instead.  --table prints
the Markdown table (GB/s) with the fastest algorithm per case and auto's
share of it.

    python3 scripts/plot_algs.py docs/algs_gpu_dominant.csv -o docs/algs_gpu.png
    python3 scripts/plot_algs.py docs/algs_gpu_sweep.csv --switch -o docs/algs_gpu_switch.png
    python3 scripts/plot_algs.py docs/algs_gpu_dominant.csv --table
"""
import argparse
import math
import sys
from collections import defaultdict

from tridi_csv import num, read_csv

import matplotlib

matplotlib.use("Agg")
import matplotlib.pyplot as plt  # noqa: E402

ORDER = ["auto", "thomas_ref", "thomas", "thomas_shared", "thomas_shuffle", "thomas_pcr", "cr",
         "pcr", "rd", "cr_pcr", "cr_rd"]




def read(path):
    rows = read_csv(path)
    out = []
    for r in rows:
        if r.get("what", "alg") not in ("alg", "switch"):
            continue
        failed = r.get("failed")
        if failed is None:  # tridi bench CSV: ok column, auto = the row of --alg auto
            failed = "0" if r.get("ok") == "1" else "1"
        out.append(dict(what=r.get("what", "alg"), dtype=r["dtype"], layout=r["layout"],
                        n=int(r["n"]), alg=r.get("req_alg") or r["alg"], gbps=num(r["gbps"]),
                        failed=int(failed) != 0, switch=r.get("switch", "")))
    return out


def table(rows):
    g = defaultdict(dict)
    for r in rows:
        if r["what"] == "alg":
            g[(r["dtype"], r["layout"], r["n"])][r["alg"]] = r
    algs = [a for a in ORDER if any(a in d for d in g.values())]
    lines = ["| dtype | layout | n | " + " | ".join(algs) + " | fastest | auto / fastest |",
             "|---|---|---|" + "---|" * (len(algs) + 2)]
    for k in sorted(g, key=lambda k: (k[0], k[1], k[2])):
        d = g[k]
        ok = [(d[a]["gbps"], a) for a in algs if a in d and not d[a]["failed"]
              and math.isfinite(d[a]["gbps"])]
        best = max(ok) if ok else (math.nan, "-")
        cells = []
        for a in algs:
            if a not in d:
                cells.append("")
            else:
                v = d[a]["gbps"]
                cells.append(("%.0f" if v >= 100 else "%.3g") % v + (" (f)" if d[a]["failed"] else ""))
        share = d["auto"]["gbps"] / best[0] if "auto" in d and ok else math.nan
        lines.append("| %s | %s | %d | %s | %s | %.2f |" % (k[0], k[1], k[2], " | ".join(cells),
                                                           best[1], share))
    return "\n".join(lines)


def plot(rows, out, title):
    rows = [r for r in rows if r["what"] == "alg"]
    panels = sorted({(r["layout"], r["dtype"]) for r in rows})
    lays = sorted({p[0] for p in panels})
    dts = sorted({p[1] for p in panels})
    fig, axes = plt.subplots(len(lays), len(dts), figsize=(6.5 * len(dts), 3.8 * len(lays)),
                             squeeze=False, sharex=True)
    cmap = plt.get_cmap("tab10")
    for i, lay in enumerate(lays):
        for j, dt in enumerate(dts):
            ax = axes[i][j]
            for k, alg in enumerate(a for a in ORDER if any(r["alg"] == a for r in rows)):
                rs = sorted((r for r in rows if r["layout"] == lay and r["dtype"] == dt
                             and r["alg"] == alg), key=lambda r: r["n"])
                if not rs:
                    continue
                st = dict(color="black", lw=2.2) if alg == "auto" else dict(color=cmap(k % 10))
                ax.plot([r["n"] for r in rs], [r["gbps"] if not r["failed"] else math.nan
                                               for r in rs], marker="o", ms=3, label=alg, **st)
                fx = [r for r in rs if r["failed"]]
                if fx:
                    ax.plot([r["n"] for r in fx], [r["gbps"] for r in fx], ls="none", marker="x",
                            ms=5, color=st["color"])
            ax.set_xscale("log", base=2)
            ax.set_yscale("log")
            ax.grid(True, which="both", alpha=0.3)
            ax.set_title("%s, %s" % (lay, dt))
            if j == 0:
                ax.set_ylabel("effective GB/s")
            if i == len(lays) - 1:
                ax.set_xlabel("n")
    axes[0][0].legend(fontsize=7, ncol=2)
    fig.suptitle(title + "  (x: the algorithm reported breakdowns)", fontsize=10)
    fig.tight_layout()
    fig.savefig(out, dpi=110)


def plot_switch(rows, out, title):
    rows = [r for r in rows if r["what"] == "switch" and not r["failed"]]
    panels = sorted({(r["alg"], r["dtype"]) for r in rows})
    fig, axes = plt.subplots(1, len(panels), figsize=(4.5 * len(panels), 3.6), squeeze=False)
    for j, (alg, dt) in enumerate(panels):
        ax = axes[0][j]
        for n in sorted({r["n"] for r in rows if r["alg"] == alg and r["dtype"] == dt}):
            rs = sorted((r for r in rows if r["alg"] == alg and r["dtype"] == dt and r["n"] == n),
                        key=lambda r: int(r["switch"]))
            ax.plot([int(r["switch"]) for r in rs], [r["gbps"] for r in rs], marker="o", ms=3,
                    label="n=%d" % n)
        ax.set_xscale("log", base=2)
        ax.grid(True, alpha=0.3)
        ax.set_title("%s, %s" % (alg, dt))
        ax.set_xlabel("switch (intermediate system size)")
        if j == 0:
            ax.set_ylabel("effective GB/s")
        ax.legend(fontsize=7)
    fig.suptitle(title, fontsize=10)
    fig.tight_layout()
    fig.savefig(out, dpi=110)


def main():
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("csv", nargs="+")
    ap.add_argument("-o", "--output")
    ap.add_argument("--switch", action="store_true", help="plot the switch sweep")
    ap.add_argument("--table", action="store_true")
    ap.add_argument("--title", default="tridi algorithms")
    a = ap.parse_args()
    rows = [r for p in a.csv for r in read(p)]
    if not rows:
        sys.exit("no rows")
    if a.table:
        print(table(rows))
    if a.output:
        (plot_switch if a.switch else plot)(rows, a.output, a.title)
    if not a.table and not a.output:
        sys.exit("nothing to do: give -o FILE and/or --table")


if __name__ == "__main__":
    main()
