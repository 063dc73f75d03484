// The door to pdfa3-worker.ts: toPdfA3 run in a worker thread, so that the main event loop never runs pdf-lib.
// One worker serves the process (started on first use, unref'd so that it never keeps a process alive); a worker
// that dies is replaced and the jobs it held fail. The result and its errors are toPdfA3's own.
// Must not know about invoices or HTTP.
import path from 'node:path';
import { Worker } from 'node:worker_threads';
import { PdfA3Error, type PdfA3Input } from './pdfa3';

interface Pending {
  resolve: (pdf: Uint8Array) => void;
  reject: (err: Error) => void;
}

interface Answer {
  id: number;
  pdf?: Uint8Array;
  error?: { message: string; pdfa3: boolean };
}

let worker: Worker | undefined;
const pending = new Map<number, Pending>();
let nextId = 1;

function failAll(err: Error): void {
  for (const p of pending.values()) p.reject(err);
  pending.clear();
}

function started(): Worker {
  if (worker) return worker;
  const ts = __filename.endsWith('.ts');
  // Under tsx (development, tests) the worker needs the TypeScript loader too.
  const w = new Worker(path.join(__dirname, `pdfa3-worker.${ts ? 'ts' : 'js'}`), { execArgv: ts ? ['--require', 'tsx/cjs'] : [] });
  w.unref();
  w.on('message', (m: Answer) => {
    const p = pending.get(m.id);
    pending.delete(m.id);
    if (!p) return;
    if (m.pdf) p.resolve(m.pdf);
    else p.reject(m.error?.pdfa3 ? new PdfA3Error(m.error.message) : new Error(m.error?.message ?? 'the PDF/A-3 worker failed'));
    if (pending.size === 0) w.unref();
  });
  w.on('error', (err) => failAll(err));
  w.on('exit', (code) => {
    if (worker === w) worker = undefined;
    failAll(new Error(`the PDF/A-3 worker exited (${code})`));
  });
  worker = w;
  return w;
}

/** toPdfA3(input), computed in the worker thread. */
export function toPdfA3OffThread(input: PdfA3Input): Promise<Uint8Array> {
  const w = started();
  const id = nextId++;
  return new Promise((resolve, reject) => {
    pending.set(id, { resolve, reject });
    // Referenced while a job is out, so that a process waiting for it is not ended under it.
    w.ref();
    w.postMessage({ id, input });
  });
}
