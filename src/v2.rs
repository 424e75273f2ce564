//! Zarr v2 `.zarray` documents, translated into the equivalent Zarr v3 array document this
//! crate's chain understands.
//!
//! | v2 | v3 |
//! |---|---|
//! | `zarr_format: 2` | `zarr_format: 3`, `node_type: "array"`, `attributes: {}` |
//! | `dtype` (NumPy spelling with byte order, e.g. `"<f4"`) | `data_type` (`"float32"`); the byte order goes to the `bytes` codec |
//! | `dtype` outside the 26 (`"\|b1"`, `"<c8"`, `"\|S10"`, `"<U4"`, `"\|V8"`, `"<M8[ns]"`, `"\|O"`, a structured list) | the v3 type zarr-python 3 reads it as (`bool`, `complex64`, `null_terminated_bytes`, `fixed_length_utf32`, `raw_bytes`, `numpy.datetime64`, `string`, `structured`): valid, not decoded; an object array's `vlen-utf8`/`vlen-bytes` filter is its array -> bytes codec |
//! | `shape`, `chunks` | `shape`, `chunk_grid` `regular` with `chunk_shape` |
//! | `dimension_separator` (`"."` default, or `"/"`) | `chunk_key_encoding` `v2` with that `separator` |
//! | `fill_value` (a number, `"NaN"`, `"Infinity"`, `"-Infinity"`, or `null`) | `fill_value` (strict v3 form); `null` becomes 0 |
//! | `order: "C"` | nothing (`"F"` on more than one dimension would need `transpose`: unsupported) |
//! | `filters` | one array->array codec each, in the same order (encode order; decode runs them backwards, like v3 array->array codecs before `bytes`) |
//! | (the bytes) | `bytes`, with `endian` from the stored byte order |
//! | `compressor` `{"id": X, …}` | a bytes->bytes codec `numcodecs.X` with the other keys as its configuration |
//!
//! Only the `fixedscaleoffset` filter is supported; it becomes `numcodecs.fixedscaleoffset` with
//! a normalized configuration (`offset` and `scale` as written, `dtype` and `astype` as Zarr v3
//! names). Any other filter is `unsupported_codec` at its pointer (`/filters/i`).
//!
//! **Byte order.** In Zarr v2 the filters produce the stored bytes, so the stored byte order is
//! that of the last filter's `astype` (or of the array `dtype` when there is no filter); the
//! `bytes` codec gets that `endian`. zarr-python 2 views each filter's output with the next
//! type, so a filter `dtype` whose byte order differs from the type it receives would
//! reinterpret the bytes; that is rejected (`invalid_metadata`) instead of reproduced.
//!
//! **Compression.** The `compressor` codec is emitted after `bytes` so the chain names it as
//! an unsupported bytes->bytes codec with a clear message: this crate does not decompress.
//! The JS side inflates zlib/gzip chunks (`DecompressionStream`) before it calls
//! `decodeChunk`, and passes the chain without the compressor.
//!
//! **Fill value `null`.** Zarr v2 allows "no fill value"; missing chunks then read as 0 here
//! (the data type's default, which zarr-python 3 also uses for numeric v2 arrays), with a
//! `lenient_form` warning.

use crate::codec::{known_codec, lookup_v2, CodecKind};
use crate::json::fields::report_duplicates;
use crate::json::{parse, parse_scalar, pointer_index, quote, write_scalar, Fields, Json};
use crate::report::Report;
use zarr_scale_offset_core::dtype::DataType;
use zarr_scale_offset_core::dtype::{parse_numpy_dtype, NumpyDtype};
use zarr_scale_offset_core::error::{Error, ErrorCode, Result};

/// The warning for a v2 `fill_value: null`.
const NULL_FILL: &str = "fill_value null (no fill value in Zarr v2): missing chunks read as 0";

/// The keys of a v2 `.zarray`.
pub(crate) const KEYS: [&str; 9] = [
    "zarr_format",
    "shape",
    "chunks",
    "dtype",
    "compressor",
    "fill_value",
    "order",
    "filters",
    "dimension_separator",
];

