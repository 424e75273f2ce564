// Under a strict Content-Security-Policy (no 'unsafe-eval', no inline script) the package needs
// exactly one extra source keyword, 'wasm-unsafe-eval', as docs/guides/browser.md says: with it ready() and a
// decode work in headless Chromium; without it ready() rejects (so the header is really applied).
// The page and its module script are served with the policy as an HTTP header; dist/ comes from
// the repository server.

import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';

import { startBrowser } from './browser.mjs';

let b;

before(async () => {
  b = await startBrowser();
});

after(async () => {
  await b?.close();
});

const MAIN = `
import { ready, decode } from '/dist/index.js';
try {
  await ready();
  const codecs = [{ name: 'scale_offset', configuration: { offset: 1, scale: 2 } }];
  const out = decode(codecs, 'float32', new Float32Array([0, 2, 4]));
  window.__csp = { values: Array.from(out) };
} catch (e) {
  window.__csp = { error: e.name + ': ' + e.message };
}
`;

async function open(policy) {
  const page = await b.ctx.newPage();
  const violations = [];
  page.on('console', (m) => {
    if (/Content Security Policy|Content-Security-Policy/i.test(m.text())) violations.push(m.text());
  });
  await page.route(`${b.base}/csp/**`, (route) => {
    const url = new URL(route.request().url());
    const headers = { 'content-security-policy': policy, 'cache-control': 'no-store' };
    if (url.pathname === '/csp/main.js') return route.fulfill({ contentType: 'text/javascript', headers, body: MAIN });
    return route.fulfill({
      contentType: 'text/html',
      headers,
      body: '<!doctype html><meta charset="utf-8"><title>csp</title><script type="module" src="/csp/main.js"></script>',
    });
  });
  await page.goto(`${b.base}/csp/index.html`);
  await page.waitForFunction(() => window.__csp !== undefined, null, { timeout: 30_000 });
  const r = await page.evaluate(() => window.__csp);
  await page.close();
  return { ...r, violations };
}

test("strict CSP with 'wasm-unsafe-eval': ready() and decode work", async () => {
  const r = await open("default-src 'none'; script-src 'self' 'wasm-unsafe-eval'; connect-src 'self'");
  assert.equal(r.error, undefined, `${r.error} ${r.violations.join(' | ')}`);
  assert.deepEqual(r.values, [1, 2, 3]);
});

test("strict CSP without 'wasm-unsafe-eval': ready() rejects (WebAssembly compilation is blocked)", async () => {
  const r = await open("default-src 'none'; script-src 'self'; connect-src 'self'");
  assert.match(r.error ?? '', /CompileError|WebAssembly|wasm/i, `expected a compile error, got ${JSON.stringify(r)}`);
});
