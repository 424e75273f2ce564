"""A stand-in for CuPy and zarr-python's GPU buffers, for tests that run without a GPU.

:class:`DeviceArray` wraps a NumPy array ("device memory") and behaves as a CuPy array does
where it matters to a codec: NumPy will not convert it (``np.asarray`` raises CuPy's
``TypeError``), a NumPy array is not accepted where a device array is (assignment, operators,
NumPy functions and ufuncs: CuPy's ``Unsupported type`` ``TypeError``), the explicit copies are
``.get()`` (device to host) and :func:`asarray` (host to device), and NumPy functions and
ufuncs called on it run "on the device" (``__array_function__`` / ``__array_ufunc__``, as CuPy
implements them) and return device arrays. Every copy between host and device is counted in
:data:`COPIES`.

:class:`Buffer` and :class:`NDBuffer` are zarr-python buffer classes over it, written as
``zarr/core/buffer/gpu.py`` writes its CuPy ones (an ``NDBuffer`` made from a host array warns
and copies, as zarr's GPU one does), and :func:`use` selects them through ``zarr.config``
(``buffer`` / ``ndbuffer``) exactly as ``zarr.config.enable_gpu()`` selects zarr's GPU classes,
so arrays read and written under it go through the real zarr-python pipeline with chunks that
are device arrays.
"""

from __future__ import annotations

import warnings
from collections.abc import Iterable
from typing import Any, Literal

import numpy as np
import zarr
from zarr.core.buffer import core
from zarr.registry import register_buffer, register_ndbuffer

__all__ = [
    "COPIES",
    "Buffer",
    "DeviceArray",
    "HostArrayWarning",
    "NDBuffer",
    "asarray",
    "peek",
    "use",
]

#: CuPy's messages.
IMPLICIT = (
    "Implicit conversion to a NumPy array is not allowed. "
    "Please use `.get()` to construct a NumPy array explicitly."
)

#: Copies between host and device, and their bytes, since the last ``COPIES.clear()``.
COPIES: dict[str, int] = {}


def _count(way: str, nbytes: int) -> None:
    COPIES[way] = COPIES.get(way, 0) + 1
    COPIES[way + "_bytes"] = COPIES.get(way + "_bytes", 0) + nbytes


def copies() -> tuple[int, int]:
    """(copies to the host, copies to the device) since the last ``COPIES.clear()``."""
    return COPIES.get("to_host", 0), COPIES.get("to_device", 0)


def copied_bytes() -> tuple[int, int]:
    """(bytes copied to the host, bytes copied to the device) since the last clear."""
    return COPIES.get("to_host_bytes", 0), COPIES.get("to_device_bytes", 0)


def _unsupported(x: Any) -> TypeError:
    return TypeError(f"Unsupported type {type(x)}")


def _on_device(x: Any) -> Any:
    """``x`` as the device computes with it: a device array's data, a scalar (Python, NumPy, or
    a 0-d NumPy array, which CuPy takes as a scalar) as it is; a NumPy array of one or more
    dimensions is refused as CuPy refuses it."""
    if isinstance(x, DeviceArray):
        return x._a
    if isinstance(x, np.ndarray) and x.ndim > 0:
        raise _unsupported(x)
    if isinstance(x, list | tuple):
        return type(x)(_on_device(v) for v in x)
    return x


def _wrap(x: Any) -> Any:
    if isinstance(x, np.ndarray):
        return DeviceArray(x)
    if isinstance(x, list | tuple):
        return type(x)(_wrap(v) for v in x)
    return x


