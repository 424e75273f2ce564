//! Hostile inputs through the `#[wasm_bindgen]` exports, in the real wasm32 build (32-bit
//! `usize`, the wasm stack, a wasm trap on panic), run in Node (`tests/wasm_hostile.rs`) and in
//! headless Chromium (`tests/wasm_hostile_web.rs`). Every case must come back as a JS `Error`
//! with a documented `.code`, wasm memory must not grow for metadata that is rejected, and a
//! known chunk must still decode correctly after every case (a trap would poison the module).

#![allow(dead_code)]

use wasm_bindgen::{JsCast, JsValue};
#[path = "w.rs"]
mod w;

/// The `.code` values the guides document (docs/guides/javascript.md, rust.md).
pub const CODES: [&str; 9] = [
    "invalid_json",
    "invalid_metadata",
    "unsupported_data_type",
    "unsupported_codec",
    "out_of_range",
    "not_representable",
    "length_mismatch",
    "invalid_data",
    "read_only",
];

/// A float32 array of `chunk` (JSON text) elements with scale 2 and the given extra members.
pub fn meta(chunk: &str, shape: &str, extra: &str) -> String {
    format!(
        r#"{{"zarr_format":3,"node_type":"array","shape":{shape},"data_type":"float32","chunk_grid":{{"name":"regular","configuration":{{"chunk_shape":{chunk}}}}},"chunk_key_encoding":{{"name":"default"}},"fill_value":0,"codecs":[{{"name":"scale_offset","configuration":{{"scale":2}}}},{{"name":"bytes","configuration":{{"endian":"little"}}}}]{extra}}}"#
    )
}

fn f32s(v: &[f32]) -> Vec<u8> {
    v.iter().flat_map(|x| x.to_le_bytes()).collect()
}

/// The module still works: a known chunk decodes to the known values.
pub fn still_decodes(after: &str) {
    let m = meta("[4]", "[4]", "");
    let got = w::decode_chunk(&m, &f32s(&[2.0, 4.0, -6.0, 1e30])).unwrap_or_else(|e| {
        panic!(
            "after {after}: a valid chunk no longer decodes: {}",
            describe(&e)
        )
    });
    assert_eq!(got, f32s(&[1.0, 2.0, -3.0, 5e29]), "after {after}");
}

/// `code: message` of a thrown value.
pub fn describe(e: &JsValue) -> String {
    let code = js_sys::Reflect::get(e, &"code".into())
        .ok()
        .and_then(|c| c.as_string())
        .unwrap_or_default();
    let msg = e
        .dyn_ref::<js_sys::Error>()
        .map(|e| String::from(e.message()))
        .unwrap_or_else(|| format!("{e:?}"));
    format!("{code}: {msg}")
}

/// Asserts `r` failed with a JS `Error` whose `.code` is `code` (and documented).
pub fn expect_code<T: std::fmt::Debug>(what: &str, r: Result<T, JsValue>, code: &str) -> JsValue {
    let e = match r {
        Ok(v) => panic!("{what}: expected a thrown Error with code {code}, got Ok({v:?})"),
        Err(e) => e,
    };
    assert!(
        e.is_instance_of::<js_sys::Error>(),
        "{what}: not an Error: {e:?}"
    );
    let got = js_sys::Reflect::get(&e, &"code".into())
        .ok()
        .and_then(|c| c.as_string())
        .unwrap_or_default();
    assert!(
        CODES.contains(&got.as_str()),
        "{what}: undocumented code {got:?}"
    );
    assert_eq!(got, code, "{what}: {}", describe(&e));
    still_decodes(what);
    e
}

fn memory_bytes() -> f64 {
    let m: js_sys::WebAssembly::Memory = wasm_bindgen::memory().unchecked_into();
    m.buffer()
        .unchecked_into::<js_sys::ArrayBuffer>()
        .byte_length() as f64
}

