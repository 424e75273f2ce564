//! The codecs, and the registry that names each one once.
//!
//! Every codec module declares its names and kind in a `CODECS` table (a [`CodecDef`] per name:
//! the Zarr v3 name, the Zarr v2 / numcodecs id where there is one, and a `bind` function).
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

use crate::dtype::DataType;
use crate::error::{Report, Result};
use crate::json::{parse_scalar, Json};
use crate::kernels::fused::{FusedDecode, FusedEncode};
use crate::{Direction, PerDirection};
use std::any::Any;

pub use zarr_scale_offset_core::cast;

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
    /// Defined by a spec or a known extension, not implemented here.
    NotImplemented,
}

/// One codec name in the registry.
#[derive(Clone, Copy)]
pub struct CodecDef {
    /// The Zarr v3 name.
    pub name: &'static str,
    /// The Zarr v2 / numcodecs id, where there is one.
    pub v2_id: Option<&'static str>,
    /// Its kind.
    pub kind: CodecKind,
    /// How it is bound.
    pub binder: Binder,
}

impl CodecDef {
    /// A codec defined elsewhere that this crate does not implement.
    const fn known(name: &'static str, kind: CodecKind) -> CodecDef {
        CodecDef {
            name,
            v2_id: None,
            kind,
            binder: Binder::NotImplemented,
        }
    }

    /// Whether this crate implements it.
    pub fn implemented(&self) -> bool {
        !matches!(self.binder, Binder::NotImplemented)
    }
}

/// Codecs that the Zarr v3 core spec, the zarr-extensions registry or numcodecs define and this
/// crate does not implement (reported as `unsupported_codec`, not as unknown).
pub static KNOWN: &[CodecDef] = {
    use CodecKind::*;
    &[
        CodecDef::known("transpose", ArrayToArray),
        CodecDef::known("numcodecs.bitround", ArrayToArray),
        CodecDef::known("numcodecs.quantize", ArrayToArray),
        CodecDef::known("numcodecs.delta", ArrayToArray),
        CodecDef::known("numcodecs.astype", ArrayToArray),
        CodecDef::known("sharding_indexed", ArrayToBytes),
        CodecDef::known("packbits", ArrayToBytes),
        CodecDef::known("vlen-utf8", ArrayToBytes),
        CodecDef::known("vlen-bytes", ArrayToBytes),
        CodecDef::known("gzip", BytesToBytes),
        CodecDef::known("zstd", BytesToBytes),
        CodecDef::known("blosc", BytesToBytes),
        CodecDef::known("crc32c", BytesToBytes),
        CodecDef::known("numcodecs.gzip", BytesToBytes),
        CodecDef::known("numcodecs.zlib", BytesToBytes),
        CodecDef::known("numcodecs.zstd", BytesToBytes),
        CodecDef::known("numcodecs.blosc", BytesToBytes),
        CodecDef::known("numcodecs.bz2", BytesToBytes),
        CodecDef::known("numcodecs.lzma", BytesToBytes),
        CodecDef::known("numcodecs.lz4", BytesToBytes),
        CodecDef::known("numcodecs.shuffle", BytesToBytes),
        CodecDef::known("numcodecs.adler32", BytesToBytes),
        CodecDef::known("numcodecs.fletcher32", BytesToBytes),
        CodecDef::known("numcodecs.crc32", BytesToBytes),
        CodecDef::known("numcodecs.crc32c", BytesToBytes),
    ]
};

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
/// (No `Debug` supertrait: a vtable entry would keep every codec's `Debug` code in the wasm
/// module, ~70 KB, for messages that never print it.)
pub trait BoundArrayCodec: Any {
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

/// A loop that runs two adjacent codecs at once (see [`crate::kernels::fused`]).
#[derive(Debug, Clone)]
pub enum Fused {
    /// Decodes both codecs in one loop; never fails.
    Decode(FusedDecode),
    /// Encodes both codecs per block; a block it declines is redone codec by codec.
    Encode(FusedEncode),
}

/// An array -> bytes codec bound to the data type it receives.
pub trait BoundArrayToBytes {
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
}
