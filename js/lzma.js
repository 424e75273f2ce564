// A small LZMA1 decoder: unpacks the inlined WebAssembly module, which scripts/build.mjs
// compresses with `xz --format=raw --lzma1=...` (~19 % smaller than DEFLATE for this module, and
// no DecompressionStream needed). Written for this package from the LZMA algorithm (range coder,
// literal/match/rep coding, 12-state machine); no code was taken from an existing decoder.
//
// scripts/build.mjs inlines this file into dist/zarr_scale_offset_wasm.js, so it must stay
// self-contained: no imports, exactly one export (`lzmaDecode`). The build decodes the shipped
// module with it and compares the result byte for byte with the module (LZMA has no checksum).
//
// Design:
//   - The output size is known, so the whole output is the dictionary: one preallocated
//     Uint8Array, and a distance is valid when it points inside what has been written so far.
//   - All probabilities (11-bit, initially 1/2) live in one Uint16Array; every coder is an offset
//     into it, so the bit decoder takes a single index.
//   - The range decoder normalises after each bit, exactly as the encoder does, so a valid
//     stream is consumed to its last byte and its final `code` is 0 (the encoder's flush writes
//     its `low` out in full). Both are checked: a cheap end-to-end test for corrupt input.
//   - Every loop is bounded: each step of the main loop writes at least one byte or throws, and
//     the inner loops decode at most 26 bits. Reading past the input, a distance before
//     the start of the output, a match past the output size, an end marker before the expected
//     size, or trailing input that is not an end marker throws an Error with code 'internal'.

// Offsets of the probability arrays inside `probs`. States are 0..11, position states 0..15 (pb
// is at most 4), so a [state][posState] table is state << 4 | posState.
const IS_MATCH = 0; // [12][16]
const IS_REP = 192; // [12]
const IS_REP_G0 = 204; // [12]
const IS_REP_G1 = 216; // [12]
const IS_REP_G2 = 228; // [12]
const IS_REP0_LONG = 240; // [12][16]
const DIST_SLOT = 432; // [4 length states][64], bit trees indexed from 1
const DIST_SPECIAL = 688; // 114 reverse bit-tree probabilities for distance slots 4..13
const ALIGN = 802; // [16] reverse bit tree of the low 4 bits of slots >= 14
const MATCH_LEN = 818; // length coder: choice, choice2, low [16][8], mid [16][8], high [256]
const REP_LEN = 1332; // the same for rep matches
const LITERAL = 1846; // [1 << (lc + lp)][0x300]

const END_MARKER = 0xffffffff;

function fail(message) {
  const e = new Error(`zarr-scale-offset: cannot unpack LZMA data: ${message}`);
  e.code = 'internal';
  return e;
}

/**
 * Decodes a raw LZMA1 stream (no .lzma header) into exactly `size` bytes.
 *
 * The stream may end with an end-of-stream marker or not (a known-size stream); either way it
 * must decode to exactly `size` bytes and nothing may follow it.
 *
 * @param {Uint8Array} input the compressed stream
 * @param {number} size the uncompressed size in bytes
 * @param {number} lc literal context bits, 0..8
 * @param {number} lp literal position bits, 0..4
 * @param {number} pb position bits, 0..4
 * @returns {Uint8Array} a new array of `size` bytes
 */
