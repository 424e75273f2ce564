#!/usr/bin/env node
// What a fresh output array costs, in Node and in headless Chromium (see alloc-core.mjs): µs per
// call, M elements/s and minor page faults per call (from /proc for the renderer processes, from
// process.resourceUsage() in Node) of allocating, zeroing, touching and copying float32 arrays,
// next to decodeChunk / decodeChunkInto / encodeChunk of the float32 <- uint16 chain.
//
//   node bench/alloc.mjs [--node-only | --browser-only] [--sizes 65536,1048576,4194304]
//                        [--samples 9] [--only newF32,fill1] [--base artifacts/dist-base] [--chromium-args "--js-flags=--trace-gc"]
//
// Benchmarks the built package in dist/ (run `npm run build` first).

import { mkdtempSync, readFileSync, readdirSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';

import { ARGS, CHROMIUM, flag, opt } from './cli.mjs';
import { runAlloc } from './alloc-core.mjs';

const ROOT = path.resolve(import.meta.dirname, '..');
const sizes = opt('--sizes', '65536,1048576,4194304').split(',').map(Number);
const samples = Number(opt('--samples', '9'));
const only = opt('--only', null);
const baseDist = opt('--base', null);
const extraArgs = (opt('--chromium-args', '') || '').split(' ').filter(Boolean);

function print(name, rows) {
  console.log(`\n=== ${name}: µs per call | M float32 elements/s | minor faults per 4 KiB page written`);
  const keys = Object.keys(rows[0].us);
  const cols = rows.map((r) => `n=${r.n}`);
  const w = 22;
  console.log('variant'.padEnd(20) + cols.map((c) => c.padStart(w)).join(''));
  for (const k of keys) {
    const cells = rows.map((r) => {
      const pages = (4 * r.n) / 4096;
      const f = r.faultsPerCall[k];
      const fp = f === undefined ? '' : ` ${(f / pages).toFixed(2)}`;
      return `${r.us[k].toFixed(0)} ${r.melemsPerSec[k].toFixed(0)}${fp}`.padStart(w);
    });
    console.log(k.padEnd(20) + cells.join(''));
  }
}

// Minor faults of every process below `root` whose command line has `--type=renderer`.
function rendererFaults(root) {
  const kids = new Map();
  for (const d of readdirSync('/proc')) {
    if (!/^\d+$/.test(d)) continue;
    try {
      const stat = readFileSync(`/proc/${d}/stat`, 'utf8');
      const rest = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
      kids.set(Number(d), { ppid: Number(rest[1]), minflt: Number(rest[7]) });
    } catch {}
  }
  const below = (pid) => {
    for (let p = pid, i = 0; p > 1 && i < 50; i++) {
      if (p === root) return true;
      p = kids.get(p)?.ppid ?? 0;
    }
    return false;
  };
  let sum = 0;
  for (const [pid, k] of kids) {
    if (pid === root || !below(pid)) continue;
    let cmd = '';
    try {
      cmd = readFileSync(`/proc/${pid}/cmdline`, 'utf8');
    } catch {}
    if (cmd.includes('--type=renderer')) sum += k.minflt;
  }
  return sum;
}

async function runBrowser() {
  const { chromium } = await import('playwright-core');
  const { serve, TEST_ROOTS } = await import('../scripts/serve.mjs');
  // --base DIR (inside the repository) is imported by the page too
  const server = await serve(ROOT, 0, { roots: baseDist ? [...TEST_ROOTS, `${String(baseDist).replace(/^\.\/|\/$/g, '')}/`] : TEST_ROOTS });
  const base = `http://127.0.0.1:${server.address().port}`;
  const profile = mkdtempSync(path.join(os.tmpdir(), 'zso-alloc-profile-'));
  let ctx;
  try {
    ctx = await chromium.launchPersistentContext(profile, { executablePath: CHROMIUM, headless: true, args: [...ARGS, ...extraArgs] });
    const page = await ctx.newPage();
    page.on('console', (m) => process.stderr.write(`  chromium: ${m.text()}\n`));
    await page.exposeFunction('rendererFaults', () => rendererFaults(process.pid));
    await page.goto(`${base}/bench/page.html`);
    const version = await page.evaluate(() => navigator.userAgent);
    const rows = await page.evaluate(async (args) => {
      const { runAlloc } = await import('./alloc-core.mjs');
      return runAlloc({ ...args, faults: () => window.rendererFaults(), log: (m) => console.log(m) });
    }, { sizes, samples, only, base: baseDist });
    return { version, rows };
  } finally {
    await ctx?.close();
    await new Promise((r) => server.close(r));
    rmSync(profile, { recursive: true, force: true });
  }
}

if (!flag('--browser-only')) {
  const rows = await runAlloc({ sizes, samples, only, base: baseDist, faults: () => process.resourceUsage().minorPageFault, log: (m) => process.stderr.write(`  node: ${m}\n`) });
  print(`Node ${process.version}`, rows);
}
if (!flag('--node-only')) {
  const { version, rows } = await runBrowser();
  print(version.match(/Chrome\/[\d.]+/)?.[0] ?? version, rows);
}
