//! A benchmark of this plugin against zarrs' own codecs, in one run: whole chunks read
//! (`retrieve_chunk`) and written (`store_chunk`) through zarrs' `Array` API on a `MemoryStore`,
//! the contenders of each row timed in the same interleaved rounds, median of N.
//!
//! ```text
//! cd crates/zarrs && cargo run --release --example bench --locked [-- --samples 15]
//! ```
//!
//! Each row times three arrays holding the same stored integers:
//! - `plugin`: this crate's codecs (`numcodecs.fixedscaleoffset`, or `scale_offset` /
//!   `cf.scale_offset` + `cast_value`), then `bytes`;
//! - `zarrs`: zarrs' own `numcodecs.fixedscaleoffset` (its only built-in codec that scales and
//!   casts elementwise), then `bytes`, with the same scale, offset and types;
//! - `packed`: the stored integer array with `bytes` alone (what reading or writing the packed
//!   integers costs through zarrs, no codec work).
//!
//! zarrs finds a codec by name: run-time registrations (`register_fixed_scale_offset`) first, then
//! link-time ones, so with this crate linked the name `numcodecs.fixedscaleoffset` means one
//! implementation or the other for the whole process. The bench sidesteps the lookup: it builds
//! every array with `ArrayBuilder` from codec objects, zarrs' `FixedScaleOffsetCodec` for the
//! `zarrs` arrays and this crate's `ScaleOffsetCodec` (what `register_fixed_scale_offset` creates
//! for the name) for the `plugin` arrays, so both live in one process.
//!
//! Before timing, every result is checked: the plugin's decoded elements and stored bytes are
//! asserted equal to the exact result (computed here element by element); zarrs' are asserted
//! equal where its arithmetic is exact (scale and offset representable in f32 and the same
//! formula), and otherwise counted and printed (zarrs holds scale and offset as f32).

use std::hint::black_box;
use std::sync::Arc;
use std::time::Instant;

use zarrs::array::codec::{FixedScaleOffsetCodec, FixedScaleOffsetCodecConfiguration};
use zarrs::array::{Array, ArrayBuilder, ArrayToArrayCodecTraits, ElementOwned, FillValue};
use zarrs::metadata::v3::MetadataV3;
use zarrs::storage::store::MemoryStore;
use zarrs::storage::{ReadableStorageTraits, StoreKey, WritableStorageTraits};
use zarrs_scale_offset::ScaleOffsetCodec;

type Res<T> = Result<T, Box<dyn std::error::Error>>;

/// A numeric element type of the bench (packed or decoded).
trait Num: ElementOwned + Into<FillValue> + Copy + Send + Sync + 'static {
    const NAME: &'static str;
    fn to_f64(self) -> f64;
    /// The bit pattern (exact comparison, NaN included).
    fn bits(self) -> u64;
    fn le_bytes(self) -> Vec<u8>;
    /// The element of the bench's data for a pseudo-random 64-bit value.
    fn from_random(r: u64) -> Self;
}

macro_rules! num {
    ($t:ty, $name:literal, $bits:expr, $random:expr) => {
        impl Num for $t {
            const NAME: &'static str = $name;
            #[allow(clippy::cast_lossless, clippy::cast_precision_loss)]
            fn to_f64(self) -> f64 {
                self as f64
            }
            fn bits(self) -> u64 {
                $bits(self)
            }
            fn le_bytes(self) -> Vec<u8> {
                self.to_le_bytes().to_vec()
            }
            #[allow(clippy::cast_possible_truncation)]
            fn from_random(r: u64) -> Self {
                $random(r)
            }
        }
    };
}
num!(u8, "uint8", u64::from, |r: u64| r as u8);
num!(u16, "uint16", u64::from, |r: u64| r as u16);
// Not -32768: int16 rows keep it out so that every value is an ordinary one.
num!(
    i16,
    "int16",
    |x: i16| u64::from(x.cast_unsigned()),
    |r: u64| { (r as i16).max(-32767) }
);
num!(f32, "float32", |x: f32| u64::from(x.to_bits()), |r: u64| {
    (r >> 40) as f32
});
num!(f64, "float64", f64::to_bits, |r: u64| (r >> 11) as f64);

