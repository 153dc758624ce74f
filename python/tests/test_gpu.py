"""CuPy and PyTorch arrays: CUDA arrays solved on the GPU on the library's
current stream; PyTorch CPU tensors on the CPU.  Both are read through
their attributes (view_info says which path an array took).  Each test
skips when its library, a GPU, or tridi's CUDA backend is missing."""

from __future__ import annotations

import numpy as np
import pytest

import tridi
from conftest import assert_solves, dominant

try:
    import cupy
except Exception:  # ImportError, or a CuPy without its CUDA libraries
    cupy = None
try:
    import torch
except Exception:
    torch = None


def _cupy_gpu():
    if cupy is None:
        return False
    try:
        return cupy.cuda.runtime.getDeviceCount() > 0
    except Exception:
        return False


def _torch_gpu():
    return torch is not None and torch.cuda.is_available()


needs_cupy = pytest.mark.skipif(not _cupy_gpu(), reason="CuPy with a GPU is not available")
needs_torch = pytest.mark.skipif(torch is None, reason="PyTorch is not installed")
needs_torch_gpu = pytest.mark.skipif(not _torch_gpu(), reason="PyTorch with a GPU is not available")
needs_cuda_build = pytest.mark.skipif(not tridi.has_cuda,
                                      reason="tridi was built without CUDA or sees no GPU")


# ---- CuPy ------------------------------------------------------------------------

@needs_cupy
@needs_cuda_build
@pytest.mark.parametrize("dtype", [np.float32, np.float64])
@pytest.mark.parametrize("axis", [0, 1, 2])
def test_cupy_axes(rng, dtype, axis):
    host = dominant(rng, (6, 33, 20), dtype)
    dev = [cupy.asarray(v) for v in host]
    x = tridi.solve(*dev, axis=axis)
    assert isinstance(x, cupy.ndarray) and x.dtype == dtype
    assert_solves(x.get(), *host, axis=axis)


@needs_cupy
@needs_cuda_build
def test_cupy_strides_broadcast_in_place(rng):
    a, b, c, _ = dominant(rng, (40,))
    d = rng.uniform(-1, 1, (40, 30))
    dd = cupy.asarray(d)[::-1, ::2]
    want = d[::-1, ::2]
    x = tridi.solve(cupy.asarray(a), cupy.asarray(b), cupy.asarray(c), dd, axis=0, out=dd)
    assert x is dd
    assert_solves(dd.get(), a[:, None], b[:, None], c[:, None], want, axis=0)
    x = tridi.solve(-1.0, 4.0, -1.0, cupy.asarray(d))  # Python numbers on the device
    assert_solves(x.get(), -1.0, 4.0, -1.0, d)


@needs_cupy
@needs_cuda_build
def test_cupy_current_stream(rng):
    host = dominant(rng, (64, 256))
    with cupy.cuda.Stream(non_blocking=True) as stream:
        dev = [cupy.asarray(v) for v in host]
        x, info = tridi.solve(*dev, check=False)  # queued on `stream`, no wait
        assert isinstance(info, cupy.ndarray) and info.shape == (64,)
        stream.synchronize()
    assert not info.get().any()
    assert_solves(x.get(), *host)


@needs_cupy
@needs_cuda_build
def test_cupy_breakdown(rng):
    a, b, c, d = dominant(rng, (4, 16))
    d[2, 5] = np.nan  # NaN/Inf stays a breakdown whatever the pivot mode
    with pytest.raises(tridi.BreakdownError) as e:
        tridi.solve(*(cupy.asarray(v) for v in (a, b, c, d)))
    assert [int(s) for s in e.value.systems[0]] == [2]


