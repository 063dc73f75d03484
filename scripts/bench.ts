// npm run bench [-- --seconds N] [--soak [renders]] [--overload [seconds]]
// Measures, in one run, the renderer's physical limit and the service side by side (issue 7):
//   floor:   the service's own renderer (puppeteer, same Chromium, reused pages) printing the service's own HTML for
//            the same document, called directly, with no service around it;
//   service: the built service as its own process, over HTTP on localhost, at the same concurrency;
//   the two run in alternating short rounds, so that the machine's drifts fall on both alike.
// Workloads: a one-page invoice, a 1,000-line statement, and /ubl for the invoice. Then, on request, a memory soak
// (RSS of the service and its Chromium at render 1,000 and at the end) and an overload run at 3 × capacity.
import { spawn, execFileSync } from 'node:child_process';
import fs from 'node:fs';
import http from 'node:http';
import os from 'node:os';
import path from 'node:path';
import { loadConfig, projectRoot } from '../server/config';
import { BrowserPool, type PdfRenderer } from '../server/pdf/browser-pool';
import { CREATOR, DocumentPipeline, loadAssets } from '../server/pipeline';
import type { RenderedHtml } from '../server/render/html';

const args = process.argv.slice(2);
const flag = (name: string, fallback?: number): number | undefined => {
  const i = args.indexOf(`--${name}`);
  if (i < 0) return undefined;
  const v = Number(args[i + 1]);
  return Number.isFinite(v) ? v : fallback;
};
const SECONDS = flag('seconds', 15) ?? 15;
const SOAK = flag('soak', 10000);
const OVERLOAD = flag('overload', 60);
const CONCURRENCY = Number(process.env.RENDER_CONCURRENCY ?? Math.min(os.availableParallelism(), 8));
const ROOT = projectRoot();

const INVOICE = {
  from: 'Nikolaus Ltd\n12 High Street\nLondon\nVAT ID: GB123456789',
  to: 'Acme, Corp.\n500 Main Ave',
  number: 'INV-1',
  date: '2026-11-02',
  due_date: '2026-12-02',
  items: [
    { name: 'Starter plan monthly', quantity: 1, unit_cost: 99 },
    { name: 'Support hours', quantity: 3, unit_cost: 45, description: 'Priority e-mail support' },
    { name: 'Setup', quantity: 1, unit_cost: 250 },
  ],
  tax: 8,
  notes: 'Thanks for your business!',
};
const STATEMENT = {
  type: 'statement',
  from: 'Harbor Utilities\nPortland, ME',
  to: 'Lighthouse Bakery',
  number: 'ST-1000',
  items: Array.from({ length: 1000 }, (_, i) =>
    i % 10 === 9 ? { date: '2026-10-15', reference: `PAY-${i}`, name: `Payment ${i}`, payment: 100 } : { date: '2026-10-01', reference: `INV-${i}`, name: `Charge ${i}`, quantity: 1, unit_cost: 12.5 },
  ),
};

interface Run {
  count: number;
  seconds: number;
  throughput: number;
  p50: number;
  p99: number;
}

function summarize(times: number[], seconds: number): Run {
  const s = [...times].sort((a, b) => a - b);
  const q = (p: number) => s[Math.min(s.length - 1, Math.floor(p * s.length))] ?? NaN;
  return { count: s.length, seconds, throughput: s.length / seconds, p50: q(0.5), p99: q(0.99) };
}

/** `workers` closed-loop workers calling `job` for `seconds` (or until `count` jobs); the times also go to `into`. */
async function closedLoop(workers: number, seconds: number, job: () => Promise<void>, count?: number, into?: number[]): Promise<Run> {
  const times: number[] = [];
  const start = performance.now();
  const end = start + seconds * 1000;
  let issued = 0;
  await Promise.all(
    Array.from({ length: workers }, async () => {
      while (count === undefined ? performance.now() < end : issued < count) {
        issued++;
        const t = performance.now();
        await job();
        times.push(performance.now() - t);
      }
    }),
  );
  into?.push(...times);
  return summarize(times, (performance.now() - start) / 1000);
}

