"""zarr_scale_offset.pipeline.CodecPipeline: our pending chunks decoded straight into the read's
output; every read (whole array, rows, parts of chunks, integers, steps, fancy and orthogonal
selections, missing chunks, edge chunks, sharding, threads, user-given ``out``, big-endian and
int4 arrays, zarr-python's own codecs), every write and every error the same as through
zarr-python's own pipelines, bit for bit.
"""

from __future__ import annotations

import subprocess
import sys
import textwrap

import numpy as np
import pytest
import zarr
import zarr.codecs as zc
from zarr.core.buffer import cpu
from zarr.registry import register_codec

import zarr_scale_offset as zso
from zarr_scale_offset import codecs as C
from zarr_scale_offset.pipeline import PATH

from conftest import bits, memory_array

BATCHED = "zarr.core.codec_pipeline.BatchedCodecPipeline"
FUSED = "zarr.core.codec_pipeline.FusedCodecPipeline"
SM = {"encode": [["NaN", 0]], "decode": [[0, "NaN"]]}
for _name in ("scale_offset", "cast_value"):
    register_codec(_name, zso.CODECS[_name])  # registered, not chosen (``ours`` chooses)
#: zarr-python's own choice of codecs (its scale_offset / cast_value, behind our guard).
THEIRS = dict(zarr.config.get("codecs"))
OURS = {
    **THEIRS,
    **{
        n: f"zarr_scale_offset.codecs.{zso.CODECS[n].__name__}"
        for n in ("scale_offset", "cast_value")
    },
}


@pytest.fixture(autouse=True)
def ours():
    """Arrays opened again here (each read does, to choose its pipeline) use our codecs."""
    with zarr.config.set({"codecs": OURS}):
        yield


@pytest.fixture
def into(monkeypatch):
    """Kernel runs by where they wrote: True straight into the output, False elsewhere."""
    calls = []
    real = C._run

    def spy(kernel, arr, out_dtype, dest=None):
        calls.append(dest is not None)
        return real(kernel, arr, out_dtype, dest)

    monkeypatch.setattr(C, "_run", spy)
    return calls


def sample(dtype, shape, seed=3):
    rng = np.random.default_rng(seed)
    if np.dtype(dtype).kind == "i":
        return rng.integers(-1000, 1000, shape).astype(dtype) * 2 + 4
    x = rng.integers(1, 255, shape).astype(dtype) / 2
    if np.dtype(dtype).itemsize == 8:
        x[x < 10] = np.nan
    return x


def f32_u16():
    return [zso.ScaleOffset(offset=-10, scale=100), zso.CastValue(data_type="uint16")]


def f64_u8():
    return [zso.ScaleOffset(scale=2), zso.CastValue(data_type="uint8", scalar_map=SM)]


def i16():
    return [zso.ScaleOffset(offset=4, scale=2)]


def cf_f32_i16():
    return [zso.CFScaleOffset(scale=0.5), zso.CastValue(data_type="int16")]


#: (label, array data type, filters, fill value)
CHAINS = [
    ("f32 <- u16", "float32", f32_u16, 0),
    ("f64 <- u8 NaN map", "float64", f64_u8, "NaN"),
    ("int16 scale_offset", "int16", i16, 4),
    ("cf f32 <- i16", "float32", cf_f32_i16, 0),
]

#: Selections of a (50, 40) array in (16, 40) chunks (whole rows: 4 chunks, the last one
#: short), with how many of the chunks read go straight into the output (a chunk read whole
#: into one contiguous block of it) and how many take zarr-python's copy.
SELECTIONS = [
    ("everything", (Ellipsis,), 3, 1),  # the last chunk: 2 of its 16 rows
    ("whole chunks of rows", (slice(16, 48),), 2, 0),
    ("rows across chunks", (slice(10, 40),), 1, 2),
    ("part of a chunk", (slice(3, 9), slice(5, 30)), 0, 1),
    ("one row", (5,), 0, 1),
    ("one column", (slice(None), 3), 0, 4),
    ("every other row", (slice(None, None, 2),), 0, 4),
    ("one element", (7, 9), 0, 1),
]


def make(dtype, filters, fill, shape=(50, 40), chunks=(16, 40), path=PATH, **kw):
    with zarr.config.set({"codec_pipeline.path": path}):
        return memory_array(shape, chunks, dtype, fill, filters, **kw)


def read(a, path, how, sel):
    with zarr.config.set({"codec_pipeline.path": path}):
        b = zarr.open_array(a.store, mode="r")
        if how == "basic":
            return np.asarray(b[sel])
        if how == "oindex":
            return np.asarray(b.oindex[sel])
        return np.asarray(b.vindex[sel])


