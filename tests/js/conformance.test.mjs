// Conformance runner over the BUILT package (imported by its name, as users do): every vector of
// the families below through the chunk API (encodeChunk/decodeChunk/decodeChunkInto on the whole zarr.json) and
// through the typed-array API (encode/decode/decodeInto with the array->array codecs alone). The
// *Into calls write into arrays pre-filled with 0xa5, so an element left unwritten shows.
//
// Rules (tests/fixtures/README.md): bytes compare exactly, except that any NaN equals any NaN for
// float types and only the low bits of stored sub-byte and 4/6/8-bit values count.

import { test, before } from 'node:test';
import assert from 'node:assert/strict';
import { readdirSync } from 'node:fs';
import path from 'node:path';

import * as z from 'zarr-scale-offset';
import {
  VECTORS,
  ERROR_CODES,
  loadFamily,
  hexToBytes,
  storedToMemory,
  compareMemory,
  typedFromBytes,
  bytesOf,
} from './helpers.mjs';

const FAMILIES = ['scale_offset', 'cast_value', 'chains', 'exotic', 'cf', 'cf_scale_offset', 'metadata_errors', 'fixedscaleoffset'];
const SKIPPED = {};
const MAX_LISTED = 20;

before(async () => {
  await z.ready();
});

test('vector families: all present, skipped ones by family name only', (t) => {
  const present = readdirSync(VECTORS)
    .filter((f) => f.endsWith('.json'))
    .map((f) => f.slice(0, -5))
    .sort();
  for (const f of FAMILIES) assert.ok(present.includes(f), `family ${f} is missing from conformance/vectors`);
  for (const f of present) {
    if (FAMILIES.includes(f)) continue;
    assert.ok(f in SKIPPED, `family ${f} is neither run nor listed as skipped`);
    const msg = `SKIPPED family ${f}: ${SKIPPED[f]}`;
    t.diagnostic(msg);
  }
});

// Runs `fn`; returns { ok: true, value } or { ok: false, error }.
function attempt(fn) {
  try {
    return { ok: true, value: fn() };
  } catch (error) {
    return { ok: false, error };
  }
}

function describeError(e) {
  return e && typeof e === 'object' ? `${e.code ?? '<no code>'}: ${e.message}` : String(e);
}

// An expected failure must be a coded Error from the package, never a stray TypeError; an
// encode_error / decode_error vector has valid metadata, so its error must be about the data.
const DATA_ERRORS = new Set(['out_of_range', 'not_representable', 'length_mismatch', 'invalid_data']);
function checkThrew(r, what, dataError = true) {
  if (r.ok) return `${what}: expected an error, got a result`;
  if (!(r.error instanceof Error) || !ERROR_CODES.has(r.error.code)) {
    return `${what}: threw something without a documented code: ${describeError(r.error)}`;
  }
  if (dataError && !DATA_ERRORS.has(r.error.code)) {
    return `${what}: expected a data error (${[...DATA_ERRORS].join(' / ')}), got ${describeError(r.error)}`;
  }
  return null;
}

function checkValue(r, what, compare) {
  if (!r.ok) return `${what}: threw ${describeError(r.error)}`;
  const reason = compare(r.value);
  return reason ? `${what}: ${reason}` : null;
}

const wantsEncode = (e) => e === 'roundtrip' || e === 'encode_only';
const wantsDecode = (e) => e === 'roundtrip' || e === 'decode_only';

