// openCF (zarr-scale-offset/zarrita) and fromCF's xarray rules, over the built package:
//
//   1. the three CF stores of tests/fixtures/cf_stores (written by xarray 2026.9.0, Zarr v2 and
//      v3) through zarrita 0.7.5 + openCF equal expected.bin (xarray.open_zarr's values) bit for
//      bit, NaN == NaN only, and have the float type of expected.json; so do partial, strided and
//      integer selections against the matching elements of expected.bin; a sharded copy of the
//      v3 reflectance store (same packed values, one inner chunk left out) reads the same;
//   2. what decides xarray's type is read from the metadata text (300.0 is a float, 300 an int);
//      v3 float _FillValue attributes are base64; _Unsigned; nothing to unpack; no CF at all;
//   3. the same stores in headless Chromium over HTTP (FetchStore).

import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import path from 'node:path';

import * as zarr from 'zarrita';
import * as z from 'zarr-scale-offset';
import { register, openCF } from 'zarr-scale-offset/zarrita';

import { FIXTURES } from './helpers.mjs';
import { STORES, memStore, dirStore, compareArrays, viewBytes } from './zarrita-helpers.mjs';
import { startBrowser } from './browser.mjs';

const CF_STORES = path.join(FIXTURES, 'cf_stores');
const CASES = [
  { store: 'cf_reflectance_u16_v3.zarr', variable: 'reflectance' },
  { store: 'cf_t2m_i16_v2.zarr', variable: 't2m' },
  { store: 'cf_dem_i8_f32attrs_v3.zarr', variable: 'elevation' },
];

function expected(name) {
  const dir = path.join(CF_STORES, name);
  const meta = JSON.parse(readFileSync(path.join(dir, 'expected.json'), 'utf8'));
  const bytes = new Uint8Array(readFileSync(path.join(dir, 'expected.bin')));
  const Ctor = meta.data_type === 'float64' ? Float64Array : Float32Array;
  return { meta, bytes, values: new Ctor(bytes.slice().buffer) };
}

// The elements of a C-order array `values` of `shape` picked by one index list per dimension
// (plain index arithmetic, independent of zarrita's indexer).
function pick(values, shape, lists) {
  const out = [];
  const strides = shape.map((_, i) => shape.slice(i + 1).reduce((a, b) => a * b, 1));
  const walk = (d, off) => {
    if (d === shape.length) return void out.push(values[off]);
    for (const k of lists[d]) walk(d + 1, off + k * strides[d]);
  };
  walk(0, 0);
  return out;
}
const steps = (start, stop, step) => Array.from({ length: Math.max(0, Math.ceil((stop - start) / step)) }, (_, i) => start + i * step);
const sameValue = (a, b) => (Number.isNaN(a) && Number.isNaN(b)) || Object.is(a, b);

async function openVariable(store, variable) {
  return zarr.open(zarr.root(store).resolve(variable), { kind: 'array' });
}

before(async () => {
  await register(zarr.registry);
});

// Selections: partial, strided (also from an offset), an integer index dropping a dimension.
const SELECTIONS = [
  { name: 'partial', sel: (s) => [zarr.slice(10, 57), zarr.slice(7, 99)], lists: (s) => [steps(10, 57, 1), steps(7, 99, 1)], shape: (s) => [47, 92] },
  { name: 'strided', sel: (s) => [zarr.slice(null, null, 3), zarr.slice(5, null, 7)], lists: (s) => [steps(0, s[0], 3), steps(5, s[1], 7)], shape: (s) => [Math.ceil(s[0] / 3), Math.ceil((s[1] - 5) / 7)] },
  { name: 'row 42', sel: (s) => [42, null], lists: (s) => [[42], steps(0, s[1], 1)], shape: (s) => [s[1]] },
  { name: 'last column, every 2nd row', sel: (s) => [zarr.slice(1, null, 2), s[1] - 1], lists: (s) => [steps(1, s[0], 2), [s[1] - 1]], shape: (s) => [Math.ceil((s[0] - 1) / 2)] },
];

