// Hostile inputs to the BUILT package (what a page or a server receives from the network or from
// careless callers), in Node and in headless Chromium (Debian's /usr/bin/chromium through
// playwright-core, the setup of tests/js/browser.mjs): huge, negative, fractional and NaN shapes
// and lengths, NaN scalars, 10 MB and deeply nested JSON, wrong typed-array kinds, detached
// ArrayBuffers, things that are not typed arrays at all. Each must throw an `Error` with a
// documented `.code`, and the module must still decode a known chunk correctly afterwards.
// An array SHAPE of 2^60 elements with small chunks is valid (only a chunk is ever allocated;
// rejecting it would refuse large arrays on wasm32, where isize is 32 bits): see the test below.
// Also: bounded wasm memory over 10,000 decodes, metadata of 2^60 elements rejected before any
// allocation, and chunk lengths that do not match the shape are errors, never partial reads.
//
// The cases are one self-contained function (`hostileCases`), run as it is in Node and, through
// its source text, inside a page.

import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';

import * as z from 'zarr-scale-offset';
import { initSync } from '../../dist/zarr_scale_offset.js';
import { startBrowser } from './browser.mjs';

await z.ready();
// The glue's initSync returns the already-initialised wasm exports, memory included.
const wasmExports = initSync(); // after ready(): the instance's exports
const memoryBytes = () => wasmExports.memory.buffer.byteLength;

// The `.code` values docs/guides/javascript.md documents.
const CODES = new Set([
  'invalid_json',
  'invalid_metadata',
  'unsupported_data_type',
  'unsupported_codec',
  'out_of_range',
  'not_representable',
  'length_mismatch',
  'invalid_data',
  'not_ready',
  'read_only',
  'invalid_argument',
]);

/**
 * Every hostile case: { name, codes (the acceptable .code values), run, re? (the message must
 * match) }, plus `sanity()`, which decodes a known chunk and throws if the module misbehaves.
 * Self-contained (no outer variables): its source text also runs inside a page.
 */
