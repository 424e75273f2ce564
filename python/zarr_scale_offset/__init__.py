"""zarr-scale-offset for zarr-python 3: exact ``cf.scale_offset``, ``scale_offset``,
``cast_value`` and read-only ``numcodecs.fixedscaleoffset`` codecs from one Rust core.

Installing the package registers ``cf.scale_offset`` (an entry point; zarr-python has none).
zarr-python's own ``scale_offset`` and ``cast_value`` stay in use until
:func:`use_everywhere` selects this package's (exact for all 26 data types, faster).
"""

from __future__ import annotations

import json
from collections.abc import Mapping, Sequence
from typing import Any

import numpy as np
import zarr
from zarr.registry import fully_qualified_name, register_codec

from . import _core, _guard, codecs, errors
from .cf import from_cf, xarray_encoding
from .codecs import (
    CastValue,
    CFScaleOffset,
    CoreCodec,
    FixedScaleOffset,
    ScaleOffset,
    from_core,
    to_core,
    to_json_value,
)
from .errors import *  # noqa: F403 (the exception classes, errors.__all__)
from .migrate import MigrationError, MigrationReport, migrate
from .pipeline import CodecPipeline

__all__ = [
    *codecs.__all__,
    "CodecPipeline",
    "bind",
    "decode",
    "encode",
    "from_cf",
    "from_fixed_scale_offset",
    "migrate",
    "MigrationError",
    "MigrationReport",
    "use_everywhere",
    "xarray_encoding",
    *errors.__all__,
]

__version__ = "0.1.0"

#: Every codec of this package by name.
CODECS: dict[str, type[CoreCodec]] = {
    c.codec_name: c for c in (CFScaleOffset, ScaleOffset, CastValue, FixedScaleOffset)
}


def use_everywhere(*, fixedscaleoffset: bool = False) -> None:
    """Make zarr-python use this package's ``scale_offset``, ``cast_value`` and
    ``cf.scale_offset`` for every array of this process (``zarr.config`` ``codecs.<name>``).

    ``fixedscaleoffset=True`` also selects the read-only ``numcodecs.fixedscaleoffset`` (arrays
    with it can then no longer be written). Worker processes (dask) need their own call, e.g.
    ``client.run(zarr_scale_offset.use_everywhere)``.
    """
    names = ["cf.scale_offset", "scale_offset", "cast_value"]
    if fixedscaleoffset:
        names.append("numcodecs.fixedscaleoffset")
    for name in names:
        register_codec(name, CODECS[name])
    _configure({n: fully_qualified_name(CODECS[n]) for n in names})


def _configure(choices: Mapping[str, str]) -> None:
    """Sets ``zarr.config`` ``codecs[name]`` (a merge: a dotted key such as
    ``codecs.cf.scale_offset`` would be split at every dot, and setting ``codecs`` replaces it)."""
    zarr.config.set({"codecs": {**zarr.config.get("codecs", {}), **choices}})


def _install_guards() -> None:
    """zarr-python's own scale_offset / cast_value, behind the check of ``_guard`` (unless the
    config already names an implementation)."""
    configured = zarr.config.get("codecs", {})
    choices = {}
    for name, cls in _guard.GUARDS.items():
        if configured.get(name) is None:
            register_codec(name, cls)
            choices[name] = fully_qualified_name(cls)
    _configure(choices)


_install_guards()


def _codecs_json(codecs: Any) -> str:
    if isinstance(codecs, str):
        return codecs
    if isinstance(codecs, CoreCodec):
        return codecs._json
    if isinstance(codecs, Sequence):
        return json.dumps(
            [c.to_dict() if isinstance(c, CoreCodec) else to_json_value(c) for c in codecs],
            allow_nan=False,
        )
    return json.dumps(to_json_value(codecs), allow_nan=False)


def bind(codecs: Any, data_type: str, fill_value: Any = None) -> _core.Bound:
    """The core's bound codecs: ``codecs`` (codec objects, JSON-like dicts, a list of them or
    JSON text) bound to ``data_type`` and ``fill_value`` (a Zarr fill value in JSON form)."""
    fill = None if fill_value is None else json.dumps(to_json_value(fill_value), allow_nan=False)
    return _core.Bound(_codecs_json(codecs), str(data_type), fill)


_CORE_TYPES = frozenset(_core.data_types())


def _name_of(dtype: np.dtype[Any]) -> str:
    """The Zarr v3 name of a NumPy dtype of one of the 26 data types (either byte order), or an
    :class:`UnsupportedDataTypeError` (datetime64, str, bool, complex, object ...)."""
    try:
        name = zarr.core.dtype.parse_dtype(dtype, zarr_format=3).to_json(zarr_format=3)
    except (TypeError, ValueError):
        name = None
    if not isinstance(name, str) or name not in _CORE_TYPES:
        raise errors.UnsupportedDataTypeError(
            f"arrays of dtype {dtype} are not one of the 26 numeric data types of these codecs"
        )
    return name


def encode(codecs: Any, array: np.ndarray) -> np.ndarray:
    """Encodes ``array`` (any numeric numpy array; its dtype is the decoded data type) through
    array->array ``codecs``."""
    a = np.asarray(array)
    b = bind(codecs, _name_of(a.dtype))
    out_dtype = zarr.core.dtype.get_data_type_from_json(b.encoded_data_type, zarr_format=3)
    return from_core(b.encode(to_core(a)), out_dtype.to_native_dtype(), a.shape)


def decode(codecs: Any, array: np.ndarray, data_type: str) -> np.ndarray:
    """Decodes ``array`` to ``data_type`` through ``codecs``. ``array``'s dtype must be the
    codecs' encoded data type (either byte order): any other is an
    :class:`InvalidDataError`, never a reinterpretation of its bytes."""
    a = np.asarray(array)
    b = bind(codecs, data_type)
    if _name_of(a.dtype) != b.encoded_data_type:
        raise errors.InvalidDataError(
            f"the array to decode is {a.dtype}; these codecs bound to {data_type} decode "
            f"{b.encoded_data_type} (their encoded data type)"
        )
    out_dtype = zarr.core.dtype.get_data_type_from_json(data_type, zarr_format=3)
    return from_core(b.decode(to_core(a)), out_dtype.to_native_dtype(), a.shape)


def from_fixed_scale_offset(
    config: Mapping[str, Any], array_data_type: str | None = None
) -> list[CoreCodec]:
    """The ``[scale_offset, cast_value]`` codecs that supersede a ``numcodecs.fixedscaleoffset``
    configuration (the codec object, its configuration or a v2 filter)."""
    out = json.loads(
        _core.from_fixed_scale_offset(json.dumps(to_json_value(config)), array_data_type)
    )
    return [CODECS[c["name"]].from_dict(c) for c in out]
