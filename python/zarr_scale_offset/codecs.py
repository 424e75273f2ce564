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
import sys
import threading
from collections.abc import Mapping
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any, ClassVar, NamedTuple, Self

import numpy as np
from zarr.abc.codec import ArrayArrayCodec
from zarr.core.buffer.cpu import NDBuffer
from zarr.core.dtype import get_data_type_from_json

from . import _core
from .dtypes import core_layout, from_core, to_core
from .errors import (
    InvalidMetadataError,
    UnsupportedDataTypeError,
    ZarrScaleOffsetError,
    _from_core,
)

if TYPE_CHECKING:
    from zarr.core.array_spec import ArraySpec
    from zarr.core.buffer import NDBuffer as AnyNDBuffer
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


def _pointer(path: str, key: Any) -> str:
    """``path`` extended by ``key`` (RFC 6901: ``~`` and ``/`` escaped)."""
    return f"{path}/" + str(key).replace("~", "~0").replace("/", "~1")


def to_json_value(v: Any, path: str = "") -> Any:
    """A configuration value as strict JSON: numpy scalars as Python numbers, NaN and the
    infinities as the Zarr strings ``"NaN"``, ``"Infinity"``, ``"-Infinity"``, mappings and
    sequences recursively (tuples become lists). Anything else (a ``Fraction``, a ``Decimal``, a
    ``numpy.longdouble``, bytes, a datetime) has no exact JSON form here: an
    :class:`~zarr_scale_offset.errors.InvalidMetadataError` naming ``path`` (the JSON pointer of
    ``v``) and the value's type.

    >>> to_json_value({"scale": np.float32(0.5), "offset": float("nan")})
    {'scale': 0.5, 'offset': 'NaN'}
    """
    if isinstance(v, np.generic):
        v = v.item()  # a Python scalar, except for types Python has none of (longdouble)
    if v is None or isinstance(v, bool | int | str):
        return v
    if isinstance(v, float):
        if math.isfinite(v):
            return v
        return "NaN" if math.isnan(v) else ("Infinity" if v > 0 else "-Infinity")
    if isinstance(v, Mapping):
        return {str(k): to_json_value(x, _pointer(path, k)) for k, x in v.items()}
    if isinstance(v, list | tuple):
        return [to_json_value(x, _pointer(path, i)) for i, x in enumerate(v)]
    raise InvalidMetadataError(
        f"{path or 'the value'}: a {type(v).__module__}.{type(v).__qualname__} ({v!r}) has no "
        "exact JSON form: give an int, a float, a string or a NumPy scalar",
        path or None,
    )


def _raise_first(rows: list[tuple[str, str, str]]) -> None:
    """Raises the first of the core's diagnostics ``(path, code, message)``, if any, as the
    exception of its code."""
    if rows:
        path, code, message = rows[0]
        raise _from_core(code, message, path or None)


def _named_configuration(data: Any, name: str, required: bool) -> dict[str, Any] | None:
    """The ``configuration`` of a codec's JSON form ``data`` (``{"name", "configuration"}``),
    checked as the core checks a codec entry: coded errors naming the field, never zarr's plain
    ``ValueError``. ``None`` when it is absent and not ``required``."""
    if not isinstance(data, Mapping):
        raise InvalidMetadataError(
            f"a codec must be a JSON object, found {type(data).__name__}", None
        )
    if data.get("name") != name:
        raise InvalidMetadataError(f"/name: expected {name!r}, found {data.get('name')!r}", "/name")
    config = data.get("configuration")
    if config is None and "configuration" not in data:
        if required:
            # The core's own message for the entry, at `/configuration`.
            rows = _core.validate(json.dumps({"name": name}), None)[0]
            message = rows[0][2] if rows else f"{name} needs a configuration"
            raise InvalidMetadataError(f"/configuration: {message}", "/configuration")
        return None
    if not isinstance(config, Mapping):
        raise InvalidMetadataError(
            f"/configuration: must be a JSON object, found {type(config).__name__}",
            "/configuration",
        )
    return dict(config)


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


