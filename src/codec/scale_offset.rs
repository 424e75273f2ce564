//! The `scale_offset` codec (encode `(x - offset) * scale`, decode `x / scale + offset`) and
//! its multiply-to-unpack sibling `cf.scale_offset` (encode `(x - offset) / scale`, decode
//! `x * scale + offset`, zarr-extensions issue #64). Every operation is computed in the array's
//! data type, one rounding per operation, never fused; an unrepresentable intermediate or result
//! is an error.
//!
//! - **Spec**: `scale_offset`: [zarr-extensions `codecs/scale_offset/README.md`](https://github.com/zarr-developers/zarr-extensions/blob/main/codecs/scale_offset/README.md)
//!   (merged in PR #43). `cf.scale_offset`: the proposal [zarr-extensions issue #64](https://github.com/zarr-developers/zarr-extensions/issues/64)
//!   ("a multiply-to-unpack scale/offset codec"; no spec has landed, and the name is ours).
//! - **Names**: v3 `"scale_offset"` and `"cf.scale_offset"` (array -> array); no Zarr v2 id (a
//!   v2 `fixedscaleoffset` filter is `numcodecs.fixedscaleoffset`, in `fixedscaleoffset.rs`).
//! - **Configuration**: `{"offset": scalar, "scale": scalar}`, both optional, each in the fill
//!   value encoding of the data type the codec receives; no other key.
//!
//! ```
//! use zarr_scale_offset::{decode, encode, DataType, ErrorCode};
//!
//! // float32 values packed into int16: (x - 1000) * 10 in float32, then cast_value (nearest-even).
//! let codecs = r#"[{"name": "scale_offset", "configuration": {"offset": 1000, "scale": 10}},
//!                  {"name": "cast_value", "configuration": {"data_type": "int16"}}]"#;
//! let x: Vec<u8> = [1000.0f32, 1012.5, 987.25].iter().flat_map(|v| v.to_le_bytes()).collect();
//! let (stored_type, stored) = encode(codecs, "float32", &x)?;
//! assert_eq!(stored_type, DataType::Int16);
//! let codes: Vec<i16> = stored.chunks(2).map(|b| i16::from_le_bytes([b[0], b[1]])).collect();
//! assert_eq!(codes, [0, 125, -128]); // -127.5 rounds half to even
//! let back = decode(codecs, "float32", &stored)?;
//! let back: Vec<f32> = back.chunks(4).map(|b| f32::from_le_bytes([b[0], b[1], b[2], b[3]])).collect();
//! assert_eq!(back, [1000.0, 1012.5, -12.8f32 + 1000.0]);
//!
//! // cf.scale_offset multiplies to unpack (CF `scale_factor` 0.1); scale_offset divides by 10.
//! let cf = r#"[{"name": "cf.scale_offset", "configuration": {"scale": 0.1, "offset": 0}},
//!              {"name": "cast_value", "configuration": {"data_type": "uint8"}}]"#;
//! let so = r#"[{"name": "scale_offset", "configuration": {"scale": 10, "offset": 0}},
//!              {"name": "cast_value", "configuration": {"data_type": "uint8"}}]"#;
//! let f64_of = |b: Vec<u8>| f64::from_le_bytes(b.try_into().unwrap());
//! assert_eq!(f64_of(decode(cf, "float64", &[3])?), 0.30000000000000004); // 3 * 0.1
//! assert_eq!(f64_of(decode(so, "float64", &[3])?), 0.3); // 3 / 10
//!
//! // Integer arithmetic is exact: int8 3 / 2 is an error, not 1.
//! let half = r#"{"name": "scale_offset", "configuration": {"scale": 2}}"#;
//! let e = decode(half, "int8", &[3]).unwrap_err();
//! assert_eq!(e.code, ErrorCode::NotRepresentable);
//! # Ok::<(), zarr_scale_offset::Error>(())
//! ```

