//! A chain fused into one loop: `[scale_offset, cast_value]` on float32/float64 with an
//! integer stored type (the packed-integer chains of satellite and climate data), exactly the
//! operations of the two codecs in turn, in one pass.
//!
//! - [`FusedDecode`] (int16/uint16 stored): each element as `conv(y) op scale + offset` (or the
//!   `scalar_map` value `op scale + offset`). Never declines.
//! - [`FusedEncode`] (int8/uint8/int16/uint16 stored): `y = (x - offset) op scale` in the float
//!   type, rounded with the mode, then range-checked and converted, or the `scalar_map` value
//!   when the map's one key is NaN and `y` is a NaN; `out_of_range: clamp` clamps finite values
//!   in the loop. A block with a NaN / ±Inf that the map does not catch, or (without clamp) an
//!   out-of-range value, is declined (so is `wrap`'s out-of-range values). Two loops per block
//!   of [`BLOCK`] elements through a stack buffer: scale and round (one instance per float type,
//!   operation and rounding mode), then check and convert (per float type, integer type, map
//!   and clamp), rather than one loop per combination of all six (4x the code). Native builds
//!   run nearest-even (the default) in one pass per element instead ([`FusedEncode::run`]).

use super::arith::Op;
use super::cast::{with_rounding, CastKernel, FloatLane, IntLane};
use super::{map, BLOCK};
use crate::cast::OutOfRange;
use crate::dtype::Prim;
use crate::num::RoundingMode;

/// The float arithmetic of a bound scale_offset: its type, the decode operation, offset, scale.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct FloatArith {
    /// float32 or float64 ([`Prim::F32`], [`Prim::F64`]).
    pub ty: Prim,
    /// The decode operation (`Div` for scale_offset, `Mul` for cf.scale_offset).
    pub op: Op,
    /// Offset (exact in `ty`).
    pub offset: f64,
    /// Scale (exact in `ty`).
    pub scale: f64,
}

/// Whether a fused decode loop exists from stored `src` to `dst`: int16/uint16 into
/// float32/float64.
fn has_decode_loop(src: Prim, dst: Prim) -> bool {
    matches!((src, dst), (Prim::I16 | Prim::U16, Prim::F32 | Prim::F64))
}

/// A fused `[scale_offset, cast_value]` decode.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct FusedDecode {
    /// Stored and decoded element types: a pair [`has_decode_loop`] admits.
    types: (Prim, Prim),
    arith: FloatArith,
    map: Option<(i64, u64)>,
}

impl FusedDecode {
    /// The fused decode of scale_offset (`arith`) after a cast whose decode kernel is `cast`,
    /// when there is one.
    pub fn select(arith: Option<FloatArith>, cast: &CastKernel) -> Option<FusedDecode> {
        let arith = arith?;
        match *cast {
            CastKernel::IntToFloat { src, dst, map } if dst == arith.ty => {
                if !has_decode_loop(src, dst) {
                    return None;
                }
                Some(FusedDecode {
                    types: (src, dst),
                    arith,
                    map,
                })
            }
            _ => None,
        }
    }

    super::avx2_twin! {
        /// Decodes `input` (stored integers) into `out` (floats). Never declines.
        pub fn run / run_avx2 => run_any(&self, input: &[u8], out: &mut [u8])
    }

    #[inline(always)]
    fn run_any(&self, input: &[u8], out: &mut [u8]) {
        let (a, m) = (self.arith, self.map);
        match self.types {
            (Prim::I16, Prim::F32) => fused::<i16, f32>(input, out, a, m),
            (Prim::U16, Prim::F32) => fused::<u16, f32>(input, out, a, m),
            (Prim::I16, Prim::F64) => fused::<i16, f64>(input, out, a, m),
            (Prim::U16, Prim::F64) => fused::<u16, f64>(input, out, a, m),
            // `select` admits the pairs above only.
            _ => {}
        }
    }
}

