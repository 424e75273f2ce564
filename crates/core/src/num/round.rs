//! Exact rounding of `±(m + δ) × 2^e` (m a u128, δ ∈ [0, 1) known only as "zero or not": the
//! sticky bit) into a float format or into the integers, under the five rounding modes.
//!
//! Rounding happens first with an unbounded exponent range above (so a directed mode can land
//! on the largest finite value, and nearest modes overflow exactly where IEEE 754 does); then the
//! result is checked against the format's range. Below, subnormals use the fixed quantum of the
//! smallest exponent, as IEEE 754 does.

use super::{FloatFormat, RoundingMode};

/// How the discarded part compares with half a unit in the last place.
#[derive(Clone, Copy, PartialEq, Eq, Debug)]
enum Rem {
    Zero,
    Below,
    Half,
    Above,
}

fn rounds_up(mode: RoundingMode, neg: bool, odd: bool, rem: Rem) -> bool {
    match mode {
        RoundingMode::NearestEven => rem == Rem::Above || (rem == Rem::Half && odd),
        RoundingMode::NearestAway => matches!(rem, Rem::Half | Rem::Above),
        RoundingMode::TowardsZero => false,
        RoundingMode::TowardsPositive => rem != Rem::Zero && !neg,
        RoundingMode::TowardsNegative => rem != Rem::Zero && neg,
    }
}

/// floor(m × 2^-shift) and the class of the discarded part, for shift > 0.
fn shift_right(m: u128, shift: u32, sticky: bool) -> (u128, Rem) {
    if shift > 128 {
        return (
            0,
            if m != 0 || sticky {
                Rem::Below
            } else {
                Rem::Zero
            },
        );
    }
    let (kept, lost, half) = if shift == 128 {
        (0u128, m, 1u128 << 127)
    } else {
        (m >> shift, m & ((1u128 << shift) - 1), 1u128 << (shift - 1))
    };
    let rem = if lost == 0 {
        if sticky {
            Rem::Below
        } else {
            Rem::Zero
        }
    } else if lost < half {
        Rem::Below
    } else if lost == half {
        if sticky {
            Rem::Above
        } else {
            Rem::Half
        }
    } else {
        Rem::Above
    };
    (kept, rem)
}

/// The result of rounding into a float format.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Rounded {
    /// A representable value: its code, and whether rounding changed the value.
    Value {
        /// The code in the format.
        code: u64,
        /// The rounded value differs from the input.
        inexact: bool,
    },
    /// The rounded magnitude exceeds the largest finite value (`neg`: the sign of the input).
    Overflow {
        /// Sign of the input.
        neg: bool,
    },
    /// The value is below the smallest value of a format without zero or without a sign
    /// (float8_e8m0fnu: zero, negatives and values that round below 2^-127).
    Underflow,
}

/// Decomposes a finite f64 into (negative, m, e) with |x| = m × 2^e exactly.
pub fn decompose_f64(x: f64) -> (bool, u128, i32) {
    let b = x.to_bits();
    let neg = b >> 63 != 0;
    let exp = ((b >> 52) & 0x7ff) as i32;
    let frac = b & ((1u64 << 52) - 1);
    if exp == 0 {
        (neg, frac as u128, -1074)
    } else {
        (neg, (frac | (1u64 << 52)) as u128, exp - 1075)
    }
}

