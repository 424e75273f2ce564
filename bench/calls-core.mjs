// The metadata calls, environment-agnostic (Node and a browser page; driven by bench/calls.mjs):
// validate (a valid zarr.json, and one with three errors), metadataWarnings, fromCF,
// fromFixedScaleOffset, and decodeChunk of a small chunk whose zarr.json is new on every call
// (so the chain is parsed and bound and its chunk layout read every time), with the interleaved
// sampler of core.mjs. With `base` (the URL of another build's index.js), each call is timed in
// both builds in the same rounds (`base.<call>`).

import { measureAll } from './core.mjs';
import { CASES, arrayMeta, rng } from './cases.mjs';

/** The calls: name -> (api) => function to time. */
function calls(api) {
  const c = CASES.find((x) => x.id === 'f64<-u16 NaN map');
  const meta = arrayMeta(c, 4096);
  const bad = {
    ...meta,
    codecs: [
      { name: 'scale_offset', configuration: { scale: 0, offset: 'x' } },
      { name: 'cast_value', configuration: { data_type: 'uint16', extra: 1 } },
      { name: 'bytes', configuration: { endian: 'little' } },
    ],
  };
  const lenient = { ...meta, fill_value: 'NaN', codecs: [{ name: 'scale_offset', configuration: { scale: 10000.0, offset: '-0.1' } }, ...meta.codecs.slice(1)] };
  const metaText = JSON.stringify(meta);
  const badText = JSON.stringify(bad);
  const lenientText = JSON.stringify(lenient);
  const bytes = new Uint8Array(c.gen(4096, rng(7)).buffer);
  let k = 0;
  return {
    validate: () => api.validate(metaText),
    validateBad: () => api.validate(badText),
    metadataWarnings: () => api.metadataWarnings(lenientText),
    fromCF: () => api.fromCF({ scale_factor: 0.0001, add_offset: -0.1, _FillValue: 0 }, 'uint16'),
    fromFixedScaleOffset: () => api.fromFixedScaleOffset({ astype: 'uint8', dtype: 'float32', scale: 0.1, offset: 10 }),
    decodeChunkNewMeta: () => api.decodeChunk(JSON.stringify({ ...meta, attributes: { k: k++ } }), bytes),
  };
}

export async function runCalls({ samples = 11, minMs = 12, only = null, base = null, log = () => {} } = {}) {
  const api = await import(new URL('../dist/index.js', import.meta.url).href);
  await api.ready();
  const old = base ? await import(new URL(base, import.meta.url).href) : null;
  if (old) await old.ready();
  const ours = calls(api);
  const theirs = old ? calls(old) : {};
  const notes = [];
  const fns = {};
  for (const [name, fn] of Object.entries(ours)) {
    if (only && !only.split(',').includes(name)) continue;
    fns[name] = fn;
    if (old) {
      fns[`base.${name}`] = theirs[name];
      // The same result from both builds (the JS-visible shapes).
      const [a, b] = [fn(), theirs[name]()];
      if (!(a instanceof Uint8Array || ArrayBuffer.isView(a)) && JSON.stringify(a) !== JSON.stringify(b)) {
        notes.push(`${name}: the builds return different values`);
      }
    }
  }
  log('timing');
  const t = measureAll(fns, { samples, minMs, alternate: !!old });
  const rows = Object.keys(ours).filter((name) => fns[name]).map((name) => ({ name, us: t[name] * 1e6, baseUs: old ? t[`base.${name}`] * 1e6 : null }));
  return { rows, notes };
}
