// The docs' example runners (scripts/docs.sh) fail on a wrong example: tests/docs/run_js.mjs on a
// block that throws and on a type error (in a ```js and in a ```ts block), each reported at its
// Markdown file:line; tests/docs/run_python.py on a wrong doctest output. The fixtures are
// tests/docs/fixtures/*.md. Needs dist/ (the built package) and .venv (scripts/setup.sh).

import { test } from 'node:test';
import assert from 'node:assert/strict';
import { execFile } from 'node:child_process';
import { existsSync, rmSync } from 'node:fs';
import path from 'node:path';
import { promisify } from 'node:util';

import { ROOT } from './helpers.mjs';
import { extractBlocks } from '../docs/run_js.mjs';

const exec = promisify(execFile);
const FX = 'tests/docs/fixtures';

/** Runs a command in ROOT: { code, out } (stdout + stderr), never throws on a non-zero exit. */
async function runIn(cmd, args) {
  try {
    const r = await exec(cmd, args, { cwd: ROOT, maxBuffer: 64 << 20, timeout: 240_000 });
    return { code: 0, out: r.stdout + r.stderr };
  } catch (e) {
    if (typeof e.code !== 'number') throw e;
    return { code: e.code, out: `${e.stdout}${e.stderr}` };
  }
}

async function runJs(name, files) {
  const out = path.join(ROOT, 'target', `docs-runners-test-${process.pid}-${name}`);
  try {
    return await runIn(process.execPath, ['tests/docs/run_js.mjs', '--out', out, ...files.map((f) => `${FX}/${f}`)]);
  } finally {
    rmSync(out, { recursive: true, force: true });
  }
}

test('run_js: extracts js/ts fences, honours <!-- no-run: reason -->, ignores other languages', () => {
  const md = [
    '```js', 'a();', '```', // line 1
    '```python', 'not js', '```',
    '<!-- no-run: needs a DOM -->', '```js', 'document.x;', '```', // fence on line 8
    '- a list item:', '', '  ```ts', '  let x: number = 1;', '  ```', // indented, line 13
    '````md', '```js', 'inside another fence', '```', '````',
  ].join('\n');
  const b = extractBlocks(md);
  assert.deepEqual(
    b.map(({ kind, line, code, skip }) => [kind, line, code, skip]),
    [
      ['js', 1, 'a();\n', null],
      ['js', 8, 'document.x;\n', 'needs a DOM'],
      ['ts', 13, 'let x: number = 1;\n', null],
    ],
  );
  assert.throws(() => extractBlocks('<!-- no-run: -->\n```js\nx\n```\n', 'f.md'), /f\.md:1: a no-run comment needs a reason/);
  assert.throws(() => extractBlocks('text\n```js\nx\n', 'f.md'), /f\.md:2: a code fence that is never closed/);
});

test('run_js: passing blocks pass (a fixture store read over HTTP through zarrita + register)', async () => {
  const r = await runJs('good', ['js-good.md']);
  assert.equal(r.code, 0, r.out);
  assert.match(r.out, /ok {5}tests\/docs\/fixtures\/js-good\.md:3 \(js, ran\)/);
  assert.match(r.out, /ok {5}tests\/docs\/fixtures\/js-good\.md:14 \(js, ran\)/);
  assert.match(r.out, /ok {5}tests\/docs\/fixtures\/js-good\.md:24 \(ts, type-checked\)/);
  assert.match(r.out, /js examples: 2 run, 3 type-checked, 0 failed/);
  assert.match(r.out, /1 no-run skipped/);
});

test('run_js: a block that throws, a js type error and a ts type error each fail at file:line', async () => {
  const r = await runJs('bad', ['js-good.md', 'js-throws.md', 'js-type-error.md', 'ts-type-error.md']);
  assert.equal(r.code, 1, r.out);
  assert.match(r.out, /FAILED tests\/docs\/fixtures\/js-throws\.md:3 \(js\)[\s\S]*Error: this example throws/);
  assert.match(r.out, /FAILED tests\/docs\/fixtures\/js-type-error\.md:3 \(js\)\n {4}tests\/docs\/fixtures\/js-type-error\.md:6:\d+: error TS2352/);
  assert.match(r.out, /FAILED tests\/docs\/fixtures\/ts-type-error\.md:3 \(ts\)\n {4}tests\/docs\/fixtures\/ts-type-error\.md:5:\d+: error TS2820/);
  assert.match(r.out, /ok {5}tests\/docs\/fixtures\/js-good\.md:3 /);
  assert.match(r.out, /js examples: 4 run, 6 type-checked, 3 failed/);
});

const PY = path.join(ROOT, '.venv', 'bin', 'python');

test('run_python: a passing file passes, a wrong output fails with doctest\'s report', async () => {
  assert.ok(existsSync(PY), '.venv is missing: run scripts/setup.sh');
  const good = await runIn(PY, ['tests/docs/run_python.py', `${FX}/py-good.md`]);
  assert.equal(good.code, 0, good.out);
  assert.match(good.out, /ok {5}tests\/docs\/fixtures\/py-good\.md: 4 examples/);
  const bad = await runIn(PY, ['tests/docs/run_python.py', `${FX}/py-good.md`, `${FX}/py-wrong-output.md`]);
  assert.equal(bad.code, 1, bad.out);
  assert.match(bad.out, /FAILED tests\/docs\/fixtures\/py-wrong-output\.md: 2 examples, 1 failed/);
  assert.match(bad.out, /line 6[\s\S]*Expected:\s+41\s+Got:\s+42/);
  assert.match(bad.out, /python examples: 6 run in 2 of 2 files, 1 failed/);
});
