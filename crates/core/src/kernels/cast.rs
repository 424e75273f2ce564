//! `cast_value` kernels for the hot pairs, chosen at bind time by [`CastKernel::select`].
//!
//! - int -> float (int16/uint16/int32/uint32 to float32/float64): the native conversion, which is
//!   exact where the integer fits the significand and IEEE round-to-nearest-even otherwise (so it
//!   is selected for every rounding mode in the first case, for nearest-even in the second).
//! - float32/float64 -> int8 ... uint32: round with the mode (native trunc / ceil / floor /
//!   nearest-even, and an exact ties-away built from trunc), then a range check; anything not in
//!   range (NaN, ±Inf, values for clamp / wrap / errors) declines the block.
//! - float64 -> float32 (nearest-even), float32 -> float64, bfloat16 / float16 <-> float32
//!   (nearest-even), float32 -> every 4/6/8-bit float with a zero and a sign (nearest-even):
//!   native conversion or bit manipulation; NaN becomes the canonical NaN with its sign as the
//!   reference does; overflow, and NaN / Inf into a format without them, decline.
//!
//! A `scalar_map` with one distinct key is applied in the loop (first match wins, NaN matches
//! every NaN, numeric equality so 0 matches -0); longer maps use the reference.

use super::{map, map_ok, Elem, BLOCK};
use crate::cast::Num;
use crate::dtype::{DataType, Prim};
use crate::num::RoundingMode;

/// An integer element type of a kernel.
pub trait IntLane: Elem + Default {
    /// Smallest value as an f64 (exact).
    const MIN_F: f64;
    /// Largest value + 1 as an f64 (a power of two, exact).
    const END_F: f64;
    /// Width in bits.
    const BITS: u32;
    /// Native conversion (round-to-nearest-even when inexact).
    fn to_f32(self) -> f32;
    /// Native conversion (round-to-nearest-even when inexact).
    fn to_f64(self) -> f64;
    /// Saturating conversion of an integral float.
    fn from_f32(f: f32) -> Self;
    /// Saturating conversion of an integral float.
    fn from_f64(f: f64) -> Self;
    /// The value as an i64 (exact for every type but u64).
    fn to_i64(self) -> i64;
    /// The low bits of an i64 (wrapping).
    fn from_i64(v: i64) -> Self;
    /// A wider integer holding every value of the type and one more, [`IntLane::NO_KEY`]:
    /// `scalar_map` keys are compared in it, so a loop without a map is the same loop with a key
    /// no value matches.
    type Key: Copy + PartialEq;
    /// A key no value of the type equals.
    const NO_KEY: Self::Key;
    /// The value as a key.
    fn key(self) -> Self::Key;
    /// A value of the type (as an i64) as a key.
    fn key_of(v: i64) -> Self::Key;
}

macro_rules! int_lane {
    ($($t:ty => $via:ty, $key:ty),*) => {$(
        impl IntLane for $t {
            const MIN_F: f64 = <$t>::MIN as f64;
            const END_F: f64 = <$t>::MAX as f64 + 1.0;
            const BITS: u32 = <$t>::BITS;
            #[inline(always)]
            fn to_f32(self) -> f32 { self as f32 }
            #[inline(always)]
            fn to_f64(self) -> f64 { self as f64 }
            // Through a 32-bit integer: a saturating float -> 8/16-bit conversion is scalarised
            // on wasm (8x slower); the values converted are in range anyway.
            #[inline(always)]
            fn from_f32(f: f32) -> Self { f as $via as $t }
            #[inline(always)]
            fn from_f64(f: f64) -> Self { f as $via as $t }
            #[inline(always)]
            fn to_i64(self) -> i64 { self as i64 }
            #[inline(always)]
            fn from_i64(v: i64) -> Self { v as $t }
            type Key = $key;
            const NO_KEY: $key = <$key>::MIN;
            #[inline(always)]
            fn key(self) -> $key { self as $key }
            #[inline(always)]
            fn key_of(v: i64) -> $key { v as $key }
        }
    )*};
}
int_lane!(
    i8 => i32, i32,
    u8 => i32, i32,
    i16 => i32, i32,
    u16 => i32, i32,
    i32 => i32, i64,
    u32 => u32, i64
);

