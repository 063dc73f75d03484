// npm run bench [-- --seconds N] [--statement-seconds N] [--soak [renders]] [--soak-runs N] [--overload [seconds]] [--validate-rounds N] [--validate-seconds N]
// npm run bench -- --validate-only [--validate-rounds N] [--validate-seconds N]: the checking of received e-invoices
// alone (scripts/bench/validate.ts), without the build and the service.
// npm run bench -- --archive-only [--seconds N]: PDF/A + PDF/UA and PAdES signing against the path without them
// alone (scripts/bench/archive.ts).
// npm run bench -- --statement-only [--statement-seconds N]: the 1,000-line statement's contenders and profile alone
// (--statement-seconds: its side-by-side rounds, 60 s by default, in the full run too).
// npm run bench -- --invoice-only [--seconds N]: the one-page invoice's contenders alone.
// npm run bench -- --soak-only [--soak renders] [--soak-runs N]: the memory soaks alone.
// npm run bench -- --loop-only [--loop-rounds N]: the event loop's longest delay while long documents are made and
// received PDFs read (scripts/bench/event-loop.ts), against the budget of 100 ms; in the full run too.
// Measures, in one run, the service against the naive Chromium floor and against the print-only limit:
//   naive floor:     puppeteer setContent + pdf on reused pages, system fonts, a bare one-page invoice (contenders.ts);
//   print-only limit: the service's own Chromium (launch.ts) and its HTML for the invoice, written once, then only
//                    page.pdf() again and again with the service's paper, margins and tagging: the most this stack
//                    prints the usual way; beside it the same print as the service asks it (one Page.printToPDF),
//                    and the service's Chromium work alone (its swap and print of two invoices in turn, no Node work);
//   the service:     the built service as its own process over HTTP on localhost, for the published VAT invoice example
//                    as sent (its logo URL, on example.com, cannot be reached here), the same body with its logo on a
//                    local image server that answers in 100 ms, and without a logo; /ubl for the same body;
// all at the same concurrency, in alternating short rounds so that the machine's drifts fall on all alike. Then the
// 1,000-line statement against the naive floor printing a bare table of its lines and the print-only limit on the
// service's HTML for it, with where its time goes; on request, memory soaks (RSS of the service and its Chromium
// from render 1,000 to the end, --soak-runs times on fresh instances) and an overload run at 3 × capacity. Last,
// PDF/A + UA against Chromium alone (archive.ts) and the checking of received e-invoices (validate.ts): the 33
// official examples the naive way against the engine, and what checking a 10,000-line invoice costs the PDFs of others.
import { execFileSync } from 'node:child_process';
import os from 'node:os';
import { loadConfig, projectRoot } from '../server/config';
import { PrintFirst } from '../server/workers/print-first';
import { archivePdf } from '../server/pdf/archive';
import { BrowserPool, type BrowserPoolOptions, type PdfRenderer } from '../server/pdf/browser-pool';
import { PRODUCER } from '../server/pdf/metadata';
import { loadAssets } from '../server/assets';
import { CREATOR, DocumentPipeline } from '../server/pipeline';
import {
  BARE_INVOICE,
  bareStatement,
  startNaiveFloor,
  startPrintOnly,
  startSlowImageServer,
  startSwapOnly,
  type ImageServer,
} from './bench/contenders';
import { launchChromium, openPrintPage } from '../server/pdf/launch';
import { newResidentState, printAlone, printPage, swapAlone, type PrintDocument } from '../server/pdf/print-page';
import type { ParsedBody } from '../server/documents/parse-body';
import {
  closedLoop,
  fmt,
  interleaved,
  ownCpuMs,
  selfCpuMs,
  summarize,
  treeCpuMs,
  treeRssMiB,
  type CpuMeter,
  type Run,
} from './bench/measure';
import { benchEventLoop } from './bench/event-loop';
import { postTo, serviceMetrics, startService } from './bench/service';
import { grayPng } from '../test/helpers/png';
import { benchValidate } from './bench/validate';
import { benchConvert } from './bench/convert';
import { benchArchive } from './bench/archive';

