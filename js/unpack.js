// The loader of the inlined WebAssembly module: base64 -> LZMA1 -> the module's bytes.
//
// scripts/build.mjs pastes this file into dist/zarr_scale_offset_wasm.js after six constants it
// writes there: DECODER (base64 of the LZMA decoder, crates/unpack, a ~3 KB WebAssembly module of
// its own, stored zlib DEFLATE), DATA (base64 of the package's module, raw LZMA1 from `xz --format=raw`),
// SIZE (the module's size) and LC, LP, PB (the LZMA properties the build chose). So it must stay
// self-contained: no imports; its exports are the generated module's exports.
//
// Why a decoder in WebAssembly: unpacking ~250 KB is one long loop that runs once per start-up,
// so JavaScript ran it in the interpreter and baseline tiers (a JS decoder took 15-40 ms of
// every cold start, bench/unpack.mjs); compiled code does it in a few ms. The decoder's module is
// compiled asynchronously (no main-thread size limit applies) and runs once, in a fresh instance
// whose memory holds the input, the output and the probability table; it is dropped afterwards.

const PROBS = 1846; // probabilities before the literal coders (crates/unpack, LITERAL)

// Fail codes of crates/unpack (the discriminants of `Fail`) -> messages; `at` is the output
// position reached, `v` the value the failure names, `n` the input length, `size` the output size.
const FAILURES = {
  1: () => 'unsupported properties',
  2: (at, v) => `truncated: ${v} bytes`,
  3: (at, v, n) => `truncated after ${n} bytes`,
  4: () => 'a repeated match before any output',
  5: (at, v) => `distance ${v} at output byte ${at}`,
  6: (at, v, n, size) => `a match of ${v} bytes at ${at} runs past the output size ${size}`,
  7: (at, v, n, size) => `end marker after ${at} of ${size} bytes`,
  8: (at, v, n, size) => `data after the last of ${size} bytes`,
  9: (at, v) => `${v} bytes after the end of the stream`,
  10: () => 'the stream does not end where its range coder does',
  11: () => 'the buffers do not fit the decoder memory',
  12: () => 'the first byte is not 0',
  13: () => 'an index outside the probability tables',
};

function fail(message) {
  const e = new Error(`zarr-scale-offset: cannot unpack LZMA data: ${message}`);
  e.code = 'internal';
  return e;
}

// Native base64 decoders first: Uint8Array.fromBase64 (recent browsers), Node's Buffer (Node 20
// has no fromBase64), then atob, which every browser, worker and Node >= 16 has.
function base64(text) {
  if (typeof Uint8Array.fromBase64 === 'function') return Uint8Array.fromBase64(text);
  if (typeof Buffer === 'function' && typeof Buffer.from === 'function') return Buffer.from(text, 'base64');
  const s = atob(text);
  const out = new Uint8Array(s.length);
  for (let i = 0; i < s.length; i++) out[i] = s.charCodeAt(i);
  return out;
}

const align8 = (n) => Math.ceil(n / 8) * 8;

// DECODER is zlib DEFLATE (scripts/build.mjs; 0.7 KB gzip smaller than the raw module as base64).
// Node (>= 20.16) inflates it with zlib at once, without `Response`, whose first use loads Node's
// whole fetch stack (~25 ms, measured); elsewhere the runtime's DecompressionStream does.
async function inflate(bytes) {
  const zlib = globalThis.process?.getBuiltinModule?.('zlib');
  if (zlib) return zlib.inflateSync(bytes);
  return new Uint8Array(await new Response(new Blob([bytes]).stream().pipeThrough(new DecompressionStream('deflate'))).arrayBuffer());
}

// A fresh decoder instance: (input, size, lc, lp, pb) -> a Uint8Array view of `size` bytes in
// that instance's memory. Throws an Error with code 'internal' on any bad argument or stream.
async function decoder() {
  const { instance } = await WebAssembly.instantiate(await inflate(base64(DECODER)));
  const x = instance.exports;
  return (input, size, lc, lp, pb) => {
    // x >>> 0 === x: a non-negative integer.
    if (!(lc >>> 0 === lc && lc <= 8 && lp >>> 0 === lp && lp <= 4 && pb >>> 0 === pb && pb <= 4)) {
      throw fail(`unsupported properties lc=${lc} lp=${lp} pb=${pb}`);
    }
    if (!(Number.isInteger(size) && size >= 0 && size <= 0x7fffffff)) throw fail(`invalid output size ${size}`);
    const inPtr = x.heap_base();
    const outPtr = align8(inPtr + input.length);
    const probsPtr = align8(outPtr + size);
    const end = probsPtr + 2 * (PROBS + (0x300 << (lc + lp)));
    const pages = Math.ceil(end / 65536) - x.memory.buffer.byteLength / 65536;
    if (pages > 0) {
      try {
        x.memory.grow(pages);
      } catch (e) {
        throw fail(`cannot grow the decoder memory to ${end} bytes (${e.message})`);
      }
    }
    new Uint8Array(x.memory.buffer, inPtr, input.length).set(input);
    const rc = x.unpack(inPtr, input.length, outPtr, size, probsPtr, lc, lp, pb);
    if (rc !== 0) {
      const message = FAILURES[rc]?.(x.failed_at() >>> 0, x.failed_value() >>> 0, input.length, size) ?? `failure ${rc}`;
      throw fail(message);
    }
    return new Uint8Array(x.memory.buffer, outPtr, size);
  };
}

/** The module's size in bytes. */
export const WASM_SIZE = SIZE;

/**
 * Unpacks the inlined module: a Promise of its bytes (a fresh Uint8Array on every call, a view
 * into the decoder's memory, which is dropped with it). Rejects with code 'internal' on a
 * corrupt module (the build checks that it is not).
 */
export async function wasmBytes() {
  return (await decoder())(base64(DATA), SIZE, LC, LP, PB);
}

/**
 * The decoder for tests: a Promise of a synchronous `lzmaDecode(input, size, lc, lp, pb)` that
 * decodes a raw LZMA1 stream (with or without an end marker) into a new Uint8Array of exactly
 * `size` bytes, or throws an Error with code 'internal'.
 */
export async function lzmaDecoder() {
  const decode = await decoder();
  return (input, size, lc, lp, pb) => decode(input, size, lc, lp, pb).slice();
}
