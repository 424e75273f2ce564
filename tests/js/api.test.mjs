// API tests of the BUILT package, imported by its name exactly as users import it: readiness,
// every typed-array kind in and out, argument forms, and the `.code` of every bad input.

import { test } from 'node:test';
import assert from 'node:assert/strict';

import * as z from 'zarr-scale-offset';
import { DTYPE_NAMES, bytesOf, throwsCode } from './helpers.mjs';

const HAS_FLOAT16 = typeof globalThis.Float16Array === 'function';

function meta(dataType, n, codecs, fill = 0) {
  return {
    zarr_format: 3,
    node_type: 'array',
    shape: [n],
    data_type: dataType,
    chunk_grid: { name: 'regular', configuration: { chunk_shape: [n] } },
    chunk_key_encoding: { name: 'default', configuration: { separator: '/' } },
    fill_value: fill,
    codecs,
    attributes: {},
  };
}

const BYTES_LE = { name: 'bytes', configuration: { endian: 'little' } };

// Expected typed-array kind per data type (DESIGN.md), in this runtime.
const KIND = {
  int2: Int8Array,
  int4: Int8Array,
  int8: Int8Array,
  uint2: Uint8Array,
  uint4: Uint8Array,
  uint8: Uint8Array,
  int16: Int16Array,
  uint16: Uint16Array,
  int32: Int32Array,
  uint32: Uint32Array,
  int64: BigInt64Array,
  uint64: BigUint64Array,
  float16: HAS_FLOAT16 ? globalThis.Float16Array : Uint16Array,
  bfloat16: Uint16Array,
  float32: Float32Array,
  float64: Float64Array,
};
for (const n of DTYPE_NAMES) if (/^float[468]_/.test(n)) KIND[n] = Uint8Array;

// A few valid in-memory values per kind (finite, not -0, in range of every type of that kind).
function samples(name) {
  switch (name) {
    case 'int2':
      return new Int8Array([-2, -1, 0, 1]);
    case 'int4':
      return new Int8Array([-8, -1, 0, 7]);
    case 'uint2':
      return new Uint8Array([0, 1, 2, 3]);
    case 'uint4':
      return new Uint8Array([0, 1, 8, 15]);
    case 'float4_e2m1fn':
      return new Uint8Array([0x00, 0x01, 0x02, 0x07]);
    case 'float6_e2m3fn':
    case 'float6_e3m2fn':
      return new Uint8Array([0x00, 0x01, 0x08, 0x1f]);
    case 'float8_e8m0fnu':
      return new Uint8Array([0x70, 0x7f, 0x80, 0xfe]);
    case 'bfloat16':
      return new Uint16Array([0x0000, 0x3f80, 0x7f7f, 0xbf80]);
    case 'float16':
      return HAS_FLOAT16 ? new globalThis.Float16Array([0, 1, 65504, -1]) : new Uint16Array([0x0000, 0x3c00, 0x7bff, 0xbc00]);
    case 'int64':
      return new BigInt64Array([-(2n ** 63n), -1n, 0n, 2n ** 63n - 1n]);
    case 'uint64':
      return new BigUint64Array([0n, 1n, 2n ** 63n, 2n ** 64n - 1n]);
    case 'float32':
      return new Float32Array([0, 1.5, -3.25, 3.4028234663852886e38]);
    case 'float64':
      return new Float64Array([0, 0.1, -1e300, 5e-324]);
    case 'int8':
      return new Int8Array([-128, -1, 0, 127]);
    case 'uint8':
      return new Uint8Array([0, 1, 128, 255]);
    case 'int16':
      return new Int16Array([-32768, -1, 0, 32767]);
    case 'uint16':
      return new Uint16Array([0, 1, 32768, 65535]);
    case 'int32':
      return new Int32Array([-2147483648, -1, 0, 2147483647]);
    case 'uint32':
      return new Uint32Array([0, 1, 2147483648, 4294967295]);
    default:
      assert.ok(name.startsWith('float8'), name);
      return new Uint8Array([0x00, 0x01, 0x38, 0x40]);
  }
}

