//! Codec chains: split a codecs list into entries, check its order, bind each codec to the data
//! type and fill value it receives (passing both forward), and run encode/decode over a chunk.
//! Every parser reports into a [`Report`] and goes on, so the same code gives the strict API its
//! first error and the validator every problem. The zarr.json document is read in
//! [`crate::metadata`]; the typed-array API's arguments in [`crate::args`].

use crate::codec::{
    check_known, json_int, known_codec, lookup, Binder, BoundArrayCodec, BoundArrayToBytes,
    CodecKind, Fused, RunOptions, ShapeRule, SHARDING,
};
use crate::json::fields::must_be;
use crate::json::Quoted;
use crate::json::{pointer_index, Fields, Json};
use crate::report::Report;
use std::sync::OnceLock;
use zarr_scale_offset_core::buf::{byte_len, copy_exact};
use zarr_scale_offset_core::direction::{Direction, PerDirection};
use zarr_scale_offset_core::dtype::DataType;
use zarr_scale_offset_core::error::{Error, ErrorCode, Result};
use zarr_scale_offset_core::kernels::fused::{FusedDecode, FusedEncode};
use zarr_scale_offset_core::kernels::{pipeline, run_blocks, Lut8, Stage};

/// One parsed entry of a codecs list.
#[derive(Debug, Clone, Copy)]
pub struct Entry<'a> {
    /// Index in the list (`usize::MAX` for a lone codec, whose pointer is the base itself).
    pub index: usize,
    /// Codec name.
    pub name: &'a str,
    /// Its configuration, when present.
    pub config: Option<&'a Json>,
    /// `"must_understand": false` was given.
    pub optional: bool,
}

/// Splits a codec entry (short-hand string or object) into name and configuration.
pub fn parse_entry<'a>(
    v: &'a Json,
    pointer: &str,
    index: usize,
    report: &mut Report,
) -> Option<Entry<'a>> {
    match v {
        Json::String(name) => Some(Entry {
            index,
            name,
            config: None,
            optional: false,
        }),
        Json::Object(_) => {
            let keys = ["name", "configuration", "must_understand"];
            let f = Fields::open(v, pointer, "a codec object", &keys, report)?;
            let optional = match f.get("must_understand") {
                None => false,
                Some(Json::Bool(b)) => !b,
                Some(_) => {
                    report.error(Error::metadata(
                        &f.at("must_understand"),
                        "must_understand must be a boolean",
                    ));
                    false
                }
            };
            let name = match f.get("name") {
                None => {
                    report.error(Error::metadata(pointer, "a codec object needs a \"name\""));
                    return None;
                }
                Some(Json::String(n)) => n.as_str(),
                Some(other) => {
                    report.error(Error::metadata(
                        &f.at("name"),
                        format!("must be a string, found {}", other.kind_name()),
                    ));
                    return None;
                }
            };
            Some(Entry {
                index,
                name,
                config: f.get("configuration"),
                optional,
            })
        }
        _ => {
            report.error(Error::metadata(
                pointer,
                format!(
                    "a codec must be a string or an object, found {}",
                    v.kind_name()
                ),
            ));
            None
        }
    }
}

/// Chunks smaller than this do not use a lookup table (building it costs 256 element runs).
const LUT_MIN_ELEMENTS: usize = 1024;

/// How a bound chain runs in one direction, chosen at bind time.
#[derive(Debug)]
enum Plan {
    /// `[scale_offset, cast_value]` in one loop (see [`zarr_scale_offset_core::kernels::fused`]).
    Fused(Fused),
    /// A one-byte source: every one of the 256 results precomputed by the reference on first
    /// use (chunks of at least [`LUT_MIN_ELEMENTS`]; smaller ones use the pipeline).
    Table(OnceLock<Option<Lut8>>),
    /// Every codec's kernel in turn over cache-sized tiles.
    Pipeline,
}

/// One bound codec of a chain and the JSON pointer of its entry (for error messages).
struct Link {
    pointer: String,
    codec: Box<dyn BoundArrayCodec>,
}