/// A float element type of a kernel (float32 or float64).
pub trait FloatLane:
    Elem
    + Default
    + PartialOrd
    + std::ops::Add<Output = Self>
    + std::ops::Sub<Output = Self>
    + std::ops::Mul<Output = Self>
    + std::ops::Div<Output = Self>
{
    /// Significand bits including the hidden one (24, 53).
    const PRECISION: u32;
    /// Native conversion of an integer.
    fn from_int<S: IntLane>(s: S) -> Self;
    /// Saturating conversion to an integer.
    fn to_int<D: IntLane>(self) -> D;
    /// From an f64 that is exactly representable.
    fn of(x: f64) -> Self;
    /// Ties-to-even rounding to an integer.
    fn round_ne(self) -> Self;
    /// Truncation.
    fn trunc(self) -> Self;
    /// Ceiling.
    fn ceil(self) -> Self;
    /// Floor.
    fn floor(self) -> Self;
    /// |x|.
    fn abs(self) -> Self;
    /// `self` with the sign of `s`.
    fn copysign(self, s: Self) -> Self;
}

macro_rules! float_lane {
    ($t:ty, $p:expr, $from:ident, $to:ident) => {
        impl FloatLane for $t {
            const PRECISION: u32 = $p;
            #[inline(always)]
            fn from_int<S: IntLane>(s: S) -> Self {
                s.$from()
            }
            #[inline(always)]
            fn to_int<D: IntLane>(self) -> D {
                D::$to(self)
            }
            #[inline(always)]
            fn of(x: f64) -> Self {
                x as $t
            }
            #[inline(always)]
            fn round_ne(self) -> Self {
                // x86-64's baseline (SSE2) has no rounding instruction: `round_ties_even` is a
                // libm call per element there, which stops the loops vectorising (10x slower
                // than the rest of a cast). There: the exact add-and-subtract of 2^(p-1),
                // branch-free. For |x| < 2^(p-1), |x| + 2^(p-1) lies in [2^(p-1), 2^p), where
                // the spacing is 1, so the (default, ties-to-even) rounding of the sum is
                // 2^(p-1) + round_ne(|x|) (2^(p-1) is even: the tie goes the same way) and the
                // subtraction is exact; the sign (also of a zero) is restored by copysign. For
                // |x| >= 2^(p-1) (and infinities) x is already an integer; NaN compares false.
                // Everywhere else (wasm simd128 `nearest`, SSE4.1, NEON) LLVM has an instruction.
                #[cfg(all(target_arch = "x86_64", not(target_feature = "sse4.1")))]
                {
                    const HALF_ULP_ONE: $t = (1u64 << ($p - 1)) as $t;
                    let a = <$t>::abs(self);
                    let r = ((a + HALF_ULP_ONE) - HALF_ULP_ONE).copysign(self);
                    if a < HALF_ULP_ONE {
                        r
                    } else {
                        self
                    }
                }
                #[cfg(not(all(target_arch = "x86_64", not(target_feature = "sse4.1"))))]
                {
                    self.round_ties_even()
                }
            }
            #[inline(always)]
            fn trunc(self) -> Self {
                <$t>::trunc(self)
            }
            #[inline(always)]
            fn ceil(self) -> Self {
                <$t>::ceil(self)
            }
            #[inline(always)]
            fn floor(self) -> Self {
                <$t>::floor(self)
            }
            #[inline(always)]
            fn abs(self) -> Self {
                <$t>::abs(self)
            }
            #[inline(always)]
            fn copysign(self, s: Self) -> Self {
                <$t>::copysign(self, s)
            }
        }
    };
}
float_lane!(f32, 24, to_f32, from_f32);
float_lane!(f64, 53, to_f64, from_f64);

/// The integer primitive of `d`, for the int <-> float kernels (int8 ... uint32).
fn int_prim(d: DataType) -> Option<Prim> {
    d.prim().filter(|p| !p.is_float() && p.size() <= 4)
}

