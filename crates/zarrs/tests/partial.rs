//! Partial decoding: zarrs reads a subset of a chunk through the plugin's codecs by asking the
//! codec before for the same subset and decoding only those elements (the codecs are
//! elementwise), so a read allocates what it asked for, not the chunk.
//!
//! Issue 29, item 6: a float32 array of shape [2^62] in chunks of [2^34] with `scale_offset`,
//! nothing stored: reading 4 elements made zarrs decode the whole missing chunk (2^34 fill
//! elements, 64 GiB) and the process ended in "memory allocation of 68719476736 bytes failed"
//! (SIGABRT), because the codec declared no partial decoding. The test of that reproduction runs
//! in a child process (this test binary again) under a 4 GB address-space limit.
//!
//! Expected values are worked out by hand in the comments, not computed by the plugin or the
//! core.
#![allow(clippy::restriction)]
// `subset(&[1..3])`: a 1-D subset is one range in a slice of ranges.
#![allow(clippy::single_range_in_vec_init)]

mod common;

use common::memory_array as array;

use std::process::Command;

use zarrs::array::{
    data_type, Array, ArrayBytes, ArraySubset, ArrayToArrayCodecTraits, CodecOptions, FillValue,
};
use zarrs::metadata::v3::MetadataV3;
use zarrs::storage::store::MemoryStore;
use zarrs::storage::{ReadableStorageTraits, StoreKey, WritableStorageTraits};
use zarrs_scale_offset::ScaleOffsetCodec;

fn subset(ranges: &[std::ops::Range<u64>]) -> ArraySubset {
    ArraySubset::new_with_ranges(ranges)
}

/// Stores `bytes` as chunk `key` (`"c/0/1"`) without zarrs' encoder.
fn put(array: &Array<MemoryStore>, key: &str, bytes: Vec<u8>) {
    array
        .storage()
        .set(&StoreKey::new(key).unwrap(), bytes.into())
        .unwrap();
}

/// Set in the child process that runs a test body under the address-space limit.
const CHILD: &str = "ZARRS_SCALE_OFFSET_PARTIAL_CHILD";

/// The address-space limit of the child, in KiB (`ulimit -v`): about 3.8 GiB, far below one
/// huge chunk (64 GiB) and far above what the test needs.
const LIMIT_KIB: u64 = 4_000_000;

/// Runs `body` in a child process: this test binary again, only test `name`, with `CHILD` set
/// and its address space limited to `LIMIT_KIB`, so that an allocation of a whole huge chunk
/// fails there (Rust aborts on a failed allocation: SIGABRT) instead of taking the machine's
/// memory. The parent asserts that the child succeeded and ran the test; in the child, `body`
/// runs.
fn in_child_with_little_memory(name: &str, body: fn()) {
    if std::env::var_os(CHILD).is_some() {
        body();
        return;
    }
    let exe = std::env::current_exe().unwrap();
    let out = Command::new("sh")
        .arg("-c")
        .arg(format!("ulimit -v {LIMIT_KIB} && exec \"$0\" \"$@\""))
        .arg(exe)
        .args([name, "--exact", "--nocapture", "--test-threads=1"])
        .env(CHILD, "1")
        .output()
        .unwrap();
    let stdout = String::from_utf8_lossy(&out.stdout);
    let stderr = String::from_utf8_lossy(&out.stderr);
    #[cfg(unix)]
    let signal = std::os::unix::process::ExitStatusExt::signal(&out.status);
    #[cfg(not(unix))]
    let signal: Option<i32> = None;
    assert!(
        out.status.success(),
        "child {name}: {} (signal {signal:?})\n--- stdout\n{stdout}\n--- stderr\n{stderr}",
        out.status
    );
    assert!(
        stdout.contains(&format!("test {name} ... ok")) && stdout.contains("1 passed"),
        "child {name} did not run the test\n--- stdout\n{stdout}\n--- stderr\n{stderr}"
    );
}

/// 2^62 elements in chunks of 2^34 (a float32 chunk is 64 GiB; there are 2^28 of them).
const HUGE: u64 = 1 << 62;
const HUGE_CHUNK: u64 = 1 << 34;

