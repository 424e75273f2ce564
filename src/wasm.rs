//! `#[wasm_bindgen]` exports. Converts between JS values and Rust, and `Error` into a JS `Error`
//! with a string `.code`. No codec logic lives here.

use wasm_bindgen::prelude::*;

use crate::chain::ArrayChain;
use crate::codec::RunOptions;
use crate::metadata::ArrayMeta;
use js_sys::Uint8Array;
use std::cell::RefCell;
use std::rc::Rc;
use zarr_scale_offset_core::buf::{byte_len, check_chunk_len};
use zarr_scale_offset_core::direction::Direction;
use zarr_scale_offset_core::dtype::DataType;
use zarr_scale_offset_core::error::{Error, ErrorCode, Result as CrateResult};
use zarr_scale_offset_core::kernels::{Scratch, StageRun, IO_TILE};

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

/// The canonical name of the data type that `encodeArrayInto` produces.
#[wasm_bindgen(js_name = encodedDataType)]
pub fn encoded_data_type(codecs: &str, data_type: &str) -> Result<String, JsValue> {
    // The bound chain is cached: decode/encode in JS ask for it before every call.
    array_chain(codecs, data_type)
        .map(|c| c.encoded_dtype().name().to_string())
        .map_err(to_js)
}

// ---------------------------------------------------------------------------------------------
// Typed-array exports for the JS entry: bound chains are cached by their text (bind once), and
// data moves between JS and wasm memory in tiles, so a chunk is copied in and out once, through
// cache-sized buffers, with no chunk-sized allocation in wasm memory.

/// The bytes each cache (bound chains per kind of key) may hold, by the estimate of
/// [`entry_cost`]: the least recently used entries are dropped to stay within it, whatever the
/// number of entries or the size of the texts the callers send.
pub const CACHE_MAX_BYTES: usize = 2 << 20;

/// The longest key text (bytes of metadata text, or of codecs plus data type) whose bound chain
/// is cached. Longer texts are bound on every call and never kept.
pub const CACHE_MAX_KEY_BYTES: usize = 64 * 1024;

/// The estimated memory of an entry whose key is `key_bytes` long: the key, a bound chain of at
/// most about the key's size (its scalars and maps come from the text), and 8 KiB for the plan
/// (two 256-entry lookup tables at most) and the allocations of each.
pub fn entry_cost(key_bytes: usize) -> usize {
    key_bytes.saturating_mul(2).saturating_add(8 * 1024)
}

/// Bound values by key with their cost, most recently used first.
type Cache<K, V> = RefCell<Vec<(K, usize, Rc<V>)>>;

thread_local! {
    static CHUNK_CACHE: Cache<String, ArrayMeta> = const { RefCell::new(Vec::new()) };
    static ARRAY_CACHE: Cache<(String, String), ArrayChain> = const { RefCell::new(Vec::new()) };
}

/// The bound value for `key` (`key_bytes` long): from the cache (compared by the full key
/// text, so a hit is always the same text), else `make()`, kept only when the key is at most
/// [`CACHE_MAX_KEY_BYTES`] long, dropping the least recently used entries beyond
/// [`CACHE_MAX_BYTES`].
fn cached<K: PartialEq, V>(
    cache: &'static std::thread::LocalKey<Cache<K, V>>,
    key_bytes: usize,
    key: impl FnOnce() -> K,
    make: impl FnOnce() -> CrateResult<V>,
) -> CrateResult<Rc<V>> {
    if key_bytes > CACHE_MAX_KEY_BYTES {
        return Ok(Rc::new(make()?));
    }
    let key = key();
    if let Some(v) = cache.with_borrow_mut(|c| {
        let i = c.iter().position(|(k, _, _)| *k == key)?;
        // Move entry `i` to the front (remove + insert: two memmoves; `rotate_right` linked
        // ~0.6 KB of general rotation code per element type).
        let e = (i < c.len()).then(|| c.remove(i))?;
        let v = e.2.clone();
        c.insert(0, e);
        Some(v)
    }) {
        return Ok(v);
    }
    let v = Rc::new(make()?);
    let cost = entry_cost(key_bytes);
    cache.with_borrow_mut(|c| {
        let mut total = cost;
        let keep = c
            .iter()
            .take_while(|e| {
                total = total.saturating_add(e.1);
                total <= CACHE_MAX_BYTES
            })
            .count();
        c.truncate(keep);
        c.insert(0, (key, cost, v.clone()));
    });
    Ok(v)
}

