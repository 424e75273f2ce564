//! The Zarr v3 zarr.json array document (and, through [`crate::v2`], the v2 `.zarray`): its
//! structure, and the bound codec chain a chunk needs.

use crate::chain::{Chain, ChunkSpec};
use crate::codec::scalar;
use crate::codec::{check_known, KEY_ENCODING};
use crate::json::data_type::{check_other_fill, read_array_data_type, ArrayType};
use crate::json::fields::{must_be, report_duplicates};
use crate::json::{parse_ignoring, pointer_index, Fields, Json, Member, Quoted};
use crate::report::Report;
use zarr_scale_offset_core::dtype::DataType;
use zarr_scale_offset_core::error::{Error, ErrorCode, Result};

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
                "has more elements than one chunk may have (at most 2^28 - 1 in WebAssembly, so that byte counts stay addressable)",
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
    let f = Fields::open_any(doc, "", "array metadata", report)?;
    for (k, v) in f.unknown(&ARRAY_KEYS) {
        let p = f.at(k);
        let ext = match v {
            Json::Object(_) => Fields::open_any(v, &p, "an extension", report),
            _ => None,
        };
        if ext
            .and_then(|e| e.get("must_understand"))
            .and_then(Json::as_bool)
            == Some(false)
        {
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
    if let Some(z) = f.required("zarr_format", report) {
        if z.as_number() != Some("3") {
            report.error(Error::metadata(
                "/zarr_format",
                format!("must be 3, found {}", z.to_json_string()),
            ));
        }
    }
    if let Some(t) = f.required("node_type", report) {
        if t.as_str() != Some("array") {
            report.error(Error::metadata(
                "/node_type",
                format!("must be \"array\", found {}", t.to_json_string()),
            ));
        }
    }
    let dims = f
        .required("shape", report)
        .and_then(|s| shape(s, "/shape", false, report))
        .map(|s| s.0);
    let array_type = f
        .required("data_type", report)
        .and_then(|d| read_array_data_type(d, "/data_type", report));
    let (dtype, other) = match array_type {
        Some(ArrayType::Numeric(d)) => (Some(d), None),
        Some(ArrayType::Other(name, form)) => (None, Some((name, form))),
        None => (None, None),
    };
    if other.is_some() {
        let p = "/data_type";
        let n = zarr_scale_offset_core::dtype::COUNT;
        let what =
            format!("a known data type outside the {n} numeric ones: its values are not checked");
        report.warn(p, "unchecked_data_type", what);
        let what = format!("zarr-scale-offset decodes the {n} numeric data types only");
        report.unsupported(Error::at(ErrorCode::UnsupportedDataType, p, what));
    }
    let fill = match (f.required("fill_value", report), dtype, &other) {
        (Some(v), Some(dt), _) => scalar(dt, v, "/fill_value", report),
        (Some(v), None, Some((name, form))) => {
            check_other_fill(v, name, *form, "/fill_value", report);
            None
        }
        _ => None,
    };
    let chunk_len = f
        .required("chunk_grid", report)
        .and_then(|g| chunk_grid(g, dims, report));
    match f.get("chunk_key_encoding") {
        Some(e) => chunk_key_encoding(e, report),
        None => report.warn(
            "",
            "lenient_form",
            "missing key \"chunk_key_encoding\" (the core spec requires it; a chunk's decode does not need it)",
        ),
    }
    if let Some(st) = f.get("storage_transformers") {
        match st.as_array() {
            Some(items) => {
                // Core spec, "storage_transformers": each an extension point; none is defined
                // by a spec this crate knows, so each must be skippable (must_understand false).
                for (i, t) in items.iter().enumerate() {
                    let p = pointer_index("/storage_transformers", i);
                    let skippable = t.get("must_understand").and_then(Json::as_bool) == Some(false);
                    let m = "unknown storage transformer (skipped only with \"must_understand\": false)";
                    if skippable {
                        report.warn(&p, "ignored_field", m);
                    } else {
                        report.error(Error::at(ErrorCode::UnsupportedCodec, &p, m));
                    }
                }
            }
            None => report.error(Error::metadata("/storage_transformers", "must be an array")),
        }
    }
    if let Some(a) = f.get("attributes") {
        Fields::open_any(a, "/attributes", "attributes", report);
    }
    if let Some(names) = f.get("dimension_names") {
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
    let spec = ChunkSpec {
        dtype,
        other: other.is_some(),
        fill,
        shape: chunk_len.and_then(|_| chunk_shape_of(doc)),
        index: false,
    };
    let chain = f
        .required("codecs", report)
        .and_then(|c| Chain::bind_spec(c, "/codecs", &spec, report));
    // Duplicated keys in the objects no reader opened (attributes, skipped codecs, extensions).
    report_duplicates(doc, errors_before, report);
    if report.error_count() > errors_before {
        return None;
    }
    Some(ArrayMeta {
        dtype: dtype?,
        chunk_len: chunk_len?,
        chain: chain?,
    })
}

/// The `regular` chunk grid: the number of elements per chunk (`dims`: the array's dimensions).
fn chunk_grid(g: &Json, dims: Option<usize>, report: &mut Report) -> Option<usize> {
    let g = Fields::open_any(g, "/chunk_grid", "chunk_grid", report)?;
    if g.get("name").and_then(Json::as_str) != Some("regular") {
        report.error(Error::metadata(
            "/chunk_grid/name",
            "only the \"regular\" chunk grid is supported",
        ));
        return None;
    }
    let cfg = g.required("configuration", report)?;
    let what = "the regular chunk grid configuration";
    let cfg = Fields::open_any(cfg, &g.at("configuration"), what, report)?;
    let p = cfg.at("chunk_shape");
    let (n, len) = shape(cfg.required("chunk_shape", report)?, &p, true, report)?;
    if let Some(d) = dims.filter(|&d| d != n) {
        report.error(Error::metadata(
            &p,
            format!("has {n} dimensions but shape has {d}"),
        ));
    }
    Some(len)
}

/// The keys of a codec object (read when `validate` is given one codec).
const CODEC_KEYS: [&str; 3] = ["name", "configuration", "must_understand"];

/// Whether the readers of an array document (v3 or v2) and of a codec object never read a
/// member, so that [`parse_document`] skips it (checking its syntax and duplicated keys only):
/// `attributes` when it is an object; the value of an unknown top-level key when it is an array
/// (v3 rejects it; v2 ignores it); and every member but `must_understand` of an unknown
/// top-level object (a v3 extension, or an unknown `.zarray` key).
pub fn ignored_member(m: &Member) -> bool {
    let known = |k: &str| {
        ARRAY_KEYS.contains(&k) || crate::v2::KEYS.contains(&k) || CODEC_KEYS.contains(&k)
    };
    match m.parent {
        None => (m.key == "attributes" && m.object) || (!known(m.key) && !m.object),
        Some(p) => !known(p) && m.key != "must_understand",
    }
}

/// Parses metadata JSON text (an array document, a codecs list or a codec), skipping what
/// [`ignored_member`] selects: memory stays a small multiple of the text whatever the size of
/// `attributes`.
pub fn parse_document(text: &str) -> Result<Json> {
    parse_ignoring(text, ignored_member)
}

/// The dimensions of a valid regular chunk grid's `chunk_shape`.
fn chunk_shape_of(doc: &Json) -> Option<Vec<u64>> {
    let dims = doc
        .get("chunk_grid")?
        .get("configuration")?
        .get("chunk_shape")?
        .as_array()?;
    dims.iter()
        .map(|d| d.as_number().and_then(|t| t.parse::<u64>().ok()))
        .collect()
}

/// `chunk_key_encoding`: `default` (core spec `docs/v3/chunk-key-encodings/default`: an
/// optional `separator`, `"/"` or `"."`) or `v2` (`docs/v3/chunk-key-encodings/v2`: the same,
/// default `"."`); another name is an unknown extension (an error unless `must_understand` is
/// false).
fn chunk_key_encoding(e: &Json, report: &mut Report) {
    if let Json::Object(_) = e {
        // Unknown and duplicated keys first (a duplicated name is reported as such).
        let keys = ["name", "configuration", "must_understand"];
        Fields::open(
            e,
            "/chunk_key_encoding",
            "chunk_key_encoding",
            &keys,
            report,
        );
    }
    let name = e.get("name").unwrap_or(e);
    let skippable = e.get("must_understand").and_then(Json::as_bool) == Some(false);
    if !matches!(name.as_str(), Some("default" | "v2")) && !skippable {
        let at = match e {
            Json::Object(_) => "/chunk_key_encoding/name",
            _ => "/chunk_key_encoding",
        };
        report.error(must_be(at, "\"default\" or \"v2\"", name));
        return;
    }
    check_known(
        &KEY_ENCODING,
        e.get("configuration"),
        "/chunk_key_encoding",
        report,
    );
}

/// Parses metadata JSON text into an [`ArrayMeta`]: the first problem is the error.
pub fn parse_array_meta_text(text: &str) -> Result<ArrayMeta> {
    let doc = parse_document(text)?;
    let mut r = Report::default();
    let m = parse_any_array_meta(&doc, &mut r);
    r.into_result(m)
}

/// A Zarr v3 zarr.json document, or a Zarr v2 .zarray document (translated to v3 first; its
/// compressor becomes a bytes->bytes codec after `bytes`, which callers decompress themselves).
pub fn parse_any_array_meta(doc: &Json, report: &mut Report) -> Option<ArrayMeta> {
    if crate::v2::is_v2(doc) {
        let v3 = crate::v2::v2_to_v3_report(doc, report)?;
        let meta = parse_array_meta(&v3, report);
        // Pointers into the .zarray, not into its v3 translation.
        let filters = doc
            .get("filters")
            .and_then(Json::as_array)
            .map_or(0, <[Json]>::len);
        let bytes = v3.get("codecs").and_then(Json::as_array).is_some_and(|c| {
            c.iter()
                .any(|c| c.get("name").and_then(Json::as_str) == Some("bytes"))
        });
        report.remap_paths(|p| crate::v2::v2_pointer(p, filters, bytes));
        return meta;
    }
    parse_array_meta(doc, report)
}
