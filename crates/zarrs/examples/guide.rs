//! The zarrs code of the user guide (docs/guides/rust.md, "The zarrs plugin"), as one program
//! that runs: zarrs 0.23 writes a CF-packed array with this plugin's codecs, reads it back whole
//! and in parts, reports an error, and reads a `numcodecs.fixedscaleoffset` array with the
//! plugin's numcodecs-exact decoder.
//!
//! ```text
//! cd crates/zarrs && cargo run --example guide
//! ```
//!
//! Each region between `// ANCHOR: <name>` and `// ANCHOR_END: <name>` is a code block of the
//! guide, word for word (`tests/guide.rs` checks it and runs this program).

// ANCHOR: imports
use std::sync::Arc;

use zarrs::array::{Array, ArrayBuilder, ArraySubset, ArrayToArrayCodecTraits};
use zarrs::filesystem::FilesystemStore;
use zarrs::metadata::v3::MetadataV3;
use zarrs::storage::store::MemoryStore;
use zarrs::storage::{StoreKey, WritableStorageTraits};
use zarrs_scale_offset::ScaleOffsetCodec;

type Res<T> = Result<T, Box<dyn std::error::Error>>;
// ANCHOR_END: imports

/// Runs the guide's examples in a fresh directory under the system's temporary directory.
pub fn main() -> Res<()> {
    let dir = std::env::temp_dir().join(format!("zarrs-scale-offset-guide-{}", std::process::id()));
    let result = run(&dir);
    let _ = std::fs::remove_dir_all(&dir);
    result
}

fn run(dir: &std::path::Path) -> Res<()> {
    let path = dir.join("t2m.zarr");
    write(&path)?;
    read(&path)?;
    fixed_scale_offset()
}

fn write(path: &std::path::Path) -> Res<()> {
    // ANCHOR: write
    // Temperatures in kelvin packed as int16 hundredths above 273.15 K (CF: scale_factor 0.01,
    // add_offset 273.15), NaN stored as -32768.
    let codecs: Vec<MetadataV3> = serde_json::from_str(
        r#"[
        {"name": "cf.scale_offset", "configuration": {"scale": 0.01, "offset": 273.15}},
        {"name": "cast_value", "configuration": {"data_type": "int16",
            "scalar_map": {"encode": [["NaN", -32768]], "decode": [[-32768, "NaN"]]}}}]"#,
    )?;
    let codecs = codecs
        .iter()
        .map(|m| {
            Ok(Arc::new(ScaleOffsetCodec::from_metadata(m)?) as Arc<dyn ArrayToArrayCodecTraits>)
        })
        .collect::<Res<Vec<_>>>()?;

    let store = Arc::new(FilesystemStore::new(path)?);
    let array = ArrayBuilder::new(vec![4, 6], vec![2, 3], "float64", f64::NAN)
        .array_to_array_codecs(codecs)
        .build(store, "/")?;
    array.store_metadata()?;

    // 24 values on the packing grid (k * 0.01 + 273.15), one missing.
    let values: Vec<f64> = (0..24)
        .map(|k| {
            if k == 7 {
                f64::NAN
            } else {
                f64::from(k * 150) * 0.01 + 273.15
            }
        })
        .collect();
    array.store_array_subset(&array.subset_all(), values)?;

    // Chunk (0, 0) holds rows 0-1, columns 0-2: the int16 values k * 150, and -32768 for NaN.
    let stored = std::fs::read(path.join("c/0/0"))?;
    let expected: Vec<u8> = [0i16, 150, 300, 900, -32768, 1200]
        .iter()
        .flat_map(|x| x.to_le_bytes())
        .collect();
    assert_eq!(stored, expected);
    // ANCHOR_END: write
    Ok(())
}

