// UBL 2.1 written from requests (money/ → einvoice/map.ts → einvoice/ubl/build.ts), checked by the service's own
// XSD validator and read back: an invoice and a credit note at their roots, and, for any mix of lines (fast-check: up
// to seven-figure prices, several rates, sub-percent rates, exempt lines, a discount and shipping, currencies of 0, 2
// and 3 decimals), a valid document whose VAT breakdown adds up (BR-CO-14, BR-CO-13, BR-CO-10) and whose every
// standard-rated tax is its taxable amount times its rate rounded half away from zero to the currency (BR-S-08),
// worked out here with decimal.js apart from the service's own rounding. The EN 16931 and Peppol rules over the same
// documents are test/e2e/ubl.test.ts's.
import { expect } from 'chai';
import Decimal from 'decimal.js';
import fc from 'fast-check';
import { loadConfig } from '../../../../server/config';
import type { DocumentRequest } from '../../../../server/documents/model';
import { toEInvoice } from '../../../../server/einvoice/map';
import { buildUbl, PDF_PLACEHOLDER } from '../../../../server/einvoice/ubl/build';
import { acquireXsdValidator, type XsdValidatorRef } from '../../../../server/einvoice/xsd-validator';
import { computeTotals } from '../../../../server/money/totals';
import { E_INVOICE } from '../../../helpers/e-invoice-request';
import { documentRequest } from '../../../helpers/money';
import { at, one, parse } from '../../../helpers/xml-path';

const LABELS = { discount: 'Discount', shipping: 'Shipping' };
const NOW = new Date('2026-11-26T12:00:00Z');
const EXEMPT = 'Exempt under article 132 of Directive 2006/112/EC';

type Item = DocumentRequest['items'][number];

function request(fields: Partial<DocumentRequest>): DocumentRequest {
  return documentRequest({
    number: 'INV-1',
    date: '2026-03-02',
    fields: { tax: '%', discounts: false, shipping: false },
    tax: 21,
    e_invoice: { ...E_INVOICE, tax_exemption_reason: EXEMPT } as DocumentRequest['e_invoice'],
    ...fields,
  });
}

function ubl(doc: DocumentRequest, attachment?: string) {
  const invoice = toEInvoice({
    doc,
    totals: computeTotals(doc),
    syntax: 'ubl',
    defaultProfile: 'peppol',
    localeTag: 'en-US',
    timeZone: 'UTC',
    labels: LABELS,
    now: NOW,
    attachment,
  });
  return buildUbl(invoice);
}

const sum = (values: string[]) => values.reduce((s, v) => s.add(v), new Decimal(0));
const DIGITS: Record<string, number> = { EUR: 2, USD: 2, JPY: 0, KWD: 3 };

/** The arithmetic EN 16931 holds a UBL invoice to, read from its XML; each amount with its currency's decimals. */
function checkArithmetic(xml: string, currency: string): void {
  const doc = parse(xml);
  const digits = DIGITS[currency]!;
  // Every amount in the document's currency; every one but a unit price (BT-146, as precise as sent) to its decimals.
  for (const [, name, code, value] of xml.matchAll(/<cbc:(\w+) currencyID="([A-Z]{3})">(-?[\d.]+)</g)) {
    expect(code).to.equal(currency);
    if (name === 'PriceAmount') continue;
    expect(value!.split('.')[1]?.length ?? 0, `${name} ${value} in ${currency}`).to.equal(digits);
  }
  const subtotals = 'cac:TaxTotal/cac:TaxSubtotal';
  const total = (name: string) => new Decimal(one(doc, `cac:LegalMonetaryTotal/cbc:${name}`) ?? '0');
  expect(sum(at(doc, `${subtotals}/cbc:TaxAmount`)).eq(one(doc, 'cac:TaxTotal/cbc:TaxAmount')!), 'BR-CO-14').to.equal(true);
  expect(sum(at(doc, `${subtotals}/cbc:TaxableAmount`)).eq(total('TaxExclusiveAmount')), 'taxable amounts').to.equal(true);
  expect(sum(at(doc, 'cac:InvoiceLine/cbc:LineExtensionAmount')).eq(total('LineExtensionAmount')), 'BR-CO-10').to.equal(true);
  const adjusted = total('LineExtensionAmount').sub(total('AllowanceTotalAmount')).add(total('ChargeTotalAmount'));
  expect(adjusted.eq(total('TaxExclusiveAmount')), 'BR-CO-13').to.equal(true);
  expect(total('TaxExclusiveAmount').add(one(doc, 'cac:TaxTotal/cbc:TaxAmount')!).eq(total('TaxInclusiveAmount'))).to.equal(true);
  const taxable = at(doc, `${subtotals}/cbc:TaxableAmount`);
  const tax = at(doc, `${subtotals}/cbc:TaxAmount`);
  const codes = at(doc, `${subtotals}/cac:TaxCategory/cbc:ID`);
  const rates = at(doc, `${subtotals}/cac:TaxCategory/cbc:Percent`);
  codes.forEach((code, i) => {
    if (code === 'S') {
      const expected = new Decimal(taxable[i]!).mul(rates[i]!).div(100).toDecimalPlaces(digits, Decimal.ROUND_HALF_UP);
      expect(tax[i], `BR-S-08 at ${rates[i]} %`).to.equal(expected.toFixed(digits));
    } else expect(new Decimal(tax[i]!).isZero(), `no tax in category ${code}`).to.equal(true);
  });
  if (codes.includes('E')) expect(at(doc, `${subtotals}/cac:TaxCategory/cbc:TaxExemptionReason`)).to.deep.equal([EXEMPT]);
}

