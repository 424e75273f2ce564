//! A data type as metadata gives it: a name (`"float32"`) or an object `{"name": "float32"}`
//! (with, at most, an empty `"configuration"`: none of the 26 numeric types takes one).

use super::{Fields, Json, Quoted};
use crate::dtype::DataType;
use crate::error::{Error, Report, Result};

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
