// zarr-scale-offset: the public ESM entry.
//
// This file only marshals: it turns JS values (typed arrays, metadata objects) into the JSON text
// and raw little-endian bytes that the WebAssembly exports take, and turns their results back
// into typed arrays. Every codec rule lives in the Rust core (src/).
//
// `npm run build` copies this file to dist/index.js, next to the wasm-bindgen glue
// (dist/zarr_scale_offset.js) and the module with the .wasm inlined (LZMA, base64, with its
// decoder) (dist/zarr_scale_offset_wasm.js). Nothing needs to be fetched or configured at run time.

import * as wasm from './zarr_scale_offset.js';
import { wasmBytes } from './zarr_scale_offset_wasm.js';

let initialised = false;
let initPromise = null;

/**
 * Initialises the WebAssembly module once. Idempotent: every call returns the same Promise.
 * All other functions are synchronous and may be called once this Promise has resolved.
 * Cheap to call early (e.g. at start-up, to overlap the first fetch): the call itself only
 * starts the work; unpacking runs in a later task and compiling off the main thread.
 */
export function ready() {
  if (initPromise === null) {
    // The module is compiled asynchronously (off the main thread, no size limit) and then
    // instantiated by the glue's initSync: its async init would test `module instanceof
    // Response`, and the first touch of `Response` loads Node's fetch implementation (~15 ms).
    initPromise = wasmBytes()
      .then((bytes) => WebAssembly.compile(bytes))
      .then((module) => wasm.initSync({ module }))
      .then(
      () => {
        initialised = true;
      },
      (e) => {
        initPromise = null; // allow a retry
        throw e;
      },
    );
  }
  return initPromise;
}

/** Whether `ready()` has resolved. */
export function isReady() {
  return initialised;
}

// ---------------------------------------------------------------------------------------------
// errors

function codedError(code, message) {
  const e = new Error(message);
  e.code = code;
  return e;
}

function ensureReady(fn) {
  if (!initialised) {
    throw codedError('not_ready', `${fn}() was called before ready() resolved: await ready() first`);
  }
}

// ---------------------------------------------------------------------------------------------
// JSON text

// Serialises a metadata / codec value to JSON text. Like JSON.stringify, except that a BigInt is
// written as a bare JSON integer with all its digits (so int64/uint64 values beyond 2^53 stay
// exact). A JS number is written as JSON.stringify writes it; pass JSON text to control every
// digit yourself.
function toJson(value) {
  try {
    return toJsonUnchecked(value);
  } catch (e) {
    // A structure nested deeper than the JS stack: the Rust parser would reject it anyway
    // (depth limit 128); say so with a code instead of a bare RangeError.
    if (e instanceof RangeError) {
      throw codedError('invalid_metadata', `metadata is nested too deeply to serialise (${e.message}); the limit is 128 levels`);
    }
    throw e;
  }
}

function toJsonUnchecked(value) {
  // Fast path: JSON.stringify writes the same text for everything but BigInt (which it rejects
  // with a TypeError, as it does a cycle): the writer below then handles both. Skipped when a
  // BigInt.prototype.toJSON exists (JSON.stringify would call it; we write the digits).
  if (BigInt.prototype.toJSON === undefined) {
    try {
      const text = JSON.stringify(value);
      if (text !== undefined) return text;
    } catch (e) {
      if (!(e instanceof TypeError)) throw e;
    }
  }
  const out = [];
  const seen = new Set();
  const write = (v, inArray) => {
    if (v !== null && typeof v === 'object' && typeof v.toJSON === 'function') v = v.toJSON();
    switch (typeof v) {
      case 'bigint':
        out.push(v.toString());
        return true;
      case 'number':
        out.push(Number.isFinite(v) ? JSON.stringify(v) : 'null');
        return true;
      case 'string':
        out.push(JSON.stringify(v));
        return true;
      case 'boolean':
        out.push(v ? 'true' : 'false');
        return true;
      case 'undefined':
      case 'function':
      case 'symbol':
        if (inArray) {
          out.push('null');
          return true;
        }
        return false;
      default:
        break;
    }
    if (v === null) {
      out.push('null');
      return true;
    }
    if (seen.has(v)) throw codedError('invalid_metadata', 'metadata contains a circular reference');
    seen.add(v);
    if (Array.isArray(v)) {
      out.push('[');
      v.forEach((item, i) => {
        if (i > 0) out.push(',');
        write(item, true);
      });
      out.push(']');
    } else {
      out.push('{');
      let first = true;
      for (const key of Object.keys(v)) {
        const mark = out.length;
        out.push(first ? '' : ',', JSON.stringify(key), ':');
        if (write(v[key], false)) first = false;
        else out.length = mark; // skipped value: drop the key too
      }
      out.push('}');
    }
    seen.delete(v);
    return true;
  };
  if (!write(value, false)) out.push('null');
  return out.join('');
}

