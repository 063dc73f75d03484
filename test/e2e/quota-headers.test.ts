// The quota as RateLimit headers (IETF draft fields) on SQLite and on Redis: they count down request by request and
// agree with `keys usage`, the 429 carries them with r=0, unlimited plans have none, and every document answer and
// error of the document routes is no-store. The store's reservation of several documents at once is all or none.
import { expect } from 'chai';
import { runKeysCli } from '../../server/cli/keys';
import { periodOf, periodSeconds, retryAfterSeconds } from '../../server/quota/quota';
import { startRedis, type TestRedis } from '../helpers/redis';
import { fakeRenderer, post, startTestService, type TestService } from '../helpers/service';

const DOC = { from: 'Headers Co', to: 'Client', items: [{ name: 'Thing', quantity: 1, unit_cost: 1 }] };

function rateLimit(res: Response): { q: number; w: number; r: number; t: number } {
  const policy = /^"monthly";q=(\d+);w=(\d+)$/.exec(res.headers.get('ratelimit-policy') ?? '');
  const now = /^"monthly";r=(\d+);t=(\d+)$/.exec(res.headers.get('ratelimit') ?? '');
  expect(policy, `RateLimit-Policy: ${res.headers.get('ratelimit-policy')}`).to.not.equal(null);
  expect(now, `RateLimit: ${res.headers.get('ratelimit')}`).to.not.equal(null);
  return { q: Number(policy![1]), w: Number(policy![2]), r: Number(now![1]), t: Number(now![2]) };
}

async function cliUsage(service: TestService, account: string): Promise<number> {
  const lines: string[] = [];
  expect(await runKeysCli(['usage', '--account', account], service.keys, (s) => lines.push(s), service.config.planLimits)).to.equal(0);
  const m = /: (\d+) \/ 100 documents/.exec(lines.join('\n'));
  expect(m, lines.join('\n')).to.not.equal(null);
  return Number(m![1]);
}

describe('quota headers', function () {
  this.timeout(60000);
  let redis: TestRedis;
  const started: TestService[] = [];
  before(async function () {
    redis = await startRedis();
  });
  after(async function () {
    for (const s of started) await s.close();
    await redis.stop();
  });

  const stores: [string, () => Record<string, string>][] = [
    ['SQLite', () => ({})],
    ['Redis', () => ({ REDIS_URL: redis.url })],
  ];
  for (const [store, env] of stores) {
    it(`${store}: RateLimit counts down with each document, matches keys usage, and the 429 says r=0`, async function () {
      const service = await startTestService(env(), { pdf: fakeRenderer() });
      started.push(service);
      const account = `headers-${store.toLowerCase()}`;
      const { key } = await service.keys.createKey(account, 'free');
      await service.keys.addUsage(account, periodOf(new Date()), 96);
      const seen: number[] = [];
      for (let i = 0; i < 4; i++) {
        const res = await post(service, DOC, { key });
        expect(res.status).to.equal(200);
        expect(res.headers.get('cache-control')).to.equal('no-store');
        const h = rateLimit(res);
        expect(h.q).to.equal(100);
        expect(h.w).to.equal(periodSeconds(new Date()));
        expect(Math.abs(h.t - retryAfterSeconds(new Date()))).to.be.at.most(2);
        // What is left is what the operator's usage command shows as not used.
        expect(h.r).to.equal(100 - (await cliUsage(service, account)));
        seen.push(h.r);
      }
      expect(seen).to.deep.equal([3, 2, 1, 0]);
      const refused = await post(service, DOC, { key });
      expect(refused.status).to.equal(429);
      expect(refused.headers.get('cache-control')).to.equal('no-store');
      expect(rateLimit(refused)).to.include({ q: 100, r: 0 });
      expect(Number(refused.headers.get('retry-after'))).to.be.closeTo(rateLimit(refused).t, 2);
      expect(await cliUsage(service, account)).to.equal(100);

      // An unlimited plan has no quota to tell; a 400 of a document route is no-store too.
      const paid = await post(service, DOC, { key: service.key });
      expect(paid.status).to.equal(200);
      expect(paid.headers.get('ratelimit')).to.equal(null);
      expect(paid.headers.get('ratelimit-policy')).to.equal(null);
      const bad = await post(service, { ...DOC, tax: 'x' }, { key: service.key, path: '/cii' });
      expect(bad.status).to.equal(400);
      expect(bad.headers.get('cache-control')).to.equal('no-store');
      expect(bad.headers.get('ratelimit')).to.equal(null);
    });

    it(`${store}: several documents are reserved at once or not at all, with the count seen`, async function () {
      const service = await startTestService(env(), { pdf: fakeRenderer() });
      started.push(service);
      const period = periodOf(new Date());
      await service.keys.addUsage('many', period, 95);
      const now = new Date();
      expect(await service.keys.reserve('many', period, 100, 60000, now, 6)).to.deep.equal({ ids: undefined, seen: 95 });
      const five = await service.keys.reserve('many', period, 100, 60000, now, 5);
      expect(five.seen).to.equal(95);
      expect(new Set(five.ids).size).to.equal(5);
      expect(await service.keys.reserve('many', period, 100, 60000, now, 1)).to.deep.equal({ ids: undefined, seen: 100 });
      for (const id of five.ids!.slice(0, 2)) await service.keys.commit('many', period, id);
      for (const id of five.ids!.slice(2)) await service.keys.release('many', period, id);
      expect(await service.keys.usage('many', period)).to.equal(97);
      expect((await service.keys.reserve('many', period, 100, 60000, now, 3)).ids).to.have.length(3);
    });
  }
});
