// Trust at the edges of the JS API (issue 12, classes 2, 3 and 5), on the BUILT package, in Node
// and in a cross-origin-isolated page of headless Chromium (SharedArrayBuffer needs it there):
//
//   2. JS numbers that are integers of 2^53 or more are the exact value of the double in every
//      JSON text (2 ** 62 is 4611686018427387904, never JSON.stringify's 4611686018427388000):
//      int64/uint64 offsets, INT64_MIN, fill values, fromCF's masked key, the zarrita adapter.
//   3. decodeInto / decodeChunkInto / encodeInto / a bound handle's decodeInto with input and out
//      in one memory reached through two SharedArrayBuffer objects (structuredClone, postMessage
//      through a MessageChannel, a shared WebAssembly.Memory's buffer before and after grow):
//      the values of an independent model, never the silently overwritten input.
//   5. Callers' objects that throw or lie (revoked Proxies, throwing traps and getters, toJSON,
//      typed-array subclasses with lying byteLength/byteOffset/buffer/length/toStringTag): a
//      coded Error (`invalid_argument` with the original as `cause`), or the right values.
//
// Every expected value is written out here or computed from the input with BigInt or JS double
// arithmetic, never by the package. The cases are one self-contained function (`edgeCases`), run
// as it is in Node and, through its source text, inside the page.

import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';

import * as z from 'zarr-scale-offset';
import * as adapter from 'zarr-scale-offset/zarrita';
import { startBrowser } from './browser.mjs';

/**
 * Every case: { name, run } where `run()` (async) resolves to null when the case holds, else to
 * a description of what went wrong. Self-contained: its source text also runs inside a page.
 */
