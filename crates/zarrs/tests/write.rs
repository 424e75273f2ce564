//! zarrs writes arrays with this plugin's codecs; each store goes to the directory
//! `$ZARRS_STORES_DIR` (default `target/zarrs-stores/` at the repository root) with a
//! `chunks.json` manifest, for the other engines to check (tests/js/zarrs-stores.test.mjs: the
//! npm package's `encodeChunk` / `decodeChunk` must give the same bytes; docs/guides/rust.md).
//! Here: the stored integers for a few elements worked out by hand, the zarr.json zarrs writes,
//! and zarrs' reading back equal to the core's own `decode_chunk` of each stored chunk.
#![allow(clippy::restriction)]

mod common;

use std::path::PathBuf;
use std::sync::Arc;

use zarrs::array::{ArrayBuilder, ArrayBytes, ArrayToArrayCodecTraits, FillValueMetadata};
use zarrs::filesystem::FilesystemStore;
use zarrs::metadata::v3::MetadataV3;
use zarrs_scale_offset::ScaleOffsetCodec;

fn hex(b: &[u8]) -> String {
    b.iter().map(|x| format!("{x:02x}")).collect()
}

fn out_dir() -> PathBuf {
    std::env::var_os("ZARRS_STORES_DIR")
        .map(PathBuf::from)
        .unwrap_or_else(|| common::root().join("target/zarrs-stores"))
}

/// A fresh directory outside the output one (stores that exist only to fail).
fn scratch(name: &str) -> PathBuf {
    let dir =
        std::env::temp_dir().join(format!("zarrs-scale-offset-{}-{name}", std::process::id()));
    let _ = std::fs::remove_dir_all(&dir);
    std::fs::create_dir_all(&dir).unwrap();
    dir
}

fn codecs(json: &str) -> Vec<Arc<dyn ArrayToArrayCodecTraits>> {
    let list: Vec<MetadataV3> = serde_json::from_str(json).unwrap();
    list.iter()
        .map(|m| {
            Arc::new(ScaleOffsetCodec::from_metadata(m).unwrap())
                as Arc<dyn ArrayToArrayCodecTraits>
        })
        .collect()
}

/// One store to write (`write`'s `chunk(indices)` gives a whole chunk's in-memory bytes).
struct Case<'a> {
    name: &'a str,
    data_type: &'a str,
    fill: serde_json::Value,
    shape: Vec<u64>,
    chunk_shape: Vec<u64>,
    codecs: &'a str,
    note: &'a str,
}

fn grid(shape: &[u64], chunk: &[u64]) -> Vec<Vec<u64>> {
    let counts: Vec<u64> = shape
        .iter()
        .zip(chunk)
        .map(|(s, c)| s.div_ceil(*c))
        .collect();
    let mut out = vec![vec![]];
    for n in counts {
        out = out
            .into_iter()
            .flat_map(|p| (0..n).map(move |i| [p.clone(), vec![i]].concat()))
            .collect();
    }
    out
}

/// A chunk's grid indices and its stored bytes.
type Stored = (Vec<u64>, Vec<u8>);

