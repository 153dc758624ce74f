"""The call itself: tridi.solve's and Plan.__call__'s arguments as CPython
passes them (keywords, positions, conversions, errors worded as Python's),
operands that are the same object (read once), and the info= keyword (the
caller's own info array: written codes, shape, dtype, device and layout
errors)."""

from __future__ import annotations

import inspect

import numpy as np
import pytest

import tridi
from conftest import assert_solves, dominant


@pytest.fixture
def ops(rng):
    return dominant(rng, (4, 6))


def test_signature_and_doc():
    sig = inspect.signature(tridi.solve)
    assert list(sig.parameters) == ["a", "b", "c", "d", "axis", "out", "alg", "pivot", "check",
                                    "info", "assume_dominant"]
    assert sig.parameters["assume_dominant"].default is False
    assert sig.parameters["axis"].default == -1 and sig.parameters["check"].default is True
    assert sig.parameters["axis"].kind is inspect.Parameter.KEYWORD_ONLY
    assert tridi.solve.__module__ == "tridi" and tridi.solve.__name__ == "solve"
    assert tridi.solve.__doc__.startswith("Solve a batch of tridiagonal systems")
    assert "info : array of int32, optional" in tridi.solve.__doc__


def test_operands_by_keyword_and_conversions(ops):
    a, b, c, d = ops
    x = tridi.solve(d=d, c=c, b=b, a=a)
    assert_solves(x, a, b, c, d)
    # axis through operator.index, check through bool(): NumPy scalars too
    xt, info = tridi.solve(a.T, b.T, c.T, d.T, axis=np.int64(0), check=np.bool_(False))
    assert_solves(xt, a.T, b.T, c.T, d.T, axis=0)
    assert info.shape == (4,) and not info.any()
    assert isinstance(tridi.solve(a, b, c, d, check=0), tuple)


@pytest.mark.parametrize("call, match", [
    (lambda o: tridi.solve(*o, -1), "takes 4 positional arguments but 5 were given"),
    (lambda o: tridi.solve(*o[:3]), "missing required argument 'd'"),
    (lambda o: tridi.solve(*o, axes=-1), "unexpected keyword argument 'axes'"),
    (lambda o: tridi.solve(*o[:3], o[3], d=o[3]), "multiple values for argument 'd'"),
    (lambda o: tridi.solve(*o, axis=1.0), "cannot be interpreted as an integer"),
    (lambda o: tridi.solve(*o, pivot=1), "pivot must be str"),
    (lambda o: tridi.solve(*o, alg=None), "alg must be a str, got NoneType"),
])
def test_bad_calls(ops, call, match):
    with pytest.raises(TypeError, match=match):
        call(ops)


def test_check_that_cannot_be_a_bool(ops):
    class NoBool:
        def __bool__(self):
            raise ZeroDivisionError("no truth value")

    with pytest.raises(ZeroDivisionError):
        tridi.solve(*ops, check=NoBool())


def test_pivot_and_alg_by_name(ops):
    x = tridi.solve(*ops, alg="thomas", pivot="none")
    assert_solves(x, *ops)
    with pytest.raises(ValueError, match="pivot='sideways'"):
        tridi.solve(*ops, pivot="sideways")


def test_same_object_operands_read_once(rng):
    a, b, c, d = dominant(rng, (5, 7))
    # a and c the same array, and the same Python number
    assert_solves(tridi.solve(a, b, a, d), a, b, a, d)
    assert_solves(tridi.solve(-1.0, 4.0, -1.0, d), -1.0, 4.0, -1.0, d)
    m = -0.5
    assert_solves(tridi.solve(m, 4.0, m, d), m, 4.0, m, d)
    # out=d in place; a read-only d is refused as out all the same
    e = d.copy()
    assert tridi.solve(a, b, c, e, out=e) is e
    assert_solves(e, a, b, c, d)
    ro = d.copy()
    ro.flags.writeable = False
    with pytest.raises(ValueError, match="out is read-only"):
        tridi.solve(a, b, c, ro, out=ro)
    np.testing.assert_array_equal(ro, d)
    # a number is not an out, also when it is d
    with pytest.raises(TypeError, match="out must be a writable array"):
        tridi.solve(a, b, c, 5.0, out=5.0)
    lst = [1.0] * 7
    with pytest.raises(TypeError, match="out must be a writable array"):
        tridi.solve(a, b, c, lst, out=lst)
    # b the same array as d (the diagonal is the right-hand side)
    bd = b.copy()
    assert_solves(tridi.solve(a, bd, c, bd), a, bd, c, bd)


# ---- info= -------------------------------------------------------------------------


