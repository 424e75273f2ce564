//! Hostile inputs through the wasm exports, in Node (`wasm-pack test --node`). The bodies live
//! in `tests/common/hostile.rs`, shared with `tests/wasm_hostile_web.rs` (headless Chromium).

#[path = "common/hostile.rs"]
mod hostile;

hostile::hostile_tests!();
