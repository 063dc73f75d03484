// Worker thread that makes long PDFs PDF/A-3a and PDF/UA-1 (archive.ts) off the main event loop (archive-thread.ts).
// It only runs archivePdf on what it is sent; it keeps no state between jobs.
import { serveJobs } from '../workers/jobs';
import { archivePdf } from './archive';
import type { ArchiveJob } from './archive-thread';

/** The archived file as a Uint8Array that owns its whole ArrayBuffer (transferred back, not copied). */
function archived({ pdf, meta, producer, now }: ArchiveJob): Uint8Array {
  const out = archivePdf(pdf, meta, producer, now);
  return out.byteOffset === 0 && out.byteLength === out.buffer.byteLength
    ? new Uint8Array(out.buffer, 0, out.byteLength)
    : new Uint8Array(out);
}

serveJobs(archived, { transfer: (pdf) => [pdf.buffer as ArrayBuffer] });
