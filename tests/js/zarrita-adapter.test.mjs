// zarr-scale-offset/zarrita: what the adapter decides, through real zarrita 0.7.5 reads of stores
// (issue 12 class 4):
//
//   1. v2 versus v3 is never guessed from the shape of a codecs list: zarrita tells a codec
//      nothing about the format, so scale_offset/cast_value always mean the v3 codecs, and
//      keepV2Filters(store) is how a caller asks for numcodecs' reading of a v2 filter;
//   2. every chunk's length is checked against its shape (a corrupt shard index giving an inner
//      chunk too short a byte range is length_mismatch, never a zero-padded read);
//   3. errorCode(err) finds our code through zarrita's CodecPipelineError.

import { test, before } from 'node:test';
import assert from 'node:assert/strict';

import * as zarr from 'zarrita';
import * as z from 'zarr-scale-offset';
import { register, keepV2Filters, errorCode, V2_FIXEDSCALEOFFSET } from 'zarr-scale-offset/zarrita';

import { memStore } from './zarrita-helpers.mjs';

before(async () => {
  await register(zarr.registry);
});

async function read(store) {
  const arr = await zarr.open(store, { kind: 'array' });
  return zarr.get(arr);
}

async function failure(promise) {
  try {
    await promise;
  } catch (e) {
    return e;
  }
  assert.fail('expected an error');
}

const v3 = (dataType, shape, chunkShape, codecs, fill = 0) => ({
  zarr_format: 3,
  node_type: 'array',
  shape,
  data_type: dataType,
  chunk_grid: { name: 'regular', configuration: { chunk_shape: chunkShape } },
  chunk_key_encoding: { name: 'default' },
  fill_value: fill,
  codecs,
});

const bigEndian = (Ctor, values) => {
  const a = Ctor.from(values);
  const bytes = new Uint8Array(a.buffer);
  for (let i = 0; i < bytes.length; i += a.BYTES_PER_ELEMENT) bytes.subarray(i, i + a.BYTES_PER_ELEMENT).reverse();
  return bytes;
};

// ---------------------------------------------------------------------------------------------
// 1. v2 versus v3

// The list zarrita 0.7.5 makes of a big-endian v2 fixedscaleoffset filter, written as a v3 zarr.json.
const wrapChain = (scale, offset, astype) => [
  { name: 'scale_offset', configuration: { scale, offset } },
  { name: 'cast_value', configuration: { data_type: astype, rounding: 'nearest-even', out_of_range: 'wrap' } },
  { name: 'bytes', configuration: { endian: 'big' } },
];

test('a v3 [scale_offset, cast_value(wrap), bytes(big)] chain is read as the v3 codecs: int16 scale 2 is not_representable, as decodeChunk says', async () => {
  const meta = v3('int16', [4], [4], wrapChain(2, 0, 'int8'));
  const stored = new Uint8Array([1, 2, 3, 4]); // int8 codes
  // decodeChunk, the core on its own, on the same document and bytes
  assert.throws(() => z.decodeChunk(meta, stored), (e) => e.code === 'not_representable');
  // numcodecs would give [0, 1, 1, 2] (float64 1/2 = 0.5 cast to 0, ...): the old guess
  const e = await failure(read(memStore({ 'zarr.json': JSON.stringify(meta), 'c/0': stored })));
  assert.equal(e.name, 'CodecPipelineError', "zarrita wraps a codec's error");
  assert.equal(e.code, undefined, "zarrita's error has no .code of its own");
  assert.equal(e.cause?.code, 'not_representable', 'ours is its cause');
  assert.equal(errorCode(e), 'not_representable');
  assert.match(e.cause.message, /scale_offset/);
  // even codes divide exactly: the v3 values
  const ok = await read(memStore({ 'zarr.json': JSON.stringify(meta), 'c/0': new Uint8Array([2, 4, 0xfa, 8]) }));
  assert.deepEqual(Array.from(ok.data), [1, 2, -3, 4]);
});

