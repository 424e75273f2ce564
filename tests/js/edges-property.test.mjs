// Property-style test of the JS API's edges (issue 12), on the BUILT package: random inputs from
// a fixed seed, each call checked as "the exact result, or the coded error the exact model
// predicts (with the element it names)". Four generators:
//
//   A. JS numbers that are integers of 2^53 or more (and some beyond 2^65, and their negatives)
//      as scale_offset offsets and fill values of int64 / uint64 / float64 / float32, through
//      encode, decode, bind and decodeChunk with metadata objects. The model: BigInt arithmetic
//      on BigInt(v) (the double's exact value) for integers, JS double arithmetic (and
//      Math.fround, exact for float32's + - * /) for floats.
//   B. zarr.json texts with random key order and, half the time, one key written twice (in any
//      object: top level, chunk_grid and its configuration, a codec, a configuration, the
//      attributes): `invalid_metadata` naming the duplicate's pointer, else the exact values.
//      Duplicates inside `attributes` may also be accepted (they are ignored), never misread.
//   C. decodeInto / decodeChunkInto / a bound handle's decodeInto and encodeInto with input and
//      out at random offsets of one ArrayBuffer, one SharedArrayBuffer, two SharedArrayBuffer
//      objects of one memory (structuredClone; a shared WebAssembly.Memory's buffer before and
//      after grow) or two distinct memories: the model's values computed from a copy of the input
//      taken before the call.
//   D. For bfloat16 / float16 / float8_e5m2 / float32 fields, an offset written as the double's
//      exact value reads as the same value as JSON.stringify's shortest text of it.
//
// Bounded: a fixed number of cases per generator and a cap on the elements moved (about 3 s).
// Node only; tests/js/edges.test.mjs runs the fixed cases of the same classes in Chromium too.

import { test, before } from 'node:test';
import assert from 'node:assert/strict';

import * as z from 'zarr-scale-offset';

before(async () => {
  await z.ready();
});

// mulberry32: a small deterministic PRNG (fixed seeds below).
function rng(seed) {
  let a = seed >>> 0;
  const next = () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
  const int = (n) => Math.floor(next() * n); // 0 .. n-1
  const pick = (xs) => xs[int(xs.length)];
  const big = (bits) => {
    let v = 0n;
    for (let i = 0; i < bits; i += 16) v = (v << 16n) | BigInt(int(65536));
    return v & ((1n << BigInt(bits)) - 1n);
  };
  return { next, int, pick, big, chance: (p) => next() < p };
}

const RANGE = {
  int64: [-(2n ** 63n), 2n ** 63n - 1n],
  uint64: [0n, 2n ** 64n - 1n],
  int32: [-(2n ** 31n), 2n ** 31n - 1n],
  int16: [-(2n ** 15n), 2n ** 15n - 1n],
};
const inRange = (dt, v) => v >= RANGE[dt][0] && v <= RANGE[dt][1];
const ARRAY = { int64: BigInt64Array, uint64: BigUint64Array, float64: Float64Array, float32: Float32Array, int32: Int32Array, int16: Int16Array, uint8: Uint8Array };

// An integral double of magnitude 2^53 .. 2^66 (random 53-bit mantissa) or a boundary value.
function bigNumber(r) {
  if (r.chance(0.25)) return r.pick([2 ** 53, -(2 ** 53), 2 ** 62, 2 ** 63, -(2 ** 63), 2 ** 64, -(2 ** 64), 2 ** 64 - 2048, 2 ** 63 - 1024, 2 ** 65, 2 ** 65 - 8192]);
  const e = 53 + r.int(14);
  const m = 2 ** 52 + r.int(2 ** 26) * 2 ** 26 + r.int(2 ** 26);
  const v = m * 2 ** (e - 52);
  return r.chance(0.3) ? -v : v;
}

