// Structured JSON logs (pino). Request logs carry ids, account, type, status, durations and sizes; never field values.
import fs from 'node:fs';
import pino, { type Logger } from 'pino';

/** The longest the process waits, as it exits, for a reader of its logs that has stopped reading. */
export const EXIT_FLUSH_MS = 1000;

export function createLogger(level: string): Logger {
  // Asynchronous, buffered writes: a write per request costs the event loop a system call each time (measured ~0.3 ms
  // per request under load, a sixth of the service's own CPU for a one-page invoice). Lines are written when 4 KiB
  // have gathered or after at most 250 ms, and pino flushes what is buffered when the process exits.
  return pino({ level, base: { service: 'docgen' }, timestamp: pino.stdTimeFunctions.isoTime }, standardOutput());
}

/**
 * Standard output for the logs, written so that a reader that stops reading (a supervisor that hangs, a pipe nobody
 * drains) never holds the process. Node makes a pipe or socket on standard output blocking: a write to a full one
 * then never returned, in libuv's thread pool (whose threads the process joins as it exits) or in pino's synchronous
 * flush on exit, and the process never ended after SIGTERM (a security review saw this 3 times in 3). So the logs go
 * to a non-blocking file description of their own (a pipe, reopened), or to standard output made non-blocking (a
 * socket, which cannot be reopened; the worker processes no longer share it, workers/child-process.ts): a write to a full one
 * waits in the event loop (sonic-boom tries again later), and the flush on exit gives up after EXIT_FLUSH_MS,
 * dropping what is left. A file or a terminal is written as before.
 */
function standardOutput(): pino.DestinationStream {
  const stat = fs.fstatSync(1);
  const fd = (stat.isFIFO() ? reopenedNonBlocking() : undefined) ?? 1;
  if (fd === 1 && (stat.isFIFO() || stat.isSocket())) {
    // Node's own socket handle, not in its types: set non-blocking where libuv offers it.
    const stdout: NodeJS.WriteStream & { _handle?: { setBlocking?: (blocking: boolean) => number } } = process.stdout;
    stdout._handle?.setBlocking?.(false);
  }
  let giveUpAt = Number.POSITIVE_INFINITY;
  const dest = pino.destination({
    dest: fd,
    sync: false,
    minLength: 4096,
    periodicFlush: 250,
    retryEAGAIN: () => Date.now() < giveUpAt,
  });
  const flushSync = dest.flushSync.bind(dest);
  dest.flushSync = () => {
    giveUpAt = Date.now() + EXIT_FLUSH_MS;
    try {
      flushSync();
    } catch {
      // The reader stopped reading: what is left of the log is dropped, and the process goes on exiting.
    } finally {
      giveUpAt = Number.POSITIVE_INFINITY;
    }
  };
  return dest;
}

/** Standard output (a pipe) opened again, non-blocking, as a file description of this process's own; undefined where
 * that is not allowed (a pipe another user made: the Docker image runs as uid 10001 on root's pipe). */
function reopenedNonBlocking(): number | undefined {
  try {
    return fs.openSync('/proc/self/fd/1', fs.constants.O_WRONLY | fs.constants.O_NONBLOCK);
  } catch {
    return undefined;
  }
}
