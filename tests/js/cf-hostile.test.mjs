// openCF and keepV2Filters as a hostile user and a new user meet them (issues 22 and 21), over the
// built package:
//
//   issue 22, one test per broken promise:
//   1. a string attribute is never read as a number (no JSON injection through marker strings);
//   2. a short or long chunk, a corrupt shard index: length_mismatch, never zeros or a cut, in
//      selections too;
//   3. keepV2Filters (alone or under withConsolidatedMetadata) changes no number spelling of other
//      arrays, and openCF reads float64 for a sibling's scale_factor 2.0 behind it;
//   4. openCF(openCF(a)) is openCF(a); its attrs carry no CF attributes;
//   5. a 10 MB attribute string;
//   6. a store whose get() returns a number or {}: invalid_argument;
//   7. openCF options that are a revoked Proxy or have a throwing getter: invalid_argument + cause;
//   8. keepV2Filters(null) / ({}): a TypeError with .code invalid_argument;
//   items 1-3 also in headless Chromium;
//   issue 21: the consolidated stores xarray writes by default (tests/fixtures/cf_stores/
//   cf_scale2_*_consolidated.zarr, v3 and v2) opened plain and through withConsolidatedMetadata
//   equal xr.open_zarr's values and dtype; the error hints.

import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import path from 'node:path';

import * as zarr from 'zarrita';
import * as z from 'zarr-scale-offset';
import { register, openCF, keepV2Filters } from 'zarr-scale-offset/zarrita';

import { FIXTURES } from './helpers.mjs';
import { memStore, dirStore, compareArrays, viewBytes } from './zarrita-helpers.mjs';
import { startBrowser } from './browser.mjs';

before(async () => {
  await register(zarr.registry);
});

const coded = (code, re) => (e) => {
  assert.equal(e.code, code, `${e.name}: ${e.message}`);
  if (re) assert.match(e.message, re);
  return true;
};

// A v3 int16 array document, attributes as JSON text; chunks of `chunk` elements.
function v3Doc(attributesText, { n = 4, chunk = n, dataType = 'int16', codecs = '[{"name":"bytes","configuration":{"endian":"little"}}]' } = {}) {
  return `{"zarr_format":3,"node_type":"array","shape":[${n}],"data_type":"${dataType}","chunk_grid":{"name":"regular","configuration":{"chunk_shape":[${chunk}]}},"chunk_key_encoding":{"name":"default"},"fill_value":0,"codecs":${codecs},"attributes":${attributesText}}`;
}
const CODES = viewBytes(new Int16Array([-3, 0, 7, 32767]));

// ---------------------------------------------------------------------------------------------
// issue 22

// The documents of item 1 (also run in Chromium): [attributes text, what openCF must do].
const INJECTION = [
  String.raw`{"scale_factor": "\u0000zso-number:2,\"add_offset\":1000"}`,
  String.raw`{"scale_factor": "\u0000zso-number:2"}`,
  String.raw`{"scale_factor": 2.0, "_FillValue": "\u0000zso-number:0"}`,
  '{"scale_factor": "2"}',
];

test('22.1: a string attribute is a string, whatever it holds: invalid_metadata, never a number or an injected add_offset', async () => {
  for (const attrs of INJECTION) {
    const arr = await zarr.open(memStore({ 'zarr.json': v3Doc(attrs), 'c/0': CODES }), { kind: 'array' });
    await assert.rejects(openCF(arr), coded('invalid_metadata'), attrs);
  }
});

