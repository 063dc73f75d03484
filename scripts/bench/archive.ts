// The cost of PDF/A-3a + PDF/UA-1 (server/pdf/archive.ts) and of a PAdES B-B signature (server/pdf/signature.ts),
// side by side with today's path without them: the same pool printing the same documents (a one-page invoice and an
// 80-line statement) in alternating rounds, (1) Chromium's bytes as they come, (2) made PDF/A and PDF/UA, (3) that
// and signed in the same update with an RSA-2048 key openssl makes for the run; with as many clients as pages, and
// with twice as many (a queue ahead of the pages, as in a service under load: a page then starts its next document
// while the last one is finished, where with one client per page it waits for it). Then each step alone, on the main thread, in
// ms per document. Besides docs/s, the mean of each round's ratio to the Chromium-only round of the same cycle with
// its 95 % interval (the other tenants of a shared machine move the throughput between cycles more than within one),
// and each contender's CPU time per document (this process and its Chromium from /proc; the service's alone).
// Knows the service only through its modules.
import { execFileSync } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import type { BrowserPool } from '../../server/pdf/browser-pool';
import { archivePdf } from '../../server/pdf/archive';
import { archiveAndSign } from '../../server/pdf/finish';
import { PRODUCER } from '../../server/pdf/metadata';
import { PdfSigner } from '../../server/pdf/signature';
import { loadSigningKey } from '../../server/pdf/signing-key';
import { CREATOR } from '../../server/pipeline';
import type { RenderedHtml } from '../../server/render/html';
import { closedLoop, fmt, summarize, treeCpuMs, type Run } from './measure';

export interface ArchiveBenchDoc {
  name: string;
  html: RenderedHtml;
}

function rsaSigner(): Promise<PdfSigner> {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'docgen-bench-sign-'));
  const run = (...args: string[]) => execFileSync('openssl', args, { cwd: dir, stdio: 'ignore' });
  run('req', '-x509', '-newkey', 'rsa:2048', '-nodes', '-keyout', 'k.pem', '-out', 'c.pem', '-days', '30', '-subj', '/CN=Bench Signer');
  run('pkcs12', '-export', '-inkey', 'k.pem', '-in', 'c.pem', '-out', 's.p12', '-passout', 'pass:bench');
  return new PdfSigner(loadSigningKey(path.join(dir, 's.p12'), 'bench')).prepare();
}

/** Mean ms of `fn` over `n` calls after a quarter as many to warm (the JIT's optimised code, as in the service). */
async function perCall(n: number, fn: () => unknown): Promise<number> {
  for (let i = 0; i < n / 4; i++) await fn();
  const t = performance.now();
  for (let i = 0; i < n; i++) await fn();
  return (performance.now() - t) / n;
}

export async function benchArchive(pool: BrowserPool, docs: ArchiveBenchDoc[], pages: number, seconds: number): Promise<void> {
  const signer = await rsaSigner();
  console.log(
    `\nPDF/A-3a + PDF/UA-1 and PAdES B-B signing against today's path: ${seconds} s per contender, document and load, ${pages} pages`,
  );
  console.log(
    '\n| document | clients | contender | docs/s | p50 ms | docs/s ÷ Chromium only | the same, mean of rounds ± 95 % | p50 ÷ Chromium only | CPU ms/doc: service + Chromium (service) | docs per CPU-second ÷ Chromium only |',
  );
  console.log('|---|---|---|---|---|---|---|---|---|---|');
  for (const doc of docs) {
    for (const clients of [pages, 2 * pages]) await compare(pool, doc, signer, clients, seconds);
    await stepsAlone(pool, doc, signer);
  }
}

const NAMES = ['Chromium only (today without the steps)', 'PDF/A-3a + PDF/UA-1', 'PDF/A-3a + PDF/UA-1 + PAdES B-B'];

/** The mean of `values` and the half-width of its 95 % confidence interval (normal approximation). */
function meanWithInterval(values: number[]): { mean: number; half: number } {
  const mean = values.reduce((a, b) => a + b, 0) / values.length;
  const variance = values.reduce((a, b) => a + (b - mean) ** 2, 0) / Math.max(1, values.length - 1);
  return { mean, half: 1.96 * Math.sqrt(variance / values.length) };
}

