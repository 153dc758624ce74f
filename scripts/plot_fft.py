#!/usr/bin/env python3
"""Plot `tridi bench --problem fft` CSV files (docs/fft.md): GFLOPS against
log2 n, one line per file for tridi and, where the file has a baseline,
one dashed line for it (cuFFT on the GPU, FFTW on the CPU), as paper 004's
Figure 7.

    tridi bench --problem fft --backend cuda --dtype c32 --log2n 8-26 --total-log2 24 --csv c32.csv
    python3 scripts/plot_fft.py c32.csv:"tridi c32" c64.csv:"tridi c64" -o fft.png
"""
import argparse
import csv

import matplotlib

matplotlib.use("Agg")
import matplotlib.pyplot as plt  # noqa: E402


def main():
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("files", nargs="+", help="CSV[:label]; a file's baseline is drawn unless the "
                    "label ends with '!'")
    ap.add_argument("-o", "--output", required=True, help="image file")
    ap.add_argument("--title", default="Batched complex FFT")
    args = ap.parse_args()
    fig, ax = plt.subplots(figsize=(7, 4.2))
    for spec in args.files:
        path, _, label = spec.partition(":")
        nobase = label.endswith("!")
        label = label.rstrip("!") or path
        rows = list(csv.DictReader(open(path)))
        n = [int(r["n"]).bit_length() - 1 for r in rows]
        ax.plot(n, [float(r["gflops"]) for r in rows], "o-", label=label)
        base = [float(r["baseline_gflops"]) if r.get("baseline_gflops") else float("nan") for r in rows]
        if not nobase and any(b == b for b in base):
            ax.plot(n, base, "s--", label=f"{rows[0]['baseline']} ({label})")
    ax.set_xlabel("log2 n")
    ax.set_ylabel("GFLOPS (5 n log2 n batch / t)")
    ax.set_title(args.title)
    ax.grid(True)
    ax.legend(fontsize=8)
    fig.tight_layout()
    fig.savefig(args.output, dpi=120)


if __name__ == "__main__":
    main()
