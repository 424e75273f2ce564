//! `#[wasm_bindgen]` exports. Converts between JS values and Rust, and `Error` into a JS `Error`
//! with a string `.code`. No codec logic lives here.

use wasm_bindgen::prelude::*;

use crate::error::Error;

fn to_js(e: Error) -> JsValue {
    let err = js_sys::Error::new(&e.message);
    // Reflect::set on a fresh Error object cannot fail (it is extensible); ignore the Ok(bool).
    let _ = js_sys::Reflect::set(
        &err,
        &JsValue::from_str("code"),
        &JsValue::from_str(e.code.as_str()),
    );
    err.into()
}

/// Encodes in-memory values of `data_type` through array->array `codecs` (JSON text).
#[wasm_bindgen(js_name = encodeArray)]
pub fn encode_array(codecs: &str, data_type: &str, data: &[u8]) -> Result<Vec<u8>, JsValue> {
    crate::encode(codecs, data_type, data)
        .map(|(_, v)| v)
        .map_err(to_js)
}

/// Decodes in-memory values of the encoded data type back to `data_type`.
#[wasm_bindgen(js_name = decodeArray)]
pub fn decode_array(codecs: &str, data_type: &str, data: &[u8]) -> Result<Vec<u8>, JsValue> {
    crate::decode(codecs, data_type, data).map_err(to_js)
}

/// The canonical name of the data type that `encodeArray` produces.
#[wasm_bindgen(js_name = encodedDataType)]
pub fn encoded_data_type(codecs: &str, data_type: &str) -> Result<String, JsValue> {
    crate::encoded_data_type(codecs, data_type)
        .map(|d| d.name().to_string())
        .map_err(to_js)
}

/// Encodes a whole chunk of a zarr.json array (JSON text) to stored bytes.
#[wasm_bindgen(js_name = encodeChunk)]
pub fn encode_chunk(metadata: &str, data: &[u8]) -> Result<Vec<u8>, JsValue> {
    crate::encode_chunk(metadata, data).map_err(to_js)
}

/// Decodes a whole stored chunk of a zarr.json array (JSON text) to in-memory bytes.
#[wasm_bindgen(js_name = decodeChunk)]
pub fn decode_chunk(metadata: &str, data: &[u8]) -> Result<Vec<u8>, JsValue> {
    crate::decode_chunk(metadata, data).map_err(to_js)
}

/// The canonical data type name of a zarr.json array document (JSON text).
#[wasm_bindgen(js_name = arrayDataType)]
pub fn array_data_type(metadata: &str) -> Result<String, JsValue> {
    crate::array_data_type(metadata)
        .map(|d| d.name().to_string())
        .map_err(to_js)
}

/// The JS typed-array constructor name for a data type name (e.g. "Int8Array" for "int4";
/// "Float16Array" for float16, which the JS layer maps to Uint16Array where it is missing).
#[wasm_bindgen(js_name = typedArrayKind)]
pub fn typed_array_kind(data_type: &str) -> Result<String, JsValue> {
    crate::DataType::parse(data_type, "/data_type")
        .map(|d| d.array_kind().js_name().to_string())
        .map_err(to_js)
}

/// The lenient forms a zarr.json array document (JSON text) relies on, as an array of
/// `{pointer, message}` objects; throws when the document is invalid.
#[wasm_bindgen(js_name = metadataWarnings)]
pub fn metadata_warnings(metadata: &str) -> Result<js_sys::Array, JsValue> {
    let ws = crate::metadata_warnings(metadata).map_err(to_js)?;
    let out = js_sys::Array::new();
    for w in ws {
        let o = js_sys::Object::new();
        // Setting a property on a fresh plain object cannot fail.
        let _ = js_sys::Reflect::set(&o, &"pointer".into(), &JsValue::from_str(&w.pointer));
        let _ = js_sys::Reflect::set(&o, &"message".into(), &JsValue::from_str(&w.message));
        out.push(&o);
    }
    Ok(out)
}

fn set(o: &js_sys::Object, k: &str, v: &JsValue) {
    // Setting a property on a fresh plain object cannot fail.
    let _ = js_sys::Reflect::set(o, &JsValue::from_str(k), v);
}

fn diags(list: &[crate::error::Diag]) -> js_sys::Array {
    let out = js_sys::Array::new();
    for d in list {
        let o = js_sys::Object::new();
        set(&o, "path", &JsValue::from_str(&d.path));
        set(&o, "code", &JsValue::from_str(d.code));
        set(&o, "message", &JsValue::from_str(&d.message));
        out.push(&o);
    }
    out
}

/// Validates metadata (JSON text: a zarr.json array document, a codecs list or one codec);
/// `data_type` is the data type a codecs list or codec receives. Returns
/// `{valid, errors: [{path, code, message}], warnings: [...]}`; never throws.
#[wasm_bindgen]
pub fn validate(metadata: &str, data_type: Option<String>) -> JsValue {
    let r = crate::validate(metadata, data_type.as_deref());
    let o = js_sys::Object::new();
    set(&o, "valid", &JsValue::from_bool(r.is_ok()));
    set(&o, "errors", &diags(&r.errors));
    set(&o, "warnings", &diags(&r.warnings));
    o.into()
}

/// CF attributes (JSON text) and the packed data type to `{data_type, fill_value, codecs}` as
/// JSON text, reproducing `xarray.decode_cf`.
#[wasm_bindgen(js_name = fromCF)]
pub fn from_cf(
    attrs: &str,
    packed_data_type: &str,
    attribute_dtype: Option<String>,
) -> Result<String, JsValue> {
    crate::from_cf(attrs, packed_data_type, attribute_dtype.as_deref()).map_err(to_js)
}

/// The `[scale_offset, cast_value]` replacement of a `numcodecs.fixedscaleoffset` configuration
/// (JSON text), as JSON text.
#[wasm_bindgen(js_name = fromFixedScaleOffset)]
pub fn from_fixed_scale_offset(
    config: &str,
    array_data_type: Option<String>,
) -> Result<String, JsValue> {
    crate::from_fixed_scale_offset(config, array_data_type.as_deref()).map_err(to_js)
}

/// The crate version.
#[wasm_bindgen]
pub fn version() -> String {
    env!("CARGO_PKG_VERSION").to_string()
}
