"""tridi.solve on host arrays: axes, orders, strides, broadcasting, in
place, empty arrays, breakdowns and algorithms."""

from __future__ import annotations

import itertools
import threading
import time

import numpy as np
import pytest
import scipy.linalg

import tridi
from conftest import along, assert_solves, dominant, reference

DTYPES = [np.float32, np.float64]
SHAPES = {1: (7,), 2: (5, 6), 3: (3, 4, 5), 4: (2, 3, 4, 5)}


@pytest.mark.parametrize("dtype", DTYPES)
@pytest.mark.parametrize("order", ["C", "F"])
@pytest.mark.parametrize("ndim,axis", [(nd, ax) for nd in SHAPES for ax in range(-nd, nd)])
def test_every_axis(rng, ndim, axis, order, dtype):
    a, b, c, d = (np.asarray(v, order=order) for v in dominant(rng, SHAPES[ndim], dtype))
    d_before = d.copy()
    x = tridi.solve(a, b, c, d, axis=axis)
    assert x.dtype == dtype and x.shape == d.shape and x.flags.c_contiguous
    assert_solves(x, a, b, c, d, axis)
    np.testing.assert_array_equal(d, d_before)  # inputs are never written


@pytest.mark.parametrize("dtype", DTYPES)
def test_agrees_with_scipy(rng, dtype):
    a, b, c, d = dominant(rng, (6, 33), dtype)
    x = tridi.solve(a, b, c, d)
    for s in range(d.shape[0]):
        ab = np.zeros((3, d.shape[1]), dtype)
        ab[0, 1:], ab[1], ab[2, :-1] = c[s, :-1], b[s], a[s, 1:]
        want = scipy.linalg.solve_banded((1, 1), ab, d[s])
        np.testing.assert_allclose(x[s], want, rtol=50 * np.finfo(dtype).eps * 33,
                                   atol=50 * np.finfo(dtype).eps)


def test_unused_corners_are_ignored(rng):
    a, b, c, d = dominant(rng, (4, 9))
    a[:, 0] = np.nan
    c[:, -1] = np.inf
    x = tridi.solve(a, b, c, d)
    a[:, 0] = 0
    c[:, -1] = 0
    assert_solves(x, a, b, c, d)


@pytest.mark.parametrize("dtype", DTYPES)
def test_negative_and_stepped_slices(rng, dtype):
    big = [dominant(rng, (9, 8, 13), dtype)[k] for k in range(4)]
    views = [
        lambda v: v[::-1, 1:7, ::2],
        lambda v: v[1:, ::-2, 3:10],
        lambda v: v[::2, :6, ::-1].transpose(2, 0, 1)[:, :, :],
        lambda v: v[::-3, 2:8, 12:5:-1],
    ]
    for view in views:
        a, b, c, d = (view(v) for v in big)
        for axis in range(3):
            if a.shape != d.shape:
                continue
            x = tridi.solve(a, b, c, d, axis=axis)
            assert_solves(x, a, b, c, d, axis)


def test_out_view_leaves_the_rest_untouched(rng):
    a, b, c, d = dominant(rng, (6, 10))
    base = np.full((14, 23), np.nan)
    out = base[12:0:-2, 1:21:2]  # negative and stepped
    x = tridi.solve(a, b, c, d, out=out)
    assert x is out
    assert_solves(out, a, b, c, d)
    mask = np.ones(base.shape, bool)
    mask[12:0:-2, 1:21:2] = False
    assert np.isnan(base[mask]).all()


@pytest.mark.parametrize("axis", [0, 1, 2, -1])
def test_one_matrix_many_right_hand_sides(rng, axis):
    shape = (4, 5, 6)
    n = shape[axis]
    a, b, c, _ = dominant(rng, (n,))
    d = rng.uniform(-1, 1, shape)
    x = tridi.solve(a, b, c, d, axis=axis)  # 1-d coefficients lie along the axis
    assert_solves(x, along(a, 3, axis), along(b, 3, axis), along(c, 3, axis), d, axis)
    x2 = tridi.solve(along(a, 3, axis), along(b, 3, axis), along(c, 3, axis), d, axis=axis)
    np.testing.assert_array_equal(x, x2)


def test_constant_diagonals(rng):
    d = rng.uniform(-1, 1, (3, 11))
    for coef in [(-1.0, 4.0, -1.0), (np.array(-1.0), np.array(4.0), np.array(-1.0)), (-1, 4, -1)]:
        x = tridi.solve(*coef, d)
        assert x.dtype == np.float64
        assert_solves(x, -1.0, 4.0, -1.0, d)
    d32 = d.astype(np.float32)
    x = tridi.solve(-1.0, 4.0, -1.0, d32)  # Python numbers take d's dtype
    assert x.dtype == np.float32
    assert_solves(x, -1.0, 4.0, -1.0, d32)


