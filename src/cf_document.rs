//! `cf_select`: values of a metadata document as their JSON text **as stored**, for JS's
//! `openCF` (js/cf.js). xarray's float type depends on whether `scale_factor` was written `2.0`
//! or `2`, which JSON.parse cannot tell; this parser keeps every number's text, so `openCF` hands
//! it the raw text of the documents (the array's zarr.json, .zarray, .zattrs, or the consolidated
//! v3 root zarr.json / v2 .zmetadata) and reads back, for each JSON pointer it asks for, that
//! value's JSON text, which it passes on to `fromCF` unchanged. No JSON is scanned or re-serialised
//! on the JS side, and a string stays a string whatever it holds.
//!
//! Memory: the members no CF rule reads (attributes other than CF's, chunk grids, compressors,
//! ...) are skip-parsed ([`crate::json::parse_ignoring`]): checked, not built. What is built
//! counts against [`crate::json::MAX_VALUES`]; for a consolidated document that is every
//! listed array's document (their other attributes included).
//!
//! Kept small on purpose: it is part of the WebAssembly module every zarrita user downloads.

use crate::json::fields::no_duplicates;
use crate::json::{parse_ignoring, Json, Member};
use zarr_scale_offset_core::error::Result;

/// The attributes xarray's CF decoding reads.
const CF_KEYS: [&str; 5] = [
    "scale_factor",
    "add_offset",
    "_FillValue",
    "missing_value",
    "_Unsigned",
];

/// What a CF reading of a zarr.json, .zarray, .zattrs, v3 root zarr.json with
/// `consolidated_metadata` or v2 .zmetadata never reads: attributes other than CF's and
/// top-level members other than those holding attributes, codecs (the transpose order), the shape
/// (F order), consolidated metadata and CF attributes (.zattrs).
fn skips(m: &Member) -> bool {
    match (m.depth, m.parent) {
        (1, _) => {
            !CF_KEYS.contains(&m.key)
                && !matches!(
                    m.key,
                    "attributes" | "codecs" | "shape" | "consolidated_metadata" | "metadata"
                )
        }
        (2, Some("attributes")) => !CF_KEYS.contains(&m.key),
        (2, Some("consolidated_metadata")) => m.key != "metadata",
        _ => false,
    }
}

/// The value at each of `pointers` (RFC 6901 JSON pointers through object members, one a line,
/// e.g. `/consolidated_metadata/metadata/t2m/attributes/scale_factor`) in the JSON document
/// `text`, as its JSON text with numbers as written, or `Json::Null` where there is none. A
/// duplicated key anywhere in the document is `invalid_metadata` (JSON readers disagree on which
/// copy counts). See [`crate::cf_select`] for an example.
pub fn cf_select(text: &str, pointers: &str) -> Result<Vec<Json>> {
    let doc = parse_ignoring(text, skips)?;
    no_duplicates(&doc)?;
    // One pass over the characters (no string patterns: they would add ~5 KB to the module).
    let mut out = Vec::new();
    let mut at = Some(&doc);
    let mut token: Option<String> = None; // the reference token being read
    let mut chars = pointers.chars().chain(std::iter::once('\n')).peekable();
    while let Some(c) = chars.next() {
        match c {
            '/' | '\n' => {
                if let Some(t) = token.take() {
                    at = at.and_then(|v| v.get(&t));
                }
                if c == '\n' {
                    out.push(at.map_or(Json::Null, |v| Json::String(v.to_json_string())));
                    at = Some(&doc);
                } else {
                    token = Some(String::new());
                }
            }
            '~' if matches!(chars.peek(), Some('0' | '1')) => {
                let one = chars.next() == Some('1');
                token
                    .get_or_insert_with(String::new)
                    .push(if one { '/' } else { '~' });
            }
            c => token.get_or_insert_with(String::new).push(c),
        }
    }
    Ok(out)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn sel(doc: &str, p: &[&str]) -> Vec<Json> {
        cf_select(doc, &p.join("\n")).unwrap()
    }
    fn s(t: &str) -> Json {
        Json::String(t.into())
    }

    #[test]
    fn values_keep_their_text_and_strings_stay_strings() {
        let doc = r#"{"attributes":{"scale_factor":2.0,"add_offset":1E+3,"_FillValue":"\u0000zso-number:2,\"add_offset\":1000","units":{"a":[1,2]}}}"#;
        assert_eq!(
            sel(
                doc,
                &[
                    "/attributes/scale_factor",
                    "/attributes/add_offset",
                    "/attributes/_FillValue",
                    "/attributes/units",
                    "/nothing",
                    ""
                ]
            ),
            [
                s("2.0"),
                s("1E+3"),
                s(r#""\u0000zso-number:2,\"add_offset\":1000""#),
                // skipped: not a CF attribute
                s("{}"),
                Json::Null,
                s(
                    r#"{"attributes":{"scale_factor":2.0,"add_offset":1E+3,"_FillValue":"\u0000zso-number:2,\"add_offset\":1000","units":{}}}"#
                ),
            ]
        );
    }

    #[test]
    fn consolidated_paths_and_escaped_tokens() {
        let v3 = r#"{"zarr_format":3,"node_type":"group","consolidated_metadata":{"kind":"inline","metadata":{"g/x":{"node_type":"array","attributes":{"scale_factor":2.0}}}}}"#;
        assert_eq!(
            sel(
                v3,
                &["/consolidated_metadata/metadata/g~1x/attributes/scale_factor"]
            ),
            [s("2.0")]
        );
        let v2 = r#"{"metadata":{"x/.zarray":{"fill_value":-32767,"order":"F","shape":[2,3]},"x/.zattrs":{"scale_factor":0.5}},"zarr_consolidated_format":1}"#;
        assert_eq!(
            sel(
                v2,
                &[
                    "/metadata/x~1.zarray/fill_value",
                    "/metadata/x~1.zattrs/scale_factor",
                    "/metadata/x~1.zarray/shape"
                ]
            ),
            [s("-32767"), s("0.5"), s("[2,3]")]
        );
    }

    #[test]
    fn duplicates_are_errors() {
        let dup = r#"{"consolidated_metadata":{"metadata":{"x":{},"x":{}}}}"#;
        assert!(cf_select(dup, "/consolidated_metadata/metadata/x").is_err());
        assert!(cf_select(r#"{"attributes":{"units":{"a":1,"a":2}}}"#, "").is_err());
        assert_eq!(
            sel(r#"{"metadata":{"a~/b":{"c":1}}}"#, &["/metadata/a~0~1b/c"]),
            [s("1")]
        );
    }
}
