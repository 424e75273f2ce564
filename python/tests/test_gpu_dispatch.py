"""zarr-python's GPU mode (``zarr.config.enable_gpu()``): zarr hands array->array codecs chunks
in its GPU buffer class, whose arrays are CuPy arrays, and wants them back in that class. Our
codecs run the core on the host: one copy to the host and one back per chunk, for one codec or
a chain (``codecs._OnDevice``), the values bit for bit and the errors (class, code, message with
its element index) those of the CPU path.

Two backends run the same tests:

- ``stand-in`` (always, no GPU): ``fake_device``, a device array that refuses NumPy's implicit
  conversion as CuPy does, counts every copy between host and device, and zarr buffer classes
  for it selected through ``zarr.config`` as ``enable_gpu()`` selects zarr's CuPy ones;
- ``cupy``: real CuPy and ``zarr.config.enable_gpu()``, skipped with the reason where CuPy is
  not installed (the ``[gpu]`` extra) or finds no CUDA device. Copies are counted at our seam
  (zarr's GPU ``NDBuffer.as_numpy_array`` / ``from_numpy_array``). A data type CuPy has no
  arrays of (ml_dtypes' float8/6/4, int2/4, uint2/4; bfloat16 before CuPy 14) is skipped with
  CuPy's reason: zarr's own ``bytes`` codec cannot make such a chunk on the device.

The reference is always the same array written and read without either (zarr's CPU buffers).
"""

from __future__ import annotations

import pickle
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

import numpy as np
import pytest
import zarr
import zarr.codecs as zc
from zarr.codecs import BytesCodec
from zarr.core.array_spec import ArrayConfig, ArraySpec
from zarr.core.buffer import cpu
from zarr.core.buffer.core import BufferPrototype
from zarr.core.dtype import get_data_type_from_json
from zarr.storage import MemoryStore

import zarr_scale_offset as zso
from zarr_scale_offset import _core
from zarr_scale_offset import codecs as C
from zarr_scale_offset.pipeline import PATH

import fake_device as fd
from conftest import GPU_COUNTS, bits

pytestmark = pytest.mark.filterwarnings("error::fake_device.HostArrayWarning")

NAMES = list(_core.data_types())
SIGNED = ["int2", "int4", "int8", "int16", "int32", "int64"]
UNSIGNED = ["uint2", "uint4", "uint8", "uint16", "uint32", "uint64"]
NUMPY_TYPES = [*SIGNED[2:], *UNSIGNED[2:], "float16", "float32", "float64"]
NAN_MAP = {"encode": [["NaN", -32768]], "decode": [[-32768, "NaN"]]}
BATCHED = "zarr.core.codec_pipeline.BatchedCodecPipeline"
FUSED = "zarr.core.codec_pipeline.FusedCodecPipeline"
SHAPE, CHUNKS, N_CHUNKS = (40,), (16,), 3  # the last chunk partly inside the array


def native(name: str) -> np.dtype[Any]:
    return get_data_type_from_json(name, zarr_format=3).to_native_dtype()


def has_nan(name: str) -> bool:
    try:
        return bool(np.isnan(np.array(np.nan).astype(native(name))))
    except (TypeError, ValueError):
        return False


# ---- the matrix: chains by data type, values that pass them ----


def values(name: str, chain: str) -> np.ndarray:
    """40 values of ``name`` that ``chain`` encodes (NaN at 5 where the chain maps it)."""
    if name in SIGNED:
        base = [-1, 0, 1]
    elif name in UNSIGNED:
        base = [0, 1]
    elif name == "float8_e8m0fnu":  # powers of two, no zero
        base = [2, 4, 8]
    else:
        base = [0, 0.5, 1, 1.5, 2]
    x = np.resize(np.array(base, dtype=np.float64), SHAPE).astype(native(name))
    if chain == "cf.scale_offset+cast_value" and has_nan(name):
        x[5] = np.nan
    return x


