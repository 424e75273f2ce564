"""Icechunk and dask (issue 30, item 5): ``cf.scale_offset`` data written by dask workers in
other processes into an Icechunk repository the way Icechunk documents it for dask
(``icechunk.xarray.to_icechunk``: the session forked to the workers and merged before the
commit), read back bit-identical to ``xarray.decode_cf`` of the packed codes."""

from __future__ import annotations

import warnings

import numpy as np
import pytest
import zarr

import zarr_scale_offset as zso

from conftest import bits

xr = pytest.importorskip("xarray")
icechunk = pytest.importorskip("icechunk", reason="icechunk is in requirements-dev.txt")
icechunk_xarray = pytest.importorskip("icechunk.xarray")
distributed = pytest.importorskip("distributed")
pytest.importorskip("dask.array")


def test_dask_processes_write_cf_scale_offset_into_icechunk(tmp_path):
    rng = np.random.default_rng(32)
    codes = rng.integers(-32767, 32767, (512, 384)).astype(np.int16)
    codes[:40, :30] = -32768  # the _FillValue: NaN
    packed = xr.Dataset(
        {
            "t": xr.Variable(
                ("y", "x"),
                codes,
                attrs={"scale_factor": 0.01, "add_offset": 273.15, "_FillValue": np.int16(-32768)},
            )
        }
    )
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        decoded = xr.decode_cf(packed)  # the oracle: xarray's own decode
    want = decoded.t.values
    ds, encoding = zso.xarray_encoding(decoded.chunk({"y": 128, "x": 128}))
    repo = icechunk.Repository.create(icechunk.local_filesystem_storage(str(tmp_path / "repo")))
    with (
        distributed.LocalCluster(
            n_workers=2, threads_per_worker=1, processes=True, dashboard_address=None
        ) as cluster,
        distributed.Client(cluster) as client,
    ):
        session = repo.writable_session("main")
        with warnings.catch_warnings():
            warnings.simplefilter("ignore")
            icechunk_xarray.to_icechunk(ds, session, encoding=encoding)
        snapshot = session.commit("cf.scale_offset from dask workers")
        assert snapshot
        # The workers (other processes) encoded the chunks: they found the codec by entry point.
        assert len(client.scheduler_info()["workers"]) == 2
    store = repo.readonly_session("main").store
    arr = zarr.open_array(store, path="t")
    assert [c["name"] for c in arr.metadata.to_dict()["codecs"]][:2] == [
        "cf.scale_offset",
        "cast_value",
    ]
    got = arr[:]
    assert got.dtype == want.dtype
    assert np.array_equal(bits(got), bits(want))
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        via_xarray = xr.open_zarr(store, consolidated=False).t.values
    assert np.array_equal(bits(via_xarray), bits(want))
