//! A [zarrs](https://docs.rs/zarrs) codec plugin: the exact `cf.scale_offset`, `scale_offset` and
//! `cast_value` array-to-array codecs of the zarr-scale-offset core (the same core as the npm
//! package), for every numeric data type zarrs has.
//!
//! Depending on this crate is all it takes: its codecs register themselves with zarrs when the
//! program is linked (`inventory`), so `Array::open` reads arrays that use them and
//! `ArrayBuilder` writes them.
//!
//! | codec name | registered | feature |
//! |---|---|---|
//! | `cf.scale_offset` | always | — |
//! | `scale_offset` | at link time | `scale_offset` (default) |
//! | `cast_value` | at link time | `cast_value` (default) |
//! | `numcodecs.fixedscaleoffset` | only by [`register_fixed_scale_offset`] (read-only) | — |
//!
//! Turn a default feature off (`default-features = false, features = [...]`) to leave that name
//! to another implementation, e.g. a future zarrs built-in.
//!
//! Every codec is the one generic [`ScaleOffsetCodec`]: it hands its metadata to the core's
//! [`zarr_scale_offset::Bound::from_fill_element`] once per (data type, fill value) and keeps
//! the bound codec, so a codec the core learns needs no code here, only a name in
//! [`CODEC_NAMES`]. The codecs are elementwise: zarrs reads part of a chunk through them by
//! asking for and decoding only those elements (partial decoding).
//!
//! ```
//! use zarrs_scale_offset::ScaleOffsetCodec;
//! use zarrs::array::{data_type, ArrayToArrayCodecTraits, FillValue};
//! use zarrs::metadata::v3::MetadataV3;
//!
//! let metadata: MetadataV3 = serde_json::from_str(
//!     r#"{"name": "cast_value", "configuration": {"data_type": "uint8"}}"#,
//! )?;
//! let codec = ScaleOffsetCodec::from_metadata(&metadata)?;
//! let (f32_type, fill) = (data_type::float32(), FillValue::from(0.0f32));
//! assert_eq!(codec.encoded_data_type(&f32_type)?, data_type::uint8());
//! assert_eq!(codec.encoded_fill_value(&f32_type, &fill)?, FillValue::from(0u8));
//! # Ok::<(), Box<dyn std::error::Error>>(())
//! ```

#![warn(missing_docs)]
#![cfg_attr(test, allow(clippy::restriction))]

use std::borrow::Cow;
use std::num::NonZeroU64;
use std::sync::{Arc, PoisonError, RwLock};

use zarr_scale_offset::{Bound, DataType as CoreType, Error as CoreError};
use zarrs::array::{DataType, FillValue, Indexer};
use zarrs::metadata::v3::MetadataV3;
use zarrs::metadata::Configuration;
use zarrs::storage::StorageError;
use zarrs_codec::{
    ArrayBytes, ArrayCodecTraits, ArrayPartialDecoderTraits, ArrayToArrayCodecTraits, Codec,
    CodecError, CodecMetadataOptions, CodecOptions, CodecPluginV3, CodecTraits, CodecTraitsV3,
    PartialDecoderCapability, PartialEncoderCapability, RecommendedConcurrency,
};
use zarrs_plugin::{ExtensionName, PluginCreateError, ZarrVersion};

/// The codec names this build registers with zarrs at link time (the features decide which).
pub const CODEC_NAMES: &[&str] = &[
    "cf.scale_offset",
    #[cfg(feature = "scale_offset")]
    "scale_offset",
    #[cfg(feature = "cast_value")]
    "cast_value",
];

/// One array-to-array codec of the scale/offset family (any name the core implements), bound
/// lazily to each (data type, fill value) zarrs asks for. `Send + Sync`, like the core's
/// [`Bound`].
#[derive(Debug)]
pub struct ScaleOffsetCodec {
    name: String,
    configuration: Option<Configuration>,
    /// `{"name": ..., "configuration": ...}`: what the core binds.
    codec_json: String,
    bound: RwLock<Vec<BoundEntry>>,
}

/// A bound codec and what it was bound to (`fill`: the in-memory element, or `None` where zarrs
/// asks for the encoded data type only).
#[derive(Debug)]
struct BoundEntry {
    data_type: CoreType,
    fill: Option<Vec<u8>>,
    bound: Arc<Bound>,
}

