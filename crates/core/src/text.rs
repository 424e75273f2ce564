//! Text of JSON strings, numbers and integers, and the shortest decimal of a float: the part of
//! the JSON layer that the numeric core (`crate::cast`, `crate::dtype`) needs for its
//! messages. The main crate's `json` module re-exports it.

pub use crate::decimal::{is_json_number, number_len};
use crate::decimal::{parse_decimal, shortest_digits, to_float, Decimal, Syntax};
use crate::num::{round_to_float, FloatFormat, Rounded, RoundingMode};

/// Shows a string as its JSON text (in `format!` arguments; in place of `{:?}`, whose escaping
/// would pull Unicode tables into the wasm module).
pub struct Quoted<'a>(pub &'a str);

impl std::fmt::Display for Quoted<'_> {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(&quote(self.0))
    }
}

/// A JSON string literal (with quotes) for `s`: escapes `"`, `\` and the control characters.
pub fn quote(s: &str) -> String {
    let mut out = String::with_capacity(s.len() + 2);
    write_quoted(&mut out, s);
    out
}

/// Appends the JSON string literal of `s` to `out`.
pub fn write_quoted(out: &mut String, s: &str) {
    out.push('"');
    for c in s.chars() {
        match c {
            '"' => out.push_str("\\\""),
            '\\' => out.push_str("\\\\"),
            '\n' => out.push_str("\\n"),
            '\r' => out.push_str("\\r"),
            '\t' => out.push_str("\\t"),
            '\u{8}' => out.push_str("\\b"),
            '\u{c}' => out.push_str("\\f"),
            c if (c as u32) < 0x20 => {
                out.push_str(&format!("\\u{:04x}", c as u32));
            }
            c => out.push(c),
        }
    }
    out.push('"');
}

/// Decimal text of any `i128` (digit by digit, so that `core`'s 128-bit formatting code, about
/// 3 KB of wasm, is not linked: use this, never `{}`, for `i128` values in messages).
pub fn int_text(v: i128) -> String {
    let mut mag = v.unsigned_abs();
    let mut rev = String::with_capacity(40);
    loop {
        rev.push(char::from(b'0' + (mag % 10) as u8));
        mag /= 10;
        if mag == 0 {
            break;
        }
    }
    if v < 0 {
        rev.push('-');
    }
    rev.chars().rev().collect()
}

/// The decimal `±m × 10^exp` in normal form.
pub fn decimal_of(neg: bool, m: u64, exp: i64) -> Decimal {
    let mut digits: Vec<u8> = m.to_string().bytes().map(|b| b - b'0').collect();
    let mut exp = exp;
    while digits.last() == Some(&0) {
        digits.pop();
        exp += 1;
    }
    if digits.is_empty() {
        exp = 0;
    }
    Decimal {
        neg,
        digits,
        exp,
        frac_or_exp: true,
    }
}

