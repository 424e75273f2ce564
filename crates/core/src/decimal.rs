//! Exact decimal text → integer / binary float, with a tiny arbitrary-precision integer.
//!
//! A decimal `±D × 10^E` is reduced exactly to `±(q + δ) × 2^e` with a 66-bit `q` and a sticky
//! bit `δ ≠ 0`, which `crate::num::round_to_float` rounds once, straight into the target
//! format: no double rounding through `f64`.
//!
//! The work is bounded for hostile input: at most [`MAX_DIGITS`] significant digits are kept
//! (the rest only as "some non-zero digit was dropped", which is exact for rounding, see
//! [`parse_decimal`]), and values beyond `10^310` or below `10^-330` short-circuit to overflow
//! or underflow, since they lie beyond every rounding boundary of every format.

use std::cmp::Ordering;

use crate::num::{round_to_float, FloatFormat, Rounded, RoundingMode};

/// Significant digits kept exactly. Every rounding boundary of every format (a midpoint between
/// two float64 values, the overflow threshold) has at most 768 significant digits, so a decimal
/// truncated to more digits than that, plus a sticky digit, rounds exactly like the original.
pub const MAX_DIGITS: usize = 800;

/// Bits of the quotient computed by the bignum path.
const QUOTIENT_BITS: u32 = 66;

/// Decimal exponents are clamped to this magnitude while parsing (far beyond any format).
const EXP_CLAMP: i64 = 1_000_000_000_000_000;

/// A decimal number `±digits × 10^exp`.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Decimal {
    /// The sign (also for zero: `-0.0` keeps it).
    pub neg: bool,
    /// Significant digits (each 0..=9), the first non-zero and the last non-zero; empty for 0.
    pub digits: Vec<u8>,
    /// Decimal exponent of the last digit (0 for zero).
    pub exp: i64,
    /// The text had a fraction part or an exponent part.
    pub frac_or_exp: bool,
}

/// Which number syntax to accept.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Syntax {
    /// RFC 8259: `-? (0 | [1-9][0-9]*) (\.[0-9]+)? ([eE][+-]?[0-9]+)?`.
    Json,
    /// Also a leading `+`, leading zeros, `.5` and `5.`: what Python's `float()` reads (minus
    /// whitespace and underscores).
    Relaxed,
}

/// Parses a decimal number in full (the whole text must match), or `None`.
///
/// When more than [`MAX_DIGITS`] significant digits are given and a dropped one is non-zero,
/// the kept digits get one more digit `1` appended: the result then lies strictly between the
/// truncated value and the next [`MAX_DIGITS`]-digit decimal, as the original does, and no
/// rounding boundary lies in that open interval, so both round identically.
pub fn parse_decimal(text: &str, syntax: Syntax) -> Option<Decimal> {
    if syntax == Syntax::Json && !is_json_number(text) {
        return None;
    }
    let b = text.as_bytes();
    let at = |i: usize| b.get(i).copied();
    let mut i = 0usize;
    let neg = match at(0) {
        Some(b'-') => {
            i = 1;
            true
        }
        Some(b'+') => {
            i = 1;
            false
        }
        _ => false,
    };
    let mut digits: Vec<u8> = Vec::new();
    let mut dropped: i64 = 0;
    let mut dropped_nonzero = false;
    let mut frac_len: i64 = 0;
    let mut any_digit = false;
    let mut push = |d: u8, digits: &mut Vec<u8>| {
        if digits.is_empty() && d == 0 {
            return;
        }
        if digits.len() < MAX_DIGITS {
            digits.push(d);
        } else {
            dropped += 1;
            dropped_nonzero |= d != 0;
        }
    };
    while let Some(c @ b'0'..=b'9') = at(i) {
        push(c - b'0', &mut digits);
        any_digit = true;
        i += 1;
    }
    let mut frac_or_exp = false;
    if at(i) == Some(b'.') {
        frac_or_exp = true;
        i += 1;
        while let Some(c @ b'0'..=b'9') = at(i) {
            push(c - b'0', &mut digits);
            any_digit = true;
            frac_len += 1;
            i += 1;
        }
    }
    if !any_digit {
        return None;
    }
    let mut exp: i64 = 0;
    if matches!(at(i), Some(b'e' | b'E')) {
        frac_or_exp = true;
        i += 1;
        let eneg = match at(i) {
            Some(b'-') => {
                i += 1;
                true
            }
            Some(b'+') => {
                i += 1;
                false
            }
            _ => false,
        };
        let start = i;
        while let Some(c @ b'0'..=b'9') = at(i) {
            exp = (exp * 10 + i64::from(c - b'0')).min(EXP_CLAMP);
            i += 1;
        }
        if i == start {
            return None;
        }
        if eneg {
            exp = -exp;
        }
    }
    if i != b.len() {
        return None;
    }
    let mut exp = exp - frac_len + dropped;
    if dropped_nonzero {
        digits.push(1);
        exp -= 1;
    } else {
        while digits.last() == Some(&0) {
            digits.pop();
            exp += 1;
        }
    }
    if digits.is_empty() {
        exp = 0;
    }
    Some(Decimal {
        neg,
        digits,
        exp,
        frac_or_exp,
    })
}