class DeviceArray:
    """An array "on the device" (see the module): a NumPy array that NumPy cannot see."""

    __slots__ = ("_a",)

    def __init__(self, a: np.ndarray) -> None:
        self._a = a

    # ---- no implicit conversion, explicit copies ----

    def __array__(self, *args: Any, **kwargs: Any) -> np.ndarray:
        raise TypeError(IMPLICIT)

    def get(self) -> np.ndarray:
        """The array copied to the host (CuPy's ``ndarray.get``)."""
        _count("to_host", self._a.nbytes)
        return self._a.copy()

    def __array_function__(self, func: Any, types: Any, args: Any, kwargs: Any) -> Any:
        return _wrap(func(*_on_device(args), **{k: _on_device(v) for k, v in kwargs.items()}))

    def __array_ufunc__(self, ufunc: Any, method: str, *inputs: Any, **kwargs: Any) -> Any:
        kwargs = {k: _on_device(v) for k, v in kwargs.items()}
        return _wrap(getattr(ufunc, method)(*_on_device(inputs), **kwargs))

    # ---- attributes ----

    @property
    def shape(self) -> tuple[int, ...]:
        return self._a.shape

    @property
    def dtype(self) -> np.dtype[Any]:
        return self._a.dtype

    @property
    def ndim(self) -> int:
        return self._a.ndim

    @property
    def size(self) -> int:
        return self._a.size

    @property
    def nbytes(self) -> int:
        return self._a.nbytes

    @property
    def strides(self) -> tuple[int, ...]:
        return self._a.strides

    @property
    def flags(self) -> Any:
        return self._a.flags

    @property
    def T(self) -> DeviceArray:
        return DeviceArray(self._a.T)

    def __len__(self) -> int:
        return len(self._a)

    def __repr__(self) -> str:
        return f"DeviceArray({self._a!r})"

    def __bool__(self) -> bool:
        return bool(self._a)  # a one-element array (CuPy synchronises and reads it)

    # ---- indexing and methods (on the device) ----

    def __getitem__(self, key: Any) -> DeviceArray:
        return DeviceArray(np.asanyarray(self._a[_on_device(key)]))

    def __setitem__(self, key: Any, value: Any) -> None:
        self._a[_on_device(key)] = _on_device(value)

    def reshape(self, *shape: Any, order: Literal["C", "F", "A"] = "C") -> DeviceArray:
        return DeviceArray(self._a.reshape(*shape, order=order))

    def view(self, dtype: Any = None) -> DeviceArray:
        return DeviceArray(self._a.view(dtype))

    def astype(self, dtype: Any, order: Any = "K", copy: bool = True, **kw: Any) -> DeviceArray:
        return DeviceArray(self._a.astype(dtype, order=order, copy=copy))

    def ravel(self, order: Any = "C") -> DeviceArray:
        return DeviceArray(self._a.ravel(order))

    def copy(self, order: Any = "C") -> DeviceArray:
        return DeviceArray(self._a.copy(order))

    def fill(self, value: Any) -> None:
        self._a.fill(_on_device(value))

    def transpose(self, *axes: Any) -> DeviceArray:
        return DeviceArray(self._a.transpose(*axes))

    def squeeze(self, axis: Any = None) -> DeviceArray:
        return DeviceArray(self._a.squeeze(axis))

    def all(self, *args: Any, **kwargs: Any) -> Any:
        return _wrap(np.asanyarray(self._a.all(*args, **kwargs)))

    def any(self, *args: Any, **kwargs: Any) -> Any:
        return _wrap(np.asanyarray(self._a.any(*args, **kwargs)))

    def item(self, *args: Any) -> Any:
        return self._a.item(*args)

    # ---- operators ----

    def _op(self, name: str, other: Any) -> Any:
        return _wrap(np.asanyarray(getattr(self._a, name)(_on_device(other))))

    def __invert__(self) -> Any:
        return DeviceArray(~self._a)

    __hash__ = None  # type: ignore[assignment]


def _binary(name: str) -> Any:
    def op(self: DeviceArray, other: Any) -> Any:
        return self._op(name, other)

    op.__name__ = name
    return op


# The binary operators, each computed on the device by NumPy's own (``self._op``).
for _name in (
    "__eq__", "__ne__", "__and__", "__or__", "__xor__", "__rshift__", "__lshift__",
    "__add__", "__sub__", "__mul__", "__truediv__",
):  # fmt: skip
    setattr(DeviceArray, _name, _binary(_name))


def asarray(x: Any, dtype: Any = None) -> DeviceArray:
    """``x`` on the device (``cupy.asarray``): a device array as it is, anything else copied
    from the host (counted)."""
    if isinstance(x, DeviceArray):
        return x if dtype is None or x.dtype == dtype else x.astype(dtype)
    a = np.array(x, dtype=dtype)  # a copy: the device's own memory
    _count("to_device", a.nbytes)
    return DeviceArray(a)


