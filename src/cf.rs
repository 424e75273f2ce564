//! `from_cf`: netCDF/CF packing attributes (`scale_factor`, `add_offset`, `_FillValue`,
//! `missing_value`, `_Unsigned`) to the Zarr `data_type`, `fill_value` and codecs list whose
//! decode equals `xarray.decode_cf` (mask_and_scale on) bit for bit:
//! `[cf.scale_offset(scale = scale_factor, offset = add_offset), cast_value(packed type,
//! scalar_map _FillValue <-> NaN), bytes]`, each codec only where it has work to do.
//!
//! The decoded type follows xarray 2026.9 (NumPy 2), `CFMaskCoder` then `CFScaleOffsetCoder`:
//! - `_Unsigned` "true"/"false" (those strings only) reinterprets a signed/unsigned packed integer
//!   type as the other; any other value, or a non-integer packed type, is ignored with a warning.
//! - `_FillValue`/`missing_value` (numbers or lists): NaN values are left out; an attribute with
//!   only NaN values on integer data is dropped with a warning (a JSON `null` counts as NaN: JS
//!   writes NaN so). A value that no packed code equals never matches (warning).
//! - With a non-NaN fill value ("masked"): with `scale_factor` or `add_offset`, the type of
//!   `_choose_float_dtype` (below); otherwise NumPy's promotion for a missing value: a float type
//!   stays, integers of at most 2 bytes give float32, others float64.
//! - Without one: with `scale_factor` or `add_offset`, the packed type when a (NaN) fill
//!   attribute remains (float data), else `_choose_float_dtype`; with neither, **the packed type
//!   is kept**: there is nothing to unpack.
//!
//! `_choose_float_dtype` with `scale_factor` or `add_offset`: when both are present, of the same
//! type, and that type is float32 or float64, the result is that type, except float64 for a
//! 4-byte integer packed type; otherwise float64 when `add_offset` is present; otherwise the type
//! of `scale_factor` (a Python int gives int64, an `np.int8` int8, an `np.float16` float16, as in
//! xarray; where that type cannot hold a value, decoding reports the element instead of
//! wrapping it as xarray's NumPy arithmetic does).
//!
//! An attribute's type is what xarray sees (`numpy.dtype(type(value))`): a JSON number with a
//! fraction or exponent is a Python float (float64), a JSON integer a Python int (int64);
//! `{"value": 0.01, "dtype": "float32"}` (or the `attribute_dtype` argument) a typed attribute
//! (a netCDF attribute, a NumPy scalar) of that type, integer types included; a one-element JSON
//! array a list or array, whose type is `object` (so with `add_offset` present the result is
//! float64, and a list `scale_factor` alone, which xarray decodes to `object`, is an error).
//! NaN and infinite `scale_factor`/`add_offset` are errors.
//!
//! Refused: a fill value with a decoded type that cannot hold every packed value exactly (an
//! `np.float16` `scale_factor` alone on int16 data): xarray compares after the conversion, so
//! it masks the codes that become equal to the fill value, or none at all where the fill value
//! is not exact in that type (int16 25118 in float16), which no codec reproduces.
//!
//! Known differences: xarray compares fill values after the cast to the decoded float type, so
//! for int64/uint64 data beyond 2^53 neighbouring codes can also match; here exactly the fill
//! code maps to NaN.

use crate::chain::Chain;
use crate::json::data_type::parse_data_type;
use crate::json::fields::report_duplicates;
use crate::json::{parse_scalar, pointer_push, write_scalar, Fields, Json};
use crate::report::Report;
use zarr_scale_offset_core::dtype::{DataType, Kind};
use zarr_scale_offset_core::error::{Error, Result};

/// The type an attribute had when xarray read it: what `numpy.dtype(type(value))` gives in
/// xarray's `_choose_float_dtype`.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum AttrType {
    /// A NumPy scalar or typed netCDF attribute of this type (`{"value", "dtype"}`), a Python
    /// float (a JSON number with a fraction or exponent: float64) or a Python int (a JSON
    /// integer: int64).
    Typed(DataType),
    /// A list or array (a JSON array of one number): NumPy's type of it is `object`. xarray
    /// multiplies by its one value (`.item()`), but `_choose_float_dtype` sees `object`.
    Object,
}

