// The render queue: at most `concurrency` renders at once, at most `limit` waiting (beyond: renderer_busy, with the seconds to wait), a
// wait that ends at the render's deadline (render_timeout) or when its client goes away (client_closed_request). Knows nothing of Chromium.
// The seconds to wait come from the queue's own drain rate: how long a render holds its place, averaged as renders end.
import { errors, type DomainError } from '../errors';

export interface RenderQueueOptions {
  /** The most a client is told to wait: a waiter leaves at its deadline, so no backlog lasts longer (seconds). */
  maxRetryAfterSeconds?: number;
  /** How long a render is taken to hold its place before one has ended (ms). */
  defaultHoldMs?: number;
  /** The clock (ms), for tests. */
  now?: () => number;
  /** Told when the first place is taken (true) and the last one freed (false): renders are in flight or not. */
  onBusy?: (busy: boolean) => void;
}

/** The weight of each ended render in the moving average of hold times: about the last ten renders count. */
const EWMA_WEIGHT = 0.1;

export class RenderQueue {
  private active = 0;
  /** Each told, when woken, whether a place was handed over to it (a render ended) or the queue closed. */
  private waiters: ((handedOver: boolean) => void)[] = [];
  private closed = false;
  /** Moving average of how long a render held its place (ms); undefined until one has ended. */
  private meanHoldMs: number | undefined;
  private readonly maxRetryAfter: number;
  private readonly defaultHoldMs: number;
  private readonly now: () => number;
  private readonly onBusy: ((busy: boolean) => void) | undefined;
  /** What onBusy was last told. */
  private busy = false;

  constructor(
    private readonly concurrency: number,
    private readonly limit: number,
    options: RenderQueueOptions = {},
  ) {
    this.maxRetryAfter = Math.max(1, options.maxRetryAfterSeconds ?? 60);
    // A one-page invoice holds its place for tens of ms here, a 1,000-line statement for about a second.
    this.defaultHoldMs = options.defaultHoldMs ?? 100;
    this.now = options.now ?? Date.now;
    this.onBusy = options.onBusy;
  }

  get running(): number {
    return this.active;
  }

  get waiting(): number {
    return this.waiters.length;
  }

  /** Renders that leave the queue per second with every place busy (the measured drain rate, or the default's). */
  get drainRate(): number {
    return this.concurrency / (Math.max(1, this.meanHoldMs ?? this.defaultHoldMs) / 1000);
  }

  /** Takes a slot, waiting in line if all are taken; rejects at the deadline, on abort, or when closed. Returns the
   * slot's release (call it once, when the render is over: how long it held the slot feeds the drain rate). */
  async acquire(deadline: number, signal?: AbortSignal): Promise<() => void> {
    if (this.active < this.concurrency && this.waiters.length === 0) {
      this.active++;
      return this.slot();
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
      const wake = (handedOver: boolean): void => {
        clearTimeout(timer);
        signal?.removeEventListener('abort', onAbort);
        if (handedOver) resolve();
        else reject(errors.rendererBusy(5));
      };
      this.waiters.push(wake);
    });
    // The place was handed over by the render that ended (it stays counted): a newcomer in the same tick waits.
    return this.slot();
  }

  /**
   * Seconds a client should wait: the backlog ahead of it (every render waiting or running) over the drain rate,
   * rounded up, at least 1 and at most maxRetryAfterSeconds. Counting a second per queued render (the rule before)
   * told 120 clients of a burst to come back in 33 s when the backlog cleared in 2.5 s.
   */
  retryAfterSeconds(): number {
    const seconds = (this.waiters.length + this.active) / this.drainRate;
    return Math.min(this.maxRetryAfter, Math.max(1, Math.ceil(seconds)));
  }

  private tellBusy(): void {
    const busy = this.active > 0;
    if (busy === this.busy) return;
    this.busy = busy;
    this.onBusy?.(busy);
  }

  /** Wakes every waiter, to be refused as busy: the pool is closing. */
  close(): void {
    this.closed = true;
    for (const w of this.waiters.splice(0)) w(false);
  }

  private slot(): () => void {
    this.tellBusy();
    const since = this.now();
    let released = false;
    return () => {
      if (released) return;
      released = true;
      const held = Math.max(0, this.now() - since);
      this.meanHoldMs = this.meanHoldMs === undefined ? held : this.meanHoldMs + EWMA_WEIGHT * (held - this.meanHoldMs);
      const next = this.waiters.shift();
      // A waiter woken takes the place over, never freed in between (a newcomer in the same tick would take it too
      // and run one render over the limit): no render in flight only when nobody waits.
      if (next) next(true);
      else {
        this.active--;
        this.tellBusy();
      }
    };
  }
}
