//! Binary floating-point formats described as data.

/// Where a format keeps its NaN(s).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum NanKind {
    /// No NaN at all (`fn` types: float4_e2m1fn, float6_*).
    None,
    /// IEEE 754: every code with an all-ones exponent and a non-zero mantissa.
    Ieee,
    /// A single NaN at the code of negative zero, `0b1000…0` (`fnuz` types).
    NegZero,
    /// A single NaN at the all-ones code (float8_e8m0fnu: 0xFF).
    AllOnes,
}

/// A binary floating-point format: sign bit (optional), `exp_bits` exponent bits with `bias`,
/// `man_bits` fraction bits, and which special values exist.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub struct FloatFormat {
    /// Data type name.
    pub name: &'static str,
    /// Total width in bits.
    pub bits: u32,
    /// Exponent field width.
    pub exp_bits: u32,
    /// Fraction field width.
    pub man_bits: u32,
    /// Exponent bias.
    pub bias: i32,
    /// Whether there is a sign bit.
    pub signed: bool,
    /// IEEE infinities (all-ones exponent, zero fraction).
    pub inf: bool,
    /// Where the NaN codes are.
    pub nan: NanKind,
    /// Subnormals (and zero) at biased exponent 0. False only for float8_e8m0fnu, which has
    /// neither subnormals nor zero.
    pub subnormals: bool,
    /// The code denoted by the JSON fill value `"NaN"` (0 when the format has no NaN).
    pub canonical_nan: u64,
}

const fn fmt(
    name: &'static str,
    exp_bits: u32,
    man_bits: u32,
    bias: i32,
    inf: bool,
    nan: NanKind,
    canonical_nan: u64,
) -> FloatFormat {
    FloatFormat {
        name,
        bits: 1 + exp_bits + man_bits,
        exp_bits,
        man_bits,
        bias,
        signed: true,
        inf,
        nan,
        subnormals: true,
        canonical_nan,
    }
}

/// float4_e2m1fn
pub const F4_E2M1FN: FloatFormat = fmt("float4_e2m1fn", 2, 1, 1, false, NanKind::None, 0);
/// float6_e2m3fn
pub const F6_E2M3FN: FloatFormat = fmt("float6_e2m3fn", 2, 3, 1, false, NanKind::None, 0);
/// float6_e3m2fn
pub const F6_E3M2FN: FloatFormat = fmt("float6_e3m2fn", 3, 2, 3, false, NanKind::None, 0);
/// float8_e3m4
pub const F8_E3M4: FloatFormat = fmt("float8_e3m4", 3, 4, 3, true, NanKind::Ieee, 0x78);
/// float8_e4m3
pub const F8_E4M3: FloatFormat = fmt("float8_e4m3", 4, 3, 7, true, NanKind::Ieee, 0x7c);
/// float8_e4m3b11fnuz
pub const F8_E4M3B11FNUZ: FloatFormat = fmt(
    "float8_e4m3b11fnuz",
    4,
    3,
    11,
    false,
    NanKind::NegZero,
    0x80,
);
/// float8_e4m3fnuz
pub const F8_E4M3FNUZ: FloatFormat = fmt("float8_e4m3fnuz", 4, 3, 8, false, NanKind::NegZero, 0x80);
/// float8_e5m2
pub const F8_E5M2: FloatFormat = fmt("float8_e5m2", 5, 2, 15, true, NanKind::Ieee, 0x7e);
/// float8_e5m2fnuz
pub const F8_E5M2FNUZ: FloatFormat =
    fmt("float8_e5m2fnuz", 5, 2, 16, false, NanKind::NegZero, 0x80);