// What the package must do: { values } or { code, element } (the first element that fails).
function intModel(dt, dir, o, s, xs) {
  if (!inRange(dt, o)) return { code: 'invalid_metadata' };
  if (!inRange(dt, s)) return { code: 'invalid_metadata' };
  const values = [];
  for (let i = 0; i < xs.length; i++) {
    const x = xs[i];
    if (dir === 'encode') {
      const d = x - o;
      if (!inRange(dt, d)) return { code: 'out_of_range', element: i };
      const p = d * s;
      if (!inRange(dt, p)) return { code: 'out_of_range', element: i };
      values.push(p);
    } else {
      if (x % s !== 0n) return { code: 'not_representable', element: i };
      const q = x / s;
      if (!inRange(dt, q)) return { code: 'out_of_range', element: i };
      const p = q + o;
      if (!inRange(dt, p)) return { code: 'out_of_range', element: i };
      values.push(p);
    }
  }
  return { values };
}

function floatModel(dt, dir, v, s, xs) {
  const f = dt === 'float32' ? Math.fround : (a) => a;
  const o = f(v);
  const sc = f(s);
  return { values: xs.map((x) => (dir === 'encode' ? f(f(x - o) * sc) : f(f(x / sc) + o))) };
}

// Checks a call against a model outcome; returns null or a description.
function check(label, want, call) {
  let got;
  try {
    got = call();
  } catch (e) {
    if (!(e instanceof Error) || typeof e.code !== 'string') return `${label}: threw ${String(e)} without a code`;
    if (want.code === undefined) return `${label}: threw ${e.code}: ${e.message.slice(0, 200)}; want values`;
    if (e.code !== want.code) return `${label}: threw ${e.code} (${e.message.slice(0, 200)}); want ${want.code}`;
    if (want.element !== undefined && !e.message.includes(`element ${want.element} `)) return `${label}: ${e.message.slice(0, 200)}; want element ${want.element}`;
    if (want.pointer !== undefined && !e.message.startsWith(`${want.pointer}: duplicate key`)) return `${label}: ${e.message.slice(0, 200)}; want ${want.pointer}`;
    return null;
  }
  if (want.code !== undefined) return `${label}: returned ${String(got).slice(0, 100)}; want ${want.code}`;
  const values = want.values;
  if (got.length !== values.length) return `${label}: ${got.length} values, want ${values.length}`;
  for (let i = 0; i < values.length; i++) {
    if (!Object.is(got[i], values[i])) return `${label}: element ${i} is ${got[i]}, want ${values[i]}`;
  }
  return null;
}

// ---------------------------------------------------------------------------------------------
// A. numbers of 2^53 and more

