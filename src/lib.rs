//! zarr-scale-offset: exact Zarr v3 `scale_offset` and `cast_value` codecs (plus the read-only
//! `numcodecs.fixedscaleoffset` and `cf.scale_offset`) for every numeric data type of the specs,
//! in Rust; the same core is the WebAssembly npm package.
//!
//! The API takes metadata as JSON text and data as byte slices:
//!
//! - [`bind`] codecs once to a data type and fill value, then [`Bound::encode`] /
//!   [`Bound::decode`] (or the `_into` forms, into a caller's buffer) any number of chunks, from
//!   any number of threads (`Bound` is `Send + Sync`);
//! - [`encode`] / [`decode`] / [`encoded_data_type`]: the same, binding on every call;
//! - [`decode_chunk`] / [`encode_chunk`] / [`array_data_type`]: one chunk of a whole zarr.json
//!   (or v2 `.zarray`) array document;
//! - [`validate`] (a [`Report`] of every error, warning and unsupported entry) and
//!   [`metadata_warnings`];
//! - [`from_cf`] and [`from_fixed_scale_offset`]: the codecs that replace CF attributes or a
//!   `numcodecs.fixedscaleoffset` filter, as JSON text;
//! - [`DataType`] (the 26 numeric data types), [`Error`] with its stable [`ErrorCode`].
//!
//! In-memory buffers are little-endian element arrays: int2/int4 sign-extended into one byte,
//! uint2/uint4 and the 4/6/8-bit float codes zero-extended into one byte, bfloat16/float16 as
//! their 16-bit patterns, everything else native.
//!
//! ```
//! let meta = r#"{"zarr_format": 3, "node_type": "array", "shape": [4],
//!     "data_type": "float32", "chunk_grid": {"name": "regular",
//!         "configuration": {"chunk_shape": [4]}},
//!     "chunk_key_encoding": {"name": "default"}, "fill_value": 0,
//!     "codecs": [
//!         {"name": "scale_offset", "configuration": {"offset": 0, "scale": 10}},
//!         {"name": "cast_value", "configuration": {"data_type": "int8"}},
//!         {"name": "bytes"}]}"#;
//! assert_eq!(zarr_scale_offset::array_data_type(meta)?, zarr_scale_offset::DataType::Float32);
//! let chunk = zarr_scale_offset::decode_chunk(meta, &[1, 2, 255, 10])?;
//! let values: Vec<f32> = chunk
//!     .chunks_exact(4)
//!     .map(|b| f32::from_le_bytes([b[0], b[1], b[2], b[3]]))
//!     .collect();
//! assert_eq!(values, [0.1, 0.2, -0.1, 1.0]);
//! # Ok::<(), zarr_scale_offset::Error>(())
//! ```

#![warn(missing_docs)]
// No panics reachable from input: the workspace lints (Cargo.toml) deny unwrap/expect/indexing/
// panic outside tests; every allowed site carries a proof comment (`PROOF`).
#![cfg_attr(test, allow(clippy::restriction))]

// Every module is private: the API is the items below. The numeric core is named by its own
// crate name (`zarr_scale_offset_core::...`) everywhere in this crate.
mod args;
mod bound;
mod cf;
mod cf_document;
mod chain;
mod codec;
mod json;
mod metadata;
mod report;
mod v2;
#[cfg(target_family = "wasm")]
mod wasm;

// The kernels' equivalence tests need the codecs and chains of this crate.
#[cfg(test)]
mod kernel_tests;

use zarr_scale_offset_core::buf::check_chunk_len;

// The Rust examples of the user docs run as this crate's doc tests (`cargo test --doc`): every
// ```rust fence of each file below. cfg(doctest): only rustdoc's doc-test collection reads these
// files; normal builds (and `cargo package`'s verify build) never do. One line per file.
#[cfg(doctest)]
mod doc_examples {
    #[doc = include_str!("../README.md")]
    struct Readme;
    #[doc = include_str!("../docs/guides/rust.md")]
    struct RustGuide;
}