/// The integer value of a decimal.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum IntValue {
    /// An integer of magnitude below 10^20.
    Value(i128),
    /// The value has a non-zero fraction.
    NotInteger,
    /// An integer of magnitude at least 10^20 (beyond every integer data type).
    TooLarge,
}

/// The exact integer value of `d`, if it is one.
pub fn to_int(d: &Decimal) -> IntValue {
    if d.digits.is_empty() {
        return IntValue::Value(0);
    }
    if d.exp < 0 {
        return IntValue::NotInteger;
    }
    let n = d.digits.len() as i64;
    if n.saturating_add(d.exp) > 20 {
        return IntValue::TooLarge;
    }
    // At most 20 digits: below 10^20 < 2^67.
    let mut v: i128 = 0;
    for &x in &d.digits {
        v = v * 10 + i128::from(x);
    }
    for _ in 0..d.exp {
        v *= 10;
    }
    IntValue::Value(if d.neg { -v } else { v })
}

/// Rounds `d` into `fmt`, round-half-to-even, exactly.
pub fn to_float(fmt: &FloatFormat, d: &Decimal) -> Rounded {
    let ne = RoundingMode::NearestEven;
    if d.digits.is_empty() {
        return round_to_float(fmt, d.neg, 0, 0, false, ne);
    }
    let n = d.digits.len() as i64;
    // d.neg × [10^(top-1), 10^top)
    let top = n.saturating_add(d.exp);
    if top > 311 {
        // >= 10^311, above 2^1024 and every format's overflow threshold.
        return round_to_float(fmt, d.neg, 1, 4096, false, ne);
    }
    if top < -330 {
        // < 10^-330, below 2^-1075 (half the smallest float64) and so below half of every
        // format's smallest positive value: rounds to zero (or underflows).
        return round_to_float(fmt, d.neg, 1, -4096, false, ne);
    }
    if let Some((m, e, sticky)) = small_parts(d) {
        return round_to_float(fmt, d.neg, m, e, sticky, ne);
    }
    let (m, e, sticky) = big_parts(d);
    round_to_float(fmt, d.neg, m, e, sticky, ne)
}

/// `|d| = (m [+ sticky]) × 2^e` in u128 arithmetic, when the digits and the exponent are small
/// (at most 38 digits in all for integers; at most 19 digits over 10^27 otherwise), with `m`
/// of at least 64 bits when `d` is not an integer.
fn small_parts(d: &Decimal) -> Option<(u128, i32, bool)> {
    let n = d.digits.len();
    if d.exp >= 0 {
        if n as i64 + d.exp > 38 {
            return None;
        }
        // Below 10^38 < 2^127.
        let mut v: u128 = 0;
        for &x in &d.digits {
            v = v * 10 + u128::from(x);
        }
        for _ in 0..d.exp {
            v *= 10;
        }
        return Some((v, 0, false));
    }
    let k = d.exp.unsigned_abs();
    if n > 19 || k > 27 {
        return None;
    }
    // D < 10^19 < 2^64 and 5^k < 2^63: D × 2^s just below 2^127 over 5^k leaves a quotient of
    // at least 2^63.
    let mut dv: u128 = 0;
    for &x in &d.digits {
        dv = dv * 10 + u128::from(x);
    }
    let den = 5u128.pow(k as u32);
    let s = dv.leading_zeros().checked_sub(1)?;
    let num = dv << s;
    let e = -(k as i64) - i64::from(s);
    Some((num / den, i32::try_from(e).ok()?, num % den != 0))
}

