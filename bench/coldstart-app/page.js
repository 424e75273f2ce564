// What both pages report: the time from the request of the page's entry script (resource
// timing; the "module import") and from navigation start to the first decoded chunk.
export function report(promise) {
  promise.then(
    (chunk) => {
      const now = performance.now();
      const entry = performance.getEntriesByName(import.meta.url)[0] ?? performance.getEntriesByType('resource').find((e) => e.initiatorType === 'script');
      const t0 = entry?.startTime ?? 0;
      window.__cold = { ms: now - t0, t0, sinceNavigation: now, chunk };
    },
    (e) => {
      window.__cold = { error: `${e.name}: ${e.message}${e.cause ? ` <- ${e.cause.message}` : ''}` };
    },
  );
}

export const STORE = new URL('/tests/fixtures/stores/topobathy.zarr', location.origin).href;
