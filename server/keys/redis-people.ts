// The Redis side of the people who sign in to manage an account: users (the account is named by their email),
// sessions by the hash of their token and one-time messages (Redis expires both), and the attempts behind the
// sign-in and wrong-key limits (one Lua script, atomic across instances). Shares the store's connection; holds no
// document content.
import crypto from 'node:crypto';
import type Redis from 'ioredis';
import type { PeopleStore } from './key-store';
import { k } from './redis-names';

// KEYS: one sorted set per attempt key; ARGV: now, window start, window (ms), id, then the limit of each key
const ATTEMPT = `
for i, key in ipairs(KEYS) do
  redis.call('ZREMRANGEBYSCORE', key, '-inf', ARGV[2])
  if redis.call('ZCARD', key) >= tonumber(ARGV[4 + i]) then return 0 end
end
for i, key in ipairs(KEYS) do
  redis.call('ZADD', key, ARGV[1], ARGV[4])
  redis.call('PEXPIRE', key, ARGV[3])
end
return 1`;

type AttemptRedis = Redis & { attempt(...args: (string | number)[]): Promise<number> };

export class RedisPeople implements PeopleStore {
  private readonly redis: AttemptRedis;

  constructor(redis: Redis) {
    redis.defineCommand('attempt', { lua: ATTEMPT });
    this.redis = redis as AttemptRedis;
  }

  async createUser(email: string, passwordHash: string): Promise<boolean> {
    if ((await this.redis.exists(k.account(email))) === 1) return false;
    const created = await this.redis.hsetnx(k.user(email), 'password_hash', passwordHash);
    if (created === 0) return false;
    const now = new Date().toISOString();
    await this.redis
      .multi()
      .hset(k.user(email), { account: email, created_at: now })
      .hsetnx(k.account(email), 'plan', 'free')
      .hsetnx(k.account(email), 'created_at', now)
      .exec();
    return true;
  }

  async findUser(email: string): Promise<{ email: string; passwordHash: string; account: string } | undefined> {
    const row = await this.redis.hgetall(k.user(email));
    return row.password_hash ? { email, passwordHash: row.password_hash, account: row.account ?? email } : undefined;
  }

  async createSession(tokenHash: string, email: string, expiresAt: number): Promise<void> {
    await this.redis.set(k.session(tokenHash), email, 'PXAT', expiresAt);
  }

  async findSession(tokenHash: string, now: number): Promise<{ email: string; account: string } | undefined> {
    void now; // Redis expires sessions itself.
    const email = await this.redis.get(k.session(tokenHash));
    if (!email) return undefined;
    const user = await this.findUser(email);
    return user && { email, account: user.account };
  }

  async deleteSession(tokenHash: string): Promise<void> {
    await this.redis.del(k.session(tokenHash));
  }

  async putFlash(id: string, value: string, expiresAt: number): Promise<void> {
    await this.redis.set(k.flash(id), value, 'PXAT', expiresAt);
  }

  async takeFlash(id: string, now: number): Promise<string | undefined> {
    void now; // Redis expires the value itself.
    return (await this.redis.getdel(k.flash(id))) ?? undefined;
  }

  async recordAttempt(keys: { key: string; max: number }[], windowMs: number, now: number): Promise<boolean> {
    const ok = await this.redis.attempt(
      keys.length,
      ...keys.map(({ key }) => k.attempts(key)),
      now,
      now - windowMs,
      windowMs,
      crypto.randomUUID(),
      ...keys.map(({ max }) => max),
    );
    return ok === 1;
  }
}