fn write(case: &Case, chunk: impl Fn(&[u64]) -> Vec<u8>) -> Vec<Stored> {
    let dir = out_dir().join(case.name);
    let _ = std::fs::remove_dir_all(&dir);
    std::fs::create_dir_all(&dir).unwrap();
    let store = Arc::new(FilesystemStore::new(&dir).unwrap());
    let fill: FillValueMetadata = serde_json::from_value(case.fill.clone()).unwrap();
    let array = ArrayBuilder::new(
        case.shape.clone(),
        case.chunk_shape.clone(),
        case.data_type,
        fill,
    )
    .array_to_array_codecs(codecs(case.codecs))
    .build(store, "/")
    .unwrap();
    array.store_metadata().unwrap();
    let meta_text = std::fs::read_to_string(dir.join("zarr.json")).unwrap();
    let mut stored = vec![];
    let mut manifest = vec![];
    for idx in grid(&case.shape, &case.chunk_shape) {
        let input = chunk(&idx);
        array
            .store_chunk(&idx, ArrayBytes::new_flen(input.clone()))
            .unwrap();
        let key: Vec<String> = idx.iter().map(u64::to_string).collect();
        let key = format!("c/{}", key.join("/"));
        let bytes =
            std::fs::read(dir.join(&key)).unwrap_or_else(|e| panic!("{}: {key}: {e}", case.name));
        let back: ArrayBytes<'static> = array.retrieve_chunk(&idx).unwrap();
        let back = back.into_fixed().unwrap().into_owned();
        // The same core without zarrs, from the zarr.json zarrs wrote: the same decoded bytes.
        assert_eq!(
            zarr_scale_offset::decode_chunk(&meta_text, &bytes).unwrap(),
            back,
            "{}: {key}",
            case.name
        );
        manifest.push(
            serde_json::json!({"key": key, "input": hex(&input), "zarrs_decoded": hex(&back)}),
        );
        stored.push((idx, bytes));
    }
    let doc = serde_json::json!({
        "writer": "zarrs 0.23 + zarrs-scale-offset (crates/zarrs/tests/write.rs)",
        "note": case.note,
        "chunks": manifest,
    });
    std::fs::write(
        dir.join("chunks.json"),
        serde_json::to_string_pretty(&doc).unwrap(),
    )
    .unwrap();
    // zarrs wrote our codecs under their names, with the configurations given.
    let meta: serde_json::Value = serde_json::from_str(&meta_text).unwrap();
    let given: serde_json::Value = serde_json::from_str(case.codecs).unwrap();
    let written = meta["codecs"].as_array().unwrap();
    assert_eq!(
        &written[..written.len() - 1],
        given.as_array().unwrap().as_slice(),
        "{}",
        case.name
    );
    assert_eq!(written.last().unwrap()["name"], "bytes");
    stored
}

fn f64s(v: impl IntoIterator<Item = f64>) -> Vec<u8> {
    v.into_iter().flat_map(f64::to_le_bytes).collect()
}

/// `[cf.scale_offset, cast_value(int16)]` with a NaN scalar_map, float64, fill NaN, 2-D with
/// edge chunks.
#[test]
fn cf_scale_offset_cast_value_nan_map() {
    let case = Case {
        name: "cf_int16_nan.zarr",
        data_type: "float64",
        fill: "NaN".into(),
        shape: vec![50, 37],
        chunk_shape: vec![16, 16],
        codecs: r#"[{"name":"cf.scale_offset","configuration":{"scale":0.01,"offset":273.15}},
            {"name":"cast_value","configuration":{"data_type":"int16",
             "scalar_map":{"encode":[["NaN",-32768]],"decode":[[-32768,"NaN"]]}}}]"#,
        note: "x = 273.15 + (k - 900) * 0.01 for the element's row-major index k; NaN where k % 7 == 3",
    };
    let stored = write(&case, |idx| {
        f64s((0..256).map(|i| {
            let (r, c) = (idx[0] * 16 + i / 16, idx[1] * 16 + i % 16);
            let k = r * 37 + c;
            if k % 7 == 3 {
                f64::NAN
            } else {
                273.15 + (k as f64 - 900.0) * 0.01
            }
        }))
    });
    let c00 = &stored[0].1;
    let i16_at = |i: usize| i16::from_le_bytes([c00[2 * i], c00[2 * i + 1]]);
    // (264.15 - 273.15) / 0.01 = -900; k = 1 -> -899; k = 3 is NaN -> -32768.
    assert_eq!((i16_at(0), i16_at(1), i16_at(3)), (-900, -899, -32768));
    assert_eq!(stored.len(), 12);
}

/// `[scale_offset, cast_value(int16)]`, float32, fill 0.
#[test]
fn scale_offset_cast_value_float32() {
    let case = Case {
        name: "f32_scale_offset_int16.zarr",
        data_type: "float32",
        fill: 0.into(),
        shape: vec![40],
        chunk_shape: vec![16],
        codecs: r#"[{"name":"scale_offset","configuration":{"offset":-10,"scale":100}},
            {"name":"cast_value","configuration":{"data_type":"int16"}}]"#,
        note: "x = k * 0.25 - 3 for the element index k (past the edge too)",
    };
    let stored = write(&case, |idx| {
        (0..16u64)
            .flat_map(|i| ((idx[0] * 16 + i) as f32 * 0.25 - 3.0).to_le_bytes())
            .collect()
    });
    // (-3 + 10) * 100 = 700, then +25 per element.
    assert_eq!(stored[0].1[..4], [0xbc, 0x02, 0xd5, 0x02]);
}

