"""The 15 data types of the scale_offset / cast_value specs that zarr-python 3.4 lacks, as
zarr-python data types backed by ml_dtypes: bfloat16, the seven float8, two float6,
float4_e2m1fn, int2, int4, uint2 and uint4.

zarr-python finds them through the ``zarr.data_type`` entry points of this package (one per
class, named by the Zarr v3 name), so ``zarr.create_array(..., dtype="bfloat16")`` works without
importing this module, and so does inference from an ml_dtypes NumPy dtype
(``dtype=ml_dtypes.float8_e4m3``).

Every class comes from one row of :data:`ROWS`; adding a data type is one row there (plus its
entry point, which ``tests/test_dtypes.py`` checks against the table). The rows hold what the
Zarr extension specs say and ml_dtypes does not: the code the fill value ``"NaN"`` names and
whether the type has infinities. Sizes, bit widths and ranges come from ml_dtypes, and a test
compares them with the Rust core's data-type table.

Fill values (Zarr v3, as the data types' READMEs say: "the same way as the core IEEE 754
floating point numbers" / "the core integer data types"):

- a JSON number, rounded to the nearest value half-to-even (exactly: ml_dtypes rounds a float64
  correctly; this module adds the limits ml_dtypes saturates or turns into NaN: a number beyond
  the largest finite value is ``±Infinity`` where the type has infinities and an error where it
  has none, a number that rounds below float8_e8m0fnu's smallest value is an error, negative
  numbers and zero are errors for float8_e8m0fnu, ``-0.0`` is ``+0`` where there is no negative
  zero (the fnuz types);
- ``"NaN"`` (the type's own NaN code), ``"Infinity"``, ``"-Infinity"``, only where the type has
  them;
- ``"0x…"``: the raw code, two hex digits per byte of the element (``"0x7fc0"`` for bfloat16,
  ``"0x80"`` for float8_e4m3fnuz), either case. zarr-python's own float reader would take any
  four-digit hex as float16 bits (``zarr/core/dtype/npy/common.py:196``), which is wrong for
  bfloat16; this module reads the code in the type's own width. Other digit counts whose value
  fits the type are accepted leniently, as the Rust core does;
- integers (int2 … uint4): a JSON integer within the range; integral floats and integer strings
  are accepted leniently (zarr-python accepts them for its own integer types).

zarr-python parses zarr.json with ``json``, so a JSON number reaches this module as a float64:
the rounding is exact from that float64, while the Rust core rounds from the decimal text. The two
differ only for a text that is not a float64's shortest form and lies within half a float64 ulp
of a midpoint of the type (e.g. ``2.938735877055719e-39``, the shortest text of 2^-128, is a tie
for float8_e8m0fnu here and a little above it for the core).

The default fill value (``fill_value=None``) is 0, and 1.0 for float8_e8m0fnu, which has no zero.

Written fill values are the strict form: the shortest decimal that reads back to the same code,
``"NaN"`` for the type's NaN code, a full-width hex string for any other NaN code, and
``"Infinity"``/``"-Infinity"``.

Layout: ml_dtypes keeps int2/int4 in the low bits of a byte (int4 -1 is ``0x0F``); the Rust core
wants them sign-extended (``0xFF``). :func:`to_core` and :func:`from_core` convert, for every
dtype the codecs see, between NumPy arrays and the core's little-endian bytes.
"""

from __future__ import annotations

import math
import re
from collections.abc import Mapping
from dataclasses import dataclass
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

from .errors import InvalidMetadataError

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
    of one: a ``ValueError`` with the Rust core's code for the same case, ``invalid_metadata``."""


@dataclass(frozen=True)
class Row:
    """One data type: the ZDType class name, the Zarr v3 name (also the ml_dtypes name), and for
    float types the code ``"NaN"`` names (``None``: no NaN) and whether there are infinities."""

    cls: str
    name: str
    nan: int | None = None
    inf: bool = False


