// A pool of worker threads running CPU-heavy jobs off the main event loop: a FIFO queue in front of `size` workers,
// one job per worker at a time. Optional, per pool: workers that load something first and announce when they are
// ready (jobs wait for that), a deadline per job (the worker running it past the deadline is terminated and replaced:
// a synchronous computation cannot be interrupted any other way), a bound on the queue, a memory limit per worker,
// and cancellation of a job by an AbortSignal (queued: dropped; running: its worker terminated and replaced).
// A worker that dies (crash, out of memory) fails the job it held and is replaced; the other jobs go on. Workers are
// unref'd while they have nothing to do, so a pool never keeps a process alive. serveJobs() / serveJobsWhenLoaded()
// (workers/jobs.ts) are the workers' side; jobs are plain data both ways (structured clone).
// Workers are threads, or child processes (workers/child-process.ts) where the pool must be able to stop them in the middle of
// a job: suspend() stops every worker holding a job (SIGSTOP) and its deadline with it, resume() lets them go on.
// Must not know what the jobs are.
import path from 'node:path';
import { Worker, type ResourceLimits } from 'node:worker_threads';
import { WorkerProcess } from './child-process';

/** A job refused or stopped by the pool itself (not the job's own failure). `code` is the worker's own error code
 * when it died of one (`ERR_WORKER_OUT_OF_MEMORY` over its resourceLimits). */
export class WorkerPoolError extends Error {
  constructor(
    readonly reason: 'busy' | 'timeout' | 'crashed' | 'closed' | 'unavailable',
    message: string,
    readonly code?: string,
  ) {
    super(message);
    this.name = 'WorkerPoolError';
  }
}

/** A job that ran past its deadline (its worker was terminated and replaced). */
export class WorkerDeadlineError extends WorkerPoolError {
  constructor(readonly ms: number) {
    super('timeout', `the job ran longer than ${ms} ms`);
    this.name = 'WorkerDeadlineError';
  }
}

export interface WorkerPoolOptions {
  /** The worker module's path without extension (`.ts` under tsx, `.js` built). */
  file: string;
  /** Number of workers. */
  size: number;
  /** Given to every worker (its `workerData`; JSON for processes). */
  workerData?: unknown;
  /** Workers are child processes (workers/child-process.ts), which suspend() can stop; else threads. */
  processes?: boolean;
  /** The workers post `{ ready: true }` (or `{ ready: false, error }`) once loaded; jobs wait for it. */
  announcesReady?: boolean;
  /** Workers start with the first job (and a dead one is replaced at the next job), not at construction. */
  lazy?: boolean;
  /** Longest time (ms) one job may run on a worker: past it the job fails (WorkerDeadlineError) and the worker is
   * replaced. A job's own `timeoutMs` wins. */
  timeoutMs?: number;
  /** Jobs that may wait for a worker; beyond that a job is refused at once (`busy`). */
  queueLimit?: number;
  resourceLimits?: ResourceLimits;
  /** Makes the error of an `expected` failure (the domain's own error class). */
  expectedError?: (message: string) => Error;
  /** A worker was replaced (`crashed`, `timeout`, `aborted`) or could not load (`load_failed`): for the log. */
  onEvent?: (event: 'crashed' | 'timeout' | 'aborted' | 'load_failed', detail: Record<string, unknown>) => void;
}

export interface RunOptions {
  transfer?: ArrayBuffer[];
  /** This job's deadline (ms of running on a worker), instead of the pool's. */
  timeoutMs?: number;
  /** Cancels the job: dropped while it waits, its worker terminated (and replaced) while it runs. */
  signal?: AbortSignal;
}

interface Job<In, Out> {
  id: number;
  input: In;
  transfer: ArrayBuffer[];
  signal: AbortSignal | undefined;
  timeoutMs: number | undefined;
  onAbort: (() => void) | undefined;
  resolve: (output: Out) => void;
  reject: (err: Error) => void;
}

/** What the pool needs of a worker, thread or process. */
interface PoolWorker {
  on(event: 'message', listener: (message: unknown) => void): unknown;
  on(event: 'error', listener: (err: Error) => void): unknown;
  on(event: 'exit', listener: (code: number) => void): unknown;
  postMessage(message: unknown, transfer?: readonly ArrayBuffer[]): void;
  terminate(): Promise<number>;
  ref(): void;
  unref(): void;
  /** Process workers only: the process id; stop where it is, go on. */
  readonly pid?: number;
  pause?(): void;
  resume?(): void;
}

