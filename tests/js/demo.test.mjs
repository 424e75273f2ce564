// Playwright tests of the demo (www/, `npm start`) in Debian's headless Chromium, over a local
// static server on 127.0.0.1:
//
//   - the four real stores of tests/fixtures/stores read by zarrita + register, and two CF-packed
//     stores of tests/fixtures/cf_stores read through openCF, over HTTP equal their expected.bin
//     bit for bit (any NaN equals any NaN), are drawn (pixels, legend in the array's units: kelvin
//     for the CF temperature), show the value under the cursor and the decode time of every chunk;
//   - errors (unknown codec, HTTP 404, invalid metadata) appear on the page in words;
//   - a URL pasted into the form opens;
//   - with zarrita's built-in codecs only, the v3 numcodecs.fixedscaleoffset store fails visibly;
//   - zarr-scale-offset/zarrita works in a module Web Worker (no bundler, no import map), and so
//     does the core package.
// Screenshots go to artifacts/ (a CI artifact).

import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { copyFileSync, existsSync, mkdirSync, readFileSync } from 'node:fs';
import path from 'node:path';

import { startBrowser, watchErrors, artifact } from './browser.mjs';
import { ROOT } from './helpers.mjs';
import { STORE_NAMES, expectedOf, compareArrays } from './zarrita-helpers.mjs';

let b;

before(async () => {
  b = await startBrowser();
});

after(async () => {
  await b?.close();
});

const fromBase64 = (s) => new Uint8Array(Buffer.from(s, 'base64'));

// The shortest decimal that reads back as the same float32 (what the page prints).
function shortest32(v) {
  if (Number.isNaN(v)) return 'NaN';
  for (let p = 1; p <= 9; p++) {
    const s = Number(v.toPrecision(p));
    if (Math.fround(s) === v) return String(s);
  }
  return String(v);
}

function expectedValues(name) {
  const e = expectedOf(name);
  const Ctor = e.dtype === 'float64' ? Float64Array : Float32Array;
  return { ...e, values: new Ctor(e.bytes.slice().buffer) };
}

// The CF-packed stores the demo reads through openCF (tests/fixtures/cf_stores, written by
// xarray 2026.9.0; expected.bin = xarray.open_zarr's values).
const CF_DEMO = ['cf_t2m_i16_v2.zarr', 'cf_reflectance_u16_v3.zarr'];
const DEMO_NAMES = [...STORE_NAMES, ...CF_DEMO];

function expectedAny(name) {
  if (!CF_DEMO.includes(name)) return expectedValues(name);
  const dir = path.join(ROOT, 'tests', 'fixtures', 'cf_stores', name);
  const meta = JSON.parse(readFileSync(path.join(dir, 'expected.json'), 'utf8'));
  const bytes = new Uint8Array(readFileSync(path.join(dir, 'expected.bin')));
  const Ctor = meta.data_type === 'float64' ? Float64Array : Float32Array;
  return { meta, bytes, dtype: meta.data_type, shape: meta.shape, values: new Ctor(bytes.slice().buffer) };
}

// A duration as the page prints it (to the timer's precision; "<0.1" below it).
const MS = '(?:<?[\\d.]+)';

const CHUNKS = {
  'cf_t2m_i16_v2.zarr': { chunks: 4, missing: 0 },
  'cf_reflectance_u16_v3.zarr': { chunks: 4, missing: 0 },
  'topobathy.zarr': { chunks: 12, missing: 1 },
  'jacksboro_dem.zarr': { chunks: 143, missing: 1 },
  'mri_v2_fixedscaleoffset.zarr': { chunks: 16, missing: 1 },
  'topobathy_v3_numcodecs_fixedscaleoffset.zarr': { chunks: 4, missing: 0 },
};

