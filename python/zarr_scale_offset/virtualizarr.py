"""CF packing of archival files (netCDF4/HDF5, netCDF3) as codecs of VirtualiZarr's virtual
arrays, so that a virtual store (Icechunk, kerchunk) reads the values ``xarray.open_dataset`` of
the file gives, and files packed differently are refused at concatenation instead of read with
the first file's attributes (VirtualiZarr #1004).

:func:`cf_parser` wraps a VirtualiZarr parser: every CF-packed array (``scale_factor``,
``add_offset`` or ``_Unsigned``) of the ``ManifestStore`` it produces becomes
``[cf.scale_offset, cast_value (+ the NaN <-> fill scalar_map), <the file's own codecs>]``, with
the float data type and fill value xarray would give; the CF keys leave the attributes; the chunk
references are not touched. The packing attributes are read again from the file with their stored
types (through the parser's object-store registry: local and remote files alike), because
VirtualiZarr hands them on as Python numbers (a float32 ``scale_factor`` would decode float64).

:func:`cf_virtual_dataset` does the same to a virtual dataset opened already, whose attribute
types may be lost (``float_dtype`` says which float type they had).

Requires ``virtualizarr`` (``pip install zarr-scale-offset[virtualizarr]``); reading netCDF4/HDF5
attributes requires ``h5py``.

>>> from virtualizarr import open_virtual_dataset  # doctest: +SKIP
>>> from virtualizarr.parsers import HDFParser  # doctest: +SKIP
>>> parser = cf_parser(HDFParser())  # doctest: +SKIP
>>> vds = open_virtual_dataset(url, registry=registry, parser=parser)  # doctest: +SKIP
"""

from __future__ import annotations

import warnings
from collections.abc import Callable, Mapping
from typing import TYPE_CHECKING, Any

import numpy as np

try:
    import virtualizarr
    from obspec_utils.readers import BlockStoreReader
    from virtualizarr.manifests import ManifestArray, ManifestGroup, ManifestStore
except ImportError as e:  # pragma: no cover - the extra is installed in the tests
    raise ImportError(
        "zarr_scale_offset.virtualizarr needs VirtualiZarr: "
        "pip install 'zarr-scale-offset[virtualizarr]'"
    ) from e
from zarr.core.dtype import get_data_type_from_json
from zarr.core.metadata.v3 import ArrayV3Metadata

from .cf import from_cf
from .errors import InvalidMetadataError, ZarrScaleOffsetError

if TYPE_CHECKING:
    import xarray as xr
    from obspec_utils.registry import ObjectStoreRegistry

__all__ = ["CFParser", "VirtualiZarrChangedError", "cf_parser", "cf_virtual_dataset"]

#: The codec forms :func:`cf_parser` writes: ``cf.scale_offset`` (multiplies, bit-equal to
#: ``decode_cf``; readers need this package) or ``scale_offset`` (divides by ``scale =
#: 1/scale_factor``; zarr-python reads it alone, some values 1 ulp off ``decode_cf``).
CODECS = ("cf.scale_offset", "scale_offset")

#: The attributes that make an array CF-packed (a ``_FillValue`` alone masks, it does not pack:
#: such arrays pass unchanged, as in :func:`zarr_scale_offset.migrate`).
PACKING = ("scale_factor", "add_offset", "_Unsigned")

#: The attributes that become codecs and leave the array's attributes.
CF_ATTRIBUTES = ("scale_factor", "add_offset", "_FillValue", "missing_value", "_Unsigned")

#: The VirtualiZarr version whose internals :func:`_replace_group` was written against.
TESTED_VIRTUALIZARR = "2.8.0"


class VirtualiZarrChangedError(ZarrScaleOffsetError):
    """VirtualiZarr no longer has the internals this module needs where it has no public API
    (``ManifestStore._group`` / ``_registry``): see docs/UPSTREAM.md."""

    code = "internal"


# ---------------------------------------------------------------------------------------------
# The one place with VirtualiZarr's private API.


