#!/usr/bin/env node
// `npm run bench`: times our decode/encode of realistic chunks against zarrita 0.7.5's JS codecs,
// a plain JS loop doing the same exact arithmetic, and a TypedArray.set copy of the output, in
// the same process, in Node and in headless Chromium (Debian's /usr/bin/chromium through
// playwright-core; no browser is ever downloaded). Prints M elements/s and the ratios, checks the
// targets of issue 5, and writes artifacts/bench.json.
//
//   node bench/run.mjs [--node-only | --browser-only] [--sizes 65536,1048576] [--only f32<-u16]
//                      [--samples 9] [--json path] [--base path/to/other/dist [--recheck 3] [--control]]
//                      [--cold-runs 5 | --no-cold]
//
// First, before the throughput rows (while the machine is quiet), the cold start of
// bench/coldstart.mjs: module import to the first decoded chunk of a fixture store, zarrita +
// this package vs zarrita alone, in --cold-runs fresh Node processes and fresh Chromium contexts
// of a Vite production build (medians; under `coldStart` in the JSON report; --no-cold skips it).
//
// It benchmarks the built package in dist/ (run `npm run build` first). `--base DIR` also loads
// another build of the package (DIR holds its index.js, e.g. a worktree of main after `npm run
// build`) into the same process and page, times its decodeChunk, decodeChunkInto and encodeChunk
// in the same interleaved rounds as ours, and prints per row both times and new/base (the median
// of the per-round ratios), flagging every call more than 10 % slower than the base build;
// `--recheck N` times each such call N more times (the two builds alone) before judging it;
// `--control` also times a second instance of this build the same way (A/A: the noise floor).

