"""The exceptions of zarr-scale-offset: one ``ValueError`` subclass per error code.

Every exception carries ``.code``, the same stable string as the ``.code`` of the JavaScript
package's errors (``"out_of_range"``, ``"invalid_metadata"``, ...), and ``.path``, the JSON
pointer of the offending metadata field when there is one. Messages name the field or the
element index and value::

    >>> import numpy as np, zarr_scale_offset as zso
    >>> try:
    ...     zso.encode({"name": "cast_value", "configuration": {"data_type": "uint8"}},
    ...                np.array([1.0, -1.0]))
    ... except zso.OutOfRangeError as e:
    ...     print(e.code)
    out_of_range
"""

from __future__ import annotations

__all__ = [
    "InvalidDataError",
    "InvalidJsonError",
    "InvalidMetadataError",
    "LengthMismatchError",
    "NotRepresentableError",
    "OutOfRangeError",
    "ReadOnlyError",
    "UnsupportedCodecError",
    "UnsupportedDataTypeError",
    "ZarrScaleOffsetError",
]


class ZarrScaleOffsetError(ValueError):
    """Base class of every error of this package (a ``ValueError``)."""

    code: str = "internal"

    def __init__(self, message: str, path: str | None = None) -> None:
        super().__init__(message)
        self.message = message
        self.path = path

    def __repr__(self) -> str:
        return f"{type(self).__name__}(code={self.code!r}, message={self.message!r})"


# One class per error code of the core (crates/core/src/error.rs).
class InvalidJsonError(ZarrScaleOffsetError):
    """Metadata text that is not JSON."""

    code = "invalid_json"


class InvalidMetadataError(ZarrScaleOffsetError):
    """A metadata field (named by its JSON pointer) that is not valid."""

    code = "invalid_metadata"


class UnsupportedDataTypeError(ZarrScaleOffsetError):
    """A data type the codec (or the implementation in use) cannot handle."""

    code = "unsupported_data_type"


class UnsupportedCodecError(ZarrScaleOffsetError):
    """A codec name this package does not implement."""

    code = "unsupported_codec"


class NotRepresentableError(ZarrScaleOffsetError):
    """A value (named by its element index) with no exact representation in the data type."""

    code = "not_representable"


class OutOfRangeError(ZarrScaleOffsetError):
    """A value (named by its element index) outside the range of the data type."""

    code = "out_of_range"


class LengthMismatchError(ZarrScaleOffsetError):
    """A buffer whose length does not match the chunk or the other buffer."""

    code = "length_mismatch"


class InvalidDataError(ZarrScaleOffsetError):
    """Data that is not valid for its data type (e.g. an int4 byte outside -8..7)."""

    code = "invalid_data"


class ReadOnlyError(ZarrScaleOffsetError):
    """Encoding with a read-only codec (numcodecs.fixedscaleoffset)."""

    code = "read_only"


_BY_CODE: dict[str, type[ZarrScaleOffsetError]] = {
    cls.code: cls for cls in ZarrScaleOffsetError.__subclasses__()
}


def _from_core(code: str, message: str, path: str | None) -> ZarrScaleOffsetError:
    """The exception for an error of the Rust core (called by the native module)."""
    cls = _BY_CODE.get(code, ZarrScaleOffsetError)
    e = cls(message, path)
    if cls is ZarrScaleOffsetError:
        e.code = code
    return e
