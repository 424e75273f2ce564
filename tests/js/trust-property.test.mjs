// Property test of the JS engine's converter (issue 29: one per engine), on the BUILT package:
// random codec configurations given as JS values (numbers, BigInts, strings) and random typed
// arrays of random kinds through `encode` / `decode` / a bound handle, against the core's own
// reading of the same configuration as JSON text in a whole zarr.json (`decodeChunk` /
// `encodeChunk`, which take the text as it is). Each case ends equal (the same bytes), in the
// same coded error on both sides, or, for a typed array of the wrong kind, in `invalid_data`
// (never its bytes reinterpreted). Anything else, or an exception without `.code`, fails. The
// counts are printed.

import { test, before } from 'node:test';
import assert from 'node:assert/strict';

import * as z from 'zarr-scale-offset';

before(async () => {
  await z.ready();
});

function rng(seed) {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

const TYPES = [
  'int2', 'int4', 'int8', 'int16', 'int32', 'int64', 'uint2', 'uint4', 'uint8', 'uint16', 'uint32',
  'uint64', 'float4_e2m1fn', 'float6_e2m3fn', 'float6_e3m2fn', 'float8_e3m4', 'float8_e4m3',
  'float8_e4m3b11fnuz', 'float8_e4m3fnuz', 'float8_e5m2', 'float8_e5m2fnuz', 'float8_e8m0fnu',
  'bfloat16', 'float16', 'float32', 'float64',
];
const ROUNDING = ['nearest-even', 'towards-zero', 'towards-positive', 'towards-negative', 'nearest-away'];
const NUMBERS = [2, 0.5, -3, 0.1, 1000, 100, 1.5, -0.25, 0.001, 7, 0, 255, 1e300, -1e-5];
const KINDS = [Int8Array, Uint8Array, Int16Array, Uint16Array, Int32Array, Uint32Array, Float32Array, Float64Array, BigInt64Array, BigUint64Array];

/** JSON text of a configuration value, written here (not by the package): BigInt as digits. */
const jsonText = (v) => JSON.stringify(v, (_, x) => (typeof x === 'bigint' ? `@@${x}@@` : x)).replace(/"@@(-?\d+)@@"/g, '$1');

function codec(r) {
  const pick = (xs) => xs[Math.floor(r() * xs.length)];
  const name = pick(['scale_offset', 'cf.scale_offset', 'cast_value']);
  if (name === 'cast_value') {
    const configuration = { data_type: pick(TYPES) };
    if (r() < 0.5) configuration.rounding = pick(ROUNDING);
    if (r() < 0.4) configuration.out_of_range = pick(['clamp', 'wrap']);
    return { name, configuration };
  }
  const configuration = {};
  for (const k of ['scale', 'offset']) {
    if (r() < 0.7) {
      const x = pick(NUMBERS);
      // Integers sometimes as BigInt (what int64/uint64 arrays need beyond 2^53).
      configuration[k] = Number.isInteger(x) && r() < 0.3 ? BigInt(x) : x;
    }
  }
  return { name, configuration };
}

function values(r, dataType, n) {
  const C = z.typedArrayConstructor(dataType);
  const out = new C(n);
  const bytes = new Uint8Array(out.buffer);
  for (let i = 0; i < bytes.length; i++) bytes[i] = Math.floor(r() * 256);
  // Small, valid values half the time (raw random bytes the other half: NaN codes, out-of-range
  // sub-byte codes, huge numbers).
  if (r() < 0.5) {
    const asNumber = (k) => (C === BigInt64Array || C === BigUint64Array ? BigInt(k) : k);
    for (let i = 0; i < n; i++) out[i] = asNumber(dataType.startsWith('int') || dataType.startsWith('uint') ? Math.floor(r() * 4) : Math.floor(r() * 4));
  }
  // Sub-byte types in memory: the low bits, sign-extended for int2/int4 (the API's in-memory
  // form; stored bytes, as decodeChunk reads them, may carry anything above).
  const bits = { int2: 2, int4: 4, uint2: 2, uint4: 4, float4_e2m1fn: 4, float6_e2m3fn: 6, float6_e3m2fn: 6 }[dataType];
  if (bits) {
    for (let i = 0; i < n; i++) {
      let v = bytes[i] & ((1 << bits) - 1);
      if (dataType.startsWith('int') && v & (1 << (bits - 1))) v -= 1 << bits;
      out[i] = v;
    }
  }
  return out;
}

const doc = (dataType, n, codecText) =>
  `{"zarr_format":3,"node_type":"array","shape":[${n}],"data_type":"${dataType}","chunk_grid":{"name":"regular","configuration":{"chunk_shape":[${n}]}},"chunk_key_encoding":{"name":"default"},"fill_value":${dataType === 'float8_e8m0fnu' ? '1' : '0'},"codecs":[${codecText},{"name":"bytes","configuration":{"endian":"little"}}]}`;

const bytesOf = (t) => new Uint8Array(t.buffer, t.byteOffset, t.byteLength).slice();

function outcome(f) {
  try {
    return { bytes: bytesOf(f()) };
  } catch (e) {
    if (typeof e?.code !== 'string') throw new Error(`an error without .code: ${e?.stack ?? e}`);
    return { code: e.code, message: e.message };
  }
}

test('the JS converter against the core on the same JSON text: equal or the same coded error, 0 different', () => {
  const r = rng(29);
  const n = 6;
  const counts = { equal: 0, coded: 0, wrongKind: 0, different: 0 };
  const first = [];
  const cases = 3000;
  for (let k = 0; k < cases; k++) {
    const c = codec(r);
    const dataType = TYPES[Math.floor(r() * TYPES.length)];
    const text = jsonText(c);
    const encodeDir = r() < 0.5;
    let inType = dataType;
    let bindable = true;
    try {
      inType = encodeDir ? dataType : z.encodedDataType(c, dataType);
    } catch {
      bindable = false;
    }
    const input = values(r, inType, n);
    // The core on the text: `bind` of the JSON text as it is (no value of the configuration
    // goes through the JS converter), then the same typed array.
    const ref = outcome(() => {
      const b = z.bind(text, dataType);
      return encodeDir ? b.encode(input) : b.decode(input);
    });
    // The converter: JS values, typed arrays.
    const got = outcome(() => (encodeDir ? z.encode(c, dataType, input) : z.decode(c, dataType, input)));
    // The same through a bound handle of the JS values.
    const viaBind = outcome(() => {
      const b = z.bind(c, dataType);
      return encodeDir ? b.encode(input) : b.decode(input);
    });
    const same = (x, y) => (x.bytes && y.bytes ? x.bytes.length === y.bytes.length && x.bytes.every((v, i) => v === y.bytes[i]) : Boolean(x.code) && x.code === y.code);
    if (same(got, ref) && same(viaBind, ref)) counts[got.bytes ? 'equal' : 'coded']++;
    else {
      counts.different++;
      if (first.length < 5) first.push({ text, dataType, encodeDir, input: Array.from(bytesOf(input)), got, ref, viaBind });
    }
    // And through a whole zarr.json (the document reader), where its fill value 0 passes.
    if (got.bytes && !encodeDir) {
      const chunk = outcome(() => z.decodeChunk(doc(dataType, n, text), bytesOf(input)));
      if (chunk.bytes && !same(chunk, got)) {
        counts.different++;
        if (first.length < 5) first.push({ text, dataType, chunk, got });
      }
    }
    // A typed array of the wrong kind (same element size, another kind): invalid_data.
    const C = z.typedArrayConstructor(inType);
    const Wrong = KINDS.find((K) => K !== C && K.BYTES_PER_ELEMENT === C.BYTES_PER_ELEMENT);
    if (bindable && Wrong) {
      const w = new Wrong(input.buffer.slice(0));
      const e = outcome(() => (encodeDir ? z.encode(c, dataType, w) : z.decode(c, dataType, w)));
      if (e.code === 'invalid_data' || (e.code && ref.code)) counts.wrongKind++;
      else {
        counts.different++;
        if (first.length < 5) first.push({ text, dataType, wrong: Wrong.name, e });
      }
    }
  }
  console.log(`JS converter vs the core's JSON text: ${cases} cases, ${counts.equal} equal, ${counts.coded} coded errors, ${counts.wrongKind} wrong-kind arrays refused (invalid_data), ${counts.different} different`);
  assert.equal(counts.different, 0, JSON.stringify(first, (_, x) => (typeof x === 'bigint' ? String(x) : x), 1).slice(0, 4000));
  assert.ok(counts.equal > cases / 5 && counts.coded > cases / 20 && counts.wrongKind > cases / 5, JSON.stringify(counts));
});
