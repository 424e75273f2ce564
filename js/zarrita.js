// zarr-scale-offset/zarrita: the exact codecs of this package for zarrita.js.
//
//   import * as zarr from "zarrita";
//   import { register } from "zarr-scale-offset/zarrita";
//   await register(zarr.registry);   // scale_offset, cast_value, cf.scale_offset, numcodecs.fixedscaleoffset
//
// This module does not import zarrita (it is a peer dependency): `register` receives zarrita's
// registry and sets one loader per codec name, replacing zarrita's built-in codecs of the same
// name. Every codec follows zarrita's codec contract (zarrita 0.7.x, src/codecs.ts):
//
//   - `fromConfig(config, meta)` is synchronous (zarrita does not await it), `config` may be
//     undefined, `meta` is `{ dataType, shape, codecs, fillValue }` where `dataType` is the type
//     this codec receives (after the `getEncodedMeta` of the codecs before it) and `fillValue`
//     is already parsed by zarrita (NaN/±Infinity as numbers, int64/uint64 as BigInt);
//   - `kind: "array_to_array"`; `encode`/`decode` take `{ data, shape, stride }` and return a
//     new chunk with the same shape and stride;
//   - `getEncodedMeta(meta)` gives the data type and fill value after this codec.
//
// All arithmetic runs in the WebAssembly core: each codec instance turns its configuration, data
// type and fill value into a one-codec zarr.json document and calls decodeChunk/encodeChunk.
//
// Data types zarrita has no typed array for (bfloat16, the 4/6/8-bit floats, int2/int4/uint2/
// uint4, and float16 where the runtime has no Float16Array) travel between codecs as a
// same-width unsigned integer "surrogate" (uint16 for 2-byte types, uint8 for 1-byte types)
// holding the raw stored bits, so zarrita's `bytes` codec passes them through unchanged. The
// real data type and fill value ride along on the metadata object under ENCODED_META.
//
// v2 arrays: zarrita never looks up a v2 `fixedscaleoffset` filter in the registry; its
// v2ToV3ArrayMetadata rewrites it into `scale_offset {scale, offset}` followed by `cast_value
// {data_type: astype, rounding: "nearest-even", out_of_range: "wrap"}` (no cast_value when
// astype equals dtype). Such a pair in a codecs list without a v3 `bytes`/`sharding_indexed`
// codec (or with only the big-endian `bytes` zarrita inserts for v2) is read here with
// numcodecs' own semantics (`numcodecs.fixedscaleoffset`): decode in float64 and cast once,
// whatever the fill value (a NaN fill is fine).

import { DATA_TYPES } from './dtypes.js';
import { decode, decodeChunk, encode, encodeChunk, encodedDataType, ready, toJsonText, validate } from './index.js';

/** The codec names `register` sets. */
export const codecNames = Object.freeze(['scale_offset', 'cast_value', 'cf.scale_offset', 'numcodecs.fixedscaleoffset']);

/**
 * Key on a ChunkMetadata object under which our codecs pass the real data type and fill value
 * (JSON text) of a surrogate type to the next codec: `{ dataType, surrogate, fill }`.
 */
export const ENCODED_META = Symbol.for('zarr-scale-offset.encodedMeta');

const NATIVE_ENDIAN = new Uint8Array(new Uint16Array([1]).buffer)[0] === 1 ? 'little' : 'big';

// The data types zarrita 0.7 holds in a typed array (util.ts getCtr): those whose typed array
// holds the values at full width (int8 ... uint64, float32, float64, and float16 where the runtime
// has a Float16Array), not raw bits or sub-byte values.
function zarritaHolds(dataType) {
  const t = DATA_TYPES[dataType];
  if (!t || t.bits !== 8 * t.size || (t.float && !t.array.startsWith('Float'))) return false;
  return typeof globalThis[t.array] === 'function';
}

