// Hostile PDFs given to the received Factur-X reader: each refused (unsupported_document) by the bound it meets or read
// within the reader's deadline, without the process's memory growing by more than a bound, and with the main event
// loop turning meanwhile (the reader works on a thread of its own).
// The files are written here as bytes (a PDF is text with binary streams) or appended to the service's own Factur-X
// PDF as an incremental update; the FlateDecode bomb is checked to inflate to 1 GiB by Node's zlib itself.
import fs from 'node:fs';
import path from 'node:path';
import zlib from 'node:zlib';
import { expect } from 'chai';
import { projectRoot } from '../../../../server/config';
import { DomainError } from '../../../../server/errors';
import { readFacturXPdf, type FacturXPdf, type FacturXPdfLimits } from '../../../../server/einvoice/received/facturx-pdf';
import { turnsDuring } from '../../../helpers/loop-turns';
import { appendUpdate, catalogOf } from '../../../helpers/pdf-patch';
import { qpdfJson } from '../../../helpers/pdfa-reader';
import { smallPdf } from '../../../helpers/small-pdf';

const FIXTURE = path.join(projectRoot(), 'test', 'fixtures', 'facturx', 'en16931.pdf');
const en16931 = fs.readFileSync(FIXTURE);
const fixture = qpdfJson(FIXTURE);
const num = (ref: unknown) => parseInt(String(ref), 10);
const CATALOG = num(catalogOf(fixture).ref);
const PAGES = num(catalogOf(fixture).value['/Pages']);
const XML_STREAM = num(fixture.dict(fixture.dict((catalogOf(fixture).value['/AF'] as string[])[0])['/EF'])['/F']);
const SIZE = fixture.trailer['/Size'] as number;
/** The catalog's own text with `/Pages` pointing elsewhere (the rest kept: metadata, /AF, names). */
const catalogWith = (pages: number) =>
  en16931
    .toString('latin1')
    .match(new RegExp(`\\n${CATALOG} 0 obj\\n([\\s\\S]*?)\\nendobj`))![1]!
    .replace(/\/Pages \d+ 0 R/, `/Pages ${pages} 0 R`);

/** A deflate stream of `mib` MiB of zeros, about 1 KB per MiB: one full-flushed block of 1 MiB repeated (each block
 * stands alone after a full flush), a final empty block, and the Adler-32 of all those zeros. */
function flateBomb(mib: number): Buffer {
  const block = zlib.deflateRawSync(Buffer.alloc(1024 * 1024), { level: 9, finishFlush: zlib.constants.Z_FULL_FLUSH });
  const adler = Buffer.alloc(4);
  adler.writeUInt32BE((((mib * 1024 * 1024) % 65521) * 65536 + 1) >>> 0);
  return Buffer.concat([Buffer.from([0x78, 0xda]), ...Array<Buffer>(mib).fill(block), Buffer.from([0x03, 0x00]), adler]);
}

/** A PDF of the given objects (numbered from 1, bodies as latin1 text) with a correct xref table; object 1 is the root. */
function rawPdf(bodies: string[]): Buffer {
  const head = '%PDF-1.7\n%\xe2\xe3\xcf\xd3\n';
  const offsets: number[] = [];
  let at = head.length;
  const objects = bodies.map((body, i) => {
    const text = `${i + 1} 0 obj\n${body}\nendobj\n`;
    offsets.push(at);
    at += text.length;
    return text;
  });
  const xref = offsets.map((o) => `${String(o).padStart(10, '0')} 00000 n \n`).join('');
  const tail = `xref\n0 ${bodies.length + 1}\n0000000000 65535 f \n${xref}trailer\n<< /Size ${bodies.length + 1} /Root 1 0 R >>\nstartxref\n${at}\n%%EOF\n`;
  return Buffer.from(head + objects.join('') + tail, 'latin1');
}

const stream = (dict: string, data: Buffer) => `<< ${dict} /Length ${data.length} >>\nstream\n${data.toString('latin1')}\nendstream`;
const CATALOG_BODY = '<< /Type /Catalog /Pages 2 0 R >>';
const PAGES_BODY = '<< /Type /Pages /Kids [] /Count 0 >>';

/** `count` null objects packed in object streams of 10,000 each; `n` written as each stream's /N (its count, or a
 * reference to an object holding it, which no byte search can read). */
function objectStreams(count: number, declared = '10000'): string[] {
  const out: string[] = [];
  const n = 10_000;
  for (let first = 1_000_000; first < 1_000_000 + count; first += n) {
    const index = Array.from({ length: n }, (_, i) => `${first + i} ${i * 5}`).join(' ');
    const body = Buffer.from(`${index}\n${'null '.repeat(n)}`, 'latin1');
    out.push(stream(`/Type /ObjStm /N ${declared} /First ${index.length + 1} /Filter /FlateDecode`, zlib.deflateSync(body)));
  }
  return out;
}

