//! `numcodecs.fixedscaleoffset` (read-only) and Zarr v2 `.zarray` translation, natively:
//! every vector of `conformance/vectors/fixedscaleoffset.json` (oracle numcodecs 0.17.1 on
//! x86-64) through the codec itself, the fixedscaleoffset metadata errors, the two real stores
//! (the v2 MRI store, zlib; the v3 topobathy store, gzip) decoded and assembled bit for bit, the
//! x86-64 cast table, the read-only error and the replacement sequence.
//!
//! The stores are compressed; this crate does not decompress, so the test inflates each chunk
//! with `python3`'s zlib (python3 is on every machine of this project).
// Test code may unwrap, index and panic (the workspace lints deny them in the library).
#![allow(clippy::restriction)]

use std::fs;
use std::io::Write;
use std::process::{Command, Stdio};

use zarr_scale_offset::internals::codec::fixedscaleoffset::{
    from_fixed_scale_offset, parse_numpy_dtype, x86_float_to_int, FixedScaleOffset, NumpyDtype,
};
use zarr_scale_offset::internals::codec::{BoundArrayCodec, RunOptions};
use zarr_scale_offset::internals::json::{parse, Json};
use zarr_scale_offset::internals::v2::v2_to_v3;
use zarr_scale_offset::Report;
use zarr_scale_offset::{DataType, ErrorCode};
use zarr_scale_offset_core::direction::Direction;

fn hex(s: &str) -> Vec<u8> {
    (0..s.len() / 2)
        .map(|i| u8::from_str_radix(&s[2 * i..2 * i + 2], 16).expect("hex"))
        .collect()
}

/// Element-wise comparison of two in-memory buffers of `dt`, any NaN equal to any NaN.
fn same(dt: DataType, a: &[u8], b: &[u8]) -> Result<(), String> {
    if a.len() != b.len() {
        return Err(format!("length {} != {}", a.len(), b.len()));
    }
    for i in 0..a.len() / dt.size() {
        let (x, y) = (dt.read_bits(a, i), dt.read_bits(b, i));
        if x != y && !dt.float().is_some_and(|f| f.is_nan(x) && f.is_nan(y)) {
            return Err(format!("element {i}: got {x:#x}, want {y:#x}"));
        }
    }
    Ok(())
}

/// The `bytes` codec's decode: stored bytes to in-memory little-endian elements.
fn bytes_decode(dt: DataType, big: bool, stored: &[u8]) -> Vec<u8> {
    let mut v = stored.to_vec();
    if big && dt.size() > 1 {
        v.chunks_exact_mut(dt.size()).for_each(<[u8]>::reverse);
    }
    v
}

/// `(codec, bytes big-endian?)` from a v3 `codecs` list `[fixedscaleoffset, bytes, ...]`.
fn bind(meta: &Json) -> (FixedScaleOffset, bool) {
    let dtype = DataType::from_name(meta.get("data_type").unwrap().as_str().unwrap()).unwrap();
    let codecs = meta.get("codecs").unwrap().as_array().unwrap();
    assert_eq!(
        codecs[0].get("name").unwrap().as_str(),
        Some("numcodecs.fixedscaleoffset")
    );
    assert_eq!(codecs[1].get("name").unwrap().as_str(), Some("bytes"));
    let mut report = Report::default();
    let codec = FixedScaleOffset::parse(
        codecs[0].get("configuration"),
        "/codecs/0",
        dtype,
        &mut report,
    )
    .unwrap_or_else(|| panic!("{:?}", report.errors));
    let big = codecs[1]
        .get("configuration")
        .and_then(|c| c.get("endian"))
        .and_then(Json::as_str)
        == Some("big");
    (codec, big)
}

fn load(family: &str) -> Vec<Json> {
    let text = fs::read_to_string(format!("conformance/vectors/{family}.json")).unwrap();
    match parse(&text).unwrap() {
        Json::Array(v) => v,
        _ => panic!("not an array"),
    }
}

