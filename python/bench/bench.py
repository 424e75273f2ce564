"""Benchmark: one uncompressed 4 Mi-element chunk through zarr-python 3.4.2, read and write,
with zarr_scale_offset's codecs vs zarr-python's own ScaleOffset + CastValue (cast-value-rs)
vs no codecs, all measured in this run; then 2 threads reading different chunks vs 1.

    .venv/bin/python python/bench/bench.py [--repeat N] [--rounds R]

Prints a table of best times (R rounds of N calls after 3 warm-up calls, per chain) and the
ratios with their targets: >= 3x zarr-python's own on each two-codec chain, >= 10x on int16
scale_offset, within 2x of no codecs (the floor), 2 threads >= 1.6x one thread (zarr's
FusedCodecPipeline, which runs codecs off the event loop; the default BatchedCodecPipeline runs
every codec on zarr's one event-loop thread). Two bounds are printed with them, measured in the
same run: zarr/none, the most zarr/ours can be (no chain is faster than no codecs), and the
2-thread ratio of the same array without codecs and of our bound codecs alone.
"""

from __future__ import annotations

import argparse
import os
import threading
import time

# numpy's OpenBLAS threads spin for a while after any BLAS call; on a 2-core machine a spinning
# thread takes a core from the codecs and from zarr's I/O thread alike (seen in perf as
# blas_thread_server). Nothing here uses BLAS.
os.environ.setdefault("OPENBLAS_NUM_THREADS", "1")

import numpy as np
import zarr
import zarr.codecs as zc
from zarr.storage import MemoryStore

import zarr_scale_offset as zso

N = 2048  # 2048 x 2048 = 4 Mi elements per chunk


def cases(rng):
    codes16 = rng.integers(0, 65535, (N, N)).astype(np.float32)
    s16 = rng.integers(-30000, 30000, (N, N)).astype(np.float32)
    u8 = rng.integers(0, 256, (N, N)).astype(np.float64)
    f64 = u8 / 2
    f64[u8 == 0] = np.nan
    i16 = rng.integers(-16000, 16000, (N, N), dtype=np.int16)
    sm = {"encode": [["NaN", 0]], "decode": [[0, "NaN"]]}
    return [
        (
            "float32 <- uint16",
            codes16 / np.float32(100) - np.float32(10),
            {"offset": -10, "scale": 100},
            {"data_type": "uint16"},
            0,
        ),
        ("float32 <- int16", s16 / np.float32(10), {"scale": 10}, {"data_type": "int16"}, 0),
        (
            "float64 <- uint8, NaN map",
            f64,
            {"scale": 2},
            {"data_type": "uint8", "scalar_map": sm},
            "NaN",
        ),
        ("int16 scale_offset", i16, {"offset": 5, "scale": 2}, None, 5),
    ]


def make(x, filters, fill, chunks=(N, N), shape=None):
    a = zarr.create_array(
        MemoryStore(),
        shape=shape or x.shape,
        chunks=chunks,
        dtype=x.dtype,
        fill_value=fill,
        filters=filters,
        compressors=None,
    )
    return a


def best(fn, repeat):
    # Warm up: the binds, and the allocator's memory (on a VM a page touched for the first time
    # costs ~2 us per 4 KiB: 8 ms for a 16 MiB chunk, more than any codec here).
    for _ in range(3):
        fn()
    ts = []
    for _ in range(repeat):
        t = time.perf_counter()
        fn()
        ts.append(time.perf_counter() - t)
    return min(ts)


def measure(x, filters, fill, repeat):
    a = make(x, filters, fill)
    w = best(lambda: a.__setitem__(Ellipsis, x), repeat)
    r = best(lambda: a[...], repeat)
    return r, w


def measure_rounds(x, chains, fill, repeat, rounds):
    """(read, write) best times of each chain, over `rounds` rounds that each time every chain
    in turn (a chain's repeats stay together, so the allocator stays in its steady state; the
    rounds spread each chain over the machine's quieter and busier moments alike)."""
    times = [[float("inf"), float("inf")] for _ in chains]
    for _ in range(rounds):
        for t, f in zip(times, chains, strict=True):
            r, w = measure(x, f, fill, repeat)
            t[0], t[1] = min(t[0], r), min(t[1], w)
    return times


def in_threads(fns):
    ts = [threading.Thread(target=f) for f in fns]
    for t in ts:
        t.start()
    for t in ts:
        t.join()


