#!/usr/bin/env bash
# scripts/wheels.sh: the release artefacts of the Python package, built and checked here (not part
# of `npm test`: the cross builds, the sdist build and the qemu tests would not fit CI's time). Into
# $TARGET/wheels: manylinux2014 (glibc 2.17) abi3 wheels for x86_64 and aarch64 and a
# musllinux_1_2 x86_64 wheel, all linked by zig (`maturin build --zig`, ziglang from
# requirements-dev.txt), plus the sdist. Each is checked (scripts/wheel-checks.sh: auditwheel show
# names the expected platform tag, abi3audit --strict, twine check --strict); the sdist is built
# and tested in a fresh venv (pip builds it with cargo: the path for platforms without a wheel);
# the aarch64 wheel's tests run under qemu-user with Debian's arm64 CPython 3.13.
# The x86_64 manylinux2014 wheel's tests, without Rust on PATH: scripts/python-test.sh.
# Needs: .venv (scripts/python-setup.sh), dist/ (npm run build: the tests decode in Node), the
# rustup targets below (added if missing), and as root: apt packages qemu-user-static, musl,
# patchelf (installed if missing). SKIP_QEMU=1 leaves out the aarch64 tests (test_codecs.py and
# test_dtypes.py, ~5 tests a minute under qemu: most of an hour); QEMU_TESTS=... picks others.
set -uo pipefail
cd "$(dirname "${BASH_SOURCE[0]}")/.."
ROOT=$PWD
VENV=$ROOT/.venv
[ -x "$VENV/bin/python" ] || { echo "wheels: no .venv (run scripts/python-setup.sh)" >&2; exit 1; }
[ -f dist/index.js ] || { echo "wheels: no dist/ (run npm run build)" >&2; exit 1; }
export PATH="$HOME/.cargo/bin:$PATH"
TARGET=${CARGO_TARGET_DIR:-$ROOT/target}
OUT=$TARGET/wheels
source scripts/wheel-checks.sh
rc=0
t0=$SECONDS
lap() { echo "=== wheels: $1 (${2}s)"; }
fail() { echo "!!! wheels: $*" >&2; rc=1; }

"$VENV/bin/python" -m ziglang version >/dev/null 2>&1 || { echo "wheels: no ziglang in .venv" >&2; exit 1; }
need=(x86_64-unknown-linux-gnu aarch64-unknown-linux-gnu x86_64-unknown-linux-musl)
have=$(rustup target list --installed)
for t in "${need[@]}"; do
  grep -qx "$t" <<<"$have" || rustup target add "$t" || exit 1