// A codec name such as "scale_offset" or "numcodecs.fixedscaleoffset": a bare string in this
// form is the short-hand form of a codec, anything else is JSON text.
const SHORT_HAND = /^[A-Za-z_][A-Za-z0-9_.\-]*$/;
const JSON_WORDS = new Set(['true', 'false', 'null']);

function codecsText(codecs) {
  if (typeof codecs === 'string') {
    const t = codecs.trim();
    if (SHORT_HAND.test(t) && !JSON_WORDS.has(t)) return JSON.stringify(t);
    return codecs;
  }
  if (codecs !== null && typeof codecs === 'object') return toJson(codecs);
  throw codedError(
    'invalid_metadata',
    `codecs must be a codec object, a list of codecs, a codec name or JSON text, got ${describe(codecs)}`,
  );
}

function metadataText(metadata) {
  if (typeof metadata === 'string') return metadata;
  if (metadata !== null && typeof metadata === 'object' && !Array.isArray(metadata)) {
    return toJson(metadata);
  }
  throw codedError(
    'invalid_metadata',
    `array metadata must be a zarr.json object or its JSON text, got ${describe(metadata)}`,
  );
}

// The text for wasm of a data type given as a name ("float32"), JSON text ('"float32"',
// '{"name":"int4"}') or an object ({name: "int4"}). JSON text is passed on as it is.
function dataTypeText(dataType) {
  if (typeof dataType === 'string') return dataType.trim();
  if (dataType !== null && typeof dataType === 'object') return toJson(dataType);
  throw codedError(
    'unsupported_data_type',
    `data type must be a name such as "float32", an object {name: ...} or JSON text, got ${describe(dataType)}`,
  );
}

// Returns [nameForTypedArrayKind, textForWasm] for a data type (see dataTypeText). The name of
// JSON text comes from the core, which reads the text itself: JSON.parse would silently keep the
// last copy of a duplicated key, which the core reports as invalid_metadata.
function dataTypeArgs(dataType) {
  const text = dataTypeText(dataType);
  if (typeof dataType !== 'string') return [dataTypeName(dataType), text];
  return [text.startsWith('"') || text.startsWith('{') ? wasm.dataTypeName(text) : text, text];
}

function dataTypeName(parsed) {
  if (typeof parsed === 'string') return parsed;
  if (parsed !== null && typeof parsed === 'object' && typeof parsed.name === 'string') {
    return parsed.name;
  }
  throw codedError('unsupported_data_type', `data type ${toJson(parsed)} has no name`);
}

// ---------------------------------------------------------------------------------------------
// typed arrays

const HAS_FLOAT16 = typeof globalThis.Float16Array === 'function';

const CONSTRUCTORS = {
  Int8Array,
  Uint8Array,
  Int16Array,
  Uint16Array,
  Int32Array,
  Uint32Array,
  BigInt64Array,
  BigUint64Array,
  Float32Array,
  Float64Array,
  Float16Array: HAS_FLOAT16 ? globalThis.Float16Array : Uint16Array,
};

const kindCache = new Map();

// The typed-array kind (constructor name) for a data type name, from the Rust core.
function kindOf(name) {
  let kind = kindCache.get(name);
  if (kind === undefined) {
    kind = wasm.typedArrayKind(name);
    kindCache.set(name, kind);
  }
  return kind;
}

function describe(v) {
  if (v === null) return 'null';
  if (v === undefined) return 'undefined';
  const tag = typedArrayTag(v);
  if (tag) return `a ${tag} of length ${v.length}`;
  if (v instanceof ArrayBuffer) return `an ArrayBuffer of ${v.byteLength} bytes`;
  if (Array.isArray(v)) return `an Array of length ${v.length}`;
  if (typeof v === 'object') return `an object (${Object.prototype.toString.call(v)})`;
  return `a ${typeof v}`;
}

