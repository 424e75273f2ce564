#!/usr/bin/env bash
# scripts/python-test.sh (a step of scripts/test.sh, after `npm run build`: the tests decode
# stored chunks with the built dist/ in Node): builds the abi3 wheel with maturin (the
# `wheel` profile of Cargo.toml), checks it (auditwheel show, abi3audit, twine check --strict),
# installs it into .venv (so the entry points are the wheel's), then ruff format --check, ruff
# check and pytest over python/tests. Exit 5 of pytest ("no tests collected") is a failure.
# The wheel is the one users get: on x86_64 a manylinux2014 (glibc 2.17) wheel linked by zig
# (`maturin build --zig`, ziglang from requirements-dev.txt), whatever this machine's glibc is.
# Without zig it falls back, loudly, to a plain build tagged for this machine's glibc (2.34 on
# Debian 12: not installable on older systems). The aarch64 and musllinux wheels and the sdist:
# scripts/wheels.sh (not part of npm test).
set -uo pipefail
cd "$(dirname "${BASH_SOURCE[0]}")/.."
ROOT=$PWD
VENV=$ROOT/.venv
[ -x "$VENV/bin/python" ] || { echo "python-test: no .venv (run scripts/python-setup.sh)" >&2; exit 1; }
TARGET=${CARGO_TARGET_DIR:-$ROOT/target}
OUT=$TARGET/python-wheel
rc=0

rm -rf "$OUT"
source scripts/wheel-checks.sh
if [ "$(uname -m)" = x86_64 ] && "$VENV/bin/python" -m ziglang version >/dev/null 2>&1; then
  echo "--- maturin build --zig --compatibility manylinux2014 (python/pyproject.toml)"
  # PATH: maturin finds zig as `python3 -m ziglang`, the .venv's.
  # --target: the folder scripts/wheels.sh builds the same wheel in.
  (cd python && PATH="$VENV/bin:$PATH" "$VENV/bin/maturin" build --locked --zig --target x86_64-unknown-linux-gnu \
    --compatibility manylinux2014 --out "$OUT" -i "$VENV/bin/python") || exit 1
  want_tag=manylinux_2_17_x86_64
else
  echo "!!! python-test: zig unavailable (ziglang in .venv) or not an x86_64 host: building a wheel" >&2
  echo "!!! for THIS machine's glibc ($(ldd --version 2>/dev/null | head -1 | awk '{print $NF}')), not the portable manylinux2014 one" >&2
  (cd python && "$VENV/bin/maturin" build --locked --out "$OUT" -i "$VENV/bin/python") || exit 1
  want_tag=
fi
wheel=$(ls "$OUT"/zarr_scale_offset-*.whl)
check_wheel "$wheel" "$want_tag" || rc=1
echo "--- pip install $(basename "$wheel")"
"$VENV/bin/python" -m pip install -q --disable-pip-version-check --force-reinstall --no-deps "$wheel" || exit 1

echo "--- ruff format --check / ruff check (python/)"
"$VENV/bin/ruff" format --check python || rc=1
"$VENV/bin/ruff" check python || rc=1

echo "--- pytest python/tests"
# From python/tests, so `import zarr_scale_offset` is the installed wheel, not the source tree.
(cd python/tests && "$VENV/bin/python" -m pytest -q -p no:cacheprovider .)
prc=$?
if [ $prc -eq 5 ]; then
  echo "python-test: pytest collected no tests" >&2
  rc=1
elif [ $prc -ne 0 ]; then
  rc=1
fi
# A user's environment: a new venv with only the wheel, what its metadata requires (pip resolves
# it; versions held to requirements-dev.txt's by -c) and the user-side tools of the guides'
# workflows (xarray, dask); no maturin, ruff or explicit cast-value-rs. The tests of those
# workflows run in it: a dependency that only the development .venv supplies fails here (a
# store of cf.scale_offset + cast_value did not open without cast-value-rs).
# PATH there holds no cargo or rustc (path_without_rust).
# Its interpreter: the oldest CPython >= 3.12 that pyenv has (the wheel is abi3 for >= 3.12, and
# .venv has the newest), else .venv's own.
source scripts/python-find.sh
base=$(pyenv_pythons)
base=${base%%$'\n'*}  # the oldest
[ -n "$base" ] || base=$("$VENV/bin/python" -c 'import sys; print(sys._base_executable)')
echo "--- clean install: $(basename "$wheel") + xarray, dask in a new venv ($("$base" --version))"
CLEAN=$TARGET/python-clean-venv
rm -rf "$CLEAN"
if "$base" -m venv "$CLEAN" \
  && "$CLEAN/bin/python" -m pip install -q --disable-pip-version-check -c "$ROOT/python/requirements-dev.txt" \
    "$wheel" xarray dask distributed pytest \
  && "$CLEAN/bin/python" -m pip check; then
  # No Rust toolchain on PATH (a user's machine): the wheel must not need one.
  norust=$(path_without_rust)
  (cd python/tests && PATH=$norust "$CLEAN/bin/python" -c \
    'import shutil, sys; sys.exit(1 if shutil.which("cargo") or shutil.which("rustc") else 0)' \
    || { echo "python-test: cargo/rustc still on PATH" >&2; exit 1; }
  # Less the one test that runs `cargo run` on the core's example (run in .venv above).
  PATH=$norust "$CLEAN/bin/python" -m pytest -q -p no:cacheprovider \
    -k "not test_table_is_the_spec_list_minus_zarr_pythons_own_types" \
    test_xarray.py test_dask.py test_codecs.py test_dtypes.py) || rc=1
else
  echo "python-test: the clean install failed" >&2
  rc=1
fi
exit $rc
