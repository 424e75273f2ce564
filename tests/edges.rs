//! Issue 12, the Rust side: memory and cost bounded for any document (ignored members are
//! skip-parsed; a cap on parsed values; a cap on the chain length), and `"astype": null` in
//! `numcodecs.fixedscaleoffset` (as zarrs writes it) read as numcodecs reads it.
// Test code may unwrap, index and panic (the workspace lints deny them in the library).
#![allow(clippy::restriction)]

use zarr_scale_offset::internals::chain::MAX_ARRAY_CODECS;
use zarr_scale_offset::internals::json::{parse, MAX_VALUES};
use zarr_scale_offset::internals::metadata::parse_document;
use zarr_scale_offset::{
    bind, decode, decode_chunk, encoded_data_type, from_fixed_scale_offset, metadata_warnings,
    validate, ErrorCode,
};

const BYTES: &str = r#"{"name":"bytes","configuration":{"endian":"little"}}"#;

fn doc(n: usize, dtype: &str, codecs: &str, extra: &str) -> String {
    format!(
        r#"{{"zarr_format":3,"node_type":"array","shape":[{n}],"data_type":"{dtype}","chunk_grid":{{"name":"regular","configuration":{{"chunk_shape":[{n}]}}}},"chunk_key_encoding":{{"name":"default"}},"fill_value":0,"codecs":{codecs}{extra}}}"#
    )
}

fn f32_bytes(v: &[f32]) -> Vec<u8> {
    v.iter().flat_map(|x| x.to_le_bytes()).collect()
}

fn i16_bytes(v: &[i16]) -> Vec<u8> {
    v.iter().flat_map(|x| x.to_le_bytes()).collect()
}

/// `scale_offset(scale 2)` k times, as a JSON list without brackets.
fn scale_offsets(k: usize) -> String {
    let so = r#"{"name":"scale_offset","configuration":{"offset":0,"scale":2}}"#;
    vec![so; k].join(",")
}

#[test]
fn chain_length_cap_everywhere() {
    let cast = r#"{"name":"cast_value","configuration":{"data_type":"int16"}}"#;
    for k in [MAX_ARRAY_CODECS - 1, MAX_ARRAY_CODECS] {
        // k - 1 scale_offsets and one cast_value: k array->array codecs, at the limit or below.
        let list = format!("[{},{cast}]", scale_offsets(k - 1));
        let chunk = format!("[{},{cast},{BYTES}]", scale_offsets(k - 1));
        let m = doc(2, "float64", &chunk, "");
        assert!(validate(&m, None).is_ok(), "{k}");
        // decode: x -> x / 2, k - 1 times (exact in float64).
        let stored = i16_bytes(&[0, 6]);
        let out = decode_chunk(&m, &stored).unwrap();
        let mut want = [0f64, 6.0];
        for _ in 0..k - 1 {
            for w in &mut want {
                *w /= 2.0;
            }
        }
        let got: Vec<f64> = out
            .chunks(8)
            .map(|c| f64::from_le_bytes(c.try_into().unwrap()))
            .collect();
        assert_eq!(got, want, "{k}");
        assert!(bind(&list, "float64", None).is_ok());
        assert_eq!(encoded_data_type(&list, "float64").unwrap().name(), "int16");
    }
    let over = MAX_ARRAY_CODECS + 1;
    let list = format!("[{},{cast}]", scale_offsets(over - 1));
    let chunk = format!("[{},{cast},{BYTES}]", scale_offsets(over - 1));
    let m = doc(2, "float64", &chunk, "");
    let msg = format!("a chain may have at most 64 array->array codecs; this one has {over}");
    let r = validate(&m, None);
    assert_eq!(r.errors.len(), 1);
    assert_eq!(r.errors[0].path, "/codecs/64");
    assert_eq!(r.errors[0].code, "invalid_metadata");
    assert_eq!(r.errors[0].message, msg);
    let r = validate(&list, Some("float64"));
    assert_eq!(
        (r.errors[0].path.as_str(), r.errors[0].message.as_str()),
        ("/64", msg.as_str())
    );
    for e in [
        decode_chunk(&m, &i16_bytes(&[0, 6])).unwrap_err(),
        bind(&list, "float64", None).unwrap_err(),
        decode(&list, "float64", &i16_bytes(&[0, 6])).unwrap_err(),
        encoded_data_type(&list, "float64").unwrap_err(),
    ] {
        assert_eq!(e.code, ErrorCode::InvalidMetadata);
        assert_eq!(
            e.path.as_deref(),
            Some(if e.message.contains("/codecs") {
                "/codecs/64"
            } else {
                "/64"
            })
        );
        assert!(e.message.contains(&msg), "{e}");
    }
    // 20,000 codecs: refused at once, not bound one by one; 100,000 (the issue's example) are
    // more JSON values than a document may hold.
    let t = std::time::Instant::now();
    for (n, say) in [
        (20_000, "this one has 20001"),
        (100_000, "more than 262144 JSON values"),
    ] {
        let huge = format!("[{},{cast},{BYTES}]", scale_offsets(n));
        let e = decode_chunk(&doc(2, "float64", &huge, ""), &i16_bytes(&[0, 6])).unwrap_err();
        assert_eq!(e.code, ErrorCode::InvalidMetadata);
        assert!(e.message.contains(say), "{e}");
    }
    assert!(t.elapsed() < std::time::Duration::from_secs(5));
}