for (const { store, variable } of CASES) {
  test(`openCF: ${store} through zarrita 0.7.5 equals xarray.open_zarr's values bit for bit, whole and in selections`, async () => {
    const exp = expected(store);
    const raw = await openVariable(dirStore(path.join(CF_STORES, store)), variable);
    const warnings = [];
    const arr = await openCF(raw, { onWarning: (w) => warnings.push(w) });
    assert.deepEqual(warnings, []);
    assert.notEqual(arr, raw);
    assert.equal(arr.dtype, exp.meta.data_type);
    assert.equal(arr.cf.packedDataType, exp.meta.packed_dtype);
    assert.deepEqual(arr.shape, exp.meta.shape);
    assert.deepEqual(arr.chunks, raw.chunks);
    const whole = await zarr.get(arr);
    assert.equal(whole.data.constructor, exp.meta.data_type === 'float64' ? Float64Array : Float32Array);
    assert.deepEqual(whole.shape, exp.meta.shape);
    const c = compareArrays(viewBytes(whole.data), exp.bytes, exp.meta.data_type);
    assert.ok(c.equal, `${store}: ${c.differ} values differ, e.g. ${JSON.stringify(c.first)}`);
    const nan = whole.data.reduce((n, v) => n + (Number.isNaN(v) ? 1 : 0), 0);
    assert.equal(nan, exp.meta.nan_count);
    for (const s of SELECTIONS) {
      const shape = exp.meta.shape;
      const r = await zarr.get(arr, s.sel(shape));
      assert.deepEqual(r.shape, s.shape(shape), `${store} ${s.name}`);
      const want = pick(exp.values, shape, s.lists(shape));
      assert.equal(r.data.length, want.length, `${store} ${s.name}`);
      const bad = want.findIndex((v, i) => !sameValue(r.data[i], v));
      assert.equal(bad, -1, `${store} ${s.name}: element ${bad} is ${r.data[bad]}, xarray ${want[bad]}`);
    }
    // a point selection gives the scalar
    const p = await zarr.get(arr, [3, 4]);
    assert.ok(sameValue(p, exp.values[3 * exp.meta.shape[1] + 4]));
  });
}

