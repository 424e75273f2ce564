"""The codecs through zarr-python: create_array / open_array, every codec, fills, sharding,
the entry point, use_everywhere() and the guard on zarr-python's own codecs."""

from __future__ import annotations

import importlib.metadata
import json
import pickle
import warnings
from pathlib import Path

import numpy as np
import pytest
import zarr
from zarr.registry import get_codec_class

import zarr_scale_offset as zso

from conftest import REPO, assert_chunks_equal_in_node, bits

STORES = REPO / "tests" / "fixtures" / "stores"


@pytest.fixture
def ours():
    """use_everywhere() for one test; zarr.config's codec choices restored afterwards."""
    old = dict(zarr.config.get("codecs"))
    zso.use_everywhere(fixedscaleoffset=True)
    yield
    zarr.config.set({"codecs": old})


def stored_chunk(path: Path, key: str, dtype: str) -> np.ndarray:
    return np.frombuffer((path / key).read_bytes(), dtype=np.dtype(dtype).newbyteorder("<"))


def test_entry_point_is_cf_scale_offset_only():
    eps = [
        e
        for e in importlib.metadata.entry_points(group="zarr.codecs")
        if e.dist is not None and e.dist.name == "zarr-scale-offset"
    ]
    assert {e.name: e.value for e in eps} == {
        "cf.scale_offset": "zarr_scale_offset.codecs:CFScaleOffset"
    }
    assert get_codec_class("cf.scale_offset") is zso.CFScaleOffset


def test_without_use_everywhere_zarr_pythons_own_codecs_stay():
    from zarr.codecs.cast_value import CastValue as ZarrCastValue
    from zarr.codecs.scale_offset import ScaleOffset as ZarrScaleOffset

    with warnings.catch_warnings():
        warnings.simplefilter("error")  # no "not configured ... Selecting any implementation"
        cv, so = get_codec_class("cast_value"), get_codec_class("scale_offset")
    assert issubclass(cv, ZarrCastValue) and not issubclass(cv, zso.CoreCodec)
    assert issubclass(so, ZarrScaleOffset) and not issubclass(so, zso.CoreCodec)
    # ... and only add the data-type check: everything else is zarr-python's.
    assert cv._encode_sync is ZarrCastValue._encode_sync
    assert so._decode_sync is ZarrScaleOffset._decode_sync


def test_use_everywhere_selects_ours(ours):
    with warnings.catch_warnings():
        warnings.simplefilter("error")
        assert get_codec_class("cast_value") is zso.CastValue
        assert get_codec_class("scale_offset") is zso.ScaleOffset
        assert get_codec_class("numcodecs.fixedscaleoffset") is zso.FixedScaleOffset


def test_zarr_own_cast_value_outside_its_types_names_use_everywhere(tmp_path):
    a = zarr.create_array(
        tmp_path / "a",
        shape=(4,),
        dtype="float32",
        fill_value=0,
        filters=[zso.CastValue(data_type="float8_e4m3")],
        compressors=None,
    )
    a[:] = [0.5, 1, 2, 240]  # 240: float8_e4m3's largest finite value (448 is e4m3fn's)
    with pytest.raises(zso.UnsupportedDataTypeError, match=r"use_everywhere\(\)"):
        zarr.open_array(tmp_path / "a")


