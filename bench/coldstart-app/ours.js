// zarrita + zarr-scale-offset/zarrita (resolved to dist/zarrita.js by bench/coldstart.mjs).
import * as zarr from 'zarrita';
import { register } from 'zarr-scale-offset/zarrita';
import { firstChunk } from './first-chunk.js';
import { report, STORE } from './page.js';

report(firstChunk(zarr, new zarr.FetchStore(STORE), register));