const args = process.argv.slice(2);
const flag = (name: string, fallback?: number): number | undefined => {
  const i = args.indexOf(`--${name}`);
  if (i < 0) return undefined;
  const v = Number(args[i + 1]);
  return Number.isFinite(v) ? v : fallback;
};
const SECONDS = flag('seconds', 15) ?? 15;
const SOAK = flag('soak', 10000) ?? (args.includes('--soak-only') ? 10000 : undefined);
const SOAK_RUNS = flag('soak-runs', 3) ?? 3;
const OVERLOAD = flag('overload', 60);
const VALIDATE_ONLY = args.includes('--validate-only');
const ARCHIVE_ONLY = args.includes('--archive-only');
const STATEMENT_ONLY = args.includes('--statement-only');
const INVOICE_ONLY = args.includes('--invoice-only');
const SOAK_ONLY = args.includes('--soak-only');
const LOOP_ONLY = args.includes('--loop-only');
/** Each event-loop round this many times (its worst counts). */
const LOOP_ROUNDS = flag('loop-rounds', 3) ?? 3;
const VALIDATE_ROUNDS = flag('validate-rounds', 5) ?? 5;
/** The statement's rounds take over a second a document: a minute each gives its medians some 40 documents. */
const STATEMENT_SECONDS = flag('statement-seconds', 60) ?? 60;
const VALIDATE_SECONDS = flag('validate-seconds', 16) ?? 16;
const CONCURRENCY = Number(process.env.RENDER_CONCURRENCY ?? Math.min(os.availableParallelism(), 8));
const ROOT = projectRoot();
const FORM = 'application/x-www-form-urlencoded';
/** The logo host's max-age: the image server may be asked once per lifetime (plus the first time). */
const LOGO_MAX_AGE = 300;

const STATEMENT = {
  type: 'statement',
  from: 'Harbor Utilities\nPortland, ME',
  to: 'Lighthouse Bakery',
  number: 'ST-1000',
  items: Array.from({ length: 1000 }, (_, i) =>
    i % 10 === 9
      ? { date: '2026-10-15', reference: `PAY-${i}`, name: `Payment ${i}`, payment: 100 }
      : { date: '2026-10-01', reference: `INV-${i}`, name: `Charge ${i}`, quantity: 1, unit_cost: 12.5 },
  ),
};

/** The reference's published VAT invoice, as its README sends it: a form body with a logo URL (example.com, which
 * cannot be reached here). */
function publishedExample(): string {
  return [
    'from=Nikolaus Ltd%0AVAT ID: 1234&to=Foster Moen%0AVAT ID: 4567&logo=https://example.com/img/logo-invoice.png',
    '&number=1&date=Feb 9, 2015&payment_terms=Charged - Do Not Pay&items[0][name]=Starter Plan Monthly',
    '&items[0][quantity]=1&items[0][unit_cost]=99&tax_title=VAT&fields[tax]=%&tax=8',
    '&notes=Thanks for being an awesome customer!',
    '&terms=No need to submit payment. You will be auto-billed for this invoice.',
  ].join('');
}

const ratio = (a: number, b: number) => (a / b).toFixed(2);

/** A logo sent as a data: URI: 300 × 300 grey pixels of a hashed pattern (about 5 KB as a PNG). */
const DATA_LOGO_PNG = grayPng(
  300,
  300,
  Uint8Array.from({ length: 300 * 300 }, (_, i) => (i * 2654435761) >>> 24),
);

/** The HTML the service makes for `body`, in American English. */
const htmlOf = async (pipeline: DocumentPipeline, body: unknown) =>
  pipeline.renderHtml(pipeline.prepare(body as ParsedBody, pipeline.locale(['en-US'])));

/** The published example without its logo and the same with another number: two documents for the swap in turn. */
const invoicePair = async (pipeline: DocumentPipeline): Promise<PrintDocument[]> => {
  const body = publishedExample().replace(/(^|&)logo=[^&]+/, '');
  const other = body.replace(/(^|&)number=[^&]*/, '$1number=INV-2026-0042');
  if (other === body) throw new Error('the published example has no number field');
  return Promise.all([body, other].map(async (form) => (await htmlOf(pipeline, await pipeline.parse('form', Buffer.from(form)))).parts));
};