/// The float primitive of `d` (float32, float64).
fn float_prim(d: DataType) -> Option<Prim> {
    d.prim().filter(|p| p.is_float())
}

/// float <-> float conversions with a kernel.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
#[allow(missing_docs)]
pub enum FloatPair {
    F64ToF32,
    F32ToF64,
    Bf16ToF32,
    F32ToBf16,
    F16ToF32,
    F32ToF16,
}

/// A `cast_value` fast path for one direction (`from` -> `to`), selected at bind time.
#[derive(Debug, Clone, Copy, PartialEq)]
pub enum CastKernel {
    /// No fast path: the reference runs element by element.
    None,
    /// int16/uint16/int32/uint32 -> float32/float64; `map`: (key, output bits).
    IntToFloat {
        /// Source type (int16 ... uint32).
        src: Prim,
        /// Target type (float32, float64).
        dst: Prim,
        /// The one scalar_map entry.
        map: Option<(i64, u64)>,
    },
    /// float32/float64 -> int8 ... uint32.
    FloatToInt {
        /// Source type (float32, float64).
        src: Prim,
        /// Target type (int8 ... uint32).
        dst: Prim,
        /// Rounding mode.
        mode: RoundingMode,
        /// The one scalar_map entry (key, output bits); a NaN key matches every NaN.
        map: Option<(f64, u64)>,
    },
    /// A float -> float conversion (no scalar_map).
    Float(FloatPair),
    /// float32 -> a 4/6/8-bit float with zero and sign, nearest-even (no scalar_map).
    F32ToNarrow(Narrow),
}

/// A 4/6/8-bit float format as the float32 -> narrow kernel needs it.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Narrow {
    /// Fraction bits.
    man_bits: u32,
    /// float32 bits of 2^emin, the smallest normal value.
    min_normal: u32,
    /// float32 bits of 2^(emin - man_bits + 23), whose ulp is the subnormal quantum.
    magic: u32,
    /// Added to float32 bits to move the exponent to the format's bias.
    rebias: u32,
    /// Largest finite magnitude code.
    max_finite: u32,
    /// The sign bit.
    sign: u32,
    /// +Inf code, when the format has infinities.
    inf: Option<u32>,
    /// (+NaN, -NaN) codes, when the format has a NaN.
    nan: Option<(u32, u32)>,
    /// The format has -0.
    neg_zero: bool,
}

impl Narrow {
    fn of(f: &crate::num::FloatFormat) -> Option<Narrow> {
        if f.bits > 8 || !f.signed || !f.has_zero() {
            return None;
        }
        let emin = 1 - f.bias;
        let m = f.man_bits as i32;
        Some(Narrow {
            man_bits: f.man_bits,
            min_normal: ((emin + 127) as u32) << 23,
            magic: ((emin - m + 23 + 127) as u32) << 23,
            rebias: ((f.bias - 127) << 23) as u32,
            max_finite: f.max_finite_code() as u32,
            sign: f.sign_bit() as u32,
            inf: f.has_inf().then(|| f.inf_code() as u32),
            nan: f
                .has_nan()
                .then(|| (f.nan_code(false) as u32, f.nan_code(true) as u32)),
            neg_zero: f.has_neg_zero(),
        })
    }

    /// float32 -> code under round-to-nearest-even; `false` when the reference must decide
    /// (overflow, or NaN / ±Inf the format lacks). The normal case rounds the float32 bits
    /// (re-biased exponent, ties to the even code); below 2^emin one float32 addition of a power
    /// of two whose ulp is the subnormal quantum rounds, as in `f32_to_f16`.
    #[inline(always)]
    fn encode(&self, x: f32) -> (u8, bool) {
        let bits = x.to_bits();
        let neg = bits >> 31 != 0;
        let a = bits & 0x7fff_ffff;
        if a > 0x7f80_0000 {
            return match self.nan {
                Some((p, n)) => ((if neg { n } else { p }) as u8, true),
                None => (0, false),
            };
        }
        if a == 0x7f80_0000 {
            return match self.inf {
                Some(i) => ((i | if neg { self.sign } else { 0 }) as u8, true),
                None => (0, false),
            };
        }
        let shift = 23 - self.man_bits;
        let mag = if a < self.min_normal {
            let magic = f32::from_bits(self.magic);
            (f32::from_bits(a) + magic).to_bits() - self.magic
        } else {
            let odd = (a >> shift) & 1;
            a.wrapping_add(self.rebias)
                .wrapping_add((1 << (shift - 1)) - 1 + odd)
                >> shift
        };
        let sign = if neg && (mag != 0 || self.neg_zero) {
            self.sign
        } else {
            0
        };
        ((sign | mag) as u8, mag <= self.max_finite)
    }
}