use zarr_scale_offset_core::cast::{show, show_f64};
use crate::codec::{
    each_element, scalar, ArrayBinding, Binder, BoundArrayCodec, CastValue, CodecDef, CodecKind, Fused,
    RunOptions,
};
use zarr_scale_offset_core::dtype::{DataType, Kind, Prim};
use zarr_scale_offset_core::error::{Error, ErrorCode, Result};
use crate::report::Report;
use zarr_scale_offset_core::text::int_text;
use crate::json::{pointer_push, Fields, Json};
use zarr_scale_offset_core::kernels::arith::{
    float_decode_f32, float_decode_f64, float_encode_f32, float_encode_f64, IntKernel, Op,
};
use zarr_scale_offset_core::kernels::fused::{FloatArith, FusedDecode, FusedEncode};
use zarr_scale_offset_core::kernels::run_blocks;
use zarr_scale_offset_core::num::{FloatFormat, IntFormat, Rounded, RoundingMode};
use zarr_scale_offset_core::direction::{Direction, PerDirection};
use std::any::Any;

/// The registry entry of `scale_offset` (`cf.scale_offset`, the same arithmetic with the other
/// convention, is registered by [`super::cf_scale_offset`]).
pub const CODECS: &[CodecDef] = &[CodecDef {
    name: "scale_offset",
    v2: None,
    kind: CodecKind::ArrayToArray,
    binder: Binder::Array(|c, p, t, r| bind(Convention::ScaleOffset, c, p, t, r)),
}];

/// Binds a `scale_offset` (`conv`: or `cf.scale_offset`) configuration to the data type it
/// receives; when that is unknown (`None`, already reported), only the configuration's shape is
/// checked (its keys; the scalars need the data type).
pub(crate) fn bind(
    conv: Convention,
    config: Option<&Json>,
    pointer: &str,
    dtype: Option<DataType>,
    report: &mut Report,
) -> ArrayBinding {
    let Some(dtype) = dtype else {
        read_config(conv, config, pointer, report);
        return ArrayBinding {
            codec: None,
            encoded: None,
        };
    };
    ArrayBinding {
        codec: ScaleOffset::parse(conv, config, pointer, dtype, report)
            .map(|c| Box::new(c) as Box<dyn BoundArrayCodec>),
        encoded: Some(dtype),
    }
}

/// Reads the configuration's shape (an object of at most `offset` and `scale`), before it meets
/// a data type: its pointer and the opened object.
fn read_config<'a>(
    conv: Convention,
    config: Option<&'a Json>,
    pointer: &str,
    report: &mut Report,
) -> (String, Option<Fields<'a>>) {
    let cfg_ptr = pointer_push(pointer, "configuration");
    let what = format!("the {} configuration", conv.name());
    let keys = ["offset", "scale"];
    let cfg = config.and_then(|c| Fields::open(c, &cfg_ptr, &what, &keys, report));
    (cfg_ptr, cfg)
}

/// Arithmetic selected once at bind time.
#[derive(Debug, Clone, Copy)]
enum Arith {
    /// Exact integer arithmetic with a range check after every operation.
    Int {
        fmt: IntFormat,
        offset: i128,
        scale: i128,
    },
    /// Native IEEE binary32 (no FMA). `dec_offset` is the offset decode adds: `offset`, or
    /// -0.0 for a missing `cf.scale_offset` offset (see [`decode_offset`]).
    F32 { offset: f32, dec_offset: f32, scale: f32 },
    /// Native IEEE binary64 (no FMA); `dec_offset` as for `F32`.
    F64 { offset: f64, dec_offset: f64, scale: f64 },
    /// Any narrower float: an f64 operation, then one nearest-even rounding to the format
    /// (exact: binary64 has more than 2p+2 bits for every such format). `offset` is `None` when
    /// there is no step: float8_e8m0fnu has no zero to subtract, and a missing `cf.scale_offset`
    /// offset adds nothing (see [`decode_offset`]).
    Narrow {
        fmt: FloatFormat,
        offset: Option<f64>,
        scale: f64,
    },
}

/// Which side of the codec multiplies.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Convention {
    /// `scale_offset`: multiply to pack, divide to unpack.
    ScaleOffset,
    /// `cf.scale_offset`: divide to pack, multiply to unpack (CF, GDAL).
    Cf,
}

impl Convention {
    /// The operation applied to the scale when encoding and when decoding.
    fn ops(self) -> (Op, Op) {
        match self {
            Convention::ScaleOffset => (Op::Mul, Op::Div),
            Convention::Cf => (Op::Div, Op::Mul),
        }
    }