test('22.2: a short or long chunk file and a corrupt shard index are length_mismatch through openCF, whole and in selections', async () => {
  const store = memStore({
    'zarr.json': v3Doc('{"scale_factor": 2.0}', { chunk: 2 }),
    'c/0': viewBytes(new Int16Array([1, 2])),
    'c/1': viewBytes(new Int16Array([3])), // 1 of its 2 elements
  });
  const arr = await openCF(await zarr.open(store, { kind: 'array' }));
  await assert.rejects(zarr.get(arr), coded('length_mismatch', /chunk \[1\].*1 elements.*needs 2.*truncated/));
  await assert.rejects(zarr.get(arr, [zarr.slice(2, 3)]), coded('length_mismatch'));
  assert.deepEqual(Array.from((await zarr.get(arr, [zarr.slice(0, 2)])).data), [2, 4]);
  store.files.set('c/1', viewBytes(new Int16Array([3, 4, 5]))); // one too many
  await assert.rejects(zarr.get(arr), coded('length_mismatch', /3 elements.*needs 2.*Range requests/));
  // a shard of 2 inner chunks of 2 whose index gives the second inner chunk 2 bytes, not 4
  const inner = viewBytes(new Int16Array([1, 2, 3, 4]));
  const index = viewBytes(new BigUint64Array([0n, 4n, 4n, 2n]));
  const shardCodecs = '[{"name":"sharding_indexed","configuration":{"chunk_shape":[2],"codecs":[{"name":"bytes","configuration":{"endian":"little"}}],"index_codecs":[{"name":"bytes","configuration":{"endian":"little"}}],"index_location":"end"}}]';
  const shard = new Uint8Array(inner.length + index.length);
  shard.set(inner);
  shard.set(index, inner.length);
  const sharded = memStore({ 'zarr.json': v3Doc('{"scale_factor": 2.0}', { codecs: shardCodecs }), 'c/0': shard });
  const s = await openCF(await zarr.open(sharded, { kind: 'array' }));
  await assert.rejects(zarr.get(s), coded('length_mismatch'));
  await assert.rejects(zarr.get(s, [zarr.slice(2, 4)]), coded('length_mismatch'));
});

// A v2 consolidated store with a fixedscaleoffset array `f` and a CF-packed sibling `x`
// (scale_factor 2.0), every document as xarray indents it.
function v2FilteredStore() {
  const zarrayX = '{\n    "chunks": [4],\n    "compressor": null,\n    "dtype": "<i2",\n    "fill_value": null,\n    "filters": null,\n    "order": "C",\n    "shape": [4],\n    "zarr_format": 2\n}';
  const zarrayF = '{"chunks": [4], "compressor": null, "dtype": "<f8", "fill_value": 0.0, "filters": [{"id": "fixedscaleoffset", "scale": 10.0, "offset": 0.0, "dtype": "<f8", "astype": "<i2"}], "order": "C", "shape": [4], "zarr_format": 2}';
  const attrsX = '{\n    "scale_factor": 2.0\n}';
  const zmetadata = `{\n    "metadata": {\n        ".zgroup": {"zarr_format": 2},\n        "f/.zarray": ${zarrayF},\n        "f/.zattrs": {"big": 1.0E+300},\n        "x/.zarray": ${zarrayX},\n        "x/.zattrs": ${attrsX}\n    },\n    "zarr_consolidated_format": 1\n}`;
  return memStore({
    '.zgroup': '{"zarr_format": 2}', '.zmetadata': zmetadata,
    'x/.zarray': zarrayX, 'x/.zattrs': attrsX, 'x/0': CODES,
    'f/.zarray': zarrayF, 'f/.zattrs': '{}', 'f/0': viewBytes(new Int16Array([1, 2, 3, 4])),
  });
}

test('22.3: keepV2Filters changes only the filter entries, and openCF reads scale_factor 2.0 of a sibling as float64 behind it', async () => {
  const raw = v2FilteredStore();
  const kept = keepV2Filters(raw);
  const served = new TextDecoder().decode(await kept.get('/.zmetadata'));
  assert.match(served, /"x\/\.zattrs": \{\n {4}"scale_factor": 2\.0\n\}/, served);
  assert.match(served, /"big": 1\.0E\+300/);
  assert.match(served, /"id":"fixedscaleoffset\.v2"/);
  // the text as stored, but for the value of f/.zarray (written anew, the filter renamed)
  const text = new TextDecoder().decode(raw.files.get('.zmetadata'));
  const from = text.indexOf('"f/.zarray":') + '"f/.zarray":'.length;
  const to = text.indexOf(',\n        "f/.zattrs"');
  const f = JSON.parse(text.slice(from, to));
  const renamed = JSON.stringify({ ...f, filters: [{ ...f.filters[0], id: 'fixedscaleoffset.v2' }] });
  assert.equal(served, text.slice(0, from) + renamed + text.slice(to));
  for (const [name, store] of [['keepV2Filters', keepV2Filters(v2FilteredStore())], ['withConsolidatedMetadata(keepV2Filters)', await zarr.withConsolidatedMetadata(keepV2Filters(v2FilteredStore()))]]) {
    const x = await openCF(await zarr.open(zarr.root(store).resolve('x'), { kind: 'array' }));
    assert.equal(x.dtype, 'float64', name);
    assert.deepEqual(Array.from((await zarr.get(x)).data), [-6, 0, 14, 65534], name);
    const f = await zarr.open(zarr.root(store).resolve('f'), { kind: 'array' });
    assert.deepEqual(Array.from((await zarr.get(f)).data), [0.1, 0.2, 0.3, 0.4], name);
  }
});

