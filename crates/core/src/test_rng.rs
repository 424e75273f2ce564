//! Not part of the API: the one random generator of this workspace's tests (unit tests of both
//! crates, the integration tests, the fuzz harness checks). xorshift64 (Marsaglia), seeded per
//! test so that every run draws the same values.

/// xorshift64. `Rng(seed)` takes a seed that must not be 0 and is already well mixed (a large
/// odd constant); [`Rng::new`] takes any seed (1, 2, 3, ...) and mixes it first.
#[derive(Debug, Clone)]
pub struct Rng(pub u64);

impl Rng {
    /// A generator from any seed: the seed goes through splitmix64's finaliser (never 0 after
    /// it, since the finaliser is a bijection and 0 maps to 0 only from the seed's own 0, which
    /// is replaced).
    pub fn new(seed: u64) -> Rng {
        let mut z = seed.wrapping_add(0x9e37_79b9_7f4a_7c15);
        z = (z ^ (z >> 30)).wrapping_mul(0xbf58_476d_1ce4_e5b9);
        z = (z ^ (z >> 27)).wrapping_mul(0x94d0_49bb_1331_11eb);
        z ^= z >> 31;
        Rng(if z == 0 { 0x9e37_79b9_7f4a_7c15 } else { z })
    }
    /// The next 64 random bits.
    #[allow(clippy::should_implement_trait)]
    pub fn next(&mut self) -> u64 {
        self.0 ^= self.0 << 13;
        self.0 ^= self.0 >> 7;
        self.0 ^= self.0 << 17;
        self.0
    }
    /// A value in `0..n` (`n > 0`; 0 for `n == 0`).
    pub fn below(&mut self, n: u64) -> u64 {
        self.next().checked_rem(n).unwrap_or(0)
    }
    /// A value in `lo..=hi` (`lo <= hi`).
    pub fn range(&mut self, lo: i64, hi: i64) -> i64 {
        let span = hi.abs_diff(lo).wrapping_add(1);
        lo.wrapping_add_unsigned(self.below(span))
    }
    /// A random element of `v`, which must not be empty (test code only: no library code calls
    /// this).
    #[allow(clippy::indexing_slicing)]
    pub fn pick<'a, T>(&mut self, v: &'a [T]) -> &'a T {
        // PROOF: `below(len) < len` for a non-empty `v` (the documented precondition); the
        // index is at most `len`, which fits in usize.
        &v[self.below(v.len() as u64) as usize]
    }
    /// A float in `lo..hi` (53 random bits).
    pub fn f64_in(&mut self, lo: f64, hi: f64) -> f64 {
        lo + (hi - lo) * ((self.next() >> 11) as f64 / (1u64 << 53) as f64)
    }
}

#[cfg(test)]
mod tests {
    use super::Rng;

    /// The generator is xorshift64 with shifts 13, 7, 17: its first outputs from seed 1, computed
    /// by hand from the three shifts.
    #[test]
    fn xorshift64_from_seed_1() {
        let mut r = Rng(1);
        // 1 ^ 1<<13 = 0x2001; ^ >>7 = 0x2001 ^ 0x40 = 0x2041; ^ <<17 = 0x2041 ^ 0x4082_0000.
        assert_eq!(r.next(), 0x4082_2041);
        let seeds: Vec<u64> = (0..4).map(|s| Rng::new(s).0).collect();
        assert!(seeds.iter().all(|&s| s != 0));
        assert_eq!(*Rng::new(7).pick(&[5u8]), 5);
        let mut r = Rng::new(3);
        assert!((0..1000).all(|_| (-3..=3).contains(&r.range(-3, 3))));
    }
}
