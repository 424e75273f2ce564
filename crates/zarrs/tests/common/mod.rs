//! Helpers shared by the integration tests (included with `mod common;`).
#![allow(dead_code)]

use std::path::{Path, PathBuf};
use std::sync::Arc;

use zarrs::array::{Array, ArrayBytes};
use zarrs::filesystem::FilesystemStore;
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
