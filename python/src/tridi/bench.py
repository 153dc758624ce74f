"""Benchmark of tridi's Python binding: ``python -m tridi.bench``.

Measured in one run, on the same arrays:

overhead
    64 systems of n = 64 (float64, C order), NumPy on the CPU and, with a
    CUDA build, CuPy and PyTorch on the GPU: ``tridi.solve`` with ``out``
    (``check=False`` and the default), without ``out``, :class:`tridi.Plan`
    calls, and the C library's ``tridi_execute`` looped in C without the GIL
    (``time_execute``).  The differences are the binding's cost per call.
    On the GPU each loop enqueues ``--calls`` calls and then waits for the
    device, so a figure is the larger of the host's and the device's time
    per call.
breakdown
    the same problem: each step of ``tridi.solve(out=x, check=False)`` timed
    alone (reading each operand, broadcasting, the plan cache, the info
    array, the current stream, the GIL, the wrapper), their sum against the
    measured host time of the call minus ``tridi_execute``'s, and on the GPU
    what the library calls the binding avoids would cost (``__dlpack__``,
    the stream and allocation helpers).
bandwidth
    a large batch (``--mib``, default 256 MiB of operands: a, b, c, d, x):
    ``tridi.solve(out=...)`` against ``tridi_execute`` on the same arrays, in
    GB/s counting 5 n B words as ``tridi bench`` does.
scipy
    ``scipy.linalg.solve_banded`` per system (a Python loop over the batch)
    and vectorised where SciPy allows it (one matrix, many right-hand sides:
    LAPACK ``?gtsv`` with ``nrhs`` columns), against tridi on the same data.
gpu
    with CuPy and a CUDA build: a large batch through ``tridi.solve`` on CuPy
    arrays against ``tridi_execute`` on the same device arrays, and CuPy's cuSPARSE
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


class Lib:
    """One array library on one device: how to make its arrays and wait for it."""

    def __init__(self, name, xp, device, sync):
        self.name, self.xp, self.device, self.sync = name, xp, device, sync

    def arrays(self, rng, shape):
        a, b, c, d = system(rng, shape)
        if self.name == "torch":
            ops = tuple(self.xp.from_numpy(v).to(self.device) for v in (a, b, c, d))
            return ops + (self.xp.empty_like(ops[3]),)
        ops = tuple(self.xp.asarray(v) for v in (a, b, c, d))
        return ops + (self.xp.empty_like(ops[3]),)


def libraries():
    """NumPy on the CPU, and CuPy and PyTorch on the GPU where they and a
    CUDA build of tridi are there."""
    libs = [Lib("numpy", np, "cpu", lambda: None)]
    if not tridi.has_cuda:
        return libs
    try:
        import cupy

        if cupy.cuda.runtime.getDeviceCount() > 0:
            libs.append(Lib("cupy", cupy, "cuda", lambda: cupy.cuda.get_current_stream().synchronize()))
    except Exception:
        pass
    try:
        import torch

        if torch.cuda.is_available():
            libs.append(Lib("torch", torch, "cuda", lambda: torch.cuda.current_stream().synchronize()))
    except Exception:
        pass
    return libs


def loop_time(lib, fn, calls, repeat):
    """Seconds per call of `calls` calls enqueued back to back, waiting for
    the device at the end (on the GPU the larger of the host's and the
    device's cost per call)."""
    fn()
    best = float("inf")
    for _ in range(repeat):
        lib.sync()
        t0 = time.perf_counter()
        for _ in range(calls):
            fn()
        lib.sync()
        best = min(best, (time.perf_counter() - t0) / calls)
    return best


def host_time(lib, fn, repeat, calls=16):
    """Seconds per call the host spends: a few calls, far fewer than the
    launch queue holds, timed without waiting for the device (the best of
    many such loops)."""
    fn()
    best = float("inf")
    for _ in range(max(repeat, 1) * 20):
        lib.sync()
        t0 = time.perf_counter()
        for _ in range(calls):
            fn()
        best = min(best, (time.perf_counter() - t0) / calls)
    lib.sync()
    return best


def overhead(rep: Report, rng, calls, repeat):
    """Per-call cost of tridi.solve and Plan.__call__ against the C
    library's tridi_execute on the same arrays, in the same run: 64 systems
    of n = 64, NumPy on the CPU, CuPy and PyTorch on the GPU."""
    for lib in libraries():
        a, b, c, d, x = lib.arrays(rng, (64, 64))
        plan = tridi.Plan(d.shape, "float64", backend=lib.device)
        plan(a, b, c, d, out=x)
        tridi.solve(a, b, c, d, out=x)
        case = f"64 x n=64 f64 {lib.name}"
        t_c = c_time(a, b, c, d, x, -1, calls, repeat)
        rep.add("overhead", case, "C tridi_execute (C loop)", t_c)
        rows = [("tridi.solve(out=x, check=False)", lambda: tridi.solve(a, b, c, d, out=x, check=False)),
                ("tridi.solve(out=x)", lambda: tridi.solve(a, b, c, d, out=x)),
                ("tridi.solve(check=False) (allocates x)", lambda: tridi.solve(a, b, c, d, check=False)),
                ("plan(out=x, check=False)", lambda: plan(a, b, c, d, out=x, check=False)),
                ("plan(out=x)", lambda: plan(a, b, c, d, out=x))]
        for what, fn in rows:
            t = loop_time(lib, fn, calls, repeat)
            note = f"+{(t - t_c) * 1e6:.2f} us"
            if lib.device == "cuda" and "check=False" not in what:
                note += " (check=True waits for the device every call)"
            rep.add("overhead", case, what, t, note)


def breakdown(rep: Report, rng, calls, repeat):
    """Where the cost of tridi.solve(a, b, c, d, out=x, check=False) goes,
    each step timed alone (64 systems of n = 64): the extension's steps
    (_tridi.overhead_steps), the Python wrapper and the call itself, against
    the measured difference to tridi_execute; on the GPU also what the
    library calls cost that the binding no longer makes per call."""
    for lib in libraries():
        a, b, c, d, x = lib.arrays(rng, (64, 64))
        tridi.solve(a, b, c, d, out=x)
        case = f"64 x n=64 f64 {lib.name}"
        steps = {}
        for _ in range(repeat):
            for k, v in _tridi.overhead_steps(a, b, c, d, x, -1, calls).items():
                steps[k] = min(v, steps.get(k, float("inf")))
        exe = steps.pop("tridi_execute (enqueue only)", None)
        loop = steps.pop("tridi_execute (C loop)")
        refs = {k: steps.pop(k) for k in list(steps) if k.startswith("(reference)")}
        t_call = best_of(lambda: _tridi.plan_cache_size(), calls, repeat)
        t_ext = host_time(lib, lambda: _tridi.solve(a, b, c, d, out=x, check=False), repeat)
        t_py = host_time(lib, lambda: tridi.solve(a, b, c, d, out=x, check=False), repeat)
        base = exe if exe is not None else loop
        for k, v in steps.items():
            rep.add("breakdown", case, k, v)
        rep.add("breakdown", case, "Python to C call (an empty call)", t_call)
        rep.add("breakdown", case, "tridi.solve against _tridi.solve (the same entry)", t_py - t_ext)
        parts = sum(steps.values()) + t_call + (t_py - t_ext)
        rep.add("breakdown", case, "sum of the steps above", parts)
        rep.add("breakdown", case, "tridi_execute, host time" if exe is not None else "tridi_execute", base)
        rep.add("breakdown", case, "tridi.solve(out=x, check=False), host time", t_py,
                f"+{(t_py - base) * 1e6:.2f} us over tridi_execute (steps: {parts * 1e6:.2f} us)")
        rep.add("breakdown", case, "not in the steps (argument conversion, ...)", t_py - base - parts)
        if lib.name == "torch":
            info = lib.xp.empty((64,), dtype=lib.xp.int32, device=d.device)
        else:
            info = lib.xp.empty((64,), dtype=lib.xp.int32)
        t_info = host_time(lib, lambda: tridi.solve(a, b, c, d, out=x, check=False, info=info),
                           repeat)
        rep.add("breakdown", case, "tridi.solve(out=x, check=False, info=info), host time", t_info,
                f"+{(t_info - base) * 1e6:.2f} us over tridi_execute")
        for k, v in refs.items():
            rep.add("breakdown", case, k, v)
        if lib.name == "cupy":
            import cupy

            from . import _arrays
            ref = [("d.__dlpack__() (per operand, the DLPack path)", lambda: d.__dlpack__()),
                   ("d.__cuda_array_interface__", lambda: d.__cuda_array_interface__),
                   ("cupy.cuda.get_current_stream().ptr", lambda: cupy.cuda.get_current_stream().ptr),
                   ("tridi._arrays.cuda_stream(d) (Python helper)", lambda: _arrays.cuda_stream(d)),
                   ("cupy.empty((64,), int32)", lambda: cupy.empty((64,), dtype=cupy.int32)),
                   ("tridi._arrays.empty(d, ...) (Python helper)", lambda: _arrays.empty(d, (64,), "int32"))]
        elif lib.name == "torch":
            import torch

            from . import _arrays
            ref = [("d.__dlpack__() (per operand, the DLPack path)", lambda: d.__dlpack__()),
                   ("torch.cuda.current_stream().cuda_stream",
                    lambda: torch.cuda.current_stream().cuda_stream),
                   ("tridi._arrays.cuda_stream(d) (Python helper)", lambda: _arrays.cuda_stream(d)),
                   ("torch.empty((64,), int32, device)",
                    lambda: torch.empty((64,), dtype=torch.int32, device=d.device))]
        else:
            ref = []
        for what, fn in ref:
            rep.add("breakdown", case, "for reference: " + what, best_of(fn, calls, repeat))


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
    p.add_argument("--parts", default="overhead,breakdown,bandwidth,scipy,gpu",
                   help="comma list of overhead, breakdown, bandwidth, scipy, gpu")
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
    if "breakdown" in parts:
        breakdown(rep, rng, args.calls, args.repeat)
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