# The table. Columns: class name, Zarr v3 name (= the ml_dtypes type), the "NaN" code of the
# type's README (floats with a NaN), infinities (the IEEE-like floats).
ROWS: tuple[Row, ...] = (
    Row("Int2", "int2"),
    Row("Int4", "int4"),
    Row("UInt2", "uint2"),
    Row("UInt4", "uint4"),
    Row("Float4E2M1FN", "float4_e2m1fn"),
    Row("Float6E2M3FN", "float6_e2m3fn"),
    Row("Float6E3M2FN", "float6_e3m2fn"),
    Row("Float8E3M4", "float8_e3m4", nan=0x78, inf=True),
    Row("Float8E4M3", "float8_e4m3", nan=0x7C, inf=True),
    Row("Float8E4M3B11FNUZ", "float8_e4m3b11fnuz", nan=0x80),
    Row("Float8E4M3FNUZ", "float8_e4m3fnuz", nan=0x80),
    Row("Float8E5M2", "float8_e5m2", nan=0x7E, inf=True),
    Row("Float8E5M2FNUZ", "float8_e5m2fnuz", nan=0x80),
    Row("Float8E8M0FNU", "float8_e8m0fnu", nan=0xFF),
    Row("BFloat16", "bfloat16", nan=0x7FC0, inf=True),
)

_UINT = {1: np.dtype(np.uint8), 2: np.dtype("<u2")}


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
        except ValueError:  # not an integer type
            info = ml_dtypes.finfo(self.dtype)
            self.float = True
        self.bits = int(info.bits)
        self.mask = (1 << self.bits) - 1
        self.codes = _UINT[self.size]
        if not self.float:
            self.min, self.max = int(info.min), int(info.max)
            self.signed = self.min < 0
            return
        values = self.decode(np.arange(self.mask + 1))
        finite = np.isfinite(values)
        # Sign bit (the top bit of the code) where some code's value is negative.
        self.signed = bool((values[finite] < 0).any())
        self.sign = 1 << (self.bits - 1) if self.signed else 0
        self.neg_zero = self.signed and self.decode_one(self.sign) == 0
        self.has_zero = bool((values[finite] == 0).any())
        largest = float(info.max)
        below = float(np.max(values[finite & (values < largest)]))
        # The magnitude from which a number rounds beyond the largest finite value: halfway to
        # the next value the exponent range would have (ties go up: the largest value's
        # significand is odd, all ones).
        step = largest - below if int(info.nmant) > 0 else largest
        self.overflow = largest + step / 2
        self.inf_code = int(np.flatnonzero(np.isposinf(values))[0]) if row.inf else None
        smallest = float(np.min(np.abs(values[finite & (values != 0)])))
        # Without zero, half the smallest value (a tie, rounding to the missing zero) and below
        # is out of range.
        self.underflow = smallest / 2 if not self.has_zero else 0.0

    def decode(self, codes: np.ndarray) -> np.ndarray:
        with np.errstate(invalid="ignore"):
            return np.asarray(codes, dtype=self.codes).view(self.dtype).astype(np.float64)

    def decode_one(self, code: int) -> float:
        return float(self.decode(np.array([code]))[0])

    def scalar(self, code: int) -> np.generic:
        """The ml_dtypes scalar with raw code `code`."""
        return np.array([code], dtype=self.codes).view(self.dtype)[0]

    def code_of(self, value: np.generic) -> int:
        """The raw code of an ml_dtypes scalar of this type."""
        return int(np.asarray(value, dtype=self.dtype).reshape(1).view(self.codes)[0]) & self.mask

    # ---- floats: a number to a code, exactly as the Rust core rounds a fill value ----

    def round(self, x: float, shown: object) -> int:
        if math.isnan(x):
            return self.nan_code(shown)
        if math.isinf(x):
            return self.infinity(x < 0, shown)
        neg = math.copysign(1.0, x) < 0
        if x == 0:
            if not self.has_zero:
                raise self.error(shown, "it has no zero")
            return self.sign if neg and self.neg_zero else 0
        if neg and not self.signed:
            raise self.error(shown, "it has no negative values")
        if abs(x) >= self.overflow:
            if self.inf_code is None:
                raise FillValueError(
                    f"{shown!r} is out of range for {self.name} (largest finite magnitude "
                    f"{self.overflow_text()}; {self.name} has no infinities)"
                )
            return self.inf_code | (self.sign if neg else 0)
        if abs(x) <= self.underflow:
            raise FillValueError(f"{shown!r} is below the smallest {self.name} value")
        # Within range ml_dtypes rounds a float64 half-to-even exactly (tests/test_dtypes.py
        # checks every midpoint), tiny negatives to +0 in the fnuz types.
        return int(np.array([x], dtype=np.float64).astype(self.dtype).view(self.codes)[0])

    def overflow_text(self) -> str:
        return repr(float(ml_dtypes.finfo(self.dtype).max))

    def nan_code(self, shown: object) -> int:
        if self.row.nan is None:
            raise self.error(shown, "it has no NaN")
        return self.row.nan

    def infinity(self, neg: bool, shown: object) -> int:
        if self.inf_code is None:
            raise self.error(shown, "it has no infinities")
        return self.inf_code | (self.sign if neg else 0)

    def error(self, shown: object, why: str) -> FillValueError:
        return FillValueError(f"{shown!r} is not representable in {self.name}: {why}")

    def is_nan(self, code: int) -> bool:
        return math.isnan(self.decode_one(code))

    def number(self, n: float, shown: object) -> int:
        """A Python int or float to a code (ints beyond 2^53 exactly, by rounding to odd)."""
        if isinstance(n, int):
            if abs(n).bit_length() > 1024:
                return self.round(-math.inf if n < 0 else math.inf, shown)
            shift = max(abs(n).bit_length() - 53, 0)
            m = abs(n) >> shift
            if abs(n) & ((1 << shift) - 1):
                m |= 1
            n = math.ldexp(m, shift) * (-1 if n < 0 else 1)
        return self.round(float(n), shown)

    def text(self, code: int) -> JSON:
        """The strict JSON form of a float code."""
        if self.is_nan(code):
            return "NaN" if code == self.row.nan else f"0x{code:0{2 * self.size}x}"
        v = self.decode_one(code)
        if math.isinf(v):
            return "-Infinity" if v < 0 else "Infinity"
        for digits in range(1, 18):
            short = float(f"{v:.{digits}g}")
            try:
                if (
                    math.copysign(1.0, short) == math.copysign(1.0, v)
                    and self.round(short, v) == code
                ):
                    return short
            except FillValueError:
                pass
        return v  # unreachable: 17 digits give v itself


