//! Fill-value scalars of every data type (src/json/scalar.rs): strict and lenient forms, every
//! small integer and float code, the shortest decimal, rejections with their messages.
// Test code may unwrap, index and panic (the workspace lints deny them in the library).
#![allow(clippy::restriction)]
use std::cmp::Ordering;
use std::time::{Duration, Instant};
use zarr_scale_offset::internals::json::scalar::*;
use zarr_scale_offset::internals::json::Json;
use zarr_scale_offset::DataType;
use zarr_scale_offset::ErrorCode;
use zarr_scale_offset::Result;
use zarr_scale_offset_core::dtype::Kind;
use zarr_scale_offset_core::dtype::{DataType::*, ALL};
use zarr_scale_offset_core::num::FloatFormat;

const PTR: &str = "/fill_value";

#[test]
fn int_text_writes_every_i128() {
    for v in [
        0,
        -1,
        7,
        -10,
        i128::from(u64::MAX),
        i128::from(u64::MAX) + 1,
        -i128::from(u64::MAX) - 1,
        i128::MAX,
        i128::MIN,
    ] {
        assert_eq!(int_text(v), format!("{v}"));
    }
}

fn p(dt: DataType, text: &str) -> Result<Scalar> {
    parse_scalar_text(dt, text, PTR)
}
/// A strict parse: the code, asserting no lenient flag.
fn strict(dt: DataType, text: &str) -> u64 {
    match p(dt, text) {
        Ok(Scalar {
            bits,
            lenient: None,
        }) => bits,
        other => panic!("{dt} {text}: {other:?}"),
    }
}
/// A lenient parse: the code and the description.
fn lenient(dt: DataType, text: &str) -> (u64, String) {
    match p(dt, text) {
        Ok(Scalar {
            bits,
            lenient: Some(why),
        }) => (bits, why),
        other => panic!("{dt} {text}: expected lenient, got {other:?}"),
    }
}
fn rejected(dt: DataType, text: &str) -> String {
    match p(dt, text) {
        Err(e) => {
            assert_eq!(e.code, ErrorCode::InvalidMetadata, "{dt} {text}: {e}");
            assert!(e.message.starts_with(PTR), "{}", e.message);
            e.message
        }
        Ok(s) => panic!("{dt} {text}: expected an error, got {s:?}"),
    }
}
fn fmt_of(dt: DataType) -> FloatFormat {
    dt.float().unwrap()
}

use zarr_scale_offset_core::test_rng::Rng;

/// Our table-free shortest writer agrees with Rust's `{:?}` (Grisu/Dragon) on float64 and
/// float32: random bit patterns, every power of two, the extremes, subnormals, and values
/// with few digits.
#[test]
fn shortest_text_matches_rust_debug() {
    let mut rng = Rng(0x9e37_79b9_7f4a_7c15);
    let mut f64s: Vec<f64> = (0..8_000).map(|_| f64::from_bits(rng.next())).collect();
    let mut f32s: Vec<f32> = (0..8_000)
        .map(|_| f32::from_bits(rng.next() as u32))
        .collect();
    for e in -1074..=1023 {
        f64s.push(2f64.powi(e));
    }
    for e in -149..=127 {
        f32s.push(2f32.powi(e));
    }
    f64s.extend([
        f64::MAX,
        f64::MIN_POSITIVE,
        5e-324,
        1e16,
        1e15,
        1e-4,
        9.999e-5,
        0.1,
        0.3,
    ]);
    f64s.extend([
        123456789012345680.0,
        1e23,
        9007199254740993.0,
        -0.0,
        0.0,
        65504.0,
    ]);
    f32s.extend([
        f32::MAX,
        f32::MIN_POSITIVE,
        1e-45,
        16777217.0,
        0.1,
        3.4e38,
        1e-7,
    ]);
    for i in 0..2000 {
        let x = (rng.below(2_000_001) as f64 - 1e6) * 10f64.powi(rng.range(-30, 30) as i32);
        f64s.push(x);
        f32s.push(x as f32);
        f64s.push(f64::from(i) / 7.0);
    }
    // Where two shortest decimals are equally near (an exact tie), Rust rounds the last
    // digit up; we take the even one, as JavaScript's Number#toString and Python's repr do.
    fn agree(ours: &str, rust: &str, back: impl Fn(&str) -> bool) -> bool {
        if ours == rust {
            return true;
        }
        let (o, oe) = ours.split_once('e').unwrap_or((ours, ""));
        let (r, re) = rust.split_once('e').unwrap_or((rust, ""));
        let (o, r) = (o.as_bytes(), r.as_bytes());
        let last_digit = |t: &[u8]| t.iter().rposition(|c| c.is_ascii_digit() && *c != b'0');
        o.len() == r.len()
            && oe == re
            && back(ours)
            && last_digit(o).zip(last_digit(r)).is_some_and(|(i, j)| {
                i == j && o[..i] == r[..i] && o[i] % 2 == 0 && r[i] == o[i] + 1
            })
    }
    let (mut n, mut ties) = (0, 0);
    for x in f64s.into_iter().filter(|x| x.is_finite()) {
        let (ours, rust) = (shortest_text(x, false), format!("{x:?}"));
        let back = |t: &str| t.parse::<f64>().unwrap().to_bits() == x.to_bits();
        assert!(
            agree(&ours, &rust, back),
            "{:#x}: {ours} vs {rust}",
            x.to_bits()
        );
        ties += usize::from(ours != rust);
        n += 1;
    }
    for x in f32s.into_iter().filter(|x| x.is_finite()) {
        let (ours, rust) = (shortest_text(f64::from(x), true), format!("{x:?}"));
        let back = |t: &str| t.parse::<f32>().unwrap().to_bits() == x.to_bits();
        assert!(
            agree(&ours, &rust, back),
            "{:#x}: {ours} vs {rust}",
            x.to_bits()
        );
        ties += usize::from(ours != rust);
        n += 1;
    }
    assert!(n > 20_000, "{n}");
    assert!(ties < n / 100, "{ties} ties of {n}");
    assert_eq!(
        shortest_text(f64::from_bits(0x4317_9085_685d_83c9), false),
        "1658206780088562.2"
    );
    assert_eq!(shortest_text(f64::NAN, false), "NaN");
    assert_eq!(shortest_text(f64::NEG_INFINITY, true), "-Infinity");
}

// ---------------------------------------------------------------- integers

#[test]
fn every_small_int_value() {
    for dt in [Int2, Int4, Int8, UInt2, UInt4, UInt8] {
        let (lo, hi): (i64, i64) = match dt {
            Int2 => (-2, 1),
            Int4 => (-8, 7),
            Int8 => (-128, 127),
            UInt2 => (0, 3),
            UInt4 => (0, 15),
            _ => (0, 255),
        };
        for v in lo..=hi {
            let want = if lo < 0 { v as u64 } else { v as u64 & 0xff };
            assert_eq!(strict(dt, &v.to_string()), want, "{dt} {v}");
            assert_eq!(write_scalar(dt, want), v.to_string());
        }
        for v in [lo - 1, hi + 1] {
            let m = rejected(dt, &v.to_string());
            assert!(m.contains("out of range"), "{m}");
        }
    }
}