class _Scratch(threading.local):
    """Each thread's last output buffer, reused once nothing but this slot refers to it.

    A chunk decoded by zarr-python is usually copied into the output array and dropped at once;
    allocating a fresh buffer for every chunk costs a page fault per 4 KiB each time the
    allocator has handed the memory back to the system (glibc does for big buffers), about as
    long as the kernel itself. So the buffer is kept and handed out again when its reference
    count (CPython's, exact: every view, memoryview or array made from it holds a reference)
    says nobody else holds it. A buffer still in use (stored by a store, kept by the caller) is
    never reused: a new one is allocated and becomes the thread's buffer.
    """

    buf: np.ndarray | None = None

    def take(self, nbytes: int) -> np.ndarray:
        buf = self.buf
        if buf is not None and buf.nbytes == nbytes and sys.getrefcount(buf) <= _UNUSED:
            return buf
        buf = np.empty(nbytes, dtype=np.uint8)
        self.buf = buf
        return buf


def _calibrate() -> int:
    """The reference count `_Scratch.take` sees for a buffer held by its slot alone."""
    probe = _Scratch()
    probe.buf = np.empty(1, dtype=np.uint8)
    buf = probe.buf
    return sys.getrefcount(buf)


_UNUSED = _calibrate()
_SCRATCH = _Scratch()


def _run(
    kernel: Any, arr: np.ndarray, out_dtype: np.dtype[Any], dest: np.ndarray | None = None
) -> np.ndarray:
    """``arr`` through a bound codec's ``encode_into`` / ``decode_into``: the input in the core's
    layout (a view when it already is), the output written once, into ``dest`` when given (a
    C-contiguous writeable array of ``out_dtype`` and ``arr``'s shape whose layout is the
    core's: :func:`~zarr_scale_offset.dtypes.core_layout`), else into this thread's reusable
    buffer (``_Scratch``; no zeroing) viewed as ``out_dtype``."""
    src = to_core(arr)
    if dest is not None:
        kernel(src, dest.reshape(-1).view(np.uint8))
        return dest
    buf = _SCRATCH.take(arr.size * out_dtype.itemsize)
    kernel(src, buf)
    return from_core(buf, out_dtype, arr.shape)


def _covers(key: Any, shape: tuple[int, ...]) -> bool:
    """Whether the basic index ``key`` selects every element of an array of ``shape`` in C
    order: full slices of step 1, an Ellipsis, and integers only on dimensions of length 1
    (they drop the dimension, not elements)."""
    key = key if isinstance(key, tuple) else (key,)
    ell = [i for i, k in enumerate(key) if k is Ellipsis]
    if len(ell) > 1:
        return False
    if ell:
        i = ell[0]
        fill = len(shape) - (len(key) - 1)
        if fill < 0:
            return False
        key = (*key[:i], *(slice(None),) * fill, *key[i + 1 :])
    if len(key) > len(shape):
        return False
    for k, n in zip(key, shape, strict=False):
        if isinstance(k, slice):
            if k.indices(n) != (0, n, 1):
                return False
        elif isinstance(k, int | np.integer) and not isinstance(k, bool | np.bool_):
            if n != 1 or k not in (0, -1):
                return False
        else:
            return False
    return True


def _chain_json(jsons: list[str]) -> str:
    return jsons[0] if len(jsons) == 1 else "[" + ",".join(jsons) + "]"


