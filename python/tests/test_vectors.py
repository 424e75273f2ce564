"""The conformance vectors (the same files as the Rust and JS runners) through zarr-python
with this package's codecs: each vector's zarr.json and stored chunk in a store, read (and
written) with zarr.open_array. Every vector zarr-python can express must pass; the others are
skipped with the reason. Counts are printed at the end of the run."""

from __future__ import annotations

import json
import re

import numpy as np
import pytest
import zarr
from zarr.core.buffer import cpu
from zarr.core.dtype import get_data_type_from_json
from zarr.storage import MemoryStore

import zarr_scale_offset as zso

from conftest import REPO, VECTOR_COUNTS, VECTORS_DIR

FAMILIES = sorted(p.stem for p in VECTORS_DIR.glob("*.json"))
#: Bits per element of the types narrower than a byte: only these low bits of a stored byte count.
NARROW_BITS = {"int2": 2, "uint2": 2, "int4": 4, "uint4": 4, "float4_e2m1fn": 4}
NARROW_BITS |= {"float6_e2m3fn": 6, "float6_e3m2fn": 6}


def cases():
    for family in FAMILIES:
        for v in json.loads((VECTORS_DIR / f"{family}.json").read_text()):
            yield pytest.param(family, v, id=v["id"])


@pytest.fixture(scope="module", autouse=True)
def ours():
    old = dict(zarr.config.get("codecs"))
    zso.use_everywhere(fixedscaleoffset=True)
    yield
    zarr.config.set({"codecs": old})


def count(family, outcome):
    c = VECTOR_COUNTS.setdefault(family, {})
    c[outcome] = c.get(outcome, 0) + 1


def skip(family, reason):
    count(family, "skipped")
    pytest.skip(reason)


def store_with(meta_text, chunk=None):
    d = {"zarr.json": cpu.Buffer.from_bytes(meta_text.encode())}
    if chunk is not None:
        d["c/0"] = cpu.Buffer.from_bytes(chunk)
    return MemoryStore(d)


def native(name):
    return get_data_type_from_json(name, zarr_format=3).to_native_dtype()


def same(name, got: bytes, want: bytes, *, stored=False, big=False):
    """Element-wise: equal bits, or both NaN (float types); for stored bytes of a type
    narrower than a byte, only its low bits."""
    dt = native(name)
    size = 1 if name in NARROW_BITS else dt.itemsize
    assert len(got) == len(want), f"length {len(got)} != {len(want)}"
    g = np.frombuffer(got, dtype=f"{'>' if big else '<'}u{size}")
    w = np.frombuffer(want, dtype=f"{'>' if big else '<'}u{size}")
    if stored and name in NARROW_BITS:
        mask = (1 << NARROW_BITS[name]) - 1
        g, w = g & mask, w & mask
    diff = g != w
    if diff.any() and (np.issubdtype(dt, np.floating) or "float" in name):
        order = ">" if big else "<"
        gf = zso.from_core(np.frombuffer(got, np.uint8), dt, g.shape) if not big else None
        wf = zso.from_core(np.frombuffer(want, np.uint8), dt, w.shape) if not big else None
        if big:
            gf = np.frombuffer(got, dtype=dt.newbyteorder(order))
            wf = np.frombuffer(want, dtype=dt.newbyteorder(order))
        diff &= ~(np.isnan(gf.astype(np.float64)) & np.isnan(wf.astype(np.float64)))
    if diff.any():
        i = int(np.flatnonzero(diff)[0])
        raise AssertionError(f"element {i}: got {g[i]:#x}, want {w[i]:#x}")


@pytest.mark.parametrize(("family", "v"), list(cases()))
def test_vector(family, v):
    meta = v["metadata"]
    expect = v["expect"]
    name = meta.get("data_type")
    meta_text = json.dumps(meta)
    encoded = bytes.fromhex(v["encoded"]) if "encoded" in v else None
    decoded = bytes.fromhex(v["decoded"]) if "decoded" in v else None
    if isinstance(name, str):
        try:
            dt = native(name)
        except ValueError as e:
            if expect == "metadata_error":
                count(family, "passed")  # zarr-python rejects it too
                return
            skip(family, f"zarr-python has no data type {name!r} ({e})"[:200])
    codecs = meta.get("codecs", [])
    last = codecs[-1] if codecs and isinstance(codecs[-1], dict) else {}
    big = (
        isinstance(last.get("configuration"), dict) and last["configuration"].get("endian") == "big"
    )
    for c in codecs:
        cfg = c.get("configuration") if isinstance(c, dict) else None
        t = cfg.get("data_type") if isinstance(cfg, dict) else None
        if isinstance(t, str):
            try:
                native(t)
            except ValueError:
                if expect == "metadata_error":
                    count(family, "passed")  # zarr-python rejects it too
                    return
                skip(family, f"zarr-python has no data type {t!r} (a cast_value target)")

    # Open (metadata parse, validate, resolve_metadata: the fill value flows here).
    try:
        a = zarr.open_array(store_with(meta_text, encoded), mode="r")
    except zso.ZarrScaleOffsetError as e:
        if expect in ("metadata_error", "encode_error", "decode_error"):
            count(family, "passed")
            return
        raise AssertionError(f"open failed on a valid vector: {e!r}") from e
    except Exception as e:
        if expect == "metadata_error":
            count(family, "passed")
            return
        skip(family, f"zarr-python rejects the metadata: {type(e).__name__}: {e}"[:200])

    if expect == "metadata_error":
        try:
            a[...]
        except Exception:
            count(family, "passed")
            return
        raise AssertionError("an invalid document opened and decoded")

    shape = tuple(meta["shape"])
    if expect in ("roundtrip", "decode_only"):
        got = zso.to_core(np.asarray(a[...])).tobytes()
        same(name, got, decoded)
    if expect == "decode_error":
        with pytest.raises(zso.ZarrScaleOffsetError):
            a[...]
    if expect in ("roundtrip", "encode_only", "encode_error"):
        w = zarr.open_array(store_with(meta_text), mode="r+", config={"write_empty_chunks": True})
        values = zso.from_core(np.frombuffer(decoded, np.uint8), dt, shape)
        if expect == "encode_error":
            with pytest.raises(zso.ZarrScaleOffsetError):
                w[...] = values
        else:
            w[...] = values
            stored = w.store._store_dict["c/0"].to_bytes()
            enc_name = zso.bind(
                [c for c in codecs if c.get("name") != "bytes"], name
            ).encoded_data_type
            same(enc_name, stored, encoded, stored=True, big=big)
    count(family, "passed")


def test_every_family_is_run():
    # This runner, the Rust one (tests/conformance.rs) and the zarrs one
    # (crates/zarrs/tests/vectors.rs) all run every *.json of the folder, none a list of its own.
    known = {"scale_offset", "cast_value", "chains", "exotic", "cf", "cf_scale_offset"}
    assert known | {"fixedscaleoffset", "metadata_errors"} <= set(FAMILIES)
    for runner in ("tests/conformance.rs", "crates/zarrs/tests/vectors.rs"):
        src = (REPO / runner).read_text()
        assert "read_dir" in src and not re.search(r'"cast_value",\s*"chains"', src), runner
