// Monthly quota (docs/decisions.md §5): each successful document of any operation counts one, per account and calendar
// month in UTC. A render first reserves its documents (atomically, in the store: one, or a batch's all at once),
// then commits each on success or releases it on failure: a failed render never uses quota and parallel requests
// never overshoot. Over the limit: a quota_exceeded error whose retry time is the whole seconds to 00:00 UTC on the
// 1st of next month. Each reservation also reports where the account stands (QuotaState, from the count the store
// saw in the same atomic step) for the HTTP layer to tell the client; this module knows no HTTP.
// A commit or release the store cannot take now (store_unavailable: Redis down, or a connection lost with the
// command's outcome unknown) is finished in the background when the store is back: a made document is answered and
// counted once (a commit carries the document's id, and the store counts an id once), a failed one's reservation is
// released, so that the quota neither counts a refused request nor keeps its reservation (across a Redis outage, a
// refused request was once counted and the remaining quota drifted by 1-3).
import crypto from 'node:crypto';
import { DomainError, type QuotaState } from '../errors';
import type { CountedMessages } from '../messages';
import type { Plan, UsageStore } from '../keys/key-store';

export type { QuotaState };

/** Documents per calendar month for each plan (null: unlimited). */
export interface PlanLimits {
  free: number | null;
  paid: number | null;
}

/** The monthly limit of a plan: the one place that reads the plan limits. */
export function limitOf(limits: PlanLimits, plan: Plan): number | null {
  return limits[plan];
}

export interface QuotaTicket {
  commit(): Promise<void>;
  release(): Promise<void>;
}

/** Reserved documents, each committed or released on its own; `state` is absent for unlimited plans. */
export interface QuotaReservation {
  tickets: QuotaTicket[];
  state: QuotaState | undefined;
}

/** `2026-11` */
export function periodOf(now: Date): string {
  return now.toISOString().slice(0, 7);
}

function periodStart(now: Date): Date {
  return new Date(Date.UTC(now.getUTCFullYear(), now.getUTCMonth(), 1));
}

export function nextPeriodStart(now: Date): Date {
  return new Date(Date.UTC(now.getUTCFullYear(), now.getUTCMonth() + 1, 1));
}

/** Whole seconds until the next month starts (31 Dec 23:59:59 UTC → 1); never less than 1. */
export function retryAfterSeconds(now: Date): number {
  return Math.max(1, Math.ceil((nextPeriodStart(now).getTime() - now.getTime()) / 1000));
}

/** Seconds in the calendar month of `now` (UTC): 2,678,400 for January. */
export function periodSeconds(now: Date): number {
  return (nextPeriodStart(now).getTime() - periodStart(now).getTime()) / 1000;
}

/** Where the account stands after `taken` documents were reserved on a count of `seen` (0 taken: a refusal). */
export function quotaState(limit: number, seen: number, taken: number, now: Date): QuotaState {
  return {
    limit,
    remaining: Math.max(0, limit - seen - taken),
    resetSeconds: retryAfterSeconds(now),
    windowSeconds: periodSeconds(now),
  };
}

/** The quota_exceeded refusal; `asked`: the documents the request needed (a batch's size), named when fewer are left but some are. */
export function quotaExceeded(messages: CountedMessages, limit: number, plan: Plan, now: Date, state?: QuotaState, asked = 1): DomainError {
  const reset = nextPeriodStart(now).toISOString().replace('.000Z', 'Z');
  const retry = retryAfterSeconds(now);
  const left = state?.remaining ?? 0;
  const message =
    asked > 1 && left > 0
      ? `This batch of ${asked} documents needs more than the ${left} left of the monthly limit of ${limit} documents of the ${plan} plan. Send at most ${left}, or wait until ${reset} (in ${retry} s).`
      : messages.counted('quota_exceeded', limit, { plan, reset, retry: String(retry) });
  return new DomainError('quota_exceeded', message, { retryAfterSeconds: retry, quota: state });
}

/** Pauses before each try of a commit or release the store could not take: about 150 s in all, the reservations' own
 * lifetime at the default render deadline. */
const SETTLE_PAUSES_MS = [250, 500, 1000, 2000, 4000, 8000, 15_000, 30_000, 30_000, 30_000, 30_000];

