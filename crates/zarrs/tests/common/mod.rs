//! Helpers shared by the integration tests (included with `mod common;`).
#![allow(dead_code)]

use std::path::{Path, PathBuf};
use std::sync::Arc;

use zarrs::array::{Array, ArrayBytes};
use zarrs::filesystem::FilesystemStore;
use zarrs::metadata::ArrayMetadata;
use zarrs::storage::store::MemoryStore;
// Links the plugin (its codecs register themselves with zarrs at link time).
use zarrs_scale_offset as _;

/// The repository's root (this crate is crates/zarrs).
pub fn root() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("../..")
}

/// A fixture store of tests/fixtures/stores/.
pub fn fixture(name: &str) -> PathBuf {
    root().join("tests/fixtures/stores").join(name)
}

pub fn open(dir: &Path) -> Array<FilesystemStore> {
    let store = Arc::new(FilesystemStore::new(dir).unwrap());
    Array::open(store, "/").unwrap()
}

/// The whole array as its in-memory bytes (what zarrs decodes).
pub fn read_all(dir: &Path) -> Vec<u8> {
    let array = open(dir);
    let bytes: ArrayBytes<'static> = array.retrieve_array_subset(&array.subset_all()).unwrap();
    bytes.into_fixed().unwrap().into_owned()
}

/// Whether two buffers of float elements of `size` bytes (4 or 8) are equal element by element,
/// bit for bit except that any NaN equals any NaN. Returns the first difference.
pub fn first_float_difference(size: usize, a: &[u8], b: &[u8]) -> Option<String> {
    if a.len() != b.len() {
        return Some(format!("lengths {} and {}", a.len(), b.len()));
    }
    for (i, (x, y)) in a.chunks_exact(size).zip(b.chunks_exact(size)).enumerate() {
        let (fx, fy) = match size {
            4 => (
                f64::from(f32::from_le_bytes(x.try_into().unwrap())),
                f64::from(f32::from_le_bytes(y.try_into().unwrap())),
            ),
            8 => (
                f64::from_le_bytes(x.try_into().unwrap()),
                f64::from_le_bytes(y.try_into().unwrap()),
            ),
            _ => panic!("float size {size}"),
        };
        if x != y && !(fx.is_nan() && fy.is_nan()) {
            return Some(format!("element {i}: {fx} vs {fy}"));
        }
    }
    None
}

/// (bytes per element, value bits, NaN test on the little-endian element bits) of a data type,
/// written from the formats' definitions (not taken from the core).
pub fn layout(name: &str) -> (usize, u32, fn(u64) -> bool) {
    fn never(_: u64) -> bool {
        false
    }
    match name {
        "float64" => (8, 64, |b| {
            b & 0x7ff0_0000_0000_0000 == 0x7ff0_0000_0000_0000 && b & 0x000f_ffff_ffff_ffff != 0
        }),
        "float32" => (4, 32, |b| {
            b & 0x7f80_0000 == 0x7f80_0000 && b & 0x007f_ffff != 0
        }),
        "float16" => (2, 16, |b| b & 0x7c00 == 0x7c00 && b & 0x03ff != 0),
        "bfloat16" => (2, 16, |b| b & 0x7f80 == 0x7f80 && b & 0x007f != 0),
        "float8_e4m3" => (1, 8, |b| b & 0x78 == 0x78 && b & 0x07 != 0),
        "float8_e5m2" => (1, 8, |b| b & 0x7c == 0x7c && b & 0x03 != 0),
        "float8_e3m4" => (1, 8, |b| b & 0x70 == 0x70 && b & 0x0f != 0),
        "float8_e4m3fnuz" | "float8_e5m2fnuz" | "float8_e4m3b11fnuz" => (1, 8, |b| b == 0x80),
        "float8_e8m0fnu" => (1, 8, |b| b == 0xff),
        "float6_e2m3fn" | "float6_e3m2fn" => (1, 6, never),
        "float4_e2m1fn" | "int4" | "uint4" => (1, 4, never),
        "int2" | "uint2" => (1, 2, never),
        "int8" | "uint8" => (1, 8, never),
        "int16" | "uint16" => (2, 16, never),
        "int32" | "uint32" => (4, 32, never),
        "int64" | "uint64" => (8, 64, never),
        other => panic!("data type {other}"),
    }
}

/// An array of `shape` in chunks of `chunk` in a fresh memory store, from its zarr.json.
pub fn memory_array(
    data_type: &str,
    fill: &str,
    shape: &[u64],
    chunk: &[u64],
    codecs: &str,
) -> Array<MemoryStore> {
    let json = format!(
        r#"{{"zarr_format": 3, "node_type": "array", "shape": {shape:?}, "data_type": "{data_type}",
        "chunk_grid": {{"name": "regular", "configuration": {{"chunk_shape": {chunk:?}}}}},
        "chunk_key_encoding": {{"name": "default"}}, "fill_value": {fill}, "codecs": {codecs}}}"#
    );
    let metadata: ArrayMetadata = serde_json::from_str(&json).unwrap();
    Array::new_with_metadata(Arc::new(MemoryStore::new()), "/", metadata).unwrap()
}
