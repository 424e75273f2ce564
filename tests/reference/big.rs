//! A tiny arbitrary-precision unsigned integer and an exact signed rational over it, for the
//! reference model. Slow and simple on purpose: schoolbook multiplication, shift-and-subtract
//! division, no cleverness to get wrong. Only what the model needs.

use std::cmp::Ordering;

/// An unsigned integer, little-endian 32-bit limbs, no high zero limbs (zero is empty).
#[derive(Clone, Debug, PartialEq, Eq, Default)]
pub struct Big(Vec<u32>);

impl Big {
    pub fn zero() -> Big {
        Big(Vec::new())
    }
    pub fn from_u128(mut v: u128) -> Big {
        let mut limbs = Vec::new();
        while v != 0 {
            limbs.push(v as u32);
            v >>= 32;
        }
        Big(limbs)
    }
    pub fn one() -> Big {
        Big::from_u128(1)
    }
    /// 2^k.
    pub fn pow2(k: u64) -> Big {
        Big::one().shl(k)
    }
    fn trim(mut self) -> Big {
        while self.0.last() == Some(&0) {
            self.0.pop();
        }
        self
    }
    pub fn is_zero(&self) -> bool {
        self.0.is_empty()
    }
    /// The number of significant bits (0 for zero).
    pub fn bits(&self) -> u64 {
        match self.0.last() {
            None => 0,
            Some(&top) => 32 * (self.0.len() as u64 - 1) + (32 - top.leading_zeros() as u64),
        }
    }
    pub fn bit(&self, i: u64) -> bool {
        let limb = (i / 32) as usize;
        self.0.get(limb).is_some_and(|l| (l >> (i % 32)) & 1 == 1)
    }
    pub fn is_odd(&self) -> bool {
        self.bit(0)
    }
    pub fn cmp(&self, o: &Big) -> Ordering {
        if self.0.len() != o.0.len() {
            return self.0.len().cmp(&o.0.len());
        }
        for i in (0..self.0.len()).rev() {
            match self.0[i].cmp(&o.0[i]) {
                Ordering::Equal => {}
                c => return c,
            }
        }
        Ordering::Equal
    }
    pub fn add(&self, o: &Big) -> Big {
        let n = self.0.len().max(o.0.len());
        let mut out = Vec::with_capacity(n + 1);
        let mut carry = 0u64;
        for i in 0..n {
            let s = *self.0.get(i).unwrap_or(&0) as u64 + *o.0.get(i).unwrap_or(&0) as u64 + carry;
            out.push(s as u32);
            carry = s >> 32;
        }
        out.push(carry as u32);
        Big(out).trim()
    }
    /// self - o; panics when o > self.
    pub fn sub(&self, o: &Big) -> Big {
        assert!(self.cmp(o) != Ordering::Less, "Big::sub underflow");
        let mut out = Vec::with_capacity(self.0.len());
        let mut borrow = 0i64;
        for i in 0..self.0.len() {
            let mut d = self.0[i] as i64 - *o.0.get(i).unwrap_or(&0) as i64 - borrow;
            borrow = 0;
            if d < 0 {
                d += 1 << 32;
                borrow = 1;
            }
            out.push(d as u32);
        }
        Big(out).trim()
    }
    pub fn mul(&self, o: &Big) -> Big {
        if self.is_zero() || o.is_zero() {
            return Big::zero();
        }
        let mut out = vec![0u32; self.0.len() + o.0.len()];
        for (i, &a) in self.0.iter().enumerate() {
            let mut carry = 0u64;
            for (j, &b) in o.0.iter().enumerate() {
                let t = out[i + j] as u64 + a as u64 * b as u64 + carry;
                out[i + j] = t as u32;
                carry = t >> 32;
            }
            let mut k = i + o.0.len();
            while carry != 0 {
                let t = out[k] as u64 + carry;
                out[k] = t as u32;
                carry = t >> 32;
                k += 1;
            }
        }
        Big(out).trim()
    }
    pub fn shl(&self, n: u64) -> Big {
        if self.is_zero() {
            return Big::zero();
        }
        let (limbs, bits) = ((n / 32) as usize, (n % 32) as u32);
        let mut out = vec![0u32; limbs];
        let mut carry = 0u32;
        for &l in &self.0 {
            if bits == 0 {
                out.push(l);
            } else {
                out.push((l << bits) | carry);
                carry = l >> (32 - bits);
            }
        }
        out.push(carry);
        Big(out).trim()
    }
    /// (self / d, self % d) by shift-and-subtract; panics on d = 0.
    pub fn divmod(&self, d: &Big) -> (Big, Big) {
        assert!(!d.is_zero(), "division by zero");
        if self.cmp(d) == Ordering::Less {
            return (Big::zero(), self.clone());
        }
        let shift = self.bits() - d.bits();
        let mut rem = self.clone();
        let mut q = vec![0u32; (shift / 32 + 1) as usize];
        let mut t = d.shl(shift);
        for s in (0..=shift).rev() {
            if rem.cmp(&t) != Ordering::Less {
                rem.sub_assign(&t);
                q[(s / 32) as usize] |= 1 << (s % 32);
            }
            t.shr1_assign();
        }
        (Big(q).trim(), rem)
    }
    fn sub_assign(&mut self, o: &Big) {
        let mut borrow = 0u64;
        for i in 0..self.0.len() {
            let (a, b) = (self.0[i] as u64, *o.0.get(i).unwrap_or(&0) as u64 + borrow);
            if a >= b {
                self.0[i] = (a - b) as u32;
                borrow = 0;
            } else {
                self.0[i] = (a + (1 << 32) - b) as u32;
                borrow = 1;
            }
        }
        assert_eq!(borrow, 0, "Big::sub_assign underflow");
        while self.0.last() == Some(&0) {
            self.0.pop();
        }
    }
    fn shr1_assign(&mut self) {
        let n = self.0.len();
        for i in 0..n {
            let hi = if i + 1 < n { self.0[i + 1] << 31 } else { 0 };
            self.0[i] = (self.0[i] >> 1) | hi;
        }
        while self.0.last() == Some(&0) {
            self.0.pop();
        }
    }
    /// (self / d, self % d) for a small divisor.
    pub fn divmod_small(&self, d: u32) -> (Big, u32) {
        let mut out = vec![0u32; self.0.len()];
        let mut r = 0u64;
        for i in (0..self.0.len()).rev() {
            let cur = (r << 32) | self.0[i] as u64;
            out[i] = (cur / d as u64) as u32;
            r = cur % d as u64;
        }
        (Big(out).trim(), r as u32)
    }
    /// self * k + a.
    pub fn mul_small_add(&self, k: u32, a: u32) -> Big {
        let mut out = Vec::with_capacity(self.0.len() + 1);
        let mut carry = a as u64;
        for &l in &self.0 {
            let t = l as u64 * k as u64 + carry;
            out.push(t as u32);
            carry = t >> 32;
        }
        out.push(carry as u32);
        Big(out).trim()
    }
    /// 10^k.
    pub fn pow10(k: u64) -> Big {
        (0..k).fold(Big::one(), |b, _| b.mul_small_add(10, 0))
    }
    /// Decimal digits.
    pub fn to_decimal(&self) -> String {
        if self.is_zero() {
            return "0".into();
        }
        let mut parts = Vec::new();
        let mut v = self.clone();
        while !v.is_zero() {
            let (q, r) = v.divmod_small(1_000_000_000);
            parts.push(r);
            v = q;
        }
        let mut s = parts.pop().unwrap().to_string();
        for p in parts.iter().rev() {
            s.push_str(&format!("{p:09}"));
        }
        s
    }
    /// The value modulo 2^64.
    pub fn low_u64(&self) -> u64 {
        *self.0.first().unwrap_or(&0) as u64 | (*self.0.get(1).unwrap_or(&0) as u64) << 32
    }
    /// The value, when it fits in a u128.
    pub fn to_u128(&self) -> Option<u128> {
        if self.bits() > 128 {
            return None;
        }
        Some(
            self.0
                .iter()
                .rev()
                .fold(0u128, |acc, &l| (acc << 32) | l as u128),
        )
    }
}