#[test]
fn every_vector_decodes_bit_for_bit() {
    let cases = load("fixedscaleoffset");
    assert_eq!(cases.len(), 38);
    let mut failures = Vec::new();
    for case in &cases {
        let id = case.get("id").unwrap().as_str().unwrap();
        assert_eq!(
            case.get("expect").unwrap().as_str(),
            Some("decode_only"),
            "{id}"
        );
        let (codec, big) = bind(case.get("metadata").unwrap());
        let stored = hex(case.get("encoded").unwrap().as_str().unwrap());
        let want = hex(case.get("decoded").unwrap().as_str().unwrap());
        let got = codec
            .decode_to_vec(&bytes_decode(codec.encoded_dtype(), big, &stored))
            .unwrap();
        if let Err(e) = same(codec.dtype(), &got, &want) {
            failures.push(format!("{id}: {e}"));
        }
    }
    assert!(failures.is_empty(), "{failures:#?}");
}

#[test]
fn metadata_errors_fail_to_parse() {
    let cases: Vec<Json> = load("metadata_errors")
        .into_iter()
        .filter(|c| {
            c.get("id")
                .and_then(Json::as_str)
                .is_some_and(|id| id.starts_with("metadata_errors/fixedscaleoffset/"))
        })
        .collect();
    assert_eq!(cases.len(), 2);
    for case in &cases {
        let id = case.get("id").unwrap().as_str().unwrap();
        let meta = case.get("metadata").unwrap();
        let cfg = meta.get("codecs").unwrap().as_array().unwrap()[0].get("configuration");
        let mut report = Report::default();
        assert!(
            FixedScaleOffset::parse(cfg, "/codecs/0", DataType::Float64, &mut report).is_none(),
            "{id}"
        );
        assert_eq!(report.errors.len(), 1, "{id}: {:?}", report.errors);
        let e = &report.errors[0];
        assert_eq!(e.code, "invalid_metadata", "{id}");
        let want = if id.ends_with("scale-string") {
            "/codecs/0/configuration/scale"
        } else {
            "/codecs/0/configuration"
        };
        assert_eq!(e.path, want, "{id}: {}", e.message);
    }
}

/// Inflates zlib (`wbits` 15) or gzip (`wbits` 31) data with python3's zlib.
fn inflate(data: &[u8], wbits: u32) -> Vec<u8> {
    let script = format!(
        "import zlib,sys; sys.stdout.buffer.write(zlib.decompress(sys.stdin.buffer.read(), {wbits}))"
    );
    let mut child = Command::new("python3")
        .args(["-c", &script])
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .spawn()
        .expect("python3");
    child.stdin.take().unwrap().write_all(data).unwrap();
    let out = child.wait_with_output().unwrap();
    assert!(out.status.success(), "python3 zlib failed");
    out.stdout
}

/// Decodes every chunk of a 2-D store and assembles the array (C order; edge chunks are stored
/// whole and cut; a missing chunk reads as the fill value).
fn read_store(dir: &str, meta: &Json, key: impl Fn(usize, usize) -> String, wbits: u32) -> Vec<u8> {
    let dims = |v: &Json| -> Vec<usize> {
        v.as_array()
            .unwrap()
            .iter()
            .map(|n| n.as_number().unwrap().parse().unwrap())
            .collect()
    };
    let shape = dims(meta.get("shape").unwrap());
    let chunk = dims(
        meta.get("chunk_grid")
            .unwrap()
            .get("configuration")
            .unwrap()
            .get("chunk_shape")
            .unwrap(),
    );
    let (codec, big) = bind(meta);
    let d = codec.dtype();
    let fill =
        zarr_scale_offset::internals::json::parse_scalar(d, meta.get("fill_value").unwrap(), "")
            .unwrap()
            .bits;
    let n = d.size();
    let mut out = vec![0u8; shape[0] * shape[1] * n];
    let mut missing = 0;
    for ci in 0..shape[0].div_ceil(chunk[0]) {
        for cj in 0..shape[1].div_ceil(chunk[1]) {
            let path = format!("{dir}/{}", key(ci, cj));
            let decoded = match fs::read(&path) {
                Ok(data) => {
                    let raw = inflate(&data, wbits);
                    assert_eq!(
                        raw.len(),
                        chunk[0] * chunk[1] * codec.encoded_dtype().size()
                    );
                    codec
                        .decode_to_vec(&bytes_decode(codec.encoded_dtype(), big, &raw))
                        .unwrap()
                }
                Err(_) => {
                    missing += 1;
                    let mut v = vec![0u8; chunk[0] * chunk[1] * n];
                    for i in 0..chunk[0] * chunk[1] {
                        d.write_bits(&mut v, i, fill);
                    }
                    v
                }
            };
            for r in 0..chunk[0] {
                let gi = ci * chunk[0] + r;
                if gi >= shape[0] {
                    break;
                }
                let j0 = cj * chunk[1];
                let w = chunk[1].min(shape[1] - j0);
                let src = &decoded[r * chunk[1] * n..(r * chunk[1] + w) * n];
                out[(gi * shape[1] + j0) * n..(gi * shape[1] + j0 + w) * n].copy_from_slice(src);
            }
        }
    }
    assert!(missing < 2, "unexpected missing chunks in {dir}");
    out
}