export function lzmaDecode(input, size, lc, lp, pb) {
  // x >>> 0 === x: a non-negative integer.
  if (!(lc >>> 0 === lc && lc <= 8 && lp >>> 0 === lp && lp <= 4 && pb >>> 0 === pb && pb <= 4)) {
    throw fail(`unsupported properties lc=${lc} lp=${lp} pb=${pb}`);
  }
  if (!(size >= 0 && size <= 0x7fffffff && Number.isInteger(size))) throw fail(`invalid output size ${size}`);
  const out = new Uint8Array(size);
  const probs = new Uint16Array(LITERAL + (0x300 << (lc + lp))).fill(1024);
  const inputLength = input.length;
  const pbMask = (1 << pb) - 1;
  const lpMask = (1 << lp) - 1;

  // The range decoder: range and code (unsigned 32-bit values held as int32 bit patterns) and the
  // input position. They live in a typed array rather than in variables shared by the closures
  // below: V8 boxes a captured variable whose number does not fit in a small integer, and that
  // made the whole decode ~25 % slower in Node 20. The encoder's first byte is always 0 (its
  // carry cache starts empty), so any other value means the input is not an LZMA stream.
  if (inputLength < 5) throw fail(`truncated: ${inputLength} bytes`);
  if (input[0] !== 0) throw fail('the first byte is not 0');
  const rc = new Int32Array([-1, (input[1] << 24) | (input[2] << 16) | (input[3] << 8) | input[4], 5]);

  // Keeps range >= 2^24 (unsigned) by shifting in the next input byte. bit() repeats this on
  // local copies of range and code: one load and one store of each per bit is ~12 % faster.
  const normalize = () => {
    if (rc[0] >>> 24 === 0) {
      const inPos = rc[2];
      if (inPos >= inputLength) throw fail(`truncated after ${inputLength} bytes`);
      rc[0] <<= 8;
      rc[1] = (rc[1] << 8) | input[inPos];
      rc[2] = inPos + 1;
    }
  };

  // One bit with the adaptive probability probs[i].
  const bit = (i) => {
    const p = probs[i];
    let range = rc[0];
    let code = rc[1];
    const bound = Math.imul(range >>> 11, p);
    let b = 0;
    // Unsigned comparison of int32 bit patterns: flip the sign bits.
    if ((code ^ 0x80000000) < (bound ^ 0x80000000)) {
      range = bound;
      probs[i] = p + ((2048 - p) >> 5);
    } else {
      range = (range - bound) | 0;
      code = (code - bound) | 0;
      probs[i] = p - (p >> 5);
      b = 1;
    }
    if (range >>> 24 === 0) {
      const inPos = rc[2];
      if (inPos >= inputLength) throw fail(`truncated after ${inputLength} bytes`);
      range <<= 8;
      code = (code << 8) | input[inPos];
      rc[2] = inPos + 1;
    }
    rc[0] = range;
    rc[1] = code;
    return b;
  };

  // A bit tree, most significant bit first, from node m (1 at the root) until m >= limit (a
  // power of two); the probabilities are at base + 1 .. base + limit - 1. Returns m - limit.
  const tree = (base, limit, m) => {
    while (m < limit) m = (m << 1) | bit(base + m);
    return m - limit;
  };

  // An n-bit tree read least significant bit first (distance bits); returns the value.
  const reverse = (base, n) => {
    let m = 1;
    let v = 0;
    for (let k = 0; k < n; k++) {
      const b = bit(base + m);
      m = (m << 1) | b;
      v |= b << k;
    }
    return v;
  };

  // A match length minus 2: 0..7 (low), 8..15 (mid) or 16..271 (high).
  const length = (base, posState) =>
    bit(base) === 0
      ? tree(base + 2 + (posState << 3), 8, 1)
      : bit(base + 1) === 0
        ? 8 + tree(base + 130 + (posState << 3), 8, 1)
        : 16 + tree(base + 258, 256, 1);

  // A match distance minus 1 (END_MARKER for the end marker): a 6-bit slot, chosen by the length,
  // then reverse-tree bits (slots 4..13) or direct bits plus 4 aligned bits (slots 14..63).
  const distance = (len) => {
    const slot = tree(DIST_SLOT + ((len < 3 ? len : 3) << 6), 64, 1);
    if (slot < 4) return slot;
    const n = (slot >> 1) - 1;
    const high = ((2 | (slot & 1)) << n) >>> 0;
    if (slot < 14) return high + reverse(DIST_SPECIAL + high - slot - 1, n);
    // n - 4 (at most 26) bits of probability 1/2, most significant first.
    let direct = 0;
    for (let k = n - 4; k > 0; k--) {
      const range = rc[0] >>> 1;
      const code = rc[1];
      rc[0] = range;
      let b = 0;
      if ((code ^ 0x80000000) >= (range ^ 0x80000000)) {
        rc[1] = code - range;
        b = 1;
      }
      direct = (direct << 1) | b;
      normalize();
    }
    return high + ((direct << 4) >>> 0) + reverse(ALIGN, 4);
  };

  // The state machine: 0..6 after a literal, 7..11 after a match, rep or short rep.
  let state = 0;
  // The last four distances minus 1 (rep0 is the most recent).
  let rep0 = 0;
  let rep1 = 0;
  let rep2 = 0;
  let rep3 = 0;
  let pos = 0;

  while (pos < size) {
    const posState = pos & pbMask;
    if (bit(IS_MATCH + (state << 4) + posState) === 0) {
      // A literal, coded with the previous byte's top lc bits and the position's low lp bits.
      const prev = pos > 0 ? out[pos - 1] : 0;
      const base = LITERAL + 0x300 * (((pos & lpMask) << lc) + (prev >> (8 - lc)));
      let symbol = 1;
      if (state >= 7) {
        // After a match, the byte at rep0 predicts this one: its bits select a second set of
        // probabilities until the first bit that differs.
        let matchByte = out[pos - rep0 - 1];
        do {
          const matchBit = (matchByte >> 7) & 1;
          matchByte <<= 1;
          const b = bit(base + ((1 + matchBit) << 8) + symbol);
          symbol = (symbol << 1) | b;
          if (b !== matchBit) break;
        } while (symbol < 0x100);
      }
      out[pos++] = tree(base, 0x100, symbol);
      state = state < 4 ? 0 : state < 10 ? state - 3 : state - 6;
      continue;
    }

    let len;
    if (bit(IS_REP + state) !== 0) {
      // A match at one of the last four distances; the initial reps are not usable.
      if (pos === 0) throw fail('a repeated match before any output');
      if (bit(IS_REP_G0 + state) === 0) {
        if (bit(IS_REP0_LONG + (state << 4) + posState) === 0) {
          // Short rep: one byte at rep0.
          state = state < 7 ? 9 : 11;
          out[pos] = out[pos - rep0 - 1];
          pos++;
          continue;
        }
      } else {
        let dist;
        if (bit(IS_REP_G1 + state) === 0) {
          dist = rep1;
        } else {
          if (bit(IS_REP_G2 + state) === 0) {
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
      len = length(REP_LEN, posState);
      state = state < 7 ? 8 : 11;
    } else {
      // A new match.
      rep3 = rep2;
      rep2 = rep1;
      rep1 = rep0;
      len = length(MATCH_LEN, posState);
      state = state < 7 ? 7 : 10;
      rep0 = distance(len);
      if (rep0 === END_MARKER) throw fail(`end marker after ${pos} of ${size} bytes`);
      if (rep0 >= pos) throw fail(`distance ${rep0 + 1} at output byte ${pos}`);
    }

    len += 2;
    if (len > size - pos) throw fail(`a match of ${len} bytes at ${pos} runs past the output size ${size}`);
    // Byte by byte: source and destination overlap when the distance is shorter than the length.
    const from = pos - rep0 - 1;
    for (let k = 0; k < len; k++) out[pos + k] = out[from + k];
    pos += len;
  }

  // The output is complete: the stream ends here or with an end marker (a match with distance
  // END_MARKER), which writes nothing.
  if (rc[2] < inputLength) {
    const posState = pos & pbMask;
    if (
      bit(IS_MATCH + (state << 4) + posState) === 0 ||
      bit(IS_REP + state) !== 0 ||
      distance(length(MATCH_LEN, posState)) !== END_MARKER
    ) {
      throw fail(`data after the last of ${size} bytes`);
    }
  }
  if (rc[2] !== inputLength) throw fail(`${inputLength - rc[2]} bytes after the end of the stream`);
  if (rc[1] !== 0) throw fail('the stream does not end where its range coder does');
  return out;
}