const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)]!;

/** A BrowserPool as the service's, CONCURRENCY pages, never restarted for its render count. */
function benchPool(config: ReturnType<typeof loadConfig>, opts: Pick<BrowserPoolOptions, 'maxRendersPerPage' | 'onPrinting'>): BrowserPool {
  return new BrowserPool({
    executablePath: config.chromiumPath,
    sandbox: config.chromiumSandbox,
    concurrency: CONCURRENCY,
    queueLimit: 1000,
    timeoutMs: config.renderTimeoutMs,
    maxRendersPerBrowser: 0,
    ...opts,
  });
}

/** The service's print path for the published example without its logo (what write-and-print measures). */
async function printJob(
  config: ReturnType<typeof loadConfig>,
): Promise<{ print: () => Promise<void>; printFirst: PrintFirst; close: () => Promise<void> }> {
  const printFirst = new PrintFirst();
  const pipeline = new DocumentPipeline(loadAssets(ROOT, config.limits), {} as PdfRenderer, undefined, config);
  const html = await htmlOf(pipeline, await pipeline.parse('form', Buffer.from(publishedExample().replace(/(^|&)logo=[^&]+/, ''))));
  const pool = benchPool(config, { maxRendersPerPage: config.pageMaxRenders, onPrinting: (printing) => printFirst.setPrinting(printing) });
  await pool.start();
  return {
    printFirst,
    print: async () =>
      void archivePdf(
        await pool.render(html.html, { format: 'letter' }),
        { title: html.title, author: html.author, creator: CREATOR },
        PRODUCER,
      ),
    close: async () => {
      printFirst.close();
      await pool.close();
    },
  };
}

async function validateSection(config: ReturnType<typeof loadConfig>): Promise<void> {
  const job = VALIDATE_SECONDS > 0 ? await printJob(config) : undefined;
  try {
    await benchValidate({
      config,
      rounds: VALIDATE_ROUNDS,
      seconds: VALIDATE_SECONDS,
      print: job?.print,
      printFirst: job?.printFirst,
      printConcurrency: CONCURRENCY,
    });
    await benchConvert(config, VALIDATE_ROUNDS);
  } finally {
    await job?.close();
  }
}

/** PDF/A + PDF/UA and signing against the path without them (scripts/bench/archive.ts). */
async function archiveSection(config: ReturnType<typeof loadConfig>): Promise<void> {
  const pipeline = new DocumentPipeline(loadAssets(ROOT, config.limits), {} as PdfRenderer, undefined, config);
  const invoice = await htmlOf(pipeline, await pipeline.parse('form', Buffer.from(publishedExample().replace(/(^|&)logo=[^&]+/, ''))));
  const statement = await htmlOf(pipeline, { ...structuredClone(STATEMENT), number: 'ST-80', items: STATEMENT.items.slice(0, 80) });
  const pool = benchPool(config, { maxRendersPerPage: config.pageMaxRenders });
  await pool.start();
  try {
    await benchArchive(
      pool,
      [
        { name: 'one-page invoice', html: invoice },
        { name: '80-line statement', html: statement },
      ],
      CONCURRENCY,
      SECONDS,
    );
  } finally {
    await pool.close();
  }
}

/**
 * Where one 1,000-line statement's time goes, each step alone and one at a time (six times, the median of the last
 * five): Node's request-to-HTML (validation, totals, the view, the template); Chromium's swap of the document into a
 * resident page (sent over DevTools in parts, parsed, its fonts and images waited for: print-page.ts swapAlone); the
 * print that follows (the layout for paper, the paint, the tagged PDF, read back as a stream: printAlone); the same
 * print again, on the page already laid out (the print-only limit's work); and the PDF's finishing in Node (PDF/A-3a
 * and PDF/UA-1). The service asks the swap and the print together; here they are timed apart.
 */