pub use bound::Bound;
pub use report::{Diag, Report, Warning};
/// ```
/// use zarr_scale_offset::DataType;
///
/// let t: DataType = "float8_e4m3".parse()?;
/// assert_eq!((t.name(), t.size(), t.bits()), ("float8_e4m3", 1, 8));
/// assert_eq!(DataType::from_name("uint4").map(DataType::bits), Some(4));
/// assert_eq!(DataType::from_numpy("<i2"), Some(DataType::Int16));
/// assert_eq!(DataType::ALL.len(), 26);
/// assert_eq!(DataType::Float16.to_string(), "float16");
/// assert!("complex64".parse::<DataType>().is_err());
/// # Ok::<(), zarr_scale_offset::Error>(())
/// ```
pub use zarr_scale_offset_core::dtype::DataType;
/// ```
/// use zarr_scale_offset::{encode, ErrorCode};
///
/// let e = encode(r#"{"name": "cast_value", "configuration": {"data_type": "uint8"}}"#,
///     "float64", &(-1.0f64).to_le_bytes()).unwrap_err();
/// assert_eq!(e.code, ErrorCode::OutOfRange);
/// assert!(e.message.contains("element 0"), "{e}");
/// assert!(e.to_string().starts_with("out_of_range: "));
/// let e = zarr_scale_offset::validate("[", None).errors.remove(0);
/// assert_eq!(e.code, "invalid_json");
/// ```
pub use zarr_scale_offset_core::error::Error;
/// ```
/// use zarr_scale_offset::{decode, ErrorCode};
///
/// let e = decode("cast_value", "float32", &[0]).unwrap_err();
/// assert_eq!(e.code, ErrorCode::InvalidMetadata);
/// assert_eq!(e.code.as_str(), "invalid_metadata");
/// assert_eq!(ErrorCode::OutOfRange.to_string(), "out_of_range");
/// ```
pub use zarr_scale_offset_core::error::ErrorCode;
/// `Result<T, Error>`.
///
/// ```
/// fn scaled(x: i8) -> zarr_scale_offset::Result<Vec<u8>> {
///     zarr_scale_offset::decode(r#"{"name": "scale_offset", "configuration": {"scale": 2}}"#,
///         "int8", &x.to_le_bytes())
/// }
/// assert!(scaled(3).is_err()); // 3 / 2 is not an int8
/// assert_eq!(scaled(4).unwrap(), [2]);
/// ```
pub use zarr_scale_offset_core::error::Result;

/// Not part of the API (no stability promise, not documented): the crate's modules for this
/// crate's own integration tests, fuzz targets and examples. A user of the crate needs none of it.
#[doc(hidden)]
pub mod internals {
    #![allow(missing_docs)]
    pub mod args {
        pub use crate::args::*;
    }
    pub mod bound {
        pub use crate::bound::*;
    }
    pub mod cf {
        pub use crate::cf::*;
    }
    pub mod chain {
        pub use crate::chain::*;
    }
    pub mod codec {
        pub use crate::codec::*;
    }
    pub mod json {
        pub use crate::json::*;
    }
    pub mod metadata {
        pub use crate::metadata::*;
    }
    pub mod report {
        pub use crate::report::*;
    }
    pub mod v2 {
        pub use crate::v2::*;
    }
    #[cfg(target_family = "wasm")]
    pub mod wasm {
        pub use crate::wasm::*;
    }
}

/// Binds array->array `codecs` (JSON text of one codec or a list, or a bare short-hand name such
/// as `scale_offset`) to `data_type` (a name or JSON text) and `fill` (JSON text of a Zarr fill
/// value of `data_type`: `"0"`, `"\"NaN\""`, `"\"0x7fc00001\""`; `None` for none). The
/// returned [`Bound`] encodes and decodes any number of chunks without parsing again, and knows
/// the encoded data type and fill value; it is `Send + Sync`, so one can serve many threads.
///
/// ```
/// let b = zarr_scale_offset::bind(
///     r#"{"name": "cast_value", "configuration": {"data_type": "uint8"}}"#,
///     "float32",
///     Some("0"),
/// )?;
/// assert_eq!(b.encoded_data_type().name(), "uint8");
/// assert_eq!(b.encoded_fill().as_deref(), Some("0"));
/// let stored = b.encode(&[1.0f32, 255.0].map(f32::to_le_bytes).concat())?;
/// assert_eq!(stored, [1, 255]);
/// # Ok::<(), zarr_scale_offset::Error>(())
/// ```
pub fn bind(codecs: &str, data_type: &str, fill: Option<&str>) -> Result<Bound> {
    Bound::from_text(codecs, data_type, fill)
}

