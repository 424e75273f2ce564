//! Codec chains: parse a codecs list, check its order, bind each codec to the data type and fill
//! value it receives (passing both forward), and run encode/decode over a chunk.

use crate::codec::cast::show;
use crate::codec::cast_value::parse_data_type;
use crate::codec::scalar;
use crate::codec::{known_codec, Bytes, CastValue, CodecKind, ScaleOffset};
use crate::dtype::DataType;
use crate::error::{Error, ErrorCode, Result, Warning};
use crate::json::{parse, pointer_index, pointer_push, Json};

/// One parsed entry of a codecs list.
#[derive(Debug, Clone, Copy)]
pub struct Entry<'a> {
    /// JSON pointer of the entry.
    pub index: usize,
    /// Codec name.
    pub name: &'a str,
    /// Its configuration, when present.
    pub config: Option<&'a Json>,
}

/// Splits a codec entry (short-hand string or object) into name and configuration.
pub fn parse_entry<'a>(v: &'a Json, pointer: &str, index: usize) -> Result<Entry<'a>> {
    match v {
        Json::String(name) => Ok(Entry {
            index,
            name,
            config: None,
        }),
        Json::Object(obj) => {
            let Some(name_v) = v.get("name") else {
                return Err(Error::metadata(pointer, "a codec object needs a \"name\""));
            };
            let Some(name) = name_v.as_str() else {
                return Err(Error::metadata(
                    &pointer_push(pointer, "name"),
                    format!("must be a string, found {}", name_v.kind_name()),
                ));
            };
            for (k, val) in obj {
                match k.as_str() {
                    "name" | "configuration" => {}
                    "must_understand" if val.as_bool().is_some() => {}
                    "must_understand" => {
                        return Err(Error::metadata(
                            &pointer_push(pointer, k),
                            "must_understand must be a boolean",
                        ))
                    }
                    _ => {
                        return Err(Error::metadata(
                            &pointer_push(pointer, k),
                            format!("unknown codec key {k:?}"),
                        ))
                    }
                }
            }
            Ok(Entry {
                index,
                name,
                config: v.get("configuration"),
            })
        }
        _ => Err(Error::metadata(
            pointer,
            format!(
                "a codec must be a string or an object, found {}",
                v.kind_name()
            ),
        )),
    }
}

/// An array -> array codec bound to its input data type.
#[derive(Debug, Clone)]
pub enum ArrayCodec {
    /// scale_offset.
    ScaleOffset(ScaleOffset),
    /// cast_value.
    CastValue(CastValue),
}

impl ArrayCodec {
    fn encoded_dtype(&self) -> DataType {
        match self {
            ArrayCodec::ScaleOffset(c) => c.dtype(),
            ArrayCodec::CastValue(c) => c.to(),
        }
    }
    fn name(&self) -> &'static str {
        match self {
            ArrayCodec::ScaleOffset(_) => "scale_offset",
            ArrayCodec::CastValue(_) => "cast_value",
        }
    }
}

/// A bound list of array -> array codecs.
#[derive(Debug, Clone)]
pub struct ArrayChain {
    /// (JSON pointer, codec, input data type) per codec.
    codecs: Vec<(String, ArrayCodec, DataType)>,
    decoded: DataType,
    encoded: DataType,
    encoded_fill: Option<u64>,
    warnings: Vec<Warning>,
}

fn unsupported(pointer: &str, name: &str) -> Error {
    let what = match known_codec(name) {
        Some((kind, _)) => format!(
            "the {} codec {name:?} is not implemented by zarr-scale-offset",
            kind.as_str()
        ),
        None => format!("unknown codec {name:?}"),
    };
    Error::at(ErrorCode::UnsupportedCodec, pointer, what)
}

