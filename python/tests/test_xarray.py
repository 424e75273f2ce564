"""xarray writes CF-packed variables as cf.scale_offset + cast_value through the helper; a
fresh Python process that never imports zarr_scale_offset (zarr finds cf.scale_offset by its
entry point) reads values bit-equal to xarray.decode_cf of the attribute form."""

from __future__ import annotations

import json
import re
import subprocess
import sys
import textwrap

import numpy as np
import pytest
import xarray as xr

import zarr_scale_offset as zso

from conftest import bits


def attribute_form() -> xr.Dataset:
    rng = np.random.default_rng(7)
    t = rng.integers(-32767, 32767, size=(40, 30), dtype=np.int16)
    t[rng.random(t.shape) < 0.1] = -32768
    u = rng.integers(0, 255, size=(40, 30), dtype=np.uint8)
    s = rng.integers(-128, 127, size=(40, 30), dtype=np.int8)
    return xr.Dataset(
        {
            # float32 attributes: xarray decodes to float32
            "t": (
                ("y", "x"),
                t,
                {
                    "scale_factor": np.float32(0.01),
                    "add_offset": np.float32(273.15),
                    "_FillValue": np.int16(-32768),
                    "units": "K",
                },
            ),
            # Python-float attributes, no _FillValue: float64
            "u": (("y", "x"), u, {"scale_factor": 0.5, "add_offset": -20.0}),
            # _Unsigned: the int8 codes are uint8, with a fill code; Python-float scale: float64
            "s": (
                ("y", "x"),
                s,
                {"scale_factor": 0.25, "_FillValue": np.int8(-1), "_Unsigned": "true"},
            ),
        }
    )


READER = textwrap.dedent(
    """
    import json, sys
    import numpy as np
    import xarray as xr

    path, out = sys.argv[1], sys.argv[2]
    ds = xr.open_zarr(path, zarr_format=3, consolidated=False)
    res = {}
    for name, v in ds.data_vars.items():
        a = np.ascontiguousarray(v.values)
        a.astype(a.dtype.newbyteorder("<")).tofile(f"{out}/{name}.bin")
        res[name] = {"dtype": a.dtype.name, "shape": list(a.shape)}
    res["loaded_by_zarr"] = "zarr_scale_offset" in sys.modules
    print(json.dumps(res))
    """
)


@pytest.mark.filterwarnings("ignore::UserWarning")
def test_xarray_store_read_by_a_fresh_process(tmp_path):
    raw = attribute_form()
    decoded = xr.decode_cf(raw)
    assert not re.search(r"(import|from)\s+zarr_scale_offset", READER)
    ds, enc = zso.xarray_encoding(decoded)
    assert sorted(enc) == ["s", "t", "u"]
    ds.to_zarr(tmp_path / "s.zarr", zarr_format=3, encoding=enc, consolidated=False)

    # The packing is in the codecs, not in attributes.
    for name in ("t", "u", "s"):
        meta = json.loads((tmp_path / "s.zarr" / name / "zarr.json").read_text())
        names = [c["name"] for c in meta["codecs"]]
        assert names[:2] == ["cf.scale_offset", "cast_value"], names
        assert not {"scale_factor", "add_offset", "_FillValue"} & set(meta["attributes"])
        assert meta["data_type"] == decoded[name].dtype.name
    packed = json.loads((tmp_path / "s.zarr" / "s" / "zarr.json").read_text())["codecs"][1]
    assert packed["configuration"]["data_type"] == "uint8"

    out = tmp_path / "out"
    out.mkdir()
    r = subprocess.run(
        [sys.executable, "-c", READER, str(tmp_path / "s.zarr"), str(out)],
        capture_output=True,
        text=True,
        check=False,
    )
    assert r.returncode == 0, r.stderr
    res = json.loads(r.stdout.strip().splitlines()[-1])
    assert res.pop("loaded_by_zarr") is True  # through the entry point only
    # The float types xarray.decode_cf chooses (float32 for float32 attributes on int16).
    assert {k: v["dtype"] for k, v in res.items()} == {k: decoded[k].dtype.name for k in res}
    assert res["t"]["dtype"] == "float32"
    for name, info in res.items():
        want = decoded[name].values
        assert info["dtype"] == want.dtype.name
        got = np.fromfile(out / f"{name}.bin", dtype=want.dtype.newbyteorder("<"))
        got = got.reshape(info["shape"])
        np.testing.assert_array_equal(np.isnan(got), np.isnan(want))
        np.testing.assert_array_equal(bits(got), bits(want.astype(want.dtype.newbyteorder("<"))))
        assert np.isnan(want).any() == (name != "u")


def test_from_cf_matches_xarray_float_choice():
    raw = attribute_form()
    decoded = xr.decode_cf(raw)
    for name in ("t", "u", "s"):
        v = raw[name]
        c = zso.from_cf(v.attrs, v.dtype)
        assert c.data_type == decoded[name].dtype.name
        assert [f.codec_name for f in c.filters] == ["cf.scale_offset", "cast_value"]