impl std::fmt::Debug for Link {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(f, "{} at {:?}", self.codec.name(), self.pointer)
    }
}

/// A bound list of array -> array codecs.
#[derive(Debug)]
pub struct ArrayChain {
    links: Vec<Link>,
    decoded: DataType,
    encoded: DataType,
    encoded_fill: Option<u64>,
    plan: PerDirection<Plan>,
}

/// The most array -> array codecs a chain may have. The spec sets no limit; this one bounds
/// what a document can make every chunk cost (each codec is a pass over the chunk). More is
/// `invalid_metadata` at the first codec past the limit, for `validate`, the bind API, the
/// typed-array API and the chunk API alike (they all bind through [`ArrayChain::bind`]).
pub const MAX_ARRAY_CODECS: usize = 64;

fn entry_pointer(base: &str, index: usize) -> String {
    if index == usize::MAX {
        base.to_string()
    } else {
        pointer_index(base, index)
    }
}

fn unsupported(pointer: &str, name: &str) -> Error {
    let what = match known_codec(name) {
        Some((kind, _)) => format!(
            "the {} codec {} is not implemented by zarr-scale-offset",
            kind.as_str(),
            Quoted(name)
        ),
        None => format!("unknown codec {}", Quoted(name)),
    };
    Error::at(ErrorCode::UnsupportedCodec, pointer, what)
}

/// Reports an unknown codec: an error, or a warning when it is marked `must_understand: false`
/// (then it is skipped). Returns whether it was skipped.
fn skip_unknown(e: &Entry, pointer: &str, report: &mut Report) -> bool {
    if known_codec(e.name).is_some() {
        return false;
    }
    if e.optional {
        report.warn(
            pointer,
            "ignored_codec",
            format!(
                "unknown codec {} has must_understand: false, so it is ignored",
                Quoted(e.name)
            ),
        );
        return true;
    }
    report.error(unsupported(pointer, e.name));
    false
}

impl ArrayChain {
    /// Binds array -> array entries to `dtype` and `fill`: each codec is bound to the data type
    /// and fill value the one before it produces (the fill rule is each codec's own). `dtype` is
    /// `None` when the data type is unknown (already reported): the entries are then only
    /// checked for shape.
    pub fn bind(
        entries: &[Entry],
        base: &str,
        dtype: Option<DataType>,
        fill: Option<u64>,
        report: &mut Report,
    ) -> Option<ArrayChain> {
        Self::bind_typed(entries, base, dtype, fill, report).0
    }