/// The number of bound chains cached and their estimated bytes (for tests of the bound).
#[doc(hidden)]
pub fn cache_usage() -> (usize, usize) {
    let usage = |n: usize, bytes: usize| (n, bytes);
    let chunk = CHUNK_CACHE.with_borrow(|c| usage(c.len(), c.iter().map(|e| e.1).sum()));
    let array = ARRAY_CACHE.with_borrow(|c| usage(c.len(), c.iter().map(|e| e.1).sum()));
    (chunk.0 + array.0, chunk.1 + array.1)
}

fn chunk_meta(metadata: &str) -> CrateResult<Rc<ArrayMeta>> {
    cached(
        &CHUNK_CACHE,
        metadata.len(),
        || metadata.to_string(),
        || crate::metadata::parse_array_meta_text(metadata),
    )
}

fn array_chain(codecs: &str, data_type: &str) -> CrateResult<Rc<ArrayChain>> {
    cached(
        &ARRAY_CACHE,
        codecs.len().saturating_add(data_type.len()),
        || (codecs.to_string(), data_type.to_string()),
        || crate::args::parse_array_codecs(codecs, crate::args::parse_data_type_arg(data_type)?),
    )
}

/// Runs `f` (a whole-buffer encode or decode) from the JS bytes `data` (elements of `in_size`
/// bytes) into the JS bytes `out` (elements of `out_size` bytes), in I/O tiles (the outer level
/// of the one tiling, `kernels::IO_TILE`). A failing tile is rerun over the whole input, so that
/// the chain's reference names the failing element by its index in the chunk.
#[inline(never)]
fn stream(
    data: &Uint8Array,
    in_size: usize,
    out: &Uint8Array,
    out_size: usize,
    f: StageRun,
) -> CrateResult<()> {
    // Element sizes are 1, 2, 4 or 8; `max(1)` keeps the division total anyway.
    let (in_size, out_size) = (in_size.max(1), out_size.max(1));
    let n = data.length() as usize / in_size;
    if data.length() as usize % in_size != 0 {
        // Not whole elements: the whole-buffer run reports it. (Should it ever succeed, `out` is
        // still written in full: the JS entry may hand wasm an output that was not zeroed.)
        let mut all = vec![0u8; byte_len(n, out_size)?];
        f(&data.to_vec(), &mut all)?;
        return js_write(out, 0, &all);
    }
    check_out_len(out, byte_len(n, out_size)?)?;
    let tile = IO_TILE.min(n.max(1));
    // Input and output tiles 2 KiB apart modulo 4 KiB (see `Scratch`).
    let mut si = Scratch::new(tile * in_size, 0);
    let mut so = Scratch::new(tile * out_size, 2048);
    let (ib, ob) = (si.get(), so.get());
    let mut start = 0;
    while start < n {
        let len = tile.min(n - start);
        let (Some(i), Some(o)) = (ib.get_mut(..len * in_size), ob.get_mut(..len * out_size)) else {
            return Err(Error::new(
                ErrorCode::LengthMismatch,
                "a tile does not fit its scratch buffer",
            ));
        };
        js_read(data, start * in_size, i)?;
        if f(i, o).is_err() {
            let whole = data.to_vec();
            let mut all = vec![0u8; byte_len(n, out_size)?];
            f(&whole, &mut all)?;
            return js_write(out, 0, &all);
        }
        js_write(out, start * out_size, o)?;
        start += len;
    }
    Ok(())
}

/// The JS byte range `at..at + len` of `a` (a length mismatch error when it does not exist:
/// js-sys's `copy_to` / `copy_from` would panic on it).
fn js_range(a: &Uint8Array, at: usize, len: usize) -> CrateResult<Uint8Array> {
    let end = at.checked_add(len);
    match (u32::try_from(at), end.map(u32::try_from)) {
        (Ok(s), Some(Ok(e))) if e <= a.length() => Ok(a.subarray(s, e)),
        _ => Err(Error::new(
            ErrorCode::LengthMismatch,
            format!(
                "bytes {at}..{at}+{len} are outside a buffer of {} bytes",
                a.length()
            ),
        )),
    }
}

/// Copies JS bytes `src[at..at + dst.len()]` into `dst`.
fn js_read(src: &Uint8Array, at: usize, dst: &mut [u8]) -> CrateResult<()> {
    js_range(src, at, dst.len())?.copy_to(dst);
    Ok(())
}

/// Copies `src` into the JS bytes `dst[at..at + src.len()]`.
fn js_write(dst: &Uint8Array, at: usize, src: &[u8]) -> CrateResult<()> {
    js_range(dst, at, src.len())?.copy_from(src);
    Ok(())
}

