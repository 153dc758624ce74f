"""tridi.solve, tridi.Plan and tridi.solve_banded."""

from __future__ import annotations

import operator

import numpy as np

from . import _tridi as _ext
from ._errors import BreakdownError  # noqa: F401  (documented in the docstrings)

__all__ = ["solve", "Plan", "solve_banded"]


_SOLVE_DOC = """solve(a, b, c, d, *, axis=-1, out=None, alg='auto', pivot='auto', check=True, info=None, assume_dominant=False)
--

Solve a batch of tridiagonal systems along one axis of N-d arrays.

Every index of the dimensions other than ``axis`` is one independent
system of length ``n = shape[axis]``::

    a[i] x[i-1] + b[i] x[i] + c[i] x[i+1] = d[i],   i = 0 .. n-1

``a[0]`` and ``c[n-1]`` are not used (their values, NaN included, are
ignored).  The arrays are read where they are, with their strides: any
slice, transpose, Fortran order or negative step is solved without a
copy.  Host arrays (NumPy, or anything with the buffer protocol or a CPU
DLPack device) are solved on the CPU; CUDA arrays (CuPy, PyTorch, or any
DLPack producer on a CUDA device) on the GPU, on the array library's
current stream.  The GIL is released while tridi solves.

Parameters
----------
a, b, c : array_like
    Sub-diagonal, diagonal and super-diagonal.  They broadcast against
    ``d`` by NumPy's rules (a stride of 0 in tridi: one matrix for many
    right-hand sides costs no copy), with one addition: a 1-d
    coefficient of a problem with more dimensions lies along ``axis``
    (length ``n`` or 1).  A 0-d array or a Python number is a constant
    diagonal; a Python number takes ``d``'s dtype.
d : array_like
    Right-hand sides.
axis : int, optional
    The axis the systems run along (default -1, the last), counted in
    the broadcast shape of ``a, b, c, d``.
out : array, optional
    Where to write the solution: an array of the broadcast shape and
    dtype on the same device, any strides.  ``out=d`` solves in place.
    It must not otherwise overlap an input.  Default: a new C-ordered
    array of ``d``'s library (NumPy for NumPy inputs).
alg : str, optional
    ``"auto"`` (default: the planner chooses from measurements) or an
    algorithm name: ``"thomas"``, ``"thomas_pcr"``, ``"cr"``, ``"pcr"``,
    ``"rd"``, ``"cr_pcr"``, ``"cr_rd"``, ... (:data:`tridi.algorithms`).
    A name that does not apply to the backend raises ``ValueError``.
    ``"cr"``, ``"pcr"`` and ``"cr_pcr"`` neither pivot nor check their
    result: they need ``assume_dominant=True`` (else ``ValueError``).
pivot : str, optional
    ``"auto"`` (default): eliminate without pivoting, measure each
    system's element growth, and solve the systems that grow too much
    or break down again with partial pivoting (out of place only; in
    place they are reported); ``"partial"``: LAPACK ``?gtsv``'s partial
    pivoting for every system; ``"none"``: no pivoting, such systems
    reported (``info`` ``2**31 - 1`` for growth).  docs/accuracy.md.
check : bool, optional
    True (default): raise :class:`BreakdownError` if a system meets a
    zero pivot or a NaN/Inf (on the GPU this reads the info array back,
    which waits for the solve).  False: return ``(x, info)`` instead and
    never wait.
info : array of int32, optional
    Where to write the info codes: a writable C-contiguous int32 array of
    the batch's shape (the broadcast shape without ``axis``) on ``d``'s
    device, which must not overlap an operand.  Returned as ``info`` with
    ``check=False``; with ``check=True`` it is read for the check.  A
    loop that passes ``out`` and ``info`` allocates nothing per call.
    Default: a new array of ``d``'s library (with ``check=False`` on CuPy
    arrays, one of a few arrays tridi made before that nothing refers to
    any more, reused on the stream it was last used on).
assume_dominant : bool, optional
    False (default).  True declares every system diagonally dominant (by
    rows or columns) or symmetric positive definite: growth is then not
    measured, nothing is solved again, and ``"cr"``, ``"pcr"``,
    ``"cr_pcr"`` may be asked for (for them the declaration must be
    diagonal dominance).  docs/accuracy.md.

Returns
-------
x : array
    The solution (``out`` when given).
info : array of int32, only when ``check=False``
    One code per system, shaped like the batch (``x.shape`` without
    ``axis``), on ``x``'s device (``info`` itself when given): 0 solved,
    ``k > 0`` zero pivot at row ``k - 1``, ``k < 0`` NaN/Inf at row
    ``-k - 1``, ``2**31 - 1`` solved but inaccurate (``rd``, ``cr_rd``).  A failed system's ``x`` is
    unspecified; the others are solved.

Raises
------
TypeError
    An operand that is not an array, integer or mixed float32/float64
    operands (tridi never casts), or an ``out`` of another dtype.
ValueError
    Shapes that do not broadcast, 0-d operands only, ``axis`` out of
    range, more than 8 dimensions, operands on different devices, a
    read-only ``out``, an ``out`` that overlaps an input other than as
    ``out=d``, misaligned data, an unknown ``alg``, an ``info`` of
    another shape or device or not C-contiguous (of another dtype:
    ``TypeError``).
BreakdownError
    With ``check=True``, when a system breaks down (see above).
RuntimeError
    A CUDA array with a tridi built without CUDA, or a CUDA error.

Notes
-----
tridi does not pivot.  It is stable for diagonally dominant and
symmetric positive definite matrices (ADI schemes, splines, implicit
diffusion); for general matrices use LAPACK ``?gtsv``
(``scipy.linalg.solve_banded``).  Plans are cached by layout, so a
repeated call on arrays of the same shapes and strides costs the
argument checks and the solve; :class:`Plan` makes the reuse explicit.

Examples
--------
>>> import numpy as np, tridi
>>> n = 5
>>> d = np.ones((3, n))                  # three systems of length 5
>>> x = tridi.solve(-1.0, 4.0, -1.0, d)  # constant diagonals
>>> np.allclose(4 * x[:, 1:-1] - x[:, :-2] - x[:, 2:], 1)
True
>>> x = tridi.solve(-1.0, 4.0, -1.0, d.T, axis=0)   # along the first axis
"""