/// `|d| = (m [+ sticky]) × 2^e` with a 65- or 66-bit `m` (more than the 53 + 2 bits that
/// rounding to float64 needs; the sticky bit carries the rest exactly), for `d` between
/// 10^-330 and 10^311 with at most [`MAX_DIGITS`] + 1 digits.
fn big_parts(d: &Decimal) -> (u128, i32, bool) {
    // |d| = num / den × 2^bexp
    let mut num = Big::from_digits(&d.digits);
    let (mut den, bexp) = if d.exp >= 0 {
        // An integer: num × 2^exp; keep its top bits, the rest as the sticky bit.
        num.mul_pow5(d.exp as u64);
        let drop = num.bits().saturating_sub(u64::from(QUOTIENT_BITS));
        let (q, sticky) = num.shr_sticky(drop);
        let e = (d.exp + drop as i64).clamp(-100_000, 100_000) as i32;
        return (q, e, sticky);
    } else {
        let mut den = Big::from_u32(1);
        den.mul_pow5(d.exp.unsigned_abs());
        (den, d.exp)
    };
    // Scale so that num / den lies in [2^64, 2^66).
    let t = QUOTIENT_BITS as i64 - 1 + den.bits() as i64 - num.bits() as i64;
    if t >= 0 {
        num.shl(t as u64);
    } else {
        den.shl(t.unsigned_abs());
    }
    let (q, rem_nonzero) = num.div_small_quotient(&den);
    // |bexp - t| < 5000 with the bounds of the caller.
    let e = (bexp - t).clamp(-100_000, 100_000) as i32;
    (q, e, rem_nonzero)
}

/// `m × 2^e` (with `m > 0`) rounded half-to-even to `n` significant decimal digits (`1 <= n <=
/// 18`): `(digits, exp)` with `10^(n-1) <= digits < 10^n` and the rounded value `digits ×
/// 10^exp`. Exact (bignum arithmetic, no tables, no floating point), for the shortest-decimal
/// writer; `m × 2^e` may be any finite float64 magnitude.
pub fn round_to_digits(m: u64, e: i32, n: u32) -> (u64, i64) {
    debug_assert!(m > 0 && (1..=18).contains(&n));
    let lo = 10u64.pow(n - 1);
    let hi = lo * 10;
    // log10(m × 2^e) >= bits - 1 + e times log10(2); 78913 / 2^18 is within 1e-8 of log10(2),
    // and one less covers its error for negative exponents: `k` never exceeds the decimal
    // exponent of the leading digit, and the loop below walks up to it.
    let b2 = i64::from(64 - m.leading_zeros()) - 1 + i64::from(e);
    let mut k = (b2 * 78913).div_euclid(1 << 18) - 1;
    loop {
        // N = m × 2^e / 10^s with s = k - (n - 1); num / den = 2N, so the quotient's low bit is
        // the half and the remainder the sticky part.
        let s = k - i64::from(n) + 1;
        let mut num = Big(vec![m as u32, (m >> 32) as u32]);
        num.trim();
        let mut den = Big::from_u32(1);
        let mut twos = i64::from(e) + 1 - s; // 2^(e+1) / 2^s
        if s >= 0 {
            den.mul_pow5(s as u64);
        } else {
            num.mul_pow5((-s) as u64);
        }
        if twos >= 0 {
            num.shl(twos as u64);
        } else {
            twos = -twos;
            den.shl(twos as u64);
        }
        if num.bits() > den.bits() + u64::from(QUOTIENT_BITS) - 1 {
            // 2N might not fit the quotient: k is certainly too small.
            k += 1;
            continue;
        }
        let (q2, sticky) = num.div_small_quotient(&den);
        let half = q2 & 1 == 1;
        let mut q = q2 >> 1;
        if half && (sticky || q & 1 == 1) {
            q += 1;
        }
        if q >= u128::from(hi) {
            // k was below the leading digit's exponent (or the value rounded up to 10^n).
            if q == u128::from(hi) && (q2 >> 1) < u128::from(hi) {
                return (lo, s + 1);
            }
            k += 1;
            continue;
        }
        debug_assert!(q >= u128::from(lo));
        return (q as u64, s);
    }
}