test('property A: JS numbers >= 2^53 as offsets and fill values are their exact values (1,500 cases)', (t) => {
  const r = rng(0x5eed0001);
  const problems = [];
  const tally = { values: 0, errors: 0 };
  for (let k = 0; k < 1500 && problems.length < 10; k++) {
    const dt = r.pick(['int64', 'uint64', 'float64', 'float32']);
    const int = dt.endsWith('int64');
    const v = bigNumber(r);
    const s = int ? r.pick([1, 2, 3, -1, -2]) : r.pick([1, 0.5, 3, -2]);
    const dir = r.pick(['encode', 'decode']);
    const n = 1 + r.int(6);
    let xs;
    if (int) {
      const o = BigInt(v);
      const [lo, hi] = RANGE[dt];
      xs = Array.from({ length: n }, () => {
        const near = (dir === 'encode' ? o : 0n) + BigInt(r.int(2001) - 1000) * (r.chance(0.5) ? 1n : BigInt(s));
        const x = r.chance(0.7) ? near : lo + r.big(64) % (hi - lo + 1n);
        return x < lo ? lo : x > hi ? hi : x;
      });
    } else {
      xs = Array.from({ length: n }, () => (r.chance(0.5) ? v + r.int(1 << 20) * 2 ** 12 : (r.next() - 0.5) * 2 ** (r.int(140) - 70)));
      if (dt === 'float32') xs = xs.map(Math.fround);
    }
    const want = int ? intModel(dt, dir, BigInt(v), BigInt(s), xs) : floatModel(dt, dir, v, s, xs);
    if (want.code !== undefined) tally.errors++;
    else tally.values++;
    const codec = { name: 'scale_offset', configuration: { offset: v, scale: s } };
    const input = new ARRAY[dt](xs);
    const how = r.int(3);
    const label = `case ${k}: ${dir} ${dt} offset ${v} scale ${s} [${xs.join(', ')}] via ${['encode/decode', 'bind', 'decodeChunk'][how]}`;
    let p;
    if (how === 0) {
      p = check(label, want, () => z[dir](codec, dt, input));
    } else if (how === 1) {
      let h;
      p = check(label, want, () => {
        h = z.bind(codec, dt);
        return h[dir](input);
      });
      h?.free();
    } else {
      const m = {
        zarr_format: 3, node_type: 'array', shape: [n], data_type: dt,
        chunk_grid: { name: 'regular', configuration: { chunk_shape: [n] } }, chunk_key_encoding: { name: 'default' },
        fill_value: 0, codecs: [codec, { name: 'bytes', configuration: { endian: 'little' } }],
      };
      // fill 0 must pass the codec: its encode is (0 - offset) * scale.
      const fill = int ? intModel(dt, 'encode', BigInt(v), BigInt(s), [0n]) : { values: [0] };
      const w = fill.code !== undefined ? { code: 'invalid_metadata' } : want;
      p = dir === 'decode'
        ? check(label, w, () => z.decodeChunk(m, new Uint8Array(input.buffer)))
        : check(label, w, () => {
          const out = z.encodeChunk(m, input);
          return new ARRAY[dt](out.buffer, out.byteOffset, n);
        });
    }
    if (p) problems.push(p);

    // The same number as a fill value: the encoded fill is the model's encode of it.
    if (int) {
      const f = bigNumber(r);
      const wf = inRange(dt, BigInt(f)) ? intModel(dt, 'encode', BigInt(v), BigInt(s), [BigInt(f)]) : { code: 'invalid_metadata' };
      const want2 = wf.code !== undefined ? { code: 'invalid_metadata' } : { values: [String(wf.values[0])] };
      const p2 = check(`case ${k}: fill ${f} for ${dt} offset ${v} scale ${s}`, want2, () => {
        const h = z.bind(codec, dt, { fill: f });
        const t = h.encodedFillText;
        h.free();
        return [t];
      });
      if (p2) problems.push(p2);
    }
  }
  t.diagnostic(JSON.stringify(tally));
  assert.deepEqual(problems, []);
  assert.ok(tally.values > 300 && tally.errors > 150, `both outcomes exercised: ${JSON.stringify(tally)}`);
});

// ---------------------------------------------------------------------------------------------
// B. duplicate keys

// An object as a list of [key, jsonText] entries, written in order (duplicates kept).
const obj = (entries) => `{${entries.map(([k, t]) => `${JSON.stringify(k)}:${t}`).join(',')}}`;

