"""Migration of CF-attribute Zarr stores in place: the CF packing attributes
(``scale_factor``, ``add_offset``, ``_FillValue``, ``missing_value``, ``_Unsigned``) of every
packed array become codecs (``cf.scale_offset`` + ``cast_value``), so that every Zarr reader sees
the physical values ``xarray.decode_cf`` gives, and only metadata documents change: each array's
``zarr.json`` and the consolidated metadata that lists it. No chunk is read for writing or
rewritten.

A Zarr v2 store (as xarray wrote them by default for years) gets v3 metadata beside its v2
metadata: a ``zarr.json`` per node (zarr-python's own v2 -> v3 conversion of each array's codecs,
with the v2 chunk key encoding, so the chunks stay where they are; ``_ARRAY_DIMENSIONS`` as
``dimension_names``; the v2 ``fill_value``, which xarray masks with, as the ``_FillValue`` it
is), inline consolidated metadata where the v2 store had ``.zmetadata``, and the CF packing as
codecs. zarr-python and xarray read the v3 metadata first; the v2 files are left for v2-only
readers, which keep seeing the CF-attribute form.

Before anything is written, every array to migrate is verified: sample chunks (the first, the
last, a few chosen at random and a chunk that is not stored, where there is one) are decoded
through the new metadata by zarr-python and compared bit for bit with ``decode_cf`` of the old
form (xarray's ``decode_cf_variable`` over the stored codes and the old attributes). Any
mismatch, or an array whose packing no codec reproduces, stops the migration with an error and
nothing written. A second run finds nothing to do.

The fill value of a migrated array is what the old array decoded to where nothing is stored: the
old ``fill_value`` (a packed code, usually 0 as xarray writes it) decoded through the new codecs,
so unwritten chunks read as before (NaN only where that code is a ``_FillValue``).

>>> report = migrate("sst.zarr", dry_run=True)  # doctest: +SKIP
>>> print(report)  # doctest: +SKIP
"""

from __future__ import annotations

import json
import random
from collections.abc import Iterable, Mapping
from dataclasses import dataclass, field
from typing import Any

import numpy as np
import zarr
from zarr.core.buffer import default_buffer_prototype
from zarr.core.buffer.cpu import Buffer
from zarr.core.sync import sync
from zarr.storage import MemoryStore, StorePath
from zarr.storage._common import make_store_path

from .cf import CF_KEYS, decode_cf_packing, from_cf
from .errors import InvalidMetadataError, ZarrScaleOffsetError

__all__ = ["ArrayPlan", "MigrationError", "MigrationReport", "migrate"]

#: The attributes whose presence makes an array CF-packed (a ``_FillValue`` alone masks, it does
#: not pack: such arrays are left as they are unless named in ``variables``).
PACKING = ("scale_factor", "add_offset", "_Unsigned")

#: How many chunks chosen at random are verified per array, besides the first, the last and a
#: missing one.
RANDOM_CHUNKS = 4


class MigrationError(InvalidMetadataError):
    """A migration that cannot be done exactly (nothing was written): ``.path`` names the array,
    the message what differs or what no codec reproduces."""


@dataclass
class ArrayPlan:
    """What the migration does (or did) to one array."""

    path: str
    data_type: tuple[str, str]
    fill_value: tuple[Any, Any]
    removed_attributes: dict[str, Any]
    codecs_added: list[dict[str, Any]]
    chunks_verified: int = 0
    warnings: list[dict[str, Any]] = field(default_factory=list)

    def __str__(self) -> str:
        names = " + ".join(c["name"] for c in self.codecs_added)
        return (
            f"{self.path or '/'}: {self.data_type[0]} -> {self.data_type[1]}, fill "
            f"{self.fill_value[0]!r} -> {self.fill_value[1]!r}, codecs + [{names}], attributes "
            f"removed: {', '.join(self.removed_attributes)}; {self.chunks_verified} chunks verified"
        )


