//! cf.scale_offset against xarray.decode_cf's rule, and from_cf's choice of data type.
// Test code may unwrap, index and panic (the workspace lints deny them in the library).
#![allow(clippy::restriction)]

use zarr_scale_offset::internals::json::{parse, Json};
use zarr_scale_offset::{decode, decode_chunk, encode_chunk, from_cf, validate, ErrorCode};

fn u16s(v: impl Iterator<Item = u16>) -> Vec<u8> {
    v.flat_map(|x| x.to_le_bytes()).collect()
}
fn f64s_of(b: &[u8]) -> Vec<f64> {
    b.chunks_exact(8)
        .map(|c| f64::from_le_bytes(c.try_into().unwrap()))
        .collect()
}

/// A zarr.json for one chunk of `n` elements built from from_cf's output.
fn doc_from_cf(cf: &str, n: usize) -> String {
    let j = parse(cf).unwrap();
    format!(
        r#"{{"zarr_format":3,"node_type":"array","shape":[{n}],"data_type":{},"chunk_grid":{{"name":"regular","configuration":{{"chunk_shape":[{n}]}}}},"chunk_key_encoding":{{"name":"default"}},"fill_value":{},"codecs":{}}}"#,
        j.get("data_type").unwrap().to_json_string(),
        j.get("fill_value").unwrap().to_json_string(),
        j.get("codecs").unwrap().to_json_string()
    )
}

#[test]
fn all_65536_uint16_codes_sentinel2_convention() {
    // scale_factor 1e-4, add_offset -0.1 as Python floats, _FillValue 0 (uint16).
    let cf = from_cf(
        r#"{"scale_factor":0.0001,"add_offset":-0.1,"_FillValue":0}"#,
        "uint16",
        None,
    )
    .unwrap();
    let j = parse(&cf).unwrap();
    assert_eq!(j.get("data_type").and_then(Json::as_str), Some("float64"));
    let doc = doc_from_cf(&cf, 65536);
    assert!(validate(&doc, None).is_ok());
    let stored = u16s(0..=u16::MAX);
    let got = f64s_of(&decode_chunk(&doc, &stored).unwrap());
    let (sf, ao) = (0.0001f64, -0.1f64);
    assert!(got[0].is_nan(), "the fill code decodes to NaN");
    for (code, g) in got.iter().enumerate().skip(1) {
        // xarray: data.astype(float64); data *= scale_factor; data += add_offset (two roundings).
        let want = code as f64 * sf + ao;
        assert_eq!(g.to_bits(), want.to_bits(), "code {code}");
    }
    // Encoding the decoded values gives the codes back (nearest-even), NaN -> 0.
    assert_eq!(
        encode_chunk(&doc, &decode_chunk(&doc, &stored).unwrap()).unwrap(),
        stored
    );
}

#[test]
fn divide_to_unpack_differs_on_19858_codes() {
    // scale_offset with scale = 1/scale_factor divides: one ulp off xarray on 19,858 codes.
    let stored = u16s(0..=u16::MAX);
    let so = r#"[{"name":"scale_offset","configuration":{"offset":-0.1,"scale":10000}},{"name":"cast_value","configuration":{"data_type":"uint16"}}]"#;
    let cf = r#"[{"name":"cf.scale_offset","configuration":{"offset":-0.1,"scale":0.0001}},{"name":"cast_value","configuration":{"data_type":"uint16"}}]"#;
    let a = f64s_of(&decode(so, "float64", &stored).unwrap());
    let b = f64s_of(&decode(cf, "float64", &stored).unwrap());
    let xarray: Vec<f64> = (0..=u16::MAX).map(|c| c as f64 * 0.0001 + -0.1).collect();
    assert_eq!(b, xarray);
    assert_eq!((0..65536).filter(|&i| a[i] != xarray[i]).count(), 19_858);
}

