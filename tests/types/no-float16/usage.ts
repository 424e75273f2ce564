// Without Float16Array in the TypeScript lib (es2020): the declarations still compile and
// float16 values are Uint16Array.
import { ready, decode, encode } from 'zarr-scale-offset';

export async function usage(): Promise<void> {
  await ready();
  const f16: Uint16Array = decode('scale_offset', 'float16', new Uint16Array(1));
  encode('scale_offset', 'float16', new Uint16Array(1));
  // @ts-expect-error: float16 data is a Uint16Array here
  encode('scale_offset', 'float16', new Float32Array(1));
  void f16;
}
