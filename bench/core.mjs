// The benchmark itself, environment-agnostic: runs in Node (bench/run.mjs) and in a browser page
// (bench/page.html, driven by bench/run.mjs through Playwright). It imports the built package
// (dist/) and zarrita 0.7.5's codec classes from node_modules, times every method on the same
// data in the same process, and returns plain rows (printing is run.mjs's job).

import { CASES, arrayMeta, rng } from './cases.mjs';

const now = () => performance.now();
let sink; // keeps results alive so no engine can skip the work

/**
 * Median seconds per call of each of `fns` (an object name -> function or null). Each function is
 * warmed up (>= 3 calls and `warmMs`), given an iteration count so that one sample takes >= `minMs`,
 * then sampled in `samples` interleaved rounds (every method once per round), so that a change in
 * machine load hits every method alike; with `alternate`, every other round runs in reverse order.
 * `raw`, when given, receives each method's per-round times (seconds per call, in round order).
 */
export function measureAll(fns, { samples = 9, minMs = 12, warmMs = 40, alternate = false, raw = null } = {}) {
  const live = Object.entries(fns).filter(([, f]) => f);
  const iters = {};
  for (const [name, fn] of live) {
    let k = 0;
    const t0 = now();
    do {
      sink = fn();
      k++;
    } while (k < 3 || now() - t0 < warmMs);
    const per = (now() - t0) / k;
    iters[name] = Math.max(1, Math.ceil(minMs / Math.max(per, 1e-3)));
  }
  const times = Object.fromEntries(live.map(([n]) => [n, []]));
  for (let s = 0; s < samples; s++) {
    for (const [name, fn] of alternate && s % 2 ? [...live].reverse() : live) {
      const n = iters[name];
      const t = now();
      for (let i = 0; i < n; i++) sink = fn();
      times[name].push((now() - t) / n);
    }
  }
  const out = {};
  for (const [name] of Object.entries(fns)) {
    const t = times[name];
    if (!t) {
      out[name] = null;
      continue;
    }
    if (raw) raw[name] = t.map((x) => x / 1000);
    t.sort((a, b) => a - b);
    out[name] = t[t.length >> 1] / 1000;
  }
  return out;
}

// zarrita 0.7.5's codec classes, imported from the package files (its entry point only exports
// the registry, which needs @zarrita/storage in a browser; the codec modules are self-contained).
export async function loadZarrita() {
  const base = new URL('../node_modules/zarrita/dist/src/codecs/', import.meta.url);
  const [so, cv, by] = await Promise.all(
    ['scale_offset.js', 'cast_value.js', 'bytes.js'].map((f) => import(new URL(f, base).href)),
  );
  return { scale_offset: so.ScaleOffsetCodec, cast_value: cv.CastValueCodec, bytes: by.BytesCodec };
}

// Builds zarrita's decode of a whole chunk the way its codec pipeline does (fromConfig with the
// metadata passed forward through getEncodedMeta; bytes, then the array->array codecs reversed),
// but called synchronously so that only codec work is timed.
export function zarritaDecoder(Z, meta) {
  let cur = { dataType: meta.data_type, shape: meta.shape, codecs: meta.codecs, fillValue: null };
  const arrayCodecs = [];
  let bytes;
  for (const c of meta.codecs) {
    const Cls = Z[c.name];
    if (!Cls) return null;
    const codec = Cls.fromConfig(c.configuration, cur);
    if (c.name === 'bytes') bytes = codec;
    else {
      arrayCodecs.push(codec);
      if (codec.getEncodedMeta) cur = codec.getEncodedMeta(cur);
    }
  }
  return (u8) => {
    let chunk = bytes.decode(u8);
    for (let i = arrayCodecs.length - 1; i >= 0; i--) chunk = arrayCodecs[i].decode(chunk);
    return chunk.data;
  };
}

// Bitwise equality where any NaN equals any NaN; returns the number of differing elements.
function mismatches(a, b) {
  if (a.length !== b.length) return Math.max(a.length, b.length);
  let bad = 0;
  for (let i = 0; i < a.length; i++) {
    const x = a[i];
    const y = b[i];
    if (x === y) {
      if (x === 0 && typeof x === 'number' && 1 / x !== 1 / y) bad++;
    } else if (!(x !== x && y !== y)) bad++;
  }
  return bad;
}