/// The shortest decimal in the interval `[v - below, v + above] × 2^e` (`v > below`; each end
/// included when its flag in `closed` is set) that `accept` takes: `accept(digits, exp)` for the
/// value `digits × 10^exp`, with at most 17 significant digits, or `None`.
///
/// For `n` = 1, 2, … 17 significant digits, with `p` the `n`-digit truncation of `v` (`p ×
/// 10^exp <= v < (p + 1) × 10^exp`) and `d` the `n`-digit rounding (half-to-even) of `v`: `d`
/// if it lies in the interval, otherwise the other one of `p` and `p + 1` if that one does
/// (not when `d` is the `10^n` of a carry: then the next digit count is tried); the first of
/// these that `accept` takes. This is the candidate search of [`round_to_digits`] (the nearest
/// `n`-digit decimal, then its neighbours one unit away) for an interval whose lower half is at
/// most as long as its upper one, done as one free-format digit generation (Steele & White):
/// `v`, the two half-widths and `10^k` are scaled to integers once; each digit then costs a few
/// bignum comparisons and subtractions and three multiplications by 10.
pub fn shortest_digits<T>(
    v: u64,
    e: i32,
    below: u64,
    above: u64,
    closed: (bool, bool),
    mut accept: impl FnMut(u64, i64) -> Option<T>,
) -> Option<T> {
    use Ordering::{Equal, Greater, Less};
    // v × 2^e / 10^k = r / s, and the half-widths ml / s and mh / s, in the same scale. With
    // v × 2^e < 2^b2, the decimal exponent of the leading digit is at most b2 log10(2); 78913 /
    // 2^18 is below log10(2) by less than 1e-6, so k starts at or above that exponent (the + 1
    // covers the error for b2 > 0), and the loop below brings it down.
    let b2 = i64::from(64 - v.leading_zeros()) + i64::from(e);
    let mut k = (b2 * 78913).div_euclid(1 << 18) + 1;
    let twos = i64::from(e) - k;
    let mut rm = [v, below, above].map(Big::from_u64);
    let mut s = [Big::from_u32(1)];
    Big::scale(&mut rm, (-k).max(0), twos.max(0));
    Big::scale(&mut s, k.max(0), (-twos).max(0));
    let [s] = s;
    while matches!(&rm, [r, ..] if r.compare(&s) == Less) {
        k -= 1;
        Big::times10(&mut rm);
    }
    let mut t = s.clone();
    // Now 1 <= r / s < 10.
    let mut p = 0u64;
    let mut ten_n = 1u64;
    for n in 1..=17i64 {
        let [r, ml, mh] = &mut rm;
        p = p * 10 + r.sub_while_ge(&s);
        ten_n *= 10;
        // v = (p + r / s) × 10^exp; p + 1 is (s - r) / s above v.
        let exp = k + 1 - n;
        t.clone_from(&s);
        t.subtract(r);
        let inside = |gap: Ordering, closed: bool| gap == Less || (gap == Equal && closed);
        let lo = inside(r.compare(ml), closed.0);
        let hi = inside(t.compare(mh), closed.1);
        let up = match r.compare(&t) {
            Less => false,
            Greater => true,
            Equal => p & 1 == 1,
        };
        let pick = match (up, lo, hi) {
            (false, true, _) | (true, _, true) => Some(p + u64::from(up)),
            (false, false, true) => Some(p + 1),
            (true, true, false) if p + 1 < ten_n => Some(p),
            _ => None,
        };
        if let Some(found) = pick.and_then(|d| accept(d, exp)) {
            return Some(found);
        }
        Big::times10(&mut rm);
    }
    None
}

