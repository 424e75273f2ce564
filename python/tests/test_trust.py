"""Issue 29: hostile and careless input to the Python engine. Each test names the item it pins;
every one failed on ec7e5cd (the value, class or pointer it checks was wrong there). Expected
values are xarray's (computed by xarray in the test, or printed by xarray 2026.9.0 + numpy
2.5.5 and written here) or worked out by hand, never by the code under test."""

from __future__ import annotations

import decimal
import fractions
import json
import subprocess
import sys
import textwrap
import warnings

import numpy as np
import pytest

import zarr_scale_offset as zso
from zarr_scale_offset import _core

xr = pytest.importorskip("xarray")
zarr = pytest.importorskip("zarr")


def same(a: np.ndarray, b: np.ndarray) -> bool:
    """Equal dtype and bits, any NaN equal to any NaN."""
    a, b = np.asarray(a), np.asarray(b)
    if a.dtype != b.dtype or a.shape != b.shape:
        return False
    if a.dtype.kind == "f" or "float" in a.dtype.name:  # ml_dtypes' floats are kind "V"
        nan = np.isnan(a.astype(np.float64)) & np.isnan(b.astype(np.float64))
        return bool(np.all(nan | (a.view(f"u{a.itemsize}") == b.view(f"u{b.itemsize}"))))
    return bool(np.array_equal(a, b))


def decode_cf(attrs, data):
    raw = xr.Dataset({"v": xr.Variable(("x",), data, attrs=dict(attrs))})
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        return xr.decode_cf(raw).v.values


# --- item 1: xarray_encoding of an undecoded dataset -------------------------------------------


@pytest.mark.parametrize("how", ["mask_and_scale=False", "decode_cf=False", "dask"])
def test_xarray_encoding_of_an_undecoded_dataset_writes_physical_values(tmp_path, how):
    # ec7e5cd wrote the packed codes as physical values: [2., 5., 200.].
    attrs = {"scale_factor": 0.5, "add_offset": 10.0, "_FillValue": np.int16(-1)}
    raw = xr.Dataset(
        {"v": xr.Variable(("x",), np.array([2, 5, 200, -1], np.int16), attrs=dict(attrs))}
    )
    if how == "decode_cf=False":
        ds = raw
    else:
        ds = xr.decode_cf(raw, mask_and_scale=False)
        if how == "dask":
            pytest.importorskip("dask")
            ds = ds.chunk({"x": 2})
    assert ds.v.dtype == np.int16  # still the packed codes
    ds2, enc = zso.xarray_encoding(ds)
    ds2.to_zarr(tmp_path / "a.zarr", zarr_format=3, encoding=enc)
    got = xr.open_zarr(tmp_path / "a.zarr").v.values
    want = xr.decode_cf(raw).v.values  # [11., 12.5, 110., nan]
    assert same(got, want), (got, want)
    assert got[:3].tolist() == [11.0, 12.5, 110.0]
    # The stored codes are the packed ones.
    stored = zarr.open_array(tmp_path / "a.zarr", path="v")
    assert [c["name"] for c in stored.metadata.to_dict()["codecs"]][:2] == [
        "cf.scale_offset",
        "cast_value",
    ]


def test_xarray_encoding_of_a_decoded_dataset_is_unchanged(tmp_path):
    raw = xr.Dataset(
        {"v": xr.Variable(("x",), np.array([2, 5, 200], np.int16), attrs={"scale_factor": 0.5})}
    )
    ds = xr.decode_cf(raw)
    ds2, enc = zso.xarray_encoding(ds)
    ds2.to_zarr(tmp_path / "a.zarr", zarr_format=3, encoding=enc)
    assert xr.open_zarr(tmp_path / "a.zarr").v.values.tolist() == [1.0, 2.5, 100.0]


# --- item 2: from_cf with array / typed attributes ---------------------------------------------

