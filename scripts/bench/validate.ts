// The bench's section on checking received e-invoices (POST /validate's engine), in one run:
//   1. the 33 official examples (installed with the standards: vendor/examples), each checked the naive way (SaxonJS.transform with
//      stylesheetFileName, per rule set per call, in-process: the SEF read and prepared every time) and by the engine
//      (checkReceived: XSD, then the rule sets in the rules pool, parsed once per worker), side by side: for every
//      document the two run one after the other, the order alternating, so that the machine's drifts fall on both;
//      p50 / p95 per syntax and overall, and the ratio. The engine runs as configured (RULES_WORKERS, its workers at
//      a lower CPU priority) and once more at the process's own priority, for the figure without that handicap.
//   2. what checking a long invoice (10,000 XML lines, 300 invoice lines, checked back to back: the rules worker always
//      busy, as a 10,000-invoice-line one keeps it for longer) costs the PDFs of others: the service's print path for the published
//      example at RENDER_CONCURRENCY, alone and while that invoice is checked again and again, for 1 and 2
//      workers at the process's priority and at the workers' lower one (how RULES_WORKERS and the niceness were
//      chosen).
import os from 'node:os';
import path from 'node:path';
import SaxonJS from 'saxon-js';
import type { Config } from '../../server/config';
import { applicable, checkReceived, recognise } from '../../server/einvoice/received/check';
import { RULE_SETS } from '../../server/einvoice/rules/rule-sets';
import { RULES_NICENESS, RulesPool } from '../../server/einvoice/rules/rules-pool';
import { acquireXsdValidator } from '../../server/einvoice/xsd-validator';
import { parseXml } from '../../server/einvoice/xml-tree';
import type { PrintFirst } from '../../server/workers/print-first';
import { longInvoice, officialExamples } from '../../test/helpers/received-invoices';
import { closedLoop, fmt, summarize } from './measure';

export interface ValidateBenchOptions {
  config: Config;
  /** Passes over the 33 examples (each pass checks every example once per contender). */
  rounds: number;
  /** Seconds per contender in the PDF interference runs (0: skip them). */
  seconds: number;
  /** Prints one PDF the service's way (the interference runs); absent: skipped. */
  print?: () => Promise<void>;
  /** The print path's PDFs-first switch (workers/print-first.ts), told by its render queue. */
  printFirst?: PrintFirst;
  printConcurrency: number;
}

const pct = (times: number[], p: number): number => {
  const s = [...times].sort((a, b) => a - b);
  return s[Math.min(s.length - 1, Math.floor(p * s.length))] ?? NaN;
};

/** The rule sets' files, for the naive contender. */
function naiveFiles(config: Config, xml: string): string[] {
  const { ruleSets } = applicable(recognise(parseXml(xml)));
  return ruleSets.filter((id) => RULE_SETS[id].file).map((id) => path.join(config.rulesDir, RULE_SETS[id].file!));
}

function naiveCheck(files: string[], xml: string): void {
  for (const file of files) {
    const out = SaxonJS.transform({ stylesheetFileName: file, sourceText: xml, destination: 'serialized' }, 'sync');
    if (typeof out.principalResult !== 'string') throw new Error('no SVRL');
  }
}

async function startPool(config: Config, workers: number, niceness: number): Promise<RulesPool> {
  const pool = new RulesPool({
    rulesDir: config.rulesDir,
    workers,
    timeoutMs: config.rulesTimeoutMs,
    queueLimit: config.rulesQueueLimit,
    niceness,
  });
  await pool.ready();
  return pool;
}

export async function benchValidate(opts: ValidateBenchOptions): Promise<void> {
  const { config } = opts;
  const xsd = acquireXsdValidator(config);
  await xsd.validator.ready();
  const examples = officialExamples().map((e) => ({
    ...e,
    syntax: e.folder === 'en16931-cii' ? 'cii' : 'ubl',
    files: naiveFiles(config, e.xml),
  }));
  console.log(
    `\nvalidate: ${examples.length} official examples × ${opts.rounds} rounds, ${os.cpus().length} cores; engine: RULES_WORKERS=${config.rulesWorkers}, RULES_TIMEOUT_MS=${config.rulesTimeoutMs}`,
  );

  const started = performance.now();
  const configured = await startPool(config, config.rulesWorkers, RULES_NICENESS);
  const startMs = performance.now() - started;
  const plain = await startPool(config, config.rulesWorkers, 0);
  console.log(`rules pool ready in ${fmt(startMs)} ms (${config.rulesWorkers} worker(s), every rule set parsed once and warmed)`);

  const contenders = [
    {
      name: 'naive: SaxonJS.transform(stylesheetFileName) per rule set, in-process',
      run: async (e: (typeof examples)[number]) => naiveCheck(e.files, e.xml),
    },
    {
      name: `engine: checkReceived (XSD + rules pool, ${config.rulesWorkers} worker(s), nice +${RULES_NICENESS})`,
      run: async (e: (typeof examples)[number]) => void (await checkReceived(e.xml, { xsd: xsd.validator, rules: configured })),
    },
    {
      name: `engine at the process's priority (nice +0)`,
      run: async (e: (typeof examples)[number]) => void (await checkReceived(e.xml, { xsd: xsd.validator, rules: plain })),
    },
  ];
  const times = await alternate(contenders, examples, opts.rounds);
  printTable(
    contenders.map((c) => c.name),
    times,
  );
  await configured.close();
  await plain.close();

  if (opts.print && opts.seconds > 0) await interference(opts, xsd.validator);
  await xsd.release();
}

type Timings = { ubl: number[]; cii: number[] };