// The data type zarrita sees for `dataType`: itself, or a same-width unsigned integer.
function zarritaType(dataType) {
  if (zarritaHolds(dataType)) return dataType;
  const w = DATA_TYPES[dataType]?.size;
  if (w === 1) return 'uint8';
  if (w === 2) return 'uint16';
  return dataType; // not a data type of the table: let the core report it
}

// The typed-array constructor zarrita uses for a data type it holds (else undefined).
const ctorOf = (dataType) => (zarritaHolds(dataType) ? globalThis[DATA_TYPES[dataType].array] : undefined);

const isFloat = (dataType) => DATA_TYPES[dataType]?.float === true;

// ---------------------------------------------------------------------------------------------
// errors

function codedError(code, message, cause) {
  const e = new Error(message, cause === undefined ? undefined : { cause });
  e.code = code;
  return e;
}

function describeCodec(name, index) {
  return index >= 0 ? `${name} (codec ${index} of the chunk's codecs)` : name;
}

// ---------------------------------------------------------------------------------------------
// the data type and fill value a codec receives

// The NumPy spelling numcodecs/zarr v2 write ("<f4", "|u1"), or the name for types NumPy lacks.
function numpyName(dataType) {
  return DATA_TYPES[dataType]?.numpy ?? dataType;
}

// zarrita parsed zarr.json with JSON.parse: an integer beyond 2^53 is now the nearest double,
// and JSON.stringify would write that double's shortest decimal (2^62 -> 4611686018427388000).
// Write such a number as the exact integer value of the double instead.
const EXACT_FROM = 2 ** 53;
const EXACT_TO = 2 ** 65;

function exactNumbers(value) {
  if (typeof value === 'number') {
    const a = Math.abs(value);
    return Number.isInteger(value) && a >= EXACT_FROM && a < EXACT_TO ? BigInt(value) : value;
  }
  if (Array.isArray(value)) return value.map(exactNumbers);
  if (value !== null && typeof value === 'object') {
    const out = {};
    for (const [k, v] of Object.entries(value)) out[k] = exactNumbers(v);
    return out;
  }
  return value;
}

// JSON text of a fill value zarrita has parsed, for data type `dataType` (null: none).
function fillText(value, dataType) {
  if (value === null || value === undefined) return null;
  switch (typeof value) {
    case 'bigint':
      return value.toString();
    case 'number':
      if (Number.isNaN(value)) return '"NaN"';
      if (value === Infinity) return '"Infinity"';
      if (value === -Infinity) return '"-Infinity"';
      if (Object.is(value, -0)) return isFloat(dataType) ? '-0.0' : '0';
      return toJsonText(exactNumbers(value));
    default:
      return toJsonText(value);
  }
}

// The data type and fill value (JSON text) a codec receives, seeing through our surrogates.
function incoming(meta) {
  const hidden = meta ? meta[ENCODED_META] : undefined;
  if (hidden && hidden.surrogate === meta.dataType) return { dataType: hidden.dataType, fill: hidden.fill };
  const dataType = meta?.dataType;
  return { dataType, fill: fillText(meta?.fillValue, dataType) };
}

// One element of a typed array as the JSON text of its value in `dataType`.
function elementText(ta, dataType) {
  const v = ta[0];
  if (typeof v === 'bigint') return v.toString();
  if (ta instanceof Uint16Array && isFloat(dataType)) return JSON.stringify('0x' + v.toString(16).padStart(4, '0'));
  if (ta instanceof Uint8Array && isFloat(dataType)) return JSON.stringify('0x' + v.toString(16).padStart(2, '0'));
  return fillText(v, dataType);
}

// ---------------------------------------------------------------------------------------------
// one-codec zarr.json documents