test('openCF: a sharded copy of the reflectance store (one inner chunk absent) reads as xarray reads the original', async () => {
  const name = 'cf_reflectance_u16_v3.zarr';
  const exp = expected(name);
  const raw = await openVariable(dirStore(path.join(CF_STORES, name)), 'reflectance');
  const packed = (await zarr.get(raw)).data; // Uint16Array, the stored codes
  const [H, W] = raw.shape;
  const shard = [50, 60];
  const inner = [25, 20];
  const doc = JSON.parse(readFileSync(path.join(CF_STORES, name, 'reflectance', 'zarr.json'), 'utf8'));
  doc.chunk_grid.configuration.chunk_shape = shard;
  doc.codecs = [{
    name: 'sharding_indexed',
    configuration: {
      chunk_shape: inner,
      codecs: [{ name: 'bytes', configuration: { endian: 'little' } }],
      index_codecs: [{ name: 'bytes', configuration: { endian: 'little' } }],
      index_location: 'end',
    },
  }];
  const files = { 'zarr.json': JSON.stringify(doc) };
  const absent = '1.1/0.2'; // shard 1.1, inner chunk (0, 2): reads as fill_value 0, the _FillValue
  let masked = 0;
  const want = Float64Array.from(exp.values);
  for (let si = 0; si * shard[0] < H; si++) {
    for (let sj = 0; sj * shard[1] < W; sj++) {
      const ni = shard[0] / inner[0];
      const nj = shard[1] / inner[1];
      const parts = [];
      const index = new BigUint64Array(ni * nj * 2);
      let offset = 0;
      for (let ii = 0; ii < ni; ii++) {
        for (let jj = 0; jj < nj; jj++) {
          const k = (ii * nj + jj) * 2;
          if (`${si}.${sj}/${ii}.${jj}` === absent) {
            index[k] = index[k + 1] = 2n ** 64n - 1n;
            for (let r = 0; r < inner[0]; r++) {
              for (let c = 0; c < inner[1]; c++) {
                const y = si * shard[0] + ii * inner[0] + r;
                const x = sj * shard[1] + jj * inner[1] + c;
                if (y < H && x < W) {
                  want[y * W + x] = NaN;
                  masked++;
                }
              }
            }
            continue;
          }
          const block = new Uint16Array(inner[0] * inner[1]);
          for (let r = 0; r < inner[0]; r++) {
            for (let c = 0; c < inner[1]; c++) {
              const y = si * shard[0] + ii * inner[0] + r;
              const x = sj * shard[1] + jj * inner[1] + c;
              if (y < H && x < W) block[r * inner[1] + c] = packed[y * W + x];
            }
          }
          const bytes = viewBytes(block);
          parts.push(bytes);
          index[k] = BigInt(offset);
          index[k + 1] = BigInt(bytes.length);
          offset += bytes.length;
        }
      }
      parts.push(viewBytes(index));
      const out = new Uint8Array(parts.reduce((n, p) => n + p.length, 0));
      let at = 0;
      for (const p of parts) {
        out.set(p, at);
        at += p.length;
      }
      files[`c/${si}/${sj}`] = out;
    }
  }
  assert.ok(masked > 0);
  const sharded = await zarr.open(memStore(files), { kind: 'array' });
  assert.deepEqual(sharded.chunks, inner);
  const arr = await openCF(sharded);
  assert.equal(arr.dtype, 'float64');
  const whole = await zarr.get(arr);
  const c = compareArrays(viewBytes(whole.data), viewBytes(want), 'float64');
  assert.ok(c.equal, `${c.differ} differ, e.g. ${JSON.stringify(c.first)}`);
  for (const s of SELECTIONS) {
    const r = await zarr.get(arr, s.sel([H, W]));
    const w = pick(want, [H, W], s.lists([H, W]));
    const bad = w.findIndex((v, i) => !sameValue(r.data[i], v));
    assert.equal(bad, -1, `sharded ${s.name}: element ${bad}`);
  }
});

// A v3 array document with `attributes` given as JSON text (so that 2.0 stays a float).
function v3Store(dataType, attributesText, chunkBytes, { fill = 0, n = chunkBytes.length } = {}) {
  const doc = `{"zarr_format":3,"node_type":"array","shape":[${n}],"data_type":"${dataType}","chunk_grid":{"name":"regular","configuration":{"chunk_shape":[${n}]}},"chunk_key_encoding":{"name":"default"},"fill_value":${JSON.stringify(fill)},"codecs":[{"name":"bytes","configuration":{"endian":"little"}}],"attributes":${attributesText}}`;
  return memStore({ 'zarr.json': doc, 'c/0': chunkBytes });
}

test('openCF reads attribute types from the metadata text: scale_factor 2.0 is a Python float (float64), 2 an int (int64)', async () => {
  const stored = viewBytes(new Int16Array([-3, 0, 7, 32767]));
  const f = await openCF(await zarr.open(v3Store('int16', '{"scale_factor": 2.0}', stored, { n: 4 }), { kind: 'array' }));
  assert.equal(f.dtype, 'float64');
  assert.deepEqual(Array.from((await zarr.get(f)).data), [-6, 0, 14, 65534]);
  const i = await openCF(await zarr.open(v3Store('int16', '{"scale_factor": 2}', stored, { n: 4 }), { kind: 'array' }));
  assert.equal(i.dtype, 'int64');
  assert.deepEqual(Array.from((await zarr.get(i)).data), [-6n, 0n, 14n, 65534n]);
  // add_offset 10 (an int) alone: float64 (xarray: "a large integer offset").
  const o = await openCF(await zarr.open(v3Store('int16', '{"add_offset": 10}', stored, { n: 4 }), { kind: 'array' }));
  assert.equal(o.dtype, 'float64');
  assert.deepEqual(Array.from((await zarr.get(o)).data), [7, 10, 17, 32777]);
});

