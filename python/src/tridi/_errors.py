"""Exceptions of tridi."""

from __future__ import annotations

import numpy as np

__all__ = ["BreakdownError"]

# tridi's info code of a system solved without the promised accuracy
# (TRIDI_INFO_INACCURATE): the accuracy check of the rd and cr_rd algorithms.
INFO_INACCURATE = 2**31 - 1


def _reason(code: int) -> str:
    if code == INFO_INACCURATE:
        return "inaccurate (failed the accuracy check)"
    if code > 0:
        return f"zero pivot at row {code - 1}"
    return f"NaN/Inf at row {-code - 1}"


class BreakdownError(np.linalg.LinAlgError):
    """Some systems could not be solved: a zero pivot or a NaN/Inf value.

    tridi solves without pivoting (the Thomas algorithm and its parallel
    relatives), which is stable for diagonally dominant and symmetric
    positive definite matrices.  A system whose elimination meets an exactly
    zero pivot, or has or produces a NaN or an infinity, is reported here;
    the other systems of the batch are solved.  With the ``rd`` and
    ``cr_rd`` algorithms a system that fails the accuracy check is reported
    too (its solution is written).

    A subclass of :class:`numpy.linalg.LinAlgError` (so of ``ValueError``),
    which is what SciPy raises for a singular matrix.

    Attributes
    ----------
    info : numpy.ndarray of int32
        One code per system, shaped like the batch (the solution's shape
        without the solve axis): 0 solved; ``k > 0`` zero pivot at row
        ``k - 1``; ``k < 0`` NaN/Inf at row ``-k - 1``; ``2**31 - 1``
        inaccurate.  Rows are counted from 0 along the solve axis.
    systems : tuple of numpy.ndarray
        Indices of the failed systems into the batch shape, as
        :func:`numpy.nonzero` gives them (``info[systems]`` are their codes);
        ``()`` for a problem of one system (0-d ``info``).
    rows : numpy.ndarray of int64
        The row (0-based, along the solve axis) where each failed system
        broke down; -1 for an inaccurate one.
    status : str
        tridi's status name (``TRIDI_ERR_ZERO_PIVOT``, ``TRIDI_ERR_NONFINITE``
        or ``TRIDI_ERR_INACCURATE``): the kind of the first failed system.
    """

    def __init__(self, message: str, info=None, status: str = ""):
        super().__init__(message)
        self.status = status
        self.info = np.asarray(info if info is not None else np.zeros(0, np.int32))
        if self.info.ndim == 0:  # one system (a 1-d problem): no index
            self.systems = ()
            codes = self.info.reshape(1)[self.info.reshape(1) != 0].astype(np.int64)
        else:
            self.systems = np.nonzero(self.info)
            codes = self.info[self.systems].astype(np.int64)
        rows = np.where(codes > 0, codes - 1, -codes - 1)
        self.rows = np.where(codes == INFO_INACCURATE, -1, rows)

    @classmethod
    def from_info(cls, fn: str, info, status: str = "", axis: int | None = None):
        info = np.asarray(info)
        total = info.size
        shown = []
        if info.ndim == 0:
            count = int(info != 0)
            if count:
                shown.append(f"the system: {_reason(int(info))}")
        else:
            systems = np.nonzero(info)
            count = len(systems[0])
            for i in range(min(count, 3)):
                idx = tuple(int(s[i]) for s in systems)
                shown.append(f"system {idx if info.ndim != 1 else idx[0]}: "
                             f"{_reason(int(info[idx]))}")
        more = f"; and {count - 3} more" if count > 3 else ""
        along = f" (rows along axis {axis})" if axis is not None else ""
        msg = (f"{fn}: {count} of {total} systems broke down{along}: "
               + "; ".join(shown) + more
               + ". tridi does not pivot: see BreakdownError.info, or pass check=False")
        return cls(msg, info, status)