/// bfloat16 data through `[cf.scale_offset(0.5), cast_value(float8_e4m3, clamp)]`.
#[test]
fn bfloat16_to_float8() {
    let case = Case {
        name: "bf16_float8_e4m3.zarr",
        data_type: "bfloat16",
        fill: 0.into(),
        shape: vec![32],
        chunk_shape: vec![8],
        codecs: r#"[{"name":"cf.scale_offset","configuration":{"scale":0.5,"offset":0}},
            {"name":"cast_value","configuration":{"data_type":"float8_e4m3","out_of_range":"clamp"}}]"#,
        note: "x = (k - 16) * 0.25 as bfloat16 bits, element 31 = 1000 (stored 2000 clamps to +Infinity)",
    };
    let stored = write(&case, |idx| {
        (0..8u64)
            .flat_map(|i| {
                let k = idx[0] * 8 + i;
                let x = if k == 31 {
                    1000.0f32
                } else {
                    (k as f32 - 16.0) * 0.25
                };
                // bfloat16 = the upper half of the float32 (exact for these values).
                ((x.to_bits() >> 16) as u16).to_le_bytes()
            })
            .collect()
    });
    // k = 20: x = 1.0, stored 2.0 = e4m3 0x40; k = 16: 0.0 = 0x00; k = 31: 2000 is past e4m3's
    // largest finite value (240), and clamp into a type with infinities gives +Infinity (0x78;
    // the cast_value spec, "out_of_range": "clamp").
    assert_eq!(
        (stored[2].1[4], stored[2].1[0], stored[3].1[7]),
        (0x40, 0x00, 0x78)
    );
}

/// float32 data stored as int4 (`[scale_offset(scale 2), cast_value(int4, clamp)]`).
#[test]
fn float32_to_int4() {
    let case = Case {
        name: "f32_int4.zarr",
        data_type: "float32",
        fill: 0.into(),
        shape: vec![24],
        chunk_shape: vec![8],
        codecs: r#"[{"name":"scale_offset","configuration":{"scale":2}},
            {"name":"cast_value","configuration":{"data_type":"int4","out_of_range":"clamp"}}]"#,
        note: "x = (k - 12) * 0.5; stored 2x clamped to -8..7",
    };
    let stored = write(&case, |idx| {
        (0..8u64)
            .flat_map(|i| (((idx[0] * 8 + i) as f32 - 12.0) * 0.5).to_le_bytes())
            .collect()
    });
    // k = 0: 2 * -6 = -12 -> clamp -8 (sign-extended byte 0xf8); k = 11: -1 -> 0xff; k = 12: 0.
    assert_eq!(
        (stored[0].1[0], stored[1].1[3], stored[1].1[4]),
        (0xf8, 0xff, 0x00)
    );
}

/// An int4 array (zarrs' in-memory int4: sign-extended i8) through scale_offset.
#[test]
fn int4_scale_offset() {
    let case = Case {
        name: "int4_scale_offset.zarr",
        data_type: "int4",
        fill: 0.into(),
        shape: vec![16],
        chunk_shape: vec![8],
        codecs: r#"[{"name":"scale_offset","configuration":{"offset":1,"scale":1}}]"#,
        note: "x = k - 7 for k < 15, x = 0 at k = 15; stored x - 1",
    };
    let stored = write(&case, |idx| {
        (0..8u64)
            .map(|i| {
                let k = idx[0] * 8 + i;
                (if k == 15 { 0 } else { k as i8 - 7 }) as u8
            })
            .collect()
    });
    // k = 0: -7 - 1 = -8 = 0xf8; k = 8: 1 - 1 = 0.
    assert_eq!((stored[0].1[0], stored[1].1[0]), (0xf8, 0x00));
}

