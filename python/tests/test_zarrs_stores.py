"""The stores that zarrs + the zarrs plugin (crates/zarrs/tests/write.rs) wrote, read by this
package through zarr-python: for every chunk of chunks.json, the values zarr-python reads in the
chunk's region are exactly what zarrs decoded (``zarrs_decoded``, clipped to the array; int4
as int8 values), and
the core's ``encode_chunk`` of zarrs' ``input`` is the stored chunk (only the low 4 bits of an
int4 byte count: zarrs' bytes codec writes -8 as 0xf8, this package as 0x08).

The stores are in $ZARRS_STORES_DIR, default target/zarrs-stores/ (docs/guides/rust.md);
scripts/test.sh runs the zarrs step first and sets ZARRS_STORES_REQUIRED=1, when missing stores
fail the test.
"""

from __future__ import annotations

import json
import os
from pathlib import Path

import numpy as np
import pytest
import zarr

import zarr_scale_offset as zso

from conftest import REPO

DIR = Path(os.environ.get("ZARRS_STORES_DIR", REPO / "target" / "zarrs-stores"))
STORES = sorted(p.name for p in DIR.glob("*.zarr") if (p / "chunks.json").exists())
SUB_BYTE = {"int2", "int4", "uint2", "uint4", "float4_e2m1fn", "float6_e2m3fn", "float6_e3m2fn"}


@pytest.fixture
def ours():
    old = dict(zarr.config.get("codecs"))
    zso.use_everywhere()
    yield
    zarr.config.set({"codecs": old})


def test_the_zarrs_stores_are_there():
    if not STORES and os.environ.get("ZARRS_STORES_REQUIRED") != "1":
        pytest.skip(f"no stores in {DIR} (run cargo test --test write in crates/zarrs)")
    assert STORES == [
        "bf16_float8_e4m3.zarr",
        "cf_int16_nan.zarr",
        "f32_int4.zarr",
        "f32_scale_offset_int16.zarr",
        "int4_scale_offset.zarr",
        "u64_scale_offset.zarr",
    ]


def _low_bits(b: bytes, encoded_type: str) -> bytes:
    return bytes(x & 0x0F for x in b) if encoded_type in SUB_BYTE else b


@pytest.mark.parametrize("name", STORES)
def test_zarrs_store_read_by_zarr_python_with_this_package(name, ours):
    d = DIR / name
    meta_text = (d / "zarr.json").read_text()
    meta = json.loads(meta_text)
    manifest = json.loads((d / "chunks.json").read_text())
    a = zarr.open_array(str(d), mode="r")
    chunk = meta["chunk_grid"]["configuration"]["chunk_shape"]
    encoded = zso.bind(meta["codecs"][:-1], meta["data_type"], meta["fill_value"])
    assert manifest["chunks"]
    for c in manifest["chunks"]:
        idx = [int(i) for i in c["key"].split("/")[1:]]
        # zarrs holds int2/int4 as sign-extended i8, ml_dtypes keeps only the low bits: compare
        # int4 values as int8.
        mem = np.int8 if meta["data_type"] in ("int2", "int4") else a.dtype
        whole = np.frombuffer(bytes.fromhex(c["zarrs_decoded"]), mem).reshape(chunk)
        region = tuple(
            slice(i * n, min((i + 1) * n, s)) for i, n, s in zip(idx, chunk, a.shape, strict=True)
        )
        want = whole[tuple(slice(0, r.stop - r.start) for r in region)]
        got = a[region].astype(mem)
        assert got.dtype == want.dtype, (name, c["key"])
        # Bit for bit (NaN payloads included): compare the bytes of equal dtypes.
        assert np.ascontiguousarray(got).tobytes() == np.ascontiguousarray(want).tobytes(), (
            name,
            c["key"],
        )
        stored = (d / c["key"]).read_bytes()
        mine = zso._core.encode_chunk(meta_text, bytes.fromhex(c["input"]))
        enc_t = encoded.encoded_data_type
        assert _low_bits(mine, enc_t) == _low_bits(stored, enc_t), (name, c["key"])