import { execFileSync } from 'node:child_process';
import { createHash } from 'node:crypto';
import { existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { pathToFileURL } from 'node:url';

import { ARGS, CHROMIUM, flag, opt } from './cli.mjs';
import { coldStart, coldStartLines } from './coldstart.mjs';
import { runBench } from './core.mjs';
import { BASE_COLUMNS, baseSummary, checks, COLUMNS, controlSummary, sizeName } from './report.mjs';

const ROOT = path.resolve(import.meta.dirname, '..');

const sizes = opt('--sizes', '65536,1048576,4194304').split(',').map(Number);
const only = opt('--only', null);
const samples = Number(opt('--samples', '9'));
const jsonPath = path.resolve(ROOT, opt('--json', 'artifacts/bench.json'));
const baseDir = opt('--base', null) && path.resolve(opt('--base', null));
// Where the page finds the base build (scripts/serve.mjs mounts baseDir there).
const BASE_MOUNT = '/bench-base/';
const recheck = Number(opt('--recheck', '0'));
const control = flag('--control');
const coldRuns = Number(opt('--cold-runs', '5'));

/** Which build a dist/ folder holds: its git checkout, branch, commit and whether it had changes, its module's hash. */
function buildInfo(dir) {
  const git = (...a) => {
    try {
      return execFileSync('git', ['-C', dir, ...a], { encoding: 'utf8', stdio: ['ignore', 'pipe', 'ignore'] }).trim();
    } catch {
      return null;
    }
  };
  const wasmJs = path.join(dir, 'zarr_scale_offset_wasm.js');
  return {
    dist: dir,
    checkout: git('rev-parse', '--show-toplevel'),
    branch: git('rev-parse', '--abbrev-ref', 'HEAD'),
    commit: git('log', '-1', '--format=%h %s')?.slice(0, 72) ?? null,
    uncommitted: git('status', '--porcelain', '--untracked-files=no') ? true : false,
    built: statSync(wasmJs).mtime.toISOString(),
    moduleSha256: createHash('sha256').update(readFileSync(wasmJs)).digest('hex').slice(0, 12),
  };
}

const describeBuild = (b) =>
  `${b.dist}: git ${b.branch ?? '?'} @ ${b.commit ?? '?'}${b.uncommitted ? ' (+ uncommitted changes)' : ''}; built ${b.built}; module sha256 ${b.moduleSha256}…`;

function table(rows, columns = COLUMNS) {
  const head = columns.map(([h]) => h);
  const lines = rows.map((r) => columns.map(([, cell]) => cell(r)));
  const widths = head.map((h, i) => Math.max(h.length, ...lines.map((l) => String(l[i]).length)));
  const fmtLine = (l) => l.map((c, i) => (i === 0 ? String(c).padEnd(widths[i]) : String(c).padStart(widths[i]))).join('  ');
  return [fmtLine(head), fmtLine(widths.map((w) => '-'.repeat(w))), ...lines.map(fmtLine)].join('\n');
}

function report(envName, result) {
  console.log(`\n=== ${envName}: M elements/s (median of ${samples} samples after warm-up); ratios are throughput ratios`);
  console.log(table(result.rows));
  const notes = result.rows.flatMap((r) => r.notes.map((n) => `  note: ${r.id} ${sizeName(r.n)}: ${n}`));
  if (notes.length) console.log(notes.join('\n'));
  console.log(`\n--- ${envName}: targets (issue 5)`);
  const mark = (ok) => (ok === null ? 'info' : ok ? 'ok  ' : 'FAIL');
  console.log(checks(result.rows).map((c) => `${mark(c.ok)} ${c.text}`).join('\n'));
  if (baseDir) {
    console.log(
      `\n--- ${envName}: this build (dist/) vs the base build (--base): median µs per call, same rounds; new/base is the median of the per-round time ratios (* rechecked)`,
    );
    console.log(table(result.rows, BASE_COLUMNS));
    console.log(`${envName}: ${baseSummary(result.rows)}`);
    const ctrl = controlSummary(result.rows);
    if (ctrl) console.log(`${envName}: ${ctrl}`);
  }
}

async function runNode() {
  const t0 = Date.now();
  const base = baseDir ? pathToFileURL(path.join(baseDir, 'index.js')).href : null;
  const result = await runBench({ sizes, only, samples, base, recheck, control, log: (m) => process.stderr.write(`  node: ${m}\n`) });
  result.env = { runtime: `Node ${process.version}`, seconds: (Date.now() - t0) / 1000 };
  return result;
}

async function runBrowser() {
  const { chromium } = await import('playwright-core');
  const { serve, TEST_ROOTS } = await import('../scripts/serve.mjs');
  const server = await serve(ROOT, 0, { roots: TEST_ROOTS, mounts: baseDir ? { [BASE_MOUNT]: baseDir } : {} });
  const base = `http://127.0.0.1:${server.address().port}`;
  const profile = mkdtempSync(path.join(os.tmpdir(), 'zso-bench-profile-'));
  let ctx;
  try {
    ctx = await chromium.launchPersistentContext(profile, { executablePath: CHROMIUM, headless: true, args: ARGS });
    const page = await ctx.newPage();
    page.on('console', (m) => process.stderr.write(`  chromium: ${m.text()}\n`));
    page.on('pageerror', (e) => process.stderr.write(`  chromium pageerror: ${e.message}\n`));
    await page.goto(`${base}/bench/page.html`);
    const t0 = Date.now();
    const result = await page.evaluate(
      (args) => window.runBench({ ...args, log: (m) => console.log(m) }),
      { sizes, only, samples, recheck, control, base: baseDir ? `${BASE_MOUNT}index.js` : null },
    );
    result.env = { runtime: `Chromium ${ctx.browser()?.version() ?? ''}`.trim(), seconds: (Date.now() - t0) / 1000 };
    if (!result.env.runtime.match(/\d/)) {
      result.env.runtime = `Chromium (${await page.evaluate(() => navigator.userAgent)})`;
    }
    return result;
  } finally {
    await ctx?.close();
    await new Promise((r) => server.close(r));
    rmSync(profile, { recursive: true, force: true });
  }
}

async function main() {
  if (!existsSync(path.join(ROOT, 'dist', 'index.js'))) {
    console.error('dist/ is missing: run `npm run build` first');
    process.exit(1);
  }
  const cpu = os.cpus()[0]?.model ?? 'unknown CPU';
  const load = () => os.loadavg().map((x) => x.toFixed(2)).join(' ');
  console.log(`machine: ${cpu}, ${os.cpus().length} logical CPUs, ${(os.totalmem() / 2 ** 30).toFixed(0)} GiB, ${os.platform()} ${os.release()}; load average ${load()}`);
  if (baseDir && !existsSync(path.join(baseDir, 'index.js'))) {
    console.error(`--base ${baseDir}: no index.js there (give the dist/ folder of a built checkout)`);
    process.exit(1);
  }
  const builds = { new: buildInfo(path.join(ROOT, 'dist')), ...(baseDir ? { base: buildInfo(baseDir) } : {}) };
  console.log(`new build:  ${describeBuild(builds.new)}`);
  if (builds.base) console.log(`base build: ${describeBuild(builds.base)}`);
  const out = { machine: { cpu, cpus: os.cpus().length, platform: `${os.platform()} ${os.release()}` }, builds, sizes, results: {} };
  if (!flag('--no-cold')) {
    console.log(`\n=== cold start: module import to the first decoded chunk (topobathy.zarr chunk [0, 0]), medians of ${coldRuns} fresh runs each`);
    out.coldStart = await coldStart({
      runs: coldRuns,
      node: !flag('--browser-only'),
      browser: !flag('--node-only'),
      log: (m) => process.stderr.write(`  ${m}\n`),
    });
    out.coldStart.loadAverage = load();
    console.log(coldStartLines(out.coldStart).join('\n'));
  }
  if (!flag('--browser-only')) {
    out.results.node = await runNode();
    report(out.results.node.env.runtime, out.results.node);
  }
  if (!flag('--node-only')) {
    out.results.chromium = await runBrowser();
    report(out.results.chromium.env.runtime, out.results.chromium);
  }
  console.log(`\nload average at the end: ${load()}`);
  mkdirSync(path.dirname(jsonPath), { recursive: true });
  writeFileSync(jsonPath, JSON.stringify(out, null, 2) + '\n');
  console.log(`\nJSON report: ${path.relative(ROOT, jsonPath)}`);
}

main().catch((e) => {
  console.error(e);
  process.exit(1);
});
