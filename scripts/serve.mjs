#!/usr/bin/env node
// A tiny static file server for the demo page (`npm start`), the Playwright tests and the bench.
//
//   node scripts/serve.mjs [--build-if-needed] [--port N] [--log]     (PORT env var also works)
//
// It listens on 127.0.0.1 only and serves only what it is told to (`roots`, paths relative to the
// repository): `npm start` serves DEMO_ROOTS -- the demo page, the package build, the fixture
// stores the demo reads and the zarrita modules its import map names -- and nothing else of the
// repository (no .git, no sources). Every request, whatever the roots:
//
//   - answers only `Host: 127.0.0.1` or `Host: localhost`, with or without this server's port
//     (421 otherwise: a DNS-rebinding page on another name cannot read it);
//   - refuses encoded slashes and backslashes, `..`, empty segments and dot files other than the
//     Zarr v2 keys .zarray/.zattrs/.zgroup/.zmetadata (400/404), so a redirect it writes is
//     always a path on this server (`/%2Fevil.example/..%2Fwww` is 400, never
//     `Location: //evil.example/...`);
//   - serves a file only if its real path (symlinks resolved) is inside the real path of the root
//     it was asked under: a symlink out of what is served is 404.
//
// `/` redirects to `/www/`. With --build-if-needed it first runs scripts/setup.sh --no-browser and
// `npm run build` when dist/ is missing or older than its sources.

import { spawnSync } from 'node:child_process';
import { createReadStream, existsSync, readdirSync, realpathSync, statSync } from 'node:fs';
import http from 'node:http';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

export const ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');

/**
 * What `npm start` serves (relative to the repository; a trailing `/` is a folder and all below
 * it, otherwise one file). To show another store in the demo, add its folder here.
 */
export const DEMO_ROOTS = Object.freeze([
  'www/',
  'dist/',
  'tests/fixtures/stores/',
  'tests/fixtures/cf_stores/',
  // the modules the demo's import map names, and what they import
  'node_modules/zarrita/',
  'node_modules/@zarrita/storage/',
  'node_modules/numcodecs/',
]);

/** What the Playwright tests and the bench serve: the demo's roots, their own pages and package.json. */
export const TEST_ROOTS = Object.freeze([...DEMO_ROOTS, 'tests/', 'bench/', 'package.json']);

const MIME = {
  '.html': 'text/html; charset=utf-8',
  '.js': 'text/javascript; charset=utf-8',
  '.mjs': 'text/javascript; charset=utf-8',
  '.css': 'text/css; charset=utf-8',
  '.json': 'application/json; charset=utf-8',
  '.wasm': 'application/wasm',
  '.ts': 'text/plain; charset=utf-8',
  '.md': 'text/plain; charset=utf-8',
  '.txt': 'text/plain; charset=utf-8',
  '.png': 'image/png',
  '.svg': 'image/svg+xml',
  '.ico': 'image/x-icon',
};

// Dot files a Zarr v2 store has; any other segment starting with "." (.git, .env, ...) is never served.
const ZARR_DOT_FILES = new Set(['.zarray', '.zattrs', '.zgroup', '.zmetadata']);

const HOST = /^(127\.0\.0\.1|localhost)(?::(\d{1,5}))?$/i;

// The real path of `p`, or null if it does not exist.
function real(p) {
  try {
    return realpathSync(p);
  } catch {
    return null;
  }
}

const inside = (file, dir) => file === dir || file.startsWith(dir.endsWith(path.sep) ? dir : dir + path.sep);

// A URL path for a Location header: segments percent-encoded, so it is always a path on this
// server (it starts with one "/" followed by a non-empty, encoded segment).
const locationOf = (segments, slash) => `/${segments.map(encodeURIComponent).join('/')}${slash ? '/' : ''}`;

/**
 * Starts a static server for `root` on 127.0.0.1:`port` (0 = any free port). Resolves to the
 * http.Server once it listens; `server.address().port` is the port. `roots` lists what is served
 * (relative to `root`, default DEMO_ROOTS); `mounts` maps URL prefixes ending in `/` to other
 * folders (e.g. `{ '/bench-base/': '/path/to/dist' }` for bench/run.mjs --base).
 */
