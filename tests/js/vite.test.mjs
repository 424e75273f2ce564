// The packed package in a Vite production build, as a user gets it: `npm pack` -> installed into
// tests/vite-app/node_modules (zarrita resolves from the repository's node_modules) -> `vite
// build` with no plugin and no configuration file -> served on 127.0.0.1 -> opened in Chromium.
// The app (tests/vite-app/main.js) registers our codecs with zarrita, reads the v3
// numcodecs.fixedscaleoffset store in the page and topobathy.zarr in a module Web Worker that
// Vite bundles; both must equal expected.bin. Prints the sizes of the built assets.

import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import { mkdirSync, mkdtempSync, readdirSync, readFileSync, renameSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { gzipSync } from 'node:zlib';

import { build } from 'vite';

import { startBrowser, watchErrors, artifact } from './browser.mjs';
import { ROOT } from './helpers.mjs';
import { expectedOf, compareArrays } from './zarrita-helpers.mjs';

const APP = path.join(ROOT, 'tests', 'vite-app');
const OUT = path.join(APP, 'dist');
let b;
let assets = [];

before(async () => {
  // npm pack -> node_modules/zarr-scale-offset of the app
  const tmp = mkdtempSync(path.join(os.tmpdir(), 'zso-vite-'));
  try {
    const [info] = JSON.parse(execFileSync('npm', ['pack', '--json', '--pack-destination', tmp], { cwd: ROOT, encoding: 'utf8', stdio: ['ignore', 'pipe', 'pipe'] }));
    execFileSync('tar', ['-xzf', path.join(tmp, info.filename), '-C', tmp]);
    const dest = path.join(APP, 'node_modules', 'zarr-scale-offset');
    rmSync(dest, { recursive: true, force: true });
    mkdirSync(path.dirname(dest), { recursive: true });
    renameSync(path.join(tmp, 'package'), dest);
  } finally {
    rmSync(tmp, { recursive: true, force: true });
  }
  await build({
    root: APP,
    configFile: false,
    base: './',
    logLevel: 'warn',
    build: { outDir: OUT, emptyOutDir: true, chunkSizeWarningLimit: 4096 },
  });
  assets = readdirSync(path.join(OUT, 'assets')).map((f) => {
    const bytes = readFileSync(path.join(OUT, 'assets', f));
    return { file: f, raw: bytes.length, gzip: gzipSync(bytes, { level: 9 }).length };
  });
  b = await startBrowser();
});

after(async () => {
  await b?.close();
});

test('vite build: no .wasm file to copy, no plugin; the asset sizes', (t) => {
  assert.ok(assets.length > 0);
  assert.deepEqual(assets.filter((a) => a.file.endsWith('.wasm')), [], 'the wasm is inlined in our JS');
  for (const a of assets.sort((x, y) => y.raw - x.raw)) t.diagnostic(`${a.file.padEnd(40)} ${String(a.raw).padStart(9)} B  gzip -9 ${String(a.gzip).padStart(8)} B`);
  const entry = assets.find((a) => /^index-.*\.js$/.test(a.file));
  assert.ok(entry, 'the entry chunk');
  const text = readFileSync(path.join(OUT, 'assets', entry.file), 'utf8');
  assert.match(text, /zarr-scale-offset/, 'our package is in the entry chunk');
});

test('vite build in Chromium: zarrita + register read the v3 fixedscaleoffset store in the page and topobathy in a module worker', async () => {
  const page = await b.ctx.newPage();
  const errors = watchErrors(page);
  await page.goto(`${b.base}/tests/vite-app/dist/index.html`);
  await page.waitForFunction(() => window.__vite !== undefined, null, { timeout: 60_000 });
  const r = await page.evaluate(() => window.__vite);
  await page.screenshot({ path: artifact('vite-app.png') });
  assert.equal(r.error, undefined, r.error);
  assert.deepEqual(r.registered, ['scale_offset', 'cast_value', 'cf.scale_offset', 'numcodecs.fixedscaleoffset', 'numcodecs.fixedscaleoffset.v2']);
  for (const [where, name, got] of [
    ['page', 'topobathy_v3_numcodecs_fixedscaleoffset.zarr', r.page],
    ['worker', 'topobathy.zarr', r.worker],
  ]) {
    assert.equal(got.error, undefined, `${where}: ${got.error}`);
    const exp = expectedOf(name);
    assert.deepEqual(got.shape, exp.shape);
    assert.equal(got.dtype, exp.dtype);
    const c = compareArrays(new Uint8Array(Buffer.from(got.b64, 'base64')), exp.bytes, exp.dtype);
    assert.ok(c.equal, `${where} ${name}: ${c.differ} differ, e.g. ${JSON.stringify(c.first)}`);
  }
  assert.deepEqual(errors, []);
  await page.close();
});