    /// The codec name.
    pub fn name(self) -> &'static str {
        match self {
            Convention::ScaleOffset => "scale_offset",
            Convention::Cf => "cf.scale_offset",
        }
    }
}

/// A `scale_offset` or `cf.scale_offset` codec bound to its data type.
#[derive(Debug, Clone)]
pub struct ScaleOffset {
    dtype: DataType,
    arith: Arith,
    conv: Convention,
    /// The integer kernel, selected at bind time (int16 ... uint64).
    int_kernel: Option<IntKernel>,
}

/// Why one element failed, before the element index is attached.
struct Fail(ErrorCode, String);

impl ScaleOffset {
    /// Parses the configuration (`None` when absent) for input data type `dtype`. `pointer` is
    /// the JSON pointer of the codec object. Every problem is reported into `report` (then the
    /// result is `None`); lenient scalar forms become warnings.
    pub fn parse(
        conv: Convention,
        config: Option<&Json>,
        pointer: &str,
        dtype: DataType,
        report: &mut Report,
    ) -> Option<Self> {
        let errors_before = report.error_count();
        let (cfg_ptr, cfg) = read_config(conv, config, pointer, report);
        let read = |k: &str, report: &mut Report| {
            scalar(dtype, cfg.as_ref()?.get(k)?, &pointer_push(&cfg_ptr, k), report)
        };
        let offset = read("offset", report);
        let scale = read("scale", report);
        let scale_ptr = pointer_push(&cfg_ptr, "scale");
        let arith = match dtype.kind() {
            Kind::Int(fmt) => {
                let offset = offset.map_or(0, |b| fmt.from_bits(b));
                let scale = scale.map_or(1, |b| fmt.from_bits(b));
                if scale == 0 {
                    report.error(Error::metadata(&scale_ptr, "scale must be non-zero"));
                }
                Arith::Int { fmt, offset, scale }
            }
            Kind::Float(fmt) => {
                // A missing offset is the additive identity +0 (so -0 + offset gives +0, as
                // IEEE addition does); float8_e8m0fnu has no zero: no subtraction at all.
                let off = match offset {
                    Some(b) => Some(fmt.decode(b)),
                    None if fmt.has_zero() && conv == Convention::ScaleOffset => Some(0.0),
                    None => None,
                };
                let dec_off = decode_offset(conv, off);
                let sc = scale.map_or(1.0, |b| fmt.decode(b));
                if sc == 0.0 {
                    report.error(Error::metadata(
                        &scale_ptr,
                        format!(
                            "scale must be non-zero (got {})",
                            show(dtype, scale.unwrap_or(0))
                        ),
                    ));
                } else if !sc.is_finite() {
                    report.warn(
                        &scale_ptr,
                        "non_finite_scale",
                        format!(
                            "scale {} makes every decoded value NaN, zero or infinite",
                            show(dtype, scale.unwrap_or(0))
                        ),
                    );
                }
                match dtype {
                    DataType::Float32 => Arith::F32 {
                        offset: off.unwrap_or(0.0) as f32,
                        dec_offset: dec_off as f32,
                        scale: sc as f32,
                    },
                    DataType::Float64 => Arith::F64 {
                        offset: off.unwrap_or(0.0),
                        dec_offset: dec_off,
                        scale: sc,
                    },
                    _ => Arith::Narrow {
                        fmt,
                        offset: off,
                        scale: sc,
                    },
                }
            }
        };
        if report.error_count() > errors_before {
            return None;
        }
        let (enc_op, dec_op) = conv.ops();
        let int_kernel = match arith {
            Arith::Int { offset, scale, .. } => {
                IntKernel::select(dtype, offset, scale, enc_op, dec_op)
            }
            _ => None,
        };
        Some(ScaleOffset {
            dtype,
            arith,
            conv,
            int_kernel,
        })
    }

    /// The float32/float64 decode arithmetic, for a fused chain kernel.
    pub fn float_arith(&self) -> Option<FloatArith> {
        let (_, op) = self.ops();
        match self.arith {
            Arith::F32 {
                dec_offset, scale, ..
            } => Some(FloatArith {
                ty: Prim::F32,
                op,
                offset: dec_offset as f64,
                scale: scale as f64,
            }),
            Arith::F64 {
                dec_offset, scale, ..
            } => Some(FloatArith {
                ty: Prim::F64,
                op,
                offset: dec_offset,
                scale,
            }),
            _ => None,
        }
    }

