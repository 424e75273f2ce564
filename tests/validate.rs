//! The validator: every problem with its JSON pointer and code, all of them in one pass.
// Test code may unwrap, index and panic (the workspace lints deny them in the library).
#![allow(clippy::restriction)]

use zarr_scale_offset::{validate, ErrorCode};

fn doc(dtype: &str, fill: &str, codecs: &str) -> String {
    format!(
        r#"{{"zarr_format":3,"node_type":"array","shape":[4],"data_type":{dtype},"chunk_grid":{{"name":"regular","configuration":{{"chunk_shape":[4]}}}},"chunk_key_encoding":{{"name":"default"}},"fill_value":{fill},"codecs":{codecs}}}"#
    )
}

fn errs(text: &str, dt: Option<&str>) -> Vec<(String, &'static str)> {
    validate(text, dt)
        .errors
        .into_iter()
        .map(|d| (d.path, d.code))
        .collect()
}

const IM: &str = "invalid_metadata";

#[test]
fn three_independent_problems_are_all_reported() {
    let d = doc(
        "\"float32\"",
        "0",
        r#"[{"name":"scale_offset","configuration":{"scale":0,"factor":2}},{"name":"cast_value","configuration":{"data_type":"uint8","rounding":"up"}},"bytes"]"#,
    );
    assert_eq!(
        errs(&d, None),
        vec![
            ("/codecs/0/configuration/factor".to_string(), IM),
            ("/codecs/0/configuration/scale".to_string(), IM),
            ("/codecs/1/configuration/rounding".to_string(), IM),
        ]
    );
}

