//! The LZMA1 decoder that unpacks the inlined WebAssembly module of `zarr-scale-offset`.
//!
//! `scripts/build.mjs` compresses the optimised module with `xz --format=raw --lzma1=…` (LZMA is
//! ~19 % smaller than DEFLATE for it, which the 100,000 B download budget needs) and inlines it as
//! base64. This crate is built on its own for `wasm32-unknown-unknown` (no_std, no allocator, no
//! wasm-bindgen: a ~3 KB module) and inlined next to the data, raw, as base64; `ready()`
//! instantiates it and unpacks the big module with it. It replaced a JavaScript decoder
//! (js/lzma.js) that spent 15–40 ms of every cold start in the interpreter and baseline tiers
//! (`bench/unpack.mjs`, `bench/coldstart.mjs`). Natively it is an ordinary library, so that
//! `cargo test` checks it.
//!
//! Written for this package from the LZMA algorithm (range coder, literal/match/rep coding,
//! 12-state machine); no code was taken from an existing decoder.
//!
//! Design:
//!   - The output size is known, so the whole output is the dictionary: a distance is valid when
//!     it points inside what has been written so far.
//!   - All probabilities (11-bit, initially 1/2) live in one `u16` slice; every coder is an offset
//!     into it, so the bit decoder takes a single index.
//!   - The range decoder normalises after each bit, exactly as the encoder does, so a valid
//!     stream is consumed to its last byte and its final `code` is 0 (the encoder's flush writes
//!     its `low` out in full). Both are checked: a cheap end-to-end test for corrupt input.
//!   - No panic path at all (indexing goes through `get`; reading past the input or an index
//!     outside the tables sets a flag that the main loop checks once per step), so the module
//!     links no formatting code. Every loop is bounded: each step of the main loop writes at least
//!     one byte or fails, and the inner loops decode at most 26 bits.
//!
//! ```
//! use zarr_scale_offset_unpack::{decode, probs_len, Fail};
//! // Raw LZMA1 (lc=3 lp=0 pb=2, with an end marker) of b"hi" as `xz --format=raw` writes it.
//! let stream = [0x00, 0x34, 0x1a, 0x5c, 0xff, 0xff, 0xff, 0xff, 0xf0, 0x00, 0x00, 0x00];
//! let mut out = [0u8; 2];
//! let mut probs = vec![0u16; probs_len(3, 0)];
//! assert_eq!(decode(&stream, &mut out, &mut probs, 3, 0, 2), Ok(()));
//! assert_eq!(&out, b"hi");
//! let mut short = [0u8; 1];
//! assert_eq!(decode(&stream, &mut short, &mut probs, 3, 0, 2), Err((Fail::TrailingData, 1, 0)));
//! ```

#![cfg_attr(target_arch = "wasm32", no_std)]
#![warn(missing_docs)]
#![cfg_attr(test, allow(clippy::restriction))]

// Offsets of the probability arrays inside `probs`. States are 0..11, position states 0..15 (pb
// is at most 4), so a [state][posState] table is state << 4 | posState.
const IS_MATCH: usize = 0; // [12][16]
const IS_REP: usize = 192; // [12]
const IS_REP_G0: usize = 204; // [12]
const IS_REP_G1: usize = 216; // [12]
const IS_REP_G2: usize = 228; // [12]
const IS_REP0_LONG: usize = 240; // [12][16]
const DIST_SLOT: usize = 432; // [4 length states][64], bit trees indexed from 1
const DIST_SPECIAL: usize = 688; // 114 reverse bit-tree probabilities for distance slots 4..13
const ALIGN: usize = 802; // [16] reverse bit tree of the low 4 bits of slots >= 14
const MATCH_LEN: usize = 818; // length coder: choice, choice2, low [16][8], mid [16][8], high [256]
const REP_LEN: usize = 1332; // the same for rep matches
const LITERAL: usize = 1846; // [1 << (lc + lp)][0x300]

const END_MARKER: u32 = 0xffff_ffff;

