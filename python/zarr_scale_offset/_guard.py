"""zarr-python's own ``scale_offset`` / ``cast_value``, unchanged, plus two checks: an array that
they cannot handle (a data type outside the 11 that numpy and cast-value-rs know) fails at open
or create with a message naming :func:`zarr_scale_offset.use_everywhere`, instead of
zarr-python's ``TypeError: Unsupported target dtype`` at the first chunk; and so does a
``cast_value`` when zarr-python's own cannot run at all (its backend, the ``cast-value-rs``
package, missing or too old: this package depends on it through ``zarr[cast-value-rs]``, so
only an environment that removed it gets there), where zarr-python's ``ImportError`` names
only the package. And ``cast_value`` hands cast-value-rs an aligned copy of a chunk whose buffer
is not aligned for its type (it panics on those).

Selected through zarr's own registry and config (``codecs.cast_value`` / ``codecs.scale_offset``)
when this package is imported and the config names no implementation; nothing of zarr-python is
patched, and :func:`~zarr_scale_offset.use_everywhere` (or any explicit config) replaces them.
"""

from __future__ import annotations

from typing import Any

import numpy as np
import zarr.codecs.cast_value as _zarr_cast_value
from zarr.codecs.cast_value import CastValue as _ZarrCastValue
from zarr.codecs.scale_offset import ScaleOffset as _ZarrScaleOffset

from .codecs import _named_configuration
from .errors import UnsupportedDataTypeError

#: The data types zarr-python 3.4.2's own scale_offset (numpy) and cast_value (cast-value-rs)
#: compute with.
ZARR_OWN_TYPES = frozenset(
    [
        "int8",
        "int16",
        "int32",
        "int64",
        "uint8",
        "uint16",
        "uint32",
        "uint64",
        "float16",
        "float32",
        "float64",
    ]
)


class _Guard:
    codec_name: str
    #: Whether zarr-python's codec requires a ``configuration``.
    configuration_required: bool = False

    @classmethod
    def from_dict(cls, data: Any) -> Any:
        # The entry checked as this package's codecs check it (coded errors naming the field,
        # where zarr-python's `parse_named_configuration` raises a plain ValueError).
        _named_configuration(data, cls.codec_name, cls.configuration_required)
        return super().from_dict(data)  # type: ignore[misc]

    def _types(self, dtype: Any) -> list[Any]:
        return [dtype.to_json(zarr_format=3)]

    def validate(self, *, shape: Any, dtype: Any, chunk_grid: Any) -> None:
        for name in self._types(dtype):
            if isinstance(name, str) and name not in ZARR_OWN_TYPES:
                raise UnsupportedDataTypeError(
                    f"zarr-python's own {self.codec_name} codec cannot compute with {name} "
                    f"(it knows {len(ZARR_OWN_TYPES)} numeric types): call "
                    "zarr_scale_offset.use_everywhere() to use zarr-scale-offset's "
                    f"{self.codec_name}, exact for all 26 types"
                )
        super().validate(shape=shape, dtype=dtype, chunk_grid=chunk_grid)  # type: ignore[misc]


class ZarrCastValue(_Guard, _ZarrCastValue):
    """zarr-python's ``CastValue`` with the data-type check described in the module."""

    codec_name = "cast_value"
    configuration_required = True

    def _types(self, dtype: Any) -> list[Any]:
        return [dtype.to_json(zarr_format=3), self.dtype.to_json(zarr_format=3)]

    def validate(self, *, shape: Any, dtype: Any, chunk_grid: Any) -> None:
        # zarr-python's reason, or None when cast-value-rs is there (validate runs before
        # resolve_metadata, the first place zarr-python's own codec would raise it).
        missing = getattr(_zarr_cast_value, "_BACKEND_ERROR", None)
        if missing is not None:
            raise ImportError(
                f"{missing} (zarr-scale-offset depends on it through zarr[cast-value-rs]), or "
                "call zarr_scale_offset.use_everywhere() to use zarr-scale-offset's cast_value"
            )
        super().validate(shape=shape, dtype=dtype, chunk_grid=chunk_grid)

    def _do_cast(self, arr: Any, **kw: Any) -> Any:
        # cast-value-rs 0.5.1 panics (pyo3's PanicException, a BaseException) on an array whose
        # buffer is not aligned for its type: what a store gives that returns slices of a larger
        # buffer (an obstore MemoryStore behind a VirtualiZarr ManifestStore, a netCDF4 variable
        # at an odd file offset). An aligned copy instead (docs/UPSTREAM.md).
        if isinstance(arr, np.ndarray) and not arr.flags.aligned:
            arr = arr.copy()
        return super()._do_cast(arr, **kw)  # type: ignore[misc]


class ZarrScaleOffset(_Guard, _ZarrScaleOffset):
    """zarr-python's ``ScaleOffset`` with the data-type check described in the module."""

    codec_name = "scale_offset"


GUARDS = {"cast_value": ZarrCastValue, "scale_offset": ZarrScaleOffset}
