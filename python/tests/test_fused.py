"""Adjacent codecs of ours run as one fused chain (codecs._Pending), and outputs go into a
reused per-thread buffer (codecs._Scratch): the same stored bytes, values and errors as the
codecs run one at a time, one kernel call per chunk, and no buffer reused while anyone holds it.

"One at a time" is forced with zarr-python's own identity ``transpose`` between our codecs: it
reads the values, so each of our codecs computes on its own.
"""

from __future__ import annotations

import threading

import numpy as np
import pytest
import zarr
import zarr.codecs as zc
from zarr.core.buffer import cpu
from zarr.core.buffer.core import BufferPrototype

import zarr_scale_offset as zso
from zarr_scale_offset import codecs as C

from conftest import bits, memory_array

SO = dict(offset=-10, scale=100)
CV = dict(data_type="uint16")
SM = {"encode": [["NaN", 0]], "decode": [[0, "NaN"]]}


def fused():
    return [zso.ScaleOffset(**SO), zso.CastValue(**CV)]


def apart(ndim=2):
    same = zc.TransposeCodec(order=tuple(range(ndim)))
    return [zso.ScaleOffset(**SO), same, zso.CastValue(**CV)]


def make(filters, shape=(64, 48), chunks=(16, 48), dtype="float32", fill=0):
    return memory_array(shape, chunks, dtype, fill, filters)


def sample(shape=(64, 48)):
    rng = np.random.default_rng(7)
    return (rng.integers(0, 65535, shape).astype(np.float32) / np.float32(100)) - np.float32(10)


@pytest.fixture
def kernel_calls(monkeypatch):
    """The kernel runs (codecs._apply calls): (bound chain's decoded type, encoded type, encode)."""
    calls = []
    real = C._apply

    def counting(b, arr, encode, dest=None):
        calls.append((b.core.decoded_data_type, b.core.encoded_data_type, encode))
        return real(b, arr, encode, dest)

    monkeypatch.setattr(C, "_apply", counting)
    return calls


def stored(a):
    """Every stored chunk's bytes, by key."""
    store = a.store

    async def items():
        return {
            k: (await store.get(k, cpu.buffer_prototype)).to_bytes() async for k in store.list()
        }

    return zarr.core.sync.sync(items())


def test_two_codecs_are_one_kernel_call_per_chunk_each_way(kernel_calls):
    x = sample()
    a = make(fused())
    a[...] = x
    assert kernel_calls == [("float32", "uint16", True)] * 4  # 4 chunks, one fused call each
    kernel_calls.clear()
    got = a[...]
    assert kernel_calls == [("float32", "uint16", False)] * 4
    # One at a time: two calls per chunk each way, each codec on its own type.
    kernel_calls.clear()
    b = make(apart())
    b[...] = x
    assert sorted(set(kernel_calls)) == [("float32", "float32", True), ("float32", "uint16", True)]
    assert len(kernel_calls) == 8
    np.testing.assert_array_equal(bits(b[...]), bits(got))


def test_fused_and_one_at_a_time_store_the_same_bytes_and_read_the_same_values():
    x = sample()
    x[3, 5] = np.nan  # NaN through the map below
    for cv in (CV, dict(data_type="uint16", scalar_map=SM)):
        if "scalar_map" not in cv:
            x[3, 5] = 1.0
        f = [zso.ScaleOffset(**SO), zso.CastValue(**cv)]
        g = [zso.ScaleOffset(**SO), zc.TransposeCodec(order=(0, 1)), zso.CastValue(**cv)]
        a, b = make(f), make(g)
        a[...] = x
        b[...] = x
        sa, sb = stored(a), stored(b)
        chunks = sorted(k for k in sa if k != "zarr.json")
        assert chunks == sorted(k for k in sb if k != "zarr.json") and len(chunks) == 4
        for k in chunks:
            assert sa[k] == sb[k], k
        np.testing.assert_array_equal(bits(a[...]), bits(b[...]))
        # And the numbers: decode (y / scale + offset) of the stored codes, in float32.
        codes = np.frombuffer(sa[chunks[0]], "<u2").astype(np.float32).reshape(16, 48)
        want = codes / np.float32(100) + np.float32(-10)
        if "scalar_map" in cv:
            want[codes == 0] = np.nan
        np.testing.assert_array_equal(bits(a[0:16]), bits(want))


def test_a_fused_chain_raises_what_its_codecs_raise_one_at_a_time():
    x = np.zeros(40, np.float32)
    x[17] = 700.0  # (700 + 10) * 100 = 71000: beyond uint16
    errors = []
    for filters in (fused(), apart(1)):
        a = make(filters, shape=(40,), chunks=(40,))
        with pytest.raises(zso.OutOfRangeError) as e:
            a[...] = x
        errors.append(str(e.value))
    assert errors[0] == errors[1]
    assert "element 17" in errors[0] and "71000" in errors[0] and "uint16" in errors[0]
    assert not errors[0].startswith("/")  # no pointer into a chain the array does not have


def test_stored_chunks_are_never_overwritten_by_a_reused_buffer():
    # MemoryStore keeps the encoded buffers themselves: each must stay its own.
    x = sample((64, 48))
    a = make(fused())
    for i in range(4):
        a[16 * i : 16 * (i + 1)] = x[16 * i : 16 * (i + 1)]
    b = make(apart())
    b[...] = x
    np.testing.assert_array_equal(bits(a[...]), bits(b[...]))
    sa = stored(a)
    assert len({sa[k] for k in sa if k != "zarr.json"}) == 4


def test_the_scratch_buffer_is_reused_only_when_nothing_else_holds_it():
    s = C._Scratch()
    first = id(s.take(1000))
    assert id(s.take(1000)) == first  # dropped at once: reused
    view = s.take(1000)[10:20]  # a view holds its base
    held = id(s.take(1000))
    assert held != first
    view[:] = 7
    del view
    mem = memoryview(s.take(1000))  # so does a memoryview
    assert id(s.take(1000)) != held
    mem.release()
    assert s.take(500).nbytes == 500  # another size: a new buffer


def test_two_threads_decode_their_own_chunks():
    x = sample((256, 48))
    with zarr.config.set({"codec_pipeline.path": "zarr.core.codec_pipeline.FusedCodecPipeline"}):
        a = make(fused(), shape=(256, 48), chunks=(16, 48))
        a[...] = x
        want = bits(a[...]).copy()
        got = [None] * 8

        def read(i):
            for _ in range(20):
                got[i] = bits(a[32 * i : 32 * (i + 1)]).copy()

        ts = [threading.Thread(target=read, args=(i,)) for i in range(8)]
        for t in ts:
            t.start()
        for t in ts:
            t.join()
    np.testing.assert_array_equal(np.concatenate(got), want)


class OtherND(cpu.NDBuffer):
    """A buffer class of its own (as a GPU one would be): deferred in its own class
    (codecs._OnDevice), the chain fused as on the CPU path (test_gpu_dispatch.py)."""


def test_another_buffer_class_is_fused_in_its_class(kernel_calls):
    x = sample()
    a = make(fused())
    a[...] = x
    want = bits(a[...]).copy()
    kernel_calls.clear()
    proto = BufferPrototype(buffer=cpu.Buffer, nd_buffer=OtherND)
    got = a.get_basic_selection(Ellipsis, prototype=proto)
    np.testing.assert_array_equal(bits(np.asarray(got)), want)
    assert kernel_calls == [("float32", "uint16", False)] * 4  # one fused call per chunk
