#!/usr/bin/env python3
"""Plot `tridi accuracy` output (docs/accuracy.md).

One panel per (family, dtype): median forward error against n, one line per
algorithm; a hollow marker where the algorithm reported some of the systems
as failed (info != 0), nothing where it reported all of them; the LAPACK
?gtsv line is the baseline with partial pivoting.  --table prints the
Markdown table of docs/accuracy.md instead (or as well, with -o).  A CSV
with more than one layout (`tridi accuracy --layout contig,interleaved`,
the GPU's default) gets one line or table row per algorithm and layout,
"thomas_pcr (interleaved)"; LAPACK's rows (layout "-") are the same for
every layout.

    tridi accuracy -o acc.csv
    python3 scripts/plot_accuracy.py acc.csv -o docs/accuracy.png
    python3 scripts/plot_accuracy.py acc.csv --table > table.md
"""
import argparse
import math
import sys
from collections import defaultdict

from tridi_csv import num, read_csv

ALG_ORDER = ["lapack", "thomas_ref", "thomas", "thomas_shared", "thomas_shuffle", "thomas_pcr",
             "cr", "pcr", "rd", "cr_pcr", "cr_rd", "lu_partial", "auto"]
LAYOUT_ORDER = ["-", "", "contig", "interleaved"]
STYLE = {
    "lapack": dict(color="black", ls="-", lw=2.0),
    "thomas_ref": dict(color="tab:gray", ls="--"),
    "thomas": dict(color="tab:gray", ls=":"),
    "thomas_shared": dict(color="tab:olive", ls=":"),
    "thomas_shuffle": dict(color="tab:olive", ls="-."),
    "thomas_pcr": dict(color="tab:pink", ls="-"),
    "cr": dict(color="tab:blue", ls="-"),
    "pcr": dict(color="tab:green", ls="-"),
    "rd": dict(color="tab:red", ls="-"),
    "cr_pcr": dict(color="tab:cyan", ls="--"),
    "cr_rd": dict(color="tab:orange", ls="--"),
    "lu_partial": dict(color="tab:purple", ls="-"),
    "auto": dict(color="tab:brown", ls=":"),
}




def cell(r, metric):
    sysn, failed = int(r["systems"]), int(r["failed"])
    flagged = int(r.get("flagged") or 0)
    over = int(r.get("over_bound") or 0)
    what = "flagged" if flagged == failed else "fail"
    if failed == sysn:
        return "%s %d/%d" % (what, failed, sysn)
    v = num(r[metric])
    s = "%.1e" % v
    s += " (%d/%d)" % (failed, sysn) if failed else ""
    # systems returned with info 0 above 10 n eps (tridi accuracy's over_bound)
    return s + (" [%d above 10n eps]" % over if over else "")


def layout(r):
    """The row's layout: "-" for LAPACK, "" in CSVs written before layouts."""
    return r.get("layout") or ""


def series(rows):
    """(alg, layout) pairs present, in table order, and whether the CSV has
    more than one layout (then the labels name it)."""
    lays = sorted({layout(r) for r in rows},
                  key=lambda v: LAYOUT_ORDER.index(v) if v in LAYOUT_ORDER else 9)
    multi = len([v for v in lays if v not in ("-", "")]) > 1
    present = {(r["alg"], layout(r)) for r in rows}
    out = [(a, v) for a in ALG_ORDER for v in lays if (a, v) in present]
    return out, multi


def label(alg, lay, multi):
    return "%s (%s)" % (alg, lay) if multi and lay not in ("-", "") else alg


def table(rows, metric):
    ns = sorted({int(r["n"]) for r in rows})
    groups = defaultdict(dict)
    for r in rows:
        groups[(r["family"], r["dtype"], r["alg"], layout(r))][int(r["n"])] = r
    keys, multi = series(rows)
    out = ["| family | dtype | algorithm | " + " | ".join("n=%d" % n for n in ns) + " |",
           "|---|---|---|" + "---|" * len(ns)]
    own = ["dominant", "close", "laplace"]
    fams = sorted({k[0] for k in groups}, key=lambda f: (own.index(f), "") if f in own else (9, f))
    for fam in fams:
        for dt in ["f32", "f64"]:
            for alg, lay in keys:
                g = groups.get((fam, dt, alg, lay))
                if not g:
                    continue
                out.append("| %s | %s | %s | " % (fam, dt, label(alg, lay, multi)) +
                           " | ".join(cell(g[n], metric) if n in g else "" for n in ns) + " |")
    return "\n".join(out)


def plot(rows, out, metric, title):
    import matplotlib  # only for the plot: --table needs no matplotlib

    matplotlib.use("Agg")
    import matplotlib.pyplot as plt
    fams = [f for f in ["dominant", "close", "laplace"] if any(r["family"] == f for r in rows)]
    dts = [d for d in ["f32", "f64"] if any(r["dtype"] == d for r in rows)]
    fig, axes = plt.subplots(len(fams), len(dts), figsize=(6 * len(dts), 3.6 * len(fams)),
                             squeeze=False, sharex=True)
    keys, multi = series(rows)
    for i, fam in enumerate(fams):
        for j, dt in enumerate(dts):
            ax = axes[i][j]
            for alg, lay in keys:
                rs = sorted((r for r in rows if r["family"] == fam and r["dtype"] == dt
                             and r["alg"] == alg and layout(r) == lay),
                            key=lambda r: int(r["n"]))
                if not rs:
                    continue
                xs, ys, hx, hy = [], [], [], []
                for r in rs:
                    sysn, failed = int(r["systems"]), int(r["failed"])
                    v = num(r[metric])
                    if failed == sysn or not math.isfinite(v):
                        xs.append(int(r["n"]))
                        ys.append(math.nan)
                        continue
                    xs.append(int(r["n"]))
                    ys.append(max(v, 1e-18))
                    if failed:
                        hx.append(int(r["n"]))
                        hy.append(max(v, 1e-18))
                st = STYLE.get(alg, {})
                mk = "s" if lay == "interleaved" else "o"
                ax.plot(xs, ys, marker=mk, ms=3, label=label(alg, lay, multi), **st)
                if hx:
                    ax.plot(hx, hy, ls="none", marker="o", ms=8, mfc="none",
                            color=st.get("color", "k"))
            ax.set_xscale("log", base=2)
            ax.set_yscale("log")
            ax.grid(True, which="both", alpha=0.3)
            ax.set_title("%s, %s" % (fam, dt))
            if j == 0:
                ax.set_ylabel("median " + ("forward error" if metric.startswith("ferr")
                                           else "relative residual"))
            if i == len(fams) - 1:
                ax.set_xlabel("n")
    axes[0][0].legend(fontsize=7, ncol=2)
    fig.suptitle(title + "  (hollow: some systems reported failed; gap: all)", fontsize=10)
    fig.tight_layout()
    fig.savefig(out, dpi=110)


def main():
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("csv")
    ap.add_argument("-o", "--output", help="PNG file")
    ap.add_argument("--metric", default="ferr_median",
                    choices=["ferr_median", "ferr_max", "resid_median", "resid_max"])
    ap.add_argument("--table", action="store_true", help="print the Markdown table")
    ap.add_argument("--title", default="tridi accuracy")
    a = ap.parse_args()
    rows = read_csv(a.csv)
    if not rows:
        sys.exit("no rows in " + a.csv)
    if a.table:
        print(table(rows, a.metric))
    if a.output:
        plot(rows, a.output, a.metric, a.title)
    if not a.table and not a.output:
        sys.exit("nothing to do: give -o FILE and/or --table")


if __name__ == "__main__":
    main()