/// Encodes one chunk of a Zarr v3 array (`metadata`: the zarr.json document as JSON text) from
/// its in-memory bytes (`decoded`, the array data type) to the stored bytes.
///
/// ```
/// let meta = r#"{"zarr_format": 3, "node_type": "array", "shape": [2], "data_type": "float64",
///     "chunk_grid": {"name": "regular", "configuration": {"chunk_shape": [2]}},
///     "chunk_key_encoding": {"name": "default"}, "fill_value": 0,
///     "codecs": [{"name": "scale_offset", "configuration": {"scale": 4}},
///                {"name": "cast_value", "configuration": {"data_type": "uint8"}},
///                {"name": "bytes"}]}"#;
/// let stored = zarr_scale_offset::encode_chunk(meta, &[0.25f64, 2.0].map(f64::to_le_bytes).concat())?;
/// assert_eq!(stored, [1, 8]);
/// # Ok::<(), zarr_scale_offset::Error>(())
/// ```
pub fn encode_chunk(metadata: &str, decoded: &[u8]) -> Result<Vec<u8>> {
    let m = metadata::parse_array_meta_text(metadata)?;
    check_chunk_len("the decoded chunk", decoded.len(), m.chunk_len, m.dtype)?;
    m.chain.encode(decoded)
}

/// Decodes one stored chunk of a Zarr v3 array (`metadata`: the zarr.json document as JSON
/// text, or a Zarr v2 `.zarray`) to its in-memory bytes (the array data type). A chunk of the
/// wrong length is a `length_mismatch` error.
///
/// ```
/// use zarr_scale_offset::{decode_chunk, ErrorCode};
/// let meta = r#"{"zarr_format": 3, "node_type": "array", "shape": [2], "data_type": "float64",
///     "chunk_grid": {"name": "regular", "configuration": {"chunk_shape": [2]}},
///     "chunk_key_encoding": {"name": "default"}, "fill_value": 0,
///     "codecs": [{"name": "scale_offset", "configuration": {"scale": 4}},
///                {"name": "cast_value", "configuration": {"data_type": "uint8"}},
///                {"name": "bytes"}]}"#;
/// let chunk = decode_chunk(meta, &[1, 8])?;
/// assert_eq!(chunk, [0.25f64, 2.0].map(f64::to_le_bytes).concat());
/// assert_eq!(decode_chunk(meta, &[1]).unwrap_err().code, ErrorCode::LengthMismatch);
/// # Ok::<(), zarr_scale_offset::Error>(())
/// ```
pub fn decode_chunk(metadata: &str, encoded: &[u8]) -> Result<Vec<u8>> {
    let m = metadata::parse_array_meta_text(metadata)?;
    check_chunk_len(
        "the stored chunk",
        encoded.len(),
        m.chunk_len,
        m.chain.encoded_dtype(),
    )?;
    m.chain.decode(encoded)
}

/// The data type of a zarr.json array document (what [`decode_chunk`] produces).
///
/// ```
/// let meta = r#"{"zarr_format": 3, "node_type": "array", "shape": [2], "data_type": "int16",
///     "chunk_grid": {"name": "regular", "configuration": {"chunk_shape": [2]}},
///     "chunk_key_encoding": {"name": "default"}, "fill_value": 0,
///     "codecs": [{"name": "bytes", "configuration": {"endian": "little"}}]}"#;
/// assert_eq!(zarr_scale_offset::array_data_type(meta)?.size(), 2);
/// # Ok::<(), zarr_scale_offset::Error>(())
/// ```
pub fn array_data_type(metadata: &str) -> Result<DataType> {
    Ok(metadata::parse_array_meta_text(metadata)?.dtype)
}

