//! The numeric core of `zarr-scale-offset`: float formats as data and exact rounding (`num`), the
//! data-type table (`dtype`), the error type (`error`), reference value conversion (`cast`), exact decimal
//! and number text (`decimal`, `text`), buffer helpers (`buf`) and the per-element kernels
//! (`kernels`). Nothing here knows JSON documents, codecs lists or wasm.
//!
//! It is a crate of its own so that it is compiled with a different optimisation level from the
//! rest: the wasm module is built with `opt-level = "z"` (size) for the metadata, JSON and binding
//! code, and `opt-level = 2` for this crate (`[profile.release.package.zarr-scale-offset-core]`
//! in the workspace `Cargo.toml`): the kernels need LLVM's inlining and loop vectorisation (at "z"
//! they ran 20-30x slower, at "s" 5-50x), and the rest is a fifth smaller at "z". Level 2 instead
//! of 3: 670 B less LZMA module, every bench row within 10 % (docs/SIZE.md, session 5). Cargo applies a per-package
//! optimisation level only without LTO, so the release profile has `lto = false` (measured: no
//! size difference for this crate graph).
//!
//! The main crate names it by its crate name (`zarr_scale_offset_core::dtype`, ...) and exports
//! only `DataType`, `Error`, `ErrorCode` and `Result` from it.

#![warn(missing_docs)]
// No panics reachable from input: see the workspace lints in Cargo.toml (`unwrap_used` and the
// rest are denied outside tests; each allowed site carries a `PROOF` comment).
#![cfg_attr(test, allow(clippy::restriction))]

pub mod buf;
pub mod cast;
pub mod decimal;
pub mod direction;
pub mod dtype;
pub mod error;
pub mod kernels;
pub mod num;
pub mod text;

#[doc(hidden)]
pub mod test_rng;

pub use direction::{Direction, PerDirection};
pub use dtype::DataType;
pub use error::{Error, ErrorCode, Result};
