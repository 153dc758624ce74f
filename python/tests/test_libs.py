"""The attribute path of the extension (CuPy arrays and PyTorch tensors read
through dtype, shape, strides, data pointer and device instead of DLPack),
checked without either library: stand-in ``cupy`` and ``torch`` modules whose
arrays expose those attributes over NumPy memory.  The stand-in tensors live
on the CPU, so tridi really solves them there; the stand-in CuPy arrays claim
a CUDA device, so only what the extension reads from them is checked.  These
tests skip where the real libraries are installed (test_gpu.py covers them
there)."""

from __future__ import annotations

import importlib.util
import sys
import types

import numpy as np
import pytest

import tridi
from tridi import _tridi

from conftest import assert_solves, dominant


def _installed(name):
    return name in sys.modules or importlib.util.find_spec(name) is not None


# ---- a stand-in PyTorch ------------------------------------------------------


class _Dtype:
    def __init__(self, name):
        self.name = name


class FakeTensor:
    """A CPU tensor over a NumPy array: the attributes the extension reads."""

    def __init__(self, arr, requires_grad=False, neg=False):
        self.arr = arr
        self.requires_grad = requires_grad
        self._neg = neg
        self.dtype = getattr(_torch, str(arr.dtype), _Dtype(str(arr.dtype)))
        self.is_cuda = False
        self.is_cpu = True

    @property
    def shape(self):
        return tuple(self.arr.shape)

    def stride(self):
        return tuple(s // self.arr.itemsize for s in self.arr.strides)

    def data_ptr(self):
        return self.arr.__array_interface__["data"][0]

    def is_neg(self):
        return self._neg

    def get_device(self):
        return -1

    def new_empty(self, shape, dtype=None):
        return FakeTensor(np.empty(shape, dtype=dtype.name))


_torch = types.ModuleType("torch")
_torch.Tensor = FakeTensor
_torch.float32, _torch.float64, _torch.int32 = (_Dtype(n) for n in ("float32", "float64", "int32"))
_torch._C = types.SimpleNamespace()


# ---- a stand-in CuPy -----------------------------------------------------------


class FakeCupyArray:
    """What the extension reads from a CuPy array: dtype (a NumPy dtype),
    shape, strides in bytes (signed) and data.ptr / data.device_id."""

    def __init__(self, arr, device=0):
        self.arr = arr
        self.dtype = arr.dtype
        self.shape = arr.shape
        self.strides = arr.strides
        self.data = types.SimpleNamespace(ptr=arr.__array_interface__["data"][0], device_id=device)


_cupy = types.ModuleType("cupy")
_cupy.ndarray = FakeCupyArray
_cupy.cuda = types.SimpleNamespace(
    get_current_stream=lambda device_id=-1: types.SimpleNamespace(ptr=0),
    runtime=types.SimpleNamespace(getDevice=lambda: 0))


@pytest.fixture
def fake_libs(monkeypatch):
    if _installed("torch") or _installed("cupy"):
        pytest.skip("the real CuPy or PyTorch is installed (test_gpu.py covers them)")
    _tridi.clear_caches()  # the extension looks the libraries up again
    monkeypatch.setitem(sys.modules, "torch", _torch)
    monkeypatch.setitem(sys.modules, "cupy", _cupy)
    yield
    monkeypatch.delitem(sys.modules, "torch")
    monkeypatch.delitem(sys.modules, "cupy")
    _tridi.clear_caches()


def test_torch_attribute_path_solves(fake_libs, rng):
    a, b, c, d = dominant(rng, (6, 5, 9))
    ops = [FakeTensor(v) for v in (a, b, c, d)]
    assert _tridi.view_info(ops[3])["path"] == "torch"
    x = tridi.solve(*ops, axis=-1)
    assert isinstance(x, FakeTensor)  # made by d.new_empty
    assert_solves(x.arr, a, b, c, d, axis=-1)
    # negative and stepped strides, along another axis, into an out tensor
    # of its own strides, and check=False's info from new_empty
    views = [v[::-1, ::2, :] for v in (a, b, c, d)]
    out = np.full((6, 9, 3), np.nan).transpose(0, 2, 1)
    xo, info = tridi.solve(*(FakeTensor(v) for v in views), axis=1, out=FakeTensor(out), check=False)
    assert isinstance(info, FakeTensor) and info.arr.dtype == np.int32 and not info.arr.any()
    assert xo.arr is out
    assert_solves(out, *views, axis=1)
    p = tridi.Plan(d.shape, d.dtype, axis=0)
    assert_solves(p(*ops).arr, a, b, c, d, axis=0)


def test_torch_attribute_path_reads_what_dlpack_would(fake_libs, rng):
    base = rng.random((4, 7))
    v = base[::-1, 1::3]
    info = _tridi.view_info(FakeTensor(v))
    assert info["path"] == "torch"
    assert info["data"] == v.__array_interface__["data"][0]
    assert info["shape"] == v.shape
    assert info["strides"] == (-7, 3)
    assert info["dtype"] == "float64" and info["device"] == (1, 0) and not info["readonly"]
    assert _tridi.view_info(FakeTensor(v), out=True)["readonly"] is False


@pytest.mark.parametrize("kind", ["requires_grad", "neg", "int64"])
def test_torch_tensors_left_to_dlpack(fake_libs, kind):
    # a tensor that requires grad, has the negation bit or another dtype is
    # not read through its attributes: the DLPack path decides (the stand-in
    # has no __dlpack__, so it is refused as a non-array)
    arr = np.ones((3, 4), dtype=np.int64 if kind == "int64" else np.float64)
    t = FakeTensor(arr, requires_grad=kind == "requires_grad", neg=kind == "neg")
    with pytest.raises(TypeError, match="must be an array"):
        tridi.solve(t, t, t, FakeTensor(np.ones((3, 4))))


def test_cupy_attribute_path_reads_signed_strides(fake_libs, rng):
    base = rng.random((5, 8)).astype(np.float32)
    v = base[::-2, ::-1]
    info = _tridi.view_info(FakeCupyArray(v, device=3))
    assert info["path"] == "cupy"
    assert info["data"] == v.__array_interface__["data"][0]
    assert info["shape"] == (3, 8)
    assert info["strides"] == (-16, -1)  # elements, with their sign
    assert info["dtype"] == "float32" and info["device"] == (2, 3)


def test_cupy_attribute_path_checks_strides_and_devices(fake_libs):
    bad = FakeCupyArray(np.empty(3))
    bad.strides = (12,)  # not a multiple of 8 bytes
    with pytest.raises(ValueError, match="not a multiple of its element size"):
        _tridi.view_info(bad)
    d = FakeCupyArray(np.ones((2, 4)), device=0)
    with pytest.raises(ValueError, match="put all operands on one device"):
        tridi.solve(np.ones((2, 4)), 4.0, np.ones((2, 4)), d)
    with pytest.raises(ValueError, match="put all operands on one device"):
        tridi.solve(FakeCupyArray(np.ones((2, 4)), device=1), 4.0, 1.0, d)
    if not tridi.has_cuda:
        with pytest.raises(RuntimeError):
            tridi.solve(d, d, d, d, out=FakeCupyArray(np.empty((2, 4))))
