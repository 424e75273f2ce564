//! The numeric data types of the scale_offset / cast_value specs, declared once in the
//! `data_types!` table below, one row per type: the Zarr v3 name, the number format (by name), the
//! in-memory size and stored bits, the JS typed-array kind, the kernel primitive and the NumPy
//! spellings. The enum [`DataType`], [`ALL`], every lookup ([`DataType::from_name`],
//! [`parse_numpy_dtype`], ...) and the JS/TS tables (`js/dtypes.js` and the data-type part of
//! `js/index.d.ts`, written by `scripts/gen-dtypes.mjs` from [`table_json`]) come from it.
//! Also the display of values for messages ([`show`]).
//!
//! Adding a data type is one row here (its float format, if new, is one `const` in
//! `num/format.rs`); the kernels, the JSON scalars and the rounding read the row.

use crate::error::{Error, ErrorCode, Result};
// `*`: the float formats the table's rows name (`F16`, `F8_E4M3`, ...).
use crate::num::*;

/// Whether a data type is an integer or a float type.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum Kind {
    /// int2 ... uint64.
    Int(IntFormat),
    /// float4_e2m1fn ... float64.
    Float(FloatFormat),
}

impl Kind {
    /// Width of the value in bits.
    pub const fn bits(self) -> u32 {
        match self {
            Kind::Int(i) => i.bits,
            Kind::Float(f) => f.bits,
        }
    }
}

/// The Rust primitive a kernel loads an element of a data type as (the table's `prim` column:
/// the data types of exactly 8, 16, 32 or 64 bits whose bits are the primitive's).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
#[allow(missing_docs)]
pub enum Prim {
    I8,
    U8,
    I16,
    U16,
    I32,
    U32,
    I64,
    U64,
    F32,
    F64,
}

impl Prim {
    /// Bytes per element.
    pub const fn size(self) -> usize {
        match self {
            Prim::I8 | Prim::U8 => 1,
            Prim::I16 | Prim::U16 => 2,
            Prim::I32 | Prim::U32 | Prim::F32 => 4,
            Prim::I64 | Prim::U64 | Prim::F64 => 8,
        }
    }

    /// Whether it is `f32` or `f64`.
    pub const fn is_float(self) -> bool {
        matches!(self, Prim::F32 | Prim::F64)
    }
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

    /// Bytes per element.
    pub const fn size(self) -> usize {
        match self {
            ArrayKind::Int8 | ArrayKind::Uint8 => 1,
            ArrayKind::Int16 | ArrayKind::Uint16 | ArrayKind::Float16 => 2,
            ArrayKind::Int32 | ArrayKind::Uint32 | ArrayKind::Float32 => 4,
            ArrayKind::BigInt64 | ArrayKind::BigUint64 | ArrayKind::Float64 => 8,
        }
    }
}

/// How NumPy spells a data type it has (NumPy 2 on 64-bit Linux).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Numpy {
    /// The spelling numcodecs and zarr v2 write: byte order (`<`, or `|` for one byte), kind
    /// letter and size in bytes (`"<i2"`, `"|u1"`, `"<f8"`). [`parse_numpy_dtype`] reads the
    /// kind letter from here, with any byte order and the size of the row.
    pub spelling: &'static str,
    /// The one-letter type codes (`numpy.dtype("h")`; `l`/`L`/`p`/`P` are 64-bit as on LP64).
    pub codes: &'static str,
    /// The type names NumPy accepts without a byte order (`"int16"`, `"short"`).
    pub names: &'static [&'static str],
}

/// One row of the data-type table.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Info {
    /// The Zarr v3 name.
    pub name: &'static str,
    /// Integer range or float format.
    pub kind: Kind,
    /// Bytes per element, in memory and under the `bytes` codec (sub-byte types take one byte).
    pub size: usize,
    /// Stored bits (2, 4, 6, 8, 16, 32 or 64).
    pub bits: u32,
    /// The JS typed-array kind.
    pub array: ArrayKind,
    /// The kernel primitive, when the kernels have one.
    pub prim: Option<Prim>,
    /// The NumPy spellings, for the types NumPy has.
    pub numpy: Option<Numpy>,
}