/// The shortest decimal that rounds back to `code` (a finite code of any float format, float64
/// included; `None` for NaN, infinities and codes with bits beyond the format's width): the
/// fewest significant digits, and among those the nearest to the value (ties: the even last
/// digit), as in Rust's `{:?}` (which this replaces: no float-formatting tables in the wasm
/// module).
///
/// The codes that read back to `code` form an interval around its value `v`: half the gap to
/// each neighbouring value on either side (the gap below is half as long at a power of two
/// other than the smallest normal value; for the largest finite value the gap above is to the
/// value the next code would have), each end included when reading that midpoint rounds to
/// `code` (ties to even, so for an even significand; always below for float8_e8m0fnu, whose
/// significand is always 1). [`shortest_digits`] finds the shortest decimal in it in one digit
/// generation, and reading the text back exactly ([`parse_decimal`], [`to_float`]) confirms
/// it (were it ever not to read back, a longer one would be tried).
pub fn shortest(fmt: &FloatFormat, code: u64) -> Option<String> {
    let v = fmt.decode(code);
    if v == 0.0 {
        return Some(if v.is_sign_negative() { "-0.0" } else { "0.0" }.to_string());
    }
    if !v.is_finite() || code & !fmt.mask() != 0 {
        return None;
    }
    let neg = v < 0.0;
    // v = ±sig × 2^q, sig an integer (2^man_bits <= sig < 2^(man_bits + 1) when normal).
    let mag = code & !fmt.sign_bit();
    let man = fmt.man_bits;
    let hidden = 1u64 << man;
    let (biased, frac) = (mag >> man, mag & (hidden - 1));
    let bias_man = fmt.bias + man as i32;
    let normal_from = u64::from(fmt.has_zero());
    let (sig, q) = if biased < normal_from {
        (frac, 1 - bias_man)
    } else {
        (hidden | frac, biased as i32 - bias_man)
    };
    // In units of 2^(q-2): v = 4 sig, the half-gaps 1 or 2 below and 2 above.
    let below = if frac == 0 && biased > normal_from {
        1
    } else {
        2
    };
    let v4 = sig << 2;
    let reads_back = |m: u64| {
        matches!(
            round_to_float(fmt, false, u128::from(m), q - 2, false, RoundingMode::NearestEven),
            Rounded::Value { code: got, .. } if got == mag
        )
    };
    let closed = (reads_back(v4 - below), reads_back(v4 + 2));
    shortest_digits(v4, q - 2, below, 2, closed, |mut d, mut x| {
        while d % 10 == 0 {
            d /= 10;
            x += 1;
        }
        let text = number_text(neg, int_text(i128::from(d)).as_bytes(), x);
        // The exact check: the text reads back to `code`.
        let dec = parse_decimal(&text, Syntax::Json)?;
        let back = matches!(to_float(fmt, &dec), Rounded::Value { code: got, .. } if got == code);
        back.then_some(text)
    })
}

#[cfg(test)]
mod reference {
    //! The former [`shortest`] (a bignum rounding and up to three exact reads for each digit
    //! count) and [`format_decimal`]: the reference that the tests hold the new ones to.
    use super::*;

    pub fn shortest_reference(fmt: &FloatFormat, code: u64) -> Option<String> {
        use crate::decimal::round_to_digits;
        let v = fmt.decode(code);
        if v == 0.0 {
            return Some(if v.is_sign_negative() { "-0.0" } else { "0.0" }.to_string());
        }
        let neg = v < 0.0;
        let (_, m, e) = crate::num::decompose_f64(v.abs());
        let m = u64::try_from(m).ok()?;
        for n in 1..=17u32 {
            let (d, x) = round_to_digits(m, e, n);
            for c in [d, d + 1, d - 1] {
                let dec = decimal_of(neg, c, x);
                if matches!(to_float(fmt, &dec), Rounded::Value { code: got, .. } if got == code) {
                    return Some(format_decimal_reference(&dec));
                }
            }
        }
        None
    }

    /// JSON number text of a non-zero decimal: positional for 1e-4 <= |x| < 1e16 (integral values
    /// with `.0`), otherwise `d.ddde±x`.
    pub fn format_decimal_reference(d: &Decimal) -> String {
        let ds: String = d.digits.iter().map(|&x| char::from(b'0' + x)).collect();
        if ds.is_empty() {
            return if d.neg { "-0.0" } else { "0.0" }.to_string();
        }
        let n = ds.len() as i64;
        let sci = d.exp + n - 1;
        let mut out = String::new();
        if d.neg {
            out.push('-');
        }
        if (-4..16).contains(&sci) {
            if sci >= 0 {
                let int_len = (sci + 1) as usize;
                // `ds` is ASCII digits: every index up to its length is a char boundary.
                match ds.split_at_checked(int_len) {
                    Some((i, f)) if !f.is_empty() => {
                        out.push_str(i);
                        out.push('.');
                        out.push_str(f);
                    }
                    _ => {
                        out.push_str(&ds);
                        out.push_str(&"0".repeat(int_len.saturating_sub(ds.len())));
                        out.push_str(".0");
                    }
                }
            } else {
                out.push_str("0.");
                out.push_str(&"0".repeat((-sci - 1) as usize));
                out.push_str(&ds);
            }
        } else {
            // Non-empty ASCII digits (checked above): the split after the first digit exists.
            let (first, rest) = ds.split_at_checked(1).unwrap_or((&ds, ""));
            out.push_str(first);
            if !rest.is_empty() {
                out.push('.');
                out.push_str(rest);
            }
            out.push('e');
            out.push_str(&sci.to_string());
        }
        out
    }
}