test('demo: the four real stores read by zarrita + register, and two CF-packed stores through openCF, over HTTP equal expected.bin, drawn with legend, cursor value and per-chunk times', async () => {
  const page = await b.ctx.newPage();
  const errors = watchErrors(page);
  await page.goto(`${b.base}/www/`);
  await page.waitForSelector('body[data-state="done"]', { timeout: 90_000 });
  const summary = await page.evaluate(() => window.__demo.summary());
  const timer = await page.evaluate(() => window.__demo.timerResolution);
  const timerDecimals = Math.min(3, Math.max(0, Math.ceil(-Math.log10(timer) - 0.01)));
  if (timer > 0.09 && timer < 0.11) assert.equal(timerDecimals, 1); // Chromium's 0.1 ms
  assert.ok(timer > 0 && timer <= 1, `performance.now() resolution ${timer} ms`);
  assert.deepEqual(Object.keys(summary), DEMO_NAMES);
  for (const name of DEMO_NAMES) {
    const s = summary[name];
    assert.equal(s.ok, true, `${name}: the page shows an error: ${s.error}`);
    const exp = expectedAny(name);
    assert.deepEqual(s.shape, exp.shape, name);
    assert.equal(s.dataType, exp.dtype, name);
    // every decoded value, bit for bit
    const got = fromBase64(await page.evaluate((id) => window.__demo.base64(id), name));
    const c = compareArrays(got, exp.bytes, exp.dtype);
    assert.ok(c.equal, `${name}: ${c.differ} values differ from expected.bin, e.g. ${JSON.stringify(c.first)}`);
    // pixels: one per element, NaN transparent, the rest colour-mapped
    const px = await page.evaluate((id) => window.__demo.pixels(id), name);
    const nan = exp.values.reduce((n, v) => n + (Number.isNaN(v) ? 1 : 0), 0);
    assert.equal(px.width * px.height, exp.values.length, name);
    assert.equal(px.transparent, nan, `${name}: transparent pixels = NaN values`);
    assert.ok(px.opaque > 0 && px.colours >= 50, `${name}: ${px.colours} distinct colours drawn`);
    // chunks and their decode times
    assert.equal(s.chunks, CHUNKS[name].chunks, `${name}: chunks`);
    assert.equal(s.missing, CHUNKS[name].missing, `${name}: missing chunks`);
    for (const ch of s.perChunk) assert.ok(Number.isFinite(ch.decodeMs) && ch.decodeMs >= 0, `${name} ${ch.key}`);
    const panel = page.locator(`section.view[data-id="${name}"]`);
    assert.equal(await panel.locator('details.per-chunk td').count(), CHUNKS[name].chunks);
    const timing = await panel.locator('.timing').innerText();
    assert.match(timing, new RegExp(`^${CHUNKS[name].chunks} chunks \\(${CHUNKS[name].missing} missing → fill value\\): decode ${MS} ms in all, median ${MS} ms per chunk; fetch ${MS} ms; loading the codecs ${MS} ms \\(first chunk, not in the decode times\\)\\.`));
    // timings to the timer's precision: no more decimals than the resolution of performance.now()
    for (const t of timing.match(/[\d.]+(?= ms)/g)) assert.ok((t.split('.')[1] ?? '').length <= timerDecimals, `${name}: ${t} ms with a ${timer} ms timer`);
    assert.ok(Number.isFinite(s.loadMs) && s.loadMs >= 0, `${name}: codec loading measured apart`);
    // legend in physical units
    assert.equal(await panel.locator('.legend .ticks span').count(), 5);
    const units = await panel.locator('.legend .units').innerText();
    if (name.startsWith('topobathy.') || name.startsWith('jacksboro')) assert.match(units, /values in m$/);
    else if (name === 'cf_t2m_i16_v2.zarr') assert.equal(units, 'float64 values (unpacked from int16 by openCF) in K'); // physical units, via openCF
    else assert.match(units, /no units/);
    if (CF_DEMO.includes(name)) {
      assert.match(await panel.locator('.meta').innerText(), /CF attributes \(.*scale_factor.*\) → openCF: (int16|uint16) → cf\.scale_offset → cast_value\((int16|uint16)\)/);
    }
  }

  // the value under the cursor: topobathy row 10, column 20 (the canvas is 120 x 91 pixels)
  const exp = expectedValues('topobathy.zarr');
  const canvas = page.locator('section.view[data-id="topobathy.zarr"] canvas.map');
  const box = await canvas.boundingBox();
  await page.mouse.move(box.x + ((20 + 0.5) / 120) * box.width, box.y + ((10 + 0.5) / 91) * box.height);
  const readout = await page.locator('section.view[data-id="topobathy.zarr"] .readout').innerText();
  // float32 values of scale 10 (zarr.json) into uint16: shown to 0.1, the exact float32 on hover
  const v1020 = exp.values[10 * 120 + 20];
  const shown = String(Number(v1020.toFixed(1)));
  assert.equal(readout.split(' · ')[0], `latitude 10, longitude 20: ${shown} m${shown === shortest32(v1020) ? '' : ` (exactly ${shortest32(v1020)})`}`);
  assert.equal(await page.locator('section.view[data-id="topobathy.zarr"] .readout .value').getAttribute('title'), `exact float32 value: ${shortest32(v1020)}`);
  assert.match(readout, /chunk 0\.0 decoded in [\d.]+ ms/);
  // inside the deleted chunk c/1/2
  await page.mouse.move(box.x + ((70 + 0.5) / 120) * box.width, box.y + ((40 + 0.5) / 91) * box.height);
  assert.match(await page.locator('section.view[data-id="topobathy.zarr"] .readout').innerText(), /latitude 40, longitude 70: NaN m · chunk 1\.2 \(missing: fill value\)/);

  // the cursor on a land pixel, for the screenshots
  await page.mouse.move(box.x + ((95 + 0.5) / 120) * box.width, box.y + ((80 + 0.5) / 91) * box.height);
  await page.screenshot({ path: artifact('demo.png'), fullPage: true });
  // UPDATE_SCREENSHOT=1 refreshes the README's screenshot (docs/demo.png) from this run.
  if (process.env.UPDATE_SCREENSHOT === '1') {
    mkdirSync(path.join(ROOT, 'docs'), { recursive: true });
    await page.screenshot({ path: path.join(ROOT, 'docs', 'demo.png'), fullPage: true, clip: { x: 0, y: 0, width: 1280, height: 1010 } });
  }
  assert.deepEqual(errors, []);
  await page.close();
});

