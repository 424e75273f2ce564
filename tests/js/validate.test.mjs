// validate() and fromCF() over the built package.
import { test, before } from 'node:test';
import assert from 'node:assert/strict';

import * as z from 'zarr-scale-offset';

before(async () => {
  await z.ready();
});

const doc = (dataType, fill, codecs) => ({
  zarr_format: 3,
  node_type: 'array',
  shape: [4],
  data_type: dataType,
  chunk_grid: { name: 'regular', configuration: { chunk_shape: [4] } },
  chunk_key_encoding: { name: 'default' },
  fill_value: fill,
  codecs,
});

test('validate reports three independent problems with pointers and codes', () => {
  const d = doc('float32', 0, [
    { name: 'scale_offset', configuration: { scale: 0, factor: 2 } },
    { name: 'cast_value', configuration: { data_type: 'uint8', rounding: 'up' } },
    'bytes',
  ]);
  const r = z.validate(d);
  assert.equal(r.valid, false);
  assert.deepEqual(
    r.errors.map((e) => [e.path, e.code]),
    [
      ['/codecs/0/configuration/factor', 'invalid_metadata'],
      ['/codecs/0/configuration/scale', 'invalid_metadata'],
      ['/codecs/1/configuration/rounding', 'invalid_metadata'],
    ],
  );
  for (const e of r.errors) assert.ok(e.message.length > 10, e.message);
  // The same document as JSON text gives the same report.
  assert.deepEqual(z.validate(JSON.stringify(d)), r);
});

test('validate: malformed JSON is one error at "" with the position', () => {
  const r = z.validate('{"zarr_format": 3,, }');
  assert.equal(r.valid, false);
  assert.equal(r.errors.length, 1);
  assert.equal(r.errors[0].path, '');
  assert.equal(r.errors[0].code, 'invalid_json');
  assert.match(r.errors[0].message, /line 1, column 19 \(byte 18\)/);
});

test('validate: single codecs, codec lists, short-hand names, data types', () => {
  assert.deepEqual(z.validate('scale_offset', 'int8'), { valid: true, errors: [], warnings: [], decodable: true, unsupported: [] });
  const r = z.validate({ name: 'scale_offset', configuration: { offset: 1.5 } }, 'int16');
  assert.deepEqual(r.errors.map((e) => [e.path, e.code]), [['/configuration/offset', 'invalid_metadata']]);
  const list = [
    { name: 'scale_offset', configuration: { offset: -10, scale: 0.1 } },
    { name: 'cast_value', configuration: { data_type: 'uint8', out_of_range: 'wrap', rounding: 'nearest' } },
  ];
  assert.deepEqual(
    z.validate(list, 'float64').errors.map((e) => e.path),
    ['/1/configuration/rounding'],
  );
  const noType = z.validate(list);
  assert.deepEqual(noType.warnings.map((w) => w.code), ['no_data_type']);
  assert.equal(z.validate(list, 'complex128').errors[0].code, 'unsupported_data_type');
  // Lenient forms are accepted on read and reported as warnings.
  const lenient = z.validate(doc('uint16', 1000.5 - 0.5, [{ name: 'scale_offset', configuration: { offset: '1000' } }, { name: 'cast_value', configuration: { data_type: 'uint8' } }, 'bytes']));
  assert.equal(lenient.valid, true);
  assert.deepEqual(lenient.warnings.map((w) => [w.path, w.code]), [['/codecs/0/configuration/offset', 'lenient_form']]);
});

test('fromCF: Sentinel-2 convention decodes all 65,536 uint16 codes like xarray (f64 rule)', () => {
  const cf = z.fromCF({ scale_factor: 0.0001, add_offset: -0.1, _FillValue: 0 }, 'uint16');
  assert.equal(cf.data_type, 'float64');
  assert.equal(cf.fill_value, 'NaN');
  assert.deepEqual(cf.codecs.map((c) => c.name), ['cf.scale_offset', 'cast_value', 'bytes']);
  const meta = { ...doc(cf.data_type, cf.fill_value, cf.codecs), shape: [65536], chunk_grid: { name: 'regular', configuration: { chunk_shape: [65536] } } };
  assert.deepEqual(z.validate(meta).errors, []);
  const codes = new Uint16Array(65536).map((_, i) => i);
  const out = z.decodeChunk(meta, new Uint8Array(codes.buffer));
  assert.ok(out instanceof Float64Array);
  assert.ok(Number.isNaN(out[0]));
  let differ = 0;
  for (let i = 1; i < 65536; i++) {
    // xarray: float64(stored) * scale_factor, then + add_offset: two roundings in JS numbers.
    if (!Object.is(out[i], i * 0.0001 + -0.1)) differ++;
  }
  assert.equal(differ, 0);
});

