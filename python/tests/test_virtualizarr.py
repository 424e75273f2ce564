"""``zarr_scale_offset.virtualizarr`` (issue 30, item 1): CF-packed variables of netCDF4 and
netCDF3 files as codecs of VirtualiZarr's virtual arrays, written to Icechunk and kerchunk (v3)
and read back by a fresh process. The oracle is ``xr.open_dataset`` of the file itself.

The dependencies (virtualizarr, icechunk, kerchunk, obstore, h5py, netCDF4) are imported plainly:
a missing one fails the collection of this file, it does not skip it.
"""

from __future__ import annotations

import ast
import json
import pickle
import subprocess
import sys
import textwrap
import warnings
from pathlib import Path

import fsspec
import h5netcdf
import h5py
import icechunk
import kerchunk
import netCDF4
import numpy as np
import obstore
import pytest
import virtualizarr
import xarray as xr
import zarr
from obspec_utils.registry import ObjectStoreRegistry
from obstore.store import LocalStore, MemoryStore
from virtualizarr import open_virtual_dataset, open_virtual_mfdataset
from virtualizarr.manifests import ManifestGroup, ManifestStore
from virtualizarr.parsers import HDFParser, KerchunkJSONParser, NetCDF3Parser

import zarr_scale_offset as zso
from zarr_scale_offset import virtualizarr as zvz
from zarr_scale_offset.virtualizarr import cf_parser, cf_virtual_dataset

from conftest import bits

pytestmark = pytest.mark.filterwarnings("ignore::UserWarning")

#: The versions these tests pin (python/requirements-dev.txt).
PINNED = {
    virtualizarr: "2.8.0",
    icechunk: "2.3.0",
    kerchunk: "0.2.10",
    h5py: "3.16.0",
    h5netcdf: "1.8.3",
    netCDF4: "1.7.5.1.post1",
}


def _packed_variable(nc, *args, **kwargs):
    """``nc.createVariable`` with auto mask-and-scale off for the new variable: the
    Dataset-level ``set_auto_maskandscale(False)`` reaches only the variables that exist when it
    is called, so without this netCDF4 would pack the written codes as physical values."""
    v = nc.createVariable(*args, **kwargs)
    v.set_auto_maskandscale(False)
    return v


def _write_netcdf4(path: Path, *, scale: float = 0.01, offset: float = 273.15) -> None:
    """The variables of the must-show table, written by netCDF4 as packed codes (no auto
    scaling): every int16 code float64-packed; every int16 code with float32 scale_factor /
    add_offset; every int8 code with ``_Unsigned``; a chunked zlib+shuffle int16 variable with
    unwritten chunks and fill values inside written ones; an unpacked coordinate."""
    codes16 = np.arange(-32768, 32768, dtype=np.int16).reshape(256, 256)
    with netCDF4.Dataset(path, "w", format="NETCDF4") as nc:
        nc.set_auto_maskandscale(False)
        for d, n in (("y", 256), ("x", 256), ("b", 256), ("r", 40), ("c", 30)):
            nc.createDimension(d, n)
        y = _packed_variable(nc, "y", "f8", ("y",))
        y[:] = np.arange(256) * 0.5
        v = _packed_variable(nc, "i16_f64", "i2", ("y", "x"), fill_value=np.int16(-32768))
        v.scale_factor = np.float64(scale)
        v.add_offset = np.float64(offset)
        v.units = "K"
        v[:] = codes16
        v = _packed_variable(nc, "i16_f32", "i2", ("y", "x"), fill_value=np.int16(-1))
        v.scale_factor = np.float32(0.002)
        v.add_offset = np.float32(-12.5)
        v[:] = codes16
        v = _packed_variable(nc, "i8_unsigned", "i1", ("b",), fill_value=np.int8(-1))
        v._Unsigned = "true"
        v.scale_factor = np.float32(0.25)
        v.add_offset = np.float32(10.0)
        v[:] = np.arange(-128, 128, dtype=np.int16).astype(np.int8)
        v = _packed_variable(
            nc,
            "chunked",
            "i2",
            ("r", "c"),
            zlib=True,
            shuffle=True,
            chunksizes=(8, 10),
            fill_value=np.int16(-999),
        )
        v.scale_factor = np.float64(0.1)
        v.add_offset = np.float64(5.0)
        v.long_name = "chunked with fills"
        block = np.arange(16 * 30, dtype=np.int16).reshape(16, 30) * 7 - 1000
        block[3, 4] = block[10, 20] = -999
        v[0:16, :] = block  # rows 16..39: chunks never written (HDF5 fill value)
        v[24:32, 10:20] = 1234  # one chunk in the unwritten part