    /// [`ArrayChain::bind`], and the data type after the codecs whenever it is known, even when
    /// the chain does not bind (an unknown array data type, a codec with errors): the
    /// array -> bytes codec is then still checked against it.
    pub(crate) fn bind_typed(
        entries: &[Entry],
        base: &str,
        dtype: Option<DataType>,
        fill: Option<u64>,
        report: &mut Report,
    ) -> (Option<ArrayChain>, Option<DataType>) {
        if let Some(e) = entries.get(MAX_ARRAY_CODECS) {
            report.error(Error::metadata(
                &entry_pointer(base, e.index),
                format!(
                    "a chain may have at most {MAX_ARRAY_CODECS} array->array codecs; this one has {}",
                    entries.len()
                ),
            ));
            return (None, None);
        }
        let errors_before = report.error_count();
        let mut cur = dtype;
        let mut cur_fill = fill;
        let mut links = Vec::with_capacity(entries.len());
        // False once a codec is known but not implemented here (reported as unsupported).
        let mut runnable = true;
        for e in entries {
            let p = entry_pointer(base, e.index);
            let binder = lookup(e.name).map(|d| d.binder);
            if let Some(Binder::Known(k)) = binder {
                // Valid when its configuration is; this crate cannot run it (the strict API's
                // error, first).
                report.unsupported(unsupported(&p, e.name));
                check_known(k, e.config, &p, report);
                runnable = false;
                // transpose moves values without changing them: the fill value passes as is.
                if k.shape != ShapeRule::Permute {
                    cur_fill = None;
                }
                if !k.keeps_type {
                    cur = None;
                }
                continue;
            }
            let Some(input) = cur else {
                // Unknown input type: each configuration is still checked on its own (and a
                // cast_value names the type the codecs after it receive); nothing is bound.
                match binder {
                    Some(Binder::Array(bind)) => cur = bind(e.config, &p, None, report).encoded,
                    Some(_) => {}
                    None => {
                        skip_unknown(e, &p, report);
                    }
                }
                continue;
            };
            let Some(Binder::Array(bind)) = binder else {
                if binder.is_some() {
                    report.error(unsupported(&p, e.name));
                } else {
                    skip_unknown(e, &p, report);
                }
                if !e.optional || binder.is_some() {
                    cur = None;
                }
                continue;
            };
            let b = bind(e.config, &p, Some(input), report);
            cur = b.encoded;
            let Some(codec) = b.codec else {
                cur_fill = None;
                continue;
            };
            if let Some(f) = cur_fill {
                cur_fill = codec.encode_fill(f).unwrap_or_else(|m| {
                    report.error(Error::metadata(&p, m));
                    None
                });
            }
            cur = Some(codec.encoded_type());
            links.push(Link { pointer: p, codec });
        }
        let (Some(decoded), Some(encoded)) = (dtype, cur) else {
            return (None, cur);
        };
        if report.error_count() > errors_before || !runnable {
            return (None, cur);
        }
        let fused = match links.as_slice() {
            [a, b] => a.codec.fuse(&*b.codec),
            _ => PerDirection::default(),
        };
        let plan = fused.map(|dir, f| match f {
            Some(f) => Plan::Fused(f),
            None if dir.order(decoded, encoded).0.size() == 1 && !links.is_empty() => {
                Plan::Table(OnceLock::new())
            }
            None => Plan::Pipeline,
        });
        let chain = ArrayChain {
            links,
            decoded,
            encoded,
            encoded_fill: cur_fill,
            plan,
        };
        (Some(chain), Some(encoded))
    }

    /// The data type after all codecs.
    pub fn encoded_dtype(&self) -> DataType {
        self.encoded
    }
    /// The data type before all codecs.
    pub fn decoded_dtype(&self) -> DataType {
        self.decoded
    }
    /// The fill value after all codecs (when a fill was bound).
    pub fn encoded_fill(&self) -> Option<u64> {
        self.encoded_fill
    }

    /// The fused `[scale_offset, cast_value]` encode chosen at bind time, if any (for tests).
    #[doc(hidden)]
    pub fn fused_encode(&self) -> Option<&FusedEncode> {
        match &self.plan.encode {
            Plan::Fused(Fused::Encode(f)) => Some(f),
            _ => None,
        }
    }

    /// The fused `[scale_offset, cast_value]` decode chosen at bind time, if any (for tests).
    #[doc(hidden)]
    pub fn fused_decode(&self) -> Option<&FusedDecode> {
        match &self.plan.decode {
            Plan::Fused(Fused::Decode(f)) => Some(f),
            _ => None,
        }
    }

    /// Encodes in-memory data of the decoded type.
    pub fn encode(&self, data: &[u8]) -> Result<Vec<u8>> {
        self.run_to_vec(Direction::Encode, data, RunOptions::default())
    }

    /// Decodes in-memory data of the encoded type.
    pub fn decode(&self, data: &[u8]) -> Result<Vec<u8>> {
        self.run_to_vec(Direction::Decode, data, RunOptions::default())
    }

    /// Runs the chain in `dir` into a new buffer.
    pub fn run_to_vec(&self, dir: Direction, data: &[u8], opts: RunOptions) -> Result<Vec<u8>> {
        let (src, dst) = dir.order(self.decoded, self.encoded);
        let mut out = vec![0u8; byte_len(data.len() / src.size(), dst.size())?];
        self.run(dir, data, &mut out, opts)?;
        Ok(out)
    }