/// Whether a parsed metadata document is a Zarr v2 `.zarray` (`"zarr_format": 2`).
pub fn is_v2(doc: &Json) -> bool {
    doc.get("zarr_format").and_then(Json::as_number) == Some("2")
}

/// Converts a Zarr v2 `.zarray` document into a Zarr v3 array document (see the module
/// documentation). The first problem is the error.
pub fn v2_to_v3(zarray: &Json) -> Result<Json> {
    let mut report = Report::default();
    let doc = v2_to_v3_report(zarray, &mut report);
    report.into_result(doc)
}

/// [`v2_to_v3`] over JSON text, giving JSON text.
pub fn v2_to_v3_text(zarray: &str) -> Result<String> {
    Ok(v2_to_v3(&parse(zarray)?)?.to_json_string())
}

/// Converts a Zarr v2 `.zarray` document, reporting every problem into `report` (JSON pointers
/// into the v2 document, e.g. `/filters/0/scale`); `None` when there is an error.
pub fn v2_to_v3_report(zarray: &Json, report: &mut Report) -> Option<Json> {
    let errors_before = report.error_count();
    let f = Fields::open_any(zarray, "", "a .zarray document", report)?;
    for (k, _) in f.unknown(&KEYS) {
        report.warn(
            &f.at(k),
            "ignored_field",
            format!("unknown .zarray key {} is ignored", quote(k)),
        );
    }
    if let Some(z) = f.required("zarr_format", report) {
        if z.as_number() != Some("2") {
            report.error(Error::metadata(
                "/zarr_format",
                format!(
                    "must be 2 for a .zarray document, found {}",
                    z.to_json_string()
                ),
            ));
        }
    }
    let shape = f
        .required("shape", report)
        .and_then(|v| dims(v, "/shape", false, report));
    let chunks = f
        .required("chunks", report)
        .and_then(|v| dims(v, "/chunks", true, report));
    if let (Some(s), Some(c)) = (&shape, &chunks) {
        if s.len() != c.len() {
            report.error(Error::metadata(
                "/chunks",
                format!("has {} dimensions but shape has {}", c.len(), s.len()),
            ));
        }
    }
    let dtype_v = f.required("dtype", report);
    let other = dtype_v.and_then(other_dtype);
    let dtype = match other {
        Some(_) => None,
        None => dtype_v.and_then(|v| numpy(v, report)),
    };
    let fill = match (f.required("fill_value", report), &other, dtype) {
        (Some(v), Some(o), _) => Some(other_fill(v, o.name, report)),
        (Some(v), None, Some(d)) => fill_value(v, d.data_type, report),
        _ => None,
    };
    match f.get("order") {
        Some(o) if o.as_str() == Some("C") => {}
        Some(o) if o.as_str() == Some("F") => {
            if shape.as_ref().is_none_or(|s| s.len() > 1) {
                // Valid Zarr v2; this crate cannot run it.
                report.unsupported(Error::at(
                    ErrorCode::UnsupportedCodec,
                    "/order",
                    "Fortran order (\"F\") would need the transpose codec, which is not implemented",
                ));
            }
        }
        Some(o) => report.error(Error::metadata(
            "/order",
            format!("must be \"C\" or \"F\", found {}", o.to_json_string()),
        )),
        None => report.warn("", "lenient_form", "missing key \"order\"; read as \"C\""),
    }
    let separator = match f.get("dimension_separator") {
        None => ".",
        Some(s) => match s.as_str() {
            Some(".") => ".",
            Some("/") => "/",
            _ => {
                report.error(Error::metadata(
                    "/dimension_separator",
                    format!("must be \".\" or \"/\", found {}", s.to_json_string()),
                ));
                "."
            }
        },
    };
    let (mut codecs, stored) = filters(f.get("filters"), dtype, other.as_ref(), report);
    let stored = stored.or(dtype);
    let compressor = compressor(f.get("compressor"), report);
    // Duplicated keys in the objects no reader opened (other filters, the compressor's values).
    report_duplicates(zarray, errors_before, report);
    if report.error_count() > errors_before {
        return None;
    }
    let endian = match (&other, stored) {
        // The object dtype's filter became its array -> bytes codec.
        (Some(o), _) if o.object => None,
        (Some(o), _) => Some(o.endian),
        (None, Some(st)) => Some((st.data_type.size() > 1).then_some(st.is_big())),
        (None, None) => return None,
    };
    if let Some(endian) = endian {
        let mut bytes = vec![("name".to_string(), Json::String("bytes".into()))];
        if let Some(big) = endian {
            let endian = if big { "big" } else { "little" };
            bytes.push((
                "configuration".into(),
                obj(vec![("endian", Json::String(endian.into()))]),
            ));
        }
        codecs.push(Json::Object(bytes));
    }
    codecs.extend(compressor);
    let ints = |v: &[u64]| Json::Array(v.iter().map(|n| Json::Number(n.to_string())).collect());
    Some(obj(vec![
        ("zarr_format", Json::Number("3".into())),
        ("node_type", Json::String("array".into())),
        ("shape", ints(&shape?)),
        (
            "data_type",
            Json::String(match &other {
                Some(o) => o.name.into(),
                None => dtype?.data_type.name().into(),
            }),
        ),
        (
            "chunk_grid",
            obj(vec![
                ("name", Json::String("regular".into())),
                ("configuration", obj(vec![("chunk_shape", ints(&chunks?))])),
            ]),
        ),
        (
            "chunk_key_encoding",
            obj(vec![
                ("name", Json::String("v2".into())),
                (
                    "configuration",
                    obj(vec![("separator", Json::String(separator.into()))]),
                ),
            ]),
        ),
        ("fill_value", fill?),
        ("codecs", Json::Array(codecs)),
        ("attributes", Json::Object(Vec::new())),
    ]))
}