function documentText(dataType, fill, codecText, n) {
  return (
    `{"zarr_format":3,"node_type":"array","shape":[${n}],"data_type":${JSON.stringify(dataType)},` +
    `"chunk_grid":{"name":"regular","configuration":{"chunk_shape":[${n}]}},` +
    `"chunk_key_encoding":{"name":"default"},"fill_value":${fill},` +
    `"codecs":[${codecText},{"name":"bytes","configuration":{"endian":"${NATIVE_ENDIAN}"}}]}`
  );
}

function bytesOf(data) {
  return new Uint8Array(data.buffer, data.byteOffset, data.byteLength);
}

// Stored bytes (after `bytes`) -> the typed array zarrita sees for `dataType`.
function asZarrita(bytes, dataType) {
  const Ctor = ctorOf(zarritaType(dataType)) ?? Uint8Array;
  if (Ctor === Uint8Array) return bytes;
  if (bytes.byteOffset % Ctor.BYTES_PER_ELEMENT !== 0) bytes = bytes.slice();
  return new Ctor(bytes.buffer, bytes.byteOffset, bytes.byteLength / Ctor.BYTES_PER_ELEMENT);
}

// In-memory values handed to encode: surrogates of the sub-byte signed integers (int2/int4, raw
// bytes) become sign-extended.
function toCoreInput(data, dataType) {
  const t = DATA_TYPES[dataType];
  if (t && !t.float && t.array === 'Int8Array' && t.bits < 8 && !(data instanceof Int8Array)) {
    const bits = t.bits;
    const shift = 32 - bits;
    const out = new Int8Array(data.length);
    for (let i = 0; i < data.length; i++) out[i] = ((Number(data[i]) & ((1 << bits) - 1)) << shift) >> shift;
    return out;
  }
  return data;
}

// The fill value a codec receives as a one-element typed array of `dataType`, parsed by the core
// from its JSON text (a cast_value scalar_map entry: any form a fill value may take).
function fillArray(dataType, fill) {
  const carrier = `[{"name":"cast_value","configuration":{"data_type":"uint8","scalar_map":{"decode":[[0,${fill}]]}}}]`;
  return decode(carrier, dataType, new Uint8Array(1));
}

/**
 * The instance `fromConfig` returns for one codec of a chunk's codecs list.
 * @private
 */
class Codec {
  kind = 'array_to_array';
  #name;
  #codecText;
  #in; // data type this codec receives
  #out; // data type it produces (encode direction)
  #fill; // JSON text of the fill value it receives, or null
  #docs = new Map();
  #passThrough;

  constructor({ name, codecText, dataType, encodedType, fill, passThrough = false }) {
    this.#name = name;
    this.#codecText = codecText;
    this.#in = dataType;
    this.#out = encodedType;
    this.#fill = fill;
    this.#passThrough = passThrough;
  }

