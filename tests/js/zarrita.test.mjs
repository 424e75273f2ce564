// zarr-scale-offset/zarrita in Node 20 with the real zarrita (0.7.5, a devDependency), imported
// by package name as users do:
//
//   1. the codec contract zarrita's pipeline relies on (src/codecs.ts of zarrita);
//   2. the four real stores of tests/fixtures/stores read through zarrita + register, bit for bit;
//   3. every conformance vector whose array data type zarrita can hold, read (and written, with
//      zarr.set) through zarrita + register, against the oracle's bytes;
//   4. the same reads with zarrita's BUILT-IN codecs, to show where they differ or fail
//      (peers.md §4.4-4.5) -- the reason this package exists. The numbers are printed.

import { test, before } from 'node:test';
import assert from 'node:assert/strict';
import { existsSync, readFileSync } from 'node:fs';
import path from 'node:path';

import * as zarr from 'zarrita';
import * as z from 'zarr-scale-offset';
import { register, codecEntries, codecNames, ENCODED_META, V2_FIXEDSCALEOFFSET, keepV2Filters, errorCode } from 'zarr-scale-offset/zarrita';

import { loadFamily, hexToBytes, storedToMemory, compareMemory, typedFromBytes, DTYPES } from './helpers.mjs';
import { STORES, STORE_NAMES, memStore, dirStore, expectedOf, compareArrays, viewBytes } from './zarrita-helpers.mjs';

// zarrita's own codecs, saved before register() replaces them.
const BUILTIN = new Map(zarr.registry);
const NAMES = [...codecNames, V2_FIXEDSCALEOFFSET];
let OURS;

function useBuiltins() {
  for (const n of NAMES) {
    if (BUILTIN.has(n)) zarr.registry.set(n, BUILTIN.get(n));
    else zarr.registry.delete(n);
  }
}
function useOurs() {
  for (const n of NAMES) zarr.registry.set(n, OURS.get(n));
}

before(async () => {
  const names = await register(zarr.registry);
  assert.deepEqual(names, ['scale_offset', 'cast_value', 'cf.scale_offset', 'numcodecs.fixedscaleoffset', 'numcodecs.fixedscaleoffset.v2']);
  OURS = new Map(NAMES.map((n) => [n, zarr.registry.get(n)]));
});

async function readArray(store) {
  const arr = await zarr.open(store, { kind: 'array' });
  const r = await zarr.get(arr);
  return { arr, ...r };
}

// Runs an async fn: { ok, value } or { ok: false, error }.
async function attempt(fn) {
  try {
    return { ok: true, value: await fn() };
  } catch (error) {
    return { ok: false, error };
  }
}

// The innermost message of a zarrita CodecPipelineError (its cause chain).
function why(e) {
  const parts = [];
  for (let x = e; x && parts.length < 4; x = x.cause) parts.push(`${x.name ?? 'Error'}${x.code ? `[${x.code}]` : ''}: ${x.message}`);
  return parts.join(' <- ');
}

// ---------------------------------------------------------------------------------------------
// 1. contract

test('register: needs a registry; sets the five names; the loaders give our entries', async () => {
  assert.throws(() => register(), (e) => e instanceof TypeError && e.code === 'invalid_argument');
  assert.throws(() => register({}), (e) => e.code === 'invalid_argument' && /zarr\.registry/.test(e.message));
  const reg = new Map();
  const names = await register(reg);
  assert.deepEqual([...reg.keys()], names);
  assert.equal(names.at(-1), V2_FIXEDSCALEOFFSET);
  for (const n of names) {
    const entry = await reg.get(n)();
    if (n !== V2_FIXEDSCALEOFFSET) assert.equal(entry, codecEntries[n]);
    assert.equal(entry.kind, 'array_to_array');
    assert.equal(typeof entry.fromConfig, 'function');
  }
  // zarrita's built-ins existed for two of them and are now replaced.
  assert.ok(BUILTIN.has('scale_offset') && BUILTIN.has('cast_value'));
  assert.notEqual(await BUILTIN.get('scale_offset')(), codecEntries.scale_offset);
  assert.equal(await zarr.registry.get('scale_offset')(), codecEntries.scale_offset);
  assert.equal(await zarr.registry.get('numcodecs.fixedscaleoffset')(), codecEntries['numcodecs.fixedscaleoffset']);
});

