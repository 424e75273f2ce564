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
//!   reference reports the error. int16 / uint16 (|scale| < 2^14) run in i32 lanes in the wasm
//!   build and in their own 16-bit lanes natively: a multiplying direction checks its input
//!   against one bind-time interval, a dividing one divides exactly by a modular inverse
//!   (`Div16`).

use super::cast::FloatLane;
use super::{map, map_ok, Elem};
use crate::direction::{Direction, PerDirection};
use crate::dtype::{DataType, Prim};

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

// Non-generic entry points, so that the loops are compiled in this crate (at opt-level 3) rather
// than instantiated in the caller's crate (built for size).

/// [`float_encode`] over float32 elements.
#[inline(never)]
pub fn float_encode_f32(input: &[u8], out: &mut [u8], o: Op, offset: f32, scale: f32) {
    float_encode(input, out, o, offset, scale)
}

/// [`float_encode`] over float64 elements.
#[inline(never)]
pub fn float_encode_f64(input: &[u8], out: &mut [u8], o: Op, offset: f64, scale: f64) {
    float_encode(input, out, o, offset, scale)
}

/// [`float_decode`] over float32 elements.
#[inline(never)]
pub fn float_decode_f32(input: &[u8], out: &mut [u8], o: Op, offset: f32, scale: f32) {
    float_decode(input, out, o, offset, scale)
}

/// [`float_decode`] over float64 elements.
#[inline(never)]
pub fn float_decode_f64(input: &[u8], out: &mut [u8], o: Op, offset: f64, scale: f64) {
    float_decode(input, out, o, offset, scale)
}

/// Integer scale_offset for one data type, selected at bind time.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct IntKernel {
    /// int16 ... uint64.
    ty: Prim,
    /// Range of the type (u64: unused).
    min: i64,
    max: i64,
    /// Offset and scale (u64: their bit patterns).
    offset: i64,
    scale: i64,
    /// The operation applied to the scale in each direction.
    op: PerDirection<Op>,
    /// Whether each direction needs range checks (false: proven in range at bind time).
    checked: PerDirection<bool>,
    /// int16 / uint16, for a direction that multiplies: the inputs whose every intermediate is
    /// in range, `[lo, hi]` (empty when lo > hi). Each step is monotone in the input, so they
    /// form an interval, and the loop checks the input alone and computes in 16-bit wrapping
    /// arithmetic (exact inside the interval): 16 lanes per AVX2 vector instead of 8 of i32.
    /// Not in the wasm build (+250 B of the zarrita path's download, which the budget lacks):
    /// there the loops check each step in i32.
    #[cfg(not(target_family = "wasm"))]
    accept: PerDirection<(i32, i32)>,
    /// int16 / uint16, for a direction that divides: the exact division in 16-bit lanes.
    #[cfg(not(target_family = "wasm"))]
    div: PerDirection<Div16>,
}

/// An exact 16-bit division by the scale s (2 <= |s| < 2^14), vectorisable (SIMD has no integer
/// division): with |s| = m * 2^k (m odd) and inv = m^-1 mod 2^16, an n of the type is a multiple
/// of s iff its low k bits are 0 and q = (n >> k) * inv (mod 2^16, in the type) lies in the
/// range of the multiples' quotients, and q is then n / |s|. (n -> n * inv is a bijection of
/// Z/2^16 taking each multiple j * m of the type's range to j; a non-multiple taken into that
/// range would be q * m, a multiple.) Around it: encode `(x - offset) / s` (x - offset range
/// checked through x), decode `y / s + offset`; the result is `sgn * q + post`, and its range
/// check is folded into the bounds of q.
#[cfg(not(target_family = "wasm"))]
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
struct Div16 {
    /// Subtracted first (encode: the offset), and the inputs for which that stays in range.
    pre: i32,
    in_lo: i32,
    in_hi: i32,
    k: u32,
    mask: i32,
    inv: i32,
    /// The bounds of q (multiples whose result is in range), empty as (1, 0).
    q_lo: i32,
    q_hi: i32,
    /// The sign of the scale, and what is added last (decode: the offset).
    sgn: i32,
    post: i32,
}

