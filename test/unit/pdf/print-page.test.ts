// How long a part of a long text sent to a print page is (server/pdf/print-page.ts partLength): about SEND_PART_BYTES
// of UTF-8 whatever the script, so that a part of Chinese is not three times the size the parts are tuned for.
import { expect } from 'chai';
import { EventEmitter, type CDPSession, type Page } from 'puppeteer';
import { newResidentState, partLength, printPage, SEND_PART_BYTES } from '../../../server/pdf/print-page';

describe('the parts of a long text sent to a print page', function () {
  it('holds SEND_PART_BYTES characters of ASCII (HTML, base64 font faces)', function () {
    expect(partLength('<td class="x">a</td>'.repeat(20000))).to.equal(SEND_PART_BYTES);
  });

  it('holds a third as many characters of Chinese, three bytes each', function () {
    const text = '统一发票'.repeat(50000);
    expect(partLength(text)).to.equal(SEND_PART_BYTES / 3);
    expect(Buffer.byteLength(text.slice(0, partLength(text)))).to.equal(SEND_PART_BYTES);
  });

  it('averages over a mixed text, and is never 0', function () {
    const mixed = `${'a'.repeat(60000)}${'é'.repeat(60000)}`;
    expect(partLength(mixed)).to.equal(Math.floor((SEND_PART_BYTES * 120000) / 180000));
    expect(partLength('')).to.equal(1);
  });
});

describe("a print's crash listener on its page", function () {
  /** A page and its session as printPage uses them: puppeteer's own event emitter, and DevTools calls answered at
   * once (the print's bytes a minimal PDF). */
  function fakePage() {
    const page = new EventEmitter<Record<string, unknown>>();
    const pdf = Buffer.from('%PDF-1.4\n%%EOF\n').toString('base64');
    const session = {
      send: (method: string) => Promise.resolve(method === 'Page.printToPDF' ? { data: pdf } : {}),
    };
    return { page: page as unknown as Page, session: session as unknown as CDPSession, emitter: page };
  }

  it('is removed after each print, so that a page does not keep every print it made', async function () {
    const { page, session, emitter } = fakePage();
    const state = newResidentState();
    for (let i = 0; i < 5; i++) await printPage(page, session, '<p>x</p>', state, { format: 'letter' });
    expect(emitter.listenerCount('error')).to.equal(0);
  });

  it('still ends a print whose renderer crashes', async function () {
    const { page, emitter } = fakePage();
    const session = { send: () => new Promise(() => undefined) } as unknown as CDPSession;
    const printing = printPage(page, session, '<p>x</p>', newResidentState(), { format: 'letter' });
    emitter.emit('error', new Error('renderer crashed'));
    const failure = await printing.then(
      () => undefined,
      (err: Error) => err,
    );
    expect(failure?.message).to.equal('renderer crashed');
    expect(emitter.listenerCount('error')).to.equal(0);
  });
});
