//! `scale_offset` / `cf.scale_offset` kernels: encode `(x - offset) op scale`, decode
//! `(y op' scale) + offset`, each operation in the data type.
//!
//! - float32 / float64: native IEEE operations, one rounding each, never fused (Rust does not
//!   contract `a * b + c`); these are the reference itself, so they never decline.
//! - int16 ... int64, uint16 ... uint64: native integer arithmetic. [`IntKernel::select`] proves
//!   at bind time, with interval arithmetic over the whole range of the type, whether any
//!   intermediate can leave the type's range; if none can, the loop has no range checks
//!   (only the exactness test of a division remains). Otherwise every step is checked in native
//!   64-bit arithmetic (`checked_mul` etc.) and a block with any failure is declined, so the
//!   reference reports the error.

use super::cast::FloatLane;
use super::{map, map_ok, Elem};
use crate::dtype::DataType;

/// Multiply or divide by the scale.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Op {
    /// `* scale`.
    Mul,
    /// `/ scale` (exact division for integers).
    Div,
}

/// Float encode: `out = (x - offset) op scale`.
pub fn float_encode<F: FloatLane>(input: &[u8], out: &mut [u8], o: Op, offset: F, scale: F) {
    match o {
        Op::Mul => map(input, out, |x: F| (x - offset) * scale),
        Op::Div => map(input, out, |x: F| (x - offset) / scale),
    }
}

/// Float decode: `out = (y op scale) + offset`.
pub fn float_decode<F: FloatLane>(input: &[u8], out: &mut [u8], o: Op, offset: F, scale: F) {
    match o {
        Op::Mul => map(input, out, |y: F| y * scale + offset),
        Op::Div => map(input, out, |y: F| y / scale + offset),
    }
}

/// The integer storage types of the kernels.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
#[allow(missing_docs)]
pub enum IntTy {
    I16,
    U16,
    I32,
    U32,
    I64,
    U64,
}

/// Integer scale_offset for one data type, selected at bind time.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct IntKernel {
    ty: IntTy,
    /// Range of the type (u64: unused).
    min: i64,
    max: i64,
    /// Offset and scale (u64: their bit patterns).
    offset: i64,
    scale: i64,
    enc_op: Op,
    dec_op: Op,
    /// Whether encode / decode need range checks (false: proven in range at bind time).
    enc_checked: bool,
    dec_checked: bool,
}

/// `[lo, hi]` of `v op s` for `v` in `[a, b]` (truncating division is monotone in `v`).
fn interval(a: i128, b: i128, o: Op, s: i128) -> (i128, i128) {
    // Saturation keeps an out-of-range product out of range (|values| < 2^65 otherwise).
    let f = |v: i128| match o {
        Op::Mul => v.saturating_mul(s),
        Op::Div => v / s,
    };
    let (x, y) = (f(a), f(b));
    (x.min(y), x.max(y))
}

impl IntKernel {
    /// The kernel for `dtype` with `offset`, `scale` (exact values; scale non-zero) and the
    /// operations applied when encoding and decoding, or `None` for types without one.
    pub fn select(
        dtype: DataType,
        offset: i128,
        scale: i128,
        enc_op: Op,
        dec_op: Op,
    ) -> Option<IntKernel> {
        let ty = match dtype {
            DataType::Int16 => IntTy::I16,
            DataType::UInt16 => IntTy::U16,
            DataType::Int32 => IntTy::I32,
            DataType::UInt32 => IntTy::U32,
            DataType::Int64 => IntTy::I64,
            DataType::UInt64 => IntTy::U64,
            _ => return None,
        };
        let f = dtype.int()?;
        let (min, max) = (f.min(), f.max());
        let inside = |(lo, hi): (i128, i128)| lo >= min && hi <= max;
        // Encode: x - offset, then (x - offset) op scale, over every x of the type.
        let d = (min - offset, max - offset);
        let enc_checked = !(inside(d) && inside(interval(d.0, d.1, enc_op, scale)));
        // Decode: y op scale, then + offset.
        let q = interval(min, max, dec_op, scale);
        let dec_checked = !(inside(q) && inside((q.0 + offset, q.1 + offset)));
        let (min, max, offset, scale) = if ty == IntTy::U64 {
            (0, -1, offset as u64 as i64, scale as u64 as i64)
        } else {
            (min as i64, max as i64, offset as i64, scale as i64)
        };
        Some(IntKernel {
            ty,
            min,
            max,
            offset,
            scale,
            enc_op,
            dec_op,
            enc_checked,
            dec_checked,
        })
    }