const meta = (dataType, fillValue, codecs = []) => ({ dataType, shape: [4], codecs, fillValue });

test('fromConfig is synchronous, accepts an undefined configuration, and checks the metadata', () => {
  const so = codecEntries.scale_offset.fromConfig(undefined, meta('float32', NaN, [{ name: 'scale_offset' }]));
  assert.ok(!(so instanceof Promise));
  assert.equal(so.kind, 'array_to_array');
  const chunk = { data: new Float32Array([1, 2.5, NaN, -0]), shape: [4], stride: [1] };
  const out = so.decode(chunk);
  assert.notEqual(out, chunk, 'a new chunk');
  assert.notEqual(out.data, chunk.data, 'new data');
  assert.deepEqual(Array.from(out.data), [1, 2.5, NaN, 0], 'x / 1 + 0: -0 + 0 is +0 in IEEE arithmetic');
  assert.deepEqual(out.shape, [4]);
  assert.deepEqual(out.stride, [1]);
  // cf.scale_offset without a configuration is the identity too.
  assert.deepEqual(Array.from(codecEntries['cf.scale_offset'].fromConfig(undefined, meta('int16', 0)).decode({ data: new Int16Array([7]), shape: [1], stride: [1] }).data), [7]);
  // cast_value needs data_type: the error is thrown by fromConfig, with a code and the field.
  assert.throws(() => codecEntries.cast_value.fromConfig(undefined, meta('float32', 0)), (e) => e.code === 'invalid_metadata' && /data_type/.test(e.message));
  assert.throws(
    () => codecEntries.scale_offset.fromConfig({ scale: 0 }, meta('int16', 0, [{ name: 'bytes' }, { name: 'scale_offset', configuration: { scale: 0 } }])),
    (e) => e.code === 'invalid_metadata' && /scale must be non-zero/.test(e.message),
  );
  assert.throws(() => codecEntries.scale_offset.fromConfig({}, meta('bool', false)), (e) => e.code === 'unsupported_data_type');
  // The fill value must survive cast_value (spec): NaN into uint8 without a scalar_map cannot.
  assert.throws(() => codecEntries.cast_value.fromConfig({ data_type: 'uint8' }, meta('float32', NaN)), (e) => e.code === 'invalid_metadata' && /fill/.test(e.message));
});

test('encode/decode: new chunks, same shape and stride, exact values; errors carry a code', () => {
  const config = { offset: -1500, scale: 10 };
  const m = meta('float32', NaN, [{ name: 'scale_offset', configuration: config }]);
  const so = codecEntries.scale_offset.fromConfig(config, m);
  const shape = [2, 2];
  const stride = [2, 1];
  const enc = so.encode({ data: new Float32Array([0, -1500, 25.5, NaN]), shape, stride });
  assert.ok(enc.data instanceof Float32Array);
  assert.equal(enc.shape, shape);
  assert.equal(enc.stride, stride);
  assert.deepEqual(Array.from(enc.data), [15000, 0, 15255, NaN]);
  assert.deepEqual(Array.from(so.decode(enc).data), [0, -1500, 25.5, NaN]);
  const i8 = codecEntries.scale_offset.fromConfig({ scale: 2 }, meta('int8', 0));
  assert.throws(() => i8.decode({ data: new Int8Array([2, 3]), shape: [2], stride: [1] }), (e) => e.code === 'not_representable' && /element 1/.test(e.message));
});