#[test]
fn wide_int_extremes() {
    assert_eq!(strict(Int64, "-9223372036854775808"), 0x8000_0000_0000_0000);
    assert_eq!(strict(Int64, "9223372036854775807"), 0x7fff_ffff_ffff_ffff);
    assert_eq!(strict(Int64, "-1"), u64::MAX);
    assert_eq!(strict(Int64, "9007199254740993"), 9007199254740993);
    assert_eq!(strict(UInt64, "18446744073709551615"), u64::MAX);
    assert_eq!(strict(UInt64, "9007199254740993"), 9007199254740993);
    assert_eq!(strict(Int32, "-2147483648"), (-2147483648i64) as u64);
    assert_eq!(strict(UInt32, "4294967295"), 4294967295);
    assert_eq!(strict(Int16, "-32768"), (-32768i64) as u64);
    assert_eq!(strict(UInt16, "65535"), 65535);
    assert_eq!(strict(Int8, "-0"), 0);
    for (dt, t) in [
        (UInt64, "18446744073709551616"),
        (UInt64, "-1"),
        (Int64, "9223372036854775808"),
        (Int64, "-9223372036854775809"),
        (Int32, "2147483648"),
        (UInt32, "4294967296"),
        (Int16, "-32769"),
        (UInt16, "65536"),
        (UInt64, "100000000000000000000000000000000000000000"),
    ] {
        assert!(rejected(dt, t).contains("out of range"), "{dt} {t}");
    }
    assert_eq!(
        write_scalar(Int64, 0x8000_0000_0000_0000),
        "-9223372036854775808"
    );
    assert_eq!(write_scalar(UInt64, u64::MAX), "18446744073709551615");
    assert_eq!(write_scalar(Int32, u64::MAX), "-1");
    // Hostile sizes are bounded.
    let t0 = Instant::now();
    assert!(rejected(Int64, "1e400").contains("out of range"));
    assert!(rejected(Int64, "1e999999999999999999999").contains("out of range"));
    assert!(rejected(Int64, "1e-999999999999999999999").contains("not an integer"));
    let huge = format!("1{}", "0".repeat(1 << 20));
    assert!(rejected(UInt64, &huge).contains("out of range"));
    assert!(t0.elapsed() < Duration::from_secs(2));
}

#[test]
fn int_lenient_forms() {
    let (v, why) = lenient(Int32, "1000.0");
    assert_eq!(v, 1000);
    assert_eq!(
        why,
        "integral float 1000.0 for an integer data type; write 1000"
    );
    assert_eq!(lenient(Int32, "1e3").0, 1000);
    assert_eq!(lenient(Int32, "1E+3").0, 1000);
    assert_eq!(lenient(Int32, "12.5e1").0, 125);
    assert_eq!(lenient(Int32, "-0.0").0, 0);
    assert_eq!(lenient(Int8, "-1.0").0, u64::MAX);
    assert_eq!(lenient(UInt64, "1.8446744073709551615e19").0, u64::MAX);
    let (v, why) = lenient(Int32, "\"12\"");
    assert_eq!(v, 12);
    assert_eq!(why, "integer as a string \"12\"; write 12");
    assert_eq!(lenient(Int8, "\"-3\"").0, (-3i64) as u64);
    assert_eq!(lenient(UInt64, "\"18446744073709551615\"").0, u64::MAX);
    assert!(rejected(UInt8, "\"256\"").contains("out of range"));
    assert!(rejected(UInt8, "256.0").contains("out of range"));
    assert!(rejected(Int32, "1.25e1").contains("not an integer"));
}

#[test]
fn int_rejections_and_messages() {
    let e = parse_scalar(
        Int32,
        &Json::Number("1.5".into()),
        "/codecs/0/configuration/offset",
    )
    .unwrap_err();
    assert_eq!(e.code, ErrorCode::InvalidMetadata);
    assert_eq!(e.message, "/codecs/0/configuration/offset: 1.5 is not an integer; int32 offset must be a JSON integer");
    let e = parse_scalar(
        UInt16,
        &Json::Number("70000".into()),
        "/codecs/0/configuration/offset",
    )
    .unwrap_err();
    assert_eq!(
        e.message,
        "/codecs/0/configuration/offset: 70000 is out of range for uint16 (0 to 65535)"
    );
    let e = parse_scalar(Int8, &Json::Array(vec![]), "/x/encode/0/1").unwrap_err();
    assert_eq!(
        e.message,
        "/x/encode/0/1: expected a JSON integer for int8 value, found an array"
    );
    for t in [
        "\"NaN\"",
        "\"Infinity\"",
        "\"-Infinity\"",
        "\"nan\"",
        "\"inf\"",
    ] {
        assert!(rejected(Int16, t).contains("no NaN or infinity"), "{t}");
    }
    assert!(rejected(Int32, "\"0x00000001\"").contains("hex strings are only permitted for float"));
    for t in [
        "0.5", "1.5", "-0.5", "1e-1", "\"1.5\"", "\"abc\"", "\"\"", "\" 1\"", "true", "null",
        "[1]", "{}",
    ] {
        rejected(Int32, t);
    }
    // Invalid JSON text is invalid_json, not invalid_metadata.
    assert_eq!(p(Int32, "01").unwrap_err().code, ErrorCode::InvalidJson);
    // A hand-built Number with non-JSON text is rejected.
    assert!(parse_scalar(Int32, &Json::Number("+1".into()), PTR).is_err());
    assert!(parse_scalar(Float32, &Json::Number("1.".into()), PTR).is_err());
    // Long values are cut in messages.
    let m = rejected(Int8, &format!("0.{}1", "0".repeat(10_000)));
    assert!(m.len() < 200, "{m}");
}

// ---------------------------------------------------------------- float32 / float64

/// A random decimal string in JSON syntax: 1..=max_digits significant digits, decimal
/// exponent of the first digit in [lo, hi], in one of three layouts.
fn random_decimal(r: &mut Rng, max_digits: u64, lo: i64, hi: i64) -> String {
    let n = 1 + r.below(max_digits) as usize;
    let mut digits = String::new();
    digits.push(char::from(b'1' + r.below(9) as u8));
    for _ in 1..n {
        digits.push(char::from(b'0' + r.below(10) as u8));
    }
    let e = r.range(lo, hi);
    let sign = if r.below(2) == 0 { "" } else { "-" };
    match r.below(3) {
        0 => {
            let (a, b) = digits.split_at(1);
            if b.is_empty() {
                format!("{sign}{a}e{e}")
            } else {
                format!("{sign}{a}.{b}e{e}")
            }
        }
        1 => format!("{sign}{digits}E{}", e - (n as i64 - 1)),
        _ => {
            // Positional when the exponent is modest.
            let e = e.clamp(-30, 30);
            if e >= 0 {
                let int_len = e as usize + 1;
                if n > int_len {
                    format!("{sign}{}.{}", &digits[..int_len], &digits[int_len..])
                } else {
                    format!("{sign}{digits}{}", "0".repeat(int_len - n))
                }
            } else {
                format!("{sign}0.{}{digits}", "0".repeat((-e - 1) as usize))
            }
        }
    }
}

#[test]
fn float32_random_vs_std() {
    let mut r = Rng(0x9e37_79b9_7f4a_7c15);
    for i in 0..40_000 {
        let t = if i % 2 == 0 {
            random_decimal(&mut r, 25, -50, 40)
        } else {
            // Near an f32 (incl. subnormals and the top of the range), few to many digits.
            let x = f32::from_bits(r.next() as u32 & 0x7f7f_ffff);
            let s = format!("{:.*e}", r.below(25) as usize, x);
            if r.below(2) == 0 {
                s
            } else {
                format!("-{s}")
            }
        };
        let want = t.parse::<f32>().unwrap().to_bits() as u64;
        assert_eq!(strict(Float32, &t), want, "{t}");
    }
}