def test_zarr_own_cast_value_without_its_backend_names_use_everywhere(tmp_path, monkeypatch):
    # The package depends on cast-value-rs (pyproject: zarr[cast-value-rs]); an environment
    # without it gets zarr-python's reason plus the way out, when the array is opened.
    import zarr.codecs.cast_value as zcv

    a = zarr.create_array(
        tmp_path / "a",
        shape=(3,),
        dtype="float32",
        fill_value=0,
        filters=[zso.ScaleOffset(scale=10), zso.CastValue(data_type="int16")],
        compressors=None,
    )
    a[:] = [0.5, 1.5, -2.0]
    assert zcv._BACKEND_ERROR is None  # here it is installed: zarr-python's own reads it
    assert zarr.open_array(tmp_path / "a")[:].tolist() == [0.5, 1.5, -2.0]
    monkeypatch.setattr(zcv, "_BACKEND_ERROR", "The cast_value codec requires 'cast-value-rs'.")
    with pytest.raises(ImportError, match=r"requires 'cast-value-rs'.*use_everywhere\(\)"):
        zarr.open_array(tmp_path / "a")
    old = dict(zarr.config.get("codecs"))
    zso.use_everywhere()
    try:
        assert zarr.open_array(tmp_path / "a")[:].tolist() == [0.5, 1.5, -2.0]
    finally:
        zarr.config.set({"codecs": old})


def write_read(tmp_path, data, filters, fill_value, chunks=None, **kw):
    path = tmp_path / "arr"
    a = zarr.create_array(
        path,
        shape=data.shape,
        chunks=chunks or data.shape,
        dtype=data.dtype,
        fill_value=fill_value,
        filters=filters,
        compressors=None,
        **kw,
    )
    a[...] = data
    b = zarr.open_array(path)
    return path, b, np.asarray(b[...])


def test_scale_offset_int16(tmp_path, ours):
    x = np.array([-30000, -1, 0, 7, 32767], dtype=np.int16)
    path, b, back = write_read(tmp_path, x, [zso.ScaleOffset(offset=7, scale=1)], 7)
    np.testing.assert_array_equal(back, x)
    # stored: x - 7, exact in int16 (numpy int64 arithmetic, then narrowed)
    want = (x.astype(np.int64) - 7).astype(np.int16)
    np.testing.assert_array_equal(stored_chunk(path, "c/0", "int16"), want)
    assert b.metadata.to_dict()["codecs"][0] == {
        "name": "scale_offset",
        "configuration": {"offset": 7, "scale": 1},
    }


def test_scale_offset_overflow_is_an_error(tmp_path, ours):
    x = np.array([0, 100, -30000], dtype=np.int16)
    with pytest.raises(zso.OutOfRangeError, match="element 2"):
        write_read(tmp_path, x, [zso.ScaleOffset(offset=5000)], 5000)


def test_scale_offset_cast_value_float64_uint8_nan_map(tmp_path, ours):
    sm = {"encode": [["NaN", 0]], "decode": [[0, "NaN"]]}
    filters = [
        zso.ScaleOffset(offset=-10, scale=0.5),
        zso.CastValue(data_type="uint8", scalar_map=sm),
    ]
    x = np.array([[-8.0, np.nan, 0.0], [100.0, 490.0, -9.0]])
    path, b, back = write_read(tmp_path, x, filters, "NaN", chunks=(1, 3))
    # (x + 10) * 0.5, all exact halves; nearest-even: 0.5 -> 0, 9.5... see below
    want = np.array([[1, 0, 5], [55, 250, 0]], dtype=np.uint8)  # -9 -> 0.5 -> 0 (even) = NaN code
    got = np.stack([stored_chunk(path, f"c/{i}/0", "uint8") for i in range(2)])
    np.testing.assert_array_equal(got, want)
    exp = np.array([[-8.0, np.nan, 0.0], [100.0, 490.0, np.nan]])
    np.testing.assert_array_equal(back, exp)
    assert b.fill_value != b.fill_value  # NaN fill
    # A chunk never written reads as the fill value.
    c = zarr.create_array(
        tmp_path / "empty", shape=(4,), dtype="float64", fill_value="NaN", filters=filters
    )
    assert np.isnan(np.asarray(c[:])).all()