test('getEncodedMeta: the data type and fill value after each codec; surrogates for types zarrita lacks', () => {
  const castConf = { data_type: 'uint16', scalar_map: { encode: [['NaN', 0]], decode: [[0, 'NaN']] } };
  const m0 = { dataType: 'float32', shape: [32, 32], codecs: [], fillValue: NaN };
  const so = codecEntries.scale_offset.fromConfig({ offset: -1500, scale: 10 }, m0);
  const m1 = so.getEncodedMeta(m0);
  assert.equal(m1.dataType, 'float32');
  assert.ok(Number.isNaN(m1.fillValue));
  assert.deepEqual(m1.shape, [32, 32]);
  assert.ok(Number.isNaN(m0.fillValue), 'meta is not mutated');
  const cv = codecEntries.cast_value.fromConfig(castConf, m1);
  const m2 = cv.getEncodedMeta(m1);
  assert.equal(m2.dataType, 'uint16');
  assert.equal(m2.fillValue, 0);
  // The fill value moves through scale_offset: 0 -> (0 + 1500) * 10.
  assert.equal(codecEntries.scale_offset.fromConfig({ offset: -1500, scale: 10 }, meta('float64', 0)).getEncodedMeta(meta('float64', 0)).fillValue, 15000);
  // int64 fill values are BigInt both ways.
  const i64 = codecEntries.scale_offset.fromConfig({ offset: 5, scale: 3 }, meta('int64', 7n)).getEncodedMeta(meta('int64', 7n));
  assert.equal(i64.fillValue, 6n);
  // bfloat16 is carried as uint16 bits for zarrita's bytes codec; the real type rides along.
  const bf = codecEntries.cast_value.fromConfig({ data_type: 'bfloat16' }, meta('float32', 1.5));
  const mb = bf.getEncodedMeta(meta('float32', 1.5));
  assert.equal(mb.dataType, 'uint16');
  assert.equal(mb.fillValue, 0x3fc0);
  assert.equal(mb[ENCODED_META].dataType, 'bfloat16');
  const enc = bf.encode({ data: new Float32Array([1.5, -2, 1 / 3]), shape: [3], stride: [1] });
  assert.ok(enc.data instanceof Uint16Array);
  assert.deepEqual(Array.from(enc.data), [0x3fc0, 0xc000, 0x3eab]);
  assert.deepEqual(Array.from(bf.decode(enc).data), [1.5, -2, 0.333984375]);
  // A codec after it sees bfloat16, not uint16.
  const so16 = codecEntries.scale_offset.fromConfig({ scale: 2 }, mb);
  assert.deepEqual(Array.from(so16.decode({ data: new Uint16Array([0x4040]), shape: [1], stride: [1] }).data), [0x3fc0], 'bfloat16 3 / 2 = 1.5');
  // int4 travels as uint8 with zero upper bits; negative values decode sign-extended.
  const i4 = codecEntries.cast_value.fromConfig({ data_type: 'int4' }, meta('float32', -3));
  const m4 = i4.getEncodedMeta(meta('float32', -3));
  assert.equal(m4.dataType, 'uint8');
  assert.equal(m4.fillValue, 0x0d, 'int4 -3 stored in the low 4 bits');
  const e4 = i4.encode({ data: new Float32Array([-3, 7, -8]), shape: [3], stride: [1] });
  assert.deepEqual(Array.from(e4.data), [0x0d, 0x07, 0x08]);
  assert.deepEqual(Array.from(i4.decode({ data: new Uint8Array([0xfd, 0x07, 0xf8]), shape: [3], stride: [1] }).data), [-3, 7, -8], 'upper bits ignored');
});

// ---------------------------------------------------------------------------------------------
// 2. the real stores

// cf_t2m_migrated.zarr: a CF-attribute store written by xarray, migrated by the Python package
// (tests/fixtures/make/cf_migrated_store.py); expected.bin is xarray's decode_cf of the original.
for (const name of [...STORE_NAMES, 'cf_t2m_migrated.zarr']) {
  test(`real store ${name}: zarrita + register reads expected.bin bit for bit`, async () => {
    useOurs();
    const exp = expectedOf(name);
    const { arr, data, shape } = await readArray(dirStore(path.join(STORES, name)));
    assert.equal(arr.dtype, exp.dtype);
    assert.deepEqual(shape, exp.shape);
    const c = compareArrays(viewBytes(data), exp.bytes, exp.dtype);
    assert.ok(c.equal, `${c.differ} elements differ from expected.bin, e.g. ${JSON.stringify(c.first)}`);
  });
}

test('the migrated store cf_t2m_migrated.zarr: its never-stored chunk c/1/1 reads as 273.15, as xarray read the original', async () => {
  useOurs();
  const { data } = await readArray(dirStore(path.join(STORES, 'cf_t2m_migrated.zarr')));
  assert.equal(data[5 * 12 + 7], 273.15);
});

