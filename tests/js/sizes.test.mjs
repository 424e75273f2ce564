// Prints what the package costs in every `npm test` (CI log): the WebAssembly module as a
// separate .wasm vs inlined as base64 (raw, gzip, brotli), the base64 decode and compile times,
// and the `npm pack` tarball with its files (scripts/sizes.mjs, also `npm run sizes`).

import { test } from 'node:test';
import assert from 'node:assert/strict';

import { report } from '../../scripts/sizes.mjs';

test('package sizes: inlined vs separate wasm, npm pack (printed)', async (t) => {
  const r = await report();
  for (const line of r.lines) t.diagnostic(line);
  // base64 is 4/3 of the bytes plus the loader
  assert.ok(r.wasm.inlined.raw > (r.wasm.moduleBytes * 4) / 3);
  assert.ok(r.wasm.inlined.raw < (r.wasm.moduleBytes * 4) / 3 + 4096);
  assert.ok(r.pack.files.every((f) => f.path === 'package.json' || f.path.startsWith('dist/') || /^(README|LICEN[CS]E)/i.test(f.path)));
  assert.ok(r.pack.size < 1024 * 1024, `the tarball is ${r.pack.size} B`);
});
