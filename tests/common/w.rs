//! The `#[wasm_bindgen]` exports of `zarr_scale_offset::wasm`, plus byte-slice forms of the chunk
//! and array calls for the tests: they go through the typed-array exports that the JS entry
//! calls (the module exports no byte-slice variants, which would only add to its size).

#![allow(dead_code)]

use js_sys::Uint8Array;
use wasm_bindgen::JsValue;
pub use zarr_scale_offset::internals::wasm::*;

/// Decodes a stored chunk (through `decodeChunkJs`).
pub fn decode_chunk(metadata: &str, data: &[u8]) -> Result<Vec<u8>, JsValue> {
    decode_chunk_js(metadata, &Uint8Array::from(data)).map(|a| a.to_vec())
}

/// Encodes a chunk (through `encodeChunkJs`).
pub fn encode_chunk(metadata: &str, data: &[u8]) -> Result<Vec<u8>, JsValue> {
    encode_chunk_js(metadata, &Uint8Array::from(data)).map(|a| a.to_vec())
}

/// Encodes in-memory values through array->array codecs into a fresh array sized by the encoded
/// data type (through `encodeArrayInto`, as the JS entry does).
pub fn encode_array(codecs: &str, data_type: &str, data: &[u8]) -> Result<Vec<u8>, JsValue> {
    let enc = encoded_data_type(codecs, data_type)?;
    let n = data.len() / elem_size(data_type);
    let out = Uint8Array::new_with_length((n * elem_size(&enc)) as u32);
    encode_array_into(codecs, data_type, &Uint8Array::from(data), &out)?;
    Ok(out.to_vec())
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

/// Bytes per in-memory element of a data type argument in any form the exports take (a name,
/// JSON text, an object), from the typed-array kind that holds it.
fn elem_size(data_type: &str) -> usize {
    // An empty codecs list encodes to the data type itself: its canonical name.
    let name = encoded_data_type("[]", data_type).unwrap_or_default();
    match typed_array_kind(&name).as_deref() {
        Ok("Int16Array" | "Uint16Array" | "Float16Array") => 2,
        Ok("Int32Array" | "Uint32Array" | "Float32Array") => 4,
        Ok("BigInt64Array" | "BigUint64Array" | "Float64Array") => 8,
        _ => 1,
    }
}