// The constructor name of a typed array ("Int8Array", ...), or undefined for anything else.
// Works across realms (iframes, workers), unlike instanceof.
function typedArrayTag(v) {
  if (!ArrayBuffer.isView(v)) return undefined;
  const tag = v[Symbol.toStringTag];
  return typeof tag === 'string' ? tag : undefined;
}

// The kinds accepted as input for a data type whose kind is `kind`.
function acceptedTags(kind) {
  return kind === 'Float16Array' ? (HAS_FLOAT16 ? ['Float16Array', 'Uint16Array'] : ['Uint16Array']) : [kind];
}

function expectedText(kind, dataTypeName) {
  if (kind === 'Float16Array') {
    return HAS_FLOAT16
      ? `a Float16Array (or a Uint16Array of raw float16 bits) for data type ${dataTypeName}`
      : `a Uint16Array of raw float16 bits for data type ${dataTypeName} (this runtime has no Float16Array)`;
  }
  return `a ${kind} for data type ${dataTypeName}`;
}

// Checks that `data` is a typed array of the right kind and returns a zero-copy byte view.
function bytesIn(fn, data, kind, dataTypeName) {
  const tag = typedArrayTag(data);
  if (tag === undefined || !acceptedTags(kind).includes(tag)) {
    throw codedError(
      'invalid_data',
      `${fn}(): expected ${expectedText(kind, dataTypeName)}, got ${describe(data)}`,
    );
  }
  return byteView(fn, data.buffer, data.byteOffset, data.byteLength);
}

// A Uint8Array over (part of) a buffer; a detached buffer is an `invalid_data` error.
function byteView(fn, buffer, byteOffset, byteLength) {
  try {
    const view = new Uint8Array(buffer, byteOffset, byteLength);
    // A view over a buffer detached after it was made reports byteLength 0 but reading it works;
    // a detached ArrayBuffer itself throws above (or reports detached where supported).
    if (buffer.detached === true) throw new TypeError('detached');
    return view;
  } catch (e) {
    if (e instanceof TypeError) {
      throw codedError('invalid_data', `${fn}(): the data's ArrayBuffer is detached (it was transferred, e.g. to a worker)`);
    }
    throw e;
  }
}

// Raw stored bytes for decodeChunk: a Uint8Array or an (Shared)ArrayBuffer.
function storedBytesIn(fn, bytes) {
  if (typedArrayTag(bytes) === 'Uint8Array') return byteView(fn, bytes.buffer, bytes.byteOffset, bytes.byteLength);
  const tag = Object.prototype.toString.call(bytes);
  if (tag === '[object ArrayBuffer]' || tag === '[object SharedArrayBuffer]') return byteView(fn, bytes, 0, undefined);
  throw codedError('invalid_data', `${fn}(): expected the stored chunk bytes as a Uint8Array or an ArrayBuffer, got ${describe(bytes)}`);
}

// A new typed array of `kind` and `n` elements that the caller owns (its own ArrayBuffer), for
// wasm to overwrite entirely. In Node it comes from Buffer.allocUnsafeSlow: not pooled, and not
// zeroed first (zeroing a 16 MB output cost about as much as decoding into it); every byte is
// written before it is returned, and it is dropped on an error. Elsewhere `new Ctor(n)`.
const allocUnsafeSlow =
  typeof globalThis.process?.versions?.node === 'string' && typeof globalThis.Buffer?.allocUnsafeSlow === 'function'
    ? globalThis.Buffer.allocUnsafeSlow
    : null;

function freshArray(kind, n) {
  const Ctor = CONSTRUCTORS[kind];
  if (allocUnsafeSlow !== null && n > 0) {
    const byteLength = n * Ctor.BYTES_PER_ELEMENT;
    const b = allocUnsafeSlow(byteLength);
    if (b.byteOffset === 0 && b.buffer.byteLength === byteLength) return new Ctor(b.buffer, 0, n);
  }
  return new Ctor(n);
}

// The bytes of a typed array.
function bytesOf(a) {
  return new Uint8Array(a.buffer, a.byteOffset, a.byteLength);
}

// Per zarr.json text (most recent last, at most 16, like the bound chains in wasm): its data type
// name, typed-array kind, elements per chunk and bytes per stored element, so that a chunk call
// passes the text to wasm once.
const CHUNK_INFO_SIZE = 16;
const chunkInfoCache = new Map();

