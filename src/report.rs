//! The validator's findings: [`Report`] (every error, warning and unsupported entry of a piece of
//! metadata, each with its JSON pointer), [`Diag`] (one entry) and [`Warning`] (a lenient form
//! accepted on read). The parsers of this crate report into a `Report` and go on, so one pass
//! finds every independent problem; the strict API turns the first error into `Err`.

use zarr_scale_offset_core::error::{show_pointer, Error, ErrorCode, Result};

/// A lenient form that was accepted on read (e.g. `"+Infinity"`, `1000.0` for an integer type),
/// at a JSON pointer, with the strict spelling to write instead (see [`crate::metadata_warnings`]
/// for an example). Serialises (in the wasm build) as
/// `{pointer, message}`, the shape of the JS `metadataWarnings` entries.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Warning {
    /// JSON pointer of the value.
    pub pointer: String,
    /// What was accepted and what to write.
    pub message: String,
}

/// One finding of the validator: a JSON pointer (RFC 6901; "" is the whole document), a stable
/// code and a message. Serialises (in the wasm build) as `{path, code, message}`, the shape of the
/// JS `validate` entries. (See [`Report`] for an example.)
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Diag {
    /// JSON pointer of the field.
    pub path: String,
    /// Stable code: an [`ErrorCode`] string for errors, `"lenient_form"` (etc.) for warnings.
    pub code: &'static str,
    /// What is wrong (without the pointer).
    pub message: String,
}

#[doc(hidden)]
/// The most errors, and separately warnings, that a [`Report`] lists: past it one more entry
/// (path `""`) says that more were found, and the rest are only counted, so that a report's
/// memory stays bounded whatever the document.
pub const MAX_LISTED: usize = 1000;

/// Every error and warning found in a piece of metadata. Parsers report into it and go on, so
/// one pass finds every independent problem; the strict API turns the first error into `Err`.
/// At most `MAX_LISTED` (1,000) of each are listed. Made by [`crate::validate`].
///
/// ```
/// let r = zarr_scale_offset::validate(
///     r#"[{"name": "cast_value", "configuration": {"data_type": "uint8", "rounding": "up"}}]"#,
///     Some("float32"),
/// );
/// assert!(!r.is_ok() && !r.is_decodable());
/// assert_eq!(r.errors[0].path, "/0/configuration/rounding");
/// assert_eq!(r.errors[0].code, "invalid_metadata");
/// assert!(r.warnings.is_empty() && r.unsupported.is_empty());
/// ```
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct Report {
    /// Problems that make the metadata invalid.
    pub errors: Vec<Diag>,
    /// Lenient forms accepted on read and other things worth saying.
    pub warnings: Vec<Diag>,
    /// What is valid but this package cannot run: a codec or data type that a spec or a known
    /// extension defines and this crate does not implement (`unsupported_codec`,
    /// `unsupported_data_type`). Not an error of the metadata; the strict API still fails on it.
    pub unsupported: Vec<Diag>,
    first: Option<Error>,
    /// Errors found past the listed ones.
    unlisted: usize,
    /// Unsupported entries found past the listed ones.
    unlisted_unsupported: usize,
}

/// Pushes `d` onto `list` while it holds fewer than [`MAX_LISTED`]; then, once, an entry that
/// says more were found (`Err` from then on: not listed).
fn list(
    list: &mut Vec<Diag>,
    d: Diag,
    what: &str,
    code: &'static str,
) -> core::result::Result<(), ()> {
    match list.len() {
        n if n < MAX_LISTED => list.push(d),
        MAX_LISTED => {
            list.push(Diag {
                path: String::new(),
                code,
                message: format!("more {what} were found than the {MAX_LISTED} listed"),
            });
            return Err(());
        }
        _ => return Err(()),
    }
    Ok(())
}