/// Runs one array->array codec or a list of them (`codecs`: JSON text; a bare name is a
/// short-hand codec) forward over in-memory data of `data_type` (a name or JSON text).
/// Returns the encoded data type and the encoded in-memory bytes.
///
/// ```
/// use zarr_scale_offset::{encode, DataType, ErrorCode};
/// let codecs = r#"[{"name": "scale_offset", "configuration": {"offset": 1, "scale": 2}}]"#;
/// let (t, out) = encode(codecs, "int8", &[3, 5])?;
/// assert_eq!((t, out), (DataType::Int8, vec![4, 8]));
/// // (100 - 1) * 2 = 198 does not fit in int8: an error naming the element.
/// let e = encode(codecs, "int8", &[100]).unwrap_err();
/// assert_eq!(e.code, ErrorCode::OutOfRange);
/// # Ok::<(), zarr_scale_offset::Error>(())
/// ```
pub fn encode(codecs: &str, data_type: &str, data: &[u8]) -> Result<(DataType, Vec<u8>)> {
    let dtype = args::parse_data_type_arg(data_type)?;
    let c = args::parse_array_codecs(codecs, dtype)?;
    Ok((c.encoded_dtype(), c.encode(data)?))
}

/// Runs array->array codecs backwards: `data` holds in-memory values of the encoded data type;
/// returns in-memory values of `data_type`.
///
/// ```
/// let codecs = r#"[{"name": "scale_offset", "configuration": {"offset": 1, "scale": 2}}]"#;
/// assert_eq!(zarr_scale_offset::decode(codecs, "int8", &[4, 8])?, [3, 5]);
/// # Ok::<(), zarr_scale_offset::Error>(())
/// ```
pub fn decode(codecs: &str, data_type: &str, data: &[u8]) -> Result<Vec<u8>> {
    let dtype = args::parse_data_type_arg(data_type)?;
    args::parse_array_codecs(codecs, dtype)?.decode(data)
}

/// The data type that [`encode`] produces for these codecs and this decoded data type.
///
/// ```
/// let codecs = r#"{"name": "cast_value", "configuration": {"data_type": "bfloat16"}}"#;
/// let t = zarr_scale_offset::encoded_data_type(codecs, "float32")?;
/// assert_eq!((t.name(), t.size(), t.bits()), ("bfloat16", 2, 16));
/// # Ok::<(), zarr_scale_offset::Error>(())
/// ```
pub fn encoded_data_type(codecs: &str, data_type: &str) -> Result<DataType> {
    let dtype = args::parse_data_type_arg(data_type)?;
    Ok(args::parse_array_codecs(codecs, dtype)?.encoded_dtype())
}

/// Parses and binds a zarr.json array document and returns the lenient forms it relies on
/// (e.g. `"+Infinity"`, `1000.0` for an integer type), each with its JSON pointer and the strict
/// spelling to write instead. An invalid document is an error.
///
/// ```
/// let meta = r#"{"zarr_format": 3, "node_type": "array", "shape": [2], "data_type": "float32",
///     "chunk_grid": {"name": "regular", "configuration": {"chunk_shape": [2]}},
///     "chunk_key_encoding": {"name": "default"}, "fill_value": "+Infinity",
///     "codecs": [{"name": "bytes", "configuration": {"endian": "little"}}]}"#;
/// let w = zarr_scale_offset::metadata_warnings(meta)?;
/// assert_eq!(w.len(), 1);
/// assert_eq!(w[0].pointer, "/fill_value");
/// # Ok::<(), zarr_scale_offset::Error>(())
/// ```
pub fn metadata_warnings(metadata: &str) -> Result<Vec<Warning>> {
    let doc = metadata::parse_document(metadata)?;
    let mut r = Report::default();
    let m = metadata::parse_any_array_meta(&doc, &mut r);
    let warnings = r.lenient();
    r.into_result(m).map(|_| warnings)
}

/// Validates metadata (JSON text): a whole zarr.json array document, a codecs list or a single
/// codec; `data_type` is the data type a codecs list or codec receives. Reports every error and
/// warning with its JSON pointer, and apart from them what is valid but this crate cannot
/// decode (`Report::unsupported`: codecs such as gzip or sharding_indexed, data types such as
/// bool). Never fails: an unparsable text is an error entry of the report.
///
/// ```
/// let codecs = r#"[{"name": "scale_offset", "configuration": {"scale": 0, "sclae": 1}}]"#;
/// let r = zarr_scale_offset::validate(codecs, Some("float32"));
/// assert!(!r.is_ok());
/// let found: Vec<(&str, &str)> = r.errors.iter().map(|d| (d.path.as_str(), d.code)).collect();
/// assert!(found.contains(&("/0/configuration/sclae", "invalid_metadata")), "{found:?}");
/// let gzip = zarr_scale_offset::validate(r#"{"name": "gzip", "configuration": {"level": 5}}"#, None);
/// assert!(gzip.is_ok() && !gzip.is_decodable());
/// assert_eq!(gzip.unsupported[0].code, "unsupported_codec");
/// ```
pub fn validate(metadata: &str, data_type: Option<&str>) -> Report {
    args::validate(metadata, data_type)
}

