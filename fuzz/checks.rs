//! The checks of the fuzz targets, on plain byte inputs, shared by the fuzz targets
//! (`fuzz/fuzz_targets/*.rs`) and the native regression test that replays every committed
//! crash input (`tests/fuzz_regressions.rs`, which includes this file with `#[path]`).
//! Each function panics when an invariant breaks; "no panic" is the first invariant.

#![allow(dead_code)]

use zarr_scale_offset::internals::args::parse_array_codecs;
use zarr_scale_offset::internals::chain::check_in_memory;
use zarr_scale_offset::internals::json::{self, Json};
use zarr_scale_offset::internals::metadata::{ignored_member, parse_array_meta_text};
use zarr_scale_offset::{
    array_data_type, decode, decode_chunk, encode, encode_chunk, encoded_data_type, from_cf,
    from_fixed_scale_offset, metadata_warnings, validate, DataType, ErrorCode,
};
/// Every data type (the public list).
const ALL: &[zarr_scale_offset::DataType] = zarr_scale_offset::DataType::ALL;

/// `json_validate`: byte 0 picks the data type argument, the rest is metadata text (lossy
/// UTF-8). The JSON writer round-trips; validate() and the strict parser agree on whole array
/// documents; unparsable JSON is an error; no diagnostic is empty.
pub fn json_validate(data: &[u8]) {
    let Some((&sel, rest)) = data.split_first() else {
        return;
    };
    let text = String::from_utf8_lossy(rest);
    let dt: Option<&str> = match sel as usize % 29 {
        26 => None,
        27 => Some("complex64"),
        28 => Some("{\"name\":\"int4\"}"),
        i => ALL.get(i).map(|d| d.name()),
    };

    let parsed = json::parse(&text);
    if let Ok(doc) = &parsed {
        let again = json::parse(&doc.to_json_string()).expect("the writer's output parses");
        assert_eq!(&again, doc, "JSON writer round trip");
    }
    skipping_agrees(&text, &parsed);
    ignored_members(sel, &text);

    let report = validate(&text, dt);
    for d in report.errors.iter().chain(report.warnings.iter()) {
        assert!(!d.message.is_empty(), "empty diagnostic message");
    }
    if parsed.is_err() {
        assert!(!report.is_ok(), "unparsable JSON must be an error");
    }

    let strict = metadata_warnings(&text);
    if let Err(e) = &strict {
        assert!(!e.message.is_empty());
    }
    // validate() treats an object with a "name" and neither "zarr_format" nor "codecs" as a
    // single codec; any other object is a whole array document.
    if let Ok(doc @ Json::Object(_)) = &parsed {
        let is_codec = doc.get("name").is_some()
            && doc.get("zarr_format").is_none()
            && doc.get("codecs").is_none();
        if !is_codec {
            let whole = validate(&text, None);
            // valid is not decodable: a valid document with a known codec or data type this
            // package cannot run (listed under `unsupported`) is an error for the strict API.
            let decodable = whole.is_ok() && whole.unsupported.is_empty();
            assert_eq!(
                decodable,
                strict.is_ok(),
                "validate and metadata_warnings disagree: {:?} {:?} vs {:?}",
                whole.errors,
                whole.unsupported,
                strict
            );
            if let (true, Err(e)) = (whole.is_ok(), &strict) {
                assert!(
                    matches!(
                        e.code,
                        ErrorCode::UnsupportedCodec | ErrorCode::UnsupportedDataType
                    ),
                    "a valid document the package cannot run must fail as unsupported: {e:?}"
                );
            }
            assert_eq!(array_data_type(&text).is_ok(), decodable);
        }
    }
}

/// `chunk`: metadata text, a 0x00 byte, then the chunk bytes. Results have exactly the chunk's
/// size and hold valid in-memory values; a buffer of the wrong length is `length_mismatch`,
/// never a partial read.
pub fn chunk(data: &[u8]) {
    let (meta, bytes) = match data.iter().position(|&b| b == 0) {
        Some(i) => data.split_at(i),
        None => (data, &[0u8][..]),
    };
    let bytes = bytes.get(1..).unwrap_or(&[]);
    let Ok(meta) = std::str::from_utf8(meta) else {
        return;
    };
    chunk_doc(meta, bytes);
}

