// The swap and the print asked together (server/pdf/print-page.ts swapAndPrint), on real Chromium: the print is sent
// before the swap has answered when the page has nothing to wait for, and after it when it has (font faces to load, an
// image to decode, a QR-bill to place); two pages printing two alternating documents at once give each its own PDF
// and never need a second print; the nonce Chromium writes tells a print from before the swap, which is printed again
// (Chromium's answer to the first print is replaced by the previous document's PDF, as if it had run first); a swap
// that failed fails the render, though the print asked with it answered (the answer replaced by an exception).
import { expect } from 'chai';
import type { Browser, CDPSession, Page } from 'puppeteer';
import { loadConfig, projectRoot } from '../../server/config';
import { loadAssets } from '../../server/assets';
import { DocumentPipeline } from '../../server/pipeline';
import type { PdfRenderer } from '../../server/pdf/browser-pool';
import { launchChromium, openPrintPage } from '../../server/pdf/launch';
import { newResidentState, printedAfter, printPage, type PrintDocument, type ResidentState } from '../../server/pdf/print-page';
import { pdfText } from '../helpers/pdf';
import { solidPng } from '../helpers/png';

interface PrintPage {
  page: Page;
  session: CDPSession;
  state: ResidentState;
  /** Each DevTools call as sent ("send M") and as answered ("answer M"), in order. */
  events: string[];
  /** When set, the answer to the next print is this one's instead of Chromium's (then unset). */
  replaceNextPrint?: { data: string };
  /** When set, the next swap's answer is an exception in the page instead of Chromium's (then unset). */
  failNextSwap?: boolean;
}