def test_broadcast_coefficients_and_right_hand_sides(rng):
    a, b, c, d = dominant(rng, (4, 1, 7))
    d2 = rng.uniform(-1, 1, (3, 7))
    x = tridi.solve(a, b, c, d2)  # many matrices (4, 1), right-hand sides (3,)
    assert x.shape == (4, 3, 7)
    assert_solves(x, a, b, c, d2)
    one = rng.uniform(-1, 1, 7)
    x = tridi.solve(a, b, c, one)  # many matrices, one right-hand side
    assert x.shape == (4, 1, 7)
    assert_solves(x, a, b, c, one)
    bc = np.broadcast_to(b, (4, 3, 7))  # read-only stride-0 view
    x = tridi.solve(a, bc, c, d2)
    assert_solves(x, a, bc, c, d2)


@pytest.mark.parametrize("dtype", DTYPES)
def test_in_place(rng, dtype):
    a, b, c, d = dominant(rng, (5, 4, 9), dtype)
    for axis in range(3):
        dd = np.asfortranarray(d[:, ::-1])
        keep = dd.copy()
        x = tridi.solve(a[:, ::-1], b[:, ::-1], c[:, ::-1], dd, axis=axis, out=dd)
        assert x is dd
        assert_solves(dd, a[:, ::-1], b[:, ::-1], c[:, ::-1], keep, axis)


@pytest.mark.parametrize("shape,axis", [((0,), 0), ((0, 5), 1), ((4, 0), 1), ((4, 0), 0),
                                        ((2, 0, 3), 1), ((0, 0), 0)])
def test_empty(shape, axis):
    d = np.ones(shape)
    x = tridi.solve(np.ones(shape), np.ones(shape), np.ones(shape), d, axis=axis)
    assert x.shape == shape and x.dtype == d.dtype
    x, info = tridi.solve(np.ones(shape), np.ones(shape), np.ones(shape), d, axis=axis, check=False)
    batch = tuple(e for i, e in enumerate(shape) if i != axis)
    assert info.shape == batch and info.dtype == np.int32 and not info.any()


def test_zero_d_operands():
    with pytest.raises(ValueError, match="0-d"):
        tridi.solve(np.array(1.0), np.array(2.0), np.array(1.0), np.array(1.0))
    with pytest.raises(ValueError, match="0-d"):
        tridi.solve(1.0, 2.0, 1.0, np.array(1.0))
    # a 0-d right-hand side broadcasts along a coefficient's axis
    x = tridi.solve(np.zeros(3), np.full(3, 2.0), np.zeros(3), np.array(1.0))
    np.testing.assert_array_equal(x, 0.5)


def test_single_row_systems(rng):
    a, b, c, d = dominant(rng, (6, 1))
    x = tridi.solve(a, b, c, d)
    np.testing.assert_allclose(x, d / b, rtol=1e-15)


def test_breakdown_raises_with_systems_and_rows(rng):
    a, b, c, d = dominant(rng, (3, 4, 8))
    b[1, 2, 0] = 0.0      # zero pivot at row 0 of system (1, 2)
    d[2, 0, 5] = np.nan   # NaN at row 5 of system (2, 0)
    with pytest.raises(tridi.BreakdownError) as err:
        tridi.solve(a, b, c, d, pivot="none")
    e = err.value
    assert isinstance(e, np.linalg.LinAlgError)
    assert e.info.shape == (3, 4)
    assert [tuple(map(int, s)) for s in zip(*e.systems)] == [(1, 2), (2, 0)]
    assert list(e.rows) == [0, 5]
    assert e.info[1, 2] == 1 and e.info[2, 0] == -6
    assert e.status == "TRIDI_ERR_ZERO_PIVOT"
    assert "2 of 12 systems" in str(e)


def test_check_false_returns_info_and_solves_the_others(rng):
    a, b, c, d = dominant(rng, (5, 8))
    b[3, :] = 1.0
    a[3, :] = 1.0
    c[3, :] = 1.0   # pivots 1, 0: zero pivot at row 2 (1-based)
    x, info = tridi.solve(a, b, c, d, check=False, pivot="none")
    assert info.dtype == np.int32 and info.shape == (5,)
    assert list(info) == [0, 0, 0, 2, 0]
    good = [0, 1, 2, 4]
    assert_solves(x[good], a[good], b[good], c[good], d[good])


def test_check_false_nonfinite(rng):
    a, b, c, d = dominant(rng, (2, 6))
    a[1, 3] = np.inf
    _, info = tridi.solve(a, b, c, d, check=False)
    assert list(info) == [0, -4]


UNGUARDED = ("cr", "pcr", "cr_pcr")  # neither pivot nor check: need assume_dominant