/// A non-negative integer: little-endian 32-bit limbs, no high zero limbs.
#[derive(Debug, Clone, PartialEq, Eq)]
struct Big(Vec<u32>);

impl Big {
    fn from_u32(v: u32) -> Big {
        let mut b = Big(vec![v]);
        b.trim();
        b
    }

    /// (Out of line, as the shortest-digit helpers below: the wasm module stays small.)
    #[inline(never)]
    fn from_u64(v: u64) -> Big {
        let mut b = Big(vec![v as u32, (v >> 32) as u32]);
        b.trim();
        b
    }

    fn from_digits(d: &[u8]) -> Big {
        let mut b = Big(Vec::new());
        for chunk in d.chunks(9) {
            let mut scale = 1u32;
            let mut v = 0u32;
            for &x in chunk {
                scale *= 10;
                v = v * 10 + u32::from(x);
            }
            b.mul_small(scale);
            b.add_small(v);
        }
        b
    }

    /// Multiplies each by 10 (out of line: the shortest-digit loop stays small in the wasm).
    #[inline(never)]
    fn times10(bs: &mut [Big]) {
        for b in bs {
            b.mul_small(10);
        }
    }

    /// Multiplies each by `5^pow5 × 2^twos`.
    #[inline(never)]
    fn scale(bs: &mut [Big], pow5: i64, twos: i64) {
        for b in bs {
            b.mul_pow5(pow5.unsigned_abs());
            b.shl(twos.unsigned_abs());
        }
    }

    /// [`Big::cmp_big`], out of line (for the shortest-digit loop, which stays small in the
    /// wasm module; the parser's division keeps its inlined copy).
    #[inline(never)]
    fn compare(&self, o: &Big) -> Ordering {
        self.cmp_big(o)
    }

    /// [`Big::sub_assign`], out of line.
    #[inline(never)]
    fn subtract(&mut self, o: &Big) {
        self.sub_assign(o);
    }

    /// Subtracts `o` while `self >= o`; returns how many times.
    fn sub_while_ge(&mut self, o: &Big) -> u64 {
        let mut n = 0;
        while self.compare(o) != Ordering::Less {
            self.subtract(o);
            n += 1;
        }
        n
    }

    fn trim(&mut self) {
        while self.0.last() == Some(&0) {
            self.0.pop();
        }
    }

    fn mul_small(&mut self, m: u32) {
        let mut carry = 0u64;
        for limb in self.0.iter_mut() {
            let p = u64::from(*limb) * u64::from(m) + carry;
            *limb = p as u32;
            carry = p >> 32;
        }
        if carry != 0 {
            self.0.push(carry as u32);
        }
        self.trim();
    }

    fn add_small(&mut self, a: u32) {
        let mut carry = u64::from(a);
        for limb in self.0.iter_mut() {
            if carry == 0 {
                break;
            }
            let s = u64::from(*limb) + carry;
            *limb = s as u32;
            carry = s >> 32;
        }
        if carry != 0 {
            self.0.push(carry as u32);
        }
    }

    fn mul_pow5(&mut self, mut k: u64) {
        const P13: u32 = 1_220_703_125; // 5^13
        while k >= 13 {
            self.mul_small(P13);
            k -= 13;
        }
        self.mul_small(5u32.pow(k as u32));
    }

    fn bits(&self) -> u64 {
        match self.0.last() {
            None => 0,
            Some(&top) => (self.0.len() as u64 - 1) * 32 + u64::from(32 - top.leading_zeros()),
        }
    }

