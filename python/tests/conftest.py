"""Shared helpers of the tridi Python tests: problems, the long-double
reference solver and the accuracy checks."""

from __future__ import annotations

import numpy as np
import pytest


def dominant(rng, shape, dtype=np.float64, margin=1.0):
    """Random a, b, c, d of `shape` with |b| >= 2 (|a| + |c|) + margin: well
    conditioned, so the solution is accurate to a small multiple of n eps."""
    a = rng.uniform(-1, 1, shape)
    c = rng.uniform(-1, 1, shape)
    sign = np.where(rng.random(shape) < 0.5, -1.0, 1.0)
    b = sign * (2 * (np.abs(a) + np.abs(c)) + margin + rng.random(shape))
    d = rng.uniform(-1, 1, shape)
    return tuple(np.asarray(v, dtype=dtype) for v in (a, b, c, d))


def along(v, ndim, axis):
    """A 1-d array placed along `axis` of an ndim-d problem (NumPy broadcasting)."""
    shape = [1] * ndim
    shape[axis] = -1
    return np.reshape(v, shape)


def reference(a, b, c, d, axis=-1):
    """Thomas in long double on the broadcast operands (the oracle)."""
    ops = np.broadcast_arrays(*(np.asarray(v, dtype=np.longdouble) for v in (a, b, c, d)))
    a, b, c, d = (np.moveaxis(v, axis, -1) for v in ops)
    n = d.shape[-1]
    x = np.empty(d.shape, dtype=np.longdouble)
    if d.size == 0:
        return np.moveaxis(x, -1, axis)
    cp = np.empty_like(x)
    dp = np.empty_like(x)
    cp[..., 0] = c[..., 0] / b[..., 0]
    dp[..., 0] = d[..., 0] / b[..., 0]
    for i in range(1, n):
        m = b[..., i] - a[..., i] * cp[..., i - 1]
        cp[..., i] = c[..., i] / m
        dp[..., i] = (d[..., i] - a[..., i] * dp[..., i - 1]) / m
    x[..., n - 1] = dp[..., n - 1]
    for i in range(n - 2, -1, -1):
        x[..., i] = dp[..., i] - cp[..., i] * x[..., i + 1]
    return np.moveaxis(x, -1, axis)


def assert_solves(x, a, b, c, d, axis=-1, dtype=None, factor=16):
    """x agrees with the long-double reference to factor * n * eps, relative
    to each system's largest |x|."""
    x = np.asarray(x)
    dtype = np.dtype(dtype or x.dtype)
    ref = reference(a, b, c, d, axis)
    assert x.shape == ref.shape
    if x.size == 0:
        return
    n = ref.shape[axis]
    eps = np.finfo(dtype).eps
    err = np.abs(x.astype(np.longdouble) - ref)
    scale = np.max(np.abs(ref), axis=axis, keepdims=True)
    scale = np.where(scale > 0, scale, 1)
    worst = float(np.max(err / scale))
    assert worst <= factor * max(n, 1) * eps, f"relative error {worst:.3e} > {factor} n eps (n = {n})"


@pytest.fixture
def rng(request):
    seed = abs(hash(request.node.nodeid)) % (2**32)
    return np.random.default_rng(seed)