async function statementProfile(config: Config, pipeline: DocumentPipeline): Promise<void> {
  const browser = await launchChromium({ executablePath: config.chromiumPath, sandbox: config.chromiumSandbox });
  const page = await openPrintPage(browser);
  const session = await page.createCDPSession();
  const first = await htmlOf(pipeline, structuredClone(STATEMENT));
  const steps = { html: [] as number[], swap: [] as number[], print: [] as number[], again: [] as number[], finish: [] as number[] };
  const time = async <T>(into: number[], work: () => Promise<T> | T): Promise<T> => {
    const start = performance.now();
    const out = await work();
    into.push(performance.now() - start);
    return out;
  };
  const state = newResidentState();
  await printPage(page, session, first.parts, state, { format: 'letter' }); // the frame and fonts, loaded
  for (let i = 0; i < 6; i++) {
    const html = await time(steps.html, () => htmlOf(pipeline, structuredClone(STATEMENT)));
    await time(steps.swap, () => swapAlone(session, html.parts, state));
    const pdf = await time(steps.print, () => printAlone(session, html.parts, { format: 'letter' }));
    await time(steps.again, () => printAlone(session, html.parts, { format: 'letter' }));
    await time(steps.finish, () => archivePdf(pdf, { title: html.title, author: html.author, creator: CREATOR }, PRODUCER));
    if (i === 0) for (const list of Object.values(steps)) list.length = 0; // the first is a warm-up
  }
  await browser.close();
  const [html, swap, print, again, finish] = Object.values(steps).map(median) as [number, number, number, number, number];
  const total = html + swap + print + finish;
  const share = (ms: number) => `${fmt(ms)} ms (${((100 * ms) / total).toFixed(0)} %)`;
  console.log(
    `  where a 1,000-line statement's time goes, one at a time (median of 5): Node's HTML ${share(html)}, Chromium's swap ${share(swap)}, ` +
      `its print (layout for paper, paint, tagged PDF) ${share(print)}, the PDF's finishing in Node ${share(finish)}; the same print again on the laid-out page ${fmt(again)} ms`,
  );
  // What the print-only limit never does: take in and lay out a statement it has not printed before.
  console.log(
    `  Chromium's own work for a new statement (swap and first print) ÷ the same print again: ${ratio(swap + print, again)} ×, ` +
      `the time ÷ print-only limit the service would have if Node's work cost nothing`,
  );
}

/**
 * RSS over a long run, on a fresh instance, so that render 1,000 is the instance's thousandth, not one after the
 * rounds above. Each page is replaced every PAGE_MAX_RENDERS of its renders, so RSS is a sawtooth (a renderer grows
 * over its page's life, its successor starts small) whose period is PAGE_MAX_RENDERS × the pages: it is sampled every
 * half second, and the mean over two whole periods from render 1,000 is compared with the mean over the last two
 * (windows of part of a period compare wherever the teeth happen to fall: -8.8 % and +10.9 % for one and the same build).
 */
async function soak(config: Config, noLogo: string, run: number): Promise<void> {
  const { service: fresh, post } = await benchService();
  let done = 0;
  const job = async () => {
    const res = await post('/', noLogo, FORM);
    if (res.status !== 200) throw new Error(`soak: HTTP ${res.status}`);
    done++;
  };
  const samples: [number, number][] = [];
  const sampler = setInterval(() => samples.push([done, treeRssMiB(fresh.pid)]), 500);
  await closedLoop(CONCURRENCY, 0, job, 1000);
  const started = performance.now();
  await closedLoop(CONCURRENCY, 0, job, SOAK! - 1000);
  const seconds = (performance.now() - started) / 1000;
  clearInterval(sampler);
  await fresh.stop();
  const span = Math.min(2 * config.pageMaxRenders * CONCURRENCY, Math.floor((SOAK! - 1000) / 2));
  const window = (from: number, to: number) => samples.filter(([n]) => n >= from && n < to).map(([, rss]) => rss);
  const mean = (xs: number[]) => xs.reduce((a, b) => a + b, 0) / xs.length;
  const first = window(1000, 1000 + span);
  const last = window(SOAK! - span, SOAK! + 1);
  const after = window(1000, SOAK! + 1);
  console.log(
    `\nsoak ${run} of ${SOAK_RUNS} (fresh instance): ${SOAK} renders (${fmt((SOAK! - 1000) / seconds)} docs/s after the first 1,000), RSS of service + Chromium ` +
      `sampled every 0.5 s (${after.length} samples): mean over renders 1,000-${1000 + span} ${fmt(mean(first))} MiB, over the last ${span} ${fmt(mean(last))} MiB, ` +
      `change ${(((mean(last) - mean(first)) / mean(first)) * 100).toFixed(1)} % (target within ± 5 %); range after render 1,000 ${fmt(Math.min(...after))}-${fmt(Math.max(...after))} MiB ` +
      `(the page-replacement sawtooth)`,
  );
}

