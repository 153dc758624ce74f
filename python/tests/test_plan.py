"""tridi.Plan: made once, strides bound at the first call and checked after."""

from __future__ import annotations

import numpy as np
import pytest
import scipy.linalg

import tridi
from conftest import assert_solves, dominant


def test_attributes(rng):
    plan = tridi.Plan((8, 64), np.float64, axis=-1)
    assert plan.shape == (8, 64) and plan.dtype == "float64" and plan.axis == 1
    assert plan.backend == "cpu" and plan.alg in tridi.algorithms and plan.kernel
    assert isinstance(plan.workspace_bytes, int) and plan.workspace_bytes >= 0
    assert plan.num_systems == 8 and plan.threads >= 1 and not plan.bound
    assert plan.strides["x"] == (64, 1)
    assert "chosen" in plan.selection
    assert "tridi.Plan(shape=(8, 64)" in repr(plan)


@pytest.mark.parametrize("dtype", [np.float32, "float64", "float32", np.dtype("f8")])
def test_dtypes(rng, dtype):
    plan = tridi.Plan([5, 9], dtype)
    a, b, c, d = dominant(rng, (5, 9), np.dtype(dtype))
    assert_solves(plan(a, b, c, d), a, b, c, d)


def test_torch_style_dtype_name():
    class FakeTorchDtype:
        def __str__(self):
            return "torch.float32"

    assert tridi.Plan((3, 4), FakeTorchDtype()).dtype == "float32"


def test_binds_the_first_call_strides(rng):
    a, b, c, d = dominant(rng, (6, 10))
    plan = tridi.Plan(d.shape, d.dtype, axis=0)
    F = [np.asfortranarray(v) for v in (a, b, c, d)]
    x = plan(*F)
    assert plan.bound and plan.strides["a"] == (1, 6)
    assert_solves(x, a, b, c, d, axis=0)
    # same layout, new data: fine
    a2, b2, c2, d2 = (np.asfortranarray(v) for v in dominant(rng, (6, 10)))
    assert_solves(plan(a2, b2, c2, d2), a2, b2, c2, d2, axis=0)
    # another layout: refused, naming the operand
    with pytest.raises(ValueError, match=r"a has \(10, 1\), the plan \(1, 6\)"):
        plan(a, *F[1:])


def test_in_place_and_broadcast(rng):
    a, b, c, _ = dominant(rng, (16,))
    d = rng.uniform(-1, 1, (16, 32))
    plan = tridi.Plan(d.shape, d.dtype, axis=0)
    for _ in range(3):
        keep = d.copy()
        x = plan(a, b, c, d, out=d)
        assert x is d
        assert_solves(d, a[:, None], b[:, None], c[:, None], keep, axis=0)
    assert plan.strides["a"] == (1, 0) and plan.strides["x"] == plan.strides["d"]


def test_shape_dtype_device_mismatch(rng):
    plan = tridi.Plan((4, 6), np.float64)
    a, b, c, d = dominant(rng, (4, 7))
    with pytest.raises(ValueError, match=r"plan is for shape \(4, 6\)"):
        plan(a, b, c, d)
    a, b, c, d = dominant(rng, (4, 6), np.float32)
    with pytest.raises(TypeError, match="plan is for float64"):
        plan(a, b, c, d)


def test_check_false_and_breakdown(rng):
    a, b, c, d = dominant(rng, (3, 5))
    b[1, 0] = 0
    plan = tridi.Plan(d.shape, d.dtype, pivot="none")
    assert plan.pivot == "none"
    x, info = plan(a, b, c, d, check=False)
    assert list(info) == [0, 1, 0]
    with pytest.raises(tridi.BreakdownError):
        plan(a, b, c, d)
    # the default mode solves the (regular) system again with pivoting
    auto = tridi.Plan(d.shape, d.dtype)
    assert auto.pivot == "auto"
    x, info = auto(a, b, c, d, check=False)
    assert list(info) == [0, 0, 0]
    n = d.shape[1]
    for s in range(3):  # against SciPy (LAPACK gtsv, pivoting)
        ab = np.zeros((3, n))
        ab[0, 1:], ab[1], ab[2, :-1] = c[s, :-1], b[s], a[s, 1:]
        np.testing.assert_allclose(x[s], scipy.linalg.solve_banded((1, 1), ab, d[s]), rtol=1e-12)


def test_reference_backend_and_threads(rng):
    a, b, c, d = dominant(rng, (7, 33))
    ref = tridi.Plan(d.shape, d.dtype, backend="ref")
    assert ref.backend == "ref"
    one = tridi.Plan(d.shape, d.dtype, threads=1)
    assert one.threads == 1
    np.testing.assert_allclose(ref(a, b, c, d), one(a, b, c, d), rtol=1e-14)


@pytest.mark.parametrize("kwargs,exc,match", [
    (dict(shape=(), dtype=np.float64), ValueError, "1 to 8 extents"),
    (dict(shape=(1,) * 9, dtype=np.float64), ValueError, "1 to 8 extents"),
    (dict(shape=(3, -1), dtype=np.float64), ValueError, "negative"),
    (dict(shape=(3, 4), dtype=np.int32), TypeError, "float32 or float64"),
    (dict(shape=(3, 4), dtype=np.float64, axis=2), ValueError, "out of bounds"),
    (dict(shape=(3, 4), dtype=np.float64, alg="nope"), ValueError, "not an algorithm"),
    (dict(shape=(3, 4), dtype=np.float64, backend="gpu"), ValueError, "not one of"),
    (dict(shape=(3, 4), dtype=np.float64, threads=-1), ValueError, "threads"),
    (dict(shape=(3, 4), dtype=np.float64, alg="thomas_shared"), ValueError, "NOT_SUPPORTED"),
])
def test_bad_arguments(kwargs, exc, match):
    with pytest.raises(exc, match=match):
        tridi.Plan(**kwargs)


def test_scalar_shape_and_empty(rng):
    plan = tridi.Plan(5, np.float64)
    assert plan.shape == (5,)
    empty = tridi.Plan((0, 5), np.float64)
    x = empty(np.ones((0, 5)), np.ones((0, 5)), np.ones((0, 5)), np.ones((0, 5)))
    assert x.shape == (0, 5)