class _Deferred:
    """What a chunk our codecs have been asked to compute but have not computed yet holds and
    does, whatever its buffer class: :class:`_Pending` (zarr-python's CPU buffer) and
    :class:`_OnDevice` (any other, e.g. zarr-python's GPU buffer) add it to their class.

    zarr-python hands a chunk to its array->array codecs one at a time, each returning a new
    array: for ``[scale_offset, cast_value]`` that is two passes over memory and one more chunk
    allocated, where the core runs the whole chain in one fused pass. So each of our codecs
    returns a deferred chunk (the input and the steps so far); our next codec adds its step to
    it, and the first access to the values by anyone else (zarr's ``bytes`` codec, the copy into
    the output array, a foreign codec) runs all the steps at once: ``_data`` is computed on first
    read. A chunk-shaped buffer made from it (``self.__class__(array)``, as the buffer classes'
    methods do) is an ordinary computed buffer.

    Errors are the unfused path's: when the fused run fails, the steps run one by one, so the
    exception (class, message, element) is the one the codecs raise separately.
    """

    _value: Any
    #: The input: a NumPy array (``_Pending``) or a buffer (``_OnDevice``).
    _source: Any
    #: (codec, spec, bound) in the order the codecs are applied.
    _steps: tuple[tuple[CoreCodec, ArraySpec, _Bound], ...]
    _encode: bool

    def __init__(self, array: Any) -> None:
        self._value = array

    @classmethod
    def start(
        cls,
        source: Any,
        steps: tuple[tuple[CoreCodec, ArraySpec, _Bound], ...],
        encode: bool,
    ) -> Self:
        p = cls.__new__(cls)
        p._value = None
        p._source = source
        p._steps = steps
        p._encode = encode
        return p

    def then(self, step: tuple[CoreCodec, ArraySpec, _Bound]) -> Self:
        return type(self).start(self._source, (*self._steps, step), self._encode)

    @property
    def pending(self) -> bool:
        return self._value is None

    @property
    def _data(self) -> Any:
        if self._value is None:
            self._value = self._compute()
        return self._value

    @_data.setter
    def _data(self, value: Any) -> None:
        self._value = value

    @property
    def dtype(self) -> np.dtype[Any]:
        if self._value is not None:
            return self._value.dtype
        b = self._steps[-1][2]
        return b.encoded_native if self._encode else b.decoded_native

    @property
    def shape(self) -> tuple[int, ...]:
        return self._source.shape if self._value is None else self._value.shape

    def _same(self, source: Any) -> Self:
        return type(self).start(source, self._steps, self._encode)

    def __getitem__(self, key: Any) -> Self:
        # A selection of every element (zarr-python selects the whole chunk before copying it
        # into the output) stays pending, so the output can receive the values directly.
        if self._value is None and _covers(key, self._source.shape):
            return self._same(self._source[key])
        return super().__getitem__(key)  # type: ignore[misc]

    def squeeze(self, axis: tuple[int, ...]) -> Self:
        if self._value is None:
            shape = tuple(n for i, n in enumerate(self._source.shape) if i not in axis)
            return self._same(self._source.reshape(shape))
        return super().squeeze(axis)  # type: ignore[misc]

    def _compute(self) -> Any:
        raise NotImplementedError

    def _host(self, src: np.ndarray, dest: np.ndarray | None = None) -> np.ndarray:
        """The steps run over the host array ``src``, into ``dest`` when given (as ``_run``)."""
        if len(self._steps) == 1:
            return _apply(self._steps[0][2], src, self._encode, dest)
        # The chain in the array's order, bound to the data type and fill value of its first
        # codec (the steps of a decode run last codec first).
        steps = self._steps if self._encode else self._steps[::-1]
        first_codec, first_spec, _ = steps[0]
        fused = first_codec._bound(first_spec, _chain_json([c._json for c, _, _ in steps]))
        try:
            return _apply(fused, src, self._encode, dest)
        except ZarrScaleOffsetError:
            pass
        arr = src
        for _, _, b in self._steps:
            arr = _apply(b, arr, self._encode)
        raise AssertionError("the fused chain failed where its codecs one by one did not")


class _Pending(_Deferred, NDBuffer):
    """A deferred chunk (:class:`_Deferred`) of zarr-python's CPU buffer class: the input is a
    NumPy array, and the output goes into this thread's reusable buffer, or straight into a
    read's output (``compute_into``, from ``pipeline.CodecPipeline``)."""

    _source: np.ndarray

    def compute_into(self, dest: np.ndarray) -> bool:
        """Computes the pending steps straight into ``dest`` (an output array's region) when
        it can hold them as the kernel writes them: C-contiguous, writeable, of this chunk's
        shape and data type, in the core's layout. Returns whether it did; the errors are
        those of reading the values (an error may leave ``dest`` partly written)."""
        if (
            self._value is not None
            or dest.shape != self._source.shape
            or dest.dtype != self.dtype
            or not dest.flags.c_contiguous
            or not dest.flags.writeable
            or not core_layout(dest.dtype)
        ):
            return False
        self._value = self._host(self._source, dest)
        return True

    def _compute(self) -> np.ndarray:
        return self._host(self._source)


