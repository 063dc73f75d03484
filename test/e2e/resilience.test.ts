// Faults: Chromium killed with SIGKILL in the middle of a burst, and SIGTERM to the real service process.
import fs from 'node:fs';
import net from 'node:net';
import { expect } from 'chai';
import type { BrowserPool } from '../../server/pdf/browser-pool';
import { startChildService } from '../helpers/child-service';
import { isPdf, pdfFlatText } from '../helpers/pdf';
import { alive, descendants, waitGone } from '../helpers/processes';
import { post, startTestService } from '../helpers/service';
import pino from 'pino';

/** The pool's events of the hung-browser test's service, printed when its request fails (what the pool did). */
const LOGS: string[] = [];
const logger = pino({ level: 'info' }, { write: (l: string) => void LOGS.push(l) });

const DOC = {
  from: 'Crash Co',
  to: 'Client',
  items: Array.from({ length: 120 }, (_, i) => ({ name: `Line ${i}`, quantity: 1, unit_cost: 3 })),
};

/** Waits for `condition` (polled every 10 ms): the event a signal must follow, not a guess at how long it takes. */
async function until(condition: () => boolean | Promise<boolean>, timeoutMs = 20000): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (!(await condition())) {
    if (Date.now() > deadline) throw new Error('the awaited condition never held');
    await new Promise((r) => setTimeout(r, 10));
  }
}

describe('browser crash', function () {
  this.timeout(60000);

  it('SIGKILL during a burst: in-flight requests get 503 (or succeed on the relaunched browser), not the deadline, the pool recovers, no Chromium is left after stop', async function () {
    const deadlineMs = 8000;
    const service = await startTestService({ RENDER_TIMEOUT_MS: String(deadlineMs), RENDER_CONCURRENCY: '2' });
    const pool = service.pdf as BrowserPool;
    const firstPid = pool.browserPid()!;
    expect(firstPid).to.be.a('number');
    const started = Date.now();
    const burst = Array.from({ length: 12 }, () =>
      post(service, DOC).then(async (res) => ({
        status: res.status,
        retryAfter: res.headers.get('retry-after'),
        body: new Uint8Array(await res.arrayBuffer()),
        ms: Date.now() - started,
      })),
    );
    await until(() => pool.stats().active > 0); // the burst is printing
    const chromeTree = [firstPid, ...descendants(firstPid)];
    process.kill(firstPid, 'SIGKILL');
    const results = await Promise.all(burst);
    const statuses = results.map((r) => r.status);
    for (const r of results) {
      expect([200, 503], `status ${r.status}`).to.include(r.status);
      if (r.status === 503) {
        expect(Number(r.retryAfter)).to.be.greaterThan(0);
        // Answered for the crash, not left to the render deadline (whose answer is render_timeout).
        expect((JSON.parse(Buffer.from(r.body).toString()) as { code?: string }).code).to.not.equal('render_timeout');
      }
      if (r.status === 200) expect(isPdf(r.body)).to.equal(true);
    }
    console.log(
      `      burst across the kill: ${statuses.filter((s) => s === 200).length} × 200, ${statuses.filter((s) => s === 503).length} × 503`,
    );
    expect(await waitGone(chromeTree, 5000), "the killed browser's processes are gone").to.deep.equal([]);

    // Recovered by itself: the next requests succeed on a new browser.
    for (let i = 0; i < 3; i++) expect((await post(service, { from: 'A', to: 'B', items: [{ name: 'x' }] })).status).to.equal(200);
    const secondPid = pool.browserPid()!;
    expect(secondPid).to.not.equal(firstPid);
    expect(pool.stats().browserRestarts).to.be.greaterThanOrEqual(1);
    const ready = (await (await fetch(`${service.url}/readyz`)).json()) as { status: string };
    expect(ready.status).to.equal('ready');

    const tree = [secondPid, ...descendants(secondPid)];
    await service.close();
    expect(await waitGone(tree, 5000), 'no Chromium process after stop').to.deep.equal([]);
  });
});

