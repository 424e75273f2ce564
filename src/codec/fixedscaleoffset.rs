//! The legacy `numcodecs.fixedscaleoffset` codec, READ-ONLY, reproducing numcodecs 0.17.1 on
//! x86-64 bit for bit (NumPy 2 promotion under NEP 50, NumPy's casts, x86-64 conversion
//! instructions).
//!
//! - **Spec**: the section "Legacy `numcodecs.fixedscaleoffset` codec" of [zarr-extensions
//!   `codecs/scale_offset/README.md`](https://github.com/zarr-developers/zarr-extensions/blob/main/codecs/scale_offset/README.md#legacy-numcodecsfixedscaleoffset-codec)
//!   (with `astype` optional, as on the unmerged branch's
//!   [`codecs/numcodecs.fixedscaleoffset/README.md`](https://github.com/zarr-developers/zarr-extensions/blob/numcodecs/codecs/numcodecs.fixedscaleoffset/README.md)),
//!   and numcodecs' [`FixedScaleOffset`](https://numcodecs.readthedocs.io/en/stable/filter/fixedscaleoffset.html),
//!   whose decode it reproduces.
//! - **Names**: v3 `"numcodecs.fixedscaleoffset"` ([`NAME`], array -> array); Zarr v2 filter id
//!   `"fixedscaleoffset"` ([`V2_ID`], in a `.zarray`'s `filters`, read by `v2.rs`).
//! - **Configuration**: `{"offset": number, "scale": number, "dtype": type, "astype": type}`;
//!   `dtype` and `astype` in NumPy spellings (`"<f4"`, `"float32"`; see [`parse_numpy_dtype`]),
//!   `astype` defaulting to `dtype` when it is missing or `null` (zarrs writes `null`; numcodecs
//!   and zarr-python read both as `dtype`; a `lenient_form` warning).
//!
//! ```
//! use zarr_scale_offset::{decode, decode_chunk, encode, from_fixed_scale_offset, ErrorCode};
//!
//! // As numcodecs decodes: f32(-22874 / 10 + 1000) with the division in float64.
//! let v3 = r#"{"name": "numcodecs.fixedscaleoffset",
//!     "configuration": {"offset": 1000, "scale": 10, "dtype": "float32", "astype": "int16"}}"#;
//! let x = decode(v3, "float32", &(-22874i16).to_le_bytes())?;
//! assert_eq!(x, 0xC4A0_ECCDu32.to_le_bytes()); // -1287.4f32
//!
//! // The same filter in a Zarr v2 .zarray (the stored bytes are big-endian int16 here).
//! let zarray = r#"{"zarr_format": 2, "shape": [1], "chunks": [1], "dtype": "<f4",
//!     "compressor": null, "fill_value": 0, "order": "C", "filters": [{"id": "fixedscaleoffset",
//!     "offset": 1000, "scale": 10, "dtype": "<f4", "astype": ">i2"}]}"#;
//! assert_eq!(decode_chunk(zarray, &(-22874i16).to_be_bytes())?, x);
//!
//! // Read-only: encoding names the replacement, which from_fixed_scale_offset builds.
//! let e = encode(v3, "float32", &x).unwrap_err();
//! assert_eq!(e.code, ErrorCode::ReadOnly);
//! assert_eq!(
//!     from_fixed_scale_offset(v3, None)?,
//!     r#"[{"name":"scale_offset","configuration":{"scale":10,"offset":1000}},{"name":"cast_value","configuration":{"data_type":"int16","rounding":"nearest-even","out_of_range":"wrap"}}]"#
//! );
//! # Ok::<(), zarr_scale_offset::Error>(())
//! ```
//!
//! # What numcodecs does on decode
//!
//! `numcodecs.FixedScaleOffset.decode` is `dec = enc / scale + offset; dec.astype(dtype)` where
//! `enc` holds the stored `astype` values and `scale`/`offset` are the Python numbers read from
//! JSON. Under NumPy 2 (NEP 50) the Python numbers are *weak*:
//!
//! - **integer `astype`**: true division of an integer array always runs in float64, so both
//!   operations are float64 operations (each rounded once), with the integer converted to
//!   float64 first (round to nearest even for 64-bit values beyond 2^53);
//! - **float `astype`** (float16/32/64): both operations run in the `astype` float type, each
//!   rounded once to it; the Python numbers are first converted to float64 (a Python `float`
//!   already is one; a Python `int` goes through `PyLong_AsDouble`, correctly rounded) and then
//!   rounded to the `astype` type (NumPy's `setitem` of a weak scalar: double -> float/half,
//!   nearest-even). float16 operations are computed wider and rounded once, which gives the
//!   correctly rounded float16 result (binary32/64 have more than 2p+2 bits).
//!
//! So whether the JSON text was an integer (`10`) or a float (`10.0`) makes no difference to
//! the decoded values: both become the same float64 first. (A JSON integer beyond the float64
//! range makes numcodecs raise `OverflowError`; a float like `1e400` becomes `inf`. Both are
//! rejected here as `invalid_metadata`, as are a scale that is zero or infinite, or an offset
//! that is infinite, in the type the arithmetic runs in: such a codec decodes every value to
//! the offset, NaN or infinity.) The number's text is kept for [`FixedScaleOffset::replacement`].
//!
//! `dec.astype(dtype)` then converts the result:
//!
//! - to a float `dtype`: exact when widening, round to nearest even when narrowing (NaN stays
//!   NaN, overflow gives infinity);
//! - to an integer `dtype`: a C cast, i.e. truncation toward zero with the **platform-defined
//!   x86-64 behaviour** for NaN and out-of-range values (see [`x86_float_to_int`]): int8, int16,
//!   uint8 and uint16 go through a 32-bit `cvttsd2si` and keep the low bits (so they wrap inside
//!   the int32 range, and anything else becomes 0); int32 gives `INT32_MIN` for NaN and
//!   out-of-range; uint32 goes through a 64-bit conversion and keeps the low 32 bits; int64 gives
//!   `INT64_MIN`; uint64 converts `x >= 2^63` as `(x - 2^63) ^ 2^63` and everything else (NaN
//!   included) through the signed 64-bit conversion. On ARM (and macOS) NumPy saturates instead:
//!   those are not the values this crate reproduces.
//!
//! The fill value is not transformed by this codec (zarr-python's wrapper does not either), so a
//! `NaN` fill value with an integer `astype` is valid metadata and reads fine.
//!
//! # Why read-only, and the replacement
//!
//! Encoding is a `read_only` error naming the `[scale_offset, cast_value]` sequence of the
//! scale_offset spec ("Legacy `numcodecs.fixedscaleoffset` codec"), built by
//! [`FixedScaleOffset::replacement`] / [`from_fixed_scale_offset`]. That sequence is **not** bit
//! for bit the same codec; it differs in three ways (values from
//! `conformance/vectors/fixedscaleoffset.json`, checked by `tests/fixedscaleoffset.rs`):
//!
//! 1. **Arithmetic type.** `scale_offset` computes in the array data type, numcodecs in float64
//!    for an integer `astype`. dtype float32, astype int16, scale 10, offset 1000 (vector
//!    `<f4-><i2/s4/raw-codes`): the stored -22874 decodes to `f32(-22874/10 + 1000)` = -1287.4
//!    (0xC4A0ECCD) in numcodecs, but to `f32(f32(-22874/10) + 1000)` = -1287.3999 (0xC4A0ECCC)
//!    through `scale_offset` (5 of the 19 codes of that vector differ by one ulp).
//! 2. **Rounding to an integer dtype.** numcodecs truncates toward zero when it casts the decoded
//!    float to an integer `dtype`; in the sequence the decode of `scale_offset` on an integer
//!    dtype is exact integer arithmetic, and an inexact division is an error. dtype int16, astype
//!    uint8, scale 10, offset 1000 (vector `int-dtype-truncation`): the stored 5 decodes to 1000
//!    (1000.5 truncated) in numcodecs; `scale_offset` refuses 5 / 10 in int16. (On encode,
//!    numcodecs rounds half to even with `np.around` before its cast, which `cast_value`'s
//!    `nearest-even` matches.)
//! 3. **Out of range** (on encode, where numcodecs casts the rounded float to `astype` with the
//!    same C cast). The spec maps numcodecs' overflow to `out_of_range: "wrap"`, but wrapping is
//!    only what x86-64 happens to do inside the int32 range ([`x86_float_to_int`]): to uint8,
//!    numcodecs turns 5000000001 into 0 (beyond int32) where `wrap` gives 1, and NaN into 0
//!    where `cast_value` rejects NaN; to int32, 3e9 becomes `INT32_MIN` where `wrap` gives
//!    -1294967296. On ARM numcodecs saturates instead.

