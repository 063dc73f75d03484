// Faults injected on purpose into the real service (its own process, the real key store, Chromium and rules workers),
// on SQLite and on Redis, under a steady load of counted requests (PDFs, e-invoices, received e-invoices checked):
// the store failing (SQLite: every write of the process refused by the kernel, as on a full or read-only disk; Redis:
// the server stopped) and back, a Chromium renderer killed, a rules worker killed, then SIGTERM with renders in flight.
// Afterwards the store itself is read: every 200 was counted exactly once and nothing else, no reservation is left,
// and the process exited 0. Every request the service read (its access log names each one's X-Request-Id) had a 200
// or a 503; only a request its shutdown found unread on an idle connection may have had none.
import { execFileSync } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import Database from 'better-sqlite3';
import { expect } from 'chai';
import Redis from 'ioredis';
import { periodOf } from '../../server/quota/quota';
import { startChildService, type ChildService } from '../helpers/child-service';
import { descendants } from '../helpers/processes';
import { E_INVOICE } from '../helpers/e-invoice-request';
import { readExample } from '../helpers/received';
import { startRedis, type TestRedis } from '../helpers/redis';
import { tempDir } from '../helpers/service';

interface Answer {
  route: string;
  status: number;
  code?: string;
  /** The request's X-Request-Id, which the service's access log names. */
  id: string;
}

const INVOICE = {
  from: 'Fault Co',
  to: 'Client',
  currency: 'EUR',
  items: Array.from({ length: 30 }, (_, i) => ({ name: `Line ${i}`, quantity: 1, unit_cost: 3 })),
};
const RECEIVED = readExample('en16931-ubl/ubl-tc434-example1.xml');

/** The requests each lane sends in turn: a PDF, an e-invoice, and a received e-invoice checked by the rules workers. */
const ROUTES: { path: string; body: () => { body: string; type: string } }[] = [
  { path: '/', body: () => ({ body: JSON.stringify(INVOICE), type: 'application/json' }) },
  {
    path: '/ubl',
    body: () => ({ body: JSON.stringify({ ...INVOICE, number: 'F-1', tax: 21, e_invoice: E_INVOICE }), type: 'application/json' }),
  },
  { path: '/validate', body: () => ({ body: RECEIVED, type: 'application/xml' }) },
];

/** The service's own processes whose command line matches `pattern` (its Chromium renderers, its rules workers). */
function processesOf(root: number, pattern: RegExp): number[] {
  return descendants(root).filter((pid) => {
    try {
      return pattern.test(fs.readFileSync(`/proc/${pid}/cmdline`, 'utf8').replace(/\0/g, ' '));
    } catch {
      return false;
    }
  });
}

async function until(condition: () => boolean | Promise<boolean>, what: string, tries = 3000): Promise<void> {
  for (let i = 0; i < tries; i++) {
    if (await condition()) return;
    await new Promise((r) => setTimeout(r, 20));
  }
  throw new Error(`never: ${what}`);
}

async function readiness(url: string): Promise<{ status: number; body: Record<string, unknown> }> {
  const res = await fetch(`${url}/readyz`);
  return { status: res.status, body: (await res.json()) as Record<string, unknown> };
}

/** Lanes sending the ROUTES in turn until told to stop; each answer is recorded. */
class Load {
  readonly answers: Answer[] = [];
  private stopped = false;
  private readonly lanes: Promise<void>[];
  private n = 0;

  constructor(
    private readonly service: ChildService,
    lanes: number,
  ) {
    this.lanes = Array.from({ length: lanes }, () => this.lane());
  }

  private async lane(): Promise<void> {
    while (!this.stopped) {
      const id = `fault-${this.n}`;
      const route = ROUTES[this.n++ % ROUTES.length]!;
      const { body, type } = route.body();
      const res = await fetch(`${this.service.url}${route.path}`, {
        method: 'POST',
        headers: { authorization: `Bearer ${this.service.key}`, 'content-type': type, 'x-request-id': id },
        body,
      }).catch((err: Error) => err);
      if (res instanceof Error) {
        // No answer at all (the connection refused or reset): recorded as status 0.
        this.answers.push({ route: route.path, status: 0, code: res.message, id });
        continue;
      }
      const bytes = Buffer.from(await res.arrayBuffer());
      const code = res.status === 200 ? undefined : (JSON.parse(bytes.toString('utf8')) as { code?: string }).code;
      this.answers.push({ route: route.path, status: res.status, code, id });
    }
  }

