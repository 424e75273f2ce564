#!/usr/bin/env bash
# scripts/setup.sh: installs whatever is missing to build and test zarr-scale-offset. Idempotent:
# every step checks first and does nothing when the tool is already there at the right version.
#
#   * rustup target wasm32-unknown-unknown
#   * wasm-bindgen-cli at exactly the `wasm-bindgen` version in Cargo.lock (wasm-pack --mode
#     no-install refuses any other version)
#   * wasm-pack 0.15.1
#   * apt xz-utils (only as root; scripts/build.mjs compresses the inlined .wasm with `xz`)
#   * apt chromium + chromium-driver (only as root; for the headless-Chromium tests)
#   * npm ci (binaryen 132.0.0 = wasm-opt, playwright-core 1.65.1, ajv 8.20.0 for the spec schema test,
#     typedoc 0.28.20 + typedoc-plugin-markdown 4.14.1 + @types/node 20 for the docs) when node_modules is missing or
#     older than package-lock.json
#   * .venv: CPython >= 3.12 (pyenv's copy; never downloaded) with python/requirements-dev.txt
#     (scripts/python-setup.sh; fails when there is no such interpreter)
#
# Nothing here downloads a browser or anything from GitHub.
#
# Option: --no-browser skips chromium (used by `npm start`, which needs no browser).
set -euo pipefail
NO_BROWSER=0
for a in "$@"; do
  case "$a" in
    --no-browser) NO_BROWSER=1 ;;
    *) echo "setup: unknown option $a" >&2; exit 2 ;;
  esac
done
cd "$(dirname "${BASH_SOURCE[0]}")/.."
ROOT=$PWD
WASM_PACK_VERSION=0.15.1
# cargo install puts binaries in $CARGO_INSTALL_ROOT/bin, else $CARGO_HOME/bin (~/.cargo/bin).
TOOL_BIN="${CARGO_INSTALL_ROOT:-${CARGO_HOME:-$HOME/.cargo}}/bin"
export PATH="$TOOL_BIN:$HOME/.cargo/bin:$PATH"
export CARGO_TERM_COLOR=${CARGO_TERM_COLOR:-never}

say() { echo "--- setup: $*"; }

# --- Rust (tools go to $TOOL_BIN; set CARGO_INSTALL_ROOT to put them elsewhere) ------------
command -v cargo >/dev/null || { echo "setup: cargo not found (install Rust with rustup first)" >&2; exit 1; }

if rustup target list --installed 2>/dev/null | grep -qx wasm32-unknown-unknown; then
  say "rustup target wasm32-unknown-unknown: present"
else
  say "rustup target add wasm32-unknown-unknown"
  rustup target add wasm32-unknown-unknown
fi

WBV=$(awk '/^name = "wasm-bindgen"$/ { getline; gsub(/"/, "", $3); print $3; exit }' Cargo.lock)
[ -n "$WBV" ] || { echo "setup: no wasm-bindgen in Cargo.lock" >&2; exit 1; }
# Check the binaries in TOOL_BIN (first on PATH, so they are the ones wasm-pack runs).
have_wbv=$("$TOOL_BIN/wasm-bindgen" --version 2>/dev/null | awk '{print $2}' || true)
if [ "$have_wbv" = "$WBV" ] && [ -x "$TOOL_BIN/wasm-bindgen-test-runner" ]; then
  say "wasm-bindgen-cli $WBV: present"
else
  say "cargo install wasm-bindgen-cli =$WBV (found: ${have_wbv:-none})"
  # --locked fails for some versions when the registry lacks a locked dependency (0.2.130 locks
  # webpki-roots 1.0.11); then install without it.
  cargo install wasm-bindgen-cli --version "=$WBV" --force --locked \
    || cargo install wasm-bindgen-cli --version "=$WBV" --force
fi

have_wp=$("$TOOL_BIN/wasm-pack" --version 2>/dev/null | awk '{print $2}' || true)
if [ "$have_wp" = "$WASM_PACK_VERSION" ]; then
  say "wasm-pack $WASM_PACK_VERSION: present"
else
  say "cargo install wasm-pack =$WASM_PACK_VERSION (found: ${have_wp:-none})"
  cargo install wasm-pack --version "=$WASM_PACK_VERSION" --force --locked
fi

# --- xz (scripts/build.mjs: the inlined WebAssembly module is LZMA-compressed with it) ---------
if command -v xz >/dev/null; then
  say "xz: present"
elif [ "$(id -u)" = 0 ] && command -v apt-get >/dev/null; then
  say "apt-get install xz-utils"
  apt-get update -q
  DEBIAN_FRONTEND=noninteractive apt-get install -y -q --no-install-recommends xz-utils
else
  echo "setup: xz is missing and this is not root: install it with" >&2
  echo "       sudo apt-get install xz-utils" >&2
  exit 1
fi

# --- Chromium (for wasm-pack test --headless --chrome and the Playwright demo test) -----------
if [ "$NO_BROWSER" = 1 ]; then
  say "chromium: skipped (--no-browser)"
elif command -v chromium >/dev/null && command -v chromedriver >/dev/null; then
  say "chromium + chromedriver: present"
elif [ "$(id -u)" = 0 ] && command -v apt-get >/dev/null; then
  say "apt-get install chromium chromium-driver"
  apt-get update -q
  DEBIAN_FRONTEND=noninteractive apt-get install -y -q --no-install-recommends chromium chromium-driver
else
  echo "setup: chromium and chromedriver are missing and this is not root: install them with" >&2
  echo "       sudo apt-get install chromium chromium-driver" >&2
  exit 1
fi

# --- npm ----------------------------------------------------------------------------------------
# node_modules/.package-lock.json is written by npm after every install; when it is older than
# package-lock.json (or missing) the tree is stale.
if [ -d node_modules ] && [ -f node_modules/.package-lock.json ] \
   && [ ! package-lock.json -nt node_modules/.package-lock.json ] \
   && [ -x node_modules/.bin/wasm-opt ] && [ -d node_modules/playwright-core ]; then
  say "node_modules: up to date"
else
  say "npm ci"
  npm ci --no-audit --no-fund
fi

# --- Python (the zarr-python engine's tests) ------------------------------------------------------
bash scripts/python-setup.sh

say "versions: $(rustc --version | awk '{print $1, $2}'), $(wasm-bindgen --version), $(wasm-pack --version), \
node $(node --version), $(xz --version | head -n1), wasm-opt $(node_modules/.bin/wasm-opt --version | awk '{print $3}'), \
$(chromium --version 2>/dev/null | head -n1 || true), chromedriver $(chromedriver --version 2>/dev/null | awk '{print $2}' || true), \
$(.venv/bin/python --version)"
