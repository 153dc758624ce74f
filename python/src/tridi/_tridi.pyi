"""Type stubs of tridi's compiled core (use the tridi package's functions)."""

from typing import Any, Mapping, Sequence

def solve(a: Any, b: Any, c: Any, d: Any, axis: int, out: Any, alg: str, pivot: str, check: bool) -> Any: ...
def time_execute(a: Any, b: Any, c: Any, d: Any, out: Any, axis: int, alg: str,
                 reps: int) -> float: ...
def build_info() -> dict[str, Any]: ...
def backend_available(name: str) -> bool: ...
def clear_plan_cache() -> None: ...
def plan_cache_size() -> int: ...

class Plan:
    def __init__(self, shape: Sequence[int], dtype: str, axis: int, alg: str, pivot: str, backend: str,
                 device: int, threads: int) -> None: ...
    def __call__(self, a: Any, b: Any, c: Any, d: Any, out: Any = ..., check: bool = ...) -> Any: ...
    alg: str
    backend: str
    kernel: str
    selection: str
    threads: int
    workspace_bytes: int
    shape: tuple[int, ...]
    dtype: str
    axis: int
    device: int
    num_systems: int
    bound: bool
    strides: Mapping[str, tuple[int, ...]]
