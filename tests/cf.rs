//! cf.scale_offset against xarray.decode_cf's rule, and from_cf's choice of data type.
// Test code may unwrap, index and panic (the workspace lints deny them in the library).
#![allow(clippy::restriction)]

use zarr_scale_offset::json::{parse, Json};
use zarr_scale_offset::{decode, decode_chunk, encode_chunk, from_cf, validate};

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