def scale_offset(name: str) -> zso.ScaleOffset:
    if name == "int2":
        return zso.ScaleOffset(scale=-1)  # the scale is of the array's type: int2 has no 2
    if name in SIGNED:
        return zso.ScaleOffset(offset=-1, scale=2)
    if name in UNSIGNED or name == "float8_e8m0fnu":
        return zso.ScaleOffset(scale=2)  # the fill value (0; 1.0) must pass too
    return zso.ScaleOffset(offset=1, scale=2)


def chain(label: str, name: str) -> tuple[list[Any], Any]:
    """The filters and the fill value of a chain over ``name``."""
    if label == "scale_offset":
        return [scale_offset(name)], None
    if label == "cast_value":
        return [zso.CastValue(data_type="float32" if name == "float64" else "float64")], None
    if label == "scale_offset+cast_value":
        target = "uint16" if name in UNSIGNED else "int16"
        return [scale_offset(name), zso.CastValue(data_type=target)], None
    if label == "cf.scale_offset+cast_value":
        cf = (
            zso.CFScaleOffset(scale=2)
            if name == "float8_e8m0fnu"
            else zso.CFScaleOffset(scale=0.5, offset=1)
        )
        return [cf, zso.CastValue(data_type="int16", scalar_map=NAN_MAP)], "NaN"
    if label == "fixedscaleoffset":
        dt = native(name).str if name in NUMPY_TYPES else name
        return [zso.FixedScaleOffset(scale=2, offset=1, dtype=dt, astype="<i2")], None
    raise AssertionError(label)


CHAINS = [
    "scale_offset",
    "cast_value",
    "scale_offset+cast_value",
    "cf.scale_offset+cast_value",
    "fixedscaleoffset",
]


def create(name: str, filters: list[Any], fill: Any, **kw: Any) -> zarr.Array:
    return zarr.create_array(
        MemoryStore(),
        shape=kw.pop("shape", SHAPE),
        chunks=kw.pop("chunks", CHUNKS),
        dtype=name,
        fill_value=fill,
        filters=filters,
        serializer=BytesCodec(),  # little-endian: a one-byte type cast to a wider one needs it
        compressors=None,
        **kw,
    )


def stored(a: zarr.Array) -> dict[str, bytes]:
    """Every stored chunk's bytes, by key (read to the host: after any counting)."""

    async def items() -> dict[str, bytes]:
        return {
            k: (await a.store.get(k, cpu.buffer_prototype)).to_bytes()
            async for k in a.store.list()
            if k != "zarr.json"
        }

    return zarr.core.sync.sync(items())


def put(a: zarr.Array, key: str, data: bytes, buffer: type = cpu.Buffer) -> None:
    """Stores a chunk's bytes as they are, in a buffer of class ``buffer`` (a device buffer
    class: as the device path's writes leave them)."""
    zarr.core.sync.sync(a.store.set(key, buffer.from_bytes(data)))


def error_of(e: BaseException) -> tuple[Any, ...]:
    return (type(e), getattr(e, "code", None), str(e), getattr(e, "path", None))


def outcome(f: Callable[[], Any]) -> tuple[str, Any]:
    try:
        return "ok", f()
    except Exception as e:  # compared whole: class, code, message (element index), path
        return "error", error_of(e)


def tally(backend: Backend, what: str) -> None:
    key = f"{backend.name}: {what}"
    GPU_COUNTS[key] = GPU_COUNTS.get(key, 0) + 1


# ---- backends ----


@dataclass
class Backend:
    name: str
    use: Callable[[], Any]
    to_device: Callable[[np.ndarray], Any]
    to_host: Callable[[Any], np.ndarray]
    array_type: type
    copies: Callable[[], tuple[int, int]]
    reset: Callable[[], None]
    nd_buffer: type
    buffer: type


