// What zarrita 0.7.5 alone cannot do with these codecs, and zarrita + register does (docs/guides/browser.md,
// "Deviations"), on zarr-python 3.4.2's vectors (conformance/vectors), through zarrita's own
// API (zarr.open, zarr.get, zarr.set on an in-memory store):
//   1. write: zarrita's scale_offset and cast_value have no encode (zarr.set throws); with
//      register, zarr.set stores exactly the bytes zarr-python stores;
//   2. cast_value between two float types with a rounding other than nearest-even: zarrita
//      rejects the configuration; with register, the vectors decode and encode as zarr-python's.

import { test } from 'node:test';
import assert from 'node:assert/strict';

import * as zarr from 'zarrita';
import { register } from 'zarr-scale-offset/zarrita';

import { hexToBytes, loadFamily } from './helpers.mjs';
import { memStore, viewBytes } from './zarrita-helpers.mjs';

// One-chunk vectors (shape = chunk shape), so the chunk is `c/0` and zarr.set writes it whole.
const oneChunk = (v) => JSON.stringify(v.metadata.shape) === JSON.stringify(v.metadata.chunk_grid.configuration.chunk_shape);

const WRITE = loadFamily('scale_offset').filter((v) => v.expect === 'roundtrip' && v.metadata.data_type === 'float32' && oneChunk(v));
const FLOAT_ROUNDING = loadFamily('cast_value').filter(
  (v) => v.id.startsWith('cast_value/float64->float32/') && !v.id.includes('/nearest-even/') && ['decode_only', 'encode_only'].includes(v.expect) && oneChunk(v),
);

const TYPED = { float32: Float32Array, float64: Float64Array };

function typed(hex, dataType) {
  const bytes = hexToBytes(hex);
  return new TYPED[dataType](bytes.buffer, bytes.byteOffset, bytes.length / TYPED[dataType].BYTES_PER_ELEMENT);
}

// Opens the vector's array in a fresh in-memory store holding its zarr.json (and `c/0`).
async function openVector(v, chunk) {
  const store = memStore({ 'zarr.json': v.metadataText, ...(chunk ? { 'c/0': chunk } : {}) });
  return { store, arr: await zarr.open(store, { kind: 'array' }) };
}

async function write(v) {
  const { store, arr } = await openVector(v);
  const data = typed(v.decoded, v.metadata.data_type);
  await zarr.set(arr, null, { data, shape: [data.length], stride: [1] });
  return store.files.get('c/0');
}

async function read(v) {
  const { arr } = await openVector(v, hexToBytes(v.encoded));
  return (await zarr.get(arr)).data;
}

async function attempt(fn) {
  try {
    return { ok: true, value: await fn() };
  } catch (error) {
    let e = error;
    while (e?.cause) e = e.cause;
    return { ok: false, error: `${error.name}: ${e?.message ?? error}` };
  }
}

const hex = (bytes) => Buffer.from(viewBytes(bytes)).toString('hex');

test('zarrita 0.7.5 alone cannot write scale_offset or do float roundings other than nearest-even; with register it matches zarr-python', async (t) => {
  assert.ok(WRITE.length >= 3, `${WRITE.length} float32 scale_offset vectors`);
  assert.ok(FLOAT_ROUNDING.length >= 20, `${FLOAT_ROUNDING.length} float64->float32 rounding vectors`);

  // zarrita's built-in codecs (nothing registered yet in this process).
  const builtinWrites = await Promise.all(WRITE.map((v) => attempt(() => write(v))));
  const builtinRounding = await Promise.all(FLOAT_ROUNDING.map((v) => attempt(() => (v.expect === 'decode_only' ? read(v) : write(v)))));
  for (const r of builtinWrites) assert.equal(r.ok, false, 'zarrita wrote a scale_offset chunk');
  for (const r of builtinRounding) assert.equal(r.ok, false, 'zarrita ran a float64->float32 cast with a non-nearest-even rounding');
  t.diagnostic(`built-in: ${builtinWrites.length} of ${WRITE.length} scale_offset writes fail (${builtinWrites[0].error})`);
  t.diagnostic(`built-in: ${builtinRounding.length} of ${FLOAT_ROUNDING.length} float64->float32 rounding vectors fail (${builtinRounding[0].error})`);

  await register(zarr.registry);
  let same = 0;
  for (const v of WRITE) {
    assert.equal(hex(await write(v)), v.encoded, `${v.id}: zarr.set wrote other bytes than zarr-python`);
    same++;
  }
  for (const v of FLOAT_ROUNDING) {
    if (v.expect === 'decode_only') {
      // NaN payloads aside, bit for bit (these vectors hold no NaN other than the canonical one).
      assert.equal(hex(await read(v)), v.decoded, `${v.id}: zarr.get decoded other values than zarr-python`);
    } else {
      assert.equal(hex(await write(v)), v.encoded, `${v.id}: zarr.set stored other bytes than zarr-python`);
    }
    same++;
  }
  t.diagnostic(`register: ${same} of ${WRITE.length + FLOAT_ROUNDING.length} vectors equal to zarr-python's bytes`);
});