fn obj(members: Vec<(&str, Json)>) -> Json {
    Json::Object(
        members
            .into_iter()
            .map(|(k, v)| (k.to_string(), v))
            .collect(),
    )
}

/// The array `dtype`: a NumPy spelling of a numeric type.
fn numpy(v: &Json, report: &mut Report) -> Option<NumpyDtype> {
    if let Some(d) = v.as_str().and_then(parse_numpy_dtype) {
        return Some(d);
    }
    let what = format!("{} is not a NumPy data type of Zarr v2", v.to_json_string());
    report.error(Error::at(ErrorCode::UnsupportedDataType, "/dtype", what));
    None
}

/// A v2 `dtype` outside the 26 numeric types, as zarr-python 3 reads it: a known Zarr v3 data
/// type that this crate validates but does not compute on (an `unchecked_data_type` warning and
/// `unsupported_data_type` in `unsupported`, as for a v3 document).
struct OtherDtype {
    /// Its Zarr v3 name (`bool`, `complex64`, `fixed_length_utf32`, ...).
    name: &'static str,
    /// For the `bytes` codec: `Some(big)` when its elements have a byte order.
    endian: Option<bool>,
    /// The object dtype `|O`: its filter (`vlen-utf8`, `vlen-bytes`) is its array -> bytes codec.
    object: bool,
}

/// The NumPy spellings zarr-python 2 writes for bool (`|b1`), complex (`<c8`, `<c16`), bytes
/// (`|S10`), unicode (`<U10`), void (`|V10`), datetime/timedelta (`<M8[ns]`, `<m8[s]`), object
/// (`|O`) and structured dtypes (a JSON list of fields); `None` for anything else.
fn other_dtype(v: &Json) -> Option<OtherDtype> {
    let s = match v {
        Json::Array(_) => {
            let (name, endian, object) = ("structured", None, false);
            return Some(OtherDtype {
                name,
                endian,
                object,
            });
        }
        v => v.as_str()?,
    };
    let (big, body) = match s.as_bytes().first() {
        Some(b'<' | b'=' | b'|') => (false, s.get(1..)?),
        Some(b'>') => (true, s.get(1..)?),
        _ => (false, s),
    };
    // The rest after a kind letter: a size in bytes ("S10"), or a datetime unit ("M8[ns]").
    let rest = |p: &str| body.strip_prefix(p).filter(|r| !r.is_empty());
    let sized = |p| rest(p).is_some_and(|d| d.bytes().all(|c| c.is_ascii_digit()));
    let unit = |p| body == p || rest(p).is_some_and(|u| u.starts_with('[') && u.ends_with(']'));
    let (name, ordered) = match body {
        "b1" | "?" => ("bool", false),
        "c8" | "F" => ("complex64", true),
        "c16" | "D" => ("complex128", true),
        "O" => ("string", false),
        _ if sized("S") => ("null_terminated_bytes", false),
        _ if sized("U") => ("fixed_length_utf32", true),
        _ if sized("V") => ("raw_bytes", false),
        _ if unit("M8") => ("numpy.datetime64", true),
        _ if unit("m8") => ("numpy.timedelta64", true),
        _ => return None,
    };
    Some(OtherDtype {
        name,
        endian: ordered.then_some(big),
        object: body == "O",
    })
}

