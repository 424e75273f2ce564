// The demo's reading and drawing: open a Zarr array with zarrita (or list a group's arrays), read
// the chunks of a 2-D view one by one (timing the store, the codecs' loading and the decode of
// each chunk apart), colour-map it onto a canvas, draw a legend in the array's units, format
// numbers to the precision of the data and times to the timer's, and describe errors in words.

import * as zarr from 'zarrita';
import { keepV2Filters } from '../dist/zarrita.js';

/** Largest view drawn (rows x columns of the last two dimensions). */
export const MAX_SIDE = 1024;

// ---------------------------------------------------------------------------------------------
// colour maps: stops [t, r, g, b], linearly interpolated into a 256-entry table

const STOPS = {
  // matplotlib's viridis, sampled at 9 points
  viridis: [
    [0, 68, 1, 84], [0.125, 71, 44, 122], [0.25, 59, 81, 139], [0.375, 44, 113, 142], [0.5, 33, 144, 141],
    [0.625, 39, 173, 129], [0.75, 92, 200, 99], [0.875, 170, 220, 50], [1, 253, 231, 37],
  ],
  gray: [[0, 0, 0, 0], [1, 255, 255, 255]],
  // sea (blues) below zero, land (greens to browns to white) above: the split is placed at 0
  topo: [
    [0, 8, 29, 88], [0.25, 37, 52, 148], [0.45, 65, 182, 196], [0.5, 199, 233, 180], [0.5001, 26, 110, 48],
    [0.6, 108, 160, 70], [0.75, 196, 170, 110], [0.9, 150, 110, 80], [1, 250, 250, 250],
  ],
};

const tables = new Map();
export function colourTable(name) {
  let t = tables.get(name);
  if (t) return t;
  const stops = STOPS[name] ?? STOPS.viridis;
  t = new Uint8ClampedArray(256 * 3);
  for (let i = 0; i < 256; i++) {
    const x = i / 255;
    let k = 0;
    while (k < stops.length - 2 && x > stops[k + 1][0]) k++;
    const [t0, ...a] = stops[k];
    const [t1, ...b] = stops[k + 1];
    const f = t1 === t0 ? 0 : Math.min(1, Math.max(0, (x - t0) / (t1 - t0)));
    for (let c = 0; c < 3; c++) t[i * 3 + c] = a[c] + (b[c] - a[c]) * f;
  }
  tables.set(name, t);
  return t;
}

// For "topo" the colour scale is split at 0 (sea below, land above); else linear min..max.
export function scaleFor(cmap, min, max) {
  if (cmap === 'topo' && min < 0 && max > 0) {
    return (v) => (v < 0 ? 0.5 * (1 - v / min) : 0.5 + 0.5 * (v / max));
  }
  const span = max - min || 1;
  return (v) => (v - min) / span;
}

// ---------------------------------------------------------------------------------------------
// numbers

/**
 * The exact value: the fewest digits that read back as the same value of `dataType` (float32 and
 * float16 through float32; float64 as JavaScript prints it; integers in full).
 */
export function exactValue(v, dataType) {
  if (typeof v === 'bigint') return v.toString();
  if (Number.isNaN(v)) return 'NaN';
  if (!Number.isFinite(v)) return v > 0 ? '+Inf' : '-Inf';
  if (dataType === 'float32' || dataType === 'float16') {
    for (let p = 1; p <= 9; p++) {
      const s = Number(v.toPrecision(p));
      if (Math.fround(s) === v) return String(s);
    }
  }
  return String(v);
}

/** Significant digits shown for a float64 value whose precision the metadata does not give. */
export const SIGNIFICANT = 6;

/**
 * A value to the precision of the data: with `decimals` (the data are quantised, see
 * `quantumOf`) rounded to that many decimals; else float32/float16 exactly (their shortest
 * form is short) and float64 to SIGNIFICANT digits; integers in full.
 */
export function formatValue(v, dataType, decimals = null) {
  if (typeof v === 'bigint' || !Number.isFinite(v) || !dataType.startsWith('float')) return exactValue(v, dataType);
  if (decimals !== null) return String(Number(v.toFixed(decimals)));
  if (dataType === 'float64') return String(Number(v.toPrecision(SIGNIFICANT)));
  return exactValue(v, dataType);
}