    /// Encodes in-memory data of the decoded type into `out` (in-memory data of the encoded
    /// type, the same number of elements).
    pub fn encode_into(&self, data: &[u8], out: &mut [u8]) -> Result<()> {
        self.run(Direction::Encode, data, out, RunOptions::default())
    }

    /// Decodes in-memory data of the encoded type into `out` (in-memory data of the decoded
    /// type, the same number of elements).
    pub fn decode_into(&self, data: &[u8], out: &mut [u8]) -> Result<()> {
        self.run(Direction::Decode, data, out, RunOptions::default())
    }

    /// Runs the chain in `dir` over `data` into `out` (the same number of elements): the plan
    /// chosen at bind time, and when it declines, the reference, which reports the error. This
    /// is the one place where a fast path hands over to the reference.
    pub fn run(&self, dir: Direction, data: &[u8], out: &mut [u8], opts: RunOptions) -> Result<()> {
        let (src, dst) = dir.order(self.decoded, self.encoded);
        check_in_memory(src, data)?;
        let n = data.len() / src.size();
        let want = byte_len(n, dst.size())?;
        if out.len() != want {
            return Err(Error::new(
                ErrorCode::LengthMismatch,
                format!(
                    "the output has {} bytes; {n} {dst} elements need {want}",
                    out.len(),
                ),
            ));
        }
        if !opts.reference_only && self.run_plan(dir, n, data, out) {
            return Ok(());
        }
        self.reference(dir, data, out, opts)
    }

    /// The fast plan of `dir`; `false` when it declines somewhere (the outputs are then
    /// unspecified).
    fn run_plan(&self, dir: Direction, n: usize, data: &[u8], out: &mut [u8]) -> bool {
        let opts = RunOptions::default();
        match self.plan.get(dir) {
            Plan::Fused(Fused::Decode(f)) => {
                f.run(data, out);
                true
            }
            Plan::Fused(Fused::Encode(f)) => {
                let (src, dst) = dir.order(self.decoded, self.encoded);
                run_blocks(
                    data,
                    out,
                    src.size(),
                    dst.size(),
                    |i, o| f.run(i, o),
                    |_, i, o| self.reference(dir, i, o, opts),
                )
                .is_ok()
            }
            Plan::Table(lut) if n >= LUT_MIN_ELEMENTS => {
                match lut.get_or_init(|| self.build_table(dir)) {
                    Some(t) => t.run(data, out),
                    None => false,
                }
            }
            Plan::Table(_) | Plan::Pipeline => {
                let runs: Vec<_> = self
                    .links
                    .iter()
                    .map(|l| {
                        let c = &*l.codec;
                        let (a, b) = dir.order(c.decoded_type(), c.encoded_type());
                        let run = move |i: &[u8], o: &mut [u8]| c.run(dir, i, o, opts);
                        (a.size(), b.size(), run)
                    })
                    .collect();
                let mut stages: Vec<Stage> = runs
                    .iter()
                    .map(|(a, b, run)| Stage {
                        in_size: *a,
                        out_size: *b,
                        run,
                    })
                    .collect();
                if dir == Direction::Decode {
                    stages.reverse();
                }
                pipeline(&stages, data, out)
            }
        }
    }

    /// The whole-chain lookup table of `dir` (its source has one byte per element), built with
    /// the per-element reference; `None` when the source type has fewer than 256 codes... or
    /// when some code fails (the table then marks it for the reference).
    fn build_table(&self, dir: Direction) -> Option<Lut8> {
        let (src, dst) = dir.order(self.decoded, self.encoded);
        Some(Lut8::build(dst.size(), |byte| {
            let mut bits = src.read_bits(&[byte], 0);
            match dir {
                Direction::Encode => {
                    for l in &self.links {
                        bits = l.codec.value(dir, bits)?;
                    }
                }
                Direction::Decode => {
                    for l in self.links.iter().rev() {
                        bits = l.codec.value(dir, bits)?;
                    }
                }
            }
            Some(bits)
        }))
    }

