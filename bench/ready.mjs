#!/usr/bin/env node
// Start-up of the package alone (without zarrita), in fresh Node processes: the time to import
// the package entry, to `ready()` resolved (unpack, compile, instantiate), and the first `bind`
// and first decode of the topobathy fixture's chain ([scale_offset, cast_value] float32 <- uint16
// with a NaN scalar_map; 1,024 elements), which is where V8 compiles the WebAssembly functions
// they call; then the same bind and decode again (compiled: the difference is the first-call cost).
//
//   node bench/ready.mjs [--runs 21] [--base path/to/other/dist]
//
// --base also times another build's dist/ (e.g. a worktree of main), alternating with this one
// run by run, so that both see the same machine load. Prints the minimum of import + ready() and
// the median of every phase (ms).

import { execFileSync } from 'node:child_process';
import { existsSync } from 'node:fs';
import path from 'node:path';
import { pathToFileURL } from 'node:url';

import { opt } from './cli.mjs';

const ROOT = path.resolve(import.meta.dirname, '..');
const runs = Number(opt('--runs', '21'));
const builds = [['this build', path.join(ROOT, 'dist')]];
if (opt('--base', null)) builds.push(['base', path.resolve(opt('--base', null))]);
for (const [, dir] of builds) if (!existsSync(path.join(dir, 'index.js'))) throw new Error(`${dir}/index.js is missing (npm run build)`);

const CODECS = [
  { name: 'scale_offset', configuration: { offset: -1500, scale: 10 } },
  { name: 'cast_value', configuration: { data_type: 'uint16', scalar_map: { encode: [['NaN', 0]], decode: [[0, 'NaN']] } } },
];

const probe = (dir) => `
const t0 = performance.now();
const m = await import(${JSON.stringify(pathToFileURL(path.join(dir, 'index.js')).href)});
const t1 = performance.now();
await m.ready();
const t2 = performance.now();
const codecs = ${JSON.stringify(CODECS)};
const input = new Uint16Array(1024).map((_, i) => (i * 37) & 0xffff);
const b = m.bind(codecs, 'float32');
const t3 = performance.now();
const out = b.decode(input);
const t4 = performance.now();
m.bind(codecs, 'float32').decode(input);
const t5 = performance.now();
if (!(out.length === 1024 && Number.isNaN(out[0]) && out[1] === Math.fround(Math.fround(37 / 10) - 1500))) throw new Error('wrong values: ' + out.slice(0, 2));
console.log(JSON.stringify({ total: t2 - t0, import: t1 - t0, ready: t2 - t1, bind: t3 - t2, decode: t4 - t3, again: t5 - t4 }));`;

const times = builds.map(() => []);
for (let i = 0; i < runs; i++) {
  const order = i % 2 ? [...builds.keys()].reverse() : [...builds.keys()];
  for (const b of order) times[b].push(JSON.parse(execFileSync(process.execPath, ['--input-type=module', '-e', probe(builds[b][1])], { encoding: 'utf8' })));
}
const median = (xs) => [...xs].sort((x, y) => x - y)[xs.length >> 1];
for (const [b, [label, dir]] of builds.entries()) {
  const t = times[b];
  const min = Math.min(...t.map((r) => r.total));
  const phases = ['import', 'ready', 'bind', 'decode', 'again'].map((k) => `${k === 'again' ? 'bind + decode again' : k === 'bind' || k === 'decode' ? `first ${k}` : k} ${median(t.map((r) => r[k])).toFixed(2)}`);
  console.log(`${label} (${dir}): import + ready() min ${min.toFixed(1)} ms, median ${median(t.map((r) => r.total)).toFixed(1)} ms; medians (ms): ${phases.join(', ')} (${runs} fresh processes, Node ${process.version})`);
}
