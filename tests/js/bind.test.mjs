// bind() of the BUILT package (imported by name, as users do): values against expectations
// computed here with plain JS arithmetic, the fill value flowing through the codecs (cast_value
// included), errors with their codes and JSON pointers, one handle reused for many chunks, the
// typed-array conventions, tiling and overlap of encode/decode, and free().

import { test, before } from 'node:test';
import assert from 'node:assert/strict';

import * as z from 'zarr-scale-offset';
import { throwsCode } from './helpers.mjs';

before(() => z.ready());

// Round half to even, for |y| < 2^52 (floor and the subtraction are exact there).
function roundHalfEven(y) {
  const f = Math.floor(y);
  const d = y - f;
  if (d !== 0.5) return d < 0.5 ? f : f + 1;
  return f % 2 === 0 ? f : f + 1;
}

const SO_CAST = [
  { name: 'scale_offset', configuration: { offset: 273.15, scale: 100 } },
  { name: 'cast_value', configuration: { data_type: 'int16', rounding: 'nearest-even' } },
];
// (x - 273.15) * 100 in float64, then round half to even into int16 (or null: out of range).
const soCast = (x) => {
  const y = roundHalfEven((x - 273.15) * 100);
  return y >= -32768 && y <= 32767 ? y : null;
};
// int16 -> float64 exactly, then c / 100 + 273.15 in float64.
const soCastBack = (c) => c / 100 + 273.15;

// A small deterministic generator (LCG) for chunk contents.
function rng(seed) {
  let s = seed >>> 0;
  return () => (s = (Math.imul(s, 1664525) + 1013904223) >>> 0) / 2 ** 32;
}

test('bind: encode/decode values equal plain float64 arithmetic; data types and fill reported', () => {
  const b = z.bind(SO_CAST, 'float64', { fill: 273.15 });
  assert.equal(b.decodedDataType, 'float64');
  assert.equal(b.encodedDataType, 'int16');
  assert.equal(b.encodedFill, 0);
  assert.equal(b.encodedFillText, '0');
  const xs = [273.15, 0, 300, 250.125, 500, 273.155, -0, 100.005];
  const enc = b.encode(new Float64Array(xs));
  assert.ok(enc instanceof Int16Array);
  assert.deepEqual(Array.from(enc), xs.map(soCast));
  const codes = new Int16Array([0, -27315, 2685, -32768, 32767, 1]);
  const dec = b.decode(codes);
  assert.ok(dec instanceof Float64Array);
  assert.deepEqual(Array.from(dec), Array.from(codes, soCastBack));
  // The same as the one-shot API.
  assert.deepEqual(b.encode(new Float64Array(xs)), z.encode(SO_CAST, 'float64', new Float64Array(xs)));
  assert.deepEqual(b.decode(codes), z.decode(SO_CAST, 'float64', codes));
  b.free();
});

test('bind: float32 scale_offset computes in float32 per operation (Math.fround after each step)', () => {
  const b = z.bind({ name: 'scale_offset', configuration: { offset: 5, scale: 0.1 } }, 'float32');
  const f = Math.fround;
  const next = rng(7);
  const xs = new Float32Array(4096).map(() => (next() * 2 - 1) * 1000);
  xs.set([1, 2.5, 3.3, 1e-3, 123.456, -7.77]);
  const enc = b.encode(xs);
  const want = Float32Array.from(xs, (x) => f(f(x - 5) * f(0.1)));
  assert.deepEqual(new Int32Array(enc.buffer), new Int32Array(want.buffer));
  const back = b.decode(enc);
  const wantBack = Float32Array.from(enc, (y) => f(f(y / f(0.1)) + 5));
  assert.deepEqual(new Int32Array(back.buffer), new Int32Array(wantBack.buffer));
  assert.equal(b.encodedFill, null, 'no fill value bound');
  assert.equal(b.encodedFillText, null);
});

