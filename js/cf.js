// openCF: a zarrita array whose attributes carry CF packing (scale_factor, add_offset,
// _FillValue, missing_value, _Unsigned), read as `xarray.open_zarr` reads it (mask_and_scale on).
//
//   import * as zarr from "zarrita";
//   import { openCF } from "zarr-scale-offset/zarrita";
//   const t2m = await openCF(await zarr.open(store.resolve("t2m"), { kind: "array" }));
//   const { data } = await zarr.get(t2m, [zarr.slice(0, 10), null]); // Float64Array, kelvin
//
// What xarray does, and so what this does:
//   - the attributes come from the array's metadata document, read again from the store as text:
//     a JSON number with a fraction or exponent is a Python float, one without is a Python int
//     (JSON.parse cannot tell 300.0 from 300, and xarray's float type depends on it);
//   - Zarr v2: the array's `fill_value` is the `_FillValue` (xarray's use_zarr_fill_value_as_mask,
//     on by default for v2); Zarr v3: the `_FillValue` attribute, which xarray writes as an
//     integer for integer data and as base64 of the little-endian float64 for float data, and
//     the array's `fill_value` is not a missing value;
//   - the rest (float type, NaN fill values, `_Unsigned`, nothing to unpack) is `fromCF`.
//
// The result is a zarrita Array of the decoded type over the same chunk grid: its `getChunk`
// reads the packed chunk with the original array (so sharding, compression, missing chunks and
// any array extensions stay zarrita's) and decodes it with the codecs of `fromCF`, bound once
// (`bind`). `zarr.get` then reads any selection. It is read-only.

import { bind, fromCF, ready } from './index.js';
import { NUMBER, numberText, parseKeepingNumbers } from './numbers.js';

const CF_KEYS = ['scale_factor', 'add_offset', '_FillValue', 'missing_value', '_Unsigned'];

function codedError(code, message, cause) {
  const e = new Error(message, cause === undefined ? undefined : { cause });
  e.code = code;
  return e;
}

// ---------------------------------------------------------------------------------------------
// JSON text with the source text of every number kept (js/numbers.js reads it)

// JSON text of a value from parseKeepingNumbers: numbers as they were written (NaN and
// ±Infinity as the strings fromCF reads).
function writeKeepingNumbers(v) {
  const t = numberText(v);
  if (t !== undefined) return /^-?Infinity$|^NaN$/.test(t) ? JSON.stringify(t) : t;
  if (Array.isArray(v)) return `[${v.map(writeKeepingNumbers).join(',')}]`;
  if (v !== null && typeof v === 'object') {
    return `{${Object.entries(v).map(([k, x]) => `${JSON.stringify(k)}:${writeKeepingNumbers(x)}`).join(',')}}`;
  }
  return JSON.stringify(v);
}

// A value from JSON.parse in the form of parseKeepingNumbers (its numbers as marker strings).
function mark(v) {
  if (typeof v === 'number') return NUMBER + String(v);
  if (Array.isArray(v)) return v.map(mark);
  if (v !== null && typeof v === 'object') return Object.fromEntries(Object.entries(v).map(([k, x]) => [k, mark(x)]));
  return v;
}

// The plain JS value (numbers as numbers).
function plain(v) {
  const t = numberText(v);
  if (t !== undefined) return Number(t);
  if (Array.isArray(v)) return v.map(plain);
  if (v !== null && typeof v === 'object') return Object.fromEntries(Object.entries(v).map(([k, x]) => [k, plain(x)]));
  return v;
}

// ---------------------------------------------------------------------------------------------
// the metadata document, read again from the store

async function readJson(array, name) {
  const { path } = array.resolve(name);
  let bytes;
  try {
    bytes = await array.store.get(path);
  } catch (e) {
    throw codedError('invalid_argument', `openCF: reading ${path} from the array's store failed: ${e?.message ?? e}`, e);
  }
  if (bytes === undefined || bytes === null) return undefined;
  const text = typeof bytes === 'string' ? bytes : new TextDecoder().decode(bytes);
  try {
    return parseKeepingNumbers(text);
  } catch (e) {
    throw codedError('invalid_json', `openCF: ${path} is not JSON: ${e.message}`, e);
  }
}

