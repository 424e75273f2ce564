// node node_decode.mjs ARRAY_DIR OUT_DIR: decodes every stored chunk of the Zarr v3 array in
// ARRAY_DIR (its zarr.json and the chunk files under c/, written without compressors) with the
// built wasm package (dist/index.js, decodeChunk) and writes each chunk's little-endian in-memory
// bytes to OUT_DIR under the same relative path. Prints {"chunks": N}.
import { readFileSync, writeFileSync, readdirSync, statSync, mkdirSync } from 'node:fs';
import { join, relative, dirname } from 'node:path';


const [arrayDir, outDir] = process.argv.slice(2);
const root = new URL('../../', import.meta.url);
const { ready, decodeChunk } = await import(new URL('dist/index.js', root).href);
await ready();
const meta = readFileSync(join(arrayDir, 'zarr.json'), 'utf8');

function* walk(dir) {
  for (const name of readdirSync(dir)) {
    const p = join(dir, name);
    if (statSync(p).isDirectory()) yield* walk(p);
    else yield p;
  }
}

let n = 0;
for (const file of walk(join(arrayDir, 'c'))) {
  const out = decodeChunk(meta, readFileSync(file));
  const dest = join(outDir, relative(arrayDir, file));
  mkdirSync(dirname(dest), { recursive: true });
  writeFileSync(dest, Buffer.from(out.buffer, out.byteOffset, out.byteLength));
  n++;
}
console.log(JSON.stringify({ chunks: n }));
