//! zarr-scale-offset: exact Zarr v3 `scale_offset` and `cast_value` codecs for all 26 numeric
//! data types, for Rust and (through `wasm`) for JavaScript.
//!
//! In-memory buffers are little-endian element arrays: int2/int4 sign-extended into one byte,
//! uint2/uint4 and the 4/6/8-bit float codes zero-extended into one byte, bfloat16/float16 as
//! their 16-bit patterns, everything else native.

pub mod dtype;
pub mod error;
pub mod json;
pub mod num;
pub mod wasm;

pub use dtype::DataType;
pub use error::{Error, ErrorCode, Result};

fn todo_err() -> Error {
    Error::new(ErrorCode::UnsupportedCodec, "not implemented yet")
}

/// Encodes one chunk of a Zarr v3 array (`metadata`: the zarr.json document as JSON text) from
/// its in-memory bytes (`decoded`, the array data type) to the stored bytes.
pub fn encode_chunk(metadata: &str, decoded: &[u8]) -> Result<Vec<u8>> {
    let _ = (metadata, decoded);
    Err(todo_err())
}

/// Decodes one stored chunk of a Zarr v3 array to its in-memory bytes (the array data type).
pub fn decode_chunk(metadata: &str, encoded: &[u8]) -> Result<Vec<u8>> {
    let _ = (metadata, encoded);
    Err(todo_err())
}

/// The data type of a zarr.json array document.
pub fn array_data_type(metadata: &str) -> Result<DataType> {
    let _ = metadata;
    Err(todo_err())
}

/// Runs a list of array->array codecs (`codecs`: JSON text of one codec or a list; a bare name is
/// a short-hand codec) forward over in-memory data of `data_type` (a name or JSON text).
/// Returns the encoded data type and the encoded in-memory bytes.
pub fn encode(codecs: &str, data_type: &str, data: &[u8]) -> Result<(DataType, Vec<u8>)> {
    let _ = (codecs, data_type, data);
    Err(todo_err())
}

/// Runs a list of array->array codecs backwards: `data` holds in-memory values of the encoded
/// data type; returns in-memory values of `data_type`.
pub fn decode(codecs: &str, data_type: &str, data: &[u8]) -> Result<Vec<u8>> {
    let _ = (codecs, data_type, data);
    Err(todo_err())
}

/// The data type that `encode` produces for these codecs and this decoded data type.
pub fn encoded_data_type(codecs: &str, data_type: &str) -> Result<DataType> {
    let _ = (codecs, data_type);
    Err(todo_err())
}