def _write_netcdf3(path: Path) -> None:
    """A netCDF3 (CDF-1) file: a record variable, int16 with float32 scale_factor / add_offset
    (NC_FLOAT attributes) and a _FillValue, big-endian on disk."""
    rng = np.random.default_rng(7)
    with netCDF4.Dataset(path, "w", format="NETCDF3_CLASSIC") as nc:
        nc.set_auto_maskandscale(False)
        nc.createDimension("time", None)
        nc.createDimension("x", 50)
        v = _packed_variable(nc, "nc3_i16_f32", "i2", ("time", "x"), fill_value=np.int16(-32767))
        v.scale_factor = np.float32(0.05)
        v.add_offset = np.float32(20.0)
        v.units = "degC"
        codes = rng.integers(-32768, 32768, (6, 50)).astype(np.int16)
        codes[2, 7] = -32767
        v[0:6, :] = codes
        w = _packed_variable(nc, "plain", "f4", ("x",))
        w[:] = np.arange(50, dtype=np.float32)


@pytest.fixture(scope="module")
def files(tmp_path_factory) -> dict[str, Path]:
    d = tmp_path_factory.mktemp("vz-files")
    out = {"nc4": d / "packed.nc", "nc3": d / "classic.nc"}
    _write_netcdf4(out["nc4"])
    _write_netcdf3(out["nc3"])
    return out


def _registry() -> ObjectStoreRegistry:
    return ObjectStoreRegistry({"file:///": LocalStore("/")})


def _url(p: Path) -> str:
    return p.resolve().as_uri()


#: (table row, file key, variable, parser) of the must-show table.
ROWS = [
    ("every int16 code, float64-packed", "nc4", "i16_f64", HDFParser),
    ("every int16 code, float32 scale_factor/add_offset", "nc4", "i16_f32", HDFParser),
    ("every int8 code, _Unsigned", "nc4", "i8_unsigned", HDFParser),
    ("chunked zlib+shuffle, fills, unwritten chunks", "nc4", "chunked", HDFParser),
    ("netCDF3 record variable, float32 packing", "nc3", "nc3_i16_f32", NetCDF3Parser),
]


def _in_memory_icechunk(vds: xr.Dataset, directory: Path):
    """``vds`` written to an in-memory Icechunk repository whose virtual chunks are the files
    of ``directory``; its read-only store."""
    repo = _icechunk(directory, vds, storage=icechunk.in_memory_storage())
    return repo.readonly_session("main").store


def _same(a: np.ndarray, b: np.ndarray) -> bool:
    return a.dtype == b.dtype and a.shape == b.shape and np.array_equal(bits(a), bits(b))


def _differing(got: np.ndarray, want: np.ndarray) -> int:
    """Values whose bits differ (NaN payloads aside), after casting ``got`` to ``want``'s type
    when the dtypes differ (the dtype is reported separately)."""
    g = np.asarray(got)
    if g.dtype != want.dtype:
        g = g.astype(want.dtype)
    nan = np.isnan(g) & np.isnan(want)
    return int(np.count_nonzero(~nan & (bits(g) != bits(want))))


def _expected(files: dict[str, Path]) -> dict[str, np.ndarray]:
    out = {}
    for _, key, var, _ in ROWS:
        with xr.open_dataset(files[key]) as ds:
            out[var] = ds[var].values
    return out


# ---------------------------------------------------------------------------------------------
# The parser on its own.


def test_the_pinned_versions_are_the_ones_installed():
    for mod, version in PINNED.items():
        assert mod.__version__ == version, mod.__name__
    assert obstore.__version__ == "0.12.1"