#[test]
fn float64_random_vs_std() {
    let mut r = Rng(0x2545_f491_4f6c_dd1d);
    for i in 0..40_000 {
        let t = if i % 2 == 0 {
            random_decimal(&mut r, 25, -345, 310)
        } else {
            let x = f64::from_bits(r.next() & 0x7fef_ffff_ffff_ffff);
            let s = format!("{:.*e}", r.below(25) as usize, x);
            if r.below(2) == 0 {
                s
            } else {
                format!("-{s}")
            }
        };
        let want = t.parse::<f64>().unwrap().to_bits();
        assert_eq!(strict(Float64, &t), want, "{t}");
    }
}

/// The exact decimal expansion of an f64 as "d.ddd…e±x" (no trailing zeros).
fn exact(x: f64, prec: usize) -> String {
    let s = format!("{:.*e}", prec, x);
    let (m, e) = s.split_once('e').unwrap();
    assert!(
        m.ends_with("0000000000"),
        "precision {prec} too small for {x:e}"
    );
    let m = m.trim_end_matches('0').trim_end_matches('.');
    format!("{m}e{e}")
}

/// Exact sum of two positive decimals in "d.ddde±x" form, as "DIGITSe±x".
fn add_dec(a: &str, b: &str) -> String {
    fn split(s: &str) -> (Vec<u8>, i64) {
        let (m, e) = s.split_once('e').unwrap();
        let frac = m.split_once('.').map_or(0, |(_, f)| f.len()) as i64;
        let digits: Vec<u8> = m
            .bytes()
            .filter(|b| b.is_ascii_digit())
            .map(|b| b - b'0')
            .collect();
        (digits, e.parse::<i64>().unwrap() - frac)
    }
    let (mut da, ea) = split(a);
    let (mut db, eb) = split(b);
    let e = ea.min(eb);
    da.extend(std::iter::repeat_n(0, (ea - e) as usize));
    db.extend(std::iter::repeat_n(0, (eb - e) as usize));
    let n = da.len().max(db.len()) + 1;
    let mut out = vec![0u8; n];
    let mut carry = 0;
    for i in 0..n {
        let x = da.len().checked_sub(i + 1).map_or(0, |j| da[j]);
        let y = db.len().checked_sub(i + 1).map_or(0, |j| db[j]);
        let s = x + y + carry;
        out[n - 1 - i] = s % 10;
        carry = s / 10;
    }
    let digits: String = out.iter().map(|d| char::from(b'0' + d)).collect();
    let digits = digits.trim_start_matches('0');
    let trimmed = digits.trim_end_matches('0');
    format!("{trimmed}e{}", e + (digits.len() - trimmed.len()) as i64)
}

/// Exact half of a positive decimal "d.ddde±x": times 5, exponent minus one.
fn half_dec(a: &str) -> String {
    let (m, e) = a.split_once('e').unwrap();
    let frac = m.split_once('.').map_or(0, |(_, f)| f.len()) as i64;
    let mut digits: Vec<u8> = m
        .bytes()
        .filter(|b| b.is_ascii_digit())
        .map(|b| b - b'0')
        .collect();
    let mut carry = 0;
    for d in digits.iter_mut().rev() {
        let v = *d * 5 + carry;
        *d = v % 10;
        carry = v / 10;
    }
    let mut s = if carry > 0 {
        carry.to_string()
    } else {
        String::new()
    };
    s.extend(digits.iter().map(|d| char::from(b'0' + d)));
    format!("{s}e{}", e.parse::<i64>().unwrap() - frac - 1)
}

/// A decimal a hair above (in magnitude) an exact decimal "….e±x" / "DIGITSe±x".
fn nudge_up(s: &str) -> String {
    let (m, e) = s.split_once('e').unwrap();
    if m.contains('.') {
        format!("{m}000000000001e{e}")
    } else {
        format!("{m}.000000000001e{e}")
    }
}

/// A decimal a hair below (in magnitude) an exact decimal whose last digit is non-zero.
fn nudge_down(s: &str) -> String {
    let (m, e) = s.split_once('e').unwrap();
    let mut b = m.as_bytes().to_vec();
    let last = b.last_mut().unwrap();
    assert!(*last > b'0', "{s}");
    *last -= 1;
    let m = String::from_utf8(b).unwrap();
    if m.contains('.') {
        format!("{m}999999999999e{e}")
    } else {
        format!("{m}.999999999999e{e}")
    }
}

#[test]
fn helpers_are_exact() {
    assert_eq!(exact(0.5, 20), "5e-1");
    assert_eq!(exact(2f64.powi(-25), 60), "2.98023223876953125e-8");
    assert_eq!(add_dec("1.5e0", "2.5e-1"), "175e-2");
    assert_eq!(half_dec("1.5e0"), "75e-2");
    assert_eq!(half_dec("5e-324"), "25e-325");
    assert_eq!(nudge_up("1.5e0"), "1.5000000000001e0");
    assert_eq!(nudge_down("1.5e0"), "1.4999999999999e0");
    assert_eq!(nudge_down("175e-2"), "174.999999999999e-2");
    assert_eq!(nudge_up("175e-2"), "175.000000000001e-2");
}

#[test]
fn float_hard_cases() {
    // Exactly halfway between 1.0f32 and the next float32: ties to even (1.0).
    let tie = "1.00000005960464477539062500";
    assert_eq!(strict(Float32, tie), 0x3f80_0000);
    assert_eq!(
        strict(
            Float32,
            "1.000000059604644775390625000000000000000000000001"
        ),
        0x3f80_0001
    );
    assert_eq!(
        strict(
            Float32,
            "1.000000059604644775390624999999999999999999999999"
        ),
        0x3f80_0000
    );
    // Double rounding through f64 would give 1.0 here (the f64 nearest is the tie).
    let t = "1.000000059604644775390625000001";
    assert_eq!(t.parse::<f64>().unwrap() as f32, 1.0);
    assert_eq!(strict(Float32, t), 0x3f80_0001);
    assert_eq!(
        strict(Float32, t),
        t.parse::<f32>().unwrap().to_bits() as u64
    );
    // Halfway between 0x3fc00001 (odd) and 0x3fc00002: ties up to the even one.
    assert_eq!(strict(Float32, "1.500000178813934326171875"), 0x3fc0_0002);
    assert_eq!(strict(Float32, "1.500000059604644775390625"), 0x3fc0_0000);
    // Half of the smallest float64 subnormal (2.4703282292062327208…e-324).
    assert_eq!(strict(Float64, "2.4703282292062327e-324"), 0);
    assert_eq!(strict(Float64, "2.4703282292062328e-324"), 1);
    assert_eq!(
        strict(Float64, "-2.4703282292062328e-324"),
        0x8000_0000_0000_0001
    );
    assert_eq!(strict(Float64, "2.4703282292062327208828439643411068618252990130716238221279284125033775363510437593264991818081799618989828234772285886546332835517796989819938739800539093906315035659515570226392290858392449105184435931802849936536152500319370457678249219365623669863658480757001585769269903706311928279558551332927834338409351978015531246597263579574622766465272827220056374006485499977096599470454020828166226237857393450736339007967761930577506740176324673600968951340535537458516661134223766678604162159680461914467291840300530057530849048765391711386591646239524912623653881879636239373280423891018672348497668235089863388587925628302755995657524455507255189313690836254779186948667994968324049705821028513185451396213837722826145437693412532098591327667236328125e-324"), 0);
    // A long digit string (1000 digits) equal to 1 + 2^-53 (the float64 tie after 1.0),
    // then the same plus a 1 at the 1000th digit.
    let tie64 = "1.00000000000000011102230246251565404236316680908203125e0";
    assert_eq!(
        dec_parts(&add_dec("1e0", &exact(2f64.powi(-53), 100))),
        dec_parts(tie64)
    );
    assert_eq!(strict(Float64, tie64), 1f64.to_bits());
    let mut long = tie64.trim_end_matches("e0").to_string();
    long.push_str(&"0".repeat(1000 - long.len()));
    assert_eq!(strict(Float64, &long), 1f64.to_bits());
    long.push('1');
    assert_eq!(strict(Float64, &long), 1f64.to_bits() + 1);
    // A 2000-digit value beyond MAX_DIGITS whose only non-zero tail digit is far away.
    let far = format!("{}{}1", tie64.trim_end_matches("e0"), "0".repeat(2000));
    assert_eq!(strict(Float64, &far), 1f64.to_bits() + 1);
    assert_eq!(far.parse::<f64>().unwrap().to_bits(), 1f64.to_bits() + 1);
    // Extremes, fast.
    let t0 = Instant::now();
    for dt in ALL.iter().copied().filter(|d| d.float().is_some()) {
        let f = fmt_of(dt);
        let big = p(dt, "1e100000");
        let small = p(dt, "1e-100000");
        let huge_exp = p(dt, "1e999999999999999999999999");
        if f.has_inf() {
            assert_eq!(big.unwrap().bits, f.inf_code(), "{dt}");
            assert_eq!(huge_exp.unwrap().bits, f.inf_code(), "{dt}");
            assert_eq!(strict(dt, "-1e100000"), f.inf_code() | f.sign_bit(), "{dt}");
        } else {
            assert!(big.is_err() && huge_exp.is_err(), "{dt}");
        }
        if f.has_zero() {
            assert_eq!(small.unwrap().bits, 0, "{dt}");
            assert_eq!(strict(dt, "1e-999999999999999999999999"), 0, "{dt}");
        } else {
            assert!(small.is_err(), "{dt}");
        }
    }
    let many = format!("1{}", "0".repeat(1 << 20));
    assert_eq!(strict(Float64, &many), f64::INFINITY.to_bits());
    let tiny = format!("0.{}1", "0".repeat(1 << 20));
    assert_eq!(strict(Float64, &tiny), 0);
    let digits = format!("1.{}", "3".repeat(1 << 20));
    assert_eq!(
        strict(Float64, &digits),
        digits.parse::<f64>().unwrap().to_bits()
    );
    assert!(t0.elapsed() < Duration::from_secs(5), "{:?}", t0.elapsed());
}