/// The reproduction of issue 29, item 6, and its relatives, each with nothing stored: 4
/// elements at the start of chunk 0 and 4 inside chunk 2^6 (elements 2^40 + 5 .. 2^40 + 9) read
/// as the decoded fill value, with the fill 0 and a fill 3 that each codec chain carries through
/// exactly.
#[test]
fn a_subset_of_a_huge_missing_chunk_allocates_only_the_subset() {
    in_child_with_little_memory(
        "a_subset_of_a_huge_missing_chunk_allocates_only_the_subset",
        || {
            let so = r#"{"name": "scale_offset", "configuration": {"scale": 2}}"#;
            let cast = r#"{"name": "cast_value", "configuration": {"data_type": "uint8"}}"#;
            let cf = r#"{"name": "cf.scale_offset", "configuration": {"scale": 0.5, "offset": 1}}"#;
            let bytes = r#"{"name": "bytes"}"#;
            let sharding = r#"{"name": "sharding_indexed", "configuration": {
                "chunk_shape": [1024], "codecs": [{"name": "bytes"}],
                "index_codecs": [{"name": "bytes", "configuration": {"endian": "little"}}]}}"#;
            let chains = [
                // The issue's document. Fill 3: encoded (3 - 0) * 2 = 6, decoded 6 / 2 = 3.
                format!("[{so}, {bytes}]"),
                // Fill 3: 6.0 -> uint8 6 -> 6.0 -> 3.
                format!("[{so}, {cast}, {bytes}]"),
                // cf.scale_offset encodes (x - 1) / 0.5, decodes x * 0.5 + 1: fill 3 -> 4 -> 3,
                // fill 0 -> -2 -> 0.
                format!("[{cf}, {bytes}]"),
                // In front of sharding_indexed: each chunk is a shard of 2^24 inner chunks.
                format!("[{so}, {sharding}]"),
            ];
            for codecs in &chains {
                for (fill, value) in [("0", 0.0f32), ("3", 3.0)] {
                    let a = array("float32", fill, &[HUGE], &[HUGE_CHUNK], codecs);
                    let start: Vec<f32> = a.retrieve_array_subset(&subset(&[0..4])).unwrap();
                    assert_eq!(start, [value; 4], "{codecs}, fill {fill}");
                    let inside = (1u64 << 40) + 5..(1u64 << 40) + 9;
                    let inside: Vec<f32> = a.retrieve_array_subset(&subset(&[inside])).unwrap();
                    assert_eq!(inside, [value; 4], "{codecs}, fill {fill}");
                    let chunk: Vec<f32> = a
                        .retrieve_chunk_subset(&[1 << 20], &subset(&[7..9]))
                        .unwrap();
                    assert_eq!(chunk, [value; 2], "{codecs}, fill {fill}");
                }
            }
        },
    );
}

/// A whole chunk whose decoded elements cannot be allocated is an error, not an abort: float64
/// through `cast_value(int8)`, 600,000,000 stored int8 elements (600 MB, held by the caller)
/// decode to 4.8 GB of float64, more than the child's address space.
#[test]
fn a_chunk_whose_output_cannot_be_allocated_is_an_error() {
    in_child_with_little_memory(
        "a_chunk_whose_output_cannot_be_allocated_is_an_error",
        || {
            let m: MetadataV3 = serde_json::from_str(
                r#"{"name": "cast_value", "configuration": {"data_type": "int8"}}"#,
            )
            .unwrap();
            let codec = ScaleOffsetCodec::from_metadata(&m).unwrap();
            let n = 600_000_000u64;
            let shape = [std::num::NonZeroU64::new(n).unwrap()];
            let e = codec.decode(
                ArrayBytes::new_flen(vec![0u8; n as usize]),
                &shape,
                &data_type::float64(),
                &FillValue::from(0.0f64),
                &CodecOptions::default(),
            );
            let e = e.unwrap_err().to_string();
            assert!(
                e.contains("cast_value: the output (4800000000 bytes) cannot be allocated"),
                "{e}"
            );
        },
    );
}

