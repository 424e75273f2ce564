//! Codec binding over arbitrary (data type, configuration, fill value), structure-aware: the
//! input is decoded by `arbitrary` into a codecs list of scale_offset / cf.scale_offset /
//! cast_value entries (or raw JSON), scalars in every spelling (integers up to 128 bits, f64,
//! raw number text such as `1e400`, "NaN", "+Infinity", hex of every width, wrong JSON types),
//! a fill value, an endian, a chunk length and element bytes. It is bound as a whole zarr.json
//! (validate, encode_chunk, decode_chunk) and as a bare array->array list (encode/decode).
//! Checks: `checks::bound_doc` and `checks::bound_list`. A failing input is committed as the
//! document it builds (`fuzz/regressions/codec_bind/*`, metadata text, 0x00, data bytes) and
//! replayed by `tests/fuzz_regressions.rs`.
#![no_main]

use arbitrary::Arbitrary;
use libfuzzer_sys::fuzz_target;
/// Every data type (the public list).
const ALL: &[zarr_scale_offset::DataType] = zarr_scale_offset::DataType::ALL;
use zarr_scale_offset::internals::json::quote;

#[path = "../checks.rs"]
mod checks;

#[derive(Arbitrary, Debug)]
enum Scalar {
    Int(i64),
    UInt(u64),
    Wide(i128),
    Float(f64),
    Small(i8),
    /// Raw JSON number text built from parts (e.g. `-12.5e-400`).
    Text {
        neg: bool,
        int: u32,
        frac: Option<u16>,
        exp: Option<i16>,
    },
    Special(u8),
    Hex {
        bits: u64,
        digits: u8,
    },
    Str(String),
    Null,
    Bool(bool),
    List(Vec<i8>),
}

const SPECIALS: [&str; 12] = [
    "NaN",
    "Infinity",
    "-Infinity",
    "+Infinity",
    "nan",
    "-inf",
    "0.5",
    "12",
    "-0.0",
    "0X7FC0",
    "1e3",
    "",
];

impl Scalar {
    fn json(&self) -> String {
        match self {
            Scalar::Int(v) => v.to_string(),
            Scalar::UInt(v) => v.to_string(),
            Scalar::Wide(v) => v.to_string(),
            Scalar::Small(v) => v.to_string(),
            Scalar::Float(v) if v.is_finite() => format!("{v:?}"),
            Scalar::Float(v) => quote(&format!("{v}")),
            Scalar::Text {
                neg,
                int,
                frac,
                exp,
            } => {
                let mut s = String::new();
                if *neg {
                    s.push('-');
                }
                s.push_str(&int.to_string());
                if let Some(f) = frac {
                    s.push('.');
                    s.push_str(&f.to_string());
                }
                if let Some(e) = exp {
                    s.push('e');
                    s.push_str(&e.to_string());
                }
                s
            }
            Scalar::Special(i) => quote(SPECIALS[*i as usize % SPECIALS.len()]),
            Scalar::Hex { bits, digits } => {
                let d = (*digits as usize % 17).max(1);
                let h = format!("{bits:016x}");
                quote(&format!("0x{}", &h[16 - d..]))
            }
            Scalar::Str(s) => quote(s),
            Scalar::Null => "null".into(),
            Scalar::Bool(b) => b.to_string(),
            Scalar::List(v) => format!("{v:?}"),
        }
    }
}

#[derive(Arbitrary, Debug)]
enum DType {
    Known(u8),
    Object(u8),
    Unknown(String),
}

impl DType {
    fn json(&self) -> String {
        match self {
            DType::Known(i) => quote(ALL[*i as usize % ALL.len()].name()),
            DType::Object(i) => format!(
                r#"{{"name":{}}}"#,
                quote(ALL[*i as usize % ALL.len()].name())
            ),
            DType::Unknown(s) => quote(s),
        }
    }
}

const ROUNDING: [&str; 6] = [
    "nearest-even",
    "towards-zero",
    "towards-positive",
    "towards-negative",
    "nearest-away",
    "up",
];
const OOR: [&str; 3] = ["clamp", "wrap", "saturate"];

#[derive(Arbitrary, Debug)]
enum Codec {
    ScaleOffset {
        cf: bool,
        offset: Option<Scalar>,
        scale: Option<Scalar>,
        extra_key: bool,
    },
    Short(bool),
    Cast {
        data_type: DType,
        rounding: Option<u8>,
        out_of_range: Option<u8>,
        encode: Option<Vec<(Scalar, Scalar)>>,
        decode: Option<Vec<(Scalar, Scalar)>>,
        must_understand: Option<bool>,
    },
    FixedScaleOffset {
        offset: Option<Scalar>,
        scale: Option<Scalar>,
        dtype: Option<u8>,
        astype: Option<u8>,
    },
    Raw(String),
}

/// numpy dtype spellings for numcodecs.fixedscaleoffset (and a few wrong ones).
const NUMPY: [&str; 16] = [
    "<f8", "<f4", "<f2", ">f8", "|u1", "<u2", ">u2", "<i2", "<i4", "<i8", "|i1", "<u8", "float64",
    "int16", "|b1", "<c8",
];