const unavailable = (err: unknown): boolean => err instanceof DomainError && err.code === 'store_unavailable';

export class Quota {
  /** The ids of the commits and releases waiting for the store. */
  private readonly pending = new Set<string>();

  constructor(
    private readonly store: UsageStore,
    private readonly limits: PlanLimits,
    /** How long a reservation counts if its instance dies before committing or releasing it. */
    private readonly reservationTtlMs: number,
    /** The API's counted messages (the 429's text), loaded at start-up with the other data files. */
    private readonly messages: CountedMessages,
    private readonly clock: () => Date = () => new Date(),
    /** Told of a commit or release that could not be finished (the store stayed away past the last try). */
    private readonly onUnsettled?: (kind: 'commit' | 'release', account: string, err: unknown) => void,
  ) {}

  /** Commits and releases still waiting for the store (tests, shutdown). */
  unsettled(): number {
    return this.pending.size;
  }

  limitOf(plan: Plan): number | null {
    return limitOf(this.limits, plan);
  }

  /** Reserves one document, or throws the 429. */
  async reserve(account: string, plan: Plan): Promise<QuotaTicket & { state: QuotaState | undefined }> {
    const { tickets, state } = await this.reserveMany(account, plan, 1);
    return { ...tickets[0]!, state };
  }

  /** Reserves `count` documents at once, all or none (a batch), or throws quota_exceeded and reserves nothing. */
  async reserveMany(account: string, plan: Plan, count: number): Promise<QuotaReservation> {
    const now = this.clock();
    const period = periodOf(now);
    const limit = this.limitOf(plan);
    if (limit === null) {
      return { tickets: Array.from({ length: count }, () => this.ticket(account, period, undefined)), state: undefined };
    }
    // The ids are made here, so that reservations a lost connection hid (made, but answered with an error) are
    // released when the store is back, instead of holding the quota for the reservations' lifetime.
    const wanted = Array.from({ length: count }, () => crypto.randomUUID());
    let reserved: { ids: string[] | undefined; seen: number };
    try {
      reserved = await this.store.reserve(account, period, limit, this.reservationTtlMs, now, count, wanted);
    } catch (err) {
      if (unavailable(err)) for (const id of wanted) this.retry('release', account, id, () => this.store.release(account, period, id), 0);
      throw err;
    }
    const { ids, seen } = reserved;
    if (ids === undefined) throw quotaExceeded(this.messages, limit, plan, now, quotaState(limit, seen, 0, now), count);
    return { tickets: ids.map((id) => this.ticket(account, period, id)), state: quotaState(limit, seen, count, now) };
  }

  private ticket(account: string, period: string, reservation: string | undefined): QuotaTicket {
    let settled = false;
    // The document's id: its reservation's, or its own on an unlimited plan; a commit repeated under it counts once.
    const id = reservation ?? crypto.randomUUID();
    return {
      commit: async () => {
        if (settled) return;
        settled = true;
        await this.settle('commit', account, id, () => this.store.commit(account, period, id));
      },
      release: async () => {
        if (settled) return;
        settled = true;
        if (reservation !== undefined) await this.settle('release', account, id, () => this.store.release(account, period, reservation));
      },
    };
  }

  /** Runs `op` now; when the store cannot take it, again in the background until it can (SETTLE_PAUSES_MS). */
  private async settle(kind: 'commit' | 'release', account: string, id: string, op: () => Promise<void>): Promise<void> {
    try {
      await op();
    } catch (err) {
      if (!unavailable(err)) throw err;
      this.retry(kind, account, id, op, 0);
    }
  }

  private retry(kind: 'commit' | 'release', account: string, id: string, op: () => Promise<void>, attempt: number): void {
    const timer = setTimeout(() => {
      op().then(
        () => this.pending.delete(id),
        (err: unknown) => {
          this.pending.delete(id);
          if (unavailable(err) && attempt + 1 < SETTLE_PAUSES_MS.length) this.retry(kind, account, id, op, attempt + 1);
          else this.onUnsettled?.(kind, account, err);
        },
      );
    }, SETTLE_PAUSES_MS[attempt]);
    timer.unref();
    this.pending.add(id);
  }
}
