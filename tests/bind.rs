//! The bind API (`zarr_scale_offset::bind`, `Bound`): values against expectations computed here
//! with plain Rust arithmetic, the fill value flowing forward through the codecs, errors with
//! their codes and pointers, and one handle reused for many chunks.
// Test code may unwrap, index and panic (the workspace lints deny them in the library).
#![allow(clippy::restriction)]

use zarr_scale_offset::internals::json::parse;
use zarr_scale_offset::{bind, decode, encode, Bound, DataType, ErrorCode};

fn f64s(v: &[f64]) -> Vec<u8> {
    v.iter().flat_map(|x| x.to_le_bytes()).collect()
}
fn i16s(v: &[i16]) -> Vec<u8> {
    v.iter().flat_map(|x| x.to_le_bytes()).collect()
}
fn as_f64(b: &[u8]) -> Vec<f64> {
    b.chunks_exact(8)
        .map(|c| f64::from_le_bytes(c.try_into().unwrap()))
        .collect()
}
fn as_i16(b: &[u8]) -> Vec<i16> {
    b.chunks_exact(2)
        .map(|c| i16::from_le_bytes([c[0], c[1]]))
        .collect()
}

use zarr_scale_offset_core::test_rng::Rng;

const SO_CAST: &str = r#"[{"name":"scale_offset","configuration":{"offset":273.15,"scale":100}},
    {"name":"cast_value","configuration":{"data_type":"int16","rounding":"nearest-even"}}]"#;

/// The expectation for `SO_CAST` on float64, computed here: one f64 subtraction, one f64
/// multiplication, then round half to even into int16.
fn so_cast_expected(x: f64) -> Option<i16> {
    let y = ((x - 273.15) * 100.0).round_ties_even();
    (y >= i16::MIN as f64 && y <= i16::MAX as f64).then_some(y as i16)
}

#[test]
fn bound_encodes_and_decodes_like_plain_arithmetic() {
    let b = bind(SO_CAST, "float64", Some("273.15")).unwrap();
    assert_eq!(b.decoded_data_type(), DataType::Float64);
    assert_eq!(b.encoded_data_type(), DataType::Int16);
    let xs = [273.15, 0.0, 300.0, 250.125, 500.0, 273.155, -0.0];
    let got = as_i16(&b.encode(&f64s(&xs)).unwrap());
    let want: Vec<i16> = xs.iter().map(|&x| so_cast_expected(x).unwrap()).collect();
    assert_eq!(got, want);
    // decode: int16 -> float64 exactly, then x / 100 + 273.15 in f64.
    let codes = [0i16, -27315, 2685, -32768, 32767, 1];
    let back = as_f64(&b.decode(&i16s(&codes)).unwrap());
    let want: Vec<f64> = codes.iter().map(|&c| c as f64 / 100.0 + 273.15).collect();
    assert_eq!(
        back.iter().map(|x| x.to_bits()).collect::<Vec<_>>(),
        want.iter().map(|x| x.to_bits()).collect::<Vec<_>>()
    );
    // The fill value 273.15 encodes to 0 and is reported as strict JSON text and as raw bits.
    assert_eq!(b.encoded_fill().as_deref(), Some("0"));
    assert_eq!(b.encoded_fill_bits(), Some(0));
    assert_eq!(b.encoded_fill_element(), Some(vec![0, 0]));
}

#[test]
fn bound_matches_the_one_shot_api_and_the_parsed_json_entry() {
    let xs: Vec<f64> = (0..1000).map(|i| 200.0 + i as f64 * 0.173).collect();
    let data = f64s(&xs);
    let b = bind(SO_CAST, "float64", None).unwrap();
    let (t, once) = encode(SO_CAST, "float64", &data).unwrap();
    assert_eq!(t, DataType::Int16);
    assert_eq!(b.encode(&data).unwrap(), once);
    assert_eq!(
        b.decode(&once).unwrap(),
        decode(SO_CAST, "float64", &once).unwrap()
    );
    let parsed = Bound::new(&parse(SO_CAST).unwrap(), DataType::Float64, None).unwrap();
    assert_eq!(parsed.encode(&data).unwrap(), once);
    // No fill value bound: none comes out.
    assert_eq!(b.encoded_fill(), None);
    assert_eq!(parsed.encoded_fill_element(), None);
}

