// A worker run as a child process, with the face of a worker thread (postMessage, 'message', 'error', 'exit',
// terminate, ref, unref) so that workers/pool.ts runs either. What a process gives that a thread cannot: the operating
// system can stop it and let it go on (SIGSTOP, SIGCONT) in the middle of a synchronous computation, which is how
// background work gives the machine to PDFs (workers/print-first.ts). Messages go over the IPC channel with the structured
// clone algorithm (`serialization: 'advanced'`: typed arrays, shared ones copied); the worker's data goes in its
// environment as JSON. A child ends when its channel closes; every child still alive is killed when this process
// exits, stopped or not; and where util-linux's setpriv is found (Debian has it), the kernel kills the child when
// this process dies any other way (SIGKILL, a crash): a stopped child would otherwise wait for ever.
// Must not know what the worker does.
import { fork, spawn, type ChildProcess } from 'node:child_process';
import { EventEmitter } from 'node:events';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';

/** The environment variable a child process reads its worker data from (JSON). */
export const WORKER_DATA_ENV = 'WORKER_PROCESS_DATA';

export interface WorkerProcessOptions {
  workerData?: unknown;
  execArgv?: string[];
  /** The child's V8 heap (MiB): over it, the child dies (its job fails as crashed). */
  maxOldGenerationSizeMb?: number;
}

/** util-linux's setpriv, which starts the child with a parent-death signal (PR_SET_PDEATHSIG), if on the PATH. */
const SETPRIV = (process.env.PATH ?? '')
  .split(path.delimiter)
  .map((dir) => path.join(dir, 'setpriv'))
  .find((file) => {
    try {
      fs.accessSync(file, fs.constants.X_OK);
      return true;
    } catch {
      return false;
    }
  });

/** Every child still alive: killed when this process exits (a stopped child would otherwise wait for ever). */
const alive = new Set<ChildProcess>();
let exitHookInstalled = false;

function killAllOnExit(): void {
  if (exitHookInstalled) return;
  exitHookInstalled = true;
  process.on('exit', () => {
    for (const child of alive) child.kill('SIGKILL');
  });
}

export class WorkerProcess extends EventEmitter {
  private readonly child: ChildProcess;
  private readonly exited: Promise<number>;
  private stopped = false;

  constructor(file: string, opts: WorkerProcessOptions = {}) {
    super();
    killAllOnExit();
    const heap = opts.maxOldGenerationSizeMb ? [`--max-old-space-size=${opts.maxOldGenerationSizeMb}`] : [];
    const execArgv = [...(opts.execArgv ?? []), ...heap];
    const options = {
      env: { ...process.env, [WORKER_DATA_ENV]: JSON.stringify(opts.workerData ?? null) },
      serialization: 'advanced' as const,
      // The worker's standard output is the service's standard error: the service's own is its log, which must stay
      // non-blocking, and a child process would share its file description and make it blocking (logger.ts).
      stdio: ['ignore', 2, 'inherit', 'ipc'] as ('ignore' | 'inherit' | 'ipc' | number)[],
    };
    this.child = SETPRIV
      ? spawn(SETPRIV, ['--pdeathsig', 'SIGKILL', process.execPath, ...execArgv, file], options)
      : fork(file, [], { ...options, execArgv });
    alive.add(this.child);
    this.child.on('message', (m) => this.emit('message', m));
    this.child.on('error', (err) => this.emit('error', err));
    this.exited = new Promise((resolve) => {
      this.child.once('exit', (code, signal) => {
        alive.delete(this.child);
        const status = code ?? 128 + (signal ? os.constants.signals[signal] : 0);
        resolve(status);
        this.emit('exit', status);
      });
    });
  }

  get pid(): number | undefined {
    return this.child.pid;
  }

  postMessage(message: unknown): void {
    if (!this.child.connected) return; // dying: its 'exit' fails the job
    this.child.send(message as object, (err) => {
      if (err) this.emit('error', err);
    });
  }

  /** Stops the child where it is (SIGSTOP): it uses no CPU until resume(). */
  pause(): void {
    if (this.stopped || this.child.exitCode !== null || this.child.signalCode !== null) return;
    this.stopped = this.child.kill('SIGSTOP');
  }

  resume(): void {
    if (!this.stopped) return;
    this.stopped = false;
    this.child.kill('SIGCONT');
  }

  /** Kills the child (stopped or not); resolves with its exit status. */
  terminate(): Promise<number> {
    if (this.child.exitCode === null && this.child.signalCode === null) this.child.kill('SIGKILL');
    return this.exited;
  }

  ref(): void {
    this.child.ref();
    this.child.channel?.ref();
  }

  unref(): void {
    this.child.unref();
    this.child.channel?.unref();
  }
}
