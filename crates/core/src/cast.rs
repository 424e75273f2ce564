//! Value conversion between any two data types: the `cast_value` procedure after the scalar map
//! (exact representability, then rounding, then out_of_range), built on the numeric core. The
//! display of values ([`show`]) and their exact form ([`value`], [`Num`]) live with the data types and
//! are re-exported.

pub use crate::dtype::{show, show_f64, value, Num};
use crate::dtype::{DataType, Kind};
use crate::error::{Error, ErrorCode};
use crate::num::{decompose_f64, round_to_float, round_to_int, FloatFormat, Rounded, RoundingMode};

/// What `cast_value` does with values outside the target's range.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum OutOfRange {
    /// No `out_of_range`: an error.
    Error,
    /// Clamp to the extremes (±Inf where the target has them).
    Clamp,
    /// Modulo 2^N (integer targets only).
    Wrap,
}

/// Why a single value could not be cast.
#[derive(Debug, Clone, PartialEq)]
pub enum CastFail {
    /// NaN into a type without NaN.
    Nan,
    /// ±Inf into a type without infinities.
    Inf,
    /// Outside the target's range (after rounding) with no out_of_range handling.
    Range,
}

impl CastFail {
    /// Converts into an [`Error`] describing the value `bits` of `from` cast to `to`.
    pub fn to_error(&self, from: DataType, to: DataType, bits: u64) -> Error {
        let v = show(from, bits);
        match self {
            CastFail::Nan => Error::new(
                ErrorCode::NotRepresentable,
                format!("{v} cannot be cast to {to}, which has no NaN, and no scalar_map entry maps it"),
            ),
            CastFail::Inf => Error::new(
                ErrorCode::NotRepresentable,
                format!("{v} cannot be cast to {to}, which has no infinities, and no scalar_map entry maps it"),
            ),
            CastFail::Range => Error::new(
                ErrorCode::OutOfRange,
                format!("{v} is outside the range of {to} and out_of_range is not set"),
            ),
        }
    }
}

/// Numeric equality with any NaN equal to any NaN (the scalar_map and fill round-trip rule).
pub fn same_value(a: Num, b: Num) -> bool {
    match (a, b) {
        (Num::Int(x), Num::Int(y)) => x == y,
        (Num::Float(x), Num::Float(y)) => x == y || (x.is_nan() && y.is_nan()),
        (Num::Int(x), Num::Float(y)) | (Num::Float(y), Num::Int(x)) => {
            // An f64 equals an integer iff it is finite, integral and the same value.
            if !y.is_finite() || y.fract() != 0.0 {
                return false;
            }
            let (neg, m, e) = decompose_f64(y);
            let r = round_to_int(neg, m, e, false, RoundingMode::TowardsZero);
            r.value() == Some(x)
        }
    }
}

/// Applies rounding outcome + out_of_range to a float target.
#[inline]
fn float_result(to: &FloatFormat, r: Rounded, oor: OutOfRange) -> Result<u64, CastFail> {
    match r {
        Rounded::Value { code, .. } => Ok(code),
        Rounded::Overflow { neg } => match oor {
            OutOfRange::Clamp => {
                let mag = if to.has_inf() {
                    to.inf_code()
                } else {
                    to.max_finite_code()
                };
                Ok(if neg { mag | to.sign_bit() } else { mag })
            }
            _ => Err(CastFail::Range),
        },
        Rounded::Underflow => match oor {
            OutOfRange::Clamp => Ok(to.min_positive_code()),
            _ => Err(CastFail::Range),
        },
    }
}

