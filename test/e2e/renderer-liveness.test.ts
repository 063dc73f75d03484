// Renderers that die or stop, idle or mid-render. Each print page has a renderer process of its own; a dead one must be
// noticed before a request is given to its page, /readyz must count only live idle pages, and a stopped renderer may
// cost at most the render that was in it. Real service, real Chromium, real signals.
import fs from 'node:fs';
import { expect } from 'chai';
import type { BrowserPool } from '../../server/pdf/browser-pool';
import { rendererMemory } from '../../server/pdf/process-memory';
import { isPdf } from '../helpers/pdf';
import { alive } from '../helpers/processes';
import { post, startTestService, type TestService } from '../helpers/service';

const SMALL = { from: 'Live Co', to: 'Client', items: [{ name: 'Widget', quantity: 1, unit_cost: 5 }] };
/** Long enough (a few hundred ms a print here) that a signal sent once printing has begun lands mid-render. */
const LONG = {
  from: 'Live Co',
  to: 'Client',
  items: Array.from({ length: 200 }, (_, i) => ({ name: `Line ${i}`, quantity: 1, unit_cost: 2 })),
};

const sleep = (ms: number): Promise<void> => new Promise((r) => setTimeout(r, ms));

async function until(condition: () => boolean | Promise<boolean>, timeoutMs = 20000): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (!(await condition())) {
    if (Date.now() > deadline) throw new Error('the awaited condition never held');
    await sleep(10);
  }
}

function state(pid: number): string | undefined {
  try {
    const stat = fs.readFileSync(`/proc/${pid}/stat`, 'utf8');
    return stat.slice(stat.lastIndexOf(')') + 2)[0];
  } catch {
    return undefined;
  }
}

/** The browser's renderer processes (a zombie has no command line, so a killed one is not among them). */
function renderers(pool: BrowserPool): number[] {
  const root = pool.browserPid();
  return root ? rendererMemory(root).map((r) => r.pid) : [];
}

/** Renderers that can answer: alive and not stopped. */
function runnable(pool: BrowserPool): number[] {
  return renderers(pool).filter((pid) => state(pid) !== 'T');
}

interface Outcome {
  status: number;
  code?: string;
  ms: number;
}

function send(service: TestService, body: unknown, since: number): Promise<Outcome> {
  return post(service, body).then(async (res) => {
    const bytes = new Uint8Array(await res.arrayBuffer());
    const ms = Date.now() - since;
    if (res.status === 200) {
      expect(isPdf(bytes)).to.equal(true);
      return { status: 200, ms };
    }
    return { status: res.status, code: (JSON.parse(Buffer.from(bytes).toString()) as { code?: string }).code, ms };
  });
}

/** Polls /readyz until `stop()`: every answer's idle pages, against the renderers that could serve right after it. */
function watchReadiness(service: TestService, pool: BrowserPool): { stop(): Promise<{ idle: number; live: number }[]> } {
  const seen: { idle: number; live: number }[] = [];
  let running = true;
  const loop = (async () => {
    while (running) {
      const body = (await (await fetch(`${service.url}/readyz`)).json()) as { idlePages: number };
      seen.push({ idle: body.idlePages, live: runnable(pool).length });
      await sleep(20);
    }
  })();
  return {
    stop: async () => {
      running = false;
      await loop;
      return seen;
    },
  };
}

function summary(outcomes: Outcome[]): string {
  const counts = new Map<string, number>();
  for (const o of outcomes) counts.set(o.code ?? String(o.status), (counts.get(o.code ?? String(o.status)) ?? 0) + 1);
  return `${[...counts].map(([k, n]) => `${n} × ${k}`).join(', ')}, slowest ${Math.max(...outcomes.map((o) => o.ms))} ms`;
}