test('topobathy: the deleted chunk c/1/2 reads as the fill value; jacksboro: the absent inner chunk too', async () => {
  useOurs();
  const { data } = await readArray(dirStore(path.join(STORES, 'topobathy.zarr')));
  for (let r = 32; r < 64; r++) for (let c = 64; c < 96; c++) assert.ok(Number.isNaN(data[r * 120 + c]));
  const j = await readArray(dirStore(path.join(STORES, 'jacksboro_dem.zarr')));
  for (let r = 64; r < 96; r++) for (let c = 32; c < 64; c++) assert.ok(Number.isNaN(j.data[r * 403 + c]));
});

// ---------------------------------------------------------------------------------------------
// 3. conformance vectors through zarrita

const FAMILIES = ['scale_offset', 'cast_value', 'chains', 'exotic', 'cf', 'fixedscaleoffset'];
const HAS_F16 = typeof globalThis.Float16Array === 'function';
const HOLDS = new Set(['int8', 'int16', 'int32', 'int64', 'uint8', 'uint16', 'uint32', 'uint64', 'float32', 'float64', ...(HAS_F16 ? ['float16'] : [])]);
const CTOR = { int8: Int8Array, int16: Int16Array, int32: Int32Array, int64: BigInt64Array, uint8: Uint8Array, uint16: Uint16Array, uint32: Uint32Array, uint64: BigUint64Array, float32: Float32Array, float64: Float64Array, float16: globalThis.Float16Array };

function vectorStore(v) {
  return memStore({ 'zarr.json': v.metadataText, ...(v.encoded !== undefined ? { 'c/0': hexToBytes(v.encoded) } : {}) });
}

// One vector through zarrita with whatever codecs are registered now. Returns
// { status: 'ok' | 'fail' | 'skip', reason }.
// Integer literals JSON.parse cannot keep (beyond 2^53): zarrita parses zarr.json with
// JSON.parse, so such metadata reaches any codec already rounded (docs/guides/browser.md).
function lossyIntegers(text) {
  return (text.match(/(?<![\w.])-?\d{16,}(?![.\deE])/g) ?? []).filter((t) => BigInt(t) !== BigInt(Number(t)));
}

async function runVector(v) {
  const dtype = v.metadata.data_type;
  if (!HOLDS.has(typeof dtype === 'string' ? dtype : dtype?.name)) return { status: 'skip', reason: `zarrita has no typed array for ${JSON.stringify(dtype)}` };
  if (v.metadata.codecs.some((c) => typeof c === 'string')) return { status: 'skip', reason: 'zarrita does not read short-hand codec names ("scale_offset" for {"name": "scale_offset"})' };
  const lossy = lossyIntegers(v.metadataText);
  if (lossy.length) return { status: 'skip', reason: `zarrita's JSON.parse rounds integers beyond 2^53 (${lossy[0]} -> ${BigInt(Number(lossy[0]))})` };
  const out = [];
  if (['roundtrip', 'decode_only', 'decode_error'].includes(v.expect)) {
    const r = await attempt(() => readArray(vectorStore(v)));
    if (v.expect === 'decode_error') {
      if (r.ok) out.push(`decode should fail, read ${Array.from(r.value.data).slice(0, 4).join(',')}…`);
    } else if (!r.ok) out.push(`decode failed: ${why(r.error)}`);
    else {
      const diff = compareMemory(viewBytes(r.value.data), hexToBytes(v.decoded), dtype);
      if (diff) out.push(`decode: ${diff}`);
    }
  }
  if (['roundtrip', 'encode_only', 'encode_error'].includes(v.expect)) {
    const store = memStore({ 'zarr.json': v.metadataText });
    const r = await attempt(async () => {
      const arr = await zarr.open(store, { kind: 'array' });
      const data = typedFromBytes(hexToBytes(v.decoded), CTOR[dtype]);
      await zarr.set(arr, null, { data, shape: [data.length], stride: [1] });
      return store.files.get('c/0');
    });
    if (v.expect === 'encode_error') {
      if (r.ok) out.push('encode should fail, wrote a chunk');
    } else if (!r.ok) out.push(`encode failed: ${why(r.error)}`);
    else {
      const enc = v.metadata.codecs.find((c) => c === 'bytes' || c?.name === 'bytes');
      const endian = enc?.configuration?.endian ?? 'little';
      const stored = r.value;
      const storedType = v.encodedDataType ?? z.encodedDataType(v.arrayCodecsText, dtype);
      const diff = compareMemory(storedToMemory(stored, storedType, endian), storedToMemory(hexToBytes(v.encoded), storedType, endian), storedType, { lowBits: DTYPES[storedType].bits < 8 });
      if (diff) out.push(`encode: ${diff}`);
    }
  }
  return out.length ? { status: 'fail', reason: out.join('; ') } : { status: 'ok' };
}