def _replace_group(
    store: ManifestStore, convert: Callable[[ManifestGroup], ManifestGroup]
) -> ManifestStore:
    """A new ManifestStore: ``store``'s registry and ``convert`` of its root group.

    VirtualiZarr has no public way to read a ManifestStore's root group or registry, or to
    replace its arrays (``ManifestStore._group``, ``ManifestStore._registry``; VirtualiZarr's own
    ``construct_virtual_dataset`` reads ``_group`` with a TODO to remove it). This function is
    the only use of them here; ``tests/test_virtualizarr.py`` fails when they change.
    """
    if not isinstance(store, ManifestStore):
        raise InvalidMetadataError(
            f"the wrapped parser returned {type(store).__name__}, not a ManifestStore"
        )
    group = getattr(store, "_group", None)
    registry = getattr(store, "_registry", None)
    if not isinstance(group, ManifestGroup) or registry is None:
        raise VirtualiZarrChangedError(
            f"VirtualiZarr {virtualizarr.__version__}: ManifestStore has no _group "
            f"(ManifestGroup) and _registry any more; zarr_scale_offset.virtualizarr was written "
            f"for VirtualiZarr {TESTED_VIRTUALIZARR} (docs/UPSTREAM.md asks for a public API)"
        )
    return ManifestStore(convert(group), registry=registry)


# ---------------------------------------------------------------------------------------------
# Typed attributes from the file.


def _nc_value(v: Any) -> Any:
    """An attribute as netCDF4-python and h5netcdf give it to xarray: a one-element array as its
    element (a NumPy scalar of the stored type), others as they are."""
    if isinstance(v, np.ndarray) and v.size == 1 and v.dtype.kind not in "OSUV":
        return v.reshape(-1)[0]
    return v


_NC3_TYPES = {
    1: "i1",
    2: "S1",
    3: ">i2",
    4: ">i4",
    5: ">f4",
    6: ">f8",
    7: "u1",
    8: ">u2",
    9: ">u4",
    10: ">i8",
    11: ">u8",
}


def _nc3_attributes(f: Any) -> dict[str, dict[str, Any]]:
    """The attributes of every variable of a netCDF3 file (CDF-1, -2, -5; the header read from
    the file-like ``f``), typed as netCDF4-python gives them: a one-value numeric attribute as a
    NumPy scalar of its type (``NC_FLOAT``: float32), more values as an array, text as ``str``."""

    def read(n: int) -> bytes:
        b = f.read(n)
        if len(b) != n:
            raise InvalidMetadataError(f"netCDF3 header truncated: wanted {n} bytes")
        return b

    magic = read(4)
    version = magic[3]
    wide = version == 5

    def i32() -> int:
        return int.from_bytes(read(4), "big", signed=True)

    def size() -> int:
        return int.from_bytes(read(8 if wide else 4), "big", signed=True)

    def name() -> str:
        n = size()
        s = read(n)
        read(-n % 4)
        return s.decode("utf-8")

    def atts() -> dict[str, Any]:
        tag, n = i32(), size()
        out: dict[str, Any] = {}
        if tag == 0:
            return out
        for _ in range(n):
            key = name()
            nc_type = i32()
            if nc_type not in _NC3_TYPES:
                raise InvalidMetadataError(f"netCDF3 attribute {key!r}: type code {nc_type}")
            dt = np.dtype(_NC3_TYPES[nc_type])
            count = size()
            raw = read(count * dt.itemsize)
            read(-(count * dt.itemsize) % 4)
            if nc_type == 2:
                out[key] = raw.decode("utf-8", errors="replace").rstrip("\x00")
            else:
                out[key] = _nc_value(np.frombuffer(raw, dt).astype(dt.newbyteorder("=")))
        return out

    size()  # numrecs
    tag, n = i32(), size()
    for _ in range(n if tag else 0):
        name()
        size()
    atts()  # global
    tag, n = i32(), size()
    variables: dict[str, dict[str, Any]] = {}
    for _ in range(n if tag else 0):
        var = name()
        for _ in range(size()):
            size()  # dimids
        variables[var] = atts()
        i32()  # nc_type
        size()  # vsize
        read(4 if version == 1 else 8)  # begin
    return variables


_HDF5_MAGIC = b"\x89HDF\r\n\x1a\n"