_HEX = re.compile(r"0[xX]([0-9a-fA-F]+)\Z")
_SPECIAL = {"nan": "NaN", "inf": "Infinity", "infinity": "Infinity"}


class _Base(ZDType[np.dtype, np.generic], HasItemSize):  # type: ignore[type-var]
    """A data type of one row (the subclasses below set ``_facts``)."""

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
        return self.cast_scalar(self._default)

    _default: ClassVar[int | float] = 0

    def _check_scalar(self, data: object) -> bool:
        try:
            self._code(data)
        except (TypeError, FillValueError):
            return False
        return True

    def cast_scalar(self, data: object) -> np.generic:
        return self._facts.scalar(self._code(data))

    def from_json_scalar(self, data: JSON, *, zarr_format: ZarrFormat) -> np.generic:
        if isinstance(data, bool) or not isinstance(data, int | float | str):
            # A ValueError: zarr-python turns it into "Invalid fill_value" (metadata/v3.py:700).
            raise FillValueError(
                f"{data!r} is not a {self._zarr_v3_name} fill value: expected a JSON number "
                "or string"
            )
        return self._facts.scalar(self._code(data))

    def to_json_scalar(self, data: object, *, zarr_format: ZarrFormat) -> JSON:
        raise NotImplementedError

    def _code(self, data: object) -> int:
        raise NotImplementedError


