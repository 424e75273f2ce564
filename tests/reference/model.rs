//! The reference model: the 26 data types as exact values, rounding of an exact rational into
//! any of them under the five modes by comparison with its two neighbours, and the three codecs
//! (scale_offset, cf.scale_offset, cast_value) computed on exact values, from the spec text
//! (research/spec.md §1, §2, §4) and the documented choices (docs/guides/rules.md), without the crate's code.
//!
//! Choices where the spec is silent (each documented in docs/guides/rules.md):
//! - rounding uses an unbounded exponent above: the grid of a format continues past its largest
//!   finite value with the same number of significand bits, and a result beyond the largest
//!   finite value is out of range (so towards-zero lands on the largest finite value only
//!   between it and the next grid point);
//! - "ties to even" means the neighbour whose integral significand (at the lower neighbour's
//!   quantum) is even; float8_e8m0fnu has a 1-bit significand (always odd), so ties go up;
//! - float8_e8m0fnu: below 2^-127 the quantum stays 2^-127; zero, negatives and what rounds to
//!   zero are out of range (clamp: 2^-127);
//! - the fnuz types have no -0: a zero result is +0;
//! - a NaN result may have any payload (the spec: "Payload preservation is not required").

use super::big::{Big, Rem, Q};
use std::cmp::Ordering;

/// Where a float format keeps its specials.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Specials {
    /// IEEE 754: all-ones exponent is ±Inf (zero fraction) or NaN.
    Ieee,
    /// `fn`: every code is finite (no Inf, no NaN).
    Finite,
    /// `fnuz`: one NaN at 0b1000…0, no Inf, no -0.
    Fnuz,
    /// float8_e8m0fnu: unsigned powers of two 2^(c-127), NaN at 0xFF.
    E8M0,
}

/// A binary float format, from the per-type READMEs (spec.md §4.1).
#[derive(Clone, Copy, Debug)]
pub struct Fmt {
    pub e: u32,
    pub m: u32,
    pub bias: i64,
    pub sp: Specials,
}

