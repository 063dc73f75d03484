// The key store under faults, against the real service and a real SQLite file: another process holding the write lock,
// and the file deleted under the service.
import { spawn, type ChildProcess } from 'node:child_process';
import fs from 'node:fs';
import { expect } from 'chai';
import { startRedis } from '../helpers/redis';
import Redis from 'ioredis';
import { periodOf } from '../../server/quota/quota';
import { turnsDuring } from '../helpers/loop-turns';
import { fakeRenderer, post, startTestService, type TestService } from '../helpers/service';

/** A second process that takes SQLite's write lock on `file` and holds it until killed. */
async function holdWriteLock(file: string): Promise<ChildProcess> {
  const child = spawn(
    process.execPath,
    [
      '-e',
      `
    const Database = require('better-sqlite3');
    const db = new Database(${JSON.stringify(file)});
    db.exec('BEGIN IMMEDIATE');
    db.exec("INSERT INTO attempts (key, at) VALUES ('lock-holder', 0)");
    process.stdout.write('locked\\n');
    setInterval(() => {}, 1000);
  `,
    ],
    { cwd: process.cwd(), stdio: ['ignore', 'pipe', 'inherit'] },
  );
  await new Promise<void>((resolve, reject) => {
    child.stdout!.on('data', (d: Buffer) => d.toString().includes('locked') && resolve());
    child.on('exit', (code) => reject(new Error(`the lock holder exited with ${code}`)));
  });
  return child;
}

describe('key store faults', function () {
  this.timeout(60000);
  let service: TestService;
  beforeEach(async function () {
    service = await startTestService();
  });
  afterEach(async function () {
    await service?.close();
  });

  it('a write lock held by another process: /healthz answered while the store is retried, documents that need a reservation get 503 with Retry-After, then work again', async function () {
    const doc = { from: 'A', to: 'B', items: [{ name: 'x' }] };
    const { key } = await service.keys.createKey('locked', 'free');
    expect((await post(service, doc, { key })).status).to.equal(200); // warm
    const holder = await holdWriteLock(service.config.sqlitePath);
    // /healthz asked again and again; counted while the documents wait for the store (a store that held the event
    // loop through its waits would leave no room for them).
    let healthy = 0;
    let probing = true;
    const probe = (async () => {
      while (probing) {
        if ((await fetch(`${service.url}/healthz`)).status === 200) healthy++;
        await new Promise((r) => setTimeout(r, 10));
      }
    })();
    try {
      const started = performance.now();
      const healthyBefore = healthy;
      // The service runs in this process: the passes its event loop makes while the documents wait are counted.
      const { result: results, turns } = await turnsDuring(() =>
        Promise.all(
          Array.from({ length: 4 }, () =>
            post(service, doc, { key }).then(async (r) => ({
              status: r.status,
              retryAfter: r.headers.get('retry-after'),
              body: (await r.json().catch(() => ({}))) as { code?: string },
            })),
          ),
        ),
      );
      const ms = performance.now() - started;
      const healthyMeanwhile = healthy - healthyBefore;
      console.log(
        `      lock held: ${results.map((r) => r.status).join(', ')} in ${ms.toFixed(0)} ms; /healthz answered ${healthyMeanwhile} times and the event loop went round ${turns} times meanwhile`,
      );
      for (const r of results) {
        expect(r.status).to.equal(503);
        expect(r.body.code).to.equal('store_unavailable');
        expect(Number(r.retryAfter)).to.be.greaterThan(0);
      }
      // Each document's store call tried four times with pauses between (25, 75 and 150 ms), asynchronous: the loop
      // went round thousands of times during them and /healthz was answered (pauses that held the loop leave it a
      // few hundred passes, those of the requests themselves).
      expect(turns, 'passes of the event loop while the documents waited for the store').to.be.at.least(100);
      expect(healthyMeanwhile, '/healthz answered while the documents waited for the store').to.be.at.least(1);
      // An unlimited plan reserves nothing: its document is made and answered, and counted once the lock is gone.
      const period = periodOf(new Date());
      const before = await service.keys.usage('test-account', period);
      expect((await post(service, doc)).status).to.equal(200);
      expect(service.quota.unsettled(), 'its commit, and the refused reservations released').to.equal(5);
      holder.kill('SIGKILL');
      await new Promise((r) => holder.once('exit', r));
      for (let i = 0; i < 100 && service.quota.unsettled() > 0; i++) await new Promise((r) => setTimeout(r, 100));
      expect(service.quota.unsettled()).to.equal(0);
      expect(await service.keys.usage('test-account', period)).to.equal(before + 1);
    } finally {
      probing = false;
      await probe;
      holder.kill('SIGKILL');
    }
    expect((await post(service, doc, { key })).status).to.equal(200);
  });

  it('the SQLite file deleted under the service: /readyz says not ready, naming the key store', async function () {
    expect((await fetch(`${service.url}/readyz`)).status).to.equal(200);
    fs.rmSync(service.config.sqlitePath);
    const res = await fetch(`${service.url}/readyz`);
    expect(res.status).to.equal(503);
    expect(await res.json()).to.include({ status: 'not ready', keyStore: 'unavailable', browser: 'connected' });
  });
});

