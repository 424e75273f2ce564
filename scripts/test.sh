#!/usr/bin/env bash
# scripts/test.sh (`npm test`): every test, in order; stops at the first failing step (non-zero).
set -euo pipefail
cd "$(dirname "${BASH_SOURCE[0]}")/.."
ROOT=$PWD
export PATH="$ROOT/node_modules/.bin:$HOME/.cargo/bin:$PATH"
export CARGO_TERM_COLOR=${CARGO_TERM_COLOR:-never}
export CHROMEDRIVER=${CHROMEDRIVER:-/usr/bin/chromedriver}
export WASM_BINDGEN_TEST_DRIVER_TIMEOUT=${WASM_BINDGEN_TEST_DRIVER_TIMEOUT:-30}
export WASM_BINDGEN_TEST_TIMEOUT=${WASM_BINDGEN_TEST_TIMEOUT:-120}

t0=$SECONDS
n=0
CURRENT=""
step() {
  n=$((n + 1)); CURRENT="$n. $*"
  echo
  echo "=================================================================================="
  echo "=== [$((SECONDS - t0))s] step $CURRENT"
  echo "=================================================================================="
}
trap 'rc=$?; if [ $rc -ne 0 ]; then echo; echo "!!! FAILED at step $CURRENT (exit $rc) after $((SECONDS - t0))s"; fi' EXIT

step "setup (installs only what is missing)";   bash scripts/setup.sh
step "cargo fmt --check";                         cargo fmt --check
step "cargo clippy --all-targets -- -D warnings"; cargo clippy --all-targets --locked -- -D warnings
step "native cargo test";                         cargo test --locked
step "wasm tests in node (wasm-pack test --node)"
wasm-pack test --node --mode no-install
step "wasm tests in headless Chromium (wasm-pack test --headless --chrome)"
wasm-pack test --headless --chrome --mode no-install
step "npm run build";                             npm run build
step "node --test tests/js/ (built package, conformance, demo page)"
node --test tests/js/

echo
echo "=== all $n steps passed in $((SECONDS - t0))s"
