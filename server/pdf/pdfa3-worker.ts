// Worker thread that packages PDF/A-3 Factur-X files (pdfa3.ts) off the main event loop. @cantoo/pdf-lib parses and
// rewrites the whole PDF in JavaScript: 15-50 ms of CPU for a one-page invoice and 170-300 ms for eight pages, which
// held every other request that long when it ran on the main thread (found by the fuzz suite of issue 24).
// It only runs toPdfA3 on what it is sent and answers with the bytes or the error; it keeps no state between jobs.
import { parentPort } from 'node:worker_threads';
import { PdfA3Error, toPdfA3, type PdfA3Input } from './pdfa3';

interface Job {
  id: number;
  input: PdfA3Input;
}

const port = parentPort!;
port.on('message', (job: Job) => {
  toPdfA3(job.input).then(
    (pdf) => port.postMessage({ id: job.id, pdf }, [pdf.buffer as ArrayBuffer]),
    (err: Error) => port.postMessage({ id: job.id, error: { message: err.message, pdfa3: err instanceof PdfA3Error } }),
  );
});
