// JSON text read with the source text of every number kept: JSON.parse keeps only the nearest
// double, which loses int64/uint64 values beyond 2^53 and tells 300.0 from 300 no more. Shared by
// js/index.js (fromCF and fromFixedScaleOffset results: integers no double equals become bigint)
// and js/cf.js (xarray's float type depends on how an attribute was written). Internal: not part
// of the package's API (package.json does not export this file).

/** The prefix of the marker string that stands for a number in parseKeepingNumbers' result. */
export const NUMBER = '\u0000zso-number:';

// A number token of JSON (and the NaN / Infinity tokens Python's json module writes); strings
// are matched whole so that nothing inside them is taken for a number.
const TOKENS = /"(?:[^"\\]|\\.)*"|(-?(?:0|[1-9]\d*)(?:\.\d+)?(?:[eE][+-]?\d+)?|-?Infinity|NaN)/g;

/**
 * JSON.parse of `text` with every number token as a marker string (NUMBER + its source text);
 * `reviver` as JSON.parse's, seeing the markers (numberText reads them).
 */
export function parseKeepingNumbers(text, reviver) {
  const marked = text.replace(TOKENS, (m, num) => (num === undefined ? m : JSON.stringify(NUMBER + num)));
  return JSON.parse(marked, reviver);
}

/** The source text of a number marker, or undefined for any other value. */
export const numberText = (v) => (typeof v === 'string' && v.startsWith(NUMBER) ? v.slice(NUMBER.length) : undefined);