def test_cf_parser_arrays_read_as_open_dataset_bit_for_bit(files):
    want = _expected(files)
    for _, key, var, parser in ROWS:
        store = cf_parser(parser())(_url(files[key]), _registry())
        ds = xr.open_zarr(store, consolidated=False, zarr_format=3)
        got = ds[var].values
        assert _same(got, want[var]), var
        # The CF keys left the attributes; the others stayed.
        assert not set(zvz.CF_ATTRIBUTES) & set(ds[var].attrs), var
        meta = ds[var].encoding
        assert meta["filters"][0].codec_name == "cf.scale_offset", var
    # The oracle does not depend on xarray's engine: netCDF4 (the default) and h5netcdf agree.
    with (
        xr.open_dataset(files["nc4"], engine="netcdf4") as a,
        xr.open_dataset(files["nc4"], engine="h5netcdf") as b,
    ):
        assert a["i16_f32"].dtype == np.float32  # float32 attributes: float32 values
        for _, key, var, _ in ROWS:
            if key == "nc4":
                assert _same(a[var].values, b[var].values), var


def test_float32_attributes_stay_float32_where_virtualizarr_alone_gives_float64(files):
    url = _url(files["nc4"])
    plain = HDFParser()(url, _registry())
    attrs = plain._group.arrays["i16_f32"].metadata.attributes
    # VirtualiZarr 2.8.0 hands a Python float on (docs/UPSTREAM.md).
    assert type(attrs["scale_factor"]) is float
    ours = cf_parser(HDFParser())(url, _registry())
    meta = ours._group.arrays["i16_f32"].metadata
    assert meta.data_type.to_json(zarr_format=3) == "float32"
    # cf_virtual_dataset over VirtualiZarr's own dataset: the override restores the type.
    vds = open_virtual_dataset(url, registry=_registry(), parser=HDFParser())
    assert cf_virtual_dataset(vds)["i16_f32"].dtype == np.float64
    assert cf_virtual_dataset(vds, float_dtype="float32")["i16_f64"].dtype == np.float32
    fixed = cf_virtual_dataset(vds, float_dtype={"i16_f32": "float32", "i8_unsigned": "float32"})
    assert fixed["i16_f32"].dtype == np.float32
    assert fixed["i16_f64"].dtype == np.float64
    with xr.open_dataset(files["nc4"]) as want:
        for var in ("i16_f32", "i16_f64", "i8_unsigned", "chunked"):
            store = _in_memory_icechunk(fixed[[var]], files["nc4"].parent)
            got = xr.open_zarr(store, consolidated=False, zarr_format=3)[var].values
            assert _same(got, want[var].values), var


def test_other_arrays_and_groups_pass_unchanged(tmp_path):
    p = tmp_path / "groups.nc"
    with netCDF4.Dataset(p, "w") as nc:
        nc.set_auto_maskandscale(False)
        nc.createDimension("x", 4)
        a = _packed_variable(nc, "plain", "f4", ("x",))
        a[:] = [1, 2, 3, 4]
        m = _packed_variable(nc, "masked_only", "i2", ("x",), fill_value=np.int16(-1))
        m[:] = [1, -1, 3, 4]
        g = nc.createGroup("sub")
        s = _packed_variable(g, "packed", "i2", ("x",))
        s.scale_factor = np.float32(0.5)
        s.add_offset = np.float32(1.0)
        s[:] = [0, 1, 2, 3]
        t = _packed_variable(g, "time", "i4", ("x",))
        t.units = "days since 2000-01-01"
        t.scale_factor = 2
        t[:] = [0, 1, 2, 3]
    plain = HDFParser()(_url(p), _registry())
    ours = cf_parser(HDFParser())(_url(p), _registry())
    for name in ("plain", "masked_only"):
        assert (
            ours._group.arrays[name].metadata.to_dict()
            == plain._group.arrays[name].metadata.to_dict()
        )
    assert ours._group.metadata.attributes == plain._group.metadata.attributes
    sub = ours._group.groups["sub"]
    # Time-like packing is left to xarray (it decodes to datetimes).
    assert sub.arrays["time"].metadata.to_dict() == (
        plain._group.groups["sub"].arrays["time"].metadata.to_dict()
    )
    assert sub.arrays["packed"].metadata.codecs[0].to_dict()["name"] == "cf.scale_offset"
    with xr.open_dataset(p, group="sub") as want:
        got = xr.open_zarr(ours, group="sub", consolidated=False, zarr_format=3)
        assert _same(got["packed"].values, want["packed"].values)