/// Rounds `±(m [+ sticky]) × 2^e` into `fmt` under `mode`. `sticky` means the true magnitude is
/// strictly greater than `m × 2^e` by less than `2^e`; it requires `m > 0` or a tiny `e`.
pub fn round_to_float(
    fmt: &FloatFormat,
    neg: bool,
    m: u128,
    e: i32,
    sticky: bool,
    mode: RoundingMode,
) -> Rounded {
    if m == 0 && !sticky {
        if !fmt.has_zero() {
            return Rounded::Underflow;
        }
        return Rounded::Value {
            code: fmt.zero_code(neg),
            inexact: false,
        };
    }
    if neg && !fmt.signed {
        return Rounded::Underflow;
    }
    let man_bits = fmt.man_bits as i32;
    // Smallest exponent of a normal number (e8m0fnu: biased exponent 0 is normal).
    let emin = if fmt.subnormals {
        1 - fmt.bias
    } else {
        -fmt.bias
    };
    let top = if m == 0 {
        e - 1
    } else {
        e + (127 - m.leading_zeros() as i32)
    };
    let mut q = top.max(emin) - man_bits;
    let (mut r, rem) = if q <= e {
        let up = (e - q) as u32;
        if m != 0 && (up >= 128 || m.leading_zeros() < up + 1) {
            return Rounded::Overflow { neg };
        }
        (m << up, if sticky { Rem::Below } else { Rem::Zero })
    } else {
        shift_right(m, (q - e) as u32, sticky)
    };
    if rounds_up(mode, neg, r & 1 == 1, rem) {
        r += 1;
        if r == 1u128 << (man_bits + 1) {
            r >>= 1;
            q += 1;
        }
    }
    let inexact = rem != Rem::Zero;
    if r == 0 {
        if !fmt.has_zero() {
            return Rounded::Underflow;
        }
        return Rounded::Value {
            code: fmt.zero_code(neg),
            inexact,
        };
    }
    let hidden = 1u128 << man_bits;
    let mag = if r < hidden {
        // Subnormal (q is the smallest quantum here).
        r as u64
    } else {
        let biased = q + man_bits + fmt.bias;
        if biased < 0 || (biased == 0 && fmt.subnormals) {
            // Unreachable: q >= emin - man_bits.
            return Rounded::Underflow;
        }
        if biased as u64 > (1u64 << fmt.exp_bits) - 1 {
            return Rounded::Overflow { neg };
        }
        ((biased as u64) << man_bits) | (r - hidden) as u64
    };
    if mag > fmt.max_finite_code() {
        return Rounded::Overflow { neg };
    }
    let code = if neg { mag | fmt.sign_bit() } else { mag };
    Rounded::Value { code, inexact }
}

/// The result of rounding to an integer.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct IntRounded {
    /// Sign of the input.
    pub neg: bool,
    /// The rounded magnitude modulo 2^128.
    pub low: u128,
    /// The rounded magnitude is at least 2^127 (`low` is then only its residue).
    pub huge: bool,
    /// Rounding changed the value.
    pub inexact: bool,
}

impl IntRounded {
    /// The rounded value, when it fits an i128.
    pub fn value(&self) -> Option<i128> {
        if self.huge {
            return None;
        }
        let v = self.low as i128;
        Some(if self.neg { -v } else { v })
    }
}

/// Rounds `±(m [+ sticky]) × 2^e` to an integer under `mode`.
pub fn round_to_int(neg: bool, m: u128, e: i32, sticky: bool, mode: RoundingMode) -> IntRounded {
    if e >= 0 {
        let e = e as u32;
        let bits = 128 - m.leading_zeros();
        let huge = m != 0 && bits + e > 127;
        let low = if e >= 128 { 0 } else { m << e };
        // The sticky fraction (< 2^e) is below one unit only when e == 0.
        let rem = if sticky { Rem::Below } else { Rem::Zero };
        let mut r = IntRounded {
            neg,
            low,
            huge,
            inexact: rem != Rem::Zero,
        };
        if e == 0 && rounds_up(mode, neg, low & 1 == 1, rem) {
            r.low = r.low.wrapping_add(1);
            r.huge |= r.low >= 1u128 << 127;
        }
        return r;
    }
    let (kept, rem) = shift_right(m, (-e) as u32, sticky);
    let low = if rounds_up(mode, neg, kept & 1 == 1, rem) {
        kept + 1
    } else {
        kept
    };
    IntRounded {
        neg,
        low,
        huge: low >= 1u128 << 127,
        inexact: rem != Rem::Zero,
    }
}

#[cfg(test)]
mod tests {
    use super::super::format::*;
    use super::*;
    use RoundingMode::*;

    fn rf(fmt: &FloatFormat, x: f64, mode: RoundingMode) -> Rounded {
        let (n, m, e) = decompose_f64(x);
        round_to_float(fmt, n, m, e, false, mode)
    }
    fn code(r: Rounded) -> u64 {
        match r {
            Rounded::Value { code, .. } => code,
            other => panic!("{other:?}"),
        }
    }
    fn ri(x: f64, mode: RoundingMode) -> i128 {
        let (n, m, e) = decompose_f64(x);
        round_to_int(n, m, e, false, mode).value().unwrap()
    }

