//! Prints the codec names the zarrita adapter registers (every implemented array -> array codec
//! of the registry, `codec::adapter_codec_names`) as a JSON array, for `scripts/gen-dtypes.mjs`,
//! which writes them into `js/zarrita.js` and `js/zarrita.d.ts`:
//!
//! ```text
//! cargo run -q --example codecs
//! ```

fn main() {
    let names: Vec<String> = zarr_scale_offset::internals::codec::adapter_codec_names()
        .iter()
        .map(|n| zarr_scale_offset::internals::json::quote(n))
        .collect();
    println!("[{}]", names.join(", "));
}
