// Reads variables of a kerchunk v3 reference JSON with zarrita's ReferenceStore (@zarrita/storage)
// and zarrita, this package's codecs registered (zarr-scale-offset/zarrita `register`), the
// referenced file's byte ranges served from disk by a fetch handler (file:// URLs, Range
// requests). Usage: node node_kerchunk.mjs REFS.json OUT_DIR NAME... ; writes OUT_DIR/NAME.bin
// (the decoded elements, little-endian) and prints {NAME: {dtype, shape}} as JSON. A read error
// prints {NAME: {error, code}}.
import { readFileSync, writeFileSync, openSync, readSync, closeSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

import * as zarr from 'zarrita';
import { ReferenceStore } from '@zarrita/storage';
import { register } from 'zarr-scale-offset/zarrita';

const [refsPath, outDir, ...names] = process.argv.slice(2);

// Byte ranges of local files, as an HTTP server with Range support would answer.
async function fetchLocal(request) {
  const url = new URL(request.url);
  if (url.protocol !== 'file:') return new Response(null, { status: 404 });
  const file = fileURLToPath(url);
  const range = request.headers.get('Range');
  if (!range) return new Response(readFileSync(file));
  const [start, end] = range.slice(6).split('-').map(Number);
  const buf = Buffer.alloc(end - start + 1);
  const fd = openSync(file, 'r');
  const n = readSync(fd, buf, 0, buf.length, start);
  closeSync(fd);
  return new Response(buf.subarray(0, n), { status: 206 });
}

await register(zarr.registry);
const spec = JSON.parse(readFileSync(refsPath, 'utf8'));
// Local paths in the references (what VirtualiZarr writes for local files) as file:// URLs.
const refs = spec.refs ?? spec;
for (const [k, v] of Object.entries(refs)) {
  if (Array.isArray(v) && typeof v[0] === 'string' && v[0].startsWith('/')) refs[k] = [`file://${v[0]}`, ...v.slice(1)];
}
const store = ReferenceStore.fromSpec(spec, { fetch: fetchLocal });
const out = {};
for (const name of names) {
  try {
    const arr = await zarr.open(zarr.root(store).resolve(name), { kind: 'array' });
    const { data, shape } = await zarr.get(arr);
    writeFileSync(path.join(outDir, `${name}.bin`), new Uint8Array(data.buffer, data.byteOffset, data.byteLength));
    out[name] = { dtype: arr.dtype, shape };
  } catch (e) {
    out[name] = { error: String(e?.message ?? e), code: e?.code };
  }
}
console.log(JSON.stringify(out));