    /// Every code of every format of 16 bits or fewer round-trips through its f64 value, under
    /// every mode, exactly.
    #[test]
    fn every_code_roundtrips_every_mode() {
        for f in FORMATS.iter().filter(|f| f.bits <= 16) {
            for c in 0..(1u64 << f.bits) {
                let v = f.decode(c);
                if v.is_nan() || v.is_infinite() {
                    continue;
                }
                for mode in RoundingMode::ALL {
                    let got = rf(f, v, mode);
                    // -0 maps back to itself; fnuz has no -0 so no code decodes to -0 there.
                    assert_eq!(
                        got,
                        Rounded::Value {
                            code: c,
                            inexact: false
                        },
                        "{} {c:#x} {mode:?}",
                        f.name
                    );
                }
            }
        }
    }

    /// Between every pair of adjacent finite values of every ≤16-bit format: the midpoint and
    /// points just below and above it round as each mode says.
    #[test]
    fn midpoints_every_mode() {
        for f in FORMATS.iter().filter(|f| f.bits <= 16) {
            // (value, code) of every finite code except -0 (its value equals +0's).
            let mut vals: Vec<(f64, u64)> = (0..(1u64 << f.bits))
                .map(|c| (f.decode(c), c))
                .filter(|(v, _)| v.is_finite() && !(*v == 0.0 && v.is_sign_negative()))
                .collect();
            vals.sort_by(|a, b| a.0.partial_cmp(&b.0).unwrap());
            for w in vals.windows(2) {
                let ((lo, lo_code), (hi, hi_code)) = (w[0], w[1]);
                let mid = (lo + hi) / 2.0; // exact: both are narrow
                let val = |x: f64, mode| f.decode(code(rf(f, x, mode)));
                // e8m0: the kept significand bit is always 1 (odd), so ties go up.
                let lo_even = f.man_bits > 0 && lo_code & 1 == 0;
                let hi_even = f.man_bits > 0 && hi_code & 1 == 0;
                assert!(lo_even != hi_even || f.man_bits == 0, "{}", f.name);
                let up = mid > 0.0; // which neighbour is farther from zero
                let (near0, far0) = if up { (lo, hi) } else { (hi, lo) };
                assert_eq!(
                    val(mid, NearestEven),
                    if lo_even { lo } else { hi },
                    "{} ne {mid}",
                    f.name
                );
                assert_eq!(val(mid, NearestAway), far0, "{} na {mid}", f.name);
                assert_eq!(val(mid, TowardsPositive), hi, "{} tp {mid}", f.name);
                assert_eq!(val(mid, TowardsNegative), lo, "{} tn {mid}", f.name);
                assert_eq!(val(mid, TowardsZero), near0, "{} tz {mid}", f.name);
                // One f64 ulp off the midpoint, the nearest modes follow the side.
                let (a, b) = (
                    f64::from_bits(mid.abs().to_bits() - 1),
                    f64::from_bits(mid.abs().to_bits() + 1),
                );
                let (below, above) = if up { (a, b) } else { (-b, -a) };
                for mode in [NearestEven, NearestAway] {
                    assert_eq!(val(below, mode), lo, "{} below {mid}", f.name);
                    assert_eq!(val(above, mode), hi, "{} above {mid}", f.name);
                }
            }
        }
    }