#[cfg(not(target_family = "wasm"))]
impl Div16 {
    /// For a type with range `[min, max]` (16 bits), `offset`, scale `s`; `encode` for
    /// `(x - offset) / s`, else `y / s + offset`.
    fn new(min: i64, max: i64, offset: i64, s: i64, encode: bool) -> Div16 {
        let a = s.unsigned_abs();
        let k = a.trailing_zeros();
        let m = (a >> k) as u16;
        // Newton's iteration doubles the correct low bits: m * m = 1 (mod 8) to 16 bits.
        let mut inv = m;
        for _ in 0..3 {
            inv = inv.wrapping_mul(2u16.wrapping_sub(m.wrapping_mul(inv)));
        }
        let m = m as i64;
        // Quotients of the multiples of m in the type's range.
        let (q_lo, q_hi) = (ceil_div(min, m), floor_div(max, m));
        let sgn = if s < 0 { -1 } else { 1 };
        // The result sgn * q + post in [min, max].
        let post = if encode { 0 } else { offset };
        let (r_lo, r_hi) = if sgn > 0 {
            (min - post, max - post)
        } else {
            (post - max, post - min)
        };
        let (q_lo, q_hi) = (q_lo.max(r_lo), q_hi.min(r_hi));
        let (in_lo, in_hi, pre) = if encode {
            ((min + offset).max(min), (max + offset).min(max), offset)
        } else {
            (min, max, 0)
        };
        let ((q_lo, q_hi), (in_lo, in_hi)) = (bounds(q_lo, q_hi), bounds(in_lo, in_hi));
        Div16 {
            pre: pre as i32,
            in_lo,
            in_hi,
            k,
            mask: ((1u32 << k) - 1) as i32,
            inv: inv as i32,
            q_lo,
            q_hi,
            sgn,
            post: post as i32,
        }
    }
}

/// `[lo, hi]` as the i32 bounds the 16-bit loops compare with; an empty interval as (1, 0).
#[cfg(not(target_family = "wasm"))]
fn bounds(lo: i64, hi: i64) -> (i32, i32) {
    if lo > hi {
        (1, 0)
    } else {
        (lo as i32, hi as i32)
    }
}

/// `floor(a / b)` (b != 0).
#[cfg(not(target_family = "wasm"))]
fn floor_div(a: i64, b: i64) -> i64 {
    let q = a / b;
    if q * b != a && ((a < 0) != (b < 0)) {
        q - 1
    } else {
        q
    }
}

/// `ceil(a / b)` (b != 0).
#[cfg(not(target_family = "wasm"))]
fn ceil_div(a: i64, b: i64) -> i64 {
    let q = a / b;
    if q * b != a && ((a < 0) == (b < 0)) {
        q + 1
    } else {
        q
    }
}

