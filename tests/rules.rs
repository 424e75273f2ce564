//! Named tests for the numeric rules of spec.md §1, §2, §4, §5: every bad input has an error
//! code asserted; every accepted form has its value checked against a hand-derived expectation.
// Test code may unwrap, index and panic (the workspace lints deny them in the library).
#![allow(clippy::restriction)]

use zarr_scale_offset::{
    decode, decode_chunk, encode, encode_chunk, metadata_warnings, DataType, ErrorCode,
};
use zarr_scale_offset_core::dtype::ALL;

fn meta(dtype: &str, fill: &str, codecs: &str) -> String {
    format!(
        r#"{{"zarr_format":3,"node_type":"array","shape":[4],"data_type":{dtype},"chunk_grid":{{"name":"regular","configuration":{{"chunk_shape":[4]}}}},"chunk_key_encoding":{{"name":"default"}},"fill_value":{fill},"codecs":{codecs}}}"#
    )
}

fn code_of<T: std::fmt::Debug>(r: zarr_scale_offset::Result<T>) -> ErrorCode {
    r.expect_err("expected an error").code
}

fn i64s(v: &[i64]) -> Vec<u8> {
    v.iter().flat_map(|x| x.to_le_bytes()).collect()
}
fn f32s(v: &[f32]) -> Vec<u8> {
    v.iter().flat_map(|x| x.to_le_bytes()).collect()
}
fn f64s(v: &[f64]) -> Vec<u8> {
    v.iter().flat_map(|x| x.to_le_bytes()).collect()
}
fn as_f32(b: &[u8]) -> Vec<f32> {
    b.chunks_exact(4)
        .map(|c| f32::from_le_bytes([c[0], c[1], c[2], c[3]]))
        .collect()
}

// ---- scale_offset metadata ----

#[test]
fn scale_offset_configuration_forms() {
    let x = f64s(&[1.5, -2.0, 0.0, 1e300]);
    for c in [
        r#""scale_offset""#,
        r#"{"name":"scale_offset"}"#,
        r#"{"name":"scale_offset","configuration":{}}"#,
        "scale_offset",
    ] {
        assert_eq!(encode(c, "float64", &x).unwrap().1, x, "{c}");
    }
    let must = r#"{"name":"scale_offset","must_understand":false,"configuration":{"offset":1}}"#;
    assert_eq!(
        encode(must, "float64", &f64s(&[3.0])).unwrap().1,
        f64s(&[2.0])
    );
}

#[test]
fn scale_offset_rejects_bad_configuration() {
    let bad = [
        (
            r#"{"name":"scale_offset","configuration":{"offset":1,"factor":2}}"#,
            "int32",
        ),
        (
            r#"{"name":"scale_offset","configuration":{"offset":1.5}}"#,
            "int32",
        ),
        (
            r#"{"name":"scale_offset","configuration":{"scale":0.5}}"#,
            "int32",
        ),
        (
            r#"{"name":"scale_offset","configuration":{"offset":"NaN"}}"#,
            "int16",
        ),
        (
            r#"{"name":"scale_offset","configuration":{"offset":300}}"#,
            "uint8",
        ),
        (
            r#"{"name":"scale_offset","configuration":[1,2]}"#,
            "float64",
        ),
        (
            r#"{"name":"scale_offset","configuration":{"offset":"Infinity"}}"#,
            "float4_e2m1fn",
        ),
        (
            r#"{"name":"scale_offset","configuration":{"offset":"NaN"}}"#,
            "float6_e3m2fn",
        ),
        (
            r#"{"name":"scale_offset","configuration":{"offset":"0x123456789"}}"#,
            "float32",
        ),
        (
            r#"{"name":"scale_offset","configuration":{"offset":"0x10"}}"#,
            "float4_e2m1fn",
        ),
    ];
    for (c, dt) in bad {
        assert_eq!(
            code_of(encode(c, dt, &[])),
            ErrorCode::InvalidMetadata,
            "{c} {dt}"
        );
    }
}

