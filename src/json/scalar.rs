//! Zarr v3 fill-value JSON scalars for the numeric data types (the encoding that
//! `fill_value`, `scale_offset`'s `scale`/`offset` and `cast_value`'s `scalar_map` use).
//!
//! Strict forms (Zarr v3 core, "Permitted fill values"):
//! - integers: a JSON number with no fraction or exponent part, within the data type's range;
//! - floats: a JSON number, rounded half-to-even straight from its decimal text into the format;
//!   `"NaN"` (the format's canonical NaN), `"Infinity"`, `"-Infinity"` where the format has
//!   them; `"0x…"` with exactly two hex digits per byte of the data type, either case (the raw
//!   code, NaN payloads kept).
//!
//! Lenient forms (what zarr-python writes or accepts) are accepted with [`Scalar::lenient`] set
//! to a description that says what to write instead:
//! - integers: an integral number with a fraction or exponent (`1000.0`, `1e3`, `-0.0`); an
//!   integer inside a string (`"12"`);
//! - floats: `"+Infinity"`, and `inf`/`infinity`/`nan` with an optional sign in any case (Python
//!   `float()` spellings); a decimal number inside a string (`"0.5"`); hex with another digit
//!   count (or a `0X` prefix) whose value fits the format.
//!
//! [`write_scalar`] writes the strict form: floats as the shortest decimal that reads back to the
//! same code.

use super::{parse, pointer_last, Json};
use zarr_scale_offset_core::decimal::{parse_decimal, to_float, to_int, Decimal, IntValue, Syntax};
use zarr_scale_offset_core::dtype::{DataType, Kind};
use zarr_scale_offset_core::error::{Error, Result};
use zarr_scale_offset_core::num::{FloatFormat, IntFormat, Rounded};
use zarr_scale_offset_core::text::shortest;
pub use zarr_scale_offset_core::text::{int_text, shortest_text};

/// A parsed fill-value scalar.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Scalar {
    /// The raw representation in the data type: for integers `IntFormat::to_bits` (two's
    /// complement sign-extended to 64 bits for signed types, zero-extended for unsigned ones);
    /// for floats the code in the format, in the low bits.
    pub bits: u64,
    /// `Some(description)` when the value was accepted only under a lenient form; the
    /// description names the form and the strict spelling to write instead.
    pub lenient: Option<String>,
}

/// Parses a JSON scalar of `dtype` under the Zarr v3 fill-value encoding (strict, plus the
/// lenient forms listed in the module documentation). `pointer` is the JSON pointer of `v`, for
/// messages. Errors have code `invalid_metadata` and name the pointer and the value, e.g.
/// `/codecs/0/configuration/offset: 1.5 is not an integer; int32 offset must be a JSON integer`.
pub fn parse_scalar(dtype: DataType, v: &Json, pointer: &str) -> Result<Scalar> {
    let cx = Cx { dtype, pointer };
    match dtype.kind() {
        Kind::Int(f) => cx.int(f, v),
        Kind::Float(f) => cx.float(&f, v),
    }
}

/// Parses JSON text (a whole document holding one scalar) and then the scalar, as
/// [`parse_scalar`]. Text that is not JSON gives an `invalid_json` error.
pub fn parse_scalar_text(dtype: DataType, text: &str, pointer: &str) -> Result<Scalar> {
    let v = parse(text)?;
    parse_scalar(dtype, &v, pointer)
}

/// The strict JSON text of a scalar of `dtype` with raw representation `bits` (only the bits
/// of the data type count). Integers as JSON integers; floats as `"NaN"` for the canonical NaN,
/// a full-width `"0x…"` hex string for any other NaN code, `"Infinity"`/`"-Infinity"`, and
/// otherwise the shortest decimal that [`parse_scalar`] maps back to the same code (integral
/// values with `.0`, `-0.0` for negative zero, an exponent below 1e-4 and from 1e16 on, as
/// Rust's `{:?}` does for `f64`).
pub fn write_scalar(dtype: DataType, bits: u64) -> String {
    match dtype.kind() {
        Kind::Int(f) => int_text(f.from_bits(bits)),
        Kind::Float(f) => write_float(dtype, &f, bits & f.mask()),
    }
}

/// Hex digits of a strict hex fill value: two per byte of the in-memory element.
fn hex_width(dtype: DataType) -> usize {
    2 * dtype.size()
}

fn hex_text(dtype: DataType, code: u64) -> String {
    format!("\"0x{:0w$x}\"", code, w = hex_width(dtype))
}

fn write_float(dtype: DataType, fmt: &FloatFormat, code: u64) -> String {
    if fmt.is_nan(code) {
        return if code == fmt.canonical_nan {
            "\"NaN\"".to_string()
        } else {
            hex_text(dtype, code)
        };
    }
    if fmt.is_inf(code) {
        return if fmt.is_negative(code) {
            "\"-Infinity\""
        } else {
            "\"Infinity\""
        }
        .to_string();
    }
    shortest(fmt, code).unwrap_or_else(|| hex_text(dtype, code))
}