/** A line: a price up to 9,999,999.99, a quantity with up to two decimals, a rate of those in use or exempt. */
const line = fc.record({
  quantity: fc.integer({ min: 1, max: 50_000 }).map((n) => n / 100),
  cents: fc.integer({ min: 1, max: 999_999_999 }),
  rate: fc.constantFrom<number | 'E'>(21, 19, 7, 5.5, 8.875, 0.375, 'E'),
});

describe('UBL written from requests (map → ubl/build), XSD-valid and adding up', function () {
  let xsd: XsdValidatorRef;
  before(async function () {
    xsd = acquireXsdValidator(loadConfig({}));
    await xsd.validator.ready();
  });
  after(async function () {
    await xsd?.release();
  });

  it('an invoice and a credit note, each XSD-valid at its root, with its lines, parties and the PDF’s place', async function () {
    const items: Item[] = [
      { name: 'Consulting', quantity: 3, unit_cost: 150 },
      { name: 'Licence', quantity: 1, unit_cost: 99.99 },
    ];
    const invoice = ubl(request({ items }), 'invoice-INV-1.pdf');
    expect(invoice.root).to.equal('Invoice');
    expect(await xsd.validator.validate(invoice.xml.replace(PDF_PLACEHOLDER, 'JVBERi0='), 'Invoice')).to.deep.equal([]);
    const doc = parse(invoice.xml);
    expect(one(doc, 'cbc:ID')).to.equal('INV-1');
    expect(one(doc, 'cbc:InvoiceTypeCode')).to.equal('380');
    expect(one(doc, 'cbc:IssueDate')).to.equal('2026-03-02');
    expect(at(doc, 'cac:InvoiceLine/cac:Item/cbc:Name')).to.deep.equal(['Consulting', 'Licence']);
    expect(one(doc, 'cac:AccountingSupplierParty/cac:Party/cac:PartyTaxScheme/cbc:CompanyID')).to.equal('BE0123456749');
    expect(one(doc, 'cac:AdditionalDocumentReference/cac:Attachment/cbc:EmbeddedDocumentBinaryObject/@filename')).to.equal(
      'invoice-INV-1.pdf',
    );
    expect(one(doc, 'cac:LegalMonetaryTotal/cbc:PayableAmount')).to.equal('665.49');
    checkArithmetic(invoice.xml, 'EUR');

    const credit = ubl(request({ type: 'credit_note', purchase_order: 'INV-0', items }));
    expect(credit.root).to.equal('CreditNote');
    expect(await xsd.validator.validate(credit.xml, 'CreditNote')).to.deep.equal([]);
    const cn = parse(credit.xml);
    expect(one(cn, 'cbc:CreditNoteTypeCode')).to.equal('381');
    expect(at(cn, 'cac:CreditNoteLine/cbc:CreditedQuantity')).to.deep.equal(['3', '1']);
    expect(one(cn, 'cac:BillingReference/cac:InvoiceDocumentReference/cbc:ID')).to.equal('INV-0');
  });

  it('text that XML must escape is written escaped and read back as sent', async function () {
    const name = 'Bolts & nuts <M8> "zinc" \'A2\' ü € 😀';
    const xml = ubl(request({ items: [{ name, quantity: 1, unit_cost: 1 }], notes: 'a]]>b' })).xml;
    expect(await xsd.validator.validate(xml, 'Invoice')).to.deep.equal([]);
    expect(at(xml, 'cac:InvoiceLine/cac:Item/cbc:Name')).to.deep.equal([name]);
    expect(at(xml, 'cbc:Note')).to.deep.equal(['a]]>b']);
  });

  it('ties round half away from zero: 5 % of 0.10 EUR, 8.875 % of 10.20 EUR, 10 % of 5 JPY, 0.375 % of 1.20 KWD', async function () {
    const cases: [string, number, number, string][] = [
      ['EUR', 0.1, 5, '0.01'],
      ['EUR', 10.2, 8.875, '0.91'],
      ['JPY', 5, 10, '1'],
      ['KWD', 1.2, 0.375, '0.005'],
    ];
    for (const [currency, price, rate, tax] of cases) {
      const { xml } = ubl(request({ currency, items: [{ name: 'Tie', quantity: 1, unit_cost: price }], tax: rate }));
      expect(await xsd.validator.validate(xml, 'Invoice')).to.deep.equal([]);
      expect(one(xml, 'cac:TaxTotal/cbc:TaxAmount'), `${rate} % of ${price} ${currency}`).to.equal(tax);
      checkArithmetic(xml, currency);
    }
  });

  it('any lines, rates, discount, shipping and currency: XSD-valid, and the VAT breakdown adds up to the cent', async function () {
    await fc.assert(
      fc.asyncProperty(
        fc.array(line, { minLength: 1, maxLength: 8 }),
        fc.constantFrom('EUR', 'JPY', 'KWD', 'USD'),
        fc.option(fc.integer({ min: 1, max: 50 }), { nil: undefined }),
        fc.option(fc.integer({ min: 1, max: 10_000 }), { nil: undefined }),
        async (lines, currency, discount, shipping) => {
          const items: Item[] = lines.map((l, i) => ({
            name: `Line ${i + 1}`,
            quantity: l.quantity,
            unit_cost: l.cents / 100,
            tax: l.rate === 'E' ? 0 : l.rate,
            ...(l.rate === 'E' ? { tax_category: 'E' } : {}),
          }));
          const doc = request({
            currency,
            items,
            fields: { tax: '%', discounts: discount === undefined ? false : '%', shipping: shipping !== undefined },
            discounts: discount,
            shipping,
          });
          const { xml, root } = ubl(doc);
          expect(await xsd.validator.validate(xml, root)).to.deep.equal([]);
          checkArithmetic(xml, currency);
        },
      ),
      { seed: 29, numRuns: 80 },
    );
  });
});
