"""Helpers the extension calls for arrays of other libraries.

The compiled core reads every array in place through the buffer protocol or
DLPack.  What it cannot do without knowing the array library is here: making
a new array of d's library on d's device (the solution, the info array), a
0-d array from a Python scalar, the library's current CUDA stream, and
reading a device info array back.  None of these is on the path of a NumPy
solve with ``out`` given.
"""

from __future__ import annotations

import numpy as np

from ._errors import BreakdownError

_DTYPES = {1: "float32", 2: "float64"}  # tridi_dtype codes


def _library(obj) -> str:
    return type(obj).__module__.split(".", 1)[0]


def _device_id(obj) -> int:
    dev = obj.__dlpack_device__()
    return int(dev[1])


def _on_gpu(obj) -> bool:
    try:
        return int(obj.__dlpack_device__()[0]) in (2, 13)
    except AttributeError:
        return False


def empty(like, shape, dtype: str):
    """A new uninitialised array of ``like``'s library and device."""
    lib = _library(like)
    if lib == "torch":
        import torch

        return torch.empty(shape, dtype=getattr(torch, dtype), device=like.device)
    if lib == "cupy":
        import cupy

        with cupy.cuda.Device(_device_id(like)):
            return cupy.empty(shape, dtype=dtype)
    if not _on_gpu(like):
        return np.empty(shape, dtype=dtype)
    if lib in ("jax", "jaxlib"):
        raise TypeError("tridi: JAX arrays are immutable; pass out= as a writable GPU array "
                        "(CuPy, PyTorch) to solve JAX arrays on the GPU")
    ns = getattr(like, "__array_namespace__", None)
    if ns is not None:
        xp = ns()
        return xp.empty(shape, dtype=getattr(xp, dtype), device=like.device)
    raise TypeError(f"tridi: cannot make a result array like a {type(like).__name__}; pass out=")


# 0-d device arrays made from Python numbers, kept for the next call with the
# same number (tridi.solve(-1.0, 4.0, -1.0, d) in a loop would otherwise fill
# three new device arrays per call).  tridi never writes an input, and each
# is complete before it is kept (its stream is synchronised once), so any
# later call on any stream may read it.  While the stream is being captured
# into a CUDA graph nothing is kept (no synchronisation is allowed then).
_constants: dict = {}
_MAX_CONSTANTS = 64


def _constant(key, make, settle):
    """The kept array for key, or make() kept when settle() (wait for it;
    False: do not keep it) says so."""
    arr = _constants.get(key)
    if arr is None:
        arr = make()
        if settle():
            if len(_constants) >= _MAX_CONSTANTS:
                _constants.clear()
            _constants[key] = arr
    return arr


def clear() -> None:
    """Drop the kept device constants (at exit, while the libraries are up)."""
    _constants.clear()


def as_array(obj, like, dtype_code: int):
    """A Python number or list as an array: a number takes d's dtype, library
    and device (NumPy's rule for Python scalars); a list becomes a NumPy array."""
    if isinstance(obj, (list, tuple)):
        return np.asarray(obj)
    dtype = _DTYPES.get(dtype_code, "float64")
    if like is None:
        return np.asarray(obj, dtype=np.float64)
    lib = _library(like)
    if lib == "torch":
        import torch

        if like.device.type != "cuda":
            return torch.full((), obj, dtype=getattr(torch, dtype), device=like.device)

        def settle_torch():
            with torch.cuda.device(like.device):
                if torch.cuda.is_current_stream_capturing():
                    return False
                torch.cuda.current_stream(like.device).synchronize()
                return True

        key = ("torch", like.device.index, dtype, type(obj), obj)
        return _constant(key, lambda: torch.full((), obj, dtype=getattr(torch, dtype), device=like.device),
                         settle_torch)
    if lib == "cupy":
        import cupy

        dev = _device_id(like)

        def make():
            with cupy.cuda.Device(dev):
                return cupy.full((), obj, dtype=dtype)

        def settle_cupy():
            with cupy.cuda.Device(dev):
                stream = cupy.cuda.get_current_stream()
                if stream.ptr not in (0, 1, 2) and stream.is_capturing():
                    return False
                stream.synchronize()
                return True

        return _constant(("cupy", dev, dtype, type(obj), obj), make, settle_cupy)
    if not _on_gpu(like):
        return np.asarray(obj, dtype=dtype)
    ns = getattr(like, "__array_namespace__", None)
    if ns is not None:
        xp = ns()
        return xp.full((), obj, dtype=getattr(xp, dtype), device=like.device)
    return np.asarray(obj, dtype=dtype)


def cuda_stream(like) -> int:
    """The handle of the current CUDA stream of ``like``'s library (0: the
    legacy default stream, for libraries without the notion)."""
    lib = _library(like)
    if lib == "cupy":
        import cupy

        with cupy.cuda.Device(_device_id(like)):
            return int(cupy.cuda.get_current_stream().ptr)
    if lib == "torch":
        import torch

        return int(torch.cuda.current_stream(like.device).cuda_stream)
    return 0


def synchronize(like) -> None:
    """Wait for the current stream of ``like``'s library."""
    lib = _library(like)
    if lib == "cupy":
        import cupy

        with cupy.cuda.Device(_device_id(like)):
            cupy.cuda.get_current_stream().synchronize()
    elif lib == "torch":
        import torch

        torch.cuda.current_stream(like.device).synchronize()


def to_host(arr) -> np.ndarray:
    lib = _library(arr)
    if lib == "cupy":
        return arr.get()
    if lib == "torch":
        return arr.cpu().numpy()
    return np.asarray(arr)


def fill_zero(arr) -> None:
    arr[...] = 0


def check_info(fn: str, info, axis: int) -> None:
    """Read a device info array back (this waits for the solve) and raise
    BreakdownError if a system failed."""
    host = to_host(info)
    if np.any(host):
        codes = host[host != 0]
        status = ("TRIDI_ERR_ZERO_PIVOT" if codes.flat[0] > 0 and codes.flat[0] != 2**31 - 1
                  else "TRIDI_ERR_INACCURATE" if codes.flat[0] == 2**31 - 1
                  else "TRIDI_ERR_NONFINITE")
        raise BreakdownError.from_info(fn, host, status, axis)


def raise_breakdown(fn: str, info, status: str, axis: int) -> None:
    raise BreakdownError.from_info(fn, info, status, axis)
