// zarr-scale-offset: the core of the public entry, what the zarrita adapter needs (ready, bind,
// the bound handle, the exact JSON writer, errors, typed-array checks). js/index.js re-exports
// its public functions and adds the rest of the API (text-keyed encode/decode, chunks, validate,
// fromCF, ...); js/zarrita.js imports this file only, so that the zarrita path does not download
// the rest (scripts/sizes.mjs follows the imports). Its exports other than ready, isReady, bind,
// toJsonText and errorCode are internal: for js/index.js, not part of the package's API
// (package.json does not export this file).
//
// This file only marshals: it turns JS values (typed arrays, metadata objects) into the JSON text
// and raw little-endian bytes that the WebAssembly exports take, and turns their results back
// into typed arrays. Every codec rule lives in the Rust core (src/).
//
// `npm run build` copies it to dist/core.js, next to the wasm-bindgen glue
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

// The errors this module creates, so that an error thrown by a caller's object (a getter, a Proxy
// trap, a toJSON method) is told apart from ours, whatever `.code` it carries.
const OURS = new WeakSet();

/** An Error (or an error of class `Type`, e.g. TypeError) with the stable `.code`, `cause` kept. */
export function codedError(code, message, cause, Type = Error) {
  const e = cause === undefined ? new Type(message) : new Type(message, { cause });
  e.code = code;
  OURS.add(e);
  return e;
}

// An error thrown while reading a caller's object (a getter, a Proxy trap, toJSON, a revoked
// Proxy) as `invalid_argument`, the original kept as `cause`; our own errors pass unchanged.
function fromCaller(e, what) {
  if (OURS.has(e)) return e;
  let text;
  try {
    text = e instanceof Error ? `${e.name}: ${e.message}` : String(e);
  } catch {
    text = 'a value that cannot be shown';
  }
  return codedError('invalid_argument', `${what} threw ${text}`, e);
}

// `obj[key]` of a caller's object; a throwing getter or Proxy trap is an `invalid_argument` error.
export function read(obj, key, what) {
  try {
    return obj[key];
  } catch (e) {
    throw fromCaller(e, `reading ${what}`);
  }
}

export function ensureReady(fn) {
  if (!initialised) {
    throw codedError('not_ready', `${fn}() was called before ready() resolved: await ready() first`);
  }
}

// ---------------------------------------------------------------------------------------------
// JSON text

// The JSON text of a JS number in metadata. An integer from 2^53 up to (not including) 2^65 is
// written as the exact value of the double (2 ** 62 -> 4611686018427387904, where JSON.stringify
// writes 4611686018427388000, a different integer): for an int64/uint64 field that is the number
// the caller holds, and for a float field the core rounds either text to the same value (any two
// decimals in one double's rounding interval round alike into every narrower format, whose
// rounding boundaries are themselves doubles). Beyond 2^65 no integer type can hold the value and
// the shortest form is kept (1e+300, not 301 digits). Other numbers as JSON.stringify writes them,
// NaN and ±Infinity as null.
function numberJson(v) {
  if (Number.isInteger(v) && (v >= 2 ** 53 || v <= -(2 ** 53)) && v < 2 ** 65 && v > -(2 ** 65)) return BigInt(v).toString();
  return Number.isFinite(v) ? JSON.stringify(v) : 'null';
}

// The deepest nesting the core parses (src/json/mod.rs MAX_DEPTH); a deeper value is rejected
// here with the same code and wording instead of overflowing the JS stack.
const MAX_DEPTH = 128;

// A run of 16 or more digits not after a "." or another digit: the integer part of a number that
// may be 2^53 or more (2^53 has 16 digits; JSON.stringify writes integers below 1e21 in full). A
// match inside a string only costs the slower exact writer.
const LONG_INTEGER = /(?<![.\d])\d{16}/;