async function runFamily(family) {
  const tally = { ok: 0, fail: 0, skip: 0, failures: [], skipReasons: new Map() };
  for (const v of loadFamily(family)) {
    const r = await runVector(v);
    tally[r.status]++;
    if (r.status === 'fail') tally.failures.push(`${v.id}: ${r.reason}`);
    if (r.status === 'skip') tally.skipReasons.set(r.reason, (tally.skipReasons.get(r.reason) ?? 0) + 1);
  }
  return tally;
}

const RESULTS = {};

for (const family of FAMILIES) {
  test(`vectors ${family}: read and written through zarrita + register like the oracle`, async (t) => {
    useOurs();
    const r = await runFamily(family);
    RESULTS[family] = r;
    for (const [reason, n] of r.skipReasons) t.diagnostic(`${n} skipped: ${reason}`);
    t.diagnostic(`${r.ok} ok, ${r.fail} failed, ${r.skip} skipped`);
    assert.equal(r.fail, 0, `${r.fail} vectors fail through zarrita:\n${r.failures.slice(0, 20).join('\n')}`);
    assert.ok(r.ok > 0);
  });
}

// v2: zarrita rewrites a fixedscaleoffset filter of a .zarray into scale_offset + cast_value and
// tells a codec nothing about the format. Through keepV2Filters(store) the filter reaches us whole
// and decodes as numcodecs does; without it, the rewrite means what the v3 specifications say.
// Every fixedscaleoffset vector written as a v2 array (its numpy dtype spellings), once with its
// own fill value and once with fill "NaN".
function v2Filter(v) {
  const conf = v.metadata.codecs[0].configuration;
  const filter = { id: 'fixedscaleoffset', scale: conf.scale, offset: conf.offset };
  if (conf.dtype != null) filter.dtype = conf.dtype;
  if (conf.astype != null) filter.astype = conf.astype;
  return filter;
}
const NUMPY = { float64: '<f8', float32: '<f4', float16: '<f2', int32: '<i4', int16: '<i2', uint16: '<u2', uint8: '|u1', int8: '|i1' };
const ZARR_NAME = { f8: 'float64', f4: 'float32', f2: 'float16', i8: 'int64', i4: 'int32', i2: 'int16', i1: 'int8', u8: 'uint64', u4: 'uint32', u2: 'uint16', u1: 'uint8' };

function v2Store(v, fill) {
  const np = NUMPY[v.metadata.data_type];
  const zarray = { zarr_format: 2, shape: v.metadata.shape, chunks: v.metadata.shape, dtype: np, compressor: null, fill_value: fill, order: 'C', filters: [v2Filter(v)] };
  return memStore({ '.zarray': JSON.stringify(zarray), '.zattrs': '{}', 0: hexToBytes(v.encoded) });
}

// The v3 document zarrita 0.7.5's v2ToV3ArrayMetadata makes of that .zarray (util.ts, copied
// rule by rule: scale_offset {scale, offset}, then cast_value {astype, nearest-even, wrap} unless
// astype is missing or equals dtype; numpy names as zarr names), for decodeChunk.
function zarritaRewrite(v, fill) {
  const f = v2Filter(v);
  const np = NUMPY[v.metadata.data_type];
  const codecs = [{ name: 'scale_offset', configuration: { scale: f.scale, offset: f.offset } }];
  const astype = f.astype ?? f.dtype;
  if (astype !== undefined && astype !== np) codecs.push({ name: 'cast_value', configuration: { data_type: ZARR_NAME[astype.replace(/^[<>|]/, '')], rounding: 'nearest-even', out_of_range: 'wrap' } });
  codecs.push({ name: 'bytes', configuration: { endian: 'little' } });
  return { zarr_format: 3, node_type: 'array', shape: v.metadata.shape, data_type: v.metadata.data_type, chunk_grid: { name: 'regular', configuration: { chunk_shape: v.metadata.shape } }, chunk_key_encoding: { name: 'v2', configuration: { separator: '.' } }, fill_value: fill, codecs };
}