    /// Whether encoding / decoding were proven free of range checks at bind time.
    pub fn proven(&self) -> (bool, bool) {
        (!self.enc_checked, !self.dec_checked)
    }

    /// Encodes (`enc`) or decodes `input` into `out`; `false` when some element fails (out of
    /// range, inexact division), leaving the outputs unspecified.
    pub fn run(&self, enc: bool, input: &[u8], out: &mut [u8]) -> bool {
        let checked = if enc {
            self.enc_checked
        } else {
            self.dec_checked
        };
        macro_rules! go {
            ($t:ty) => {
                if checked {
                    self.run_i64::<$t, true>(enc, input, out)
                } else {
                    self.run_i64::<$t, false>(enc, input, out)
                }
            };
        }
        match self.ty {
            IntTy::I16 => go!(i16),
            IntTy::U16 => go!(u16),
            IntTy::I32 => go!(i32),
            IntTy::U32 => go!(u32),
            IntTy::I64 => go!(i64),
            IntTy::U64 => self.run_u64(enc, input, out),
        }
    }

    /// Every type but uint64, in i64: the type's values, offset and scale all fit, and for
    /// int64 the checked operations are exactly the range checks.
    #[inline(always)]
    fn run_i64<T: Wide, const CHECK: bool>(&self, enc: bool, input: &[u8], out: &mut [u8]) -> bool {
        let (min, max, off, s) = (self.min, self.max, self.offset, self.scale);
        let fits = |v: Option<i64>| -> (i64, bool) {
            match v {
                Some(v) => (v, !CHECK || (v >= min && v <= max)),
                None => (0, false),
            }
        };
        // One step `v op s` (a division must be exact).
        let step = |o: Op, v: i64| -> (i64, bool) {
            match o {
                Op::Mul if CHECK => fits(v.checked_mul(s)),
                Op::Mul => (v.wrapping_mul(s), true),
                Op::Div => {
                    let exact = v.wrapping_rem(s) == 0;
                    let (q, ok) = fits(v.checked_div(s));
                    (q, ok && exact)
                }
            }
        };
        let add = |a: i64, b: i64| -> (i64, bool) {
            if CHECK {
                fits(a.checked_add(b))
            } else {
                (a.wrapping_add(b), true)
            }
        };
        let sub = |a: i64, b: i64| -> (i64, bool) {
            if CHECK {
                fits(a.checked_sub(b))
            } else {
                (a.wrapping_sub(b), true)
            }
        };
        if enc {
            let o = self.enc_op;
            map_ok(input, out, |x: T| {
                let (d, ok1) = sub(x.wide(), off);
                let (r, ok2) = step(o, d);
                (T::narrow(r), ok1 & ok2)
            })
        } else {
            let o = self.dec_op;
            map_ok(input, out, |y: T| {
                let (q, ok1) = step(o, y.wide());
                let (r, ok2) = add(q, off);
                (T::narrow(r), ok1 & ok2)
            })
        }
    }

    fn run_u64(&self, enc: bool, input: &[u8], out: &mut [u8]) -> bool {
        let (off, s) = (self.offset as u64, self.scale as u64);
        let step = |o: Op, v: Option<u64>| -> Option<u64> {
            match o {
                Op::Mul => v?.checked_mul(s),
                Op::Div => {
                    let v = v?;
                    (v % s == 0).then_some(v / s)
                }
            }
        };
        let o = if enc { self.enc_op } else { self.dec_op };
        map_ok(input, out, |x: u64| {
            let r = if enc {
                step(o, x.checked_sub(off))
            } else {
                step(o, Some(x)).and_then(|q| q.checked_add(off))
            };
            (r.unwrap_or(0), r.is_some())
        })
    }
}

/// Storage types computed in i64.
trait Wide: Elem {
    fn wide(self) -> i64;
    fn narrow(v: i64) -> Self;
}

macro_rules! wide {
    ($($t:ty),*) => {$(
        impl Wide for $t {
            #[inline(always)]
            fn wide(self) -> i64 { self as i64 }
            #[inline(always)]
            fn narrow(v: i64) -> Self { v as $t }
        }
    )*};
}
wide!(i16, u16, i32, u32, i64);
