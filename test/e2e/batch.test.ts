// POST /batch on the real service (real Chromium, real SQLite): a ZIP of PDFs (and e-invoices) read back with unzip
// and pdftotext, one merged PDF read with pdfinfo, every document validated before anything renders (400 naming
// documents[i]…, nothing counted), the quota taken for the whole batch or not at all, 406 for another Accept, and the
// service's memory and single requests' latency while a 100-document batch runs.
import { execFileSync } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { expect } from 'chai';
import { periodOf } from '../../server/quota/quota';
import { isPdf, pdfFlatText, pdfPageCount } from '../helpers/pdf';
import { archiveCheck } from '../helpers/pdf-archive-check';
import { descendants } from '../helpers/processes';
import { post, sharedService, startTestService, tempDir, type TestService } from '../helpers/service';

const doc = (n: number, extra: Record<string, unknown> = {}) => ({
  from: 'Batch Co',
  to: `Client ${n}`,
  number: `B-${n}`,
  items: [{ name: `Thing ${n}`, quantity: 1, unit_cost: 10 + n }],
  ...extra,
});

/** The ZIP's files by name, read with unzip (from scripts/install-system.sh). */
function unzipAll(zip: Uint8Array): Map<string, Buffer> {
  const dir = tempDir('unzip');
  const file = path.join(dir, 'batch.zip');
  fs.writeFileSync(file, zip);
  execFileSync('unzip', ['-tq', file]); // the archive's CRCs and structure check out
  const names = execFileSync('zipinfo', ['-1', file]).toString().trim().split('\n');
  return new Map(names.map((name) => [name, execFileSync('unzip', ['-p', file, name], { maxBuffer: 64 << 20 })]));
}

async function freeAccount(service: TestService, name: string, left: number): Promise<string> {
  const { key } = await service.keys.createKey(name, 'free');
  await service.keys.addUsage(name, periodOf(new Date()), 100 - left);
  return key;
}

