#!/usr/bin/env bash
# scripts/package-check.sh: what `cargo publish` and `npm publish` would upload, built and checked
# without uploading anything (the release workflow runs it before publishing; docs/RELEASE.md).
#
#   1 cargo package of zarr-scale-offset-core and zarr-scale-offset (the root workspace, in
#     dependency order: cargo verifies the root crate against the packaged core through a
#     temporary local registry)
#   2 cargo package of the zarrs plugin (crates/zarrs, a workspace of its own), from a copy whose
#     dependency on the root crate points at the unpacked .crate of step 1 and whose
#     zarr-scale-offset-core is the unpacked .crate too (a [patch] given on the command line): the
#     plugin is built against exactly what would be published, offline, and the repository's
#     crates/zarrs/Cargo.lock is not touched
#   3 every .crate listed (files, bytes) and checked against an allow-list: sources, Cargo.toml,
#     Cargo.lock, the README and licence texts of the root crate; nothing under tests/, target/,
#     fixtures, node_modules; no file over 200 KB; each .crate under 1 MB
#   4 npm pack --dry-run --json (needs `npm run build` first): the files are exactly dist/'s
#     build outputs, package.json, README.md and both licence texts; the version is the project's
#     (scripts/version.mjs); the tarball is under the 150,000 B budget
#
# Options: --crates (steps 1-3 only), --npm (step 4 only), --no-verify-zarrs (package the plugin
# without building it: zarrs takes minutes to compile; npm test uses this, the release workflow
# does not), --allow-dirty (package uncommitted changes; npm test passes it).
# Offline where the cargo registry cache already holds the dependencies (CARGO_NET_OFFLINE=true).
set -euo pipefail
cd "$(dirname "${BASH_SOURCE[0]}")/.."
ROOT=$PWD
CRATES=1
NPM=1
VERIFY_ZARRS=1
DIRTY=()
for a in "$@"; do
  case "$a" in
    --crates) NPM=0 ;;
    --npm) CRATES=0 ;;
    --no-verify-zarrs) VERIFY_ZARRS=0 ;;
    --allow-dirty) DIRTY=(--allow-dirty) ;;
    *) echo "package-check: unknown option $a" >&2; exit 2 ;;
  esac
done
say() { echo "--- package-check: $*"; }
fail() { echo "package-check: $*" >&2; exit 1; }

VERSION=$(node scripts/version.mjs)
TARGET=${CARGO_TARGET_DIR:-$ROOT/target}
PKG=$TARGET/package