impl Fmt {
    pub fn bits(&self) -> u32 {
        match self.sp {
            Specials::E8M0 => 8,
            _ => 1 + self.e + self.m,
        }
    }
    pub fn signed(&self) -> bool {
        self.sp != Specials::E8M0
    }
    pub fn mask(&self) -> u64 {
        if self.bits() == 64 {
            u64::MAX
        } else {
            (1 << self.bits()) - 1
        }
    }
    pub fn sign_bit(&self) -> u64 {
        if self.signed() {
            1 << (self.bits() - 1)
        } else {
            0
        }
    }
    pub fn has_inf(&self) -> bool {
        self.sp == Specials::Ieee
    }
    pub fn has_nan(&self) -> bool {
        self.sp != Specials::Finite
    }
    pub fn has_zero(&self) -> bool {
        self.sp != Specials::E8M0
    }
    pub fn has_neg_zero(&self) -> bool {
        matches!(self.sp, Specials::Ieee | Specials::Finite)
    }
    fn exp_max(&self) -> u64 {
        (1 << self.e) - 1
    }
    /// Smallest exponent of a normal number.
    pub fn emin(&self) -> i64 {
        match self.sp {
            Specials::E8M0 => -self.bias,
            _ => 1 - self.bias,
        }
    }
    /// The code of the largest finite value.
    pub fn max_code(&self) -> u64 {
        let man = (1u64 << self.m) - 1;
        match self.sp {
            Specials::Ieee => ((self.exp_max() - 1) << self.m) | man,
            Specials::Finite | Specials::Fnuz => (self.exp_max() << self.m) | man,
            Specials::E8M0 => 0xfe,
        }
    }
    /// The value of a code.
    pub fn decode(&self, code: u64) -> Val {
        let code = code & self.mask();
        let neg = code & self.sign_bit() != 0;
        let exp = (code >> self.m) & self.exp_max();
        let man = code & ((1u64 << self.m) - 1);
        match self.sp {
            Specials::E8M0 => {
                if code == 0xff {
                    return Val::Nan;
                }
                return Val::Fin(false, Q::dyadic(false, Big::one(), code as i64 - 127));
            }
            Specials::Fnuz if code == self.sign_bit() => return Val::Nan,
            Specials::Ieee if exp == self.exp_max() => {
                return if man == 0 { Val::Inf(neg) } else { Val::Nan };
            }
            _ => {}
        }
        let mag = if exp == 0 {
            Q::dyadic(
                false,
                Big::from_u128(man as u128),
                1 - self.bias - self.m as i64,
            )
        } else {
            Q::dyadic(
                false,
                Big::from_u128(((1u64 << self.m) | man) as u128),
                exp as i64 - self.bias - self.m as i64,
            )
        };
        Val::Fin(neg, mag)
    }
    pub fn is_nan(&self, code: u64) -> bool {
        matches!(self.decode(code), Val::Nan)
    }
    pub fn max_finite(&self) -> Q {
        match self.decode(self.max_code()) {
            Val::Fin(_, q) => q,
            _ => unreachable!(),
        }
    }
    /// The code of ±r × 2^q (r a grid integer from `round`), assumed in range and non-zero.
    fn code_of(&self, neg: bool, r: &Big, q: i64) -> u64 {
        let (mut r, mut q) = (r.clone(), q);
        if r.cmp(&Big::pow2(self.m as u64 + 1)) == Ordering::Equal {
            r = Big::pow2(self.m as u64);
            q += 1;
        }
        let r = r.to_u128().unwrap() as u64;
        let mag = if r < 1 << self.m {
            r // subnormal: q is the smallest quantum
        } else {
            let biased = q + self.m as i64 + self.bias;
            assert!(biased >= 0, "biased exponent {biased}");
            ((biased as u64) << self.m) | (r - (1 << self.m))
        };
        if neg {
            mag | self.sign_bit()
        } else {
            mag
        }
    }
    pub fn zero_code(&self, neg: bool) -> u64 {
        if neg && self.has_neg_zero() {
            self.sign_bit()
        } else {
            0
        }
    }
    pub fn inf_code(&self, neg: bool) -> u64 {
        let c = self.exp_max() << self.m;
        if neg {
            c | self.sign_bit()
        } else {
            c
        }
    }
}

/// An exact value: NaN, ±Inf, or a finite value with the sign of zero kept.
#[derive(Clone, Debug)]
pub enum Val {
    Nan,
    Inf(bool),
    /// (negative, magnitude).
    Fin(bool, Q),
}

impl Val {
    pub fn q(&self) -> Option<Q> {
        match self {
            Val::Fin(neg, m) => Some(if *neg { m.neg() } else { m.clone() }),
            _ => None,
        }
    }
    /// Numeric equality (any NaN equals any NaN; 0 equals -0).
    pub fn same(&self, o: &Val) -> bool {
        match (self, o) {
            (Val::Nan, Val::Nan) => true,
            (Val::Inf(a), Val::Inf(b)) => a == b,
            (Val::Fin(..), Val::Fin(..)) => {
                self.q().unwrap().cmp(&o.q().unwrap()) == Ordering::Equal
            }
            _ => false,
        }
    }
}

/// The five rounding modes.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Mode {
    NearestEven,
    TowardsZero,
    TowardsPositive,
    TowardsNegative,
    NearestAway,
}

pub const MODES: [(Mode, &str); 5] = [
    (Mode::NearestEven, "nearest-even"),
    (Mode::TowardsZero, "towards-zero"),
    (Mode::TowardsPositive, "towards-positive"),
    (Mode::TowardsNegative, "towards-negative"),
    (Mode::NearestAway, "nearest-away"),
];

