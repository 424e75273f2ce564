// A deliberately simple LZMA1 encoder for tests/js/lzma.test.mjs, for what the `xz` CLI cannot
// produce: streams WITHOUT an end marker (xz 5.4 always writes one in raw and .lzma streams),
// lc + lp > 4 (xz refuses it), and hand-made invalid streams (a rep match before any output, a
// distance past the start). Greedy parsing: literals (matched literals after a match), new
// matches found through a 3-byte hash, rep0 matches and short reps. The tests check its output
// with `xz -d` where xz can read it, so it is not only checked against js/lzma.js.

const IS_MATCH = 0;
const IS_REP = 192;
const IS_REP_G0 = 204;
const IS_REP0_LONG = 240;
const DIST_SLOT = 432;
const DIST_SPECIAL = 688;
const ALIGN = 802;
const MATCH_LEN = 818;
const REP_LEN = 1332;
const LITERAL = 1846;
const MAX_LEN = 273;

/** Range encoder plus the LZMA symbol coders; `low` may carry into bit 32 (a Number is exact). */
export class LzmaWriter {
  constructor(lc, lp, pb) {
    this.lc = lc;
    this.lp = lp;
    this.pb = pb;
    this.probs = new Uint16Array(LITERAL + (0x300 << (lc + lp))).fill(1024);
    this.low = 0;
    this.range = 0xffffffff;
    this.cache = 0;
    this.cacheSize = 1;
    this.bytes = [];
    this.state = 0;
    this.reps = [0, 0, 0, 0];
  }

  shiftLow() {
    if (this.low < 0xff000000 || this.low >= 0x100000000) {
      const carry = this.low >= 0x100000000 ? 1 : 0;
      let temp = this.cache;
      do {
        this.bytes.push((temp + carry) & 0xff);
        temp = 0xff;
      } while (--this.cacheSize !== 0);
      this.cache = Math.floor(this.low / 0x1000000) & 0xff;
    }
    this.cacheSize++;
    this.low = (this.low % 0x1000000) * 256;
  }

  normalize() {
    while (this.range < 0x1000000) {
      this.range = (this.range * 256) % 0x100000000;
      this.shiftLow();
    }
  }

  bit(i, b) {
    const p = this.probs[i];
    const bound = (this.range >>> 11) * p;
    if (b === 0) {
      this.range = bound;
      this.probs[i] = p + ((2048 - p) >> 5);
    } else {
      this.low += bound;
      this.range -= bound;
      this.probs[i] = p - (p >> 5);
    }
    this.normalize();
  }

  tree(base, nbits, value) {
    let m = 1;
    for (let k = nbits - 1; k >= 0; k--) {
      const b = (value >>> k) & 1;
      this.bit(base + m, b);
      m = (m << 1) | b;
    }
  }

  reverse(base, nbits, value) {
    let m = 1;
    for (let k = 0; k < nbits; k++) {
      const b = (value >>> k) & 1;
      this.bit(base + m, b);
      m = (m << 1) | b;
    }
  }

  direct(nbits, value) {
    for (let k = nbits - 1; k >= 0; k--) {
      this.range >>>= 1;
      if ((value >>> k) & 1) this.low += this.range;
      this.normalize();
    }
  }

  length(base, len, posState) {
    const l = len - 2;
    if (l < 8) {
      this.bit(base, 0);
      this.tree(base + 2 + (posState << 3), 3, l);
    } else if (l < 16) {
      this.bit(base, 1);
      this.bit(base + 1, 0);
      this.tree(base + 130 + (posState << 3), 3, l - 8);
    } else {
      this.bit(base, 1);
      this.bit(base + 1, 1);
      this.tree(base + 258, 8, l - 16);
    }
  }

  /** A literal `byte` at `pos` of `data` (data[pos - 1] is the previous byte). */
  literal(data, pos, byte) {
    const { lc, lp } = this;
    this.bit(IS_MATCH + (this.state << 4) + (pos & ((1 << this.pb) - 1)), 0);
    const prev = pos > 0 ? data[pos - 1] : 0;
    const base = LITERAL + 0x300 * (((pos & ((1 << lp) - 1)) << lc) + (prev >> (8 - lc)));
    let symbol = 1;
    let k = 7;
    if (this.state >= 7) {
      const matchByte = data[pos - this.reps[0] - 1];
      for (; k >= 0; k--) {
        const matchBit = (matchByte >> k) & 1;
        const b = (byte >> k) & 1;
        this.bit(base + ((1 + matchBit) << 8) + symbol, b);
        symbol = (symbol << 1) | b;
        if (b !== matchBit) {
          k--;
          break;
        }
      }
    }
    for (; k >= 0; k--) {
      const b = (byte >> k) & 1;
      this.bit(base + symbol, b);
      symbol = (symbol << 1) | b;
    }
    this.state = this.state < 4 ? 0 : this.state < 10 ? this.state - 3 : this.state - 6;
  }