/** The decimals that show values quantised to steps of `step` (0.00035 -> 4, 0.1 -> 1, 4 -> 0). */
export function decimalsFor(step) {
  if (!(step > 0) || !Number.isFinite(step)) return null;
  return Math.min(15, Math.max(0, Math.ceil(-Math.log10(step) - 1e-9)));
}

const INTEGER = /^u?int\d+$|^[<>|]?[iu]\d$/;
const num = (x) => (typeof x === 'object' && x !== null && 'value' in x ? Number(x.value) : Number(x));

/**
 * The step between neighbouring values of an array whose floats come from integers: a CF
 * `scale_factor` (openCF; 1 with none), 1/scale of `scale_offset` or `fixedscaleoffset` into an
 * integer type; null when the metadata does not say (then SIGNIFICANT digits are shown).
 */
export function quantumOf(doc, arr) {
  if (arr.cf) {
    if (!INTEGER.test(arr.cf.packedDataType)) return null;
    const sf = arr.cf.attributes.scale_factor;
    return sf === undefined ? 1 : Math.abs(num(sf));
  }
  if (!doc) return null;
  const inv = (scale) => (Number.isFinite(num(scale)) && num(scale) !== 0 ? 1 / Math.abs(num(scale)) : null);
  if (doc.zarr_format === 2) {
    const f = (doc.filters ?? []).find((x) => x?.id === 'fixedscaleoffset');
    return f && INTEGER.test(f.astype ?? '') ? inv(f.scale) : null;
  }
  const flat = (codecs) => (codecs ?? []).flatMap((c) => (c?.name === 'sharding_indexed' ? flat(c.configuration?.codecs) : [c]));
  const codecs = flat(doc.codecs);
  const cast = codecs.findIndex((c) => c?.name === 'cast_value' && INTEGER.test(String(c.configuration?.data_type?.name ?? c.configuration?.data_type)));
  const so = codecs.findIndex((c) => c?.name === 'scale_offset');
  if (cast > so && so >= 0) return inv(codecs[so].configuration?.scale ?? 1);
  const fso = codecs.find((c) => c?.name === 'numcodecs.fixedscaleoffset');
  if (fso && INTEGER.test(fso.configuration?.astype ?? '')) return inv(fso.configuration.scale);
  return null;
}

// ---------------------------------------------------------------------------------------------
// timings

/**
 * The resolution of `performance.now()` here, in ms: the smallest step between two readings
 * (browsers coarsen it, e.g. to 0.1 ms on a page that is not cross-origin isolated).
 */
export function timerResolution() {
  let min = Infinity;
  let last = performance.now();
  const end = last + 20;
  for (let steps = 0; steps < 100; ) {
    const t = performance.now();
    if (t !== last) {
      min = Math.min(min, t - last);
      last = t;
      steps++;
    }
    if (t > end) break;
  }
  return Number.isFinite(min) ? min : 1;
}

/** The decimals of a timer of `resolution` ms (0.1 -> 1, even when two readings differ by 0.09999999; 0.005 -> 3), at most 3. */
export function timerDecimals(resolution) {
  if (!(resolution > 0)) return 3;
  return Math.min(3, Math.max(0, Math.ceil(-Math.log10(resolution) - 0.01)));
}

/** A duration in ms to the timer's precision (`resolution` ms): "30.3", "<0.1". */
export function formatMs(ms, resolution) {
  const decimals = timerDecimals(resolution);
  const unit = 10 ** -decimals;
  if (ms < unit / 2) return `<${unit.toFixed(decimals)}`;
  return ms.toFixed(decimals);
}

/** A short number for legend ticks (4 significant digits). */
export function tick(v) {
  const a = Math.abs(v);
  if (a !== 0 && (a >= 1e6 || a < 1e-3)) return v.toExponential(2);
  return String(Number(v.toPrecision(4)));
}

// ---------------------------------------------------------------------------------------------
// errors in words

