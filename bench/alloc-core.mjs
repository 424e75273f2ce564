// What a fresh output array costs, environment-agnostic (Node and a browser page; driven by
// bench/alloc.mjs). Times ways of producing a new float32 array of n elements (allocation alone,
// zeroing, first touch, copies) next to a reused one, and the package's decodeChunk and
// decodeChunkInto of the float32 <- uint16 chain, with the interleaved sampler of core.mjs.

import { loadZarrita, measureAll, zarritaDecoder } from './core.mjs';
import { CASES, arrayMeta, rng } from './cases.mjs';

/** The variants: name -> (n, ctx) => function to time. */
export function variants(n, ctx) {
  const src = ctx.src; // a Float32Array of n elements with data
  const reuse = new Float32Array(n);
  const mem = ctx.mem; // a WebAssembly.Memory holding >= 4n bytes
  const off = 65536;
  return {
    // Allocation alone: V8 may hand out lazily zeroed (calloc / fresh mmap) memory, so this can
    // be cheap and move the cost to the first write.
    newAB: () => new ArrayBuffer(4 * n),
    newF32: () => new Float32Array(n),
    // One write per 4 KiB page: the page-fault (first-touch) cost without the bulk writes.
    touch: () => {
      const a = new Float32Array(n);
      for (let i = 0; i < n; i += 1024) a[i] = 1;
      return a;
    },
    // Node only: an ArrayBuffer of its own, not zeroed (Buffer.allocUnsafeSlow), written once.
    unsafeFill1: globalThis.Buffer?.allocUnsafeSlow
      ? () => new Float32Array(globalThis.Buffer.allocUnsafeSlow(4 * n).buffer, 0, n).fill(1)
      : null,
    fill0: () => new Float32Array(n).fill(0),
    fill1: () => new Float32Array(n).fill(1),
    reuseFill1: () => reuse.fill(1),
    memcpy: () => reuse.set(src),
    newSet: () => {
      const a = new Float32Array(n);
      a.set(src);
      return a;
    },
    slice: () => src.slice(),
    abSlice: () => src.buffer.slice(0),
    wasmSlice: () => new Float32Array(new Uint8Array(mem.buffer, off, 4 * n).slice().buffer),
    wasmAbSlice: () => new Float32Array(mem.buffer.slice(off, off + 4 * n)),
  };
}

export async function runAlloc({ sizes = [65536, 1048576, 4194304], samples = 9, faults = null, log = () => {}, only = null, base = null } = {}) {
  const api = await import(new URL('../dist/index.js', import.meta.url).href);
  await api.ready();
  // Optionally a second build (e.g. of the parent commit) timed in the same rounds: `base.*` rows.
  const glue = await import(new URL('../dist/zarr_scale_offset.js', import.meta.url).href);
  const old = base ? await import(new URL(`../${base}/index.js`, import.meta.url).href) : null;
  if (old) await old.ready();
  const oldGlue = base ? await import(new URL(`../${base}/zarr_scale_offset.js`, import.meta.url).href) : null;
  const maxN = Math.max(...sizes);
  const mem = new WebAssembly.Memory({ initial: Math.ceil((4 * maxN + 65536) / 65536) + 1 });
  const c = CASES.find((x) => x.id === 'f32<-u16');
  const Z = await loadZarrita();
  const rows = [];
  for (const n of sizes) {
    const stored = c.gen(n, rng(0x5eed ^ n));
    const bytes = new Uint8Array(stored.buffer.slice(0));
    const meta = arrayMeta(c, n);
    const metaText = JSON.stringify(meta);
    const src = api.decodeChunk(meta, bytes);
    new Uint8Array(mem.buffer, 65536, 4 * n).set(new Uint8Array(src.buffer));
    const out = new Float32Array(n);
    const srcBytes = new Uint8Array(src.buffer, src.byteOffset, src.byteLength);
    const encOut = new Uint8Array(2 * n);
    const zdec = zarritaDecoder(Z, meta);
    const fns = {
      ...variants(n, { src, mem }),
      zarrita: () => zdec(bytes),
      decodeChunk: () => api.decodeChunk(meta, bytes),
      decodeChunkText: () => api.decodeChunk(metaText, bytes),
      decodeChunkInto: () => api.decodeChunkInto(meta, bytes, out),
      decodeChunkIntoText: () => api.decodeChunkInto(metaText, bytes, out),
      encodeChunk: () => api.encodeChunk(meta, src),
      encodeChunkText: () => api.encodeChunk(metaText, src),
      // encodeChunk into a reused output (the wasm export under encodeChunk): the codec work alone.
      encodeInto: glue.encodeChunkInto ? () => glue.encodeChunkInto(metaText, srcBytes, encOut) : null,
      ...(old
        ? {
            'base.decodeChunk': () => old.decodeChunk(meta, bytes),
            'base.decodeChunkText': () => old.decodeChunk(metaText, bytes),
            'base.decodeChunkInto': () => old.decodeChunkInto(meta, bytes, out),
            'base.encodeChunk': () => old.encodeChunk(meta, src),
            'base.encodeInto': oldGlue.encodeChunkInto ? () => oldGlue.encodeChunkInto(metaText, srcBytes, encOut) : null,
            'base.toJsonText': () => old.toJsonText(meta),
          }
        : {}),
      // The metadata marshalling alone: JSON text of the object and the data-type lookup.
      metaOnly: () => api.arrayDataType(meta),
      metaOnlyText: () => api.arrayDataType(metaText),
      toJsonText: () => api.toJsonText(meta),
      jsonStringify: () => JSON.stringify(meta),
    };
    if (only) for (const k of Object.keys(fns)) if (!only.split(',').includes(k)) fns[k] = null;
    log(`n=${n}`);
    const t = measureAll(fns, { samples });
    const row = { n, us: {}, melemsPerSec: {}, faultsPerCall: {} };
    for (const [k, v] of Object.entries(t)) {
      if (v === null) continue;
      row.us[k] = v * 1e6;
      row.melemsPerSec[k] = n / v / 1e6;
    }
    // Minor page faults per call (when the driver can count them for this process).
    if (faults) {
      for (const [k, fn] of Object.entries(fns)) {
        if (!fn) continue;
        const calls = Math.max(4, Math.ceil(64 * 65536 / n));
        for (let i = 0; i < 3; i++) fn();
        const f0 = await faults();
        for (let i = 0; i < calls; i++) fn();
        const f1 = await faults();
        row.faultsPerCall[k] = (f1 - f0) / calls;
      }
    }
    rows.push(row);
  }
  return rows;
}