F32 = np.float32
CODES = np.array([-1, 0, 1, 32767, -32768], np.int16)

ATTRS = {
    "array1": {"scale_factor": np.array([0.1], F32), "add_offset": np.array([1.0], F32)},
    "array0d": {"scale_factor": np.array(0.1, F32), "add_offset": np.array(1.0, F32)},
    "list": {"scale_factor": [0.5], "add_offset": [1.0]},
    "mixed": {"scale_factor": np.array([0.1], F32), "add_offset": F32(1.0)},
    "offset_array": {"add_offset": np.array([1.5], F32)},
    "int32": {"scale_factor": np.int32(3)},
    "int32_pair": {"scale_factor": np.int32(3), "add_offset": np.int32(1)},
    "float16": {"scale_factor": np.float16(0.5)},
    "float32_pair": {"scale_factor": F32(0.1), "add_offset": F32(1.0)},
    "python_int": {"scale_factor": 3},
}


@pytest.mark.parametrize("name", list(ATTRS))
def test_from_cf_attribute_types_follow_xarray(name):
    attrs = ATTRS[name]
    want = decode_cf(attrs, CODES)
    c = zso.from_cf(attrs, "int16")
    got = zso.decode(c.filters, CODES, c.data_type)
    assert same(got, want), (name, got, want)


def test_from_cf_array_attributes_decode_float64_as_xarray_does():
    # The numbers (ec7e5cd: float32 [0.8999999761581421, 1.0, 1.100000023841858]).
    c = zso.from_cf(ATTRS["array1"], "int16")
    assert c.data_type == "float64"
    got = zso.decode(c.filters, CODES[:3], "float64")
    assert got.tolist() == [0.8999999985098839, 1.0, 1.1000000014901161]


@pytest.mark.parametrize(
    "attrs",
    [
        {"scale_factor": np.array([0.1], F32)},
        {"scale_factor": np.array(0.1, F32), "_FillValue": np.int16(0)},
        {"scale_factor": [0.5]},
    ],
)
def test_from_cf_array_scale_factor_alone_is_refused(attrs):
    # xarray decodes these to dtype object (numpy.dtype(numpy.ndarray)): no Zarr type.
    assert decode_cf(attrs, CODES).dtype == object
    with pytest.raises(zso.InvalidMetadataError) as e:
        zso.from_cf(attrs, "int16")
    assert e.value.code == "invalid_metadata" and e.value.path == "/scale_factor"


@pytest.mark.parametrize("t", [np.int8, np.uint8, np.int16])
def test_from_cf_narrow_integer_scale_factor_errors_where_xarray_wraps(t):
    # xarray: int8 [-3, 0, 3, -3, 0] (32767 -> -1 -> -3), uint8 [253, 0, 3, 253, 0]; ec7e5cd
    # chose int64 (a third answer). Here: xarray's type, equal where xarray's values are right,
    # an element error where they wrap.
    attrs = {"scale_factor": t(3)}
    want = decode_cf(attrs, CODES)
    c = zso.from_cf(attrs, "int16")
    assert c.data_type == np.dtype(t).name == want.dtype.name
    ok = CODES[1:3]  # 0, 1 fit every type
    assert same(zso.decode(c.filters, ok, c.data_type), want[1:3])
    with pytest.raises(zso.OutOfRangeError) as e:
        zso.decode(c.filters, CODES, c.data_type)
    assert e.value.code == "out_of_range"