# tridi.solve is the extension's entry itself (a builtin taking its
# arguments as CPython passes them: no Python frame per call), with this
# docstring; the signature line above is what inspect.signature reads.
solve = _ext.make_solve(_SOLVE_DOC, "tridi")


def _dtype_name(dtype) -> str:
    try:
        dt = np.dtype(dtype)
    except TypeError:
        # torch.float32 and the like
        dt = np.dtype(str(dtype).rsplit(".", 1)[-1])
    if dt not in (np.dtype(np.float32), np.dtype(np.float64)):
        raise TypeError(f"tridi.Plan: dtype must be float32 or float64, got {dt}")
    return dt.name


class Plan(_ext.Plan):
    """A solve planned once and executed many times.

    Parameters
    ----------
    shape : sequence of int
        Shape of the problem: the broadcast shape of ``a, b, c, d``, which
        is the shape of the solution.
    dtype : dtype
        ``float32`` or ``float64`` (NumPy dtypes, their names, or PyTorch's).
    axis : int, optional
        The axis the systems run along (default -1).
    alg : str, optional
        Algorithm, as for :func:`solve`.
    pivot : str, optional
        Pivoting, as for :func:`solve` (default ``"auto"``).
    backend : str, optional
        ``"cpu"`` (default; OpenMP + SIMD), ``"ref"`` (the one-thread
        reference solver) or ``"cuda"`` (CUDA arrays on ``device``).
    device : int, optional
        CUDA device ordinal (``backend="cuda"``).
    threads : int, optional
        CPU threads (0: OpenMP's default).
    assume_dominant : bool, optional
        As for :func:`solve` (default False).

    Notes
    -----
    The strides of the five operands are taken from the first call's arrays
    (until then the plan describes C-ordered operands of ``shape``); every
    later call must pass arrays with the same strides, or gets a
    ``ValueError`` saying which differ.  Calling the plan,
    ``plan(a, b, c, d, out=None, check=True, info=None)``, behaves as
    :func:`solve` otherwise.

    Attributes
    ----------
    alg, backend, kernel : str
        What the planner chose.
    workspace_bytes : int
        Workspace the plan owns.
    threads : int
        CPU threads the plan uses.
    shape, dtype, axis, device, num_systems
        What the plan solves.
    bound : bool
        Whether a call has fixed the strides yet.
    strides : dict
        Strides (in elements) of a, b, c, d and x of the current plan.
    selection : str
        The planner's reasoning, one line per candidate solver.

    Examples
    --------
    >>> import numpy as np, tridi
    >>> d = np.random.rand(64, 128)
    >>> plan = tridi.Plan(d.shape, d.dtype, axis=-1)
    >>> for step in range(10):
    ...     x = plan(-1.0, 4.0, -1.0, d, out=d)   # in place, no planning
    """

    def __init__(self, shape, dtype, axis=-1, *, alg="auto", pivot="auto", backend="cpu", device=0,
                 threads=0, assume_dominant=False):
        try:
            dims = tuple(operator.index(s) for s in shape)
        except TypeError:
            dims = (operator.index(shape),)
        if not isinstance(alg, str) or not isinstance(pivot, str) or not isinstance(backend, str):
            raise TypeError("tridi.Plan: alg, pivot and backend must be str")
        super().__init__(dims, _dtype_name(dtype), operator.index(axis), alg, pivot, backend,
                         operator.index(device), operator.index(threads), bool(assume_dominant))

    def __repr__(self) -> str:
        return (f"tridi.Plan(shape={self.shape}, dtype={self.dtype}, axis={self.axis}, "
                f"backend={self.backend!r}, alg={self.alg!r}, kernel={self.kernel!r})")


