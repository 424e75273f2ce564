//! The `cast_value` codec: scalar_map first (first duplicate wins; a NaN key matches every NaN),
//! then exact representability, then rounding, then out_of_range.
//!
//! - **Spec**: [zarr-extensions `codecs/cast_value/README.md`](https://github.com/zarr-developers/zarr-extensions/blob/main/codecs/cast_value/README.md)
//!   (merged with `scale_offset` in PR #43).
//! - **Names**: v3 `"cast_value"` (array -> array); no Zarr v2 id (a v2 `fixedscaleoffset`
//!   filter's `astype` is read by `numcodecs.fixedscaleoffset`, in `fixedscaleoffset.rs`).
//! - **Configuration**: `data_type` (required: the encoded data type), `rounding`
//!   (`"nearest-even"` by default, `"towards-zero"`, `"towards-positive"`, `"towards-negative"`,
//!   `"nearest-away"`), `out_of_range` (`"clamp"` or `"wrap"`; absent: an error), `scalar_map`
//!   (`{"encode": [[from, to], …], "decode": [[from, to], …]}`).
//!
//! ```
//! use zarr_scale_offset::{decode, encode, DataType, ErrorCode};
//!
//! // float64 -> uint8 with NaN stored as 0, values rounded half to even and clamped.
//! let codecs = r#"{"name": "cast_value", "configuration": {"data_type": "uint8",
//!     "rounding": "nearest-even", "out_of_range": "clamp",
//!     "scalar_map": {"encode": [["NaN", 0]], "decode": [[0, "NaN"]]}}}"#;
//! let x: Vec<u8> = [f64::NAN, 2.5, 3.5, 300.0, -4.0].iter().flat_map(|v| v.to_le_bytes()).collect();
//! let (stored_type, stored) = encode(codecs, "float64", &x)?;
//! assert_eq!(stored_type, DataType::UInt8);
//! assert_eq!(stored, [0, 2, 4, 255, 0]);
//! let back = decode(codecs, "float64", &[0, 2, 255])?;
//! let back: Vec<f64> = back.chunks(8).map(|b| f64::from_le_bytes(b.try_into().unwrap())).collect();
//! assert!(back[0].is_nan());
//! assert_eq!(back[1..], [2.0, 255.0]);
//!
//! // Without out_of_range, 300 does not fit uint8: an error naming the element.
//! let strict = r#"{"name": "cast_value", "configuration": {"data_type": "uint8"}}"#;
//! let e = encode(strict, "float64", &300f64.to_le_bytes()).unwrap_err();
//! assert_eq!(e.code, ErrorCode::OutOfRange);
//! # Ok::<(), zarr_scale_offset::Error>(())
//! ```

use zarr_scale_offset_core::cast::{cast_bits, same_value, show, value, Num, OutOfRange};
use crate::codec::{
    each_element, scalar, ArrayBinding, Binder, BoundArrayCodec, CodecDef, CodecKind, RunOptions,
};
use crate::json::data_type::read_data_type;
use zarr_scale_offset_core::dtype::DataType;
use zarr_scale_offset_core::error::{Error, Result};
use crate::report::Report;
use crate::json::{pointer_index, pointer_push, Fields, Json};
use zarr_scale_offset_core::kernels::cast::CastKernel;
use zarr_scale_offset_core::kernels::run_blocks;
use zarr_scale_offset_core::num::RoundingMode;
use zarr_scale_offset_core::direction::{Direction, PerDirection};
use std::any::Any;

/// The registry entry of this module.
pub const CODECS: &[CodecDef] = &[CodecDef {
    name: "cast_value",
    v2: None,
    kind: CodecKind::ArrayToArray,
    binder: Binder::Array(bind),
}];

/// Binds a configuration to the data type it receives; when that is unknown (`None`, already
/// reported), everything but the scalars of that type is still checked.
fn bind(
    config: Option<&Json>,
    pointer: &str,
    from: Option<DataType>,
    report: &mut Report,
) -> ArrayBinding {
    let (codec, encoded) = CastValue::parse_for(config, pointer, from, report);
    ArrayBinding {
        codec: codec.map(|c| Box::new(c) as Box<dyn BoundArrayCodec>),
        encoded,
    }
}