/// Why a stream could not be decoded. The wasm export returns the discriminant (0 is success);
/// the JavaScript side turns it into a message.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
#[repr(u32)]
pub enum Fail {
    /// lc > 8, lp > 4 or pb > 4.
    Properties = 1,
    /// Fewer than 5 bytes (the value is the input length).
    Short = 2,
    /// The input ended before the output was complete.
    Truncated = 3,
    /// A repeated match before any output.
    RepFirst = 4,
    /// A match distance that points before the start of the output (the value is the distance).
    Distance = 5,
    /// A match that runs past the output size (the value is its length).
    PastEnd = 6,
    /// An end marker before the output was complete.
    EarlyEnd = 7,
    /// The output is complete but what follows is not an end marker.
    TrailingData = 8,
    /// Bytes after the end of the stream (the value is how many).
    BytesAfterEnd = 9,
    /// The range coder does not end where the stream does.
    RangeCoder = 10,
    /// The wasm export's memory regions are outside the memory, overlap or are misaligned, or
    /// the probability table is too small for lc and lp.
    Memory = 11,
    /// A first byte that is not 0 (the encoder's first byte always is).
    FirstByte = 12,
    /// An index outside the probability tables (not reachable with lc <= 8, lp <= 4, pb <= 4).
    Index = 13,
}

/// A failure: why, the output position reached, and the value its message names (a distance,
/// a length, a byte count; 0 when it names none).
pub type Failure = (Fail, usize, u32);

/// The number of `u16` probabilities `decode` needs for these literal context and position bits.
pub const fn probs_len(lc: u32, lp: u32) -> usize {
    LITERAL + (0x300 << (lc + lp))
}

/// The range decoder and the probabilities, with the two failure flags that the hot path sets
/// instead of returning early.
struct Dec<'a> {
    input: &'a [u8],
    pos: usize,
    range: u32,
    code: u32,
    probs: &'a mut [u16],
    /// Read past the input.
    truncated: bool,
    /// An index outside the tables or the output (only a corrupt stream gets there).
    bad: bool,
}

