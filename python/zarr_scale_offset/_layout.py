"""numpy arrays <-> the core's in-memory layout, for the 11 numpy-native data types.

A stand-in for ``dtypes.py`` (which adds the 15 ml_dtypes-backed types, with int2/int4
sign extension): only byte order and contiguity. ``to_core`` never writes to its input.
"""

from __future__ import annotations

import numpy as np

__all__ = ["from_core", "to_core"]


def to_core(arr: np.ndarray) -> np.ndarray:
    """The elements of ``arr`` as a C-contiguous uint8 array (little-endian elements): a view
    when ``arr`` is already C-contiguous and little-endian, else a copy."""
    a = np.asarray(arr)
    if a.dtype.byteorder == ">" or (a.dtype.byteorder == "=" and not _LITTLE):
        a = a.astype(a.dtype.newbyteorder("<"))
    a = np.ascontiguousarray(a)
    return a.reshape(-1).view(np.uint8)


def from_core(buf: np.ndarray, dtype: np.dtype, shape: tuple[int, ...]) -> np.ndarray:
    """The array of ``dtype`` (native byte order) and ``shape`` from core-layout bytes."""
    dtype = np.dtype(dtype)
    out = buf.view(dtype.newbyteorder("<")).reshape(shape)
    if not _LITTLE:
        out = out.astype(dtype.newbyteorder("="))
    return out


_LITTLE = np.little_endian