#[test]
fn scale_offset_zero_scale_in_every_spelling() {
    let zeros = [
        ("int32", "0"),
        ("int32", "\"0\""),
        ("float64", "0"),
        ("float64", "0.0"),
        ("float64", "-0.0"),
        ("float64", "\"0.0\""),
        ("float64", "\"0x0000000000000000\""),
        ("float64", "\"0x8000000000000000\""),
        ("float32", "1e-50"),
        ("float16", "\"0x8000\""),
        ("float16", "1e-9"),
        ("bfloat16", "\"0x0000\""),
        ("float8_e4m3fnuz", "0"),
        ("float4_e2m1fn", "0.2"),
        ("uint4", "0"),
    ];
    for (dt, z) in zeros {
        let c = format!(r#"{{"name":"scale_offset","configuration":{{"scale":{z}}}}}"#);
        let e = encode(&c, dt, &[]).expect_err(&c);
        assert_eq!(e.code, ErrorCode::InvalidMetadata, "{dt} {z}");
        assert!(e.message.contains("/configuration/scale"), "{}", e.message);
    }
}

// ---- scale_offset arithmetic ----

#[test]
fn int64_overflow_is_an_error_not_a_wrap() {
    // zarr-python 3.4.2 returns 0 here; the spec requires an error.
    let c = r#"{"name":"scale_offset","configuration":{"scale":4}}"#;
    let e = encode(c, "int64", &i64s(&[1, 1 << 62])).unwrap_err();
    assert_eq!(e.code, ErrorCode::OutOfRange);
    assert!(
        e.message.contains("element 1") && e.message.contains("4611686018427387904"),
        "{}",
        e.message
    );
    // The exact product, 2^64, beyond u64 and printed in full (messages format i128 values
    // digit by digit, not through core's 128-bit formatting).
    assert!(
        e.message.contains(
            "= 18446744073709551616 is outside the range of int64 \
             [-9223372036854775808, 9223372036854775807]"
        ),
        "{}",
        e.message
    );
    // INT64_MIN / -1 overflows int64: zarr-python returns INT64_MIN.
    let c = r#"{"name":"scale_offset","configuration":{"scale":-1}}"#;
    assert_eq!(
        code_of(decode(c, "int64", &i64s(&[i64::MIN]))),
        ErrorCode::OutOfRange
    );
    assert_eq!(
        decode(c, "int64", &i64s(&[i64::MAX])).unwrap(),
        i64s(&[-i64::MAX])
    );
    // uint64 extremes survive the identity.
    let u: Vec<u8> = [0u64, 1 << 63, u64::MAX]
        .iter()
        .flat_map(|x| x.to_le_bytes())
        .collect();
    assert_eq!(encode("scale_offset", "uint64", &u).unwrap().1, u);
    // int64 offset beyond 2^53 is exact (parsed from the JSON text).
    let c = r#"{"name":"scale_offset","configuration":{"offset":4611686018427387905}}"#;
    assert_eq!(
        encode(c, "int64", &i64s(&[(1 << 62) + 1, 4611686018427387906]))
            .unwrap()
            .1,
        i64s(&[0, 1])
    );
}

#[test]
fn int_decode_must_be_exact_and_in_range() {
    let c = r#"{"name":"scale_offset","configuration":{"scale":2}}"#;
    let e = decode(c, "int8", &[2, 3, 4]).unwrap_err();
    assert_eq!(e.code, ErrorCode::NotRepresentable);
    assert!(
        e.message.contains("element 1") && e.message.contains("value 3"),
        "{}",
        e.message
    );
    let c = r#"{"name":"scale_offset","configuration":{"offset":100}}"#;
    assert_eq!(code_of(decode(c, "int8", &[100, 1])), ErrorCode::OutOfRange);
    let c = r#"{"name":"scale_offset","configuration":{"offset":10}}"#;
    assert_eq!(
        code_of(encode(c, "uint8", &[10, 5, 20])),
        ErrorCode::OutOfRange
    );
    let c = r#"{"name":"scale_offset","configuration":{"scale":100}}"#;
    assert_eq!(
        code_of(encode(c, "int8", &[0, 1, 2])),
        ErrorCode::OutOfRange
    );
    // int4: -8 - 1 underflows; in-memory values outside int4 are invalid data.
    let c = r#"{"name":"scale_offset","configuration":{"offset":1}}"#;
    assert_eq!(code_of(encode(c, "int4", &[0xf8])), ErrorCode::OutOfRange);
    assert_eq!(code_of(encode(c, "int4", &[100])), ErrorCode::InvalidData);
    assert_eq!(encode(c, "int4", &[0xf9, 7]).unwrap().1, vec![0xf8, 6]);
}

#[test]
fn float32_is_native_per_operation() {
    // offset 5 and scale 0.1 are rounded to f32 first; each op rounds once, no FMA.
    let c = r#"{"name":"scale_offset","configuration":{"offset":5,"scale":0.1}}"#;
    let xs = [1.0f32, 2.5, 3.3, 1e-3, 123.456, -7.77];
    let s = 0.1f32;
    let enc = encode(c, "float32", &f32s(&xs)).unwrap().1;
    let want: Vec<f32> = xs.iter().map(|x| (x - 5.0) * s).collect();
    assert_eq!(as_f32(&enc), want);
    let dec = decode(c, "float32", &enc).unwrap();
    let want: Vec<f32> = want.iter().map(|y| y / s + 5.0).collect();
    assert_eq!(as_f32(&dec), want);
    // zarrita 0.7.5 decodes in f64 with an unrounded scale 0.1, then rounds once: for 1.0 and
    // 1e-3 that differs by one ulp (peers.md §4.5 case A); we follow the spec.
    let zarrita: Vec<f32> = as_f32(&enc)
        .iter()
        .map(|&y| (y as f64 / 0.1 + 5.0) as f32)
        .collect();
    let differ: Vec<usize> = (0..xs.len())
        .filter(|&i| zarrita[i].to_bits() != as_f32(&dec)[i].to_bits())
        .collect();
    assert_eq!(differ, vec![0, 3]);
}

#[test]
fn ieee_floats_keep_nan_and_overflow_to_infinity() {
    let c = r#"{"name":"scale_offset","configuration":{"scale":1e38}}"#;
    let enc = encode(c, "float32", &f32s(&[f32::NAN, 10.0, -10.0, f32::INFINITY]))
        .unwrap()
        .1;
    let v = as_f32(&enc);
    assert!(v[0].is_nan());
    assert_eq!(&v[1..], &[f32::INFINITY, f32::NEG_INFINITY, f32::INFINITY]);
    // float16 overflows to +Inf too (0x7c00); bfloat16 likewise.
    let c = r#"{"name":"scale_offset","configuration":{"scale":1000}}"#;
    assert_eq!(
        encode(c, "float16", &0x5640u16.to_le_bytes()).unwrap().1,
        0x7c00u16.to_le_bytes()
    );
    // A float without Inf errors on overflow; fnuz keeps its NaN.
    let c = r#"{"name":"scale_offset","configuration":{"scale":2}}"#;
    assert_eq!(
        code_of(encode(c, "float4_e2m1fn", &[0x7])),
        ErrorCode::OutOfRange
    ); // 6*2
    assert_eq!(
        code_of(encode(c, "float8_e4m3fnuz", &[0x7f])),
        ErrorCode::OutOfRange
    ); // 240*2
    assert_eq!(encode(c, "float8_e4m3fnuz", &[0x80]).unwrap().1, vec![0x80]);
    // bfloat16: 1.5 * 2 = 3 (0x4040)
    assert_eq!(
        encode(c, "bfloat16", &0x3fc0u16.to_le_bytes()).unwrap().1,
        0x4040u16.to_le_bytes()
    );
}

#[test]
fn narrow_floats_round_once_per_operation() {
    // float8_e4m3: (x - 0.3) * 3 with 0.3 -> 0.3125 (0x2a). x = 1.0: 1 - 0.3125 = 0.6875 (exact in
    // e4m3), * 3 = 2.0625 -> ties? 2.0625 lies between 2.0 and 2.25 (step .25): nearest is 2.0.
    let c = r#"{"name":"scale_offset","configuration":{"offset":0.3,"scale":3}}"#;
    assert_eq!(encode(c, "float8_e4m3", &[0x38]).unwrap().1, vec![0x40]);
}

#[test]
fn fill_value_flows_through_encode() {
    let m = meta(
        "\"float64\"",
        "10.0",
        r#"[{"name":"scale_offset","configuration":{"offset":5,"scale":2}},{"name":"bytes","configuration":{"endian":"little"}}]"#,
    );
    let x = f64s(&[10.0, 7.0, 0.0, -1.0]);
    let enc = encode_chunk(&m, &x).unwrap();
    assert_eq!(enc, f64s(&[10.0, 4.0, -10.0, -12.0]));
    // uint16 offset 1000 with fill 0: the fill cannot be encoded -> invalid metadata.
    let m = meta(
        "\"uint16\"",
        "0",
        r#"[{"name":"scale_offset","configuration":{"offset":1000}},{"name":"cast_value","configuration":{"data_type":"uint8"}},"bytes"]"#,
    );
    let e = decode_chunk(&m, &[0, 1, 2, 3]).unwrap_err();
    assert_eq!(e.code, ErrorCode::InvalidMetadata);
    assert!(
        e.message.contains("/codecs/0") && e.message.contains("fill"),
        "{}",
        e.message
    );
}

// ---- cast_value ----

#[test]
fn cast_value_configuration_errors() {
    let bad = [
        (
            r#"{"name":"cast_value"}"#,
            "float64",
            ErrorCode::InvalidMetadata,
        ),
        (
            r#"{"name":"cast_value","configuration":{}}"#,
            "float64",
            ErrorCode::InvalidMetadata,
        ),
        (
            r#"{"name":"cast_value","configuration":{"data_type":"complex64"}}"#,
            "float64",
            ErrorCode::UnsupportedDataType,
        ),
        (
            r#"{"name":"cast_value","configuration":{"data_type":"int8","rounding":"up"}}"#,
            "float64",
            ErrorCode::InvalidMetadata,
        ),
        (
            r#"{"name":"cast_value","configuration":{"data_type":"int8","out_of_range":"saturate"}}"#,
            "float64",
            ErrorCode::InvalidMetadata,
        ),
        (
            r#"{"name":"cast_value","configuration":{"data_type":"float32","out_of_range":"wrap"}}"#,
            "int32",
            ErrorCode::InvalidMetadata,
        ),
        (
            r#"{"name":"cast_value","configuration":{"data_type":"float4_e2m1fn","out_of_range":"wrap"}}"#,
            "float32",
            ErrorCode::InvalidMetadata,
        ),
        (
            r#"{"name":"cast_value","configuration":{"data_type":"int8","extra":1}}"#,
            "float64",
            ErrorCode::InvalidMetadata,
        ),
        (
            r#"{"name":"cast_value","configuration":{"data_type":"int8","scalar_map":{"encode":[["NaN",0]]}}}"#,
            "int32",
            ErrorCode::InvalidMetadata,
        ),
        (
            r#"{"name":"cast_value","configuration":{"data_type":"int8","scalar_map":{"encode":[[1,999]]}}}"#,
            "int32",
            ErrorCode::InvalidMetadata,
        ),
        (
            r#"{"name":"cast_value","configuration":{"data_type":"int8","scalar_map":{"encode":[[1,1.5]]}}}"#,
            "int32",
            ErrorCode::InvalidMetadata,
        ),
        (
            r#"{"name":"cast_value","configuration":{"data_type":"int8","scalar_map":{"encode":[[1]]}}}"#,
            "int32",
            ErrorCode::InvalidMetadata,
        ),
        (
            r#"{"name":"cast_value","configuration":{"data_type":"int8","scalar_map":{"both":[]}}}"#,
            "int32",
            ErrorCode::InvalidMetadata,
        ),
    ];
    for (c, dt, code) in bad {
        assert_eq!(code_of(encode(c, dt, &[])), code, "{c}");
    }
    // wrap is fine for integer targets from any source (zarr-python #3936).
    for (from, to) in [
        ("float16", "int8"),
        ("float32", "int32"),
        ("float64", "int64"),
        ("int32", "uint8"),
        ("float64", "int4"),
    ] {
        let c = format!(
            r#"{{"name":"cast_value","configuration":{{"data_type":"{to}","out_of_range":"wrap"}}}}"#
        );
        assert!(encode(&c, from, &[]).is_ok(), "{from}->{to}");
    }
}

#[test]
fn nan_and_infinity_into_integers_need_a_map() {
    for oor in [
        "",
        r#","out_of_range":"clamp""#,
        r#","out_of_range":"wrap""#,
    ] {
        let c = format!(r#"{{"name":"cast_value","configuration":{{"data_type":"uint8"{oor}}}}}"#);
        for x in [f64::NAN, f64::INFINITY, f64::NEG_INFINITY] {
            assert_eq!(
                code_of(encode(&c, "float64", &f64s(&[1.0, x]))),
                ErrorCode::NotRepresentable,
                "{c} {x}"
            );
        }
    }
    let c = r#"{"name":"cast_value","configuration":{"data_type":"uint8","scalar_map":{"encode":[["NaN",0],["Infinity",255],["-Infinity",1]]}}}"#;
    assert_eq!(
        encode(
            c,
            "float64",
            &f64s(&[f64::NAN, f64::INFINITY, f64::NEG_INFINITY, 7.0])
        )
        .unwrap()
        .1,
        vec![0, 255, 1, 7]
    );
}

#[test]
fn scalar_map_first_duplicate_wins_and_nan_matches_every_nan() {
    // zarr-python keeps the last duplicate; the spec says first.
    let c = r#"{"name":"cast_value","configuration":{"data_type":"int8","scalar_map":{"encode":[["NaN",7],["NaN",9],[1.5,42],[1.5,43]]}}}"#;
    let nans = [
        f64::NAN,
        -f64::NAN,
        f64::from_bits(0x7ff0_0000_0000_0001),
        f64::from_bits(0xfff8_0000_0000_0123),
    ];
    assert_eq!(
        encode(c, "float64", &f64s(&nans)).unwrap().1,
        vec![7, 7, 7, 7]
    );
    assert_eq!(encode(c, "float64", &f64s(&[1.5])).unwrap().1, vec![42]);
    // map precedence over clamp: [1.5, 300, NaN] -> [42, 127, 7]
    let c = r#"{"name":"cast_value","configuration":{"data_type":"int8","out_of_range":"clamp","scalar_map":{"encode":[[1.5,42],["NaN",7]]}}}"#;
    assert_eq!(
        encode(c, "float64", &f64s(&[1.5, 300.0, f64::NAN]))
            .unwrap()
            .1,
        vec![42, 127, 7]
    );
    // a float32 key 0.1 means f32(0.1) and matches a float32 0.1
    let c = r#"{"name":"cast_value","configuration":{"data_type":"uint8","scalar_map":{"encode":[[0.1,9]]}}}"#;
    assert_eq!(encode(c, "float32", &f32s(&[0.1])).unwrap().1, vec![9]);
}

#[test]
fn rounding_then_out_of_range() {
    let c = |r: &str, o: &str| {
        format!(
            r#"{{"name":"cast_value","configuration":{{"data_type":"int8","rounding":"{r}"{o}}}}}"#
        )
    };
    let xs = f64s(&[2.5, -2.5, 2.7, -2.7, 0.49999999999999994]);
    let want = [
        ("nearest-even", vec![2i8, -2, 3, -3, 0]),
        ("nearest-away", vec![3, -3, 3, -3, 0]),
        ("towards-zero", vec![2, -2, 2, -2, 0]),
        ("towards-positive", vec![3, -2, 3, -2, 1]),
        ("towards-negative", vec![2, -3, 2, -3, 0]),
    ];
    for (r, w) in want {
        let got: Vec<i8> = encode(&c(r, ""), "float64", &xs)
            .unwrap()
            .1
            .iter()
            .map(|&b| b as i8)
            .collect();
        assert_eq!(got, w, "{r}");
    }
    // 127.6 rounds to 128 first: error / clamp 127 / wrap -128.
    let x = f64s(&[127.6]);
    assert_eq!(
        code_of(encode(&c("nearest-even", ""), "float64", &x)),
        ErrorCode::OutOfRange
    );
    assert_eq!(
        encode(
            &c("nearest-even", r#","out_of_range":"clamp""#),
            "float64",
            &x
        )
        .unwrap()
        .1,
        vec![127]
    );
    assert_eq!(
        encode(
            &c("nearest-even", r#","out_of_range":"wrap""#),
            "float64",
            &x
        )
        .unwrap()
        .1,
        vec![128]
    );
    // f64 -> f32: overflow errors; clamp gives +Inf; -0 keeps its sign.
    let c32 = |o: &str| {
        format!(r#"{{"name":"cast_value","configuration":{{"data_type":"float32"{o}}}}}"#)
    };
    assert_eq!(
        code_of(encode(&c32(""), "float64", &f64s(&[1e39]))),
        ErrorCode::OutOfRange
    );
    assert_eq!(
        encode(
            &c32(r#","out_of_range":"clamp""#),
            "float64",
            &f64s(&[1e39, -0.0])
        )
        .unwrap()
        .1,
        f32s(&[f32::INFINITY, -0.0])
    );
    // clamp into a type without Inf gives the largest finite value; wrap into int2 is mod 4.
    let c4 = r#"{"name":"cast_value","configuration":{"data_type":"float4_e2m1fn","out_of_range":"clamp"}}"#;
    assert_eq!(
        encode(c4, "float64", &f64s(&[100.0, -100.0])).unwrap().1,
        vec![0x7, 0xf]
    );
    let c2 = r#"{"name":"cast_value","configuration":{"data_type":"int2","out_of_range":"wrap"}}"#;
    assert_eq!(
        encode(
            c2,
            "int32",
            &[5i32, -3, 2]
                .iter()
                .flat_map(|x| x.to_le_bytes())
                .collect::<Vec<_>>()
        )
        .unwrap()
        .1,
        vec![1, 1, 0xfe]
    );
}

#[test]
fn fill_value_must_survive_the_round_trip() {
    let cv = |extra: &str| {
        format!(
            r#"[{{"name":"cast_value","configuration":{{"data_type":"uint8"{extra}}}}},"bytes"]"#
        )
    };
    // 0.5 -> 0 -> 0.0 != 0.5 (zarr-python accepts this silently)
    let m = meta("\"float32\"", "0.5", &cv(""));
    assert_eq!(
        code_of(decode_chunk(&m, &[0; 4])),
        ErrorCode::InvalidMetadata
    );
    // NaN fill with no map: cannot be cast.
    let m = meta("\"float32\"", "\"NaN\"", &cv(""));
    assert_eq!(
        code_of(decode_chunk(&m, &[0; 4])),
        ErrorCode::InvalidMetadata
    );
    // NaN <-> 0 map: fine, and stored 0 decodes to NaN.
    let m = meta(
        "\"float32\"",
        "\"NaN\"",
        &cv(r#","scalar_map":{"encode":[["NaN",0]],"decode":[[0,"NaN"]]}"#),
    );
    let out = as_f32(&decode_chunk(&m, &[0, 1, 2, 255]).unwrap());
    assert!(out[0].is_nan());
    assert_eq!(&out[1..], &[1.0, 2.0, 255.0]);
}

#[test]
fn every_one_of_the_26_by_26_pairs_casts() {
    // The value 1 (and 2 where the target is wider than 1 bit of range) is exact in every type:
    // each pair casts it forward and back unchanged.
    for from in ALL {
        let one = encode(
            r#"{"name":"cast_value","configuration":{"data_type":"float64"}}"#,
            "float64",
            &f64s(&[1.0]),
        )
        .unwrap();
        assert_eq!(one.1, f64s(&[1.0]));
        let c = format!(
            r#"{{"name":"cast_value","configuration":{{"data_type":"{}"}}}}"#,
            from.name()
        );
        let in_from = encode(&c, "float64", &f64s(&[1.0])).unwrap().1;
        for to in ALL {
            let c = format!(
                r#"{{"name":"cast_value","configuration":{{"data_type":"{}"}}}}"#,
                to.name()
            );
            let (dt, enc) =
                encode(&c, from.name(), &in_from).unwrap_or_else(|e| panic!("{from}->{to}: {e}"));
            assert_eq!(dt, to);
            let back = decode(&c, from.name(), &enc).unwrap();
            assert_eq!(back, in_from, "{from}->{to}");
            let as64 = decode(
                &format!(
                    r#"{{"name":"cast_value","configuration":{{"data_type":"{}"}}}}"#,
                    to.name()
                ),
                "float64",
                &enc,
            )
            .unwrap();
            assert_eq!(as64, f64s(&[1.0]), "{to}");
        }
    }
}

// ---- chains, bytes, lengths, JSON ----

#[test]
fn chain_order_and_bytes_codec() {
    let so = r#"{"name":"scale_offset"}"#;
    let bad = [
        (format!(r#"["bytes",{so}]"#), ErrorCode::InvalidMetadata),
        (format!(r#"[{so}]"#), ErrorCode::InvalidMetadata),
        ("[]".to_string(), ErrorCode::InvalidMetadata),
        (r#"[{"name":"bytes","configuration":{"endian":"little"}},{"name":"bytes","configuration":{"endian":"little"}}]"#.to_string(), ErrorCode::InvalidMetadata),
        (r#"[{"name":"gzip","configuration":{"level":5}},"bytes"]"#.to_string(), ErrorCode::InvalidMetadata),
        (r#"[{"name":"bytes","configuration":{"endian":"little"}},{"name":"gzip","configuration":{"level":5}}]"#.to_string(), ErrorCode::UnsupportedCodec),
        (r#"[{"name":"zfp"},"bytes"]"#.to_string(), ErrorCode::UnsupportedCodec),
        (r#"[{"name":"sharding_indexed"}]"#.to_string(), ErrorCode::UnsupportedCodec),
        ("[\"bytes\"]".to_string(), ErrorCode::InvalidMetadata), // float32 needs endian
        (r#"[{"name":"bytes","configuration":{"endian":"middle"}}]"#.to_string(), ErrorCode::InvalidMetadata),
        (r#"[{"name":"bytes","foo":1,"configuration":{"endian":"little"}}]"#.to_string(), ErrorCode::InvalidMetadata),
    ];
    for (codecs, code) in bad {
        let m = meta("\"float32\"", "0", &codecs);
        let e = decode_chunk(&m, &[0; 16]).expect_err(&codecs);
        assert_eq!(e.code, code, "{codecs}: {}", e.message);
        assert!(e.message.starts_with("/codecs"), "{}", e.message);
    }
    // big endian float32
    let m = meta(
        "\"float32\"",
        "0",
        r#"[{"name":"bytes","configuration":{"endian":"big"}}]"#,
    );
    assert_eq!(
        encode_chunk(&m, &f32s(&[1.0, 2.0, 0.0, -1.0])).unwrap(),
        [0x3f, 0x80, 0, 0, 0x40, 0, 0, 0, 0, 0, 0, 0, 0xbf, 0x80, 0, 0]
    );
    // int4: upper bits ignored on read, zero on write; a single byte type needs no endian.
    let m = meta("\"int4\"", "0", r#"["bytes"]"#);
    assert_eq!(
        decode_chunk(&m, &[0xf7, 0x08, 0xaf, 0x00]).unwrap(),
        vec![7, 0xf8, 0xff, 0]
    );
    assert_eq!(
        encode_chunk(&m, &[7, 0xf8, 0xff, 0]).unwrap(),
        vec![0x07, 0x08, 0x0f, 0]
    );
    let m = meta("{\"name\":\"float4_e2m1fn\"}", "0", r#"["bytes"]"#);
    assert_eq!(
        decode_chunk(&m, &[0xf1, 0x2f, 0, 0]).unwrap(),
        vec![1, 0xf, 0, 0]
    );
}

#[test]
fn lengths_json_and_data_types() {
    let m = meta(
        "\"float32\"",
        "0",
        r#"[{"name":"bytes","configuration":{"endian":"little"}}]"#,
    );
    assert_eq!(
        code_of(decode_chunk(&m, &[0; 15])),
        ErrorCode::LengthMismatch
    );
    assert_eq!(
        code_of(encode_chunk(&m, &[0; 20])),
        ErrorCode::LengthMismatch
    );
    assert_eq!(
        code_of(encode("scale_offset", "float32", &[0; 6])),
        ErrorCode::LengthMismatch
    );
    assert_eq!(
        code_of(decode_chunk("{\"zarr_format\":3,", &[])),
        ErrorCode::InvalidJson
    );
    assert_eq!(
        code_of(encode("[{\"name\":", "float32", &[])),
        ErrorCode::InvalidJson
    );
    assert_eq!(
        code_of(encode("scale_offset", "bool", &[])),
        ErrorCode::UnsupportedDataType
    );
    let m = meta("\"complex64\"", "0", "[\"bytes\"]");
    assert_eq!(
        code_of(decode_chunk(&m, &[])),
        ErrorCode::UnsupportedDataType
    );
    let m = meta("\"float4_e2m1fn\"", "\"NaN\"", "[\"bytes\"]");
    assert_eq!(
        code_of(decode_chunk(&m, &[0; 4])),
        ErrorCode::InvalidMetadata
    );
    assert_eq!(
        code_of(encode("bytes", "uint8", &[])),
        ErrorCode::InvalidMetadata
    );
    assert_eq!(
        code_of(encode("gzip", "uint8", &[])),
        ErrorCode::InvalidMetadata
    );
    assert_eq!(
        code_of(encode("nope", "uint8", &[])),
        ErrorCode::UnsupportedCodec
    );
    let huge = r#"{"zarr_format":3,"node_type":"array","shape":[1],"data_type":"float64","chunk_grid":{"name":"regular","configuration":{"chunk_shape":[1073741824,1073741824]}},"fill_value":0,"codecs":[{"name":"bytes","configuration":{"endian":"little"}}]}"#;
    assert!(decode_chunk(huge, &[0; 8]).is_err());
    assert_eq!(DataType::from_name("float8_e4m3fn"), None);
}

#[test]
fn lenient_forms_are_read_and_reported() {
    let m = meta(
        "\"uint16\"",
        "1000.0",
        r#"[{"name":"scale_offset","configuration":{"offset":1000}},{"name":"cast_value","configuration":{"data_type":"uint8"}},"bytes"]"#,
    );
    let w = metadata_warnings(&m).unwrap();
    assert_eq!(w.len(), 1, "{w:?}");
    assert_eq!(w[0].pointer, "/fill_value");
    assert_eq!(
        decode_chunk(&m, &[0, 1, 2, 255]).unwrap(),
        [1000u16, 1001, 1002, 1255]
            .iter()
            .flat_map(|x| x.to_le_bytes())
            .collect::<Vec<_>>()
    );
    // The cast_value spec example's "+Infinity" is accepted and reported.
    let m = meta(
        "\"float64\"",
        "0",
        r#"[{"name":"cast_value","configuration":{"data_type":"uint8","rounding":"towards-zero","out_of_range":"wrap","scalar_map":{"encode":[["NaN",0],["+Infinity",0],["-Infinity",0]]}}},"bytes"]"#,
    );
    let w = metadata_warnings(&m).unwrap();
    assert_eq!(
        w.iter().map(|w| w.pointer.as_str()).collect::<Vec<_>>(),
        ["/codecs/0/configuration/scalar_map/encode/1/0"]
    );
    assert_eq!(
        encode_chunk(&m, &f64s(&[f64::INFINITY, 300.7, -1.0, f64::NAN])).unwrap(),
        vec![0, 44, 255, 0]
    );
}

#[test]
fn readme_example() {
    let codecs = r#"[{"name":"scale_offset","configuration":{"offset":-10,"scale":0.1}},
        {"name":"cast_value","configuration":{"data_type":"uint8","scalar_map":{"encode":[["NaN",0]],"decode":[[0,"NaN"]]}}}]"#;
    let (dt, stored) = encode(codecs, "float64", &f64s(&[0.0, 100.0, f64::NAN, 2540.0])).unwrap();
    assert_eq!((dt, stored.clone()), (DataType::UInt8, vec![1, 11, 0, 255]));
    let back = decode(codecs, "float64", &stored).unwrap();
    let v: Vec<f64> = back
        .chunks_exact(8)
        .map(|c| f64::from_le_bytes(c.try_into().unwrap()))
        .collect();
    assert_eq!((v[0], v[1], v[3]), (0.0, 100.0, 2540.0));
    assert!(v[2].is_nan());
}