// ---------------------------------------------------------------------------------------------

test('calling before ready() resolved throws not_ready', () => {
  assert.equal(z.isReady(), false);
  throwsCode(() => z.encode('scale_offset', 'float32', new Float32Array(1)), 'not_ready', /ready\(\)/);
  throwsCode(() => z.decode('scale_offset', 'float32', new Float32Array(1)), 'not_ready');
  throwsCode(() => z.encodeChunk(meta('uint8', 1, [BYTES_LE]), new Uint8Array(1)), 'not_ready');
  throwsCode(() => z.decodeChunk(meta('uint8', 1, [BYTES_LE]), new Uint8Array(1)), 'not_ready');
  throwsCode(() => z.typedArrayKind('int4'), 'not_ready');
  throwsCode(() => z.version(), 'not_ready');
});

test('ready() is idempotent and returns one Promise', async () => {
  const p1 = z.ready();
  const p2 = z.ready();
  assert.ok(p1 instanceof Promise);
  assert.equal(p1, p2);
  assert.equal(await p1, undefined);
  assert.equal(z.isReady(), true);
  assert.equal(z.ready(), p1);
  assert.match(z.version(), /^\d+\.\d+\.\d+/);
});

test('typedArrayKind / typedArrayConstructor for all 26 data types', () => {
  assert.equal(DTYPE_NAMES.length, 26);
  for (const name of DTYPE_NAMES) {
    assert.equal(z.typedArrayConstructor(name), KIND[name], name);
    assert.equal(z.typedArrayKind(name), KIND[name].name, name);
    assert.equal(z.typedArrayKind({ name }), KIND[name].name, `${name} (object form)`);
    assert.equal(z.typedArrayKind(JSON.stringify(name)), KIND[name].name, `${name} (JSON text)`);
  }
  assert.equal(z.typedArrayKind('float16'), HAS_FLOAT16 ? 'Float16Array' : 'Uint16Array');
  throwsCode(() => z.typedArrayKind('complex64'), 'unsupported_data_type', /complex64/);
  throwsCode(() => z.typedArrayKind('bool'), 'unsupported_data_type');
});

test('every typed-array kind in and out: identity scale_offset, typed-array and chunk APIs', () => {
  for (const name of DTYPE_NAMES) {
    const data = samples(name);
    const Ctor = KIND[name];
    assert.ok(data instanceof Ctor, `${name}: test sample kind`);
    const before = bytesOf(data).slice();
    for (const codecs of ['scale_offset', '"scale_offset"', { name: 'scale_offset' }, [{ name: 'scale_offset' }], ['scale_offset'], '[{"name":"scale_offset"}]']) {
      const enc = z.encode(codecs, name, data);
      assert.ok(enc instanceof Ctor, `${name} encode(${JSON.stringify(codecs)}) returned ${enc?.constructor?.name}`);
      assert.deepEqual(bytesOf(enc), before, `${name}: identity encode`);
      assert.notEqual(enc.buffer, data.buffer, `${name}: result must not alias the input`);
      const dec = z.decode(codecs, name, enc);
      assert.ok(dec instanceof Ctor, `${name} decode returned ${dec?.constructor?.name}`);
      assert.deepEqual(bytesOf(dec), before, `${name}: identity decode`);
    }
    assert.deepEqual(bytesOf(data), before, `${name}: the input must not be modified`);
    assert.equal(z.encodedDataType('scale_offset', name), name);

    const m = meta(name, data.length, ['scale_offset', BYTES_LE], name === 'float8_e8m0fnu' ? 1.0 : 0);
    for (const md of [m, JSON.stringify(m)]) {
      const stored = z.encodeChunk(md, data);
      assert.ok(stored instanceof Uint8Array, `${name}: encodeChunk returns a Uint8Array`);
      // The bytes codec writes sub-byte and 4/6-bit values in the low bits (upper bits arbitrary).
      const bits = { int2: 2, uint2: 2, int4: 4, uint4: 4, float4_e2m1fn: 4, float6_e2m3fn: 6, float6_e3m2fn: 6 }[name];
      const low = (b) => (bits ? b.map((x) => x & ((1 << bits) - 1)) : b);
      assert.deepEqual(low(stored), low(before), `${name}: stored bytes`);
      const back = z.decodeChunk(md, stored);
      assert.ok(back instanceof Ctor, `${name}: decodeChunk returned ${back?.constructor?.name}`);
      assert.deepEqual(bytesOf(back), before, `${name}: decodeChunk`);
      const back2 = z.decodeChunk(md, stored.buffer.slice(stored.byteOffset, stored.byteOffset + stored.byteLength));
      assert.deepEqual(bytesOf(back2), before, `${name}: decodeChunk from an ArrayBuffer`);
      const shared = new SharedArrayBuffer(stored.byteLength);
      new Uint8Array(shared).set(stored);
      assert.deepEqual(bytesOf(z.decodeChunk(md, shared)), before, `${name}: decodeChunk from a SharedArrayBuffer`);
    }
    assert.equal(z.arrayDataType(m), name);
  }
});