const fn int(bits: u32, signed: bool) -> Kind {
    Kind::Int(IntFormat { bits, signed })
}

const fn float(f: FloatFormat) -> Kind {
    Kind::Float(f)
}

/// What the table checks of every row at compile time: the bits are the format's, the size is
/// the bits rounded up to bytes, and the typed array and the primitive have that size.
const fn check(i: &Info) {
    assert!(i.bits == i.kind.bits() && i.size == i.bits.div_ceil(8) as usize);
    assert!(i.array.size() == i.size);
    if let Some(p) = i.prim {
        assert!(p.size() == i.size && i.bits as usize == 8 * i.size);
        assert!(p.is_float() == matches!(i.kind, Kind::Float(_)));
    }
    if let Some(n) = i.numpy {
        // `<`/`|`, a kind letter, the size as one digit.
        assert!(
            matches!(n.spelling.as_bytes(), [b'<' | b'|', _, d] if (*d - b'0') as usize == i.size)
        );
    }
}

macro_rules! prim_of {
    (-) => {
        None
    };
    ($p:ident) => {
        Some(Prim::$p)
    };
}

macro_rules! numpy_of {
    (-) => {
        None
    };
    (($spelling:literal, $codes:literal, [$($names:literal),*])) => {
        Some(Numpy { spelling: $spelling, codes: $codes, names: &[$($names),*] })
    };
}

/// Expands the table into [`DataType`], [`COUNT`], [`ALL`] and [`DataType::info`] (a `const` per
/// row, checked at compile time by `check`).
macro_rules! data_types {
    ($($v:ident: $name:literal, $kind:expr, $size:literal, $bits:literal, $array:ident, $prim:tt, $numpy:tt;)*) => {
        /// A numeric data type of the scale_offset / cast_value specs (one row of the table):
        /// its Zarr v3 name, its size in memory and its width in bits. Named from a string with
        /// [`DataType::from_name`] (or `str::parse`) or from a NumPy spelling with
        /// [`DataType::from_numpy`]; every one is in [`DataType::ALL`].
        #[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
        pub enum DataType {
            $(#[doc = concat!("`", $name, "`")] $v,)*
        }

        /// How many data types there are.
        pub const COUNT: usize = [$($name),*].len();

        /// Every data type, in the order of the spec's list.
        pub const ALL: [DataType; COUNT] = [$(DataType::$v),*];

        #[allow(non_upper_case_globals)]
        mod rows {
            use super::*;
            $(pub(super) const $v: Info = Info {
                name: $name,
                kind: $kind,
                size: $size,
                bits: $bits,
                array: ArrayKind::$array,
                prim: prim_of!($prim),
                numpy: numpy_of!($numpy),
            };)*
        }

        const _: () = {
            $(check(&rows::$v);)*
        };

        impl DataType {
            /// The table row.
            #[inline]
            #[doc(hidden)]
            pub const fn info(self) -> &'static Info {
                match self {
                    $(DataType::$v => &rows::$v,)*
                }
            }
        }
    };
}

