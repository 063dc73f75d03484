// The worker's side of its channel to its pool, the same whether it runs as a worker thread (parentPort, workerData)
// or as a child process (workers/child-process.ts: the IPC channel, its data in the environment). A child process ends when
// its channel closes (its pool is gone). Must not know what the worker does.
import { parentPort, workerData } from 'node:worker_threads';
import { WORKER_DATA_ENV } from './child-process';

export interface WorkerPort {
  onMessage(listener: (message: unknown) => void): void;
  postMessage(message: unknown, transfer?: ArrayBuffer[]): void;
}

let exitOnDisconnect = false;

/** This worker's channel to its pool. Throws when the module runs neither as a worker thread nor as a forked child. */
export function workerPort(): WorkerPort {
  if (parentPort) {
    const port = parentPort;
    return { onMessage: (listener) => port.on('message', listener), postMessage: (m, transfer) => port.postMessage(m, transfer ?? []) };
  }
  if (process.send) {
    if (!exitOnDisconnect) {
      exitOnDisconnect = true;
      process.on('disconnect', () => process.exit(0));
    }
    const send = process.send.bind(process);
    return { onMessage: (listener) => process.on('message', listener), postMessage: (m) => void send(m as object) };
  }
  throw new Error('this module runs as a worker (a worker thread or a forked child process)');
}

/** The data the pool gave this worker. */
export function workerInput<T>(): T {
  if (parentPort) return workerData as T;
  return JSON.parse(process.env[WORKER_DATA_ENV] ?? 'null') as T;
}