function edgeCases(z, adapter) {
  const cases = [];
  const add = (name, run) => cases.push({ name, run });
  const CODES = ['invalid_json', 'invalid_metadata', 'unsupported_data_type', 'unsupported_codec', 'out_of_range',
    'not_representable', 'length_mismatch', 'invalid_data', 'not_ready', 'read_only', 'invalid_argument'];
  const show = (v) => (typeof v === 'bigint' ? `${v}n` : Object.is(v, -0) ? '-0' : String(v));
  const same = (got, want) => {
    if (got === null || got === undefined || typeof got.length !== 'number') return `got ${String(got)}`;
    if (got.length !== want.length) return `length ${got.length}, want ${want.length}`;
    for (let i = 0; i < want.length; i++) {
      if (!Object.is(got[i], want[i])) return `element ${i}: ${show(got[i])}, want ${show(want[i])}`;
    }
    return null;
  };
  // The error `f` throws: null when it is an Error with `code` (and `cause`, when given, is that
  // very object), else what went wrong.
  const throws = (f, code, { cause, re } = {}) => {
    try {
      f();
    } catch (e) {
      if (!(e instanceof Error)) return `threw a non-Error ${String(e)}`;
      if (e.code !== code) return `threw ${e.constructor.name} code ${e.code} (${String(e.message).slice(0, 200)}), want ${code}`;
      if (cause !== undefined && e.cause !== cause) return `cause is ${String(e.cause)}, not the caller's error`;
      if (re && !re.test(e.message)) return `message ${JSON.stringify(e.message.slice(0, 200))} does not match ${re}`;
      return null;
    }
    return `nothing was thrown (want ${code})`;
  };
  // Any documented code (for the positions where more than one is right).
  const coded = (f) => {
    try {
      f();
    } catch (e) {
      return e instanceof Error && CODES.includes(e.code) ? null : `threw ${String(e)} with code ${e?.code}`;
    }
    return 'nothing was thrown';
  };
  const so = (configuration) => ({ name: 'scale_offset', configuration });
  const BYTES = { name: 'bytes', configuration: { endian: 'little' } };
  const meta = (dataType, n, codecs, fill) => ({
    zarr_format: 3, node_type: 'array', shape: [n], data_type: dataType,
    chunk_grid: { name: 'regular', configuration: { chunk_shape: [n] } },
    chunk_key_encoding: { name: 'default' }, fill_value: fill, codecs,
  });
  const I64_MIN = -(2n ** 63n);
  const P62 = 2n ** 62n;

  // ---------------------------------------------------------------------------------------------
  // 2. exact JS numbers

  add('toJsonText writes integral numbers from 2^53 to 2^65 as their exact value', async () => {
    const got = z.toJsonText({ a: 2 ** 62, b: -(2 ** 63), c: 2 ** 64, d: 2 ** 53, e: 2 ** 53 - 1, f: -(2 ** 53) - 2,
      g: 2 ** 65, h: 1e300, i: 0.1, j: [2 ** 63, 12345678901234567890], k: 1e21, l: 2 ** 64 + 2 ** 12 });
    const want = '{"a":4611686018427387904,"b":-9223372036854775808,"c":18446744073709551616,"d":9007199254740992,' +
      '"e":9007199254740991,"f":-9007199254740994,"g":36893488147419103000,"h":1e+300,"i":0.1,' +
      '"j":[9223372036854775808,12345678901234567168],"k":1e+21,"l":18446744073709555712}';
    return got === want ? null : `got ${got}`;
  });
  add('the same exact text on the exact writer\'s path (a BigInt elsewhere in the value)', async () => {
    const got = z.toJsonText({ a: 2 ** 62, b: 1n, c: [-(2 ** 63)] });
    return got === '{"a":4611686018427387904,"b":1,"c":[-9223372036854775808]}' ? null : `got ${got}`;
  });
  add('int64 offset 2 ** 62 (a JS number) is 2^62 exactly', async () => {
    const x = new BigInt64Array([P62, P62 + 5n, 0n, -1n]);
    return same(z.encode(so({ offset: 2 ** 62 }), 'int64', x), [0n, 5n, -P62, -P62 - 1n]) ??
      same(z.decode(so({ offset: 2 ** 62 }), 'int64', new BigInt64Array([0n, 5n])), [P62, P62 + 5n]);
  });
  add('uint64 offset 2 ** 63 (a JS number) is 2^63 exactly', async () => {
    const x = new BigUint64Array([2n ** 63n, 2n ** 64n - 1n, 2n ** 63n + 1n]);
    return same(z.encode(so({ offset: 2 ** 63 }), 'uint64', x), [0n, 2n ** 63n - 1n, 1n]);
  });
  add('int64 offset -(2 ** 63) is INT64_MIN, accepted', async () => {
    const x = new BigInt64Array([I64_MIN, -1n, I64_MIN + 7n]);
    return same(z.encode(so({ offset: -(2 ** 63) }), 'int64', x), [0n, 2n ** 63n - 1n, 7n]) ??
      same(z.decode(so({ offset: -(2 ** 63) }), 'int64', new BigInt64Array([0n, 2n ** 63n - 1n])), [I64_MIN, -1n]);
  });
  add('int64 offset 2 ** 63 is out of range (not a rounded neighbour)', async () =>
    throws(() => z.encode(so({ offset: 2 ** 63 }), 'int64', new BigInt64Array(1)), 'invalid_metadata', { re: /offset: 9223372036854775808 is out of range/ }));
  add('int64 fill_value 2 ** 62 in a zarr.json object flows through scale_offset exactly', async () => {
    const m = meta('int64', 2, [so({ offset: 2 ** 62, scale: 2 }), BYTES], 2 ** 62);
    const stored = z.encodeChunk(m, new BigInt64Array([P62, P62 + 3n]));
    const err = same(new BigInt64Array(stored.buffer), [0n, 6n]);
    if (err) return err;
    const b = z.bind(so({ offset: 2 ** 62, scale: 2 }), 'int64', { fill: 2 ** 62 });
    const t = b.encodedFillText;
    b.free();
    return t === '0' ? null : `encodedFillText ${t}, want 0`;
  });
  add('bind fill -(2 ** 63) for int64 is INT64_MIN', async () => {
    const b = z.bind(so({ offset: -1 }), 'int64', { fill: -(2 ** 63) });
    const t = b.encodedFillText;
    b.free();
    return t === '-9223372036854775807' ? null : `encodedFillText ${t}`;
  });
  add('fromCF({_FillValue: 2 ** 62}, "int64") masks 2^62, not 4611686018427388000', async () => {
    const r = z.fromCF({ _FillValue: 2 ** 62 }, 'int64');
    const codecs = r.codecs.filter((c) => c.name !== 'bytes');
    const got = z.decode(codecs, r.data_type, new BigInt64Array([P62, 4611686018427388000n, 5n]));
    // 4611686018427388000 is not the fill: it decodes to its nearest double (which is 2^62).
    return same(got, [NaN, 4611686018427388000, 5]);
  });
  add('float64 and float32 offsets from 2^53 up round as JS does (exact text, same double)', async () => {
    const vs = [2 ** 53 + 2, 2 ** 62 + 2 ** 10, -(2 ** 63), 2 ** 64 - 2 ** 11, 2 ** 60 + 2 ** 36 + 2 ** 8, 3 * 2 ** 55];
    for (const v of vs) {
      const x = [1.5, -(2 ** 60), 2 ** 62];
      const e64 = same(z.encode(so({ offset: v }), 'float64', new Float64Array(x)), x.map((a) => a - v));
      if (e64) return `float64 offset ${v}: ${e64}`;
      const o = Math.fround(v);
      const e32 = same(z.encode(so({ offset: v }), 'float32', new Float32Array(x)), x.map((a) => Math.fround(Math.fround(a) - o)));
      if (e32) return `float32 offset ${v}: ${e32}`;
    }
    return null;
  });
  add('zarrita adapter: scale_offset {offset: 2 ** 62} for int64 and its fill value are exact', async () => {
    const codecs = [so({ offset: 2 ** 62 }), BYTES];
    const chunkMeta = { dataType: 'int64', shape: [2], codecs, fillValue: P62 + 1n };
    const c = adapter.codecEntries.scale_offset.fromConfig(codecs[0].configuration, chunkMeta);
    const got = c.decode({ data: new BigInt64Array([0n, 5n]), shape: [2], stride: [1] }).data;
    return same(got, [P62, P62 + 5n]) ?? (c.getEncodedMeta(chunkMeta).fillValue === 1n ? null : 'encoded fill is not 1n');
  });

  // ---------------------------------------------------------------------------------------------
  // 3. aliasing through SharedArrayBuffer objects of one memory

  const N = 300_000; // more than one I/O tile (131,072 elements)
  const hasSab = typeof SharedArrayBuffer === 'function';
  const cast8 = { name: 'cast_value', configuration: { data_type: 'uint8' } };
  const viaChannel = (sab) => new Promise((resolve) => {
    const { port1, port2 } = new MessageChannel();
    port2.onmessage = (e) => {
      port1.close();
      port2.close();
      resolve(e.data);
    };
    port1.postMessage(sab);
  });
  // [label, make(bytes) -> Promise<[bufferForInput, bufferForOut]>] over one memory of `bytes`.
  const twins = [
    ['structuredClone', async (bytes) => {
      const a = new SharedArrayBuffer(bytes);
      return [a, structuredClone(a)];
    }],
    ['postMessage through a MessageChannel', async (bytes) => {
      const a = new SharedArrayBuffer(bytes);
      return [a, await viaChannel(a)];
    }],
    ['shared WebAssembly.Memory, buffer before and after grow()', async (bytes) => {
      const pages = Math.ceil(bytes / 65536);
      const m = new WebAssembly.Memory({ initial: pages, maximum: pages + 1, shared: true });
      const before = m.buffer;
      m.grow(1);
      return [before, m.buffer];
    }],
  ];
  const twinCheck = (label, a, b) => (a === b ? `${label}: the two buffers are one object` : new Uint8Array(a).length === 0 ? `${label}: empty` : null);

  for (const [label, make] of twins) {
    add(`decodeInto uint8 -> float32, input and out at offset 0 of one memory (${label})`, async () => {
      if (!hasSab) return 'no SharedArrayBuffer here';
      const [a, b] = await make(N * 4);
      const bad = twinCheck(label, a, b);
      if (bad) return bad;
      const input = new Uint8Array(a, 0, N);
      for (let i = 0; i < N; i++) input[i] = (i * 7) % 251;
      const want = Array.from(input);
      return same(z.decodeInto(cast8, 'float32', input, new Float32Array(b, 0, N)), want);
    });
    add(`decodeChunkInto, out one element ahead of the stored bytes in one memory (${label})`, async () => {
      if (!hasSab) return 'no SharedArrayBuffer here';
      const [a, b] = await make((N + 1) * 8);
      const m = meta('float64', N, [so({ scale: 2, offset: 0.5 }), BYTES], 0);
      // The stored chunk: N float64 values 2i, little-endian; out element i lies over stored i + 1.
      const dv = new DataView(a);
      for (let i = 0; i < N; i++) dv.setFloat64(8 * i, 2 * i, true);
      const want = Array.from({ length: N }, (_, i) => i + 0.5);
      return same(z.decodeChunkInto(m, new Uint8Array(a, 0, N * 8), new Float64Array(b, 8, N)), want);
    });
    add(`bound handle decodeInto and encodeInto, out one element ahead in one memory (${label})`, async () => {
      if (!hasSab) return 'no SharedArrayBuffer here';
      const [a, b] = await make((N + 1) * 8);
      const h = z.bind(so({ scale: 4, offset: 1 }), 'float64');
      try {
        const input = new Float64Array(a, 0, N);
        for (let i = 0; i < N; i++) input[i] = 4 * i;
        let err = same(h.decodeInto(input, new Float64Array(b, 8, N)), Array.from({ length: N }, (_, i) => i + 1));
        if (err) return `decodeInto: ${err}`;
        const back = new Float64Array(a, 8, N);
        const before = Array.from(back);
        err = same(h.encodeInto(back, new Float64Array(b, 0, N)), before.map((v) => (v - 1) * 4));
        return err ? `encodeInto: ${err}` : null;
      } finally {
        h.free();
      }
    });
  }
  add('decodeChunkInto, stored bytes = a whole shared memory buffer, out in its grown buffer one element ahead', async () => {
    if (!hasSab) return 'no SharedArrayBuffer here';
    const pages = 40; // 2,621,440 bytes: 327,680 float64 elements
    const mem = new WebAssembly.Memory({ initial: pages, maximum: pages + 1, shared: true });
    const stored = mem.buffer;
    mem.grow(1);
    const n = stored.byteLength / 8;
    const dv = new DataView(stored);
    for (let i = 0; i < n; i++) dv.setFloat64(8 * i, 2 * i, true);
    const m = meta('float64', n, [so({ scale: 2 }), BYTES], 0);
    return same(z.decodeChunkInto(m, stored, new Float64Array(mem.buffer, 8, n)), Array.from({ length: n }, (_, i) => i));
  });
  add('two distinct SharedArrayBuffers at the same offsets: values right, input untouched', async () => {
    if (!hasSab) return 'no SharedArrayBuffer here';
    const input = new Uint8Array(new SharedArrayBuffer(N));
    for (let i = 0; i < N; i++) input[i] = i % 256;
    const copy = Array.from(input);
    const err = same(z.decodeInto(cast8, 'float32', input, new Float32Array(new SharedArrayBuffer(N * 4))), copy);
    return err ?? same(Array.from(input), copy);
  });
  add('one memory, ranges that do not meet: values right', async () => {
    if (!hasSab) return 'no SharedArrayBuffer here';
    const a = new SharedArrayBuffer(N * 5);
    const b = structuredClone(a);
    const input = new Uint8Array(a, N * 4, N);
    for (let i = 0; i < N; i++) input[i] = 255 - (i % 256);
    return same(z.decodeInto(cast8, 'float32', input, new Float32Array(b, 0, N)), Array.from(input));
  });
  add('ArrayBuffer: input and out over one buffer, out one element ahead (unchanged rule)', async () => {
    const buf = new ArrayBuffer((N + 1) * 4);
    const input = new Float32Array(buf, 0, N);
    for (let i = 0; i < N; i++) input[i] = 2 * i;
    return same(z.decodeInto(so({ scale: 2 }), 'float32', input, new Float32Array(buf, 4, N)), Array.from({ length: N }, (_, i) => i));
  });

  // ---------------------------------------------------------------------------------------------
  // 5. callers' objects that throw or lie

  const revoked = () => {
    const r = Proxy.revocable({}, {});
    r.revoke();
    return r.proxy;
  };
  const boom = new Error('boom from a trap');
  const throwing = () => new Proxy({}, {
    get() { throw boom; },
    has() { throw boom; },
    ownKeys() { throw boom; },
    getOwnPropertyDescriptor() { throw boom; },
    getPrototypeOf() { throw boom; },
  });
  const f32 = () => new Float32Array([2, 4]);
  const u8 = () => new Uint8Array(new Float32Array([2, 4]).buffer);
  const ok = meta('float32', 2, [so({ scale: 2 }), BYTES], 0);
  // [position, call(value)] for every argument a caller's object can reach.
  const positions = [
    ['encode codecs', (v) => z.encode(v, 'float32', f32())],
    ['decode codecs list entry', (v) => z.decode([v], 'float32', f32())],
    ['codec configuration', (v) => z.decode({ name: 'scale_offset', configuration: v }, 'float32', f32())],
    ['encode data type', (v) => z.encode('scale_offset', v, f32())],
    ['encodedDataType data type', (v) => z.encodedDataType('scale_offset', v)],
    ['typedArrayKind', (v) => z.typedArrayKind(v)],
    ['decodeChunk metadata', (v) => z.decodeChunk(v, u8())],
    ['metadata attributes', (v) => z.decodeChunk({ ...ok, attributes: { a: v } }, u8())],
    ['encodeChunk metadata', (v) => z.encodeChunk(v, f32())],
    ['arrayDataType', (v) => z.arrayDataType(v)],
    ['metadataWarnings', (v) => z.metadataWarnings(v)],
    ['bind codecs', (v) => z.bind(v, 'float32')],
    ['bind options', (v) => z.bind('scale_offset', 'float32', v)],
    ['bind fill', (v) => z.bind('scale_offset', 'float32', { fill: v })],
    ['fromCF attrs', (v) => z.fromCF(v, 'int16')],
    ['fromCF attribute value', (v) => z.fromCF({ scale_factor: v }, 'int16')],
    ['fromCF options', (v) => z.fromCF({}, 'int16', v)],
    ['fromFixedScaleOffset', (v) => z.fromFixedScaleOffset(v, 'float64')],
    ['toJsonText', (v) => z.toJsonText(v)],
  ];
  for (const [pos, call] of positions) {
    add(`revoked Proxy as ${pos}: invalid_argument, the TypeError as cause`, async () => {
      try {
        call(revoked());
      } catch (e) {
        if (!(e instanceof Error) || e.code !== 'invalid_argument') return `threw ${String(e)} code ${e?.code}`;
        return e.cause instanceof TypeError ? null : `cause ${String(e.cause)}`;
      }
      return 'nothing was thrown';
    });
    add(`Proxy whose traps throw as ${pos}: invalid_argument, the thrown error as cause`, async () =>
      throws(() => call(throwing()), 'invalid_argument', { cause: boom }));
  }
  for (const [pos, call] of [['decode data', (v) => z.decode('scale_offset', 'float32', v)],
    ['decodeInto out', (v) => z.decodeInto('scale_offset', 'float32', f32(), v)],
    ['decodeChunk bytes', (v) => z.decodeChunk(ok, v)], ['encodeChunk data', (v) => z.encodeChunk(ok, v)]]) {
    add(`revoked Proxy as ${pos}: invalid_data (not a typed array)`, async () => throws(() => call(revoked()), 'invalid_data'));
    add(`throwing Proxy as ${pos}: invalid_data (not a typed array)`, async () => throws(() => call(throwing()), 'invalid_data'));
    add(`Proxy over a real typed array as ${pos}: invalid_data`, async () =>
      throws(() => call(new Proxy(pos.includes('bytes') ? u8() : f32(), {})), 'invalid_data'));
  }
  add('validate(revoked Proxy) reports invalid_argument, does not throw', async () => {
    const r = z.validate(revoked());
    return r.valid === false && r.errors.length === 1 && r.errors[0].code === 'invalid_argument' ? null : JSON.stringify(r);
  });
  add('a caller\'s own RangeError from a getter is not "nested too deeply"', async () => {
    const mine = new RangeError('my own range check');
    const codec = { name: 'scale_offset', get configuration() { throw mine; } };
    return throws(() => z.decode(codec, 'float32', f32()), 'invalid_argument', { cause: mine, re: /my own range check/ }) ??
      (/nested/.test((() => { try { z.decode(codec, 'float32', f32()); } catch (e) { return e.message; } return ''; })()) ? 'says nested' : null);
  });
  add('a caller\'s Error with its own .code from toJSON is wrapped, not passed on', async () => {
    const mine = Object.assign(new Error('mine'), { code: 'invalid_json' });
    return throws(() => z.decode({ name: 'scale_offset', configuration: { toJSON() { throw mine; } } }, 'float32', f32()), 'invalid_argument', { cause: mine });
  });
  add('a getter on bind options.fill that throws: invalid_argument', async () => {
    const mine = new Error('fill getter');
    return throws(() => z.bind('scale_offset', 'float32', { get fill() { throw mine; } }), 'invalid_argument', { cause: mine });
  });
  add('metadata nested 100,000 levels: invalid_json with the limit', async () => {
    let o = {};
    for (let i = 0; i < 1e5; i++) o = { a: o };
    return throws(() => z.decodeChunk({ ...ok, attributes: o }, u8()), 'invalid_json', { re: /nested deeper than 128/ });
  });
  add('a circular value is still invalid_metadata', async () => {
    const c = {};
    c.c = c;
    return throws(() => z.decode({ name: 'scale_offset', configuration: c }, 'float32', f32()), 'invalid_metadata', { re: /circular/ });
  });

  // Typed-array subclasses whose own properties lie: their real class and memory count.
  const liar = (Base, props) => {
    class Liar extends Base {}
    for (const k of Reflect.ownKeys(props)) Object.defineProperty(Liar.prototype, k, { get: props[k], configurable: true });
    return Liar;
  };
  const lies = {
    byteLength: () => 1e9, byteOffset: () => -3, length: () => 1, buffer: () => new ArrayBuffer(64),
  };
  const throwingLies = Object.fromEntries(Object.keys(lies).map((k) => [k, () => { throw new Error(`${k} getter`); }]));
  for (const [label, props] of [['lying', lies], ['throwing', throwingLies]]) {
    add(`Float32Array subclass with ${label} byteLength/byteOffset/length/buffer: decoded from its real memory`, async () => {
      const L = liar(Float32Array, props);
      const buf = new ArrayBuffer(32);
      new Float32Array(buf).set([9, 9, 2, 4, 6, 9, 9, 9]);
      const data = new L(buf, 8, 3);
      return same(z.decode(so({ scale: 2 }), 'float32', data), [1, 2, 3]);
    });
    add(`Float32Array subclass with ${label} getters as out: written in its real memory`, async () => {
      const L = liar(Float32Array, props);
      const buf = new ArrayBuffer(24);
      const out = new L(buf, 4, 3);
      z.decodeInto(so({ scale: 2 }), 'float32', new Float32Array([2, 4, 6]), out);
      return same(new Float32Array(buf), [0, 1, 2, 3, 0, 0]);
    });
    add(`Uint8Array subclass with ${label} getters as stored bytes of decodeChunk`, async () => {
      const L = liar(Uint8Array, props);
      const buf = new ArrayBuffer(16);
      new Float32Array(buf).set([2, 4, 6, 8]);
      return same(z.decodeChunk(ok, new L(buf, 4, 8)), [2, 3]);
    });
  }
  add('Float64Array subclass whose toStringTag says Float32Array: rejected as out and as data for float32', async () => {
    const Spoof = liar(Float64Array, { [Symbol.toStringTag]: () => 'Float32Array' });
    if (Object.prototype.toString.call(new Spoof(1)) !== '[object Float32Array]') return 'the spoof does not spoof';
    return throws(() => z.decodeInto(so({ scale: 2 }), 'float32', f32(), new Spoof(2)), 'invalid_data', { re: /Float64Array/ }) ??
      throws(() => z.decode(so({ scale: 2 }), 'float32', new Spoof(2)), 'invalid_data') ??
      throws(() => z.decodeChunkInto(ok, u8(), new Spoof(2)), 'invalid_data');
  });
  add('Float32Array subclass whose toStringTag says Float64Array: accepted for float32', async () => {
    const Spoof = liar(Float32Array, { [Symbol.toStringTag]: () => 'Float64Array' });
    if (Object.prototype.toString.call(new Spoof(1)) !== '[object Float64Array]') return 'the spoof does not spoof';
    return same(z.decode(so({ scale: 2 }), 'float32', new Spoof([2, 8])), [1, 4]);
  });
  add('a DataView or an object claiming to be an ArrayBuffer is not stored bytes', async () => {
    const fake = { [Symbol.toStringTag]: 'ArrayBuffer', byteLength: 8 };
    return throws(() => z.decodeChunk(ok, fake), 'invalid_data') ?? coded(() => z.decodeChunk(ok, new DataView(new ArrayBuffer(8))));
  });
  add('the module still decodes afterwards', async () => same(z.decodeChunk(ok, u8()), [1, 2]));
  return cases;
}