def peek(x: Any) -> np.ndarray:
    """A device array's data for a test's assertions, not counted as a copy (NumPy arrays as
    they are)."""
    if isinstance(x, core.NDBuffer):
        x = x.as_ndarray_like()
    if isinstance(x, DeviceArray):
        return x._a
    assert isinstance(x, np.ndarray | np.generic), type(x)
    return np.asarray(x)


class HostArrayWarning(UserWarning):
    """An ``NDBuffer`` made from a host array (zarr's GPU ``NDBuffer`` warns the same way)."""


class Buffer(core.Buffer):
    """zarr-python's ``Buffer`` on the stand-in device (as ``zarr.buffer.gpu.Buffer``)."""

    def __init__(self, array_like: Any) -> None:
        if array_like.ndim != 1:
            raise ValueError("array_like: only 1-dim allowed")
        if array_like.dtype != np.dtype("B"):
            raise ValueError("array_like: only byte dtype allowed")
        self._data = asarray(array_like)

    @classmethod
    def create_zero_length(cls) -> Buffer:
        return cls(DeviceArray(np.array([], dtype="B")))

    @classmethod
    def from_buffer(cls, buffer: core.Buffer) -> Buffer:
        return cls(buffer.as_array_like())

    @classmethod
    def from_bytes(cls, bytes_like: Any) -> Buffer:
        return cls(asarray(np.frombuffer(bytes_like, dtype="B")))

    def as_numpy_array(self) -> np.ndarray:
        return self._data.get()

    def combine(self, others: Iterable[core.Buffer]) -> Buffer:
        data = [self._data._a] + [Buffer(o.as_array_like())._data._a for o in others]
        return self.__class__(DeviceArray(np.concatenate(data)))


class NDBuffer(core.NDBuffer):
    """zarr-python's ``NDBuffer`` on the stand-in device (as ``zarr.buffer.gpu.NDBuffer``)."""

    def __init__(self, array: Any) -> None:
        if not isinstance(array, DeviceArray):
            warnings.warn(
                f"an NDBuffer of the stand-in device made from a {type(array).__name__}: "
                "copied to the device",
                HostArrayWarning,
                stacklevel=2,
            )
        self._data = asarray(array)

    @classmethod
    def create(
        cls,
        *,
        shape: Iterable[int],
        dtype: Any,
        order: Literal["C", "F"] = "C",
        fill_value: Any | None = None,
    ) -> NDBuffer:
        ret = cls(DeviceArray(np.empty(tuple(shape), dtype=dtype, order=order)))
        if fill_value is not None:
            ret.fill(fill_value)
        return ret

    @classmethod
    def empty(cls, shape: tuple[int, ...], dtype: Any, order: Literal["C", "F"] = "C") -> NDBuffer:
        return cls(DeviceArray(np.empty(shape, dtype=dtype, order=order)))

    @classmethod
    def from_numpy_array(cls, array_like: Any) -> NDBuffer:
        return cls(asarray(array_like))

    def as_numpy_array(self) -> np.ndarray:
        return self._data.get()

    def __getitem__(self, key: Any) -> NDBuffer:
        return self.__class__(self._data.__getitem__(key))

    def __setitem__(self, key: Any, value: Any) -> None:
        if isinstance(value, NDBuffer):
            value = value._data
        elif isinstance(value, core.NDBuffer):
            value = NDBuffer(value.as_ndarray_like())._data
        self._data.__setitem__(key, value)


BUFFER = f"{__name__}.Buffer"
ND_BUFFER = f"{__name__}.NDBuffer"
register_buffer(Buffer, qualname=BUFFER)
register_ndbuffer(NDBuffer, qualname=ND_BUFFER)
#: The stand-in's prototype (as ``zarr.core.buffer.gpu.buffer_prototype``).
prototype = core.BufferPrototype(buffer=Buffer, nd_buffer=NDBuffer)


def use() -> Any:
    """Selects the stand-in's buffer classes (a context manager), as
    ``zarr.config.enable_gpu()`` selects zarr-python's CuPy ones."""
    return zarr.config.set({"buffer": BUFFER, "ndbuffer": ND_BUFFER})
