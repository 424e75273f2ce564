//! The numeric core: float formats as data, exact rounding of a binary value (an `f64`, an
//! `i128`, or any `m × 2^e` with a sticky bit) into any format or any integer range under the
//! five rounding modes, and integer ranges with wrapping. No JSON, no wasm.

mod format;
mod int;
mod round;

// Every format `const` (the data-type table in `dtype.rs` names them), `FORMATS`, `FloatFormat`.
pub use format::*;
pub use int::IntFormat;
pub use round::{decompose_f64, round_to_float, round_to_int, IntRounded, Rounded};

/// The five rounding modes of the `cast_value` codec.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum RoundingMode {
    /// IEEE 754 roundTiesToEven (the default).
    NearestEven,
    /// Round towards zero (truncate).
    TowardsZero,
    /// Round towards +infinity (ceiling).
    TowardsPositive,
    /// Round towards -infinity (floor).
    TowardsNegative,
    /// Round to nearest, ties away from zero.
    NearestAway,
}

impl RoundingMode {
    /// All five modes, in the order of the spec's table.
    pub const ALL: [RoundingMode; 5] = [
        RoundingMode::NearestEven,
        RoundingMode::TowardsZero,
        RoundingMode::TowardsPositive,
        RoundingMode::TowardsNegative,
        RoundingMode::NearestAway,
    ];

    /// Parses the JSON spelling (`"nearest-even"`, ...).
    pub fn parse(s: &str) -> Option<RoundingMode> {
        Some(match s {
            "nearest-even" => RoundingMode::NearestEven,
            "towards-zero" => RoundingMode::TowardsZero,
            "towards-positive" => RoundingMode::TowardsPositive,
            "towards-negative" => RoundingMode::TowardsNegative,
            "nearest-away" => RoundingMode::NearestAway,
            _ => return None,
        })
    }

    /// The JSON spelling.
    pub fn as_str(self) -> &'static str {
        match self {
            RoundingMode::NearestEven => "nearest-even",
            RoundingMode::TowardsZero => "towards-zero",
            RoundingMode::TowardsPositive => "towards-positive",
            RoundingMode::TowardsNegative => "towards-negative",
            RoundingMode::NearestAway => "nearest-away",
        }
    }
}
