// The dev server (scripts/serve.mjs, `npm start`) against the attacks of issue 12 class 7, on an
// ephemeral port: it serves only what the demo needs (DEMO_ROOTS), answers only
// Host 127.0.0.1|localhost[:its port], never redirects off-site, never serves .git or another
// dot file, and never follows a symlink out of what it serves.

import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { mkdirSync, mkdtempSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import http from 'node:http';
import net from 'node:net';
import os from 'node:os';
import path from 'node:path';

import { serve, DEMO_ROOTS, TEST_ROOTS, ROOT } from '../../scripts/serve.mjs';

let server;
let port;

before(async () => {
  server = await serve(ROOT, 0); // the defaults of `npm start`: DEMO_ROOTS
  port = server.address().port;
});

after(async () => {
  await new Promise((r) => server.close(r));
});

// One raw request (the path is sent as written, the Host header as given).
function request(rawPath, { host = `127.0.0.1:${port}`, method = 'GET', headers = {}, to = port } = {}) {
  return new Promise((resolve, reject) => {
    const req = http.request({ host: '127.0.0.1', port: to, path: rawPath, method, headers: { host, ...headers }, setHost: false }, (res) => {
      const chunks = [];
      res.on('data', (c) => chunks.push(c));
      res.on('end', () => resolve({ status: res.statusCode, headers: res.headers, body: Buffer.concat(chunks).toString('latin1') }));
    });
    req.on('error', reject);
    req.end();
  });
}

// A redirect's target must be a path on this server: one "/" and a path, never "//host" or "/\host".
function assertLocal(r, what) {
  const loc = r.headers.location;
  if (loc === undefined) return;
  assert.match(loc, /^\/(?![\/\\])/, `${what}: Location ${loc}`);
  assert.equal(new URL(loc, `http://127.0.0.1:${port}/`).host, `127.0.0.1:${port}`, `${what}: Location ${loc} leaves the server`);
}

test('serves the demo: www/, dist/, the fixture stores and the zarrita modules; / redirects to /www/; byte ranges', async () => {
  assert.deepEqual(DEMO_ROOTS.slice(0, 4), ['www/', 'dist/', 'tests/fixtures/stores/', 'tests/fixtures/cf_stores/']);
  for (const p of ['/www/', '/www/main.js', '/dist/zarrita.js', '/tests/fixtures/stores/topobathy.zarr/zarr.json', '/tests/fixtures/stores/mri_v2_fixedscaleoffset.zarr/.zarray', '/node_modules/zarrita/dist/src/index.js', '/node_modules/@zarrita/storage/dist/src/fetch.js']) {
    const r = await request(p);
    assert.equal(r.status, 200, p);
  }
  const root = await request('/');
  assert.equal(root.status, 302);
  assert.equal(root.headers.location, '/www/');
  const dir = await request('/www');
  assert.equal(dir.status, 301);
  assert.equal(dir.headers.location, '/www/');
  const range = await request('/www/main.js', { headers: { range: 'bytes=0-1' } });
  assert.equal(range.status, 206);
  assert.equal(range.body, '//');
  assert.equal((await request('/www/', { method: 'POST' })).status, 405);
});

test('answers only Host 127.0.0.1 or localhost (with this port or none); any other Host is 421, the body empty of files', async () => {
  for (const host of [`127.0.0.1:${port}`, `localhost:${port}`, 'localhost', '127.0.0.1', `LOCALHOST:${port}`]) {
    assert.equal((await request('/www/main.js', { host })).status, 200, host);
  }
  for (const host of ['evil.example', `evil.example:${port}`, `127.0.0.1.evil.example:${port}`, `localhost.evil.example`, `127.0.0.1:${port + 1 > 65535 ? 1 : port + 1}`, `[::1]:${port}`, '', `127.0.0.1:${port}@evil.example`]) {
    const r = await request('/www/main.js', { host });
    assert.equal(r.status, 421, JSON.stringify(host));
    assert.doesNotMatch(r.body, /import/, 'no file content');
  }
  // no Host header at all (HTTP/1.0)
  const raw = await new Promise((resolve, reject) => {
    const s = net.connect(port, '127.0.0.1', () => s.end('GET /www/main.js HTTP/1.0\r\n\r\n'));
    let data = '';
    s.on('data', (d) => (data += d));
    s.on('end', () => resolve(data));
    s.on('error', reject);
  });
  assert.match(raw, /^HTTP\/1\.[01] 421 /);
});

test('serves nothing else of the repository: .git, sources, package.json, other node_modules, dot files', async () => {
  for (const p of [
    '/.git/HEAD', '/.git/config', '/.git', '/www/.git/HEAD', '/tests/fixtures/stores/.git/config', '/www/.env',
    '/package.json', '/README.md', '/src/lib.rs', '/Cargo.toml', '/scripts/serve.mjs', '/js/zarrita.js', '/tests/js/serve.test.mjs',
    '/node_modules/.package-lock.json', '/node_modules/playwright-core/package.json', '/node_modules/zarrita-evil/x.js', '/wwwx/main.js', '/distx',
  ]) {
    const r = await request(p);
    assert.ok(r.status === 404 || r.status === 400, `${p}: ${r.status}`);
    assertLocal(r, p);
  }
});

test('never redirects off-site and never climbs out: encoded slashes, backslashes, dot segments, empty segments', async () => {
  const attacks = [
    '/%2Fevil.example/..%2Fwww', '/%2fevil.example/..%2fwww', '//evil.example/..', '//evil.example/www', '/%5Cevil.example/..%5Cwww', '/\\evil.example/www',
    '/www/..%2F..%2Fpackage.json', '/www/../package.json', '/www/./main.js', '/www/%2E%2E/package.json', '/www//main.js', '/www/main.js/..',
    '/www/%00', '/%E0%A4%A', '/tests/fixtures/stores/topobathy.zarr/../../../../package.json', 'http://evil.example/www/', '*',
  ];
  for (const p of attacks) {
    const r = await request(p);
    assert.ok([400, 404].includes(r.status), `${p}: ${r.status} ${r.headers.location ?? ''}`);
    assert.equal(r.headers.location, undefined, `${p}: no redirect at all`);
  }
  // the redirects it does write are local, percent-encoded paths
  const r = await request('/tests/fixtures/stores/topobathy.zarr');
  assert.equal(r.status, 301);
  assert.equal(r.headers.location, '/tests/fixtures/stores/topobathy.zarr/');
  assertLocal(r, 'directory');
});

test('symlinks: one that stays inside a served folder is followed; one out of it (file or folder) is 404', async () => {
  const tmp = mkdtempSync(path.join(os.tmpdir(), 'zso-serve-'));
  try {
    mkdirSync(path.join(tmp, 'data', 'sub'), { recursive: true });
    mkdirSync(path.join(tmp, 'outside'));
    writeFileSync(path.join(tmp, 'data', 'real.txt'), 'inside');
    writeFileSync(path.join(tmp, 'data', 'sub', 'index.html'), '<p>sub</p>');
    writeFileSync(path.join(tmp, 'secret.txt'), 'TOP-SECRET');
    writeFileSync(path.join(tmp, 'outside', 'index.html'), 'TOP-SECRET index');
    writeFileSync(path.join(tmp, 'outside', 'x.txt'), 'TOP-SECRET x');
    symlinkSync('real.txt', path.join(tmp, 'data', 'alias.txt'));
    symlinkSync('../secret.txt', path.join(tmp, 'data', 'leak.txt'));
    symlinkSync('../outside', path.join(tmp, 'data', 'dirlink'));
    symlinkSync('/etc/hostname', path.join(tmp, 'data', 'abs.txt'));
    symlinkSync(path.join(tmp, 'data'), path.join(tmp, 'data', 'sub', 'up'));
    const s = await serve(tmp, 0, { roots: ['data/'] });
    const p = s.address().port;
    try {
      const get = (x) => request(x, { host: `localhost:${p}`, to: p });
      assert.equal((await get('/data/real.txt')).body, 'inside');
      assert.equal((await get('/data/alias.txt')).body, 'inside', 'a symlink inside the folder');
      assert.equal((await get('/data/sub/up/real.txt')).body, 'inside', 'a symlink back into the folder');
      assert.equal((await get('/data/sub/')).body, '<p>sub</p>');
      for (const x of ['/data/leak.txt', '/data/dirlink/', '/data/dirlink/x.txt', '/data/dirlink', '/data/abs.txt', '/secret.txt', '/outside/x.txt']) {
        const r = await get(x);
        assert.equal(r.status, 404, x);
        assert.doesNotMatch(r.body, /TOP-SECRET/, x);
      }
    } finally {
      await new Promise((r) => s.close(r));
    }
    // A served folder that is itself a symlink: its target is the boundary.
    symlinkSync(path.join(tmp, 'outside'), path.join(tmp, 'linked'));
    const s2 = await serve(tmp, 0, { roots: ['linked/'] });
    const p2 = s2.address().port;
    try {
      assert.equal((await request('/linked/x.txt', { host: `127.0.0.1:${p2}`, to: p2 })).body, 'TOP-SECRET x');
      assert.equal((await request('/data/real.txt', { host: `127.0.0.1:${p2}`, to: p2 })).status, 404);
    } finally {
      await new Promise((r) => s2.close(r));
    }
  } finally {
    rmSync(tmp, { recursive: true, force: true });
  }
});

test('TEST_ROOTS (Playwright tests and bench) add their pages and package.json, nothing more; mounts still work', async () => {
  assert.deepEqual(TEST_ROOTS.slice(DEMO_ROOTS.length), ['tests/', 'bench/', 'package.json']);
  const tmp = mkdtempSync(path.join(os.tmpdir(), 'zso-serve-'));
  writeFileSync(path.join(tmp, 'index.js'), 'export {}');
  const s = await serve(ROOT, 0, { roots: TEST_ROOTS, mounts: { '/bench-base/': tmp } });
  const p = s.address().port;
  try {
    const get = (x) => request(x, { host: `127.0.0.1:${p}`, to: p });
    for (const x of ['/package.json', '/bench/page.html', '/tests/js/serve.test.mjs', '/bench-base/index.js']) assert.equal((await get(x)).status, 200, x);
    for (const x of ['/.git/HEAD', '/src/lib.rs', '/package-lock.json', '/bench-base/../package.json', '/node_modules/playwright-core/package.json']) {
      assert.ok([400, 404].includes((await get(x)).status), x);
    }
  } finally {
    await new Promise((r) => s.close(r));
    rmSync(tmp, { recursive: true, force: true });
  }
});

// `npm start` run as a user runs it, then stopped by the PID npm has (the one a shell's `$!` or a
// process manager holds): the server must stop with it. Before package.json's `exec` the server
// (`node scripts/serve.mjs`, a grandchild behind `sh -c`) kept running and kept its port.
async function startNpm() {
  const { spawn } = await import('node:child_process');
  const { needsBuild } = await import('../../scripts/serve.mjs');
  assert.equal(needsBuild(), false, 'dist/ is out of date: `npm run build` first (npm start would build)');
  const npm = spawn('npm', ['start'], { cwd: ROOT, env: { ...process.env, PORT: '0' }, stdio: ['ignore', 'pipe', 'pipe'] });
  let out = '';
  const port = await new Promise((resolve, reject) => {
    const timer = setTimeout(() => reject(new Error(`npm start printed no URL in 60 s:\n${out}`)), 60_000);
    const onData = (d) => {
      out += d;
      const m = /zarr-scale-offset demo: http:\/\/127\.0\.0\.1:(\d+)\/www\//.exec(out);
      if (m) {
        clearTimeout(timer);
        resolve(Number(m[1]));
      }
    };
    npm.stdout.on('data', onData);
    npm.stderr.on('data', onData);
    npm.on('exit', (code) => reject(new Error(`npm start exited (${code}):\n${out}`)));
  });
  return { npm, port };
}

// Whether something accepts connections on 127.0.0.1:port.
const listening = (port) =>
  new Promise((resolve) => {
    const s = net.connect(port, '127.0.0.1');
    s.once('connect', () => {
      s.destroy();
      resolve(true);
    });
    s.once('error', () => resolve(false));
  });

// The processes below `pid` (Linux /proc), so that a failing run does not leave a server behind.
async function descendants(pid) {
  const { readdirSync, readFileSync } = await import('node:fs');
  const out = [];
  let kids = [];
  try {
    for (const t of readdirSync(`/proc/${pid}/task`)) kids.push(...readFileSync(`/proc/${pid}/task/${t}/children`, 'utf8').split(' ').filter(Boolean).map(Number));
  } catch {
    kids = [];
  }
  for (const k of kids) out.push(k, ...(await descendants(k)));
  return out;
}

for (const signal of ['SIGTERM', 'SIGINT', 'SIGKILL']) {
  test(`npm start stops when its PID gets ${signal}: the server goes with it`, async () => {
    const { npm, port } = await startNpm();
    const below = await descendants(npm.pid);
    try {
      assert.equal(await listening(port), true, 'the demo server answers');
      npm.kill(signal);
      let up = true;
      for (let i = 0; i < 200 && up; i++) { // up to 20 s: the server polls its parent every 250 ms, slower on a loaded machine
        await new Promise((r) => setTimeout(r, 100));
        up = await listening(port);
      }
      assert.equal(up, false, `after ${signal} to npm (pid ${npm.pid}) the server on port ${port} still listens`);
    } finally {
      for (const p of below) {
        try {
          process.kill(p, 'SIGKILL');
        } catch {}
      }
    }
  });
}
