"""``migrate``: CF-attribute Zarr v3 stores (as xarray writes them) turned into codec form in
place (issue 30, item 3). The oracle is xarray reading the store before migration
(``xr.open_zarr`` decodes the CF attributes); chunks are compared by hash before and after."""

from __future__ import annotations

import hashlib
import json
import shutil
import subprocess
import sys
import warnings
from pathlib import Path

import numpy as np
import pytest

import zarr_scale_offset as zso

from conftest import assert_chunks_equal_in_node, bits

xr = pytest.importorskip("xarray")
zarr = pytest.importorskip("zarr")

pytestmark = pytest.mark.filterwarnings("ignore::UserWarning")


def _files(root: Path) -> dict[str, str]:
    return {
        str(p.relative_to(root)): hashlib.sha256(p.read_bytes()).hexdigest()
        for p in sorted(root.rglob("*"))
        if p.is_file()
    }


def _write_store(
    path: Path, *, compress: bool = True, consolidated: bool = True, zarr_format: int = 3
) -> None:
    """Two groups of CF-packed variables as xarray 2026.9 writes them (zarr_format=3): int16
    with scale/offset/_FillValue (one chunk all `add_offset`, so code 0 = the array's
    fill_value: xarray does not store it), uint16 with scale_factor only, a float variable
    with a NaN _FillValue (nothing to migrate), an int8 with _FillValue only (masking only)."""
    rng = np.random.default_rng(29)
    t = np.round(rng.uniform(250, 320, (6, 8)), 2)
    t[0, 0] = np.nan
    t[4:6, 4:8] = 273.15  # one chunk of code 0 everywhere: not stored
    q = rng.integers(0, 4000, (6, 8)) * 0.25
    ds = xr.Dataset(
        {
            "t": (("y", "x"), t, {"units": "K", "long_name": "temperature"}),
            "q": (("y", "x"), q),
            "f": (("y", "x"), rng.uniform(0, 1, (6, 8))),
            "m": (("y", "x"), rng.integers(0, 5, (6, 8)).astype(np.int8)),
        }
    )
    extra = {} if compress else {"compressors": None}
    ds["t"].encoding = {
        "dtype": "int16",
        "scale_factor": 0.01,
        "add_offset": 273.15,
        "_FillValue": -32768,
        "chunks": (2, 4),
        **extra,
    }
    ds["q"].encoding = {"dtype": "uint16", "scale_factor": 0.25, "chunks": (3, 4), **extra}
    ds["m"].encoding = {"_FillValue": np.int8(-1), **extra}
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        ds.to_zarr(path, zarr_format=zarr_format, consolidated=consolidated)
        ds[["t"]].to_zarr(path, group="sub", zarr_format=zarr_format, consolidated=consolidated)


def _decoded(path: Path, group: str | None = None, consolidated: bool | None = None) -> dict:
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        ds = xr.open_zarr(path, group=group, consolidated=consolidated)
        return {k: ds[k].values for k in ds.data_vars}


def _same(a: np.ndarray, b: np.ndarray) -> bool:
    return a.dtype == b.dtype and a.shape == b.shape and np.array_equal(bits(a), bits(b))


@pytest.fixture
def store(tmp_path) -> tuple[Path, Path]:
    """(the store to migrate, an untouched copy)."""
    path = tmp_path / "cf.zarr"
    _write_store(path)
    ref = tmp_path / "ref.zarr"
    shutil.copytree(path, ref)
    return path, ref