export function serve(root = ROOT, port = 0, { log = false, mounts = {}, roots = DEMO_ROOTS } = {}) {
  const base = path.resolve(root);
  const server = http.createServer((req, res) => {
    const done = (status, headers, body) => {
      res.writeHead(status, { 'cache-control': 'no-store', 'content-type': 'text/plain; charset=utf-8', ...headers });
      res.end(req.method === 'HEAD' ? undefined : body);
      if (log) console.log(`${status} ${req.method} ${req.url}`);
    };
    try {
      handle(req, res, done);
    } catch (e) {
      if (!res.headersSent) done(500, {}, 'internal error\n');
      else res.destroy();
      if (log) console.error(e);
    }
  });

  function handle(req, res, done) {
    const host = HOST.exec(req.headers.host ?? '');
    if (!host || (host[2] !== undefined && Number(host[2]) !== server.address().port)) {
      return done(421, {}, 'misdirected request: this server answers only Host 127.0.0.1 or localhost\n');
    }
    if (req.method !== 'GET' && req.method !== 'HEAD') {
      return done(405, { allow: 'GET, HEAD' }, 'method not allowed\n');
    }
    // origin-form only ("/path?query"), no encoded or literal backslash, no encoded slash or NUL
    const rawPath = (req.url ?? '').split('?')[0];
    if (!rawPath.startsWith('/') || /%2f|%5c|%00|\\/i.test(rawPath)) return done(400, {}, 'bad request\n');
    let pathname;
    try {
      pathname = decodeURIComponent(rawPath);
    } catch {
      return done(400, {}, 'bad request\n');
    }
    if (pathname === '/') return done(302, { location: '/www/' }, '');
    const slash = pathname.endsWith('/');
    const segments = pathname.slice(1, slash ? -1 : undefined).split('/');
    if (segments.some((s) => s === '' || s === '.' || s === '..' || s.includes('\0'))) return done(400, {}, 'bad request\n');
    if (segments.some((s) => s.startsWith('.') && !ZARR_DOT_FILES.has(s))) return done(404, {}, 'not found\n');

    // which root (or mount) the path is asked under, and the folder or file it stands for
    const rel = segments.join('/');
    let dir = null; // the root's folder, or null for a one-file root
    let file;
    const mount = Object.keys(mounts).find((p) => pathname.startsWith(p) || pathname === p.slice(0, -1));
    if (mount) {
      dir = path.resolve(mounts[mount]);
      file = path.join(dir, ...pathname.slice(mount.length).split('/').filter(Boolean));
    } else {
      const r = roots.find((x) => (x.endsWith('/') ? rel + '/' === x || rel.startsWith(x) : rel === x));
      if (r === undefined) return done(404, {}, `not found: ${pathname}\n`);
      if (r.endsWith('/')) dir = path.join(base, ...r.split('/').filter(Boolean));
      file = path.join(base, ...segments);
    }
    // real paths: the file must lie inside its root's real folder (or be the one-file root)
    const boundary = real(dir ?? file);
    let realFile = real(file);
    if (boundary === null || realFile === null || !inside(realFile, boundary)) return done(404, {}, `not found: ${pathname}\n`);
    let st = statSync(realFile);
    if (st.isDirectory()) {
      if (!slash) return done(301, { location: locationOf(segments, true) }, '');
      realFile = real(path.join(realFile, 'index.html'));
      if (realFile === null || !inside(realFile, boundary)) return done(404, {}, `not found: ${pathname}\n`);
      st = statSync(realFile);
    }
    if (!st.isFile()) return done(404, {}, `not found: ${pathname}\n`);
    sendFile(req, res, realFile, st, done, log);
  }

  return new Promise((resolve, reject) => {
    server.once('error', reject);
    server.listen(port, '127.0.0.1', () => resolve(server));
  });
}

