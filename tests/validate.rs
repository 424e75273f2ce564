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
            doc("\"complex256\"", "0", r#"["bytes"]"#),
            vec![("/data_type", "unsupported_data_type")],
        ),
        // complex64 is valid (not decoded here); its fill value is a [real, imaginary] pair.
        (
            doc("\"complex64\"", "0", r#"["bytes"]"#),
            vec![("/fill_value", IM)],
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

/// Reads every `*.json` of tests/fixtures/metadata/<dir>, sorted by name.
fn fixture_files(dir: &str) -> Vec<(String, String)> {
    let mut out: Vec<(String, String)> =
        std::fs::read_dir(format!("tests/fixtures/metadata/{dir}"))
            .unwrap()
            .map(|e| e.unwrap().path())
            .filter(|p| p.extension().is_some_and(|x| x == "json"))
            .map(|p| {
                let name = p.file_name().unwrap().to_string_lossy().into_owned();
                (name, std::fs::read_to_string(&p).unwrap())
            })
            .collect();
    out.sort();
    out
}

/// MUST SHOW (issue 13): every document zarr-python 3.4.2 writes (tests/fixtures/metadata/valid)
/// is valid with no errors, and every one-field-broken variant (invalid/) is reported at its
/// pointer or at a field inside it.
#[test]
fn metadata_fixtures_valid_and_invalid() {
    use zarr_scale_offset::internals::json::parse;
    let valid = fixture_files("valid");
    let mut ok = 0;
    for (name, text) in &valid {
        let r = validate(text, None);
        assert!(r.errors.is_empty(), "{name}: {:?}", r.errors);
        ok += 1;
    }
    let invalid = fixture_files("invalid");
    let mut at_pointer = 0;
    for (name, text) in &invalid {
        let case = parse(text).unwrap();
        let pointer = case.get("pointer").unwrap().as_str().unwrap().to_string();
        let doc = case.get("document").unwrap().to_json_string();
        let r = validate(&doc, None);
        let hit = r
            .errors
            .iter()
            .any(|e| e.path == pointer || e.path.starts_with(&format!("{pointer}/")));
        assert!(
            hit,
            "{name}: want an error at {pointer}, got {:?}",
            r.errors
        );
        at_pointer += 1;
    }
    println!(
        "metadata fixtures: {ok} of {} valid documents valid with 0 errors; {at_pointer} of {} invalid documents reported at their pointer",
        valid.len(),
        invalid.len()
    );
    assert_eq!((ok, at_pointer), (11, 13));
}

/// The valid fixtures this crate cannot decode say so apart from the errors: what and where.
#[test]
fn valid_but_unsupported_is_listed() {
    let get = |name: &str| {
        std::fs::read_to_string(format!("tests/fixtures/metadata/valid/{name}")).unwrap()
    };
    let unsupported = |name: &str| -> Vec<(String, &'static str)> {
        let r = validate(&get(name), None);
        assert!(r.is_ok(), "{name}: {:?}", r.errors);
        assert_eq!(r.is_decodable(), r.unsupported.is_empty());
        r.unsupported
            .into_iter()
            .map(|d| (d.path, d.code))
            .collect()
    };
    let uc = "unsupported_codec";
    let s = |p: &str| p.to_string();
    assert_eq!(unsupported("v3_gzip_f4.json"), [(s("/codecs/1"), uc)]);
    assert_eq!(unsupported("v3_so_cast_crc.json"), [(s("/codecs/3"), uc)]);
    assert_eq!(
        unsupported("v3_transpose_f8.json"),
        [(s("/codecs/0"), uc), (s("/codecs/2"), uc)]
    );
    // The shard, and inside it zstd of the inner chunks and crc32c of the index.
    assert_eq!(
        unsupported("v3_sharded_so_cast.json"),
        [
            (s("/codecs/0"), uc),
            (s("/codecs/0/configuration/codecs/3"), uc),
            (s("/codecs/0/configuration/index_codecs/1"), uc)
        ]
    );
    assert_eq!(
        unsupported("v3_bool.json"),
        [
            (s("/data_type"), "unsupported_data_type"),
            (s("/codecs/1"), uc)
        ]
    );
    // v2: pointers into the .zarray (the compressor), not into its v3 translation.
    assert_eq!(unsupported("v2_blosc_f4.json"), [(s("/compressor"), uc)]);
    assert_eq!(
        unsupported("v2_fixedscaleoffset_zlib.json"),
        [(s("/compressor"), uc)]
    );
    let r = validate(&get("v3_complex64.json"), None);
    assert_eq!(r.warnings[0].code, "unchecked_data_type");
    // decodeChunk stays what it is: an unsupported codec is its error.
    let e = zarr_scale_offset::decode_chunk(&get("v3_gzip_f4.json"), &[0; 400]).unwrap_err();
    assert_eq!(
        (e.code, e.path.as_deref()),
        (ErrorCode::UnsupportedCodec, Some("/codecs/1"))
    );
}

/// `sharding_indexed` is checked recursively, for the inner chunk: its data type and fill value
/// flow into the inner codecs; pointers name the field inside.
#[test]
fn sharding_inner_chain_and_shapes() {
    let shard = |inner: &str, shape: &str, extra: &str| {
        format!(
            r#"{{"zarr_format":3,"node_type":"array","shape":[8,8],"data_type":"float32","chunk_grid":{{"name":"regular","configuration":{{"chunk_shape":[8,8]}}}},"chunk_key_encoding":{{"name":"default"}},"fill_value":"NaN","codecs":[{extra}{{"name":"sharding_indexed","configuration":{{"chunk_shape":{shape},"codecs":{inner},"index_codecs":[{{"name":"bytes","configuration":{{"endian":"little"}}}},"crc32c"]}}}}]}}"#
        )
    };
    let le = r#"{"name":"bytes","configuration":{"endian":"little"}}"#;
    let cast = r#"{"name":"cast_value","configuration":{"data_type":"uint8"}}"#;
    // The NaN fill cannot pass a cast to uint8 without a scalar_map: reported inside.
    let d = shard(&format!("[{cast},\"bytes\"]"), "[4,4]", "");
    assert_eq!(
        errs(&d, None),
        [("/codecs/0/configuration/codecs/0".to_string(), IM)]
    );
    // A float32 inner chain needs an endian.
    let d = shard(r#"["bytes"]"#, "[4,4]", "");
    assert_eq!(
        errs(&d, None),
        [(
            "/codecs/0/configuration/codecs/0/configuration/endian".to_string(),
            IM
        )]
    );
    // Rank and divisibility; a transpose before the shard permutes the shape it receives.
    let d = shard(&format!("[{le}]"), "[4]", "");
    assert_eq!(
        errs(&d, None),
        [("/codecs/0/configuration/chunk_shape".to_string(), IM)]
    );
    let t = r#"{"name":"transpose","configuration":{"order":[1,0]}},"#;
    let d = |shape: &str| {
        shard(&format!("[{le}]"), "[4,2]", "").replace("[8,8]}", &format!("{shape}}}"))
    };
    assert_eq!(errs(&d("[8,5]"), None).len(), 1);
    assert_eq!(errs(&d("[8,4]"), None), []);
    let dt = |shape: &str| {
        shard(&format!("[{le}]"), "[4,2]", t).replace("[8,8]}", &format!("{shape}}}"))
    };
    // After transpose [1,0] the shard [6,8] is [8,6], which [4,2] divides.
    assert_eq!(errs(&dt("[6,8]"), None), []);
    assert_eq!(errs(&dt("[8,6]"), None).len(), 1);
    let three = r#"{"name":"transpose","configuration":{"order":[2,0,1]}},"#;
    assert_eq!(
        errs(&shard(&format!("[{le}]"), "[4,4]", three), None),
        [("/codecs/0/configuration/order".to_string(), IM)]
    );
    // No compression in the index; every required key.
    let d = shard(&format!("[{le}]"), "[4,4]", "").replace(
        r#","crc32c"]"#,
        r#",{"name":"gzip","configuration":{"level":1}}]"#,
    );
    assert_eq!(
        errs(&d, None),
        [("/codecs/0/configuration/index_codecs/1".to_string(), IM)]
    );
    let d = shard(&format!("[{le}]"), "[4,4]", "").replace(r#","index_codecs":"#, r#","bogus":"#);
    let mut e = errs(&d, None);
    e.sort();
    assert_eq!(
        e,
        [
            ("/codecs/0/configuration".to_string(), IM),
            ("/codecs/0/configuration/bogus".to_string(), IM)
        ]
    );
}

/// The configuration of every core codec and of the numcodecs codecs, from its table of rules.
#[test]
fn known_codec_configurations() {
    let d = |codecs: &str| doc("\"uint16\"", "0", codecs);
    let le = r#"{"name":"bytes","configuration":{"endian":"little"}}"#;
    let cases: Vec<(String, Vec<&str>)> = vec![
        (
            format!(r#"[{le},{{"name":"gzip","configuration":{{"level":9}}}}]"#),
            vec![],
        ),
        (
            format!(r#"[{le},{{"name":"gzip","configuration":{{"level":-1}}}}]"#),
            vec!["/codecs/1/configuration/level"],
        ),
        (
            format!(r#"[{le},{{"name":"gzip","configuration":{{"level":1.0}}}}]"#),
            vec!["/codecs/1/configuration/level"],
        ),
        (format!(r#"[{le},{{"name":"gzip"}}]"#), vec!["/codecs/1"]),
        (
            format!(r#"[{le},{{"name":"gzip","configuration":{{}}}}]"#),
            vec!["/codecs/1/configuration"],
        ),
        (
            format!(
                r#"[{le},{{"name":"zstd","configuration":{{"level":-131072,"checksum":false}}}}]"#
            ),
            vec![],
        ),
        (
            format!(r#"[{le},{{"name":"zstd","configuration":{{"level":23}}}}]"#),
            vec!["/codecs/1/configuration/level"],
        ),
        (
            format!(
                r#"[{le},{{"name":"blosc","configuration":{{"cname":"zstd","clevel":10,"shuffle":"noshuffle"}}}}]"#
            ),
            vec!["/codecs/1/configuration/clevel"],
        ),
        // typesize: "Required unless shuffle is noshuffle".
        (
            format!(
                r#"[{le},{{"name":"blosc","configuration":{{"cname":"zstd","clevel":1,"shuffle":"shuffle"}}}}]"#
            ),
            vec!["/codecs/1/configuration"],
        ),
        (
            format!(
                r#"[{le},{{"name":"blosc","configuration":{{"cname":"zstd","clevel":1,"shuffle":"byte","typesize":0}}}}]"#
            ),
            vec![
                "/codecs/1/configuration/shuffle",
                "/codecs/1/configuration/typesize",
            ],
        ),
        (
            format!(r#"[{le},{{"name":"crc32c","configuration":{{"x":1}}}}]"#),
            vec!["/codecs/1/configuration/x"],
        ),
        (
            format!(r#"[{{"name":"transpose","configuration":{{"order":[0]}}}},{le},"crc32c"]"#),
            vec![],
        ),
        (
            format!(r#"[{{"name":"transpose","configuration":{{"order":[1]}}}},{le}]"#),
            vec!["/codecs/0/configuration/order"],
        ),
        (
            format!(r#"[{{"name":"transpose","configuration":{{"order":[0,1]}}}},{le}]"#),
            vec!["/codecs/0/configuration/order"],
        ),
        (
            format!(
                r#"[{{"name":"numcodecs.delta","configuration":{{"dtype":"<u2"}}}},{le},{{"name":"numcodecs.zlib","configuration":{{"level":1}}}}]"#
            ),
            vec![],
        ),
        (
            format!(r#"[{le},{{"name":"numcodecs.zlib","configuration":{{"level":10}}}}]"#),
            vec!["/codecs/1/configuration/level"],
        ),
        // After transpose (which keeps the data type) the bytes codec still needs its endian.
        (
            r#"[{"name":"transpose","configuration":{"order":[0]}},"bytes"]"#.to_string(),
            vec!["/codecs/1/configuration/endian"],
        ),
        // Unknown codecs stay errors; an unknown one with must_understand false is skipped.
        (format!(r#"[{le},{{"name":"gzip2"}}]"#), vec!["/codecs/1"]),
        (
            format!(r#"[{le},{{"name":"gzip2","must_understand":false}}]"#),
            vec![],
        ),
    ];
    for (codecs, want) in cases {
        let mut got: Vec<String> = errs(&d(&codecs), None).into_iter().map(|e| e.0).collect();
        got.sort();
        assert_eq!(got, want, "{codecs}");
    }
    // The fill value passes a transpose unchanged: NaN cannot then be cast to uint8.
    let t = r#"[{"name":"transpose","configuration":{"order":[0]}},{"name":"cast_value","configuration":{"data_type":"uint8"}},"bytes"]"#;
    assert_eq!(
        errs(&doc("\"float32\"", "\"NaN\"", t), None),
        [("/codecs/1".to_string(), IM)]
    );
    // The unknown one's code.
    assert_eq!(
        errs(&d(&format!(r#"[{le},{{"name":"gzip2"}}]"#)), None)[0].1,
        "unsupported_codec"
    );
    // A known codec alone (with the data type it receives).
    assert_eq!(
        errs(
            r#"{"name":"gzip","configuration":{"level":12}}"#,
            Some("uint8")
        ),
        [("/configuration/level".to_string(), IM)]
    );
    let r = validate(r#"{"name":"zstd","configuration":{"level":3}}"#, None);
    assert!(r.is_ok() && !r.is_decodable());
}

/// Data types outside the 26: valid with a warning, their fill value in the core spec's form,
/// and this crate's codecs are not defined for them.
#[test]
fn other_data_types() {
    let le = r#"[{"name":"bytes","configuration":{"endian":"little"}}]"#;
    let ok = |dt: &str, fill: &str| {
        let r = validate(&doc(dt, fill, le), None);
        assert!(r.is_ok(), "{dt} {fill}: {:?}", r.errors);
        assert!(!r.is_decodable());
        assert_eq!(r.warnings[0].code, "unchecked_data_type");
    };
    ok("\"bool\"", "true");
    ok("\"complex128\"", "[\"NaN\", -0.0]");
    ok("\"complex_float16\"", "[1, \"0x3c00\"]");
    ok("\"r16\"", "[0, 255]");
    ok("\"string\"", "\"\"");
    // (starts with "r" like r16, but is a name of its own)
    ok("\"raw_bytes\"", "\"AAAA\"");
    ok(
        r#"{"name":"numpy.datetime64","configuration":{"unit":"ns","scale_factor":1}}"#,
        "0",
    );
    let bad = |dt: &str, fill: &str| errs(&doc(dt, fill, le), None);
    assert_eq!(bad("\"bool\"", "0"), [("/fill_value".to_string(), IM)]);
    assert_eq!(bad("\"complex64\"", "0"), [("/fill_value".to_string(), IM)]);
    assert_eq!(
        bad("\"complex64\"", "[0, \"x\"]"),
        [("/fill_value/1".to_string(), IM)]
    );
    assert_eq!(
        bad("\"r16\"", "[0, 256]"),
        [("/fill_value".to_string(), IM)]
    );
    assert_eq!(
        bad("\"r12\"", "0")[0],
        ("/data_type".to_string(), "unsupported_data_type")
    );
    // This crate's codecs on a bool array.
    let so = r#"[{"name":"scale_offset","configuration":{"scale":2}},"bytes"]"#;
    assert_eq!(
        errs(&doc("\"bool\"", "false", so), None),
        [("/codecs/0".to_string(), IM)]
    );
}

/// Zarr v2 `.zarray` documents of the dtypes zarr-python 2 writes outside the 26 numeric ones:
/// valid, with `unchecked_data_type` and listed as unsupported, as a v3 document of the data type
/// zarr-python 3 reads them as; their compressor and fill value still checked.
#[test]
fn v2_other_dtypes() {
    let zarray = |dtype: &str, fill: &str, filters: &str, compressor: &str| {
        format!(
            r#"{{"zarr_format":2,"shape":[8],"chunks":[4],"dtype":{dtype},"fill_value":{fill},"order":"C","filters":{filters},"compressor":{compressor}}}"#
        )
    };
    let zstd = r#"{"id":"zstd","level":3}"#;
    for (dtype, fill, filters) in [
        (r#""|b1""#, "false", "null"),
        (r#""|b1""#, "null", "null"),
        (r#""<c8""#, r#"[0.0, "NaN"]"#, "null"),
        (r#"">c16""#, "null", "null"),
        (r#""|S10""#, r#""""#, "null"),
        (r#""<U4""#, r#""""#, "null"),
        (r#""|V8""#, r#""AAAAAAAAAAA=""#, "null"),
        (r#""<M8[ns]""#, r#""NaT""#, "null"),
        (r#""<m8[s]""#, "0", "null"),
        (r#""|O""#, r#""""#, r#"[{"id":"vlen-utf8"}]"#),
        (r#""|O""#, "null", r#"[{"id":"vlen-bytes"}]"#),
        (r#"[["a","<f4"],["b","|u1"]]"#, "null", "null"),
    ] {
        let d = zarray(dtype, fill, filters, zstd);
        let r = validate(&d, None);
        assert!(r.is_ok(), "{d}: {:?}", r.errors);
        assert!(!r.is_decodable(), "{d}");
        assert!(
            r.warnings
                .iter()
                .any(|w| w.code == "unchecked_data_type" && w.path == "/dtype"),
            "{d}: {:?}",
            r.warnings
        );
        assert!(
            r.unsupported
                .iter()
                .any(|e| e.path == "/dtype" && e.code == ErrorCode::UnsupportedDataType.as_str()),
            "{d}"
        );
        // the compressor is still checked, at its pointer in the .zarray
        let bad = zarray(dtype, fill, filters, r#"{"id":"zstd","level":99}"#);
        assert_eq!(
            errs(&bad, None),
            [("/compressor/level".to_string(), IM)],
            "{bad}"
        );
    }
    // fill values are checked as the v3 type's
    assert_eq!(
        errs(&zarray(r#""|b1""#, "0", "null", zstd), None),
        [("/fill_value".to_string(), IM)]
    );
    assert_eq!(
        errs(&zarray(r#""<c8""#, "[0, \"x\"]", "null", zstd), None),
        [("/fill_value/1".to_string(), IM)]
    );
    // an object array needs its object codec
    assert_eq!(
        errs(&zarray(r#""|O""#, "null", "null", zstd), None),
        [("/filters".to_string(), IM)]
    );
    // not a NumPy spelling at all: still an error
    for dtype in [
        r#""<f3""#,
        r#""<U""#,
        r#""|S1x""#,
        r#""M8[ns""#,
        r#""<b2""#,
        r#""structured""#,
    ] {
        assert_eq!(
            errs(&zarray(dtype, "0", "null", zstd), None)[0],
            ("/dtype".to_string(), "unsupported_data_type"),
            "{dtype}"
        );
    }
}

/// Nested shards: the rules recurse, with pointers all the way down; v2 filters and compressors
/// are reported at their pointers in the .zarray.
#[test]
fn nested_shards_and_v2_pointers() {
    let inner = r#"{"name":"sharding_indexed","configuration":{"chunk_shape":[2],"codecs":[{"name":"scale_offset","configuration":{"scale":0}},{"name":"bytes","configuration":{"endian":"little"}}],"index_codecs":[{"name":"bytes","configuration":{"endian":"little"}}]}}"#;
    let outer = format!(
        r#"[{{"name":"sharding_indexed","configuration":{{"chunk_shape":[4],"codecs":[{inner}],"index_codecs":[{{"name":"bytes","configuration":{{"endian":"little"}}}}],"index_location":"start"}}}}]"#
    );
    let d = doc("\"float32\"", "0", &outer).replace("\"shape\":[4]", "\"shape\":[8]");
    let d = d.replace("\"chunk_shape\":[4]}}", "\"chunk_shape\":[8]}}");
    assert_eq!(
        errs(&d, None),
        [(
            "/codecs/0/configuration/codecs/0/configuration/codecs/0/configuration/scale"
                .to_string(),
            IM
        )]
    );
    // The inner shard's chunk shape must divide the outer shard's inner chunk ([4]), not [8].
    let d3 = d.replace("\"chunk_shape\":[2]", "\"chunk_shape\":[3]");
    assert!(errs(&d3, None)
        .iter()
        .any(|e| e.0 == "/codecs/0/configuration/codecs/0/configuration/chunk_shape"));
    let v2 = r#"{"zarr_format":2,"shape":[8],"chunks":[4],"dtype":"<i4","fill_value":0,"order":"C","dimension_separator":".",
        "filters":[{"id":"delta","dtype":"<i4"}],"compressor":{"id":"blosc","cname":"lz4","clevel":11,"shuffle":1}}"#;
    let r = validate(v2, None);
    let got: Vec<(&str, &str)> = r.errors.iter().map(|e| (e.path.as_str(), e.code)).collect();
    assert_eq!(got, [("/compressor/clevel", IM)]);
    let unsupported: Vec<&str> = r.unsupported.iter().map(|e| e.path.as_str()).collect();
    assert_eq!(unsupported, ["/filters/0", "/compressor"]);
    // The strict API names the same pointer.
    let e = zarr_scale_offset::decode_chunk(v2, &[0; 16]).unwrap_err();
    assert_eq!(e.path.as_deref(), Some("/filters/0"));
    assert!(e.message.starts_with("/filters/0: "), "{e}");
    // An unknown v2 filter id stays an error.
    let bad = v2.replace("\"delta\"", "\"delta9\"");
    assert_eq!(
        errs(&bad, None)[0],
        ("/filters/0".to_string(), "unsupported_codec")
    );
}

/// `chunk_key_encoding` (core spec: `default` or `v2`, an optional separator "/" or ".") and
/// `storage_transformers` (extension points: an unknown one is an error unless skippable).
#[test]
fn chunk_key_encoding_and_storage_transformers() {
    let base = doc("\"uint8\"", "0", r#"["bytes"]"#);
    let with_cke = |cke: &str| {
        base.replace(
            r#""chunk_key_encoding":{"name":"default"}"#,
            &format!(r#""chunk_key_encoding":{cke}"#),
        )
    };
    let cases: Vec<(&str, Vec<&str>)> = vec![
        (r#"{"name":"v2","configuration":{"separator":"."}}"#, vec![]),
        (r#""default""#, vec![]),
        (r#"{"name":"v3"}"#, vec!["/chunk_key_encoding/name"]),
        (r#"{"name":"v3","must_understand":false}"#, vec![]),
        (
            r#"{"name":"default","configuration":{"separator":"-"}}"#,
            vec!["/chunk_key_encoding/configuration/separator"],
        ),
        (
            r#"{"name":"default","configuration":{"sep":"/"}}"#,
            vec!["/chunk_key_encoding/configuration/sep"],
        ),
        (
            r#"{"name":"x","name":"default"}"#,
            vec!["/chunk_key_encoding/name", "/chunk_key_encoding/name"],
        ),
    ];
    for (cke, want) in cases {
        let got: Vec<String> = errs(&with_cke(cke), None)
            .into_iter()
            .map(|e| e.0)
            .collect();
        assert_eq!(got, want, "{cke}");
    }
    // The duplicate is the first error (what the strict API throws).
    let e = zarr_scale_offset::decode_chunk(&with_cke(r#"{"name":"x","name":"default"}"#), &[0; 4])
        .unwrap_err();
    assert!(e.message.contains("duplicate key"), "{e}");
    let with_st = |st: &str| {
        format!(
            "{},\"storage_transformers\":{st}}}",
            &base[..base.len() - 1]
        )
    };
    assert_eq!(errs(&with_st("[]"), None), []);
    assert_eq!(
        errs(&with_st(r#"[{"name":"t"}]"#), None),
        [("/storage_transformers/0".to_string(), "unsupported_codec")]
    );
    let r = validate(&with_st(r#"[{"name":"t","must_understand":false}]"#), None);
    assert!(r.is_ok() && r.warnings[0].path == "/storage_transformers/0");
}
