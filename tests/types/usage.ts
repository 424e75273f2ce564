// Compile-time checks of js/index.d.ts (via the built package's exports map, as users see it).
// `tsc -p tests/types` must pass: every `@ts-expect-error` line must be an error.
import {
  ready,
  encode,
  decode,
  encodeChunk,
  decodeChunk,
  encodedDataType,
  bind,
  type BoundCodecs,
  arrayDataType,
  typedArrayKind,
  typedArrayConstructor,
  version,
  metadataWarnings,
  type MetadataWarning,
  type ArrayMetadata,
  type DataTypeName,
  type ErrorCode,
  type TypedArrayFor,
  type Codec,
  type ZarrScaleOffsetError,
  type ZarrTypedArray,
  decodeInto,
  fromCF,
  type CfArrayParts,
} from 'zarr-scale-offset';

export async function usage(): Promise<void> {
  await ready();
  const v: string = version();

  // Typed-array kinds follow the data type literal.
  const i8: Int8Array = decode('scale_offset', 'int4', new Int8Array(2));
  const u8: Uint8Array = decode({ name: 'scale_offset' }, 'float8_e4m3', new Uint8Array(2));
  const b64: BigInt64Array = decode([{ name: 'scale_offset', configuration: { offset: 2n ** 62n + 1n } }], 'int64', new BigInt64Array(1));
  const bu64: BigUint64Array = decode('scale_offset', 'uint64', new BigUint64Array(1));
  const bf: Uint16Array = decode('scale_offset', 'bfloat16', new Uint16Array(1));
  const f32: Float32Array = decode('scale_offset', { name: 'float32' }, new Float32Array(1));
  const f16 = decode('scale_offset', 'float16', new Uint16Array(1));
  const f16bits: Uint16Array | Float16Array = f16;
  encode('scale_offset', 'float16', new Uint16Array(1));
  encode('scale_offset', 'float16', new Float16Array(1)); // lib es2025 has Float16Array
  encode({ name: 'cast_value', configuration: { data_type: 'uint8', rounding: 'nearest-away', out_of_range: 'clamp' } }, 'float64', new Float64Array(1));
  encode('[{"name":"scale_offset"}]', 'float32', new Float32Array(1));

  // @ts-expect-error: int16 data must be an Int16Array
  encode('scale_offset', 'int16', new Float32Array(1));
  // @ts-expect-error: int64 data must be a BigInt64Array
  encode('scale_offset', 'int64', new Float64Array(1));
  // @ts-expect-error: not a typed array
  encode('scale_offset', 'float32', [1, 2, 3]);
  // @ts-expect-error: a misspelt data type name
  encode('scale_offset', 'flaot32', new Float32Array(1));
  // @ts-expect-error: a misspelt data type name (decode)
  decode('scale_offset', 'flaot32', new Float32Array(1));
  // @ts-expect-error: a misspelt rounding of cast_value
  encode({ name: 'cast_value', configuration: { data_type: 'uint8', rounding: 'up' } }, 'float64', new Float64Array(1));
  // @ts-expect-error: a misspelt rounding of cast_value, in a list
  decode([{ name: 'scale_offset', configuration: { offset: 1 } }, { name: 'cast_value', configuration: { data_type: 'uint8', rounding: 'up' } }], 'float64', new Uint8Array(1));
  // @ts-expect-error: a misspelt out_of_range (bind)
  bind({ name: 'cast_value', configuration: { data_type: 'uint8', out_of_range: 'saturate' } }, 'float64');
  // @ts-expect-error: a misspelt data type (typedArrayKind)
  typedArrayKind('flaot32');
  // Data types as JSON text, and as a string known only at run time, are accepted.
  encode('scale_offset', '"float32"', new Float32Array(1));
  decode('scale_offset', '{"name":"float32"}', new Float32Array(1));
  const runtimeName: string = 'uint8';
  typedArrayKind(runtimeName);
  typedArrayKind('{"name":"int4"}');
  encodedDataType('scale_offset', runtimeName);
  bind('scale_offset', runtimeName, { fill: 0 }).free();
  // Codecs lists held in variables, JSON text and unknown codecs stay untyped.
  const list: Codec[] = [{ name: 'cast_value', configuration: { data_type: 'uint8' } }];
  encode(list, 'float64', new Float64Array(1));
  encode([{ name: 'bitround', configuration: { keepbits: 3 } }], 'float32', new Float32Array(1));
  encode({ name: 'cast_value', configuration: { data_type: 'uint8', rounding: 'towards-zero', scalar_map: { encode: [['NaN', 0]], decode: [[0, 'NaN']] } } }, 'float64', new Float64Array(1));

  // A data type only known at run time: any of the kinds.
  const name: string = 'float32';
  const any = decode('scale_offset', name, new Float32Array(1));
  const anyKind: TypedArrayFor<DataTypeName> = any;

  // Chunks: metadata objects (typed, or plain objects from JSON) and JSON text.
  const meta: ArrayMetadata<'uint16'> = {
    zarr_format: 3,
    node_type: 'array',
    shape: [4],
    data_type: 'uint16',
    chunk_grid: { name: 'regular', configuration: { chunk_shape: [4] } },
    fill_value: 0,
    codecs: [{ name: 'scale_offset', configuration: { offset: 1000 } }, { name: 'bytes', configuration: { endian: 'little' } }],
  };
  const stored: Uint8Array = encodeChunk(meta, new Uint16Array(4));
  const back: Uint16Array = decodeChunk(meta, stored);
  const fromJson = JSON.parse('{}') as unknown as object;
  decodeChunk(fromJson, stored.buffer as ArrayBuffer);
  const plain = { zarr_format: 3, data_type: 'float32', codecs: ['bytes'] };
  decodeChunk(plain, stored);
  decodeChunk('{"zarr_format":3}', stored);
  // @ts-expect-error: uint16 chunks take a Uint16Array
  encodeChunk(meta, new Int16Array(4));

  // bind: the handle's types follow the data type literal.
  const h: BoundCodecs<'int16'> = bind([{ name: 'scale_offset', configuration: { offset: 1 } }], 'int16', { fill: 0 });
  const hd: Int16Array = h.decode(h.encode(new Int16Array(2)));
  h.decodeInto(new Int16Array(2), new Int16Array(2));
  h.encodeInto(new Int16Array(2), new Uint8Array(2));
  const hf: number | bigint | null = h.encodedFill;
  const ht: string | null = h.encodedFillText;
  const hn: DataTypeName = h.encodedDataType;
  bind('scale_offset', 'int64', { fill: 2n ** 62n }).free();
  bind('scale_offset', 'float32', { fill: 'NaN' });
  bind('scale_offset', 'float32', { fillText: h.encodedFillText });
  bind('scale_offset', 'float32');
  // @ts-expect-error: int16 data must be an Int16Array
  h.encode(new Float32Array(2));
  // @ts-expect-error: a fill value is a number, bigint or string
  bind('scale_offset', 'float32', { fill: [1] });
  void [hd, hf, ht, hn];

  // The encoded typed array follows the codecs where they are written literally (issue 21 item 5).
  const f64 = new Float64Array(2);
  const s8: Uint8Array = encode([{ name: 'scale_offset', configuration: { scale: 10 } }, { name: 'cast_value', configuration: { data_type: 'uint8' } }], 'float64', f64);
  const sd: Float64Array = decode([{ name: 'scale_offset', configuration: { scale: 10 } }, { name: 'cast_value', configuration: { data_type: 'uint8' } }], 'float64', s8);
  const same32: Float32Array = encode('scale_offset', 'float32', new Float32Array(2));
  const cf16: Int16Array = encode(['cf.scale_offset', { name: 'cast_value', configuration: { data_type: { name: 'int16' } } }, 'scale_offset'], 'float32', new Float32Array(2));
  const sub: Int8Array = encode({ name: 'cast_value', configuration: { data_type: 'int4', rounding: 'towards-zero', out_of_range: 'clamp' } }, 'float32', new Float32Array(2));
  const raw8: Uint8Array = encode({ name: 'cast_value', configuration: { data_type: 'float8_e4m3' } }, 'float16', new Uint16Array(2));
  const big: BigInt64Array = decode({ name: 'cast_value', configuration: { data_type: 'int32' } }, 'int64', new Int32Array(2));
  const ed: 'uint16' = encodedDataType({ name: 'cast_value', configuration: { data_type: 'uint16' } }, 'float32');
  const ed2: 'int8' = encodedDataType('scale_offset', 'int8');
  // a data type known only at run time: the codecs still give the encoded type
  const fromRuntime: Uint8Array = encode({ name: 'cast_value', configuration: { data_type: 'uint8' } }, runtimeName, f64);
  // bind: the handle's encode returns, and its decode takes, the encoded type
  const hb = bind([{ name: 'scale_offset', configuration: { offset: 1 } }, { name: 'cast_value', configuration: { data_type: 'uint16' } }], 'float32', { fill: 0 });
  const hbEnc: Uint16Array = hb.encode(new Float32Array(2));
  const hbDec: Float32Array = hb.decode(hbEnc);
  hb.encodeInto(new Float32Array(2), new Uint16Array(2));
  hb.decodeInto(new Uint16Array(2), new Float32Array(2));
  const hbName: 'uint16' = hb.encodedDataType;
  const hs = bind('scale_offset', 'int16');
  const hsEnc: Int16Array = hs.encode(new Int16Array(2));
  // Not known at compile time: ZarrTypedArray (a Codec[] variable, JSON text, an unknown codec).
  const untyped1: ZarrTypedArray = encode(list, 'float64', f64);
  const untyped2: ZarrTypedArray = encode('[{"name":"cast_value","configuration":{"data_type":"uint8"}}]', 'float64', f64);
  const untyped3: ZarrTypedArray = encode([{ name: 'bitround', configuration: { keepbits: 3 } }, 'scale_offset'], 'float32', new Float32Array(1));
  decode(list, 'float64', new Int32Array(1)); // any typed array: the kind is checked at run time
  // @ts-expect-error: the issue's example: float32 decoded by scale_offset takes a Float32Array
  decode('scale_offset', 'float32', new Float64Array(2));
  // @ts-expect-error: cast_value to uint8 encodes to a Uint8Array, not a Uint16Array
  const wrong1: Uint16Array = encode({ name: 'cast_value', configuration: { data_type: 'uint8' } }, 'float64', f64);
  // @ts-expect-error: decoding from uint8 takes a Uint8Array
  decode({ name: 'cast_value', configuration: { data_type: 'uint8' } }, 'float64', new Int8Array(2));
  // @ts-expect-error: the handle decodes from uint16
  hb.decode(new Float32Array(2));
  // @ts-expect-error: the handle encodes into a Uint16Array
  hb.encodeInto(new Float32Array(2), new Uint8Array(2));
  // @ts-expect-error: scale_offset on int16 encodes to an Int16Array
  hs.encodeInto(new Int16Array(2), new Uint8Array(2));
  // @ts-expect-error: the encoded data type is uint16
  const wrongName: 'uint8' = hb.encodedDataType;
  // @ts-expect-error: an untyped result is no Uint8Array without a check
  const wrong2: Uint8Array = encode(list, 'float64', f64);
  // @ts-expect-error: decodeInto's data is the encoded type (uint8)
  decodeInto({ name: 'cast_value', configuration: { data_type: 'uint8' } }, 'float64', new Float64Array(2), new Float64Array(2));
  decodeInto({ name: 'cast_value', configuration: { data_type: 'uint8' } }, 'float64', new Uint8Array(2), new Float64Array(2));
  void [sd, same32, cf16, sub, raw8, big, ed, ed2, fromRuntime, hbDec, hbName, hsEnc, untyped1, untyped2, untyped3, wrong1, wrongName, wrong2];

  const ws: MetadataWarning[] = metadataWarnings(meta);
  void ws[0]?.pointer;
  const d: DataTypeName = encodedDataType('scale_offset', 'int8');
  const d2: DataTypeName = arrayDataType(meta);
  const k: 'Int8Array' | 'Uint8Array' | 'Int16Array' | 'Uint16Array' | 'Int32Array' | 'Uint32Array' | 'BigInt64Array' | 'BigUint64Array' | 'Float16Array' | 'Float32Array' | 'Float64Array' = typedArrayKind('int4');
  const C = typedArrayConstructor('int8');
  new C(4);

  try {
    encode('nope', 'float32', new Float32Array(1));
  } catch (e) {
    const err = e as ZarrScaleOffsetError;
    const code: ErrorCode = err.code;
    if (code === 'not_ready' || code === 'invalid_data') void err.message;
  }
  void [v, i8, u8, b64, bu64, bf, f32, f16bits, anyKind, back, d, d2, k];
}

export function inlineLiteral(b: Uint8Array): Float64Array {
  // An inline object literal keeps its data_type literal (const type parameter).
  return decodeChunk({ zarr_format: 3, node_type: 'array', data_type: 'float64', codecs: ['bytes'] }, b);
}

export function cfAttributes(): CfArrayParts[] {
  // The attribute forms of CfAttribute: numbers, one-element lists (netCDF array attributes),
  // typed attributes; a two-element list is not one.
  const list: CfArrayParts = fromCF({ scale_factor: [0.5], add_offset: 1 }, 'int16');
  const typed: CfArrayParts = fromCF({ scale_factor: { value: 0.01, dtype: 'float32' }, add_offset: 2n }, 'int16');
  // @ts-expect-error a list attribute holds one number
  fromCF({ scale_factor: [0.5, 1] }, 'int16');
  return [list, typed];
}
