// The demo page: zarrita.js + zarr-scale-offset's exact codecs, on real Zarr stores over HTTP.
//
// zarrita comes from node_modules through the import map in index.html (zarrita's own modules
// use bare specifiers). zarr-scale-offset needs no import map: its dist/ files import each
// other by relative paths, and the WebAssembly module is inlined.
import * as zarr from 'zarrita';
import { register, openCF } from '../dist/zarrita.js';
import { version } from '../dist/index.js';

import { MAX_SIDE, decimalsFor, draw, drawLegend, exactValue, explain, formatMs, formatValue, hasCF, quantumOf, range, readView, tick, timerResolution } from './viewer.js';

// the resolution of performance.now() on this page: timings are shown to it
const TIMER = timerResolution();
const ms = (x) => formatMs(x, TIMER);

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
  // (the page detects the attributes; the panel's switch shows the raw integers)
  {
    id: 'cf_t2m_i16_v2.zarr',
    path: '/tests/fixtures/cf_stores/cf_t2m_i16_v2.zarr/t2m',
    title: '2 m temperature, CF-packed (Zarr v2)',
    note: 'int16 with scale_factor/add_offset attributes, fill_value −32767 as _FillValue, blosc-lz4; openCF → float64 kelvin as xarray reads it',
    cmap: 'viridis',
  },
  {
    id: 'cf_reflectance_u16_v3.zarr',
    path: '/tests/fixtures/cf_stores/cf_reflectance_u16_v3.zarr/reflectance',
    title: 'Reflectance, CF-packed (Zarr v3)',
    note: 'uint16 ×1e-4 −0.1 (Sentinel-2 style), _FillValue attribute 0, zstd; openCF → float64 as xarray reads it',
    cmap: 'gray',
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
  timerResolution: TIMER,
  summary() {
    return Object.fromEntries(
      [...views].map(([id, v]) => [
        id,
        v.error
          ? { ok: false, error: v.error.text, kind: v.error.kind }
          : v.group
            ? { ok: true, group: v.group, text: v.panel.innerText }
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
                loadMs: v.result.loadMs,
                cf: v.result.arr.cf ? v.result.arr.cf.packedDataType : null,
                cfAvailable: hasCF(v.result.packed.attrs),
                mode: v.mode,
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
    el(
      'div',
      { className: 'cf-switch', role: 'group', ariaLabel: 'values shown', hidden: true },
      el('span', {}, 'CF-packed: show '),
      el('button', { type: 'button', value: 'cf', title: "the values xarray.open_zarr gives: scale_factor, add_offset and _FillValue applied by openCF" }, 'physical values (openCF)'),
      el('button', { type: 'button', value: 'raw', title: 'the stored integers, as zarrita reads them without openCF' }, 'raw stored values'),
    ),
    el('div', { className: 'status', role: 'status' }, 'loading…'),
    el('ul', { className: 'members', hidden: true }),
    el('div', { className: 'figure' }, el('canvas', { className: 'map' })),
    el('div', { className: 'readout' }, '\u00a0'),
    el('div', { className: 'legend' }, el('canvas'), el('div', { className: 'ticks' }), el('div', { className: 'units' })),
    el('p', { className: 'timing' }),
    el('details', { className: 'per-chunk' }, el('summary', {}, 'decode time per chunk (ms)'), el('div', { className: 'scroll' }, el('table'))),
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
        td.textContent = ms(c.decodeMs);
        td.title = `chunk ${c.key}: decode ${ms(c.decodeMs)} ms${c === result.chunks.find((x) => !x.missing) && result.loadMs !== null ? ` (read twice: the first read also loaded the codecs, ${ms(result.loadMs)} ms)` : ''}, fetch ${ms(c.fetchMs)} ms, ${c.bytes} bytes`;
        td.style.setProperty('--heat', (c.decodeMs / max).toFixed(3));
      }
    }
  }
}

function openView(id, url, { title, subtitle, cmap = 'viridis', mode = 'cf', onMode }) {
  const panel = panelFor(id, title, subtitle);
  const v = { id, url, panel, cmap, mode, result: null, error: null, group: null };
  views.set(id, v);
  for (const b of panel.querySelectorAll('.cf-switch button')) {
    b.addEventListener('click', async () => {
      if (b.value === v.mode) return;
      v.mode = b.value;
      onMode?.(v.mode);
      await load(v);
    });
  }
  return v;
}

const builtin = () => document.body.classList.contains('builtin');

// A fresh panel body for (re)loading a view.
function resetPanel(v) {
  v.result = null;
  v.error = null;
  v.group = null;
  v.panel.classList.remove('failed');
  for (const sel of ['.figure', '.readout', '.legend', '.per-chunk']) $(sel, v.panel).hidden = false;
  $('.members', v.panel).hidden = true;
  const c = $('canvas.map', v.panel);
  const fresh = el('canvas', { className: 'map' }); // drops the old cursor listeners
  c.replaceWith(fresh);
  $('.status', v.panel).className = 'status';
  $('.status', v.panel).textContent = 'loading…';
  $('.readout', v.panel).textContent = '\u00a0';
}

function showGroup(v, group) {
  v.group = group;
  for (const sel of ['.figure', '.readout', '.legend', '.per-chunk']) $(sel, v.panel).hidden = true;
  $('.meta', v.panel).textContent = `Zarr v${group.format} group`;
  const s = $('.status', v.panel);
  const list = $('.members', v.panel);
  list.replaceChildren();
  if (!group.listed) {
    s.className = 'status';
    s.textContent =
      `This is a Zarr v${group.format} group without consolidated metadata, and HTTP cannot list a folder, so its arrays are unknown here: ` +
      `add an array's name to the URL (${v.url}/<name>).`;
    return;
  }
  s.className = 'status ok';
  s.textContent = `A Zarr v${group.format} group with ${group.arrays.length} ${group.arrays.length === 1 ? 'array' : 'arrays'} (from its consolidated metadata): pick one.`;
  for (const a of group.arrays) {
    const units = typeof a.attributes?.units === 'string' ? ` in ${a.attributes.units}` : '';
    const link = el('a', { href: `?url=${encodeURIComponent(`${v.url}/${a.name}`)}` }, a.name);
    link.addEventListener('click', (ev) => {
      ev.preventDefault();
      $('#url').value = `${v.url}/${a.name}`;
      $('#open-form').requestSubmit();
    });
    list.append(el('li', {}, link, ` · ${a.dataType} · shape ${(a.shape ?? []).join(' × ')}${units}${hasCF(a.attributes) ? ' · CF-packed' : ''}`));
  }
  list.hidden = false;
}

async function load(v) {
  resetPanel(v);
  const status = $('.status', v.panel);
  const cfSwitch = $('.cf-switch', v.panel);
  try {
    let n = 0;
    const result = await readView(v.url, {
      v2Filters: !builtin(),
      // CF attributes (scale_factor, add_offset, _FillValue, ...) unpacked as xarray does, unless
      // the raw values are asked for; the built-in comparison page is zarrita alone (no openCF)
      open: (arr) => (!builtin() && v.mode === 'cf' && hasCF(arr.attrs) ? openCF(arr) : arr),
      onChunk: () => {
        status.textContent = `decoding chunk ${++n}…`;
      },
    });
    if (result.group) return showGroup(v, result.group);
    v.result = result;
    const { arr, view, timing, chunks } = result;
    const units = typeof arr.attrs?.units === 'string' ? arr.attrs.units : '';
    const dims = arr.dimensionNames;
    // the switch between physical and raw values, where there is something to unpack
    cfSwitch.hidden = builtin() || !hasCF(result.packed.attrs);
    for (const b of cfSwitch.querySelectorAll('button')) b.ariaPressed = String(b.value === v.mode);
    if (builtin() && hasCF(result.packed.attrs)) {
      cfSwitch.hidden = false;
      cfSwitch.replaceChildren('CF-packed: raw stored values (openCF, which unpacks them, is part of zarr-scale-offset and not used on this page)');
    }
    $('.meta', v.panel).textContent =
      `Zarr v${result.format} · ${arr.dtype} · shape ${arr.shape.join(' × ')} · chunks ${arr.chunks.join(' × ')} · ${result.codecs}`;
    const decimals = decimalsFor(quantumOf(result.doc, arr));
    const fmt = (x) => formatValue(x, arr.dtype, decimals);
    const r = range(view.data);
    if (!(r.max >= r.min)) {
      r.min = 0;
      r.max = 1;
    }
    const cmap = v.cmap;
    draw($('canvas.map', v.panel), view, cmap, r);
    // a 1-D array (or a very flat view) is drawn as a band, not a hairline
    if (view.rows * 24 < view.cols) $('canvas.map', v.panel).style.height = '48px';
    const ticks = drawLegend($('.legend canvas', v.panel), cmap, r);
    $('.ticks', v.panel).replaceChildren(...ticks.map((t) => el('span', {}, tick(t))));
    const what = arr.cf ? `${arr.dtype} values (unpacked from ${arr.cf.packedDataType} by openCF)` : hasCF(result.packed.attrs) ? `${arr.dtype} values, raw (still CF-packed)` : `${arr.dtype} values`;
    $('.units', v.panel).textContent = units && !(hasCF(result.packed.attrs) && !arr.cf) ? `${what} in ${units}` : `${what}${units ? ` (${units} after unpacking)` : ' (the metadata gives no units)'}`;
    const decoded = chunks.filter((c) => !c.missing);
    const sorted = decoded.map((c) => c.decodeMs).sort((a, b) => a - b);
    const median = sorted.length ? sorted[Math.floor(sorted.length / 2)] : 0;
    $('.timing', v.panel).textContent =
      `${chunks.length} chunks (${chunks.length - decoded.length} missing → fill value): decode ${ms(timing.decodeMs)} ms in all, ` +
      `median ${ms(median)} ms per chunk; fetch ${ms(timing.fetchMs)} ms` +
      (result.loadMs !== null ? `; loading the codecs ${ms(result.loadMs)} ms (first chunk, not in the decode times).` : '.') +
      (view.truncated
        ? ` Showing ${view.rank > 2 ? `${arr.shape.slice(0, -2).map((_, k) => `${dims?.[k] ?? `dimension ${k}`} = 0`).join(', ')}; ` : ''}` +
          `rows 0–${view.rows - 1} and columns 0–${view.cols - 1} (at most ${MAX_SIDE} each).`
        : '');
    $('.timing', v.panel).title = `performance.now() resolution on this page: ${TIMER.toPrecision(2)} ms; times are shown to it`;
    const table = $('.per-chunk table', v.panel);
    renderChunkTable(table, result);
    $('.per-chunk', v.panel).open = chunks.length <= 200;
    status.className = 'status ok';
    const u = units && (arr.cf || !hasCF(result.packed.attrs)) ? ' ' + units : '';
    status.replaceChildren(
      `${view.rows * view.cols} values, ${r.nan} NaN, range `,
      el('span', { title: `exactly ${exactValue(r.min, arr.dtype)}` }, fmt(r.min)),
      ' … ',
      el('span', { title: `exactly ${exactValue(r.max, arr.dtype)}` }, fmt(r.max)),
      u,
    );
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
      const shown = fmt(value);
      const exact = exactValue(value, arr.dtype);
      readout.replaceChildren(
        `${yName ? `${yName} ${row}, ` : ''}${xName} ${col}: `,
        el('span', { className: 'value', title: `exact ${arr.dtype} value: ${exact}` }, shown),
        `${u}${shown !== exact ? ` (exactly ${exact})` : ''}`,
        ` · chunk ${chunk.key} ${chunk.missing ? '(missing: fill value)' : `decoded in ${ms(chunk.decodeMs)} ms`}`,
      );
    });
    canvas.addEventListener('mouseleave', () => {
      readout.textContent = '\u00a0';
    });
  } catch (e) {
    console.warn(e);
    showError(v, await explain(e, v.url, { registered: !builtin() }));
  }
}