/// A `cast_value` codec bound to its input data type.
#[derive(Debug, Clone)]
pub struct CastValue {
    from: DataType,
    to: DataType,
    rounding: RoundingMode,
    out_of_range: OutOfRange,
    /// (key value in `from`, output bits in `to`), in order.
    encode_map: Vec<(Num, u64)>,
    /// (key value in `to`, output bits in `from`), in order.
    decode_map: Vec<(Num, u64)>,
    /// The fast paths for encode (`from` -> `to`) and decode, selected at bind time.
    kernels: PerDirection<CastKernel>,
}

fn parse_map(
    v: &Json,
    pointer: &str,
    key_type: Option<DataType>,
    val_type: Option<DataType>,
    report: &mut Report,
) -> Vec<(Num, u64)> {
    let Some(items) = v.as_array() else {
        report.error(Error::metadata(
            pointer,
            format!(
                "must be an array of [input, output] pairs, found {}",
                v.kind_name()
            ),
        ));
        return Vec::new();
    };
    // (key, output bits, where the key is, the key for messages), in document order.
    let mut entries: Vec<(Num, u64, String, (DataType, u64))> = Vec::with_capacity(items.len());
    for (i, item) in items.iter().enumerate() {
        let p = pointer_index(pointer, i);
        let Some([k, val]) = item.as_array() else {
            report.error(Error::metadata(
                &p,
                "each scalar_map entry must be a two-element array [input, output]",
            ));
            continue;
        };
        let kb = key_type.and_then(|t| scalar(t, k, &pointer_index(&p, 0), report).map(|b| (t, b)));
        let vb = val_type.and_then(|t| scalar(t, val, &pointer_index(&p, 1), report));
        if let (Some((t, kb)), Some(vb)) = (kb, vb) {
            entries.push((value(t, kb), vb, pointer_index(&p, 0), (t, kb)));
        }
    }
    // Sorted by key (ties by position), so that duplicates are found in O(n log n) and lookups
    // are a binary search: a map of a million entries is no hang. The first entry of a key wins.
    let mut order: Vec<usize> = (0..entries.len()).collect();
    crate::json::sort_indices(&mut order, &|a, b| match (entries.get(a), entries.get(b)) {
        (Some(x), Some(y)) => key_cmp(x.0, y.0).then(a.cmp(&b)),
        _ => a.cmp(&b),
    });
    let mut out: Vec<(Num, u64)> = Vec::with_capacity(entries.len());
    let mut repeated = vec![false; entries.len()];
    for &i in &order {
        let Some(&(key, vb, _, _)) = entries.get(i) else {
            continue;
        };
        match out.last() {
            Some(&(prev, _)) if same_value(prev, key) => {
                if let Some(r) = repeated.get_mut(i) {
                    *r = true;
                }
            }
            _ => out.push((key, vb)),
        }
    }
    // In document order (no second sort: each sort instantiation costs kilobytes of wasm).
    let dups: Vec<usize> = (0..entries.len())
        .filter(|&i| repeated.get(i) == Some(&true))
        .collect();
    // One warning per repeated key up to a bound, then one for the rest (showing a float key
    // takes an exact decimal conversion; hostile metadata may repeat a key a million times).
    for &i in dups.iter().take(MAX_DUPLICATE_WARNINGS) {
        if let Some((_, _, at, (t, kb))) = entries.get(i) {
            report.warn(
                at,
                "duplicate_key",
                format!("the input {} is already mapped by an earlier entry, which wins; writers should not repeat keys", show(*t, *kb)),
            );
        }
    }
    if let Some(&i) = dups.get(MAX_DUPLICATE_WARNINGS) {
        if let Some((_, _, at, _)) = entries.get(i) {
            report.warn(
                at,
                "duplicate_key",
                format!(
                    "{} more entries repeat an earlier input (from here on); the first entry of each input wins",
                    dups.len() - MAX_DUPLICATE_WARNINGS
                ),
            );
        }
    }
    out
}

/// Repeated `scalar_map` keys reported one by one; the rest get one warning.
const MAX_DUPLICATE_WARNINGS: usize = 100;

