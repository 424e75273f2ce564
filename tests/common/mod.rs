//! Shared body of the wasm-bindgen tests (`tests/wasm_node.rs` runs them in Node,
//! `tests/wasm_web.rs` in headless Chromium). They call the `#[wasm_bindgen]` exports of
//! `zarr_scale_offset::wasm` exactly as JS does (JSON text + raw little-endian bytes) for every
//! one of the 26 data types, and check that failures arrive as JS `Error`s with a `code`.
//!
//! The sample values and the expected results are computed here from first principles (a
//! generic minifloat decoder and f64 arithmetic), independently of the crate's numeric core.

#![allow(dead_code)]

use wasm_bindgen::{JsCast, JsValue};
#[path = "w.rs"]
mod w;

/// How the in-memory bytes of a data type map to numbers, for the test's own reference values.
#[derive(Clone, Copy)]
pub enum Fmt {
    /// A signed integer of `bits` bits, sign-extended into `size` bytes.
    Int,
    /// An unsigned integer.
    UInt,
    /// A float: exponent bits, mantissa bits, bias, whether it has a sign bit.
    Float {
        e: u32,
        m: u32,
        bias: i32,
        signed: bool,
    },
    /// IEEE binary32 / binary64 (read natively).
    F32,
    F64,
}

/// One data type: name, bytes per element in memory, JS typed-array kind, format, and sample
/// raw codes (as u64 bit patterns; signed integers as i64 values) that are finite, not -0, and
/// whose value v makes (v - 1) * 2 round-trip exactly through float64 scale_offset.
pub struct Case {
    pub name: &'static str,
    pub size: usize,
    pub kind: &'static str,
    pub fmt: Fmt,
    pub samples: &'static [i128],
    /// The fill value as JSON text (float8_e8m0fnu has no zero).
    pub fill: &'static str,
}

const fn fl(e: u32, m: u32, bias: i32) -> Fmt {
    Fmt::Float {
        e,
        m,
        bias,
        signed: true,
    }
}