test('22.4: openCF(openCF(a)) returns its argument; its attrs are the unpacked view\'s', async () => {
  const arr = await zarr.open(memStore({ 'zarr.json': v3Doc('{"scale_factor": 2.0, "add_offset": 0.0, "units": "K"}'), 'c/0': CODES }), { kind: 'array' });
  const once = await openCF(arr);
  const twice = await openCF(once);
  assert.equal(twice, once);
  assert.deepEqual(Array.from((await zarr.get(twice)).data), [-6, 0, 14, 65534]);
  assert.deepEqual(twice.attrs, { units: 'K' });
});

test('22.5: a valid zarr.json with a 10 MB attribute string opens', async () => {
  const big = 'x'.repeat(10 * 1024 * 1024);
  const arr = await zarr.open(memStore({ 'zarr.json': v3Doc(`{"history": "${big}", "scale_factor": 2.0}`), 'c/0': CODES }), { kind: 'array' });
  const f = await openCF(arr);
  assert.equal(f.dtype, 'float64');
  assert.deepEqual(Array.from((await zarr.get(f)).data), [-6, 0, 14, 65534]);
});

test('22.6: a store whose get() returns a number or {} for zarr.json: invalid_argument', async () => {
  for (const bad of [42, {}]) {
    const good = memStore({ 'zarr.json': v3Doc('{"scale_factor": 2.0}'), 'c/0': CODES });
    const arr = await zarr.open(good, { kind: 'array' });
    good.files.set('zarr.json', bad);
    await assert.rejects(openCF(arr), coded('invalid_argument', /get\("\/zarr\.json"\) returned/));
  }
});

test('22.7: openCF options that are a revoked Proxy or have a throwing getter: invalid_argument with the original as cause', async () => {
  const arr = await zarr.open(memStore({ 'zarr.json': v3Doc('{"scale_factor": 2.0}'), 'c/0': CODES }), { kind: 'array' });
  const { proxy, revoke } = Proxy.revocable({}, {});
  revoke();
  const boom = new Error('boom');
  for (const options of [proxy, { get consolidated() { throw boom; } }]) {
    await assert.rejects(openCF(arr, options), (e) => coded('invalid_argument')(e) && e.cause instanceof Error);
  }
  await assert.rejects(openCF(arr, { get zarrFormat() { throw boom; } }), (e) => e.cause === boom);
});

test('22.8: keepV2Filters(null), ({}) and a revoked Proxy: a TypeError with code invalid_argument', () => {
  const { proxy, revoke } = Proxy.revocable({}, {});
  revoke();
  for (const bad of [null, {}, undefined, 1, proxy]) {
    assert.throws(() => keepV2Filters(bad), (e) => e instanceof TypeError && coded('invalid_argument', /keepV2Filters\(store\)/)(e));
  }
});

// ---------------------------------------------------------------------------------------------
// issue 21: xarray's default output, consolidated

const CF_STORES = path.join(FIXTURES, 'cf_stores');
const CONSOLIDATED = ['cf_scale2_i16_v3_consolidated.zarr', 'cf_scale2_fill_i16_v3_consolidated.zarr', 'cf_scale2_i16_v2_consolidated.zarr', 'cf_scale2_fill_i16_v2_consolidated.zarr'];

function expected(name) {
  const dir = path.join(CF_STORES, name);
  return { meta: JSON.parse(readFileSync(path.join(dir, 'expected.json'), 'utf8')), bytes: new Uint8Array(readFileSync(path.join(dir, 'expected.bin'))) };
}

test('21.1: the consolidated stores xarray 2026.9 writes by default (v3 and v2, scale_factor 2.0 with and without _FillValue) read as xr.open_zarr, plain and through withConsolidatedMetadata', async () => {
  for (const name of CONSOLIDATED) {
    const exp = expected(name);
    for (const wrap of [false, true]) {
      const raw = dirStore(path.join(CF_STORES, name));
      const store = wrap ? await zarr.withConsolidatedMetadata(raw, { format: exp.meta.zarr_format === 3 ? 'v3' : 'v2' }) : raw;
      const what = `${name}${wrap ? ' through withConsolidatedMetadata' : ''}`;
      const arr = await openCF(await zarr.open(zarr.root(store).resolve(exp.meta.variable), { kind: 'array' }));
      assert.equal(arr.dtype, exp.meta.data_type, what);
      const { data, shape } = await zarr.get(arr);
      assert.deepEqual(shape, exp.meta.shape, what);
      assert.equal(data.constructor.name, 'Float64Array', what);
      const c = compareArrays(viewBytes(data), exp.bytes, exp.meta.data_type);
      assert.ok(c.equal, `${what}: ${c.differ} differ, e.g. ${JSON.stringify(c.first)}`);
      assert.equal(Array.from(data).filter(Number.isNaN).length, exp.meta.nan_count, what);
    }
  }
});