    fn shl(&mut self, n: u64) {
        if self.0.is_empty() {
            return;
        }
        let limbs = (n / 32) as usize;
        let s = (n % 32) as u32;
        let mut out = vec![0u32; limbs];
        if s == 0 {
            out.extend_from_slice(&self.0);
        } else {
            let mut carry = 0u32;
            for &l in &self.0 {
                out.push((l << s) | carry);
                carry = l >> (32 - s);
            }
            out.push(carry);
        }
        self.0 = out;
        self.trim();
    }

    /// `(self >> s, whether any of the shifted-out bits is 1)`, for `self < 2^(s + 128)`.
    fn shr_sticky(&self, s: u64) -> (u128, bool) {
        let limbs = (s / 32) as usize;
        let bit = (s % 32) as u32;
        let mut sticky = self.0.iter().take(limbs).any(|&l| l != 0);
        let mut q: u128 = 0;
        // Limbs from `limbs` upwards, at most 5 of them (160 bits) hold the result.
        for (i, &l) in self.0.iter().skip(limbs).take(5).enumerate() {
            let v = u128::from(l) >> bit;
            if i == 0 {
                sticky |= bit > 0 && l & ((1u32 << bit) - 1) != 0;
                q |= v;
            } else {
                let pos = 32 * i as u32 - bit;
                q |= if pos < 128 { u128::from(l) << pos } else { 0 };
            }
        }
        (q, sticky)
    }

    fn shr1(&mut self) {
        let mut carry = 0u32;
        for limb in self.0.iter_mut().rev() {
            let next = *limb & 1;
            *limb = (*limb >> 1) | (carry << 31);
            carry = next;
        }
        self.trim();
    }

    fn cmp_big(&self, o: &Big) -> Ordering {
        self.0
            .len()
            .cmp(&o.0.len())
            .then_with(|| self.0.iter().rev().cmp(o.0.iter().rev()))
    }

    /// `self -= o`, for `self >= o`.
    fn sub_assign(&mut self, o: &Big) {
        let mut borrow = 0i64;
        let mut rhs = o.0.iter();
        for limb in self.0.iter_mut() {
            let r = rhs.next().copied().unwrap_or(0);
            let mut d = i64::from(*limb) - i64::from(r) - borrow;
            borrow = 0;
            if d < 0 {
                d += 1 << 32;
                borrow = 1;
            }
            *limb = d as u32;
        }
        self.trim();
    }

    /// `(self / den, self % den != 0)` for a quotient below 2^QUOTIENT_BITS (restoring
    /// division).
    fn div_small_quotient(mut self, den: &Big) -> (u128, bool) {
        let mut d = den.clone();
        d.shl(u64::from(QUOTIENT_BITS) - 1);
        let mut q = 0u128;
        for i in (0..QUOTIENT_BITS).rev() {
            if self.cmp_big(&d) != Ordering::Less {
                self.sub_assign(&d);
                q |= 1u128 << i;
            }
            d.shr1();
        }
        (q, !self.0.is_empty())
    }
}

/// Whether `t` matches the JSON number grammar
/// `-? (0 | [1-9][0-9]*) (\.[0-9]+)? ([eE][+-]?[0-9]+)?`.
pub fn is_json_number(t: &str) -> bool {
    number_len(t.as_bytes(), 0) == Ok(t.len())
}

