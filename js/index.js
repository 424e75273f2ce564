// zarr-scale-offset: the public ESM entry.
//
// The core (js/core.js: ready, bind, the exact JSON writer, errors, typed-array checks) is shared
// with the zarrita adapter; this file adds the rest of the API over the same WebAssembly exports:
// text-keyed encode/decode, whole chunks of a zarr.json, validate, metadataWarnings, fromCF,
// fromFixedScaleOffset. Every codec rule lives in the Rust core (src/).
//
// `npm run build` copies this file to dist/index.js (see js/core.js for the rest of dist/).

import * as wasm from './zarr_scale_offset.js';
import {
  CONSTRUCTORS,
  HAS_FLOAT16,
  JSON_WORDS,
  SHORT_HAND,
  TA_BUFFER,
  TA_BYTE_LENGTH,
  TA_BYTE_OFFSET,
  arrayRun,
  bufferInfo,
  byteView,
  bytesIn,
  bytesOf,
  codecsText,
  codedError,
  dataTypeArgs,
  dataTypeText,
  describe,
  ensureReady,
  freshArray,
  isArray,
  kindOf,
  read,
  toJson,
  typedArrayTag,
  unaliased,
} from './core.js';
import { parseExact } from './numbers.js';

export { ready, isReady, bind, toJsonText, errorCode } from './core.js';

function metadataText(metadata) {
  if (typeof metadata === 'string') return metadata;
  if (metadata !== null && typeof metadata === 'object' && !isArray(metadata)) {
    return toJson(metadata);
  }
  throw codedError(
    'invalid_metadata',
    `array metadata must be a zarr.json object or its JSON text, got ${describe(metadata)}`,
  );
}

// Raw stored bytes for decodeChunk: a Uint8Array or an (Shared)ArrayBuffer.
function storedBytesIn(fn, bytes) {
  if (typedArrayTag(bytes) === 'Uint8Array') {
    return byteView(fn, TA_BUFFER.call(bytes), TA_BYTE_OFFSET.call(bytes), TA_BYTE_LENGTH.call(bytes));
  }
  if (bufferInfo(bytes) !== undefined) return byteView(fn, bytes, 0, undefined);
  throw codedError('invalid_data', `${fn}(): expected the stored chunk bytes as a Uint8Array or an ArrayBuffer, got ${describe(bytes)}`);
}

// Per zarr.json text (most recent last): its data type name, typed-array kind, elements per chunk
// and bytes per stored element, so that a chunk call passes the text to wasm once. Bounded by
// bytes, like the bound chains in wasm: a text of more than CHUNK_INFO_MAX_TEXT UTF-16 units
// (128 KiB) is never kept, and the texts kept hold at most CHUNK_INFO_MAX_BYTES (1 MiB, at 2
// bytes per unit plus 256 per entry) in all.
const CHUNK_INFO_MAX_TEXT = 64 * 1024;
const CHUNK_INFO_MAX_BYTES = 1 << 20;
const chunkInfoCache = new Map();
let chunkInfoBytes = 0;
const chunkInfoCost = (m) => 2 * m.length + 256;

function chunkInfo(m) {
  let info = chunkInfoCache.get(m);
  if (info === undefined) {
    const layout = wasm.chunkLayout(m);
    const name = layout.dataType;
    info = { name, kind: kindOf(name), n: layout.elements, decodedSize: layout.decodedSize, storedSize: layout.storedSize };
    if (m.length <= CHUNK_INFO_MAX_TEXT) {
      chunkInfoBytes += chunkInfoCost(m);
      for (const old of chunkInfoCache.keys()) {
        if (chunkInfoBytes <= CHUNK_INFO_MAX_BYTES) break;
        chunkInfoCache.delete(old);
        chunkInfoBytes -= chunkInfoCost(old);
      }
      chunkInfoCache.set(m, info);
    }
  }
  return info;
}

/** @internal For tests: the number of texts the chunk-info cache holds and their estimated bytes. */
export function _chunkInfoCacheUsage() {
  return { entries: chunkInfoCache.size, bytes: chunkInfoBytes };
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

/** The canonical name of the data type that `encode(codecs, dataType, …)` produces. */
export function encodedDataType(codecs, dataType) {
  ensureReady('encodedDataType');
  return wasm.encodedDataType(codecsText(codecs), dataTypeText(dataType));
}

// ---------------------------------------------------------------------------------------------
// bind: codecs bound once to (data type, fill value)

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
 * first: `{ valid, errors: [{path, code, message}], warnings: [...], decodable, unsupported: [...] }`
 * with RFC 6901 JSON pointers. Lenient forms accepted on read are warnings. `unsupported` lists
 * what is valid but this package cannot decode (gzip, sharding_indexed, bool, ...); `decodable`
 * is `valid` with nothing unsupported. Never throws for bad metadata (only for a call before
 * ready()).
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
        errors: [{ path: '', code: e.code ?? 'invalid_json', message: `cannot serialise the metadata: ${e.message}` }],
        warnings: [],
        decodable: false,
        unsupported: [],
      };
    }
    if (text === undefined) {
      return {
        valid: false,
        errors: [{ path: '', code: 'invalid_metadata', message: `expected metadata, got ${describe(metadata)}` }],
        warnings: [],
        decodable: false,
        unsupported: [],
      };
    }
  }
  let dt;
  if (dataType !== undefined && dataType !== null) {
    try {
      dt = dataTypeText(dataType);
    } catch (e) {
      return {
        valid: false,
        errors: [{ path: '', code: e.code ?? 'unsupported_data_type', message: e.message }],
        warnings: [],
        decodable: false,
        unsupported: [],
      };
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
 * Give `attrs` as JSON text to keep int64 fill values beyond 2^53 exact; in the result such
 * integers are `bigint` (toJsonText and bind write them exactly; JSON.stringify refuses them).
 */
export function fromCF(attrs, packedDataType, options) {
  ensureReady('fromCF');
  const text = typeof attrs === 'string' ? attrs : toJson(attrs);
  const attributeDataType = options === undefined || options === null ? undefined : read(options, 'attributeDataType', 'fromCF() options.attributeDataType');
  const ad = attributeDataType === undefined ? undefined : dataTypeText(attributeDataType);
  return parseExact(wasm.fromCF(text, dataTypeText(packedDataType), ad));
}

/**
 * The `[scale_offset, cast_value]` codecs that supersede a `numcodecs.fixedscaleoffset`
 * configuration (the codec object, its configuration, or a v2 filter `{id: "fixedscaleoffset",
 * …}`), per the scale_offset spec (`out_of_range: "wrap"` for integer `astype`). `dataType`
 * stands in for a missing `dtype`. The replacement computes in the array's data type and rounds
 * half-to-even, so it does not decode bit-for-bit like numcodecs (see docs/guides/rules.md).
 */
export function fromFixedScaleOffset(config, dataType) {
  ensureReady('fromFixedScaleOffset');
  const text = typeof config === 'string' ? config : toJson(config);
  const dt = dataType === undefined ? undefined : dataTypeText(dataType);
  return parseExact(wasm.fromFixedScaleOffset(text, dt));
}

/** The version of the Rust core. */
export function version() {
  ensureReady('version');
  return wasm.version();
}
