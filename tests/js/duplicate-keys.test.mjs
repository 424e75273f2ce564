// Duplicate JSON keys through the JS API of the BUILT package: every case of
// tests/duplicate_keys.json (shared with tests/duplicate_keys.rs) is `invalid_metadata` at the
// pointer of the duplicate, from validate() (an error with that path) and from the throwing calls
// (`.code` and the message's leading pointer). JSON text must reach the core as it is: a
// JSON.parse on the way would silently keep the last copy of the key.

import { test, before } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import path from 'node:path';

import * as z from 'zarr-scale-offset';
import { ROOT, throwsCode } from './helpers.mjs';

const FIXTURE = JSON.parse(readFileSync(path.join(ROOT, 'tests', 'duplicate_keys.json'), 'utf8'));
const ARRAYS = { Float32Array, Float64Array };

before(async () => {
  await z.ready();
});

function arrayText(c) {
  const base = FIXTURE.bases[c.base];
  assert.equal(base.text.split(c.find).length, 2, `${c.id}: find once`);
  return { text: base.text.replace(c.find, () => c.replace), storedBytes: base.stored_bytes };
}

function checkValidate(c, metadata, dataType) {
  const r = z.validate(metadata, dataType);
  assert.equal(r.valid, false, c.id);
  const errors = r.errors.map((e) => [e.path, e.code]);
  const dup = [c.pointer, 'invalid_metadata'];
  if (c.only) assert.deepEqual(errors, [dup], c.id);
  else assert.equal(errors.filter((e) => e[0] === dup[0] && e[1] === dup[1]).length, 1, `${c.id}: ${JSON.stringify(errors)}`);
  assert.match(r.errors.find((e) => e.path === c.pointer).message, /^duplicate key/, c.id);
}

function throwsDuplicate(c, what, fn) {
  const err = throwsCode(fn, 'invalid_metadata', undefined, `${c.id}: ${what}`);
  assert.ok(err.message.startsWith(`${c.pointer}: duplicate key`), `${c.id}: ${what}: ${err.message}`);
}

test('the bases are valid and decode', () => {
  for (const [name, base] of Object.entries(FIXTURE.bases)) {
    assert.deepEqual(z.validate(base.text).errors, [], name);
    z.decodeChunk(base.text, new Uint8Array(base.stored_bytes));
  }
});

test('every duplicate key is invalid_metadata at its pointer, through the JS API', () => {
  let n = 0;
  for (const c of FIXTURE.cases) {
    switch (c.api) {
      case 'array': {
        const { text, storedBytes } = arrayText(c);
        checkValidate(c, text);
        if (!c.only) {
          assert.throws(() => z.decodeChunk(text, new Uint8Array(storedBytes)), c.id);
          break;
        }
        throwsDuplicate(c, 'decodeChunk', () => z.decodeChunk(text, new Uint8Array(storedBytes)));
        throwsDuplicate(c, 'decodeChunkInto', () => z.decodeChunkInto(text, new Uint8Array(storedBytes), new Float32Array(4)));
        throwsDuplicate(c, 'encodeChunk', () => z.encodeChunk(text, new Float32Array(4)));
        throwsDuplicate(c, 'arrayDataType', () => z.arrayDataType(text));
        throwsDuplicate(c, 'metadataWarnings', () => z.metadataWarnings(text));
        break;
      }
      case 'codecs': {
        const data = new ARRAYS[c.typed_array](4);
        checkValidate(c, c.codecs, c.data_type);
        throwsDuplicate(c, 'encode', () => z.encode(c.codecs, c.data_type, data));
        throwsDuplicate(c, 'decode', () => z.decode(c.codecs, c.data_type, data));
        throwsDuplicate(c, 'decodeInto', () => z.decodeInto(c.codecs, c.data_type, data, new ARRAYS[c.typed_array](4)));
        throwsDuplicate(c, 'encodedDataType', () => z.encodedDataType(c.codecs, c.data_type));
        throwsDuplicate(c, 'bind', () => z.bind(c.codecs, c.data_type));
        throwsDuplicate(c, 'bind (fillText)', () => z.bind(c.codecs, c.data_type, { fillText: '0' }));
        break;
      }
      case 'validate':
        checkValidate(c, c.metadata, c.data_type);
        break;
      case 'from_cf':
        throwsDuplicate(c, 'fromCF', () => z.fromCF(c.attrs, c.packed));
        break;
      case 'from_fixed_scale_offset':
        throwsDuplicate(c, 'fromFixedScaleOffset', () => z.fromFixedScaleOffset(c.config, 'float64'));
        break;
      default:
        assert.fail(`${c.id}: unknown api ${c.api}`);
    }
    n++;
  }
  assert.ok(n >= 40, `${n} cases`);
});

test('a data type given as JSON text is read by the core, not by JSON.parse', () => {
  // JSON.parse keeps the last copy ("int8"); the core reports the duplicate.
  const text = '{"name":"float32","name":"int8"}';
  const c = { id: 'data type text', pointer: '/name' };
  throwsDuplicate(c, 'typedArrayKind', () => z.typedArrayKind(text));
  throwsDuplicate(c, 'fromCF', () => z.fromCF('{}', text));
  throwsDuplicate(c, 'fromCF attributeDataType', () => z.fromCF('{"scale_factor":0.5}', 'int16', { attributeDataType: '{"name":"float32","name":"float64"}' }));
  throwsDuplicate(c, 'fromFixedScaleOffset', () => z.fromFixedScaleOffset('{"id":"fixedscaleoffset","offset":0,"scale":10}', text));
  // The same text without the duplicate works, and gives the canonical name.
  assert.equal(z.typedArrayKind('{"name":"int8"}'), 'Int8Array');
  assert.equal(z.encodedDataType('scale_offset', ' "int8" '), 'int8');
  // validate() reports a duplicate in its data type with the pointer into the data type.
  const r = z.validate('scale_offset', text);
  assert.deepEqual(r.errors.map((e) => [e.path, e.code]), [['/name', 'invalid_metadata']]);
});

test('a repeated scalar_map entry is not a duplicate key: a warning, the first entry wins', () => {
  const c = { name: 'cast_value', configuration: { data_type: 'uint8', scalar_map: { encode: [[1, 2], [1, 3]] } } };
  const r = z.validate(c, 'float32');
  assert.deepEqual(r.errors, []);
  assert.deepEqual(r.warnings.map((w) => [w.path, w.code]), [['/configuration/scalar_map/encode/1/0', 'duplicate_key']]);
  assert.deepEqual(Array.from(z.encode(c, 'float32', new Float32Array([1]))), [2]);
});
