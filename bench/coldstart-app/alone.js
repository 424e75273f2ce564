// zarrita alone (its own scale_offset and cast_value).
import * as zarr from 'zarrita';
import { firstChunk } from './first-chunk.js';
import { report, STORE } from './page.js';

report(firstChunk(zarr, new zarr.FetchStore(STORE), null));
