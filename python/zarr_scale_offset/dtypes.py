"""The 15 data types of the scale_offset / cast_value specs that zarr-python 3.4 lacks, as
zarr-python data types backed by ml_dtypes: bfloat16, the seven float8, two float6,
float4_e2m1fn, int2, int4, uint2 and uint4.

zarr-python finds them through the ``zarr.data_type`` entry points of this package (one per
class, named by the Zarr v3 name), so ``zarr.create_array(..., dtype="bfloat16")`` works without
importing this module, and so does inference from an ml_dtypes NumPy dtype
(``dtype=ml_dtypes.float8_e4m3``).

Every class comes from one row of :data:`ROWS`; adding a data type is one row there (plus its
entry point, which ``tests/test_dtypes.py`` checks against the table). Sizes and bit widths come
from ml_dtypes, and a test compares them with the Rust core's data-type table.

Fill values are the Rust core's: this module gives each one to the core's bind step with no
codecs (``_core.Bound("[]", name, text)``, ``zarr_scale_offset::bind``), which parses, checks and
rounds it by the rules of ``src/json/scalar.rs``, the same rules as the npm package and the zarrs
plugin, and it takes the element's bytes back (``encoded_fill_bytes``); writing one is
``_core.Bound.from_fill_element("[]", name, element).encoded_fill``, the core's strict text.
In short (Zarr v3, as the data types' READMEs say: "the same way as the core IEEE 754 floating
point numbers" / "the core integer data types"): a JSON number rounded half-to-even from its
decimal text, ``±Infinity`` beyond the largest finite value where the type has infinities and
an error where it has none; ``"NaN"`` (the type's own NaN code), ``"Infinity"``,
``"-Infinity"`` only where the type has them; ``"0x…"``, the raw code, two hex digits per byte
of the element, either case, in the type's own width (``"0x3f80"`` is bfloat16 1.0, where
zarr-python's own float reader would take float16 bits, ``zarr/core/dtype/npy/common.py:196``);
for int2 … uint4 a JSON integer within the range; plus the core's lenient forms (integral
floats and integer strings for the integers, other hex digit counts, Python ``float()``
spellings). Written fill values are strict: the shortest decimal that reads back to the same
code, ``"NaN"`` for the type's NaN code, a full-width hex string for any other NaN code,
``"Infinity"``/``"-Infinity"``.

What this module does itself is turn a Python or NumPy scalar into the JSON text the core reads,
exactly: an ``int`` as its digits (any size); a ``float`` (and ``numpy.float64``), the type of
every JSON number with a fraction or exponent that zarr-python's ``json`` reader makes, as its
shortest text (``repr``, what ``json.dumps`` writes); any other NumPy or ml_dtypes float (float16,
float32, ...) as its exact decimal expansion, so a float32 on a tie of the type rounds to even; a
NaN as ``"NaN"`` and an infinity as ``"Infinity"``/``"-Infinity"``; a string as given. So the
Python engine agrees with the core on the text it is given (``tests/test_dtypes.py`` sweeps
every code's text, its neighbours and the special forms of all 15 types). What is left is what
zarr-python's ``json`` reader loses before this module sees a zarr.json value: the integer
``-0`` becomes int 0 (+0 here, -0 in the core), ``1e-400`` becomes 0.0 (accepted by the integer
types here, "not an integer" in the core), ``1e400`` becomes inf (the same code or error, another
message), and a number that is not its float64's shortest text and lies within half a float64 ulp
of a tie of the type rounds as that shortest text (the exact 90 digits of 2^-128, a tie for
float8_e8m0fnu rounding to the missing zero, are an error for the core and become
``2.938735877055719e-39``, a little above the tie, here). Core errors are
:class:`FillValueError` with the core's message.

The default fill value (``fill_value=None``) is 0, and 1.0 for float8_e8m0fnu, which has no zero
(the ``default`` column of :data:`ROWS`).

Layout: ml_dtypes keeps int2/int4 in the low bits of a byte (int4 -1 is ``0x0F``); the Rust core
wants them sign-extended (``0xFF``). :func:`to_core` and :func:`from_core` convert, for every
dtype the codecs see, between NumPy arrays and the core's little-endian bytes.
"""