// The table. Columns: variant, Zarr v3 name, number format, bytes in memory, stored bits, JS
// typed array, kernel primitive (`-`: none), NumPy (`-`: none; else the spelling numcodecs
// writes, the one-letter type codes, the type names).
data_types! {
    Int2:              "int2",               int(2, true),            1,  2, Int8,      -,   -;
    Int4:              "int4",               int(4, true),            1,  4, Int8,      -,   -;
    Int8:              "int8",               int(8, true),            1,  8, Int8,      I8,  ("|i1", "b", ["int8", "byte"]);
    Int16:             "int16",              int(16, true),           2, 16, Int16,     I16, ("<i2", "h", ["int16", "short"]);
    Int32:             "int32",              int(32, true),           4, 32, Int32,     I32, ("<i4", "i", ["int32", "intc"]);
    Int64:             "int64",              int(64, true),           8, 64, BigInt64,  I64, ("<i8", "lqp", ["int64", "long", "longlong", "intp", "int_", "int"]);
    UInt2:             "uint2",              int(2, false),           1,  2, Uint8,     -,   -;
    UInt4:             "uint4",              int(4, false),           1,  4, Uint8,     -,   -;
    UInt8:             "uint8",              int(8, false),           1,  8, Uint8,     U8,  ("|u1", "B", ["uint8", "ubyte"]);
    UInt16:            "uint16",             int(16, false),          2, 16, Uint16,    U16, ("<u2", "H", ["uint16", "ushort"]);
    UInt32:            "uint32",             int(32, false),          4, 32, Uint32,    U32, ("<u4", "I", ["uint32", "uintc"]);
    UInt64:            "uint64",             int(64, false),          8, 64, BigUint64, U64, ("<u8", "LQP", ["uint64", "ulong", "ulonglong", "uintp", "uint"]);
    Float4E2M1FN:      "float4_e2m1fn",      float(F4_E2M1FN),        1,  4, Uint8,     -,   -;
    Float6E2M3FN:      "float6_e2m3fn",      float(F6_E2M3FN),        1,  6, Uint8,     -,   -;
    Float6E3M2FN:      "float6_e3m2fn",      float(F6_E3M2FN),        1,  6, Uint8,     -,   -;
    Float8E3M4:        "float8_e3m4",        float(F8_E3M4),          1,  8, Uint8,     -,   -;
    Float8E4M3:        "float8_e4m3",        float(F8_E4M3),          1,  8, Uint8,     -,   -;
    Float8E4M3B11FNUZ: "float8_e4m3b11fnuz", float(F8_E4M3B11FNUZ),   1,  8, Uint8,     -,   -;
    Float8E4M3FNUZ:    "float8_e4m3fnuz",    float(F8_E4M3FNUZ),      1,  8, Uint8,     -,   -;
    Float8E5M2:        "float8_e5m2",        float(F8_E5M2),          1,  8, Uint8,     -,   -;
    Float8E5M2FNUZ:    "float8_e5m2fnuz",    float(F8_E5M2FNUZ),      1,  8, Uint8,     -,   -;
    Float8E8M0FNU:     "float8_e8m0fnu",     float(F8_E8M0FNU),       1,  8, Uint8,     -,   -;
    BFloat16:          "bfloat16",           float(BF16),             2, 16, Uint16,    -,   -;
    Float16:           "float16",            float(F16),              2, 16, Float16,   -,   ("<f2", "e", ["float16", "half"]);
    Float32:           "float32",            float(F32),              4, 32, Float32,   F32, ("<f4", "f", ["float32", "single"]);
    Float64:           "float64",            float(F64),              8, 64, Float64,   F64, ("<f8", "d", ["float64", "double", "float"]);
}

impl DataType {
    /// Every data type, in the order of the spec's list ([`ALL`]).
    pub const ALL: &'static [DataType] = &ALL;

