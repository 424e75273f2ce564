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
//                                      as base64 together with its loader js/unpack.js and the
//                                      LZMA decoder crates/unpack (cargo build --target
//                                      wasm32-unknown-unknown, wasm-opt -O3; ~3 KB, zlib DEFLATE)
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
import { deflateSync, gzipSync } from 'node:zlib';
import { minifySync, parseSync } from 'rolldown/utils';

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

// wasm-opt passes for the module (docs/SIZE.md has the measurements). --low-memory-unused: the
// module never uses addresses below 1024 (LLVM's wasm32 data starts at 1 MiB + stack, and Rust never
// dereferences null), so loads and stores may fold larger offsets. --zero-filled-memory: the
// memory of a fresh instance is zero (the wasm spec; the module is only ever instantiated fresh, by
// wasm-bindgen's initSync), so zero bytes need no data segment.
// --one-caller-inline-max-function-size=1000: by default binaryen inlines every function that has
// one caller, however large, so the run dispatchers (ArrayChain::run, CastValue::run,
// ScaleOffset::run) held every type pair's kernel (25, 21 and 10 KB of body) and V8 compiled all
// of it on the first decode. With the limit a first decode compiles 11 KB instead of 30 KB
// (first decode call 1.55 -> 0.85 ms, Node, medians of 11 processes) and the download is 544 B
// smaller (docs/SIZE.md, docs/PERFORMANCE.md). (--flatten --rereloop was dropped: it made
// Chromium's f64<-u8 NaN-map decodeInto 1.16x slower.)
const WASM_OPT_FLAGS = ['-Oz', '--converge', '--low-memory-unused', '--zero-filled-memory', '--one-caller-inline-max-function-size=1000'];

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
  'lc=3,lp=0,pb=0,mode=normal,nice=152,mf=bt2,depth=0',
  'lc=4,lp=0,pb=0,mode=normal,nice=273,mf=bt4,depth=512',
  'lc=3,lp=0,pb=2,mode=normal,nice=273,mf=bt4,depth=512',
];

// Raw LZMA1 (no header: the properties and the size are constants in the generated module).
// xz 5.4 always ends a raw LZMA1 stream with an end marker; crates/unpack accepts it.
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

// The LZMA decoder module (crates/unpack): built for wasm32 on its own (no wasm-bindgen), then
// wasm-opt -O3 (it runs once per start-up on ~250 KB: speed). Returns its bytes.
function buildDecoder(wasmOpt) {
  const crate = 'zarr-scale-offset-unpack';
  run('cargo', ['build', '--release', '--target', 'wasm32-unknown-unknown', '-p', crate]);
  const meta = spawnSync('cargo', ['metadata', '--format-version', '1', '--no-deps'], { cwd: ROOT, encoding: 'utf8', maxBuffer: 64 << 20 });
  if (meta.status !== 0) throw new Error(`cargo metadata exited with status ${meta.status}`);
  const built = path.join(JSON.parse(meta.stdout).target_directory, 'wasm32-unknown-unknown', 'release', `${crate.replaceAll('-', '_')}.wasm`);
  const out = path.join(PKG, `${NAME}_unpack.wasm`);
  if (wasmOpt) run(wasmOpt, [built, '-O3', '--strip-debug', '--strip-producers', '--strip-target-features', '-o', out]);
  else copyFileSync(built, out);
  const bytes = readFileSync(out);
  new WebAssembly.Module(bytes); // throws on a broken module
  return bytes;
}

// The longest line Node may print above an uncaught error's message (see breakErrorLines).
export const MAX_ERROR_LINE = 400;

// The statements a line break may go before and after without changing the program.
const BREAKABLE = new Set(['ExpressionStatement', 'ReturnStatement', 'ThrowStatement', 'VariableDeclaration']);

/**
 * `code` (minified) with a line break before and after each statement that creates or throws an
 * error: a `throw`, a `new <Name>Error(...)` (or `<Name>Error(...)`), a `super(...)` call (an
 * Error subclass). Node prints
 * the source line where an uncaught error was created (or, for a thrown non-Error, thrown) above
 * its message; on the single minified line that was ~10 KB of code before the message. A line
 * break before a statement and after a complete one never changes the program: the statement
 * list's statements are separated by `;` or `}` already, so no automatic semicolon insertion is
 * involved (a break *inside* `return new Error(...)` would be one). Throws when such a statement
 * is longer than MAX_ERROR_LINE characters, or is not inside one of the BREAKABLE statements.
 */
