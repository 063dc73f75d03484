// The Swiss QR-bill (payment_code swiss_qr_bill), on the real service: the guidelines' own example bills (Swiss
// Implementation Guidelines for the QR-bill 2.3, annex: examples 1, 4, 5 and 6) printed from requests and their codes
// read back by ZXingReader at 150 and 300 dpi, line by line against the guidelines' data; the payment part and receipt
// measured where the guidelines place them (words by pdftotext -bbox, the code, the Swiss cross and the separation
// lines from the page's pixels); on the last page's foot or a page of its own; the headings' languages; the page
// still PDF/A and PDF/UA, in Arimo; and every refusal a 400 naming its field.
import { expect } from 'chai';
import { archiveCheck } from '../helpers/pdf-archive-check';
import { pdfFlatText, pdfInfo, pdfPageCount } from '../helpers/pdf';
import { embeddedFonts, wordBoxes } from '../helpers/pdf-layout';
import { pagePixels } from '../helpers/page-pixels';
import { readQr } from '../helpers/qr-read';
import { post, postOk, sharedService } from '../helpers/service';
import { execFileSync } from 'node:child_process';
import { THEMES } from '../helpers/themes';

const MM = 72 / 25.4;

interface Party {
  name: string;
  street?: string;
  postal_code: string;
  city: string;
  country: string;
}

/** A request for a bill of `amount` (one line) from `seller` to `buyer`. */
function billRequest(o: {
  seller: Party;
  buyer?: Party;
  iban: string;
  reference?: string;
  amount: number;
  currency: string;
  number?: string;
}) {
  return {
    from: [o.seller.name, o.seller.street, `${o.seller.postal_code} ${o.seller.city}`].filter(Boolean).join('\n'),
    to: o.buyer ? [o.buyer.name, o.buyer.street, `${o.buyer.postal_code} ${o.buyer.city}`].filter(Boolean).join('\n') : 'Walk-in customer',
    number: o.number,
    currency: o.currency,
    items: [{ name: 'Services as agreed', quantity: 1, unit_cost: o.amount }],
    payment_code: 'swiss_qr_bill',
    e_invoice: { seller: o.seller, buyer: o.buyer, payment_means: { iban: o.iban, payment_id: o.reference } },
  };
}

const MUSTER: Party = { name: 'Max Muster & Söhne', street: 'Musterstrasse 123', postal_code: '8000', city: 'Seldwyla', country: 'CH' };
const SARAH: Party = { name: 'Sarah Beispiel', street: 'Musterstrasse 1', postal_code: '8000', city: 'Seldwyla', country: 'CH' };

/** Example 1 of the guidelines' annex: QR-IBAN with a QR reference, CHF 50.00, the message "Payment of travel". */
const EXAMPLE_1 = billRequest({
  seller: MUSTER,
  buyer: { name: 'Simon Muster', street: 'Musterstrasse 1', postal_code: '8000', city: 'Seldwyla', country: 'CH' },
  iban: 'CH64 3196 1000 0044 2155 7',
  reference: '00 00082 07791 22585 74212 86694',
  amount: 50,
  currency: 'CHF',
  number: 'Payment of travel',
});

/** The payload the guidelines' data table gives, line by line: creditor, amount, currency, debtor, reference, message. */
function payload(
  creditor: Party,
  amount: string,
  currency: string,
  debtor: Party | undefined,
  type: string,
  reference: string,
  message: string,
  iban: string,
): string {
  const address = (p?: Party) => (p ? ['S', p.name, p.street ?? '', '', p.postal_code, p.city, p.country] : ['', '', '', '', '', '', '']);
  return [
    'SPC',
    '0200',
    '1',
    iban,
    ...address(creditor),
    '',
    '',
    '',
    '',
    '',
    '',
    '',
    amount,
    currency,
    ...address(debtor),
    type,
    reference,
    message,
    'EPD',
  ].join('\r\n');
}

