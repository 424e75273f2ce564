// A tiny app as a user writes it: zarrita + zarr-scale-offset/zarrita, no Vite plugin, no
// copied .wasm file. tests/js/vite.test.mjs installs the packed package into node_modules/,
// builds this folder with `vite build`, serves dist/ and opens it in Chromium.
import * as zarr from 'zarrita';
import { register } from 'zarr-scale-offset/zarrita';

function base64(data) {
  const bytes = new Uint8Array(data.buffer, data.byteOffset, data.byteLength);
  let s = '';
  for (let i = 0; i < bytes.length; i += 0x8000) s += String.fromCharCode.apply(null, bytes.subarray(i, i + 0x8000));
  return btoa(s);
}

async function read(path) {
  const arr = await zarr.open(new zarr.FetchStore(new URL(path, location.origin).href), { kind: 'array' });
  const { data, shape } = await zarr.get(arr);
  return { dtype: arr.dtype, shape, b64: base64(data) };
}

async function main() {
  const registered = await register(zarr.registry);
  const page = await read('/tests/fixtures/stores/topobathy_v3_numcodecs_fixedscaleoffset.zarr');
  // the same in a module Web Worker bundled by Vite
  const worker = new Worker(new URL('./worker.js', import.meta.url), { type: 'module' });
  const inWorker = await new Promise((resolve) => {
    worker.onmessage = (e) => resolve(e.data);
    worker.onerror = (e) => resolve({ error: `worker error: ${e.message}` });
    worker.postMessage('/tests/fixtures/stores/topobathy.zarr');
  });
  return { registered, page, worker: inWorker };
}

main().then(
  (r) => {
    window.__vite = r;
    document.getElementById('status').textContent = `read ${r.page.shape.join(' × ')} ${r.page.dtype} in the page and ${r.worker.shape?.join(' × ')} in a worker`;
  },
  (e) => {
    window.__vite = { error: `${e.name}: ${e.message}${e.cause ? ` <- ${e.cause.message}` : ''}` };
    document.getElementById('status').textContent = window.__vite.error;
  },
);
