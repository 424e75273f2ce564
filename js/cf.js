// openCF: a zarrita array whose attributes carry CF packing (scale_factor, add_offset,
// _FillValue, missing_value, _Unsigned), read as `xarray.open_zarr` reads it (mask_and_scale on).
//
//   import * as zarr from "zarrita";
//   import { openCF } from "zarr-scale-offset/zarrita";
//   const t2m = await openCF(await zarr.open(store.resolve("t2m"), { kind: "array" }));
//   const { data } = await zarr.get(t2m, [zarr.slice(0, 10), null]); // Float64Array, kelvin
//
// What xarray does, and so what this does: the CF attributes are read from the raw text of the
// metadata documents as stored, by the Rust core's JSON parser (`cfSelect`, src/cf_document.rs),
// which hands back each attribute's JSON text as written; that text goes to `fromCF` unchanged,
// where a JSON number with a fraction or exponent is a Python float and one without a Python int
// (JSON.parse cannot tell 300.0 from 300, and xarray's float type depends on it). No JSON text is
// scanned or pieced apart here. The documents:
//   - like xarray.open_zarr (consolidated=None), the consolidated metadata when the store has it
//     (v3: the root zarr.json's `consolidated_metadata`; v2: `.zmetadata`), else the array's own
//     (zarr.json; .zarray and .zattrs);
//   - read from the store beneath any store wrappers (zarrita's withConsolidatedMetadata and
//     keepV2Filters serve re-serialised copies, where 2.0 has become 2);
//   - Zarr v2: the array's `fill_value` is the `_FillValue` (xarray's use_zarr_fill_value_as_mask,
//     on by default for v2); Zarr v3: the `_FillValue` attribute, which xarray writes as an
//     integer for integer data and as base64 of the little-endian float64 for float data, and
//     the array's `fill_value` is not a missing value;
//   - the rest (float type, NaN fill values, `_Unsigned`, nothing to unpack) is `fromCF`.
//
// The result is a zarrita Array of the decoded type over the same chunk grid: its `getChunk`
// reads the packed chunk with the original array (so sharding, compression, missing chunks and
// any array extensions stay zarrita's), checks that it fills its shape (`length_mismatch`, as
// the codecs of the adapter check) and decodes it with the codecs of `fromCF`, bound once
// (`bind`). `zarr.get` then reads any selection. It is read-only; `openCF` of it returns it.

import { bind, fromCF, ready, toJsonText } from './index.js';
import { checkChunkLength, codedError, describe, read } from './core.js';
import { parseExact } from './numbers.js';
import * as wasm from './zarr_scale_offset.js';

const CF_KEYS = ['scale_factor', 'add_offset', '_FillValue', 'missing_value', '_Unsigned'];

// ---------------------------------------------------------------------------------------------
// the metadata documents, as stored

// The store beneath the wrappers of `store`. A store extension (zarrita's
// withConsolidatedMetadata, withByteCaching, ... and keepV2Filters) is a Proxy that forwards
// defineProperty to the store it wraps and hands out that store's methods bound to it: a method
// defined through the wrapper (under a fresh symbol, removed at once) and called through it
// runs with `this` = the innermost store. A store that cannot take the property (frozen) is read
// as it is.
const BENEATH = new WeakMap();

function storeBeneath(store) {
  let raw = BENEATH.get(store);
  if (raw === undefined) {
    raw = store;
    const probe = Symbol('zarr-scale-offset.store');
    try {
      Object.defineProperty(store, probe, { configurable: true, value() { return this; } });
      const inner = store[probe]();
      if (inner !== null && typeof inner === 'object' && typeof inner.get === 'function') raw = inner;
    } catch {
      // not extensible: read through the store as it is
    }
    try {
      delete store[probe];
    } catch {
      // (nothing was defined)
    }
    BENEATH.set(store, raw);
  }
  return raw;
}

// The text of `key` in `store`, or undefined when absent.
async function readText(store, key) {
  let bytes;
  try {
    bytes = await store.get(key);
  } catch (e) {
    throw codedError('invalid_argument', `openCF: reading ${key} from the array's store failed: ${e?.message ?? e}`, e);
  }
  if (bytes === undefined || bytes === null) return undefined;
  if (typeof bytes === 'string') return bytes;
  if (!(bytes instanceof Uint8Array)) {
    throw codedError('invalid_argument', `openCF: the store's get(${JSON.stringify(key)}) returned ${describe(bytes)}, not a Uint8Array (or undefined for a missing key)`);
  }
  return new TextDecoder().decode(bytes);
}

