// CPU-heavy work run in a worker thread, so that the main event loop never runs it (the guide: no request may hold the
// loop for long). A WorkerJobs is one worker (a WorkerPool of one, workers/pool.ts), started on first use and unref'd
// while it has nothing to do (it never keeps a process alive); a worker that dies is replaced on the next job and the
// job it held fails. serveJobs() and serveJobsWhenLoaded() are the worker's side (of a WorkerJobs or a WorkerPool).
// Jobs are plain data both ways (structured clone); an error comes back as its message and a flag saying whether it
// was the domain's own refusal (`expected`) or a defect.
// Must not know what the jobs are.
import type { ResourceLimits } from 'node:worker_threads';
import { WorkerPool } from './pool';
import { workerPort } from './port';

export { WorkerDeadlineError } from './pool';

export class WorkerJobs<In, Out> {
  private readonly pool: WorkerPool<In, Out>;

  /**
   * @param file the worker module's path without extension (`.ts` under tsx, `.js` built), beside the caller
   * @param expectedError makes the error of an `expected` failure (the domain's own error class)
   * @param opts.resourceLimits the worker's heap (a worker over it dies: its job fails with code ERR_WORKER_OUT_OF_MEMORY)
   */
  constructor(
    file: string,
    expectedError: (message: string) => Error = (m) => new Error(m),
    opts: { resourceLimits?: ResourceLimits } = {},
  ) {
    this.pool = new WorkerPool<In, Out>({ file, size: 1, lazy: true, expectedError, resourceLimits: opts.resourceLimits });
  }

  /** `input` computed in the worker; past `deadlineMs` of running the job fails with WorkerDeadlineError and the
   * worker is terminated (the next job starts another). */
  run(input: In, transfer: ArrayBuffer[] = [], deadlineMs?: number): Promise<Out> {
    return this.pool.run(input, { transfer, timeoutMs: deadlineMs });
  }
}

/** The worker's side: answers every job with `fn`'s output (its ArrayBuffers transferred when `transfer` names them). */
export function serveJobs<In, Out>(
  fn: (input: In) => Out | Promise<Out>,
  opts: {
    expected?: (err: unknown) => boolean;
    transfer?: (output: Out) => ArrayBuffer[];
    /** Asked after each job: true makes this worker retire (it answers the jobs it holds, then is ended). */
    retireWhen?: () => boolean;
  } = {},
): void {
  const port = workerPort();
  const retire = () => (opts.retireWhen?.() ? { retire: true } : {});
  port.onMessage((message) => {
    const { id, input } = message as { id: number; input: In };
    Promise.resolve()
      .then(() => fn(input))
      .then(
        (output) => port.postMessage({ id, output, ...retire() }, opts.transfer?.(output) ?? []),
        (err: unknown) =>
          port.postMessage({
            id,
            error: { message: err instanceof Error ? err.message : String(err), expected: opts.expected?.(err) ?? false },
            ...retire(),
          }),
      );
  });
}

/** The worker's side of a pool whose workers load first (WorkerPoolOptions.announcesReady): `load()` once, then
 * `{ ready: true }` and every job answered with `fn(loaded, input)`; a failed load posts `{ ready: false, error }`. */
export function serveJobsWhenLoaded<State, In, Out>(
  load: () => Promise<State>,
  fn: (state: State, input: In) => Out | Promise<Out>,
  opts: { expected?: (err: unknown) => boolean; transfer?: (output: Out) => ArrayBuffer[] } = {},
): void {
  const port = workerPort();
  load().then(
    (state) => {
      serveJobs((input: In) => fn(state, input), opts);
      port.postMessage({ ready: true });
    },
    (err: unknown) => port.postMessage({ ready: false, error: err instanceof Error ? err.message : String(err) }),
  );
}