done
apt_need=()
command -v qemu-aarch64-static >/dev/null || apt_need+=(qemu-user-static)
[ -e /usr/lib/x86_64-linux-musl/libc.so ] || apt_need+=(musl)
command -v patchelf >/dev/null || apt_need+=(patchelf)
if [ ${#apt_need[@]} -gt 0 ]; then
  if [ "$(id -u)" = 0 ]; then
    apt-get install -y -q "${apt_need[@]}" >/dev/null || { apt-get update -q >/dev/null && apt-get install -y -q "${apt_need[@]}" >/dev/null; } || exit 1
  else
    echo "wheels: needs ${apt_need[*]} (apt-get install, as root)" >&2
    exit 1
  fi
fi

rm -rf "$OUT"
mkdir -p "$OUT"
build() { # build TARGET COMPATIBILITY
  local s=$SECONDS
  (cd python && PATH="$VENV/bin:$PATH" "$VENV/bin/maturin" build --locked --zig --target "$1" \
    --compatibility "$2" --out "$OUT" -i "$VENV/bin/python") >"$OUT/build-$1.log" 2>&1 \
    || { tail -30 "$OUT/build-$1.log"; fail "maturin build --target $1 failed"; }
  lap "built $1 ($2)" $((SECONDS - s))
}
build x86_64-unknown-linux-gnu manylinux2014
build aarch64-unknown-linux-gnu manylinux2014
build x86_64-unknown-linux-musl musllinux_1_2
s=$SECONDS
(cd python && "$VENV/bin/maturin" sdist --out "$OUT") >"$OUT/sdist.log" 2>&1 || fail "maturin sdist failed"
lap "sdist" $((SECONDS - s))

# zig links the musl wheel against upstream musl's `libc.so` (no soname); Alpine's musl, which the
# musllinux images and auditwheel's policy use, is `libc.musl-x86_64.so.1`. musl's loader takes
# both names as itself; the wheel is rewritten to Alpine's name (the RECORD hash with it), as a
# wheel built in a musllinux container has it, so auditwheel can name its platform.
musl_whl=$(ls "$OUT"/*musllinux_1_2_x86_64.whl 2>/dev/null)
if [ -n "$musl_whl" ]; then
  "$VENV/bin/python" - "$musl_whl" <<'PY' || fail "renaming the musl wheel's libc failed"
import base64, hashlib, os, subprocess, sys, tempfile, zipfile
whl = sys.argv[1]
with zipfile.ZipFile(whl) as z:
    items = [(i, z.read(i.filename)) for i in z.infolist()]
new, record = [], None
for info, data in items:
    if info.filename.endswith(".so"):
        with tempfile.TemporaryDirectory() as d:
            so = os.path.join(d, "x.so")
            open(so, "wb").write(data)
            needed = subprocess.run(["patchelf", "--print-needed", so], capture_output=True, text=True, check=True).stdout.split()
            if "libc.so" in needed:
                subprocess.run(["patchelf", "--replace-needed", "libc.so", "libc.musl-x86_64.so.1", so], check=True)
            data = open(so, "rb").read()
        digest = base64.urlsafe_b64encode(hashlib.sha256(data).digest()).rstrip(b"=").decode()
        sums = (info.filename, f"sha256={digest}", str(len(data)))
    new.append([info, data])
for e in new:
    if e[0].filename.endswith(".dist-info/RECORD"):
        lines = e[1].decode().splitlines()
        lines = [",".join(sums) if l.split(",")[0] == sums[0] else l for l in lines]
        e[1] = ("\n".join(lines) + "\n").encode()
with zipfile.ZipFile(whl + ".tmp", "w", zipfile.ZIP_DEFLATED) as z:
    for info, data in new:
        z.writestr(info, data)
os.replace(whl + ".tmp", whl)
PY
fi

echo
echo "=== checks (auditwheel show, abi3audit --strict, twine check --strict)"
for pair in manylinux_2_17_x86_64: manylinux_2_17_aarch64: musllinux_1_2_x86_64:/usr/lib/x86_64-linux-musl; do
  tag=${pair%%:*}
  w=$(ls "$OUT"/*"${tag}".whl 2>/dev/null)
  [ -n "$w" ] || { fail "no $tag wheel"; continue; }
  check_wheel "$w" "$tag" "${pair#*:}" || fail "checks of $(basename "$w")"
done
sdist=$(ls "$OUT"/zarr_scale_offset-*.tar.gz 2>/dev/null)
echo "--- twine check --strict $(basename "$sdist")"
"$VENV/bin/python" -m twine check --strict "$sdist" >/dev/null 2>&1 && echo PASSED || fail "twine check of the sdist"

# The sdist in a fresh venv: pip builds it (maturin from PyPI in pip's isolated build env, cargo
# from PATH: Rust >= the MSRV, python/Cargo.toml rust-version), then the tests that the wheel's
# clean venv runs (python-test.sh) against what it installed.
source scripts/python-find.sh
base=$(pyenv_pythons)
base=${base%%$'\n'*}
[ -n "$base" ] || base=$("$VENV/bin/python" -c 'import sys; print(sys._base_executable)')
s=$SECONDS
SD=$TARGET/wheels-sdist-venv
rm -rf "$SD"
echo
echo "=== the sdist in a new venv ($("$base" --version)): pip install $(basename "$sdist")"
if "$base" -m venv "$SD" \
  && CARGO_TARGET_DIR=$TARGET/wheels-sdist-build "$SD/bin/python" -m pip install -q \
    --disable-pip-version-check -c python/requirements-dev.txt "$sdist" xarray dask distributed pytest \
  && "$SD/bin/python" -m pip check; then
  lap "sdist built and installed" $((SECONDS - s))
  (cd python/tests && "$SD/bin/python" -m pytest -q -p no:cacheprovider \
    test_xarray.py test_dask.py test_codecs.py test_dtypes.py) || fail "the sdist's tests"
else
  fail "the sdist did not build or install"
fi
lap "sdist tested" $((SECONDS - s))

# The aarch64 wheel under qemu-user: Debian trixie's arm64 CPython 3.13 (bookworm's is 3.11, below
# requires-python) and libstdc++6 (numpy's wheel needs it), unpacked into a sysroot through a
# private apt configuration (the machine's own apt state is untouched); a venv-like folder whose
# bin/python runs it through qemu-aarch64-static (so subprocesses of sys.executable work without
# binfmt_misc); the packages installed by the host's pip for manylinux_2_17 to _2_41 aarch64
# (trixie's glibc is 2.41; pip itself under qemu took 10 min).
if [ "${SKIP_QEMU:-0}" = 1 ]; then
  echo "=== aarch64 tests skipped (SKIP_QEMU=1)"
else
  s=$SECONDS
  A=$TARGET/arm64-apt R=$TARGET/arm64-root V=$TARGET/arm64-venv
  arm_whl=$(ls "$OUT"/*manylinux_2_17_aarch64.whl 2>/dev/null)
  if [ ! -e "$R/usr/lib/aarch64-linux-gnu/libstdc++.so.6" ]; then
    rm -rf "$A" "$R"
    mkdir -p "$A/etc/preferences.d" "$A/etc/apt.conf.d" "$A/state/lists/partial" "$A/cache/archives/partial" "$R"
    touch "$A/state/status"
    echo "deb [arch=arm64 signed-by=/usr/share/keyrings/debian-archive-keyring.gpg] http://deb.debian.org/debian trixie main" >"$A/etc/sources.list"
    cat >"$A/apt.conf" <<CONF
Dir::Etc "$A/etc"; Dir::Etc::sourcelist "$A/etc/sources.list"; Dir::Etc::sourceparts "-";
Dir::State "$A/state"; Dir::State::status "$A/state/status"; Dir::Cache "$A/cache";
APT::Architecture "arm64"; APT::Architectures { "arm64"; }; APT::Install-Recommends "false";
CONF
    APT_CONFIG=$A/apt.conf apt-get update -q >/dev/null \
      && APT_CONFIG=$A/apt.conf apt-get install -y -q --download-only python3.13 libstdc++6 >/dev/null \
      && for d in "$A"/cache/archives/*.deb; do dpkg -x "$d" "$R"; done \
      && ln -sfn usr/lib "$R/lib" && ln -sfn usr/bin "$R/bin" \
      || fail "could not unpack Debian's arm64 python3.13"
  fi
  rm -rf "$V"
  mkdir -p "$V/bin" "$V/lib/python3.13/site-packages"
  printf 'home = /usr/bin\ninclude-system-site-packages = false\nversion = 3.13\n' >"$V/pyvenv.cfg"
  printf '#!/bin/sh\nexec qemu-aarch64-static -L %s -0 "$0" %s/usr/bin/python3.13 "$@"\n' "$R" "$R" >"$V/bin/python"
  chmod +x "$V/bin/python"
  if [ -n "$arm_whl" ] && "$VENV/bin/python" -m pip install -q --disable-pip-version-check \
      --target "$V/lib/python3.13/site-packages" $(printf -- '--platform manylinux_2_%s_aarch64 ' {17..41}) \
      --python-version 3.13 --implementation cp --only-binary=:all: \
      -c python/requirements-dev.txt "$arm_whl" pytest hypothesis \
    && "$V/bin/python" -c 'import platform, zarr_scale_offset as z; print("aarch64 python:", platform.machine(), platform.python_version(), z.__file__)'; then
    lap "aarch64 environment" $((SECONDS - s))
    (cd python/tests && "$V/bin/python" -m pytest -q -p no:cacheprovider ${QEMU_TESTS:-test_codecs.py test_dtypes.py}) \
      || fail "the aarch64 wheel's tests under qemu"
  else
    fail "the aarch64 environment could not be set up"
  fi
  lap "aarch64 tests under qemu" $((SECONDS - s))
fi

ls -l "$OUT"/*.whl "$OUT"/*.tar.gz
echo "=== wheels: $((SECONDS - t0))s, $([ $rc = 0 ] && echo ok || echo FAILED)"
exit $rc