    /// The reference: codec by codec over the whole buffer, in the order of `dir`; an error names
    /// the codec's pointer, its direction and types.
    fn reference(
        &self,
        dir: Direction,
        data: &[u8],
        out: &mut [u8],
        opts: RunOptions,
    ) -> Result<()> {
        let order: Vec<&Link> = match dir {
            Direction::Encode => self.links.iter().collect(),
            Direction::Decode => self.links.iter().rev().collect(),
        };
        let Some((last, first)) = order.split_last() else {
            return copy_exact(out, data, "the input");
        };
        let (src, _) = dir.order(self.decoded, self.encoded);
        let n = data.len() / src.size();
        let step = |l: &Link, i: &[u8], o: &mut [u8]| {
            let c = &*l.codec;
            c.run(dir, i, o, opts).map_err(|e| {
                let (a, b) = dir.order(c.decoded_type(), c.encoded_type());
                let what = format!("{} {}, {a} -> {b}", c.name(), dir.as_str());
                // A single bound codec has the root pointer: no empty pointer in the message.
                e.context(if l.pointer.is_empty() {
                    what
                } else {
                    format!("{} ({what})", l.pointer)
                })
            })
        };
        let mut cur: Option<Vec<u8>> = None;
        for l in first {
            let (_, b) = dir.order(l.codec.decoded_type(), l.codec.encoded_type());
            let mut next = vec![0u8; byte_len(n, b.size())?];
            step(l, cur.as_deref().unwrap_or(data), &mut next)?;
            cur = Some(next);
        }
        step(last, cur.as_deref().unwrap_or(data), out)
    }
}

/// Checks an in-memory buffer: whole elements, and for the sub-byte and 4/6/8-bit types values
/// that fit (sign- or zero-extended integers, float codes with the upper bits zero).
pub fn check_in_memory(dtype: DataType, data: &[u8]) -> Result<()> {
    let size = dtype.size();
    if data.len() % size != 0 {
        return Err(Error::new(
            ErrorCode::LengthMismatch,
            format!(
                "{} bytes is not a whole number of {dtype} elements ({size} bytes each)",
                data.len()
            ),
        ));
    }
    if size == 1 && dtype.bits() < 8 {
        for (i, &b) in data.iter().enumerate() {
            let stored = match dtype.int() {
                Some(f) if f.signed => b as i8 as i64 as u64,
                _ => b as u64,
            };
            if dtype.read_bits(data, i) != stored {
                let shown = if dtype.int().is_some_and(|f| f.signed) {
                    (b as i8).to_string()
                } else {
                    b.to_string()
                };
                return Err(Error::new(
                    ErrorCode::InvalidData,
                    format!("element {i} (value {shown}) is not a valid in-memory {dtype} value"),
                ));
            }
        }
    }
    Ok(())
}

/// A whole bound chain: array -> array codecs and the array -> bytes codec.
pub struct Chain {
    array: ArrayChain,
    bytes: Box<dyn BoundArrayToBytes>,
}

impl std::fmt::Debug for Chain {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("Chain").field("array", &self.array).finish()
    }
}

/// What a codecs list receives, as far as it is known: the chunk's data type (one of the table's, or
/// another one this crate knows by name), fill value and shape.
#[derive(Debug, Clone, Default)]
pub struct ChunkSpec {
    /// One of the numeric types of the data-type table.
    pub dtype: Option<DataType>,
    /// The data type is one this crate knows but does not compute on (`bool`, `complex64`, ...).
    pub other: bool,
    /// The fill value (raw bits of `dtype`).
    pub fill: Option<u64>,
    /// The chunk shape.
    pub shape: Option<Vec<u64>>,
    /// The chain is a shard's `index_codecs`: its encoded size must be fixed (no compression).
    pub index: bool,
}

