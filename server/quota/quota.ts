// Monthly quota (decisions §5): each successful document of either operation counts one, per account and calendar
// month in UTC. A render first reserves one document (atomically, in the store), then commits it on success or
// releases it on failure: a failed render never uses quota and parallel requests never overshoot.
// Over the limit: a quota_exceeded error whose retry time is the whole seconds to 00:00 UTC on the 1st of next month.
import { DomainError } from '../errors';
import { countedMessage } from '../messages';
import type { Plan, UsageStore } from '../keys/key-store';

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

/** `2026-11` */
export function periodOf(now: Date): string {
  return now.toISOString().slice(0, 7);
}

export function nextPeriodStart(now: Date): Date {
  return new Date(Date.UTC(now.getUTCFullYear(), now.getUTCMonth() + 1, 1));
}

/** Whole seconds until the next month starts (31 Dec 23:59:59 UTC → 1); never less than 1. */
export function retryAfterSeconds(now: Date): number {
  return Math.max(1, Math.ceil((nextPeriodStart(now).getTime() - now.getTime()) / 1000));
}

export function quotaExceeded(limit: number, plan: Plan, now: Date): DomainError {
  const reset = nextPeriodStart(now).toISOString().replace('.000Z', 'Z');
  const retry = retryAfterSeconds(now);
  return new DomainError('quota_exceeded', countedMessage('quota_exceeded', limit, { plan, reset, retry: String(retry) }), {
    retryAfterSeconds: retry,
  });
}

export class Quota {
  constructor(
    private readonly store: UsageStore,
    private readonly limits: PlanLimits,
    /** How long a reservation counts if its instance dies before committing or releasing it. */
    private readonly reservationTtlMs: number,
    private readonly clock: () => Date = () => new Date(),
  ) {}

  limitOf(plan: Plan): number | null {
    return limitOf(this.limits, plan);
  }

  /** Reserves one document, or throws the 429. */
  async reserve(account: string, plan: Plan): Promise<QuotaTicket> {
    const now = this.clock();
    const period = periodOf(now);
    const limit = this.limitOf(plan);
    const id = limit === null ? undefined : await this.store.reserve(account, period, limit, this.reservationTtlMs, now);
    if (limit !== null && id === undefined) throw quotaExceeded(limit, plan, now);
    let settled = false;
    return {
      commit: async () => {
        if (settled) return;
        settled = true;
        await this.store.commit(account, period, id);
      },
      release: async () => {
        if (settled) return;
        settled = true;
        if (id !== undefined) await this.store.release(account, period, id);
      },
    };
  }
}