@needs_cupy
@needs_cuda_build
def test_cupy_zero_pivot_auto(rng):
    # pivot="auto" (the default) on the GPU: a zero first pivot is solved,
    # by the non-pivoting kernel or by the pivoting second pass
    a, b, c, d = dominant(rng, (4, 16))
    b[2, 0], c[2, 0], a[2, 1] = 0.0, 1.0, 1.0
    x = tridi.solve(*(cupy.asarray(v) for v in (a, b, c, d))).get()
    # the conftest reference does not pivot (it divides by b_0): check the
    # backward error instead, |Ax - d| against |A||x| + |d|, row by row
    r = b * x - d
    r[:, 1:] += a[:, 1:] * x[:, :-1]
    r[:, :-1] += c[:, :-1] * x[:, 1:]
    s = np.abs(b * x) + np.abs(d)
    s[:, 1:] += np.abs(a[:, 1:] * x[:, :-1])
    s[:, :-1] += np.abs(c[:, :-1] * x[:, 1:])
    assert np.all(np.isfinite(x))
    assert np.max(np.abs(r) / s) <= 16 * 16 * np.finfo(np.float64).eps


@needs_cupy
@needs_cuda_build
def test_cupy_plan(rng):
    host = dominant(rng, (8, 128))
    plan = tridi.Plan((8, 128), np.float64, backend="cuda")
    assert plan.backend == "cuda"
    x = plan(*(cupy.asarray(v) for v in host))
    assert_solves(x.get(), *host)


@needs_cupy
@needs_cuda_build
def test_cupy_read_through_attributes(rng):
    # CuPy arrays are read through their attributes (not DLPack, whose
    # negative strides CuPy 14 exports wrongly), with signed strides
    d = cupy.asarray(rng.random((6, 10)))
    view = d[::-1, 1::3]
    info = tridi._tridi.view_info(view)
    assert info["path"] == "cupy" and info["data"] == view.data.ptr
    assert info["strides"] == (-10, 3) and info["device"] == (2, d.device.id)
    assert tridi._tridi.view_info(cupy.zeros(3, dtype=cupy.int32), out=True)["path"] == "cupy"


@needs_cupy
@needs_cuda_build
def test_cupy_numbers_kept_on_the_device(rng):
    # Python numbers become 0-d device arrays once and are kept; a later
    # call on another stream reads the same values
    d = rng.uniform(-1, 1, (8, 40))
    tridi._arrays.clear()
    x1 = tridi.solve(-1.0, 4.0, -1.0, cupy.asarray(d)).get()
    kept = len(tridi._arrays._constants)
    assert kept == 2  # one array a number: -1.0 (a and c) and 4.0
    with cupy.cuda.Stream(non_blocking=True) as stream:
        x2 = tridi.solve(-1.0, 4.0, -1.0, cupy.asarray(d)).get()
        stream.synchronize()
    assert len(tridi._arrays._constants) == kept
    assert_solves(x1, -1.0, 4.0, -1.0, d)
    np.testing.assert_array_equal(x1, x2)


@needs_cupy
@needs_cuda_build
def test_cupy_check_reuses_the_info_array(rng):
    # check=True keeps its info array for the next call of the same batch:
    # every call writes every code, so a breakdown is reported by the call
    # that meets it and not by the next one
    a, b, c, d = dominant(rng, (5, 32))
    dev = [cupy.asarray(v) for v in (a, b, c, d)]
    for _ in range(2):
        assert_solves(tridi.solve(*dev).get(), a, b, c, d)
    bad = d.copy()
    bad[3, 7] = np.nan
    with pytest.raises(tridi.BreakdownError) as e:
        tridi.solve(*dev[:3], cupy.asarray(bad))
    assert [int(s) for s in e.value.systems[0]] == [3]
    for _ in range(2):
        assert_solves(tridi.solve(*dev).get(), a, b, c, d)
    x, info = tridi.solve(*dev[:3], cupy.asarray(bad), check=False)
    assert int(info.get()[3]) != 0 and not info.get()[[0, 1, 2, 4]].any()
    assert_solves(tridi.solve(*dev).get(), a, b, c, d)


