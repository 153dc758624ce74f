"""Bad input for each argument of tridi.solve in turn: the exception type
and a message that names the argument."""

from __future__ import annotations

import numpy as np
import pytest

import tridi
from conftest import dominant

NAMES = "abcd"


@pytest.fixture
def ops(rng):
    return list(dominant(rng, (4, 6)))


def with_arg(ops, k, value):
    args = list(ops)
    args[k] = value
    return args


@pytest.mark.parametrize("k", range(4))
@pytest.mark.parametrize("bad", ["text", {"a": 1}, None, object()])
def test_not_an_array(ops, k, bad):
    with pytest.raises(TypeError, match=f"{NAMES[k]} must be an array"):
        tridi.solve(*with_arg(ops, k, bad))


@pytest.mark.parametrize("k", range(4))
@pytest.mark.parametrize("dtype", [np.int32, np.int64, np.float16, np.complex128, bool,
                                   np.longdouble, np.uint8])
def test_unsupported_dtype(ops, k, dtype):
    bad = ops[k].astype(dtype)
    with pytest.raises(TypeError, match="tridi never casts") as e:
        tridi.solve(*with_arg(ops, k, bad))
    assert f"{NAMES[k]} {np.dtype(dtype).name}" in str(e.value) or "longdouble" in str(e.value)


@pytest.mark.parametrize("k", range(4))
def test_mixed_precision(ops, k):
    with pytest.raises(TypeError, match="float32") as e:
        tridi.solve(*with_arg(ops, k, ops[k].astype(np.float32)))
    assert f"{NAMES[k]} float32" in str(e.value)


@pytest.mark.parametrize("k", range(4))
def test_integer_list(ops, k):
    with pytest.raises(TypeError, match="int64"):
        tridi.solve(*with_arg(ops, k, [[1] * 6] * 4))


@pytest.mark.parametrize("k", range(4))
def test_shapes_that_do_not_broadcast(ops, k):
    with pytest.raises(ValueError, match="could not be broadcast") as e:
        tridi.solve(*with_arg(ops, k, np.ones((3, 6))))
    assert f"{NAMES[k]} (3, 6)" in str(e.value)


@pytest.mark.parametrize("k", range(3))
def test_one_d_coefficient_needs_the_axis_length(ops, k):
    with pytest.raises(ValueError, match="lies along the solve axis"):
        tridi.solve(*with_arg(ops, k, np.ones(4)))  # the batch length, not n = 6


@pytest.mark.parametrize("k", range(4))
def test_non_native_byte_order(ops, k):
    bad = ops[k].astype(ops[k].dtype.newbyteorder())
    with pytest.raises(TypeError, match="byte order"):
        tridi.solve(*with_arg(ops, k, bad))


@pytest.mark.parametrize("k", range(4))
def test_stride_not_a_whole_number_of_elements(ops, k):
    rec = np.zeros((4, 6), dtype=[("v", np.float64), ("tag", np.int8)])
    rec["v"] = ops[k]
    assert rec["v"].strides[1] == 9
    with pytest.raises(ValueError, match="not a multiple of its element size"):
        tridi.solve(*with_arg(ops, k, rec["v"]))


@pytest.mark.parametrize("k", range(4))
def test_misaligned(ops, k):
    raw = np.zeros(4 * 6 * 8 + 1, np.uint8)
    bad = np.frombuffer(raw.data, dtype=np.float64, offset=1, count=24).reshape(4, 6)
    with pytest.raises(ValueError, match="MISALIGNED"):
        tridi.solve(*with_arg(ops, k, bad))


def test_too_many_dimensions():
    d = np.ones((1,) * 9 + (3,))
    with pytest.raises(ValueError, match="at most 8"):
        tridi.solve(1.0, 4.0, 1.0, d)


@pytest.mark.parametrize("axis", [2, -3, 100])
def test_axis_out_of_range(ops, axis):
    with pytest.raises(ValueError, match="out of bounds"):
        tridi.solve(*ops, axis=axis)


@pytest.mark.parametrize("axis", [1.0, "0", None])
def test_axis_not_an_integer(ops, axis):
    with pytest.raises(TypeError):
        tridi.solve(*ops, axis=axis)


def test_out_wrong_shape(ops):
    with pytest.raises(ValueError, match="out has shape"):
        tridi.solve(*ops, out=np.empty((6, 4)))


def test_out_wrong_dtype(ops):
    with pytest.raises(TypeError, match="out has dtype float32"):
        tridi.solve(*ops, out=np.empty((4, 6), np.float32))


def test_out_read_only(ops):
    out = np.empty((4, 6))
    out.flags.writeable = False
    with pytest.raises(ValueError, match="read-only"):
        tridi.solve(*ops, out=out)


def test_out_not_an_array(ops):
    with pytest.raises(TypeError, match="out must be a writable array"):
        tridi.solve(*ops, out=[0.0] * 24)


@pytest.mark.parametrize("k", range(3))
def test_out_overlaps_an_input(ops, k):
    with pytest.raises(ValueError, match="OVERLAP"):
        tridi.solve(*ops, out=ops[k])


def test_out_overlaps_d_other_than_in_place(ops):
    d = ops[3]
    with pytest.raises(ValueError, match="OVERLAP"):
        tridi.solve(*ops[:3], d, out=d[::-1])


def test_out_with_stride_zero(ops):
    out = np.lib.stride_tricks.as_strided(np.empty(6), shape=(4, 6), strides=(0, 8))
    assert out.flags.writeable
    with pytest.raises(ValueError, match="INVALID_STRIDE"):
        tridi.solve(*ops, out=out)


def test_out_cannot_be_a_broadcast_d(ops):
    d = np.ones(6)
    with pytest.raises(ValueError, match="out has shape"):
        tridi.solve(*ops[:3], d, out=d)


@pytest.mark.parametrize("alg", ["nope", "Thomas", ""])
def test_unknown_algorithm(ops, alg):
    with pytest.raises(ValueError, match="is not an algorithm"):
        tridi.solve(*ops, alg=alg)


@pytest.mark.parametrize("alg", [2, None, b"thomas"])
def test_algorithm_not_a_string(ops, alg):
    with pytest.raises(TypeError, match="alg must be a str"):
        tridi.solve(*ops, alg=alg)


def test_keyword_only(ops):
    with pytest.raises(TypeError):
        tridi.solve(*ops, -1)


def test_nothing_written_on_error(ops):
    out = np.full((4, 6), np.nan)
    with pytest.raises(ValueError):
        tridi.solve(*ops[:3], ops[3], out=out, alg="nope")
    with pytest.raises(ValueError):
        tridi.solve(ops[0], ops[1], out, ops[3], out=out)  # overlap: refused before writing
    assert np.isnan(out).all()


def test_cuda_plan_without_gpu():
    if tridi.backend_available("cuda"):
        pytest.skip("a GPU is there")
    with pytest.raises(RuntimeError, match="BACKEND_UNAVAILABLE"):
        tridi.Plan((4, 6), np.float64, backend="cuda")