/** Page `page` of `pdf` as a PNG at `dpi`, for ZXingReader. */
function pagePng(pdf: Buffer, page: number, dpi: number): Buffer {
  return execFileSync('pdftoppm', ['-png', '-r', String(dpi), '-f', String(page), '-l', String(page), '-'], {
    input: pdf,
    maxBuffer: 256 * 1024 * 1024,
  });
}

const fieldsOf = async (res: Response) => ((await res.json()) as { details: { field: string }[] }).details.map((d) => d.field);

describe('the Swiss QR-bill (payment_code swiss_qr_bill)', function () {
  this.timeout(90000);

  for (const theme of THEMES) {
    it(`the guidelines' example 1 (${theme}): the code read at 150 and 300 dpi is the example's data; A4, one page, PDF/A and PDF/UA, in Arimo`, async function () {
      const pdf = await postOk(await sharedService(), { ...EXAMPLE_1, theme });
      const expected = payload(
        MUSTER,
        '50.00',
        'CHF',
        { name: 'Simon Muster', street: 'Musterstrasse 1', postal_code: '8000', city: 'Seldwyla', country: 'CH' },
        'QRR',
        '000008207791225857421286694',
        'Payment of travel',
        'CH6431961000004421557',
      );
      expect(readQr(pagePng(pdf, 1, 150))).to.equal(expected);
      expect(readQr(pagePng(pdf, 1, 300))).to.equal(expected);
      expect(pdfPageCount(pdf)).to.equal(1);
      expect(pdfInfo(pdf)['Page size']).to.match(/^595\.\d+ x 841\.\d+ pts \(A4\)/);
      const check = await archiveCheck(pdf);
      expect(check.problems).to.deep.equal([]);
      expect(check.summary.figures).to.deep.equal(['Swiss QR code: pay CHF 50.00 to Max Muster & Söhne']);
      const fonts = embeddedFonts(pdf).map((f) => f.name);
      expect(fonts).to.include.members(['Arimo-Regular', 'Arimo-Bold']);
      const text = pdfFlatText(pdf);
      for (const printed of [
        'CH64 3196 1000 0044 2155 7',
        '00 00082 07791 22585 74212 86694',
        'Max Muster & Söhne',
        '8000 Seldwyla',
        'Payment of travel',
        '50.00',
      ])
        expect(text).to.include(printed);
    });
  }

  it('the parts are where the guidelines place them: titles, headings, the code, the Swiss cross and the lines, to 0.5 mm', async function () {
    const pdf = await postOk(await sharedService(), EXAMPLE_1);
    const page = pagePixels(pdf, 1, 300);
    // The bill's top: its dashed line across the page, found near 105 mm above the paper's foot. The bill sits on the
    // foot to half a millimetre (print-page.ts leaves a point to spare); everything else is measured from the line.
    const rows = Array.from({ length: 25 }, (_, i) => page.heightMm - 106.2 + i * 0.1);
    const shares = rows.map((y) => page.darkShare('row', y, 10, 200));
    const top = rows[shares.indexOf(Math.max(...shares))]!;
    expect(Math.max(...shares), 'the horizontal line, dashed').to.be.within(0.3, 0.8);
    expect(page.heightMm - 105 - top, `the bill's top at ${top.toFixed(2)} mm`).to.be.within(-0.2, 0.6);

    const words = wordBoxes(pdf)[0]!.words.map((w) => ({ ...w, x: w.xMin / MM, y: w.yMin / MM - top, right: w.xMax / MM }));
    const first = (text: string, minX = 0) => words.find((w) => w.text === text && w.x >= minX && w.y > 0)!;
    // [word, x mm, y mm from the bill's top]: pdftotext's box starts at the font's ascent, a few tenths below the line's top.
    const placed: [string, number, number, number][] = [
      ['Receipt', 0, 5, 5],
      ['Account', 0, 5, 12],
      ['Payment', 62, 67, 5],
      ['Account', 100, 118, 5],
      ['Currency', 0, 5, 68],
      ['Amount', 0, 22, 68],
      ['Currency', 62, 67, 68],
      ['Amount', 62, 89, 68],
    ];
    for (const [text, minX, x, y] of placed) {
      const word = first(text, minX);
      expect(word, text).to.not.equal(undefined);
      expect(Math.abs(word.x - x), `${text} at x ${word.x.toFixed(2)} mm`).to.be.below(0.5);
      expect(word.y - y, `${text} at y ${word.y.toFixed(2)} mm`).to.be.within(-0.1, 0.6);
    }
    const point = first('point');
    expect(Math.abs(point.right - 57), `Acceptance point ends at ${point.right.toFixed(2)} mm`).to.be.below(0.5);
    expect(point.y - 82).to.be.within(-0.1, 0.6);

    // The code: 46 mm square at 67 mm, 17 mm below the bill's top (the modules are drawn edge to edge).
    const code = page.darkBox(64, top + 14, 116, top + 66)!;
    const box = [code.x0, code.y0 - top, code.x1, code.y1 - top];
    expect(
      box.every((v, i) => Math.abs(v - [67, 17, 113, 63][i]!) <= 0.25),
      `the code at ${box.map((v) => v.toFixed(2)).join(', ')}`,
    ).to.equal(true);
    // The Swiss cross in its middle: white arms 3.89 x 1.17 mm on a black 6 mm square, in a white 7 mm one.
    const [cx, cy] = [90, top + 40];
    expect(page.dark(cx, cy), 'the cross at the centre').to.equal(false);
    expect(page.dark(cx, cy - 1.5), 'its vertical arm').to.equal(false);
    expect(page.dark(cx + 1.5, cy), 'its horizontal arm').to.equal(false);
    expect(page.dark(cx + 1.1, cy + 1.1), 'the black square between the arms').to.equal(true);
    expect(page.dark(cx + 2.6, cy - 2.6), 'the black square at its corner').to.equal(true);
    expect(page.dark(cx + 3.25, cy), 'the white border').to.equal(false);
    expect(page.dark(cx, cy + 3.25), 'the white border').to.equal(false);
    // The separation line down at 62 mm, dashed.
    const down = Math.max(...[-0.1, 0, 0.1].map((d) => page.darkShare('column', 62 + d, top + 15, top + 104)));
    expect(down, 'the vertical line').to.be.within(0.3, 0.8);
    // Nothing of the document inside the bill's 3 mm above its line but the scissors on it.
    expect(page.darkBox(1, top - 3, 209, top - 1.6), 'the 3 mm above the line (the scissors aside)').to.satisfy(
      (b: { x0: number; x1: number } | undefined) => b === undefined || (b.x0 > 4 && b.x1 < 11),
    );
  });

  it("the guidelines' examples 4 (its reference's check digits corrected), 5 and 6: SCOR references, a creditor in Liechtenstein and a debtor in Germany (their country codes printed)", async function () {
    const service = await sharedService();
    const cases = [
      {
        request: billRequest({
          seller: { name: 'Muster Krankenkasse', street: 'Musterstrasse 12', postal_code: '8000', city: 'Seldwyla', country: 'CH' },
          buyer: SARAH,
          iban: 'CH58 0079 1123 0008 8901 2',
          // The guidelines print RF72…, whose check digits fail ISO 11649 (mod 97 gives 49): RF24 is the reference.
          reference: 'RF24 0191 2301 0040 5JSH 0438',
          amount: 211,
          currency: 'CHF',
        }),
        payload: payload(
          { name: 'Muster Krankenkasse', street: 'Musterstrasse 12', postal_code: '8000', city: 'Seldwyla', country: 'CH' },
          '211.00',
          'CHF',
          SARAH,
          'SCOR',
          'RF240191230100405JSH0438',
          '',
          'CH5800791123000889012',
        ),
        printed: ['RF24 0191 2301 0040 5JSH 0438', '211.00', 'Muster Krankenkasse'],
      },
      {
        request: billRequest({
          seller: { ...MUSTER, postal_code: '9490', city: 'Vaduz', country: 'LI' },
          buyer: SARAH,
          iban: 'CH5800791123000889012',
          reference: 'RF18539007547034',
          amount: 199.95,
          currency: 'CHF',
        }),
        payload: payload(
          { ...MUSTER, postal_code: '9490', city: 'Vaduz', country: 'LI' },
          '199.95',
          'CHF',
          SARAH,
          'SCOR',
          'RF18539007547034',
          '',
          'CH5800791123000889012',
        ),
        printed: ['LI-9490 Vaduz', 'RF18 5390 0754 7034', '199.95'],
      },
      {
        request: billRequest({
          seller: MUSTER,
          buyer: { ...SARAH, postal_code: '78462', city: 'Konstanz', country: 'DE' },
          iban: 'CH5800791123000889012',
          reference: 'RF18539007547034',
          amount: 199.95,
          currency: 'CHF',
        }),
        payload: payload(
          MUSTER,
          '199.95',
          'CHF',
          { ...SARAH, postal_code: '78462', city: 'Konstanz', country: 'DE' },
          'SCOR',
          'RF18539007547034',
          '',
          'CH5800791123000889012',
        ),
        printed: ['DE-78462 Konstanz', '8000 Seldwyla'],
      },
    ];
    for (const { request, payload: expected, printed } of cases) {
      const pdf = await postOk(service, request);
      expect(readQr(pagePng(pdf, 1, 150))).to.equal(expected);
      expect(readQr(pagePng(pdf, 1, 300))).to.equal(expected);
      const text = pdfFlatText(pdf);
      for (const p of printed) expect(text).to.include(p);
      expect(text).to.not.include('CH-8000');
    }
  });

  it('EUR, no reference (NON) and no debtor: the debtor left blank to fill in, "Payable by (name/address)"', async function () {
    const pdf = await postOk(
      await sharedService(),
      billRequest({ seller: MUSTER, iban: 'CH5800791123000889012', amount: 1234567.8, currency: 'EUR', number: 'R-1' }),
    );
    expect(readQr(pagePng(pdf, 1, 300))).to.equal(
      payload(MUSTER, '1234567.80', 'EUR', undefined, 'NON', '', 'R-1', 'CH5800791123000889012'),
    );
    const text = pdfFlatText(pdf);
    expect(text).to.include('Payable by (name/address)');
    expect(text).to.include('1 234 567.80');
    expect(text).to.not.include('Reference');
  });

  it('the longest data the guidelines allow fits its sections, set in their smallest sizes; the code still read', async function () {
    const seller = {
      name: 'W'.repeat(70),
      street: 'Chemin de la Grande-Gorge-du-Rhône et des Alpes Vaudoises 1234567 bât',
      postal_code: '1234567890123456',
      city: 'Saint-Maurice-de-la-Vallée-du-Rhôn',
      country: 'CH',
    };
    const buyer = {
      name: 'Société Générale de Surveillance à Genève et Lausanne Holding SA Suiss',
      street: 'Avenue de la Gare des Eaux-Vives et du Parc des Bastions 1234 bis',
      postal_code: '1204',
      city: 'Genève',
      country: 'FR',
    };
    const number = `Rechnung-2026-0042-${'Auftrag-vom-15-Juni-'.repeat(6)}`.slice(0, 140);
    const pdf = await postOk(await sharedService(), { ...EXAMPLE_1, number, e_invoice: { ...EXAMPLE_1.e_invoice, seller, buyer } });
    expect(readQr(pagePng(pdf, 1, 300))).to.equal(
      payload(seller, '50.00', 'CHF', buyer, 'QRR', '000008207791225857421286694', number, 'CH6431961000004421557'),
    );
    const page = wordBoxes(pdf)[0]!;
    const top = page.height / MM - 105;
    const words = page.words.map((w) => ({
      text: w.text,
      x: w.xMin / MM,
      right: w.xMax / MM,
      y: w.yMin / MM - top,
      bottom: w.yMax / MM - top,
    }));
    // Each section's own words end inside it: the receipt's information above its amount (68 mm), the payment part's
    // above its foot section (90 mm); the debtor's last line is printed in both.
    const receipt = words.filter((w) => w.right < 60 && w.y > 12 && w.y < 68);
    const payment = words.filter((w) => w.x > 117 && w.y > 5);
    expect(Math.max(...receipt.map((w) => w.bottom))).to.be.below(68);
    expect(Math.max(...payment.map((w) => w.bottom))).to.be.below(90);
    expect(receipt.filter((w) => w.text === 'FR-1204')).to.have.length(1);
    expect(payment.filter((w) => w.text === 'FR-1204')).to.have.length(1);
  });

  it('the headings in German, French or Italian from Accept-Language, English for the other languages', async function () {
    const service = await sharedService();
    const cases: [string, string[]][] = [
      ['de-CH', ['Empfangsschein', 'Zahlteil', 'Konto / Zahlbar an', 'Annahmestelle', 'Währung', 'Betrag']],
      ['fr-CH', ['Récépissé', 'Section paiement', 'Compte / Payable à', 'Point de dépôt', 'Monnaie', 'Montant']],
      ['it-CH, de;q=0.5', ['Ricevuta', 'Sezione pagamento', 'Conto / Pagabile a', 'Punto di accettazione', 'Valuta', 'Importo']],
      ['es-ES', ['Receipt', 'Payment part', 'Account / Payable to', 'Acceptance point', 'Currency', 'Amount']],
    ];
    for (const [language, headings] of cases) {
      const text = pdfFlatText(await postOk(service, EXAMPLE_1, { headers: { 'accept-language': language } }));
      for (const heading of headings) expect(text, language).to.include(heading);
    }
  });

  it('on the foot of the last page when it has room, else on a page of its own; never a page more, the page count right (1 to 44 lines)', async function () {
    const service = await sharedService();
    const seen = { ownPage: 0, lastPage: 0 };
    for (let lines = 1; lines <= 44; lines++) {
      const items = Array.from({ length: lines }, (_, i) => ({ name: `Garden work, section ${i + 1}`, quantity: 1, unit_cost: 88.25 }));
      const withBill = await postOk(service, { ...EXAMPLE_1, items });
      const plain = wordBoxes(await postOk(service, { ...EXAMPLE_1, items, payment_code: undefined, page_size: 'a4' }));
      const pages = wordBoxes(withBill);
      const last = pages[pages.length - 1]!;
      const own = pages.length === plain.length + 1;
      expect(pages.length === plain.length || own, `${lines} lines: ${pages.length} pages against ${plain.length}`).to.equal(true);
      seen[own ? 'ownPage' : 'lastPage']++;
      // The bill's title 5 mm below its top, its top 105 mm above the paper's foot (to half a millimetre).
      const receipt = last.words.find((w) => w.text === 'Receipt');
      expect(receipt, `${lines} lines: the bill on the last page`).to.not.equal(undefined);
      expect((receipt!.yMin - (last.height - 105 * MM)) / MM, `${lines} lines`).to.be.within(4.5, 5.6);
      expect(
        pages.slice(0, -1).some((p) => p.words.some((w) => w.text === 'Receipt')),
        `${lines} lines`,
      ).to.equal(false);
      // Its own page holds the bill and the page number only, when the document's last page ends too low for it.
      const above = last.words.filter((w) => w.yMin < last.height - 105 * MM).map((w) => w.text);
      const total = plain[plain.length - 1]!.words.find((w) => w.text === 'Total')!;
      if (own) {
        expect(above.join(' ')).to.equal(`Page ${pages.length} of ${pages.length}`);
        expect(total.yMax / MM, `${lines} lines: the total ends at ${(total.yMax / MM).toFixed(1)} mm`).to.be.above(180);
      } else {
        expect(above).to.include('Total');
        expect(total.yMax / MM, `${lines} lines`).to.be.below(192);
      }
      expect(pdfFlatText(withBill)).to.include(`Page ${pages.length} of ${pages.length}`);
    }
    expect(seen.ownPage).to.be.above(3);
    expect(seen.lastPage).to.be.above(3);
  });

  it("a page_size of letter is printed on A4, the QR-bill's paper", async function () {
    const pdf = await postOk(await sharedService(), { ...EXAMPLE_1, page_size: 'letter' });
    expect(pdfInfo(pdf)['Page size']).to.match(/\(A4\)/);
  });

  it('refuses with a 400 naming the field every case the guidelines rule out', async function () {
    const service = await sharedService();
    const means = (m: Record<string, unknown>) => ({ ...EXAMPLE_1, e_invoice: { ...EXAMPLE_1.e_invoice, payment_means: m } });
    const cases: [Record<string, unknown>, string[]][] = [
      [means({ iban: 'DE89370400440532013000' }), ['e_invoice.payment_means.iban']],
      [means({ iban: 'CH6431961000004421558', payment_id: '000008207791225857421286694' }), ['e_invoice.payment_means.iban']],
      [means({ iban: 'CH6431961000004421557' }), ['e_invoice.payment_means.payment_id']],
      [means({ iban: 'CH6431961000004421557', payment_id: '000008207791225857421286695' }), ['e_invoice.payment_means.payment_id']],
      [means({ iban: 'CH5800791123000889012', payment_id: '000008207791225857421286694' }), ['e_invoice.payment_means.payment_id']],
      [means({ iban: 'CH5800791123000889012', payment_id: 'RF19539007547034' }), ['e_invoice.payment_means.payment_id']],
      // The guidelines' own example 4 as printed, whose check digits are wrong.
      [means({ iban: 'CH5800791123000889012', payment_id: 'RF720191230100405JSH0438' }), ['e_invoice.payment_means.payment_id']],
      [means({ bic: 'UBSWCHZH80A' }), ['e_invoice.payment_means.iban']],
      [{ ...EXAMPLE_1, currency: 'USD' }, ['currency']],
      [
        { ...EXAMPLE_1, e_invoice: { ...EXAMPLE_1.e_invoice, seller: { name: 'Max Muster & Söhne', country: 'CH' } } },
        ['e_invoice.seller.postal_code', 'e_invoice.seller.city'],
      ],
      [
        { ...EXAMPLE_1, e_invoice: { ...EXAMPLE_1.e_invoice, seller: undefined } },
        ['e_invoice.seller.name', 'e_invoice.seller.postal_code', 'e_invoice.seller.city', 'e_invoice.seller.country'],
      ],
      [{ ...EXAMPLE_1, e_invoice: { ...EXAMPLE_1.e_invoice, seller: { ...MUSTER, name: 'مؤسسة ماكس' } } }, ['e_invoice.seller.name']],
      [{ ...EXAMPLE_1, e_invoice: { ...EXAMPLE_1.e_invoice, buyer: { ...SARAH, city: 'x'.repeat(36) } } }, ['e_invoice.buyer.city']],
      [{ ...EXAMPLE_1, number: 'N'.repeat(141) }, ['number']],
      [{ ...EXAMPLE_1, amount_paid: 50 }, ['balance_due']],
      [{ ...EXAMPLE_1, type: 'packing_slip', items: [{ name: 'Box', quantity: 1 }] }, ['payment_code']],
    ];
    for (const [body, fields] of cases) {
      const res = await post(service, body);
      expect(res.status, JSON.stringify(body).slice(0, 200)).to.equal(400);
      expect(await fieldsOf(res), JSON.stringify(body).slice(0, 200)).to.include.members(fields);
    }
  });
});