# list_crate FILE ALLOWED-REGEX: prints the .crate's files with their sizes, fails on anything the
# allow-list does not name or on forbidden paths and sizes.
list_crate() {
  local crate=$1 allowed=$2 name bad=0 n=0 total=0
  [ -f "$crate" ] || fail "$crate was not made"
  name=$(basename "$crate" .crate)
  echo "$(basename "$crate"): $(stat -c %s "$crate") B compressed"
  while read -r size path; do
    n=$((n + 1))
    total=$((total + size))
    local rel=${path#"$name"/}
    printf '  %8d  %s\n' "$size" "$rel"
    if ! [[ $rel =~ $allowed ]]; then echo "  ^ not in the allow-list" >&2; bad=1; fi
    if [[ $rel =~ (^|/)(tests|target|fixtures|node_modules|\.git)/ ]]; then echo "  ^ forbidden path" >&2; bad=1; fi
    if [ "$size" -gt 200000 ]; then echo "  ^ over 200 KB" >&2; bad=1; fi
  done < <(tar tvzf "$crate" | awk '{print $3, $6}')
  echo "  $n files, $total B unpacked"
  [ "$(stat -c %s "$crate")" -le 1000000 ] || { echo "  $crate is over 1 MB" >&2; bad=1; }
  [ $bad = 0 ] || fail "$(basename "$crate"): unexpected contents (above)"
}

COMMON='Cargo\.toml|Cargo\.toml\.orig|Cargo\.lock|\.cargo_vcs_info\.json'
if [ $CRATES = 1 ]; then
  say "cargo package -p zarr-scale-offset-core -p zarr-scale-offset (verified, in dependency order)"
  rm -f "$PKG"/zarr-scale-offset-*.crate "$PKG"/zarrs-scale-offset-*.crate
  # cargo verifies the root crate against the packaged core through a local registry in its
  # target folder; it unpacks that core into $CARGO_HOME/registry/src/<hash of the registry's
  # path>/ and builds it as a registry crate, which it never unpacks or rebuilds again (registry
  # sources do not change). A second run from the same checkout would therefore verify the root
  # crate against an earlier run's core (same version, older code). So: the unpacked copies
  # removed (these crates come from nowhere else), and a target folder of its own, new each run
  # (the two crates build in seconds).
  rm -rf "${CARGO_HOME:-$HOME/.cargo}"/registry/src/*/zarr-scale-offset-core-"$VERSION" \
    "${CARGO_HOME:-$HOME/.cargo}"/registry/src/*/zarr-scale-offset-"$VERSION"
  VERIFY_DIR=$TARGET/package-verify
  rm -rf "$VERIFY_DIR"
  cargo package --locked "${DIRTY[@]}" -p zarr-scale-offset-core -p zarr-scale-offset --target-dir "$VERIFY_DIR"
  mkdir -p "$PKG"
  cp "$VERIFY_DIR/package/zarr-scale-offset-core-$VERSION.crate" "$VERIFY_DIR/package/zarr-scale-offset-$VERSION.crate" "$PKG/"

  say "cargo package of the zarrs plugin against the packaged root crates"
  WORK=$PKG/zarrs-check
  rm -rf "$WORK"
  mkdir -p "$WORK/deps" "$WORK/zarrs-scale-offset"
  tar xzf "$PKG/zarr-scale-offset-core-$VERSION.crate" -C "$WORK/deps"
  tar xzf "$PKG/zarr-scale-offset-$VERSION.crate" -C "$WORK/deps"
  # The plugin's tracked files (its include list decides what ships; the copy has no target/).
  (cd crates/zarrs && git ls-files -z . | xargs -0 tar cf -) | tar xf - -C "$WORK/zarrs-scale-offset"
  if [ ${#DIRTY[@]} = 0 ] && [ -n "$(git status --porcelain -- crates/zarrs)" ]; then
    fail "crates/zarrs has uncommitted changes (commit them, or pass --allow-dirty)"
  fi
  sed -i "s#^zarr-scale-offset = { path = \"../..\",#zarr-scale-offset = { path = \"$WORK/deps/zarr-scale-offset-$VERSION\",#" \
    "$WORK/zarrs-scale-offset/Cargo.toml"
  grep -q "path = \"$WORK/deps/zarr-scale-offset-$VERSION\", version = \"=$VERSION\"" "$WORK/zarrs-scale-offset/Cargo.toml" \
    || fail "crates/zarrs/Cargo.toml: no zarr-scale-offset = { path = \"../..\", version = \"=$VERSION\" } to point at the package"
  zarrs_verify=()
  [ $VERIFY_ZARRS = 1 ] || zarrs_verify=(--no-verify)
  # Packaging resolves the plugin as published (registry requirements, no paths): both crates
  # come from the unpacked packages through [patch]. Not --locked: cargo records the patches in
  # the copy's lock file (as [[patch.unused]] for the local build); every other entry must stay
  # as crates/zarrs/Cargo.lock has it (checked below).
  (cd "$WORK/zarrs-scale-offset" &&
    CARGO_TARGET_DIR=${ZARRS_TARGET_DIR:-$TARGET} cargo package "${zarrs_verify[@]}" \
      --config "patch.crates-io.zarr-scale-offset.path=\"$WORK/deps/zarr-scale-offset-$VERSION\"" \
      --config "patch.crates-io.zarr-scale-offset-core.path=\"$WORK/deps/zarr-scale-offset-core-$VERSION\"")
  diff <(sed '/^\[\[patch\.unused\]\]$/,$d' "$WORK/zarrs-scale-offset/Cargo.lock" | sed -e :a -e '/^\n*$/{$d;N;ba' -e '}') \
    crates/zarrs/Cargo.lock >&2 || fail "packaging the plugin changed its lock file (above)"
  cp "${ZARRS_TARGET_DIR:-$TARGET}/package/zarrs-scale-offset-$VERSION.crate" "$PKG/" 2>/dev/null || true

  say "contents"
  list_crate "$PKG/zarr-scale-offset-core-$VERSION.crate" "^($COMMON|src/.+\\.rs|examples/[a-z_]+\\.rs)\$"
  list_crate "$PKG/zarr-scale-offset-$VERSION.crate" "^($COMMON|src/.+\\.rs|examples/decode\\.rs|README\\.md|LICENSE-MIT|LICENSE-APACHE)\$"
  list_crate "$PKG/zarrs-scale-offset-$VERSION.crate" "^($COMMON|src/.+\\.rs)\$"
  # The plugin's published manifest requires the root crate at exactly this version, and no path.
  dep=$(tar xzOf "$PKG/zarrs-scale-offset-$VERSION.crate" "zarrs-scale-offset-$VERSION/Cargo.toml" |
    awk '/^\[dependencies.zarr-scale-offset\]$/ {f=1; next} /^\[/ {f=0} f && /^version/ {print $3}')
  [ "$dep" = "\"=$VERSION\"" ] || fail "the packaged plugin requires zarr-scale-offset $dep, not =$VERSION"
  say "crates ok: core, root and zarrs plugin $VERSION (in $PKG)"
fi

if [ $NPM = 1 ]; then
  say "npm pack --dry-run --json"
  [ -f dist/index.js ] || fail "dist/ is not built: npm run build first"
  npm pack --dry-run --json 2>/dev/null | node -e '
    const [info] = JSON.parse(require("fs").readFileSync(0, "utf8"));
    const version = process.argv[1];
    const allowed = ["LICENSE-APACHE", "LICENSE-MIT", "README.md", "package.json",
      "dist/cf.js", "dist/core.js", "dist/index.d.ts", "dist/index.js", "dist/numbers.js",
      "dist/zarr_scale_offset.js", "dist/zarr_scale_offset_wasm.js", "dist/zarrita.d.ts", "dist/zarrita.js"];
    const files = info.files.map((f) => f.path).sort();
    for (const f of info.files) console.log(`  ${String(f.size).padStart(8)}  ${f.path}`);
    console.log(`  ${info.entryCount} files, ${info.unpackedSize} B unpacked, tarball ${info.size} B, ${info.filename}`);
    const errors = [];
    const extra = files.filter((f) => !allowed.includes(f));
    const missing = allowed.filter((f) => !files.includes(f));
    if (extra.length) errors.push(`not in the allow-list: ${extra.join(", ")}`);
    if (missing.length) errors.push(`missing: ${missing.join(", ")}`);
    if (info.version !== version) errors.push(`version ${info.version}, not ${version}`);
    if (info.size >= 150000) errors.push(`tarball ${info.size} B, budget under 150,000 B`);
    if (errors.length) { console.error("package-check: npm pack: " + errors.join("; ")); process.exit(1); }
  ' "$VERSION"
  say "npm pack ok: $VERSION"
fi