  /** A new match: `dist` is the distance minus 1 (0xffffffff for the end marker). */
  match(pos, len, dist) {
    const posState = pos & ((1 << this.pb) - 1);
    this.bit(IS_MATCH + (this.state << 4) + posState, 1);
    this.bit(IS_REP + this.state, 0);
    this.length(MATCH_LEN, len, posState);
    const lenState = Math.min(len - 2, 3);
    let slot;
    if (dist < 4) slot = dist;
    else {
      const top = 31 - Math.clz32(dist);
      slot = 2 * top + ((dist >>> (top - 1)) & 1);
    }
    this.tree(DIST_SLOT + (lenState << 6), 6, slot);
    if (slot >= 4) {
      const n = (slot >> 1) - 1;
      const high = ((2 | (slot & 1)) << n) >>> 0;
      const rest = dist - high;
      if (slot < 14) this.reverse(DIST_SPECIAL + high - slot - 1, n, rest);
      else {
        this.direct(n - 4, Math.floor(rest / 16));
        this.reverse(ALIGN, 4, rest % 16);
      }
    }
    this.reps = [dist, this.reps[0], this.reps[1], this.reps[2]];
    this.state = this.state < 7 ? 7 : 10;
  }

  /** A match at rep0 (len >= 2), or a short rep (len 1). */
  rep0(pos, len) {
    const posState = pos & ((1 << this.pb) - 1);
    this.bit(IS_MATCH + (this.state << 4) + posState, 1);
    this.bit(IS_REP + this.state, 1);
    this.bit(IS_REP_G0 + this.state, 0);
    if (len === 1) {
      this.bit(IS_REP0_LONG + (this.state << 4) + posState, 0);
      this.state = this.state < 7 ? 9 : 11;
      return;
    }
    this.bit(IS_REP0_LONG + (this.state << 4) + posState, 1);
    this.length(REP_LEN, len, posState);
    this.state = this.state < 7 ? 8 : 11;
  }

  /** Ends the stream (5 bytes that push out `low`). */
  finish() {
    for (let k = 0; k < 5; k++) this.shiftLow();
    return Uint8Array.from(this.bytes);
  }
}

/**
 * Compresses `data` into a raw LZMA1 stream; `marker` adds the end-of-stream marker.
 * @returns {Uint8Array}
 */
export function lzmaEncode(data, { lc = 3, lp = 0, pb = 2, marker = false } = {}) {
  const w = new LzmaWriter(lc, lp, pb);
  const n = data.length;
  const head = new Int32Array(1 << 16).fill(-1);
  const hash = (i) => ((data[i] << 8) ^ (data[i + 1] << 4) ^ data[i + 2]) & 0xffff;
  const matchLength = (from, pos) => {
    let len = 0;
    while (pos + len < n && len < MAX_LEN && data[from + len] === data[pos + len]) len++;
    return len;
  };
  let pos = 0;
  while (pos < n) {
    const rep = pos > w.reps[0] ? matchLength(pos - w.reps[0] - 1, pos) : 0;
    let len = 0;
    let dist = 0;
    if (pos + 2 < n) {
      const cand = head[hash(pos)];
      if (cand >= 0) {
        len = matchLength(cand, pos);
        dist = pos - cand - 1;
      }
    }
    let step;
    if (rep >= 2 && rep + 1 >= len) {
      w.rep0(pos, rep);
      step = rep;
    } else if (len >= 3) {
      w.match(pos, len, dist);
      step = len;
    } else if (rep >= 1 && pos > 0) {
      w.rep0(pos, 1);
      step = 1;
    } else {
      w.literal(data, pos, data[pos]);
      step = 1;
    }
    for (let k = 0; k < step; k++, pos++) if (pos + 2 < n) head[hash(pos)] = pos;
  }
  if (marker) w.match(pos, 2, 0xffffffff);
  return w.finish();
}

/** A 13-byte .lzma header: properties, dictionary size, uncompressed size (-1: unknown). */
export function lzmaHeader(lc, lp, pb, dictSize, size) {
  const h = new Uint8Array(13);
  const v = new DataView(h.buffer);
  h[0] = (pb * 5 + lp) * 9 + lc;
  v.setUint32(1, dictSize, true);
  v.setBigUint64(5, size < 0 ? 0xffffffffffffffffn : BigInt(size), true);
  return h;
}