    /// The Zarr v3 name.
    pub fn name(self) -> &'static str {
        self.info().name
    }

    /// Looks a data type up by its Zarr v3 name.
    pub fn from_name(name: &str) -> Option<DataType> {
        ALL.iter().copied().find(|d| d.name() == name)
    }

    /// Like `from_name`, with an `unsupported_data_type` error naming the pointer.
    #[doc(hidden)]
    pub fn parse(name: &str, pointer: &str) -> Result<DataType> {
        DataType::from_name(name).ok_or_else(|| {
            Error::at(
                ErrorCode::UnsupportedDataType,
                pointer,
                format!(
                    "data type {} is not one of the {COUNT} numeric types this codec family supports",
                    crate::text::Quoted(name)
                ),
            )
        })
    }

    /// The data type of a NumPy spelling (see [`parse_numpy_dtype`]), byte order dropped.
    pub fn from_numpy(s: &str) -> Option<DataType> {
        parse_numpy_dtype(s).map(|n| n.data_type)
    }

    /// Integer range or float format.
    #[inline]
    #[doc(hidden)]
    pub fn kind(self) -> Kind {
        self.info().kind
    }

    /// The float format, for float types.
    #[doc(hidden)]
    pub fn float(self) -> Option<FloatFormat> {
        match self.kind() {
            Kind::Float(f) => Some(f),
            Kind::Int(_) => None,
        }
    }

    /// The integer range, for integer types.
    #[doc(hidden)]
    pub fn int(self) -> Option<IntFormat> {
        match self.kind() {
            Kind::Int(i) => Some(i),
            Kind::Float(_) => None,
        }
    }

    /// Width of the value in bits (2, 4, 6, 8, 16, 32 or 64).
    #[inline]
    pub fn bits(self) -> u32 {
        self.info().bits
    }

    /// Bytes per element, in memory and under the `bytes` codec (sub-byte types take one byte).
    #[inline]
    pub fn size(self) -> usize {
        self.info().size
    }

    /// Whether the `bytes` codec needs an `endian` for this type.
    #[doc(hidden)]
    pub fn needs_endian(self) -> bool {
        self.size() > 1
    }

    /// The JS typed-array kind.
    #[doc(hidden)]
    pub fn array_kind(self) -> ArrayKind {
        self.info().array
    }

    /// The kernel primitive, for the types the kernels load directly.
    #[doc(hidden)]
    pub fn prim(self) -> Option<Prim> {
        self.info().prim
    }

    /// The NumPy spellings, for the types NumPy has.
    #[doc(hidden)]
    pub fn numpy(self) -> Option<&'static Numpy> {
        self.info().numpy.as_ref()
    }

    /// Reads element `i` of an in-memory little-endian buffer as raw bits (sign-extended for
    /// signed integers; the low `bits()` bits only, so upper bits of sub-byte values are ignored).
    /// The caller guarantees `i < buf.len() / size()`.
    #[inline]
    #[doc(hidden)]
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
    #[doc(hidden)]
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

/// [`DataType::from_name`], with an `unsupported_data_type` error for any other name.
impl std::str::FromStr for DataType {
    type Err = Error;
    fn from_str(s: &str) -> Result<DataType> {
        DataType::parse(s, "")
    }
}

impl std::fmt::Display for DataType {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(self.name())
    }
}

/// A value in a form that is exact for every data type.
#[derive(Debug, Clone, Copy, PartialEq)]
pub enum Num {
    /// An integer-type value.
    Int(i128),
    /// A float-type value (any NaN, ±Inf, ±0 included).
    Float(f64),
}

/// The exact value of raw bits of `dtype`.
#[inline]
pub fn value(dtype: DataType, bits: u64) -> Num {
    match dtype.kind() {
        Kind::Int(i) => Num::Int(i.from_bits(bits)),
        Kind::Float(f) => Num::Float(f.decode(bits)),
    }
}

/// A value of `dtype` for messages: integers in decimal, floats as the shortest f64/f32 text,
/// "NaN", "Infinity", "-Infinity".
pub fn show(dtype: DataType, bits: u64) -> String {
    match value(dtype, bits) {
        Num::Int(v) => crate::text::int_text(v),
        Num::Float(x) => show_f64(x, dtype == DataType::Float32),
    }
}

/// An f64 for messages (`as_f32`: print with f32 shortest digits).
pub fn show_f64(x: f64, as_f32: bool) -> String {
    crate::text::shortest_text(x, as_f32)
}

/// A NumPy data type spelling: the data type and the byte order it names.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct NumpyDtype {
    /// One of the types NumPy has (int8..uint64, float16, float32, float64).
    pub data_type: DataType,
    /// `Some(true)` for an explicit `>` (big-endian), `Some(false)` for an explicit `<`; `None`
    /// when the spelling has no byte order (`|`, `=` native, a one-byte type, a name such as
    /// `"float64"`). Native is little-endian on every platform this crate reproduces (x86-64,
    /// wasm32).
    pub big_endian: Option<bool>,
}

