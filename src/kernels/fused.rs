//! A chain decode fused into one loop: `[scale_offset, cast_value]` on float32/float64 with an
//! int16/uint16 stored type (the packed-integer chains of satellite and climate data) decodes
//! each element as `conv(y) op scale + offset` (or the `scalar_map` value `op scale + offset`),
//! exactly the operations of the two codecs in turn, in one pass.

use super::arith::Op;
use super::cast::{CastKernel, FloatLane, FloatT, IntLane, IntT};
use super::map;

/// The float arithmetic of a bound scale_offset: its type, the decode operation, offset, scale.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct FloatArith {
    /// float32 or float64.
    pub ty: FloatT,
    /// The decode operation (`Div` for scale_offset, `Mul` for cf.scale_offset).
    pub op: Op,
    /// Offset (exact in `ty`).
    pub offset: f64,
    /// Scale (exact in `ty`).
    pub scale: f64,
}

/// The stored and decoded element types of a fused decode (every pair `select` admits).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Types {
    I16F32,
    U16F32,
    I16F64,
    U16F64,
}

/// A fused `[scale_offset, cast_value]` decode.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct FusedDecode {
    types: Types,
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
                let types = match (src, dst) {
                    (IntT::I16, FloatT::F32) => Types::I16F32,
                    (IntT::U16, FloatT::F32) => Types::U16F32,
                    (IntT::I16, FloatT::F64) => Types::I16F64,
                    (IntT::U16, FloatT::F64) => Types::U16F64,
                    _ => return None,
                };
                Some(FusedDecode { types, arith, map })
            }
            _ => None,
        }
    }

    /// Decodes `input` (stored integers) into `out` (floats). Never declines.
    pub fn run(&self, input: &[u8], out: &mut [u8]) {
        let a = self.arith;
        match self.types {
            Types::I16F32 => fused::<i16, f32>(input, out, a, self.map),
            Types::U16F32 => fused::<u16, f32>(input, out, a, self.map),
            Types::I16F64 => fused::<i16, f64>(input, out, a, self.map),
            Types::U16F64 => fused::<u16, f64>(input, out, a, self.map),
        }
    }
}

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
