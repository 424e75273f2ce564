//! zarrs (through this plugin) reads the fixture stores that use the plugin's codecs and gets
//! their `expected.bin` (tests/fixtures/README.md): written by zarr-python 3.4.2 with its own
//! `scale_offset` / `cast_value`, and by the npm package's `encodeChunk` for `cf.scale_offset`
//! (expected: xarray's `decode_cf`).
#![allow(clippy::restriction)]

mod common;

use common::{first_float_difference, fixture, read_all};

fn check(store: &str, size: usize) {
    let dir = fixture(store);
    let expected = std::fs::read(dir.join("expected.bin")).unwrap();
    let got = read_all(&dir);
    assert_eq!(got.len(), expected.len(), "{store}");
    if let Some(d) = first_float_difference(size, &got, &expected) {
        panic!("{store}: {d}");
    }
    let nans = got
        .chunks_exact(size)
        .filter(|e| match size {
            4 => f32::from_le_bytes((*e).try_into().unwrap()).is_nan(),
            _ => f64::from_le_bytes((*e).try_into().unwrap()).is_nan(),
        })
        .count();
    // The stores have NaN holes (a deleted chunk, the scalar_map's NaN): they must be read too.
    assert!(nans > 0, "{store}: no NaN read");
}

/// zarr-python 3.4.2: scale_offset(offset -1500, scale 10) + cast_value(uint16, NaN<->0) + gzip,
/// partial edge chunks, one chunk deleted (reads as the fill value NaN).
#[test]
fn topobathy_scale_offset_cast_value_gzip() {
    check("topobathy.zarr", 4);
}

/// zarr-python 3.4.2: the same codecs inside sharding_indexed (crc32c index), an absent inner
/// chunk.
#[test]
fn jacksboro_sharded_scale_offset_cast_value() {
    check("jacksboro_dem.zarr", 4);
}

/// The npm package's encodeChunk: cf.scale_offset(0.0001, -0.1) + cast_value(uint16, 0<->NaN)
/// over float64; expected.bin is xarray 2026.9.0 decode_cf of the packed uint16 data.
#[test]
fn cf_scale_offset_written_by_the_npm_package() {
    check("cf_reflectance_js.zarr", 8);
}

/// The Python package through zarr-python (tests/fixtures/make/cf_py_store.py): the same codecs
/// and values; expected.bin is xarray 2026.9.0 decode_cf of the packed uint16 data.
#[test]
fn cf_scale_offset_written_by_the_python_package() {
    check("cf_reflectance_py.zarr", 8);
}

/// An xarray-written CF-attribute store (int16, scale_factor 0.01, add_offset 273.15,
/// _FillValue -32768, gzip) after `zarr_scale_offset.migrate` (tests/fixtures/make/
/// cf_migrated_store.py): its chunks as xarray wrote them, one never stored (reads as the fill
/// value 273.15); expected.bin is xarray 2026.9.0 decode_cf of the store before migration.
#[test]
fn a_store_migrated_from_cf_attributes() {
    check("cf_t2m_migrated.zarr", 8);
    let got = read_all(&fixture("cf_t2m_migrated.zarr"));
    // Row 5, column 7 lies in the unstored chunk c/1/1.
    let at = (5 * 12 + 7) * 8;
    assert_eq!(got[at..at + 8], 273.15f64.to_le_bytes());
}