pub use zarr_scale_offset_core::dtype::{parse_numpy_dtype, NumpyDtype};
use zarr_scale_offset_core::dtype::{DataType, Kind};
use zarr_scale_offset_core::error::{Error, ErrorCode, Result};
use crate::report::Report;
use crate::json::{parse_scalar, pointer_push, quote, write_scalar, Fields, Json};
use crate::codec::{
    ArrayBinding, Binder, BoundArrayCodec, CodecDef, CodecKind, RunOptions, V2Filter, V2Translation,
};
use zarr_scale_offset_core::num::{decompose_f64, round_to_float, Rounded, RoundingMode, F16};
use zarr_scale_offset_core::direction::Direction;
use std::any::Any;

/// The codec name in Zarr v3 metadata.
pub const NAME: &str = "numcodecs.fixedscaleoffset";

/// The `id` of the codec in numcodecs (and in a Zarr v2 `filters` entry).
pub const V2_ID: &str = "fixedscaleoffset";

/// Whether `s` looks like a NumPy spelling of a type outside the 11 (bool, complex, long double,
/// strings, objects, dates): those are `unsupported_data_type`, anything else is not a NumPy
/// data type at all (`invalid_metadata`).
fn other_numpy_type(s: &str) -> bool {
    let body = s.trim_start_matches(['<', '>', '=', '|']);
    let names = [
        "bool",
        "complex",
        "clongdouble",
        "longdouble",
        "float128",
        "float96",
        "str",
        "bytes",
        "object",
        "datetime64",
        "timedelta64",
        "void",
        "bfloat16",
    ];
    if names.iter().any(|n| body.starts_with(n)) {
        return true;
    }
    match body.as_bytes() {
        [c] => b"?gGFDOSUVaMmc".contains(c),
        [c, rest @ ..] => {
            b"bcfiuSUVaMmO".contains(c) && rest.first().is_some_and(u8::is_ascii_digit)
        }
        [] => false,
    }
}

/// The numbers numcodecs can use, for messages.
const NUMPY_TYPES: &str = "int8..int64, uint8..uint64, float16, float32 or float64";

/// A JSON number of the configuration: its text (kept for the replacement, so `10` stays `10`
/// and `10.0` stays `10.0`) and its float64 value. Whether the text is a Python `int` or `float`
/// does not change the decoded values (see the module documentation), so it is not kept.
#[derive(Debug, Clone, PartialEq)]
struct Number {
    text: String,
    value: f64,
}

/// The type the decode arithmetic runs in (selected by `astype`).
#[derive(Debug, Clone, Copy, PartialEq)]
enum Arith {
    /// float64: an integer or float64 `astype`.
    F64 { scale: f64, offset: f64 },
    /// float32 `astype`.
    F32 { scale: f32, offset: f32 },
    /// float16 `astype`: the scalars are float16 values (held in f64).
    F16 { scale: f64, offset: f64 },
}

impl Arith {
    fn type_name(&self) -> &'static str {
        match self {
            Arith::F64 { .. } => "float64",
            Arith::F32 { .. } => "float32",
            Arith::F16 { .. } => "float16",
        }
    }
    /// (scale, offset) as f64 values of the arithmetic type.
    fn scalars(&self) -> (f64, f64) {
        match *self {
            Arith::F64 { scale, offset } | Arith::F16 { scale, offset } => (scale, offset),
            Arith::F32 { scale, offset } => (scale as f64, offset as f64),
        }
    }
}

/// Rounds an f64 to float16 (nearest even, IEEE overflow to infinity) and returns its code.
fn f16_bits(x: f64) -> u64 {
    let f = F16;
    if x.is_nan() {
        return f.nan_code(x.is_sign_negative());
    }
    let neg = x.is_sign_negative();
    if x.is_infinite() {
        return f.inf_code() | if neg { f.sign_bit() } else { 0 };
    }
    let (n, m, e) = decompose_f64(x);
    match round_to_float(&f, n, m, e, false, RoundingMode::NearestEven) {
        Rounded::Value { code, .. } => code,
        Rounded::Overflow { neg } => f.inf_code() | if neg { f.sign_bit() } else { 0 },
        // float16 has a zero and a sign: no underflow.
        Rounded::Underflow => f.zero_code(neg),
    }
}

/// An f64 rounded to float16 and back (nearest even).
fn round_f16(x: f64) -> f64 {
    F16.decode(f16_bits(x))
}

/// x86-64 `cvttsd2si` with a 32-bit destination: truncation, `INT32_MIN` for NaN and for
/// results outside the int32 range.
fn cvtt32(x: f64) -> i64 {
    let t = x.trunc();
    if (-2_147_483_648.0..=2_147_483_647.0).contains(&t) {
        t as i64
    } else {
        i32::MIN as i64
    }
}

/// x86-64 `cvttsd2si` with a 64-bit destination: `INT64_MIN` for NaN and out of range.
fn cvtt64(x: f64) -> i64 {
    let t = x.trunc();
    // 2^63 is exact in f64; [-2^63, 2^63) is the int64 range.
    if (-9_223_372_036_854_775_808.0..9_223_372_036_854_775_808.0).contains(&t) {
        t as i64
    } else {
        i64::MIN
    }
}

/// The value NumPy's C cast `(T)x` gives for a float64 (or float32/float16: every value of those
/// is a float64 and the instructions behave the same) into an integer data type on x86-64 with
/// GCC's code generation — platform-defined behaviour, as numcodecs/NumPy leave it:
///
/// | to | how | NaN / out of range |
/// |---|---|---|
/// | int8, uint8, int16, uint16 | 32-bit truncation, keep the low bits | wrap inside int32; 0 beyond |
/// | int32 | 32-bit truncation | `INT32_MIN` |
/// | uint32 | 64-bit truncation, keep the low 32 bits | wrap inside int64; 0 beyond |
/// | int64 | 64-bit truncation | `INT64_MIN` |
/// | uint64 | `x >= 2^63` ? `trunc64(x - 2^63) ^ 2^63` : `trunc64(x)` | NaN, < -2^63: 2^63; >= 2^64: 0 |
///
/// `None` for data types numcodecs does not have (int2, int4, uint2, uint4, floats).
pub fn x86_float_to_int(x: f64, to: DataType) -> Option<i128> {
    use DataType::*;
    let f = to.int()?;
    let raw: i128 = match to {
        Int8 | UInt8 | Int16 | UInt16 | Int32 => cvtt32(x) as i128,
        UInt32 | Int64 => cvtt64(x) as i128,
        UInt64 => {
            const TWO63: f64 = 9_223_372_036_854_775_808.0;
            if x >= TWO63 {
                ((cvtt64(x - TWO63) as u64) ^ (1u64 << 63)) as i128
            } else {
                (cvtt64(x) as u64) as i128
            }
        }
        _ => return None,
    };
    Some(f.wrap(raw))
}

