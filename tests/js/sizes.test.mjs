// Prints what the package costs in every `npm test` (CI log): the WebAssembly module as a
// separate .wasm vs inlined (DEFLATE + base64; raw, gzip, brotli), the unpack and compile times,
// and the `npm pack` tarball with its files (scripts/sizes.mjs, also `npm run sizes`).

import { test } from 'node:test';
import assert from 'node:assert/strict';

import { report } from '../../scripts/sizes.mjs';

test('package sizes: inlined vs separate wasm, npm pack (printed)', async (t) => {
  const r = await report();
  for (const line of r.lines) t.diagnostic(line);
  // The module is inlined as base64 of raw DEFLATE: smaller than the module itself, and within
  // 4 KB gzip of shipping a separate .wasm (base64 of the raw module used to cost +35 % gzip).
  assert.ok(r.wasm.inlined.raw < r.wasm.moduleBytes * 0.75, `inlined ${r.wasm.inlined.raw} B`);
  assert.ok(
    r.wasm.inlined.gzip < r.wasm.separate.gzip + 4096,
    `inlined ${r.wasm.inlined.gzip} B gzip vs a separate .wasm ${r.wasm.separate.gzip} B`,
  );
  // A regression guard, not the goal: issue 5 asks for <= 100 KB; see README "Size".
  assert.ok(r.pack.size < 160 * 1024, `the tarball is ${r.pack.size} B`);
  assert.ok(r.pack.files.every((f) => f.path === 'package.json' || f.path.startsWith('dist/') || /^(README|LICEN[CS]E)/i.test(f.path)));
  assert.ok(r.pack.size < 1024 * 1024, `the tarball is ${r.pack.size} B`);
});