from __future__ import annotations

import json
import math
from collections.abc import Callable, Mapping
from dataclasses import dataclass
from decimal import Decimal
from typing import TYPE_CHECKING, ClassVar, Self

import ml_dtypes
import numpy as np
from zarr.core.dtype.common import HasEndianness, HasItemSize
from zarr.core.dtype.npy.common import (
    endianness_to_numpy_str,
    get_endianness_from_numpy_dtype,
)
from zarr.core.dtype.wrapper import ZDType
from zarr.errors import DataTypeValidationError

from . import _core
from .errors import InvalidMetadataError, ZarrScaleOffsetError

if TYPE_CHECKING:
    from zarr.core.common import JSON, ZarrFormat

__all__ = [
    "BY_NAME",
    "ROWS",
    "FillValueError",
    "Row",
    "from_core",
    "to_core",
]


class FillValueError(InvalidMetadataError):
    """A fill value (or scalar) that the data type cannot hold, or that is not a valid JSON form
    of one: a ``ValueError`` with the Rust core's code for the same case, ``invalid_metadata``,
    and the core's message."""


@dataclass(frozen=True)
class Row:
    """One data type: the ZDType class name, the Zarr v3 name (also the ml_dtypes name), and the
    default fill value (``fill_value=None``)."""

    cls: str
    name: str
    default: int | float = 0


# The table. Columns: class name, Zarr v3 name (= the ml_dtypes type), default fill value.
ROWS: tuple[Row, ...] = (
    Row("Int2", "int2"),
    Row("Int4", "int4"),
    Row("UInt2", "uint2"),
    Row("UInt4", "uint4"),
    Row("Float4E2M1FN", "float4_e2m1fn"),
    Row("Float6E2M3FN", "float6_e2m3fn"),
    Row("Float6E3M2FN", "float6_e3m2fn"),
    Row("Float8E3M4", "float8_e3m4"),
    Row("Float8E4M3", "float8_e4m3"),
    Row("Float8E4M3B11FNUZ", "float8_e4m3b11fnuz"),
    Row("Float8E4M3FNUZ", "float8_e4m3fnuz"),
    Row("Float8E5M2", "float8_e5m2"),
    Row("Float8E5M2FNUZ", "float8_e5m2fnuz"),
    Row("Float8E8M0FNU", "float8_e8m0fnu", default=1.0),  # 2^0: it has no zero
    Row("BFloat16", "bfloat16"),
)


class _Facts:
    """What the classes and the layout functions need of a row, from ml_dtypes."""

    def __init__(self, row: Row) -> None:
        self.row = row
        self.name = row.name
        self.dtype = np.dtype(getattr(ml_dtypes, row.name))
        self.size = self.dtype.itemsize
        try:
            info = ml_dtypes.iinfo(self.dtype)
            self.float = False
            # int2/int4: the core keeps them sign-extended to the byte.
            self.sign_extended = int(info.min) < 0
        except ValueError:  # not an integer type
            info = ml_dtypes.finfo(self.dtype)
            self.float = True
            self.sign_extended = False
        self.bits = int(info.bits)
        self.mask = (1 << self.bits) - 1


