// The demo page: zarrita.js + zarr-scale-offset's exact codecs, on real Zarr stores over HTTP.
//
// zarrita comes from node_modules through the import map in index.html (zarrita's own modules
// use bare specifiers). zarr-scale-offset needs no import map: its dist/ files import each
// other by relative paths, and the WebAssembly module is inlined.
import * as zarr from 'zarrita';
import { register, openCF } from '../dist/zarrita.js';
import { version } from '../dist/index.js';

import { MAX_SIDE, draw, drawLegend, explain, formatValue, range, readView, tick } from './viewer.js';

const STORES = [
  {
    id: 'topobathy.zarr',
    title: 'Topography and bathymetry',
    note: 'scale_offset + cast_value(uint16, NaN↔0) + gzip, chunk c/1/2 deleted (fill NaN)',
    cmap: 'topo',
  },
  {
    id: 'jacksboro_dem.zarr',
    title: 'Jacksboro fault DEM',
    note: 'scale_offset + cast_value(uint16) inside sharding_indexed, one empty inner chunk',
    cmap: 'viridis',
  },
  {
    id: 'mri_v2_fixedscaleoffset.zarr',
    title: 'MRI slice (Zarr v2)',
    note: 'v2 filter fixedscaleoffset(<f4 → <u2) + zlib, read with numcodecs semantics; chunk 0.3 absent',
    cmap: 'gray',
  },
  {
    id: 'topobathy_v3_numcodecs_fixedscaleoffset.zarr',
    title: 'Topobathy, numcodecs.fixedscaleoffset (v3)',
    note: "zarr-python's numcodecs wrapper in zarr.json (zarrita alone: UnknownCodecError)",
    cmap: 'topo',
  },
  // CF packing as attributes (xarray's encoding), unpacked by openCF exactly as xarray.open_zarr
  {
    id: 'cf_t2m_i16_v2.zarr',
    path: '/tests/fixtures/cf_stores/cf_t2m_i16_v2.zarr/t2m',
    title: '2 m temperature, CF-packed (Zarr v2)',
    note: 'int16 with scale_factor/add_offset attributes, fill_value −32767 as _FillValue, blosc-lz4; openCF → float64 kelvin as xarray reads it',
    cmap: 'viridis',
    cf: true,
  },
  {
    id: 'cf_reflectance_u16_v3.zarr',
    path: '/tests/fixtures/cf_stores/cf_reflectance_u16_v3.zarr/reflectance',
    title: 'Reflectance, CF-packed (Zarr v3)',
    note: 'uint16 ×1e-4 −0.1 (Sentinel-2 style), _FillValue attribute 0, zstd; openCF → float64 as xarray reads it',
    cmap: 'gray',
    cf: true,
  },
];
const FIXTURES = '/tests/fixtures/stores/';

const $ = (sel, root = document) => root.querySelector(sel);
const el = (tag, props = {}, ...children) => {
  const e = Object.assign(document.createElement(tag), props);
  e.append(...children);
  return e;
};

// State for the tests (and the curious): one entry per view.
const views = new Map();
window.__demo = {
  views,
  /** base64 of the little-endian bytes of a view's decoded values */
  base64(id) {
    const v = views.get(id);
    const d = v?.result?.view.data;
    if (!d) return null;
    const b = new Uint8Array(d.buffer, d.byteOffset, d.byteLength);
    let s = '';
    for (let i = 0; i < b.length; i += 0x8000) s += String.fromCharCode.apply(null, b.subarray(i, i + 0x8000));
    return btoa(s);
  },
  /** what the canvas shows: opaque pixels, transparent (NaN) pixels, distinct colours */
  pixels(id) {
    const c = views.get(id)?.panel.querySelector('canvas.map');
    if (!c || !c.width) return null;
    const px = c.getContext('2d').getImageData(0, 0, c.width, c.height).data;
    let opaque = 0;
    const colours = new Set();
    for (let i = 0; i < px.length; i += 4) {
      if (px[i + 3] === 0) continue;
      opaque++;
      colours.add((px[i] << 16) | (px[i + 1] << 8) | px[i + 2]);
    }
    return { width: c.width, height: c.height, opaque, transparent: c.width * c.height - opaque, colours: colours.size };
  },
  summary() {
    return Object.fromEntries(
      [...views].map(([id, v]) => [
        id,
        v.error
          ? { ok: false, error: v.error.text, kind: v.error.kind }
          : v.result
            ? {
                ok: true,
                dataType: v.result.view.dataType,
                shape: v.result.arr.shape,
                rows: v.result.view.rows,
                cols: v.result.view.cols,
                chunks: v.result.chunks.length,
                missing: v.result.chunks.filter((c) => c.missing).length,
                decodeMs: v.result.timing.decodeMs,
                perChunk: v.result.chunks.map((c) => ({ key: c.key, decodeMs: c.decodeMs, missing: c.missing })),
                text: v.panel.innerText,
              }
            : { ok: null },
      ]),
    );
  },
};