def stand_in() -> Backend:
    def to_device(x: np.ndarray) -> Any:
        d = fd.asarray(x)
        fd.COPIES.clear()
        return d

    return Backend(
        "stand-in", fd.use, to_device, fd.peek, fd.DeviceArray, fd.copies, fd.COPIES.clear,
        fd.NDBuffer, fd.Buffer,
    )  # fmt: skip


def real_cupy(monkeypatch: pytest.MonkeyPatch) -> Backend:
    cupy = pytest.importorskip(
        "cupy", reason="CuPy is not installed (pip install 'zarr-scale-offset[gpu]')"
    )
    try:
        n = cupy.cuda.runtime.getDeviceCount()
    except Exception as e:  # CUDARuntimeError: no driver, no device
        pytest.skip(f"CuPy finds no CUDA device: {e}")
    if n < 1:
        pytest.skip("CuPy finds no CUDA device")
    from zarr.core.buffer import gpu

    counts = {"to_host": 0, "to_device": 0}
    to_np = gpu.NDBuffer.as_numpy_array
    from_np = gpu.NDBuffer.from_numpy_array.__func__  # type: ignore[attr-defined]

    def as_numpy_array(self: Any) -> np.ndarray:
        counts["to_host"] += 1
        return to_np(self)

    def from_numpy_array(cls: Any, array_like: Any) -> Any:
        counts["to_device"] += 1
        return from_np(cls, array_like)

    monkeypatch.setattr(gpu.NDBuffer, "as_numpy_array", as_numpy_array)
    monkeypatch.setattr(gpu.NDBuffer, "from_numpy_array", classmethod(from_numpy_array))

    def to_device(x: np.ndarray) -> Any:
        try:
            d = cupy.asarray(x)
        except (TypeError, ValueError) as e:
            pytest.skip(f"CuPy has no arrays of {x.dtype}: {e}")
        counts.update(to_host=0, to_device=0)
        return d

    return Backend(
        "cupy", zarr.config.enable_gpu, to_device, cupy.asnumpy, cupy.ndarray,
        lambda: (counts["to_host"], counts["to_device"]),
        lambda: counts.update(to_host=0, to_device=0), gpu.NDBuffer, gpu.Buffer,
    )  # fmt: skip


@pytest.fixture(params=["stand-in", "cupy"])
def backend(request: pytest.FixtureRequest, monkeypatch: pytest.MonkeyPatch) -> Backend:
    return stand_in() if request.param == "stand-in" else real_cupy(monkeypatch)


# ---- every codec and chain over the 26 data types, written and read ----


def applies(name: str, label: str) -> tuple[list[Any], Any] | None:
    """The chain's filters and fill value, or None where it does not apply to ``name`` (the
    array cannot be created: a NaN map on a type with no NaN, a scale the type cannot hold, a
    numcodecs dtype of a type numcodecs has not)."""
    try:
        filters, fill = chain(label, name)
        create(name, filters, fill)
    except ValueError:  # ours (ZarrScaleOffsetError) or zarr's (a "NaN" fill of an integer)
        return None
    return filters, fill