impl Dec<'_> {
    /// Keeps range >= 2^24 by shifting in the next input byte (0 past the end, flagged).
    #[inline(always)]
    fn normalize(&mut self) {
        if self.range < 1 << 24 {
            let byte = match self.input.get(self.pos) {
                Some(&b) => b,
                None => {
                    self.truncated = true;
                    0
                }
            };
            self.pos = self.pos.wrapping_add(1);
            self.range <<= 8;
            self.code = (self.code << 8) | u32::from(byte);
        }
    }

    /// One bit with the adaptive probability `probs[i]`: a tree of one bit, so that the bit
    /// decoder exists once, in `tree`. Not inlined: its ~20 call sites made the module 2.2x as
    /// large (6.5 KB) and no faster on a cold start (measured in Node 20). The coders below are
    /// not inlined either (3.1 -> 3.0 KB, as fast): small hot functions, which V8 tiers up from
    /// its baseline compiler while the one long `decode` call runs.
    #[inline(never)]
    fn bit(&mut self, i: usize) -> usize {
        self.tree(i.wrapping_sub(1), 2, 1)
    }

    /// A bit tree, most significant bit first, from node `m` (1 at the root) until `m >= limit`
    /// (a power of two); the probabilities are at `base + 1 .. base + limit - 1`. On an index
    /// outside the table the bit is 0 and `bad` is set.
    ///
    /// The range coder is in locals for the whole tree: literals (8-bit trees) are most of the
    /// work, and V8's baseline code, which runs most of the one call that unpacks at start-up,
    /// reloads struct fields around every call. Decoding the bits here rather than calling
    /// `bit` 8 times made the first unpack ~0.4 ms faster in Node 20 and ~2 ms in Chromium 156
    /// (medians of 15 and 31 fresh runs; docs/PERFORMANCE.md) for 22 B of module.
    #[inline(never)]
    fn tree(&mut self, base: usize, limit: usize, mut m: usize) -> usize {
        let (mut range, mut code, mut pos) = (self.range, self.code, self.pos);
        while m < limit {
            let b = match self.probs.get_mut(base.wrapping_add(m)) {
                None => {
                    self.bad = true;
                    0
                }
                Some(p) => {
                    let prob = u32::from(*p);
                    let bound = (range >> 11).wrapping_mul(prob);
                    let b = if code < bound {
                        range = bound;
                        *p = (prob + ((2048 - prob) >> 5)) as u16;
                        0
                    } else {
                        range = range.wrapping_sub(bound);
                        code = code.wrapping_sub(bound);
                        *p = (prob - (prob >> 5)) as u16;
                        1
                    };
                    // normalize(), on the locals
                    if range < 1 << 24 {
                        let byte = match self.input.get(pos) {
                            Some(&b) => b,
                            None => {
                                self.truncated = true;
                                0
                            }
                        };
                        pos = pos.wrapping_add(1);
                        range <<= 8;
                        code = (code << 8) | u32::from(byte);
                    }
                    b
                }
            };
            m = (m << 1) | b;
        }
        (self.range, self.code, self.pos) = (range, code, pos);
        m - limit
    }

    /// An `n`-bit tree read least significant bit first (distance bits).
    #[inline(never)]
    fn reverse(&mut self, base: usize, n: u32) -> u32 {
        let mut m = 1;
        let mut v = 0;
        for k in 0..n {
            let b = self.bit(base + m);
            m = (m << 1) | b;
            v |= (b as u32) << k;
        }
        v
    }

    /// The first bits of a literal after a match: the byte at rep0 (`match_byte`) selects a
    /// second set of probabilities until the first bit that differs. Returns the tree node.
    #[inline(never)]
    fn matched(&mut self, base: usize, mut match_byte: usize) -> usize {
        let mut symbol = 1usize;
        loop {
            let match_bit = (match_byte >> 7) & 1;
            match_byte <<= 1;
            let b = self.bit(base + ((1 + match_bit) << 8) + symbol);
            symbol = (symbol << 1) | b;
            if b != match_bit || symbol >= 0x100 {
                return symbol;
            }
        }
    }

    /// A match length minus 2: 0..7 (low), 8..15 (mid) or 16..271 (high).
    #[inline(never)]
    fn length(&mut self, base: usize, pos_state: usize) -> usize {
        if self.bit(base) == 0 {
            self.tree(base + 2 + (pos_state << 3), 8, 1)
        } else if self.bit(base + 1) == 0 {
            8 + self.tree(base + 130 + (pos_state << 3), 8, 1)
        } else {
            16 + self.tree(base + 258, 256, 1)
        }
    }

    /// A match distance minus 1 (`END_MARKER` for the end marker): a 6-bit slot, chosen by the
    /// length, then reverse-tree bits (slots 4..13) or direct bits plus 4 aligned bits (14..63).
    #[inline(never)]
    fn distance(&mut self, len: usize) -> u32 {
        let slot = self.tree(DIST_SLOT + (len.min(3) << 6), 64, 1) as u32;
        if slot < 4 {
            return slot;
        }
        let n = (slot >> 1) - 1;
        let high = (2 | (slot & 1)) << n;
        if slot < 14 {
            return high + self.reverse(DIST_SPECIAL + high as usize - slot as usize - 1, n);
        }
        // n - 4 (at most 26) bits of probability 1/2, most significant first.
        let mut direct: u32 = 0;
        for _ in 4..n {
            self.range >>= 1;
            let b = if self.code >= self.range {
                self.code = self.code.wrapping_sub(self.range);
                1
            } else {
                0
            };
            direct = (direct << 1) | b;
            self.normalize();
        }
        high.wrapping_add(direct << 4)
            .wrapping_add(self.reverse(ALIGN, 4))
    }
}