impl NumpyDtype {
    /// Whether values of this type are stored big-endian: an explicit `>` on a multi-byte type.
    pub fn is_big(&self) -> bool {
        self.big_endian == Some(true) && self.data_type.size() > 1
    }
}

/// Parses a NumPy data type spelling as `numpy.dtype(s)` reads it (NumPy 2 on 64-bit Linux),
/// for the types of the table that NumPy has (the `numpy` column: int8..int64, uint8..uint64,
/// float16, float32, float64). Accepted:
///
/// - an optional byte order `<`, `>`, `=` or `|` followed by a kind and a size (`"<f8"`,
///   `">u2"`, `"|u1"`, `"i4"`) or a one-letter type code (`"d"`, `"<f"`, `"B"`; `l`/`L`/`p`/`P`
///   are 64-bit as on LP64);
/// - without a byte order, the type names `int8` … `uint64`, `float16`, `float32`, `float64`,
///   `half`, `single`, `double`, `byte`, `ubyte`, `short`, `ushort`, `intc`, `uintc`, `long`,
///   `ulong`, `longlong`, `ulonglong`, `intp`, `uintp`, `int_`, `uint`, `int`, `float`. (NumPy
///   looks names up in its type dictionary with the byte order character still attached, so
///   `"<float64"` is not a NumPy spelling.)
///
/// Everything else (bool, complex, strings, `"f16"` long double, …) gives `None`.
pub fn parse_numpy_dtype(s: &str) -> Option<NumpyDtype> {
    let rest = s.get(1..).filter(|r| !r.is_empty());
    let (order, body) = match (s.as_bytes().first(), rest) {
        (Some(b'<'), Some(r)) => (Some(Some(false)), r),
        (Some(b'>'), Some(r)) => (Some(Some(true)), r),
        (Some(b'=' | b'|'), Some(r)) => (Some(None), r),
        _ => (None, s),
    };
    let find = |f: &dyn Fn(DataType, &Numpy) -> bool| {
        ALL.iter()
            .copied()
            .find(|&d| d.numpy().is_some_and(|n| f(d, n)))
    };
    let typed = match body.as_bytes() {
        [c] => find(&|_, n| n.codes.as_bytes().contains(c)),
        [kind, digits @ ..] if digits.iter().all(u8::is_ascii_digit) => {
            // NumPy reads the size with strtol, so leading zeros are fine ("i01").
            let size = std::str::from_utf8(digits).ok()?.parse::<u32>().ok()?;
            find(&|d, n| n.spelling.as_bytes().get(1) == Some(kind) && d.size() as u32 == size)
        }
        _ => None,
    };
    if let Some(data_type) = typed {
        return Some(NumpyDtype {
            data_type,
            big_endian: order.flatten(),
        });
    }
    if order.is_some() {
        return None;
    }
    Some(NumpyDtype {
        data_type: find(&|_, n| n.names.contains(&s))?,
        big_endian: None,
    })
}

/// The table as JSON, one row per line, for the JS build (`scripts/gen-dtypes.mjs` runs
/// `cargo run -p zarr-scale-offset-core --example dtypes`, which prints this): `name`, `size`
/// (bytes), `bits`, `float` and `array` (the typed-array constructor name).
pub fn table_json() -> String {
    // The adapter reads name, size, bits, float and array; the NumPy spellings (parse_numpy_dtype)
    // stay out of the JS copy, which is in the zarrita-path download.
    let rows: Vec<String> = ALL
        .iter()
        .map(|d| {
            format!(
                "  {{\"name\":\"{}\",\"size\":{},\"bits\":{},\"float\":{},\"array\":\"{}\"}}",
                d.name(),
                d.size(),
                d.bits(),
                d.float().is_some(),
                d.array_kind().js_name(),
            )
        })
        .collect();
    format!("[\n{}\n]", rows.join(",\n"))
}

