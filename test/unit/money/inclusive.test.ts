// Prices that include tax (money/inclusive.ts): hand-computed cases (19 % and 7 % VAT with a discount and shipping, a
// 3-decimal currency, a 0.005 % rate on a seven-figure amount, a compound tax, 1,000 lines), the net form an e-invoice
// states (its amounts adding up exactly, its prices giving each line's amount back), properties over random documents,
// and the refusal of a tax that is not a rate.
import { expect } from 'chai';
import fc from 'fast-check';
import { Decimal, type Totals, type TotalsInput } from '../../../server/money/totals';
import { refusalOf, totalsIn } from '../../helpers/money';

const FIELDS = { tax: '%' as const, discounts: false as const, shipping: false as const };
const gross = (input: Partial<TotalsInput>, currency = 'EUR') => totalsIn(currency, { fields: FIELDS, prices_include_tax: true, ...input });
const sum = (values: Decimal[]) => values.reduce((a, b) => a.add(b), new Decimal(0));
/** [total, tax, net] as text. */
const head = (t: Totals) => [t.total.toFixed(), t.tax.amount.toFixed(), t.taxExclusive.toFixed()];
/** Each VAT group as [rate, taxable (net), tax]. */
const groups = (t: Totals) => t.vat.groups.map((g) => [g.rate!.toFixed(), g.taxable.toFixed(), g.tax.toFixed()]);

/** What every net form must hold: the e-invoice's arithmetic (BR-CO-10, -13, -15, BR-S-08 per group, Peppol R120). */
function expectConsistentNet(t: Totals): void {
  const n = t.net!;
  expect(n.total.eq(t.total), 'the same total').to.equal(true);
  expect(n.tax.amount.eq(t.tax.amount), 'the same tax').to.equal(true);
  expect(n.subtotal.eq(sum(n.lines.map((l) => l.amount))), 'BT-106 is the sum of the line nets').to.equal(true);
  expect(n.taxExclusive.add(n.tax.amount).eq(n.total), 'BT-109 + BT-110 = BT-112').to.equal(true);
  for (const g of n.vat.groups) {
    const adjusted = g.adjustments.reduce((v, a) => (a.charge ? v.add(a.amount) : v.sub(a.amount)), g.net.sub(g.discount).add(g.shipping));
    expect(adjusted.eq(g.taxable), `group ${g.rate}: its parts add up to its taxable amount`).to.equal(true);
    expect(g.net.eq(sum(g.lines.map((i) => n.lines[i]!.amount))), `group ${g.rate}: its lines`).to.equal(true);
    // BR-CO-17 allows a unit either way; the rule chosen keeps it within one cent.
    const recomputed = g.taxable.mul(g.rate!).div(100).toDecimalPlaces(t.minorUnits);
    expect(recomputed.sub(g.tax).abs().lte(new Decimal(10).pow(-t.minorUnits)), `group ${g.rate}: tax within a cent`).to.equal(true);
  }
  for (const l of n.lines) {
    const back = l.quantity
      .mul(l.unitCost)
      .div(l.baseQuantity ?? 1)
      .toDecimalPlaces(t.minorUnits);
    if (!l.quantity.isZero()) expect(back.eq(l.gross), `price ${l.unitCost} × ${l.quantity} gives ${l.gross} back`).to.equal(true);
  }
}