/** Three times the measured capacity offered for OVERLOAD seconds: every answer a PDF or a 503 with Retry-After. */
async function overload(config: Config, post: Service['post'], noLogo: string, capacity: number): Promise<void> {
  const rate = 3 * capacity;
  const statuses = new Map<string, number>();
  const count = (kind: string) => statuses.set(kind, (statuses.get(kind) ?? 0) + 1);
  const accepted: number[] = [];
  const pending: Promise<void>[] = [];
  const start = performance.now();
  let sent = 0;
  const send = () => {
    const t = performance.now();
    return post('/', noLogo, FORM)
      .then((res) => {
        if (res.status === 200) accepted.push(performance.now() - t);
        if (res.status === 200) count(res.body.subarray(0, 5).toString() === '%PDF-' ? '200 PDF' : '200 NOT A PDF');
        else if (res.status === 503) count(res.headers['retry-after'] ? '503 with Retry-After' : '503 WITHOUT Retry-After');
        else count(String(res.status));
      })
      .catch((err: Error) => void count(`error ${err.message}`));
  };
  while (performance.now() - start < OVERLOAD! * 1000) {
    const due = Math.floor(((performance.now() - start) / 1000) * rate);
    for (; sent < due; sent++) pending.push(send());
    await new Promise((r) => setTimeout(r, 5));
  }
  await Promise.all(pending);
  const acc = summarize(accepted, OVERLOAD!);
  console.log(
    `\noverload: ${fmt(rate)} req/s offered (3 × ${fmt(capacity)}) for ${OVERLOAD} s, ${sent} requests: ` +
      `${[...statuses].map(([k, v]) => `${k} × ${v}`).join(', ')}; accepted p50 ${fmt(acc.p50)} ms, p99 ${fmt(acc.p99)} ms (deadline ${config.renderTimeoutMs} ms)`,
  );
}

/** The service as its own process, and a POST to it that must answer with a document. */
async function benchService(env: Record<string, string> = {}) {
  // The browser is not recycled during the rounds (BROWSER_MAX_RENDERS, 5,000 by default): a recycled browser's
  // processes leave the process tree with the CPU they used, which /proc then no longer counts for anybody.
  const service = await startService(ROOT, { RENDER_CONCURRENCY: String(CONCURRENCY), BROWSER_MAX_RENDERS: '0', ...env });
  const post = postTo(service.url, service.key);
  const call =
    (route: string, body: string, type = FORM) =>
    async () => {
      const res = await post(route, body, type);
      if (res.status !== 200 || res.body.length < 1000)
        throw new Error(`${route}: HTTP ${res.status} ${res.body.subarray(0, 200).toString()}`);
    };
  return { service, post, call };
}

type Service = Awaited<ReturnType<typeof benchService>>;
type Config = ReturnType<typeof loadConfig>;

