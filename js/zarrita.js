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
// All arithmetic runs in the WebAssembly core: each `fromConfig` binds its configuration once to
// the data type and fill value it receives (`bind` of the package entry); encode and decode call
// that handle, and getEncodedMeta reads the encoded data type and fill value from it.
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
import { bind, ready, toJsonText } from './index.js';

/** The codec names `register` sets. */
export const codecNames = Object.freeze(['scale_offset', 'cast_value', 'cf.scale_offset', 'numcodecs.fixedscaleoffset']);

/**
 * Key on a ChunkMetadata object under which our codecs pass the real data type and fill value
 * (JSON text) of a surrogate type to the next codec: `{ dataType, surrogate, fill }`.
 */
export const ENCODED_META = Symbol.for('zarr-scale-offset.encodedMeta');

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

// The data type a codec receives and its fill value as options of `bind`, seeing through our
// surrogates: the fill value zarrita parsed (`fill`: NaN/±Infinity numbers, int64 as BigInt, an
// integer beyond 2^53 taken at its exact value), or the JSON text a codec of ours passed on.
function incoming(meta) {
  const hidden = meta ? meta[ENCODED_META] : undefined;
  if (hidden && hidden.surrogate === meta.dataType) return { dataType: hidden.dataType, fill: { fillText: hidden.fill } };
  return { dataType: meta?.dataType, fill: { fill: meta?.fillValue } };
}

// int2 / int4: signed integers narrower than their byte (held sign-extended in an Int8Array).
const signedSubByte = (dataType) => {
  const t = DATA_TYPES[dataType];
  return t !== undefined && !t.float && t.bits < 8 && t.array === 'Int8Array';
};

// Values of `dataType` as zarrita holds them -> in-memory values for `bind`'s handle: the raw
// stored bits of a sub-byte type (a uint8 surrogate; its upper bits do not count, as in the
// `bytes` codec) become sign-extended int2/int4 or masked codes.
function toCore(data, dataType) {
  const bits = DATA_TYPES[dataType]?.bits;
  if (bits === undefined || bits >= 8 || data instanceof Int8Array) return data;
  const mask = (1 << bits) - 1;
  const shift = 32 - bits;
  const signed = signedSubByte(dataType);
  const out = signed ? new Int8Array(data.length) : new Uint8Array(data.length);
  for (let i = 0; i < data.length; i++) {
    const v = Number(data[i]) & mask;
    out[i] = signed ? (v << shift) >> shift : v;
  }
  return out;
}

// In-memory values handed to encode: int2/int4 surrogates (raw bytes) become sign-extended.
function toCoreInput(data, dataType) {
  return signedSubByte(dataType) ? toCore(data, dataType) : data;
}

// The handle's encoded values -> what zarrita holds: int2/int4 as their stored low bits in a
// uint8 surrogate (every other type's typed array is already the one zarrita expects).
function asZarrita(data, dataType) {
  if (!signedSubByte(dataType)) return data;
  const mask = (1 << DATA_TYPES[dataType].bits) - 1;
  return Uint8Array.from(data, (v) => v & mask);
}

/**
 * The instance `fromConfig` returns for one codec of a chunk's codecs list.
 * @private
 */
class Codec {
  kind = 'array_to_array';
  #bound; // the bind handle, or null for zarrita's v2 cast_value stand-in (passes chunks through)
  #out; // data type it produces as far as zarrita is concerned (encode direction)

  constructor(bound, encodedType) {
    this.#bound = bound;
    this.#out = encodedType;
  }

  /** Decodes one chunk of the encoded data type; returns a new chunk. */
  decode(chunk) {
    const b = this.#bound;
    const data = b === null ? chunk.data : b.decode(toCore(chunk.data, b.encodedDataType));
    return { data, shape: chunk.shape, stride: chunk.stride };
  }

  /** Encodes one chunk of the data type this codec receives; returns a new chunk. */
  encode(chunk) {
    const b = this.#bound;
    if (b === null) return { data: chunk.data, shape: chunk.shape, stride: chunk.stride };
    const data = asZarrita(b.encode(toCoreInput(chunk.data, b.decodedDataType)), b.encodedDataType);
    return { data, shape: chunk.shape, stride: chunk.stride };
  }

  /** The chunk metadata after this codec: its data type (or surrogate) and encoded fill value. */
  getEncodedMeta(meta) {
    const out = { ...meta };
    delete out[ENCODED_META];
    const type = zarritaType(this.#out);
    out.dataType = type;
    // null for zarrita's v2 cast_value stand-in and numcodecs.fixedscaleoffset, which do not
    // carry the fill value (as in numcodecs and zarr-python), and when there was none.
    const fill = this.#bound?.encodedFillText ?? null;
    let fillValue = null;
    if (fill !== null) {
      const v = this.#bound.encodedFill;
      // zarrita's view: the value itself, or the raw bits of a surrogate
      fillValue = type === this.#out ? v : Number(v) & (2 ** DATA_TYPES[this.#out].bits - 1);
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

// `bind(codec, dataType, fill)`; an error names this codec and its place in the chunk's codecs.
function bindCodec(name, index, codec, dataType, fill) {
  try {
    return bind(codec, dataType, fill);
  } catch (e) {
    // The core names the field inside the codec object ("/configuration/scale: ..."), or the
    // codec itself as "(root)".
    const message = String(e.message).replace(/^\(root\): /, '');
    throw codedError(e.code ?? 'invalid_metadata', `zarr-scale-offset ${describeCodec(name, index)}: ${message}`, e);
  }
}

function fromConfig(name, config, meta) {
  const codecs = Array.isArray(meta?.codecs) ? meta.codecs : [];
  const index = indexOf(codecs, name, config);
  const { dataType, fill } = incoming(meta);
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
        return new Codec(null, v2.astype);
      }
      const astype = v2.astype ?? dataType;
      const conf = exactNumbers({ scale: v2.scale, offset: v2.offset, dtype: numpyName(dataType), astype: numpyName(astype) });
      const codec = toJsonText({ name: 'numcodecs.fixedscaleoffset', configuration: conf });
      // numcodecs never passes the fill value through the filter (the handle carries none on).
      const bound = bindCodec('fixedscaleoffset (v2 filter)', index, codec, dataType, fill);
      return new Codec(bound, dataType);
    }
  }

  const codec = toJsonText(config === undefined ? { name } : { name, configuration: exactNumbers(config) });
  const bound = bindCodec(name, index, codec, dataType, fill);
  return new Codec(bound, bound.encodedDataType);
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

export const openCF = async (array, options) => (await import('./cf.js')).openCF(array, options); // js/cf.js, loaded on first use