def test_cast_value_rounding_and_clamp(tmp_path, ours):
    x = np.array([0.5, 1.5, 2.5, -0.5, -2.5, 1e6, -1e6], dtype=np.float32)
    f = [zso.CastValue(data_type="int16", out_of_range="clamp")]
    path, _, back = write_read(tmp_path, x, f, 0)
    want = np.clip(np.rint(x), -32768, 32767).astype(np.int16)  # nearest-even, clamped
    np.testing.assert_array_equal(stored_chunk(path, "c/0", "int16"), want)
    np.testing.assert_array_equal(back, want.astype(np.float32))
    f = [zso.CastValue(data_type="int16", rounding="towards-negative", out_of_range="wrap")]
    path, _, _ = write_read(tmp_path / "w", x, f, 0)
    want = (np.floor(x).astype(np.int64) & 0xFFFF).astype(np.uint16).view(np.int16)
    np.testing.assert_array_equal(stored_chunk(path, "c/0", "int16"), want)


def test_cf_scale_offset_decodes_like_decode_cf(tmp_path):
    # No use_everywhere(): cf.scale_offset via the entry point, cast_value zarr-python's own.
    scale, offset = 0.01, 273.15
    stored = np.array([-32767, -1, 0, 1, 12345, 32767], dtype=np.int16)
    x = stored.astype(np.float64) * scale + offset  # xarray's decode (numpy, two roundings)
    f = [zso.CFScaleOffset(scale=scale, offset=offset), zarr.codecs.CastValue(data_type="int16")]
    path, b, back = write_read(tmp_path, x, f, offset)
    np.testing.assert_array_equal(stored_chunk(path, "c/0", "int16"), stored)
    np.testing.assert_array_equal(bits(back), bits(x))
    assert b.fill_value == offset


def test_fixedscaleoffset_reads_numcodecs_store_and_refuses_to_write(tmp_path, ours):
    store = STORES / "topobathy_v3_numcodecs_fixedscaleoffset.zarr"
    meta = json.loads((store / "expected.json").read_text())
    want = np.fromfile(store / "expected.bin", dtype=np.dtype(meta["data_type"]).newbyteorder("<"))
    a = zarr.open_array(store, mode="r")
    assert isinstance(a.metadata.codecs[0], zso.FixedScaleOffset)
    np.testing.assert_array_equal(bits(np.asarray(a[...]).reshape(-1)), bits(want))
    x = np.array([1.0, 2.0])
    with pytest.raises(zso.ReadOnlyError, match="scale_offset"):
        write_read(tmp_path, x, [zso.FixedScaleOffset(scale=10, dtype="<f8", astype="<i2")], 0)


@pytest.mark.parametrize("name", ["topobathy.zarr", "jacksboro_dem.zarr"])
def test_zarr_python_written_stores_read_with_ours(name, ours):
    # Written by zarr-python 3.4.2's own codecs (jacksboro inside sharding_indexed).
    store = STORES / name
    meta = json.loads((store / "expected.json").read_text())
    want = np.fromfile(store / "expected.bin", dtype=np.dtype(meta["data_type"]).newbyteorder("<"))
    a = zarr.open_array(store, mode="r")
    assert any(isinstance(c, zso.CastValue) for c in _all_codecs(a.metadata.codecs))
    got = np.asarray(a[...]).reshape(-1)
    nan = np.isnan(want)
    np.testing.assert_array_equal(np.isnan(got), nan)
    np.testing.assert_array_equal(bits(got[~nan]), bits(want[~nan]))


def _all_codecs(codecs):
    for c in codecs:
        yield c
        yield from _all_codecs(getattr(c, "codecs", ()))


def test_sharding_with_our_codecs_and_node(tmp_path, ours):
    f = [zso.CFScaleOffset(scale=0.5, offset=-3), zso.CastValue(data_type="int8")]
    x = (np.arange(20 * 12).reshape(20, 12) % 200 - 100) * 0.5 - 3
    _, _, back = write_read(tmp_path, x, f, -3, chunks=(5, 4), shards=(10, 12))
    np.testing.assert_array_equal(bits(back), bits(x))