test('fromCF and openCF keep int64/uint64 fill values beyond 2^53 exact (netCDF default int64 fill -9223372036854775806)', async () => {
  // JSON.parse of the core's text gave -9223372036854776000 (= -2^63): bind then masked -2^63,
  // and the real fill code decoded as a number.
  const cf = z.fromCF('{"_FillValue": -9223372036854775806}', 'int64');
  assert.deepEqual(cf.codecs[0].configuration.scalar_map, { encode: [['NaN', -9223372036854775806n]], decode: [[-9223372036854775806n, 'NaN']] });
  const decoded = z.bind(cf.codecs.slice(0, 1), cf.data_type).decode(BigInt64Array.of(-9223372036854775806n, -(2n ** 63n), 5n));
  assert.deepEqual(Array.from(decoded), [NaN, -(2 ** 63), 5]);
  // the same through a store and openCF
  const stored = viewBytes(BigInt64Array.of(-9223372036854775806n, -(2n ** 63n), 5n));
  const arr = await openCF(await zarr.open(v3Store('int64', '{"_FillValue": -9223372036854775806}', stored, { n: 3 }), { kind: 'array' }));
  assert.equal(arr.dtype, 'float64');
  assert.deepEqual(Array.from((await zarr.get(arr)).data), [NaN, -(2 ** 63), 5]);
  // uint64: 2^64 - 2 as a missing_value (an integer scale keeps the map in the packed type)
  const u = z.fromCF('{"missing_value": 18446744073709551614, "scale_factor": 2.0}', 'uint64');
  assert.deepEqual(u.codecs[1].configuration.scalar_map.decode, [[18446744073709551614n, 'NaN']]);
  // integers a double equals stay numbers (also a float64 offset the core writes as digits); floats too
  const s = z.fromCF('{"_FillValue": 9007199254740991, "add_offset": 0.12345678901234568}', 'int64');
  assert.deepEqual(s.codecs.find((c) => c.name === 'cast_value').configuration.scalar_map.decode, [[9007199254740991, 'NaN']]);
  assert.equal(s.codecs[0].configuration.offset, 0.12345678901234568);
  assert.deepEqual(z.fromFixedScaleOffset({ id: 'fixedscaleoffset', offset: 1234567890123456789, scale: 1, dtype: '<f8', astype: '<i8' })[0].configuration.offset, 1234567890123456768);
  assert.deepEqual(z.fromCF('{"_FillValue": -9223372036854775808}', 'int64').codecs[0].configuration.scalar_map.decode, [[-(2 ** 63), 'NaN']]);
});

// A v2 store as xarray writes it by default: the array's files and a consolidated .zmetadata,
// every document indented, `scale_factor` written 2.0 (a Python float: float64 in xarray; an int
// 2 would give int64). `attrs` is the .zattrs text; `zmetaAttrs` the one in .zmetadata.
function v2ConsolidatedStore(attrs, zmetaAttrs = attrs) {
  const zarray = '{\n    "chunks": [4],\n    "compressor": null,\n    "dtype": "<i2",\n    "fill_value": null,\n    "filters": null,\n    "order": "C",\n    "shape": [4],\n    "zarr_format": 2\n}';
  const zmetadata = `{\n    "metadata": {\n        ".zgroup": {"zarr_format": 2},\n        "x/.zarray": ${zarray},\n        "x/.zattrs": ${zmetaAttrs}\n    },\n    "zarr_consolidated_format": 1\n}`;
  return memStore({ '.zgroup': '{"zarr_format": 2}', '.zmetadata': zmetadata, 'x/.zarray': zarray, 'x/.zattrs': attrs, 'x/0': viewBytes(new Int16Array([-3, 0, 7, 32767])) });
}