#[test]
fn float32_attributes_compute_in_float32() {
    // int16 with float32 scale_factor 0.01 and add_offset 273.15: xarray picks float32 and does
    // f32(x) * f32(0.01), then + f32(273.15), each rounded to float32.
    let cf = from_cf(
        r#"{"scale_factor":0.01,"add_offset":273.15,"_FillValue":-32767}"#,
        "int16",
        Some("float32"),
    )
    .unwrap();
    let j = parse(&cf).unwrap();
    assert_eq!(j.get("data_type").and_then(Json::as_str), Some("float32"));
    let doc = doc_from_cf(&cf, 65536);
    let stored: Vec<u8> = (i16::MIN..=i16::MAX)
        .flat_map(|x| x.to_le_bytes())
        .collect();
    let got: Vec<f32> = decode_chunk(&doc, &stored)
        .unwrap()
        .chunks_exact(4)
        .map(|c| f32::from_le_bytes(c.try_into().unwrap()))
        .collect();
    let (sf, ao) = (0.01f32, 273.15f32);
    for (i, x) in (i16::MIN..=i16::MAX).enumerate() {
        if x == -32767 {
            assert!(got[i].is_nan());
            continue;
        }
        let want = x as f32 * sf + ao;
        assert_eq!(got[i].to_bits(), want.to_bits(), "{x}");
    }
}

