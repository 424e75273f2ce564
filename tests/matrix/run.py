"""The cross-engine matrix (a step of scripts/test.sh; docs/guides/conformance.md).

A fixed set of 1-D arrays covering the four codecs, written by every writer and read by every
reader:

writers: ``node`` (the npm package's encodeChunk, tests/matrix/node.mjs), ``python`` (zarr-python
  with this package, tests/matrix/engine.py), ``zarrs`` (zarrs + the plugin,
  crates/zarrs/examples/matrix.rs), ``zarr-python`` (zarr-python 3 alone: its own scale_offset /
  cast_value, its numcodecs wrapper)
readers: the same four.

Every case is built from its *stored* values (``packed``); the decoded values every writer is
given, and every reader must return, come from an oracle that is not this package: numpy
arithmetic for scale_offset, xarray.decode_cf for cf.scale_offset, numcodecs for
numcodecs.fixedscaleoffset, ml_dtypes conversions for bfloat16 / float8 / int4. A cell is ``ok``
when, for every case, the writer's stored chunks equal the oracle's stored bytes (sharded
stores: equal across the writers) and the reader's decoded bytes equal the oracle's; otherwise
each failure must be one of EXPECTED (a documented error), or the run fails.

usage: python tests/matrix/run.py ZARRS_MATRIX_BINARY [--readme]  (--readme: also writes the table
to target/matrix-table.md, for docs/guides/conformance.md)
"""

from __future__ import annotations

import json
import subprocess
import sys
import tempfile
from pathlib import Path

import ml_dtypes
import numcodecs
import numpy as np
import xarray as xr

ROOT = Path(__file__).resolve().parents[2]
PY = sys.executable
NAN_U16 = {"encode": [["NaN", 0]], "decode": [[0, "NaN"]]}
NAN_I16 = {"encode": [["NaN", -32768]], "decode": [[-32768, "NaN"]]}


def so(offset=None, scale=None):
    cfg = {k: v for k, v in (("offset", offset), ("scale", scale)) if v is not None}
    return {"name": "scale_offset", "configuration": cfg}


def cast(dt, scalar_map=None):
    cfg = {"data_type": dt}
    if scalar_map:
        cfg["scalar_map"] = scalar_map
    return {"name": "cast_value", "configuration": cfg}


BYTES = {"name": "bytes", "configuration": {"endian": "little"}}


def meta(dtype, fill, codecs, n=8, chunk=4, shard=None):
    if shard:
        codecs = [
            {
                "name": "sharding_indexed",
                "configuration": {
                    "chunk_shape": [chunk],
                    "codecs": [*codecs, BYTES],
                    "index_codecs": [BYTES, {"name": "crc32c"}],
                    "index_location": "end",
                },
            }
        ]
        chunk = shard
    else:
        codecs = [*codecs, BYTES]
    return {
        "zarr_format": 3,
        "node_type": "array",
        "shape": [n],
        "data_type": dtype,
        "chunk_grid": {"name": "regular", "configuration": {"chunk_shape": [chunk]}},
        "chunk_key_encoding": {"name": "default", "configuration": {"separator": "/"}},
        "fill_value": fill,
        "codecs": codecs,
        "attributes": {},
    }


def cf_oracle(p, scale, offset, fill):
    ds = xr.Dataset(
        {
            "v": (
                "x",
                p,
                {"scale_factor": scale, "add_offset": offset, "_FillValue": fill},
            )
        }
    )
    return xr.decode_cf(ds)["v"].values