/** The one-page invoice: the naive floor, the print-only limit and the service's routes, side by side. */
async function invoiceSection(
  config: Config,
  { service, call }: Service,
  invoiceHtml: string,
  invoiceDocs: PrintDocument[],
  images: ImageServer,
) {
  const asSent = publishedExample();
  const slowLogo = asSent.replace(/(^|&)logo=[^&]+/, `$1logo=${images.url}`);
  const noLogo = asSent.replace(/(^|&)logo=[^&]+/, '');
  // A logo that comes with every request, as many clients send theirs (and as an account's brand holds it).
  const dataLogo = `${noLogo}&logo=${encodeURIComponent(`data:image/png;base64,${DATA_LOGO_PNG.toString('base64')}`)}`;
  const naive = await startNaiveFloor(config.chromiumPath, config.chromiumSandbox, CONCURRENCY);
  const printOnly = await startPrintOnly(config.chromiumPath, config.chromiumSandbox, CONCURRENCY, invoiceHtml, 'page.pdf');
  const printOnlyDevtools = await startPrintOnly(config.chromiumPath, config.chromiumSandbox, CONCURRENCY, invoiceHtml, 'devtools');
  const swapOnly = await startSwapOnly(config.chromiumPath, config.chromiumSandbox, CONCURRENCY, invoiceDocs);
  let worker = 0;
  const contenders: [string, () => Promise<void>][] = [
    ['naive floor: setContent + pdf, bare invoice, system fonts', () => naive.print(worker++, BARE_INVOICE)],
    ["print-only limit: page.pdf() alone on the service's laid-out invoice, the service's Chromium", () => printOnly.print(worker++)],
    ['the same print as the service asks it (one Page.printToPDF, bytes in the reply)', () => printOnlyDevtools.print(worker++)],
    [
      "the service's Chromium work alone: swap and print of two invoices in turn, as the service asks them, no Node work",
      () => swapOnly.print(worker++),
    ],
    ['service POST /, published VAT example as sent (unreachable logo)', call('/', asSent)],
    ['service POST /, same body, logo on a 100 ms image server', call('/', slowLogo)],
    ['service POST /, same body, no logo', call('/', noLogo)],
    ['service POST /ubl, same body, no logo', call('/ubl', noLogo)],
    [`service POST /, same body, a ${(DATA_LOGO_PNG.length / 1024).toFixed(0)} KB PNG logo as a data: URI`, call('/', dataLogo)],
  ];
  // Warm every contender (the first /ubl compiles nothing, the schema is compiled at start; the first logo fetches).
  for (const [, job] of contenders) await closedLoop(CONCURRENCY, 2, job);
  const metricsBefore = await serviceMetrics(service.url);
  const served = serviceMeter(service.pid);
  const runs = await interleaved(
    CONCURRENCY,
    SECONDS,
    2,
    contenders.map(([, job]) => job),
    [
      undefined,
      chromiumMeter(printOnly.pid),
      chromiumMeter(printOnlyDevtools.pid),
      chromiumMeter(swapOnly.pid),
      served,
      served,
      served,
      served,
      served,
    ],
  );
  const metricsAfter = await serviceMetrics(service.url);
  await naive.close();
  await printOnly.close();
  await printOnlyDevtools.close();
  await swapOnly.close();

  const names = contenders.map(([name]) => name);
  const plain = printInvoiceRuns(names, runs, images, (name) => (metricsAfter.get(name) ?? 0) - (metricsBefore.get(name) ?? 0));
  return { noLogo, plain };
}

/** The CPU of a browser's processes (`pid` its main one) and of the benchmark's clients. */
const chromiumMeter =
  (pid: number): CpuMeter =>
  () => ({ node: 0, chromium: treeCpuMs(pid), bench: selfCpuMs() });

/** The CPU of the service's Node process, of its Chromium (the processes below it) and of the benchmark's clients. */
const serviceMeter =
  (pid: number): CpuMeter =>
  () => {
    const node = ownCpuMs(pid);
    return { node, chromium: treeCpuMs(pid) - node, bench: selfCpuMs() };
  };

/**
 * CPU per document of the metered contenders, by party: the service's Node process, Chromium (every process of the
 * contender's browser, renderers included) and the benchmark's own clients (HTTP for the service, puppeteer's DevTools
 * for the print-only limit), all on the same two cores: what the throughputs are made of, machine drifts aside.
 */
function printCpu(rows: [string, Run][]): void {
  const parts = (run: Run) => run.cpuPerDoc ?? {};
  const total = (run: Run) => Object.values(parts(run)).reduce((a, b) => a + b, 0);
  console.log('\nCPU per document, ms (measured over the same rounds; /proc, to the 10 ms tick over each round):');
  console.log("| contender | Node (service) | Chromium | the bench's clients | total |");
  console.log('|---|---|---|---|---|');
  for (const [name, run] of rows) {
    const { node = 0, chromium = 0, bench = 0 } = parts(run);
    console.log(`| ${name} | ${fmt(node)} | ${fmt(chromium)} | ${fmt(bench)} | ${fmt(total(run))} |`);
  }
}