def test_chunks_decoded_in_node_equal(tmp_path, ours):
    sm = {"encode": [["NaN", -32768]], "decode": [[-32768, "NaN"]]}
    f = [
        zso.CFScaleOffset(scale=0.01, offset=273.15),
        zso.CastValue(data_type="int16", scalar_map=sm),
    ]
    rng = np.random.default_rng(1)
    x = 273.15 + 0.01 * rng.integers(-30000, 30000, size=(50, 37))
    x[rng.random(x.shape) < 0.05] = np.nan
    path, b, _ = write_read(tmp_path, x, f, "NaN", chunks=(16, 16))
    assert assert_chunks_equal_in_node(path, b, tmp_path) == 12


@pytest.mark.parametrize(
    "make",
    [
        lambda x: x[:, ::2],  # not contiguous
        lambda x: np.asfortranarray(x),
        lambda x: x.astype(">f8"),  # big-endian
        lambda x: np.lib.stride_tricks.as_strided(x, x.shape, x.strides, writeable=False),
    ],
    ids=["strided", "fortran", "big-endian", "read-only"],
)
def test_any_input_layout(make):
    x = np.arange(24, dtype=np.float64).reshape(4, 6) * 0.25
    inp = make(x)
    before = inp.copy()
    codec = zso.ScaleOffset(offset=1, scale=4)
    got = zso.encode(codec, inp)
    want = (np.ascontiguousarray(inp).astype("<f8") - 1) * 4  # exact: quarters times 4
    assert got.shape == inp.shape and got.dtype == np.float64
    np.testing.assert_array_equal(got, want)
    np.testing.assert_array_equal(inp, before)  # never written
    np.testing.assert_array_equal(zso.decode(codec, got, "float64"), np.asarray(inp, "<f8"))


def test_big_endian_array_through_zarr(tmp_path, ours):
    x = np.arange(10, dtype=">i4") * 3
    _, _, back = write_read(tmp_path, x, [zso.ScaleOffset(scale=2)], 0)
    np.testing.assert_array_equal(back, x.astype("<i4"))


def test_codec_objects_roundtrip_pickle_hash():
    codecs = [
        zso.ScaleOffset(),
        zso.ScaleOffset(offset=1.5, scale=np.float32(2)),
        zso.CFScaleOffset(scale=0.1),
        zso.CastValue(data_type="uint4", rounding="towards-zero", out_of_range="clamp"),
        zso.CastValue(data_type="int16", scalar_map={"encode": {"NaN": 0}}),
        zso.FixedScaleOffset(scale=100, offset=1, dtype="<f8", astype="<i2"),
    ]
    for c in codecs:
        d = c.to_dict()
        json.dumps(d, allow_nan=False)
        assert type(c).from_dict(d) == c
        p = pickle.loads(pickle.dumps(c))
        assert p == c and hash(p) == hash(c) and p.to_dict() == d
    assert codecs[0].to_dict() == {"name": "scale_offset"}
    assert codecs[1].to_dict()["configuration"] == {"offset": 1.5, "scale": 2.0}
    assert codecs[4].to_dict()["configuration"]["scalar_map"] == {"encode": [["NaN", 0]]}
    assert len(set(codecs)) == len(codecs)


def test_bind_is_cached_per_config_dtype_fill(tmp_path, ours):
    from zarr_scale_offset.codecs import _bind

    f = [zso.ScaleOffset(offset=3, scale=2), zso.CastValue(data_type="int32")]
    x = np.arange(1000, dtype=np.float64)
    write_read(tmp_path, x, f, 3, chunks=(10,))  # 100 chunks
    before = _bind.cache_info()
    a = zarr.open_array(tmp_path / "arr")
    np.testing.assert_array_equal(np.asarray(a[:]), x)
    after = _bind.cache_info()
    assert after.misses == before.misses  # the same three (config, dtype, fill) keys
    assert after.hits - before.hits >= 200