def test_remote_stores_through_the_registry(files):
    """The attributes are read through the parser's registry: an obstore MemoryStore, never a
    local path."""
    want = _expected(files)
    mem = MemoryStore()
    for key in ("nc4", "nc3"):
        mem.put(f"data/{files[key].name}", files[key].read_bytes())
    registry = ObjectStoreRegistry({"memory://bucket": mem})
    for _, key, var, parser in ROWS:
        store = cf_parser(parser())(f"memory://bucket/data/{files[key].name}", registry)
        got = xr.open_zarr(store, consolidated=False, zarr_format=3)[var].values
        assert _same(got, want[var]), var


def test_netcdf3_header_attributes_are_typed_as_netcdf4_gives_them(files):
    with open(files["nc3"], "rb") as f:
        attrs = zvz._nc3_attributes(f)
    with netCDF4.Dataset(files["nc3"]) as nc:
        for var in ("nc3_i16_f32", "plain"):
            want = {k: nc[var].getncattr(k) for k in nc[var].ncattrs()}
            assert attrs[var].keys() == want.keys()
            for k, v in want.items():
                assert type(attrs[var][k]) is type(v), (var, k)
                assert attrs[var][k] == v, (var, k)


def test_open_virtual_dataset_and_the_parser_pickles(files):
    p = cf_parser(HDFParser())
    assert isinstance(pickle.loads(pickle.dumps(p)), zvz.CFParser)
    vds = open_virtual_dataset(_url(files["nc4"]), registry=_registry(), parser=p)
    assert vds["i16_f32"].dtype == np.float32
    assert "scale_factor" not in vds["i16_f64"].attrs
    assert vds["i16_f64"].attrs["units"] == "K"


def test_other_formats_keep_their_parser_types_with_a_warning(files, tmp_path):
    """A source that is neither HDF5 nor netCDF3 (here VirtualiZarr's kerchunk JSON parser):
    the attributes as the parser gives them, said in a warning. Python floats decode as
    float64, so a float32-packed variable comes out float64 where ``open_dataset`` of the
    original file gives float32; the float64-packed ones read bit-equal."""
    src = tmp_path / "packed.nc"
    src.write_bytes(files["nc4"].read_bytes())
    vds = open_virtual_dataset(_url(src), registry=_registry(), parser=HDFParser())
    # (VirtualiZarr's own kerchunk round trip of an unpacked float variable fails to open:
    # its `_FillValue: NaN` comes back as a float, not xarray's Zarr encoding.)
    vds.drop_vars("y").vz.to_kerchunk(str(tmp_path / "refs.json"), format="json")
    with pytest.warns(UserWarning, match="neither HDF5 nor netCDF3"):
        store = cf_parser(KerchunkJSONParser())(_url(tmp_path / "refs.json"), _registry())
    got = xr.open_zarr(store, consolidated=False, zarr_format=3)
    with xr.open_dataset(src) as want:
        for var in ("i16_f64", "chunked"):
            assert _same(got[var].values, want[var].values), var
        assert want["i16_f32"].dtype == np.float32
        assert got["i16_f32"].dtype == np.float64


def test_zarr_own_cast_value_is_handed_an_aligned_copy():
    """cast-value-rs 0.5.1 panics on a buffer not aligned for its type (what an obstore
    MemoryStore behind a ManifestStore gives for a variable at an odd file offset); the guard
    around zarr-python's own cast_value copies such a chunk first."""
    from zarr.core.array_spec import ArrayConfig, ArraySpec
    from zarr.core.buffer import default_buffer_prototype
    from zarr.core.buffer.cpu import NDBuffer
    from zarr.core.dtype import Float32

    from zarr_scale_offset._guard import ZarrCastValue

    # (What zarr-python's registry gives for cast_value unless use_everywhere() was called.)
    codec = ZarrCastValue.from_dict({"name": "cast_value", "configuration": {"data_type": "int16"}})
    raw = np.zeros(9, dtype=np.uint8)
    raw[1:9] = np.array([1, -2, 300, 7], dtype="<i2").view(np.uint8)
    unaligned = np.frombuffer(raw.data, dtype="<i2", offset=1, count=4)
    assert not unaligned.flags.aligned
    spec = ArraySpec(
        shape=(4,),
        dtype=Float32(),
        fill_value=np.float32(0),
        config=ArrayConfig.from_dict({}),
        prototype=default_buffer_prototype(),
    )
    out = codec._decode_sync(NDBuffer.from_numpy_array(unaligned), spec)
    assert out.as_numpy_array().tolist() == [1.0, -2.0, 300.0, 7.0]


