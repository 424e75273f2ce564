// Compile-time checks of js/zarrita.d.ts against zarrita's own declarations (zarrita 0.7.5),
// through the package's exports map. `tsc -p tests/types-zarrita` must pass (tests/js/zarrita-types.test.mjs).
import * as zarr from 'zarrita';
import {
  openCF,
  register,
  codecEntries,
  codecNames,
  ENCODED_META,
  V2_FIXEDSCALEOFFSET,
  keepV2Filters,
  errorCode,
  type RegisteredCodecName,
  type ZarritaCodecName,
  type ZarritaChunkMetadata,
} from 'zarr-scale-offset/zarrita';
import { errorCode as coreErrorCode } from 'zarr-scale-offset';

export async function main(url: string): Promise<Float32Array> {
  const names: RegisteredCodecName[] = await register(zarr.registry);
  void names;
  const first: ZarritaCodecName = codecNames[0];
  void first;
  const v2: RegisteredCodecName = V2_FIXEDSCALEOFFSET;
  void v2;
  // keepV2Filters keeps the store's type: zarr.open and zarr.withConsolidatedMetadata take it
  const store: zarr.FetchStore = keepV2Filters(new zarr.FetchStore(url));
  // a synchronous store (a Map) is taken too; the wrapper's get is async, and zarrita opens it
  const mem = keepV2Filters(new Map<string, Uint8Array>());
  const got: Promise<Uint8Array | undefined> = mem.get('/.zarray');
  void got;
  await zarr.open(mem, { kind: 'group' }).catch(() => undefined);
  const arr = await zarr.open(store, { kind: 'array' });
  if (!arr.is('float32')) throw new Error(`expected float32, got ${arr.dtype}`);
  try {
    const chunk = await zarr.get(arr);
    return chunk.data;
  } catch (e) {
    const code: string | undefined = errorCode(e) ?? coreErrorCode(e);
    throw new Error(`failed: ${code}`);
  }
}

// Not awaiting register is allowed (the entries are set at once).
export function fireAndForget(): void {
  void register(zarr.registry);
  // @ts-expect-error: not a store
  keepV2Filters(42);
}

// A registry of your own works too.
export async function own(): Promise<void> {
  await register(new Map<string, () => Promise<unknown>>());
  // @ts-expect-error: a registry is required
  await register();
  // @ts-expect-error: not a registry
  await register({});
}

// The entries, by hand.
export function byHand(meta: ZarritaChunkMetadata): number {
  const codec = codecEntries.scale_offset.fromConfig({ scale: 10, offset: -1500 }, meta);
  const out = codec.decode({ data: new Float32Array(4), shape: [4], stride: [1] });
  const next = codec.getEncodedMeta(meta);
  const real: string | undefined = next[ENCODED_META]?.dataType;
  void real;
  // @ts-expect-error: not a codec name
  void codecEntries.gzip;
  return out.shape[0];
}

// openCF: the result is still a zarrita array (zarr.get and is() type-check), with a `cf` property.
export async function cf(url: string): Promise<Float64Array> {
  const raw = await zarr.open(new zarr.FetchStore(url), { kind: 'array' });
  const t2m = await openCF(raw, { useZarrFillValueAsMask: true, onWarning: (w) => console.warn(w.pointer, w.message) });
  const packed: string | undefined = t2m.cf?.packedDataType;
  void packed;
  if (!t2m.is('float64')) throw new Error(`expected float64, got ${t2m.dtype}`);
  const { data } = await zarr.get(t2m, [zarr.slice(0, 10), null]);
  // @ts-expect-error: zarrFormat is 2 or 3
  await openCF(raw, { zarrFormat: 4 });
  return data;
}