#[cfg(test)]
mod tests {
    use super::*;
    use DataType::*;

    #[test]
    fn names_roundtrip_and_sizes() {
        assert_eq!(ALL.len(), 26);
        assert_eq!(COUNT, 26);
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

    /// The table agrees with itself and with the formats: float names are the format names,
    /// sub-byte values sit in one byte, the primitives are exactly the full-width types.
    #[test]
    fn table_rows_agree() {
        for d in ALL {
            let i = d.info();
            if let Kind::Float(f) = i.kind {
                assert_eq!(f.name, i.name);
            }
            assert_eq!(i.size, (i.bits as usize).div_ceil(8), "{d}");
            let full = i.bits as usize == 8 * i.size;
            let native = matches!(i.kind, Kind::Int(_)) || matches!(d, Float32 | Float64);
            assert_eq!(i.prim.is_some(), full && native, "{d}");
            assert_eq!(d.numpy().is_some(), full && (native || d == Float16), "{d}");
        }
        assert_eq!(Int16.prim(), Some(Prim::I16));
        assert_eq!(Float64.prim(), Some(Prim::F64));
        assert_eq!(BFloat16.prim(), None);
        assert_eq!(Int4.array_kind(), ArrayKind::Int8);
        assert_eq!(BFloat16.array_kind(), ArrayKind::Uint16);
        assert_eq!(Float16.array_kind(), ArrayKind::Float16);
    }

    #[test]
    fn numpy_spellings() {
        let cases = [
            ("<i2", Some((Int16, Some(false)))),
            (">u4", Some((UInt32, Some(true)))),
            ("|u1", Some((UInt8, None))),
            ("=f8", Some((Float64, None))),
            ("i01", Some((Int8, None))),
            ("<e", Some((Float16, Some(false)))),
            ("P", Some((UInt64, None))),
            ("longlong", Some((Int64, None))),
            ("<float64", None),
            ("f16", None),
            ("<b1", None),
            ("", None),
            ("<", None),
        ];
        for (s, want) in cases {
            let got = parse_numpy_dtype(s).map(|n| (n.data_type, n.big_endian));
            assert_eq!(got, want, "{s:?}");
        }
        for d in ALL {
            if let Some(n) = d.numpy() {
                assert_eq!(DataType::from_numpy(n.spelling), Some(d));
                for name in n.names {
                    assert_eq!(DataType::from_numpy(name), Some(d));
                }
            }
        }
    }

    /// The checked-in JS/TS copies of the table are what `scripts/gen-dtypes.mjs` writes from
    /// it: `js/dtypes.js` holds [`table_json`] verbatim, and the generated part of
    /// `js/index.d.ts` has one line per data type, in order, with its typed array. Run
    /// `node scripts/gen-dtypes.mjs` (or `npm run build`) after changing the table.
    #[test]
    fn js_copies_are_fresh() {
        let root = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("../..");
        let read = |f: &str| std::fs::read_to_string(root.join(f)).unwrap();
        let stale = "is stale: run `node scripts/gen-dtypes.mjs`";
        assert!(
            read("js/dtypes.js").contains(&table_json()),
            "js/dtypes.js {stale}"
        );
        let dts = read("js/index.d.ts");
        let block = dts
            .split_once("// ---- generated by scripts/gen-dtypes.mjs")
            .and_then(|(_, b)| b.split_once("// ---- end of the generated part"))
            .map(|(b, _)| b)
            .expect("js/index.d.ts has no generated part");
        let lines: Vec<(&str, &str)> = block
            .lines()
            .map(|l| l.split("//").next().unwrap_or_default().trim())
            .filter_map(|l| l.strip_suffix(';')?.split_once(": "))
            .collect();
        let want: Vec<(&str, &str)> = ALL
            .iter()
            .map(|d| match d.array_kind() {
                ArrayKind::Float16 => (d.name(), "Float16Values"),
                a => (d.name(), a.js_name()),
            })
            .collect();
        assert_eq!(lines, want, "js/index.d.ts {stale}");
    }
}
