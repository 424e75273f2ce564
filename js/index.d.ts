// Type declarations for zarr-scale-offset (hand-written; see js/index.js).

/** The 26 numeric data types. */
export type DataTypeName =
  | 'int2'
  | 'int4'
  | 'int8'
  | 'int16'
  | 'int32'
  | 'int64'
  | 'uint2'
  | 'uint4'
  | 'uint8'
  | 'uint16'
  | 'uint32'
  | 'uint64'
  | 'float4_e2m1fn'
  | 'float6_e2m3fn'
  | 'float6_e3m2fn'
  | 'float8_e3m4'
  | 'float8_e4m3'
  | 'float8_e4m3b11fnuz'
  | 'float8_e4m3fnuz'
  | 'float8_e5m2'
  | 'float8_e5m2fnuz'
  | 'float8_e8m0fnu'
  | 'bfloat16'
  | 'float16'
  | 'float32'
  | 'float64';

/**
 * A data type: a name, the object form `{ name }` (with an optional empty configuration), or
 * JSON text of either (e.g. `'"int4"'`, `'{"name":"int4"}'`).
 */
export type DataType<D extends DataTypeName = DataTypeName> =
  | D
  | { name: D; configuration?: Record<string, never> }
  | (string & {});

/** `Float16Array` where the TypeScript lib declares it (ES2025 / esnext), else `never`. */
export type Float16ArrayIfAvailable = typeof globalThis extends { Float16Array: { prototype: infer P } }
  ? P
  : never;

/**
 * float16 values: a `Float16Array` where the runtime has one, else a `Uint16Array` of the raw
 * IEEE binary16 bits. Both kinds are accepted as input.
 */
export type Float16Values = Float16ArrayIfAvailable | Uint16Array;

/** The typed array that holds one data type in memory. */
export type TypedArrayFor<D extends DataTypeName> = D extends 'int2' | 'int4' | 'int8'
  ? Int8Array // int2/int4 sign-extended into one byte
  : D extends
        | 'uint2'
        | 'uint4'
        | 'uint8'
        | 'float4_e2m1fn'
        | 'float6_e2m3fn'
        | 'float6_e3m2fn'
        | 'float8_e3m4'
        | 'float8_e4m3'
        | 'float8_e4m3b11fnuz'
        | 'float8_e4m3fnuz'
        | 'float8_e5m2'
        | 'float8_e5m2fnuz'
        | 'float8_e8m0fnu'
    ? Uint8Array // uint2/uint4 zero-extended; 4/6/8-bit floats as raw codes in the low bits
    : D extends 'int16'
      ? Int16Array
      : D extends 'uint16'
        ? Uint16Array
        : D extends 'bfloat16'
          ? Uint16Array // raw bfloat16 bits
          : D extends 'float16'
            ? Float16Values
            : D extends 'int32'
              ? Int32Array
              : D extends 'uint32'
                ? Uint32Array
                : D extends 'int64'
                  ? BigInt64Array
                  : D extends 'uint64'
                    ? BigUint64Array
                    : D extends 'float32'
                      ? Float32Array
                      : D extends 'float64'
                        ? Float64Array
                        : never;

/** Any typed array this package takes or returns. */
export type ZarrTypedArray = TypedArrayFor<DataTypeName>;

/** The typed-array constructor names that `typedArrayKind` returns. */
export type TypedArrayKind =
  | 'Int8Array'
  | 'Uint8Array'
  | 'Int16Array'
  | 'Uint16Array'
  | 'Int32Array'
  | 'Uint32Array'
  | 'BigInt64Array'
  | 'BigUint64Array'
  | 'Float16Array'
  | 'Float32Array'
  | 'Float64Array';

/**
 * A number in codec or metadata JSON. A `bigint` is written as an exact JSON integer (use it for
 * int64/uint64 values beyond 2^53); a `number` as `JSON.stringify` writes it. A string is a
 * Zarr fill-value string such as `"NaN"`, `"Infinity"` or `"0x7fc0"`.
 */