def _typed_attributes(
    url: str, registry: ObjectStoreRegistry, parser: Any, paths: list[str]
) -> dict[str, dict[str, Any]] | None:
    """The CF attributes of the arrays ``paths`` (relative to the parser's ``group``) as the
    file stores them, read through ``registry``; ``None`` for a file that is neither netCDF3 nor
    HDF5 (another parser's source: its attributes are taken as the parser gives them)."""
    store, path = registry.resolve(url)
    factory = getattr(parser, "reader_factory", None) or BlockStoreReader
    reader = factory(store, path)
    try:
        head = reader.read(8)
        hdf5 = head == _HDF5_MAGIC
        if not hdf5 and head[:3] != b"CDF":
            # A userblock puts the superblock at 512, 1024, 2048, ... (HDF5 file format spec).
            for at in (512, 1024, 2048, 4096):
                reader.seek(at)
                if reader.read(8) == _HDF5_MAGIC:
                    hdf5 = True
                    break
        reader.seek(0)
        if head[:3] == b"CDF":
            every = _nc3_attributes(reader)
            return {p: _cf_only(every.get(p, {})) for p in paths}
        if not hdf5:
            return None
        import h5py

        out = {}
        with h5py.File(reader, mode="r") as f:
            root = f[getattr(parser, "group", None) or "/"]
            for p in paths:
                attrs = root[p].attrs
                out[p] = {k: _nc_value(attrs[k]) for k in CF_ATTRIBUTES if k in attrs}
        return out
    finally:
        close = getattr(reader, "close", None)
        if close is not None:
            close()


def _cf_only(attrs: Mapping[str, Any]) -> dict[str, Any]:
    return {k: v for k, v in attrs.items() if k in CF_ATTRIBUTES}


# ---------------------------------------------------------------------------------------------
# One array.


def _is_packed(attrs: Mapping[str, Any]) -> bool:
    units = attrs.get("units")
    # Time-like variables: xarray decodes them to datetimes, and masks their integer codes to
    # int64's minimum, not NaN: left as they are (as migrate does).
    time_like = isinstance(units, str) and " since " in units
    return any(k in attrs for k in PACKING) and not time_like


def _scale_offset_form(codecs: list[dict[str, Any]], data_type: str) -> list[dict[str, Any]]:
    """``cf.scale_offset(scale, offset)`` as the spec's ``scale_offset(scale = 1/scale,
    offset)`` (what VirtualiZarr #1010 writes): zarr-python decodes it alone, dividing."""
    out = []
    for c in codecs:
        if c["name"] == "cf.scale_offset":
            cfg = dict(c.get("configuration", {}))
            if "scale" in cfg:
                scale = np.dtype(data_type).type(cfg["scale"])
                cfg["scale"] = 1.0 / float(scale)
            c = {"name": "scale_offset", "configuration": cfg}
        out.append(c)
    return out


def _codec_dicts(metadata: ArrayV3Metadata) -> list[dict[str, Any]]:
    return [c if isinstance(c, dict) else c.to_dict() for c in metadata.to_dict()["codecs"]]


def _convert_array(
    path: str,
    marr: ManifestArray,
    cf_attrs: Mapping[str, Any],
    other_attrs: Mapping[str, Any],
    codec: str,
) -> ManifestArray:
    """``marr`` with the codecs of ``cf_attrs`` before its own, the decoded data type and fill,
    and ``other_attrs`` as its attributes."""
    from . import decode

    meta = marr.metadata
    stored = np.dtype(marr.dtype).newbyteorder("=")
    try:
        cf = from_cf(cf_attrs, stored)
    except ZarrScaleOffsetError as e:
        raise type(e)(f"{path}: {e.message}", path) from e
    new = [c for c in cf.codecs_json if c["name"] in ("cf.scale_offset", "cast_value")]
    if codec == "scale_offset":
        new = _scale_offset_form(new, cf.data_type)
    own = _codec_dicts(meta)
    if any(c.get("name") in CODECS for c in own):
        raise InvalidMetadataError(
            f"{path}: has CF attributes and scale/offset codecs already: it would be unpacked "
            "twice",
            path,
        )
    # The fill value: the file's (the code its unstored chunks read as, HDF5's fill value)
    # decoded through the new codecs, as xarray decodes those chunks: NaN where that code is a
    # _FillValue. (Under _Unsigned the stored bytes are the same, viewed unsigned.)
    cast = next((c for c in new if c["name"] == "cast_value"), None)
    packed = np.dtype(cast["configuration"]["data_type"]) if cast else stored
    old_fill = np.asarray(meta.fill_value, dtype=stored).reshape(1).view(packed)
    fill = decode(new, old_fill, cf.data_type)[0] if new else old_fill.astype(cf.data_type)[0]
    zdtype = get_data_type_from_json(cf.data_type, zarr_format=3)
    doc = meta.to_dict()
    doc.update(
        data_type=cf.data_type,
        fill_value=zdtype.to_json_scalar(zdtype.cast_scalar(fill), zarr_format=3),
        codecs=[*new, *own],
        attributes=dict(other_attrs),
    )
    return ManifestArray(metadata=ArrayV3Metadata.from_dict(doc), chunkmanifest=marr.manifest)


