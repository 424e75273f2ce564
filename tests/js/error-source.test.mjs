// An uncaught error of this package keeps its message in sight: Node prints the source line where
// the error was created (file:line, the line, a caret) above the message, and the minified dist/
// files were one line each, so `decodeChunk({}, new Uint8Array())` printed 9,829 bytes of code
// before "Error: (root): missing required key ...". scripts/build.mjs (breakErrorLines) now gives
// every statement that creates or throws an error its own line: at most ~1 KB before the message
// (the path of the file and the statement, at most MAX_ERROR_LINE characters).

import { test } from 'node:test';
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { readFileSync, readdirSync } from 'node:fs';
import path from 'node:path';
import { pathToFileURL } from 'node:url';

import { ROOT } from './helpers.mjs';
import { breakErrorLines, MAX_ERROR_LINE } from '../../scripts/build.mjs';

const DIST = path.join(ROOT, 'dist');
const url = (f) => pathToFileURL(path.join(DIST, f)).href;

// Runs `body` (an ES module) with an uncaught error; returns stderr and the bytes before the message.
function uncaught(body, message) {
  const r = spawnSync(process.execPath, ['--input-type=module', '-e', body], { encoding: 'utf8', cwd: ROOT });
  assert.notEqual(r.status, 0, `the error was not uncaught:\n${r.stdout}${r.stderr}`);
  const at = r.stderr.indexOf(message);
  assert.ok(at >= 0, `stderr does not contain ${JSON.stringify(message)}:\n${r.stderr.slice(0, 2000)}`);
  return { stderr: r.stderr, before: Buffer.byteLength(r.stderr.slice(0, at)) };
}

const CASES = [
  // created in the wasm-bindgen glue (an error of the Rust core)
  ['decodeChunk({}, new Uint8Array()) (the Rust core, through the glue)', `import { ready, decodeChunk } from '${url('index.js')}'; await ready(); decodeChunk({}, new Uint8Array());`, 'Error: (root): missing required key "zarr_format"'],
  ['encode before ready() (js/core.js)', `import { encode } from '${url('index.js')}'; encode('scale_offset', 'float32', new Float32Array(1));`, 'not_ready'],
  ['a wrong typed array (js/core.js)', `import { ready, encode } from '${url('index.js')}'; await ready(); encode('scale_offset', 'float32', new Float64Array(1));`, 'invalid_data'],
  ['register(null) (js/zarrita.js)', `import { register } from '${url('zarrita.js')}'; register(null);`, 'TypeError: register(registry)'],
  ['keepV2Filters(null) (js/zarrita.js)', `import { keepV2Filters } from '${url('zarrita.js')}'; keepV2Filters(null);`, 'TypeError: keepV2Filters(store)'],
];

for (const [what, body, message] of CASES) {
  test(`uncaught in Node: ${what} prints at most ~1 KB before its message`, () => {
    const { stderr, before } = uncaught(body, message.includes(':') ? message : message);
    assert.ok(before <= 1024, `${before} bytes before the message:\n${stderr.slice(0, 1200)}`);
  });
}

test('every statement of dist/*.js that creates or throws an error is on a line of its own, at most MAX_ERROR_LINE long', () => {
  const files = readdirSync(DIST).filter((f) => f.endsWith('.js'));
  assert.ok(files.length >= 7, files.join());
  for (const f of files) {
    const code = readFileSync(path.join(DIST, f), 'utf8');
    // breaking again changes nothing: every such statement already starts and ends a line
    assert.equal(breakErrorLines(f, code), code, `${f}: an error statement shares its line`);
  }
  // and the function does what it says on a one-line program, without changing its meaning
  const one = 'function f(e){if(!e)throw Error("no "+e);return e}const g=()=>{const x=new TypeError("t");return x};export{f,g};';
  const broken = breakErrorLines('t.js', one);
  assert.deepEqual(broken.split('\n'), ['function f(e){if(!e)', 'throw Error("no "+e);', 'return e}const g=()=>{', 'const x=new TypeError("t");', 'return x};export{f,g};']);
  assert.throws(() => breakErrorLines('t.js', `throw Error("${'x'.repeat(MAX_ERROR_LINE)}")`), /more than 400/);
});