/// Huge, negative, fractional, non-numeric and overflowing shapes: rejected as metadata (or as
/// a length mismatch), before any allocation.
pub fn huge_and_bad_shapes() {
    let before = memory_bytes();
    let b16 = f32s(&[0.0; 4]);
    for (chunk, shape, code) in [
        ("[1152921504606846976]", "[4]", "invalid_metadata"), // 2^60 elements
        ("[1073741824,1073741824]", "[4,4]", "invalid_metadata"), // 2^60 as a product
        // (An array shape of 2^60 with chunks of [4] is valid: only a chunk is allocated.)
        ("[18446744073709551616]", "[4]", "invalid_metadata"), // 2^64
        ("[-1]", "[4]", "invalid_metadata"),
        ("[1.5]", "[4]", "invalid_metadata"),
        ("[4.0]", "[4]", "invalid_metadata"),
        ("[1e3]", "[4]", "invalid_metadata"),
        ("[null]", "[4]", "invalid_metadata"),
        ("[\"4\"]", "[4]", "invalid_metadata"),
        ("[0]", "[4]", "invalid_metadata"),
        ("4", "[4]", "invalid_metadata"),
        ("[4]", "[-4]", "invalid_metadata"),
        // 2^27 float32 elements (512 MiB): valid metadata, but 16 bytes are not that chunk.
        ("[134217728]", "[134217728]", "length_mismatch"),
    ] {
        let m = meta(chunk, shape, "");
        expect_code(
            &format!("decodeChunk chunk_shape {chunk} shape {shape}"),
            w::decode_chunk(&m, &b16),
            code,
        );
        expect_code(
            &format!("encodeChunk chunk_shape {chunk} shape {shape}"),
            w::encode_chunk(&m, &b16),
            code,
        );
    }
    assert!(
        memory_bytes() <= before + 1_048_576.0,
        "rejected metadata grew wasm memory from {before} to {} bytes",
        memory_bytes()
    );
}

/// A chunk product beyond 2^64 (every dimension fine on its own): an error that names the
/// chunk shape, and validate() must not call the document valid. (Bug: the overflow was
/// dropped silently, validate() said valid and decodeChunk said only "invalid metadata".)
pub fn chunk_shape_product_overflow_names_the_field() {
    let m = meta("[4294967296,4294967296,16]", "[4,4,4]", "");
    let e = expect_code(
        "chunk_shape product > 2^64",
        w::decode_chunk(&m, &[0u8; 16]),
        "invalid_metadata",
    );
    assert!(
        describe(&e).contains("/chunk_grid/configuration/chunk_shape"),
        "the error does not name the chunk shape: {}",
        describe(&e)
    );
    let r = w::validate(&m, None);
    let valid = js_sys::Reflect::get(&r, &"valid".into()).unwrap();
    assert_eq!(
        valid.as_bool(),
        Some(false),
        "validate() calls a chunk of 2^68 elements valid"
    );
}

