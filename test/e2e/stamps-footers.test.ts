// Stamps and letterhead footers on the real service: every kind in its language in both themes, words of the request's
// own in Arabic, Thai and CJK, across the first page or every page; the footer on every page beside the counter. Read
// back from the PDF: the stamp is an image (a soft-masked 300 ppi picture) so the text layer reads exactly as without
// it, no glyph is .notdef, the footer's words lie below every word of the body and inside the paper, PDF/A-3 and
// PDF/UA-1 hold (a Factur-X PDF too, the stamp an artifact). Then hostile values in each field: a 400 naming it, or the
// text printed as text.
import { execFileSync } from 'node:child_process';
import { expect } from 'chai';
import fc from 'fast-check';
import { E_INVOICE } from '../helpers/e-invoice-request';
import { hostileText } from '../helpers/hostile-values';
import { pdfText } from '../helpers/pdf';
import { archiveCheck } from '../helpers/pdf-archive-check';
import { notdefGlyphs, wordBoxes } from '../helpers/pdf-layout';
import { post, postOk, sharedService, type TestService } from '../helpers/service';
import { THEMES } from '../helpers/themes';

const FOOTER = [
  'Kaffee GmbH · Sitz der Gesellschaft: Berlin · Registergericht: Amtsgericht Charlottenburg HRB 123456 B',
  'Geschäftsführer: Max Mustermann, Erika Mustermann · USt-IdNr.: DE123456789',
  'Berliner Sparkasse · IBAN DE89 3704 0044 0532 0130 00 · BIC COBADEFFXXX',
].join('\n');
const items = (n: number) => Array.from({ length: n }, (_, i) => ({ name: `Item ${i + 1}`, quantity: i + 1, unit_cost: 12.5 + i }));
const invoice = (extra: Record<string, unknown> = {}) => ({
  from: 'Kaffee GmbH',
  to: 'Café Luna',
  number: 'S-1',
  tax: 19,
  items: items(3),
  ...extra,
});

/** The soft-masked images of each page (pdfimages -list): the stamp is one per stamped page. */
function maskedImagesByPage(pdf: Buffer): number[] {
  const rows = execFileSync('pdfimages', ['-list', '-'], { input: pdf }).toString().trim().split('\n').slice(2);
  const pages = Number(
    execFileSync('pdfinfo', ['-'], { input: pdf })
      .toString()
      .match(/Pages:\s+(\d+)/)![1],
  );
  const out = new Array<number>(pages).fill(0);
  for (const row of rows) {
    const [page, , type] = row.trim().split(/\s+/);
    if (type === 'smask') out[Number(page) - 1]!++;
  }
  return out;
}

const problemsOf = async (res: Response) => ((await res.json()) as { details: { field: string; message: string }[] }).details;

