// The stores that zarrs + the zarrs plugin (crates/zarrs) wrote, read and re-written by the
// built npm package: for every chunk, `decodeChunk(zarr.json, stored chunk)` gives exactly the
// bytes zarrs decoded, and `encodeChunk(zarr.json, zarrs' input)` gives the stored chunk (only
// the low bits of sub-byte values count: zarrs' bytes codec writes an int4 -8 as 0xf8, this
// package as 0x08; the spec leaves the upper bits arbitrary).
//
// The stores are made by `cargo test --test write` in crates/zarrs (scripts/test.sh runs it
// before this) into $ZARRS_STORES_DIR, default target/zarrs-stores/ (docs/guides/rust.md: the
// layout, for the other engines' readers). Without them this test is skipped, unless
// ZARRS_STORES_REQUIRED=1 (scripts/test.sh sets it), when it fails.

import { test } from 'node:test';
import assert from 'node:assert/strict';
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';

import * as z from 'zarr-scale-offset';

import { ROOT, hexToBytes, compareMemory, typedFromBytes, bytesOf } from './helpers.mjs';

const DIR = process.env.ZARRS_STORES_DIR || path.join(ROOT, 'target', 'zarrs-stores');
const REQUIRED = process.env.ZARRS_STORES_REQUIRED === '1';
const CTORS = {
  Int8Array, Uint8Array, Int16Array, Uint16Array, Int32Array, Uint32Array,
  Float32Array, Float64Array, BigInt64Array, BigUint64Array,
};

const stores = existsSync(DIR)
  ? readdirSync(DIR).filter((d) => existsSync(path.join(DIR, d, 'chunks.json'))).sort()
  : [];

test('the zarrs-written stores are there', { skip: !REQUIRED && stores.length === 0 && `no stores in ${DIR} (run cargo test --test write in crates/zarrs)` }, () => {
  // The six of crates/zarrs/tests/write.rs.
  assert.deepEqual(stores, [
    'bf16_float8_e4m3.zarr',
    'cf_int16_nan.zarr',
    'f32_int4.zarr',
    'f32_scale_offset_int16.zarr',
    'int4_scale_offset.zarr',
    'u64_scale_offset.zarr',
  ]);
});

for (const name of stores) {
  test(`zarrs-written ${name}: decodeChunk and encodeChunk give zarrs' bytes`, async () => {
    await z.ready();
    const dir = path.join(DIR, name);
    // The metadata as text: JSON.parse would round 64-bit integers.
    const metaText = readFileSync(path.join(dir, 'zarr.json'), 'utf8');
    const meta = JSON.parse(metaText);
    const manifest = JSON.parse(readFileSync(path.join(dir, 'chunks.json'), 'utf8'));
    const dt = meta.data_type;
    const arrayCodecs = meta.codecs.slice(0, -1);
    const encodedDt = z.encodedDataType(arrayCodecs, dt);
    const Ctor = CTORS[z.typedArrayKind(dt)];
    assert.ok(manifest.chunks.length > 0);
    for (const { key, input, zarrs_decoded: zarrsDecoded } of manifest.chunks) {
      const stored = new Uint8Array(readFileSync(path.join(dir, key)));
      const decoded = bytesOf(z.decodeChunk(metaText, stored));
      assert.equal(compareMemory(decoded, hexToBytes(zarrsDecoded), dt), null, `${name} ${key}: decode`);
      assert.deepEqual(decoded, hexToBytes(zarrsDecoded), `${name} ${key}: decode, bit for bit`);
      const encoded = z.encodeChunk(metaText, typedFromBytes(hexToBytes(input), Ctor));
      assert.equal(compareMemory(encoded, stored, encodedDt, { lowBits: true }), null, `${name} ${key}: encode`);
    }
  });
}