function hostileCases(z) {
  const so = { name: 'scale_offset', configuration: { scale: 2 } };
  const bytesLE = { name: 'bytes', configuration: { endian: 'little' } };
  const meta = (chunk, more = {}) => ({
    zarr_format: 3,
    node_type: 'array',
    shape: Array.isArray(chunk) && chunk.length > 0 && chunk.every((d) => typeof d === 'number' && d > 0 && d < 2 ** 40) ? chunk : [4],
    data_type: 'float32',
    chunk_grid: { name: 'regular', configuration: { chunk_shape: chunk } },
    chunk_key_encoding: { name: 'default' },
    fill_value: 0,
    codecs: [so, bytesLE],
    ...more,
  });
  const ok = meta([4]);
  const detach = (buf) => {
    structuredClone(buf, { transfer: [buf] });
    return buf;
  };
  const detachedU8 = () => {
    const b = new ArrayBuffer(16);
    const v = new Uint8Array(b);
    detach(b);
    return v;
  };
  const detachedF32 = () => {
    const b = new ArrayBuffer(16);
    const v = new Float32Array(b);
    detach(b);
    return v;
  };
  const stored = () => new Uint8Array(new Float32Array([2, 4, -6, 1e30]).buffer);
  const sanity = () => {
    const got = z.decodeChunk(ok, stored());
    const want = [1, 2, -3, 5e29];
    if (!(got instanceof Float32Array) || got.length !== 4 || !want.every((v, i) => got[i] === Math.fround(v))) {
      throw new Error(`a known chunk no longer decodes correctly: ${Array.from(got ?? [])}`);
    }
  };
  const deepObject = (depth) => {
    let o = {};
    for (let i = 0; i < depth; i++) o = { a: o };
    return o;
  };
  const deepArray = (depth) => {
    let a = [];
    for (let i = 0; i < depth; i++) a = [a];
    return a;
  };
  const MD = 'invalid_metadata';
  const cases = [];
  const add = (name, codes, run, re) => cases.push({ name, codes: [].concat(codes), run, re });

  // Shapes.
  add('chunk_shape of 2^60 elements', MD, () => z.decodeChunk(meta([2 ** 60]), stored()));
  add('chunk_shape 2^30 x 2^30', MD, () => z.decodeChunk(meta([2 ** 30, 2 ** 30]), stored()));
  add('chunk_shape product beyond 2^64 names the field', MD,
    () => z.decodeChunk(meta([2 ** 32, 2 ** 32, 16]), stored()), /chunk_shape/);
  for (const bad of [[-1], [1.5], [NaN], [Infinity], [-Infinity], ['4'], [null], [0], [], 4, '4', null, {}]) {
    add(`chunk_shape ${JSON.stringify(bad)}`, MD, () => z.decodeChunk(meta(bad), stored()));
  }
  for (const bad of [[-4], [4.5], [NaN], 'x']) {
    add(`shape ${JSON.stringify(bad)}`, MD, () => z.decodeChunk({ ...ok, shape: bad }, stored()));
  }
  add('chunk of 2^27 float32 (512 MiB) given 16 bytes', 'length_mismatch',
    () => z.decodeChunk(meta([2 ** 27]), stored()));

  // Lengths that do not match the chunk.
  for (const n of [0, 1, 15, 17, 32]) {
    add(`decodeChunk with ${n} bytes`, 'length_mismatch', () => z.decodeChunk(ok, new Uint8Array(n)));
  }
  for (const n of [0, 3, 5]) {
    add(`encodeChunk with ${n} elements`, 'length_mismatch', () => z.encodeChunk(ok, new Float32Array(n)));
  }
  add('decodeChunkInto with a short out', 'length_mismatch', () => z.decodeChunkInto(ok, stored(), new Float32Array(3)));
  add('decodeInto with a long out', 'length_mismatch', () => z.decodeInto(so, 'float32', new Float32Array(4), new Float32Array(5)));

  // NaN and other non-numbers as scalars.
  add('scale NaN', MD, () => z.decode({ name: 'scale_offset', configuration: { scale: NaN } }, 'float32', new Float32Array(2)));
  add('offset Infinity', MD, () => z.decode({ name: 'scale_offset', configuration: { offset: Infinity } }, 'float64', new Float64Array(2)));
  add('scale 0', MD, () => z.decode({ name: 'scale_offset', configuration: { scale: 0 } }, 'int16', new Int16Array(2)));
  add('scale -0', MD, () => z.decode({ name: 'scale_offset', configuration: { scale: -0 } }, 'float32', new Float32Array(2)));
  add('scale "NaN" for int32', MD, () => z.decode({ name: 'scale_offset', configuration: { scale: 'NaN' } }, 'int32', new Int32Array(2)));
  add('scale as an object', MD, () => z.decode({ name: 'scale_offset', configuration: { scale: { v: 1 } } }, 'float32', new Float32Array(2)));
  add('fill_value NaN (a JS number)', MD, () => z.decodeChunk({ ...ok, fill_value: NaN }, stored()));
  add('fill_value "NaN" for int8', MD, () => z.decodeChunk({ ...ok, data_type: 'int8', fill_value: 'NaN', codecs: ['bytes'] }, new Uint8Array(4)));
  add('scalar_map key NaN (a JS number)', MD, () => z.encode(
    { name: 'cast_value', configuration: { data_type: 'uint8', scalar_map: { encode: [[NaN, 0]] } } },
    'float32', new Float32Array(2)));

  // Big and deep JSON.
  const big = JSON.stringify(meta([4], { attributes: { s: 'x'.repeat(10 * 2 ** 20) } }));
  add('10 MB of truncated JSON text', 'invalid_json', () => z.decodeChunk(big.slice(0, -2), stored()));
  add('JSON text nested 1,000,000 deep', 'invalid_json', () => z.decodeChunk('['.repeat(1e6), stored()));
  add('JSON text nested 200 deep in attributes', 'invalid_json',
    () => z.decodeChunk(JSON.stringify(meta([4])).replace('"fill_value"', `"attributes":${'['.repeat(200)}${']'.repeat(200)},"fill_value"`), stored()));
  add('metadata object nested 100,000 deep', [MD, 'invalid_json'], () => z.decodeChunk(meta([4], { attributes: deepObject(1e5) }), stored()));
  add('codecs array nested 100,000 deep', [MD, 'invalid_json'], () => z.decode(deepArray(1e5), 'float32', new Float32Array(2)));
  const circular = { ...ok };
  circular.attributes = { self: circular };
  add('circular metadata', [MD, 'invalid_json'], () => z.decodeChunk(circular, stored()));
  for (const [label, m] of [['5', 5], ['null', null], ['[]', []], ['true', true], ['undefined', undefined],
    ['a function', () => 0], ['JSON null', 'null'], ['JSON []', '[]'], ['JSON "x"', '"x"']]) {
    add(`metadata ${label}`, [MD, 'invalid_json'], () => z.decodeChunk(m, stored()));
  }

  // Wrong typed-array kinds.
  add('Float64Array for float32', 'invalid_data', () => z.encodeChunk(ok, new Float64Array(4)));
  add('Int32Array for float32', 'invalid_data', () => z.encodeChunk(ok, new Int32Array(4)));
  add('Uint8ClampedArray for uint8', 'invalid_data', () => z.encode('scale_offset', 'uint8', new Uint8ClampedArray(4)));
  add('BigInt64Array for uint64', 'invalid_data', () => z.encode('scale_offset', 'uint64', new BigInt64Array(4)));
  add('Float32Array for float16', 'invalid_data', () => z.encode('scale_offset', 'float16', new Float32Array(4)));
  add('DataView as stored bytes', 'invalid_data', () => z.decodeChunk(ok, new DataView(new ArrayBuffer(16))));
  add('Uint16Array as stored bytes', 'invalid_data', () => z.decodeChunk(ok, new Uint16Array(8)));
  add('decode with the decoded kind instead of the encoded one', 'invalid_data', () => z.decode(
    { name: 'cast_value', configuration: { data_type: 'uint8' } }, 'float32', new Float32Array(4)));
  add('decodeInto with an out of the wrong kind', 'invalid_data', () => z.decodeInto(so, 'float32', new Float32Array(4), new Float64Array(4)));
  add('int4 value 100 in an Int8Array', 'invalid_data', () => z.encode('scale_offset', 'int4', new Int8Array([100])));

  // Detached buffers.
  add('decodeChunk of a detached Uint8Array', ['length_mismatch', 'invalid_data'], () => z.decodeChunk(ok, detachedU8()));
  add('decodeChunk of a detached ArrayBuffer', ['length_mismatch', 'invalid_data'], () => z.decodeChunk(ok, detach(new ArrayBuffer(16))));
  add('encodeChunk of a detached Float32Array', ['length_mismatch', 'invalid_data'], () => z.encodeChunk(ok, detachedF32()));
  add('encode of a detached Float32Array', ['length_mismatch', 'invalid_data'], () => z.encode(so, 'float32', detachedF32()));
  add('decode of a detached Float32Array', ['length_mismatch', 'invalid_data'], () => z.decode(so, 'float32', detachedF32()));
  add('decodeInto a detached out', ['length_mismatch', 'invalid_data'], () => z.decodeInto(so, 'float32', new Float32Array(4), detachedF32()));
  add('decodeChunkInto a detached out', ['length_mismatch', 'invalid_data'], () => z.decodeChunkInto(ok, stored(), detachedF32()));

  // Not typed arrays at all.
  const fakes = [['null', null], ['undefined', undefined], ['42', 42], ['a string', 'abcd'], ['an Array', [1, 2, 3, 4]],
    ['{length: -1}', { length: -1 }], ['{length: 1.5}', { length: 1.5 }], ['{length: NaN}', { length: NaN }],
    ['a fake view', { buffer: new ArrayBuffer(16), byteOffset: 0, byteLength: 16, length: 4 }],
    ['a Symbol', Symbol('x')], ['a BigInt', 16n], ['a Promise', Promise.resolve(1)]];
  for (const [label, v] of fakes) {
    add(`encodeChunk of ${label}`, 'invalid_data', () => z.encodeChunk(ok, v));
    add(`decodeChunk of ${label}`, 'invalid_data', () => z.decodeChunk(ok, v));
    add(`decode of ${label}`, 'invalid_data', () => z.decode(so, 'float32', v));
  }
  add('encodeChunk of an ArrayBuffer', 'invalid_data', () => z.encodeChunk(ok, new ArrayBuffer(16)));

  // Data types and codecs that are not what they claim.
  for (const [label, dt] of [['NaN', NaN], ['float128', 'float128'], ['{name: 5}', { name: 5 }], ['null', null], ['an empty string', '']]) {
    add(`data type ${label}`, ['unsupported_data_type', MD, 'invalid_json'], () => z.encode('scale_offset', dt, new Float32Array(1)));
  }
  add('codecs NaN', MD, () => z.decode(NaN, 'float32', new Float32Array(1)));
  add('codec transpose', ['unsupported_codec', MD], () => z.decode('transpose', 'float32', new Float32Array(1)));
  add('codec gzip in an array->array list', ['unsupported_codec', MD], () => z.decode(['gzip'], 'float32', new Float32Array(1)));

  return { cases, sanity };
}

