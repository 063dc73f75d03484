// Worker thread that merges a batch's PDFs (merge.ts) off the main event loop (merge-thread.ts). It only merges what
// it is sent; it keeps no state between jobs.
import { serveJobs } from '../workers/jobs';
import { PdfMerger } from './merge';
import type { MergeJob } from './merge-thread';

async function merged({ pdfs, meta, producer, now }: MergeJob): Promise<Uint8Array> {
  const merger = new PdfMerger();
  for (const pdf of pdfs) await merger.add(pdf);
  const out = await merger.save(meta, producer, now);
  return out.byteOffset === 0 && out.byteLength === out.buffer.byteLength
    ? new Uint8Array(out.buffer, 0, out.byteLength)
    : new Uint8Array(out);
}

serveJobs(merged, { transfer: (pdf) => [pdf.buffer as ArrayBuffer] });
