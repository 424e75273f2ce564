// The benchmark rows: realistic chunks of the common chains, each with the data it decodes, the
// zarr.json it belongs to, a plain JS loop doing the same exact arithmetic, and (where zarrita
// 0.7.5 supports the chain) zarrita's own codecs. Environment-agnostic (Node and browsers).

/** A small deterministic PRNG (xorshift32), so every run and runtime decodes the same bytes. */
export function rng(seed = 0x9e3779b9) {
  let s = seed >>> 0 || 1;
  return () => {
    s ^= s << 13;
    s >>>= 0;
    s ^= s >>> 17;
    s ^= s << 5;
    s >>>= 0;
    return s / 4294967296;
  };
}

// A bounded random walk: neighbouring values are close, as in real fields (temperature, elevation).
function walk(n, lo, hi, step, r) {
  const out = new Float64Array(n);
  let v = (lo + hi) / 2;
  for (let i = 0; i < n; i++) {
    v += (r() - 0.5) * step;
    if (v < lo) v = lo + (lo - v);
    if (v > hi) v = hi - (v - hi);
    out[i] = Math.round(v);
  }
  return out;
}

const f32 = Math.fround;

// float8_e4m3 (IEEE-like: bias 7, Inf 0x78, NaN 0x79..0x7f) -> value, for the JS loop.
const E4M3 = (() => {
  const t = new Float32Array(256);
  for (let c = 0; c < 256; c++) {
    const s = c & 0x80 ? -1 : 1;
    const e = (c >> 3) & 15;
    const m = c & 7;
    if (e === 15) t[c] = m === 0 ? s * Infinity : NaN;
    else if (e === 0) t[c] = s * m * 2 ** -9;
    else t[c] = s * (8 + m) * 2 ** (e - 10);
  }
  return t;
})();

const soCodec = (scale, offset) => ({ name: 'scale_offset', configuration: { offset, scale } });
const cfCodec = (scale, offset) => ({ name: 'cf.scale_offset', configuration: { offset, scale } });
const cast = (data_type, extra = {}) => ({ name: 'cast_value', configuration: { data_type, ...extra } });
const NAN_MAP = { scalar_map: { encode: [['NaN', 0]], decode: [[0, 'NaN']] } };

/**
 * Each case: `codecs` (array->array, in zarr order), `dataType` (decoded), `stored` (the encoded
 * data type), `fill` (a fill value that survives the chain), `gen(n, r)` (stored in-memory
 * values), `jsLoop(src)` (exact decode in plain JS, fresh output), and `zarrita` (whether zarrita
 * 0.7.5 has codecs for this chain).
 */