// The consolidated documents at the root of a store (/zarr.json, /.zmetadata): read once per
// store, as xarray reads them once.
const ROOT_DOCS = new WeakMap();

function rootText(store, name) {
  let docs = ROOT_DOCS.get(store);
  if (docs === undefined) ROOT_DOCS.set(store, (docs = new Map()));
  let p = docs.get(name);
  if (p === undefined) {
    p = readText(store, name);
    docs.set(name, p);
    p.catch(() => docs.delete(name)); // a failed read is tried again next time
  }
  return p;
}

// A JSON pointer token.
const token = (k) => k.replaceAll('~', '~0').replaceAll('/', '~1');

// The JSON texts (as written; null: absent) of the values at `pointers` in the document `text`.
function select(text, pointers, where) {
  try {
    return JSON.parse(wasm.cfSelect(text, pointers.join('\n')));
  } catch (e) {
    throw codedError(e.code ?? 'invalid_json', `openCF: ${where}: ${e.message}`, e);
  }
}

const present = (t) => t !== null && t !== 'null'; // a null attribute is Python's None: passed over

// The pieces of an array's documents CF decoding reads, as JSON texts: { format, fill,
// order (a JSON text or null), attrs: [text or null per CF_KEYS] }, or undefined when `text`
// holds no such array. `node` / `zattrs` are the pointers of the array's document and of its
// attributes object (v2: in `zattrsText`, else in `text`).
function v3Pieces(text, node, where) {
  const [type, fill, codecs, ...attrs] = select(text, [`${node}/node_type`, `${node}/fill_value`, `${node}/codecs`, ...CF_KEYS.map((k) => `${node}/attributes/${k}`)], where);
  return type === '"array"' ? { format: 3, fill, order: transposeOrder(codecs === null ? null : JSON.parse(codecs)), attrs } : undefined;
}

function v2Pieces(text, zarray, zattrsText, zattrs, where) {
  const [format, fill, order, shape, ...inline] = select(text, [`${zarray}/zarr_format`, `${zarray}/fill_value`, `${zarray}/order`, `${zarray}/shape`, ...CF_KEYS.map((k) => `${zattrs}/${k}`)], where);
  if (format === null && zarray === '') return undefined;
  if (zarray !== '' && shape === null) return undefined; // not listed in .zmetadata
  const attrs = zattrsText === undefined ? inline : select(zattrsText, CF_KEYS.map((k) => `/${k}`), where);
  const n = shape === null ? 0 : (JSON.parse(shape)?.length ?? 0);
  return { format: 2, fill, order: order === '"F"' ? Array.from({ length: n }, (_, i) => n - 1 - i) : null, attrs };
}

// The transpose order of a v3 codecs list (also inside sharding_indexed), as zarrita uses it.
function transposeOrder(codecs) {
  if (!Array.isArray(codecs)) return null;
  const shard = codecs.find((c) => c?.name === 'sharding_indexed');
  const list = shard ? shard.configuration?.codecs : codecs;
  const t = Array.isArray(list) ? list.find((c) => c?.name === 'transpose') : undefined;
  const order = t?.configuration?.order;
  return Array.isArray(order) ? order : null;
}

// The pieces of `array`'s documents (v3Pieces), or undefined when the store has none.
async function readPieces(array, zarrFormat, consolidated) {
  const store = storeBeneath(array.store);
  const key = String(array.path ?? '').replace(/^\/+|\/+$/g, '');
  for (const format of zarrFormat === 2 ? [2] : zarrFormat === 3 ? [3] : [3, 2]) {
    if (consolidated !== false && key !== '') {
      const name = format === 3 ? '/zarr.json' : '/.zmetadata';
      const text = await rootText(store, name);
      const r = text === undefined ? undefined
        : format === 3 ? v3Pieces(text, `/consolidated_metadata/metadata/${token(key)}`, name)
        : v2Pieces(text, `/metadata/${token(`${key}/.zarray`)}`, undefined, `/metadata/${token(`${key}/.zattrs`)}`, name);
      if (r !== undefined) return r;
    }
    if (consolidated === true) continue;
    const path = array.resolve(format === 3 ? 'zarr.json' : '.zarray').path;
    const own = await readText(store, path);
    if (own !== undefined) {
      const r = format === 3 ? v3Pieces(own, '', path)
        : v2Pieces(own, '', (await readText(store, array.resolve('.zattrs').path)) ?? '{}', '', path);
      if (r !== undefined) return r;
    }
  }
  if (consolidated === true) {
    throw codedError('invalid_metadata', `openCF: consolidated is true, but the store has no consolidated metadata (v3 root zarr.json, v2 .zmetadata) listing ${key || 'the root array'}`);
  }
  return undefined;
}