function sendFile(req, res, file, st, done, log) {
  // a file that goes away while it is read ends the response, not the server
  const stream = (opts) => createReadStream(file, opts).on('error', () => res.destroy());
  // Extension-less files (zarr chunk keys such as c/0/0) are raw bytes.
  const type = MIME[path.extname(file).toLowerCase()] ?? 'application/octet-stream';
  // Byte ranges (zarrita reads shard indexes and inner chunks with Range requests):
  // "bytes=a-b", "bytes=a-" and the suffix form "bytes=-n"; one range per request.
  const range = /^bytes=(\d*)-(\d*)$/.exec(req.headers.range ?? '');
  if (req.headers.range !== undefined && range && (range[1] !== '' || range[2] !== '')) {
    let start;
    let end;
    if (range[1] === '') {
      start = Math.max(0, st.size - Number(range[2]));
      end = st.size - 1;
    } else {
      start = Number(range[1]);
      end = range[2] === '' ? st.size - 1 : Math.min(Number(range[2]), st.size - 1);
    }
    if (start > end || start >= st.size) {
      return done(416, { 'content-range': `bytes */${st.size}` }, 'range not satisfiable\n');
    }
    res.writeHead(206, {
      'content-type': type,
      'content-length': end - start + 1,
      'content-range': `bytes ${start}-${end}/${st.size}`,
      'accept-ranges': 'bytes',
      'cache-control': 'no-store',
    });
    if (log) console.log(`206 ${req.method} ${req.url} ${start}-${end}`);
    if (req.method === 'HEAD') return res.end();
    return stream({ start, end }).pipe(res);
  }
  res.writeHead(200, { 'content-type': type, 'content-length': st.size, 'accept-ranges': 'bytes', 'cache-control': 'no-store' });
  if (log) console.log(`200 ${req.method} ${req.url}`);
  if (req.method === 'HEAD') return res.end();
  stream().pipe(res);
}

function newestMtime(p) {
  if (!existsSync(p)) return 0;
  const st = statSync(p);
  if (!st.isDirectory()) return st.mtimeMs;
  let m = st.mtimeMs;
  for (const e of readdirSync(p)) m = Math.max(m, newestMtime(path.join(p, e)));
  return m;
}

/** Whether dist/ is missing or older than js/, src/, crates/, Cargo.toml or Cargo.lock. */
export function needsBuild(root = ROOT) {
  const outputs = ['core.js', 'index.js', 'numbers.js', 'index.d.ts', 'zarrita.js', 'zarrita.d.ts', 'zarr_scale_offset.js', 'zarr_scale_offset_wasm.js'].map((f) =>
    path.join(root, 'dist', f),
  );
  if (!outputs.every(existsSync)) return true;
  const built = Math.min(...outputs.map((f) => statSync(f).mtimeMs));
  const sources = ['js', 'src', 'crates', 'Cargo.toml', 'Cargo.lock', 'scripts/build.mjs'].map((f) => path.join(root, f));
  return Math.max(...sources.map(newestMtime)) > built;
}

function run(cmd, args) {
  console.log(`$ ${cmd} ${args.join(' ')}`);
  const r = spawnSync(cmd, args, { cwd: ROOT, stdio: 'inherit' });
  if (r.status !== 0) {
    console.error(`${cmd} ${args.join(' ')} failed (${r.error?.message ?? `exit ${r.status}`})`);
    process.exit(1);
  }
}

async function main() {
  const argv = process.argv.slice(2);
  const portArg = argv.indexOf('--port');
  const port = Number(portArg >= 0 ? argv[portArg + 1] : (process.env.PORT ?? 8080));
  if (argv.includes('--build-if-needed')) {
    if (needsBuild()) {
      console.log('dist/ is missing or out of date: installing what is missing, then building');
      run('bash', ['scripts/setup.sh', '--no-browser']);
      run('npm', ['run', 'build']);
    } else {
      console.log('dist/ is up to date (npm run build to rebuild)');
    }
  }
  let server;
  try {
    server = await serve(ROOT, port, { log: argv.includes('--log') });
  } catch (e) {
    if (e.code !== 'EADDRINUSE') throw e;
    console.log(`port ${port} is in use; using a free port instead`);
    server = await serve(ROOT, 0, { log: argv.includes('--log') });
  }
  const url = `http://127.0.0.1:${server.address().port}/www/`;
  console.log(`\nzarr-scale-offset demo: ${url}\n(serving ${DEMO_ROOTS.join(', ')} of ${ROOT}; Ctrl-C to stop)`);
  stopWithParent();
}

// Stopping `npm start` stops the server. package.json's script is `exec node scripts/serve.mjs`,
// so npm's child is this process (no `sh` in between that would swallow the signal) and npm
// forwards SIGINT and SIGTERM to it. npm forwards nothing else and cannot forward SIGKILL; so,
// when npm runs this, the server also exits once npm is gone (its parent process changes).
function stopWithParent() {
  if (process.env.npm_lifecycle_event !== 'start') return;
  const parent = process.ppid;
  setInterval(() => {
    if (process.ppid !== parent) {
      console.log('npm start ended: stopping the server');
      process.exit(0);
    }
  }, 250).unref();
}

if (process.argv[1] && path.resolve(process.argv[1]) === fileURLToPath(import.meta.url)) {
  main().catch((e) => {
    console.error(e);
    process.exit(1);
  });
}