function chunkInfo(m) {
  let info = chunkInfoCache.get(m);
  if (info === undefined) {
    const name = wasm.arrayDataType(m);
    const layout = wasm.chunkLayout(m);
    info = { name, kind: kindOf(name), n: layout.elements, decodedSize: layout.decodedSize, storedSize: layout.storedSize };
    if (chunkInfoCache.size >= CHUNK_INFO_SIZE) chunkInfoCache.delete(chunkInfoCache.keys().next().value);
    chunkInfoCache.set(m, info);
  }
  return info;
}

// Wraps the bytes returned by wasm (a fresh Uint8Array) as a typed array of `kind`, copying into
// a new, aligned ArrayBuffer unless the bytes already own a whole buffer.
function typedOut(bytes, kind) {
  const Ctor = CONSTRUCTORS[kind];
  if (Ctor === Uint8Array) return bytes;
  const size = Ctor.BYTES_PER_ELEMENT;
  if (bytes.byteLength % size !== 0) {
    throw codedError('invalid_data', `result of ${bytes.byteLength} bytes is not a whole number of ${kind} elements`);
  }
  if (bytes.byteOffset === 0 && bytes.buffer.byteLength === bytes.byteLength) {
    return new Ctor(bytes.buffer, 0, bytes.byteLength / size);
  }
  const copy = new Uint8Array(bytes.byteLength);
  copy.set(bytes);
  return new Ctor(copy.buffer);
}

// ---------------------------------------------------------------------------------------------
// API

/**
 * Encodes `data` (a typed array of `dataType`) through one array->array codec or a list of them.
 * Returns a typed array of the encoded data type (see `encodedDataType`).
 */
export function encode(codecs, dataType, data) {
  ensureReady('encode');
  const c = codecsText(codecs);
  const [name, dt] = dataTypeArgs(dataType);
  return arrayRun('encode', data, name, () => wasm.encodedDataType(c, dt), undefined, (i, o) => wasm.encodeArrayInto(c, dt, i, o));
}

/**
 * Decodes `data` (a typed array of the encoded data type of `codecs` applied to `dataType`) back
 * to a typed array of `dataType`.
 */
export function decode(codecs, dataType, data) {
  ensureReady('decode');
  const c = codecsText(codecs);
  const [name, dt] = dataTypeArgs(dataType);
  return arrayRun('decode', data, wasm.encodedDataType(c, dt), name, undefined, (i, o) => wasm.decodeArrayInto(c, dt, i, o));
}

/**
 * Like `decode`, but writes into `out`, a caller-supplied typed array of `dataType` with as many
 * elements as `data` (for viewers that reuse buffers). Returns `out`. On an error `out` may have
 * been partly written.
 */
export function decodeInto(codecs, dataType, data, out) {
  ensureReady('decodeInto');
  const c = codecsText(codecs);
  const [name, dt] = dataTypeArgs(dataType);
  return arrayRun('decodeInto', data, wasm.encodedDataType(c, dt), name, out, (i, o) => wasm.decodeArrayInto(c, dt, i, o));
}

// Runs array->array codecs one way: `data` is a typed array of the data type `inName`; the result
// goes into `out` (a caller's typed array of `outName`, returned) or, when `out` is undefined, a
// new typed array of `outName` (returned). `outName` may be a function, called once `data` has
// been checked. `run(inputBytes, outputBytes)` is the wasm call.
function arrayRun(fn, data, inName, outName, out, run) {
  const inKind = kindOf(inName);
  const input = bytesIn(fn, data, inKind, inName);
  const name = typeof outName === 'function' ? outName() : outName;
  if (out === undefined) {
    const result = freshArray(kindOf(name), input.byteLength / CONSTRUCTORS[inKind].BYTES_PER_ELEMENT);
    run(input, bytesOf(result));
    return result;
  }
  const target = bytesIn(fn, out, kindOf(name), name);
  run(unaliased(input, target), target);
  return out;
}

// The input as bytes that do not overlap `out`: a copy when both share memory (the result is
// written while the input is still being read).
function unaliased(input, out) {
  const overlaps =
    input.buffer === out.buffer &&
    input.byteOffset < out.byteOffset + out.byteLength &&
    out.byteOffset < input.byteOffset + input.byteLength;
  return overlaps ? input.slice() : input;
}