@pytest.mark.parametrize("label,dtype,filters,fill", CHAINS, ids=[c[0] for c in CHAINS])
@pytest.mark.parametrize("name,sel,direct,copied", SELECTIONS, ids=[s[0] for s in SELECTIONS])
def test_every_selection_reads_what_zarrs_pipelines_read(
    into, label, dtype, filters, fill, name, sel, direct, copied
):
    x = sample(dtype, (50, 40))
    a = make(dtype, filters(), fill)
    a[...] = x
    want = read(a, BATCHED, "basic", sel)
    np.testing.assert_array_equal(bits(read(a, FUSED, "basic", sel)), bits(want))
    into.clear()
    got = read(a, PATH, "basic", sel)
    assert got.dtype == want.dtype and got.shape == want.shape
    np.testing.assert_array_equal(bits(got), bits(want))
    assert (into.count(True), into.count(False)) == (direct, copied), into


@pytest.mark.parametrize("how", ["oindex", "vindex"])
def test_fancy_selections_read_what_zarrs_pipelines_read(how):
    x = sample("float32", (50, 40))
    a = make("float32", CHAINS[0][2](), 0)
    a[...] = x
    sel = (np.array([0, 3, 17, 49]), np.array([1, 2, 39, 0]))
    if how == "oindex":
        sel = (np.array([0, 3, 17, 49]), slice(None))
    np.testing.assert_array_equal(bits(read(a, PATH, how, sel)), bits(read(a, BATCHED, how, sel)))


def test_missing_chunks_read_as_the_fill_value(into):
    x = sample("float64", (50, 40))
    a = make("float64", CHAINS[1][2](), "NaN")
    a[16:32] = x[16:32]  # one chunk stored, three missing
    into.clear()
    got = read(a, PATH, "basic", (Ellipsis,))
    assert into == [True]
    np.testing.assert_array_equal(bits(got), bits(read(a, BATCHED, "basic", (Ellipsis,))))
    assert np.isnan(got[:16]).all() and np.isnan(got[32:]).all()
    np.testing.assert_array_equal(bits(got[16:32]), bits(x[16:32]))


def test_chunks_narrower_than_the_array_take_zarrs_copy(into):
    # A (16, 8) chunk of a (50, 40) output is not one contiguous block of it.
    x = sample("float32", (50, 40))
    a = make("float32", CHAINS[0][2](), 0, chunks=(16, 8))
    a[...] = x
    into.clear()
    got = read(a, PATH, "basic", (Ellipsis,))
    assert into and not any(into)
    np.testing.assert_array_equal(bits(got), bits(read(a, BATCHED, "basic", (Ellipsis,))))


def test_a_one_row_chunk_read_by_integer_goes_straight_in(into):
    # chunk (1, 40): a[5] selects all of chunk (5, 0) with an integer on its length-1 axis.
    x = sample("float32", (50, 40))
    a = make("float32", CHAINS[0][2](), 0, chunks=(1, 40))
    a[...] = x
    into.clear()
    got = read(a, PATH, "basic", (5,))
    assert into == [True]
    np.testing.assert_array_equal(bits(got), bits(x[5]))


def test_a_users_out_buffer_receives_the_values(into):
    x = sample("float32", (50, 40))
    a = make("float32", CHAINS[0][2](), 0)
    a[...] = x
    out = cpu.NDBuffer.create(shape=(32, 40), dtype=np.dtype("float32"), fill_value=-1)
    with zarr.config.set({"codec_pipeline.path": PATH}):
        b = zarr.open_array(a.store, mode="r")
        into.clear()
        b.get_basic_selection(slice(16, 48), out=out)
    assert into == [True, True]
    np.testing.assert_array_equal(bits(np.asarray(out.as_ndarray_like())), bits(x[16:48]))


def test_other_layouts_than_the_cores_take_zarrs_copy(into):
    # A big-endian output buffer, and an int4 array (ml_dtypes keeps int4's low bits, the core
    # sign-extends them): decoded into the core's layout, then converted by the copy.
    x = sample("float32", (50, 40))
    a = make("float32", CHAINS[0][2](), 0)
    a[...] = x
    out = cpu.NDBuffer.create(shape=(50, 40), dtype=np.dtype(">f4"), fill_value=0)
    with zarr.config.set({"codec_pipeline.path": PATH}):
        b = zarr.open_array(a.store, mode="r")
        into.clear()
        b.get_basic_selection(Ellipsis, out=out)
    assert into == [False] * 4
    got = np.asarray(out.as_ndarray_like())
    assert got.dtype == np.dtype(">f4")
    np.testing.assert_array_equal(got, x)
    v = (np.arange(50 * 40) % 15 - 7).reshape(50, 40)
    c = make("int4", [zso.CastValue(data_type="int8")], 0)
    c[...] = v
    into.clear()
    got = read(c, PATH, "basic", (Ellipsis,))
    assert into == [False] * 4
    np.testing.assert_array_equal(got.astype(np.int8), v)
    np.testing.assert_array_equal(bits(got), bits(read(c, BATCHED, "basic", (Ellipsis,))))