    /// The float32/float64 encode arithmetic, for a fused chain kernel.
    pub fn float_arith_encode(&self) -> Option<FloatArith> {
        let (op, _) = self.ops();
        let offset = match self.arith {
            Arith::F32 { offset, .. } => offset as f64,
            Arith::F64 { offset, .. } => offset,
            _ => return None,
        };
        self.float_arith().map(|a| FloatArith { op, offset, ..a })
    }

    /// The integer kernel selected at bind time, if any (for tests and benchmarks).
    pub fn int_kernel(&self) -> Option<&IntKernel> {
        self.int_kernel.as_ref()
    }

    /// The codec name.
    pub fn name(&self) -> &'static str {
        self.conv.name()
    }

    /// The data type (unchanged by this codec).
    pub fn dtype(&self) -> DataType {
        self.dtype
    }

    /// The operation applied to the scale when encoding and when decoding.
    fn ops(&self) -> (Op, Op) {
        self.conv.ops()
    }

    fn encode_one(&self, x: u64) -> std::result::Result<u64, Fail> {
        let (op, _) = self.ops();
        let what = match op {
            Op::Mul => "(x - offset) * scale",
            Op::Div => "(x - offset) / scale",
        };
        match self.arith {
            Arith::Int { fmt, offset, scale } => {
                let x = fmt.from_bits(x);
                let d = int_step(fmt, x.checked_sub(offset), "x - offset")?;
                Ok(fmt.to_bits(int_scale(fmt, d, op, scale, what)?))
            }
            Arith::F32 { offset, scale, .. } => {
                Ok(f32_op(op, f32::from_bits(x as u32) - offset, scale).to_bits() as u64)
            }
            Arith::F64 { offset, scale, .. } => {
                Ok(f64_op(op, f64::from_bits(x) - offset, scale).to_bits())
            }
            Arith::Narrow { fmt, offset, scale } => {
                let v = fmt.decode(x);
                let d = match offset {
                    Some(o) => narrow_step(&fmt, v - o, "x - offset")?.1,
                    None => v,
                };
                Ok(narrow_step(&fmt, f64_op(op, d, scale), what)?.0)
            }
        }
    }

    fn decode_one(&self, y: u64) -> std::result::Result<u64, Fail> {
        let (_, op) = self.ops();
        let (what, what_off) = match op {
            Op::Mul => ("x * scale", "x * scale + offset"),
            Op::Div => ("x / scale", "x / scale + offset"),
        };
        match self.arith {
            Arith::Int { fmt, offset, scale } => {
                let y = fmt.from_bits(y);
                let q = int_scale(fmt, y, op, scale, what)?;
                let r = int_step(fmt, q.checked_add(offset), what_off)?;
                Ok(fmt.to_bits(r))
            }
            Arith::F32 {
                dec_offset, scale, ..
            } => Ok((f32_op(op, f32::from_bits(y as u32), scale) + dec_offset).to_bits() as u64),
            Arith::F64 {
                dec_offset, scale, ..
            } => Ok((f64_op(op, f64::from_bits(y), scale) + dec_offset).to_bits()),
            Arith::Narrow { fmt, offset, scale } => {
                let v = fmt.decode(y);
                let (code, q) = narrow_step(&fmt, f64_op(op, v, scale), what)?;
                match offset {
                    Some(o) => Ok(narrow_step(&fmt, q + o, what_off)?.0),
                    None => Ok(code),
                }
            }
        }
    }

    /// Encodes one value given as raw bits (used for the fill value).
    pub fn encode_value(&self, x: u64) -> Result<u64> {
        self.encode_one(x)
            .map_err(|Fail(c, m)| Error::new(c, format!("value {}: {m}", show(self.dtype, x))))
    }

    /// Decodes one value given as raw bits.
    pub fn decode_value(&self, y: u64) -> Result<u64> {
        self.decode_one(y).map_err(|Fail(c, m)| {
            Error::new(c, format!("stored value {}: {m}", show(self.dtype, y)))
        })
    }

    /// The kernel selected at bind time; the reference (`each`) for what it declines.
    fn run_dir(&self, dir: Direction, input: &[u8], out: &mut [u8], opts: RunOptions) -> Result<()> {
        let (enc_op, dec_op) = self.ops();
        let (o, enc) = match dir {
            Direction::Encode => (enc_op, true),
            Direction::Decode => (dec_op, false),
        };
        if opts.reference_only {
            return self.each(dir, 0, input, out);
        }
        match (self.arith, dir) {
            (Arith::F32 { offset, scale, .. }, Direction::Encode) => {
                float_encode_f32(input, out, o, offset, scale)
            }
            (
                Arith::F32 {
                    dec_offset, scale, ..
                },
                Direction::Decode,
            ) => float_decode_f32(input, out, o, dec_offset, scale),
            (Arith::F64 { offset, scale, .. }, Direction::Encode) => {
                float_encode_f64(input, out, o, offset, scale)
            }
            (
                Arith::F64 {
                    dec_offset, scale, ..
                },
                Direction::Decode,
            ) => float_decode_f64(input, out, o, dec_offset, scale),
            _ => {
                let size = self.dtype.size();
                let dir = if enc {
                    Direction::Encode
                } else {
                    Direction::Decode
                };
                return match &self.int_kernel {
                    Some(k) => run_blocks(
                        input,
                        out,
                        size,
                        size,
                        |i, o| k.run(dir, i, o),
                        |first, i, o| self.each(dir, first, i, o),
                    ),
                    None => self.each(dir, 0, input, out),
                };
            }
        }
        Ok(())
    }

    /// The reference: element by element; `first` is the index of `input`'s first element in
    /// the chunk (for error messages).
    fn each(&self, dir: Direction, first: usize, input: &[u8], out: &mut [u8]) -> Result<()> {
        let d = self.dtype;
        each_element(d, d, input, out, |i, x| {
            match dir {
                Direction::Encode => self.encode_one(x),
                Direction::Decode => self.decode_one(x),
            }
            .map_err(|Fail(c, m)| {
                Error::new(
                    c,
                    format!("element {} (value {}): {m}", first + i, show(d, x)),
                )
            })
        })
    }
}