@needs_cupy
@needs_cuda_build
def test_cupy_info_pool_reuses_dropped_arrays_only(rng):
    # check=False's info arrays come from a pool: one the caller dropped is
    # handed out again (same object, every code rewritten); one the caller
    # holds, or a view of, or one last used on another stream, is not
    a, b, c, d = dominant(rng, (6, 40))
    dev = [cupy.asarray(v) for v in (a, b, c, d)]
    bad = d.copy()
    bad[4, 3] = np.nan
    dbad = cupy.asarray(bad)
    x, info = tridi.solve(*dev[:3], dbad, check=False)
    first = id(info)
    assert [int(v) != 0 for v in info.get()] == [False] * 4 + [True, False]
    del x, info
    x, info = tridi.solve(*dev, check=False)
    assert id(info) == first and not info.get().any()  # reused, code 4 rewritten
    view = info[2:]
    del info
    x, info2 = tridi.solve(*dev, check=False)
    assert id(info2) != first  # the view keeps the first array
    assert not info2.get().any() and not view.get().any()
    del view, info2
    with cupy.cuda.Stream(non_blocking=True) as s:
        x, info3 = tridi.solve(*dev, check=False)
        s.synchronize()
    assert id(info3) != first  # pooled per stream
    assert not info3.get().any()
    assert_solves(x.get(), a, b, c, d)


@needs_cupy
@needs_cuda_build
def test_cupy_info_keyword(rng):
    a, b, c, d = dominant(rng, (3, 8, 20))
    d[1, 5, 7] = np.inf
    dev = [cupy.asarray(v) for v in (a, b, c, d)]
    info = cupy.full((3, 20), 99, dtype=cupy.int32)
    x, got = tridi.solve(*dev, axis=1, check=False, info=info)
    assert got is info
    codes = info.get()
    assert codes[1, 7] != 0 and np.count_nonzero(codes) == 1
    with pytest.raises(tridi.BreakdownError):
        tridi.solve(*dev, axis=1, info=info)
    with pytest.raises(ValueError, match="info is on cpu but d is on cuda"):
        tridi.solve(*dev, axis=1, check=False, info=np.zeros((3, 20), dtype=np.int32))
    with pytest.raises(ValueError, match="C-contiguous"):
        tridi.solve(*dev, axis=1, check=False, info=cupy.zeros((20, 3), dtype=cupy.int32).T)
    with pytest.raises(TypeError, match="int32"):
        tridi.solve(*dev, axis=1, check=False, info=cupy.zeros((3, 20), dtype=cupy.int64))


@needs_cupy
def test_cupy_contiguous_strides_from_the_flag():
    z = cupy.zeros((3, 1, 5))
    assert tridi._tridi.view_info(z)["strides"] == (5, 0, 1)
    assert tridi._tridi.view_info(z.transpose(2, 1, 0))["strides"] == (1, 0, 5)
    assert tridi._tridi.view_info(z[:, :, ::2])["strides"] == (5, 0, 2)


@needs_cupy
def test_cupy_mixed_devices(rng):
    a, b, c, d = dominant(rng, (4, 8))
    with pytest.raises(ValueError, match="one device"):
        tridi.solve(a, b, c, cupy.asarray(d))


@needs_cupy
def test_cupy_without_cuda_backend(rng):
    if tridi.has_cuda:
        pytest.skip("tridi has CUDA")
    with pytest.raises(RuntimeError, match="BACKEND_UNAVAILABLE"):
        tridi.solve(*(cupy.asarray(v) for v in dominant(rng, (4, 8))))


# ---- PyTorch ---------------------------------------------------------------------

@needs_torch
def test_torch_cpu_tensors(rng):
    host = dominant(rng, (5, 3, 12))
    tens = [torch.from_numpy(v) for v in host]
    x = tridi.solve(*tens, axis=1)
    assert isinstance(x, torch.Tensor) and x.dtype == torch.float64
    assert_solves(x.numpy(), *host, axis=1)
    t = tens[3].transpose(0, 2)  # strided tensor, in place
    keep = t.clone()
    tridi.solve(*(v.transpose(0, 2) for v in tens[:3]), t, axis=1, out=t)
    assert_solves(t.numpy(), *(np.swapaxes(v, 0, 2) for v in host[:3]), keep.numpy(), axis=1)


@needs_torch_gpu
@needs_cuda_build
@pytest.mark.parametrize("dtype", [torch.float32 if torch else None, torch.float64 if torch else None])
def test_torch_cuda(rng, dtype):
    host = dominant(rng, (16, 50), np.float32 if dtype == torch.float32 else np.float64)
    dev = [torch.from_numpy(v).cuda() for v in host]
    x = tridi.solve(*dev)
    assert x.is_cuda and x.dtype == dtype
    assert_solves(x.cpu().numpy(), *host)