test('a v3 float32 [scale_offset, cast_value(uint16, wrap), bytes(big)] chain: all 65,536 codes as decodeChunk decodes them, not as numcodecs would', async (t) => {
  const n = 65536;
  const codes = new Uint16Array(n).map((_, i) => i);
  const stored = bigEndian(Uint16Array, codes);
  const meta = v3('float32', [n], [n], wrapChain(10, 1000.1, 'uint16'), 1000.1);
  const got = await read(memStore({ 'zarr.json': JSON.stringify(meta), 'c/0': stored }));
  const want = z.decodeChunk(meta, stored);
  assert.ok(got.data instanceof Float32Array);
  let differ = 0;
  for (let i = 0; i < n; i++) if (!Object.is(got.data[i], want[i])) differ++;
  assert.equal(differ, 0, `${differ} of ${n} codes differ from decodeChunk`);
  // numcodecs' reading of the same codes (float64 arithmetic, one cast), by the numcodecs codec
  const numcodecs = z.decodeChunk(
    v3('float32', [n], [n], [{ name: 'numcodecs.fixedscaleoffset', configuration: { scale: 10, offset: 1000.1, dtype: 'float32', astype: 'uint16' } }, { name: 'bytes', configuration: { endian: 'big' } }]),
    stored,
  );
  let other = 0;
  for (let i = 0; i < n; i++) if (!Object.is(numcodecs[i], want[i])) other++;
  t.diagnostic(`${other} of ${n} codes decode differently under numcodecs' rule (the old guess would have returned those)`);
  assert.ok(other > 0, 'this chain tells the two readings apart');
  // literal spot checks: code 1 is 1/10 + 1000.1 in float32 arithmetic (two roundings)
  assert.equal(got.data[1], Math.fround(Math.fround(Math.fround(1) / Math.fround(10)) + Math.fround(1000.1)));
});

test('keepV2Filters: a v2 fixedscaleoffset filter reaches the adapter whole and decodes as numcodecs does (float64, one cast), big-endian too', async () => {
  const zarray = (dtype, astype) =>
    JSON.stringify({ zarr_format: 2, shape: [4], chunks: [4], dtype, compressor: null, fill_value: 0, order: 'C', filters: [{ id: 'fixedscaleoffset', scale: 2, offset: 0, dtype, astype }] });
  // int16 <- int8, scale 2: numcodecs truncates 0.5 and 1.5 (numpy astype)
  const intStore = () => memStore({ '.zarray': zarray('<i2', '|i1'), 0: new Uint8Array([1, 2, 3, 4]) });
  assert.deepEqual(Array.from((await read(keepV2Filters(intStore()))).data), [0, 1, 1, 2]);
  // without the wrapper: zarrita's rewrite, read as the v3 codecs it names
  assert.equal(errorCode(await failure(read(intStore()))), 'not_representable');
  // big-endian float32 <- uint16: zarrita inserts bytes(big) after the filter
  const be = memStore({
    '.zarray': JSON.stringify({ zarr_format: 2, shape: [4], chunks: [4], dtype: '>f4', compressor: null, fill_value: 'NaN', order: 'C', filters: [{ id: 'fixedscaleoffset', scale: 10, offset: 0, dtype: '>f4', astype: '>u2' }] }),
    0: bigEndian(Uint16Array, [10, 15, 25, 33]),
  });
  const got = await read(keepV2Filters(be));
  assert.deepEqual(Array.from(got.data), [1, 1.5, 2.5, Math.fround(3.3)]);
});

test('keepV2Filters: passes every other key, property and method through; consolidated .zmetadata; v3 documents untouched; not-JSON untouched', async () => {
  assert.throws(() => keepV2Filters(), TypeError);
  assert.throws(() => keepV2Filters({}), /zarrita store/);
  class Store {
    #files;
    constructor(files) {
      this.#files = files;
      this.url = 'mem://x';
    }
    async get(k) {
      return this.#files.get(k.replace(/^\//, ''));
    }
    async getRange(k, r) {
      const b = this.#files.get(k.replace(/^\//, ''));
      return b && ('suffixLength' in r ? b.subarray(b.length - r.suffixLength) : b.subarray(r.offset, r.offset + r.length));
    }
  }
  const enc = (s) => new TextEncoder().encode(s);
  const v3doc = enc(JSON.stringify(v3('float32', [2], [2], [{ name: 'scale_offset', configuration: { scale: 2 } }, { name: 'bytes' }])));
  const notJson = enc('{"zarr_format": 2, nope');
  const arrayDoc = { zarr_format: 2, shape: [2], chunks: [2], dtype: '<f8', compressor: null, fill_value: null, order: 'C', filters: [{ id: 'numcodecs.fixedscaleoffset', scale: 4, offset: 1, dtype: '<f8', astype: '|u1' }, { id: 'delta', dtype: '<f8' }] };
  const files = new Map([
    ['zarr.json', v3doc],
    ['bad/.zarray', notJson],
    ['g/a/.zarray', enc(JSON.stringify(arrayDoc))],
    ['g/a/0', new Uint8Array([2, 3])],
  ]);
  const raw = new Store(files);
  const s = keepV2Filters(raw);
  assert.equal(s.url, 'mem://x');
  assert.equal(await s.get('/zarr.json'), v3doc, 'a v3 document: the same bytes');
  assert.equal(await s.get('/bad/.zarray'), notJson, 'not JSON: the same bytes (zarrita reports it)');
  assert.equal(await s.get('/nothing/.zarray'), undefined);
  assert.deepEqual(Array.from(await s.getRange('/g/a/0', { offset: 1, length: 1 })), [3], 'getRange runs on the store (private fields)');
  const doc = JSON.parse(new TextDecoder().decode(await s.get('/g/a/.zarray')));
  assert.deepEqual(doc.filters, [{ id: 'fixedscaleoffset.v2', scale: 4, offset: 1, dtype: '<f8', astype: '|u1' }, { id: 'delta', dtype: '<f8' }]);
  assert.deepEqual({ ...doc, filters: null }, { ...arrayDoc, filters: null }, 'nothing else changes');
  assert.equal(`numcodecs.${doc.filters[0].id}`, V2_FIXEDSCALEOFFSET);
  // Consolidated v2 metadata: the array's .zarray exists only inside .zmetadata.
  const consolidated = new Map([
    ['.zgroup', enc('{"zarr_format": 2}')],
    ['.zmetadata', enc(JSON.stringify({ zarr_consolidated_format: 1, metadata: { '.zgroup': { zarr_format: 2 }, 'a/.zarray': arrayDoc, 'a/.zattrs': {} } }))],
    ['a/0', new Uint8Array([2, 3])],
  ]);
  const store = await zarr.withConsolidatedMetadata(keepV2Filters(new Store(consolidated)), { format: 'v2' });
  const arr = await zarr.open.v2(zarr.root(store).resolve('a'), { kind: 'array' });
  // decode runs the filters backwards: delta (cumulative sum) [2, 3] -> [2, 5], then
  // fixedscaleoffset x / 4 + 1 -> [1.5, 2.25]
  assert.deepEqual(Array.from((await zarr.get(arr)).data), [1.5, 2.25]);
});