#[test]
fn mri_v2_store() {
    let dir = "tests/fixtures/stores/mri_v2_fixedscaleoffset.zarr";
    let zarray = parse(&fs::read_to_string(format!("{dir}/.zarray")).unwrap()).unwrap();
    let meta = v2_to_v3(&zarray).unwrap();
    let codecs = meta.get("codecs").unwrap().as_array().unwrap();
    assert_eq!(codecs.len(), 3);
    assert_eq!(
        codecs[2].get("name").unwrap().as_str(),
        Some("numcodecs.zlib")
    );
    let sep = meta
        .get("chunk_key_encoding")
        .unwrap()
        .get("configuration")
        .unwrap()
        .get("separator")
        .unwrap()
        .as_str()
        .unwrap()
        .to_string();
    let got = read_store(dir, &meta, |i, j| format!("{i}{sep}{j}"), 15);
    let want = fs::read(format!("{dir}/expected.bin")).unwrap();
    assert_eq!(want.len(), 256 * 256 * 4);
    same(DataType::Float32, &got, &want).unwrap();
}

#[test]
fn topobathy_v3_store() {
    let dir = "tests/fixtures/stores/topobathy_v3_numcodecs_fixedscaleoffset.zarr";
    let meta = parse(&fs::read_to_string(format!("{dir}/zarr.json")).unwrap()).unwrap();
    let codecs = meta.get("codecs").unwrap().as_array().unwrap();
    assert_eq!(codecs[2].get("name").unwrap().as_str(), Some("gzip"));
    let got = read_store(dir, &meta, |i, j| format!("c/{i}/{j}"), 31);
    let want = fs::read(format!("{dir}/expected.bin")).unwrap();
    assert_eq!(want.len(), 91 * 120 * 8);
    same(DataType::Float64, &got, &want).unwrap();
}

#[test]
fn numpy_dtype_spellings() {
    use DataType::*;
    let little = |d| NumpyDtype {
        data_type: d,
        big_endian: Some(false),
    };
    let none = |d| NumpyDtype {
        data_type: d,
        big_endian: None,
    };
    let cases: [(&str, NumpyDtype); 30] = [
        ("<f8", little(Float64)),
        ("<f4", little(Float32)),
        ("<f2", little(Float16)),
        ("|u1", none(UInt8)),
        ("<u1", little(UInt8)),
        ("u1", none(UInt8)),
        ("|i1", none(Int8)),
        ("i1", none(Int8)),
        ("f8", none(Float64)),
        ("=f4", none(Float32)),
        ("<i2", little(Int16)),
        ("<i4", little(Int32)),
        ("<i8", little(Int64)),
        ("<u2", little(UInt16)),
        ("<u4", little(UInt32)),
        ("<u8", little(UInt64)),
        ("float64", none(Float64)),
        ("float32", none(Float32)),
        ("float16", none(Float16)),
        ("int8", none(Int8)),
        ("uint16", none(UInt16)),
        ("uint64", none(UInt64)),
        ("double", none(Float64)),
        ("half", none(Float16)),
        ("float", none(Float64)),
        ("int", none(Int64)),
        ("d", none(Float64)),
        ("<f", little(Float32)),
        ("B", none(UInt8)),
        ("h", none(Int16)),
    ];
    for (s, want) in cases {
        assert_eq!(parse_numpy_dtype(s), Some(want), "{s}");
    }
    let big = parse_numpy_dtype(">f8").unwrap();
    assert_eq!(big.big_endian, Some(true));
    assert!(big.is_big());
    // A byte order on a one-byte type changes nothing.
    assert!(!parse_numpy_dtype(">u1").unwrap().is_big());
    for bad in [
        "",
        "<",
        "f",
        "<float64",
        "f16",
        "i3",
        "b1",
        "bool",
        "c8",
        "complex64",
        "U5",
        "S3",
        "bfloat16",
        "Float64",
        " f8",
        "<f8 ",
    ] {
        if bad == "f" {
            continue; // "f" is float32's type code
        }
        assert_eq!(parse_numpy_dtype(bad), None, "{bad:?}");
    }
}