/// The value as shown in messages: its JSON text, cut at 60 characters.
fn show(v: &Json) -> String {
    let t = v.to_json_string();
    if t.chars().count() <= 60 {
        t
    } else {
        let mut s: String = t.chars().take(57).collect();
        s.push('…');
        s
    }
}

/// Python `float()` spellings of the specials (optional sign, any case): `Some((neg, is_nan))`.
fn special_spelling(s: &str) -> Option<(bool, bool)> {
    if s.len() > 9 {
        return None;
    }
    let l = s.to_ascii_lowercase();
    let (neg, body) = match l.strip_prefix('-') {
        Some(b) => (true, b),
        None => (false, l.strip_prefix('+').unwrap_or(&l)),
    };
    match body {
        "inf" | "infinity" => Some((neg, false)),
        "nan" => Some((neg, true)),
        _ => None,
    }
}

/// The context of one scalar: data type and place.
struct Cx<'a> {
    dtype: DataType,
    pointer: &'a str,
}

impl Cx<'_> {
    fn err(&self, msg: impl std::fmt::Display) -> Error {
        Error::metadata(self.pointer, msg)
    }

    /// What the scalar is, for messages: "int32 offset", or "int32 value" when the pointer
    /// ends in an index or is the root.
    fn role(&self) -> String {
        let last = pointer_last(self.pointer);
        if last.is_empty() || last.bytes().all(|b| b.is_ascii_digit()) {
            format!("{} value", self.dtype)
        } else {
            format!("{} {}", self.dtype, last)
        }
    }

    fn int(&self, f: IntFormat, v: &Json) -> Result<Scalar> {
        let dt = self.dtype;
        let shown = show(v);
        let must = || format!("{} must be a JSON integer", self.role());
        let value = |d: &Decimal| -> Result<i128> {
            match to_int(d) {
                IntValue::Value(x) if f.contains(x) => Ok(x),
                IntValue::Value(_) | IntValue::TooLarge => Err(self.err(format_args!(
                    "{shown} is out of range for {dt} ({} to {})",
                    int_text(f.min()),
                    int_text(f.max())
                ))),
                IntValue::NotInteger => {
                    Err(self.err(format_args!("{shown} is not an integer; {}", must())))
                }
            }
        };
        match v {
            Json::Number(t) => {
                let Some(d) = parse_decimal(t, Syntax::Json) else {
                    return Err(self.err(format_args!("{shown} is not a valid JSON number")));
                };
                let x = value(&d)?;
                let lenient = d.frac_or_exp.then(|| {
                    format!(
                        "integral float {t} for an integer data type; write {}",
                        int_text(x)
                    )
                });
                Ok(Scalar {
                    bits: f.to_bits(x),
                    lenient,
                })
            }
            Json::String(s) => {
                if s.starts_with("0x") || s.starts_with("0X") {
                    return Err(self.err(format_args!(
                        "{shown}: hex strings are only permitted for float data types; {}",
                        must()
                    )));
                }
                if special_spelling(s).is_some() {
                    return Err(self.err(format_args!(
                        "{shown} is not representable in {dt}: integer data types have no NaN or infinity; {}",
                        must()
                    )));
                }
                let Some(d) = parse_decimal(s, Syntax::Relaxed) else {
                    return Err(self.err(format_args!("{shown} is not an integer; {}", must())));
                };
                let x = value(&d)?;
                Ok(Scalar {
                    bits: f.to_bits(x),
                    lenient: Some(format!(
                        "integer as a string {shown}; write {}",
                        int_text(x)
                    )),
                })
            }
            other => Err(self.err(format_args!(
                "expected a JSON integer for {}, found {}",
                self.role(),
                other.kind_name()
            ))),
        }
    }

    fn float(&self, fmt: &FloatFormat, v: &Json) -> Result<Scalar> {
        let shown = show(v);
        match v {
            Json::Number(t) => {
                let Some(d) = parse_decimal(t, Syntax::Json) else {
                    return Err(self.err(format_args!("{shown} is not a valid JSON number")));
                };
                Ok(Scalar { bits: self.round(fmt, &d, &shown)?, lenient: None })
            }
            Json::String(s) => self.float_string(fmt, s, &shown),
            other => Err(self.err(format_args!(
                "expected a JSON number, \"NaN\", \"Infinity\", \"-Infinity\" or a \"0x…\" hex string for {}, found {}",
                self.role(),
                other.kind_name()
            ))),
        }
    }

    /// Rounds a decimal into the format; overflow gives ±Inf where the format has it.
    fn round(&self, fmt: &FloatFormat, d: &Decimal, shown: &str) -> Result<u64> {
        let dt = self.dtype;
        match to_float(fmt, d) {
            Rounded::Value { code, .. } => Ok(code),
            Rounded::Overflow { neg } if fmt.has_inf() => {
                Ok(fmt.inf_code() | if neg { fmt.sign_bit() } else { 0 })
            }
            Rounded::Overflow { .. } => Err(self.err(format_args!(
                "{shown} is out of range for {dt} (largest finite magnitude {}; {dt} has no infinities)",
                shortest_text(fmt.max_finite(), false)
            ))),
            Rounded::Underflow => Err(self.err(if d.digits.is_empty() {
                format!("{shown} is not representable in {dt}: it has no zero")
            } else if d.neg {
                format!("{shown} is not representable in {dt}: it has no negative values")
            } else {
                format!(
                    "{shown} is below the smallest {dt} value ({})",
                    shortest_text(fmt.decode(fmt.min_positive_code()), false)
                )
            })),
        }
    }

    fn nan(&self, fmt: &FloatFormat, shown: &str) -> Result<u64> {
        if fmt.has_nan() {
            Ok(fmt.canonical_nan)
        } else {
            Err(self.err(format_args!(
                "{shown} is not representable in {}: it has no NaN",
                self.dtype
            )))
        }
    }

    fn inf(&self, fmt: &FloatFormat, neg: bool, shown: &str) -> Result<u64> {
        if fmt.has_inf() {
            Ok(fmt.inf_code() | if neg { fmt.sign_bit() } else { 0 })
        } else {
            Err(self.err(format_args!(
                "{shown} is not representable in {}: it has no infinities",
                self.dtype
            )))
        }
    }

    fn float_string(&self, fmt: &FloatFormat, s: &str, shown: &str) -> Result<Scalar> {
        let dt = self.dtype;
        let strict = |bits| {
            Ok(Scalar {
                bits,
                lenient: None,
            })
        };
        match s {
            "NaN" => return strict(self.nan(fmt, shown)?),
            "Infinity" => return strict(self.inf(fmt, false, shown)?),
            "-Infinity" => return strict(self.inf(fmt, true, shown)?),
            _ => {}
        }
        if let Some(hex) = s.strip_prefix("0x").or_else(|| s.strip_prefix("0X")) {
            return self.hex(fmt, s, hex, shown);
        }
        if let Some((neg, is_nan)) = special_spelling(s) {
            let (bits, write) = if is_nan {
                (self.nan(fmt, shown)?, "\"NaN\"")
            } else if neg {
                (self.inf(fmt, true, shown)?, "\"-Infinity\"")
            } else {
                (self.inf(fmt, false, shown)?, "\"Infinity\"")
            };
            return Ok(Scalar {
                bits,
                lenient: Some(format!(
                    "{shown} is not a Zarr fill-value string; write {write}"
                )),
            });
        }
        if let Some(d) = parse_decimal(s, Syntax::Relaxed) {
            let bits = self.round(fmt, &d, shown)?;
            return Ok(Scalar {
                bits,
                lenient: Some(format!(
                    "number as a string {shown}; write {}",
                    write_scalar(dt, bits)
                )),
            });
        }
        Err(self.err(format_args!(
            "{shown} is not a {dt} value: strings must be \"NaN\", \"Infinity\", \"-Infinity\" or a \"0x…\" hex string of {} digits",
            hex_width(dt)
        )))
    }

    fn hex(&self, fmt: &FloatFormat, s: &str, hex: &str, shown: &str) -> Result<Scalar> {
        let dt = self.dtype;
        let w = hex_width(dt);
        if hex.is_empty() || !hex.bytes().all(|b| b.is_ascii_hexdigit()) {
            return Err(self.err(format_args!(
                "{shown} is not a valid hex string (\"0x\" and {w} hex digits)"
            )));
        }
        let significant = hex.trim_start_matches('0');
        let code = if significant.len() > 16 {
            None
        } else {
            u64::from_str_radix(
                if significant.is_empty() {
                    "0"
                } else {
                    significant
                },
                16,
            )
            .ok()
        };
        let code = match code {
            Some(c) if c <= fmt.mask() => c,
            _ => {
                return Err(self.err(format_args!(
                    "{shown} does not fit {dt}: its {} bit codes are 0x{:0w$x} to 0x{:0w$x}",
                    fmt.bits,
                    0,
                    fmt.mask()
                )))
            }
        };
        let lenient = if hex.len() != w {
            Some(format!(
                "{shown} has {} hex digits; {dt} hex fill values have {w}; write {}",
                hex.len(),
                hex_text(dt, code)
            ))
        } else if s.starts_with("0X") {
            Some(format!(
                "{shown} has an upper-case 0X prefix; write {}",
                hex_text(dt, code)
            ))
        } else {
            None
        };
        Ok(Scalar {
            bits: code,
            lenient,
        })
    }
}