#[test]
fn float32_and_float64_midpoints_vs_std() {
    let mut r = Rng(0xdead_beef_1234_5678);
    for i in 0..3000 {
        // float32: the midpoint is exact in f64.
        let bits = if i < 20 {
            i as u32
        } else {
            r.next() as u32 & 0x7f7f_fffe
        };
        let a = f32::from_bits(bits) as f64;
        let b = f32::from_bits(bits + 1) as f64;
        let mid = exact((a + b) / 2.0, 200);
        for t in [mid.clone(), nudge_up(&mid), nudge_down(&mid)] {
            let want = t.parse::<f32>().unwrap().to_bits() as u64;
            assert_eq!(strict(Float32, &t), want, "{t}");
        }
        let even = if bits & 1 == 0 { bits } else { bits + 1 };
        assert_eq!(strict(Float32, &mid), even as u64, "{mid}");
        assert_eq!(strict(Float32, &nudge_up(&mid)), bits as u64 + 1);
        assert_eq!(strict(Float32, &nudge_down(&mid)), bits as u64);
        // float64: exact(a) + exact(ulp)/2.
        let bits = if i < 20 {
            i as u64
        } else {
            r.next() & 0x7fef_ffff_ffff_fffe
        };
        let a = f64::from_bits(bits);
        let b = f64::from_bits(bits + 1);
        let mid = add_dec(&exact(a, 1100), &half_dec(&exact(b - a, 1100)));
        for t in [mid.clone(), nudge_up(&mid), nudge_down(&mid)] {
            let want = t.parse::<f64>().unwrap().to_bits();
            assert_eq!(strict(Float64, &t), want, "{t}");
        }
        let even = if bits & 1 == 0 { bits } else { bits + 1 };
        assert_eq!(strict(Float64, &mid), even, "{mid}");
        assert_eq!(strict(Float64, &nudge_up(&mid)), bits + 1);
        assert_eq!(strict(Float64, &nudge_down(&mid)), bits);
    }
    // The overflow thresholds: max + half an ulp ties to infinity.
    let t32 = exact(f32::MAX as f64 + 2f64.powi(103), 100);
    assert_eq!(strict(Float32, &t32), 0x7f80_0000);
    assert_eq!(strict(Float32, &nudge_down(&t32)), 0x7f7f_ffff);
    assert_eq!(strict(Float32, "1e39"), 0x7f80_0000);
    assert_eq!(strict(Float32, "-1e39"), 0xff80_0000);
    let t64 = add_dec(&exact(f64::MAX, 400), &exact(2f64.powi(970), 400));
    assert_eq!(strict(Float64, &t64), 0x7ff0_0000_0000_0000);
    assert_eq!(strict(Float64, &nudge_down(&t64)), f64::MAX.to_bits());
    assert_eq!(strict(Float64, "1e400"), 0x7ff0_0000_0000_0000);
}

// ---------------------------------------------------------------- narrow formats

const NARROW: [DataType; 12] = [
    Float4E2M1FN,
    Float6E2M3FN,
    Float6E3M2FN,
    Float8E3M4,
    Float8E4M3,
    Float8E4M3B11FNUZ,
    Float8E4M3FNUZ,
    Float8E5M2,
    Float8E5M2FNUZ,
    Float8E8M0FNU,
    BFloat16,
    Float16,
];

/// An exact oracle for a format of at most 16 bits, built only from `decode` and exact
/// decimal expansions: the positive finite values in order and the midpoints between them.
struct Oracle {
    fmt: FloatFormat,
    /// (value, code), ascending, positive side (incl. +0 where the format has a zero).
    vals: Vec<(f64, u64)>,
    /// Exact decimal of the midpoint after vals[i].
    mids: Vec<String>,
    /// The same, as (digits, exponent) for comparisons, and as f64 (exact).
    mids_p: Vec<(Vec<u8>, i64)>,
    mids_f: Vec<f64>,
    /// Exact decimal of the overflow threshold (max + half an ulp), parsed, and as f64.
    threshold: String,
    threshold_p: (Vec<u8>, i64),
    threshold_f: f64,
}

/// (digits, exponent of the last digit) of a positive decimal "d.ddde±x" / "DIGITSe±x".
fn dec_parts(s: &str) -> (Vec<u8>, i64) {
    let (m, e) = s.split_once(['e', 'E']).unwrap_or((s, "0"));
    let frac = m.split_once('.').map_or(0, |(_, f)| f.len()) as i64;
    let digits: Vec<u8> = m
        .bytes()
        .filter(|b| b.is_ascii_digit())
        .map(|b| b - b'0')
        .collect();
    let lead = digits.iter().take_while(|&&d| d == 0).count();
    let mut digits = digits[lead..].to_vec();
    let mut exp = e.parse::<i64>().unwrap() - frac;
    while digits.last() == Some(&0) {
        digits.pop();
        exp += 1;
    }
    (digits, exp)
}