/// A stored 2-D chunk, float32 [6, 8] through `scale_offset(offset 10, scale 4)` and
/// `cast_value(int16)`: the stored int16 of row r, column c is 8 r + c, which decodes to
/// (8 r + c) / 4 + 10, exact in float32. Interior subsets read from the stored chunk.
#[test]
fn interior_subsets_of_a_stored_2d_chunk() {
    let codecs = r#"[{"name": "scale_offset", "configuration": {"offset": 10, "scale": 4}},
        {"name": "cast_value", "configuration": {"data_type": "int16"}},
        {"name": "bytes", "configuration": {"endian": "little"}}]"#;
    let a = array("float32", "10", &[6, 8], &[6, 8], codecs);
    put(&a, "c/0/0", (0..48i16).flat_map(i16::to_le_bytes).collect());
    // Rows 1..3, columns 2..7: stored 10 .. 14 and 18 .. 22.
    let part: Vec<f32> = a.retrieve_array_subset(&subset(&[1..3, 2..7])).unwrap();
    #[rustfmt::skip]
    let expected = [12.5, 12.75, 13.0, 13.25, 13.5,
                    14.5, 14.75, 15.0, 15.25, 15.5];
    assert_eq!(part, expected);
    // One element (row 5, column 7: stored 47 -> 11.75 + 10), a column (column 0, rows 2..6:
    // 16, 24, 32, 40 -> 14, 16, 18, 20) and the same subset through retrieve_chunk_subset.
    let one: Vec<f32> = a.retrieve_array_subset(&subset(&[5..6, 7..8])).unwrap();
    assert_eq!(one, [21.75]);
    let column: Vec<f32> = a.retrieve_array_subset(&subset(&[2..6, 0..1])).unwrap();
    assert_eq!(column, [14.0, 16.0, 18.0, 20.0]);
    let part: Vec<f32> = a
        .retrieve_chunk_subset(&[0, 0], &subset(&[1..3, 2..7]))
        .unwrap();
    assert_eq!(part, expected);
    // The whole chunk (zarrs' full-chunk path) agrees on those elements: row 1 = 12 .. 13.75.
    let all: Vec<f32> = a.retrieve_chunk(&[0, 0]).unwrap();
    assert_eq!(
        all[8..16],
        [12.0, 12.25, 12.5, 12.75, 13.0, 13.25, 13.5, 13.75]
    );
}

/// 1-D float64 through `cf.scale_offset(scale 0.25, offset -1)` and `cast_value(uint8)`, two
/// chunks of 16, written by zarrs: the value -1 + i / 4 is stored as the uint8 i. A subset inside
/// the written chunk, and one across it and the never-written chunk (fill 0 -> (0 + 1) / 0.25 = 4
/// -> 4 * 0.25 - 1 = 0).
#[test]
fn subsets_of_a_stored_1d_chunk_written_by_zarrs() {
    let codecs = r#"[{"name": "cf.scale_offset", "configuration": {"scale": 0.25, "offset": -1}},
        {"name": "cast_value", "configuration": {"data_type": "uint8"}}, {"name": "bytes"}]"#;
    let a = array("float64", "0", &[32], &[16], codecs);
    let values: Vec<f64> = (0..16).map(|i| -1.0 + f64::from(i) / 4.0).collect();
    a.store_chunk(&[0], values).unwrap();
    let stored = a.storage().get(&StoreKey::new("c/0").unwrap()).unwrap();
    assert_eq!(stored.unwrap().to_vec(), (0..16u8).collect::<Vec<_>>());
    let part: Vec<f64> = a.retrieve_array_subset(&subset(&[3..7])).unwrap();
    assert_eq!(part, [-0.25, 0.0, 0.25, 0.5]);
    let across: Vec<f64> = a.retrieve_array_subset(&subset(&[14..18])).unwrap();
    assert_eq!(across, [2.5, 2.75, 0.0, 0.0]);
}