/// More (data type, fill value) pairs than this per codec (a program that builds many arrays
/// from one codec object) start the cache again rather than grow it.
const MAX_BOUND: usize = 16;

impl ScaleOffsetCodec {
    /// A codec from its Zarr v3 metadata (`name` and `configuration`). The configuration is
    /// checked here as far as it does not depend on the data type; the rest is checked when
    /// zarrs first uses the codec with a data type.
    ///
    /// ```
    /// use zarrs::metadata::v3::MetadataV3;
    /// let bad: MetadataV3 = serde_json::from_str(
    ///     r#"{"name": "scale_offset", "configuration": {"scale": 2, "sclae": 1}}"#)?;
    /// let e = zarrs_scale_offset::ScaleOffsetCodec::from_metadata(&bad).unwrap_err();
    /// assert!(e.to_string().contains("/configuration/sclae"), "{e}");
    /// # Ok::<(), Box<dyn std::error::Error>>(())
    /// ```
    ///
    /// # Errors
    /// A [`PluginCreateError`] with the core's message (code, JSON pointer) for a configuration
    /// the core rejects.
    pub fn from_metadata(metadata: &MetadataV3) -> Result<Self, PluginCreateError> {
        let mut doc = serde_json::Map::new();
        doc.insert("name".into(), metadata.name().into());
        if let Some(c) = metadata.configuration() {
            doc.insert(
                "configuration".into(),
                serde_json::Value::Object(c.clone().into()),
            );
        }
        let codec_json = serde_json::Value::Object(doc).to_string();
        let report = zarr_scale_offset::validate(&codec_json, None);
        if let Some(d) = report.errors.first() {
            return Err(PluginCreateError::Other(format!(
                "{}: {}: {} (at {})",
                metadata.name(),
                d.code,
                d.message,
                d.path
            )));
        }
        Ok(ScaleOffsetCodec {
            name: metadata.name().to_string(),
            configuration: metadata.configuration().cloned(),
            codec_json,
            bound: RwLock::new(Vec::new()),
        })
    }

    /// The core's codec bound to `data_type` and `fill` (`None`: no fill value), from the cache
    /// or bound now.
    fn bound(
        &self,
        data_type: &DataType,
        fill: Option<&FillValue>,
    ) -> Result<Arc<Bound>, CodecError> {
        let t = core_type(data_type)?;
        let fill = fill.map(|f| ne_to_le(f.as_ne_bytes(), t.size()).into_owned());
        let found = self
            .bound
            .read()
            .unwrap_or_else(PoisonError::into_inner)
            .iter()
            .find(|e| e.data_type == t && e.fill == fill)
            .map(|e| Arc::clone(&e.bound));
        if let Some(b) = found {
            return Ok(b);
        }
        let bound = Bound::from_fill_element(&self.codec_json, t, fill.as_deref())
            .map(Arc::new)
            .map_err(|e| self.error(e))?;
        let mut cache = self.bound.write().unwrap_or_else(PoisonError::into_inner);
        if cache.len() >= MAX_BOUND {
            cache.clear();
        }
        cache.push(BoundEntry {
            data_type: t,
            fill,
            bound: Arc::clone(&bound),
        });
        Ok(bound)
    }

    /// A core error as a zarrs codec error: the codec's name, then the core's `code: message`.
    fn error(&self, e: CoreError) -> CodecError {
        CodecError::Other(format!("{}: {e}", self.name))
    }