function bytesEqual(a, b) {
  if (a.byteLength !== b.byteLength) return false;
  const x = new Uint8Array(a.buffer, a.byteOffset, a.byteLength);
  const y = new Uint8Array(b.buffer, b.byteOffset, b.byteLength);
  for (let i = 0; i < x.length; i++) if (x[i] !== y[i]) return false;
  return true;
}

const median = (xs) => {
  const s = [...xs].sort((a, b) => a - b);
  return s.length % 2 ? s[s.length >> 1] : (s[s.length / 2 - 1] + s[s.length / 2]) / 2;
};

/** The calls timed in both builds with `base`. */
const BASE_CALLS = ['decode', 'decodeInto', 'encode'];

/**
 * Runs every case at every size. `sizes`: element counts; `only`: optional substring filter on
 * case ids; `log`: progress callback; `base`: optional URL of another build's `index.js` (e.g.
 * today's main), whose decode, decodeInto and encode are timed in the same interleaved rounds as
 * `base.decode`, `base.decodeInto` and `base.encode`. Each row then has `baseRatio[call]`: the
 * median over the rounds of (our time ÷ the base build's time in the same round), which cancels
 * load that changes between rounds. `recheck` (with `base`): a call whose ratio is above
 * `recheckAbove` is timed `recheck` more times (the two builds alone, `samples` rounds each), and
 * its ratio becomes the median over every round of every pass (`row.rechecked[call]`: the
 * passes' medians). `control` (with `base`): a second instance of our own build (its own wasm
 * instance) is timed the same way as the base build (`ctrl.*`, `row.controlRatio`): an A/A
 * comparison whose spread is the noise floor of new/base on this machine. Returns `{ env, rows }`.
 */
