#!/usr/bin/env node
// Start-up variants of a build, for the cold-start analysis of docs/PERFORMANCE.md (issue 13,
// third pass): copies of dist/ that differ only in how `ready()` gets the module's bytes, each
// timed by bench/coldstart.mjs against zarrita alone, one after the other:
//
//   - lzma:    the build as it is (base64 of LZMA, unpacked by our WebAssembly decoder);
//   - deflate: base64 of raw DEFLATE (zlib -9), inflated natively: Node's zlib.inflateRawSync,
//              elsewhere Response + DecompressionStream('deflate-raw'); over the size budget;
//   - raw:     base64 of the module itself, nothing to decompress (a large download).
//
//   node bench/variants.mjs [--runs 9] [--dist DIR] [--only lzma,deflate,raw] [--node-only | --browser-only]
//
// Prints each variant's download (gzip -9 per file of the zarrita path, scripts/sizes.mjs's
// downloadInfo) and coldstart.mjs's verdict lines. The variants are written to a temporary
// directory and removed afterwards.

import { execFileSync } from 'node:child_process';
import { cpSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { pathToFileURL } from 'node:url';
import { deflateRawSync } from 'node:zlib';

import { downloadInfo } from '../scripts/sizes.mjs';
import { flag, opt } from './cli.mjs';

const ROOT = path.resolve(import.meta.dirname, '..');
const dist = path.resolve(opt('--dist', path.join(ROOT, 'dist')));
const runs = opt('--runs', '9');
const only = opt('--only', 'lzma,deflate,raw').split(',');
const WASM_JS = 'zarr_scale_offset_wasm.js';

const { wasmBytes } = await import(pathToFileURL(path.join(dist, WASM_JS)).href);
const module = await wasmBytes();

// A loader with the exports dist/zarr_scale_offset_wasm.js has (lzmaDecoder only throws).
function loader(data, inflate) {
  return `const D=${JSON.stringify(Buffer.from(data).toString('base64'))};
export const WASM_SIZE=${module.length};
const b64=(t)=>typeof Uint8Array.fromBase64==="function"?Uint8Array.fromBase64(t):new Uint8Array(Buffer.from(t,"base64"));
export async function wasmBytes(){const b=b64(D);${inflate ? `const z=globalThis.process?.getBuiltinModule?.("zlib");if(z)return new Uint8Array(z.inflateRawSync(b));return new Uint8Array(await new Response(new Blob([b]).stream().pipeThrough(new DecompressionStream("deflate-raw"))).arrayBuffer());` : 'return b;'}}
export async function lzmaDecoder(){throw new Error("not in this variant");}
`;
}

const tmp = mkdtempSync(path.join(os.tmpdir(), 'zso-variants-'));
try {
  for (const name of only) {
    const dir = path.join(tmp, name);
    cpSync(dist, dir, { recursive: true });
    if (name === 'deflate') writeFileSync(path.join(dir, WASM_JS), loader(deflateRawSync(module, { level: 9, memLevel: 9 }), true));
    else if (name === 'raw') writeFileSync(path.join(dir, WASM_JS), loader(module, false));
    else if (name !== 'lzma') throw new Error(`unknown variant ${name} (lzma, deflate, raw)`);
    // What the zarrita path downloads, counted as scripts/sizes.mjs counts it (imports followed).
    const download = downloadInfo(tmp, `${name}/zarrita.js`).gzip;
    console.log(`== ${name}: download ${download.toLocaleString('en-US')} B gzip (budget 100,000 B)`);
    const args = [path.join(ROOT, 'bench', 'coldstart.mjs'), '--runs', runs, '--dist', dir];
    if (flag('--node-only')) args.push('--node-only');
    if (flag('--browser-only')) args.push('--browser-only');
    const out = execFileSync(process.execPath, args, { cwd: ROOT, encoding: 'utf8', maxBuffer: 64 << 20 });
    for (const line of out.split('\n')) if (/^(FAIL|ok) |phases/.test(line.trim())) console.log(line);
  }
} finally {
  rmSync(tmp, { recursive: true, force: true });
}