test('bind: the fill value flows through scale_offset and cast_value, in every form', () => {
  // 1.5 * 2 = 3 (float64), then cast_value to int8.
  const two = [{ name: 'scale_offset', configuration: { scale: 2 } }, { name: 'cast_value', configuration: { data_type: 'int8' } }];
  assert.equal(z.bind(two, 'float64', { fill: 1.5 }).encodedFill, 3);
  // NaN through the scalar_map of the docs example (docs/guides/javascript.md).
  const nanMap = [
    { name: 'scale_offset', configuration: { offset: -10, scale: 0.1 } },
    { name: 'cast_value', configuration: { data_type: 'uint8', scalar_map: { encode: [['NaN', 0]], decode: [[0, 'NaN']] } } },
  ];
  for (const opts of [{ fill: NaN }, { fill: 'NaN' }, { fillText: '"NaN"' }]) {
    const b = z.bind(nanMap, 'float64', opts);
    assert.equal(b.encodedFill, 0, JSON.stringify(opts));
    assert.equal(b.encodedFillText, '0');
  }
  // 100 -> (100 + 10) * 0.1 = 11.000000000000002 in float64 -> 11 (nearest-even) as uint8.
  assert.equal(z.bind(nanMap, 'float64', { fill: 100 }).encodedFill, roundHalfEven((100 + 10) * 0.1));
  // Raw-bit types: the element is raw bits, the text the value.
  const bf = z.bind({ name: 'cast_value', configuration: { data_type: 'bfloat16' } }, 'float32', { fill: 1.5 });
  assert.equal(bf.encodedDataType, 'bfloat16');
  assert.equal(bf.encodedFill, 0x3fc0); // 1.5 = 0 01111111 1000000
  assert.equal(bf.encodedFillText, '1.5');
  assert.equal(z.bind([], 'bfloat16', { fill: '0x3fc0' }).encodedFillText, '1.5', 'hex string, empty codecs list');
  const e4 = z.bind({ name: 'cast_value', configuration: { data_type: 'float8_e4m3' } }, 'float64', { fill: -1.5 });
  assert.equal(e4.encodedFill, 0xbc); // -1.5 = 1 0111 100 (bias 7)
  assert.equal(e4.encodedFillText, '-1.5');
  // int4: sign-extended in an Int8Array element.
  const i4 = z.bind({ name: 'cast_value', configuration: { data_type: 'int4' } }, 'float32', { fill: -3 });
  assert.equal(i4.encodedFill, -3);
  assert.equal(i4.encodedFillText, '-3');
  // int64 beyond 2^53: BigInt in, BigInt and exact text out; a number 2**62 is taken exactly.
  const i64 = z.bind({ name: 'scale_offset', configuration: { offset: 1 } }, 'int64', { fill: 2n ** 62n + 1n });
  assert.equal(i64.encodedFill, 2n ** 62n);
  assert.equal(i64.encodedFillText, '4611686018427387904');
  assert.equal(z.bind([], 'int64', { fill: 2 ** 62 }).encodedFill, 2n ** 62n);
  // -0 stays -0 in a float type, and is 0 in an integer one.
  const neg0 = z.bind({ name: 'cast_value', configuration: { data_type: 'float16' } }, 'float64', { fill: -0 });
  assert.equal(neg0.encodedFillText, '-0.0');
  assert.equal(z.bind([], 'int8', { fill: -0 }).encodedFillText, '0');
  // A handle's encoded fill, given on as fillText, binds the next codecs exactly.
  const next = z.bind({ name: 'scale_offset', configuration: { offset: -1 } }, i64.encodedDataType, { fillText: i64.encodedFillText });
  assert.equal(next.encodedFill, 2n ** 62n + 1n);
  // numcodecs.fixedscaleoffset does not carry the fill value (as in zarr-python).
  const fso = z.bind({ name: 'numcodecs.fixedscaleoffset', configuration: { scale: 10, offset: 0, dtype: '<f8', astype: '<i2' } }, 'float64', { fill: 0 });
  assert.equal(fso.encodedDataType, 'int16');
  assert.equal(fso.encodedFill, null);
  assert.equal(fso.encodedFillText, null);
});

test('bind: fromCF codecs bound to its data type and fill give back the _FillValue', () => {
  const cf = z.fromCF({ scale_factor: 0.01, add_offset: 273.15, _FillValue: -32767 }, 'int16');
  const arrayCodecs = cf.codecs.filter((c) => c.name !== 'bytes');
  const b = z.bind(arrayCodecs, cf.data_type, { fill: cf.fill_value });
  assert.equal(b.encodedDataType, 'int16');
  assert.equal(b.encodedFill, -32767);
  const stored = new Int16Array([-32767, 0, 100]);
  const values = b.decode(stored);
  assert.ok(Number.isNaN(values[0]));
  assert.deepEqual(Array.from(values.subarray(1)), [0 * 0.01 + 273.15, 100 * 0.01 + 273.15]);
});

