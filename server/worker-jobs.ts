// CPU-heavy work run in a worker thread, so that the main event loop never runs it (the guide: no request may hold the
// loop for long). A WorkerJobs is one worker, started on first use and unref'd while it has nothing to do (it never
// keeps a process alive); a worker that dies is replaced on the next job and the jobs it held fail. serveJobs() is
// the worker's side. Jobs are plain data both ways (structured clone); an error comes back as its message and a flag
// saying whether it was the domain's own refusal (`expected`) or a defect.
// Must not know what the jobs are.
import path from 'node:path';
import { parentPort, Worker } from 'node:worker_threads';

interface Answer<Out> {
  id: number;
  output?: Out;
  error?: { message: string; expected: boolean };
}

interface Pending<Out> {
  resolve: (output: Out) => void;
  reject: (err: Error) => void;
}

export class WorkerJobs<In, Out> {
  private worker: Worker | undefined;
  private readonly pending = new Map<number, Pending<Out>>();
  private nextId = 1;

  /**
   * @param file the worker module's path without extension (`.ts` under tsx, `.js` built), beside the caller
   * @param expectedError makes the error of an `expected` failure (the domain's own error class)
   */
  constructor(
    private readonly file: string,
    private readonly expectedError: (message: string) => Error = (m) => new Error(m),
  ) {}

  run(input: In, transfer: ArrayBuffer[] = []): Promise<Out> {
    const worker = this.started();
    const id = this.nextId++;
    return new Promise<Out>((resolve, reject) => {
      this.pending.set(id, { resolve, reject });
      // Referenced while a job is out, so that a process waiting for it is not ended under it.
      worker.ref();
      worker.postMessage({ id, input }, transfer);
    });
  }

  private started(): Worker {
    if (this.worker) return this.worker;
    const ts = __filename.endsWith('.ts');
    // Under tsx (development, tests) the worker needs the TypeScript loader too.
    const w = new Worker(`${this.file}.${ts ? 'ts' : 'js'}`, { execArgv: ts ? ['--require', 'tsx/cjs'] : [] });
    w.unref();
    w.on('message', (m: Answer<Out>) => {
      const p = this.pending.get(m.id);
      this.pending.delete(m.id);
      if (this.pending.size === 0) w.unref();
      if (!p) return;
      if (m.error) p.reject(m.error.expected ? this.expectedError(m.error.message) : new Error(m.error.message));
      else p.resolve(m.output as Out);
    });
    w.on('error', (err) => this.failAll(err));
    w.on('exit', (code) => {
      if (this.worker === w) this.worker = undefined;
      this.failAll(new Error(`the worker ${path.basename(this.file)} exited (${code})`));
    });
    this.worker = w;
    return w;
  }

  private failAll(err: Error): void {
    for (const p of this.pending.values()) p.reject(err);
    this.pending.clear();
  }
}

/** The worker's side: answers every job with `fn`'s output (its ArrayBuffers transferred when `transfer` names them). */
export function serveJobs<In, Out>(
  fn: (input: In) => Out | Promise<Out>,
  opts: { expected?: (err: unknown) => boolean; transfer?: (output: Out) => ArrayBuffer[] } = {},
): void {
  const port = parentPort!;
  port.on('message', ({ id, input }: { id: number; input: In }) => {
    Promise.resolve()
      .then(() => fn(input))
      .then(
        (output) => port.postMessage({ id, output }, opts.transfer?.(output) ?? []),
        (err: unknown) =>
          port.postMessage({
            id,
            error: { message: err instanceof Error ? err.message : String(err), expected: opts.expected?.(err) ?? false },
          }),
      );
  });
}