@pytest.mark.parametrize("label", CHAINS)
@pytest.mark.parametrize("name", NAMES)
def test_writes_and_reads_equal_the_cpu_path(backend: Backend, name: str, label: str) -> None:
    made = applies(name, label)
    if made is None:
        tally(backend, "not applicable")
        pytest.skip(f"{label} does not apply to {name}")
    filters, fill = made
    x = values(name, label)
    dx = backend.to_device(x)

    # Write: the same stored bytes, or the same error.
    cpu_a, dev_a = create(name, filters, fill), create(name, filters, fill)
    want = outcome(lambda: cpu_a.__setitem__(Ellipsis, x))
    backend.reset()
    with backend.use():
        got = outcome(lambda: dev_a.__setitem__(Ellipsis, dx))
    if want[0] == "error":
        assert got == want
        tally(backend, "write: equal errors")
        # A read-only codec: the chunks to read come from the encoded values, stored directly.
        codes = np.resize(np.arange(-4, 12, 2, dtype="<i2"), SHAPE)
        for i in range(N_CHUNKS):
            chunk = codes[16 * i : 16 * (i + 1)].tobytes().ljust(32, b"\0")
            put(cpu_a, f"c/{i}", chunk)
            put(dev_a, f"c/{i}", chunk, backend.buffer)
    else:
        assert got[0] == "ok", got
        assert backend.copies() == (N_CHUNKS, N_CHUNKS)  # one each way per chunk and chain
        assert stored(dev_a) == stored(cpu_a)
        tally(backend, "write: equal bytes")

    # Read (the same stored bytes, kept on the device by the device path's write, so zarr has
    # nothing to copy): the same values in a device array, or the same error.
    want = outcome(lambda: cpu_a[...])
    backend.reset()
    with backend.use():
        got = outcome(lambda: dev_a[...])
    assert got[0] == want[0], got
    if want[0] == "error":
        assert got == want
        tally(backend, "read: equal errors")
        return
    assert isinstance(got[1], backend.array_type)
    assert backend.copies() == (N_CHUNKS, N_CHUNKS)
    np.testing.assert_array_equal(bits(backend.to_host(got[1])), bits(want[1]))
    tally(backend, "read: equal values")


def test_the_matrix_covers_every_codec_and_type() -> None:
    """What the matrix runs (no backend needed): every data type through at least the
    cast_value and scale_offset chains, every codec somewhere."""
    run = {(n, c) for n in NAMES for c in CHAINS if applies(n, c) is not None}
    assert len(NAMES) == 26
    assert {n for n, c in run if c == "cast_value"} == set(NAMES)
    assert {n for n, c in run if c == "scale_offset"} == set(NAMES)
    assert {n for n, c in run if c == "cf.scale_offset+cast_value"} >= {
        "bfloat16", "float16", "float32", "float64", "float8_e4m3", "float8_e5m2",
    }  # fmt: skip
    assert {n for n, c in run if c == "fixedscaleoffset"} >= {"float32", "float64", "int16"}


# ---- errors: the same class, code, message and element ----


def test_encode_errors_are_the_cpu_paths(backend: Backend) -> None:
    cases = [
        # (data type, filters, fill, values, where the error is)
        ("float32", [zso.ScaleOffset(offset=-10, scale=100), zso.CastValue(data_type="uint16")],
         0, lambda x: x.__setitem__(27, 700.0), "element 11"),  # 71000 > uint16, chunk 1
        ("float32", [zso.CastValue(data_type="int16")], 0,
         lambda x: x.__setitem__(33, np.nan), "element 1"),  # NaN, no scalar_map
        ("int16", [zso.ScaleOffset(offset=0, scale=1000)], 0,
         lambda x: x.__setitem__(2, 33), "element 2"),  # 33000 > int16
        ("float64", [zso.CFScaleOffset(scale=0.01, offset=273.15),
                     zso.CastValue(data_type="int16", scalar_map=NAN_MAP)], "NaN",
         lambda x: x.__setitem__(20, 1e9), "element 4"),
    ]  # fmt: skip
    for name, filters, fill, spoil, where in cases:
        x = np.ones(SHAPE, native(name))
        spoil(x)
        a, b = create(name, filters, fill), create(name, filters, fill)
        with pytest.raises(zso.ZarrScaleOffsetError) as want:
            a[...] = x
        dx = backend.to_device(x)
        with backend.use(), pytest.raises(zso.ZarrScaleOffsetError) as got:
            b[...] = dx
        assert error_of(got.value) == error_of(want.value)
        assert where in str(got.value), str(got.value)
        tally(backend, "error cases: equal")