def _asarray_validated(a, check_finite):
    """SciPy's argument rules for solve_banded's arrays."""
    if np.ma.isMaskedArray(a):
        raise ValueError("masked arrays are not supported")
    a = np.asarray_chkfinite(a) if check_finite else np.asarray(a)
    if a.dtype == object:
        raise ValueError("object arrays are not supported")
    if not np.issubdtype(a.dtype, np.inexact):
        a = a.astype(np.float64)
    return a


def _scipy_solve_banded(l_and_u, ab, b, overwrite_ab, overwrite_b, check_finite, why):
    try:
        from scipy.linalg import solve_banded as scipy_solve_banded
    except ImportError:  # pragma: no cover - scipy is a test dependency
        raise NotImplementedError(
            f"tridi.solve_banded solves (l, u) = (1, 1) in float32/float64; {why} needs SciPy"
        ) from None
    return scipy_solve_banded(l_and_u, ab, b, overwrite_ab=overwrite_ab,
                              overwrite_b=overwrite_b, check_finite=check_finite)


def _shifted(ab, row, shift):
    """A read-only view v of ab's diagonal `row` shifted along the last axis,
    v[..., i] = ab[..., row, i + shift], or None when the one element outside
    the row (ab[..., row, -1] or ab[..., row, M]) does not lie inside ab's
    memory span.  tridi never uses that element's value (a[0] and c[n-1]),
    but some kernels load it, so it must be readable."""
    m = ab.shape[-1]
    s_row, s_col = ab.strides[-2], ab.strides[-1]
    lo = hi = 0
    for n, s in zip(ab.shape, ab.strides):
        lo += min(0, s * (n - 1))
        hi += max(0, s * (n - 1))
    blo = bhi = 0
    for n, s in zip(ab.shape[:-2], ab.strides[:-2]):
        blo += min(0, s * (n - 1))
        bhi += max(0, s * (n - 1))
    outside = row * s_row + (-1 if shift < 0 else m) * s_col
    if blo + outside < lo or bhi + outside > hi:
        return None
    origin = ab[(0,) * (ab.ndim - 2) + (row,)]  # the row of the first batch entry
    as_strided = np.lib.stride_tricks.as_strided
    if shift < 0:
        start = as_strided(origin, shape=(2,), strides=(-s_col,), writeable=False)[1:]
    else:
        start = origin[1:]
    return as_strided(start, shape=ab.shape[:-2] + (m,), strides=ab.strides[:-2] + (s_col,),
                      writeable=False)