describe('POST /batch', function () {
  this.timeout(120000);

  it('5 documents give a ZIP of 5 PDFs named as POST / names them (equal names get -2), counted, with RateLimit', async function () {
    const service = await sharedService();
    const key = await freeAccount(service, 'batch-zip', 10);
    const documents = [doc(1), doc(2), doc(3), doc(3, { to: 'Client 3 again' }), doc(4)];
    const res = await post(service, { documents }, { key, path: '/batch' });
    expect(res.status).to.equal(200);
    expect(res.headers.get('content-type')).to.equal('application/zip');
    expect(res.headers.get('cache-control')).to.equal('no-store');
    expect(res.headers.get('ratelimit')).to.match(/^"monthly";r=5;t=\d+$/);
    const files = unzipAll(new Uint8Array(await res.arrayBuffer()));
    expect([...files.keys()]).to.deep.equal([
      'invoice-B-1.pdf',
      'invoice-B-2.pdf',
      'invoice-B-3.pdf',
      'invoice-B-3-2.pdf',
      'invoice-B-4.pdf',
    ]);
    const texts = [...files.values()].map((pdf) => {
      expect(isPdf(pdf)).to.equal(true);
      return pdfFlatText(pdf);
    });
    expect(texts[0]).to.contain('Client 1').and.contain('Thing 1');
    expect(texts[3]).to.contain('Client 3 again');
    expect(texts[4]).to.contain('Thing 4').and.contain('$14.00');
    expect(await service.keys.usage('batch-zip', periodOf(new Date()))).to.equal(95);
  });

  it('each document may ask for its own format: UBL and CII files in the ZIP; e-invoices of a quote are refused', async function () {
    const service = await sharedService();
    const parties = { e_invoice: { seller: { country: 'DE' }, buyer: { country: 'FR' } } };
    const documents = [doc(1), doc(2, { format: 'ubl' }), doc(3, { format: 'cii', ...parties })];
    const res = await post(service, { documents }, { path: '/batch' });
    expect(res.status).to.equal(200);
    const files = unzipAll(new Uint8Array(await res.arrayBuffer()));
    expect([...files.keys()]).to.deep.equal(['invoice-B-1.pdf', 'invoice-B-2.xml', 'invoice-B-3.xml']);
    expect(files.get('invoice-B-2.xml')!.toString()).to.contain('<Invoice').and.contain('B-2');
    expect(files.get('invoice-B-3.xml')!.toString()).to.contain('CrossIndustryInvoice');
    // No RateLimit for an unlimited plan.
    expect(res.headers.get('ratelimit')).to.equal(null);

    const quote = await post(service, { format: 'ubl', documents: [doc(1), doc(2, { type: 'quote' })] }, { path: '/batch' });
    expect(quote.status).to.equal(400);
    const body = (await quote.json()) as { code: string; details: { field: string }[] };
    expect(body.code).to.equal('unsupported_type');
    expect(body.details.map((d) => d.field)).to.deep.equal(['documents[1].type']);

    // What the e-invoice model refuses is refused before anything renders too (CII needs the parties' countries).
    const noCountry = await post(service, { documents: [doc(1), doc(2, { format: 'cii' })] }, { path: '/batch' });
    expect(noCountry.status).to.equal(400);
    const fields = ((await noCountry.json()) as { details: { field: string }[] }).details.map((d) => d.field);
    expect(fields).to.deep.equal(['documents[1].e_invoice.seller.country', 'documents[1].e_invoice.buyer.country']);
  });

  it('Accept: application/pdf gives one PDF of every page in order', async function () {
    const service = await sharedService();
    const documents = [1, 2, 3, 4, 5].map((n) => doc(n));
    const res = await post(service, { documents }, { path: '/batch', headers: { accept: 'application/pdf' } });
    expect(res.status).to.equal(200);
    expect(res.headers.get('content-type')).to.equal('application/pdf');
    const pdf = new Uint8Array(await res.arrayBuffer());
    expect(pdfPageCount(pdf)).to.equal(5);
    const text = pdfFlatText(pdf);
    const at = [1, 2, 3, 4, 5].map((n) => text.indexOf(`Client ${n}`));
    expect(at.every((i) => i >= 0)).to.equal(true);
    expect([...at].sort((a, b) => a - b)).to.deep.equal(at);
    // As accessible and archivable as each document alone: a Part for each, every check of archive.test.ts passing.
    const check = await archiveCheck(pdf);
    expect(check.problems).to.deep.equal([]);
    expect(check.elems.filter((e) => e.s === 'Part')).to.have.length(5);

    const xml = await post(
      service,
      { documents: [doc(1), doc(2, { format: 'ubl' })] },
      { path: '/batch', headers: { accept: 'application/pdf' } },
    );
    expect(xml.status).to.equal(400);
    expect(((await xml.json()) as { details: { field: string }[] }).details.map((d) => d.field)).to.deep.equal(['documents[1].format']);
  });

  it('another Accept is a 406 not_acceptable', async function () {
    const service = await sharedService();
    const res = await post(service, { documents: [doc(1)] }, { path: '/batch', headers: { accept: 'text/html' } });
    expect(res.status).to.equal(406);
    expect(((await res.json()) as { code: string }).code).to.equal('not_acceptable');
  });

  it('one bad document: a 400 naming documents[3]… and nothing rendered or counted', async function () {
    const service = await sharedService();
    const key = await freeAccount(service, 'batch-bad', 10);
    const documents = [doc(0), doc(1), doc(2), doc(3, { items: [{ name: 'x', quantity: 'many', unit_cost: 1 }] }), doc(4)];
    const res = await post(service, { documents }, { key, path: '/batch' });
    expect(res.status).to.equal(400);
    expect(res.headers.get('cache-control')).to.equal('no-store');
    const body = (await res.json()) as { code: string; details: { field: string }[] };
    expect(body.code).to.equal('validation_failed');
    expect(body.details.map((d) => d.field)).to.deep.equal(['documents[3].items[0].quantity']);
    expect(await service.keys.usage('batch-bad', periodOf(new Date()))).to.equal(90);

    for (const bad of [{ documents: [] }, { documents: doc(1) }, { format: 'docx', documents: [doc(1)] }]) {
      const r = await post(service, bad, { key, path: '/batch' });
      expect(r.status, JSON.stringify(bad).slice(0, 40)).to.equal(400);
    }
  });

  it('a quota too small for the whole batch: 429 with RateLimit, nothing counted', async function () {
    const service = await sharedService();
    const key = await freeAccount(service, 'batch-quota', 3);
    const res = await post(service, { documents: [1, 2, 3, 4].map((n) => doc(n)) }, { key, path: '/batch' });
    expect(res.status).to.equal(429);
    expect(res.headers.get('ratelimit')).to.match(/^"monthly";r=3;t=\d+$/);
    expect(res.headers.get('ratelimit-policy')).to.match(/^"monthly";q=100;w=\d+$/);
    expect(((await res.json()) as { message: string }).message).to.contain('batch of 4 documents');
    expect(await service.keys.usage('batch-quota', periodOf(new Date()))).to.equal(97);
    // The three left can still be used.
    const rest = await post(service, { documents: [1, 2, 3].map((n) => doc(n)) }, { key, path: '/batch' });
    expect(rest.status).to.equal(200);
    expect(unzipAll(new Uint8Array(await rest.arrayBuffer())).size).to.equal(3);
    expect(await service.keys.usage('batch-quota', periodOf(new Date()))).to.equal(100);
  });

  it('a client that goes away cancels the rest: only what was handed over is counted, the rest is released', async function () {
    const service = await sharedService();
    const key = await freeAccount(service, 'batch-gone', 40);
    const period = periodOf(new Date());
    const leave = new AbortController();
    const res = await fetch(`${service.url}/batch`, {
      method: 'POST',
      headers: { authorization: `Bearer ${key}`, 'content-type': 'application/json' },
      body: JSON.stringify({ documents: Array.from({ length: 40 }, (_, n) => doc(n)) }),
      signal: leave.signal,
    });
    expect(res.status).to.equal(200);
    leave.abort();
    await new Promise((r) => setTimeout(r, 1500));
    const counted = (await service.keys.usage('batch-gone', period)) - 60;
    await new Promise((r) => setTimeout(r, 1000));
    expect(await service.keys.usage('batch-gone', period), 'nothing more counted after the client left').to.equal(60 + counted);
    console.log(`      client gone after the headers: ${counted} of 40 documents counted`);
    expect(counted).to.be.within(1, 20);
    // The rest was released: exactly what is left can be reserved, one more cannot.
    const left = 40 - counted;
    expect((await service.keys.reserve('batch-gone', period, 100, 60000, new Date(), left + 1)).ids).to.equal(undefined);
    expect((await service.keys.reserve('batch-gone', period, 100, 60000, new Date(), left)).ids).to.have.length(left);
  });
});