/// The `v` with `v * s` in `[lo, hi]` (s != 0), as `[from, to]`.
#[cfg(not(target_family = "wasm"))]
fn times_within(lo: i64, hi: i64, s: i64) -> (i64, i64) {
    if s > 0 {
        (ceil_div(lo, s), floor_div(hi, s))
    } else {
        (ceil_div(hi, s), floor_div(lo, s))
    }
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
    /// operations applied when encoding and decoding, or `None` for types without one (and for
    /// int16 / uint16 with |scale| >= 2^14, whose products need 64 bits).
    pub fn select(
        dtype: DataType,
        offset: i128,
        scale: i128,
        enc_op: Op,
        dec_op: Op,
    ) -> Option<IntKernel> {
        // Never a kernel for a zero scale (binding rejects it): the divisions below stay
        // non-zero.
        if scale == 0 {
            return None;
        }
        let ty = dtype.prim().filter(|p| !p.is_float() && p.size() >= 2)?;
        let f = dtype.int()?;
        let (min, max) = (f.min(), f.max());
        if ty.size() == 2 && scale.abs() >= 1 << 14 {
            return None;
        }
        // Dividing by ±1 is multiplying by it (same results, same overflow, always exact).
        let unit = |o: Op| {
            if o == Op::Div && scale.abs() == 1 {
                Op::Mul
            } else {
                o
            }
        };
        let (enc_op, dec_op) = (unit(enc_op), unit(dec_op));
        let inside = |(lo, hi): (i128, i128)| lo >= min && hi <= max;
        // Encode: x - offset, then (x - offset) op scale, over every x of the type.
        let d = (min - offset, max - offset);
        let enc_checked = !(inside(d) && inside(interval(d.0, d.1, enc_op, scale)));
        // Decode: y op scale, then + offset.
        let q = interval(min, max, dec_op, scale);
        let dec_checked = !(inside(q) && inside((q.0 + offset, q.1 + offset)));
        // int16 / uint16 (|offset| < 2^16, 1 <= |scale| < 2^14: i64 holds every bound).
        #[cfg(not(target_family = "wasm"))]
        let div = {
            let plan = |o: Op, encode: bool| {
                if ty.size() == 2 && o == Op::Div {
                    Div16::new(min as i64, max as i64, offset as i64, scale as i64, encode)
                } else {
                    Div16::default()
                }
            };
            PerDirection {
                encode: plan(enc_op, true),
                decode: plan(dec_op, false),
            }
        };
        // Encode multiplies: x - offset in range, and (x - offset) * scale in range. Decode
        // multiplies: y * scale in range, and y * scale + offset in range.
        #[cfg(not(target_family = "wasm"))]
        let accept = if ty.size() == 2 {
            let (lo, hi, off, s) = (min as i64, max as i64, offset as i64, scale as i64);
            let meet =
                |a: (i64, i64), b: (i64, i64)| bounds(a.0.max(b.0).max(lo), a.1.min(b.1).min(hi));
            let d = times_within(lo, hi, s);
            PerDirection {
                encode: meet((lo + off, hi + off), (d.0 + off, d.1 + off)),
                decode: meet(d, times_within(lo - off, hi - off, s)),
            }
        } else {
            PerDirection {
                encode: (1, 0),
                decode: (1, 0),
            }
        };
        let (min, max, offset, scale) = if ty == Prim::U64 {
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
            op: PerDirection {
                encode: enc_op,
                decode: dec_op,
            },
            checked: PerDirection {
                encode: enc_checked,
                decode: dec_checked,
            },
            #[cfg(not(target_family = "wasm"))]
            accept,
            #[cfg(not(target_family = "wasm"))]
            div,
        })
    }

    /// Whether each direction was proven free of range checks at bind time (the int16 / uint16
    /// loops then drop them; the wider types always use checked operations).
    pub fn proven(&self) -> PerDirection<bool> {
        self.checked.map(|_, c| !c)
    }

    super::avx2_twin! {
        /// Runs `input` into `out` in direction `dir`; `false` when some element fails (out of
        /// range, inexact division), leaving the outputs unspecified.
        pub fn run / run_avx2 => run_any(&self, dir: Direction, input: &[u8], out: &mut [u8]) -> bool
    }

    #[inline(always)]
    fn run_any(&self, dir: Direction, input: &[u8], out: &mut [u8]) -> bool {
        let checked = *self.checked.get(dir);
        match (self.ty, checked) {
            (Prim::I16, true) => self.run_small::<i16, true>(dir, input, out),
            (Prim::I16, false) => self.run_small::<i16, false>(dir, input, out),
            (Prim::U16, true) => self.run_small::<u16, true>(dir, input, out),
            (Prim::U16, false) => self.run_small::<u16, false>(dir, input, out),
            (Prim::I32, _) => self.run_i64::<i32>(dir, input, out),
            (Prim::U32, _) => self.run_i64::<u32>(dir, input, out),
            (Prim::I64, _) => self.run_i64::<i64>(dir, input, out),
            (Prim::U64, _) => self.run_u64(dir, input, out),
            // `select` makes kernels for int16 ... uint64 only.
            _ => false,
        }
    }

    /// int16 / uint16 with |scale| < 2^14, in i32 (the wasm build): |x - offset| < 2^17,
    /// |(x - offset) * scale| < 2^31, |y * scale| < 2^30 and |y * scale + offset| < 2^31, so
    /// nothing overflows; every step is range-checked with a flag (unless `CHECK` is false:
    /// proven in range), branch-free (the loops vectorise). Not inlined into `run`: there,
    /// whether LLVM vectorised the range-checked loops for wasm depended on unrelated code (a
    /// change of `run`'s type dispatch alone left them scalar, 3x slower).
    #[cfg(target_family = "wasm")]
    #[inline(never)]
    fn run_small<T: Wide, const CHECK: bool>(
        &self,
        dir: Direction,
        input: &[u8],
        out: &mut [u8],
    ) -> bool {
        let (min, max) = (self.min as i32, self.max as i32);
        let (off, s) = (self.offset as i32, self.scale as i32);
        let ok = move |v: i32| !CHECK || (v >= min && v <= max);
        let div = move |v: i32| (v / s, v % s == 0);
        match (dir, *self.op.get(dir)) {
            (Direction::Encode, Op::Mul) => map_ok(input, out, |x: T| {
                let d = x.wide() as i32 - off;
                let r = d * s;
                (T::narrow(r as i64), ok(d) & ok(r))
            }),
            (Direction::Encode, Op::Div) => map_ok(input, out, |x: T| {
                let d = x.wide() as i32 - off;
                let (q, exact) = div(d);
                (T::narrow(q as i64), ok(d) & exact & ok(q))
            }),
            (Direction::Decode, Op::Mul) => map_ok(input, out, |y: T| {
                let p = y.wide() as i32 * s;
                let r = p + off;
                (T::narrow(r as i64), ok(p) & ok(r))
            }),
            (Direction::Decode, Op::Div) => map_ok(input, out, |y: T| {
                let (q, exact) = div(y.wide() as i32);
                let r = q + off;
                (T::narrow(r as i64), exact & ok(q) & ok(r))
            }),
        }
    }

    /// int16 / uint16 with |scale| < 2^14 in their own 16-bit wrapping arithmetic (native
    /// builds; 16 lanes per AVX2 vector where i32 has 8): a direction that multiplies checks
    /// its input against one bind-time interval (`accept`), one that divides runs [`Div16`].
    /// The results are exact wherever the checks pass. Not in the wasm build, where it cost
    /// 250 B of the zarrita path's download (gzip), which the size budget lacks. Inlined on
    /// x86-64, into `run`'s baseline and AVX2 bodies.
    #[cfg(not(target_family = "wasm"))]
    #[cfg_attr(not(target_arch = "x86_64"), inline(never))]
    #[cfg_attr(target_arch = "x86_64", inline(always))]
    fn run_small<T: Wide, const CHECK: bool>(
        &self,
        dir: Direction,
        input: &[u8],
        out: &mut [u8],
    ) -> bool {
        let (off, s) = (
            T::from_i32(self.offset as i32),
            T::from_i32(self.scale as i32),
        );
        // Compared in T (an empty interval stays empty: (1, 0)), so the loop stays 16-bit.
        let (lo, hi) = *self.accept.get(dir);
        let (lo, hi) = (T::from_i32(lo), T::from_i32(hi));
        let inside = move |x: T| !CHECK || (x >= lo) & (x <= hi);
        match (dir, *self.op.get(dir)) {
            (Direction::Encode, Op::Mul) => map_ok(input, out, |x: T| {
                (x.wrapping_sub(off).wrapping_mul(s), inside(x))
            }),
            (Direction::Decode, Op::Mul) => map_ok(input, out, |y: T| {
                (y.wrapping_mul(s).wrapping_add(off), inside(y))
            }),
            (_, Op::Div) => self.div16::<T, CHECK>(dir, input, out),
        }
    }

    /// [`Div16`]'s loop (int16 / uint16 dividing by the scale); without `CHECK` (proven in
    /// range) only the exactness remains to test.
    #[cfg(not(target_family = "wasm"))]
    #[inline(always)]
    fn div16<T: Wide, const CHECK: bool>(
        &self,
        dir: Direction,
        input: &[u8],
        out: &mut [u8],
    ) -> bool {
        let p = *self.div.get(dir);
        let t = T::from_i32;
        let (pre, post, sgn, inv, mask) = (t(p.pre), t(p.post), t(p.sgn), t(p.inv), t(p.mask));
        let (in_lo, in_hi, q_lo, q_hi, zero) = (t(p.in_lo), t(p.in_hi), t(p.q_lo), t(p.q_hi), t(0));
        let k = p.k;
        map_ok(input, out, |x: T| {
            let d = x.wrapping_sub(pre);
            let q = d.shr(k).wrapping_mul(inv);
            let r = q.wrapping_mul(sgn).wrapping_add(post);
            let inside = !CHECK || (x >= in_lo) & (x <= in_hi);
            (
                r,
                inside & (d.and(mask) == zero) & (q >= q_lo) & (q <= q_hi),
            )
        })
    }

    /// int32, uint32 and int64 in i64 with checked operations (for int64 they are exactly the
    /// range checks; the 32-bit types are range-checked as well).
    #[inline(always)]
    fn run_i64<T: Wide>(&self, dir: Direction, input: &[u8], out: &mut [u8]) -> bool {
        let (min, max, off, s) = (self.min, self.max, self.offset, self.scale);
        let fits = |v: Option<i64>| match v {
            Some(v) => (v, v >= min && v <= max),
            None => (0, false),
        };
        let step = |o: Op, v: i64| match o {
            Op::Mul => fits(v.checked_mul(s)),
            // A division must be exact; i64::MIN / -1 overflows (checked_div is None).
            Op::Div => {
                let (q, ok) = fits(v.checked_div(s));
                (q, ok && v.wrapping_rem(s) == 0)
            }
        };
        let o = *self.op.get(dir);
        match dir {
            Direction::Encode => map_ok(input, out, |x: T| {
                let (d, ok1) = fits(x.wide().checked_sub(off));
                let (r, ok2) = step(o, d);
                (T::narrow(r), ok1 & ok2)
            }),
            Direction::Decode => map_ok(input, out, |y: T| {
                let (q, ok1) = step(o, y.wide());
                let (r, ok2) = fits(q.checked_add(off));
                (T::narrow(r), ok1 & ok2)
            }),
        }
    }

    fn run_u64(&self, dir: Direction, input: &[u8], out: &mut [u8]) -> bool {
        let (off, s) = (self.offset as u64, self.scale as u64);
        let step = |o: Op, v: Option<u64>| -> Option<u64> {
            match o {
                Op::Mul => v?.checked_mul(s),
                // One division: the exactness test multiplies back (`q * s <= v`, no overflow)
                // rather than taking `v % s`, which LLVM left as a second division on wasm.
                Op::Div => {
                    let v = v?;
                    let q = v / s;
                    (q.wrapping_mul(s) == v).then_some(q)
                }
            }
        };
        let o = *self.op.get(dir);
        map_ok(input, out, |x: u64| {
            let r = match dir {
                Direction::Encode => step(o, x.checked_sub(off)),
                Direction::Decode => step(o, Some(x)).and_then(|q| q.checked_add(off)),
            };
            (r.unwrap_or(0), r.is_some())
        })
    }
}

