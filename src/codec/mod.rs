//! The codecs. Each parses its configuration once and binds to the data type it receives.

pub mod bytes;
pub use zarr_scale_offset_core::cast;
pub mod cast_value;
pub mod fixedscaleoffset;
pub mod scale_offset;

pub use bytes::Bytes;
pub use cast_value::CastValue;
pub use scale_offset::ScaleOffset;

use crate::dtype::DataType;
use crate::error::Report;
use crate::json::{parse_scalar, Json};

/// Parses a JSON scalar of `dtype` at `pointer`: an error is reported (giving `None`), a lenient
/// form becomes a `lenient_form` warning.
pub fn scalar(dtype: DataType, v: &Json, pointer: &str, report: &mut Report) -> Option<u64> {
    let s = report.check(parse_scalar(dtype, v, pointer))?;
    if let Some(message) = s.lenient {
        report.warn(pointer, "lenient_form", message);
    }
    Some(s.bits)
}

/// The kind of a codec in a Zarr v3 chain.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum CodecKind {
    /// array -> array.
    ArrayToArray,
    /// array -> bytes.
    ArrayToBytes,
    /// bytes -> bytes.
    BytesToBytes,
}

impl CodecKind {
    /// "array->array" etc.
    pub fn as_str(self) -> &'static str {
        match self {
            CodecKind::ArrayToArray => "array->array",
            CodecKind::ArrayToBytes => "array->bytes",
            CodecKind::BytesToBytes => "bytes->bytes",
        }
    }
}

/// What this crate knows about a codec name: its kind, and whether it is implemented here.
pub fn known_codec(name: &str) -> Option<(CodecKind, bool)> {
    use CodecKind::*;
    Some(match name {
        "scale_offset" | "cast_value" | "cf.scale_offset" | "numcodecs.fixedscaleoffset" => {
            (ArrayToArray, true)
        }
        "bytes" => (ArrayToBytes, true),
        "transpose" | "numcodecs.bitround" | "numcodecs.quantize" | "numcodecs.delta"
        | "numcodecs.astype" => (ArrayToArray, false),
        "sharding_indexed" | "packbits" | "vlen-utf8" | "vlen-bytes" => (ArrayToBytes, false),
        "gzip"
        | "zstd"
        | "blosc"
        | "crc32c"
        | "numcodecs.gzip"
        | "numcodecs.zlib"
        | "numcodecs.zstd"
        | "numcodecs.blosc"
        | "numcodecs.bz2"
        | "numcodecs.lzma"
        | "numcodecs.lz4"
        | "numcodecs.shuffle"
        | "numcodecs.adler32"
        | "numcodecs.fletcher32"
        | "numcodecs.crc32"
        | "numcodecs.crc32c" => (BytesToBytes, false),
        _ => return None,
    })
}