impl Chain {
    /// Parses and binds a full codecs list (`pointer` of the list) for `dtype` and `fill`,
    /// checking the order array->array*, one array->bytes, bytes->bytes*.
    pub fn bind(
        list: &Json,
        pointer: &str,
        dtype: Option<DataType>,
        fill: Option<u64>,
        report: &mut Report,
    ) -> Option<Chain> {
        let spec = ChunkSpec {
            dtype,
            fill,
            ..ChunkSpec::default()
        };
        Self::bind_spec(list, pointer, &spec, report)
    }

    /// [`Chain::bind`] for the chunk `spec` describes: codecs this crate knows but does not
    /// implement are checked (`sharding_indexed` with the codecs inside it, for its inner chunk)
    /// and reported as unsupported; the chain binds only when it has none.
    pub fn bind_spec(
        list: &Json,
        pointer: &str,
        spec: &ChunkSpec,
        report: &mut Report,
    ) -> Option<Chain> {
        let errors_before = report.error_count();
        let Some(items) = list.as_array() else {
            report.error(Error::metadata(
                pointer,
                format!("codecs must be an array, found {}", list.kind_name()),
            ));
            return None;
        };
        if items.is_empty() {
            report.error(Error::metadata(
                pointer,
                "codecs must not be empty: it needs an array->bytes codec",
            ));
            return None;
        }
        let mut array_entries = Vec::new();
        let mut bytes_entry: Option<Entry> = None;
        let mut bytes_to_bytes = Vec::new();
        for (i, item) in items.iter().enumerate() {
            let p = pointer_index(pointer, i);
            let Some(e) = parse_entry(item, &p, i, report) else {
                continue;
            };
            match (known_codec(e.name).map(|k| k.0), bytes_entry.is_some()) {
                (None, _) => {
                    if !skip_unknown(&e, &p, report) {
                        // An unknown codec's kind is unknown: what follows cannot be checked.
                        return None;
                    }
                }
                (Some(CodecKind::ArrayToArray), false) => array_entries.push(e),
                (Some(CodecKind::ArrayToArray), true) => report.error(Error::metadata(
                    &p,
                    format!(
                        "the array->array codec {} must come before the array->bytes codec",
                        Quoted(e.name)
                    ),
                )),
                (Some(CodecKind::ArrayToBytes), false) => bytes_entry = Some(e),
                (Some(CodecKind::ArrayToBytes), true) => report.error(Error::metadata(
                    &p,
                    "a codecs list has exactly one array->bytes codec; this is a second one",
                )),
                (Some(CodecKind::BytesToBytes), false) => report.error(Error::metadata(
                    &p,
                    format!(
                        "the bytes->bytes codec {} must come after the array->bytes codec",
                        Quoted(e.name)
                    ),
                )),
                (Some(CodecKind::BytesToBytes), true) => bytes_to_bytes.push((p, e)),
            }
        }
        if bytes_entry.is_none() {
            report.error(Error::metadata(
                pointer,
                "codecs has no array->bytes codec (e.g. \"bytes\")",
            ));
        }
        if spec.other {
            // This crate's array->array codecs are defined for the table's numeric types only.
            for e in &array_entries {
                if let Some(Binder::Array(_)) = lookup(e.name).map(|d| d.binder) {
                    report.error(Error::metadata(
                        &pointer_index(pointer, e.index),
                        format!(
                            "this codec is defined for the {} numeric data types only",
                            zarr_scale_offset_core::dtype::COUNT
                        ),
                    ));
                }
            }
        }
        let shape = shape_after(&array_entries, pointer, spec.shape.clone(), report);
        let (array, input) =
            ArrayChain::bind_typed(&array_entries, pointer, spec.dtype, spec.fill, report);
        let bytes = bytes_entry.and_then(|be| {
            let bp = pointer_index(pointer, be.index);
            if let Some(Binder::Sharding) = lookup(be.name).map(|d| d.binder) {
                let inner = ChunkSpec {
                    dtype: input,
                    other: spec.other && array_entries.is_empty(),
                    fill: array.as_ref().and_then(ArrayChain::encoded_fill),
                    shape,
                    index: false,
                };
                report.unsupported(unsupported(&bp, be.name));
                check_sharding(be.config, &bp, &inner, report);
                return None;
            }
            bind_bytes(&be, &bp, input, report)
        });
        for (p, e) in bytes_to_bytes {
            if spec.index && !FIXED_SIZE.contains(&e.name) {
                report.error(Error::metadata(
                    &p,
                    "the index codecs must have a fixed encoded size: no compression codec",
                ));
            }
            report.unsupported(unsupported(&p, e.name));
            if let Some(Binder::Known(k)) = lookup(e.name).map(|d| d.binder) {
                check_known(k, e.config, &p, report);
            }
        }
        if report.error_count() > errors_before {
            return None;
        }
        Some(Chain {
            array: array?,
            bytes: bytes?,
        })
    }