/// The scalar_map as at most one effective entry: `Ok(None)` when empty, `Ok(Some(e))` when
/// every key is the same value (the first entry wins), `Err(())` otherwise.
fn single_entry(map: &[(Num, u64)]) -> Result<Option<(Num, u64)>, ()> {
    let Some(&first) = map.first() else {
        return Ok(None);
    };
    if map
        .iter()
        .all(|(k, _)| crate::cast::same_value(*k, first.0))
    {
        Ok(Some(first))
    } else {
        Err(())
    }
}

impl CastKernel {
    /// The kernel for casting `from` to `to` under `mode` with `map` ((key value in `from`,
    /// output bits in `to`), in order), or [`CastKernel::None`]. `out_of_range` does not matter:
    /// kernels decline every value outside the target's range.
    pub fn select(
        from: DataType,
        to: DataType,
        mode: RoundingMode,
        map: &[(Num, u64)],
    ) -> CastKernel {
        let Ok(entry) = single_entry(map) else {
            return CastKernel::None;
        };
        if let (Some(src), Some(dst)) = (int_prim(from), float_prim(to)) {
            let precision = if dst == Prim::F32 { 24 } else { 53 };
            let exact = from.bits() <= precision;
            if src.size() == 1 || !(exact || mode == RoundingMode::NearestEven) {
                return CastKernel::None;
            }
            let map = match entry {
                None => None,
                Some((Num::Int(k), v)) => Some((k as i64, v)),
                Some((Num::Float(_), _)) => return CastKernel::None,
            };
            return CastKernel::IntToFloat { src, dst, map };
        }
        if let (Some(src), Some(dst)) = (float_prim(from), int_prim(to)) {
            let map = match entry {
                None => None,
                Some((Num::Float(k), v)) => Some((k, v)),
                Some((Num::Int(_), _)) => return CastKernel::None,
            };
            return CastKernel::FloatToInt {
                src,
                dst,
                mode,
                map,
            };
        }
        if entry.is_some() {
            return CastKernel::None;
        }
        use DataType::*;
        let ne = mode == RoundingMode::NearestEven;
        if let (Float32, Some(n), true) = (from, to.float().as_ref().and_then(Narrow::of), ne) {
            return CastKernel::F32ToNarrow(n);
        }
        CastKernel::Float(match (from, to) {
            (Float64, Float32) if ne => FloatPair::F64ToF32,
            (Float32, Float64) => FloatPair::F32ToF64,
            (BFloat16, Float32) => FloatPair::Bf16ToF32,
            (Float32, BFloat16) if ne => FloatPair::F32ToBf16,
            (Float16, Float32) => FloatPair::F16ToF32,
            (Float32, Float16) if ne => FloatPair::F32ToF16,
            _ => return CastKernel::None,
        })
    }

    /// Whether there is a fast path.
    pub fn is_some(&self) -> bool {
        !matches!(self, CastKernel::None)
    }

