//! One reader for the JSON objects of metadata (a zarr.json or `.zarray` document, a codec
//! object, a configuration, a `scalar_map`, a data type object, CF attributes): the rules of
//! their shape are written here once. Opening an object reports, into a [`Report`], a value that
//! is not an object, every duplicated key (`invalid_metadata` at the duplicate's pointer: JSON
//! readers disagree on which copy counts) and, with [`Fields::open`], every key it does not take
//! (naming the ones it takes); [`Fields::required`] reports a missing key. Each problem is
//! reported and reading goes on, so the validator sees every problem and the strict API the
//! first. [`report_duplicates`] covers the objects no reader opens (`attributes`, skipped
//! codecs, extensions).

use super::{pointer_last, pointer_push, sort_indices, Json, Quoted};
use crate::report::Report;
use zarr_scale_offset_core::error::{Error, Result};

/// An object opened for reading: its members and its JSON pointer.
#[derive(Debug, Clone)]
pub struct Fields<'a> {
    members: &'a [(String, Json)],
    pointer: String,
}

impl<'a> Fields<'a> {
    /// Opens `value` at `pointer` as `what` (e.g. `"the bytes configuration"`), which takes the
    /// keys `allowed`. `None` (reported) when `value` is not an object; duplicated keys and keys
    /// not in `allowed` are reported and the object is still read.
    pub fn open(
        value: &'a Json,
        pointer: &str,
        what: &str,
        allowed: &[&str],
        report: &mut Report,
    ) -> Option<Self> {
        let f = Self::open_any(value, pointer, what, report)?;
        f.reject_unknown(what, allowed, report);
        Some(f)
    }

    /// Like [`Fields::open`] for an object whose other keys the caller handles (see
    /// [`Fields::unknown`] and [`Fields::reject_unknown`]) or ignores.
    pub fn open_any(
        value: &'a Json,
        pointer: &str,
        what: &str,
        report: &mut Report,
    ) -> Option<Self> {
        let Some(members) = value.as_object() else {
            report.error(Error::metadata(
                pointer,
                format!("{what} must be an object, found {}", value.kind_name()),
            ));
            return None;
        };
        let f = Fields {
            members,
            pointer: pointer.to_string(),
        };
        for k in value.duplicate_keys() {
            report.error(duplicate(&f.at(k)));
        }
        Some(f)
    }

    /// Reports every key not in `allowed`, naming the keys `what` takes.
    pub fn reject_unknown(&self, what: &str, allowed: &[&str], report: &mut Report) {
        for (k, _) in self.unknown(allowed) {
            report.error(Error::metadata(
                &self.at(k),
                format!(
                    "unknown key {}; {what} takes {}",
                    Quoted(k),
                    listed(allowed)
                ),
            ));
        }
    }

    /// The members whose key is not in `allowed`, in document order.
    pub fn unknown<'s>(
        &'s self,
        allowed: &'s [&str],
    ) -> impl Iterator<Item = (&'a str, &'a Json)> + 's {
        let members: &'a [(String, Json)] = self.members;
        members
            .iter()
            .filter(move |(k, _)| !allowed.contains(&k.as_str()))
            .map(|(k, v)| (k.as_str(), v))
    }

    /// The value of `key` (its first copy; a second one is already reported).
    pub fn get(&self, key: &str) -> Option<&'a Json> {
        let members: &'a [(String, Json)] = self.members;
        members.iter().find(|(k, _)| k == key).map(|(_, v)| v)
    }

    /// The value of `key`; reports `missing required key` at the object when it is absent.
    pub fn required(&self, key: &str, report: &mut Report) -> Option<&'a Json> {
        let v = self.get(key);
        if v.is_none() {
            report.error(Error::metadata(
                &self.pointer,
                format!("missing required key {}", Quoted(key)),
            ));
        }
        v
    }

    /// The JSON pointer of `key` in this object.
    pub fn at(&self, key: &str) -> String {
        pointer_push(&self.pointer, key)
    }
}

/// `"a"`, `"a" and "b"`, `"a", "b" and "c"`; `no keys` for none.
fn listed(keys: &[&str]) -> String {
    let mut out = String::new();
    for (i, k) in keys.iter().enumerate() {
        let sep = match i {
            0 => "",
            _ if i + 1 == keys.len() => " and ",
            _ => ", ",
        };
        out.push_str(&format!("{sep}{}", Quoted(k)));
    }
    if out.is_empty() {
        out.push_str("no keys");
    }
    out
}

/// `invalid_metadata` at `pointer`: "must be {what}, found {the value}" (one message shape for
/// every value of the wrong form: one formatting site in the module).
pub fn must_be(pointer: &str, what: &str, v: &Json) -> Error {
    Error::metadata(
        pointer,
        format!("must be {what}, found {}", v.to_json_string()),
    )
}

