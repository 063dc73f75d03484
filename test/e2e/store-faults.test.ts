// The key store under faults (issue 14, findings 5 and 13), against the real service and a real SQLite file: another
// process holding the write lock, and the file deleted under the service.
import { spawn, type ChildProcess } from 'node:child_process';
import fs from 'node:fs';
import { expect } from 'chai';
import { startRedis } from '../helpers/redis';
import { post, startTestService, type TestService } from '../helpers/service';

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

  it('a write lock held by another process: /healthz never waits more than 200 ms, documents get 503 with Retry-After, then work again', async function () {
    const doc = { from: 'A', to: 'B', items: [{ name: 'x' }] };
    expect((await post(service, doc)).status).to.equal(200); // warm
    const holder = await holdWriteLock(service.config.sqlitePath);
    let worst = 0;
    let probing = true;
    const probe = (async () => {
      while (probing) {
        const t = performance.now();
        await fetch(`${service.url}/healthz`);
        worst = Math.max(worst, performance.now() - t);
        await new Promise((r) => setTimeout(r, 10));
      }
    })();
    try {
      const started = performance.now();
      const results = await Promise.all(
        Array.from({ length: 4 }, () =>
          post(service, doc).then(async (r) => ({
            status: r.status,
            retryAfter: r.headers.get('retry-after'),
            body: (await r.json().catch(() => ({}))) as { code?: string },
          })),
        ),
      );
      const ms = performance.now() - started;
      console.log(
        `      lock held: ${results.map((r) => r.status).join(', ')} in ${ms.toFixed(0)} ms; slowest /healthz ${worst.toFixed(0)} ms`,
      );
      for (const r of results) {
        expect(r.status).to.equal(503);
        expect(r.body.code).to.equal('store_unavailable');
        expect(Number(r.retryAfter)).to.be.greaterThan(0);
      }
      expect(ms).to.be.lessThan(3000);
    } finally {
      probing = false;
      await probe;
      holder.kill('SIGKILL');
      await new Promise((r) => holder.once('exit', r));
    }
    expect(worst, 'slowest /healthz while the lock was held').to.be.lessThan(200);
    expect((await post(service, doc)).status).to.equal(200);
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
  it('Redis down: documents get 503 store_unavailable with Retry-After within seconds, /readyz names the key store', async function () {
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
      expect(Number(res.headers.get('retry-after'))).to.be.greaterThan(0);
      expect(ms).to.be.lessThan(5000);
      const ready = await fetch(`${service.url}/readyz`);
      expect(ready.status).to.equal(503);
      expect(await ready.json()).to.include({ keyStore: 'unavailable' });
    } finally {
      await service.close();
      await redis.stop().catch(() => undefined);
    }
  });
});
