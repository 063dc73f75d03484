// Long documents on a resident page (server/pdf/print-page.ts): a body or font faces longer than a part (partLength)
// go to the page in parts, and a document longer than STREAM_ABOVE_CHARS comes back as a stream read in chunks. On
// real Chromium, one page, documents one after another: each PDF holds its own first and last lines and, in the page,
// a character whose two UTF-16 halves were sent in different parts, and nothing of the document before; each is
// printed once; a short document still goes in one message and comes back whole. The DevTools calls are counted on
// the page's own session as they pass.
import { expect } from 'chai';
import type { Browser, CDPSession, Page } from 'puppeteer';
import { loadConfig, projectRoot } from '../../server/config';
import { loadAssets } from '../../server/assets';
import { DocumentPipeline } from '../../server/pipeline';
import type { PdfRenderer } from '../../server/pdf/browser-pool';
import { launchChromium, openPrintPage } from '../../server/pdf/launch';
import {
  newResidentState,
  printPage,
  partLength,
  MEASURE_ABOVE_CHARS,
  STREAM_ABOVE_CHARS,
  type PrintDocument,
  type ResidentState,
} from '../../server/pdf/print-page';
import { pdfPageCount, pdfText } from '../helpers/pdf';
import { notdefGlyphs } from '../helpers/pdf-layout';

/** A body of `rows` paragraphs tagged `tag`, and a paragraph in it whose U+1F600 (two UTF-16 units) has its first
 * half at the end of the first part and its second half at the start of the second. */
function longBody(tag: string, rows: number): { body: string; split: string } {
  const lines = Array.from({ length: rows }, (_, i) => `<p>${tag}-ROW-${i}</p>`).join('');
  const open = `<p>${tag}-SMILE-`;
  let first = partLength(lines);
  for (;;) {
    const at = lines.lastIndexOf('<p>', first - 200);
    const split = `${tag}-SMILE-${'x'.repeat(first - 1 - at - open.length)}\u{1F600}-END`;
    const body = `${lines.slice(0, at)}<p>${split}</p>${lines.slice(at)}`;
    // The part's length depends a little on the body's own length: placed again until it holds still.
    if (partLength(body) === first) {
      expect(body.charCodeAt(first - 1)).to.equal(0xd83d);
      return { body, split };
    }
    first = partLength(body);
  }
}

