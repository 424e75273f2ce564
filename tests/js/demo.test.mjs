// Playwright smoke test of the demo page (www/) in Debian's Chromium: the built package loads in
// a plain <script type="module"> page (no bundler), fetches and decodes chunk c/0/0 of
// topobathy.zarr, and shows the values zarr-python wrote (expected.bin). Saves a screenshot to
// artifacts/demo.png. Uses playwright-core only (it never downloads a browser).

import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { mkdirSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { chromium } from 'playwright-core';

import { serve } from '../../scripts/serve.mjs';
import { ROOT, FIXTURES } from './helpers.mjs';

const CHROMIUM = process.env.CHROMIUM_PATH ?? '/usr/bin/chromium';
const ARGS = [
  '--no-sandbox',
  '--disable-gpu',
  '--disable-quic',
  '--no-first-run',
  '--disable-background-networking',
  '--disable-component-update',
  '--disable-sync',
];

let server;
let ctx;
let profile;
let base;

before(async () => {
  server = await serve(ROOT, 0);
  base = `http://127.0.0.1:${server.address().port}`;
  profile = mkdtempSync(path.join(os.tmpdir(), 'zso-pw-profile-'));
  ctx = await chromium.launchPersistentContext(profile, { executablePath: CHROMIUM, headless: true, args: ARGS });
});

after(async () => {
  await ctx?.close();
  await new Promise((r) => (server ? server.close(r) : r()));
  if (profile) rmSync(profile, { recursive: true, force: true });
});

// The top-left 32x32 block (chunk c/0/0) of expected.bin (float32 LE, C order).
function expectedChunk00() {
  const dir = path.join(FIXTURES, 'stores', 'topobathy.zarr');
  const { shape } = JSON.parse(readFileSync(path.join(dir, 'expected.json'), 'utf8'));
  const buf = readFileSync(path.join(dir, 'expected.bin'));
  const all = new Float32Array(buf.buffer.slice(buf.byteOffset, buf.byteOffset + buf.byteLength));
  assert.equal(all.length, shape[0] * shape[1]);
  const out = [];
  for (let r = 0; r < 32; r++) for (let c = 0; c < 32; c++) out.push(all[r * shape[1] + c]);
  return out;
}

test('demo page decodes topobathy.zarr chunk c/0/0 like zarr-python', async () => {
  const page = await ctx.newPage();
  const errors = [];
  page.on('pageerror', (e) => errors.push(`pageerror: ${e.message}`));
  page.on('console', (m) => {
    if (m.type() === 'error') errors.push(`console: ${m.text()}`);
  });
  await page.goto(`${base}/www/`);
  await page.waitForFunction(() => window.__result !== undefined, null, { timeout: 30000 });
  const r = await page.evaluate(() => window.__result);
  mkdirSync(path.join(ROOT, 'artifacts'), { recursive: true });
  await page.screenshot({ path: path.join(ROOT, 'artifacts', 'demo.png'), fullPage: true });

  assert.equal(r.ok, true, `the page shows an error: ${r.error} [code: ${r.code}]\n${errors.join('\n')}`);
  assert.equal(r.key, 'c/0/0');
  assert.equal(r.n, 32 * 32);
  assert.equal(r.kind, 'Float32Array');
  const expected = expectedChunk00();
  const first = expected.slice(0, r.first.length).map((v) => (Number.isNaN(v) ? null : v));
  assert.deepEqual(r.first, first, 'first values differ from expected.bin');
  const finite = expected.filter((v) => !Number.isNaN(v));
  assert.equal(r.min, Math.min(...finite));
  assert.equal(r.max, Math.max(...finite));
  assert.equal(typeof r.ms, 'number');
  assert.ok(r.msWarm >= 0 && r.msWarm <= r.ms + 50, `warm decode time ${r.msWarm} ms`);
  // The page shows them in words too.
  const status = await page.textContent('#status');
  assert.match(status, /decoded c\/0\/0: 1024 values in [\d.]+ ms/);
  const firstCell = await page.textContent('#table tbody tr td');
  assert.equal(firstCell, Number.isNaN(expected[0]) ? 'NaN' : expected[0].toFixed(1));
  assert.deepEqual(errors, []);
  await page.close();
});

test('demo page shows an error in words (message + code)', async () => {
  const page = await ctx.newPage();
  // Chunk c/1/2 was deleted from the store: the fetch fails with 404.
  await page.goto(`${base}/www/?chunk=c/1/2`);
  await page.waitForFunction(() => window.__result !== undefined, null, { timeout: 30000 });
  const r = await page.evaluate(() => window.__result);
  assert.equal(r.ok, false);
  assert.equal(r.code, 'not_found');
  const status = await page.textContent('#status');
  assert.match(status, /Error decoding c\/1\/2: .*404.*\[code: not_found\]/);
  await page.close();
});

test('the package works in a module Web Worker (no bundler, no configuration)', async () => {
  const page = await ctx.newPage();
  await page.goto(`${base}/www/`);
  const r = await page.evaluate(async () => {
    const src = `import { ready, version, typedArrayKind, encode } from '${location.origin}/dist/index.js';
      await ready();
      const out = { version: version(), kind: typedArrayKind('float16') };
      try { out.encoded = Array.from(encode({ name: 'scale_offset', configuration: { scale: 4 } }, 'float32', new Float32Array([0.5, -1]))); }
      catch (e) { out.error = e.code + ': ' + e.message; }
      postMessage(out);`;
    const url = URL.createObjectURL(new Blob([src], { type: 'text/javascript' }));
    const worker = new Worker(url, { type: 'module' });
    return await new Promise((resolve) => {
      worker.onmessage = (e) => resolve(e.data);
      worker.onerror = (e) => resolve({ workerError: e.message ?? String(e) });
    });
  });
  assert.equal(r.workerError, undefined, r.workerError);
  assert.match(r.version, /^\d+\.\d+\.\d+/);
  // Chromium 156 has Float16Array.
  assert.equal(r.kind, 'Float16Array');
  assert.equal(r.error, undefined, r.error);
  assert.deepEqual(r.encoded, [2, -4]);
  await page.close();
});