/// A `numcodecs.fixedscaleoffset` codec bound to the data type it receives (read-only).
#[derive(Debug, Clone, PartialEq)]
pub struct FixedScaleOffset {
    dtype: DataType,
    astype: DataType,
    dtype_spelling: NumpyDtype,
    astype_spelling: NumpyDtype,
    scale: Number,
    offset: Number,
    arith: Arith,
}

/// The registry entry of this module.
pub const CODECS: &[CodecDef] = &[CodecDef {
    name: NAME,
    v2: Some(V2Filter {
        id: V2_ID,
        translate: v2_filter,
    }),
    kind: CodecKind::ArrayToArray,
    binder: Binder::Array(bind),
}];

/// A `.zarray` filter `{"id": "fixedscaleoffset", ...}` as this codec: parsed in its v2 form
/// (NumPy dtype strings with byte order), with a `dtype` whose byte order differs from the
/// type the filter receives rejected (zarr-python 2 would reinterpret the bytes).
fn v2_filter(
    f: &Json,
    p: &str,
    received: Option<NumpyDtype>,
    report: &mut Report,
) -> Option<V2Translation> {
    let codec = FixedScaleOffset::parse_v2_filter(f, p, received.map(|r| r.data_type), report)?;
    let d = codec.dtype_spelling();
    if let Some(r) = received {
        if r.data_type == d.data_type && r.is_big() != d.is_big() {
            let order = |x: &NumpyDtype| if x.is_big() { "big" } else { "little" };
            report.error(Error::metadata(
                &pointer_push(p, "dtype"),
                format!(
                    "dtype is {}-endian but the filter receives {}-endian {}: zarr-python 2 would reinterpret the bytes",
                    order(&d),
                    order(&r),
                    r.data_type
                ),
            ));
        }
    }
    Some(V2Translation {
        codec: Json::Object(vec![
            ("name".into(), Json::String(NAME.into())),
            ("configuration".into(), codec.to_config()),
        ]),
        produces: codec.astype_spelling(),
    })
}

/// Binds a configuration to the data type it receives; when that is unknown (`None`, already
/// reported), the configuration is checked on its own and no codec is bound.
fn bind(
    config: Option<&Json>,
    pointer: &str,
    dtype: Option<DataType>,
    report: &mut Report,
) -> ArrayBinding {
    let codec = FixedScaleOffset::parse_for(config, pointer, dtype, report);
    ArrayBinding {
        encoded: codec.as_ref().map(FixedScaleOffset::encoded_dtype),
        codec: codec.map(|c| Box::new(c) as Box<dyn BoundArrayCodec>),
    }
}

/// Read-only: encoding is a `read_only` error; decoding is numcodecs' own arithmetic.
impl BoundArrayCodec for FixedScaleOffset {
    fn name(&self) -> &'static str {
        NAME
    }
    fn decoded_type(&self) -> DataType {
        self.dtype
    }
    fn encoded_type(&self) -> DataType {
        self.astype
    }
    /// numcodecs and zarr-python do not transform the fill value: later codecs see none.
    fn encode_fill(&self, _fill: u64) -> std::result::Result<Option<u64>, String> {
        Ok(None)
    }
    fn value(&self, dir: Direction, bits: u64) -> Option<u64> {
        match dir {
            Direction::Encode => None,
            Direction::Decode => Some(self.decode_value(bits)),
        }
    }
    fn run(&self, dir: Direction, input: &[u8], out: &mut [u8], _opts: RunOptions) -> Result<()> {
        match dir {
            Direction::Encode => Err(self.read_only_error()),
            Direction::Decode => self.decode(input, out),
        }
    }
    fn as_any(&self) -> &dyn Any {
        self
    }
}

/// Which form of the configuration is being read.
#[derive(Clone, Copy, PartialEq, Eq)]
enum Form {
    /// Zarr v3 `configuration`: byte order characters must not say big-endian (zarr-python
    /// round-trips such data byte-swapped), `dtype` may be missing.
    V3,
    /// Zarr v2 filter: byte orders are the stored byte order, `dtype` is required (numcodecs'
    /// constructor needs it), `id` is required.
    V2,
}

impl FixedScaleOffset {
    /// Parses the configuration of a `numcodecs.fixedscaleoffset` codec (Zarr v3) for the data
    /// type it receives, `array_dtype`. `pointer` is the JSON pointer of the codec object: errors
    /// name `pointer/configuration/<key>`. Every problem is reported into `report` (then the
    /// result is `None`):
    ///
    /// - the configuration is required and must be an object;
    /// - `offset` and `scale` are required JSON numbers (a string such as `"10"` is an error),
    ///   within the float64 range; `scale` must be non-zero, and neither may become zero (scale)
    ///   or infinite in the type the arithmetic runs in (see the module documentation);
    /// - `dtype` (a NumPy spelling, see [`parse_numpy_dtype`]) must name `array_dtype`; when it
    ///   is missing it is `array_dtype` (zarr-python's behaviour; a `lenient_form` warning);
    /// - `astype` missing or `null` defaults to `dtype` (numcodecs' behaviour; a `lenient_form`
    ///   warning, since the scale_offset spec lists it as required);
    /// - an explicit big-endian spelling (`">f8"`) is an error here: in a v3 chain the `bytes`
    ///   codec decides the byte order, and zarr-python would reinterpret the values;
    /// - `id`, when present, must be `"fixedscaleoffset"` (the v2 filter form carries it);
    /// - any other key is an error.
    ///
    /// A valid codec also adds a `read_only_codec` warning that names the replacement.
    pub fn parse(
        config: Option<&Json>,
        pointer: &str,
        array_dtype: DataType,
        report: &mut Report,
    ) -> Option<FixedScaleOffset> {
        Self::parse_for(config, pointer, Some(array_dtype), report)
    }

    /// [`FixedScaleOffset::parse`] for a data type that may be unknown (`None`, already
    /// reported): the configuration is checked on its own and no codec is bound.
    fn parse_for(
        config: Option<&Json>,
        pointer: &str,
        array_dtype: Option<DataType>,
        report: &mut Report,
    ) -> Option<FixedScaleOffset> {
        let Some(cfg) = config else {
            report.error(Error::metadata(
                pointer,
                format!("{NAME} requires a \"configuration\" with \"offset\" and \"scale\""),
            ));
            return None;
        };
        let cfg_ptr = pointer_push(pointer, "configuration");
        let codec = Self::parse_at(cfg, &cfg_ptr, array_dtype, Form::V3, report);
        let codec = codec.filter(|_| array_dtype.is_some())?;
        match codec.replacement() {
            Ok(r) => report.warn(
                pointer,
                "read_only_codec",
                format!(
                    "{NAME} is read-only here; to write, use {}",
                    r.to_json_string()
                ),
            ),
            Err(e) => report.warn(
                pointer,
                "read_only_codec",
                format!("{NAME} is read-only here; {}", e.detail()),
            ),
        }
        Some(codec)
    }

