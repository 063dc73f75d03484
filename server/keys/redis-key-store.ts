// The shared store: Redis (ioredis), for several service instances behind a load balancer. Same data as the SQLite
// store: accounts, hashed keys (never a key itself), monthly usage here, the people who sign in through
// redis-people.ts (key names in redis-names.ts). Reservations are one Lua script, which Redis runs atomically: expired
// reservations are dropped, used + reserved is compared with the limit, and the reservation is added, with no other
// command in between. Must not hold document content.
import crypto from 'node:crypto';
import Redis from 'ioredis';
import { generateApiKey, hashApiKey, keyPrefix, looksLikeApiKey, sameHash } from './api-key';
import { k } from './redis-names';
import { RedisPeople } from './redis-people';
import { PeopleDelegate } from './people-delegate';
import { KeyStoreError, type AuthResult, type KeyInfo, type KeyStore, type Plan } from './key-store';

/** Usage and reservation keys outlive their month by a safety margin, then expire. */
const PERIOD_TTL_SECONDS = 40 * 24 * 3600;
const LAST_USED_RESOLUTION_MS = 60_000;

// KEYS[1] usage, KEYS[2] reservations; ARGV: limit, now (ms), expiry (ms), id, ttl (s)
const RESERVE = `
redis.call('ZREMRANGEBYSCORE', KEYS[2], '-inf', ARGV[2])
local used = tonumber(redis.call('GET', KEYS[1]) or '0')
local pending = redis.call('ZCARD', KEYS[2])
if used + pending >= tonumber(ARGV[1]) then return 0 end
redis.call('ZADD', KEYS[2], ARGV[3], ARGV[4])
redis.call('EXPIRE', KEYS[2], ARGV[5])
return 1`;

// KEYS[1] usage, KEYS[2] reservations; ARGV: id ('' for none), ttl (s)
const COMMIT = `
if ARGV[1] ~= '' then redis.call('ZREM', KEYS[2], ARGV[1]) end
local n = redis.call('INCR', KEYS[1])
redis.call('EXPIRE', KEYS[1], ARGV[2])
return n`;

type ScriptedRedis = Redis & {
  quotaReserve(usage: string, reservations: string, limit: number, now: number, expiry: number, id: string, ttl: number): Promise<number>;
  quotaCommit(usage: string, reservations: string, id: string, ttl: number): Promise<number>;
};

/** `redis://…`, `rediss://…` or `unix:///path/to/socket`. */
export function connectRedis(url: string): Redis {
  const options = { maxRetriesPerRequest: 2, enableOfflineQueue: true, lazyConnect: false };
  return url.startsWith('unix://') ? new Redis({ ...options, path: url.slice('unix://'.length) }) : new Redis(url, options);
}

export class RedisKeyStore extends PeopleDelegate implements KeyStore {
  private readonly redis: ScriptedRedis;
  /** Users, sessions, one-time messages and attempts. */
  protected readonly people: RedisPeople;

  constructor(url: string) {
    super();
    const redis = connectRedis(url);
    // Once connected, a lost connection fails commands at once instead of queueing them until Redis is back (which
    // held requests for half a minute): store-guard.ts then raises store_unavailable. Before the first connection
    // commands wait, so that start-up does not race the connect.
    redis.once('ready', () => {
      redis.options.enableOfflineQueue = false;
    });
    // Connection errors are expected while Redis is down; each failed command is reported by the guard.
    redis.on('error', () => undefined);
    redis.defineCommand('quotaReserve', { numberOfKeys: 2, lua: RESERVE });
    redis.defineCommand('quotaCommit', { numberOfKeys: 2, lua: COMMIT });
    this.redis = redis as ScriptedRedis;
    this.people = new RedisPeople(redis);
  }

  async authenticate(key: string): Promise<AuthResult> {
    if (!looksLikeApiKey(key)) return { status: 'unknown' };
    const hash = hashApiKey(key);
    const row = await this.redis.hgetall(k.key(hash));
    if (!row.hash || !sameHash(row.hash, hash)) return { status: 'unknown' };
    if (row.active !== '1') return { status: 'inactive' };
    const plan = ((await this.redis.hget(k.account(row.account!), 'plan')) ?? 'free') as Plan;
    const now = Date.now();
    if (!row.last_used_at || now - Date.parse(row.last_used_at) > LAST_USED_RESOLUTION_MS) {
      await this.redis.hset(k.key(hash), 'last_used_at', new Date(now).toISOString());
    }
    return { status: 'ok', account: row.account!, plan };
  }

