// A received e-invoice printed for the person who approves it (DocumentPipeline.renderReceived), read off real PDFs
// printed by the service's real Chromium (pdftotext): the number, seller and buyer, every line, the amount due, the
// VAT breakdown, the IBAN, the references, the attached documents and the check line, in English and German, both
// themes; a line one cent off quantity × price printed with its own amount; an Arabic seller, a Bengali buyer with
// an eight-line address and 40 lines with no glyph drawn as a box and no word outside the margins.
import { expect } from 'chai';
import type { EInvoice } from '../../server/einvoice/model';
import { Decimal } from '../../server/money/totals';
import type { ReceivedCheck } from '../../server/render/received/view';
import { pdfPageCount, pdfText } from '../helpers/pdf';
import { notdefGlyphs, wordBoxes } from '../helpers/pdf-layout';
import { fullInvoice } from '../helpers/einvoice-full';
import { sharedService, type TestService } from '../helpers/service';
import { THEMES } from '../helpers/themes';

const CHECK: ReceivedCheck = {
  specification: 'urn:cen.eu:en16931:2017#compliant#urn:fdc:peppol.eu:2017:poacc:billing:3.0',
  ruleSets: [
    { name: 'EN 16931', version: '1.3.16' },
    { name: 'Peppol BIS Billing', version: '3.0.19' },
  ],
  valid: false,
  broken: ['BR-CO-16', 'BR-06'],
};

/** pdftotext -layout's lines, every run of spaces (no-break and narrow ones too) as one space. */
const lines = (pdf: Uint8Array): string[] =>
  pdfText(pdf)
    .split('\n')
    .map((l) => l.replace(/[\s\u00a0\u202f]+/g, ' ').trim());

/** Each expected text must be whole on one line of the page, spaces left out of the comparison. */
function missing(found: string[], expected: string[]): string[] {
  const bare = (s: string) => s.replace(/[\s\u00a0\u202f]/g, '');
  return expected.filter((e) => !found.some((line) => bare(line).includes(bare(e))));
}

const EXPECTED: Record<string, string[]> = {
  'en-GB': [
    'INVOICE',
    '# RE-2026-0042',
    'Checked against EN 16931 1.3.16 and Peppol BIS Billing 3.0.19: 2 rules broken (BR-CO-16, BR-06)',
    'Nordlicht Software GmbH',
    'Kunde AG',
    'Development',
    'Training 2 €40.00 0% €80.01',
    'Balance €226.29',
    'VAT Breakdown',
    'Standard rate (S) 19% €139.73 €26.55',
    'Exempt from VAT (E) 0% €80.00 €0.00 Exempt education',
    'IBAN DE02 1203 0000 0000 2020 51',
    'Payment Means SEPA credit transfer (58)',
    'Buyer Reference 04011000-12345-03',
    'Contract CON-2026-1',
    'Purchase Order PO-7781',
    'Attached Documents',
    'TS-1 Timesheet',
    'DN-2 Delivery note',
    'delivery.pdf',
    'VAT ID DE123456789',
  ],
  'de-DE': [
    'RECHNUNG',
    'Nr. RE-2026-0042',
    'Geprüft nach EN 16931 1.3.16 und Peppol BIS Billing 3.0.19: 2 Regeln verletzt (BR-CO-16, BR-06)',
    'Nordlicht Software GmbH',
    'Kunde AG',
    'Development',
    'Training 2 40,00 € 0 % 80,01 €',
    'Offener Betrag 226,29 €',
    'Aufschlüsselung der Umsatzsteuer',
    'Regelsteuersatz (S) 19 % 139,73 € 26,55 €',
    'Steuerbefreit (E) 0 % 80,00 € 0,00 € Exempt education',
    'IBAN DE02 1203 0000 0000 2020 51',
    'Zahlungsart SEPA-Überweisung (58)',
    'Käuferreferenz 04011000-12345-03',
    'Vertrag CON-2026-1',
    'Bestellnummer PO-7781',
    'Anlagen',
    'TS-1 Timesheet',
    'DN-2 Delivery note',
    'delivery.pdf',
    'USt-IdNr. DE123456789',
  ],
};

