"""scripts/wheel-smoke.py: run by the release workflow (.github/workflows/release.yml) with the
Python of a venv holding only an installed wheel (or sdist) and its dependencies: the package
imports, its version is the project's (VERSION in the environment, from scripts/version.mjs) as
both the installed metadata and ``__version__`` say, and an array round-trips through the core."""

import importlib.metadata
import os

import numpy as np

import zarr_scale_offset as zso

version = importlib.metadata.version("zarr-scale-offset")
assert version == zso.__version__ == os.environ["VERSION"], (version, zso.__version__)
codecs = [{"name": "scale_offset", "configuration": {"offset": 1, "scale": 2}}]
x = np.arange(-4.0, 4.0, 0.5)
stored = zso.encode(codecs, x)
assert (stored == (x - 1) * 2).all(), stored
assert (zso.decode(codecs, stored, "float64") == x).all()
print(f"zarr-scale-offset {version}: imports, round-trips {x.size} values")
