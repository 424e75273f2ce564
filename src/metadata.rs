//! The Zarr v3 zarr.json array document (and, through [`crate::v2`], the v2 `.zarray`): its
//! structure, and the bound codec chain a chunk needs.

use crate::chain::Chain;
use crate::codec::cast_value::parse_data_type;
use crate::codec::scalar;
use crate::dtype::DataType;
use crate::error::{Error, ErrorCode, Report, Result};
use crate::json::Quoted;
use crate::json::{parse, pointer_index, pointer_push, Json};

/// The parts of a zarr.json array document a chunk needs.
#[derive(Debug)]
pub struct ArrayMeta {
    /// The array's data type.
    pub dtype: DataType,
    /// Elements per chunk.
    pub chunk_len: usize,
    /// The bound codec chain.
    pub chain: Chain,
}

fn nonneg_int(v: &Json, pointer: &str, report: &mut Report) -> Option<u64> {
    let r = v
        .as_number()
        .filter(|t| t.bytes().all(|c| c.is_ascii_digit()))
        .and_then(|t| t.parse::<u64>().ok());
    if r.is_none() {
        report.error(Error::metadata(
            pointer,
            format!(
                "must be a non-negative integer, found {}",
                v.to_json_string()
            ),
        ));
    }
    r
}

/// Parses a shape-like array; returns (dimensions, element count). Only a chunk shape (`chunk`)
/// must have positive dimensions and an addressable element count: the chunk is what gets
/// allocated, while an array's shape may be as large as u64 dimensions allow.
fn shape(v: &Json, pointer: &str, chunk: bool, report: &mut Report) -> Option<(usize, usize)> {
    let Some(items) = v.as_array() else {
        report.error(Error::metadata(
            pointer,
            format!("must be an array of integers, found {}", v.kind_name()),
        ));
        return None;
    };
    let mut n: Option<u64> = Some(1);
    let mut valid = true;
    for (i, d) in items.iter().enumerate() {
        let p = pointer_index(pointer, i);
        let x = nonneg_int(d, &p, report);
        valid &= x.is_some();
        if chunk && x == Some(0) {
            report.error(Error::metadata(&p, "chunk dimensions must be positive"));
        }
        n = match (n, x) {
            (Some(n), Some(x)) => n.checked_mul(x),
            _ => None,
        };
    }
    if !chunk {
        return valid.then_some((items.len(), 0));
    }
    // Byte counts must stay addressable (8-byte elements), on wasm32 too.
    let limit = (isize::MAX as u64) / 8;
    match n {
        Some(n) if n <= limit => Some((items.len(), n as usize)),
        _ if valid => {
            report.error(Error::metadata(
                pointer,
                "has more elements than can be addressed in one chunk",
            ));
            None
        }
        _ => None,
    }
}

/// The top-level keys of a Zarr v3 array document.
const ARRAY_KEYS: [&str; 11] = [
    "zarr_format",
    "node_type",
    "shape",
    "data_type",
    "chunk_grid",
    "chunk_key_encoding",
    "fill_value",
    "codecs",
    "attributes",
    "storage_transformers",
    "dimension_names",
];