test('21.4a: a v2 fixedscaleoffset array with a NaN fill read without keepV2Filters: the error names keepV2Filters', async () => {
  const zarray = JSON.stringify({ zarr_format: 2, shape: [4], chunks: [4], dtype: '<f8', fill_value: 'NaN', order: 'C', compressor: null, filters: [{ id: 'fixedscaleoffset', scale: 10, offset: 0, dtype: '<f8', astype: '<i2' }] });
  const v2 = memStore({ '.zarray': zarray, 0: viewBytes(new Int16Array([1, 2, 3, 4])) });
  await assert.rejects(zarr.get(await zarr.open.v2(v2, { kind: 'array' })), coded('invalid_metadata', /keepV2Filters\(store\)/));
  assert.deepEqual(Array.from((await zarr.get(await zarr.open.v2(keepV2Filters(v2), { kind: 'array' }))).data), [0.1, 0.2, 0.3, 0.4]);
});

test('21.4b: a chunk too long for its shape: the error points at servers without HTTP Range support', async () => {
  const doc = v3Doc('{}', { dataType: 'float64', codecs: '[{"name":"scale_offset","configuration":{"scale":2}},{"name":"bytes","configuration":{"endian":"little"}}]' });
  const a = await zarr.open(memStore({ 'zarr.json': doc, 'c/0': viewBytes(new Float64Array(9)) }), { kind: 'array' });
  await assert.rejects(zarr.get(a), (e) => coded('length_mismatch', /9 elements.*needs 4.*Range requests.*http\.server/)(e.cause ?? e));
});

const SET_DOC = { zarr_format: 3, node_type: 'array', shape: [6], data_type: 'float64', chunk_grid: { name: 'regular', configuration: { chunk_shape: [3] } }, chunk_key_encoding: { name: 'default' }, fill_value: 0, codecs: [{ name: 'scale_offset', configuration: { offset: 0, scale: 100 } }, { name: 'cast_value', configuration: { data_type: 'int8' } }, { name: 'bytes' }], attributes: {} };

