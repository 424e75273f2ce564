// Formatting of bench results, shared by bench/run.mjs (console tables and the issue-5 target
// checks) and bench/markdown.mjs (the README and docs/PERFORMANCE.md tables, from the JSON report).

/** M elements/s with three significant digits at most. */
export const fmtRate = (v) => (v === null || v === undefined ? '—' : v >= 100 ? v.toFixed(0) : v.toFixed(1));
/** A throughput ratio `a / b` ("—" when either is missing). */
export const fmtRatio = (a, b) => (a == null || b == null ? '—' : `${(a / b).toFixed(a / b >= 10 ? 1 : 2)}×`);
/** 65536 -> "64 Ki", 4194304 -> "4 Mi". */
export const sizeName = (n) => (n >= 1048576 ? `${n / 1048576} Mi` : `${n / 1024} Ki`);

/** The row behind the headline target: float32 <- uint16 at 4 Mi elements. */
export const isKeyRow = (r) => r.id === 'f32<-u16' && r.n === 4194304;

/**
 * The targets of issue 5 for one environment's rows: decode of the float32 <- uint16 chain at
 * 4 Mi elements >= 5x zarrita and >= 0.25x memcpy, every other row >= 3x zarrita, encode >= 3x
 * zarrita's decode. `decode` (a new typed array per call) and `decodeInto` (a reused one) are
 * checked separately. Rows zarrita has no codecs for have no target (`info`, ratios to the plain
 * JS loop). Returns `[{ ok, text }]` with `ok` null for information.
 */
export function checks(rows) {
  const out = [];
  for (const r of rows) {
    const m = r.melemsPerSec;
    const where = `${r.id} ${sizeName(r.n)}`;
    if (m.zarrita == null) {
      out.push({
        ok: null,
        text:
          `${where}: no zarrita codec; vs the JS loop: decode ${fmtRatio(m.decode, m.jsLoop)}, ` +
          `decodeInto ${fmtRatio(m.decodeInto, m.jsLoop)}, encode ${fmtRatio(m.encode, m.jsLoop)}`,
      });
      continue;
    }
    const key = isKeyRow(r);
    const need = key ? 5 : 3;
    for (const k of ['decode', 'decodeInto']) {
      if (m[k] == null) continue;
      const ratio = m[k] / m.zarrita;
      if (key) {
        const c = m[k] / m.memcpy;
        out.push({
          ok: ratio >= need && c >= 0.25,
          text: `${where}: ${k} ${fmtRatio(m[k], m.zarrita)} zarrita (>= 5×), ${fmtRatio(m[k], m.memcpy)} memcpy (>= 0.25×)`,
        });
      } else {
        out.push({ ok: ratio >= need, text: `${where}: ${k} ${fmtRatio(m[k], m.zarrita)} zarrita (>= ${need}×)` });
      }
    }
    out.push({ ok: m.encode / m.zarrita >= 3, text: `${where}: encode ${fmtRatio(m.encode, m.zarrita)} zarrita's decode (>= 3×)` });
  }
  return out;
}

/** The columns of the full tables: [header, cell(row)]. */
export const COLUMNS = [
  ['chain', (r) => r.id],
  ['n', (r) => sizeName(r.n)],
  ['decode', (r) => fmtRate(r.melemsPerSec.decode)],
  ['decodeInto', (r) => fmtRate(r.melemsPerSec.decodeInto)],
  ['encode', (r) => fmtRate(r.melemsPerSec.encode)],
  ['zarrita', (r) => fmtRate(r.melemsPerSec.zarrita)],
  ['JS loop', (r) => fmtRate(r.melemsPerSec.jsLoop)],
  ['memcpy', (r) => fmtRate(r.melemsPerSec.memcpy)],
  ['new+fill', (r) => fmtRate(r.melemsPerSec.freshFill)],
  ['dec/zarrita', (r) => fmtRatio(r.melemsPerSec.decode, r.melemsPerSec.zarrita)],
  ['into/zarrita', (r) => fmtRatio(r.melemsPerSec.decodeInto, r.melemsPerSec.zarrita)],
  ['dec/memcpy', (r) => fmtRatio(r.melemsPerSec.decode, r.melemsPerSec.memcpy)],
  ['into/memcpy', (r) => fmtRatio(r.melemsPerSec.decodeInto, r.melemsPerSec.memcpy)],
  ['enc/zarrita', (r) => fmtRatio(r.melemsPerSec.encode, r.melemsPerSec.zarrita)],
];

