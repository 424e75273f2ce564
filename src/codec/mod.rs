//! The codecs, and the registry that names each one once.
//!
//! Every codec module declares its names and kind in a `CODECS` table (a [`CodecDef`] per name:
//! the Zarr v3 name, its Zarr v2 filter form where there is one (`v2`: the numcodecs id and the
//! translation of a `.zarray` filter, which is how the v2 reader finds it), and a `bind`
//! function).
//! Binding reads the configuration for the data type the codec receives and returns a bound
//! codec ([`BoundArrayCodec`] or [`BoundArrayToBytes`]) that owns everything chosen once: the
//! encoded data type, the fill-value rule, the kernels per direction. The chain
//! ([`crate::chain`]) only checks the order, binds forward and asks adjacent bound codecs whether
//! they fuse; it names no codec.
//!
//! Adding a codec: a new module here with its `CODECS` table and its bound type, and its name in
//! the `codec_modules!` line below. Names that a spec or a known extension defines but this crate
//! does not implement are listed in [`KNOWN`], so that they are reported as unsupported rather
//! than unknown.

use crate::json::fields::must_be;
use crate::json::{parse_scalar, pointer_push, quote, Fields, Json};
use crate::report::Report;
use std::any::Any;
use zarr_scale_offset_core::direction::{Direction, PerDirection};
use zarr_scale_offset_core::dtype::{DataType, NumpyDtype};
use zarr_scale_offset_core::error::{Error, Result};
use zarr_scale_offset_core::kernels::fused::{FusedDecode, FusedEncode};

/// Declares the implemented codec modules and the registry of their `CODECS` tables.
macro_rules! codec_modules {
    ($($m:ident),* $(,)?) => {
        $(pub mod $m;)*
        /// Every implemented codec, module by module.
        static IMPLEMENTED: &[&[CodecDef]] = &[$($m::CODECS),*];
    };
}
codec_modules!(
    bytes,
    scale_offset,
    cast_value,
    cf_scale_offset,
    fixedscaleoffset
);

pub use bytes::Bytes;
pub use cast_value::CastValue;
pub use fixedscaleoffset::FixedScaleOffset;
pub use scale_offset::ScaleOffset;

/// Parses a JSON scalar of `dtype` at `pointer`: an error is reported (giving `None`), a lenient
/// form becomes a `lenient_form` warning.
pub fn scalar(dtype: DataType, v: &Json, pointer: &str, report: &mut Report) -> Option<u64> {
    let s = report.check(parse_scalar(dtype, v, pointer))?;
    if let Some(message) = s.lenient {
        report.warn(pointer, "lenient_form", message);
    }
    Some(s.bits)
}

/// The element-by-element reference loop of the codecs: `f(index, bits)` for each element of
/// `input` (elements of `src`), written into `out` (elements of `dst`); the first error ends it.
pub(crate) fn each_element(
    src: DataType,
    dst: DataType,
    input: &[u8],
    out: &mut [u8],
    mut f: impl FnMut(usize, u64) -> Result<u64>,
) -> Result<()> {
    for i in 0..input.len() / src.size() {
        dst.write_bits(out, i, f(i, src.read_bits(input, i))?);
    }
    Ok(())
}

/// The kind of a codec in a Zarr v3 chain.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum CodecKind {
    /// array -> array.
    ArrayToArray,
    /// array -> bytes.
    ArrayToBytes,
    /// bytes -> bytes.
    BytesToBytes,
}

impl CodecKind {
    /// "array->array" etc.
    pub fn as_str(self) -> &'static str {
        match self {
            CodecKind::ArrayToArray => "array->array",
            CodecKind::ArrayToBytes => "array->bytes",
            CodecKind::BytesToBytes => "bytes->bytes",
        }
    }
}

/// How a codec is run when a caller asks (tests compare the fast paths with the reference).
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
pub struct RunOptions {
    /// Only the element-by-element reference: no kernel, lookup table, fusion or tiling.
    pub reference_only: bool,
}

impl RunOptions {
    /// The reference only (for tests).
    pub const REFERENCE: RunOptions = RunOptions {
        reference_only: true,
    };
}

/// What binding an array -> array codec gives: the bound codec (`None` when its configuration
/// has errors, all reported) and the data type it produces when that is known even so (so that
/// the codecs after it can still be checked).
pub struct ArrayBinding {
    /// The bound codec.
    pub codec: Option<Box<dyn BoundArrayCodec>>,
    /// The data type the codec produces, when known.
    pub encoded: Option<DataType>,
}