/// An exact signed rational ±num/den (den > 0; zero carries no sign here: the model keeps the
/// sign of IEEE zeros separately).
#[derive(Clone, Debug)]
pub struct Q {
    pub neg: bool,
    pub num: Big,
    pub den: Big,
}

impl Q {
    pub fn zero() -> Q {
        Q {
            neg: false,
            num: Big::zero(),
            den: Big::one(),
        }
    }
    pub fn int(v: i128) -> Q {
        Q {
            neg: v < 0,
            num: Big::from_u128(v.unsigned_abs()),
            den: Big::one(),
        }
    }
    /// ±m × 2^e.
    pub fn dyadic(neg: bool, m: Big, e: i64) -> Q {
        if e >= 0 {
            Q {
                neg,
                num: m.shl(e as u64),
                den: Big::one(),
            }
        } else {
            Q {
                neg,
                num: m,
                den: Big::pow2((-e) as u64),
            }
        }
    }
    pub fn is_zero(&self) -> bool {
        self.num.is_zero()
    }
    fn norm(mut self) -> Q {
        if self.num.is_zero() {
            self.neg = false;
        }
        self
    }
    pub fn neg(&self) -> Q {
        Q {
            neg: !self.neg,
            ..self.clone()
        }
        .norm()
    }
    pub fn abs(&self) -> Q {
        Q {
            neg: false,
            ..self.clone()
        }
    }
    pub fn cmp_abs(&self, o: &Q) -> Ordering {
        self.num.mul(&o.den).cmp(&o.num.mul(&self.den))
    }
    pub fn cmp(&self, o: &Q) -> Ordering {
        match (self.is_zero() || !self.neg, o.is_zero() || !o.neg) {
            (true, false) => Ordering::Greater,
            (false, true) => Ordering::Less,
            (true, true) => self.cmp_abs(o),
            (false, false) => o.cmp_abs(self),
        }
    }
    pub fn add(&self, o: &Q) -> Q {
        let a = self.num.mul(&o.den);
        let b = o.num.mul(&self.den);
        let den = self.den.mul(&o.den);
        let (neg, num) = if self.neg == o.neg {
            (self.neg, a.add(&b))
        } else if a.cmp(&b) != Ordering::Less {
            (self.neg, a.sub(&b))
        } else {
            (o.neg, b.sub(&a))
        };
        Q { neg, num, den }.norm()
    }
    pub fn sub(&self, o: &Q) -> Q {
        self.add(&o.neg())
    }
    pub fn mul(&self, o: &Q) -> Q {
        Q {
            neg: self.neg != o.neg,
            num: self.num.mul(&o.num),
            den: self.den.mul(&o.den),
        }
        .norm()
    }
    /// self / o; o must not be zero.
    pub fn div(&self, o: &Q) -> Q {
        assert!(!o.is_zero());
        Q {
            neg: self.neg != o.neg,
            num: self.num.mul(&o.den),
            den: self.den.mul(&o.num),
        }
        .norm()
    }
    /// floor(log2 |self|) for a non-zero value.
    pub fn ilog2(&self) -> i64 {
        let mut e = self.num.bits() as i64 - self.den.bits() as i64;
        // 2^e <= |x| < 2^(e+1) holds for e or e - 1.
        if self.cmp_abs(&Q::dyadic(false, Big::one(), e)) == Ordering::Less {
            e -= 1;
        }
        e
    }
    /// (floor(|self| / 2^q), how the discarded part compares with half of 2^q).
    pub fn split(&self, q: i64) -> (Big, Rem) {
        let (a, b) = if q >= 0 {
            (self.num.clone(), self.den.shl(q as u64))
        } else {
            (self.num.shl((-q) as u64), self.den.clone())
        };
        let (k, r) = a.divmod(&b);
        let rem = if r.is_zero() {
            Rem::Zero
        } else {
            match r.shl(1).cmp(&b) {
                Ordering::Less => Rem::Below,
                Ordering::Equal => Rem::Half,
                Ordering::Greater => Rem::Above,
            }
        };
        (k, rem)
    }
    /// The integer value, when this is an integer that fits an i128.
    pub fn to_i128(&self) -> Option<i128> {
        let (k, rem) = self.split(0);
        if rem != Rem::Zero {
            return None;
        }
        let m = k.to_u128()?;
        if self.neg {
            0i128.checked_sub_unsigned(m)
        } else {
            i128::try_from(m).ok()
        }
    }
}

/// The discarded part of a rounding, against half a unit.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Rem {
    Zero,
    Below,
    Half,
    Above,
}