impl BoundArrayCodec for ScaleOffset {
    fn name(&self) -> &'static str {
        self.conv.name()
    }
    fn decoded_type(&self) -> DataType {
        self.dtype
    }
    fn encoded_type(&self) -> DataType {
        self.dtype
    }
    fn encode_fill(&self, fill: u64) -> std::result::Result<Option<u64>, String> {
        self.encode_value(fill).map(Some).map_err(|e| {
            format!(
                "the fill value {} cannot pass through {}: {}",
                show(self.dtype, fill),
                self.name(),
                e.message
            )
        })
    }
    fn value(&self, dir: Direction, bits: u64) -> Option<u64> {
        match dir {
            Direction::Encode => self.encode_value(bits).ok(),
            Direction::Decode => self.decode_value(bits).ok(),
        }
    }
    fn run(&self, dir: Direction, input: &[u8], out: &mut [u8], opts: RunOptions) -> Result<()> {
        self.run_dir(dir, input, out, opts)
    }
    /// `[scale_offset, cast_value]` in float32/float64 arithmetic: one loop per direction where
    /// the cast kernels allow it.
    fn fuse(&self, next: &dyn BoundArrayCodec) -> PerDirection<Option<Fused>> {
        let Some(cv) = next.as_any().downcast_ref::<CastValue>() else {
            return PerDirection::default();
        };
        let (enc_k, dec_k) = cv.kernels();
        PerDirection {
            encode: FusedEncode::select(self.float_arith_encode(), enc_k, cv.out_of_range())
                .map(Fused::Encode),
            decode: FusedDecode::select(self.float_arith(), dec_k).map(Fused::Decode),
        }
    }
    fn as_any(&self) -> &dyn Any {
        self
    }
}

/// The offset float decode adds. `scale_offset` adds its offset, +0.0 when missing (as
/// zarr-python does). `cf.scale_offset` adds nothing for a missing offset, as xarray's
/// `decode_cf` applies `add_offset` only when present: adding -0.0 is that (x + -0.0 == x for
/// every x, -0.0 and NaN included), while +0.0 would turn a decoded -0.0 into +0.0.
fn decode_offset(conv: Convention, offset: Option<f64>) -> f64 {
    match (conv, offset) {
        (_, Some(o)) => o,
        (Convention::ScaleOffset, None) => 0.0,
        (Convention::Cf, None) => -0.0,
    }
}