/// Binds an array -> array codec: `(configuration, pointer of the codec object, the data type
/// it receives, report)`. The data type is `None` when it is unknown (already reported): the
/// configuration is then checked as far as it can be without it, and no codec is bound.
pub type BindArrayFn = fn(Option<&Json>, &str, Option<DataType>, &mut Report) -> ArrayBinding;

/// Binds an array -> bytes codec: `(configuration, pointer, the data type it receives when
/// known, report)`.
pub type BindBytesFn =
    fn(Option<&Json>, &str, Option<DataType>, &mut Report) -> Option<Box<dyn BoundArrayToBytes>>;

/// How a registered codec is bound.
#[derive(Clone, Copy)]
pub enum Binder {
    /// An array -> array codec of this crate.
    Array(BindArrayFn),
    /// An array -> bytes codec of this crate.
    Bytes(BindBytesFn),
    /// Defined by a spec or a known extension, not implemented here: its configuration is
    /// checked against these rules ([`check_known`]) and it is reported as unsupported.
    Known(&'static Known),
    /// `sharding_indexed` (not implemented here): its configuration, and the codecs inside it,
    /// are checked by the chain (`chain.rs`), which knows the chunk it receives.
    Sharding,
}

/// One registry entry.
#[derive(Clone, Copy)]
pub struct CodecDef {
    /// The Zarr v3 name.
    pub name: &'static str,
    /// As a Zarr v2 filter, where it is one: its numcodecs id and how a `.zarray`'s filter
    /// object becomes this codec (the v2 reader, `crate::v2`, finds filters only here).
    pub v2: Option<V2Filter>,
    /// Its kind.
    pub kind: CodecKind,
    /// How it is bound.
    pub binder: Binder,
}

impl CodecDef {
    /// A codec defined elsewhere that this crate does not implement, with its configuration
    /// rules.
    const fn known(name: &'static str, kind: CodecKind, rules: &'static Known) -> CodecDef {
        CodecDef {
            name,
            v2: None,
            kind,
            binder: Binder::Known(rules),
        }
    }

    /// Whether this crate implements it.
    pub fn implemented(&self) -> bool {
        matches!(self.binder, Binder::Array(_) | Binder::Bytes(_))
    }
}

/// A codec's Zarr v2 filter form: the filter's `"id"` and its translation.
#[derive(Clone, Copy)]
pub struct V2Filter {
    /// The numcodecs id (`"fixedscaleoffset"`).
    pub id: &'static str,
    /// Translates one filter object.
    pub translate: V2TranslateFn,
}

/// Translates a Zarr v2 filter object (`"id"` and the codec's keys, at `pointer`) that receives
/// `received` (its NumPy dtype with byte order, when known) into this codec's Zarr v3 object;
/// `None` when it has errors (all reported, pointers into the v2 document).
pub type V2TranslateFn = fn(&Json, &str, Option<NumpyDtype>, &mut Report) -> Option<V2Translation>;

/// A Zarr v2 filter as a Zarr v3 codec.
pub struct V2Translation {
    /// The codec object (`{"name", "configuration"}`).
    pub codec: Json,
    /// The NumPy dtype (with byte order) the filter produces: what the next filter receives.
    pub produces: NumpyDtype,
}

/// The implemented codec whose Zarr v2 filter id is `id`.
pub fn lookup_v2(id: &str) -> Option<&'static V2Filter> {
    IMPLEMENTED
        .iter()
        .flat_map(|m| m.iter())
        .filter_map(|d| d.v2.as_ref())
        .find(|v| v.id == id)
}

/// What a configuration value of a known codec must be.
#[derive(Debug, Clone, Copy)]
pub enum Rule {
    /// A JSON integer from the first to the second bound (inclusive; `i32::MAX`: no upper
    /// bound, `i32::MIN`: no lower bound).
    Int(i32, i32),
    /// `true` or `false`.
    Bool,
    /// One of these strings.
    OneOf(&'static [&'static str]),
    /// An array of the integers `0 .. n-1` in some order (`n` is its length).
    Permutation,
    /// Anything (not checked).
    Any,
}

/// When a key of a known codec's configuration must be present.
#[derive(Debug, Clone, Copy)]
pub enum Need {
    /// It may be left out.
    Optional,
    /// It must be present.
    Required,
    /// It must be present unless `shuffle` is `"noshuffle"` (blosc's `typesize`).
    UnlessNoShuffle,
}

