// Browser helpers of the Playwright tests: Debian's Chromium through playwright-core (never a
// downloaded browser), a fresh temporary profile per launch, the flags of
// ../shared/research/tooling.md, and a static server on 127.0.0.1.

import { mkdirSync, mkdtempSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { chromium } from 'playwright-core';

import { ARGS, CHROMIUM } from '../../scripts/chromium.mjs';
import { serve, TEST_ROOTS } from '../../scripts/serve.mjs';
import { ROOT } from './helpers.mjs';

export { ARGS, CHROMIUM };
export const ARTIFACTS = path.join(ROOT, 'artifacts');

/**
 * Starts a static server for `root` and a headless Chromium with a temporary profile.
 * Returns { base, ctx, close() }.
 */
export async function startBrowser(root = ROOT, { viewport = { width: 1280, height: 900 } } = {}) {
  const server = await serve(root, 0, { roots: TEST_ROOTS });
  const base = `http://127.0.0.1:${server.address().port}`;
  const profile = mkdtempSync(path.join(os.tmpdir(), 'zso-pw-profile-'));
  let ctx;
  try {
    ctx = await chromium.launchPersistentContext(profile, { executablePath: CHROMIUM, headless: true, args: ARGS, viewport, timeout: 60_000 });
  } catch (e) {
    server.close();
    rmSync(profile, { recursive: true, force: true });
    throw e;
  }
  ctx.setDefaultTimeout(30_000);
  return {
    base,
    ctx,
    async close() {
      await ctx.close().catch(() => {});
      await new Promise((r) => server.close(r));
      rmSync(profile, { recursive: true, force: true });
    },
  };
}

/**
 * Collects page errors and console errors, except the network 404s a Zarr reader causes on
 * purpose (missing chunks, probing zarr.json before .zarray).
 */
export function watchErrors(page) {
  const errors = [];
  page.on('pageerror', (e) => errors.push(`pageerror: ${e.message}`));
  page.on('console', (m) => {
    if (m.type() === 'error' && !/status of 404/.test(m.text())) errors.push(`console: ${m.text()}`);
  });
  return errors;
}

/** artifacts/<name>, creating the folder. */
export function artifact(name) {
  mkdirSync(ARTIFACTS, { recursive: true });
  return path.join(ARTIFACTS, name);
}
