//! A data type as metadata gives it: a name (`"float32"`) or an object `{"name": "float32"}`
//! (with, at most, an empty `"configuration"`: none of the 26 numeric types takes one).

use super::fields::must_be;
use super::{Fields, Json, Quoted};
use crate::report::Report;
use zarr_scale_offset_core::dtype::DataType;
use zarr_scale_offset_core::error::{Error, Result};

/// Reads a data type given as a string or as `{"name": ..., "configuration": {}}` at `pointer`,
/// reporting every problem; `None` when there is one.
pub fn read_data_type(v: &Json, pointer: &str, report: &mut Report) -> Option<DataType> {
    let errors_before = report.error_count();
    let keys = ["name", "configuration"];
    let f = match v {
        Json::String(s) => return report.check(DataType::parse(s, pointer)),
        Json::Object(_) => Fields::open(v, pointer, "a data type object", &keys, report)?,
        _ => {
            report.error(Error::metadata(
                pointer,
                format!(
                    "a data type must be a string or an object, found {}",
                    v.kind_name()
                ),
            ));
            return None;
        }
    };
    let Some(name) = f.get("name").and_then(Json::as_str) else {
        report.error(Error::metadata(
            pointer,
            "a data type object needs a string \"name\"",
        ));
        return None;
    };
    if f.get("configuration")
        .is_some_and(|c| c.as_object().is_none_or(|o| !o.is_empty()))
    {
        report.error(Error::metadata(
            &f.at("configuration"),
            format!("data type {} takes no configuration", Quoted(name)),
        ));
    }
    let d = report.check(DataType::parse(name, pointer));
    d.filter(|_| report.error_count() == errors_before)
}

/// [`read_data_type`], the first problem being the error.
pub fn parse_data_type(v: &Json, pointer: &str) -> Result<DataType> {
    let mut report = Report::default();
    let d = read_data_type(v, pointer, &mut report);
    // (`None` always comes with an error: the fallback is never the message.)
    report.into_result(Some(()))?;
    d.ok_or_else(|| Error::metadata(pointer, "invalid data type"))
}

/// The JSON form of the fill value of a data type this crate knows but does not compute on.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum FillForm {
    /// `bool`: "a JSON boolean (`false` or `true`)".
    Bool,
    /// `complex64`, `complex128` and the `complex_<float>` extensions: "a two-element array,
    /// specifying the real and imaginary components", each a float fill value.
    Complex,
    /// `r<N>`: "an array of integers, with length equal to `<N>`" bytes "in the range
    /// `[0, 255]`" (the number is the byte count).
    Raw(usize),
    /// An extension type whose fill value form is its own (`string`, `bytes`, ...): not checked.
    Unchecked,
}

/// The data types outside the 26 that an extension defines and whose names this crate knows
/// (zarr-extensions `data-types/`, and the names zarr-python 3 writes).
const OTHER_NAMES: &[&str] = &[
    "string",
    "bytes",
    "variable_length_bytes",
    "fixed_length_utf32",
    "null_terminated_bytes",
    "raw_bytes",
    "numpy.datetime64",
    "numpy.timedelta64",
    "structured",
    "struct",
];

/// A data type that the Zarr v3 core spec (`bool`, `complex64`, `complex128`, `r<N>`:
/// `docs/v3/data-types/index.rst`) or a known extension defines and this crate does not compute
/// on: the form of its fill value. `None` for the 26 numeric types and for unknown names.
pub fn other_data_type(name: &str) -> Option<FillForm> {
    match name {
        "bool" => return Some(FillForm::Bool),
        "complex64" | "complex128" => return Some(FillForm::Complex),
        _ => {}
    }
    if let Some(part) = name.strip_prefix("complex_") {
        return DataType::from_name(part)
            .and_then(DataType::float)
            .map(|_| FillForm::Complex);
    }
    if let Some(bits) = name.strip_prefix('r') {
        // "r" followed by the number of bits, a multiple of 8.
        let n = bits
            .bytes()
            .all(|c| c.is_ascii_digit())
            .then(|| bits.parse::<usize>().ok())
            .flatten()
            .filter(|&n| n > 0 && n % 8 == 0 && !bits.starts_with('0'));
        // (Not `return n.map(...)`: "raw_bytes" also starts with "r".)
        if let Some(n) = n {
            return Some(FillForm::Raw(n / 8));
        }
    }
    OTHER_NAMES.contains(&name).then_some(FillForm::Unchecked)
}

/// An array's data type: one of the 26, or a known other one (by name).
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum ArrayType {
    /// One of the 26 numeric types.
    Numeric(DataType),
    /// A data type this crate knows but does not compute on.
    Other(String, FillForm),
}

/// Reads an array's `data_type` (at `pointer`): one of the 26 as [`read_data_type`] reads it,
/// or a data type [`other_data_type`] knows (its configuration, if any, is not checked). An
/// unknown name is `unsupported_data_type`.
pub fn read_array_data_type(v: &Json, pointer: &str, report: &mut Report) -> Option<ArrayType> {
    let name = match v {
        Json::Object(_) => v.get("name").and_then(Json::as_str),
        other => other.as_str(),
    };
    if let Some((name, form)) = name.and_then(|n| Some((n, other_data_type(n)?))) {
        if let Json::Object(_) = v {
            let keys = ["name", "configuration", "must_understand"];
            Fields::open(v, pointer, "a data type object", &keys, report);
        }
        return Some(ArrayType::Other(name.to_string(), form));
    }
    read_data_type(v, pointer, report).map(ArrayType::Numeric)
}

/// Checks the fill value `v` (at `pointer`) of the known other data type `name` in the form the
/// core spec gives it (`docs/v3/data-types/index.rst`, "Permitted fill values"); the fill
/// values of extension types with their own forms are not checked.
pub fn check_other_fill(v: &Json, name: &str, form: FillForm, pointer: &str, report: &mut Report) {
    let bad = |report: &mut Report, what: &str| report.error(must_be(pointer, what, v));
    match form {
        FillForm::Bool if v.as_bool().is_none() => bad(report, "true or false"),
        FillForm::Complex => {
            // Each component is a float fill value of the component type.
            let part = match name {
                "complex64" => Some(DataType::Float32),
                "complex128" => Some(DataType::Float64),
                other => other.strip_prefix("complex_").and_then(DataType::from_name),
            };
            match (v.as_array(), part) {
                (Some(items @ [_, _]), Some(part)) => {
                    for (i, c) in items.iter().enumerate() {
                        let p = super::pointer_index(pointer, i);
                        let s = report.check(super::parse_scalar(part, c, &p));
                        if let Some(m) = s.and_then(|s| s.lenient) {
                            report.warn(&p, "lenient_form", m);
                        }
                    }
                }
                _ => bad(
                    report,
                    "a two-element array of its real and imaginary components",
                ),
            }
        }
        FillForm::Raw(n) => {
            let ok = v.as_array().is_some_and(|items| {
                items.len() == n
                    && items
                        .iter()
                        .all(|b| b.as_number().and_then(|t| t.parse::<u8>().ok()).is_some())
            });
            if !ok {
                bad(report, "an array of integers from 0 to 255, one per byte");
            }
        }
        FillForm::Bool | FillForm::Unchecked => {}
    }
}
