// The worked examples of docs/spec/cf.scale_offset.md are conformance vectors: every vector id the
// spec cites exists in conformance/vectors/cf_scale_offset.json, and every number an example
// quotes is in that vector (the engines are held to the vectors by tests/js/conformance.test.mjs
// and tests/conformance.rs), and is written in the spec as quoted here.

import { test } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import path from 'node:path';

import { ROOT, loadFamily, hexToBytes } from './helpers.mjs';

const SPEC = readFileSync(path.join(ROOT, 'docs', 'spec', 'cf.scale_offset.md'), 'utf8');
const VECS = new Map(loadFamily('cf_scale_offset').map((v) => [v.id.slice('cf_scale_offset/'.length), v]));

// Element `i` of a hex buffer of `type`.
function element(hex, type, i) {
  const b = hexToBytes(hex);
  const dv = new DataView(b.buffer);
  switch (type) {
    case 'float64': return dv.getFloat64(8 * i, true);
    case 'float32': return dv.getFloat32(4 * i, true);
    case 'float32bits': return `0x${dv.getUint32(4 * i, true).toString(16).padStart(8, '0')}`;
    case 'int16': return dv.getInt16(2 * i, true);
    case 'uint16': return dv.getUint16(2 * i, true);
    case 'uint8': return dv.getUint8(i);
    default: throw new Error(type);
  }
}

// [vector id, stored element type, stored value, decoded element type, decoded value as the spec writes it]
const CLAIMS = [
  ['example-float32/dec', 'float32', 1.0, 'float32bits', '0x40a33333'],
  ['example-float32/dec', 'float32', 2.5, 'float32bits', '0x40a80000'],
  ['example-float32/dec', 'float32', Math.fround(3.3), 'float32bits', '0x40aa8f5c'],
  ['example-float64-uint8-nan', 'uint8', 0, 'float64', 'NaN'],
  ['example-float64-uint8-nan', 'uint8', 1, 'float64', '0.0'],
  ['example-float64-uint8-nan', 'uint8', 3, 'float64', '0.20000000000000004'],
  ['example-float64-uint8-nan', 'uint8', 4, 'float64', '0.30000000000000004'],
  ['example-float64-uint8-nan', 'uint8', 255, 'float64', '25.4'],
  ['example-sentinel2-uint16', 'uint16', 1001, 'float64', '0.00010000000000000286'],
  ['example-int16-float32', 'int16', 1234, 'float32', '285.49'],
  ['int16-exact', 'int16', 5, 'int16', '-80'],
  ['float64-scale-only-negative-zero/dec', 'float64', -0, 'float64', '-0.0'],
  ['int16-negative-scale-only', 'int16', 0, 'float64', '-0.0'],
];

const same = (got, want, type) => {
  if (type === 'float32bits') return got === want;
  if (want === 'NaN') return Number.isNaN(got);
  const w = type === 'float32' ? Math.fround(Number(want)) : Number(want);
  return Object.is(got, w);
};

test('spec: every vector id it cites is a cf_scale_offset vector', (t) => {
  const cited = [...SPEC.matchAll(/`((?:example|int|uint|float)[a-z0-9-]*(?:\/(?:dec|enc))?)`/g)].map((m) => m[1]);
  // A cited id names a vector, or a group of them (`…/dec`, `…/0`); spans without a dash are type names.
  const known = (c) => [c, `${c}/dec`, `${c}/0`].some((k) => VECS.has(k));
  const ids = cited.filter(known);
  const missing = cited.filter((c) => c.includes('-') && !known(c));
  assert.deepEqual(missing, []);
  assert.ok(ids.length >= 8, `${ids.length} ids`);
  t.diagnostic(`${ids.length} vector ids cited by the spec, all present`);
});

test('spec: the numbers its examples quote are those of the vectors', (t) => {
  for (const [id, stype, stored, dtype, want] of CLAIMS) {
    const v = VECS.get(id);
    assert.ok(v, id);
    assert.ok(SPEC.includes(want.replace(/^0x/, '0x')), `${want} is not written in the spec`);
    const n = v.metadata.shape[0];
    const i = [...Array(n).keys()].find((k) => Object.is(element(v.encoded, stype, k), stored));
    assert.notEqual(i, undefined, `${id}: stored ${stored} not in the vector`);
    const got = element(v.decoded, dtype, i);
    assert.ok(same(got, want, dtype), `${id}: stored ${stored} decodes to ${got}, the spec says ${want}`);
  }
  assert.ok(VECS.has('int16-exact/decode-error-1'), 'int16 stored 8217 fails');
  assert.ok(SPEC.includes('8217'));
  t.diagnostic(`${CLAIMS.length} numbers of the spec's examples checked against their vectors`);
});