def _json_text(data: object, name: str) -> str:
    """The JSON text of a Python or NumPy scalar, exactly (the module documentation), for the
    core to read; a ``TypeError`` for anything that is not a number or a string."""
    if isinstance(data, bool | np.bool_):
        raise TypeError(f"Cannot convert {data!r} to {name}")
    if isinstance(data, str):
        return json.dumps(data)
    if isinstance(data, int | np.integer):
        return str(Decimal(int(data)))  # every digit (str(int) stops at 4300 digits)
    if isinstance(data, float | np.floating) or (
        isinstance(data, np.generic) and _facts_of(data.dtype) is not None
    ):
        x = float(data)  # type: ignore[arg-type]
        if math.isnan(x):
            return '"NaN"'
        if math.isinf(x):
            return '"-Infinity"' if x < 0 else '"Infinity"'
        # A float64 is the JSON number zarr-python read: its shortest text. Any other float
        # (float16, float32, ml_dtypes) is exact in float64: its exact decimal expansion.
        return repr(x) if isinstance(data, float) else str(Decimal(x))
    raise TypeError(f"Cannot convert {data!r} to {name}")


def _fill(bind: Callable[[], _core.Bound]) -> _core.Bound:
    """``bind()``, a core error raised as :class:`FillValueError` (the core's message)."""
    try:
        return bind()
    except ZarrScaleOffsetError as e:
        raise FillValueError(e.message, e.path) from None


class _Base(ZDType[np.dtype, np.generic], HasItemSize):  # type: ignore[type-var]
    """A data type of one row (the classes :func:`_make` builds set ``_facts``)."""

    _facts: ClassVar[_Facts]
    dtype_cls: ClassVar[type[np.dtype]]
    _zarr_v3_name: ClassVar[str]

    @classmethod
    def from_native_dtype(cls, dtype: np.dtype) -> Self:
        if cls._check_native_dtype(dtype):
            return cls._with_byte_order(dtype)
        raise DataTypeValidationError(
            f"Invalid data type: {dtype}. Expected the ml_dtypes dtype {cls._zarr_v3_name}"
        )

    @classmethod
    def _with_byte_order(cls, dtype: np.dtype) -> Self:
        return cls()

    def to_native_dtype(self) -> np.dtype:
        return self._facts.dtype

    @classmethod
    def _from_json_v2(cls, data: object) -> Self:
        raise DataTypeValidationError(
            f"Zarr v2 has no spelling for {cls._zarr_v3_name}; got {data!r}"
        )

    @classmethod
    def _from_json_v3(cls, data: object) -> Self:
        name = cls._zarr_v3_name
        if data == name:
            return cls()
        # The extension schema: {"name": ..., "configuration": {}} with no other members.
        if (
            isinstance(data, Mapping)
            and data.get("name") == name
            and set(data) <= {"name", "configuration"}
            and data.get("configuration", {}) == {}
        ):
            return cls()
        raise DataTypeValidationError(f"Invalid JSON representation of {name}. Got {data!r}")

    def to_json(self, zarr_format: ZarrFormat) -> str:  # type: ignore[override]
        if zarr_format == 3:
            return self._zarr_v3_name
        raise ValueError(
            f"{self._zarr_v3_name} arrays need Zarr format 3: Zarr v2 has no spelling for it"
        )

    @property
    def item_size(self) -> int:
        return self._facts.size

    def default_scalar(self) -> np.generic:
        return self.cast_scalar(self._facts.row.default)

    def _check_scalar(self, data: object) -> bool:
        try:
            self._bound(data)
        except (TypeError, FillValueError):
            return False
        return True

    def cast_scalar(self, data: object) -> np.generic:
        return self._scalar(self._bound(data))

    def from_json_scalar(self, data: JSON, *, zarr_format: ZarrFormat) -> np.generic:
        if isinstance(data, bool) or not isinstance(data, int | float | str):
            # true, null, [...], {...}: the core says why it is not a fill value, a ValueError,
            # which zarr-python reports as "Invalid fill_value" (metadata/v3.py:700).
            text = json.dumps(data)
            return self._scalar(_fill(lambda: _core.Bound("[]", self._facts.name, text)))
        return self.cast_scalar(data)

    def to_json_scalar(self, data: object, *, zarr_format: ZarrFormat) -> JSON:
        return json.loads(self._bound(data).encoded_fill)  # type: ignore[arg-type]

    def _bound(self, data: object) -> _core.Bound:
        """The core with no codecs bound to the fill value `data`: a scalar of this type as its
        in-memory element, anything else as JSON text (:func:`_json_text`)."""
        f = self._facts
        if isinstance(data, np.generic) and _facts_of(data.dtype) is f:
            element = to_core(np.asarray(data).reshape(1)).tobytes()
            return _fill(lambda: _core.Bound.from_fill_element("[]", f.name, element))
        text = _json_text(data, f.name)
        return _fill(lambda: _core.Bound("[]", f.name, text))

    def _scalar(self, bound: _core.Bound) -> np.generic:
        """The ml_dtypes scalar of the fill value `bound` holds."""
        return from_core(bound.encoded_fill_bytes, self._facts.dtype, (1,))[0]  # type: ignore[arg-type]