/// Whether the magnitude moves from the lower neighbour k to k + 1.
fn up(mode: Mode, neg: bool, k_odd: bool, rem: Rem) -> bool {
    match (mode, rem) {
        (_, Rem::Zero) => false,
        (Mode::TowardsZero, _) => false,
        (Mode::TowardsPositive, _) => !neg,
        (Mode::TowardsNegative, _) => neg,
        (Mode::NearestEven, Rem::Half) => k_odd,
        (Mode::NearestAway, Rem::Half) => true,
        (_, Rem::Above) => true,
        (_, Rem::Below) => false,
    }
}

/// The result of rounding into a float format.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Rounded {
    Code(u64),
    Overflow(bool),
    Underflow,
}

/// Rounds ±|x| into `f` (zero's sign from `neg`).
pub fn round_float(f: &Fmt, neg: bool, x: &Q, mode: Mode) -> Rounded {
    if x.is_zero() {
        return if f.has_zero() {
            Rounded::Code(f.zero_code(neg))
        } else {
            Rounded::Underflow
        };
    }
    if neg && !f.signed() {
        return Rounded::Underflow;
    }
    let q = x.ilog2().max(f.emin()) - f.m as i64;
    let (k, rem) = x.split(q);
    let r = if up(mode, neg, k.is_odd(), rem) {
        k.add(&Big::one())
    } else {
        k
    };
    if r.is_zero() {
        return if f.has_zero() {
            Rounded::Code(f.zero_code(neg))
        } else {
            Rounded::Underflow
        };
    }
    if Q::dyadic(false, r.clone(), q).cmp_abs(&f.max_finite()) == Ordering::Greater {
        return Rounded::Overflow(neg);
    }
    Rounded::Code(f.code_of(neg, &r, q))
}

/// Rounds ±|x| to an integer: (negative, magnitude).
pub fn round_int(neg: bool, x: &Q, mode: Mode) -> Q {
    let (k, rem) = x.split(0);
    let r = if up(mode, neg, k.is_odd(), rem) {
        k.add(&Big::one())
    } else {
        k
    };
    let v = Q::dyadic(false, r, 0);
    if neg {
        v.neg()
    } else {
        v
    }
}

/// An integer data type.
#[derive(Clone, Copy, Debug)]
pub struct Int {
    pub bits: u32,
    pub signed: bool,
}

impl Int {
    pub fn min(&self) -> i128 {
        if self.signed {
            -(1i128 << (self.bits - 1))
        } else {
            0
        }
    }
    pub fn max(&self) -> i128 {
        if self.signed {
            (1i128 << (self.bits - 1)) - 1
        } else {
            (1i128 << self.bits) - 1
        }
    }
    pub fn contains(&self, v: &Q) -> bool {
        v.cmp(&Q::int(self.min())) != Ordering::Less
            && v.cmp(&Q::int(self.max())) != Ordering::Greater
    }
    /// The value congruent to the integer `v` modulo 2^bits, in range.
    pub fn wrap(&self, v: &Q) -> i128 {
        let low = v.num.low_u64() as u128;
        let m = 1u128 << self.bits;
        let mut u = (low % m) as i128;
        if v.neg && u != 0 {
            u = m as i128 - u;
        }
        if self.signed && u > self.max() {
            u - m as i128
        } else {
            u
        }
    }
}

/// One of the 26 data types.
#[derive(Clone, Copy, Debug)]
pub enum Kind {
    Int(Int),
    Float(Fmt),
}

#[derive(Clone, Copy, Debug)]
pub struct Dt {
    pub name: &'static str,
    pub kind: Kind,
}

const fn i(name: &'static str, bits: u32, signed: bool) -> Dt {
    Dt {
        name,
        kind: Kind::Int(Int { bits, signed }),
    }
}
const fn f(name: &'static str, e: u32, m: u32, bias: i64, sp: Specials) -> Dt {
    Dt {
        name,
        kind: Kind::Float(Fmt { e, m, bias, sp }),
    }
}

