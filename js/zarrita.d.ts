// Type declarations for zarr-scale-offset/zarrita (hand-written; see js/zarrita.js).
//
// The types are structural, so this module does not depend on zarrita's own declarations:
// `register(zarr.registry)` type-checks against zarrita's `Map<string, () => Promise<CodecEntry>>`.

/** The registry names of this package's codecs. */
export type ZarritaCodecName = 'scale_offset' | 'cast_value' | 'cf.scale_offset' | 'numcodecs.fixedscaleoffset';

/** The registry names of this package's codecs, in order (`register` also sets V2_FIXEDSCALEOFFSET). */
export const codecNames: readonly ZarritaCodecName[];

/** zarrita's chunk: C-order data of the chunk shape. */
export interface ZarritaChunk {
  data: ArrayBufferView & ArrayLike<number | bigint>;
  shape: number[];
  stride: number[];
}

/** What zarrita passes to `fromConfig` and `getEncodedMeta`. */
export interface ZarritaChunkMetadata {
  /** The data type this codec receives (a surrogate such as "uint16" for bfloat16, see ENCODED_META). */
  dataType: string;
  /** The chunk (or inner chunk) shape. */
  shape: number[];
  /** The codecs list this codec is part of. */
  codecs: Array<{ name: string; configuration?: unknown }>;
  /** The fill value, as zarrita parsed it (NaN/±Infinity numbers, bigint for int64/uint64). */
  fillValue: unknown;
  [ENCODED_META]?: { dataType: string; surrogate: string; fill: string | null };
}

/**
 * Key under which the codecs of this package pass the real data type and fill value (JSON text)
 * of a surrogate type to the next codec (`Symbol.for("zarr-scale-offset.encodedMeta")`).
 */
export const ENCODED_META: unique symbol;

/** An array->array codec instance, as zarrita's pipeline uses it. */
export interface ZarritaArrayToArrayCodec {
  readonly kind: 'array_to_array';
  /** Returns a new chunk of the encoded data type (same shape and stride). Throws with a `.code`. */
  encode(chunk: ZarritaChunk): ZarritaChunk;
  /** Returns a new chunk of the data type the codec receives (same shape and stride). Throws with a `.code`. */
  decode(chunk: ZarritaChunk): ZarritaChunk;
  /** The chunk metadata after this codec (data type or its surrogate, encoded fill value). */
  getEncodedMeta(meta: ZarritaChunkMetadata): ZarritaChunkMetadata;
}

/** A zarrita codec registry entry. `fromConfig` is synchronous and throws (with a `.code`) on invalid metadata. */
export interface ZarritaCodecEntry {
  readonly kind: 'array_to_array';
  fromConfig(config: unknown, meta: ZarritaChunkMetadata): ZarritaArrayToArrayCodec;
}

/** The entries `register` sets (but V2_FIXEDSCALEOFFSET), for wiring by hand after `await ready()`. */
export const codecEntries: Readonly<Record<ZarritaCodecName, ZarritaCodecEntry>>;

/** zarrita's codec registry (`zarr.registry`), or anything with the same `set`. */
export interface ZarritaRegistry {
  // `any`: zarrita's loader type returns its own CodecEntry type, which this module does not import
  set(name: string, loader: () => Promise<any>): unknown;
}

/**
 * The registry name under which `register` sets the numcodecs-exact reading of a Zarr v2
 * `fixedscaleoffset` filter handed over by `keepV2Filters`.
 */
export const V2_FIXEDSCALEOFFSET: 'numcodecs.fixedscaleoffset.v2';

/** Every name `register` sets on zarrita's registry. */
export type RegisteredCodecName = ZarritaCodecName | typeof V2_FIXEDSCALEOFFSET;

/**
 * Sets `scale_offset`, `cast_value`, `cf.scale_offset`, `numcodecs.fixedscaleoffset` and
 * `V2_FIXEDSCALEOFFSET` on zarrita's registry at once, replacing its built-in codecs, and starts
 * loading the WebAssembly module in the background. The entries are lazy loaders that await the
 * module, so a read started right after `register` returns (awaited or not) uses these codecs.
 * Resolves to the names it set once the module is ready. Throws a TypeError (`.code`
 * "invalid_argument") at once when `registry` is not a registry.
 */
export function register(registry: ZarritaRegistry): Promise<RegisteredCodecName[]>;

/** A zarrita store: what `keepV2Filters` needs (zarrita's `Readable`, async or sync). */
export interface ZarritaReadable {
  get(key: any, options?: any): Promise<Uint8Array | undefined> | Uint8Array | undefined;
}