#[test]
fn x86_cast_table() {
    use DataType::*;
    let nan = f64::NAN;
    let rows: [(DataType, &[f64], &[i128]); 6] = [
        (UInt8, &[300.0, -1.0, 256.7, 1e10, nan], &[44, 255, 0, 0, 0]),
        (
            Int16,
            &[40000.0, -40000.0, 1e10, nan],
            &[-25536, 25536, 0, 0],
        ),
        (
            Int32,
            &[3e9, nan, f64::INFINITY],
            &[i32::MIN as i128, i32::MIN as i128, i32::MIN as i128],
        ),
        (UInt32, &[5e9, -1.0, nan], &[705032704, 4294967295, 0]),
        (Int64, &[1e19, nan], &[i64::MIN as i128, i64::MIN as i128]),
        (
            UInt64,
            &[2e19, -1.0, nan],
            &[0, u64::MAX as i128, 1i128 << 63],
        ),
    ];
    for (to, xs, want) in rows {
        let got: Vec<i128> = xs
            .iter()
            .map(|&x| x86_float_to_int(x, to).unwrap())
            .collect();
        assert_eq!(got, want, "{to}");
    }
    // Truncation toward zero, and the other narrow types through int32.
    assert_eq!(x86_float_to_int(-2.9, Int8), Some(-2));
    assert_eq!(x86_float_to_int(-129.0, Int8), Some(127));
    assert_eq!(x86_float_to_int(65536.5, UInt16), Some(0));
    assert_eq!(x86_float_to_int(-1e10, UInt16), Some(0));
    assert_eq!(x86_float_to_int(f64::INFINITY, UInt64), Some(0));
    assert_eq!(x86_float_to_int(-1e30, UInt64), Some(1i128 << 63));
    assert_eq!(
        x86_float_to_int(1.5e19, UInt64),
        Some(15_000_000_000_000_000_000)
    );
    assert_eq!(x86_float_to_int(1.0, Int4), None);
    assert_eq!(x86_float_to_int(1.0, Float32), None);
}

fn codec(cfg: &str, dtype: DataType) -> FixedScaleOffset {
    let mut r = Report::default();
    FixedScaleOffset::parse(Some(&parse(cfg).unwrap()), "/codecs/0", dtype, &mut r)
        .unwrap_or_else(|| panic!("{:?}", r.errors))
}

#[test]
fn decode_examples_of_peers_md() {
    // dtype int16, astype int32, offset -40000: -40000 wraps inside int32 truncation.
    let c = codec(
        r#"{"offset":-40000,"scale":1,"dtype":"<i2","astype":"<i4"}"#,
        DataType::Int16,
    );
    let input: Vec<u8> = [0i32, 100].iter().flat_map(|v| v.to_le_bytes()).collect();
    let out = c.decode_to_vec(&input).unwrap();
    assert_eq!(
        out,
        [25536i16.to_le_bytes(), 25636i16.to_le_bytes()].concat()
    );
    // A NaN fill value with an integer astype: the fill is not transformed, metadata is valid.
    let meta = parse(
        r#"{"data_type":"float64","fill_value":"NaN","codecs":[{"name":"numcodecs.fixedscaleoffset",
        "configuration":{"offset":1000,"scale":10,"dtype":"<f8","astype":"|u1"}},{"name":"bytes"}]}"#,
    )
    .unwrap();
    let (c, _) = bind(&meta);
    assert_eq!(c.decode_to_vec(&[5]).unwrap(), 1000.5f64.to_le_bytes());
}