class _OnDevice(_Deferred):
    """A deferred chunk of a buffer class other than zarr-python's CPU one: zarr-python's GPU
    buffer (``zarr.config.enable_gpu()``, CuPy arrays) or any other. The core runs on the host,
    so computing it copies the input to the host once, through the input buffer's own
    ``as_numpy_array()`` (CuPy's explicit ``asnumpy``), runs the steps (fused, as on the CPU
    path, with the same errors) into a fresh host array, and copies the result back once,
    through the class's own ``from_numpy_array()`` (``cupy.asarray``): one copy each way per
    chunk, for one codec or a chain. These are the two conversions zarr-python's buffer classes
    define for host memory, and the ones zarr-python's own host-only codecs (gzip, zstd, blosc)
    go through; nothing here knows CuPy.

    Never used for zarr-python's CPU buffer class (that is :class:`_Pending`). Each buffer
    class gets its subclass of this and of itself (:func:`_on_device_class`), so that what our
    codecs return is of the class zarr-python asked for (``chunk_spec.prototype.nd_buffer``),
    deferred or not; its computed array is the class's own (a CuPy array for the GPU class).
    """

    #: The buffer class this one defers for (the prototype's ``nd_buffer``).
    _base: ClassVar[type[AnyNDBuffer]]
    #: The input: a buffer (of any class: its ``as_numpy_array`` gives the host copy).
    _source: AnyNDBuffer

    def __init__(self, array: Any) -> None:
        # A computed buffer, made as the class makes one (its conversion of `array`, if any;
        # it assigns `_data`, which sets `_value`).
        self._value = None
        self._base.__init__(self, array)

    def __reduce__(self) -> tuple[Any, ...]:
        return (self._base, (self._data,))

    def _compute(self) -> Any:
        host = self._source.as_numpy_array()  # the one copy to the host
        out_dtype = self.dtype
        # A fresh host array, never the thread's reused one: the copy back may still be reading
        # it after `from_numpy_array` returns (an asynchronous copy). Where the core's layout is
        # not NumPy's (int2/int4, big-endian) the conversion after the kernel makes a new array.
        dest = np.empty(host.shape, out_dtype) if core_layout(out_dtype) else None
        out = self._host(host, dest)
        return self._base.from_numpy_array(out).as_ndarray_like()  # the one copy back


@functools.cache
def _on_device_class(base: type[AnyNDBuffer]) -> type[_OnDevice]:
    """The deferred-chunk class of the buffer class ``base`` (a subclass of both)."""
    return type(
        f"_OnDevice[{base.__module__}.{base.__qualname__}]",
        (_OnDevice, base),
        {"_base": base, "__module__": __name__},
    )


def _step_elsewhere(
    chunk_array: AnyNDBuffer,
    nd_buffer: type[AnyNDBuffer],
    step: tuple[CoreCodec, ArraySpec, _Bound],
    encode: bool,
) -> AnyNDBuffer:
    """``CoreCodec._step`` for a buffer class other than zarr-python's CPU one (see
    :class:`_OnDevice`): the chunk stays in its class and on its device until the values are
    read; then one copy to the host, the core, one copy back."""
    cls = _on_device_class(nd_buffer)
    if isinstance(chunk_array, cls) and chunk_array.pending and chunk_array._encode == encode:
        return chunk_array.then(step)
    return cls.start(chunk_array, (step,), encode)