@pytest.mark.parametrize("alg", [a for a in tridi.algorithms if a != "auto"])
def test_forced_algorithms(rng, alg):
    a, b, c, d = dominant(rng, (7, 64))
    try:
        x, info = tridi.solve(a, b, c, d, alg=alg, check=False, assume_dominant=alg in UNGUARDED)
    except ValueError as e:
        assert "NOT_SUPPORTED" in str(e) or "INVALID_OPTION" in str(e)
        pytest.skip(f"{alg} does not apply on the CPU: {e}")
    ok = info == 0
    assert np.all(ok | (info == 2**31 - 1))  # rd, cr_rd may flag inaccuracy
    assert_solves(x[ok], a[ok], b[ok], c[ok], d[ok], factor=64)


@pytest.mark.parametrize("alg", UNGUARDED)
def test_unguarded_algorithms_need_the_declaration(rng, alg):
    a, b, c, d = dominant(rng, (3, 16))
    with pytest.raises(ValueError, match="INVALID_OPTION.*assume_dominant"):
        tridi.solve(a, b, c, d, alg=alg)
    with pytest.raises(ValueError, match="assume_dominant"):
        tridi.Plan(d.shape, d.dtype, alg=alg)
    x = tridi.solve(a, b, c, d, alg=alg, assume_dominant=True)
    assert_solves(x, a, b, c, d, factor=64)
    plan = tridi.Plan(d.shape, d.dtype, alg=alg, assume_dominant=True)
    assert plan.alg == alg
    assert_solves(plan(a, b, c, d), a, b, c, d, factor=64)


def test_assume_dominant_is_part_of_the_plan_key(rng):
    tridi._tridi.clear_plan_cache()
    a, b, c, d = dominant(rng, (3, 10))
    tridi.solve(a, b, c, d)
    tridi.solve(a, b, c, d, assume_dominant=True)
    assert tridi._tridi.plan_cache_size() == 2


def test_plans_are_cached(rng):
    tridi._tridi.clear_plan_cache()
    a, b, c, d = dominant(rng, (3, 10))
    for _ in range(5):
        tridi.solve(a, b, c, d)
    assert tridi._tridi.plan_cache_size() == 1
    tridi.solve(a, b, c, d, axis=0)
    tridi.solve(a.T, b.T, c.T, d.T, axis=0)
    assert tridi._tridi.plan_cache_size() == 3


def test_lists_and_python_numbers(rng):
    x = tridi.solve([0.0, 1.0, 1.0], [4.0, 4.0, 4.0], [1.0, 1.0, 0.0], [5.0, 6.0, 5.0])
    np.testing.assert_allclose(x, 1.0)


def test_gil_is_released(rng):
    d = np.ones((1 << 21, 8))
    plan = tridi.Plan(d.shape, d.dtype, threads=1)
    plan(-1.0, 4.0, -1.0, d)  # bind and warm up
    times = {}

    def worker():
        times["start"] = time.perf_counter()
        for _ in range(3):
            plan(-1.0, 4.0, -1.0, d, out=d)
        times["end"] = time.perf_counter()

    t = threading.Thread(target=worker)
    ticks = []
    t.start()
    while t.is_alive():
        ticks.append(time.perf_counter())
    t.join()
    inside = [s for s in ticks if times["start"] + 0.01 < s < times["end"] - 0.01]
    assert times["end"] - times["start"] > 0.05, "solve too quick to tell"
    assert len(inside) > 100, "the main thread did not run while tridi solved"


def test_threads_share_plans(rng):
    a, b, c, d = dominant(rng, (64, 40))
    want = tridi.solve(a, b, c, d)
    results = [None] * 4

    def work(i):
        for _ in range(20):
            results[i] = tridi.solve(a, b, c, d)

    threads = [threading.Thread(target=work, args=(i,)) for i in range(4)]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    for r in results:
        np.testing.assert_array_equal(r, want)


def test_every_operand_layout_combination(rng):
    """Each operand in its own layout: C, F, reversed, stepped."""
    shape = (6, 7)
    base = dominant(rng, (12, 14))
    layouts = {
        "C": lambda v: np.ascontiguousarray(v[:6, :7]),
        "F": lambda v: np.asfortranarray(v[:6, :7]),
        "rev": lambda v: v[5::-1, 6::-1],
        "step": lambda v: v[::2, ::2],
    }
    for names in itertools.product(layouts, repeat=4):
        ops = [layouts[name](v) for name, v in zip(names, base)]
        assert all(o.shape == shape for o in ops)
        for axis in (0, 1):
            assert_solves(tridi.solve(*ops, axis=axis), *ops, axis)


def test_reference_matches_scipy(rng):
    # the oracle itself, against LAPACK
    a, b, c, d = dominant(rng, (12,))
    ab = np.zeros((3, 12))
    ab[0, 1:], ab[1], ab[2, :-1] = c[:-1], b, a[1:]
    np.testing.assert_allclose(np.asarray(reference(a, b, c, d), float),
                               scipy.linalg.solve_banded((1, 1), ab, d), rtol=1e-13)