describe('key store faults on Redis', function () {
  this.timeout(60000);
  it('Redis down: documents get 503 store_unavailable with Retry-After, /readyz names the key store', async function () {
    const redis = await startRedis();
    const service = await startTestService({ REDIS_URL: redis.url });
    try {
      expect((await post(service, { from: 'A', to: 'B', items: [{ name: 'x' }] })).status).to.equal(200);
      await redis.stop();
      const started = performance.now();
      const res = await post(service, { from: 'A', to: 'B', items: [{ name: 'x' }] });
      const ms = performance.now() - started;
      const body = (await res.json()) as { code?: string };
      console.log(`      Redis down: ${res.status} ${body.code} after ${ms.toFixed(0)} ms`);
      expect(res.status).to.equal(503);
      expect(body.code).to.equal('store_unavailable');
      // store_unavailable is the store guard's answer once its tries are spent (a hang would meet mocha's timeout).
      expect(Number(res.headers.get('retry-after'))).to.be.greaterThan(0);
      const ready = await fetch(`${service.url}/readyz`);
      expect(ready.status).to.equal(503);
      expect(await ready.json()).to.include({ keyStore: 'unavailable' });
    } finally {
      await service.close();
      await redis.stop().catch(() => undefined);
    }
  });

  it('Redis stopped and started under load: every 200 counted once and nothing else, every other reservation released', async function () {
    this.timeout(240000);
    const redis = await startRedis({ persist: true });
    const service = await startTestService({ REDIS_URL: redis.url, FREE_PLAN_LIMIT: '1000' }, { pdf: fakeRenderer() });
    const client = new Redis(redis.url.replace('unix://', ''), { lazyConnect: true });
    try {
      const { key } = await service.keys.createKey('outage', 'free');
      const statuses: number[] = [];
      let next = 0;
      // 4 clients, 160 documents; Redis stopped after the 40th answer and started again after the 80th (the answers
      // between are the service's own, with Redis away).
      // Every lane waits for a stop or start to be done before its next request, so that the 40 answers between are
      // all made with Redis away (a stop takes a moment: Redis writes its file, and requests went on meanwhile).
      let gate: Promise<void> = Promise.resolve();
      const lane = async (): Promise<void> => {
        while (next < 160) {
          await gate;
          next++;
          const res = await post(service, { from: 'A', to: 'B', items: [{ name: 'x' }] }, { key });
          await res.arrayBuffer();
          statuses.push(res.status);
          if (statuses.length === 40) gate = redis.stop();
          if (statuses.length === 80) gate = redis.start();
        }
      };
      await Promise.all([lane(), lane(), lane(), lane()]);
      const made = statuses.filter((s) => s === 200).length;
      console.log(`      Redis away for 40 answers: ${made} × 200, ${statuses.filter((s) => s === 503).length} × 503`);
      expect(statuses.every((s) => s === 200 || s === 503)).to.equal(true);
      expect(statuses.filter((s) => s === 503).length).to.be.above(0);
      // What the store could not take then is finished in the background now that Redis is back.
      for (let i = 0; i < 400 && service.quota.unsettled() > 0; i++) await new Promise((r) => setTimeout(r, 100));
      expect(service.quota.unsettled()).to.equal(0);
      const period = periodOf(new Date());
      expect(await service.keys.usage('outage', period)).to.equal(made);
      await client.connect();
      expect(await client.zcard(`docgen:reservations:outage:${period}`)).to.equal(0);
      const after = await post(service, { from: 'A', to: 'B', items: [{ name: 'x' }] }, { key });
      expect(after.status).to.equal(200);
      expect(after.headers.get('ratelimit')).to.match(new RegExp(`^"monthly";r=${1000 - made - 1};`));
    } finally {
      client.disconnect();
      await service.close();
      await redis.stop().catch(() => undefined);
    }
  });

  it('a commit sent again under the same id (its first outcome lost with a connection) counts once, on Redis', async function () {
    const redis = await startRedis();
    const service = await startTestService({ REDIS_URL: redis.url }, { pdf: fakeRenderer() });
    try {
      const period = periodOf(new Date());
      const { ids } = await service.keys.reserve('twice', period, 10, 60_000, new Date(), 1);
      await service.keys.commit('twice', period, ids![0]!);
      await service.keys.commit('twice', period, ids![0]!);
      await service.keys.commit('twice', period, 'an-unlimited-document');
      expect(await service.keys.usage('twice', period)).to.equal(2);
    } finally {
      await service.close();
      await redis.stop();
    }
  });
});