    /// Parses one entry of a Zarr v2 `.zarray` `filters` list (`{"id": "fixedscaleoffset",
    /// "offset": …, "scale": …, "dtype": …, "astype": …}`) at `pointer` (e.g. `/filters/0`).
    /// `received` is the data type the filter receives when known (the array's for the first
    /// filter); `dtype` is required here, as in numcodecs' constructor, and its byte order and
    /// `astype`'s are kept ([`FixedScaleOffset::dtype_spelling`],
    /// [`FixedScaleOffset::astype_spelling`]) for the `bytes` codec of the converted chain.
    pub fn parse_v2_filter(
        filter: &Json,
        pointer: &str,
        received: Option<DataType>,
        report: &mut Report,
    ) -> Option<FixedScaleOffset> {
        Self::parse_at(filter, pointer, received, Form::V2, report)
    }

    fn parse_at(
        cfg: &Json,
        cfg_ptr: &str,
        received: Option<DataType>,
        form: Form,
        report: &mut Report,
    ) -> Option<FixedScaleOffset> {
        let errors_before = report.error_count();
        let what = format!("the {NAME} configuration");
        let keys = ["offset", "scale", "dtype", "astype", "id"];
        let f = Fields::open_any(cfg, cfg_ptr, &what, report)?;
        let num = |k: &str, report: &mut Report| f.get(k).map(|v| number(v, &f.at(k), k, report));
        let offset = num("offset", report);
        let scale = num("scale", report);
        let np = |k, report: &mut Report| f.get(k).map(|v| numpy_dtype(v, &f.at(k), k, form, report));
        let dtype = np("dtype", report);
        // `"astype": null` (zarrs writes it) is numcodecs' own default, `astype=None`: dtype.
        let astype_null = f.get("astype").is_some_and(Json::is_null);
        let astype = if astype_null { None } else { np("astype", report) };
        let id_seen = f.get("id").is_some();
        if let Some(v) = f.get("id").filter(|v| v.as_str() != Some(V2_ID)) {
            report.error(Error::metadata(
                &f.at("id"),
                format!("\"id\" must be \"{V2_ID}\", found {}", v.to_json_string()),
            ));
        }
        f.reject_unknown(&what, &keys, report);
        if form == Form::V2 && !id_seen {
            report.error(Error::metadata(
                cfg_ptr,
                format!("missing required key \"id\" (\"{V2_ID}\")"),
            ));
        }
        for (slot, key) in [(offset.is_none(), "offset"), (scale.is_none(), "scale")] {
            if slot {
                report.error(Error::metadata(
                    cfg_ptr,
                    format!("missing required key \"{key}\" (a JSON number)"),
                ));
            }
        }
        let scale_ptr = pointer_push(cfg_ptr, "scale");
        if let Some(Some(s)) = &scale {
            if s.value == 0.0 {
                report.error(Error::metadata(
                    &scale_ptr,
                    format!("scale must be non-zero, found {}", s.text),
                ));
            }
        }
        // The data type the codec decodes to.
        let dtype_ptr = pointer_push(cfg_ptr, "dtype");
        let dtype: Option<NumpyDtype> = match dtype {
            Some(Some(d)) => {
                if let Some(r) = received.filter(|&r| r != d.data_type) {
                    report.error(Error::metadata(
                        &dtype_ptr,
                        format!(
                            "dtype names {} but the codec receives {r}; they must be the same type",
                            d.data_type
                        ),
                    ));
                }
                Some(d)
            }
            Some(None) => None,
            None if form == Form::V2 => {
                report.error(Error::metadata(
                    cfg_ptr,
                    "missing required key \"dtype\" (numcodecs' FixedScaleOffset requires it)",
                ));
                None
            }
            None => {
                match received {
                    Some(r) if parse_numpy_dtype(r.name()).is_some() => {
                        report.warn(
                            &dtype_ptr,
                            "lenient_form",
                            format!("dtype is missing; read as the array data type, as zarr-python does; write \"dtype\": \"{r}\""),
                        );
                        Some(NumpyDtype {
                            data_type: r,
                            big_endian: None,
                        })
                    }
                    Some(r) => {
                        report.error(Error::at(
                        ErrorCode::UnsupportedDataType,
                        cfg_ptr,
                        format!("{NAME} works on the NumPy types {NUMPY_TYPES}; the codec receives {r}"),
                    ));
                        None
                    }
                    // No data type known yet (a codec checked on its own): the array's type
                    // will be the dtype, so nothing is wrong yet.
                    None => None,
                }
            }
        };
        let astype: Option<NumpyDtype> = match astype {
            Some(a) => a,
            None => {
                if let Some(d) = dtype {
                    let what = if astype_null { "null" } else { "missing" };
                    report.warn(
                        &pointer_push(cfg_ptr, "astype"),
                        "lenient_form",
                        format!("astype is {what}; numcodecs reads it as dtype; write \"astype\": \"{}\"", d.data_type),
                    );
                }
                dtype
            }
        };
        let arith = match (astype, &scale, &offset) {
            (Some(a), Some(Some(s)), Some(Some(o))) if s.value != 0.0 => {
                arith(a.data_type, s, o, cfg_ptr, report)
            }
            _ => None,
        };
        if report.error_count() > errors_before {
            return None;
        }
        Some(FixedScaleOffset {
            dtype: dtype?.data_type,
            astype: astype?.data_type,
            dtype_spelling: dtype?,
            astype_spelling: astype?,
            scale: scale??,
            offset: offset??,
            arith: arith?,
        })
    }

    /// The data type the codec decodes to (the array side; `dtype`).
    pub fn dtype(&self) -> DataType {
        self.dtype
    }

    /// The data type of the stored values (`astype`), which the next codec (`bytes`) receives.
    pub fn encoded_dtype(&self) -> DataType {
        self.astype
    }

    /// `dtype` as spelled, with its byte order.
    pub fn dtype_spelling(&self) -> NumpyDtype {
        self.dtype_spelling
    }

    /// `astype` as spelled, with its byte order (in a Zarr v2 filter: the stored byte order).
    pub fn astype_spelling(&self) -> NumpyDtype {
        self.astype_spelling
    }

    /// The `scale` as its JSON number text.
    pub fn scale_text(&self) -> &str {
        &self.scale.text
    }

    /// The `offset` as its JSON number text.
    pub fn offset_text(&self) -> &str {
        &self.offset.text
    }

    /// The normalized Zarr v3 configuration: `offset` and `scale` as written, `dtype` and
    /// `astype` as Zarr v3 names (which are also NumPy names).
    pub fn to_config(&self) -> Json {
        Json::Object(vec![
            ("offset".into(), Json::Number(self.offset.text.clone())),
            ("scale".into(), Json::Number(self.scale.text.clone())),
            ("dtype".into(), Json::String(self.dtype.name().into())),
            ("astype".into(), Json::String(self.astype.name().into())),
        ])
    }

    /// One stored value (raw bits of `astype`) decoded to raw bits of `dtype`, as numcodecs
    /// 0.17.1 does on x86-64.
    pub fn decode_value(&self, bits: u64) -> u64 {
        let x = match self.astype.kind() {
            Kind::Int(f) => f.from_bits(bits) as f64,
            Kind::Float(f) => f.decode(bits),
        };
        let y = match self.arith {
            Arith::F64 { scale, offset } => x / scale + offset,
            Arith::F32 { scale, offset } => ((x as f32) / scale + offset) as f64,
            Arith::F16 { scale, offset } => round_f16(round_f16(x / scale) + offset),
        };
        match self.dtype {
            DataType::Float64 => y.to_bits(),
            DataType::Float32 => (y as f32).to_bits() as u64,
            DataType::Float16 => f16_bits(y),
            d => match (d.int(), x86_float_to_int(y, d)) {
                (Some(f), Some(v)) => f.to_bits(v),
                // Unreachable: dtype is one of the 11 NumPy types.
                _ => 0,
            },
        }
    }