/// A new zeroed JS byte array for `n` elements of `size` bytes.
fn new_js_bytes(n: usize, size: usize) -> CrateResult<Uint8Array> {
    let len = byte_len(n, size)?;
    let len = u32::try_from(len).map_err(|_| {
        Error::new(
            ErrorCode::LengthMismatch,
            format!("{len} bytes do not fit in a JS typed array of this build"),
        )
    })?;
    Ok(Uint8Array::new_with_length(len))
}

fn check_out_len(out: &Uint8Array, want: usize) -> CrateResult<()> {
    if out.length() as usize != want {
        return Err(Error::new(
            ErrorCode::LengthMismatch,
            format!("the output has {} bytes; {want} are needed", out.length()),
        ));
    }
    Ok(())
}

fn check_out(out: &Uint8Array, n: usize, dtype: DataType) -> CrateResult<()> {
    let want = byte_len(n, dtype.size())?;
    if out.length() as usize != want {
        return Err(Error::new(
            ErrorCode::LengthMismatch,
            format!(
                "the output has {} bytes; {n} {dtype} elements need {want}",
                out.length()
            ),
        ));
    }
    Ok(())
}

/// The caller's output (checked to hold exactly `n` elements of `dtype`) or a new one.
fn output(out: Option<&Uint8Array>, n: usize, dtype: DataType) -> CrateResult<Uint8Array> {
    match out {
        Some(o) => {
            check_out(o, n, dtype)?;
            Ok(o.clone())
        }
        None => new_js_bytes(n, dtype.size()),
    }
}

fn chunk_decode(
    metadata: &str,
    data: &Uint8Array,
    out: Option<&Uint8Array>,
) -> CrateResult<Uint8Array> {
    let m = chunk_meta(metadata)?;
    let (enc, dec) = (m.chain.encoded_dtype(), m.dtype);
    check_chunk_len("the stored chunk", data.length() as usize, m.chunk_len, enc)?;
    let out = output(out, m.chunk_len, dec)?;
    stream(data, enc.size(), &out, dec.size(), &|i, o| {
        m.chain.decode_into(i, o)
    })?;
    Ok(out)
}

/// Runs a bound array->array chain in `dir` from `data` into `out`, which must hold exactly as
/// many elements of the result type as `data` holds of its own; in tiles (see [`stream`]).
fn chain_into(
    c: &ArrayChain,
    dir: Direction,
    data: &Uint8Array,
    out: &Uint8Array,
) -> CrateResult<()> {
    let (from, to) = dir.order(c.decoded_dtype(), c.encoded_dtype());
    check_out(out, data.length() as usize / from.size(), to)?;
    stream(data, from.size(), out, to.size(), &|i, o| {
        c.run(dir, i, o, RunOptions::default())
    })
}

/// Decodes a stored chunk of a zarr.json array (JSON text), from a JS `Uint8Array` to a new JS
/// `Uint8Array` (bound chains cached, data streamed in tiles).
#[wasm_bindgen(js_name = decodeChunkJs)]
pub fn decode_chunk_js(metadata: &str, data: &Uint8Array) -> Result<Uint8Array, JsValue> {
    chunk_decode(metadata, data, None).map_err(to_js)
}

/// Decodes a stored chunk into `out`, the bytes of a caller-supplied typed array of the array's
/// data type and the chunk's length.
#[wasm_bindgen(js_name = decodeChunkInto)]
pub fn decode_chunk_into(
    metadata: &str,
    data: &Uint8Array,
    out: &Uint8Array,
) -> Result<(), JsValue> {
    chunk_decode(metadata, data, Some(out))
        .map(|_| ())
        .map_err(to_js)
}

fn chunk_encode(
    metadata: &str,
    data: &Uint8Array,
    out: Option<&Uint8Array>,
) -> CrateResult<Uint8Array> {
    let m = chunk_meta(metadata)?;
    let (dec, enc) = (m.dtype, m.chain.encoded_dtype());
    check_chunk_len(
        "the decoded chunk",
        data.length() as usize,
        m.chunk_len,
        dec,
    )?;
    let out = output(out, m.chunk_len, enc)?;
    stream(data, dec.size(), &out, enc.size(), &|i, o| {
        m.chain.encode_into(i, o)
    })?;
    Ok(out)
}