  /** Resolves once `count` more answers have come. */
  async more(count: number, what: string): Promise<void> {
    const target = this.answers.length + count;
    await until(() => this.answers.length >= target, what);
  }

  /** Sends nothing more; resolves when every request sent has its answer. */
  async stop(): Promise<void> {
    this.stopped = true;
    await Promise.all(this.lanes);
  }
}

interface StoreUnderTest {
  env(): Record<string, string>;
  /** Makes the store fail under the running service, and makes it work again. */
  fail(service: ChildService): Promise<void>;
  heal(service: ChildService): Promise<void>;
  /** Read from the store itself once the service has exited: the account's usage and its reservations left. */
  counts(account: string, period: string): Promise<{ usage: number; reservations: number }>;
  close(): Promise<void>;
}

function sqliteStore(file: string): StoreUnderTest {
  return {
    env: () => ({}),
    // The kernel refuses every write of the service's process past its first byte (RLIMIT_FSIZE: EFBIG), as a disk
    // that is full, read-only or failing would: SQLite answers "disk I/O error". Reads go on.
    async fail(service) {
      execFileSync('prlimit', ['--pid', String(service.child.pid), '--fsize=1:unlimited']);
    },
    async heal(service) {
      execFileSync('prlimit', ['--pid', String(service.child.pid), '--fsize=unlimited:unlimited']);
    },
    async counts(account, period) {
      const db = new Database(file, { readonly: true });
      try {
        const usage =
          (db.prepare('SELECT count FROM usage WHERE account = ? AND period = ?').get(account, period) as { count: number } | undefined)
            ?.count ?? 0;
        const reservations = (db.prepare('SELECT COUNT(*) AS n FROM reservations').get() as { n: number }).n;
        return { usage, reservations };
      } finally {
        db.close();
      }
    },
    async close() {},
  };
}

function redisStore(redis: TestRedis): StoreUnderTest {
  return {
    env: () => ({ REDIS_URL: redis.url }),
    fail: () => redis.stop(),
    heal: () => redis.start(),
    async counts(account, period) {
      const client = new Redis(redis.url.replace('unix://', ''));
      try {
        const usage = Number((await client.get(`docgen:usage:${account}:${period}`)) ?? 0);
        const reservations = await client.zcard(`docgen:reservations:${account}:${period}`);
        return { usage, reservations };
      } finally {
        client.disconnect();
      }
    },
    close: () => redis.stop().catch(() => undefined),
  };
}

const summary = (answers: Answer[]): string => {
  const by = new Map<string, number>();
  for (const a of answers)
    by.set(`${a.status}${a.code ? ` ${a.code}` : ''}`, (by.get(`${a.status}${a.code ? ` ${a.code}` : ''}`) ?? 0) + 1);
  return [...by].map(([k, n]) => `${n} × ${k}`).join(', ');
};