def test_from_cf_takes_h5py_bytes_and_refuses_nan_and_objects():
    c = zso.from_cf(
        {"scale_factor": F32(0.5), "_Unsigned": b"true", "units": b"K", "_FillValue": np.int8(-1)},
        "int8",
    )
    assert c.data_type == "float32"
    # The stored codes are uint8 (the int8 bytes read as unsigned, as the user must say).
    codes = np.array([-1, -128, 1], np.int8).view(np.uint8)
    assert zso.decode(c.filters, codes, "float32")[1:].tolist() == [
        64.0,
        0.5,
    ]
    with pytest.raises(zso.InvalidMetadataError, match="finite number") as e:
        zso.from_cf({"scale_factor": float("nan"), "add_offset": 1.0}, "int16")
    assert e.value.path == "/scale_factor"
    with pytest.raises(zso.InvalidMetadataError) as e:
        zso.from_cf({"scale_factor": fractions.Fraction(1, 3)}, "int16")
    assert e.value.path == "/scale_factor"
    with pytest.raises(zso.UnsupportedDataTypeError):
        zso.from_cf({"scale_factor": np.longdouble(0.5)}, "int16")


def test_xarray_encoding_with_array_attributes_reads_back_decode_cf(tmp_path):
    raw = xr.Dataset({"v": xr.Variable(("x",), CODES, attrs=dict(ATTRS["array1"]))})
    ds = xr.decode_cf(raw)
    ds2, enc = zso.xarray_encoding(ds)
    ds2.to_zarr(tmp_path / "a.zarr", zarr_format=3, encoding=enc)
    got = xr.open_zarr(tmp_path / "a.zarr").v.values
    assert same(got, ds.v.values)


# --- item 3: decode / encode check the input array's dtype -------------------------------------


def test_decode_refuses_an_array_of_another_dtype():
    # ec7e5cd: [255., 3.] and [1065353216.] (the bytes reinterpreted).
    with pytest.raises(zso.InvalidDataError) as e:
        zso.decode(zso.CastValue(data_type="uint8"), np.array([-1, 3], np.int8), "float64")
    assert e.value.code == "invalid_data" and "int8" in str(e.value)
    with pytest.raises(zso.InvalidDataError):
        zso.decode(zso.CastValue(data_type="int32"), np.array([1.0], F32), "float64")
    # The right type in either byte order is fine.
    got = zso.decode(zso.CastValue(data_type="uint16"), np.array([3, 500], ">u2"), "float64")
    assert got.tolist() == [3.0, 500.0]


@pytest.mark.parametrize(
    "array",
    [
        np.array(["2020-01-01"], "datetime64[D]"),
        np.array(["a"]),
        np.array([True]),
        np.array([1 + 2j]),
        np.array([object()]),
    ],
    ids=["datetime64", "str", "bool", "complex", "object"],
)
def test_encode_refuses_non_numeric_arrays_with_one_code(array):
    # ec7e5cd: datetime64 and str reached the core as str(dict): invalid_json.
    with pytest.raises(zso.UnsupportedDataTypeError) as e:
        zso.encode(zso.CastValue(data_type="int32"), array)
    assert e.value.code == "unsupported_data_type"


# --- item 7: errors without .code --------------------------------------------------------------


def test_codec_entry_without_configuration_is_a_coded_error(tmp_path):
    with pytest.raises(zso.InvalidMetadataError) as e:
        zso.CastValue.from_dict({"name": "cast_value"})
    assert e.value.path == "/configuration" and "data_type" in str(e.value)
    # In a zarr.json, read by zarr-python's own cast_value (this package's guard) or ours.
    path = tmp_path / "a.zarr"
    zarr.create_array(path, shape=(2,), dtype="float32", filters=[zso.CastValue(data_type="uint8")])
    meta = json.loads((path / "zarr.json").read_text())
    meta["codecs"][0] = {"name": "cast_value"}
    (path / "zarr.json").write_text(json.dumps(meta))
    with pytest.raises(zso.InvalidMetadataError):
        zarr.open_array(path)
    with pytest.raises(zso.InvalidMetadataError):
        zso.CastValue.from_dict({"name": "cast_value", "configuration": [1]})
    with pytest.raises(zso.InvalidMetadataError) as e:
        zso.ScaleOffset.from_dict({"name": "cast_value", "configuration": {}})
    assert e.value.path == "/name"


