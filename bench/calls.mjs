#!/usr/bin/env node
// Times the metadata calls (see calls-core.mjs: validate, metadataWarnings, fromCF,
// fromFixedScaleOffset, decodeChunk of a chunk with new metadata) in Node and headless Chromium,
// optionally against another build in the same rounds:
//
//   node bench/calls.mjs [--node-only | --browser-only] [--samples 11] [--min-ms 12] [--only validate,fromCF]
//                        [--base path/to/other/dist]
//
// Benchmarks the built package in dist/ (run `npm run build` first).

import { mkdtempSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { pathToFileURL } from 'node:url';

import { ARGS, CHROMIUM, flag, opt } from './cli.mjs';
import { runCalls } from './calls-core.mjs';

const ROOT = path.resolve(import.meta.dirname, '..');
const samples = Number(opt('--samples', '11'));
const minMs = Number(opt('--min-ms', '12'));
const only = opt('--only', null);
const baseDir = opt('--base', null) && path.resolve(opt('--base', null));
const MOUNT = '/bench-base/';

function print(name, { rows, notes }) {
  console.log(`\n=== ${name}: µs per call (median of ${samples})${baseDir ? `; base: ${baseDir}` : ''}`);
  for (const r of rows) {
    const b = r.baseUs == null ? '' : `  base ${r.baseUs.toFixed(2).padStart(9)}  new/base ${(r.us / r.baseUs).toFixed(2)}${r.us / r.baseUs > 1.05 ? '  (> 5 % slower)' : ''}`;
    console.log(`${r.name.padEnd(22)} ${r.us.toFixed(2).padStart(9)}${b}`);
  }
  for (const n of notes) console.log(`  note: ${n}`);
}

async function runBrowser() {
  const { chromium } = await import('playwright-core');
  const { serve, TEST_ROOTS } = await import('../scripts/serve.mjs');
  const server = await serve(ROOT, 0, { roots: TEST_ROOTS, mounts: baseDir ? { [MOUNT]: baseDir } : {} });
  const profile = mkdtempSync(path.join(os.tmpdir(), 'zso-calls-profile-'));
  let ctx;
  try {
    ctx = await chromium.launchPersistentContext(profile, { executablePath: CHROMIUM, headless: true, args: ARGS });
    const page = await ctx.newPage();
    page.on('console', (m) => process.stderr.write(`  chromium: ${m.text()}\n`));
    await page.goto(`http://127.0.0.1:${server.address().port}/bench/page.html`);
    const version = await page.evaluate(() => navigator.userAgent);
    const result = await page.evaluate(async (args) => {
      const { runCalls } = await import('./calls-core.mjs');
      return runCalls(args);
    }, { samples, minMs, only, base: baseDir ? `${MOUNT}index.js` : null });
    return { version, result };
  } finally {
    await ctx?.close();
    await new Promise((r) => server.close(r));
    rmSync(profile, { recursive: true, force: true });
  }
}

if (!flag('--browser-only')) {
  const base = baseDir ? pathToFileURL(path.join(baseDir, 'index.js')).href : null;
  print(`Node ${process.version}`, await runCalls({ samples, minMs, only, base }));
}
if (!flag('--node-only')) {
  const { version, result } = await runBrowser();
  print(version.match(/Chrome\/[\d.]+/)?.[0] ?? version, result);
}