  async createKey(account: string, plan?: Plan): Promise<{ key: string; info: KeyInfo }> {
    const key = generateApiKey();
    const hash = hashApiKey(key);
    const now = new Date();
    const tx = this.redis.multi();
    tx.hsetnx(k.account(account), 'plan', plan ?? 'free');
    tx.hsetnx(k.account(account), 'created_at', now.toISOString());
    if (plan) tx.hset(k.account(account), 'plan', plan);
    tx.hset(k.key(hash), { hash, prefix: keyPrefix(key), account, active: '1', created_at: now.toISOString() });
    tx.sadd(k.prefix(keyPrefix(key)), hash);
    tx.sadd(k.accountKeys(account), hash);
    tx.zadd(k.allKeys, now.getTime(), hash);
    await tx.exec();
    const [info] = await this.infos([hash]);
    return { key, info: info! };
  }

  private async infos(hashes: string[]): Promise<KeyInfo[]> {
    if (hashes.length === 0) return [];
    const p = this.redis.pipeline();
    for (const h of hashes) p.hgetall(k.key(h));
    const rows = ((await p.exec()) ?? []).map(([, r]) => r as Record<string, string>).filter((r) => r.hash);
    // Every account's plan in one more round trip, not one per account.
    const accounts = [...new Set(rows.map((r) => r.account!))];
    const planned = this.redis.pipeline();
    for (const account of accounts) planned.hget(k.account(account), 'plan');
    const answers = (await planned.exec()) ?? [];
    const plans = new Map<string, Plan>(accounts.map((account, i) => [account, ((answers[i]?.[1] as string | null) ?? 'free') as Plan]));
    return rows.map((r) => ({
      prefix: r.prefix!,
      account: r.account!,
      plan: plans.get(r.account!)!,
      active: r.active === '1',
      createdAt: r.created_at!,
      lastUsedAt: r.last_used_at ?? null,
    }));
  }

  async listKeys(account?: string): Promise<KeyInfo[]> {
    if (account === undefined) return this.infos(await this.redis.zrange(k.allKeys, '0', '-1'));
    // One account's keys from its own set, in creation order (their scores in the ordered set of all keys): the
    // other accounts' keys are never read.
    const hashes = await this.redis.smembers(k.accountKeys(account));
    if (hashes.length === 0) return [];
    const scores = await this.redis.zmscore(k.allKeys, ...hashes);
    const order = hashes.map((h, i) => ({ h, at: Number(scores[i] ?? Infinity) })).sort((x, y) => x.at - y.at || (x.h < y.h ? -1 : 1));
    return this.infos(order.map((o) => o.h));
  }

  async revokeKey(keyOrPrefix: string): Promise<KeyInfo | undefined> {
    const candidates = looksLikeApiKey(keyOrPrefix) ? [hashApiKey(keyOrPrefix)] : await this.redis.smembers(k.prefix(keyOrPrefix));
    const checks = this.redis.pipeline();
    for (const h of candidates) checks.exists(k.key(h));
    const found = (await checks.exec()) ?? [];
    const existing = candidates.filter((_, i) => found[i]?.[1] === 1);
    if (existing.length > 1) {
      throw new KeyStoreError(`${existing.length} keys start with ${keyOrPrefix}; give the whole key to revoke one of them`);
    }
    const hash = existing[0];
    if (!hash) return undefined;
    await this.redis.hset(k.key(hash), 'active', '0');
    const [info] = await this.infos([hash]);
    return info;
  }

  async countKeys(): Promise<number> {
    return this.redis.zcard(k.allKeys);
  }

  async setPlan(account: string, plan: Plan): Promise<boolean> {
    if ((await this.redis.exists(k.account(account))) === 0) return false;
    await this.redis.hset(k.account(account), 'plan', plan);
    return true;
  }

  async reserve(account: string, period: string, limit: number, ttlMs: number, now: Date): Promise<string | undefined> {
    const id = crypto.randomUUID();
    const t = now.getTime();
    const ok = await this.redis.quotaReserve(
      k.usage(account, period),
      k.reservations(account, period),
      limit,
      t,
      t + ttlMs,
      id,
      PERIOD_TTL_SECONDS,
    );
    return ok === 1 ? id : undefined;
  }

  async commit(account: string, period: string, reservation: string | undefined): Promise<void> {
    await this.redis.quotaCommit(k.usage(account, period), k.reservations(account, period), reservation ?? '', PERIOD_TTL_SECONDS);
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

  async check(): Promise<boolean> {
    return this.redis.status === 'ready';
  }

  async close(): Promise<void> {
    await this.redis.quit().catch(() => this.redis.disconnect());
  }
}
