"""Type stubs of the tridi package (see the docstrings: help(tridi.solve))."""

from typing import Any, Literal, Mapping, Sequence, overload

import numpy as np
import numpy.typing as npt

__version__: str
algorithms: tuple[str, ...]
has_cuda: bool
cpu_simd: str

# Any array tridi reads: NumPy arrays and buffer-protocol objects, CuPy and
# PyTorch arrays (DLPack), Python numbers and lists.
ArrayLike = Any
Algorithm = Literal["auto", "thomas_ref", "thomas", "thomas_shared", "thomas_shuffle",
                    "thomas_pcr", "cr", "pcr", "rd", "cr_pcr", "cr_rd"]

class BreakdownError(np.linalg.LinAlgError):
    info: npt.NDArray[np.int32]
    systems: tuple[npt.NDArray[np.intp], ...]
    rows: npt.NDArray[np.int64]
    status: str
    def __init__(self, message: str, info: ArrayLike | None = ..., status: str = ...) -> None: ...
    @classmethod
    def from_info(cls, fn: str, info: ArrayLike, status: str = ...,
                  axis: int | None = ...) -> BreakdownError: ...

@overload
def solve(a: ArrayLike, b: ArrayLike, c: ArrayLike, d: ArrayLike, *, axis: int = ...,
          out: Any = ..., alg: Algorithm | str = ..., pivot: Literal["auto", "none", "partial"] = ...,
          check: Literal[True] = ..., info: Any = ..., assume_dominant: bool = ...) -> Any: ...
@overload
def solve(a: ArrayLike, b: ArrayLike, c: ArrayLike, d: ArrayLike, *, axis: int = ...,
          out: Any = ..., alg: Algorithm | str = ..., pivot: Literal["auto", "none", "partial"] = ...,
          check: Literal[False], info: Any = ...,
          assume_dominant: bool = ...) -> tuple[Any, Any]: ...
@overload
def solve(a: ArrayLike, b: ArrayLike, c: ArrayLike, d: ArrayLike, *, axis: int = ...,
          out: Any = ..., alg: Algorithm | str = ..., pivot: Literal["auto", "none", "partial"] = ...,
          check: bool = ..., info: Any = ..., assume_dominant: bool = ...) -> Any: ...

class Plan:
    def __init__(self, shape: int | Sequence[int], dtype: npt.DTypeLike | Any, axis: int = ..., *,
                 alg: Algorithm | str = ..., pivot: Literal["auto", "none", "partial"] = ...,
                 backend: Literal["cpu", "ref", "cuda", "auto"] = ...,
                 device: int = ..., threads: int = ..., assume_dominant: bool = ...) -> None: ...
    @overload
    def __call__(self, a: ArrayLike, b: ArrayLike, c: ArrayLike, d: ArrayLike, out: Any = ...,
                 check: Literal[True] = ..., info: Any = ...) -> Any: ...
    @overload
    def __call__(self, a: ArrayLike, b: ArrayLike, c: ArrayLike, d: ArrayLike, out: Any = ...,
                 *, check: Literal[False], info: Any = ...) -> tuple[Any, Any]: ...
    @property
    def alg(self) -> str: ...
    @property
    def pivot(self) -> str: ...
    @property
    def backend(self) -> str: ...
    @property
    def kernel(self) -> str: ...
    @property
    def selection(self) -> str: ...
    @property
    def threads(self) -> int: ...
    @property
    def workspace_bytes(self) -> int: ...
    @property
    def shape(self) -> tuple[int, ...]: ...
    @property
    def dtype(self) -> str: ...
    @property
    def axis(self) -> int: ...
    @property
    def device(self) -> int: ...
    @property
    def num_systems(self) -> int: ...
    @property
    def bound(self) -> bool: ...
    @property
    def strides(self) -> Mapping[str, tuple[int, ...]]: ...

def solve_banded(l_and_u: tuple[int, int], ab: ArrayLike, b: ArrayLike,
                 overwrite_ab: bool = ..., overwrite_b: bool = ...,
                 check_finite: bool = ...) -> npt.NDArray[np.floating[Any]]: ...

def backend_available(name: Literal["cpu", "ref", "cuda", "auto"] | str) -> bool: ...
