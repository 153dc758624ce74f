"""tridi.solve_banded against scipy.linalg.solve_banded: same results,
shapes, dtypes and errors for the tridiagonal case."""

from __future__ import annotations

import numpy as np
import pytest
import scipy.linalg

import tridi
from conftest import dominant


def banded(rng, m, batch=(), dtype=np.float64):
    a, b, c, _ = dominant(rng, batch + (m,), dtype)
    ab = np.zeros(batch + (3, m), dtype)
    ab[..., 0, 1:] = c[..., :-1]
    ab[..., 1, :] = b
    ab[..., 2, :-1] = a[..., 1:]
    return ab


def check_same(ab, b, **kw):
    want = scipy.linalg.solve_banded((1, 1), ab, b, **kw)
    got = tridi.solve_banded((1, 1), ab, b, **kw)
    assert got.shape == want.shape and got.dtype == want.dtype
    eps = np.finfo(got.dtype).eps if got.dtype.kind == "f" else 1e-15
    np.testing.assert_allclose(got, want, rtol=200 * eps, atol=200 * eps)
    return got


@pytest.mark.parametrize("m", [1, 2, 3, 10, 57])
@pytest.mark.parametrize("dtype", [np.float32, np.float64])
def test_one_right_hand_side(rng, m, dtype):
    check_same(banded(rng, m, dtype=dtype), rng.uniform(-1, 1, m).astype(dtype))


@pytest.mark.parametrize("m,k", [(2, 1), (9, 4), (30, 3)])
def test_several_right_hand_sides(rng, m, k):
    check_same(banded(rng, m), rng.uniform(-1, 1, (m, k)))


def test_batched(rng):
    ab = banded(rng, 8, batch=(2, 3))
    check_same(ab, rng.uniform(-1, 1, (2, 3, 8, 4)))   # b core (M, K)
    check_same(ab, rng.uniform(-1, 1, (3, 8, 1)))      # batch broadcast
    check_same(banded(rng, 8, batch=(5,)), rng.uniform(-1, 1, 8))


@pytest.mark.parametrize("pair", [(np.float32, np.float64), (np.float64, np.float32),
                                  (np.int64, np.int64), (np.int32, np.float32)])
def test_dtype_rules(rng, pair):
    ab = banded(rng, 6) * 4
    ab = np.round(ab).astype(pair[0]) if np.issubdtype(pair[0], np.integer) else ab.astype(pair[0])
    if np.issubdtype(pair[0], np.integer):
        ab[1] = 10
    b = (rng.uniform(-5, 5, 6)).astype(pair[1])
    check_same(ab, b)


def test_layouts_of_ab(rng):
    ab = banded(rng, 12)
    b = rng.uniform(-1, 1, 12)
    check_same(np.asfortranarray(ab), b)          # copied: the outer elements lie outside
    big = np.zeros((5, 30))
    big[1:4, 3:27:2] = ab
    check_same(big[1:4, 3:27:2], b)               # stepped view inside a bigger array
    rev = np.ascontiguousarray(ab[::-1])[::-1]    # negative row stride
    check_same(rev, b)
    check_same(ab, b[::-1].copy()[::-1])


def test_no_copy_of_c_ordered_ab(rng):
    ab = banded(rng, 9)
    sub = tridi._api._shifted(ab, 2, -1)
    sup = tridi._api._shifted(ab, 0, +1)
    assert np.shares_memory(sub, ab) and np.shares_memory(sup, ab)
    np.testing.assert_array_equal(sub[1:], ab[2, :-1])
    np.testing.assert_array_equal(sup[:-1], ab[0, 1:])
    assert tridi._api._shifted(np.asfortranarray(ab), 2, -1) is None