@dataclass
class MigrationReport:
    """What :func:`migrate` found and did."""

    #: The arrays migrated (or, with ``dry_run``, to migrate).
    arrays: list[ArrayPlan]
    #: Arrays left as they are, with the reason.
    skipped: dict[str, str]
    #: The metadata documents written (store keys); empty for a dry run or nothing to do.
    written: list[str]
    dry_run: bool
    #: The Icechunk snapshot id of the commit, where an Icechunk session was migrated.
    commit: str | None = None

    def __str__(self) -> str:
        head = "dry run: would migrate" if self.dry_run else "migrated"
        lines = [f"{head} {len(self.arrays)} array(s)"]
        lines += [f"  {a}" for a in self.arrays]
        lines += [f"  skipped {p or '/'}: {why}" for p, why in self.skipped.items()]
        if self.written:
            lines.append(f"  wrote {', '.join(self.written)}")
        return "\n".join(lines)


def _key(*parts: str) -> str:
    return "/".join(p for p in parts if p)


def _get(sp: StorePath, key: str) -> bytes | None:
    buf = sync(sp.store.get(_key(sp.path, key), prototype=default_buffer_prototype()))
    return None if buf is None else buf.to_bytes()


def _set(sp: StorePath, key: str, doc: Mapping[str, Any]) -> None:
    sync(sp.store.set(_key(sp.path, key), Buffer.from_bytes(json.dumps(doc, indent=2).encode())))


def _read_doc(sp: StorePath, path: str) -> dict[str, Any]:
    raw = _get(sp, _key(path, "zarr.json"))
    if raw is None:
        raise InvalidMetadataError(f"{path or '/'}: no zarr.json (a Zarr v3 node is needed)", path)
    return json.loads(raw)


@dataclass
class _Node:
    """One node of the store as migration sees it."""

    path: str
    kind: str  # "array" or "group"
    #: Its Zarr v3 document (for a v2 node: the converted one, not written yet).
    doc: dict[str, Any]
    #: The attributes as xarray's decode_cf sees them (v2: with the fill value as _FillValue).
    cf_attrs: dict[str, Any] = field(default_factory=dict)
    #: The node was Zarr v2 (its zarr.json is to be written even if nothing is packed).
    v2: bool = False


def _v3_json(meta: Any) -> dict[str, Any]:
    return json.loads(meta.to_buffer_dict(default_buffer_prototype())["zarr.json"].to_bytes())


def _v2_array_node(path: str, arr: zarr.Array) -> _Node:
    """A v2 array as v3 metadata: zarr-python's own conversion of its codecs (v2 chunk keys),
    xarray's v2 conventions made v3 ones (``_ARRAY_DIMENSIONS`` -> ``dimension_names``; the
    ``fill_value``, which xarray masks with, -> the ``_FillValue`` attribute)."""
    import dataclasses

    from zarr.metadata.migrate_v3 import _convert_array_metadata

    meta = arr.metadata
    v2_fill = meta.fill_value
    if v2_fill is None:
        # (zarr-python's conversion needs a fill value; v2 `null` reads as the type's default)
        meta = dataclasses.replace(meta, fill_value=meta.dtype.default_scalar())
    doc = _v3_json(_convert_array_metadata(meta))
    attrs = dict(arr.attrs)
    dims = attrs.pop("_ARRAY_DIMENSIONS", None)
    if dims is not None:
        doc["dimension_names"] = list(dims)
    cf_attrs = dict(attrs)
    if v2_fill is not None and "_FillValue" not in attrs:
        fill = meta.dtype.to_json_scalar(v2_fill, zarr_format=3)
        is_nan = fill == "NaN"
        cf_attrs["_FillValue"] = float("nan") if is_nan else fill
        if not is_nan:
            if not isinstance(fill, int) or isinstance(fill, bool):
                raise MigrationError(
                    f"{path}: a float fill value ({fill}) that xarray masks with: written as a "
                    "v3 attribute xarray would need its own encoding; not supported yet",
                    path,
                )
            attrs["_FillValue"] = fill  # what xarray masks with, now as an attribute
    doc["attributes"] = attrs
    return _Node(path, "array", doc, cf_attrs, v2=True)