#[test]
fn one_handle_encodes_and_decodes_many_chunks() {
    let b = bind(SO_CAST, "float64", Some("273.15")).unwrap();
    let mut rng = Rng(0x9e37_79b9_7f4a_7c15);
    let mut total = 0;
    for chunk in 0..200 {
        let n = (rng.next() % 700) as usize + chunk % 3;
        let xs: Vec<f64> = (0..n)
            .map(|_| (rng.next() % 60_000) as f64 / 100.0)
            .collect();
        let want: Vec<i16> = xs.iter().map(|&x| so_cast_expected(x).unwrap()).collect();
        let mut out = vec![0xAAu8; n * 2];
        b.encode_into(&f64s(&xs), &mut out).unwrap();
        assert_eq!(as_i16(&out), want, "chunk {chunk}");
        let mut back = vec![0u8; n * 8];
        b.decode_into(&out, &mut back).unwrap();
        let want_back: Vec<u64> = want
            .iter()
            .map(|&c| (c as f64 / 100.0 + 273.15).to_bits())
            .collect();
        assert_eq!(
            as_f64(&back)
                .iter()
                .map(|x| x.to_bits())
                .collect::<Vec<_>>(),
            want_back,
            "chunk {chunk}"
        );
        total += n;
    }
    assert!(total > 50_000);
}