/** A sentence for an error thrown while opening or reading an array. */
export async function explain(error, url, { registered = true } = {}) {
  const chain = [];
  for (let e = error; e && chain.length < 5; e = e.cause) chain.push(e);
  const root = chain[chain.length - 1];
  const code = chain.map((e) => e.code).find((c) => typeof c === 'string');
  const names = chain.map((e) => e.name);
  if (names.includes('UnknownCodecError')) {
    const codec = /Unknown codec: (.*)$/.exec(root.message)?.[1] ?? '?';
    const who = registered ? 'neither zarrita nor zarr-scale-offset implements it' : 'zarrita has no such codec (and zarr-scale-offset is not registered on this page)';
    return { kind: 'unknown codec', text: `Unknown codec "${codec}": ${who}, so the chunks cannot be decoded.` };
  }
  if (names.includes('NotFoundError')) {
    // zarrita says "not found"; ask the server what it answered for the metadata documents
    const probes = [];
    for (const doc of ['zarr.json', '.zarray']) {
      try {
        const r = await fetch(new URL(doc, url.endsWith('/') ? url : url + '/'), { method: 'HEAD' });
        probes.push(`HTTP ${r.status}${r.statusText ? ' ' + r.statusText : ''} for ${doc}`);
      } catch (e) {
        probes.push(`${doc}: ${e.message}`);
      }
    }
    return { kind: 'HTTP 404', text: `No Zarr array at ${url}: ${probes.join(', ')}.` };
  }
  if (code) {
    const ours = chain.find((e) => typeof e.code === 'string');
    const what = code === 'invalid_metadata' ? 'Invalid metadata' : code === 'unsupported_data_type' ? 'Unsupported data type' : code === 'unsupported_codec' ? 'Unsupported codec' : 'Decoding failed';
    return { kind: code, text: `${what} [${code}]: ${ours.message}` };
  }
  if (names.includes('InvalidMetadataError')) return { kind: 'invalid_metadata', text: `Invalid metadata: ${root.message}` };
  if (/Failed to fetch|NetworkError|Load failed/i.test(root.message)) {
    return { kind: 'network', text: `Could not fetch ${url}: ${root.message} (is the server up, and does it allow cross-origin requests?)` };
  }
  return { kind: 'error', text: chain.map((e) => `${e.name}: ${e.message}`).join(' ← ') };
}

// ---------------------------------------------------------------------------------------------
// reading

/** A store wrapper that times every read and records whether chunk bytes came back. */
function timedStore(store) {
  const t = { ms: 0, bytes: 0, dataReads: 0 };
  const wrap = (fn, isIndex) => async (...args) => {
    const t0 = performance.now();
    try {
      const r = await fn(...args);
      if (r) {
        t.bytes += r.length;
        if (!isIndex(...args)) t.dataReads++;
      }
      return r;
    } finally {
      t.ms += performance.now() - t0;
    }
  };
  const timed = { get: wrap(store.get.bind(store), (k) => /(^|\/)(zarr\.json|\.zarray|\.zattrs|\.zgroup)$/.test(k)) };
  if (store.getRange) timed.getRange = wrap(store.getRange.bind(store), (k, r) => 'suffixLength' in r || r.offset === undefined);
  return { store: timed, t };
}

async function readJson(store, key) {
  try {
    const bytes = await store.get(key);
    return bytes ? JSON.parse(new TextDecoder().decode(bytes)) : null;
  } catch {
    return null;
  }
}

/**
 * The arrays of a group, from its consolidated metadata (v3: `consolidated_metadata` of the
 * group's zarr.json; v2: `.zmetadata`), as [{ name, dataType, shape, attributes }]; `listed:
 * false` when it has none (HTTP cannot list a folder, so the members are then unknown).
 */
async function listGroup(store, group) {
  const v3 = await readJson(store, '/zarr.json');
  const out = { format: v3 ? 3 : 2, attrs: group.attrs, listed: false, arrays: [] };
  if (v3) {
    const members = v3.consolidated_metadata?.metadata;
    if (members && typeof members === 'object') {
      out.listed = true;
      for (const [name, m] of Object.entries(members)) {
        if (m?.node_type === 'array') out.arrays.push({ name, dataType: m.data_type?.name ?? m.data_type, shape: m.shape, attributes: m.attributes ?? {} });
      }
    }
  } else {
    const zm = (await readJson(store, '/.zmetadata'))?.metadata;
    if (zm && typeof zm === 'object') {
      out.listed = true;
      for (const [key, m] of Object.entries(zm)) {
        if (!key.endsWith('/.zarray')) continue;
        const name = key.slice(0, -'/.zarray'.length);
        out.arrays.push({ name, dataType: m.dtype, shape: m.shape, attributes: zm[`${name}/.zattrs`] ?? {} });
      }
    }
  }
  out.arrays.sort((a, b) => (a.name < b.name ? -1 : a.name > b.name ? 1 : 0));
  return out;
}