describe('hung browser and crashed renderer', function () {
  this.timeout(60000);

  it('a stopped browser (SIGSTOP) is found by the watchdog: /readyz turns not ready and a new browser serves the request sent to it, far within its deadline', async function () {
    const service = await startTestService({ RENDER_TIMEOUT_MS: '20000' }, { logger });
    const pool = service.pdf as BrowserPool;
    const hungPid = pool.browserPid()!;
    const tree = [hungPid, ...descendants(hungPid)];
    try {
      for (const pid of tree) process.kill(pid, 'SIGSTOP');
      const stoppedAt = Date.now();
      // A request sent to the hung browser: answered once the watchdog replaces it, far within its 20 s deadline.
      const inFlight = post(service, DOC).then(async (res) => ({
        status: res.status,
        ms: Date.now() - stoppedAt,
        body: res.status === 200 ? '' : await res.text(),
      }));
      // /readyz asked until it says not ready (at most 400 times; mocha's timeout bounds the wait).
      let notReadyAfter = -1;
      for (let asked = 0; asked < 400; asked++) {
        const ready = await fetch(`${service.url}/readyz`);
        if (ready.status === 503) {
          notReadyAfter = Date.now() - stoppedAt;
          break;
        }
        await new Promise((r) => setTimeout(r, 100));
      }
      console.log(`      SIGSTOP: /readyz not ready after ${notReadyAfter} ms`);
      expect(notReadyAfter, '/readyz said not ready').to.not.equal(-1);
      const first = await inFlight;
      console.log(`      the request sent to the hung browser: ${first.status} after ${first.ms} ms ${first.body}`);
      // A 200 (not the deadline's render_timeout): printed by the browser that replaced the hung one.
      // (A page closed on the hung browser once failed its print at once, and the retry went to the same browser.)
      if (first.status !== 200) console.log(LOGS.filter((l) => /render_|browser_|page_/.test(l)).join(''));
      expect(first.status).to.equal(200);
      expect((await post(service, { from: 'A', to: 'B', items: [{ name: 'x' }] })).status).to.equal(200);
      expect(pool.browserPid()).to.not.equal(hungPid);
      expect(((await (await fetch(`${service.url}/readyz`)).json()) as { status: string }).status).to.equal('ready');
      expect(await waitGone(tree, 5000), 'the hung browser is gone').to.deep.equal([]);
    } finally {
      for (const pid of tree) if (alive(pid)) process.kill(pid, 'SIGKILL');
      await service.close();
    }
  });

  it('a renderer killed mid-render: the render is retried on a fresh page at once, not after the deadline', async function () {
    const service = await startTestService({ RENDER_TIMEOUT_MS: '20000', RENDER_CONCURRENCY: '1' });
    const pool = service.pdf as BrowserPool;
    try {
      const long = {
        from: 'A',
        to: 'B',
        items: Array.from({ length: 1000 }, (_, i) => ({ name: `Line ${i}`, quantity: 1, unit_cost: 1 })),
      };
      const started = Date.now();
      const res = post(service, long).then(async (r) => ({
        status: r.status,
        body: new Uint8Array(await r.arrayBuffer()),
        ms: Date.now() - started,
      }));
      // Kill the renderer processes while the document is being written or printed.
      await until(() => pool.stats().active > 0);
      const renderers = descendants(pool.browserPid()!).filter((pid) => {
        try {
          return fs.readFileSync(`/proc/${pid}/cmdline`, 'utf8').includes('--type=renderer');
        } catch {
          return false;
        }
      });
      expect(renderers.length).to.be.greaterThan(0);
      for (const pid of renderers) process.kill(pid, 'SIGKILL');
      const out = await res;
      console.log(`      renderer killed mid-render: ${out.status} after ${out.ms} ms`);
      // A 200, not the deadline's render_timeout: the crash was seen and the render retried on a fresh page.
      expect(out.status).to.equal(200);
      expect(isPdf(out.body)).to.equal(true);
      expect(pool.stats().pagesLost, 'pages lost to the killed renderer').to.be.at.least(1);
    } finally {
      await service.close();
    }
  });
});

describe('renderer memory limit', function () {
  this.timeout(60000);

  it('a renderer over RENDERER_MAX_RSS_MB is killed: its document gets 503 render_failed (not the deadline), the next one renders', async function () {
    const service = await startTestService({ RENDERER_MAX_RSS_MB: '150', RENDER_CONCURRENCY: '1' });
    const pool = service.pdf as BrowserPool;
    try {
      const heavy = {
        from: 'A',
        to: 'B',
        items: Array.from({ length: 1000 }, (_, i) => ({
          name: `Line ${i} of a heavy document`,
          description: 'Two lines of description\nfor every one of a thousand items.',
          quantity: 1,
          unit_cost: 1,
        })),
      };
      const started = Date.now();
      const res = await post(service, heavy);
      const ms = Date.now() - started;
      const body = (await res.json()) as { code?: string };
      console.log(
        `      heavy document with a 150 MiB renderer limit: ${res.status} ${body.code} after ${ms} ms, ${pool.stats().renderersKilled} renderers killed`,
      );
      expect(res.status).to.equal(503);
      expect(body.code).to.equal('render_failed');
      expect(Number(res.headers.get('retry-after'))).to.be.greaterThan(0);
      expect(pool.stats().renderersKilled).to.be.greaterThanOrEqual(2);
      expect((await post(service, { from: 'A', to: 'B', items: [{ name: 'x' }] })).status).to.equal(200);
      expect(await (await fetch(`${service.url}/metrics`)).text()).to.match(/docgen_pool_renderers_killed_total [2-9]/);
    } finally {
      await service.close();
    }
  });
});