    /// Decodes in-memory `astype` values (`input`, little-endian, as the `bytes` codec gives
    /// them) into in-memory `dtype` values (`out`), bit for bit as numcodecs 0.17.1 on x86-64.
    /// Never fails on values (NaN and out-of-range follow the platform); a buffer whose length
    /// is not a whole number of elements, or an `out` of the wrong length, is `length_mismatch`.
    pub fn decode(&self, input: &[u8], out: &mut [u8]) -> Result<()> {
        let (a, d) = (self.astype, self.dtype);
        if input.len() % a.size() != 0 {
            return Err(Error::new(
                ErrorCode::LengthMismatch,
                format!(
                    "{NAME}: {} bytes are not a whole number of {a} elements",
                    input.len()
                ),
            ));
        }
        let n = input.len() / a.size();
        if out.len() != n.saturating_mul(d.size()) {
            return Err(Error::new(
                ErrorCode::LengthMismatch,
                format!(
                    "{NAME}: the output has {} bytes; {n} {d} elements need {}",
                    out.len(),
                    n.saturating_mul(d.size())
                ),
            ));
        }
        #[cfg(not(target_family = "wasm"))]
        if typed::decode(self, input, out) {
            return Ok(());
        }
        for i in 0..n {
            d.write_bits(out, i, self.decode_value(a.read_bits(input, i)));
        }
        Ok(())
    }

    /// Decodes into a new buffer (see [`FixedScaleOffset::decode`]).
    pub fn decode_to_vec(&self, input: &[u8]) -> Result<Vec<u8>> {
        let n = input.len() / self.astype.size();
        let mut out = vec![0u8; n.saturating_mul(self.dtype.size())];
        self.decode(input, &mut out)?;
        Ok(out)
    }

    /// The `read_only` error of an encode: its message names the replacement sequence (as
    /// JSON), or says why there is none.
    pub fn read_only_error(&self) -> Error {
        let why = "its float64 arithmetic and platform-defined casts are not a portable encoding";
        match self.replacement() {
            Ok(r) => Error::new(
                ErrorCode::ReadOnly,
                format!(
                    "{NAME} is read-only ({why}); to write, use {} instead",
                    r.to_json_string()
                ),
            ),
            Err(e) => Error::new(
                ErrorCode::ReadOnly,
                format!("{NAME} is read-only ({why}), and {}", e.detail()),
            ),
        }
    }

    /// The `[scale_offset, cast_value]` sequence of the scale_offset spec that supersedes this
    /// codec (`fromFixedScaleOffset`): `scale_offset` with this `scale` and `offset` (the JSON
    /// text kept where it is a strict scalar of the array data type), then, unless `astype` is
    /// `dtype`, `cast_value` to `astype` with `rounding: "nearest-even"` and, for an integer
    /// `astype`, `out_of_range: "wrap"` (`wrap` is only for integer targets). It is not bit-exact
    /// (see the module documentation). `not_representable` when `scale_offset` cannot hold the
    /// numbers in the array data type (e.g. scale 0.5 for int16: `scale_offset` on an integer
    /// type needs integers).
    pub fn replacement(&self) -> Result<Json> {
        let d = self.dtype;
        let scalar = |n: &Number, key: &str| -> Result<Json> {
            let p = pointer_push("/0/configuration", key);
            let s = parse_scalar(d, &Json::Number(n.text.clone()), &p).map_err(|e| {
                Error::new(
                    ErrorCode::NotRepresentable,
                    format!(
                        "no [scale_offset, cast_value] sequence replaces it: {key} {} is not a scale_offset {key} for {d} ({})",
                        n.text,
                        e.detail()
                    ),
                )
            })?;
            let value = zarr_scale_offset_core::cast::value(d, s.bits);
            let bad = match value {
                zarr_scale_offset_core::cast::Num::Float(x) => !x.is_finite() || (key == "scale" && x == 0.0),
                zarr_scale_offset_core::cast::Num::Int(x) => key == "scale" && x == 0,
            };
            if bad {
                return Err(Error::new(
                    ErrorCode::NotRepresentable,
                    format!(
                        "no [scale_offset, cast_value] sequence replaces it: {key} {} becomes {} in {d}",
                        n.text,
                        zarr_scale_offset_core::cast::show(d, s.bits)
                    ),
                ));
            }
            Ok(if s.lenient.is_some() {
                Json::Number(write_scalar(d, s.bits))
            } else {
                Json::Number(n.text.clone())
            })
        };
        let so = Json::Object(vec![
            ("name".into(), Json::String("scale_offset".into())),
            (
                "configuration".into(),
                Json::Object(vec![
                    ("scale".into(), scalar(&self.scale, "scale")?),
                    ("offset".into(), scalar(&self.offset, "offset")?),
                ]),
            ),
        ]);
        let mut seq = vec![so];
        if self.astype != self.dtype {
            let mut cfg = vec![
                ("data_type".into(), Json::String(self.astype.name().into())),
                ("rounding".into(), Json::String("nearest-even".into())),
            ];
            if self.astype.int().is_some() {
                cfg.push(("out_of_range".into(), Json::String("wrap".into())));
            }
            seq.push(Json::Object(vec![
                ("name".into(), Json::String("cast_value".into())),
                ("configuration".into(), Json::Object(cfg)),
            ]));
        }
        Ok(Json::Array(seq))
    }
}

/// `fromFixedScaleOffset(config)`: the `[scale_offset, cast_value]` sequence that supersedes a
/// `numcodecs.fixedscaleoffset` codec (see [`FixedScaleOffset::replacement`]). `config_json` is
/// the codec object (`{"name": "numcodecs.fixedscaleoffset", "configuration": {…}}`), its bare
/// configuration, or a Zarr v2 filter (`{"id": "fixedscaleoffset", …}`). `array_dtype` is the
/// data type the codec receives; when `None` it is the configuration's `dtype`. The first
/// problem of the configuration is the error.
pub fn from_fixed_scale_offset(config_json: &Json, array_dtype: Option<DataType>) -> Result<Json> {
    let (cfg, ptr) = match config_json.get("name") {
        Some(n) if n.as_str() == Some(NAME) => match config_json.get("configuration") {
            Some(c) => (c, "/configuration"),
            None => {
                return Err(Error::metadata(
                    "",
                    format!("{NAME} requires a \"configuration\""),
                ))
            }
        },
        Some(n) => {
            return Err(Error::metadata(
                "/name",
                format!(
                    "expected the codec {}, found {}",
                    quote(NAME),
                    n.to_json_string()
                ),
            ))
        }
        None => (config_json, ""),
    };
    let mut report = Report::default();
    let dtype = match array_dtype {
        Some(d) => Some(d),
        None => cfg
            .get("dtype")
            .and_then(Json::as_str)
            .and_then(parse_numpy_dtype)
            .map(|d| d.data_type),
    };
    if dtype.is_none() && cfg.get("dtype").is_none() {
        return Err(Error::metadata(
            ptr,
            "cannot tell the array data type: pass it or give \"dtype\" in the configuration",
        ));
    }
    // A v2 filter (with its "id") follows the v2 rules: byte orders allowed, dtype required.
    let form = if cfg.get("id").is_some() {
        Form::V2
    } else {
        Form::V3
    };
    let codec = FixedScaleOffset::parse_at(cfg, ptr, dtype, form, &mut report);
    report.into_result(codec)?.replacement()
}