test('openCF on a v2 store with consolidated metadata reads .zmetadata as xarray does, also behind zarrita\'s withConsolidatedMetadata (which re-serialises 2.0 as 2)', async () => {
  const want = [-6, 0, 14, 65534];
  for (const wrap of [false, true]) {
    const raw = v2ConsolidatedStore('{\n    "scale_factor": 2.0\n}');
    const store = wrap ? await zarr.withConsolidatedMetadata(raw) : raw;
    const arr = await openVariable(store, 'x');
    // what zarrita itself serves through the wrapper: the integer 2
    if (wrap) {
      const served = new TextDecoder().decode(await store.get('/x/.zattrs'));
      assert.ok(/"scale_factor":\s*2\s*}/.test(served) && !served.includes('2.0'), served);
    }
    const f = await openCF(arr);
    assert.equal(f.dtype, 'float64', `withConsolidatedMetadata: ${wrap}`);
    assert.deepEqual(Array.from((await zarr.get(f)).data), want);
    // consolidated: false reads the array's own documents, also from beneath the wrapper (never
    // the re-serialised 2 it serves)
    const own = await openCF(await openVariable(store, 'x'), { consolidated: false });
    assert.equal(own.dtype, 'float64', `own documents, withConsolidatedMetadata: ${wrap}`);
  }
  // .zmetadata wins over the array's own files (xarray's consolidated=None), and `true` requires it
  const both = v2ConsolidatedStore('{"scale_factor": 2}', '{"scale_factor": 2.0}');
  assert.equal((await openCF(await openVariable(both, 'x'))).dtype, 'float64');
  assert.equal((await openCF(await openVariable(both, 'x'), { consolidated: false })).dtype, 'int64');
  assert.equal((await openCF(await openVariable(both, 'x'), { consolidated: true })).dtype, 'float64');
  // no .zmetadata: the array's files; one that is not JSON is an error (as in xarray, which
  // falls back only when the file is missing)
  const s = v2ConsolidatedStore('{"scale_factor": 2.0}');
  s.files.delete('.zmetadata');
  assert.equal((await openCF(await openVariable(s, 'x'))).dtype, 'float64');
  await assert.rejects(openCF(await openVariable(s, 'x'), { consolidated: true }), (e) => e.code === 'invalid_metadata' && /\.zmetadata/.test(e.message));
  const broken = v2ConsolidatedStore('{"scale_factor": 2.0}');
  broken.files.set('.zmetadata', new TextEncoder().encode('not json'));
  await assert.rejects(openCF(await openVariable(broken, 'x')), (e) => e.code === 'invalid_json' && /\.zmetadata/.test(e.message));
  await assert.rejects(openCF(await openVariable(both, 'x'), { consolidated: 'yes' }), (e) => e.code === 'invalid_argument');
});

test('openCF: a v3 float _FillValue attribute is base64 of a float64 (xarray FillValueCoder), NaN included', async () => {
  const b64 = (x) => Buffer.from(new Float64Array([x]).buffer).toString('base64');
  const stored = viewBytes(new Float32Array([-9999, 1.5, 0]));
  const a = await openCF(await zarr.open(v3Store('float32', `{"_FillValue":"${b64(-9999)}"}`, stored, { n: 3 }), { kind: 'array' }));
  assert.equal(a.dtype, 'float32'); // a float type stays (NumPy's maybe_promote)
  const v = (await zarr.get(a)).data;
  assert.ok(Number.isNaN(v[0]));
  assert.deepEqual(Array.from(v.subarray(1)), [1.5, 0]);
  // NaN _FillValue and a Python-float scale_factor: xarray computes in float32 (the fill
  // attribute remains, so CFScaleOffsetCoder keeps the type): x * float32(0.1), in float32.
  const xs = new Float32Array([3, 7, 123.456]);
  const n = await openCF(await zarr.open(v3Store('float32', `{"_FillValue":"${b64(NaN)}","scale_factor":0.1}`, viewBytes(xs), { n: 3 }), { kind: 'array' }));
  assert.equal(n.dtype, 'float32');
  const got = (await zarr.get(n)).data;
  xs.forEach((x, k) => assert.equal(got[k], Math.fround(x * Math.fround(0.1)), `element ${k}`));
});

