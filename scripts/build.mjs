#!/usr/bin/env node
// `npm run build`: builds the npm package into dist/.
//
//   0. node scripts/gen-dtypes.mjs: js/dtypes.js and the data-type part of js/index.d.ts from the
//      data-type table (crates/core/src/dtype.rs)
//   1. wasm-pack build --release --target web --mode no-install --out-dir pkg
//      (Cargo.toml sets wasm-opt = false for wasm-pack; --mode no-install never downloads.)
//   2. npm binaryen's wasm-opt -Oz --converge on pkg/zarr_scale_offset_bg.wasm, dropping the
//      producers and target_features sections -> dist/zarr_scale_offset_bg.opt.wasm (-Oz rather than
//      -O3: 0.6 KB smaller after LZMA and no slower, since LLVM already optimised the kernels at
//      opt-level 3; measured with bench/run.mjs)
//      (never Debian's binaryen: it cannot parse wasm-bindgen 0.2.130 output).
//   3. dist/zarr_scale_offset.js       the wasm-bindgen glue, with its default fetch of a .wasm
//                                      URL removed (we always pass the bytes)
//      dist/zarr_scale_offset_wasm.js  the optimised .wasm, LZMA-compressed (system `xz`), inlined
//                                      as base64 together with the decoder js/lzma.js
//      dist/index.js, dist/index.d.ts  copies of js/index.js and js/index.d.ts
//      dist/zarrita.js, dist/zarrita.d.ts  the zarrita.js adapter (subpath export ./zarrita), with the
//                                      data-type table js/dtypes.js (step 0) pasted in
//      dist/cf.js                      openCF (js/cf.js), which the adapter imports on first use
//   4. prints the raw and gzip sizes.
//
// Needs the `xz` command (xz-utils; scripts/setup.sh installs it).
//
// Options: --skip-wasm-pack (reuse pkg/), --no-opt (skip wasm-opt; for debugging only),
// --no-minify (ship the JavaScript unminified).