test('float16: Uint16Array of raw bits without Float16Array (Node 20); both kinds accepted where it exists', () => {
  const bits = new Uint16Array([0x3c00, 0xc000, 0x7e00]);
  const out = z.decode('scale_offset', 'float16', bits);
  if (HAS_FLOAT16) {
    assert.ok(out instanceof globalThis.Float16Array);
    const f = new globalThis.Float16Array([1, -2]);
    assert.ok(z.encode('scale_offset', 'float16', f) instanceof globalThis.Float16Array);
  } else {
    assert.ok(out instanceof Uint16Array);
    assert.deepEqual([...out.subarray(0, 2)], [0x3c00, 0xc000]);
  }
});

test('encoded kinds follow the encoded data type (cast_value)', () => {
  const cast = (t, extra = {}) => ({ name: 'cast_value', configuration: { data_type: t, ...extra } });
  const f64 = new Float64Array([1, 2, 3, 100]);
  const cases = [
    ['int8', Int8Array],
    ['uint8', Uint8Array],
    ['int16', Int16Array],
    ['uint16', Uint16Array],
    ['int32', Int32Array],
    ['uint32', Uint32Array],
    ['int64', BigInt64Array],
    ['uint64', BigUint64Array],
    ['float32', Float32Array],
    ['float16', KIND.float16],
  ];
  for (const [t, Ctor] of cases) {
    assert.equal(z.encodedDataType(cast(t), 'float64'), t);
    const enc = z.encode(cast(t), 'float64', f64);
    assert.ok(enc instanceof Ctor, `float64 -> ${t}: got ${enc?.constructor?.name}`);
    if (Ctor === BigInt64Array || Ctor === BigUint64Array) assert.deepEqual([...enc], [1n, 2n, 3n, 100n]);
    else if (Ctor !== Uint16Array || t === 'uint16') assert.deepEqual([...enc], [1, 2, 3, 100]);
    const dec = z.decode(cast(t), 'float64', enc);
    assert.ok(dec instanceof Float64Array);
    assert.deepEqual([...dec], [1, 2, 3, 100]);
  }
  // A chain: scale_offset in float32, then cast to uint8.
  const chain = [{ name: 'scale_offset', configuration: { offset: 10, scale: 0.5 } }, cast('uint8')];
  const enc = z.encode(chain, 'float32', new Float32Array([10, 12, 20]));
  assert.ok(enc instanceof Uint8Array);
  assert.deepEqual([...enc], [0, 1, 5]);
  assert.deepEqual([...z.decode(chain, 'float32', enc)], [10, 12, 20]);
});

