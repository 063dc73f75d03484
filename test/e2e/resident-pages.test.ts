// Resident pages: a page keeps its theme's frame and the fonts it has loaded, and swaps in each document's body. With
// one page (RENDER_CONCURRENCY=1) every document goes through the same page, so each one below is printed right after a
// very different one: another theme, another script, 300 lines, a logo. Nothing of the one before may show in its PDF,
// and it must print exactly as it does written whole on a page of its own.
import { expect } from 'chai';
import { embeddedFonts, notdefGlyphs, uncompressedPdf } from '../helpers/pdf-layout';
import { pdfImageCount, pdfInfo, pdfText } from '../helpers/pdf';
import { solidPng } from '../helpers/png';
import { post, startTestService, type TestService } from '../helpers/service';
import { pdfToPng } from '../helpers/visual';

const LOGO = `data:image/png;base64,${solidPng(120, 40, [20, 120, 60]).toString('base64')}`;

/** A long Bengali and Arabic statement on slate, with a logo, notes, terms and custom fields: every token is ALPHA…. */
const ALPHA = {
  type: 'statement',
  theme: 'slate',
  logo: LOGO,
  number: 'ALPHA-STATEMENT',
  from: 'ALPHAFROM রহমান ট্রেডার্স\nঢাকা ১২০৫',
  to: 'ALPHATO شركة النور للتجارة\nالرياض',
  custom_fields: [{ name: 'ALPHAFIELD', value: 'ALPHAVALUE' }],
  items: Array.from({ length: 300 }, (_, i) => ({ name: `ALPHAITEM${i} চাল ও ডাল`, quantity: 1, unit_cost: 10 + i })),
  notes: 'ALPHANOTES ধন্যবাদ شكرا',
  terms: 'ALPHATERMS',
};

/** A short Latin invoice on slate too: the page keeps its frame and swaps only the document. */
const BRAVO = {
  theme: 'slate',
  number: 'BRAVO-1',
  from: 'Bravo Supplies Ltd',
  to: 'Bravo Customer GmbH',
  items: [{ name: 'Bravo widget', quantity: 2, unit_cost: 12.5 }],
};

/** Japanese on classic: another frame, and fonts the page has never loaded. */
const CHARLIE = {
  theme: 'classic',
  number: 'CHARLIE-1',
  from: '株式会社チャーリー\n東京都千代田区',
  to: 'チャーリー商事',
  items: [{ name: 'コンサルティング料', quantity: 3, unit_cost: 15000 }],
  currency: 'JPY',
  notes: 'ありがとうございます',
};

/** A short Latin invoice on classic after the Japanese one. */
const DELTA = {
  theme: 'classic',
  number: 'DELTA-1',
  from: 'Delta Corp',
  to: 'Delta Buyer',
  items: [{ name: 'Delta service', quantity: 1, unit_cost: 99 }],
};

const fontNames = (pdf: Uint8Array) => embeddedFonts(pdf).map((f) => f.name.replace(/^[A-Z]{6}\+/, ''));