impl Report {
    /// Records an error.
    #[doc(hidden)]
    pub fn error(&mut self, e: Error) {
        self.record(e, false);
    }
    /// Records something valid that this crate cannot run (see [`Report::unsupported`]).
    #[doc(hidden)]
    pub fn unsupported(&mut self, e: Error) {
        self.record(e, true);
    }
    fn record(&mut self, e: Error, unsupported: bool) {
        let d = Diag {
            path: e.path.clone().unwrap_or_default(),
            code: e.code.as_str(),
            message: e.detail().to_string(),
        };
        let (to, what, unlisted) = match unsupported {
            true => (
                &mut self.unsupported,
                "unsupported entries",
                &mut self.unlisted_unsupported,
            ),
            false => (&mut self.errors, "errors", &mut self.unlisted),
        };
        if list(to, d, what, e.code.as_str()).is_err() {
            *unlisted += 1;
        }
        if self.first.is_none() {
            self.first = Some(e);
        }
    }
    /// Records a warning.
    #[doc(hidden)]
    pub fn warn(&mut self, path: &str, code: &'static str, message: impl Into<String>) {
        let d = Diag {
            path: path.to_string(),
            code,
            message: message.into(),
        };
        // Warnings past the listed ones are not counted: nothing depends on their number.
        let _ = list(&mut self.warnings, d, "warnings", code);
    }
    /// `Some(v)` for `Ok(v)`; records the error of `Err` and gives `None`.
    #[doc(hidden)]
    pub fn check<T>(&mut self, r: Result<T>) -> Option<T> {
        match r {
            Ok(v) => Some(v),
            Err(e) => {
                self.error(e);
                None
            }
        }
    }
    /// Whether no error was recorded: the metadata is valid.
    pub fn is_ok(&self) -> bool {
        self.errors.is_empty()
    }
    /// Valid, and nothing in it is unsupported: this crate can decode it.
    pub fn is_decodable(&self) -> bool {
        self.errors.is_empty() && self.unsupported.is_empty()
    }
    /// Errors and unsupported entries so far (to tell whether a step added either).
    #[doc(hidden)]
    pub fn blocked_count(&self) -> usize {
        // As in `error_count`, a "more were found" entry stands for one unlisted entry.
        self.error_count() + self.unsupported.len() + self.unlisted_unsupported.saturating_sub(1)
    }
    /// The number of errors so far (to tell whether a step added any).
    #[doc(hidden)]
    pub fn error_count(&self) -> usize {
        // The "more were found" entry stands for one of the unlisted errors.
        self.errors.len() + self.unlisted.saturating_sub(1)
    }
    /// `Ok(v)` when there is no error, nothing unsupported and `v` is `Some`; else the first
    /// error or unsupported entry, whichever was recorded first.
    #[doc(hidden)]
    pub fn into_result<T>(self, v: Option<T>) -> Result<T> {
        match (self.first, v) {
            (None, Some(v)) => Ok(v),
            (Some(e), _) => Err(e),
            (None, None) => Err(Error::new(ErrorCode::InvalidMetadata, "invalid metadata")),
        }
    }
    /// Rewrites every JSON pointer with `f` (which must leave a rewritten pointer as it is):
    /// the pointers of the Zarr v3 translation of a v2 document become pointers into the v2
    /// document.
    #[doc(hidden)]
    pub fn remap_paths(&mut self, f: impl Fn(&str) -> String) {
        let all = self
            .errors
            .iter_mut()
            .chain(&mut self.warnings)
            .chain(&mut self.unsupported);
        for d in all {
            d.path = f(&d.path);
        }
        if let Some(e) = &mut self.first {
            if let Some(p) = &e.path {
                let new = f(p);
                if &new != p {
                    e.message = format!("{}: {}", show_pointer(&new), e.detail());
                    e.path = Some(new);
                }
            }
        }
    }
    /// The warnings as [`Warning`]s.
    #[doc(hidden)]
    pub fn lenient(&self) -> Vec<Warning> {
        self.warnings
            .iter()
            .map(|d| Warning {
                pointer: d.path.clone(),
                message: d.message.clone(),
            })
            .collect()
    }
}

// Serialised as maps with string keys, not derived as structs: serde-wasm-bindgen interns struct
// field names in a HashMap, whose code cost ~1 KB gzip in what a browser downloads (measured
// against the same impls as maps); a serializer that writes maps as plain objects
// (`serde_wasm_bindgen::Serializer::json_compatible()`) gives the same JS objects.

/// `{pointer, message}`.
#[cfg(target_family = "wasm")]
impl serde::Serialize for Warning {
    fn serialize<S: serde::Serializer>(&self, s: S) -> std::result::Result<S::Ok, S::Error> {
        use serde::ser::SerializeMap;
        let mut m = s.serialize_map(Some(2))?;
        m.serialize_entry("pointer", &self.pointer)?;
        m.serialize_entry("message", &self.message)?;
        m.end()
    }
}

/// `{path, code, message}`.
#[cfg(target_family = "wasm")]
impl serde::Serialize for Diag {
    fn serialize<S: serde::Serializer>(&self, s: S) -> std::result::Result<S::Ok, S::Error> {
        use serde::ser::SerializeMap;
        let mut m = s.serialize_map(Some(3))?;
        m.serialize_entry("path", &self.path)?;
        m.serialize_entry("code", self.code)?;
        m.serialize_entry("message", &self.message)?;
        m.end()
    }
}

#[cfg(test)]
mod report_tests {
    use super::*;

    #[test]
    fn a_report_lists_at_most_max_listed_and_counts_every_error() {
        let mut r = Report::default();
        for i in 0..2500 {
            assert_eq!(r.error_count(), i);
            r.error(Error::new(ErrorCode::InvalidMetadata, format!("e{i}")));
            r.warn("/w", "lenient_form", format!("w{i}"));
        }
        assert_eq!(r.error_count(), 2500);
        assert_eq!(r.errors.len(), MAX_LISTED + 1);
        assert_eq!(r.warnings.len(), MAX_LISTED + 1);
        assert_eq!(r.errors[MAX_LISTED - 1].message, "e999");
        let more = &r.errors[MAX_LISTED];
        assert_eq!((more.path.as_str(), more.code), ("", "invalid_metadata"));
        assert_eq!(more.message, "more errors were found than the 1000 listed");
        assert_eq!(
            r.warnings[MAX_LISTED].message,
            "more warnings were found than the 1000 listed"
        );
        assert_eq!(r.into_result(Some(())).unwrap_err().message, "e0");
    }
}
