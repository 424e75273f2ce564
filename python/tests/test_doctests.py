"""The examples in the package's documentation run and print what they say."""

from __future__ import annotations

import doctest
import importlib

import pytest

MODULES = ["cf", "dtypes", "errors", "pipeline"]


@pytest.mark.parametrize("name", MODULES)
def test_examples(name):
    module = importlib.import_module(f"zarr_scale_offset.{name}")
    failed, attempted = doctest.testmod(module, optionflags=doctest.ELLIPSIS)
    assert attempted > 0 and failed == 0
