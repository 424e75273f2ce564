// Shared helpers of the JS tests: exact-text JSON access, the data-type table, byte comparison
// with the fixture rules (any NaN equals any NaN; only the low bits of stored sub-byte and
// 4/6/8-bit values count), and conversion of stored bytes to in-memory order.

import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import path from 'node:path';

export const ROOT = path.resolve(import.meta.dirname, '..', '..');
export const FIXTURES = path.join(ROOT, 'tests', 'fixtures');
/** The language-neutral conformance vectors (conformance/README.md). */
export const VECTORS = path.join(ROOT, 'conformance', 'vectors');

// ---------------------------------------------------------------------------------------------
// JSON text, exactly: JSON.parse would round int64/uint64 numbers beyond 2^53, so the metadata of
// every vector is passed to the package as its original text. These helpers slice raw values
// out of JSON text without parsing numbers.

function skipWs(s, i) {
  while (i < s.length && (s[i] === ' ' || s[i] === '\n' || s[i] === '\r' || s[i] === '\t')) i++;
  return i;
}

// Index just past the JSON value that starts at s[i] (i at a non-space character).
function valueEnd(s, i) {
  const c = s[i];
  if (c === '"') {
    i++;
    while (s[i] !== '"') i += s[i] === '\\' ? 2 : 1;
    return i + 1;
  }
  if (c === '{' || c === '[') {
    let depth = 0;
    for (; i < s.length; i++) {
      const ch = s[i];
      if (ch === '"') {
        i = valueEnd(s, i) - 1;
      } else if (ch === '{' || ch === '[') {
        depth++;
      } else if (ch === '}' || ch === ']') {
        depth--;
        if (depth === 0) return i + 1;
      }
    }
    throw new Error('unterminated JSON value');
  }
  while (i < s.length && !',]}'.includes(s[i]) && !/\s/.test(s[i])) i++;
  return i;
}

/** The raw text of each element of a JSON array text. */
export function rawArray(text) {
  const out = [];
  let i = skipWs(text, 0);
  if (text[i] !== '[') throw new Error('not a JSON array');
  i = skipWs(text, i + 1);
  if (text[i] === ']') return out;
  for (;;) {
    const end = valueEnd(text, i);
    out.push(text.slice(i, end));
    i = skipWs(text, end);
    if (text[i] === ']') return out;
    if (text[i] !== ',') throw new Error(`expected , at ${i}`);
    i = skipWs(text, i + 1);
  }
}

/** The raw text of each member of a JSON object text, as a Map key -> raw value text. */
export function rawObject(text) {
  const out = new Map();
  let i = skipWs(text, 0);
  if (text[i] !== '{') throw new Error('not a JSON object');
  i = skipWs(text, i + 1);
  if (text[i] === '}') return out;
  for (;;) {
    const keyEnd = valueEnd(text, i);
    const key = JSON.parse(text.slice(i, keyEnd));
    i = skipWs(text, keyEnd);
    if (text[i] !== ':') throw new Error(`expected : at ${i}`);
    i = skipWs(text, i + 1);
    const end = valueEnd(text, i);
    out.set(key, text.slice(i, end));
    i = skipWs(text, end);
    if (text[i] === '}') return out;
    if (text[i] !== ',') throw new Error(`expected , at ${i}`);
    i = skipWs(text, i + 1);
  }
}

/**
 * Loads one vector family. Each vector gets its parsed fields plus `metadataText` (exact) and
 * `arrayCodecsText` (exact JSON text of the array->array codecs before the `bytes` codec) and
 * `endian` (of the bytes codec, "little" when absent).
 */
