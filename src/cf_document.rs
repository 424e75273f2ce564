//! `from_cf_document`: the CF attributes of one array read from its metadata documents **as
//! stored** (the number texts kept: xarray's float type depends on whether `scale_factor` was
//! written `2.0` or `2`), then [`crate::cf::from_cf`]. It is what JS's `openCF` hands the raw text
//! of the documents to, so that no JSON is re-serialised or scanned on the JS side.
//!
//! The documents, as `xarray.open_zarr` (xarray 2026.9, zarr-python 3.4.2) reads them:
//! - the array's own: a v3 `zarr.json`, or a v2 `.zarray` with its `.zattrs`;
//! - a consolidated one, holding the array under its path (`"t2m"`, `"group/t2m"`): the v3 root
//!   `zarr.json` (`consolidated_metadata.metadata[path]`), or the v2 `.zmetadata`
//!   (`metadata["path/.zarray"]`, `metadata["path/.zattrs"]`).
//!
//! xarray's rules: Zarr v3 keeps `_FillValue` as an attribute, base64 of the little-endian
//! float64 for float data (`FillValueCoder`), `int(value)` for integer data, and the array's
//! `fill_value` is no missing value; Zarr v2 uses the array's `fill_value` as `_FillValue`
//! (`use_zarr_fill_value_as_mask`, on by default for v2). A `null` attribute is Python's `None`:
//! passed over. Strings stay strings, whatever they hold.
//!
//! Memory: the members no rule reads (other attributes, chunk grids, compressors, other
//! documents' top-level members) are skip-parsed ([`crate::json::parse_ignoring`]): checked, not
//! built. What is built counts against [`crate::json::MAX_VALUES`]; for a consolidated document
//! that is every array's document (their non-CF attributes included).

use crate::cf::from_cf;
use crate::dtype::DataType;
use crate::error::{Error, Result};
use crate::json::fields::no_duplicates;
use crate::json::{parse_ignoring, Json, Member};

/// The attributes `from_cf` reads.
const CF_KEYS: [&str; 5] = [
    "scale_factor",
    "add_offset",
    "_FillValue",
    "missing_value",
    "_Unsigned",
];

/// Skip policy of an array's own zarr.json or .zarray: the attributes other than CF's, and what
/// is neither attributes nor codecs (the transpose order) nor shape (a .zarray's F order).
fn own_skips(m: &Member) -> bool {
    match (m.depth, m.parent) {
        (1, _) => !matches!(m.key, "attributes" | "codecs" | "shape"),
        (2, Some("attributes")) => !CF_KEYS.contains(&m.key),
        _ => false,
    }
}

/// Skip policy of a `.zattrs`: the attributes other than CF's.
fn zattrs_skips(m: &Member) -> bool {
    m.depth == 1 && !CF_KEYS.contains(&m.key)
}

/// Skip policy of a v3 root zarr.json with consolidated metadata.
fn v3_consolidated_skips(m: &Member) -> bool {
    match (m.depth, m.parent) {
        (1, _) => m.key != "consolidated_metadata",
        (2, Some("consolidated_metadata")) => m.key != "metadata",
        _ => false,
    }
}

/// Skip policy of a v2 `.zmetadata`: all but `metadata`, and the groups' documents in it.
fn zmetadata_skips(m: &Member) -> bool {
    match (m.depth, m.parent) {
        (1, _) => m.key != "metadata",
        (2, Some("metadata")) => m.key == ".zgroup" || m.key.ends_with("/.zgroup"),
        _ => false,
    }
}

/// The one member `key` of `obj` (`None` when absent or `obj` is no object); a duplicated
/// `key` is `invalid_metadata` (JSON readers disagree on which copy counts).
fn member<'a>(obj: &'a Json, key: &str, pointer: &str) -> Result<Option<&'a Json>> {
    let Some(members) = obj.as_object() else {
        return Ok(None);
    };
    let mut found = members.iter().filter(|(k, _)| k == key).map(|(_, v)| v);
    let first = found.next();
    if found.next().is_some() {
        return Err(Error::metadata(
            &crate::json::pointer_push(pointer, key),
            "duplicate key (JSON readers disagree on which copy counts)",
        ));
    }
    Ok(first)
}