def _scan(sp: StorePath) -> tuple[list[_Node], bool]:
    """Every node below ``sp`` (``sp`` included), and whether the store is Zarr v2."""
    v2 = _get(sp, "zarr.json") is None and (
        _get(sp, ".zgroup") is not None or _get(sp, ".zarray") is not None
    )
    if not v2:
        root = _read_doc(sp, "")
        if root.get("zarr_format") != 3:
            raise InvalidMetadataError("not a Zarr v2 or v3 store", "/zarr_format")
        paths = [("", root.get("node_type"))]
        if root.get("node_type") == "group":
            group = zarr.open_group(store=sp.store, path=sp.path, mode="r", use_consolidated=False)
            paths += [
                (n, "array" if isinstance(x, zarr.Array) else "group")
                for n, x in group.members(max_depth=None)
            ]
        nodes = []
        for path, kind in paths:
            doc = _read_doc(sp, path)
            nodes.append(_Node(path, kind, doc, dict(doc.get("attributes") or {})))
        return nodes, False
    root = zarr.open(store=sp.store, path=sp.path, mode="r", zarr_format=2)
    members = [("", root)]
    if isinstance(root, zarr.Group):
        members += list(root.members(max_depth=None))
    nodes = []
    for path, node in members:
        if isinstance(node, zarr.Array):
            nodes.append(_v2_array_node(path, node))
        else:
            attrs = dict(node.attrs)
            doc = {"zarr_format": 3, "node_type": "group", "attributes": attrs}
            nodes.append(_Node(path, "group", doc, attrs, v2=True))
    return nodes, True


def _time_like(attrs: Mapping[str, Any]) -> bool:
    units = attrs.get("units")
    return isinstance(units, str) and " since " in units


def _plan(node: _Node) -> tuple[ArrayPlan, dict[str, Any]]:
    """The plan and the new zarr.json of one packed array (nothing verified yet)."""
    path, doc = node.path, node.doc
    packing = {k: v for k, v in node.cf_attrs.items() if k in CF_KEYS and k != "dtype"}
    packed = doc["data_type"]
    if not isinstance(packed, str):
        raise MigrationError(f"{path}: data type {packed!r} cannot be CF-packed", path)
    try:
        cf = from_cf(packing, packed)
    except ZarrScaleOffsetError as e:
        raise MigrationError(f"{path}: {e}", path) from e
    new_codecs = [c for c in cf.codecs_json if c["name"] in ("cf.scale_offset", "cast_value")]
    if any(c.get("name") in ("cf.scale_offset", "scale_offset") for c in doc.get("codecs", [])):
        raise MigrationError(
            f"{path}: has CF attributes and scale/offset codecs already: read by every reader "
            "it would be unpacked twice",
            path,
        )
    # The new fill value: the old one (a packed code) decoded through the new codecs, which is
    # what the old form decoded to where nothing is stored.
    old_zdtype = zarr.core.dtype.get_data_type_from_json(packed, zarr_format=3)
    old_fill = old_zdtype.from_json_scalar(doc["fill_value"], zarr_format=3)
    old_fill = np.asarray(old_fill, dtype=old_zdtype.to_native_dtype()).reshape(1)
    new_fill = _codecs_decode(new_codecs, old_fill, cf.data_type)[0]
    new_zdtype = zarr.core.dtype.get_data_type_from_json(cf.data_type, zarr_format=3)
    new_doc = dict(doc)
    new_doc["data_type"] = cf.data_type
    new_doc["fill_value"] = new_zdtype.to_json_scalar(
        new_zdtype.cast_scalar(new_fill), zarr_format=3
    )
    new_doc["codecs"] = [*new_codecs, *doc.get("codecs", [])]
    attrs = doc.get("attributes") or {}
    new_doc["attributes"] = {k: v for k, v in attrs.items() if k not in packing}
    plan = ArrayPlan(
        path=path,
        data_type=(packed, cf.data_type),
        fill_value=(doc.get("fill_value"), new_doc["fill_value"]),
        removed_attributes=packing,
        codecs_added=new_codecs,
        warnings=cf.warnings,
    )
    return plan, new_doc