    /// Casts the elements of `input` into `out` (elements of the source and target types).
    /// Returns `false` when some element needs the reference (the outputs are then unspecified).
    pub fn run(&self, input: &[u8], out: &mut [u8]) -> bool {
        match *self {
            CastKernel::None => false,
            CastKernel::IntToFloat { src, dst, map } => {
                use Prim::*;
                match (src, dst) {
                    (I16, F32) => int_to_float::<i16, f32>(input, out, map),
                    (U16, F32) => int_to_float::<u16, f32>(input, out, map),
                    (I32, F32) => int_to_float::<i32, f32>(input, out, map),
                    (U32, F32) => int_to_float::<u32, f32>(input, out, map),
                    (I16, F64) => int_to_float::<i16, f64>(input, out, map),
                    (U16, F64) => int_to_float::<u16, f64>(input, out, map),
                    (I32, F64) => int_to_float::<i32, f64>(input, out, map),
                    (U32, F64) => int_to_float::<u32, f64>(input, out, map),
                    _ => return false,
                }
                true
            }
            CastKernel::FloatToInt {
                src,
                dst,
                mode,
                map,
            } => {
                use Prim::*;
                match (src, dst) {
                    (F32, I8) => float_to_int::<f32, i8>(input, out, mode, map),
                    (F32, U8) => float_to_int::<f32, u8>(input, out, mode, map),
                    (F32, I16) => float_to_int::<f32, i16>(input, out, mode, map),
                    (F32, U16) => float_to_int::<f32, u16>(input, out, mode, map),
                    (F32, I32) => float_to_int::<f32, i32>(input, out, mode, map),
                    (F32, U32) => float_to_int::<f32, u32>(input, out, mode, map),
                    (F64, I8) => float_to_int::<f64, i8>(input, out, mode, map),
                    (F64, U8) => float_to_int::<f64, u8>(input, out, mode, map),
                    (F64, I16) => float_to_int::<f64, i16>(input, out, mode, map),
                    (F64, U16) => float_to_int::<f64, u16>(input, out, mode, map),
                    (F64, I32) => float_to_int::<f64, i32>(input, out, mode, map),
                    (F64, U32) => float_to_int::<f64, u32>(input, out, mode, map),
                    // `select` makes no other pair.
                    _ => false,
                }
            }
            CastKernel::Float(p) => float_pair(p, input, out),
            CastKernel::F32ToNarrow(n) => map_ok(input, out, |x: f32| n.encode(x)),
        }
    }
}

fn int_to_float<S: IntLane, D: FloatLane>(input: &[u8], out: &mut [u8], m: Option<(i64, u64)>) {
    let (k, v) = match m {
        None => (S::NO_KEY, D::default()),
        Some((k, v)) => (S::key_of(k), D::from_bits(v)),
    };
    map(
        input,
        out,
        |x: S| if x.key() == k { v } else { D::from_int(x) },
    )
}

#[inline(always)]
fn round_with<S: FloatLane>(input: &[u8], r: &mut [S], f: impl Fn(S) -> S) {
    for (d, i) in r.iter_mut().zip(input.chunks_exact(S::SIZE)) {
        *d = f(S::load(i));
    }
}

/// Round half away from zero, exactly: `x - trunc(x)` is exact (Sterbenz), and so is `t ± 1`
/// whenever the fraction is non-zero (then |t| < 2^(p-1)).
#[inline(always)]
pub(crate) fn round_away<S: FloatLane>(x: S) -> S {
    let t = x.trunc();
    let up = (x - t).abs() >= S::of(0.5);
    t + if up {
        S::of(1.0).copysign(x)
    } else {
        S::of(0.0)
    }
}

/// THE rounding-mode -> lane-function mapping of the kernels (cast here, the fused
/// `[scale_offset, cast_value]` loop in `fused.rs`): `with_rounding!(mode, S, |f| body)` is a
/// `match` on `mode` whose every arm binds `f` to that mode's rounding function of the
/// [`FloatLane`] type `S` and evaluates `body`, so each arm is compiled with its function inlined.
macro_rules! with_rounding {
    ($mode:expr, $S:ty, |$f:ident| $body:expr) => {
        match $mode {
            RoundingMode::NearestEven => {
                let $f = <$S as FloatLane>::round_ne;
                $body
            }
            RoundingMode::TowardsZero => {
                let $f = <$S as FloatLane>::trunc;
                $body
            }
            RoundingMode::TowardsPositive => {
                let $f = <$S as FloatLane>::ceil;
                $body
            }
            RoundingMode::TowardsNegative => {
                let $f = <$S as FloatLane>::floor;
                $body
            }
            RoundingMode::NearestAway => {
                let $f = $crate::kernels::cast::round_away::<$S>;
                $body
            }
        }
    };
}
pub(crate) use with_rounding;