@needs_torch_gpu
@needs_cuda_build
def test_torch_current_stream(rng):
    host = dominant(rng, (32, 100))
    stream = torch.cuda.Stream()
    with torch.cuda.stream(stream):
        dev = [torch.from_numpy(v).cuda() for v in host]
        x, info = tridi.solve(*dev, axis=-1, check=False)
        assert info.is_cuda and info.dtype == torch.int32
    stream.synchronize()
    assert not info.cpu().numpy().any()
    assert_solves(x.cpu().numpy(), *host)


@needs_torch
def test_torch_read_through_attributes(rng):
    t = torch.from_numpy(rng.random((6, 10)))
    view = t[:, 1::3]
    info = tridi._tridi.view_info(view)
    assert info["path"] == "torch" and info["data"] == view.data_ptr()
    assert info["strides"] == (10, 3) and info["device"] == (1, 0)
    # tensors that require grad are not read this way
    g = torch.ones(4, dtype=torch.float64, requires_grad=True)
    try:
        assert tridi._tridi.view_info(g)["path"] != "torch"
    except (TypeError, RuntimeError, BufferError):
        pass
    if _torch_gpu():
        tc = torch.ones((3, 4), dtype=torch.float32, device="cuda")
        assert tridi._tridi.view_info(tc)["path"] == "torch"
        assert tridi._tridi.view_info(tc)["device"] == (2, tc.device.index)


@needs_torch_gpu
@needs_cuda_build
def test_torch_in_place_broadcast(rng):
    a, b, c, _ = dominant(rng, (64,))
    d = rng.uniform(-1, 1, (64, 10))
    t = torch.from_numpy(d.copy()).cuda()
    tridi.solve(*(torch.from_numpy(v).cuda() for v in (a, b, c)), t, axis=0, out=t)
    assert_solves(t.cpu().numpy(), a[:, None], b[:, None], c[:, None], d, axis=0)


# ---- any DLPack producer ---------------------------------------------------------

class DLPackOnly:
    """An array that offers only DLPack (no buffer protocol), as JAX or an
    unknown library would: the path CuPy and PyTorch arrays take."""

    def __init__(self, arr):
        self.arr = arr

    def __dlpack__(self, **kwargs):
        return self.arr.__dlpack__(**kwargs)

    def __dlpack_device__(self):
        return self.arr.__dlpack_device__()


def test_dlpack_producers_on_the_host(rng):
    host = dominant(rng, (4, 5, 9))
    views = [v[:, ::-1, 1:] for v in host]
    x = tridi.solve(*(DLPackOnly(v) for v in views), axis=1)
    assert isinstance(x, np.ndarray)  # a host result of an unknown library: NumPy
    assert_solves(x, *views, axis=1)
    out = np.zeros((4, 5, 8))[:, ::-1]
    y = tridi.solve(*(DLPackOnly(v) for v in views), axis=1, out=DLPackOnly(out))
    assert isinstance(y, DLPackOnly)
    assert_solves(out, *views, axis=1)
    x2, info = tridi.solve(*(DLPackOnly(v) for v in views), axis=1, check=False)
    assert info.shape == (4, 8) and not info.any()
    ro = np.zeros((4, 5, 8))
    ro.flags.writeable = False
    with pytest.raises(ValueError, match="read-only"):
        tridi.solve(*(DLPackOnly(v) for v in views), axis=1, out=DLPackOnly(ro))
    with pytest.raises(TypeError, match="int64"):
        tridi.solve(*views[:3], DLPackOnly(np.ones((4, 5, 8), np.int64)), axis=1)


@needs_torch_gpu
@needs_cuda_build
def test_torch_info_keyword(rng):
    host = dominant(rng, (8, 30))
    host[3][5, 2] = np.nan
    dev = [torch.from_numpy(v).cuda() for v in host]
    info = torch.full((8,), 7, dtype=torch.int32, device=dev[3].device)
    x, got = tridi.solve(*dev, check=False, info=info)
    assert got is info
    codes = info.cpu().numpy()
    assert codes[5] != 0 and np.count_nonzero(codes) == 1
    with pytest.raises(ValueError, match="info has shape"):
        tridi.solve(*dev, check=False, info=torch.zeros((4,), dtype=torch.int32, device="cuda"))
