//! zarrs' subset APIs (`store_array_subset`, `retrieve_array_subset`, chunk subsets) over arrays
//! whose codecs cannot carry the fill value 0 through, while the array's own fill value passes.
//! zarrs 0.23.14 asks the codec chain for its representations with a placeholder fill value of
//! zero bytes when it plans the concurrency of a request that touches several chunks
//! (`CodecChain::recommended_concurrency`, zarrs-0.23.14 src/array/codec/array_to_bytes/
//! codec_chain.rs:831-835); such arrays must still work, and an array whose real fill value cannot
//! pass must still fail wherever a chunk goes through the codecs.
//!
//! Expected values are worked out by hand in the comments (stored bytes and decoded floats), not
//! computed by the plugin or the core.
#![allow(clippy::restriction)]

mod common;

use std::num::NonZeroU64;

use zarrs::array::{
    data_type, Array, ArrayBytes, ArraySubset, ArrayToArrayCodecTraits, CodecOptions, FillValue,
};
use zarrs::metadata::v3::MetadataV3;
use zarrs::storage::store::MemoryStore;
use zarrs::storage::{ReadableStorageTraits, StoreKey, WritableStorageTraits};
use zarrs_scale_offset::ScaleOffsetCodec;

/// float32, `x -> (x - 300) * 1 -> uint8`, NaN <-> 255. The fill value NaN passes (NaN -> 255 ->
/// NaN); 0 does not (0 - 300 = -300 is outside uint8).
const F32_CODECS: &str = r#"[
    {"name": "scale_offset", "configuration": {"offset": 300, "scale": 1}},
    {"name": "cast_value", "configuration": {"data_type": "uint8",
        "scalar_map": {"encode": [["NaN", 255]], "decode": [[255, "NaN"]]}}},
    {"name": "bytes"}]"#;

/// int8, `x -> (x + 100) * 2`: the fill value -100 passes (-> 0); 0 does not (0 -> 200 is
/// outside int8), here already in the first codec.
const I8_CODECS: &str = r#"[
    {"name": "scale_offset", "configuration": {"offset": -100, "scale": 2}},
    {"name": "bytes"}]"#;

/// An array of `shape` in chunks of `chunk` in a fresh memory store, from its zarr.json (the
/// plugin's codecs come from zarrs' registry, as for `Array::open`), its metadata stored.
fn array(
    data_type: &str,
    fill: &str,
    shape: &[u64],
    chunk: &[u64],
    codecs: &str,
) -> Array<MemoryStore> {
    let array = common::memory_array(data_type, fill, shape, chunk, codecs);
    array.store_metadata().unwrap();
    array
}

fn subset(ranges: &[std::ops::Range<u64>]) -> ArraySubset {
    ArraySubset::new_with_ranges(ranges)
}

/// The stored bytes of chunk `key` (`"c/0/1"`), `None` when zarrs stored nothing.
fn stored(array: &Array<MemoryStore>, key: &str) -> Option<Vec<u8>> {
    array
        .storage()
        .get(&StoreKey::new(key).unwrap())
        .unwrap()
        .map(|b| b.to_vec())
}

/// The bit patterns of float32 values (NaN compared by pattern: the codecs produce the canonical
/// NaN 0x7fc00000 from the map, and zarrs' fill NaN is the same pattern).
fn bits(v: &[f32]) -> Vec<u32> {
    v.iter().map(|x| x.to_bits()).collect()
}

const NAN: f32 = f32::NAN;