test('property B: random zarr.json texts with duplicate keys: invalid_metadata at the pointer, else exact values (600 cases)', (t) => {
  const r = rng(0x5eed0002);
  const problems = [];
  const tally = { duplicate: 0, attributes: 0, values: 0 };
  for (let k = 0; k < 600 && problems.length < 10; k++) {
    const dt = r.pick(['float64', 'int16']);
    const n = 1 + r.int(8);
    const scale = dt === 'int16' ? r.pick([1, 2, -1]) : r.pick([2, 0.25, -3]);
    const offset = dt === 'int16' ? r.int(200) - 100 : r.int(2000) / 8 - 125;
    // Every object of the document as { path, entries }, built inside out.
    const objects = [];
    const mk = (path, entries) => {
      const o = { path, entries };
      objects.push(o);
      return o;
    };
    const shuffled = (xs) => {
      const a = xs.slice();
      for (let i = a.length - 1; i > 0; i--) {
        const j = r.int(i + 1);
        [a[i], a[j]] = [a[j], a[i]];
      }
      return a;
    };
    const attrsNested = mk('/attributes/nested', shuffled([['a', '1'], ['b', String(bigNumber(r))]]));
    const attrs = mk('/attributes', shuffled([['units', '"m"'], ['big', BigInt(bigNumber(r)).toString()], ['nested', attrsNested]]));
    const soConf = mk('/codecs/0/configuration', shuffled([['scale', String(scale)], ['offset', String(offset)]]));
    const so = mk('/codecs/0', shuffled([['name', '"scale_offset"'], ['configuration', soConf]]));
    const bytesConf = mk('/codecs/1/configuration', [['endian', '"little"']]);
    const bytes = mk('/codecs/1', shuffled([['name', '"bytes"'], ['configuration', bytesConf]]));
    const gridConf = mk('/chunk_grid/configuration', [['chunk_shape', `[${n}]`]]);
    const grid = mk('/chunk_grid', shuffled([['name', '"regular"'], ['configuration', gridConf]]));
    const cke = mk('/chunk_key_encoding', [['name', '"default"']]);
    const top = mk('', shuffled([['zarr_format', '3'], ['node_type', '"array"'], ['shape', `[${n}]`], ['data_type', `"${dt}"`],
      ['chunk_grid', grid], ['chunk_key_encoding', cke], ['fill_value', '0'], ['codecs', [so, bytes]], ['attributes', attrs]]));
    let dup = null;
    if (r.chance(0.5)) {
      const o = r.pick(objects);
      const [key, value] = r.pick(o.entries);
      // The same value again, or (for a scalar) another one.
      const again = typeof value === 'string' && r.chance(0.5) ? (value.startsWith('"') ? '"x"' : '7') : value;
      o.entries.splice(r.int(o.entries.length + 1), 0, [key, again]);
      dup = { pointer: `${o.path}/${key}`, inAttributes: o.path.startsWith('/attributes') };
    }
    const write = (v) => (typeof v === 'string' ? v : Array.isArray(v) ? `[${v.map(write).join(',')}]` : obj(v.entries.map(([kk, t]) => [kk, write(t)])));
    const text = write(top);

    // Stored values and the model's decode: x / scale + offset in the data type.
    let xs;
    let want;
    if (dt === 'int16') {
      xs = Array.from({ length: n }, () => BigInt(r.int(600) - 300) * (r.chance(0.8) ? BigInt(scale) : 1n));
      want = intModel('int16', 'decode', BigInt(offset), BigInt(scale), xs);
      if (want.values) want = { values: want.values.map(Number) };
    } else {
      xs = Array.from({ length: n }, () => (r.next() - 0.5) * 1e6);
      want = floatModel('float64', 'decode', offset, scale, xs);
    }
    const stored = new Uint8Array(new ARRAY[dt](dt === 'int16' ? xs.map(Number) : xs).buffer);
    if (dup) {
      tally.duplicate++;
      if (dup.inAttributes) tally.attributes++;
    } else if (want.values) {
      tally.values++;
    }
    const run = () => z.decodeChunk(text, stored);
    let p = dup ? check(`case ${k}: ${text}`, { code: 'invalid_metadata', pointer: dup.pointer }, run) : check(`case ${k}: ${text}`, want, run);
    // A duplicate inside the ignored attributes may also be let through: then the outcome is the
    // document's without it.
    if (p && dup?.inAttributes && check(`case ${k}`, want, run) === null) p = null;
    if (p) problems.push(p);
  }
  t.diagnostic(JSON.stringify(tally));
  assert.deepEqual(problems, []);
  assert.ok(tally.duplicate > 200 && tally.attributes > 30 && tally.values > 150, JSON.stringify(tally));
});

// ---------------------------------------------------------------------------------------------
// C. aliasing views