export type JsonScalar = number | bigint | string;

/** A codec object: `{ name, configuration? }`. */
export interface CodecObject {
  name: string;
  configuration?: Record<string, unknown>;
}

/** The `scale_offset` codec. */
export interface ScaleOffsetCodec extends CodecObject {
  name: 'scale_offset';
  configuration?: { offset?: JsonScalar; scale?: JsonScalar };
}

/** The rounding modes of `cast_value`. */
export type Rounding =
  | 'nearest-even'
  | 'towards-zero'
  | 'towards-positive'
  | 'towards-negative'
  | 'nearest-away';

/** The `cast_value` codec. */
export interface CastValueCodec extends CodecObject {
  name: 'cast_value';
  configuration: {
    data_type: DataType;
    rounding?: Rounding;
    out_of_range?: 'clamp' | 'wrap';
    scalar_map?: {
      encode?: Array<[JsonScalar, JsonScalar]>;
      decode?: Array<[JsonScalar, JsonScalar]>;
    };
  };
}

/**
 * The `cf.scale_offset` codec (experimental name, zarr-extensions issue #64): decode
 * `x * scale + offset`, encode `(x - offset) / scale`, in the array's data type.
 */
export interface CfScaleOffsetCodec extends CodecObject {
  name: 'cf.scale_offset';
  configuration?: { offset?: JsonScalar; scale?: JsonScalar };
}

/** One codec: an object, or its short-hand name (e.g. `"scale_offset"`). */
export type Codec = ScaleOffsetCodec | CfScaleOffsetCodec | CastValueCodec | CodecObject | string;

/**
 * Array->array codecs: one codec or a list of them (objects or short-hand names), or JSON text of
 * either. A string that looks like a codec name (`scale_offset`) is the short-hand form; any
 * other string is parsed as JSON text.
 */
export type Codecs = Codec | Codec[];

/** A Zarr v3 zarr.json array document (the fields this package reads, plus any others). */
export interface ArrayMetadata<D extends DataTypeName = DataTypeName> {
  zarr_format: 3;
  node_type: 'array';
  shape: number[];
  data_type: D | { name: D; configuration?: Record<string, never> };
  chunk_grid: { name: string; configuration: { chunk_shape: number[] } } | Record<string, unknown>;
  chunk_key_encoding?: unknown;
  fill_value: JsonScalar | null;
  codecs: Array<CodecObject | string>;
  attributes?: Record<string, unknown>;
  dimension_names?: Array<string | null>;
  storage_transformers?: unknown[];
  [key: string]: unknown;
}

/** The codes of the errors this package throws (`err.code`). */
export type ErrorCode =
  | 'invalid_json'
  | 'invalid_metadata'
  | 'unsupported_data_type'
  | 'unsupported_codec'
  | 'not_representable'
  | 'out_of_range'
  | 'length_mismatch'
  | 'invalid_data'
  | 'read_only'
  | 'not_ready'
  /** A bug in this package (please report it), e.g. `ready()` finding its inlined module corrupt. */
  | 'internal';

/** Every error this package throws is an `Error` with a string `code`. */
export interface ZarrScaleOffsetError extends Error {
  code: ErrorCode;
}

/**
 * Initialises the WebAssembly module (inlined in the package; nothing is fetched). Idempotent:
 * every call returns the same Promise. Every other function throws `code: "not_ready"` until it
 * has resolved, and is synchronous afterwards.
 */
export function ready(): Promise<void>;

/** Whether `ready()` has resolved. */
export function isReady(): boolean;

/**
 * Encodes in-memory values of `dataType` through array->array codecs.
 * @param data a typed array of the kind `typedArrayKind(dataType)` names
 * @returns a new typed array of the encoded data type (see `encodedDataType`)
 */