def _json_attrs(attrs: Mapping[str, Any]) -> dict[str, Any]:
    """Attributes as JSON can hold them (NumPy values as Python ones)."""
    from .cf import _plain

    return {k: _plain(v) for k, v in attrs.items()}


# ---------------------------------------------------------------------------------------------
# The parser.


def _packed_paths(group: ManifestGroup, prefix: str = "") -> list[str]:
    out = [
        f"{prefix}{name}"
        for name, a in group.arrays.items()
        if _is_packed(a.metadata.attributes or {})
    ]
    for name, g in group.groups.items():
        out += _packed_paths(g, f"{prefix}{name}/")
    return out


def _convert_group(
    group: ManifestGroup,
    typed: Mapping[str, Mapping[str, Any]] | None,
    codec: str,
    prefix: str = "",
) -> ManifestGroup:
    arrays = {}
    for name, a in group.arrays.items():
        path = f"{prefix}{name}"
        attrs = dict(a.metadata.attributes or {})
        if not _is_packed(attrs):
            arrays[name] = a
            continue
        # The file's typed attributes; else (another format) the parser's.
        cf_attrs = dict(typed[path]) if typed is not None else _store_cf_attributes(attrs, a.dtype)
        other = {k: v for k, v in attrs.items() if k not in CF_ATTRIBUTES}
        arrays[name] = _convert_array(path, a, cf_attrs, other, codec)
    groups = {
        name: _convert_group(g, typed, codec, f"{prefix}{name}/")
        for name, g in group.groups.items()
    }
    return ManifestGroup(arrays=arrays, groups=groups, attributes=group.metadata.attributes)


def _store_cf_attributes(
    attrs: Mapping[str, Any], dtype: Any, float_dtype: Any = None
) -> dict[str, Any]:
    """The CF attributes as VirtualiZarr holds them (Python numbers; a float ``_FillValue`` in
    xarray's Zarr encoding, base64), typed: ``scale_factor`` / ``add_offset`` as ``float_dtype``
    when given (else as Python numbers: float64), ``_FillValue`` / ``missing_value`` decoded."""
    from xarray.backends.zarr import FillValueCoder

    out = {k: attrs[k] for k in CF_ATTRIBUTES if k in attrs}
    stored = np.dtype(dtype)
    for k in ("_FillValue", "missing_value"):
        if isinstance(out.get(k), str) and stored.kind in "iuf":
            out[k] = FillValueCoder.decode(out[k], stored)
    if float_dtype is not None:
        t = np.dtype(float_dtype)
        if t.kind != "f":
            raise InvalidMetadataError(f"float_dtype must be a float type, not {t}")
        for k in ("scale_factor", "add_offset"):
            v = out.get(k)
            if isinstance(v, int | float) and not isinstance(v, bool):
                out[k] = t.type(v)
    return out


class CFParser:
    """A VirtualiZarr parser (the ``Parser`` protocol: ``__call__(url, registry) ->
    ManifestStore``) whose CF-packed arrays carry their packing as codecs: see
    :func:`cf_parser`. Picklable when ``parser`` is (``open_virtual_mfdataset(parallel=...)``)."""

    def __init__(self, parser: Any, *, codec: str = "cf.scale_offset") -> None:
        if codec not in CODECS:
            raise InvalidMetadataError(f"codec must be one of {CODECS}, not {codec!r}", "/codec")
        if not callable(parser):
            raise InvalidMetadataError(
                f"parser must be a VirtualiZarr parser (callable), not {type(parser).__name__}"
            )
        self.parser = parser
        self.codec = codec

    def __repr__(self) -> str:
        return f"cf_parser({self.parser!r}, codec={self.codec!r})"

    def __call__(self, url: str, registry: ObjectStoreRegistry) -> ManifestStore:
        store = self.parser(url, registry)

        def convert(root: ManifestGroup) -> ManifestGroup:
            paths = _packed_paths(root)
            if not paths:
                return root
            typed = _typed_attributes(url, registry, self.parser, paths)
            if typed is None:
                warnings.warn(
                    f"cf_parser: {url} is neither HDF5 nor netCDF3, so the CF attributes of "
                    f"{', '.join(paths)} have the types its parser gives (a Python float "
                    "decodes as float64, where the file may hold float32). To set them: the "
                    "plain parser, then cf_virtual_dataset(vds, float_dtype=...)",
                    UserWarning,
                    stacklevel=2,
                )
            return _convert_group(root, typed, self.codec)

        return _replace_group(store, convert)