const OPS = [
  // [label, input type, output type, codec, direction, data type, model(x), random input(r)]
  ['cast_value uint8 -> float32 decode', 'uint8', 'float32', { name: 'cast_value', configuration: { data_type: 'uint8' } }, 'decode', 'float32',
    (x) => x, (r) => r.int(256)],
  ['cast_value int16 -> float64 decode', 'int16', 'float64', { name: 'cast_value', configuration: { data_type: 'int16' } }, 'decode', 'float64',
    (x) => x, (r) => r.int(65536) - 32768],
  ['scale_offset float64 decode', 'float64', 'float64', { name: 'scale_offset', configuration: { scale: 2, offset: 1 } }, 'decode', 'float64',
    (x) => x / 2 + 1, (r) => (r.next() - 0.5) * 1e9],
  ['scale_offset int32 decode', 'int32', 'int32', { name: 'scale_offset', configuration: { offset: 3 } }, 'decode', 'int32',
    (x) => x + 3, (r) => (r.chance(0.9995) ? r.int(2 ** 31) - 2 ** 30 : 2 ** 31 - 1 - r.int(3))],
  ['cast_value float64 -> uint8 encode', 'float64', 'uint8', { name: 'cast_value', configuration: { data_type: 'uint8' } }, 'encode', 'float64',
    (x) => x, (r) => r.int(256)],
  ['cast_value float32 -> int16 encode', 'float32', 'int16', { name: 'cast_value', configuration: { data_type: 'int16' } }, 'encode', 'float32',
    (x) => x, (r) => r.int(65536) - 32768],
];

test('property C: input and out at random offsets of one memory (ArrayBuffer, SharedArrayBuffer twins, grown shared memory) or two (300 cases)', async (t) => {
  const r = rng(0x5eed0003);
  const problems = [];
  const tally = {};
  let moved = 0;
  for (let k = 0; k < 300 && problems.length < 10; k++) {
    const [label, inType, outType, codec, dir, dataType, model, gen] = r.pick(OPS);
    const kind = r.pick(['ArrayBuffer', 'SharedArrayBuffer', 'structuredClone', 'WebAssembly.Memory', 'distinct']);
    const how = r.pick(['decodeInto', 'bind', 'decodeChunkInto']);
    if (how === 'decodeChunkInto' && dir === 'encode') continue;
    if (how === 'decodeInto' && dir === 'encode') continue;
    const big = r.chance(0.1) && moved < 6e6;
    const n = big ? 131_072 + r.int(200_000) : 1 + r.int(3000);
    const inSize = ARRAY[inType].BYTES_PER_ELEMENT;
    const outSize = ARRAY[outType].BYTES_PER_ELEMENT;
    const inOff = inSize * r.int(64);
    // out near the input: often overlapping, ahead or behind by a few elements
    const shift = r.int(2 * 16 * 8 + 1) - 16 * 8;
    const outOff = Math.max(0, Math.floor((inOff + shift * (r.chance(0.5) ? 1 : n >> 3)) / outSize) * outSize);
    const bytes = Math.max(inOff + n * inSize, outOff + n * outSize) + 64;
    let a;
    let b;
    if (kind === 'ArrayBuffer') a = b = new ArrayBuffer(bytes);
    else if (kind === 'SharedArrayBuffer') a = b = new SharedArrayBuffer(bytes);
    else if (kind === 'structuredClone') b = structuredClone((a = new SharedArrayBuffer(bytes)));
    else if (kind === 'distinct') [a, b] = [new SharedArrayBuffer(bytes), new SharedArrayBuffer(bytes)];
    else {
      const pages = Math.ceil(bytes / 65536);
      const mem = new WebAssembly.Memory({ initial: pages, maximum: pages + 1, shared: true });
      const first = mem.buffer;
      mem.grow(1);
      [a, b] = r.chance(0.5) ? [first, mem.buffer] : [mem.buffer, first];
    }
    const input = new ARRAY[inType](a, inOff, n);
    for (let i = 0; i < n; i++) input[i] = gen(r);
    const copy = Array.from(input);
    let want;
    try {
      const values = copy.map((x) => {
        const y = model(x);
        if (outType === 'int32' && (y > 2 ** 31 - 1 || y < -(2 ** 31))) throw Object.assign(new Error(), { code: 'out_of_range' });
        return y;
      });
      want = { values };
    } catch (e) {
      want = { code: e.code, element: copy.findIndex((x) => model(x) > 2 ** 31 - 1) };
    }
    const out = new ARRAY[outType](b, outOff, n);
    const name = `case ${k}: ${label} via ${how}, ${kind}, ${n} elements, input at byte ${inOff}, out at byte ${outOff}`;
    let p;
    if (how === 'decodeInto') {
      p = check(name, want, () => z.decodeInto(codec, dataType, input, out));
    } else if (how === 'bind') {
      const h = z.bind(codec, dataType);
      p = check(name, want, () => (dir === 'encode' ? h.encodeInto(input, out) : h.decodeInto(input, out)));
      h.free();
    } else {
      const m = {
        zarr_format: 3, node_type: 'array', shape: [n], data_type: dataType,
        chunk_grid: { name: 'regular', configuration: { chunk_shape: [n] } }, chunk_key_encoding: { name: 'default' },
        fill_value: 0, codecs: [codec, { name: 'bytes', configuration: { endian: 'little' } }],
      };
      p = check(name, want, () => z.decodeChunkInto(m, new Uint8Array(a, inOff, n * inSize), out));
    }
    if (p) problems.push(p);
    moved += n;
    tally[kind] = (tally[kind] ?? 0) + 1;
    if (n > 131_072) tally.overTile = (tally.overTile ?? 0) + 1;
  }
  t.diagnostic(JSON.stringify(tally));
  assert.deepEqual(problems, []);
  assert.ok(Object.entries(tally).every(([key, c]) => key === 'overTile' || c >= 25), JSON.stringify(tally));
});

