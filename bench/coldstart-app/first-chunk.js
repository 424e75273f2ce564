// The measured work of bench/coldstart.mjs, the same in Node and in the Vite pages: open the
// array of a store and decode its chunk [0, 0], with zarrita alone (`register` null) or after
// `register(zarr.registry)` of zarr-scale-offset/zarrita, as the README says to call it.
// Also returns when each step ended (performance.now(), ms): `at.start` (the call, i.e. after the
// imports), `at.registered`, `at.opened`, `at.decoded`.
export async function firstChunk(zarr, store, register) {
  const at = { start: performance.now() };
  if (register) {
    const before = zarr.registry.get('scale_offset');
    const registered = register(zarr.registry);
    // An adapter that fills the registry only once the module is ready (before issue 13) must be
    // awaited before the first read; one that sets its entries at once need not be.
    if (zarr.registry.get('scale_offset') === before) await registered;
  }
  at.registered = performance.now();
  const arr = await zarr.open(store, { kind: 'array' });
  at.opened = performance.now();
  const chunk = await arr.getChunk([0, 0]);
  at.decoded = performance.now();
  return { dtype: arr.dtype, length: chunk.data.length, first: Number(chunk.data[0]), sum: sum(chunk.data), at };
}

function sum(data) {
  let s = 0;
  for (const v of data) if (!Number.isNaN(Number(v))) s += Number(v);
  return s;
}