def test_refusals_are_coded_errors(tmp_path):
    with pytest.raises(zso.InvalidMetadataError) as e:
        cf_parser(HDFParser(), codec="fixedscaleoffset")
    assert e.value.code == "invalid_metadata"
    p = tmp_path / "bad.nc"
    with h5py.File(p, "w") as f:
        d = f.create_dataset("v", data=np.arange(4, dtype=np.int16))
        d.attrs["scale_factor"] = np.array([0.5, 2.0])  # two values: no codec
    with pytest.raises(zso.InvalidMetadataError) as e:
        cf_parser(HDFParser())(_url(p), _registry())
    assert e.value.code == "invalid_metadata"
    assert e.value.message.startswith("v: ")


def test_the_private_virtualizarr_access_is_one_function_and_still_there(files):
    """VirtualiZarr has no public way to replace a ManifestStore's arrays: the module's one
    private access (``_replace_group``) must fail loudly, with a coded error, when
    VirtualiZarr changes ``ManifestStore._group`` / ``_registry``."""
    store = HDFParser()(_url(files["nc4"]), _registry())
    assert isinstance(store._group, ManifestGroup)
    assert isinstance(store._registry, ObjectStoreRegistry)
    same = zvz._replace_group(store, lambda g: g)
    assert isinstance(same, ManifestStore) and same._group is store._group

    class Changed(ManifestStore):
        def __init__(self):  # a ManifestStore without the attributes
            pass

    with pytest.raises(zvz.VirtualiZarrChangedError) as e:
        zvz._replace_group(Changed(), lambda g: g)
    assert e.value.code == "internal"
    assert "2.8.0" in e.value.message
    # No other function of the module touches them.
    tree = ast.parse(Path(zvz.__file__).read_text())
    users = set()
    for fn in ast.walk(tree):
        if isinstance(fn, ast.FunctionDef):
            for node in ast.walk(fn):
                name = getattr(node, "attr", None) or getattr(node, "value", None)
                if name in ("_group", "_registry"):
                    users.add(fn.name)
    assert users == {"_replace_group"}


# ---------------------------------------------------------------------------------------------
# Concatenation.


def _pair(tmp_path: Path, scale_b: float) -> list[str]:
    urls = []
    for i, scale in enumerate((0.01, scale_b)):
        p = tmp_path / f"f{i}.nc"
        with netCDF4.Dataset(p, "w") as nc:
            nc.set_auto_maskandscale(False)
            nc.createDimension("time", 2)
            nc.createDimension("x", 5)
            t = _packed_variable(nc, "time", "f8", ("time",))
            t[:] = [2 * i, 2 * i + 1]
            v = _packed_variable(nc, "t", "i2", ("time", "x"), fill_value=np.int16(-32768))
            v.scale_factor = np.float64(scale)
            v.add_offset = np.float64(273.15)
            v[:] = (np.arange(10).reshape(2, 5) * (i + 1) * 100 - 1000).astype(np.int16)
            v[0, 0] = -32768
        urls.append(_url(p))
    return urls


def test_files_packed_differently_are_refused_at_concat(tmp_path):
    urls = _pair(tmp_path, 0.02)
    with pytest.raises(NotImplementedError, match="different codecs") as e:
        open_virtual_mfdataset(
            urls,
            registry=_registry(),
            parser=cf_parser(HDFParser()),
            combine="nested",
            concat_dim="time",
        )
    # VirtualiZarr's own error, naming both packings.
    msg = str(e.value)
    assert "CFScaleOffset(configuration={'scale': 0.01, 'offset': 273.15})" in msg
    assert "CFScaleOffset(configuration={'scale': 0.02, 'offset': 273.15})" in msg
    # Without cf_parser VirtualiZarr concatenates, keeping the first file's scale_factor for
    # both (VirtualiZarr #1004): the second file's values come out halved.
    silent = open_virtual_mfdataset(
        urls, registry=_registry(), parser=HDFParser(), combine="nested", concat_dim="time"
    )
    assert silent["t"].attrs["scale_factor"] == 0.01