test('views with an offset into a larger buffer are read in place; results are fresh and aligned', () => {
  const buf = new ArrayBuffer(64);
  const view = new Float64Array(buf, 16, 3);
  view.set([1.5, -2, 3]);
  const out = z.encode({ name: 'scale_offset', configuration: { scale: 2 } }, 'float64', view);
  assert.deepEqual([...out], [3, -4, 6]);
  assert.equal(out.byteOffset, 0);
  assert.equal(out.buffer.byteLength, out.byteLength);
  const u8 = new Uint8Array(buf, 3, 4); // odd offset
  u8.set([1, 2, 3, 4]);
  assert.deepEqual([...z.encode('scale_offset', 'uint8', u8)], [1, 2, 3, 4]);
  const stored = new Uint8Array(33);
  stored.set(new Uint8Array(new Float64Array([7, 8, 9, 10]).buffer), 1);
  const m = meta('float64', 4, ['scale_offset', BYTES_LE]);
  const dec = z.decodeChunk(m, stored.subarray(1)); // unaligned stored bytes
  assert.ok(dec instanceof Float64Array);
  assert.deepEqual([...dec], [7, 8, 9, 10]);
});

test('wrong typed-array kinds and non-typed-array input throw invalid_data', () => {
  const e = throwsCode(() => z.encode('scale_offset', 'float64', new Float32Array(2)), 'invalid_data');
  assert.match(e.message, /Float64Array/);
  assert.match(e.message, /Float32Array/);
  throwsCode(() => z.encode('scale_offset', 'float32', [1, 2, 3]), 'invalid_data', /Array/);
  throwsCode(() => z.encode('scale_offset', 'float32', new ArrayBuffer(8)), 'invalid_data', /ArrayBuffer/);
  throwsCode(() => z.encode('scale_offset', 'float32', new DataView(new ArrayBuffer(8))), 'invalid_data');
  throwsCode(() => z.encode('scale_offset', 'float32', null), 'invalid_data', /null/);
  throwsCode(() => z.encode('scale_offset', 'float32', undefined), 'invalid_data', /undefined/);
  throwsCode(() => z.encode('scale_offset', 'uint8', new Uint8ClampedArray(2)), 'invalid_data', /Uint8ClampedArray/);
  throwsCode(() => z.encode('scale_offset', 'int4', new Uint8Array(2)), 'invalid_data', /Int8Array.*int4|int4.*Int8Array/);
  throwsCode(() => z.encode('scale_offset', 'int64', new Float64Array(2)), 'invalid_data', /BigInt64Array/);
  throwsCode(() => z.encode('scale_offset', 'uint64', new BigInt64Array(2)), 'invalid_data', /BigUint64Array/);
  throwsCode(() => z.encode('scale_offset', 'bfloat16', new Float32Array(2)), 'invalid_data', /Uint16Array/);
  throwsCode(() => z.encode('scale_offset', 'float8_e4m3', new Int8Array(2)), 'invalid_data', /Uint8Array/);
  if (!HAS_FLOAT16) throwsCode(() => z.encode('scale_offset', 'float16', new Float32Array(2)), 'invalid_data', /Uint16Array/);
  // decode checks the kind of the ENCODED data type.
  const toU8 = { name: 'cast_value', configuration: { data_type: 'uint8' } };
  throwsCode(() => z.decode(toU8, 'float32', new Float32Array(2)), 'invalid_data', /Uint8Array.*uint8/);
  // encodeChunk checks the array data type; decodeChunk takes raw bytes.
  const m = meta('int16', 2, ['scale_offset', BYTES_LE]);
  throwsCode(() => z.encodeChunk(m, new Uint16Array(2)), 'invalid_data', /Int16Array/);
  throwsCode(() => z.decodeChunk(m, new Int16Array(2)), 'invalid_data', /Uint8Array/);
  throwsCode(() => z.decodeChunk(m, 'abcd'), 'invalid_data');
});

test('malformed JSON text throws invalid_json', () => {
  throwsCode(() => z.encode('{"name": "scale_offset"', 'float32', new Float32Array(1)), 'invalid_json');
  throwsCode(() => z.encode('[{"name":"scale_offset"},]', 'float32', new Float32Array(1)), 'invalid_json');
  throwsCode(() => z.decodeChunk('{"zarr_format": 3,', new Uint8Array(0)), 'invalid_json');
  throwsCode(() => z.encodeChunk('not json', new Uint8Array(0)), 'invalid_json');
  throwsCode(() => z.encode('scale_offset', '{"name": ', new Float32Array(1)), 'invalid_json');
});