    /// Runs one direction (`f`) over `n` elements: `bytes` holds elements of `from`, the result
    /// elements of `to`. The output buffer is allocated fallibly: `bytes` already holds the `n`
    /// input elements, and an output zarrs cannot have is an error, not an abort.
    fn run<'a>(
        &self,
        bytes: ArrayBytes<'a>,
        n: u64,
        from: &DataType,
        to: CoreType,
        f: impl FnOnce(&[u8], &mut [u8]) -> zarr_scale_offset::Result<()>,
    ) -> Result<ArrayBytes<'a>, CodecError> {
        bytes.validate(n, from)?;
        let input = bytes.into_fixed()?;
        let from_size = core_type(from)?.size();
        let input = ne_to_le(&input, from_size);
        let len = usize::try_from(n)
            .ok()
            .and_then(|n| n.checked_mul(to.size()))
            .ok_or_else(|| self.too_large())?;
        let mut out = Vec::new();
        out.try_reserve_exact(len).map_err(|_| {
            CodecError::Other(format!(
                "{}: the output ({len} bytes) cannot be allocated",
                self.name
            ))
        })?;
        out.resize(len, 0u8);
        f(&input, &mut out).map_err(|e| self.error(e))?;
        Ok(ArrayBytes::from(le_to_ne(out, to.size())))
    }

    /// The error of a chunk whose element or byte count does not fit.
    fn too_large(&self) -> CodecError {
        CodecError::Other(format!("{}: the chunk is too large", self.name))
    }

    /// The number of elements of a chunk of `shape`.
    fn elements(&self, shape: &[NonZeroU64]) -> Result<u64, CodecError> {
        shape
            .iter()
            .try_fold(1u64, |n, d| n.checked_mul(d.get()))
            .ok_or_else(|| self.too_large())
    }

    /// Decodes `n` elements of `b`'s encoded data type (a whole chunk or any subset of one: the
    /// codecs are elementwise). Only the low bits of a stored sub-byte element count
    /// ([`stored_sub_byte`]).
    fn decode_elements<'a>(
        &self,
        b: &Bound,
        bytes: ArrayBytes<'a>,
        n: u64,
    ) -> Result<ArrayBytes<'a>, CodecError> {
        let t = b.encoded_data_type();
        self.run(bytes, n, &zarrs_type(t)?, b.decoded_data_type(), |i, o| {
            b.decode_into(&stored_sub_byte(t, i), o)
        })
    }
}

/// The partial decoder of a [`ScaleOffsetCodec`]: the codecs are elementwise, so the elements of
/// any subset (any zarrs [`Indexer`]) are the decoded elements of the same subset of the encoded
/// chunk. It asks the partial decoder before it (the next codec towards storage) for exactly that
/// subset and decodes those elements with the bound core codec, so a read allocates what it asks
/// for and never the whole chunk (issue 29: 4 elements of a missing chunk of 2^34 float32
/// elements used to decode all 64 GiB of its fill value). A chunk that is not stored reads as the
/// decoded encoded fill value, as through `decode`.
struct ScaleOffsetPartialDecoder {
    input: Arc<dyn ArrayPartialDecoderTraits>,
    codec: Arc<ScaleOffsetCodec>,
    /// Bound to the chunk's decoded data type and fill value.
    bound: Arc<Bound>,
    data_type: DataType,
}

impl ArrayPartialDecoderTraits for ScaleOffsetPartialDecoder {
    fn data_type(&self) -> &DataType {
        &self.data_type
    }

    fn exists(&self) -> Result<bool, StorageError> {
        self.input.exists()
    }

    fn size_held(&self) -> usize {
        self.input.size_held()
    }

    fn partial_decode(
        &self,
        indexer: &dyn Indexer,
        options: &CodecOptions,
    ) -> Result<ArrayBytes<'_>, CodecError> {
        let encoded = self.input.partial_decode(indexer, options)?;
        self.codec
            .decode_elements(&self.bound, encoded, indexer.len())
    }

    fn supports_partial_decode(&self) -> bool {
        self.input.supports_partial_decode()
    }
}

/// The core's data type for a zarrs data type: the same Zarr v3 name (both have the 26 numeric
/// types; the crate docs list the in-memory layouts, which agree).
fn core_type(data_type: &DataType) -> Result<CoreType, CodecError> {
    let name = data_type.name(ZarrVersion::V3);
    name.as_deref()
        .and_then(CoreType::from_name)
        .filter(|_| data_type.configuration(ZarrVersion::V3).is_empty())
        .ok_or_else(|| {
            CodecError::UnsupportedDataType(
                data_type.clone(),
                "a codec of zarr-scale-offset".to_string(),
            )
        })
}

/// The zarrs data type of a core data type.
fn zarrs_type(t: CoreType) -> Result<DataType, CodecError> {
    DataType::from_metadata(&MetadataV3::new(t.name()))
        .map_err(|e| CodecError::Other(format!("zarrs has no data type {t}: {e}")))
}