/// Scans a JSON number starting at `start`; returns its end, or the offset and reason of the
/// first error.
pub fn number_len(s: &[u8], start: usize) -> std::result::Result<usize, (usize, &'static str)> {
    let at = |i: usize| s.get(i).copied();
    let digits = |mut i: usize| {
        while matches!(at(i), Some(b'0'..=b'9')) {
            i += 1;
        }
        i
    };
    let mut i = start;
    if at(i) == Some(b'-') {
        i += 1;
    }
    match at(i) {
        Some(b'0') => {
            i += 1;
            if matches!(at(i), Some(b'0'..=b'9')) {
                return Err((i - 1, "leading zeros are not allowed in JSON numbers"));
            }
        }
        Some(b'1'..=b'9') => i = digits(i),
        Some(b'I') => {
            return Err((
                start,
                "Infinity is not a JSON value (Zarr writes it as the string \"-Infinity\")",
            ))
        }
        _ => return Err((i, "expected a digit after '-'")),
    }
    if at(i) == Some(b'.') {
        i += 1;
        let j = digits(i);
        if j == i {
            return Err((i, "expected a digit after the decimal point"));
        }
        i = j;
    }
    if matches!(at(i), Some(b'e' | b'E')) {
        i += 1;
        if matches!(at(i), Some(b'+' | b'-')) {
            i += 1;
        }
        let j = digits(i);
        if j == i {
            return Err((i, "expected a digit in the exponent"));
        }
        i = j;
    }
    Ok(i)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn dec(t: &str) -> Decimal {
        parse_decimal(t, Syntax::Relaxed).unwrap()
    }

    #[test]
    fn decimal_normalisation() {
        let d = dec("-001.2300e+3");
        assert_eq!(
            (d.neg, d.digits.as_slice(), d.exp, d.frac_or_exp),
            (true, &[1u8, 2, 3][..], 1, true)
        );
        let d = dec("0.000");
        assert_eq!((d.digits.len(), d.exp), (0, 0));
        let d = dec("1200");
        assert_eq!(
            (d.digits.as_slice(), d.exp, d.frac_or_exp),
            (&[1u8, 2][..], 2, false)
        );
        assert_eq!(dec(".5").exp, -1);
        assert_eq!(dec("5.").digits, vec![5]);
        for bad in [
            "", "-", "+", ".", "e5", "1e", "1e+", "1.2.3", "1x", " 1", "0x10", "1_0", "--1",
        ] {
            assert!(parse_decimal(bad, Syntax::Relaxed).is_none(), "{bad}");
        }
        for bad in ["+1", "01", ".5", "5.", "-.5"] {
            assert!(parse_decimal(bad, Syntax::Json).is_none(), "{bad}");
            assert!(parse_decimal(bad, Syntax::Relaxed).is_some(), "{bad}");
        }
        // Huge exponents clamp instead of overflowing.
        assert_eq!(dec("1e99999999999999999999999999").exp, EXP_CLAMP);
        assert_eq!(dec("1e-99999999999999999999999999").exp, -EXP_CLAMP);
    }

    #[test]
    fn truncation_keeps_a_sticky_digit() {
        // 900 digits "1000...0001": truncated to 800 digits plus a sticky 1.
        let mut t = String::from("1");
        t.push_str(&"0".repeat(898));
        t.push('1');
        let d = dec(&t);
        assert_eq!(d.digits.len(), MAX_DIGITS + 1);
        assert_eq!(d.digits.last(), Some(&1));
        assert_eq!(d.digits.iter().filter(|&&x| x != 0).count(), 2);
        assert_eq!(d.exp, 899 - 800);
        // All-zero dropped digits: exact, trailing zeros stripped.
        let t = format!("1{}", "0".repeat(899));
        let d = dec(&t);
        assert_eq!((d.digits.as_slice(), d.exp), (&[1u8][..], 899));
    }

    #[test]
    fn big_ops() {
        let mut b = Big::from_digits(&[1, 2, 3, 4, 5, 6, 7, 8, 9, 0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 0]);
        assert_eq!(
            b.0,
            vec![
                (12345678901234567890u64 & 0xffff_ffff) as u32,
                (12345678901234567890u64 >> 32) as u32
            ]
        );
        assert_eq!(b.bits(), 64);
        b.shl(70);
        assert_eq!(b.bits(), 134);
        b.shr1();
        assert_eq!(b.bits(), 133);
        let mut p = Big::from_u32(1);
        p.mul_pow5(27);
        assert_eq!(
            p.0,
            vec![
                (7450580596923828125u64 & 0xffff_ffff) as u32,
                (7450580596923828125u64 >> 32) as u32
            ]
        );
        // 10^19 / 3 = 3333...3 (19 digits) remainder 1.
        let mut ten19 = vec![1u8];
        ten19.extend([0u8; 19]);
        let (q, r) = Big::from_digits(&ten19).div_small_quotient(&Big::from_u32(3));
        assert_eq!(q, 3333333333333333333u128);
        assert!(r);
        let num = Big::from_digits(&[9u8; 19]);
        let (q, r) = num.div_small_quotient(&Big::from_u32(9));
        assert_eq!(q, 1111111111111111111u128);
        // Shifts with sticky bits.
        let mut b = Big::from_u32(0b1011);
        b.shl(200);
        assert_eq!(b.shr_sticky(200), (0b1011, false));
        assert_eq!(b.shr_sticky(201), (0b101, true));
        assert_eq!(b.shr_sticky(150), (0b1011 << 50, false));
        assert_eq!(b.shr_sticky(76), (0b1011u128 << 124, false));
        b.add_small(1);
        assert_eq!(b.shr_sticky(200), (0b1011, true));
        // A multi-limb divisor: (2^100 + 5) × 12345 / (2^100 + 5).
        let mut den = Big::from_u32(1);
        den.shl(100);
        den.add_small(5);
        let mut num = den.clone();
        num.mul_small(12345);
        assert_eq!(num.clone().div_small_quotient(&den), (12345, false));
        num.add_small(1);
        assert_eq!(num.div_small_quotient(&den), (12345, true));
        assert!(!r);
    }

    /// The u128 fast path and the bignum path agree wherever both apply.
    #[test]
    fn small_and_big_paths_agree() {
        use crate::num::FORMATS;
        let mut x: u64 = 0x1234_5678_9abc_def1;
        let mut next = || {
            x ^= x << 13;
            x ^= x >> 7;
            x ^= x << 17;
            x
        };
        for _ in 0..20_000 {
            let n = 1 + (next() % 19) as usize;
            let mut digits: Vec<u8> = (0..n).map(|_| (next() % 10) as u8).collect();
            digits[0] = 1 + (next() % 9) as u8;
            while digits.last() == Some(&0) {
                digits.pop();
            }
            let exp = -((next() % 28) as i64);
            let d = Decimal {
                neg: false,
                digits,
                exp,
                frac_or_exp: true,
            };
            let small = small_parts(&d).unwrap();
            let big = big_parts(&d);
            for f in FORMATS {
                assert_eq!(
                    round_to_float(
                        &f,
                        false,
                        small.0,
                        small.1,
                        small.2,
                        RoundingMode::NearestEven
                    ),
                    round_to_float(&f, false, big.0, big.1, big.2, RoundingMode::NearestEven),
                    "{d:?} {}",
                    f.name
                );
            }
            // Integers up to 38 digits.
            let d = Decimal {
                exp: (next() % 20) as i64,
                ..d
            };
            let small = small_parts(&d).unwrap();
            let big = big_parts(&d);
            assert!(!small.2);
            for f in FORMATS {
                assert_eq!(
                    round_to_float(
                        &f,
                        false,
                        small.0,
                        small.1,
                        false,
                        RoundingMode::NearestEven
                    ),
                    round_to_float(&f, false, big.0, big.1, big.2, RoundingMode::NearestEven),
                    "{d:?} {}",
                    f.name
                );
            }
        }
    }

    #[test]
    fn ints() {
        assert_eq!(
            to_int(&dec("18446744073709551615")),
            IntValue::Value(u64::MAX as i128)
        );
        assert_eq!(
            to_int(&dec("-9223372036854775808")),
            IntValue::Value(i64::MIN as i128)
        );
        assert_eq!(to_int(&dec("1e19")), IntValue::Value(10i128.pow(19)));
        assert_eq!(
            to_int(&dec("99999999999999999999")),
            IntValue::Value(10i128.pow(20) - 1)
        );
        assert_eq!(to_int(&dec("1e20")), IntValue::TooLarge);
        assert_eq!(to_int(&dec("1.5")), IntValue::NotInteger);
        assert_eq!(to_int(&dec("-0.0")), IntValue::Value(0));
        assert_eq!(to_int(&dec("1e400")), IntValue::TooLarge);
        assert_eq!(to_int(&dec("1e-400")), IntValue::NotInteger);
        assert_eq!(to_int(&dec("12.3400e2")), IntValue::Value(1234));
    }
}
