"""CF packing (``scale_factor``, ``add_offset``, ``_FillValue``, ``missing_value``,
``_Unsigned``) as Zarr codecs, and the xarray helper that writes them.

:func:`from_cf` is the Rust core's ``from_cf`` (the JavaScript ``fromCF`` is the same function):
the Zarr data type, fill value and codecs whose decode equals ``xarray.decode_cf`` bit for bit.
:func:`xarray_encoding` turns a decoded dataset's CF encodings into ``to_zarr`` filters, so that
xarray writes ``cf.scale_offset`` + ``cast_value`` instead of packing into attributes.
"""

from __future__ import annotations

import json
from collections.abc import Iterable, Mapping
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any

import numpy as np

from . import _core
from .codecs import CastValue, CFScaleOffset, CoreCodec, to_json_value
from .codecs import _pointer as _ptr
from .errors import InvalidMetadataError

if TYPE_CHECKING:
    import xarray as xr

__all__ = ["CF_KEYS", "CFCodecs", "from_cf", "xarray_encoding"]

#: The encoding/attribute keys of CF packing that the codecs replace.
CF_KEYS = ("scale_factor", "add_offset", "_FillValue", "missing_value", "_Unsigned", "dtype")

_CODECS: dict[str, type[CoreCodec]] = {c.codec_name: c for c in (CFScaleOffset, CastValue)}


@dataclass(frozen=True)
class CFCodecs:
    """What :func:`from_cf` returns."""

    #: The decoded (float) data type, the one ``xarray.decode_cf`` gives.
    data_type: str
    #: The Zarr fill value of the array, in its JSON form (``"NaN"``, numbers).
    fill_value: Any
    #: The array->array codecs (``cf.scale_offset``, ``cast_value``), for ``filters=``.
    filters: list[CoreCodec]
    #: The whole codecs list as JSON (as the JavaScript ``fromCF`` returns it).
    codecs_json: list[dict[str, Any]] = field(repr=False)
    #: ``{"pointer", "message"}`` for what was ignored as xarray ignores it.
    warnings: list[dict[str, Any]] = field(default_factory=list)
    #: The attributes that are not CF packing (``units``, ``long_name``, ...): the ones to keep
    #: beside the codecs, with bytes as text and NumPy values as Python ones.
    attributes: dict[str, Any] = field(default_factory=dict)

    @property
    def fill_scalar(self) -> Any:
        """The fill value as a numpy scalar of :attr:`data_type`."""
        v = self.fill_value
        if isinstance(v, str):
            v = float(v.replace("Infinity", "inf"))
        return np.dtype(self.data_type).type(v)


def _attr_json(key: str, v: Any) -> Any:
    """An attribute as the core reads it, with the type xarray's ``_choose_float_dtype`` sees
    (``numpy.dtype(type(value))``):

    - ``scale_factor`` / ``add_offset``: a NumPy scalar as a typed attribute (``{"value",
      "dtype"}``, integer types included: an ``np.int8`` alone makes xarray decode to int8); a
      list, tuple or array (0-d included) as a JSON list, whose NumPy type is ``object`` (the
      core: float64 with ``add_offset``, an error for a ``scale_factor`` alone, which xarray
      decodes to ``object``); a Python number as itself;
    - the others (``_FillValue``, ``missing_value``, ``_Unsigned``, ...): a 0-d array as its
      element, other arrays as lists;
    - ``bytes`` (netCDF text attributes through h5py) as UTF-8 text.
    """
    path = _ptr("", key)
    if isinstance(v, bytes | np.bytes_):
        try:
            return bytes(v).decode("utf-8")
        except UnicodeDecodeError as e:
            raise InvalidMetadataError(f"{path}: bytes that are not UTF-8 text: {e}", path) from e
    if key in ("scale_factor", "add_offset"):
        if isinstance(v, np.ndarray | list | tuple):
            return to_json_value(np.asarray(v).reshape(-1).tolist(), path)
        if isinstance(v, np.generic) and not isinstance(v, np.bool_):
            # (NumPy's and ml_dtypes' scalars: bfloat16 has a dtype but is no np.number)
            value = v.item()
            if not isinstance(value, int | float):
                value = float(v)  # (longdouble) the core refuses its dtype by name
            return {"value": to_json_value(value, path), "dtype": v.dtype.name}
        return to_json_value(v, path)
    if isinstance(v, np.ndarray):
        v = v.reshape(-1)[0] if v.ndim == 0 else v.tolist()
    return to_json_value(v, path)


