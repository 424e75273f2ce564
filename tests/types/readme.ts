// The core API's examples (docs/guides/javascript.md: encode/decode, chunks, bind), as a
// TypeScript user writes them under `strict`: the types must say what the examples' comments
// say (the guides' own blocks are type-checked and run by scripts/docs.sh). The one change for TypeScript: `as const` on the codecs list, which keeps
// `data_type: "uint8"` a literal (without it TypeScript widens it to `string`, and `encode` returns
// the untyped ZarrTypedArray; see usage.ts).
import { ready, encode, decode, encodeChunk, decodeChunk, bind, type DataTypeName } from 'zarr-scale-offset';

export async function api(): Promise<void> {
  await ready(); // initialises the wasm once; everything after it is synchronous

  // array -> array codecs over typed arrays (one codec or a list; object or JSON text)
  const codecs = [
    { name: 'scale_offset', configuration: { offset: -10, scale: 0.1 } },
    { name: 'cast_value', configuration: { data_type: 'uint8', scalar_map: { encode: [['NaN', 0]], decode: [[0, 'NaN']] } } },
  ] as const;
  const stored: Uint8Array = encode(codecs, 'float64', new Float64Array([0, 100, NaN, 2540])); // Uint8Array [1, 11, 0, 255]
  const back: Float64Array = decode(codecs, 'float64', stored); // Float64Array [0, 100, NaN, 2540]

  // a whole chunk of a zarr.json array (object or JSON text)
  const meta = await (await fetch('/data.zarr/zarr.json')).json();
  const bytes = new Uint8Array(await (await fetch('/data.zarr/c/0/0')).arrayBuffer());
  const values = decodeChunk(meta, bytes); // typed array of the array's data type
  const again: Uint8Array = encodeChunk(meta, values); // Uint8Array, the stored bytes

  // ### Bind once, run many chunks
  const h = bind(codecs, 'float64', { fill: NaN }); // codecs as above; parsed and checked once
  const enc: 'uint8' = h.encodedDataType; // "uint8"
  const fill: number | bigint | null = h.encodedFill; // 0
  const fillText: string | null = h.encodedFillText; // "0"
  const stored2: Uint8Array = h.encode(new Float64Array([0, 100, NaN, 2540])); // Uint8Array [1, 11, 0, 255]
  const out = new Float64Array(4); // reuse it for every chunk
  const same: Float64Array = h.decodeInto(stored2, out); // Float64Array [0, 100, NaN, 2540]; also h.decode, h.encodeInto
  h.free(); // or leave it to the garbage collector

  // @ts-expect-error: the codecs decode from uint8, so decode takes a Uint8Array
  decode(codecs, 'float64', new Float64Array(4));
  // @ts-expect-error: and the handle too
  h.decode(new Uint16Array(4));
  // @ts-expect-error: encode returns a Uint8Array, not a Float64Array
  const wrong: Float64Array = encode(codecs, 'float64', new Float64Array(1));
  const name: DataTypeName = enc;
  void [back, again, fill, fillText, same, wrong, name];
}