async function timed(pdf: Buffer, limits: Partial<FacturXPdfLimits> = {}): Promise<{ ms: number; read?: FacturXPdf; err?: DomainError }> {
  const start = performance.now();
  try {
    const read = await readFacturXPdf(pdf, limits);
    return { ms: performance.now() - start, read };
  } catch (err) {
    if (!(err instanceof DomainError)) throw err;
    return { ms: performance.now() - start, err };
  }
}

const timings: string[] = [];

describe('Factur-X PDF reader: hostile files', function () {
  this.timeout(60000);

  before(async function () {
    await readFacturXPdf(en16931); // the worker's first start, not timed
  });
  after(function () {
    console.log(timings.map((t) => `      ${t}`).join('\n'));
  });

  it('a big PDF read while the passes of the main event loop are counted: the loop keeps turning through it', async function () {
    // 40,000 small objects appended to a real Factur-X PDF (within the limits): one to three seconds of pdf-lib's work,
    // synchronous from start to end (pdf-bounds.ts). On this thread it would give the loop no pass until it ended.
    const objects: Record<number, string> = {};
    for (let i = 0; i < 40_000; i++) objects[SIZE + i] = `<< /Type /Annot /Subtype /Text /Contents (note ${i}) /Rect [0 0 10 10] >>`;
    const big = appendUpdate(en16931, objects);
    // The deadline far off: the loop is counted, not the deadline.
    const { result: t, turns } = await turnsDuring(() => timed(big, { deadlineMs: 60_000 }));
    timings.push(
      `big PDF (${(big.length / 1024 / 1024).toFixed(1)} MiB) read in ${t.ms.toFixed(0)} ms: ${turns} passes of the main event loop`,
    );
    expect(t.err, t.err?.message).to.equal(undefined);
    expect(t.read!.checks).to.deep.equal([]);
    expect(turns, 'passes of the main event loop during the read').to.be.at.least(100);
  });

  const refused: { what: string; make: () => Buffer; says: string }[] = [
    { what: 'not a PDF (1 MiB of bytes)', make: () => Buffer.alloc(1024 * 1024, 0x89), says: 'not a PDF' },
    { what: 'a PDF cut at 60 %', make: () => en16931.subarray(0, Math.floor(en16931.length * 0.6)), says: 'truncated PDF' },
    { what: 'a PDF without an attachment', make: () => smallPdf(), says: 'without an invoice XML inside' },
    {
      what: 'factur-x.xml inflating to 1 GiB',
      make: () =>
        appendUpdate(en16931, { [XML_STREAM]: stream('/Type /EmbeddedFile /Subtype /text#2Fxml /Filter /FlateDecode', flateBomb(1024)) }),
      says: 'factur-x.xml cannot be read: it decodes to more than 10485760 bytes',
    },
    {
      what: 'an object stream inflating to 1 GiB',
      make: () => rawPdf([CATALOG_BODY, PAGES_BODY, stream('/Type /ObjStm /N 1 /First 4 /Filter /FlateDecode', flateBomb(1024))]),
      says: 'a stream that decodes to more than 16777216 bytes',
    },
    {
      what: '1,000,000 tiny objects',
      make: () => rawPdf([CATALOG_BODY, PAGES_BODY, ...Array<string>(1_000_000).fill('null')]),
      says: 'more objects than the reader allows',
    },
    {
      what: '1,000,000 objects in 100 object streams',
      make: () => rawPdf([CATALOG_BODY, PAGES_BODY, ...objectStreams(1_000_000)]),
      says: 'more objects than the reader allows',
    },
    {
      what: '1,000,000 objects in object streams whose /N is a reference (seen only by parsing)',
      make: () => rawPdf([CATALOG_BODY, PAGES_BODY, '10000', ...objectStreams(1_000_000, '3 0 R')]),
      says: 'more objects than the reader allows',
    },
  ];

  for (const r of refused) {
    it(`${r.what} → unsupported_document by its bound (not the deadline), memory bounded`, async function () {
      const pdf = r.make();
      const rss = process.memoryUsage().rss;
      const t = await timed(pdf);
      const grew = (process.memoryUsage().rss - rss) / 1024 / 1024;
      timings.push(`${r.what} (${(pdf.length / 1024 / 1024).toFixed(1)} MiB): ${t.ms.toFixed(0)} ms, RSS +${grew.toFixed(0)} MiB`);
      expect(t.err?.code, JSON.stringify(t.read?.checks)).to.equal('unsupported_document');
      // Refused by the bound it meets (objects, decoded bytes, the attachment), which the message names: never by the
      // deadline, whose message is another (see the deadline's own test below).
      expect(t.err!.message, t.err!.message).to.contain(r.says);
      expect(t.err!.message).to.not.contain('takes longer than');
      expect(grew).to.be.below(300);
    });
  }

  it('the bomb is real: Node zlib inflates it to more than 64 MiB (and, in full, to 1 GiB)', function () {
    expect(() => zlib.inflateSync(flateBomb(1024), { maxOutputLength: 64 * 1024 * 1024 })).to.throw(RangeError);
  });

  const read: { what: string; make: () => Buffer; fails: string[] }[] = [
    {
      what: 'a page tree 10,000 levels deep',
      make: () => {
        const objects: Record<number, string> = { [CATALOG]: catalogWith(SIZE) };
        for (let i = 0; i < 10_000; i++) objects[SIZE + i] = `<< /Type /Pages /Kids [${SIZE + i + 1} 0 R] /Count 1 >>`;
        objects[SIZE + 10_000] = `<< /Type /Pages /Kids [${PAGES} 0 R] /Count 1 >>`;
        return appendUpdate(en16931, objects);
      },
      fails: [],
    },
    {
      what: 'a page tree that is a cycle of 10,000 nodes',
      make: () => {
        const objects: Record<number, string> = { [CATALOG]: catalogWith(SIZE) };
        for (let i = 0; i < 10_000; i++) objects[SIZE + i] = `<< /Type /Pages /Kids [${SIZE + ((i + 1) % 10_000)} 0 R] /Count 1 >>`;
        return appendUpdate(en16931, objects);
      },
      fails: ['PDF-PAGE-TREE'],
    },
    {
      what: 'an array nested 1,000,000 deep',
      make: () => appendUpdate(en16931, { [SIZE]: `${'['.repeat(1_000_000)}${']'.repeat(1_000_000)}` }),
      fails: [],
    },
  ];

  for (const r of read) {
    it(`${r.what} → read within the objects' bound${r.fails.length ? `, ${r.fails.join(', ')}` : ''}`, async function () {
      const pdf = r.make();
      // The deadline far off: the bound on objects is what keeps this work small, not a time (mocha's timeout catches
      // a hang).
      const t = await timed(pdf, { deadlineMs: 30_000 });
      timings.push(`${r.what} (${(pdf.length / 1024 / 1024).toFixed(1)} MiB): ${t.ms.toFixed(0)} ms`);
      expect(t.err, t.err?.message).to.equal(undefined);
      expect(t.read!.attachment).to.equal('factur-x.xml');
      expect(t.read!.checks.map((c) => c.rule)).to.deep.equal(r.fails);
    });
  }

  it('past its deadline the read is refused and its worker replaced: the next read works', async function () {
    const slow = rawPdf([CATALOG_BODY, PAGES_BODY, ...Array<string>(1_000_000).fill('null')]);
    const t = await timed(slow, { maxObjects: 10_000_000, deadlineMs: 300 });
    timings.push(`1,000,000 objects allowed, deadline 300 ms: refused after ${t.ms.toFixed(0)} ms`);
    expect(t.err?.code).to.equal('unsupported_document');
    expect(t.err!.message).to.contain('takes longer than 300 ms');
    expect((await readFacturXPdf(en16931)).checks).to.deep.equal([]);
  });

  it('60,000 embedded files without streams in /AF: 100 findings listed and one counting the rest by rule', async function () {
    // Direct file specifications in the catalog's /AF, as the adversarial file had them: within the object limit.
    const specs = Array.from({ length: 60_000 }, (_, i) => `<< /Type /Filespec /F (f${i}.txt) /UF (f${i}.txt) >>`);
    const catalog = catalogWith(PAGES).replace(/\/AF\s*\[([^\]]*)\]/, (_, own: string) => `/AF [${own} ${specs.join(' ')}]`);
    const read = await readFacturXPdf(appendUpdate(en16931, { [CATALOG]: catalog }));
    expect(read.attachment).to.equal('factur-x.xml');
    expect(read.checks).to.have.length(101);
    const more = read.checks.at(-1)!;
    expect(more).to.include({ rule: 'PDF-MORE-FINDINGS', severity: 'fatal' });
    expect(more.message).to.match(/^1\d{5} more findings not listed: 1\d{5} PDFA3-FILESPEC$/);
  });

  it('a bounded queue: one read running and 4 waiting, the rest refused at once (renderer_busy), as are reads that wait past twice their deadline; the reader then works', async function () {
    await readFacturXPdf(en16931); // the reader loaded and idle: the first slow read runs at once
    const slow = rawPdf([CATALOG_BODY, PAGES_BODY, ...Array<string>(1_000_000).fill('null')]);
    const outcomes = await Promise.all(
      Array.from({ length: 8 }, () =>
        readFacturXPdf(slow, { maxObjects: 10_000_000, deadlineMs: 300 }).then(
          () => 'read',
          (e: DomainError) => e.code,
        ),
      ),
    );
    timings.push(`8 slow PDFs at once: ${outcomes.join(', ')}`);
    expect(outcomes[0]).to.equal('unsupported_document'); // its own deadline, as before
    expect(outcomes.slice(5)).to.deep.equal(['renderer_busy', 'renderer_busy', 'renderer_busy']); // no place in the queue
    expect(outcomes.every((o) => o === 'unsupported_document' || o === 'renderer_busy')).to.equal(true);
    expect((await readFacturXPdf(en16931)).checks).to.deep.equal([]);
  });
});
