// docs/spec/cf.scale_offset.schema.json (JSON Schema 2020-12, checked with ajv) against the
// package's own configuration reader (`validate`, the Rust reader compiled to wasm):
//   1. every cf.scale_offset codec object of the conformance vectors that is not a metadata error
//      is valid under the schema, and one of a metadata_error vector is rejected by the schema
//      exactly when validate rejects it for every data type;
//   2. over a generated set of codec objects (each field alone in every spelling of a list of
//      numbers, fill-value strings, lenient spellings and non-scalars; pairs of numbers and
//      specials; extra keys, non-object configurations, the short-hand name, must_understand),
//      the schema accepts exactly the codec objects that
//      validate accepts, with no lenient-form warning, for at least one data type. (What depends
//      on the data type, e.g. 1.5 for an integer type, the schema cannot say: the spec's text does.)

import { test, before } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync, readdirSync } from 'node:fs';
import path from 'node:path';
import Ajv2020 from 'ajv/dist/2020.js';

import * as z from 'zarr-scale-offset';
import { ROOT, VECTORS, DTYPES, loadFamily, rawArray, rawObject } from './helpers.mjs';

const schema = JSON.parse(readFileSync(path.join(ROOT, 'docs', 'spec', 'cf.scale_offset.schema.json'), 'utf8'));
const check = new Ajv2020({ strict: true, allErrors: true }).compile(schema);

// float8_e8m0fnu has no zero: a document's fill value of 0 (or the offset) may not pass it.
const TYPES = Object.keys(DTYPES).filter((t) => t !== 'float8_e8m0fnu');

before(async () => {
  await z.ready();
});

function doc(dtype, codecText, fillText) {
  const bytes = DTYPES[dtype].size > 1 ? '{"name":"bytes","configuration":{"endian":"little"}}' : '{"name":"bytes"}';
  return `{"zarr_format":3,"node_type":"array","shape":[2],"data_type":"${dtype}",` +
    `"chunk_grid":{"name":"regular","configuration":{"chunk_shape":[2]}},` +
    `"chunk_key_encoding":{"name":"default","configuration":{"separator":"/"}},` +
    `"fill_value":${fillText},"codecs":[${codecText},${bytes}],"attributes":{}}`;
}

// Valid, without a lenient spelling of the configuration, for at least one data type. The fill
// value is the offset (it encodes to 0, or NaN), so it never decides the outcome.
function readerAccepts(codecText, offsetText) {
  const fill = offsetText ?? '0';
  return TYPES.some((t) => {
    const r = z.validate(doc(t, codecText, fill));
    return r.errors.length === 0 && !r.warnings.some((w) => w.code === 'lenient_form' && w.path.startsWith('/codecs/0'));
  });
}

test('schema: the cf.scale_offset codec objects of the vectors: valid ones valid, invalid ones as validate says', (t) => {
  const families = readdirSync(VECTORS).filter((f) => f.endsWith('.json')).map((f) => f.slice(0, -5));
  let valid = 0;
  let rejected = 0;
  let typeDependent = 0;
  const disagree = [];
  for (const family of families) {
    for (const v of loadFamily(family)) {
      const codecs = v.metadata.codecs ?? [];
      const texts = v.expect === 'metadata_error' ? rawArray(rawObject(v.metadataText).get('codecs')) : [];
      for (const [i, c] of codecs.entries()) {
        if (c !== 'cf.scale_offset' && c?.name !== 'cf.scale_offset') continue;
        if (v.expect !== 'metadata_error') {
          // Every codec object of a valid vector is in the strict form.
          assert.ok(check(c), `${v.id}: ${JSON.stringify(c)}: ${JSON.stringify(check.errors)}`);
          valid++;
          continue;
        }
        // An invalid vector: the schema rejects the codec object exactly when validate rejects it
        // for every data type (otherwise the vector's error is its data type's or its fill
        // value's, which the schema cannot know).
        const text = texts[i];
        const cfg = text.startsWith('{') ? rawObject(text).get('configuration') : undefined;
        const offset = cfg?.startsWith('{') ? rawObject(cfg).get('offset') : undefined;
        const bySchema = check(parseForSchema(text));
        const byReader = readerAccepts(text, offset);
        if (bySchema !== byReader) disagree.push(`${v.id}: schema ${bySchema}, validate ${byReader}`);
        else if (bySchema) typeDependent++;
        else rejected++;
      }
    }
  }
  assert.deepEqual(disagree, []);
  assert.ok(valid >= 50 && rejected >= 10, `${valid} valid, ${rejected} rejected`);
  t.diagnostic(
    `cf.scale_offset codec objects in the vectors: ${valid} of valid vectors, all valid under the schema; ` +
      `of metadata_error vectors ${rejected} rejected by the schema and by validate for every data type, ` +
      `${typeDependent} valid for some data type (the error is the array's data type's or fill value's)`,
  );
});