#[test]
fn the_fill_flows_through_scale_offset_and_cast_value() {
    // 1.5 * 2 = 3.0 (float64), then cast_value to int8: 3.
    let codecs = r#"[{"name":"scale_offset","configuration":{"scale":2}},
        {"name":"cast_value","configuration":{"data_type":"int8"}}]"#;
    let b = bind(codecs, "float64", Some("1.5")).unwrap();
    assert_eq!(b.encoded_fill().as_deref(), Some("3"));
    assert_eq!(b.encoded_fill_element(), Some(vec![3]));
    // NaN through a scalar_map: NaN -> 0.
    let nan_map = r#"[{"name":"scale_offset","configuration":{"offset":-10,"scale":0.1}},
        {"name":"cast_value","configuration":{"data_type":"uint8",
         "scalar_map":{"encode":[["NaN",0]],"decode":[[0,"NaN"]]}}}]"#;
    let b = bind(nan_map, "float64", Some(r#""NaN""#)).unwrap();
    assert_eq!(b.encoded_fill().as_deref(), Some("0"));
    // Every form of a fill value: lenient "+Infinity", hex, -0.0, a number in a string.
    let cast16 = r#"{"name":"cast_value","configuration":{"data_type":"float16"}}"#;
    for (fill, want) in [
        (r#""+Infinity""#, r#""Infinity""#),
        (r#""-Infinity""#, r#""-Infinity""#),
        (r#""0x3ff8000000000000""#, "1.5"),
        ("-0.0", "-0.0"),
        (r#""0.5""#, "0.5"),
        ("65504", "65500.0"), // the shortest decimal that reads back as float16 65504,
    ] {
        let b = bind(cast16, "float64", Some(fill)).unwrap();
        assert_eq!(b.encoded_fill().as_deref(), Some(want), "fill {fill}");
    }
    // A sub-byte type: -3 as int4, sign-extended in memory.
    let b = bind(
        r#"{"name":"cast_value","configuration":{"data_type":"int4"}}"#,
        "float32",
        Some("-3"),
    )
    .unwrap();
    assert_eq!(b.encoded_data_type(), DataType::Int4);
    assert_eq!(b.encoded_fill().as_deref(), Some("-3"));
    assert_eq!(b.encoded_fill_element(), Some(vec![0xfd]));
    // bfloat16: the JSON text is the value, the element its raw bits.
    let b = bind(
        r#"{"name":"cast_value","configuration":{"data_type":"bfloat16"}}"#,
        "float32",
        Some("1.5"),
    )
    .unwrap();
    assert_eq!(b.encoded_fill().as_deref(), Some("1.5"));
    assert_eq!(
        b.encoded_fill_element(),
        Some(0x3fc0u16.to_le_bytes().to_vec())
    );
    // int64 beyond 2^53 stays exact: 2^62 + 1 - 1.
    let b = bind(
        r#"{"name":"scale_offset","configuration":{"offset":1}}"#,
        "int64",
        Some("4611686018427387905"),
    )
    .unwrap();
    assert_eq!(b.encoded_fill().as_deref(), Some("4611686018427387904"));
    // numcodecs.fixedscaleoffset does not carry the fill value (as in zarr-python).
    let b = bind(
        r#"{"name":"numcodecs.fixedscaleoffset","configuration":{"scale":10,"offset":0,"dtype":"<f8","astype":"<i2"}}"#,
        "float64",
        Some("0"),
    )
    .unwrap();
    assert_eq!(b.encoded_data_type(), DataType::Int16);
    assert_eq!(b.encoded_fill(), None);
}

#[test]
fn a_fill_that_cannot_pass_a_codec_is_an_error_at_that_codec() {
    // 0.5 float32 -> uint8: does not survive cast_value's round trip.
    let e = bind(
        r#"[{"name":"scale_offset","configuration":{"scale":1}},{"name":"cast_value","configuration":{"data_type":"uint8"}}]"#,
        "float32",
        Some("0.5"),
    )
    .unwrap_err();
    assert_eq!(e.code, ErrorCode::InvalidMetadata);
    assert_eq!(e.path.as_deref(), Some("/1"), "{e}");
    assert!(
        e.message
            .starts_with("/1: invalid fill value 0.5 for cast_value"),
        "{e}"
    );
    // NaN into uint8 without a scalar_map: at the lone codec (the root of the argument).
    let e = bind(
        r#"{"name":"cast_value","configuration":{"data_type":"uint8"}}"#,
        "float64",
        Some(r#""NaN""#),
    )
    .unwrap_err();
    assert_eq!(
        (e.code, e.path.as_deref()),
        (ErrorCode::InvalidMetadata, Some(""))
    );
    assert!(
        e.message.contains("invalid fill value NaN for cast_value"),
        "{e}"
    );
    // 300 through scale_offset (x - 100) * 200 = 40000: outside int16, at /0.
    let e = bind(
        r#"[{"name":"scale_offset","configuration":{"offset":100,"scale":200}}]"#,
        "int16",
        Some("300"),
    )
    .unwrap_err();
    assert_eq!(
        (e.code, e.path.as_deref()),
        (ErrorCode::InvalidMetadata, Some("/0"))
    );
    assert!(
        e.message
            .contains("the fill value 300 cannot pass through scale_offset"),
        "{e}"
    );
    // Without the fill the same chain binds (the fill is what fails).
    assert!(bind(
        r#"[{"name":"scale_offset","configuration":{"offset":100,"scale":200}}]"#,
        "int16",
        None
    )
    .is_ok());
}

#[test]
fn errors_have_codes_and_pointers() {
    let check = |codecs: &str,
                 dt: &str,
                 fill: Option<&str>,
                 code: ErrorCode,
                 path: Option<&str>,
                 msg: &str| {
        let e = bind(codecs, dt, fill).unwrap_err();
        assert_eq!(e.code, code, "{codecs} {dt} {fill:?}: {e}");
        assert_eq!(e.path.as_deref(), path, "{codecs}: {e}");
        assert!(e.message.contains(msg), "{codecs}: {e}");
    };
    use ErrorCode::*;
    check(
        r#"[{"name":"cast_value","configuration":{"data_type":"int8"}},{"name":"scale_offset","configuration":{"scale":0}}]"#,
        "float32",
        None,
        InvalidMetadata,
        Some("/1/configuration/scale"),
        "scale must be non-zero",
    );
    check(
        r#"{"name":"scale_offset","configuration":{"scale":2,"bogus":1}}"#,
        "int16",
        None,
        InvalidMetadata,
        Some("/configuration/bogus"),
        "bogus",
    );
    check(
        "gzip",
        "int16",
        None,
        InvalidMetadata,
        Some(""),
        "array->array codecs only",
    );
    check(
        "transpose",
        "int16",
        None,
        UnsupportedCodec,
        Some(""),
        "transpose",
    );
    check(
        "scale_offset",
        "bool",
        None,
        UnsupportedDataType,
        Some(""), // the data type argument is its own root
        "bool",
    );
    check("[", "int16", None, InvalidJson, None, "");
    check(
        r#"["cast_value"]"#,
        "float32",
        None,
        InvalidMetadata,
        Some("/0"),
        "data_type",
    );
    // The fill value: JSON text that does not parse, or a value of the wrong kind.
    check(
        "scale_offset",
        "int16",
        Some("NaN"),
        InvalidJson,
        None,
        "fill value: ",
    );
    check(
        "scale_offset",
        "int16",
        Some("1.5"),
        InvalidMetadata,
        None,
        "fill value: 1.5 is not an integer",
    );
    check(
        "scale_offset",
        "uint8",
        Some("256"),
        InvalidMetadata,
        None,
        "fill value: ",
    );
    check(
        "scale_offset",
        "float32",
        Some("[1]"),
        InvalidMetadata,
        None,
        "fill value: ",
    );
    check(
        "scale_offset",
        "float32",
        Some(r#""0x123456789""#),
        InvalidMetadata,
        None,
        "fill value: ",
    );
}

#[test]
fn data_checks_are_those_of_the_typed_array_api() {
    let b = bind(SO_CAST, "float64", None).unwrap();
    // Not whole elements.
    assert_eq!(
        b.encode(&[0u8; 7]).unwrap_err().code,
        ErrorCode::LengthMismatch
    );
    assert_eq!(
        b.decode(&[0u8; 3]).unwrap_err().code,
        ErrorCode::LengthMismatch
    );
    // An output of the wrong length.
    let mut out = vec![0u8; 3];
    assert_eq!(
        b.encode_into(&f64s(&[300.0]), &mut out).unwrap_err().code,
        ErrorCode::LengthMismatch
    );
    // An element outside int16: its index and value in the message.
    let e = b.encode(&f64s(&[300.0, 1e6])).unwrap_err();
    assert_eq!(e.code, ErrorCode::OutOfRange);
    assert!(e.message.contains("element 1"), "{e}");
    // An invalid in-memory int4 value.
    let b4 = bind(
        r#"{"name":"cast_value","configuration":{"data_type":"float32"}}"#,
        r#"{"name":"int4"}"#,
        None,
    )
    .unwrap();
    assert_eq!(b4.decoded_data_type(), DataType::Int4);
    assert_eq!(
        b4.encode(&[100u8]).unwrap_err().code,
        ErrorCode::InvalidData
    );
    assert_eq!(as_f32_1(&b4.encode(&[0xf9]).unwrap()), -7.0);
}

fn as_f32_1(b: &[u8]) -> f32 {
    f32::from_le_bytes(b.try_into().unwrap())
}

/// One `Bound` shared by 4 threads at once (`std::thread::scope`), each encoding and decoding its
/// own chunks, interleaved: every result, errors included, equals the one computed on this thread
/// alone before. (`Bound: Send + Sync` is also asserted at compile time in src/bound.rs.)
#[test]
fn one_bound_encodes_and_decodes_from_four_threads_at_once() {
    let b = bind(SO_CAST, "float64", Some("273.15")).unwrap();
    let mut rng = Rng(0x2545_f491_4f6c_dd1d);
    // 64 chunks of varied lengths (some past the 2,048-element tile and the 131,072-element
    // I/O tile), every 8th with an element out of int16's range (an error naming its index).
    let chunks: Vec<Vec<u8>> = (0..64)
        .map(|c| {
            let n = match c % 4 {
                0 => 1 + (rng.next() % 100) as usize,
                1 => 2048 + (rng.next() % 5000) as usize,
                2 => 131_072 + (rng.next() % 3) as usize,
                _ => (rng.next() % 20_000) as usize,
            };
            let mut xs: Vec<f64> = (0..n)
                .map(|_| (rng.next() % 60_000) as f64 / 100.0)
                .collect();
            if c % 8 == 7 && n > 0 {
                let i = (rng.next() % n as u64) as usize;
                xs[i] = 1e6;
            }
            f64s(&xs)
        })
        .collect();
    let single: Vec<_> = chunks
        .iter()
        .map(|d| {
            let enc = b.encode(d);
            let dec = enc.as_ref().ok().map(|e| b.decode(e));
            (enc, dec)
        })
        .collect();
    assert!(single.iter().filter(|(e, _)| e.is_err()).count() >= 4);
    assert!(single.iter().filter(|(e, _)| e.is_ok()).count() >= 40);
    let b = &b;
    let chunks = &chunks;
    let results: Vec<Vec<(usize, _)>> = std::thread::scope(|s| {
        let handles: Vec<_> = (0..4)
            .map(|t| {
                s.spawn(move || {
                    // Each thread runs every chunk it owns twice, in its own order, so that
                    // the four threads are inside the same bound codecs at the same time.
                    let mut out = Vec::new();
                    for round in 0..2 {
                        for (i, d) in chunks.iter().enumerate() {
                            if (i + round) % 4 != t {
                                continue;
                            }
                            let enc = b.encode(d);
                            let dec = enc.as_ref().ok().map(|e| {
                                let mut back = vec![0u8; d.len()];
                                b.decode_into(e, &mut back).map(|()| back)
                            });
                            out.push((i, (enc, dec)));
                        }
                    }
                    out
                })
            })
            .collect();
        handles.into_iter().map(|h| h.join().unwrap()).collect()
    });
    let mut seen = vec![0; chunks.len()];
    for (i, got) in results.into_iter().flatten() {
        assert_eq!(got, single[i], "chunk {i}");
        seen[i] += 1;
    }
    assert!(seen.iter().all(|&n| n == 2), "{seen:?}");
}
