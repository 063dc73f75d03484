// The Redis side of the people who sign in to manage an account: users (the account is named by their email),
// sessions by the hash of their token and one-time messages (Redis expires both). Shares the store's connection;
// holds no document content. Key names in names.ts.
import type Redis from 'ioredis';
import type { UserStore } from '../key-store';
import { k } from './names';

export class RedisUsers implements UserStore {
  constructor(private readonly redis: Redis) {}

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
}