/// uint64 beyond 2^53: exact integer arithmetic.
#[test]
fn uint64_scale_offset() {
    let case = Case {
        name: "u64_scale_offset.zarr",
        data_type: "uint64",
        fill: 1.into(),
        shape: vec![16],
        chunk_shape: vec![8],
        codecs: r#"[{"name":"scale_offset","configuration":{"offset":1,"scale":3}}]"#,
        note: "x = 2^60 + k; stored (x - 1) * 3",
    };
    let stored = write(&case, |idx| {
        (0..8u64)
            .flat_map(|i| ((1u64 << 60) + idx[0] * 8 + i).to_le_bytes())
            .collect()
    });
    let first = u64::from_le_bytes(stored[0].1[..8].try_into().unwrap());
    assert_eq!(first, 3_458_764_513_820_540_925); // (2^60 - 1) * 3
}

/// A value the codecs cannot store is a zarrs codec error carrying the core's code and message.
#[test]
fn encode_error_is_a_codec_error_with_the_core_message() {
    let dir = scratch("out_of_range.zarr");
    let array = ArrayBuilder::new(
        vec![4u64],
        vec![4u64],
        "float32",
        FillValueMetadata::from(0),
    )
    .array_to_array_codecs(codecs(
        r#"[{"name":"scale_offset","configuration":{"offset":-10,"scale":100}},
                {"name":"cast_value","configuration":{"data_type":"int16"}}]"#,
    ))
    .build(Arc::new(FilesystemStore::new(&dir).unwrap()), "/")
    .unwrap();
    let data: Vec<u8> = [0.0f32, 1.0, 400.0, 2.0]
        .iter()
        .flat_map(|x| x.to_le_bytes())
        .collect();
    let e = array
        .store_chunk(&[0], ArrayBytes::new_flen(data))
        .unwrap_err()
        .to_string();
    assert!(
        e.contains("cast_value: out_of_range") && e.contains("element 2"),
        "{e}"
    );
}

/// A data type outside the 26 numeric ones: an unsupported-data-type error, not a panic.
#[test]
fn unsupported_data_type() {
    let c = codecs(r#"[{"name":"scale_offset","configuration":{"scale":2}}]"#);
    let e = c[0]
        .encoded_data_type(&zarrs::array::data_type::bool())
        .unwrap_err();
    assert!(
        matches!(e, zarrs::array::CodecError::UnsupportedDataType(..)),
        "{e}"
    );
}

/// A fill value the codecs cannot carry: encoding with it is an error that names it
/// (`encoded_fill_value` answers with a placeholder: tests/subset.rs).
#[test]
fn fill_value_error() {
    let c = codecs(r#"[{"name":"cast_value","configuration":{"data_type":"uint8"}}]"#);
    let e = c[0]
        .encode(
            ArrayBytes::new_flen(1.0f32.to_ne_bytes().to_vec()),
            &[std::num::NonZeroU64::MIN],
            &zarrs::array::data_type::float32(),
            &zarrs::array::FillValue::from(-1.0f32),
            &zarrs::array::CodecOptions::default(),
        )
        .unwrap_err()
        .to_string();
    assert!(e.starts_with("cast_value: ") && e.contains("fill"), "{e}");
}

/// Invalid metadata in a store: opening it fails with the core's pointer and code.
#[test]
fn invalid_configuration_at_open() {
    let dir = scratch("bad_configuration.zarr");
    let meta = r#"{"zarr_format": 3, "node_type": "array", "shape": [4], "data_type": "float32",
        "chunk_grid": {"name": "regular", "configuration": {"chunk_shape": [4]}},
        "chunk_key_encoding": {"name": "default"}, "fill_value": 0,
        "codecs": [{"name": "scale_offset", "configuration": {"scale": 2, "sclae": 1}},
                   {"name": "bytes", "configuration": {"endian": "little"}}]}"#;
    std::fs::write(dir.join("zarr.json"), meta).unwrap();
    let store = Arc::new(FilesystemStore::new(&dir).unwrap());
    let e = zarrs::array::Array::open(store, "/")
        .unwrap_err()
        .to_string();
    assert!(
        e.contains("invalid_metadata") && e.contains("/configuration/sclae"),
        "{e}"
    );
}
