//! Prints the data-type table as JSON, one row per line (`dtype::table_json`), for
//! `scripts/gen-dtypes.mjs`, which writes `js/dtypes.js` and the data-type part of
//! `js/index.d.ts` from it:
//!
//! ```text
//! cargo run -q -p zarr-scale-offset-core --example dtypes
//! ```

fn main() {
    println!("{}", zarr_scale_offset_core::dtype::table_json());
}
