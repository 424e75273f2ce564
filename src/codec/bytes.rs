//! The `bytes` codec (array -> bytes): little- or big-endian element bytes; the sub-byte and
//! 4/6/8-bit types take one byte each, upper bits ignored on read and zero on write.

use crate::dtype::DataType;
use crate::error::{Error, Result};
use crate::json::{pointer_push, Json};

/// A `bytes` codec bound to the data type it receives.
#[derive(Debug, Clone, Copy)]
pub struct Bytes {
    dtype: DataType,
    big: bool,
}

impl Bytes {
    /// Parses the configuration for data type `dtype`; `endian` is required for multi-byte types.
    pub fn parse(config: Option<&Json>, pointer: &str, dtype: DataType) -> Result<Self> {
        let cfg_ptr = pointer_push(pointer, "configuration");
        let mut endian = None;
        if let Some(cfg) = config {
            let Some(obj) = cfg.as_object() else {
                return Err(Error::metadata(
                    &cfg_ptr,
                    format!("configuration must be an object, found {}", cfg.kind_name()),
                ));
            };
            for (k, v) in obj {
                let p = pointer_push(&cfg_ptr, k);
                match (k.as_str(), v.as_str()) {
                    ("endian", Some("little")) => endian = Some(false),
                    ("endian", Some("big")) => endian = Some(true),
                    ("endian", _) => {
                        return Err(Error::metadata(
                            &p,
                            format!(
                                "endian must be \"little\" or \"big\", found {}",
                                v.to_json_string()
                            ),
                        ))
                    }
                    _ => {
                        return Err(Error::metadata(
                            &p,
                            format!("unknown configuration key {k:?}; bytes takes only \"endian\""),
                        ))
                    }
                }
            }
        }
        let big = match endian {
            Some(b) => b,
            None if dtype.needs_endian() => {
                return Err(Error::metadata(
                    &pointer_push(&cfg_ptr, "endian"),
                    format!(
                        "the bytes codec needs \"endian\" for the multi-byte data type {dtype}"
                    ),
                ))
            }
            None => false,
        };
        Ok(Bytes { dtype, big })
    }

    /// Encodes in-memory elements into stored bytes.
    pub fn encode(&self, input: &[u8]) -> Vec<u8> {
        let n = self.dtype.size();
        if n == 1 {
            let mask = ((1u16 << self.dtype.bits()) - 1) as u8;
            return input.iter().map(|b| b & mask).collect();
        }
        let mut out = input.to_vec();
        if self.big {
            out.chunks_exact_mut(n).for_each(<[u8]>::reverse);
        }
        out
    }

    /// Decodes stored bytes into in-memory elements (sub-byte integers sign- or zero-extended).
    pub fn decode(&self, input: &[u8]) -> Vec<u8> {
        let n = self.dtype.size();
        if n == 1 {
            let mut out = vec![0u8; input.len()];
            for i in 0..input.len() {
                self.dtype
                    .write_bits(&mut out, i, self.dtype.read_bits(input, i));
            }
            return out;
        }
        let mut out = input.to_vec();
        if self.big {
            out.chunks_exact_mut(n).for_each(<[u8]>::reverse);
        }
        out
    }
}
