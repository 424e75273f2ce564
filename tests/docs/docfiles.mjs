// The Markdown files whose examples run (tests/docs/run_js.mjs imports this; run_python.py runs it,
// and it prints them one per line): README.md, python/README.md and every .md under docs/, less
// the contributor docs that mkdocs.yml's `exclude_docs` keeps out of the site and the generated API pages
// (docs/api/javascript/, docs/api/rust/).

import { existsSync, readFileSync, readdirSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

export const ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..', '..');

/** The generated folders under docs/ (git-ignored, written by scripts/docs.sh). */
export const GENERATED = ['docs/api/javascript/', 'docs/api/rust/'];

/** The paths (relative to docs/, leading `/`) of mkdocs.yml's `exclude_docs` block. */
export function excludedDocs(root = ROOT) {
  const text = readFileSync(path.join(root, 'mkdocs.yml'), 'utf8');
  const m = /^exclude_docs:\s*\|\s*\n((?:[ \t]+\S.*\n?)+)/m.exec(text);
  if (!m) throw new Error('mkdocs.yml has no exclude_docs block');
  return m[1]
    .split('\n')
    .map((l) => l.trim())
    .filter((l) => l && !l.startsWith('#'));
}

/** The documentation files, relative to `root`, sorted. */
export function docFiles(root = ROOT) {
  const excluded = new Set(excludedDocs(root).map((p) => 'docs' + (p.startsWith('/') ? p : '/' + p)));
  const out = [];
  for (const f of ['README.md', 'python/README.md']) if (existsSync(path.join(root, f))) out.push(f);
  const walk = (dir) => {
    for (const e of readdirSync(path.join(root, dir), { withFileTypes: true })) {
      const rel = `${dir}/${e.name}`;
      if (e.isDirectory()) {
        if (!GENERATED.includes(rel + '/')) walk(rel);
      } else if (e.name.endsWith('.md') && !excluded.has(rel)) {
        out.push(rel);
      }
    }
  };
  walk('docs');
  return out.sort();
}

if (process.argv[1] && path.resolve(process.argv[1]) === fileURLToPath(import.meta.url)) {
  for (const f of docFiles()) console.log(f);
}