/** The canonical name of the data type that `encode(codecs, dataType, …)` produces. */
export function encodedDataType(codecs, dataType) {
  ensureReady('encodedDataType');
  return wasm.encodedDataType(codecsText(codecs), dataTypeText(dataType));
}

// ---------------------------------------------------------------------------------------------
// bind: codecs bound once to (data type, fill value)

// JSON text of a fill value given as a JS value, as a zarr.json `fill_value` would spell it: NaN,
// ±Infinity and -0 as "NaN", "Infinity", "-Infinity" and -0.0; an integer number from 2^53 up to
// the int64/uint64 range (below 2^65) as its exact value (2 ** 62 is 4611686018427387904, not
// JSON.stringify's 4611686018427388000); any other number as JSON.stringify writes it; a BigInt
// as its digits; a string as that JSON string ("NaN", "0x7fc00001", "-Infinity"); anything else as
// JSON text, for the core to reject.
function fillJson(fill) {
  switch (typeof fill) {
    case 'number': {
      if (Number.isNaN(fill)) return '"NaN"';
      if (fill === Infinity || fill === -Infinity) return fill > 0 ? '"Infinity"' : '"-Infinity"';
      if (Object.is(fill, -0)) return '-0.0';
      const a = Math.abs(fill);
      if (Number.isInteger(fill) && a >= 2 ** 53 && a < 2 ** 65) return BigInt(fill).toString();
      return JSON.stringify(fill);
    }
    case 'bigint':
      return fill.toString();
    case 'string':
      return JSON.stringify(fill);
    default:
      return toJson(fill); // not a fill value: the core says why, after checking the data type
  }
}

// The fill value of bind()'s options as JSON text, or undefined for none.
function fillArg(options) {
  if (options === undefined || options === null) return undefined;
  if (typeof options !== 'object') {
    throw codedError('invalid_metadata', `bind(): options must be an object such as { fill: NaN }, got ${describe(options)}`);
  }
  const { fill, fillText } = options;
  const given = (v) => v !== undefined && v !== null;
  if (given(fill) && given(fillText)) {
    throw codedError('invalid_metadata', 'bind(): give the fill value as fill or as fillText, not both');
  }
  if (given(fillText)) {
    if (typeof fillText !== 'string') {
      throw codedError('invalid_metadata', `bind(): fillText must be JSON text (a string), got ${describe(fillText)}`);
    }
    return fillText;
  }
  return given(fill) ? fillJson(fill) : undefined;
}

const DISPOSE = typeof Symbol.dispose === 'symbol' ? Symbol.dispose : undefined;

// The handle `bind` returns: the wasm BoundCodecs and what it was bound to.
class Bound {
  #h;
  #decoded;
  #encoded;
  #fill;
  #fillText;

  constructor(h) {
    this.#h = h;
    const [decoded, encoded, fillText, fillBytes] = h.info();
    this.#decoded = decoded;
    this.#encoded = encoded;
    this.#fillText = fillText ?? null;
    // One element of the encoded data type's typed array (the bytes own their buffer).
    this.#fill = fillBytes === undefined ? null : new CONSTRUCTORS[kindOf(encoded)](fillBytes.buffer, 0, 1)[0];
  }

  /** The canonical name of the data type the codecs receive (what `decode` returns). */
  get decodedDataType() {
    return this.#decoded;
  }

  /** The canonical name of the data type after the codecs (what `encode` returns). */
  get encodedDataType() {
    return this.#encoded;
  }

  /** The encoded fill value as one element of a typed array of `encodedDataType`, or null. */
  get encodedFill() {
    return this.#fill;
  }

  /** The encoded fill value as the JSON text of a zarr.json `fill_value`, or null. */
  get encodedFillText() {
    return this.#fillText;
  }

  #live(fn) {
    if (this.#h === null) throw codedError('not_ready', `${fn}(): this bound handle was freed (free() was called)`);
    return this.#h;
  }

