// The totals module on its own (docs/decisions.md §2): exact decimals, half away from zero, per-currency minor units.
import { expect } from 'chai';
import { minorUnits, isCurrencyCode } from '../../../server/documents/currency';
import { computeTotals, Decimal, rateReproducing, type TotalsInput } from '../../../server/money/totals';
import { Formatter } from '../../../server/render/labels/format';

const NO_ADJ = { tax: '%' as const, discounts: false, shipping: false };

function totals(partial: Partial<TotalsInput>) {
  return computeTotals({ currency: 'USD', items: [], fields: NO_ADJ, ...partial });
}
const s = (d: { toFixed(): string }) => d.toFixed();

describe('totals', function () {
  it('rounds amount_paid and amount_refunded to the currency like every amount', function () {
    expect(s(totals({ currency: 'EUR', items: [{ unit_cost: 100 }], amount_paid: '10.005' }).amountPaid)).to.equal('10.01');
    expect(s(totals({ currency: 'JPY', items: [{ unit_cost: 100 }], amount_paid: 0.5 }).amountPaid)).to.equal('1');
    const cn = totals({ type: 'credit_note', currency: 'KWD', items: [{ unit_cost: 1 }], amount_refunded: '0.0005' });
    expect(s(cn.amountPaid)).to.equal('0.001');
    expect(s(cn.balance)).to.equal('0.999');
  });

  it('1 × 99 with 8% tax: Subtotal 99.00, tax 7.92, total 106.92 (the reference example)', function () {
    const t = totals({ items: [{ quantity: 1, unit_cost: 99 }], tax: 8 });
    expect(s(t.subtotal)).to.equal('99');
    expect(s(t.tax.amount)).to.equal('7.92');
    expect(s(t.total)).to.equal('106.92');
    expect(t.tax.mode).to.equal('percent');
    expect(s(t.tax.rate!)).to.equal('8');
    expect(t.show.subtotal).to.equal(true);
  });

  it('percent tax and flat shipping on two lines (published example figures)', function () {
    const t = totals({
      items: [
        { quantity: 10, unit_cost: 99.99 },
        { quantity: 5, unit_cost: 199.99 },
      ],
      fields: { tax: '%', discounts: false, shipping: true },
      tax: 7,
      shipping: 15,
    });
    expect(t.lines.map((l) => s(l.amount))).to.deep.equal(['999.9', '999.95']);
    expect(s(t.subtotal)).to.equal('1999.85');
    expect(s(t.tax.amount)).to.equal('139.99'); // 139.9895
    expect(s(t.shipping.amount)).to.equal('15');
    expect(s(t.total)).to.equal('2154.84');
  });

  it('flat tax', function () {
    const t = totals({ items: [{ quantity: 2, unit_cost: 10 }], fields: { ...NO_ADJ, tax: true }, tax: 3.5 });
    expect(t.tax.mode).to.equal('flat');
    expect(s(t.total)).to.equal('23.5');
  });

  it('percent discount comes off before percent tax; shipping is not taxed', function () {
    const t = totals({
      items: [{ quantity: 1, unit_cost: 200 }],
      fields: { tax: '%', discounts: '%', shipping: true },
      discounts: 10,
      tax: 10,
      shipping: 7,
    });
    expect(s(t.discount.amount)).to.equal('20');
    expect(s(t.tax.amount)).to.equal('18');
    expect(s(t.total)).to.equal('205'); // 200 − 20 + 18 + 7
    // The bases every output shares (the e-invoices state them): after the discount, and without tax.
    expect(s(t.afterDiscount)).to.equal('180');
    expect(s(t.taxExclusive)).to.equal('187');
  });

  it('a flat tax as the VAT rate that reproduces it exactly, with as few decimals as possible', function () {
    expect(rateReproducing(new Decimal('7.92'), new Decimal('99'), 2)?.toFixed()).to.equal('8');
    expect(rateReproducing(new Decimal('10'), new Decimal('30'), 2)?.toFixed()).to.equal('33.33');
    expect(rateReproducing(new Decimal('1'), new Decimal('0'), 2)).to.equal(undefined);
  });

  it('flat discount and percent shipping', function () {
    const t = totals({
      items: [{ quantity: 4, unit_cost: 25 }],
      fields: { tax: false, discounts: true, shipping: '%' },
      discounts: 10,
      shipping: 5,
      tax: 99,
    });
    expect(s(t.discount.amount)).to.equal('10');
    expect(s(t.shipping.amount)).to.equal('4.5'); // 5% of 90
    expect(t.tax.shown).to.equal(false);
    expect(s(t.total)).to.equal('94.5');
  });

  it('rounds half away from zero at half cents, where binary floats would not', function () {
    // 3 × 0.335 = 1.005 exactly; in binary floats it is 1.00499999… and rounds down.
    expect(s(totals({ items: [{ quantity: 3, unit_cost: 0.335 }] }).total)).to.equal('1.01');
    expect(s(totals({ items: [{ quantity: 1, unit_cost: 0.125 }] }).total)).to.equal('0.13');
    expect(s(totals({ items: [{ quantity: -1, unit_cost: 0.125 }] }).total)).to.equal('-0.13');
    // 5% of 10.50 = 0.525 → 0.53
    expect(s(totals({ items: [{ quantity: 1, unit_cost: 10.5 }], tax: 5 }).tax.amount)).to.equal('0.53');
    expect(
      s(
        totals({
          items: [
            { quantity: 0.1, unit_cost: 0.2 },
            { quantity: 0.1, unit_cost: 0.1 },
          ],
        }).total,
      ),
    ).to.equal('0.03');
  });

  it('JPY has no decimals', function () {
    const t = totals({ currency: 'JPY', items: [{ quantity: 3, unit_cost: 333.5 }], tax: 8 });
    expect(t.minorUnits).to.equal(0);
    expect(s(t.subtotal)).to.equal('1001'); // 1000.5 → 1001
    expect(s(t.tax.amount)).to.equal('80'); // 80.08
    expect(s(t.total)).to.equal('1081');
    expect(new Formatter('en-US', 'JPY', 0).formatMoney(t.total)).to.equal('¥1,081');
  });

  it('KWD has three decimals', function () {
    const t = totals({ currency: 'KWD', items: [{ quantity: 1, unit_cost: 1.2345 }], tax: 10 });
    expect(t.minorUnits).to.equal(3);
    expect(s(t.subtotal)).to.equal('1.235');
    expect(s(t.tax.amount)).to.equal('0.124'); // 0.1235 → 0.124
    expect(s(t.total)).to.equal('1.359');
    expect(new Formatter('en-US', 'KWD', 3).formatMoney(t.total)).to.match(/KWD\s1\.359/);
  });

  it('uses ISO 4217 minor units where ICU differs (IQD 3, COP 2, IDR 2)', function () {
    expect(minorUnits('IQD')).to.equal(3);
    expect(minorUnits('cop')).to.equal(2);
    expect(minorUnits('IDR')).to.equal(2);
    expect(minorUnits('CLP')).to.equal(0);
    expect(isCurrencyCode('eur')).to.equal(true);
    expect(isCurrencyCode('XYZ')).to.equal(false);
  });

  it('negative lines (credits, returns) reduce the subtotal', function () {
    const t = totals({
      items: [
        { quantity: 2, unit_cost: 50 },
        { quantity: 1, unit_cost: -30 },
        { quantity: -1, unit_cost: 5 },
      ],
      tax: 10,
    });
    expect(s(t.subtotal)).to.equal('65');
    expect(s(t.tax.amount)).to.equal('6.5');
    expect(s(t.total)).to.equal('71.5');
  });

  it('a 1,000-line invoice adds up exactly', function () {
    const items = Array.from({ length: 1000 }, (_, i) => ({ quantity: 1 + (i % 3), unit_cost: 0.1 + (i % 7) / 100 }));
    const t = totals({ items, tax: 7.25 });
    // Reference sum in integer cents.
    let cents = 0;
    for (let i = 0; i < 1000; i++) cents += (1 + (i % 3)) * (10 + (i % 7));
    expect(s(t.subtotal)).to.equal((cents / 100).toFixed(2).replace(/\.?0+$/, ''));
    expect(t.lines).to.have.length(1000);
    expect(s(t.tax.amount)).to.equal(t.subtotal.mul('0.0725').toDecimalPlaces(2).toFixed());
  });

  it('amount paid gives the balance; a credit note uses amount_refunded', function () {
    const inv = totals({ items: [{ quantity: 1, unit_cost: 100 }], amount_paid: 40 });
    expect(s(inv.balance)).to.equal('60');
    expect(inv.show.amountPaid).to.equal(true);
    const cn = totals({ type: 'credit_note', items: [{ quantity: 1, unit_cost: 100 }], amount_paid: 99, amount_refunded: 100 });
    expect(s(cn.balance)).to.equal('0');
  });

  it('null or zero adjustments are not shown, and then neither is the subtotal', function () {
    const t = totals({
      items: [{ quantity: 1, unit_cost: 99 }],
      fields: { tax: '%', discounts: true, shipping: true },
      tax: 0,
      discounts: 0,
    });
    expect(t.tax.shown).to.equal(false);
    expect(t.discount.shown).to.equal(false);
    expect(t.shipping.shown).to.equal(false);
    expect(t.show.subtotal).to.equal(false);
    expect(t.show.amountPaid).to.equal(false);
    // A toggle set to false ignores the amount sent.
    const off = totals({
      items: [{ quantity: 1, unit_cost: 99 }],
      fields: { tax: false, discounts: false, shipping: false },
      tax: 10,
      discounts: 5,
      shipping: 3,
    });
    expect(s(off.total)).to.equal('99');
  });

  it('numeric strings are exact decimals', function () {
    const t = totals({ items: [{ quantity: '3', unit_cost: '0.335' }], tax: '8' });
    expect(s(t.subtotal)).to.equal('1.01');
    expect(s(t.tax.amount)).to.equal('0.08');
  });

  it('statement: running balance from the opening balance, charges minus payments', function () {
    const t = totals({
      type: 'statement',
      amount_paid: 100,
      items: [{ quantity: 1, unit_cost: 50 }, { payment: 120 }, { quantity: 2, unit_cost: 10 }],
    });
    expect(t.lines.map((l) => s(l.runningBalance))).to.deep.equal(['150', '30', '50']);
    expect(s(t.subtotal)).to.equal('70');
    expect(s(t.payments)).to.equal('120');
    expect(s(t.balance)).to.equal('50');
  });

  it('packing slip: no money, only quantities', function () {
    const t = totals({ type: 'packing_slip', items: [{ quantity: 2, unit_cost: 10 }, { quantity: 3 }] });
    expect(s(t.total)).to.equal('0');
    expect(s(t.totalQuantity)).to.equal('5');
  });
});
