// The Redis side of the attempts behind the sign-in, sign-up and wrong-key limits: a sorted set per key holding the
// window's attempts, checked and recorded by one Lua script (atomic across instances). Key names in names.ts.
import crypto from 'node:crypto';
import type Redis from 'ioredis';
import type { AttemptStore } from '../key-store';
import { k } from './names';

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

export class RedisAttempts implements AttemptStore {
  private readonly redis: AttemptRedis;

  constructor(redis: Redis) {
    redis.defineCommand('attempt', { lua: ATTEMPT });
    this.redis = redis as AttemptRedis;
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
