// zarr-scale-offset/zarrita: the exact codecs of this package for zarrita.js.
//
//   import * as zarr from "zarrita";
//   import { register } from "zarr-scale-offset/zarrita";
//   register(zarr.registry);   // scale_offset, cast_value, cf.scale_offset, numcodecs.fixedscaleoffset
//                              // (entries set at once; `await` it to know the module loaded)
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
// v2 arrays: zarrita tells a codec nothing about the format, so `scale_offset` and `cast_value`
// always mean what the v3 specifications say, also when zarrita made them from a v2
// `fixedscaleoffset` filter. `keepV2Filters(store)` is how a caller says "read the v2 filters as
// numcodecs does" (see "Zarr v2 fixedscaleoffset filters" below).
//
// Errors: every codec error has a `.code`. zarrita wraps an error thrown while decoding or
// encoding a chunk in its CodecPipelineError, with ours as `err.cause`; errors of `fromConfig`
// (invalid metadata, found at the first read) reach the caller as they are. `errorCode(err)`
// finds the code either way.

import { DATA_TYPES } from './dtypes.js';
import { bind, checkChunkLength, codedError, ready, toJsonText } from './core.js';

/** The codecs of this package by their zarrita registry names (`register` also sets V2_FIXEDSCALEOFFSET). */
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

function describeCodec(name, index) {
  return index >= 0 ? `${name} (codec ${index} of the chunk's codecs)` : name;
}

// ---------------------------------------------------------------------------------------------
// the data type and fill value a codec receives

// zarrita parsed zarr.json with JSON.parse: an integer beyond 2^53 is now the nearest double.
// toJsonText (and bind's fill) write such a number as the exact integer value of the double
// (2^62 -> 4611686018427387904, not JSON.stringify's 4611686018427388000).

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

// The data a chain of our codecs was given to encode, by the data of each step's output.
const WRITTEN = new WeakMap();

/**
 * The instance `fromConfig` returns for one codec of a chunk's codecs list.
 * @private
 */
class Codec {
  kind = 'array_to_array';
  #bound; // the bind handle
  #out; // data type it produces as far as zarrita is concerned (encode direction)
  #label; // "scale_offset (codec 0 of the chunk's codecs)", for messages

  constructor(bound, label) {
    this.#bound = bound;
    this.#out = bound.encodedDataType;
    this.#label = label;
  }

  /** Decodes one chunk of the encoded data type; returns a new chunk. Throws `length_mismatch` if the data does not fill the shape. */
  decode(chunk) {
    checkChunkLength(chunk, 'decode', `zarr-scale-offset ${this.#label}`);
    const b = this.#bound;
    const data = b.decode(toCore(chunk.data, b.encodedDataType));
    return { data, shape: chunk.shape, stride: chunk.stride };
  }

  /** Encodes one chunk of the data type this codec receives; returns a new chunk. Throws `length_mismatch` if the data does not fill the shape. */
  encode(chunk) {
    checkChunkLength(chunk, 'encode', `zarr-scale-offset ${this.#label}`);
    const b = this.#bound;
    const input = chunk.data;
    let data;
    try {
      data = asZarrita(b.encode(toCoreInput(input, b.decodedDataType)), b.encodedDataType);
    } catch (e) {
      // Name the element with the value the caller wrote (our codecs map element i to element i;
      // zarrita tells a codec nothing about the chunk's place in the array).
      const i = /element (\d+)/.exec(e.message)?.[1];
      const at = i === undefined ? '' : `element ${i} of the chunk (written: ${(WRITTEN.get(input) ?? input)[i]}): `;
      throw codedError(e.code ?? 'invalid_data', `zarr-scale-offset ${this.#label}: ${at}${e.message.trim()}`, e);
    }
    WRITTEN.set(data, WRITTEN.get(input) ?? input);
    return { data, shape: chunk.shape, stride: chunk.stride };
  }