def solve_banded(l_and_u, ab, b, overwrite_ab=False, overwrite_b=False, check_finite=True):
    """Solve ``A x = b`` for a tridiagonal ``A`` in SciPy's banded storage.

    A drop-in for :func:`scipy.linalg.solve_banded` with ``(l, u) = (1, 1)``:
    the same arguments, the same storage ``ab[u + i - j, j] == A[i, j]``::

        ab[0, 1:]   super-diagonal      (ab[0, 0] unused)
        ab[1, :]    diagonal
        ab[2, :-1]  sub-diagonal        (ab[2, -1] unused)

    the same shapes (``b`` of shape ``(M,)`` or ``(M, K)``, leading batch
    dimensions of ``ab`` and ``b`` broadcast), dtypes (integers become
    float64, float32 stays float32) and errors.  The batch, every column of
    ``b`` and every system are solved by one tridi call, with no copy of
    ``ab`` for C-ordered storage.

    Parameters
    ----------
    l_and_u : (int, int)
        Number of sub- and super-diagonals.  Other values than ``(1, 1)``,
        and complex, float16 or longdouble arrays, are passed to SciPy.
    ab : (..., 3, M) array_like
        The diagonals in banded storage.
    b : (..., M) or (..., M, K) array_like
        Right-hand side(s).
    overwrite_ab : bool, optional
        Accepted for compatibility; ``ab`` is never written.
    overwrite_b : bool, optional
        Allow the solution to be written into ``b`` (when ``b`` is a
        writable float array of the result's dtype and shape).
    check_finite : bool, optional
        Check that ``ab`` and ``b`` hold only finite numbers (default True).

    Returns
    -------
    x : (..., M) or (..., M, K) ndarray
        The solution.

    Raises
    ------
    ValueError
        Incompatible shapes, a wrong ``l + u + 1``, non-finite values with
        ``check_finite``, masked or object arrays (as SciPy).
    BreakdownError
        A zero pivot or a NaN/Inf during the elimination; a subclass of
        :class:`numpy.linalg.LinAlgError`, which SciPy raises for a
        singular matrix.

    Notes
    -----
    SciPy calls LAPACK ``?gtsv``, which pivots; tridi does not.  Both give
    the same solution for diagonally dominant or symmetric positive
    definite matrices; a matrix whose elimination without pivoting meets a
    zero pivot (e.g. ``[[0, 1], [1, 0]]``) raises ``BreakdownError`` here
    and is solved by SciPy.  Where SciPy returns NaN or Inf silently
    (``check_finite=False``, or overflow) this raises ``BreakdownError``.

    Examples
    --------
    >>> import numpy as np, tridi
    >>> ab = np.array([[0., 1., 1., 1.],    # super-diagonal
    ...                [4., 4., 4., 4.],    # diagonal
    ...                [1., 1., 1., 0.]])   # sub-diagonal
    >>> x = tridi.solve_banded((1, 1), ab, np.array([5., 6., 6., 5.]))
    >>> np.allclose(x, 1)
    True
    """
    (nlower, nupper) = l_and_u
    a1 = _asarray_validated(ab, check_finite)
    b1 = _asarray_validated(b, check_finite)
    args = (l_and_u, ab, b, overwrite_ab, overwrite_b, check_finite)
    if (nlower, nupper) != (1, 1):
        return _scipy_solve_banded(*args, why=f"(l, u) = ({nlower}, {nupper})")
    floats = (np.dtype(np.float32), np.dtype(np.float64))
    if a1.dtype not in floats or b1.dtype not in floats:
        return _scipy_solve_banded(*args, why=f"dtype {np.result_type(a1, b1)}")
    if b1.ndim == 0:
        raise ValueError("b must have at least one dimension: shape (M,) or (M, K)")
    core = 2 if b1.ndim >= 2 else 1
    m = a1.shape[-1] if a1.ndim >= 1 else 0
    if a1.ndim < 1 or m != b1.shape[-core]:
        raise ValueError("shapes of ab and b are not compatible.")
    if a1.ndim < 2 or a1.shape[-2] != nlower + nupper + 1:
        raise ValueError(
            f"invalid values for the number of lower and upper diagonals: l+u+1 "
            f"({nlower + nupper + 1}) does not equal ab.shape[0] "
            f"({a1.shape[-2] if a1.ndim >= 2 else a1.shape[0]})")
    batch = np.broadcast_shapes(a1.shape[:-2], b1.shape[:-core])
    out_shape = batch + b1.shape[b1.ndim - core:]
    dtype = np.result_type(a1, b1)
    if b1.size == 0 or np.prod(out_shape) == 0:
        return np.empty(out_shape, dtype=dtype)
    if m == 1:
        # SciPy's 1x1 case: b / ab[u, 0], in b's dtype
        diag = a1[..., nupper, 0].reshape(a1.shape[:-2] + (1,) * core)
        b2 = np.array(np.broadcast_to(b1, out_shape), dtype=b1.dtype)
        b2 /= diag
        return b2
    a1 = a1.astype(dtype, copy=False)
    b1 = b1.astype(dtype, copy=False)
    sub, sup = _shifted(a1, 2, -1), _shifted(a1, 0, +1)
    if sub is None or sup is None:
        a1 = np.ascontiguousarray(a1)  # the element before/after a row is inside a C array
        sub, sup = _shifted(a1, 2, -1), _shifted(a1, 0, +1)
    diag = a1[..., 1, :]
    if core == 2:
        sub, diag, sup = sub[..., None], diag[..., None], sup[..., None]
    out = None
    if (overwrite_b and b1 is b and b1.shape == out_shape and b1.flags.writeable):
        out = b1
    return _ext.solve(sub, diag, sup, b1, axis=-core, out=out)

