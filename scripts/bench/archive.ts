// The cost of PDF/A-3a + PDF/UA-1 (server/pdf/archive.ts) and of a PAdES B-B signature (server/pdf/signature.ts),
// side by side with today's path without them: the same pool printing the same documents (a one-page invoice and an
// 80-line statement) in alternating rounds, (1) Chromium's bytes as they come, (2) made PDF/A and PDF/UA, (3) that
// and signed with an RSA-2048 key openssl makes for the run. Then each step alone, on the main thread, in ms per
// document. Knows the service only through its modules.
import { execFileSync } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import type { BrowserPool } from '../../server/pdf/browser-pool';
import { archivePdf } from '../../server/pdf/archive';
import { PRODUCER } from '../../server/pdf/metadata';
import { PdfSigner } from '../../server/pdf/signature';
import { loadSigningKey } from '../../server/pdf/signing-key';
import { CREATOR } from '../../server/pipeline';
import type { RenderedHtml } from '../../server/render/html';
import { fmt, interleaved } from './measure';

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

/** Mean ms of `fn` over `n` calls after two to warm. */
async function perCall(n: number, fn: () => unknown): Promise<number> {
  await fn();
  await fn();
  const t = performance.now();
  for (let i = 0; i < n; i++) await fn();
  return (performance.now() - t) / n;
}

export async function benchArchive(pool: BrowserPool, docs: ArchiveBenchDoc[], concurrency: number, seconds: number): Promise<void> {
  const signer = await rsaSigner();
  console.log(
    `\nPDF/A-3a + PDF/UA-1 and PAdES B-B signing against today's path: ${seconds} s per contender and document, concurrency ${concurrency}`,
  );
  console.log('\n| document | contender | docs/s | p50 ms | docs/s ÷ Chromium only | p50 ÷ Chromium only |');
  console.log('|---|---|---|---|---|---|');
  for (const doc of docs) {
    const metadata = { title: doc.html.title, author: doc.html.author, creator: CREATOR };
    const raw = () => pool.render(doc.html.parts, { format: 'letter' });
    const contenders = [
      async () => void (await raw()),
      async () => void (await pool.render(doc.html.parts, { format: 'letter', metadata })),
      async () => void (await signer.sign(await pool.render(doc.html.parts, { format: 'letter', metadata }))),
    ];
    for (const c of contenders) await c();
    const runs = await interleaved(concurrency, seconds, 2, contenders);
    const names = ['Chromium only (today without the steps)', 'PDF/A-3a + PDF/UA-1', 'PDF/A-3a + PDF/UA-1 + PAdES B-B'];
    runs.forEach((run, i) => {
      console.log(
        `| ${doc.name} | ${names[i]} | ${fmt(run.throughput)} | ${fmt(run.p50)} | ${(run.throughput / runs[0]!.throughput).toFixed(2)} | ${(run.p50 / runs[0]!.p50).toFixed(2)} |`,
      );
    });
    const chromium = await raw();
    const archived = archivePdf(chromium, metadata, PRODUCER);
    const archiveMs = await perCall(50, () => archivePdf(chromium, metadata, PRODUCER));
    const signMs = await perCall(50, () => signer.sign(archived));
    console.log(
      `| ${doc.name} | each step alone, main thread | archive ${fmt(archiveMs)} ms/doc | sign ${fmt(signMs)} ms/doc (target < 5) | ${chromium.length} → ${archived.length} bytes | |`,
    );
  }
}
