"""Distributed writers: dask workers in other processes (the codec objects are pickled to
them) write a 4096 x 4096 float64 array in 1024^2 chunks through to_zarr with these codecs;
zarr-python reads it back, and every stored chunk decodes bit-identically with the wasm build
in Node."""

from __future__ import annotations

import json

import numpy as np
import pytest
import zarr

import zarr_scale_offset as zso

from conftest import assert_chunks_equal_in_node, bits

da = pytest.importorskip("dask.array")
distributed = pytest.importorskip("distributed")

SCALE, OFFSET = 0.01, 273.15


@pytest.fixture(scope="module")
def client():
    with (
        distributed.LocalCluster(
            n_workers=2, threads_per_worker=1, processes=True, dashboard_address=None
        ) as cluster,
        distributed.Client(cluster) as c,
    ):
        yield c


def test_dask_processes_write_chunks_node_decodes(tmp_path, client):
    sm = {"encode": [["NaN", -32768]], "decode": [[-32768, "NaN"]]}
    filters = [
        zso.CFScaleOffset(scale=SCALE, offset=OFFSET),
        zso.CastValue(data_type="int16", scalar_map=sm),
    ]
    x = da.random.default_rng(3).uniform(OFFSET - 300, OFFSET + 300, (4096, 4096), chunks=1024)
    x = da.where(x > OFFSET + 299, np.nan, x)
    path = tmp_path / "big.zarr"
    da.to_zarr(x, str(path), zarr_format=3, filters=filters, fill_value=np.nan, compressors=None)
    # The cluster has two worker processes (the graph ran there: the codecs were pickled).
    assert sum(client.run(lambda: 1).values()) == 2

    a = zarr.open_array(path)  # cf.scale_offset (entry point) + zarr-python's own cast_value
    meta = json.loads((path / "zarr.json").read_text())
    assert [c["name"] for c in meta["codecs"]] == ["cf.scale_offset", "cast_value", "bytes"]
    back = np.asarray(a[...])
    want_x = x.compute()
    nan = np.isnan(want_x)
    np.testing.assert_array_equal(np.isnan(back), nan)
    assert np.abs(back[~nan] - want_x[~nan]).max() <= SCALE / 2 * (1 + 1e-9)

    # The stored int16 codes decode as xarray does (numpy, two roundings) to what we read.
    chunk = np.fromfile(path / "c" / "1" / "2", dtype="<i2").reshape(1024, 1024)
    want = chunk.astype(np.float64) * SCALE + OFFSET
    want[chunk == -32768] = np.nan
    np.testing.assert_array_equal(bits(back[1024:2048, 2048:3072]), bits(want))

    assert assert_chunks_equal_in_node(path, a, tmp_path) == 16