/// Encodes a chunk of a zarr.json array (JSON text), from a JS `Uint8Array` of in-memory values
/// to a new JS `Uint8Array` of stored bytes.
#[wasm_bindgen(js_name = encodeChunkJs)]
pub fn encode_chunk_js(metadata: &str, data: &Uint8Array) -> Result<Uint8Array, JsValue> {
    chunk_encode(metadata, data, None).map_err(to_js)
}

/// Encodes a chunk into `out`, a `Uint8Array` of exactly the stored chunk's length (the chunk's
/// number of elements times the size of the type the `bytes` codec receives; see `chunkLayout`).
/// Every byte of `out` is written when this returns without an error.
#[wasm_bindgen(js_name = encodeChunkInto)]
pub fn encode_chunk_into(
    metadata: &str,
    data: &Uint8Array,
    out: &Uint8Array,
) -> Result<(), JsValue> {
    chunk_encode(metadata, data, Some(out))
        .map(|_| ())
        .map_err(to_js)
}

/// `{elements, decodedSize, storedSize, dataType}` of a zarr.json array document (JSON text):
/// elements per chunk, bytes per decoded element, bytes per stored element and the canonical data
/// type name, so that the JS entry can allocate a chunk's output itself (with one parse of a text
/// too long to be cached).
#[wasm_bindgen(js_name = chunkLayout)]
pub fn chunk_layout(metadata: &str) -> Result<JsValue, JsValue> {
    use serde::ser::{SerializeMap, Serializer as _};
    let m = chunk_meta(metadata).map_err(to_js)?;
    let n = u32::try_from(m.chunk_len).map_err(|_| {
        to_js(Error::new(
            ErrorCode::LengthMismatch,
            format!("a chunk of {} elements is too large", m.chunk_len),
        ))
    })?;
    let ser = serde_wasm_bindgen::Serializer::json_compatible();
    let mut o = (&ser).serialize_map(Some(4))?;
    o.serialize_entry("elements", &n)?;
    o.serialize_entry("decodedSize", &(m.dtype.size() as u32))?;
    o.serialize_entry("storedSize", &(m.chain.encoded_dtype().size() as u32))?;
    o.serialize_entry("dataType", m.dtype.name())?;
    Ok(o.end()?)
}

/// Decodes into `out`, the bytes of a caller-supplied typed array of `data_type` with as many
/// elements as `data`.
#[wasm_bindgen(js_name = decodeArrayInto)]
pub fn decode_array_into(
    codecs: &str,
    data_type: &str,
    data: &Uint8Array,
    out: &Uint8Array,
) -> Result<(), JsValue> {
    array_chain(codecs, data_type)
        .and_then(|c| chain_into(&c, Direction::Decode, data, out))
        .map_err(to_js)
}

/// Encodes in-memory values of `data_type` through array->array `codecs` (JSON text) into `out`,
/// the bytes of a caller-supplied typed array of the encoded data type with as many elements as
/// `data` (the JS entry allocates it, as for every other output).
#[wasm_bindgen(js_name = encodeArrayInto)]
pub fn encode_array_into(
    codecs: &str,
    data_type: &str,
    data: &Uint8Array,
    out: &Uint8Array,
) -> Result<(), JsValue> {
    array_chain(codecs, data_type)
        .and_then(|c| chain_into(&c, Direction::Encode, data, out))
        .map_err(to_js)
}

// ---------------------------------------------------------------------------------------------
// The bind API: array->array codecs bound once to (data type, fill value), held by JS.

/// Array->array codecs bound to (data type, fill value): the `bind` handle of the JS entry. Its
/// memory is released by `free()` (or by wasm-bindgen's finalizer once JS drops it).
#[wasm_bindgen(js_name = BoundCodecs)]
pub struct BoundCodecs(crate::Bound);

#[wasm_bindgen(js_class = BoundCodecs)]
impl BoundCodecs {
    /// Binds `codecs` (JSON text) to `data_type` (a name or JSON text) and `fill` (JSON text of
    /// a Zarr fill value of `data_type`, or none); see [`crate::bind`].
    #[wasm_bindgen(constructor)]
    pub fn new(
        codecs: &str,
        data_type: &str,
        fill: Option<String>,
    ) -> Result<BoundCodecs, JsValue> {
        crate::bind(codecs, data_type, fill.as_deref())
            .map(BoundCodecs)
            .map_err(to_js)
    }