/// The Zarr `{"data_type", "fill_value", "codecs"}` that reproduce `xarray.decode_cf` for data
/// packed as `packed_data_type` with the CF attributes `attrs` (JSON text: `scale_factor`,
/// `add_offset`, `_FillValue`, `missing_value`, `_Unsigned`, ...; numbers as written), as JSON
/// text. `attribute_dtype` is the data type the attributes were stored as, when it is known.
///
/// ```
/// let out = zarr_scale_offset::from_cf(r#"{"scale_factor": 0.5, "add_offset": 10}"#, "int16", None)?;
/// assert!(out.contains(r#""name":"cf.scale_offset""#), "{out}");
/// assert!(out.contains(r#""data_type":"float32""#) || out.contains(r#""data_type":"float64""#), "{out}");
/// # Ok::<(), zarr_scale_offset::Error>(())
/// ```
pub fn from_cf(
    attrs: &str,
    packed_data_type: &str,
    attribute_dtype: Option<&str>,
) -> Result<String> {
    let packed = args::parse_data_type_arg(packed_data_type)?;
    let ad = match attribute_dtype {
        Some(t) => Some(args::parse_data_type_arg(t)?),
        None => None,
    };
    Ok(cf::from_cf(&json::parse(attrs)?, packed, ad)?.to_json_string())
}

/// The values at `pointers` (JSON pointers, one a line) in the metadata document `text`, each as
/// its JSON text with numbers as written (`2.0` stays `2.0`), as JSON text of an array of
/// strings (`null` where there is no value). What JS's `openCF` reads CF attributes through;
/// hidden from the documented API (a helper of the JS binding, not a codec function).
///
/// ```
/// let doc = r#"{"attributes": {"scale_factor": 2.0, "units": "K"}, "fill_value": 0}"#;
/// let got = zarr_scale_offset::cf_select(doc, "/attributes/scale_factor\n/attributes/add_offset").unwrap();
/// assert_eq!(got, r#"["2.0",null]"#);
/// ```
#[doc(hidden)]
pub fn cf_select(text: &str, pointers: &str) -> Result<String> {
    Ok(json::Json::Array(cf_document::cf_select(text, pointers)?).to_json_string())
}

/// The `[scale_offset, cast_value]` sequence that supersedes a `numcodecs.fixedscaleoffset`
/// configuration (JSON text of the codec object, its configuration, or a v2 filter), as JSON
/// text; `array_data_type` stands in for a missing `dtype`. See spec.md §3 and the codec's docs
/// for where the replacement decodes differently from numcodecs.
///
/// ```
/// let v2 = r#"{"id": "fixedscaleoffset", "scale": 100, "offset": 0, "dtype": "<f8", "astype": "<i2"}"#;
/// let out = zarr_scale_offset::from_fixed_scale_offset(v2, None)?;
/// assert!(out.starts_with('['), "{out}");
/// assert!(out.contains(r#""name":"scale_offset""#) && out.contains(r#""data_type":"int16""#), "{out}");
/// # Ok::<(), zarr_scale_offset::Error>(())
/// ```
pub fn from_fixed_scale_offset(config: &str, array_data_type: Option<&str>) -> Result<String> {
    let dt = match array_data_type {
        Some(t) => Some(args::parse_data_type_arg(t)?),
        None => None,
    };
    let config = json::parse(config)?;
    json::fields::no_duplicates(&config)?;
    Ok(codec::fixedscaleoffset::from_fixed_scale_offset(&config, dt)?.to_json_string())
}

#[cfg(all(target_family = "wasm", not(target_feature = "atomics")))]
#[global_allocator]
static TALC: talc::wasm::WasmDynamicTalc = talc::wasm::new_wasm_dynamic_allocator();
