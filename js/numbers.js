// JSON text of the Rust core (fromCF, fromFixedScaleOffset, fromCFDocument results) parsed with
// every number read from its source text: JSON.parse keeps only the nearest double, which loses
// int64/uint64 values beyond 2^53 (an int64 fill value or scalar_map code such as netCDF's
// default int64 fill -9223372036854775806). Shared by js/index.js and js/cf.js. Internal: not
// part of the package's API (package.json does not export this file).

// A JSON string token (matched whole, so that nothing inside it is taken for a number) or a
// number token. The string pattern is unrolled (no alternation repeated per character), so a
// string of any length is matched without deep backtracking.
const TOKENS = /"[^"\\]*(?:\\.[^"\\]*)*"|-?(?:0|[1-9]\d*)(?:\.\d+)?(?:[eE][+-]?\d+)?/g;

// Marked values back to plain ones: "s…" was a string (or key), "n…" a number.
function unmark(v) {
  if (typeof v === 'string') {
    const t = v.slice(1);
    if (v[0] === 's') return t;
    const n = Number(t);
    return /^-?\d+$/.test(t) && BigInt(n) !== BigInt(t) ? BigInt(t) : n;
  }
  if (Array.isArray(v)) return v.map(unmark);
  if (v !== null && typeof v === 'object') return Object.fromEntries(Object.entries(v).map(([k, x]) => [k.slice(1), unmark(x)]));
  return v;
}

/**
 * JSON.parse of `text`, except that an integer no double equals becomes a bigint (which the
 * package's JSON writer writes back exactly); every other number (also an integral float the
 * core writes without a ".", e.g. an offset of 2^60) is a number. Every string and key of the
 * text is marked "s…" and every number "n<its text>" before JSON.parse, so no string can pass
 * for a number.
 */
export function parseExact(text) {
  return unmark(JSON.parse(text.replace(TOKENS, (m) => (m[0] === '"' ? `"s${m.slice(1)}` : `"n${m}"`))));
}
