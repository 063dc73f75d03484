// Worker thread that packages PDF/A-3 Factur-X files (pdfa3.ts) off the main event loop. @cantoo/pdf-lib parses and
// rewrites the whole PDF in JavaScript: 15-50 ms of CPU for a one-page invoice and 170-300 ms for eight pages, which
// held every other request that long when it ran on the main thread (found by the fuzz suite,
// test/e2e/fuzz-fields.test.ts).
// It only runs toPdfA3 on what it is sent; it keeps no state between jobs.
import { serveJobs } from '../workers/jobs';
import { PdfA3Error, toPdfA3 } from './pdfa3';

serveJobs(toPdfA3, { expected: (err) => err instanceof PdfA3Error, transfer: (pdf) => [pdf.buffer as ArrayBuffer] });