def breaking(rng):
    a, b, c, d = dominant(rng, (5, 6))
    b[2, 0] = 0.0  # system 2: zero pivot at row 0 without pivoting
    return a, b, c, d


def test_info_is_written_and_returned(rng):
    a, b, c, d = breaking(rng)
    info = np.full(5, 77, dtype=np.int32)
    x, got = tridi.solve(a, b, c, d, pivot="none", check=False, info=info)
    assert got is info
    assert list(info) == [0, 0, 1, 0, 0]
    keep = np.isin(np.arange(5), [0, 1, 3, 4])
    assert_solves(x[keep], a[keep], b[keep], c[keep], d[keep])
    # a solved batch clears every code
    tridi.solve(*dominant(rng, (5, 6)), check=False, info=info)
    assert not info.any()


def test_info_with_check_raises_and_keeps_the_codes(rng):
    a, b, c, d = breaking(rng)
    info = np.zeros(5, dtype=np.int32)
    with pytest.raises(tridi.BreakdownError) as e:
        tridi.solve(a, b, c, d, pivot="none", info=info)
    assert list(e.value.systems[0]) == [2]
    assert list(info) == [0, 0, 1, 0, 0]
    ok = dominant(rng, (5, 6))
    x = tridi.solve(*ok, info=info)  # check=True: x alone
    assert isinstance(x, np.ndarray) and not info.any()


def test_info_of_a_batch_of_several_dimensions_and_axes(rng):
    a, b, c, d = dominant(rng, (3, 8, 4))
    info = np.full((3, 4), -5, dtype=np.int32)
    x, got = tridi.solve(a, b, c, d, axis=1, check=False, info=info)
    assert got is info and not info.any()
    assert_solves(x, a, b, c, d, axis=1)
    # one system: a 0-d info
    a1, b1, c1, d1 = dominant(rng, (9,))
    info0 = np.full((), 3, dtype=np.int32)
    x1, got = tridi.solve(a1, b1, c1, d1, check=False, info=info0)
    assert got is info0 and int(info0) == 0


def test_info_with_plan(rng):
    a, b, c, d = breaking(rng)
    plan = tridi.Plan(d.shape, d.dtype, pivot="none")
    info = np.full(5, 9, dtype=np.int32)
    out = np.empty_like(d)
    x, got = plan(a, b, c, d, out, False, info=info)  # out and check by position
    assert x is out and got is info and list(info) == [0, 0, 1, 0, 0]
    with pytest.raises(tridi.BreakdownError):
        plan(a, b, c, d, info=info)
    with pytest.raises(TypeError, match="unexpected keyword argument 'infos'"):
        plan(a, b, c, d, infos=info)
    with pytest.raises(TypeError, match="takes 6 positional arguments"):
        plan(a, b, c, d, out, False, info, None)
    with pytest.raises(ValueError, match="info has shape"):
        plan(a, b, c, d, info=np.zeros(4, dtype=np.int32))


def test_info_of_zero_length_systems_is_cleared():
    d = np.empty((3, 0))
    info = np.full(3, 7, dtype=np.int32)
    x, got = tridi.solve(d, d, d, d, check=False, info=info)
    assert got is info and not info.any() and x.shape == (3, 0)


@pytest.mark.parametrize("bad, exc, match", [
    (np.zeros(4, dtype=np.int32), ValueError, r"info has shape \(4,\) but the batch .* is \(5,\)"),
    (np.zeros((5, 1), dtype=np.int32), ValueError, "info has shape"),
    (np.zeros(5, dtype=np.int64), TypeError, "info has dtype int64; it must be an int32 array"),
    (np.zeros(5, dtype=np.float32), TypeError, "info has dtype float32"),
    (np.zeros(10, dtype=np.int32)[::2], ValueError, "info must be C-contiguous"),
    ([0, 0, 0, 0, 0], TypeError, "info must be a writable array"),
    ("info", TypeError, "info must be a writable array"),
])
def test_info_errors(rng, bad, exc, match):
    a, b, c, d = dominant(rng, (5, 6))
    out = np.full_like(d, np.nan)
    with pytest.raises(exc, match=match):
        tridi.solve(a, b, c, d, out=out, check=False, info=bad)
    assert np.isnan(out).all()  # refused before solving


def test_info_read_only_and_fortran(rng):
    a, b, c, d = dominant(rng, (3, 4, 6))
    ro = np.zeros((3, 4), dtype=np.int32)
    ro.flags.writeable = False
    with pytest.raises(ValueError, match="info is read-only"):
        tridi.solve(a, b, c, d, check=False, info=ro)
    with pytest.raises(ValueError, match="C-contiguous"):
        tridi.solve(a, b, c, d, check=False, info=np.zeros((4, 3), dtype=np.int32).T)
