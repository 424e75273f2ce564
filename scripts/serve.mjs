#!/usr/bin/env node
// A tiny static file server for the demo page (`npm start`) and the Playwright test.
//
//   node scripts/serve.mjs [--build-if-needed] [--port N]     (PORT env var also works)
//
// Serves the repository root on 127.0.0.1 (so /www/, /dist/ and /tests/fixtures/ are all
// reachable); `/` redirects to `/www/`. With --build-if-needed it first runs scripts/setup.sh
// --no-browser and `npm run build` when dist/ is missing or older than its sources.

import { spawnSync } from 'node:child_process';
import { createReadStream, existsSync, readdirSync, statSync } from 'node:fs';
import http from 'node:http';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

export const ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');

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

/**
 * Starts a static server for `root` on 127.0.0.1:`port` (0 = any free port). Resolves to the
 * http.Server once it listens; `server.address().port` is the port. `mounts` maps URL prefixes
 * ending in `/` to other folders (e.g. `{ '/bench-base/': '/path/to/dist' }` for bench/run.mjs --base).
 */
export function serve(root = ROOT, port = 0, { log = false, mounts = {} } = {}) {
  const server = http.createServer((req, res) => {
    const done = (status, headers, body) => {
      res.writeHead(status, { 'cache-control': 'no-store', ...headers });
      res.end(body);
      if (log) console.log(`${status} ${req.method} ${req.url}`);
    };
    if (req.method !== 'GET' && req.method !== 'HEAD') {
      return done(405, { 'content-type': 'text/plain', allow: 'GET, HEAD' }, 'method not allowed\n');
    }
    let pathname;
    try {
      pathname = decodeURIComponent(new URL(req.url, 'http://localhost').pathname);
    } catch {
      return done(400, { 'content-type': 'text/plain' }, 'bad request\n');
    }
    if (pathname === '/') return done(302, { location: '/www/' }, '');
    const mount = Object.keys(mounts).find((p) => pathname.startsWith(p));
    const base = path.resolve(mount ? mounts[mount] : root);
    let file = path.resolve(base, '.' + (mount ? pathname.slice(mount.length - 1) : pathname));
    if (file !== base && !file.startsWith(base + path.sep)) {
      return done(403, { 'content-type': 'text/plain' }, 'forbidden\n');
    }
    let st;
    try {
      st = statSync(file);
      if (st.isDirectory()) {
        if (!pathname.endsWith('/')) return done(301, { location: pathname + '/' }, '');
        file = path.join(file, 'index.html');
        st = statSync(file);
      }
    } catch {
      return done(404, { 'content-type': 'text/plain' }, `not found: ${pathname}\n`);
    }
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
        return done(416, { 'content-type': 'text/plain', 'content-range': `bytes */${st.size}` }, 'range not satisfiable\n');
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
      return createReadStream(file, { start, end }).pipe(res);
    }
    res.writeHead(200, { 'content-type': type, 'content-length': st.size, 'accept-ranges': 'bytes', 'cache-control': 'no-store' });
    if (log) console.log(`200 ${req.method} ${req.url}`);
    if (req.method === 'HEAD') return res.end();
    createReadStream(file).pipe(res);
  });
  return new Promise((resolve, reject) => {
    server.once('error', reject);
    server.listen(port, '127.0.0.1', () => resolve(server));
  });
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
  const outputs = ['index.js', 'index.d.ts', 'zarrita.js', 'zarrita.d.ts', 'zarr_scale_offset.js', 'zarr_scale_offset_wasm.js'].map((f) =>
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
  console.log(`\nzarr-scale-offset demo: ${url}\n(serving ${ROOT}; Ctrl-C to stop)`);
}

if (process.argv[1] && path.resolve(process.argv[1]) === fileURLToPath(import.meta.url)) {
  main().catch((e) => {
    console.error(e);
    process.exit(1);
  });
}