/// `invalid_metadata` for a duplicated key, at the pointer of the duplicate.
pub fn duplicate(pointer: &str) -> Error {
    Error::metadata(pointer, duplicate_message(&pointer_last(pointer)))
}

fn duplicate_message(key: &str) -> String {
    format!(
        "duplicate key {}: JSON readers disagree on which copy counts",
        Quoted(key)
    )
}

/// Reports every duplicated key anywhere in `doc` (pointers relative to it) that is not already
/// reported among the errors from index `since` on: the objects no reader opened.
pub fn report_duplicates(doc: &Json, since: usize, report: &mut Report) {
    let found = doc.duplicate_key_pointers();
    if found.is_empty() {
        return;
    }
    let mut known: Vec<&str> = Vec::new();
    for d in report.errors.get(since..).unwrap_or_default() {
        if d.message == duplicate_message(&pointer_last(&d.path)) {
            known.push(&d.path);
        }
    }
    // Sorted indices into `known`, so that a document with many duplicates stays O(n log n).
    let mut order: Vec<usize> = (0..known.len()).collect();
    sort_indices(&mut order, &|a, b| known.get(a).cmp(&known.get(b)));
    let mut new = Vec::new();
    for p in found {
        let at = |i: &usize| known.get(*i).copied().unwrap_or_default();
        if order.binary_search_by(|i| at(i).cmp(p.as_str())).is_err() {
            new.push(p);
        }
    }
    for p in new {
        report.error(duplicate(&p));
    }
}

/// `Err` at the first duplicated key anywhere in `doc` (for JSON text a strict API reads).
pub fn no_duplicates(doc: &Json) -> Result<()> {
    let mut report = Report::default();
    report_duplicates(doc, 0, &mut report);
    report.into_result(Some(()))
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::json::parse;

    fn errors(r: &Report) -> Vec<(&str, &str, &str)> {
        r.errors
            .iter()
            .map(|d| (d.path.as_str(), d.code, d.message.as_str()))
            .collect()
    }

    #[test]
    fn open_reports_kind_unknown_and_duplicate_keys_and_reads_on() {
        let mut r = Report::default();
        assert!(Fields::open(&Json::Null, "/c", "the x configuration", &[], &mut r).is_none());
        let v = parse(r#"{"b":1,"z":2,"a":3,"b":4,"y":5}"#).unwrap();
        let f = Fields::open(&v, "/c", "the x configuration", &["a", "b"], &mut r).unwrap();
        assert_eq!(f.get("b"), Some(&Json::Number("1".into())));
        assert_eq!(f.required("a", &mut r), Some(&Json::Number("3".into())));
        assert_eq!(f.required("c", &mut r), None);
        assert_eq!(f.at("a/b"), "/c/a~1b");
        let taken = "the x configuration takes \"a\" and \"b\"";
        assert_eq!(
            errors(&r),
            [
                (
                    "/c",
                    "invalid_metadata",
                    "the x configuration must be an object, found null"
                ),
                ("/c/b", "invalid_metadata", &*duplicate_message("b")),
                (
                    "/c/z",
                    "invalid_metadata",
                    &*format!("unknown key \"z\"; {taken}")
                ),
                (
                    "/c/y",
                    "invalid_metadata",
                    &*format!("unknown key \"y\"; {taken}")
                ),
                ("/c", "invalid_metadata", "missing required key \"c\""),
            ]
        );
        assert_eq!(listed(&[]), "no keys");
        assert_eq!(listed(&["a", "b", "c"]), "\"a\", \"b\" and \"c\"");
    }

    #[test]
    fn report_duplicates_skips_those_already_reported() {
        let v = parse(r#"{"a":{"k":1,"k":2},"b":[{"k":1,"k":2}],"a":0}"#).unwrap();
        let mut r = Report::default();
        r.error(duplicate("/a/k")); // as a reader would have
        r.error(Error::metadata("/b/0/k", "something else"));
        report_duplicates(&v, 0, &mut r);
        let got: Vec<&str> = r.errors.iter().map(|d| d.path.as_str()).collect();
        assert_eq!(got, ["/a/k", "/b/0/k", "/a", "/b/0/k"]);
        // Errors before `since` do not count.
        let mut r = Report::default();
        r.error(duplicate("/a/k"));
        report_duplicates(&v, 1, &mut r);
        assert_eq!(r.error_count(), 4);
        assert_eq!(no_duplicates(&v).unwrap_err().path.as_deref(), Some("/a"));
        assert!(no_duplicates(&parse(r#"{"a":[{"b":1}]}"#).unwrap()).is_ok());
    }
}