// xarray.open_zarr reads a v2 store's consolidated metadata (`.zmetadata` at the store's root)
// when the store has one (its default, consolidated=None), and so does openCF. Its text also keeps
// 300.0 apart from 300, which the documents zarrita's withConsolidatedMetadata serves do not (it
// re-serialises them with JSON.stringify); that wrapper hands a read of `/.zmetadata` itself
// through to the store it wraps, so this reads the file as written. One read per store; none
// (absent, unreadable, not JSON, no `metadata` object) means the array's own files are read.
const ZMETADATA = new WeakMap();

function consolidatedV2(store) {
  let p = ZMETADATA.get(store);
  if (p === undefined) {
    p = (async () => {
      let bytes;
      try {
        bytes = await store.get('/.zmetadata');
      } catch {
        return null;
      }
      if (bytes === undefined || bytes === null) return null;
      try {
        const doc = parseKeepingNumbers(typeof bytes === 'string' ? bytes : new TextDecoder().decode(bytes));
        return doc !== null && typeof doc === 'object' && doc.metadata !== null && typeof doc.metadata === 'object' ? doc.metadata : null;
      } catch {
        return null;
      }
    })();
    ZMETADATA.set(store, p);
  }
  return p;
}

// { format, attrs (numbers kept), fill (the array's fill_value, kept), order (transpose order or null) }
async function readMetadata(array, zarrFormat, consolidated) {
  if (zarrFormat !== 2) {
    const doc = await readJson(array, 'zarr.json');
    if (doc && typeof doc === 'object' && doc.node_type === 'array') {
      return { format: 3, attrs: doc.attributes ?? {}, fill: doc.fill_value, order: transposeOrder(doc.codecs) };
    }
    if (zarrFormat === 3) throw codedError('invalid_argument', `openCF: no Zarr v3 array metadata (zarr.json) at ${array.path}`);
  }
  // The keys of the array's documents in .zmetadata: "t2m/.zarray", or ".zarray" at the root.
  const prefix = String(array.path ?? '').replace(/^\/+|\/+$/g, '');
  const key = (name) => (prefix ? `${prefix}/${name}` : name);
  const all = consolidated === false ? null : await consolidatedV2(array.store);
  const listed = all?.[key('.zarray')];
  if (consolidated === true && !(listed && typeof listed === 'object')) {
    throw codedError('invalid_metadata', `openCF: consolidated is true, but the store has no .zmetadata listing ${key('.zarray')}`);
  }
  const zarray = listed && typeof listed === 'object' ? listed : await readJson(array, '.zarray');
  if (zarray && typeof zarray === 'object') {
    const zattrs = (listed === zarray ? all[key('.zattrs')] : await readJson(array, '.zattrs')) ?? {};
    const n = Array.isArray(zarray.shape) ? zarray.shape.length : 0;
    const order = zarray.order === 'F' ? Array.from({ length: n }, (_, i) => n - 1 - i) : null;
    return { format: 2, attrs: zattrs, fill: zarray.fill_value, order };
  }
  // No document to read (e.g. a store that serves no metadata): the attributes zarrita parsed,
  // where an integral float (300.0) reads as an integer.
  return { format: zarrFormat ?? 3, attrs: mark(array.attrs ?? {}), fill: undefined, order: null };
}

// The transpose order of a v3 codecs list (also inside sharding_indexed), as zarrita uses it.
function transposeOrder(codecs) {
  if (!Array.isArray(codecs)) return null;
  const shard = codecs.find((c) => c?.name === 'sharding_indexed');
  const list = shard ? shard.configuration?.codecs : codecs;
  const t = Array.isArray(list) ? list.find((c) => c?.name === 'transpose') : undefined;
  const order = t?.configuration?.order;
  return Array.isArray(order) ? order.map(plain) : null;
}

// ---------------------------------------------------------------------------------------------
// xarray's attributes

const isFloatType = (dt) => /^b?float/.test(dt);