export function breakErrorLines(file, code) {
  const parsed = parseSync(file, code, { sourceType: 'module' });
  if (parsed.errors?.length) throw new Error(`parse ${file}: ${parsed.errors.map((e) => e.message).join('; ')}`);
  const at = new Set();
  const stack = [];
  const mark = (node) => {
    const st = stack.findLast((n) => BREAKABLE.has(n.type));
    if (!st) throw new Error(`${file}: an error created outside a statement (${code.slice(node.start, node.start + 80)}…): scripts/build.mjs cannot give it its own line`);
    if (st.end - st.start > MAX_ERROR_LINE) {
      throw new Error(`${file}: the statement that creates or throws an error is ${st.end - st.start} characters long (more than ${MAX_ERROR_LINE}): ${code.slice(st.start, st.start + 120)}…`);
    }
    at.add(st.start);
    at.add(st.end);
  };
  const walk = (node) => {
    if (Array.isArray(node)) return node.forEach(walk);
    if (node === null || typeof node !== 'object') return;
    stack.push(node);
    if (node.type === 'ThrowStatement') mark(node);
    // `new Error(m)`, or `Error(m)` as the minifier writes it
    else if ((node.type === 'NewExpression' || node.type === 'CallExpression') && node.callee?.type === 'Identifier' && /Error$/.test(node.callee.name)) mark(node);
    else if (node.type === 'CallExpression' && node.callee?.type === 'Super') mark(node);
    for (const k in node) if (k !== 'start' && k !== 'end' && k !== 'type') walk(node[k]);
    stack.pop();
  };
  walk(parsed.program);
  let out = '';
  let last = 0;
  for (const i of [...at].sort((x, y) => x - y)) {
    out += code.slice(last, i);
    if (i > 0 && code[i - 1] !== '\n' && i < code.length && code[i] !== '\n') out += '\n';
    last = i;
  }
  return out + code.slice(last);
}

