//! Hostile inputs through the wasm exports, in headless Chromium (`wasm-pack test --headless
//! --chrome`). The bodies live in `tests/common/hostile.rs`, shared with `tests/wasm_hostile.rs`.
// Test code may unwrap, index and panic (the workspace lints deny them in the library).
#![allow(clippy::restriction)]
// The JS bindings exist only in the wasm build.
#![cfg(target_family = "wasm")]

wasm_bindgen_test::wasm_bindgen_test_configure!(run_in_browser);

#[path = "common/hostile.rs"]
mod hostile;

hostile::hostile_tests!();