def cf_parser(parser: Any, *, codec: str = "cf.scale_offset") -> CFParser:
    """Wraps the VirtualiZarr parser ``parser`` (``HDFParser()``, ``NetCDF3Parser()``, any
    object with the ``Parser`` protocol): every CF-packed array (``scale_factor``,
    ``add_offset`` or ``_Unsigned`` in its attributes; not time-like ones, which xarray decodes
    to datetimes) of the ManifestStore it produces becomes ``[cf.scale_offset, cast_value (with
    the NaN <-> _FillValue scalar_map), <the file's own codecs>]``, with the float data type
    xarray would give and, as fill value, the file's fill value decoded (NaN where it is the
    ``_FillValue``); ``scale_factor``, ``add_offset``, ``_FillValue``, ``missing_value`` and
    ``_Unsigned`` leave the attributes. Other arrays and groups pass unchanged.

    The CF attributes are read again from the file (netCDF4/HDF5 through h5py, netCDF3 from its
    header) through ``registry``, with their stored types: a float32 ``scale_factor`` stays
    float32 (VirtualiZarr 2.8 hands it on as a Python float: float64). Files of other formats
    keep the types their parser gives.

    ``codec="scale_offset"``: the spec's divide-to-unpack ``scale_offset(scale =
    1/scale_factor)`` instead of ``cf.scale_offset``, which zarr-python reads without this
    package, some values 1 ulp off ``decode_cf`` (python/README.md counts them).

    Raises :class:`~zarr_scale_offset.InvalidMetadataError` (naming the array) for packing
    that no codec reproduces exactly.

    >>> parser = cf_parser(HDFParser())  # doctest: +SKIP
    >>> vds = open_virtual_dataset(url, registry=registry, parser=parser)  # doctest: +SKIP
    """
    return CFParser(parser, codec=codec)


def cf_virtual_dataset(
    vds: xr.Dataset, *, float_dtype: Any = None, codec: str = "cf.scale_offset"
) -> xr.Dataset:
    """A copy of the virtual dataset ``vds`` (opened already, e.g. by
    ``open_virtual_dataset`` with a plain parser) whose CF-packed virtual variables carry their
    packing as codecs, as :func:`cf_parser` makes them; other variables (loaded ones among them)
    are kept as they are.

    The attributes are those of ``vds``: VirtualiZarr 2.8 gives ``scale_factor`` and
    ``add_offset`` as Python floats, which decode as float64. ``float_dtype`` says which float
    type they had in the file, as ``xr.open_dataset`` would see them: one type for every
    variable (``"float32"``) or a mapping of variable names to types (the others as given); it
    applies to Python numbers only (NumPy scalars keep their type).
    """
    import xarray as xr

    if codec not in CODECS:
        raise InvalidMetadataError(f"codec must be one of {CODECS}, not {codec!r}", "/codec")
    out = vds.copy()
    for name, var in vds.variables.items():
        if not isinstance(var.data, ManifestArray) or not _is_packed(var.attrs):
            continue
        marr = var.data
        t = float_dtype.get(name) if isinstance(float_dtype, Mapping) else float_dtype
        cf_attrs = _store_cf_attributes(var.attrs, marr.dtype, t)
        other = {k: v for k, v in var.attrs.items() if k not in CF_ATTRIBUTES}
        new = _convert_array(str(name), marr, cf_attrs, {}, codec)
        encoding = {k: v for k, v in var.encoding.items() if k not in CF_ATTRIBUTES}
        new_var = xr.Variable(var.dims, new, attrs=_json_attrs(other), encoding=encoding)
        if name in vds.coords:
            # (No index: building one would read the virtual values.)
            out = out.assign_coords(xr.Coordinates({name: new_var}, indexes={}))
        else:
            out[name] = new_var
    return out