def test_files_packed_alike_concatenate_and_read_as_open_dataset(tmp_path):
    urls = _pair(tmp_path, 0.01)
    vds = open_virtual_mfdataset(
        urls, registry=_registry(), parser=cf_parser(HDFParser()), combine="nested",
        concat_dim="time",
    )  # fmt: skip
    repo = _icechunk(tmp_path, vds)
    got = xr.open_zarr(repo.readonly_session("main").store, consolidated=False, zarr_format=3)
    want = xr.concat([xr.open_dataset(u.removeprefix("file://")) for u in urls], dim="time")
    assert _same(got["t"].values, want["t"].values)


# ---------------------------------------------------------------------------------------------
# Icechunk and kerchunk, read by a fresh process.


def _icechunk(
    tmp_path: Path, vds: xr.Dataset, name: str = "repo", storage=None
) -> icechunk.Repository:
    """``vds`` committed to an Icechunk repository (on disk under ``tmp_path / name``, or in
    ``storage``) whose virtual chunks are the files of ``tmp_path``."""
    prefix = f"file://{tmp_path.resolve()}/"
    config = icechunk.RepositoryConfig.default()
    config.set_virtual_chunk_container(
        icechunk.VirtualChunkContainer(prefix, icechunk.local_filesystem_store(str(tmp_path)))
    )
    repo = icechunk.Repository.create(
        storage or icechunk.local_filesystem_storage(str(tmp_path / name)),
        config,
        authorize_virtual_chunk_access=icechunk.containers_credentials(
            {prefix: icechunk.credentials.LocalFileSystemAccess}
        ),
    )
    session = repo.writable_session("main")
    vds.vz.to_icechunk(session.store)
    session.commit("virtual references")
    return repo


#: A fresh process: reads the Icechunk repository and/or the kerchunk v3 JSON under ``root``
#: through ``xr.open_zarr`` and ``zarr.open_group``, never importing this package.
READER = textwrap.dedent(
    """
    import json, sys
    import numpy as np, xarray as xr, zarr, fsspec, icechunk
    from zarr.storage import FsspecStore
    root, kinds, out, names = sys.argv[1], sys.argv[2].split(","), sys.argv[3], sys.argv[4]
    def store(kind):
        if kind == "kerchunk":
            fs = fsspec.filesystem("reference", fo=root + "/refs.json", asynchronous=True)
            return FsspecStore(fs, read_only=True)
        prefix = "file://" + root + "/"
        repo = icechunk.Repository.open(
            icechunk.local_filesystem_storage(root + "/repo"),
            authorize_virtual_chunk_access=icechunk.containers_credentials(
                {prefix: icechunk.credentials.LocalFileSystemAccess}
            ),
        )
        return repo.readonly_session("main").store
    arrays = {}
    for kind in kinds:
        ds = xr.open_zarr(store(kind), consolidated=False, zarr_format=3)
        g = zarr.open_group(store(kind), mode="r", zarr_format=3)
        for name in json.loads(names):
            arrays[f"{kind}/xr/{name}"] = ds[name].values
            arrays[f"{kind}/zarr/{name}"] = g[name][...]
    np.savez(out, **arrays)
    print(json.dumps({"package_loaded": sys.modules.get("zarr_scale_offset") is not None}))
    """
)

#: Prepended to READER: this package cannot be imported and its entry points are hidden, so
#: zarr-python decodes with its own codecs only.
WITHOUT_PACKAGE = textwrap.dedent(
    """
    import sys, importlib.metadata as md
    sys.modules["zarr_scale_offset"] = None
    _entry_points = md.entry_points
    def entry_points(**kw):
        eps = _entry_points(**kw)
        return md.EntryPoints(e for e in eps if not e.value.startswith("zarr_scale_offset"))
    md.entry_points = entry_points
    """
)