/// int4 through `scale_offset(offset 1, scale 2)` (decode x / 2 + 1), one stored byte per element
/// with arbitrary upper bits (only the low 4 bits count, sign-extended): 0x00 -> 0 -> 1,
/// 0xf2 -> 2 -> 2, 0x3c -> -4 -> -1, 0x06 -> 6 -> 4, 0x08 -> -8 -> -3, 0xfe -> -2 -> 0,
/// 0x1a -> -6 -> -2, 0x04 -> 4 -> 3.
#[test]
fn a_subset_of_a_sub_byte_chunk_keeps_the_low_bits() {
    let codecs = r#"[{"name": "scale_offset", "configuration": {"offset": 1, "scale": 2}},
        {"name": "bytes"}]"#;
    let a = array("int4", "1", &[8], &[8], codecs);
    put(
        &a,
        "c/0",
        vec![0x00, 0xf2, 0x3c, 0x06, 0x08, 0xfe, 0x1a, 0x04],
    );
    let part: Vec<i8> = a.retrieve_array_subset(&subset(&[1..7])).unwrap();
    assert_eq!(part, [2, -1, 4, -3, 0, -2]);
    let all: Vec<i8> = a.retrieve_chunk(&[0]).unwrap();
    assert_eq!(all, [1, 2, -1, 4, -3, 0, -2, 3]);
}

/// int8 through `scale_offset(offset 3)` (decode x + 3), stored [0, 125, 1, 2]: element 1
/// decodes to 128, outside int8. A subset that holds it fails with the core's `out_of_range`;
/// one without it decodes (3 + 1 = 4, 3 + 2 = 5), as zarrs reads only the requested elements
/// through the codec. The whole chunk fails. The element number in the message counts the
/// elements decoded: the chunk's for a whole chunk, the subset's (in C order) for a subset.
#[test]
fn an_element_that_cannot_decode_matters_only_inside_the_subset() {
    let codecs = r#"[{"name": "scale_offset", "configuration": {"offset": 3}}, {"name": "bytes"}]"#;
    let a = array("int8", "0", &[4], &[4], codecs);
    put(&a, "c/0", vec![0, 125, 1, 2]);
    let fine: Vec<i8> = a.retrieve_array_subset(&subset(&[2..4])).unwrap();
    assert_eq!(fine, [4, 5]);
    let fine: Vec<i8> = a.retrieve_array_subset(&subset(&[0..1])).unwrap();
    assert_eq!(fine, [3]);
    let error = |e: String, element: &str| {
        assert!(
            e.contains("scale_offset: out_of_range") && e.contains(element),
            "{element}: {e}"
        );
    };
    let e = a.retrieve_array_subset::<Vec<i8>>(&subset(&[1..3]));
    error(e.unwrap_err().to_string(), "element 0");
    let e = a.retrieve_chunk_subset::<Vec<i8>>(&[0], &subset(&[0..2]));
    error(e.unwrap_err().to_string(), "element 1");
    let e = a.retrieve_chunk::<Vec<i8>>(&[0]);
    error(e.unwrap_err().to_string(), "element 1");
}

/// float32 [4, 8] in one shard of 2 x 2 inner chunks of [2, 4] whose codecs are
/// `scale_offset(offset 10, scale 4)` + `cast_value(int16)`: written by zarrs with the value
/// (8 r + c) / 4 + 10 at row r, column c (stored int16 8 r + c); subsets inside one inner chunk and
/// across all four read back.
#[test]
fn subsets_of_a_shard_whose_inner_codecs_are_ours() {
    let codecs = r#"[{"name": "sharding_indexed", "configuration": {"chunk_shape": [2, 4],
        "codecs": [{"name": "scale_offset", "configuration": {"offset": 10, "scale": 4}},
            {"name": "cast_value", "configuration": {"data_type": "int16"}},
            {"name": "bytes", "configuration": {"endian": "little"}}],
        "index_codecs": [{"name": "bytes", "configuration": {"endian": "little"}}]}}]"#;
    let a = array("float32", "10", &[4, 8], &[4, 8], codecs);
    let values: Vec<f32> = (0..32u8).map(|i| f32::from(i) / 4.0 + 10.0).collect();
    a.store_array_subset(&a.subset_all(), values).unwrap();
    // Inner chunk (1, 1) = rows 2..4, columns 4..8; rows 2..4, columns 5..7: 21, 22 / 29, 30.
    let inner: Vec<f32> = a.retrieve_array_subset(&subset(&[2..4, 5..7])).unwrap();
    assert_eq!(inner, [15.25, 15.5, 17.25, 17.5]);
    // Rows 1..3, columns 3..6, over the four inner chunks: 11, 12, 13 / 19, 20, 21.
    let across: Vec<f32> = a.retrieve_array_subset(&subset(&[1..3, 3..6])).unwrap();
    assert_eq!(across, [12.75, 13.0, 13.25, 14.75, 15.0, 15.25]);
    let across: Vec<f32> = a
        .retrieve_chunk_subset(&[0, 0], &subset(&[1..3, 3..6]))
        .unwrap();
    assert_eq!(across, [12.75, 13.0, 13.25, 14.75, 15.0, 15.25]);
}

