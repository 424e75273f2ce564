// The Node engine of the cross-engine matrix (tests/matrix/run.py), with the built dist/.
//   node node.mjs write CASES.json OUT_DIR  encodeChunk of every chunk of every case (1-D arrays
//                                           whose shape is a multiple of the chunk shape)
//   node node.mjs read STORE...             decodeChunk of every chunk, concatenated: one line per
//                                           store, hex of the decoded array or "error: <code>: <msg>"
// Sharded arrays: encodeChunk/decodeChunk take one whole chunk without sharding_indexed; the case
// is written as error.txt / read as an error (a documented cell).
import fs from 'node:fs';
import path from 'node:path';

const root = new URL('../../', import.meta.url);
const { ready, encodeChunk, decodeChunk } = await import(new URL('dist/index.js', root).href);
await ready();

const TYPED = {
  int4: Int8Array, int8: Int8Array, int16: Int16Array, int32: Int32Array, int64: BigInt64Array,
  uint8: Uint8Array, uint16: Uint16Array, uint32: Uint32Array, uint64: BigUint64Array,
  float32: Float32Array, float64: Float64Array, bfloat16: Uint16Array, float8_e4m3: Uint8Array,
};
const hex = (u8) => Buffer.from(u8.buffer, u8.byteOffset, u8.byteLength).toString('hex');
const chunkLen = (m) => m.chunk_grid.configuration.chunk_shape[0];
const sharded = (m) => m.codecs.some((c) => c.name === 'sharding_indexed');
const errText = (e) => `${e.code ?? e.name}: ${e.message}`.replace(/\n/g, ' ');

const [cmd, ...args] = process.argv.slice(2);
if (cmd === 'write') {
  const [casesFile, out] = args;
  for (const c of JSON.parse(fs.readFileSync(casesFile, 'utf8'))) {
    const dir = path.join(out, `${c.name}.zarr`);
    fs.mkdirSync(dir, { recursive: true });
    const m = c.zarr_json;
    fs.writeFileSync(path.join(dir, 'zarr.json'), JSON.stringify(m, null, 2));
    try {
      if (sharded(m)) throw Object.assign(new Error('encodeChunk does not write sharding_indexed'), { code: 'n/a' });
      const input = Buffer.from(c.input, 'hex');
      const per = input.length / (m.shape[0] / chunkLen(m));
      fs.mkdirSync(path.join(dir, 'c'), { recursive: true });
      for (let i = 0; i * per < input.length; i++) {
        // encodeChunk takes the typed array of the data type (index.d.ts: int4 as Int8Array,
        // bfloat16 as Uint16Array bits, float8 as Uint8Array codes ...).
        const bytes = new Uint8Array(input.subarray(i * per, (i + 1) * per));
        const typed = new TYPED[m.data_type](bytes.buffer);
        fs.writeFileSync(path.join(dir, 'c', String(i)), encodeChunk(m, typed));
      }
    } catch (e) {
      fs.writeFileSync(path.join(dir, 'error.txt'), errText(e));
    }
  }
} else if (cmd === 'read') {
  for (const store of args) {
    try {
      const m = JSON.parse(fs.readFileSync(path.join(store, 'zarr.json'), 'utf8'));
      if (sharded(m)) throw Object.assign(new Error('decodeChunk does not read sharding_indexed'), { code: 'n/a' });
      const parts = [];
      for (let i = 0; i < m.shape[0] / chunkLen(m); i++) {
        parts.push(hex(decodeChunk(m, fs.readFileSync(path.join(store, 'c', String(i))))));
      }
      console.log(parts.join(''));
    } catch (e) {
      console.log(`error: ${errText(e)}`);
    }
  }
}
