"""Benchmark of tridi's Python binding: ``python -m tridi.bench``.

Measured in one run, on the same arrays:

overhead
    64 systems of n = 64 (float64, C order): ``tridi.solve`` with ``out``,
    without ``out``, a :class:`tridi.Plan` call, and the C library's
    ``tridi_execute`` looped in C without the GIL (``time_execute``).  The
    differences are the binding's cost per call.
bandwidth
    a large batch (``--mib``, default 256 MiB of operands: a, b, c, d, x):
    ``tridi.solve(out=...)`` against ``tridi_execute`` on the same arrays, in
    GB/s counting 5 n B words as ``tridi bench`` does.
scipy
    ``scipy.linalg.solve_banded`` per system (a Python loop over the batch)
    and vectorised where SciPy allows it (one matrix, many right-hand sides:
    LAPACK ``?gtsv`` with ``nrhs`` columns), against tridi on the same data.
gpu
    with CuPy and a CUDA build: ``tridi.solve`` on CuPy arrays against
    ``tridi_execute`` on the same device arrays, and CuPy's cuSPARSE
    ``gtsv2StridedBatch`` through CuPy's low-level binding (``cupy_backends.cuda.libs.cusparse``).

Timings are the best of ``--repeat`` runs.  Nothing here is a test: on a
shared or busy machine the numbers mean little.
"""

from __future__ import annotations

import argparse
import csv
import sys
import time

import numpy as np

import tridi
from tridi import _tridi


def best_of(fn, calls: int, repeat: int) -> float:
    """Seconds per call: the best of `repeat` loops of `calls` calls."""
    best = float("inf")
    for _ in range(repeat):
        t0 = time.perf_counter()
        for _ in range(calls):
            fn()
        best = min(best, (time.perf_counter() - t0) / calls)
    return best


def c_time(a, b, c, d, out, axis, calls, repeat) -> float:
    best = float("inf")
    for _ in range(repeat):
        best = min(best, _tridi.time_execute(a, b, c, d, out, axis, "auto", calls) / calls)
    return best


def system(rng, shape, xp=np):
    a = rng.uniform(-1, 1, shape)
    c = rng.uniform(-1, 1, shape)
    b = 4 + rng.random(shape)
    d = rng.uniform(-1, 1, shape)
    return tuple(xp.asarray(v) for v in (a, b, c, d))


class Report:
    def __init__(self):
        self.rows = []

    def add(self, part, case, what, seconds, extra=""):
        self.rows.append({"part": part, "case": case, "what": what,
                          "us_per_call": f"{seconds * 1e6:.3f}", "note": extra})
        print(f"{part:10} {case:28} {what:38} {seconds * 1e6:12.2f} us  {extra}")

    def write_csv(self, path):
        with open(path, "w", newline="") as f:
            w = csv.DictWriter(f, fieldnames=list(self.rows[0]))
            w.writeheader()
            w.writerows(self.rows)


def overhead(rep: Report, rng, calls, repeat):
    a, b, c, d = system(rng, (64, 64))
    x = np.empty_like(d)
    plan = tridi.Plan(d.shape, d.dtype)
    plan(a, b, c, d, out=x)
    t_c = c_time(a, b, c, d, x, -1, calls, repeat)
    t_out = best_of(lambda: tridi.solve(a, b, c, d, out=x), calls, repeat)
    t_new = best_of(lambda: tridi.solve(a, b, c, d), calls, repeat)
    t_plan = best_of(lambda: plan(a, b, c, d, out=x), calls, repeat)
    case = "64 x n=64 f64"
    rep.add("overhead", case, "C tridi_execute (C loop)", t_c)
    rep.add("overhead", case, "tridi.solve(out=x)", t_out, f"+{(t_out - t_c) * 1e6:.2f} us")
    rep.add("overhead", case, "tridi.solve() (allocates x)", t_new, f"+{(t_new - t_c) * 1e6:.2f} us")
    rep.add("overhead", case, "plan(out=x)", t_plan, f"+{(t_plan - t_c) * 1e6:.2f} us")