describe('resident pages (one page, documents one after another)', function () {
  this.timeout(120000);
  let service: TestService;
  const pdfs: Record<string, Uint8Array> = {};
  const framesWritten: number[] = [];

  before(async function () {
    service = await startTestService({ RENDER_CONCURRENCY: '1' });
    for (const [name, doc] of Object.entries({ ALPHA, BRAVO, CHARLIE, DELTA })) {
      // The statement in French: its labels and language must not stay either.
      const res = await post(service, doc, { headers: name === 'ALPHA' ? { 'accept-language': 'fr' } : {} });
      expect(res.status, name).to.equal(200);
      pdfs[name] = new Uint8Array(await res.arrayBuffer());
      framesWritten.push(service.pdf.stats().framesWritten);
    }
  });
  after(async function () {
    await service?.close();
  });

  it('used one page, writing a frame only for its first document and for each change of theme', async function () {
    expect(framesWritten).to.deep.equal([1, 1, 2, 2]);
    expect(service.pdf.stats().pagesReplaced).to.equal(0);
    expect(await (service.pdf as unknown as { openPages(): Promise<number> }).openPages()).to.equal(1);
  });

  it('the document after a 300-line Bengali and Arabic statement with a logo has none of its text, fonts or image', function () {
    const text = pdfText(pdfs.BRAVO!);
    expect(text).to.include('Bravo widget');
    expect(text).not.to.match(/ALPHA|রহমান|النور|ধন্যবাদ/);
    expect(pdfImageCount(pdfs.BRAVO!)).to.equal(0);
    expect(fontNames(pdfs.BRAVO!).filter((f) => /Bengali|Arabic/.test(f))).to.deep.equal([]);
    expect(pdfInfo(pdfs.BRAVO!).Pages).to.equal('1');
    expect(pdfInfo(pdfs.BRAVO!).Title).to.match(/BRAVO-1/);
    expect(Buffer.from(pdfs.BRAVO!).toString('latin1')).to.contain('/Lang (en-US)');
    expect(text)
      .to.match(/Bill To/)
      .and.to.match(/Page 1 of 1/)
      .and.not.match(/Relevé|RELEVÉ|Libellé|sur/);
    expect(pdfText(pdfs.ALPHA!)).to.match(/RELEVÉ DE COMPTE/);
    // The statement itself had everything.
    expect(pdfText(pdfs.ALPHA!)).to.include('ALPHAITEM299');
    expect(Buffer.from(pdfs.ALPHA!).toString('latin1')).to.contain('/Lang (fr');
    expect(pdfImageCount(pdfs.ALPHA!)).to.equal(1);
    expect(fontNames(pdfs.ALPHA!).some((f) => /Bengali/.test(f))).to.equal(true);
  });

  it('fonts the page has never loaded are added for the document that needs them (Japanese after Latin and Bengali)', function () {
    expect(fontNames(pdfs.CHARLIE!).some((f) => /NotoSansJP/.test(f))).to.equal(true);
    expect(notdefGlyphs(pdfs.CHARLIE!)).to.equal(0);
    expect(pdfText(pdfs.CHARLIE!)).to.include('コンサルティング料');
    expect(pdfText(pdfs.CHARLIE!)).not.to.match(/Bravo|ALPHA/);
  });

  it('the Latin document after the Japanese one keeps no Japanese text or font', function () {
    const text = pdfText(pdfs.DELTA!);
    expect(text).to.include('Delta service');
    expect(text).not.to.match(/CHARLIE|株式会社|ありがとう/);
    expect(fontNames(pdfs.DELTA!).filter((f) => /JP|SC|TC|KR/.test(f))).to.deep.equal([]);
  });

  it('stays a tagged PDF with its page numbers after the swaps', function () {
    for (const [name, pdf] of Object.entries(pdfs)) {
      const uncompressed = uncompressedPdf(pdf);
      expect(uncompressed, name).to.match(/\/StructTreeRoot \d+ 0 R/);
      expect(uncompressed, name).to.match(/\/MarkInfo <<\s*\/Marked true/);
    }
    expect(pdfText(pdfs.ALPHA!)).to.match(/Page 1 sur \d+/);
    expect(pdfText(pdfs.BRAVO!)).to.match(/Page 1 of 1/);
  });

  it('each prints exactly as it does written whole on a page (same text, same pixels)', async function () {
    for (const [name, doc] of Object.entries({ BRAVO, CHARLIE, DELTA })) {
      const prepared = service.pipeline.prepare(structuredClone(doc), service.pipeline.locale());
      const html = await service.pipeline.renderHtml(prepared);
      const whole = await service.pdf.render(html.html, { format: prepared.doc.page_size });
      expect(pdfText(pdfs[name]!), name).to.equal(pdfText(whole));
      expect(pdfToPng(pdfs[name]!).equals(pdfToPng(whole)), `${name}: pixels differ`).to.equal(true);
    }
  });
});