describe('long documents on a resident page (sent in parts, read back as a stream)', function () {
  this.timeout(120000);
  let browser: Browser;
  let page: Page;
  let session: CDPSession;
  let state: ResidentState;
  let short: PrintDocument;
  let chinese: PrintDocument;
  const calls: string[] = [];

  before(async function () {
    const config = loadConfig({ ...process.env, NODE_ENV: 'test' });
    const pipeline = new DocumentPipeline(loadAssets(projectRoot(), config.limits), {} as PdfRenderer, undefined, config);
    const chineseDoc = pipeline.prepare(
      { from: '上海统一贸易有限公司', to: 'Client', number: 'ZH-1', items: [{ name: '统一发票 咨询服务', quantity: 1, unit_cost: 5 }] },
      pipeline.locale(['en-US']),
    );
    chinese = (await pipeline.renderHtml(chineseDoc)).parts;
    const prepared = pipeline.prepare(
      { from: 'Short Supplier', to: 'Short Client', number: 'SHORT-1', items: [{ name: 'SHORTITEM', quantity: 1, unit_cost: 5 }] },
      pipeline.locale(['en-US']),
    );
    short = (await pipeline.renderHtml(prepared)).parts;
    browser = await launchChromium({ executablePath: config.chromiumPath, sandbox: config.chromiumSandbox });
    page = await openPrintPage(browser);
    session = await page.createCDPSession();
    await page.setJavaScriptEnabled(false);
    state = newResidentState();
    const send = session.send.bind(session) as (...args: unknown[]) => Promise<unknown>;
    (session as { send: unknown }).send = (method: string, ...rest: unknown[]) => {
      calls.push(method);
      return send(method, ...rest);
    };
  });
  after(async function () {
    await browser?.close();
  });

  /** Prints `doc` on the one page: its PDF, and the DevTools methods it called. */
  async function print(doc: PrintDocument): Promise<{ pdf: Uint8Array; methods: string[] }> {
    calls.length = 0;
    const pdf = await printPage(page, session, doc, state, { format: 'letter' });
    return { pdf, methods: [...calls] };
  }
  /** Whether the page's text holds `text` exactly (the test's fonts need not draw U+1F600). */
  async function pageHas(text: string): Promise<boolean> {
    const { result } = await session.send('Runtime.evaluate', {
      expression: `document.body.textContent.includes(${JSON.stringify(text)})`,
      returnByValue: true,
    });
    return result.value === true;
  }
  const count = (methods: string[], method: string) => methods.filter((m) => m === method).length;

  it("sends a fresh page's long font faces in parts: every glyph is drawn", async function () {
    const fontCss = chinese.fonts.map((face) => face.css).join('\n');
    expect(fontCss.length).to.be.greaterThan(partLength(fontCss));
    const { pdf, methods } = await print(chinese);
    // The frame, one message per part of the faces, and the swap.
    expect(count(methods, 'Runtime.evaluate')).to.equal(1 + Math.ceil(fontCss.length / partLength(fontCss)) + 1);
    expect(pdfText(pdf)).to.contain('统一发票').and.contain('上海统一贸易有限公司');
    expect(notdefGlyphs(pdf)).to.equal(0);
  });

  it('sends a long body in parts and reads its PDF back in chunks, whole and in order', async function () {
    const { body, split } = longBody('ALPHA', 12000);
    expect(body.length).to.be.greaterThan(2 * partLength(body));
    const { pdf, methods } = await print({ ...short, body });
    // One message per part, then the swap (the page holds the frame and its fonts), then the measurement of a long body.
    expect(count(methods, 'Runtime.evaluate')).to.equal(Math.ceil(body.length / partLength(body)) + 2);
    expect(count(methods, 'IO.read')).to.be.at.least(1);
    // Asked with its swap, and known by its nonce: printed once.
    expect(count(methods, 'Page.printToPDF')).to.equal(1);
    const text = pdfText(pdf);
    expect(text).to.contain('ALPHA-ROW-0\n').and.to.contain('ALPHA-ROW-11999').and.to.contain('ALPHA-SMILE-');
    expect(await pageHas(split)).to.equal(true);
    expect(text.match(/ALPHA-ROW-\d+/g)).to.have.length(12000);
    expect(pdfPageCount(pdf)).to.be.greaterThan(20);
  });

  it('starts afresh with the next long document: nothing of the one before', async function () {
    const { body, split } = longBody('BRAVO', 11000);
    const { pdf, methods } = await print({ ...short, body });
    expect(count(methods, 'Page.printToPDF')).to.equal(1);
    const text = pdfText(pdf);
    expect(text).to.not.contain('ALPHA');
    expect(text.match(/BRAVO-ROW-\d+/g)).to.have.length(11000);
    expect(await pageHas(split)).to.equal(true);
  });

  it('sends a short document in one message and takes its PDF whole from the reply', async function () {
    expect(short.body.length).to.be.below(STREAM_ABOVE_CHARS);
    const { pdf, methods } = await print(short);
    expect(methods).to.deep.equal(['Runtime.evaluate', 'Page.printToPDF']);
    const text = pdfText(pdf);
    expect(text).to.contain('SHORTITEM').and.not.contain('BRAVO').and.not.contain('ALPHA');
    expect(pdfPageCount(pdf)).to.equal(1);
  });

  it('a short body that runs past a page is measured and printed again; one that fits is printed once, unmeasured', async function () {
    // 40 short rows make a body under MEASURE_ABOVE_CHARS that fills more than a page.
    const rows = Array.from({ length: 40 }, (_, i) => `<p>DELTA-${i}</p>`).join('');
    const body = short.body.replace('SHORTITEM', `SHORTITEM</td></tr></tbody></table>${rows}<table><tbody><tr><td>`);
    expect(body.length).to.be.at.most(MEASURE_ABOVE_CHARS);
    const long = await print({ ...short, body: body.replace(/<p>/g, '<p style="height:40px">') });
    expect(pdfPageCount(long.pdf)).to.be.greaterThan(1);
    expect(long.methods).to.deep.equal(['Runtime.evaluate', 'Page.printToPDF', 'Runtime.evaluate', 'Page.printToPDF']);
    const once = await print(short);
    expect(pdfPageCount(once.pdf)).to.equal(1);
    expect(once.methods).to.deep.equal(['Runtime.evaluate', 'Page.printToPDF']);
  });

  it('streams a document between the two limits, sent in one message', async function () {
    const lines = Array.from({ length: 5000 }, (_, i) => `<p>CHARLIE-ROW-${i}</p>`).join('');
    const body = lines.slice(0, lines.lastIndexOf('<p>', partLength(lines)));
    expect(body.length).to.be.above(STREAM_ABOVE_CHARS).and.at.most(partLength(body));
    const { pdf, methods } = await print({ ...short, body });
    // The swap, then the measurement (a body over MEASURE_ABOVE_CHARS), then the print.
    expect(methods.slice(0, 2)).to.deep.equal(['Runtime.evaluate', 'Runtime.evaluate']);
    expect(count(methods, 'Runtime.evaluate')).to.equal(2);
    expect(count(methods, 'IO.read')).to.be.at.least(1);
    expect(count(methods, 'Page.printToPDF')).to.equal(1);
    expect(pdfText(pdf)).to.contain('CHARLIE-ROW-0\n').and.not.contain('BRAVO');
  });
});