/** Runs one case: the `.code` it threw, or a description of what went wrong. */
function runCase(c, sanity) {
  let err;
  try {
    c.run();
  } catch (e) {
    err = e;
  }
  let problem = null;
  if (err === undefined) problem = 'nothing was thrown';
  else if (!(err instanceof Error)) problem = `threw a non-Error: ${String(err)}`;
  else if (!c.codes.includes(err.code)) problem = `threw ${err.constructor.name} with code ${err.code} (${err.message.slice(0, 160)}); want ${c.codes.join(' or ')}`;
  else if (c.re && !c.re.test(err.message)) problem = `message ${JSON.stringify(err.message.slice(0, 160))} does not match ${c.re}`;
  try {
    sanity();
  } catch (e) {
    problem = `${problem ?? 'ok'}; AND AFTERWARDS: ${e.message}`;
  }
  return { name: c.name, problem, code: err?.code };
}

const { cases, sanity } = hostileCases(z);

for (const c of cases) {
  test(`hostile (Node): ${c.name}`, () => {
    const r = runCase(c, sanity);
    assert.equal(r.problem, null, r.problem ?? '');
    assert.ok(CODES.has(r.code), `undocumented code ${r.code}`);
  });
}

test('metadata of 2^60 elements is rejected before any allocation (wasm memory unchanged)', () => {
  const m = {
    zarr_format: 3, node_type: 'array', shape: [2 ** 60], data_type: 'float64',
    chunk_grid: { name: 'regular', configuration: { chunk_shape: [2 ** 60] } },
    chunk_key_encoding: { name: 'default' }, fill_value: 0, codecs: [{ name: 'bytes', configuration: { endian: 'little' } }],
  };
  z.decodeChunk({ ...m, shape: [8], chunk_grid: { name: 'regular', configuration: { chunk_shape: [8] } } }, new Uint8Array(64));
  const before = memoryBytes();
  for (const f of [() => z.decodeChunk(m, new Uint8Array(64)), () => z.encodeChunk(m, new Float64Array(8)),
    () => z.decodeChunkInto(m, new Uint8Array(64), new Float64Array(8))]) {
    assert.throws(f, (e) => e.code === 'invalid_metadata');
  }
  assert.equal(memoryBytes(), before, 'wasm memory grew');
});