/// One configuration key of a known codec.
#[derive(Debug, Clone, Copy)]
pub struct Key {
    /// The key.
    pub name: &'static str,
    /// What its value must be.
    pub rule: Rule,
    /// Whether it must be present.
    pub need: Need,
}

/// How the chunk shape changes through a known array -> array codec.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum ShapeRule {
    /// The shape is kept.
    Same,
    /// The shape is permuted by the configuration's `order` (transpose): its length must be
    /// the chunk's number of dimensions.
    Permute,
}

/// The configuration rules of a codec this crate knows but does not implement.
#[derive(Debug, Clone, Copy)]
pub struct Known {
    /// Its configuration keys.
    pub keys: &'static [Key],
    /// Keys other than `keys` are errors (else they are not checked).
    pub closed: bool,
    /// An array -> array codec that keeps the data type (the codecs after it are then checked
    /// against that type; otherwise the type after it is unknown).
    pub keeps_type: bool,
    /// How an array -> array codec changes the chunk shape.
    pub shape: ShapeRule,
}

const fn key(name: &'static str, rule: Rule, need: Need) -> Key {
    Key { name, rule, need }
}

const fn rules(keys: &'static [Key]) -> Known {
    Known {
        keys,
        closed: true,
        keeps_type: false,
        shape: ShapeRule::Same,
    }
}

/// Keys not listed are not checked.
const fn open(keys: &'static [Key]) -> Known {
    Known {
        closed: false,
        ..rules(keys)
    }
}

use Need::{Optional as OPT, Required as REQ};
use Rule::{Bool, Int, OneOf};

/// No configuration keys (crc32c, vlen-utf8, ...).
static NONE: Known = rules(&[]);
/// Not checked (keys this crate does not list).
static ANY: Known = open(&[]);
const MAX: i32 = i32::MAX;
const MIN: i32 = i32::MIN;
const BLOSC_CNAMES: &[&str] = &["lz4", "lz4hc", "blosclz", "zstd", "snappy", "zlib"];

/// The configuration of `sharding_indexed` (zarr-specs `docs/v3/codecs/sharding-indexed/
/// index.rst`, "Configuration parameters"): the forms the chain does not check itself
/// (`chunk_shape` against the shard, `codecs` and `index_codecs` as whole chains).
pub static SHARDING: Known = rules(&[
    key("chunk_shape", Rule::Any, REQ),
    key("codecs", Rule::Any, REQ),
    key("index_codecs", Rule::Any, REQ),
    key("index_location", OneOf(&["start", "end"]), OPT),
]);

/// The configuration of the `default` and `v2` chunk key encodings (zarr-specs
/// `docs/v3/chunk-key-encodings/{default,v2}/index.rst`): an optional `separator`.
pub static KEY_ENCODING: Known = rules(&[key("separator", OneOf(&["/", "."]), OPT)]);

