//! Codec chains: split a codecs list into entries, check its order, bind each codec to the data
//! type and fill value it receives (passing both forward), and run encode/decode over a chunk.
//! Every parser reports into a [`Report`] and goes on, so the same code gives the strict API its
//! first error and the validator every problem. The zarr.json document is read in
//! [`crate::metadata`]; the typed-array API's arguments in [`crate::args`].

use crate::buf::{byte_len, copy_exact};
use crate::codec::cast::show;
use crate::codec::fixedscaleoffset::FixedScaleOffset;
use crate::codec::scale_offset::Convention;
use crate::codec::{known_codec, Bytes, CastValue, CodecKind, ScaleOffset};
use crate::dtype::DataType;
use crate::error::{Error, ErrorCode, Report, Result};
use crate::json::Quoted;
use crate::json::{pointer_index, pointer_push, Json};
use crate::kernels::fused::{FusedDecode, FusedEncode};
use crate::kernels::{pipeline, run_blocks, Lut8, Stage};
use std::sync::OnceLock;

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
        Json::Object(obj) => {
            let mut optional = false;
            for (k, val) in obj {
                match (k.as_str(), val) {
                    ("name", _) | ("configuration", _) => {}
                    ("must_understand", Json::Bool(b)) => optional = !b,
                    ("must_understand", _) => report.error(Error::metadata(
                        &pointer_push(pointer, k),
                        "must_understand must be a boolean",
                    )),
                    _ => report.error(Error::metadata(
                        &pointer_push(pointer, k),
                        format!("unknown codec key {}", Quoted(k)),
                    )),
                }
            }
            for k in v.duplicate_keys() {
                report.error(Error::metadata(
                    &pointer_push(pointer, k),
                    format!("duplicate key {}", Quoted(k)),
                ));
            }
            let name = match v.get("name") {
                None => {
                    report.error(Error::metadata(pointer, "a codec object needs a \"name\""));
                    return None;
                }
                Some(Json::String(n)) => n.as_str(),
                Some(other) => {
                    report.error(Error::metadata(
                        &pointer_push(pointer, "name"),
                        format!("must be a string, found {}", other.kind_name()),
                    ));
                    return None;
                }
            };
            Some(Entry {
                index,
                name,
                config: v.get("configuration"),
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

/// An array -> array codec bound to its input data type.
#[derive(Debug, Clone)]
pub enum ArrayCodec {
    /// scale_offset or cf.scale_offset.
    ScaleOffset(ScaleOffset),
    /// cast_value.
    CastValue(CastValue),
    /// numcodecs.fixedscaleoffset (read-only; numcodecs-exact decode).
    FixedScaleOffset(FixedScaleOffset),
}

impl ArrayCodec {
    fn encoded_dtype(&self) -> DataType {
        match self {
            ArrayCodec::ScaleOffset(c) => c.dtype(),
            ArrayCodec::CastValue(c) => c.to(),
            ArrayCodec::FixedScaleOffset(c) => c.encoded_dtype(),
        }
    }
    fn name(&self) -> &'static str {
        match self {
            ArrayCodec::ScaleOffset(c) => c.name(),
            ArrayCodec::CastValue(_) => "cast_value",
            ArrayCodec::FixedScaleOffset(_) => "numcodecs.fixedscaleoffset",
        }
    }
    /// The fill value after this codec: `Ok(None)` when the codec does not transform it
    /// (numcodecs.fixedscaleoffset, like zarr-python: later codecs then see no fill value).
    fn encode_fill(&self, fill: u64) -> std::result::Result<Option<u64>, String> {
        match self {
            ArrayCodec::ScaleOffset(c) => c.encode_value(fill).map(Some).map_err(|e| e.message),
            ArrayCodec::CastValue(c) => c.check_fill(fill).map(Some),
            ArrayCodec::FixedScaleOffset(_) => Ok(None),
        }
    }
    fn encode(&self, input: &[u8], out: &mut [u8]) -> Result<()> {
        match self {
            ArrayCodec::ScaleOffset(c) => c.encode(input, out),
            ArrayCodec::CastValue(c) => c.encode(input, out),
            ArrayCodec::FixedScaleOffset(c) => c.encode(input, out),
        }
    }
    fn decode(&self, input: &[u8], out: &mut [u8]) -> Result<()> {
        match self {
            ArrayCodec::ScaleOffset(c) => c.decode(input, out),
            ArrayCodec::CastValue(c) => c.decode(input, out),
            ArrayCodec::FixedScaleOffset(c) => c.decode(input, out),
        }
    }
    /// One value (raw bits) encoded (`enc`) or decoded; `None` when it fails.
    fn value(&self, enc: bool, bits: u64) -> Option<u64> {
        match (self, enc) {
            (ArrayCodec::ScaleOffset(c), true) => c.encode_value(bits).ok(),
            (ArrayCodec::ScaleOffset(c), false) => c.decode_value(bits).ok(),
            (ArrayCodec::CastValue(c), true) => c.encode_value(bits).ok(),
            (ArrayCodec::CastValue(c), false) => c.decode_value(bits).ok(),
            (ArrayCodec::FixedScaleOffset(_), true) => None,
            (ArrayCodec::FixedScaleOffset(c), false) => Some(c.decode_value(bits)),
        }
    }
}

/// Chunks smaller than this do not build a lookup table.
const LUT_MIN_ELEMENTS: usize = 1024;

/// A bound list of array -> array codecs.
#[derive(Debug, Clone)]
pub struct ArrayChain {
    /// (JSON pointer, codec, input data type) per codec.
    codecs: Vec<(String, ArrayCodec, DataType)>,
    decoded: DataType,
    encoded: DataType,
    encoded_fill: Option<u64>,
    /// Whole-chain lookup tables for one-byte sources (encode, decode), built on first use.
    luts: [OnceLock<Option<Lut8>>; 2],
    /// Use the fast paths (false: the codec-by-codec reference only, for tests).
    fast: bool,
    /// `[scale_offset, cast_value]` decoded in one loop, when the kernels allow it.
    fused: Option<FusedDecode>,
    /// `[scale_offset, cast_value]` encoded in one loop, when the kernels allow it.
    fused_encode: Option<FusedEncode>,
}

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
    /// Binds array -> array entries to `dtype` and `fill` (the fill flows forward and must pass
    /// every codec; cast_value checks it survives its round trip). `dtype` is `None` when the
    /// data type is unknown (already reported): the entries are then only checked for shape.
    pub fn bind(
        entries: &[Entry],
        base: &str,
        dtype: Option<DataType>,
        fill: Option<u64>,
        report: &mut Report,
    ) -> Option<ArrayChain> {
        let errors_before = report.error_count();
        let mut cur = dtype;
        let mut cur_fill = fill;
        let mut codecs = Vec::with_capacity(entries.len());
        for e in entries {
            let p = entry_pointer(base, e.index);
            let Some(input) = cur else {
                // Unknown input type: nothing more can be checked downstream.
                if known_codec(e.name).is_none() {
                    skip_unknown(e, &p, report);
                }
                continue;
            };
            let codec = match e.name {
                "scale_offset" => {
                    ScaleOffset::parse(Convention::ScaleOffset, e.config, &p, input, report)
                        .map(ArrayCodec::ScaleOffset)
                }
                "cf.scale_offset" => {
                    ScaleOffset::parse(Convention::Cf, e.config, &p, input, report)
                        .map(ArrayCodec::ScaleOffset)
                }
                "cast_value" => {
                    let (c, to) = CastValue::parse(e.config, &p, input, report);
                    cur = to;
                    c.map(ArrayCodec::CastValue)
                }
                "numcodecs.fixedscaleoffset" => {
                    let c = FixedScaleOffset::parse(e.config, &p, input, report);
                    if c.is_none() {
                        cur = None;
                    }
                    c.map(ArrayCodec::FixedScaleOffset)
                }
                _ => {
                    if !skip_unknown(e, &p, report) && known_codec(e.name).is_some() {
                        report.error(unsupported(&p, e.name));
                    }
                    if !e.optional {
                        cur = None;
                    }
                    None
                }
            };
            let Some(codec) = codec else {
                cur_fill = None;
                continue;
            };
            if let Some(f) = cur_fill {
                match codec.encode_fill(f) {
                    Ok(enc) => cur_fill = enc,
                    Err(m) => {
                        let what = match &codec {
                            ArrayCodec::CastValue(_) => {
                                format!("invalid fill value {} for cast_value: {m}", show(input, f))
                            }
                            _ => format!(
                                "the fill value {} cannot pass through {}: {m}",
                                show(input, f),
                                codec.name()
                            ),
                        };
                        report.error(Error::metadata(&p, what));
                        cur_fill = None;
                    }
                }
            }
            let next = codec.encoded_dtype();
            codecs.push((p, codec, input));
            cur = Some(next);
        }
        let decoded = dtype?;
        let encoded = cur?;
        if report.error_count() > errors_before {
            return None;
        }
        let (fused, fused_encode) = match codecs.as_slice() {
            [(_, ArrayCodec::ScaleOffset(so), _), (_, ArrayCodec::CastValue(cv), _)] => (
                FusedDecode::select(so.float_arith(), cv.kernels().1),
                FusedEncode::select(so.float_arith_encode(), cv.kernels().0, cv.out_of_range()),
            ),
            _ => (None, None),
        };
        Some(ArrayChain {
            codecs,
            decoded,
            encoded,
            encoded_fill: cur_fill,
            luts: Default::default(),
            fast: true,
            fused,
            fused_encode,
        })
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

    /// The fused `[scale_offset, cast_value]` encode selected at bind time, if any (for tests).
    #[doc(hidden)]
    pub fn fused_encode(&self) -> Option<&FusedEncode> {
        self.fused_encode.as_ref()
    }

    /// Encodes in-memory data of the decoded type.
    pub fn encode(&self, data: &[u8]) -> Result<Vec<u8>> {
        let mut out = vec![0u8; byte_len(data.len() / self.decoded.size(), self.encoded.size())?];
        self.encode_into(data, &mut out)?;
        Ok(out)
    }

    /// Decodes in-memory data of the encoded type.
    pub fn decode(&self, data: &[u8]) -> Result<Vec<u8>> {
        let mut out = vec![0u8; byte_len(data.len() / self.encoded.size(), self.decoded.size())?];
        self.decode_into(data, &mut out)?;
        Ok(out)
    }

    /// The same chain with every kernel, lookup table and tiling turned off: the codec-by-codec,
    /// element-by-element reference (for tests that compare the two).
    #[doc(hidden)]
    pub fn without_kernels(&self) -> ArrayChain {
        let codecs = self
            .codecs
            .iter()
            .map(|(p, c, t)| {
                let c = match c {
                    ArrayCodec::ScaleOffset(c) => ArrayCodec::ScaleOffset(c.without_kernels()),
                    ArrayCodec::CastValue(c) => ArrayCodec::CastValue(c.without_kernels()),
                    other => other.clone(),
                };
                (p.clone(), c, *t)
            })
            .collect();
        ArrayChain {
            codecs,
            luts: Default::default(),
            fast: false,
            fused: None,
            fused_encode: None,
            ..self.clone()
        }
    }

    /// Encodes in-memory data of the decoded type into `out` (in-memory data of the encoded
    /// type, the same number of elements).
    pub fn encode_into(&self, data: &[u8], out: &mut [u8]) -> Result<()> {
        self.run(true, data, out)
    }

    /// Decodes in-memory data of the encoded type into `out` (in-memory data of the decoded
    /// type, the same number of elements).
    pub fn decode_into(&self, data: &[u8], out: &mut [u8]) -> Result<()> {
        self.run(false, data, out)
    }

    /// The fast paths (a whole-chain lookup table for a one-byte source, else every codec's
    /// kernel over cache-sized tiles); when one declines, the reference below reports the error.
    fn run(&self, enc: bool, data: &[u8], out: &mut [u8]) -> Result<()> {
        let (src, dst) = if enc {
            (self.decoded, self.encoded)
        } else {
            (self.encoded, self.decoded)
        };
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
        if let (Some(f), false, true) = (&self.fused, enc, self.fast) {
            f.run(data, out);
            return Ok(());
        }
        if let (Some(f), true, true) = (&self.fused_encode, enc, self.fast) {
            if !self.run_fused_encode(f, data, out) {
                out.copy_from_slice(&self.encode_reference(data)?);
            }
            return Ok(());
        }
        let done = self.fast
            && match self.lut(enc, n) {
                Some(lut) => lut.run(data, out),
                None => {
                    let runs: Vec<_> = self
                        .codecs
                        .iter()
                        .map(|(_, c, input)| {
                            let run = move |i: &[u8], o: &mut [u8]| {
                                if enc {
                                    c.encode(i, o)
                                } else {
                                    c.decode(i, o)
                                }
                            };
                            (input.size(), c.encoded_dtype().size(), run)
                        })
                        .collect();
                    let mut stages: Vec<Stage> = runs
                        .iter()
                        .map(|(a, b, run)| Stage {
                            in_size: if enc { *a } else { *b },
                            out_size: if enc { *b } else { *a },
                            run,
                        })
                        .collect();
                    if !enc {
                        stages.reverse();
                    }
                    pipeline(&stages, data, out)
                }
            };
        if done {
            return Ok(());
        }
        let v = if enc {
            self.encode_reference(data)?
        } else {
            self.decode_reference(data)?
        };
        copy_exact(out, &v, "the result")
    }

    /// The fused `[scale_offset, cast_value]` encode over blocks; a block it declines is redone
    /// by the two codecs in turn. `false` when one of them fails (the caller reruns the
    /// reference to report the error with its chunk-relative element index).
    fn run_fused_encode(&self, f: &FusedEncode, data: &[u8], out: &mut [u8]) -> bool {
        let [(_, so, t), (_, cv, _)] = self.codecs.as_slice() else {
            return false;
        };
        let (in_size, out_size) = (t.size(), cv.encoded_dtype().size());
        run_blocks(
            data,
            out,
            in_size,
            out_size,
            |i, o| f.run(i, o),
            |_, i, o| {
                let mut tmp = vec![0u8; i.len()];
                so.encode(i, &mut tmp)?;
                cv.encode(&tmp, o)
            },
        )
        .is_ok()
    }

    /// The whole-chain lookup table when the source of this direction has one byte per element
    /// and the chunk is large enough to pay for it; built with the per-element reference.
    fn lut(&self, enc: bool, n: usize) -> Option<&Lut8> {
        let (src, dst) = if enc {
            (self.decoded, self.encoded)
        } else {
            (self.encoded, self.decoded)
        };
        if src.size() != 1 || n < LUT_MIN_ELEMENTS || self.codecs.is_empty() {
            return None;
        }
        let [enc_lut, dec_lut] = &self.luts;
        let lut = if enc { enc_lut } else { dec_lut };
        lut.get_or_init(|| {
            Some(Lut8::build(dst.size(), |byte| {
                let mut bits = src.read_bits(&[byte], 0);
                if enc {
                    for (_, c, _) in &self.codecs {
                        bits = c.value(true, bits)?;
                    }
                } else {
                    for (_, c, _) in self.codecs.iter().rev() {
                        bits = c.value(false, bits)?;
                    }
                }
                Some(bits)
            }))
        })
        .as_ref()
    }

    /// The reference encode: codec by codec over the whole chunk.
    fn encode_reference(&self, data: &[u8]) -> Result<Vec<u8>> {
        let n = data.len() / self.decoded.size();
        let mut cur = data.to_vec();
        for (p, c, input) in &self.codecs {
            let out_t = c.encoded_dtype();
            let mut out = vec![0u8; byte_len(n, out_t.size())?];
            c.encode(&cur, &mut out)
                .map_err(|e| e.context(format!("{p} ({} encode, {input} -> {out_t})", c.name())))?;
            cur = out;
        }
        Ok(cur)
    }

    /// The reference decode: codec by codec over the whole chunk.
    fn decode_reference(&self, data: &[u8]) -> Result<Vec<u8>> {
        let n = data.len() / self.encoded.size();
        let mut cur = data.to_vec();
        for (p, c, input) in self.codecs.iter().rev() {
            let mut out = vec![0u8; byte_len(n, input.size())?];
            c.decode(&cur, &mut out).map_err(|e| {
                e.context(format!(
                    "{p} ({} decode, {} -> {input})",
                    c.name(),
                    c.encoded_dtype()
                ))
            })?;
            cur = out;
        }
        Ok(cur)
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

/// A whole bound chain: array -> array codecs and the `bytes` codec.
#[derive(Debug, Clone)]
pub struct Chain {
    array: ArrayChain,
    bytes: Bytes,
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
        let array = ArrayChain::bind(&array_entries, pointer, dtype, fill, report);
        let bytes = bytes_entry.and_then(|be| {
            let bp = pointer_index(pointer, be.index);
            if be.name != "bytes" {
                report.error(unsupported(&bp, be.name));
                return None;
            }
            let input = array.as_ref().map(ArrayChain::encoded_dtype);
            Bytes::parse(be.config, &bp, input, report)
        });
        for (p, e) in bytes_to_bytes {
            report.error(unsupported(&p, e.name));
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
    /// The data type the `bytes` codec receives.
    pub fn encoded_dtype(&self) -> DataType {
        self.array.encoded_dtype()
    }
}
