#!/usr/bin/env bash
# scripts/outside-crate.sh: the Rust library as another crate sees it. Makes a crate in a temporary
# directory, outside this workspace, that depends on zarr-scale-offset by path and uses only its
# public API, and checks that:
#   * it compiles, with `Bound: Send + Sync` (`fn _f<T: Send + Sync>() {} _f::<Bound>()`), and runs;
#   * the host build of zarr-scale-offset has no wasm crate in its normal dependencies
#     (`cargo tree -e normal`: no wasm-bindgen, js-sys, serde-wasm-bindgen);
#   * `cargo doc` of the crate is warning-free with rustdoc's lints denied.
set -euo pipefail
cd "$(dirname "${BASH_SOURCE[0]}")/.."
ROOT=$PWD

echo "--- cargo tree -e normal -p zarr-scale-offset (host)"
tree=$(cargo tree -e normal -p zarr-scale-offset --locked)
echo "$tree"
if grep -E 'wasm-bindgen|js-sys|serde-wasm-bindgen' <<<"$tree"; then
  echo "outside-crate: the host build depends on a wasm crate" >&2
  exit 1
fi

echo "--- cargo doc --no-deps -p zarr-scale-offset (rustdoc lints denied)"
RUSTDOCFLAGS="-D warnings -D rustdoc::broken_intra_doc_links -D missing_docs" \
  cargo doc --no-deps -p zarr-scale-offset --locked

DIR=$(mktemp -d)
trap 'rm -rf "$DIR"' EXIT
mkdir -p "$DIR/src"
cat >"$DIR/Cargo.toml" <<TOML
[package]
name = "outside"
version = "0.0.0"
edition = "2021"
publish = false

[dependencies]
zarr-scale-offset = { path = "$ROOT" }

[workspace]
TOML
cp Cargo.lock "$DIR/Cargo.lock"
cat >"$DIR/src/main.rs" <<'RS'
fn _f<T: Send + Sync>() {}

fn main() -> Result<(), zarr_scale_offset::Error> {
    _f::<zarr_scale_offset::Bound>();
    let b = zarr_scale_offset::bind(
        r#"{"name": "scale_offset", "configuration": {"scale": 2}}"#,
        "int8",
        Some("1"),
    )?;
    let t: zarr_scale_offset::DataType = "int8".parse()?;
    assert_eq!(b.encoded_data_type(), t);
    assert_eq!(b.encoded_fill().as_deref(), Some("2"));
    let out = std::thread::scope(|s| s.spawn(|| b.decode(&[4, 6])).join().unwrap())?;
    assert_eq!(out, [2, 3]);
    let e = b.decode(&[3]).unwrap_err();
    assert_eq!(e.code.as_str(), "not_representable");
    println!("outside crate: Bound is Send + Sync, decode {out:?}, error {}", e.code);
    Ok(())
}
RS
echo "--- a crate outside the workspace ($DIR), public API only"
(cd "$DIR" && cargo run -q --offline)
