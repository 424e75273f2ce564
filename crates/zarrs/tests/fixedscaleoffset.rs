//! `numcodecs.fixedscaleoffset`: zarrs' built-in against this crate's (registered at run time by
//! `register_fixed_scale_offset`), over the two numcodecs fixture stores. A test binary of its own:
//! the registration is process-wide.
#![allow(clippy::restriction)]

mod common;

use common::{first_float_difference, fixture, read_all};

/// How many elements of `store` differ from its expected.bin (any NaN equals any NaN).
fn differences(store: &str, size: usize) -> usize {
    let dir = fixture(store);
    let expected = std::fs::read(dir.join("expected.bin")).unwrap();
    let got = read_all(&dir);
    assert_eq!(got.len(), expected.len(), "{store}");
    got.chunks_exact(size)
        .zip(expected.chunks_exact(size))
        .filter(|(a, b)| first_float_difference(size, a, b).is_some())
        .count()
}

#[test]
fn built_in_and_registered() {
    let stores = [
        // v3 numcodecs.fixedscaleoffset over float64 (zarr-python's numcodecs wrapper), gzip.
        ("topobathy_v3_numcodecs_fixedscaleoffset.zarr", 8),
        // Zarr v2: a fixedscaleoffset filter, float32 stored as uint16, zlib.
        ("mri_v2_fixedscaleoffset.zarr", 4),
    ];
    // zarrs' own codec: reported, not asserted (it is not this crate's).
    for (store, size) in stores {
        eprintln!(
            "zarrs built-in fixedscaleoffset: {store}: {} elements differ from expected.bin",
            differences(store, size)
        );
    }
    let handle = zarrs_scale_offset::register_fixed_scale_offset();
    for (store, size) in stores {
        assert_eq!(
            differences(store, size),
            0,
            "{store} with zarrs-scale-offset's fixedscaleoffset"
        );
    }
    assert!(zarrs_codec::unregister_codec_v3(&handle));
}