export function encode<D extends DataTypeName>(
  codecs: Codecs,
  dataType: DataType<D>,
  data: TypedArrayFor<D>,
): ZarrTypedArray;

/**
 * Decodes values of the encoded data type (`encodedDataType(codecs, dataType)`) back to `dataType`.
 * @returns a new typed array of `dataType`
 */
export function decode<D extends DataTypeName>(
  codecs: Codecs,
  dataType: DataType<D>,
  data: ZarrTypedArray,
): TypedArrayFor<D>;

/**
 * Like `decode`, but writes into `out`, a caller-supplied typed array of `dataType` with as many
 * elements as `data` (for viewers that reuse buffers). On an error `out` may be partly written.
 * @returns `out`
 */
export function decodeInto<D extends DataTypeName, T extends TypedArrayFor<D>>(
  codecs: Codecs,
  dataType: DataType<D>,
  data: ZarrTypedArray,
  out: T,
): T;

/** The canonical name of the data type that `encode(codecs, dataType, …)` produces. */
export function encodedDataType(codecs: Codecs, dataType: DataType): DataTypeName;

/** The fill value `bind` binds (at most one of the two; neither: no fill value). */
export interface BindOptions {
  /**
   * The fill value the codecs receive, as a zarr.json `fill_value` says it (a value, not raw
   * bits): a number (NaN, ±Infinity and -0 included; an integer from 2^53 up to 2^65 is taken at
   * its exact value), a `bigint`, or a Zarr fill-value string (`"NaN"`, `"-Infinity"`,
   * `"0x7fc00001"` for raw bits).
   */
  fill?: JsonScalar | null;
  /** The fill value as JSON text of a zarr.json `fill_value` instead (e.g. `'"NaN"'`, or another
   * handle's `encodedFillText`). */
  fillText?: string | null;
}

/**
 * Array->array codecs bound once to a data type and fill value (made by `bind`). Encodes and
 * decodes any number of chunks without parsing again; the same typed-array kinds, checks and
 * errors as `encode`/`decode`. Holds WebAssembly memory: call `free()` when done (it is also
 * released when the handle is garbage-collected; `[Symbol.dispose]` is `free` where the runtime
 * has `Symbol.dispose`). After `free()` every method throws `code: "not_ready"`.
 */
export interface BoundCodecs<D extends DataTypeName = DataTypeName> {
  /** The canonical name of the data type the codecs receive (what `decode` returns). */
  readonly decodedDataType: D;
  /** The canonical name of the data type after the codecs (what `encode` returns). */
  readonly encodedDataType: DataTypeName;
  /**
   * The fill value after the codecs as one element of a typed array of `encodedDataType` (so
   * raw bits for bfloat16, the 4/6/8-bit floats and float16 without Float16Array; a `bigint`
   * for int64/uint64; int2/int4 sign-extended), or null: no fill value was bound, or a codec
   * does not carry it (`numcodecs.fixedscaleoffset`, as in zarr-python).
   */
  readonly encodedFill: number | bigint | null;
  /** The same fill value as the strict JSON text of a zarr.json `fill_value` (`"0"`, `"1.5"`,
   * `'"NaN"'`, `'"0x7fc00001"'`), or null. */
  readonly encodedFillText: string | null;
  /** Encodes a typed array of `decodedDataType`; returns a new typed array of `encodedDataType`. */
  encode(data: TypedArrayFor<D>): ZarrTypedArray;
  /** Decodes a typed array of `encodedDataType`; returns a new typed array of `decodedDataType`. */
  decode(data: ZarrTypedArray): TypedArrayFor<D>;
  /** Like `encode`, into `out` (a typed array of `encodedDataType`, as many elements). On an
   * error `out` may be partly written. @returns `out` */
  encodeInto<T extends ZarrTypedArray>(data: TypedArrayFor<D>, out: T): T;
  /** Like `decode`, into `out` (a typed array of `decodedDataType`, as many elements). On an
   * error `out` may be partly written. @returns `out` */
  decodeInto<T extends TypedArrayFor<D>>(data: ZarrTypedArray, out: T): T;
  /** Releases the handle's WebAssembly memory now (idempotent). */
  free(): void;
}