def test_migrate_reads_back_what_decode_cf_gave_and_rewrites_no_chunk(store):
    path, ref = store
    before = _files(path)
    report = zso.migrate(path)
    assert sorted(a.path for a in report.arrays) == ["q", "sub/t", "t"]
    assert report.skipped == {"m": "CF masking attributes only (no scale_factor/add_offset)"}
    after = _files(path)
    changed = {k for k in after if after[k] != before.get(k)}
    # The arrays, and the root (its consolidated metadata lists every node, sub/t included).
    assert changed == {"zarr.json", "t/zarr.json", "q/zarr.json", "sub/t/zarr.json"}
    assert set(after) == set(before)  # no chunk added or removed; the others byte-identical
    # Values: bit-equal to xarray's decode of the old form, dtype included, through the
    # consolidated metadata and without it.
    for group in (None, "sub"):
        want = _decoded(ref, group)
        for consolidated in (True, False):
            got = _decoded(path, group, consolidated)
            assert set(got) == set(want)
            for name in want:
                assert _same(got[name], want[name]), (group, name, consolidated)
    t = zarr.open_array(path / "t")
    assert t.dtype == np.float64 and np.isnan(t[0, 0]) and t[5, 7] == 273.15
    assert not (path / "t" / "c" / "2" / "1").exists()  # the unstored chunk, read as 273.15
    meta = json.loads((path / "t" / "zarr.json").read_text())
    assert meta["fill_value"] == 273.15
    assert [c["name"] for c in meta["codecs"]] == ["cf.scale_offset", "cast_value", "bytes", "zstd"]
    assert meta["attributes"] == {"units": "K", "long_name": "temperature"}
    assert report.arrays[0].chunks_verified >= 3
    assert "would" not in str(report) and "t: int16 -> float64" in str(report)


def test_a_dry_run_writes_nothing_and_a_second_run_is_a_no_op(store):
    path, _ = store
    before = _files(path)
    plan = zso.migrate(path, dry_run=True)
    assert _files(path) == before and plan.written == [] and len(plan.arrays) == 3
    assert str(plan).startswith("dry run: would migrate 3 array(s)")
    done = zso.migrate(path)
    assert done.written
    once = _files(path)
    again = zso.migrate(path)
    assert again.arrays == [] and again.written == [] and _files(path) == once


def test_a_fresh_process_reads_the_migrated_store_through_entry_points(store):
    path, ref = store
    zso.migrate(path)
    code = (
        "import sys, json, zarr, numpy as np\n"
        "assert 'zarr_scale_offset' not in sys.modules\n"
        f"a = zarr.open_array({str(path / 't')!r})[:]\n"
        "print(json.dumps([a.dtype.str, a.view('u8').ravel().tolist()]))\n"
    )
    r = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=False)
    assert r.returncode == 0, r.stderr[-2000:]
    dtype, codes = json.loads(r.stdout)
    want = _decoded(ref)["t"]
    assert dtype == "<f8" and codes == want.view("u8").ravel().tolist()


def test_node_reads_a_migrated_store_bit_equal(tmp_path):
    path = tmp_path / "plain.zarr"
    _write_store(path, compress=False, consolidated=False)
    ref = _decoded(path)["t"]
    zso.migrate(path)
    arr = zarr.open_array(path / "t")
    assert _same(arr[:], ref)
    assert assert_chunks_equal_in_node(path / "t", arr, tmp_path) == 5  # 6 chunks, 1 unstored


def test_migrating_one_variable_and_refusals_write_nothing(store, tmp_path):
    path, _ = store
    report = zso.migrate(path, variables=["q"])
    assert [a.path for a in report.arrays] == ["q"]
    assert "scale_factor" in json.loads((path / "t" / "zarr.json").read_text())["attributes"]
    with pytest.raises(zso.MigrationError, match="no such array"):
        zso.migrate(path, variables=["nope"])
    # Packing no codec reproduces (a list scale_factor alone: xarray decodes to dtype object).
    meta_path = path / "t" / "zarr.json"
    meta = json.loads(meta_path.read_text())
    meta["attributes"] = {"scale_factor": [0.5]}
    meta_path.write_text(json.dumps(meta))
    before = _files(path)
    with pytest.raises(zso.MigrationError) as e:
        zso.migrate(path)
    assert e.value.code == "invalid_metadata" and e.value.path == "t"
    assert _files(path) == before
    # An integer scale_factor with a fill value (v2's fill_value is xarray's _FillValue):
    # xarray cannot decode it either ("cannot convert float NaN to integer").
    v2 = tmp_path / "v2.zarr"
    zarr.create_array(v2, shape=(2,), dtype="int16", zarr_format=2, attributes={"scale_factor": 2})
    before = _files(v2)
    with pytest.raises(zso.MigrationError, match="cannot hold NaN"):
        zso.migrate(v2)
    assert _files(v2) == before