/// Reverses the bytes of each `size`-byte element (native <-> little-endian on a big-endian
/// machine).
fn reverse_elements(mut buf: Vec<u8>, size: usize) -> Vec<u8> {
    if size > 1 {
        buf.chunks_exact_mut(size).for_each(<[u8]>::reverse);
    }
    buf
}

/// zarrs holds elements in native byte order, the core in little-endian order (no copy on a
/// little-endian machine).
fn ne_to_le(buf: &[u8], size: usize) -> Cow<'_, [u8]> {
    if cfg!(target_endian = "big") {
        Cow::Owned(reverse_elements(buf.to_vec(), size))
    } else {
        Cow::Borrowed(buf)
    }
}

/// The inverse of [`ne_to_le`].
fn le_to_ne(buf: Vec<u8>, size: usize) -> Vec<u8> {
    if cfg!(target_endian = "big") {
        reverse_elements(buf, size)
    } else {
        buf
    }
}

/// The elements of a sub-byte data type (int2, int4, uint2, uint4, float4, float6) as the
/// core holds them in memory: only the low `bits` of each byte count (the `bytes` codec's rule:
/// the upper bits of a stored sub-byte value are arbitrary), sign-extended for int2/int4 and
/// zero-extended otherwise. zarrs' `bytes` codec hands the stored byte through unchanged, so a
/// codec's decode input can have the upper bits of the stored byte.
fn stored_sub_byte(t: CoreType, buf: &[u8]) -> Cow<'_, [u8]> {
    let bits = t.bits();
    if bits >= 8 {
        return Cow::Borrowed(buf);
    }
    let mask = (1u8 << bits) - 1;
    let sign = 1u8 << (bits - 1);
    let signed = t.name().starts_with("int");
    Cow::Owned(
        buf.iter()
            .map(|b| match b & mask {
                low if signed && low & sign != 0 => low | !mask,
                low => low,
            })
            .collect(),
    )
}

impl ExtensionName for ScaleOffsetCodec {
    fn name(&self, version: ZarrVersion) -> Option<Cow<'static, str>> {
        match version {
            ZarrVersion::V3 => Some(Cow::Owned(self.name.clone())),
            ZarrVersion::V2 => None,
        }
    }
}

impl CodecTraits for ScaleOffsetCodec {
    fn as_any(&self) -> &dyn std::any::Any {
        self
    }

    fn configuration(
        &self,
        _version: ZarrVersion,
        _options: &CodecMetadataOptions,
    ) -> Option<Configuration> {
        self.configuration.clone()
    }

    /// Elementwise codecs: a subset decodes from the same subset of the encoded chunk
    /// ([`ScaleOffsetCodec`]'s partial decoder), so zarrs puts no whole-chunk cache after them.
    fn partial_decoder_capability(&self) -> PartialDecoderCapability {
        PartialDecoderCapability {
            partial_read: true,
            partial_decode: true,
        }
    }

    fn partial_encoder_capability(&self) -> PartialEncoderCapability {
        PartialEncoderCapability {
            partial_encode: false,
        }
    }
}

impl ArrayCodecTraits for ScaleOffsetCodec {
    fn recommended_concurrency(
        &self,
        _shape: &[NonZeroU64],
        _data_type: &DataType,
    ) -> Result<RecommendedConcurrency, CodecError> {
        Ok(RecommendedConcurrency::new_maximum(1))
    }
}

impl ArrayToArrayCodecTraits for ScaleOffsetCodec {
    fn into_dyn(self: Arc<Self>) -> Arc<dyn ArrayToArrayCodecTraits> {
        self
    }

    fn encoded_data_type(&self, decoded_data_type: &DataType) -> Result<DataType, CodecError> {
        zarrs_type(self.bound(decoded_data_type, None)?.encoded_data_type())
    }