describe('stamps and letterhead footers', function () {
  this.timeout(300000);
  let service: TestService;
  before(async function () {
    service = await sharedService();
  });

  const KINDS: [string, string, string][] = [
    ['paid', 'en', 'classic'],
    ['draft', 'de', 'slate'],
    ['copy', 'fr', 'classic'],
    ['void', 'es', 'slate'],
    ['duplicate', 'th', 'classic'],
  ];
  for (const [kind, lang, theme] of KINDS) {
    it(`"${kind}" in ${lang}, ${theme}: an image on page 1 only, the text layer as without it, no .notdef`, async function () {
      const headers = { 'accept-language': lang };
      const plain = await postOk(service, invoice({ theme, items: items(40) }), { headers });
      const stamped = await postOk(service, invoice({ theme, items: items(40), stamp: kind }), { headers });
      expect(maskedImagesByPage(stamped)).to.deep.equal([1, 0]);
      expect(maskedImagesByPage(plain)).to.deep.equal([0, 0]);
      expect(pdfText(stamped)).to.equal(pdfText(plain));
      expect(notdefGlyphs(stamped)).to.equal(0);
    });
  }

  it("words of the request's own in Arabic, Thai and CJK, on every page", async function () {
    for (const text of ['نسخة العميل — لا تُستخدم للدفع', 'สำเนาสำหรับลูกค้า', '副本 — 请勿付款', 'x'.repeat(40)]) {
      const pdf = await postOk(service, invoice({ items: items(40), stamp: { text, pages: 'all' } }));
      expect(maskedImagesByPage(pdf), text).to.deep.equal([1, 1]);
      expect(notdefGlyphs(pdf), text).to.equal(0);
    }
  });

  it('a stamped Factur-X PDF stays PDF/A-3 and PDF/UA-1, the stamp an artifact, and its invoice says nothing of it', async function () {
    const res = await post(
      service,
      invoice({ number: 'FX-1', date: '2026-11-20', due_date: '2026-12-20', stamp: 'paid', e_invoice: E_INVOICE }),
      { path: '/factur-x' },
    );
    expect(res.status).to.equal(200);
    const pdf = Buffer.from(await res.arrayBuffer());
    const { problems, summary, pages } = await archiveCheck(pdf);
    expect(problems).to.deep.equal([]);
    expect(summary.xmp).to.deep.include({ part: '3', pdfua: '1' });
    expect(summary.untaggedPaints).to.equal(0);
    expect(pages[0]!.artifactText).to.not.include('PAID'); // an image: no words at all
    expect(maskedImagesByPage(pdf)).to.deep.equal([1]);
  });

  for (const theme of THEMES) {
    it(`${theme}: the footer on every page, below the body and inside the paper, beside the counter`, async function () {
      const pdf = await postOk(service, invoice({ theme, items: items(60), footer: FOOTER }));
      const pages = wordBoxes(pdf);
      expect(pages.length).to.be.greaterThan(1);
      for (const page of pages) {
        const footer = page.words.filter((w) => w.yMin > page.height - 80 && w.xMax < page.width * 0.75);
        const body = page.words.filter((w) => w.yMax < page.height - 80);
        const top = Math.min(...footer.map((w) => w.yMin));
        const words = footer.map((w) => w.text).join(' ');
        expect(words, `page ${pages.indexOf(page) + 1}`)
          .to.include('Amtsgericht Charlottenburg HRB')
          .and.include('BIC COBADEFFXXX');
        expect(top, `page ${pages.indexOf(page) + 1}: the footer starts below the body`).to.be.greaterThan(
          Math.max(...body.map((w) => w.yMax)),
        );
        for (const w of page.words) expect(w.xMin >= 0 && w.xMax <= page.width && w.yMax <= page.height, w.text).to.equal(true);
      }
      const { problems } = await archiveCheck(pdf);
      expect(problems).to.deep.equal([]);
    });
  }

  it('the longest footer (6 lines of 150 wide characters) wraps inside its margin and never reaches the body', async function () {
    const cjk = Array.from({ length: 6 }, (_, i) => `${i + 1}号`.padEnd(150, '董事注册资本壹佰万元整'));
    for (const footer of [cjk.join('\n'), Array.from({ length: 6 }, () => 'W'.repeat(150)).join('\n')]) {
      const pdf = await postOk(service, invoice({ items: items(45), footer }));
      expect(notdefGlyphs(pdf)).to.equal(0);
      const pages = wordBoxes(pdf);
      for (const page of pages) {
        const marks = page.words.filter((w) => /董|W{5}/.test(w.text));
        const body = page.words.filter(
          (w) => /^(Item|\$|\d)/.test(w.text) && !/董|W{5}/.test(w.text) && w.yMax < Math.min(...marks.map((m) => m.yMin)) + 1,
        );
        expect(marks.length, `page ${pages.indexOf(page) + 1}`).to.be.greaterThan(5);
        expect(Math.min(...marks.map((w) => w.yMin))).to.be.greaterThan(Math.max(...body.map((w) => w.yMax)));
        for (const w of marks) expect(w.yMax <= page.height && w.xMax <= page.width, w.text).to.equal(true);
      }
    }
  });

  it('markup and CSS in the footer are printed as text, nothing else', async function () {
    const footer = '</style><h1>INJECTED</h1> "\\A" } @page { margin: 0 } \\"; content: "x"';
    const text = pdfText(await postOk(service, invoice({ footer })));
    expect(text).to.include('</style><h1>INJECTED</h1>');
    expect(text).to.include('@page { margin: 0 }');
  });

  it('refuses what cannot be printed, naming the field: a paid quote, 7 footer lines, a 151-character line, a QR-bill beside a footer', async function () {
    const cases: [Record<string, unknown>, string][] = [
      [{ type: 'quote', stamp: 'paid' }, 'stamp'],
      [{ type: 'packing_slip', tax: undefined, stamp: { kind: 'paid', text: 'Bezahlt' } }, 'stamp.kind'],
      [{ stamp: 'stamped' }, 'stamp'],
      [{ stamp: { pages: 'all' } }, 'stamp'],
      [{ stamp: { text: 'a\nb' } }, 'stamp.text'],
      [{ stamp: { text: 'x'.repeat(41) } }, 'stamp.text'],
      [{ footer: Array.from({ length: 7 }, () => 'line').join('\n') }, 'footer'],
      [{ footer: 'x'.repeat(151) }, 'footer'],
      [{ footer: 'Bank', payment_code: 'swiss_qr_bill', currency: 'CHF' }, 'footer'],
    ];
    for (const [extra, field] of cases) {
      const res = await post(service, invoice(extra));
      expect(res.status, JSON.stringify(extra).slice(0, 80)).to.equal(400);
      expect(
        (await problemsOf(res)).map((p) => p.field),
        JSON.stringify(extra).slice(0, 80),
      ).to.include(field);
    }
  });

  it('hostile values in stamp and footer: a 400 naming the field or a PDF, never a 5xx, never a runaway page count', async function () {
    await fc.assert(
      fc.asyncProperty(fc.constantFrom('stamp', 'stamp.text', 'footer'), hostileText, async (where, value) => {
        const extra = where === 'stamp.text' ? { stamp: { text: value } } : { [where]: value };
        const res = await post(service, invoice(extra));
        const bytes = Buffer.from(await res.arrayBuffer());
        expect([200, 400], `${where} ${JSON.stringify(value).slice(0, 60)}: ${bytes.toString().slice(0, 200)}`).to.include(res.status);
        if (res.status === 400) {
          const { details } = JSON.parse(bytes.toString()) as { details: { field: string }[] };
          expect(details.map((d) => d.field.split('.')[0])).to.include(where.split('.')[0]);
        } else expect(wordBoxes(bytes).length, where).to.equal(1);
      }),
      { numRuns: 40 },
    );
  });

  it('in a form body and in /batch', async function () {
    const form = `from=A&to=B&stamp=paid&footer=${encodeURIComponent('Line one\nLine two')}&items[0][name]=X&items[0][unit_cost]=5`;
    const pdf = await postOk(service, form);
    expect(maskedImagesByPage(pdf)).to.deep.equal([1]);
    expect(pdfText(pdf)).to.include('Line two');
    const res = await post(
      service,
      { documents: [invoice({ stamp: 'copy', footer: 'Batch footer' }), invoice({ number: 'S-2' })] },
      { path: '/batch' },
    );
    expect(res.status).to.equal(200);
  });
});
