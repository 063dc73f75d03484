// The render queue: at most `concurrency` renders at once, at most `limit` waiting (beyond: renderer_busy, with the seconds to wait), a
// wait that ends at the render's deadline (render_timeout) or when its client goes away (client_closed_request). Knows nothing of Chromium.
import { errors, type DomainError } from '../errors';

export class RenderQueue {
  private active = 0;
  private waiters: (() => void)[] = [];
  private closed = false;

  constructor(
    private readonly concurrency: number,
    private readonly limit: number,
  ) {}

  get running(): number {
    return this.active;
  }

  get waiting(): number {
    return this.waiters.length;
  }

  /** Takes a slot, waiting in line if all are taken; rejects at the deadline, on abort, or when closed. */
  async acquire(deadline: number, signal?: AbortSignal): Promise<void> {
    if (this.active < this.concurrency && this.waiters.length === 0) {
      this.active++;
      return;
    }
    if (this.waiters.length >= this.limit) {
      throw errors.rendererBusy(this.retryAfterSeconds());
    }
    await new Promise<void>((resolve, reject) => {
      const leave = (err: DomainError): void => {
        clearTimeout(timer);
        signal?.removeEventListener('abort', onAbort);
        const i = this.waiters.indexOf(wake);
        if (i >= 0) this.waiters.splice(i, 1);
        reject(err);
      };
      const timer = setTimeout(() => leave(errors.renderTimeout(this.retryAfterSeconds())), Math.max(0, deadline - Date.now()));
      const onAbort = (): void => leave(errors.clientClosed());
      signal?.addEventListener('abort', onAbort, { once: true });
      const wake = (): void => {
        clearTimeout(timer);
        signal?.removeEventListener('abort', onAbort);
        if (this.closed) reject(errors.rendererBusy(5));
        else resolve();
      };
      this.waiters.push(wake);
    });
    this.active++;
  }

  release(): void {
    this.active--;
    const next = this.waiters.shift();
    if (next) next();
  }

  /** Seconds a client should wait: the queue drained at about one render per second per page, at least 1. */
  retryAfterSeconds(): number {
    return Math.max(1, Math.ceil((this.waiters.length + this.active) / Math.max(1, this.concurrency)));
  }

  /** Wakes every waiter with a 503: the pool is closing. */
  close(): void {
    this.closed = true;
    for (const w of this.waiters.splice(0)) w();
  }
}