/** Each contender on each example, `rounds` times in rotating order after one warm-up pass (SaxonJS's code in this
 * thread, the workers' JIT); the times by syntax. */
async function alternate<E extends { syntax: string }>(
  contenders: { run: (e: E) => Promise<void> }[],
  examples: E[],
  rounds: number,
): Promise<Timings[]> {
  for (const e of examples) for (const c of contenders) await c.run(e);
  const times = contenders.map(() => ({ ubl: [] as number[], cii: [] as number[] }));
  const started = performance.now();
  for (let r = 0; r < rounds; r++) {
    for (const [i, e] of examples.entries()) {
      for (let k = 0; k < contenders.length; k++) {
        const c = (r + i + k) % contenders.length;
        const t = performance.now();
        await contenders[c]!.run(e);
        times[c]![e.syntax as 'ubl' | 'cii'].push(performance.now() - t);
      }
    }
  }
  console.log(`(${fmt((performance.now() - started) / 1000)} s)`);
  return times;
}

/** The table of percentiles per contender (the first is the naive one), and the engine's (the second) target. */
function printTable(names: string[], times: Timings[]): void {
  console.log('\n| contender | UBL p50 ms | UBL p95 ms | CII p50 ms | CII p95 ms | all p50 ms | all p95 ms | all p50 ÷ naive p50 |');
  console.log('|---|---|---|---|---|---|---|---|');
  const naiveAll = [...times[0]!.ubl, ...times[0]!.cii];
  names.forEach((name, i) => {
    const t = times[i]!;
    const all = [...t.ubl, ...t.cii];
    console.log(
      `| ${name} | ${fmt(pct(t.ubl, 0.5))} | ${fmt(pct(t.ubl, 0.95))} | ${fmt(pct(t.cii, 0.5))} | ${fmt(pct(t.cii, 0.95))} | ${fmt(pct(all, 0.5))} | ${fmt(pct(all, 0.95))} | ${(pct(all, 0.5) / pct(naiveAll, 0.5)).toFixed(2)} |`,
    );
  });
  const engineAll = [...times[1]!.ubl, ...times[1]!.cii];
  console.log(
    `\ntarget: engine p50 below the naive p50: ${fmt(pct(engineAll, 0.5))} ms vs ${fmt(pct(naiveAll, 0.5))} ms (${(pct(engineAll, 0.5) / pct(naiveAll, 0.5)).toFixed(2)} ×)`,
  );
}

/** The contenders of the interference table: workers, their nice increment, held while PDFs print or not. */
const INTERFERENCE: { workers: number; niceness: number; held: boolean }[] = [
  { workers: 1, niceness: 0, held: false },
  { workers: 1, niceness: RULES_NICENESS, held: false },
  { workers: 1, niceness: RULES_NICENESS, held: true },
  { workers: 2, niceness: RULES_NICENESS, held: false },
  { workers: 2, niceness: RULES_NICENESS, held: true },
];

/** PDFs printed alone and while a long invoice is checked: 1 and 2 workers, at nice +0 and +RULES_NICENESS, held
 * while PDFs print (the service's way, workers/print-first.ts) or not. */
async function interference(opts: ValidateBenchOptions, xsd: Parameters<typeof checkReceived>[1]['xsd']): Promise<void> {
  const long = longInvoice(150);
  const print = opts.print!;
  console.log(
    `\nPDFs of others while an invoice of 10,000 XML lines (300 invoice lines, ${(long.length / 1024).toFixed(0)} KiB) is checked again and again: ${opts.printConcurrency} renders at a time, ${opts.seconds} s per contender in alternating rounds`,
  );
  console.log(
    '\n| rules workers | nice | held while PDFs print | PDFs/s alone | PDFs/s while checking | p50 ms alone | p50 ms while checking | p99 ms while checking | PDF p50 × | checks done | check p50 ms |',
  );
  console.log('|---|---|---|---|---|---|---|---|---|---|---|');
  for (const { workers, niceness, held } of INTERFERENCE) {
    const pool = await startPool(opts.config, workers, niceness);
    const letGo = held ? opts.printFirst?.add(pool) : undefined;
    await checkReceived(long, { xsd, rules: pool });
    const checks: number[] = [];
    const alone: number[] = [];
    const busy: number[] = [];
    let aloneSeconds = 0;
    let busySeconds = 0;
    await closedLoop(opts.printConcurrency, 2, print);
    // Alternating rounds: PDFs alone, then PDFs while the invoice is checked back to back (the check in flight
    // when the round ends finishes outside the measurement).
    const round = Math.max(2, opts.seconds / 4);
    for (let r = 0; r < Math.max(1, Math.round(opts.seconds / round)); r++) {
      aloneSeconds += (await closedLoop(opts.printConcurrency, round, print, undefined, alone)).seconds;
      let checking = true;
      const background = (async () => {
        while (checking) {
          const t = performance.now();
          await checkReceived(long, { xsd, rules: pool });
          checks.push(performance.now() - t);
        }
      })();
      busySeconds += (await closedLoop(opts.printConcurrency, round, print, undefined, busy)).seconds;
      checking = false;
      await background;
    }
    letGo?.();
    await pool.close();
    const a = summarize(alone, aloneSeconds);
    const b = summarize(busy, busySeconds);
    const c = summarize(checks, 1);
    console.log(
      `| ${workers} | +${niceness} | ${held ? 'yes' : 'no'} | ${fmt(a.throughput)} | ${fmt(b.throughput)} | ${fmt(a.p50)} | ${fmt(b.p50)} | ${fmt(b.p99)} | ${(b.p50 / a.p50).toFixed(2)} | ${checks.length} | ${fmt(c.p50)} |`,
    );
  }
}