/// One native f32 operation (Rust never contracts `a * b + c` into an FMA).
#[inline(always)]
fn f32_op(op: Op, a: f32, b: f32) -> f32 {
    match op {
        Op::Mul => a * b,
        Op::Div => a / b,
    }
}

/// One native f64 operation.
#[inline(always)]
fn f64_op(op: Op, a: f64, b: f64) -> f64 {
    match op {
        Op::Mul => a * b,
        Op::Div => a / b,
    }
}

/// Multiplies or (exactly) divides by the scale, with a range check.
#[inline]
fn int_scale(
    fmt: IntFormat,
    v: i128,
    op: Op,
    scale: i128,
    what: &str,
) -> std::result::Result<i128, Fail> {
    match op {
        Op::Mul => int_step(fmt, v.checked_mul(scale), what),
        Op::Div => {
            // `checked_rem`: None for a zero scale (rejected when binding) and never a panic.
            if v.checked_rem(scale) != Some(0) {
                return Err(Fail(
                    ErrorCode::NotRepresentable,
                    format!(
                        "{what} = {} / {} is not an integer, so it is not representable in {}",
                        int_text(v),
                        int_text(scale),
                        dtype_name(fmt)
                    ),
                ));
            }
            int_step(fmt, v.checked_div(scale), what)
        }
    }
}

fn dtype_name(fmt: IntFormat) -> String {
    format!("{}int{}", if fmt.signed { "" } else { "u" }, fmt.bits)
}

#[inline]
fn int_step(fmt: IntFormat, v: Option<i128>, what: &str) -> std::result::Result<i128, Fail> {
    match v {
        Some(v) if fmt.contains(v) => Ok(v),
        Some(v) => Err(Fail(
            ErrorCode::OutOfRange,
            format!(
                "{what} = {} is outside the range of {} [{}, {}]",
                int_text(v),
                dtype_name(fmt),
                int_text(fmt.min()),
                int_text(fmt.max())
            ),
        )),
        None => Err(Fail(
            ErrorCode::OutOfRange,
            format!("{what} overflows {}", dtype_name(fmt)),
        )),
    }
}

/// Rounds an f64 result to the narrow format: (code, exact value of the code).
#[inline]
fn narrow_step(fmt: &FloatFormat, v: f64, what: &str) -> std::result::Result<(u64, f64), Fail> {
    if v.is_nan() {
        if fmt.has_nan() {
            return Ok((fmt.nan_code(v.is_sign_negative()), f64::NAN));
        }
        return Err(Fail(
            ErrorCode::NotRepresentable,
            format!("{what} is NaN, which {} cannot represent", fmt.name),
        ));
    }
    if v.is_infinite() {
        if fmt.has_inf() {
            let c = if v < 0.0 {
                fmt.inf_code() | fmt.sign_bit()
            } else {
                fmt.inf_code()
            };
            return Ok((c, v));
        }
        return Err(Fail(
            ErrorCode::OutOfRange,
            format!("{what} overflows {}, which has no infinity", fmt.name),
        ));
    }
    let (neg, m, e) = zarr_scale_offset_core::num::decompose_f64(v);
    match zarr_scale_offset_core::num::round_to_float(fmt, neg, m, e, false, RoundingMode::NearestEven) {
        Rounded::Value { code, .. } => Ok((code, fmt.decode(code))),
        Rounded::Overflow { neg } => {
            if fmt.has_inf() {
                let c = if neg {
                    fmt.inf_code() | fmt.sign_bit()
                } else {
                    fmt.inf_code()
                };
                Ok((
                    c,
                    if neg {
                        f64::NEG_INFINITY
                    } else {
                        f64::INFINITY
                    },
                ))
            } else {
                Err(Fail(
                    ErrorCode::OutOfRange,
                    format!(
                        "{what} = {} overflows {}, which has no infinity",
                        show_f64(v, false),
                        fmt.name
                    ),
                ))
            }
        }
        Rounded::Underflow => Err(Fail(
            ErrorCode::OutOfRange,
            format!(
                "{what} = {} is below the smallest value of {}",
                show_f64(v, false),
                fmt.name
            ),
        )),
    }
}