test('bind: a fill value a codec cannot carry is invalid_metadata at that codec', () => {
  let e = throwsCode(
    () => z.bind([{ name: 'scale_offset' }, { name: 'cast_value', configuration: { data_type: 'uint8' } }], 'float32', { fill: 0.5 }),
    'invalid_metadata',
    /^\/1: invalid fill value 0\.5 for cast_value: it does not survive the cast_value round trip/,
  );
  // A lone codec is the root of its argument.
  e = throwsCode(() => z.bind({ name: 'cast_value', configuration: { data_type: 'uint8' } }, 'float64', { fill: NaN }), 'invalid_metadata', /^\(root\): invalid fill value NaN for cast_value/);
  throwsCode(
    () => z.bind([{ name: 'cast_value', configuration: { data_type: 'uint8', out_of_range: 'clamp' } }], 'float64', { fill: 300 }),
    'invalid_metadata',
    /^\/0: invalid fill value 300/,
  );
  throwsCode(
    () => z.bind([{ name: 'scale_offset', configuration: { offset: 100, scale: 200 } }], 'int16', { fill: 300 }),
    'invalid_metadata',
    /^\/0: the fill value 300 cannot pass through scale_offset/,
  );
  // The same codecs bind without that fill value.
  assert.equal(z.bind([{ name: 'scale_offset', configuration: { offset: 100, scale: 200 } }], 'int16').encodedDataType, 'int16');
  void e;
});

test('bind: errors have codes, and JSON pointers into the codecs argument', () => {
  throwsCode(
    () => z.bind([{ name: 'cast_value', configuration: { data_type: 'int8' } }, { name: 'scale_offset', configuration: { scale: 0 } }], 'float32'),
    'invalid_metadata',
    /^\/1\/configuration\/scale: scale must be non-zero/,
  );
  throwsCode(() => z.bind({ name: 'scale_offset', configuration: { scale: 2, bogus: 1 } }, 'int16'), 'invalid_metadata', /^\/configuration\/bogus: /);
  throwsCode(() => z.bind(['scale_offset', 'bytes'], 'int16'), 'invalid_metadata', /^\/1: .*array->array codecs only/);
  throwsCode(() => z.bind('transpose', 'int16'), 'unsupported_codec', /transpose/);
  throwsCode(() => z.bind('gzip', 'int16'), 'invalid_metadata', /array->array codecs only/);
  throwsCode(() => z.bind('[{"name":', 'int16'), 'invalid_json');
  throwsCode(() => z.bind('scale_offset', 'bool'), 'unsupported_data_type', /bool/);
  throwsCode(() => z.bind(42, 'int16'), 'invalid_metadata', /codecs must be/);
  // The fill value is an argument of its own: its errors say "fill value:".
  throwsCode(() => z.bind('scale_offset', 'int16', { fill: 1.5 }), 'invalid_metadata', /^fill value: 1\.5 is not an integer/);
  throwsCode(() => z.bind('scale_offset', 'uint8', { fill: 256 }), 'invalid_metadata', /^fill value: /);
  throwsCode(() => z.bind('scale_offset', 'float32', { fill: true }), 'invalid_metadata', /^fill value: /);
  throwsCode(() => z.bind('scale_offset', 'float32', { fill: 'hello' }), 'invalid_metadata', /^fill value: /);
  throwsCode(() => z.bind('scale_offset', 'float32', { fillText: 'NaN' }), 'invalid_json', /^fill value: /);
  throwsCode(() => z.bind('scale_offset', 'float32', { fill: 1, fillText: '1' }), 'invalid_metadata', /not both/);
  throwsCode(() => z.bind('scale_offset', 'float32', { fillText: 1 }), 'invalid_metadata', /fillText must be JSON text/);
  throwsCode(() => z.bind('scale_offset', 'float32', 'NaN'), 'invalid_metadata', /options must be an object/);
  // The data type is checked before the fill value.
  throwsCode(() => z.bind('scale_offset', 'complex64', { fill: true }), 'unsupported_data_type');
});

test('bind: typed-array checks, lengths and element errors as for encode/decode', () => {
  const b = z.bind(SO_CAST, 'float64');
  throwsCode(() => b.encode(new Float32Array(2)), 'invalid_data', /^encode\(\): expected a Float64Array for data type float64, got a Float32Array/);
  throwsCode(() => b.decode(new Float64Array(2)), 'invalid_data', /^decode\(\): expected an Int16Array for data type int16/);
  throwsCode(() => b.decode([1, 2]), 'invalid_data', /an Array of length 2/);
  throwsCode(() => b.encodeInto(new Float64Array(2), new Int16Array(3)), 'length_mismatch');
  throwsCode(() => b.decodeInto(new Int16Array(2), new Float32Array(2)), 'invalid_data', /^decodeInto\(\)/);
  throwsCode(() => b.encodeInto(new Float64Array(2), new Uint16Array(2)), 'invalid_data', /^encodeInto\(\)/);
  throwsCode(() => b.encode(new Float64Array([300, 1e6])), 'out_of_range', /element 1/);
  // An invalid in-memory int4 value.
  const b4 = z.bind({ name: 'cast_value', configuration: { data_type: 'float32' } }, '{"name":"int4"}');
  assert.equal(b4.decodedDataType, 'int4', 'the canonical name');
  throwsCode(() => b4.encode(new Int8Array([100])), 'invalid_data', /element 0/);
  assert.deepEqual(Array.from(b4.encode(new Int8Array([-8, 7]))), [-8, 7]);
  // A detached buffer.
  const data = new Float64Array(4);
  structuredClone(data.buffer, { transfer: [data.buffer] });
  throwsCode(() => b.encode(data), 'invalid_data', /detached/);
});