/** zarrita's `AsyncReadable`: a store whose `get` returns a Promise (`FetchStore`, ...). */
export interface ZarritaAsyncReadable {
  get(key: any, options?: any): Promise<Uint8Array | undefined>;
}

/**
 * Wraps a zarrita store so that the Zarr v2 arrays read through it decode their
 * `fixedscaleoffset` filters exactly as numcodecs does (float64 arithmetic, one cast; NaN fill
 * values allowed) rather than through zarrita's rewrite into the v3 codecs `scale_offset` +
 * `cast_value`, which mean what the v3 specifications say. zarrita does not tell a codec whether
 * an array is v2 or v3; this wrapper does. It changes only the filter entries (a `.zmetadata`
 * keeps the text of everything else, number spellings included); every other key and property
 * passes through unchanged. `zarr.open(keepV2Filters(store))`; consolidated:
 * `zarr.withConsolidatedMetadata(keepV2Filters(store))`. Not a store: a TypeError with `.code`
 * `invalid_argument`.
 */
export function keepV2Filters<S extends ZarritaAsyncReadable>(store: S): S;
/** A synchronous store (a `Map`, zarrita's sync `Readable`): the wrapper's `get` is async. */
export function keepV2Filters<S extends ZarritaReadable>(store: S): Omit<S, 'get'> & ZarritaAsyncReadable;

/**
 * The `.code` of an error of this package, also when zarrita wrapped it (its CodecPipelineError
 * keeps ours as `cause`): the first string `.code` along the `cause` chain, or `undefined`.
 */
export function errorCode(err: unknown): string | undefined;

/** Options of `openCF`. */
export interface OpenCFOptions {
  /**
   * xarray's `use_zarr_fill_value_as_mask`: the array's `fill_value` is the `_FillValue`.
   * Default: true for Zarr v2 (as xarray), false for v3 (the `_FillValue` attribute counts).
   */
  useZarrFillValueAsMask?: boolean;
  /** Which metadata document to read (default: zarr.json if present, else .zarray/.zattrs). */
  zarrFormat?: 2 | 3;
  /**
   * Read the array's documents from the store's consolidated metadata (v3: the root
   * `zarr.json`'s `consolidated_metadata`; v2: `.zmetadata`) when it lists the array, as
   * `xarray.open_zarr` does by default. Every document is read as stored, from beneath
   * zarrita's `withConsolidatedMetadata` and `keepV2Filters` (whose re-serialised copies turn
   * `2.0` into `2`). `false`: only the array's own files; `true`: the consolidated metadata
   * must list the array (`invalid_metadata` otherwise). Default: use it when it lists the array.
   */
  consolidated?: boolean;
  /** Called for what was ignored as xarray ignores it (default: console.warn). */
  onWarning?: (warning: { pointer: string; message: string }) => void;
}

/** What `openCF` applied, on the `cf` property of the array it returns. */
export interface CFInfo {
  /** The stored data type (the zarrita array's). */
  readonly packedDataType: string;
  /** The decoded type xarray gives. */
  readonly dataType: string;
  /** `fromCF`'s codecs (`[cf.scale_offset?, cast_value?, bytes]`). */
  readonly codecs: ReadonlyArray<{ name: string; configuration?: unknown }>;
  readonly warnings: ReadonlyArray<{ pointer: string; message: string }>;
  /** The CF attributes as xarray reads them (v2 `fill_value` as `_FillValue`, v3 base64 decoded). */
  readonly attributes: Readonly<Record<string, unknown>>;
}

/**
 * From a zarrita array whose attributes carry CF packing (`scale_factor`, `add_offset`,
 * `_FillValue`, `missing_value`, `_Unsigned`), a read-only zarrita array that `zarr.get` reads
 * (any selection, sharded or not) with the values and float type of `xarray.open_zarr`
 * (mask_and_scale on), bit for bit. An array without CF attributes, or with nothing to unpack,
 * is returned as it is. Rejects with a `.code` (`invalid_argument`, `invalid_metadata`, ...).
 * The result keeps the array's TypeScript type (zarrita's `zarr.open` gives the wide `DataType`
 * union) with a `cf` property; its `dtype` is the decoded type (`cf.dataType`), not the packed one.
 */
export function openCF<A extends { readonly kind: 'array'; readonly dtype: string }>(
  array: A,
  options?: OpenCFOptions,
): Promise<A & { readonly cf?: CFInfo }>;
