//! Runs a chain of codec stages over cache-sized tiles: each tile of the input goes through every
//! stage while it is in cache, so decoding a chunk reads and writes main memory once instead of
//! once per codec, and needs no chunk-sized intermediate buffers.

use super::{Scratch, TILE};
use crate::error::Result;

/// A stage's run over whole (tile) buffers.
pub type StageRun<'a> = &'a dyn Fn(&[u8], &mut [u8]) -> Result<()>;

/// One stage of a chain: its element sizes and a run over whole (tile) buffers.
pub struct Stage<'a> {
    /// Bytes per input element.
    pub in_size: usize,
    /// Bytes per output element.
    pub out_size: usize,
    /// Runs the stage over `input` into `out` (same element count).
    pub run: StageRun<'a>,
}

/// Runs `stages` in order over `input` into `out`, tile by tile. Returns `false` as soon as a
/// stage fails for some element; the outputs are then unspecified, and the caller reruns the
/// chain untiled to report the error with its chunk-relative element index.
///
/// Never panics: a tile range that does not exist (stage sizes inconsistent with the buffers)
/// also returns `false`, and the caller's reference run then reports the mismatch.
pub fn pipeline(stages: &[Stage], input: &[u8], out: &mut [u8]) -> bool {
    let (first, middle, last) = match stages {
        [] => {
            if out.len() != input.len() {
                return false;
            }
            // PROOF: `copy_from_slice` panics only on unequal lengths, excluded just above.
            out.copy_from_slice(input);
            return true;
        }
        [s] => return (s.run)(input, out).is_ok(),
        [first, middle @ .., last] => (first, middle, last),
    };
    let n = input.len() / first.in_size.max(1);
    let widest = stages.iter().map(|s| s.out_size).max().unwrap_or(8);
    // Offsets 1 KiB and 3 KiB modulo 4 KiB; callers' tiles are best at 0 and 2 KiB.
    let mut sa = Scratch::new(TILE * widest, 1024);
    let mut sb = Scratch::new(TILE * widest, 3072);
    let (mut a, mut b) = (sa.get(), sb.get());
    // Element range `start..start + len` of a buffer of `size`-byte elements, as bytes.
    let bytes = |start: usize, len: usize, size: usize| start * size..(start + len) * size;
    let mut start = 0;
    while start < n {
        let len = TILE.min(n - start);
        let (Some(src), Some(t)) = (
            input.get(bytes(start, len, first.in_size)),
            a.get_mut(..len * first.out_size),
        ) else {
            return false;
        };
        if (first.run)(src, t).is_err() {
            return false;
        }
        for s in middle {
            let (Some(i), Some(o)) = (a.get(..len * s.in_size), b.get_mut(..len * s.out_size))
            else {
                return false;
            };
            if (s.run)(i, o).is_err() {
                return false;
            }
            std::mem::swap(&mut a, &mut b);
        }
        let (Some(i), Some(dst)) = (
            a.get(..len * last.in_size),
            out.get_mut(bytes(start, len, last.out_size)),
        ) else {
            return false;
        };
        if (last.run)(i, dst).is_err() {
            return false;
        }
        start += len;
    }
    true
}