def test_overwrite_b(rng):
    ab = banded(rng, 7)
    b = rng.uniform(-1, 1, 7)
    keep = b.copy()
    x = tridi.solve_banded((1, 1), ab, b, overwrite_b=True)
    assert x is b
    np.testing.assert_allclose(x, scipy.linalg.solve_banded((1, 1), ab, keep), rtol=1e-13)
    ab_before = ab.copy()
    tridi.solve_banded((1, 1), ab, keep, overwrite_ab=True)
    np.testing.assert_array_equal(ab, ab_before)


def test_empty(rng):
    for ab, b in [(np.zeros((3, 0)), np.zeros(0)), (np.zeros((3, 4)), np.zeros((4, 0)))]:
        check_same(ab, b)


@pytest.mark.parametrize("ab_shape,b_shape", [((3, 5), (4,)), ((3, 5), (4, 2)), ((4, 5), (5,)),
                                              ((2, 5), (5,))])
def test_shape_errors_as_scipy(ab_shape, b_shape):
    ab, b = np.ones(ab_shape), np.ones(b_shape)
    with pytest.raises(ValueError) as want:
        scipy.linalg.solve_banded((1, 1), ab, b)
    with pytest.raises(ValueError) as got:
        tridi.solve_banded((1, 1), ab, b)
    assert str(got.value) == str(want.value)


@pytest.mark.parametrize("where", ["ab", "b"])
def test_check_finite(rng, where):
    ab, b = banded(rng, 5), rng.uniform(-1, 1, 5)
    if where == "ab":
        ab[1, 2] = np.inf
    else:
        b[3] = np.nan
    with pytest.raises(ValueError, match="must not contain infs or NaNs"):
        tridi.solve_banded((1, 1), ab, b)


def test_zero_pivot_is_a_linalg_error():
    singular = np.array([[0.0, 1.0], [1.0, 1.0], [1.0, 0.0]])  # [[1, 1], [1, 1]]
    for solve_banded in (tridi.solve_banded, scipy.linalg.solve_banded):
        with pytest.raises(np.linalg.LinAlgError):
            solve_banded((1, 1), singular, np.ones(2))
    # regular, but elimination without pivoting meets a zero pivot: SciPy
    # (LAPACK gtsv pivots) solves it, and so does tridi (its default pivot
    # mode solves such systems again with partial pivoting)
    ab = np.array([[0.0, 1.0, 1.0], [1.0, 1.0, 1.0], [1.0, 1.0, 0.0]])  # pivots 1, 0
    np.testing.assert_allclose(tridi.solve_banded((1, 1), ab, np.ones(3)),
                               scipy.linalg.solve_banded((1, 1), ab, np.ones(3)), rtol=1e-14)
    a, b, c = ab[2, :-1], ab[1], ab[0, 1:]
    with pytest.raises(tridi.BreakdownError, match="zero pivot at row 1"):
        tridi.solve(np.r_[0.0, a], b, np.r_[c, 0.0], np.ones(3), pivot="none")


def test_other_bands_and_complex_go_to_scipy(rng):
    ab = np.vstack([banded(rng, 6), np.ones((1, 6)) * 0.1])
    b = rng.uniform(-1, 1, 6)
    np.testing.assert_array_equal(tridi.solve_banded((2, 1), ab, b),
                                  scipy.linalg.solve_banded((2, 1), ab, b))
    abc = banded(rng, 6).astype(complex)
    np.testing.assert_array_equal(tridi.solve_banded((1, 1), abc, b),
                                  scipy.linalg.solve_banded((1, 1), abc, b))


def test_masked_and_object_arrays():
    with pytest.raises(ValueError, match="masked"):
        tridi.solve_banded((1, 1), np.ma.ones((3, 4)), np.ones(4))
    with pytest.raises(ValueError, match="object"):
        tridi.solve_banded((1, 1), np.ones((3, 4), dtype=object), np.ones(4))


def test_lists(rng):
    ab = banded(rng, 4)
    check_same(ab.tolist(), [1.0, 2.0, 3.0, 4.0])
