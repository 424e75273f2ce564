//! Duplicate JSON keys are `invalid_metadata` at the pointer of the duplicate, in every object of
//! every JSON text input: the cases of `tests/duplicate_keys.json` (shared with the JS tests)
//! through `validate` and through the strict API.
// Test code may unwrap, index and panic (the workspace lints deny them in the library).
#![allow(clippy::restriction)]

use zarr_scale_offset::internals::chain::{parse_entry, Chain};
use zarr_scale_offset::internals::codec::fixedscaleoffset::FixedScaleOffset;
use zarr_scale_offset::internals::codec::scale_offset::Convention;
use zarr_scale_offset::internals::codec::{Bytes, CastValue, ScaleOffset};
use zarr_scale_offset::internals::json::data_type::read_data_type;
use zarr_scale_offset::internals::json::{parse, Json};
use zarr_scale_offset::DataType::Float64;
use zarr_scale_offset::Report;
use zarr_scale_offset::{
    bind, decode, decode_chunk, encode, encode_chunk, encoded_data_type, from_cf,
    from_fixed_scale_offset, metadata_warnings, validate, Error, ErrorCode, Result,
};

fn fixture() -> Json {
    let path = concat!(env!("CARGO_MANIFEST_DIR"), "/tests/duplicate_keys.json");
    parse(&std::fs::read_to_string(path).unwrap()).unwrap()
}

fn text<'a>(v: &'a Json, key: &str) -> &'a str {
    v.get(key)
        .and_then(Json::as_str)
        .unwrap_or_else(|| panic!("{key} in {}", v.to_json_string()))
}

/// The case's input text: for api "array", its base with `find` replaced by `replace`.
fn array_text(fx: &Json, case: &Json) -> (String, usize) {
    let base = fx.get("bases").unwrap().get(text(case, "base")).unwrap();
    let (b, find) = (text(base, "text"), text(case, "find"));
    assert_eq!(b.matches(find).count(), 1, "{find}");
    let n = base.get("stored_bytes").unwrap().as_number().unwrap();
    (
        b.replacen(find, text(case, "replace"), 1),
        n.parse().unwrap(),
    )
}

fn bytes_per_element(typed_array: &str) -> usize {
    match typed_array {
        "Float32Array" => 4,
        "Float64Array" => 8,
        other => panic!("{other}"),
    }
}

/// `validate` reports the duplicate once, at its pointer, as `invalid_metadata` (and, when the
/// case says so, nothing else).
fn check_validate(id: &str, metadata: &str, data_type: Option<&str>, pointer: &str, only: bool) {
    let r = validate(metadata, data_type);
    let errors: Vec<(&str, &str)> = r.errors.iter().map(|d| (d.path.as_str(), d.code)).collect();
    let dup = (pointer, ErrorCode::InvalidMetadata.as_str());
    if only {
        assert_eq!(errors, [dup], "{id}");
    } else {
        assert_eq!(
            errors.iter().filter(|e| **e == dup).count(),
            1,
            "{id}: {errors:?}"
        );
    }
    let d = r.errors.iter().find(|d| d.path == pointer).unwrap();
    assert!(
        d.message.starts_with("duplicate key"),
        "{id}: {}",
        d.message
    );
}

/// A strict call fails with the duplicate as its (first) error.
fn check_strict<T: std::fmt::Debug>(id: &str, what: &str, r: Result<T>, pointer: &str) {
    let e: Error = r.expect_err(&format!("{id}: {what} accepted a duplicate key"));
    assert_eq!(e.code, ErrorCode::InvalidMetadata, "{id}: {what}: {e}");
    assert_eq!(e.path.as_deref(), Some(pointer), "{id}: {what}: {e}");
    assert!(
        e.message.starts_with(&format!("{pointer}: duplicate key")),
        "{id}: {e}"
    );
}

#[test]
fn the_bases_are_valid() {
    let fx = fixture();
    for (name, base) in fx.get("bases").unwrap().as_object().unwrap() {
        let b = text(base, "text");
        let r = validate(b, None);
        assert!(r.is_ok(), "{name}: {:?}", r.errors);
        let n: usize = base
            .get("stored_bytes")
            .unwrap()
            .as_number()
            .unwrap()
            .parse()
            .unwrap();
        decode_chunk(b, &vec![0; n]).unwrap();
    }
}

