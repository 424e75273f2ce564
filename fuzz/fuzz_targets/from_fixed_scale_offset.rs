//! `from_fixed_scale_offset` on an arbitrary numcodecs.fixedscaleoffset configuration (codec
//! object, configuration or v2 filter) and data type; see `checks::from_fixed_bytes`.
#![no_main]

#[path = "../checks.rs"]
mod checks;

libfuzzer_sys::fuzz_target!(|data: &[u8]| checks::from_fixed_bytes(data));