/** The full invoice with its second line one cent above quantity × price, as its sender stated it. */
function centOff(): EInvoice {
  const invoice = fullInvoice();
  const lines = invoice.lines.map((l, i) => (i === 1 ? { ...l, net: new Decimal('80.01') } : l));
  return { ...invoice, lines };
}

/** An Arabic seller, a Bengali buyer with an eight-line address, 40 lines. */
function oddInvoice(): EInvoice {
  const base = fullInvoice();
  const lines = Array.from({ length: 40 }, (_, i) => ({
    ...base.lines[i % 2]!,
    id: String(i + 1),
    name: i === 0 ? 'قهوة عربية محمصة، كيس واحد كيلوغرام' : `Item ${i + 1}: spare part with a long name that wraps on narrow pages`,
    description: i % 4 === 0 ? 'পণ্যের বিবরণ: বাংলা ভাষায় লেখা' : undefined,
  }));
  const address = {
    street: 'বাড়ি ১২, সড়ক ৫\nধানমন্ডি আবাসিক এলাকা\nBlock C, Floor 7',
    additionalStreet: 'Suite 701, reception on the left',
    line3: 'Attn. Accounts Payable',
    city: 'ঢাকা',
    postalCode: '1205',
    region: 'Dhaka Division',
    country: 'BD',
  };
  return {
    ...base,
    seller: { ...base.seller, name: 'شركة النور للتجارة والمقاولات ذ.م.م', tradingName: 'النور' },
    buyer: { ...base.buyer, name: 'ঢাকা ট্রেডিং কোম্পানি লিমিটেড', address },
    lines,
  };
}

describe('a received e-invoice printed for approval (real Chromium)', function () {
  this.timeout(180000);
  let service: TestService;
  before(async function () {
    service = await sharedService();
  });
  const render = (invoice: EInvoice, tag: string, theme?: string, check = CHECK) =>
    service.pipeline.renderReceived(invoice, check, { language: tag.slice(0, 2), tag }, { theme });

  for (const theme of THEMES) {
    for (const [tag, expected] of Object.entries(EXPECTED)) {
      it(`${tag} / ${theme}: every term whole on its line, each line with its own amount, no glyph missing`, async function () {
        const { pdf, filename } = await render(centOff(), tag, theme);
        expect(filename).to.equal('invoice-RE-2026-0042.pdf');
        expect(missing(lines(pdf), expected), 'texts not found whole on one line').to.deep.equal([]);
        expect(notdefGlyphs(pdf), 'glyphs drawn as boxes (.notdef)').to.equal(0);
      });
    }
  }

  it('foreign scripts, an eight-line address and 40 lines: every line printed, no box, no word outside the margins', async function () {
    const { pdf } = await render(oddInvoice(), 'en-GB', 'slate', { ...CHECK, valid: true, broken: [] });
    const found = lines(pdf);
    const names = Array.from({ length: 39 }, (_, i) => `Item ${i + 2}: spare part`);
    expect(missing(found, [...names, 'Checked against EN 16931 1.3.16 and Peppol BIS Billing 3.0.19: valid', 'Bangladesh'])).to.deep.equal(
      [],
    );
    expect(notdefGlyphs(pdf), 'glyphs drawn as boxes (.notdef)').to.equal(0);
    const pages = wordBoxes(pdf);
    const outside = pages.flatMap(({ width, words }) => words.filter((w) => w.xMin < 0.6 * 72 - 1.5 || w.xMax > width - 0.6 * 72 + 1.5));
    expect(outside.map((w) => `p${w.page} ${w.text}`)).to.deep.equal([]);
    expect(pdfPageCount(pdf)).to.be.within(3, 10);
  });

  it('refuses a theme there is none of, naming the field', async function () {
    const err: unknown = await render(centOff(), 'en-GB', 'neon').catch((e: unknown) => e);
    expect(err).to.have.property('code', 'validation_failed');
    expect((err as { facts: { details: { field: string }[] } }).facts.details.map((d) => d.field)).to.deep.equal(['theme']);
  });
});