/** Whether attributes carry CF packing (what openCF unpacks). */
export function hasCF(attrs) {
  return ['scale_factor', 'add_offset', '_FillValue', 'missing_value'].some((k) => attrs && k in attrs);
}

function codecChain(codecs) {
  return codecs
    .map((c) => {
      if (c.name === 'sharding_indexed') return `sharding_indexed[${codecChain(c.configuration.codecs)}]`;
      if (c.name === 'cast_value') return `cast_value(${c.configuration?.data_type})`;
      return c.name;
    })
    .join(' → ');
}

function describeCodecs(doc) {
  if (!doc) return '?';
  if (doc.zarr_format === 2) {
    const f = (doc.filters ?? []).map((x) => (x.id === 'fixedscaleoffset' ? `fixedscaleoffset(${x.dtype ?? doc.dtype} → ${x.astype ?? x.dtype})` : x.id));
    return [...f, doc.compressor?.id].filter(Boolean).join(' → ') + ' (v2 filters, compressor)';
  }
  return codecChain(doc.codecs ?? []);
}

/**
 * Opens the array at `url` and reads a 2-D view of it (the last two dimensions, index 0 on the
 * others, at most MAX_SIDE x MAX_SIDE from the origin), chunk by chunk.
 * With `v2Filters` (the default) a v2 fixedscaleoffset filter decodes as numcodecs does
 * (keepV2Filters); without it zarrita rewrites it into scale_offset + cast_value.
 * `open(array)` may return another array over the same chunks (the demo passes openCF).
 * Returns { arr, packed (the array as zarrita opened it), doc (its metadata document), loadMs
 * (loading the codecs: the first decoded chunk is read twice, and its decodeMs is the second read),
 * view: { rows, cols, data, dataType }, chunks: [...], timing }, or { group } when `url` is a
 * group (see listGroup).
 */
export async function readView(url, { onChunk, v2Filters = true, open } = {}) {
  const fetchStore = new zarr.FetchStore(url);
  const { store, t } = timedStore(v2Filters ? keepV2Filters(fetchStore) : fetchStore);
  const t0 = performance.now();
  const node = await zarr.open(store);
  if (node instanceof zarr.Group) return { group: await listGroup(store, node) };
  const packed = node;
  // `open` (openCF) may give another array over the same chunks (e.g. CF-packed -> float64)
  const arr = open ? await open(packed) : packed;
  const openMs = performance.now() - t0;
  // the metadata document, for the codec chain shown on the page (zarrita keeps its own private)
  const doc = (await readJson(store, '/zarr.json')) ?? (await readJson(store, '/.zarray'));
  const shape = arr.shape;
  if (shape.length === 0) throw new Error('a zero-dimensional (scalar) array has nothing to draw');
  const numeric = arr.is('number') || arr.is('bigint');
  if (!numeric) throw Object.assign(new Error(`data type ${arr.dtype} cannot be colour-mapped`), { code: 'unsupported_data_type' });
  const rank = shape.length;
  const H = rank === 1 ? 1 : shape[rank - 2];
  const W = shape[rank - 1];
  const rows = Math.min(H, MAX_SIDE);
  const cols = Math.min(W, rank === 1 ? MAX_SIDE * MAX_SIDE : MAX_SIDE);
  const cs = arr.chunks;
  const ch = rank === 1 ? 1 : cs[rank - 2];
  const cw = cs[rank - 1];
  const nci = Math.ceil(rows / ch);
  const ncj = Math.ceil(cols / cw);
  const Ctor = arr.dtype === 'int64' || arr.dtype === 'uint64' ? Float64Array : null;
  let data = null;
  let loadMs = null; // loading the codecs, measured on the first decoded chunk
  const chunks = [];
  for (let ci = 0; ci < nci; ci++) {
    for (let cj = 0; cj < ncj; cj++) {
      const coords = rank === 1 ? [cj] : [...new Array(rank - 2).fill(0), ci, cj];
      const before = { ms: t.ms, bytes: t.bytes, dataReads: t.dataReads };
      const c0 = performance.now();
      const chunk = await arr.getChunk(coords);
      const total = performance.now() - c0;
      const fetchMs = t.ms - before.ms;
      const missing = t.dataReads === before.dataReads;
      let decodeMs = missing ? 0 : Math.max(0, total - fetchMs);
      const bytes = t.bytes - before.bytes;
      if (!missing && loadMs === null) {
        // The first decoded chunk also loaded the codecs (zarrita loads them on first use): read
        // it again for its decode time; the difference is the codecs' loading.
        const again = { ms: t.ms };
        const a0 = performance.now();
        await arr.getChunk(coords);
        const second = Math.max(0, performance.now() - a0 - (t.ms - again.ms));
        loadMs = Math.max(0, decodeMs - second);
        decodeMs = second;
      }
      const info = { coords, key: coords.join('.'), fetchMs, decodeMs, bytes, missing };
      chunks.push(info);
      if (data === null) data = new (Ctor ?? chunk.data.constructor)(rows * cols);
      // copy the part of the chunk inside the view (index 0 on the leading dimensions)
      const sr = rank === 1 ? 0 : chunk.stride[rank - 2];
      const sc = chunk.stride[rank - 1];
      const r0 = ci * ch;
      const c0c = cj * cw;
      for (let r = 0; r < ch && r0 + r < rows; r++) {
        for (let c = 0; c < cw && c0c + c < cols; c++) {
          const v = chunk.data[r * sr + c * sc];
          data[(r0 + r) * cols + c0c + c] = Ctor ? Number(v) : v;
        }
      }
      onChunk?.(info);
    }
  }
  const decodeMs = chunks.reduce((a, c) => a + c.decodeMs, 0);
  const fetchMs = chunks.reduce((a, c) => a + c.fetchMs, 0);
  return {
    arr,
    packed,
    doc,
    loadMs,
    format: doc?.zarr_format === 2 ? 2 : 3,
    codecs: describeCodecs(doc) + (arr.cf ? ` · CF attributes (${Object.keys(arr.cf.attributes).join(', ')}) → openCF: ${arr.cf.packedDataType} → ${codecChain(arr.cf.codecs.filter((c) => c.name !== 'bytes'))}` : ''),
    view: { rows, cols, data, dataType: arr.dtype, truncated: rows < H || cols < W || rank > 2, H, W, rank },
    chunks,
    grid: { nci, ncj, ch, cw },
    timing: { openMs, decodeMs, fetchMs },
  };
}

