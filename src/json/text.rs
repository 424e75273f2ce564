//! Text of JSON strings, numbers and integers, and the shortest decimal of a float: the part of
//! the JSON layer that the numeric core (`crate::codec::cast`, `crate::dtype`) needs for its
//! messages. It lives in the `zarr-scale-offset-core` crate (see `crates/core`), which
//! `crate::json` re-exports.

use super::decimal::{round_to_digits, to_float, Decimal};
use crate::num::{FloatFormat, Rounded};

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
/// included): for each digit count the nearest decimal is tried, then its neighbours one unit in
/// the last place away (the rounding interval can be lopsided at a power of two). Among the
/// shortest, the nearest wins, as in Rust's `{:?}` (which this replaces: no float-formatting
/// tables in the wasm module).
pub fn shortest(fmt: &FloatFormat, code: u64) -> Option<String> {
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
                return Some(format_decimal(&dec));
            }
        }
    }
    None
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
