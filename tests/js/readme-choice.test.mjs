// The choice of codecs for CF packing (docs/guides/rules.md, virtual-stores.md) and the float16
// note of docs/guides/browser.md, pinned:
//   - CF packing stored as scale_offset + cast_value (scale = 1 / scale_factor) decodes some values
//     1 ulp off xarray.decode_cf (scale_offset divides, CF multiplies); cf.scale_offset + cast_value
//     (fromCF) decodes bit for bit. On the ERA5-style t2m fixture (written by xarray 2026.9.0,
//     expected.bin = xr.open_zarr's values): 13 of its 10,895 non-fill values differ, by 1 ulp.
//   - float16 arrays cannot be opened through zarrita where the runtime has no Float16Array (Node
//     20): zarrita itself rejects the data type when it opens the array; in Chromium (which has
//     Float16Array) the same array opens and decodes.

import { test } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import path from 'node:path';
import * as zarr from 'zarrita';
import { FileSystemStore } from '@zarrita/storage';

import { ready, decode, fromCF } from '../../dist/index.js';
import { register } from '../../dist/zarrita.js';
import { ROOT } from './helpers.mjs';
import { startBrowser } from './browser.mjs';

const T2M = path.join(ROOT, 'tests', 'fixtures', 'cf_stores', 'cf_t2m_i16_v2.zarr');

// bits(a) - bits(b) of two finite doubles of one sign, in ulps
const ulps = (a, b) => {
  const v = new BigInt64Array(new Float64Array([a, b]).buffer);
  return Number(v[0] - v[1]);
};

test('choice table: scale_offset + cast_value is 1 ulp off xarray.decode_cf on 13 of 10,895 t2m values; cf.scale_offset (fromCF) on none', async () => {
  await ready();
  const attrs = JSON.parse(readFileSync(path.join(T2M, 't2m', '.zattrs'), 'utf8'));
  const arr = await zarr.open(zarr.root(new FileSystemStore(T2M)).resolve('t2m'), { kind: 'array' });
  const { data: codes } = await zarr.get(arr); // the stored int16 codes (zarrita's blosc)
  assert.ok(codes instanceof Int16Array);
  const xr = new Float64Array(new Uint8Array(readFileSync(path.join(T2M, 'expected.bin'))).buffer);
  const viaScaleOffset = decode(
    [{ name: 'scale_offset', configuration: { scale: 1 / attrs.scale_factor, offset: attrs.add_offset } }, { name: 'cast_value', configuration: { data_type: 'int16' } }],
    'float64',
    codes,
  );
  const parts = fromCF({ ...attrs, _FillValue: -32767 }, 'int16');
  assert.equal(parts.data_type, 'float64');
  const viaCF = decode(parts.codecs.filter((c) => c.name !== 'bytes'), 'float64', codes);
  let values = 0;
  let off = 0;
  let cfOff = 0;
  for (let i = 0; i < codes.length; i++) {
    if (Number.isNaN(xr[i])) {
      assert.ok(Number.isNaN(viaCF[i]), `fill at ${i}`);
      continue;
    }
    values++;
    if (viaCF[i] !== xr[i]) cfOff++;
    if (viaScaleOffset[i] !== xr[i]) {
      off++;
      assert.equal(Math.abs(ulps(viaScaleOffset[i], xr[i])), 1, `element ${i}: ${viaScaleOffset[i]} vs xarray ${xr[i]}`);
    }
  }
  assert.equal(values, 10895);
  assert.equal(cfOff, 0);
  assert.equal(off, 13);
});

test('float16 through zarrita: zarrita rejects the data type at open where the runtime has no Float16Array (Node 20)', async () => {
  await register(zarr.registry);
  const meta = {
    zarr_format: 3, node_type: 'array', shape: [2], data_type: 'float16', fill_value: 0, attributes: {},
    chunk_grid: { name: 'regular', configuration: { chunk_shape: [2] } },
    chunk_key_encoding: { name: 'default', configuration: { separator: '/' } },
    codecs: [{ name: 'scale_offset', configuration: { scale: 2 } }, { name: 'bytes', configuration: { endian: 'little' } }],
  };
  const chunk = [0, 0x40, 0, 0x44]; // float16 2 and 4, stored; scale 2 decodes them to 1 and 2
  const files = new Map([['/zarr.json', new TextEncoder().encode(JSON.stringify(meta))], ['/c/0', new Uint8Array(chunk)]]);
  const store = { get: async (k) => files.get(k) };
  if (typeof globalThis.Float16Array === 'undefined') {
    await assert.rejects(zarr.open(store, { kind: 'array' }), { name: 'InvalidMetadataError', message: /Unknown or unsupported dataType: float16/ });
  } else {
    const { data } = await zarr.get(await zarr.open(store, { kind: 'array' }));
    assert.deepEqual([...data], [1, 2]);
  }
  // Chromium: the same array through zarrita + register (the demo page's import map)
  const b = await startBrowser();
  try {
    const page = await b.ctx.newPage();
    await page.goto(`${b.base}/www/?fixtures=0`);
    const got = await page.evaluate(
      async ({ meta, chunk }) => {
        const zarr = await import('zarrita');
        const { register } = await import('/dist/zarrita.js');
        await register(zarr.registry);
        const files = new Map([['/zarr.json', new TextEncoder().encode(JSON.stringify(meta))], ['/c/0', new Uint8Array(chunk)]]);
        const { data } = await zarr.get(await zarr.open({ get: async (k) => files.get(k) }, { kind: 'array' }));
        return { kind: data.constructor.name, values: [...data] };
      },
      { meta, chunk },
    );
    assert.deepEqual(got, { kind: 'Float16Array', values: [1, 2] });
  } finally {
    await b.close();
  }
});