function panelFor(id, title, subtitle) {
  const panel = el(
    'section',
    { className: 'view' },
    el('h2', {}, title),
    el('p', { className: 'where' }, subtitle),
    el('p', { className: 'meta' }),
    el('div', { className: 'status', role: 'status' }, 'loading…'),
    el('div', { className: 'figure' }, el('canvas', { className: 'map' })),
    el('div', { className: 'readout' }, '\u00a0'),
    el('div', { className: 'legend' }, el('canvas'), el('div', { className: 'ticks' }), el('div', { className: 'units' })),
    el('p', { className: 'timing' }),
    el('details', { className: 'per-chunk' }, el('summary', {}, 'decode time per chunk (ms)'), el('table')),
  );
  panel.dataset.id = id;
  return panel;
}

function showError(v, err) {
  v.error = err;
  v.panel.classList.add('failed');
  const s = $('.status', v.panel);
  s.className = 'status error';
  s.textContent = err.text;
  for (const sel of ['.figure', '.readout', '.legend', '.per-chunk']) $(sel, v.panel).hidden = true;
}

function renderChunkTable(table, result) {
  const { nci, ncj } = result.grid;
  table.replaceChildren();
  const head = table.createTHead().insertRow();
  head.append(el('th', {}, ''));
  for (let j = 0; j < ncj; j++) head.append(el('th', {}, String(j)));
  const body = table.createTBody();
  const max = Math.max(...result.chunks.map((c) => c.decodeMs), 1e-9);
  for (let i = 0; i < nci; i++) {
    const tr = body.insertRow();
    tr.append(el('th', {}, String(i)));
    for (let j = 0; j < ncj; j++) {
      const c = result.chunks[i * ncj + j];
      const td = tr.insertCell();
      if (c.missing) {
        td.textContent = '—';
        td.title = `chunk ${c.key}: missing, reads as the fill value (no decode)`;
        td.className = 'missing';
      } else {
        td.textContent = c.decodeMs.toFixed(2);
        td.title = `chunk ${c.key}: decode ${c.decodeMs.toFixed(3)} ms, fetch ${c.fetchMs.toFixed(1)} ms, ${c.bytes} bytes`;
        td.style.setProperty('--heat', (c.decodeMs / max).toFixed(3));
      }
    }
  }
}

function openView(id, url, { title, subtitle }) {
  const panel = panelFor(id, title, subtitle);
  const v = { id, url, panel, result: null, error: null };
  views.set(id, v);
  return v;
}

async function load(v, cmap, cf = false) {
  const status = $('.status', v.panel);
  try {
    let n = 0;
    const result = await readView(v.url, {
      v2Filters: !document.body.classList.contains('builtin'),
      // CF attributes (scale_factor, add_offset, _FillValue, ...) unpacked as xarray does
      open: cf ? (arr) => openCF(arr) : undefined,
      onChunk: () => {
        status.textContent = `decoding chunk ${++n}…`;
      },
    });
    v.result = result;
    const { arr, view, timing, chunks } = result;
    const units = typeof arr.attrs?.units === 'string' ? arr.attrs.units : '';
    const dims = arr.dimensionNames;
    $('.meta', v.panel).textContent =
      `Zarr v${result.format} · ${arr.dtype} · shape ${arr.shape.join(' × ')} · chunks ${arr.chunks.join(' × ')} · ${result.codecs}`;
    const r = range(view.data);
    if (!(r.max >= r.min)) {
      r.min = 0;
      r.max = 1;
    }
    draw($('canvas.map', v.panel), view, cmap, r);
    // a 1-D array (or a very flat view) is drawn as a band, not a hairline
    if (view.rows * 24 < view.cols) $('canvas.map', v.panel).style.height = '48px';
    const ticks = drawLegend($('.legend canvas', v.panel), cmap, r);
    $('.ticks', v.panel).replaceChildren(...ticks.map((t) => el('span', {}, tick(t))));
    $('.units', v.panel).textContent = units ? `${arr.dtype} values in ${units}` : `${arr.dtype} values (the metadata gives no units)`;
    const decoded = chunks.filter((c) => !c.missing);
    const sorted = decoded.map((c) => c.decodeMs).sort((a, b) => a - b);
    const median = sorted.length ? sorted[Math.floor(sorted.length / 2)] : 0;
    $('.timing', v.panel).textContent =
      `${chunks.length} chunks (${chunks.length - decoded.length} missing → fill value): decode ${timing.decodeMs.toFixed(2)} ms in all, ` +
      `median ${median.toFixed(3)} ms per chunk; fetch ${timing.fetchMs.toFixed(1)} ms.` +
      (view.truncated
        ? ` Showing ${view.rank > 2 ? `${arr.shape.slice(0, -2).map((_, k) => `${dims?.[k] ?? `dimension ${k}`} = 0`).join(', ')}; ` : ''}` +
          `rows 0–${view.rows - 1} and columns 0–${view.cols - 1} (at most ${MAX_SIDE} each).`
        : '');
    const table = $('.per-chunk table', v.panel);
    renderChunkTable(table, result);
    $('.per-chunk', v.panel).open = chunks.length <= 200;
    status.className = 'status ok';
    status.textContent = `${view.rows * view.cols} values, ${r.nan} NaN, range ${formatValue(r.min, arr.dtype)} … ${formatValue(r.max, arr.dtype)}${units ? ' ' + units : ''}`;
    // value under the cursor
    const canvas = $('canvas.map', v.panel);
    const readout = $('.readout', v.panel);
    const yName = view.rank >= 2 ? (dims?.[view.rank - 2] ?? 'row') : null;
    const xName = dims?.[view.rank - 1] ?? 'column';
    canvas.addEventListener('mousemove', (ev) => {
      const b = canvas.getBoundingClientRect();
      const col = Math.floor(((ev.clientX - b.left) / b.width) * view.cols);
      const row = Math.floor(((ev.clientY - b.top) / b.height) * view.rows);
      if (row < 0 || col < 0 || row >= view.rows || col >= view.cols) return;
      const value = view.data[row * view.cols + col];
      const ci = Math.floor(row / result.grid.ch);
      const cj = Math.floor(col / result.grid.cw);
      const chunk = chunks[ci * result.grid.ncj + cj];
      readout.textContent =
        `${yName ? `${yName} ${row}, ` : ''}${xName} ${col}: ${formatValue(value, arr.dtype)}${units ? ' ' + units : ''}` +
        ` · chunk ${chunk.key} ${chunk.missing ? '(missing: fill value)' : `decoded in ${chunk.decodeMs.toFixed(3)} ms`}`;
    });
    canvas.addEventListener('mouseleave', () => {
      readout.textContent = '\u00a0';
    });
  } catch (e) {
    console.warn(e);
    showError(v, await explain(e, v.url, { registered: !document.body.classList.contains('builtin') }));
  }
}

