//! Every kernel against the exact reference it replaces.
//!
//! - Kernel level, element by element: a kernel accepts exactly the values the reference handles
//!   without `out_of_range` (so it is really used), and what it accepts is bit for bit the
//!   reference's result. Exhaustive for 16-bit sources; fixed-seed random values plus every
//!   boundary (ties, range ends, ±0, ±Inf, NaNs, subnormals) for 32- and 64-bit ones; every
//!   rounding mode, every `out_of_range`, and `scalar_map`s with NaN, numeric and duplicate keys.
//! - Codec and chain level, whole buffers: the fast path (kernels, blocks, tiles, lookup tables)
//!   gives the same bytes, or the same error (code and message, element index included), as the
//!   same codec or chain run with `RunOptions::REFERENCE` (every fast path off).
//!
//! They run natively (`cargo test`) and as WebAssembly with simd128 (`wasm-pack test`), so the
//! vectorised wasm code is checked too.

use crate::args::parse_array_codecs;
use crate::chain::ArrayChain;
use crate::codec::scale_offset::Convention;
use crate::codec::{BoundArrayCodec, CastValue, RunOptions, ScaleOffset};
use crate::report::Report;
use zarr_scale_offset_core::cast::same_value;
use zarr_scale_offset_core::direction::Direction;
use zarr_scale_offset_core::dtype::DataType::{self, *};
use zarr_scale_offset_core::error::Result;
use zarr_scale_offset_core::kernels::arith::IntKernel;
use zarr_scale_offset_core::kernels::cast::{f16_to_f32, f32_to_bf16, f32_to_f16, CastKernel};

// The workspace's one test generator (fixed seeds: every run checks the same values).
use zarr_scale_offset_core::test_rng::Rng;

fn cast_value(cfg: &str, from: DataType) -> CastValue {
    let j = crate::json::parse(cfg).unwrap();
    let mut r = Report::default();
    let (c, _) = CastValue::parse(Some(&j), "", from, &mut r);
    r.into_result(c)
        .unwrap_or_else(|e| panic!("{cfg}: {}", e.message))
}

fn scale_offset(conv: Convention, cfg: &str, dtype: DataType) -> ScaleOffset {
    let j = crate::json::parse(cfg).unwrap();
    let mut r = Report::default();
    let c = ScaleOffset::parse(conv, Some(&j), "", dtype, &mut r);
    r.into_result(c)
        .unwrap_or_else(|e| panic!("{cfg}: {}", e.message))
}

const MODES: [&str; 5] = [
    "nearest-even",
    "towards-zero",
    "towards-positive",
    "towards-negative",
    "nearest-away",
];

fn buffer(dtype: DataType, values: &[u64]) -> Vec<u8> {
    let mut b = vec![0u8; values.len() * dtype.size()];
    for (i, &v) in values.iter().enumerate() {
        dtype.write_bits(&mut b, i, v);
    }
    b
}

/// Runs a kernel over `inputs` (raw bits of `src`) in blocks, and element by element inside
/// the blocks it declines: it must accept exactly the inputs marked `ordinary`, and give
/// `want` (the reference's bits) for each. Returns how many inputs it accepted.
fn check_kernel(
    src: DataType,
    dst: DataType,
    inputs: &[u64],
    want: &[Option<u64>],
    ordinary: &[bool],
    run: impl Fn(&[u8], &mut [u8]) -> bool,
    what: &str,
) -> usize {
    let data = buffer(src, inputs);
    let mut out = vec![0u8; inputs.len() * dst.size()];
    let mut accepted = 0;
    for (b, (ib, ob)) in data
        .chunks(zarr_scale_offset_core::kernels::BLOCK * src.size())
        .zip(out.chunks_mut(zarr_scale_offset_core::kernels::BLOCK * dst.size()))
        .enumerate()
    {
        let first = b * zarr_scale_offset_core::kernels::BLOCK;
        let n = ib.len() / src.size();
        let whole = run(ib, ob);
        for i in 0..n {
            let j = first + i;
            let ok = if whole {
                true
            } else {
                run(
                    &ib[i * src.size()..(i + 1) * src.size()],
                    &mut ob[i * dst.size()..(i + 1) * dst.size()],
                )
            };
            assert_eq!(
                ok, ordinary[j],
                "{what}: input {:#x}: kernel accepts {ok}, reference {:?}",
                inputs[j], want[j]
            );
            if ok {
                accepted += 1;
                assert_eq!(
                    Some(dst.read_bits(ob, i)),
                    want[j],
                    "{what}: input {:#x}",
                    inputs[j]
                );
            }
        }
    }
    accepted
}

/// Checks one direction of a cast_value kernel element by element over `inputs` (raw bits of
/// the direction's source type). `strict` is the same configuration without `out_of_range`.
/// Returns how many inputs the kernel accepted.
fn check_cast_kernel(cv: &CastValue, strict: &CastValue, dir: Direction, inputs: &[u64]) -> usize {
    let (src, dst) = dir.order(cv.from(), cv.to());
    let k = match dir {
        Direction::Encode => cv.kernels().0,
        Direction::Decode => cv.kernels().1,
    };
    if !k.is_some() {
        return 0;
    }
    let reference = |c: &CastValue, x: u64| match dir {
        Direction::Encode => c.encode_value(x),
        Direction::Decode => c.decode_value(x),
    };
    let want: Vec<Option<u64>> = inputs.iter().map(|&x| reference(cv, x).ok()).collect();
    let ordinary: Vec<bool> = inputs
        .iter()
        .map(|&x| reference(strict, x).is_ok())
        .collect();
    let what = format!("{src}->{dst} {k:?}");
    check_kernel(
        src,
        dst,
        inputs,
        &want,
        &ordinary,
        |i, o| k.run(i, o),
        &what,
    )
}