/// Exact comparison of two non-negative decimals given as `dec_parts`.
fn cmp_parts(a: &(Vec<u8>, i64), b: &(Vec<u8>, i64)) -> Ordering {
    let ((da, ea), (db, eb)) = (a, b);
    match (da.is_empty(), db.is_empty()) {
        (true, true) => return Ordering::Equal,
        (true, false) => return Ordering::Less,
        (false, true) => return Ordering::Greater,
        _ => {}
    }
    let (ta, tb) = (da.len() as i64 + ea, db.len() as i64 + eb);
    if ta != tb {
        return ta.cmp(&tb);
    }
    let n = da.len().max(db.len());
    for i in 0..n {
        let x = da.get(i).copied().unwrap_or(0);
        let y = db.get(i).copied().unwrap_or(0);
        if x != y {
            return x.cmp(&y);
        }
    }
    Ordering::Equal
}

#[test]
fn cmp_parts_is_exact() {
    let c = |a: &str, b: &str| cmp_parts(&dec_parts(a), &dec_parts(b));
    assert_eq!(c("1e0", "1.000e0"), Ordering::Equal);
    assert_eq!(c("10e-1", "1"), Ordering::Equal);
    assert_eq!(c("0.5", "5e-1"), Ordering::Equal);
    assert_eq!(c("1.0000000000000000000001", "1"), Ordering::Greater);
    assert_eq!(c("0.9999999999999999999999", "1"), Ordering::Less);
    assert_eq!(c("9e-1", "1e0"), Ordering::Less);
    assert_eq!(c("0", "1e-400"), Ordering::Less);
    assert_eq!(c("123e2", "12300"), Ordering::Equal);
    assert_eq!(c("12301", "123e2"), Ordering::Greater);
}

impl Oracle {
    fn new(dt: DataType) -> Oracle {
        let fmt = fmt_of(dt);
        let mut vals: Vec<(f64, u64)> = (0..(1u64 << fmt.bits))
            .map(|c| (fmt.decode(c), c))
            .filter(|(v, _)| v.is_finite() && *v >= 0.0 && !(*v == 0.0 && v.is_sign_negative()))
            .collect();
        vals.sort_by(|a, b| a.0.partial_cmp(&b.0).unwrap());
        let mids_f: Vec<f64> = vals.windows(2).map(|w| (w[0].0 + w[1].0) / 2.0).collect();
        let mids: Vec<String> = mids_f.iter().map(|&m| exact(m, 130)).collect();
        let mids_p = mids.iter().map(|m| dec_parts(m)).collect();
        let (max, _) = *vals.last().unwrap();
        let e = (max.to_bits() >> 52) as i32 - 1023;
        let half_ulp = 2f64.powi(e - fmt.man_bits as i32 - 1);
        let threshold_f = max + half_ulp;
        let threshold = exact(threshold_f, 130);
        let threshold_p = dec_parts(&threshold);
        Oracle {
            fmt,
            vals,
            mids,
            mids_p,
            mids_f,
            threshold,
            threshold_p,
            threshold_f,
        }
    }

    fn even_of(&self, i: usize) -> u64 {
        let (lo, hi) = (self.vals[i].1, self.vals[i + 1].1);
        if self.fmt.man_bits == 0 {
            hi // float8_e8m0fnu: both significands are 1; ties go up (ml_dtypes: 3.0 -> 4.0).
        } else if lo & 1 == 0 {
            lo
        } else {
            hi
        }
    }

    /// The code of a positive decimal under round-half-to-even, None on overflow.
    /// (For e8m0fnu only values from 2^-127 on.)
    fn round_pos(&self, x: &str) -> Option<u64> {
        let x = dec_parts(x);
        if cmp_parts(&x, &self.threshold_p) != Ordering::Less {
            return None;
        }
        // First midpoint >= x.
        let i = self
            .mids_p
            .partition_point(|m| cmp_parts(m, &x) == Ordering::Less);
        if i < self.mids_p.len() && cmp_parts(&self.mids_p[i], &x) == Ordering::Equal {
            return Some(self.even_of(i));
        }
        Some(self.vals[i].1)
    }

    /// As `round_pos`, for a positive f64 (compared exactly with the f64 midpoints).
    fn round_pos_f64(&self, x: f64) -> Option<u64> {
        if x >= self.threshold_f {
            return None;
        }
        let i = self.mids_f.partition_point(|&m| m < x);
        if i < self.mids_f.len() && self.mids_f[i] == x {
            return Some(self.even_of(i));
        }
        Some(self.vals[i].1)
    }

    fn negate(&self, c: u64) -> u64 {
        if c == 0 {
            if self.fmt.has_neg_zero() {
                self.fmt.sign_bit()
            } else {
                0
            }
        } else {
            c | self.fmt.sign_bit()
        }
    }

    /// As `round_pos`, for a signed decimal.
    fn round(&self, x: &str) -> Option<u64> {
        match x.strip_prefix('-') {
            None => self.round_pos(x),
            Some(m) => self.round_pos(m).map(|c| self.negate(c)),
        }
    }

    /// As `round_pos_f64`, for a signed f64.
    fn round_f64(&self, x: f64) -> Option<u64> {
        if x < 0.0 {
            self.round_pos_f64(-x).map(|c| self.negate(c))
        } else {
            self.round_pos_f64(x)
        }
    }
}

/// `parse_scalar` of a decimal for a narrow format, as an Option (None: an error).
fn parse_code(dt: DataType, t: &str) -> Option<u64> {
    match p(dt, t) {
        Ok(s) => {
            assert!(s.lenient.is_none(), "{t}");
            Some(s.bits)
        }
        Err(e) => {
            assert_eq!(e.code, ErrorCode::InvalidMetadata);
            None
        }
    }
}

/// The expected result of parsing `t`: the oracle's code, with overflow mapped to ±Inf
/// for formats with infinities and to an error otherwise.
fn expected(o: &Oracle, t: &str) -> Option<u64> {
    match o.round(t) {
        Some(c) => Some(c),
        None if o.fmt.has_inf() => Some(
            o.fmt.inf_code()
                | if t.starts_with('-') {
                    o.fmt.sign_bit()
                } else {
                    0
                },
        ),
        None => None,
    }
}

#[test]
fn narrow_midpoints_ties_and_nudges() {
    for dt in NARROW {
        let o = Oracle::new(dt);
        let f = o.fmt;
        for i in 0..o.mids.len() {
            let mid = &o.mids[i];
            let (lo, hi) = (o.vals[i].1, o.vals[i + 1].1);
            let tie = o.even_of(i);
            // Independent of the oracle's search: the tie, and a hair either side.
            assert_eq!(parse_code(dt, mid), Some(tie), "{dt} mid {mid}");
            assert_eq!(parse_code(dt, &nudge_up(mid)), Some(hi), "{dt} above {mid}");
            assert_eq!(
                parse_code(dt, &nudge_down(mid)),
                Some(lo),
                "{dt} below {mid}"
            );
            // The negative side mirrors the positive one: every pair for the 8-bit and
            // narrower formats, every 8th pair (and the pairs at zero) for the 16-bit ones.
            if f.signed && (f.bits <= 8 || i % 8 == 0 || i < 4) {
                let neg = |c: u64| {
                    if c == 0 {
                        if f.has_neg_zero() {
                            f.sign_bit()
                        } else {
                            0
                        }
                    } else {
                        c | f.sign_bit()
                    }
                };
                assert_eq!(
                    parse_code(dt, &format!("-{mid}")),
                    Some(neg(tie)),
                    "{dt} -mid {mid}"
                );
                assert_eq!(
                    parse_code(dt, &format!("-{}", nudge_up(mid))),
                    Some(neg(hi))
                );
                assert_eq!(
                    parse_code(dt, &format!("-{}", nudge_down(mid))),
                    Some(neg(lo))
                );
            }
        }
        // The overflow threshold ties away from the (odd) largest finite value.
        let max = o.vals.last().unwrap().1;
        let over = if f.has_inf() {
            Some(f.inf_code())
        } else {
            None
        };
        assert_eq!(parse_code(dt, &o.threshold), over, "{dt} threshold");
        assert_eq!(parse_code(dt, &nudge_up(&o.threshold)), over, "{dt}");
        assert_eq!(parse_code(dt, &nudge_down(&o.threshold)), Some(max), "{dt}");
    }
}