def bandwidth(rep: Report, rng, mib, repeat, n=256):
    words = mib * 2**20 // 8
    batch = max(1, words // (5 * n))
    a, b, c, d = system(rng, (batch, n))
    x = np.empty_like(d)
    nbytes = 5 * n * batch * 8
    tridi.solve(a, b, c, d, out=x)
    t_c = c_time(a, b, c, d, x, -1, 1, repeat)
    t_py = best_of(lambda: tridi.solve(a, b, c, d, out=x), 1, repeat)
    case = f"{batch} x n={n} f64 ({nbytes / 2**20:.0f} MiB)"
    rep.add("bandwidth", case, "C tridi_execute", t_c, f"{nbytes / t_c / 1e9:.2f} GB/s")
    rep.add("bandwidth", case, "tridi.solve(out=x)", t_py,
            f"{nbytes / t_py / 1e9:.2f} GB/s = {100 * t_c / t_py:.1f}% of C")


def versus_scipy(rep: Report, rng, repeat, batch=1024, n=64, loop_systems=128):
    try:
        import scipy.linalg as sl
    except ImportError:
        print("scipy      (not installed: skipped)")
        return
    a, b, c, d = system(rng, (batch, n))
    ab = np.zeros((batch, 3, n))
    ab[:, 0, 1:], ab[:, 1], ab[:, 2, :-1] = c[:, :-1], b, a[:, 1:]
    x = np.empty_like(d)
    t_tridi = best_of(lambda: tridi.solve(a, b, c, d, out=x), 20, repeat)

    def loop():
        for s in range(loop_systems):
            sl.solve_banded((1, 1), ab[s], d[s], check_finite=False)

    t_loop = best_of(loop, 1, repeat) * batch / loop_systems
    case = f"{batch} systems n={n}"
    rep.add("scipy", case, "tridi.solve", t_tridi)
    rep.add("scipy", case, "solve_banded, loop over systems", t_loop,
            f"tridi {t_loop / t_tridi:.1f}x faster (loop timed on {loop_systems} systems)")
    t_drop = best_of(lambda: tridi.solve_banded((1, 1), ab, d[..., None]), 5, repeat)
    rep.add("scipy", case, "tridi.solve_banded (batched ab)", t_drop,
            f"{t_loop / t_drop:.1f}x SciPy's loop")
    # one matrix, many right-hand sides: SciPy's vectorised case (?gtsv, nrhs)
    rhs = np.ascontiguousarray(d.T)  # (n, batch)
    t_vec = best_of(lambda: sl.solve_banded((1, 1), ab[0], rhs, check_finite=False), 5, repeat)
    out = np.empty_like(rhs)
    t_one = best_of(lambda: tridi.solve(a[0], b[0], c[0], rhs, axis=0, out=out), 20, repeat)
    case = f"1 matrix n={n}, {batch} rhs"
    rep.add("scipy", case, "solve_banded (M, K) right-hand sides", t_vec)
    rep.add("scipy", case, "tridi.solve, 1-d coefficients", t_one,
            f"tridi {t_vec / t_one:.1f}x faster")


def gpu(rep: Report, rng, mib, calls, repeat):
    try:
        import cupy
        have = cupy.cuda.runtime.getDeviceCount() > 0
    except Exception:
        have = False
    if not have or not tridi.has_cuda:
        print("gpu        (CuPy with a GPU and a CUDA build of tridi needed: skipped)")
        return

    def gpu_time(fn, n_calls):
        # one call first: the cached plan and CuPy's memory pool warm, as
        # time_execute's C loop is (both loops are timed the same way: sync,
        # n_calls enqueued back to back, sync)
        fn()
        best = float("inf")
        for _ in range(repeat):
            cupy.cuda.get_current_stream().synchronize()
            t0 = time.perf_counter()
            for _ in range(n_calls):
                fn()
            cupy.cuda.get_current_stream().synchronize()
            best = min(best, (time.perf_counter() - t0) / n_calls)
        return best

    a, b, c, d = system(rng, (64, 64), cupy)
    x = cupy.empty_like(d)
    tridi.solve(a, b, c, d, out=x)
    t_c = c_time(a, b, c, d, x, -1, calls, repeat)
    t_py = gpu_time(lambda: tridi.solve(a, b, c, d, out=x, check=False), calls)
    case = "64 x n=64 f64 (CuPy)"
    rep.add("gpu", case, "C tridi_execute (C loop)", t_c)
    rep.add("gpu", case, "tridi.solve(out=x, check=False)", t_py, f"+{(t_py - t_c) * 1e6:.2f} us")
    n = 256
    batch = max(1, mib * 2**20 // 8 // (5 * n))
    a, b, c, d = system(rng, (batch, n), cupy)
    x = cupy.empty_like(d)
    nbytes = 5 * n * batch * 8
    tridi.solve(a, b, c, d, out=x)
    t_c = c_time(a, b, c, d, x, -1, 20, repeat)
    t_py = gpu_time(lambda: tridi.solve(a, b, c, d, out=x, check=False), 20)
    case = f"{batch} x n={n} f64 ({nbytes / 2**20:.0f} MiB)"
    rep.add("gpu", case, "C tridi_execute", t_c, f"{nbytes / t_c / 1e9:.1f} GB/s")
    rep.add("gpu", case, "tridi.solve(out=x, check=False)", t_py,
            f"{nbytes / t_py / 1e9:.1f} GB/s = {100 * t_c / t_py:.1f}% of C")
    try:
        # CuPy's low-level cuSPARSE binding (cupyx.cusparse has no
        # gtsv2StridedBatch wrapper): what a CuPy user would call
        from cupy_backends.cuda.libs import cusparse as cs

        dl, dd, du = a.copy(), b.copy(), c.copy()
        dl[:, 0] = 0
        du[:, -1] = 0
        rhs = d.copy()
        handle = cupy.cuda.device.get_cusparse_handle()
        cs.setStream(handle, cupy.cuda.get_current_stream().ptr)
        ptrs = (dl.data.ptr, dd.data.ptr, du.data.ptr, rhs.data.ptr)
        size = cs.dgtsv2StridedBatch_bufferSizeExt(handle, n, *ptrs, batch, n)
        buf = cupy.empty(max(int(size), 16), dtype=cupy.uint8)

        def cusparse():
            cs.dgtsv2StridedBatch(handle, n, *ptrs, batch, n, buf.data.ptr)

        t_cs = gpu_time(cusparse, 5)
        rep.add("gpu", case, "cuSPARSE dgtsv2StridedBatch (CuPy binding)", t_cs,
                f"tridi {t_cs / t_py:.1f}x faster")
    except Exception as e:  # CuPy without that wrapper, or cuSPARSE refusing
        print(f"gpu        cuSPARSE baseline not available: {e}")


def main(argv=None) -> int:
    p = argparse.ArgumentParser(prog="python -m tridi.bench", description=__doc__.split("\n\n")[0])
    p.add_argument("--parts", default="overhead,bandwidth,scipy,gpu",
                   help="comma list of overhead, bandwidth, scipy, gpu")
    p.add_argument("--mib", type=int, default=256, help="operand MiB of the large batches")
    p.add_argument("--calls", type=int, default=2000, help="calls per timing loop (small problems)")
    p.add_argument("--repeat", type=int, default=5, help="timing loops; the best counts")
    p.add_argument("--quick", action="store_true", help="small sizes and few repeats (a smoke run)")
    p.add_argument("--csv", help="write the rows to this CSV file")
    args = p.parse_args(argv)
    if args.quick:
        args.mib, args.calls, args.repeat = 8, 200, 2
    parts = set(args.parts.split(","))
    rng = np.random.default_rng(1)
    print(f"tridi {tridi.__version__}, CPU SIMD {tridi.cpu_simd}, CUDA {tridi.has_cuda}, "
          f"NumPy {np.__version__}, Python {sys.version.split()[0]}")
    rep = Report()
    if "overhead" in parts:
        overhead(rep, rng, args.calls, args.repeat)
    if "bandwidth" in parts:
        bandwidth(rep, rng, args.mib, args.repeat)
    if "scipy" in parts:
        versus_scipy(rep, rng, args.repeat)
    if "gpu" in parts:
        gpu(rep, rng, args.mib, args.calls, args.repeat)
    if args.csv and rep.rows:
        rep.write_csv(args.csv)
    return 0


if __name__ == "__main__":
    sys.exit(main())
