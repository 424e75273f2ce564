//! Property tests (fixed seed, bounded case counts) of the rounding core against oracles that do
//! not use it: Rust's native casts (round-to-nearest-even) plus neighbour arithmetic on the raw
//! bits for the directed modes, and, for the narrow formats, the sorted list of every value the
//! format has.
// Test code may unwrap, index and panic (the workspace lints deny them in the library).
#![allow(clippy::restriction)]

use zarr_scale_offset_core::num::{
    decompose_f64, round_to_float, round_to_int, FloatFormat, Rounded, RoundingMode, FORMATS,
};
use RoundingMode::*;

use zarr_scale_offset_core::test_rng::Rng;

/// The expected result of rounding x (strictly between lo and hi, neighbours in the format).
fn pick(mode: RoundingMode, x: f64, lo: f64, hi: f64, lo_even: bool) -> f64 {
    let mid = (lo + hi) / 2.0;
    match mode {
        TowardsPositive => hi,
        TowardsNegative => lo,
        TowardsZero => {
            if x > 0.0 {
                lo
            } else {
                hi
            }
        }
        NearestEven | NearestAway => {
            if x < mid {
                lo
            } else if x > mid {
                hi
            } else if mode == NearestAway {
                if x > 0.0 {
                    hi
                } else {
                    lo
                }
            } else if lo_even {
                lo
            } else {
                hi
            }
        }
    }
}

fn value_of(f: &FloatFormat, r: Rounded) -> Option<f64> {
    match r {
        Rounded::Value { code, .. } => Some(f.decode(code)),
        _ => None,
    }
}

#[test]
fn f64_to_f32_every_mode_matches_neighbour_oracle() {
    let f32f = FORMATS.iter().find(|f| f.name == "float32").unwrap();
    let mut rng = Rng(0x9e37_79b9_7f4a_7c15);
    let mut checked = 0;
    while checked < 300_000 {
        // Values spread over the whole f32 range, subnormals included.
        let e = (rng.next() % 300) as i32 - 160;
        let x = f64::from_bits((rng.next() >> 12) | 0x3ff0_0000_0000_0000) * 2f64.powi(e);
        let x = if rng.next() & 1 == 1 { -x } else { x };
        let n = x as f32;
        if n.is_infinite() || (n as f64) == x {
            continue;
        }
        // Neighbours of x in f32 from the nearest value's bits.
        let other = if (n as f64) < x {
            f32::from_bits(if n >= 0.0 {
                n.to_bits() + 1
            } else {
                n.to_bits() - 1
            })
        } else {
            f32::from_bits(if n > 0.0 {
                n.to_bits() - 1
            } else if n == 0.0 {
                0x8000_0001
            } else {
                n.to_bits() + 1
            })
        };
        if other.is_infinite() {
            continue;
        }
        let (lo, hi) = if (n as f64) < x {
            (n, other)
        } else {
            (other, n)
        };
        let lo_even = lo.to_bits() & 1 == 0;
        let (neg, m, ex) = decompose_f64(x);
        for mode in RoundingMode::ALL {
            let want = pick(mode, x, lo as f64, hi as f64, lo_even);
            let got = value_of(f32f, round_to_float(f32f, neg, m, ex, false, mode));
            assert_eq!(got, Some(want), "{x:e} {mode:?}");
        }
        assert_eq!(
            value_of(f32f, round_to_float(f32f, neg, m, ex, false, NearestEven)),
            Some(n as f64)
        );
        checked += 1;
    }
}

