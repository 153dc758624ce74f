"""tridi: batched tridiagonal solvers for NumPy, CuPy and PyTorch arrays.

Solve many independent tridiagonal systems

    a[i] x[i-1] + b[i] x[i] + c[i] x[i+1] = d[i]

along any axis of N-d arrays of any strides, in place or not, with the
coefficients broadcast (one matrix for many right-hand sides, constant
diagonals), on the CPU (OpenMP + SIMD) for host arrays and on NVIDIA GPUs
(CUDA) for device arrays, without copying the data.

Functions and classes
---------------------
solve         solve along an axis of N-d arrays
Plan          a solve planned once, executed many times
solve_banded  drop-in for scipy.linalg.solve_banded((1, 1), ab, b)
BreakdownError  raised when a system meets a zero pivot or a NaN/Inf

Data
----
algorithms    the algorithm names `alg=` accepts
has_cuda      whether this build has the CUDA backend and sees a GPU
cpu_simd      the SIMD code path the CPU backend uses here
"""

from __future__ import annotations

import atexit as _atexit

from . import _arrays, _tridi
from ._api import Plan, solve, solve_banded
from ._errors import BreakdownError

_info = _tridi.build_info()
__version__: str = _info["version"]
algorithms: tuple = tuple(_info["algorithms"])
has_cuda: bool = bool(_info["cuda"])
cpu_simd: str = _info["cpu_simd"]


def backend_available(name: str) -> bool:
    """Whether backend ``name`` ("cpu", "ref", "cuda") is compiled in and,
    for "cuda", a GPU is visible."""
    return _tridi.backend_available(name)


# Cached CUDA plans and the reused info array hold device memory: free them
# while the CUDA runtime and the array libraries are still up, not in the
# static destructors after them.
_atexit.register(_tridi.clear_caches)
_atexit.register(_arrays.clear)

__all__ = ["solve", "Plan", "solve_banded", "BreakdownError", "algorithms", "has_cuda",
           "cpu_simd", "backend_available", "__version__"]