// Serialises a metadata / codec value to JSON text. Like JSON.stringify, except that a BigInt is
// written as a bare JSON integer with all its digits and an integral number from 2^53 to 2^65 as
// its exact value (see numberJson), so that int64/uint64 values stay exact. An error thrown by the
// value itself (a getter, a Proxy trap, toJSON) is an `invalid_argument` error with the original
// as `cause`; a circular value is `invalid_metadata`, one nested deeper than 128 levels
// `invalid_json`.
export function toJson(value) {
  // Fast path: JSON.stringify writes the same text when there is no BigInt (it rejects one with a
  // TypeError, as it does a cycle) and no integer of 16 digits or more. Anything it throws (a
  // BigInt, a cycle, a stack overflow, a caller's getter) sends the value to the exact writer,
  // which says what went wrong. Skipped when a BigInt.prototype.toJSON exists (JSON.stringify
  // would call it; we write the digits).
  if (BigInt.prototype.toJSON === undefined) {
    let text;
    try {
      text = JSON.stringify(value);
    } catch {
      text = null;
    }
    if (typeof text === 'string' && !LONG_INTEGER.test(text)) return text;
  }
  try {
    return toJsonExact(value);
  } catch (e) {
    throw fromCaller(e, 'serialising the metadata to JSON');
  }
}