export function loadFamily(family) {
  const text = readFileSync(path.join(VECTORS, `${family}.json`), 'utf8');
  return rawArray(text).map((raw) => {
    const fields = rawObject(raw);
    const v = JSON.parse(raw);
    v.metadataText = fields.get('metadata');
    // metadata_error vectors may lack a usable codecs list; every other vector has one.
    let codecs = [];
    try {
      codecs = rawArray(rawObject(v.metadataText).get('codecs'));
    } catch (e) {
      if (v.expect !== 'metadata_error') throw e;
    }
    const parsed = codecs.map((c) => JSON.parse(c));
    const bytesAt = parsed.findIndex((c) => c === 'bytes' || (c && c.name === 'bytes'));
    v.bytesIndex = bytesAt;
    v.arrayCodecsText = `[${codecs.slice(0, bytesAt < 0 ? codecs.length : bytesAt).join(',')}]`;
    const bytesCodec = bytesAt < 0 ? undefined : parsed[bytesAt];
    v.endian = (bytesCodec && bytesCodec.configuration && bytesCodec.configuration.endian) || 'little';
    v.afterBytes = bytesAt < 0 ? 0 : codecs.length - bytesAt - 1;
    return v;
  });
}

export function hexToBytes(hex) {
  const out = new Uint8Array(hex.length / 2);
  for (let i = 0; i < out.length; i++) out[i] = parseInt(hex.substr(i * 2, 2), 16);
  return out;
}

export function bytesToHex(bytes) {
  return Array.from(bytes, (b) => b.toString(16).padStart(2, '0')).join('');
}

// ---------------------------------------------------------------------------------------------
// data types (test-side facts, from ../shared/research/spec.md §4.1)

const ieeeNan = (e, m) => (c) => ((c >> BigInt(m)) & ((1n << BigInt(e)) - 1n)) === (1n << BigInt(e)) - 1n && (c & ((1n << BigInt(m)) - 1n)) !== 0n;
const never = () => false;
const only = (code) => (c) => c === code;

/** name -> { size (bytes in memory), bits, signed (ints), float, isNaN(code: bigint) } */
export const DTYPES = {
  int2: { size: 1, bits: 2, signed: true },
  int4: { size: 1, bits: 4, signed: true },
  int8: { size: 1, bits: 8, signed: true },
  int16: { size: 2, bits: 16, signed: true },
  int32: { size: 4, bits: 32, signed: true },
  int64: { size: 8, bits: 64, signed: true },
  uint2: { size: 1, bits: 2, signed: false },
  uint4: { size: 1, bits: 4, signed: false },
  uint8: { size: 1, bits: 8, signed: false },
  uint16: { size: 2, bits: 16, signed: false },
  uint32: { size: 4, bits: 32, signed: false },
  uint64: { size: 8, bits: 64, signed: false },
  float4_e2m1fn: { size: 1, bits: 4, float: true, isNaN: never },
  float6_e2m3fn: { size: 1, bits: 6, float: true, isNaN: never },
  float6_e3m2fn: { size: 1, bits: 6, float: true, isNaN: never },
  float8_e3m4: { size: 1, bits: 8, float: true, isNaN: ieeeNan(3, 4) },
  float8_e4m3: { size: 1, bits: 8, float: true, isNaN: ieeeNan(4, 3) },
  float8_e4m3b11fnuz: { size: 1, bits: 8, float: true, isNaN: only(0x80n) },
  float8_e4m3fnuz: { size: 1, bits: 8, float: true, isNaN: only(0x80n) },
  float8_e5m2: { size: 1, bits: 8, float: true, isNaN: ieeeNan(5, 2) },
  float8_e5m2fnuz: { size: 1, bits: 8, float: true, isNaN: only(0x80n) },
  float8_e8m0fnu: { size: 1, bits: 8, float: true, isNaN: only(0xffn) },
  bfloat16: { size: 2, bits: 16, float: true, isNaN: ieeeNan(8, 7) },
  float16: { size: 2, bits: 16, float: true, isNaN: ieeeNan(5, 10) },
  float32: { size: 4, bits: 32, float: true, isNaN: ieeeNan(8, 23) },
  float64: { size: 8, bits: 64, float: true, isNaN: ieeeNan(11, 52) },
};

export const DTYPE_NAMES = Object.keys(DTYPES);

function dt(name) {
  const d = DTYPES[name];
  if (!d) throw new Error(`test helpers: unknown data type ${name}`);
  return d;
}

/** Element i of little-endian in-memory bytes as an unsigned bigint code of the full size. */
function readCode(bytes, i, size) {
  let c = 0n;
  for (let k = size - 1; k >= 0; k--) c = (c << 8n) | BigInt(bytes[i * size + k]);
  return c;
}