#[cfg_attr(target_arch = "x86_64", inline(always))]
fn fused<S: IntLane, D: FloatLane>(
    input: &[u8],
    out: &mut [u8],
    a: FloatArith,
    m: Option<(i64, u64)>,
) {
    let (off, s) = (D::of(a.offset), D::of(a.scale));
    let (k, v) = match m {
        None => (S::NO_KEY, D::default()),
        Some((k, v)) => (S::key_of(k), D::from_bits(v)),
    };
    let conv = |x: S| if x.key() == k { v } else { D::from_int(x) };
    match a.op {
        Op::Div => map(input, out, |x: S| conv(x) / s + off),
        Op::Mul => map(input, out, |x: S| conv(x) * s + off),
    }
}

/// A fused `[scale_offset, cast_value]` encode: float32/float64 into int8 ... uint16.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct FusedEncode {
    /// The encode arithmetic (`Mul` for scale_offset, `Div` for cf.scale_offset).
    arith: FloatArith,
    /// int8 ... uint16.
    dst: Prim,
    mode: RoundingMode,
    /// The output bits of a NaN, when the scalar_map's one key is NaN.
    nan: Option<u64>,
    /// `out_of_range: clamp` (else out-of-range values decline, as for error and wrap).
    clamp: bool,
}

impl FusedEncode {
    /// The fused encode of scale_offset (`arith`: its encode arithmetic) then a cast whose
    /// encode kernel is `cast`, with the cast's `out_of_range`, when there is one (not for a
    /// numeric scalar_map key: the pipeline of the two kernels handles those).
    pub fn select(
        arith: Option<FloatArith>,
        cast: &CastKernel,
        oor: OutOfRange,
    ) -> Option<FusedEncode> {
        let arith = arith?;
        match *cast {
            CastKernel::FloatToInt {
                src,
                dst,
                mode,
                map,
            } if src == arith.ty && matches!(dst, Prim::I8 | Prim::U8 | Prim::I16 | Prim::U16) => {
                let nan = match map {
                    None => None,
                    Some((k, v)) if k.is_nan() => Some(v),
                    Some(_) => return None,
                };
                Some(FusedEncode {
                    arith,
                    dst,
                    mode,
                    nan,
                    clamp: oor == OutOfRange::Clamp,
                })
            }
            _ => None,
        }
    }

    super::avx2_twin! {
        /// Encodes `input` (floats) into `out` (stored integers); `false` when some element
        /// needs the reference (the outputs are then unspecified).
        pub fn run / run_avx2 => run_any(&self, input: &[u8], out: &mut [u8]) -> bool
    }

    #[inline(always)]
    fn run_any(&self, input: &[u8], out: &mut [u8]) -> bool {
        #[cfg(not(target_family = "wasm"))]
        if self.mode == RoundingMode::NearestEven {
            return match self.arith.ty {
                Prim::F32 => self.nearest::<f32>(input, out),
                Prim::F64 => self.nearest::<f64>(input, out),
                // `select` admits float32 and float64 only.
                _ => false,
            };
        }
        match self.arith.ty {
            Prim::F32 => self.blocks::<f32>(input, out),
            Prim::F64 => self.blocks::<f64>(input, out),
            // `select` admits float32 and float64 only.
            _ => false,
        }
    }