/// The fill value of a v2 array of an [`OtherDtype`]: as written (the Zarr v3 document checks
/// it), `null` (no fill value) as the type's zero with a `lenient_form` warning.
fn other_fill(v: &Json, name: &str, report: &mut Report) -> Json {
    let zero = match (v, name) {
        (Json::Null, "bool") => Json::Bool(false),
        (Json::Null, "complex64" | "complex128") => {
            Json::Array(vec![Json::Number("0.0".into()), Json::Number("0.0".into())])
        }
        (v, _) => return v.clone(),
    };
    report.warn("/fill_value", "lenient_form", NULL_FILL);
    zero
}

/// `shape` or `chunks` (at `p`): an array of non-negative (for chunks: positive) JSON integers.
fn dims(v: &Json, p: &str, positive: bool, report: &mut Report) -> Option<Vec<u64>> {
    let Some(items) = v.as_array() else {
        report.error(Error::metadata(
            p,
            format!("must be an array of integers, found {}", v.kind_name()),
        ));
        return None;
    };
    let mut out = Vec::with_capacity(items.len());
    let mut ok = true;
    for (i, item) in items.iter().enumerate() {
        let n = item
            .as_number()
            .filter(|t| t.bytes().all(|b| b.is_ascii_digit()))
            .and_then(|t| t.parse::<u64>().ok());
        match n {
            Some(n) if !positive || n > 0 => out.push(n),
            _ => {
                let what = if positive {
                    "a positive"
                } else {
                    "a non-negative"
                };
                report.error(Error::metadata(
                    &pointer_index(p, i),
                    format!("must be {what} integer, found {}", item.to_json_string()),
                ));
                ok = false;
            }
        }
    }
    ok.then_some(out)
}

/// The v3 fill value: the strict form of the v2 one; `null` is 0.
fn fill_value(v: &Json, dtype: DataType, report: &mut Report) -> Option<Json> {
    let bits = match v {
        Json::Null => {
            report.warn("/fill_value", "lenient_form", NULL_FILL);
            0
        }
        v => {
            let s = report.check(parse_scalar(dtype, v, "/fill_value"))?;
            if let Some(m) = s.lenient {
                report.warn("/fill_value", "lenient_form", m);
            }
            s.bits
        }
    };
    report.check(parse(&write_scalar(dtype, bits)))
}

/// The pointer into a `.zarray` of a pointer into the Zarr v3 document [`v2_to_v3`] makes of it
/// (`filters`: the number of filters): `/codecs/i/configuration/k` is `/filters/i/k` or
/// `/compressor/k`, the `bytes` codec (`bytes`: whether the translation has one; an object
/// array's has not) and `/data_type` are `/dtype`, the chunk grid is `/chunks`. Pointers that
/// are already into the `.zarray` stay as they are.
pub fn v2_pointer(p: &str, filters: usize, bytes: bool) -> String {
    for (v3, v2) in [
        ("/data_type", "/dtype"),
        ("/chunk_grid", "/chunks"),
        ("/chunk_key_encoding", "/dimension_separator"),
    ] {
        if p.starts_with(v3) {
            return v2.into();
        }
    }
    let Some(rest) = p.strip_prefix("/codecs/") else {
        return match p {
            "/codecs" => "/filters".into(),
            _ => p.into(),
        };
    };
    let end = rest.bytes().position(|c| c == b'/').unwrap_or(rest.len());
    let key = rest
        .get(end..)
        .and_then(|t| t.strip_prefix("/configuration"))
        .unwrap_or("");
    match rest.get(..end).and_then(|i| i.parse::<usize>().ok()) {
        Some(i) if i < filters => pointer_index("/filters", i) + key,
        Some(i) if i > filters || (i == filters && !bytes) => "/compressor".to_string() + key,
        // The bytes codec: its endian comes from the dtype's byte order.
        _ => "/dtype".into(),
    }
}