    /// Encodes a chunk's in-memory data to stored bytes.
    pub fn encode(&self, data: &[u8]) -> Result<Vec<u8>> {
        let v = self.array.encode(data)?;
        if self.bytes.is_identity() {
            return Ok(v);
        }
        Ok(self.bytes.encode(&v))
    }
    /// Decodes a chunk's stored bytes to in-memory data.
    pub fn decode(&self, bytes: &[u8]) -> Result<Vec<u8>> {
        if self.bytes.is_identity() {
            return self.array.decode(bytes);
        }
        self.array.decode(&self.bytes.decode(bytes))
    }
    /// Encodes a chunk's in-memory data into `out` (its stored bytes).
    pub fn encode_into(&self, data: &[u8], out: &mut [u8]) -> Result<()> {
        if self.bytes.is_identity() {
            return self.array.encode_into(data, out);
        }
        let v = self.bytes.encode(&self.array.encode(data)?);
        copy_exact(out, &v, "the encoded chunk")
    }
    /// Decodes a chunk's stored bytes into `out` (in-memory data of the decoded type).
    pub fn decode_into(&self, bytes: &[u8], out: &mut [u8]) -> Result<()> {
        if self.bytes.is_identity() {
            return self.array.decode_into(bytes, out);
        }
        self.array.decode_into(&self.bytes.decode(bytes), out)
    }
    /// The data type of the array (what `decode` produces).
    pub fn decoded_dtype(&self) -> DataType {
        self.array.decoded
    }
    /// The data type the array -> bytes codec receives.
    pub fn encoded_dtype(&self) -> DataType {
        self.array.encoded_dtype()
    }
}

/// Binds an array -> bytes entry through the registry (an unsupported error when this crate
/// does not implement it).
pub fn bind_bytes(
    e: &Entry,
    pointer: &str,
    dtype: Option<DataType>,
    report: &mut Report,
) -> Option<Box<dyn BoundArrayToBytes>> {
    match lookup(e.name).map(|d| d.binder) {
        Some(Binder::Bytes(bind)) => bind(e.config, pointer, dtype, report),
        Some(b @ (Binder::Known(_) | Binder::Sharding)) => {
            report.unsupported(unsupported(pointer, e.name));
            match b {
                Binder::Known(k) => check_known(k, e.config, pointer, report),
                _ => check_sharding(e.config, pointer, &ChunkSpec::default(), report),
            }
            None
        }
        _ => {
            report.error(unsupported(pointer, e.name));
            None
        }
    }
}