/// float8_e8m0fnu: unsigned, no zero, no subnormals, NaN at 0xFF.
pub const F8_E8M0FNU: FloatFormat = FloatFormat {
    name: "float8_e8m0fnu",
    bits: 8,
    exp_bits: 8,
    man_bits: 0,
    bias: 127,
    signed: false,
    inf: false,
    nan: NanKind::AllOnes,
    subnormals: false,
    canonical_nan: 0xff,
};
/// bfloat16
pub const BF16: FloatFormat = fmt("bfloat16", 8, 7, 127, true, NanKind::Ieee, 0x7fc0);
/// float16 (IEEE binary16)
pub const F16: FloatFormat = fmt("float16", 5, 10, 15, true, NanKind::Ieee, 0x7e00);
/// float32 (IEEE binary32)
pub const F32: FloatFormat = fmt("float32", 8, 23, 127, true, NanKind::Ieee, 0x7fc0_0000);
/// float64 (IEEE binary64)
pub const F64: FloatFormat = fmt(
    "float64",
    11,
    52,
    1023,
    true,
    NanKind::Ieee,
    0x7ff8_0000_0000_0000,
);

/// Every float format, narrowest first.
pub const FORMATS: [FloatFormat; 14] = [
    F4_E2M1FN,
    F6_E2M3FN,
    F6_E3M2FN,
    F8_E3M4,
    F8_E4M3,
    F8_E4M3B11FNUZ,
    F8_E4M3FNUZ,
    F8_E5M2,
    F8_E5M2FNUZ,
    F8_E8M0FNU,
    BF16,
    F16,
    F32,
    F64,
];

/// 2^k as an f64, exact for -1074 <= k <= 1023.
pub(crate) fn pow2(k: i32) -> f64 {
    if k >= -1022 {
        f64::from_bits(((k + 1023) as u64) << 52)
    } else {
        f64::from_bits(1u64 << (k + 1074))
    }
}

