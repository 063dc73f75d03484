// The Redis side of monthly usage and its reservations. A reservation is one Lua script, which Redis runs
// atomically: expired reservations are dropped, used + reserved is compared with the limit, and the reservations (one,
// or a batch's all at once) are added, with no other command in between; the script returns the count it compared
// (the quota's remaining comes from it). Key names in names.ts.
import crypto from 'node:crypto';
import type Redis from 'ioredis';
import type { Reservation, UsageStore } from '../key-store';
import { k } from './names';

/** Usage and reservation keys outlive their month by a safety margin, then expire. */
const PERIOD_TTL_SECONDS = 40 * 24 * 3600;
// KEYS[1] usage, KEYS[2] reservations; ARGV: limit, now (ms), expiry (ms), ttl (s), id… (one per document).
// Returns {1 reserved / 0 refused, used + reserved before}.
const RESERVE = `
redis.call('ZREMRANGEBYSCORE', KEYS[2], '-inf', ARGV[2])
local used = tonumber(redis.call('GET', KEYS[1]) or '0')
local seen = used + redis.call('ZCARD', KEYS[2])
local count = #ARGV - 4
if seen + count > tonumber(ARGV[1]) then return {0, seen} end
for i = 5, #ARGV do redis.call('ZADD', KEYS[2], ARGV[3], ARGV[i]) end
redis.call('EXPIRE', KEYS[2], ARGV[4])
return {1, seen}`;

/** How long a committed document's id is remembered, so that the same commit sent again counts nothing: longer than
 * a commit is ever tried again (quota.ts, about 150 s). */
const COMMITTED_MEMORY_MS = 15 * 60 * 1000;
// KEYS[1] usage, KEYS[2] reservations, KEYS[3] recently committed ids; ARGV: id, ttl (s), now (ms), memory (ms).
// An id committed already (a commit sent again after a lost connection) counts nothing.
const COMMIT = `
redis.call('ZREMRANGEBYSCORE', KEYS[3], '-inf', tonumber(ARGV[3]) - tonumber(ARGV[4]))
if redis.call('ZSCORE', KEYS[3], ARGV[1]) then return tonumber(redis.call('GET', KEYS[1]) or '0') end
redis.call('ZADD', KEYS[3], ARGV[3], ARGV[1])
redis.call('EXPIRE', KEYS[3], ARGV[2])
redis.call('ZREM', KEYS[2], ARGV[1])
local n = redis.call('INCR', KEYS[1])
redis.call('EXPIRE', KEYS[1], ARGV[2])
return n`;

type ScriptedRedis = Redis & {
  quotaReserve(
    usage: string,
    reservations: string,
    limit: number,
    now: number,
    expiry: number,
    ttl: number,
    ...ids: string[]
  ): Promise<[number, number]>;
  quotaCommit(
    usage: string,
    reservations: string,
    committed: string,
    id: string,
    ttl: number,
    now: number,
    memory: number,
  ): Promise<number>;
};

export class RedisUsage implements UsageStore {
  private readonly redis: ScriptedRedis;

  constructor(redis: Redis) {
    redis.defineCommand('quotaReserve', { numberOfKeys: 2, lua: RESERVE });
    redis.defineCommand('quotaCommit', { numberOfKeys: 3, lua: COMMIT });
    this.redis = redis as ScriptedRedis;
  }

  async reserve(
    account: string,
    period: string,
    limit: number,
    ttlMs: number,
    now: Date,
    count = 1,
    given?: string[],
  ): Promise<Reservation> {
    const ids = given ?? Array.from({ length: count }, () => crypto.randomUUID());
    const t = now.getTime();
    const [ok, seen] = await this.redis.quotaReserve(
      k.usage(account, period),
      k.reservations(account, period),
      limit,
      t,
      t + ttlMs,
      PERIOD_TTL_SECONDS,
      ...ids,
    );
    return { ids: ok === 1 ? ids : undefined, seen };
  }

  async commit(account: string, period: string, id: string): Promise<void> {
    const keys = [k.usage(account, period), k.reservations(account, period), k.committed(account, period)] as const;
    await this.redis.quotaCommit(...keys, id, PERIOD_TTL_SECONDS, Date.now(), COMMITTED_MEMORY_MS);
  }

  async release(account: string, period: string, reservation: string): Promise<void> {
    await this.redis.zrem(k.reservations(account, period), reservation);
  }

  async usage(account: string, period: string): Promise<number> {
    return Number((await this.redis.get(k.usage(account, period))) ?? 0);
  }

  async addUsage(account: string, period: string, count: number): Promise<void> {
    await this.redis.multi().incrby(k.usage(account, period), count).expire(k.usage(account, period), PERIOD_TTL_SECONDS).exec();
  }
}