interface Slot<In, Out> {
  worker: PoolWorker | undefined;
  ready: boolean;
  job: Job<In, Out> | undefined;
  timer: NodeJS.Timeout | undefined;
  /** The running job's deadline (ms of the clock), while it runs; its time left while the pool is suspended. */
  deadlineAt: number | undefined;
  leftMs: number | undefined;
}

interface Answer<Out> {
  id?: number;
  ready?: boolean;
  /** The worker asks to be ended after this answer (serveJobs' retireWhen). */
  retire?: boolean;
  output?: Out;
  error?: { message: string; expected: boolean } | string;
}

export interface WorkerPoolStats {
  size: number;
  ready: number;
  busy: number;
  queued: number;
}

export class WorkerPool<In, Out> {
  private readonly slots: Slot<In, Out>[];
  private readonly queue: Job<In, Out>[] = [];
  private nextId = 1;
  private closed = false;
  /** The last load failure (a worker that could not load its files), until a worker loads. */
  private loadError: Error | undefined;
  private readonly firstReady: Promise<void>;
  private settleFirst!: { resolve: () => void; reject: (err: Error) => void };
  /** suspend() calls not yet matched by resume() (each holder of the pool suspends and resumes it on its own). */
  private suspensions = 0;
  private get suspended(): boolean {
    return this.suspensions > 0;
  }

  constructor(private readonly opts: WorkerPoolOptions) {
    this.slots = Array.from({ length: Math.max(1, opts.size) }, () => ({
      worker: undefined,
      ready: false,
      job: undefined,
      timer: undefined,
      deadlineAt: undefined,
      leftMs: undefined,
    }));
    this.firstReady = new Promise((resolve, reject) => (this.settleFirst = { resolve, reject }));
    this.firstReady.catch(() => undefined);
    if (!opts.lazy) for (const slot of this.slots) this.spawn(slot);
  }

  /** Resolves when every worker of the first generation has loaded; rejects with the first load failure. */
  ready(): Promise<void> {
    if (this.opts.lazy) return Promise.resolve();
    return this.firstReady;
  }

  run(input: In, opts: RunOptions = {}): Promise<Out> {
    if (this.closed) return Promise.reject(new WorkerPoolError('closed', 'the worker pool is closed'));
    if (opts.signal?.aborted) return Promise.reject(abortReason(opts.signal));
    const idle = this.slots.some((s) => s.ready && !s.job) || (this.opts.lazy && this.slots.some((s) => !s.worker));
    if (!idle && this.queue.length >= (this.opts.queueLimit ?? Infinity)) {
      return Promise.reject(new WorkerPoolError('busy', `all ${this.slots.length} workers are busy and ${this.queue.length} jobs wait`));
    }
    if (this.loadError && !this.slots.some((s) => s.ready)) {
      // No worker could load: try again (the files may be back), but do not queue behind a broken pool.
      for (const slot of this.slots) if (!slot.worker) this.spawn(slot);
    }
    return new Promise<Out>((resolve, reject) => {
      const job: Job<In, Out> = {
        id: this.nextId++,
        input,
        transfer: opts.transfer ?? [],
        signal: opts.signal,
        timeoutMs: opts.timeoutMs ?? this.opts.timeoutMs,
        onAbort: undefined,
        resolve,
        reject,
      };
      if (opts.signal) {
        job.onAbort = () => this.abort(job);
        opts.signal.addEventListener('abort', job.onAbort, { once: true });
      }
      this.queue.push(job);
      this.dispatch();
    });
  }

  /** Stops every worker that holds a job, where it is, and their deadlines with them; the jobs started while
   * suspended are stopped as they start. Only process workers can be stopped: for threads it does nothing. Each
   * call needs its resume(): the pool goes on when every suspension is resumed. */
  suspend(): void {
    if (!this.opts.processes || this.closed) return;
    if (this.suspensions++ > 0) return;
    const now = performance.now();
    for (const slot of this.slots) if (slot.job) this.hold(slot, now);
  }

  /** Ends one suspension; with the last, the stopped workers go on, each with the time its deadline had left. */
  resume(): void {
    if (!this.suspended) return;
    if (--this.suspensions > 0) return;
    for (const slot of this.slots) {
      if (!slot.job) continue;
      slot.worker?.resume?.();
      if (slot.leftMs !== undefined) this.arm(slot, slot.job, slot.leftMs);
      slot.leftMs = undefined;
    }
  }