@pytest.mark.parametrize(
    "value",
    [fractions.Fraction(1, 3), decimal.Decimal("0.5"), np.longdouble(0.5), b"2", 1j],
    ids=["Fraction", "Decimal", "longdouble", "bytes", "complex"],
)
def test_configuration_values_without_a_json_form_are_coded_errors(value):
    # ec7e5cd: TypeError: not JSON serializable.
    with pytest.raises(zso.InvalidMetadataError) as e:
        zso.ScaleOffset(scale=value)
    assert e.value.path == "/configuration/scale"
    with pytest.raises(zso.InvalidMetadataError):
        zso.bind({"name": "scale_offset", "configuration": {"offset": value}}, "float32")


def test_xarray_encoding_without_a_packed_dtype_is_a_coded_error():
    ds = xr.Dataset({"v": ("x", np.array([1.0]), {}, {"scale_factor": 0.5})})
    with pytest.raises(zso.InvalidMetadataError) as e:
        zso.xarray_encoding(ds)
    assert e.value.code == "invalid_metadata" and "'v'" in str(e.value)


def test_bound_handles_refuse_bad_buffers_with_codes_and_allow_overlap():
    b = zso.bind(zso.ScaleOffset(scale=2), "float32")
    with pytest.raises(zso.InvalidDataError, match="float32"):
        b.encode(np.array([1.0], F32))  # not the core's uint8 bytes
    with pytest.raises(zso.InvalidDataError, match="list"):
        b.encode([1, 2])
    ro = np.zeros(4, np.uint8)
    ro.flags.writeable = False
    with pytest.raises(zso.InvalidDataError, match="read-only"):
        b.encode_into(np.zeros(4, np.uint8), ro)
    with pytest.raises(zso.InvalidDataError):
        b.encode_into(np.zeros(4, np.uint8), np.zeros(1, F32))
    # In place (as in JavaScript): the input is read before out is written.
    buf = np.array([1.0, 2.5], F32).view(np.uint8).copy()
    b.encode_into(buf, buf)
    assert buf.view(F32).tolist() == [2.0, 5.0]
    # Overlapping halves of one buffer: element 0 decoded into element 1's place.
    b.decode_into(buf[:4], buf[4:])
    assert buf.view(F32).tolist() == [2.0, 1.0]


# --- item 8: the pointer of FixedScaleOffset's configuration error -----------------------------


def test_fixed_scale_offset_error_names_the_field_at_fault():
    # ec7e5cd: /configuration/dtype ("codec receives float64"): bound to float64 to re-raise.
    with pytest.raises(zso.InvalidMetadataError) as e:
        zso.FixedScaleOffset(scale=1e300, offset=3, dtype="<u2", astype="<f2")
    assert e.value.path == "/configuration/scale"
    assert "Infinity in float16" in str(e.value)
    # Without dtype (zarr-python reads the array's type) the codec is still accepted.
    assert zso.FixedScaleOffset(scale=10, offset=1000).configuration == {
        "scale": 10,
        "offset": 1000,
    }


# --- items 4 and 5: the JSON reader zarr-python uses (documented differences, pinned) ----------


def _v3(codec: dict | str, dtype: str = "float32", n: int = 2) -> str:
    codec_text = codec if isinstance(codec, str) else json.dumps(codec)
    return (
        f'{{"zarr_format": 3, "node_type": "array", "shape": [{n}], "data_type": "{dtype}", '
        f'"chunk_grid": {{"name": "regular", "configuration": {{"chunk_shape": [{n}]}}}}, '
        f'"chunk_key_encoding": {{"name": "default"}}, "fill_value": 0, '
        f'"codecs": [{codec_text}, {{"name": "bytes", "configuration": {{"endian": "little"}}}}]}}'
    )


