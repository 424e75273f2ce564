#!/usr/bin/env node
// The time from importing the package entry to `ready()` resolved, in fresh Node processes:
// the start-up cost of the module alone (unpack, compile, instantiate), without zarrita.
//
//   node bench/ready.mjs [--runs 21] [--base path/to/other/dist]
//
// --base also times another build's dist/ (e.g. a worktree of main), alternating with this one
// run by run, so that both see the same machine load. Prints the minimum and the median (ms).

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

const probe = (dir) => `
const t0 = performance.now();
const m = await import(${JSON.stringify(pathToFileURL(path.join(dir, 'index.js')).href)});
await m.ready();
console.log(performance.now() - t0);`;

const times = builds.map(() => []);
for (let i = 0; i < runs; i++) {
  const order = i % 2 ? [...builds.keys()].reverse() : [...builds.keys()];
  for (const b of order) times[b].push(Number(execFileSync(process.execPath, ['--input-type=module', '-e', probe(builds[b][1])], { encoding: 'utf8' })));
}
for (const [b, [label, dir]] of builds.entries()) {
  const s = times[b].sort((x, y) => x - y);
  console.log(`${label} (${dir}): import + ready() min ${s[0].toFixed(1)} ms, median ${s[s.length >> 1].toFixed(1)} ms (${runs} fresh processes, Node ${process.version})`);
}
