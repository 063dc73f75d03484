// archivePdf (archive.ts) where it costs the event loop nothing: a long document's PDF in a worker thread
// (archive-worker.ts, through workers/jobs.ts), a short one on the loop at its turn (cpu-turns.ts). Under load a
// 40-page PDF's update took 26 ms alone and 45-150 ms with Chromium on both cores, on the loop; one page takes about
// 1 ms, less than the trip to a thread and back. The result and its errors are archivePdf's own.
// Must not know about documents or HTTP.
import path from 'node:path';
import { inTurn } from '../cpu-turns';
import { WorkerJobs } from '../workers/jobs';
import { archivePdf } from './archive';
import type { PdfMetadata } from './metadata';

/** From this size on (bytes: about 10 pages of a statement) a PDF is archived in the worker thread. */
export const ARCHIVE_OFF_THREAD_BYTES = 256 * 1024;

export interface ArchiveJob {
  pdf: Uint8Array;
  meta: PdfMetadata;
  producer: string;
  now: Date;
}

const jobs = new WorkerJobs<ArchiveJob, Uint8Array>(path.join(__dirname, 'archive-worker'));

/** archivePdf(pdf, meta, producer, now), off the event loop when the PDF is long. */
export async function archivePdfOffLoop(pdf: Uint8Array, meta: PdfMetadata, producer: string, now = new Date()): Promise<Uint8Array> {
  if (pdf.byteLength < ARCHIVE_OFF_THREAD_BYTES) return inTurn(() => archivePdf(pdf, meta, producer, now));
  return jobs.run({ pdf, meta, producer, now });
}