/// Decodes a raw LZMA1 stream (no .lzma header) into all of `out` (its length is the
/// uncompressed size). `probs` is scratch space of at least [`probs_len`]`(lc, lp)` entries (any
/// contents). The stream may end with an end-of-stream marker or not (a known-size stream);
/// either way it must decode to exactly `out.len()` bytes and nothing may follow it.
pub fn decode(
    input: &[u8],
    out: &mut [u8],
    probs: &mut [u16],
    lc: u32,
    lp: u32,
    pb: u32,
) -> Result<(), Failure> {
    if lc > 8 || lp > 4 || pb > 4 {
        return Err((Fail::Properties, 0, 0));
    }
    let Some(probs) = probs.get_mut(..probs_len(lc, lp)) else {
        return Err((Fail::Memory, 0, 0));
    };
    probs.fill(1024);
    let (Some(&first), Some(a), Some(b), Some(c), Some(d)) = (
        input.first(),
        input.get(1),
        input.get(2),
        input.get(3),
        input.get(4),
    ) else {
        return Err((Fail::Short, 0, input.len() as u32));
    };
    if first != 0 {
        return Err((Fail::FirstByte, 0, 0));
    }
    let mut r = Dec {
        input,
        pos: 5,
        range: u32::MAX,
        code: u32::from_be_bytes([*a, *b, *c, *d]),
        probs,
        truncated: false,
        bad: false,
    };
    let size = out.len();
    let pb_mask = (1usize << pb) - 1;
    let lp_mask = (1usize << lp) - 1;
    // The state machine: 0..6 after a literal, 7..11 after a match, rep or short rep.
    let mut state: usize = 0;
    // The last four distances minus 1 (rep0 is the most recent).
    let (mut rep0, mut rep1, mut rep2, mut rep3): (u32, u32, u32, u32) = (0, 0, 0, 0);
    let mut pos = 0usize;
    // A failure at `pos`; reading past the input comes first (what follows it is garbage).
    macro_rules! fail {
        ($fail:expr, $value:expr) => {
            return Err(if r.truncated {
                (Fail::Truncated, pos, 0)
            } else if r.bad {
                (Fail::Index, pos, 0)
            } else {
                ($fail, pos, $value)
            })
        };
    }

    while pos < size {
        if r.truncated || r.bad {
            fail!(Fail::Truncated, 0);
        }
        let pos_state = pos & pb_mask;
        if r.bit(IS_MATCH + (state << 4) + pos_state) == 0 {
            // A literal, coded with the previous byte's top lc bits and the position's low lp bits.
            let prev = match pos.checked_sub(1) {
                Some(p) => out.get(p).copied().unwrap_or(0),
                None => 0,
            };
            let base =
                LITERAL + 0x300 * (((pos & lp_mask) << lc) + (usize::from(prev) >> (8 - lc)));
            let mut symbol = 1usize;
            if state >= 7 {
                // After a match, the byte at rep0 predicts this one.
                let match_byte = match pos.checked_sub(rep0 as usize + 1).and_then(|p| out.get(p)) {
                    Some(&m) => usize::from(m),
                    None => fail!(Fail::Distance, rep0.wrapping_add(1)),
                };
                symbol = r.matched(base, match_byte);
            }
            let byte = r.tree(base, 0x100, symbol) as u8;
            if let Some(o) = out.get_mut(pos) {
                *o = byte;
            }
            pos += 1;
            state = if state < 4 {
                0
            } else if state < 10 {
                state - 3
            } else {
                state - 6
            };
            continue;
        }

        let len;
        if r.bit(IS_REP + state) != 0 {
            // A match at one of the last four distances; the initial reps are not usable.
            if pos == 0 {
                fail!(Fail::RepFirst, 0);
            }
            if r.bit(IS_REP_G0 + state) == 0 {
                if r.bit(IS_REP0_LONG + (state << 4) + pos_state) == 0 {
                    // Short rep: one byte at rep0.
                    state = if state < 7 { 9 } else { 11 };
                    let Some(&byte) = pos.checked_sub(rep0 as usize + 1).and_then(|p| out.get(p))
                    else {
                        fail!(Fail::Distance, rep0.wrapping_add(1));
                    };
                    if let Some(o) = out.get_mut(pos) {
                        *o = byte;
                    }
                    pos += 1;
                    continue;
                }
            } else {
                let dist;
                if r.bit(IS_REP_G1 + state) == 0 {
                    dist = rep1;
                } else {
                    if r.bit(IS_REP_G2 + state) == 0 {
                        dist = rep2;
                    } else {
                        dist = rep3;
                        rep3 = rep2;
                    }
                    rep2 = rep1;
                }
                rep1 = rep0;
                rep0 = dist;
            }
            len = r.length(REP_LEN, pos_state);
            state = if state < 7 { 8 } else { 11 };
        } else {
            // A new match.
            rep3 = rep2;
            rep2 = rep1;
            rep1 = rep0;
            len = r.length(MATCH_LEN, pos_state);
            state = if state < 7 { 7 } else { 10 };
            rep0 = r.distance(len);
            if rep0 == END_MARKER {
                fail!(Fail::EarlyEnd, 0);
            }
            if rep0 as usize >= pos {
                fail!(Fail::Distance, rep0.wrapping_add(1));
            }
        }

        let len = len + 2;
        if len > size - pos {
            fail!(Fail::PastEnd, len as u32);
        }
        // Byte by byte: source and destination overlap when the distance is shorter than the
        // length. `from` is in range: every rep distance was checked against an earlier `pos`.
        let Some(from) = pos.checked_sub(rep0 as usize + 1) else {
            fail!(Fail::Distance, rep0.wrapping_add(1));
        };
        for k in 0..len {
            let byte = out.get(from + k).copied().unwrap_or(0);
            if let Some(o) = out.get_mut(pos + k) {
                *o = byte;
            }
        }
        pos += len;
    }

    if r.truncated || r.bad {
        fail!(Fail::Truncated, 0);
    }
    // The output is complete: the stream ends here or with an end marker (a match with distance
    // END_MARKER), which writes nothing.
    if r.pos < input.len() {
        let pos_state = pos & pb_mask;
        if r.bit(IS_MATCH + (state << 4) + pos_state) == 0 || r.bit(IS_REP + state) != 0 {
            fail!(Fail::TrailingData, 0);
        }
        let len = r.length(MATCH_LEN, pos_state);
        if r.distance(len) != END_MARKER {
            fail!(Fail::TrailingData, 0);
        }
    }
    if r.pos != input.len() {
        fail!(Fail::BytesAfterEnd, input.len().wrapping_sub(r.pos) as u32);
    }
    if r.code != 0 {
        fail!(Fail::RangeCoder, 0);
    }
    Ok(())
}