import { spawnSync } from 'node:child_process';
import { copyFileSync, existsSync, mkdirSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { pathToFileURL } from 'node:url';
import { gzipSync } from 'node:zlib';
import { minifySync } from 'rolldown/utils';

import { lzmaDecode } from '../js/lzma.js';

const ROOT = path.resolve(import.meta.dirname, '..');
const PKG = path.join(ROOT, 'pkg');
const DIST = path.join(ROOT, 'dist');
const NAME = 'zarr_scale_offset';
const args = new Set(process.argv.slice(2));
const pkgVersion = JSON.parse(readFileSync(path.join(ROOT, 'package.json'), 'utf8')).version;

function run(cmd, argv) {
  console.log(`$ ${cmd} ${argv.join(' ')}`);
  const r = spawnSync(cmd, argv, { cwd: ROOT, stdio: 'inherit', env: process.env });
  if (r.error) throw new Error(`${cmd}: ${r.error.message}`);
  if (r.status !== 0) throw new Error(`${cmd} exited with status ${r.status}`);
}

function sizes(label, bytes) {
  const gz = gzipSync(bytes, { level: 9 }).length;
  console.log(`  ${label.padEnd(52)} ${String(bytes.length).padStart(9)} B   gzip -9: ${String(gz).padStart(8)} B`);
  return { raw: bytes.length, gzip: gz };
}

// LZMA1 settings tried for the module; the smallest output wins (each try takes ~0.25 s). The
// options are spelled out rather than given as a preset (`preset=9e` = mode=normal, nice=273,
// mf=bt4, depth=512), because xz's presets may change between versions. Measured on the 263 KB
// module: lc=3 lp=0 pb=0 beat xz's default pb=2 by ~160 B and lc=4 by ~150 B; the match-finder
// variants below differ by tens of bytes, in an order that changes as the module does.
const LZMA_OPTIONS = [
  'lc=3,lp=0,pb=0,mode=normal,nice=273,mf=bt4,depth=512',
  'lc=3,lp=0,pb=0,mode=normal,nice=128,mf=hc4,depth=1000',
  'lc=3,lp=0,pb=0,mode=normal,nice=128,mf=bt4,depth=0',
  'lc=3,lp=0,pb=0,mode=normal,nice=152,mf=bt3,depth=0',
  'lc=4,lp=0,pb=0,mode=normal,nice=273,mf=bt4,depth=512',
  'lc=3,lp=0,pb=2,mode=normal,nice=273,mf=bt4,depth=512',
];

// Raw LZMA1 (no header: the properties and the size are constants in the generated module).
// xz 5.4 always ends a raw LZMA1 stream with an end marker; js/lzma.js accepts it.
function xzLzma1(bytes, options) {
  const r = spawnSync('xz', ['--format=raw', `--lzma1=${options}`, '--stdout'], {
    input: bytes,
    maxBuffer: 64 * 1024 * 1024,
  });
  if (r.error?.code === 'ENOENT') {
    throw new Error('the `xz` command (xz-utils) is missing: run `bash scripts/setup.sh` (or apt-get install xz-utils)');
  }
  if (r.error) throw new Error(`xz: ${r.error.message}`);
  if (r.status !== 0) throw new Error(`xz --lzma1=${options} exited with status ${r.status}: ${r.stderr.toString().trim()}`);
  return r.stdout;
}

function findWasmOpt() {
  const local = path.join(ROOT, 'node_modules', '.bin', 'wasm-opt');
  if (existsSync(local)) return local;
  throw new Error(
    'node_modules/.bin/wasm-opt (npm binaryen 132.0.0) is missing: run `npm ci` (or bash scripts/setup.sh) first',
  );
}

async function main() {
  const t0 = Date.now();
  run(process.execPath, [path.join('scripts', 'gen-dtypes.mjs')]);
  if (!args.has('--skip-wasm-pack')) {
    const home = process.env.HOME ?? '';
    const toolRoot = process.env.CARGO_INSTALL_ROOT ?? process.env.CARGO_HOME ?? path.join(home, '.cargo');
    process.env.PATH = [path.join(toolRoot, 'bin'), path.join(home, '.cargo', 'bin'), process.env.PATH].join(path.delimiter);
    run('wasm-pack', ['build', '--release', '--target', 'web', '--mode', 'no-install', '--out-dir', 'pkg']);
  }
  const rawWasmPath = path.join(PKG, `${NAME}_bg.wasm`);
  const gluePath = path.join(PKG, `${NAME}.js`);
  for (const p of [rawWasmPath, gluePath]) {
    if (!existsSync(p)) throw new Error(`${path.relative(ROOT, p)} is missing: the wasm-pack build did not produce it`);
  }

  rmSync(DIST, { recursive: true, force: true });
  mkdirSync(DIST, { recursive: true });

  // 2. wasm-opt
  const optPath = path.join(DIST, `${NAME}_bg.opt.wasm`);
  if (args.has('--no-opt')) {
    console.log('!! --no-opt: shipping the unoptimised .wasm');
    copyFileSync(rawWasmPath, optPath);
  } else {
    const wasmOpt = findWasmOpt();
    run(wasmOpt, ['--version']);
    run(wasmOpt, [rawWasmPath, '-Oz', '--converge', '--strip-producers', '--strip-target-features', '-o', optPath]);
  }
  const wasmBytes = readFileSync(optPath);
  // Validate before shipping (throws on a broken module).
  new WebAssembly.Module(wasmBytes);

  // 3a. glue: drop the default `new URL('…_bg.wasm', import.meta.url)` so that bundlers do not
  // look for a .wasm file that the package does not ship.
  let glue = readFileSync(gluePath, 'utf8');
  const urlLine = new RegExp(`module_or_path = new URL\\('${NAME}_bg\\.wasm', import\\.meta\\.url\\);`, 'g');
  const matches = glue.match(urlLine) ?? [];
  if (matches.length !== 1) {
    throw new Error(
      `expected exactly one default .wasm URL in ${path.relative(ROOT, gluePath)}, found ${matches.length}: ` +
        'the wasm-bindgen glue changed; update scripts/build.mjs',
    );
  }
  glue = glue.replace(
    urlLine,
    "throw new Error('zarr-scale-offset: the .wasm is inlined; call ready() from the package entry');",
  );
  writeFileSync(
    path.join(DIST, `${NAME}.js`),
    `// Generated by scripts/build.mjs from wasm-bindgen output (${path.relative(ROOT, gluePath)}). Do not edit.\n${glue}`,
  );

  // 3b. inlined wasm: LZMA-compressed, then base64. The npm tarball is gzip, which cannot compress
  // base64 of the raw module well (6-bit symbols misalign its matches) but stores base64 of
  // compressed data at about its binary size; LZMA makes that ~19 % smaller than raw DEFLATE did.
  // The decoder (js/lzma.js, ~1.4 KB gzip) is inlined next to the data, so the module is unpacked
  // synchronously with no DecompressionStream and no extra file to resolve.
  const dict = Math.max(4096, wasmBytes.length);
  let best = null;
  for (const options of LZMA_OPTIONS) {
    const data = xzLzma1(wasmBytes, `dict=${dict},${options}`);
    console.log(`  xz --lzma1=${options}: ${data.length} B`);
    if (best === null || data.length < best.data.length) best = { options, data };
  }
  const props = Object.fromEntries(best.options.split(',').map((kv) => kv.split('=')));
  const [lc, lp, pb] = [Number(props.lc), Number(props.lp), Number(props.pb)];
  // LZMA has no checksum: decode with the decoder that ships and compare every byte.
  const unpacked = lzmaDecode(best.data, wasmBytes.length, lc, lp, pb);
  if (Buffer.compare(unpacked, wasmBytes) !== 0) throw new Error('LZMA round trip through js/lzma.js differs from the module');
  console.log(`  smallest: ${best.options} (${best.data.length} B; js/lzma.js decodes it exactly)`);

  // js/lzma.js is pasted in whole, its one export made module-local (the generated module exports
  // only WASM_SIZE and wasmBytes); check that it is still the self-contained file this expects.
  const decoderSource = readFileSync(path.join(ROOT, 'js', 'lzma.js'), 'utf8');
  const exportsFound = decoderSource.match(/^export\b.*$/gm) ?? [];
  if (/^import\b/m.test(decoderSource) || exportsFound.length !== 1 || !exportsFound[0].startsWith('export function lzmaDecode(')) {
    throw new Error('js/lzma.js must have no imports and exactly one export, `export function lzmaDecode(`');
  }
  const decoder = decoderSource.replace(/^export function lzmaDecode\(/m, 'function lzmaDecode(');
  const b64 = best.data.toString('base64');
  const inline = `// Generated by scripts/build.mjs: the optimised zarr-scale-offset WebAssembly module
// (${wasmBytes.length} bytes; ${best.data.length} bytes raw LZMA1, xz --lzma1=${best.options}) as base64, and
// the decoder from js/lzma.js, so that the package loads with no fetch, no file access and no bundler
// configuration, in Node, browsers, Vite and Web Workers alike.
// Do not edit.
const B64 = '${b64}';

/** The module's size in bytes. */
export const WASM_SIZE = ${wasmBytes.length};

// ---- js/lzma.js ----
${decoder}
// ---- end of js/lzma.js ----

// Native decoders first: Uint8Array.fromBase64 (recent browsers), then Node's Buffer (Node 20 has
// no fromBase64; Buffer.from takes ~0.3 ms where the table loop below takes ~4-9 ms on the first
// call, measured with bench/unpack.mjs). The table loop is for anything else.
function base64() {
  if (typeof Uint8Array.fromBase64 === 'function') return Uint8Array.fromBase64(B64);
  if (typeof Buffer === 'function' && typeof Buffer.from === 'function') return Buffer.from(B64, 'base64');
  const table = new Uint8Array(128);
  const alphabet = 'ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/';
  for (let i = 0; i < 64; i++) table[alphabet.charCodeAt(i)] = i;
  let end = B64.length;
  while (end > 0 && B64.charCodeAt(end - 1) === 61) end--; // '='
  const out = new Uint8Array(Math.floor((end * 3) / 4));
  let o = 0;
  let i = 0;
  for (; i + 4 <= end; i += 4) {
    const n =
      (table[B64.charCodeAt(i)] << 18) |
      (table[B64.charCodeAt(i + 1)] << 12) |
      (table[B64.charCodeAt(i + 2)] << 6) |
      table[B64.charCodeAt(i + 3)];
    out[o++] = n >> 16;
    out[o++] = (n >> 8) & 255;
    out[o++] = n & 255;
  }
  const rest = end - i;
  if (rest >= 2) {
    const n = (table[B64.charCodeAt(i)] << 18) | (table[B64.charCodeAt(i + 1)] << 12) |
      (rest === 3 ? table[B64.charCodeAt(i + 2)] << 6 : 0);
    out[o++] = n >> 16;
    if (rest === 3) out[o++] = (n >> 8) & 255;
  }
  return out;
}

/**
 * Decodes and decompresses the inlined module: a Promise of a fresh Uint8Array. The work is
 * synchronous; the Promise keeps the interface of the earlier DecompressionStream version. A
 * corrupt module rejects with code 'internal' (the build checks that it is not).
 */
export async function wasmBytes() {
  return lzmaDecode(base64(), WASM_SIZE, ${lc}, ${lp}, ${pb});
}
`;
  writeFileSync(path.join(DIST, `${NAME}_wasm.js`), inline);

  // 3c. entry and types
  for (const f of ['index.js', 'index.d.ts', 'zarrita.d.ts', 'cf.js']) {
    copyFileSync(path.join(ROOT, 'js', f), path.join(DIST, f));
  }
  // The adapter imports the generated table js/dtypes.js; it is pasted in, its one export made
  // module-local, so the package has one file fewer to fetch.
  const dtypesSource = readFileSync(path.join(ROOT, 'js', 'dtypes.js'), 'utf8');
  const dtypesExports = dtypesSource.match(/^export\b.*$/gm) ?? [];
  if (/^import\b/m.test(dtypesSource) || dtypesExports.length !== 1 || !dtypesExports[0].startsWith('export const DATA_TYPES ')) {
    throw new Error('js/dtypes.js must have no imports and exactly one export, `export const DATA_TYPES`');
  }
  const dtypesImport = "import { DATA_TYPES } from './dtypes.js';\n";
  const adapter = readFileSync(path.join(ROOT, 'js', 'zarrita.js'), 'utf8');
  if (adapter.split(dtypesImport).length !== 2) throw new Error(`js/zarrita.js must contain the line ${dtypesImport.trim()} once`);
  writeFileSync(
    path.join(DIST, 'zarrita.js'),
    adapter.replace(dtypesImport, `// ---- js/dtypes.js ----\n${dtypesSource.replace(/^export const DATA_TYPES /m, 'const DATA_TYPES ')}// ---- end of js/dtypes.js ----\n`),
  );

  // 3d. minify the JavaScript (rolldown's Oxc minifier; exports keep their names). The readable
  // sources are js/*.js and the wasm-bindgen output in pkg/; --no-minify keeps dist/ readable.
  if (!args.has('--no-minify')) {
    for (const f of ['index.js', 'zarrita.js', 'cf.js', `${NAME}.js`, `${NAME}_wasm.js`]) {
      const p = path.join(DIST, f);
      const src = readFileSync(p, 'utf8');
      const r = minifySync(f, src, { compress: true, mangle: true, module: true });
      if (r.errors?.length) throw new Error(`minify ${f}: ${r.errors.map((e) => e.message).join('; ')}`);
      const banner = `// zarr-scale-offset ${pkgVersion} (${f}; minified by scripts/build.mjs from ${f.startsWith(NAME) ? 'wasm-bindgen output' : `js/${f}`})\n`;
      writeFileSync(p, banner + r.code);
    }
  }

  // The module as the package unpacks it: the generated file (minified, decoder inlined) must give
  // back the module byte for byte.
  const shipped = await import(pathToFileURL(path.join(DIST, `${NAME}_wasm.js`)).href);
  if (shipped.WASM_SIZE !== wasmBytes.length || Buffer.compare(await shipped.wasmBytes(), wasmBytes) !== 0) {
    throw new Error(`dist/${NAME}_wasm.js does not unpack to the module`);
  }

  // The optimised .wasm is not part of the package (it is inlined); keep it out of dist/.
  const optCopy = path.join(ROOT, 'pkg', `${NAME}_bg.opt.wasm`);
  copyFileSync(optPath, optCopy);
  rmSync(optPath);

  // 4. sizes
  console.log('\nsizes:');
  const raw = sizes(`pkg/${NAME}_bg.wasm (before wasm-opt)`, readFileSync(rawWasmPath));
  const opt = sizes(`pkg/${NAME}_bg.opt.wasm (wasm-opt -Oz)`, wasmBytes);
  const inl = sizes(`dist/${NAME}_wasm.js (inlined LZMA+base64)`, readFileSync(path.join(DIST, `${NAME}_wasm.js`)));
  const gl = sizes(`dist/${NAME}.js (glue)`, readFileSync(path.join(DIST, `${NAME}.js`)));
  const idx = sizes('dist/index.js', readFileSync(path.join(DIST, 'index.js')));
  const minDecoder = minifySync('lzma.js', decoderSource, { compress: true, mangle: true, module: true }).code;
  sizes('js/lzma.js (decoder, minified; inlined above)', Buffer.from(minDecoder));
  const total = inl.raw + gl.raw + idx.raw;
  console.log(`  ${'dist/*.js total'.padEnd(52)} ${String(total).padStart(9)} B`);
  writeFileSync(
    path.join(ROOT, 'pkg', 'sizes.json'),
    JSON.stringify({ wasmRaw: raw, wasmOpt: opt, inlinedModule: inl, glue: gl, index: idx }, null, 2) + '\n',
  );
  console.log(`\nbuild done in ${((Date.now() - t0) / 1000).toFixed(1)} s: dist/ ready (${statSync(DIST).isDirectory() ? 'ok' : '?'})`);
}

main().catch((e) => {
  console.error(`\nbuild failed: ${e.message}`);
  process.exit(1);
});