#[test]
fn i64_to_f32_and_f64_every_mode() {
    let f32f = *FORMATS.iter().find(|f| f.name == "float32").unwrap();
    let f64f = *FORMATS.iter().find(|f| f.name == "float64").unwrap();
    let mut rng = Rng(12345);
    for _ in 0..200_000 {
        let v = (rng.next() as i64) >> (rng.next() % 40);
        let neg = v < 0;
        let m = v.unsigned_abs() as u128;
        for (fmt, nearest) in [(f32f, (v as f32) as f64), (f64f, v as f64)] {
            // `as` rounds to nearest-even; its exact integer value tells on which side v is.
            let nv = nearest as i128;
            let vv = v as i128;
            if nv == vv {
                for mode in RoundingMode::ALL {
                    assert_eq!(
                        value_of(&fmt, round_to_float(&fmt, neg, m, 0, false, mode)),
                        Some(nearest)
                    );
                }
                continue;
            }
            let step = |x: f64, up: bool| -> f64 {
                if fmt.bits == 32 {
                    let b = (x as f32).to_bits();
                    let toward_bigger_mag = up == (x > 0.0);
                    f32::from_bits(if toward_bigger_mag { b + 1 } else { b - 1 }) as f64
                } else {
                    let b = x.to_bits();
                    let toward_bigger_mag = up == (x > 0.0);
                    f64::from_bits(if toward_bigger_mag { b + 1 } else { b - 1 })
                }
            };
            let (lo, hi) = if nv < vv {
                (nearest, step(nearest, true))
            } else {
                (step(nearest, false), nearest)
            };
            let lo_even = if fmt.bits == 32 {
                (lo as f32).to_bits() & 1 == 0
            } else {
                lo.to_bits() & 1 == 0
            };
            for mode in RoundingMode::ALL {
                // Compare against the midpoint exactly in integers (lo, hi are integers here).
                let mid2 = lo as i128 + hi as i128; // 2 * midpoint
                let want = match mode {
                    TowardsPositive => hi,
                    TowardsNegative => lo,
                    TowardsZero => {
                        if vv > 0 {
                            lo
                        } else {
                            hi
                        }
                    }
                    _ => {
                        if 2 * vv < mid2 {
                            lo
                        } else if 2 * vv > mid2 {
                            hi
                        } else if mode == NearestAway {
                            if vv > 0 {
                                hi
                            } else {
                                lo
                            }
                        } else if lo_even {
                            lo
                        } else {
                            hi
                        }
                    }
                };
                assert_eq!(
                    value_of(&fmt, round_to_float(&fmt, neg, m, 0, false, mode)),
                    Some(want),
                    "{v} {} {mode:?}",
                    fmt.name
                );
            }
        }
    }
}

#[test]
fn f64_into_every_narrow_format_matches_value_table() {
    let mut rng = Rng(777);
    for f in FORMATS.iter().filter(|f| f.bits <= 16) {
        let mut vals: Vec<(f64, u64)> = (0..(1u64 << f.bits))
            .map(|c| (f.decode(c), c))
            .filter(|(v, _)| v.is_finite() && !(*v == 0.0 && v.is_sign_negative()))
            .collect();
        vals.sort_by(|a, b| a.0.partial_cmp(&b.0).unwrap());
        let (min, max) = (vals[0].0, vals[vals.len() - 1].0);
        for _ in 0..20_000 {
            // A random f64 inside [min, max] (uniform in a random binade of the format's range).
            let i = (rng.next() % (vals.len() as u64 - 1)) as usize;
            let (a, b) = (vals[i].0, vals[i + 1].0);
            let t = (rng.next() >> 11) as f64 / (1u64 << 53) as f64;
            let x = a + (b - a) * t;
            if !(x > a && x < b) {
                continue;
            }
            let (neg, m, e) = decompose_f64(x);
            let lo_even = f.man_bits > 0 && vals[i].1 & 1 == 0;
            for mode in RoundingMode::ALL {
                let want = pick(mode, x, a, b, lo_even);
                assert_eq!(
                    value_of(f, round_to_float(f, neg, m, e, false, mode)),
                    Some(want),
                    "{} {x:e} {mode:?}",
                    f.name
                );
            }
        }
        // Beyond the largest finite value: overflow for nearest modes past the rounding
        // threshold, and for directed modes away from zero.
        let (neg, m, e) = decompose_f64(max * 4.0);
        assert_eq!(
            round_to_float(f, neg, m, e, false, NearestEven),
            Rounded::Overflow { neg: false }
        );
        let (neg, m, e) = decompose_f64(min * 4.0);
        if f.signed {
            assert_eq!(
                round_to_float(f, neg, m, e, false, TowardsNegative),
                Rounded::Overflow { neg: true }
            );
        }
    }
}

#[test]
fn f64_to_int_matches_native_floor_ceil_trunc() {
    let mut rng = Rng(4242);
    for _ in 0..300_000 {
        let e = (rng.next() % 70) as i32 - 10;
        let x = f64::from_bits((rng.next() >> 12) | 0x3ff0_0000_0000_0000) * 2f64.powi(e)
            - 2f64.powi(e);
        let x = if rng.next() & 1 == 1 { -x } else { x };
        if x.abs() >= 2f64.powi(62) {
            continue;
        }
        let (neg, m, ex) = decompose_f64(x);
        let r = |mode| round_to_int(neg, m, ex, false, mode).value().unwrap();
        assert_eq!(r(TowardsZero), x.trunc() as i128);
        assert_eq!(r(TowardsPositive), x.ceil() as i128);
        assert_eq!(r(TowardsNegative), x.floor() as i128);
        assert_eq!(r(NearestEven), x.round_ties_even() as i128);
        // round() is half-away-from-zero and exact for |x| < 2^62 in f64.
        assert_eq!(r(NearestAway), x.round() as i128, "{x:e}");
    }
}