/// Casts raw bits of `from` to raw bits of `to` (steps 2 and 3 of the cast_value procedure).
pub fn cast_bits(
    from: DataType,
    to: DataType,
    bits: u64,
    mode: RoundingMode,
    oor: OutOfRange,
) -> Result<u64, CastFail> {
    match (from.kind(), to.kind()) {
        (Kind::Int(fi), Kind::Int(ti)) => {
            let v = fi.from_bits(bits);
            if ti.contains(v) {
                return Ok(ti.to_bits(v));
            }
            match oor {
                OutOfRange::Clamp => Ok(ti.to_bits(ti.clamp(v))),
                OutOfRange::Wrap => Ok(ti.to_bits(ti.wrap(v))),
                OutOfRange::Error => Err(CastFail::Range),
            }
        }
        (Kind::Int(fi), Kind::Float(tf)) => {
            let v = fi.from_bits(bits);
            let r = round_to_float(&tf, v < 0, v.unsigned_abs(), 0, false, mode);
            float_result(&tf, r, oor)
        }
        (Kind::Float(ff), Kind::Int(ti)) => {
            if ff.is_nan(bits) {
                return Err(CastFail::Nan);
            }
            if ff.is_inf(bits) {
                return Err(CastFail::Inf);
            }
            let (neg, m, e) = decompose_f64(ff.decode(bits));
            let r = round_to_int(neg, m, e, false, mode);
            if let Some(v) = r.value() {
                if ti.contains(v) {
                    return Ok(ti.to_bits(v));
                }
            }
            match oor {
                OutOfRange::Clamp => Ok(ti.to_bits(if neg { ti.min() } else { ti.max() })),
                OutOfRange::Wrap => Ok(ti.to_bits(ti.wrap_magnitude(neg, r.low))),
                OutOfRange::Error => Err(CastFail::Range),
            }
        }
        (Kind::Float(ff), Kind::Float(tf)) => {
            if ff == tf {
                return Ok(bits & ff.mask());
            }
            if ff.is_nan(bits) {
                return if tf.has_nan() {
                    Ok(tf.nan_code(ff.is_negative(bits)))
                } else {
                    Err(CastFail::Nan)
                };
            }
            if ff.is_inf(bits) {
                if !tf.has_inf() {
                    return Err(CastFail::Inf);
                }
                let neg = ff.is_negative(bits);
                return Ok(if neg {
                    tf.inf_code() | tf.sign_bit()
                } else {
                    tf.inf_code()
                });
            }
            let (neg, m, e) = decompose_f64(ff.decode(bits));
            float_result(&tf, round_to_float(&tf, neg, m, e, false, mode), oor)
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::dtype::ALL;
    use DataType::*;
    use RoundingMode::*;

    fn f64b(x: f64) -> u64 {
        x.to_bits()
    }

    #[test]
    fn spec_examples() {
        let c = |x: f64, oor| cast_bits(Float64, Int8, f64b(x), NearestEven, oor).map(|b| b as i64);
        assert_eq!(c(128.0, OutOfRange::Error), Err(CastFail::Range));
        assert_eq!(c(128.0, OutOfRange::Clamp), Ok(127));
        assert_eq!(c(128.0, OutOfRange::Wrap), Ok(-128));
        assert_eq!(c(127.6, OutOfRange::Error), Err(CastFail::Range));
        assert_eq!(c(f64::NAN, OutOfRange::Clamp), Err(CastFail::Nan));
        assert_eq!(c(f64::INFINITY, OutOfRange::Wrap), Err(CastFail::Inf));
        assert_eq!(c(-0.0, OutOfRange::Error), Ok(0));
        // f64 -> f32: overflow, clamp to inf, NaN and -0 propagate.
        let f = |x: f64, oor| cast_bits(Float64, Float32, f64b(x), NearestEven, oor);
        assert_eq!(f(1e300, OutOfRange::Error), Err(CastFail::Range));
        assert_eq!(f(1e300, OutOfRange::Clamp), Ok(0x7f80_0000));
        assert_eq!(f(-0.0, OutOfRange::Error), Ok(0x8000_0000));
        assert_eq!(f(f64::NAN, OutOfRange::Error), Ok(0x7fc0_0000));
        // int64 2^53+1 -> f32 towards zero = 2^53.
        let v = Int64.int().unwrap().to_bits((1i128 << 53) + 1);
        let r = cast_bits(Int64, Float32, v, TowardsZero, OutOfRange::Error).unwrap();
        assert_eq!(f32::from_bits(r as u32), 9007199254740992.0);
        // float -> fnuz: Inf errors even with clamp, NaN propagates, overflow clamps to max.
        let g = |x: f64, oor| {
            cast_bits(
                Float32,
                Float8E4M3FNUZ,
                (x as f32).to_bits() as u64,
                NearestEven,
                oor,
            )
        };
        assert_eq!(g(f64::INFINITY, OutOfRange::Clamp), Err(CastFail::Inf));
        assert_eq!(g(f64::NAN, OutOfRange::Error), Ok(0x80));
        assert_eq!(g(1000.0, OutOfRange::Clamp), Ok(0x7f));
        assert_eq!(g(-1000.0, OutOfRange::Clamp), Ok(0xff));
        assert_eq!(g(-0.0, OutOfRange::Error), Ok(0x00));
        // wrap into int4 from float: modulo 16.
        let h = |x: f64| {
            cast_bits(Float64, Int4, f64b(x), NearestEven, OutOfRange::Wrap).map(|b| b as i64)
        };
        assert_eq!(h(8.0), Ok(-8));
        assert_eq!(h(-9.0), Ok(7));
        assert_eq!(h(1e300), Ok(0));
    }

    /// Every value of every <= 8-bit type cast to every type and back under nearest-even with
    /// no out_of_range: whenever the forward cast is exact, the backward cast restores the value.
    #[test]
    fn exact_casts_roundtrip_all_pairs() {
        let small: Vec<DataType> = ALL.iter().copied().filter(|d| d.bits() <= 8).collect();
        for from in small {
            for to in ALL {
                for bits in 0..(1u64 << from.bits()) {
                    let bits = match from.int() {
                        Some(i) => i.to_bits(i.from_bits(bits)),
                        None => bits,
                    };
                    let Ok(fwd) = cast_bits(from, to, bits, NearestEven, OutOfRange::Error) else {
                        continue;
                    };
                    if !same_value(value(from, bits), value(to, fwd)) {
                        continue; // inexact (rounded)
                    }
                    let back = cast_bits(to, from, fwd, NearestEven, OutOfRange::Error).unwrap();
                    assert!(
                        same_value(value(from, bits), value(from, back)),
                        "{from}->{to}->{from} {bits:#x}"
                    );
                }
            }
        }
    }
}