/** The calls that `--base` times in both builds. */
export const BASE_CALLS = ['decode', 'decodeInto', 'encode'];
/** A call of the new build more than this much slower than the base build's is flagged. */
export const BASE_TOLERANCE = 0.1;

/**
 * The time ratio new / base of one call of a row: the median of the per-round ratios (and of the
 * rechecks) when the run recorded them, else the ratio of the median times. Above 1 is slower.
 */
export function baseRatio(r, call) {
  const now = r.seconds[call];
  const base = r.seconds[`base.${call}`];
  if (now == null || base == null) return null;
  return r.baseRatio?.[call] ?? now / base;
}

/**
 * The new build against the base build (`--base`), per row and call: `{ id, n, call, now, base,
 * ratio, slower, rechecked }` with `now` and `base` the median seconds per call, `ratio` from
 * `baseRatio`, and `slower` when it exceeds 1 + BASE_TOLERANCE. Empty without a base.
 */
export function baseComparison(rows) {
  const out = [];
  for (const r of rows) {
    for (const call of BASE_CALLS) {
      const ratio = baseRatio(r, call);
      if (ratio == null) continue;
      const rechecked = r.rechecked?.[call] ?? null;
      out.push({ id: r.id, n: r.n, call, now: r.seconds[call], base: r.seconds[`base.${call}`], ratio, slower: ratio > 1 + BASE_TOLERANCE, rechecked });
    }
  }
  return out;
}

/** µs per call with three significant digits at most. */
export const fmtUs = (s) => {
  const us = s * 1e6;
  return us >= 100 ? us.toFixed(0) : us.toFixed(1);
};

/** The per-row comparison table: [header, cell(row)] for each column (rows from the JSON report). */
export const BASE_COLUMNS = [
  ['chain', (r) => r.id],
  ['n', (r) => sizeName(r.n)],
  ...BASE_CALLS.flatMap((c) => [
    [`${c} µs`, (r) => (r.seconds[c] == null ? '—' : fmtUs(r.seconds[c]))],
    [`base µs`, (r) => (r.seconds[`base.${c}`] == null ? '—' : fmtUs(r.seconds[`base.${c}`]))],
    [
      `new/base`,
      (r) => {
        const q = baseRatio(r, c);
        if (q == null) return '—';
        return `${q.toFixed(2)}${r.rechecked?.[c] ? '*' : ''}${q > 1 + BASE_TOLERANCE ? ' SLOWER' : ''}`;
      },
    ],
  ]),
];

/**
 * One line on the A/A control (`--control`: our build against a second instance of itself, timed
 * like the base build), or null: how far from 1 its ratios go, i.e. the noise floor of new/base.
 */
export function controlSummary(rows) {
  const qs = rows.flatMap((r) => Object.values(r.controlRatio ?? {}));
  if (!qs.length) return null;
  const dev = qs.map((q) => Math.abs(q - 1)).sort((a, b) => a - b);
  const over = qs.filter((q) => q > 1 + BASE_TOLERANCE).length;
  return (
    `A/A control (this build against a second instance of itself, same rounds): median |ratio − 1| ${(dev[dev.length >> 1] * 100).toFixed(1)} %, ` +
    `largest ${(dev[dev.length - 1] * 100).toFixed(1)} %; ${over} of ${qs.length} calls above ${1 + BASE_TOLERANCE} (no recheck)`
  );
}

/** One line summing up `baseComparison(rows)`. */
export function baseSummary(rows) {
  const cmp = baseComparison(rows);
  const slow = cmp.filter((c) => c.slower);
  const worst = cmp.reduce((w, c) => (w && w.ratio >= c.ratio ? w : c), null);
  const ratios = cmp.map((c) => c.ratio).sort((a, b) => a - b);
  const median = ratios.length ? ratios[ratios.length >> 1] : NaN;
  const rechecked = cmp.filter((c) => c.rechecked).length;
  return (
    `${cmp.length - slow.length} of ${cmp.length} calls (${rows.length} row${rows.length === 1 ? '' : 's'} × decode/decodeInto/encode) within ` +
    `${BASE_TOLERANCE * 100} % of the base build${rechecked ? ` (${rechecked} rechecked, marked *)` : ''}; median time ratio new/base ${median.toFixed(2)}` +
    (worst ? `, worst ${worst.ratio.toFixed(2)} (${worst.id} ${sizeName(worst.n)} ${worst.call})` : '') +
    (slow.length ? `; more than ${BASE_TOLERANCE * 100} % slower: ${slow.map((c) => `${c.id} ${sizeName(c.n)} ${c.call} ${c.ratio.toFixed(2)}`).join(', ')}` : '')
  );
}
