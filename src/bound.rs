//! The bind API: a list of array -> array codecs bound once to the data type and fill value it
//! receives, then used for any number of chunks without parsing its JSON again.
//!
//! The fill value flows forward through the codecs exactly as in a zarr.json document: each
//! codec must be able to encode it (cast_value also checks that it survives the round trip),
//! and what comes out of the last codec is the encoded fill value.

use crate::args::{bind_array_codecs, codecs_doc, parse_data_type_arg};
use crate::chain::ArrayChain;
use crate::json::fields::report_duplicates;
use crate::json::{parse, parse_scalar, write_scalar, Json};
use crate::report::Report;
use zarr_scale_offset_core::dtype::DataType;
use zarr_scale_offset_core::error::{Error, ErrorCode, Result};

/// Array -> array codecs bound to (data type, fill value): encodes and decodes in-memory data
/// (see the crate documentation for the in-memory layout of each data type) without parsing
/// anything again. Made by [`crate::bind`] or [`Bound::from_text`] (the same). `Send + Sync`:
/// one `Bound` may encode and decode from any number of threads at once.
///
/// ```
/// use zarr_scale_offset::{bind, DataType};
///
/// let codecs = r#"[
///     {"name": "scale_offset", "configuration": {"offset": -10, "scale": 0.1}},
///     {"name": "cast_value", "configuration": {"data_type": "uint8",
///         "scalar_map": {"encode": [["NaN", 0]], "decode": [[0, "NaN"]]}}}
/// ]"#;
/// let b = bind(codecs, "float64", Some(r#""NaN""#))?;
/// assert_eq!(b.encoded_data_type(), DataType::UInt8);
/// assert_eq!(b.encoded_fill().as_deref(), Some("0"));
///
/// let values: Vec<u8> = [0.0f64, 100.0, f64::NAN, 2540.0]
///     .iter()
///     .flat_map(|x| x.to_le_bytes())
///     .collect();
/// let stored = b.encode(&values)?;
/// assert_eq!(stored, [1, 11, 0, 255]);
/// let back = b.decode(&stored)?;
/// assert_eq!(back.get(..8), Some(&0.0f64.to_le_bytes()[..]));
/// # Ok::<(), zarr_scale_offset::Error>(())
/// ```
#[derive(Debug)]
pub struct Bound {
    chain: ArrayChain,
}

// Users share one `Bound` between threads (a Python binding that releases the GIL, a zarrs
// codec, which must be `Send + Sync`): this stops compiling if it ever is not.
const _: () = {
    const fn send_sync<T: Send + Sync>() {}
    send_sync::<Bound>();
};

/// A fill-value error: the fill is an argument of its own, so the message says which one instead
/// of a JSON pointer into the codecs.
fn fill_error(e: Error) -> Error {
    Error::new(e.code, format!("fill value: {}", e.detail()))
}

impl Bound {
    /// Binds `codecs` (one array -> array codec, as an object or a short-hand name, or a list of
    /// them) to `data_type` and, when given, `fill`: a Zarr fill value of `data_type` in any form
    /// a zarr.json `fill_value` may take (`0`, `"NaN"`, `"-Infinity"`, `"0x7fc00001"`, the
    /// lenient forms), given as parsed JSON (this crate's tests; the API is [`Bound::from_text`]
    /// or [`crate::bind`]). Errors name the JSON pointer in `codecs` (a fill value that cannot pass
    /// a codec is an `invalid_metadata` error at that codec); an unparsable fill value is an
    /// error whose message starts with `fill value:`.
    #[doc(hidden)]
    pub fn new(codecs: &Json, data_type: DataType, fill: Option<&Json>) -> Result<Bound> {
        let fill = match fill {
            Some(v) => Some(parse_scalar(data_type, v, "").map_err(fill_error)?.bits),
            None => None,
        };
        Bound::with_fill_bits(codecs, data_type, fill)
    }

    fn with_fill_bits(codecs: &Json, data_type: DataType, fill: Option<u64>) -> Result<Bound> {
        let mut r = Report::default();
        let chain = bind_array_codecs(codecs, Some(data_type), fill, &mut r);
        report_duplicates(codecs, 0, &mut r);
        r.into_result(chain).map(|chain| Bound { chain })
    }

    /// The bound chain (its run per direction, `RunOptions`, the data types): for this crate's
    /// wasm bindings and tests.
    #[doc(hidden)]
    pub fn chain(&self) -> &ArrayChain {
        &self.chain
    }

    /// Like [`Bound::new`], with each argument as text: `codecs` as JSON text or a bare codec
    /// name, `data_type` as a name or JSON text, `fill` as JSON text (`"0"`, `"\"NaN\""`).
    pub fn from_text(codecs: &str, data_type: &str, fill: Option<&str>) -> Result<Bound> {
        let dtype = parse_data_type_arg(data_type)?;
        let doc = codecs_doc(codecs)?;
        let fill = match fill {
            Some(t) => Some(parse(t).map_err(fill_error)?),
            None => None,
        };
        Bound::new(&doc, dtype, fill.as_ref())
    }

