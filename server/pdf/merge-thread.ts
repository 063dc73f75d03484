// PDFs merged into one (merge.ts) in a worker thread (merge-worker.ts, through workers/jobs.ts): @cantoo/pdf-lib
// parses and copies every page of every document, 60-110 ms of a loop for a batch of 20 short statements. The result
// and its errors are PdfMerger's own. Must not know about documents or HTTP.
import path from 'node:path';
import { WorkerJobs } from '../workers/jobs';
import type { PdfMetadata } from './metadata';

export interface MergeJob {
  pdfs: Uint8Array[];
  meta: PdfMetadata;
  producer: string;
  now: Date;
}

const jobs = new WorkerJobs<MergeJob, Uint8Array>(path.join(__dirname, 'merge-worker'));

/** Every page of `pdfs` in order, one tagged PDF/A-3a and PDF/UA-1 file (PdfMerger), made in the worker thread. */
export function mergePdfsOffLoop(pdfs: Uint8Array[], meta: PdfMetadata, producer: string, now = new Date()): Promise<Uint8Array> {
  return jobs.run({ pdfs, meta, producer, now });
}
