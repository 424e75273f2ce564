//! The `#[wasm_bindgen]` exports of `zarr_scale_offset::wasm`, plus byte-slice forms of the chunk
//! and array calls for the tests: they go through the typed-array exports that the JS entry
//! calls (the module exports no byte-slice variants, which would only add to its size).

#![allow(dead_code)]

use js_sys::Uint8Array;
use wasm_bindgen::JsValue;
pub use zarr_scale_offset::wasm::*;

/// Decodes a stored chunk (through `decodeChunkJs`).
pub fn decode_chunk(metadata: &str, data: &[u8]) -> Result<Vec<u8>, JsValue> {
    decode_chunk_js(metadata, &Uint8Array::from(data)).map(|a| a.to_vec())
}

/// Encodes a chunk (through `encodeChunkJs`).
pub fn encode_chunk(metadata: &str, data: &[u8]) -> Result<Vec<u8>, JsValue> {
    encode_chunk_js(metadata, &Uint8Array::from(data)).map(|a| a.to_vec())
}

/// Encodes in-memory values through array->array codecs (through `encodeArrayJs`).
pub fn encode_array(codecs: &str, data_type: &str, data: &[u8]) -> Result<Vec<u8>, JsValue> {
    encode_array_js(codecs, data_type, &Uint8Array::from(data)).map(|a| a.to_vec())
}

/// Decodes through array->array codecs into a fresh array sized by the decoded data type
/// (through `decodeArrayInto`, as the JS entry does). A length that is not a whole number of
/// encoded elements is passed through with a one-element output, so that the export reports it.
pub fn decode_array(codecs: &str, data_type: &str, data: &[u8]) -> Result<Vec<u8>, JsValue> {
    let enc = encoded_data_type(codecs, data_type)?;
    let (dec_size, enc_size) = (elem_size(data_type), elem_size(&enc));
    let n = data.len() / enc_size.max(1);
    let out = Uint8Array::new_with_length((n * dec_size) as u32);
    decode_array_into(codecs, data_type, &Uint8Array::from(data), &out)?;
    Ok(out.to_vec())
}

/// Bytes per in-memory element of a data type name (the tests' 26 types).
fn elem_size(name: &str) -> usize {
    match name {
        "int16" | "uint16" | "float16" | "bfloat16" => 2,
        "int32" | "uint32" | "float32" => 4,
        "int64" | "uint64" | "float64" => 8,
        _ => 1,
    }
}
