//! Prints the rounding modes of `cast_value` (`num::RoundingMode::ALL`, their JSON spellings) as
//! a JSON array, for `scripts/gen-dtypes.mjs`, which checks the TypeScript `Rounding` union of
//! `js/index.d.ts` against it:
//!
//! ```text
//! cargo run -q -p zarr-scale-offset-core --example roundings
//! ```

use zarr_scale_offset_core::num::RoundingMode;

fn main() {
    let names: Vec<String> = RoundingMode::ALL
        .iter()
        .map(|m| format!("\"{}\"", m.as_str()))
        .collect();
    println!("[{}]", names.join(", "));
}