  /** Encodes a typed array of `decodedDataType`; returns a new typed array of `encodedDataType`. */
  encode(data) {
    const h = this.#live('encode');
    return arrayRun('encode', data, this.#decoded, this.#encoded, undefined, (i, o) => h.encodeInto(i, o));
  }

  /** Decodes a typed array of `encodedDataType`; returns a new typed array of `decodedDataType`. */
  decode(data) {
    const h = this.#live('decode');
    return arrayRun('decode', data, this.#encoded, this.#decoded, undefined, (i, o) => h.decodeInto(i, o));
  }

  /** Like `encode`, into `out` (a typed array of `encodedDataType`, as many elements); returns `out`. */
  encodeInto(data, out) {
    const h = this.#live('encodeInto');
    return arrayRun('encodeInto', data, this.#decoded, this.#encoded, out, (i, o) => h.encodeInto(i, o));
  }

  /** Like `decode`, into `out` (a typed array of `decodedDataType`, as many elements); returns `out`. */
  decodeInto(data, out) {
    const h = this.#live('decodeInto');
    return arrayRun('decodeInto', data, this.#encoded, this.#decoded, out, (i, o) => h.decodeInto(i, o));
  }

  /** Releases the wasm memory now (idempotent); afterwards every method throws. */
  free() {
    if (this.#h !== null) {
      this.#h.free();
      this.#h = null;
    }
  }
}

if (DISPOSE !== undefined) Bound.prototype[DISPOSE] = Bound.prototype.free;

/**
 * Binds array->array `codecs` (as for `encode`) to `dataType` and, optionally, a fill value, once:
 * the handle encodes and decodes any number of chunks without parsing again, and tells the encoded
 * data type and fill value. `options.fill` is a JS value (a number, a BigInt, or a string such as
 * "NaN" or "0x7fc00001"); `options.fillText` the JSON text of a zarr.json `fill_value` instead.
 * The fill value flows through the codecs as in a zarr.json: one that a codec cannot carry is an
 * `invalid_metadata` error naming that codec's pointer. Call `free()` when done (or let the
 * garbage collector release it).
 */
export function bind(codecs, dataType, options) {
  ensureReady('bind');
  const c = codecsText(codecs);
  const dt = dataTypeText(dataType);
  return new Bound(new wasm.BoundCodecs(c, dt, fillArg(options)));
}

/** Encodes one whole chunk of a Zarr v3 array (zarr.json as an object or JSON text) to its stored bytes. */
export function encodeChunk(arrayMetadata, data) {
  ensureReady('encodeChunk');
  const m = metadataText(arrayMetadata);
  const info = chunkInfo(m);
  const input = bytesIn('encodeChunk', data, info.kind, info.name);
  // A wrong length: let wasm report it (before allocating for what the metadata claims).
  if (input.byteLength !== info.n * info.decodedSize) return wasm.encodeChunkJs(m, input);
  const out = freshArray('Uint8Array', info.n * info.storedSize);
  wasm.encodeChunkInto(m, input, out);
  return out;
}

/** Decodes one whole stored chunk of a Zarr v3 array to a typed array of the array's data type. */
export function decodeChunk(arrayMetadata, bytes) {
  ensureReady('decodeChunk');
  const m = metadataText(arrayMetadata);
  const info = chunkInfo(m);
  const input = storedBytesIn('decodeChunk', bytes);
  // A wrong length: let wasm report it (before allocating for what the metadata claims).
  if (input.byteLength !== info.n * info.storedSize) return typedOut(wasm.decodeChunkJs(m, input), info.kind);
  const out = freshArray(info.kind, info.n);
  wasm.decodeChunkInto(m, input, bytesOf(out));
  return out;
}

/**
 * Like `decodeChunk`, but writes into `out`, a caller-supplied typed array of the array's data
 * type with the chunk's number of elements (for viewers that reuse buffers). Returns `out`. On an
 * error `out` may have been partly written.
 */
export function decodeChunkInto(arrayMetadata, bytes, out) {
  ensureReady('decodeChunkInto');
  const m = metadataText(arrayMetadata);
  const info = chunkInfo(m);
  const input = storedBytesIn('decodeChunkInto', bytes);
  const target = bytesIn('decodeChunkInto', out, info.kind, info.name);
  wasm.decodeChunkInto(m, unaliased(input, target), target);
  return out;
}

/** The canonical data type name of a zarr.json array document (object or JSON text). */
export function arrayDataType(arrayMetadata) {
  ensureReady('arrayDataType');
  return wasm.arrayDataType(metadataText(arrayMetadata));
}

/**
 * The lenient forms a zarr.json array document (object or JSON text) relies on (e.g. "+Infinity",
 * 1000.0 for an integer type), as an array of `{pointer, message}`; [] when everything is strict.
 * Throws (with a `.code`) when the document is invalid.
 */
export function metadataWarnings(arrayMetadata) {
  ensureReady('metadataWarnings');
  return wasm.metadataWarnings(metadataText(arrayMetadata));
}

/**
 * The typed-array constructor name used for a data type in this runtime, e.g. "Int8Array" for
 * "int4", and "Uint16Array" for "float16" where the runtime has no Float16Array.
 */
export function typedArrayKind(dataType) {
  ensureReady('typedArrayKind');
  const kind = kindOf(dataTypeArgs(dataType)[0]);
  return kind === 'Float16Array' && !HAS_FLOAT16 ? 'Uint16Array' : kind;
}

/** The typed-array constructor used for a data type in this runtime. */
export function typedArrayConstructor(dataType) {
  return CONSTRUCTORS[typedArrayKind(dataType)];
}

/**
 * Validates metadata: a whole zarr.json array document, a codecs list, or a single codec (an
 * object, JSON text, or a short-hand codec name). `dataType` is the data type a codecs list or
 * codec receives (without it only their shape is checked). Reports every problem, not only the
 * first: `{ valid, errors: [{path, code, message}], warnings: [{path, code, message}] }` with
 * RFC 6901 JSON pointers. Lenient forms accepted on read are warnings. Never throws for bad
 * metadata (only for a call before ready()).
 */
export function validate(metadata, dataType) {
  ensureReady('validate');
  let text;
  if (typeof metadata === 'string') {
    const t = metadata.trim();
    text = SHORT_HAND.test(t) && !JSON_WORDS.has(t) ? JSON.stringify(t) : metadata;
  } else {
    try {
      text = toJson(metadata);
    } catch (e) {
      return {
        valid: false,
        errors: [{ path: '', code: 'invalid_json', message: `cannot serialise the metadata: ${e.message}` }],
        warnings: [],
      };
    }
    if (text === undefined) {
      return {
        valid: false,
        errors: [{ path: '', code: 'invalid_metadata', message: `expected metadata, got ${describe(metadata)}` }],
        warnings: [],
      };
    }
  }
  let dt;
  if (dataType !== undefined && dataType !== null) {
    try {
      dt = dataTypeText(dataType);
    } catch (e) {
      return { valid: false, errors: [{ path: '', code: e.code ?? 'unsupported_data_type', message: e.message }], warnings: [] };
    }
  }
  return wasm.validate(text, dt);
}

/**
 * From netCDF/CF packing attributes (`scale_factor`, `add_offset`, `_FillValue`, `missing_value`,
 * `_Unsigned`) of data packed as `packedDataType`, the Zarr `{data_type, fill_value, codecs}`
 * whose decode equals `xarray.decode_cf` bit for bit (xarray's float32/float64 choice included).
 * An attribute may be `{value, dtype}` to say it was a typed netCDF attribute;
 * `options.attributeDataType` ("float32" | "float64") types every untyped scale/offset number.
 * Give `attrs` as JSON text to keep int64 fill values beyond 2^53 exact.
 */
export function fromCF(attrs, packedDataType, options = {}) {
  ensureReady('fromCF');
  const text = typeof attrs === 'string' ? attrs : toJson(attrs);
  const ad = options.attributeDataType === undefined ? undefined : dataTypeText(options.attributeDataType);
  return JSON.parse(wasm.fromCF(text, dataTypeText(packedDataType), ad));
}

/**
 * The `[scale_offset, cast_value]` codecs that supersede a `numcodecs.fixedscaleoffset`
 * configuration (the codec object, its configuration, or a v2 filter `{id: "fixedscaleoffset",
 * …}`), per the scale_offset spec (`out_of_range: "wrap"` for integer `astype`). `dataType`
 * stands in for a missing `dtype`. The replacement computes in the array's data type and rounds
 * half-to-even, so it does not decode bit-for-bit like numcodecs (see README).
 */
export function fromFixedScaleOffset(config, dataType) {
  ensureReady('fromFixedScaleOffset');
  const text = typeof config === 'string' ? config : toJson(config);
  const dt = dataType === undefined ? undefined : dataTypeText(dataType);
  return JSON.parse(wasm.fromFixedScaleOffset(text, dt));
}

/** The version of the Rust core. */
export function version() {
  ensureReady('version');
  return wasm.version();
}

/** Serialises a value to JSON text the way this package does: BigInt values become exact JSON integers. */
export function toJsonText(value) {
  return toJson(value);
}