export const CASES = [
  {
    id: 'f32<-u16',
    title: 'float32 <- uint16  [scale_offset, cast_value]',
    dataType: 'float32',
    stored: 'uint16',
    codecs: [soCodec(100, 200), cast('uint16')],
    fill: 200,
    zarrita: true,
    gen: (n, r) => Uint16Array.from(walk(n, 0, 65535, 400, r)),
    jsLoop(src) {
      const out = new Float32Array(src.length);
      for (let i = 0; i < src.length; i++) out[i] = f32(src[i] / 100) + 200;
      return out;
    },
  },
  {
    id: 'f32<-i16',
    title: 'float32 <- int16   [scale_offset, cast_value]',
    dataType: 'float32',
    stored: 'int16',
    codecs: [soCodec(4, 1000), cast('int16')],
    fill: 1000,
    zarrita: true,
    gen: (n, r) => Int16Array.from(walk(n, -32768, 32767, 300, r)),
    jsLoop(src) {
      const out = new Float32Array(src.length);
      for (let i = 0; i < src.length; i++) out[i] = f32(src[i] / 4) + 1000;
      return out;
    },
  },
  {
    id: 'f64<-u16 NaN map',
    title: 'float64 <- uint16  [scale_offset, cast_value + NaN scalar_map] (Sentinel-2 L2A)',
    dataType: 'float64',
    stored: 'uint16',
    codecs: [soCodec(10000, -0.1), cast('uint16', NAN_MAP)],
    fill: 'NaN',
    zarrita: true,
    gen(n, r) {
      const w = walk(n, 1, 10000, 300, r);
      const out = new Uint16Array(n);
      for (let i = 0; i < n; i++) out[i] = r() < 0.03 ? 0 : w[i];
      return out;
    },
    jsLoop(src) {
      const out = new Float64Array(src.length);
      for (let i = 0; i < src.length; i++) out[i] = src[i] === 0 ? NaN : src[i] / 10000 + -0.1;
      return out;
    },
  },
  {
    id: 'f64<-u8 NaN map',
    title: 'float64 <- uint8   [scale_offset, cast_value + NaN scalar_map]',
    dataType: 'float64',
    stored: 'uint8',
    codecs: [soCodec(2, -40), cast('uint8', NAN_MAP)],
    fill: 'NaN',
    zarrita: true,
    gen(n, r) {
      const w = walk(n, 1, 255, 6, r);
      const out = new Uint8Array(n);
      for (let i = 0; i < n; i++) out[i] = r() < 0.03 ? 0 : w[i];
      return out;
    },
    jsLoop(src) {
      const out = new Float64Array(src.length);
      for (let i = 0; i < src.length; i++) out[i] = src[i] === 0 ? NaN : src[i] / 2 + -40;
      return out;
    },
  },
  {
    id: 'f32<-u8',
    title: 'float32 <- uint8   [cast_value]',
    dataType: 'float32',
    stored: 'uint8',
    codecs: [cast('uint8')],
    fill: 0,
    zarrita: true,
    gen: (n, r) => Uint8Array.from(walk(n, 0, 255, 6, r)),
    jsLoop(src) {
      const out = new Float32Array(src.length);
      for (let i = 0; i < src.length; i++) out[i] = src[i];
      return out;
    },
  },
  {
    id: 'i16 scale_offset',
    title: 'int16 <- int16     [scale_offset] (offset only)',
    dataType: 'int16',
    stored: 'int16',
    codecs: [soCodec(1, 1000)],
    fill: 1000,
    zarrita: true,
    gen: (n, r) => Int16Array.from(walk(n, -31000, 31000, 300, r)),
    jsLoop(src) {
      const out = new Int16Array(src.length);
      for (let i = 0; i < src.length; i++) {
        const v = src[i] + 1000;
        if (v > 32767 || v < -32768) throw new RangeError(`element ${i} out of range`);
        out[i] = v;
      }
      return out;
    },
  },
  {
    id: 'cf f32<-i16',
    title: 'float32 <- int16   [cf.scale_offset, cast_value]',
    dataType: 'float32',
    stored: 'int16',
    codecs: [cfCodec(0.01, 273.15), cast('int16')],
    fill: 273.15,
    zarrita: false,
    gen: (n, r) => Int16Array.from(walk(n, -32768, 32767, 300, r)),
    jsLoop(src) {
      const out = new Float32Array(src.length);
      const s = f32(0.01);
      const o = f32(273.15);
      for (let i = 0; i < src.length; i++) out[i] = f32(src[i] * s) + o;
      return out;
    },
  },
  {
    id: 'f32<-float8_e4m3',
    title: 'float32 <- float8_e4m3 [cast_value]',
    dataType: 'float32',
    stored: 'float8_e4m3',
    codecs: [cast('float8_e4m3')],
    fill: 0,
    zarrita: false,
    gen(n, r) {
      const out = new Uint8Array(n);
      for (let i = 0; i < n; i++) {
        let c;
        do c = Math.floor(r() * 256);
        while ((c & 0x78) === 0x78); // no Inf / NaN
        out[i] = c;
      }
      return out;
    },
    jsLoop(src) {
      const out = new Float32Array(src.length);
      for (let i = 0; i < src.length; i++) out[i] = E4M3[src[i]];
      return out;
    },
  },
  {
    id: 'f32<-bfloat16',
    title: 'float32 <- bfloat16 [cast_value]',
    dataType: 'float32',
    stored: 'bfloat16',
    codecs: [cast('bfloat16')],
    fill: 0,
    zarrita: false,
    gen(n, r) {
      const w = walk(n, -30000, 30000, 500, r);
      const f = new Float32Array(n);
      for (let i = 0; i < n; i++) f[i] = w[i] / 1000;
      const u = new Uint32Array(f.buffer);
      const out = new Uint16Array(n);
      for (let i = 0; i < n; i++) out[i] = u[i] >>> 16;
      return out;
    },
    jsLoop(src) {
      const out = new Float32Array(src.length);
      const u = new Uint32Array(out.buffer);
      for (let i = 0; i < src.length; i++) {
        const b = src[i];
        // NaN becomes the canonical quiet NaN with its sign, as cast_value specifies.
        u[i] = (b & 0x7fff) > 0x7f80 ? ((b & 0x8000) << 16) | 0x7fc00000 : b << 16;
      }
      return out;
    },
  },
];

/** A zarr.json array document for one chunk of `n` elements (2-D, square where possible). */
export function arrayMeta(c, n) {
  const side = Math.round(Math.sqrt(n));
  const shape = side * side === n ? [side, side] : [n];
  return {
    zarr_format: 3,
    node_type: 'array',
    shape,
    data_type: c.dataType,
    chunk_grid: { name: 'regular', configuration: { chunk_shape: shape } },
    chunk_key_encoding: { name: 'default', configuration: { separator: '/' } },
    fill_value: c.fill,
    codecs: [...c.codecs, { name: 'bytes', configuration: { endian: 'little' } }],
  };
}
