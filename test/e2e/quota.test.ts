// Monthly quotas that count exactly: parallel requests on SQLite and on Redis, two instances sharing one Redis,
// Retry-After at a month boundary, failed renders that use no quota, usage that survives a restart.
import { expect } from 'chai';
import { runKeysCli } from '../../server/cli/keys';
import { errors } from '../../server/errors';
import { connectRedis, RedisKeyStore } from '../../server/keys/redis/store';
import { periodOf, retryAfterSeconds } from '../../server/quota/quota';
import { isPdf } from '../helpers/pdf';
import { startRedis, type TestRedis } from '../helpers/redis';
import { fakePrint, fakeRenderer, post, sharedService, startTestService, tempDir, type TestService } from '../helpers/service';

const DOC = { from: 'Quota Co', to: 'Client', items: [{ name: 'Thing', quantity: 1, unit_cost: 1 }] };

/** A free-plan account with `left` documents left this month, and its key. */
async function freeAccount(service: TestService, name: string, left: number, now = new Date()): Promise<string> {
  const { key } = await service.keys.createKey(name, 'free');
  await service.keys.addUsage(name, periodOf(now), 100 - left);
  return key;
}

async function burst(
  targets: TestService[],
  key: string,
  count: number,
  path = '/',
  body: unknown = DOC,
): Promise<{ ok: number; limited: number; other: number[] }> {
  const results = await Promise.all(
    Array.from({ length: count }, async (_, i) => {
      const res = await post(targets[i % targets.length]!, body, { key, path });
      const bytes = new Uint8Array(await res.arrayBuffer());
      if (res.status === 200) expect(path === '/' ? isPdf(bytes) : Buffer.from(bytes).toString().startsWith('<?xml')).to.equal(true);
      if (res.status === 429) {
        const json = JSON.parse(Buffer.from(bytes).toString()) as { type: string; message: string };
        expect(json.type).to.equal('invalid_request');
        expect(json.message).to.contain('monthly limit of 100 documents');
        expect(Number(res.headers.get('retry-after'))).to.be.greaterThan(0);
      }
      return res.status;
    }),
  );
  return {
    ok: results.filter((s) => s === 200).length,
    limited: results.filter((s) => s === 429).length,
    other: results.filter((s) => s !== 200 && s !== 429),
  };
}

const figures: string[] = [];

describe('quota', function () {
  this.timeout(120000);
  let redis: TestRedis;
  const started: TestService[] = [];
  before(async function () {
    redis = await startRedis();
  });
  after(async function () {
    for (const s of started) await s.close();
    await redis.stop();
    if (figures.length) console.log(`      quota figures:\n        ${figures.join('\n        ')}`);
  });

  // The same burst on each store: the shared service (SQLite) and an instance on the test's Redis.
  const stores: [string, () => Promise<TestService>][] = [
    ['SQLite', () => sharedService()],
    [
      'Redis',
      async () => {
        const service = await startTestService({ REDIS_URL: redis.url });
        started.push(service);
        return service;
      },
    ],
  ];
  for (const [store, start] of stores) {
    it(`${store}: with 7 left, 40 parallel requests give exactly 7 × 200 and 33 × 429, and usage is the limit`, async function () {
      const service = await start();
      const account = `${store.toLowerCase()}-burst`;
      const key = await freeAccount(service, account, 7);
      const r = await burst([service], key, 40);
      const stored = await service.keys.usage(account, periodOf(new Date()));
      figures.push(`${store}, 7 left, 40 parallel: ${r.ok} × 200, ${r.limited} × 429, other ${r.other.length}; stored usage ${stored}`);
      expect(r).to.deep.equal({ ok: 7, limited: 33, other: [] });
      expect(stored).to.equal(100);
    });
  }

  it('two instances on two ports sharing one Redis: with 10 left, 60 requests over both give exactly 10 successes', async function () {
    const a = await startTestService({ REDIS_URL: redis.url });
    const b = await startTestService({ REDIS_URL: redis.url });
    started.push(a, b);
    expect(a.port).not.to.equal(b.port);
    const key = await freeAccount(a, 'two-instances', 10);
    // Each instance authenticates the key from the shared store.
    const r = await burst([a, b], key, 60);
    const stored = await b.keys.usage('two-instances', periodOf(new Date()));
    figures.push(
      `Redis, two instances (ports ${a.port}, ${b.port}), 10 left, 60 requests: ${r.ok} × 200, ${r.limited} × 429, other ${r.other.length}; stored usage ${stored}`,
    );
    expect(r).to.deep.equal({ ok: 10, limited: 50, other: [] });
    expect(stored).to.equal(100);
  });

  it('Redis store: keys hashed, and the CLI creates, lists, revokes and sets plans there', async function () {
    const store = new RedisKeyStore(redis.url);
    try {
      const out: string[] = [];
      expect(await runKeysCli(['create', '--account', 'redis-cli', '--quiet'], store, (s) => out.push(s))).to.equal(0);
      const key = out[0]!;
      expect(key).to.match(/^sk_[0-9A-Za-z]{32}$/);
      expect(await store.authenticate(key)).to.deep.equal({ status: 'ok', account: 'redis-cli', plan: 'free' });
      // Nothing in Redis holds the key itself.
      const client = connectRedis(redis.url);
      const names = await client.keys('*');
      for (const name of names) {
        expect(name).not.to.contain(key);
        const type = await client.type(name);
        const dump =
          type === 'hash'
            ? JSON.stringify(await client.hgetall(name))
            : type === 'string'
              ? String(await client.get(name))
              : type === 'set'
                ? (await client.smembers(name)).join()
                : (await client.zrange(name, '0', '-1')).join();
        expect(dump, name).not.to.contain(key);
      }
      await client.quit();
      out.length = 0;
      await runKeysCli(['list', '--account', 'redis-cli'], store, (s) => out.push(s));
      expect(out.join('\n')).to.contain(key.slice(0, 9)).and.contain('free').and.not.contain(key);
      expect(await runKeysCli(['set-plan', '--account', 'redis-cli', '--plan', 'paid'], store, () => undefined)).to.equal(0);
      expect(await store.authenticate(key)).to.deep.include({ plan: 'paid' });
      expect(await runKeysCli(['revoke', key.slice(0, 9)], store, () => undefined)).to.equal(0);
      expect(await store.authenticate(key)).to.deep.equal({ status: 'inactive' });
    } finally {
      await store.close();
    }
  });

  it('/ubl counts too, and a 4xx does not count', async function () {
    const service = await sharedService();
    const key = await freeAccount(service, 'ubl-count', 3);
    const bad = await post(service, { ...DOC, tax: 'x' }, { key });
    expect(bad.status).to.equal(400);
    const noNumber = await post(service, DOC, { key, path: '/ubl' });
    expect(noNumber.status).to.equal(400);
    expect(await service.keys.usage('ubl-count', periodOf(new Date()))).to.equal(97);
    const r = await burst([service], key, 5, '/ubl', { ...DOC, number: 'Q-1' });
    expect(r).to.deep.equal({ ok: 3, limited: 2, other: [] });
  });
});

