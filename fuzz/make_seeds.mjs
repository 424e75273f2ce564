#!/usr/bin/env node
// Builds the committed seed corpus fuzz/seeds/<target>/ from tests/fixtures/ (run by
// scripts/fuzz.sh when a seed directory is missing; `node fuzz/make_seeds.mjs` rebuilds it).
// Small on purpose: at most a few hundred files, each a few KB. libFuzzer writes what it
// discovers into fuzz/corpus/<target>/ (git-ignored), never into the seeds.
import { createHash } from 'node:crypto';
import { mkdirSync, readFileSync, readdirSync, rmSync, writeFileSync } from 'node:fs';
import path from 'node:path';

const ROOT = path.resolve(import.meta.dirname, '..');
const SEEDS = path.join(ROOT, 'fuzz', 'seeds');
const VECTORS = path.join(ROOT, 'conformance', 'vectors');
const TYPES = ['int2', 'int4', 'int8', 'int16', 'int32', 'int64', 'uint2', 'uint4', 'uint8', 'uint16', 'uint32',
  'uint64', 'float4_e2m1fn', 'float6_e2m3fn', 'float6_e3m2fn', 'float8_e3m4', 'float8_e4m3', 'float8_e4m3b11fnuz',
  'float8_e4m3fnuz', 'float8_e5m2', 'float8_e5m2fnuz', 'float8_e8m0fnu', 'bfloat16', 'float16', 'float32', 'float64'];
const MAX_BYTES = 4096;
const ti = (n) => TYPES.indexOf(n);

const out = new Map(); // target -> Map(hash -> bytes)
function add(target, bytes) {
  if (bytes.length > MAX_BYTES) return;
  if (!out.has(target)) out.set(target, new Map());
  out.get(target).set(createHash('sha1').update(bytes).digest('hex').slice(0, 16), bytes);
}
const text = (s) => Buffer.from(s, 'utf8');
const cat = (...parts) => Buffer.concat(parts.map((p) => (typeof p === 'number' ? Buffer.from([p]) : p)));

const families = readdirSync(VECTORS).filter((f) => f.endsWith('.json'));
for (const f of families) {
  const cases = JSON.parse(readFileSync(path.join(VECTORS, f), 'utf8'));
  // A spread of cases per family (every k-th), so the corpus stays small.
  const step = Math.max(1, Math.floor(cases.length / 12));
  cases.forEach((c, i) => {
    if (i % step !== 0 && !f.startsWith('metadata_errors')) return;
    const meta = JSON.stringify(c.metadata);
    const sel = Math.max(0, TYPES.indexOf(c.metadata.data_type));
    add('json_validate', cat(26, text(meta)));
    const codecs = Array.isArray(c.metadata.codecs) ? c.metadata.codecs : [];
    if (codecs.length > 0) {
      add('json_validate', cat(sel, text(JSON.stringify(codecs.slice(0, -1)))));
      add('json_validate', cat(sel, text(JSON.stringify(codecs[0]))));
    }
    const stored = Buffer.from(c.encoded ?? '', 'hex');
    add('chunk', cat(text(meta), 0, stored));
    if (c.decoded) add('chunk', cat(text(meta), 0, Buffer.from(c.decoded, 'hex')));
  });
}
// Real stores' metadata.
for (const s of ['jacksboro_dem.zarr', 'topobathy.zarr', 'topobathy_v3_numcodecs_fixedscaleoffset.zarr']) {
  const meta = readFileSync(path.join(ROOT, 'tests', 'fixtures', 'stores', s, 'zarr.json'));
  add('json_validate', cat(26, meta));
  add('chunk', cat(meta, 0, Buffer.alloc(16)));
}
// Shapes at the edges of addressability and of u64 (a product that overflows, 2^60, 2^64).
const edge = (cs, shape = cs) => JSON.stringify({ zarr_format: 3, node_type: 'array', shape, data_type: 'uint8',
  chunk_grid: { name: 'regular', configuration: { chunk_shape: cs } }, chunk_key_encoding: { name: 'default' },
  fill_value: 0, codecs: ['bytes'] });
