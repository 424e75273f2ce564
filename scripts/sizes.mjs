#!/usr/bin/env node
// `npm run sizes` (after `npm run build`): what the package costs (`--markdown`: the per-file
// table of docs/guides/performance.md).
//
//   - the WebAssembly module as a separate .wasm file vs inlined as base64 in
//     dist/zarr_scale_offset_wasm.js (raw, gzip -9, brotli), i.e. what zero configuration costs;
//   - the time to turn the inlined base64 back into bytes (base64, then the LZMA decoder of
//     crates/unpack, inlined with its loader js/unpack.js; first call and best of 5) and to
//     compile the module (Node);
//   - `npm pack`: the tarball size, the unpacked size and the files.
//
// The optimised .wasm is pkg/zarr_scale_offset_bg.opt.wasm (written by scripts/build.mjs; the
// package does not ship it). tests/js/sizes.test.mjs prints the same table in `npm test`.

import { execFileSync } from 'node:child_process';
import { existsSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { brotliCompressSync, constants, gzipSync } from 'node:zlib';

const ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');

function compressed(bytes) {
  return {
    raw: bytes.length,
    gzip: gzipSync(bytes, { level: 9 }).length,
    brotli: brotliCompressSync(bytes, { params: { [constants.BROTLI_PARAM_QUALITY]: 11 } }).length,
  };
}

/** Sizes of the module, separate vs inlined, and the decode/compile times. */
export async function wasmSizes(root = ROOT) {
  const wasmPath = path.join(root, 'pkg', 'zarr_scale_offset_bg.opt.wasm');
  const inlinePath = path.join(root, 'dist', 'zarr_scale_offset_wasm.js');
  if (!existsSync(inlinePath)) throw new Error('dist/ is missing: run `npm run build` first');
  const { wasmBytes } = await import(pathToFileURL(inlinePath).href);
  // unpack the module (the first call runs cold, as at start-up; then best of 5) and compile it
  let t = performance.now();
  let bytes = await wasmBytes();
  const firstDecodeMs = performance.now() - t;
  let decodeMs = Infinity;
  for (let i = 0; i < 5; i++) {
    t = performance.now();
    bytes = await wasmBytes();
    decodeMs = Math.min(decodeMs, performance.now() - t);
  }
  t = performance.now();
  await WebAssembly.compile(bytes);
  const compileMs = performance.now() - t;
  const separate = compressed(existsSync(wasmPath) ? readFileSync(wasmPath) : Buffer.from(bytes));
  const inlined = compressed(readFileSync(inlinePath));
  return { separate, inlined, firstDecodeMs, decodeMs, compileMs, moduleBytes: bytes.length };
}

/** `npm pack --dry-run`: { filename, size, unpackedSize, files: [{path, size}] }. */
export function packInfo(root = ROOT) {
  const tmp = mkdtempSync(path.join(os.tmpdir(), 'zso-sizes-'));
  try {
    const out = execFileSync('npm', ['pack', '--dry-run', '--json', '--pack-destination', tmp], {
      cwd: root,
      encoding: 'utf8',
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    const [info] = JSON.parse(out);
    return { filename: info.filename, size: info.size, unpackedSize: info.unpackedSize, files: info.files.map((f) => ({ path: f.path, size: f.size })) };
  } finally {
    rmSync(tmp, { recursive: true, force: true });
  }
}

/** What a browser downloads to use the package through `entry` (default: the zarrita adapter,
 * dist/zarrita.js): the entry and every module it imports statically, followed recursively; each
 * file is its own response, so each is gzipped (-9) on its own. `{ files: [{path, raw, gzip}],
 * raw, gzip }`. */
export function downloadInfo(root = ROOT, entry = 'dist/zarrita.js') {
  const files = [];
  const seen = new Set();
  const visit = (rel) => {
    if (seen.has(rel)) return;
    seen.add(rel);
    const bytes = readFileSync(path.join(root, rel));
    files.push({ path: rel, raw: bytes.length, gzip: gzipSync(bytes, { level: 9 }).length });
    // static imports and re-exports of relative modules (`from './x.js'`, `import './x.js'`)
    const text = bytes.toString('utf8');
    for (const m of text.matchAll(/(?:\bfrom\s*|\bimport\s*)(['"])(\.{1,2}\/[^'"]+)\1/g)) {
      visit(path.posix.join(path.posix.dirname(rel), m[2]));
    }
  };
  visit(entry);
  return {
    entry,
    files,
    raw: files.reduce((a, f) => a + f.raw, 0),
    gzip: files.reduce((a, f) => a + f.gzip, 0),
  };
}

/** The size budgets that `npm test` enforces (bytes; 1 KB = 1,000 B, the stricter reading). */
export const BUDGETS = { download: 100_000, tarball: 150_000 };

const n = (v) => String(v.toLocaleString('en-US')).padStart(9);

/** The report as lines of text. */
export async function report(root = ROOT) {
  const w = await wasmSizes(root);
  const p = packInfo(root);
  const d = downloadInfo(root);
  const lines = [];
  lines.push('WebAssembly module: separate .wasm vs inlined (raw LZMA1 as base64 + the decoder; what zero configuration costs)');
  lines.push(`  ${''.padEnd(40)} ${'raw B'.padStart(9)} ${'gzip -9 B'.padStart(10)} ${'brotli B'.padStart(9)}`);
  lines.push(`  ${'.wasm file (wasm-opt -Oz, not shipped)'.padEnd(40)} ${n(w.separate.raw)} ${n(w.separate.gzip).padStart(10)} ${n(w.separate.brotli)}`);
  lines.push(`  ${'dist/zarr_scale_offset_wasm.js (inlined)'.padEnd(40)} ${n(w.inlined.raw)} ${n(w.inlined.gzip).padStart(10)} ${n(w.inlined.brotli)}`);
  const pct = (a, b) => { const v = ((a - b) / b) * 100; return `${v >= 0 ? "+" : ""}${v.toFixed(0)} %`; };
  lines.push(`  ${'inlining costs'.padEnd(40)} ${n(w.inlined.raw - w.separate.raw)} ${n(w.inlined.gzip - w.separate.gzip).padStart(10)} ${n(w.inlined.brotli - w.separate.brotli)}   (${pct(w.inlined.raw, w.separate.raw)} raw, ${pct(w.inlined.gzip, w.separate.gzip)} gzip, ${pct(w.inlined.brotli, w.separate.brotli)} brotli)`);
  lines.push(`  base64 + LZMA -> bytes ${w.decodeMs.toFixed(2)} ms (first call ${w.firstDecodeMs.toFixed(1)} ms), WebAssembly.compile ${w.compileMs.toFixed(1)} ms (Node ${process.versions.node})`);
  lines.push(`npm pack: ${p.filename} ${n(p.size).trim()} B (unpacked ${n(p.unpackedSize).trim()} B), ${p.files.length} files:`);
  for (const f of p.files) lines.push(`  ${f.path.padEnd(40)} ${n(f.size)}`);
  lines.push(`what a browser downloads for the zarrita path (${d.entry} and its imports), gzip -9 per file: ${n(d.gzip).trim()} B (budget ${BUDGETS.download.toLocaleString('en-US')} B):`);
  for (const f of d.files) lines.push(`  ${f.path.padEnd(40)} ${n(f.raw)} ${n(f.gzip).padStart(10)}`);
  lines.push(`npm pack tarball: ${n(p.size).trim()} B (budget: under ${BUDGETS.tarball.toLocaleString('en-US')} B)`);
  return { lines, wasm: w, pack: p, download: d };
}

/** What each packed file costs under gzip -9 (the tarball is one gzip stream, so these add up
 * to about its size), as the Markdown table of docs/guides/performance.md. */
export function markdown(r, root = ROOT) {
  const what = {
    'dist/zarr_scale_offset_wasm.js': `the module (${r.wasm.moduleBytes.toLocaleString('en-US')} B) as base64 of LZMA, its LZMA decoder (a small wasm module) and their loader`,
    'dist/zarr_scale_offset.js': 'wasm-bindgen glue (minified)',
    'dist/core.js': 'the core of the entry (ready, bind, errors; minified): all the adapter imports of it',
    'dist/index.js': 'the entry: the core plus the rest of the API (minified)',
    'dist/numbers.js': 'JSON numbers kept as written, for index.js and cf.js (minified)',
    'dist/zarrita.js': 'the zarrita adapter (minified)',
    'dist/cf.js': 'openCF (minified), loaded by the adapter on first use',
    'dist/index.d.ts': 'types, with doc comments',
    'dist/zarrita.d.ts': 'types of the adapter',
    'README.md': 'npm always ships it',
    'LICENSE-MIT': 'the license texts (MIT OR Apache-2.0)',
    'LICENSE-APACHE': 'the license texts (MIT OR Apache-2.0)',
    'package.json': '',
  };
  const rows = r.pack.files.map((f) => {
    const gz = gzipSync(readFileSync(path.join(root, f.path)), { level: 9 }).length;
    return `| \`${f.path}\` | ${f.size.toLocaleString('en-US')} | ${gz.toLocaleString('en-US')} | ${what[f.path] ?? ''} |`;
  });
  const download = r.download.files.map((f) => `\`${f.path}\``).join(' + ');
  return [
    '| file | bytes | gzip -9 | what |',
    '|---|---:|---:|---|',
    ...rows,
    `| **what a browser downloads** for the zarrita path (${download}) | ${r.download.raw.toLocaleString('en-US')} | **${r.download.gzip.toLocaleString('en-US')}** | budget ${BUDGETS.download.toLocaleString('en-US')} B |`,
    `| **\`npm pack\` tarball** | ${r.pack.unpackedSize.toLocaleString('en-US')} | **${r.pack.size.toLocaleString('en-US')}** | budget: under ${BUDGETS.tarball.toLocaleString('en-US')} B |`,
  ].join('\n');
}

if (process.argv[1] && path.resolve(process.argv[1]) === fileURLToPath(import.meta.url)) {
  report().then(
    (r) => console.log(process.argv.includes('--markdown') ? markdown(r) : r.lines.join('\n')),
    (e) => {
      console.error(e.message);
      process.exit(1);
    },
  );
}
