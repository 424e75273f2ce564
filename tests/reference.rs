//! Property tests of the public API (`encode`/`decode` with codec JSON, `parse_scalar_text`)
//! against an exact reference model (`tests/reference/`): values of all 26 data types decoded to
//! exact rationals by an independent decoder, every operation computed exactly, then rounded by
//! comparison with the two neighbours on the format's grid. Compared bit for bit (a NaN result
//! may be any NaN code, since the spec does not require payloads), errors by their code.
//!
//! Fixed seeds and bounded case counts: the whole file takes a few seconds in a debug build.
//! The same tests also run as WebAssembly in Node (`wasm-pack test --node`), against the wasm32
//! build's kernels (simd128 included) that the npm package ships.
//! `cargo test --test reference -- --nocapture` prints the number of checks per test.
//!
//! Inputs are drawn to hit the edges: ±0, the smallest and largest subnormals, the smallest
//! normal, the largest finite value, ±Inf, NaN with random payloads and signs, exact ties
//! between two neighbours of the target type and the values one step either side of them, the
//! int64/uint64 extremes and powers of two around 2^53, 2^63 and 2^64, plus uniform random codes.
// Test code may unwrap, index and panic (the workspace lints deny them in the library).
#![allow(clippy::restriction)]

#[path = "reference/big.rs"]
mod big;
#[path = "reference/model.rs"]
mod model;

use big::{Big, Q};
use model::*;
use zarr_scale_offset::internals::json::parse_scalar_text;
use zarr_scale_offset::{decode, encode};

/// As WebAssembly (a debug build in Node) the tests thin out what does not depend on the target
/// (the exhaustive pair loop, decimal parsing, the model's self-check) and keep what does (the
/// long buffers through the SIMD kernels, scale_offset, chains).
const WASM: bool = cfg!(target_arch = "wasm32");

use zarr_scale_offset_core::test_rng::Rng;

fn dt(name: &str) -> Dt {
    *TYPES.iter().find(|d| d.name == name).expect("type")
}

/// A random element of `d`, biased towards the edges.
fn sample(d: &Dt, rng: &mut Rng) -> Raw {
    match d.kind {
        Kind::Int(i) => {
            let (lo, hi) = (i.min(), i.max());
            let span = (hi - lo) as u128 + 1;
            let p = 1i128 << rng.below(i.bits as u64);
            let v = match rng.below(12) {
                0 => lo,
                1 => hi,
                2 => lo + 1,
                3 => hi - 1,
                4 => 0,
                5 => 1,
                6 => -1,
                7 => p + rng.below(3) as i128 - 1,
                8 => -p + rng.below(3) as i128 - 1,
                9 => (1i128 << 53) + rng.below(3) as i128 - 1,
                10 => rng.below(200) as i128 - 100,
                _ => lo + (rng.next() as u128 % span) as i128,
            };
            Raw::Int(v.clamp(lo, hi))
        }
        Kind::Float(f) => {
            let sign = if rng.below(2) == 1 { f.sign_bit() } else { 0 };
            let one = (f.bias as u64) << f.m;
            let code = match rng.below(13) {
                0 => 0,
                1 => 1,
                2 => (1u64 << f.m).saturating_sub(1).max(1),
                3 => 1 << f.m,
                4 => f.max_code(),
                5 => one,
                6 if f.has_inf() => f.inf_code(false),
                7 if f.has_nan() => match f.sp {
                    // NaN with a random payload (quiet or signalling).
                    Specials::Ieee => f.inf_code(false) | (rng.next() & ((1 << f.m) - 1)).max(1),
                    _ => nan_code(&f),
                },
                8 | 9 => {
                    // A moderate magnitude: exponent within ±(bits) of 1.
                    let span = 2 * f.bits() as u64 + 1;
                    let e = (f.bias + rng.below(span) as i64 - f.bits() as i64)
                        .clamp(1, (1 << f.e) - 2) as u64;
                    (e << f.m) | (rng.next() & ((1 << f.m) - 1))
                }
                _ => rng.next() & f.mask(),
            };
            let code = if f.sp == Specials::E8M0 {
                code & 0xff
            } else {
                (code | sign) & f.mask()
            };
            Raw::Code(code)
        }
    }
}

/// A uniformly random element of `d` (any code, any integer of the range).
fn uniform(d: &Dt, rng: &mut Rng) -> Raw {
    match d.kind {
        Kind::Int(i) => {
            let span = (i.max() - i.min()) as u128 + 1;
            Raw::Int(i.min() + (rng.next() as u128 % span) as i128)
        }
        Kind::Float(f) => Raw::Code(rng.next() & f.mask()),
    }
}

/// A random element of `d` within a few binades of |v| (random sign), or any sample when `v` is
/// not a finite non-zero value.
fn near(d: &Dt, v: &Val, rng: &mut Rng) -> Raw {
    let Some(q) = v.q().filter(|q| !q.is_zero()) else {
        return sample(d, rng);
    };
    match d.kind {
        Kind::Int(i) => {
            let x = q.to_i128().unwrap_or(0) + rng.below(9) as i128 - 4;
            Raw::Int(x.clamp(i.min(), i.max()))
        }
        Kind::Float(f) => {
            let e = q.ilog2() + rng.below(5) as i64 - 2;
            let biased = (e + f.bias).clamp(0, (1 << f.e) - 1) as u64;
            let sign = if rng.below(2) == 1 { f.sign_bit() } else { 0 };
            let man = if f.m == 0 {
                0
            } else {
                rng.next() & ((1 << f.m) - 1)
            };
            let code = if f.sp == Specials::E8M0 {
                biased.min(0xfe)
            } else {
                ((biased << f.m) | man | sign).min(f.max_code() | sign)
            };
            Raw::Code(code)
        }
    }
}