#[test]
fn every_duplicate_key_is_invalid_metadata_at_its_pointer() {
    let fx = fixture();
    let cases = fx.get("cases").unwrap().as_array().unwrap();
    assert!(cases.len() >= 40);
    for case in cases {
        let id = text(case, "id");
        let pointer = text(case, "pointer");
        let only = case.get("only").and_then(Json::as_bool).unwrap();
        match text(case, "api") {
            "array" => {
                let (doc, n) = array_text(&fx, case);
                check_validate(id, &doc, None, pointer, only);
                let err = decode_chunk(&doc, &vec![0; n]).unwrap_err();
                if only {
                    check_strict(id, "decode_chunk", decode_chunk(&doc, &vec![0; n]), pointer);
                    check_strict(id, "encode_chunk", encode_chunk(&doc, &[0; 16]), pointer);
                    check_strict(id, "metadata_warnings", metadata_warnings(&doc), pointer);
                } else {
                    assert_ne!(err.code, ErrorCode::LengthMismatch, "{id}");
                }
            }
            "codecs" => {
                let (c, dt) = (text(case, "codecs"), text(case, "data_type"));
                let data = vec![0u8; 4 * bytes_per_element(text(case, "typed_array"))];
                check_validate(id, c, Some(dt), pointer, only);
                check_strict(id, "encode", encode(c, dt, &data), pointer);
                check_strict(id, "decode", decode(c, dt, &data), pointer);
                check_strict(id, "encoded_data_type", encoded_data_type(c, dt), pointer);
                check_strict(id, "bind", bind(c, dt, None).map(|_| ()), pointer);
                check_strict(
                    id,
                    "bind (fill)",
                    bind(c, dt, Some("0")).map(|_| ()),
                    pointer,
                );
            }
            "validate" => {
                let dt = case.get("data_type").and_then(Json::as_str);
                check_validate(id, text(case, "metadata"), dt, pointer, only);
            }
            "from_cf" => {
                let r = from_cf(text(case, "attrs"), text(case, "packed"), None);
                check_strict(id, "from_cf", r, pointer);
            }
            "from_fixed_scale_offset" => {
                let r = from_fixed_scale_offset(text(case, "config"), Some("float64"));
                check_strict(id, "from_fixed_scale_offset", r, pointer);
            }
            other => panic!("{id}: unknown api {other}"),
        }
    }
}

/// Without their duplicate, the cases' inputs are accepted: the duplicate is what each one tests.
#[test]
fn without_the_duplicate_each_input_is_accepted() {
    let fx = fixture();
    for case in fx.get("cases").unwrap().as_array().unwrap() {
        let id = text(case, "id");
        if case.get("only").and_then(Json::as_bool) != Some(true) {
            continue;
        }
        // (A bare data type name is not JSON text: it stays as it is.)
        let undup = |t: &str| -> String {
            let Ok(mut v) = parse(t) else {
                return t.to_string();
            };
            dedup(&mut v);
            v.to_json_string()
        };
        match text(case, "api") {
            "array" => {
                // (A v2 compressor is an unsupported codec here, but valid metadata.)
                let r = validate(&undup(&array_text(&fx, case).0), None);
                assert!(
                    r.errors.iter().all(|d| d.code == "unsupported_codec"),
                    "{id}: {:?}",
                    r.errors
                );
            }
            "codecs" => {
                let (c, dt) = (undup(text(case, "codecs")), undup(text(case, "data_type")));
                encoded_data_type(&c, &dt).unwrap_or_else(|e| panic!("{id}: {e}"));
            }
            "validate" => {
                let r = validate(&undup(text(case, "metadata")), Some("float32"));
                assert!(r.is_ok(), "{id}: {:?}", r.errors);
            }
            "from_cf" => {
                let (a, p) = (undup(text(case, "attrs")), undup(text(case, "packed")));
                from_cf(&a, &p, None).unwrap_or_else(|e| panic!("{id}: {e}"));
            }
            "from_fixed_scale_offset" => {
                let c = undup(text(case, "config"));
                from_fixed_scale_offset(&c, Some("float64"))
                    .unwrap_or_else(|e| panic!("{id}: {e}"));
            }
            other => panic!("{id}: unknown api {other}"),
        }
    }
}

/// Drops the later copies of every duplicated key, everywhere (the first copy stays).
fn dedup(v: &mut Json) {
    match v {
        Json::Object(members) => {
            let mut seen: Vec<String> = Vec::new();
            members.retain(|(k, _)| {
                let first = !seen.contains(k);
                seen.push(k.clone());
                first
            });
            members.iter_mut().for_each(|(_, m)| dedup(m));
        }
        Json::Array(items) => items.iter_mut().for_each(dedup),
        _ => {}
    }
}