/// The codec's whole-buffer encode/decode with kernels equals the reference (bytes or error).
fn check_cast_buffers(cv: &CastValue, dir: Direction, inputs: &[u64]) {
    let enc = dir == Direction::Encode;
    // Block fallback and first errors do not need every value: every 5th.
    let inputs: Vec<u64> = inputs.iter().copied().step_by(5).collect();
    let inputs = &inputs[..];
    let (src, dst) = if enc {
        (cv.from(), cv.to())
    } else {
        (cv.to(), cv.from())
    };
    let (kernels, reference) = (RunOptions::default(), RunOptions::REFERENCE);
    let run = |opts: RunOptions, data: &[u8]| -> Result<Vec<u8>> {
        let mut out = vec![0u8; data.len() / src.size() * dst.size()];
        cv.run(dir, data, &mut out, opts)?;
        Ok(out)
    };
    // Everything (usually an error: the first failing element), and the values that succeed.
    let good: Vec<u64> = inputs
        .iter()
        .copied()
        .filter(|&x| {
            if enc {
                cv.encode_value(x).is_ok()
            } else {
                cv.decode_value(x).is_ok()
            }
        })
        .collect();
    for values in [inputs, &good[..]] {
        let data = buffer(src, values);
        let (a, b) = (run(kernels, &data), run(reference, &data));
        assert_eq!(a, b, "{src}->{dst} enc={enc}: buffer of {}", values.len());
    }
}

fn all16() -> Vec<u64> {
    (0..=0xffffu64).collect()
}

/// f32 values (raw bits) that exercise float -> int casts into every integer range: ties, range
/// ends and their neighbours, ±0, ±Inf, NaNs, subnormals, plus fixed-seed random bit patterns
/// and random values with fractions around the ranges.
fn f32_inputs(r: &mut Rng) -> Vec<u64> {
    let mut v: Vec<f32> = vec![
        0.0,
        -0.0,
        f32::INFINITY,
        f32::NEG_INFINITY,
        f32::NAN,
        -f32::NAN,
        f32::from_bits(0x7f80_0001),
        f32::from_bits(0xffc0_1234),
        f32::MIN_POSITIVE,
        f32::from_bits(1),
        -f32::from_bits(1),
        f32::MAX,
        f32::MIN,
        0.49999997,
        0.5,
        0.50000006,
        1.5,
        2.5,
        -0.5,
        -1.5,
        -2.5,
        8388607.5,
        8388609.0,
        16777216.0,
        1e30,
        -1e30,
    ];
    for b in [8, 16, 32] {
        for edge in [
            -(2f64.powi(b - 1)),
            2f64.powi(b - 1) - 1.0,
            2f64.powi(b) - 1.0,
            2f64.powi(b),
            2f64.powi(b - 1),
        ] {
            for d in [-1.0, -0.75, -0.5, -0.25, 0.0, 0.25, 0.5, 0.75, 1.0] {
                let x = (edge + d) as f32;
                v.extend([
                    x,
                    f32::from_bits(x.to_bits() + 1),
                    f32::from_bits(x.to_bits().wrapping_sub(1)),
                ]);
            }
        }
    }
    for _ in 0..400 {
        v.push(f32::from_bits(r.next() as u32));
        v.push(r.f64_in(-70000.0, 70000.0) as f32);
        v.push((r.f64_in(-300.0, 300.0).round() + 0.5) as f32);
    }
    v.into_iter().map(|x| x.to_bits() as u64).collect()
}

/// f64 values (raw bits), as [`f32_inputs`] plus double-only neighbours.
fn f64_inputs(r: &mut Rng) -> Vec<u64> {
    let mut v: Vec<f64> = f32_inputs(r)
        .into_iter()
        .map(|b| f32::from_bits(b as u32) as f64)
        .collect();
    v.extend([
        0.49999999999999994,
        4503599627370497.0,
        -4503599627370497.5,
        2147483647.5,
        2147483647.4999998,
        -2147483648.5,
        4294967295.5,
        4294967296.0,
        f64::MAX,
        f64::from_bits(1),
        f64::from_bits(0x7ff0_0000_0000_0001),
        -f64::NAN,
    ]);
    for _ in 0..400 {
        v.push(f64::from_bits(r.next()));
        v.push(r.f64_in(-5e9, 5e9));
        let x = r.f64_in(-5e9, 5e9);
        v.push(f64::from_bits(x.to_bits() + (r.next() & 3)) - 0.0);
    }
    v.into_iter().map(f64::to_bits).collect()
}