// The exact writer (iterates JSON.stringify's rules: toJSON, undefined/function/symbol skipped in
// objects and null in arrays, boxed primitives unboxed).
function toJsonExact(value) {
  const out = [];
  const seen = new Set();
  const write = (v, key, inArray, depth) => {
    if (v !== null && typeof v === 'object') {
      const toJSON = v.toJSON;
      if (typeof toJSON === 'function') v = toJSON.call(v, key);
    }
    if (v !== null && typeof v === 'object') {
      if (v instanceof Number) v = Number(v);
      else if (v instanceof String) v = String(v);
      else if (v instanceof Boolean) v = Boolean.prototype.valueOf.call(v);
      else if (v instanceof BigInt) v = BigInt.prototype.valueOf.call(v);
    }
    switch (typeof v) {
      case 'bigint':
        out.push(v.toString());
        return true;
      case 'number':
        out.push(numberJson(v));
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
    if (depth >= MAX_DEPTH) {
      throw codedError('invalid_json', `arrays and objects nested deeper than ${MAX_DEPTH} levels`);
    }
    if (seen.has(v)) throw codedError('invalid_metadata', 'metadata contains a circular reference');
    seen.add(v);
    if (Array.isArray(v)) {
      out.push('[');
      const n = v.length;
      for (let i = 0; i < n; i++) {
        if (i > 0) out.push(',');
        write(v[i], String(i), true, depth + 1);
      }
      out.push(']');
    } else {
      out.push('{');
      let first = true;
      for (const k of Object.keys(v)) {
        const mark = out.length;
        out.push(first ? '' : ',', JSON.stringify(k), ':');
        if (write(v[k], k, false, depth + 1)) first = false;
        else out.length = mark; // skipped value: drop the key too
      }
      out.push('}');
    }
    seen.delete(v);
    return true;
  };
  if (!write(value, '', false, 0)) out.push('null');
  return out.join('');
}

// A codec name such as "scale_offset" or "numcodecs.fixedscaleoffset": a bare string in this
// form is the short-hand form of a codec, anything else is JSON text.
export const SHORT_HAND = /^[A-Za-z_][A-Za-z0-9_.\-]*$/;
export const JSON_WORDS = new Set(['true', 'false', 'null']);

export function codecsText(codecs) {
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

// The text for wasm of a data type given as a name ("float32"), JSON text ('"float32"',
// '{"name":"int4"}') or an object ({name: "int4"}). JSON text is passed on as it is.
export function dataTypeText(dataType) {
  if (typeof dataType === 'string') return dataType.trim();
  if (dataType !== null && typeof dataType === 'object') return toJson(dataType);
  throw codedError(
    'unsupported_data_type',
    `data type must be a name such as "float32", an object {name: ...} or JSON text, got ${describe(dataType)}`,
  );
}

// Array.isArray of a caller's value (a revoked Proxy throws: `invalid_argument`).
export function isArray(v) {
  try {
    return Array.isArray(v);
  } catch (e) {
    throw fromCaller(e, 'inspecting the argument');
  }
}

// Returns [nameForTypedArrayKind, textForWasm] for a data type (see dataTypeText). The name of
// JSON text or of an object comes from the core, which reads the text itself: JSON.parse would
// silently keep the last copy of a duplicated key (which the core reports as invalid_metadata),
// and reading an object's `name` again could give another answer than the text has.
export function dataTypeArgs(dataType) {
  const text = dataTypeText(dataType);
  if (typeof dataType !== 'string' || text.startsWith('"') || text.startsWith('{')) return [wasm.dataTypeName(text), text];
  return [text, text];
}

// ---------------------------------------------------------------------------------------------
// typed arrays

export const HAS_FLOAT16 = typeof globalThis.Float16Array === 'function';

export const CONSTRUCTORS = {
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
export function kindOf(name) {
  let kind = kindCache.get(name);
  if (kind === undefined) {
    kind = wasm.typedArrayKind(name);
    kindCache.set(name, kind);
  }
  return kind;
}

// Intrinsic getters: what a typed array or a buffer really is, read from its internal slots, never
// from its own (overridable) properties or through a Proxy's traps. A subclass whose
// `Symbol.toStringTag`, `byteLength`, `byteOffset`, `buffer` or `length` lies is taken for what
// it is; a Proxy is not a typed array. They work across realms (iframes, workers), unlike
// instanceof.
const getterOf = (proto, key) => Object.getOwnPropertyDescriptor(proto, key)?.get;
const TYPED_ARRAY = Object.getPrototypeOf(Int8Array.prototype);
const TA_TAG = getterOf(TYPED_ARRAY, Symbol.toStringTag);
export const TA_BUFFER = getterOf(TYPED_ARRAY, 'buffer');
export const TA_BYTE_OFFSET = getterOf(TYPED_ARRAY, 'byteOffset');
export const TA_BYTE_LENGTH = getterOf(TYPED_ARRAY, 'byteLength');
const TA_LENGTH = getterOf(TYPED_ARRAY, 'length');
const AB_BYTE_LENGTH = getterOf(ArrayBuffer.prototype, 'byteLength');
const AB_DETACHED = getterOf(ArrayBuffer.prototype, 'detached'); // ES2024; undefined in Node 20

// SharedArrayBuffer.prototype's byteLength getter, or null where no SharedArrayBuffer can exist.
// A page that is not cross-origin isolated has no SharedArrayBuffer global; shared wasm memory
// (if the runtime allows it there) still has buffers of that class, so look there too.
let sabByteLength;
function sharedByteLength() {
  if (sabByteLength === undefined) {
    let proto = globalThis.SharedArrayBuffer?.prototype;
    if (proto === undefined) {
      try {
        proto = Object.getPrototypeOf(new WebAssembly.Memory({ initial: 0, maximum: 0, shared: true }).buffer);
      } catch {
        proto = undefined;
      }
    }
    sabByteLength = (proto && getterOf(proto, 'byteLength')) ?? null;
  }
  return sabByteLength;
}

// The byte length of an ArrayBuffer or SharedArrayBuffer and whether it is shared, or undefined
// for anything else (checked by internal slot: never a caller's getter or trap).
export function bufferInfo(v) {
  try {
    return { shared: false, byteLength: AB_BYTE_LENGTH.call(v) };
  } catch {
    // not an ArrayBuffer
  }
  const g = sharedByteLength();
  if (g === null) return undefined;
  try {
    return { shared: true, byteLength: g.call(v) };
  } catch {
    return undefined;
  }
}

// Whether a buffer (the real one of a typed array) is a SharedArrayBuffer.
function isShared(buffer) {
  try {
    AB_BYTE_LENGTH.call(buffer);
    return false;
  } catch {
    return true;
  }
}

// A description of a caller's value for a message; never throws (a revoked Proxy, a throwing
// trap) and reads no typed array through its own properties.
// "a" or "an" before a word ("an Int16Array", "a Uint8Array", "a Float32Array").
export const an = (word) => `${/^[aeio]/i.test(word) ? 'an' : 'a'} ${word}`;

export function describe(v) {
  if (v === null) return 'null';
  if (v === undefined) return 'undefined';
  const tag = typedArrayTag(v);
  if (tag !== undefined) return `${an(tag)} of length ${TA_LENGTH.call(v)}`;
  const b = bufferInfo(v);
  if (b !== undefined) return `${b.shared ? 'a SharedArrayBuffer' : 'an ArrayBuffer'} of ${b.byteLength} bytes`;
  if (typeof v !== 'object') return an(typeof v);
  try {
    if (Array.isArray(v)) return `an Array of length ${v.length}`;
    return `an object (${Object.prototype.toString.call(v)})`;
  } catch {
    return 'an object that cannot be inspected (a revoked Proxy or a throwing trap)';
  }
}

// The constructor name of a typed array's class ("Int8Array", ...: its [[TypedArrayName]], not
// its Symbol.toStringTag property), or undefined for anything else (DataView, Proxy, ...).
export function typedArrayTag(v) {
  return TA_TAG.call(v);
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
  return `${an(kind)} for data type ${dataTypeName}`;
}

// Checks that `data` is a typed array of the right kind and returns a zero-copy byte view of the
// memory it really covers.
export function bytesIn(fn, data, kind, dataTypeName) {
  const tag = typedArrayTag(data);
  if (tag === undefined || !acceptedTags(kind).includes(tag)) {
    throw codedError(
      'invalid_data',
      `${fn}(): expected ${expectedText(kind, dataTypeName)}, got ${describe(data)}`,
    );
  }
  return byteView(fn, TA_BUFFER.call(data), TA_BYTE_OFFSET.call(data), TA_BYTE_LENGTH.call(data));
}

// A Uint8Array over (part of) a real buffer; a detached buffer is an `invalid_data` error.
export function byteView(fn, buffer, byteOffset, byteLength) {
  let view;
  try {
    view = new Uint8Array(buffer, byteOffset, byteLength);
  } catch (e) {
    // Detached (a typed array over it reports offset and length 0, and a view over it throws).
    if (e instanceof TypeError) {
      throw codedError('invalid_data', `${fn}(): the data's ArrayBuffer is detached (it was transferred, e.g. to a worker)`, e);
    }
    throw e;
  }
  if (AB_DETACHED !== undefined && !isShared(buffer) && AB_DETACHED.call(buffer)) {
    throw codedError('invalid_data', `${fn}(): the data's ArrayBuffer is detached (it was transferred, e.g. to a worker)`);
  }
  return view;
}

// A new typed array of `kind` and `n` elements that the caller owns (its own ArrayBuffer), for
// wasm to overwrite entirely. In Node it comes from Buffer.allocUnsafeSlow: not pooled, and not
// zeroed first (zeroing a 16 MB output cost about as much as decoding into it); every byte is
// written before it is returned, and it is dropped on an error. Elsewhere `new Ctor(n)`.
const allocUnsafeSlow =
  typeof globalThis.process?.versions?.node === 'string' && typeof globalThis.Buffer?.allocUnsafeSlow === 'function'
    ? globalThis.Buffer.allocUnsafeSlow
    : null;

export function freshArray(kind, n) {
  const Ctor = CONSTRUCTORS[kind];
  if (allocUnsafeSlow !== null && n > 0) {
    const byteLength = n * Ctor.BYTES_PER_ELEMENT;
    const b = allocUnsafeSlow(byteLength);
    if (b.byteOffset === 0 && b.buffer.byteLength === byteLength) return new Ctor(b.buffer, 0, n);
  }
  return new Ctor(n);
}

// The number of elements of a chunk of `shape` (zarrita's chunk shape), or -1 if it is not a
// list of non-negative safe integers.
function elementCount(shape) {
  if (!Array.isArray(shape)) return -1;
  let n = 1;
  for (const d of shape) {
    if (!Number.isSafeInteger(d) || d < 0) return -1;
    n *= d;
    if (!Number.isSafeInteger(n)) return -1;
  }
  return n;
}

// A zarrita chunk `{ data, shape }` whose data does not fill its shape is an error, never a
// partial result: zarrita would pad the missing elements with zeros (or drop the extra ones).
// A short one comes from a truncated chunk file or a shard index giving an inner chunk too short
// a byte range; a long one typically from a server that ignores HTTP Range requests (a sharded
// array's inner chunk read returns the whole shard). `label` names the codec or array.
// The hints of a decoded chunk of the wrong length (an object, so that the minifier keeps them
// off the line that creates the error: Node prints that line above an uncaught error).
const LENGTH_HINTS = {
  short: ' (truncated: a short chunk file, or a shard index giving too short a byte range)',
  long: ' (too long: a server ignoring HTTP Range requests, e.g. python -m http.server, sent a whole shard)',
};

export function checkChunkLength(chunk, direction, label) {
  const want = elementCount(chunk?.shape);
  const have = chunk?.data?.length;
  if (want >= 0 && have === want) return;
  const shape = Array.isArray(chunk?.shape) ? `[${chunk.shape.join(', ')}]` : String(chunk?.shape);
  const decoding = direction === 'decode';
  const hint = !decoding ? '' : have < want ? LENGTH_HINTS.short : LENGTH_HINTS.long;
  const what = decoding ? 'the stored chunk decodes to' : 'the chunk to encode holds';
  const msg = `${label}: ${what} ${have} elements, but its shape ${shape} needs ${want < 0 ? 'a valid shape' : want}${hint}`;
  throw codedError('length_mismatch', msg);
}

// The bytes of a typed array.
export function bytesOf(a) {
  return new Uint8Array(a.buffer, a.byteOffset, a.byteLength);
}

// Runs array->array codecs one way: `data` is a typed array of the data type `inName`; the result
// goes into `out` (a caller's typed array of `outName`, returned) or, when `out` is undefined, a
// new typed array of `outName` (returned). `outName` may be a function, called once `data` has
// been checked. `run(inputBytes, outputBytes)` is the wasm call.
export function arrayRun(fn, data, inName, outName, out, run) {
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

// The input as bytes that do not overlap `out`: a copy when both lie in the same memory and their
// byte ranges meet (the result is written while the input is still being read, tile by tile).
// `input` and `out` are our own Uint8Array views (bytesIn, storedBytesIn), so their offsets are
// the real ones. Distinct ArrayBuffer objects never share memory; distinct SharedArrayBuffer
// objects may (a SharedArrayBuffer after postMessage or structuredClone, a shared
// WebAssembly.Memory's buffer before and after grow()), and every one starts at the start of its
// memory, so equal offsets mean the same bytes. No API tells whether two of them are one memory:
// one byte of `out` inside the common range (which the call overwrites anyway) is flipped and
// read back through the input's buffer, then restored.
export function unaliased(input, out) {
  const lo = Math.max(input.byteOffset, out.byteOffset);
  const hi = Math.min(input.byteOffset + input.byteLength, out.byteOffset + out.byteLength);
  if (lo >= hi) return input; // the ranges do not meet, whatever the memory
  const a = input.buffer;
  const b = out.buffer;
  if (a === b || (isShared(a) && isShared(b) && sameMemory(a, b, lo))) return input.slice();
  return input;
}

// Whether two SharedArrayBuffers are views of one memory, probed at byte `at` (inside both).
function sameMemory(a, b, at) {
  const pa = new Uint8Array(a, at, 1);
  const pb = new Uint8Array(b, at, 1);
  const old = pb[0];
  if (pa[0] !== old) return false;
  pb[0] = old ^ 1;
  const same = pa[0] === (old ^ 1);
  pb[0] = old;
  return same;
}

// JSON text of a fill value given as a JS value, as a zarr.json `fill_value` would spell it: NaN,
// ±Infinity and -0 as "NaN", "Infinity", "-Infinity" and -0.0; any other number as metadata
// numbers are written (numberJson: 2 ** 62 is 4611686018427387904, not JSON.stringify's
// 4611686018427388000); a BigInt as its digits; a string as that JSON string ("NaN", "0x7fc00001",
// "-Infinity"); anything else as JSON text, for the core to reject.
function fillJson(fill) {
  switch (typeof fill) {
    case 'number':
      if (Number.isNaN(fill)) return '"NaN"';
      if (fill === Infinity || fill === -Infinity) return fill > 0 ? '"Infinity"' : '"-Infinity"';
      if (Object.is(fill, -0)) return '-0.0';
      return numberJson(fill);
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
  const fill = read(options, 'fill', 'bind() options.fill');
  const fillText = read(options, 'fillText', 'bind() options.fillText');
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

/** Serialises a value to JSON text the way this package does: BigInt values become exact JSON integers. */
export function toJsonText(value) {
  return toJson(value);
}

/**
 * The `.code` of an error of this package, also when another library wrapped it: the first
 * string `.code` along `err`, `err.cause`, `err.cause.cause`, ... (zarrita wraps a codec's error
 * in its CodecPipelineError, with ours as `cause`). `undefined` if there is none. Never throws,
 * whatever `err` is (getters that throw and cycles end the walk).
 */
export function errorCode(err) {
  const seen = new Set();
  let e = err;
  for (let depth = 0; depth < 64 && e !== null && (typeof e === 'object' || typeof e === 'function') && !seen.has(e); depth++) {
    seen.add(e);
    let code;
    try {
      code = e.code;
      if (typeof code === 'string') return code;
      e = e.cause;
    } catch {
      return undefined;
    }
  }
  return undefined;
}