function absolute(url) {
  return new URL(url.replace(/\/+$/, ''), location.href).href;
}

async function openPasted(url) {
  const id = 'url';
  views.get(id)?.panel.remove();
  const abs = absolute(url);
  const cf = new URLSearchParams(location.search).get('cf') === '1';
  const v = openView(id, abs, { title: 'Your array', subtitle: cf ? `${abs} (CF attributes unpacked by openCF)` : abs });
  $('#pasted').replaceChildren(v.panel);
  await load(v, 'viridis', cf);
  return v;
}

async function main() {
  const status = $('#page-status');
  const params = new URLSearchParams(location.search);
  const builtin = params.get('codecs') === 'builtin';
  const other = new URLSearchParams(params);
  if (builtin) other.delete('codecs');
  else other.set('codecs', 'builtin');
  const toggle = el('a', { href: `?${other}` }, builtin ? 'back to zarr-scale-offset' : "compare: the same page with zarrita's built-in codecs");
  try {
    if (builtin) {
      document.body.classList.add('builtin');
      $('#version').replaceChildren(el('strong', {}, "zarrita's built-in codecs only (register() not called) · "), toggle);
    } else {
      const names = await register(zarr.registry);
      $('#version').replaceChildren(`zarr-scale-offset ${version()} · registered with zarrita: ${names.join(', ')} · `, toggle);
    }
  } catch (e) {
    status.className = 'error';
    status.textContent = `Could not load zarr-scale-offset: ${e.message}`;
    document.body.dataset.state = 'error';
    return;
  }
  const form = $('#open-form');
  form.addEventListener('submit', (ev) => {
    ev.preventDefault();
    const url = $('#url').value.trim();
    if (!url) return;
    const cf = params.get('cf') === '1' ? '&cf=1' : ''; // ?cf=1: unpack CF attributes with openCF
    history.replaceState(null, '', `?url=${encodeURIComponent(url)}${cf}`);
    openPasted(url);
  });
  for (const a of document.querySelectorAll('a[data-url]')) {
    a.addEventListener('click', (ev) => {
      ev.preventDefault();
      $('#url').value = a.dataset.url;
      form.requestSubmit();
    });
  }
  const jobs = [];
  if (params.get('url')) {
    $('#url').value = params.get('url');
    jobs.push(openPasted(params.get('url')));
  }
  const grid = $('#fixtures');
  const fixtureViews = [];
  if (params.get('fixtures') !== '0') {
    for (const s of STORES) {
      const where = s.path ?? FIXTURES + s.id;
      const v = openView(s.id, absolute(where), { title: s.title, subtitle: `${where} — ${s.note}` });
      grid.append(v.panel);
      fixtureViews.push([v, s.cmap, s.cf]);
    }
    // one after the other, so that the per-chunk times are not interleaved
    jobs.push(
      (async () => {
        for (const [v, cmap, cf] of fixtureViews) await load(v, cmap, cf);
      })(),
    );
  }
  await Promise.all(jobs);
  status.textContent = '';
  document.body.dataset.state = 'done';
}

main();