/// float32/float64 arrays cast to and from every integer type with a kernel: every rounding
/// mode, every out_of_range, scalar maps with a NaN key, a numeric key, a duplicated key, and
/// two keys (no kernel). Integer -> float exhaustively for the 16-bit types.
#[cfg_attr(not(target_arch = "wasm32"), test)]
#[cfg_attr(target_arch = "wasm32", wasm_bindgen_test::wasm_bindgen_test)]
fn cast_int_float_kernels_match_reference() {
    let mut r = Rng::new(1);
    let f32s = f32_inputs(&mut r);
    let f64s = f64_inputs(&mut r);
    let mut checked = 0usize;
    for (float, finputs) in [(Float32, &f32s), (Float64, &f64s)] {
        for int in [Int8, UInt8, Int16, UInt16, Int32, UInt32] {
            let ints: Vec<u64> = match int.bits() {
                8 => (0..256).map(|b| int.read_bits(&[b as u8], 0)).collect(),
                16 => all16(),
                _ => {
                    let f = int.int().unwrap();
                    let mut v: Vec<u64> = (0..2000)
                        .map(|_| f.to_bits(f.from_bits(r.next())))
                        .collect();
                    for x in [
                        f.min(),
                        f.min() + 1,
                        -1,
                        0,
                        1,
                        16777217,
                        f.max() - 1,
                        f.max(),
                    ] {
                        if f.contains(x) {
                            v.push(f.to_bits(x));
                        }
                    }
                    v
                }
            };
            let k = if int.int().unwrap().signed { -7 } else { 7 };
            let maps = [
                String::new(),
                r#","scalar_map":{"encode":[["NaN",3]],"decode":[[3,"NaN"]]}"#.to_string(),
                format!(r#","scalar_map":{{"encode":[[-1.5,{k}]],"decode":[[{k},-0.0]]}}"#),
                r#","scalar_map":{"encode":[["NaN",1],["NaN",2]],"decode":[[0,"Infinity"],[0,1]]}"#
                    .to_string(),
                r#","scalar_map":{"encode":[["NaN",1],[0.5,2]],"decode":[[0,1],[1,0]]}"#
                    .to_string(),
            ];
            for mode in MODES {
                for oor in [
                    "",
                    r#","out_of_range":"clamp""#,
                    r#","out_of_range":"wrap""#,
                ] {
                    for map in &maps {
                        let base = format!(r#"{{"data_type":"{int}","rounding":"{mode}"{map}"#);
                        let cv = cast_value(&format!("{base}{oor}}}"), float);
                        let strict = cast_value(&format!("{base}}}"), float);
                        let two_keys = map.contains("0.5");
                        assert_eq!(cv.kernels().0.is_some(), !two_keys, "{base}{oor} encode");
                        // The kernel does not depend on out_of_range (it declines every value
                        // outside the range): every input once, a quarter for clamp and wrap.
                        let some: Vec<u64> = finputs.iter().copied().step_by(4).collect();
                        let enc_in = if oor.is_empty() {
                            &finputs[..]
                        } else {
                            &some[..]
                        };
                        check_cast_kernel(&cv, &strict, Direction::Encode, enc_in);
                        check_cast_buffers(&cv, Direction::Encode, enc_in);
                        // Decode (int -> float) does not depend on out_of_range; the 16-bit
                        // types are exact in every mode, so the same kernel for every mode:
                        // every value under nearest-even, every 61st value under the others.
                        if oor.is_empty() && int.bits() > 8 {
                            let exact = int.bits() <= if float == Float32 { 24 } else { 53 };
                            let expect = !two_keys && (exact || mode == "nearest-even");
                            assert_eq!(cv.kernels().1.is_some(), expect, "{base} decode");
                            let sub: Vec<u64> = ints.iter().copied().step_by(61).collect();
                            let dec_in = if mode == "nearest-even" {
                                &ints[..]
                            } else {
                                &sub[..]
                            };
                            check_cast_kernel(&cv, &strict, Direction::Decode, dec_in);
                            check_cast_buffers(&cv, Direction::Decode, dec_in);
                        }
                        checked += 1;
                    }
                }
            }
        }
    }
    assert_eq!(checked, 2 * 6 * 5 * 3 * 5);
}

/// float <-> float kernels: float16 / bfloat16 -> float32 over every code, float32 -> float16 /
/// bfloat16 and float64 -> float32 over fixed-seed random bit patterns and every midpoint
/// between neighbouring target values (and one ulp either side), float32 -> float64 over random
/// bits; with and without out_of_range clamp.
#[cfg_attr(not(target_arch = "wasm32"), test)]
#[cfg_attr(target_arch = "wasm32", wasm_bindgen_test::wasm_bindgen_test)]
fn cast_float_kernels_match_reference() {
    let mut r = Rng::new(2);
    let mut f32s: Vec<u64> = (0..40000).map(|_| r.next() & 0xffff_ffff).collect();
    // Midpoints between neighbouring float16 / bfloat16 values, as float32, and neighbours.
    for h in 0..=0x7bffu32 {
        let (a, b) = (f16_to_f32(h as u16) as f64, f16_to_f32(h as u16 + 1) as f64);
        let m = ((a + b) / 2.0) as f32;
        for x in [
            m,
            f32::from_bits(m.to_bits() + 1),
            f32::from_bits(m.to_bits().wrapping_sub(1)),
        ] {
            f32s.extend([x.to_bits() as u64, (-x).to_bits() as u64]);
        }
    }
    for h in (0..=0x7f7fu32).step_by(3) {
        let m = (h << 16) | 0x8000;
        for x in [m, m + 1, m - 1] {
            f32s.extend([x as u64, (x | 0x8000_0000) as u64]);
        }
    }
    f32s.extend([
        0x477f_f000,
        0x477f_efff,
        0x7f7f_8000,
        0x7f7f_7fff,
        0x7f80_0000,
        0x7fc0_0001,
        0xff80_0001,
    ]);
    let mut f64s: Vec<u64> = (0..40000).map(|_| r.next()).collect();
    for _ in 0..20000 {
        // Midpoints between neighbouring float32 values, and one ulp either side.
        let a = f32::from_bits(r.next() as u32 & 0x7f7f_ffff) as f64;
        let b = f32::from_bits((a as f32).to_bits() + 1) as f64;
        let m = (a + b) / 2.0;
        f64s.extend([
            m.to_bits(),
            m.to_bits() + 1,
            m.to_bits() - 1,
            (-m).to_bits(),
        ]);
    }
    f64s.extend([
        (f32::MAX as f64 * (1.0 + 2f64.powi(-25))).to_bits(),
        f64::MAX.to_bits(),
        1e-50f64.to_bits(),
    ]);
    let h16 = all16();
    let mut checked = 0;
    for oor in ["", r#","out_of_range":"clamp""#] {
        for mode in MODES {
            for (array, stored, enc_in, dec_in) in [
                (Float32, Float16, &f32s, &h16),
                (Float32, BFloat16, &f32s, &h16),
                (Float64, Float32, &f64s, &f32s),
            ] {
                let base = format!(r#"{{"data_type":"{stored}","rounding":"{mode}""#);
                let cv = cast_value(&format!("{base}{oor}}}"), array);
                let strict = cast_value(&format!("{base}}}"), array);
                // Narrowing has a kernel for nearest-even only; widening is exact (every mode).
                assert_eq!(
                    cv.kernels().0.is_some(),
                    mode == "nearest-even",
                    "{array}->{stored} {mode}"
                );
                assert!(cv.kernels().1.is_some(), "{stored}->{array} {mode}");
                if mode == "nearest-even" {
                    let n = check_cast_kernel(&cv, &strict, Direction::Encode, enc_in);
                    assert!(n > enc_in.len() / 2, "{array}->{stored}: {n} accepted");
                    check_cast_buffers(&cv, Direction::Encode, enc_in);
                }
                if oor.is_empty() && (mode == "nearest-even" || mode == "towards-zero") {
                    let n = check_cast_kernel(&cv, &strict, Direction::Decode, dec_in);
                    assert_eq!(n, dec_in.len(), "{stored}->{array} accepts everything");
                    check_cast_buffers(&cv, Direction::Decode, dec_in);
                }
                checked += 1;
            }
        }
    }
    assert_eq!(checked, 2 * 5 * 3);
}

/// float32 -> every 4/6/8-bit float with a zero and a sign (nearest-even): every value of the
/// format, every midpoint between neighbours and one float32 ulp either side (signed), the
/// midpoint above the largest value, NaNs, infinities, subnormals and fixed-seed random bits;
/// with and without out_of_range clamp. Other modes and float8_e8m0fnu have no kernel.
#[cfg_attr(not(target_arch = "wasm32"), test)]
#[cfg_attr(target_arch = "wasm32", wasm_bindgen_test::wasm_bindgen_test)]
fn cast_f32_to_narrow_kernels_match_reference() {
    let mut r = Rng::new(5);
    let random: Vec<u64> = (0..6000).map(|_| r.next() & 0xffff_ffff).collect();
    for to in zarr_scale_offset_core::dtype::ALL
        .iter()
        .copied()
        .filter(|d| d.float().is_some_and(|f| f.bits <= 8))
    {
        let f = to.float().unwrap();
        let mut vals: Vec<f64> = (0..(1u64 << f.bits))
            .map(|c| f.decode(c))
            .filter(|v| v.is_finite() && *v >= 0.0)
            .collect();
        vals.sort_by(|a, b| a.partial_cmp(b).unwrap());
        vals.dedup();
        let top = *vals.last().unwrap();
        let step = top - vals[vals.len() - 2];
        vals.push(top + step); // the value past the largest: its midpoint is the overflow edge
        let mut inputs = random.clone();
        for w in vals.windows(2) {
            let m = ((w[0] + w[1]) / 2.0) as f32;
            for x in [
                w[0] as f32,
                m,
                f32::from_bits(m.to_bits() + 1),
                f32::from_bits(m.to_bits() - 1),
            ] {
                inputs.extend([x.to_bits() as u64, (-x).to_bits() as u64]);
            }
        }
        inputs.extend([
            0x7f80_0000,
            0xff80_0000,
            0x7fc0_0000,
            0xffc0_0001,
            0x8000_0000,
            1,
            0x8000_0001,
        ]);
        for mode in MODES {
            for oor in ["", r#","out_of_range":"clamp""#] {
                let base = format!(r#"{{"data_type":"{to}","rounding":"{mode}""#);
                let cv = cast_value(&format!("{base}{oor}}}"), Float32);
                let strict = cast_value(&format!("{base}}}"), Float32);
                let expect = mode == "nearest-even" && to != Float8E8M0FNU;
                assert_eq!(cv.kernels().0.is_some(), expect, "float32->{to} {mode}");
                if expect {
                    let n = check_cast_kernel(&cv, &strict, Direction::Encode, &inputs);
                    assert!(n > inputs.len() / 3, "float32->{to}: {n} accepted");
                    check_cast_buffers(&cv, Direction::Encode, &inputs);
                }
            }
        }
    }
}

/// The bit tricks agree with the reference rounding for every float16 / bfloat16 code decoded
/// and re-encoded, and with native widening.
#[cfg_attr(not(target_arch = "wasm32"), test)]
#[cfg_attr(target_arch = "wasm32", wasm_bindgen_test::wasm_bindgen_test)]
fn half_bit_tricks_roundtrip_every_code() {
    for h in 0..=0xffffu16 {
        let x = f16_to_f32(h);
        let (back, ok) = f32_to_f16(x);
        assert!(ok);
        if x.is_nan() {
            assert_eq!(back & 0x7fff, 0x7e00);
        } else {
            assert_eq!(back, h, "{h:#x}");
        }
        let b = f32::from_bits((h as u32) << 16);
        let (bb, ok) = f32_to_bf16(b);
        assert!(ok);
        if b.is_nan() {
            assert_eq!(bb & 0x7fff, 0x7fc0);
        } else {
            assert_eq!(bb, h);
        }
    }
}

/// Integer scale_offset kernels: int16 / uint16 over every value for a grid of offsets and
/// scales up to the largest with a kernel (proven and checked kernels, both conventions, encode and decode), the 32- and 64-bit
/// types over fixed-seed random values and boundaries.
#[cfg_attr(not(target_arch = "wasm32"), test)]
#[cfg_attr(target_arch = "wasm32", wasm_bindgen_test::wasm_bindgen_test)]
fn int_scale_offset_kernels_match_reference() {
    let mut r = Rng::new(3);
    let mut proven = 0;
    for dtype in [Int16, UInt16, Int32, UInt32, Int64, UInt64] {
        let f = dtype.int().unwrap();
        let (min, max) = (f.min(), f.max());
        let inputs: Vec<u64> = if dtype.bits() == 16 {
            all16()
        } else {
            let mut v: Vec<u64> = (0..3000)
                .map(|_| f.to_bits(f.from_bits(r.next())))
                .collect();
            for x in [min, min + 1, -7, -1, 0, 1, 6, max - 1, max] {
                if f.contains(x) {
                    v.push(f.to_bits(x));
                }
            }
            v
        };
        // Offsets and scales: proven (0 with ±1), checked ones that mostly pass (small offset,
        // scale 3 or 255), and ones that mostly fail (extreme offsets, scale = min).
        let (offsets, scales): (&[i128], &[i128]) = if dtype.bits() == 16 {
            // The 16-bit exact division of arith.rs (Div16): odd scales (3, 61, ±16383 =
            // 2^14 - 1, the largest |scale| with a kernel), powers of two (2, 1024) and both
            // (12, -40).
            (
                &[0, -1000, max],
                &[1, -1, 2, 3, 12, -40, 61, 1024, 16383, -16383, min],
            )
        } else {
            (&[0, -1000, max / 3, max], &[1, -1, 3, 255, min])
        };
        for conv in [Convention::ScaleOffset, Convention::Cf] {
            for off in offsets.iter().filter(|o| f.contains(**o)) {
                for s in scales.iter().filter(|s| f.contains(**s) && **s != 0) {
                    let cfg = format!(r#"{{"offset":{off},"scale":{s}}}"#);
                    let so = scale_offset(conv, &cfg, dtype);
                    let Some(k) = so.int_kernel() else {
                        // int16 / uint16 with |scale| >= 2^14: the reference only.
                        assert!(dtype.bits() == 16 && s.abs() >= 1 << 14, "{dtype} {cfg}");
                        continue;
                    };
                    let k: &IntKernel = k;
                    let p = k.proven();
                    proven += p.encode as usize + p.decode as usize;
                    for dir in Direction::BOTH {
                        let enc = dir == Direction::Encode;
                        let want: Vec<Option<u64>> = inputs
                            .iter()
                            .map(|&x| {
                                if enc {
                                    so.encode_value(x)
                                } else {
                                    so.decode_value(x)
                                }
                                .ok()
                            })
                            .collect();
                        let ordinary: Vec<bool> = want.iter().map(Option::is_some).collect();
                        let what = format!("{dtype} {conv:?} {cfg} enc={enc}");
                        check_kernel(
                            dtype,
                            dtype,
                            &inputs,
                            &want,
                            &ordinary,
                            |i, o| k.run(dir, i, o),
                            &what,
                        );
                        let good: Vec<u64> = inputs
                            .iter()
                            .zip(&want)
                            .filter(|(_, w)| w.is_some())
                            .map(|(x, _)| *x)
                            .collect();
                        // Whole buffers (block fallback, first error): every 7th value.
                        let some: Vec<u64> = inputs.iter().copied().step_by(7).collect();
                        let good: Vec<u64> = good.into_iter().step_by(7).collect();
                        for values in [&some[..], &good[..]] {
                            let data = buffer(dtype, values);
                            let run = |opts: RunOptions| -> Result<Vec<u8>> {
                                let mut out = vec![0u8; data.len()];
                                so.run(dir, &data, &mut out, opts)?;
                                Ok(out)
                            };
                            assert_eq!(
                                run(RunOptions::default()),
                                run(RunOptions::REFERENCE),
                                "{dtype} {conv:?} {cfg} enc={enc}"
                            );
                        }
                    }
                }
            }
        }
    }
    // Offset 0 with scale ±1 (and decode of offset 0 with |scale| > 1) is proven in range.
    assert!(proven > 20, "{proven}");
}

/// The bind-time proof: checks are dropped exactly when no value of the type can fail.
#[cfg_attr(not(target_arch = "wasm32"), test)]
#[cfg_attr(target_arch = "wasm32", wasm_bindgen_test::wasm_bindgen_test)]
fn int_kernel_proofs() {
    use zarr_scale_offset_core::kernels::arith::Op::*;
    let k = |d, off, s, e, dd| {
        let p = IntKernel::select(d, off, s, e, dd).unwrap().proven();
        (p.encode, p.decode)
    };
    assert_eq!(k(Int16, 0, 1, Mul, Div), (true, true));
    assert_eq!(k(Int16, 0, 3, Mul, Div), (false, true));
    assert_eq!(k(Int16, 0, -1, Mul, Div), (false, false)); // -(-32768) overflows
    assert_eq!(k(UInt16, 0, 1, Mul, Div), (true, true));
    assert_eq!(k(UInt16, 5, 1, Mul, Div), (false, false));
    assert_eq!(k(Int64, 0, 2, Div, Mul), (true, false));
    assert_eq!(k(UInt64, 0, 7, Mul, Div), (false, true));
}

fn check_chain(c: &ArrayChain, data: &[u8], dir: Direction, what: &str) {
    let enc = dir == Direction::Encode;
    let a = c.run_to_vec(dir, data, RunOptions::default());
    let b = c.run_to_vec(dir, data, RunOptions::REFERENCE);
    assert_eq!(a, b, "{what} enc={enc}");
}

/// Whole-chain lookup tables (one-byte sources): every byte, alone, all together, and the bytes
/// that decode, repeated past the table's threshold; every narrow type.
#[cfg_attr(not(target_arch = "wasm32"), test)]
#[cfg_attr(target_arch = "wasm32", wasm_bindgen_test::wasm_bindgen_test)]
fn chain_lookup_tables_match_reference() {
    let chains = [
        (
            Float64,
            r#"[{"name":"scale_offset","configuration":{"offset":-40,"scale":2}},{"name":"cast_value","configuration":{"data_type":"uint8","scalar_map":{"encode":[["NaN",0]],"decode":[[0,"NaN"]]}}}]"#,
        ),
        (
            Float32,
            r#"[{"name":"cast_value","configuration":{"data_type":"uint8"}}]"#,
        ),
        (
            Float32,
            r#"[{"name":"cast_value","configuration":{"data_type":"int8","rounding":"towards-zero","out_of_range":"clamp"}}]"#,
        ),
        (
            Int16,
            r#"[{"name":"scale_offset","configuration":{"offset":7,"scale":3}},{"name":"cast_value","configuration":{"data_type":"int4","out_of_range":"wrap"}}]"#,
        ),
        (
            Float32,
            r#"[{"name":"cast_value","configuration":{"data_type":"float8_e4m3"}}]"#,
        ),
        (
            Float32,
            r#"[{"name":"cast_value","configuration":{"data_type":"float8_e5m2fnuz","out_of_range":"clamp"}}]"#,
        ),
        (
            Float16,
            r#"[{"name":"cast_value","configuration":{"data_type":"float4_e2m1fn","rounding":"nearest-away"}}]"#,
        ),
        (
            Float64,
            r#"[{"name":"cast_value","configuration":{"data_type":"float8_e8m0fnu","rounding":"towards-positive"}}]"#,
        ),
        (
            UInt8,
            r#"[{"name":"scale_offset","configuration":{"offset":3,"scale":2}}]"#,
        ),
        (
            Int8,
            r#"[{"name":"cf.scale_offset","configuration":{"offset":-1,"scale":2}},{"name":"cast_value","configuration":{"data_type":"uint2","out_of_range":"clamp"}}]"#,
        ),
        (
            Float8E4M3,
            r#"[{"name":"scale_offset","configuration":{"offset":0.5,"scale":2}}]"#,
        ),
        (
            UInt4,
            r#"[{"name":"cast_value","configuration":{"data_type":"float6_e3m2fn"}}]"#,
        ),
    ];
    for (dtype, codecs) in chains {
        let c = parse_array_codecs(codecs, dtype).unwrap();
        let enc_t = c.encoded_dtype();
        for (dir, t) in [(Direction::Decode, enc_t), (Direction::Encode, dtype)] {
            if t.size() != 1 {
                continue;
            }
            let bytes: Vec<u8> = (0..=255u8)
                .map(|b| {
                    let mut o = [0u8];
                    t.write_bits(&mut o, 0, t.read_bits(&[b], 0));
                    o[0]
                })
                .collect();
            for &b in &bytes {
                check_chain(&c, &[b], dir, codecs);
            }
            let rep = |v: &[u8]| {
                v.iter()
                    .copied()
                    .cycle()
                    .take(v.len() * 8)
                    .collect::<Vec<u8>>()
            };
            check_chain(&c, &rep(&bytes), dir, codecs);
            let good: Vec<u8> = bytes
                .iter()
                .copied()
                .filter(|&b| c.run_to_vec(dir, &[b], RunOptions::REFERENCE).is_ok())
                .collect();
            if !good.is_empty() {
                let data = rep(&good);
                assert!(data.len() >= 1024 || good.len() < 128, "{codecs}");
                check_chain(&c, &data, dir, codecs);
            }
        }
    }
}

/// Tiled chains over buffers spanning several tiles and blocks (lengths not multiples of
/// either), clean and with one failing element at various positions: same bytes or the same
/// error (the element index is chunk-relative).
#[cfg_attr(not(target_arch = "wasm32"), test)]
#[cfg_attr(target_arch = "wasm32", wasm_bindgen_test::wasm_bindgen_test)]
fn chain_tiles_match_reference() {
    let mut r = Rng::new(4);
    let so_u16 = r#"[{"name":"scale_offset","configuration":{"offset":200,"scale":100}},{"name":"cast_value","configuration":{"data_type":"uint16"}}]"#;
    let s2 = r#"[{"name":"scale_offset","configuration":{"offset":-0.1,"scale":10000}},{"name":"cast_value","configuration":{"data_type":"uint16","scalar_map":{"encode":[["NaN",0]],"decode":[[0,"NaN"]]}}}]"#;
    let cf = r#"[{"name":"cf.scale_offset","configuration":{"offset":273.15,"scale":0.01}},{"name":"cast_value","configuration":{"data_type":"int16","rounding":"towards-negative"}}]"#;
    let i32_ = r#"[{"name":"scale_offset","configuration":{"offset":5,"scale":2}},{"name":"cast_value","configuration":{"data_type":"int16","out_of_range":"clamp"}}]"#;
    let bf = r#"[{"name":"scale_offset","configuration":{"offset":1,"scale":3}},{"name":"cast_value","configuration":{"data_type":"bfloat16"}}]"#;
    for (dtype, codecs) in [
        (Float32, so_u16),
        (Float64, s2),
        (Float32, cf),
        (Int32, i32_),
        (Float32, bf),
    ] {
        let c = parse_array_codecs(codecs, dtype).unwrap();
        let enc_t = c.encoded_dtype();
        for n in [1, 255, 257, 2047, 5000, 9001] {
            // Decode random stored values (some fail: e.g. uint16 values above the range of a
            // decoded int); encode what decodes.
            let stored: Vec<u64> = (0..n)
                .map(|_| {
                    let b = r.next();
                    match enc_t.int() {
                        Some(f) => f.to_bits(f.from_bits(b)),
                        None => b & enc_t.float().unwrap().mask(),
                    }
                })
                .collect();
            let data = buffer(enc_t, &stored);
            check_chain(&c, &data, Direction::Decode, codecs);
            let good: Vec<u64> = stored
                .iter()
                .copied()
                .filter(|&x| {
                    c.run_to_vec(
                        Direction::Decode,
                        &buffer(enc_t, &[x]),
                        RunOptions::REFERENCE,
                    )
                    .is_ok()
                })
                .collect();
            let data = buffer(enc_t, &good);
            check_chain(&c, &data, Direction::Decode, codecs);
            if let Ok(decoded) = c.decode(&data) {
                check_chain(&c, &decoded, Direction::Encode, codecs);
                // One bad element (NaN, or the largest value) at a few positions.
                let m = decoded.len() / dtype.size();
                for pos in [0, m / 2, m.saturating_sub(1)] {
                    if m == 0 {
                        break;
                    }
                    let mut bad = decoded.clone();
                    let v = match dtype.float() {
                        Some(f) => f.nan_code(false),
                        None => dtype.int().unwrap().to_bits(dtype.int().unwrap().max()),
                    };
                    dtype.write_bits(&mut bad, pos, v);
                    check_chain(&c, &bad, Direction::Encode, codecs);
                }
            }
        }
    }
}

/// A NaN key matches every NaN, 0 matches -0 (numeric equality): the kernels' map agrees.
#[cfg_attr(not(target_arch = "wasm32"), test)]
#[cfg_attr(target_arch = "wasm32", wasm_bindgen_test::wasm_bindgen_test)]
fn map_key_semantics() {
    let cv = cast_value(
        r#"{"data_type":"int8","scalar_map":{"encode":[[0.0,9],["NaN",-9]]}}"#,
        Float32,
    );
    // Two distinct keys: no kernel, reference only.
    assert_eq!(*cv.kernels().0, CastKernel::None);
    let cv = cast_value(
        r#"{"data_type":"int8","scalar_map":{"encode":[[0.0,9]]}}"#,
        Float32,
    );
    assert!(cv.kernels().0.is_some());
    for (x, want) in [(-0.0f32, 9u64), (0.0, 9), (1.0, 1)] {
        let mut out = [0u8];
        assert!(cv.kernels().0.run(&x.to_le_bytes(), &mut out));
        assert_eq!(out[0] as u64, want);
        assert_eq!(cv.encode_value(x.to_bits() as u64).unwrap(), want);
    }
    assert!(same_value(
        zarr_scale_offset_core::cast::Num::Float(f64::NAN),
        zarr_scale_offset_core::cast::Num::Float(-f64::NAN)
    ));
}

/// The fused `[scale_offset, cast_value]` encodes: the inputs `x` of the chain's decoded type
/// (raw bits) that exercise the cast after the arithmetic: the float inputs themselves (NaN,
/// ±Inf, ±0, subnormals, huge values) and the values whose `y = (x - offset) op scale` lands on
/// them (ties, range ends and their neighbours, as far as the arithmetic is exact).
fn fused_encode_inputs(ty: DataType, cf: bool, offset: f64, scale: f64, r: &mut Rng) -> Vec<u64> {
    let ys: Vec<f64> = if ty == Float32 {
        f32_inputs(r)
            .into_iter()
            .map(|b| f32::from_bits(b as u32) as f64)
            .collect()
    } else {
        f64_inputs(r).into_iter().map(f64::from_bits).collect()
    };
    // Every boundary value (the first 431 of `f32_inputs`, the 12 double-only ones after its
    // 1631), a third of the random ones.
    let ys = ys
        .into_iter()
        .enumerate()
        .filter(|&(i, _)| i < 431 || (1631..1643).contains(&i) || i % 3 == 0)
        .map(|(_, y)| y);
    let mut xs = Vec::new();
    for y in ys {
        let x = if cf {
            y * scale + offset
        } else {
            y / scale + offset
        };
        for v in [y, x] {
            xs.push(if ty == Float32 {
                (v as f32).to_bits() as u64
            } else {
                v.to_bits()
            });
        }
    }
    xs
}

/// The fused encode (float32/float64 -> int8/uint8/int16/uint16) against the codec-by-codec
/// reference: every rounding mode, every out_of_range, with and without a NaN scalar_map entry,
/// scale_offset and cf.scale_offset with exact and inexact scales. Element by element (the
/// kernel accepts exactly what the reference handles without out_of_range, or with clamp, and
/// gives its bits), then whole buffers through the chain (same bytes or the same error).
#[cfg_attr(not(target_arch = "wasm32"), test)]
#[cfg_attr(target_arch = "wasm32", wasm_bindgen_test::wasm_bindgen_test)]
fn fused_encode_matches_reference() {
    let mut r = Rng::new(7);
    let ariths = [
        ("scale_offset", 10.0, 4.0),
        ("scale_offset", -3.5, 100.0),
        ("cf.scale_offset", 273.15, 0.01),
        ("cf.scale_offset", 0.0, 0.5),
    ];
    let mut chains = 0usize;
    let mut accepted = 0usize;
    let mut declined = 0usize;
    for ty in [Float32, Float64] {
        for (name, offset, scale) in ariths {
            let cf = name == "cf.scale_offset";
            let inputs = fused_encode_inputs(ty, cf, offset, scale, &mut r);
            let conv = if cf {
                Convention::Cf
            } else {
                Convention::ScaleOffset
            };
            let so_cfg = format!(r#"{{"offset":{offset},"scale":{scale}}}"#);
            let so = scale_offset(conv, &so_cfg, ty);
            // scale_offset on floats never fails.
            let ys: Vec<u64> = inputs
                .iter()
                .map(|&x| so.encode_value(x).unwrap())
                .collect();
            for dst in [Int8, UInt8, Int16, UInt16] {
                let min = dst.int().unwrap().min();
                for mode in MODES {
                    for map in [false, true] {
                        let cast = |oor: &str| {
                            let mut c = format!(r#""data_type":"{dst}","rounding":"{mode}""#);
                            if !oor.is_empty() {
                                c += &format!(r#","out_of_range":"{oor}""#);
                            }
                            if map {
                                c += &format!(r#","scalar_map":{{"encode":[["NaN",{min}]]}}"#);
                            }
                            format!("{{{c}}}")
                        };
                        // The reference, element by element: the two codecs' own per-value
                        // procedures, per out_of_range.
                        let oors = ["", "clamp", "wrap"];
                        let results: Vec<Vec<Option<u64>>> = oors
                            .iter()
                            .map(|oor| {
                                let cv = cast_value(&cast(oor), ty);
                                ys.iter().map(|&y| cv.encode_value(y).ok()).collect()
                            })
                            .collect();
                        for (oor, want) in oors.iter().zip(&results) {
                            let codecs = format!(
                                r#"[{{"name":"{name}","configuration":{so_cfg}}},{{"name":"cast_value","configuration":{}}}]"#,
                                cast(oor)
                            );
                            let c = parse_array_codecs(&codecs, ty).unwrap();
                            assert!(c.fused_encode().is_some(), "{codecs}: no fused encode");
                            // The kernel accepts what succeeds without out_of_range, or with
                            // clamp (which it handles).
                            let strict = if *oor == "clamp" { want } else { &results[0] };
                            let ordinary: Vec<bool> = strict.iter().map(Option::is_some).collect();
                            let f = c.fused_encode().unwrap();
                            let n = check_kernel(
                                ty,
                                dst,
                                &inputs,
                                want,
                                &ordinary,
                                |i, o| f.run(i, o),
                                &codecs,
                            );
                            accepted += n;
                            declined += inputs.len() - n;
                            chains += 1;
                            // Whole buffers: everything (an error at the first failing element,
                            // or, with clamp / wrap, declined blocks redone), what succeeds, and
                            // what succeeds with one failing element at a few positions.
                            let good: Vec<u64> = inputs
                                .iter()
                                .zip(want)
                                .filter(|(_, w)| w.is_some())
                                .map(|(&x, _)| x)
                                .collect();
                            let some: Vec<u64> = inputs.iter().copied().step_by(3).collect();
                            check_chain(&c, &buffer(ty, &some), Direction::Encode, &codecs);
                            check_chain(&c, &buffer(ty, &good), Direction::Encode, &codecs);
                            let bad = inputs.iter().zip(want).find(|(_, w)| w.is_none());
                            if let Some((&b, _)) = bad {
                                for pos in [0, 256, good.len() / 2, good.len()] {
                                    let mut v = good.clone();
                                    v.insert(pos.min(v.len()), b);
                                    check_chain(&c, &buffer(ty, &v), Direction::Encode, &codecs);
                                }
                            }
                        }
                    }
                }
            }
        }
    }
    assert_eq!(chains, 2 * 4 * 4 * 5 * 3 * 2);
    // The kernel really runs, and the inputs really test the declines.
    assert!(accepted > 100 * chains, "{accepted} accepted");
    assert!(declined > 100 * chains, "{declined} declined");
}

/// The fused decodes of int16/uint16 into float32 and float64 against the codec-by-codec
/// reference on every one of the 65,536 stored values, through the chain and through the
/// kernel itself, with and without a NaN scalar_map entry.
#[cfg_attr(not(target_arch = "wasm32"), test)]
#[cfg_attr(target_arch = "wasm32", wasm_bindgen_test::wasm_bindgen_test)]
fn fused_decode_matches_reference_on_every_code() {
    for ty in [Float32, Float64] {
        for stored in [Int16, UInt16] {
            for (offset, scale) in [
                (-10.0, 100.0),
                (0.0, 10.0),
                (273.15, 3.0),
                (0.5, 0.1),
                (1.0, 7e-5),
                (-3.0, 65535.0),
                (0.0, 1e30),
                (2.0, 4.0),
            ] {
                for map in [false, true] {
                    let mut cv = format!(r#""data_type":"{stored}""#);
                    if map {
                        cv += r#","scalar_map":{"decode":[[0,"NaN"]],"encode":[["NaN",0]]}"#;
                    }
                    let codecs = format!(
                        r#"[{{"name":"scale_offset","configuration":{{"offset":{offset},"scale":{scale}}}}},{{"name":"cast_value","configuration":{{{cv}}}}}]"#
                    );
                    let c = parse_array_codecs(&codecs, ty).unwrap();
                    let f = c.fused_decode().expect("a fused decode");
                    let data = buffer(stored, &all16());
                    check_chain(&c, &data, Direction::Decode, &codecs);
                    let mut out = vec![0u8; 65536 * ty.size()];
                    f.run(&data, &mut out);
                    let want = c
                        .run_to_vec(Direction::Decode, &data, RunOptions::REFERENCE)
                        .unwrap();
                    assert_eq!(out, want, "{codecs}");
                }
            }
        }
    }
}

/// Which `[scale_offset, cast_value]` encodes are fused: not a numeric scalar_map key, a wider
/// stored type, an integer decoded type, or another chain.
#[cfg_attr(not(target_arch = "wasm32"), test)]
#[cfg_attr(target_arch = "wasm32", wasm_bindgen_test::wasm_bindgen_test)]
fn fused_encode_selection() {
    let so = r#"{"name":"scale_offset","configuration":{"offset":1,"scale":2}}"#;
    for (dtype, codecs, fused) in [
        (
            Float32,
            format!(r#"[{so},{{"name":"cast_value","configuration":{{"data_type":"int16"}}}}]"#),
            true,
        ),
        (
            Float64,
            format!(
                r#"[{so},{{"name":"cast_value","configuration":{{"data_type":"uint8","scalar_map":{{"encode":[["NaN",0],["NaN",1]]}}}}}}]"#
            ),
            true,
        ),
        (
            Float32,
            format!(
                r#"[{so},{{"name":"cast_value","configuration":{{"data_type":"int16","scalar_map":{{"encode":[[-9999,-32768]]}}}}}}]"#
            ),
            false,
        ),
        (
            Float32,
            format!(
                r#"[{so},{{"name":"cast_value","configuration":{{"data_type":"int16","scalar_map":{{"encode":[["NaN",0],[1.5,1]]}}}}}}]"#
            ),
            false,
        ),
        (
            Float32,
            format!(r#"[{so},{{"name":"cast_value","configuration":{{"data_type":"int32"}}}}]"#),
            false,
        ),
        (
            Float32,
            format!(r#"[{so},{{"name":"cast_value","configuration":{{"data_type":"float16"}}}}]"#),
            false,
        ),
        (
            Int32,
            format!(r#"[{so},{{"name":"cast_value","configuration":{{"data_type":"int16"}}}}]"#),
            false,
        ),
        (
            Float32,
            r#"[{"name":"cast_value","configuration":{"data_type":"int16"}}]"#.to_string(),
            false,
        ),
    ] {
        let c = parse_array_codecs(&codecs, dtype).unwrap();
        assert_eq!(c.fused_encode().is_some(), fused, "{codecs}");
        // Fused or not, the same as the reference.
        let mut r = Rng::new(11);
        let xs: Vec<u64> = (0..1000)
            .map(|i| match dtype {
                Float32 => (r.f64_in(-40000.0, 40000.0) as f32).to_bits() as u64,
                Float64 if i % 100 == 7 => f64::NAN.to_bits(),
                Float64 => r.f64_in(-100.0, 300.0).to_bits(),
                _ => r.next() % 1000,
            })
            .collect();
        check_chain(&c, &buffer(dtype, &xs), Direction::Encode, &codecs);
    }
}
