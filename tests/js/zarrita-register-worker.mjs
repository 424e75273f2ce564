// The Worker half of tests/js/zarrita-register.test.mjs: a worker thread has its own module
// instances, so zarrita's registry is rebuilt with its built-in codecs and this package's module
// is not loaded. It opens an array, calls register() WITHOUT awaiting it, reads at once, and
// posts the float32 bits it got.

import { isMainThread, parentPort, workerData } from 'node:worker_threads';

if (!isMainThread) {
  const zarr = await import('zarrita');
  const { register } = await import('zarr-scale-offset/zarrita');
  const { isReady } = await import('zarr-scale-offset');
  const files = new Map(Object.entries(workerData.files).map(([k, hex]) => [k, new Uint8Array(Buffer.from(hex, 'hex'))]));
  const store = { async get(k) { return files.get(k.replace(/^\//, '')); } };
  const builtin = zarr.registry.get('scale_offset');
  const before = await zarr.open(store, { kind: 'array' });
  const readyAtRegister = isReady();
  register(zarr.registry); // not awaited
  const replaced = zarr.registry.get('scale_offset') !== builtin;
  const first = zarr.get(before); // starts before anything else runs
  const after = await zarr.open(store, { kind: 'array' });
  const bits = async (p) => Array.from(new Int32Array((await p).data.buffer));
  parentPort.postMessage({ readyAtRegister, replaced, before: await bits(first), after: await bits(zarr.get(after)) });
}
