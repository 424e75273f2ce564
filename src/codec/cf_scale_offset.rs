//! The `cf.scale_offset` codec: the multiply-to-unpack sibling of `scale_offset` (encode
//! `(x - offset) / scale`, decode `x * scale + offset`), as CF, GDAL and xarray pack data.
//!
//! - Proposal: zarr-extensions issue #64 (`../shared/seeds/`), "cf.scale_offset"; this project's
//!   draft specification: `docs/spec/cf.scale_offset.md` (vectors:
//!   `conformance/vectors/cf_scale_offset.json`).
//! - Names: Zarr v3 `cf.scale_offset`; no Zarr v2 / numcodecs id.
//! - Configuration: as `scale_offset` (`{"scale": 0.01, "offset": 273.15}`, both optional
//!   scalars of the data type); the arithmetic, its rounding and its errors are
//!   [`super::scale_offset`]'s with the operations swapped ([`Convention::Cf`]), except that a
//!   missing offset is no step at all (xarray adds `add_offset` only when present: `-0.0`
//!   decodes to `-0.0`), where `scale_offset` adds `+0.0`.
//!
//! ```
//! // float32: 2 * 0.5 + 10 = 11, computed in float32.
//! let stored = 2f32.to_le_bytes();
//! let decoded = zarr_scale_offset::decode(
//!     r#"{"name":"cf.scale_offset","configuration":{"scale":0.5,"offset":10}}"#,
//!     "float32",
//!     &stored,
//! )
//! .unwrap();
//! assert_eq!(decoded, 11f32.to_le_bytes());
//!
//! // A missing offset adds nothing: -0.0 * 2 stays -0.0, as in xarray.decode_cf.
//! let neg = zarr_scale_offset::decode(
//!     r#"{"name":"cf.scale_offset","configuration":{"scale":2}}"#,
//!     "float64",
//!     &(-0.0f64).to_le_bytes(),
//! )
//! .unwrap();
//! assert_eq!(neg, (-0.0f64).to_le_bytes());
//! ```

use super::scale_offset::{bind, Convention};
use super::{Binder, CodecDef, CodecKind};

/// The registry entry of this module.
pub const CODECS: &[CodecDef] = &[CodecDef {
    name: "cf.scale_offset",
    v2: None,
    kind: CodecKind::ArrayToArray,
    binder: Binder::Array(|c, p, t, r| bind(Convention::Cf, c, p, t, r)),
}];