test('a chunk whose byte length does not match its shape is an error, never a partial read', () => {
  const m = {
    zarr_format: 3, node_type: 'array', shape: [1000], data_type: 'uint16',
    chunk_grid: { name: 'regular', configuration: { chunk_shape: [1000] } }, chunk_key_encoding: { name: 'default' },
    fill_value: 0, codecs: [{ name: 'bytes', configuration: { endian: 'little' } }],
  };
  for (const n of [0, 1, 1998, 1999, 2001, 2002, 4000]) {
    assert.throws(() => z.decodeChunk(m, new Uint8Array(n)), (e) => e.code === 'length_mismatch', `${n} bytes`);
    const out = new Uint16Array(1000).fill(7);
    assert.throws(() => z.decodeChunkInto(m, new Uint8Array(n), out), (e) => e.code === 'length_mismatch', `${n} bytes into`);
    assert.ok(out.every((v) => v === 7), `decodeChunkInto wrote into out for a ${n}-byte chunk`);
  }
  assert.equal(z.decodeChunk(m, new Uint8Array(2000)).length, 1000);
});

test('10 MB of valid metadata decodes', () => {
  const m = { zarr_format: 3, node_type: 'array', shape: [4], data_type: 'float32',
    chunk_grid: { name: 'regular', configuration: { chunk_shape: [4] } }, chunk_key_encoding: { name: 'default' },
    fill_value: 0, codecs: [{ name: 'scale_offset', configuration: { scale: 2 } }, { name: 'bytes', configuration: { endian: 'little' } }],
    attributes: { s: 'x'.repeat(10 * 2 ** 20) } };
  const got = z.decodeChunk(JSON.stringify(m), new Uint8Array(new Float32Array([2, 4, 6, 8]).buffer));
  assert.deepEqual(Array.from(got), [1, 2, 3, 4]);
});