test('unknown codec throws unsupported_codec', () => {
  throwsCode(() => z.encode('no_such_codec', 'float32', new Float32Array(1)), 'unsupported_codec', /no_such_codec/);
  throwsCode(() => z.encode({ name: 'no_such_codec' }, 'float32', new Float32Array(1)), 'unsupported_codec');
  throwsCode(() => z.decode([{ name: 'scale_offset' }, { name: 'nope' }], 'float32', new Float32Array(1)), 'unsupported_codec');
  // A bytes->bytes codec this package does not implement, in a whole chunk.
  const m = meta('float32', 1, ['scale_offset', BYTES_LE, { name: 'gzip', configuration: { level: 1 } }]);
  throwsCode(() => z.decodeChunk(m, new Uint8Array(4)), 'unsupported_codec', /gzip/);
});

test('unsupported data type throws unsupported_data_type', () => {
  throwsCode(() => z.encode('scale_offset', 'complex64', new Float32Array(2)), 'unsupported_data_type', /complex64/);
  throwsCode(() => z.decode('scale_offset', { name: 'bool' }, new Uint8Array(2)), 'unsupported_data_type');
  throwsCode(() => z.decodeChunk(meta('string', 1, ['bytes']), new Uint8Array(1)), 'unsupported_data_type');
  throwsCode(() => z.encode('scale_offset', 42, new Float32Array(2)), 'unsupported_data_type');
});

test('invalid metadata throws invalid_metadata', () => {
  const bad = { name: 'scale_offset', configuration: { offset: 1, bogus: true } };
  throwsCode(() => z.encode(bad, 'float32', new Float32Array(1)), 'invalid_metadata', /bogus/);
  throwsCode(() => z.encode({ name: 'scale_offset', configuration: { scale: 0 } }, 'float32', new Float32Array(1)), 'invalid_metadata');
  throwsCode(() => z.encode(null, 'float32', new Float32Array(1)), 'invalid_metadata');
  throwsCode(() => z.decodeChunk(42, new Uint8Array(0)), 'invalid_metadata');
});

test('wrong length throws length_mismatch', () => {
  const m = meta('float32', 4, ['scale_offset', BYTES_LE]);
  throwsCode(() => z.decodeChunk(m, new Uint8Array(12)), 'length_mismatch');
  throwsCode(() => z.decodeChunk(m, new Uint8Array(17)), 'length_mismatch');
  throwsCode(() => z.encodeChunk(m, new Float32Array(3)), 'length_mismatch');
  throwsCode(() => z.encodeChunk(JSON.stringify(m), new Float32Array(5)), 'length_mismatch');
});

test('integer overflow throws out_of_range; inexact integer decode throws not_representable', () => {
  throwsCode(
    () => z.encode({ name: 'scale_offset', configuration: { offset: 1 } }, 'uint8', new Uint8Array([5, 0])),
    'out_of_range',
  );
  throwsCode(() => z.encode({ name: 'scale_offset', configuration: { scale: 2 } }, 'int8', new Int8Array([64])), 'out_of_range');
  throwsCode(
    () => z.encode({ name: 'scale_offset', configuration: { scale: 4 } }, 'int64', new BigInt64Array([2n ** 62n])),
    'out_of_range',
  );
  throwsCode(
    () => z.decode({ name: 'scale_offset', configuration: { scale: -1 } }, 'int64', new BigInt64Array([-(2n ** 63n)])),
    'out_of_range',
  );
  throwsCode(() => z.encode({ name: 'cast_value', configuration: { data_type: 'uint8' } }, 'float32', new Float32Array([300])), 'out_of_range');
  throwsCode(() => z.decode({ name: 'scale_offset', configuration: { scale: 2 } }, 'int8', new Int8Array([1])), 'not_representable');
  throwsCode(() => z.decode({ name: 'scale_offset', configuration: { scale: 3 } }, 'uint64', new BigUint64Array([2n ** 64n - 2n])), 'not_representable');
  throwsCode(() => z.encode({ name: 'cast_value', configuration: { data_type: 'int32' } }, 'float64', new Float64Array([NaN])), 'not_representable');
});