/** The invoice table, where a request's time goes, and the targets. `delta`: a service metric's change over the rounds. */
function printInvoiceRuns(names: string[], runs: Run[], images: ImageServer, delta: (name: string) => number): Run {
  const [floor, limit, devtools, swapOnly, example, slow, plain, ubl, dataLogo] = runs as [Run, Run, Run, Run, Run, Run, Run, Run, Run];
  console.log('\n| contender | docs/s | p50 ms | p99 ms | docs/s ÷ naive floor | docs/s ÷ print-only limit | p50 ÷ naive floor |');
  console.log('|---|---|---|---|---|---|---|');
  names.forEach((name, i) => {
    const run = runs[i]!;
    console.log(
      `| ${name} | ${fmt(run.throughput)} | ${fmt(run.p50)} | ${fmt(run.p99)} | ${ratio(run.throughput, floor.throughput)} | ${ratio(run.throughput, limit.throughput)} | ${ratio(run.p50, floor.p50)} |`,
    );
  });
  printCpu([
    ['the print-only limit', limit],
    ["the service's way of printing alone", devtools],
    ["the service's Chromium work alone (swap and print)", swapOnly],
    ['the service, no logo', plain],
    ['the service, the logo from the image server (kept by its cache)', slow],
    ['the service, the logo as a data: URI in the request', dataLogo],
  ]);
  const perRequest = (name: string) => (1000 * delta(`${name}_sum`)) / delta(`${name}_count`);
  console.log(
    `\nservice, mean per request over the invoice rounds: ${fmt(perRequest('docgen_http_request_duration_seconds'))} ms in the service, of which ` +
      `${fmt(perRequest('docgen_render_queue_wait_seconds'))} ms waiting for a page and ${fmt(perRequest('docgen_render_duration_seconds'))} ms printing`,
  );
  console.log(
    `image server: asked ${images.requests()} times for ${slow.count + 2 * CONCURRENCY} slow-logo documents and more (logo max-age ${LOGO_MAX_AGE} s)`,
  );
  console.log('\ntargets:');
  console.log(
    `  no logo: throughput ${ratio(plain.throughput, limit.throughput)} × the print-only limit (≥ 0.95; ${ratio(plain.throughput, devtools.throughput)} × the service's own way of printing alone), ${ratio(plain.throughput, floor.throughput)} × the naive floor (≥ 1.5), p50 ${ratio(plain.p50, floor.p50)} × (≤ 1.0)`,
  );
  console.log(
    `  the service's Chromium work alone: ${ratio(swapOnly.throughput, limit.throughput)} × the print-only limit; the service without a logo ${ratio(plain.throughput, swapOnly.throughput)} × it (what Node's work around each print costs)`,
  );
  console.log(
    `  example as sent: throughput ${ratio(example.throughput, plain.throughput)} × no logo (≥ 0.9), p99 ${fmt(example.p99)} ms (< 1000)`,
  );
  console.log(
    `  100 ms logo host: throughput ${ratio(slow.throughput, plain.throughput)} × no logo (≥ 0.9), p99 ${fmt(slow.p99)} ms (< 1000), image server asked ${images.requests()} times (≤ 1 per ${LOGO_MAX_AGE} s)`,
  );
  console.log(`  /ubl: throughput ${ratio(ubl.throughput, plain.throughput)} × POST / (≥ 0.7)`);
  return plain;
}

/** The 1,000-line statement: the naive floor printing a bare table of its lines, the print-only limit on the
 * service's HTML for it, and the service; then where the service's time goes. */