def _fresh_read(root: Path, kinds: str, names: list[str], prelude: str = "") -> dict:
    out = root / f"read-{kinds.replace(',', '-')}.npz"
    r = subprocess.run(
        [sys.executable, "-c", prelude + READER, str(root), kinds, str(out), json.dumps(names)],
        capture_output=True,
        text=True,
        check=False,
    )
    assert r.returncode == 0, r.stderr[-3000:]
    with np.load(out) as z:
        arrays = dict(z)
    return {"loaded": json.loads(r.stdout.strip().splitlines()[-1])["package_loaded"], **arrays}


FORMS = ("cf.scale_offset", "scale_offset", "none")


@pytest.fixture(scope="module")
def archives(files, tmp_path_factory) -> dict[tuple[str, str], Path]:
    """Each file through cf_parser (both codec forms) and through the plain parser ("none")
    into an Icechunk repository and a kerchunk v3 JSON, in a directory of their own next to a
    copy of the file (the Icechunk virtual chunk container)."""
    out = {}
    for key in ("nc4", "nc3"):
        for form in FORMS:
            root = tmp_path_factory.mktemp(f"{key}-{form}").resolve()
            src = root / files[key].name
            src.write_bytes(files[key].read_bytes())
            parser = {"nc4": HDFParser, "nc3": NetCDF3Parser}[key]()
            if form != "none":
                parser = cf_parser(parser, codec=form)
            vds = open_virtual_dataset(_url(src), registry=_registry(), parser=parser)
            _icechunk(root, vds)
            vds.vz.to_kerchunk(str(root / "refs.json"), format="json", zarr_format=3)
            out[key, form] = root
    return out


def _names(key: str) -> list[str]:
    return [var for _, k, var, _ in ROWS if k == key]


def test_icechunk_and_kerchunk_v3_read_by_a_fresh_process_bit_equal(files, archives):
    """Every variable of the table through cf_parser, Icechunk and kerchunk v3, read by
    ``xr.open_zarr`` and ``zarr.open_group`` in a process that never imports this package
    (zarr-python loads it through the ``cf.scale_offset`` entry point): the values and dtype
    of ``xr.open_dataset`` of the file, bit for bit."""
    want = _expected(files)
    for key in ("nc4", "nc3"):
        got = _fresh_read(archives[key, "cf.scale_offset"], "icechunk,kerchunk", _names(key))
        assert got["loaded"]  # by the entry point: the reader never imports it
        for var in _names(key):
            for kind in ("icechunk", "kerchunk"):
                for reader in ("xr", "zarr"):
                    g = got[f"{kind}/{reader}/{var}"]
                    assert g.dtype == want[var].dtype, (kind, reader, var)
                    assert _same(g, want[var]), (kind, reader, var, _differing(g, want[var]))


def test_the_scale_offset_form_reads_without_the_package(files, archives):
    """``codec="scale_offset"``: zarr-python alone (this package not importable, its entry
    points hidden) reads it, with the dtype of ``xr.open_dataset``; the values that differ
    from ``decode_cf`` (``scale_offset`` divides by 1/scale_factor) are what the table of
    docs/guides/virtual-stores.md counts."""
    want = _expected(files)
    for key in ("nc4", "nc3"):
        got = _fresh_read(
            archives[key, "scale_offset"], "icechunk", _names(key), prelude=WITHOUT_PACKAGE
        )
        assert not got["loaded"]
        for var in _names(key):
            assert got[f"icechunk/xr/{var}"].dtype == want[var].dtype, var
            assert _same(got[f"icechunk/zarr/{var}"], got[f"icechunk/xr/{var}"]), var
    # The divide is not decode_cf's multiply: some values differ.
    assert _differing(got["icechunk/xr/nc3_i16_f32"], want["nc3_i16_f32"]) > 0