def test_decode_errors_are_the_cpu_paths(backend: Backend) -> None:
    # Stored codes that cannot decode: int16 -5 into uint8; an odd int16 into int16 / 2.
    cases = [
        ("uint8", [zso.CastValue(data_type="int16")], "<i2", [3, 4, -5, 6], "element 2"),
        ("int16", [zso.ScaleOffset(scale=2)], "<i2", [2, 4, 6, 7], "element 3"),
        ("float32", [zso.CastValue(data_type="int8", scalar_map={"decode": [[-1, "NaN"]]})],
         "i1", [1, 2, -1, 3], None),  # no error: the reference of the values
    ]  # fmt: skip
    for name, filters, enc, codes, where in cases:
        a = create(name, filters, 0, shape=(4,), chunks=(4,))
        put(a, "c/0", np.array(codes).astype(enc).tobytes())
        want = outcome(lambda a=a: a[...])
        backend.reset()
        with backend.use():
            got = outcome(lambda a=a: a[...])
        if where is None:
            assert want[0] == got[0] == "ok"
            np.testing.assert_array_equal(bits(backend.to_host(got[1])), bits(want[1]))
            continue
        assert want[0] == "error" and got == want, (got, want)
        assert where in want[1][2], want
        tally(backend, "error cases: equal")


# ---- the issue's six cases (1 of 6 worked) ----

ISSUE = {
    "cf.scale_offset+cast_value": (
        "float32",
        [zso.CFScaleOffset(scale=0.01, offset=273.15),
         zso.CastValue(data_type="int16", scalar_map=NAN_MAP)],
        "NaN",
    ),
    "scale_offset+cast_value": (
        "float32",
        [zso.ScaleOffset(offset=-10, scale=100), zso.CastValue(data_type="uint16")],
        0,
    ),
    "int16 scale_offset": ("int16", [zso.ScaleOffset(offset=5, scale=3)], 0),
}  # fmt: skip


@pytest.mark.parametrize("case", list(ISSUE))
def test_the_issues_six_cases(backend: Backend, case: str, monkeypatch: pytest.MonkeyPatch) -> None:
    name, filters, fill = ISSUE[case]
    # The class of every chunk our codecs hand back, inside zarr-python's own pipeline.
    classes: list[type] = []
    step = C.CoreCodec._step

    def spy(self: Any, chunk: Any, chunk_spec: Any, encode: bool) -> Any:
        out = step(self, chunk, chunk_spec, encode)
        classes.append(type(out))
        return out

    monkeypatch.setattr(C.CoreCodec, "_step", spy)
    rng = np.random.default_rng(1)
    if name == "int16":
        x = rng.integers(-3000, 3000, (64, 48)).astype(np.int16)
    else:
        x = (rng.integers(0, 3000, (64, 48)) / 100 + 250).astype(np.float32)
        x[3, 4] = np.nan if fill == "NaN" else x[3, 4]
    a = create(name, filters, fill, shape=(64, 48), chunks=(16, 48))
    b = create(name, filters, fill, shape=(64, 48), chunks=(16, 48))
    a[...] = x
    assert classes and set(classes) == {C._Pending}
    classes.clear()
    dx = backend.to_device(x)
    with backend.use():
        b[...] = dx  # the write
        assert backend.copies() == (4, 4)
        assert stored(b) == stored(a)
        backend.reset()
        got = b[...]  # the read
        assert backend.copies() == (4, 4)
    assert isinstance(got, backend.array_type)
    assert len(classes) == 8 * len(filters)  # 4 chunks, written and read
    assert all(issubclass(c, backend.nd_buffer) and issubclass(c, C._OnDevice) for c in classes)
    np.testing.assert_array_equal(bits(backend.to_host(got)), bits(a[...]))


# ---- partial reads and writes, pipelines, sharding ----

SELECTIONS = [
    (np.s_[...], 4),
    (np.s_[16:32], 1),  # one whole chunk
    (np.s_[3], 1),  # an integer: a dropped axis
    (np.s_[5:40, 7:9], 3),  # parts of chunks
    (np.s_[::5, 1], 4),
]