    /// Nearest-even (the default rounding, and the CF packers' `np.round`) in one pass per
    /// element: the rounding and the conversion are one addition of the magic constant
    /// ([`Magic::int_bits`]). One instance per float type, operation, stored type and NaN map
    /// or none; `out_of_range: clamp` is a loop-invariant pair of bounds rather than an
    /// instance ([`NearestParams`]). Native builds only: the wasm build keeps the two-loop
    /// form, whose code the zarrita path's download budget has room for.
    #[cfg(not(target_family = "wasm"))]
    #[cfg_attr(target_arch = "x86_64", inline(always))]
    fn nearest<S: Magic>(&self, input: &[u8], out: &mut [u8]) -> bool {
        let (off, s) = (S::of(self.arith.offset), S::of(self.arith.scale));
        let div = self.arith.op == Op::Div;
        match (self.dst, div) {
            (Prim::I8, false) => self.map_or_not::<S, i8, false>(input, out, off, s),
            (Prim::I8, true) => self.map_or_not::<S, i8, true>(input, out, off, s),
            (Prim::U8, false) => self.map_or_not::<S, u8, false>(input, out, off, s),
            (Prim::U8, true) => self.map_or_not::<S, u8, true>(input, out, off, s),
            (Prim::I16, false) => self.map_or_not::<S, i16, false>(input, out, off, s),
            (Prim::I16, true) => self.map_or_not::<S, i16, true>(input, out, off, s),
            (Prim::U16, false) => self.map_or_not::<S, u16, false>(input, out, off, s),
            (Prim::U16, true) => self.map_or_not::<S, u16, true>(input, out, off, s),
            // `select` admits none of the wider types.
            _ => false,
        }
    }

    /// [`nearest`] with or without the NaN `scalar_map` entry (a loop of its own: without a map
    /// the loop has no NaN test).
    #[cfg(not(target_family = "wasm"))]
    #[cfg_attr(target_arch = "x86_64", inline(always))]
    fn map_or_not<S: Magic, D: Small, const DIV: bool>(
        &self,
        input: &[u8],
        out: &mut [u8],
        off: S,
        s: S,
    ) -> bool {
        let p = self.params::<S, D>();
        if self.nan.is_some() {
            nearest::<S, D, DIV, true>(input, out, off, s, p)
        } else {
            nearest::<S, D, DIV, false>(input, out, off, s, p)
        }
    }

    /// The loop-invariant values of [`nearest`] for stored type `D`.
    #[cfg(not(target_family = "wasm"))]
    #[cfg_attr(target_arch = "x86_64", inline(always))]
    fn params<S: Magic, D: Small>(&self) -> NearestParams<S> {
        let (lo, hi) = (D::LO as f64, D::HI as f64);
        let nan = self.nan.map_or(0, |v| D::from_bits(v).to_i64() as i32);
        if self.clamp {
            // Every finite value is accepted (and clamped); NaN and ±Inf fail both tests.
            return NearestParams {
                clo: S::of(lo),
                chi: S::of(hi),
                glo: S::LOWEST,
                ghi: S::of(f64::INFINITY),
                nan,
            };
        }
        // Every stored type here has an even minimum and an odd maximum, so nearest-even
        // rounds y into [lo, hi] exactly when lo - 1/2 <= y < hi + 1/2 (lo - 1/2 rounds up to
        // the even lo, hi + 1/2 up to the even hi + 1); both exact in float32.
        NearestParams {
            clo: S::of(f64::NEG_INFINITY),
            chi: S::of(f64::INFINITY),
            glo: S::of(lo - 0.5),
            ghi: S::of(hi + 0.5),
            nan,
        }
    }

    #[cfg_attr(target_arch = "x86_64", inline(always))]
    fn blocks<S: Magic>(&self, input: &[u8], out: &mut [u8]) -> bool {
        let out_size = self.dst.size();
        let mut r = [S::default(); BLOCK];
        let mut ok = true;
        for (i, o) in input
            .chunks(BLOCK * S::SIZE)
            .zip(out.chunks_mut(BLOCK * out_size))
        {
            self.scale_round(i, &mut r);
            ok &= self.convert(&r, o);
        }
        ok
    }

    /// `r = round((x - offset) op scale)` over `input` (the first elements of `r`).
    #[cfg_attr(target_arch = "x86_64", inline(always))]
    fn scale_round<S: FloatLane>(&self, input: &[u8], r: &mut [S]) {
        let (off, s) = (S::of(self.arith.offset), S::of(self.arith.scale));
        match self.arith.op {
            Op::Mul => self.with_mode::<S, false>(input, r, off, s),
            Op::Div => self.with_mode::<S, true>(input, r, off, s),
        }
    }