/// Elements of `from` at an exact tie between two neighbours of `to` (and one step either side
/// of it), when such elements exist.
fn ties(from: &Dt, to: &Dt, rng: &mut Rng) -> Vec<Raw> {
    let mid: Q = match to.kind {
        Kind::Int(i) => {
            let k = match rng.below(4) {
                0 => i.min() - 1,
                1 => i.max(),
                _ => i.min() + (rng.next() as u128 % ((i.max() - i.min()) as u128 + 1)) as i128,
            };
            Q::int(2 * k + 1).div(&Q::int(2))
        }
        Kind::Float(f) => {
            let neg = f.signed() && rng.below(2) == 1;
            let c = if rng.below(4) == 0 {
                f.max_code()
            } else {
                rng.next() % (f.max_code() + 1)
            };
            let lo = f.decode(c).q().unwrap().abs();
            let hi = if c == f.max_code() {
                // The grid point above the largest finite value (the overflow tie).
                let q = lo.ilog2() - f.m as i64;
                lo.add(&Q::dyadic(false, Big::one(), q))
            } else {
                f.decode(c + 1).q().unwrap().abs()
            };
            let m = lo.add(&hi).div(&Q::int(2));
            if neg {
                m.neg()
            } else {
                m
            }
        }
    };
    let mut out = Vec::new();
    match from.kind {
        Kind::Int(i) => {
            if let Some(v) = mid.to_i128() {
                for d in [-1, 0, 1] {
                    if (i.min()..=i.max()).contains(&(v + d)) {
                        out.push(Raw::Int(v + d));
                    }
                }
            }
        }
        Kind::Float(f) => {
            if let Rounded::Code(c) = round_float(&f, mid.neg, &mid.abs(), Mode::NearestEven) {
                if f.decode(c).same(&Val::Fin(mid.neg, mid.abs())) {
                    out.push(Raw::Code(c));
                    // The neighbours one code away (same sign), when finite.
                    let mag = c & !f.sign_bit();
                    for n in [mag.wrapping_sub(1), mag + 1] {
                        if n <= f.max_code() && (n != 0 || f.has_zero()) {
                            out.push(Raw::Code(n | (c & f.sign_bit())));
                        }
                    }
                }
            }
        }
    }
    out
}

fn bytes_of(d: &Dt, v: &[Raw]) -> Vec<u8> {
    v.iter().flat_map(|r| d.bytes(r)).collect()
}

/// Compares the crate's result over a whole buffer with the model's per-element outcomes:
/// the first failing element's code, or every element bit for bit (any NaN for a NaN).
fn compare(
    what: &str,
    out_dt: &Dt,
    got: Result<Vec<u8>, zarr_scale_offset::Error>,
    want: &[Out],
    input: &[Raw],
) -> Result<(), String> {
    let first_err = want.iter().position(|w| w.is_err());
    match (got, first_err) {
        (Err(e), Some(i)) => {
            let code = want[i].unwrap_err();
            if e.code.as_str() != code {
                return Err(format!(
                    "{what}: element {i} ({:?}): want error {code}, got {} ({e})",
                    input[i],
                    e.code.as_str()
                ));
            }
        }
        (Err(e), None) => {
            return Err(format!("{what}: want success, got {e}; input {input:?}"));
        }
        (Ok(b), Some(i)) => {
            let got_i = out_dt.read(&b[i * out_dt.size()..(i + 1) * out_dt.size()]);
            return Err(format!(
                "{what}: element {i} ({:?}): want error {}, got success ({got_i:?})",
                input[i],
                want[i].unwrap_err()
            ));
        }
        (Ok(b), None) => {
            if b.len() != want.len() * out_dt.size() {
                return Err(format!(
                    "{what}: {} bytes for {} elements",
                    b.len(),
                    want.len()
                ));
            }
            for (i, w) in want.iter().enumerate() {
                let w = w.unwrap();
                let g = out_dt.read(&b[i * out_dt.size()..(i + 1) * out_dt.size()]);
                let both_nan = match (out_dt.kind, g, w) {
                    (Kind::Float(f), Raw::Code(a), Raw::Code(b)) => f.is_nan(a) && f.is_nan(b),
                    _ => false,
                };
                if g != w && !both_nan {
                    return Err(format!(
                        "{what}: element {i} ({:?}): want {w:?}, got {g:?}",
                        input[i]
                    ));
                }
            }
        }
    }
    Ok(())
}