impl Codec {
    fn json(&self) -> String {
        match self {
            Codec::ScaleOffset {
                cf,
                offset,
                scale,
                extra_key,
            } => {
                let mut cfg = Vec::new();
                if let Some(o) = offset {
                    cfg.push(format!(r#""offset":{}"#, o.json()));
                }
                if let Some(s) = scale {
                    cfg.push(format!(r#""scale":{}"#, s.json()));
                }
                if *extra_key {
                    cfg.push(r#""bias":1"#.into());
                }
                let name = if *cf {
                    "cf.scale_offset"
                } else {
                    "scale_offset"
                };
                format!(
                    r#"{{"name":"{name}","configuration":{{{}}}}}"#,
                    cfg.join(",")
                )
            }
            Codec::Short(cf) => quote(if *cf {
                "cf.scale_offset"
            } else {
                "scale_offset"
            }),
            Codec::Cast {
                data_type,
                rounding,
                out_of_range,
                encode,
                decode,
                must_understand,
            } => {
                let mut cfg = vec![format!(r#""data_type":{}"#, data_type.json())];
                if let Some(r) = rounding {
                    cfg.push(format!(
                        r#""rounding":"{}""#,
                        ROUNDING[*r as usize % ROUNDING.len()]
                    ));
                }
                if let Some(o) = out_of_range {
                    cfg.push(format!(
                        r#""out_of_range":"{}""#,
                        OOR[*o as usize % OOR.len()]
                    ));
                }
                let pairs = |v: &Vec<(Scalar, Scalar)>| {
                    v.iter()
                        .map(|(a, b)| format!("[{},{}]", a.json(), b.json()))
                        .collect::<Vec<_>>()
                        .join(",")
                };
                let mut sm = Vec::new();
                if let Some(e) = encode {
                    sm.push(format!(r#""encode":[{}]"#, pairs(e)));
                }
                if let Some(d) = decode {
                    sm.push(format!(r#""decode":[{}]"#, pairs(d)));
                }
                if encode.is_some() || decode.is_some() {
                    cfg.push(format!(r#""scalar_map":{{{}}}"#, sm.join(",")));
                }
                let mu = match must_understand {
                    Some(b) => format!(r#","must_understand":{b}"#),
                    None => String::new(),
                };
                format!(
                    r#"{{"name":"cast_value","configuration":{{{}}}{mu}}}"#,
                    cfg.join(",")
                )
            }
            Codec::FixedScaleOffset {
                offset,
                scale,
                dtype,
                astype,
            } => {
                let mut cfg = Vec::new();
                if let Some(o) = offset {
                    cfg.push(format!(r#""offset":{}"#, o.json()));
                }
                if let Some(s) = scale {
                    cfg.push(format!(r#""scale":{}"#, s.json()));
                }
                if let Some(d) = dtype {
                    cfg.push(format!(r#""dtype":"{}""#, NUMPY[*d as usize % NUMPY.len()]));
                }
                if let Some(a) = astype {
                    cfg.push(format!(
                        r#""astype":"{}""#,
                        NUMPY[*a as usize % NUMPY.len()]
                    ));
                }
                format!(
                    r#"{{"name":"numcodecs.fixedscaleoffset","configuration":{{{}}}}}"#,
                    cfg.join(",")
                )
            }
            Codec::Raw(s) => s.clone(),
        }
    }
}

#[derive(Arbitrary, Debug)]
struct Input {
    dtype: u8,
    dtype_as_object: bool,
    codecs: Vec<Codec>,
    fill: Scalar,
    endian: u8,
    chunk_len: u8,
    data: Vec<u8>,
}

fuzz_target!(|input: Input| {
    let dtype = ALL[input.dtype as usize % ALL.len()];
    let dt_json = if input.dtype_as_object {
        format!(r#"{{"name":"{}"}}"#, dtype.name())
    } else {
        quote(dtype.name())
    };
    let entries: Vec<String> = input.codecs.iter().take(6).map(Codec::json).collect();
    let list = format!("[{}]", entries.join(","));
    let bytes = match input.endian % 4 {
        0 => r#"{"name":"bytes","configuration":{"endian":"little"}}"#,
        1 => r#"{"name":"bytes","configuration":{"endian":"big"}}"#,
        2 => r#"{"name":"bytes"}"#,
        _ => r#""bytes""#,
    };
    let mut all = entries.clone();
    all.push(bytes.to_string());
    let n = input.chunk_len as usize % 17;
    let meta = format!(
        r#"{{"zarr_format":3,"node_type":"array","shape":[{n}],"data_type":{dt_json},"chunk_grid":{{"name":"regular","configuration":{{"chunk_shape":[{}]}}}},"chunk_key_encoding":{{"name":"default"}},"fill_value":{},"codecs":[{}]}}"#,
        n.max(1),
        input.fill.json(),
        all.join(",")
    );
    checks::bound_doc(&meta, &input.data);
    let has_raw = input
        .codecs
        .iter()
        .take(6)
        .any(|c| matches!(c, Codec::Raw(_)));
    checks::bound_list(&list, dtype, &input.data, has_raw);
});