/// An array's documents as read: format, attributes, fill value, transpose order.
struct ArrayDocs<'a> {
    format: u8,
    attrs: Option<&'a Json>,
    fill: Option<&'a Json>,
    order: Option<Json>,
}

/// The transpose order of a v3 codecs list (inside `sharding_indexed` when there is one), as
/// zarrita applies it.
fn transpose_order(codecs: Option<&Json>) -> Option<Json> {
    let list = codecs?.as_array()?;
    let list = match list
        .iter()
        .find(|c| c.get("name").and_then(Json::as_str) == Some("sharding_indexed"))
    {
        Some(shard) => shard.get("configuration")?.get("codecs")?.as_array()?,
        None => list,
    };
    let t = list
        .iter()
        .find(|c| c.get("name").and_then(Json::as_str) == Some("transpose"))?;
    let order = t.get("configuration")?.get("order")?;
    order.as_array().map(|_| order.clone())
}

fn v3_docs(node: &Json) -> Result<Option<ArrayDocs<'_>>> {
    if node.get("node_type").and_then(Json::as_str) != Some("array") {
        return Ok(None);
    }
    no_duplicates(node)?;
    Ok(Some(ArrayDocs {
        format: 3,
        attrs: node.get("attributes"),
        fill: node.get("fill_value"),
        order: transpose_order(node.get("codecs")),
    }))
}

fn v2_docs<'a>(zarray: &'a Json, zattrs: Option<&'a Json>) -> Result<Option<ArrayDocs<'a>>> {
    if zarray.as_object().is_none() {
        return Ok(None);
    }
    no_duplicates(zarray)?;
    if let Some(a) = zattrs {
        no_duplicates(a)?;
    }
    let order = match (
        zarray.get("order").and_then(Json::as_str),
        zarray.get("shape"),
    ) {
        (Some("F"), Some(Json::Array(shape))) => Some(Json::Array(
            (0..shape.len())
                .rev()
                .map(|i| Json::Number(i.to_string()))
                .collect(),
        )),
        _ => None,
    };
    Ok(Some(ArrayDocs {
        format: 2,
        attrs: zattrs,
        fill: zarray.get("fill_value"),
        order,
    }))
}

/// Standard base64 (RFC 4648, padded) to bytes; `None` when `s` is not that.
fn base64(s: &str) -> Option<Vec<u8>> {
    let b = s.as_bytes();
    let pad = b.iter().rev().take_while(|&&c| c == b'=').count();
    if b.is_empty() || b.len() % 4 != 0 || pad > 2 {
        return None;
    }
    let mut out = Vec::with_capacity(b.len() / 4 * 3);
    let mut n = 0u32;
    for (i, &c) in b.iter().enumerate() {
        let v = match c {
            b'A'..=b'Z' => c - b'A',
            b'a'..=b'z' => c - b'a' + 26,
            b'0'..=b'9' => c - b'0' + 52,
            b'+' => 62,
            b'/' => 63,
            b'=' if i + pad >= b.len() => 0,
            _ => return None,
        };
        n = (n << 6) | u32::from(v);
        if i % 4 == 3 {
            out.extend_from_slice(n.to_be_bytes().get(1..).unwrap_or(&[]));
            n = 0;
        }
    }
    out.truncate(out.len().saturating_sub(pad));
    Some(out)
}