/**
 * Stored bytes (after the `bytes` codec) -> canonical in-memory bytes: byte-swapped per element
 * when big-endian; sub-byte and 4/6/8-bit values reduced to their low bits, sign-extended for
 * int2/int4 and zero-extended otherwise.
 */
export function storedToMemory(stored, dtypeName, endian) {
  const d = dt(dtypeName);
  const out = new Uint8Array(stored.length);
  if (d.size > 1) {
    if (stored.length % d.size !== 0) return stored.slice();
    for (let i = 0; i < stored.length; i += d.size) {
      for (let k = 0; k < d.size; k++) {
        out[i + k] = endian === 'big' ? stored[i + d.size - 1 - k] : stored[i + k];
      }
    }
    return out;
  }
  const mask = (1 << d.bits) - 1;
  for (let i = 0; i < stored.length; i++) {
    let v = stored[i] & mask;
    if (d.signed && d.bits < 8 && v >> (d.bits - 1)) v |= ~mask & 0xff;
    out[i] = v;
  }
  return out;
}

/**
 * Compares in-memory bytes of `dtypeName`. Returns null when equal under the fixture rules, else
 * a reason naming the first differing element. `lowBits`: only the low bits of each element count.
 */
export function compareMemory(actual, expected, dtypeName, { lowBits = false } = {}) {
  const d = dt(dtypeName);
  if (actual.length !== expected.length) {
    return `length ${actual.length} B != expected ${expected.length} B (${dtypeName})`;
  }
  const n = actual.length / d.size;
  const mask = lowBits ? (1n << BigInt(d.bits)) - 1n : (1n << BigInt(d.size * 8)) - 1n;
  for (let i = 0; i < n; i++) {
    const a = readCode(actual, i, d.size) & mask;
    const e = readCode(expected, i, d.size) & mask;
    if (a === e) continue;
    if (d.float && d.isNaN(a & ((1n << BigInt(d.bits)) - 1n)) && d.isNaN(e & ((1n << BigInt(d.bits)) - 1n))) continue;
    const w = d.size * 2;
    return `element ${i}: got 0x${a.toString(16).padStart(w, '0')}, expected 0x${e.toString(16).padStart(w, '0')} (${dtypeName})`;
  }
  return null;
}

/** Bytes -> a typed array built with `Ctor`, copied into a fresh (aligned) buffer. */
export function typedFromBytes(bytes, Ctor) {
  const copy = new Uint8Array(bytes.length);
  copy.set(bytes);
  if (copy.length % Ctor.BYTES_PER_ELEMENT !== 0) {
    throw new Error(`${copy.length} bytes is not a whole number of ${Ctor.name} elements`);
  }
  return new Ctor(copy.buffer);
}

/** The bytes of a typed array (a view, no copy). */
export function bytesOf(ta) {
  return new Uint8Array(ta.buffer, ta.byteOffset, ta.byteLength);
}

/** The error codes the package documents. */
export const ERROR_CODES = new Set([
  'invalid_json',
  'invalid_metadata',
  'unsupported_data_type',
  'unsupported_codec',
  'not_representable',
  'out_of_range',
  'length_mismatch',
  'invalid_data',
  'read_only',
  'not_ready',
  'invalid_argument',
]);

/**
 * Asserts that `fn` throws an Error with this `.code` and a non-empty message (matching `re` when
 * given); returns the error. `label` starts every assertion message.
 */
export function throwsCode(fn, code, re, label = '') {
  const at = label ? `${label}: ` : '';
  let err;
  try {
    fn();
  } catch (e) {
    err = e;
  }
  assert.ok(err !== undefined, `${at}expected an error with code ${code}, but nothing was thrown`);
  assert.ok(err instanceof Error, `${at}expected an Error, got ${err}`);
  assert.equal(err.code, code, `${at}wrong code; message: ${err.message}`);
  assert.equal(typeof err.message, 'string');
  assert.ok(err.message.length > 0, `${at}empty message`);
  if (re) assert.match(err.message, re);
  return err;
}