// ---------------------------------------------------------------------------------------------
// D. for float types the exact text and JSON.stringify's shortest text are the same value

test('property D: float fields read the exact text of a double as they read its shortest text (400 cases)', (t) => {
  // The writer's claim (js/core.js numberJson): two decimals in one double's rounding interval
  // round alike into every narrower format. Checked on bfloat16, float16, float8_e5m2 and
  // float32: an offset given as a JS number (written exactly) against the same offset as JSON
  // text with JSON.stringify's digits; both the results and the errors must agree.
  const r = rng(0x5eed0004);
  const problems = [];
  const tally = { same: 0, bothErrors: 0, textsDiffer: 0 };
  for (let k = 0; k < 400 && problems.length < 10; k++) {
    const dt = r.pick(['bfloat16', 'float16', 'float8_e5m2', 'float32']);
    const v = bigNumber(r);
    const exact = z.toJsonText({ offset: v });
    const shortest = `{"offset":${JSON.stringify(v)}}`;
    if (exact !== shortest) tally.textsDiffer++;
    const Ctor = dt === 'float32' ? Float32Array : dt === 'float8_e5m2' ? Uint8Array : Uint16Array;
    const codes = new Ctor(64);
    for (let i = 0; i < 64; i++) codes[i] = dt === 'float32' ? (r.next() - 0.5) * 2 ** (r.int(140) - 70) : r.int(dt === 'float8_e5m2' ? 256 : 65536);
    const run = (conf) => {
      try {
        return { v: Array.from(z.encode({ name: 'scale_offset', configuration: conf }, dt, codes)) };
      } catch (e) {
        return { code: e.code };
      }
    };
    const a = run({ offset: v });
    const c = (() => {
      try {
        return { v: Array.from(z.encode(`{"name":"scale_offset","configuration":${shortest}}`, dt, codes)) };
      } catch (e) {
        return { code: e.code };
      }
    })();
    const sameOutcome = a.code !== undefined ? a.code === c.code : c.v !== undefined && a.v.every((x, i) => Object.is(x, c.v[i]));
    if (!sameOutcome) problems.push(`${dt} offset ${v}: exact ${JSON.stringify(a).slice(0, 120)} vs shortest ${JSON.stringify(c).slice(0, 120)}`);
    else if (a.code !== undefined) tally.bothErrors++;
    else tally.same++;
  }
  t.diagnostic(JSON.stringify(tally));
  assert.deepEqual(problems, []);
  assert.ok(tally.textsDiffer > 200 && tally.same > 100, JSON.stringify(tally));
});