impl ArrayChain {
    /// Binds array -> array entries to `dtype` and `fill` (the fill flows forward and must pass
    /// every codec; cast_value checks it survives its round trip).
    pub fn bind(
        entries: &[Entry],
        base: &str,
        dtype: DataType,
        fill: Option<u64>,
    ) -> Result<ArrayChain> {
        let mut cur = dtype;
        let mut cur_fill = fill;
        let mut codecs = Vec::with_capacity(entries.len());
        let mut warnings = Vec::new();
        for e in entries {
            let p = pointer_index(base, e.index);
            let codec = match e.name {
                "scale_offset" => {
                    ArrayCodec::ScaleOffset(ScaleOffset::parse(e.config, &p, cur, &mut warnings)?)
                }
                "cast_value" => {
                    ArrayCodec::CastValue(CastValue::parse(e.config, &p, cur, &mut warnings)?)
                }
                other => return Err(unsupported(&p, other)),
            };
            if let Some(f) = cur_fill {
                cur_fill = Some(match &codec {
                    ArrayCodec::ScaleOffset(c) => c.encode_value(f).map_err(|err| {
                        Error::metadata(
                            &p,
                            format!(
                                "the fill value {} cannot pass through scale_offset: {}",
                                show(cur, f),
                                err.message
                            ),
                        )
                    })?,
                    ArrayCodec::CastValue(c) => c.check_fill(f).map_err(|m| {
                        Error::metadata(
                            &p,
                            format!("invalid fill value {} for cast_value: {m}", show(cur, f)),
                        )
                    })?,
                });
            }
            let next = codec.encoded_dtype();
            codecs.push((p, codec, cur));
            cur = next;
        }
        Ok(ArrayChain {
            codecs,
            decoded: dtype,
            encoded: cur,
            encoded_fill: cur_fill,
            warnings,
        })
    }

    /// The data type after all codecs.
    pub fn encoded_dtype(&self) -> DataType {
        self.encoded
    }
    /// Lenient forms accepted while parsing the codecs.
    pub fn warnings(&self) -> &[Warning] {
        &self.warnings
    }
    /// The fill value after all codecs (when a fill was bound).
    pub fn encoded_fill(&self) -> Option<u64> {
        self.encoded_fill
    }

    /// Encodes in-memory data of the decoded type.
    pub fn encode(&self, data: &[u8]) -> Result<Vec<u8>> {
        check_in_memory(self.decoded, data)?;
        let n = data.len() / self.decoded.size();
        let mut cur = data.to_vec();
        for (p, c, input) in &self.codecs {
            let out_t = c.encoded_dtype();
            let mut out = vec![0u8; n * out_t.size()];
            let r = match c {
                ArrayCodec::ScaleOffset(s) => s.encode(&cur, &mut out),
                ArrayCodec::CastValue(s) => s.encode(&cur, &mut out),
            };
            r.map_err(|e| e.context(format!("{p} ({} encode, {input} -> {out_t})", c.name())))?;
            cur = out;
        }
        Ok(cur)
    }