/// A 6 x 12 float32 array in 3 x 4 chunks (2 x 3 chunks): a subset over four chunks, each
/// partly, written with `store_array_subset` and read back whole and in parts; the last chunk
/// column is never written.
#[test]
fn float32_subset_write_and_read_with_a_fill_that_0_cannot_match() {
    let a = array("float32", r#""NaN""#, &[6, 12], &[3, 4], F32_CODECS);
    assert_eq!(a.fill_value().as_ne_bytes(), NAN.to_ne_bytes());
    // Rows 1..5, columns 2..7: 4 x 5 values 300 + 10 r + c (r, c relative to the subset), all
    // exact in float32 and stored as the uint8 10 r + c.
    let values: Vec<f32> = (0..4)
        .flat_map(|r| (0..5).map(move |c| 300.0 + (10 * r + c) as f32))
        .collect();
    a.store_array_subset(&subset(&[1..5, 2..7]), values)
        .unwrap();

    // Chunk (0, 0) holds rows 0..3, columns 0..4: the subset covers rows 1..3, columns 2..4,
    // i.e. values 300 + {0, 1, 10, 11}; the rest is the fill (stored 255).
    assert_eq!(
        stored(&a, "c/0/0").unwrap(),
        [255, 255, 255, 255, 255, 255, 0, 1, 255, 255, 10, 11]
    );
    // Chunk (1, 1): rows 3..6, columns 4..8; the subset covers rows 3..5, columns 4..7, i.e.
    // subset rows 2..4, columns 2..5: 22, 23, 24 and 32, 33, 34.
    assert_eq!(
        stored(&a, "c/1/1").unwrap(),
        [22, 23, 24, 255, 32, 33, 34, 255, 255, 255, 255, 255]
    );
    // The third chunk column was never written: nothing stored.
    assert_eq!(stored(&a, "c/0/2"), None);
    assert_eq!(stored(&a, "c/1/2"), None);

    // The whole array (six chunks, two of them never written).
    let all: Vec<f32> = a.retrieve_array_subset(&a.subset_all()).unwrap();
    let mut expected = vec![NAN; 72];
    for r in 0..4 {
        for c in 0..5 {
            expected[(r + 1) * 12 + c + 2] = 300.0 + (10 * r + c) as f32;
        }
    }
    assert_eq!(bits(&all), bits(&expected));

    // A row across three chunks, partly each: row 2, columns 1..10.
    let row: Vec<f32> = a.retrieve_array_subset(&subset(&[2..3, 1..10])).unwrap();
    assert_eq!(
        bits(&row),
        bits(&[NAN, 310.0, 311.0, 312.0, 313.0, 314.0, NAN, NAN, NAN])
    );
    // A part of one chunk (zarrs' single-chunk path): rows 3..5, columns 5..7 of chunk (1, 1).
    let part: Vec<f32> = a.retrieve_array_subset(&subset(&[3..5, 5..7])).unwrap();
    assert_eq!(bits(&part), bits(&[323.0, 324.0, 333.0, 334.0]));
    let part: Vec<f32> = a
        .retrieve_chunk_subset(&[1, 1], &subset(&[0..2, 1..3]))
        .unwrap();
    assert_eq!(bits(&part), bits(&[323.0, 324.0, 333.0, 334.0]));

    // Never-written chunks read as the fill value: one chunk, one subset over both.
    let chunk: Vec<f32> = a.retrieve_chunk(&[1, 2]).unwrap();
    assert_eq!(bits(&chunk), bits(&[NAN; 12]));
    let column: Vec<f32> = a.retrieve_array_subset(&subset(&[0..6, 8..12])).unwrap();
    assert_eq!(bits(&column), bits(&[NAN; 24]));
    let chunks: Vec<f32> = a.retrieve_chunks(&subset(&[0..2, 2..3])).unwrap();
    assert_eq!(bits(&chunks), bits(&[NAN; 24]));
}

/// Overwriting parts of stored chunks (zarrs reads, merges and re-encodes them), over several
/// chunks and inside one, and `store_chunk_subset`.
#[test]
fn float32_subset_overwrites_merge_with_stored_chunks() {
    let a = array("float32", r#""NaN""#, &[4, 4], &[2, 2], F32_CODECS);
    a.store_array_subset(&a.subset_all(), vec![301.0f32; 16])
        .unwrap();
    // Rows 1..3, columns 1..3 (the centre, one element of each of the four chunks): NaN, 302,
    // 303, 304.
    a.store_array_subset(&subset(&[1..3, 1..3]), vec![NAN, 302.0f32, 303.0, 304.0])
        .unwrap();
    // One element inside chunk (0, 0) and one by store_chunk_subset inside chunk (1, 1).
    a.store_array_subset(&subset(&[0..1, 0..1]), vec![554.0f32])
        .unwrap();
    a.store_chunk_subset(&[1, 1], &subset(&[1..2, 1..2]), vec![300.0f32])
        .unwrap();
    // Chunk (0, 0) = rows 0..2, columns 0..2: 554 -> 254, 301 -> 1, 301 -> 1, NaN -> 255.
    assert_eq!(stored(&a, "c/0/0").unwrap(), [254, 1, 1, 255]);
    // Chunk (1, 1) = rows 2..4, columns 2..4: 304 -> 4, 301, 301, 300 -> 0.
    assert_eq!(stored(&a, "c/1/1").unwrap(), [4, 1, 1, 0]);
    let all: Vec<f32> = a.retrieve_array_subset(&a.subset_all()).unwrap();
    #[rustfmt::skip]
    let expected = [
        554.0, 301.0, 301.0, 301.0,
        301.0, NAN,   302.0, 301.0,
        301.0, 303.0, 304.0, 301.0,
        301.0, 301.0, 301.0, 300.0,
    ];
    assert_eq!(bits(&all), bits(&expected));
    // A value that cannot be stored (299 - 300 = -1 is outside uint8) is still an error naming
    // the element, through a subset over several chunks.
    let e = a
        .store_array_subset(&subset(&[0..1, 1..3]), vec![301.0f32, 299.0])
        .unwrap_err()
        .to_string();
    assert!(e.contains("cast_value") && e.contains("-1"), "{e}");
}

/// int8, where 0 already fails in the first codec: subsets over several chunks and a chunk never
/// written.
#[test]
fn int8_subset_write_and_read_with_a_fill_that_0_cannot_match() {
    let a = array("int8", "-100", &[2, 6], &[2, 2], I8_CODECS);
    // Columns 1..4 of both rows: -100, -99, -98 / -40, -38, -37 -> (x + 100) * 2 = 0, 2, 4 /
    // 120, 124, 126.
    a.store_array_subset(
        &subset(&[0..2, 1..4]),
        vec![-100i8, -99, -98, -40, -38, -37],
    )
    .unwrap();
    // Chunk (0, 0) = columns 0..2: fill -100 -> 0, -100 -> 0 / fill -> 0, -40 -> 120.
    assert_eq!(stored(&a, "c/0/0").unwrap(), [0, 0, 0, 120]);
    // Chunk (0, 1) = columns 2..4: -99 -> 2, -98 -> 4 / -38 -> 124, -37 -> 126.
    assert_eq!(stored(&a, "c/0/1").unwrap(), [2, 4, 124, 126]);
    assert_eq!(stored(&a, "c/0/2"), None);
    let all: Vec<i8> = a.retrieve_array_subset(&a.subset_all()).unwrap();
    assert_eq!(
        all,
        [-100, -100, -99, -98, -100, -100, -100, -40, -38, -37, -100, -100]
    );
    let never: Vec<i8> = a.retrieve_array_subset(&subset(&[0..2, 4..6])).unwrap();
    assert_eq!(never, [-100; 4]);
    let never: Vec<i8> = a.retrieve_chunk(&[0, 2]).unwrap();
    assert_eq!(never, [-100; 4]);
}

/// The float32 codecs in front of `sharding_indexed` (which then omits inner chunks of the
/// encoded fill 255, and reads omitted ones as 255) and inside it, 4 x 12 in 4 x 4 shards of
/// 2 x 2 inner chunks: a subset over two shards, partly; the shards hold only the inner chunks
/// that are not all fill (with a zero placeholder as the encoded fill, sharding would store all
/// four); omitted inner chunks and a never-written shard read as NaN.
#[test]
fn float32_sharded_subsets_keep_the_fill() {
    let uint8 = r#"{"name": "cast_value", "configuration": {"data_type": "uint8",
        "scalar_map": {"encode": [["NaN", 255]], "decode": [[255, "NaN"]]}}}"#;
    let offset = r#"{"name": "scale_offset", "configuration": {"offset": 300, "scale": 1}}"#;
    let sharding = |inner: &str| {
        format!(
            r#"{{"name": "sharding_indexed", "configuration": {{"chunk_shape": [2, 2],
            "codecs": [{inner}{{"name": "bytes"}}],
            "index_codecs": [{{"name": "bytes", "configuration": {{"endian": "little"}}}}]}}}}"#
        )
    };
    for codecs in [
        format!("[{offset}, {uint8}, {}]", sharding("")),
        format!("[{}]", sharding(&format!("{offset}, {uint8}, "))),
    ] {
        let a = array("float32", r#""NaN""#, &[4, 12], &[4, 4], &codecs);
        // Row 1, columns 3..6: 303, 304, 305 (inner chunks (0, 1) of shard 0 and (0, 0) of
        // shard 1); shard 2 is never written.
        a.store_array_subset(&subset(&[1..2, 3..6]), vec![303.0f32, 304.0, 305.0])
            .unwrap();
        // A shard: its stored inner chunks, then the index (offset, length) as little-endian
        // u64 per inner chunk in row-major order, u64::MAX twice for an omitted one.
        let shard = |data: &[u8], present: usize| {
            let mut b = data.to_vec();
            for i in 0..4u64 {
                let (offset, len) = if i as usize == present {
                    (0, data.len() as u64)
                } else {
                    (u64::MAX, u64::MAX)
                };
                b.extend(offset.to_le_bytes());
                b.extend(len.to_le_bytes());
            }
            b
        };
        // Shard 0, inner chunk (0, 1) = rows 0..2, columns 2..4: NaN NaN / NaN 303 -> 255 255
        // 255 3; shard 1, inner chunk (0, 0) = rows 0..2, columns 4..6: 255 255 / 4 5.
        assert_eq!(
            stored(&a, "c/0/0"),
            Some(shard(&[255, 255, 255, 3], 1)),
            "{codecs}"
        );
        assert_eq!(
            stored(&a, "c/0/1"),
            Some(shard(&[255, 255, 4, 5], 0)),
            "{codecs}"
        );
        assert_eq!(stored(&a, "c/0/2"), None, "{codecs}");
        let all: Vec<f32> = a.retrieve_array_subset(&a.subset_all()).unwrap();
        let mut expected = [NAN; 48];
        expected[12 + 3] = 303.0;
        expected[12 + 4] = 304.0;
        expected[12 + 5] = 305.0;
        assert_eq!(bits(&all), bits(&expected), "{codecs}");
        let part: Vec<f32> = a.retrieve_array_subset(&subset(&[0..2, 2..6])).unwrap();
        #[rustfmt::skip]
        let expected = [NAN, NAN,   NAN,   NAN,
                        NAN, 303.0, 304.0, 305.0];
        assert_eq!(bits(&part), bits(&expected), "{codecs}");
    }
}