#[cfg(target_arch = "wasm32")]
mod wasm {
    //! The module's two exports and its panic handler (never reached: the decoder has no panic
    //! path; the handler exists because a no_std binary must name one).

    use super::{decode, probs_len, Fail};
    use core::sync::atomic::{AtomicU32, Ordering};

    extern "C" {
        /// Set by the linker after the stack and the static data: memory from here on is the
        /// caller's (the module has no allocator and never writes above its statics).
        static __heap_base: u8;
    }

    /// The output position that the last failed `unpack` reached, and the value its message names.
    static FAILED_AT: AtomicU32 = AtomicU32::new(0);
    static FAILED_VALUE: AtomicU32 = AtomicU32::new(0);

    /// Where the caller may place its buffers: the first byte after the module's own memory.
    #[no_mangle]
    pub extern "C" fn heap_base() -> u32 {
        // Only the address of the linker symbol is taken (safe since Rust 1.82), never its value.
        core::ptr::addr_of!(__heap_base) as u32
    }

    /// The output position reached by the last `unpack` that failed.
    #[no_mangle]
    pub extern "C" fn failed_at() -> u32 {
        FAILED_AT.load(Ordering::Relaxed)
    }

    /// The value named by the last failure (a distance, a length, a byte count).
    #[no_mangle]
    pub extern "C" fn failed_value() -> u32 {
        FAILED_VALUE.load(Ordering::Relaxed)
    }

    /// Decodes `in_len` bytes at `in_ptr` into the `out_len` bytes at `out_ptr`, with the
    /// probability table at `probs_ptr`; all three regions lie in this module's memory at or
    /// above `heap_base()`, placed by the caller. Returns 0 or a [`Fail`] code.
    #[no_mangle]
    pub extern "C" fn unpack(
        in_ptr: u32,
        in_len: u32,
        out_ptr: u32,
        out_len: u32,
        probs_ptr: u32,
        lc: u32,
        lp: u32,
        pb: u32,
    ) -> u32 {
        if lc > 8 || lp > 4 || pb > 4 {
            return Fail::Properties as u32;
        }
        let top = core::arch::wasm32::memory_size(0) as u64 * 65536;
        let lo = u64::from(heap_base());
        let region = |ptr: u32, bytes: u64| (u64::from(ptr), u64::from(ptr) + bytes);
        let input = region(in_ptr, u64::from(in_len));
        let output = region(out_ptr, u64::from(out_len));
        let probs = region(probs_ptr, 2 * probs_len(lc, lp) as u64);
        let regions = [input, output, probs];
        let inside = regions.iter().all(|&(a, b)| a >= lo && b <= top);
        let apart = |x: (u64, u64), y: (u64, u64)| x.1 <= y.0 || y.1 <= x.0;
        if !inside
            || probs_ptr % 2 != 0
            || !apart(input, output)
            || !apart(input, probs)
            || !apart(output, probs)
        {
            return Fail::Memory as u32;
        }
        // SAFETY: the three regions were just checked to lie inside the module's linear memory,
        // above everything the module itself uses (its stack and statics end at __heap_base; it
        // has no allocator), to be pairwise disjoint, and the u16 region to be 2-byte aligned.
        // Wasm memory is zero-initialised or written by the caller, so every byte is initialised,
        // and nothing else runs during this call (wasm32 without threads), so these are the only
        // references to those bytes while they live.
        let (input, output, probs) = unsafe {
            (
                core::slice::from_raw_parts(in_ptr as usize as *const u8, in_len as usize),
                core::slice::from_raw_parts_mut(out_ptr as usize as *mut u8, out_len as usize),
                core::slice::from_raw_parts_mut(probs_ptr as usize as *mut u16, probs_len(lc, lp)),
            )
        };
        match decode(input, output, probs, lc, lp, pb) {
            Ok(()) => 0,
            Err((fail, pos, value)) => {
                FAILED_AT.store(pos as u32, Ordering::Relaxed);
                FAILED_VALUE.store(value, Ordering::Relaxed);
                fail as u32
            }
        }
    }

