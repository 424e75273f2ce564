//! The arguments of the typed-array API and the validator: codecs given as JSON text or a bare
//! name, data types given as a name or JSON text, and which parser a `validate` input goes to.

use crate::chain::{bind_bytes, parse_entry, ArrayChain, Chain};
use crate::codec::{known_codec, lookup, Binder, CodecKind};
use crate::json::data_type::parse_data_type;
use crate::json::fields::report_duplicates;
use crate::json::{parse, pointer_index, Json, Quoted};
use crate::metadata::parse_any_array_meta;
use crate::report::Report;
use zarr_scale_offset_core::dtype::DataType;
use zarr_scale_offset_core::error::{Error, Result};

/// Parses a codecs argument of the typed-array API: one array->array codec (object or
/// short-hand name, as JSON text or a bare name) or a list of them.
pub fn parse_array_codecs(text: &str, dtype: DataType) -> Result<ArrayChain> {
    let doc = codecs_doc(text)?;
    let mut r = Report::default();
    let c = bind_array_codecs(&doc, Some(dtype), None, &mut r);
    report_duplicates(&doc, 0, &mut r);
    r.into_result(c)
}

/// The JSON of a codecs argument: JSON text, or a bare codec name.
pub(crate) fn codecs_doc(text: &str) -> Result<Json> {
    let t = text.trim_start();
    if t.starts_with(['[', '{', '"']) {
        parse(text)
    } else {
        Ok(Json::String(text.trim().to_string()))
    }
}

/// Binds one array->array codec or a list (pointers relative to the argument itself) to `dtype`
/// and `fill` (raw bits of a fill value of `dtype`, which flows forward through the codecs).
pub(crate) fn bind_array_codecs(
    doc: &Json,
    dtype: Option<DataType>,
    fill: Option<u64>,
    report: &mut Report,
) -> Option<ArrayChain> {
    let (items, single): (Vec<&Json>, bool) = match doc {
        Json::Array(a) => (a.iter().collect(), false),
        other => (vec![other], true),
    };
    let mut entries = Vec::with_capacity(items.len());
    for (i, item) in items.iter().enumerate() {
        let p = if single {
            String::new()
        } else {
            pointer_index("", i)
        };
        let Some(mut e) = parse_entry(item, &p, i, report) else {
            continue;
        };
        match known_codec(e.name) {
            Some((CodecKind::ArrayToArray, _)) | None => {
                if single {
                    e.index = usize::MAX;
                }
                entries.push(e)
            }
            Some((kind, _)) => report.error(Error::metadata(
                &p,
                format!(
                    "encode/decode take array->array codecs only; {} is {} (use encodeChunk/decodeChunk)",
                    Quoted(e.name),
                    kind.as_str()
                ),
            )),
        }
    }
    ArrayChain::bind(&entries, "", dtype, fill, report)
}

/// Parses a data type argument: a bare name or JSON text (a string or an object).
pub fn parse_data_type_arg(text: &str) -> Result<DataType> {
    let t = text.trim();
    if t.starts_with(['{', '"']) {
        parse_data_type(&parse(t)?, "")
    } else {
        DataType::parse(t, "")
    }
}

/// Validates metadata given as JSON text: a whole zarr.json array document, a codecs list, or a
/// single codec (object or short-hand name). `data_type` (a name or JSON text) is the data type a
/// codecs list or codec receives; without it only their shape is checked (and a warning says so).
/// Every problem is reported; lenient forms accepted on read are warnings.
pub fn validate(text: &str, data_type: Option<&str>) -> Report {
    let mut r = Report::default();
    let doc = match crate::metadata::parse_document(text) {
        Ok(d) => d,
        Err(e) => {
            r.error(e);
            return r;
        }
    };
    let dtype = match data_type {
        Some(t) => r.check(parse_data_type_arg(t)),
        None => None,
    };
    // Pointers from here on are into `doc` (the data type's, above, are into the data type).
    let since = r.error_count();
    let is_codec = match &doc {
        Json::Array(_) | Json::String(_) => true,
        Json::Object(_) => {
            doc.get("name").is_some()
                && doc.get("zarr_format").is_none()
                && doc.get("codecs").is_none()
        }
        _ => false,
    };
    if !is_codec {
        parse_any_array_meta(&doc, &mut r);
        return r;
    }
    if data_type.is_none() {
        r.warn(
            "",
            "no_data_type",
            "no data type given: scalars and the fill value were not checked",
        );
    }
    let has_bytes = match &doc {
        Json::Array(items) => items.iter().any(|i| {
            let name = match i {
                Json::String(s) => Some(s.as_str()),
                other => other.get("name").and_then(Json::as_str),
            };
            name.and_then(known_codec)
                .is_some_and(|k| k.0 != CodecKind::ArrayToArray)
        }),
        _ => false,
    };
    if has_bytes {
        Chain::bind(&doc, "", dtype, None, &mut r);
    } else if let Json::Object(_) | Json::String(_) = doc {
        let name = match &doc {
            Json::String(s) => Some(s.as_str()),
            other => other.get("name").and_then(Json::as_str),
        };
        // An implemented array->bytes codec, or a known codec that is not array->array, alone
        // is checked as itself.
        let bytes = name.and_then(lookup).is_some_and(|d| match d.binder {
            Binder::Bytes(_) | Binder::Sharding => true,
            Binder::Known(_) => d.kind != CodecKind::ArrayToArray,
            Binder::Array(_) => false,
        });
        if bytes {
            if let Some(e) = parse_entry(&doc, "", 0, &mut r) {
                bind_bytes(&e, "", dtype, &mut r);
            }
        } else {
            bind_array_codecs(&doc, dtype, None, &mut r);
        }
    } else {
        bind_array_codecs(&doc, dtype, None, &mut r);
    }
    report_duplicates(&doc, since, &mut r);
    r
}
