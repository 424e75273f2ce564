"""Property tests that hunt silently wrong results (issue 29): random CF attributes of every
kind xarray and h5py hand over through ``from_cf`` against ``xarray.decode_cf``; random
configurations and arrays through the Python converter (``zso.decode`` / ``zso.encode``, the
codec classes) against the Rust core's own reading of the same JSON text. Each case ends equal
(dtype and bits; any NaN equals any NaN) or in a coded error (this package's exception, with
``.code``); anything else, a third answer or a foreign exception, fails. The counts are printed.
"""

from __future__ import annotations

import json
import random
import warnings
from collections import Counter

import ml_dtypes
import numpy as np
import pytest

import zarr_scale_offset as zso
from zarr_scale_offset import _core
from zarr_scale_offset.dtypes import to_core

xr = pytest.importorskip("xarray")

SEED = 29


def _same(a: np.ndarray, b: np.ndarray) -> bool:
    if a.dtype != b.dtype or a.shape != b.shape:
        return False
    if a.dtype.kind == "f" or "float" in a.dtype.name:  # ml_dtypes' floats are kind "V"
        nan = np.isnan(a.astype(np.float64)) & np.isnan(b.astype(np.float64))
        u = f"u{a.itemsize}"
        return bool(np.all(nan | (a.view(u) == b.view(u))))
    return bool(np.array_equal(a, b))


def _report(
    capsys,
    what: str,
    counts: Counter,
    n: int,
    first: list,
    min_equal: int | None = None,
    min_coded: int | None = None,
) -> None:
    """Prints the counts; fails on any different case, and where an outcome is rarer than its
    minimum (by default a fifth equal, a twentieth coded errors): a vacuous run."""
    with capsys.disabled():
        print(
            f"\n{what}: {n} cases, {counts['equal']} equal, {counts['coded']} coded errors, "
            f"{counts['different']} different"
        )
    assert counts["different"] == 0, first[:5]
    min_equal = n // 5 if min_equal is None else min_equal
    min_coded = n // 20 if min_coded is None else min_coded
    assert counts["equal"] >= min_equal and counts["coded"] >= min_coded, counts


# --- from_cf against xarray.decode_cf ----------------------------------------------------------

PACKED = ["int8", "uint8", "int16", "uint16", "int32", "uint32", "float32", "float64"]
VALUES = [0.1, 0.01, 0.5, 2.0, 3.0, 1e-4, 273.15, -0.1, 1e30, 0.0, -7.0, 1.0, 1e-40, 65504.0]


def _attr(rng: random.Random, x: float):
    """``x`` as one of the forms xarray, netCDF4 and h5py hold attributes in."""
    kind = rng.choice(
        [
            "py_float",
            "py_int",
            "f32",
            "f64",
            "f16",
            "i8",
            "i16",
            "i32",
            "i64",
            "u8",
            "u16",
            "arr1_f32",
            "arr0_f32",
            "arr1_f64",
            "list",
            "bf16",
        ]
    )
    ints = {"i8": np.int8, "i16": np.int16, "i32": np.int32, "i64": np.int64}
    ints |= {"u8": np.uint8, "u16": np.uint16}
    if kind in ints:
        info = np.iinfo(ints[kind])
        return ints[kind](int(min(max(round(x), info.min), info.max)))
    with np.errstate(all="ignore"):
        return {
            "py_float": x,
            "py_int": round(x) if abs(x) < 1e18 else 7,
            "f32": np.float32(x),
            "f64": np.float64(x),
            "f16": np.float16(x),
            "arr1_f32": np.array([x], np.float32),
            "arr0_f32": np.array(x, np.float32),
            "arr1_f64": np.array([x], np.float64),
            "list": [x],
            "bf16": ml_dtypes.bfloat16(x),
        }[kind]


def _codes(rng: random.Random, packed: str, n: int) -> np.ndarray:
    dt = np.dtype(packed)
    if dt.kind == "f":
        vals = [rng.choice([0.0, 1.0, -1.0, 12345.0, 1e6, -3.5, 0.25]) for _ in range(n)]
        return np.array(vals, dt)
    info = np.iinfo(dt)
    special = [info.min, info.max, 0, 1, -1 if info.min < 0 else 2]
    return np.array(
        [
            rng.choice(special) if rng.random() < 0.3 else rng.randint(info.min, info.max)
            for _ in range(n)
        ],
        dt,
    )