/// Codecs that the Zarr v3 core spec, the zarr-extensions registry or numcodecs define and this
/// crate does not implement, with the rules of their configurations: valid, and reported as
/// unsupported (not as unknown). The core codecs cite their spec: `zarr-specs/docs/v3/codecs/
/// <name>/index.rst`, "Configuration parameters". The `numcodecs.*` names are zarr-python's
/// wrappers of numcodecs (the same names as a v2 `.zarray`'s ids), configured with the
/// numcodecs constructor's arguments.
pub static KNOWN: &[CodecDef] = {
    use CodecKind::*;
    &[
        // transpose: "order: Required. ... a permutation of 0, 1, ..., n-1, where n is the
        // number of dimensions in the decoded chunk representation".
        CodecDef::known(
            "transpose",
            ArrayToArray,
            &Known {
                keys: &[key("order", Rule::Permutation, REQ)],
                closed: true,
                keeps_type: true,
                shape: ShapeRule::Permute,
            },
        ),
        CodecDef {
            name: "sharding_indexed",
            v2: None,
            kind: ArrayToBytes,
            binder: Binder::Sharding,
        },
        // zarr-extensions codecs/packbits (README and schema disagree on the key names).
        CodecDef::known("packbits", ArrayToBytes, &ANY),
        CodecDef::known("vlen-utf8", ArrayToBytes, &NONE),
        CodecDef::known("vlen-bytes", ArrayToBytes, &NONE),
        // gzip: "level: An integer from 0 to 9".
        CodecDef::known(
            "gzip",
            BytesToBytes,
            &rules(&[key("level", Int(0, 9), REQ)]),
        ),
        // zstd: "level: An integer from -131072 to 22"; "checksum: A boolean".
        CodecDef::known(
            "zstd",
            BytesToBytes,
            &rules(&[
                key("level", Int(-131072, 22), REQ),
                key("checksum", Bool, OPT),
            ]),
        ),
        // blosc: cname, clevel 0..9, shuffle, typesize ("Required unless shuffle is
        // noshuffle"), blocksize.
        CodecDef::known(
            "blosc",
            BytesToBytes,
            &rules(&[
                key("cname", OneOf(BLOSC_CNAMES), REQ),
                key("clevel", Int(0, 9), REQ),
                key(
                    "shuffle",
                    OneOf(&["noshuffle", "shuffle", "bitshuffle"]),
                    REQ,
                ),
                key("typesize", Int(1, MAX), Need::UnlessNoShuffle),
                key("blocksize", Int(0, MAX), OPT),
            ]),
        ),
        // crc32c: no configuration parameters.
        CodecDef::known("crc32c", BytesToBytes, &NONE),
        CodecDef::known(
            "numcodecs.bitround",
            ArrayToArray,
            &Known {
                keys: &[key("keepbits", Int(0, 52), REQ)],
                closed: true,
                keeps_type: true,
                shape: ShapeRule::Same,
            },
        ),
        // The other numcodecs filters: their arguments are not checked.
        CodecDef::known("numcodecs.quantize", ArrayToArray, &ANY),
        CodecDef::known("numcodecs.delta", ArrayToArray, &ANY),
        CodecDef::known("numcodecs.astype", ArrayToArray, &ANY),
        CodecDef::known("numcodecs.packbits", ArrayToArray, &ANY),
        CodecDef::known("numcodecs.categorize", ArrayToArray, &ANY),
        CodecDef::known("numcodecs.pcodec", ArrayToBytes, &ANY),
        CodecDef::known("numcodecs.zfpy", ArrayToBytes, &ANY),
        CodecDef::known(
            "numcodecs.gzip",
            BytesToBytes,
            &rules(&[key("level", Int(-1, 9), OPT)]),
        ),
        CodecDef::known(
            "numcodecs.zlib",
            BytesToBytes,
            &rules(&[key("level", Int(-1, 9), OPT)]),
        ),
        CodecDef::known(
            "numcodecs.zstd",
            BytesToBytes,
            &open(&[
                key("level", Int(-131072, 22), OPT),
                key("checksum", Bool, OPT),
            ]),
        ),
        // numcodecs Blosc: shuffle -1 (auto), 0, 1 or 2 as in Zarr v2.
        CodecDef::known(
            "numcodecs.blosc",
            BytesToBytes,
            &rules(&[
                key("cname", OneOf(BLOSC_CNAMES), OPT),
                key("clevel", Int(0, 9), OPT),
                key("shuffle", Int(-1, 2), OPT),
                key("blocksize", Int(0, MAX), OPT),
                key("typesize", Int(1, MAX), OPT),
            ]),
        ),
        CodecDef::known("numcodecs.bz2", BytesToBytes, &ANY),
        CodecDef::known("numcodecs.lzma", BytesToBytes, &ANY),
        CodecDef::known("numcodecs.lz4", BytesToBytes, &ANY),
        CodecDef::known("numcodecs.shuffle", BytesToBytes, &ANY),
        CodecDef::known("numcodecs.adler32", BytesToBytes, &ANY),
        CodecDef::known("numcodecs.fletcher32", BytesToBytes, &ANY),
        CodecDef::known("numcodecs.crc32", BytesToBytes, &ANY),
        CodecDef::known("numcodecs.crc32c", BytesToBytes, &ANY),
        CodecDef::known("numcodecs.jenkins_lookup3", BytesToBytes, &ANY),
    ]
};

/// Checks the configuration of a known codec (`pointer`: the codec object) against its rules,
/// reporting every problem at the pointer of the key (a missing required key at the
/// configuration, or at the codec when there is no configuration).
pub fn check_known(k: &Known, config: Option<&Json>, pointer: &str, report: &mut Report) {
    let cfg_ptr = pointer_push(pointer, "configuration");
    let what = "the configuration";
    let Some(config) = config else {
        if k.keys.iter().any(|key| matches!(key.need, Need::Required)) {
            report.error(Error::metadata(
                pointer,
                "missing configuration: this codec has required keys",
            ));
        }
        return;
    };
    let names: Vec<&str> = k.keys.iter().map(|key| key.name).collect();
    let f = if k.closed {
        Fields::open(config, &cfg_ptr, what, &names, report)
    } else {
        Fields::open_any(config, &cfg_ptr, what, report)
    };
    let Some(f) = f else { return };
    for key in k.keys {
        let required = match key.need {
            Need::Optional => false,
            Need::Required => true,
            Need::UnlessNoShuffle => f.get("shuffle").and_then(Json::as_str) != Some("noshuffle"),
        };
        let v = if required {
            f.required(key.name, report)
        } else {
            f.get(key.name)
        };
        if let Some(v) = v {
            if let Err(what) = check_rule(key.rule, v) {
                report.error(must_be(&f.at(key.name), &what, v));
            }
        }
    }
}