describe('prices that include tax (money/inclusive.ts)', function () {
  it('19 % and 7 % on one invoice with a 10 % discount and 5.95 shipping: 53.95, of which 6.89 + 0.71 tax', function () {
    const t = gross({
      fields: { tax: '%', discounts: '%', shipping: true },
      tax: 19,
      discounts: 10,
      shipping: 5.95,
      items: [
        { quantity: 3, unit_cost: 11.9 }, // 35.70 at 19 %
        { quantity: 1, unit_cost: 10.7, tax: 7 }, // 10.70 at 7 %
        { quantity: 7, unit_cost: 0.99 }, // 6.93 at 19 %
      ],
    });
    // Subtotal 53.33; discount 5.33 (4.26 + 1.07); shipping 5.95 (4.76 + 1.19); the total is the gross sum.
    expect([t.subtotal.toFixed(), t.discount.amount.toFixed(), t.shipping.amount.toFixed()]).to.deep.equal(['53.33', '5.33', '5.95']);
    expect(head(t)).to.deep.equal(['53.95', '7.6', '46.35']);
    // 19 %: 42.63 − 4.26 + 4.76 = 43.13 gross, 43.13 × 19 ÷ 119 = 6.886 → 6.89; 7 %: 10.82 × 7 ÷ 107 = 0.708 → 0.71.
    expect(groups(t)).to.deep.equal([
      ['19', '36.24', '6.89'],
      ['7', '10.11', '0.71'],
    ]);
    const n = t.net!;
    expect(n.lines.map((l) => [l.unitCost.toFixed(), l.amount.toFixed()])).to.deep.equal([
      ['10', '30'], // 35.70 × 36.24 / 43.13 = 29.997 → 30.00
      ['10', '10'],
      ['0.831', '5.82'],
    ]);
    expect([n.discount.amount.toFixed(), n.shipping.amount.toFixed(), n.discount.mode]).to.deep.equal(['4.58', '5.11', 'flat']);
    expectConsistentNet(t);
  });

  it('a document tax: one rate, shipping untaxed outside it (as without the option)', function () {
    const t = gross({
      fields: { tax: '%', discounts: false, shipping: true },
      tax: 20,
      shipping: 10,
      items: [{ quantity: 2, unit_cost: 60 }],
    });
    // 120 gross at 20 %: 20 tax, 100 net; shipping 10 adds no tax.
    expect(head(t)).to.deep.equal(['130', '20', '110']);
    expect(t.net!.shipping.amount.toFixed()).to.equal('10');
    expectConsistentNet(t);
  });

  it('KWD (3 decimals) at 5 %: 4.416 of which 0.210 tax', function () {
    const t = gross(
      {
        tax: 5,
        items: [
          { quantity: 3, unit_cost: 1.25 },
          { quantity: 2, unit_cost: 0.333 },
        ],
      },
      'KWD',
    );
    // 4.416 × 5 ÷ 105 = 0.21028… → 0.210
    expect(head(t)).to.deep.equal(['4.416', '0.21', '4.206']);
    expectConsistentNet(t);
  });

  it('a 0.005 % rate on 1,000,000.00: 50.00 tax included (49.9975 rounded)', function () {
    const t = gross({ tax: 0.005, items: [{ quantity: 1, unit_cost: 1000000 }] });
    expect(head(t)).to.deep.equal(['1000000', '50', '999950']);
    expectConsistentNet(t);
  });

  it('a compound tax: 113.40 with GST 5 % and PST 8 % on GST is 100.00 + 5.00 + 8.40', function () {
    const t = gross({
      taxes: [
        { title: 'GST', rate: 5 },
        { title: 'PST', rate: 8, compound: true },
      ],
      items: [{ quantity: 1, unit_cost: 113.4 }],
    });
    expect(t.taxes!.lines.map((l) => [l.title, l.base.toFixed(), l.amount.toFixed()])).to.deep.equal([
      ['GST', '100', '5'],
      ['PST', '105', '8.4'],
    ]);
    expect(head(t)).to.deep.equal(['113.4', '13.4', '100']);
    expect(t.net, 'a compound tax is no VAT rate: no net form').to.equal(undefined);
  });

  it('several taxes that are one VAT rate per line make a net form too', function () {
    const t = gross({
      taxes: [
        { title: 'VAT 19', rate: 19 },
        { title: 'VAT 7', rate: 7 },
      ],
      items: [
        { quantity: 1, unit_cost: 119, taxes: ['VAT 19'] },
        { quantity: 1, unit_cost: 10.7, taxes: ['VAT 7'] },
      ],
    });
    expect(head(t)).to.deep.equal(['129.7', '19.7', '110']);
    expectConsistentNet(t);
  });

  it('1,000 lines: the total is the sum of the gross lines to the cent, the net lines add up to the net', function () {
    const items = Array.from({ length: 1000 }, (_, i) => ({ quantity: (i % 3) + 1, unit_cost: (0.99 + 0.01 * i).toFixed(2) }));
    const t = gross({ tax: 19, items });
    const grossSum = sum(items.map((it) => new Decimal(it.unit_cost).mul(it.quantity)));
    expect(t.total.eq(grossSum)).to.equal(true);
    expect(t.tax.amount.eq(grossSum.mul(19).div(119).toDecimalPlaces(2))).to.equal(true);
    expectConsistentNet(t);
  });

  it('line allowances, a percent discount and a price discount become net amounts (no percentages)', function () {
    const t = gross({
      fields: { tax: '%', discounts: '%', shipping: false },
      tax: 19,
      discounts: 3,
      items: [
        { quantity: 4, unit_cost: 23.8, gross_price: 29.75, allowances: [{ percent: 10, reason: 'Loyalty' }] },
        { quantity: -1, unit_cost: 11.9 },
      ],
    });
    const n = t.net!;
    expect(n.lines[0]!.adjustments.map((a) => [a.amount.toFixed(), a.percent])).to.deep.equal([['8', undefined]]);
    expect(n.lines[0]!.priceDiscount!.toFixed()).to.equal('5');
    expect(n.lines[0]!.grossPrice!.toFixed()).to.equal('25');
    expectConsistentNet(t);
  });

  it('holds for random documents: rates, quantities, discounts, shipping, allowances and charges', function () {
    const item = fc.record({
      quantity: fc.integer({ min: -5, max: 400 }),
      unit_cost: fc.integer({ min: 0, max: 5_000_000 }).map((c) => (c / 100).toFixed(2)),
      tax: fc.constantFrom(undefined, 0, 5.5, 7, 19, 20, 0.005),
    });
    fc.assert(
      fc.property(
        fc.array(item, { minLength: 1, maxLength: 12 }),
        fc.integer({ min: 0, max: 50 }),
        fc.integer({ min: 0, max: 2000 }),
        fc.constantFrom('EUR', 'JPY', 'KWD'),
        (items, discount, shipping, currency) => {
          const lines = items.map((i) => (i.tax === undefined ? { quantity: i.quantity, unit_cost: i.unit_cost } : i));
          const t = gross(
            { fields: { tax: '%', discounts: '%', shipping: true }, tax: 19, discounts: discount, shipping, items: lines },
            currency,
          );
          const grossLines = sum(t.lines.map((l) => l.amount));
          expect(t.total.eq(grossLines.sub(t.discount.amount).add(t.shipping.amount))).to.equal(true);
          expectConsistentNet(t);
        },
      ),
      { numRuns: 300 },
    );
  });

  it('refuses a flat tax, naming prices_include_tax, and a flat tax of taxes, naming its amount', function () {
    expect(
      refusalOf(() => gross({ fields: { tax: true, discounts: false, shipping: false }, tax: 5, items: [{ quantity: 1, unit_cost: 10 }] })),
    ).to.deep.equal([
      {
        field: 'prices_include_tax',
        message: 'prices_include_tax needs the tax as a rate (fields.tax "%"): a flat tax amount cannot be taken out of the prices',
      },
    ]);
    const fields = refusalOf(() => gross({ taxes: [{ title: 'Levy', amount: 2 }], items: [{ quantity: 1, unit_cost: 10 }] })).map(
      (p) => p.field,
    );
    expect(fields).to.deep.equal(['taxes[0].amount']);
  });

  it('without the option nothing changes: the tax is added, no net form', function () {
    const t = totalsIn('EUR', { fields: FIELDS, tax: 19, items: [{ quantity: 1, unit_cost: 100 }] });
    expect(head(t)).to.deep.equal(['119', '19', '100']);
    expect([t.pricesIncludeTax, t.net]).to.deep.equal([false, undefined]);
  });
});