/// The checks of [`chunk`] on metadata text and bytes.
pub fn chunk_doc(meta: &str, bytes: &[u8]) {
    let parsed = parse_array_meta_text(meta);
    let dec = decode_chunk(meta, bytes);
    let enc = encode_chunk(meta, bytes);
    let m = match parsed {
        Ok(m) => m,
        Err(_) => {
            assert!(dec.is_err() && enc.is_err(), "invalid metadata must fail");
            return;
        }
    };
    let want_stored = m.chunk_len * m.chain.encoded_dtype().size();
    let want_decoded = m.chunk_len * m.dtype.size();
    match &dec {
        Ok(out) => {
            assert_eq!(bytes.len(), want_stored);
            assert_eq!(out.len(), want_decoded);
            check_in_memory(m.dtype, out).expect("decoded chunk holds valid in-memory values");
        }
        Err(e) if bytes.len() != want_stored => assert_eq!(e.code, ErrorCode::LengthMismatch),
        Err(_) => {}
    }
    match &enc {
        Ok(out) => {
            assert_eq!(bytes.len(), want_decoded);
            assert_eq!(out.len(), want_stored);
        }
        Err(e) if bytes.len() != want_decoded => assert_eq!(e.code, ErrorCode::LengthMismatch),
        Err(_) => {}
    }
    if bytes.len() == want_stored && !bytes.is_empty() {
        let short = &bytes[..bytes.len() - 1];
        let e = decode_chunk(meta, short).expect_err("a short chunk must fail");
        assert_eq!(e.code, ErrorCode::LengthMismatch);
        let mut long = bytes.to_vec();
        long.push(0);
        let e = decode_chunk(meta, &long).expect_err("a long chunk must fail");
        assert_eq!(e.code, ErrorCode::LengthMismatch);
    }
}

fn check_out(dt: DataType, n: usize, out: &[u8]) {
    assert_eq!(out.len(), n * dt.size(), "{dt}: wrong output length");
    check_in_memory(dt, out).expect("output holds valid in-memory values");
}

/// `codec_bind` on a built document: validate() and the strict parser agree, and a chunk of
/// `data` (resized to the chunk) encodes/decodes to whole, valid elements.
pub fn bound_doc(meta: &str, data: &[u8]) {
    let report = validate(meta, None);
    let strict = parse_array_meta_text(meta);
    assert_eq!(
        report.is_ok(),
        strict.is_ok(),
        "validate vs strict on {meta}: {:?} / {:?}",
        report.errors,
        strict.as_ref().err()
    );
    let Ok(m) = strict else {
        return;
    };
    let (dtype, n, enc_dt) = (m.dtype, m.chunk_len, m.chain.encoded_dtype());
    let mut decoded = data.to_vec();
    decoded.resize(n * dtype.size(), 0);
    if let Ok(stored) = encode_chunk(meta, &decoded) {
        assert_eq!(stored.len(), n * enc_dt.size());
        if let Ok(back) = decode_chunk(meta, &stored) {
            check_out(dtype, n, &back);
        }
    }
    let mut stored = data.to_vec();
    stored.resize(n * enc_dt.size(), 0xa5);
    if let Ok(out) = decode_chunk(meta, &stored) {
        check_out(dtype, n, &out);
    }
}

/// `codec_bind` on a bare array->array list: validate(list, dtype) agrees with the typed-array
/// API (unless `may_hold_bytes_codec`: validate() accepts an array->bytes codec in a list, the
/// typed-array API refuses it), and encode/decode give whole, valid elements.
pub fn bound_list(list: &str, dtype: DataType, data: &[u8], may_hold_bytes_codec: bool) {
    let vr = validate(list, Some(dtype.name()));
    let bound = parse_array_codecs(list, dtype);
    assert!(
        may_hold_bytes_codec || vr.is_ok() == bound.is_ok(),
        "validate vs typed-array API on {list} ({dtype}): {:?} / {:?}",
        vr.errors,
        bound.as_ref().err()
    );
    let Ok(chain) = bound else {
        return;
    };
    let enc_dt = chain.encoded_dtype();
    let k = data.len() / dtype.size();
    if let Ok((t, out)) = encode(list, dtype.name(), &data[..k * dtype.size()]) {
        assert_eq!(t, enc_dt);
        check_out(enc_dt, k, &out);
    }
    let k = data.len() / enc_dt.size();
    if let Ok(out) = decode(list, dtype.name(), &data[..k * enc_dt.size()]) {
        check_out(dtype, k, &out);
    }
}