def _apply(b: _Bound, arr: np.ndarray, encode: bool, dest: np.ndarray | None = None) -> np.ndarray:
    if encode:
        return _run(b.core.encode_into, arr, b.encoded_native, dest)
    return _run(b.core.decode_into, arr, b.decoded_native, dest)


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
        config = to_json_value(dict(configuration or {}), "/configuration")
        object.__setattr__(self, "configuration", config)
        # Configuration errors now rather than at the first chunk (the data type is not known
        # yet: validate() checks the rest), the core's first one as it reports it (field and
        # message; `unsupported_data_type` needs the array's type, which comes later).
        errors, _, _ = _core.validate(self._json, None)
        _raise_first([e for e in errors if e[1] != "unsupported_data_type"])

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
        config = _named_configuration(data, cls.codec_name, not cls.configuration_optional)
        return cls._from_configuration(config or {})

    def to_dict(self) -> dict[str, Any]:
        if not self.configuration and self.configuration_optional:
            return {"name": self.codec_name}
        return {"name": self.codec_name, "configuration": dict(self.configuration)}

    def _bound(self, spec: ArraySpec, chain_json: str | None = None) -> _Bound:
        """This codec (or ``chain_json``, a chain starting with it) bound to the data type and
        fill value of ``spec``, cached."""
        zdtype = spec.dtype
        fill = spec.fill_value
        fill_json = (
            None
            if fill is None
            else json.dumps(zdtype.to_json_scalar(fill, zarr_format=3), allow_nan=False)
        )
        return _bind(chain_json or self._json, _dtype_name(zdtype), fill_json)

    def validate(
        self,
        *,
        shape: tuple[int, ...],
        dtype: ZDType[Any, Any],
        chunk_grid: ChunkGridMetadata,
    ) -> None:
        _bind(self._json, _dtype_name(dtype), None)

    def evolve_from_array_spec(self, array_spec: ArraySpec) -> Self:
        # The fill value is checked here (zarr-python evolves every codec of an array, at
        # creation and when it builds a pipeline, with the spec the codecs before it leave,
        # the array's real fill value included), not in `resolve_metadata` (see there).
        self._bound(array_spec)
        return self

    def resolve_metadata(self, chunk_spec: ArraySpec) -> ArraySpec:
        try:
            b = self._bound(chunk_spec)
        except ZarrScaleOffsetError:
            # A fill value that cannot pass, where the codec binds without one: zarr-python's
            # sharding codec resolves its inner codecs with the data type's default fill value
            # as a placeholder (zarr/codecs/sharding.py, _validate_inner_codecs), not the
            # array's, so a sharded float array with fill NaN and [scale_offset(offset=273.15,
            # scale=100), cast_value(uint16, NaN <-> 65535)] was refused because 0 cannot
            # pass. Here the encoded type's default fill goes on; a real fill value that cannot
            # pass is still an error, from `evolve_from_array_spec` and from every chunk.
            b = _bind(self._json, _dtype_name(chunk_spec.dtype), None)
            return dataclasses.replace(
                chunk_spec, dtype=b.encoded, fill_value=b.encoded.default_scalar()
            )
        fill = chunk_spec.fill_value if b.encoded_fill is None else b.encoded_fill
        return dataclasses.replace(chunk_spec, dtype=b.encoded, fill_value=fill)

    def _step(self, chunk_array: NDBuffer, chunk_spec: ArraySpec, encode: bool) -> NDBuffer:
        step = (self, chunk_spec, self._bound(chunk_spec))
        nd_buffer = chunk_spec.prototype.nd_buffer
        if nd_buffer is not NDBuffer:
            # Another buffer class (zarr-python's GPU one, CuPy arrays): see _OnDevice.
            return _step_elsewhere(chunk_array, nd_buffer, step, encode)
        if (
            isinstance(chunk_array, _Pending)
            and chunk_array.pending
            and chunk_array._encode == encode
        ):
            return chunk_array.then(step)
        arr = np.asarray(chunk_array.as_ndarray_like())
        return _Pending.start(arr, (step,), encode)

    def _encode_sync(self, chunk_array: NDBuffer, chunk_spec: ArraySpec) -> NDBuffer | None:
        return self._step(chunk_array, chunk_spec, True)

    def _decode_sync(self, chunk_array: NDBuffer, chunk_spec: ArraySpec) -> NDBuffer:
        return self._step(chunk_array, chunk_spec, False)

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