/// The 26 types, from spec.md §4.1 (layouts verbatim from each type's README).
pub const TYPES: [Dt; 26] = [
    i("int2", 2, true),
    i("int4", 4, true),
    i("int8", 8, true),
    i("int16", 16, true),
    i("int32", 32, true),
    i("int64", 64, true),
    i("uint2", 2, false),
    i("uint4", 4, false),
    i("uint8", 8, false),
    i("uint16", 16, false),
    i("uint32", 32, false),
    i("uint64", 64, false),
    f("float4_e2m1fn", 2, 1, 1, Specials::Finite),
    f("float6_e2m3fn", 2, 3, 1, Specials::Finite),
    f("float6_e3m2fn", 3, 2, 3, Specials::Finite),
    f("float8_e3m4", 3, 4, 3, Specials::Ieee),
    f("float8_e4m3", 4, 3, 7, Specials::Ieee),
    f("float8_e4m3b11fnuz", 4, 3, 11, Specials::Fnuz),
    f("float8_e4m3fnuz", 4, 3, 8, Specials::Fnuz),
    f("float8_e5m2", 5, 2, 15, Specials::Ieee),
    f("float8_e5m2fnuz", 5, 2, 16, Specials::Fnuz),
    f("float8_e8m0fnu", 8, 0, 127, Specials::E8M0),
    f("bfloat16", 8, 7, 127, Specials::Ieee),
    f("float16", 5, 10, 15, Specials::Ieee),
    f("float32", 8, 23, 127, Specials::Ieee),
    f("float64", 11, 52, 1023, Specials::Ieee),
];

impl Dt {
    pub fn bits(&self) -> u32 {
        match self.kind {
            Kind::Int(i) => i.bits,
            Kind::Float(f) => f.bits(),
        }
    }
    /// Bytes per element in memory.
    pub fn size(&self) -> usize {
        (self.bits() as usize).div_ceil(8)
    }
    /// The value of a raw element (an integer value, or a float code).
    pub fn value(&self, raw: &Raw) -> Val {
        match (self.kind, raw) {
            (Kind::Int(_), Raw::Int(v)) => Val::Fin(*v < 0, Q::int(*v).abs()),
            (Kind::Float(f), Raw::Code(c)) => f.decode(*c),
            _ => panic!("raw kind mismatch for {}", self.name),
        }
    }
    /// The in-memory bytes of an element (integers sign- or zero-extended, float codes).
    pub fn bytes(&self, raw: &Raw) -> Vec<u8> {
        let v = match raw {
            Raw::Int(v) => *v as u128 as u64,
            Raw::Code(c) => *c,
        };
        v.to_le_bytes()[..self.size()].to_vec()
    }
    /// The element read back from in-memory bytes (low bits only for the narrow types).
    pub fn read(&self, b: &[u8]) -> Raw {
        let mut w = [0u8; 8];
        w[..b.len()].copy_from_slice(b);
        let v = u64::from_le_bytes(w);
        match self.kind {
            Kind::Int(i) => {
                let sh = 64 - i.bits;
                Raw::Int(if i.signed {
                    (((v << sh) as i64) >> sh) as i128
                } else {
                    ((v << sh) >> sh) as i128
                })
            }
            Kind::Float(f) => Raw::Code(if f.bits() == 64 {
                v
            } else {
                v & ((1 << f.bits()) - 1)
            }),
        }
    }
    /// The JSON fill-value encoding of an element: integers in decimal, floats as full-width hex
    /// (exact codes; decimal parsing is tested separately).
    pub fn json(&self, raw: &Raw) -> String {
        match raw {
            Raw::Int(v) => v.to_string(),
            Raw::Code(c) => format!("\"0x{:0w$x}\"", c, w = 2 * self.size()),
        }
    }
}

/// An element of a data type: an integer value or a float code.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Raw {
    Int(i128),
    Code(u64),
}

/// The model's outcome for one element: a value, or an error code.
pub type Out = Result<Raw, &'static str>;

