// Several taxes (money/taxes.ts): four cases with their totals worked out by hand (GST + PST with a PST-exempt line,
// CGST + SGST, a compound tax, a flat tax beside a rate with discount and shipping), the discount shared across the
// lines' tax sets, sub-cent rates, JPY, and what is refused, naming the field.
import { expect } from 'chai';
import type { TotalsInput } from '../../../server/money/totals';
import { PERCENT_TAX as FIELDS, refusalOf, totalsIn } from '../../helpers/money';

const totals = (input: Partial<TotalsInput>) => totalsIn('CAD', input);
/** Each tax as [title, rate, base, amount], then [tax, total]. */
const taxLines = (t: ReturnType<typeof totals>) =>
  t.taxes!.lines.map((l) => [l.title, l.rate?.toFixed(), l.base.toFixed(), l.amount.toFixed()]);
const sums = (t: ReturnType<typeof totals>) => [t.tax.amount.toFixed(), t.total.toFixed()];

const refusal = (input: Partial<TotalsInput>) => refusalOf(() => totals(input));

describe('several taxes', function () {
  it('Canada: GST 5 % on every line, PST 7 % on all but an exempt book: 6.25 + 7.00, total 138.23', function () {
    const t = totals({
      taxes: [
        { title: 'GST', rate: 5 },
        { title: 'PST', rate: 7 },
      ],
      items: [
        { quantity: 2, unit_cost: '49.99' },
        { quantity: 1, unit_cost: 25, taxes: ['GST'] },
      ],
    });
    expect(taxLines(t)).to.deep.equal([
      ['GST', '5', '124.98', '6.25'], // 6.249
      ['PST', '7', '99.98', '7'], // 6.9986
    ]);
    expect(sums(t)).to.deep.equal(['13.25', '138.23']);
    expect(t.taxes!.lines.map((l) => l.lines)).to.deep.equal([[0, 1], [0]]);
    expect(t.taxes!.notVat).to.equal('line 1 is subject to 2 taxes');
  });

  it('Canada with a discount: shared across the tax sets in proportion (8.00 and 2.00), each base reduced by its share', function () {
    const t = totals({
      taxes: [
        { title: 'GST', rate: 5 },
        { title: 'PST', rate: 7 },
      ],
      items: [
        { quantity: 2, unit_cost: '49.99' },
        { quantity: 1, unit_cost: 25, taxes: ['GST'] },
      ],
      fields: { ...FIELDS, discounts: true },
      discounts: 10,
    });
    // 10 × 99.98 / 124.98 = 7.99968 → 8.00; 2.00 to the book. GST 114.98 × 5 % = 5.749; PST 91.98 × 7 % = 6.4386.
    expect(taxLines(t)).to.deep.equal([
      ['GST', '5', '114.98', '5.75'],
      ['PST', '7', '91.98', '6.44'],
    ]);
    expect(sums(t)).to.deep.equal(['12.19', '127.17']);
  });

  it('India: CGST 9 % + SGST 9 % on 4,602.50 INR: 414.23 each, total 5,430.96', function () {
    const t = totals({
      currency: 'INR',
      taxes: [
        { title: 'CGST', rate: 9 },
        { title: 'SGST', rate: '9' },
      ],
      items: [
        { quantity: 3, unit_cost: '1234.50' },
        { quantity: 1, unit_cost: 899 },
      ],
    });
    expect(taxLines(t)).to.deep.equal([
      ['CGST', '9', '4602.5', '414.23'], // 414.225
      ['SGST', '9', '4602.5', '414.23'],
    ]);
    expect(sums(t)).to.deep.equal(['828.46', '5430.96']);
  });

  it('compound: Quebec 2012, QST 9.5 % on the price plus GST: 139.98 + 7.00 + 13.96 = 160.94', function () {
    const t = totals({
      taxes: [
        { title: 'GST', rate: 5 },
        { title: 'QST', rate: '9.5', compound: true },
      ],
      items: [
        { quantity: 1, unit_cost: 100 },
        { quantity: 2, unit_cost: '19.99' },
      ],
    });
    // GST 6.999 → 7.00; QST (139.98 + 7.00) × 9.5 % = 13.9631 → 13.96
    expect(taxLines(t)).to.deep.equal([
      ['GST', '5', '139.98', '7'],
      ['QST', '9.5', '146.98', '13.96'],
    ]);
    expect(sums(t)).to.deep.equal(['20.96', '160.94']);
  });

  it('compound on some lines: the earlier tax counts with the share of the lines the compound one taxes', function () {
    const both = totals({
      taxes: [
        { title: 'GST', rate: 5 },
        { title: 'QST', rate: '9.5', compound: true },
      ],
      items: [
        { quantity: 1, unit_cost: 100 },
        { quantity: 1, unit_cost: 50, taxes: ['GST'] },
      ],
    });
    // GST 150 × 5 % = 7.50, of which 5.00 on the first line; QST (100 + 5.00) × 9.5 % = 9.975 → 9.98
    expect(taxLines(both)).to.deep.equal([
      ['GST', '5', '150', '7.5'],
      ['QST', '9.5', '105', '9.98'],
    ]);
    const exemptFromGst = totals({
      taxes: [
        { title: 'GST', rate: 5 },
        { title: 'QST', rate: '9.5', compound: true },
      ],
      items: [
        { quantity: 1, unit_cost: 100 },
        { quantity: 1, unit_cost: 50, taxes: ['QST'] },
      ],
    });
    // QST (100 + 5.00 + 50) × 9.5 % = 14.725 → 14.73
    expect(taxLines(exemptFromGst)[1]).to.deep.equal(['QST', '9.5', '155', '14.73']);
    expect(sums(exemptFromGst)).to.deep.equal(['19.73', '169.73']);
  });

  it('a flat tax beside a rate, with a percent discount and shipping (untaxed): 78.27', function () {
    const t = totals({
      currency: 'EUR',
      taxes: [
        { title: 'VAT', rate: 20 },
        { title: 'Eco fee', amount: '2.50' },
      ],
      items: [
        { quantity: 2, unit_cost: '24.99' },
        { quantity: 1, unit_cost: '15.55' },
      ],
      fields: { tax: '%', discounts: '%', shipping: true },
      discounts: 10,
      shipping: '4.99',
    });
    // 65.53 − 6.55 (6.553) = 58.98; VAT 11.796 → 11.80; + 2.50 + 4.99 shipping
    expect(taxLines(t)).to.deep.equal([
      ['VAT', '20', '58.98', '11.8'],
      ['Eco fee', undefined, '58.98', '2.5'],
    ]);
    expect([t.taxBase.toFixed(), t.taxExclusive.toFixed(), ...sums(t)]).to.deep.equal(['58.98', '63.97', '14.3', '78.27']);
    expect(t.taxes!.notVat).to.equal('"Eco fee" is a flat amount, not a rate');
  });

  it('sub-cent rates and JPY: 8.875 % and 0.375 % on 1,234,567.89 USD; 10 % and 8 % in yen', function () {
    const usd = totals({
      currency: 'USD',
      taxes: [
        { title: 'Sales tax', rate: '8.875' },
        { title: 'MCTD', rate: '0.375' },
      ],
      items: [{ quantity: 1, unit_cost: '1234567.89' }],
    });
    // 109,567.9002375 → 109,567.90; 4,629.6295875 → 4,629.63
    expect(sums(usd)).to.deep.equal(['114197.53', '1348765.42']);
    const jpy = totals({
      currency: 'JPY',
      taxes: [
        { title: '消費税 10%', rate: 10 },
        { title: '軽減税率 8%', rate: 8 },
      ],
      items: [
        { quantity: 3, unit_cost: 1100, taxes: ['消費税 10%'] },
        { quantity: 1, unit_cost: 1980, taxes: ['軽減税率 8%'] },
      ],
    });
    // 330 and 158.4 → 158: one VAT rate per line
    expect(taxLines(jpy).map((l) => l[3])).to.deep.equal(['330', '158']);
    expect(jpy.taxes!.notVat).to.equal(undefined);
    expect(jpy.vat.groups.map((g) => [g.rate!.toFixed(), g.lines, g.taxable.toFixed(), g.tax.toFixed()])).to.deep.equal([
      ['10', [0], '3300', '330'],
      ['8', [1], '1980', '158'],
    ]);
  });

  it('refuses tax beside taxes, duplicate titles, a rate with an amount, compound on a flat amount and unknown titles', function () {
    const items = [
      { quantity: 1, unit_cost: 10, taxes: ['GST', 'HST'] },
      { quantity: 1, unit_cost: 10, tax: 5 },
    ];
    const problems = refusal({
      tax: 5,
      taxes: [
        { title: 'GST', rate: 5 },
        { title: 'GST ', rate: 7 },
        { title: 'Levy', rate: 1, amount: 2 },
        { title: 'Fee', amount: 1, compound: true },
      ],
      items,
    });
    expect(problems.map((p) => p.field)).to.deep.equal([
      'tax',
      'items[1].tax',
      'taxes[1].title',
      'taxes[2]',
      'taxes[3].compound',
      'items[0].taxes[1]',
    ]);
    expect(problems[0]!.message).to.equal('tax and taxes cannot both be sent: put every tax in taxes');
    expect(problems[5]!.message).to.equal('items[0].taxes[1] "HST" is not the title of a tax in taxes');
    expect(refusal({ items: [{ quantity: 1, unit_cost: 1, taxes: ['GST'] }] })).to.deep.equal([
      { field: 'items[0].taxes', message: 'items[0].taxes names taxes, but the document sends no taxes' },
    ]);
  });
});