/// The real fill value is still checked: an array whose fill value cannot pass the codecs (the
/// float32 chain with fill 1: 1 - 300 = -299 is outside uint8; with fill 0, which zarrs' zero
/// placeholder cannot be told from: -300) fails wherever zarrs encodes or decodes a chunk, with
/// the codec's fill-value error, whole chunks and subsets alike, sharded or not.
#[test]
fn a_fill_value_that_cannot_pass_is_still_an_error() {
    for (fill, encoded) in [("1", "-299"), ("0", "-300")] {
        let fill_error = |e: String| {
            assert!(
                e.contains("cast_value") && e.contains("fill value") && e.contains(encoded),
                "fill {fill}: {e}"
            );
        };
        let a = array("float32", fill, &[4, 4], &[2, 2], F32_CODECS);
        fill_error(
            a.store_chunk(&[0, 0], vec![301.0f32; 4])
                .unwrap_err()
                .to_string(),
        );
        fill_error(
            a.store_array_subset(&a.subset_all(), vec![301.0f32; 16])
                .unwrap_err()
                .to_string(),
        );
        fill_error(
            a.store_array_subset(&subset(&[0..1, 0..1]), vec![301.0f32])
                .unwrap_err()
                .to_string(),
        );
        assert_eq!(stored(&a, "c/0/0"), None);
        // A stored chunk (written without zarrs: uint8 1 = 301) does not decode either.
        a.storage()
            .set(&StoreKey::new("c/0/0").unwrap(), vec![1u8; 4].into())
            .unwrap();
        fill_error(
            a.retrieve_chunk::<Vec<f32>>(&[0, 0])
                .unwrap_err()
                .to_string(),
        );
        fill_error(
            a.retrieve_array_subset::<Vec<f32>>(&a.subset_all())
                .unwrap_err()
                .to_string(),
        );
        fill_error(
            a.retrieve_array_subset::<Vec<f32>>(&subset(&[0..1, 0..1]))
                .unwrap_err()
                .to_string(),
        );
        // The same codecs in front of sharding_indexed: writing a subset over both shards fails.
        let sharded = F32_CODECS.replace(
            r#"{"name": "bytes"}]"#,
            r#"{"name": "sharding_indexed", "configuration": {"chunk_shape": [2, 2],
                "codecs": [{"name": "bytes"}], "index_codecs": [{"name": "bytes",
                "configuration": {"endian": "little"}}, {"name": "crc32c"}]}}]"#,
        );
        assert_ne!(sharded, F32_CODECS);
        let s = array("float32", fill, &[4, 8], &[4, 4], &sharded);
        fill_error(
            s.store_array_subset(&subset(&[1..2, 3..6]), vec![301.0f32; 3])
                .unwrap_err()
                .to_string(),
        );
        // zarrs 0.23 does not consult the codecs for a chunk that is not stored (nor gives a
        // codec the fill value when the array is opened): such a chunk reads as the fill value,
        // as it did before (docs/guides/rust.md).
        let never: Vec<f32> = a.retrieve_chunk(&[1, 1]).unwrap();
        let fill: f32 = fill.parse().unwrap();
        assert_eq!(never, [fill; 4]);
    }
}