async function startService(env: Record<string, string>): Promise<{ url: string; key: string; pid: number; stop: () => Promise<void> }> {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'docgen-bench-'));
  const child = spawn(process.execPath, [path.join(ROOT, 'dist', 'server', 'main.js')], {
    cwd: ROOT,
    env: { ...process.env, PORT: '0', HOST: '127.0.0.1', SQLITE_PATH: path.join(dir, 'db.sqlite'), NODE_ENV: 'development', LOG_LEVEL: 'info', ...env },
    stdio: ['ignore', 'pipe', 'inherit'],
  });
  let out = '';
  await new Promise<void>((resolve, reject) => {
    const onData = (d: Buffer) => {
      out += d.toString();
      if (/"msg":"ready"/.test(out)) {
        child.stdout!.off('data', onData);
        child.stdout!.resume(); // keep draining the access log
        resolve();
      }
    };
    child.stdout!.on('data', onData);
    child.once('exit', () => reject(new Error(`service exited:\n${out}`)));
  });
  return {
    url: /"url":"([^"]+)"/.exec(out)![1]!,
    key: /sk_[0-9A-Za-z]{32}/.exec(out)![0],
    pid: child.pid!,
    stop: () => new Promise((resolve) => {
      child.once('exit', () => resolve());
      child.kill('SIGTERM');
    }),
  };
}

/** Resident memory of a process and all its descendants, in MiB. */
function treeRssMiB(pid: number): number {
  const out = execFileSync('ps', ['-eo', 'pid=,ppid=,rss=']).toString().trim().split('\n').map((l) => l.trim().split(/\s+/).map(Number));
  const children = new Map<number, number[]>();
  const rss = new Map<number, number>();
  for (const [p, pp, r] of out) {
    children.set(pp!, [...(children.get(pp!) ?? []), p!]);
    rss.set(p!, r!);
  }
  let total = 0;
  const stack = [pid];
  while (stack.length) {
    const p = stack.pop()!;
    total += rss.get(p) ?? 0;
    stack.push(...(children.get(p) ?? []));
  }
  return total / 1024;
}

/**
 * The load generator's client: node:http with kept-alive connections. It shares the 2 cores with the service and
 * Chromium, so it is kept lean: fetch (undici) cost 2.4 ms of CPU per request here, this 1.0 ms.
 */
function postTo(base: string, key: string) {
  const url = new URL(base);
  const agent = new http.Agent({ keepAlive: true, maxSockets: 1024 });
  return (route: string, body: string) =>
    new Promise<{ status: number; headers: http.IncomingHttpHeaders; body: Buffer }>((resolve, reject) => {
      const req = http.request(
        { host: url.hostname, port: url.port, path: route, method: 'POST', agent,
          headers: { authorization: `Bearer ${key}`, 'content-type': 'application/json', 'content-length': Buffer.byteLength(body) } },
        (res) => {
          const chunks: Buffer[] = [];
          res.on('data', (c: Buffer) => chunks.push(c));
          res.on('end', () => resolve({ status: res.statusCode ?? 0, headers: res.headers, body: Buffer.concat(chunks) }));
          res.on('error', reject);
        },
      );
      req.on('error', reject);
      req.end(body);
    });
}

/** The service's Prometheus sums and counts (series without labels, and `route` labels summed). */
async function serviceMetrics(base: string): Promise<Map<string, number>> {
  const text = await (await fetch(`${base}/metrics`)).text();
  const out = new Map<string, number>();
  for (const m of text.matchAll(/^(docgen_\w+_(?:sum|count))(?:\{[^}]*\})? ([\d.e+-]+)$/gm)) out.set(m[1]!, (out.get(m[1]!) ?? 0) + Number(m[2]));
  return out;
}

const fmt = (n: number) => (Number.isFinite(n) ? n.toFixed(1) : '-');