/// Runs a failing case element by element to name the first element that differs.
fn check(
    what: &str,
    out_dt: &Dt,
    run: impl Fn(&[Raw]) -> Result<Vec<u8>, zarr_scale_offset::Error>,
    model: impl Fn(&Raw) -> Out,
    input: &[Raw],
    failures: &mut Vec<String>,
) -> usize {
    let want: Vec<Out> = input.iter().map(&model).collect();
    if let Err(m) = compare(what, out_dt, run(input), &want, input) {
        // Narrow it down to one element.
        let one = input
            .iter()
            .zip(&want)
            .find_map(|(x, w)| {
                compare(
                    what,
                    out_dt,
                    run(std::slice::from_ref(x)),
                    std::slice::from_ref(w),
                    std::slice::from_ref(x),
                )
                .err()
            })
            .unwrap_or(m);
        failures.push(one);
    }
    input.len()
}

fn finish(name: &str, checks: usize, failures: Vec<String>) {
    println!(
        "{name}: {checks} element checks, {} failing cases",
        failures.len()
    );
    if !failures.is_empty() {
        let shown: Vec<&String> = failures.iter().take(12).collect();
        panic!(
            "{name}: {} of the cases differ from the reference model:\n{}",
            failures.len(),
            shown
                .iter()
                .map(|s| s.as_str())
                .collect::<Vec<_>>()
                .join("\n")
        );
    }
}

/// Random scale/offset of a data type (scale never zero: zero is invalid metadata).
fn scalar(d: &Dt, rng: &mut Rng, nonzero: bool) -> Raw {
    loop {
        let r = match (d.kind, rng.below(3)) {
            (Kind::Int(i), 0) => Raw::Int((rng.below(7) as i128 - 3).clamp(i.min(), i.max())),
            (Kind::Float(f), 0) => {
                // Small exact values: ±1, ±2, ±0.5, ±3, 10 (where the format has them).
                let v = *rng.pick(&[
                    1.0f64, 2.0, 0.5, 3.0, -1.0, -2.0, 0.25, 10.0, -0.5, 0.1, 0.01, 1e-4, 273.15,
                    -0.1, 100.0, 0.3,
                ]);
                match round_float(&f, v < 0.0, &q_of_f64(v.abs()), Mode::NearestEven) {
                    Rounded::Code(c) => Raw::Code(c),
                    _ => sample(d, rng),
                }
            }
            _ => sample(d, rng),
        };
        let zero = match d.value(&r) {
            Val::Fin(_, m) => m.is_zero(),
            _ => false,
        };
        if !(nonzero && zero) {
            return r;
        }
    }
}

fn q_of_f64(x: f64) -> Q {
    let b = x.to_bits();
    let e = ((b >> 52) & 0x7ff) as i64;
    let m = b & ((1 << 52) - 1);
    let (m, e) = if e == 0 {
        (m, -1074)
    } else {
        (m | 1 << 52, e - 1075)
    };
    Q::dyadic(x < 0.0, Big::from_u128(m as u128), e)
}

#[cfg_attr(not(target_arch = "wasm32"), test)]
#[cfg_attr(target_arch = "wasm32", wasm_bindgen_test::wasm_bindgen_test)]
fn scale_offset_and_cf_scale_offset_match_the_exact_model() {
    let mut rng = Rng(0x5ca1_e0ff_5e70_0001);
    let mut checks = 0;
    let mut failures = Vec::new();
    for d in TYPES.iter() {
        for cf in [false, true] {
            let name = if cf {
                "cf.scale_offset"
            } else {
                "scale_offset"
            };
            // More configurations for the types with many values.
            let configs = if d.bits() >= 16 { 16 } else { 8 };
            for _ in 0..configs {
                let offset = scalar(d, &mut rng, false);
                let scale = scalar(d, &mut rng, true);
                let codec = format!(
                    r#"{{"name":"{name}","configuration":{{"offset":{},"scale":{}}}}}"#,
                    d.json(&offset),
                    d.json(&scale)
                );
                let (ov, sv) = (d.value(&offset), d.value(&scale));
                // Inputs anywhere, and near the magnitudes where the two operations interact:
                // x near the offset (encode), y near offset x scale (decode).
                let mut input: Vec<Raw> = (0..6).map(|_| sample(d, &mut rng)).collect();
                let os = ieee(&ov, if cf { '/' } else { '*' }, &sv);
                for _ in 0..6 {
                    input.push(near(d, &ov, &mut rng));
                    input.push(near(d, &os, &mut rng));
                }
                for enc in [true, false] {
                    let what = format!(
                        "{} {codec} on {}",
                        if enc { "encode" } else { "decode" },
                        d.name
                    );
                    let run = |x: &[Raw]| {
                        if enc {
                            encode(&codec, d.name, &bytes_of(d, x)).map(|r| r.1)
                        } else {
                            decode(&codec, d.name, &bytes_of(d, x))
                        }
                    };
                    let model = |x: &Raw| scale_offset(d, cf, &ov, &sv, enc, x);
                    checks += check(&what, d, run, model, &input, &mut failures);
                }
            }
        }
    }
    finish("scale_offset + cf.scale_offset", checks, failures);
}