test('demo: errors appear on the page in words (unknown codec, HTTP 404, invalid metadata)', async () => {
  const cases = [
    ['/www/examples/unknown_codec.zarr', 'unknown codec', /^Unknown codec "zfp": neither zarrita nor zarr-scale-offset implements it/],
    ['/www/examples/does_not_exist.zarr', 'HTTP 404', /^No Zarr array at http:\/\/127\.0\.0\.1:\d+\/www\/examples\/does_not_exist\.zarr: HTTP 404 Not Found for zarr\.json, HTTP 404 Not Found for \.zarray\.$/],
    ['/www/examples/invalid_scale.zarr', 'invalid_metadata', /^Invalid metadata \[invalid_metadata\]: zarr-scale-offset scale_offset \(codec 0 of the chunk's codecs\): \/configuration\/scale: scale must be non-zero$/],
  ];
  for (const [url, kind, text] of cases) {
    const page = await b.ctx.newPage();
    await page.goto(`${b.base}/www/?fixtures=0&url=${encodeURIComponent(url)}`);
    await page.waitForSelector('body[data-state="done"]');
    const s = (await page.evaluate(() => window.__demo.summary())).url;
    assert.equal(s.ok, false, url);
    assert.equal(s.kind, kind, url);
    const shown = await page.locator('#pasted .status.error').innerText();
    assert.match(shown, text);
    assert.ok(await page.locator('#pasted .status.error').isVisible());
    if (kind === 'HTTP 404') await page.screenshot({ path: artifact('demo-error-404.png') });
    await page.close();
  }
});

test('demo: a URL pasted into the form opens (sharded jacksboro_dem.zarr over Range requests)', async () => {
  const page = await b.ctx.newPage();
  const errors = watchErrors(page);
  await page.goto(`${b.base}/www/?fixtures=0`);
  await page.waitForSelector('body[data-state="done"]');
  await page.fill('#url', '/tests/fixtures/stores/jacksboro_dem.zarr');
  await page.click('#open-form button');
  await page.waitForSelector('#pasted .status.ok', { timeout: 60_000 });
  const got = fromBase64(await page.evaluate(() => window.__demo.base64('url')));
  const c = compareArrays(got, expectedOf('jacksboro_dem.zarr').bytes, 'float32');
  assert.ok(c.equal, `${c.differ} differ`);
  assert.match(page.url(), /\?url=%2Ftests%2Ffixtures%2Fstores%2Fjacksboro_dem\.zarr$/);
  assert.deepEqual(errors, []);
  await page.close();
});

test("demo with zarrita's built-in codecs only: the v3 numcodecs.fixedscaleoffset store fails on the page", async () => {
  const page = await b.ctx.newPage();
  await page.goto(`${b.base}/www/?codecs=builtin`);
  await page.waitForSelector('body[data-state="done"]', { timeout: 90_000 });
  const s = await page.evaluate(() => window.__demo.summary());
  assert.match(await page.locator('#version').innerText(), /zarrita's built-in codecs only/);
  const fso = s['topobathy_v3_numcodecs_fixedscaleoffset.zarr'];
  assert.equal(fso.ok, false);
  assert.match(fso.error, /^Unknown codec "numcodecs\.fixedscaleoffset": zarrita has no such codec/);
  // These three happen to decode to the same values with zarrita's own float64 arithmetic
  // (integer offsets, scales 10/20/100); tests/js/zarrita.test.mjs shows where they differ.
  for (const name of STORE_NAMES.slice(0, 3)) assert.equal(s[name].ok, true, name);
  await page.screenshot({ path: artifact('demo-builtin.png'), fullPage: true });
  await page.close();
});

test('zarr-scale-offset/zarrita in a module Web Worker: zarrita + register read three stores (no bundler, no import map)', async () => {
  const page = await b.ctx.newPage();
  await page.goto(`${b.base}/www/?fixtures=0`);
  const names = ['topobathy.zarr', 'jacksboro_dem.zarr', 'mri_v2_fixedscaleoffset.zarr'];
  const r = await page.evaluate(async (names) => {
    // zarrita's entry imports "@zarrita/storage/fetch" by bare name and import maps do not apply
    // to workers, so the worker imports zarrita's modules by URL; ours need nothing.
    const o = location.origin;
    const src = `
      import { open } from '${o}/node_modules/zarrita/dist/src/open.js';
      import { get } from '${o}/node_modules/zarrita/dist/src/indexing/ops.js';
      import { registry } from '${o}/node_modules/zarrita/dist/src/codecs.js';
      import { register } from '${o}/dist/zarrita.js';
      const store = (root) => ({
        async get(key) { const r = await fetch(root + key); return r.status === 404 ? undefined : new Uint8Array(await r.arrayBuffer()); },
        async getRange(key, range) {
          const r = await fetch(root + key, { headers: { Range: 'suffixLength' in range ? 'bytes=-' + range.suffixLength : 'bytes=' + range.offset + '-' + (range.offset + range.length - 1) } });
          return r.status === 404 ? undefined : new Uint8Array(await r.arrayBuffer());
        },
      });
      try {
        const registered = await register(registry);
        const out = { registered, isWorker: typeof WorkerGlobalScope === 'function' && self instanceof WorkerGlobalScope, arrays: {} };
        for (const name of ${JSON.stringify(names)}) {
          const arr = await open(store('${o}/tests/fixtures/stores/' + name), { kind: 'array' });
          const { data, shape } = await get(arr);
          const bytes = new Uint8Array(data.buffer, data.byteOffset, data.byteLength);
          let s = ''; for (let i = 0; i < bytes.length; i += 0x8000) s += String.fromCharCode.apply(null, bytes.subarray(i, i + 0x8000));
          out.arrays[name] = { shape, dtype: arr.dtype, b64: btoa(s) };
        }
        postMessage(out);
      } catch (e) { postMessage({ error: String(e && e.stack || e) + (e && e.cause ? ' <- ' + e.cause.message : '') }); }`;
    const worker = new Worker(URL.createObjectURL(new Blob([src], { type: 'text/javascript' })), { type: 'module' });
    return await new Promise((resolve) => {
      const timer = setTimeout(() => resolve({ error: 'timeout' }), 60_000);
      worker.onmessage = (e) => { clearTimeout(timer); resolve(e.data); };
      worker.onerror = (e) => { clearTimeout(timer); resolve({ error: `worker error: ${e.message}` }); };
    });
  }, names);
  assert.equal(r.error, undefined, r.error);
  assert.equal(r.isWorker, true);
  assert.deepEqual(r.registered, ['scale_offset', 'cast_value', 'cf.scale_offset', 'numcodecs.fixedscaleoffset', 'numcodecs.fixedscaleoffset.v2']);
  for (const name of names) {
    const exp = expectedOf(name);
    assert.deepEqual(r.arrays[name].shape, exp.shape);
    const c = compareArrays(fromBase64(r.arrays[name].b64), exp.bytes, exp.dtype);
    assert.ok(c.equal, `${name} in the worker: ${c.differ} differ`);
  }
  await page.close();
});

test('the core package in a module Web Worker (no bundler, no configuration)', async () => {
  const page = await b.ctx.newPage();
  await page.goto(`${b.base}/www/?fixtures=0`);
  const r = await page.evaluate(async () => {
    const src = `import { ready, version, typedArrayKind, encode } from '${location.origin}/dist/index.js';
      await ready();
      const out = { version: version(), kind: typedArrayKind('float16') };
      try { out.encoded = Array.from(encode({ name: 'scale_offset', configuration: { scale: 4 } }, 'float32', new Float32Array([0.5, -1]))); }
      catch (e) { out.error = e.code + ': ' + e.message; }
      postMessage(out);`;
    const worker = new Worker(URL.createObjectURL(new Blob([src], { type: 'text/javascript' })), { type: 'module' });
    return await new Promise((resolve) => {
      worker.onmessage = (e) => resolve(e.data);
      worker.onerror = (e) => resolve({ workerError: e.message ?? String(e) });
    });
  });
  assert.equal(r.workerError, undefined, r.workerError);
  assert.match(r.version, /^\d+\.\d+\.\d+/);
  assert.equal(r.kind, 'Float16Array', 'Chromium 156 has Float16Array');
  assert.equal(r.error, undefined, r.error);
  assert.deepEqual(r.encoded, [2, -4]);
  await page.close();
});

test('the README screenshot exists (docs/demo.png; UPDATE_SCREENSHOT=1 npm run test:js refreshes it)', () => {
  assert.ok(existsSync(path.join(ROOT, 'docs', 'demo.png')));
  copyFileSync(path.join(ROOT, 'docs', 'demo.png'), artifact('readme-demo.png'));
});

// ---------------------------------------------------------------------------------------------
// issue 21: CF detection, the raw / physical switch, group listings, numbers, 420 px

const T2M = '/tests/fixtures/cf_stores/cf_t2m_i16_v2.zarr/t2m';

test('demo: a pasted CF-packed array (int16 + scale_factor/add_offset/_FillValue) shows physical values through openCF by default, with a visible raw / physical switch', async () => {
  const page = await b.ctx.newPage();
  const errors = watchErrors(page);
  await page.goto(`${b.base}/www/?fixtures=0`);
  await page.waitForSelector('body[data-state="done"]');
  await page.fill('#url', T2M); // no query parameter: detected from the attributes
  await page.click('#open-form button');
  await page.waitForSelector('#pasted .status.ok', { timeout: 60_000 });
  let s = (await page.evaluate(() => window.__demo.summary())).url;
  const exp = expectedAny('cf_t2m_i16_v2.zarr');
  assert.equal(s.dataType, 'float64');
  assert.equal(s.cf, 'int16');
  assert.equal(s.mode, 'cf');
  const c = compareArrays(fromBase64(await page.evaluate(() => window.__demo.base64('url'))), exp.bytes, 'float64');
  assert.ok(c.equal, `${c.differ} values differ from xarray's`);
  // the fill value masked: NaN, transparent, outside the colour range
  const px = await page.evaluate(() => window.__demo.pixels('url'));
  assert.equal(px.transparent, exp.meta.nan_count);
  assert.equal(px.transparent, 25);
  const panel = page.locator('#pasted section.view');
  assert.equal(await panel.locator('.legend .units').innerText(), 'float64 values (unpacked from int16 by openCF) in K');
  // numbers to the precision of the data: scale_factor 0.000354 -> 4 decimals, exact on hover
  const status = await panel.locator('.status').innerText();
  assert.match(status, /^10920 values, 25 NaN, range \d{3}\.\d{1,4} … \d{3}\.\d{1,4} K$/);
  const finite = [...exp.values].filter((v) => !Number.isNaN(v));
  const min = Math.min(...finite);
  const max = Math.max(...finite);
  assert.equal(status, `10920 values, 25 NaN, range ${Number(min.toFixed(4))} … ${Number(max.toFixed(4))} K`);
  assert.equal(await panel.locator('.status span').first().getAttribute('title'), `exactly ${min}`);
  for (const t of await panel.locator('.legend .ticks span').allInnerTexts()) assert.match(t, /^-?\d+(\.\d{1,3})?$/, `tick ${t}`);
  // hover: rounded to the data's precision, the exact float64 beside it and in the tooltip
  const canvas = panel.locator('canvas.map');
  const box = await canvas.boundingBox();
  await page.mouse.move(box.x + ((30 + 0.5) / 120) * box.width, box.y + ((20 + 0.5) / 91) * box.height);
  const v = exp.values[20 * 120 + 30];
  const readout = await panel.locator('.readout').innerText();
  assert.equal(readout.split(' · ')[0], `y 20, x 30: ${Number(v.toFixed(4))} K${Number(v.toFixed(4)) === v ? '' : ` (exactly ${v})`}`);
  assert.equal(await panel.locator('.readout .value').getAttribute('title'), `exact float64 value: ${v}`);
  // the switch is visible and says which is shown
  const sw = panel.locator('.cf-switch');
  assert.ok(await sw.isVisible());
  assert.equal(await sw.locator('button[value="cf"]').getAttribute('aria-pressed'), 'true');
  await page.screenshot({ path: artifact('demo-cf.png'), fullPage: true });
  if (process.env.UPDATE_SCREENSHOT === '1') await page.screenshot({ path: path.join(ROOT, 'docs', 'demo-cf.png'), fullPage: true });

  // raw: the stored int16 codes, as zarrita reads them without openCF
  await sw.locator('button[value="raw"]').click();
  await page.waitForFunction(() => window.__demo.summary().url?.dataType === 'int16');
  await page.waitForSelector('#pasted .status.ok');
  s = (await page.evaluate(() => window.__demo.summary())).url;
  assert.equal(s.cf, null);
  assert.equal(s.mode, 'raw');
  assert.equal(await sw.locator('button[value="raw"]').getAttribute('aria-pressed'), 'true');
  assert.match(page.url(), /&cf=raw$/);
  assert.match(await panel.locator('.legend .units').innerText(), /^int16 values, raw \(still CF-packed\) \(K after unpacking\)$/);
  assert.match(await panel.locator('.status').innerText(), /^10920 values, 0 NaN, range -\d+ … \d+$/);
  // and back
  await sw.locator('button[value="cf"]').click();
  await page.waitForFunction(() => window.__demo.summary().url?.dataType === 'float64');
  assert.deepEqual(errors, []);
  await page.close();
});

// A group's documents as zarr-python writes them with consolidated metadata (v3: inline
// consolidated_metadata in the group's zarr.json; v2: .zmetadata), served over the fixture
// stores (which were written without), so that the listing has something to list.
function consolidatedV3(dir, name) {
  const doc = JSON.parse(readFileSync(path.join(dir, 'zarr.json'), 'utf8'));
  const member = JSON.parse(readFileSync(path.join(dir, name, 'zarr.json'), 'utf8'));
  return { ...doc, consolidated_metadata: { kind: 'inline', must_understand: false, metadata: { [name]: member } } };
}
function consolidatedV2(dir, name) {
  const read = (f) => JSON.parse(readFileSync(path.join(dir, f), 'utf8'));
  return { metadata: { '.zgroup': read('.zgroup'), '.zattrs': read('.zattrs'), [`${name}/.zarray`]: read(`${name}/.zarray`), [`${name}/.zattrs`]: read(`${name}/.zattrs`) }, zarr_consolidated_format: 1 };
}

test('demo: a group URL lists its arrays to pick from (consolidated v3 and v2); a group without consolidated metadata says why it cannot', async () => {
  const page = await b.ctx.newPage();
  const errors = watchErrors(page);
  const cf = path.join(ROOT, 'tests', 'fixtures', 'cf_stores');
  await page.route('**/cf_stores/cf_reflectance_u16_v3.zarr/zarr.json', (r) => r.fulfill({ contentType: 'application/json', body: JSON.stringify(consolidatedV3(path.join(cf, 'cf_reflectance_u16_v3.zarr'), 'reflectance')) }));
  await page.route('**/cf_stores/cf_t2m_i16_v2.zarr/.zmetadata', (r) => r.fulfill({ contentType: 'application/json', body: JSON.stringify(consolidatedV2(path.join(cf, 'cf_t2m_i16_v2.zarr'), 't2m')) }));
  for (const [group, name, line] of [
    ['/tests/fixtures/cf_stores/cf_reflectance_u16_v3.zarr', 'reflectance', /^reflectance · uint16 · shape 91 × 120 · CF-packed$/],
    ['/tests/fixtures/cf_stores/cf_t2m_i16_v2.zarr', 't2m', /^t2m · <i2 · shape 91 × 120 in K · CF-packed$/],
  ]) {
    await page.goto(`${b.base}/www/?fixtures=0&url=${encodeURIComponent(group)}`);
    await page.waitForSelector('body[data-state="done"]');
    const panel = page.locator('#pasted section.view');
    assert.match(await panel.locator('.status').innerText(), /^A Zarr v[23] group with 1 array \(from its consolidated metadata\): pick one\.$/);
    const items = await panel.locator('ul.members li').allInnerTexts();
    assert.equal(items.length, 1);
    assert.match(items[0], line);
    await panel.locator('ul.members a').click();
    await page.waitForFunction(() => window.__demo.summary().url?.ok === true && window.__demo.summary().url.dataType);
    const s = (await page.evaluate(() => window.__demo.summary())).url;
    assert.equal(s.cf !== null, true, `${name} opens through openCF`);
    assert.equal(page.url().endsWith(`?url=${encodeURIComponent(`${b.base}${group}/${name}`)}`), true, page.url());
  }
  await page.unrouteAll();
  // the same group without consolidated metadata (as the fixture was written)
  await page.goto(`${b.base}/www/?fixtures=0&url=${encodeURIComponent('/tests/fixtures/cf_stores/cf_t2m_i16_v2.zarr')}`);
  await page.waitForSelector('body[data-state="done"]');
  assert.match(
    await page.locator('#pasted .status').innerText(),
    /^This is a Zarr v2 group without consolidated metadata, and HTTP cannot list a folder, so its arrays are unknown here: add an array's name to the URL \(http:\/\/127\.0\.0\.1:\d+\/tests\/fixtures\/cf_stores\/cf_t2m_i16_v2\.zarr\/<name>\)\.$/,
  );
  assert.deepEqual(errors, []);
  await page.close();
});

test('demo at 420 px width: nothing is cut off (no horizontal scrolling, every panel inside the window)', async () => {
  const page = await b.ctx.newPage();
  const errors = watchErrors(page);
  await page.setViewportSize({ width: 420, height: 900 });
  await page.goto(`${b.base}/www/?url=${encodeURIComponent(T2M)}`);
  await page.waitForSelector('body[data-state="done"]', { timeout: 90_000 });
  const m = await page.evaluate(() => ({
    scroll: document.documentElement.scrollWidth,
    client: document.documentElement.clientWidth,
    wide: [...document.querySelectorAll('body *')]
      .filter((e) => e.getClientRects().length && !e.closest('.scroll'))
      .map((e) => [e.tagName + '.' + e.className, Math.round(e.getBoundingClientRect().right)])
      .filter(([, r]) => r > document.documentElement.clientWidth),
  }));
  assert.ok(m.client <= 420);
  assert.equal(m.scroll, m.client, `the page scrolls sideways: ${m.scroll} > ${m.client}`);
  assert.deepEqual(m.wide, [], 'elements past the right edge');
  await page.screenshot({ path: artifact('demo-420.png') });
  if (process.env.UPDATE_SCREENSHOT === '1') await page.screenshot({ path: path.join(ROOT, 'docs', 'demo-420.png') });
  assert.deepEqual(errors, []);
  await page.close();
});

test("demo with zarrita's built-in codecs: zarrita alone, no openCF (the CF stores show their stored integers)", async () => {
  const page = await b.ctx.newPage();
  await page.goto(`${b.base}/www/?codecs=builtin&url=${encodeURIComponent(T2M)}`);
  await page.waitForSelector('body[data-state="done"]', { timeout: 90_000 });
  const s = await page.evaluate(() => window.__demo.summary());
  for (const [id, dtype] of [['url', 'int16'], ['cf_t2m_i16_v2.zarr', 'int16'], ['cf_reflectance_u16_v3.zarr', 'uint16']]) {
    assert.equal(s[id].ok, true, `${id}: ${s[id].error}`);
    assert.equal(s[id].dataType, dtype, id);
    assert.equal(s[id].cf, null, `${id}: not through openCF`);
    assert.doesNotMatch(s[id].text, /→ openCF/);
    assert.match(s[id].text, /openCF, which unpacks them, is part of zarr-scale-offset and not used on this page/);
  }
  await page.close();
});