    #[panic_handler]
    fn panic(_: &core::panic::PanicInfo) -> ! {
        core::arch::wasm32::unreachable()
    }
}

#[cfg(test)]
mod tests {
    //! Natively, on streams made by `xz --format=raw --lzma1=lc=3,lp=0,pb=2` (end marker
    //! included); tests/js/lzma.test.mjs checks the shipped wasm build on many more.
    use super::*;

    const TEXT: &[u8] = b"abracadabra abracadabra abracadabra";
    const STREAM: [u8; 23] = [
        0x00, 0x30, 0x98, 0x8a, 0xaa, 0x9a, 0x59, 0xf5, 0x11, 0xd8, 0x3e, 0xb3, 0x8f, 0xce, 0xe0,
        0x5c, 0x8b, 0xff, 0xff, 0x52, 0x14, 0x00, 0x00,
    ];

    fn run(input: &[u8], size: usize) -> Result<Vec<u8>, Failure> {
        let mut out = vec![0u8; size];
        let mut probs = vec![0u16; probs_len(3, 0)];
        decode(input, &mut out, &mut probs, 3, 0, 2).map(|()| out)
    }

    #[test]
    fn decodes_literals_matches_and_reps() {
        assert_eq!(run(&STREAM, TEXT.len()).unwrap(), TEXT);
    }

    #[test]
    fn every_truncation_fails() {
        for n in 0..STREAM.len() {
            let e = run(&STREAM[..n], TEXT.len()).unwrap_err();
            assert!(
                matches!(e.0, Fail::Short | Fail::Truncated | Fail::RangeCoder),
                "{n}: {e:?}"
            );
        }
    }

    #[test]
    fn wrong_sizes_trailing_bytes_and_arguments_fail() {
        assert_eq!(run(&STREAM, TEXT.len() + 1).unwrap_err().0, Fail::EarlyEnd);
        assert!(matches!(
            run(&STREAM, TEXT.len() - 1).unwrap_err().0,
            Fail::PastEnd | Fail::TrailingData
        ));
        let mut longer = STREAM.to_vec();
        longer.push(0);
        assert_eq!(
            run(&longer, TEXT.len()).unwrap_err(),
            (Fail::BytesAfterEnd, TEXT.len(), 1)
        );
        let mut first = STREAM;
        first[0] = 1;
        assert_eq!(run(&first, TEXT.len()).unwrap_err().0, Fail::FirstByte);
        let (mut out, mut probs) = (vec![0u8; TEXT.len()], vec![0u16; probs_len(3, 0)]);
        assert_eq!(
            decode(&STREAM, &mut out, &mut probs, 9, 0, 2)
                .unwrap_err()
                .0,
            Fail::Properties
        );
        assert_eq!(
            decode(&STREAM, &mut out, &mut probs[..100], 3, 0, 2)
                .unwrap_err()
                .0,
            Fail::Memory
        );
    }

    #[test]
    fn corrupt_bytes_fail_or_fill_exactly_the_output() {
        for i in 1..STREAM.len() {
            for x in [1u8, 0x80, 0xff] {
                let mut bad = STREAM;
                bad[i] ^= x;
                if let Ok(out) = run(&bad, TEXT.len()) {
                    assert_eq!(out.len(), TEXT.len());
                }
            }
        }
    }
}