test('keepV2Filters: an astype whose byte order differs from dtype\'s is invalid_metadata (zarrita reads the bytes in dtype\'s order)', async () => {
  const zarray = (dtype, astype) => JSON.stringify({ zarr_format: 2, shape: [2], chunks: [2], dtype, compressor: null, fill_value: 0, order: 'C', filters: [{ id: 'fixedscaleoffset', scale: 1, offset: 0, dtype, astype }] });
  const e = await failure(read(keepV2Filters(memStore({ '.zarray': zarray('<f4', '>u2'), 0: new Uint8Array([0, 1, 0, 2]) }))));
  assert.equal(errorCode(e), 'invalid_metadata');
  assert.match(e.message, /astype ">u2" has the other byte order than dtype "<f4"/);
  // a one-byte astype has no byte order to disagree
  assert.deepEqual(Array.from((await read(keepV2Filters(memStore({ '.zarray': zarray('>f4', '|u1'), 0: new Uint8Array([1, 2]) })))).data), [1, 2]);
});

// ---------------------------------------------------------------------------------------------
// 2. chunk lengths

// A sharded float32 array of 8 elements: one shard of two inner chunks of 4, each stored as
// [scale_offset(scale 2), cast_value(int16), bytes] (8 bytes), the index at the end.
function shardedStore(ranges) {
  const meta = v3('float32', [8], [8], [
    {
      name: 'sharding_indexed',
      configuration: {
        chunk_shape: [4],
        codecs: [{ name: 'scale_offset', configuration: { scale: 2 } }, { name: 'cast_value', configuration: { data_type: 'int16' } }, { name: 'bytes', configuration: { endian: 'little' } }],
        index_codecs: [{ name: 'bytes', configuration: { endian: 'little' } }],
      },
    },
  ]);
  const inner = new Uint8Array(new Int16Array([2, 4, 6, 8, -2, -4, -6, -8]).buffer);
  const index = new BigUint64Array(ranges.flat().map(BigInt));
  const shard = new Uint8Array(16 + 32);
  shard.set(inner, 0);
  shard.set(new Uint8Array(index.buffer), 16);
  return memStore({ 'zarr.json': JSON.stringify(meta), 'c/0': shard });
}

test('sharding: a good index reads exactly; an inner chunk shorter or longer than its shape is length_mismatch, never a zero-padded read', async () => {
  const good = await read(shardedStore([[0, 8], [8, 8]]));
  assert.deepEqual(Array.from(good.data), [1, 2, 3, 4, -1, -2, -3, -4]);
  // zarrita's own codecs pad a short inner chunk with zeros; ours refuse it
  const short = await failure(read(shardedStore([[0, 4], [8, 8]])));
  assert.equal(errorCode(short), 'length_mismatch');
  assert.match(short.cause.message, /decodes to 2 elements, but its shape \[4\] needs 4/);
  assert.match(short.cause.message, /shard index/);
  // an empty inner chunk: named by its shape, not a chunk_shape the document never wrote
  const empty = await failure(read(shardedStore([[0, 0], [8, 8]])));
  assert.equal(errorCode(empty), 'length_mismatch');
  assert.match(empty.cause.message, /decodes to 0 elements, but its shape \[4\] needs 4/);
  assert.doesNotMatch(empty.cause.message, /chunk_shape/);
  const long = await failure(read(shardedStore([[0, 12], [8, 8]])));
  assert.equal(errorCode(long), 'length_mismatch');
  assert.match(long.cause.message, /decodes to 6 elements, but its shape \[4\] needs 4/);
  // the second inner chunk alone, by selection
  const arr = await zarr.open(shardedStore([[0, 8], [8, 2]]), { kind: 'array' });
  assert.deepEqual(Array.from((await zarr.get(arr, [zarr.slice(0, 4)])).data), [1, 2, 3, 4]);
  assert.equal(errorCode(await failure(zarr.get(arr, [zarr.slice(4, 8)]))), 'length_mismatch');
});