describe('page replacement', function () {
  this.timeout(60000);

  it('replaces each page after PAGE_MAX_RENDERS renders, also while the other prints, and never leaves a page behind', async function () {
    const service = await startTestService({ PAGE_MAX_RENDERS: '3', RENDER_CONCURRENCY: '2' });
    try {
      const pool = service.pdf as BrowserPool;
      let n = 0;
      // Bursts of 1, 2 and 5: pages come back idle, in use, and queued when their replacement arrives.
      for (const burst of [1, 2, 5, 2, 1, 5, 2, 5, 1, 2]) {
        const results = await Promise.all(
          Array.from({ length: burst }, () => {
            const number = `R-${++n}`;
            return post(service, { from: 'Replace Co', to: 'Client', number, items: [{ name: 'Item', unit_cost: 5 }] }).then(
              async (res) => ({ number, status: res.status, body: new Uint8Array(await res.arrayBuffer()) }),
            );
          }),
        );
        for (const r of results) {
          expect(r.status).to.equal(200);
          expect(await pdfFlatText(r.body)).to.contain(r.number);
        }
      }
      // Replacements finish off the request path: wait until the pool has settled.
      const settled = Date.now() + 5000;
      while ((pool.stats().idlePages !== 2 || (await pool.openPages()) !== 2) && Date.now() < settled)
        await new Promise((r) => setTimeout(r, 50));
      const stats = pool.stats();
      console.log(
        `      ${n} renders with PAGE_MAX_RENDERS=3: ${stats.pagesReplaced} pages replaced, ${await pool.openPages()} open at the end`,
      );
      // A page goes on printing while its replacement opens, so there are fewer replacements than n / 3.
      expect(stats.pagesReplaced).to.be.greaterThanOrEqual(3);
      expect(stats.idlePages).to.equal(2);
      expect(await pool.openPages()).to.equal(2);
      expect(await (await fetch(`${service.url}/metrics`)).text()).to.match(/^docgen_pool_pages_replaced_total [1-9]\d*$/m);
    } finally {
      await service.close();
    }
  });
});

describe('graceful shutdown', function () {
  this.timeout(60000);

  it('finishes the request in flight, closes Chromium and exits 0', async function () {
    const service = await startChildService();
    const { url, key, child, exited } = service;
    const readyMs = Number(/"ms":(\d+),"msg":"ready"/.exec(service.output())?.[1]);
    console.log(`      start-up to ready: ${readyMs} ms`);
    const tree = descendants(child.pid!);
    expect(tree.length, 'Chromium runs under the service').to.be.greaterThan(0);

    const big = {
      from: 'A',
      to: 'B',
      type: 'statement',
      items: Array.from({ length: 1000 }, (_, i) => ({ name: `Charge ${i}`, quantity: 1, unit_cost: 1 })),
    };
    const inFlight = fetch(`${url}/`, {
      method: 'POST',
      headers: { authorization: `Bearer ${key}`, 'content-type': 'application/json' },
      body: JSON.stringify(big),
    });
    // SIGTERM once the document is printing (the service's own /readyz says so).
    await until(async () => ((await (await fetch(`${url}/readyz`)).json()) as { activeRenders: number }).activeRenders > 0);
    child.kill('SIGTERM');
    const res = await inFlight;
    expect(res.status).to.equal(200);
    expect(isPdf(new Uint8Array(await res.arrayBuffer()))).to.equal(true);
    expect(await exited).to.equal(0);
    expect(await waitGone(tree, 5000), 'no Chromium process after exit').to.deep.equal([]);
    expect(alive(child.pid!)).to.equal(false);
    // New connections are refused once it has gone.
    let refused = false;
    await fetch(`${url}/healthz`).catch(() => (refused = true));
    expect(refused).to.equal(true);
  });

  it('does not wait for a connection that never sent a request (a spare socket a client opened ahead)', async function () {
    const service = await startTestService();
    const spare = net.connect(Number(new URL(service.url).port), '127.0.0.1');
    await new Promise((resolve) => spare.once('connect', resolve));
    const ended = new Promise((resolve) => spare.once('close', resolve));
    spare.on('error', () => undefined);
    const started = performance.now();
    const closed = await Promise.race([service.close().then(() => 'closed'), new Promise((r) => setTimeout(() => r('still open'), 10000))]);
    expect(closed).to.equal('closed');
    console.log(`      shutdown with a spare connection open: ${Math.round(performance.now() - started)} ms`);
    await ended;
  });
});
