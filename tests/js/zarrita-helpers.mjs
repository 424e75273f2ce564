// Helpers of the zarrita tests: stores zarrita can read (in memory, on disk), the four real
// stores of tests/fixtures/stores with their expected arrays, and a NaN-aware comparison.

import { existsSync, readFileSync } from 'node:fs';
import path from 'node:path';

import { FIXTURES } from './helpers.mjs';

export const STORES = path.join(FIXTURES, 'stores');

/** The real stores, in the order the demo shows them. */
export const STORE_NAMES = [
  'topobathy.zarr',
  'jacksboro_dem.zarr',
  'mri_v2_fixedscaleoffset.zarr',
  'topobathy_v3_numcodecs_fixedscaleoffset.zarr',
];

const key = (k) => (k.startsWith('/') ? k.slice(1) : k);

function range(bytes, r) {
  if (!bytes) return undefined;
  if ('suffixLength' in r) return bytes.subarray(bytes.length - r.suffixLength);
  return bytes.subarray(r.offset, r.offset + r.length);
}

/**
 * A zarrita store (get, getRange, set) over a Map of key -> Uint8Array | string. Counts reads.
 */
export function memStore(entries = {}) {
  const files = new Map();
  for (const [k, v] of Object.entries(entries)) files.set(key(k), typeof v === 'string' ? new TextEncoder().encode(v) : v);
  return {
    files,
    async get(k) {
      return files.get(key(k));
    },
    async getRange(k, r) {
      return range(files.get(key(k)), r);
    },
    async set(k, v) {
      files.set(key(k), new Uint8Array(v));
    },
  };
}

/** A read-only zarrita store over a directory. */
export function dirStore(dir) {
  const read = (k) => {
    const p = path.join(dir, key(k));
    return existsSync(p) ? new Uint8Array(readFileSync(p)) : undefined;
  };
  return {
    async get(k) {
      return read(k);
    },
    async getRange(k, r) {
      return range(read(k), r);
    },
  };
}

/** expected.json and expected.bin of a real store: { meta, bytes (Uint8Array), dtype, shape }. */
export function expectedOf(name) {
  const dir = path.join(STORES, name);
  const meta = JSON.parse(readFileSync(path.join(dir, 'expected.json'), 'utf8'));
  return { meta, bytes: new Uint8Array(readFileSync(path.join(dir, 'expected.bin'))), dtype: meta.data_type, shape: meta.shape };
}

/**
 * Compares two float/int arrays given as little-endian bytes of `dtype` (float32/float64 or an
 * integer type). Any NaN equals any NaN; everything else bit for bit. Returns
 * { equal, differ, first: [{ index, got, expected }], maxUlp }.
 */
export function compareArrays(actual, expected, dtype) {
  const size = { float32: 4, float64: 8, float16: 2 }[dtype] ?? 0;
  if (!size) {
    const equal = actual.length === expected.length && actual.every((b, i) => b === expected[i]);
    return { equal, differ: equal ? 0 : -1, first: [], maxUlp: 0 };
  }
  if (actual.length !== expected.length) return { equal: false, differ: -1, first: [{ index: -1, got: actual.length, expected: expected.length }], maxUlp: 0 };
  const a = new DataView(actual.buffer, actual.byteOffset, actual.byteLength);
  const e = new DataView(expected.buffer, expected.byteOffset, expected.byteLength);
  const get = size === 4 ? (v, i) => v.getFloat32(i * 4, true) : size === 8 ? (v, i) => v.getFloat64(i * 8, true) : (v, i) => v.getUint16(i * 2, true);
  const bits = size === 4 ? (v, i) => BigInt(v.getInt32(i * 4, true)) : size === 8 ? (v, i) => v.getBigInt64(i * 8, true) : (v, i) => BigInt(v.getUint16(i * 2, true));
  let differ = 0;
  let maxUlp = 0n;
  const first = [];
  const n = actual.length / size;
  for (let i = 0; i < n; i++) {
    const x = get(a, i);
    const y = get(e, i);
    if (Number.isNaN(x) && Number.isNaN(y)) continue;
    const bx = bits(a, i);
    const by = bits(e, i);
    if (bx === by) continue;
    differ++;
    const d = bx > by ? bx - by : by - bx;
    if (d > maxUlp) maxUlp = d;
    if (first.length < 5) first.push({ index: i, got: x, expected: y });
  }
  return { equal: differ === 0, differ, first, maxUlp: Number(maxUlp) };
}

/** The bytes of a typed array (a view). */
export function viewBytes(ta) {
  return new Uint8Array(ta.buffer, ta.byteOffset, ta.byteLength);
}