@pytest.mark.parametrize("pipeline", [BATCHED, FUSED, PATH])
def test_selections_and_pipelines(backend: Backend, pipeline: str) -> None:
    filters = [zso.ScaleOffset(offset=-10, scale=100), zso.CastValue(data_type="uint16")]
    x = (np.arange(64 * 48).reshape(64, 48) % 997 / 4).astype(np.float32)
    with zarr.config.set({"codec_pipeline.path": pipeline}):
        a = create("float32", filters, 0, shape=(64, 48), chunks=(16, 48))
        b = create("float32", filters, 0, shape=(64, 48), chunks=(16, 48))
        a[...] = x
        with backend.use():
            b[...] = backend.to_device(x)
        assert stored(b) == stored(a)
        for sel, touched in SELECTIONS:
            backend.reset()
            with backend.use():
                got = b[sel]
            assert backend.copies() == (touched, touched), sel
            np.testing.assert_array_equal(bits(backend.to_host(got)), bits(a[sel]))
        # A partial write of one chunk: decoded (one copy each way), merged on the device,
        # encoded (one copy each way).
        y = np.full((10, 3), 42.25, np.float32)
        a[20:30, 5:8] = y
        dy = backend.to_device(y)
        with backend.use():
            b[20:30, 5:8] = dy
            assert backend.copies() == (2, 2)
        assert stored(b) == stored(a)


def test_sharded_arrays(backend: Backend) -> None:
    filters = [zso.CFScaleOffset(scale=0.5, offset=1),
               zso.CastValue(data_type="int16", scalar_map=NAN_MAP)]  # fmt: skip
    x = np.resize(np.array([0, 0.5, np.nan, 2, 7.5], np.float32), (32, 32))
    a = create("float32", filters, "NaN", shape=(32, 32), chunks=(8, 8), shards=(16, 32))
    b = create("float32", filters, "NaN", shape=(32, 32), chunks=(8, 8), shards=(16, 32))
    a[...] = x
    with backend.use():
        b[...] = backend.to_device(x)
        assert stored(b) == stored(a)
        got = b[...]
    assert isinstance(got, backend.array_type)
    np.testing.assert_array_equal(bits(backend.to_host(got)), bits(a[...]))


def test_sub_byte_reads_clear_the_upper_bits_on_the_device() -> None:
    # dtypes._read_ignoring_upper_bits masks stored int4 bytes with the array's own operators.
    a = create("int4", [zso.ScaleOffset(offset=-1, scale=2)], 0, shape=(4,), chunks=(4,))
    b = create("int4", [zso.ScaleOffset(offset=-1, scale=2)], 0, shape=(4,), chunks=(4,))
    put(a, "c/0", bytes([0xF2, 0x04, 0x30, 0x06]))  # upper bits set: ignored
    put(b, "c/0", bytes([0xF2, 0x04, 0x30, 0x06]), fd.Buffer)
    want = a[...]
    fd.COPIES.clear()
    with fd.use():
        got = b[...]
    assert fd.copies() == (1, 1)
    assert fd.peek(got).tolist() == want.tolist() == [0, 1, -1, 2]


# ---- the dispatch, codec by codec (stand-in only) ----


def spec(name: str, prototype: BufferPrototype, shape: tuple[int, ...] = (6,)) -> ArraySpec:
    zdtype = get_data_type_from_json(name, zarr_format=3)
    return ArraySpec(
        shape=shape,
        dtype=zdtype,
        fill_value=zdtype.default_scalar(),
        config=ArrayConfig.from_dict({}),
        prototype=prototype,
    )


@pytest.fixture
def kernel_calls(monkeypatch: pytest.MonkeyPatch) -> list[tuple[str, str, bool]]:
    calls: list[tuple[str, str, bool]] = []
    real = C._apply

    def counting(b: Any, arr: Any, encode: bool, dest: Any = None) -> Any:
        assert isinstance(arr, np.ndarray)  # the core only ever sees host arrays
        calls.append((b.core.decoded_data_type, b.core.encoded_data_type, encode))
        return real(b, arr, encode, dest)

    monkeypatch.setattr(C, "_apply", counting)
    return calls


