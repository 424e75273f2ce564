# scripts/python-find.sh: sourced by python-setup.sh and python-test.sh. Finds CPython >= 3.12
# (what zarr 3.4.2 and numpy 2.5 need) without ever downloading one.

# Whether $1 runs and is a CPython >= 3.12.
ok_python() { "$1" -c 'import sys; sys.exit(0 if sys.version_info >= (3, 12) else 1)' 2>/dev/null; }

# pyenv's copies that qualify, one path a line, oldest first (`-r`: newest first).
pyenv_pythons() {
  local c
  command -v pyenv >/dev/null || return 0
  for c in $(ls -d "$(pyenv root)"/versions/3.1[2-9]* 2>/dev/null | sort -V ${1:-}); do
    if ok_python "$c/bin/python"; then echo "$c/bin/python"; fi
  done
}
