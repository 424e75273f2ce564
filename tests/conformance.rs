//! Native conformance runner: every vector of the implemented families in conformance/vectors
//! through the chunk API and the typed-array (array->array) API, byte for byte (any NaN equals
//! any NaN for float types; only the low bits of sub-byte stored values count).
// Test code may unwrap, index and panic (the workspace lints deny them in the library).
#![allow(clippy::restriction)]

use std::fs;

use zarr_scale_offset::internals::json::{parse, Json};
use zarr_scale_offset::{
    decode, decode_chunk, encode, encode_chunk, encoded_data_type, validate, DataType,
};

/// Every family of conformance/vectors: its `*.json` files, by name (a new family runs without
/// a change here).
fn families() -> Vec<String> {
    let dir = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("conformance/vectors");
    let mut names: Vec<String> = std::fs::read_dir(&dir)
        .expect("conformance/vectors")
        .filter_map(|e| {
            let name = e.ok()?.file_name().into_string().ok()?;
            Some(name.strip_suffix(".json")?.to_string())
        })
        .collect();
    names.sort();
    assert!(names.len() >= 8, "families in {}: {names:?}", dir.display());
    names
}

fn hex(s: &str) -> Vec<u8> {
    (0..s.len() / 2)
        .map(|i| u8::from_str_radix(&s[2 * i..2 * i + 2], 16).expect("hex"))
        .collect()
}

/// Element-wise comparison of two in-memory buffers of `dt`.
fn same(dt: DataType, a: &[u8], b: &[u8]) -> Result<(), String> {
    if a.len() != b.len() {
        return Err(format!("length {} != {}", a.len(), b.len()));
    }
    let n = a.len() / dt.size();
    for i in 0..n {
        let (x, y) = (dt.read_bits(a, i), dt.read_bits(b, i));
        if x == y {
            continue;
        }
        if let Some(f) = dt.float() {
            if f.is_nan(x) && f.is_nan(y) {
                continue;
            }
        }
        return Err(format!("element {i}: got {x:#x}, want {y:#x}"));
    }
    Ok(())
}

/// Stored bytes -> in-memory bytes (undo big-endian; sub-byte low bits, extended).
fn stored_to_memory(dt: DataType, big: bool, stored: &[u8]) -> Vec<u8> {
    let n = dt.size();
    let mut v = stored.to_vec();
    if big && n > 1 {
        v.chunks_exact_mut(n).for_each(<[u8]>::reverse);
    }
    let mut out = vec![0u8; v.len()];
    for i in 0..v.len() / n {
        dt.write_bits(&mut out, i, dt.read_bits(&v, i));
    }
    out
}

struct Case {
    id: String,
    meta: String,
    dtype: DataType,
    array_codecs: String,
    big: bool,
    decoded: Option<Vec<u8>>,
    encoded: Option<Vec<u8>>,
    expect: String,
}

fn load(family: &str) -> Vec<Case> {
    let text =
        fs::read_to_string(format!("conformance/vectors/{family}.json")).expect("read vectors");
    let doc = parse(&text).expect("parse vectors");
    let mut out = Vec::new();
    for v in doc.as_array().expect("array") {
        let meta = v.get("metadata").expect("metadata");
        // metadata_error vectors may have no usable codecs list; the others always do.
        let codecs = meta.get("codecs").and_then(Json::as_array).unwrap_or(&[]);
        let (last, rest) = codecs.split_last().unwrap_or((&Json::Null, &[]));
        let big = last
            .get("configuration")
            .and_then(|c| c.get("endian"))
            .and_then(Json::as_str)
            == Some("big");
        let dtype = meta
            .get("data_type")
            .and_then(Json::as_str)
            .and_then(DataType::from_name)
            .unwrap_or(DataType::Float64);
        out.push(Case {
            id: v.get("id").and_then(Json::as_str).expect("id").to_string(),
            meta: meta.to_json_string(),
            dtype,
            array_codecs: Json::Array(rest.to_vec()).to_json_string(),
            big,
            decoded: v.get("decoded").and_then(Json::as_str).map(hex),
            encoded: v.get("encoded").and_then(Json::as_str).map(hex),
            expect: v
                .get("expect")
                .and_then(Json::as_str)
                .expect("expect")
                .to_string(),
        });
    }
    out
}

