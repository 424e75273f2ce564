#!/usr/bin/env bash
# scripts/python-setup.sh (called by scripts/setup.sh): the Python test environment `.venv`
# (git-ignored) with python/requirements-dev.txt installed. Idempotent: does nothing when .venv
# has a CPython >= 3.12 and the requirements it was made with are unchanged.
#
# zarr 3.4.2 and numpy 2.5 need CPython >= 3.12. This script never downloads an interpreter: it
# takes the newest of pyenv's copies ($(pyenv root)/versions/3.1[2-9]*) or a python3.1x on PATH,
# and stops with an error if there is none (no silent skip of the Python tests).
# PYTHON=/path/to/python overrides the search.
set -euo pipefail
cd "$(dirname "${BASH_SOURCE[0]}")/.."
VENV=.venv
REQ=python/requirements-dev.txt
say() { echo "--- python-setup: $*"; }

source scripts/python-find.sh

find_python() {
  local c
  if [ -n "${PYTHON:-}" ]; then
    ok_python "$PYTHON" && { echo "$PYTHON"; return 0; }
    echo "python-setup: PYTHON=$PYTHON is not a CPython >= 3.12" >&2
    return 1
  fi
  c=$(pyenv_pythons -r)
  c=${c%%$'\n'*}  # the newest
  [ -n "$c" ] && { echo "$c"; return 0; }
  for c in python3.14 python3.13 python3.12 python3; do
    command -v "$c" >/dev/null && ok_python "$c" && { command -v "$c"; return 0; }
  done
  return 1
}

stamp="$(sha256sum "$REQ" | cut -c1-16)"
if [ -x "$VENV/bin/python" ] && ok_python "$VENV/bin/python" \
   && [ "$(cat "$VENV/.requirements-stamp" 2>/dev/null)" = "$stamp" ]; then
  say ".venv: up to date ($("$VENV/bin/python" --version))"
  exit 0
fi

if ! PY=$(find_python); then
  echo "python-setup: no CPython >= 3.12 found (looked in \$(pyenv root)/versions and for" >&2
  echo "python3.12+ on PATH); zarr 3.4.2 needs one. Install one, or set PYTHON=/path/to/python." >&2
  exit 1
fi
say "using $PY ($("$PY" --version))"
if [ ! -x "$VENV/bin/python" ] || ! ok_python "$VENV/bin/python"; then
  rm -rf "$VENV"
  "$PY" -m venv "$VENV"
fi
"$VENV/bin/python" -m pip install -q --disable-pip-version-check -r "$REQ"
echo "$stamp" >"$VENV/.requirements-stamp"
say ".venv ready: $("$VENV/bin/python" --version), $("$VENV/bin/python" -m pip --version | awk '{print "pip", $2}')"