/// The filters as v3 array->array codecs, and the stored type (the last filter's `astype`).
fn filters(
    v: Option<&Json>,
    dtype: Option<NumpyDtype>,
    other: Option<&OtherDtype>,
    report: &mut Report,
) -> (Vec<Json>, Option<NumpyDtype>) {
    let items: &[Json] = match v {
        None => {
            report.warn("", "lenient_form", "missing key \"filters\"; read as null");
            &[]
        }
        Some(Json::Null) => &[],
        Some(Json::Array(items)) => items,
        Some(other) => {
            report.error(Error::metadata(
                "/filters",
                format!("must be null or an array, found {}", other.kind_name()),
            ));
            &[]
        }
    };
    // zarr-python 2 stores an object array through an object codec in its filters.
    let mut object = other.is_some_and(|o| o.object);
    let mut out = Vec::new();
    // The type (and byte order) each filter receives; None once it is unknown.
    let mut received = dtype;
    let mut stored = None;
    for (i, f) in items.iter().enumerate() {
        let p = pointer_index("/filters", i);
        let id = f.get("id").and_then(Json::as_str);
        if f.as_object().is_none() || id.is_none() {
            report.error(Error::metadata(
                &p,
                "a filter must be an object with a string \"id\"",
            ));
            received = None;
            continue;
        }
        if let (true, Some(id @ ("vlen-utf8" | "vlen-bytes"))) = (object, id) {
            // The object codec: the v3 array -> bytes codec of that name; filters after it
            // would receive bytes (rejected by the chain as array -> array after array -> bytes).
            out.push(obj(vec![("name", Json::String(id.into()))]));
            object = false;
            continue;
        }
        let id = id.unwrap_or_default();
        // A filter of a codec this crate implements: the registry's v2 id names it.
        if let Some(v2) = lookup_v2(id) {
            match (v2.translate)(f, &p, received, report) {
                Some(t) => {
                    out.push(t.codec);
                    received = Some(t.produces);
                    stored = received;
                }
                None => received = None,
            }
            continue;
        }
        let name = format!("numcodecs.{id}");
        if known_codec(&name).is_some_and(|k| k.0 == CodecKind::ArrayToArray) {
            // A numcodecs filter this crate knows: the v3 chain checks its configuration and
            // reports it as unsupported (pointers mapped back by `v2_pointer`).
            let members = f.as_object().unwrap_or_default();
            let config = members.iter().filter(|(k, _)| k != "id").cloned().collect();
            out.push(Json::Object(vec![
                ("name".into(), Json::String(name)),
                ("configuration".into(), Json::Object(config)),
            ]));
            received = None;
            stored = None;
            continue;
        }
        report.error(Error::at(
            ErrorCode::UnsupportedCodec,
            &p,
            format!(
                "unknown v2 filter {}: not a numcodecs filter this crate knows",
                f.get("id").map(Json::to_json_string).unwrap_or_default(),
            ),
        ));
        received = None;
    }
    if object {
        report.error(Error::metadata(
            "/filters",
            "the object dtype \"|O\" needs an object codec filter (vlen-utf8 or vlen-bytes)",
        ));
    }
    (out, stored)
}

