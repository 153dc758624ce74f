"""Every ```python block of docs/python.md and docs/migrating.md runs
(blocks that start with `# needs: cupy`, `# needs: torch`, `# needs: scipy`
or `# needs: jax` skip where that library, and for CuPy a GPU and tridi's
CUDA backend, are missing)."""

from __future__ import annotations

import pathlib
import re

import pytest

DOC = pathlib.Path(__file__).resolve().parents[2] / "docs" / "python.md"
BLOCKS = re.findall(r"```python\n(.*?)```", DOC.read_text(), flags=re.S) if DOC.exists() else []
MIGRATING = DOC.parent / "migrating.md"
MBLOCKS = (
    re.findall(r"```python\n(.*?)```", MIGRATING.read_text(), flags=re.S) if MIGRATING.exists() else []
)


def available(name: str) -> bool:
    try:
        if name == "cupy":
            import cupy

            import tridi

            return tridi.has_cuda and cupy.cuda.runtime.getDeviceCount() > 0
        if name == "torch":
            import torch  # noqa: F401

            return True
        if name == "scipy":
            import scipy  # noqa: F401

            return True
        if name == "jax":
            import jax  # noqa: F401

            return True
    except Exception:
        return False
    return False


def test_the_document_has_examples():
    assert DOC.exists(), f"{DOC} is missing"
    assert len(BLOCKS) >= 6


@pytest.mark.parametrize("index", range(len(BLOCKS)))
def test_example(index, capsys):
    code = BLOCKS[index]
    need = re.match(r"# needs: (\w+)", code)
    if need and not available(need.group(1)):
        pytest.skip(f"needs {need.group(1)}")
    exec(compile(code, f"{DOC.name}[block {index}]", "exec"), {"__name__": "__doc_example__"})


def test_the_migration_page_has_examples():
    assert MIGRATING.exists(), f"{MIGRATING} is missing"
    assert len(MBLOCKS) >= 4


@pytest.mark.parametrize("index", range(len(MBLOCKS)))
def test_migrating_example(index):
    code = MBLOCKS[index]
    need = re.match(r"# needs: (\w+)", code)
    if need and not available(need.group(1)):
        pytest.skip(f"needs {need.group(1)}")
    exec(compile(code, f"{MIGRATING.name}[block {index}]", "exec"), {"__name__": "__doc_example__"})