/// A numeric attribute: its JSON number text and its type.
struct Attr {
    text: String,
    ty: AttrType,
}

fn attr(attrs: &Fields, key: &str, default_ty: Option<DataType>) -> Result<Option<Attr>> {
    let p = attrs.at(key);
    let Some(v) = attrs.get(key) else {
        return Ok(None);
    };
    let (num, ty) = match v {
        Json::Number(t) => {
            let is_int = t.bytes().all(|c| c.is_ascii_digit() || c == b'-');
            let ty = match default_ty {
                Some(d) => AttrType::Typed(d),
                None if is_int => AttrType::Typed(DataType::Int64),
                None => AttrType::Typed(DataType::Float64),
            };
            (t.clone(), ty)
        }
        Json::Object(_) => {
            let Some(Json::Number(t)) = v.get("value") else {
                return Err(Error::metadata(
                    &pointer_push(&p, "value"),
                    "a typed attribute needs a numeric \"value\"",
                ));
            };
            let Some(d) = v.get("dtype") else {
                return Err(Error::metadata(&p, "a typed attribute needs a \"dtype\""));
            };
            // Its own type, integers included: an int8 `scale_factor` alone makes xarray
            // decode to int8 (see `choose_dtype`).
            let d = parse_data_type(d, &pointer_push(&p, "dtype"))?;
            (t.clone(), AttrType::Typed(d))
        }
        Json::Array(a) if a.len() == 1 => match a.first() {
            Some(Json::Number(t)) => (t.clone(), AttrType::Object),
            _ => return Err(Error::metadata(&p, "must be a number")),
        },
        _ => {
            return Err(Error::metadata(
                &p,
                // (NaN and the infinities, the Zarr strings, among them: refused, not multiplied
                // into every value.)
                format!("must be a finite number, found {}", v.kind_name()),
            ));
        }
    };
    Ok(Some(Attr { text: num, ty }))
}