#[test]
fn narrow_random_decimals_vs_exact_oracle() {
    let mut r = Rng(0x0123_4567_89ab_cdef);
    for dt in NARROW {
        let o = Oracle::new(dt);
        let n = o.vals.len();
        for _ in 0..3000 {
            // A point between two neighbours (or just past the largest value), written with
            // 1..=25 significant digits.
            let i = r.below(n as u64) as usize;
            let lo = o.vals[i].0;
            let hi = o.vals.get(i + 1).map_or(lo * 1.2, |v| v.0);
            let x = lo + (hi - lo) * (r.below(1 << 20) as f64 / (1 << 20) as f64);
            if x == 0.0 || (dt == Float8E8M0FNU && x < lo) {
                continue;
            }
            let mut t = format!("{:.*e}", r.below(25) as usize, x);
            if o.fmt.signed && r.below(2) == 0 {
                t.insert(0, '-');
            }
            assert_eq!(parse_code(dt, &t), expected(&o, &t), "{dt} {t}");
        }
    }
}

#[test]
fn narrow_every_code_writes_and_reads_back() {
    for dt in NARROW {
        let o = Oracle::new(dt);
        let f = o.fmt;
        for code in 0..(1u64 << f.bits) {
            let text = write_scalar(dt, code);
            let back = p(dt, &text).unwrap_or_else(|e| panic!("{dt} {code:#x} {text}: {e}"));
            assert_eq!(
                back,
                Scalar {
                    bits: code,
                    lenient: None
                },
                "{dt} {code:#x} {text}"
            );
            let v = f.decode(code);
            if v.is_nan() {
                let want = if code == f.canonical_nan {
                    "\"NaN\"".to_string()
                } else {
                    format!("\"0x{:0w$x}\"", code, w = 2 * dt.size())
                };
                assert_eq!(text, want);
                continue;
            }
            if v.is_infinite() {
                assert_eq!(
                    text,
                    if v > 0.0 {
                        "\"Infinity\""
                    } else {
                        "\"-Infinity\""
                    }
                );
                continue;
            }
            if v == 0.0 {
                assert_eq!(text, if v.is_sign_negative() { "-0.0" } else { "0.0" });
                continue;
            }
            // The decimal is a JSON number that the exact oracle rounds to this code.
            assert!(
                zarr_scale_offset::internals::json::is_json_number(&text),
                "{text}"
            );
            assert_eq!(o.round(&text), Some(code), "{dt} {code:#x} {text}");
            // Its f64 value lies in the code's rounding interval too.
            let fv: f64 = text.parse().unwrap();
            assert_eq!(o.round_f64(fv), Some(code), "{dt} {code:#x} {text} as f64");
            // Shortest: no decimal with one digit fewer rounds to the code (the nearest
            // such decimal and its neighbours are the only candidates).
            let (digits, _) = dec_parts(text.trim_start_matches('-'));
            if digits.len() > 1 {
                let q = digits.len() - 2;
                let s = format!("{:.*e}", q, v.abs());
                let (m, e) = s.split_once('e').unwrap();
                let m: u64 = m.replace('.', "").parse().unwrap();
                let e: i64 = e.parse().unwrap();
                for c in [m.saturating_sub(1), m, m + 1] {
                    let cand = format!("{}{c}e{}", if v < 0.0 { "-" } else { "" }, e - q as i64);
                    assert_ne!(
                        o.round(&cand),
                        Some(code),
                        "{dt} {code:#x}: {cand} is shorter than {text}"
                    );
                }
            }
            // Integral values end in ".0" unless written with an exponent.
            if v.fract() == 0.0 && !text.contains('e') {
                assert!(text.ends_with(".0"), "{text}");
            }
        }
    }
}

#[test]
fn float32_float64_write_is_shortest_roundtrip() {
    let mut r = Rng(0x5151_5151_abab_abab);
    for _ in 0..20_000 {
        let b32 = r.next() as u32;
        let x = f32::from_bits(b32);
        let text = write_scalar(Float32, b32 as u64);
        assert_eq!(strict(Float32, &text), b32 as u64, "{text}");
        if x.is_finite() {
            assert_eq!(text.parse::<f32>().unwrap().to_bits(), b32);
            assert!(
                zarr_scale_offset::internals::json::is_json_number(&text),
                "{text}"
            );
        }
        let b64 = r.next();
        let text = write_scalar(Float64, b64);
        assert_eq!(strict(Float64, &text), b64, "{text}");
    }
    assert_eq!(write_scalar(Float64, 0.1f64.to_bits()), "0.1");
    assert_eq!(write_scalar(Float64, 1e300f64.to_bits()), "1e300");
    assert_eq!(write_scalar(Float64, 123f64.to_bits()), "123.0");
    assert_eq!(write_scalar(Float64, (-0.0f64).to_bits()), "-0.0");
    assert_eq!(write_scalar(Float64, 5e-324f64.to_bits()), "5e-324");
    assert_eq!(write_scalar(Float64, 1e16f64.to_bits()), "1e16");
    assert_eq!(write_scalar(Float64, 0x7ff8_0000_0000_0000), "\"NaN\"");
    assert_eq!(
        write_scalar(Float64, 0x7ff8_0000_0000_0001),
        "\"0x7ff8000000000001\""
    );
    assert_eq!(
        write_scalar(Float64, 0xfff8_0000_0000_0000),
        "\"0xfff8000000000000\""
    );
    assert_eq!(
        write_scalar(Float64, 0xfff0_0000_0000_0000),
        "\"-Infinity\""
    );
    assert_eq!(write_scalar(Float32, 0.1f32.to_bits() as u64), "0.1");
    assert_eq!(
        write_scalar(Float32, 16777216f32.to_bits() as u64),
        "16777216.0"
    );
    assert_eq!(write_scalar(Float32, 0x7fc0_0000), "\"NaN\"");
    assert_eq!(write_scalar(Float32, 0x7f80_0000), "\"Infinity\"");
    assert_eq!(write_scalar(Float32, 0x7fc0_0001), "\"0x7fc00001\"");
    // Only the low bits count.
    assert_eq!(write_scalar(Float32, 0xffff_ffff_3f80_0000), "1.0");
}

