"""zarr-python 3 array->array codecs backed by the Rust core.

One generic base, :class:`CoreCodec`, keyed by the codec's name: it hands its ``to_dict()``
JSON, the data type and the fill value it receives to the core's bind step (cached per
(configuration, data type, fill value)), takes the encoded data type and fill value from the
bound codec (``resolve_metadata``) and runs the core's kernels with the GIL released. The
subclasses only name the codec and offer a keyword constructor; a new codec of the core needs
no code here beyond such a subclass.
"""

from __future__ import annotations

import dataclasses
import functools
import json
import math
from collections.abc import Mapping
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any, ClassVar, NamedTuple, Self

import numpy as np
from zarr.abc.codec import ArrayArrayCodec
from zarr.core.common import parse_named_configuration
from zarr.core.dtype import get_data_type_from_json

from . import _core
from .dtypes import from_core, to_core
from .errors import UnsupportedDataTypeError

if TYPE_CHECKING:
    from zarr.core.array_spec import ArraySpec
    from zarr.core.buffer import NDBuffer
    from zarr.core.dtype.wrapper import ZDType
    from zarr.core.metadata.v3 import ChunkGridMetadata

__all__ = [
    "CFScaleOffset",
    "CastValue",
    "CoreCodec",
    "FixedScaleOffset",
    "ScaleOffset",
    "to_json_value",
]


def to_json_value(v: Any) -> Any:
    """A configuration value as strict JSON: numpy scalars as Python numbers, NaN and the
    infinities as the Zarr strings ``"NaN"``, ``"Infinity"``, ``"-Infinity"``, mappings and
    sequences recursively (tuples become lists)."""
    if isinstance(v, np.generic):
        v = v.item()
    if isinstance(v, float) and not math.isfinite(v):
        return "NaN" if math.isnan(v) else ("Infinity" if v > 0 else "-Infinity")
    if isinstance(v, Mapping):
        return {str(k): to_json_value(x) for k, x in v.items()}
    if isinstance(v, list | tuple):
        return [to_json_value(x) for x in v]
    return v


def _dtype_name(zdtype: ZDType[Any, Any]) -> str:
    name = zdtype.to_json(zarr_format=3)
    if not isinstance(name, str):
        raise UnsupportedDataTypeError(f"data type {name!r} is not one of the 26 numeric types")
    return name


class _Bound(NamedTuple):
    """A bound codec and what the codec pipeline needs from it."""

    core: _core.Bound
    encoded: ZDType[Any, Any]
    encoded_native: np.dtype[Any]
    decoded_native: np.dtype[Any]
    encoded_fill: Any


@functools.lru_cache(maxsize=1024)
def _bind(codec_json: str, dtype_name: str, fill_json: str | None) -> _Bound:
    core = _core.Bound(codec_json, dtype_name, fill_json)
    enc = get_data_type_from_json(core.encoded_data_type, zarr_format=3)
    dec = get_data_type_from_json(dtype_name, zarr_format=3)
    fill = core.encoded_fill
    enc_fill = None if fill is None else enc.from_json_scalar(json.loads(fill), zarr_format=3)
    return _Bound(core, enc, enc.to_native_dtype(), dec.to_native_dtype(), enc_fill)


def _run(kernel: Any, arr: np.ndarray, out_dtype: np.dtype[Any]) -> np.ndarray:
    """``arr`` through a bound codec's ``encode_into`` / ``decode_into``: the input in the core's
    layout (a view when it already is), the output allocated once by numpy (``np.empty``: no
    zeroing; numpy asks for huge pages for big buffers) and viewed as ``out_dtype``."""
    src = to_core(arr)
    buf = np.empty(arr.size * out_dtype.itemsize, dtype=np.uint8)
    kernel(src, buf)
    return from_core(buf, out_dtype, arr.shape)