/// A finite or special f64 as the shortest decimal that reads back to it (`as_f32`: to the same
/// float32), in the style of Rust's `{:?}` ("1.0", "1e-7", "1.5e300"); "NaN", "Infinity",
/// "-Infinity". For messages.
pub fn shortest_text(x: f64, as_f32: bool) -> String {
    if x.is_nan() {
        return "NaN".into();
    }
    if x.is_infinite() {
        return if x > 0.0 { "Infinity" } else { "-Infinity" }.into();
    }
    let (fmt, code) = if as_f32 {
        (&crate::num::F32, u64::from((x as f32).to_bits()))
    } else {
        (&crate::num::F64, x.to_bits())
    };
    shortest(fmt, code).unwrap_or_else(|| format!("0x{code:x}"))
}

/// JSON number text of a non-zero decimal: positional for 1e-4 <= |x| < 1e16 (integral values
/// with `.0`), otherwise `d.ddde±x`.
pub fn format_decimal(d: &Decimal) -> String {
    let ds: Vec<u8> = d.digits.iter().map(|&x| b'0' + x).collect();
    number_text(d.neg, &ds, d.exp)
}

/// [`format_decimal`] of `±ds × 10^exp`, `ds` its digits in ASCII.
fn number_text(neg: bool, ds: &[u8], exp: i64) -> String {
    let n = ds.len() as i64;
    // The exponent of the first digit (-1 for zero, written "0.0").
    let sci = if n == 0 { -1 } else { exp + n - 1 };
    let mut out = Vec::new();
    if neg {
        out.push(b'-');
    }
    // The digits `start..=end` places after the first ('0' outside `ds`), with the point after
    // `point`: positional from the units (or the leading digit) down to the tenths (or the last
    // digit); otherwise one digit before the point (none after it if there is no other).
    let positional = (-4..16).contains(&sci);
    let (start, end, point) = if positional {
        (sci.min(0), (n - 1).max(sci + 1), sci)
    } else {
        (0, n - 1, 0)
    };
    for i in start..=end {
        let x = usize::try_from(i).ok().and_then(|i| ds.get(i));
        out.push(x.copied().unwrap_or(b'0'));
        if i == point && i < end {
            out.push(b'.');
        }
    }
    if !positional {
        out.push(b'e');
        out.extend_from_slice(int_text(i128::from(sci)).as_bytes());
    }
    String::from_utf8(out).unwrap_or_default()
}

#[cfg(test)]
mod tests {
    use super::reference::*;
    use super::*;
    use crate::num::{F32, F64, FORMATS};

    use crate::test_rng::Rng;

    fn same(fmt: &FloatFormat, code: u64) {
        assert_eq!(
            shortest(fmt, code),
            shortest_reference(fmt, code),
            "{} {code:#x}",
            fmt.name
        );
    }

    /// Every code of every format of at most 16 bits (the float data types but float32 and
    /// float64), NaNs and infinities included, and codes with bits beyond the width.
    #[test]
    fn shortest_matches_reference_on_every_small_code() {
        let mut n = 0;
        for f in FORMATS.iter().filter(|f| f.bits <= 16) {
            for code in 0..1u64 << f.bits {
                same(f, code);
                n += 1;
            }
            for code in [1u64 << f.bits, (1 << f.bits) | 1, u64::MAX] {
                same(f, code);
            }
        }
        assert_eq!(n, 2 * 65536 + 7 * 256 + 2 * 64 + 16);
    }

    /// `format_decimal` (now the same writer as `shortest`) against the former one, on decimals
    /// with 0 to 30 digits (leading and trailing zeros included) and exponents around the
    /// positional range.
    #[test]
    fn format_decimal_matches_reference() {
        let mut rng = Rng(0x0123_4567_89ab_cdef);
        for _ in 0..100_000 {
            let len = (rng.next() % 31) as usize;
            let d = Decimal {
                neg: rng.next() % 2 == 0,
                digits: (0..len).map(|_| (rng.next() % 10) as u8).collect(),
                exp: (rng.next() % 81) as i64 - 40,
                frac_or_exp: true,
            };
            assert_eq!(format_decimal(&d), format_decimal_reference(&d), "{d:?}");
        }
    }

