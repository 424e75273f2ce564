// The zarrita examples (docs/guides/browser.md: register, openCF) as a
// TypeScript user writes them under `strict`, against zarrita 0.7.5's own declarations.
import * as zarr from 'zarrita';
import { register, keepV2Filters, errorCode, openCF } from 'zarr-scale-offset/zarrita';

export async function useWithZarrita(url: string): Promise<void> {
  register(zarr.registry); // once; replaces zarrita's built-in codecs at once (await it to know the module loaded)
  const arr = await zarr.open(keepV2Filters(new zarr.FetchStore(url)), { kind: 'array' }); // keepV2Filters: v2 only
  const consolidated = await zarr.withConsolidatedMetadata(keepV2Filters(new zarr.FetchStore(url)));
  try {
    await zarr.get(arr);
  } catch (e) {
    const code: string | undefined = errorCode(e); // e.g. "not_representable"
    void code;
  }
  void consolidated;
}

export async function cfPacked(): Promise<void> {
  await register(zarr.registry);
  const raw = await zarr.open(new zarr.FetchStore('https://example.org/era5.zarr/t2m'), { kind: 'array' }); // int16
  const t2m = await openCF(raw); // float64, kelvin, -32767 -> NaN
  const { data } = await zarr.get(t2m, [zarr.slice(0, 100), null]);
  const packed: string | undefined = t2m.cf?.packedDataType; // { packedDataType: "int16", dataType: "float64", codecs, warnings, attributes }
  void [data, packed];
}
