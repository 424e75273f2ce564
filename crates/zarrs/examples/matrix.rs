//! The zarrs engine of the cross-engine matrix (tests/matrix/run.py).
//!
//! `matrix write CASES.json OUT_DIR`: for every case (zarr.json metadata and the whole array's
//! in-memory bytes, hex), zarrs writes the array with this plugin's codecs to `OUT_DIR/<name>.zarr`
//! (`Array::new_with_metadata`, `store_chunk` of every chunk).
//! `matrix read STORE`: zarrs opens the store and prints the hex of the decoded array (`retrieve_chunk` of every chunk), or
//! `error: <message>`. `numcodecs.fixedscaleoffset` is this crate's (registered at run time).
use std::sync::Arc;

use zarrs::array::{Array, ArrayBytes, ArrayMetadata};
use zarrs::filesystem::FilesystemStore;
use zarrs::storage::ReadableWritableListableStorage;
// Linking the plugin registers its codecs with zarrs.
use zarrs_scale_offset as _;

type Res<T> = Result<T, Box<dyn std::error::Error>>;

fn hex(b: &[u8]) -> String {
    b.iter().map(|x| format!("{x:02x}")).collect()
}

fn unhex(s: &str) -> Res<Vec<u8>> {
    (0..s.len())
        .step_by(2)
        .map(|i| Ok(u8::from_str_radix(s.get(i..i + 2).ok_or("odd hex")?, 16)?))
        .collect()
}

fn write(cases: &str, out: &str) -> Res<()> {
    let cases: serde_json::Value = serde_json::from_str(&std::fs::read_to_string(cases)?)?;
    for case in cases.as_array().ok_or("cases: not a list")? {
        let name = case["name"].as_str().ok_or("name")?;
        let dir = std::path::Path::new(out).join(format!("{name}.zarr"));
        std::fs::create_dir_all(&dir)?;
        let store: ReadableWritableListableStorage = Arc::new(FilesystemStore::new(&dir)?);
        let meta: ArrayMetadata = serde_json::from_value(case["zarr_json"].clone())?;
        let input = unhex(case["input"].as_str().ok_or("input")?)?;
        let result = (|| -> Res<()> {
            let array = Array::new_with_metadata(store, "/", meta)?;
            array.store_metadata()?;
            // Chunk by chunk (1-D arrays whose length is a multiple of the chunk length).
            let n = array
                .chunk_grid_shape()
                .first()
                .copied()
                .unwrap_or(1)
                .max(1);
            let per = input.len() / usize::try_from(n)?;
            for (i, part) in input.chunks(per.max(1)).enumerate() {
                array.store_chunk(&[u64::try_from(i)?], ArrayBytes::new_flen(part.to_vec()))?;
            }
            Ok(())
        })();
        if let Err(e) = result {
            std::fs::write(dir.join("error.txt"), e.to_string())?;
        }
    }
    Ok(())
}

fn read(store: &str) -> Res<()> {
    let result = (|| -> Res<Vec<u8>> {
        let array = Array::open(Arc::new(FilesystemStore::new(store)?), "/")?;
        let mut out = vec![];
        for i in 0..array.chunk_grid_shape().first().copied().unwrap_or(0) {
            let bytes: ArrayBytes<'static> = array.retrieve_chunk(&[i])?;
            out.extend_from_slice(&bytes.into_fixed()?);
        }
        Ok(out)
    })();
    match result {
        Ok(bytes) => println!("{}", hex(&bytes)),
        Err(e) => println!("error: {}", e.to_string().replace('\n', " ")),
    }
    Ok(())
}

fn main() -> Res<()> {
    // This crate's numcodecs-exact numcodecs.fixedscaleoffset (zarrs' own is registered too).
    let _fixed = zarrs_scale_offset::register_fixed_scale_offset();
    let args: Vec<String> = std::env::args().skip(1).collect();
    match args.as_slice() {
        [cmd, cases, out] if cmd == "write" => write(cases, out),
        [cmd, stores @ ..] if cmd == "read" => stores.iter().try_for_each(|s| read(s)),
        _ => Err("usage: matrix write CASES.json OUT_DIR | matrix read STORE...".into()),
    }
}