/// The order of `scalar_map` keys: integers by value, floats by value with -0 = 0 and every
/// NaN equal (after all numbers); equal exactly when [`same_value`] says so (keys of one map
/// share a data type, so integers and floats never meet).
fn key_cmp(a: Num, b: Num) -> std::cmp::Ordering {
    let canon = |x: f64| {
        if x.is_nan() {
            f64::NAN
        } else if x == 0.0 {
            0.0
        } else {
            x
        }
    };
    match (a, b) {
        (Num::Int(x), Num::Int(y)) => x.cmp(&y),
        (Num::Float(x), Num::Float(y)) => canon(x).total_cmp(&canon(y)),
        (Num::Int(_), Num::Float(_)) => std::cmp::Ordering::Less,
        (Num::Float(_), Num::Int(_)) => std::cmp::Ordering::Greater,
    }
}

/// The output bits for `v` in a map sorted by [`key_cmp`] without repeated keys.
#[inline]
fn lookup(map: &[(Num, u64)], v: Num) -> Option<u64> {
    map.binary_search_by(|(k, _)| key_cmp(*k, v))
        .ok()
        .and_then(|i| map.get(i))
        .map(|(_, o)| *o)
}

impl CastValue {
    /// Parses the configuration for input data type `from`. `pointer` is the codec object's.
    /// Lenient scalar forms are recorded in `warnings`.
    /// Parses the configuration for input data type `from`. Every problem is reported into
    /// `report`. Returns the codec (when valid) and the target data type (when it parsed, so a
    /// chain can go on checking the codecs after this one).
    pub fn parse(
        config: Option<&Json>,
        pointer: &str,
        from: DataType,
        report: &mut Report,
    ) -> (Option<Self>, Option<DataType>) {
        Self::parse_for(config, pointer, Some(from), report)
    }

    /// [`CastValue::parse`] for an input data type that may be unknown (`None`, already
    /// reported): the configuration is checked all the same, but for the scalars of that type,
    /// and no codec is bound.
    pub fn parse_for(
        config: Option<&Json>,
        pointer: &str,
        from: Option<DataType>,
        report: &mut Report,
    ) -> (Option<Self>, Option<DataType>) {
        let errors_before = report.error_count();
        let cfg_ptr = pointer_push(pointer, "configuration");
        let Some(cfg) = config else {
            report.error(Error::metadata(
                pointer,
                "cast_value needs a configuration with a \"data_type\"",
            ));
            return (None, None);
        };
        let keys = ["data_type", "rounding", "out_of_range", "scalar_map"];
        let what = "the cast_value configuration";
        let Some(cfg) = Fields::open(cfg, &cfg_ptr, what, &keys, report) else {
            return (None, None);
        };
        let to = cfg
            .required("data_type", report)
            .and_then(|dt| read_data_type(dt, &cfg.at("data_type"), report));
        let rounding = match cfg.get("rounding") {
            None => RoundingMode::NearestEven,
            Some(r) => r.as_str().and_then(RoundingMode::parse).unwrap_or_else(|| {
                report.error(Error::metadata(
                    &pointer_push(&cfg_ptr, "rounding"),
                    format!(
                        "{} is not a rounding mode; use one of \"nearest-even\", \"towards-zero\", \"towards-positive\", \"towards-negative\", \"nearest-away\"",
                        r.to_json_string()
                    ),
                ));
                RoundingMode::NearestEven
            }),
        };
        let oor_ptr = pointer_push(&cfg_ptr, "out_of_range");
        let out_of_range = match cfg.get("out_of_range") {
            None => OutOfRange::Error,
            Some(o) => match o.as_str() {
                Some("clamp") => OutOfRange::Clamp,
                Some("wrap") => {
                    if let Some(t) = to.filter(|t| t.int().is_none()) {
                        report.error(Error::metadata(
                            &oor_ptr,
                            format!("\"wrap\" is only permitted for integer data types, not {t}"),
                        ));
                    }
                    OutOfRange::Wrap
                }
                _ => {
                    report.error(Error::metadata(
                        &oor_ptr,
                        format!(
                            "{} is not an out_of_range mode; use \"clamp\" or \"wrap\"",
                            o.to_json_string()
                        ),
                    ));
                    OutOfRange::Error
                }
            },
        };
        let mut encode_map = Vec::new();
        let mut decode_map = Vec::new();
        let sm_keys = ["encode", "decode"];
        let sm = cfg
            .get("scalar_map")
            .and_then(|sm| Fields::open(sm, &cfg.at("scalar_map"), "scalar_map", &sm_keys, report));
        if let Some(sm) = sm {
            if let Some(v) = sm.get("encode") {
                encode_map = parse_map(v, &sm.at("encode"), from, to, report);
            }
            if let Some(v) = sm.get("decode") {
                decode_map = parse_map(v, &sm.at("decode"), to, from, report);
            }
        }
        match (from, to) {
            (Some(from), Some(to)) if report.error_count() == errors_before => (
                Some(CastValue {
                    kernels: PerDirection {
                        encode: CastKernel::select(from, to, rounding, &encode_map),
                        decode: CastKernel::select(to, from, rounding, &decode_map),
                    },
                    from,
                    to,
                    rounding,
                    out_of_range,
                    encode_map,
                    decode_map,
                }),
                Some(to),
            ),
            _ => (None, to),
        }
    }