#[test]
fn xarray_choose_float_dtype_rules() {
    let dt = |attrs: &str, packed: &str, ad: Option<&str>| {
        let j = parse(&from_cf(attrs, packed, ad).unwrap()).unwrap();
        j.get("data_type")
            .and_then(Json::as_str)
            .unwrap()
            .to_string()
    };
    // peers.md §6.2, observed with xarray 2026.9.0 + numpy 2.5.5.
    assert_eq!(
        dt(
            r#"{"scale_factor":0.0001,"add_offset":-0.1}"#,
            "uint16",
            None
        ),
        "float64"
    );
    assert_eq!(
        dt(
            r#"{"scale_factor":0.01,"add_offset":273.15}"#,
            "int16",
            Some("float32")
        ),
        "float32"
    );
    assert_eq!(
        dt(
            r#"{"scale_factor":0.01,"add_offset":273.15}"#,
            "int32",
            Some("float32")
        ),
        "float64"
    );
    assert_eq!(
        dt(
            r#"{"scale_factor":{"value":0.5,"dtype":"float32"}}"#,
            "uint8",
            None
        ),
        "float32"
    );
    assert_eq!(dt(r#"{"scale_factor":0.5}"#, "uint8", None), "float64");
    assert_eq!(
        dt(
            r#"{"scale_factor":{"value":0.01,"dtype":"float32"},"add_offset":273.15}"#,
            "int16",
            None
        ),
        "float64"
    );
    assert_eq!(dt(r#"{"scale_factor":2}"#, "int16", None), "int64");
    assert_eq!(dt(r#"{"add_offset":10}"#, "int16", None), "float64");
    assert_eq!(dt(r#"{"scale_factor":0.1}"#, "float32", None), "float64");
    assert_eq!(
        dt(
            r#"{"scale_factor":{"value":0.1,"dtype":"float32"}}"#,
            "float16",
            None
        ),
        "float32"
    );
    assert_eq!(
        dt(
            r#"{"scale_factor":{"value":0.5,"dtype":"float16"},"add_offset":{"value":1,"dtype":"float16"}}"#,
            "int8",
            None
        ),
        "float64"
    );
    assert_eq!(dt(r#"{"_FillValue":-1}"#, "int16", None), "float32");
    assert_eq!(dt(r#"{"_FillValue":-1}"#, "int32", None), "float64");
    // _Unsigned: int8 data read as uint8, with the fill -1 meaning 255.
    for fill in ["-1", "255"] {
        let attrs = format!(
            r#"{{"_Unsigned":"true","_FillValue":{fill},"scale_factor":{{"value":0.5,"dtype":"float32"}}}}"#
        );
        let cf = from_cf(&attrs, "int8", None).unwrap();
        assert!(
            cf.contains(r#""data_type":"uint8""#) && cf.contains(r#"[255,"NaN"]"#),
            "{cf}"
        );
        let doc = doc_from_cf(&cf, 3);
        let out = decode_chunk(&doc, &[255, 128, 1]).unwrap();
        let v: Vec<f32> = out
            .chunks_exact(4)
            .map(|c| f32::from_le_bytes(c.try_into().unwrap()))
            .collect();
        assert!(v[0].is_nan());
        assert_eq!(&v[1..], &[64.0, 0.5]);
    }
    // An integer scale_factor gives int64, which cannot hold a NaN fill.
    assert!(from_cf(r#"{"scale_factor":2,"_FillValue":-1}"#, "int16", None).is_err());
}

/// from_cf's result as (data type, codec names, warnings as (pointer, message)).
fn parts(attrs: &str, packed: &str) -> (String, Vec<String>, Vec<(String, String)>) {
    let j =
        parse(&from_cf(attrs, packed, None).unwrap_or_else(|e| panic!("{attrs} {packed}: {e}")))
            .unwrap();
    let dt = j
        .get("data_type")
        .and_then(Json::as_str)
        .unwrap()
        .to_string();
    let names = j
        .get("codecs")
        .and_then(Json::as_array)
        .unwrap()
        .iter()
        .map(|c| c.get("name").and_then(Json::as_str).unwrap().to_string())
        .collect();
    let warnings = j
        .get("warnings")
        .and_then(Json::as_array)
        .unwrap()
        .iter()
        .map(|w| {
            (
                w.get("pointer").and_then(Json::as_str).unwrap().to_string(),
                w.get("message").and_then(Json::as_str).unwrap().to_string(),
            )
        })
        .collect();
    (dt, names, warnings)
}

#[test]
fn nothing_to_unpack_keeps_the_packed_type() {
    // xarray: without scale_factor, add_offset and a non-NaN fill value, CFMaskCoder and
    // CFScaleOffsetCoder leave the variable alone (issue 12: fromCF({}, "int16") gave float32).
    for dt in zarr_scale_offset_core::dtype::ALL {
        let name = dt.name();
        for attrs in [r#"{}"#, r#"{"units":"K","long_name":"x"}"#] {
            let (got, codecs, warnings) = parts(attrs, name);
            assert_eq!(got, name, "{attrs} {name}");
            assert_eq!(codecs, ["bytes"], "{attrs} {name}");
            assert!(warnings.is_empty(), "{attrs} {name}: {warnings:?}");
        }
    }
    // uint64 2^64-1 stays 2^64-1 (it became 2^64 as float64), int64 -2^63 stays exact.
    let cf = from_cf("{}", "uint64", None).unwrap();
    let out = decode_chunk(&doc_from_cf(&cf, 2), &[0xff; 16]).unwrap();
    assert_eq!(out, [0xff; 16]);
    let cf = from_cf("{}", "int64", None).unwrap();
    let stored: Vec<u8> = [i64::MIN, i64::MAX]
        .iter()
        .flat_map(|x| x.to_le_bytes())
        .collect();
    assert_eq!(decode_chunk(&doc_from_cf(&cf, 2), &stored).unwrap(), stored);
    // _Unsigned alone reinterprets the stored bytes and nothing else: int8 -> uint8.
    let (got, codecs, _) = parts(r#"{"_Unsigned":"true"}"#, "int8");
    assert_eq!((got.as_str(), codecs), ("uint8", vec!["bytes".to_string()]));
    let (got, _, _) = parts(r#"{"_Unsigned":"false"}"#, "uint16");
    assert_eq!(got, "int16");
}

#[test]
fn nan_fill_on_integer_data_is_ignored_with_a_warning() {
    // xarray's _check_fill_values drops a NaN-only _FillValue/missing_value of integer data
    // with a SerializationWarning. JSON null is how JS writes NaN, "NaN" how zarr writes it.
    for (attrs, pointer) in [
        (r#"{"_FillValue":null}"#, "/_FillValue"),
        (r#"{"_FillValue":"NaN"}"#, "/_FillValue"),
        (r#"{"missing_value":[null,"nan"]}"#, "/missing_value"),
        (
            r#"{"_FillValue":{"value":null,"dtype":"float32"}}"#,
            "/_FillValue",
        ),
    ] {
        for packed in ["int8", "int16", "uint16", "int32", "uint64"] {
            let (got, codecs, warnings) = parts(attrs, packed);
            assert_eq!(got, packed, "{attrs} {packed}");
            assert_eq!(codecs, ["bytes"], "{attrs} {packed}");
            assert_eq!(warnings.len(), 1, "{attrs} {packed}: {warnings:?}");
            assert_eq!(warnings[0].0, pointer);
            assert!(warnings[0].1.contains("NaN"), "{}", warnings[0].1);
        }
    }
    // With a scale_factor the variable is unpacked as if there were no fill: uint8 with a
    // Python-float scale gives float64 (no mask), value x * 0.5.
    let (got, codecs, warnings) = parts(r#"{"_FillValue":"NaN","scale_factor":0.5}"#, "uint8");
    assert_eq!(
        (got.as_str(), codecs.len(), warnings.len()),
        ("float64", 3, 1)
    );
    let cf = from_cf(r#"{"_FillValue":"NaN","scale_factor":0.5}"#, "uint8", None).unwrap();
    let out = f64s_of(&decode_chunk(&doc_from_cf(&cf, 3), &[0, 3, 255]).unwrap());
    assert_eq!(out, [0.0, 1.5, 127.5]);
    // A non-NaN value next to the NaN still masks.
    let (got, _, warnings) = parts(r#"{"missing_value":["NaN",-1]}"#, "int16");
    assert_eq!((got.as_str(), warnings.len()), ("float32", 0));
}

#[test]
fn nan_fill_on_float_data_keeps_the_packed_type_when_scaling() {
    // Float data with a NaN _FillValue: CFMaskCoder masks nothing but keeps the attribute, so
    // CFScaleOffsetCoder computes in the packed type: float32 * Python float 0.1 in float32.
    let xs = [1.0f32, 3.0, 7.0, 1.0e-3, 123.456];
    let stored: Vec<u8> = xs.iter().flat_map(|x| x.to_le_bytes()).collect();
    let (got, _, warnings) = parts(r#"{"_FillValue":"NaN","scale_factor":0.1}"#, "float32");
    assert_eq!((got.as_str(), warnings.len()), ("float32", 0));
    let cf = from_cf(
        r#"{"_FillValue":"NaN","scale_factor":0.1}"#,
        "float32",
        None,
    )
    .unwrap();
    let out = decode_chunk(&doc_from_cf(&cf, xs.len()), &stored).unwrap();
    for (i, c) in out.chunks_exact(4).enumerate() {
        let want = xs[i] * 0.1f32;
        assert_eq!(
            f32::from_le_bytes(c.try_into().unwrap()).to_bits(),
            want.to_bits(),
            "{i}"
        );
    }
    // Without the fill attribute xarray's _choose_float_dtype gives float64.
    assert_eq!(parts(r#"{"scale_factor":0.1}"#, "float32").0, "float64");
    // A fill value on float data without scaling keeps the float type (maybe_promote), float16
    // included (it was float32).
    assert_eq!(parts(r#"{"_FillValue":0}"#, "float16").0, "float16");
    assert_eq!(parts(r#"{"_FillValue":"NaN"}"#, "float16").0, "float16");
    assert_eq!(parts(r#"{"_FillValue":-1}"#, "float64").0, "float64");
}

#[test]
fn fill_values_no_code_equals_mask_nothing_with_a_warning() {
    // int8 data, _FillValue 300: xarray promotes to float32 and compares; nothing matches.
    for attrs in [r#"{"_FillValue":300}"#, r#"{"missing_value":1.5}"#] {
        let (got, codecs, warnings) = parts(attrs, "int8");
        assert_eq!(got, "float32", "{attrs}");
        assert_eq!(codecs, ["cast_value", "bytes"], "{attrs}");
        assert_eq!(warnings.len(), 1, "{attrs}");
        let cf = from_cf(attrs, "int8", None).unwrap();
        let j = parse(&cf).unwrap();
        assert_eq!(j.get("fill_value").unwrap().to_json_string(), "0.0");
        let out = decode_chunk(&doc_from_cf(&cf, 3), &[0x80, 0xff, 0x7f]).unwrap();
        let v: Vec<f32> = out
            .chunks_exact(4)
            .map(|c| f32::from_le_bytes(c.try_into().unwrap()))
            .collect();
        assert_eq!(v, [-128.0, -1.0, 127.0]);
    }
    // _Unsigned: xarray reinterprets _FillValue only; missing_value -1 on uint8 never matches.
    let (got, _, warnings) = parts(r#"{"_Unsigned":"true","missing_value":-1}"#, "int8");
    assert_eq!((got.as_str(), warnings.len()), ("float32", 1));
    assert_eq!(warnings[0].0, "/missing_value");
    let cf = from_cf(r#"{"_Unsigned":"true","missing_value":-1}"#, "int8", None).unwrap();
    let out = decode_chunk(&doc_from_cf(&cf, 2), &[255, 1]).unwrap();
    let v: Vec<f32> = out
        .chunks_exact(4)
        .map(|c| f32::from_le_bytes(c.try_into().unwrap()))
        .collect();
    assert_eq!(v, [255.0, 1.0]);
    // Not a number at all stays an error.
    assert!(from_cf(r#"{"_FillValue":"abc"}"#, "int8", None).is_err());
    assert!(from_cf(r#"{"_FillValue":true}"#, "int8", None).is_err());
}

#[test]
fn unsigned_acts_on_the_two_strings_only() {
    // xarray compares `unsigned == "true"` / `"false"`: a JSON true, "TRUE" or "yes" does nothing.
    for v in ["true", r#""TRUE""#, r#""yes""#, "1"] {
        let attrs = format!(r#"{{"_Unsigned":{v}}}"#);
        let (got, _, warnings) = parts(&attrs, "int8");
        assert_eq!(got, "int8", "{attrs}");
        assert_eq!(warnings.len(), 1, "{attrs}");
        assert_eq!(warnings[0].0, "/_Unsigned");
    }
    // On float data xarray warns and ignores it.
    let (got, _, warnings) = parts(r#"{"_Unsigned":"true","scale_factor":0.5}"#, "float32");
    assert_eq!((got.as_str(), warnings.len()), ("float64", 1));
}

#[test]
fn attribute_types_are_the_netcdf_float_types() {
    // netCDF attributes are float32 or float64. float8_e8m0fnu (no zero) used to be accepted and
    // gave metadata whose all-zero chunk failed to decode (the from_cf fuzz target found it).
    for t in ["float32", "float64"] {
        assert!(from_cf(
            r#"{"scale_factor":7670,"_FillValue":-37}"#,
            "float32",
            Some(t)
        )
        .is_ok());
    }
    for t in [
        "float8_e8m0fnu",
        "bfloat16",
        "float16",
        "float4_e2m1fn",
        "int32",
    ] {
        let e = from_cf(
            r#"{"scale_factor":7670,"_FillValue":-37}"#,
            "float32",
            Some(t),
        )
        .unwrap_err();
        assert_eq!(e.code, ErrorCode::InvalidMetadata, "{t}");
        assert!(e.to_string().contains("float32 or float64"), "{t}: {e}");
    }
}

/// The decoded elements of `cf` (from_cf's output) for the stored bytes `stored` of `n` elements,
/// or the core's error.
fn decode_cf_chunk(cf: &str, n: usize, stored: &[u8]) -> Result<Vec<u8>, zarr_scale_offset::Error> {
    decode_chunk(&doc_from_cf(cf, n), stored)
}

fn i16s(v: &[i16]) -> Vec<u8> {
    v.iter().flat_map(|x| x.to_le_bytes()).collect()
}

#[test]
fn list_and_array_attributes_have_numpy_type_object() {
    // Issue 29 (2): xarray 2026.9.0 + numpy 2.5.5, int16 [-1, 0, 1, 32767],
    // `scale_factor` np.array([0.1], float32), `add_offset` np.array([1.0], float32) (or 0-d
    // arrays, or lists): `_choose_float_dtype` sees numpy.dtype(numpy.ndarray) = object, the
    // types agree but are no float type, add_offset is present: float64. Values xarray printed:
    // [0.8999999985098839, 1.0, 1.1000000014901161, 3277.700048826635].
    let cf = from_cf(
        r#"{"scale_factor":[0.10000000149011612],"add_offset":[1.0]}"#,
        "int16",
        None,
    )
    .unwrap();
    assert!(cf.contains(r#""data_type":"float64""#), "{cf}");
    let got = f64s_of(&decode_cf_chunk(&cf, 4, &i16s(&[-1, 0, 1, 32767])).unwrap());
    let want = [
        0.8999999985098839,
        1.0,
        1.1000000014901161,
        3277.700048826635,
    ];
    assert_eq!(bits(&got), bits(&want));
    // add_offset alone as a list: float64 (xarray: [0.5, 1.5, 2.5, 32768.5] for 1.5 float32).
    let cf = from_cf(r#"{"add_offset":[1.5]}"#, "int16", None).unwrap();
    assert!(cf.contains(r#""data_type":"float64""#), "{cf}");
    // A list scale_factor alone: xarray decodes to dtype object; refused, named.
    for attrs in [
        r#"{"scale_factor":[0.5]}"#,
        r#"{"scale_factor":[0.5],"_FillValue":0}"#,
    ] {
        let e = from_cf(attrs, "int16", None).unwrap_err();
        assert_eq!(e.code, ErrorCode::InvalidMetadata, "{attrs}");
        assert_eq!(e.path.as_deref(), Some("/scale_factor"), "{attrs}");
        assert!(e.to_string().contains("object"), "{e}");
    }
    // Before issue 29 a list counted as float64 and a scale-alone list decoded as float64.
    assert!(from_cf(
        r#"{"scale_factor":[0.5],"add_offset":{"value":1,"dtype":"float64"}}"#,
        "int16",
        None
    )
    .unwrap()
    .contains(r#""data_type":"float64""#));
}

fn bits(v: &[f64]) -> Vec<u64> {
    v.iter().map(|x| x.to_bits()).collect()
}

#[test]
fn typed_integer_scale_factor_keeps_its_type() {
    // Issue 29 (2): a NumPy integer scale_factor alone gives its own type in xarray
    // (numpy.dtype(type(np.int32(3))) = int32), not int64. xarray on int16 [-1, 0, 1, 32767]:
    // int32 [-3, 0, 3, 98301]; int8 [-3, 0, 3, -3] (32767 -> int8 -1, times 3: wrapped);
    // uint8 [253, 0, 3, 253] (-1 -> 255, times 3 mod 256). Here: equal where xarray's value is
    // right, an element error where xarray wraps.
    let data = i16s(&[-1, 0, 1, 32767]);
    let cf = from_cf(
        r#"{"scale_factor":{"value":3,"dtype":"int32"}}"#,
        "int16",
        None,
    )
    .unwrap();
    assert!(cf.contains(r#""data_type":"int32""#), "{cf}");
    let got = decode_cf_chunk(&cf, 4, &data).unwrap();
    let want: Vec<u8> = [-3i32, 0, 3, 98301]
        .iter()
        .flat_map(|x| x.to_le_bytes())
        .collect();
    assert_eq!(got, want);
    let cf = from_cf(
        r#"{"scale_factor":{"value":3,"dtype":"int8"}}"#,
        "int16",
        None,
    )
    .unwrap();
    assert!(cf.contains(r#""data_type":"int8""#), "{cf}");
    let ok = decode_cf_chunk(&cf, 3, &i16s(&[-1, 0, 1])).unwrap();
    assert_eq!(ok, [(-3i8) as u8, 0, 3]);
    let e = decode_cf_chunk(&cf, 4, &data).unwrap_err();
    assert_eq!(e.code, ErrorCode::OutOfRange, "{e}");
    assert!(e.to_string().contains("32767"), "{e}");
    let cf = from_cf(
        r#"{"scale_factor":{"value":3,"dtype":"uint8"}}"#,
        "int16",
        None,
    )
    .unwrap();
    assert!(cf.contains(r#""data_type":"uint8""#), "{cf}");
    let e = decode_cf_chunk(&cf, 4, &data).unwrap_err();
    assert_eq!(e.code, ErrorCode::OutOfRange, "{e}");
    // int64 (a Python int) as before; a typed float16 alone: float16 (xarray: float16
    // [-0.5, 0.0, 0.5, 16384.0]).
    assert!(from_cf(r#"{"scale_factor":3}"#, "int16", None)
        .unwrap()
        .contains(r#""data_type":"int64""#));
    let cf = from_cf(
        r#"{"scale_factor":{"value":0.5,"dtype":"float16"}}"#,
        "int16",
        None,
    )
    .unwrap();
    assert!(cf.contains(r#""data_type":"float16""#), "{cf}");
    // Two typed int32 attributes: the same type but no float type, add_offset present: float64
    // (xarray [-2.0, 1.0, 4.0, 98302.0]).
    let cf = from_cf(
        r#"{"scale_factor":{"value":3,"dtype":"int32"},"add_offset":{"value":1,"dtype":"int32"}}"#,
        "int16",
        None,
    )
    .unwrap();
    let got = f64s_of(&decode_cf_chunk(&cf, 4, &data).unwrap());
    assert_eq!(got, [-2.0, 1.0, 4.0, 98302.0]);
}

#[test]
fn nan_and_infinite_scale_or_offset_are_refused() {
    for attrs in [
        r#"{"scale_factor":"NaN","add_offset":1.0}"#,
        r#"{"scale_factor":0.5,"add_offset":"Infinity"}"#,
        r#"{"scale_factor":"-Infinity"}"#,
    ] {
        let e = from_cf(attrs, "int16", None).unwrap_err();
        assert_eq!(e.code, ErrorCode::InvalidMetadata, "{attrs}");
        assert!(e.to_string().contains("finite number"), "{attrs}: {e}");
    }
}

#[test]
fn float_packed_to_integer_decoded_truncates_as_astype() {
    // xarray 2026.9.0: float32 [1.0, 0.25, -3.5] with a Python int scale_factor 2 decodes to
    // int64 [2, 0, -6]: `astype(int64)` truncates (-3.5 -> -3), then times 2. (Found by the
    // Python property test: nearest-even gave -8.)
    let cf = from_cf(r#"{"scale_factor":2}"#, "float32", None).unwrap();
    assert!(cf.contains(r#""rounding":"towards-zero""#), "{cf}");
    let stored: Vec<u8> = [1.0f32, 0.25, -3.5]
        .iter()
        .flat_map(|x| x.to_le_bytes())
        .collect();
    let got = decode_cf_chunk(&cf, 3, &stored).unwrap();
    let want: Vec<u8> = [2i64, 0, -6].iter().flat_map(|x| x.to_le_bytes()).collect();
    assert_eq!(got, want);
}

#[test]
fn a_fill_value_with_a_decoded_type_too_narrow_for_the_codes_is_refused() {
    // xarray 2026.9.0, int16 [-14852, 2859, 25118, 1], np.float16 scale_factor 65500 alone,
    // _FillValue np.int16(25118): decodes to float16 and compares after the conversion; 25118
    // is 25120 in float16, so nothing is masked ([-inf, inf, inf, 6.55e4]). No codec does that.
    let e = from_cf(
        r#"{"scale_factor":{"value":65500,"dtype":"float16"},"_FillValue":25118}"#,
        "int16",
        None,
    )
    .unwrap_err();
    assert_eq!(e.code, ErrorCode::InvalidMetadata);
    assert_eq!(e.path.as_deref(), Some("/_FillValue"));
    // int8 codes are exact in bfloat16 and float16: fine.
    assert!(from_cf(
        r#"{"scale_factor":{"value":3,"dtype":"bfloat16"},"_FillValue":48}"#,
        "int8",
        None
    )
    .is_ok());
    // Without a fill value there is nothing to compare: float16 as xarray.
    assert!(from_cf(
        r#"{"scale_factor":{"value":0.5,"dtype":"float16"}}"#,
        "int16",
        None
    )
    .unwrap()
    .contains(r#""data_type":"float16""#));
}
