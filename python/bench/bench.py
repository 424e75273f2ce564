"""Benchmark: one uncompressed 4 Mi-element chunk through zarr-python 3.4.2, read and write,
with zarr_scale_offset's codecs vs zarr-python's own ScaleOffset + CastValue (cast-value-rs)
vs no codecs, all measured in this run; then 2 threads reading different chunks vs 1.

    .venv/bin/python python/bench/bench.py [--repeat N] [--rounds R]

Prints a table of best times (R rounds of N calls after 3 warm-up calls, per run) and the
ratios with their targets: >= 3x zarr-python's own on each two-codec chain, >= 10x on int16
scale_offset, within 2x of no codecs (the floor), 2 threads >= 1.6x one thread.

"ours" is our codecs through this package's opt-in pipeline
(``zarr_scale_offset.pipeline.CodecPipeline``: zarr's FusedCodecPipeline with our chunks
decoded straight into the read's output); "ours/B" the same codecs through zarr's default
BatchedCodecPipeline, for comparison. zarr-python's own codecs and the no-codec floor are each
timed through both of zarr's pipelines, and the faster one is what the ratios use. zarr/none
is printed as a bound. Two threads: zarr's default pipeline runs every codec on its one
event-loop thread, so only the Fused pipelines can scale; the no-codec array and our bound
codecs alone are the controls.
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


BATCHED = "zarr.core.codec_pipeline.BatchedCodecPipeline"  # zarr-python's default
FUSED = "zarr.core.codec_pipeline.FusedCodecPipeline"  # zarr-python's opt-in one
OURS = zso.pipeline.PATH  # zarr_scale_offset.pipeline.CodecPipeline: FUSED, decoding into out


def make(x, filters, fill, chunks=(N, N), shape=None, path=BATCHED):
    # The pipeline class is chosen when the array object is made.
    with zarr.config.set({"codec_pipeline.path": path}):
        return zarr.create_array(
            MemoryStore(),
            shape=shape or x.shape,
            chunks=chunks,
            dtype=x.dtype,
            fill_value=fill,
            filters=filters,
            compressors=None,
        )


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


def measure(x, filters, fill, repeat, path):
    a = make(x, filters, fill, path=path)
    w = best(lambda: a.__setitem__(Ellipsis, x), repeat)
    r = best(lambda: a[...], repeat)
    return r, w


def measure_rounds(x, runs, fill, repeat, rounds):
    """(read, write) best times of each (filters, pipeline) run, over `rounds` rounds that each
    time every run in turn (a run's repeats stay together, so the allocator stays in its
    steady state; the rounds spread each run over the machine's quieter and busier moments
    alike)."""
    times = [[float("inf"), float("inf")] for _ in runs]
    for _ in range(rounds):
        for t, (f, path) in zip(times, runs, strict=True):
            r, w = measure(x, f, fill, repeat, path)
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
    for path in (OURS, FUSED, BATCHED):
        for label, filters in (("ours", f), ("no codecs", [])):
            if path == OURS and not filters:
                continue  # without our codecs it is FusedCodecPipeline
            a = make(x, filters, 0, path=path)
            a[...] = x
            reads = [lambda a=a, h=h: a[h] for h in halves]
            rows.append(
                (
                    f"{path.rsplit('.', 1)[1]}, {label}",
                    path == OURS,
                    scaling(reads, repeat, rounds),
                )
            )
    b = zso.bind(f, "float32", 0)
    chunks = [zso.codecs.to_core(b_) for b_ in (zso.encode(f, x[h]) for h in halves)]
    outs = [np.empty(N * N * 4, np.uint8) for _ in halves]
    kernels = [lambda c=c, o=o: b.decode_into(c, o) for c, o in zip(chunks, outs, strict=True)]
    rows.append(("our bound codecs alone (decode_into)", False, scaling(kernels, repeat, rounds)))
    # The machine's ceiling: the same bytes moved without arithmetic (numpy's int16 -> float32
    # cast, which releases the GIL: 8 MiB read and 16 MiB written per chunk, as a decode).
    # Where this does not scale, memory bandwidth is the limit, not the GIL or the codecs.
    ints = [np.asarray(c).view(np.int16) for c in chunks]
    floats = [np.empty(N * N, np.float32) for _ in halves]
    casts = [lambda i=i, o=o: np.copyto(o, i) for i, o in zip(ints, floats, strict=True)]
    rows.append(
        ("the same bytes, no arithmetic (np.copyto)", False, scaling(casts, repeat, rounds))
    )
    # Our codecs where memory is not the limit: each thread decodes its own 64 Ki-element chunk
    # (128 KiB in, 256 KiB out: within each core's L2) 256 times (a few ms: starting threads costs
    # ~0.1 ms).
    m = 1 << 16
    small = [zso.codecs.to_core(zso.encode(f, x[h].reshape(-1)[:m])) for h in halves]
    small_out = [np.empty(m * 4, np.uint8) for _ in halves]

    def loop(c, o):
        for _ in range(256):
            b.decode_into(c, o)

    cached = [lambda c=c, o=o: loop(c, o) for c, o in zip(small, small_out, strict=True)]
    rows.append(
        ("our bound codecs, chunks in L2 (256 x 64 Ki)", False, scaling(cached, repeat, rounds))
    )
    # The machine's two limits, with no codec at all: its cores (numpy's sin, which releases
    # the GIL, 32 times over 64 Ki float64 that stay in L2: compute only; 2x where the two
    # CPUs are two cores) and its memory (numpy copying 64 MiB, far beyond the caches).
    waves = [rng.random(m) for _ in halves]
    wave_out = [np.empty(m) for _ in halves]

    def sines(w, o):
        for _ in range(32):
            np.sin(w, out=o)

    sins = [lambda w=w, o=o: sines(w, o) for w, o in zip(waves, wave_out, strict=True)]
    rows.append(
        ("the cores: np.sin, 32 x 64 Ki float64 in L2", False, scaling(sins, repeat, rounds))
    )
    big = [np.ones(64 << 20, np.uint8) for _ in halves]
    big_out = [np.empty(64 << 20, np.uint8) for _ in halves]
    copies = [lambda b=b, o=o: np.copyto(o, b) for b, o in zip(big, big_out, strict=True)]
    rows.append(("the memory: np.copyto of 64 MiB", False, scaling(copies, repeat, rounds)))
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
    print(
        "ours: our codecs through zarr_scale_offset.pipeline.CodecPipeline; ours/B: the same "
        "through zarr's default BatchedCodecPipeline;\nzarr: zarr-python's own codecs and none: "
        "no codecs, each the faster of zarr's two pipelines (Batched, Fused) in this run"
    )
    hdr = (
        f"{'case':26} {'op':5} {'ours':>7} {'ours/B':>7} {'zarr':>7} {'none':>7} "
        f"{'zarr/ours':>9} {'ours/none':>9} {'zarr/none':>9}  targets"
    )
    print(hdr)
    print("-" * len(hdr))
    ok = True
    for name, x, so, cv, fill in cases(rng):
        ours = [zso.ScaleOffset(**so)] + ([zso.CastValue(**cv)] if cv else [])
        theirs = [zc.ScaleOffset(**so)] + ([zc.CastValue(**cv)] if cv else [])
        runs = [(ours, OURS), (ours, BATCHED)]
        runs += [(f, p) for f in (theirs, []) for p in (BATCHED, FUSED)]
        o, ob, tb, tf, nb, nf = measure_rounds(x, runs, fill, args.repeat, args.rounds)
        # The decoded values agree (and so do the stored ones, by the conformance vectors).
        a, b = make(x, ours, fill, path=OURS), make(x, theirs, fill)
        a[...] = x
        b[...] = x
        np.testing.assert_array_equal(a[...], b[...])
        need = 3.0 if cv else 10.0
        for i, op in enumerate(("read", "write")):
            t, n = min(tb[i], tf[i]), min(nb[i], nf[i])
            r1, r2 = t / o[i], o[i] / n
            good = r1 >= need and r2 <= 2.0
            ok &= good
            # zarr/none: the most zarr/ours can be where ours costs what no codecs do.
            print(
                f"{name:26} {op:5} {o[i] * 1e3:7.2f} {ob[i] * 1e3:7.2f} {t * 1e3:7.2f} "
                f"{n * 1e3:7.2f} {r1:8.1f}x {r2:8.2f}x {t / n:8.1f}x  >= {need:.0f}x, <= 2x "
                f"{'ok' if good else 'MISSED'}"
            )
    print()
    print(
        "2 threads, each reading its own chunk, vs 1 reading both (float32 <- int16), and controls:"
    )
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