/// A zarr.json whose `attributes` hold `n` numbers (and nested objects), with the chunk codecs
/// `codecs`: the document decodes like the same document without attributes.
fn with_attributes(n: usize, codecs: &str) -> String {
    let numbers: String = (0..n).map(|i| format!("{}.5,", i % 1000)).collect();
    let attrs = format!(
        r#","attributes":{{"data":[{numbers}0],"nested":{{"a":[[{{"b":null}}]],"s":"\u00e9\"x"}}}}"#
    );
    doc(4, "float32", codecs, &attrs)
}

#[test]
fn huge_attributes_are_skipped_not_built() {
    let codecs = &format!(
        r#"[{{"name":"scale_offset","configuration":{{"offset":1000,"scale":10}}}},{{"name":"cast_value","configuration":{{"data_type":"int16"}}}},{BYTES}]"#
    );
    // 4 x MAX_VALUES numbers: far more values than a parsed tree may hold.
    let m = with_attributes(4 * MAX_VALUES, codecs);
    let stored = i16_bytes(&[0, 5, -10, 20]);
    let want = f32_bytes(&[1000.0, 1000.5, 999.0, 1002.0]);
    assert_eq!(decode_chunk(&m, &stored).unwrap(), want);
    assert!(validate(&m, None).is_ok());
    assert_eq!(metadata_warnings(&m).unwrap(), []);
    // The same values anywhere the reader reads are over the cap: invalid_metadata, not memory.
    let bad = m.replace("\"attributes\"", "\"dimension_names\"");
    let e = decode_chunk(&bad, &stored).unwrap_err();
    assert_eq!(e.code, ErrorCode::InvalidMetadata);
    assert!(e.message.contains("more than 262144 JSON values"), "{e}");
    // What is skipped is still checked: syntax, depth and duplicate keys.
    let broken = m.replacen("0.5,1.5", "0.5,,1.5", 1);
    assert_eq!(
        decode_chunk(&broken, &stored).unwrap_err().code,
        ErrorCode::InvalidJson
    );
    let dup = m.replace(r#"{"b":null}"#, r#"{"b":null,"b":1}"#);
    let r = validate(&dup, None);
    let errors: Vec<&str> = r.errors.iter().map(|d| d.path.as_str()).collect();
    assert_eq!(errors, ["/attributes/nested/a/0/0/b"]);
    let deep = m.replace(
        r#"{"b":null}"#,
        &format!("{}{}", "[".repeat(130), "]".repeat(130)),
    );
    assert!(decode_chunk(&deep, &stored)
        .unwrap_err()
        .message
        .contains("nested deeper than 128"));
}

#[test]
fn ignored_members_are_exactly_the_unread_ones() {
    let codecs = &format!("[{BYTES}]");
    // attributes must still be an object (an array is read in full, then rejected).
    let r = validate(
        &doc(4, "float32", codecs, r#","attributes":[1,{"a":1,"a":2}]"#),
        None,
    );
    let errors: Vec<(&str, &str)> = r
        .errors
        .iter()
        .map(|d| (d.path.as_str(), d.message.as_str()))
        .collect();
    assert_eq!(errors.len(), 2);
    assert!(errors.contains(&(
        "/attributes",
        "attributes must be an object, found an array"
    )));
    assert!(errors.iter().any(|e| e.0 == "/attributes/1/a"));
    // An extension with must_understand: false: only must_understand is read; duplicates and
    // syntax inside the rest are still errors.
    let ext = r#","ext":{"must_understand":false,"big":[[1,2],{"k":[{"q":1,"q":2}]}]}"#;
    let r = validate(&doc(4, "float32", codecs, ext), None);
    let errors: Vec<&str> = r.errors.iter().map(|d| d.path.as_str()).collect();
    assert_eq!(errors, ["/ext/big/1/k/0/q"]);
    let ok = r#","ext":{"big":[[1,2]],"must_understand":false}"#;
    assert!(validate(&doc(4, "float32", codecs, ok), None).is_ok());
    let v = parse_document(&doc(4, "float32", codecs, ok)).unwrap();
    assert_eq!(
        v.get("ext").unwrap().to_json_string(),
        r#"{"big":[],"must_understand":false}"#
    );
    // An unknown key whose value is an array: skipped, still "unknown field" in v3.
    let r = validate(&doc(4, "float32", codecs, r#","foo":[1,2]"#), None);
    assert_eq!(r.errors[0].path, "/foo");
    // v2: unknown keys are ignored (a warning), their contents skipped; attributes likewise.
    let z = r#"{"zarr_format":2,"shape":[2],"chunks":[2],"dtype":"<f4","compressor":null,"fill_value":0,"order":"C","filters":null,"foo":{"x":[1,2,3]},"attributes":{"y":[4]}}"#;
    let v = parse_document(z).unwrap();
    assert_eq!(v.get("foo").unwrap().to_json_string(), r#"{"x":[]}"#);
    assert_eq!(v.get("attributes").unwrap().to_json_string(), "{}");
    assert_eq!(
        decode_chunk(z, &f32_bytes(&[1.5, 2.0])).unwrap(),
        f32_bytes(&[1.5, 2.0])
    );
    // What is read is never skipped: the full tree equals the parsed one outside ignored members.
    let m = doc(4, "float32", codecs, "");
    assert_eq!(parse_document(&m).unwrap(), parse(&m).unwrap());
    // A codec object (validate): its configuration is read.
    let c = r#"{"name":"scale_offset","configuration":{"offset":[1],"scale":2}}"#;
    assert_eq!(parse_document(c).unwrap(), parse(c).unwrap());
}

/// zarrs writes `numcodecs.fixedscaleoffset` with `"astype": null`; numcodecs and zarr-python
/// read it as `astype = dtype`. It decodes exactly as the explicit form, with a warning.
#[test]
fn astype_null_is_dtype_with_a_warning() {
    let cfg = |astype: &str| {
        format!(
            r#"[{{"name":"numcodecs.fixedscaleoffset","configuration":{{"offset":1000.0,"scale":10.0,"dtype":"<f4","astype":{astype}}}}},{BYTES}]"#
        )
    };
    let (null, explicit) = (
        doc(4, "float32", &cfg("null"), ""),
        doc(4, "float32", &cfg("\"<f4\""), ""),
    );
    let stored = f32_bytes(&[0.0, 5.0, -10.0, 20.0]);
    let want = f32_bytes(&[1000.0, 1000.5, 999.0, 1002.0]);
    assert_eq!(decode_chunk(&null, &stored).unwrap(), want);
    assert_eq!(decode_chunk(&explicit, &stored).unwrap(), want);
    // Bit-exact against the explicit form on many codes.
    let codes: Vec<f32> = (0..4096)
        .map(|i| f32::from_bits(0x3f80_0000u32.wrapping_add(i * 977)))
        .collect();
    let big = |astype: &str| doc(4096, "float32", &cfg(astype), "");
    assert_eq!(
        decode_chunk(&big("null"), &f32_bytes(&codes)).unwrap(),
        decode_chunk(&big("\"<f4\""), &f32_bytes(&codes)).unwrap()
    );
    let w = metadata_warnings(&null).unwrap();
    let read_only = metadata_warnings(&explicit).unwrap(); // numcodecs.fixedscaleoffset is read-only
    assert_eq!(read_only.len(), 1);
    assert_eq!(w.len(), 2);
    assert_eq!(w[1], read_only[0]);
    assert_eq!(w[0].pointer, "/codecs/0/configuration/astype");
    assert_eq!(
        w[0].message,
        "astype is null; numcodecs reads it as dtype; write \"astype\": \"float32\""
    );
    let r = validate(&null, None);
    assert!(r.is_ok());
    assert_eq!(r.warnings[0].code, "lenient_form");
    // The v2 filter form.
    let z = r#"{"zarr_format":2,"shape":[4],"chunks":[4],"dtype":"<f4","compressor":null,"fill_value":0,"order":"C","filters":[{"id":"fixedscaleoffset","offset":1000,"scale":10,"dtype":"<f4","astype":null}]}"#;
    assert_eq!(decode_chunk(z, &stored).unwrap(), want);
    let w = metadata_warnings(z).unwrap();
    assert_eq!(w.len(), 2); // and: numcodecs.fixedscaleoffset is read-only
    assert_eq!(w[0].pointer, "/filters/0/astype");
    assert!(w[0].message.starts_with("astype is null;"));
    // Integer data: astype null is int16.
    let zi = z
        .replace("<f4", "<i2")
        .replace("\"scale\":10", "\"scale\":1")
        .replace("\"offset\":1000", "\"offset\":0");
    assert_eq!(
        decode_chunk(&zi, &i16_bytes(&[-7, 0, 7, 32767])).unwrap(),
        i16_bytes(&[-7, 0, 7, 32767])
    );
    // fromFixedScaleOffset: the same as with astype spelled out.
    let c = r#"{"offset":1000,"scale":10,"dtype":"<f4","astype":null}"#;
    assert_eq!(
        from_fixed_scale_offset(c, None).unwrap(),
        from_fixed_scale_offset(&c.replace("null", "\"<f4\""), None).unwrap()
    );
    // Any other non-string astype is still an error.
    let e = decode_chunk(&doc(4, "float32", &cfg("1"), ""), &stored).unwrap_err();
    assert_eq!(e.code, ErrorCode::InvalidMetadata);
}