/// zarrs 0.23.14 checks the stored length of a chunk only when it decodes the whole chunk: a
/// subset read takes the byte ranges it needs from a stored chunk that is too short or too long
/// (docs/UPSTREAM.md, "zarrs"). With or without the plugin, int8 chunks of 4 (here `bytes`
/// alone, and `scale_offset(offset 3)`: decode x + 3), stored as 3 and as 5 bytes.
#[test]
fn zarrs_reads_subsets_of_a_stored_chunk_of_the_wrong_length() {
    let so = r#"{"name": "scale_offset", "configuration": {"offset": 3}}, "#;
    for (prefix, add) in [("", 0i8), (so, 3)] {
        let codecs = format!(r#"[{prefix}{{"name": "bytes"}}]"#);
        let a = array("int8", "0", &[4], &[4], &codecs);
        for stored in [vec![1u8, 2, 3], vec![1, 2, 3, 4, 5]] {
            put(&a, "c/0", stored.clone());
            let whole = a.retrieve_chunk::<Vec<i8>>(&[0]);
            assert!(whole.is_err(), "{codecs} {stored:?}: {whole:?}");
            let part: Vec<i8> = a.retrieve_array_subset(&subset(&[1..3])).unwrap();
            assert_eq!(part, [2 + add, 3 + add], "{codecs} {stored:?}");
        }
    }
}

/// zarrs 0.23.14 panics (in a rayon thread, the panic resumed in the caller) on a shard whose
/// index gives an inner chunk the offset 2^64 - 2 and length 2: `offset + size` wraps to 0 in a
/// release build and passes the bounds check, then slicing panics
/// (sharding_codec.rs:355, "range start index 18446744073709551614 out of range for slice of
/// length 36"); a build of zarrs with overflow checks (tests' default) panics one step earlier
/// (:347, "attempt to add with overflow"). Not the plugin's: `bytes` alone inside the shard. uint8 [4] in one shard of two inner
/// chunks of 2: 4 data bytes and an index of 2 x 16 bytes, 36 bytes. Pinned here so that a
/// zarrs that fixes it (an error instead) is noticed (docs/UPSTREAM.md, "zarrs").
#[test]
fn zarrs_panics_on_a_shard_index_offset_near_u64_max() {
    let codecs = r#"[{"name": "sharding_indexed", "configuration": {"chunk_shape": [2],
        "codecs": [{"name": "bytes"}],
        "index_codecs": [{"name": "bytes", "configuration": {"endian": "little"}}]}}]"#;
    let a = array("uint8", "0", &[4], &[4], codecs);
    let mut shard = vec![1u8, 2, 3, 4];
    for (offset, len) in [(0u64, 2u64), (u64::MAX - 1, 2)] {
        shard.extend(offset.to_le_bytes());
        shard.extend(len.to_le_bytes());
    }
    assert_eq!(shard.len(), 36);
    put(&a, "c/0", shard);
    let read = std::panic::catch_unwind(std::panic::AssertUnwindSafe(|| {
        a.retrieve_chunk::<Vec<u8>>(&[0])
    }));
    let message = match &read {
        Err(p) => p
            .downcast_ref::<String>()
            .cloned()
            .or_else(|| p.downcast_ref::<&str>().map(|s| s.to_string()))
            .unwrap_or_default(),
        Ok(r) => panic!("no panic: {r:?}"),
    };
    assert!(
        message.contains("out of range for slice") || message.contains("overflow"),
        "{message}"
    );
}
