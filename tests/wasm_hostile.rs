//! Hostile inputs through the wasm exports, in Node (`wasm-pack test --node`). The bodies live
//! in `tests/common/hostile.rs`, shared with `tests/wasm_hostile_web.rs` (headless Chromium).
// Test code may unwrap, index and panic (the workspace lints deny them in the library).
#![allow(clippy::restriction)]
// The JS bindings exist only in the wasm build.
#![cfg(target_family = "wasm")]

#[path = "common/hostile.rs"]
mod hostile;

hostile::hostile_tests!();