def test_threads_share_a_bound():
    from concurrent.futures import ThreadPoolExecutor

    b = zso.bind(zso.CastValue(data_type="int16"), "float64", 0)
    xs = [np.arange(100_000, dtype=np.float64) % 30000 - i for i in range(8)]
    with ThreadPoolExecutor(4) as ex:
        outs = list(ex.map(lambda x: b.encode(x.view(np.uint8)).view("<i2"), xs))
    for x, o in zip(xs, outs, strict=True):
        np.testing.assert_array_equal(o, x.astype(np.int16))


def test_encode_into_decode_into():
    b = zso.bind({"name": "scale_offset", "configuration": {"scale": 2}}, "int32")
    x = np.arange(5, dtype="<i4")
    out = np.zeros(20, dtype=np.uint8)
    assert b.encode_into(x.view(np.uint8), out) is None
    np.testing.assert_array_equal(out.view("<i4"), x * 2)
    back = np.zeros(20, dtype=np.uint8)
    b.decode_into(out, back)
    np.testing.assert_array_equal(back.view("<i4"), x)
    with pytest.raises(zso.LengthMismatchError):
        b.encode_into(x.view(np.uint8), np.zeros(16, dtype=np.uint8))
    with pytest.raises(zso.InvalidDataError, match="C-contiguous"):
        b.encode_into(np.zeros(40, np.uint8)[::2], out)


# A float array with fill NaN packed into uint16 with an offset: the data type's default fill 0
# cannot pass ((0 - 273.15) * 100 < 0), which zarr-python's sharding codec uses to check its
# inner codecs (zarr/codecs/sharding.py, _validate_inner_codecs).
KELVIN = [
    zso.ScaleOffset(offset=273.15, scale=100),
    zso.CastValue(
        data_type="uint16",
        rounding="nearest-even",
        scalar_map={"encode": [["NaN", 65535]], "decode": [[65535, "NaN"]]},
    ),
]


def test_sharded_array_whose_codecs_cannot_carry_0_but_carry_its_fill(tmp_path, ours):
    # `ours`: zarr-python's own cast_value refuses the placeholder fill too (cast-value-rs:
    # "Value -27315 out of range"), so it cannot open the sharded array; ours can.
    x = (np.arange(40 * 24, dtype=np.float64).reshape(40, 24) % 500 / 10 + 275).astype(np.float32)
    x[3, 4] = np.nan
    got = {}
    for name, kw in (("plain", {}), ("sharded", {"shards": (20, 12)})):
        a = zarr.create_array(
            tmp_path / name,
            shape=x.shape,
            chunks=(10, 6),
            dtype="float32",
            fill_value=float("nan"),
            filters=KELVIN,
            compressors=None,
            **kw,
        )
        a[:20] = x[:20]  # the rest never written: the fill value
        got[name] = zarr.open_array(tmp_path / name)[...]
    assert np.isnan(got["sharded"][20:]).all()
    np.testing.assert_array_equal(bits(got["sharded"]), bits(got["plain"]))
    # The values: round((x - 273.15) * 100) in float32, decoded as y / 100 + 273.15.
    y = np.round((x[:20] - np.float32(273.15)) * np.float32(100))
    want = np.where(np.isnan(x[:20]), np.float32(np.nan), y / np.float32(100) + np.float32(273.15))
    np.testing.assert_array_equal(bits(got["sharded"][:20]), bits(want.astype(np.float32)))


def test_a_fill_value_that_cannot_pass_is_refused_at_creation(tmp_path):
    # 0 and 1: (0 - 273.15) * 100 and (1 - 273.15) * 100 are below uint16's range.
    for fill in (0, 1):
        with pytest.raises(zso.InvalidMetadataError, match="fill value"):
            zarr.create_array(
                tmp_path / f"a{fill}",
                shape=(8,),
                chunks=(4,),
                dtype="float32",
                fill_value=fill,
                filters=KELVIN,
            )
        with pytest.raises(zso.InvalidMetadataError, match="fill value"):
            zarr.create_array(
                tmp_path / f"s{fill}",
                shape=(8,),
                chunks=(4,),
                shards=(8,),
                dtype="float32",
                fill_value=fill,
                filters=KELVIN,
            )
