"""Generates conformance/vectors/cf_scale_offset.json: the `cf.scale_offset` vectors of
docs/spec/cf.scale_offset.md (its worked examples and edge cases), each with its oracle.

No value here comes from this project's code. The oracles:

- "xarray 2026.9.0 decode_cf" / "xarray 2026.9.0 encode_cf_variable": float32 and float64
  arrays; xarray's CFScaleOffsetCoder and CFMaskCoder decide every decoded (and encoded) bit.
- "exact integer arithmetic": integer arrays; Python ints, an error where a step leaves the
  data type's range or a division is not exact (the spec's rule for integers).
- "exact rational arithmetic + ml_dtypes": the narrow float types; each operation computed
  exactly (fractions.Fraction, IEEE rules for NaN, infinity and signed zero), then rounded half to
  even to the nearest value of the format, found among all the format's values as ml_dtypes
  decodes them; overflow is infinity where the format has one, else an error. float16 results are
  also checked against NumPy's own float16 arithmetic.
- "spec": metadata errors (what the spec says is invalid).

Run once, in a throw-away environment (the output is committed):

    $(pyenv root)/versions/3.12.1/bin/python -m venv /tmp/venv-spec
    /tmp/venv-spec/bin/pip install 'zarr==3.4.2' 'xarray==2026.9.0' numpy ml_dtypes
    /tmp/venv-spec/bin/python conformance/generate/cf_scale_offset.py

(Formatted and checked with `ruff format --line-length 120` / `ruff check --line-length 120`.)
"""

import bisect
import json
import math
import random
import sys
import warnings
from fractions import Fraction
from pathlib import Path

import ml_dtypes
import numpy as np
import xarray as xr

OUT = Path(__file__).resolve().parent.parent / "vectors" / "cf_scale_offset.json"
XR = f"xarray {xr.__version__}"
XR_DEC = f"{XR} decode_cf"
XR_ENC = f"{XR} encode_cf_variable"
EXACT_INT = "exact integer arithmetic"
EXACT_FLOAT = f"exact rational arithmetic + ml_dtypes {ml_dtypes.__version__}"

warnings.simplefilter("ignore")


# ---- documents -------------------------------------------------------------------------------


def bytes_codec(dtype):
    size = np.dtype(np_type(dtype)).itemsize
    return {"name": "bytes", "configuration": {"endian": "little"}} if size > 1 else {"name": "bytes"}


def meta(dtype, n, fill, codecs):
    return {
        "shape": [n],
        "data_type": dtype,
        "chunk_grid": {"name": "regular", "configuration": {"chunk_shape": [n]}},
        "chunk_key_encoding": {"name": "default", "configuration": {"separator": "/"}},
        "fill_value": fill,
        "codecs": codecs,
        "attributes": {},
        "zarr_format": 3,
        "node_type": "array",
        "storage_transformers": [],
    }


def cf(scale=None, offset=None):
    cfg = {}
    if scale is not None:
        cfg["scale"] = scale
    if offset is not None:
        cfg["offset"] = offset
    return {"name": "cf.scale_offset", "configuration": cfg}


def cast(to, fill_code=None, **kw):
    cfg = {"data_type": to, "rounding": "nearest-even", **kw}
    if fill_code is not None:
        cfg["scalar_map"] = {"encode": [["NaN", fill_code]], "decode": [[fill_code, "NaN"]]}
    return {"name": "cast_value", "configuration": cfg}


NP = {
    "int8": np.int8,
    "int16": np.int16,
    "int32": np.int32,
    "int64": np.int64,
    "uint8": np.uint8,
    "uint16": np.uint16,
    "uint32": np.uint32,
    "uint64": np.uint64,
    "float16": np.float16,
    "float32": np.float32,
    "float64": np.float64,
}


def np_type(dtype):
    if dtype in NP:
        return NP[dtype]
    if dtype in ("int2", "int4"):
        return np.int8
    if dtype in ("uint2", "uint4"):
        return np.uint8
    return getattr(ml_dtypes, dtype)


def hexof(values, dtype):
    """Little-endian in-memory bytes (sub-byte ints: int8/uint8 containers)."""
    return np.asarray(values, dtype=np_type(dtype)).astype(np.dtype(np_type(dtype)).newbyteorder("<")).tobytes().hex()


def hex_codes(codes, nbytes=1):
    return b"".join(int(c).to_bytes(nbytes, "little") for c in codes).hex()


VECTORS = []


def vec(id_, oracle, metadata, expect, note, decoded=None, encoded=None):
    v = {"id": f"cf_scale_offset/{id_}", "oracle": oracle, "metadata": metadata}
    if decoded is not None:
        v["decoded"] = decoded
    if encoded is not None:
        v["encoded"] = encoded
    v["expect"] = expect
    v["note"] = note
    assert not any(x["id"] == v["id"] for x in VECTORS), v["id"]
    VECTORS.append(v)


# ---- xarray ----------------------------------------------------------------------------------


def xr_decode(packed, attrs):
    var = xr.Variable(("x",), packed, attrs=dict(attrs))
    return xr.conventions.decode_cf_variable("v", var).values


def xr_encode(values, encoding):
    var = xr.Variable(("x",), values, encoding=dict(encoding))
    return xr.conventions.encode_cf_variable(var, name="v").values