test('metadata texts over 64 KiB are not kept by the bound-chain cache (wasm memory stays bounded)', () => {
  // Before the bound, the 16-entry cache kept every text: 16 x 2 MiB of keys alive for good.
  const m = { zarr_format: 3, node_type: 'array', shape: [4], data_type: 'float32',
    chunk_grid: { name: 'regular', configuration: { chunk_shape: [4] } }, chunk_key_encoding: { name: 'default' },
    fill_value: 0, codecs: [{ name: 'scale_offset', configuration: { scale: 2 } }, { name: 'bytes', configuration: { endian: 'little' } }] };
  const pad = 'x'.repeat(2 * 2 ** 20);
  const text = (i) => JSON.stringify({ ...m, attributes: { i, s: pad } });
  const stored = new Uint8Array(new Float32Array([2, 4, 6, 8]).buffer);
  for (let i = 0; i < 2; i++) z.decodeChunk(text(i), stored);
  const before = memoryBytes();
  for (let i = 2; i < 26; i++) {
    assert.deepEqual(Array.from(z.decodeChunk(text(i), stored)), [1, 2, 3, 4]);
  }
  const grown = memoryBytes() - before;
  assert.ok(grown <= 8 * 2 ** 20, `wasm memory grew by ${grown} B over 24 distinct 2 MiB metadata texts`);
});

test('decoding 10,000 chunks keeps wasm memory within 2x of its size after the first 100', () => {
  const m = { zarr_format: 3, node_type: 'array', shape: [4096], data_type: 'float32',
    chunk_grid: { name: 'regular', configuration: { chunk_shape: [4096] } }, chunk_key_encoding: { name: 'default' },
    fill_value: 'NaN', codecs: [{ name: 'scale_offset', configuration: { offset: -10, scale: 0.1 } },
      { name: 'cast_value', configuration: { data_type: 'uint16', scalar_map: { encode: [['NaN', 0]], decode: [[0, 'NaN']] } } },
      { name: 'bytes', configuration: { endian: 'little' } }] };
  const text = JSON.stringify(m);
  const stored = new Uint8Array(new Uint16Array(4096).map((_, i) => i).buffer);
  const bad = JSON.stringify({ ...m, codecs: [{ name: 'scale_offset', configuration: { offset: 1e38, scale: 1e38 } }, ...m.codecs.slice(1)] });
  let peak = 0;
  const out = new Float32Array(4096);
  for (let i = 0; i < 10_000; i++) {
    // Objects and text, fresh results and decodeChunkInto, and an error every 10th chunk.
    const v = i % 3 === 0 ? z.decodeChunk(m, stored) : i % 3 === 1 ? z.decodeChunk(text, stored) : z.decodeChunkInto(text, stored, out);
    if (v.length !== 4096 || v[1] !== Math.fround(Math.fround(1 / Math.fround(0.1)) + -10)) {
      assert.fail(`chunk ${i}: wrong values ${v[1]}`);
    }
    if (i % 10 === 5) assert.throws(() => z.encodeChunk(bad, out), (e) => CODES.has(e.code));
    if (i === 99) peak = memoryBytes();
  }
  const end = memoryBytes();
  assert.ok(end <= 2 * peak, `wasm memory ${end} B after 10,000 chunks, ${peak} B after 100`);
});