def _codecs_decode(codec_json: list[dict[str, Any]], arr: np.ndarray, data_type: str) -> Any:
    from . import decode

    return decode(codec_json, arr, data_type)


def _sample_chunks(old: zarr.Array, seed: int) -> list[tuple[int, ...]]:
    """The chunk grid coordinates to verify: the first, the last, some at random, and the first
    one that is not stored (if any)."""
    grid = [-(-n // c) for n, c in zip(old.shape, _storage_chunks(old), strict=True)]
    every = list(np.ndindex(*grid))
    rng = random.Random(seed)
    picks = [every[0], every[-1], *rng.sample(every, min(RANDOM_CHUNKS, len(every)))]
    sp_store, base = old.store, old.path
    for coords in every:
        key = _key(base, old.metadata.encode_chunk_key(coords))
        if not sync(sp_store.exists(key)):
            picks.append(coords)
            break
    return list(dict.fromkeys(picks))


def _storage_chunks(old: zarr.Array) -> tuple[int, ...]:
    """The shape of the stored objects: the shards of a sharded array, else the chunks."""
    return old.shards or old.chunks


def _region(old: zarr.Array, coords: tuple[int, ...]) -> tuple[slice, ...]:
    chunks = _storage_chunks(old)
    return tuple(
        slice(c * n, min((c + 1) * n, s)) for c, n, s in zip(coords, chunks, old.shape, strict=True)
    )


def _same(a: np.ndarray, b: np.ndarray) -> bool:
    if a.dtype != b.dtype or a.shape != b.shape:
        return False
    if a.dtype.kind == "f":
        u = f"u{a.itemsize}"
        return bool(np.all((np.isnan(a) & np.isnan(b)) | (a.view(u) == b.view(u))))
    return bool(np.array_equal(a, b))


def _verify(sp: StorePath, path: str, cf_attrs: dict | None, new_doc: dict, seed: int) -> int:
    """Decodes sample chunks through ``new_doc`` (zarr-python, over a copy of those chunks'
    stored bytes) and compares them with the old form: through ``decode_cf`` with ``cf_attrs``
    (a packed array), or as zarr-python reads it (``cf_attrs`` None: a v2 array whose metadata
    only moves to v3). Raises on any difference; returns the number of chunks compared."""
    try:
        import xarray as xr
    except ImportError as e:  # pragma: no cover - xarray is a test dependency
        raise MigrationError(
            "migrate verifies against xarray.decode_cf: install xarray", path
        ) from e
    old = zarr.open_array(store=sp.store, path=_key(sp.path, path), mode="r")
    dims = new_doc.get("dimension_names") or [None] * len(old.shape)
    dims = [d if d is not None else f"d{i}" for i, d in enumerate(dims)]
    picks = _sample_chunks(old, seed)
    copy: dict[str, Buffer] = {"zarr.json": Buffer.from_bytes(json.dumps(new_doc).encode())}
    for coords in picks:
        key = old.metadata.encode_chunk_key(coords)
        raw = _get(sp, _key(path, key))
        if raw is not None:
            copy[key] = Buffer.from_bytes(raw)
    new = zarr.open_array(store=MemoryStore(copy), mode="r")
    for coords in picks:
        region = _region(old, coords)
        want = np.asarray(old[region])
        if cf_attrs is not None:
            var = xr.Variable(dims, want, attrs=dict(cf_attrs))
            want = decode_cf_packing("v", var).values
        got = np.asarray(new[region])
        if not _same(got, np.asarray(want)):
            raise MigrationError(
                f"{path}: chunk {coords} decodes differently through the new metadata "
                f"({got.dtype}) and through the old form ({np.asarray(want).dtype}); nothing "
                "was written",
                path,
            )
    return len(picks)


def migrate(
    store: Any,
    *,
    variables: Iterable[str] | None = None,
    dry_run: bool = False,
    seed: int = 0,
    message: str = "zarr-scale-offset migrate: CF packing attributes to codecs",
) -> MigrationReport:
    """Migrates the CF-packed arrays of the Zarr store ``store`` (v3, or v2 which gets v3
    metadata beside its own; a path, URL, zarr Store or StorePath; a group or one array) to
    codec form, in place; returns what it did.

    An Icechunk writable session (``repo.writable_session("main")``) is migrated through its
    store and committed once with ``message``: a commit that changes array metadata only.

    ``variables``: the array paths to migrate (default: every array with ``scale_factor``,
    ``add_offset`` or ``_Unsigned`` in its attributes). ``dry_run``: plan and verify, write
    nothing. ``seed`` chooses the random sample chunks.

    Raises :class:`MigrationError` (nothing written) where the new form would not read back what
    ``decode_cf`` of the old form gives.
    """
    # An Icechunk writable session: its store, then one commit of the metadata changes.
    session = store if hasattr(store, "commit") and hasattr(store, "store") else None
    if session is not None:
        store = session.store
    sp = sync(make_store_path(store, mode="r" if dry_run else "r+"))
    nodes, v2 = _scan(sp)
    wanted = None if variables is None else {v.strip("/") for v in variables}
    plans: list[ArrayPlan] = []
    new_docs: dict[str, dict[str, Any]] = {}
    skipped: dict[str, str] = {}
    for node in nodes:
        attrs = node.cf_attrs
        packed = False
        if node.kind == "array" and (wanted is None or node.path in wanted):
            if wanted is not None or any(k in attrs for k in PACKING):
                packed = True
            elif any(k in attrs for k in ("_FillValue", "missing_value")) and str(
                node.doc.get("data_type")
            ).startswith(("int", "uint")):
                # An integer array with a fill value only: xarray masks it (to float), which
                # is not packing; said, and left (name it in `variables` to migrate it).
                skipped[node.path] = "CF masking attributes only (no scale_factor/add_offset)"
        if packed and _time_like(attrs):
            skipped[node.path] = (
                f"time-like units {attrs['units']!r}: xarray decodes it to datetimes"
            )
            packed = False
        if packed:
            plan, new_doc = _plan(node)
            plan.chunks_verified = _verify(sp, node.path, node.cf_attrs, new_doc, seed)
            plans.append(plan)
            new_docs[node.path] = new_doc
        elif node.v2:
            if node.kind == "array":
                _verify(sp, node.path, None, node.doc, seed)
            new_docs[node.path] = node.doc
    if wanted is not None:
        missing = wanted - {p.path for p in plans} - set(skipped)
        if missing:
            raise MigrationError(f"no such array: {', '.join(sorted(missing))}", None)
    written: list[str] = []
    if not dry_run and (plans or v2):
        for path, new_doc in new_docs.items():
            if v2 and path == "" and _get(sp, ".zmetadata") is not None:
                # The v2 store was consolidated: so is its v3 metadata (inline, in the root).
                new_doc = {
                    **new_doc,
                    "consolidated_metadata": {
                        "kind": "inline",
                        "must_understand": False,
                        "metadata": {p: d for p, d in new_docs.items() if p},
                    },
                }
            _set(sp, _key(path, "zarr.json"), new_doc)
            written.append(_key(sp.path, path, "zarr.json"))
        # v3 consolidated metadata (inline in a group's zarr.json) that lists a migrated array.
        for node in nodes if not v2 else []:
            if node.kind != "group":
                continue
            gdoc = _read_doc(sp, node.path)
            meta = (gdoc.get("consolidated_metadata") or {}).get("metadata")
            if not isinstance(meta, dict):
                continue
            changed = False
            for rel in list(meta):
                full = _key(node.path, rel)
                if full in new_docs:
                    meta[rel] = {**new_docs[full]}
                    changed = True
            if changed:
                _set(sp, _key(node.path, "zarr.json"), gdoc)
                written.append(_key(sp.path, node.path, "zarr.json"))
    commit = None
    if session is not None and written:
        commit = session.commit(message)
    return MigrationReport(
        arrays=plans, skipped=skipped, written=written, dry_run=dry_run, commit=commit
    )
