// Worker thread of the received-PDF reader (facturx-pdf.ts): runs readPdf on each PDF it is sent and nothing else.
// pdf-bounds.ts changes @cantoo/pdf-lib for this whole thread, which is why the reader has a worker of its own. The
// worker retires (the pool ends it and starts another at the next read) once it has parsed RETIRE_OBJECTS objects
// or read RETIRE_JOBS files: pdf-lib interns every name and object reference it ever parses (PDFName.of, PDFRef.of)
// and never lets them go, so a long-lived worker would keep what hostile files put there.
import { parentPort } from 'node:worker_threads';
import { serveJobs } from '../../workers/jobs';
import { objectsParsedEver } from './pdf-bounds';
import { readPdf, UnreadablePdf } from './facturx-pdf-read';

const RETIRE_OBJECTS = 1_000_000;
const RETIRE_JOBS = 1000;
let jobs = 0;

serveJobs(readPdf, {
  expected: (err) => err instanceof UnreadablePdf,
  transfer: (out) => [out.xml.buffer as ArrayBuffer],
  retireWhen: () => ++jobs >= RETIRE_JOBS || objectsParsedEver() >= RETIRE_OBJECTS,
});
// Loaded (pdf-bounds.ts installed): the pool (announcesReady) starts deadlines from here, not from the thread's start.
parentPort!.postMessage({ ready: true });
