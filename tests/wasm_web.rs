//! wasm-bindgen tests of the JS-facing exports, run in headless Chromium
//! (`wasm-pack test --headless --chrome`). The test bodies live in `tests/common/mod.rs`, shared
//! with `tests/wasm_node.rs`.
// Test code may unwrap, index and panic (the workspace lints deny them in the library).
#![allow(clippy::restriction)]
// The JS bindings exist only in the wasm build.
#![cfg(target_family = "wasm")]

wasm_bindgen_test::wasm_bindgen_test_configure!(run_in_browser);

mod common;

common::wasm_tests!();