/// A JSON number of the configuration (`None` after reporting an error).
fn number(v: &Json, p: &str, key: &str, report: &mut Report) -> Option<Number> {
    let Json::Number(t) = v else {
        report.error(Error::metadata(
            p,
            format!(
                "{key} must be a JSON number, found {} {}",
                v.kind_name(),
                v.to_json_string()
            ),
        ));
        return None;
    };
    let s = report.check(parse_scalar(DataType::Float64, v, p))?;
    let value = f64::from_bits(s.bits);
    if !value.is_finite() {
        let numcodecs = if t.contains(['.', 'e', 'E']) {
            "Python reads it as inf"
        } else {
            "numcodecs raises OverflowError converting the Python int"
        };
        report.error(Error::metadata(
            p,
            format!("{key} {t} is beyond the float64 range numcodecs computes in ({numcodecs})"),
        ));
        return None;
    }
    Some(Number {
        text: t.clone(),
        value,
    })
}

/// A NumPy data type spelling of the configuration (`None` after reporting an error).
fn numpy_dtype(
    v: &Json,
    p: &str,
    key: &str,
    form: Form,
    report: &mut Report,
) -> Option<NumpyDtype> {
    let Some(s) = v.as_str() else {
        report.error(Error::metadata(
            p,
            format!(
                "{key} must be a NumPy data type string such as \"<f8\", found {}",
                v.kind_name()
            ),
        ));
        return None;
    };
    let Some(d) = parse_numpy_dtype(s) else {
        let code = if other_numpy_type(s) {
            ErrorCode::UnsupportedDataType
        } else {
            ErrorCode::InvalidMetadata
        };
        report.error(Error::at(
            code,
            p,
            format!(
                "{key} {} is not a NumPy spelling of {NUMPY_TYPES}",
                quote(s)
            ),
        ));
        return None;
    };
    if form == Form::V3 && d.is_big() {
        report.error(Error::metadata(
            p,
            format!(
                "{key} {} is big-endian; in a Zarr v3 chain the bytes codec sets the byte order (zarr-python would reinterpret the values): write {}",
                quote(s),
                quote(d.data_type.name())
            ),
        ));
        return None;
    }
    Some(d)
}

/// Selects the arithmetic for `astype` and checks the scalars in it.
fn arith(
    astype: DataType,
    scale: &Number,
    offset: &Number,
    cfg_ptr: &str,
    report: &mut Report,
) -> Option<Arith> {
    let a = match astype {
        DataType::Float32 => Arith::F32 {
            scale: scale.value as f32,
            offset: offset.value as f32,
        },
        DataType::Float16 => Arith::F16 {
            scale: round_f16(scale.value),
            offset: round_f16(offset.value),
        },
        _ => Arith::F64 {
            scale: scale.value,
            offset: offset.value,
        },
    };
    let (s, o) = a.scalars();
    let t = a.type_name();
    let mut ok = true;
    if s == 0.0 || !s.is_finite() {
        report.error(Error::metadata(
            &pointer_push(cfg_ptr, "scale"),
            format!(
                "scale {} becomes {} in {t}, the type numcodecs computes in for astype {astype}: every value would decode to the offset, NaN or infinity",
                scale.text,
                zarr_scale_offset_core::text::shortest_text(s, false)
            ),
        ));
        ok = false;
    }
    if !o.is_finite() {
        report.error(Error::metadata(
            &pointer_push(cfg_ptr, "offset"),
            format!(
                "offset {} becomes {} in {t}, the type numcodecs computes in for astype {astype}",
                offset.text,
                zarr_scale_offset_core::text::shortest_text(o, false)
            ),
        ));
        ok = false;
    }
    ok.then_some(a)
}

/// The decode's typed loops (native builds): chosen once per tile of [`TILE`] elements by
/// `(astype, dtype)` instead of per element, in two monomorphised passes over a stack tile of
/// f64 values, the same two halves as [`FixedScaleOffset::decode_value`]:
///
/// 1. `astype` elements -> the arithmetic's results: one loop per `astype`, with
///    the arithmetic of that `astype` (float64 for the integers and float64, float32 for float32,
///    float16 for float16); each result is a value of the arithmetic type, exact in f64;
/// 2. those f64 values -> `dtype` elements (`astype(dtype)`): one loop per `dtype`, with the x86-64
///    conversions written so that they vectorise ([`cvtt32`], [`cvtt64`]).
///
/// 11 + 11 loops rather than one per pair (121): the tile stays in L1, and the code stays small.
/// Same operations, in the same order and types, as the per-element reference, so the same bits
/// (NaN payloads included); `tests::typed_loops_are_the_reference` checks every pair.
///
/// Not in the wasm build, which keeps the per-element loop: the zarrita path's download is
/// within 20 B of its 100,000 B gzip budget (`scripts/sizes.mjs`), and these loops would add
/// 840 B to it (gzip; measured with them compiled in: 100,820 B).
#[cfg(not(target_family = "wasm"))]
mod typed {
    use super::{f16_bits, round_f16, Arith, FixedScaleOffset};
    use zarr_scale_offset_core::dtype::DataType;
    use zarr_scale_offset_core::kernels::{Elem, TILE};
    use zarr_scale_offset_core::num::F16;

    /// Decodes `input` (`astype` elements) into `out` (as many `dtype` elements; the caller has
    /// checked both lengths); `false`, on the first tile, for a pair the loops do not name (none
    /// of the 11 x 11: the caller's per-element loop then decodes the whole buffer).
    pub(super) fn decode(c: &FixedScaleOffset, input: &[u8], out: &mut [u8]) -> bool {
        #[cfg(target_arch = "x86_64")]
        if zarr_scale_offset_core::kernels::avx2() {
            // SAFETY: `decode_avx2`'s one requirement (`#[target_feature(enable = "avx2")]`) is
            // that the CPU has AVX2, which `avx2()` has just found; its body is safe code.
            return unsafe { decode_avx2(c, input, out) };
        }
        decode_body(c, input, out)
    }

    /// [`decode`] compiled for AVX2, chosen as the kernels' twins are (`kernels::avx2()`, which
    /// `ZARR_SCALE_OFFSET_NO_AVX2` turns off): 4 f64 lanes per division where the x86-64
    /// baseline has 2, so float64 <- int16 decodes in 0.58 ms per 1 Mi elements instead of
    /// 0.98 ms (`profile.wheel`, this machine).
    #[cfg(target_arch = "x86_64")]
    #[target_feature(enable = "avx2")]
    fn decode_avx2(c: &FixedScaleOffset, input: &[u8], out: &mut [u8]) -> bool {
        decode_body(c, input, out)
    }

    /// The body of [`decode`]: every function its loops call is inlined into it, so that
    /// [`decode_avx2`] compiles them for AVX2 too (the float16 roundings aside).
    #[inline(always)]
    fn decode_body(c: &FixedScaleOffset, input: &[u8], out: &mut [u8]) -> bool {
        let (a, d) = (c.astype.size().max(1), c.dtype.size().max(1));
        let mut tile = [0f64; TILE];
        for (i, o) in input.chunks(TILE * a).zip(out.chunks_mut(TILE * d)) {
            let y = tile.get_mut(..i.len() / a).unwrap_or_default();
            if !arith(c, i, y) || !store(c, y, o) {
                return false;
            }
        }
        true
    }

    /// `y[k] = f(input[k])`.
    #[inline(always)]
    fn load<S: Elem>(input: &[u8], y: &mut [f64], f: impl Fn(S) -> f64) {
        for (y, i) in y.iter_mut().zip(input.chunks_exact(S::SIZE)) {
            *y = f(S::load(i));
        }
    }

