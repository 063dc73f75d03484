// PDFs first: background work gives the machine to the PDFs being printed. While any render is in flight, every
// background pool added here (the rule checkers, worker processes) is suspended where it is (workers/pool.ts suspend:
// SIGSTOP, its deadlines stopped too); it goes on when the last render ends. A lower CPU priority is not enough: at
// nice 19 or SCHED_IDLE a checker on the other core still slowed one-page PDFs by 1.4x here (caches, the host's
// cores), so it must not run at all while a PDF prints. So that a check still ends under a steady stream of PDFs, a
// pool is never held for more than `maxPauseMs` at a time and then runs for at least `minRunMs` (at least
// minRun / (maxPause + minRun) of its time). Must not know what the renders or the background jobs are.

export interface Suspendable {
  suspend(): void;
  resume(): void;
}

export interface PrintFirstOptions {
  /** The longest a background pool is held at a time (ms). */
  maxPauseMs?: number;
  /** How long it then runs before it may be held again (ms). */
  minRunMs?: number;
}

/** Held 900 ms, then run 100 ms: a check gets a tenth of its time under a steady stream of PDFs, which print at
 * 1.03-1.15x their pace alone with one worker (1.10x held at most 400 ms at a time; 1.25-1.5x never held: docs/operating.md,
 * "Received e-invoices", Speed). */
export const PRINT_FIRST_DEFAULTS = { maxPauseMs: 900, minRunMs: 100 };

export class PrintFirst {
  private readonly pools = new Set<Suspendable>();
  private readonly maxPauseMs: number;
  private readonly minRunMs: number;
  private printing = false;
  private held = false;
  /** The end of the current hold (held) or of the current run owed to the pools (not held). */
  private timer: NodeJS.Timeout | undefined;
  private owed = false;
  /** Holds so far and the time they took (ms), for tests. */
  readonly stats = { holds: 0, heldMs: 0 };
  private heldSince = 0;

  constructor(opts: PrintFirstOptions = {}) {
    this.maxPauseMs = opts.maxPauseMs ?? PRINT_FIRST_DEFAULTS.maxPauseMs;
    this.minRunMs = opts.minRunMs ?? PRINT_FIRST_DEFAULTS.minRunMs;
  }

  /** Adds a pool to hold while PDFs print; returns its removal (the pool is let go first). */
  add(pool: Suspendable): () => void {
    if (this.maxPauseMs <= 0) return () => undefined;
    this.pools.add(pool);
    if (this.held) pool.suspend();
    else if (this.printing && !this.owed) this.hold();
    return () => {
      if (this.pools.delete(pool) && this.held) pool.resume();
    };
  }

  /** Whether a render is in flight (the render queue says so when its first place is taken and its last freed). */
  setPrinting(printing: boolean): void {
    this.printing = printing;
    if (printing && !this.held && !this.owed) this.hold();
    else if (!printing && this.held) this.release(false);
  }

  /** Lets every pool go for good (shutting down). */
  close(): void {
    if (this.timer) clearTimeout(this.timer);
    this.timer = undefined;
    if (this.held) this.release(false);
    this.pools.clear();
  }

  private hold(): void {
    if (this.pools.size === 0) return;
    this.held = true;
    this.stats.holds++;
    this.heldSince = performance.now();
    for (const pool of this.pools) pool.suspend();
    this.timer = setTimeout(() => this.release(true), this.maxPauseMs);
    this.timer.unref();
  }

  /** Lets the pools go; `owe`: they have been held their longest and now run at least minRunMs. */
  private release(owe: boolean): void {
    if (this.timer) clearTimeout(this.timer);
    this.timer = undefined;
    this.held = false;
    this.stats.heldMs += performance.now() - this.heldSince;
    for (const pool of this.pools) pool.resume();
    if (!owe) return;
    this.owed = true;
    this.timer = setTimeout(() => {
      this.timer = undefined;
      this.owed = false;
      if (this.printing) this.hold();
    }, this.minRunMs);
    this.timer.unref();
  }
}