/// Parses a zarr.json array document, reporting every problem.
pub fn parse_array_meta(doc: &Json, report: &mut Report) -> Option<ArrayMeta> {
    let errors_before = report.error_count();
    let Some(obj) = doc.as_object() else {
        report.error(Error::metadata(
            "",
            format!(
                "array metadata must be an object, found {}",
                doc.kind_name()
            ),
        ));
        return None;
    };
    for (k, v) in obj {
        if ARRAY_KEYS.contains(&k.as_str()) {
            continue;
        }
        let p = pointer_push("", k);
        if v.get("must_understand").and_then(Json::as_bool) == Some(false) {
            report.warn(
                &p,
                "ignored_field",
                format!(
                    "unknown field {} has must_understand: false, so it is ignored",
                    Quoted(k)
                ),
            );
        } else {
            report.error(Error::metadata(
                &p,
                format!("unknown field {}; readers must fail unless it is an object with \"must_understand\": false", Quoted(k)),
            ));
        }
    }
    for k in doc.duplicate_keys() {
        report.error(Error::metadata(
            &pointer_push("", k),
            format!("duplicate key {}", Quoted(k)),
        ));
    }
    match doc.get("zarr_format") {
        Some(z) if z.as_number() == Some("3") => {}
        Some(z) => report.error(Error::metadata(
            "/zarr_format",
            format!("must be 3, found {}", z.to_json_string()),
        )),
        None => report.error(Error::metadata("", "missing required key \"zarr_format\"")),
    }
    match doc.get("node_type") {
        Some(t) if t.as_str() == Some("array") => {}
        Some(t) => report.error(Error::metadata(
            "/node_type",
            format!("must be \"array\", found {}", t.to_json_string()),
        )),
        None => report.error(Error::metadata("", "missing required key \"node_type\"")),
    }
    let dims = match doc.get("shape") {
        Some(s) => shape(s, "/shape", false, report).map(|s| s.0),
        None => {
            report.error(Error::metadata("", "missing required key \"shape\""));
            None
        }
    };
    let dtype = match doc.get("data_type") {
        Some(d) => report.check(parse_data_type(d, "/data_type")),
        None => {
            report.error(Error::metadata("", "missing required key \"data_type\""));
            None
        }
    };
    let fill = match (doc.get("fill_value"), dtype) {
        (Some(f), Some(dt)) => scalar(dt, f, "/fill_value", report),
        (Some(_), None) => None,
        (None, _) => {
            report.error(Error::metadata("", "missing required key \"fill_value\""));
            None
        }
    };
    let chunk_len = match doc.get("chunk_grid") {
        Some(g) => match (
            g.get("name").and_then(Json::as_str),
            g.get("configuration").and_then(|c| c.get("chunk_shape")),
        ) {
            (Some("regular"), Some(s)) => {
                let cs = shape(s, "/chunk_grid/configuration/chunk_shape", true, report);
                if let (Some((n, _)), Some(d)) = (cs, dims) {
                    if n != d {
                        report.error(Error::metadata(
                            "/chunk_grid/configuration/chunk_shape",
                            format!("has {n} dimensions but shape has {d}"),
                        ));
                    }
                }
                cs.map(|c| c.1)
            }
            (Some("regular"), None) => {
                report.error(Error::metadata(
                    "/chunk_grid/configuration",
                    "missing \"chunk_shape\"",
                ));
                None
            }
            _ => {
                report.error(Error::metadata(
                    "/chunk_grid/name",
                    "only the \"regular\" chunk grid is supported",
                ));
                None
            }
        },
        None => {
            report.error(Error::metadata("", "missing required key \"chunk_grid\""));
            None
        }
    };
    if let Some(st) = doc.get("storage_transformers") {
        match st.as_array() {
            Some([]) => {}
            Some(_) => report.error(Error::at(
                ErrorCode::UnsupportedCodec,
                "/storage_transformers",
                "storage transformers are not supported",
            )),
            None => report.error(Error::metadata("/storage_transformers", "must be an array")),
        }
    }
    if let Some(a) = doc.get("attributes") {
        if a.as_object().is_none() {
            report.error(Error::metadata(
                "/attributes",
                format!("must be an object, found {}", a.kind_name()),
            ));
        }
    }
    if let Some(names) = doc.get("dimension_names") {
        match names.as_array() {
            Some(items) => {
                for (i, n) in items.iter().enumerate() {
                    if !matches!(n, Json::String(_) | Json::Null) {
                        report.error(Error::metadata(
                            &pointer_index("/dimension_names", i),
                            "must be a string or null",
                        ));
                    }
                }
                if let Some(d) = dims.filter(|&d| d != items.len()) {
                    report.error(Error::metadata(
                        "/dimension_names",
                        format!("has {} names but shape has {d} dimensions", items.len()),
                    ));
                }
            }
            None => report.error(Error::metadata("/dimension_names", "must be an array")),
        }
    }
    let chain = match doc.get("codecs") {
        Some(c) => Chain::bind(c, "/codecs", dtype, fill, report),
        None => {
            report.error(Error::metadata("", "missing required key \"codecs\""));
            None
        }
    };
    if report.error_count() > errors_before {
        return None;
    }
    Some(ArrayMeta {
        dtype: dtype?,
        chunk_len: chunk_len?,
        chain: chain?,
    })
}

/// Parses metadata JSON text into an [`ArrayMeta`]: the first problem is the error.
pub fn parse_array_meta_text(text: &str) -> Result<ArrayMeta> {
    let doc = parse(text)?;
    let mut r = Report::default();
    let m = parse_any_array_meta(&doc, &mut r);
    r.into_result(m)
}

/// A Zarr v3 zarr.json document, or a Zarr v2 .zarray document (translated to v3 first; its
/// compressor becomes a bytes->bytes codec after `bytes`, which callers decompress themselves).
pub fn parse_any_array_meta(doc: &Json, report: &mut Report) -> Option<ArrayMeta> {
    if crate::v2::is_v2(doc) {
        let v3 = crate::v2::v2_to_v3_report(doc, report)?;
        return parse_array_meta(&v3, report);
    }
    parse_array_meta(doc, report)
}