def test_the_command_line(store):
    path, _ = store
    run = [sys.executable, "-m", "zarr_scale_offset", "migrate", str(path)]
    r = subprocess.run([*run, "--dry-run"], capture_output=True, text=True, check=False)
    assert r.returncode == 0 and "would migrate 3 array(s)" in r.stdout, r.stderr
    r = subprocess.run(run, capture_output=True, text=True, check=False)
    assert r.returncode == 0 and "migrated 3 array(s)" in r.stdout, r.stderr
    r = subprocess.run([*run, "--variable", "nope"], capture_output=True, text=True, check=False)
    assert r.returncode == 1 and "error (invalid_metadata)" in r.stderr


CF_STORES = Path(__file__).resolve().parents[2] / "tests" / "fixtures" / "cf_stores"


@pytest.mark.parametrize(
    "name",
    sorted(p.name for p in CF_STORES.glob("*.zarr")),
)
def test_the_cf_fixture_stores_migrate_to_their_expected_values(name, tmp_path):
    # The CF-attribute stores of tests/fixtures/cf_stores (xarray 2026.9.0 writes; Zarr v3 with
    # zstd, v2 with blosc; float32 attributes, missing_value, _FillValue, consolidated or not):
    # expected.bin is xr.open_zarr of the store before migration.
    path = tmp_path / name
    shutil.copytree(CF_STORES / name, path)
    meta = json.loads((path / "expected.json").read_text())
    before = _files(path)
    report = zso.migrate(path)
    assert [a.path for a in report.arrays] == [meta["variable"]]
    after = _files(path)
    metadata = {"zarr.json", f"{meta['variable']}/zarr.json"}
    assert {k for k in after if after[k] != before.get(k)} <= metadata  # v2: added beside
    assert all(after[k] == v for k, v in before.items() if k not in metadata)
    arr = zarr.open_array(path / meta["variable"])
    assert arr.metadata.zarr_format == 3
    got = np.asarray(arr[:])
    assert str(got.dtype) == meta["data_type"]
    want = np.frombuffer((path / "expected.bin").read_bytes(), got.dtype.newbyteorder("<"))
    assert np.array_equal(bits(got.ravel()), bits(want.astype(got.dtype)))
    assert int(np.isnan(got).sum()) == meta["nan_count"]
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        via_xarray = xr.open_zarr(path)[meta["variable"]].values
    assert _same(via_xarray, got)
    assert zarr.open_group(path).metadata.zarr_format == 3
    assert zso.migrate(path).written == []  # a second run: nothing to do


