// The package as published: the exports map names only built files, `npm pack` ships exactly
// dist/ + package.json (+ README and both license texts), the packed tarball works when installed into another project (Node 20
// ESM, no flags), and the TypeScript declarations type-check (with and without Float16Array).

import { test } from 'node:test';
import assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import { existsSync, mkdirSync, mkdtempSync, readFileSync, renameSync, rmSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';

import { ROOT } from './helpers.mjs';

const pkg = JSON.parse(readFileSync(path.join(ROOT, 'package.json'), 'utf8'));

function exportTargets(value, out = []) {
  if (typeof value === 'string') out.push(value);
  else if (value && typeof value === 'object') for (const v of Object.values(value)) exportTargets(v, out);
  return out;
}

test('package.json: ESM, exports map, every named file exists after the build', () => {
  assert.equal(pkg.name, 'zarr-scale-offset');
  assert.equal(pkg.type, 'module');
  const dot = pkg.exports['.'];
  assert.ok(dot.types && dot.default, 'exports["."] has types and default');
  assert.deepEqual(Object.keys(dot), ['types', 'default'], 'types must come first');
  const targets = [...exportTargets(pkg.exports), pkg.main, pkg.module, pkg.types];
  for (const t of targets) assert.ok(existsSync(path.join(ROOT, t)), `${t} (named in package.json) does not exist`);
  assert.equal(pkg.devDependencies.binaryen, '132.0.0');
  assert.equal(pkg.license, 'MIT OR Apache-2.0');
  assert.match(pkg.repository?.url ?? '', /^git\+https:\/\/github\.com\/zarr-scale-offset\/zarr-scale-offset\.git$/);
  for (const f of ['LICENSE-MIT', 'LICENSE-APACHE']) assert.ok(existsSync(path.join(ROOT, f)), `${f} is missing`);
  assert.match(readFileSync(path.join(ROOT, 'LICENSE-MIT'), 'utf8'), /^MIT License\n\nCopyright \(c\) the zarr-scale-offset authors\n/);
  assert.match(readFileSync(path.join(ROOT, 'LICENSE-APACHE'), 'utf8'), /Apache License\s+Version 2\.0, January 2004/);
});

test('npm pack ships dist/ and package.json (plus README/LICENSE) only; the tarball works in another project', () => {
  const tmp = mkdtempSync(path.join(os.tmpdir(), 'zso-pack-'));
  try {
    const out = execFileSync('npm', ['pack', '--json', '--pack-destination', tmp], {
      cwd: ROOT,
      encoding: 'utf8',
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    const [info] = JSON.parse(out);
    // npm always adds README / LICENSE files when present; both license texts must ship.
    for (const f of ['LICENSE-MIT', 'LICENSE-APACHE', 'README.md']) assert.ok(info.files.some((x) => x.path === f), `${f} is not in the tarball`);
    const files = info.files.map((f) => f.path).filter((f) => !/^(README|LICENSE|LICENCE)/i.test(f)).sort();
    assert.deepEqual(files, [
      'dist/cf.js',
      'dist/core.js',
      'dist/index.d.ts',
      'dist/index.js',
      'dist/numbers.js',
      'dist/zarr_scale_offset.js',
      'dist/zarr_scale_offset_wasm.js',
      'dist/zarrita.d.ts',
      'dist/zarrita.js',
      'package.json',
    ]);
    const project = path.join(tmp, 'project');
    mkdirSync(path.join(project, 'node_modules'), { recursive: true });
    execFileSync('tar', ['-xzf', path.join(tmp, info.filename), '-C', tmp]);
    renameSync(path.join(tmp, 'package'), path.join(project, 'node_modules', 'zarr-scale-offset'));
    writeFileSync(path.join(project, 'package.json'), '{"name":"consumer","private":true,"type":"module"}\n');
    writeFileSync(
      path.join(project, 'main.js'),
      `import { ready, version, typedArrayKind, encode, decodeChunk } from 'zarr-scale-offset';
await ready();
const out = { version: version(), kind: typedArrayKind('int4') };
try {
  out.encoded = Array.from(encode({ name: 'scale_offset', configuration: { offset: 1, scale: 2 } }, 'int16', new Int16Array([1, 2, 3])));
} catch (e) { out.error = e.code + ': ' + e.message; }
console.log(JSON.stringify(out));
`,
    );
    const result = JSON.parse(execFileSync(process.execPath, ['main.js'], { cwd: project, encoding: 'utf8' }));
    assert.equal(result.version, pkg.version);
    assert.equal(result.kind, 'Int8Array');
    assert.equal(result.error, undefined, result.error);
    assert.deepEqual(result.encoded, [0, 2, 4]);
  } finally {
    rmSync(tmp, { recursive: true, force: true });
  }
});

test('TypeScript declarations type-check (tsc, with and without Float16Array in the lib)', () => {
  const tsc = path.join(ROOT, 'node_modules', 'typescript', 'bin', 'tsc');
  for (const project of ['tests/types', 'tests/types/no-float16']) {
    try {
      execFileSync(process.execPath, [tsc, '-p', project], { cwd: ROOT, encoding: 'utf8', stdio: 'pipe' });
    } catch (e) {
      assert.fail(`tsc -p ${project} failed:\n${e.stdout}${e.stderr}`);
    }
  }
});