    #[test]
    fn overflow_edges() {
        // float16: 65504 max, 65520 is the tie with 2^16.
        assert_eq!(
            rf(&F16, 65519.99, NearestEven),
            Rounded::Value {
                code: 0x7bff,
                inexact: true
            }
        );
        assert_eq!(
            rf(&F16, 65520.0, NearestEven),
            Rounded::Overflow { neg: false }
        );
        assert_eq!(
            rf(&F16, -65520.0, NearestAway),
            Rounded::Overflow { neg: true }
        );
        assert_eq!(
            rf(&F16, 65535.0, TowardsZero),
            Rounded::Value {
                code: 0x7bff,
                inexact: true
            }
        );
        assert_eq!(
            rf(&F16, 65536.0, TowardsZero),
            Rounded::Overflow { neg: false }
        );
        assert_eq!(
            rf(&F16, 65504.5, TowardsPositive),
            Rounded::Overflow { neg: false }
        );
        assert_eq!(
            rf(&F16, -65504.5, TowardsPositive),
            Rounded::Value {
                code: 0xfbff,
                inexact: true
            }
        );
        // float32: the f64 tie 3.4028235677973366e38 overflows under nearest-even.
        assert_eq!(
            rf(&F32, 3.4028235677973366e38, NearestEven),
            Rounded::Overflow { neg: false }
        );
        assert_eq!(
            rf(&F32, 1e39, NearestEven),
            Rounded::Overflow { neg: false }
        );
        // fnuz and fn formats.
        assert_eq!(
            rf(&F4_E2M1FN, 7.0, NearestEven),
            Rounded::Overflow { neg: false }
        );
        assert_eq!(
            rf(&F4_E2M1FN, 6.99, NearestEven),
            Rounded::Value {
                code: 0x7,
                inexact: true
            }
        );
        assert_eq!(
            rf(&F8_E4M3FNUZ, 248.0, NearestEven),
            Rounded::Overflow { neg: false }
        );
        assert_eq!(
            rf(&F8_E4M3FNUZ, 247.9, NearestEven),
            Rounded::Value {
                code: 0x7f,
                inexact: true
            }
        );
        // e8m0fnu: no zero, no sign.
        assert_eq!(rf(&F8_E8M0FNU, 0.0, NearestEven), Rounded::Underflow);
        assert_eq!(rf(&F8_E8M0FNU, -1.0, NearestEven), Rounded::Underflow);
        assert_eq!(
            rf(&F8_E8M0FNU, 3.0, NearestEven),
            Rounded::Value {
                code: 0x81,
                inexact: true
            }
        );
        assert_eq!(
            rf(&F8_E8M0FNU, 2f64.powi(128), NearestEven),
            Rounded::Overflow { neg: false }
        );
        // Below 2^-127 the quantum stays 2^-127 (as for subnormals); the candidate "0" is even.
        assert_eq!(
            rf(&F8_E8M0FNU, 2f64.powi(-128), NearestEven),
            Rounded::Underflow
        );
        assert_eq!(
            rf(&F8_E8M0FNU, 1.5 * 2f64.powi(-128), NearestEven),
            Rounded::Value {
                code: 0,
                inexact: true
            }
        );
        assert_eq!(
            rf(&F8_E8M0FNU, 2f64.powi(-140), TowardsPositive),
            Rounded::Value {
                code: 0,
                inexact: true
            }
        );
        assert_eq!(
            rf(&F8_E8M0FNU, 2f64.powi(-129), NearestEven),
            Rounded::Underflow
        );
    }

    #[test]
    fn subnormals_and_signed_zero() {
        // float16 min subnormal 2^-24: half of it ties to 0 (even), a hair more rounds up.
        let h = 2f64.powi(-25);
        assert_eq!(
            rf(&F16, h, NearestEven),
            Rounded::Value {
                code: 0,
                inexact: true
            }
        );
        assert_eq!(
            rf(&F16, h * 1.5, NearestEven),
            Rounded::Value {
                code: 1,
                inexact: true
            }
        );
        assert_eq!(
            rf(&F16, -h, NearestEven),
            Rounded::Value {
                code: 0x8000,
                inexact: true
            }
        );
        assert_eq!(
            rf(&F16, -h, NearestAway),
            Rounded::Value {
                code: 0x8001,
                inexact: true
            }
        );
        assert_eq!(
            rf(&F16, h, TowardsPositive),
            Rounded::Value {
                code: 1,
                inexact: true
            }
        );
        assert_eq!(
            rf(&F16, -0.0, NearestEven),
            Rounded::Value {
                code: 0x8000,
                inexact: false
            }
        );
        // fnuz: -0 and negative underflow become +0 (0x80 is NaN).
        assert_eq!(
            rf(&F8_E4M3FNUZ, -0.0, NearestEven),
            Rounded::Value {
                code: 0,
                inexact: false
            }
        );
        assert_eq!(
            rf(&F8_E4M3FNUZ, -1e-10, NearestEven),
            Rounded::Value {
                code: 0,
                inexact: true
            }
        );
    }