def test_an_xarray_v2_store_gets_v3_metadata_beside_and_reads_the_same(tmp_path):
    # xarray's v2 conventions: the fill_value is the _FillValue it masks with (the int8 `m`
    # with fill -1 is masked to float32 too), _ARRAY_DIMENSIONS names the dimensions, .zmetadata
    # consolidates. After migration zarr-python and xarray read the v3 metadata; the v2 files
    # and every chunk are untouched.
    path = tmp_path / "v2.zarr"
    _write_store(path, zarr_format=2)
    ref = tmp_path / "ref.zarr"
    shutil.copytree(path, ref)
    before = _files(path)
    report = zso.migrate(path)
    assert sorted(a.path for a in report.arrays) == ["q", "sub/t", "t"]
    after = _files(path)
    assert all(after[k] == v for k, v in before.items())  # nothing changed, only added
    added = {k for k in after if k not in before}
    assert {k for k in added if not k.endswith("zarr.json")} == set()
    assert {"zarr.json", "t/zarr.json", "q/zarr.json", "m/zarr.json", "sub/t/zarr.json"} <= added
    for group in (None, "sub"):
        want = _decoded(ref, group)
        got = _decoded(path, group)
        assert set(got) == set(want)
        for name in want:
            assert _same(got[name], want[name]), (group, name)
    t = zarr.open_array(path / "t")
    assert t.metadata.zarr_format == 3 and t.dtype == np.float64
    assert zarr.open_group(path).metadata.zarr_format == 3
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        ds = xr.open_zarr(path)
    # xarray read the v3 metadata: the packing is in the codecs, not in the encoding.
    assert "scale_factor" not in ds.t.encoding and ds.t.encoding["dtype"] == np.float64
    root = json.loads((path / "zarr.json").read_text())
    assert "t" in root["consolidated_metadata"]["metadata"]
    assert zso.migrate(path).written == []


def test_a_sharded_cf_attribute_array(tmp_path):
    # Shards of 2 x 2 inner chunks: the sample regions are whole shards (the stored objects).
    path = tmp_path / "sharded.zarr"
    codes = np.arange(-40, 40, dtype=np.int16).reshape(8, 10)
    arr = zarr.create_array(
        path,
        shape=(8, 10),
        chunks=(2, 5),
        shards=(4, 10),
        dtype="int16",
        fill_value=0,
        attributes={"scale_factor": 0.5, "add_offset": 100.0, "_FillValue": -40},
        dimension_names=["y", "x"],
    )
    arr[:] = codes
    want = xr.conventions.decode_cf_variable(
        "v", xr.Variable(("y", "x"), codes, attrs=dict(arr.attrs))
    ).values
    report = zso.migrate(path)
    assert report.arrays[0].chunks_verified == 2  # the two shards
    got = zarr.open_array(path)[:]
    assert _same(got, want) and np.isnan(got[0, 0]) and got[0, 1] == 100.0 - 19.5


def test_an_icechunk_repository_one_metadata_only_commit(tmp_path):
    icechunk = pytest.importorskip("icechunk", reason="icechunk is in requirements-dev.txt")
    repo = icechunk.Repository.create(icechunk.local_filesystem_storage(str(tmp_path / "repo")))
    session = repo.writable_session("main")
    rng = np.random.default_rng(31)
    t = np.round(rng.uniform(250, 320, (6, 8)), 2)
    t[0, 0] = np.nan
    t[4:6, 4:8] = 273.15  # code 0: not stored
    ds = xr.Dataset({"t": (("y", "x"), t, {"units": "K"})})
    enc = {"dtype": "int16", "scale_factor": 0.01, "add_offset": 273.15, "_FillValue": -32768}
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        ds.to_zarr(
            session.store,
            zarr_format=3,
            consolidated=False,
            encoding={"t": {**enc, "chunks": (2, 4)}},
        )
    session.commit("CF attributes, as xarray writes them")
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        want = xr.open_zarr(repo.readonly_session("main").store, consolidated=False).t.values
    dry = zso.migrate(repo.writable_session("main"), dry_run=True)
    assert dry.commit is None and len(dry.arrays) == 1
    session = repo.writable_session("main")
    report = zso.migrate(session)
    assert report.commit is not None
    # The commit changed the array's metadata and no chunk.
    diff = repo.diff(from_snapshot_id=list(repo.ancestry(branch="main"))[1].id, to_branch="main")
    assert set(diff.updated_arrays) == {"/t"} and not diff.updated_chunks
    got = zarr.open_array(repo.readonly_session("main").store, path="t")[:]
    assert _same(got, want) and got[5, 7] == 273.15
    assert zso.migrate(repo.writable_session("main")).commit is None  # nothing left to do
