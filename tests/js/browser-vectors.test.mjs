// The conformance vectors through zarrita + register inside Chromium (which, unlike Node 20, has
// Float16Array, so zarrita can hold float16 arrays there): every vector whose array data type
// zarrita holds is read with zarr.get and written with zarr.set from an in-memory store in the
// page, and compared here with the oracle's bytes (any NaN equals any NaN; only the low bits of
// stored sub-byte values count).

import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';

import * as z from 'zarr-scale-offset';

import { startBrowser, watchErrors } from './browser.mjs';
import { loadFamily, hexToBytes, storedToMemory, compareMemory, DTYPES } from './helpers.mjs';

const FAMILIES = ['scale_offset', 'cast_value', 'chains', 'exotic', 'cf', 'cf_scale_offset', 'fixedscaleoffset'];
const HOLDS = new Set(['int8', 'int16', 'int32', 'int64', 'uint8', 'uint16', 'uint32', 'uint64', 'float16', 'float32', 'float64']);

let b;
before(async () => {
  await z.ready();
  b = await startBrowser();
});
after(async () => {
  await b?.close();
});

const lossy = (text) => (text.match(/(?<![\w.])-?\d{16,}(?![.\deE])/g) ?? []).some((t) => BigInt(t) !== BigInt(Number(t)));

test('Chromium: every vector zarrita can hold (float16 included) read and written through zarrita + register', async (t) => {
  const vectors = FAMILIES.flatMap(loadFamily).filter(
    (v) => HOLDS.has(v.metadata.data_type) && !v.metadata.codecs.some((c) => typeof c === 'string') && !lossy(v.metadataText),
  );
  const page = await b.ctx.newPage();
  const errors = watchErrors(page);
  await page.goto(`${b.base}/www/?fixtures=0`);
  await page.waitForSelector('body[data-state="done"]');
  const input = vectors.map((v) => ({ id: v.id, expect: v.expect, metadataText: v.metadataText, decoded: v.decoded, encoded: v.encoded, dtype: v.metadata.data_type }));
  const results = await page.evaluate(async (input) => {
    const zarr = await import('zarrita');
    const { register } = await import('/dist/zarrita.js');
    await register(zarr.registry);
    const hex = (u8) => Array.from(u8, (x) => x.toString(16).padStart(2, '0')).join('');
    const unhex = (h) => Uint8Array.from(h.match(/../g) ?? [], (x) => parseInt(x, 16));
    const store = (files) => ({ files, async get(k) { return files.get(k.replace(/^\//, '')); }, async set(k, v) { files.set(k.replace(/^\//, ''), new Uint8Array(v)); } });
    const CTOR = { int8: Int8Array, int16: Int16Array, int32: Int32Array, int64: BigInt64Array, uint8: Uint8Array, uint16: Uint16Array, uint32: Uint32Array, uint64: BigUint64Array, float16: globalThis.Float16Array, float32: Float32Array, float64: Float64Array };
    const why = (e) => { const p = []; for (let x = e; x && p.length < 3; x = x.cause) p.push(`${x.name}${x.code ? `[${x.code}]` : ''}: ${x.message}`); return p.join(' <- '); };
    const out = [];
    for (const v of input) {
      const r = { id: v.id };
      const meta = new TextEncoder().encode(v.metadataText);
      if (['roundtrip', 'decode_only', 'decode_error'].includes(v.expect)) {
        try {
          const files = new Map([['zarr.json', meta]]);
          if (v.encoded !== undefined) files.set('c/0', unhex(v.encoded));
          const arr = await zarr.open(store(files), { kind: 'array' });
          const { data } = await zarr.get(arr);
          r.read = hex(new Uint8Array(data.buffer, data.byteOffset, data.byteLength));
          r.kind = data.constructor.name;
        } catch (e) {
          r.readError = why(e);
        }
      }
      if (['roundtrip', 'encode_only', 'encode_error'].includes(v.expect)) {
        try {
          const files = new Map([['zarr.json', meta]]);
          const arr = await zarr.open(store(files), { kind: 'array' });
          const bytes = unhex(v.decoded);
          const data = new CTOR[v.dtype](bytes.buffer);
          await zarr.set(arr, null, { data, shape: [data.length], stride: [1] });
          r.written = hex(files.get('c/0'));
        } catch (e) {
          r.writeError = why(e);
        }
      }
      out.push(r);
    }
    return { float16: typeof Float16Array === 'function', out };
  }, input);
  assert.equal(results.float16, true, 'Chromium has Float16Array');
  const failures = [];
  let f16 = 0;
  for (const [i, r] of results.out.entries()) {
    const v = vectors[i];
    const dtype = v.metadata.data_type;
    if (dtype === 'float16') f16++;
    if (v.expect === 'decode_error' && r.readError === undefined) failures.push(`${v.id}: decode should fail`);
    if (['roundtrip', 'decode_only'].includes(v.expect)) {
      if (r.readError) failures.push(`${v.id}: decode failed: ${r.readError}`);
      else {
        const d = compareMemory(hexToBytes(r.read), hexToBytes(v.decoded), dtype);
        if (d) failures.push(`${v.id}: decode: ${d}`);
        if (dtype === 'float16' && r.kind !== 'Float16Array') failures.push(`${v.id}: float16 read into ${r.kind}`);
      }
    }
    if (v.expect === 'encode_error' && r.writeError === undefined) failures.push(`${v.id}: encode should fail`);
    if (['roundtrip', 'encode_only'].includes(v.expect)) {
      if (r.writeError) failures.push(`${v.id}: encode failed: ${r.writeError}`);
      else {
        const enc = v.metadata.codecs.find((c) => c === 'bytes' || c?.name === 'bytes');
        const endian = enc?.configuration?.endian ?? 'little';
        const stored = z.encodedDataType(v.arrayCodecsText, dtype);
        const d = compareMemory(storedToMemory(hexToBytes(r.written), stored, endian), storedToMemory(hexToBytes(v.encoded), stored, endian), stored, { lowBits: DTYPES[stored].bits < 8 });
        if (d) failures.push(`${v.id}: encode: ${d}`);
      }
    }
  }
  t.diagnostic(`${vectors.length} vectors in Chromium (${f16} with float16 arrays), ${failures.length} failures`);
  assert.deepEqual(failures.slice(0, 20), []);
  assert.ok(f16 > 50);
  assert.deepEqual(errors, []);
  await page.close();
});
