// Issue 12 through the built package (Node): the cap on chain length (class 6) reaches every
// entry point with `.code` invalid_metadata, the limit and the pointer in the message; duplicate
// keys inside ignored members are found at their pointers; `"astype": null` in
// numcodecs.fixedscaleoffset (as zarrs writes it) reads as numcodecs reads it (class 8).
// Expected values are written out or come from the explicit form, never from the code under test
// alone.

import { test } from 'node:test';
import assert from 'node:assert/strict';

import * as z from 'zarr-scale-offset';

await z.ready();

const BYTES = { name: 'bytes', configuration: { endian: 'little' } };
const doc = (n, dataType, codecs, extra = {}) => ({
  zarr_format: 3,
  node_type: 'array',
  shape: [n],
  data_type: dataType,
  chunk_grid: { name: 'regular', configuration: { chunk_shape: [n] } },
  chunk_key_encoding: { name: 'default' },
  fill_value: 0,
  codecs,
  ...extra,
});
const halve = { name: 'scale_offset', configuration: { offset: 0, scale: 2 } };
const cast = { name: 'cast_value', configuration: { data_type: 'int16' } };
const stored = new Uint8Array(new Int16Array([0, 6]).buffer);

test('64 array->array codecs bind and decode; 65 are invalid_metadata everywhere', () => {
  const ok = [...Array(63).fill(halve), cast];
  const m = doc(2, 'float64', [...ok, BYTES]);
  assert.equal(z.validate(m).valid, true);
  // 6 halved 63 times: exact in float64.
  assert.deepEqual(z.decodeChunk(m, stored), new Float64Array([0, 6 / 2 ** 63]));
  assert.equal(z.bind(ok, 'float64').encodedDataType, 'int16');
  assert.equal(z.encodedDataType(ok, 'float64'), 'int16');

  const over = [...Array(64).fill(halve), cast];
  const msg = 'a chain may have at most 64 array->array codecs; this one has 65';
  const bad = doc(2, 'float64', [...over, BYTES]);
  const r = z.validate(bad);
  assert.equal(r.valid, false);
  assert.deepEqual(r.errors, [{ path: '/codecs/64', code: 'invalid_metadata', message: msg }]);
  assert.deepEqual(z.validate(over, 'float64').errors[0].path, '/64');
  const coded = (e) => e.code === 'invalid_metadata' && e.message.includes(msg);
  assert.throws(() => z.decodeChunk(bad, stored), (e) => coded(e) && e.message.includes('/codecs/64'));
  assert.throws(() => z.bind(over, 'float64'), coded);
  assert.throws(() => z.decode(over, 'float64', new Int16Array([0, 6])), coded);
  assert.throws(() => z.encodedDataType(over, 'float64'), coded);
  // The 100,000 codecs: refused (over the value cap), not 3.6 s per chunk.
  const huge = doc(2, 'float64', [...Array(100000).fill(halve), cast, BYTES]);
  assert.throws(() => z.decodeChunk(huge, stored), (e) => e.code === 'invalid_metadata');
});

test('duplicate keys inside ignored members: invalid_metadata at their pointers', () => {
  const m = JSON.stringify(doc(2, 'float64', [BYTES])).slice(0, -1) +
    ',"attributes":{"a":[0,{"k":1,"k":2}],"b":{"x":{"y":1,"y":2}},"a":1}' +
    ',"ext":{"must_understand":false,"v":[{"q":0,"q":0}]}}';
  const r = z.validate(m);
  assert.deepEqual(
    r.errors.map((e) => [e.path, e.code]),
    [
      ['/attributes/a', 'invalid_metadata'],
      ['/attributes/a/1/k', 'invalid_metadata'],
      ['/attributes/b/x/y', 'invalid_metadata'],
      ['/ext/v/0/q', 'invalid_metadata'],
    ],
  );
  assert.throws(() => z.decodeChunk(m, new Uint8Array(16)), (e) => e.code === 'invalid_metadata' && e.message.includes('/attributes/a'));
});

test('numcodecs.fixedscaleoffset with "astype": null (zarrs) reads as astype = dtype', () => {
  const fso = (astype) => ({ name: 'numcodecs.fixedscaleoffset', configuration: { offset: 1000.0, scale: 10.0, dtype: '<f4', astype } });
  const nul = doc(4, 'float32', [fso(null), BYTES]);
  const explicit = doc(4, 'float32', [fso('<f4'), BYTES]);
  const enc = new Uint8Array(new Float32Array([0, 5, -10, 20]).buffer);
  assert.deepEqual(z.decodeChunk(nul, enc), new Float32Array([1000, 1000.5, 999, 1002]));
  // Bit-exact against the explicit form over 65,536 float32 codes (every 65,537th bit pattern).
  const n = 65536;
  const codes = new Uint32Array(n).map((_, i) => Math.imul(i, 65537) >>> 0);
  const bytes = new Uint8Array(codes.buffer);
  const a = z.decodeChunk(doc(n, 'float32', [fso(null), BYTES]), bytes);
  const b = z.decodeChunk(doc(n, 'float32', [fso('<f4'), BYTES]), bytes);
  assert.deepEqual(new Uint32Array(a.buffer), new Uint32Array(b.buffer));
  const w = z.metadataWarnings(nul);
  assert.deepEqual(w[0], {
    pointer: '/codecs/0/configuration/astype',
    message: 'astype is null; numcodecs reads it as dtype; write "astype": "float32"',
  });
  assert.equal(w.length, z.metadataWarnings(explicit).length + 1);
  assert.equal(z.validate(nul).valid, true);
  // The v2 filter form.
  const zarray = {
    zarr_format: 2, shape: [4], chunks: [4], dtype: '<f4', compressor: null, fill_value: 0, order: 'C',
    filters: [{ id: 'fixedscaleoffset', offset: 1000, scale: 10, dtype: '<f4', astype: null }],
  };
  assert.deepEqual(z.decodeChunk(zarray, enc), new Float32Array([1000, 1000.5, 999, 1002]));
  assert.equal(z.metadataWarnings(zarray)[0].pointer, '/filters/0/astype');
  assert.deepEqual(
    z.fromFixedScaleOffset({ offset: 1000, scale: 10, dtype: '<f4', astype: null }),
    z.fromFixedScaleOffset({ offset: 1000, scale: 10, dtype: '<f4', astype: '<f4' }),
  );
});
