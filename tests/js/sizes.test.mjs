// Prints what the package costs in every `npm test` (CI log): the WebAssembly module as a
// separate .wasm vs inlined (LZMA1 + base64 + decoder; raw, gzip, brotli), the unpack and
// compile times, and the `npm pack` tarball with its files (scripts/sizes.mjs, also `npm run sizes`).

import { test } from 'node:test';
import assert from 'node:assert/strict';

import { BUDGETS, report } from '../../scripts/sizes.mjs';

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
  // The size rule (issue 11): what a browser downloads to use the package through its zarrita
  // entry (dist/zarrita.js, the entry, the glue, the inlined module: every file it imports) at
  // most 100 KB gzip, and the `npm pack` tarball under 150 KB (1 KB = 1,000 B, the stricter
  // reading). README and .d.ts are no longer squeezed.
  const names = r.download.files.map((f) => f.path);
  for (const f of ['dist/zarrita.js', 'dist/core.js', 'dist/zarr_scale_offset.js', 'dist/zarr_scale_offset_wasm.js']) {
    assert.ok(names.includes(f), `${f} is not in the download graph ${names.join(', ')}`);
  }
  assert.ok(r.download.gzip <= BUDGETS.download, `the zarrita-path download is ${r.download.gzip} B gzip, over ${BUDGETS.download} B`);
  assert.ok(r.pack.size < BUDGETS.tarball, `the tarball is ${r.pack.size} B, not under ${BUDGETS.tarball} B`);
  assert.ok(r.pack.files.every((f) => f.path === 'package.json' || f.path.startsWith('dist/') || /^(README|LICEN[CS]E)/i.test(f.path)));
  assert.ok(r.pack.size < 1024 * 1024, `the tarball is ${r.pack.size} B`);
});