def test_sharded_arrays_read_and_write_the_same():
    x = sample("float32", (64, 40))
    stores = []
    for path in (BATCHED, PATH):
        a = make(
            "float32", CHAINS[0][2](), 0, shape=(64, 40), chunks=(8, 40), path=path, shards=(32, 40)
        )
        with zarr.config.set({"codec_pipeline.path": path}):
            a[...] = x
        stores.append(a.store)
        np.testing.assert_array_equal(bits(read(a, PATH, "basic", (Ellipsis,))), bits(x))
        np.testing.assert_array_equal(
            bits(read(a, PATH, "basic", (slice(5, 50), 3))), bits(x[5:50, 3])
        )
    assert _chunks(stores[0]) == _chunks(stores[1])


def _chunks(store):
    async def items():
        return {
            k: (await store.get(k, cpu.buffer_prototype)).to_bytes()
            async for k in store.list()
            if k != "zarr.json"
        }

    return zarr.core.sync.sync(items())


@pytest.mark.parametrize("label,dtype,filters,fill", CHAINS, ids=[c[0] for c in CHAINS])
def test_writes_store_the_same_bytes(label, dtype, filters, fill):
    x = sample(dtype, (50, 40))
    a, b = make(dtype, filters(), fill, path=BATCHED), make(dtype, filters(), fill)
    with zarr.config.set({"codec_pipeline.path": BATCHED}):
        a[...] = x
        a[3:9, 5:7] = x[0:6, 0:2]  # a partial write: read, merge, encode
    with zarr.config.set({"codec_pipeline.path": PATH}):
        b[...] = x
        b[3:9, 5:7] = x[0:6, 0:2]
    sa, sb = _chunks(a.store), _chunks(b.store)
    assert len(sa) == 4 and sa == sb


def test_decode_errors_are_zarrs_pipelines_errors():
    a = make("int16", [zso.ScaleOffset(offset=4, scale=2)], 4)
    a[...] = sample("int16", (50, 40))
    bad = np.full(16 * 40, 2, "<i2")
    bad[37] = 7  # 7 / 2 is not an int16
    zarr.core.sync.sync(a.store.set("c/1/0", cpu.Buffer.from_bytes(bad.tobytes())))
    errors = []
    for path in (BATCHED, PATH):
        with pytest.raises(zso.ZarrScaleOffsetError) as e:
            read(a, path, "basic", (Ellipsis,))
        errors.append((type(e.value), e.value.code, str(e.value)))
    assert errors[0] == errors[1]
    assert "element 37" in errors[1][2], errors[1]


def test_zarrs_own_codecs_read_as_through_fused(into):
    x = sample("float32", (50, 40))
    a = make("float32", [zc.ScaleOffset(scale=10), zc.CastValue(data_type="int16")], 0)
    with zarr.config.set({"codec_pipeline.path": PATH}):
        a[...] = x
    with zarr.config.set({"codecs": THEIRS}):
        into.clear()
        got = read(a, PATH, "basic", (Ellipsis,))
        assert into == []
        np.testing.assert_array_equal(bits(got), bits(read(a, FUSED, "basic", (Ellipsis,))))


def test_threads_write_disjoint_regions_of_one_output(into):
    x = sample("float32", (256, 40))
    a = make("float32", CHAINS[0][2](), 0, shape=(256, 40), chunks=(16, 40))
    a[...] = x
    with zarr.config.set({"threading.max_workers": 4}):
        into.clear()
        got = read(a, PATH, "basic", (Ellipsis,))
    assert into == [True] * 16
    np.testing.assert_array_equal(bits(got), bits(x))


def test_a_fresh_process_selects_the_pipeline_by_its_entry_point(tmp_path):
    a = zarr.create_array(
        zarr.storage.LocalStore(tmp_path / "a.zarr"),
        shape=(32, 8),
        chunks=(16, 8),
        dtype="float32",
        fill_value=0,
        filters=[zso.CFScaleOffset(scale=0.25), zso.CastValue(data_type="int16")],
        compressors=None,
    )
    x = np.arange(32 * 8, dtype=np.float32).reshape(32, 8) / 4
    a[...] = x
    code = textwrap.dedent(
        f"""
        import sys, numpy as np, zarr
        zarr.config.set({{"codec_pipeline.path": {PATH!r}}})
        a = zarr.open_array({str(tmp_path / "a.zarr")!r}, mode="r")
        y = a[...]
        assert "zarr_scale_offset.pipeline" in sys.modules
        print(type(a._async_array.codec_pipeline).__qualname__, y.sum())
        """
    )
    r = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=False)
    assert r.returncode == 0, r.stderr
    assert r.stdout.split() == ["CodecPipeline", str(x.sum())]