def from_cf(attrs: Mapping[str, Any], packed_dtype: Any) -> CFCodecs:
    """The codecs that replace the CF attributes ``attrs`` of data packed as ``packed_dtype``.

    ``attrs`` may be all of a variable's attributes, as xarray, h5py, netCDF4 or VirtualiZarr
    give them: the CF packing keys (:data:`CF_KEYS`) make the codecs, the others come back in
    :attr:`CFCodecs.attributes`. Values may be Python or numpy scalars, arrays, lists or bytes;
    each counts with the type xarray's ``decode_cf`` gives it: a numpy float32 ``scale_factor``
    as a float32 netCDF attribute, a one-element array or list as NumPy's ``object`` (so
    float64 with ``add_offset``; alone, an error: xarray decodes to ``object``), an
    ``np.int32`` as int32. Where xarray's arithmetic would wrap (an ``np.int8`` scale factor
    on int16 data), decoding reports the element instead.

    >>> c = from_cf({"scale_factor": 0.01, "add_offset": 273.15, "_FillValue": -32768}, "int16")
    >>> c.data_type, c.fill_value, [f.codec_name for f in c.filters]
    ('float64', 'NaN', ['cf.scale_offset', 'cast_value'])
    """
    attrs_json = {k: _attr_json(k, v) for k, v in attrs.items() if k in CF_KEYS and k != "dtype"}
    out = json.loads(
        _core.from_cf(json.dumps(attrs_json, allow_nan=False), np.dtype(packed_dtype).name, None)
    )
    codecs = out["codecs"]
    return CFCodecs(
        data_type=out["data_type"],
        fill_value=out["fill_value"],
        filters=[_CODECS[c["name"]].from_dict(c) for c in codecs if c["name"] in _CODECS],
        codecs_json=codecs,
        warnings=out.get("warnings", []),
        attributes={k: _plain(v) for k, v in attrs.items() if k not in CF_KEYS},
    )


def _plain(v: Any) -> Any:
    """An attribute the codecs do not replace, as a Zarr attribute can hold it: text for bytes
    (h5py's strings), Python scalars and lists for NumPy's; anything else as it is."""
    if isinstance(v, bytes | np.bytes_):
        return bytes(v).decode("utf-8", errors="replace")
    if isinstance(v, np.ndarray):
        return [_plain(x) for x in v.tolist()] if v.ndim else _plain(v.item())
    if isinstance(v, np.generic):
        return v.item()
    return v


_SCALING = frozenset(("scale_factor", "add_offset"))


def _decoded(name: Any, v: Any) -> Any:
    """``v`` as ``xarray.decode_cf`` leaves it. xarray moves ``scale_factor`` / ``add_offset``
    into ``.encoding`` when it decodes; where they are in ``.attrs`` only, it did not
    (``mask_and_scale=False``, ``decode_cf=False``, attributes set by hand), so the data are
    still the packed values. Those are decoded here by xarray's own decoder (lazily, as xarray
    does), so that what is written is the physical values ``decode_cf`` gives, never the codes
    taken for them."""
    if _SCALING & set(v.encoding) or not _SCALING & set(v.attrs):
        return v
    return decode_cf_packing(name, v)