#[test]
fn each_error_has_its_pointer_and_code() {
    let so = |cfg: &str| {
        format!(
            r#"[{{"name":"scale_offset","configuration":{cfg}}},{{"name":"bytes","configuration":{{"endian":"little"}}}}]"#
        )
    };
    let cases: Vec<(String, Vec<(&str, &str)>)> = vec![
        (
            doc("\"int32\"", "0", &so(r#"{"offset":1.5}"#)),
            vec![("/codecs/0/configuration/offset", IM)],
        ),
        (
            doc("\"int16\"", "0", &so(r#"{"offset":"NaN"}"#)),
            vec![("/codecs/0/configuration/offset", IM)],
        ),
        (
            doc("\"complex64\"", "0", r#"["bytes"]"#),
            vec![("/data_type", "unsupported_data_type")],
        ),
        (
            doc("\"float32\"", "0", r#"["bytes"]"#),
            vec![("/codecs/0/configuration/endian", IM)],
        ),
        (
            doc("\"float32\"", "0", r#"[{"name":"frobnicate"},"bytes"]"#),
            vec![("/codecs/0", "unsupported_codec")],
        ),
        (
            doc(
                "\"float32\"",
                "0",
                r#"[{"name":"bytes","configuration":{"endian":"little"}},{"name":"scale_offset"}]"#,
            ),
            vec![("/codecs/1", IM)],
        ),
        (
            doc(
                "\"float32\"",
                "\"NaN\"",
                r#"[{"name":"cast_value","configuration":{"data_type":"uint8"}},"bytes"]"#,
            ),
            vec![("/codecs/0", IM)],
        ),
        (
            doc(
                "\"float32\"",
                "0.5",
                r#"[{"name":"cast_value","configuration":{"data_type":"uint8"}},"bytes"]"#,
            ),
            vec![("/codecs/0", IM)],
        ),
        (
            doc(
                "\"int32\"",
                "0",
                r#"[{"name":"cast_value","configuration":{"data_type":"float32","out_of_range":"wrap"}},{"name":"bytes","configuration":{"endian":"little"}}]"#,
            ),
            vec![("/codecs/0/configuration/out_of_range", IM)],
        ),
        (
            doc("\"float4_e2m1fn\"", "\"Infinity\"", r#"["bytes"]"#),
            vec![("/fill_value", IM)],
        ),
        (
            doc(
                "\"float32\"",
                "0",
                r#"[{"name":"scale_offset","must_understand":"no"},{"name":"bytes","configuration":{"endian":"little"}}]"#,
            ),
            vec![("/codecs/0/must_understand", IM)],
        ),
        ("[1,2".to_string(), vec![("", "invalid_json")]),
        // Six missing keys (node_type, shape, data_type, fill_value, chunk_grid, codecs) and a
        // wrong zarr_format.
        (
            r#"{"zarr_format":4}"#.to_string(),
            vec![
                ("", IM),
                ("", IM),
                ("/zarr_format", IM),
                ("", IM),
                ("", IM),
                ("", IM),
                ("", IM),
            ],
        ),
    ];
    for (text, want) in cases {
        let mut got = errs(&text, None);
        let mut want: Vec<(String, &str)> =
            want.into_iter().map(|(p, c)| (p.to_string(), c)).collect();
        got.sort();
        want.sort();
        assert_eq!(got, want, "{text}");
    }
    // Every error code string is a real ErrorCode.
    assert_eq!(ErrorCode::InvalidJson.as_str(), "invalid_json");
}

#[test]
fn unknown_fields_and_must_understand() {
    let base = doc("\"uint8\"", "0", r#"["bytes"]"#);
    let with = |extra: &str| format!("{},{extra}}}", &base[..base.len() - 1]);
    assert_eq!(
        errs(&with(r#""foo":{"must_understand":false}"#), None),
        vec![]
    );
    let r = validate(&with(r#""foo":{"must_understand":false}"#), None);
    assert_eq!(r.warnings[0].code, "ignored_field");
    assert_eq!(
        errs(&with(r#""foo":1"#), None),
        vec![("/foo".to_string(), IM)]
    );
    // An unknown codec with must_understand false is ignored with a warning.
    let d = doc(
        "\"uint8\"",
        "0",
        r#"[{"name":"checksum9","must_understand":false},"bytes"]"#,
    );
    let r = validate(&d, None);
    assert!(r.is_ok(), "{:?}", r.errors);
    assert_eq!(r.warnings[0].path, "/codecs/0");
    assert_eq!(r.warnings[0].code, "ignored_codec");
}

#[test]
fn codec_lists_and_single_codecs() {
    // A single codec, with and without a data type.
    assert_eq!(
        errs(
            r#"{"name":"scale_offset","configuration":{"scale":0}}"#,
            Some("int8")
        ),
        vec![("/configuration/scale".to_string(), IM)]
    );
    assert_eq!(
        errs(
            r#"{"name":"scale_offset","configuration":{"offset":1.5}}"#,
            Some("float32")
        ),
        vec![]
    );
    assert_eq!(
        errs(
            r#"{"name":"scale_offset","configuration":{"offset":1.5}}"#,
            Some("int8")
        ),
        vec![("/configuration/offset".to_string(), IM)]
    );
    let r = validate(
        r#"{"name":"scale_offset","configuration":{"offset":1.5}}"#,
        None,
    );
    assert!(r.is_ok());
    assert_eq!(r.warnings[0].code, "no_data_type");
    assert_eq!(errs("\"scale_offset\"", Some("int8")), vec![]);
    assert_eq!(
        errs(r#"{"name":"bytes"}"#, Some("float32")),
        vec![("/configuration/endian".to_string(), IM)]
    );
    // A list: pointers index into it; the data type flows through cast_value.
    let list = r#"[{"name":"scale_offset","configuration":{"offset":-10,"scale":0.1}},{"name":"cast_value","configuration":{"data_type":"uint8"}},{"name":"scale_offset","configuration":{"offset":0.5}}]"#;
    assert_eq!(
        errs(list, Some("float64")),
        vec![("/2/configuration/offset".to_string(), IM)]
    );
    // With the bytes codec the order is checked too.
    let list = r#"["bytes",{"name":"scale_offset"}]"#;
    assert_eq!(errs(list, Some("uint8")), vec![("/1".to_string(), IM)]);
}

#[test]
fn lenient_forms_are_warnings() {
    let d = doc(
        "\"uint16\"",
        "1000.0",
        r#"[{"name":"scale_offset","configuration":{"offset":"1000"}},{"name":"cast_value","configuration":{"data_type":"uint8"}},"bytes"]"#,
    );
    let r = validate(&d, None);
    assert!(r.is_ok(), "{:?}", r.errors);
    let w: Vec<(&str, &str)> = r
        .warnings
        .iter()
        .map(|w| (w.path.as_str(), w.code))
        .collect();
    assert_eq!(
        w,
        vec![
            ("/fill_value", "lenient_form"),
            ("/codecs/0/configuration/offset", "lenient_form")
        ]
    );
    // Duplicate scalar_map keys: valid (the first wins) but worth a warning.
    let d = doc(
        "\"float64\"",
        "0",
        r#"[{"name":"cast_value","configuration":{"data_type":"int8","scalar_map":{"encode":[["NaN",1],["NaN",2]]}}},"bytes"]"#,
    );
    let r = validate(&d, None);
    assert!(r.is_ok());
    assert_eq!(
        r.warnings[0].path,
        "/codecs/0/configuration/scalar_map/encode/1/0"
    );
    assert_eq!(r.warnings[0].code, "duplicate_key");
}

#[test]
fn shape_and_grid_consistency() {
    let d = r#"{"zarr_format":3,"node_type":"array","shape":[4,4],"data_type":"uint8","chunk_grid":{"name":"regular","configuration":{"chunk_shape":[0]}},"chunk_key_encoding":{"name":"default"},"fill_value":0,"codecs":["bytes"],"dimension_names":["x"]}"#;
    let mut e = errs(d, None);
    e.sort();
    assert_eq!(
        e,
        vec![
            ("/chunk_grid/configuration/chunk_shape".to_string(), IM),
            ("/chunk_grid/configuration/chunk_shape/0".to_string(), IM),
            ("/dimension_names".to_string(), IM),
        ]
    );
}

/// Without a data type (a codec or codecs list validated alone, or a document whose data type is
/// bad), each configuration is still checked for everything but the scalars of that type: its
/// keys, its modes, cast_value's data type, and the array->array codecs after a cast_value
/// against the type it names.
#[test]
fn configurations_are_checked_without_a_data_type() {
    let cases: Vec<(&str, Vec<&str>)> = vec![
        (
            r#"{"name":"scale_offset","configuration":{"bogus":1,"scale":0}}"#,
            vec!["/configuration/bogus"],
        ),
        (
            r#"{"name":"cf.scale_offset","configuration":[1]}"#,
            vec!["/configuration"],
        ),
        (
            r#"{"name":"cast_value","configuration":{"data_type":"int8","rounding":"bad","out_of_range":"saturate"}}"#,
            vec!["/configuration/rounding", "/configuration/out_of_range"],
        ),
        (
            r#"{"name":"cast_value","configuration":{"data_type":"float32","out_of_range":"wrap"}}"#,
            vec!["/configuration/out_of_range"],
        ),
        (
            r#"{"name":"cast_value","configuration":{"data_type":"int8","scalar_map":{"encode":[[1,300]]}}}"#,
            vec!["/configuration/scalar_map/encode/0/1"],
        ),
        (r#"{"name":"numcodecs.fixedscaleoffset"}"#, vec![""]),
        (
            r#"[{"name":"cast_value","configuration":{"data_type":"uint16"}},{"name":"scale_offset","configuration":{"offset":1.5}}]"#,
            vec!["/1/configuration/offset"],
        ),
    ];
    for (text, want) in cases {
        let got: Vec<String> = errs(text, None).into_iter().map(|e| e.0).collect();
        assert_eq!(got, want, "{text}");
        // With a data type they fail too.
        assert!(!validate(text, Some("float32")).errors.is_empty(), "{text}");
    }
    // A document with a bad data type: its codecs' configurations are still reported.
    let d = doc(
        "\"nope\"",
        "0",
        r#"[{"name":"scale_offset","configuration":{"factor":2}},{"name":"cast_value","configuration":{"data_type":"uint8","rounding":"up"}},"bytes"]"#,
    );
    assert_eq!(
        errs(&d, None),
        vec![
            ("/data_type".to_string(), "unsupported_data_type"),
            ("/codecs/0/configuration/factor".to_string(), IM),
            ("/codecs/1/configuration/rounding".to_string(), IM),
        ]
    );
    // The bytes codec after a cast_value is checked against the type cast_value names, whether
    // the array's data type is bad or a codec before it has an error.
    let bytes_after =
        r#"[{"name":"cast_value","configuration":{"data_type":"uint16"}},{"name":"bytes"}]"#;
    assert_eq!(
        errs(&doc("\"nope\"", "0", bytes_after), None),
        vec![
            ("/data_type".to_string(), "unsupported_data_type"),
            ("/codecs/1/configuration/endian".to_string(), IM),
        ]
    );
    let bytes_after_error = r#"[{"name":"scale_offset","configuration":{"scale":0}},{"name":"cast_value","configuration":{"data_type":"uint16"}},{"name":"bytes"}]"#;
    assert_eq!(
        errs(&doc("\"float32\"", "0", bytes_after_error), None),
        vec![
            ("/codecs/0/configuration/scale".to_string(), IM),
            ("/codecs/2/configuration/endian".to_string(), IM),
        ]
    );
}
