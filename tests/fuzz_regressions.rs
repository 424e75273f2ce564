//! Replays every committed fuzz finding (`fuzz/regressions/<target>/*`) through the same checks
//! the fuzz targets run (`fuzz/checks.rs`), natively, in `cargo test`; plus one named test per
//! bug the fuzzers found, stating the expected behaviour.
//!
//! File formats: `json_validate`, `from_cf` and `from_fixed_scale_offset` files are raw fuzz
//! inputs; `chunk` and
//! `codec_bind` files are metadata text, a 0x00 byte, then data bytes.
// Test code may unwrap, index and panic (the workspace lints deny them in the library).
#![allow(clippy::restriction)]

#[path = "../fuzz/checks.rs"]
mod checks;

use std::fs;
use std::path::Path;

use zarr_scale_offset::internals::json::{parse, Json};
use zarr_scale_offset::{decode_chunk, from_cf, validate, ErrorCode};

fn replay(target: &str, check: fn(&[u8])) -> usize {
    let dir = Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("fuzz/regressions")
        .join(target);
    let mut n = 0;
    let Ok(entries) = fs::read_dir(&dir) else {
        return 0;
    };
    let mut paths: Vec<_> = entries.filter_map(|e| e.ok().map(|e| e.path())).collect();
    paths.sort();
    for p in paths {
        if p.file_name().and_then(|s| s.to_str()) == Some("README.md") {
            continue;
        }
        let data = fs::read(&p).expect("read regression input");
        let r = std::panic::catch_unwind(|| check(&data));
        assert!(r.is_ok(), "fuzz regression {} fails", p.display());
        n += 1;
    }
    n
}

fn split_doc(data: &[u8]) {
    let i = data.iter().position(|&b| b == 0).unwrap_or(data.len());
    let meta = std::str::from_utf8(&data[..i]).expect("utf-8 metadata");
    let bytes = data.get(i + 1..).unwrap_or(&[]);
    checks::bound_doc(meta, bytes);
    checks::chunk_doc(meta, bytes);
}

#[test]
fn every_committed_fuzz_input_passes_its_checks() {
    let n = replay("json_validate", checks::json_validate)
        + replay("chunk", checks::chunk)
        + replay("codec_bind", split_doc)
        + replay("from_cf", checks::from_cf_bytes)
        + replay("from_fixed_scale_offset", checks::from_fixed_bytes);
    assert!(n > 0, "no regression inputs found");
}

/// A zarr.json for one chunk of `n` elements from from_cf's output.
fn doc_from_cf(cf: &str, n: usize) -> String {
    let j = parse(cf).unwrap();
    format!(
        r#"{{"zarr_format":3,"node_type":"array","shape":[{n}],"data_type":{},"chunk_grid":{{"name":"regular","configuration":{{"chunk_shape":[{n}]}}}},"chunk_key_encoding":{{"name":"default"}},"fill_value":{},"codecs":{}}}"#,
        j.get("data_type").unwrap().to_json_string(),
        j.get("fill_value").unwrap().to_json_string(),
        j.get("codecs").unwrap().to_json_string()
    )
}

