//! JSON metadata parsing and `validate` on arbitrary text; see `checks::json_validate`.
#![no_main]

#[path = "../checks.rs"]
mod checks;

libfuzzer_sys::fuzz_target!(|data: &[u8]| checks::json_validate(data));
