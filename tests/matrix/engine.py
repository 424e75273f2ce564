"""zarr-python engines of the cross-engine matrix (tests/matrix/run.py).

python engine.py write MODE CASES.json OUT_DIR: zarr-python writes every case to
    OUT_DIR/<name>.zarr
python engine.py read MODE STORE...: prints one line per store: hex of the decoded array
    (little-endian, C order) or "error: <Type>: <message>"

MODE ``plugin``: zarr-python with this package (``use_everywhere(fixedscaleoffset=True)``: the
read-only numcodecs.fixedscaleoffset is this package's too);
MODE ``alone``: zarr-python 3 without it (the package's entry points are hidden before zarr is
imported, so zarr-python sees only its own codecs and data types).
A case that fails to write leaves ``error.txt`` in its store directory.
"""

from __future__ import annotations

import importlib.metadata
import json
import sys
from pathlib import Path

MODE = sys.argv[2]
if MODE == "alone":
    _real = importlib.metadata.entry_points

    def _without_plugin(**kw):
        eps = _real(**kw)
        keep = [e for e in eps if not e.value.startswith("zarr_scale_offset")]
        return importlib.metadata.EntryPoints(keep)

    importlib.metadata.entry_points = _without_plugin

import numpy as np  # noqa: E402
import zarr  # noqa: E402

if MODE == "plugin":
    import zarr_scale_offset

    zarr_scale_offset.use_everywhere(fixedscaleoffset=True)


def write(cases: str, out: str) -> None:
    for case in json.loads(Path(cases).read_text()):
        d = Path(out) / f"{case['name']}.zarr"
        d.mkdir(parents=True, exist_ok=True)
        (d / "zarr.json").write_text(json.dumps(case["zarr_json"], indent=2))
        try:
            a = zarr.open_array(str(d), mode="r+")
            raw = bytes.fromhex(case["input"])
            a[...] = np.frombuffer(raw, dtype=a.dtype.newbyteorder("<")).reshape(a.shape)
        except Exception as e:
            (d / "error.txt").write_text(f"{type(e).__name__}: {e}")


def read(stores: list[str]) -> None:
    for s in stores:
        try:
            a = zarr.open_array(s, mode="r")
            v = np.ascontiguousarray(a[...])
            print(v.astype(v.dtype.newbyteorder("<")).tobytes().hex())
        except Exception as e:
            print(f"error: {type(e).__name__}: {e}".replace("\n", " "))


if __name__ == "__main__":
    if sys.argv[1] == "write":
        write(sys.argv[3], sys.argv[4])
    else:
        read(sys.argv[3:])
