// Shared by the benchmark entry points (run.mjs, alloc.mjs, unpack.mjs, markdown.mjs): the
// Chromium binary and its launch flags (from scripts/chromium.mjs, as for the tests), and the
// command-line option readers.

export { ARGS, CHROMIUM } from '../scripts/chromium.mjs';

/** The value after `--name` on the command line, or `dflt`. */
export function opt(name, dflt) {
  const i = process.argv.indexOf(name);
  return i >= 0 ? process.argv[i + 1] : dflt;
}

/** Whether `--name` is on the command line. */
export const flag = (name) => process.argv.includes(name);