// ---------------------------------------------------------------------------------------------
// drawing

/** Finite min and max of the view. */
export function range(data) {
  let min = Infinity;
  let max = -Infinity;
  let nan = 0;
  for (let i = 0; i < data.length; i++) {
    const v = data[i];
    if (v !== v) nan++;
    else if (v === Infinity || v === -Infinity) continue;
    else {
      if (v < min) min = v;
      if (v > max) max = v;
    }
  }
  return { min, max, nan };
}

/** Draws the view onto `canvas` (one pixel per element; NaN transparent). */
export function draw(canvas, view, cmap, { min, max }) {
  const { rows, cols, data } = view;
  canvas.width = cols;
  canvas.height = rows;
  const ctx = canvas.getContext('2d');
  const img = ctx.createImageData(cols, rows);
  const lut = colourTable(cmap);
  const scale = scaleFor(cmap, min, max);
  const px = img.data;
  for (let i = 0; i < data.length; i++) {
    const v = data[i];
    if (v !== v) continue; // NaN: transparent (the page shows a checker pattern behind)
    const k = Math.max(0, Math.min(255, Math.round(scale(v) * 255))) * 3;
    px[i * 4] = lut[k];
    px[i * 4 + 1] = lut[k + 1];
    px[i * 4 + 2] = lut[k + 2];
    px[i * 4 + 3] = 255;
  }
  ctx.putImageData(img, 0, 0);
}

/** Draws the legend bar and returns its tick values. */
export function drawLegend(canvas, cmap, { min, max }) {
  canvas.width = 256;
  canvas.height = 1;
  const ctx = canvas.getContext('2d');
  const img = ctx.createImageData(256, 1);
  const lut = colourTable(cmap);
  const scale = scaleFor(cmap, min, max);
  // invert the scale numerically so that the bar is linear in value
  for (let i = 0; i < 256; i++) {
    const v = min + ((max - min) * i) / 255;
    const k = Math.max(0, Math.min(255, Math.round(scale(v) * 255))) * 3;
    img.data.set([lut[k], lut[k + 1], lut[k + 2], 255], i * 4);
  }
  ctx.putImageData(img, 0, 0);
  return [0, 0.25, 0.5, 0.75, 1].map((f) => min + (max - min) * f);
}