#[test]
fn narrow_write_examples() {
    let cases: &[(DataType, u64, &str)] = &[
        (Float16, 0x3c00, "1.0"),
        (Float16, 0x7bff, "65500.0"), // 65504: [65488, 65520) holds 65500
        (Float16, 0x0001, "6e-8"),
        (Float16, 0x3555, "0.3333"),
        (Float16, 0xc000, "-2.0"),
        (Float16, 0x7e00, "\"NaN\""),
        (Float16, 0x7e01, "\"0x7e01\""),
        (Float16, 0xfe00, "\"0xfe00\""),
        (Float16, 0xfc00, "\"-Infinity\""),
        (BFloat16, 0x3f80, "1.0"),
        (BFloat16, 0x7f7f, "3.39e38"),
        (BFloat16, 0x3dcd, "0.1"),
        (BFloat16, 0x3dce, "0.1006"),
        (Float8E4M3, 0x77, "240.0"),
        (Float8E5M2, 0x7b, "60000.0"), // 57344: [53248, 61440)
        (Float8E4M3FNUZ, 0x7f, "240.0"),
        (Float8E4M3FNUZ, 0x80, "\"NaN\""),
        (Float8E8M0FNU, 0x7f, "1.0"),
        (Float8E8M0FNU, 0xfe, "2e38"), // 2^127: [1.5 × 2^126, 1.5 × 2^127)
        (Float8E8M0FNU, 0x00, "6e-39"),
        (Float8E8M0FNU, 0xff, "\"NaN\""),
        (Float4E2M1FN, 0x1, "0.5"),
        (Float4E2M1FN, 0x7, "6.0"),
        (Float4E2M1FN, 0xf, "-6.0"),
        (Float4E2M1FN, 0x8, "-0.0"),
        (Float6E3M2FN, 0x1f, "28.0"),
        (Float6E2M3FN, 0x01, "0.1"), // 0.125: [0.0625, 0.1875]
        (Float6E2M3FN, 0x03, "0.4"), // 0.375: [0.3125, 0.4375]
        (Float8E3M4, 0x78, "\"NaN\""),
        (Float8E3M4, 0x79, "\"0x79\""),
    ];
    for &(dt, code, want) in cases {
        assert_eq!(write_scalar(dt, code), want, "{dt} {code:#x}");
    }
}

// ---------------------------------------------------------------- specials and hex

/// (dtype, canonical NaN, +Inf, -Inf) from spec.md §4.1/§4.3; None where the format lacks it.
#[allow(clippy::type_complexity)]
const SPECIALS: [(DataType, Option<u64>, Option<(u64, u64)>); 14] = [
    (Float4E2M1FN, None, None),
    (Float6E2M3FN, None, None),
    (Float6E3M2FN, None, None),
    (Float8E3M4, Some(0x78), Some((0x70, 0xf0))),
    (Float8E4M3, Some(0x7c), Some((0x78, 0xf8))),
    (Float8E4M3B11FNUZ, Some(0x80), None),
    (Float8E4M3FNUZ, Some(0x80), None),
    (Float8E5M2, Some(0x7e), Some((0x7c, 0xfc))),
    (Float8E5M2FNUZ, Some(0x80), None),
    (Float8E8M0FNU, Some(0xff), None),
    (BFloat16, Some(0x7fc0), Some((0x7f80, 0xff80))),
    (Float16, Some(0x7e00), Some((0x7c00, 0xfc00))),
    (Float32, Some(0x7fc0_0000), Some((0x7f80_0000, 0xff80_0000))),
    (
        Float64,
        Some(0x7ff8_0000_0000_0000),
        Some((0x7ff0_0000_0000_0000, 0xfff0_0000_0000_0000)),
    ),
];

#[test]
fn special_strings_per_format() {
    for (dt, nan, inf) in SPECIALS {
        match nan {
            Some(c) => {
                assert_eq!(strict(dt, "\"NaN\""), c, "{dt}");
                assert_eq!(write_scalar(dt, c), "\"NaN\"");
                for t in ["\"nan\"", "\"NAN\"", "\"-nan\"", "\"+NaN\""] {
                    let (v, why) = lenient(dt, t);
                    assert_eq!(v, c, "{dt} {t}");
                    assert!(why.contains("write \"NaN\""), "{why}");
                }
            }
            None => {
                for t in ["\"NaN\"", "\"nan\""] {
                    assert!(rejected(dt, t).contains("has no NaN"), "{dt} {t}");
                }
            }
        }
        match inf {
            Some((pos, neg)) => {
                assert_eq!(strict(dt, "\"Infinity\""), pos, "{dt}");
                assert_eq!(strict(dt, "\"-Infinity\""), neg, "{dt}");
                assert_eq!(write_scalar(dt, pos), "\"Infinity\"");
                assert_eq!(write_scalar(dt, neg), "\"-Infinity\"");
                let (v, why) = lenient(dt, "\"+Infinity\"");
                assert_eq!(v, pos);
                assert_eq!(
                    why,
                    "\"+Infinity\" is not a Zarr fill-value string; write \"Infinity\""
                );
                for (t, want) in [
                    ("\"inf\"", pos),
                    ("\"+inf\"", pos),
                    ("\"-inf\"", neg),
                    ("\"INF\"", pos),
                    ("\"-infinity\"", neg),
                    ("\"iNfInItY\"", pos),
                ] {
                    assert_eq!(lenient(dt, t).0, want, "{dt} {t}");
                }
            }
            None => {
                for t in ["\"Infinity\"", "\"-Infinity\"", "\"+Infinity\"", "\"inf\""] {
                    assert!(rejected(dt, t).contains("has no infinities"), "{dt} {t}");
                }
            }
        }
        // Not special spellings at all.
        for t in [
            "\"Inf \"",
            "\" NaN\"",
            "\"nan(1)\"",
            "\"infinit\"",
            "\"NaNa\"",
            "\"\"",
            "\"x\"",
            "\"0x\"",
            "\"0xg0\"",
            "\"-0x01\"",
            "true",
            "null",
            "[1]",
            "{}",
        ] {
            rejected(dt, t);
        }
    }
}

#[test]
fn hex_strings() {
    // Full width, either case, payloads kept.
    assert_eq!(strict(Float16, "\"0x7e00\""), 0x7e00);
    assert_eq!(strict(Float16, "\"0x7E00\""), 0x7e00);
    assert_eq!(strict(Float16, "\"0x3C00\""), 0x3c00);
    assert_eq!(strict(Float32, "\"0x7fc00001\""), 0x7fc0_0001);
    assert_eq!(strict(Float32, "\"0xFFFFFFFF\""), 0xffff_ffff);
    assert_eq!(
        strict(Float64, "\"0x7ff8000000000001\""),
        0x7ff8_0000_0000_0001
    );
    assert_eq!(
        strict(Float64, "\"0x8000000000000000\""),
        0x8000_0000_0000_0000
    );
    assert_eq!(strict(BFloat16, "\"0x7fc0\""), 0x7fc0);
    assert_eq!(strict(Float8E8M0FNU, "\"0xFF\""), 0xff);
    assert_eq!(strict(Float8E4M3FNUZ, "\"0x80\""), 0x80);
    assert_eq!(strict(Float4E2M1FN, "\"0x0f\""), 0xf);
    assert_eq!(strict(Float4E2M1FN, "\"0x08\""), 0x8);
    assert_eq!(strict(Float6E2M3FN, "\"0x3f\""), 0x3f);
    assert_eq!(strict(Float6E3M2FN, "\"0x20\""), 0x20);
    // Every code of the 8-bit formats, both cases.
    for dt in NARROW.iter().copied().filter(|d| d.size() == 1) {
        let f = fmt_of(dt);
        for c in 0..=f.mask() {
            assert_eq!(strict(dt, &format!("\"0x{c:02x}\"")), c);
            assert_eq!(strict(dt, &format!("\"0x{c:02X}\"")), c);
        }
        let m = rejected(dt, &format!("\"0x{:02x}\"", f.mask() + 1));
        assert!(m.contains("does not fit"), "{m}");
    }
    // Out of width.
    assert!(rejected(Float4E2M1FN, "\"0x10\"").contains("does not fit"));
    assert!(rejected(Float6E2M3FN, "\"0x40\"").contains("does not fit"));
    assert!(rejected(Float16, "\"0x10000\"").contains("does not fit"));
    assert!(rejected(Float32, "\"0x100000000\"").contains("does not fit"));
    assert!(rejected(Float64, "\"0x10000000000000000\"").contains("does not fit"));
    assert!(rejected(Float64, &format!("\"0x1{}\"", "0".repeat(100))).contains("does not fit"));
    // Other digit counts that fit: lenient.
    let (v, why) = lenient(Float32, "\"0x7fc0\"");
    assert_eq!(v, 0x7fc0);
    assert_eq!(
        why,
        "\"0x7fc0\" has 4 hex digits; float32 hex fill values have 8; write \"0x00007fc0\""
    );
    assert_eq!(lenient(Float16, "\"0x007e00\"").0, 0x7e00);
    assert_eq!(lenient(Float4E2M1FN, "\"0xf\"").0, 0xf);
    assert_eq!(lenient(Float8E4M3, "\"0x0\"").0, 0);
    assert_eq!(
        lenient(Float64, &format!("\"0x{}1\"", "0".repeat(100))).0,
        1
    );
    assert_eq!(lenient(Float16, "\"0X7E00\"").0, 0x7e00);
    // Bad hex.
    for t in [
        "\"0x\"",
        "\"0xg\"",
        "\"0x7e0 \"",
        "\"0x-1\"",
        "\"0x+1\"",
        "\"0x7e.0\"",
    ] {
        assert!(rejected(Float16, t).contains("not a valid hex"), "{t}");
    }
}