#[test]
fn encode_is_read_only_and_names_the_replacement() {
    let c = codec(
        r#"{"offset":1000,"scale":10,"dtype":"<f8","astype":"|u1"}"#,
        DataType::Float64,
    );
    let mut out = [0u8; 1];
    let e = c
        .run(Direction::Encode, &[0; 8], &mut out, RunOptions::default())
        .unwrap_err();
    assert_eq!(e.code, ErrorCode::ReadOnly);
    assert!(
        e.message.contains(
            r#"[{"name":"scale_offset","configuration":{"scale":10,"offset":1000}},{"name":"cast_value","configuration":{"data_type":"uint8","rounding":"nearest-even","out_of_range":"wrap"}}]"#
        ),
        "{}",
        e.message
    );
    // No replacement when scale_offset cannot hold the numbers in the array data type.
    let c = codec(
        r#"{"offset":1000,"scale":0.5,"dtype":"<i2","astype":"|u1"}"#,
        DataType::Int16,
    );
    let e = c
        .run(
            Direction::Encode,
            &[0; 1],
            &mut [0u8; 2],
            RunOptions::default(),
        )
        .unwrap_err();
    assert_eq!(e.code, ErrorCode::ReadOnly);
    assert!(e.message.contains("scale 0.5"), "{}", e.message);
    assert_eq!(
        c.replacement().unwrap_err().code,
        ErrorCode::NotRepresentable
    );
}