// zarrita only accepts numpy spellings ("<u2", "|u1") in a v2 filter.
const numpySpelled = (v) => {
  const c = v.metadata.codecs[0].configuration;
  return [c.dtype, c.astype].every((s) => s == null || /^[<>|]/.test(s)) && HOLDS.has(v.metadata.data_type);
};

test('v2 .zarray with a fixedscaleoffset filter through keepV2Filters (own fill and NaN fill): numcodecs values through zarrita + register', async (t) => {
  useOurs();
  const vectors = loadFamily('fixedscaleoffset').filter(numpySpelled);
  assert.ok(vectors.length >= 20);
  const failures = [];
  for (const v of vectors) {
    const floaty = v.metadata.data_type.startsWith('float');
    for (const fill of floaty ? [v.metadata.fill_value, 'NaN'] : [v.metadata.fill_value]) {
      const r = await attempt(() => readArray(keepV2Filters(v2Store(v, fill))));
      if (!r.ok) failures.push(`${v.id} fill ${fill}: ${why(r.error)}`);
      else {
        const diff = compareMemory(viewBytes(r.value.data), hexToBytes(v.decoded), v.metadata.data_type);
        if (diff) failures.push(`${v.id} fill ${fill}: ${diff}`);
      }
    }
  }
  t.diagnostic(`${vectors.length} vectors as v2 arrays`);
  assert.deepEqual(failures, []);
});

test('v2 .zarray without keepV2Filters: zarrita\'s rewrite is read as the v3 codecs it names (decodeChunk of that document), never guessed to be numcodecs', async (t) => {
  useOurs();
  const vectors = loadFamily('fixedscaleoffset').filter(numpySpelled);
  const failures = [];
  let numcodecsDiffer = 0;
  let errors = 0;
  for (const v of vectors) {
    const doc = zarritaRewrite(v, v.metadata.fill_value);
    const want = await attempt(async () => z.decodeChunk(doc, hexToBytes(v.encoded)));
    const got = await attempt(() => readArray(v2Store(v, v.metadata.fill_value)));
    if (!want.ok) {
      errors++;
      if (got.ok) failures.push(`${v.id}: decodeChunk says ${want.error.code}, zarrita + register read values`);
      else if (errorCode(got.error) !== want.error.code) failures.push(`${v.id}: ${errorCode(got.error)} where decodeChunk says ${want.error.code}`);
      continue;
    }
    if (!got.ok) {
      failures.push(`${v.id}: ${why(got.error)}`);
      continue;
    }
    const diff = compareMemory(viewBytes(got.value.data), viewBytes(want.value), v.metadata.data_type);
    if (diff) failures.push(`${v.id}: ${diff}`);
    if (compareMemory(viewBytes(got.value.data), hexToBytes(v.decoded), v.metadata.data_type)) numcodecsDiffer++;
  }
  t.diagnostic(`${vectors.length} vectors: ${errors} are errors under the v3 codecs, ${numcodecsDiffer} others differ from numcodecs' values (read those with keepV2Filters)`);
  assert.deepEqual(failures, []);
  assert.ok(errors + numcodecsDiffer > 0, 'the v3 reading and the numcodecs reading differ somewhere (else this test shows nothing)');
});

// ---------------------------------------------------------------------------------------------
// 4. the same reads with zarrita's built-in codecs