  /** The process ids of process workers (diagnostics, tests); none for threads. */
  processIds(): number[] {
    return this.slots.flatMap((s) => {
      const pid = s.worker?.pid;
      return pid !== undefined ? [pid] : [];
    });
  }

  stats(): WorkerPoolStats {
    return {
      size: this.slots.length,
      ready: this.slots.filter((s) => s.ready).length,
      busy: this.slots.filter((s) => s.job).length,
      queued: this.queue.length,
    };
  }

  async close(): Promise<void> {
    if (this.closed) return;
    this.closed = true;
    const err = new WorkerPoolError('closed', 'the worker pool was closed');
    for (const job of this.queue.splice(0)) this.settle(job, err);
    this.settleFirst.reject(err);
    await Promise.all(
      this.slots.map(async (slot) => {
        if (slot.job) this.settle(slot.job, err);
        this.clear(slot);
        const w = slot.worker;
        slot.worker = undefined;
        slot.ready = false;
        await w?.terminate();
      }),
    );
  }

  /** A new worker (a thread, or a process) running the pool's file; under tsx with the TypeScript loader too. */
  private newWorker(): PoolWorker {
    const ts = __filename.endsWith('.ts');
    // Under tsx (development, tests) the worker needs the TypeScript loader too.
    const file = `${this.opts.file}.${ts ? 'ts' : 'js'}`;
    const execArgv = ts ? ['--require', 'tsx/cjs'] : [];
    return this.opts.processes
      ? new WorkerProcess(file, {
          workerData: this.opts.workerData,
          execArgv,
          maxOldGenerationSizeMb: this.opts.resourceLimits?.maxOldGenerationSizeMb,
        })
      : new Worker(file, { workerData: this.opts.workerData, execArgv, resourceLimits: this.opts.resourceLimits });
  }

  /** Starts `slot`'s worker and listens to it. */
  private spawn(slot: Slot<In, Out>): void {
    const worker = this.newWorker();
    slot.worker = worker;
    slot.ready = !this.opts.announcesReady;
    // Referenced while it loads or works, so that a process waiting for it is not ended under it.
    if (slot.ready) worker.unref();
    worker.on('message', (message) => this.answered(slot, worker, message as Answer<Out>));
    // An uncaught error in the worker: it exits next ('exit' replaces it); its job fails with the error.
    worker.on('error', (err) => this.failed(slot, worker, err));
    worker.on('exit', (code) => this.exited(slot, worker, code));
  }

  /** A worker's message: its load report, or its job's answer (the job settled, the worker retired or given more). */
  private answered(slot: Slot<In, Out>, worker: PoolWorker, m: Answer<Out>): void {
    if (slot.worker !== worker) return;
    if (m.ready !== undefined && m.id === undefined) return this.loaded(slot, worker, m);
    const job = slot.job;
    if (!job || job.id !== m.id) return;
    this.clear(slot);
    worker.unref();
    const error = typeof m.error === 'string' ? { message: m.error, expected: false } : m.error;
    if (error)
      this.settle(job, error.expected && this.opts.expectedError ? this.opts.expectedError(error.message) : new Error(error.message));
    else this.settle(job, undefined, m.output as Out);
    if (m.retire) this.stop(slot);
    else this.dispatch();
  }

  /** An uncaught error in a worker: its job fails with it (the exit that follows replaces the worker). */
  private failed(slot: Slot<In, Out>, worker: PoolWorker, err: Error): void {
    if (slot.worker !== worker || !slot.job) return;
    const job = slot.job;
    this.clear(slot);
    const code = (err as { code?: string }).code;
    this.settle(job, new WorkerPoolError('crashed', `the worker ${path.basename(this.opts.file)} failed: ${err.message}`, code));
  }

  /** A worker's exit: its job fails, and it is replaced (or, dying while loading, reported as not loaded). */
  private exited(slot: Slot<In, Out>, worker: PoolWorker, code: number): void {
    if (slot.worker !== worker) return;
    const job = slot.job;
    const wasReady = slot.ready;
    this.clear(slot);
    slot.worker = undefined;
    slot.ready = false;
    if (this.closed) return;
    if (job) {
      this.settle(job, new WorkerPoolError('crashed', `the worker ${path.basename(this.opts.file)} exited (${code}) while running a job`));
    }
    if (!wasReady && this.opts.announcesReady) {
      // Died while loading (a load failure posts its message first and is handled in loaded()).
      this.loaded(slot, undefined, { ready: false, error: `the worker exited (${code}) while loading` });
      return;
    }
    this.opts.onEvent?.('crashed', { code });
    this.replace(slot);
  }