SO = zso.ScaleOffset(offset=-10, scale=100)
CV = zso.CastValue(data_type="uint16")
X = np.array([0.5, 1.5, -2.0, 3.0, 250.25, -9.99], np.float32)


def encode_chain(chunk: Any, prototype: BufferPrototype, codecs: tuple[Any, ...] = (SO, CV)) -> Any:
    s = spec("float32", prototype)
    for c in codecs:
        chunk = c._encode_sync(chunk, s)
        s = c.resolve_metadata(s)
    return chunk


def test_cpu_chunks_take_the_cpu_path(kernel_calls: list[Any]) -> None:
    out = encode_chain(cpu.NDBuffer(X.copy()), cpu.buffer_prototype)
    assert type(out) is C._Pending and out.pending
    assert isinstance(out.as_ndarray_like(), np.ndarray)
    assert kernel_calls == [("float32", "uint16", True)]


def test_a_device_chunk_stays_in_its_class_until_read(kernel_calls: list[Any]) -> None:
    d = fd.NDBuffer(fd.asarray(X))
    fd.COPIES.clear()
    out = encode_chain(d, fd.prototype)
    # Of the prototype's class (deferred), never the CPU pending class; nothing copied yet.
    assert isinstance(out, fd.NDBuffer) and not isinstance(out, cpu.NDBuffer)
    assert isinstance(out, C._OnDevice) and out.pending
    assert (out.dtype, out.shape) == (np.dtype("uint16"), (6,))
    assert fd.copies() == (0, 0) and kernel_calls == []
    arr = out.as_ndarray_like()
    assert isinstance(arr, fd.DeviceArray)
    assert fd.copies() == (1, 1) and kernel_calls == [("float32", "uint16", True)]
    assert fd.copied_bytes() == (X.nbytes, X.size * 2)
    want = encode_chain(cpu.NDBuffer(X.copy()), cpu.buffer_prototype).as_ndarray_like()
    assert bits(fd.peek(arr)).tolist() == bits(want).tolist()
    # Decoding it back: one copy each way again, the chain fused, the values the CPU path's.
    fd.COPIES.clear()
    kernel_calls.clear()
    s = spec("float32", fd.prototype)
    mid = CV._decode_sync(fd.NDBuffer(arr), SO.resolve_metadata(s))
    back = SO._decode_sync(mid, s)
    assert isinstance(back, fd.NDBuffer) and back.pending and fd.copies() == (0, 0)
    assert bits(fd.peek(back)).tolist() == bits(X).tolist()
    assert fd.copies() == (1, 1) and kernel_calls == [("float32", "uint16", False)]


def test_one_codec_alone_and_a_host_chunk_under_a_device_prototype(kernel_calls: list) -> None:
    out = SO._encode_sync(fd.NDBuffer(fd.asarray(X)), spec("float32", fd.prototype))
    fd.COPIES.clear()
    assert isinstance(out.as_ndarray_like(), fd.DeviceArray) and fd.copies() == (1, 1)
    # A host chunk (a foreign codec's CPU buffer) handed on under a device prototype: no copy
    # to make to the host, the result on the device.
    fd.COPIES.clear()
    out = SO._encode_sync(cpu.NDBuffer(X.copy()), spec("float32", fd.prototype))
    assert isinstance(out.as_ndarray_like(), fd.DeviceArray)
    assert fd.copies() == (0, 1)
    assert len(kernel_calls) == 2