async function statementSection(config: Config, { service: instance, call }: Service, pipeline: DocumentPipeline) {
  const html = (await htmlOf(pipeline, structuredClone(STATEMENT))).html;
  const naive = await startNaiveFloor(config.chromiumPath, config.chromiumSandbox, CONCURRENCY);
  const printOnly = await startPrintOnly(config.chromiumPath, config.chromiumSandbox, CONCURRENCY, html, 'page.pdf');
  const bare = bareStatement(STATEMENT.items);
  let worker = 0;
  const contenders: [string, () => Promise<void>][] = [
    ['naive floor: setContent + pdf, a bare table of the 1,000 lines, system fonts', () => naive.print(worker++, bare)],
    ["print-only limit: page.pdf() alone on the service's laid-out statement, the service's Chromium", () => printOnly.print(worker++)],
    ['service POST /, 1,000-line statement', call('/', JSON.stringify(STATEMENT), 'application/json')],
  ];
  for (const [, job] of contenders) await closedLoop(CONCURRENCY, 0, job, CONCURRENCY);
  const runs = await interleaved(
    CONCURRENCY,
    STATEMENT_SECONDS,
    5,
    contenders.map(([, job]) => job),
    [undefined, chromiumMeter(printOnly.pid), serviceMeter(instance.pid)],
  );
  await naive.close();
  await printOnly.close();
  const [floor, limit, service] = runs as [Run, Run, Run];
  console.log('\n| contender | docs/s | p50 ms | p99 ms | time ÷ naive floor | time ÷ print-only limit |');
  console.log('|---|---|---|---|---|---|');
  contenders.forEach(([name], i) => {
    const run = runs[i]!;
    console.log(
      `| ${name} | ${fmt(run.throughput)} | ${fmt(run.p50)} | ${fmt(run.p99)} | ${ratio(run.p50, floor.p50)} | ${ratio(run.p50, limit.p50)} |`,
    );
  });
  printCpu([
    ['the print-only limit', limit],
    ['the service', service],
  ]);
  console.log(
    `\n  1,000-line statement: time ${ratio(service.p50, floor.p50)} × the naive floor's bare table (≤ 1.0), ${ratio(service.p50, limit.p50)} × the print-only limit (≤ 1.2)`,
  );
  await statementProfile(config, pipeline);
}

(async () => {
  if (VALIDATE_ONLY) {
    await validateSection(loadConfig({ ...process.env, NODE_ENV: 'test' }));
    return;
  }
  if (ARCHIVE_ONLY) {
    await archiveSection(loadConfig({ ...process.env, NODE_ENV: 'test' }));
    return;
  }
  execFileSync('npm', ['run', '-s', 'build'], { cwd: ROOT, stdio: 'inherit' });
  if (LOOP_ONLY) {
    await benchEventLoop(ROOT, LOOP_ROUNDS);
    return;
  }
  const config = loadConfig({ ...process.env, NODE_ENV: 'test' });
  const images = await startSlowImageServer(100, LOGO_MAX_AGE);
  const pipeline = new DocumentPipeline(loadAssets(ROOT, config.limits), {} as PdfRenderer, undefined, config);
  const invoiceHtml = await htmlOf(pipeline, await pipeline.parse('form', Buffer.from(publishedExample().replace(/(^|&)logo=[^&]+/, ''))));
  console.log(
    `\nbench: ${os.cpus().length} cores, concurrency ${CONCURRENCY}, ${SECONDS} s per contender in alternating rounds, ${execFileSync(config.chromiumPath, ['--version']).toString().trim()}`,
  );
  if (SOAK_ONLY) {
    const noLogo = publishedExample().replace(/(^|&)logo=[^&]+/, '');
    for (let run = 1; run <= SOAK_RUNS; run++) await soak(config, noLogo, run);
    await images.close();
    return;
  }
  const served = await benchService({ LOGO_ALLOW_PRIVATE: 'true' });
  if (STATEMENT_ONLY) {
    await statementSection(config, served, pipeline);
    await served.service.stop();
    await images.close();
    return;
  }
  const { noLogo, plain } = await invoiceSection(config, served, invoiceHtml.html, await invoicePair(pipeline), images);
  if (INVOICE_ONLY) {
    await served.service.stop();
    await images.close();
    return;
  }
  await statementSection(config, served, pipeline);
  if (SOAK) for (let run = 1; run <= SOAK_RUNS; run++) await soak(config, noLogo, run);
  if (OVERLOAD) await overload(config, served.post, noLogo, plain.throughput);
  await served.service.stop();
  await images.close();
  await benchEventLoop(ROOT, LOOP_ROUNDS);
  await archiveSection(config);
  await validateSection(config);
})().catch((err: unknown) => {
  console.error(err);
  process.exit(1);
});