test('fromCF: float32 netCDF attributes give float32, like xarray', () => {
  const cf = z.fromCF({ scale_factor: 0.01, add_offset: 273.15, _FillValue: -32767 }, 'int16', { attributeDataType: 'float32' });
  assert.equal(cf.data_type, 'float32');
  const typed = z.fromCF({ scale_factor: { value: 0.01, dtype: 'float32' }, add_offset: { value: 273.15, dtype: 'float32' } }, 'int32');
  assert.equal(typed.data_type, 'float64');
  assert.throws(() => z.fromCF({ scale_factor: 'x' }, 'int16'), (e) => e.code === 'invalid_metadata');
});

test('numcodecs.fixedscaleoffset: read-only, its replacement, and v2 .zarray documents', () => {
  const meta = {
    ...doc('float32', 10, [
      { name: 'numcodecs.fixedscaleoffset', configuration: { astype: 'uint8', dtype: 'float32', scale: 0.1, offset: 10 } },
      'bytes',
    ]),
  };
  assert.equal(z.validate(meta).valid, true);
  const out = z.decodeChunk(meta, new Uint8Array([0, 1, 9, 255]));
  // numcodecs: uint8 -> float64 arithmetic (x / 0.1 + 10), then one rounding to float32.
  assert.deepEqual(Array.from(out), [0, 1, 9, 255].map((x) => Math.fround(x / 0.1 + 10)));
  assert.throws(() => z.encodeChunk(meta, new Float32Array(4)), (e) => e.code === 'read_only' && /scale_offset/.test(e.message));
  // The spec's conversion example.
  assert.deepEqual(z.fromFixedScaleOffset({ astype: 'uint8', dtype: 'float32', scale: 0.1, offset: 10 }), [
    { name: 'scale_offset', configuration: { scale: 0.1, offset: 10 } },
    { name: 'cast_value', configuration: { data_type: 'uint8', rounding: 'nearest-even', out_of_range: 'wrap' } },
  ]);
  // A v2 .zarray with the filter (and no compressor) decodes like the v3 form.
  const zarray = {
    zarr_format: 2, shape: [4], chunks: [4], dtype: '<f4', fill_value: 'NaN', order: 'C', compressor: null,
    filters: [{ id: 'fixedscaleoffset', offset: 10, scale: 0.1, dtype: '<f4', astype: '|u1' }],
  };
  assert.equal(z.validate(zarray).valid, true);
  assert.deepEqual(Array.from(z.decodeChunk(zarray, new Uint8Array([0, 1, 9, 255]))), Array.from(out));
});

test('validate without a data type still checks each configuration (all but its typed scalars)', () => {
  const r = z.validate('[{"name":"scale_offset","configuration":{"bogus":1}},{"name":"cast_value","configuration":{"data_type":"int8","rounding":"bad"}}]');
  assert.equal(r.valid, false);
  assert.deepEqual(
    r.errors.map((e) => [e.path, e.code]),
    [
      ['/0/configuration/bogus', 'invalid_metadata'],
      ['/1/configuration/rounding', 'invalid_metadata'],
    ],
  );
  assert.deepEqual(r.warnings.map((w) => w.code), ['no_data_type']);
});

