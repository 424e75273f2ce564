"""Errors: one ValueError subclass per code, the codes of the JS package, messages with the
field or the element index and value, and never a Rust panic from any input."""

from __future__ import annotations

import json
import re

import numpy as np
import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

import zarr_scale_offset as zso
from zarr_scale_offset import _core
from zarr_scale_offset.errors import _BY_CODE

from conftest import REPO


def core_codes() -> set[str]:
    """The ErrorCode spellings of the Rust core (crates/core/src/error.rs, `as_str`)."""
    src = (REPO / "crates" / "core" / "src" / "error.rs").read_text()
    return set(re.findall(r'ErrorCode::\w+ => "(\w+)"', src))


def js_codes() -> set[str]:
    """The codes of the JS package's ErrorCode type (js/index.d.ts)."""
    src = (REPO / "js" / "index.d.ts").read_text()
    block = src[src.index("export type ErrorCode") :]
    block = block[: block.index(";")]
    return set(re.findall(r"'(\w+)'", block))


def test_one_class_per_core_code_and_the_same_codes_as_js():
    assert set(_BY_CODE) == core_codes()
    assert core_codes() <= js_codes()  # JS adds its own (not_ready, invalid_argument, internal)
    for code, cls in _BY_CODE.items():
        assert issubclass(cls, zso.ZarrScaleOffsetError) and issubclass(cls, ValueError)
        assert cls.code == code


SO = {"name": "scale_offset", "configuration": {"scale": 2}}
CV8 = {"name": "cast_value", "configuration": {"data_type": "uint8"}}


@pytest.mark.parametrize(
    ("call", "cls", "pattern"),
    [
        (lambda: _core.Bound("[", "float32"), zso.InvalidJsonError, ""),
        (
            lambda: zso.bind({"name": "scale_offset", "configuration": {"scale": 0}}, "float32"),
            zso.InvalidMetadataError,
            "/configuration/scale",
        ),
        (
            lambda: zso.bind({"name": "cast_value", "configuration": {"data_type": "int17"}}, "f"),
            zso.ZarrScaleOffsetError,
            "",
        ),
        (lambda: zso.bind(SO, "complex64"), zso.UnsupportedDataTypeError, "complex64"),
        (lambda: zso.bind({"name": "no_such"}, "float32"), zso.UnsupportedCodecError, "no_such"),
        (
            lambda: zso.decode(SO, np.array([4, 3], np.int8), "int8"),
            zso.NotRepresentableError,
            r"element 1\b.*\b3\b",
        ),
        (
            lambda: zso.encode(CV8, np.array([1.0, 2.0, -1.5])),
            zso.OutOfRangeError,
            r"element 2\b.*-1\.5",
        ),
        (
            lambda: _core.Bound(json.dumps(SO), "int16").decode(np.zeros(3, np.uint8)),
            zso.LengthMismatchError,
            "",
        ),
        (
            lambda: _core.Bound(json.dumps(SO), "int4").decode(np.array([2, 0x0F], np.uint8)),
            zso.InvalidDataError,
            r"element 1\b.*15",
        ),
        (
            lambda: zso.encode(
                zso.FixedScaleOffset(scale=10, dtype="<f8", astype="<i2"), np.zeros(2)
            ),
            zso.ReadOnlyError,
            r"scale_offset.*cast_value",
        ),
    ],
    ids=lambda v: getattr(v, "__name__", None) if isinstance(v, type) else None,
)
def test_each_code(call, cls, pattern):
    with pytest.raises(cls) as e:
        call()
    assert isinstance(e.value, ValueError)
    assert e.value.code in _BY_CODE
    assert re.search(pattern, str(e.value)), str(e.value)
    assert not str(e.value).startswith(" ")


def test_metadata_errors_carry_the_pointer():
    with pytest.raises(zso.InvalidMetadataError) as e:
        zso.bind(
            [SO, {"name": "cast_value", "configuration": {"data_type": "int8", "x": 1}}], "float32"
        )
    assert e.value.path == "/1/configuration/x"
    assert "/1/configuration/x" in str(e.value)


def test_codec_constructor_checks_the_configuration():
    with pytest.raises(zso.InvalidMetadataError, match="rounding"):
        zso.CastValue(data_type="int8", rounding="up")


# --- property test: random configurations and data never panic ------------------------------

NAMES = ["scale_offset", "cast_value", "cf.scale_offset", "numcodecs.fixedscaleoffset", "bytes"]
TYPES = [*_core.data_types(), "bool", "complex64", "<f8", "x"]
SCALARS = st.one_of(
    st.integers(-(2**70), 2**70),
    st.floats(allow_nan=False, allow_infinity=False),
    st.sampled_from(["NaN", "Infinity", "-Infinity", "0x7fc00001", "0x00", "1e400", ""]),
    st.none(),
    st.booleans(),
)
KEYS = [
    "scale",
    "offset",
    "data_type",
    "rounding",
    "out_of_range",
    "scalar_map",
    "dtype",
    "astype",
    "zz",
]
VALUES = st.one_of(
    SCALARS,
    st.sampled_from(TYPES),
    st.sampled_from(["nearest-even", "towards-zero", "clamp", "wrap", "nearest-away"]),
    st.fixed_dictionaries(
        {},
        optional={
            "encode": st.lists(st.lists(SCALARS, max_size=3), max_size=3),
            "decode": st.lists(st.lists(SCALARS, max_size=3), max_size=3),
        },
    ),
)
CODEC = st.builds(
    lambda n, c: {"name": n, "configuration": c},
    st.sampled_from(NAMES),
    st.dictionaries(st.sampled_from(KEYS), VALUES, max_size=4),
)


@settings(
    max_examples=600,
    deadline=None,
    derandomize=True,  # seeded: the same cases on every run
    suppress_health_check=[HealthCheck.too_slow],
)
@given(
    codecs=st.lists(CODEC, min_size=1, max_size=3),
    dtype=st.sampled_from(TYPES),
    fill=SCALARS,
    data=st.binary(max_size=64),
)
def test_random_configurations_raise_only_our_errors(codecs, dtype, fill, data):
    try:
        fill_json = json.dumps(fill)
        b = _core.Bound(json.dumps(codecs), dtype, fill_json)
        buf = np.frombuffer(data, dtype=np.uint8)
        b.encode(buf)
        b.decode(buf)
        out = np.zeros(len(data), np.uint8)
        b.decode_into(buf, out)
    except zso.ZarrScaleOffsetError as e:
        assert e.code in _BY_CODE and str(e)
    except BaseException as e:  # a PanicException is a BaseException
        raise AssertionError(f"{type(e).__module__}.{type(e).__name__}: {e}") from e


def test_chunk_functions():
    v = next(
        v
        for v in json.loads((REPO / "tests/fixtures/vectors/chains.json").read_text())
        if v["expect"] == "roundtrip"
    )
    meta, enc, dec = json.dumps(v["metadata"]), bytes.fromhex(v["encoded"]), v["decoded"]
    assert _core.decode_chunk(meta, enc).hex() == dec
    assert _core.encode_chunk(meta, bytes.fromhex(dec)) == enc
    with pytest.raises(zso.LengthMismatchError):
        _core.decode_chunk(meta, enc[:-1])