/// A warning of `from_cf`: the attribute's pointer and what was ignored (the pointer names the
/// attribute, so the messages are fixed text).
type Warn = (String, &'static str);

/// The fill values of `_FillValue` and `missing_value` as xarray's `CFMaskCoder` reads them.
struct Fills {
    /// Packed codes that decode to NaN, `_FillValue`'s first (the code NaN encodes to).
    codes: Vec<u64>,
    /// Some non-NaN fill value exists (xarray masks, so the data type is promoted), even if no
    /// packed code equals it.
    masked: bool,
    /// A fill attribute remains after xarray's checks (NaN-only ones on float data count).
    present: bool,
}

/// Whether `x` is a NaN fill value: `NaN` as a string (any case), or JSON `null` (the JSON JS
/// writes for NaN).
fn is_nan_item(x: &Json) -> bool {
    match x {
        Json::Null => true,
        Json::String(s) => s.eq_ignore_ascii_case("nan"),
        _ => false,
    }
}

/// The fill values of `_FillValue` and `missing_value` (numbers or lists) in the packed type
/// `packed` (after `_Unsigned`; `original` before it). As in xarray: NaN values are left out, an
/// attribute with only NaN values on integer data is dropped with a warning, and under
/// `_Unsigned` a `_FillValue` written in the original type (e.g. -1 for int8) is reinterpreted
/// (255 for uint8); a number no packed code equals never matches (a warning, not an error).
fn fill_values(
    attrs: &Fields,
    original: DataType,
    packed: DataType,
    warnings: &mut Vec<Warn>,
) -> Result<Fills> {
    let mut f = Fills {
        codes: Vec::new(),
        masked: false,
        present: false,
    };
    for key in ["_FillValue", "missing_value"] {
        let Some(v) = attrs.get(key) else { continue };
        let p = attrs.at(key);
        let items: Vec<(String, &Json)> = match v {
            Json::Array(a) => a
                .iter()
                .enumerate()
                .map(|(i, x)| (format!("{p}/{i}"), x))
                .collect(),
            Json::Object(_) => match v.get("value") {
                Some(x) => vec![(pointer_push(&p, "value"), x)],
                None => return Err(Error::metadata(&p, "a typed attribute needs a \"value\"")),
            },
            other => vec![(p.clone(), other)],
        };
        let mut any = false;
        for (ip, x) in items {
            if is_nan_item(x) {
                continue;
            }
            any = true;
            let parsed = match parse_scalar(packed, x, &ip) {
                Ok(s) => Ok(s.bits),
                Err(e) => match (original.int(), packed.int()) {
                    (Some(_), Some(to)) if key == "_FillValue" && original != packed => {
                        parse_scalar(original, x, &ip)
                            .map(|s| to.to_bits(to.from_bits(s.bits)))
                            .map_err(|_| e)
                    }
                    _ => Err(e),
                },
            };
            let bits = match parsed {
                Ok(b) => b,
                // A number that is no packed code (1.5 or 300 for uint8): xarray compares and
                // never finds it.
                Err(_) if packed.int().is_some() && matches!(x, Json::Number(_)) => {
                    warnings.push((
                        ip,
                        "no stored integer equals it: it masks nothing, as in xarray",
                    ));
                    continue;
                }
                Err(e) => return Err(e),
            };
            if !f.codes.contains(&bits) {
                f.codes.push(bits);
            }
        }
        if any {
            f.masked = true;
            f.present = true;
        } else if original.int().is_some() {
            warnings.push((p, "NaN on integer data: ignored, as in xarray"));
        } else {
            f.present = true;
        }
    }
    Ok(f)
}

/// `_Unsigned`: "true" reinterprets a signed packed integer type as unsigned, "false" an
/// unsigned one as signed. Like xarray, only those two strings act; any other value, and
/// `_Unsigned` on a non-integer type, is ignored with a warning.
fn unsigned(attrs: &Fields, packed: DataType, warnings: &mut Vec<Warn>) -> Result<DataType> {
    let Some(v) = attrs.get("_Unsigned") else {
        return Ok(packed);
    };
    let p = attrs.at("_Unsigned");
    let Some(i) = packed.int() else {
        warnings.push((p, "_Unsigned on non-integer data: ignored, as in xarray"));
        return Ok(packed);
    };
    let want_unsigned = match v {
        Json::String(s) if s == "true" => true,
        Json::String(s) if s == "false" => false,
        _ => {
            warnings.push((p, "ignored: xarray acts on \"true\" and \"false\" only"));
            return Ok(packed);
        }
    };
    let name = match (want_unsigned, i.signed) {
        (true, true) => format!("uint{}", i.bits),
        (false, false) => format!("int{}", i.bits),
        _ => return Ok(packed),
    };
    DataType::parse(&name, "/_Unsigned")
}

/// xarray's `_choose_float_dtype` with `scale_factor` or `add_offset` present (module docs).
/// Where xarray's answer is `object` (a list or array `scale_factor` alone), an error: xarray
/// then multiplies Python objects, which no Zarr data type holds.
fn choose_dtype(packed: DataType, sf: Option<&Attr>, ao: Option<&Attr>) -> Result<DataType> {
    if let (Some(s), Some(o)) = (sf, ao) {
        if let AttrType::Typed(t @ (DataType::Float32 | DataType::Float64)) = s.ty {
            if s.ty == o.ty {
                if packed.int().is_some() && packed.size() == 4 {
                    return Ok(DataType::Float64);
                }
                return Ok(t);
            }
        }
    }
    match (sf, ao) {
        (Some(s), None) => match s.ty {
            AttrType::Typed(t) => Ok(t),
            AttrType::Object => Err(Error::metadata(
                "/scale_factor",
                "alone as a list: dtype object in xarray",
            )),
        },
        _ => Ok(DataType::Float64),
    }
}

/// Whether every value of `packed` is exactly a value of `t`, as xarray's masking needs (it
/// compares the values converted to `t` with the fill value): a wider type holds every value of
/// a narrower one (float8_e8m0fnu's exponents excepted, refused), and float64 counts as holding
/// int64/uint64 (the known difference of the module docs).
fn holds_every_value(t: DataType, packed: DataType) -> bool {
    t == packed
        || t == DataType::Float64
        || (t.size() > packed.size() && packed != DataType::Float8E8M0FNU)
}

/// NumPy/xarray's `maybe_promote`: the type that holds a missing value of `packed` data.
fn promote(packed: DataType) -> DataType {
    match packed.kind() {
        Kind::Float(_) => packed,
        Kind::Int(_) if packed.size() <= 2 => DataType::Float32,
        Kind::Int(_) => DataType::Float64,
    }
}

/// Builds `{"data_type", "fill_value", "codecs", "warnings"}` for CF attributes `attrs` (a JSON
/// object) of data packed as `packed`. `attribute_dtype` (float32 or float64) marks untyped
/// numeric `scale_factor`/`add_offset` values as typed netCDF attributes of that type.
/// `warnings` lists `{"pointer", "message"}` for what was ignored as xarray ignores it.
pub fn from_cf(attrs: &Json, packed: DataType, attribute_dtype: Option<DataType>) -> Result<Json> {
    // Every duplicated key is an error, in any attribute (JSON readers disagree on which copy
    // counts); the first one found is the error.
    let mut report = Report::default();
    let f = Fields::open_any(attrs, "", "CF attributes", &mut report);
    report_duplicates(attrs, 0, &mut report);
    report.into_result(Some(()))?;
    let Some(attrs) = &f else {
        // (Not an object is an error above: this is never reached.)
        return Err(Error::metadata("", "CF attributes must be an object"));
    };
    // netCDF attributes are float32 or float64 (NC_FLOAT, NC_DOUBLE); the narrow and ml_dtypes
    // float types are no attribute type (float8_e8m0fnu cannot even hold the 0 of an unpacked
    // zero: found by the from_cf fuzz target).
    if let Some(d) = attribute_dtype.filter(|d| !matches!(d, DataType::Float32 | DataType::Float64))
    {
        return Err(Error::metadata(
            "",
            format!("attribute_dtype must be float32 or float64, not {d}"),
        ));
    }
    let mut warnings: Vec<Warn> = Vec::new();
    let original = packed;
    let packed = unsigned(attrs, packed, &mut warnings)?;
    let sf = attr(attrs, "scale_factor", attribute_dtype)?;
    let ao = attr(attrs, "add_offset", attribute_dtype)?;
    let fills = fill_values(attrs, original, packed, &mut warnings)?;
    let scaled = sf.is_some() || ao.is_some();
    let t = match (fills.masked, scaled) {
        (true, true) => choose_dtype(packed, sf.as_ref(), ao.as_ref())?,
        (true, false) => promote(packed),
        // CFScaleOffsetCoder keeps the type when a (NaN-only) fill attribute remains.
        (false, true) if fills.present => packed,
        (false, true) => choose_dtype(packed, sf.as_ref(), ao.as_ref())?,
        (false, false) => packed,
    };
    // Scalars in the decoded type's fill-value encoding (rounded half-to-even from the text).
    // write_scalar gives JSON text: a number, or a string such as "Infinity" or "0x…".
    let scalar = |a: &Attr, key: &str| -> Result<Json> {
        let bits = parse_scalar(t, &Json::Number(a.text.clone()), &pointer_push("", key))?.bits;
        crate::json::parse(&write_scalar(t, bits))
    };
    let mut cfg = Vec::new();
    if let Some(s) = &sf {
        cfg.push(("scale".to_string(), scalar(s, "scale_factor")?));
    }
    if let Some(o) = &ao {
        cfg.push(("offset".to_string(), scalar(o, "add_offset")?));
    }
    let mut codecs = Vec::new();
    if !cfg.is_empty() {
        codecs.push(Json::Object(vec![
            ("name".into(), Json::String("cf.scale_offset".into())),
            ("configuration".into(), Json::Object(cfg)),
        ]));
    }
    let fill_json = |bits: u64| -> Json {
        let text = write_scalar(packed, bits);
        match crate::json::parse(&text) {
            Ok(j) => j,
            Err(_) => Json::Number(text),
        }
    };
    // xarray's cast is NumPy's `astype`: to a float type rounds to nearest even; from a float
    // packed type to an integer decoded one (an integer `scale_factor` alone) truncates.
    let rounding = if packed.float().is_some() && t.int().is_some() {
        "towards-zero"
    } else {
        "nearest-even"
    };
    let mut cv = vec![
        ("data_type".to_string(), Json::String(packed.name().into())),
        ("rounding".to_string(), Json::String(rounding.into())),
    ];
    if let Some(&first_fill) = fills.codes.first() {
        if t.float().is_none() || !holds_every_value(t, packed) {
            return Err(Error::metadata(
                "/_FillValue",
                format!("the decoded type {t} cannot hold NaN, or every {packed} value for xarray's masking"),
            ));
        }
        let nan = || Json::String("NaN".into());
        let encode = vec![Json::Array(vec![nan(), fill_json(first_fill)])];
        let decode = fills
            .codes
            .iter()
            .map(|&f| Json::Array(vec![fill_json(f), nan()]))
            .collect();
        cv.push((
            "scalar_map".into(),
            Json::Object(vec![
                ("encode".into(), Json::Array(encode)),
                ("decode".into(), Json::Array(decode)),
            ]),
        ));
    }
    // The cast_value holds the _FillValue <-> NaN map: keep it when the types are equal too.
    if packed != t || !fills.codes.is_empty() {
        codecs.push(Json::Object(vec![
            ("name".into(), Json::String("cast_value".into())),
            ("configuration".into(), Json::Object(cv)),
        ]));
    }
    let bytes_cfg = if packed.needs_endian() {
        vec![(
            "configuration".to_string(),
            Json::Object(vec![("endian".into(), Json::String("little".into()))]),
        )]
    } else {
        vec![]
    };
    let mut bytes = vec![("name".to_string(), Json::String("bytes".into()))];
    bytes.extend(bytes_cfg);
    codecs.push(Json::Object(bytes));
    // The fill value: NaN where packed fill values exist, else the decoded packed 0 (= offset,
    // or code 0 of the decoded type).
    let fill = if !fills.codes.is_empty() {
        Json::String("NaN".into())
    } else if let Some(o) = &ao {
        scalar(o, "add_offset")?
    } else {
        // Code 0 of the decoded type: 0 or 0.0, or "0x00" for a float type without a zero.
        crate::json::parse(&write_scalar(t, 0))?
    };
    let codecs = Json::Array(codecs);
    check_usable(t, &fill, &codecs)?;
    Ok(Json::Object(vec![
        ("data_type".to_string(), Json::String(t.name().into())),
        ("fill_value".to_string(), fill),
        ("codecs".to_string(), codecs),
        (
            "warnings".to_string(),
            Json::Array(
                warnings
                    .into_iter()
                    .map(|(p, m)| {
                        Json::Object(vec![
                            ("pointer".to_string(), Json::String(p)),
                            ("message".to_string(), Json::String(m.into())),
                        ])
                    })
                    .collect(),
            ),
        ),
    ]))
}

/// fromCF never hands out metadata that this package rejects (e.g. `scale_factor: 0` gives a
/// zero scale): its codecs are bound to its data type and fill value, as a zarr.json document
/// binds them (pointers as in that document), and a failure is reported against the attribute
/// that caused it.
fn check_usable(data_type: DataType, fill: &Json, codecs: &Json) -> Result<()> {
    let mut r = Report::default();
    let fill = crate::codec::scalar(data_type, fill, "/fill_value", &mut r);
    let chain = Chain::bind(codecs, "/codecs", Some(data_type), fill, &mut r);
    r.into_result(chain).map(|_| ()).map_err(|e| {
        let attr = match e.path.as_deref() {
            Some(p) if p.ends_with("/scale") => "/scale_factor",
            Some(p) if p.ends_with("/offset") => "/add_offset",
            _ => "",
        };
        Error::metadata(attr, format!("unusable metadata: {}", e.detail()))
    })
}