#[test]
fn replacement_of_the_spec_example() {
    let spec = parse(
        r#"{"name":"numcodecs.fixedscaleoffset","configuration":{"astype":"uint8","dtype":"float32","scale":0.1,"offset":10}}"#,
    )
    .unwrap();
    let want = r#"[{"name":"scale_offset","configuration":{"scale":0.1,"offset":10}},{"name":"cast_value","configuration":{"data_type":"uint8","rounding":"nearest-even","out_of_range":"wrap"}}]"#;
    assert_eq!(
        from_fixed_scale_offset(&spec, None)
            .unwrap()
            .to_json_string(),
        want
    );
    assert_eq!(
        from_fixed_scale_offset(&spec, Some(DataType::Float32))
            .unwrap()
            .to_json_string(),
        want
    );
    // The bare configuration and the v2 filter form give the same.
    let cfg = spec.get("configuration").unwrap();
    assert_eq!(
        from_fixed_scale_offset(cfg, None).unwrap().to_json_string(),
        want
    );
    let filter =
        parse(r#"{"id":"fixedscaleoffset","astype":"|u1","dtype":"<f4","scale":0.1,"offset":10}"#)
            .unwrap();
    assert_eq!(
        from_fixed_scale_offset(&filter, None)
            .unwrap()
            .to_json_string(),
        want
    );
    // astype == dtype: scale_offset alone; a float astype: no out_of_range.
    let same = parse(r#"{"offset":1000,"scale":1e12,"dtype":"<f8"}"#).unwrap();
    assert_eq!(
        from_fixed_scale_offset(&same, None)
            .unwrap()
            .to_json_string(),
        r#"[{"name":"scale_offset","configuration":{"scale":1e12,"offset":1000}}]"#
    );
    let float = parse(r#"{"offset":0.5,"scale":3,"dtype":"<f8","astype":"<f4"}"#).unwrap();
    assert_eq!(
        from_fixed_scale_offset(&float, None)
            .unwrap()
            .to_json_string(),
        r#"[{"name":"scale_offset","configuration":{"scale":3,"offset":0.5}},{"name":"cast_value","configuration":{"data_type":"float32","rounding":"nearest-even"}}]"#
    );
    // An integer dtype: integral float text is written as an integer.
    let int = parse(r#"{"offset":1000.0,"scale":10,"dtype":"<i2","astype":"|u1"}"#).unwrap();
    assert_eq!(
        from_fixed_scale_offset(&int, None)
            .unwrap()
            .to_json_string(),
        r#"[{"name":"scale_offset","configuration":{"scale":10,"offset":1000}},{"name":"cast_value","configuration":{"data_type":"uint8","rounding":"nearest-even","out_of_range":"wrap"}}]"#
    );
    // Errors: a mismatched array data type, no data type at all, a bad config.
    assert!(from_fixed_scale_offset(&spec, Some(DataType::Float64)).is_err());
    let no_dtype = parse(r#"{"offset":0,"scale":1}"#).unwrap();
    assert_eq!(
        from_fixed_scale_offset(&no_dtype, None).unwrap_err().code,
        ErrorCode::InvalidMetadata
    );
    let e = from_fixed_scale_offset(
        &parse(r#"{"offset":0,"scale":"1","dtype":"<f8"}"#).unwrap(),
        None,
    )
    .unwrap_err();
    assert_eq!(e.path.as_deref(), Some("/scale"));
}

/// Where the replacement differs from numcodecs, with values from the vectors (the module
/// documentation of `codec::fixedscaleoffset` quotes these).
#[test]
fn replacement_differs_from_numcodecs() {
    let cases = load("fixedscaleoffset");
    let find = |id: &str| {
        cases
            .iter()
            .find(|c| c.get("id").and_then(Json::as_str) == Some(id))
            .unwrap()
    };
    // 1. Arithmetic type: dtype float32, astype int16, scale 10, offset 1000. numcodecs
    // computes in float64 and rounds once; scale_offset computes in float32.
    let case = find("fixedscaleoffset/<f4-><i2/s4/raw-codes");
    let stored = hex(case.get("encoded").unwrap().as_str().unwrap());
    let want = hex(case.get("decoded").unwrap().as_str().unwrap());
    let mut differs = Vec::new();
    for i in 0..stored.len() / 2 {
        let y = i16::from_le_bytes([stored[2 * i], stored[2 * i + 1]]);
        let numcodecs = f32::from_le_bytes(want[4 * i..4 * i + 4].try_into().unwrap());
        assert_eq!(numcodecs, (y as f64 / 10.0 + 1000.0) as f32);
        let replacement = y as f32 / 10.0f32 + 1000.0f32;
        if replacement.to_bits() != numcodecs.to_bits() {
            differs.push((y, numcodecs.to_bits(), replacement.to_bits()));
        }
    }
    assert!(
        differs.contains(&(-22874, 0xC4A0_ECCD, 0xC4A0_ECCC)),
        "{differs:x?}"
    );
    assert_eq!(f32::from_bits(0xC4A0_ECCD), -1287.4);
    assert_eq!(f32::from_bits(0xC4A0_ECCC), -1287.3999);
    // 2. Rounding to an integer dtype: numcodecs truncates 1000.5 to 1000; scale_offset on
    // int16 would need 5 / 10 to be exact.
    let case = find("fixedscaleoffset/int-dtype-truncation");
    assert_eq!(case.get("encoded").unwrap().as_str(), Some("05ff00"));
    assert_eq!(case.get("decoded").unwrap().as_str(), Some("e8030104e803"));
    let (stored, scale): (i16, i16) = (5, 10);
    assert_ne!(stored % scale, 0); // inexact in int16: scale_offset's decode refuses it
    let c = codec(
        r#"{"offset":1000,"scale":10,"dtype":"<i2","astype":"|u1"}"#,
        DataType::Int16,
    );
    assert_eq!(c.decode_to_vec(&[5]).unwrap(), 1000i16.to_le_bytes());
    // 3. Out of range: numcodecs on x86-64 vs cast_value's wrap.
    assert_eq!(x86_float_to_int(5_000_000_001.0, DataType::UInt8), Some(0));
    assert_eq!(5_000_000_001u64 % 256, 1); // what wrap gives
    assert_eq!(
        x86_float_to_int(3e9, DataType::Int32),
        Some(i32::MIN as i128)
    );
    assert_eq!(3_000_000_000i64 - (1i64 << 32), -1_294_967_296); // what wrap gives
    assert_eq!(x86_float_to_int(f64::NAN, DataType::UInt8), Some(0)); // wrap rejects NaN
}
