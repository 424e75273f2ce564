#!/usr/bin/env bash
# scripts/test.sh (`npm test`): every test, in order, each step under a banner:
#   1 setup (installs what is missing)   1a release files: one version (scripts/version.mjs
#   --check), actionlint over .github/workflows   2 cargo fmt --check   3 cargo clippy -D warnings
#   4 native cargo test   4a the kernel tests again without the AVX2 twins   4b the Rust library from outside (scripts/outside-crate.sh: no wasm
#   crate in the host build, cargo doc with rustdoc lints denied, a crate outside the workspace
#   that uses only the public API)   5 wasm-pack test --node   6 the same, release, --lib (simd128 kernels)
#   7 wasm-pack test --headless --chrome   8 the zarrs plugin (crates/zarrs, a workspace of its own):
#   cargo fmt --check, clippy -D warnings, cargo test (writes the zarrs-made stores to
#   $ZARRS_STORES_DIR)   8b the zarrs plugin from outside (scripts/zarrs-outside.sh)
#   9 npm run build   9a what would be published (scripts/package-check.sh: cargo package of
#   the core and root crates, verified, and of the zarrs plugin, unverified; npm pack contents)
#   10 node --test tests/js/ (built package; reads the zarrs-made stores)
#   11 the Python engine (scripts/python-test.sh: maturin wheel, ruff, pytest; its tests decode
#   chunks with the built dist/ in Node; then the workflow tests again in a new venv holding
#   only the wheel, its declared dependencies, xarray and dask, on the oldest CPython >= 3.12)
#   12 the cross-engine matrix (tests/matrix/run.py: Node, the Python package, zarrs,
#   zarr-python alone, each writing and reading 9 arrays; prints the writers x readers table;
#   needs dist/, the wheel in .venv and the zarrs plugin's target dir)
#   13 the docs (scripts/docs.sh: every Python example by doctest and every JS/TS example
#   type-checked and run against dist/, the API references (TypeDoc, rustdoc of the library and
#   the zarrs plugin, mkdocstrings), `mkdocs build --strict` into target/site/; needs dist/, the
#   wheel in .venv and the zarrs plugin's target dir; the README's Rust examples are doc tests of
#   step 4)
# A failing setup stops at once. Any other failing step is reported and the remaining steps
# still run (so one CI run shows every failure); the exit status is non-zero if any step failed.
# FAIL_FAST=1 stops at the first failing step instead.
set -uo pipefail
cd "$(dirname "${BASH_SOURCE[0]}")/.."
ROOT=$PWD
export PATH="$ROOT/node_modules/.bin:${CARGO_INSTALL_ROOT:-${CARGO_HOME:-$HOME/.cargo}}/bin:$HOME/.cargo/bin:$PATH"
export CARGO_TERM_COLOR=${CARGO_TERM_COLOR:-never}
export CHROMEDRIVER=${CHROMEDRIVER:-/usr/bin/chromedriver}
export WASM_BINDGEN_TEST_DRIVER_TIMEOUT=${WASM_BINDGEN_TEST_DRIVER_TIMEOUT:-30}
export WASM_BINDGEN_TEST_TIMEOUT=${WASM_BINDGEN_TEST_TIMEOUT:-120}
FAIL_FAST=${FAIL_FAST:-0}

t0=$SECONDS
n=0
failed=()
summary=()

# step "title" command args...
step() {
  local title=$1
  shift
  n=$((n + 1))
  local start=$SECONDS
  echo
  echo "=================================================================================="
  echo "=== [$((start - t0))s] step $n: $title"
  echo "=== \$ $*"
  echo "=================================================================================="
  "$@"
  local rc=$?
  local took=$((SECONDS - start))
  if [ $rc -eq 0 ]; then
    summary+=("  ok     step $n: $title (${took}s)")
    echo "=== step $n passed in ${took}s: $title"
  else
    summary+=("  FAILED step $n: $title (exit $rc, ${took}s)")
    failed+=("$n: $title")
    echo "!!! step $n FAILED (exit $rc) after ${took}s: $title"
  fi
  return $rc
}

