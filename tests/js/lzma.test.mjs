// The LZMA1 decoder that unpacks the inlined WebAssembly module (crates/unpack, compiled to its
// own small module and inlined with its loader js/unpack.js in dist/zarr_scale_offset_wasm.js),
// as the built package ships it: round trips of data compressed by the `xz` CLI (raw and .lzma
// streams, many lc/lp/pb/preset combinations, the real module), streams without an end marker
// and with lc + lp > 4 (from the small encoder in lzma-encoder.mjs, checked with `xz -d` where xz
// can read them), and corrupt, truncated or mis-sized input, which must throw an Error with code
// 'internal' (or, for random corruption that happens to decode, return exactly `size` bytes) and
// never hang.

import { test } from 'node:test';
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { existsSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { pathToFileURL } from 'node:url';

import { LzmaWriter, lzmaEncode, lzmaHeader } from './lzma-encoder.mjs';
import { ROOT } from './helpers.mjs';

const MODULE = path.join(ROOT, 'pkg', 'zarr_scale_offset_bg.opt.wasm');
const DIST = path.join(ROOT, 'dist', 'zarr_scale_offset_wasm.js');
// The shipped decoder, one instance for every test (JS tests run on the built package).
const lzmaDecode = await (await import(pathToFileURL(DIST).href)).lzmaDecoder();

function xz(args, input) {
  const r = spawnSync('xz', args, { input, maxBuffer: 256 * 1024 * 1024 });
  if (r.error) throw new Error(`xz: ${r.error.message} (run bash scripts/setup.sh)`);
  if (r.status !== 0) throw new Error(`xz ${args.join(' ')}: status ${r.status}: ${r.stderr}`);
  return new Uint8Array(r.stdout.buffer, r.stdout.byteOffset, r.stdout.length);
}

// Raw LZMA1 as scripts/build.mjs makes it (xz 5.4 always ends it with an end marker).
const xzRaw = (data, options) => xz(['--format=raw', `--lzma1=${options}`, '--stdout'], data);

// A deterministic PRNG (xorshift32), so that a failure can be reproduced.
function prng(seed) {
  let s = seed >>> 0 || 1;
  return () => {
    s ^= s << 13;
    s >>>= 0;
    s ^= s >>> 17;
    s ^= s << 5;
    s >>>= 0;
    return s;
  };
}

function randomBytes(n, seed) {
  const next = prng(seed);
  const out = new Uint8Array(n);
  for (let i = 0; i < n; i++) out[i] = next() & 0xff;
  return out;
}

const text = (n) => {
  const words = 'scale offset cast_value zarr chunk float32 uint16 rounding nearest-even wrap clamp'.split(' ');
  const next = prng(7);
  let s = '';
  while (s.length < n) s += `${words[next() % words.length]}${next() % 5 === 0 ? '\n' : ' '}`;
  return new TextEncoder().encode(s.slice(0, n));
};

// Text, little-endian numbers, runs, a random stretch and a repeat of the start at a long
// distance: every kind of symbol (literals, matched literals, short and long matches, reps).
function mixed() {
  const parts = [text(40_000)];
  const f = new Float32Array(8000);
  for (let i = 0; i < f.length; i++) f[i] = Math.sin(i / 50) * 1000;
  parts.push(new Uint8Array(f.buffer));
  parts.push(new Uint8Array(5000).fill(0x5a), randomBytes(20_000, 3), text(40_000).subarray(0, 30_000));
  const out = new Uint8Array(parts.reduce((a, p) => a + p.length, 0));
  let o = 0;
  for (const p of parts) {
    out.set(p, o);
    o += p.length;
  }
  return out;
}

function assertSame(actual, expected, what) {
  assert.ok(actual instanceof Uint8Array, `${what}: not a Uint8Array`);
  assert.equal(actual.length, expected.length, `${what}: length`);
  const i = actual.findIndex((v, k) => v !== expected[k]);
  assert.equal(i, -1, `${what}: first difference at byte ${i}`);
}

// Throws an Error with code 'internal' whose message matches `pattern`.
function assertCorrupt(fn, pattern, what) {
  assert.throws(
    fn,
    (e) => e instanceof Error && e.code === 'internal' && pattern.test(e.message),
    what,
  );
}

const LIMIT = { timeout: 120_000 };

test('xz raw round trips: empty, 1 byte, 1 MB of zeros, 300 KB random, text', LIMIT, () => {
  const cases = {
    empty: new Uint8Array(0),
    'one byte': Uint8Array.of(0xa7),
    'zeros 1 MB': new Uint8Array(1 << 20),
    'random 300 KB': randomBytes(300 * 1024, 1),
    text: text(200_000),
  };
  for (const [name, data] of Object.entries(cases)) {
    const packed = xzRaw(data, 'preset=6,lc=3,lp=0,pb=2');
    assertSame(lzmaDecode(packed, data.length, 3, 0, 2), data, name);
  }
});

test('xz raw round trips over lc/lp/pb/preset combinations (lc + lp <= 4, xz refuses more)', LIMIT, () => {
  const data = mixed();
  const combos = [
    [0, 0, 0, '0'],
    [3, 0, 2, '6'],
    [1, 3, 4, '9e'],
    [4, 0, 1, '1'],
    [0, 4, 0, '3'],
    [2, 2, 3, '9'],
    [3, 1, 0, '7e'],
    [1, 0, 4, '2'],
  ];
  for (const [lc, lp, pb, preset] of combos) {
    const packed = xzRaw(data, `preset=${preset},lc=${lc},lp=${lp},pb=${pb}`);
    assertSame(lzmaDecode(packed, data.length, lc, lp, pb), data, `lc=${lc} lp=${lp} pb=${pb} preset=${preset}`);
  }
});

test('.lzma files from xz: properties from the header, the stream after it', LIMIT, () => {
  const data = mixed();
  for (const level of ['-0', '-6', '-9e']) {
    const file = xz(['--format=lzma', level, '--stdout'], data);
    let props = file[0];
    const lc = props % 9;
    props = Math.floor(props / 9);
    const lp = props % 5;
    const pb = Math.floor(props / 5);
    assertSame(lzmaDecode(file.subarray(13), data.length, lc, lp, pb), data, `xz --format=lzma ${level}`);
  }
});

test('the real WebAssembly module, with the settings scripts/build.mjs tries', LIMIT, (t) => {
  if (!existsSync(MODULE)) {
    t.skip('pkg/zarr_scale_offset_bg.opt.wasm is missing (run npm run build)');
    return;
  }
  const wasm = new Uint8Array(readFileSync(MODULE));
  for (const options of ['lc=3,lp=0,pb=0,mode=normal,nice=128,mf=hc4,depth=1000', 'preset=9e,lc=3,lp=0,pb=2']) {
    const packed = xzRaw(wasm, `dict=${wasm.length},${options}`);
    const [lc, lp, pb] = ['lc', 'lp', 'pb'].map((k) => Number(new RegExp(`${k}=(\\d)`).exec(options)[1]));
    assertSame(lzmaDecode(packed, wasm.length, lc, lp, pb), wasm, options);
  }
});

test('the built dist/zarr_scale_offset_wasm.js unpacks to the module', LIMIT, async (t) => {
  if (!existsSync(MODULE)) {
    t.skip('pkg/ is missing (run npm run build)');
    return;
  }
  const { WASM_SIZE, wasmBytes } = await import(pathToFileURL(DIST).href);
  const wasm = new Uint8Array(readFileSync(MODULE));
  assert.equal(WASM_SIZE, wasm.length);
  const a = await wasmBytes();
  const b = await wasmBytes();
  assertSame(a, wasm, 'wasmBytes()');
  assert.notEqual(a.buffer, b.buffer, 'every call returns a fresh array');
});

test('dist/zarr_scale_offset_wasm.js without Buffer (the atob fallback) unpacks to the module', LIMIT, async (t) => {
  if (!existsSync(MODULE)) {
    t.skip('pkg/ is missing (run npm run build)');
    return;
  }
  // Node 20 takes the Buffer path; a module-level `Buffer` shadows the global, as in a browser
  // without Uint8Array.fromBase64 (which Node 20 lacks too, so atob runs).
  assert.equal(typeof Uint8Array.fromBase64, 'undefined', 'this test expects a Node without Uint8Array.fromBase64');
  const src = `const Buffer = undefined;\n${readFileSync(DIST, 'utf8')}`;
  const { wasmBytes } = await import(`data:text/javascript,${encodeURIComponent(src)}`);
  assertSame(await wasmBytes(), new Uint8Array(readFileSync(MODULE)), 'wasmBytes() without Buffer');
});

test('streams without an end marker (known size), checked with xz -d through a .lzma header', LIMIT, () => {
  const data = mixed();
  for (const [lc, lp, pb] of [[3, 0, 2], [0, 2, 0], [4, 0, 4]]) {
    const bare = lzmaEncode(data, { lc, lp, pb, marker: false });
    const marked = lzmaEncode(data, { lc, lp, pb, marker: true });
    assert.ok(marked.length > bare.length);
    // The reference decoder reads both (a .lzma header with the size, then one with size unknown).
    const header = (size) => lzmaHeader(lc, lp, pb, 1 << 20, size);
    assertSame(xz(['-d', '--format=lzma', '--stdout'], Buffer.concat([header(data.length), bare])), data, 'xz -d, no marker');
    assertSame(xz(['-d', '--format=lzma', '--stdout'], Buffer.concat([header(-1), marked])), data, 'xz -d, marker');
    assertSame(lzmaDecode(bare, data.length, lc, lp, pb), data, `no marker, lc=${lc} lp=${lp} pb=${pb}`);
    assertSame(lzmaDecode(marked, data.length, lc, lp, pb), data, `marker, lc=${lc} lp=${lp} pb=${pb}`);
    // A known-size stream declared one byte longer or shorter.
    assertCorrupt(() => lzmaDecode(bare, data.length + 1, lc, lp, pb), /truncated/, 'no marker, size + 1');
    assertCorrupt(() => lzmaDecode(bare, data.length - 1, lc, lp, pb), /past the output size|after the last|after the end/, 'no marker, size - 1');
  }
  for (const data of [new Uint8Array(0), Uint8Array.of(1)]) {
    assertSame(lzmaDecode(lzmaEncode(data), data.length, 3, 0, 2), data, `no marker, ${data.length} bytes`);
    assertSame(lzmaDecode(lzmaEncode(data, { marker: true }), data.length, 3, 0, 2), data, `marker, ${data.length} bytes`);
  }
});

test('lc + lp > 4 (allowed by LZMA1, refused by xz): lc=8 lp=4 pb=4 and others', LIMIT, () => {
  const data = mixed().subarray(0, 60_000);
  for (const [lc, lp, pb] of [[8, 4, 4], [8, 0, 0], [5, 3, 1]]) {
    for (const marker of [false, true]) {
      const packed = lzmaEncode(data, { lc, lp, pb, marker });
      assertSame(lzmaDecode(packed, data.length, lc, lp, pb), data, `lc=${lc} lp=${lp} pb=${pb} marker=${marker}`);
    }
  }
});

test('wrong sizes, trailing data and invalid arguments throw code internal', () => {
  const data = text(50_000);
  const packed = xzRaw(data, 'preset=6');
  assertCorrupt(() => lzmaDecode(packed, data.length + 1, 3, 0, 2), /end marker after 50000 of 50001 bytes/, 'size + 1');
  assertCorrupt(() => lzmaDecode(packed, data.length - 1, 3, 0, 2), /past the output size|after the last/, 'size - 1');
  assertCorrupt(() => lzmaDecode(packed, 0, 3, 0, 2), /after the last of 0 bytes/, 'size 0');
  assertCorrupt(() => lzmaDecode(Buffer.concat([packed, Uint8Array.of(0)]), data.length, 3, 0, 2), /after the end/, 'a trailing 0');
  assertCorrupt(() => lzmaDecode(Buffer.concat([packed, packed]), data.length, 3, 0, 2), /after the end/, 'twice');
  assertCorrupt(() => lzmaDecode(packed, data.length, 3, 0, 1), /./, 'wrong pb');
  assertCorrupt(() => lzmaDecode(packed, data.length, 9, 0, 2), /unsupported properties lc=9/, 'lc 9');
  assertCorrupt(() => lzmaDecode(packed, data.length, 3, 5, 2), /unsupported properties/, 'lp 5');
  assertCorrupt(() => lzmaDecode(packed, data.length, 3, 0, 5), /unsupported properties/, 'pb 5');
  assertCorrupt(() => lzmaDecode(packed, data.length, 2.5, 0, 2), /unsupported properties/, 'lc 2.5');
  assertCorrupt(() => lzmaDecode(packed, data.length, 3, -1, 2), /unsupported properties/, 'lp -1');
  assertCorrupt(() => lzmaDecode(packed, -1, 3, 0, 2), /invalid output size -1/, 'size -1');
  assertCorrupt(() => lzmaDecode(packed, 1.5, 3, 0, 2), /invalid output size/, 'size 1.5');
  assertCorrupt(() => lzmaDecode(packed.subarray(0, 4), data.length, 3, 0, 2), /truncated: 4 bytes/, '4 bytes');
  const first = packed.slice();
  first[0] = 1;
  assertCorrupt(() => lzmaDecode(first, data.length, 3, 0, 2), /first byte is not 0/, 'first byte 1');
});

test('invalid streams made by hand: a rep match first, a distance before the start', () => {
  const rep = new LzmaWriter(3, 0, 2);
  rep.rep0(0, 2);
  assertCorrupt(() => lzmaDecode(rep.finish(), 10, 3, 0, 2), /repeated match before any output/, 'rep at 0');
  const short = new LzmaWriter(3, 0, 2);
  short.rep0(0, 1);
  assertCorrupt(() => lzmaDecode(short.finish(), 10, 3, 0, 2), /repeated match before any output/, 'short rep at 0');
  const data = Uint8Array.of(1, 2, 3);
  for (const dist of [3, 4, 1000, 0x7fffffff]) {
    const far = new LzmaWriter(3, 0, 2);
    for (let i = 0; i < 3; i++) far.literal(data, i, data[i]);
    far.match(3, 2, dist);
    assertCorrupt(() => lzmaDecode(far.finish(), 10, 3, 0, 2), new RegExp(`distance ${dist + 1} at output byte 3`), `distance ${dist + 1}`);
  }
  // The largest valid distance (the first byte) decodes.
  const ok = new LzmaWriter(3, 0, 2);
  for (let i = 0; i < 3; i++) ok.literal(data, i, data[i]);
  ok.match(3, 4, 2);
  assertSame(lzmaDecode(ok.finish(), 7, 3, 0, 2), Uint8Array.of(1, 2, 3, 1, 2, 3, 1), 'distance 3');
  // A match longer than the output.
  const long = new LzmaWriter(3, 0, 2);
  for (let i = 0; i < 3; i++) long.literal(data, i, data[i]);
  long.match(3, 273, 0);
  assertCorrupt(() => lzmaDecode(long.finish(), 100, 3, 0, 2), /a match of 273 bytes at 3 runs past the output size 100/, 'overrun');
});

test('truncation at every offset (small stream) and at 300 offsets (the module) throws', LIMIT, (t) => {
  const small = text(20_000);
  const packed = xzRaw(small, 'preset=6');
  for (let n = 0; n < packed.length; n++) {
    assertCorrupt(() => lzmaDecode(packed.subarray(0, n), small.length, 3, 0, 2), /truncated|first byte|does not end/, `truncated to ${n}`);
  }
  const bare = lzmaEncode(small);
  for (let n = 0; n < bare.length; n++) {
    assertCorrupt(() => lzmaDecode(bare.subarray(0, n), small.length, 3, 0, 2), /truncated|first byte|does not end/, `no marker, truncated to ${n}`);
  }
  if (!existsSync(MODULE)) {
    t.diagnostic('pkg/ missing: module truncations skipped');
    return;
  }
  const wasm = new Uint8Array(readFileSync(MODULE));
  const big = xzRaw(wasm, 'preset=6,lc=3,lp=0,pb=0');
  const next = prng(11);
  for (let k = 0; k < 300; k++) {
    const n = k < 20 ? big.length - 1 - k : next() % big.length;
    assertCorrupt(() => lzmaDecode(big.subarray(0, n), wasm.length, 3, 0, 0), /truncated|first byte|does not end/, `module truncated to ${n}`);
  }
});

test('random corruption: each decode throws code internal or returns exactly size bytes, quickly', LIMIT, (t) => {
  const data = mixed();
  const packed = xzRaw(data, 'preset=6');
  const next = prng(5);
  let threw = 0;
  let returned = 0;
  let slowest = 0;
  const N = 400;
  for (let k = 0; k < N; k++) {
    const bad = packed.slice();
    // One to three flipped bytes (never a no-op XOR).
    const flips = 1 + (next() % 3);
    for (let f = 0; f < flips; f++) bad[next() % bad.length] ^= 1 + (next() % 255);
    const t0 = performance.now();
    try {
      const out = lzmaDecode(bad, data.length, 3, 0, 2);
      assert.equal(out.length, data.length, 'a decode that returns gives exactly size bytes');
      returned++;
    } catch (e) {
      assert.ok(e instanceof Error && e.code === 'internal', `unexpected error: ${e?.stack ?? e}`);
      threw++;
    }
    slowest = Math.max(slowest, performance.now() - t0);
  }
  t.diagnostic(`${threw} of ${N} corrupt streams threw, ${returned} returned; slowest ${slowest.toFixed(1)} ms`);
  // A corrupt stream must not run for long: a valid decode of this input takes a few ms.
  assert.ok(slowest < 2000, `slowest corrupt decode ${slowest.toFixed(0)} ms`);
  // The end checks (whole input consumed, range coder at 0, end marker) catch nearly all of it.
  assert.ok(threw >= N * 0.95, `only ${threw} of ${N} corrupt streams were detected (${returned} returned)`);
});
