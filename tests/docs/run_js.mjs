#!/usr/bin/env node
// tests/docs/run_js.mjs: type-checks and runs the JavaScript and TypeScript examples of the docs.
//
//   node tests/docs/run_js.mjs [--out DIR] [FILE.md ...]
//
// Without files: README.md, python/README.md and docs/**/*.md (tests/docs/docfiles.mjs). Every
// ```js fence (also `javascript`, `mjs`) is one standalone ES module; every ```ts fence
// (`typescript`) is type-checked only. A fence whose line directly before is
// `<!-- no-run: reason -->` is skipped (the reason is required).
//
//   1. Each block is written to DIR (default target/docs-examples/, inside the repository, so
//      `import ... from "zarr-scale-offset"` resolves by the package's self-reference to the built
//      dist/, and "zarrita" to node_modules) as FILE_L<line>.mjs / .mts.
//   2. All of them are type-checked in one `tsc --allowJs --checkJs --strict --noEmit` (module
//      nodenext, lib es2022 + dom, @types/node); an error is reported at its Markdown file:line.
//   3. Each js block runs with `node` (cwd a fresh temporary folder, 60 s timeout) while
//      tests/fixtures/stores/ is served over HTTP (Range requests included) on a free port of
//      127.0.0.1; `http://localhost:8080/` in a block is rewritten to that server.
//
// Prints one line per block (file:line, ok/FAILED) and a summary; exits 1 on any failure.