/// fuzz/regressions/from_cf/scale-factor-zero: `scale_factor: 0` gave a chain with
/// `cf.scale_offset` scale 0, which the package itself rejects ("scale must be non-zero").
/// fromCF must say so itself, naming the attribute.
#[test]
fn from_cf_scale_factor_zero_is_an_error_naming_the_attribute() {
    for packed in ["float64", "int16", "uint8"] {
        let e = from_cf(r#"{"scale_factor":0}"#, packed, None).unwrap_err();
        assert_eq!(e.code, ErrorCode::InvalidMetadata, "{packed}");
        assert_eq!(e.path.as_deref(), Some("/scale_factor"), "{packed}: {e}");
    }
}

/// `scale_factor`/`add_offset` beyond the decoded type's range (1e400 is +Infinity in float64)
/// were written as JSON `null` (a `Json::Number` holding the text `"Infinity"`), so the metadata
/// was invalid. A scale of Infinity is a legal float64 scalar: it must be written as
/// `"Infinity"`, and the result must validate.
#[test]
fn from_cf_infinite_attribute_is_written_as_a_string_not_null() {
    let cf = from_cf(r#"{"scale_factor":1e400}"#, "int16", None).unwrap();
    let j = parse(&cf).unwrap();
    let scale = j
        .get("codecs")
        .and_then(|c| c.as_array())
        .and_then(|c| c.first())
        .and_then(|c| c.get("configuration"))
        .and_then(|c| c.get("scale"))
        .cloned();
    assert_eq!(scale, Some(Json::String("Infinity".into())), "{cf}");
    let r = validate(&doc_from_cf(&cf, 2), None);
    assert!(r.is_ok(), "{cf}: {:?}", r.errors);
}

/// Float packed data with `_FillValue` and no scale/offset change of type (packed float32 with
/// no attributes, or a float32 scale_factor): the decoded type equals the packed type, and the
/// cast_value (the only codec holding the `_FillValue` <-> NaN map) was left out, so -9999
/// decoded as -9999 where `xarray.decode_cf` masks it to NaN: a silent wrong value.
#[test]
fn from_cf_float_packed_fill_value_is_masked() {
    for attrs in [
        r#"{"_FillValue":-9999}"#,
        r#"{"_FillValue":-9999,"scale_factor":{"value":2,"dtype":"float32"}}"#,
    ] {
        let cf = from_cf(attrs, "float32", None).unwrap();
        let doc = doc_from_cf(&cf, 2);
        let stored: Vec<u8> = [-9999.0f32, 1.5]
            .iter()
            .flat_map(|x| x.to_le_bytes())
            .collect();
        let out = decode_chunk(&doc, &stored).unwrap();
        let v: Vec<f32> = out
            .chunks_exact(4)
            .map(|c| f32::from_le_bytes(c.try_into().unwrap()))
            .collect();
        assert!(
            v[0].is_nan(),
            "{attrs} -> {cf}: the fill value decoded as {}",
            v[0]
        );
        assert!(v[1] == 1.5 || v[1] == 3.0, "{attrs}: {}", v[1]);
    }
}

/// A chunk shape whose element count overflows u64 (every dimension fine on its own):
/// `shape()` in src/chain.rs dropped the overflow without reporting it, so validate() called
/// the document valid while decodeChunk failed with a bare "invalid metadata" naming no field.
#[test]
fn chunk_shape_product_overflow_is_reported_with_its_pointer() {
    let m = r#"{"zarr_format":3,"node_type":"array","shape":[4,4,4],"data_type":"uint8","chunk_grid":{"name":"regular","configuration":{"chunk_shape":[4294967296,4294967296,16]}},"chunk_key_encoding":{"name":"default"},"fill_value":0,"codecs":["bytes"]}"#;
    let r = validate(m, None);
    assert!(
        !r.is_ok(),
        "validate() calls a chunk of 2^68 elements valid"
    );
    let e = decode_chunk(m, &[0u8; 4]).unwrap_err();
    assert_eq!(e.code, ErrorCode::InvalidMetadata);
    assert_eq!(
        e.path.as_deref(),
        Some("/chunk_grid/configuration/chunk_shape"),
        "{e}"
    );
}

/// An array with a 0 dimension has no elements however large the others are, so the order of
/// the dimensions must not matter: `shape()` in src/chain.rs rejected [2^32, 2^32, 0] ("the
/// product overflows 2^64": the overflow is seen before the 0) but accepted [0, 2^32, 2^32].
#[test]
fn empty_array_shape_is_valid_whatever_the_order_of_its_dimensions() {
    for shape in [
        "[0,4294967296,4294967296]",
        "[4294967296,4294967296,0]",
        "[4294967296,0,4294967296]",
    ] {
        let m = format!(
            r#"{{"zarr_format":3,"node_type":"array","shape":{shape},"data_type":"uint8","chunk_grid":{{"name":"regular","configuration":{{"chunk_shape":[1,1,1]}}}},"chunk_key_encoding":{{"name":"default"}},"fill_value":0,"codecs":["bytes"]}}"#
        );
        let r = validate(&m, None);
        assert!(r.is_ok(), "shape {shape}: {:?}", r.errors);
        assert_eq!(decode_chunk(&m, &[5]).unwrap(), vec![5], "shape {shape}");
    }
}

/// `Chain::encode_into` (public Rust API) with a big-endian `bytes` codec and an output of the
/// wrong length panicked (`copy_from_slice` in src/chain.rs) where every other entry point,
/// `ArrayChain::encode_into` included, returns `length_mismatch`.
#[test]
fn chain_encode_into_with_a_wrong_output_length_is_an_error_not_a_panic() {
    let m = r#"{"zarr_format":3,"node_type":"array","shape":[4],"data_type":"int16","chunk_grid":{"name":"regular","configuration":{"chunk_shape":[4]}},"chunk_key_encoding":{"name":"default"},"fill_value":0,"codecs":[{"name":"bytes","configuration":{"endian":"big"}}]}"#;
    let meta = zarr_scale_offset::internals::metadata::parse_array_meta_text(m).unwrap();
    for len in [0usize, 7, 9, 16] {
        let mut out = vec![0u8; len];
        let r = std::panic::catch_unwind(std::panic::AssertUnwindSafe(|| {
            meta.chain.encode_into(&[0u8; 8], &mut out)
        }));
        let r = r.unwrap_or_else(|_| panic!("encode_into panicked for a {len}-byte output"));
        assert_eq!(r.unwrap_err().code, ErrorCode::LengthMismatch, "{len}");
        let r = std::panic::catch_unwind(std::panic::AssertUnwindSafe(|| {
            meta.chain.decode_into(&[0u8; 8], &mut out)
        }));
        let r = r.unwrap_or_else(|_| panic!("decode_into panicked for a {len}-byte output"));
        assert_eq!(r.unwrap_err().code, ErrorCode::LengthMismatch, "{len}");
    }
}