def scaling(fns, repeat, rounds):
    """(one thread running ``fns`` in turn, two threads running one each), best times over
    ``rounds`` rounds."""
    one = two = float("inf")
    for _ in range(rounds):
        one = min(one, best(lambda: [f() for f in fns], repeat))
        two = min(two, best(lambda: in_threads(fns), repeat))
    return one, two


def threads(repeat, rounds):
    """2 threads each reading its own chunk vs 1 thread reading both: our float32 <- int16
    through zarr-python (its two pipelines), the same array without codecs (zarr-python's own
    scaling: the ceiling of ours through it), and our bound codecs alone on the same chunks
    (the kernels release the GIL)."""
    rng = np.random.default_rng(5)
    x = (rng.integers(-30000, 30000, (2 * N, N)) / 10).astype(np.float32)
    f = [zso.ScaleOffset(scale=10), zso.CastValue(data_type="int16")]
    halves = [slice(0, N), slice(N, 2 * N)]
    rows = []
    for path in ("FusedCodecPipeline", "BatchedCodecPipeline"):
        with zarr.config.set({"codec_pipeline.path": f"zarr.core.codec_pipeline.{path}"}):
            for label, filters in (("ours", f), ("no codecs", [])):
                a = make(x, filters, 0)
                a[...] = x
                reads = [lambda a=a, h=h: a[h] for h in halves]
                rows.append(
                    (
                        f"zarr {path}, {label}",
                        path == "FusedCodecPipeline" and label == "ours",
                        scaling(reads, repeat, rounds),
                    )
                )
    b = zso.bind(f, "float32", 0)
    chunks = [zso.codecs.to_core(b_) for b_ in (zso.encode(f, x[h]) for h in halves)]
    outs = [np.empty(N * N * 4, np.uint8) for _ in halves]
    kernels = [lambda c=c, o=o: b.decode_into(c, o) for c, o in zip(chunks, outs, strict=True)]
    rows.append(("our bound codecs alone (decode_into)", False, scaling(kernels, repeat, rounds)))
    return rows


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--repeat", type=int, default=15)
    ap.add_argument("--rounds", type=int, default=3)
    args = ap.parse_args()
    rng = np.random.default_rng(1)
    print(
        f"zarr {zarr.__version__}, numpy {np.__version__}, zarr_scale_offset "
        f"{zso.__version__}, {os.cpu_count()} CPUs; one {N}x{N} chunk, no compressor, "
        f"best of {args.rounds} rounds x {args.repeat}; times in ms"
    )
    hdr = (
        f"{'case':26} {'op':5} {'ours':>7} {'zarr':>7} {'none':>7} "
        f"{'zarr/ours':>9} {'ours/none':>9} {'zarr/none':>9}  targets"
    )
    print(hdr)
    print("-" * len(hdr))
    ok = True
    for name, x, so, cv, fill in cases(rng):
        ours = [zso.ScaleOffset(**so)] + ([zso.CastValue(**cv)] if cv else [])
        theirs = [zc.ScaleOffset(**so)] + ([zc.CastValue(**cv)] if cv else [])
        o, t, n = measure_rounds(x, (ours, theirs, []), fill, args.repeat, args.rounds)
        # The decoded values agree (and so do the stored ones, by the conformance vectors).
        a, b = make(x, ours, fill), make(x, theirs, fill)
        a[...] = x
        b[...] = x
        np.testing.assert_array_equal(a[...], b[...])
        need = 3.0 if cv else 10.0
        for i, op in enumerate(("read", "write")):
            r1, r2 = t[i] / o[i], o[i] / n[i]
            good = r1 >= need and r2 <= 2.0
            ok &= good
            # zarr/none: the most zarr/ours can be (ours is never faster than no codecs).
            print(
                f"{name:26} {op:5} {o[i] * 1e3:7.2f} {t[i] * 1e3:7.2f} {n[i] * 1e3:7.2f} "
                f"{r1:8.1f}x {r2:8.2f}x {t[i] / n[i]:8.1f}x  >= {need:.0f}x, <= 2x "
                f"{'ok' if good else 'MISSED'}"
            )
    print()
    print("2 threads, each reading its own chunk, vs 1 thread reading both (float32 <- int16):")
    for label, target, (one, two) in threads(args.repeat, args.rounds):
        r = one / two
        mark = ""
        if target:
            ok &= r >= 1.6
            mark = f"  >= 1.6x {'ok' if r >= 1.6 else 'MISSED'}"
        print(
            f"  {label:44} 1 thread {one * 1e3:6.2f} ms, 2 threads {two * 1e3:6.2f} ms"
            f" -> {r:.2f}x{mark}"
        )
    print("all targets met" if ok else "some targets MISSED")


if __name__ == "__main__":
    main()