def cases():
    """(name, codec, zarr.json, packed stored values, decoded values from the oracle)."""
    out = []
    p = np.array([0, 1, 2, 400, 65535, 0, 7, 12345], "<u2")
    dec = np.where(p == 0, np.float32("nan"), p.astype("<f4") / np.float32(4) + np.float32(1000))
    out.append(
        (
            "so_f32_u16_nan",
            "scale_offset+cast_value",
            meta("float32", "NaN", [so(1000, 4), cast("uint16", NAN_U16)]),
            p,
            dec,
        )
    )
    p = np.array([-32768, -32767, -1, 0, 1, 1234, 32767, -32768], "<i2")
    dec = np.where(p == -32768, np.nan, p.astype("<f8") / 100.0 + -10.0)
    out.append(
        (
            "so_f64_i16_nan",
            "scale_offset+cast_value",
            meta("float64", "NaN", [so(-10, 100), cast("int16", NAN_I16)]),
            p,
            dec,
        )
    )
    p = np.array([-32768, -900, -1, 0, 1, 2500, 32767, -32768], "<i2")
    dec = cf_oracle(p, 0.01, 273.15, -32768).astype("<f8")
    out.append(
        (
            "cf_f64_i16_nan",
            "cf.scale_offset+cast_value",
            meta(
                "float64",
                "NaN",
                [
                    {
                        "name": "cf.scale_offset",
                        "configuration": {"scale": 0.01, "offset": 273.15},
                    },
                    cast("int16", NAN_I16),
                ],
            ),
            p,
            dec,
        )
    )
    p = np.array([-32768, -200, -2, 0, 2, 64, 1000, 32766], "<i2")
    dec = (p // 2 + 100).astype("<i2")
    out.append(("so_int16", "scale_offset", meta("int16", 0, [so(100, 2)]), p, dec))
    p = np.array([(2**60 + k - 1) * 3 for k in range(8)], "<u8")
    dec = (p // np.uint64(3) + np.uint64(1)).astype("<u8")
    out.append(("so_uint64", "scale_offset", meta("uint64", 1, [so(1, 3)]), p, dec))
    p = (np.arange(8, dtype="<f4") * 0.5 - 2).astype(ml_dtypes.float8_e4m3)
    dec = (p.astype("<f4") / np.float32(2)).astype(ml_dtypes.bfloat16)
    out.append(
        (
            "bf16_float8",
            "scale_offset+cast_value",
            meta("bfloat16", 0, [so(scale=2), cast("float8_e4m3")]),
            p,
            dec,
        )
    )
    p = np.array([-8, -7, -1, 0, 1, 3, 6, 7], "<i1")
    dec = p.astype("<f4") / np.float32(2)
    out.append(
        (
            "f32_int4",
            "scale_offset+cast_value",
            meta("float32", 0, [so(scale=2), cast("int4")]),
            p,
            dec,
        )
    )
    p = np.array([0, 1, 2, 400, 65535, 0, 7, 12345, 9, 8, 0, 6, 5, 4, 3, 2], "<u2")
    dec = np.where(p == 0, np.float32("nan"), p.astype("<f4") / np.float32(4) + np.float32(-100))
    out.append(
        (
            "sharded_f32_u16",
            "sharding_indexed(scale_offset+cast_value)",
            meta("float32", "NaN", [so(-100, 4), cast("uint16", NAN_U16)], n=16, shard=8),
            p,
            dec,
        )
    )
    p = np.array([0, 1, 15000, 15001, 65535, 2, 3, 4], "<u2")
    fso = numcodecs.FixedScaleOffset(offset=-1500, scale=10, dtype="<f8", astype="<u2")
    dec = fso.decode(p.tobytes())
    out.append(
        (
            "numcodecs_fso",
            "numcodecs.fixedscaleoffset (read-only)",
            meta(
                "float64",
                0,
                [
                    {
                        "name": "numcodecs.fixedscaleoffset",
                        "configuration": {
                            "offset": -1500,
                            "scale": 10,
                            "dtype": "<f8",
                            "astype": "<u2",
                        },
                    }
                ],
            ),
            p,
            dec,
        )
    )
    return out


WRITERS = ["node", "python", "zarrs", "zarr-python"]
READERS = ["node", "python", "zarrs", "zarr-python"]

# (case, "write"/"read", engine) -> a substring of the expected error message. Every one is
# explained in docs/guides/conformance.md.
NO_CF = "An implementation for codec 'cf.scale_offset' is not available"


def _roles(case, engine, text, roles=("write", "read")):
    return {(case, role, engine): text for role in roles}


EXPECTED = {
    **_roles("cf_f64_i16_nan", "zarr-python", NO_CF),  # zarr-python has no cf.scale_offset
    **_roles("bf16_float8", "zarr-python", "matches 'bfloat16'"),  # nor a bfloat16 data type
    **_roles("f32_int4", "zarr-python", "matches 'int4'"),  # nor an int4 data type
    # This package's numcodecs.fixedscaleoffset decodes only.
    **{
        k: v
        for e in WRITERS[:3]
        for k, v in _roles("numcodecs_fso", e, "read-only", ["write"]).items()
    },
    # encodeChunk / decodeChunk: one whole chunk, no sharding_indexed.
    **_roles("sharded_f32_u16", "node", "sharding_indexed"),
}


def writer_cmd(w, zarrs_bin, cases_file, out):
    return {
        "node": ["node", str(ROOT / "tests/matrix/node.mjs"), "write", cases_file, out],
        "python": [
            PY,
            str(ROOT / "tests/matrix/engine.py"),
            "write",
            "plugin",
            cases_file,
            out,
        ],
        "zarr-python": [
            PY,
            str(ROOT / "tests/matrix/engine.py"),
            "write",
            "alone",
            cases_file,
            out,
        ],
        "zarrs": [zarrs_bin, "write", cases_file, out],
    }[w]


def reader_cmd(r, zarrs_bin, stores):
    return {
        "node": ["node", str(ROOT / "tests/matrix/node.mjs"), "read", *stores],
        "python": [PY, str(ROOT / "tests/matrix/engine.py"), "read", "plugin", *stores],
        "zarr-python": [
            PY,
            str(ROOT / "tests/matrix/engine.py"),
            "read",
            "alone",
            *stores,
        ],
        "zarrs": [zarrs_bin, "read", *stores],
    }[r]


def chunk_files(store: Path) -> dict[str, bytes]:
    return (
        {
            str(f.relative_to(store)): f.read_bytes()
            for f in sorted((store / "c").rglob("*"))
            if f.is_file()
        }
        if (store / "c").is_dir()
        else {}
    )


def stored_view(b: bytes, dtype: str) -> bytes:
    # int4: only the low 4 bits of a stored byte count (the spec's packing); zarrs' bytes codec
    # writes the sign-extended in-memory byte (0xf8 for -8), the npm package 0x08.
    return bytes(x & 0x0F for x in b) if dtype == "int4" else b


def inner_chunks(shards: dict[str, bytes], m) -> dict[str, bytes]:
    """The inner chunks of 1-D shards (index at the end: (offset, nbytes) u64 pairs + crc32c),
    keyed c/<inner chunk index over the whole array>."""
    n = m["chunk_grid"]["configuration"]["chunk_shape"][0]
    n //= m["codecs"][0]["configuration"]["chunk_shape"][0]
    out = {}
    for key, b in shards.items():
        index = np.frombuffer(b[-(16 * n + 4) : -4], "<u8").reshape(n, 2)
        for j, (off, nbytes) in enumerate(index):
            out[f"c/{int(key.split('/')[1]) * n + j}"] = b[int(off) : int(off + nbytes)]
    return out


def hexes(files: dict[str, bytes]) -> dict[str, str]:
    return {k: v.hex() for k, v in files.items()}


def expected_error(case, role, engine, text):
    e = EXPECTED.get((case, role, engine))
    return e is not None and e in text


def main() -> int:
    zarrs_bin = sys.argv[1]
    the_cases = cases()
    failures = []
    cells = {(w, r): [] for w in WRITERS for r in READERS}
    notes = {}
    with tempfile.TemporaryDirectory(prefix="matrix-") as tmp:
        tmp = Path(tmp)
        cases_file = tmp / "cases.json"
        cases_file.write_text(
            json.dumps(
                [
                    {"name": n, "zarr_json": m, "input": d.tobytes().hex()}
                    for n, _, m, _, d in the_cases
                ]
            )
        )
        for w in WRITERS:
            subprocess.run(writer_cmd(w, zarrs_bin, str(cases_file), str(tmp / w)), check=True)
        decoded = {}
        for r in READERS:
            stores = [str(tmp / w / f"{n}.zarr") for w in WRITERS for n, *_ in the_cases]
            res = subprocess.run(
                reader_cmd(r, zarrs_bin, stores),
                check=True,
                capture_output=True,
                text=True,
            )
            lines = res.stdout.strip("\n").split("\n")
            assert len(lines) == len(stores), (r, res.stdout, res.stderr)
            decoded[r] = dict(zip(stores, lines, strict=True))
        for name, _codec, m, packed, dec in the_cases:
            want = dec.tobytes().hex()
            stored_dt = packed.dtype.name if name != "f32_int4" else "int4"
            sharded = m["codecs"][0]["name"] == "sharding_indexed"
            chunk = m["chunk_grid"]["configuration"]["chunk_shape"][0]
            if sharded:
                chunk = m["codecs"][0]["configuration"]["chunk_shape"][0]
            per = len(packed.tobytes()) // (m["shape"][0] // chunk)
            want_stored = {
                f"c/{i}": stored_view(packed.tobytes()[i * per : (i + 1) * per], stored_dt)
                for i in range(len(packed.tobytes()) // per)
            }
            for w in WRITERS:
                store = tmp / w / f"{name}.zarr"
                err = store / "error.txt"
                if err.exists():
                    text = err.read_text()
                    ok = expected_error(name, "write", w, text)
                    for r in READERS:
                        cells[(w, r)].append((name, "w-err" if ok else "FAIL"))
                    notes[(name, "write", w)] = text
                    if not ok:
                        failures.append(f"{name}: writer {w}: unexpected error: {text}")
                    continue
                files = chunk_files(store)
                if sharded:
                    # The order of inner chunks in a shard is the writer's choice (zarrs' varies
                    # from run to run): compare the inner chunks the shard index points at.
                    files = inner_chunks(files, m)
                stored_ok = {k: stored_view(v, stored_dt) for k, v in files.items()} == want_stored
                if not stored_ok:
                    failures.append(
                        f"{name}: writer {w}: stored chunks {hexes(files)} != {hexes(want_stored)}"
                    )
                for r in READERS:
                    got = decoded[r][str(store)]
                    if got.startswith("error: "):
                        ok = expected_error(name, "read", r, got)
                        cells[(w, r)].append((name, "r-err" if ok else "FAIL"))
                        notes[(name, "read", r)] = got
                        if not ok:
                            failures.append(
                                f"{name}: written by {w}, read by {r}: unexpected {got}"
                            )
                    elif got != want or not stored_ok:
                        cells[(w, r)].append((name, "FAIL"))
                        failures.append(
                            f"{name}: written by {w}, read by {r}: {got} != {want} (oracle)"
                        )
                    else:
                        cells[(w, r)].append((name, "ok"))
    table = render(the_cases, cells)
    print(table)
    for k, v in sorted(notes.items()):
        print(f"  {k[0]}: {k[1]} by {k[2]}: {v[:300]}")
    for f in failures:
        print("MISMATCH", f)
    if "--readme" in sys.argv:
        (ROOT / "target").mkdir(exist_ok=True)
        (ROOT / "target/matrix-table.md").write_text(table + "\n")
    print(
        f"matrix: {len(the_cases)} cases x {len(WRITERS)} writers x {len(READERS)} readers, "
        f"{len(failures)} unexpected"
    )
    return 1 if failures else 0


def render(the_cases, cells):
    lines = [
        "| writer \\ reader | " + " | ".join(READERS) + " |",
        "|---|" + "---|" * len(READERS),
    ]
    for w in WRITERS:
        row = []
        for r in READERS:
            c = cells[(w, r)]
            ok = sum(1 for _, s in c if s == "ok")
            werr = [n for n, s in c if s == "w-err"]
            rerr = [n for n, s in c if s == "r-err"]
            bad = [n for n, s in c if s == "FAIL"]
            txt = f"{ok}/{len(c)} equal"
            if werr:
                txt += f"; not written: {', '.join(werr)}"
            if rerr:
                txt += f"; read error: {', '.join(rerr)}"
            if bad:
                txt += f", **FAIL: {', '.join(bad)}**"
            row.append(txt)
        lines.append(f"| {w} | " + " | ".join(row) + " |")
    return "\n".join(lines)


if __name__ == "__main__":
    sys.exit(main())