/// A JSON integer (no fraction or exponent) that fits an `i64`.
pub fn json_int(v: &Json) -> Option<i64> {
    let t = v.as_number()?;
    let (neg, digits) = match t.strip_prefix('-') {
        Some(d) => (true, d),
        None => (false, t),
    };
    if !digits.bytes().all(|c| c.is_ascii_digit()) {
        return None;
    }
    let n = digits.parse::<u64>().ok()?;
    match neg {
        true => 0i64.checked_sub_unsigned(n),
        false => i64::try_from(n).ok(),
    }
}

/// `Err(what it must be)` when `v` breaks `rule`.
fn check_rule(rule: Rule, v: &Json) -> std::result::Result<(), String> {
    let ok = match rule {
        Rule::Int(lo, hi) => {
            json_int(v).is_some_and(|n| (i64::from(lo)..=i64::from(hi)).contains(&n))
        }
        Rule::Bool => v.as_bool().is_some(),
        Rule::OneOf(names) => v.as_str().is_some_and(|s| names.contains(&s)),
        Rule::Permutation => permutation(v).is_some(),
        Rule::Any => true,
    };
    if ok {
        return Ok(());
    }
    let mut m = String::new();
    match rule {
        Rule::Int(lo, hi) => {
            m.push_str("an integer");
            if lo != MIN {
                m.push_str(" from ");
                m.push_str(&zarr_scale_offset_core::text::int_text(i128::from(lo)));
            }
            if hi != MAX {
                m.push_str(" to ");
                m.push_str(&zarr_scale_offset_core::text::int_text(i128::from(hi)));
            }
        }
        Rule::Bool => m.push_str("true or false"),
        Rule::OneOf(names) => {
            m.push_str("one of");
            for n in names {
                m.push(' ');
                m.push_str(&quote(n));
            }
        }
        Rule::Permutation | Rule::Any => m.push_str("a permutation of 0, 1, ..., n-1"),
    }
    Err(m)
}

/// The permutation in `v`: an array holding each of `0 .. len-1` once.
pub fn permutation(v: &Json) -> Option<Vec<usize>> {
    let items = v.as_array()?;
    let mut seen = vec![false; items.len()];
    let mut out = Vec::with_capacity(items.len());
    for item in items {
        let i = usize::try_from(json_int(item)?).ok()?;
        let slot = seen.get_mut(i)?;
        if *slot {
            return None;
        }
        *slot = true;
        out.push(i);
    }
    Some(out)
}

/// The registry entry of a Zarr v3 codec name (implemented or only known).
pub fn lookup(name: &str) -> Option<&'static CodecDef> {
    IMPLEMENTED
        .iter()
        .flat_map(|m| m.iter())
        .chain(KNOWN)
        .find(|d| d.name == name)
}

/// The implemented array -> array codecs, in registry order: the names the zarrita adapter
/// registers (`scripts/gen-dtypes.mjs` writes them into `js/zarrita.js` and its `.d.ts`).
pub fn adapter_codec_names() -> Vec<&'static str> {
    IMPLEMENTED
        .iter()
        .flat_map(|m| m.iter())
        .filter(|d| d.kind == CodecKind::ArrayToArray && d.implemented())
        .map(|d| d.name)
        .collect()
}

/// What this crate knows about a codec name: its kind, and whether it is implemented here.
pub fn known_codec(name: &str) -> Option<(CodecKind, bool)> {
    lookup(name).map(|d| (d.kind, d.implemented()))
}

