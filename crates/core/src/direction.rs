//! Which way a codec runs, and a pair of anything kept once per direction.

/// The direction of a codec run: `Encode` goes from the decoded (array) data type to the encoded
/// one, `Decode` back.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum Direction {
    /// Decoded values to encoded values (`(x - offset) * scale`, a cast to `data_type`, ...).
    Encode,
    /// Encoded values back to decoded values.
    Decode,
}

impl Direction {
    /// Both directions, encode first.
    pub const BOTH: [Direction; 2] = [Direction::Encode, Direction::Decode];

    /// "encode" or "decode".
    pub fn as_str(self) -> &'static str {
        match self {
            Direction::Encode => "encode",
            Direction::Decode => "decode",
        }
    }

    /// `(source, target)` of this direction for a codec from `decoded` to `encoded`.
    pub fn order<T>(self, decoded: T, encoded: T) -> (T, T) {
        match self {
            Direction::Encode => (decoded, encoded),
            Direction::Decode => (encoded, decoded),
        }
    }
}

/// One value per direction, as named fields (instead of `[T; 2]` or an `(enc, dec)` tuple).
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
pub struct PerDirection<T> {
    /// The value for [`Direction::Encode`].
    pub encode: T,
    /// The value for [`Direction::Decode`].
    pub decode: T,
}

impl<T> PerDirection<T> {
    /// Builds both values with `f`.
    pub fn new(mut f: impl FnMut(Direction) -> T) -> Self {
        PerDirection {
            encode: f(Direction::Encode),
            decode: f(Direction::Decode),
        }
    }

    /// The value for `dir`.
    pub fn get(&self, dir: Direction) -> &T {
        match dir {
            Direction::Encode => &self.encode,
            Direction::Decode => &self.decode,
        }
    }

    /// Both values mapped through `f`.
    pub fn map<U>(self, mut f: impl FnMut(Direction, T) -> U) -> PerDirection<U> {
        PerDirection {
            encode: f(Direction::Encode, self.encode),
            decode: f(Direction::Decode, self.decode),
        }
    }
}