class _Int(_Base):
    """int2, int4, uint2, uint4."""

    def _code(self, data: object) -> int:
        f = self._facts
        if isinstance(data, np.generic) and data.dtype == f.dtype:
            value = int(data)
        elif isinstance(data, bool | np.bool_) or not isinstance(
            data, int | float | str | np.integer | np.floating | np.generic
        ):
            raise TypeError(f"Cannot convert {data!r} to {f.name}")
        elif isinstance(data, str):
            if not re.fullmatch(r"[+-]?[0-9]+", data.strip()):
                raise FillValueError(f"{data!r} is not an integer; {f.name} needs a JSON integer")
            value = int(data)
        elif isinstance(data, int | np.integer):
            value = int(data)
        else:
            x = float(data)  # type: ignore[arg-type]
            if not (math.isfinite(x) and x == int(x)):
                raise FillValueError(f"{data!r} is not an integer; {f.name} needs a JSON integer")
            value = int(x)
        if not f.min <= value <= f.max:
            raise FillValueError(f"{data!r} is out of range for {f.name} ({f.min} to {f.max})")
        return value & f.mask

    def to_json_scalar(self, data: object, *, zarr_format: ZarrFormat) -> int:
        return int(self.cast_scalar(data))


class _Float(_Base):
    """The float types."""

    def _code(self, data: object) -> int:
        f = self._facts
        if isinstance(data, np.generic) and data.dtype == f.dtype:
            return f.code_of(data)
        if isinstance(data, bool | np.bool_):
            raise TypeError(f"Cannot convert {data!r} to {f.name}")
        if isinstance(data, str):
            return self._string(data)
        if isinstance(data, int | np.integer):
            return f.number(int(data), data)
        if isinstance(data, float | np.floating) or (
            isinstance(data, np.generic) and _facts_of(data.dtype) is not None
        ):
            # Any other NumPy or ml_dtypes float is exact in float64.
            return f.round(float(data), data)  # type: ignore[arg-type]
        raise TypeError(f"Cannot convert {data!r} to {f.name}")

    def _string(self, s: str) -> int:
        f = self._facts
        if s == "NaN":
            return f.nan_code(s)
        if s in ("Infinity", "-Infinity"):
            return f.infinity(s[0] == "-", s)
        if m := _HEX.match(s):
            code = int(m.group(1), 16)
            if code > f.mask:
                raise FillValueError(
                    f"{s!r} is not a {f.name} code: {f.bits} bits, written as "
                    f"{2 * f.size} hex digits"
                )
            return code
        lowered = s.strip().lower()
        body = lowered.lstrip("+-")
        if body in _SPECIAL and len(lowered) - len(body) <= 1:
            # Python float() spellings (lenient, as the Rust core reads them).
            if _SPECIAL[body] == "NaN":
                return f.nan_code(s)
            return f.infinity(lowered.startswith("-"), s)
        try:
            x = float(s)
        except ValueError:
            raise FillValueError(
                f'{s!r} is not a {f.name} value: strings must be "NaN", "Infinity", '
                f'"-Infinity" or a "0x…" hex string of {2 * f.size} digits'
            ) from None
        return f.round(x, s)

    def to_json_scalar(self, data: object, *, zarr_format: ZarrFormat) -> JSON:
        return self._facts.text(self._code(data))


class _ByteOrdered(_Float, HasEndianness):
    """bfloat16: two bytes, so an in-memory byte order (the stored one is the bytes codec's)."""

    @classmethod
    def _with_byte_order(cls, dtype: np.dtype) -> Self:
        return cls(endianness=get_endianness_from_numpy_dtype(dtype))

    def to_native_dtype(self) -> np.dtype:
        return self._facts.dtype.newbyteorder(endianness_to_numpy_str(self.endianness))


def _make(row: Row) -> type[_Base]:
    facts = _Facts(row)
    base = _Int if not facts.float else _ByteOrdered if facts.size > 1 else _Float
    body = {
        "_facts": facts,
        "dtype_cls": type(facts.dtype),
        "_zarr_v3_name": row.name,
        "__module__": __name__,
        "__qualname__": row.cls,
        "__doc__": f"The Zarr data type {row.name}, backed by ml_dtypes.{row.name}.",
    }
    if facts.float and not facts.has_zero:
        # float8_e8m0fnu has no zero: its default fill is 1.0 (2^0).
        body["_default"] = 1.0
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
            arr = np.asarray(out.as_ndarray_like())
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
        if not f.float and f.signed:
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
    f = _facts_of(dtype)
    if f is not None and not f.float and f.signed:
        raw = raw & np.uint8(f.mask)
    little = dtype.newbyteorder("<") if dtype.itemsize > 1 else dtype
    out = raw.view(little).reshape(shape)
    return out if little == dtype else out.astype(dtype)