async function main() {
  const t0 = Date.now();
  run(process.execPath, [path.join('scripts', 'gen-dtypes.mjs')]);
  const home = process.env.HOME ?? '';
  const toolRoot = process.env.CARGO_INSTALL_ROOT ?? process.env.CARGO_HOME ?? path.join(home, '.cargo');
  process.env.PATH = [path.join(toolRoot, 'bin'), path.join(home, '.cargo', 'bin'), process.env.PATH].join(path.delimiter);
  if (!args.has('--skip-wasm-pack')) {
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
    run(wasmOpt, [rawWasmPath, ...WASM_OPT_FLAGS, '--strip-producers', '--strip-target-features', '-o', optPath]);
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
  // The glue's async default export (`__wbg_init`: fetch, Response, instantiateStreaming) is never
  // used: js/index.js compiles the inlined module and calls `initSync`. Without the export the
  // minifier drops that code (~2.7 KB raw, ~0.4 KB gzip of the download). `initSync()` called again
  // returns the instance's exports (the tests read `memory` that way).
  const defaultExport = 'export { initSync, __wbg_init as default };';
  if (glue.split(defaultExport).length !== 2) {
    throw new Error(`expected \`${defaultExport}\` once in ${path.relative(ROOT, gluePath)}: the wasm-bindgen glue changed; update scripts/build.mjs`);
  }
  glue = glue.replace(defaultExport, 'export { initSync };');
  writeFileSync(
    path.join(DIST, `${NAME}.js`),
    `// Generated by scripts/build.mjs from wasm-bindgen output (${path.relative(ROOT, gluePath)}). Do not edit.\n${glue}`,
  );

  // 3b. inlined wasm: LZMA-compressed, then base64. The npm tarball is gzip, which cannot compress
  // base64 of the raw module well (6-bit symbols misalign its matches) but stores base64 of
  // compressed data at about its binary size; LZMA makes that ~19 % smaller than raw DEFLATE did.
  // The decoder (crates/unpack, a ~3 KB module, stored zlib DEFLATE for the runtime's
  // DecompressionStream: 0.7 KB gzip smaller than raw) and its loader (js/unpack.js) are inlined
  // next to the data, so there is no file to resolve.
  const decoderWasm = buildDecoder(args.has('--no-opt') ? null : findWasmOpt());
  const dict = Math.max(4096, wasmBytes.length);
  let best = null;
  for (const options of LZMA_OPTIONS) {
    const data = xzLzma1(wasmBytes, `dict=${dict},${options}`);
    console.log(`  xz --lzma1=${options}: ${data.length} B`);
    if (best === null || data.length < best.data.length) best = { options, data };
  }
  const props = Object.fromEntries(best.options.split(',').map((kv) => kv.split('=')));
  const [lc, lp, pb] = [Number(props.lc), Number(props.lp), Number(props.pb)];
  console.log(`  smallest: ${best.options} (${best.data.length} B)`);

  // js/unpack.js is pasted in whole after the constants it uses; check that it is still the
  // self-contained file this expects (LZMA has no checksum: the shipped file is decoded and
  // compared byte for byte with the module below).
  const loaderSource = readFileSync(path.join(ROOT, 'js', 'unpack.js'), 'utf8');
  const loaderExports = (loaderSource.match(/^export\b.*$/gm) ?? []).map((l) => /^export (?:async function|const) (\w+)/.exec(l)?.[1]);
  if (/^import\b/m.test(loaderSource) || loaderExports.join() !== 'WASM_SIZE,wasmBytes,lzmaDecoder') {
    throw new Error('js/unpack.js must have no imports and export exactly WASM_SIZE, wasmBytes and lzmaDecoder');
  }
  const inline = `// Generated by scripts/build.mjs: the optimised zarr-scale-offset WebAssembly module
// (${wasmBytes.length} bytes; ${best.data.length} bytes raw LZMA1, xz --lzma1=${best.options}) as base64,
// the LZMA decoder crates/unpack (${decoderWasm.length} bytes of WebAssembly, zlib DEFLATE) as base64, and their
// loader js/unpack.js, so that the package loads with no fetch, no file access and no bundler
// configuration, in Node, browsers, Vite and Web Workers alike.
// Do not edit.
const DATA = '${best.data.toString('base64')}';
const DECODER = '${deflateSync(decoderWasm, { level: 9 }).toString('base64')}';
const SIZE = ${wasmBytes.length};
const LC = ${lc};
const LP = ${lp};
const PB = ${pb};

// ---- js/unpack.js ----
${loaderSource}// ---- end of js/unpack.js ----
`;
  writeFileSync(path.join(DIST, `${NAME}_wasm.js`), inline);

  // 3c. entry and types
  for (const f of ['core.js', 'index.js', 'numbers.js', 'index.d.ts', 'zarrita.d.ts', 'cf.js']) {
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
  // Every statement that creates or throws an error then gets a line of its own (breakErrorLines),
  // because Node prints the source line where an uncaught error was created above its message:
  // on one minified line that was ~10 KB of code before the message.
  if (!args.has('--no-minify')) {
    for (const f of ['core.js', 'index.js', 'numbers.js', 'zarrita.js', 'cf.js', `${NAME}.js`, `${NAME}_wasm.js`]) {
      const p = path.join(DIST, f);
      const src = readFileSync(p, 'utf8');
      const r = minifySync(f, src, { compress: true, mangle: true, module: true });
      if (r.errors?.length) throw new Error(`minify ${f}: ${r.errors.map((e) => e.message).join('; ')}`);
      const banner = `// zarr-scale-offset ${pkgVersion} (${f}; minified by scripts/build.mjs from ${f.startsWith(NAME) ? 'wasm-bindgen output' : `js/${f}`})\n`;
      writeFileSync(p, banner + breakErrorLines(f, r.code));
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
  const minLoader = minifySync('unpack.js', loaderSource, { compress: true, mangle: true, module: true }).code;
  sizes('js/unpack.js (loader, minified; inlined above)', Buffer.from(minLoader));
  sizes(`pkg/${NAME}_unpack.wasm (LZMA decoder; inlined above)`, decoderWasm);
  const total = inl.raw + gl.raw + idx.raw;
  console.log(`  ${'dist/*.js total'.padEnd(52)} ${String(total).padStart(9)} B`);
  writeFileSync(
    path.join(ROOT, 'pkg', 'sizes.json'),
    JSON.stringify({ wasmRaw: raw, wasmOpt: opt, inlinedModule: inl, glue: gl, index: idx }, null, 2) + '\n',
  );
  console.log(`\nbuild done in ${((Date.now() - t0) / 1000).toFixed(1)} s: dist/ ready (${statSync(DIST).isDirectory() ? 'ok' : '?'})`);
}

if (process.argv[1] && path.resolve(process.argv[1]) === path.resolve(import.meta.filename)) {
  main().catch((e) => {
    console.error(`\nbuild failed: ${e.message}`);
    process.exit(1);
  });
}