    #[cfg_attr(target_arch = "x86_64", inline(always))]
    fn with_mode<S: FloatLane, const DIV: bool>(&self, input: &[u8], r: &mut [S], off: S, s: S) {
        with_rounding!(self.mode, S, |f| scale_round::<S, DIV>(input, r, off, s, f))
    }

    /// Checks and converts the rounded values `r` (as many as `out` holds).
    #[cfg_attr(target_arch = "x86_64", inline(always))]
    fn convert<S: Magic>(&self, r: &[S], out: &mut [u8]) -> bool {
        match self.dst {
            Prim::I8 => self.with_flags::<S, i8>(r, out),
            Prim::U8 => self.with_flags::<S, u8>(r, out),
            Prim::I16 => self.with_flags::<S, i16>(r, out),
            Prim::U16 => self.with_flags::<S, u16>(r, out),
            // `select` admits none of the wider types.
            _ => false,
        }
    }

    #[cfg_attr(target_arch = "x86_64", inline(always))]
    fn with_flags<S: Magic, D: Small>(&self, r: &[S], out: &mut [u8]) -> bool {
        let nan = self.nan.map_or(0, |v| D::from_bits(v).to_i64() as i32);
        match (self.nan.is_some(), self.clamp) {
            (false, false) => convert::<S, D, false, false>(r, out, nan),
            (false, true) => convert::<S, D, false, true>(r, out, nan),
            (true, false) => convert::<S, D, true, false>(r, out, nan),
            (true, true) => convert::<S, D, true, true>(r, out, nan),
        }
    }
}

/// An integer stored type of at most 16 bits: converted through a saturating float -> i32
/// conversion, clamped in i32 and narrowed.
pub trait Small: IntLane {
    /// Smallest value.
    const LO: i32;
    /// Largest value.
    const HI: i32;
    /// The low bits of `v` (wrapping).
    fn from_i32(v: i32) -> Self;
}

macro_rules! small {
    ($($t:ty),*) => {$(
        impl Small for $t {
            const LO: i32 = <$t>::MIN as i32;
            const HI: i32 = <$t>::MAX as i32;
            #[inline(always)]
            fn from_i32(v: i32) -> Self { v as $t }
        }
    )*};
}
small!(i8, u8, i16, u16);

/// scale_offset's encode in the float type (one rounding per operation, as the codec does it),
/// then `round` (the rounding mode). Not inlined, like [`convert`]: small functions that V8
/// compiles and tiers up one by one, rather than one huge function holding every instance
/// (inlined on x86-64, into the baseline and AVX2 bodies of [`FusedEncode::run`]).
#[cfg_attr(not(target_arch = "x86_64"), inline(never))]
#[cfg_attr(target_arch = "x86_64", inline(always))]
fn scale_round<S: FloatLane, const DIV: bool>(
    input: &[u8],
    r: &mut [S],
    off: S,
    s: S,
    round: impl Fn(S) -> S,
) {
    for (d, i) in r.iter_mut().zip(input.chunks_exact(S::SIZE)) {
        let x = S::load(i) - off;
        *d = round(if DIV { x / s } else { x * s });
    }
}

/// Range check and conversion of rounded values; with `MAP`, a NaN becomes `nan` (the map's
/// value, an integer of `D`); with `CLAMP`, every finite value is accepted and clamped to `D`'s
/// range. Branch-free (non-short-circuit `&` / `|`, selects), so it vectorises.
#[cfg_attr(not(target_arch = "x86_64"), inline(never))]
#[cfg_attr(target_arch = "x86_64", inline(always))]
fn convert<S: Magic, D: Small, const MAP: bool, const CLAMP: bool>(
    r: &[S],
    out: &mut [u8],
    nan: i32,
) -> bool {
    let (lo, end, inf) = (S::of(D::MIN_F), S::of(D::END_F), S::of(f64::INFINITY));
    let hi = S::of(D::END_F - 1.0);
    let mut ok = true;
    for (o, &r) in out.chunks_exact_mut(D::SIZE).zip(r.iter()) {
        #[allow(clippy::eq_op)]
        let hit = MAP & (r != r);
        // NaN and ±Inf are errors under every out_of_range.
        let good = if CLAMP {
            r.abs() < inf
        } else {
            (r >= lo) & (r < end)
        };
        ok &= hit | good;
        // Without clamp, an out-of-range value gives garbage, but its block is declined.
        let c = if CLAMP {
            let c = if r < lo { lo } else { r };
            if c > hi {
                hi
            } else {
                c
            }
        } else {
            r
        };
        let v = if hit { nan } else { c.int_bits() };
        D::from_i32(v).store(o);
    }
    ok
}