describe('Retry-After', function () {
  it('is the whole seconds to 00:00 UTC on the 1st of next month', function () {
    expect(retryAfterSeconds(new Date('2026-12-31T23:59:59Z'))).to.equal(1);
    expect(retryAfterSeconds(new Date('2026-12-31T23:59:59.500Z'))).to.equal(1);
    expect(retryAfterSeconds(new Date('2026-12-31T00:00:00Z'))).to.equal(86400);
    expect(retryAfterSeconds(new Date('2028-02-28T00:00:00Z'))).to.equal(2 * 86400); // leap year
    expect(retryAfterSeconds(new Date('2026-11-01T00:00:00Z'))).to.equal(30 * 86400);
  });

  it('an injected clock at 31 Dec 23:59:59 UTC gives Retry-After: 1 on the 429', async function () {
    const clock = () => new Date('2026-12-31T23:59:59Z');
    const service = await startTestService({}, { clock, pdf: fakeRenderer() });
    try {
      const key = await freeAccount(service, 'new-year', 0, clock());
      const res = await post(service, DOC, { key });
      expect(res.status).to.equal(429);
      expect(res.headers.get('retry-after')).to.equal('1');
      const body = (await res.json()) as { type: string; message: string };
      expect(body.type).to.equal('invalid_request');
      expect(body.message).to.contain('monthly limit of 100 documents');
      expect(body.message).to.contain('2027-01-01T00:00:00Z');
    } finally {
      await service.close();
    }
  });
});

describe('failed renders use no quota', function () {
  it('a renderer failure (500) and a render past its deadline (503) leave usage unchanged', async function () {
    let mode: 'fail' | 'deadline' | 'ok' = 'fail';
    const service = await startTestService(
      {},
      {
        pdf: fakeRenderer(async () => {
          if (mode === 'fail') throw new Error('injected renderer failure');
          if (mode === 'deadline') throw errors.renderTimeout(2);
          return fakePrint();
        }),
      },
    );
    try {
      const key = await freeAccount(service, 'failures', 2);
      const period = periodOf(new Date());
      expect((await post(service, DOC, { key })).status).to.equal(500);
      mode = 'deadline';
      const late = await post(service, DOC, { key });
      expect(late.status).to.equal(503);
      expect(late.headers.get('retry-after')).to.equal('2');
      expect(await service.keys.usage('failures', period)).to.equal(98);
      mode = 'ok';
      expect((await post(service, DOC, { key })).status).to.equal(200);
      expect((await post(service, DOC, { key })).status).to.equal(200);
      expect((await post(service, DOC, { key })).status).to.equal(429);
      expect(await service.keys.usage('failures', period)).to.equal(100);
    } finally {
      await service.close();
    }
  });
});

describe('usage on SQLite', function () {
  it('survives a restart, and the CLI shows it and sets plans', async function () {
    const dir = tempDir('restart');
    const env = { SQLITE_PATH: `${dir}/store.db` };
    const first = await startTestService(env, { pdf: fakeRenderer() });
    const { key } = await first.keys.createKey('restarted', 'free');
    for (let i = 0; i < 3; i++) expect((await post(first, DOC, { key })).status).to.equal(200);
    await first.close();

    const second = await startTestService(env, { pdf: fakeRenderer() });
    try {
      expect(await second.keys.usage('restarted', periodOf(new Date()))).to.equal(3);
      const lines: string[] = [];
      expect(await runKeysCli(['usage', '--account', 'restarted'], second.keys, (s) => lines.push(s), second.config.planLimits)).to.equal(
        0,
      );
      expect(lines.join('\n')).to.match(/restarted: 3 \/ 100 documents in \d{4}-\d{2} \(free plan; resets \d{4}-\d{2}-01\)/);
      expect(await runKeysCli(['set-plan', '--account', 'restarted', '--plan', 'paid'], second.keys, (s) => lines.push(s))).to.equal(0);
      lines.length = 0;
      await runKeysCli(['usage', '--account', 'restarted'], second.keys, (s) => lines.push(s), second.config.planLimits);
      expect(lines.join('\n')).to.contain('3 / unlimited documents');
      expect(await runKeysCli(['set-plan', '--account', 'nobody', '--plan', 'paid'], second.keys, () => undefined)).to.equal(1);
    } finally {
      await second.close();
    }
  });
});
