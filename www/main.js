// The demo page: decode a real Zarr v3 chunk in the browser with zarr-scale-offset.
import { ready, decodeChunk, version } from 'zarr-scale-offset';

const STORE = '/tests/fixtures/stores/topobathy.zarr';
const ROWS = 8; // rows and columns of the table of first values
const COLS = 8;

const $ = (id) => document.getElementById(id);

function setStatus(text, kind = '') {
  const s = $('status');
  s.textContent = text;
  s.className = kind;
}

async function fetchOk(url) {
  const r = await fetch(url);
  if (!r.ok) {
    const e = new Error(`GET ${url}: HTTP ${r.status} ${r.statusText}`);
    e.code = r.status === 404 ? 'not_found' : 'http_error';
    throw e;
  }
  return r;
}

async function gunzip(bytes) {
  const stream = new Blob([bytes]).stream().pipeThrough(new DecompressionStream('gzip'));
  return new Uint8Array(await new Response(stream).arrayBuffer());
}

// The store's codecs end with gzip, a bytes->bytes codec this package does not implement:
// the page un-gzips the chunk itself and hands decodeChunk the metadata without it.
function withoutGzip(metadata) {
  const codecs = metadata.codecs.filter((c) => (typeof c === 'string' ? c : c.name) !== 'gzip');
  return { ...metadata, codecs };
}

function fmt(v) {
  return Number.isNaN(v) ? 'NaN' : v.toFixed(1);
}

function renderTable(values, chunkShape) {
  const [rows, cols] = chunkShape;
  const t = document.createElement('table');
  const head = t.createTHead().insertRow();
  head.appendChild(document.createElement('th')).textContent = 'row \\ col';
  for (let c = 0; c < Math.min(COLS, cols); c++) head.appendChild(document.createElement('th')).textContent = c;
  const body = t.createTBody();
  for (let r = 0; r < Math.min(ROWS, rows); r++) {
    const tr = body.insertRow();
    tr.appendChild(document.createElement('th')).textContent = r;
    for (let c = 0; c < Math.min(COLS, cols); c++) {
      const v = values[r * cols + c];
      const td = tr.insertCell();
      td.textContent = fmt(v);
      if (Number.isNaN(v)) td.className = 'nan';
    }
  }
  $('table').replaceChildren(t);
}

async function show(metadata, key) {
  $('stats').hidden = true;
  $('table').replaceChildren();
  setStatus(`fetching ${key}…`);
  const chunkShape = metadata.chunk_grid.configuration.chunk_shape;
  let result;
  try {
    const gz = new Uint8Array(await (await fetchOk(`${STORE}/${key}`)).arrayBuffer());
    const raw = await gunzip(gz);
    const meta = withoutGzip(metadata);
    const t0 = performance.now();
    const values = decodeChunk(meta, raw);
    const ms = performance.now() - t0;
    // The first call includes the engine's first compile of the hot code; time warm calls too.
    let warm = Infinity;
    for (let i = 0; i < 20; i++) {
      const t = performance.now();
      decodeChunk(meta, raw);
      warm = Math.min(warm, performance.now() - t);
    }
    let min = Infinity;
    let max = -Infinity;
    let nan = 0;
    for (const v of values) {
      if (Number.isNaN(v)) nan++;
      else {
        if (v < min) min = v;
        if (v > max) max = v;
      }
    }
    $('s-chunk').textContent = `${key} (${chunkShape.join(' × ')})`;
    $('s-n').textContent = values.length;
    $('s-dtype').textContent = `${metadata.data_type} → ${values.constructor.name}`;
    $('s-minmax').textContent = nan === values.length ? 'all NaN' : `${fmt(min)} / ${fmt(max)} m`;
    $('s-nan').textContent = nan;
    $('s-bytes').textContent = `${gz.length} gzip → ${raw.length} raw`;
    $('s-ms').textContent = `${ms.toFixed(3)} ms first call, ${warm.toFixed(3)} ms warm (best of 20)`;
    $('s-version').textContent = `zarr-scale-offset ${version()}`;
    $('stats').hidden = false;
    renderTable(values, chunkShape);
    setStatus(`decoded ${key}: ${values.length} values in ${ms.toFixed(3)} ms`, 'ok');
    result = {
      ok: true,
      key,
      n: values.length,
      kind: values.constructor.name,
      first: Array.from(values.subarray(0, 64), (v) => (Number.isNaN(v) ? null : v)),
      min: nan === values.length ? null : min,
      max: nan === values.length ? null : max,
      nan,
      ms,
      msWarm: warm,
    };
  } catch (e) {
    const code = e && e.code ? e.code : 'no code';
    const hint = code === 'not_found' ? ' (a missing chunk reads as the fill value, NaN)' : '';
    setStatus(`Error decoding ${key}: ${e && e.message ? e.message : e} [code: ${code}]${hint}`, 'error');
    result = { ok: false, key, error: String(e && e.message ? e.message : e), code };
  }
  window.__result = result;
  document.body.dataset.state = result.ok ? 'done' : 'error';
  return result;
}

async function main() {
  try {
    await ready();
    const metadata = await (await fetchOk(`${STORE}/zarr.json`)).json();
    const [rows, cols] = metadata.shape;
    const [cr, cc] = metadata.chunk_grid.configuration.chunk_shape;
    const select = $('chunk');
    for (let i = 0; i < Math.ceil(rows / cr); i++) {
      for (let j = 0; j < Math.ceil(cols / cc); j++) select.add(new Option(`c/${i}/${j}`));
    }
    const initial = new URLSearchParams(location.search).get('chunk') ?? 'c/0/0';
    select.value = initial;
    select.addEventListener('change', () => show(metadata, select.value));
    await show(metadata, initial);
  } catch (e) {
    const code = e && e.code ? e.code : 'no code';
    setStatus(`Error: ${e && e.message ? e.message : e} [code: ${code}]`, 'error');
    window.__result = { ok: false, error: String(e && e.message ? e.message : e), code };
    document.body.dataset.state = 'error';
  }
}

main();