    /// `[decoded data type, encoded data type, encoded fill as JSON text, encoded fill as the
    /// bytes of one in-memory element]` (the last two `undefined` without a fill value).
    pub fn info(&self) -> js_sys::Array {
        let b = &self.0;
        let text = b.encoded_fill().map(|t| JsValue::from_str(&t));
        let element = b
            .encoded_fill_element()
            .map(|e| JsValue::from(Uint8Array::from(e.as_slice())));
        js_sys::Array::of4(
            &JsValue::from_str(b.decoded_data_type().name()),
            &JsValue::from_str(b.encoded_data_type().name()),
            &text.unwrap_or(JsValue::UNDEFINED),
            &element.unwrap_or(JsValue::UNDEFINED),
        )
    }

    /// Encodes the JS bytes `data` (elements of the decoded type) into `out` (as many elements
    /// of the encoded type), in tiles.
    #[wasm_bindgen(js_name = encodeInto)]
    pub fn encode_into(&self, data: &Uint8Array, out: &Uint8Array) -> Result<(), JsValue> {
        chain_into(self.0.chain(), Direction::Encode, data, out).map_err(to_js)
    }

    /// Decodes the JS bytes `data` (elements of the encoded type) into `out` (as many elements
    /// of the decoded type), in tiles.
    #[wasm_bindgen(js_name = decodeInto)]
    pub fn decode_into(&self, data: &Uint8Array, out: &Uint8Array) -> Result<(), JsValue> {
        chain_into(self.0.chain(), Direction::Decode, data, out).map_err(to_js)
    }
}

/// The canonical data type name of a zarr.json array document (JSON text).
#[wasm_bindgen(js_name = arrayDataType)]
pub fn array_data_type(metadata: &str) -> Result<String, JsValue> {
    chunk_meta(metadata)
        .map(|m| m.dtype.name().to_string())
        .map_err(to_js)
}

/// The JS typed-array constructor name for a data type name (e.g. "Int8Array" for "int4";
/// "Float16Array" for float16, which the JS layer maps to Uint16Array where it is missing).
#[wasm_bindgen(js_name = typedArrayKind)]
pub fn typed_array_kind(data_type: &str) -> Result<String, JsValue> {
    DataType::parse(data_type, "/data_type")
        .map(|d| d.array_kind().js_name().to_string())
        .map_err(to_js)
}

/// The canonical name of a data type given as a name or as JSON text (a string or an object),
/// read by the core: a duplicated key is an error here, where `JSON.parse` would keep the last.
#[wasm_bindgen(js_name = dataTypeName)]
pub fn data_type_name(data_type: &str) -> Result<String, JsValue> {
    crate::args::parse_data_type_arg(data_type)
        .map(|d| d.name().to_string())
        .map_err(to_js)
}

/// The lenient forms a zarr.json array document (JSON text) relies on, as an array of
/// `{pointer, message}` objects; throws when the document is invalid.
#[wasm_bindgen(js_name = metadataWarnings)]
pub fn metadata_warnings(metadata: &str) -> Result<JsValue, JsValue> {
    let ws = crate::metadata_warnings(metadata).map_err(to_js)?;
    use serde::Serialize as _;
    Ok(ws.serialize(&serde_wasm_bindgen::Serializer::json_compatible())?)
}

/// Validates metadata (JSON text: a zarr.json array document, a codecs list or one codec);
/// `data_type` is the data type a codecs list or codec receives. Returns
/// `{valid, errors: [{path, code, message}], warnings: [...], decodable, unsupported: [...]}`;
/// never throws.
#[wasm_bindgen]
pub fn validate(metadata: &str, data_type: Option<String>) -> JsValue {
    use serde::ser::{SerializeMap, Serializer as _};
    let r = crate::validate(metadata, data_type.as_deref());
    let ser = serde_wasm_bindgen::Serializer::json_compatible();
    let out = (|| {
        let mut m = (&ser).serialize_map(Some(5))?;
        m.serialize_entry("valid", &r.is_ok())?;
        m.serialize_entry("errors", &r.errors)?;
        m.serialize_entry("warnings", &r.warnings)?;
        m.serialize_entry("decodable", &r.is_decodable())?;
        m.serialize_entry("unsupported", &r.unsupported)?;
        m.end()
    })();
    out.unwrap_or_else(JsValue::from)
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

/// The values at `pointers` (JSON pointers, one a line) in the document `text`, each as its
/// JSON text with numbers as written: JSON text of an array of strings or nulls (`crate::cf_select`).
#[wasm_bindgen(js_name = cfSelect)]
pub fn cf_select(text: &str, pointers: &str) -> Result<String, JsValue> {
    crate::cf_select(text, pointers).map_err(to_js)
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
