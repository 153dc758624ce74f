"""CSV helpers shared by the plot scripts (plot_bench, plot_algs,
plot_accuracy): tridi's CSV files may carry '#' comment lines."""
import csv
import math


def num(s):
    """float(s), or NaN for an empty or non-numeric cell."""
    try:
        return float(s)
    except (TypeError, ValueError):
        return math.nan


def read_csv(path):
    """The rows of one CSV file as dicts, '#' comment lines skipped."""
    with open(path, newline="") as f:
        return list(csv.DictReader(ln for ln in f if not ln.startswith("#")))
