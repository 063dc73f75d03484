// Document level allowances and charges (money/document-adjustments.ts with vat.ts), the VAT total in the VAT
// accounting currency (BT-111) and the rounding of the amount due (BT-114), in the totals: exact to the minor unit.
import { expect } from 'chai';
import type { TotalsInput } from '../../../server/money/totals';
import { PERCENT_TAX as FIELDS, refusalOf, totalsIn } from '../../helpers/money';

const totals = (input: Partial<TotalsInput>) => totalsIn('EUR', input);
const fixed = (...xs: { toFixed(): string }[]) => xs.map((x) => x.toFixed());

const refusal = (input: Partial<TotalsInput>) => refusalOf(() => totals(input));

describe('document allowances and charges, tax currency and rounding', function () {
  it('a percent allowance of the line total and a charge change the taxed amount: 300 − 15 + 7.50 at 21 % = 353.93', function () {
    const t = totals({
      tax: 21,
      items: [{ quantity: 2, unit_cost: 150 }],
      e_invoice: { allowances: [{ percent: 5, reason: 'Loyalty' }], charges: [{ amount: '7.5', reason_code: 'ABL' }] },
    });
    // 292.50 × 21 % = 61.425 → 61.43
    expect(fixed(t.subtotal, t.allowances, t.charges, t.taxBase, t.tax.amount, t.taxExclusive, t.total)).to.deep.equal([
      '300',
      '15',
      '7.5',
      '292.5',
      '61.43',
      '292.5',
      '353.93',
    ]);
    expect(
      t.documentAdjustments.map((a) => [a.charge, a.amount.toFixed(), a.percent?.toFixed(), a.base?.toFixed(), a.field]),
    ).to.deep.equal([
      [false, '15', '5', '300', 'e_invoice.allowances[0]'],
      [true, '7.5', undefined, undefined, 'e_invoice.charges[0]'],
    ]);
    expect(t.vat.perLine).to.equal(false);
    expect(fixed(t.vat.groups[0]!.taxable)).to.deep.equal(['292.5']);
  });

  it('a percent of its own base_amount: 3 % of 99.99 = 3.00 (2.9997); with a discount and a sub-cent rate', function () {
    const t = totals({
      tax: '8.875',
      fields: { ...FIELDS, discounts: true },
      discounts: 10,
      items: [{ quantity: 1, unit_cost: 200 }],
      e_invoice: { charges: [{ percent: 3, base_amount: '99.99', reason: 'Handling' }] },
    });
    // 200 − 10 + 3 = 193; × 8.875 % = 17.12875 → 17.13
    expect(fixed(t.documentAdjustments[0]!.amount, t.taxBase, t.tax.amount, t.total)).to.deep.equal(['3', '193', '17.13', '210.13']);
  });

  it('an allowance with its own category joins its VAT group; a zero-rated charge makes a group of its own', function () {
    const t = totals({
      tax: 19,
      items: [
        { quantity: 1, unit_cost: 100 },
        { quantity: 1, unit_cost: 200, tax: 7 },
      ],
      e_invoice: {
        allowances: [
          { amount: 10, reason: 'Voucher', tax_category: 'S', tax_rate: 7 },
          { percent: 10, reason: 'Loyalty' },
        ],
        charges: [{ amount: 25, reason: 'Deposit', tax_category: 'Z' }],
      },
    });
    // The 10 % (30.00) shared by line amount: 10.00 to 19 %, 20.00 to 7 %.
    expect(t.vat.groups.map((g) => [g.category, g.rate!.toFixed(), g.taxable.toFixed(), g.tax.toFixed()])).to.deep.equal([
      ['S', '19', '90', '17.1'],
      ['S', '7', '170', '11.9'],
      ['Z', '0', '25', '0'],
    ]);
    expect(fixed(t.taxBase, t.tax.amount, t.total)).to.deep.equal(['285', '29', '314']);
  });

  it('JPY and seven figures: allowance 2.5 % of ¥12,345,678 = ¥308,642 (308,641.95)', function () {
    const t = totals({
      currency: 'JPY',
      tax: 10,
      items: [{ quantity: 1, unit_cost: 12345678 }],
      e_invoice: { allowances: [{ percent: 2.5, reason: 'Volume' }] },
    });
    // 12,037,036 × 10 % = 1,203,703.6 → 1,203,704
    expect(fixed(t.allowances, t.tax.amount, t.total)).to.deep.equal(['308642', '1203704', '13240740']);
  });

  it('refuses an amount with a percent, a base without a percent, a rate without a category, S without a rate, E with one', function () {
    const problems = refusal({
      tax: 21,
      items: [{ quantity: 1, unit_cost: 100 }],
      e_invoice: {
        allowances: [
          { amount: 1, percent: 2, reason: 'a' },
          { amount: 1, base_amount: 100, reason: 'b' },
          { amount: 1, tax_rate: 21, reason: 'c' },
        ],
        charges: [
          { amount: 1, tax_category: 'S', reason: 'd' },
          { amount: 1, tax_category: 'E', tax_rate: 5, reason: 'e' },
        ],
      },
    });
    expect(problems.map((p) => p.field)).to.deep.equal([
      'e_invoice.allowances[0]',
      'e_invoice.allowances[1].base_amount',
      'e_invoice.allowances[2].tax_rate',
      'e_invoice.charges[0].tax_rate',
      'e_invoice.charges[1].tax_rate',
    ]);
    expect(problems[0]!.message).to.equal('e_invoice.allowances[0] needs an amount or a percent, not both');
  });

  it('reports every money problem of a request at once: lines, document adjustments, taxes, tax currency', function () {
    const problems = refusal({
      tax: 5,
      taxes: [{ title: 'GST', rate: 5 }],
      items: [{ quantity: 1, unit_cost: 10, allowances: [{ amount: 1, percent: 1, reason: 'a' }], taxes: ['HST'] }],
      e_invoice: { charges: [{ amount: 1, base_amount: 2, reason: 'b' }], tax_currency: { code: 'eur', exchange_rate: 1 } },
    });
    expect(problems.map((p) => p.field)).to.deep.equal([
      'items[0].allowances[0]',
      'e_invoice.charges[0].base_amount',
      'tax',
      'items[0].taxes[0]',
      'e_invoice.tax_currency.code',
    ]);
  });

  it('the VAT total in the tax currency, rounded to its minor units: 210.00 EUR × 7.4604 = 1,566.68 DKK, × 161.23 = 33,858 JPY', function () {
    const base = { tax: 21, items: [{ quantity: 1, unit_cost: 1000 }] };
    const dkk = totals({ ...base, e_invoice: { tax_currency: { code: 'DKK', exchange_rate: '7.4604' } } });
    expect(dkk.taxCurrency).to.deep.include({ code: 'DKK', minorUnits: 2 });
    expect(fixed(dkk.taxCurrency!.tax)).to.deep.equal(['1566.68']); // 1,566.684
    const jpy = totals({ ...base, e_invoice: { tax_currency: { code: 'jpy', exchange_rate: 161.23 } } });
    expect([jpy.taxCurrency!.code, jpy.taxCurrency!.tax.toFixed(), jpy.taxCurrency!.minorUnits]).to.deep.equal(['JPY', '33858', 0]);
    expect(refusal({ ...base, e_invoice: { tax_currency: { code: 'EUR', exchange_rate: 1 } } })).to.deep.equal([
      { field: 'e_invoice.tax_currency.code', message: "e_invoice.tax_currency.code must differ from the document's currency EUR" },
    ]);
  });

  it('rounding is added to the amount due, after what was paid: 99.98 − 50 + 0.02 = 50.00', function () {
    const t = totals({ items: [{ quantity: 2, unit_cost: '49.99' }], amount_paid: 50, e_invoice: { rounding_amount: '0.02' } });
    expect(fixed(t.total, t.rounding, t.balance)).to.deep.equal(['99.98', '0.02', '50']);
    expect(t.show.rounding).to.equal(true);
    expect(totals({ items: [{ quantity: 1, unit_cost: 1 }] }).show.rounding).to.equal(false);
  });
});