/// The 26 data types.
pub const CASES: [Case; 26] = [
    Case {
        name: "int2",
        size: 1,
        kind: "Int8Array",
        fmt: Fmt::Int,
        samples: &[-2, -1, 0, 1],
        fill: "0",
    },
    Case {
        name: "int4",
        size: 1,
        kind: "Int8Array",
        fmt: Fmt::Int,
        samples: &[-8, -1, 0, 7, 3],
        fill: "0",
    },
    Case {
        name: "int8",
        size: 1,
        kind: "Int8Array",
        fmt: Fmt::Int,
        samples: &[-128, -1, 0, 127, 42],
        fill: "0",
    },
    Case {
        name: "int16",
        size: 2,
        kind: "Int16Array",
        fmt: Fmt::Int,
        samples: &[-32768, -1, 0, 32767, 1234],
        fill: "0",
    },
    Case {
        name: "int32",
        size: 4,
        kind: "Int32Array",
        fmt: Fmt::Int,
        samples: &[-2147483648, -1, 0, 2147483647, 123456789],
        fill: "0",
    },
    Case {
        name: "int64",
        size: 8,
        kind: "BigInt64Array",
        fmt: Fmt::Int,
        // -2^63, +-2^52 and 2^62 are exact in float64; so is v - 1 for +-2^52, and for -2^63 and
        // 2^62 it rounds back to v, so that the f64 round trip is exact.
        samples: &[
            -9223372036854775808,
            -4503599627370496,
            -1,
            0,
            4503599627370496,
            4611686018427387904,
        ],
        fill: "0",
    },
    Case {
        name: "uint2",
        size: 1,
        kind: "Uint8Array",
        fmt: Fmt::UInt,
        samples: &[0, 1, 2, 3],
        fill: "0",
    },
    Case {
        name: "uint4",
        size: 1,
        kind: "Uint8Array",
        fmt: Fmt::UInt,
        samples: &[0, 1, 8, 15],
        fill: "0",
    },
    Case {
        name: "uint8",
        size: 1,
        kind: "Uint8Array",
        fmt: Fmt::UInt,
        samples: &[0, 1, 128, 255],
        fill: "0",
    },
    Case {
        name: "uint16",
        size: 2,
        kind: "Uint16Array",
        fmt: Fmt::UInt,
        samples: &[0, 1, 32768, 65535],
        fill: "0",
    },
    Case {
        name: "uint32",
        size: 4,
        kind: "Uint32Array",
        fmt: Fmt::UInt,
        samples: &[0, 1, 2147483648, 4294967295],
        fill: "0",
    },
    Case {
        name: "uint64",
        size: 8,
        kind: "BigUint64Array",
        fmt: Fmt::UInt,
        samples: &[
            0,
            1,
            9007199254740992,
            9223372036854775808,
            18446744073709549568,
        ],
        fill: "0",
    },
    // 0, min subnormal 0.5, 1.0, max 6.0, -1.0
    Case {
        name: "float4_e2m1fn",
        size: 1,
        kind: "Uint8Array",
        fmt: fl(2, 1, 1),
        samples: &[0x00, 0x01, 0x02, 0x07, 0x0a],
        fill: "0",
    },
    // 0, 0.125, 1.0, max 7.5, -1.0
    Case {
        name: "float6_e2m3fn",
        size: 1,
        kind: "Uint8Array",
        fmt: fl(2, 3, 1),
        samples: &[0x00, 0x01, 0x08, 0x1f, 0x28],
        fill: "0",
    },
    // 0, 0.0625, 1.0, max 28, -1.0
    Case {
        name: "float6_e3m2fn",
        size: 1,
        kind: "Uint8Array",
        fmt: fl(3, 2, 3),
        samples: &[0x00, 0x01, 0x0c, 0x1f, 0x2c],
        fill: "0",
    },
    // 0, 2^-6, 1.0, max 15.5, -1.0
    Case {
        name: "float8_e3m4",
        size: 1,
        kind: "Uint8Array",
        fmt: fl(3, 4, 3),
        samples: &[0x00, 0x01, 0x30, 0x6f, 0xb0],
        fill: "0",
    },
    // 0, 2^-9, 1.0, max 240, -1.0
    Case {
        name: "float8_e4m3",
        size: 1,
        kind: "Uint8Array",
        fmt: fl(4, 3, 7),
        samples: &[0x00, 0x01, 0x38, 0x77, 0xb8],
        fill: "0",
    },
    // 0, 2^-13, 1.0, max 30, -1.0
    Case {
        name: "float8_e4m3b11fnuz",
        size: 1,
        kind: "Uint8Array",
        fmt: fl(4, 3, 11),
        samples: &[0x00, 0x01, 0x58, 0x7f, 0xd8],
        fill: "0",
    },
    // 0, 2^-10, 1.0, max 240, -1.0
    Case {
        name: "float8_e4m3fnuz",
        size: 1,
        kind: "Uint8Array",
        fmt: fl(4, 3, 8),
        samples: &[0x00, 0x01, 0x40, 0x7f, 0xc0],
        fill: "0",
    },
    // 0, 2^-16, 1.0, max 57344, -1.0
    Case {
        name: "float8_e5m2",
        size: 1,
        kind: "Uint8Array",
        fmt: fl(5, 2, 15),
        samples: &[0x00, 0x01, 0x3c, 0x7b, 0xbc],
        fill: "0",
    },
    // 0, 2^-17, 1.0, max 57344, -1.0
    Case {
        name: "float8_e5m2fnuz",
        size: 1,
        kind: "Uint8Array",
        fmt: fl(5, 2, 16),
        samples: &[0x00, 0x01, 0x40, 0x7f, 0xc0],
        fill: "0",
    },
    // 2^-15, 1.0, 2.0, max 2^127 (no zero, no sign)
    Case {
        name: "float8_e8m0fnu",
        size: 1,
        kind: "Uint8Array",
        fmt: Fmt::Float {
            e: 8,
            m: 0,
            bias: 127,
            signed: false,
        },
        samples: &[0x70, 0x7f, 0x80, 0xfe],
        fill: "1.0",
    },
    // 2^-8, 1.0, max, -1.0, 3.140625
    Case {
        name: "bfloat16",
        size: 2,
        kind: "Uint16Array",
        fmt: fl(8, 7, 127),
        samples: &[0x0000, 0x3b80, 0x3f80, 0x7f7f, 0xbf80, 0x4049],
        fill: "0",
    },
    // 0, 2^-24, 1.0, max 65504, -1.0
    Case {
        name: "float16",
        size: 2,
        kind: "Float16Array",
        fmt: fl(5, 10, 15),
        samples: &[0x0000, 0x0001, 0x3c00, 0x7bff, 0xbc00],
        fill: "0",
    },
    // 0, 1.0, f32::MAX, -1.5, 0.1f32
    Case {
        name: "float32",
        size: 4,
        kind: "Float32Array",
        fmt: Fmt::F32,
        samples: &[
            0x0000_0000,
            0x3f80_0000,
            0x7f7f_ffff,
            0xbfc0_0000,
            0x3dcc_cccd,
        ],
        fill: "0",
    },
    // 0, 1.0, 1e300, -1.5, 0.375
    Case {
        name: "float64",
        size: 8,
        kind: "Float64Array",
        fmt: Fmt::F64,
        samples: &[
            0x0000_0000_0000_0000,
            0x3ff0_0000_0000_0000,
            0x7e37_e43c_8800_759c,
            0xbff8_0000_0000_0000,
            0x3fd8_0000_0000_0000,
        ],
        fill: "0",
    },
];