#[test]
fn signed_zero_overflow_and_underflow() {
    assert_eq!(strict(Float16, "-0.0"), 0x8000);
    assert_eq!(strict(Float16, "-0"), 0x8000);
    assert_eq!(strict(Float16, "0"), 0);
    assert_eq!(strict(Float16, "-0e10"), 0x8000);
    assert_eq!(strict(Float64, "-0.0"), 0x8000_0000_0000_0000);
    assert_eq!(strict(Float32, "-0.0"), 0x8000_0000);
    assert_eq!(strict(Float4E2M1FN, "-0.0"), 0x8);
    assert_eq!(strict(Float8E4M3FNUZ, "-0.0"), 0);
    assert_eq!(strict(Float8E5M2FNUZ, "-0"), 0);
    assert_eq!(strict(Float8E4M3B11FNUZ, "-1e-30"), 0);
    assert_eq!(strict(Float16, "-1e-30"), 0x8000);
    // e8m0fnu: no zero, no negatives, nothing below 2^-127 (after rounding).
    assert!(rejected(Float8E8M0FNU, "0").contains("no zero"));
    assert!(rejected(Float8E8M0FNU, "-0.0").contains("no zero"));
    assert!(rejected(Float8E8M0FNU, "-1").contains("no negative values"));
    assert!(rejected(Float8E8M0FNU, "-1e400").contains("no negative values"));
    assert!(rejected(Float8E8M0FNU, "1e-50").contains("below the smallest"));
    assert_eq!(strict(Float8E8M0FNU, "1"), 0x7f);
    assert_eq!(strict(Float8E8M0FNU, "3"), 0x81); // the tie 3 = 1.5 × 2 goes up to 4
    assert_eq!(strict(Float8E8M0FNU, "2.9999"), 0x80);
    assert_eq!(
        rejected(Float8E8M0FNU, "1e39"),
        "/fill_value: 1e39 is out of range for float8_e8m0fnu (largest finite magnitude 1.7014118346046923e38; float8_e8m0fnu has no infinities)"
    );
    assert_eq!(
        rejected(Float8E8M0FNU, "1e-50"),
        "/fill_value: 1e-50 is below the smallest float8_e8m0fnu value (5.877471754111438e-39)"
    );
    // Overflow: Inf where the format has it, an error otherwise.
    assert_eq!(strict(Float16, "65520"), 0x7c00);
    assert_eq!(strict(Float16, "65519.999"), 0x7bff);
    assert_eq!(strict(Float16, "-1e10"), 0xfc00);
    assert_eq!(strict(Float8E5M2, "61440"), 0x7c);
    assert_eq!(strict(Float8E5M2, "61439"), 0x7b);
    assert_eq!(strict(BFloat16, "1e39"), 0x7f80);
    let m = rejected(Float4E2M1FN, "7");
    assert_eq!(m, "/fill_value: 7 is out of range for float4_e2m1fn (largest finite magnitude 6.0; float4_e2m1fn has no infinities)");
    assert_eq!(strict(Float4E2M1FN, "6.99"), 0x7);
    assert!(rejected(Float4E2M1FN, "-100").contains("out of range"));
    assert!(rejected(Float8E4M3FNUZ, "248").contains("out of range"));
    assert_eq!(strict(Float8E4M3FNUZ, "247.9"), 0x7f);
    assert!(rejected(Float6E3M2FN, "30").contains("out of range"));
    assert_eq!(strict(Float6E3M2FN, "29.99"), 0x1f);
}

#[test]
fn float_lenient_numbers_in_strings() {
    let (v, why) = lenient(Float32, "\"0.5\"");
    assert_eq!(v, 0x3f00_0000);
    assert_eq!(why, "number as a string \"0.5\"; write 0.5");
    assert_eq!(lenient(Float32, "\"0.1\"").0, 0.1f32.to_bits() as u64);
    assert_eq!(lenient(Float32, "\"+1\"").0, 0x3f80_0000);
    assert_eq!(lenient(Float32, "\".5\"").0, 0x3f00_0000);
    assert_eq!(lenient(Float32, "\"5.\"").0, 0x40a0_0000);
    assert_eq!(lenient(Float32, "\"1e39\"").0, 0x7f80_0000);
    assert_eq!(lenient(Float16, "\"-0.0\"").0, 0x8000);
    let (v, why) = lenient(Float64, "\"1E3\"");
    assert_eq!(v, 1000f64.to_bits());
    assert!(why.ends_with("write 1000.0"), "{why}");
    assert!(rejected(Float4E2M1FN, "\"7\"").contains("out of range"));
    assert!(rejected(Float32, "\"1 \"").contains("strings must be"));
    assert!(rejected(Float32, "\"1_0\"").contains("strings must be"));
    // Wrong JSON kinds name the kind.
    let e = parse_scalar(Float32, &Json::Bool(true), "/codecs/0/configuration/scale").unwrap_err();
    assert_eq!(
        e.message,
        "/codecs/0/configuration/scale: expected a JSON number, \"NaN\", \"Infinity\", \"-Infinity\" or a \"0x…\" hex string for float32 scale, found a boolean"
    );
}

#[test]
fn every_dtype_roundtrips_its_samples() {
    // write_scalar → parse_scalar over a spread of raw codes for every type.
    let mut r = Rng(77);
    for dt in ALL {
        for _ in 0..2000 {
            let raw = r.next();
            let bits = match dt.kind() {
                Kind::Int(f) => f.to_bits(f.from_bits(raw)),
                Kind::Float(f) => raw & f.mask(),
            };
            let text = write_scalar(dt, bits);
            assert_eq!(
                p(dt, &text).unwrap(),
                Scalar {
                    bits,
                    lenient: None
                },
                "{dt} {text}"
            );
        }
    }
}

#[test]
fn parse_scalar_text_errors() {
    assert_eq!(p(Float32, " 1.5 ").unwrap().bits, 1.5f32.to_bits() as u64);
    assert_eq!(p(Float32, "NaN").unwrap_err().code, ErrorCode::InvalidJson);
    assert_eq!(
        p(Float32, "1.5 x").unwrap_err().code,
        ErrorCode::InvalidJson
    );
    assert_eq!(p(Float32, "").unwrap_err().code, ErrorCode::InvalidJson);
    let e = parse_scalar_text(Float16, "[1]", "").unwrap_err();
    assert!(
        e.message.starts_with("(root): expected a JSON number"),
        "{}",
        e.message
    );
    assert!(e.message.contains("float16 value"), "{}", e.message);
}