/// Storage types computed in i64, and in their own wrapping arithmetic.
trait Wide: Elem + PartialOrd {
    fn wide(self) -> i64;
    fn narrow(v: i64) -> Self;
    /// The low bits of `v`.
    #[cfg_attr(target_family = "wasm", allow(dead_code))]
    fn from_i32(v: i32) -> Self;
    #[cfg_attr(target_family = "wasm", allow(dead_code))]
    fn wrapping_add(self, b: Self) -> Self;
    #[cfg_attr(target_family = "wasm", allow(dead_code))]
    fn wrapping_sub(self, b: Self) -> Self;
    #[cfg_attr(target_family = "wasm", allow(dead_code))]
    fn wrapping_mul(self, b: Self) -> Self;
    /// `self >> k` (arithmetic for the signed types), k < the width.
    #[cfg_attr(target_family = "wasm", allow(dead_code))]
    fn shr(self, k: u32) -> Self;
    #[cfg_attr(target_family = "wasm", allow(dead_code))]
    fn and(self, b: Self) -> Self;
}

macro_rules! wide {
    ($($t:ty),*) => {$(
        impl Wide for $t {
            #[inline(always)]
            fn wide(self) -> i64 { self as i64 }
            #[inline(always)]
            fn narrow(v: i64) -> Self { v as $t }
            #[inline(always)]
            fn from_i32(v: i32) -> Self { v as $t }
            #[inline(always)]
            fn wrapping_add(self, b: Self) -> Self { <$t>::wrapping_add(self, b) }
            #[inline(always)]
            fn wrapping_sub(self, b: Self) -> Self { <$t>::wrapping_sub(self, b) }
            #[inline(always)]
            fn wrapping_mul(self, b: Self) -> Self { <$t>::wrapping_mul(self, b) }
            #[inline(always)]
            fn shr(self, k: u32) -> Self { self.wrapping_shr(k) }
            #[inline(always)]
            fn and(self, b: Self) -> Self { self & b }
        }
    )*};
}
wide!(i16, u16, i32, u32, i64);