def f32text(x):
    """A float32 scalar as the shortest decimal that reads back to it in float32 (as a JSON
    number, read straight into float32 by a reader)."""
    return float(str(np.float32(x)))


def same_bits(a, b):
    a, b = np.asarray(a), np.asarray(b)
    if a.dtype != b.dtype or a.shape != b.shape:
        return False
    if a.dtype.kind == "f":
        return all((np.isnan(x) and np.isnan(y)) or x.tobytes() == y.tobytes() for x, y in zip(a, b))
    return np.array_equal(a, b)


def xarray_chain(
    id_, packed_dtype, codes, attrs, encoding_attrs, cf_cfg, fill_code, note, decoded_fill=None, encode=True
):
    """[cf.scale_offset, cast_value(packed)] (with a NaN <-> fill code map when fill_code is set):
    decoded = xarray.decode_cf(codes); encoded = xarray's encoder of those decoded values.
    Round trip when both agree, else decode_only + encode_only of what each gives."""
    packed = np.asarray(codes, dtype=NP[packed_dtype])
    dec = xr_decode(packed, attrs)
    dt = {np.dtype("float32"): "float32", np.dtype("float64"): "float64", np.dtype("int64"): "int64"}[dec.dtype]
    enc_attrs = dict(encoding_attrs, dtype=np.dtype(NP[packed_dtype]))
    enc_oracle = XR_ENC
    try:
        back = xr_encode(dec.copy(), enc_attrs)
    except TypeError:
        # xarray cannot divide an integer array in place: exact integers are the oracle.
        assert dec.dtype == np.int64 and "add_offset" not in attrs
        sf = attrs["scale_factor"]
        assert all(int(x) % sf == 0 for x in dec)
        back = np.array([int(x) // sf for x in dec], dtype=NP[packed_dtype])
        enc_oracle = EXACT_INT
    codecs = [cf_cfg, cast(packed_dtype, fill_code), bytes_codec(packed_dtype)]
    fill = "NaN" if fill_code is not None else (decoded_fill if decoded_fill is not None else 0)
    m = meta(dt, len(codes), fill, codecs)
    if not encode:
        vec(id_ + "/dec", XR_DEC, m, "decode_only", note, hexof(dec, dt), hexof(packed, packed_dtype))
    elif np.array_equal(back, packed):
        vec(
            id_,
            f"{XR_DEC} (decode); {enc_oracle} (encode)",
            m,
            "roundtrip",
            note,
            hexof(dec, dt),
            hexof(packed, packed_dtype),
        )
    else:
        vec(id_ + "/dec", XR_DEC, m, "decode_only", note, hexof(dec, dt), hexof(packed, packed_dtype))
        vec(
            id_ + "/enc",
            enc_oracle,
            m,
            "encode_only",
            note + " (encode of the decoded values by xarray's encoder)",
            hexof(dec, dt),
            hexof(back, packed_dtype),
        )
    return dec, dt


def xarray_float_alone(id_, dt, stored, scale, offset, note, fill=0.0, encode_values=None):
    """cf.scale_offset alone on a float32/float64 array: xarray decodes float packed data of the
    same type with attributes of that type in that type."""
    t = NP[dt]
    stored = np.asarray(stored, dtype=t)
    attrs = {}
    if scale is not None:
        attrs["scale_factor"] = t(scale)
    if offset is not None:
        attrs["add_offset"] = t(offset)
    dec = xr_decode(stored, attrs)
    assert dec.dtype == t, (id_, dec.dtype)

    def text(x):
        if not np.isfinite(x):
            return "NaN" if np.isnan(x) else ("Infinity" if x > 0 else "-Infinity")
        return f32text(x) if dt == "float32" else float(x)

    m = meta(
        dt,
        len(stored),
        fill,
        [cf(None if scale is None else text(scale), None if offset is None else text(offset)), bytes_codec(dt)],
    )
    vec(id_ + "/dec", XR_DEC, m, "decode_only", note, hexof(dec, dt), hexof(stored, dt))
    if encode_values is not None:
        x = np.asarray(encode_values, dtype=t)
        enc = xr_encode(x.copy(), {**attrs, "dtype": np.dtype(t)})
        assert enc.dtype == t
        me = dict(m, shape=[len(x)], chunk_grid={"name": "regular", "configuration": {"chunk_shape": [len(x)]}})
        vec(
            id_ + "/enc",
            XR_ENC,
            me,
            "encode_only",
            note + " Encode: (x - offset) / scale in the same type.",
            hexof(x, dt),
            hexof(enc, dt),
        )


# ---- exact integer arithmetic ----------------------------------------------------------------

INT_RANGE = {
    "int2": (-2, 1),
    "int4": (-8, 7),
    "int8": (-128, 127),
    "int16": (-(2**15), 2**15 - 1),
    "int32": (-(2**31), 2**31 - 1),
    "int64": (-(2**63), 2**63 - 1),
    "uint2": (0, 3),
    "uint4": (0, 15),
    "uint8": (0, 255),
    "uint16": (0, 2**16 - 1),
    "uint32": (0, 2**32 - 1),
    "uint64": (0, 2**64 - 1),
}


class Unrep(Exception):
    pass


class Gray(Exception):
    """A case the spec draft leaves open (its open questions): not generated."""


def split(values, fn):
    """(value, fn(value)) for the values fn maps, (value, why) for those it rejects as
    unrepresentable; the cases the spec leaves open (Gray) are left out."""
    ok, bad = [], []
    for x in values:
        try:
            ok.append((x, fn(x)))
        except Unrep as e:
            bad.append((x, str(e)))
        except Gray:
            pass
    return ok, bad


def int_step(dt, v, what):
    lo, hi = INT_RANGE[dt]
    if not lo <= v <= hi:
        raise Unrep(f"{what} = {v} is outside {dt}")
    return v


def int_decode(dt, y, scale, offset):
    return int_step(dt, int_step(dt, y * scale, "x * scale") + offset, "x * scale + offset")


def int_encode(dt, x, scale, offset):
    d = int_step(dt, x - offset, "x - offset")
    if d % scale != 0:
        raise Unrep(f"{d} / {scale} is not an integer")
    return int_step(dt, d // scale, "(x - offset) / scale")


def int_mem(dt, v):
    """In-memory value: int2/int4 sign-extended int8, uint2/uint4 zero-extended uint8."""
    return v


def int_case(id_, dt, scale, offset, stored, note, fill=None):
    """Decode every stored value: the ones that decode form one decode round trip (when the
    encode of the result gives the value back) and each failing one is a decode_error vector."""
    ok, bad = split(stored, lambda y: int_decode(dt, y, scale, offset))
    codec = cf(scale, offset)
    f = fill if fill is not None else (ok[0][1] if ok else 0)
    m = lambda n: meta(dt, n, f, [codec, bytes_codec(dt)])
    if ok:
        rt = all(int_encode(dt, x, scale, offset) == y for y, x in ok)
        vec(
            id_,
            EXACT_INT,
            m(len(ok)),
            "roundtrip" if rt else "decode_only",
            note,
            hexof([x for _, x in ok], dt),
            hexof([y for y, _ in ok], dt),
        )
    for i, (y, why) in enumerate(bad):
        vec(
            f"{id_}/decode-error-{i}",
            EXACT_INT,
            m(1),
            "decode_error",
            f"{note} Stored {y}: {why}: an error.",
            encoded=hexof([y], dt),
        )


def int_encode_errors(id_, dt, scale, offset, values, note, fill):
    for i, x in enumerate(values):
        try:
            r = int_encode(dt, x, scale, offset)
            raise AssertionError(f"{id_}: {x} encodes to {r}")
        except Unrep as e:
            why = str(e)
        vec(
            f"{id_}/{i}",
            EXACT_INT,
            meta(dt, 1, fill, [cf(scale, offset), bytes_codec(dt)]),
            "encode_error",
            f"{note} Value {x}: {why}: an error.",
            decoded=hexof([x], dt),
        )


# ---- exact rational arithmetic for the narrow float types -------------------------------------

NAN = ("nan",)


def num(q, neg=False):
    return ("num", Fraction(q), neg if q == 0 else q < 0)


def inf(neg):
    return ("inf", neg)


def sign(v):
    return v[2] if v[0] == "num" else v[1]


def mul(a, b):
    if a == NAN or b == NAN:
        return NAN
    s = sign(a) != sign(b)
    if a[0] == "inf" or b[0] == "inf":
        if (a[0] == "num" and a[1] == 0) or (b[0] == "num" and b[1] == 0):
            return NAN
        return inf(s)
    return num(a[1] * b[1], s)


def div(a, b):
    if a == NAN or b == NAN:
        return NAN
    s = sign(a) != sign(b)
    if a[0] == "inf":
        return NAN if b[0] == "inf" else inf(s)
    if b[0] == "inf":
        return num(0, s)
    assert b[1] != 0
    return num(a[1] / b[1], s)


def add(a, b):
    if a == NAN or b == NAN:
        return NAN
    if a[0] == "inf" and b[0] == "inf":
        return a if a[1] == b[1] else NAN
    if a[0] == "inf":
        return a
    if b[0] == "inf":
        return b
    q = a[1] + b[1]
    return num(q, a[2] and b[2]) if q == 0 else num(q)


def neg(a):
    if a == NAN:
        return a
    return inf(not a[1]) if a[0] == "inf" else ("num", -a[1], not a[2])


class Format:
    """A narrow float format: all its codes and values, as ml_dtypes decodes them."""

    def __init__(self, name):
        self.name = name
        t = np_type(name)
        self.t = t
        bits = {"float4_e2m1fn": 4, "float6_e2m3fn": 6, "float6_e3m2fn": 6}.get(name, 8 * np.dtype(t).itemsize)
        self.bits = bits
        container = np.uint8 if bits <= 8 else np.uint16
        codes = np.arange(2**bits, dtype=container)
        vals = codes.view(t).astype(np.float64)
        self.value = {}  # code -> ("num", Fraction, neg) / ("inf", neg) / NAN
        self.nan_code = None
        self.inf_code = {}
        finite = {}
        for c, v in zip(codes.tolist(), vals.tolist()):
            if math.isnan(v):
                self.value[c] = NAN
                if self.nan_code is None:
                    self.nan_code = c
            elif math.isinf(v):
                self.value[c] = inf(v < 0)
                self.inf_code[v < 0] = c
            else:
                self.value[c] = num(Fraction(v), math.copysign(1, v) < 0)
                key = (Fraction(v), math.copysign(1, v) < 0)
                finite.setdefault(key, c)
        self.finite = sorted(finite.items(), key=lambda kv: (kv[0][0], not kv[0][1]))
        self.has_negzero = any(k == (0, True) for k, _ in self.finite)
        self.by_value = {(k[0], k[1]): c for k, c in self.finite}
        self.mags = sorted({k[0] for k, _ in self.finite if k[0] >= 0})
        self.has_zero = any(k[0] == 0 for k, _ in self.finite)
        pos = [k[0] for k, _ in self.finite if k[0] > 0]
        self.max = max(pos)
        self.min_pos = min(pos)
        # the value after max with an unbounded exponent
        mbits = {
            "float16": 10,
            "bfloat16": 7,
            "float8_e4m3": 3,
            "float8_e3m4": 4,
            "float8_e5m2": 2,
            "float8_e4m3fnuz": 3,
            "float8_e5m2fnuz": 2,
            "float8_e4m3b11fnuz": 3,
            "float8_e8m0fnu": 0,
            "float6_e2m3fn": 3,
            "float6_e3m2fn": 2,
            "float4_e2m1fn": 1,
        }[name]
        e = math.floor(math.log2(self.max))
        self.after_max = self.max + Fraction(2) ** (e - mbits)

    def code_of(self, q, negzero):
        if q == 0 and not self.has_negzero:
            negzero = False
        return self.by_value[(q, negzero if q == 0 else q < 0)]

    def round(self, v, what):
        """Round an exact value half to even into the format: (code, value) or Unrep."""
        if v == NAN:
            if self.nan_code is None:
                raise Unrep(f"{what} is NaN, which {self.name} cannot represent")
            return self.nan_code, NAN
        if v[0] == "inf":
            if v[1] not in self.inf_code:
                raise Unrep(f"{what} overflows {self.name}, which has no infinity")
            return self.inf_code[v[1]], v
        q, nz = v[1], v[2]
        if q == 0:
            if not self.has_zero:
                raise Unrep(f"{what} is 0, which {self.name} cannot represent")
            c = self.code_of(0, nz)
            return c, self.value[c]
        a = abs(q)
        if a >= (self.max + self.after_max) / 2:
            if a == (self.max + self.after_max) / 2:
                raise Gray("a tie at the overflow threshold")
            if (q < 0) in self.inf_code:
                return self.inf_code[q < 0], inf(q < 0)
            raise Unrep(f"{what} = {float(q)} overflows {self.name}, which has no infinity")
        if q < 0 and not any(k[0] < 0 for k, _ in self.finite):
            raise Unrep(f"{what} = {float(q)} is negative, which {self.name} cannot represent")
        if not self.has_zero and a < self.min_pos:
            raise Gray("below the smallest value of a format without zero")
        # the magnitudes next to |q| (bisection over the sorted non-negative values)
        i = bisect.bisect_left(self.mags, a)
        near = [m for m in self.mags[max(0, i - 1) : i + 1]]
        best = min(abs(m - a) for m in near)
        near = [m for m in near if abs(m - a) == best]
        codes = [self.code_of(-m if q < 0 else m, q < 0) for m in near]
        if len(codes) > 1:
            even = [c for c in codes if c % 2 == 0]
            assert len(even) == 1, (self.name, q, codes)
            codes = even
        return codes[0], self.value[codes[0]]

    def scalar(self, text):
        """A JSON scalar (number text) rounded into the format."""
        return self.round(num(Fraction(text)), "scalar")[1]


def narrow_decode(f, code, S, O):
    c, t = f.round(mul(f.value[code], S), "x * scale")
    if O is None:
        return c
    return f.round(add(t, O), "x * scale + offset")[0]


def narrow_encode(f, code, S, O):
    x = f.value[code]
    if O is not None:
        _, x = f.round(add(x, neg(O)), "x - offset")
    return f.round(div(x, S), "(x - offset) / scale")[0]


def narrow_case(name, codes, scale, offset, note, fill):
    f = Format(name)
    S = f.scalar(str(scale))
    O = None if offset is None else f.scalar(str(offset))
    m = lambda n: meta(name, n, fill, [cf(scale, offset), bytes_codec(name)])
    for direction, fn in (("dec", narrow_decode), ("enc", narrow_encode)):
        ok, bad = split(codes, lambda c, fn=fn: fn(f, c, S, O))
        if name == "float16":  # cross-check against NumPy's float16 arithmetic
            for c, r in ok:
                x = np.array([c], np.uint16).view(np.float16)[0]
                s, o = np.float16(scale), None if offset is None else np.float16(offset)
                want = (x * s if o is None else x * s + o) if direction == "dec" else ((x if o is None else x - o) / s)
                got = np.array([r], np.uint16).view(np.float16)[0]
                assert (np.isnan(want) and np.isnan(got)) or want.tobytes() == got.tobytes(), (c, want, got)
        nb = 2 if np.dtype(f.t).itemsize == 2 else 1
        src = hex_codes([c for c, _ in ok], nb)
        dst = hex_codes([r for _, r in ok], nb)
        off = "" if offset is None else f", offset {offset}"
        what = f"{name} cf.scale_offset(scale {scale}{off})"
        if direction == "dec":
            vec(
                f"{name}/s{scale}-o{offset}/dec",
                EXACT_FLOAT,
                m(len(ok)),
                "decode_only",
                f"{what}: decode x * scale + offset, one round-half-to-even per operation. {note}",
                decoded=dst,
                encoded=src,
            )
        else:
            vec(
                f"{name}/s{scale}-o{offset}/enc",
                EXACT_FLOAT,
                m(len(ok)),
                "encode_only",
                f"{what}: encode (x - offset) / scale, one round-half-to-even per operation. {note}",
                decoded=src,
                encoded=dst,
            )
        for i, (c, why) in enumerate(bad[:3]):
            one = hex_codes([c], nb)
            if direction == "dec":
                vec(
                    f"{name}/s{scale}-o{offset}/dec-error-{i}",
                    EXACT_FLOAT,
                    m(1),
                    "decode_error",
                    f"{what}: stored code {c:#x}: {why}: an error.",
                    encoded=one,
                )
            else:
                vec(
                    f"{name}/s{scale}-o{offset}/enc-error-{i}",
                    EXACT_FLOAT,
                    m(1),
                    "encode_error",
                    f"{what}: value code {c:#x}: {why}: an error.",
                    decoded=one,
                )


# ---- the cases ------------------------------------------------------------------------------


def spec_examples():
    # Example 1 of the spec: cf.scale_offset alone on float32 (scale 0.1, offset 5), float32 math.
    xarray_float_alone(
        "example-float32",
        "float32",
        [1.0, 2.5, 3.3, 1e-3, 123.456, -7.77],
        np.float32(0.1),
        np.float32(5),
        "Spec example 1: float32, scale 0.1 and offset 5 read as float32; decode x * 0.1 + 5 in float32 "
        "(xarray: float32 data with float32 scale_factor/add_offset stays float32).",
        fill=5.0,
        encode_values=[5.0, 5.1, 5.3, 6.0, 17.345, 0.0],
    )
    # Example 2: [cf.scale_offset, cast_value(uint8, NaN <-> 0)], float64 (the scale_offset README's
    # third example, in the multiply-to-unpack convention): codes 1..255 -> 0.0..25.4.
    xarray_chain(
        "example-float64-uint8-nan",
        "uint8",
        list(range(256)),
        {"scale_factor": 0.1, "add_offset": -0.1, "_FillValue": np.uint8(0)},
        {"scale_factor": 0.1, "add_offset": -0.1, "_FillValue": np.uint8(0)},
        cf(0.1, -0.1),
        0,
        "Spec example 2: float64 with fill NaN stored as uint8: decode code * 0.1 + (-0.1) in float64, "
        "code 0 <-> NaN by cast_value's scalar_map (xarray: _FillValue 0 masked to NaN).",
    )
    # Example 3: Sentinel-2 L2A reflectance (uint16, 1e-4, -0.1, 0 <-> NaN), a sample of codes.
    rng = random.Random(20)
    codes = sorted(
        set([0, 1, 2, 999, 1000, 1001, 10000, 32767, 32768, 65534, 65535] + [rng.randrange(65536) for _ in range(500)])
    )
    xarray_chain(
        "example-sentinel2-uint16",
        "uint16",
        codes,
        {"scale_factor": 0.0001, "add_offset": -0.1, "_FillValue": np.uint16(0)},
        {"scale_factor": 0.0001, "add_offset": -0.1, "_FillValue": np.uint16(0)},
        cf(0.0001, -0.1),
        0,
        "Spec example 3: Sentinel-2 reflectance, uint16 * 1e-4 - 0.1 in float64 with 0 <-> NaN "
        "(scale_offset with scale 1e4 differs from xarray on about 30% of these codes).",
    )
    # Example 4: int16 with float32 attributes: xarray decodes in float32.
    codes = [-32768, -32767, -1, 0, 1, 2, 100, 1234, 5000, 32766, 32767] + list(range(-300, 300, 7))
    xarray_chain(
        "example-int16-float32",
        "int16",
        codes,
        {"scale_factor": np.float32(0.01), "add_offset": np.float32(273.15), "_FillValue": np.int16(-32768)},
        {"scale_factor": np.float32(0.01), "add_offset": np.float32(273.15), "_FillValue": np.int16(-32768)},
        cf(f32text(0.01), f32text(273.15)),
        -32768,
        "Spec example 4: int16 temperatures with float32 scale_factor 0.01 and add_offset 273.15: xarray "
        "decodes in float32 (two float32 roundings), so the array is float32; -32768 <-> NaN.",
    )


def float_edges():
    big32 = float(np.finfo(np.float32).max)
    xarray_float_alone(
        "float32-specials",
        "float32",
        [np.nan, np.inf, -np.inf, 0.0, -0.0, big32, -big32, 1e-45, 1e-40, -3.5, 1.0],
        np.float32(2.5),
        np.float32(-1.0),
        "float32 decode of NaN, +-Infinity, +-0, the largest float32 (overflows to infinity: a "
        "representable value, not an error), subnormals; x * 2.5 - 1 in float32.",
        encode_values=[np.nan, np.inf, -np.inf, 0.0, -0.0, big32, 1e-45, -1.0, 4.0],
    )
    xarray_float_alone(
        "float64-specials",
        "float64",
        [np.nan, np.inf, -np.inf, 0.0, -0.0, 1.7976931348623157e308, 5e-324, 3.0, -7.25],
        0.1,
        1e308,
        "float64 decode x * 0.1 + 1e308: NaN and infinities pass, 0 and -0 give the offset; 3 * 0.1 "
        "is 0.30000000000000004 (multiplying, not dividing by 10).",
        encode_values=[np.nan, np.inf, 1e308, 1.7976931348623157e308, -1.7976931348623157e308],
    )
    xarray_float_alone(
        "float64-infinite-scale",
        "float64",
        [0.0, 1.0, -1.0, np.nan, 1e-300],
        np.inf,
        1.0,
        "float64 scale Infinity (valid, with a warning): 0 * inf is NaN, others +-Infinity.",
    )
    xarray_float_alone(
        "float64-negative-scale",
        "float64",
        [0.0, -0.0, 1.0, -1.0, 3.0, 1e300],
        -0.25,
        10.0,
        "float64, negative scale: x * -0.25 + 10.",
        encode_values=[10.0, 9.75, 0.0, -1e300],
    )
    # A missing offset adds nothing: -0.0 * 2 stays -0.0 (xarray applies add_offset only when
    # present). Adding +0.0 would turn -0.0 into +0.0.
    xarray_float_alone(
        "float64-scale-only-negative-zero",
        "float64",
        [-0.0, 0.0, -1.5, 2.0],
        2.0,
        None,
        "float64 with a scale and no offset: decode x * 2 with no addition, so -0.0 stays -0.0 "
        "(xarray applies add_offset only when present; x + 0.0 would give +0.0).",
        encode_values=[-0.0, 0.0, -3.0, 4.0],
    )
    xarray_float_alone(
        "float32-scale-only-negative-zero",
        "float32",
        [-0.0, 0.0, 3.0],
        np.float32(0.5),
        None,
        "float32 with a scale and no offset: -0.0 * 0.5 is -0.0 and stays -0.0.",
        encode_values=[-0.0, 1.5],
    )
    # The packed-integer form of the same: code 0 with a negative scale decodes to -0.0.
    xarray_chain(
        "int16-negative-scale-only",
        "int16",
        [0, 1, -1, 40, -32767],
        {"scale_factor": -0.5},
        {"scale_factor": -0.5},
        cf(-0.5, None),
        None,
        "int16 with scale_factor -0.5 and no add_offset: code 0 decodes to 0 * -0.5 = -0.0 in float64 "
        "(xarray applies no offset).",
        decoded_fill=-0.0,
    )
    # An identity codec (no configuration) leaves every float, -0.0 included, unchanged.
    vals = [-0.0, 0.0, 1.5, np.nan, -np.inf]
    m = meta("float64", len(vals), 0.0, [{"name": "cf.scale_offset"}, bytes_codec("float64")])
    vec(
        "float64-identity-no-configuration",
        "spec",
        m,
        "roundtrip",
        "No configuration: scale 1, no offset: a no-op for every value, -0.0 included "
        "(xarray.decode_cf without scale_factor/add_offset leaves the data alone).",
        hexof(vals, "float64"),
        hexof(vals, "float64"),
    )
    m = meta("float32", len(vals), 0.0, ["cf.scale_offset", bytes_codec("float32")])
    vec(
        "float32-identity-short-hand",
        "spec",
        m,
        "roundtrip",
        "The short-hand name form (Zarr 3.1 extension-definition): the identity.",
        hexof(vals, "float32"),
        hexof(vals, "float32"),
    )
    m = meta("float32", len(vals), 0.0, [{"name": "cf.scale_offset", "configuration": {}}, bytes_codec("float32")])
    vec(
        "float32-identity-empty-configuration",
        "spec",
        m,
        "roundtrip",
        "An empty configuration: the identity.",
        hexof(vals, "float32"),
        hexof(vals, "float32"),
    )
    # int32 packed with float32 attributes: xarray decodes in float64 (4-byte integer), the
    # float32 attribute values exactly.
    xarray_chain(
        "int32-float32-attrs-float64",
        "int32",
        [0, 1, -1, 2**31 - 1, -(2**31), 123456789],
        {"scale_factor": np.float32(0.1), "add_offset": np.float32(-5)},
        {"scale_factor": np.float32(0.1), "add_offset": np.float32(-5)},
        cf(float(np.float32(0.1)), -5.0),
        None,
        "int32 packed with float32 scale_factor 0.1 and add_offset -5: xarray picks float64 for 4-byte "
        "integers; the scale is float32(0.1) = 0.100000001490116... written exactly as a float64 number. "
        "Decode only: xarray's encoder computes this case in float32 (its decoder in float64), so it "
        "encodes the decoded 2147483647 back as -2147483648 (float32 rounding, then int32 wrap-around); "
        "cf.scale_offset encodes in the array's float64 (conformance/README.md, Deviations).",
        decoded_fill=-5.0,
        encode=False,
    )
    # An integer scale_factor alone: xarray decodes to int64 (integer arithmetic).
    xarray_chain(
        "int16-int-scale-int64",
        "int16",
        [0, 1, -1, 7, 32767, -32768],
        {"scale_factor": 3},
        {"scale_factor": 3},
        cf(3, None),
        None,
        "int16 with a Python int scale_factor 3 and no add_offset: xarray decodes to int64, x * 3; "
        "encode (x / 3, exact) has xarray no oracle (it cannot divide int64 in place): exact integers.",
    )


def integer_cases():
    int_case(
        "int16-exact",
        "int16",
        4,
        -100,
        [-3, 0, 5, 100, 8000, 8216, 8217, -8167, -8168],
        "int16 decode x * 4 - 100 in exact integers, every step range-checked.",
    )
    int_case(
        "int8-intermediate",
        "int8",
        4,
        -100,
        [10, 31, 32, 56, -7, -8],
        "int8 x * 4 - 100: 32 * 4 = 128 leaves int8 before the offset would bring it back (an "
        "intermediate out of range is an error).",
    )
    int_case("uint8", "uint8", 3, 5, [0, 1, 83, 84, 85], "uint8 x * 3 + 5.")
    int_case("uint64", "uint64", 2, 1, [0, 1, 2**62, 2**63 - 1, 2**63], "uint64 x * 2 + 1 beyond 2^53 and 2^63.")
    int_case(
        "int64-min",
        "int64",
        -1,
        0,
        [0, 5, -(2**63) + 1, 2**63 - 1, -(2**63)],
        "int64 x * -1: -(-2^63) is outside int64.",
    )
    int_case("int32-negative-scale", "int32", -3, 7, [0, 1, -1, 715827880, -715827882, 715827883], "int32 x * -3 + 7.")
    int_case(
        "int4",
        "int4",
        -1,
        0,
        [-7, -1, 0, 1, 7, -8],
        "int4 (sign-extended in memory) x * -1: -(-8) = 8 is outside int4.",
    )
    int_case("uint2", "uint2", 1, 1, [0, 1, 2, 3], "uint2 x + 1: 3 + 1 is outside uint2.")
    int_case("int2", "int2", 1, -1, [-1, 0, 1, -2], "int2 x - 1: -2 - 1 is outside int2.")
    int_encode_errors(
        "int16-encode-inexact",
        "int16",
        4,
        -100,
        [-99, 3, 7],
        "int16 encode (x + 100) / 4 must divide exactly:",
        fill=-100,
    )
    int_encode_errors(
        "uint8-encode-underflow", "uint8", 3, 5, [4, 0], "uint8 encode (x - 5) / 3: x - 5 below 0:", fill=5
    )
    int_encode_errors("int8-encode-overflow", "int8", 1, -100, [28, 127], "int8 encode x + 100 above 127:", fill=0)
    int_encode_errors("int64-encode-min", "int64", -1, 0, [-(2**63)], "int64 encode x / -1:", fill=0)


def narrow_cases():
    rng = random.Random(64)
    for name, scale, offset, note in [
        ("float16", 0.1, 5, "float16 ops equal NumPy's float16 arithmetic (float32 op, then one rounding)."),
        ("bfloat16", 0.01, -1.5, "bfloat16 has Inf and NaN."),
        ("float8_e4m3", 1.5, -2, "float8_e4m3 (IEEE-like, with Inf): overflow gives Inf."),
        ("float8_e5m2", 0.75, None, "no offset: nothing is added (so -0 stays -0)."),
        ("float8_e4m3fnuz", 2, 1, "fnuz: no Inf, no -0, one NaN (0x80): overflow is an error."),
        ("float8_e5m2fnuz", 0.5, None, "fnuz, no offset."),
        ("float8_e4m3b11fnuz", 3, 0.25, "fnuz with bias 11."),
        ("float8_e3m4", 0.25, 1, "3 exponent bits, 4 mantissa bits, Inf and NaN."),
        ("float6_e2m3fn", 1.5, 0.5, "no Inf, no NaN: overflow is an error."),
        ("float6_e3m2fn", 0.5, -1, "no Inf, no NaN."),
        ("float4_e2m1fn", 1.5, 1, "values 0, 0.5, 1, 1.5, 2, 3, 4, 6 and negatives."),
        (
            "float8_e8m0fnu",
            2,
            None,
            "powers of two only, no zero, no sign, NaN 0xff; no offset (it has no zero to add).",
        ),
    ]:
        f = Format(name)
        n = 2**f.bits
        codes = (
            list(range(n))
            if n <= 256
            else sorted(
                set(
                    [0, 1, 0x3C00, 0x7BFF, 0x7C00, 0x7E00, 0x8000, 0xFC00, 0xFBFF, 0x0400, 0x03FF]
                    + [rng.randrange(n) for _ in range(400)]
                )
            )
        )
        if name == "bfloat16":
            codes = sorted(
                set([0, 1, 0x3F80, 0x7F7F, 0x7F80, 0x7FC0, 0x8000, 0xFF80] + [rng.randrange(n) for _ in range(400)])
            )
        fill = 1.0 if name != "float8_e8m0fnu" else 2.0
        narrow_case(name, codes, scale, offset, note, fill)


def metadata_errors():
    def bad(id_, dt, fill, codecs, note, n=2):
        size = np.dtype(np_type(dt)).itemsize
        vec(f"metadata/{id_}", "spec", meta(dt, n, fill, codecs), "metadata_error", note, encoded="00" * (n * size))

    b = lambda dt: bytes_codec(dt)
    bad(
        "zero-scale",
        "float64",
        0.0,
        [cf(0, 1), b("float64")],
        "scale 0: decode would be constant and encode a division by zero.",
    )
    bad("negative-zero-scale", "float64", 0.0, [cf(-0.0, 1), b("float64")], "scale -0.0 is zero.")
    bad("hex-zero-scale", "float32", 0.0, [cf("0x00000000"), b("float32")], "scale 0 as a hex fill-value string.")
    bad("underflow-zero-scale", "float64", 0.0, [cf(1e-400), b("float64")], "1e-400 rounds to 0 in float64.")
    bad(
        "float16-underflow-zero-scale",
        "float16",
        0.0,
        [cf(1e-10), b("float16")],
        "1e-10 rounds to 0 in float16 (scalars are read in the array's data type).",
    )
    bad("int-zero-scale", "int16", 0, [cf(0), b("int16")], "integer scale 0.")
    bad(
        "unknown-key",
        "float64",
        0.0,
        [{"name": "cf.scale_offset", "configuration": {"scale_factor": 0.1}}, b("float64")],
        "CF's attribute name is not a key: only scale and offset.",
    )
    bad(
        "extra-key",
        "float64",
        0.0,
        [{"name": "cf.scale_offset", "configuration": {"scale": 0.1, "offset": 1, "dtype": "<f8"}}, b("float64")],
        "an additional key makes the metadata invalid.",
    )
    bad(
        "configuration-not-object",
        "float64",
        0.0,
        [{"name": "cf.scale_offset", "configuration": [0.1, 1]}, b("float64")],
        "configuration must be an object.",
    )
    bad("scale-boolean", "float64", 0.0, [cf(True), b("float64")], "scale must be a scalar of the data type.")
    bad(
        "scale-null",
        "float64",
        0.0,
        [{"name": "cf.scale_offset", "configuration": {"scale": None}}, b("float64")],
        "null is no scalar.",
    )
    bad("scale-text", "float64", 0.0, [cf("ten"), b("float64")], "a string that is no fill-value spelling.")
    bad("int-fraction-offset", "int16", 0, [cf(2, 1.5), b("int16")], "int16 offset 1.5 is not an integer.")
    bad("int-nan-scale", "int32", 0, [cf("NaN"), b("int32")], "int32 has no NaN.")
    bad("uint8-negative-offset", "uint8", 0, [cf(1, -1), b("uint8")], "uint8 offset -1 is outside uint8.")
    bad("int8-scale-range", "int8", 0, [cf(300), b("int8")], "int8 scale 300 is outside int8.")
    bad("float4-no-nan-offset", "float4_e2m1fn", 0.0, [cf(1, "NaN"), b("float4_e2m1fn")], "float4_e2m1fn has no NaN.")
    bad(
        "fill-encode-underflow",
        "uint8",
        0,
        [cf(1, 5), b("uint8")],
        "fill 0 cannot pass encode (0 - 5 is below 0): the fill value travels through the codec.",
    )
    bad("fill-encode-inexact", "int16", 7, [cf(2), b("int16")], "fill 7 cannot pass encode: 7 / 2 is not an integer.")
    bad(
        "fill-encode-overflow-fnuz",
        "float8_e4m3fnuz",
        200.0,
        [cf(0.5), b("float8_e4m3fnuz")],
        "fill 200 encodes to 400, beyond float8_e4m3fnuz's 240 (no infinity).",
    )
    bad(
        "fill-nan-without-map",
        "float64",
        "NaN",
        [cf(0.1, -0.1), cast("uint8"), b("uint8")],
        "the fill NaN passes cf.scale_offset (NaN) but cast_value has no NaN entry in its scalar_map: uint8 has no NaN.",
    )
    bad(
        "fill-cast-not-round-trip",
        "float64",
        0.05,
        [cf(0.1), cast("uint8"), b("uint8")],
        "fill 0.05 encodes to 0.5, rounds to code 0, which decodes to 0.0: the fill does not survive the chain.",
    )
    bad(
        "wrong-name-case",
        "float64",
        0.0,
        [{"name": "CF.scale_offset", "configuration": {"scale": 2}}, b("float64")],
        "names are case-sensitive: CF.scale_offset is an unknown codec.",
    )


def main():
    spec_examples()
    float_edges()
    integer_cases()
    narrow_cases()
    metadata_errors()
    OUT.write_text(json.dumps(VECTORS, indent=None, separators=(",", ":")).replace('},{"id"', '},\n{"id"') + "\n")
    counts = {}
    for v in VECTORS:
        counts[v["expect"]] = counts.get(v["expect"], 0) + 1
    print(f"{len(VECTORS)} vectors -> {OUT}: {counts}", file=sys.stderr)


if __name__ == "__main__":
    main()
