// register(zarr.registry) the zarrita way (issue 13 item 2): it sets lazy entries synchronously
// (each awaits the WebAssembly module, as zarrita's own entries are lazy loaders) and starts
// loading the module in the background, so a read started right after a register() that was NOT
// awaited -- on an array opened before or after it -- decodes with this package's codecs, in the
// main thread, in a Node worker thread and in a Chromium module Web Worker (each of which
// rebuilds zarrita's registry). This file must run in its own process (node --test does that):
// the module must not be loaded before the test calls register.
//
// The store: float32 scale_offset(offset 5, scale 0.1) of [1, 2.5, 3.3, 1e-3, 123.456, -7.77].
// zarrita's built-in codec computes in float64 and decodes elements 0 and 3 one float32 ulp off
// (peers.md case A): bits 1065353215 and 981667328 where the exact per-operation float32
// results (zarr-python's) are 1065353216 (1.0) and 981667840.

import { test } from 'node:test';
import assert from 'node:assert/strict';
import { Worker } from 'node:worker_threads';

import * as zarr from 'zarrita';
import { register, codecNames, V2_FIXEDSCALEOFFSET } from 'zarr-scale-offset/zarrita';
import { isReady } from 'zarr-scale-offset';

import { startBrowser } from './browser.mjs';
import { memStore } from './zarrita-helpers.mjs';

const FILES = {
  'zarr.json': Buffer.from(
    JSON.stringify({
      zarr_format: 3, node_type: 'array', shape: [6], data_type: 'float32',
      chunk_grid: { name: 'regular', configuration: { chunk_shape: [6] } }, chunk_key_encoding: { name: 'default' },
      fill_value: 0, codecs: [{ name: 'scale_offset', configuration: { offset: 5, scale: 0.1 } }, { name: 'bytes', configuration: { endian: 'little' } }],
    }),
  ).toString('hex'),
  'c/0': 'cdccccbe000080be7b142ebee5f2ffbe94873d41bd74a3bf',
};
const OURS = [1065353216, 1075838976, 1079194419, 981667840, 1123477881, -1057446952];

const store = () => memStore(Object.fromEntries(Object.entries(FILES).map(([k, hex]) => [k, new Uint8Array(Buffer.from(hex, 'hex'))])));
const bits = (data) => Array.from(new Int32Array(data.buffer, data.byteOffset, data.length));

test('main thread: a read right after a register() that was not awaited, on arrays opened before and after, gets this package\'s values', async () => {
  assert.equal(isReady(), false, 'the module is not loaded yet (this file runs in its own process)');
  const builtin = zarr.registry.get('scale_offset');
  // Control: zarrita's built-in codec on this store gives other values (so this test can fail).
  const control = await zarr.open(store(), { kind: 'array' });
  const c = bits((await zarr.get(control)).data);
  assert.deepEqual([c[0], c[3]], [1065353215, 981667328]);
  assert.notDeepEqual(c, OURS);

  const before = await zarr.open(store(), { kind: 'array' });
  const registered = register(zarr.registry); // not awaited (yet)
  // The entries are set before register returns, while the module is still loading.
  assert.ok(registered instanceof Promise);
  assert.equal(isReady(), false);
  for (const n of [...codecNames, V2_FIXEDSCALEOFFSET]) assert.equal(typeof zarr.registry.get(n), 'function', n);
  assert.notEqual(zarr.registry.get('scale_offset'), builtin);
  const first = zarr.get(before); // no await between register and this read
  const after = await zarr.open(store(), { kind: 'array' });
  assert.deepEqual(bits((await first).data), OURS, 'array opened before register');
  assert.deepEqual(bits((await zarr.get(after)).data), OURS, 'array opened after register');
  // Awaiting it still works, and resolves to the names it set.
  assert.deepEqual(await registered, [...codecNames, V2_FIXEDSCALEOFFSET]);
  assert.equal(isReady(), true);
  // An array whose first read ran before register keeps the codecs it loaded then (zarrita
  // loads an array's codecs once): documented in docs/guides/browser.md.
  assert.deepEqual(bits((await zarr.get(control)).data), c);
});