fn read(path: &std::path::Path) -> Res<()> {
    // ANCHOR: read
    // Linking the plugin is all it takes: `Array::open` finds its codecs by name.
    let array = Array::open(Arc::new(FilesystemStore::new(path)?), "/")?;
    let all: Vec<f64> = array.retrieve_array_subset(&array.subset_all())?;
    assert_eq!(all.len(), 24);
    assert!(all.get(7).is_some_and(|x| x.is_nan()));
    // Every value is what xarray.decode_cf computes: packed * 0.01 + 273.15 in float64.
    assert_eq!(all.get(1), Some(&(150.0 * 0.01 + 273.15)));
    assert_eq!(all.get(23), Some(&(3450.0 * 0.01 + 273.15)));

    // Part of the array (rows 1-2, columns 2-4: four chunks), or part of one chunk: only the
    // elements asked for are decoded.
    let part: Vec<f64> =
        array.retrieve_array_subset(&ArraySubset::new_with_ranges(&[1..3, 2..5]))?;
    assert_eq!(part.len(), 6);
    let corner: Vec<f64> =
        array.retrieve_chunk_subset(&[1, 1], &ArraySubset::new_with_ranges(&[1..2, 2..3]))?;
    assert_eq!(corner, [3450.0 * 0.01 + 273.15]);
    // ANCHOR_END: read

    // ANCHOR: errors
    // 400 K packs to (400 - 273.15) / 0.01 = 12685: an int16. 700 K packs to 42685: not one.
    array.store_array_subset(&ArraySubset::new_with_ranges(&[0..1, 0..1]), vec![400.0f64])?;
    let Err(e) =
        array.store_array_subset(&ArraySubset::new_with_ranges(&[0..1, 0..1]), vec![700.0f64])
    else {
        return Err("700 K was stored".into());
    };
    assert_eq!(
        e.to_string(),
        "cast_value: out_of_range: cast_value encode, float64 -> int16: element 0: \
         42685.0 is outside the range of int16 and out_of_range is not set"
    );
    // ANCHOR_END: errors
    Ok(())
}

fn fixed_scale_offset() -> Res<()> {
    // ANCHOR: fixedscaleoffset
    let store = Arc::new(MemoryStore::new());
    let zarr_json = r#"{"zarr_format": 3, "node_type": "array", "shape": [3],
        "data_type": "float64", "fill_value": 0,
        "chunk_grid": {"name": "regular", "configuration": {"chunk_shape": [3]}},
        "chunk_key_encoding": {"name": "default"},
        "codecs": [{"name": "numcodecs.fixedscaleoffset", "configuration":
                       {"scale": 10, "offset": 0.1, "dtype": "<f8", "astype": "<i2"}},
                   {"name": "bytes", "configuration": {"endian": "little"}}]}"#;
    store.set(
        &StoreKey::new("zarr.json")?,
        zarr_json.as_bytes().to_vec().into(),
    )?;
    let stored: Vec<u8> = [1i16, 2, 3].iter().flat_map(|x| x.to_le_bytes()).collect();
    store.set(&StoreKey::new("c/0")?, stored.into())?;

    // zarrs' own codec holds scale and offset as f32: the offset is 0.1f32, not 0.1.
    let array = Array::open(store.clone(), "/")?;
    let values: Vec<f64> = array.retrieve_array_subset(&array.subset_all())?;
    assert_eq!(
        values,
        [0.20000000149011612, 0.30000000149011613, 0.4000000014901161]
    );

    // This crate's decoder, registered at run time (for the whole process; run-time codecs take
    // precedence over zarrs' built-in ones): numcodecs' float64 arithmetic, stored / 10 + 0.1.
    let _handle = zarrs_scale_offset::register_fixed_scale_offset();
    let array = Array::open(store, "/")?;
    let values: Vec<f64> = array.retrieve_array_subset(&array.subset_all())?;
    assert_eq!(values, [0.2, 0.30000000000000004, 0.4]);
    // ANCHOR_END: fixedscaleoffset
    Ok(())
}

/// `cargo test` runs the example (`[[example]] test = true` in Cargo.toml).
#[test]
fn the_guides_example_runs() -> Res<()> {
    main()
}