impl FloatFormat {
    /// Mask of all `bits` bits.
    pub const fn mask(&self) -> u64 {
        if self.bits == 64 {
            u64::MAX
        } else {
            (1u64 << self.bits) - 1
        }
    }
    /// The sign bit (0 for unsigned formats).
    pub const fn sign_bit(&self) -> u64 {
        if self.signed {
            1u64 << (self.bits - 1)
        } else {
            0
        }
    }
    const fn exp_all_ones(&self) -> u64 {
        (1u64 << self.exp_bits) - 1
    }
    const fn man_mask(&self) -> u64 {
        (1u64 << self.man_bits) - 1
    }
    /// Whether the format has ±infinity.
    pub const fn has_inf(&self) -> bool {
        self.inf
    }
    /// Whether the format has a NaN.
    pub const fn has_nan(&self) -> bool {
        !matches!(self.nan, NanKind::None)
    }
    /// Whether the format has a zero (all but float8_e8m0fnu).
    pub const fn has_zero(&self) -> bool {
        self.subnormals
    }
    /// Whether the format has a negative zero distinct from +0.
    pub const fn has_neg_zero(&self) -> bool {
        self.signed && self.subnormals && !matches!(self.nan, NanKind::NegZero)
    }
    /// Code of the largest finite value (positive).
    pub const fn max_finite_code(&self) -> u64 {
        let top = (self.exp_all_ones() << self.man_bits) | self.man_mask();
        match self.nan {
            NanKind::AllOnes => top - 1,
            _ if self.inf || matches!(self.nan, NanKind::Ieee) => {
                ((self.exp_all_ones() - 1) << self.man_bits) | self.man_mask()
            }
            _ => top,
        }
    }
    /// Code of the smallest positive value (the smallest subnormal, or 2^-127 for e8m0fnu).
    pub const fn min_positive_code(&self) -> u64 {
        if self.subnormals {
            1
        } else {
            0
        }
    }
    /// Code of +infinity (only meaningful when `has_inf`).
    pub const fn inf_code(&self) -> u64 {
        self.exp_all_ones() << self.man_bits
    }
    /// Whether `code` is a NaN.
    pub const fn is_nan(&self, code: u64) -> bool {
        let code = code & self.mask();
        match self.nan {
            NanKind::None => false,
            NanKind::Ieee => {
                (code >> self.man_bits) & self.exp_all_ones() == self.exp_all_ones()
                    && code & self.man_mask() != 0
            }
            NanKind::NegZero => code == self.sign_bit(),
            NanKind::AllOnes => code == self.mask(),
        }
    }
    /// Whether `code` is ±infinity.
    pub const fn is_inf(&self, code: u64) -> bool {
        self.inf && (code & self.mask() & !self.sign_bit()) == self.inf_code()
    }
    /// Whether `code` has its sign bit set.
    pub const fn is_negative(&self, code: u64) -> bool {
        code & self.sign_bit() != 0
    }
    /// The value of `code` (only the low `bits` bits count). Exact: every value of every format
    /// is an f64. NaN codes give a NaN of the same sign.
    pub fn decode(&self, code: u64) -> f64 {
        let code = code & self.mask();
        if self.bits == 64 {
            return f64::from_bits(code);
        }
        if self.bits == 32 {
            return f32::from_bits(code as u32) as f64;
        }
        let neg = self.is_negative(code);
        if self.is_nan(code) {
            return if neg { -f64::NAN } else { f64::NAN };
        }
        if self.is_inf(code) {
            return if neg {
                f64::NEG_INFINITY
            } else {
                f64::INFINITY
            };
        }
        let e = ((code >> self.man_bits) & self.exp_all_ones()) as i32;
        let m = code & self.man_mask();
        let man_bits = self.man_bits as i32;
        let mag = if e == 0 && self.subnormals {
            m as f64 * pow2(1 - self.bias - man_bits)
        } else {
            ((1u64 << self.man_bits) | m) as f64 * pow2(e - self.bias - man_bits)
        };
        if neg {
            -mag
        } else {
            mag
        }
    }
    /// The largest finite value.
    pub fn max_finite(&self) -> f64 {
        self.decode(self.max_finite_code())
    }
    /// The code for a NaN with the given sign (the canonical NaN, with the sign bit set where the
    /// format's NaN allows it).
    pub fn nan_code(&self, neg: bool) -> u64 {
        match self.nan {
            NanKind::Ieee if neg => self.canonical_nan | self.sign_bit(),
            _ => self.canonical_nan,
        }
    }
    /// The code of a zero with the given sign (+0 where there is no -0). Meaningless for
    /// formats without zero.
    pub fn zero_code(&self, neg: bool) -> u64 {
        if neg && self.has_neg_zero() {
            self.sign_bit()
        } else {
            0
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// spec.md §4.1 derived table: (format, max finite, min normal, min subnormal, inf codes,
    /// number of NaN codes, -0 code).
    #[test]
    fn spec_table() {
        struct Row(
            FloatFormat,
            f64,
            f64,
            f64,
            Option<(u64, u64)>,
            usize,
            Option<u64>,
        );
        let p = |k: i32| pow2(k);
        let rows = [
            Row(F4_E2M1FN, 6.0, 1.0, 0.5, None, 0, Some(0x8)),
            Row(F6_E2M3FN, 7.5, 1.0, 0.125, None, 0, Some(0x20)),
            Row(F6_E3M2FN, 28.0, 0.25, 0.0625, None, 0, Some(0x20)),
            Row(
                F8_E3M4,
                15.5,
                0.25,
                p(-6),
                Some((0x70, 0xf0)),
                30,
                Some(0x80),
            ),
            Row(
                F8_E4M3,
                240.0,
                p(-6),
                p(-9),
                Some((0x78, 0xf8)),
                14,
                Some(0x80),
            ),
            Row(F8_E4M3B11FNUZ, 30.0, p(-10), p(-13), None, 1, None),
            Row(F8_E4M3FNUZ, 240.0, p(-7), p(-10), None, 1, None),
            Row(
                F8_E5M2,
                57344.0,
                p(-14),
                p(-16),
                Some((0x7c, 0xfc)),
                6,
                Some(0x80),
            ),
            Row(F8_E5M2FNUZ, 57344.0, p(-15), p(-17), None, 1, None),
            Row(
                BF16,
                3.3895313892515355e38,
                p(-126),
                p(-133),
                Some((0x7f80, 0xff80)),
                254,
                Some(0x8000),
            ),
            Row(
                F16,
                65504.0,
                p(-14),
                p(-24),
                Some((0x7c00, 0xfc00)),
                2046,
                Some(0x8000),
            ),
        ];
        for Row(f, max, min_normal, min_sub, inf, nans, negzero) in rows {
            let n = 1u64 << f.bits;
            assert_eq!(f.max_finite(), max, "{}", f.name);
            let positives: Vec<f64> = (0..n)
                .map(|c| f.decode(c))
                .filter(|v| v.is_finite() && *v > 0.0)
                .collect();
            let min = positives.iter().cloned().fold(f64::INFINITY, f64::min);
            let maxv = positives.iter().cloned().fold(0.0, f64::max);
            assert_eq!(min, min_sub, "{} min subnormal", f.name);
            assert_eq!(maxv, max, "{} max", f.name);
            assert_eq!(
                f.decode(1u64 << f.man_bits),
                min_normal,
                "{} min normal",
                f.name
            );
            let nan_count = (0..n).filter(|&c| f.decode(c).is_nan()).count();
            assert_eq!(nan_count, nans, "{} NaN codes", f.name);
            assert_eq!(f.decode(f.canonical_nan).is_nan(), nans > 0, "{}", f.name);
            match inf {
                Some((pi, ni)) => {
                    assert_eq!(f.decode(pi), f64::INFINITY);
                    assert_eq!(f.decode(ni), f64::NEG_INFINITY);
                    assert_eq!((0..n).filter(|&c| f.decode(c).is_infinite()).count(), 2);
                }
                None => assert!((0..n).all(|c| !f.decode(c).is_infinite()), "{}", f.name),
            }
            match negzero {
                Some(c) => {
                    let v = f.decode(c);
                    assert!(v == 0.0 && v.is_sign_negative(), "{} -0", f.name);
                    assert!(f.has_neg_zero());
                }
                None => {
                    assert!(!f.has_neg_zero());
                    assert!((0..n).all(|c| !(f.decode(c) == 0.0 && f.decode(c).is_sign_negative())));
                }
            }
        }
    }

    #[test]
    fn e8m0fnu_every_code() {
        let f = F8_E8M0FNU;
        for c in 0..255u64 {
            assert_eq!(f.decode(c), pow2(c as i32 - 127));
        }
        assert!(f.decode(0xff).is_nan());
        assert_eq!(f.max_finite(), pow2(127));
        assert!(!f.has_zero());
    }

    #[test]
    fn ieee_natives_agree() {
        for bits in [
            0u64,
            1,
            0x3f80_0000,
            0x7f7f_ffff,
            0x8000_0001,
            0x7f80_0000,
            0xff80_0000,
        ] {
            let v = F32.decode(bits);
            assert_eq!(v, f32::from_bits(bits as u32) as f64);
        }
        assert_eq!(F32.max_finite(), f32::MAX as f64);
        assert_eq!(F64.max_finite(), f64::MAX);
        // float16 against the `half`-free reference: every code decodes like f32 widening would.
        for c in 0..=0xffffu64 {
            let v = F16.decode(c);
            let bf = BF16.decode(c);
            let as_f32 = f32::from_bits((c as u32) << 16) as f64;
            assert!(bf == as_f32 || (bf.is_nan() && as_f32.is_nan()));
            if !v.is_nan() {
                assert_eq!(v.is_sign_negative(), c & 0x8000 != 0);
            }
        }
    }
}