test('MUST SHOW: zarrita 0.7.5 built-in codecs differ or fail where peers.md §4.4-4.5 says; register fixes each', async (t) => {
  const lines = [];
  const report = (s) => {
    lines.push(s);
    t.diagnostic(s);
  };

  // (a) float32 scale_offset(offset=5, scale=0.1): peers.md case A and A'.
  const values = new Float32Array(1_000_000);
  let seed = 12345;
  const rand = () => ((seed = (Math.imul(seed, 1103515245) + 12345) >>> 0) / 2 ** 32);
  values.set([1.0, 2.5, 3.3, 1e-3, 123.456, -7.77]);
  for (let i = 6; i < values.length; i++) values[i] = (rand() * 2 - 1) * 1000;
  const soMeta = (n) => ({
    zarr_format: 3, node_type: 'array', shape: [n], data_type: 'float32',
    chunk_grid: { name: 'regular', configuration: { chunk_shape: [n] } }, chunk_key_encoding: { name: 'default' },
    fill_value: 0, codecs: [{ name: 'scale_offset', configuration: { offset: 5, scale: 0.1 } }, { name: 'bytes', configuration: { endian: 'little' } }],
  });
  const stored = z.encodeChunk(soMeta(values.length), values);
  const exact = z.decodeChunk(soMeta(values.length), stored);
  const so = (n, bytes) => memStore({ 'zarr.json': JSON.stringify(soMeta(n)), 'c/0': bytes });
  useBuiltins();
  const six = await readArray(so(6, stored.slice(0, 24)));
  const big = await readArray(so(values.length, stored));
  useOurs();
  const sixOurs = await readArray(so(6, stored.slice(0, 24)));
  const bigOurs = await readArray(so(values.length, stored));
  const c6 = compareArrays(viewBytes(six.data), viewBytes(exact.subarray(0, 6)), 'float32');
  const cBig = compareArrays(viewBytes(big.data), viewBytes(exact), 'float32');
  report(`(a) float32 scale_offset(offset=5, scale=0.1), values [1, 2.5, 3.3, 1e-3, 123.456, -7.77]: built-in ${c6.differ} of 6 differ ` +
    `(${c6.first.map((d) => `${d.expected} -> ${d.got}`).join(', ')}); 1,000,000 random values in ±1000: built-in ${cBig.differ} differ ` +
    `(${((100 * cBig.differ) / values.length).toFixed(1)} %, max ${cBig.maxUlp} ulp); register: ` +
    `${compareArrays(viewBytes(sixOurs.data), viewBytes(exact.subarray(0, 6)), 'float32').differ + compareArrays(viewBytes(bigOurs.data), viewBytes(exact), 'float32').differ} differ`);
  // peers.md case A: zarr-python's bits are 1065353216 (1.0) and 981667840; zarrita's
  // 1065353215 and 981667328 (one ulp of the float32 intermediate, 512 ulps after cancellation).
  const bits = (ta) => Array.from(new Int32Array(ta.buffer, ta.byteOffset, ta.length));
  assert.deepEqual(bits(exact.subarray(0, 6)).filter((b, i) => [0, 3].includes(i)), [1065353216, 981667840]);
  assert.deepEqual(bits(six.data).filter((b, i) => [0, 3].includes(i)), [1065353215, 981667328]);
  assert.equal(c6.differ, 2, 'built-in: 2 of 6 values differ (peers.md case A)');
  assert.ok(cBig.differ > 50_000, `built-in: ${cBig.differ} of 1e6 differ`);
  assert.ok(compareArrays(viewBytes(bigOurs.data), viewBytes(exact), 'float32').equal);

  // (b) the vector families: how many vectors the built-in codecs get wrong.
  for (const family of ['scale_offset', 'cast_value', 'chains', 'exotic', 'cf', 'fixedscaleoffset']) {
    useBuiltins();
    const b = await runFamily(family);
    useOurs();
    const o = RESULTS[family] ?? (await runFamily(family));
    const kinds = new Map();
    for (const f of b.failures) {
      const k = /UnknownCodecError/.test(f) ? 'unknown codec' : /UnsupportedError|not implemented|Encoding is not supported/i.test(f) ? 'encode unsupported' : /should fail/.test(f) ? 'no error where the spec requires one' : /decode: element/.test(f) ? 'wrong values' : /encode: element/.test(f) ? 'wrong stored bytes' : 'throws';
      kinds.set(k, (kinds.get(k) ?? 0) + 1);
    }
    report(`(b) ${family}: of ${b.ok + b.fail} vectors zarrita can open, built-in ${b.fail} wrong (${[...kinds].map(([k, n]) => `${n} ${k}`).join(', ') || 'none'}); register ${o.fail} wrong`);
    if (family !== 'cf') assert.ok(b.fail > 0, `built-in codecs pass every ${family} vector?`);
    assert.equal(o.fail, 0);
  }
  // Specific ones, named in peers.md.
  useBuiltins();
  const i8 = loadFamily('scale_offset').find((v) => v.metadata.data_type === 'int8' && v.expect === 'decode_error');
  if (i8) {
    const r = await attempt(() => readArray(vectorStore(i8)));
    report(`(c) ${i8.id}: built-in ${r.ok ? `returns [${Array.from(r.value.data).join(', ')}] (no error)` : `throws ${why(r.error)}`}`);
  }

  // (d) v3 numcodecs.fixedscaleoffset: UnknownCodecError in zarrita 0.7.5.
  const v3 = dirStore(path.join(STORES, 'topobathy_v3_numcodecs_fixedscaleoffset.zarr'));
  const d = await attempt(() => readArray(v3));
  report(`(d) topobathy_v3_numcodecs_fixedscaleoffset.zarr: built-in ${d.ok ? 'reads it' : why(d.error)}`);
  assert.ok(!d.ok && d.error.name === 'UnknownCodecError');

  // (e) v2 fixedscaleoffset with a NaN fill value: zarrita's translation crashes.
  const mri = path.join(STORES, 'mri_v2_fixedscaleoffset.zarr');
  const zarray = JSON.parse(readFileSync(path.join(mri, '.zarray'), 'utf8'));
  const nanFill = { ...dirStore(mri), async get(k) { return k.endsWith('.zarray') ? new TextEncoder().encode(JSON.stringify({ ...zarray, fill_value: 'NaN' })) : dirStore(mri).get(k); } };
  const e = await attempt(() => readArray(nanFill));
  report(`(e) mri_v2_fixedscaleoffset.zarr with fill_value "NaN": built-in ${e.ok ? 'reads it' : why(e.error)}`);
  assert.ok(!e.ok && /NaN/.test(why(e.error)));
  useOurs();
  const plain = await attempt(() => readArray(nanFill));
  report(`(e) … with register, without keepV2Filters: ${plain.ok ? 'reads it' : why(plain.error)}`);
  const eo = await readArray(keepV2Filters(nanFill));
  // expected.bin with the absent chunk (0.3: rows 0-63, cols 192-255) as the new fill value NaN.
  const expMri = new Float32Array(expectedOf('mri_v2_fixedscaleoffset.zarr').bytes.slice().buffer);
  assert.ok(!existsSync(path.join(mri, '0.3')));
  for (let r = 0; r < 64; r++) expMri.fill(NaN, r * 256 + 192, r * 256 + 256);
  const ce = compareArrays(viewBytes(eo.data), viewBytes(expMri), 'float32');
  assert.ok(ce.equal, `register: ${ce.differ} differ, e.g. ${JSON.stringify(ce.first)}`);
  report('(e) … with register and keepV2Filters: reads it, equal to expected.bin (the absent chunk 0.3 as NaN)');

  // (e') the fixedscaleoffset vectors written as v2 arrays: zarrita's rewrite to scale_offset +
  // cast_value(nearest-even, wrap) with its own codecs, against numcodecs' values.
  useBuiltins();
  let v2wrong = 0;
  let v2throw = 0;
  const v2vectors = loadFamily('fixedscaleoffset').filter(numpySpelled);
  for (const v of v2vectors) {
    const r = await attempt(() => readArray(v2Store(v, v.metadata.fill_value)));
    if (!r.ok) v2throw++;
    else if (compareMemory(viewBytes(r.value.data), hexToBytes(v.decoded), v.metadata.data_type)) v2wrong++;
  }
  useOurs();
  report(`(e') ${v2vectors.length} fixedscaleoffset vectors as v2 .zarray arrays (own fill values): built-in ${v2wrong} wrong values, ${v2throw} throw; register + keepV2Filters 0 wrong (test above, also with fill NaN)`);
  assert.ok(v2wrong + v2throw > 0);

  // (f) a data type zarrita cannot hold, as the stored type: float32 -> cast_value(bfloat16).
  const bf = loadFamily('exotic').find((v) => v.metadata.data_type === 'float32' && v.expect !== 'decode_error' && v.encoded && JSON.stringify(v.metadata.codecs).includes('"bfloat16"'));
  useBuiltins();
  const f = await attempt(() => readArray(vectorStore(bf)));
  useOurs();
  const fo = await attempt(() => readArray(vectorStore(bf)));
  report(`(f) ${bf.id}: built-in ${f.ok ? 'reads it' : why(f.error)}; register ${fo.ok ? 'reads it' : why(fo.error)}`);
  assert.ok(!f.ok && fo.ok);
});