/// One chain of the bench: the plugin's codecs, zarrs' `fixedscaleoffset` with the same
/// parameters, and the exact decode of one stored element.
struct Spec<P, T> {
    case: &'static str,
    /// The plugin's array-to-array codecs (Zarr v3 metadata, JSON list).
    plugin: &'static str,
    /// The configuration of zarrs' `numcodecs.fixedscaleoffset`.
    zarrs: &'static str,
    /// zarrs' result is exact for this chain (asserted); otherwise its differences are counted.
    zarrs_exact: bool,
    fill: T,
    exact: fn(P) -> T,
    /// The plugin's codecs encode (`numcodecs.fixedscaleoffset` is read-only in the plugin).
    encode: bool,
}

type Job = Box<dyn Fn() -> Res<()>>;

struct Row {
    case: &'static str,
    op: &'static str,
    n: usize,
    /// Calls per sample (smaller chunks: more calls, so a sample is not too short to time).
    reps: usize,
    /// plugin, zarrs, packed.
    jobs: [Job; 3],
    /// How many of zarrs' elements differ from the exact result.
    zarrs_differ: usize,
}

type Arr = Arc<Array<MemoryStore>>;

fn build(
    n: usize,
    data_type: &str,
    fill: FillValue,
    codecs: Vec<Arc<dyn ArrayToArrayCodecTraits>>,
    stored: &[u8],
) -> Res<(Arr, Arc<MemoryStore>)> {
    let store = Arc::new(MemoryStore::new());
    let n = u64::try_from(n)?;
    let array = ArrayBuilder::new(vec![n], vec![n], data_type, fill)
        .array_to_array_codecs(codecs)
        .build(store.clone(), "/")?;
    set_chunk(&store, stored)?;
    Ok((Arc::new(array), store))
}

fn set_chunk(store: &MemoryStore, stored: &[u8]) -> Res<()> {
    store.set(&StoreKey::new("c/0")?, stored.to_vec().into())?;
    Ok(())
}

fn get_chunk(store: &MemoryStore) -> Res<Vec<u8>> {
    Ok(store
        .get(&StoreKey::new("c/0")?)?
        .ok_or("no chunk stored")?
        .to_vec())
}

/// Counts the elements of `got` that differ from `exact` (bitwise), after checking that they
/// are close (so that a count is never of a wrong array).
fn differing<T: Num>(got: &[T], exact: &[T], what: &str) -> Res<usize> {
    if got.len() != exact.len() {
        return Err(format!("{what}: {} elements, not {}", got.len(), exact.len()).into());
    }
    let mut count = 0;
    for (g, e) in got.iter().zip(exact) {
        if g.bits() != e.bits() {
            let (g, e) = (g.to_f64(), e.to_f64());
            let tolerance = 1e-5 * e.abs().max(1.0);
            if (g - e).abs() > tolerance {
                return Err(format!("{what}: {g} where the exact result is {e}").into());
            }
            count += 1;
        }
    }
    Ok(count)
}

