"""An opt-in zarr-python codec pipeline that decodes this package's codecs straight into the
output array.

zarr-python decodes each chunk into an array of its own and then copies that array into the
output of the read (``out[out_selection] = chunk[chunk_selection]``, in
``zarr/core/chunk_utils.py``): for a chunk of our codecs that is one more pass over the
decoded bytes than the kernel itself, and the whole of what reading without codecs costs.
:class:`CodecPipeline` is zarr-python's own ``FusedCodecPipeline`` (the same reads, writes,
threads and sharding paths) with one difference: the output it hands to them receives a
chunk our codecs have not computed yet (a pending chunk, see ``codecs._Pending``) by having
the core write the values into the output region directly, when that region is one
C-contiguous block of the chunk's shape and type (a chunk spanning whole rows of the output,
or the whole output). Any other region, any other codec's chunk and the fill value of a
missing chunk take zarr-python's own copy. Values, errors and stored bytes are the same as
with zarr-python's pipelines (``python/tests/test_pipeline.py``).

Select it with::

    zarr.config.set({"codec_pipeline.path": "zarr_scale_offset.pipeline.CodecPipeline"})

(it is registered through the ``zarr.codec_pipeline`` entry point, so no import is needed).
"""

from __future__ import annotations

from collections.abc import Iterable
from typing import TYPE_CHECKING, Any

import numpy as np
from zarr.core.buffer.cpu import NDBuffer
from zarr.core.codec_pipeline import FusedCodecPipeline

from .codecs import _Pending

if TYPE_CHECKING:
    from zarr.abc.codec import GetResult
    from zarr.abc.store import ByteGetter
    from zarr.core.array_spec import ArraySpec
    from zarr.core.buffer import NDBuffer as AnyNDBuffer
    from zarr.core.indexing import SelectorTuple

__all__ = ["CodecPipeline"]

PATH = "zarr_scale_offset.pipeline.CodecPipeline"


def _basic(key: Any) -> bool:
    """Whether numpy indexing by ``key`` is basic (a view, never a copy)."""
    key = key if isinstance(key, tuple) else (key,)
    return all(
        k is Ellipsis
        or k is None
        or isinstance(k, slice)
        or (isinstance(k, int | np.integer) and not isinstance(k, bool | np.bool_))
        for k in key
    )


class _Into(NDBuffer):
    """The output of a read, sharing its array: a pending chunk of our codecs assigned to a
    region of it is computed into that region (``_Pending.compute_into``) when it can be;
    everything else is assigned as zarr-python's CPU buffer does."""

    def __setitem__(self, key: Any, value: Any) -> None:
        if (
            isinstance(value, _Pending)
            and value.pending
            and _basic(key)
            and value.compute_into(self._data[key])
        ):
            return
        super().__setitem__(key, value)


def _into(out: AnyNDBuffer) -> AnyNDBuffer:
    # Only zarr-python's CPU buffer class is wrapped (a GPU buffer, or a subclass with its own
    # assignment, keeps its own): _Into shares its array, so the caller's `out` sees every
    # value written.
    if type(out) is NDBuffer:
        return _Into(out._data)
    return out


class CodecPipeline(FusedCodecPipeline):
    """zarr-python's ``FusedCodecPipeline``, with this package's codecs decoding straight into
    the read's output (module documentation). Opt in with ``zarr.config.set({"codec_pipeline.
    path": "zarr_scale_offset.pipeline.CodecPipeline"})``; arrays with no codec of ours read
    exactly as through ``FusedCodecPipeline``.

    >>> import numpy as np, zarr, zarr_scale_offset as zso
    >>> with zarr.config.set({"codec_pipeline.path": "zarr_scale_offset.pipeline.CodecPipeline"}):
    ...     a = zarr.create_array(zarr.storage.MemoryStore(), shape=(4,), dtype="float32",
    ...         fill_value=0, filters=[zso.ScaleOffset(scale=10), zso.CastValue(data_type="int16")])
    ...     a[:] = np.array([0.5, 1.5, -2.0, 3.0], dtype="float32")
    ...     a[:].tolist()
    [0.5, 1.5, -2.0, 3.0]
    """

    async def read(
        self,
        batch_info: Iterable[tuple[ByteGetter, ArraySpec, SelectorTuple, SelectorTuple, bool]],
        out: AnyNDBuffer,
        drop_axes: tuple[int, ...] = (),
    ) -> tuple[GetResult, ...]:
        return await super().read(batch_info, _into(out), drop_axes)

    def read_sync(
        self,
        batch_info: Iterable[tuple[ByteGetter, ArraySpec, SelectorTuple, SelectorTuple, bool]],
        out: AnyNDBuffer,
        drop_axes: tuple[int, ...] = (),
        max_workers: int = 1,
    ) -> tuple[GetResult, ...]:
        return super().read_sync(batch_info, _into(out), drop_axes, max_workers)