/// xarray's `FillValueCoder.decode` of a v3 `_FillValue` attribute: base64 of a little-endian
/// float64 for float data (NaN and ±Infinity as Zarr's strings), `int(value)` for integer data
/// (a fraction cut toward zero). Anything else is left to `from_cf`.
fn v3_fill_value(v: &Json, packed: DataType) -> Json {
    if packed.float().is_some() {
        if let Some(bytes) = v.as_str().and_then(base64) {
            if let Ok(b) = <[u8; 8]>::try_from(bytes.as_slice()) {
                let x = f64::from_le_bytes(b);
                return if x.is_nan() {
                    Json::String("NaN".into())
                } else if x.is_infinite() {
                    Json::String(if x > 0.0 { "Infinity" } else { "-Infinity" }.into())
                } else {
                    // Debug writes the shortest text that reads back as `x` ("1e-7", "3.0").
                    Json::Number(format!("{x:?}"))
                };
            }
        }
        return v.clone();
    }
    if let Some(t) = v.as_number() {
        let integral = t.bytes().all(|c| c.is_ascii_digit() || c == b'-');
        if let (false, Ok(x)) = (integral, t.parse::<f64>()) {
            if x.is_finite() {
                let x = x.trunc();
                // {:.0} is the exact integer value of the double; -0 is 0.
                return Json::Number(if x == 0.0 {
                    "0".into()
                } else {
                    format!("{x:.0}")
                });
            }
        }
    }
    v.clone()
}

/// Where [`from_cf_document`] reads an array's metadata.
#[derive(Debug, Clone, Copy)]
pub enum Documents<'a> {
    /// The array's own document: a v3 `zarr.json`, or a v2 `.zarray` (by its `zarr_format`) with
    /// the text of its `.zattrs` (`None`: there is none).
    Own {
        /// zarr.json or .zarray text.
        document: &'a str,
        /// .zattrs text (v2).
        zattrs: Option<&'a str>,
    },
    /// A consolidated document (a v3 root `zarr.json` with `consolidated_metadata`, or a v2
    /// `.zmetadata`) and the array's path in it, without leading `/` (`"t2m"`).
    Consolidated {
        /// The document's text.
        document: &'a str,
        /// The array's path.
        path: &'a str,
    },
}