    /// The input (decoded) data type.
    pub fn from(&self) -> DataType {
        self.from
    }
    /// The output (encoded) data type.
    pub fn to(&self) -> DataType {
        self.to
    }

    #[inline]
    fn cast(&self, dir: Direction, bits: u64) -> Result<u64> {
        let (from, to, map) = match dir {
            Direction::Encode => (self.from, self.to, &self.encode_map),
            Direction::Decode => (self.to, self.from, &self.decode_map),
        };
        if !map.is_empty() {
            if let Some(o) = lookup(map, value(from, bits)) {
                return Ok(o);
            }
        }
        // Wrap applies to integer outputs only (decoding into a float type cannot wrap).
        let oor = match (self.out_of_range, to.int()) {
            (OutOfRange::Wrap, None) => OutOfRange::Error,
            (o, _) => o,
        };
        cast_bits(from, to, bits, self.rounding, oor).map_err(|f| f.to_error(from, to, bits))
    }

    /// Casts one value of the input type (raw bits) forward.
    pub fn encode_value(&self, bits: u64) -> Result<u64> {
        self.cast(Direction::Encode, bits)
    }
    /// Casts one value of the output type (raw bits) back.
    pub fn decode_value(&self, bits: u64) -> Result<u64> {
        self.cast(Direction::Decode, bits)
    }

    /// Checks that a fill value survives encode then decode (NaN equals NaN; numeric equality).
    /// Returns the encoded fill.
    pub fn check_fill(&self, fill: u64) -> std::result::Result<u64, String> {
        let enc = self
            .encode_value(fill)
            .map_err(|e| format!("it cannot be cast to {}: {}", self.to, e.message))?;
        let back = self.decode_value(enc).map_err(|e| {
            format!(
                "its encoded value {} cannot be cast back: {}",
                show(self.to, enc),
                e.message
            )
        })?;
        if !same_value(value(self.from, fill), value(self.from, back)) {
            return Err(format!(
                "it does not survive the cast_value round trip: {} -> {} ({}) -> {}",
                show(self.from, fill),
                show(self.to, enc),
                self.to,
                show(self.from, back)
            ));
        }
        Ok(enc)
    }

    /// What happens to values outside the target's range.
    pub fn out_of_range(&self) -> OutOfRange {
        self.out_of_range
    }

    /// The kernels selected at bind time: (encode, decode).
    pub fn kernels(&self) -> (&CastKernel, &CastKernel) {
        (&self.kernels.encode, &self.kernels.decode)
    }

    /// The reference: element by element; `first` is the index of `input`'s first element in
    /// the chunk (for error messages).
    fn each(&self, dir: Direction, first: usize, input: &[u8], out: &mut [u8]) -> Result<()> {
        let (src, dst) = dir.order(self.from, self.to);
        each_element(src, dst, input, out, |i, b| {
            self.cast(dir, b)
                .map_err(|e| e.context(format!("element {}", first + i)))
        })
    }
}

