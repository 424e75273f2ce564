# scripts/wheel-checks.sh: sourced by python-test.sh and wheels.sh (needs $VENV, the .venv with
# auditwheel, abi3audit and twine from python/requirements-dev.txt).

# check_wheel WHEEL [TAG [LDPATHS]]: `auditwheel show` (and, when TAG is given, that it names TAG
# as the wheel's platform), `abi3audit --strict` (only the stable ABI of CPython 3.12) and
# `twine check --strict` (the metadata PyPI would accept). Prints the three results.
check_wheel() {
  local whl=$1 tag=${2:-} ldp=${3:-} out rc=0
  echo "--- auditwheel show $(basename "$whl")"
  out=$("$VENV/bin/python" -m auditwheel show ${ldp:+--ldpaths "$ldp"} "$whl" 2>&1) || rc=1
  echo "$out" | tr '\n' ' ' | grep -o 'consistent with the following platform tag: *"[^"]*"' \
    | sed 's/  */ /g'
  if [ -n "$tag" ] && ! echo "$out" | tr '\n' ' ' | grep -q "platform tag: *\"$tag\""; then
    echo "$out" >&2
    echo "wheel-checks: auditwheel does not find $tag for $(basename "$whl")" >&2
    rc=1
  fi
  echo "--- abi3audit --strict"
  "$VENV/bin/python" -m abi3audit --strict --verbose "$whl" 2>&1 | tail -n 3 || rc=1
  echo "--- twine check --strict"
  "$VENV/bin/python" -m twine check --strict "$whl" 2>&1 | tr -d '\n' | sed 's/\x1b\[[0-9;]*m//g; s/$/\n/' || rc=1
  "$VENV/bin/python" -m twine check --strict "$whl" >/dev/null 2>&1 || rc=1
  return $rc
}

# PATH without the folders that hold cargo or rustc (a user's machine without Rust).
path_without_rust() {
  local d out=
  local IFS=:
  for d in $PATH; do
    [ -n "$d" ] || continue
    [ -e "$d/cargo" ] || [ -e "$d/rustc" ] || [ -e "$d/rustup" ] && continue
    out=${out:+$out:}$d
  done
  echo "$out"
}