    /// Decodes in-memory data of the encoded type.
    pub fn decode(&self, data: &[u8]) -> Result<Vec<u8>> {
        check_in_memory(self.encoded, data)?;
        let n = data.len() / self.encoded.size();
        let mut cur = data.to_vec();
        for (p, c, input) in self.codecs.iter().rev() {
            let mut out = vec![0u8; n * input.size()];
            let r = match c {
                ArrayCodec::ScaleOffset(s) => s.decode(&cur, &mut out),
                ArrayCodec::CastValue(s) => s.decode(&cur, &mut out),
            };
            r.map_err(|e| {
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
    /// Parses and binds a full codecs list (`pointer` of the list) for `dtype` and `fill`.
    pub fn bind(list: &Json, pointer: &str, dtype: DataType, fill: Option<u64>) -> Result<Chain> {
        let Some(items) = list.as_array() else {
            return Err(Error::metadata(
                pointer,
                format!("codecs must be an array, found {}", list.kind_name()),
            ));
        };
        if items.is_empty() {
            return Err(Error::metadata(
                pointer,
                "codecs must not be empty: it needs an array->bytes codec",
            ));
        }
        let mut array_entries = Vec::new();
        let mut bytes_entry: Option<Entry> = None;
        for (i, item) in items.iter().enumerate() {
            let p = pointer_index(pointer, i);
            let e = parse_entry(item, &p, i)?;
            let kind = known_codec(e.name).map(|k| k.0);
            match (kind, bytes_entry.is_some()) {
                (Some(CodecKind::ArrayToArray), false) => array_entries.push(e),
                (Some(CodecKind::ArrayToArray), true) => {
                    return Err(Error::metadata(
                        &p,
                        format!(
                            "the array->array codec {:?} must come before the array->bytes codec",
                            e.name
                        ),
                    ))
                }
                (Some(CodecKind::ArrayToBytes), false) => bytes_entry = Some(e),
                (Some(CodecKind::ArrayToBytes), true) => {
                    return Err(Error::metadata(
                        &p,
                        "a codecs list has exactly one array->bytes codec; this is a second one",
                    ))
                }
                (Some(CodecKind::BytesToBytes), false) => {
                    return Err(Error::metadata(
                        &p,
                        format!(
                            "the bytes->bytes codec {:?} must come after the array->bytes codec",
                            e.name
                        ),
                    ))
                }
                (Some(CodecKind::BytesToBytes), true) | (None, _) => {
                    return Err(unsupported(&p, e.name))
                }
            }
        }
        let Some(be) = bytes_entry else {
            return Err(Error::metadata(
                pointer,
                "codecs has no array->bytes codec (e.g. \"bytes\")",
            ));
        };
        let array = ArrayChain::bind(&array_entries, pointer, dtype, fill)?;
        let bp = pointer_index(pointer, be.index);
        if be.name != "bytes" {
            return Err(unsupported(&bp, be.name));
        }
        let bytes = Bytes::parse(be.config, &bp, array.encoded_dtype())?;
        Ok(Chain { array, bytes })
    }

    /// Encodes a chunk's in-memory data to stored bytes.
    pub fn encode(&self, data: &[u8]) -> Result<Vec<u8>> {
        Ok(self.bytes.encode(&self.array.encode(data)?))
    }
    /// Decodes a chunk's stored bytes to in-memory data.
    pub fn decode(&self, bytes: &[u8]) -> Result<Vec<u8>> {
        self.array.decode(&self.bytes.decode(bytes))
    }
    /// The data type the `bytes` codec receives.
    pub fn encoded_dtype(&self) -> DataType {
        self.array.encoded_dtype()
    }
}

/// The parts of a zarr.json array document a chunk needs.
#[derive(Debug, Clone)]
pub struct ArrayMeta {
    /// The array's data type.
    pub dtype: DataType,
    /// Elements per chunk.
    pub chunk_len: usize,
    /// The bound codec chain.
    pub chain: Chain,
    /// Lenient forms accepted on read (fill value, codec scalars).
    pub warnings: Vec<Warning>,
}

fn nonneg_int(v: &Json, pointer: &str) -> Result<u64> {
    v.as_number()
        .filter(|t| t.bytes().all(|c| c.is_ascii_digit()))
        .and_then(|t| t.parse::<u64>().ok())
        .ok_or_else(|| {
            Error::metadata(
                pointer,
                format!(
                    "must be a non-negative integer, found {}",
                    v.to_json_string()
                ),
            )
        })
}

fn shape_len(v: &Json, pointer: &str) -> Result<usize> {
    let Some(items) = v.as_array() else {
        return Err(Error::metadata(
            pointer,
            format!("must be an array of integers, found {}", v.kind_name()),
        ));
    };
    let mut n: u64 = 1;
    for (i, d) in items.iter().enumerate() {
        let x = nonneg_int(d, &pointer_index(pointer, i))?;
        n = n
            .checked_mul(x)
            .filter(|&n| n <= isize::MAX as u64 / 8)
            .ok_or_else(|| {
                Error::metadata(
                    pointer,
                    "the chunk has more elements than can be addressed".to_string(),
                )
            })?;
    }
    usize::try_from(n).map_err(|_| Error::metadata(pointer, "the chunk is too large"))
}

/// Parses a zarr.json array document (as parsed JSON).
pub fn parse_array_meta(doc: &Json) -> Result<ArrayMeta> {
    if doc.as_object().is_none() {
        return Err(Error::metadata(
            "",
            format!(
                "array metadata must be an object, found {}",
                doc.kind_name()
            ),
        ));
    }
    if let Some(z) = doc.get("zarr_format") {
        if z.as_number() != Some("3") {
            return Err(Error::metadata(
                "/zarr_format",
                format!("must be 3, found {}", z.to_json_string()),
            ));
        }
    }
    if let Some(t) = doc.get("node_type") {
        if t.as_str() != Some("array") {
            return Err(Error::metadata(
                "/node_type",
                format!("must be \"array\", found {}", t.to_json_string()),
            ));
        }
    }
    let mut warnings = Vec::new();
    let dtype = match doc.get("data_type") {
        Some(d) => parse_data_type(d, "/data_type")?,
        None => return Err(Error::metadata("", "missing required key \"data_type\"")),
    };
    let fill = match doc.get("fill_value") {
        Some(f) => scalar(dtype, f, "/fill_value", &mut warnings)?,
        None => return Err(Error::metadata("", "missing required key \"fill_value\"")),
    };
    let chunk_len = match doc.get("chunk_grid") {
        Some(g) => {
            if g.get("name").and_then(Json::as_str) != Some("regular") {
                return Err(Error::metadata(
                    "/chunk_grid/name",
                    "only the \"regular\" chunk grid is supported",
                ));
            }
            match g.get("configuration").and_then(|c| c.get("chunk_shape")) {
                Some(s) => shape_len(s, "/chunk_grid/configuration/chunk_shape")?,
                None => {
                    return Err(Error::metadata(
                        "/chunk_grid/configuration",
                        "missing \"chunk_shape\"",
                    ))
                }
            }
        }
        None => match doc.get("shape") {
            Some(s) => shape_len(s, "/shape")?,
            None => return Err(Error::metadata("", "missing required key \"chunk_grid\"")),
        },
    };
    let Some(codecs) = doc.get("codecs") else {
        return Err(Error::metadata("", "missing required key \"codecs\""));
    };
    let chain = Chain::bind(codecs, "/codecs", dtype, Some(fill))?;
    warnings.extend(chain.array.warnings().iter().cloned());
    Ok(ArrayMeta {
        dtype,
        chunk_len,
        chain,
        warnings,
    })
}

/// Parses metadata JSON text into an [`ArrayMeta`].
pub fn parse_array_meta_text(text: &str) -> Result<ArrayMeta> {
    parse_array_meta(&parse(text)?)
}

/// Parses a codecs argument of the typed-array API: one array->array codec (object or
/// short-hand name, as JSON text or a bare name) or a list of them.
pub fn parse_array_codecs(text: &str, dtype: DataType) -> Result<ArrayChain> {
    let t = text.trim_start();
    let doc = if t.starts_with(['[', '{', '"']) {
        parse(text)?
    } else {
        Json::String(text.trim().to_string())
    };
    let (items, base): (Vec<&Json>, &str) = match &doc {
        Json::Array(a) => (a.iter().collect(), ""),
        other => (vec![other], ""),
    };
    let single = !matches!(doc, Json::Array(_));
    let mut entries = Vec::with_capacity(items.len());
    for (i, item) in items.iter().enumerate() {
        let p = if single {
            String::new()
        } else {
            pointer_index(base, i)
        };
        let e = parse_entry(item, &p, i)?;
        match known_codec(e.name) {
            Some((CodecKind::ArrayToArray, _)) => entries.push(e),
            Some((kind, _)) => {
                return Err(Error::metadata(
                    &p,
                    format!("encode/decode take array->array codecs only; {:?} is {} (use encodeChunk/decodeChunk)", e.name, kind.as_str()),
                ))
            }
            None => return Err(unsupported(&p, e.name)),
        }
    }
    if single {
        // Pointers of a single codec are relative to the codec itself.
        let e = entries.first().copied().map(|mut e| {
            e.index = 0;
            e
        });
        let Some(e) = e else {
            return Err(Error::metadata("", "no codec given"));
        };
        return ArrayChain::bind_single(e, dtype);
    }
    ArrayChain::bind(&entries, base, dtype, None)
}

impl ArrayChain {
    fn bind_single(e: Entry, dtype: DataType) -> Result<ArrayChain> {
        let mut warnings = Vec::new();
        let codec = match e.name {
            "scale_offset" => {
                ArrayCodec::ScaleOffset(ScaleOffset::parse(e.config, "", dtype, &mut warnings)?)
            }
            "cast_value" => {
                ArrayCodec::CastValue(CastValue::parse(e.config, "", dtype, &mut warnings)?)
            }
            other => return Err(unsupported("", other)),
        };
        let enc = codec.encoded_dtype();
        Ok(ArrayChain {
            codecs: vec![(String::new(), codec, dtype)],
            decoded: dtype,
            encoded: enc,
            encoded_fill: None,
            warnings,
        })
    }
}

/// Parses a data type argument: a bare name or JSON text (a string or an object).
pub fn parse_data_type_arg(text: &str) -> Result<DataType> {
    let t = text.trim();
    if t.starts_with(['{', '"']) {
        parse_data_type(&parse(t)?, "")
    } else {
        DataType::parse(t, "")
    }
}