impl Case {
    /// The in-memory little-endian bytes of the samples.
    pub fn bytes(&self) -> Vec<u8> {
        let mut out = Vec::new();
        for &s in self.samples {
            out.extend_from_slice(&(s as u128).to_le_bytes()[..self.size]);
        }
        out
    }

    /// The value of each sample as f64 (exact for every sample chosen above).
    pub fn values(&self) -> Vec<f64> {
        self.samples.iter().map(|&s| self.value(s)).collect()
    }

    fn value(&self, s: i128) -> f64 {
        match self.fmt {
            Fmt::Int | Fmt::UInt => s as f64,
            Fmt::F32 => f32::from_bits(s as u32) as f64,
            Fmt::F64 => f64::from_bits(s as u64),
            Fmt::Float { e, m, bias, signed } => {
                let code = s as u64;
                let neg = signed && (code >> (e + m)) & 1 == 1;
                let exp = ((code >> m) & ((1 << e) - 1)) as i32;
                let man = (code & ((1 << m) - 1)) as f64 / (1u64 << m) as f64;
                let mag = if m == 0 {
                    2f64.powi(exp - bias)
                } else if exp == 0 {
                    man * 2f64.powi(1 - bias)
                } else {
                    (1.0 + man) * 2f64.powi(exp - bias)
                };
                if neg {
                    -mag
                } else {
                    mag
                }
            }
        }
    }

    /// A complete zarr.json array document with one chunk of `n` elements.
    pub fn metadata(&self, n: usize, codecs: &str) -> String {
        format!(
            r#"{{"zarr_format":3,"node_type":"array","shape":[{n}],"data_type":"{name}","chunk_grid":{{"name":"regular","configuration":{{"chunk_shape":[{n}]}}}},"chunk_key_encoding":{{"name":"default","configuration":{{"separator":"/"}}}},"fill_value":{fill},"codecs":{codecs},"attributes":{{}}}}"#,
            name = self.name,
            fill = self.fill,
        )
    }
}

