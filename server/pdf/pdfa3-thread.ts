// toPdfA3 (pdfa3.ts) run in a worker thread (pdfa3-worker.ts, through workers/jobs.ts), so that the main event loop
// never runs pdf-lib. The result and its errors are toPdfA3's own. Must not know about invoices or HTTP.
import path from 'node:path';
import { WorkerJobs } from '../workers/jobs';
import { PdfA3Error, type PdfA3Input } from './pdfa3';

const jobs = new WorkerJobs<PdfA3Input, Uint8Array>(path.join(__dirname, 'pdfa3-worker'), (message) => new PdfA3Error(message));

/** toPdfA3(input), computed in the worker thread. */
export function toPdfA3OffThread(input: PdfA3Input): Promise<Uint8Array> {
  return jobs.run(input);
}
