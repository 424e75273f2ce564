// The one place that names the browser of the Playwright tests and the benchmarks: Debian's
// Chromium (never a downloaded browser; CHROMIUM_PATH overrides it) and its launch flags (those
// of ../shared/research/tooling.md). tests/js/browser.mjs and bench/cli.mjs re-export these.

export const CHROMIUM = process.env.CHROMIUM_PATH ?? '/usr/bin/chromium';
export const ARGS = [
  '--no-sandbox',
  '--disable-gpu',
  '--disable-quic',
  '--no-first-run',
  '--disable-background-networking',
  '--disable-component-update',
  '--disable-sync',
];