/// NaN and other non-numbers where scalars belong.
pub fn nan_scalars() {
    let so = |cfg: &str| format!(r#"{{"name":"scale_offset","configuration":{cfg}}}"#);
    for (codecs, dt, code) in [
        (so(r#"{"scale":null}"#), "float32", "invalid_metadata"),
        (so(r#"{"scale":"NaN"}"#), "int16", "invalid_metadata"),
        (so(r#"{"offset":"nan"}"#), "uint8", "invalid_metadata"),
        (so(r#"{"scale":NaN}"#), "float32", "invalid_json"),
        (so(r#"{"scale":Infinity}"#), "float64", "invalid_json"),
        (so(r#"{"scale":"0x7fc00000"}"#), "int32", "invalid_metadata"),
        (so(r#"{"scale":[1]}"#), "float32", "invalid_metadata"),
        (so(r#"{"scale":{}}"#), "float32", "invalid_metadata"),
        (so(r#"{"scale":1e999999999}"#), "int64", "invalid_metadata"),
        (so(r#"{"scale":"-0"}"#), "float64", "invalid_metadata"),
        (
            r#"{"name":"cast_value","configuration":{"data_type":"uint8","scalar_map":{"encode":[[null,0]]}}}"#.into(),
            "float32",
            "invalid_metadata",
        ),
        (
            r#"{"name":"cast_value","configuration":{"data_type":"uint8","scalar_map":{"encode":[["NaN","NaN"]]}}}"#.into(),
            "float32",
            "invalid_metadata",
        ),
    ] {
        expect_code(&format!("encodeArray {codecs} {dt}"), w::encode_array(&codecs, dt, &[0u8; 8]), code);
        expect_code(&format!("decodeArray {codecs} {dt}"), w::decode_array(&codecs, dt, &[0u8; 8]), code);
    }
    // A NaN fill value for an integer type.
    let m = r#"{"zarr_format":3,"node_type":"array","shape":[2],"data_type":"int8","chunk_grid":{"name":"regular","configuration":{"chunk_shape":[2]}},"chunk_key_encoding":{"name":"default"},"fill_value":"NaN","codecs":["bytes"]}"#;
    expect_code(
        "int8 fill NaN",
        w::decode_chunk(m, &[0, 0]),
        "invalid_metadata",
    );
}

/// 10 MB of JSON (valid: decodes; truncated: invalid_json) and deep nesting.
pub fn big_and_deep_json() {
    let big = meta(
        "[4]",
        "[4]",
        &format!(r#","attributes":{{"s":"{}"}}"#, "x".repeat(10 << 20)),
    );
    let got = w::decode_chunk(&big, &f32s(&[2.0, 4.0, 6.0, 8.0]))
        .expect("10 MB of valid metadata decodes");
    assert_eq!(got, f32s(&[1.0, 2.0, 3.0, 4.0]));
    expect_code(
        "10 MB truncated",
        w::decode_chunk(&big[..big.len() - 2], &[0u8; 16]),
        "invalid_json",
    );
    let list = format!("[{}]", vec!["1"; 200_000].join(","));
    expect_code(
        "200,000 codecs",
        w::decode_array(&list, "float32", &[0u8; 4]),
        "invalid_metadata",
    );
    for depth in [129, 10_000, 1_000_000] {
        let deep = "[".repeat(depth);
        expect_code(
            &format!("[ x {depth}"),
            w::decode_chunk(&deep, &[]),
            "invalid_json",
        );
        let deep = format!("{}1{}", "[".repeat(depth), "]".repeat(depth));
        expect_code(
            &format!("[[1]] depth {depth}"),
            w::decode_chunk(&deep, &[]),
            "invalid_json",
        );
        let attrs = format!(
            r#","attributes":{{"a":{}1{}}}"#,
            "{\"a\":".repeat(depth),
            "}".repeat(depth)
        );
        expect_code(
            &format!("attributes depth {depth}"),
            w::decode_chunk(&meta("[4]", "[4]", &attrs), &[0u8; 16]),
            "invalid_json",
        );
        let r = w::validate(&deep, None);
        assert_eq!(
            js_sys::Reflect::get(&r, &"valid".into()).unwrap().as_bool(),
            Some(false)
        );
    }
    // Nesting at the limit is fine.
    let ok = format!(
        r#","attributes":{{"a":{}1{}}}"#,
        "[".repeat(120),
        "]".repeat(120)
    );
    assert!(w::decode_chunk(&meta("[4]", "[4]", &ok), &[0u8; 16]).is_ok());
    // Broken text of every kind.
    for bad in [
        "",
        "{",
        "\u{0}",
        "\"\\ud800\"",
        "{\"a\":1,}",
        "nul",
        "1e",
        "{\"zarr_format\":3",
        "\"\\u12\"",
    ] {
        expect_code(
            &format!("text {bad:?}"),
            w::decode_chunk(bad, &[]),
            "invalid_json",
        );
    }
}

/// Chunks of the wrong byte length, and in-memory values that do not fit their type.
pub fn wrong_lengths_and_values() {
    let m = meta("[4]", "[4]", "");
    for n in [0usize, 1, 3, 15, 17, 32, 1 << 20] {
        expect_code(
            &format!("decodeChunk {n} bytes"),
            w::decode_chunk(&m, &vec![0u8; n]),
            "length_mismatch",
        );
        expect_code(
            &format!("encodeChunk {n} bytes"),
            w::encode_chunk(&m, &vec![0u8; n]),
            "length_mismatch",
        );
    }
    for n in [1usize, 3, 5, 7] {
        expect_code(
            &format!("decodeArray float32 {n} bytes"),
            w::decode_array("scale_offset", "float32", &vec![0u8; n]),
            "length_mismatch",
        );
        expect_code(
            &format!("encodeArray float64 {n} bytes"),
            w::encode_array("scale_offset", "float64", &vec![0u8; n]),
            "length_mismatch",
        );
    }
    // int4 in memory is a sign-extended int8: 100 is not an int4.
    expect_code(
        "int4 100",
        w::encode_array("scale_offset", "int4", &[100]),
        "invalid_data",
    );
    expect_code(
        "uint2 4",
        w::encode_array("scale_offset", "uint2", &[4]),
        "invalid_data",
    );
    // Data types that are not one of the 26.
    for dt in [
        "",
        "float",
        "complex64",
        "bool",
        "r16",
        "Float32",
        "float32\u{0}",
        "{\"name\":{}}",
        "[\"float32\"]",
        "\"int8",
    ] {
        let r = w::encode_array("scale_offset", dt, &[0u8; 4]);
        let e = r.expect_err(dt);
        let code = describe(&e);
        assert!(
            code.starts_with("unsupported_data_type")
                || code.starts_with("invalid_metadata")
                || code.starts_with("invalid_json"),
            "data type {dt:?}: {code}"
        );
        still_decodes(dt);
    }
}

/// Decoding many chunks does not grow wasm memory past twice its size after the first 100.
pub fn memory_stays_bounded() {
    let m = meta("[1024]", "[1024]", "");
    let stored = f32s(&[3.0; 1024]);
    let mut peak = 0.0;
    for i in 0..3000 {
        let out = w::decode_chunk(&m, &stored).expect("decode");
        assert_eq!(out.len(), 4096);
        if i == 99 {
            peak = memory_bytes();
        }
    }
    assert!(
        memory_bytes() <= 2.0 * peak,
        "memory grew from {peak} to {}",
        memory_bytes()
    );
}

/// A metadata text longer than `CACHE_MAX_KEY_BYTES` is bound on every call and never kept by
/// the bound-chain cache (which holds at most `CACHE_MAX_BYTES` per kind, by estimate).
pub fn big_metadata_is_not_cached() {
    let stored = js_sys::Uint8Array::from(&f32s(&[2.0, 4.0, 6.0, 8.0])[..]);
    let small = meta("[4]", "[4]", "");
    w::decode_chunk_js(&small, &stored).expect("small");
    let before = w::cache_usage();
    for i in 0..20 {
        let pad = "x".repeat(w::CACHE_MAX_KEY_BYTES);
        let big = meta(
            "[4]",
            "[4]",
            &format!(r#","attributes":{{"i":{i},"s":"{pad}"}}"#),
        );
        let out = w::decode_chunk_js(&big, &stored).expect("decode");
        assert_eq!(out.to_vec(), f32s(&[1.0, 2.0, 3.0, 4.0]));
        assert_eq!(w::array_data_type(&big).expect("data type"), "float32");
    }
    assert_eq!(w::cache_usage(), before, "a key over the bound was cached");
    assert!(before.1 <= 2 * w::CACHE_MAX_BYTES);
    // Small keys are still cached (and a hit returns the right chain).
    let other = meta("[2]", "[2]", "");
    let two = js_sys::Uint8Array::from(&f32s(&[2.0, 4.0])[..]);
    for _ in 0..2 {
        let out = w::decode_chunk_js(&other, &two).expect("decode");
        assert_eq!(out.to_vec(), f32s(&[1.0, 2.0]));
    }
    assert!(w::cache_usage().1 <= 2 * w::CACHE_MAX_BYTES);
}

/// The caches are bounded by bytes, not entries: 1,000 distinct small documents and 300
/// distinct documents of 60 KiB (each under the key limit) leave at most `CACHE_MAX_BYTES` per
/// cache (by the entry estimate), and every call is still right.
pub fn caches_are_bounded_by_bytes() {
    let stored = js_sys::Uint8Array::from(&f32s(&[2.0, 4.0, 6.0, 8.0])[..]);
    for (n, pad) in [(1000, 0), (300, 60 * 1024)] {
        for i in 0..n {
            let pad = "x".repeat(pad);
            let m = meta(
                "[4]",
                "[4]",
                &format!(r#","attributes":{{"i":{i},"s":"{pad}"}}"#),
            );
            let out = w::decode_chunk_js(&m, &stored).expect("decode");
            assert_eq!(out.to_vec(), f32s(&[1.0, 2.0, 3.0, 4.0]));
            let (entries, bytes) = w::cache_usage();
            assert!(bytes <= 2 * w::CACHE_MAX_BYTES, "{bytes}");
            assert!(
                entries <= 2 * w::CACHE_MAX_BYTES / w::entry_cost(0),
                "{entries}"
            );
        }
    }
    // The array API's cache likewise (keys: codecs text and data type).
    for i in 0..1000 {
        let codecs =
            format!(r#"[{{"name":"scale_offset","configuration":{{"offset":{i},"scale":1}}}}]"#);
        let out = w::encoded_data_type(&codecs, "float64").expect("bind");
        assert_eq!(out, "float64");
        assert!(w::cache_usage().1 <= 2 * w::CACHE_MAX_BYTES);
    }
}

/// Expands to one `#[wasm_bindgen_test]` per case.
macro_rules! hostile_tests {
    () => {
        #[wasm_bindgen_test::wasm_bindgen_test]
        fn huge_and_bad_shapes() {
            hostile::huge_and_bad_shapes()
        }
        #[wasm_bindgen_test::wasm_bindgen_test]
        fn chunk_shape_product_overflow_names_the_field() {
            hostile::chunk_shape_product_overflow_names_the_field()
        }
        #[wasm_bindgen_test::wasm_bindgen_test]
        fn nan_scalars() {
            hostile::nan_scalars()
        }
        #[wasm_bindgen_test::wasm_bindgen_test]
        fn caches_are_bounded_by_bytes() {
            hostile::caches_are_bounded_by_bytes()
        }
        #[wasm_bindgen_test::wasm_bindgen_test]
        fn big_and_deep_json() {
            hostile::big_and_deep_json()
        }
        #[wasm_bindgen_test::wasm_bindgen_test]
        fn wrong_lengths_and_values() {
            hostile::wrong_lengths_and_values()
        }
        #[wasm_bindgen_test::wasm_bindgen_test]
        fn memory_stays_bounded() {
            hostile::memory_stays_bounded()
        }
        #[wasm_bindgen_test::wasm_bindgen_test]
        fn big_metadata_is_not_cached() {
            hostile::big_metadata_is_not_cached()
        }
    };
}
pub(crate) use hostile_tests;