function absolute(url) {
  return new URL(url.replace(/\/+$/, ''), location.href).href;
}

// ?cf=raw: a pasted CF-packed array shows its stored integers (the switch on the panel sets it)
function pastedMode() {
  return new URLSearchParams(location.search).get('cf') === 'raw' ? 'raw' : 'cf';
}

function setQuery(url, mode) {
  history.replaceState(null, '', `?url=${encodeURIComponent(url)}${mode === 'raw' ? '&cf=raw' : ''}${builtin() ? '&codecs=builtin' : ''}`);
}

async function openPasted(url) {
  const id = 'url';
  views.get(id)?.panel.remove();
  const abs = absolute(url);
  const v = openView(id, abs, { title: 'Your array', subtitle: abs, mode: pastedMode(), onMode: (mode) => setQuery(url, mode) });
  $('#pasted').replaceChildren(v.panel);
  await load(v);
  return v;
}

async function main() {
  const status = $('#page-status');
  const params = new URLSearchParams(location.search);
  const isBuiltin = params.get('codecs') === 'builtin';
  const other = new URLSearchParams(params);
  if (isBuiltin) other.delete('codecs');
  else other.set('codecs', 'builtin');
  const toggle = el('a', { href: `?${other}` }, isBuiltin ? 'back to zarr-scale-offset' : "compare: the same page with zarrita's built-in codecs");
  try {
    if (isBuiltin) {
      document.body.classList.add('builtin');
      $('#version').replaceChildren(el('strong', {}, "zarrita's built-in codecs only (register() not called, no openCF) · "), toggle);
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
    setQuery(url, pastedMode());
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
      const v = openView(s.id, absolute(where), { title: s.title, subtitle: `${where} — ${s.note}`, cmap: s.cmap });
      grid.append(v.panel);
      fixtureViews.push(v);
    }
    // one after the other, so that the per-chunk times are not interleaved
    jobs.push(
      (async () => {
        for (const v of fixtureViews) await load(v);
      })(),
    );
  }
  await Promise.all(jobs);
  status.textContent = '';
  document.body.dataset.state = 'done';
}

main();