/**
 * Binds array->array `codecs` (as for `encode`) to `dataType` and the fill value of `options`,
 * once. The fill value flows through the codecs as in a zarr.json document: a fill value that
 * a codec cannot carry (NaN into an integer type without a `scalar_map` entry, a value that does
 * not survive `cast_value`'s round trip) throws `code: "invalid_metadata"` with that codec's
 * JSON pointer; a fill value that is not one of `dataType` throws with a message starting
 * `fill value:`.
 */
export function bind<D extends DataTypeName>(
  codecs: Codecs,
  dataType: DataType<D>,
  options?: BindOptions,
): BoundCodecs<D>;

/**
 * The data type named by a metadata value: its `data_type` when that is a literal name (or
 * `{ name }` with a literal name), else any data type (JSON text, plain objects from JSON).
 */
export type DataTypeOf<M> = M extends { data_type: infer T }
  ? T extends DataTypeName
    ? T
    : T extends { name: infer N extends DataTypeName }
      ? N
      : DataTypeName
  : DataTypeName;

/**
 * Encodes one whole chunk (all elements of the chunk shape, C order) of a Zarr v3 array to its
 * stored bytes. `arrayMetadata` is the zarr.json document as an object or as JSON text; JSON text
 * is the exact path for every digit (an object's numbers go through `JSON.stringify`, except
 * `bigint` values, which are written exactly).
 */
export function encodeChunk<const M extends object | string>(
  arrayMetadata: M,
  data: TypedArrayFor<DataTypeOf<M>>,
): Uint8Array;

/**
 * Decodes one whole stored chunk of a Zarr v3 array (zarr.json as an object or JSON text) to a
 * new typed array of its data type. `bytes` are the stored bytes after the `bytes` codec (any
 * bytes->bytes codec such as gzip must be undone first: it is not part of this package).
 */
export function decodeChunk<const M extends object | string>(
  arrayMetadata: M,
  bytes: Uint8Array | ArrayBuffer | SharedArrayBuffer,
): TypedArrayFor<DataTypeOf<M>>;

/**
 * Like `decodeChunk`, but writes into `out`, a caller-supplied typed array of the array's data
 * type with the chunk's number of elements (for viewers that reuse buffers). On an error `out`
 * may be partly written.
 * @returns `out`
 */
export function decodeChunkInto<const M extends object | string, T extends TypedArrayFor<DataTypeOf<M>>>(
  arrayMetadata: M,
  bytes: Uint8Array | ArrayBuffer | SharedArrayBuffer,
  out: T,
): T;

/** The canonical data type name of a zarr.json array document (object or JSON text). */
export function arrayDataType(arrayMetadata: ArrayMetadata | string | object): DataTypeName;

/** A lenient form that a metadata document relies on: where it is and the strict spelling. */
export interface MetadataWarning {
  /** JSON pointer of the value, e.g. "/fill_value" or "/codecs/0/configuration/offset". */
  pointer: string;
  message: string;
}

/**
 * The lenient forms a zarr.json array document relies on (e.g. "+Infinity", 1000.0 for an
 * integer type); [] when everything is strict. Throws (with a `code`) when the document is invalid.
 */
export function metadataWarnings(arrayMetadata: string | object): MetadataWarning[];

/**
 * The typed-array constructor name for a data type in this runtime ("Uint16Array" for float16
 * where the runtime has no Float16Array).
 */
export function typedArrayKind(dataType: DataType): TypedArrayKind;

