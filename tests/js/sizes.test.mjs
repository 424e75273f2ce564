// Prints what the package costs in every `npm test` (CI log): the WebAssembly module as a
// separate .wasm vs inlined (LZMA1 + base64 + decoder; raw, gzip, brotli), the unpack and
// compile times, and the `npm pack` tarball with its files (scripts/sizes.mjs, also `npm run sizes`).

import { test } from 'node:test';
import assert from 'node:assert/strict';

import { report } from '../../scripts/sizes.mjs';

test('package sizes: inlined vs separate wasm, npm pack (printed)', async (t) => {
  const r = await report();
  for (const line of r.lines) t.diagnostic(line);
  // The module is inlined as base64 of raw LZMA1 with its decoder: less than half the module's
  // size, and smaller under gzip than a separate .wasm would be (LZMA beats gzip on the module by
  // ~19 %; base64 of LZMA data costs about its binary size in a gzip tarball).
  assert.ok(r.wasm.inlined.raw < r.wasm.moduleBytes * 0.5, `inlined ${r.wasm.inlined.raw} B`);
  assert.ok(
    r.wasm.inlined.gzip < r.wasm.separate.gzip * 0.9,
    `inlined ${r.wasm.inlined.gzip} B gzip vs a separate .wasm ${r.wasm.separate.gzip} B`,
  );
  // Issue 5: the whole package at most 100 KB gzip (counted as 100,000 B, the stricter reading).
  assert.ok(r.pack.size <= 100_000, `the tarball is ${r.pack.size} B, over 100,000 B`);
  assert.ok(r.pack.files.every((f) => f.path === 'package.json' || f.path.startsWith('dist/') || /^(README|LICEN[CS]E)/i.test(f.path)));
  assert.ok(r.pack.size < 1024 * 1024, `the tarball is ${r.pack.size} B`);
});
