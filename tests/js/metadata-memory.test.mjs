// Issue 12, class 1: metadata memory is bounded by a small multiple of the text for any
// document. A zarr.json whose `attributes` hold 100 MiB and 250 MiB of numbers decodes a chunk
// correctly (the attributes are skip-parsed: syntax and duplicate keys checked, no tree built),
// wasm memory after the call stays within 4x the text plus 16 MiB, and a normal decode afterwards
// is right. The same bulk in a member the reader reads is refused with a `.code` (the cap of
// 262,144 JSON values per document), not a trap. Memory is the WebAssembly.Memory's
// buffer.byteLength (it never shrinks: this is the high-water mark). Node only: the text is
// built once per size (a browser adds nothing here: the same wasm and glue).

import { test } from 'node:test';
import assert from 'node:assert/strict';

import * as z from 'zarr-scale-offset';
import { initSync } from '../../dist/zarr_scale_offset.js';

await z.ready();
const wasmExports = initSync(); // after ready(): the instance's exports
const memoryBytes = () => wasmExports.memory.buffer.byteLength;
const MiB = 1 << 20;

const head = (extra) =>
  '{"zarr_format":3,"node_type":"array","shape":[4],"data_type":"float32",' +
  '"chunk_grid":{"name":"regular","configuration":{"chunk_shape":[4]}},' +
  '"chunk_key_encoding":{"name":"default"},"fill_value":0,' +
  '"codecs":[{"name":"scale_offset","configuration":{"offset":1000,"scale":10}},' +
  '{"name":"cast_value","configuration":{"data_type":"int16"}},' +
  '{"name":"bytes","configuration":{"endian":"little"}}]' +
  extra +
  '}';

// A zarr.json of exactly `bytes` bytes (ASCII) whose attributes hold numbers: 8 bytes each.
function hugeDoc(bytes, member = 'attributes') {
  const start = head(`,"${member}":{"numbers":[`);
  const end = '0]}}';
  // head() ends with '}': drop it, the attributes close the document.
  const prefix = start.slice(0, -1);
  const body = bytes - prefix.length - end.length;
  const unit = '1234.5e1,'; // 9 bytes
  const pad = body % unit.length;
  const text = prefix + unit.repeat(Math.floor(body / unit.length)) + ' '.repeat(pad) + end;
  assert.equal(text.length, bytes);
  return text;
}

const stored = new Uint8Array(new Int16Array([0, 5, -10, 20]).buffer);
const want = new Float32Array([1000, 1000.5, 999, 1002]);
const small = head('');

test('a normal decode is right before', () => {
  assert.deepEqual(z.decodeChunk(small, stored), want);
});

for (const size of [100 * MiB, 250 * MiB]) {
  test(`a ${size / MiB} MiB zarr.json (huge attributes) decodes; memory <= 4x text + 16 MiB`, () => {
    let text = hugeDoc(size);
    const t0 = performance.now();
    const out = z.decodeChunk(text, stored);
    const ms = performance.now() - t0;
    assert.deepEqual(out, want);
    const after = memoryBytes();
    const bound = 4 * size + 16 * MiB;
    console.log(`# ${size / MiB} MiB text: decodeChunk ${ms.toFixed(0)} ms, wasm memory after ${(after / MiB).toFixed(1)} MiB (bound ${bound / MiB} MiB)`);
    assert.ok(after <= bound, `wasm memory ${after} B > ${bound} B`);
    if (size === 100 * MiB) {
      assert.equal(z.arrayDataType(text), 'float32');
      assert.deepEqual(z.metadataWarnings(text), []);
      // A duplicate key inside the skipped attributes is still invalid_metadata, at its
      // pointer; a syntax error in them is invalid_json.
      text = text.replace('{"numbers":[', '{"k":1,"k":2,"numbers":[');
      assert.throws(() => z.decodeChunk(text, stored), (e) => e.code === 'invalid_metadata' && e.message.includes('/attributes/k'));
      text = text.slice(0, -10) + ',,' + text.slice(-8);
      assert.throws(() => z.decodeChunk(text, stored), (e) => e.code === 'invalid_json');
      assert.ok(memoryBytes() <= bound);
    }
    // A normal decode afterwards is right.
    assert.deepEqual(z.decodeChunk(small, stored), want);
  });
}

test('the same bulk where the reader reads it: invalid_metadata (the value cap), not a trap', () => {
  const text = hugeDoc(20 * MiB, 'dimension_names');
  const before = memoryBytes();
  assert.throws(
    () => z.decodeChunk(text, stored),
    (e) => e.code === 'invalid_metadata' && e.message.includes('more than 262144 JSON values'),
  );
  const r = z.validate(text);
  assert.equal(r.valid, false);
  assert.equal(r.errors[0].code, 'invalid_metadata');
  // At most 262,144 values were built: memory did not grow past the text's copy and the cap.
  assert.ok(memoryBytes() <= Math.max(before, 4 * text.length + 16 * MiB));
  assert.deepEqual(z.decodeChunk(small, stored), want);
});

test('the JS chunk-info cache keeps no huge text and holds at most 1 MiB', () => {
  const internal = z._chunkInfoCacheUsage;
  assert.equal(typeof internal, 'function');
  const big = hugeDoc(8 * MiB);
  for (let i = 0; i < 3; i++) assert.deepEqual(z.decodeChunk(big, stored), want);
  for (let i = 0; i < 2000; i++) {
    const m = head(`,"attributes":{"i":${i},"pad":"${'x'.repeat(i % 7 === 0 ? 60000 : 10)}"}`);
    assert.deepEqual(z.decodeChunk(m, stored), want);
    const u = internal();
    assert.ok(u.bytes <= 1 << 20, `${u.bytes}`);
  }
  const u = internal();
  assert.ok(u.entries > 16, `small texts are still cached (${u.entries})`);
});
