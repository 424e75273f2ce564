//! zarr-scale-offset: exact Zarr v3 `scale_offset` and `cast_value` codecs for every numeric data
//! type of the specs (the table in `dtype`), for Rust and (through `wasm`) for JavaScript.
//!
//! In-memory buffers are little-endian element arrays: int2/int4 sign-extended into one byte,
//! uint2/uint4 and the 4/6/8-bit float codes zero-extended into one byte, bfloat16/float16 as
//! their 16-bit patterns, everything else native.

#![warn(missing_docs)]
// No panics reachable from input: the workspace lints (Cargo.toml) deny unwrap/expect/indexing/
// panic outside tests; every allowed site carries a proof comment (`PROOF`).
#![cfg_attr(test, allow(clippy::restriction))]

pub mod args;
pub mod bound;
pub mod cf;
pub mod cf_document;
pub mod chain;
pub mod codec;
pub mod json;
pub mod metadata;
pub mod v2;
pub mod wasm;

pub use direction::{Direction, PerDirection};
pub use zarr_scale_offset_core::{buf, direction, dtype, error, kernels, num};

// The kernels' equivalence tests need the codecs and chains of this crate.
#[cfg(test)]
mod kernel_tests;

pub use bound::Bound;
pub use dtype::DataType;
pub use error::{Error, ErrorCode, Result, Warning};

/// Binds array->array `codecs` (JSON text of one codec or a list, or a bare short-hand name such
/// as `scale_offset`) to `data_type` (a name or JSON text) and `fill` (JSON text of a Zarr fill
/// value of `data_type`: `"0"`, `"\"NaN\""`, `"\"0x7fc00001\""`; `None` for none). The
/// returned [`Bound`] encodes and decodes any number of chunks without parsing again, and knows
/// the encoded data type and fill value. See [`bound`] for an example.
pub fn bind(codecs: &str, data_type: &str, fill: Option<&str>) -> Result<Bound> {
    Bound::from_text(codecs, data_type, fill)
}

/// Encodes one chunk of a Zarr v3 array (`metadata`: the zarr.json document as JSON text) from
/// its in-memory bytes (`decoded`, the array data type) to the stored bytes.
pub fn encode_chunk(metadata: &str, decoded: &[u8]) -> Result<Vec<u8>> {
    let m = metadata::parse_array_meta_text(metadata)?;
    buf::check_chunk_len("the decoded chunk", decoded.len(), m.chunk_len, m.dtype)?;
    m.chain.encode(decoded)
}

/// Decodes one stored chunk of a Zarr v3 array to its in-memory bytes (the array data type).
pub fn decode_chunk(metadata: &str, encoded: &[u8]) -> Result<Vec<u8>> {
    let m = metadata::parse_array_meta_text(metadata)?;
    buf::check_chunk_len(
        "the stored chunk",
        encoded.len(),
        m.chunk_len,
        m.chain.encoded_dtype(),
    )?;
    m.chain.decode(encoded)
}

/// The data type of a zarr.json array document.
pub fn array_data_type(metadata: &str) -> Result<DataType> {
    Ok(metadata::parse_array_meta_text(metadata)?.dtype)
}

/// Runs one array->array codec or a list of them (`codecs`: JSON text; a bare name is a
/// short-hand codec) forward over in-memory data of `data_type` (a name or JSON text).
/// Returns the encoded data type and the encoded in-memory bytes.
pub fn encode(codecs: &str, data_type: &str, data: &[u8]) -> Result<(DataType, Vec<u8>)> {
    let dtype = args::parse_data_type_arg(data_type)?;
    let c = args::parse_array_codecs(codecs, dtype)?;
    Ok((c.encoded_dtype(), c.encode(data)?))
}

/// Runs array->array codecs backwards: `data` holds in-memory values of the encoded data type;
/// returns in-memory values of `data_type`.
pub fn decode(codecs: &str, data_type: &str, data: &[u8]) -> Result<Vec<u8>> {
    let dtype = args::parse_data_type_arg(data_type)?;
    args::parse_array_codecs(codecs, dtype)?.decode(data)
}

/// The data type that `encode` produces for these codecs and this decoded data type.
pub fn encoded_data_type(codecs: &str, data_type: &str) -> Result<DataType> {
    let dtype = args::parse_data_type_arg(data_type)?;
    Ok(args::parse_array_codecs(codecs, dtype)?.encoded_dtype())
}

/// Parses and binds a zarr.json array document and returns the lenient forms it relies on
/// (e.g. `"+Infinity"`, `1000.0` for an integer type), each with its JSON pointer and the strict
/// spelling to write instead. An invalid document is an error.
pub fn metadata_warnings(metadata: &str) -> Result<Vec<Warning>> {
    let doc = metadata::parse_document(metadata)?;
    let mut r = error::Report::default();
    let m = metadata::parse_any_array_meta(&doc, &mut r);
    let warnings = r.lenient();
    r.into_result(m).map(|_| warnings)
}

/// Validates metadata (JSON text): a whole zarr.json array document, a codecs list or a single
/// codec; `data_type` is the data type a codecs list or codec receives. Reports every error and
/// warning with its JSON pointer, and apart from them what is valid but this crate cannot
/// decode (`Report::unsupported`: codecs such as gzip or sharding_indexed, data types such as
/// bool).
pub fn validate(metadata: &str, data_type: Option<&str>) -> error::Report {
    args::validate(metadata, data_type)
}

/// The Zarr `{"data_type", "fill_value", "codecs"}` that reproduce `xarray.decode_cf` for data
/// packed as `packed_data_type` with the CF attributes `attrs` (JSON text); see [`cf::from_cf`].
/// Returns JSON text.
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
/// strings (`null` where there is no value); see [`cf_document::cf_select`]. What JS's `openCF`
/// reads CF attributes through.
///
/// ```
/// let doc = r#"{"attributes": {"scale_factor": 2.0, "units": "K"}, "fill_value": 0}"#;
/// let got = zarr_scale_offset::cf_select(doc, "/attributes/scale_factor\n/attributes/add_offset").unwrap();
/// assert_eq!(got, r#"["2.0",null]"#);
/// ```
pub fn cf_select(text: &str, pointers: &str) -> Result<String> {
    Ok(json::Json::Array(cf_document::cf_select(text, pointers)?).to_json_string())
}

/// The `[scale_offset, cast_value]` sequence that supersedes a `numcodecs.fixedscaleoffset`
/// configuration (JSON text of the codec object, its configuration, or a v2 filter), as JSON
/// text; `array_data_type` stands in for a missing `dtype`. See spec.md §3 and the codec's docs
/// for where the replacement decodes differently from numcodecs.
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
