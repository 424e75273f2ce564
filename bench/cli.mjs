// Shared by the benchmark entry points (run.mjs, alloc.mjs): the Chromium binary and its launch
// flags, and the command-line option readers.

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

/** The value after `--name` on the command line, or `dflt`. */
export function opt(name, dflt) {
  const i = process.argv.indexOf(name);
  return i >= 0 ? process.argv[i + 1] : dflt;
}

/** Whether `--name` is on the command line. */
export const flag = (name) => process.argv.includes(name);