fn round_into<S: FloatLane>(input: &[u8], r: &mut [S], mode: RoundingMode) {
    with_rounding!(mode, S, |f| round_with(input, r, f))
}

fn float_to_int<S: FloatLane, D: IntLane>(
    input: &[u8],
    out: &mut [u8],
    mode: RoundingMode,
    m: Option<(f64, u64)>,
) -> bool {
    match m {
        None => to_int::<S, D, false>(input, out, mode, (S::default(), false, D::default())),
        Some((k, v)) => {
            to_int::<S, D, true>(input, out, mode, (S::of(k), k.is_nan(), D::from_bits(v)))
        }
    }
}

/// Rounds a block (`round_into`, per mode), then range-checks and converts it; with `MAP`, the
/// one scalar_map entry (key, key is NaN, value) replaces matching inputs (a loop of its own,
/// so the common loop without a map has no key test).
#[inline(always)]
fn to_int<S: FloatLane, D: IntLane, const MAP: bool>(
    input: &[u8],
    out: &mut [u8],
    mode: RoundingMode,
    (k, knan, v): (S, bool, D),
) -> bool {
    let (lo, end) = (S::of(D::MIN_F), S::of(D::END_F));
    let mut ok = true;
    let mut r = [S::default(); BLOCK];
    for (ib, ob) in input
        .chunks(BLOCK * S::SIZE)
        .zip(out.chunks_mut(BLOCK * D::SIZE))
    {
        round_into(ib, &mut r, mode);
        for ((o, i), &rv) in ob
            .chunks_exact_mut(D::SIZE)
            .zip(ib.chunks_exact(S::SIZE))
            .zip(r.iter())
        {
            let x = S::load(i);
            // Non-short-circuit `&` / `|`: branch-free, so the loop vectorises.
            #[allow(clippy::eq_op)]
            let hit = MAP & ((x == k) | (knan & (x != x)));
            let in_range = (rv >= lo) & (rv < end);
            ok &= hit | in_range;
            let y = if hit { v } else { rv.to_int::<D>() };
            y.store(o);
        }
    }
    ok
}

#[inline(always)]
fn nan32(neg: bool) -> f32 {
    f32::from_bits(0x7fc0_0000 | (neg as u32) << 31)
}

#[inline(always)]
fn nan64(neg: bool) -> f64 {
    f64::from_bits(0x7ff8_0000_0000_0000 | (neg as u64) << 63)
}

/// float16 bits -> float32, exactly (NaN -> the canonical NaN with its sign).
#[inline(always)]
pub fn f16_to_f32(h: u16) -> f32 {
    let sign = ((h & 0x8000) as u32) << 16;
    let e = ((h >> 10) & 0x1f) as u32;
    let m = (h & 0x3ff) as u32;
    if e == 0x1f {
        f32::from_bits(sign | if m == 0 { 0x7f80_0000 } else { 0x7fc0_0000 })
    } else if e == 0 {
        // m × 2^-24, exact in float32.
        f32::from_bits((m as f32 * 5.960_464_5e-8).to_bits() | sign)
    } else {
        f32::from_bits(sign | ((e + 112) << 23) | (m << 13))
    }
}

/// float32 -> float16 bits under round-to-nearest-even (F. Giesen's float_to_half_fast3_rtne),
/// NaN -> the canonical NaN with its sign; `false` when a finite value overflows.
#[inline(always)]
pub fn f32_to_f16(x: f32) -> (u16, bool) {
    let bits = x.to_bits();
    let sign = ((bits >> 16) & 0x8000) as u16;
    let a = bits & 0x7fff_ffff;
    let mag: u32 = if a >= 0x4780_0000 {
        // >= 2^16: Inf or NaN (or a finite overflow).
        if a > 0x7f80_0000 {
            0x7e00
        } else {
            0x7c00
        }
    } else if a < 0x3880_0000 {
        // Below 2^-14: subnormal or zero; adding 0.5 aligns the 10 bits and rounds (RNE).
        (f32::from_bits(a) + 0.5)
            .to_bits()
            .wrapping_sub(0x3f00_0000)
    } else {
        let odd = (a >> 13) & 1;
        a.wrapping_add(0xc800_0fff).wrapping_add(odd) >> 13
    };
    let ok = !(mag == 0x7c00 && a < 0x7f80_0000);
    (sign | mag as u16, ok)
}