@dataclass(frozen=True)
class CoreCodec(ArrayArrayCodec):
    """An array->array codec of the Rust core, by name (``codec_name``) and configuration.

    Frozen and picklable (dask ships codecs to worker processes); equal when name and
    configuration are equal. Errors are :mod:`zarr_scale_offset.errors` exceptions.
    """

    codec_name: ClassVar[str]
    #: Whether the configuration may be omitted from the JSON form.
    configuration_optional: ClassVar[bool] = False
    is_fixed_size = True

    configuration: dict[str, Any]

    def __init__(self, configuration: Mapping[str, Any] | None = None, /) -> None:
        config = to_json_value(dict(configuration or {}))
        object.__setattr__(self, "configuration", config)
        # Configuration errors now rather than at the first chunk (the data type is not known
        # yet: validate() checks the rest).
        errors, _, _ = _core.validate(self._json, None)
        real = [e for e in errors if e[1] != "unsupported_data_type"]
        if real:
            _core.Bound(self._json, "float64", None)  # raises the first error with its class

    @functools.cached_property
    def _json(self) -> str:
        return json.dumps(self.to_dict(), allow_nan=False, sort_keys=True)

    def __hash__(self) -> int:
        return hash((type(self), self._json))

    def __reduce__(self) -> tuple[Any, ...]:
        return (type(self)._from_configuration, (self.configuration,))

    @classmethod
    def _from_configuration(cls, configuration: Mapping[str, Any]) -> Self:
        obj = object.__new__(cls)
        CoreCodec.__init__(obj, configuration)
        return obj

    @classmethod
    def from_dict(cls, data: dict[str, Any]) -> Self:
        _, config = parse_named_configuration(
            data, cls.codec_name, require_configuration=not cls.configuration_optional
        )
        return cls._from_configuration(config or {})

    def to_dict(self) -> dict[str, Any]:
        if not self.configuration and self.configuration_optional:
            return {"name": self.codec_name}
        return {"name": self.codec_name, "configuration": dict(self.configuration)}

    def _bound(self, spec: ArraySpec) -> _Bound:
        zdtype = spec.dtype
        fill = spec.fill_value
        fill_json = (
            None
            if fill is None
            else json.dumps(zdtype.to_json_scalar(fill, zarr_format=3), allow_nan=False)
        )
        return _bind(self._json, _dtype_name(zdtype), fill_json)

    def validate(
        self,
        *,
        shape: tuple[int, ...],
        dtype: ZDType[Any, Any],
        chunk_grid: ChunkGridMetadata,
    ) -> None:
        _bind(self._json, _dtype_name(dtype), None)

    def resolve_metadata(self, chunk_spec: ArraySpec) -> ArraySpec:
        b = self._bound(chunk_spec)
        fill = chunk_spec.fill_value if b.encoded_fill is None else b.encoded_fill
        return dataclasses.replace(chunk_spec, dtype=b.encoded, fill_value=fill)

    def _encode_sync(self, chunk_array: NDBuffer, chunk_spec: ArraySpec) -> NDBuffer | None:
        b = self._bound(chunk_spec)
        arr = np.asarray(chunk_array.as_ndarray_like())
        out = _run(b.core.encode_into, arr, b.encoded_native)
        return chunk_spec.prototype.nd_buffer.from_ndarray_like(out)

    def _decode_sync(self, chunk_array: NDBuffer, chunk_spec: ArraySpec) -> NDBuffer:
        b = self._bound(chunk_spec)
        arr = np.asarray(chunk_array.as_ndarray_like())
        out = _run(b.core.decode_into, arr, b.decoded_native)
        return chunk_spec.prototype.nd_buffer.from_ndarray_like(out)

    async def _encode_single(self, chunk_array: NDBuffer, chunk_spec: ArraySpec) -> NDBuffer | None:
        return self._encode_sync(chunk_array, chunk_spec)

    async def _decode_single(self, chunk_array: NDBuffer, chunk_spec: ArraySpec) -> NDBuffer:
        return self._decode_sync(chunk_array, chunk_spec)

    def compute_encoded_size(self, input_byte_length: int, chunk_spec: ArraySpec) -> int:
        b = self._bound(chunk_spec)
        return input_byte_length // b.decoded_native.itemsize * b.encoded_native.itemsize


def _optional(**kw: Any) -> dict[str, Any]:
    return {k: v for k, v in kw.items() if v is not None}


def _scalar_map_json(scalar_map: Mapping[str, Any] | None) -> dict[str, Any] | None:
    """A scalar map in the spec's JSON form (lists of pairs); zarr-python's normalised
    dict-of-dicts form is accepted too."""
    if scalar_map is None:
        return None
    out = {}
    for direction, entries in scalar_map.items():
        pairs = entries.items() if isinstance(entries, Mapping) else entries
        out[direction] = [list(p) for p in pairs]
    return out


class ScaleOffset(CoreCodec):
    """``scale_offset``: encode ``(x - offset) * scale``, decode ``x / scale + offset``, in the
    array's data type; any intermediate or result that is not representable is an error."""

    codec_name = "scale_offset"
    configuration_optional = True

    def __init__(self, *, offset: Any = None, scale: Any = None) -> None:
        super().__init__(_optional(offset=offset, scale=scale))


class CFScaleOffset(CoreCodec):
    """``cf.scale_offset``: decode ``x * scale + offset``, bit-exact with ``xarray.decode_cf``."""

    codec_name = "cf.scale_offset"
    configuration_optional = True

    def __init__(self, *, scale: Any = None, offset: Any = None) -> None:
        super().__init__(_optional(scale=scale, offset=offset))


class CastValue(CoreCodec):
    """``cast_value``: convert to ``data_type`` with a rounding mode, an ``out_of_range`` mode
    (``"clamp"``, ``"wrap"`` or an error) and an optional ``scalar_map``; for all 26 types."""

    codec_name = "cast_value"

    def __init__(
        self,
        *,
        data_type: Any,
        rounding: str | None = None,
        out_of_range: str | None = None,
        scalar_map: Mapping[str, Any] | None = None,
    ) -> None:
        if not isinstance(data_type, str):
            data_type = data_type.to_json(zarr_format=3)
        super().__init__(
            _optional(
                data_type=data_type,
                rounding=rounding,
                out_of_range=out_of_range,
                scalar_map=_scalar_map_json(scalar_map),
            )
        )


class FixedScaleOffset(CoreCodec):
    """``numcodecs.fixedscaleoffset``, read-only, exact as numcodecs decodes (``x / scale +
    offset`` in the ``dtype``). Writing raises :class:`~zarr_scale_offset.errors.ReadOnlyError`
    (from the core, which names the ``[scale_offset, cast_value]`` to write instead:
    :func:`zarr_scale_offset.from_fixed_scale_offset`)."""

    codec_name = "numcodecs.fixedscaleoffset"

    def __init__(
        self, *, scale: Any, offset: Any = 0, dtype: str | None = None, astype: str | None = None
    ) -> None:
        super().__init__(_optional(scale=scale, offset=offset, dtype=dtype, astype=astype))
