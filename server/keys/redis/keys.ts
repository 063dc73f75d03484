// The Redis side of accounts and their API keys: a hash per key (stored by its hash, never the key itself), an
// account's keys in a set of its own, every key in one set ordered by creation (listing an account reads only its
// own keys), a set per displayed prefix. Many keys are read in one pipelined round trip. Key names in names.ts.
import type Redis from 'ioredis';
import { generateApiKey, hashApiKey, keyPrefix, looksLikeApiKey, sameHash } from '../api-key';
import { KeyStoreError, type AuthResult, type KeyInfo, type KeyRegistry, type Plan } from '../key-store';
import { k } from './names';

/** last_used_at is written at most this often per key, to keep writes off the hot path. */
const LAST_USED_RESOLUTION_MS = 60_000;

export class RedisKeys implements KeyRegistry {
  constructor(private readonly redis: Redis) {}

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
}