    #[test]
    fn f64_to_f32_matches_native() {
        let mut x: u64 = 0x1234_5678_9abc_def1;
        for _ in 0..200_000 {
            x ^= x << 13;
            x ^= x >> 7;
            x ^= x << 17;
            let v = f64::from_bits(x);
            if !v.is_finite() {
                continue;
            }
            let native = v as f32;
            let got = rf(&F32, v, NearestEven);
            if native.is_infinite() {
                assert_eq!(got, Rounded::Overflow { neg: v < 0.0 });
            } else {
                assert_eq!(code(got), native.to_bits() as u64, "{v:e}");
            }
        }
    }

    #[test]
    fn int_rounding_modes() {
        let xs = [0.5, 1.5, 2.5, -2.5, -0.5, 2.7, -2.7, 2.1, -2.1];
        let ne: Vec<i128> = xs.iter().map(|&x| ri(x, NearestEven)).collect();
        assert_eq!(ne, [0, 2, 2, -2, 0, 3, -3, 2, -2]);
        let na: Vec<i128> = xs.iter().map(|&x| ri(x, NearestAway)).collect();
        assert_eq!(na, [1, 2, 3, -3, -1, 3, -3, 2, -2]);
        let tz: Vec<i128> = xs.iter().map(|&x| ri(x, TowardsZero)).collect();
        assert_eq!(tz, [0, 1, 2, -2, 0, 2, -2, 2, -2]);
        let tp: Vec<i128> = xs.iter().map(|&x| ri(x, TowardsPositive)).collect();
        assert_eq!(tp, [1, 2, 3, -2, 0, 3, -2, 3, -2]);
        let tn: Vec<i128> = xs.iter().map(|&x| ri(x, TowardsNegative)).collect();
        assert_eq!(tn, [0, 1, 2, -3, -1, 2, -3, 2, -3]);
        // The classic half-away bug value.
        assert_eq!(ri(0.49999999999999994, NearestAway), 0);
        assert_eq!(ri(4503599627370497.0, NearestAway), 4503599627370497);
        assert_eq!(ri(2f64.powi(63), NearestEven), 1i128 << 63);
        let (n, m, e) = decompose_f64(1e300);
        let r = round_to_int(n, m, e, false, NearestEven);
        assert!(r.huge && r.value().is_none());
    }

    #[test]
    fn int_to_float_exact() {
        // 2^53 + 1 into f64 under each mode.
        let m = (1u128 << 53) + 1;
        let f = |mode| code(round_to_float(&F64, false, m, 0, false, mode));
        assert_eq!(f(TowardsPositive), (2f64.powi(53) + 2.0).to_bits());
        assert_eq!(f(TowardsNegative), 2f64.powi(53).to_bits());
        assert_eq!(f(NearestEven), 2f64.powi(53).to_bits());
        assert_eq!(f(NearestAway), (2f64.powi(53) + 2.0).to_bits());
        // u64::MAX into f32 towards zero / nearest.
        let m = u64::MAX as u128;
        let g = |mode| code(round_to_float(&F32, false, m, 0, false, mode));
        assert_eq!(
            g(TowardsZero),
            (f32::from_bits(0x5f7f_ffff)).to_bits() as u64
        );
        assert_eq!(g(NearestEven), 2f32.powi(64).to_bits() as u64);
        // 65519 -> float16 towards-positive overflows, 65535 towards-zero is 65504.
        assert_eq!(
            round_to_float(&F16, false, 65519, 0, false, TowardsPositive),
            Rounded::Overflow { neg: false }
        );
        assert_eq!(
            code(round_to_float(&F16, false, 65535, 0, false, TowardsZero)),
            0x7bff
        );
    }

    #[test]
    fn sticky_breaks_ties() {
        // 2.5 + tiny rounds up under nearest-even; 2.0 + tiny rounds up towards +inf only.
        assert_eq!(round_to_int(false, 5, -1, true, NearestEven).low, 3);
        assert_eq!(round_to_int(false, 2, 0, true, TowardsPositive).low, 3);
        assert_eq!(round_to_int(false, 2, 0, true, NearestEven).low, 2);
        assert_eq!(round_to_int(true, 2, 0, true, TowardsNegative).low, 3);
    }
}