/// Reads the CF attributes of one array from its metadata documents as stored and applies
/// xarray's rules (module docs). `use_fill_as_mask` is xarray's `use_zarr_fill_value_as_mask`
/// (`None`: on for v2, off for v3). Returns `None` when the documents hold no such array (not an
/// array document, or the path not listed), else `{"zarr_format", "attributes" (what was handed
/// to from_cf), "order" (the transpose order, or null), "cf" (from_cf's result, or null when no
/// CF attribute applies)}`.
///
/// ```
/// use zarr_scale_offset::cf_document::{from_cf_document, Documents};
/// use zarr_scale_offset::DataType;
/// let doc = r#"{"zarr_format":3,"node_type":"array","attributes":{"scale_factor":2.0,"units":"K"}}"#;
/// let out = from_cf_document(Documents::Own { document: doc, zattrs: None }, DataType::Int16, None)
///     .unwrap()
///     .unwrap();
/// assert_eq!(out.get("cf").unwrap().get("data_type").unwrap().as_str(), Some("float64"));
/// ```
pub fn from_cf_document(
    docs: Documents,
    packed: DataType,
    use_fill_as_mask: Option<bool>,
) -> Result<Option<Json>> {
    // Parsed trees, kept alive for the borrowed ArrayDocs.
    let (main, extra);
    let found = match docs {
        Documents::Own { document, zattrs } => {
            // One policy for both: a .zarray's compressor, filters and chunks are skipped too.
            main = parse_ignoring(document, own_skips)?;
            if main.get("zarr_format").and_then(Json::as_number) == Some("2") {
                extra = zattrs
                    .map(|t| parse_ignoring(t, zattrs_skips))
                    .transpose()?;
                v2_docs(&main, extra.as_ref())?
            } else {
                v3_docs(&main)?
            }
        }
        Documents::Consolidated { document, path } => {
            let probe = parse_ignoring(document, zmetadata_skips)?;
            if member(&probe, "metadata", "")?.is_some() {
                main = probe;
                let all = member(&main, "metadata", "")?;
                let at = |name: &str| {
                    let key = if path.is_empty() {
                        name.to_string()
                    } else {
                        format!("{path}/{name}")
                    };
                    all.map_or(Ok(None), |m| member(m, &key, "/metadata"))
                };
                match at(".zarray")? {
                    Some(zarray) => v2_docs(zarray, at(".zattrs")?)?,
                    None => None,
                }
            } else {
                main = parse_ignoring(document, v3_consolidated_skips)?;
                let node = match member(&main, "consolidated_metadata", "")? {
                    Some(c) => match member(c, "metadata", "/consolidated_metadata")? {
                        Some(m) => member(m, path, "/consolidated_metadata/metadata")?,
                        None => None,
                    },
                    None => None,
                };
                match node {
                    Some(n) => v3_docs(n)?,
                    None => None,
                }
            }
        }
    };
    let Some(a) = found else { return Ok(None) };
    let mask = use_fill_as_mask.unwrap_or(a.format == 2);
    let mut attrs: Vec<(String, Json)> = Vec::new();
    if let Some(Json::Object(members)) = a.attrs {
        for key in CF_KEYS {
            if let Some((_, v)) = members.iter().find(|(k, _)| k == key) {
                if !v.is_null() {
                    let v = if key == "_FillValue" && a.format == 3 && !mask {
                        v3_fill_value(v, packed)
                    } else {
                        v.clone()
                    };
                    attrs.push((key.to_string(), v));
                }
            }
        }
    }
    if let (true, Some(fill)) = (mask, a.fill.filter(|f| !f.is_null())) {
        match attrs.iter_mut().find(|(k, _)| k == "_FillValue") {
            Some((_, v)) => *v = fill.clone(),
            None => attrs.push(("_FillValue".into(), fill.clone())),
        }
    }
    let attrs = Json::Object(attrs);
    let cf = match attrs.as_object() {
        Some([]) | None => Json::Null,
        Some(_) => from_cf(&attrs, packed, None)?,
    };
    Ok(Some(Json::Object(vec![
        ("zarr_format".into(), Json::Number(a.format.to_string())),
        ("attributes".into(), attrs),
        ("order".into(), a.order.unwrap_or(Json::Null)),
        ("cf".into(), cf),
    ])))
}

#[cfg(test)]
mod tests {
    use super::*;

    fn own(doc: &str, zattrs: Option<&str>, packed: DataType) -> Json {
        from_cf_document(
            Documents::Own {
                document: doc,
                zattrs,
            },
            packed,
            None,
        )
        .unwrap()
        .unwrap()
    }

    #[test]
    fn base64_decodes_rfc4648() {
        assert_eq!(
            base64("AAAAAAAA+H8=").unwrap(),
            [0, 0, 0, 0, 0, 0, 0xf8, 0x7f]
        );
        assert_eq!(base64("Zg==").unwrap(), b"f");
        assert_eq!(base64("Zm8=").unwrap(), b"fo");
        assert_eq!(base64("Zm9v").unwrap(), b"foo");
        for bad in ["", "Zg=", "Z===", "Zg==Zg==", "Z!9v", "NaN"] {
            assert!(base64(bad).is_none(), "{bad}");
        }
    }

    #[test]
    fn a_string_is_never_a_number() {
        let doc = r#"{"zarr_format":3,"node_type":"array","attributes":{"scale_factor":"\u0000zso-number:2,\"add_offset\":1000"}}"#;
        let e = from_cf_document(
            Documents::Own {
                document: doc,
                zattrs: None,
            },
            DataType::Int16,
            None,
        )
        .unwrap_err();
        assert!(e.to_string().contains("scale_factor"), "{e}");
    }