test('bind: one handle encodes and decodes many chunks (into reused buffers too)', () => {
  const b = z.bind(SO_CAST, 'float64', { fill: 273.15 });
  const next = rng(42);
  const pool = new Float64Array(1000);
  let total = 0;
  for (let chunk = 0; chunk < 300; chunk++) {
    const n = 1 + Math.floor(next() * 999);
    const xs = Float64Array.from({ length: n }, () => Math.round(next() * 60000) / 100);
    const want = Array.from(xs, soCast);
    const enc = chunk % 2 ? b.encode(xs) : b.encodeInto(xs, new Int16Array(n));
    assert.deepEqual(Array.from(enc), want, `chunk ${chunk}`);
    const out = pool.subarray(0, n);
    assert.equal(b.decodeInto(enc, out), out);
    assert.deepEqual(Array.from(out), want.map(soCastBack), `chunk ${chunk}`);
    total += n;
  }
  assert.ok(total > 100_000);
});

test('bind: chunks larger than a tile, an error in a later tile names its chunk index', () => {
  const b = z.bind(SO_CAST, 'float64');
  const n = 300_000; // more than two 131,072-element tiles
  const xs = Float64Array.from({ length: n }, (_, i) => 200 + (i % 6000) / 20);
  const enc = b.encode(xs);
  for (const i of [0, 131_071, 131_072, 262_144, n - 1]) assert.equal(enc[i], soCast(xs[i]), `element ${i}`);
  const back = b.decode(enc);
  for (const i of [0, 131_072, n - 1]) assert.equal(back[i], soCastBack(enc[i]), `element ${i}`);
  xs[200_000] = 1e9;
  throwsCode(() => b.encode(xs), 'out_of_range', /element 200000/);
});

test('bind: input and output sharing memory (decodeInto, encodeInto) give the right values', () => {
  // float32 -> float32 in place: the output overwrites the input it is read from.
  const b = z.bind({ name: 'scale_offset', configuration: { offset: 1, scale: 2 } }, 'float32');
  const a = new Float32Array([1, 2, 3, 4, 5]);
  b.encodeInto(a, a);
  assert.deepEqual(Array.from(a), [0, 2, 4, 6, 8]);
  b.decodeInto(a, a);
  assert.deepEqual(Array.from(a), [1, 2, 3, 4, 5]);
  // Overlapping views shifted by one element.
  const buf = new Float32Array([10, 20, 30, 40, 50, 60]);
  b.decodeInto(buf.subarray(0, 5), buf.subarray(1, 6));
  assert.deepEqual(Array.from(buf), [10, 6, 11, 16, 21, 26]);
});

test('bind: free() releases the handle; later calls throw not_ready; Symbol.dispose frees too', () => {
  const b = z.bind('scale_offset', 'int16');
  assert.deepEqual(Array.from(b.encode(new Int16Array([3]))), [3]);
  b.free();
  b.free(); // idempotent
  throwsCode(() => b.encode(new Int16Array(1)), 'not_ready', /freed/);
  throwsCode(() => b.decodeInto(new Int16Array(1), new Int16Array(1)), 'not_ready', /freed/);
  // What it was bound to stays readable.
  assert.equal(b.encodedDataType, 'int16');
  if (typeof Symbol.dispose === 'symbol') {
    const c = z.bind('scale_offset', 'int16');
    c[Symbol.dispose]();
    throwsCode(() => c.decode(new Int16Array(1)), 'not_ready');
  }
  // Many handles bound and freed in turn, each with its own fill value (i / 4 * 4 is exact, so
  // it survives cast_value's round trip, which 0.01 steps through offset 273.15 would not).
  const quarters = [{ name: 'scale_offset', configuration: { scale: 4 } }, { name: 'cast_value', configuration: { data_type: 'int16' } }];
  for (let i = 0; i < 2000; i++) {
    const h = z.bind(quarters, 'float64', { fill: i / 4 });
    assert.equal(h.encodedFill, i);
    h.free();
  }
});