const NUMBERS = ['0', '-0.0', '0.0', '1', '-1', '0.1', '-2.5', '3', '1e-400', '1e400', '-1e400', '1000.0', '255', '300',
  '-129', '1.5', '65504', '1e-10', '18446744073709551615', '1e-45'];
const STRINGS = ['"NaN"', '"Infinity"', '"-Infinity"', '"+Infinity"', '"inf"', '"nan"', '"0.5"', '"12"', '"ten"', '""',
  '"0x3f800000"', '"0x00000000"', '"0x3c00"', '"0X3C00"', '"0x3c0"', '"0x0000000000000000"', '"0x8000"',
  '"0x3ff0000000000000"', '"0x7fc00000"', '"0x01"', '"0x00"', '"0xzz"'];
const OTHERS = ['true', 'null', '[]', '{}', '[1]'];
const ATOMS = [...NUMBERS, ...STRINGS, ...OTHERS];

function* codecObjects() {
  const name = '"name":"cf.scale_offset"';
  const config = (s, o) => {
    const members = [];
    if (s !== undefined) members.push(`"scale":${s}`);
    if (o !== undefined) members.push(`"offset":${o}`);
    return { text: `{${name},"configuration":{${members.join(',')}}}`, offset: o };
  };
  // Each field alone, in every spelling; then pairs of numbers and specials (a pair whose two
  // strict forms fit no one data type, e.g. a float16-wide hex offset with a float32-wide hex
  // scale, is the data type's business, not the schema's).
  yield config(undefined, undefined);
  for (const a of ATOMS) {
    yield config(a, undefined);
    yield config(undefined, a);
  }
  const PAIRED = [...NUMBERS, '"NaN"', '"Infinity"', '"-Infinity"'];
  for (const s of PAIRED) for (const o of PAIRED) yield config(s, o);
  for (const extra of ['"scale_factor":0.1', '"add_offset":1', '"dtype":"<f8"', '"Scale":2', '"scale":2,"foo":null']) {
    yield { text: `{${name},"configuration":{${extra}}}` };
  }
  for (const cfg of ['[0.1,1]', '0.1', '"scale"', 'null', 'true']) yield { text: `{${name},"configuration":${cfg}}` };
  yield { text: '"cf.scale_offset"' };
  yield { text: `{${name}}` };
  yield { text: `{${name},"must_understand":false}` };
  yield { text: `{${name},"must_understand":true,"configuration":{"scale":2}}` };
  yield { text: `{${name},"must_understand":"no"}` };
  yield { text: `{${name},"other":1}` };
  yield { text: '{"name":"CF.scale_offset"}' };
}

// JSON.parse turns a number beyond float64 (1e400) into Infinity, which is no JSON value for ajv;
// the schema sees such a number as what it is, a JSON number (a finite stand-in of its sign).
// (1e-400 parses to 0, as it reads into every data type: a zero scale for both.)
const parseForSchema = (text) =>
  JSON.parse(text, (_, v) => (typeof v === 'number' && !Number.isFinite(v) ? Math.sign(v) * Number.MAX_VALUE : v));

test('schema: agrees with validate over generated codec objects (some data type, strict forms)', (t) => {
  const disagree = [];
  let both = 0;
  let neither = 0;
  for (const { text, offset } of codecObjects()) {
    const bySchema = check(parseForSchema(text));
    const byReader = readerAccepts(text, offset);
    if (bySchema !== byReader) disagree.push(`${text}: schema ${bySchema}, validate ${byReader}`);
    else if (bySchema) both++;
    else neither++;
  }
  t.diagnostic(`${both + neither + disagree.length} codec objects: ${both} valid and ${neither} invalid under both, ${disagree.length} disagreements`);
  assert.deepEqual(disagree, []);
  assert.ok(both > 100 && neither > 100);
});