import { execFile } from 'node:child_process';
import { mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { promisify } from 'node:util';
import { serve } from '../../scripts/serve.mjs';
import { ROOT, docFiles } from './docfiles.mjs';

const run = promisify(execFile);
const LANGS = { js: 'js', javascript: 'js', mjs: 'js', ts: 'ts', typescript: 'ts' };
const NO_RUN = /^<!--\s*no-run:\s*(.*?)\s*-->$/;
const PLACEHOLDER = 'http://localhost:8080/';
const TIMEOUT_MS = 60_000;

/** The js/ts blocks of a Markdown text: { kind, line (of the opening fence, 1-based), code, skip }. */
export function extractBlocks(text, file = '<md>') {
  const lines = text.split('\n');
  const blocks = [];
  let open = null; // { fence, indent, kind, line, body, skip }
  for (let i = 0; i < lines.length; i++) {
    const line = lines[i];
    if (open) {
      const close = /^(\s*)(`{3,}|~{3,})\s*$/.exec(line);
      if (close && close[2][0] === open.fence[0] && close[2].length >= open.fence.length) {
        if (open.kind) blocks.push({ kind: open.kind, line: open.line, code: open.body.join('\n') + '\n', skip: open.skip });
        open = null;
      } else {
        open.body.push(line.startsWith(open.indent) ? line.slice(open.indent.length) : line.trimStart());
      }
      continue;
    }
    const m = /^(\s*)(`{3,}|~{3,})\s*([\w+-]*)/.exec(line);
    if (!m) continue;
    const kind = LANGS[m[3].toLowerCase()] ?? null;
    let skip = null;
    const prev = i > 0 ? lines[i - 1].trim() : '';
    if (prev.startsWith('<!--') && /no-run/.test(prev)) {
      const r = NO_RUN.exec(prev);
      if (!r || !r[1]) throw new Error(`${file}:${i}: a no-run comment needs a reason: <!-- no-run: why -->`);
      skip = r[1];
    }
    open = { fence: m[2], indent: m[1], kind, line: i + 1, body: [], skip };
  }
  if (open) throw new Error(`${file}:${open.line}: a code fence that is never closed`);
  return blocks;
}

async function main(argv) {
  let out = path.join(ROOT, 'target', 'docs-examples');
  const files = [];
  for (let i = 0; i < argv.length; i++) {
    if (argv[i] === '--out') out = path.resolve(argv[++i]);
    else files.push(argv[i]);
  }
  const mdFiles = files.length ? files.map((f) => path.relative(ROOT, path.resolve(f))) : docFiles();
  if (!path.resolve(out).startsWith(ROOT + path.sep)) throw new Error(`--out must be inside ${ROOT}`);

  const server = await serve(ROOT, 0, { roots: [], mounts: { '/': path.join(ROOT, 'tests', 'fixtures', 'stores') } });
  const base = `http://127.0.0.1:${server.address().port}/`;
  try {
    rmSync(out, { recursive: true, force: true });
    mkdirSync(out, { recursive: true });
    const examples = [];
    let skipped = 0;
    for (const md of mdFiles) {
      const blocks = extractBlocks(readFileSync(path.join(ROOT, md), 'utf8'), md);
      for (const b of blocks) {
        if (b.skip) {
          skipped++;
          continue;
        }
        const name = `${md.replace(/[^A-Za-z0-9]+/g, '_')}_L${b.line}.${b.kind === 'js' ? 'mjs' : 'mts'}`;
        const file = path.join(out, name);
        writeFileSync(file, b.code.split(PLACEHOLDER).join(base));
        examples.push({ ...b, md, file, name, errors: [] });
      }
    }
    const where = (e) => `${e.md}:${e.line}`;
    const js = examples.filter((e) => e.kind === 'js');
    console.log(`js examples: ${js.length} js + ${examples.length - js.length} ts blocks in ${mdFiles.length} files (${skipped} no-run skipped)`);
    if (examples.length === 0) return 0;

    // --- type-check all at once ------------------------------------------------------------
    writeFileSync(
      path.join(out, 'tsconfig.json'),
      JSON.stringify(
        {
          compilerOptions: {
            target: 'es2022',
            lib: ['es2022', 'es2025.float16', 'dom'],
            module: 'nodenext',
            moduleResolution: 'nodenext',
            allowJs: true,
            checkJs: true,
            strict: true,
            noEmit: true,
            skipLibCheck: true,
            types: ['node'],
          },
          include: ['*.mjs', '*.mts'],
        },
        null,
        2,
      ),
    );
    const tsc = path.join(ROOT, 'node_modules', 'typescript', 'bin', 'tsc');
    let tscOut = '';
    let tscFailed = false;
    try {
      await run(process.execPath, [tsc, '-p', path.join(out, 'tsconfig.json'), '--pretty', 'false'], { cwd: ROOT, maxBuffer: 64 << 20 });
    } catch (e) {
      tscFailed = true;
      tscOut = `${e.stdout ?? ''}${e.stderr ?? ''}`;
    }
    const byName = new Map(examples.map((e) => [e.name, e]));
    const unmapped = [];
    let last = unmapped; // where a continuation line (indented) of a message goes
    for (const l of tscOut.split('\n').filter(Boolean)) {
      const m = /^(.*?)\((\d+),(\d+)\): (.*)$/.exec(l);
      const e = m && byName.get(path.basename(m[1]));
      if (e) {
        // line 1 of the block is the line after the opening fence
        e.errors.push(`${e.md}:${e.line + Number(m[2])}:${m[3]}: ${m[4]}`);
        last = e.errors;
      } else if (m || !/^\s/.test(l)) {
        unmapped.push(l);
        last = unmapped;
      } else {
        last.push(l);
      }
    }
    if (tscFailed && examples.every((e) => e.errors.length === 0)) unmapped.push('tsc failed:', tscOut);

    // --- run the js blocks -------------------------------------------------------------------
    const runOne = async (e) => {
      const cwd = mkdtempSync(path.join(os.tmpdir(), 'docs-js-'));
      try {
        const r = await run(process.execPath, [e.file], { cwd, timeout: TIMEOUT_MS, maxBuffer: 64 << 20 });
        e.stdout = r.stdout;
      } catch (err) {
        e.errors.push(
          err.killed ? `timed out after ${TIMEOUT_MS / 1000} s` : `node exited ${err.code}:\n${String(err.stderr ?? err.message).trimEnd()}`,
        );
      } finally {
        rmSync(cwd, { recursive: true, force: true });
      }
    };
    const queue = [...js];
    const workers = Array.from({ length: Math.max(1, Math.min(4, os.availableParallelism?.() ?? 2)) }, async () => {
      while (queue.length) await runOne(queue.shift());
    });
    await Promise.all(workers);

    let failed = 0;
    for (const e of examples) {
      const what = e.kind === 'js' ? 'ran' : 'type-checked';
      if (e.errors.length) {
        failed++;
        console.log(`FAILED ${where(e)} (${e.kind})`);
        for (const x of e.errors) console.log(x.replace(/^/gm, '    '));
      } else {
        console.log(`ok     ${where(e)} (${e.kind}, ${what})`);
      }
    }
    if (unmapped.length) {
      failed++;
      console.log('FAILED tsc:');
      for (const x of unmapped) console.log(`    ${x}`);
    }
    console.log(`js examples: ${js.length} run, ${examples.length} type-checked, ${failed} failed`);
    return failed ? 1 : 0;
  } finally {
    server.close();
  }
}

if (import.meta.url === `file://${process.argv[1]}`) {
  main(process.argv.slice(2)).then(
    (rc) => process.exit(rc),
    (e) => {
      console.error(e.stack ?? e);
      process.exit(2);
    },
  );
}
