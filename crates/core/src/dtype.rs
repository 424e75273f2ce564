//! The 26 data types: name, in-memory size, integer range or float format, typed-array kind.

use crate::error::{Error, ErrorCode, Result};
use crate::num::{FloatFormat, IntFormat, FORMATS};

/// Whether a data type is an integer or a float type.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum Kind {
    /// int2 ... uint64.
    Int(IntFormat),
    /// float4_e2m1fn ... float64.
    Float(FloatFormat),
}

/// One of the 26 numeric data types of the scale_offset / cast_value specs.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
#[allow(missing_docs)]
pub enum DataType {
    Int2,
    Int4,
    Int8,
    Int16,
    Int32,
    Int64,
    UInt2,
    UInt4,
    UInt8,
    UInt16,
    UInt32,
    UInt64,
    Float4E2M1FN,
    Float6E2M3FN,
    Float6E3M2FN,
    Float8E3M4,
    Float8E4M3,
    Float8E4M3B11FNUZ,
    Float8E4M3FNUZ,
    Float8E5M2,
    Float8E5M2FNUZ,
    Float8E8M0FNU,
    BFloat16,
    Float16,
    Float32,
    Float64,
}

/// The JS typed-array kind that holds a data type in memory.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum ArrayKind {
    /// Int8Array (int2, int4 sign-extended; int8).
    Int8,
    /// Uint8Array (uint2/uint4 zero-extended; uint8; 4/6/8-bit float codes in the low bits).
    Uint8,
    /// Int16Array.
    Int16,
    /// Uint16Array (uint16; bfloat16 raw bits).
    Uint16,
    /// Int32Array.
    Int32,
    /// Uint32Array.
    Uint32,
    /// BigInt64Array.
    BigInt64,
    /// BigUint64Array.
    BigUint64,
    /// Float16Array where the runtime has one, else Uint16Array of raw bits.
    Float16,
    /// Float32Array.
    Float32,
    /// Float64Array.
    Float64,
}

impl ArrayKind {
    /// The JS constructor name.
    pub fn js_name(self) -> &'static str {
        match self {
            ArrayKind::Int8 => "Int8Array",
            ArrayKind::Uint8 => "Uint8Array",
            ArrayKind::Int16 => "Int16Array",
            ArrayKind::Uint16 => "Uint16Array",
            ArrayKind::Int32 => "Int32Array",
            ArrayKind::Uint32 => "Uint32Array",
            ArrayKind::BigInt64 => "BigInt64Array",
            ArrayKind::BigUint64 => "BigUint64Array",
            ArrayKind::Float16 => "Float16Array",
            ArrayKind::Float32 => "Float32Array",
            ArrayKind::Float64 => "Float64Array",
        }
    }
}

use DataType::*;

/// All 26 data types, in the order of the spec's list.
pub const ALL: [DataType; 26] = [
    Int2,
    Int4,
    Int8,
    Int16,
    Int32,
    Int64,
    UInt2,
    UInt4,
    UInt8,
    UInt16,
    UInt32,
    UInt64,
    Float4E2M1FN,
    Float6E2M3FN,
    Float6E3M2FN,
    Float8E3M4,
    Float8E4M3,
    Float8E4M3B11FNUZ,
    Float8E4M3FNUZ,
    Float8E5M2,
    Float8E5M2FNUZ,
    Float8E8M0FNU,
    BFloat16,
    Float16,
    Float32,
    Float64,
];

