"""CF packing (``scale_factor`` / ``add_offset`` / ``_FillValue``) as Zarr codecs."""

from __future__ import annotations

import json
from collections.abc import Mapping
from typing import Any

import numpy as np

from . import _core


def from_cf(attrs: Mapping[str, Any], packed_dtype: Any) -> dict[str, Any]:
    """The core's ``from_cf``: placeholder (see below)."""
    from .codecs import to_json_value

    return json.loads(
        _core.from_cf(json.dumps(to_json_value(dict(attrs))), np.dtype(packed_dtype).name, None)
    )


def xarray_encoding(*args: Any, **kwargs: Any) -> Any:
    raise NotImplementedError