    fn encoded_fill_value(
        &self,
        decoded_data_type: &DataType,
        decoded_fill_value: &FillValue,
    ) -> Result<FillValue, CodecError> {
        let b = match self.bound(decoded_data_type, Some(decoded_fill_value)) {
            Ok(b) => b,
            // The fill value cannot pass through this codec, but the codec binds without it (so
            // the error is the fill value's): a zero placeholder of the encoded type, not an
            // error. zarrs 0.23 asks with a placeholder fill of zero bytes where it needs only the
            // data types and shapes (`CodecChain::recommended_concurrency`, zarrs-0.23.14
            // src/array/codec/array_to_bytes/codec_chain.rs:831-835, for every request over
            // several chunks), and the codecs before this one have already transformed that
            // placeholder (0 - 300 = -300), so it cannot be told from a real fill value here.
            // The real fill value is still required: `encode` and `decode` bind with the fill
            // value zarrs gives them, so every chunk zarrs encodes or decodes through this codec
            // fails with the fill-value error before the placeholder can reach a stored or
            // decoded element.
            Err(_) => self.bound(decoded_data_type, None)?,
        };
        let t = b.encoded_data_type();
        match b.encoded_fill_element() {
            Some(element) => Ok(FillValue::new(le_to_ne(element, t.size()))),
            // The placeholder above, and a codec that carries no fill value (the read-only
            // numcodecs.fixedscaleoffset, as in zarr-python): zero. zarrs uses the encoded fill
            // value only to recognise stored chunks that hold nothing but the fill value, and
            // those codecs never encode one.
            None => Ok(FillValue::new(vec![0; t.size()])),
        }
    }

    fn encode<'a>(
        &self,
        bytes: ArrayBytes<'a>,
        shape: &[NonZeroU64],
        data_type: &DataType,
        fill_value: &FillValue,
        _options: &CodecOptions,
    ) -> Result<ArrayBytes<'a>, CodecError> {
        let b = self.bound(data_type, Some(fill_value))?;
        let n = self.elements(shape)?;
        self.run(bytes, n, data_type, b.encoded_data_type(), |i, o| {
            b.encode_into(i, o)
        })
    }

    fn decode<'a>(
        &self,
        bytes: ArrayBytes<'a>,
        shape: &[NonZeroU64],
        data_type: &DataType,
        fill_value: &FillValue,
        _options: &CodecOptions,
    ) -> Result<ArrayBytes<'a>, CodecError> {
        let b = self.bound(data_type, Some(fill_value))?;
        self.decode_elements(&b, bytes, self.elements(shape)?)
    }

    /// A `ScaleOffsetPartialDecoder`: a subset is decoded from the same subset of the input.
    /// (zarrs' asynchronous API, not enabled by this crate, keeps zarrs_codec's default
    /// array-to-array partial decoder, which with `partial_decode: true` does the same through
    /// `decode`.)
    fn partial_decoder(
        self: Arc<Self>,
        input_handle: Arc<dyn ArrayPartialDecoderTraits>,
        _shape: &[NonZeroU64],
        data_type: &DataType,
        fill_value: &FillValue,
        _options: &CodecOptions,
    ) -> Result<Arc<dyn ArrayPartialDecoderTraits>, CodecError> {
        let bound = self.bound(data_type, Some(fill_value))?;
        Ok(Arc::new(ScaleOffsetPartialDecoder {
            input: input_handle,
            codec: self,
            bound,
            data_type: data_type.clone(),
        }))
    }
}