/** Resident memory of this process (the service runs in it) and of its Chromium processes, in MiB. */
function serviceRssMiB(): number {
  let kb = 0;
  for (const pid of [process.pid, ...descendants(process.pid)]) {
    try {
      kb += Number(/VmRSS:\s+(\d+) kB/.exec(fs.readFileSync(`/proc/${pid}/status`, 'utf8'))?.[1] ?? 0);
    } catch {
      // The process ended meanwhile.
    }
  }
  return kb / 1024;
}

describe('POST /batch under load', function () {
  this.timeout(300000);
  let service: TestService;
  before(async function () {
    service = await startTestService({ MAX_BATCH_DOCUMENTS: '100' });
  });
  after(async function () {
    await service.close();
  });

  it('a 100-document batch keeps memory flat and single requests answered meanwhile', async function () {
    // Warm the pool first, so that the figures compare a running service with itself.
    for (let i = 0; i < 4; i++) expect((await post(service, doc(i))).status).to.equal(200);
    const before = serviceRssMiB();
    let peak = before;
    const sampler = setInterval(() => (peak = Math.max(peak, serviceRssMiB())), 200);
    const latencies: number[] = [];
    let running = true;
    let answeredDuring = 0;
    const singles = async () => {
      while (running) {
        const t = performance.now();
        const res = await post(service, doc(7));
        await res.arrayBuffer();
        expect(res.status).to.equal(200);
        latencies.push(performance.now() - t);
      }
    };
    const started = performance.now();
    const batch = post(service, { documents: Array.from({ length: 100 }, (_, n) => doc(n)) }, { path: '/batch' }).then(async (res) => {
      const zip = new Uint8Array(await res.arrayBuffer());
      running = false;
      answeredDuring = latencies.length;
      return { status: res.status, zip };
    });
    const clients = [singles(), singles()];
    const { status, zip } = await batch;
    const batchMs = performance.now() - started;
    await Promise.all(clients);
    clearInterval(sampler);
    const after = serviceRssMiB();
    expect(status).to.equal(200);
    expect(unzipAll(zip).size).to.equal(100);
    latencies.sort((a, b) => a - b);
    const p99 = latencies[Math.min(latencies.length - 1, Math.floor(latencies.length * 0.99))]!;
    const p50 = latencies[Math.floor(latencies.length / 2)]!;
    console.log(
      `      100-document batch: ${(batchMs / 1000).toFixed(1)} s, ZIP ${(zip.byteLength / 1024).toFixed(0)} KiB; ` +
        `RSS (service + Chromium) before ${before.toFixed(0)} MiB, peak ${peak.toFixed(0)} MiB, after ${after.toFixed(0)} MiB; ` +
        `${latencies.length} single requests meanwhile: p50 ${p50.toFixed(0)} ms, p99 ${p99.toFixed(0)} ms`,
    );
    // Single requests are served while the batch runs: more than 10 answered before its ZIP came, a count of answers,
    // not their times (printed above).
    expect(answeredDuring, 'single requests answered while the batch ran').to.be.greaterThan(10);
    expect(peak - before).to.be.lessThan(300);
  });
});