/// `encoded_fill_value` itself (int8, `(x + 100) * 2`): the encoded fill of a fill value that
/// passes; for one that cannot pass (zarrs also passes placeholders, transformed by the codecs
/// before), a zero placeholder, while `encode` and `decode` with that fill value are the
/// fill-value error. A configuration the data type rejects is still an error.
#[test]
fn encoded_fill_value_of_a_fill_that_cannot_pass_is_a_placeholder() {
    let codec = |json: &str| {
        let m: MetadataV3 = serde_json::from_str(json).unwrap();
        ScaleOffsetCodec::from_metadata(&m).unwrap()
    };
    let c = codec(r#"{"name": "scale_offset", "configuration": {"offset": -100, "scale": 2}}"#);
    let int8 = data_type::int8();
    // -99 -> (-99 + 100) * 2 = 2; 0 -> 200 and 1 -> 202 are outside int8.
    let fill = |v: i8| c.encoded_fill_value(&int8, &FillValue::from(v)).unwrap();
    assert_eq!(fill(-99), FillValue::from(2i8));
    assert_eq!(fill(0), FillValue::from(0i8));
    assert_eq!(fill(1), FillValue::from(0i8));
    let shape = [NonZeroU64::MIN];
    for (v, encoded) in [(0i8, "200"), (1, "202")] {
        let fill = FillValue::from(v);
        let options = CodecOptions::default();
        let bytes = || ArrayBytes::new_flen(vec![0u8]);
        let e = c.encode(bytes(), &shape, &int8, &fill, &options);
        let e = e.unwrap_err().to_string();
        assert!(
            e.starts_with("scale_offset: ") && e.contains(&format!("fill value {v}")),
            "{e}"
        );
        assert!(e.contains(encoded), "{e}");
        let e = c.decode(bytes(), &shape, &int8, &fill, &options);
        let e = e.unwrap_err().to_string();
        assert!(
            e.contains(&format!("fill value {v}")) && e.contains(encoded),
            "{e}"
        );
    }
    // An offset int8 cannot hold fails with or without a fill value.
    let c = codec(r#"{"name": "scale_offset", "configuration": {"offset": 1000}}"#);
    let e = c
        .encoded_fill_value(&int8, &FillValue::from(0i8))
        .unwrap_err();
    assert!(e.to_string().contains("offset"), "{e}");
}