/// `from_cf`: byte 0 picks the packed type, byte 1 the attribute type, the rest is the
/// attributes' JSON text. A successful result is `{data_type, fill_value, codecs}` whose
/// zarr.json validates cleanly and decodes a chunk of packed zeros.
pub fn from_cf_bytes(data: &[u8]) {
    let [p, a, rest @ ..] = data else {
        return;
    };
    let Ok(attrs) = std::str::from_utf8(rest) else {
        return;
    };
    let packed = ALL[*p as usize % ALL.len()].name();
    // Every data type, then float32 and float64 by name, an unknown name and none.
    let i = *a as usize % (ALL.len() + 4);
    let ad = match i.checked_sub(ALL.len()) {
        None => Some(ALL[i].name()),
        Some(0) => Some("float32"),
        Some(1) => Some("float64"),
        Some(2) => Some("bogus"),
        _ => None,
    };
    from_cf_checked(attrs, packed, ad);
}

/// The checks of [`from_cf_bytes`].
pub fn from_cf_checked(attrs: &str, packed: &str, ad: Option<&str>) {
    let Ok(cf) = from_cf(attrs, packed, ad) else {
        return;
    };
    let j = json::parse(&cf).expect("from_cf returns JSON");
    let (Some(dt), Some(fill), Some(codecs)) =
        (j.get("data_type"), j.get("fill_value"), j.get("codecs"))
    else {
        panic!("from_cf result lacks a key: {cf}");
    };
    let n = 4;
    let doc = format!(
        r#"{{"zarr_format":3,"node_type":"array","shape":[{n}],"data_type":{},"chunk_grid":{{"name":"regular","configuration":{{"chunk_shape":[{n}]}}}},"chunk_key_encoding":{{"name":"default"}},"fill_value":{},"codecs":{}}}"#,
        dt.to_json_string(),
        fill.to_json_string(),
        codecs.to_json_string()
    );
    let r = validate(&doc, None);
    assert!(
        r.is_ok(),
        "from_cf({attrs}, {packed}, {ad:?}) = {cf} does not validate: {:?}",
        r.errors
    );
    let mut array_codecs = codecs.as_array().unwrap_or(&[]).to_vec();
    array_codecs.pop();
    let stored = encoded_data_type(
        &Json::Array(array_codecs).to_json_string(),
        dt.as_str().unwrap_or("float64"),
    )
    .expect("the array->array codecs bind");
    if let Err(e) = decode_chunk(&doc, &vec![0u8; n * stored.size()]) {
        panic!("from_cf({attrs}, {packed}, {ad:?}) = {cf}: zeros do not decode: {e}");
    }
}

/// `from_fixed_scale_offset`: byte 0 picks the array data type argument (or none), the rest is
/// the configuration's JSON text. A successful result is a JSON list of array->array codecs that
/// binds cleanly: to the given data type when the configuration has no `dtype`, else to at
/// least one of the 26 types.
pub fn from_fixed_bytes(data: &[u8]) {
    let Some((&sel, rest)) = data.split_first() else {
        return;
    };
    let Ok(config) = std::str::from_utf8(rest) else {
        return;
    };
    let dt = ALL.get(sel as usize % 32).map(|d| d.name());
    let Ok(out) = from_fixed_scale_offset(config, dt) else {
        return;
    };
    let list = json::parse(&out).expect("from_fixed_scale_offset returns JSON");
    assert!(list.as_array().is_some(), "not a codecs list: {out}");
    let has_dtype = json::parse(config).is_ok_and(|c| {
        c.get("dtype").is_some()
            || c.get("configuration")
                .is_some_and(|k| k.get("dtype").is_some())
    });
    let binds = |t: &str| validate(&out, Some(t)).is_ok();
    match dt {
        Some(t) if !has_dtype => assert!(binds(t), "{config} ({t}) -> {out} does not bind"),
        _ => assert!(
            ALL.iter().any(|t| binds(t.name())),
            "{config} ({dt:?}) -> {out} binds to no data type"
        ),
    }
}