def test_property_from_cf_against_xarray_decode_cf(capsys):
    rng = random.Random(SEED)
    counts: Counter = Counter()
    first: list = []
    n = 1500
    for _ in range(n):
        packed = rng.choice(PACKED)
        attrs: dict = {}
        if rng.random() < 0.75:
            attrs["scale_factor"] = _attr(rng, rng.choice(VALUES))
        if rng.random() < 0.6:
            attrs["add_offset"] = _attr(rng, rng.choice(VALUES))
        data = _codes(rng, packed, 16)
        # Fill values only where xarray compares exactly (not int64/uint64 beyond 2^53: the
        # documented difference of from_cf).
        if rng.random() < 0.4:
            attrs["_FillValue"] = np.dtype(packed).type(data[rng.randrange(16)])
        raw = xr.Dataset({"v": xr.Variable(("x",), data, attrs=dict(attrs))})
        try:
            with warnings.catch_warnings():
                warnings.simplefilter("ignore")
                want = xr.decode_cf(raw).v.values
        except (ValueError, TypeError, OverflowError):
            want = None  # xarray refuses: so must we
        if want is not None and want.dtype == object:
            want = None  # no Zarr type holds Python objects: refused is right
        try:
            c = zso.from_cf(attrs, packed)
            got = zso.decode(c.filters, data, c.data_type)
        except zso.ZarrScaleOffsetError as e:
            assert isinstance(e.code, str) and e.code
            counts["coded"] += 1
            continue
        except Exception as e:  # a foreign exception is a third answer
            counts["different"] += 1
            first.append((attrs, packed, data.tolist(), repr(e)))
            continue
        if want is not None and _same(got, want):
            counts["equal"] += 1
        else:
            counts["different"] += 1
            first.append((attrs, packed, data.tolist(), got, want))
    _report(capsys, "from_cf vs xarray.decode_cf", counts, n, first)


# --- the Python converter against the core's reading of the JSON text ---------------------------

TYPES = _core.data_types()
NUMERIC_TEXTS = ["2", "0.5", "-3", "0.1", "1e3", "100", "1.5", "-0.25", "1e-3", "7", "0", "255"]


def _native(name: str) -> np.dtype:
    return np.dtype(getattr(ml_dtypes, name)) if hasattr(ml_dtypes, name) else np.dtype(name)


def _python_value(rng: random.Random, text: str):
    """The same number as a Python or NumPy value of a random kind (ints stay exact)."""
    x = json.loads(text)
    if isinstance(x, int):
        kinds = [int, np.int64, np.int32, np.int16, float, np.float64]
        if x >= 0:
            kinds.append(np.uint16)
        return rng.choice(kinds)(x)
    return rng.choice([float, np.float64])(x)


ROUNDING = ["nearest-even", "towards-zero", "towards-positive", "towards-negative", "nearest-away"]


def _codec(rng: random.Random) -> tuple[dict, dict]:
    """(the JSON text's dict, the same configuration as Python values)."""
    name = rng.choice(["scale_offset", "cf.scale_offset", "cast_value"])
    if name == "cast_value":
        cfg = {"data_type": rng.choice(TYPES)}
        if rng.random() < 0.5:
            cfg["rounding"] = rng.choice(ROUNDING)
        if rng.random() < 0.4:
            cfg["out_of_range"] = rng.choice(["clamp", "wrap"])
        return {"name": name, "configuration": cfg}, dict(cfg)
    text_cfg = {k: rng.choice(NUMERIC_TEXTS) for k in ("scale", "offset") if rng.random() < 0.7}
    py_cfg = {k: _python_value(rng, t) for k, t in text_cfg.items()}
    return {"name": name, "configuration": text_cfg}, py_cfg


def _values(rng: random.Random, dtype: np.dtype, n: int = 8) -> np.ndarray:
    if dtype.kind in "iu" or dtype.name.startswith(("int", "uint")):
        vals = [rng.randint(-3, 200) for _ in range(n)]
    else:
        vals = [rng.choice([0, 1, 2.5, -3, 100, 0.1, 1e4, -0.5, 6]) for _ in range(n)]
    with np.errstate(all="ignore"), warnings.catch_warnings():
        warnings.simplefilter("ignore")
        return np.array(vals).astype(dtype)