finish() {
  echo
  echo "=================================================================================="
  echo "=== summary after $((SECONDS - t0))s"
  printf '%s\n' "${summary[@]}"
  if [ ${#failed[@]} -gt 0 ]; then
    echo "!!! ${#failed[@]} step(s) failed: ${failed[*]}"
    echo "$((n - ${#failed[@]})) passed, ${#failed[@]} failed"
    exit 1
  fi
  echo "=== all $n steps passed"
  echo "$n passed, 0 failed"
  exit 0
}

run() {
  step "$@"
  local rc=$?
  if [ $rc -ne 0 ] && [ "$FAIL_FAST" = 1 ]; then finish; fi
  return $rc
}

step "setup (installs only what is missing)" bash scripts/setup.sh || finish
# The one version (root Cargo.toml) repeated everywhere else, and the workflows linted: cheap
# (~1 s), so first. tests/js/version.test.mjs (step node --test) tests the check itself.
release_files() {
  node scripts/version.mjs --check && .venv/bin/actionlint && echo "actionlint: .github/workflows clean"
}
run "release files: one version (scripts/version.mjs --check), actionlint" release_files
run "cargo fmt --all --check" cargo fmt --all --check
run "cargo clippy --workspace --all-targets -- -D warnings" cargo clippy --workspace --all-targets --locked -- -D warnings
run "native cargo test (both crates)" cargo test --workspace --locked
# On x86-64 the hottest kernels run an AVX2 twin when the CPU has it (crates/core/src/kernels,
# avx2_twin!): the kernel-vs-reference tests once more on the SSE2 baseline bodies.
run "native kernel tests on the SSE2 baseline (ZARR_SCALE_OFFSET_NO_AVX2=1)" \
  env ZARR_SCALE_OFFSET_NO_AVX2=1 cargo test --locked --lib kernel_tests
run "the Rust library from outside: cargo tree, cargo doc, a crate outside the workspace" bash scripts/outside-crate.sh
run "wasm tests in Node" wasm-pack test --node --mode no-install
# The kernels' simd128 code exists only in optimised builds: run the library's kernel-vs-reference
# tests (src/kernel_tests.rs and the other unit tests) once more as release wasm.
# (`cargo test --lib` with wasm-bindgen's runner rather than `wasm-pack test --release -- --lib`:
# wasm-pack adds `--tests`, which also builds the integration tests, and two release builds of
# this cdylib then race for the same unhashed output file.)
release_wasm_lib_tests() {
  CARGO_TARGET_WASM32_UNKNOWN_UNKNOWN_RUNNER=wasm-bindgen-test-runner \
    cargo test --target wasm32-unknown-unknown --release --lib --locked
}
run "wasm unit tests in Node, release (simd128 kernels)" release_wasm_lib_tests
run "wasm tests in headless Chromium" wasm-pack test --headless --chrome --mode no-install
# The zarrs plugin: its own workspace and lock file (zarrs 0.23, MSRV 1.91), so the workspace
# steps above build none of zarrs. Its tests write stores with its codecs to ZARRS_STORES_DIR;
# tests/js/zarrs-stores.test.mjs (step node --test) must find them there.
export ZARRS_STORES_DIR=${ZARRS_STORES_DIR:-$ROOT/target/zarrs-stores}
export ZARRS_STORES_REQUIRED=1
zarrs_plugin() {
  (cd crates/zarrs &&
    cargo fmt --check &&
    cargo clippy --all-targets --locked -- -D warnings &&
    cargo test --locked)
}
run "zarrs plugin (crates/zarrs): cargo fmt --check, clippy -D warnings, cargo test" zarrs_plugin
run "zarrs plugin from outside: zarrs 0.23 + the plugin read two stores (scripts/zarrs-outside.sh)" bash scripts/zarrs-outside.sh
# The matrix's zarrs engine: an example of the plugin, built in the plugin's target directory (the
# one the zarrs steps above used, so zarrs is not compiled again).
cross_engine_matrix() {
  local target=${CARGO_TARGET_DIR:-$ROOT/crates/zarrs/target}
  (cd crates/zarrs && cargo build --example matrix --locked) &&
    .venv/bin/ruff format --check --config python/pyproject.toml tests/matrix &&
    .venv/bin/ruff check --config python/pyproject.toml tests/matrix &&
    .venv/bin/python tests/matrix/run.py "$target/debug/examples/matrix"
}
if run "npm run build" npm run build; then
  # --no-verify-zarrs: building zarrs for the plugin's package takes minutes (the release
  # workflow verifies it); --allow-dirty: a working tree with uncommitted changes is tested too.
  run "what would be published: cargo package (3 crates), npm pack (scripts/package-check.sh)" \
    bash scripts/package-check.sh --allow-dirty --no-verify-zarrs
  run "node --test tests/js/ (built package: API, conformance, package, demo page)" node --test tests/js/
  run "Python engine: maturin wheel, ruff, pytest python/tests" bash scripts/python-test.sh
  run "cross-engine matrix: 4 writers x 4 readers (tests/matrix/run.py)" cross_engine_matrix
  run "docs: every example run, API references, mkdocs build --strict (scripts/docs.sh)" bash scripts/docs.sh
else
  summary+=("  SKIPPED step $((n + 1)): package-check (the build failed)")
  failed+=("$((n + 1)): package-check (not run: build failed)")
  summary+=("  SKIPPED step $((n + 2)): node --test tests/js/ (the build failed)")
  failed+=("$((n + 2)): node --test (not run: build failed)")
  summary+=("  SKIPPED step $((n + 3)): Python engine (the build failed)")
  failed+=("$((n + 3)): Python engine (not run: build failed)")
  summary+=("  SKIPPED step $((n + 4)): cross-engine matrix (the build failed)")
  failed+=("$((n + 4)): cross-engine matrix (not run: build failed)")
  summary+=("  SKIPPED step $((n + 5)): docs (the build failed)")
  failed+=("$((n + 5)): docs (not run: build failed)")
fi
finish
