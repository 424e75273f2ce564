//! The numeric core and the per-element kernels of `zarr-scale-offset`, as a crate of their own
//! so that they can be compiled with a different optimisation level from the rest.
//!
//! The wasm module is built with `opt-level = "z"` (size) for the metadata, JSON and binding
//! code, and `opt-level = 3` for this crate (`[profile.release.package.zarr-scale-offset-core]`
//! in the workspace `Cargo.toml`): the kernels need -O3's inlining and loop vectorisation
//! (at "z" they ran 20-30x slower), and the rest is a fifth smaller at "z". Cargo applies a
//! per-package optimisation level only without LTO, so the release profile has `lto = false`
//! (measured: no size difference for this crate graph).
//!
//! The sources stay where they were in the main crate's `src/` (the paths below), and the main
//! crate re-exports every module, so `zarr_scale_offset::num`, `::dtype`, `::error`,
//! `::kernels`, `::codec::cast` and `::json::{decimal, text}` are unchanged for users.

#![warn(missing_docs)]
#![cfg_attr(
    not(test),
    deny(
        clippy::unwrap_used,
        clippy::expect_used,
        clippy::indexing_slicing,
        clippy::panic,
        clippy::unreachable,
        clippy::todo,
        clippy::unimplemented
    )
)]

#[path = "../../../src/dtype.rs"]
pub mod dtype;
#[path = "../../../src/error.rs"]
pub mod error;
#[path = "../../../src/kernels/mod.rs"]
pub mod kernels;
#[path = "../../../src/num/mod.rs"]
pub mod num;

// Files of the main crate that sit one directory deeper there; declared here at the root (a
// `#[path]` inside an inline module would resolve through a directory that does not exist) and
// re-exported under their usual paths below.
#[doc(hidden)]
#[path = "../../../src/codec/cast.rs"]
pub mod cast;
#[doc(hidden)]
#[path = "../../../src/json/decimal.rs"]
pub mod decimal;
#[doc(hidden)]
#[path = "../../../src/json/text.rs"]
pub mod text;

// `decimal` refers to `super::is_json_number`.
use text::is_json_number;

/// Value conversion between data types (the reference procedures of `cast_value`).
pub mod codec {
    pub use super::cast;
}

/// The JSON text helpers and exact decimal conversion that the numeric core's messages use.
pub mod json {
    pub use super::text::{is_json_number, quote, Quoted};
    pub use super::{decimal, text};
}

pub use dtype::DataType;
pub use error::{Error, ErrorCode, Result, Warning};