/// An array -> array codec bound to the data type it receives: it owns its encoded data type,
/// its fill-value rule and its run per direction, all chosen at bind time.
/// `Send + Sync`: a bound chain is shared between threads (`Bound` is `Send + Sync`), so a bound
/// codec holds no interior mutability.
/// (No `Debug` supertrait: a vtable entry would keep every codec's `Debug` code in the wasm
/// module, ~70 KB, for messages that never print it.)
pub trait BoundArrayCodec: Any + Send + Sync {
    /// The codec name as metadata spells it.
    fn name(&self) -> &'static str;
    /// The data type this codec receives (the decoded side).
    fn decoded_type(&self) -> DataType;
    /// The data type it produces (the encoded side).
    fn encoded_type(&self) -> DataType;
    /// The fill value after this codec, given the fill value it receives (raw bits):
    /// `Ok(None)` when the codec does not transform fill values (later codecs then see none),
    /// or the whole message of why this fill value cannot pass it.
    fn encode_fill(&self, fill: u64) -> std::result::Result<Option<u64>, String>;
    /// One value (raw bits) run through the codec in `dir`; `None` when that fails (the
    /// lookup tables use this; errors come from [`BoundArrayCodec::run`]).
    fn value(&self, dir: Direction, bits: u64) -> Option<u64>;
    /// Runs the codec in `dir` over a whole in-memory buffer into `out` (the same element
    /// count): the kernel chosen at bind time, whose declined blocks the element-by-element
    /// reference redoes (only the reference with `opts.reference_only`). Errors name the element
    /// index within `input`.
    fn run(&self, dir: Direction, input: &[u8], out: &mut [u8], opts: RunOptions) -> Result<()>;
    /// The loops that run this codec followed by `next` as one, per direction, when there are.
    fn fuse(&self, _next: &dyn BoundArrayCodec) -> PerDirection<Option<Fused>> {
        PerDirection::default()
    }
    /// For [`BoundArrayCodec::fuse`]: the concrete codec behind the trait object.
    fn as_any(&self) -> &dyn Any;
}

/// A loop that runs two adjacent codecs at once (see [`zarr_scale_offset_core::kernels::fused`]).
#[derive(Debug, Clone)]
pub enum Fused {
    /// Decodes both codecs in one loop; never fails.
    Decode(FusedDecode),
    /// Encodes both codecs per block; a block it declines is redone codec by codec.
    Encode(FusedEncode),
}

/// An array -> bytes codec bound to the data type it receives (`Send + Sync`, as
/// [`BoundArrayCodec`]).
pub trait BoundArrayToBytes: Send + Sync {
    /// Whether stored bytes and in-memory elements are the same bytes, so a chain can skip it.
    fn is_identity(&self) -> bool;
    /// In-memory elements to stored bytes.
    fn encode(&self, input: &[u8]) -> Vec<u8>;
    /// Stored bytes to in-memory elements.
    fn decode(&self, input: &[u8]) -> Vec<u8>;
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The adapter's codec names in js/zarrita.js and js/zarrita.d.ts are the registry's (they
    /// are generated: `node scripts/gen-dtypes.mjs`).
    #[test]
    fn js_codec_names_are_fresh() {
        let root = std::path::Path::new(env!("CARGO_MANIFEST_DIR"));
        let read = |f: &str| std::fs::read_to_string(root.join(f)).unwrap();
        let names = adapter_codec_names();
        let quoted: Vec<String> = names.iter().map(|n| format!("'{n}'")).collect();
        let js = format!(
            "export const codecNames = Object.freeze([{}]);",
            quoted.join(", ")
        );
        let dts = format!("export type ZarritaCodecName = {};", quoted.join(" | "));
        let stale = "is stale: run `node scripts/gen-dtypes.mjs`";
        assert!(read("js/zarrita.js").contains(&js), "js/zarrita.js {stale}");
        assert!(
            read("js/zarrita.d.ts").contains(&dts),
            "js/zarrita.d.ts {stale}"
        );
        assert!(names.contains(&"scale_offset") && names.contains(&"cast_value"));
        assert!(!names.contains(&"bytes"));
    }

    /// The v2 reader finds filters through the registry only: `fixedscaleoffset` is the v2 form
    /// of exactly the `numcodecs.fixedscaleoffset` entry, and no v2 id is declared twice.
    #[test]
    fn v2_filters_come_from_the_registry() {
        let with_v2: Vec<(&str, &str)> = IMPLEMENTED
            .iter()
            .flat_map(|m| m.iter())
            .filter_map(|d| d.v2.map(|v| (d.name, v.id)))
            .collect();
        assert_eq!(
            with_v2,
            [("numcodecs.fixedscaleoffset", "fixedscaleoffset")]
        );
        assert!(lookup_v2("fixedscaleoffset").is_some());
        assert!(lookup_v2("numcodecs.fixedscaleoffset").is_none());
        assert!(lookup_v2("delta").is_none());
    }
}
