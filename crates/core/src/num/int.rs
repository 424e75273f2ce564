//! Integer ranges (int2 ... uint64) and modular wrapping.

/// A two's complement or unsigned integer type of `bits` bits (2, 4, 8, 16, 32 or 64).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub struct IntFormat {
    /// Width in bits (the `N` of "modulo 2^N").
    pub bits: u32,
    /// Two's complement (true) or unsigned (false).
    pub signed: bool,
}

impl IntFormat {
    /// Smallest value.
    pub const fn min(self) -> i128 {
        if self.signed {
            -(1i128 << (self.bits - 1))
        } else {
            0
        }
    }
    /// Largest value.
    pub const fn max(self) -> i128 {
        if self.signed {
            (1i128 << (self.bits - 1)) - 1
        } else {
            (1i128 << self.bits) - 1
        }
    }
    /// Whether `v` is in range.
    pub const fn contains(self, v: i128) -> bool {
        v >= self.min() && v <= self.max()
    }
    /// `Some(v)` when in range.
    pub fn check(self, v: i128) -> Option<i128> {
        if self.contains(v) {
            Some(v)
        } else {
            None
        }
    }
    /// The value congruent to `±low` modulo 2^bits, where `low` is the magnitude modulo 2^128.
    pub fn wrap_magnitude(self, neg: bool, low: u128) -> i128 {
        let mask: u128 = (1u128 << self.bits) - 1;
        let u = if neg { low.wrapping_neg() } else { low } & mask;
        // u < 2^64 so the cast is lossless.
        let u = u as i128;
        if self.signed && u >= (1i128 << (self.bits - 1)) {
            u - (1i128 << self.bits)
        } else {
            u
        }
    }
    /// `v` wrapped into range modulo 2^bits.
    pub fn wrap(self, v: i128) -> i128 {
        self.wrap_magnitude(v < 0, v.unsigned_abs())
    }
    /// `v` clamped into range.
    pub fn clamp(self, v: i128) -> i128 {
        v.clamp(self.min(), self.max())
    }
    /// The raw bits of an in-range value: sign-extended two's complement in 64 bits for signed
    /// types, zero-extended for unsigned ones.
    pub fn to_bits(self, v: i128) -> u64 {
        v as i64 as u64
            & if self.signed {
                u64::MAX
            } else {
                u64::MAX >> (64 - self.bits)
            }
    }
    /// The value of raw bits (only the low `bits` bits count; signed types sign-extend them).
    pub fn from_bits(self, b: u64) -> i128 {
        let sh = 64 - self.bits;
        if self.signed {
            (((b << sh) as i64) >> sh) as i128
        } else {
            ((b << sh) >> sh) as i128
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn ranges() {
        let i2 = IntFormat {
            bits: 2,
            signed: true,
        };
        assert_eq!((i2.min(), i2.max()), (-2, 1));
        let u4 = IntFormat {
            bits: 4,
            signed: false,
        };
        assert_eq!((u4.min(), u4.max()), (0, 15));
        let u64f = IntFormat {
            bits: 64,
            signed: false,
        };
        assert_eq!(u64f.max(), u64::MAX as i128);
        let i64f = IntFormat {
            bits: 64,
            signed: true,
        };
        assert_eq!(i64f.min(), i64::MIN as i128);
    }

    #[test]
    fn wrap_spec_examples() {
        let i8f = IntFormat {
            bits: 8,
            signed: true,
        };
        assert_eq!(i8f.wrap(128), -128);
        assert_eq!(i8f.wrap(200), -56);
        assert_eq!(i8f.wrap(-200), 56);
        let i16f = IntFormat {
            bits: 16,
            signed: true,
        };
        assert_eq!(i16f.wrap(32768), -32768);
        assert_eq!(i16f.wrap(32769), -32767);
        assert_eq!(i16f.wrap(-32769), 32767);
        let u8f = IntFormat {
            bits: 8,
            signed: false,
        };
        assert_eq!(u8f.wrap(300), 44);
        assert_eq!(u8f.wrap(-1), 255);
        let i4 = IntFormat {
            bits: 4,
            signed: true,
        };
        assert_eq!(i4.wrap(8), -8);
        assert_eq!(i4.wrap(-9), 7);
        let u2 = IntFormat {
            bits: 2,
            signed: false,
        };
        assert_eq!(u2.wrap(5), 1);
        assert_eq!(u2.wrap(-1), 3);
        let i32f = IntFormat {
            bits: 32,
            signed: true,
        };
        assert_eq!(i32f.wrap((1i128 << 53) + 1), 1);
    }

    #[test]
    fn bits_roundtrip_every_small_value() {
        for (bits, signed) in [
            (2, true),
            (2, false),
            (4, true),
            (4, false),
            (8, true),
            (8, false),
        ] {
            let f = IntFormat { bits, signed };
            for v in f.min()..=f.max() {
                assert_eq!(f.from_bits(f.to_bits(v)), v);
            }
        }
        let f = IntFormat {
            bits: 64,
            signed: true,
        };
        for v in [i64::MIN as i128, -1, 0, i64::MAX as i128] {
            assert_eq!(f.from_bits(f.to_bits(v)), v);
        }
    }
}