fn add_rows<P: Num, T: Num>(rows: &mut Vec<Row>, spec: &Spec<P, T>, n: usize) -> Res<()> {
    // The stored integers: a fixed pseudo-random sequence (xorshift).
    let mut state = 0x9E37_79B9_7F4A_7C15_u64;
    let packed: Vec<P> = (0..n)
        .map(|_| {
            state ^= state << 13;
            state ^= state >> 7;
            state ^= state << 17;
            P::from_random(state)
        })
        .collect();
    let stored: Vec<u8> = packed.iter().flat_map(|x| x.le_bytes()).collect();
    let exact: Vec<T> = packed.iter().map(|&p| (spec.exact)(p)).collect();

    let metadata: Vec<MetadataV3> = serde_json::from_str(spec.plugin)?;
    let plugin_codecs = metadata
        .iter()
        .map(|m| {
            Ok(Arc::new(ScaleOffsetCodec::from_metadata(m)?) as Arc<dyn ArrayToArrayCodecTraits>)
        })
        .collect::<Res<Vec<_>>>()?;
    let configuration: FixedScaleOffsetCodecConfiguration = serde_json::from_str(spec.zarrs)?;
    let zarrs_codec: Arc<dyn ArrayToArrayCodecTraits> = Arc::new(
        FixedScaleOffsetCodec::new_with_configuration(&configuration)
            .map_err(|e| format!("zarrs' fixedscaleoffset, {}: {e}", spec.zarrs))?,
    );
    let fill: FillValue = spec.fill.into();
    let (plugin, plugin_store) = build(n, T::NAME, fill.clone(), plugin_codecs, &stored)?;
    let (zarrs, zarrs_store) = build(n, T::NAME, fill, vec![zarrs_codec], &stored)?;
    let packed_fill: FillValue = P::from_random(0).into();
    let (floor, _) = build(n, P::NAME, packed_fill, vec![], &stored)?;

    // Decode: the plugin's is exact; zarrs' is exact or counted.
    let what = format!("{} ({n} elements)", spec.case);
    let got: Vec<T> = plugin.retrieve_chunk(&[0])?;
    let plugin_differ = differing(&got, &exact, &format!("plugin decode, {what}"))?;
    assert_eq!(plugin_differ, 0, "the plugin's decode is not exact: {what}");
    let got: Vec<T> = zarrs.retrieve_chunk(&[0])?;
    let zarrs_decode_differ = differing(&got, &exact, &format!("zarrs decode, {what}"))?;
    if spec.zarrs_exact {
        assert_eq!(zarrs_decode_differ, 0, "zarrs' decode is not exact: {what}");
    }
    let got: Vec<P> = floor.retrieve_chunk(&[0])?;
    assert!(got.iter().zip(&packed).all(|(g, p)| g.bits() == p.bits()));

    let r = reps(n);
    let decode_jobs: [Job; 3] = [
        decode_job::<T>(plugin.clone()),
        decode_job::<T>(zarrs.clone()),
        decode_job::<P>(floor.clone()),
    ];
    rows.push(Row {
        case: spec.case,
        op: "decode",
        n,
        reps: r,
        jobs: decode_jobs,
        zarrs_differ: zarrs_decode_differ,
    });
    if !spec.encode {
        return Ok(());
    }

    // Encode the exact decoded elements: the plugin stores the original integers.
    let exact = Arc::new(exact);
    plugin.store_chunk(&[0], exact.as_slice())?;
    assert_eq!(
        get_chunk(&plugin_store)?,
        stored,
        "the plugin's encode is not exact: {what}"
    );
    zarrs.store_chunk(&[0], exact.as_slice())?;
    let zarrs_stored = get_chunk(&zarrs_store)?;
    let zarrs_encode_differ = zarrs_stored
        .chunks(stored.len() / n)
        .zip(stored.chunks(stored.len() / n))
        .filter(|(a, b)| a != b)
        .count();
    if spec.zarrs_exact {
        assert_eq!(zarrs_encode_differ, 0, "zarrs' encode is not exact: {what}");
    }
    // Decode rows read the original integers in every array.
    set_chunk(&zarrs_store, &stored)?;
    let packed = Arc::new(packed);
    let encode_jobs: [Job; 3] = [
        encode_job(plugin, exact.clone()),
        encode_job(zarrs, exact),
        encode_job(floor, packed),
    ];
    rows.push(Row {
        case: spec.case,
        op: "encode",
        n,
        reps: r,
        jobs: encode_jobs,
        zarrs_differ: zarrs_encode_differ,
    });
    Ok(())
}

fn decode_job<T: Num>(array: Arr) -> Job {
    Box::new(move || {
        let v: Vec<T> = array.retrieve_chunk(&[0])?;
        black_box(v);
        Ok(())
    })
}

fn encode_job<T: Num>(array: Arr, data: Arc<Vec<T>>) -> Job {
    Box::new(move || {
        array.store_chunk(&[0], data.as_slice())?;
        Ok(())
    })
}

fn reps(n: usize) -> usize {
    ((4 << 20) / n).max(1)
}

/// Seconds per call: `reps` calls, timed together.
fn sample(job: &Job, reps: usize) -> Res<f64> {
    let start = Instant::now();
    for _ in 0..reps {
        job()?;
    }
    #[allow(clippy::cast_precision_loss)]
    Ok(start.elapsed().as_secs_f64() / reps as f64)
}

fn median(mut v: Vec<f64>) -> f64 {
    v.sort_by(f64::total_cmp);
    v.get(v.len() / 2).copied().unwrap_or(f64::NAN)
}