// ---------------------------------------------------------------------------------------------
// xarray's attributes

const isFloatType = (dt) => /^b?float/.test(dt);

// xarray's FillValueCoder.decode of a v3 `_FillValue` attribute (its JSON text `t`): base64 of a
// little-endian float64 for float data, int(value) for integer data.
function v3FillValue(t, dataType) {
  if (isFloatType(dataType)) {
    if (t[0] !== '"') return t;
    let bin;
    try {
      bin = atob(JSON.parse(t));
    } catch {
      return t; // not base64: leave it to fromCF ("NaN" strings and the like)
    }
    if (bin.length !== 8) return t;
    const x = new DataView(Uint8Array.from(bin, (c) => c.charCodeAt(0)).buffer).getFloat64(0, true);
    // the shortest text that reads back as x; NaN and ±Infinity as Zarr's strings
    return Number.isFinite(x) ? String(x) : JSON.stringify(String(x));
  }
  // int(value): an integral number text stays exact; a fraction is cut toward zero.
  const x = Math.trunc(Number(t));
  return /^-?\d/.test(t) && !/^-?\d+$/.test(t) && Number.isFinite(x) ? BigInt(x).toString() : t;
}

// The CF attributes as xarray hands them to its decoders, as JSON text for fromCF (each value
// the text the core read), or null when there are none.
function cfAttributesText(p, dataType, useMask) {
  const out = [];
  CF_KEYS.forEach((k, i) => {
    const t = p.attrs[i];
    if (present(t)) out.push([k, k === '_FillValue' && p.format === 3 && !useMask ? v3FillValue(t, dataType) : t]);
  });
  // xarray's use_zarr_fill_value_as_mask: the array's fill_value (when not null) is the _FillValue.
  if (useMask && present(p.fill)) {
    const f = out.find(([k]) => k === '_FillValue');
    if (f) f[1] = p.fill;
    else out.push(['_FillValue', p.fill]);
  }
  return out.length === 0 ? null : `{${out.map(([k, t]) => `"${k}":${t}`).join(',')}}`;
}

// ---------------------------------------------------------------------------------------------
// openCF

const ARRAY_CODECS = (codecs) => codecs.filter((c) => c.name !== 'bytes');

// Typed array of `dataType` over the same memory as `data` (an _Unsigned reinterpretation).
const VIEWS = {
  int8: Int8Array, uint8: Uint8Array, int16: Int16Array, uint16: Uint16Array,
  int32: Int32Array, uint32: Uint32Array, int64: globalThis.BigInt64Array, uint64: globalThis.BigUint64Array,
};

function looksLikeArray(a) {
  return a !== null && typeof a === 'object' && a.kind === 'array' && typeof a.getChunk === 'function' &&
    typeof a.resolve === 'function' && a.store && typeof a.store.get === 'function' && Array.isArray(a.shape);
}

// The arrays openCF made: they have no CF attributes left to unpack.
const OPENED = new WeakSet();

/**
 * From a zarrita array whose attributes carry CF packing, an array that `zarr.get` reads with
 * the values and float type of `xarray.open_zarr` (mask_and_scale on). An array without CF
 * attributes, or with nothing to unpack, comes back unchanged, and so does an array openCF
 * returned. The result's `cf` property says what was applied: `{ packedDataType, dataType,
 * codecs, warnings, attributes }`; its `attrs` are the array's without the CF attributes.
 */