describe('renderer liveness', function () {
  this.timeout(120000);

  it('one renderer process per page', async function () {
    const service = await startTestService({ RENDER_CONCURRENCY: '4' });
    try {
      const pool = service.pdf as BrowserPool;
      await until(() => pool.stats().idlePages === 4);
      const pids = renderers(pool);
      const rss = rendererMemory(pool.browserPid()!).map((r) => Math.round(r.rssMiB));
      console.log(`      4 pages: ${pids.length} renderer processes, RSS ${rss.join(', ')} MiB`);
      expect(pids.length).to.equal(4);
    } finally {
      await service.close();
    }
  });

  it('renderers killed (SIGKILL) while idle: the next requests get 200 on fresh pages, /readyz never counts a dead page', async function () {
    const service = await startTestService({ RENDER_CONCURRENCY: '2', RENDER_TIMEOUT_MS: '20000' });
    try {
      const pool = service.pdf as BrowserPool;
      for (const o of await Promise.all([send(service, SMALL, Date.now()), send(service, SMALL, Date.now())]))
        expect(o.status).to.equal(200);
      await until(() => pool.stats().idlePages === 2);
      const victims = renderers(pool);
      expect(victims.length).to.equal(2);
      for (const pid of victims) process.kill(pid, 'SIGKILL');
      const killedAt = Date.now();
      // Asked at once, before any request: the pages are dead whether or not Chromium has said so yet.
      const first = {
        idle: ((await (await fetch(`${service.url}/readyz`)).json()) as { idlePages: number }).idlePages,
        live: runnable(pool).length,
      };
      const readiness = watchReadiness(service, pool);
      const outcomes = await Promise.all(Array.from({ length: 6 }, () => send(service, SMALL, killedAt)));
      await sleep(300); // and a little while after, while the pool settles
      const claims = [first, ...(await readiness.stop())];
      const false_ = claims.filter((c) => c.idle > c.live);
      console.log(
        `      after SIGKILL of both idle renderers: ${summary(outcomes)}; /readyz asked ${claims.length} times, ${false_.length} counted dead pages (e.g. ${JSON.stringify(false_[0] ?? null)})`,
      );
      // Every one a 200 (a request given to a dead page would wait for its 20 s deadline: render_timeout): both dead
      // pages were found and replaced.
      expect(outcomes.map((o) => o.status)).to.deep.equal(Array(6).fill(200));
      expect(pool.stats().pagesLost, 'dead pages found').to.be.at.least(2);
      expect(false_, '/readyz idle pages beyond the live renderers').to.deep.equal([]);
      await until(() => pool.stats().idlePages === 2, 5000);
      expect(((await (await fetch(`${service.url}/readyz`)).json()) as { status: string }).status).to.equal('ready');
    } finally {
      await service.close();
    }
  });

  it('renderers stopped (SIGSTOP) while idle: the next requests get 200 on fresh pages, /readyz never counts a stopped page', async function () {
    const service = await startTestService({ RENDER_CONCURRENCY: '2', RENDER_TIMEOUT_MS: '20000' });
    let victims: number[] = [];
    try {
      const pool = service.pdf as BrowserPool;
      await until(() => pool.stats().idlePages === 2);
      victims = renderers(pool);
      expect(victims.length).to.equal(2);
      for (const pid of victims) process.kill(pid, 'SIGSTOP');
      const stoppedAt = Date.now();
      const readiness = watchReadiness(service, pool);
      const outcomes = await Promise.all(Array.from({ length: 4 }, () => send(service, SMALL, stoppedAt)));
      await sleep(300);
      const claims = await readiness.stop();
      const false_ = claims.filter((c) => c.idle > c.live);
      console.log(
        `      after SIGSTOP of both idle renderers: ${summary(outcomes)}; /readyz asked ${claims.length} times, ${false_.length} counted stopped pages`,
      );
      // Every one a 200, not the 20 s deadline's render_timeout: both stopped pages were found and replaced.
      expect(outcomes.map((o) => o.status)).to.deep.equal(Array(4).fill(200));
      expect(pool.stats().pagesLost, 'stopped pages found').to.be.at.least(2);
      expect(false_, '/readyz idle pages beyond the runnable renderers').to.deep.equal([]);
    } finally {
      for (const pid of victims) if (alive(pid)) process.kill(pid, 'SIGKILL');
      await service.close();
    }
  });

  for (const concurrency of [2, 1]) {
    it(`a renderer stopped (SIGSTOP) mid-render with 8 requests in: at most its own request fails, the others get 200 (RENDER_CONCURRENCY=${concurrency})`, async function () {
      const service = await startTestService({ RENDER_CONCURRENCY: String(concurrency), RENDER_TIMEOUT_MS: '20000' });
      let victim: number | undefined;
      try {
        const pool = service.pdf as BrowserPool;
        // The same 8 requests without a signal first (and every page warm: frame and fonts loaded).
        const controlAt = Date.now();
        const control = await Promise.all(Array.from({ length: 8 }, () => send(service, LONG, controlAt)));
        const sentAt = Date.now();
        const inFlight = Array.from({ length: 8 }, () => send(service, LONG, sentAt));
        await until(() => pool.stats().active === concurrency && pool.stats().queued > 0);
        // Every page is printing (active === concurrency): any renderer is one mid-render.
        victim = renderers(pool)[0]!;
        process.kill(victim, 'SIGSTOP');
        const outcomes = await Promise.all(inFlight);
        console.log(
          `      renderer stopped mid-render, 8 requests: ${summary(outcomes)} (without the stop: ${summary(control)}; ${pool.stats().pagesLost} pages lost)`,
        );
        const failed = outcomes.filter((o) => o.status !== 200);
        expect(failed.length, 'requests that failed').to.be.at.most(1);
        // Found, killed, and its render retried on a fresh page, never left to the 20 s deadline: every request a 200
        // (the 20 s deadline's answer is render_timeout), or at most the stopped one's render_failed.
        for (const o of failed) expect([o.status, o.code]).to.deep.equal([503, 'render_failed']);
        expect((await send(service, SMALL, Date.now())).status).to.equal(200);
        // The prints went straight to the pipe (direct-calls.ts), and the stopped page's calls, which Chromium never
        // answers, failed with its page: none is left waiting.
        const direct = pool.directCalls();
        expect(direct?.made, 'direct calls made').to.be.at.least(2 * 17);
        expect(direct?.pending, 'direct calls left waiting').to.equal(0);
      } finally {
        if (victim && alive(victim)) process.kill(victim, 'SIGKILL');
        await service.close();
      }
    });
  }
});
