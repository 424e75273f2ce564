//! `decode_chunk` / `encode_chunk` on arbitrary metadata and arbitrary bytes of arbitrary
//! length (input: metadata text, 0x00, chunk bytes); see `checks::chunk`.
#![no_main]

#[path = "../checks.rs"]
mod checks;

libfuzzer_sys::fuzz_target!(|data: &[u8]| checks::chunk(data));