export async function openCF(array, options) {
  if (OPENED.has(array)) return array;
  let ok;
  try {
    ok = looksLikeArray(array);
  } catch (e) {
    throw codedError('invalid_argument', `openCF(array): reading the array threw ${e?.message ?? e}`, e);
  }
  if (!ok) {
    throw codedError('invalid_argument', 'openCF(array): pass a zarrita array, e.g. await zarr.open(store, { kind: "array" })');
  }
  const opts = options ?? {};
  if (typeof opts !== 'object' && typeof opts !== 'function') {
    throw codedError('invalid_argument', `openCF: options must be an object, got ${describe(opts)}`);
  }
  const option = (k) => read(opts, k, `openCF() options.${k}`);
  const zarrFormat = option('zarrFormat');
  const consolidated = option('consolidated');
  const useMask = option('useZarrFillValueAsMask');
  const onWarning = option('onWarning');
  if (zarrFormat !== undefined && zarrFormat !== 2 && zarrFormat !== 3) {
    throw codedError('invalid_argument', `openCF: zarrFormat must be 2 or 3, not ${describe(zarrFormat)}`);
  }
  for (const [k, v] of [['consolidated', consolidated], ['useZarrFillValueAsMask', useMask]]) {
    if (v !== undefined && typeof v !== 'boolean') {
      throw codedError('invalid_argument', `openCF: ${k} must be true, false or undefined, not ${describe(v)}`);
    }
  }
  await ready();
  let pieces = await readPieces(array, zarrFormat, consolidated);
  if (pieces === undefined) {
    // No document to read (a store that serves no metadata): the attributes zarrita parsed,
    // where an integral float (300.0) reads as an integer.
    pieces = v3Pieces(toJsonText({ node_type: 'array', attributes: array.attrs ?? {} }), '', 'the attributes zarrita read');
  }
  const packed = array.dtype;
  const attrsText = cfAttributesText(pieces, packed, useMask ?? pieces.format === 2);
  if (attrsText === null) return array;
  let cf;
  try {
    cf = fromCF(attrsText, packed);
  } catch (e) {
    throw codedError(e.code ?? 'invalid_metadata', `openCF ${array.path}: ${e.message}`, e);
  }
  const warn = typeof onWarning === 'function' ? onWarning : (w) => console.warn(`openCF ${array.path}: ${w.pointer}: ${w.message}`);
  for (const w of cf.warnings ?? []) warn(w);

  const codecs = ARRAY_CODECS(cf.codecs);
  const stored = cf.codecs.find((c) => c.name === 'cast_value')?.configuration.data_type ?? cf.data_type;
  const reinterpret = stored !== packed ? VIEWS[stored] : undefined;
  if (codecs.length === 0 && reinterpret === undefined) return array; // nothing to unpack

  const handle = codecs.length > 0 ? bind(codecs, cf.data_type) : null;
  const decodeData = (data) => {
    const view = reinterpret ? new reinterpret(data.buffer, data.byteOffset, data.length) : data;
    return handle ? handle.decode(view) : view;
  };
  // The packed fill value (what a missing chunk holds) decoded: NaN for a _FillValue, else its value.
  const packedFill = array.fillValue ?? 0;
  const Packed = VIEWS[packed] ?? { float16: globalThis.Float16Array, float32: Float32Array, float64: Float64Array }[packed];
  const one = new Packed(1);
  one[0] = packed.endsWith('int64') ? BigInt(packedFill) : Number(packedFill);
  let fillValue = decodeData(one)[0];
  // zarr.json spells NaN and ±Infinity as strings (zarrita maps them back to numbers).
  if (typeof fillValue === 'number' && !Number.isFinite(fillValue)) fillValue = String(fillValue);

  const attributes = Object.fromEntries(Object.entries(array.attrs ?? {}).filter(([k]) => !CF_KEYS.includes(k)));
  const n = array.shape.length;
  const metadata = {
    zarr_format: 3,
    node_type: 'array',
    shape: array.shape,
    data_type: cf.data_type,
    chunk_grid: { name: 'regular', configuration: { chunk_shape: array.chunks } },
    chunk_key_encoding: { name: 'default', configuration: { separator: '/' } },
    fill_value: fillValue,
    codecs: [
      ...(pieces.order?.length === n ? [{ name: 'transpose', configuration: { order: pieces.order } }] : []),
      { name: 'bytes', configuration: { endian: 'little' } },
    ],
    attributes,
    dimension_names: array.dimensionNames,
  };
  const source = array.store;
  const store = {
    get: (key, o) => source.get(key, o),
    set() {
      throw codedError('read_only', 'openCF arrays are read-only: write the packed array instead');
    },
  };
  if (typeof source.getRange === 'function') store.getRange = (key, r, o) => source.getRange(key, r, o);
  const ArrayClass = array.constructor;
  const out = new ArrayClass(store, array.path, metadata);
  Object.defineProperty(out, 'getChunk', {
    value: async (coords, o, opts2) => {
      const c = await array.getChunk(coords, o, opts2);
      const label = `openCF ${array.path}, chunk [${coords.join(', ')}]`;
      checkChunkLength(c, 'decode', label);
      try {
        return { data: decodeData(c.data), shape: c.shape, stride: c.stride };
      } catch (e) {
        throw codedError(e.code ?? 'invalid_data', `${label}: ${e.message}`, e);
      }
    },
  });
  Object.defineProperty(out, 'cf', {
    value: Object.freeze({
      packedDataType: packed,
      dataType: cf.data_type,
      codecs: cf.codecs,
      warnings: cf.warnings ?? [],
      attributes: parseExact(attrsText),
    }),
  });
  OPENED.add(out);
  return out;
}