test('decodeInto with out overlapping the input (same ArrayBuffer) gives the values of decode() or throws', () => {
  // Silent corruption otherwise: the output of one tile overwrites input not yet read.
  const n = 40_000;
  const codec = { name: 'cast_value', configuration: { data_type: 'uint8' } };
  const so = { name: 'scale_offset', configuration: { scale: 2 } };
  const cases = [
    ['uint8 -> float32 at the same offset', codec, () => {
      const buf = new ArrayBuffer(n * 4);
      const input = new Uint8Array(buf, 0, n);
      for (let i = 0; i < n; i++) input[i] = i % 251;
      return [input, new Float32Array(buf, 0, n)];
    }],
    ['float32 -> float32, out one element ahead', so, () => {
      const buf = new ArrayBuffer((n + 1) * 4);
      const input = new Float32Array(buf, 0, n);
      for (let i = 0; i < n; i++) input[i] = i;
      return [input, new Float32Array(buf, 4, n)];
    }],
  ];
  for (const [label, c, make] of cases) {
    const [input, out] = make();
    const want = z.decode(c, 'float32', input.slice());
    let threw = null;
    try {
      z.decodeInto(c, 'float32', input, out);
    } catch (e) {
      threw = e;
    }
    if (threw) {
      assert.ok(CODES.has(threw.code), `${label}: ${threw}`);
      continue;
    }
    let wrong = 0;
    for (let i = 0; i < n; i++) if (!Object.is(out[i], want[i])) wrong++;
    assert.equal(wrong, 0, `${label}: ${wrong} of ${n} elements silently wrong`);
  }
});

// ---------------------------------------------------------------------------------------------
// The same cases in headless Chromium, through the package served over HTTP.

let browser;
before(async () => {
  browser = await startBrowser();
});
after(async () => {
  await browser?.close();
});

test('hostile cases in headless Chromium: every one a coded Error, the module still decodes, memory bounded', async () => {
  const page = await browser.ctx.newPage();
  await page.goto(`${browser.base}/package.json`);
  const results = await page.evaluate(
    async ({ casesSrc, runSrc, codes }) => {
      const z = await import('/dist/index.js');
      await z.ready();
      const glue = await import('/dist/zarr_scale_offset.js');
      const memory = glue.initSync().memory;
      const hostileCases = new Function(`return (${casesSrc})`)();
      const runCase = new Function(`return (${runSrc})`)();
      const { cases, sanity } = hostileCases(z);
      const out = cases.map((c) => runCase(c, sanity)).map((r) => ({
        ...r,
        problem: r.problem ?? (codes.includes(r.code) ? null : `undocumented code ${r.code}`),
      }));
      // Memory over 10,000 decodes.
      const m = { zarr_format: 3, node_type: 'array', shape: [4096], data_type: 'float32',
        chunk_grid: { name: 'regular', configuration: { chunk_shape: [4096] } }, chunk_key_encoding: { name: 'default' },
        fill_value: 0, codecs: [{ name: 'scale_offset', configuration: { scale: 2 } }, { name: 'bytes', configuration: { endian: 'little' } }] };
      const stored = new Uint8Array(4096 * 4);
      let peak = 0;
      for (let i = 0; i < 10_000; i++) {
        z.decodeChunk(m, stored);
        if (i === 99) peak = memory.buffer.byteLength;
      }
      out.push({ name: 'memory over 10,000 decodes', problem: memory.buffer.byteLength <= 2 * peak ? null : `${memory.buffer.byteLength} B vs ${peak} B after 100` });
      return out;
    },
    { casesSrc: hostileCases.toString(), runSrc: runCase.toString(), codes: [...CODES] },
  );
  assert.equal(results.length, cases.length + 1);
  const failed = results.filter((r) => r.problem !== null);
  assert.deepEqual(failed, [], failed.map((r) => `${r.name}: ${r.problem}`).join('\n'));
  await page.close();
});

test('an array shape of 2^60 elements with small chunks decodes (only the chunk is allocated)', () => {
  const meta = {
    zarr_format: 3, node_type: 'array', shape: [2 ** 60], data_type: 'float32',
    chunk_grid: { name: 'regular', configuration: { chunk_shape: [4] } },
    chunk_key_encoding: { name: 'default' }, fill_value: 0,
    codecs: [{ name: 'bytes', configuration: { endian: 'little' } }],
  };
  assert.equal(z.validate(meta).valid, true);
  const out = z.decodeChunk(meta, new Uint8Array(new Float32Array([1, 2, 3, 4]).buffer));
  assert.deepEqual(Array.from(out), [1, 2, 3, 4]);
});
