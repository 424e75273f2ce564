//! `from_cf`: netCDF/CF packing attributes (`scale_factor`, `add_offset`, `_FillValue`,
//! `missing_value`, `_Unsigned`) to the Zarr `data_type`, `fill_value` and codecs list whose
//! decode equals `xarray.decode_cf` bit for bit:
//! `[cf.scale_offset(scale = scale_factor, offset = add_offset), cast_value(packed type,
//! scalar_map _FillValue <-> NaN), bytes]`.
//!
//! The decoded float type follows xarray's `_choose_float_dtype` (xarray 2026.9, NumPy 2):
//! - with `scale_factor` or `add_offset`: when both are present, of the same type, and that type
//!   is float32 or float64, the result is that type, except float64 for a 4-byte integer packed
//!   type; otherwise float64 when `add_offset` is present; otherwise the type of `scale_factor`
//!   (so an integer `scale_factor` gives int64, as in xarray);
//! - with neither: float32 for floats of at most 4 bytes and integers of at most 2 bytes, else
//!   float64.
//!
//! An attribute's type is what xarray sees: a JSON number with a fraction or exponent is a Python
//! float (float64), a JSON integer a Python int; `{"value": 0.01, "dtype": "float32"}` (or the
//! `attribute_dtype` argument) says the attribute was a typed netCDF float32/float64 attribute.

use crate::chain::Chain;
use crate::dtype::{DataType, Kind};
use crate::error::{Error, Report, Result};
use crate::json::data_type::parse_data_type;
use crate::json::fields::report_duplicates;
use crate::json::{parse_scalar, pointer_push, write_scalar, Fields, Json};

/// The type an attribute had when xarray read it.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum AttrType {
    /// A Python int (a JSON integer).
    Int,
    /// A typed float (float32/float64/float16 netCDF attribute), or a Python float (float64).
    Float(DataType),
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
                Some(d) => AttrType::Float(d),
                None if is_int => AttrType::Int,
                None => AttrType::Float(DataType::Float64),
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
            let d = parse_data_type(d, &pointer_push(&p, "dtype"))?;
            let ty = if d.float().is_some() {
                AttrType::Float(d)
            } else {
                AttrType::Int
            };
            (t.clone(), ty)
        }
        Json::Array(a) if a.len() == 1 => match a.first() {
            Some(Json::Number(t)) => (
                t.clone(),
                AttrType::Float(default_ty.unwrap_or(DataType::Float64)),
            ),
            _ => return Err(Error::metadata(&p, "must be a number")),
        },
        _ => {
            return Err(Error::metadata(
                &p,
                format!("must be a number, found {}", v.kind_name()),
            ))
        }
    };
    Ok(Some(Attr { text: num, ty }))
}

/// The fill values of `_FillValue` and `missing_value` (numbers or lists) in the packed type
/// `packed`; NaN values are ignored, as xarray does. Under `_Unsigned` a value written in the
/// original type `original` (e.g. -1 for int8) is reinterpreted (255 for uint8), as xarray does.
fn fill_values(attrs: &Fields, original: DataType, packed: DataType) -> Result<Vec<u64>> {
    let mut out: Vec<u64> = Vec::new();
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
        for (ip, x) in items {
            if let Json::String(s) = x {
                if s.eq_ignore_ascii_case("nan") {
                    continue;
                }
            }
            let bits = match (parse_scalar(packed, x, &ip), original.int(), packed.int()) {
                (Ok(s), _, _) => s.bits,
                (Err(e), Some(_), Some(to)) if original != packed => {
                    match parse_scalar(original, x, &ip) {
                        Ok(s) => to.to_bits(to.from_bits(s.bits)),
                        Err(_) => return Err(e),
                    }
                }
                (Err(e), _, _) => return Err(e),
            };
            if !out.contains(&bits) {
                out.push(bits);
            }
        }
    }
    Ok(out)
}

