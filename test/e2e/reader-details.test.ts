// What a reader of an EU invoice needs, read off real PDFs (HTTP, real Chromium, pdftotext): the date of supply, the
// period, the VAT point date, the preceding invoice and the payee in the details; each unit beside its quantity in the
// language; identifiers, origin, attributes, period and note under the item; a line's allowance and charge under it
// with their signed amounts. In English, German and French, both themes; an Arabic bill-to and a Bengali ship-to beside
// them; no glyph drawn as a box, no number split across lines.
import fs from 'node:fs';
import path from 'node:path';
import { expect } from 'chai';
import { projectRoot } from '../../server/config';
import { pdfText } from '../helpers/pdf';
import { notdefGlyphs } from '../helpers/pdf-layout';
import { post, sharedService, type TestService } from '../helpers/service';
import { THEMES } from '../helpers/themes';

const INVOICE = JSON.parse(
  fs.readFileSync(path.join(projectRoot(), 'test', 'fixtures', 'reader', 'invoice-details.json'), 'utf8'),
) as Record<string, unknown>;

/** pdftotext -layout's lines, every run of spaces (no-break and narrow ones too) as one space. */
async function pdfLines(service: TestService, body: unknown, acceptLanguage: string): Promise<{ lines: string[]; pdf: Uint8Array }> {
  const res = await post(service, body, { headers: { 'accept-language': acceptLanguage } });
  expect(res.status, res.status === 200 ? '' : await res.clone().text()).to.equal(200);
  const pdf = new Uint8Array(await res.arrayBuffer());
  return {
    lines: pdfText(pdf)
      .split('\n')
      .map((l) => l.replace(/[\s\u00a0\u202f]+/g, ' ').trim()),
    pdf,
  };
}

/** Each expected text must be whole on one line of the page (a label with its value, a quantity with its unit), its
 * words in order; spaces are left out of the comparison (pdftotext drops the no-break space of "2 h" at some sizes). */
function missing(lines: string[], expected: string[]): string[] {
  const bare = (s: string) => s.replace(/ /g, '');
  return expected.filter((e) => !lines.some((line) => bare(line).includes(bare(e))));
}

const EXPECTED: Record<string, string[]> = {
  'en-GB': [
    'Date of Supply 31 Mar 2026',
    'Period 1 Mar 2026 – 31 Mar 2026',
    'Tax Point Date 31 Mar 2026',
    'Payee Hanse Factoring AG',
    'Preceding Invoice RE-2026-0042 of 2 Mar 2026',
    '16 h €120.00 €1,920.00',
    '12.5 kg €18.40 €230.00',
    '1 month €49.00',
    '3 days €640.00 €1,920.00',
    '3 €200.00 €600.00',
    '25 m €1.20 €30.00',
    'Art. No.: CONS-ARCH · Your Ref.: PO-7781-3',
    'Period: 2 Mar 2026 – 13 Mar 2026',
    'On site in Hamburg, three days',
    'GTIN 4012345678901',
    'Origin: Ethiopia · Roast: medium',
    'less 10% Early bird -€23.00',
    'plus Travel +€45.00',
    'Subtotal €4,771.00',
  ],
  'de-DE': [
    'Leistungsdatum 31.03.2026',
    'Leistungszeitraum 01.03.2026 – 31.03.2026',
    'Steuerfälligkeit 31.03.2026',
    'Zahlungsempfänger Hanse Factoring AG',
    'Vorherige Rechnung RE-2026-0042 vom 02.03.2026',
    '16 Std. 120,00 € 1.920,00 €',
    '12,5 kg 18,40 € 230,00 €',
    '1 Monat 49,00 €',
    '3 Tage 640,00 € 1.920,00 €',
    'Art.-Nr.: CONS-ARCH · Ihre Art.-Nr.: PO-7781-3',
    'Herkunft: Äthiopien · Roast: medium',
    'abzüglich 10 % Early bird -23,00 €',
    'zuzüglich Travel +45,00 €',
    'Zwischensumme 4.771,00 €',
  ],
  'fr-FR': [
    'Date de livraison 31 mars 2026',
    'Période 1 mars 2026 – 31 mars 2026',
    'Bénéficiaire Hanse Factoring AG',
    'Facture antérieure RE-2026-0042 du 2 mars 2026',
    '16 h 120,00 € 1 920,00 €',
    '1 mois 49,00 €',
    '3 jours 640,00 €',
    'Réf. : CONS-ARCH · Votre réf. : PO-7781-3',
    'Origine : Éthiopie · Roast : medium',
    'moins 10 % Early bird -23,00 €',
    'plus Travel +45,00 €',
  ],
};

describe('reader details on the page: dates of supply, units, identifiers, line allowances (real Chromium)', function () {
  this.timeout(120000);
  let service: TestService;
  before(async function () {
    service = await sharedService();
  });

  for (const theme of THEMES) {
    for (const [tag, expected] of Object.entries(EXPECTED)) {
      it(`${tag} / ${theme}: every detail whole on its line, no glyph missing`, async function () {
        const { lines, pdf } = await pdfLines(service, { ...INVOICE, theme }, tag);
        expect(missing(lines, expected), 'texts not found whole on one line').to.deep.equal([]);
        expect(notdefGlyphs(pdf), 'glyphs drawn as boxes (.notdef)').to.equal(0);
      });
    }
  }

  it("the request's labels override the new titles, as the reference API's template parameters do", async function () {
    const labels = { delivery_date_title: 'Supplied on', payee_title: 'Pay to', seller_item_id_title: 'SKU', allowance_title: 'Rebate' };
    const { lines } = await pdfLines(service, { ...INVOICE, ...labels }, 'en-GB');
    expect(missing(lines, ['Supplied on 31 Mar 2026', 'Pay to Hanse Factoring AG', 'SKU: CONS-ARCH'])).to.deep.equal([]);
  });

  it('a credit note names the invoice it corrects; Thai units print in Thai', async function () {
    const { due_date: _, ...rest } = INVOICE;
    const credit = { ...rest, type: 'credit_note', items: [{ name: 'Refund', quantity: 2, unit: 'HUR', unit_cost: 120 }] };
    const en = await pdfLines(service, credit, 'en-US');
    expect(missing(en.lines, ['Original Invoice RE-2026-0042 of Mar 2, 2026', '2 h €120.00 €240.00'])).to.deep.equal([]);
    const th = await pdfLines(service, credit, 'th-TH');
    expect(missing(th.lines, ['2 ชม.', 'ใบแจ้งหนี้เดิม'])).to.deep.equal([]);
    expect(notdefGlyphs(th.pdf), 'glyphs drawn as boxes (.notdef)').to.equal(0);
  });
});