def _zarr_python_reads(tmp_path, text: str, stored: bytes) -> np.ndarray:
    path = tmp_path / "a.zarr"
    (path / "c").mkdir(parents=True)
    (path / "zarr.json").write_text(text)
    (path / "c" / "0").write_bytes(stored)
    zso.use_everywhere()
    return zarr.open_array(path, mode="r")[:]


def test_duplicate_keys_the_core_refuses_zarr_python_takes_the_last(tmp_path):
    text = _v3('{"name": "scale_offset", "configuration": {"scale": 2, "scale": 4}}')
    stored = np.array([8.0, 2.0], "<f4").tobytes()
    with pytest.raises(zso.InvalidMetadataError, match="disagree"):
        _core.decode_chunk(text, stored)
    # zarr-python's json.loads keeps the last copy before this package sees the document.
    assert _zarr_python_reads(tmp_path, text, stored).tolist() == [2.0, 0.5]  # x / 4


def test_float32_tie_decimal_the_core_rounds_the_text_zarr_python_its_float(tmp_path):
    # 1.000000059604644775390625 = 1 + 2^-24, the midpoint of float32 1.0 and 1 + 2^-23.
    text = _v3('{"name": "scale_offset", "configuration": {"offset": 1.000000059604644775390625}}')
    stored = np.array([0.0, 1.0], "<f4").tobytes()
    core = np.frombuffer(_core.decode_chunk(text, stored), "<f4")
    assert core.tolist() == [1.0, 2.0]  # the text rounded half to even: offset 1.0
    # zarr-python parses a float64 (exactly 1 + 2^-24); its shortest text 1.0000000596046448
    # lies above the tie, so offset 1 + 2^-23.
    assert _zarr_python_reads(tmp_path, text, stored).tolist() == [1.0000001192092896, 2.0]


# --- item 6, the zarr-python side: a tiny read of a huge missing chunk -------------------------


def test_a_subset_of_a_huge_missing_chunk_allocates_only_the_subset():
    # Shape 2^62 in chunks of 2^34 float32 (64 GiB each), nothing stored, read 4 elements under
    # a 4 GB address-space limit: a decode of the whole chunk could not allocate.
    code = textwrap.dedent(
        """
        import resource
        resource.setrlimit(resource.RLIMIT_AS, (4_000_000_000, 4_000_000_000))
        import zarr, zarr_scale_offset as zso
        for filters in ([zso.ScaleOffset(scale=2)],
                        [zso.ScaleOffset(offset=1, scale=2), zso.CastValue(data_type="uint8")],
                        [zso.CFScaleOffset(scale=0.5, offset=1)]):
            a = zarr.create_array(zarr.storage.MemoryStore(), shape=(2**62,),
                                  chunks=(2**34,), dtype="float32", fill_value=3.0,
                                  filters=filters)
            print(a[:4].tolist(), a[2**40:2**40 + 2].tolist())
        """
    )
    r = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, timeout=120)
    assert r.returncode == 0, r.stderr[-2000:]
    assert r.stdout.split("\n")[:3] == ["[3.0, 3.0, 3.0, 3.0] [3.0, 3.0]"] * 3, r.stdout


def test_from_cf_takes_a_whole_attribute_mapping_and_hands_back_the_rest():
    # Issue 30 (2): h5py / netCDF4 / VirtualiZarr give every attribute; the non-CF ones come back,
    # as a Zarr attribute holds them (bytes as text, NumPy values as Python ones).
    ref = object()
    c = zso.from_cf(
        {
            "scale_factor": F32(0.5),
            "_Unsigned": b"true",
            "units": b"K",
            "long_name": np.bytes_(b"temp"),
            "valid_range": np.array([0, 100], np.int8),
            "count": np.int16(3),
            "ref": ref,
        },
        "int8",
    )
    assert c.data_type == "float32"
    assert c.attributes == {
        "units": "K",
        "long_name": "temp",
        "valid_range": [0, 100],
        "count": 3,
        "ref": ref,
    }
    assert type(c.attributes["count"]) is int