/// `_Unsigned`: reinterprets a signed packed integer type as unsigned ("true") or an unsigned
/// one as signed ("false").
fn unsigned(attrs: &Fields, packed: DataType) -> Result<DataType> {
    let Some(v) = attrs.get("_Unsigned") else {
        return Ok(packed);
    };
    let want_unsigned = match v {
        Json::String(s) if s.eq_ignore_ascii_case("true") => true,
        Json::String(s) if s.eq_ignore_ascii_case("false") => false,
        Json::Bool(b) => *b,
        _ => {
            return Err(Error::metadata(
                "/_Unsigned",
                "must be \"true\" or \"false\"",
            ))
        }
    };
    let Some(i) = packed.int() else {
        return Ok(packed);
    };
    let name = match (want_unsigned, i.signed) {
        (true, true) => format!("uint{}", i.bits),
        (false, false) => format!("int{}", i.bits),
        _ => return Ok(packed),
    };
    DataType::parse(&name, "/_Unsigned")
}

/// xarray's `_choose_float_dtype` (see the module docs).
fn choose_dtype(packed: DataType, sf: Option<&Attr>, ao: Option<&Attr>) -> DataType {
    let int_type = |t: AttrType| match t {
        AttrType::Int => DataType::Int64,
        AttrType::Float(d) => d,
    };
    if sf.is_some() || ao.is_some() {
        if let (Some(s), Some(o)) = (sf, ao) {
            if s.ty == o.ty
                && matches!(s.ty, AttrType::Float(DataType::Float32 | DataType::Float64))
            {
                if packed.int().is_some() && packed.size() == 4 {
                    return DataType::Float64;
                }
                return int_type(s.ty);
            }
        }
        if ao.is_some() {
            return DataType::Float64;
        }
        if let Some(s) = sf {
            return int_type(s.ty);
        }
    }
    match packed.kind() {
        Kind::Float(_) if packed.size() <= 4 => DataType::Float32,
        Kind::Int(_) if packed.size() <= 2 => DataType::Float32,
        _ => DataType::Float64,
    }
}

/// Builds `{"data_type", "fill_value", "codecs"}` for CF attributes `attrs` (a JSON object) of
/// data packed as `packed`. `attribute_dtype` (float32 or float64) marks untyped numeric
/// `scale_factor`/`add_offset` values as typed netCDF attributes of that type.
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
    if let Some(d) = attribute_dtype.filter(|d| d.float().is_none()) {
        return Err(Error::metadata(
            "",
            format!("attribute_dtype must be a float type, not {d}"),
        ));
    }
    let original = packed;
    let packed = unsigned(attrs, packed)?;
    let sf = attr(attrs, "scale_factor", attribute_dtype)?;
    let ao = attr(attrs, "add_offset", attribute_dtype)?;
    let fills = fill_values(attrs, original, packed)?;
    let t = choose_dtype(packed, sf.as_ref(), ao.as_ref());
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
    let mut cv = vec![
        ("data_type".to_string(), Json::String(packed.name().into())),
        ("rounding".to_string(), Json::String("nearest-even".into())),
    ];
    if let Some(&first_fill) = fills.first() {
        if t.float().is_none() {
            return Err(Error::metadata(
                "/_FillValue",
                format!("the decoded type is {t} (an integer scale_factor), which cannot hold NaN for the fill value"),
            ));
        }
        let nan = || Json::String("NaN".into());
        let encode = vec![Json::Array(vec![nan(), fill_json(first_fill)])];
        let decode = fills
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
    if packed != t || !fills.is_empty() {
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
    // The fill value: NaN where packed fill values exist, else the decoded packed 0 (= offset).
    let fill = if !fills.is_empty() {
        Json::String("NaN".into())
    } else if let Some(o) = &ao {
        scalar(o, "add_offset")?
    } else {
        Json::Number(if t.float().is_some() {
            "0.0".into()
        } else {
            "0".into()
        })
    };
    let codecs = Json::Array(codecs);
    check_usable(t, &fill, &codecs)?;
    Ok(Json::Object(vec![
        ("data_type".to_string(), Json::String(t.name().into())),
        ("fill_value".to_string(), fill),
        ("codecs".to_string(), codecs),
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
        Error::metadata(
            attr,
            format!(
                "these CF attributes give metadata that cannot be used: {}",
                e.detail()
            ),
        )
    })
}