/// The low `bits` bits of each byte for types narrower than a byte; other types unchanged.
fn low_bits(c: &Case, bytes: &[u8]) -> Vec<u8> {
    let bits = match c.name {
        "int2" | "uint2" => 2,
        "int4" | "uint4" | "float4_e2m1fn" => 4,
        "float6_e2m3fn" | "float6_e3m2fn" => 6,
        _ => 8,
    };
    bytes
        .iter()
        .map(|b| ((*b as u16) & ((1u16 << bits) - 1)) as u8)
        .collect()
}

const BYTES_LE: &str = r#"{"name":"bytes","configuration":{"endian":"little"}}"#;
const BYTES_BE: &str = r#"{"name":"bytes","configuration":{"endian":"big"}}"#;
/// The real case: cast to float64, then scale_offset(offset 1, scale 2) in float64.
const REAL: &str = r#"{"name":"cast_value","configuration":{"data_type":"float64"}},{"name":"scale_offset","configuration":{"offset":1,"scale":2}}"#;

fn ok<T>(r: Result<T, JsValue>, what: &str) -> T {
    match r {
        Ok(v) => v,
        Err(e) => panic!("{what}: unexpected error {}", describe(&e)),
    }
}

/// "code: message" of a thrown JS value.
pub fn describe(e: &JsValue) -> String {
    let code = js_sys::Reflect::get(e, &JsValue::from_str("code"))
        .ok()
        .and_then(|c| c.as_string());
    let msg = e
        .dyn_ref::<js_sys::Error>()
        .map(|e| String::from(e.message()));
    format!(
        "{}: {}",
        code.unwrap_or_else(|| "<no code>".into()),
        msg.unwrap_or_else(|| format!("{e:?}"))
    )
}

/// Asserts that `r` failed with a JS `Error` carrying `code` and a non-empty message.
pub fn assert_code<T: std::fmt::Debug>(r: Result<T, JsValue>, code: &str, what: &str) {
    let e = match r {
        Ok(v) => panic!("{what}: expected an error with code {code:?}, got Ok({v:?})"),
        Err(e) => e,
    };
    let err = e
        .dyn_ref::<js_sys::Error>()
        .unwrap_or_else(|| panic!("{what}: thrown value is not a JS Error: {e:?}"));
    let got = js_sys::Reflect::get(&e, &JsValue::from_str("code"))
        .ok()
        .and_then(|c| c.as_string())
        .unwrap_or_else(|| {
            panic!(
                "{what}: the Error has no string `code` property ({})",
                describe(&e)
            )
        });
    assert_eq!(got, code, "{what}: wrong code; error was {}", describe(&e));
    assert!(err.message().length() > 0, "{what}: empty message");
}

/// typedArrayKind and version for every data type.
pub fn kinds_and_version() {
    for c in &CASES {
        assert_eq!(
            ok(w::typed_array_kind(c.name), c.name),
            c.kind,
            "typedArrayKind({})",
            c.name
        );
    }
    assert_code(
        w::typed_array_kind("complex64"),
        "unsupported_data_type",
        "typedArrayKind(complex64)",
    );
    assert_code(
        w::typed_array_kind("bool"),
        "unsupported_data_type",
        "typedArrayKind(bool)",
    );
    assert!(!w::version().is_empty());
}