/// Checks one case through the chunk API; Err(reason) on failure.
fn chunk_api(c: &Case) -> Result<(), String> {
    let enc_dt = encoded_data_type(&c.array_codecs, c.dtype.name());
    let e = c.expect.as_str();
    if matches!(e, "roundtrip" | "encode_only") {
        let got = encode_chunk(&c.meta, c.decoded.as_ref().ok_or("no decoded")?)
            .map_err(|e| format!("encode: {e}"))?;
        let dt = enc_dt.clone().map_err(|e| e.to_string())?;
        let want = c.encoded.as_ref().ok_or("no encoded")?;
        same(
            dt,
            &stored_to_memory(dt, c.big, &got),
            &stored_to_memory(dt, c.big, want),
        )
        .map_err(|m| format!("encode: {m}"))?;
        if dt.size() == 1 && dt.bits() < 8 && got.iter().any(|b| b >> dt.bits() != 0) {
            return Err("encode: upper bits not zero".into());
        }
    }
    if matches!(e, "roundtrip" | "decode_only") {
        let got = decode_chunk(&c.meta, c.encoded.as_ref().ok_or("no encoded")?)
            .map_err(|e| format!("decode: {e}"))?;
        same(c.dtype, &got, c.decoded.as_ref().ok_or("no decoded")?)
            .map_err(|m| format!("decode: {m}"))?;
    }
    if e == "encode_error" {
        if let Ok(v) = encode_chunk(&c.meta, c.decoded.as_ref().ok_or("no decoded")?) {
            return Err(format!("encode should fail, gave {v:02x?}"));
        }
    }
    let report = validate(&c.meta, None);
    if e == "metadata_error" {
        if report.is_ok() {
            return Err("validate() found no error".into());
        }
    } else if !report.is_ok() {
        return Err(format!(
            "validate() reports errors on valid metadata: {:?}",
            report.errors
        ));
    }
    if e == "decode_error" || e == "metadata_error" {
        let input = c.encoded.clone().unwrap_or_default();
        if let Ok(v) = decode_chunk(&c.meta, &input) {
            return Err(format!("decode should fail, gave {v:02x?}"));
        }
    }
    Ok(())
}

/// Checks one case through the typed-array API (array->array codecs alone, no fill value).
/// Returns Ok(false) when the case does not apply (its error comes from the fill value or the
/// bytes codec, which the typed-array API does not see).
fn array_api(c: &Case) -> Result<bool, String> {
    let e = c.expect.as_str();
    if e == "metadata_error" {
        // A whole-document property; the typed-array API has no document.
        return Ok(false);
    }
    let dt = match encoded_data_type(&c.array_codecs, c.dtype.name()) {
        Ok(d) => d,
        Err(err) if e.ends_with("error") => return Ok(err.message.contains("fill")),
        Err(err) => return Err(format!("encoded_data_type: {err}")),
    };
    if matches!(e, "roundtrip" | "encode_only") {
        let (got_dt, got) = encode(
            &c.array_codecs,
            c.dtype.name(),
            c.decoded.as_ref().ok_or("no decoded")?,
        )
        .map_err(|e| format!("encode: {e}"))?;
        if got_dt != dt {
            return Err(format!("encode dtype {got_dt} != {dt}"));
        }
        same(
            dt,
            &got,
            &stored_to_memory(dt, c.big, c.encoded.as_ref().ok_or("no encoded")?),
        )
        .map_err(|m| format!("encode: {m}"))?;
    }
    if matches!(e, "roundtrip" | "decode_only") {
        let input = stored_to_memory(dt, c.big, c.encoded.as_ref().ok_or("no encoded")?);
        let got =
            decode(&c.array_codecs, c.dtype.name(), &input).map_err(|e| format!("decode: {e}"))?;
        same(c.dtype, &got, c.decoded.as_ref().ok_or("no decoded")?)
            .map_err(|m| format!("decode: {m}"))?;
    }
    // An error the chunk API saw may come from the fill value, which the typed-array API does
    // not have: then the case is "not applicable" here (counted and printed).
    if e == "encode_error" {
        let data = c.decoded.as_ref().ok_or("no decoded")?;
        return Ok(encode(&c.array_codecs, c.dtype.name(), data).is_err());
    }
    if e == "decode_error" {
        let input = stored_to_memory(dt, c.big, c.encoded.as_ref().ok_or("no encoded")?);
        return Ok(decode(&c.array_codecs, c.dtype.name(), &input).is_err());
    }
    Ok(true)
}

#[test]
fn conformance_vectors() {
    let mut failures = Vec::new();
    let mut total = 0;
    for family in families() {
        let cases = load(&family);
        let (mut chunk_ok, mut arr_ok, mut arr_na) = (0, 0, 0);
        for c in &cases {
            match chunk_api(c) {
                Ok(()) => chunk_ok += 1,
                Err(m) => failures.push(format!("[chunk] {}: {m}", c.id)),
            }
            match array_api(c) {
                Ok(true) => arr_ok += 1,
                Ok(false) => arr_na += 1,
                Err(m) => failures.push(format!("[typed] {}: {m}", c.id)),
            }
        }
        total += cases.len();
        println!(
            "conformance {family}: {} vectors; chunk API {chunk_ok} passed; typed-array API {arr_ok} passed, {arr_na} not applicable (fill-value or whole-chunk errors)",
            cases.len()
        );
    }
    println!("conformance: {total} vectors, {} failures", failures.len());
    for f in failures.iter().take(60) {
        println!("  FAIL {f}");
    }
    assert!(
        failures.is_empty(),
        "{} conformance failures",
        failures.len()
    );
}