test('register on a registry of your own: a loader called before the module is ready resolves to our entry; misuse throws at once', async () => {
  const reg = new Map();
  const p = register(reg);
  const entry = await reg.get('cast_value')();
  assert.equal(entry.kind, 'array_to_array');
  assert.deepEqual(await p, [...reg.keys()]);
  assert.throws(() => register(undefined), TypeError, 'misuse throws at once');
});

test('node:worker_threads: register() not awaited inside a worker (zarrita\'s registry rebuilt there) gives this package\'s values', async () => {
  const worker = new Worker(new URL('./zarrita-register-worker.mjs', import.meta.url), { workerData: { files: FILES } });
  const r = await new Promise((resolve, reject) => {
    worker.once('message', resolve);
    worker.once('error', reject);
    worker.once('exit', (code) => reject(new Error(`worker exited with ${code} before answering`)));
  });
  await worker.terminate();
  assert.equal(r.readyAtRegister, false, 'the worker had not loaded the module');
  assert.equal(r.replaced, true, 'entries set synchronously');
  assert.deepEqual(r.before, OURS, 'array opened before register');
  assert.deepEqual(r.after, OURS, 'array opened after register');
});

test('Chromium module Web Worker: register() not awaited (zarrita\'s registry rebuilt in the worker) gives this package\'s values', async () => {
  const b = await startBrowser();
  try {
    const page = await b.ctx.newPage();
    await page.goto(`${b.base}/www/?fixtures=0`);
    const r = await page.evaluate(async (files) => {
      // import maps do not apply to workers: zarrita's modules by URL (as in demo.test.mjs)
      const o = location.origin;
      const src = `
        import { open } from '${o}/node_modules/zarrita/dist/src/open.js';
        import { get } from '${o}/node_modules/zarrita/dist/src/indexing/ops.js';
        import { registry } from '${o}/node_modules/zarrita/dist/src/codecs.js';
        import { register } from '${o}/dist/zarrita.js';
        import { isReady } from '${o}/dist/index.js';
        const hex = (h) => new Uint8Array(h.match(/../g).map((x) => parseInt(x, 16)));
        const files = new Map(Object.entries(${JSON.stringify(files)}).map(([k, h]) => [k, hex(h)]));
        const store = { async get(k) { return files.get(k.replace(/^\\//, '')); } };
        const bits = async (p) => Array.from(new Int32Array((await p).data.buffer));
        try {
          const builtin = registry.get('scale_offset');
          const control = bits(get(await open(store, { kind: 'array' })));
          const before = await open(store, { kind: 'array' });
          const readyAtRegister = isReady();
          register(registry); // not awaited
          const replaced = registry.get('scale_offset') !== builtin;
          const first = get(before);
          const after = await open(store, { kind: 'array' });
          postMessage({ readyAtRegister, replaced, control: await control, before: await bits(first), after: await bits(get(after)), isWorker: typeof WorkerGlobalScope === 'function' });
        } catch (e) { postMessage({ error: String(e && e.stack || e) }); }`;
      const worker = new Worker(URL.createObjectURL(new Blob([src], { type: 'text/javascript' })), { type: 'module' });
      return await new Promise((resolve) => {
        const timer = setTimeout(() => resolve({ error: 'timeout' }), 60_000);
        worker.onmessage = (e) => { clearTimeout(timer); resolve(e.data); };
        worker.onerror = (e) => { clearTimeout(timer); resolve({ error: `worker error: ${e.message}` }); };
      });
    }, FILES);
    assert.equal(r.error, undefined, r.error);
    assert.equal(r.isWorker, true);
    assert.equal(r.readyAtRegister, false);
    assert.equal(r.replaced, true);
    assert.deepEqual([r.control[0], r.control[3]], [1065353215, 981667328], "zarrita's built-in codec in the worker (control)");
    assert.deepEqual(r.before, OURS);
    assert.deepEqual(r.after, OURS);
    await page.close();
  } finally {
    await b.close();
  }
});
