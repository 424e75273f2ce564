//! wasm-bindgen tests of the JS-facing exports, run in Node (`wasm-pack test --node`).
//! The test bodies live in `tests/common/mod.rs`, shared with `tests/wasm_web.rs`.
// Test code may unwrap, index and panic (the workspace lints deny them in the library).
#![allow(clippy::restriction)]
// The JS bindings exist only in the wasm build.
#![cfg(target_family = "wasm")]

mod common;

common::wasm_tests!();