/// The loop-invariant values of [`nearest`]: a value y is accepted when `glo <= y < ghi`
/// (`D`'s range widened by the rounding, or under `out_of_range: clamp` every finite value),
/// then clamped to `[clo, chi]` (`D`'s range under clamp, else `[-inf, inf]`: unchanged); under
/// a NaN `scalar_map` entry, a NaN becomes `nan`.
#[cfg(not(target_family = "wasm"))]
#[derive(Clone, Copy)]
struct NearestParams<S> {
    clo: S,
    chi: S,
    glo: S,
    ghi: S,
    nan: i32,
}

/// scale_offset's encode in the float type (one rounding per operation, as the codec does it),
/// rounded to nearest-even, range-checked and converted, in one branch-free pass (it
/// vectorises). Equal to [`scale_round`] with `round_ne` then [`convert`]: the range test is
/// made on y before rounding ([`FusedEncode::params`]); clamping commutes with a monotone
/// rounding that keeps the integer bounds (`round(clamp(y))` is `clamp(round(y))`); and the
/// addition in [`Magic::int_bits`] is itself the rounding: for |y| < 2^(p-2) the sum
/// `y + 1.5 x 2^(p-1)` lies in `[2^(p-1), 2^p)`, where the spacing is 1, so the addition rounds
/// y to nearest-even (the constant is even: ties go the same way), and every accepted or
/// clamped value has |y| < 2^16 + 1.
#[cfg(not(target_family = "wasm"))]
#[cfg_attr(target_arch = "x86_64", inline(always))]
fn nearest<S: Magic, D: Small, const DIV: bool, const MAP: bool>(
    input: &[u8],
    out: &mut [u8],
    off: S,
    s: S,
    p: NearestParams<S>,
) -> bool {
    let mut ok = true;
    for (o, i) in out
        .chunks_exact_mut(D::SIZE)
        .zip(input.chunks_exact(S::SIZE))
    {
        let x = S::load(i) - off;
        let y = if DIV { x / s } else { x * s };
        let c = if y < p.clo { p.clo } else { y };
        let c = if c > p.chi { p.chi } else { c };
        #[allow(clippy::eq_op)]
        let hit = MAP & (y != y);
        ok &= hit | ((y >= p.glo) & (y < p.ghi));
        D::from_i32(if hit { p.nan } else { c.int_bits() }).store(o);
    }
    ok
}

/// The integer value of an integral float, by adding 1.5 x 2^(p-1): its low significand bits
/// are then the value in two's complement (a float addition and a reinterpretation, where the
/// saturating float -> int conversion is a sequence of 8 instructions in V8 on x86).
pub trait Magic: FloatLane {
    /// The most negative finite value.
    const LOWEST: Self;
    /// The low 32 bits of the value, exact for integral values of magnitude < 2^(p-2) (the
    /// low 16 bits are all the 8- and 16-bit types need).
    fn int_bits(self) -> i32;
}

impl Magic for f32 {
    const LOWEST: f32 = f32::MIN;
    #[inline(always)]
    fn int_bits(self) -> i32 {
        (self + 12_582_912.0).to_bits() as i32
    }
}

impl Magic for f64 {
    const LOWEST: f64 = f64::MIN;
    #[inline(always)]
    fn int_bits(self) -> i32 {
        (self + 6_755_399_441_055_744.0).to_bits() as i32
    }
}