// ---- chunk API: encodeChunk / decodeChunk with the exact metadata text ------------------------
function runChunk(v) {
  const problems = [];
  const dtype = attempt(() => z.arrayDataType(v.metadataText));
  if (!dtype.ok) {
    if (v.expect === 'metadata_error') return [checkThrew(dtype, 'arrayDataType', false)].filter(Boolean);
    return [`arrayDataType threw ${describeError(dtype.error)}`];
  }
  const name = dtype.value;
  const Ctor = z.typedArrayConstructor(name);
  const decoded = v.decoded !== undefined ? hexToBytes(v.decoded) : undefined;
  const encoded = v.encoded !== undefined ? hexToBytes(v.encoded) : undefined;
  const storedType = () => z.encodedDataType(v.arrayCodecsText, name);

  if (wantsEncode(v.expect) && decoded && encoded) {
    const r = attempt(() => z.encodeChunk(v.metadataText, typedFromBytes(decoded, Ctor)));
    const p = checkValue(r, 'encodeChunk', (out) => {
      if (!(out instanceof Uint8Array)) return `returned ${Object.prototype.toString.call(out)}, not a Uint8Array`;
      const st = storedType();
      return compareMemory(storedToMemory(out, st, v.endian), storedToMemory(encoded, st, v.endian), st, {
        lowBits: true,
      });
    });
    if (p) problems.push(p);
  }
  if (wantsDecode(v.expect) && decoded && encoded) {
    const r = attempt(() => z.decodeChunk(v.metadataText, encoded));
    const p = checkValue(r, 'decodeChunk', (out) => {
      if (!(out instanceof Ctor)) return `returned ${Object.prototype.toString.call(out)}, expected ${Ctor.name}`;
      return compareMemory(bytesOf(out), decoded, name);
    });
    if (p) problems.push(p);
  }
  // decodeChunkInto: into a reused array pre-filled with garbage (every element must be written)
  if (wantsDecode(v.expect) && decoded && encoded) {
    const target = garbage(Ctor, decoded.byteLength);
    const r = attempt(() => z.decodeChunkInto(v.metadataText, encoded, target));
    const p = checkValue(r, 'decodeChunkInto', (out) => {
      if (out !== target) return 'did not return the array it was given';
      return compareMemory(bytesOf(target), decoded, name);
    });
    if (p) problems.push(p);
  }
  if (v.expect === 'encode_error') {
    const p = checkThrew(
      attempt(() => z.encodeChunk(v.metadataText, typedFromBytes(decoded, Ctor))),
      'encodeChunk',
    );
    if (p) problems.push(p);
  }
  if (v.expect === 'decode_error' || v.expect === 'metadata_error') {
    const p = checkThrew(
      attempt(() => z.decodeChunk(v.metadataText, encoded ?? new Uint8Array(0))),
      'decodeChunk',
      v.expect === 'decode_error',
    );
    if (p) problems.push(p);
    if (v.expect === 'decode_error' && decoded) {
      const q = checkThrew(
        attempt(() => z.decodeChunkInto(v.metadataText, encoded ?? new Uint8Array(0), garbage(Ctor, decoded.byteLength))),
        'decodeChunkInto',
      );
      if (q) problems.push(q);
    }
  }
  return problems;
}

// A typed array of `byteLength` bytes filled with 0xa5, so that an element left unwritten shows.
function garbage(Ctor, byteLength) {
  const a = new Ctor(byteLength / Ctor.BYTES_PER_ELEMENT);
  new Uint8Array(a.buffer, a.byteOffset, a.byteLength).fill(0xa5);
  return a;
}

// ---- typed-array API: encode / decode with metadata.codecs minus the bytes codec ---------------
function runTyped(v) {
  const problems = [];
  let name;
  try {
    name = z.arrayDataType(v.metadataText);
  } catch (e) {
    return v.expect === 'metadata_error' ? [] : [`arrayDataType threw ${describeError(e)}`];
  }
  const codecs = v.arrayCodecsText;
  const Ctor = z.typedArrayConstructor(name);
  const decoded = v.decoded !== undefined ? hexToBytes(v.decoded) : undefined;
  const encodedStored = v.encoded !== undefined ? hexToBytes(v.encoded) : undefined;
  const enc = attempt(() => z.encodedDataType(codecs, name));
  if (!enc.ok) {
    if (v.expect === 'metadata_error') {
      const p = checkThrew(enc, 'encodedDataType', false);
      return p ? [p] : [];
    }
    return [`encodedDataType threw ${describeError(enc.error)}`];
  }
  const encName = enc.value;
  const EncCtor = z.typedArrayConstructor(encName);
  const encodedMem = encodedStored && storedToMemory(encodedStored, encName, v.endian);

  if (wantsEncode(v.expect) && decoded && encodedMem) {
    const r = attempt(() => z.encode(codecs, name, typedFromBytes(decoded, Ctor)));
    const p = checkValue(r, 'encode', (out) => {
      if (!(out instanceof EncCtor)) return `returned ${Object.prototype.toString.call(out)}, expected ${EncCtor.name}`;
      return compareMemory(bytesOf(out), encodedMem, encName);
    });
    if (p) problems.push(p);
  }
  if (wantsDecode(v.expect) && decoded && encodedMem) {
    const r = attempt(() => z.decode(codecs, name, typedFromBytes(encodedMem, EncCtor)));
    const p = checkValue(r, 'decode', (out) => {
      if (!(out instanceof Ctor)) return `returned ${Object.prototype.toString.call(out)}, expected ${Ctor.name}`;
      return compareMemory(bytesOf(out), decoded, name);
    });
    if (p) problems.push(p);
    const target = garbage(Ctor, decoded.byteLength);
    const ri = attempt(() => z.decodeInto(codecs, name, typedFromBytes(encodedMem, EncCtor), target));
    const pi = checkValue(ri, 'decodeInto', (out) => {
      if (out !== target) return 'did not return the array it was given';
      return compareMemory(bytesOf(target), decoded, name);
    });
    if (pi) problems.push(pi);
  }
  if (v.expect === 'encode_error') {
    const p = checkThrew(attempt(() => z.encode(codecs, name, typedFromBytes(decoded, Ctor))), 'encode');
    if (p) problems.push(p);
  }
  if (v.expect === 'decode_error' || v.expect === 'metadata_error') {
    const p = checkThrew(
      attempt(() => z.decode(codecs, name, typedFromBytes(encodedMem ?? new Uint8Array(0), EncCtor))),
      'decode',
      v.expect === 'decode_error',
    );
    if (p) problems.push(p);
  }
  return problems;
}

