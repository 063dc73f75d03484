// The Redis store's calls as they leave the process, without a Redis (the scripts themselves run in
// test/integration/keys/redis/ and test/e2e/): the arguments the attempts and quota scripts get (keys by names.ts,
// numbers in the order the Lua reads them) and how their replies are read; an API key that is not one is refused
// before any call.
import { expect } from 'chai';
import type Redis from 'ioredis';
import { RedisAttempts } from '../../../../server/keys/redis/attempts';
import { RedisKeys } from '../../../../server/keys/redis/keys';
import { k } from '../../../../server/keys/redis/names';
import { RedisUsage } from '../../../../server/keys/redis/usage';

/** A stand-in for ioredis: records each defined script's name and each call, answers with `reply`. */
function fakeRedis(reply: (name: string, args: unknown[]) => unknown) {
  const defined = new Map<string, { numberOfKeys?: number; lua: string }>();
  const calls: { name: string; args: unknown[] }[] = [];
  const target = {
    defineCommand(name: string, def: { numberOfKeys?: number; lua: string }) {
      defined.set(name, def);
    },
  };
  const redis = new Proxy(target, {
    get(t, prop: string) {
      if (prop in t) return t[prop as keyof typeof t];
      return async (...args: unknown[]) => {
        calls.push({ name: prop, args });
        return reply(prop, args);
      };
    },
  }) as unknown as Redis;
  return { redis, defined, calls };
}

describe('Redis store calls (no server)', function () {
  it('attempts: one key per limit, then now, window start, window, a fresh id and each limit', async function () {
    const { redis, defined, calls } = fakeRedis(() => 1);
    const attempts = new RedisAttempts(redis);
    expect(defined.get('attempt')!.lua).to.contain('ZREMRANGEBYSCORE');
    const keys = [
      { key: 'email:ada@example.com', max: 10 },
      { key: 'ip:192.0.2.1', max: 30 },
    ];
    expect(await attempts.recordAttempt(keys, 60_000, 1_000_000)).to.equal(true);
    expect(await attempts.recordAttempt(keys, 60_000, 1_000_000)).to.equal(true);
    const [first, second] = calls;
    expect(first!.name).to.equal('attempt');
    expect(first!.args.length).to.equal(1 + 2 + 4 + 2);
    expect(first!.args.slice(0, 3)).to.deep.equal([2, k.attempts('email:ada@example.com'), k.attempts('ip:192.0.2.1')]);
    expect(first!.args.slice(3, 6)).to.deep.equal([1_000_000, 940_000, 60_000]);
    expect(first!.args.slice(7)).to.deep.equal([10, 30]);
    expect(first!.args[6]).to.be.a('string').and.not.equal(second!.args[6]);
  });

  it('attempts: only a reply of 1 records the attempt', async function () {
    for (const [reply, recorded] of [
      [1, true],
      [0, false],
      [null, false],
      ['1', false],
    ] as const) {
      const { redis } = fakeRedis(() => reply);
      expect(await new RedisAttempts(redis).recordAttempt([{ key: 'x', max: 1 }], 1000, 5000), String(reply)).to.equal(recorded);
    }
  });

  it('reserve: the usage and reservations keys, the limit, now, expiry, a 40-day ttl, then one id per document', async function () {
    const { redis, defined, calls } = fakeRedis(() => [1, 4]);
    const usage = new RedisUsage(redis);
    expect(defined.get('quotaReserve')!.numberOfKeys).to.equal(2);
    expect(defined.get('quotaCommit')!.numberOfKeys).to.equal(3);
    const now = new Date(Date.UTC(2026, 0, 10));
    const r = await usage.reserve('a', '2026-01', 100, 60_000, now, 2, ['d1', 'd2']);
    expect(r).to.deep.equal({ ids: ['d1', 'd2'], seen: 4 });
    expect(calls[0]).to.deep.equal({
      name: 'quotaReserve',
      args: [
        k.usage('a', '2026-01'),
        k.reservations('a', '2026-01'),
        100,
        now.getTime(),
        now.getTime() + 60_000,
        40 * 24 * 3600,
        'd1',
        'd2',
      ],
    });
    const made = await usage.reserve('a', '2026-01', 100, 60_000, now, 3);
    expect(made.ids).to.have.length(3);
    expect(calls[1]!.args.slice(6), 'the ids made here are sent').to.deep.equal(made.ids);
  });

  it('reserve: a refusal (0) reserves nothing and still says what it saw', async function () {
    const { redis } = fakeRedis(() => [0, 100]);
    expect(await new RedisUsage(redis).reserve('a', '2026-01', 100, 60_000, new Date(), 1)).to.deep.equal({ ids: undefined, seen: 100 });
  });

  it('commit: usage, reservations and recently committed ids of the month, the id, and 15 minutes of memory', async function () {
    const { redis, calls } = fakeRedis(() => 1);
    await new RedisUsage(redis).commit('a', '2026-01', 'd1');
    const { name, args } = calls[0]!;
    expect(name).to.equal('quotaCommit');
    expect(args.slice(0, 5)).to.deep.equal([
      k.usage('a', '2026-01'),
      k.reservations('a', '2026-01'),
      k.committed('a', '2026-01'),
      'd1',
      40 * 24 * 3600,
    ]);
    expect(args[5]).to.be.a('number');
    expect(args[6]).to.equal(15 * 60 * 1000);
  });

  it('usage: reads a missing count as 0 and a stored one as a number', async function () {
    expect(await new RedisUsage(fakeRedis(() => null).redis).usage('a', '2026-01')).to.equal(0);
    expect(await new RedisUsage(fakeRedis(() => '42').redis).usage('a', '2026-01')).to.equal(42);
  });

  it('authenticate: a string that is no API key is unknown without asking Redis', async function () {
    const { redis, calls } = fakeRedis(() => ({}));
    const keys = new RedisKeys(redis);
    for (const key of ['', 'sk_short', `sk_${'a'.repeat(33)}`, "sk_' OR 1=1", `docgen:key:${'a'.repeat(64)}`])
      expect(await keys.authenticate(key)).to.deep.equal({ status: 'unknown' });
    expect(calls).to.deep.equal([]);
    expect(await keys.authenticate(`sk_${'a'.repeat(32)}`), 'a key of no hash stored').to.deep.equal({ status: 'unknown' });
    expect(calls.map((c) => c.name)).to.deep.equal(['hgetall']);
  });
});