/// Registers one codec name with zarrs at link time: a marker type whose `create` makes a
/// [`ScaleOffsetCodec`].
macro_rules! register {
    ($(#[$attr:meta])* $marker:ident, $name:literal) => {
        $(#[$attr])*
        struct $marker;
        $(#[$attr])*
        zarrs_plugin::impl_extension_aliases!($marker, v3: $name);
        $(#[$attr])*
        impl CodecTraitsV3 for $marker {
            fn create(metadata: &MetadataV3) -> Result<Codec, PluginCreateError> {
                Ok(Codec::ArrayToArray(Arc::new(ScaleOffsetCodec::from_metadata(metadata)?)))
            }
        }
        $(#[$attr])*
        inventory::submit! { CodecPluginV3::new::<$marker>() }
    };
}

register!(CfScaleOffsetPlugin, "cf.scale_offset");
register!(
    #[cfg(feature = "scale_offset")]
    ScaleOffsetPlugin,
    "scale_offset"
);
register!(
    #[cfg(feature = "cast_value")]
    CastValuePlugin,
    "cast_value"
);

/// Makes zarrs read `numcodecs.fixedscaleoffset` (Zarr v3 name) with this crate's numcodecs-exact
/// decoder instead of zarrs' own (which computes in `f32` with `f32` scale and offset and reads
/// only float32/float64 arrays). Runtime registrations take precedence over zarrs' built-in
/// codecs; returns the handle for `zarrs_codec::unregister_codec_v3`. Read-only, as in the core:
/// encoding is a `read_only` error. Not done at link time, because zarrs registers the same
/// name and which of two link-time plugins wins is unspecified.
///
/// ```
/// let handle = zarrs_scale_offset::register_fixed_scale_offset();
/// assert!(zarrs_codec::unregister_codec_v3(&handle));
/// ```
pub fn register_fixed_scale_offset() -> zarrs_codec::CodecRuntimeRegistryHandleV3 {
    zarrs_codec::register_codec_v3(zarrs_codec::CodecRuntimePluginV3::new(
        |name| name == "numcodecs.fixedscaleoffset",
        |metadata| {
            Ok(Codec::ArrayToArray(Arc::new(
                ScaleOffsetCodec::from_metadata(metadata)?,
            )))
        },
    ))
}

// zarrs shares codecs between threads.
const _: () = {
    const fn send_sync<T: Send + Sync>() {}
    send_sync::<ScaleOffsetCodec>();
};

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn binds_once_per_data_type_and_fill() {
        let m: MetadataV3 =
            serde_json::from_str(r#"{"name": "scale_offset", "configuration": {"scale": 2}}"#)
                .unwrap();
        let c = ScaleOffsetCodec::from_metadata(&m).unwrap();
        let f32_type = zarrs::array::data_type::float32();
        let (zero, one) = (FillValue::from(0.0f32), FillValue::from(1.0f32));
        let a = c.bound(&f32_type, Some(&zero)).unwrap();
        assert!(Arc::ptr_eq(&a, &c.bound(&f32_type, Some(&zero)).unwrap()));
        assert!(!Arc::ptr_eq(&a, &c.bound(&f32_type, Some(&one)).unwrap()));
        let i8_type = zarrs::array::data_type::int8();
        assert!(!Arc::ptr_eq(
            &a,
            &c.bound(&i8_type, Some(&FillValue::from(0i8))).unwrap()
        ));
        assert_eq!(c.bound.read().unwrap().len(), 3);
        for k in 0..2 * MAX_BOUND {
            c.bound(&f32_type, Some(&FillValue::from(k as f32)))
                .unwrap();
        }
        assert!(c.bound.read().unwrap().len() <= MAX_BOUND);
    }

    #[test]
    fn stored_sub_byte_keeps_the_low_bits() {
        let t = |n: &str| CoreType::from_name(n).unwrap();
        let input = [0x00, 0x07, 0x08, 0x0f, 0xf1, 0xff, 0x3c];
        assert_eq!(
            *stored_sub_byte(t("int4"), &input),
            [0, 7, 0xf8, 0xff, 1, 0xff, 0xfc]
        );
        assert_eq!(
            *stored_sub_byte(t("uint4"), &input),
            [0, 7, 8, 0x0f, 1, 0x0f, 0x0c]
        );
        assert_eq!(
            *stored_sub_byte(t("int2"), &input),
            [0, 0xff, 0, 0xff, 1, 0xff, 0]
        );
        assert_eq!(
            *stored_sub_byte(t("float6_e2m3fn"), &input),
            [0, 7, 8, 0x0f, 0x31, 0x3f, 0x3c]
        );
        assert_eq!(*stored_sub_byte(t("float8_e4m3"), &input), input);
        assert_eq!(*stored_sub_byte(t("int16"), &input), input);
    }

    #[test]
    fn reverse_elements_swaps_each_element() {
        assert_eq!(reverse_elements(vec![1, 2, 3, 4], 2), [2, 1, 4, 3]);
        assert_eq!(reverse_elements(vec![1, 2, 3, 4], 4), [4, 3, 2, 1]);
        assert_eq!(reverse_elements(vec![1, 2], 1), [1, 2]);
    }
}