    #[test]
    fn number_spelling_decides_the_float_type() {
        let f = own(
            r#"{"zarr_format":3,"node_type":"array","attributes":{"scale_factor":2.0}}"#,
            None,
            DataType::Int16,
        );
        assert_eq!(
            f.get("cf").unwrap().get("data_type").unwrap().as_str(),
            Some("float64")
        );
        let i = own(
            r#"{"zarr_format":3,"node_type":"array","attributes":{"scale_factor":2}}"#,
            None,
            DataType::Int16,
        );
        assert_eq!(
            i.get("cf").unwrap().get("data_type").unwrap().as_str(),
            Some("int64")
        );
    }

    #[test]
    fn v3_fill_value_attribute_follows_xarray() {
        // base64 of -9999.0 as a little-endian float64
        let b = {
            let x = (-9999.0f64).to_le_bytes();
            const A: &[u8] = b"ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/";
            let mut s = String::new();
            for c in x.chunks(3) {
                let n = c.iter().fold(0u32, |n, &b| n << 8 | b as u32) << (8 * (3 - c.len()));
                for k in 0..=c.len() {
                    s.push(A[(n >> (18 - 6 * k) & 63) as usize] as char);
                }
            }
            s + &"=".repeat((3 - x.len() % 3) % 3)
        };
        assert_eq!(
            v3_fill_value(&Json::String(b), DataType::Float32),
            Json::Number("-9999.0".into())
        );
        assert_eq!(
            v3_fill_value(&Json::Number("-3.7".into()), DataType::Int16),
            Json::Number("-3".into())
        );
        assert_eq!(
            v3_fill_value(&Json::Number("-0.5".into()), DataType::Int16),
            Json::Number("0".into())
        );
        assert_eq!(
            v3_fill_value(&Json::Number("7".into()), DataType::Int16),
            Json::Number("7".into())
        );
    }

    #[test]
    fn v2_uses_the_array_fill_value_and_consolidated_documents() {
        let zarray =
            r#"{"zarr_format":2,"shape":[2,3],"order":"F","fill_value":-32767,"dtype":"<i2"}"#;
        let o = own(
            zarray,
            Some(r#"{"scale_factor":0.5,"units":"K"}"#),
            DataType::Int16,
        );
        assert_eq!(o.get("order").unwrap().to_json_string(), "[1,0]");
        assert_eq!(
            o.get("attributes").unwrap().to_json_string(),
            r#"{"scale_factor":0.5,"_FillValue":-32767}"#
        );
        let zmeta = format!(
            r#"{{"metadata":{{".zgroup":{{"zarr_format":2}},"g/x/.zarray":{zarray},"g/x/.zattrs":{{"scale_factor":2.0}}}},"zarr_consolidated_format":1}}"#
        );
        let c = from_cf_document(
            Documents::Consolidated {
                document: &zmeta,
                path: "g/x",
            },
            DataType::Int16,
            None,
        )
        .unwrap()
        .unwrap();
        // masked and scaled: scale_factor's type (a Python float), as xarray
        assert_eq!(
            c.get("cf").unwrap().get("data_type").unwrap().as_str(),
            Some("float64")
        );
        let missing = from_cf_document(
            Documents::Consolidated {
                document: &zmeta,
                path: "y",
            },
            DataType::Int16,
            None,
        )
        .unwrap();
        assert!(missing.is_none());
        let v3 = r#"{"zarr_format":3,"node_type":"group","consolidated_metadata":{"kind":"inline","metadata":{"x":{"zarr_format":3,"node_type":"array","attributes":{"scale_factor":2.0,"big":"x"}}}}}"#;
        let c = from_cf_document(
            Documents::Consolidated {
                document: v3,
                path: "x",
            },
            DataType::Int16,
            None,
        )
        .unwrap()
        .unwrap();
        assert_eq!(
            c.get("cf").unwrap().get("data_type").unwrap().as_str(),
            Some("float64")
        );
        let dup = r#"{"zarr_format":3,"node_type":"group","consolidated_metadata":{"metadata":{"x":{},"x":{}}}}"#;
        assert!(from_cf_document(
            Documents::Consolidated {
                document: dup,
                path: "x",
            },
            DataType::Int16,
            None,
        )
        .is_err());
    }
}