#[cfg_attr(not(target_arch = "wasm32"), test)]
#[cfg_attr(target_arch = "wasm32", wasm_bindgen_test::wasm_bindgen_test)]
fn cast_value_matches_the_exact_model_for_every_pair_mode_and_out_of_range() {
    let mut rng = Rng(0xca57_0a1e_0000_0002);
    let mut checks = 0;
    let mut failures = Vec::new();
    for (fi, from) in TYPES.iter().enumerate() {
        for (ti, to) in TYPES.iter().enumerate() {
            if WASM && (fi * 26 + ti) % 5 != 0 {
                continue;
            }
            for (mode, mode_name) in MODES {
                for (oor, oor_name) in [
                    (Oor::None, None),
                    (Oor::Clamp, Some("clamp")),
                    (Oor::Wrap, Some("wrap")),
                ] {
                    let oor_json =
                        oor_name.map_or(String::new(), |o| format!(r#","out_of_range":"{o}""#));
                    let codec = format!(
                        r#"{{"name":"cast_value","configuration":{{"data_type":"{}","rounding":"{mode_name}"{oor_json}}}}}"#,
                        to.name
                    );
                    if oor == Oor::Wrap && matches!(to.kind, Kind::Float(_)) {
                        // "wrap" is only permitted for integer targets: invalid metadata.
                        let e =
                            encode(&codec, from.name, &[]).expect_err("wrap with a float target");
                        if e.code.as_str() != "invalid_metadata" {
                            failures.push(format!("{codec} from {}: {e}", from.name));
                        }
                        checks += 1;
                        continue;
                    }
                    // Encode: values of `from`, with ties between neighbours of `to`.
                    let mut input: Vec<Raw> = (0..4).map(|_| sample(from, &mut rng)).collect();
                    input.extend(ties(from, to, &mut rng));
                    let what = format!("encode {codec} from {}", from.name);
                    let run =
                        |x: &[Raw]| encode(&codec, from.name, &bytes_of(from, x)).map(|r| r.1);
                    let model = |x: &Raw| cast(from, to, x, mode, oor, &[]);
                    checks += check(&what, to, run, model, &input, &mut failures);
                    // Decode: values of `to` back to `from`.
                    let mut input: Vec<Raw> = (0..3).map(|_| sample(to, &mut rng)).collect();
                    input.extend(ties(to, from, &mut rng));
                    let what = format!("decode {codec} to {}", from.name);
                    let run = |x: &[Raw]| decode(&codec, from.name, &bytes_of(to, x));
                    let model = |x: &Raw| cast(to, from, x, mode, oor, &[]);
                    checks += check(&what, from, run, model, &input, &mut failures);
                }
            }
        }
    }
    finish("cast_value", checks, failures);
}

/// scalar_map first (first duplicate wins, a NaN key matches every NaN, 0 matches -0), then
/// the cast: random maps over random values, plus keys taken from the input itself.
#[cfg_attr(not(target_arch = "wasm32"), test)]
#[cfg_attr(target_arch = "wasm32", wasm_bindgen_test::wasm_bindgen_test)]
fn cast_value_scalar_map_matches_the_model() {
    let mut rng = Rng(0x5ca1_a12d_a700_0003);
    let mut checks = 0;
    let mut failures = Vec::new();
    for _ in 0..400 {
        let from = *rng.pick(&TYPES);
        let to = *rng.pick(&TYPES);
        let (mode, mode_name) = *rng.pick(&MODES);
        let input: Vec<Raw> = (0..10).map(|_| sample(&from, &mut rng)).collect();
        let mut enc_map = Vec::new();
        for _ in 0..rng.below(4) {
            let k = if rng.below(2) == 0 {
                *rng.pick(&input)
            } else {
                sample(&from, &mut rng)
            };
            enc_map.push((k, sample(&to, &mut rng)));
        }
        let pairs = |m: &[(Raw, Raw)], a: &Dt, b: &Dt| {
            m.iter()
                .map(|(k, v)| format!("[{},{}]", a.json(k), b.json(v)))
                .collect::<Vec<_>>()
                .join(",")
        };
        let codec = format!(
            r#"{{"name":"cast_value","configuration":{{"data_type":"{}","rounding":"{mode_name}","out_of_range":"clamp","scalar_map":{{"encode":[{}]}}}}}}"#,
            to.name,
            pairs(&enc_map, &from, &to)
        );
        let map: Vec<(Val, Raw)> = enc_map.iter().map(|(k, v)| (from.value(k), *v)).collect();
        let what = format!("encode {codec} from {}", from.name);
        let run = |x: &[Raw]| encode(&codec, from.name, &bytes_of(&from, x)).map(|r| r.1);
        let model = |x: &Raw| cast(&from, &to, x, mode, Oor::Clamp, &map);
        checks += check(&what, &to, run, model, &input, &mut failures);
    }
    finish("cast_value scalar_map", checks, failures);
}

/// scale_offset then cast_value (the spec's chain), encode and decode: the first codec runs over
/// the whole buffer before the second, so the first error is the first codec's if it has one.
#[cfg_attr(not(target_arch = "wasm32"), test)]
#[cfg_attr(target_arch = "wasm32", wasm_bindgen_test::wasm_bindgen_test)]
fn scale_offset_then_cast_value_chains_match_the_model() {
    let mut rng = Rng(0xc4a1_0000_0000_0004);
    let mut checks = 0;
    let mut failures = Vec::new();
    for _ in 0..300 {
        let d = *rng.pick(&TYPES);
        let to = *rng.pick(&TYPES);
        let (mode, mode_name) = *rng.pick(&MODES);
        let (offset, scale) = (scalar(&d, &mut rng, false), scalar(&d, &mut rng, true));
        let cf = rng.below(2) == 1;
        let codecs = format!(
            r#"[{{"name":"{}","configuration":{{"offset":{},"scale":{}}}}},{{"name":"cast_value","configuration":{{"data_type":"{}","rounding":"{mode_name}","out_of_range":"clamp"}}}}]"#,
            if cf {
                "cf.scale_offset"
            } else {
                "scale_offset"
            },
            d.json(&offset),
            d.json(&scale),
            to.name
        );
        let (ov, sv) = (d.value(&offset), d.value(&scale));
        let input: Vec<Raw> = (0..8).map(|_| sample(&d, &mut rng)).collect();
        let stage1: Vec<Out> = input
            .iter()
            .map(|x| scale_offset(&d, cf, &ov, &sv, true, x))
            .collect();
        let want: Vec<Out> = if let Some(e) = stage1.iter().find(|o| o.is_err()) {
            vec![*e; input.len()]
        } else {
            stage1
                .iter()
                .map(|x| cast(&d, &to, &x.unwrap(), mode, Oor::Clamp, &[]))
                .collect()
        };
        let got = encode(&codecs, d.name, &bytes_of(&d, &input)).map(|r| r.1);
        if let Err(m) = compare(
            &format!("encode {codecs} on {}", d.name),
            &to,
            got,
            &want,
            &input,
        ) {
            failures.push(m);
        }
        checks += input.len();
        // Decode values of `to`.
        let input: Vec<Raw> = (0..8).map(|_| sample(&to, &mut rng)).collect();
        let stage1: Vec<Out> = input
            .iter()
            .map(|x| cast(&to, &d, x, mode, Oor::Clamp, &[]))
            .collect();
        let want: Vec<Out> = if let Some(e) = stage1.iter().find(|o| o.is_err()) {
            vec![*e; input.len()]
        } else {
            stage1
                .iter()
                .map(|x| scale_offset(&d, cf, &ov, &sv, false, &x.unwrap()))
                .collect()
        };
        let got = decode(&codecs, d.name, &bytes_of(&to, &input));
        if let Err(m) = compare(
            &format!("decode {codecs} to {}", d.name),
            &d,
            got,
            &want,
            &input,
        ) {
            failures.push(m);
        }
        checks += input.len();
    }
    finish("scale_offset + cast_value chains", checks, failures);
}

/// Long buffers (past the 1,024-element lookup-table threshold for one-byte sources, several
/// 2,048-element tiles and 256-element blocks), so that the fast paths the package picks for
/// whole chunks (lookup tables, tiled pipelines, the fused [scale_offset, cast_value] decode,
/// SIMD loops) are compared with the model too: `n` elements the model accepts, then the same
/// buffer with one failing element late in it (when the configuration has failing values),
/// whose error code must come back.
fn long_buffer(
    what: &str,
    from: &Dt,
    to: &Dt,
    run: impl Fn(&[Raw]) -> Result<Vec<u8>, zarr_scale_offset::Error>,
    model: impl Fn(&Raw) -> Out,
    rng: &mut Rng,
    failures: &mut Vec<String>,
) -> usize {
    // 160 distinct values the model accepts (and one it rejects), spread over 2,100 to 2,600
    // elements with a stride, so the model runs 160 times and the package over every tile.
    let (mut vals, mut outs, mut bad) = (Vec::new(), Vec::new(), None);
    for _ in 0..640 {
        if vals.len() == 160 {
            break;
        }
        // Half edge values, half uniform ones (edge values are mostly powers of two, on which
        // many wrong formulas happen to agree).
        let x = if rng.below(2) == 0 {
            sample(from, rng)
        } else {
            uniform(from, rng)
        };
        match model(&x) {
            Ok(o) => {
                vals.push(x);
                outs.push(Ok(o));
            }
            Err(e) => bad = bad.or(Some((x, e))),
        }
    }
    if vals.is_empty() {
        return 0;
    }
    let n = 2100 + rng.below(500) as usize;
    let idx: Vec<usize> = (0..n)
        .map(|i| (i * 7 + i / vals.len()) % vals.len())
        .collect();
    let good: Vec<Raw> = idx.iter().map(|&i| vals[i]).collect();
    let want: Vec<Out> = idx.iter().map(|&i| outs[i]).collect();
    if let Err(m) = compare(what, to, run(&good), &want, &good) {
        failures.push(format!("{n} elements: {m}"));
    }
    let mut checks = n;
    if let Some((b, e)) = bad {
        let at = n * 3 / 4;
        let (mut input, mut w) = (good, want);
        input.insert(at, b);
        w.insert(at, Err(e));
        if let Err(m) = compare(what, to, run(&input), &w, &input) {
            failures.push(format!(
                "{} elements, failing one at {at}: {m}",
                input.len()
            ));
        }
        checks += input.len();
    }
    checks
}

#[cfg_attr(not(target_arch = "wasm32"), test)]
#[cfg_attr(target_arch = "wasm32", wasm_bindgen_test::wasm_bindgen_test)]
fn long_buffers_take_the_fast_paths_and_match_the_model() {
    let mut rng = Rng(0x10c6_b0ff_0000_0007);
    let mut checks = 0;
    let mut failures = Vec::new();
    let ne = (Mode::NearestEven, "nearest-even");
    // cast_value pairs the kernels cover (crates/core/src/kernels/cast.rs), one-byte sources (lookup
    // tables) and a few others, each with a rounding mode and out_of_range.
    let pairs: [(&str, &str, (Mode, &str), Oor); 16] = [
        ("float64", "float32", ne, Oor::None),
        ("float32", "float64", ne, Oor::None),
        ("float32", "float16", ne, Oor::Clamp),
        ("float32", "bfloat16", ne, Oor::None),
        ("float32", "float8_e4m3fnuz", ne, Oor::Clamp),
        ("float32", "float6_e2m3fn", ne, Oor::Clamp),
        ("float64", "int16", MODES[4], Oor::Clamp),
        ("float32", "uint8", MODES[1], Oor::Wrap),
        ("float64", "int32", MODES[3], Oor::None),
        ("float32", "int8", MODES[2], Oor::Clamp),
        ("int32", "float32", MODES[1], Oor::None),
        ("int64", "float64", ne, Oor::None),
        ("uint8", "float8_e5m2", MODES[3], Oor::Clamp),
        ("int8", "int4", ne, Oor::Wrap),
        ("uint16", "uint8", ne, Oor::Clamp),
        ("float16", "float32", ne, Oor::None),
    ];
    for (from, to, (mode, mode_name), oor) in pairs {
        let (from, to) = (dt(from), dt(to));
        let oor_json = match oor {
            Oor::None => String::new(),
            Oor::Clamp => r#","out_of_range":"clamp""#.into(),
            Oor::Wrap => r#","out_of_range":"wrap""#.into(),
        };
        let codec = format!(
            r#"{{"name":"cast_value","configuration":{{"data_type":"{}","rounding":"{mode_name}"{oor_json}}}}}"#,
            to.name
        );
        let run = |x: &[Raw]| encode(&codec, from.name, &bytes_of(&from, x)).map(|r| r.1);
        let model = |x: &Raw| cast(&from, &to, x, mode, oor, &[]);
        checks += long_buffer(
            &format!("encode {codec} from {}", from.name),
            &from,
            &to,
            run,
            model,
            &mut rng,
            &mut failures,
        );
        let run = |x: &[Raw]| decode(&codec, from.name, &bytes_of(&to, x));
        let model = |x: &Raw| cast(&to, &from, x, mode, oor, &[]);
        checks += long_buffer(
            &format!("decode {codec} to {}", from.name),
            &to,
            &from,
            run,
            model,
            &mut rng,
            &mut failures,
        );
    }
    // scale_offset alone, and the packed-integer chains (the fused decode for int16/uint16,
    // lookup tables for uint8), with and without a NaN <-> 0 scalar_map.
    for d in [
        "float32", "float64", "int16", "int32", "uint16", "int64", "float16", "uint8",
    ] {
        let d = dt(d);
        for cf in [false, true] {
            let name = if cf {
                "cf.scale_offset"
            } else {
                "scale_offset"
            };
            let (offset, scale) = (scalar(&d, &mut rng, false), scalar(&d, &mut rng, true));
            let codec = format!(
                r#"{{"name":"{name}","configuration":{{"offset":{},"scale":{}}}}}"#,
                d.json(&offset),
                d.json(&scale)
            );
            let (ov, sv) = (d.value(&offset), d.value(&scale));
            for enc in [true, false] {
                let run = |x: &[Raw]| {
                    if enc {
                        encode(&codec, d.name, &bytes_of(&d, x)).map(|r| r.1)
                    } else {
                        decode(&codec, d.name, &bytes_of(&d, x))
                    }
                };
                let model = |x: &Raw| scale_offset(&d, cf, &ov, &sv, enc, x);
                checks += long_buffer(
                    &format!("{name} {enc} {codec} on {}", d.name),
                    &d,
                    &d,
                    run,
                    model,
                    &mut rng,
                    &mut failures,
                );
            }
        }
    }
    for d in ["float32", "float64"] {
        for to in ["int16", "uint16", "uint8", "int8", "int32"] {
            for (cf, map) in [(false, false), (true, true)] {
                let (d, to) = (dt(d), dt(to));
                let (offset, scale) = (scalar(&d, &mut rng, false), scalar(&d, &mut rng, true));
                let sm = if map {
                    r#","scalar_map":{"encode":[["NaN",0]],"decode":[[0,"NaN"]]}"#
                } else {
                    ""
                };
                let codecs = format!(
                    r#"[{{"name":"{}","configuration":{{"offset":{},"scale":{}}}}},{{"name":"cast_value","configuration":{{"data_type":"{}","rounding":"nearest-even","out_of_range":"clamp"{sm}}}}}]"#,
                    if cf {
                        "cf.scale_offset"
                    } else {
                        "scale_offset"
                    },
                    d.json(&offset),
                    d.json(&scale),
                    to.name
                );
                let (ov, sv) = (d.value(&offset), d.value(&scale));
                let nan = Val::Nan;
                let zero = Raw::Int(0);
                let enc_map = if map { vec![(nan, zero)] } else { vec![] };
                let dec_map = if map {
                    vec![(Val::Fin(false, Q::zero()), Raw::Code(nan_code_of(&d)))]
                } else {
                    vec![]
                };
                // Decode: stored integers -> cast -> scale_offset.
                let run = |x: &[Raw]| decode(&codecs, d.name, &bytes_of(&to, x));
                let model = |x: &Raw| {
                    let c = cast(&to, &d, x, Mode::NearestEven, Oor::Clamp, &dec_map)?;
                    scale_offset(&d, cf, &ov, &sv, false, &c)
                };
                checks += long_buffer(
                    &format!("decode {codecs} to {}", d.name),
                    &to,
                    &d,
                    run,
                    model,
                    &mut rng,
                    &mut failures,
                );
                // Encode: floats -> scale_offset -> cast (errors of the first codec come first
                // over the whole buffer, so only all-good buffers compare element by element).
                let run = |x: &[Raw]| encode(&codecs, d.name, &bytes_of(&d, x)).map(|r| r.1);
                let model = |x: &Raw| {
                    let y = scale_offset(&d, cf, &ov, &sv, true, x)?;
                    cast(&d, &to, &y, Mode::NearestEven, Oor::Clamp, &enc_map)
                };
                checks += long_buffer(
                    &format!("encode {codecs} on {}", d.name),
                    &d,
                    &to,
                    run,
                    model,
                    &mut rng,
                    &mut failures,
                );
            }
        }
    }
    finish("long buffers", checks, failures);
}

fn nan_code_of(d: &Dt) -> u64 {
    match d.kind {
        Kind::Float(f) => nan_code(&f),
        Kind::Int(_) => unreachable!(),
    }
}

/// The full decimal expansion of ±|q| for a dyadic q (finite: 2^-k = 5^k / 10^k).
fn decimal(q: &Q) -> String {
    // q = num / 2^k
    let k = q.den.bits() - 1;
    assert_eq!(q.den, Big::pow2(k), "not dyadic");
    let mut five = Big::one();
    for _ in 0..k {
        five = five.mul_small_add(5, 0);
    }
    let digits = q.num.mul(&five).to_decimal();
    let k = k as usize;
    let s = if k == 0 {
        digits
    } else if digits.len() > k {
        format!(
            "{}.{}",
            &digits[..digits.len() - k],
            &digits[digits.len() - k..]
        )
    } else {
        format!("0.{}{}", "0".repeat(k - digits.len()), digits)
    };
    if q.neg {
        format!("-{s}")
    } else {
        s
    }
}

/// Parses a plain decimal (optionally with an exponent) into an exact rational.
fn parse_decimal(s: &str) -> Q {
    let (mant, exp) = match s.split_once('e') {
        Some((m, e)) => (m, e.parse::<i64>().unwrap()),
        None => (s, 0),
    };
    let (neg, mant) = match mant.strip_prefix('-') {
        Some(m) => (true, m),
        None => (false, mant),
    };
    let (int, frac) = mant.split_once('.').unwrap_or((mant, ""));
    let num = format!("{int}{frac}")
        .bytes()
        .fold(Big::zero(), |b, c| b.mul_small_add(10, (c - b'0') as u32));
    let e = exp - frac.len() as i64;
    let q = if e >= 0 {
        Q {
            neg: false,
            num: num.mul(&Big::pow10(e as u64)),
            den: Big::one(),
        }
    } else {
        Q {
            neg: false,
            num,
            den: Big::pow10((-e) as u64),
        }
    };
    if neg {
        q.neg()
    } else {
        q
    }
}

/// Fill-value scalars given as decimal text round half-to-even straight from the text into the
/// format (no double rounding through f64): exact values, exact ties between neighbours, and a
/// tie nudged by one unit in the 40th significant decimal place either way, in plain and
/// exponent notation.
#[cfg_attr(not(target_arch = "wasm32"), test)]
#[cfg_attr(target_arch = "wasm32", wasm_bindgen_test::wasm_bindgen_test)]
fn decimal_scalars_round_half_to_even_from_the_text() {
    let mut rng = Rng(0xdec1_3a10_0000_0005);
    let mut checks = 0;
    let mut failures = Vec::new();
    for d in TYPES.iter() {
        let Kind::Float(f) = d.kind else { continue };
        // The long decimal expansions of float64 (up to 1,074 digits) are slow in a debug build.
        let cases = match (f.bits() == 64, WASM) {
            (true, false) => 6,
            (false, false) => 24,
            (true, true) => 2,
            (false, true) => 6,
        };
        for _ in 0..cases {
            let c = rng.next() % (f.max_code() + 1);
            let lo = f.decode(c).q().unwrap();
            let hi = if c == f.max_code() {
                lo.add(&Q::dyadic(false, Big::one(), lo.ilog2() - f.m as i64))
            } else {
                f.decode(c + 1).q().unwrap()
            };
            let neg = f.signed() && rng.below(2) == 1;
            let tie = lo.add(&hi).div(&Q::int(2));
            let mut texts = vec![decimal(&lo), decimal(&tie)];
            // Nudge the tie: append "…0001" far below the last digit, or subtract it.
            let t = decimal(&tie);
            let t = if t.contains('.') { t } else { format!("{t}.0") };
            texts.push(format!("{t}{}1", "0".repeat(40)));
            if !lo.is_zero() || c > 0 {
                let nudge = Q {
                    neg: false,
                    num: Big::one(),
                    den: Big::pow10(t.len() as u64 + 40),
                };
                texts.push(decimal_fraction(&tie.sub(&nudge), t.len() + 41));
            }
            for text in texts {
                let text = if neg && text != "0" {
                    format!("-{text}")
                } else {
                    text
                };
                // Exponent notation too: move the point.
                let sci = to_sci(&text);
                for s in [text.clone(), sci] {
                    let x = parse_decimal(&s);
                    let want: Result<u64, ()> = match round_float(
                        &f,
                        x.neg || (neg && x.is_zero()),
                        &x.abs(),
                        Mode::NearestEven,
                    ) {
                        Rounded::Code(c) => Ok(c),
                        Rounded::Overflow(n) if f.has_inf() => Ok(f.inf_code(n)),
                        _ => Err(()),
                    };
                    let got = parse_scalar_text(
                        zarr_scale_offset::DataType::from_name(d.name).unwrap(),
                        &s,
                        "",
                    )
                    .map(|s| s.bits & f.mask());
                    checks += 1;
                    if got.as_ref().ok() != want.as_ref().ok() {
                        failures.push(format!("{} {s}: want {want:x?}, got {got:x?}", d.name));
                    }
                }
            }
        }
    }
    finish("decimal scalars", checks, failures);
}

/// A rational with a power-of-ten denominator, as plain decimal text with `places` digits.
fn decimal_fraction(q: &Q, places: usize) -> String {
    let scaled = q
        .num
        .mul(&Big::pow10(places as u64))
        .divmod(&q.den)
        .0
        .to_decimal();
    let s = if scaled.len() > places {
        format!(
            "{}.{}",
            &scaled[..scaled.len() - places],
            &scaled[scaled.len() - places..]
        )
    } else {
        format!("0.{}{}", "0".repeat(places - scaled.len()), scaled)
    };
    if q.neg {
        format!("-{s}")
    } else {
        s
    }
}

/// "123.45" -> "1.2345e2", "0.00123" -> "1.23e-3" (same value).
fn to_sci(s: &str) -> String {
    let (neg, s) = match s.strip_prefix('-') {
        Some(r) => ("-", r),
        None => ("", s),
    };
    let (int, frac) = s.split_once('.').unwrap_or((s, ""));
    let digits = format!("{int}{frac}");
    let Some(first) = digits.find(|c| c != '0') else {
        return format!("{neg}0e5");
    };
    let exp = int.len() as i64 - 1 - first as i64;
    let sig = &digits[first..];
    let rest = if sig.len() > 1 {
        format!(".{}", &sig[1..])
    } else {
        String::new()
    };
    format!("{neg}{}{rest}e{exp}", &sig[..1])
}

/// The model itself: its decoder against native f32/f64 and its rounding of every narrow code's
/// value back to the same code (a self-check, so a failure above is the crate's, not the model's).
#[cfg_attr(not(target_arch = "wasm32"), test)]
#[cfg_attr(target_arch = "wasm32", wasm_bindgen_test::wasm_bindgen_test)]
fn the_model_decodes_and_rounds_consistently() {
    let mut rng = Rng(0x5e1f_0000_0000_0006);
    for _ in 0..if WASM { 100 } else { 600 } {
        let b = rng.next();
        let x = f64::from_bits(b);
        let f = match dt("float64").kind {
            Kind::Float(f) => f,
            _ => unreachable!(),
        };
        match f.decode(b) {
            Val::Nan => assert!(x.is_nan()),
            Val::Inf(n) => assert!(x.is_infinite() && (x < 0.0) == n),
            Val::Fin(n, m) => {
                assert_eq!(n, x.is_sign_negative());
                assert!(m.cmp_abs(&q_of_f64(x.abs())).is_eq());
                assert_eq!(round_float(&f, n, &m, Mode::TowardsZero), Rounded::Code(b));
            }
        }
        let y = f32::from_bits(b as u32);
        let x32 = q_of_f64(y as f64);
        if y.is_finite() {
            let f32f = match dt("float32").kind {
                Kind::Float(f) => f,
                _ => unreachable!(),
            };
            let got = round_float(&f32f, y.is_sign_negative(), &x32.abs(), Mode::NearestEven);
            assert_eq!(got, Rounded::Code(b & 0xffff_ffff));
            // Native f64 -> f32 is nearest-even: the model agrees on random f64 values.
            if x.is_finite() && (x as f32).is_finite() {
                let r = round_float(
                    &f32f,
                    x.is_sign_negative(),
                    &q_of_f64(x.abs()),
                    Mode::NearestEven,
                );
                assert_eq!(r, Rounded::Code((x as f32).to_bits() as u64), "{x:e}");
            }
        }
    }
    for d in TYPES.iter() {
        let Kind::Float(f) = d.kind else { continue };
        if f.bits() > 16 || (WASM && f.bits() > 8) {
            continue;
        }
        // Every code of the 4/6/8-bit formats; 1,000 random codes of the 16-bit ones.
        let codes: Vec<u64> = if f.bits() <= 8 {
            (0..=f.mask()).collect()
        } else {
            (0..1000).map(|_| rng.next() & f.mask()).collect()
        };
        for c in codes {
            if let Val::Fin(n, m) = f.decode(c) {
                let want = if m.is_zero() { f.zero_code(n) } else { c };
                for (mode, _) in MODES {
                    assert_eq!(
                        round_float(&f, n, &m, mode),
                        Rounded::Code(want),
                        "{} {c:#x}",
                        d.name
                    );
                }
            }
        }
    }
}