for (const kind of ['sqlite', 'redis'] as const) {
  describe(`faults injected, on ${kind === 'sqlite' ? 'SQLite' : 'Redis'}`, function () {
    this.timeout(300_000);

    it('the store failing and back, a renderer and a rules worker killed, SIGTERM with renders in flight: only 200 and 503, every 200 counted once and nothing else, exit 0', async function () {
      const sqlitePath = path.join(tempDir('faults'), 'db.sqlite');
      const store = kind === 'sqlite' ? sqliteStore(sqlitePath) : redisStore(await startRedis({ persist: true }));
      const service = await startChildService({
        ...store.env(),
        SQLITE_PATH: sqlitePath,
        // A limit, so that every document is reserved before it is made (an unlimited plan reserves nothing).
        PAID_PLAN_LIMIT: '100000',
        RENDER_CONCURRENCY: '2',
        RULES_WORKERS: '1',
      });
      const period = periodOf(new Date());
      const load = new Load(service, 4);
      const phases: string[] = [];
      const phase = (name: string, from: number): void => {
        phases.push(`      ${name}: ${summary(load.answers.slice(from))}`);
      };
      try {
        let from = 0;
        await load.more(9, 'the first answers');
        phase('warm', from);

        // 1. The store fails under the load, then comes back.
        from = load.answers.length;
        await store.fail(service);
        await until(() => load.answers.slice(from).some((a) => a.code === 'store_unavailable'), 'a 503 store_unavailable');
        const down = await readiness(service.url);
        expect(down.status, 'readiness with the store failing').to.equal(503);
        expect(down.body).to.include({ keyStore: 'unavailable' });
        await load.more(8, 'answers with the store failing');
        await store.heal(service);
        await until(async () => (await readiness(service.url)).status === 200, 'ready again');
        await until(async () => (await readiness(service.url)).body.unsettledUsage === 0, 'every count settled', 10_000);
        const back = load.answers.length;
        await load.more(6, 'answers with the store back');
        phase('store failing and back', from);
        expect(summary(load.answers.slice(back + 3)), 'answers once the store is back').to.match(/^\d+ × 200$/);

        // 2. A Chromium renderer killed mid-load.
        from = load.answers.length;
        const renderers = processesOf(service.child.pid!, /--type=renderer/);
        expect(renderers.length, 'Chromium renderers').to.be.above(0);
        for (const pid of renderers) process.kill(pid, 'SIGKILL');
        await load.more(9, 'answers after the renderers were killed');
        phase('renderers killed', from);

        // 3. The rules worker killed mid-load.
        from = load.answers.length;
        const workers = processesOf(service.child.pid!, /rules-worker/);
        expect(workers.length, 'rules workers').to.be.above(0);
        for (const pid of workers) process.kill(pid, 'SIGKILL');
        await load.more(9, 'answers after the rules worker was killed');
        phase('rules worker killed', from);
        await until(
          () => load.answers.slice(-6).some((a) => a.route === '/validate' && a.status === 200),
          'a received e-invoice checked again',
        );

        // 4. SIGTERM with renders in flight: those are answered, then the process exits 0.
        await until(async () => ((await readiness(service.url)).body.activeRenders as number) > 0, 'renders in flight');
        from = load.answers.length;
        service.child.kill('SIGTERM');
        await load.stop().catch(() => undefined);
        const code = await service.exited;
        // Everything it logged (its access log names the requests it read): its output read to the end.
        const out = service.child.stdout!;
        if (!out.readableEnded) await new Promise((resolve) => out.once('end', resolve));
        phase('SIGTERM', from);
        const unread = load.answers.slice(from).filter((a) => a.status === 0).length;
        if (unread > 0) console.log(`      SIGTERM: ${unread} request(s) on a connection closed before the service read them`);
        expect(code, 'exit code after SIGTERM').to.equal(0);

        // A request still on the wire when the shutdown began may find its keep-alive connection closed unread: HTTP
        // lets a server close an idle connection at any time, and Node's server.close() closes them. Its client gets no
        // answer, and the service has no record of it; that is the only request without an answer allowed. Any
        // request the service read (its access log names its id) has a 200 or a 503.
        const read = new Set(
          service
            .output()
            .split('\n')
            .filter((line) => line.includes('"msg":"request"'))
            .map((line) => (JSON.parse(line) as { requestId?: string }).requestId),
        );
        load.answers.forEach((a, i) => {
          const what = `${a.route} (${a.id}): ${a.status} ${a.code ?? ''}`;
          if (a.status === 0 && i >= from && !read.has(a.id)) return;
          expect([200, 503], what).to.include(a.status);
        });
        const made = load.answers.filter((a) => a.status === 200).length;
        const { usage, reservations } = await store.counts('local', period);
        console.log(`      ${load.answers.length} answers, ${made} × 200; the store counts ${usage}, ${reservations} reservations left`);
        expect(usage, 'usage in the store = the 200s').to.equal(made);
        expect(reservations, 'reservations left in the store').to.equal(0);
      } finally {
        console.log(phases.join('\n'));
        await load.stop().catch(() => undefined);
        if (service.child.exitCode === null) service.child.kill('SIGKILL');
        await store.close();
      }
    });
  });
}