/**
 * `contenders` in alternating 2 s rounds, each with the CPU time its rounds cost this process and its Chromium, and
 * each round's throughput divided by the first contender's in the same cycle of rounds (`ratios`): the other tenants
 * of a shared machine move the throughput from one cycle to the next, much less within one.
 */
async function roundsWithCpu(
  clients: number,
  seconds: number,
  contenders: (() => Promise<void>)[],
): Promise<{ run: Run; cpuMs: number; serviceMs: number; ratios: number[] }[]> {
  const rounds = Math.max(1, Math.round(seconds / 2));
  const times: number[][] = contenders.map(() => []);
  const spent = contenders.map(() => ({ seconds: 0, cpuMs: 0, serviceMs: 0 }));
  const ratios: number[][] = contenders.map(() => []);
  for (let r = 0; r < rounds; r++) {
    const throughput: number[] = [];
    for (let k = 0; k < contenders.length; k++) {
      const i = (r + k) % contenders.length;
      const cpu = treeCpuMs(process.pid);
      const service = process.cpuUsage();
      const run = await closedLoop(clients, 2, contenders[i]!, undefined, times[i]);
      spent[i]!.cpuMs += treeCpuMs(process.pid) - cpu;
      const used = process.cpuUsage(service);
      spent[i]!.serviceMs += (used.user + used.system) / 1000;
      spent[i]!.seconds += run.seconds;
      throughput[i] = run.throughput;
    }
    throughput.forEach((t, i) => ratios[i]!.push(t / throughput[0]!));
  }
  return contenders.map((_, i) => ({
    run: summarize(times[i]!, spent[i]!.seconds),
    cpuMs: spent[i]!.cpuMs,
    serviceMs: spent[i]!.serviceMs,
    ratios: ratios[i]!,
  }));
}

async function compare(pool: BrowserPool, doc: ArchiveBenchDoc, signer: PdfSigner, clients: number, seconds: number): Promise<void> {
  const metadata = { title: doc.html.title, author: doc.html.author, creator: CREATOR };
  const contenders = [
    async () => void (await pool.render(doc.html.parts, { format: 'letter' })),
    async () => void archivePdf(await pool.render(doc.html.parts, { format: 'letter' }), metadata, PRODUCER),
    async () => void (await archiveAndSign(await pool.render(doc.html.parts, { format: 'letter' }), metadata, PRODUCER, signer)),
  ];
  for (const c of contenders) await c();
  const runs = await roundsWithCpu(clients, seconds, contenders);
  const perDoc = runs.map(({ run, cpuMs }) => cpuMs / run.count);
  runs.forEach(({ run, serviceMs, ratios }, i) => {
    const base = runs[0]!.run;
    const { mean, half } = meanWithInterval(ratios);
    console.log(
      `| ${doc.name} | ${clients} | ${NAMES[i]} | ${fmt(run.throughput)} | ${fmt(run.p50)} | ${(run.throughput / base.throughput).toFixed(2)} | ${mean.toFixed(3)} ± ${half.toFixed(3)} | ${(run.p50 / base.p50).toFixed(2)} | ${fmt(perDoc[i]!)} (${fmt(serviceMs / run.count)}) | ${(perDoc[0]! / perDoc[i]!).toFixed(2)} |`,
    );
  });
}

async function stepsAlone(pool: BrowserPool, doc: ArchiveBenchDoc, signer: PdfSigner): Promise<void> {
  const metadata = { title: doc.html.title, author: doc.html.author, creator: CREATOR };
  const chromium = await pool.render(doc.html.parts, { format: 'letter' });
  const archived = archivePdf(chromium, metadata, PRODUCER);
  const archiveMs = await perCall(200, () => archivePdf(chromium, metadata, PRODUCER));
  const signMs = await perCall(200, () => signer.sign(archived));
  const bothMs = await perCall(200, () => archiveAndSign(chromium, metadata, PRODUCER, signer));
  console.log(
    `| ${doc.name} | - | each step alone, main thread | archive ${fmt(archiveMs)} ms/doc | sign ${fmt(signMs)} ms/doc (target < 5) | both in one update ${fmt(bothMs)} ms/doc | ${chromium.length} → ${archived.length} bytes | |`,
  );
}