    /// Boundary codes of float32 and float64: the extremes, every power of two and its
    /// neighbours, values near powers of ten (1e15..1e17 is where the text switches from
    /// positional to scientific), and the codes of short decimals.
    fn boundary_codes(f: &FloatFormat) -> Vec<u64> {
        let max = f.max_finite_code();
        let min_normal = 1u64 << f.man_bits;
        let mut codes = vec![
            1,
            2,
            3,
            min_normal - 1,
            min_normal,
            min_normal + 1,
            max,
            max - 1,
        ];
        codes.extend([max + 1, max + 2, f.canonical_nan, 0, f.sign_bit()]);
        for biased in 0..=(max >> f.man_bits) {
            let c = biased << f.man_bits;
            codes.extend([c.saturating_sub(1), c, c + 1]);
        }
        let mut values = vec![5e-324, 1.7976931348623157e308, 0.1, 0.3, 1e-4, 9.999e-5];
        for k in -330..=310 {
            let p = format!("1e{k}").parse::<f64>().unwrap_or(0.0);
            values.push(p);
            for m in [2.0, 5.0, 9.0, 9.5, 9.99, 9.999_999, 1.5] {
                values.push(p * m);
            }
        }
        for x in [1e15, 1e16, 1e17] {
            for d in -3000..3000i32 {
                values.push(x + f64::from(d));
                values.push(x * (1.0 + f64::from(d) * 1e-17));
            }
        }
        for x in values.into_iter().filter(|x| x.is_finite()) {
            let c = if f.bits == 64 {
                x.to_bits()
            } else {
                u64::from((x as f32).to_bits())
            };
            codes.extend([c.saturating_sub(1), c, c + 1]);
        }
        let with_sign: Vec<u64> = codes.iter().map(|c| c | f.sign_bit()).collect();
        codes.extend(with_sign);
        codes
    }

    /// float32 and float64: a fixed-seed sample of 50,000 random codes each, plus the boundary
    /// codes (200,000 each passed once; fewer keep `cargo test` under a minute on 2 CPUs, since
    /// the old reference is slow at the test profile's opt-level 1).
    #[test]
    fn shortest_matches_reference_on_float32_and_float64() {
        let mut rng = Rng(0x2545_f491_4f6c_dd1d);
        for f in [F32, F64] {
            for c in boundary_codes(&f) {
                same(&f, c);
            }
            for _ in 0..50_000 {
                same(&f, rng.next() & f.mask());
            }
        }
    }

    /// Old against new on the same float64 codes (random bit patterns, and values with few
    /// digits), the best of five interleaved rounds: `cargo test --release -p
    /// zarr-scale-offset-core --lib -- --ignored --nocapture shortest_speed`.
    #[test]
    #[ignore]
    fn shortest_speed() {
        type Writer = fn(&FloatFormat, u64) -> Option<String>;
        let mut rng = Rng(0x9e37_79b9_7f4a_7c15);
        let random: Vec<u64> = (0..20_000).map(|_| rng.next()).collect();
        let short: Vec<u64> = (0..20_000)
            .map(|i| (f64::from(i % 1000) * 0.25 + 0.1).to_bits())
            .collect();
        let writers: [(&str, Writer); 2] = [("old", shortest_reference), ("new", shortest)];
        for (what, codes) in [("random bits", &random), ("short decimals", &short)] {
            let mut best = [f64::INFINITY; 2];
            for _ in 0..5 {
                for (b, (_, f)) in best.iter_mut().zip(writers) {
                    let t = std::time::Instant::now();
                    let len: usize = codes
                        .iter()
                        .map(|&c| f(&F64, c).map_or(0, |s| s.len()))
                        .sum();
                    let ns = t.elapsed().as_nanos() as f64 / codes.len() as f64;
                    *b = b.min(ns);
                    assert!(len > codes.len());
                }
            }
            println!(
                "{what}: old {:.0} ns, new {:.0} ns per call: {:.1}x",
                best[0],
                best[1],
                best[0] / best[1]
            );
        }
    }
}
