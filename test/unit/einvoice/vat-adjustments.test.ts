// The document allowances and charges and several taxes in the e-invoice's VAT (einvoice/vat-categories.ts): each
// allowance and charge with its reason and code in its category, its percent and base only when it lies whole in one
// category (Peppol R040); several taxes that are one VAT rate per line as VAT rates, shipping zero rated beside them;
// and the 400 on `taxes` when they are not. EN 16931's sums are checked on every breakdown.
import { expect } from 'chai';
import type { DocumentRequest } from '../../../server/documents/model';
import { documentRequest } from '../../helpers/money';
import { DomainError } from '../../../server/errors';
import { computeTotals, roundMoney } from '../../../server/money/totals';
import { invoiceVat, type InvoiceVat } from '../../../server/einvoice/vat-categories';

const LABELS = { discount: 'Discount', shipping: 'Shipping' };

function doc(fields: Partial<DocumentRequest>): DocumentRequest {
  return documentRequest(fields);
}

/** The VAT, after checking BR-CO-13/14 and BR-S-08 on it. */
function vatOf(d: DocumentRequest): InvoiceVat {
  const totals = computeTotals(d);
  const b = invoiceVat(d, totals, true, LABELS);
  const zero = totals.subtotal.mul(0);
  expect(b.breakdown.reduce((s, x) => s.add(x.tax), zero).eq(totals.tax.amount), 'BR-CO-14').to.equal(true);
  expect(b.breakdown.reduce((s, x) => s.add(x.taxable), zero).eq(totals.taxExclusive), 'taxable = tax exclusive').to.equal(true);
  const adjusted = b.adjustments.reduce((s, a) => (a.charge ? s.add(a.amount) : s.sub(a.amount)), totals.subtotal);
  expect(adjusted.eq(totals.taxExclusive), 'BR-CO-13').to.equal(true);
  for (const s of b.breakdown.filter((x) => x.category.code === 'S'))
    expect(roundMoney(s.taxable.mul(s.category.rate!).div(100), 2).eq(s.tax), 'BR-S-08').to.equal(true);
  return b;
}

const entries = (b: InvoiceVat) =>
  b.adjustments.map((a) => [
    a.charge ? 'charge' : 'allowance',
    a.amount.toFixed(),
    a.percent?.toFixed() ?? '-',
    a.base?.toFixed() ?? '-',
    a.reason ?? '-',
    a.reasonCode ?? '-',
    `${a.vat.code} ${a.vat.rate?.toFixed() ?? ''}`.trim(),
  ]);
const rows = (b: InvoiceVat) =>
  b.breakdown.map((x) => [`${x.category.code} ${x.category.rate?.toFixed() ?? ''}`.trim(), x.taxable.toFixed(), x.tax.toFixed()]);

describe('e-invoice VAT with document allowances and charges, and several taxes', function () {
  it('one VAT category: each allowance and charge whole, a percent one with its percent and base', function () {
    const b = vatOf(
      doc({
        tax: 21,
        items: [{ name: 'a', quantity: 2, unit_cost: 150 }],
        e_invoice: { allowances: [{ percent: 5, reason: 'Loyalty' }], charges: [{ percent: 2, base_amount: 50, reason_code: 'ABL' }] },
      }),
    );
    expect(entries(b)).to.deep.equal([
      ['allowance', '15', '5', '300', 'Loyalty', '-', 'S 21'],
      ['charge', '1', '2', '50', '-', 'ABL', 'S 21'],
    ]);
    expect(rows(b)).to.deep.equal([['S 21', '286', '60.06']]);
  });

  it('line rates: a shared allowance once per category, without a percent; one in its own category whole, with it', function () {
    const b = vatOf(
      doc({
        tax: 19,
        items: [
          { name: 'a', quantity: 1, unit_cost: 100 },
          { name: 'b', quantity: 1, unit_cost: 200, tax: 7 },
        ],
        e_invoice: {
          allowances: [
            { percent: 10, reason: 'Loyalty' },
            { percent: 50, base_amount: 20, reason: 'Voucher', tax_category: 'S', tax_rate: 7 },
          ],
          charges: [{ amount: 25, reason: 'Deposit', reason_code: 'ABK', tax_category: 'Z' }],
        },
      }),
    );
    expect(entries(b)).to.deep.equal([
      ['allowance', '10', '-', '-', 'Loyalty', '-', 'S 19'],
      ['allowance', '10', '50', '20', 'Voucher', '-', 'S 7'],
      ['allowance', '20', '-', '-', 'Loyalty', '-', 'S 7'],
      ['charge', '25', '-', '-', 'Deposit', 'ABK', 'Z 0'],
    ]);
    expect(rows(b)).to.deep.equal([
      ['S 19', '90', '17.1'],
      ['S 7', '170', '11.9'],
      ['Z 0', '25', '0'],
    ]);
  });

  it('several taxes as VAT rates: a breakdown per tax, the discount shared, shipping zero rated beside them', function () {
    const b = vatOf(
      doc({
        currency: 'GBP',
        fields: { tax: '%', discounts: true, shipping: true },
        discounts: 10,
        shipping: 4.99,
        taxes: [
          { title: 'VAT 20%', rate: 20 },
          { title: 'VAT 5%', rate: 5 },
        ],
        items: [
          { name: 'Lamp', quantity: 2, unit_cost: 49.99, taxes: ['VAT 20%'] },
          { name: 'Seat', quantity: 1, unit_cost: 30, taxes: ['VAT 5%'] },
        ],
      }),
    );
    expect(rows(b)).to.deep.equal([
      ['S 20', '92.29', '18.46'],
      ['S 5', '27.69', '1.38'],
      ['Z 0', '4.99', '0'],
    ]);
    expect(b.lines.map((c) => c.rate!.toFixed())).to.deep.equal(['20', '5']);
    expect(entries(b).map((e) => e.slice(0, 2).concat(e[6]!))).to.deep.equal([
      ['allowance', '7.69', 'S 20'],
      ['allowance', '2.31', 'S 5'],
      ['charge', '4.99', 'Z 0'],
    ]);
  });

  it('a tax of 0 among several is zero rated with VAT ids; taxes that are not one VAT rate per line are a 400 on taxes', function () {
    const zero = vatOf(
      doc({
        taxes: [
          { title: 'VAT', rate: 21 },
          { title: 'Export', rate: 0 },
        ],
        items: [
          { name: 'a', quantity: 1, unit_cost: 100, taxes: ['VAT'] },
          { name: 'b', quantity: 1, unit_cost: 50, taxes: ['Export'] },
        ],
      }),
    );
    expect(rows(zero)).to.deep.equal([
      ['S 21', '100', '21'],
      ['Z 0', '50', '0'],
    ]);
    const compound = doc({
      taxes: [
        { title: 'GST', rate: 5 },
        { title: 'QST', rate: 9.975, compound: true },
      ],
    });
    try {
      invoiceVat(compound, computeTotals(compound), true, LABELS);
      expect.fail('accepted');
    } catch (err) {
      expect(err).to.be.instanceOf(DomainError);
      expect((err as DomainError).facts.details).to.deep.equal([
        {
          field: 'taxes',
          message:
            'an e-invoice carries one VAT rate per line: "QST" is compound (charged on another tax); send taxes where each line is subject to exactly one tax with a rate, not compound',
        },
      ]);
    }
  });
});