/// Rounds an exact value into a data type under the IEEE-like rules of scale_offset arithmetic:
/// nearest-even, NaN/Inf kept where the type has them (else NaN is not_representable and
/// overflow out_of_range), integers exact (inexact is not_representable, outside the range
/// out_of_range).
pub fn arith_result(dt: &Dt, v: &Val) -> Result<(Raw, Val), &'static str> {
    match dt.kind {
        Kind::Int(i) => {
            let q = v.q().ok_or("not_representable")?;
            if q.split(0).1 != Rem::Zero {
                return Err("not_representable");
            }
            if !i.contains(&q) {
                return Err("out_of_range");
            }
            let x = q.to_i128().unwrap();
            Ok((Raw::Int(x), v.clone()))
        }
        Kind::Float(f) => {
            let code = match v {
                Val::Nan if f.has_nan() => return Ok((Raw::Code(nan_code(&f)), Val::Nan)),
                Val::Nan => return Err("not_representable"),
                Val::Inf(neg) if f.has_inf() => f.inf_code(*neg),
                Val::Inf(_) => return Err("out_of_range"),
                Val::Fin(neg, m) => match round_float(&f, *neg, m, Mode::NearestEven) {
                    Rounded::Code(c) => c,
                    Rounded::Overflow(neg) if f.has_inf() => f.inf_code(neg),
                    Rounded::Overflow(_) | Rounded::Underflow => return Err("out_of_range"),
                },
            };
            Ok((Raw::Code(code), f.decode(code)))
        }
    }
}

/// Some NaN code of a format (which one does not matter: results compare NaN-ness).
pub fn nan_code(f: &Fmt) -> u64 {
    match f.sp {
        Specials::Ieee => f.inf_code(false) | (1 << (f.m - 1)),
        Specials::Fnuz => f.sign_bit(),
        Specials::E8M0 => 0xff,
        Specials::Finite => unreachable!(),
    }
}

/// The exact IEEE 754 result of `a op b` before rounding, specials and zero signs included
/// (round-to-nearest: an exact zero sum of opposite signs is +0).
pub fn ieee(a: &Val, op: char, b: &Val) -> Val {
    use Val::*;
    match (a, b) {
        (Nan, _) | (_, Nan) => Nan,
        _ => match op {
            '+' | '-' => {
                let (bneg_flip, b) = (op == '-', b);
                let b = match b {
                    Inf(n) => Inf(*n != bneg_flip),
                    Fin(n, m) => Fin(*n != bneg_flip, m.clone()),
                    Nan => Nan,
                };
                match (a, &b) {
                    (Inf(x), Inf(y)) => {
                        if x == y {
                            Inf(*x)
                        } else {
                            Nan
                        }
                    }
                    (Inf(x), _) | (_, Inf(x)) => Inf(*x),
                    (Fin(an, am), Fin(bn, bm)) => {
                        if am.is_zero() && bm.is_zero() {
                            return Fin(*an && *bn, Q::zero());
                        }
                        let s = a.q().unwrap().add(&b.q().unwrap());
                        if s.is_zero() {
                            Fin(false, Q::zero())
                        } else {
                            Fin(s.neg, s.abs())
                        }
                    }
                    _ => Nan,
                }
            }
            '*' => match (a, b) {
                (Inf(x), Inf(y)) => Inf(x != y),
                (Inf(x), Fin(n, m)) | (Fin(n, m), Inf(x)) => {
                    if m.is_zero() {
                        Nan
                    } else {
                        Inf(x != n)
                    }
                }
                (Fin(an, am), Fin(bn, bm)) => Fin(an != bn, am.mul(bm)),
                _ => Nan,
            },
            '/' => match (a, b) {
                (Inf(_), Inf(_)) => Nan,
                (Inf(x), Fin(n, _)) => Inf(x != n),
                (Fin(n, _), Inf(x)) => Fin(x != n, Q::zero()),
                (Fin(an, am), Fin(bn, bm)) => {
                    if bm.is_zero() {
                        if am.is_zero() {
                            Nan
                        } else {
                            Inf(an != bn)
                        }
                    } else {
                        Fin(an != bn, am.div(bm))
                    }
                }
                _ => Nan,
            },
            _ => unreachable!(),
        },
    }
}

