// js/zarrita.d.ts type-checks against zarrita 0.7.5's own declarations (tests/types-zarrita,
// "moduleResolution": "bundler" as in a Vite project; skipLibCheck off).

import { test } from 'node:test';
import assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import path from 'node:path';

import { ROOT } from './helpers.mjs';

test('zarr-scale-offset/zarrita declarations: register(zarr.registry) and the entries type-check with zarrita', () => {
  const tsc = path.join(ROOT, 'node_modules', 'typescript', 'bin', 'tsc');
  try {
    execFileSync(process.execPath, [tsc, '-p', 'tests/types-zarrita'], { cwd: ROOT, encoding: 'utf8', stdio: 'pipe' });
  } catch (e) {
    assert.fail(`tsc -p tests/types-zarrita failed:\n${e.stdout}${e.stderr}`);
  }
});