test('openCF: _Unsigned, nothing to unpack, NaN fill on integers, no CF attributes', async () => {
  const stored = new Uint8Array([255, 128, 1]);
  // _Unsigned "true" with _FillValue -1: uint8 data, 255 masked, float32 (maybe_promote).
  const u = await openCF(await zarr.open(v3Store('int8', '{"_Unsigned":"true","_FillValue":-1}', stored), { kind: 'array' }));
  assert.equal(u.dtype, 'float32');
  const uv = (await zarr.get(u)).data;
  assert.ok(Number.isNaN(uv[0]));
  assert.deepEqual(Array.from(uv.subarray(1)), [128, 1]);
  // _Unsigned alone: the bytes reinterpreted, nothing else.
  const r = await openCF(await zarr.open(v3Store('int8', '{"_Unsigned":"true"}', stored), { kind: 'array' }));
  assert.equal(r.dtype, 'uint8');
  assert.deepEqual(Array.from((await zarr.get(r)).data), [255, 128, 1]);
  // A NaN _FillValue on integer data: ignored with a warning; the array comes back unchanged.
  const raw = await zarr.open(v3Store('int8', '{"_FillValue":"NaN","units":"m"}', stored), { kind: 'array' });
  const warnings = [];
  assert.equal(await openCF(raw, { onWarning: (w) => warnings.push(w) }), raw);
  assert.equal(warnings.length, 1);
  assert.equal(warnings[0].pointer, '/_FillValue');
  // No CF attributes: unchanged (the fixture stores of tests/fixtures/stores are v3 codec chains).
  const plain = await zarr.open(dirStore(path.join(STORES, 'topobathy.zarr')), { kind: 'array' });
  assert.equal(await openCF(plain), plain);
  // errors carry a code
  await assert.rejects(openCF({}), (e) => e.code === 'invalid_argument');
  await assert.rejects(openCF(null), (e) => e.code === 'invalid_argument');
  const bad = await zarr.open(v3Store('int8', '{"scale_factor":"x"}', stored), { kind: 'array' });
  await assert.rejects(openCF(bad), (e) => e.code === 'invalid_metadata' && /scale_factor/.test(e.message));
  // read-only: zarr.set does not write float64 bytes over the packed chunks
  const t2m = await openCF(await openVariable(dirStore(path.join(CF_STORES, 'cf_t2m_i16_v2.zarr')), 't2m'));
  const chain = (e) => { const s = []; for (let x = e; x && s.length < 6; x = x.cause) s.push(x.code); return s; };
  await assert.rejects(zarr.set(t2m, [0, 0], 273.15), (e) => chain(e).includes('read_only'));
  // v2 with use_zarr_fill_value_as_mask off: -32767 is a value again (xarray's option)
  const off = await openCF(await openVariable(dirStore(path.join(CF_STORES, 'cf_t2m_i16_v2.zarr')), 't2m'), { useZarrFillValueAsMask: false });
  const nan = (await zarr.get(off)).data.reduce((k, v) => k + (Number.isNaN(v) ? 1 : 0), 0);
  assert.equal(nan, 0);
});