  #doc(n) {
    let d = this.#docs.get(n);
    if (d === undefined) {
      d = documentText(this.#in, this.#fill, this.#codecText, n);
      if (this.#docs.size > 16) this.#docs.clear();
      this.#docs.set(n, d);
    }
    return d;
  }

  /** Decodes one chunk of the encoded data type; returns a new chunk. */
  decode(chunk) {
    if (this.#passThrough) return { data: chunk.data, shape: chunk.shape, stride: chunk.stride };
    const data = decodeChunk(this.#doc(chunk.data.length), bytesOf(chunk.data));
    return { data, shape: chunk.shape, stride: chunk.stride };
  }

  /** Encodes one chunk of the data type this codec receives; returns a new chunk. */
  encode(chunk) {
    if (this.#passThrough) return { data: chunk.data, shape: chunk.shape, stride: chunk.stride };
    const stored = encodeChunk(this.#doc(chunk.data.length), toCoreInput(chunk.data, this.#in));
    return { data: asZarrita(stored, this.#out), shape: chunk.shape, stride: chunk.stride };
  }

  /** The chunk metadata after this codec: its data type (or surrogate) and encoded fill value. */
  getEncodedMeta(meta) {
    const out = { ...meta };
    delete out[ENCODED_META];
    const type = zarritaType(this.#out);
    out.dataType = type;
    let fill = null;
    let fillValue = null;
    if (this.#passThrough) {
      // zarrita's v2 cast_value stand-in: numcodecs does not transform the fill value.
    } else if (this.#fill !== null) {
      try {
        const enc = encode(`[${this.#codecText}]`, this.#in, fillArray(this.#in, this.#fill));
        fill = elementText(enc, this.#out);
        // zarrita's view: the value itself, or the raw bits of a surrogate
        fillValue = type === this.#out ? enc[0] : Number(enc[0]) & (2 ** DATA_TYPES[this.#out].bits - 1);
      } catch {
        // a read-only codec (numcodecs.fixedscaleoffset): the fill value is bookkeeping only
      }
    }
    out.fillValue = fillValue;
    if (type !== this.#out || fill !== null) out[ENCODED_META] = { dataType: this.#out, surrogate: type, fill };
    return out;
  }
}

// ---------------------------------------------------------------------------------------------
// zarrita's v2 fixedscaleoffset translation

const ARRAY_TO_BYTES = new Set(['bytes', 'sharding_indexed']);

function configKeys(c) {
  return c && typeof c === 'object' ? Object.keys(c).join(',') : '';
}

// Whether `codecs` is a list zarrita built from v2 .zarray metadata (v2ToV3ArrayMetadata):
// no v3 array->bytes codec, or only the big-endian `bytes` it inserts, followed by numcodecs.*.
function isV2Layout(codecs) {
  const a2b = codecs.filter((c) => ARRAY_TO_BYTES.has(c?.name));
  if (a2b.length === 0) return true;
  if (a2b.length !== 1 || a2b[0].name !== 'bytes') return false;
  const c = a2b[0].configuration;
  if (configKeys(c) !== 'endian' || c.endian !== 'big') return false;
  const at = codecs.indexOf(a2b[0]);
  return codecs.slice(at + 1).every((x) => typeof x?.name === 'string' && x.name.startsWith('numcodecs.'));
}

// If codecs[i] is the scale_offset zarrita made from a v2 fixedscaleoffset filter, that filter's
// configuration ({scale, offset, astype}, astype a zarr name); else null.
function v2FixedScaleOffset(codecs, i) {
  const so = codecs[i];
  if (!so || so.name !== 'scale_offset') return null;
  const c = so.configuration;
  if (configKeys(c) !== 'scale,offset' || typeof c.scale !== 'number' || typeof c.offset !== 'number') return null;
  if (!isV2Layout(codecs)) return null;
  const next = codecs[i + 1];
  if (next && next.name === 'cast_value') {
    const k = next.configuration;
    if (configKeys(k) !== 'data_type,rounding,out_of_range' || k.rounding !== 'nearest-even' || k.out_of_range !== 'wrap') {
      return null;
    }
    return { scale: c.scale, offset: c.offset, astype: k.data_type, castIndex: i + 1 };
  }
  return { scale: c.scale, offset: c.offset, astype: null, castIndex: -1 };
}

function indexOf(codecs, name, config) {
  if (!Array.isArray(codecs)) return -1;
  return codecs.findIndex((c) => c && c.name === name && (c.configuration === config || (config === undefined && c.configuration === undefined)));
}

// ---------------------------------------------------------------------------------------------
// fromConfig

function check(name, index, docText) {
  const r = validate(docText);
  if (r.valid) return;
  const where = describeCodec(name, index);
  const lines = r.errors.map((e) => {
    const path = e.path.replace(/^\/codecs\/0(?=\/|$)/, '').replace(/^\/fill_value$/, 'the fill value');
    return path ? `${path}: ${e.message}` : e.message;
  });
  throw codedError(r.errors[0].code, `zarr-scale-offset ${where}: ${lines.join('; ')}`);
}

function fromConfig(name, config, meta) {
  const codecs = Array.isArray(meta?.codecs) ? meta.codecs : [];
  const index = indexOf(codecs, name, config);
  const { dataType, fill: fillIn } = incoming(meta);
  if (typeof dataType !== 'string') {
    throw codedError('invalid_metadata', `zarr-scale-offset ${describeCodec(name, index)}: no data type in the chunk metadata`);
  }

  // zarrita's rewrite of a v2 fixedscaleoffset filter
  if (index >= 0 && (name === 'scale_offset' || name === 'cast_value')) {
    const soIndex = name === 'scale_offset' ? index : index - 1;
    const v2 = v2FixedScaleOffset(codecs, soIndex);
    if (v2 && (name === 'scale_offset' || v2.castIndex === index)) {
      if (name === 'cast_value') {
        // numcodecs' decode is done by the scale_offset before it; this one only says the type
        return new Codec({ name, codecText: '', dataType, encodedType: v2.astype, fill: null, passThrough: true });
      }
      const astype = v2.astype ?? dataType;
      const conf = exactNumbers({ scale: v2.scale, offset: v2.offset, dtype: numpyName(dataType), astype: numpyName(astype) });
      const codecText = toJsonText({ name: 'numcodecs.fixedscaleoffset', configuration: conf });
      // numcodecs never passes the fill value through the filter: check the filter with any fill.
      const fill = fillIn ?? '0';
      check('fixedscaleoffset (v2 filter)', index, documentText(dataType, fill, codecText, 1));
      return new Codec({ name, codecText, dataType, encodedType: dataType, fill });
    }
  }

  const codecText = toJsonText(config === undefined ? { name } : { name, configuration: exactNumbers(config) });
  let encodedType;
  try {
    encodedType = encodedDataType(`[${codecText}]`, dataType);
  } catch (e) {
    // the core names the codec's place in a one-codec list ("/0/configuration/scale: ...")
    const message = String(e.message).replace(/(^|\s)\/0(?=\/|:)/g, '$1');
    throw codedError(e.code ?? 'invalid_metadata', `zarr-scale-offset ${describeCodec(name, index)}: ${message}`, e);
  }
  let fill = fillIn;
  if (fill === null) {
    // No fill value (zarrita gives null for v2 arrays without one): use the value an encoded zero
    // decodes to, which always passes the codec.
    try {
      const Zero = ctorOf(zarritaType(encodedType)) ?? Uint8Array;
      const zero = encodedType === 'float8_e8m0fnu' ? new Uint8Array([127]) : new Zero(1);
      fill = elementText(decode(`[${codecText}]`, dataType, zero), dataType);
    } catch {
      fill = '0';
    }
  }
  check(name, index, documentText(dataType, fill, codecText, 1));
  return new Codec({ name, codecText, dataType, encodedType, fill });
}

function entry(name) {
  return Object.freeze({
    kind: 'array_to_array',
    fromConfig: (config, meta) => fromConfig(name, config, meta),
  });
}

/**
 * zarrita codec entries (`{ kind, fromConfig }`) by name, for wiring by hand:
 * `registry.set("scale_offset", async () => codecEntries.scale_offset)` (after `await ready()`).
 */
export const codecEntries = Object.freeze(Object.fromEntries(codecNames.map((n) => [n, entry(n)])));

/**
 * Initialises the WebAssembly module, then sets `scale_offset`, `cast_value`, `cf.scale_offset`
 * and `numcodecs.fixedscaleoffset` on zarrita's codec registry (replacing its built-in codecs of
 * those names). Call it once, before the first read. Resolves to the names it set.
 */
export async function register(registry) {
  if (!registry || typeof registry.set !== 'function') {
    throw new TypeError('register(registry): pass zarrita\'s codec registry, e.g. register(zarr.registry) after import * as zarr from "zarrita"');
  }
  await ready();
  for (const name of codecNames) {
    const e = codecEntries[name];
    registry.set(name, async () => e);
  }
  return [...codecNames];
}