/// scale_offset (`cf` false) or cf.scale_offset (`cf` true) on one element, encode or decode,
/// one rounding to the data type after every operation (spec §1.3).
pub fn scale_offset(dt: &Dt, cf: bool, offset: &Val, scale: &Val, encode: bool, x: &Raw) -> Out {
    let v = dt.value(x);
    // encode: (x - offset) op scale; decode: (x op' scale) + offset.
    let (op1, arg1, op2, arg2) = if encode {
        ('-', offset, if cf { '/' } else { '*' }, scale)
    } else {
        (if cf { '*' } else { '/' }, scale, '+', offset)
    };
    let (_, a) = step(dt, &v, op1, arg1)?;
    let (r, _) = step(dt, &a, op2, arg2)?;
    Ok(r)
}

fn step(dt: &Dt, a: &Val, op: char, b: &Val) -> Result<(Raw, Val), &'static str> {
    match dt.kind {
        Kind::Int(_) => {
            let (x, y) = (a.q().unwrap(), b.q().unwrap());
            let r = match op {
                '-' => x.sub(&y),
                '+' => x.add(&y),
                '*' => x.mul(&y),
                _ => x.div(&y),
            };
            arith_result(dt, &Val::Fin(r.neg, r.abs()))
        }
        Kind::Float(_) => arith_result(dt, &ieee(a, op, b)),
    }
}

/// out_of_range of cast_value.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Oor {
    None,
    Clamp,
    Wrap,
}

/// cast_value of one element from `from` to `to` (spec §2.2: scalar_map, exact, rounding, then
/// out_of_range). `map` holds (key in `from`, output in `to`), first match wins.
pub fn cast(from: &Dt, to: &Dt, x: &Raw, mode: Mode, oor: Oor, map: &[(Val, Raw)]) -> Out {
    let v = from.value(x);
    if let Some((_, out)) = map.iter().find(|(k, _)| k.same(&v)) {
        return Ok(*out);
    }
    // Wrap applies to integer outputs only (decoding into a float type cannot wrap).
    let oor = match (oor, to.kind) {
        (Oor::Wrap, Kind::Float(_)) => Oor::None,
        (o, _) => o,
    };
    match (to.kind, &v) {
        (Kind::Int(_), Val::Nan | Val::Inf(_)) => Err("not_representable"),
        (Kind::Int(t), Val::Fin(neg, m)) => {
            let r = round_int(*neg, m, mode);
            if t.contains(&r) {
                return Ok(Raw::Int(r.to_i128().unwrap()));
            }
            match oor {
                Oor::None => Err("out_of_range"),
                Oor::Clamp => Ok(Raw::Int(if *neg { t.min() } else { t.max() })),
                Oor::Wrap => Ok(Raw::Int(t.wrap(&r))),
            }
        }
        (Kind::Float(t), Val::Nan) => {
            if t.has_nan() {
                Ok(Raw::Code(nan_code(&t)))
            } else {
                Err("not_representable")
            }
        }
        (Kind::Float(t), Val::Inf(neg)) => {
            if t.has_inf() {
                Ok(Raw::Code(t.inf_code(*neg)))
            } else {
                Err("not_representable")
            }
        }
        (Kind::Float(t), Val::Fin(neg, m)) => match round_float(&t, *neg, m, mode) {
            Rounded::Code(c) => Ok(Raw::Code(c)),
            Rounded::Overflow(neg) => match oor {
                Oor::Clamp if t.has_inf() => Ok(Raw::Code(t.inf_code(neg))),
                Oor::Clamp => Ok(Raw::Code(t.max_code() | if neg { t.sign_bit() } else { 0 })),
                _ => Err("out_of_range"),
            },
            Rounded::Underflow => match oor {
                // float8_e8m0fnu: the smallest value 2^-127.
                Oor::Clamp => Ok(Raw::Code(0)),
                _ => Err("out_of_range"),
            },
        },
    }
}
