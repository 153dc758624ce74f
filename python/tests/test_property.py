"""Property-based tests (hypothesis): random ranks, shapes, axes, storage
orders, steps (negative too), broadcasting and outputs; every solution is
checked against the long-double reference, and no element of the output's
buffer outside the solution may be written."""

from __future__ import annotations

import numpy as np
from hypothesis import HealthCheck, assume, given, settings
from hypothesis import strategies as st

import tridi
from conftest import along, assert_solves


@st.composite
def layouts(draw, ndim):
    """How an array is stored: storage order of its dimensions, step of each."""
    perm = draw(st.permutations(range(ndim)))
    steps = draw(st.lists(st.sampled_from([1, 1, 2, -1, -2]), min_size=ndim, max_size=ndim))
    return list(perm), steps


def strided(shape, layout, dtype, fill=np.nan):
    """A view of `shape` stored in dimension order `perm` with `steps` inside
    a larger buffer filled with `fill`; returns (view, buffer)."""
    perm, steps = layout
    big = [max(1, n) * abs(s) for n, s in zip(shape, steps)]
    buf = np.full([big[p] for p in perm], fill, dtype=dtype)
    if not shape:
        return buf, buf
    view = buf.transpose(np.argsort(perm))[tuple(slice(None, None, s) for s in steps)]
    return view[tuple(slice(0, n) for n in shape)], buf


KINDS_D = ["full", "ones", "drop"]
KINDS_COEF = KINDS_D + ["zero_d", "along"]


def operand_shapes(kind, mask, drop, shape, axis):
    """(the operand's shape, its shape for NumPy broadcasting in the reference)."""
    rank = len(shape)
    if kind == "full":
        return shape, shape
    if kind == "ones":
        sh = tuple(1 if m else n for m, n in zip(mask, shape))
        return sh, sh
    if kind == "drop":
        return shape[drop:], shape[drop:]
    if kind == "zero_d":
        return (), ()
    ref = [1] * rank  # "along": 1-d, lies along the solve axis
    ref[axis] = shape[axis]
    return (shape[axis],), tuple(ref)


@st.composite
def problems(draw):
    rank = draw(st.integers(1, 4))
    shape = tuple(draw(st.lists(st.integers(0, 5), min_size=rank, max_size=rank)))
    axis = draw(st.integers(-rank, rank - 1))
    dtype = draw(st.sampled_from([np.float32, np.float64]))
    operands = []
    for k in range(4):
        kind = draw(st.sampled_from(KINDS_COEF if k < 3 else KINDS_D))
        mask = draw(st.lists(st.booleans(), min_size=rank, max_size=rank))
        drop = draw(st.integers(0, rank))
        sh, ref = operand_shapes(kind, mask, drop, shape, axis % rank)
        if kind == "drop" and len(sh) == 1 and k < 3 and rank > 1:
            sh, ref = shape, shape  # a 1-d coefficient would lie along the axis
        operands.append((sh, ref, draw(layouts(len(sh)))))
    out = draw(st.sampled_from(["new", "in_place", "view"]))
    return shape, axis, dtype, operands, out, draw(st.integers(0, 2**32 - 1)), draw(st.data())


@settings(max_examples=250, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(problems())
def test_random_layouts(problem):
    shape, axis, dtype, operands, out_kind, seed, data = problem
    # the problem's rank is the largest operand's (a 1-d coefficient lies
    # along the axis only in a problem of more dimensions)
    assume(max(len(sh) for sh, _, _ in operands) == len(shape))
    rng = np.random.default_rng(seed)
    ops, refs = [], []
    for k, (sh, ref, layout) in enumerate(operands):
        v, _ = strided(sh, layout, dtype)
        if k == 1:  # |b| >= 5 > 2 (|a| + |c|): diagonally dominant whatever broadcasts
            v[...] = np.where(rng.random(sh) < 0.5, -1, 1) * (5 + rng.random(sh))
        else:
            v[...] = rng.uniform(-1, 1, sh)
        ops.append(v)
        refs.append(v.reshape(ref))
    full = np.broadcast_shapes(*(r.shape for r in refs))
    d_ref = refs[3]
    out = buf = None
    if out_kind == "in_place" and ops[3].shape == full:
        out = ops[3]
        d_ref = ops[3].copy()
    elif out_kind == "view":
        out, buf = strided(full, data.draw(layouts(len(full))), dtype)
    x = tridi.solve(*ops, axis=axis, out=out)
    assert x is out or out is None
    assert x.shape == full and x.dtype == dtype
    assert_solves(x, *refs[:3], d_ref, axis=axis, dtype=dtype, factor=32)
    if buf is not None:  # exactly the solution's elements were written
        assert int(np.count_nonzero(~np.isnan(buf))) == x.size


@settings(max_examples=60, deadline=None)
@given(st.integers(1, 6), st.integers(0, 4), st.integers(0, 1), st.integers(0, 2**32 - 1))
def test_plan_reuse_matches_solve(n, batch, axis, seed):
    rng = np.random.default_rng(seed)
    shape = (n, batch) if axis == 0 else (batch, n)
    a, c, d = (rng.uniform(-1, 1, shape) for _ in range(3))
    b = 5 + rng.random(shape)
    plan = tridi.Plan(shape, np.float64, axis=axis)
    for _ in range(2):
        np.testing.assert_array_equal(plan(a, b, c, d), tridi.solve(a, b, c, d, axis=axis))
    coef = np.linspace(-0.5, 0.5, n)
    x = tridi.solve(coef, 3.0, coef, d, axis=axis)
    assert_solves(x, along(coef, 2, axis), 3.0, along(coef, 2, axis), d, axis=axis)
