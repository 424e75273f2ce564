//! Buffer-length helpers shared by the chains and the bindings: every length mismatch is an
//! `Error` with code `length_mismatch`, never an arithmetic overflow or a panic.

use crate::dtype::DataType;
use crate::error::{Error, ErrorCode, Result};

/// Checks that a buffer of `got` bytes (named `what` in the message) holds exactly `n` elements
/// of `dtype`.
pub fn check_chunk_len(what: &str, got: usize, n: usize, dtype: DataType) -> Result<()> {
    let want = n.saturating_mul(dtype.size());
    if got != want {
        return Err(Error::new(
            ErrorCode::LengthMismatch,
            format!("{what} has {got} bytes; the chunk holds {n} {dtype} elements = {want} bytes"),
        ));
    }
    Ok(())
}

/// `n` elements of `size` bytes as a byte count; an error (never an arithmetic overflow) when no
/// buffer can be that large.
pub fn byte_len(n: usize, size: usize) -> Result<usize> {
    n.checked_mul(size).ok_or_else(|| {
        Error::new(
            ErrorCode::LengthMismatch,
            format!("{n} elements of {size} bytes do not fit in memory"),
        )
    })
}

/// Copies `src` into `out`; an error (never a panic) when their lengths differ. `what` names
/// `src` in the message.
pub fn copy_exact(out: &mut [u8], src: &[u8], what: &str) -> Result<()> {
    if out.len() != src.len() {
        return Err(Error::new(
            ErrorCode::LengthMismatch,
            format!(
                "the output has {} bytes; {what} has {}",
                out.len(),
                src.len()
            ),
        ));
    }
    // PROOF: `copy_from_slice` panics only on unequal lengths, excluded just above.
    out.copy_from_slice(src);
    Ok(())
}