describe('the swap and the print asked together', function () {
  this.timeout(120000);
  let browser: Browser;
  let pipeline: DocumentPipeline;
  const pages: PrintPage[] = [];

  const parts = async (doc: Record<string, unknown>): Promise<PrintDocument> =>
    (await pipeline.renderHtml(pipeline.prepare({ from: 'Supplier', to: 'Client', ...doc }, pipeline.locale(['en-US'])))).parts;
  const invoice = (tag: string) => parts({ number: `${tag}-1`, items: [{ name: `${tag}ITEM`, quantity: 1, unit_cost: 5 }] });

  async function openPage(): Promise<PrintPage> {
    const page = await openPrintPage(browser);
    const session = await page.createCDPSession();
    await page.setJavaScriptEnabled(false);
    const printPageOf: PrintPage = { page, session, state: newResidentState(), events: [] };
    const send = session.send.bind(session) as (method: string, ...rest: unknown[]) => Promise<unknown>;
    (session as { send: unknown }).send = async (method: string, ...rest: unknown[]) => {
      printPageOf.events.push(`send ${method}`);
      const answer = await send(method, ...rest);
      printPageOf.events.push(`answer ${method}`);
      if (method === 'Runtime.evaluate' && printPageOf.failNextSwap) {
        printPageOf.failNextSwap = false;
        return { result: { type: 'undefined' }, exceptionDetails: { exceptionId: 1, text: 'Uncaught', lineNumber: 0, columnNumber: 0 } };
      }
      const replacement = printPageOf.replaceNextPrint;
      if (method === 'Page.printToPDF' && replacement) {
        printPageOf.replaceNextPrint = undefined;
        return replacement;
      }
      return answer;
    };
    return printPageOf;
  }

  async function print(on: PrintPage, doc: PrintDocument, pageBottom = false): Promise<Uint8Array> {
    on.events.length = 0;
    return printPage(on.page, on.session, doc, on.state, { format: 'letter', pageBottom });
  }

  before(async function () {
    const config = loadConfig({ ...process.env, NODE_ENV: 'test' });
    pipeline = new DocumentPipeline(loadAssets(projectRoot(), config.limits), {} as PdfRenderer, undefined, config);
    browser = await launchChromium({ executablePath: config.chromiumPath, sandbox: config.chromiumSandbox, rendererProcessLimit: 6 });
    pages.push(await openPage(), await openPage());
    // The frame and the Latin faces, loaded on both pages.
    for (const page of pages) await print(page, await invoice('WARM'));
  });
  after(async function () {
    await browser?.close();
  });

  it('sends the print before the swap has answered when the page waits for nothing', async function () {
    const pdf = await print(pages[0]!, await invoice('ALPHA'));
    expect(pages[0]!.events).to.deep.equal([
      'send Runtime.evaluate',
      'send Page.printToPDF',
      'answer Runtime.evaluate',
      'answer Page.printToPDF',
    ]);
    expect(pdfText(pdf)).to.contain('ALPHAITEM').and.not.contain('WARM');
  });

  it('waits for the swap when the page has font faces to load, an image to decode or a QR-bill to place', async function () {
    // Every call to the page (the faces may go in parts) answered before the print is sent.
    const sequential = (events: string[]) =>
      expect(events.indexOf('send Page.printToPDF'), events.join(', ')).to.be.greaterThan(events.lastIndexOf('answer Runtime.evaluate'));
    const japanese = await parts({ number: 'JA-1', items: [{ name: 'コンサルティング料', quantity: 1, unit_cost: 5 }] });
    expect(japanese.fonts.length).to.be.greaterThan(2);
    expect(pdfText(await print(pages[0]!, japanese))).to.contain('コンサルティング料');
    sequential(pages[0]!.events);
    const logo = `data:image/png;base64,${solidPng(60, 20, [200, 30, 30]).toString('base64')}`;
    await print(pages[0]!, await parts({ number: 'LOGO-1', logo, items: [{ name: 'LOGOITEM', quantity: 1, unit_cost: 5 }] }));
    expect(pages[0]!.events).to.have.length(4);
    sequential(pages[0]!.events);
    await print(pages[0]!, await invoice('BOTTOM'), true);
    expect(pages[0]!.events.slice(0, 2)).to.deep.equal(['send Runtime.evaluate', 'answer Runtime.evaluate']);
  });

  it('gives each of two alternating documents its own PDF, two pages printing at once, never printing twice', async function () {
    const docs = [await invoice('BRAVO'), await invoice('CHARLIE')];
    const texts = await Promise.all(
      pages.map(async (page, p) => {
        const out: string[] = [];
        for (let i = 0; i < 60; i++) {
          out.push(pdfText(await print(page, docs[(i + p) % 2]!)));
          expect(page.events.filter((e) => e === 'send Page.printToPDF')).to.have.length(1);
        }
        return out;
      }),
    );
    texts.forEach((out, p) =>
      out.forEach((text, i) => {
        const [own, other] = (i + p) % 2 === 0 ? ['BRAVO', 'CHARLIE'] : ['CHARLIE', 'BRAVO'];
        expect(text, `page ${p}, print ${i}`).to.contain(`${own}ITEM`).and.not.contain(`${other}ITEM`);
      }),
    );
  });

  it('prints again when the first print was of the page before the swap (its nonce missing)', async function () {
    const page = pages[1]!;
    const before = await print(page, await invoice('DELTA'));
    page.replaceNextPrint = { data: Buffer.from(before).toString('base64') };
    const pdf = await print(page, await invoice('ECHO'));
    expect(page.events.filter((e) => e === 'send Page.printToPDF')).to.have.length(2);
    expect(pdfText(pdf)).to.contain('ECHOITEM').and.not.contain('DELTAITEM');
  });

  it('fails the render when the swap failed, whatever the print asked with it printed', async function () {
    const page = pages[0]!;
    page.failNextSwap = true;
    const failed = await print(page, await invoice('GOLF')).then(
      () => undefined,
      (err: Error) => err,
    );
    expect(failed?.message).to.match(/in the print page/);
    expect(page.events).to.include('send Page.printToPDF');
  });

  it('knows a print by the nonce Chromium writes into its PDF, and no other', async function () {
    const page = pages[1]!;
    const { result } = await page.session.send('Runtime.evaluate', { expression: 'document.title', returnByValue: true });
    const nonce = result.value as string;
    expect(nonce).to.match(/^[0-9a-f-]{36}$/);
    const pdf = await print(page, await invoice('FOXTROT'));
    expect(printedAfter(pdf, nonce)).to.equal(false);
    const { result: now } = await page.session.send('Runtime.evaluate', { expression: 'document.title', returnByValue: true });
    expect(printedAfter(pdf, now.value as string)).to.equal(true);
  });
});