  /** A worker's load report. */
  private loaded(slot: Slot<In, Out>, worker: PoolWorker | undefined, m: Answer<Out>): void {
    if (m.ready) {
      slot.ready = true;
      this.loadError = undefined;
      worker?.unref();
      if (this.slots.every((s) => s.ready)) this.settleFirst.resolve();
      this.dispatch();
      return;
    }
    const message = typeof m.error === 'string' ? m.error : (m.error?.message ?? 'the worker could not load');
    const err = new WorkerPoolError('unavailable', message);
    this.loadError = err;
    this.opts.onEvent?.('load_failed', { error: message });
    this.settleFirst.reject(err);
    const w = slot.worker;
    slot.worker = undefined;
    slot.ready = false;
    void w?.terminate();
    // Nothing can run the queue if no worker loaded: fail it rather than leave it waiting.
    if (!this.slots.some((s) => s.worker)) for (const job of this.queue.splice(0)) this.settle(job, err);
  }

  /** Starts the next queued jobs on the free workers. */
  private dispatch(): void {
    while (this.queue.length > 0) {
      let slot = this.slots.find((s) => s.ready && !s.job);
      if (!slot && this.opts.lazy) {
        const empty = this.slots.find((s) => !s.worker);
        if (empty) {
          this.spawn(empty);
          slot = empty.ready ? empty : undefined;
        }
      }
      if (!slot) return;
      const job = this.queue.shift()!;
      slot.job = job;
      const worker = slot.worker!;
      worker.ref();
      worker.postMessage({ id: job.id, input: job.input }, job.transfer);
      if (this.suspended) {
        slot.leftMs = job.timeoutMs;
        worker.pause?.();
      } else if (job.timeoutMs !== undefined) this.arm(slot, job, job.timeoutMs);
    }
  }

  /** The job's deadline, `ms` from now: past it, the job fails and its worker is replaced. */
  private arm(slot: Slot<In, Out>, job: Job<In, Out>, ms: number): void {
    const total = job.timeoutMs ?? ms;
    slot.deadlineAt = performance.now() + ms;
    slot.timer = setTimeout(() => {
      if (slot.job !== job) return;
      this.opts.onEvent?.('timeout', { ms: total });
      this.stop(slot, new WorkerDeadlineError(total));
    }, ms);
  }

  /** Stops the slot's worker and keeps the time its job's deadline has left. */
  private hold(slot: Slot<In, Out>, now: number): void {
    slot.worker?.pause?.();
    if (slot.timer) clearTimeout(slot.timer);
    slot.timer = undefined;
    slot.leftMs = slot.deadlineAt === undefined ? undefined : Math.max(0, slot.deadlineAt - now);
    slot.deadlineAt = undefined;
  }

  private abort(job: Job<In, Out>): void {
    const queued = this.queue.indexOf(job);
    if (queued >= 0) {
      this.queue.splice(queued, 1);
      this.settle(job, abortReason(job.signal!));
      return;
    }
    const slot = this.slots.find((s) => s.job === job);
    if (slot) {
      this.opts.onEvent?.('aborted', {});
      this.stop(slot, abortReason(job.signal!));
    }
  }

  /** Fails the slot's job (if any) with `err`, terminates its worker and starts another. */
  private stop(slot: Slot<In, Out>, err?: Error): void {
    const job = slot.job;
    this.clear(slot);
    if (job && err) this.settle(job, err);
    const w = slot.worker;
    slot.worker = undefined;
    slot.ready = false;
    void w?.terminate();
    this.replace(slot);
  }

  private replace(slot: Slot<In, Out>): void {
    if (this.closed) return;
    if (!this.opts.lazy) this.spawn(slot);
    this.dispatch();
  }

  private clear(slot: Slot<In, Out>): void {
    if (slot.timer) clearTimeout(slot.timer);
    slot.timer = undefined;
    slot.deadlineAt = undefined;
    slot.leftMs = undefined;
    slot.job = undefined;
  }

  private settle(job: Job<In, Out>, err: Error | undefined, output?: Out): void {
    if (job.onAbort) job.signal?.removeEventListener('abort', job.onAbort);
    if (err) job.reject(err);
    else job.resolve(output as Out);
  }
}

function abortReason(signal: AbortSignal): Error {
  return signal.reason instanceof Error ? signal.reason : new Error('the job was cancelled');
}