for (const cs of ['[4294967296,4294967296,15]', '[1152921504606846975]', '[18446744073709551615]', '[4,0]', '[]']) {
  const t = edge('CS').replaceAll('"CS"', cs);
  add('json_validate', cat(26, text(t)));
  add('chunk', cat(text(t), 0, Buffer.alloc(4)));
}
// Zarr v2 (.zarray) with the legacy filter, with its zlib compressor and without one.
const zarray = readFileSync(path.join(ROOT, 'tests', 'fixtures', 'stores', 'mri_v2_fixedscaleoffset.zarr', '.zarray'), 'utf8');
const v2 = JSON.parse(zarray);
for (const doc of [v2, { ...v2, compressor: null, chunks: [4, 2] }, { ...v2, compressor: null, chunks: [8], shape: [8], filters: null, dtype: '>i2' }]) {
  add('json_validate', cat(26, text(JSON.stringify(doc))));
  add('chunk', cat(text(JSON.stringify(doc)), 0, Buffer.alloc(16, 7)));
}
// numcodecs.fixedscaleoffset configurations: [data type selector][JSON].
const fso = [
  '{"id":"fixedscaleoffset","scale":100,"offset":0,"dtype":"<f4","astype":"<u2"}',
  '{"name":"numcodecs.fixedscaleoffset","configuration":{"offset":1000,"scale":10,"dtype":"<f8","astype":"|u1"}}',
  '{"offset":-10,"scale":0.5,"astype":"<i2"}',
  '{"scale":3}',
  '{"offset":1e300,"scale":1e-300,"dtype":"<f8","astype":"<i8"}',
];
for (const f of fso) for (const sel of [ti('float64'), ti('float32'), ti('int16'), 31]) add('from_fixed_scale_offset', cat(sel, text(f)));
// JSON edge cases.
for (const t of ['[[[[[[[[[[]]]]]]]]]]', '{"a":1,"a":2}', '"\\ud800"', '1e400', '-0', '{"zarr_format":3}', '']) {
  add('json_validate', cat(26, text(t)));
}
// Duplicate keys and ignored members (attributes, extensions, unknown .zarray keys): whole
// documents, and JSON values that json_validate also embeds in an ignored member of a good
// document, repeated 1 + (selector % 32) times (selectors 0..127 pick the repeat and the place).
const good = JSON.parse(readFileSync(path.join(ROOT, 'tests', 'fixtures', 'stores', 'jacksboro_dem.zarr', 'zarr.json'), 'utf8'));
const withMember = (extra) => JSON.stringify({ ...good, attributes: {} }).slice(0, -1) + extra + '}';
const nested = '[1,{"k":[{"q":1,"q":2}],"k":0},[[{"a":{"b":{"c":1,"c":[2]}}}]],"\\u0061",{"a":1,"\\u0061":2}]';
for (const extra of [
  ',"attributes":{"a":1,"a":2}',
  `,"attributes":{"x":${nested},"y":{"m~n":{"a/b":1,"a/b":2}}}`,
  ',"ext":{"must_understand":false,"v":[{"q":0,"q":0}],"v":1}',
  `,"ext":{"v":${nested},"must_understand":false}`,
  ',"foo":[1,2,{"k":1,"k":1}]',
  `,"attributes":{"deep":${'['.repeat(124)}${']'.repeat(124)}}`,
  `,"attributes":{"deep":${'['.repeat(126)}${']'.repeat(126)}}`,
  `,"attributes":{"n":[${Array.from({ length: 400 }, (_, i) => `${i}.5e-3`).join(',')}]}`,
]) {
  add('json_validate', cat(26, text(withMember(extra).replace(',"attributes":{}', ''))));
}
for (const [sel, value] of [
  [0, '{"a":1,"a":2}'], [33, nested], [66, '{"k":[{"q":1}],"z":[{"q":1,"q":1}]}'], [127, '[0.5,"s",null,true]'],
  [5, `${'['.repeat(120)}1${']'.repeat(120)}`], [31, '{"a":{"a":{"a":1,"a":2}},"b":"\\ud83d\\ude00"}'],
]) {
  add('json_validate', cat(sel, text(value)));
}

// from_cf: [packed type][attribute type][attrs JSON].
const cfAttrs = [
  '{"scale_factor":0.0001,"add_offset":-0.1,"_FillValue":0}',
  '{"scale_factor":0.01,"add_offset":273.15,"_FillValue":-32767}',
  '{"scale_factor":{"value":0.5,"dtype":"float32"},"_Unsigned":"true","_FillValue":-1}',
  '{"scale_factor":2}',
  '{"add_offset":10,"missing_value":[1,2,"NaN"]}',
  '{"_FillValue":-9999}',
  '{"scale_factor":[0.1],"add_offset":{"value":1,"dtype":"float16"}}',
  '{}',
];
for (const a of cfAttrs) {
  for (const [p, ad] of [[ti('uint16'), 29], [ti('int16'), 26], [ti('int8'), 29], [ti('int32'), 27], [ti('float32'), 29]]) {
    add('from_cf', cat(p, ad, text(a)));
  }
}

// codec_bind is structure-aware (arbitrary): raw byte seeds of several lengths.
let x = 0x9e3779b97f4a7c15n;
for (let k = 0; k < 24; k++) {
  const len = 16 + k * 24;
  const b = Buffer.alloc(len);
  for (let i = 0; i < len; i++) {
    x ^= (x << 13n) & 0xffffffffffffffffn;
    x ^= x >> 7n;
    x ^= (x << 17n) & 0xffffffffffffffffn;
    b[i] = Number(x & 0xffn);
  }
  add('codec_bind', b);
}

rmSync(SEEDS, { recursive: true, force: true });
let total = 0;
for (const [target, files] of out) {
  const dir = path.join(SEEDS, target);
  mkdirSync(dir, { recursive: true });
  for (const [h, bytes] of files) {
    writeFileSync(path.join(dir, `seed-${h}`), bytes);
    total += bytes.length;
  }
  console.log(`fuzz/seeds/${target}: ${files.size} files`);
}
console.log(`total ${total} bytes`);
