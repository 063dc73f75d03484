// The VAT of an e-invoice (einvoice/vat-categories.ts), from the shared totals: EN 16931's arithmetic holds
// (BR-CO-14: the subtotals' tax adds up to the total; BR-S-08: each standard-rated taxable amount times its rate gives
// its tax), shipping is zero rated beside a standard-rated document, a flat tax becomes the rate that reproduces it,
// line rates give a breakdown per rate with the discount and shipping shared across them, and what an e-invoice
// cannot express is a 400 naming the field.
import { expect } from 'chai';
import type { DocumentRequest } from '../../../server/documents/model';
import { documentRequest } from '../../helpers/money';
import { DomainError } from '../../../server/errors';
import { computeTotals, roundMoney, type Totals } from '../../../server/money/totals';
import { invoiceVat, type InvoiceVat } from '../../../server/einvoice/vat-categories';

const LABELS = { discount: 'Discount', shipping: 'Shipping' };

const OFF = { tax: false, discounts: false, shipping: false } as const;

function doc(fields: Partial<DocumentRequest>): DocumentRequest {
  return documentRequest({ from: 'Acme NV\nVAT: BE0123456749', fields: OFF, ...fields });
}

/** The breakdown, after checking the sums EN 16931 holds every e-invoice to. */
function breakdown(d: DocumentRequest, anyVatId = true): { b: InvoiceVat; totals: Totals } {
  const totals = computeTotals(d);
  const b = invoiceVat(d, totals, anyVatId, LABELS);
  const tax = b.breakdown.reduce((sum, s) => sum.add(s.tax), totals.tax.amount.mul(0));
  const taxable = b.breakdown.reduce((sum, s) => sum.add(s.taxable), totals.tax.amount.mul(0));
  expect(tax.eq(totals.tax.amount), 'BR-CO-14: tax subtotals add up to the tax total').to.equal(true);
  expect(taxable.eq(totals.taxExclusive), 'taxable amounts add up to the total without tax').to.equal(true);
  for (const s of b.breakdown.filter((x) => x.category.code === 'S')) {
    expect(roundMoney(s.taxable.mul(s.category.rate!).div(100), totals.minorUnits).eq(s.tax), 'BR-S-08 / BR-CO-17').to.equal(true);
  }
  // BR-CO-13 with the adjustments: the lines, less the allowances, plus the charges, make the taxable total.
  const adjusted = b.adjustments.reduce((sum, a) => (a.charge ? sum.add(a.amount) : sum.sub(a.amount)), totals.subtotal);
  expect(adjusted.eq(totals.taxExclusive), 'lines − allowances + charges = total without tax').to.equal(true);
  return { b, totals };
}

const plain = (b: InvoiceVat) =>
  b.breakdown.map((s) => [s.category.code, s.category.rate?.toFixed() ?? '-', s.taxable.toFixed(), s.tax.toFixed()]);
/** The category of every line (document tax: one for all). */
const lineCategory = (b: InvoiceVat) => ({ ...b.breakdown.find((x) => x.category === b.lines[0])!, ...b.lines[0]! });

function refusal(d: DocumentRequest, anyVatId = true): { field: string; message: string } {
  try {
    invoiceVat(d, computeTotals(d), anyVatId, LABELS);
  } catch (err) {
    expect(err).to.be.instanceOf(DomainError);
    expect((err as DomainError).code).to.equal('validation_failed');
    return (err as DomainError).facts.details![0]!;
  }
  throw new Error('the breakdown was accepted');
}

