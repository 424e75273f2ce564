//! The `bytes` codec (array -> bytes): little- or big-endian element bytes; the sub-byte and
//! 4/6/8-bit types take one byte each, upper bits ignored on read and zero on write.
//!
//! - **Spec**: [Zarr v3 core, the `bytes` codec](https://zarr-specs.readthedocs.io/en/latest/v3/codecs/bytes/index.html)
//!   (`zarr-specs/docs/v3/codecs/bytes/index.rst`).
//! - **Names**: v3 `"bytes"` (array -> bytes; the short-hand `"bytes"` is the codec without a
//!   configuration); no Zarr v2 id: a `.zarray`'s `dtype` byte order (`"<u2"`, `">u2"`) becomes
//!   this codec's `endian` (`v2.rs`).
//! - **Configuration**: `{"endian": "little" | "big"}`; `endian` is required for multi-byte
//!   types (after the array -> array codecs) and may be left out for one-byte types.
//!
//! ```
//! use zarr_scale_offset::{decode_chunk, encode_chunk, ErrorCode};
//!
//! let doc = |bytes: &str| format!(r#"{{"zarr_format": 3, "node_type": "array", "shape": [2],
//!     "data_type": "uint16", "fill_value": 0,
//!     "chunk_grid": {{"name": "regular", "configuration": {{"chunk_shape": [2]}}}},
//!     "chunk_key_encoding": {{"name": "default"}}, "codecs": [{bytes}]}}"#);
//! let big = doc(r#"{"name": "bytes", "configuration": {"endian": "big"}}"#);
//! // Stored big-endian 0x0102, 0x0304; in memory little-endian.
//! assert_eq!(decode_chunk(&big, &[1, 2, 3, 4])?, [2, 1, 4, 3]);
//! assert_eq!(encode_chunk(&big, &[2, 1, 4, 3])?, [1, 2, 3, 4]);
//! // uint16 needs an endian: the short-hand "bytes" is invalid metadata here.
//! let e = decode_chunk(&doc(r#""bytes""#), &[1, 2, 3, 4]).unwrap_err();
//! assert_eq!(e.code, ErrorCode::InvalidMetadata);
//! # Ok::<(), zarr_scale_offset::Error>(())
//! ```

use crate::codec::{Binder, BoundArrayToBytes, CodecDef, CodecKind};
use zarr_scale_offset_core::dtype::DataType;
use zarr_scale_offset_core::error::Error;
use crate::report::Report;
use crate::json::{pointer_push, Fields, Json};

/// The registry entry of this module.
pub const CODECS: &[CodecDef] = &[CodecDef {
    name: "bytes",
    v2: None,
    kind: CodecKind::ArrayToBytes,
    binder: Binder::Bytes(|config, pointer, dtype, report| {
        Bytes::parse(config, pointer, dtype, report).map(|b| Box::new(b) as Box<dyn BoundArrayToBytes>)
    }),
}];

/// A `bytes` codec bound to the data type it receives.
#[derive(Debug, Clone, Copy)]
pub struct Bytes {
    dtype: DataType,
    big: bool,
}

impl Bytes {
    /// Parses the configuration for data type `dtype` (`None` when unknown: only the
    /// configuration's shape is checked); `endian` is required for multi-byte types. Every
    /// problem is reported into `report`.
    pub fn parse(
        config: Option<&Json>,
        pointer: &str,
        dtype: Option<DataType>,
        report: &mut Report,
    ) -> Option<Self> {
        let errors_before = report.error_count();
        let cfg_ptr = pointer_push(pointer, "configuration");
        let what = "the bytes configuration";
        let cfg = config.and_then(|c| Fields::open(c, &cfg_ptr, what, &["endian"], report));
        let endian = match cfg.and_then(|f| f.get("endian")) {
            None => None,
            Some(v) => match v.as_str() {
                Some("little") => Some(false),
                Some("big") => Some(true),
                _ => {
                    report.error(Error::metadata(
                        &pointer_push(&cfg_ptr, "endian"),
                        format!(
                            "endian must be \"little\" or \"big\", found {}",
                            v.to_json_string()
                        ),
                    ));
                    None
                }
            },
        };
        let dtype = dtype?;
        if endian.is_none() && dtype.needs_endian() && report.error_count() == errors_before {
            report.error(Error::metadata(
                &pointer_push(&cfg_ptr, "endian"),
                format!("the bytes codec needs \"endian\" for the multi-byte data type {dtype}"),
            ));
        }
        if report.error_count() > errors_before {
            return None;
        }
        Some(Bytes {
            dtype,
            big: endian.unwrap_or(false),
        })
    }

    /// Whether stored bytes and in-memory elements are the same bytes (little-endian, or one
    /// byte holding all 8 bits), so a chain can skip this codec.
    pub fn is_identity(&self) -> bool {
        let n = self.dtype.size();
        (n > 1 && !self.big) || (n == 1 && self.dtype.bits() == 8)
    }

    /// Encodes in-memory elements into stored bytes.
    pub fn encode(&self, input: &[u8]) -> Vec<u8> {
        let n = self.dtype.size();
        if n == 1 {
            let mask = ((1u16 << self.dtype.bits()) - 1) as u8;
            return input.iter().map(|b| b & mask).collect();
        }
        let mut out = input.to_vec();
        if self.big {
            out.chunks_exact_mut(n).for_each(<[u8]>::reverse);
        }
        out
    }

    /// Decodes stored bytes into in-memory elements (sub-byte integers sign- or zero-extended).
    pub fn decode(&self, input: &[u8]) -> Vec<u8> {
        let n = self.dtype.size();
        if n == 1 {
            let mut out = vec![0u8; input.len()];
            for i in 0..input.len() {
                self.dtype
                    .write_bits(&mut out, i, self.dtype.read_bits(input, i));
            }
            return out;
        }
        let mut out = input.to_vec();
        if self.big {
            out.chunks_exact_mut(n).for_each(<[u8]>::reverse);
        }
        out
    }
}

impl BoundArrayToBytes for Bytes {
    fn is_identity(&self) -> bool {
        Bytes::is_identity(self)
    }
    fn encode(&self, input: &[u8]) -> Vec<u8> {
        Bytes::encode(self, input)
    }
    fn decode(&self, input: &[u8]) -> Vec<u8> {
        Bytes::decode(self, input)
    }
}