/// The compressor as a bytes->bytes codec `numcodecs.<id>` (none for `null`).
fn compressor(v: Option<&Json>, report: &mut Report) -> Option<Json> {
    let c = match v {
        None => {
            report.warn(
                "",
                "lenient_form",
                "missing key \"compressor\"; read as null",
            );
            return None;
        }
        Some(Json::Null) => return None,
        Some(c) => c,
    };
    let f = match c {
        Json::Object(_) => Fields::open_any(c, "/compressor", "the compressor", report),
        _ => None,
    };
    let (Some(members), Some(id)) = (c.as_object(), f.and_then(|f| f.get("id")?.as_str())) else {
        report.error(Error::metadata(
            "/compressor",
            "must be null or an object with a string \"id\"",
        ));
        return None;
    };
    let config: Vec<(String, Json)> = members.iter().filter(|(k, _)| k != "id").cloned().collect();
    Some(obj(vec![
        ("name", Json::String(format!("numcodecs.{id}"))),
        ("configuration", Json::Object(config)),
    ]))
}

#[cfg(test)]
mod tests {
    use super::*;

    fn convert(text: &str) -> (Option<Json>, Report) {
        let mut r = Report::default();
        let d = v2_to_v3_report(&parse(text).unwrap(), &mut r);
        (d, r)
    }