test('int64 offset 2^62 + 1 stays exact: JSON text and BigInt values; a JS number is its double\'s exact value', () => {
  const big = 2n ** 62n + 1n; // 4611686018427387905, not representable as a JS number
  const x = new BigInt64Array([big, big + 7n, 0n]);
  const text = '{"name":"scale_offset","configuration":{"offset":4611686018427387905}}';
  const viaText = z.encode(text, 'int64', x);
  assert.ok(viaText instanceof BigInt64Array);
  assert.deepEqual([...viaText], [0n, 7n, -big]);
  assert.deepEqual([...z.decode(text, 'int64', viaText)], [...x]);

  const obj = { name: 'scale_offset', configuration: { offset: big } };
  assert.equal(z.toJsonText(obj), text);
  assert.deepEqual([...z.encode(obj, 'int64', x)], [0n, 7n, -big]);

  // uint64 near 2^64 in the whole-chunk metadata, as BigInt values (offset and fill value).
  const u = 2n ** 64n - 3n;
  const m = meta('uint64', 2, [{ name: 'scale_offset', configuration: { offset: u } }, BYTES_LE], u);
  const stored = z.encodeChunk(m, new BigUint64Array([u, u + 2n]));
  assert.deepEqual([...new BigUint64Array(stored.buffer)], [0n, 2n]);
  assert.deepEqual([...z.decodeChunk(m, stored)], [u, u + 2n]);

  // A JS number 2^62 + 1 is already the double 2^62: it is written as that double's exact value
  // (4611686018427387904), not as JSON.stringify's shortest decimal 4611686018427388000, which
  // is another integer.
  const rounded = { name: 'scale_offset', configuration: { offset: Number(big) } };
  assert.equal(z.toJsonText(rounded), '{"name":"scale_offset","configuration":{"offset":4611686018427387904}}');
  const o = 2n ** 62n;
  assert.deepEqual([...z.encode(rounded, 'int64', x)], [big - o, big + 7n - o, -o]);
});

test('toJsonText: BigInt as exact integers, JSON.stringify rules otherwise', () => {
  assert.equal(z.toJsonText({ a: 1n, b: [1, 'x', null, undefined], c: undefined, d: -(2n ** 70n) }), '{"a":1,"b":[1,"x",null,null],"d":-1180591620717411303424}');
  assert.equal(z.toJsonText({ n: NaN, s: 'NaN' }), '{"n":null,"s":"NaN"}');
  const cyclic = {};
  cyclic.self = cyclic;
  throwsCode(() => z.toJsonText(cyclic), 'invalid_metadata', /circular/);
});

test('metadataWarnings: lenient forms with their JSON pointer; [] when strict', () => {
  const strict = meta('float32', 2, ['scale_offset', BYTES_LE], 'Infinity');
  assert.deepEqual(z.metadataWarnings(strict), []);
  assert.deepEqual(z.metadataWarnings(JSON.stringify(strict)), []);
  const lenient = meta('float32', 2, ['scale_offset', BYTES_LE], '+Infinity');
  const ws = z.metadataWarnings(lenient);
  assert.ok(ws.length >= 1, 'a warning for "+Infinity"');
  assert.ok(ws.some((w) => w.pointer === '/fill_value'), JSON.stringify(ws));
  for (const w of ws) {
    assert.equal(typeof w.pointer, 'string');
    assert.equal(typeof w.message, 'string');
    assert.ok(w.message.length > 0);
  }
  throwsCode(() => z.metadataWarnings('{"zarr_format":'), 'invalid_json');
});