// MUST SHOW (issue 13): the documents zarr-python 3.4.2 writes, and one-field-broken variants.
import { readdirSync, readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';

const fixtures = (dir) => {
  const base = fileURLToPath(new URL(`../fixtures/metadata/${dir}/`, import.meta.url));
  return readdirSync(base)
    .filter((f) => f.endsWith('.json'))
    .sort()
    .map((f) => [f, readFileSync(base + f, 'utf8')]);
};

test('validate: every valid/ metadata fixture is valid with 0 errors; every invalid/ one is reported at its pointer', () => {
  const valid = fixtures('valid');
  let ok = 0;
  for (const [name, text] of valid) {
    // As JSON text and as an object: the same report.
    const r = z.validate(text);
    assert.deepEqual(r.errors, [], name);
    assert.equal(r.valid, true, name);
    assert.equal(r.decodable, r.unsupported.length === 0, name);
    assert.deepEqual(z.validate(JSON.parse(text)), r, name);
    ok++;
  }
  const invalid = fixtures('invalid');
  let atPointer = 0;
  for (const [name, text] of invalid) {
    const { document, pointer } = JSON.parse(text);
    const r = z.validate(document);
    assert.equal(r.valid, false, name);
    assert.equal(r.decodable, false, name);
    const hit = r.errors.some((e) => e.path === pointer || e.path.startsWith(`${pointer}/`));
    assert.ok(hit, `${name}: want an error at ${pointer}, got ${JSON.stringify(r.errors)}`);
    atPointer++;
  }
  console.log(`metadata fixtures: ${ok} of ${valid.length} valid documents valid with 0 errors; ${atPointer} of ${invalid.length} invalid documents reported at their pointer`);
  assert.deepEqual([ok, atPointer], [11, 13]);
});

test('validate: valid but not decodable here is listed under unsupported; decodeChunk still throws', () => {
  const [, text] = fixtures('valid').find(([n]) => n === 'v3_sharded_so_cast.json');
  const r = z.validate(text);
  assert.equal(r.valid, true);
  assert.equal(r.decodable, false);
  assert.deepEqual(
    r.unsupported.map((u) => [u.path, u.code]),
    [
      ['/codecs/0', 'unsupported_codec'],
      ['/codecs/0/configuration/codecs/3', 'unsupported_codec'],
      ['/codecs/0/configuration/index_codecs/1', 'unsupported_codec'],
    ],
  );
  assert.throws(() => z.decodeChunk(text, new Uint8Array(4)), (e) => e.code === 'unsupported_codec' && e.message.startsWith('/codecs/0:'));
  // A broken scale_offset inside the shard is an error at its pointer.
  const broken = JSON.parse(text);
  broken.codecs[0].configuration.codecs[0].configuration.scale = 0;
  assert.deepEqual(
    z.validate(broken).errors.map((e) => [e.path, e.code]),
    [['/codecs/0/configuration/codecs/0/configuration/scale', 'invalid_metadata']],
  );
  // bool: valid, a warning that values are not checked, not decodable.
  const [, b] = fixtures('valid').find(([n]) => n === 'v3_bool.json');
  const rb = z.validate(b);
  assert.equal(rb.valid, true);
  assert.deepEqual(rb.warnings.map((w) => [w.path, w.code]), [['/data_type', 'unchecked_data_type']]);
  assert.deepEqual(rb.unsupported.map((u) => [u.path, u.code]), [['/data_type', 'unsupported_data_type'], ['/codecs/1', 'unsupported_codec']]);
  // Our own documents are decodable; a codec no spec defines stays an error.
  const ours = doc('float32', 0, [{ name: 'scale_offset', configuration: { scale: 2 } }, { name: 'bytes', configuration: { endian: 'little' } }]);
  assert.deepEqual(z.validate(ours), { valid: true, errors: [], warnings: [], decodable: true, unsupported: [] });
  const unknown = z.validate({ ...ours, codecs: [...ours.codecs, { name: 'gzip2' }] });
  assert.deepEqual([unknown.valid, unknown.errors.map((e) => [e.path, e.code])], [false, [['/codecs/2', 'unsupported_codec']]]);
});

test('validate: the metadata_errors vectors are still all invalid', () => {
  const cases = JSON.parse(readFileSync(fileURLToPath(new URL('../../conformance/vectors/metadata_errors.json', import.meta.url)), 'utf8'));
  let invalid = 0;
  for (const c of cases) {
    const r = z.validate(c.metadata);
    assert.equal(r.valid, false, c.id);
    invalid++;
  }
  console.log(`metadata_errors: ${invalid} of ${cases.length} vectors invalid`);
  assert.equal(invalid, cases.length);
});

test('validate: v2 .zarray documents of non-numeric dtypes (object strings, bool, unicode, datetime) are valid, not decodable', () => {
  const zarray = (dtype, fill, filters) => ({ zarr_format: 2, shape: [8], chunks: [4], dtype, fill_value: fill, order: 'C', filters, compressor: { id: 'zstd', level: 3 } });
  for (const [dtype, fill, filters] of [['|O', '', [{ id: 'vlen-utf8' }]], ['|b1', false, null], ['<U8', '', null], ['<M8[ns]', 'NaT', null], ['<c16', null, null]]) {
    const r = z.validate(zarray(dtype, fill, filters));
    assert.equal(r.valid, true, `${dtype}: ${JSON.stringify(r.errors)}`);
    assert.equal(r.decodable, false);
    assert.ok(r.warnings.some((w) => w.code === 'unchecked_data_type' && w.path === '/dtype'), dtype);
    assert.ok(r.unsupported.some((u) => u.path === '/dtype'), dtype);
  }
  // an object array without its object codec, and a spelling NumPy does not have
  assert.deepEqual(z.validate(zarray('|O', '', null)).errors.map((e) => e.path), ['/filters']);
  assert.deepEqual(z.validate(zarray('<f3', 0, null)).errors.map((e) => [e.path, e.code]), [['/dtype', 'unsupported_data_type']]);
});
