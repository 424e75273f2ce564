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
