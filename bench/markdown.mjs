#!/usr/bin/env node
// Markdown tables from a bench JSON report (artifacts/bench.json by default), so that the numbers
// in README.md and docs/PERFORMANCE.md are pasted from a run, never typed:
//
//   node bench/markdown.mjs [--json path] readme   # 4 Mi ratios ÷ zarrita, both runtimes, targets
//   node bench/markdown.mjs [--json path] docs     # every row, one table per runtime
//   node bench/markdown.mjs [--json path] base     # a run with --base: this build vs the base build
//   node bench/markdown.mjs [--json path] cold     # the cold-start table (bench/coldstart.mjs)

import { readFileSync } from 'node:fs';
import path from 'node:path';

import { opt } from './cli.mjs';
import { BASE_COLUMNS, baseSummary, checks, controlSummary, COLUMNS, fmtRatio, isKeyRow, sizeName } from './report.mjs';

const ROOT = path.resolve(import.meta.dirname, '..');
const report = JSON.parse(readFileSync(path.resolve(ROOT, opt('--json', 'artifacts/bench.json')), 'utf8'));
const envs = Object.values(report.results);
const mdRow = (cells) => `| ${cells.join(' | ')} |`;

function docs() {
  const out = [];
  for (const e of envs) {
    out.push(`**${e.env.runtime}** (M elements/s)`, '');
    out.push(mdRow(COLUMNS.map(([h]) => h.replace('dec/', 'decode ÷ ').replace('into/', 'decodeInto ÷ ').replace('enc/', 'encode ÷ '))));
    out.push(mdRow(COLUMNS.map((_, i) => (i === 0 ? '---' : '---:'))));
    for (const r of e.rows) out.push(mdRow(COLUMNS.map(([, cell]) => cell(r))));
    out.push('');
  }
  return out;
}

function readme() {
  const n = Math.max(...report.sizes);
  const ratio = (r, k) => (r ? fmtRatio(r.melemsPerSec[k], r.melemsPerSec.zarrita) : '—');
  const head = ['chain', ...envs.flatMap((e) => ['decode', 'decodeInto', 'encode'].map((k) => `${e.env.runtime.split(' ')[0]} ${k}`))];
  const out = [mdRow(head), mdRow(head.map((_, i) => (i === 0 ? '---' : '---:')))];
  // Only the rows zarrita has codecs for (the others, against the JS loop, are in docs/).
  const ids = [...new Set(envs.flatMap((e) => e.rows.filter((r) => r.melemsPerSec.zarrita != null).map((r) => r.id)))];
  for (const id of ids) {
    const rows = envs.map((e) => e.rows.find((r) => r.id === id && r.n === n));
    out.push(mdRow([id, ...rows.flatMap((r) => ['decode', 'decodeInto', 'encode'].map((k) => ratio(r, k)))]));
  }
  out.push('');
  for (const e of envs) {
    const key = e.rows.find(isKeyRow);
    const cs = checks(e.rows).filter((c) => c.ok !== null);
    const miss = cs.filter((c) => !c.ok).map((c) => c.text);
    const memcpy = key ? `; float32 ← uint16 at ${sizeName(key.n)}: decode ${fmtRatio(key.melemsPerSec.decode, key.melemsPerSec.memcpy)} and decodeInto ${fmtRatio(key.melemsPerSec.decodeInto, key.melemsPerSec.memcpy)} of memcpy` : '';
    out.push(`- ${e.env.runtime}: ${cs.length - miss.length} of ${cs.length} target checks pass${memcpy}.${miss.length ? ` Misses: ${miss.join('; ')}.` : ''}`);
  }
  return out;
}

function base() {
  if (!report.builds?.base) throw new Error('this report has no base build: run bench/run.mjs with --base');
  const b = (x) =>
    `${x.commit ? `${x.branch} @ ${x.commit.split(' ')[0]}${x.uncommitted ? ' + uncommitted changes' : ''}` : x.dist} (module sha256 ${x.moduleSha256}…)`;
  const out = [`New: ${b(report.builds.new)}; base: ${b(report.builds.base)}. median µs per call, both builds in the same interleaved rounds; new/base is the median of the per-round time ratios (above 1.10: SLOWER; * rechecked).`, ''];
  for (const e of envs) {
    const ctrl = controlSummary(e.rows);
    out.push(`**${e.env.runtime}**: ${baseSummary(e.rows)}${ctrl ? `. ${ctrl}` : ''}`, '');
    out.push(mdRow(BASE_COLUMNS.map(([h]) => h)));
    out.push(mdRow(BASE_COLUMNS.map((_, i) => (i === 0 ? '---' : '---:'))));
    for (const r of e.rows) out.push(mdRow(BASE_COLUMNS.map(([, cell]) => cell(r))));
    out.push('');
  }
  return out;
}

function cold() {
  if (!report.coldStart) throw new Error('this report has no cold start: run bench/run.mjs without --no-cold');
  const m = report.machine;
  const envs = Object.entries(report.coldStart).filter(([, r]) => r && typeof r === 'object' && 'oursMs' in r);
  const ms = (x) => `${x.toFixed(1)} ms`;
  const out = [mdRow(['runtime', 'zarrita + zarr-scale-offset', 'zarrita alone', 'difference', 'target ≤ 10 ms', 'fastest runs'])];
  out.push(mdRow(['---', '---:', '---:', '---:', '---', '---:']));
  for (const [, r] of envs) {
    const fastest = r.oursMinMs === undefined ? '—' : `${ms(r.oursMinMs)} vs ${ms(r.zarritaMinMs)}`;
    out.push(mdRow([`${r.runtime} (${r.runs} fresh ${r.runtime.startsWith('Node') ? 'processes' : 'contexts'})`, ms(r.oursMs), ms(r.zarritaMs), `${r.diffMs >= 0 ? '+' : ''}${ms(r.diffMs)}`, r.ok ? 'met' : 'missed', fastest]));
  }
  out.push('', `Medians (and the fastest run of each); ${m.cpu}, ${m.cpus} logical CPUs, ${m.platform}; load average ${report.coldStart.loadAverage ?? '?'} at the end.`);
  return out;
}

const args = process.argv.slice(2);
const what = args.find((a, i) => !a.startsWith('--') && args[i - 1] !== '--json');
const modes = { readme, docs, base, cold };
if (!Object.hasOwn(modes, what)) {
  console.error('usage: node bench/markdown.mjs [--json path] readme|docs|base|cold');
  process.exit(2);
}
console.log(modes[what]().join('\n'));
