//! Two documented differences between the core's own JSON reader and zarrs' (serde_json), pinned
//! so that a change on either side fails here (issue 29). The same zarr.json text is read by the
//! core (`zarr_scale_offset::decode_chunk` / `validate`) and by zarrs + this plugin
//! (`serde_json::from_str::<ArrayMetadata>`, `Array::new_with_metadata`, a raw chunk in a
//! `MemoryStore`).
//!
//! 1. Duplicate keys: the core refuses them (`invalid_metadata`: JSON readers disagree on which
//!    copy counts); serde_json keeps the last copy, so zarrs + the plugin decode with it.
//! 2. A decimal scalar that is a float32 tie: the core rounds the decimal text half-to-even
//!    straight to float32; serde_json (without its `arbitrary_precision` feature, which nothing in
//!    this crate's dependency graph enables) parses an `f64`, the plugin writes the configuration
//!    back with serde_json (the shortest text of that `f64`, above the tie) and the core rounds
//!    that text up.
//!
//! Two more, found by `tests/property.rs` (loud ones: zarrs refuses the document):
//!
//! 3. The JSON integer `-0` as the fill value of an integer array: the core reads 0; serde_json
//!    reads `-0` as the float -0.0, which zarrs refuses as an integer fill value.
//! 4. A number beyond `f64` (`1e309`): the core rounds it to +Infinity for a float type;
//!    serde_json refuses the number, so zarrs cannot read the document at all.
//!
//! Expected values are worked out by hand in the comments (bit patterns), not computed by the
//! code under test.
#![allow(clippy::restriction)]

use std::sync::Arc;

use zarrs::array::{Array, ArrayBytes};
use zarrs::metadata::v3::MetadataV3;
use zarrs::metadata::ArrayMetadata;
use zarrs::storage::store::MemoryStore;
use zarrs::storage::{StoreKey, WritableStorageTraits};
use zarrs_scale_offset::ScaleOffsetCodec;

/// A zarr.json of an array of `data_type` and shape [2] in one chunk with `fill` (JSON text):
/// `configuration` (JSON text, written as is, duplicate keys and all) of a `scale_offset` codec,
/// then `bytes` (little-endian).
fn document(data_type: &str, fill: &str, configuration: &str) -> String {
    format!(
        r#"{{"zarr_format": 3, "node_type": "array", "shape": [2], "data_type": "{data_type}",
        "chunk_grid": {{"name": "regular", "configuration": {{"chunk_shape": [2]}}}},
        "chunk_key_encoding": {{"name": "default"}}, "fill_value": {fill},
        "codecs": [{{"name": "scale_offset", "configuration": {configuration}}},
                   {{"name": "bytes", "configuration": {{"endian": "little"}}}}]}}"#
    )
}

/// A float32 document with fill value 0.
fn float32_document(configuration: &str) -> String {
    document("float32", "0", configuration)
}

/// The stored chunk of two float32 values (little-endian).
fn stored(values: [f32; 2]) -> Vec<u8> {
    values.iter().flat_map(|v| v.to_le_bytes()).collect()
}

/// Little-endian float32 bytes as bit patterns.
fn bits(bytes: &[u8]) -> Vec<u32> {
    bytes
        .chunks_exact(4)
        .map(|b| u32::from_le_bytes(b.try_into().unwrap()))
        .collect()
}

/// zarrs + the plugin: the array from the document text, `chunk` stored raw as chunk 0, the whole
/// array read back as its in-memory bytes.
fn zarrs_decode(text: &str, chunk: Vec<u8>) -> Vec<u8> {
    let metadata: ArrayMetadata = serde_json::from_str(text).unwrap();
    let store = Arc::new(MemoryStore::new());
    let array = Array::new_with_metadata(store.clone(), "/", metadata).unwrap();
    store
        .set(&StoreKey::new("c/0").unwrap(), chunk.into())
        .unwrap();
    let bytes: ArrayBytes<'static> = array.retrieve_array_subset(&array.subset_all()).unwrap();
    bytes.into_fixed().unwrap().into_owned()
}

/// The codec object of the document (`/codecs/0`) as zarrs reads it.
fn zarrs_codec_metadata(text: &str) -> MetadataV3 {
    let doc: serde_json::Value = serde_json::from_str(text).unwrap();
    serde_json::from_value(doc["codecs"][0].clone()).unwrap()
}