impl DataType {
    /// The Zarr v3 name.
    pub fn name(self) -> &'static str {
        match self.kind() {
            Kind::Float(f) => f.name,
            Kind::Int(_) => match self {
                Int2 => "int2",
                Int4 => "int4",
                Int8 => "int8",
                Int16 => "int16",
                Int32 => "int32",
                Int64 => "int64",
                UInt2 => "uint2",
                UInt4 => "uint4",
                UInt8 => "uint8",
                UInt16 => "uint16",
                UInt32 => "uint32",
                _ => "uint64",
            },
        }
    }

    /// Looks a data type up by its Zarr v3 name.
    pub fn from_name(name: &str) -> Option<DataType> {
        ALL.iter().copied().find(|d| d.name() == name)
    }

    /// Like `from_name`, with an `unsupported_data_type` error naming the pointer.
    pub fn parse(name: &str, pointer: &str) -> Result<DataType> {
        DataType::from_name(name).ok_or_else(|| {
            Error::at(
                ErrorCode::UnsupportedDataType,
                pointer,
                format!(
                    "data type {} is not one of the 26 numeric types this codec family supports",
                    crate::text::Quoted(name)
                ),
            )
        })
    }

    /// Integer range or float format.
    pub fn kind(self) -> Kind {
        let int = |bits, signed| Kind::Int(IntFormat { bits, signed });
        match self {
            Int2 => int(2, true),
            Int4 => int(4, true),
            Int8 => int(8, true),
            Int16 => int(16, true),
            Int32 => int(32, true),
            Int64 => int(64, true),
            UInt2 => int(2, false),
            UInt4 => int(4, false),
            UInt8 => int(8, false),
            UInt16 => int(16, false),
            UInt32 => int(32, false),
            UInt64 => int(64, false),
            Float4E2M1FN => Kind::Float(FORMATS[0]),
            Float6E2M3FN => Kind::Float(FORMATS[1]),
            Float6E3M2FN => Kind::Float(FORMATS[2]),
            Float8E3M4 => Kind::Float(FORMATS[3]),
            Float8E4M3 => Kind::Float(FORMATS[4]),
            Float8E4M3B11FNUZ => Kind::Float(FORMATS[5]),
            Float8E4M3FNUZ => Kind::Float(FORMATS[6]),
            Float8E5M2 => Kind::Float(FORMATS[7]),
            Float8E5M2FNUZ => Kind::Float(FORMATS[8]),
            Float8E8M0FNU => Kind::Float(FORMATS[9]),
            BFloat16 => Kind::Float(FORMATS[10]),
            Float16 => Kind::Float(FORMATS[11]),
            Float32 => Kind::Float(FORMATS[12]),
            Float64 => Kind::Float(FORMATS[13]),
        }
    }

    /// The float format, for float types.
    pub fn float(self) -> Option<FloatFormat> {
        match self.kind() {
            Kind::Float(f) => Some(f),
            Kind::Int(_) => None,
        }
    }

    /// The integer range, for integer types.
    pub fn int(self) -> Option<IntFormat> {
        match self.kind() {
            Kind::Int(i) => Some(i),
            Kind::Float(_) => None,
        }
    }

    /// Width of the value in bits (2, 4, 6, 8, 16, 32 or 64).
    pub fn bits(self) -> u32 {
        match self.kind() {
            Kind::Int(i) => i.bits,
            Kind::Float(f) => f.bits,
        }
    }

    /// Bytes per element, in memory and under the `bytes` codec (sub-byte types take one byte).
    pub fn size(self) -> usize {
        (self.bits() as usize).div_ceil(8)
    }

    /// Whether the `bytes` codec needs an `endian` for this type.
    pub fn needs_endian(self) -> bool {
        self.size() > 1
    }

    /// The JS typed-array kind.
    pub fn array_kind(self) -> ArrayKind {
        match self {
            Int2 | Int4 | Int8 => ArrayKind::Int8,
            UInt2 | UInt4 | UInt8 => ArrayKind::Uint8,
            Int16 => ArrayKind::Int16,
            UInt16 | BFloat16 => ArrayKind::Uint16,
            Int32 => ArrayKind::Int32,
            UInt32 => ArrayKind::Uint32,
            Int64 => ArrayKind::BigInt64,
            UInt64 => ArrayKind::BigUint64,
            Float16 => ArrayKind::Float16,
            Float32 => ArrayKind::Float32,
            Float64 => ArrayKind::Float64,
            _ => ArrayKind::Uint8,
        }
    }

    /// Reads element `i` of an in-memory little-endian buffer as raw bits (sign-extended for
    /// signed integers; the low `bits()` bits only, so upper bits of sub-byte values are ignored).
    /// The caller guarantees `i < buf.len() / size()`.
    #[inline]
    pub fn read_bits(self, buf: &[u8], i: usize) -> u64 {
        let n = self.size();
        let mut b = [0u8; 8];
        if let Some(src) = buf.get(i * n..i * n + n) {
            if let Some(d) = b.get_mut(..n) {
                // PROOF: `copy_from_slice` panics only on unequal lengths; both are `n` here.
                d.copy_from_slice(src);
            }
        }
        let raw = u64::from_le_bytes(b);
        match self.kind() {
            Kind::Int(f) => f.to_bits(f.from_bits(raw)),
            Kind::Float(f) => raw & f.mask(),
        }
    }

    /// Writes raw bits as element `i` of an in-memory little-endian buffer (sub-byte integers
    /// sign- or zero-extended to the byte, narrow float codes zero-extended).
    #[inline]
    pub fn write_bits(self, buf: &mut [u8], i: usize, bits: u64) {
        let n = self.size();
        let v = match self.kind() {
            Kind::Int(f) => f.to_bits(f.from_bits(bits)),
            Kind::Float(f) => bits & f.mask(),
        };
        if let Some(dst) = buf.get_mut(i * n..i * n + n) {
            if let Some(s) = v.to_le_bytes().get(..n) {
                // PROOF: `copy_from_slice` panics only on unequal lengths; both are `n` here.
                dst.copy_from_slice(s);
            }
        }
    }
}

impl std::fmt::Display for DataType {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(self.name())
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn names_roundtrip_and_sizes() {
        assert_eq!(ALL.len(), 26);
        for d in ALL {
            assert_eq!(DataType::from_name(d.name()), Some(d));
        }
        assert_eq!(Int4.size(), 1);
        assert_eq!(Float6E3M2FN.size(), 1);
        assert_eq!(BFloat16.size(), 2);
        assert_eq!(UInt64.size(), 8);
        assert!(DataType::from_name("bool").is_none());
        assert_eq!(
            DataType::parse("complex64", "/data_type").unwrap_err().code,
            ErrorCode::UnsupportedDataType
        );
    }

    #[test]
    fn sub_byte_read_ignores_upper_bits() {
        let buf = [0xf7u8, 0x0e, 0xfe];
        assert_eq!(Int4.int().unwrap().from_bits(Int4.read_bits(&buf, 0)), 7);
        assert_eq!(Int4.int().unwrap().from_bits(Int4.read_bits(&buf, 1)), -2);
        assert_eq!(UInt2.read_bits(&buf, 2), 2);
        assert_eq!(Float4E2M1FN.read_bits(&buf, 0), 0x7);
        let mut out = [0u8; 1];
        Int2.write_bits(&mut out, 0, Int2.int().unwrap().to_bits(-2));
        assert_eq!(out[0], 0xfe);
    }
}