    /// Pass 1: the arithmetic's results of the `astype` elements of `input` (`false`: not a
    /// NumPy `astype`).
    #[inline(always)]
    fn arith(c: &FixedScaleOffset, input: &[u8], y: &mut [f64]) -> bool {
        use DataType::*;
        match (c.astype, c.arith) {
            (Float32, Arith::F32 { scale, offset }) => {
                load(input, y, |x: f32| (x / scale + offset) as f64)
            }
            (Float16, Arith::F16 { scale, offset }) => load(input, y, |x: u16| {
                round_f16(round_f16(F16.decode(x as u64) / scale) + offset)
            }),
            (t, Arith::F64 { scale, offset }) => {
                let f = move |x: f64| x / scale + offset;
                match t {
                    Int8 => load(input, y, |x: i8| f(x as f64)),
                    UInt8 => load(input, y, |x: u8| f(x as f64)),
                    Int16 => load(input, y, |x: i16| f(x as f64)),
                    UInt16 => load(input, y, |x: u16| f(x as f64)),
                    Int32 => load(input, y, |x: i32| f(x as f64)),
                    UInt32 => load(input, y, |x: u32| f(x as f64)),
                    // Round to nearest even beyond 2^53, as the reference's i128 -> f64.
                    Int64 => load(input, y, |x: i64| f(x as f64)),
                    UInt64 => load(input, y, |x: u64| f(x as f64)),
                    Float64 => load(input, y, f),
                    _ => return false,
                }
            }
            // Not bound: the arithmetic follows from astype.
            _ => return false,
        }
        true
    }

    /// `out[k] = f(y[k])`.
    #[inline(always)]
    fn put<D: Elem>(y: &[f64], out: &mut [u8], f: impl Fn(f64) -> D) {
        for (o, y) in out.chunks_exact_mut(D::SIZE).zip(y) {
            f(*y).store(o);
        }
    }

    /// Pass 2: NumPy's `astype(dtype)` of the results, on x86-64 (see [`super::x86_float_to_int`];
    /// `false`: not a NumPy `dtype`).
    #[inline(always)]
    fn store(c: &FixedScaleOffset, y: &[f64], out: &mut [u8]) -> bool {
        use DataType::*;
        match c.dtype {
            Float64 => put(y, out, |v| v),
            Float32 => put(y, out, |v| v as f32),
            Float16 => put(y, out, |v| f16_bits(v) as u16),
            // The low bits of the 32-bit truncation.
            Int8 => put(y, out, |v| cvtt32(v) as i8),
            UInt8 => put(y, out, |v| cvtt32(v) as u8),
            Int16 => put(y, out, |v| cvtt32(v) as i16),
            UInt16 => put(y, out, |v| cvtt32(v) as u16),
            Int32 => put(y, out, cvtt32),
            // The low 32 bits of the 64-bit truncation.
            UInt32 => put(y, out, |v| cvtt64(v) as u32),
            Int64 => put(y, out, cvtt64),
            UInt64 => put(y, out, cvtt_u64),
            _ => return false,
        }
        true
    }

    /// x86-64 `cvttsd2si` with a 32-bit destination (as [`super::cvtt32`]): `trunc(x)` lies in
    /// `[-2^31, 2^31 - 1]` exactly when `-2^31 - 1 < x < 2^31` (both exact in f64; false for
    /// NaN), and there `as` truncates; otherwise `INT32_MIN`. No `trunc` call, so it vectorises.
    #[inline(always)]
    pub(super) fn cvtt32(x: f64) -> i32 {
        if x > -2_147_483_649.0 && x < 2_147_483_648.0 {
            x as i32
        } else {
            i32::MIN
        }
    }

    /// x86-64 `cvttsd2si` with a 64-bit destination (as [`super::cvtt64`]): `trunc(x)` lies in
    /// `[-2^63, 2^63)` exactly when `x` does (the f64 below -2^63 are at most -2^63 - 2048, and
    /// truncation toward zero keeps them below); otherwise `INT64_MIN`.
    #[inline(always)]
    pub(super) fn cvtt64(x: f64) -> i64 {
        if (-9_223_372_036_854_775_808.0..9_223_372_036_854_775_808.0).contains(&x) {
            x as i64
        } else {
            i64::MIN
        }
    }