(async () => {
  execFileSync('npm', ['run', '-s', 'build'], { cwd: ROOT, stdio: 'inherit' });
  const config = loadConfig({ ...process.env, NODE_ENV: 'test' });
  const noPdf = {} as PdfRenderer;
  const pipeline = new DocumentPipeline(loadAssets(ROOT, config.limits), noPdf, undefined, config);
  const htmlOf = async (doc: object) => pipeline.renderHtml(pipeline.prepare(structuredClone(doc), pipeline.locale('en-US')));
  const invoiceHtml = await htmlOf(INVOICE);
  const statementHtml = await htmlOf(STATEMENT);

  // The floor: the service's own renderer (same Chromium, flags, pages and print path), printing the service's own
  // HTML for the same document, called directly: the same Chromium with no service around it.
  const floor = new BrowserPool({
    executablePath: config.chromiumPath,
    sandbox: config.chromiumSandbox,
    concurrency: CONCURRENCY,
    queueLimit: 1000,
    timeoutMs: config.renderTimeoutMs,
    maxRendersPerBrowser: 0,
  });
  await floor.start();
  const floorJob = (html: RenderedHtml) => async () => {
    await floor.render(html.html, { format: 'letter', metadata: { title: html.title, author: html.author, creator: CREATOR } });
  };

  const service = await startService({ RENDER_CONCURRENCY: String(CONCURRENCY) });
  const post = postTo(service.url, service.key);
  const call = (route: string, doc: object) => {
    const body = JSON.stringify(doc);
    return async () => {
      const res = await post(route, body);
      if (res.status !== 200 || res.body.length < 1000) throw new Error(`${route}: HTTP ${res.status}`);
    };
  };

  console.log(`\nbench: ${os.cpus().length} cores, concurrency ${CONCURRENCY}, ${SECONDS} s per contender in alternating rounds, ${execFileSync(config.chromiumPath, ['--version']).toString().trim()}`);
  // Warm both.
  await closedLoop(CONCURRENCY, 2, floorJob(invoiceHtml));
  await closedLoop(CONCURRENCY, 2, call('/', INVOICE));
  await closedLoop(CONCURRENCY, 2, call('/ubl', INVOICE));

  // Side by side: the contenders run in alternating short rounds (the order rotating), so that the machine's drifts
  // (other tenants, thermal, caches) fall on all of them alike; each result sums its rounds.
  const interleaved = async (roundSeconds: number, contenders: (() => Promise<void>)[]): Promise<Run[]> => {
    const rounds = Math.max(1, Math.round(SECONDS / roundSeconds));
    const times: number[][] = contenders.map(() => []);
    const seconds: number[] = contenders.map(() => 0);
    for (let r = 0; r < rounds; r++) {
      for (let k = 0; k < contenders.length; k++) {
        const i = (r + k) % contenders.length;
        const run = await closedLoop(CONCURRENCY, roundSeconds, contenders[i]!, undefined, times[i]);
        seconds[i] += run.seconds;
      }
    }
    return contenders.map((_, i) => summarize(times[i]!, seconds[i]!));
  };
  const metricsBefore = await serviceMetrics(service.url);
  const [floorInvoice, serviceInvoice, ubl] = await interleaved(2, [floorJob(invoiceHtml), call('/', INVOICE), call('/ubl', INVOICE)]);
  const metricsAfter = await serviceMetrics(service.url);
  const [floorStatement, serviceStatement] = await interleaved(5, [floorJob(statementHtml), call('/', STATEMENT)]);
  const rows: [string, Run, Run][] = [
    ['one-page invoice  POST /', serviceInvoice!, floorInvoice!],
    ['1,000-line statement POST /', serviceStatement!, floorStatement!],
    ['one-page invoice  POST /ubl', ubl!, floorInvoice!],
  ];
  await floor.close();

  console.log('\n| workload | floor docs/s | floor p50 ms | floor p99 ms | service docs/s | service p50 ms | service p99 ms | throughput ÷ floor | p50 ÷ floor |');
  console.log('|---|---|---|---|---|---|---|---|---|');
  for (const [name, s, f] of rows) {
    console.log(`| ${name} | ${fmt(f.throughput)} | ${fmt(f.p50)} | ${fmt(f.p99)} | ${fmt(s.throughput)} | ${fmt(s.p50)} | ${fmt(s.p99)} | ${(s.throughput / f.throughput).toFixed(2)} | ${(s.p50 / f.p50).toFixed(2)} |`);
  }
  // Where the service's time goes, from its own /metrics over the invoice rounds (/ and /ubl together).
  const delta = (name: string) => (metricsAfter.get(name) ?? 0) - (metricsBefore.get(name) ?? 0);
  const perRequest = (name: string) => (1000 * delta(`${name}_sum`)) / delta(`${name}_count`);
  console.log(`\nservice, mean per invoice request: ${fmt(perRequest('docgen_http_request_duration_seconds'))} ms in the service, of which ` +
    `${fmt(perRequest('docgen_render_queue_wait_seconds'))} ms waiting for a page and ${fmt(perRequest('docgen_render_duration_seconds'))} ms printing`);
  console.log(`\ntargets: invoice throughput ${(serviceInvoice!.throughput / floorInvoice!.throughput).toFixed(2)} (≥ 0.85), invoice p50 ${(serviceInvoice!.p50 / floorInvoice!.p50).toFixed(2)} (≤ 1.3), ` +
    `statement time ${(serviceStatement!.p50 / floorStatement!.p50).toFixed(2)} (≤ 1.2), /ubl ÷ / throughput ${(ubl!.throughput / serviceInvoice!.throughput).toFixed(2)} (≥ 0.7)`);

  if (SOAK) {
    const job = call('/', INVOICE);
    await closedLoop(CONCURRENCY, 0, job, 1000);
    const at1000 = treeRssMiB(service.pid);
    const run = await closedLoop(CONCURRENCY, 0, job, SOAK - 1000);
    const atEnd = treeRssMiB(service.pid);
    console.log(`\nsoak: ${SOAK} renders (${fmt(run.throughput)} docs/s); RSS of service + Chromium at render 1,000: ${fmt(at1000)} MiB, at render ${SOAK}: ${fmt(atEnd)} MiB, growth ${(((atEnd - at1000) / at1000) * 100).toFixed(1)} % (target < 10 %)`);
  }

  if (OVERLOAD) {
    const rate = 3 * serviceInvoice!.throughput;
    const deadline = loadConfig(process.env).renderTimeoutMs;
    const body = JSON.stringify(INVOICE);
    const statuses = new Map<string, number>();
    const accepted: number[] = [];
    const pending: Promise<void>[] = [];
    const start = performance.now();
    let sent = 0;
    while (performance.now() - start < OVERLOAD * 1000) {
      const due = Math.floor(((performance.now() - start) / 1000) * rate);
      while (sent < due) {
        sent++;
        const t = performance.now();
        pending.push(
          post('/', body)
            .then((res) => {
              let kind = String(res.status);
              if (res.status === 200) {
                kind = res.body.subarray(0, 5).toString() === '%PDF-' ? '200 PDF' : '200 NOT A PDF';
                accepted.push(performance.now() - t);
              } else if (res.status === 503) kind = res.headers['retry-after'] ? '503 with Retry-After' : '503 WITHOUT Retry-After';
              statuses.set(kind, (statuses.get(kind) ?? 0) + 1);
            })
            .catch((err: Error) => void statuses.set(`error ${err.message}`, (statuses.get(`error ${err.message}`) ?? 0) + 1)),
        );
      }
      await new Promise((r) => setTimeout(r, 5));
    }
    await Promise.all(pending);
    const acc = summarize(accepted, OVERLOAD);
    console.log(`\noverload: ${fmt(rate)} req/s offered (3 × ${fmt(serviceInvoice!.throughput)}) for ${OVERLOAD} s, ${sent} requests: ` +
      `${[...statuses].map(([k, v]) => `${k} × ${v}`).join(', ')}; accepted p50 ${fmt(acc.p50)} ms, p99 ${fmt(acc.p99)} ms (deadline ${deadline} ms)`);
  }
  await service.stop();
})().catch((err: unknown) => {
  console.error(err);
  process.exit(1);
});
