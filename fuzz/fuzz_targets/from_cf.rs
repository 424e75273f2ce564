//! `from_cf` on arbitrary CF attributes, packed type and attribute type; see
//! `checks::from_cf_bytes`.
#![no_main]

#[path = "../checks.rs"]
mod checks;

libfuzzer_sys::fuzz_target!(|data: &[u8]| checks::from_cf_bytes(data));