/// The chunk shape after the array -> array codecs `entries` (of the list at `pointer`): each
/// codec's [`ShapeRule`] (transpose permutes it, checking that its `order` has one entry per
/// dimension); `None` once it is unknown.
fn shape_after(
    entries: &[Entry],
    pointer: &str,
    mut shape: Option<Vec<u64>>,
    report: &mut Report,
) -> Option<Vec<u64>> {
    for e in entries {
        let Some(Binder::Known(k)) = lookup(e.name).map(|d| d.binder) else {
            continue;
        };
        if k.shape != ShapeRule::Permute {
            continue;
        }
        let order = e.config.and_then(|c| c.get("order"));
        let perm = order.and_then(crate::codec::permutation);
        shape = match (shape, perm, order) {
            (Some(s), Some(perm), Some(order)) if perm.len() != s.len() => {
                let p = entry_pointer(pointer, e.index);
                let what = "a permutation with one entry per dimension of the chunk";
                report.error(must_be(&format!("{p}/configuration/order"), what, order));
                None
            }
            // B_shape[i] = A_shape[order[i]] (transpose, "Format and algorithm").
            (Some(s), Some(perm), _) => {
                let mut out = Vec::with_capacity(s.len());
                for i in perm {
                    out.push(s.get(i).copied().unwrap_or_default());
                }
                Some(out)
            }
            _ => None,
        };
    }
    shape
}

/// The bytes -> bytes codecs with a fixed encoded size (checksums), the only ones an index may
/// use.
const FIXED_SIZE: &[&str] = &[
    "crc32c",
    "numcodecs.crc32",
    "numcodecs.crc32c",
    "numcodecs.adler32",
    "numcodecs.fletcher32",
    "numcodecs.jenkins_lookup3",
];

/// Checks a `sharding_indexed` configuration (`pointer`: the codec) for the chunk (the shard)
/// `spec` describes, after zarr-specs `docs/v3/codecs/sharding-indexed/index.rst`,
/// "Configuration parameters": `chunk_shape` has the shard's number of dimensions and divides
/// it; `codecs` is a codecs list for the inner chunk (checked as a whole list, recursively, with
/// the shard's data type and fill value); `index_codecs` one for the index (`uint64` of shape
/// chunks-per-shard + `[2]`) with no variable-size codec; `index_location` is `start` or `end`.
fn check_sharding(config: Option<&Json>, pointer: &str, spec: &ChunkSpec, report: &mut Report) {
    check_known(&SHARDING, config, pointer, report);
    let Some(config) = config else { return };
    let at = |key: &str| format!("{pointer}/configuration/{key}");
    let inner = config.get("chunk_shape").and_then(|v| {
        let items = v.as_array().unwrap_or_default();
        let mut dims = Vec::new();
        for d in items {
            if let Some(n) = json_int(d).and_then(|n| u64::try_from(n).ok()) {
                dims.push(n);
            }
        }
        // Positive integers, as many as the shard has dimensions, each dividing the shard's.
        let outer = spec.shape.as_deref().unwrap_or(&dims);
        let divides = dims.iter().zip(outer).all(|(i, o)| *i > 0 && o % i == 0);
        if v.as_array().is_none()
            || dims.len() != items.len()
            || dims.len() != outer.len()
            || !divides
        {
            let what = "positive integers, one per dimension of the shard, each dividing it";
            report.error(must_be(&at("chunk_shape"), what, v));
            return None;
        }
        Some(dims)
    });
    if let Some(c) = config.get("codecs") {
        let s = ChunkSpec {
            shape: inner.clone(),
            ..spec.clone()
        };
        Chain::bind_spec(c, &at("codecs"), &s, report);
    }
    if let Some(c) = config.get("index_codecs") {
        // The index: uint64 (offset, nbytes) pairs, chunks per shard + [2].
        let shape = match (&inner, &spec.shape) {
            (Some(i), Some(o)) => {
                let mut per_shard: Vec<u64> = Vec::with_capacity(o.len() + 1);
                for (o, i) in o.iter().zip(i) {
                    per_shard.push(o / i);
                }
                per_shard.push(2);
                Some(per_shard)
            }
            _ => None,
        };
        let s = ChunkSpec {
            dtype: Some(DataType::UInt64),
            shape,
            index: true,
            ..ChunkSpec::default()
        };
        Chain::bind_spec(c, &at("index_codecs"), &s, report);
    }
}
