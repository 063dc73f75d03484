// VAT by rate (money/vat.ts): shares to the minor unit that add up exactly, one group for a document tax (today's
// computation), a group per rate and category for line rates, each group's tax rounded once.
import { expect } from 'chai';
import { computeTotals } from '../../../server/money/totals';
import { Decimal } from '../../../server/money/decimal';
import { share } from '../../../server/money/vat';

const d = (v: number | string) => new Decimal(v);
const texts = (xs: Decimal[]) => xs.map((x) => x.toFixed());

describe('VAT by rate (unit)', () => {
  it('shares an amount in proportion, to the cent, the remainders going to the largest fractions', () => {
    expect(texts(share(d('16.17'), [d('249.97'), d('73.5')], 2))).to.deep.equal(['12.5', '3.67']);
    expect(texts(share(d('0.01'), [d(1), d(1), d(1)], 2))).to.deep.equal(['0.01', '0', '0']);
    expect(texts(share(d(100), [d(1), d(1), d(1)], 2))).to.deep.equal(['33.34', '33.33', '33.33']);
    expect(texts(share(d(100), [d(1), d(1), d(1)], 0))).to.deep.equal(['34', '33', '33']);
    // Weights of nothing (lines of zero): the first takes it all, so that shipping on free lines is not lost.
    expect(texts(share(d(5), [d(0), d(0)], 2))).to.deep.equal(['5', '0']);
    // Seven figures, three decimals (KWD): the parts add up exactly.
    const parts = share(d('1234567.891'), [d('1000000'), d('333333.333'), d('7')], 3);
    expect(parts.reduce((a, b) => a.add(b), d(0)).toFixed()).to.equal('1234567.891');
  });

  it('a document tax is one group: the same tax as before line rates, shipping outside it', () => {
    const t = computeTotals({
      currency: 'USD',
      items: [{ quantity: 3, unit_cost: 33.33 }],
      fields: { tax: '%', discounts: '%', shipping: true },
      tax: 8.875,
      discounts: 10,
      shipping: 5,
    });
    expect(t.vat.perLine).to.equal(false);
    expect(t.vat.groups).to.have.length(1);
    expect([t.vat.groups[0]!.taxable.toFixed(), t.vat.groups[0]!.tax.toFixed(), t.tax.amount.toFixed()]).to.deep.equal([
      '89.99',
      '7.99',
      '7.99',
    ]);
    expect(t.total.toFixed()).to.equal('102.98');
  });

  it('line rates: one group per rate; the tax is the sum of each group rounded once; the total holds', () => {
    const t = computeTotals({
      currency: 'EUR',
      items: [
        { quantity: 1, unit_cost: 0.05, tax: 19 },
        { quantity: 1, unit_cost: 0.05, tax: 19 },
        { quantity: 1, unit_cost: 0.05, tax: 7 },
      ],
      fields: { tax: '%', discounts: false, shipping: false },
      tax: 19,
    });
    expect(t.vat.perLine).to.equal(true);
    expect(t.vat.groups.map((g) => [g.rate!.toFixed(), g.lines, g.taxable.toFixed(), g.tax.toFixed()])).to.deep.equal([
      ['19', [0, 1], '0.1', '0.02'],
      ['7', [2], '0.05', '0'],
    ]);
    expect(t.tax.amount.toFixed()).to.equal('0.02');
    expect(t.tax.rate, 'several rates: no single rate').to.equal(undefined);
    expect(t.total.toFixed()).to.equal('0.17');
  });

  it('line rates that are all the same keep one rate (printed as one tax line, as before)', () => {
    const t = computeTotals({
      currency: 'EUR',
      items: [
        { quantity: 2, unit_cost: 10, tax: 19 },
        { quantity: 1, unit_cost: 5 },
      ],
      fields: { tax: '%', discounts: false, shipping: true },
      tax: 19,
      shipping: 10,
    });
    expect(t.tax.rate!.toFixed()).to.equal('19');
    // Shipping shares the lines' rate: (25 + 10) × 19 %.
    expect([t.tax.amount.toFixed(), t.total.toFixed()]).to.deep.equal(['6.65', '41.65']);
  });

  it('a line category beside a flat tax is refused; beside a switched-off tax, the other lines have 0 %', () => {
    expect(() =>
      computeTotals({
        currency: 'EUR',
        items: [{ quantity: 1, unit_cost: 200, tax_category: 'S' }],
        fields: { tax: true, discounts: false, shipping: false },
        tax: 15,
      }),
    ).to.throw(/items\[0\]\.tax_category/);
    const off = computeTotals({
      currency: 'EUR',
      items: [{ quantity: 1, unit_cost: 200, tax_category: 'E' }],
      fields: { tax: false, discounts: false, shipping: false },
      tax: 15,
    });
    expect([off.tax.amount.toFixed(), off.total.toFixed()]).to.deep.equal(['0', '200']);
  });
});
