#!/usr/bin/env bash
# scripts/zarrs-outside.sh: the zarrs plugin as a user sees it. Makes a program in a temporary
# directory, outside this repository's workspaces, that depends only on zarrs 0.23 and the plugin
# crate (crates/zarrs, by path), opens two fixture stores with zarrs, prints what it read and
# writes the decoded bytes out; this script then checks them against each store's expected.bin
# byte for byte (cmp). The stores:
#   * tests/fixtures/stores/topobathy.zarr: scale_offset + cast_value(uint16, NaN<->0) + gzip,
#     written by zarr-python 3.4.2 with its own codecs;
#   * tests/fixtures/stores/cf_reflectance_py.zarr: cf.scale_offset + cast_value, written by the
#     Python package through zarr-python (tests/fixtures/make/cf_py_store.py); expected.bin is
#     xarray's decode_cf of the packed data. (Its chunks are byte-identical to those of
#     cf_reflectance_js.zarr, which the npm package's encodeChunk wrote.)
set -euo pipefail
cd "$(dirname "${BASH_SOURCE[0]}")/.."
ROOT=$PWD
STORES=(topobathy.zarr cf_reflectance_py.zarr)
# The plugin's target directory (its own workspace's default), so the zarrs build of its tests is
# reused rather than made again.
export CARGO_TARGET_DIR=${CARGO_TARGET_DIR:-$ROOT/crates/zarrs/target}

DIR=$(mktemp -d)
trap 'rm -rf "$DIR"' EXIT
mkdir -p "$DIR/src" "$DIR/out"
cat >"$DIR/Cargo.toml" <<TOML
[package]
name = "zarrs-outside"
version = "0.0.0"
edition = "2021"
rust-version = "1.91"
publish = false

[dependencies]
# It needs filesystem and gzip; the other features are those of the plugin's tests, so that
# cargo reuses the zarrs that \`cargo test\` in crates/zarrs built (same target directory).
zarrs = { version = "0.23", default-features = false, features = ["filesystem", "gzip", "zlib", "sharding", "crc32c", "float8", "microfloat"] }
zarrs-scale-offset = { path = "$ROOT/crates/zarrs" }

[workspace]
TOML
# The plugin's lock file pins the same zarrs release (cargo drops what this program does not use).
cp crates/zarrs/Cargo.lock "$DIR/Cargo.lock"
cat >"$DIR/src/main.rs" <<'RS'
//! Opens Zarr stores with zarrs (codecs from zarrs-scale-offset), prints a summary of each and
//! writes its decoded array (little-endian, C order) to OUT/<store name>.bin.
use std::sync::Arc;

use zarrs::array::{Array, ArrayBytes};
use zarrs::filesystem::FilesystemStore;
use zarrs::plugin::ExtensionName;
// Linking the plugin registers its codecs with zarrs.
use zarrs_scale_offset as _;

fn main() -> Result<(), Box<dyn std::error::Error>> {
    let mut args = std::env::args().skip(1);
    let out = std::path::PathBuf::from(args.next().ok_or("usage: zarrs-outside OUT STORE...")?);
    for store in args {
        let path = std::path::Path::new(&store);
        let array = Array::open(Arc::new(FilesystemStore::new(path)?), "/")?;
        let chain = array.codecs();
        let codecs: Vec<String> = chain
            .array_to_array_codecs()
            .iter()
            .map(|c| c.name_v3())
            .chain([chain.array_to_bytes_codec().name_v3()])
            .chain(chain.bytes_to_bytes_codecs().iter().map(|c| c.name_v3()))
            .map(|n| n.map_or_else(|| "?".to_string(), |n| n.to_string()))
            .collect();
        let bytes: ArrayBytes<'static> = array.retrieve_array_subset(&array.subset_all())?;
        let bytes = bytes.into_fixed()?.into_owned();
        let dt = array.data_type().name_v3().map(|n| n.to_string()).unwrap_or_default();
        let values: Vec<f64> = match dt.as_str() {
            "float32" => bytes.chunks_exact(4).map(|b| f32::from_le_bytes([b[0], b[1], b[2], b[3]]) as f64).collect(),
            "float64" => bytes.chunks_exact(8).map(|b| f64::from_le_bytes(b.try_into().unwrap_or_default())).collect(),
            other => return Err(format!("{store}: {other} is not a float type").into()),
        };
        let finite: Vec<f64> = values.iter().copied().filter(|v| !v.is_nan()).collect();
        let name = path.file_name().and_then(|n| n.to_str()).ok_or("store name")?;
        println!(
            "{name}: {dt} {:?}, codecs {}: {} values ({} NaN), min {}, max {}, first {:?}",
            array.shape(),
            codecs.join(" + "),
            values.len(),
            values.len() - finite.len(),
            finite.iter().copied().fold(f64::INFINITY, f64::min),
            finite.iter().copied().fold(f64::NEG_INFINITY, f64::max),
            &values[..4],
        );
        std::fs::write(out.join(format!("{name}.bin")), &bytes)?;
    }
    Ok(())
}
RS
echo "--- a program outside the workspace ($DIR): zarrs 0.23 + zarrs-scale-offset"
(cd "$DIR" && cargo run -q --offline -- "$DIR/out" "${STORES[@]/#/$ROOT/tests/fixtures/stores/}") | tee "$DIR/stdout"
for s in "${STORES[@]}"; do
  cmp "$DIR/out/$s.bin" "tests/fixtures/stores/$s/expected.bin"
  grep -q "^$s: " "$DIR/stdout"
  echo "zarrs-outside: $s: the values zarrs read equal expected.bin ($(stat -c %s "$DIR/out/$s.bin") bytes, cmp)"
done
