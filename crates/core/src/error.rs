//! The one error type of the crate: a stable machine-readable code plus a message that names
//! the place (a JSON pointer, or an element index and value).

use std::fmt;

/// Stable error codes. Their [`ErrorCode::as_str`] spelling is the `.code` of the JS errors (and
/// of the other engines' errors): part of the public API.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum ErrorCode {
    /// JSON text that does not parse.
    InvalidJson,
    /// Metadata that parses but breaks a rule of the specs (wrong type, unknown key, bad order...).
    InvalidMetadata,
    /// A data type outside the numeric types this crate implements (`dtype::ALL`).
    UnsupportedDataType,
    /// A codec name this crate does not implement.
    UnsupportedCodec,
    /// An element (or scalar) whose result cannot be represented in the data type
    /// (inexact integer division, NaN or infinity into a type without them, ...).
    NotRepresentable,
    /// An element whose result lies outside the range of the data type.
    OutOfRange,
    /// A buffer whose length does not match the data type or the chunk shape.
    LengthMismatch,
    /// Input data of the wrong kind (e.g. a typed array of the wrong type).
    InvalidData,
    /// An attempt to encode with a read-only codec.
    ReadOnly,
}

impl ErrorCode {
    /// The stable string form, e.g. `"out_of_range"`.
    pub fn as_str(self) -> &'static str {
        match self {
            ErrorCode::InvalidJson => "invalid_json",
            ErrorCode::InvalidMetadata => "invalid_metadata",
            ErrorCode::UnsupportedDataType => "unsupported_data_type",
            ErrorCode::UnsupportedCodec => "unsupported_codec",
            ErrorCode::NotRepresentable => "not_representable",
            ErrorCode::OutOfRange => "out_of_range",
            ErrorCode::LengthMismatch => "length_mismatch",
            ErrorCode::InvalidData => "invalid_data",
            ErrorCode::ReadOnly => "read_only",
        }
    }
}

/// An error with a stable code and a human-readable message that names the place: the JSON
/// pointer of a metadata field (also in `path`), or the element's index and value.
/// `Display` gives `code: message`; it is a `std::error::Error`.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Error {
    /// The machine-readable code.
    pub code: ErrorCode,
    /// The message; names the JSON pointer or the element index and value.
    pub message: String,
    /// The JSON pointer of the offending field, for errors about metadata.
    pub path: Option<String>,
}

impl Error {
    /// Builds an error from a code and a message.
    pub fn new(code: ErrorCode, message: impl Into<String>) -> Self {
        Error {
            code,
            message: message.into(),
            path: None,
        }
    }
    /// An error about the field at a JSON pointer; the message starts with the pointer.
    #[doc(hidden)]
    pub fn at(code: ErrorCode, pointer: &str, message: impl fmt::Display) -> Self {
        Error {
            code,
            message: format!("{}: {}", show_pointer(pointer), message),
            path: Some(pointer.to_string()),
        }
    }
    /// `invalid_metadata` at a JSON pointer.
    #[doc(hidden)]
    pub fn metadata(pointer: &str, message: impl fmt::Display) -> Self {
        Error::at(ErrorCode::InvalidMetadata, pointer, message)
    }
    /// The message without its leading JSON pointer.
    pub fn detail(&self) -> &str {
        match &self.path {
            Some(p) => {
                let prefix = show_pointer(p);
                self.message
                    .strip_prefix(prefix.as_str())
                    .and_then(|m| m.strip_prefix(": "))
                    .unwrap_or(&self.message)
            }
            None => &self.message,
        }
    }
    /// Prefixes the message with a context (e.g. the codec and direction).
    #[doc(hidden)]
    pub fn context(mut self, ctx: impl fmt::Display) -> Self {
        self.message = format!("{ctx}: {}", self.message);
        self
    }
}

#[doc(hidden)]
/// Renders a JSON pointer for a message: the root pointer "" is shown as `(root)`.
pub fn show_pointer(p: &str) -> String {
    if p.is_empty() {
        "(root)".to_string()
    } else {
        p.to_string()
    }
}

impl fmt::Display for ErrorCode {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.as_str())
    }
}

impl fmt::Display for Error {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}: {}", self.code.as_str(), self.message)
    }
}

impl std::error::Error for Error {}

/// Crate-wide result alias.
pub type Result<T> = std::result::Result<T, Error>;
