// The TypeScript `Rounding` union (js/index.d.ts, hand-written) against the rounding modes of the
// Rust core (`RoundingMode::ALL`, printed by crates/core/examples/roundings.rs): scripts/gen-dtypes.mjs
// checks it in every build (and with --check) and stops when they differ.

import { test } from 'node:test';
import assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import { readFileSync } from 'node:fs';
import path from 'node:path';

import { ROOT } from './helpers.mjs';
import { roundingModes, roundingMismatch, roundingUnion } from '../../scripts/gen-dtypes.mjs';

const dts = readFileSync(path.join(ROOT, 'js', 'index.d.ts'), 'utf8');

test('the Rounding union of js/index.d.ts lists the Rust core rounding modes, in order', () => {
  const modes = roundingModes();
  assert.deepEqual(modes, ['nearest-even', 'towards-zero', 'towards-positive', 'towards-negative', 'nearest-away']);
  assert.deepEqual(roundingUnion(dts), modes);
  assert.equal(roundingMismatch(dts, modes), null);
  // the shipped declarations are the checked file
  assert.deepEqual(roundingUnion(readFileSync(path.join(ROOT, 'dist', 'index.d.ts'), 'utf8')), modes);
});

test('the check fails when the union and the Rust list differ (a mode missing, added, reordered)', () => {
  const modes = roundingModes();
  const missing = dts.replace("\n  | 'nearest-away';", ';');
  assert.match(roundingMismatch(missing, modes), /the Rounding union \(nearest-even, towards-zero, towards-positive, towards-negative\) differs from the Rust core's RoundingMode::ALL/);
  const added = dts.replace("| 'nearest-away';", "| 'nearest-away'\n  | 'stochastic';");
  assert.match(roundingMismatch(added, modes), /stochastic\) differs/);
  assert.notEqual(roundingMismatch(dts, [...modes].reverse()), null);
  assert.throws(() => roundingUnion('export type Rounding = string;'), /no `export type Rounding/);
  // and so does the script, on the checked-in files it reads: exit 0 now
  execFileSync(process.execPath, ['scripts/gen-dtypes.mjs', '--check'], { cwd: ROOT, stdio: 'pipe' });
});
