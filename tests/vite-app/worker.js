// Module Web Worker of the Vite test app: zarrita + register, one store, values back as base64.
import * as zarr from 'zarrita';
import { register } from 'zarr-scale-offset/zarrita';

const registered = register(zarr.registry);

self.onmessage = async (e) => {
  try {
    await registered;
    const arr = await zarr.open(new zarr.FetchStore(new URL(e.data, self.location.origin).href), { kind: 'array' });
    const { data, shape } = await zarr.get(arr);
    const bytes = new Uint8Array(data.buffer, data.byteOffset, data.byteLength);
    let s = '';
    for (let i = 0; i < bytes.length; i += 0x8000) s += String.fromCharCode.apply(null, bytes.subarray(i, i + 0x8000));
    self.postMessage({ dtype: arr.dtype, shape, b64: btoa(s) });
  } catch (err) {
    self.postMessage({ error: `${err.name}: ${err.message}${err.cause ? ` <- ${err.cause.message}` : ''}` });
  }
};