/** Runs every case; [{ name, problem }]. */
async function runCases(cases) {
  const out = [];
  for (const c of cases) {
    let problem;
    try {
      problem = await c.run();
    } catch (e) {
      problem = `threw ${e?.constructor?.name} code ${e?.code}: ${String(e?.message ?? e).slice(0, 300)}`;
    }
    out.push({ name: c.name, problem });
  }
  return out;
}

before(async () => {
  await z.ready();
});

const names = edgeCases(z, adapter).map((c) => c.name);
assert.equal(new Set(names).size, names.length, 'case names are unique');

for (const c of edgeCases(z, adapter)) {
  test(`edges (Node): ${c.name}`, async () => {
    const [r] = await runCases([c]);
    assert.equal(r.problem, null, r.problem ?? '');
  });
}

// ---------------------------------------------------------------------------------------------
// The same cases in headless Chromium, in a cross-origin-isolated page (COOP/COEP headers added
// by Playwright's router: SharedArrayBuffer exists only there).

let browser;
before(async () => {
  browser = await startBrowser();
});
after(async () => {
  await browser?.close();
});

test('edge cases in headless Chromium (cross-origin isolated): every one holds', async () => {
  const page = await browser.ctx.newPage();
  const isolated = { 'cross-origin-opener-policy': 'same-origin', 'cross-origin-embedder-policy': 'require-corp' };
  await page.route(`${browser.base}/edges.html`, (route) =>
    route.fulfill({ status: 200, headers: { 'content-type': 'text/html', ...isolated }, body: '<!doctype html><title>edges</title>' }));
  await page.goto(`${browser.base}/edges.html`);
  const results = await page.evaluate(
    async ({ casesSrc, runSrc }) => {
      if (!globalThis.crossOriginIsolated) return [{ name: 'page', problem: 'not cross-origin isolated' }];
      const z = await import('/dist/index.js');
      const adapter = await import('/dist/zarrita.js');
      await z.ready();
      const edgeCases = new Function(`return (${casesSrc})`)();
      const runCases = new Function(`return (${runSrc})`)();
      return runCases(edgeCases(z, adapter));
    },
    { casesSrc: edgeCases.toString(), runSrc: runCases.toString() },
  );
  assert.equal(results.length, names.length, JSON.stringify(results.slice(0, 3)));
  const failed = results.filter((r) => r.problem !== null);
  assert.deepEqual(failed, [], failed.map((r) => `${r.name}: ${r.problem}`).join('\n'));
  await page.close();
});
