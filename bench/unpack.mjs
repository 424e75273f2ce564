#!/usr/bin/env node
// The time to unpack the inlined WebAssembly module (base64 + the LZMA decoder crates/unpack, run
// by js/unpack.js): `wasmBytes()` from
// dist/zarr_scale_offset_wasm.js, cold (the first call in a fresh process or page, as at start-up,
// where the decoder still runs in V8's interpreter and baseline tiers) and warm (best of 20 later
// calls in the same process or page).
//
//   node bench/unpack.mjs [--runs 15] [--node-only | --browser-only] [--baseline old_wasm.js[,other.js]]
//
// Cold: --runs fresh `node` processes, and --runs fresh browser contexts (each its own page, with
// nothing cached) in one headless Chromium (Debian's /usr/bin/chromium through playwright-core;
// never a downloaded browser). Reports the median and the minimum of the first calls and the best
// warm call. --baseline also times another build of the file (e.g. a copy of dist/ from before a
// change), alternating with the current one run by run, so that both see the same machine load.
// It times the built package in dist/ (run `npm run build` first).

import { spawnSync } from 'node:child_process';
import { existsSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { pathToFileURL } from 'node:url';
import { chromium } from 'playwright-core';

import { ARGS, CHROMIUM, flag, opt } from './cli.mjs';

const ROOT = path.resolve(import.meta.dirname, '..');
const runs = Number(opt('--runs', '15'));
const WARM = 20;

// Where this work started: commit 6012ff5 (Node 20 decoded the base64 with a JavaScript table
// loop), measured with this script (--runs 15, --baseline a copy of that dist file) in the same
// run as the Buffer.from change, on a 2-core machine busy with other builds: first call median /
// min, warm best of 20 (ms). Medians swing by tens of ms with the load; compare in one run.
const STARTED_FROM = {
  node: { median: 36.7, min: 27.8, warm: 11.4 },
  chromium: { median: 71.0, min: 31.4, warm: 12.8 },
};

const files = [['current', path.join(ROOT, 'dist', 'zarr_scale_offset_wasm.js')]];
// --baseline a.js[,b.js...]: other builds of the file, labelled by their file names.
for (const f of opt('--baseline', '').split(',').filter(Boolean)) files.push([path.basename(f, '.js'), path.resolve(f)]);
for (const [, f] of files) if (!existsSync(f)) throw new Error(`${f} is missing (run npm run build)`);

// Run in the fresh process / page: import, the first call, then the best of WARM calls.
const probe = async (url, warm) => {
  const m = await import(url);
  let t = performance.now();
  const bytes = await m.wasmBytes();
  const first = performance.now() - t;
  let best = Infinity;
  for (let i = 0; i < warm; i++) {
    t = performance.now();
    await m.wasmBytes();
    best = Math.min(best, performance.now() - t);
  }
  return { first, warm: best, size: bytes.length };
};

function nodeRun(file) {
  const script = `(${probe})(${JSON.stringify(pathToFileURL(file).href)}, ${WARM}).then((r) => console.log(JSON.stringify(r)))`;
  const r = spawnSync(process.execPath, ['--input-type=module', '-e', script], { encoding: 'utf8' });
  if (r.status !== 0) throw new Error(`node: ${r.stderr}`);
  return JSON.parse(r.stdout);
}

async function chromiumRuns(n) {
  const browser = await chromium.launch({ executablePath: CHROMIUM, headless: true, args: ARGS });
  const results = Object.fromEntries(files.map(([label]) => [label, []]));
  try {
    for (let i = 0; i < n; i++) {
      for (const [label, file] of i % 2 ? [...files].reverse() : files) {
        const ctx = await browser.newContext();
        await ctx.route('http://zso.test/**', (route) => {
          const u = new URL(route.request().url());
          if (u.pathname === '/m.js') return route.fulfill({ contentType: 'text/javascript', body: readFileSync(file) });
          return route.fulfill({ contentType: 'text/html', body: '<!doctype html><title>unpack</title>' });
        });
        const page = await ctx.newPage();
        await page.goto('http://zso.test/');
        results[label].push(await page.evaluate(`(${probe})('/m.js', ${WARM})`));
        await ctx.close();
      }
    }
  } finally {
    await browser.close();
  }
  return results;
}

function summary(rs) {
  const firsts = rs.map((r) => r.first).sort((a, b) => a - b);
  const mid = firsts.length >> 1;
  const median = firsts.length % 2 ? firsts[mid] : (firsts[mid - 1] + firsts[mid]) / 2;
  return { median, min: firsts[0], warm: Math.min(...rs.map((r) => r.warm)) };
}

const fmt = (s) => `first call median ${s.median.toFixed(1).padStart(5)} ms, min ${s.min.toFixed(1).padStart(5)} ms; warm best of ${WARM} ${s.warm.toFixed(1).padStart(5)} ms`;

function print(engine, results) {
  console.log(`${engine} (${runs} fresh ${engine === 'node' ? 'processes' : 'contexts'} each):`);
  for (const [label, rs] of Object.entries(results)) console.log(`  ${label.padEnd(16)} ${fmt(summary(rs))}`);
  console.log(`  ${'started from'.padEnd(16)} ${fmt(STARTED_FROM[engine])}  (6012ff5, recorded earlier)`);
}

if (!flag('--browser-only')) {
  const results = Object.fromEntries(files.map(([label]) => [label, []]));
  for (let i = 0; i < runs; i++) {
    for (const [label, file] of i % 2 ? [...files].reverse() : files) results[label].push(nodeRun(file));
  }
  print(`node`, results);
  console.log(`  (Node ${process.versions.node})`);
}
if (!flag('--node-only')) {
  print('chromium', await chromiumRuns(runs));
}