    #[test]
    fn mri_like_document() {
        let (d, r) = convert(
            r#"{"shape":[256,256],"chunks":[64,64],"dtype":"<f4","fill_value":0.0,"order":"C",
            "filters":[{"id":"fixedscaleoffset","scale":100,"offset":0,"dtype":"<f4","astype":"<u2"}],
            "dimension_separator":".","compressor":{"id":"zlib","level":1},"zarr_format":2}"#,
        );
        assert!(r.errors.is_empty(), "{:?}", r.errors);
        assert_eq!(
            d.unwrap().to_json_string(),
            concat!(
                r#"{"zarr_format":3,"node_type":"array","shape":[256,256],"data_type":"float32","#,
                r#""chunk_grid":{"name":"regular","configuration":{"chunk_shape":[64,64]}},"#,
                r#""chunk_key_encoding":{"name":"v2","configuration":{"separator":"."}},"#,
                r#""fill_value":0.0,"codecs":[{"name":"numcodecs.fixedscaleoffset","configuration":"#,
                r#"{"offset":0,"scale":100,"dtype":"float32","astype":"uint16"}},"#,
                r#"{"name":"bytes","configuration":{"endian":"little"}},"#,
                r#"{"name":"numcodecs.zlib","configuration":{"level":1}}],"attributes":{}}"#
            )
        );
    }

    #[test]
    fn big_endian_nan_fill_no_filters() {
        let (d, r) = convert(
            r#"{"shape":[10],"chunks":[5],"dtype":">f8","fill_value":"NaN","order":"F",
            "filters":null,"compressor":null,"zarr_format":2,"dimension_separator":"/"}"#,
        );
        assert!(r.errors.is_empty(), "{:?}", r.errors);
        let d = d.unwrap();
        assert_eq!(d.get("fill_value").unwrap().as_str(), Some("NaN"));
        assert_eq!(
            d.get("codecs").unwrap().to_json_string(),
            r#"[{"name":"bytes","configuration":{"endian":"big"}}]"#
        );
        assert_eq!(
            d.get("chunk_key_encoding").unwrap().to_json_string(),
            r#"{"name":"v2","configuration":{"separator":"/"}}"#
        );
        // The stored byte order is the filter astype's.
        let (d, r) = convert(
            r#"{"shape":[4],"chunks":[4],"dtype":"<f8","fill_value":null,"order":"C",
            "filters":[{"id":"fixedscaleoffset","scale":10,"offset":0,"dtype":"<f8","astype":">i4"}],
            "compressor":null,"zarr_format":2}"#,
        );
        assert!(r.errors.is_empty(), "{:?}", r.errors);
        assert_eq!(r.warnings[0].path, "/fill_value");
        let d = d.unwrap();
        assert_eq!(d.get("fill_value").unwrap().to_json_string(), "0.0");
        assert_eq!(
            d.get("codecs").unwrap().as_array().unwrap()[1].to_json_string(),
            r#"{"name":"bytes","configuration":{"endian":"big"}}"#
        );
    }

    #[test]
    fn every_problem_with_its_pointer() {
        let (d, r) = convert(
            r#"{"shape":[4,-1],"chunks":[0],"dtype":"|x1","fill_value":0,"order":"F",
            "filters":[{"id":"nosuch","dtype":"<f8"},{"id":"fixedscaleoffset","scale":"10","offset":0,"dtype":"<f8"}],
            "compressor":7,"zarr_format":3,"dimension_separator":"-"}"#,
        );
        assert!(d.is_none());
        let got: Vec<(&str, &str)> = r.errors.iter().map(|e| (e.path.as_str(), e.code)).collect();
        assert_eq!(
            got,
            [
                ("/zarr_format", "invalid_metadata"),
                ("/shape/1", "invalid_metadata"),
                ("/chunks/0", "invalid_metadata"),
                ("/dtype", "unsupported_data_type"),
                ("/dimension_separator", "invalid_metadata"),
                ("/filters/0", "unsupported_codec"),
                ("/filters/1/scale", "invalid_metadata"),
                ("/compressor", "invalid_metadata"),
            ]
        );
        // Fortran order is valid Zarr v2 that this crate cannot run.
        let unsupported: Vec<&str> = r.unsupported.iter().map(|d| d.path.as_str()).collect();
        assert_eq!(unsupported, ["/order"]);
    }

    #[test]
    fn byte_order_mismatch_and_type_mismatch() {
        let (d, r) = convert(
            r#"{"shape":[4],"chunks":[4],"dtype":">f8","fill_value":0,"order":"C",
            "filters":[{"id":"fixedscaleoffset","scale":10,"offset":0,"dtype":"<f8","astype":"<i4"}],
            "compressor":null,"zarr_format":2}"#,
        );
        assert!(d.is_none());
        assert_eq!(r.errors[0].path, "/filters/0/dtype");
        let (d, r) = convert(
            r#"{"shape":[4],"chunks":[4],"dtype":"<f4","fill_value":0,"order":"C",
            "filters":[{"id":"fixedscaleoffset","scale":10,"offset":0,"dtype":"<f8"}],
            "compressor":null,"zarr_format":2}"#,
        );
        assert!(d.is_none());
        assert_eq!(r.errors[0].path, "/filters/0/dtype");
        // dtype is required in a v2 filter.
        let (d, r) = convert(
            r#"{"shape":[4],"chunks":[4],"dtype":"<f4","fill_value":0,"order":"C",
            "filters":[{"id":"fixedscaleoffset","scale":10,"offset":0}],
            "compressor":null,"zarr_format":2}"#,
        );
        assert!(d.is_none());
        assert_eq!(r.errors[0].path, "/filters/0");
        assert!(is_v2(&parse(r#"{"zarr_format":2}"#).unwrap()));
        assert!(v2_to_v3_text("[]").is_err());
    }

    #[test]
    fn pointers_of_the_translation_are_pointers_into_the_zarray() {
        let cases = [
            ("/codecs/0", "/filters/0"),
            ("/codecs/1/configuration/dtype", "/filters/1/dtype"),
            ("/codecs/2/configuration/endian", "/dtype"),
            ("/codecs/3", "/compressor"),
            ("/codecs/3/configuration/level", "/compressor/level"),
            ("/codecs/3/name", "/compressor"),
            ("/codecs", "/filters"),
            ("/data_type", "/dtype"),
            ("/chunk_grid/configuration/chunk_shape/0", "/chunks"),
            ("/fill_value", "/fill_value"),
            ("/filters/0/astype", "/filters/0/astype"),
            ("", ""),
        ];
        for (v3, v2) in cases {
            assert_eq!(v2_pointer(v3, 2, true), v2, "{v3}");
            assert_eq!(v2_pointer(v2, 2, true), v2, "{v2} stays");
        }
        // An object array: its filter is its array -> bytes codec, no `bytes` codec follows.
        for (v3, v2) in [
            ("/codecs/1", "/filters/1"),
            ("/codecs/2/configuration/level", "/compressor/level"),
        ] {
            assert_eq!(v2_pointer(v3, 2, false), v2, "{v3}");
        }
    }
}