/// `"scale": 2, "scale": 4`: the core refuses the document; zarrs keeps the last copy, so the
/// plugin never sees the duplicate and decodes with scale 4.
#[test]
fn duplicate_keys_refused_by_the_core_last_copy_wins_in_zarrs() {
    let text = float32_document(r#"{"scale": 2, "scale": 4}"#);
    // Stored 8.0 = 0x41000000 and 2.0 = 0x40000000.
    let chunk = stored([8.0, 2.0]);

    // The core: invalid_metadata at the duplicate, saying why no copy is picked.
    let e = zarr_scale_offset::decode_chunk(&text, &chunk).unwrap_err();
    assert_eq!(e.code.as_str(), "invalid_metadata", "{e}");
    assert!(e.message.contains("JSON readers disagree"), "{}", e.message);
    let report = zarr_scale_offset::validate(&text, None);
    let found: Vec<(&str, &str)> = report
        .errors
        .iter()
        .map(|d| (d.path.as_str(), d.code))
        .collect();
    assert_eq!(
        found,
        [("/codecs/0/configuration/scale", "invalid_metadata")],
        "{:?}",
        report.errors
    );

    // zarrs: serde_json keeps the last copy; the codec the plugin creates gets an already parsed
    // `MetadataV3` whose configuration has one key, scale 4, and accepts it.
    let codec = zarrs_codec_metadata(&text);
    let configuration = codec.configuration().unwrap();
    assert_eq!(configuration.len(), 1, "{configuration:?}");
    assert_eq!(configuration["scale"], serde_json::json!(4));
    assert!(ScaleOffsetCodec::from_metadata(&codec).is_ok());
    // ... and decodes x / 4: 8 / 4 = 2.0 (0x40000000), 2 / 4 = 0.5 (0x3f000000).
    let decoded = zarrs_decode(&text, chunk);
    assert_eq!(bits(&decoded), [0x4000_0000, 0x3f00_0000]);
}

/// `"offset": 1.000000059604644775390625` = 1 + 2^-24 exactly: the float32 midpoint between 1.0
/// (0x3f800000) and 1 + 2^-23 (0x3f800001), and an exact `f64`.
#[test]
fn a_float32_tie_decimal_rounds_to_even_in_the_core_and_up_through_zarrs() {
    let text = float32_document(r#"{"scale": 1, "offset": 1.000000059604644775390625}"#);
    // Stored 0.0 and 1.0; decode is x / 1 + offset.
    let chunk = stored([0.0, 1.0]);

    // The core rounds the decimal half-to-even: offset 1.0 (mantissa 0 is even), so 0 + 1 = 1.0
    // (0x3f800000) and 1 + 1 = 2.0 (0x40000000).
    let core = zarr_scale_offset::decode_chunk(&text, &chunk).unwrap();
    assert_eq!(bits(&core), [0x3f80_0000, 0x4000_0000]);

    // zarrs: serde_json holds the offset as the f64 1 + 2^-24 and writes it back as the shortest
    // text that reads as that f64, 1.0000000596046448, which is above the tie
    // (1.000000059604644775390625 < 1.0000000596046448).
    let codec = zarrs_codec_metadata(&text);
    let offset = &codec.configuration().unwrap()["offset"];
    assert_eq!(offset.as_f64(), Some(1.0 + f64::powi(2.0, -24)));
    assert_eq!(offset.to_string(), "1.0000000596046448");
    // So the plugin's core rounds that text up: offset 1 + 2^-23 (0x3f800001). 0 + offset =
    // 0x3f800001; 1 + offset = 2 + 2^-23, the tie between 2.0 and 2 + 2^-22, rounds to the even
    // 2.0 (0x40000000).
    let decoded = zarrs_decode(&text, chunk);
    assert_eq!(bits(&decoded), [0x3f80_0001, 0x4000_0000]);
}

/// `"fill_value": -0` on a uint8 array (`scale_offset` with scale 1): the core reads the JSON
/// integer -0 as 0 and decodes; zarrs refuses the array at open, because serde_json reads `-0` as
/// the float -0.0.
#[test]
fn the_integer_minus_zero_fill_is_read_by_the_core_and_refused_by_zarrs() {
    let text = document("uint8", "-0", r#"{"scale": 1}"#);
    // Stored [7, 200]; x / 1 + 0 = [7, 200].
    assert_eq!(
        zarr_scale_offset::decode_chunk(&text, &[7, 200]).unwrap(),
        [7, 200]
    );
    assert!(zarr_scale_offset::metadata_warnings(&text)
        .unwrap()
        .is_empty());

    let fill: serde_json::Value = serde_json::from_str("-0").unwrap();
    assert_eq!(fill.as_f64().map(f64::to_bits), Some((-0.0f64).to_bits()));
    assert!(fill.as_i64().is_none() && fill.as_u64().is_none());
    let metadata: ArrayMetadata = serde_json::from_str(&text).unwrap();
    let e = Array::new_with_metadata(Arc::new(MemoryStore::new()), "/", metadata)
        .err()
        .unwrap()
        .to_string();
    assert!(
        e.contains("invalid fill value") && e.contains("uint8"),
        "{e}"
    );
}

/// `"offset": 1e309` on a float64 array: the core rounds 1e309 to +Infinity (above the largest
/// float64) and decodes 0 / 1 + inf = +inf; serde_json refuses the number, so zarrs cannot parse
/// the document.
#[test]
fn a_number_beyond_f64_is_infinity_in_the_core_and_unreadable_for_zarrs() {
    let text = document("float64", "0", r#"{"scale": 1, "offset": 1e309}"#);
    // Stored [0.0, -2.0]: both decode to +inf (0x7ff0000000000000).
    let stored: Vec<u8> = [0.0f64, -2.0]
        .iter()
        .flat_map(|v| v.to_le_bytes())
        .collect();
    let decoded = zarr_scale_offset::decode_chunk(&text, &stored).unwrap();
    let decoded: Vec<u64> = decoded
        .chunks_exact(8)
        .map(|b| u64::from_le_bytes(b.try_into().unwrap()))
        .collect();
    assert_eq!(decoded, [0x7ff0_0000_0000_0000; 2]);

    let e = serde_json::from_str::<ArrayMetadata>(&text).unwrap_err();
    assert!(e.to_string().contains("number out of range"), "{e}");
}