/// float32 -> bfloat16 bits under round-to-nearest-even; `false` when a finite value overflows.
#[inline(always)]
pub fn f32_to_bf16(x: f32) -> (u16, bool) {
    let b = x.to_bits();
    if x.is_nan() {
        return (0x7fc0 | ((b >> 16) as u16 & 0x8000), true);
    }
    let r = (b.wrapping_add(0x7fff).wrapping_add((b >> 16) & 1) >> 16) as u16;
    (r, !(r & 0x7fff == 0x7f80 && x.is_finite()))
}

fn float_pair(p: FloatPair, input: &[u8], out: &mut [u8]) -> bool {
    match p {
        FloatPair::F64ToF32 => map_ok(input, out, |x: f64| {
            let y = x as f32;
            let v = if x.is_nan() {
                nan32(x.is_sign_negative())
            } else {
                y
            };
            (v, !(y.is_infinite() && x.is_finite()))
        }),
        FloatPair::F32ToF64 => {
            map(input, out, |x: f32| {
                if x.is_nan() {
                    nan64(x.is_sign_negative())
                } else {
                    x as f64
                }
            });
            true
        }
        FloatPair::Bf16ToF32 => {
            map(input, out, |b: u16| {
                if b & 0x7fff > 0x7f80 {
                    nan32(b & 0x8000 != 0)
                } else {
                    f32::from_bits((b as u32) << 16)
                }
            });
            true
        }
        FloatPair::F32ToBf16 => map_ok(input, out, f32_to_bf16),
        FloatPair::F16ToF32 => {
            map(input, out, f16_to_f32);
            true
        }
        FloatPair::F32ToF16 => map_ok(input, out, f32_to_f16),
    }
}

#[cfg(test)]
mod round_ne_tests {
    use super::FloatLane;
    use crate::test_rng::Rng;

    /// `FloatLane::round_ne` (on x86-64 without SSE4.1 the add-and-subtract of 2^(p-1)) equals
    /// std's `round_ties_even` bit for bit: every f32 whose magnitude is below 2^24 in steps
    /// of 1/4 (all ties and their neighbours), the boundaries, and random bit patterns of both
    /// widths (NaNs, infinities, subnormals, huge values included).
    #[test]
    fn round_ne_is_round_ties_even() {
        let check32 = |x: f32| {
            assert_eq!(
                FloatLane::round_ne(x).to_bits(),
                x.round_ties_even().to_bits(),
                "{x:e}"
            )
        };
        let check64 = |x: f64| {
            assert_eq!(
                FloatLane::round_ne(x).to_bits(),
                x.round_ties_even().to_bits(),
                "{x:e}"
            )
        };
        for k in -(1i32 << 24)..(1i32 << 24) {
            check32(k as f32 / 4.0);
        }
        for x in [
            0.0f32,
            -0.0,
            0.5,
            -0.5,
            8388607.5,
            8388608.0,
            8388609.0,
            f32::INFINITY,
        ] {
            check32(x);
            check32(-x);
            check64(f64::from(x));
            check64(-f64::from(x));
        }
        for x in [
            4503599627370495.5f64,
            4503599627370496.0,
            2f64.powi(53) - 1.0,
        ] {
            check64(x);
            check64(-x);
        }
        let mut r = Rng::new(19);
        for _ in 0..2_000_000 {
            let b = r.next();
            check32(f32::from_bits(b as u32));
            check64(f64::from_bits(b));
            check64((b >> 11) as f64 / 1024.0 - 2f64.powi(42));
        }
    }
}