/// Skip-parsing (what `validate` and every metadata reader use) agrees with the full parse: the
/// same verdict, the same error, the same duplicated keys (pointers, in order) while fewer than
/// `MAX_SKIPPED_DUPLICATES` are found; only the cap on built values may refuse a full parse
/// that the skipping one accepts.
fn skipping_agrees(text: &str, full: &zarr_scale_offset::Result<Json>) {
    let skipped = json::parse_ignoring(text, ignored_member);
    match (full, &skipped) {
        (Ok(f), Ok(s)) => {
            let want = f.duplicate_key_pointers();
            if want.len() < json::skip::MAX_SKIPPED_DUPLICATES {
                assert_eq!(
                    want,
                    s.duplicate_key_pointers(),
                    "duplicate keys found by skipping"
                );
            }
        }
        (Err(a), Err(b)) => assert_eq!(a, b, "skip-parse error"),
        (Err(a), Ok(_)) => assert!(
            a.code == ErrorCode::InvalidMetadata && a.message.contains("JSON values"),
            "only the value cap may differ: {a}"
        ),
        (Ok(_), Err(b)) => panic!("skip-parse refused what parses: {b}"),
    }
}

const IGNORED_BASE: &str = r#"{"zarr_format":3,"node_type":"array","shape":[4],"data_type":"float32","chunk_grid":{"name":"regular","configuration":{"chunk_shape":[4]}},"chunk_key_encoding":{"name":"default"},"fill_value":0,"codecs":[{"name":"scale_offset","configuration":{"offset":1000,"scale":10}},{"name":"cast_value","configuration":{"data_type":"int16"}},{"name":"bytes","configuration":{"endian":"little"}}]"#;

/// Structure-aware: the fuzz text, repeated `1 + sel % 32` times, becomes the contents of an
/// ignored member of a good document (`attributes`, or an extension with `must_understand:
/// false`), when it is a JSON value. What an ignored member holds never changes a decoded chunk:
/// the document decodes exactly as without it, unless the whole text does not parse (nesting
/// too deep: the same error as the full parse) or holds a duplicated key (`invalid_metadata` at
/// the first duplicate's pointer).
fn ignored_members(sel: u8, text: &str) {
    // Only a complete JSON value: other text could close the member and inject read members.
    if json::parse(text).is_err() {
        return;
    }
    let k = 1 + usize::from(sel) % 32;
    let inner = vec![text; k].join(",");
    let doc = match sel / 32 % 4 {
        0 => format!(r#"{IGNORED_BASE},"attributes":{{"x":[{inner}]}}}}"#),
        1 => format!(r#"{IGNORED_BASE},"attributes":{{"x":{text},"y":[{inner}]}}}}"#),
        2 => format!(r#"{IGNORED_BASE},"ext":{{"must_understand":false,"v":[{inner}]}}}}"#),
        _ => format!(r#"{IGNORED_BASE},"ext":{{"v":[{inner}],"must_understand":false}}}}"#),
    };
    let stored: Vec<u8> = [0i16, 5, -10, 20]
        .iter()
        .flat_map(|x| x.to_le_bytes())
        .collect();
    let want: Vec<u8> = [1000f32, 1000.5, 999.0, 1002.0]
        .iter()
        .flat_map(|x| x.to_le_bytes())
        .collect();
    let got = decode_chunk(&doc, &stored);
    let valid = validate(&doc, None).is_ok();
    match json::parse(&doc) {
        Err(e) if e.message.contains("JSON values") => {
            // Only the full parse builds values: the skipping reader may accept.
            if let Ok(out) = &got {
                assert_eq!(out, &want);
            }
        }
        Err(e) => {
            let g = got.expect_err("a document that does not parse decodes");
            assert_eq!(g, e, "the error of the full parse");
            assert!(!valid);
        }
        Ok(full) => {
            let dups = full.duplicate_key_pointers();
            match dups.first() {
                None => {
                    assert_eq!(got.expect("an ignored member changed the verdict"), want);
                    assert!(valid, "validate rejects what decodes");
                }
                Some(first) => {
                    let g = got.expect_err("a duplicated key inside an ignored member decodes");
                    assert_eq!(g.code, ErrorCode::InvalidMetadata);
                    if dups.len() < json::skip::MAX_SKIPPED_DUPLICATES {
                        assert_eq!(g.path.as_deref(), Some(first.as_str()), "{g}");
                    }
                    assert!(!valid);
                }
            }
        }
    }
}