test('a truncated chunk file (regular grid, v3 and v2 through keepV2Filters) is length_mismatch', async () => {
  const meta = v3('float32', [4], [4], [{ name: 'scale_offset', configuration: { scale: 2 } }, { name: 'cast_value', configuration: { data_type: 'int16' } }, { name: 'bytes', configuration: { endian: 'little' } }]);
  const e = await failure(read(memStore({ 'zarr.json': JSON.stringify(meta), 'c/0': new Uint8Array(6) })));
  assert.equal(errorCode(e), 'length_mismatch');
  assert.match(e.cause.message, /cast_value \(codec 1 of the chunk's codecs\): the stored chunk decodes to 3 elements, but its shape \[4\] needs 4/);
  const zarray = JSON.stringify({ zarr_format: 2, shape: [4], chunks: [4], dtype: '<f4', compressor: null, fill_value: 0, order: 'C', filters: [{ id: 'fixedscaleoffset', scale: 2, offset: 0, dtype: '<f4', astype: '<i2' }] });
  const e2 = await failure(read(keepV2Filters(memStore({ '.zarray': zarray, 0: new Uint8Array(4) }))));
  assert.equal(errorCode(e2), 'length_mismatch');
  assert.match(e2.cause.message, /numcodecs\.fixedscaleoffset\.v2/);
});

test('encode: a chunk that does not fill its shape is length_mismatch', async () => {
  const meta = v3('float32', [4], [4], [{ name: 'scale_offset', configuration: { scale: 2 } }, { name: 'bytes', configuration: { endian: 'little' } }]);
  const arr = await zarr.open(memStore({ 'zarr.json': JSON.stringify(meta) }), { kind: 'array' });
  const codec = (await zarr.registry.get('scale_offset')()).fromConfig({ scale: 2 }, { dataType: 'float32', shape: [4], codecs: meta.codecs, fillValue: 0 });
  assert.throws(() => codec.encode({ data: new Float32Array(3), shape: [4], stride: [1] }), (x) => x.code === 'length_mismatch' && /holds 3 elements, but its shape \[4\] needs 4/.test(x.message));
  assert.throws(() => codec.decode({ data: new Float32Array(4), shape: [4, -1], stride: [1] }), (x) => x.code === 'length_mismatch' && /needs a valid shape/.test(x.message));
  await zarr.set(arr, null, { data: new Float32Array([1, 2, 3, 4]), shape: [4], stride: [1] });
  assert.deepEqual(Array.from((await zarr.get(arr)).data), [1, 2, 3, 4]);
});

// ---------------------------------------------------------------------------------------------
// 3. errorCode

test('errorCode: the first string .code along the cause chain; undefined otherwise; never throws', () => {
  const coded = Object.assign(new Error('x'), { code: 'invalid_metadata' });
  assert.equal(errorCode(coded), 'invalid_metadata');
  assert.equal(errorCode(new Error('outer', { cause: new Error('mid', { cause: coded }) })), 'invalid_metadata');
  assert.equal(errorCode(new Error('plain')), undefined);
  assert.equal(errorCode(undefined), undefined);
  assert.equal(errorCode('length_mismatch'), undefined, 'a string is not an error');
  assert.equal(errorCode({ code: 42, cause: { code: 'not_representable' } }), 'not_representable', 'only string codes count');
  const loop = new Error('a');
  loop.cause = new Error('b', { cause: loop });
  assert.equal(errorCode(loop), undefined, 'a cycle ends the walk');
  const { proxy, revoke } = Proxy.revocable({}, {});
  revoke();
  assert.equal(errorCode(proxy), undefined, 'a revoked Proxy');
  assert.equal(errorCode(new Error('g', { cause: { get code() { throw new RangeError('no'); } } })), undefined, 'a getter that throws');
  let deep = coded;
  for (let i = 0; i < 40; i++) deep = new Error(String(i), { cause: deep });
  assert.equal(errorCode(deep), 'invalid_metadata', '40 levels deep');
  assert.equal(z.errorCode, errorCode, 'the same function from both entries');
});