// xarray's FillValueCoder.decode of a v3 `_FillValue` attribute: base64 of a little-endian
// float64 for float data, int(value) for integer data.
function v3FillValue(value, dataType) {
  const t = numberText(value);
  if (isFloatType(dataType)) {
    if (typeof value === 'string' && t === undefined) {
      let bin;
      try {
        bin = atob(value);
      } catch {
        return value; // not base64: leave it to fromCF ("NaN" strings and the like)
      }
      if (bin.length !== 8) return value;
      const bytes = Uint8Array.from(bin, (c) => c.charCodeAt(0));
      const x = new DataView(bytes.buffer).getFloat64(0, true);
      return Number.isFinite(x) ? NUMBER + String(x) : NUMBER + (Number.isNaN(x) ? 'NaN' : x > 0 ? 'Infinity' : '-Infinity');
    }
    return value;
  }
  // int(value): an integral number text stays exact; a fraction is cut toward zero.
  if (t !== undefined && !/^-?\d+$/.test(t) && Number.isFinite(Number(t))) {
    const x = Math.trunc(Number(t));
    return NUMBER + (Number.isSafeInteger(x) ? String(x) : BigInt(x).toString());
  }
  return value;
}

// The CF attributes as xarray hands them to its decoders, as JSON text for fromCF.
function cfAttributesText(meta, dataType, useFillValueAsMask) {
  const attrs = meta.attrs && typeof meta.attrs === 'object' && !Array.isArray(meta.attrs) ? meta.attrs : {};
  const out = {};
  for (const k of CF_KEYS) {
    // A null attribute is Python's None: xarray passes it over.
    if (attrs[k] !== undefined && attrs[k] !== null) out[k] = attrs[k];
  }
  if (meta.format === 3 && !useFillValueAsMask && out._FillValue !== undefined) {
    out._FillValue = v3FillValue(out._FillValue, dataType);
  }
  // xarray's use_zarr_fill_value_as_mask: the array's fill_value (when not null) is the _FillValue.
  if (useFillValueAsMask && meta.fill !== undefined && meta.fill !== null) out._FillValue = meta.fill;
  return writeKeepingNumbers(out);
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

/**
 * From a zarrita array whose attributes carry CF packing, an array that `zarr.get` reads with
 * the values and float type of `xarray.open_zarr` (mask_and_scale on). An array without CF
 * attributes, or with nothing to unpack, comes back unchanged. The result's `cf` property says
 * what was applied: `{ packedDataType, dataType, codecs, warnings, attributes }`.
 */
export async function openCF(array, options = {}) {
  if (!looksLikeArray(array)) {
    throw codedError('invalid_argument', 'openCF(array): pass a zarrita array, e.g. await zarr.open(store, { kind: "array" })');
  }
  const opts = options ?? {};
  if (opts.zarrFormat !== undefined && opts.zarrFormat !== 2 && opts.zarrFormat !== 3) {
    throw codedError('invalid_argument', `openCF: zarrFormat must be 2 or 3, not ${String(opts.zarrFormat)}`);
  }
  await ready();
  if (opts.consolidated !== undefined && typeof opts.consolidated !== 'boolean') {
    throw codedError('invalid_argument', `openCF: consolidated must be true, false or undefined, not ${String(opts.consolidated)}`);
  }
  const meta = await readMetadata(array, opts.zarrFormat, opts.consolidated);
  const useFillValueAsMask = opts.useZarrFillValueAsMask ?? meta.format === 2;
  const packed = array.dtype;
  const hasCF = CF_KEYS.some((k) => meta.attrs?.[k] !== undefined && meta.attrs?.[k] !== null) ||
    (useFillValueAsMask && meta.fill !== undefined && meta.fill !== null);
  if (!hasCF) return array;

  const attrsText = cfAttributesText(meta, packed, useFillValueAsMask);
  let cf;
  try {
    cf = fromCF(attrsText, packed);
  } catch (e) {
    throw codedError(e.code ?? 'invalid_metadata', `openCF ${array.path}: ${e.message}`, e);
  }
  const warn = typeof opts.onWarning === 'function' ? opts.onWarning : (w) => console.warn(`openCF ${array.path}: ${w.pointer}: ${w.message}`);
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
      ...(meta.order && meta.order.length === n ? [{ name: 'transpose', configuration: { order: meta.order } }] : []),
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
      try {
        return { data: decodeData(c.data), shape: c.shape, stride: c.stride };
      } catch (e) {
        throw codedError(e.code ?? 'invalid_data', `openCF ${array.path}, chunk [${coords.join(', ')}]: ${e.message}`, e);
      }
    },
  });
  Object.defineProperty(out, 'cf', {
    value: Object.freeze({
      packedDataType: packed,
      dataType: cf.data_type,
      codecs: cf.codecs,
      warnings: cf.warnings ?? [],
      attributes: JSON.parse(attrsText),
    }),
  });
  return out;
}
