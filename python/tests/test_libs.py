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
import weakref

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
    shape, strides in bytes (signed) and data.ptr / data.device_id /
    data.mem (its memory pointer and memory object), and CuPy's
    C-contiguity flag.  ``cupy.ndarray(shape, dtype)`` makes a new one, as
    the extension calls it."""

    _c_contiguous = False

    def __init__(self, arr, dtype=None, device=0):
        if dtype is not None:
            arr = np.empty(arr, dtype=dtype)
        self.arr = arr
        self.dtype = arr.dtype
        self.shape = arr.shape
        self.strides = arr.strides
        self._c_contiguous = bool(arr.flags.c_contiguous)
        self.data = types.SimpleNamespace(ptr=arr.__array_interface__["data"][0], device_id=device,
                                          mem=object())


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


def test_cupy_c_contiguous_arrays_strides_from_the_shape(fake_libs, rng):
    # CuPy's C-contiguity flag set: the strides follow from the shape and
    # the strides tuple is not read (a stand-in whose strides lie shows it)
    v = rng.random((3, 1, 5))
    arr = FakeCupyArray(v)
    assert arr._c_contiguous
    arr.strides = (8, 8, 8)
    info = _tridi.view_info(arr)
    assert info["shape"] == (3, 1, 5) and info["strides"] == (5, 0, 1)
    arr._c_contiguous = False  # the flag cleared: the strides are read
    assert _tridi.view_info(arr)["strides"] == (1, 0, 1)


def test_cupy_attribute_path_checks_strides_and_devices(fake_libs):
    bad = FakeCupyArray(np.empty(3))
    bad.strides, bad._c_contiguous = (12,), False  # not a multiple of 8 bytes
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


def test_info_on_a_cuda_device_for_host_operands(fake_libs, rng):
    a, b, c, d = dominant(rng, (5, 6))
    with pytest.raises(ValueError, match="info is on cuda:0 but d is on cpu"):
        tridi.solve(a, b, c, d, check=False, info=FakeCupyArray(np.zeros(5, dtype=np.int32)))


# ---- the pool of CuPy info arrays (check=False) -----------------------------------


@pytest.mark.parametrize("hold", ["nothing", "data", "mem", "weakref", "view", "reshaped",
                                  "stream", "shape"])
def test_cupy_info_pool_reuses_only_what_nothing_refers_to(fake_libs, hold):
    d = FakeCupyArray(np.ones((5, 6)))
    arr, reused = _tridi.info_from_pool(d, (5,), 7)
    assert not reused and isinstance(arr, FakeCupyArray)
    assert arr.dtype == np.int32 and arr.shape == (5,)
    assert arr.data.ptr == arr.arr.__array_interface__["data"][0]
    ident = id(arr)
    kept, stream, shape = None, 7, (5,)
    if hold == "data":
        kept = arr.data                    # its memory pointer
    elif hold == "mem":
        kept = arr.data.mem                # its memory
    elif hold == "weakref":
        kept = weakref.ref(arr)
    elif hold == "view":
        kept = [arr]                       # anything else holding the array (a view's base)
    elif hold == "reshaped":
        arr.shape = (1, 5)                 # CuPy reshapes in place
    elif hold == "stream":
        stream = 8                         # another stream: CuPy's pool would not reuse it there
    elif hold == "shape":
        shape = (6,)
    del arr
    again, reused = _tridi.info_from_pool(d, shape, stream)
    free = hold == "nothing"
    assert reused is free
    assert (id(again) == ident) is free
    assert again.shape == shape
    del kept


def test_cupy_info_pool_in_a_loop_that_keeps_the_last_info(fake_libs):
    # x, info = tridi.solve(...) keeps the previous info while the next call
    # runs: two arrays alternate
    d = FakeCupyArray(np.ones((4, 3)))
    info, _ = _tridi.info_from_pool(d, (4,), 0)
    seen = {id(info)}
    for i in range(6):
        info, reused = _tridi.info_from_pool(d, (4,), 0)
        assert reused is (i > 0)
        seen.add(id(info))
    assert len(seen) == 2
    # arrays the caller keeps are never handed out again, also past the
    # pool's size
    held = [_tridi.info_from_pool(d, (4,), 0)[0] for _ in range(10)]
    assert len({id(h) for h in held}) == 10 and not any(h is info for h in held)
    assert len({h.data.ptr for h in held}) == 10


def test_info_pool_is_for_cupy_only(fake_libs, rng):
    assert _tridi.info_from_pool(FakeTensor(np.ones((3, 4))), (3,), 0) is None
    assert _tridi.info_from_pool(np.ones((3, 4)), (3,), 0) is None


class PropCupyArray(FakeCupyArray):
    """The stand-in with its layout behind properties (data descriptors, as
    CuPy's Cython attributes are): the extension reads them through the
    descriptor it found for the type."""

    @property
    def shape(self):
        return self._shape

    @shape.setter
    def shape(self, value):
        self._shape = value


def test_attribute_descriptors_follow_changes_of_the_type(fake_libs, rng):
    v = rng.random((3, 4))
    arr = PropCupyArray(v)
    for _ in range(3):  # the descriptor found once, then reused
        assert _tridi.view_info(arr)["shape"] == (3, 4)
    # the type changed (its version tag too): the new descriptor is read
    saved = PropCupyArray.shape
    try:
        PropCupyArray.shape = property(lambda self: (4, 3), saved.fset)
        assert _tridi.view_info(arr)["shape"] == (4, 3)
    finally:
        PropCupyArray.shape = saved
    assert _tridi.view_info(arr)["shape"] == (3, 4)

    class Rewriting(PropCupyArray):
        def __getattribute__(self, name):  # the generic way must be taken
            if name == "shape":
                return (12,)
            return object.__getattribute__(self, name)

    w = Rewriting(v)
    w._c_contiguous = True
    assert _tridi.view_info(w)["shape"] == (12,)