fn zarrs_version() -> String {
    let lock = include_str!("../Cargo.lock");
    let mut lines = lock.lines();
    while let Some(line) = lines.next() {
        if line == "name = \"zarrs\"" {
            if let Some(v) = lines.next().and_then(|l| l.strip_prefix("version = ")) {
                return v.trim_matches('"').to_string();
            }
        }
    }
    "unknown".to_string()
}

fn machine() -> String {
    let cpuinfo = std::fs::read_to_string("/proc/cpuinfo").unwrap_or_default();
    let model = cpuinfo
        .lines()
        .find_map(|l| l.strip_prefix("model name"))
        .map_or("unknown CPU", |m| m.trim_start_matches([' ', '\t', ':']));
    let cores = std::thread::available_parallelism().map_or(0, std::num::NonZero::get);
    #[cfg(target_arch = "x86_64")]
    let avx2 = if std::arch::is_x86_feature_detected!("avx2") {
        ", AVX2"
    } else {
        ", no AVX2"
    };
    #[cfg(not(target_arch = "x86_64"))]
    let avx2 = "";
    format!("{model}, {cores} cores ({}{avx2})", std::env::consts::ARCH)
}

fn rustc_version() -> String {
    std::process::Command::new("rustc")
        .arg("--version")
        .output()
        .ok()
        .and_then(|o| String::from_utf8(o.stdout).ok())
        .map_or("rustc: unknown".to_string(), |s| s.trim().to_string())
}

fn load() -> String {
    std::fs::read_to_string("/proc/loadavg")
        .ok()
        .and_then(|l| l.split_whitespace().next().map(str::to_string))
        .unwrap_or_else(|| "unknown".to_string())
}

fn size(n: usize) -> String {
    if n.is_multiple_of(1 << 20) {
        format!("{} Mi", n >> 20)
    } else {
        n.to_string()
    }
}