describe('e-invoice VAT by category', function () {
  it('a seven-figure invoice at 21%: the lines standard rated, shipping zero rated beside them', function () {
    const { b } = breakdown(
      doc({
        items: [{ name: 'Licences', quantity: 3, unit_cost: 411522.63 }],
        fields: { tax: '%', discounts: false, shipping: true },
        tax: 21,
        shipping: 25,
      }),
    );
    expect(plain(b)).to.deep.equal([
      ['S', '21', '1234567.89', '259259.26'],
      ['Z', '0', '25', '0'],
    ]);
    expect(b.lines[0]!.code).to.equal('S');
    expect(b.adjustments.map((a) => [a.charge, a.vat.code, a.amount.toFixed()])).to.deep.equal([[true, 'Z', '25']]);
  });

  it('percent discount before a sub-percent rate (8.875%) and percent shipping: the discounted amount is taxed', function () {
    const { b } = breakdown(doc({ fields: { tax: '%', discounts: '%', shipping: '%' }, tax: 8.875, discounts: 10, shipping: 5 }));
    expect(plain(b)).to.deep.equal([
      ['S', '8.875', '90', '7.99'],
      ['Z', '0', '4.5', '0'],
    ]);
  });

  it('one standard-rated subtotal when there is no shipping, also with a flat discount', function () {
    const { b } = breakdown(doc({ fields: { tax: '%', discounts: true, shipping: false }, tax: 19, discounts: 12.5 }));
    expect(plain(b)).to.deep.equal([['S', '19', '87.5', '16.63']]);
  });

  it('turns a flat tax into the rate, with the fewest decimals, that reproduces it', function () {
    expect(plain(breakdown(doc({ items: [{ name: 'a', unit_cost: 99 }], fields: { ...OFF, tax: true }, tax: 7.92 })).b)).to.deep.equal([
      ['S', '8', '99', '7.92'],
    ]);
    // A cent of tax on a million: a rate of a millionth of a percent.
    expect(plain(breakdown(doc({ items: [{ name: 'a', unit_cost: 1000000 }], fields: { ...OFF, tax: true }, tax: 0.01 })).b)).to.deep.equal(
      [['S', '0.000001', '1000000', '0.01']],
    );
    // Sub-cent unit prices: 7 × 0.0013 = 0.0091, a taxable 0.01.
    expect(
      breakdown(
        doc({ items: [{ name: 'a', quantity: 7, unit_cost: 0.0013 }], fields: { ...OFF, tax: true }, tax: 0.01 }),
      ).b.lines[0]!.rate!.toFixed(),
    ).to.equal('100');
  });

  it('keeps the rate on credits: negative lines give a negative taxable amount and tax', function () {
    const { b } = breakdown(doc({ items: [{ name: 'Return', quantity: -2, unit_cost: 50 }], fields: { ...OFF, tax: '%' }, tax: 21 }));
    expect(plain(b)).to.deep.equal([['S', '21', '-100', '-21']]);
  });

  it('without tax: zero rated (Z) when a party has a VAT identifier, not subject (O) otherwise; shipping shares it', function () {
    const shipped = doc({ fields: { ...OFF, shipping: true }, shipping: 5 });
    expect(plain(breakdown(shipped, true).b)).to.deep.equal([['Z', '0', '105', '0']]);
    const { b } = breakdown(shipped, false);
    expect(plain(b)).to.deep.equal([['O', '-', '105', '0']]);
    expect(b.breakdown[0]).to.include({ exemptionReason: 'Not subject to VAT', exemptionReasonCode: 'VATEX-EU-O' });
    expect(b.adjustments[0]!.vat).to.equal(b.lines[0]);
    // A percent tax on zero quantities charges nothing: no S category for a tax of 0.
    expect(
      breakdown(doc({ items: [{ name: 'a', quantity: 0, unit_cost: 50 }], fields: { ...OFF, tax: '%' }, tax: 21 })).b.lines[0]!.code,
    ).to.equal('Z');
  });

  it('gives reverse charge, export and not-subject their default exemption, a client reason or code replacing it', function () {
    const category = (e: DocumentRequest['e_invoice']) => lineCategory(breakdown(doc({ e_invoice: e })).b);
    expect(category({ tax_category: 'AE' })).to.include({
      code: 'AE',
      exemptionReason: 'Reverse charge',
      exemptionReasonCode: 'VATEX-EU-AE',
    });
    expect(category({ tax_category: 'G' })).to.include({ exemptionReason: 'Export outside the EU', exemptionReasonCode: 'VATEX-EU-G' });
    const own = category({ tax_category: 'AE', tax_exemption_reason: 'Autoliquidation' });
    expect([own.exemptionReason, own.exemptionReasonCode]).to.deep.equal(['Autoliquidation', undefined]);
    const code = category({ tax_category: 'E', tax_exemption_reason_code: 'VATEX-EU-132' });
    expect([code.exemptionReason, code.exemptionReasonCode]).to.deep.equal([undefined, 'VATEX-EU-132']);
    expect(category({ tax_category: 'Z' })).to.not.have.property('exemptionReason');
  });

  it('refuses, naming the field, what an e-invoice cannot express', function () {
    expect(refusal(doc({ e_invoice: { tax_category: 'E' } })).field).to.equal('e_invoice.tax_exemption_reason');
    const s = refusal(doc({ e_invoice: { tax_category: 'S' } }));
    expect(s.field).to.equal('e_invoice.tax_category');
    expect(s.message).to.contain('needs a tax above 0');
    const z = refusal(doc({ fields: { ...OFF, tax: '%' }, tax: 20, e_invoice: { tax_category: 'Z' } }));
    expect(z).to.deep.equal({
      field: 'e_invoice.tax_category',
      message: 'e_invoice.tax_category Z charges no VAT, but the document has a tax of 20; use S or send tax 0',
    });
    // A flat tax on nothing (a full discount, or only shipping) has no rate.
    const flat = refusal(doc({ fields: { tax: true, discounts: true, shipping: true }, tax: 2, discounts: 100, shipping: 10 }));
    expect(flat.field).to.equal('tax');
  });

  it('line rates (19 % and 7 %): one breakdown per rate, the discount and the shipping shared across them and taxed', function () {
    const { b, totals } = breakdown(
      doc({
        items: [
          { name: 'Tools', quantity: 2, unit_cost: 119.99, tax: 19 },
          { name: 'Books', quantity: 3, unit_cost: 24.5 },
          { name: 'Cable', quantity: 1, unit_cost: 9.99, tax: 19 },
        ],
        fields: { tax: '%', discounts: '%', shipping: true },
        tax: 7,
        discounts: 5,
        shipping: 4.9,
      }),
    );
    // Lines 249.97 at 19 % and 73.50 at 7 %; 5 % discount 16.17 shared 12.50 / 3.67; shipping 4.90 shared 3.79 / 1.11.
    expect(plain(b)).to.deep.equal([
      ['S', '19', '241.26', '45.84'],
      ['S', '7', '70.94', '4.97'],
    ]);
    expect(b.lines.map((l) => l.rate!.toFixed())).to.deep.equal(['19', '7', '19']);
    expect(b.adjustments.map((a) => [a.charge, a.vat.rate!.toFixed(), a.amount.toFixed(), a.percent])).to.deep.equal([
      [false, '19', '12.5', undefined],
      [true, '19', '3.79', undefined],
      [false, '7', '3.67', undefined],
      [true, '7', '1.11', undefined],
    ]);
    expect(totals.tax.amount.toFixed()).to.equal('50.81');
    expect(totals.total.toFixed()).to.equal(totals.subtotal.sub(totals.discount.amount).add(4.9).add(50.81).toFixed());
  });

  it('line rates with an exempt line and a zero-rate line: 20 / 5.5 / 0 exempt, each with its category', function () {
    const { b } = breakdown(
      doc({
        items: [
          { name: 'Service', quantity: 1, unit_cost: 1000, tax: 20 },
          { name: 'Food', quantity: 10, unit_cost: 3.3, tax: 5.5 },
          { name: 'Training', quantity: 1, unit_cost: 500, tax: 0, tax_category: 'E' },
        ],
        fields: { tax: '%', discounts: false, shipping: false },
        tax: 20,
        e_invoice: { tax_exemption_reason: 'Exonération de TVA, article 261-4-4° du CGI' },
      }),
    );
    expect(plain(b)).to.deep.equal([
      ['S', '20', '1000', '200'],
      ['S', '5.5', '33', '1.82'],
      ['E', '0', '500', '0'],
    ]);
    expect(b.breakdown[2]).to.include({ exemptionReason: 'Exonération de TVA, article 261-4-4° du CGI' });
  });

  it('refuses a line rate beside a flat or switched-off document tax, and a category that contradicts its rate', function () {
    expect(() => computeTotals(doc({ items: [{ name: 'a', unit_cost: 10, tax: 19 }], fields: { ...OFF, tax: true }, tax: 2 }))).to.throw(
      /items\[0\]\.tax/,
    );
    const contradiction = refusal(
      doc({ items: [{ name: 'a', unit_cost: 10, tax: 19, tax_category: 'Z' }], fields: { ...OFF, tax: '%' }, tax: 19 }),
    );
    expect(contradiction.field).to.equal('items[0].tax_category');
    expect(contradiction.message).to.contain('charges no VAT, but the rate is 19 %');
  });
});
