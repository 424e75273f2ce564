"""Shared helpers of the Python engine's tests."""

from __future__ import annotations

import json
import subprocess
from pathlib import Path

import numpy as np
import pytest
import zarr
from zarr.storage import MemoryStore

REPO = Path(__file__).resolve().parents[2]
#: The conformance vectors shared with the Rust (tests/conformance.rs) and JS
#: (tests/js/conformance.test.mjs) runners. The one place that names their folder.
VECTORS_DIR = REPO / "conformance" / "vectors"
NODE_DECODE = Path(__file__).with_name("node_decode.mjs")


def bits(a: np.ndarray) -> np.ndarray:
    """The elements' bit patterns (unsigned integers of the same width), little-endian order."""
    a = np.ascontiguousarray(a)
    return a.view(f"u{a.dtype.itemsize}")


def memory_array(shape, chunks, dtype, fill, filters, **kw):
    """An uncompressed array in a new MemoryStore (what the fused-chain and pipeline tests
    read and write); `kw` goes to `zarr.create_array` (e.g. `shards`)."""
    return zarr.create_array(
        MemoryStore(),
        shape=shape,
        chunks=chunks,
        dtype=dtype,
        fill_value=fill,
        filters=filters,
        compressors=None,
        **kw,
    )


def node_decode(array_dir: Path, out_dir: Path) -> int:
    """Decodes every stored chunk of a local Zarr v3 array with the built wasm package
    (dist/index.js) in Node; returns the number of chunks (the files are under ``out_dir``)."""
    if not (REPO / "dist" / "index.js").exists():
        pytest.fail("dist/index.js is missing: run `npm run build` first")
    r = subprocess.run(
        ["node", str(NODE_DECODE), str(array_dir), str(out_dir)],
        capture_output=True,
        text=True,
        check=False,
    )
    assert r.returncode == 0, r.stderr
    return json.loads(r.stdout)["chunks"]


def assert_chunks_equal_in_node(array_dir: Path, arr, tmp_path: Path) -> int:
    """Every stored chunk of ``arr`` (a zarr.Array in the local store ``array_dir``, no
    compressors, default chunk keys) decoded in Node equals zarr-python's read of that region,
    bit for bit. Returns the number of chunks compared."""
    out = tmp_path / "node-decoded"
    n = node_decode(array_dir, out)
    chunk_shape = arr.metadata.chunk_grid.chunk_shape
    dtype = arr.dtype.newbyteorder("<")
    seen = 0
    for f in sorted(out.rglob("*")):
        if f.is_dir():
            continue
        idx = tuple(int(p) for p in f.relative_to(out / "c").parts)
        region = tuple(
            slice(i * c, min((i + 1) * c, s))
            for i, c, s in zip(idx, chunk_shape, arr.shape, strict=True)
        )
        got = np.frombuffer(f.read_bytes(), dtype=dtype).reshape(chunk_shape)
        got = got[tuple(slice(0, r.stop - r.start) for r in region)]
        want = np.asarray(arr[region]).astype(dtype)
        np.testing.assert_array_equal(bits(got), bits(want), err_msg=f"chunk {idx}")
        seen += 1
    assert seen == n
    return n


#: Outcomes of the conformance vectors (test_vectors.py), printed at the end of the run.
VECTOR_COUNTS: dict[str, dict[str, int]] = {}
#: Outcomes of the GPU-mode cases (test_gpu_dispatch.py), by backend, printed at the end.
GPU_COUNTS: dict[str, int] = {}


def pytest_terminal_summary(terminalreporter):
    tr = terminalreporter
    if GPU_COUNTS:
        tr.section("GPU mode (stand-in device; CuPy where it finds a device) vs the CPU path")
        for k, v in sorted(GPU_COUNTS.items()):
            tr.write_line(f"{k:32} {v}")
    if not VECTOR_COUNTS:
        return
    tr.section("conformance vectors through zarr-python + zarr_scale_offset")
    total: dict[str, int] = {}
    for family, c in sorted(VECTOR_COUNTS.items()):
        parts = ", ".join(f"{k} {v}" for k, v in sorted(c.items()))
        tr.write_line(f"{family:18} {parts}")
        for k, v in c.items():
            total[k] = total.get(k, 0) + v
    tr.write_line(f"{'total':18} " + ", ".join(f"{k} {v}" for k, v in sorted(total.items())))