impl BoundArrayCodec for CastValue {
    fn name(&self) -> &'static str {
        "cast_value"
    }
    fn decoded_type(&self) -> DataType {
        self.from
    }
    fn encoded_type(&self) -> DataType {
        self.to
    }
    /// The fill value must survive the round trip (see [`CastValue::check_fill`]).
    fn encode_fill(&self, fill: u64) -> std::result::Result<Option<u64>, String> {
        self.check_fill(fill).map(Some).map_err(|m| {
            format!(
                "invalid fill value {} for cast_value: {m}",
                show(self.from, fill)
            )
        })
    }
    fn value(&self, dir: Direction, bits: u64) -> Option<u64> {
        self.cast(dir, bits).ok()
    }
    /// The kernel selected at bind time; the reference (`each`) for the blocks it declines.
    fn run(&self, dir: Direction, input: &[u8], out: &mut [u8], opts: RunOptions) -> Result<()> {
        let k = self.kernels.get(dir);
        if opts.reference_only || !k.is_some() {
            return self.each(dir, 0, input, out);
        }
        let (src, dst) = dir.order(self.from, self.to);
        run_blocks(
            input,
            out,
            src.size(),
            dst.size(),
            |i, o| k.run(i, o),
            |first, i, o| self.each(dir, first, i, o),
        )
    }
    fn as_any(&self) -> &dyn Any {
        self
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::json::parse;

    fn bind(config: &str, from: DataType) -> (CastValue, Report) {
        let mut r = Report::default();
        let cfg = parse(config).unwrap();
        let (cv, _) = CastValue::parse(Some(&cfg), "/codecs/0", from, &mut r);
        (cv.unwrap(), r)
    }

    /// Keys compare numerically (-0 = 0, every NaN alike); the first entry of a key wins and every
    /// later one is a `duplicate_key` warning at its own place, in document order.
    #[test]
    fn scalar_map_first_entry_wins_and_duplicates_are_reported_in_order() {
        let (cv, r) = bind(
            r#"{"data_type":"int8","scalar_map":{"encode":[[1.0,10],["NaN",20],[-0.0,30],[1,40],[0.0,50],["0x7fc00001",60],[2.5,70]]}}"#,
            DataType::Float32,
        );
        let f = |x: f32| u64::from(x.to_bits());
        assert_eq!(cv.encode_value(f(1.0)).unwrap(), 10);
        assert_eq!(cv.encode_value(f(f32::NAN)).unwrap(), 20);
        assert_eq!(cv.encode_value(f(-f32::NAN)).unwrap() & 0xff, 20);
        assert_eq!(cv.encode_value(f(0.0)).unwrap(), 30);
        assert_eq!(cv.encode_value(f(-0.0)).unwrap(), 30);
        assert_eq!(cv.encode_value(f(2.5)).unwrap(), 70);
        assert_eq!(cv.encode_value(f(3.0)).unwrap(), 3);
        let dups: Vec<&str> = r
            .warnings
            .iter()
            .filter(|w| w.code == "duplicate_key")
            .map(|w| w.path.as_str())
            .collect();
        assert_eq!(
            dups,
            [
                "/codecs/0/configuration/scalar_map/encode/3/0",
                "/codecs/0/configuration/scalar_map/encode/4/0",
                "/codecs/0/configuration/scalar_map/encode/5/0",
            ]
        );
    }

    /// A map of 80,000 entries (half of them repeats) binds and looks up in O(n log n), not
    /// O(n^2): hostile metadata cannot make binding or decoding hang.
    #[test]
    fn huge_scalar_map_binds_fast() {
        // 2n entries of 3 JSON values each, within json::MAX_VALUES (262,144).
        let n = 40_000i64;
        let mut items: Vec<String> = (0..n).map(|i| format!("[{},{}]", 3 * i, -i)).collect();
        items.extend((0..n).map(|i| format!("[{},{}]", 3 * (n - 1 - i), 7)));
        let text = format!(
            r#"{{"data_type":"int32","scalar_map":{{"encode":[{}]}}}}"#,
            items.join(",")
        );
        // (Quadratic duplicate detection took minutes here: 2 * 10^10 comparisons.)
        let (cv, r) = bind(&text, DataType::Int32);
        for i in [0, 1, 2, 3, 119_997, 119_998] {
            let want = if i % 3 == 0 { -(i / 3) } else { i };
            assert_eq!(
                cv.encode_value(i as u64).unwrap() as u32 as i32,
                want,
                "{i}"
            );
        }
        let dups: Vec<_> = r
            .warnings
            .iter()
            .filter(|w| w.code == "duplicate_key")
            .collect();
        assert_eq!(dups.len(), MAX_DUPLICATE_WARNINGS + 1);
        let more = format!("{} more entries", n as usize - MAX_DUPLICATE_WARNINGS);
        assert!(dups[MAX_DUPLICATE_WARNINGS].message.starts_with(&more));
    }
}
