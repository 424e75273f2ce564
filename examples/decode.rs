//! Decoding with the public API only: one chunk of a zarr.json array, then one `Bound` made once
//! and used for many chunks (from several threads, since `Bound` is `Send + Sync`).
//!
//! ```text
//! cargo run --example decode
//! ```

// Example code may index and panic (the workspace lints deny them in the library).
#![allow(clippy::restriction)]

use zarr_scale_offset::{bind, decode_chunk, validate, DataType, ErrorCode};

/// Temperatures in °C stored as int16 hundredths of a kelvin; -32768 (the stored fill) is NaN.
const ZARR_JSON: &str = r#"{
    "zarr_format": 3, "node_type": "array", "shape": [8], "data_type": "float32",
    "chunk_grid": {"name": "regular", "configuration": {"chunk_shape": [4]}},
    "chunk_key_encoding": {"name": "default"}, "fill_value": "NaN",
    "codecs": [
        {"name": "scale_offset", "configuration": {"offset": -273.15, "scale": 100}},
        {"name": "cast_value", "configuration": {"data_type": "int16",
            "scalar_map": {"encode": [["NaN", -32768]], "decode": [[-32768, "NaN"]]}}},
        {"name": "bytes", "configuration": {"endian": "little"}}]}"#;

fn f32s(bytes: &[u8]) -> Vec<f32> {
    bytes
        .chunks_exact(4)
        .map(|b| f32::from_le_bytes([b[0], b[1], b[2], b[3]]))
        .collect()
}

fn main() -> Result<(), zarr_scale_offset::Error> {
    // 1. The whole document: validate it, then decode one stored chunk (4 little-endian int16).
    let report = validate(ZARR_JSON, None);
    assert!(report.is_decodable(), "{:?}", report.errors);
    let stored: Vec<u8> = [27315i16, 29315, -32768, 25315]
        .iter()
        .flat_map(|x| x.to_le_bytes())
        .collect();
    let chunk = decode_chunk(ZARR_JSON, &stored)?;
    println!("decode_chunk: {:?}", f32s(&chunk));

    // 2. Bind the array->array codecs once (data type and fill value as in the document), then
    //    decode many chunks into one reused buffer, on 4 threads sharing the same `Bound`.
    let codecs = r#"[
        {"name": "scale_offset", "configuration": {"offset": -273.15, "scale": 100}},
        {"name": "cast_value", "configuration": {"data_type": "int16",
            "scalar_map": {"encode": [["NaN", -32768]], "decode": [[-32768, "NaN"]]}}}]"#;
    let b = bind(codecs, "float32", Some(r#""NaN""#))?;
    assert_eq!(b.encoded_data_type(), DataType::Int16);
    println!(
        "bound: {} -> {}, encoded fill {}",
        b.decoded_data_type(),
        b.encoded_data_type(),
        b.encoded_fill().unwrap_or_default()
    );
    let n = 100_000;
    let sums: Vec<f64> = std::thread::scope(|s| {
        let handles: Vec<_> = (0..4)
            .map(|t| {
                let b = &b;
                s.spawn(move || -> Result<f64, zarr_scale_offset::Error> {
                    let mut out = vec![0u8; n * 4];
                    let mut sum = 0.0;
                    for c in 0..25 {
                        let stored: Vec<u8> = (0..n)
                            .flat_map(|i| (25_000 + ((i + c + t) % 5_000) as i16).to_le_bytes())
                            .collect();
                        b.decode_into(&stored, &mut out)?;
                        sum += f32s(&out).iter().map(|&x| f64::from(x)).sum::<f64>();
                    }
                    Ok(sum)
                })
            })
            .collect();
        handles
            .into_iter()
            .map(|h| h.join().expect("thread"))
            .collect::<Vec<_>>()
    })
    .into_iter()
    .collect::<Result<_, _>>()?;
    println!(
        "4 threads x 25 chunks x {n} values, mean per thread: {:?}",
        sums.iter().map(|s| s / (25 * n) as f64).collect::<Vec<_>>()
    );

    // 3. Errors carry a stable code and a message naming the element.
    let e = b.encode(&1e9f32.to_le_bytes()).unwrap_err();
    assert_eq!(e.code, ErrorCode::OutOfRange);
    println!("error {}: {}", e.code.as_str(), e.message);
    Ok(())
}