// ---------------------------------------------------------------------------------------------
// keepV2Filters' document rewriting (js/zarrita.js), here to keep it off the download of v3 users

const isFixedScaleOffset = (f) => f !== null && typeof f === 'object' && (f.id === 'fixedscaleoffset' || f.id === 'numcodecs.fixedscaleoffset');

// A .zarray document with its fixedscaleoffset filters renamed; null if it has none.
function renameFilters(doc, id) {
  if (doc === null || typeof doc !== 'object' || !Array.isArray(doc.filters) || !doc.filters.some(isFixedScaleOffset)) return null;
  return { ...doc, filters: doc.filters.map((f) => (isFixedScaleOffset(f) ? { ...f, id } : f)) };
}

// The end (exclusive) of the JSON string token whose opening quote is t[i].
function stringEnd(t, i) {
  for (let j = i + 1; ; j++) {
    if (t[j] === '\\') j++;
    else if (t[j] === '"') return j + 1;
  }
}

// [key, start, end] of the value of each member of the JSON object at the first '{' from t[i]
// (t is JSON that JSON.parse read), in source order, duplicates included.
function memberSpans(t, i) {
  const spans = [];
  let depth = 0;
  let key;
  let start;
  for (let j = t.indexOf('{', i); ; j++) {
    const c = t[j];
    if (c === '"') {
      const e = stringEnd(t, j);
      if (depth === 1 && key === undefined) key = JSON.parse(t.slice(j, e));
      j = e - 1;
    } else if (c === ':' && depth === 1) start = j + 1;
    else if (c === '{' || c === '[') depth++;
    else if (c === '}' || c === ']' || (c === ',' && depth === 1)) {
      if (depth === 1 && key !== undefined) {
        spans.push([key, start, j]);
        key = undefined;
      }
      if (c !== ',' && --depth === 0) return spans;
    }
  }
}

// keepV2Filters (js/zarrita.js): the bytes of a .zarray or .zmetadata document with its
// fixedscaleoffset filters given the id `id`, or
// the bytes unchanged (also when they are not JSON: zarrita reports that itself). Only the
// changed .zarray documents are written anew (with JSON.stringify, which writes every number
// JSON.parse read as the same double, as zarrita reads it); the rest of a .zmetadata keeps its
// text, so the number spellings of other arrays (scale_factor 2.0, which xarray reads as a
// float) survive for whoever reads it next.
export function rewriteV2Document(key, bytes, id) {
  const text = new TextDecoder().decode(bytes);
  let doc;
  try {
    doc = JSON.parse(text);
  } catch {
    return bytes;
  }
  let out = null;
  if (key.endsWith('.zarray')) {
    const r = renameFilters(doc, id);
    if (r !== null) out = JSON.stringify(r);
  } else if (doc?.metadata !== null && typeof doc?.metadata === 'object' && !Array.isArray(doc.metadata)) {
    // JSON.parse keeps the last "metadata" member: so does this.
    const meta = memberSpans(text, 0).findLast(([k]) => k === 'metadata');
    let t = text;
    for (const [k, s, e] of memberSpans(text, meta[1]).reverse()) {
      const r = k.endsWith('.zarray') ? renameFilters(JSON.parse(text.slice(s, e)), id) : null;
      if (r !== null) t = t.slice(0, s) + JSON.stringify(r) + t.slice(e);
    }
    if (t !== text) out = t;
  }
  return out === null ? bytes : new TextEncoder().encode(out);
}