/// A repeated `scalar_map` ENTRY (two `[input, output]` pairs with the same input) is not a JSON
/// duplicate key: it stays a `duplicate_key` warning, the first entry winning.
#[test]
fn a_repeated_scalar_map_entry_stays_a_warning() {
    let c = r#"{"name":"cast_value","configuration":{"data_type":"uint8","scalar_map":{"encode":[[1,2],[1,3]]}}}"#;
    let r = validate(c, Some("float32"));
    assert!(r.is_ok(), "{:?}", r.errors);
    assert_eq!(r.warnings.len(), 1);
    assert_eq!(r.warnings[0].code, "duplicate_key");
    assert_eq!(r.warnings[0].path, "/configuration/scalar_map/encode/1/0");
    let (_, out) = encode(c, "float32", &1f32.to_le_bytes()).unwrap();
    assert_eq!(out, [2]);
}

/// Several duplicates in one document: each is reported once, in one pass.
#[test]
fn many_duplicates_each_reported_once() {
    let fx = fixture();
    let base = text(fx.get("bases").unwrap().get("v3").unwrap(), "text");
    let mut doc = base.to_string();
    let mut want = Vec::new();
    for case in fx.get("cases").unwrap().as_array().unwrap() {
        let id = text(case, "id");
        // These edit the same parts as others (or remove them).
        let skip = [
            "v3/skipped-codec",
            "v3/cf.scale_offset",
            "v3/extension/nested",
            "v3/numcodecs.fixedscaleoffset",
            "v3/scalar_map",
        ];
        if text(case, "api") != "array" || text(case, "base") != "v3" || skip.contains(&id) {
            continue;
        }
        if case.get("only").and_then(Json::as_bool) != Some(true) {
            continue;
        }
        let find = text(case, "find");
        assert_eq!(doc.matches(find).count(), 1, "{id}");
        doc = doc.replacen(find, text(case, "replace"), 1);
        want.push(text(case, "pointer").to_string());
    }
    let mut got: Vec<String> = validate(&doc, None)
        .errors
        .into_iter()
        .map(|d| {
            assert_eq!(d.code, "invalid_metadata");
            d.path
        })
        .collect();
    want.sort();
    got.sort();
    assert!(want.len() >= 15);
    assert_eq!(got, want);
}

/// Each parser reports a duplicated key of the objects it reads by itself (for callers that
/// parse a value without a whole-document check).
#[test]
fn every_parser_reports_its_duplicates() {
    let dup = |text: &str, parse: &dyn Fn(&Json, &mut Report)| {
        let v = parse_json(text);
        let mut r = Report::default();
        parse(&v, &mut r);
        r.errors
            .iter()
            .filter(|d| d.message.starts_with("duplicate key"))
            .map(|d| d.path.clone())
            .collect::<Vec<_>>()
    };
    fn parse_json(t: &str) -> Json {
        parse(t).unwrap()
    }
    let so = |v: &Json, r: &mut Report| {
        ScaleOffset::parse(Convention::ScaleOffset, Some(v), "/c", Float64, r);
    };
    assert_eq!(
        dup(r#"{"scale":2,"scale":3}"#, &so),
        ["/c/configuration/scale"]
    );
    let cv = |v: &Json, r: &mut Report| {
        CastValue::parse(Some(v), "/c", Float64, r);
    };
    let sm = r#"{"data_type":{"name":"uint8","name":"uint8"},"scalar_map":{"encode":[],"encode":[]},"rounding":"towards-zero","rounding":"towards-zero"}"#;
    assert_eq!(
        dup(sm, &cv),
        [
            "/c/configuration/rounding",
            "/c/configuration/data_type/name",
            "/c/configuration/scalar_map/encode"
        ]
    );
    let bytes = |v: &Json, r: &mut Report| {
        Bytes::parse(Some(v), "/c", Some(Float64), r);
    };
    let endian = r#"{"endian":"little","endian":"big"}"#;
    assert_eq!(dup(endian, &bytes), ["/c/configuration/endian"]);
    let fso = |v: &Json, r: &mut Report| {
        FixedScaleOffset::parse(Some(v), "/c", Float64, r);
    };
    let cfg = r#"{"offset":0,"scale":10,"dtype":"<f8","dtype":"<f8","astype":"<i4"}"#;
    assert_eq!(dup(cfg, &fso), ["/c/configuration/dtype"]);
    let entry = |v: &Json, r: &mut Report| {
        parse_entry(v, "/c", 0, r);
    };
    assert_eq!(dup(r#"{"name":"a","name":"b"}"#, &entry), ["/c/name"]);
    let dt = |v: &Json, r: &mut Report| {
        read_data_type(v, "/d", r);
    };
    assert_eq!(dup(r#"{"name":"int8","name":"uint8"}"#, &dt), ["/d/name"]);
    let chain = |v: &Json, r: &mut Report| {
        Chain::bind(v, "/codecs", Some(Float64), None, r);
    };
    let list = r#"[{"name":"bytes","configuration":{"endian":"big","endian":"big"}}]"#;
    assert_eq!(dup(list, &chain), ["/codecs/0/configuration/endian"]);
}