/** The typed-array constructor for a data type in this runtime. */
export function typedArrayConstructor(
  dataType: DataType,
):
  | Int8ArrayConstructor
  | Uint8ArrayConstructor
  | Int16ArrayConstructor
  | Uint16ArrayConstructor
  | Int32ArrayConstructor
  | Uint32ArrayConstructor
  | BigInt64ArrayConstructor
  | BigUint64ArrayConstructor
  | Float32ArrayConstructor
  | Float64ArrayConstructor
  | (typeof globalThis extends { Float16Array: infer C } ? C : never);

/** One finding of `validate`. */
export interface Diagnostic {
  /** RFC 6901 JSON pointer of the field ("" is the whole input), e.g. "/codecs/1/configuration/scale". */
  path: string;
  /** Stable code: an {@link ErrorCode} for errors; for warnings "lenient_form", "duplicate_key",
   * "ignored_field", "ignored_codec", "no_data_type", "non_finite_scale". */
  code: string;
  /** What is wrong, in words. */
  message: string;
}

/** The result of `validate`. */
export interface ValidationResult {
  /** No errors (warnings allowed). */
  valid: boolean;
  errors: Diagnostic[];
  warnings: Diagnostic[];
}

/**
 * Validates a zarr.json array document, a codecs list or a single codec (object, JSON text or
 * short-hand name), reporting every problem with its JSON pointer. `dataType` is the data type a
 * codecs list or codec receives. Never throws for bad metadata.
 */
export function validate(metadata: unknown, dataType?: DataType): ValidationResult;

/** A CF attribute value: a number, or a typed netCDF attribute `{value, dtype}`. */
export type CfAttribute = number | bigint | { value: number | bigint; dtype: 'float16' | 'float32' | 'float64' | DataTypeName };

/** netCDF/CF packing attributes. */
export interface CfAttributes {
  scale_factor?: CfAttribute;
  add_offset?: CfAttribute;
  _FillValue?: CfAttribute | Array<number | bigint> | string;
  missing_value?: CfAttribute | Array<number | bigint>;
  _Unsigned?: 'true' | 'false' | boolean;
  [key: string]: unknown;
}

/** What `fromCF` returns: the pieces of a zarr.json that reproduce `xarray.decode_cf`. */
export interface CfArrayParts {
  data_type: DataTypeName;
  fill_value: JsonScalar;
  codecs: Array<CodecObject>;
}

/**
 * From CF packing attributes of data packed as `packedDataType`, the Zarr `data_type`,
 * `fill_value` and codecs list (`[cf.scale_offset, cast_value, bytes]`) whose decode equals
 * `xarray.decode_cf` bit for bit, following xarray's choice of float32 or float64.
 * `options.attributeDataType` says untyped scale/offset numbers were netCDF float32/float64
 * attributes (JSON numbers are otherwise read as Python floats/ints, as xarray sees them).
 */
export function fromCF(
  attrs: CfAttributes | string,
  packedDataType: DataType,
  options?: { attributeDataType?: 'float32' | 'float64' },
): CfArrayParts;

/** A `numcodecs.fixedscaleoffset` configuration (v3 codec object, bare configuration or v2 filter). */
export interface FixedScaleOffsetConfig {
  offset: number;
  scale: number;
  dtype?: string;
  astype?: string;
  id?: 'fixedscaleoffset';
}

/**
 * The `[scale_offset, cast_value]` codecs that supersede a `numcodecs.fixedscaleoffset`
 * configuration (spec: `out_of_range: "wrap"` for an integer `astype`). They compute in the
 * array's data type and round half-to-even, so they do not decode bit-for-bit like numcodecs.
 */
export function fromFixedScaleOffset(
  config: FixedScaleOffsetConfig | { name: 'numcodecs.fixedscaleoffset'; configuration: FixedScaleOffsetConfig } | string,
  dataType?: DataType,
): CodecObject[];

/** The version of the Rust core. */
export function version(): string;

/** Serialises a value to JSON text as this package does: `bigint` values become exact JSON integers. */
export function toJsonText(value: unknown): string;