test('21.4c: a zarr.set encode error starts with the codec, names the element and the value the caller wrote (3, not the scaled 300)', async () => {
  const a = await zarr.open(memStore({ 'zarr.json': JSON.stringify(SET_DOC) }), { kind: 'array' });
  await assert.rejects(zarr.set(a, null, { data: new Float64Array([0, 0.5, 1, 1, 1.27, 3]), shape: [6], stride: [1] }), (e) => {
    const cause = e.cause ?? e;
    assert.equal(cause.code, 'out_of_range');
    assert.match(cause.message, /^zarr-scale-offset cast_value \(codec 1 of the chunk's codecs\): element 2 of the chunk \(written: 3\): /);
    return true;
  });
});

test('21.4d: the chunk cap (2^28 - 1 elements in WebAssembly) is named in its message', async () => {
  await z.ready();
  const huge = { ...SET_DOC, shape: [2 ** 28], chunk_grid: { name: 'regular', configuration: { chunk_shape: [2 ** 28] } }, codecs: [{ name: 'bytes' }] };
  assert.throws(() => z.decodeChunk(huge, new Uint8Array(8)), coded('invalid_metadata', /2\^28 - 1/));
});

test('21.4e: "an Int16Array", "an Int8Array", "a Float64Array"', async () => {
  await z.ready();
  const b = z.bind('scale_offset', 'int16');
  assert.throws(() => b.decode(new Float64Array(2)), coded('invalid_data', /expected an Int16Array for data type int16, got a Float64Array/));
  assert.throws(() => b.decode(new Int8Array(2)), /got an Int8Array of length 2/);
});

// ---------------------------------------------------------------------------------------------
// items 1-3 in headless Chromium

let browser;
before(async () => {
  browser = await startBrowser();
});
after(async () => {
  await browser?.close();
});

// One page evaluation for the four Chromium tests below.
let inChromium;
async function chromium() {
  inChromium ??= runInChromium();
  return inChromium;
}
async function runInChromium() {
  const page = await browser.ctx.newPage();
  await page.goto(`${browser.base}/www/?fixtures=0`);
  await page.waitForSelector('body[data-state="done"]', { timeout: 90_000 });
  const files = Object.fromEntries([...v2FilteredStore().files].map(([k, v]) => [k, Array.from(v)]));
  const r = await page.evaluate(async ({ injection, docs, files, stores }) => {
    const zarr = await import('zarrita');
    const { register, openCF, keepV2Filters } = await import('/dist/zarrita.js');
    await register(zarr.registry);
    const mem = (entries) => {
      const m = new Map(Object.entries(entries).map(([k, v]) => [k, typeof v === 'string' ? new TextEncoder().encode(v) : Uint8Array.from(v)]));
      return { files: m, async get(k) { return m.get(k.replace(/^\//, '')); } };
    };
    const codes = Array.from(new Uint8Array(new Int16Array([-3, 0, 7, 32767]).buffer));
    const out = { injection: [], short: null, keep: null, stores: {} };
    for (const doc of injection) {
      const arr = await zarr.open(mem({ 'zarr.json': doc, 'c/0': codes }), { kind: 'array' });
      out.injection.push(await openCF(arr).then(async (a) => `opened ${a.dtype}: ${Array.from((await zarr.get(a)).data).join(', ')}`, (e) => e.code));
    }
    // each part on its own: an error in one is that part's result
    const part = async (f) => {
      try {
        return await f();
      } catch (e) {
        return `threw ${e.code}: ${e.message}`;
      }
    };
    out.short = await part(async () => {
    const s = mem({ 'zarr.json': docs.short, 'c/0': Array.from(new Uint8Array(new Int16Array([1, 2]).buffer)), 'c/1': Array.from(new Uint8Array(new Int16Array([3]).buffer)) });
    const arr = await openCF(await zarr.open(s, { kind: 'array' }));
    return zarr.get(arr, [zarr.slice(1, 4)]).then((g) => Array.from(g.data), (e) => e.code);
    });
    out.keep = await part(async () => {
      const kept = await zarr.withConsolidatedMetadata(keepV2Filters(mem(files)));
      const x = await openCF(await zarr.open(zarr.root(kept).resolve('x'), { kind: 'array' }));
      return { dtype: x.dtype, data: Array.from((await zarr.get(x)).data, Number) };
    });
    for (const { name, variable, format } of stores) out.stores[name] = await part(async () => {
      const store = await zarr.withConsolidatedMetadata(new zarr.FetchStore(`${location.origin}/tests/fixtures/cf_stores/${name}`), { format });
      const a = await openCF(await zarr.open(zarr.root(store).resolve(variable), { kind: 'array' }));
      const g = await zarr.get(a);
      return { dtype: a.dtype, ctor: g.data.constructor.name, bytes: Array.from(new Uint8Array(g.data.buffer, g.data.byteOffset, g.data.byteLength)) };
    });
    return out;
  }, {
    injection: INJECTION.map((a) => v3Doc(a)),
    docs: { short: v3Doc('{"scale_factor": 2.0}', { chunk: 2 }) },
    files,
    stores: CONSOLIDATED.map((name) => ({ name, variable: expected(name).meta.variable, format: expected(name).meta.zarr_format === 3 ? 'v3' : 'v2' })),
  });
  await page.close();
  return r;
}

test('22.1 in headless Chromium: injection strings are invalid_metadata', async () => {
  assert.deepEqual((await chromium()).injection, INJECTION.map(() => 'invalid_metadata'));
});

test('22.2 in headless Chromium: a short chunk is length_mismatch in a selection', async () => {
  assert.equal((await chromium()).short, 'length_mismatch');
});

test('22.3 in headless Chromium: withConsolidatedMetadata(keepV2Filters(store)) keeps scale_factor 2.0 float64', async () => {
  assert.deepEqual((await chromium()).keep, { dtype: 'float64', data: [-6, 0, 14, 65534] });
});

test('21.1 in headless Chromium: the consolidated stores over HTTP through withConsolidatedMetadata equal xr.open_zarr', async () => {
  const r = await chromium();
  for (const name of CONSOLIDATED) {
    const exp = expected(name);
    assert.equal(r.stores[name].dtype, exp.meta.data_type, name);
    assert.equal(r.stores[name].ctor, 'Float64Array', name);
    const c = compareArrays(Uint8Array.from(r.stores[name].bytes), exp.bytes, exp.meta.data_type);
    assert.ok(c.equal, `${name} in Chromium: ${c.differ} differ`);
  }
});
