#!/usr/bin/env node
// tests/docs/typedoc.mjs (scripts/docs.sh): the JavaScript API reference of the docs site,
// Markdown pages that TypeDoc + typedoc-plugin-markdown write from the package's declarations
// (js/index.d.ts and js/zarrita.d.ts, which the build copies to dist/) into docs/api/javascript/
// (git-ignored):
//
//   index.md               the two entry points
//   zarr-scale-offset.md   import ... from "zarr-scale-offset"
//   zarrita.md             import ... from "zarr-scale-offset/zarrita"
//
// Headings carry HTML anchors (useHTMLAnchors), so the plugin's links to repeated member names
// (`#configuration-2`) resolve under `mkdocs build --strict`. The plugin escapes `<` and `>` in
// types (`Record\<string, unknown\>`) the CommonMark way; Python-Markdown (MkDocs) does not take
// `\<` as an escape, so outside code those become `&lt;` / `&gt;`.

import { readFileSync, readdirSync, rmSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { Application } from 'typedoc';
import { ROOT } from './docfiles.mjs';

const OUT = path.join(ROOT, 'docs', 'api', 'javascript');
// module reflection name (the file name TypeDoc gives it) -> the specifier users import
const NAMES = { index: 'zarr-scale-offset', zarrita: 'zarr-scale-offset/zarrita' };

const app = await Application.bootstrapWithPlugins({
  entryPoints: [path.join(ROOT, 'js', 'index.d.ts'), path.join(ROOT, 'js', 'zarrita.d.ts')],
  tsconfig: path.join(ROOT, 'tests', 'docs', 'tsconfig.typedoc.json'),
  plugin: ['typedoc-plugin-markdown'],
  out: OUT,
  name: 'JavaScript API',
  readme: 'none',
  disableSources: true,
  treatWarningsAsErrors: true,
  // typedoc-plugin-markdown
  outputFileStrategy: 'modules',
  entryFileName: 'index.md',
  hideBreadcrumbs: true,
  hidePageHeader: true,
  useHTMLAnchors: true,
});
const project = await app.convert();
if (!project || app.logger.hasErrors()) {
  console.error('typedoc: conversion failed');
  process.exit(1);
}
for (const m of project.children ?? []) {
  if (!(m.name in NAMES)) {
    console.error(`typedoc: unexpected module ${m.name}`);
    process.exit(1);
  }
  m.name = NAMES[m.name];
}
rmSync(OUT, { recursive: true, force: true });
await app.generateOutputs(project);
// CommonMark's `\<` / `\>` as HTML entities, outside fenced code (the plugin writes none
// inside inline code).
const pages = readdirSync(OUT, { recursive: true }).filter((f) => String(f).endsWith('.md'));
for (const f of pages) {
  const file = path.join(OUT, String(f));
  let fence = false;
  const lines = readFileSync(file, 'utf8')
    .split('\n')
    .map((l) => {
      if (/^\s*(```|~~~)/.test(l)) fence = !fence;
      return fence ? l : l.replaceAll('\\<', '&lt;').replaceAll('\\>', '&gt;');
    });
  writeFileSync(file, lines.join('\n'));
}
if (app.logger.hasErrors() || app.logger.hasWarnings()) {
  console.error('typedoc: errors or warnings while writing the pages');
  process.exit(1);
}
console.log(`typedoc: ${project.children?.length ?? 0} modules written to ${path.relative(ROOT, OUT)}/`);