def test_selections_of_a_deferred_device_chunk() -> None:
    s = spec("float32", fd.prototype, (2, 3))
    d = fd.NDBuffer(fd.asarray(X.reshape(2, 3)))
    out = SO._encode_sync(d, s)
    whole = out[(slice(None), slice(0, 3))]
    assert isinstance(whole, C._OnDevice) and whole.pending  # all of it: still deferred
    one = out[0:1].squeeze((0,))  # a part: computed, in the class
    assert isinstance(one, fd.NDBuffer) and not one.pending
    assert isinstance(one.as_ndarray_like(), fd.DeviceArray)
    want = SO._encode_sync(
        cpu.NDBuffer(X.reshape(2, 3).copy()), spec("float32", cpu.buffer_prototype)
    )
    np.testing.assert_array_equal(fd.peek(whole), want.as_ndarray_like())
    np.testing.assert_array_equal(fd.peek(one), want.as_ndarray_like()[0])
    # Squeezed while deferred (an integer selection of a dropped axis).
    sq = SO._encode_sync(
        fd.NDBuffer(fd.asarray(X.reshape(1, 6))), spec("float32", fd.prototype, (1, 6))
    )
    sq = sq.squeeze((0,))
    assert sq.pending and sq.shape == (6,)
    np.testing.assert_array_equal(fd.peek(sq), want.as_ndarray_like().reshape(6))


def test_a_device_error_is_raised_where_the_values_are_read() -> None:
    x = X.copy()
    x[4] = 700.0
    with pytest.raises(zso.OutOfRangeError) as want:
        encode_chain(cpu.NDBuffer(x), cpu.buffer_prototype).as_ndarray_like()
    out = encode_chain(fd.NDBuffer(fd.asarray(x)), fd.prototype)
    with pytest.raises(zso.OutOfRangeError) as got:
        out.as_ndarray_like()
    assert error_of(got.value) == error_of(want.value)
    assert "element 4" in str(got.value)


def test_a_deferred_device_chunk_pickles_as_its_class() -> None:
    out = SO._encode_sync(fd.NDBuffer(fd.asarray(X)), spec("float32", fd.prototype))
    back = pickle.loads(pickle.dumps(out))
    assert type(back) is fd.NDBuffer
    np.testing.assert_array_equal(fd.peek(back), fd.peek(out))


class OtherND(cpu.NDBuffer):
    """A host buffer class of its own: takes the same path as a device one."""


def test_another_host_buffer_class(kernel_calls: list[Any]) -> None:
    a = create("float32", [SO, CV], 0, shape=(6,), chunks=(3,))
    a[...] = X
    want = a[...]
    kernel_calls.clear()
    proto = BufferPrototype(buffer=cpu.Buffer, nd_buffer=OtherND)
    got = a.get_basic_selection(Ellipsis, prototype=proto)
    np.testing.assert_array_equal(bits(got), bits(want))
    assert len(kernel_calls) == 2  # one fused call per chunk


def test_the_stand_in_refuses_what_cupy_refuses() -> None:
    d = fd.asarray(np.arange(4.0))
    with pytest.raises(TypeError, match="Implicit conversion to a NumPy array"):
        np.asarray(d)
    with pytest.raises(TypeError, match="Unsupported type"):
        d[...] = np.arange(4.0)
    with pytest.raises(TypeError, match="Unsupported type"):
        np.add(d, np.arange(4.0))
    assert isinstance(np.add(d, 1), fd.DeviceArray)  # on the device
    fd.COPIES.clear()
    assert d.get().tolist() == [0, 1, 2, 3] and fd.copies() == (1, 0)
    with pytest.warns(fd.HostArrayWarning):
        fd.NDBuffer(np.arange(3))


def test_zarr_alone_makes_no_copy_in_these_reads_and_writes() -> None:
    """So the counts above are ours: the same reads and writes without our codecs copy nothing
    between host and device (zarr's bytes codec and MemoryStore keep device buffers)."""
    a = create("float32", [zc.TransposeCodec(order=(0,))], 0)
    d = fd.asarray(np.arange(40, dtype=np.float32))
    fd.COPIES.clear()
    with fd.use():
        a[...] = d
        got = a[...]
        a[2:5] = fd.DeviceArray(np.zeros(3, np.float32))
    assert isinstance(got, fd.DeviceArray)
    assert fd.copies() == (0, 0)