/// Identity scale_offset, through the chunk API and the typed-array API, for every data type.
pub fn identity_roundtrip_all_types() {
    for c in &CASES {
        let data = c.bytes();
        let n = c.samples.len();
        let codecs = format!(r#"[{{"name":"scale_offset"}},{BYTES_LE}]"#);
        let meta = c.metadata(n, &codecs);
        let what = format!("{} identity chunk", c.name);
        assert_eq!(ok(w::array_data_type(&meta), &what), c.name);
        let enc = ok(w::encode_chunk(&meta, &data), &what);
        // The bytes codec keeps the low bits of sub-byte and 4/6-bit values (upper bits arbitrary).
        assert_eq!(low_bits(c, &enc), low_bits(c, &data), "{what}: encoded");
        let dec = ok(w::decode_chunk(&meta, &enc), &what);
        assert_eq!(dec, data, "{what}: decoded");

        // Typed-array level: object form, list form and the short-hand name.
        for codecs in [
            r#"{"name":"scale_offset"}"#,
            r#"[{"name":"scale_offset"}]"#,
            r#""scale_offset""#,
        ] {
            let what = format!("{} identity array {codecs}", c.name);
            assert_eq!(ok(w::encoded_data_type(codecs, c.name), &what), c.name);
            let enc = ok(w::encode_array(codecs, c.name, &data), &what);
            assert_eq!(enc, data, "{what}: encoded");
            assert_eq!(
                ok(w::decode_array(codecs, c.name, &enc), &what),
                data,
                "{what}: decoded"
            );
        }
        // The data type as JSON text (string and object form).
        let quoted = format!("\"{}\"", c.name);
        let object = format!(r#"{{"name":"{}"}}"#, c.name);
        for dt in [quoted.as_str(), object.as_str()] {
            let what = format!("{} identity array, data type {dt}", c.name);
            assert_eq!(
                ok(w::encode_array(r#""scale_offset""#, dt, &data), &what),
                data,
                "{what}"
            );
        }
    }
}

/// cast_value(float64) + scale_offset(offset 1, scale 2): expected stored bytes computed with f64
/// arithmetic, big-endian `bytes` codec; and the same codecs through the typed-array API.
pub fn real_roundtrip_all_types() {
    for c in &CASES {
        let data = c.bytes();
        let n = c.samples.len();
        let expected: Vec<f64> = c.values().iter().map(|v| (v - 1.0) * 2.0).collect();
        let stored_be: Vec<u8> = expected.iter().flat_map(|v| v.to_be_bytes()).collect();
        let mem_le: Vec<u8> = expected.iter().flat_map(|v| v.to_le_bytes()).collect();

        let meta = c.metadata(n, &format!("[{REAL},{BYTES_BE}]"));
        let what = format!("{} cast_value+scale_offset chunk", c.name);
        let enc = ok(w::encode_chunk(&meta, &data), &what);
        assert_eq!(
            enc,
            stored_be,
            "{what}: encoded (float64 big-endian of (v - 1) * 2 for {:?})",
            c.values()
        );
        assert_eq!(
            ok(w::decode_chunk(&meta, &enc), &what),
            data,
            "{what}: decoded"
        );

        let codecs = format!("[{REAL}]");
        let what = format!("{} cast_value+scale_offset array", c.name);
        assert_eq!(ok(w::encoded_data_type(&codecs, c.name), &what), "float64");
        let enc = ok(w::encode_array(&codecs, c.name, &data), &what);
        assert_eq!(enc, mem_le, "{what}: encoded");
        assert_eq!(
            ok(w::decode_array(&codecs, c.name, &enc), &what),
            data,
            "{what}: decoded"
        );

        // And the other way round: float64 data cast down to this type (the values are exact).
        let values_le: Vec<u8> = c.values().iter().flat_map(|v| v.to_le_bytes()).collect();
        let down = format!(
            r#"{{"name":"cast_value","configuration":{{"data_type":"{}"}}}}"#,
            c.name
        );
        let what = format!("float64 -> {} cast_value array", c.name);
        assert_eq!(ok(w::encoded_data_type(&down, "float64"), &what), c.name);
        assert_eq!(
            ok(w::encode_array(&down, "float64", &values_le), &what),
            data,
            "{what}: encoded"
        );
        assert_eq!(
            ok(w::decode_array(&down, "float64", &data), &what),
            values_le,
            "{what}: decoded"
        );
    }
}

/// The bind handle (`BoundCodecs`) for every data type: the cast_value + scale_offset codecs
/// bound once with the case's fill value; its info (the encoded fill (v - 1) * 2 computed here),
/// the values of `real_roundtrip_all_types` over repeated chunks, and errors with their codes.
pub fn bound_handle_all_types() {
    use js_sys::Uint8Array;
    let codecs = format!("[{REAL}]");
    for c in &CASES {
        let what = format!("{} bound", c.name);
        let b = ok(
            w::BoundCodecs::new(&codecs, c.name, Some(c.fill.to_string())),
            &what,
        );
        let info = b.info();
        assert_eq!(info.get(0).as_string().as_deref(), Some(c.name), "{what}");
        assert_eq!(
            info.get(1).as_string().as_deref(),
            Some("float64"),
            "{what}"
        );
        let fill: f64 = (c.fill.parse::<f64>().unwrap() - 1.0) * 2.0;
        assert_eq!(info.get(2).as_string(), Some(format!("{fill:?}")), "{what}");
        let element = info.get(3).dyn_into::<Uint8Array>().unwrap().to_vec();
        assert_eq!(element, fill.to_le_bytes(), "{what}: fill element");

        let data = c.bytes();
        let n = c.samples.len();
        let expected: Vec<u8> = c
            .values()
            .iter()
            .flat_map(|v| ((v - 1.0) * 2.0).to_le_bytes())
            .collect();
        for round in 0..3 {
            let out = Uint8Array::new_with_length((n * 8) as u32);
            ok(b.encode_into(&Uint8Array::from(&data[..]), &out), &what);
            assert_eq!(out.to_vec(), expected, "{what}: encoded, round {round}");
            let back = Uint8Array::new_with_length(data.len() as u32);
            ok(b.decode_into(&out, &back), &what);
            assert_eq!(back.to_vec(), data, "{what}: decoded, round {round}");
        }
        let short = Uint8Array::new_with_length(1);
        assert_code(
            b.encode_into(&Uint8Array::from(&data[..]), &short),
            "length_mismatch",
            &what,
        );
    }
    let nan_into_u8 = r#"{"name":"cast_value","configuration":{"data_type":"uint8"}}"#;
    assert_code(
        w::BoundCodecs::new(nan_into_u8, "float64", Some("\"NaN\"".into())).map(|_| ()),
        "invalid_metadata",
        "a NaN fill into uint8",
    );
    assert_code(
        w::BoundCodecs::new("\"scale_offset\"", "int16", Some("1.5".into())).map(|_| ()),
        "invalid_metadata",
        "fill 1.5 for int16",
    );
    assert_code(
        w::BoundCodecs::new("\"scale_offset\"", "bool", None).map(|_| ()),
        "unsupported_data_type",
        "bool",
    );
    let none = ok(
        w::BoundCodecs::new("\"scale_offset\"", "int16", None),
        "no fill",
    );
    assert!(none.info().get(2).is_undefined() && none.info().get(3).is_undefined());
}

/// Failures of every kind surface as JS Errors with the right code, for every data type.
pub fn errors_all_types() {
    for c in &CASES {
        let data = c.bytes();
        let n = c.samples.len();
        let id = format!(r#"[{{"name":"scale_offset"}},{BYTES_LE}]"#);

        // One element too few / one byte too many for the chunk shape.
        let meta = c.metadata(n + 1, &id);
        assert_code(
            w::encode_chunk(&meta, &data),
            "length_mismatch",
            &format!("{} encodeChunk short", c.name),
        );
        assert_code(
            w::decode_chunk(&meta, &data),
            "length_mismatch",
            &format!("{} decodeChunk short", c.name),
        );
        let mut extra = data.clone();
        extra.push(0);
        let meta = c.metadata(n, &id);
        assert_code(
            w::decode_chunk(&meta, &extra),
            "length_mismatch",
            &format!("{} decodeChunk extra byte", c.name),
        );
        if c.size > 1 {
            // Not a whole number of elements.
            assert_code(
                w::encode_array(r#""scale_offset""#, c.name, &data[..data.len() - 1]),
                "length_mismatch",
                &format!("{} encodeArray partial element", c.name),
            );
        }

        // Unknown codec, unknown configuration key, malformed JSON.
        assert_code(
            w::encode_array(r#"{"name":"no_such_codec"}"#, c.name, &data),
            "unsupported_codec",
            c.name,
        );
        assert_code(
            w::decode_array(
                r#"{"name":"scale_offset","configuration":{"bogus":1}}"#,
                c.name,
                &data,
            ),
            "invalid_metadata",
            &format!("{} unknown configuration key", c.name),
        );
        assert_code(
            w::encode_array(r#"{"name":"scale_offset""#, c.name, &data),
            "invalid_json",
            c.name,
        );
        assert_code(
            w::encode_chunk(&meta[..meta.len() - 1], &data),
            "invalid_json",
            c.name,
        );
    }
}

/// Errors that depend on the values: overflow, inexact integer decode, NaN into an int.
pub fn value_errors() {
    let so = |cfg: &str| format!(r#"{{"name":"scale_offset","configuration":{cfg}}}"#);
    // uint8: 0 - 1 < 0.
    assert_code(
        w::encode_array(&so(r#"{"offset":1}"#), "uint8", &[0]),
        "out_of_range",
        "uint8 0 - 1",
    );
    // int8: 100 * 2 > 127.
    assert_code(
        w::encode_array(&so(r#"{"scale":2}"#), "int8", &[100]),
        "out_of_range",
        "int8 100 * 2",
    );
    // int4: 7 + 1 > 7 on decode.
    assert_code(
        w::decode_array(&so(r#"{"offset":1}"#), "int4", &[7]),
        "out_of_range",
        "int4 7 + 1",
    );
    // int64: 2^62 * 4 overflows.
    let x = (1i64 << 62).to_le_bytes();
    assert_code(
        w::encode_array(&so(r#"{"scale":4}"#), "int64", &x),
        "out_of_range",
        "int64 2^62 * 4",
    );
    // int8: 1 / 2 is inexact.
    assert_code(
        w::decode_array(&so(r#"{"scale":2}"#), "int8", &[1]),
        "not_representable",
        "int8 1 / 2",
    );
    // NaN into uint8 without a scalar_map.
    let cast_u8 = r#"{"name":"cast_value","configuration":{"data_type":"uint8"}}"#;
    assert_code(
        w::encode_array(cast_u8, "float32", &f32::NAN.to_le_bytes()),
        "not_representable",
        "NaN -> uint8",
    );
    // 300 into uint8 without out_of_range.
    assert_code(
        w::encode_array(cast_u8, "float32", &300f32.to_le_bytes()),
        "out_of_range",
        "300 -> uint8",
    );
    // int64 offset 2^62 + 1 from exact JSON text: (2^62 + 1) - (2^62 + 1) = 0.
    let off = so(r#"{"offset":4611686018427387905}"#);
    let v = ((1i64 << 62) + 1).to_le_bytes();
    assert_eq!(
        ok(w::encode_array(&off, "int64", &v), "int64 exact offset"),
        0i64.to_le_bytes().to_vec()
    );
    assert_eq!(
        ok(
            w::decode_array(&off, "int64", &0i64.to_le_bytes()),
            "int64 exact offset"
        ),
        v.to_vec()
    );
}

/// Expands to one `#[wasm_bindgen_test]` per shared test body above.
macro_rules! wasm_tests {
    () => {
        #[wasm_bindgen_test::wasm_bindgen_test]
        fn kinds_and_version() {
            common::kinds_and_version()
        }
        #[wasm_bindgen_test::wasm_bindgen_test]
        fn identity_roundtrip_all_types() {
            common::identity_roundtrip_all_types()
        }
        #[wasm_bindgen_test::wasm_bindgen_test]
        fn real_roundtrip_all_types() {
            common::real_roundtrip_all_types()
        }
        #[wasm_bindgen_test::wasm_bindgen_test]
        fn errors_all_types() {
            common::errors_all_types()
        }
        #[wasm_bindgen_test::wasm_bindgen_test]
        fn value_errors() {
            common::value_errors()
        }
        #[wasm_bindgen_test::wasm_bindgen_test]
        fn bound_handle_all_types() {
            common::bound_handle_all_types()
        }
    };
}
pub(crate) use wasm_tests;