class _ByteOrdered(_Base, HasEndianness):
    """bfloat16: two bytes, so an in-memory byte order (the stored one is the bytes codec's)."""

    @classmethod
    def _with_byte_order(cls, dtype: np.dtype) -> Self:
        return cls(endianness=get_endianness_from_numpy_dtype(dtype))

    def to_native_dtype(self) -> np.dtype:
        return self._facts.dtype.newbyteorder(endianness_to_numpy_str(self.endianness))


def _make(row: Row) -> type[_Base]:
    facts = _Facts(row)
    base = _ByteOrdered if facts.size > 1 else _Base
    body = {
        "_facts": facts,
        "dtype_cls": type(facts.dtype),
        "_zarr_v3_name": row.name,
        "__module__": __name__,
        "__qualname__": row.cls,
        "__doc__": f"The Zarr data type {row.name}, backed by ml_dtypes.{row.name}.",
    }
    return dataclass(frozen=True, kw_only=True)(type(row.cls, (base,), body))


#: Every class of the table by its Zarr v3 name.
BY_NAME: dict[str, type[_Base]] = {}
for _row in ROWS:
    BY_NAME[_row.name] = globals()[_row.cls] = _make(_row)
del _row

_FACTS = {f.dtype: f for f in (c._facts for c in BY_NAME.values())}


def _facts_of(dtype: np.dtype) -> _Facts | None:
    """The row of an ml_dtypes dtype of the table (any byte order)."""
    return _FACTS.get(dtype.newbyteorder("="))


def _read_ignoring_upper_bits() -> None:
    """Makes zarr-python's ``bytes`` codec clear the upper bits of the sub-byte types' elements
    (int2, int4, uint2, uint4, float4_e2m1fn, the float6) as it reads them: the specs say they
    "are ignored" and a writer may set them, but ml_dtypes reads them for the floats (``0xF1``
    as float4_e2m1fn is -0.5, not 0.5; the integers' values are right, their bytes not
    ml_dtypes' own). zarr-python gives a data type no say in how the bytes codec views stored
    bytes (``zarr/codecs/bytes.py:97-131``), so this wraps ``BytesCodec._decode_sync`` (which
    ``_decode_single`` calls) once; chunks of other data types, and clean chunks, pass through
    untouched (one scan of the bytes).
    """
    from zarr.codecs.bytes import BytesCodec

    original = BytesCodec._decode_sync
    if getattr(original, "_zarr_scale_offset", False):
        return

    def _decode_sync(self: BytesCodec, chunk_bytes: object, chunk_spec: object) -> object:
        out = original(self, chunk_bytes, chunk_spec)  # type: ignore[arg-type]
        zdtype = chunk_spec.dtype  # type: ignore[attr-defined]
        if isinstance(zdtype, _Base) and zdtype._facts.bits < 8:
            f = zdtype._facts
            # The array's own methods and operators only, so a device array (zarr-python's GPU
            # mode: CuPy, which refuses `np.asarray`) is masked where it is, with no copy.
            arr = out.as_ndarray_like()
            codes = arr.view(np.uint8)
            if (codes >> f.bits).any():
                masked = (codes & np.uint8(f.mask)).view(arr.dtype)
                out = chunk_spec.prototype.nd_buffer.from_ndarray_like(masked)  # type: ignore[attr-defined]
        return out

    _decode_sync._zarr_scale_offset = True  # type: ignore[attr-defined]
    BytesCodec._decode_sync = _decode_sync  # type: ignore[method-assign]