export async function runBench({ sizes = [65536, 1048576, 4194304], only = null, log = () => {}, samples = 9, base = null, recheck = 0, recheckAbove = 1.1, control = false } = {}) {
  const api = await import(new URL('../dist/index.js', import.meta.url).href);
  await api.ready();
  // The same files under another URL: a second module instance with its own wasm memory.
  const twin = base && control ? await import(new URL('../dist/index.js?control', import.meta.url).href) : null;
  if (twin) await twin.ready();
  const old = base ? await import(new URL(base, import.meta.url).href) : null;
  if (old) await old.ready();
  const Z = await loadZarrita();
  const hasInto = typeof api.decodeChunkInto === 'function';
  const rows = [];
  const opts = { samples };
  // Warm-up: V8 runs WebAssembly first through its baseline compiler and re-compiles hot
  // functions with its optimising compiler after some calls; a long call started in baseline code
  // stays there. Exercise every chain a few times on small chunks before timing anything.
  for (const c of CASES) {
    if (only && !c.id.includes(only)) continue;
    const m = arrayMeta(c, 65536);
    const st = c.gen(65536, rng(1));
    const b = new Uint8Array(st.buffer.slice(0));
    for (const a of old ? [api, old] : [api]) {
      for (let i = 0; i < 20; i++) {
        const d = a.decodeChunk(m, b);
        a.encodeChunk(m, d);
        if (hasInto) a.decodeChunkInto(m, b, d);
      }
    }
  }
  for (const c of CASES) {
    if (only && !c.id.includes(only)) continue;
    for (const n of sizes) {
      const r = rng(0x5eed ^ n);
      const stored = c.gen(n, r);
      // The stored chunk as it comes from a store: a Uint8Array over its own ArrayBuffer.
      const bytes = new Uint8Array(stored.buffer.slice(stored.byteOffset, stored.byteOffset + stored.byteLength));
      const meta = arrayMeta(c, n);
      const notes = [];

      const ours = api.decodeChunk(meta, bytes);
      const ref = c.jsLoop(stored);
      const bad = mismatches(ours, ref);
      if (bad) notes.push(`decode differs from the exact JS loop in ${bad} elements`);
      const enc = api.encodeChunk(meta, ours);
      if (!bytesEqual(enc, bytes)) notes.push('encode(decode(x)) != x');
      const zdec = c.zarrita ? zarritaDecoder(Z, meta) : null;
      if (zdec) {
        const zbad = mismatches(zdec(bytes), ref);
        if (zbad) notes.push(`zarrita differs from the exact result in ${zbad} of ${n} elements`);
      }
      const out = new ours.constructor(n);
      if (hasInto) {
        api.decodeChunkInto(meta, bytes, out);
        if (mismatches(out, ref)) notes.push('decodeChunkInto differs from decodeChunk');
      }
      const copyDst = new ours.constructor(n);
      if (old) {
        const theirs = old.decodeChunk(meta, bytes);
        if (mismatches(theirs, ref)) notes.push('the base build decodes differently');
        if (!bytesEqual(old.encodeChunk(meta, theirs), bytes)) notes.push('the base build: encode(decode(x)) != x');
      }
      const baseOut = old ? new ours.constructor(n) : null;
      const ctrlOut = twin ? new ours.constructor(n) : null;

      log(`${c.id} n=${n}`);
      // With a base build, each of its calls runs right after ours, and every other round runs
      // in reverse order, so that neither build always follows the other's allocations.
      const b = (f) => (old ? f : null);
      const raw = {};
      const t = measureAll(
        {
          decode: () => api.decodeChunk(meta, bytes),
          'base.decode': b(() => old.decodeChunk(meta, bytes)),
          decodeInto: hasInto ? () => api.decodeChunkInto(meta, bytes, out) : null,
          'base.decodeInto': b(hasInto ? () => old.decodeChunkInto(meta, bytes, baseOut) : null),
          encode: () => api.encodeChunk(meta, ours),
          'base.encode': b(() => old.encodeChunk(meta, ours)),
          'ctrl.decode': twin ? () => twin.decodeChunk(meta, bytes) : null,
          'ctrl.decodeInto': twin && hasInto ? () => twin.decodeChunkInto(meta, bytes, ctrlOut) : null,
          'ctrl.encode': twin ? () => twin.encodeChunk(meta, ours) : null,
          zarrita: zdec ? () => zdec(bytes) : null,
          jsLoop: () => c.jsLoop(stored),
          memcpy: () => copyDst.set(ours),
          // The floor of any API that returns a new typed array: allocate one and write it once
          // (first touch of fresh memory dominates in browsers).
          freshFill: () => new ours.constructor(n).fill(1),
        },
        { ...opts, alternate: !!old, raw },
      );
      const meps = {};
      for (const [k, v] of Object.entries(t)) meps[k] = v === null ? null : n / v / 1e6;
      const row = { id: c.id, title: c.title, n, seconds: t, melemsPerSec: meps, notes };
      if (old) {
        row.baseRatio = {};
        row.rechecked = {};
        if (twin) {
          row.controlRatio = {};
          for (const call of BASE_CALLS) {
            if (raw[call] && raw[`ctrl.${call}`]) row.controlRatio[call] = median(raw[call].map((x, i) => x / raw[`ctrl.${call}`][i]));
          }
        }
        const fns = {
          decode: [() => api.decodeChunk(meta, bytes), () => old.decodeChunk(meta, bytes)],
          decodeInto: hasInto ? [() => api.decodeChunkInto(meta, bytes, out), () => old.decodeChunkInto(meta, bytes, baseOut)] : null,
          encode: [() => api.encodeChunk(meta, ours), () => old.encodeChunk(meta, ours)],
        };
        for (const call of BASE_CALLS) {
          if (!raw[call] || !raw[`base.${call}`]) continue;
          let ratios = raw[call].map((x, i) => x / raw[`base.${call}`][i]);
          row.baseRatio[call] = median(ratios);
          if (recheck > 0 && row.baseRatio[call] > recheckAbove) {
            const passes = [];
            for (let p = 0; p < recheck; p++) {
              const rr = {};
              measureAll({ now: fns[call][0], base: fns[call][1] }, { samples, alternate: true, raw: rr });
              const pr = rr.now.map((x, i) => x / rr.base[i]);
              passes.push(median(pr));
              ratios = ratios.concat(pr);
            }
            log(`${c.id} n=${n} ${call}: rechecked ${recheck}×, new/base ${row.baseRatio[call].toFixed(2)} -> ${median(ratios).toFixed(2)}`);
            row.rechecked[call] = passes;
            row.baseRatio[call] = median(ratios);
          }
        }
      }
      rows.push(row);
    }
  }
  return { rows, hasInto };
}