def _read_here(root: Path, kind: str, var: str) -> np.ndarray:
    if kind == "kerchunk":
        fs = fsspec.filesystem("reference", fo=str(root / "refs.json"), asynchronous=True)
        store = zarr.storage.FsspecStore(fs, read_only=True)
    else:
        prefix = f"file://{root}/"
        repo = icechunk.Repository.open(
            icechunk.local_filesystem_storage(str(root / "repo")),
            authorize_virtual_chunk_access=icechunk.containers_credentials(
                {prefix: icechunk.credentials.LocalFileSystemAccess}
            ),
        )
        store = repo.readonly_session("main").store
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        return xr.open_zarr(store, consolidated=False, zarr_format=3)[var].values


def test_the_must_show_table(files, archives):
    """The table of docs/guides/virtual-stores.md ("Exactness"): per variable, the values
    differing from ``xr.open_dataset`` of the file (bits; rounded to its dtype first where the
    dtype differs, which is then shown) through Icechunk and kerchunk v3 with cf_parser, with
    its ``scale_offset`` form, and with VirtualiZarr alone (CF attributes kept, decoded by
    ``xr.open_zarr``)."""
    want = _expected(files)
    rows = {}
    for label, key, var, _ in ROWS:
        w = want[var]
        cells = [label, w.size, str(w.dtype)]
        for form, kind in (
            ("cf.scale_offset", "icechunk"),
            ("cf.scale_offset", "kerchunk"),
            ("scale_offset", "icechunk"),
            ("none", "icechunk"),
        ):
            g = _read_here(archives[key, form], kind, var)
            cells.append(f"{_differing(g, w)}" + ("" if g.dtype == w.dtype else f" ({g.dtype})"))
        rows[var] = cells
    print("\n| variable | values | dtype | cf_parser, Icechunk | cf_parser, kerchunk v3 "
          "| scale_offset form | VirtualiZarr alone |")  # fmt: skip
    for cells in rows.values():
        print("| " + " | ".join(str(c) for c in cells) + " |")
    for var, cells in rows.items():
        assert cells[3] == "0" and cells[4] == "0", var
    # VirtualiZarr alone loses the float32 attribute type (docs/UPSTREAM.md).
    assert "(float64)" in rows["i16_f32"][6] and "(float64)" in rows["nc3_i16_f32"][6]


def test_the_package_imports_without_virtualizarr():
    code = (
        "import sys; sys.modules['virtualizarr'] = None; import zarr_scale_offset; "
        "print('imported'); import zarr_scale_offset.virtualizarr"
    )
    r = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=False)
    assert r.stdout.strip() == "imported" and r.returncode != 0
    assert "pip install 'zarr-scale-offset[virtualizarr]'" in r.stderr
    assert "Traceback" in r.stderr and "zarr_scale_offset.virtualizarr" in r.stderr


def test_node_reads_the_kerchunk_v3_references_through_zarrita(files, archives, tmp_path):
    """Issue 30, item 4: Node, zarrita's ReferenceStore (@zarrita/storage) and this package's
    codecs registered with zarrita: every variable of the netCDF4 file through the kerchunk v3
    references of cf_parser (the chunks read from inside the file: byte ranges, zlib +
    shuffle for `chunked`), and of the netCDF3 file, bit-equal to ``xr.open_dataset``."""
    root = Path(__file__).resolve().parents[2]
    if not (root / "dist" / "index.js").exists():
        pytest.fail("dist/index.js is missing: run `npm run build` first")
    want = _expected(files)
    for key in ("nc4", "nc3"):
        _node_read(archives[key, "cf.scale_offset"], _names(key), want, tmp_path)


def _node_read(archive: Path, names: list[str], want: dict, tmp_path: Path) -> None:
    import json
    import subprocess

    r = subprocess.run(
        [
            "node",
            str(Path(__file__).with_name("node_kerchunk.mjs")),
            str(archive / "refs.json"),
            str(tmp_path),
            *names,
        ],
        capture_output=True,
        text=True,
        check=False,
    )
    assert r.returncode == 0, r.stderr[-2000:]
    got = json.loads(r.stdout)
    for var in names:
        assert "error" not in got[var], (var, got[var])
        w = want[var]
        assert got[var]["dtype"] == str(w.dtype), var
        g = np.frombuffer((tmp_path / f"{var}.bin").read_bytes(), w.dtype.newbyteorder("<"))
        assert _same(g.reshape(w.shape), w), (var, _differing(g.reshape(w.shape), w))