  /** The chunk metadata after this codec: its data type (or surrogate) and encoded fill value. */
  getEncodedMeta(meta) {
    const out = { ...meta };
    delete out[ENCODED_META];
    const type = zarritaType(this.#out);
    out.dataType = type;
    // null for numcodecs.fixedscaleoffset, which does not carry the fill value (as in numcodecs
    // and zarr-python), and when there was none.
    const fill = this.#bound.encodedFillText ?? null;
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
// fromConfig

function indexOf(codecs, name, config) {
  if (!Array.isArray(codecs)) return -1;
  return codecs.findIndex((c) => c && c.name === name && (c.configuration === config || (config === undefined && c.configuration === undefined)));
}

// `bind(codec, dataType, fill)`; an error names this codec and its place in the chunk's codecs.
function bindCodec(label, codec, dataType, fill) {
  try {
    return bind(codec, dataType, fill);
  } catch (e) {
    // The core names the field inside the codec object ("/configuration/scale: ..."), or the
    // codec itself as "(root)".
    const message = String(e.message).replace(/^\(root\): /, '');
    // zarrita reads a v2 fixedscaleoffset filter as scale_offset + cast_value, where a NaN fill
    // value cannot be cast to an integer astype
    const hint = /fill value NaN/.test(message) ? ' (a v2 fixedscaleoffset filter? Read it through keepV2Filters(store), as numcodecs does)' : '';
    throw codedError(e.code ?? 'invalid_metadata', `zarr-scale-offset ${label}: ${message}${hint}`, e);
  }
}

// `name` is the registry name zarrita looked up; `coreName` the codec the core binds (the v2
// filter's registry name binds as numcodecs.fixedscaleoffset: the same configuration, the same
// numcodecs semantics). The codecs list in `meta` is used for messages only: what a codec means
// never depends on the codecs around it.
// `prepare(config, label)` turns the configuration zarrita passes into the one the core binds.
function fromConfig(name, coreName, config, meta, prepare = (c) => c) {
  const codecs = Array.isArray(meta?.codecs) ? meta.codecs : [];
  const label = describeCodec(name, indexOf(codecs, name, config));
  const { dataType, fill } = incoming(meta);
  if (typeof dataType !== 'string') {
    throw codedError('invalid_metadata', `zarr-scale-offset ${label}: no data type in the chunk metadata`);
  }
  config = prepare(config, label);
  const codec = toJsonText(config === undefined ? { name: coreName } : { name: coreName, configuration: config });
  return new Codec(bindCodec(label, codec, dataType, fill), label);
}

function entry(name, coreName = name) {
  return Object.freeze({
    kind: 'array_to_array',
    fromConfig: (config, meta) => fromConfig(name, coreName, config, meta),
  });
}

/**
 * zarrita codec entries (`{ kind, fromConfig }`) by name, for wiring by hand:
 * `registry.set("scale_offset", async () => codecEntries.scale_offset)` (after `await ready()`).
 */
export const codecEntries = Object.freeze(Object.fromEntries(codecNames.map((n) => [n, entry(n)])));

// ---------------------------------------------------------------------------------------------
// Zarr v2 fixedscaleoffset filters
//
// zarrita 0.7.5 tells a codec nothing about the format of the array: `fromConfig` receives
// `{ dataType, shape, codecs, fillValue }`, and `v2ToV3ArrayMetadata` turns a .zarray into a
// document with `zarr_format: 3` whose codecs list is made of v3 codecs. A v2 `fixedscaleoffset`
// filter arrives as `scale_offset {scale, offset}` + `cast_value {data_type: astype, rounding:
// "nearest-even", out_of_range: "wrap"}` (no cast_value when astype equals dtype), a list a v3
// zarr.json may equally hold. So the codecs registered for `scale_offset` and `cast_value` always
// mean what the v3 specifications say; they never guess a format from the codecs around them.
//
// numcodecs decodes differently (in float64, one cast at the end): to read a v2 array the
// numcodecs way, the adapter must be told, and `keepV2Filters(store)` tells it. It hands every
// .zarray (and a consolidated .zmetadata) to zarrita with the fixedscaleoffset filter's id set to
// V2_FILTER_ID, which zarrita does not rewrite: it passes the filter whole, as the codec
// `numcodecs.<id>` (= V2_FIXEDSCALEOFFSET), to the entry `register` sets for that name.

/** The filter id `keepV2Filters` gives a v2 fixedscaleoffset filter. */
const V2_FILTER_ID = 'fixedscaleoffset.v2';

/**
 * The registry name under which `register` sets the numcodecs-exact reading of a v2
 * `fixedscaleoffset` filter handed over by `keepV2Filters` (zarrita names a v2 filter
 * `numcodecs.<id>`).
 */
export const V2_FIXEDSCALEOFFSET = `numcodecs.${V2_FILTER_ID}`;

// A v2 filter's dtype/astype carry a byte order ("<f4", ">u2", "|u1"). In the v3 configuration
// of numcodecs.fixedscaleoffset the bytes codec sets the byte order instead, and zarrita's
// rewrite of the .zarray already has one for the array dtype's order. So the byte order is
// dropped here, once it is known to agree with what zarrita's bytes codec does: v2 stores the
// filter's output in astype's byte order, zarrita reads it in dtype's, so a multi-byte astype of
// the other byte order cannot be read through zarrita (invalid_metadata, not wrong values).
const byteOrder = (s) => (typeof s === 'string' && /^[<>|]/.test(s) ? s[0] : null);
const multiByte = (s) => typeof s === 'string' && /^[<>|]?[a-zA-Z](\d+)$/.test(s) && Number(/(\d+)$/.exec(s)[1]) > 1;

function v2FilterConfig(config, label) {
  if (config === null || typeof config !== 'object') return config;
  const { dtype, astype } = config;
  const d = byteOrder(dtype);
  const a = byteOrder(astype);
  if (d !== null && a !== null && d !== '|' && a !== '|' && d !== a && multiByte(astype)) {
    throw codedError(
      'invalid_metadata',
      `zarr-scale-offset ${label}: astype ${JSON.stringify(astype)} has the other byte order than dtype ${JSON.stringify(dtype)}: ` +
        "Zarr v2 stores the filter's output in astype's byte order, and zarrita reads it in dtype's",
    );
  }
  const strip = (s) => (byteOrder(s) === null ? s : s.slice(1));
  const out = { ...config };
  if (dtype !== undefined) out.dtype = strip(dtype);
  if (astype !== undefined) out.astype = strip(astype);
  return out;
}

const v2Entry = Object.freeze({
  kind: 'array_to_array',
  fromConfig: (config, meta) => fromConfig(V2_FIXEDSCALEOFFSET, 'numcodecs.fixedscaleoffset', config, meta, v2FilterConfig),
});

const V2_DOCUMENT = /(^|\/)\.(zarray|zmetadata)$/;

/**
 * Wraps a zarrita store (anything with `get`, optionally `getRange`) so that the Zarr v2 arrays
 * read through it decode their `fixedscaleoffset` filters exactly as numcodecs does (float64
 * arithmetic, one cast; NaN fill values allowed), instead of zarrita's rewrite into the v3 codecs
 * `scale_offset` + `cast_value`. Every other key, and every property of the store, is passed
 * through unchanged, and in a .zmetadata only the entries of the arrays with such a filter are
 * written anew. Needs `register`. `zarr.open(keepV2Filters(store))`; with consolidated
 * metadata, `zarr.withConsolidatedMetadata(keepV2Filters(store))`.
 */
export function keepV2Filters(store) {
  let get0;
  try {
    get0 = store.get;
  } catch (e) {
    get0 = e;
  }
  if (typeof get0 !== 'function') {
    throw codedError('invalid_argument', 'keepV2Filters(store): pass a zarrita store (an object with get(key)), e.g. new zarr.FetchStore(url)', get0 instanceof Error ? get0 : undefined, TypeError);
  }
  const get = async (key, ...rest) => {
    const bytes = await store.get(key, ...rest);
    // (the rewriting is in js/cf.js, loaded on first use: it is not needed for v3 stores)
    return bytes instanceof Uint8Array && typeof key === 'string' && V2_DOCUMENT.test(key)
      ? (await import('./cf.js')).rewriteV2Document(key, bytes, V2_FILTER_ID)
      : bytes;
  };
  return new Proxy(store, {
    get(target, prop) {
      if (prop === 'get') return get;
      const v = Reflect.get(target, prop, target);
      // methods run on the store itself (its private fields are not on the proxy)
      return typeof v === 'function' ? v.bind(target) : v;
    },
  });
}

// ---------------------------------------------------------------------------------------------
// register

/**
 * Sets `scale_offset`, `cast_value`, `cf.scale_offset`, `numcodecs.fixedscaleoffset` and
 * V2_FIXEDSCALEOFFSET on zarrita's codec registry at once (replacing its built-in codecs of those
 * names) and starts loading the WebAssembly module in the background. Each entry is a lazy
 * loader that awaits the module, as zarrita's own entries are lazy, so a read that starts right
 * after `register` returns -- awaited or not, on an array opened before or after -- decodes with
 * these codecs, never with zarrita's built-ins. (An array whose first read started before
 * `register` has already loaded its codecs.) Resolves to the names it set once the module is
 * ready; rejects if it cannot be loaded (a read rejects then too). Throws a TypeError at once
 * when `registry` is not a registry.
 */
export function register(registry) {
  if (!registry || typeof registry.set !== 'function') {
    // A TypeError (the kind of mistake it is) with the package's stable `.code`, like every error it throws.
    throw codedError('invalid_argument', 'register(registry): pass zarrita\'s codec registry: register(zarr.registry)', undefined, TypeError);
  }
  const loading = ready();
  const names = [...codecNames, V2_FIXEDSCALEOFFSET];
  for (const name of names) {
    const e = name === V2_FIXEDSCALEOFFSET ? v2Entry : codecEntries[name];
    registry.set(name, async () => {
      await ready();
      return e;
    });
  }
  const done = loading.then(() => [...names]);
  // Not awaiting register is supported: a failure to load then surfaces at the first read,
  // not as an unhandled rejection.
  done.catch(() => {});
  return done;
}

export { errorCode } from './core.js';
export const openCF = async (array, options) => (await import('./cf.js')).openCF(array, options); // js/cf.js, loaded on first use