    /// Like [`Bound::from_text`], with the fill value as one in-memory element of `data_type`
    /// (little-endian, `data_type.size()` bytes, in the layout of the crate documentation: the
    /// form [`Bound::encoded_fill_element`] returns) instead of JSON text: for an engine that
    /// holds fill values as bytes (the zarrs plugin). An element of the wrong length is a
    /// `length_mismatch` error; a sub-byte element that is not in that layout (an int4 `0x0f`
    /// instead of the sign-extended `0xff`) is `invalid_data`.
    ///
    /// ```
    /// use zarr_scale_offset::{Bound, DataType, ErrorCode};
    ///
    /// let codecs = r#"{"name": "cast_value", "configuration": {"data_type": "int4"}}"#;
    /// let b = Bound::from_fill_element(codecs, DataType::Float32, Some(&(-1.0f32).to_le_bytes()))?;
    /// assert_eq!(b.encoded_fill_element(), Some(vec![0xff]));
    /// assert_eq!(b.encoded_fill().as_deref(), Some("-1"));
    /// let e = Bound::from_fill_element(codecs, DataType::Float32, Some(&[0, 0])).unwrap_err();
    /// assert_eq!(e.code, ErrorCode::LengthMismatch);
    /// let e = Bound::from_fill_element("scale_offset", DataType::Int4, Some(&[0x0f])).unwrap_err();
    /// assert_eq!(e.code, ErrorCode::InvalidData);
    /// # Ok::<(), zarr_scale_offset::Error>(())
    /// ```
    pub fn from_fill_element(
        codecs: &str,
        data_type: DataType,
        fill: Option<&[u8]>,
    ) -> Result<Bound> {
        let doc = codecs_doc(codecs)?;
        let fill = match fill {
            Some(element) => {
                if element.len() != data_type.size() {
                    return Err(Error::new(
                        ErrorCode::LengthMismatch,
                        format!(
                            "fill value: {} bytes, but one {data_type} element is {}",
                            element.len(),
                            data_type.size()
                        ),
                    ));
                }
                let bits = data_type.read_bits(element, 0);
                let mut canonical = vec![0u8; data_type.size()];
                data_type.write_bits(&mut canonical, 0, bits);
                if canonical != element {
                    return Err(Error::new(
                        ErrorCode::InvalidData,
                        format!(
                            "fill value: the bytes {element:02x?} are not an in-memory {data_type} element (expected {canonical:02x?})"
                        ),
                    ));
                }
                Some(bits)
            }
            None => None,
        };
        Bound::with_fill_bits(&doc, data_type, fill)
    }

    /// The data type the codecs receive (what `decode` produces).
    pub fn decoded_data_type(&self) -> DataType {
        self.chain.decoded_dtype()
    }

    /// The data type after the last codec (what `encode` produces).
    pub fn encoded_data_type(&self) -> DataType {
        self.chain.encoded_dtype()
    }

    /// The fill value after the last codec, as the strict JSON text of a Zarr fill value of
    /// [`Bound::encoded_data_type`] (`0`, `1.5`, `"NaN"`, `"0x7fc00001"`). `None` when no fill
    /// value was bound, or when a codec does not carry it (numcodecs.fixedscaleoffset, as in
    /// zarr-python).
    pub fn encoded_fill(&self) -> Option<String> {
        self.encoded_fill_bits()
            .map(|bits| write_scalar(self.encoded_data_type(), bits))
    }

    /// The encoded fill value as raw bits: the element's bits, little-endian, in the low
    /// `encoded_data_type().bits()` bits (sign-extended to 64 for signed integer types).
    pub fn encoded_fill_bits(&self) -> Option<u64> {
        self.chain.encoded_fill()
    }

    /// The encoded fill value as one in-memory element of the encoded data type (little-endian,
    /// `encoded_data_type().size()` bytes).
    pub fn encoded_fill_element(&self) -> Option<Vec<u8>> {
        let t = self.encoded_data_type();
        self.encoded_fill_bits().map(|bits| {
            let mut b = vec![0u8; t.size()];
            t.write_bits(&mut b, 0, bits);
            b
        })
    }

    /// Encodes in-memory data of the decoded data type; returns in-memory data of the encoded
    /// data type (the same number of elements).
    pub fn encode(&self, data: &[u8]) -> Result<Vec<u8>> {
        self.chain.encode(data)
    }

    /// Decodes in-memory data of the encoded data type; returns in-memory data of the decoded
    /// data type (the same number of elements).
    pub fn decode(&self, data: &[u8]) -> Result<Vec<u8>> {
        self.chain.decode(data)
    }

    /// Encodes into `out`, which must hold exactly as many elements of the encoded data type as
    /// `data` holds of the decoded one. On an error `out` may have been partly written.
    pub fn encode_into(&self, data: &[u8], out: &mut [u8]) -> Result<()> {
        self.chain.encode_into(data, out)
    }

    /// Decodes into `out`, which must hold exactly as many elements of the decoded data type as
    /// `data` holds of the encoded one. On an error `out` may have been partly written.
    pub fn decode_into(&self, data: &[u8], out: &mut [u8]) -> Result<()> {
        self.chain.decode_into(data, out)
    }
}