fn main() -> Res<()> {
    let args: Vec<String> = std::env::args().skip(1).collect();
    let samples = match args.as_slice() {
        [] => 15,
        [flag, n] if flag == "--samples" => n.parse()?,
        _ => return Err("usage: bench [--samples N]".into()),
    };
    if cfg!(debug_assertions) {
        eprintln!("warning: a debug build; run with --release for numbers worth reading");
    }
    let start = Instant::now();
    let load_before = load();

    let mut rows = Vec::new();
    for n in [1 << 20, 4 << 20] {
        add_rows(
            &mut rows,
            &Spec {
                case: "`numcodecs.fixedscaleoffset` float64 ← int16 (scale 100, offset 273.15)",
                plugin: r#"[{"name": "numcodecs.fixedscaleoffset", "configuration":
                    {"scale": 100, "offset": 273.15, "dtype": "<f8", "astype": "<i2"}}]"#,
                zarrs: r#"{"scale": 100, "offset": 273.15, "dtype": "<f8", "astype": "<i2"}"#,
                zarrs_exact: false,
                fill: 0.0f64,
                exact: |p: i16| f64::from(p) / 100.0 + 273.15,
                encode: false,
            },
            n,
        )?;
        add_rows(
            &mut rows,
            &Spec {
                case: "`numcodecs.fixedscaleoffset` float32 ← uint8 (scale 10, offset 0.5)",
                plugin: r#"[{"name": "numcodecs.fixedscaleoffset", "configuration":
                    {"scale": 10, "offset": 0.5, "dtype": "<f4", "astype": "|u1"}}]"#,
                // zarrs 0.23 reads "u1" but not "|u1" (it prefixes "<" to every name without one).
                zarrs: r#"{"scale": 10, "offset": 0.5, "dtype": "<f4", "astype": "u1"}"#,
                zarrs_exact: false,
                fill: 0.0f32,
                // numcodecs: (stored / scale + offset) in float64, then cast to float32.
                #[allow(clippy::cast_possible_truncation)]
                exact: |p: u8| (f64::from(p) / 10.0 + 0.5) as f32,
                encode: false,
            },
            n,
        )?;
        add_rows(
            &mut rows,
            &Spec {
                case: "`scale_offset` + `cast_value` float32 ← uint16 (scale 100, offset 200)",
                plugin: r#"[{"name": "scale_offset", "configuration": {"scale": 100, "offset": 200}},
                    {"name": "cast_value", "configuration": {"data_type": "uint16"}}]"#,
                zarrs: r#"{"scale": 100, "offset": 200, "dtype": "<f4", "astype": "<u2"}"#,
                zarrs_exact: true,
                fill: 200.0f32,
                exact: |p: u16| f32::from(p) / 100.0 + 200.0,
                encode: true,
            },
            n,
        )?;
        add_rows(
            &mut rows,
            &Spec {
                case: "`scale_offset` + `cast_value` float64 ← int16 (scale 100, offset 200)",
                plugin: r#"[{"name": "scale_offset", "configuration": {"scale": 100, "offset": 200}},
                    {"name": "cast_value", "configuration": {"data_type": "int16"}}]"#,
                zarrs: r#"{"scale": 100, "offset": 200, "dtype": "<f8", "astype": "<i2"}"#,
                zarrs_exact: true,
                fill: 200.0f64,
                exact: |p: i16| f64::from(p) / 100.0 + 200.0,
                encode: true,
            },
            n,
        )?;
        add_rows(
            &mut rows,
            &Spec {
                case:
                    "`cf.scale_offset` + `cast_value` float64 ← int16 (scale 0.01, offset 273.15)",
                plugin: r#"[{"name": "cf.scale_offset", "configuration": {"scale": 0.01, "offset": 273.15}},
                    {"name": "cast_value", "configuration": {"data_type": "int16"}}]"#,
                zarrs: r#"{"scale": 100, "offset": 273.15, "dtype": "<f8", "astype": "<i2"}"#,
                zarrs_exact: false,
                fill: 273.15f64,
                exact: |p: i16| f64::from(p) * 0.01 + 273.15,
                encode: true,
            },
            n,
        )?;
    }

    // Warm-up, then interleaved rounds: each round times every row's three contenders, starting
    // with a different one each round.
    let mut times: Vec<[Vec<f64>; 3]> = rows.iter().map(|_| Default::default()).collect();
    for row in &rows {
        for job in &row.jobs {
            job()?;
        }
    }
    for round in 0..samples {
        for (row, t) in rows.iter().zip(times.iter_mut()) {
            for k in 0..3 {
                let i = (round + k) % 3;
                if let (Some(job), Some(v)) = (row.jobs.get(i), t.get_mut(i)) {
                    v.push(sample(job, row.reps)?);
                }
            }
        }
    }

    println!(
        "| case | op | elements | plugin (ms) | zarrs' own (ms) | packed, `bytes` only (ms) \
         | zarrs' own ÷ plugin | plugin ÷ packed | zarrs' elements ≠ exact |"
    );
    println!("|---|---|---:|---:|---:|---:|---:|---:|---:|");
    for (row, t) in rows.iter().zip(times) {
        let [plugin, zarrs, floor] = t.map(median);
        println!(
            "| {} | {} | {} | {:.2} | {:.2} | {:.2} | {:.2}× | {:.2}× | {} |",
            row.case,
            row.op,
            size(row.n),
            plugin * 1e3,
            zarrs * 1e3,
            floor * 1e3,
            zarrs / plugin,
            plugin / floor,
            row.zarrs_differ
        );
    }
    println!();
    println!(
        "Median of {samples} interleaved samples per cell (milliseconds per whole-chunk call: \
         `retrieve_chunk` for decode, `store_chunk` for encode; zarrs' `MemoryStore`, one chunk \
         per array). \"zarrs' own\" is zarrs' `numcodecs.fixedscaleoffset` with the same scale, \
         offset and types; it is not exact: it holds scale and offset as f32 and computes \
         float32 chunks in f32, so its elements differ from the exact result wherever the \
         offset or scale is not an f32 value or numcodecs' float64 arithmetic rounds \
         differently (last column: elements of the chunk that differ; asserted 0 where the \
         parameters make its arithmetic exact). The plugin's results are asserted exact."
    );
    println!();
    println!(
        "zarrs {}, {}, {}; load average {} before, {} after; {:.0} s.",
        zarrs_version(),
        rustc_version(),
        machine(),
        load_before,
        load(),
        start.elapsed().as_secs_f64()
    );
    Ok(())
}