def decode_cf_packing(name: Any, v: Any) -> Any:
    """``v`` (an ``xarray.Variable`` of packed values and their CF attributes) decoded by
    xarray's own ``decode_cf_variable``, CF masking and scaling only (no times, characters or
    byte order): the oracle every codec form of this package is held to."""
    import xarray as xr

    # (A shallow copy: xarray's coders pop attributes from the variable they are given.)
    return xr.conventions.decode_cf_variable(
        name,
        v.copy(deep=False),
        concat_characters=False,
        mask_and_scale=True,
        decode_times=False,
        decode_endianness=False,
        stack_char_dim=False,
        decode_timedelta=False,
    )


def _packing(encoding: Mapping[str, Any], attrs: Mapping[str, Any]) -> dict[str, Any]:
    return {k: v for src in (attrs, encoding) for k, v in src.items() if k in CF_KEYS}


def xarray_encoding(
    ds: xr.Dataset, variables: Iterable[str] | None = None
) -> tuple[xr.Dataset, dict[str, dict[str, Any]]]:
    """A copy of ``ds`` and the ``to_zarr(encoding=...)`` that write its CF-packed variables
    (those with ``scale_factor`` or ``add_offset`` in ``.encoding`` or ``.attrs``; or the names
    in ``variables``) through ``cf.scale_offset`` + ``cast_value``:

    - a variable xarray decoded (``xarray.open_dataset``: the packing in ``.encoding``) is
      written as it is; one it did not decode (the packing in ``.attrs``: ``mask_and_scale=
      False``, ``decode_cf=False``), whose data are the packed values, is decoded first by
      xarray's own ``decode_cf_variable``, so the store reads back what ``decode_cf`` gives;

    - the copy's variables hold the data in the float type ``decode_cf`` chooses, without the
      CF packing keys (else xarray would pack the data itself);
    - each encoding entry has ``filters``, ``fill_value`` and ``_FillValue: None`` (no
      ``_FillValue`` attribute): the fill is ``NaN``, mapped to the packed ``_FillValue`` by the
      ``cast_value`` scalar_map (NaN is also the fill xarray's v3 writer gives float data, which
      an integer ``cast_value`` could not encode without that map), or :func:`from_cf`'s fill
      value when there is no ``_FillValue``. Add other keys (``chunks``, ``compressors``) to
      the entries as needed: to_zarr replaces a variable's encoding by its entry.

    >>> ds2, enc = xarray_encoding(ds)  # doctest: +SKIP
    >>> ds2.to_zarr(store, zarr_format=3, encoding=enc)  # doctest: +SKIP
    """
    out = ds.copy()
    encoding: dict[str, dict[str, Any]] = {}
    names = (
        list(variables)
        if variables is not None
        else [
            n
            for n, v in ds.variables.items()
            if {"scale_factor", "add_offset"} & (set(v.encoding) | set(v.attrs))
        ]
    )
    for name in names:
        v = _decoded(name, ds.variables[name])
        packing = _packing(v.encoding, v.attrs)
        packed = packing.get("dtype")
        if packed is None:
            raise InvalidMetadataError(
                f"variable {name!r}: no packed dtype in its encoding (open it with "
                "xarray.open_dataset, or set .encoding['dtype'])",
                "/dtype",
            )
        cf = from_cf(packing, packed)
        var = v.copy(deep=False)
        var.encoding = {k: x for k, x in v.encoding.items() if k not in CF_KEYS}
        var.attrs = {k: x for k, x in v.attrs.items() if k not in CF_KEYS}
        if var.dtype != np.dtype(cf.data_type):
            var = var.astype(cf.data_type)
        out[name] = var
        # `_FillValue: None`: no `_FillValue` attribute (xarray adds a NaN one to float data
        # otherwise); the codecs and the array's fill value carry it.
        encoding[name] = {"filters": cf.filters, "fill_value": cf.fill_scalar, "_FillValue": None}
    return out, encoding