_read_ignoring_upper_bits()


def to_core(arr: np.ndarray) -> np.ndarray:
    """The elements of `arr` in the Rust core's in-memory layout, as a C-contiguous 1-D uint8
    array: little-endian for multi-byte types, int2/int4 sign-extended to the byte, the other
    narrow types' codes zero-extended (upper bits cleared). A view of `arr` where the layout
    already is the core's, else a copy; `arr` is never written to.

    >>> import ml_dtypes, numpy as np
    >>> to_core(np.array([-1, 7, -8], dtype=ml_dtypes.int4)).tolist()
    [255, 7, 248]
    >>> to_core(np.array([1.0], dtype=">f4")).tolist()
    [0, 0, 128, 63]
    """
    a = np.asarray(arr)
    dtype = a.dtype
    f = _facts_of(dtype)
    if f is not None and f.bits < 8:
        raw = np.ascontiguousarray(a).reshape(-1).view(np.uint8)
        if f.sign_extended:
            # Sign-extend the low bits: ((b & mask) ^ sign) - sign, in int8.
            sign = np.uint8(1 << (f.bits - 1))
            low = raw & np.uint8(f.mask)
            return ((low ^ sign).view(np.int8) - sign.astype(np.int8)).view(np.uint8)
        # Zero-extended codes: upper bits (which the specs let a writer set) cleared.
        return raw & np.uint8(f.mask) if (raw >> f.bits).any() else raw
    if dtype.itemsize > 1 and dtype.newbyteorder("<") != dtype:
        a = a.astype(dtype.newbyteorder("<"))
    return np.ascontiguousarray(a).reshape(-1).view(np.uint8)


def from_core(buf: np.ndarray, dtype: np.dtype, shape: tuple[int, ...]) -> np.ndarray:
    """An array of `dtype` and `shape` from bytes in the Rust core's in-memory layout (the
    inverse of :func:`to_core`): int2/int4 stored back in ml_dtypes' low-bits form. A view of
    `buf` where no conversion is needed.

    >>> import ml_dtypes, numpy as np
    >>> from_core(np.array([255, 248], dtype=np.uint8), np.dtype(ml_dtypes.int4), (2,)).tolist()
    [-1, -8]
    """
    dtype = np.dtype(dtype)
    if isinstance(buf, bytes | bytearray | memoryview):
        buf = np.frombuffer(buf, dtype=np.uint8)
    raw = np.asarray(buf).reshape(-1).view(np.uint8)
    if core_layout(dtype):
        return raw.view(dtype).reshape(shape)
    f = _facts_of(dtype)
    if f is not None and f.sign_extended:
        # int2/int4 (one byte each): back to ml_dtypes' low bits.
        return (raw & np.uint8(f.mask)).view(dtype).reshape(shape)
    # Big-endian: the little-endian values, converted.
    return raw.view(dtype.newbyteorder("<")).reshape(shape).astype(dtype)


def core_layout(dtype: np.dtype) -> bool:
    """Whether arrays of `dtype` hold their elements exactly as the Rust core does, so that
    :func:`from_core` is a view and the core may write into such an array directly: every
    little-endian (or single-byte) type but int2/int4 (ml_dtypes keeps their low bits, the core
    sign-extends them).

    >>> import ml_dtypes, numpy as np
    >>> [core_layout(np.dtype(t)) for t in ("<f4", ">f4", ml_dtypes.int4, ml_dtypes.uint4)]
    [True, False, False, True]
    """
    dtype = np.dtype(dtype)
    f = _facts_of(dtype)
    if f is not None and f.sign_extended:
        return False
    return dtype.itemsize == 1 or dtype.newbyteorder("<") == dtype