def _run(f):
    """``f()``'s bytes, or the coded error it raised."""
    try:
        return bytes(f())
    except zso.ZarrScaleOffsetError as e:
        assert isinstance(e.code, str) and e.code
        return e


def test_property_python_converter_against_the_core_text(capsys):
    rng = random.Random(SEED)
    counts: Counter = Counter()
    first: list = []
    n = 2500
    for _ in range(n):
        codec_dict, py_cfg = _codec(rng)
        codec_text = json.dumps(codec_dict)
        dtype_name = rng.choice(TYPES)
        encode = rng.random() < 0.5
        # The core on the JSON text (its own reader), with the bytes made here.
        try:
            ref_bound = _core.Bound(codec_text, dtype_name, None)
            in_type = dtype_name if encode else ref_bound.encoded_data_type
        except zso.ZarrScaleOffsetError as e:
            ref_bound, ref = None, e
            in_type = dtype_name
        arr = _values(rng, _native(in_type))
        if ref_bound is not None:
            f = ref_bound.encode if encode else ref_bound.decode
            ref = _run(lambda f=f, arr=arr: f(to_core(arr)))
        # This package from Python values: the class, then zso.encode / zso.decode.
        cls = zso.CODECS[codec_dict["name"]]

        def ours(cls=cls, py_cfg=py_cfg, arr=arr, encode=encode, dtype_name=dtype_name):
            codec = cls._from_configuration(py_cfg)
            out = zso.encode(codec, arr) if encode else zso.decode(codec, arr, dtype_name)
            return to_core(out)

        try:
            got = _run(ours)
        except Exception as e:  # a foreign exception: a third answer
            got = e
        if isinstance(got, bytes) and isinstance(ref, bytes) and got == ref:
            counts["equal"] += 1
        elif isinstance(got, zso.ZarrScaleOffsetError) and isinstance(
            ref, zso.ZarrScaleOffsetError
        ):
            ok = got.code == ref.code
            counts["coded" if ok else "different"] += 1
            if not ok:
                first.append((codec_text, py_cfg, dtype_name, encode, got, ref))
        else:
            counts["different"] += 1
            first.append((codec_text, py_cfg, dtype_name, encode, arr, got, ref))
    _report(capsys, "Python converter vs the core's JSON text", counts, n, first)


# --- hostile arrays: every dtype into every codec ----------------------------------------------

HOSTILE = [
    np.array(["2020-01-01"], "datetime64[D]"),
    np.array([1], "timedelta64[s]"),
    np.array(["a"]),
    np.array([b"a"]),
    np.array([True]),
    np.array([1 + 1j]),
    np.array([None], object),
    np.zeros(1, [("a", "i4")]),
]


def test_property_every_input_dtype_is_right_or_a_coded_error(capsys):
    counts: Counter = Counter()
    first: list = []
    n = 0
    codecs = [
        zso.ScaleOffset(scale=2),
        zso.CFScaleOffset(scale=0.5, offset=1),
        zso.CastValue(data_type="uint8", out_of_range="clamp"),
    ]
    arrays = [np.array([1, 2, 3]).astype(_native(t)) for t in TYPES] + HOSTILE
    for codec in codecs:
        for arr in arrays:
            for target in TYPES:
                n += 1
                try:
                    out = zso.decode(codec, arr, target)
                    b = zso.bind(codec, target)
                    name = str(arr.dtype) if arr.dtype.kind != "V" else None
                    # Decoded only when the array holds the encoded type: then the core's bytes.
                    ok = _native(b.encoded_data_type) == arr.dtype.newbyteorder("=") and bytes(
                        to_core(out)
                    ) == bytes(b.decode(to_core(arr)))
                    counts["equal" if ok else "different"] += 1
                    if not ok:
                        first.append((codec, name, target))
                except zso.ZarrScaleOffsetError:
                    counts["coded"] += 1
                except Exception as e:
                    counts["different"] += 1
                    first.append((codec, str(arr.dtype), target, repr(e)))
    # Decoded only where the array holds the encoded type: 26 targets x 2 codecs and more.
    _report(capsys, "hostile input dtypes", counts, n, first, min_equal=26, min_coded=n // 2)