// ---- validate: metadata_error vectors are invalid (with pointers and codes), all others valid --
function runValidate(v) {
  const r = attempt(() => z.validate(v.metadataText));
  if (!r.ok) return [`validate threw ${describeError(r.error)}`];
  const { valid, errors, warnings } = r.value;
  if (!Array.isArray(errors) || !Array.isArray(warnings)) return ['validate: errors/warnings are not arrays'];
  for (const d of [...errors, ...warnings]) {
    if (typeof d.path !== 'string' || (d.path !== '' && !d.path.startsWith('/'))) return [`validate: bad path ${d.path}`];
    if (typeof d.code !== 'string' || typeof d.message !== 'string' || d.message === '') return ['validate: bad diagnostic'];
  }
  for (const d of errors) {
    if (!ERROR_CODES.has(d.code)) return [`validate: undocumented error code ${d.code}`];
  }
  if (v.expect === 'metadata_error') {
    return valid === false && errors.length > 0 ? [] : ['validate: expected valid === false'];
  }
  return valid === true && errors.length === 0
    ? []
    : [`validate: expected valid, got ${errors.map((e) => `${e.path} ${e.code} ${e.message}`).join('; ')}`];
}

const totals = [];

for (const family of FAMILIES) {
  for (const [api, run] of [
    ['chunk API', runChunk],
    ['typed-array API', runTyped],
    ['validator', runValidate],
  ]) {
    test(`conformance: ${family} via the ${api}`, (t) => {
      const vectors = loadFamily(family);
      assert.ok(vectors.length > 0, `no vectors in ${family}`);
      const failures = [];
      const byExpect = {};
      for (const v of vectors) {
        if (api === 'typed-array API' && v.afterBytes > 0 && v.expect !== 'metadata_error') {
          failures.push({ id: v.id, reason: 'codecs after the bytes codec: not runnable through the typed-array API' });
          continue;
        }
        let problems;
        try {
          problems = run(v);
        } catch (e) {
          problems = [`runner error: ${e.stack ?? e}`];
        }
        byExpect[v.expect] ??= { pass: 0, fail: 0 };
        if (problems.length === 0) byExpect[v.expect].pass++;
        else {
          byExpect[v.expect].fail++;
          failures.push({ id: v.id, reason: problems.join('; ') });
        }
      }
      const passed = vectors.length - failures.length;
      const detail = Object.entries(byExpect)
        .map(([k, c]) => `${k} ${c.pass}/${c.pass + c.fail}`)
        .join(', ');
      const line = `${family} via the ${api}: ${passed}/${vectors.length} vectors passed (${detail})`;
      t.diagnostic(line);
      totals.push({ family, api, passed, total: vectors.length });
      if (failures.length > 0) {
        const listed = failures
          .slice(0, MAX_LISTED)
          .map((f) => `  ${f.id}: ${f.reason}`)
          .join('\n');
        assert.fail(
          `${failures.length} of ${vectors.length} ${family} vectors failed via the ${api}` +
            `${failures.length > MAX_LISTED ? ` (first ${MAX_LISTED})` : ''}:\n${listed}`,
        );
      }
    });
  }
}

test('conformance: summary', (t) => {
  const passed = totals.reduce((a, x) => a + x.passed, 0);
  const total = totals.reduce((a, x) => a + x.total, 0);
  const line = `conformance total: ${passed}/${total} (vector, API) checks passed over ${FAMILIES.length} families x 3 APIs (chunk, typed-array, validate)`;
  t.diagnostic(line);
  assert.equal(totals.length, FAMILIES.length * 3);
});