    /// NumPy's uint64 cast on x86-64 (as in [`super::x86_float_to_int`]).
    #[inline(always)]
    pub(super) fn cvtt_u64(x: f64) -> u64 {
        const TWO63: f64 = 9_223_372_036_854_775_808.0;
        if x >= TWO63 {
            (cvtt64(x - TWO63) as u64) ^ (1u64 << 63)
        } else {
            cvtt64(x) as u64
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::json::parse;
    use DataType::*;

    fn codec(cfg: &str, dtype: DataType) -> (Option<FixedScaleOffset>, Report) {
        let v = parse(cfg).unwrap();
        let mut r = Report::default();
        let c = FixedScaleOffset::parse(Some(&v), "/codecs/0", dtype, &mut r);
        (c, r)
    }

    /// float16 rounding of an f64 is one rounding of the whole f64: 1 + 2^-11 + 2^-40 lies just
    /// above the tie between 1 and 1 + 2^-10. (`half` 2.7's `f16::from_f64` gives 0x3c00 here: it
    /// drops the low 32 bits of the significand, and with f16c it rounds through float32 first,
    /// which is why this codec does not use it.)
    #[test]
    fn f16_rounding_is_one_rounding_of_the_f64() {
        let x = 1.0 + 2f64.powi(-11) + 2f64.powi(-40);
        assert_eq!(f16_bits(x), 0x3c01);
        assert_eq!(f16_bits(-x), 0xbc01);
        assert_eq!(f16_bits(1.0 + 2f64.powi(-11)), 0x3c00); // the tie itself: to even
        assert_eq!(round_f16(x), 1.0 + 2f64.powi(-10));
        // Just below half the smallest subnormal (2^-25) rounds to 0, just above to 2^-24.
        assert_eq!(f16_bits(2f64.powi(-25) * (1.0 - 2f64.powi(-40))), 0);
        assert_eq!(f16_bits(2f64.powi(-25) * (1.0 + 2f64.powi(-40))), 1);
    }

    #[test]
    fn reports_every_problem() {
        let (c, r) = codec(
            r#"{"offset":"1","scale":0,"dtype":"<f4","astype":"complex64","extra":1}"#,
            Float64,
        );
        assert!(c.is_none());
        let got: Vec<(&str, &str)> = r.errors.iter().map(|d| (d.path.as_str(), d.code)).collect();
        assert_eq!(
            got,
            [
                ("/codecs/0/configuration/offset", "invalid_metadata"),
                ("/codecs/0/configuration/astype", "unsupported_data_type"),
                ("/codecs/0/configuration/extra", "invalid_metadata"),
                ("/codecs/0/configuration/scale", "invalid_metadata"),
                ("/codecs/0/configuration/dtype", "invalid_metadata"),
            ]
        );
    }

    #[test]
    fn missing_configuration_and_keys() {
        let mut r = Report::default();
        assert!(FixedScaleOffset::parse(None, "/codecs/0", Float64, &mut r).is_none());
        assert_eq!(r.errors[0].path, "/codecs/0");
        let (c, r) = codec(r#"{"dtype":"<f8"}"#, Float64);
        assert!(c.is_none());
        assert_eq!(r.errors.len(), 2);
        assert!(r.errors.iter().all(|d| d.path == "/codecs/0/configuration"));
        let (c, r) = codec(r#"[]"#, Float64);
        assert!(c.is_none());
        assert_eq!(r.errors[0].path, "/codecs/0/configuration");
    }

    #[test]
    fn defaults_ids_and_warnings() {
        let (c, r) = codec(r#"{"offset":0,"scale":100}"#, Float32);
        let c = c.unwrap();
        assert_eq!((c.dtype(), c.encoded_dtype()), (Float32, Float32));
        let codes: Vec<&str> = r.warnings.iter().map(|w| w.code).collect();
        assert_eq!(codes, ["lenient_form", "lenient_form", "read_only_codec"]);
        let (c, _) = codec(
            r#"{"id":"fixedscaleoffset","offset":0,"scale":1,"dtype":"|u1"}"#,
            UInt8,
        );
        assert!(c.is_some());
        let (c, r) = codec(r#"{"id":"delta","offset":0,"scale":1}"#, UInt8);
        assert!(c.is_none());
        assert_eq!(r.errors[0].path, "/codecs/0/configuration/id");
        // A data type numcodecs does not have.
        let (c, r) = codec(r#"{"offset":0,"scale":1}"#, BFloat16);
        assert!(c.is_none());
        assert_eq!(r.errors[0].code, "unsupported_data_type");
        // Big-endian spellings are refused in v3 configurations; one-byte ones are fine.
        let (c, r) = codec(
            r#"{"offset":0,"scale":1,"dtype":">f8","astype":">u1"}"#,
            Float64,
        );
        assert!(c.is_none());
        assert_eq!(r.errors.len(), 1);
        assert_eq!(r.errors[0].path, "/codecs/0/configuration/dtype");
    }

    #[test]
    fn scalars_in_the_arithmetic_type() {
        // 1e-50 is a fine float64 but 0 in float32.
        let (c, r) = codec(
            r#"{"offset":0,"scale":1e-50,"dtype":"<f8","astype":"<f4"}"#,
            Float64,
        );
        assert!(c.is_none());
        assert_eq!(r.errors[0].path, "/codecs/0/configuration/scale");
        // 70000 overflows float16.
        let (c, r) = codec(r#"{"offset":70000,"scale":1,"dtype":"<f2"}"#, Float16);
        assert!(c.is_none());
        assert_eq!(r.errors[0].path, "/codecs/0/configuration/offset");
        let (c, _) = codec(
            r#"{"offset":0,"scale":1e400,"dtype":"<f8","astype":"<i4"}"#,
            Float64,
        );
        assert!(c.is_none());
        let (c, _) = codec(
            r#"{"offset":0,"scale":-0.0,"dtype":"<f8","astype":"<i4"}"#,
            Float64,
        );
        assert!(c.is_none());
    }

    #[test]
    fn length_checks() {
        let (c, _) = codec(
            r#"{"offset":0,"scale":1,"dtype":"<f8","astype":"<u2"}"#,
            Float64,
        );
        let c = c.unwrap();
        let mut out = [0u8; 8];
        assert_eq!(
            c.decode(&[1, 2, 3], &mut out).unwrap_err().code,
            ErrorCode::LengthMismatch
        );
        assert_eq!(
            c.decode(&[1, 2, 3, 4], &mut out).unwrap_err().code,
            ErrorCode::LengthMismatch
        );
        assert_eq!(c.decode_to_vec(&[1, 0]).unwrap(), 1.0f64.to_le_bytes());
    }

    #[test]
    fn float16_arithmetic() {
        // astype float16: each operation rounded to float16. 1/3 in float16 is 0x3555.
        let (c, _) = codec(
            r#"{"offset":0,"scale":3,"dtype":"<f2","astype":"<f2"}"#,
            Float16,
        );
        let c = c.unwrap();
        assert_eq!(c.decode_value(0x3c00), 0x3555);
        // NaN and infinity pass through.
        assert_eq!(c.decode_value(0x7e00) & 0x7c00, 0x7c00);
        assert_eq!(c.decode_value(0x7c00), 0x7c00);
    }

    /// The typed loops (native builds) give the per-element reference's bits for every
    /// (astype, dtype) pair, over random bits and edge values, across tile boundaries, for
    /// scales and offsets that reach every conversion's out-of-range and NaN cases.
    #[test]
    fn typed_loops_are_the_reference() {
        let types = [
            Int8, UInt8, Int16, UInt16, Int32, UInt32, Int64, UInt64, Float16, Float32, Float64,
        ];
        let configs = [
            ("100", "273.15"),
            ("1e-12", "-5"),
            ("-3", "1e10"),
            ("0.5", "0"),
            ("7", "-2147483648.5"),
            ("1e-300", "0"),
        ];
        let mut state = 0x9e37_79b9_7f4a_7c15u64;
        let mut next = || {
            state ^= state << 13;
            state ^= state >> 7;
            state ^= state << 17;
            state
        };
        let specials: [u64; 12] = [
            0,
            1,
            u64::MAX,
            1 << 63,
            (1 << 63) - 1,
            0x7ff8_0000_0000_0001,
            0x7ff0_0000_0000_0000,
            0x7fc0_0001,
            0x7f80_0000,
            0x7e01,
            0x7c00,
            0xfc00,
        ];
        let mut pairs = 0;
        for astype in types {
            let n = 2 * zarr_scale_offset_core::kernels::TILE + 37;
            let mut input = vec![0u8; n * astype.size()];
            for (k, e) in input.chunks_exact_mut(astype.size()).enumerate() {
                let bits = specials.get(k).copied().unwrap_or_else(&mut next);
                e.copy_from_slice(&bits.to_le_bytes()[..astype.size()]);
            }
            for dtype in types {
                for (scale, offset) in configs {
                    let cfg = format!(
                        r#"{{"offset":{offset},"scale":{scale},"dtype":"{dtype}","astype":"{astype}"}}"#
                    );
                    let (Some(c), _) = codec(&cfg, dtype) else {
                        continue;
                    };
                    let mut want = vec![0u8; n * dtype.size()];
                    for k in 0..n {
                        dtype.write_bits(&mut want, k, c.decode_value(astype.read_bits(&input, k)));
                    }
                    let got = c.decode_to_vec(&input).unwrap();
                    assert!(got == want, "{cfg}");
                    pairs += 1;
                }
            }
        }
        assert!(pairs > 500, "{pairs}");
    }

    /// The typed loops' conversions are [`x86_float_to_int`] at its edges.
    #[cfg(not(target_family = "wasm"))]
    #[test]
    fn typed_conversions_at_the_edges() {
        let mut xs = vec![f64::NAN, -f64::NAN, f64::INFINITY, f64::NEG_INFINITY, 0.0, -0.0];
        for e in [31, 32, 53, 63, 64] {
            let p = 2f64.powi(e);
            for v in [p, -p] {
                xs.extend([v, v.next_up(), v.next_down(), v + 1.0, v - 1.0, v + 0.5, v - 0.5]);
                xs.extend([v - 1.5, v + 1.5, v * 1.5]);
            }
        }
        for x in xs {
            let t = |d| x86_float_to_int(x, d).unwrap();
            assert_eq!(typed::cvtt32(x) as i128, t(Int32), "{x}");
            assert_eq!(typed::cvtt32(x) as i8 as i128, t(Int8), "{x}");
            assert_eq!(typed::cvtt32(x) as u16 as i128, t(UInt16), "{x}");
            assert_eq!(typed::cvtt64(x) as i128, t(Int64), "{x}");
            assert_eq!(typed::cvtt64(x) as u32 as i128, t(UInt32), "{x}");
            assert_eq!(typed::cvtt_u64(x) as i128, t(UInt64), "{x}");
        }
    }
}