test('fromCF over the package: nothing to unpack keeps the type; NaN fills on integer data give warnings, not errors', () => {
  assert.equal(z.fromCF({}, 'int16').data_type, 'int16');
  assert.deepEqual(z.fromCF({}, 'int16').codecs, [{ name: 'bytes', configuration: { endian: 'little' } }]);
  assert.deepEqual(z.fromCF({}, 'int16').warnings, []);
  // uint64 2^64-1 stays exact through the result (it became 2^64 as float64)
  const cf = z.fromCF({}, 'uint64');
  const meta = { zarr_format: 3, node_type: 'array', shape: [1], chunk_grid: { name: 'regular', configuration: { chunk_shape: [1] } }, chunk_key_encoding: { name: 'default' }, data_type: cf.data_type, fill_value: cf.fill_value, codecs: cf.codecs };
  assert.deepEqual(Array.from(z.decodeChunk(meta, new Uint8Array(8).fill(255))), [2n ** 64n - 1n]);
  for (const attrs of [{ _FillValue: NaN }, { missing_value: [NaN] }, { _FillValue: 'NaN', missing_value: NaN }]) {
    const r = z.fromCF(attrs, 'int16');
    assert.equal(r.data_type, 'int16', JSON.stringify(attrs));
    assert.ok(r.warnings.length >= 1 && r.warnings.every((w) => /NaN/.test(w.message) && w.pointer.startsWith('/')), JSON.stringify(r.warnings));
  }
});

// ---------------------------------------------------------------------------------------------
// headless Chromium

let b;
before(async () => {
  b = await startBrowser();
});
after(async () => {
  await b?.close();
});

test('openCF in headless Chromium: the three CF stores over HTTP equal expected.bin bit for bit, whole and strided', async () => {
  const page = await b.ctx.newPage();
  await page.goto(`${b.base}/www/?fixtures=0`);
  await page.waitForSelector('body[data-state="done"]', { timeout: 90_000 });
  const r = await page.evaluate(async (cases) => {
    const zarr = await import('zarrita');
    const { register, openCF } = await import('/dist/zarrita.js');
    await register(zarr.registry);
    const b64 = (d) => {
      const bytes = new Uint8Array(d.buffer, d.byteOffset, d.byteLength);
      let s = '';
      for (let i = 0; i < bytes.length; i += 0x8000) s += String.fromCharCode.apply(null, bytes.subarray(i, i + 0x8000));
      return btoa(s);
    };
    const out = {};
    for (const { store, variable } of cases) {
      try {
        const raw = await zarr.open(new zarr.FetchStore(`${location.origin}/tests/fixtures/cf_stores/${store}/${variable}`), { kind: 'array' });
        const arr = await openCF(raw);
        const whole = await zarr.get(arr);
        const strided = await zarr.get(arr, [zarr.slice(null, null, 3), zarr.slice(5, null, 7)]);
        out[store] = { dtype: arr.dtype, ctor: whole.data.constructor.name, shape: whole.shape, whole: b64(whole.data), strided: b64(strided.data), stridedShape: strided.shape };
      } catch (e) {
        out[store] = { error: `${e.code}: ${e.message}` };
      }
    }
    return out;
  }, CASES);
  for (const { store } of CASES) {
    const got = r[store];
    assert.equal(got.error, undefined, `${store}: ${got.error}`);
    const exp = expected(store);
    assert.equal(got.dtype, exp.meta.data_type);
    assert.equal(got.ctor, exp.meta.data_type === 'float64' ? 'Float64Array' : 'Float32Array');
    assert.deepEqual(got.shape, exp.meta.shape);
    const c = compareArrays(new Uint8Array(Buffer.from(got.whole, 'base64')), exp.bytes, exp.meta.data_type);
    assert.ok(c.equal, `${store} in Chromium: ${c.differ} differ`);
    const s = SELECTIONS[1];
    const want = Array.from(pick(exp.values, exp.meta.shape, s.lists(exp.meta.shape)));
    const Ctor = exp.meta.data_type === 'float64' ? Float64Array : Float32Array;
    const gotStrided = new Ctor(new Uint8Array(Buffer.from(got.strided, 'base64')).buffer);
    assert.deepEqual(got.stridedShape, s.shape(exp.meta.shape));
    const bad = Array.from(want).findIndex((v, i) => !sameValue(gotStrided[i], v));
    assert.equal(bad, -1, `${store} strided in Chromium: element ${bad}`);
  }
  await page.close();
});
