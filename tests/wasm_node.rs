//! wasm-bindgen tests of the JS-facing exports, run in Node (`wasm-pack test --node`).
//! The test bodies live in `tests/common/mod.rs`, shared with `tests/wasm_web.rs`.
// Test code may unwrap, index and panic (the workspace lints deny it in the library).
#![allow(
    clippy::unwrap_used,
    clippy::expect_used,
    clippy::indexing_slicing,
    clippy::panic,
    clippy::unreachable
)]

mod common;

common::wasm_tests!();
