// A line's amount (money/lines.ts, EN 16931 BG-25 … BG-28): gross = quantity × unit_cost ÷ price_base_quantity rounded
// to the currency, each allowance and charge rounded on its own (a percent one of the gross), the line amount (BT-131)
// = gross − allowances + charges; exact decimals, JPY without decimals, negative lines, seven figures.
import { expect } from 'chai';
import { DomainError } from '../../../server/errors';
import { computeTotals, type TotalsInput } from '../../../server/money/totals';

const FIELDS = { tax: '%' as const, discounts: false, shipping: false };
const totals = (items: TotalsInput['items'], currency = 'EUR') => computeTotals({ currency, items, fields: FIELDS });
const plain = (t: ReturnType<typeof totals>) =>
  t.lines.map((l) => ({
    gross: l.gross.toFixed(),
    amount: l.amount.toFixed(),
    adjustments: l.adjustments.map((a) => [
      a.charge ? '+' : '-',
      a.amount.toFixed(),
      a.percent?.toFixed(),
      a.base?.toFixed(),
      a.reason ?? a.reasonCode,
    ]),
  }));

describe('line amounts with allowances, charges and a price base quantity', function () {
  it('divides by the price base quantity before rounding once: 250 × 12.50 per 100 = 31.25; 7 × 0.333 per 10 = 0.23', function () {
    const t = totals([
      { quantity: 250, unit_cost: 12.5, price_base_quantity: 100 },
      { quantity: 7, unit_cost: '0.333', price_base_quantity: 10 },
      { quantity: 3, unit_cost: '19.99' },
    ]);
    expect(t.lines.map((l) => l.amount.toFixed())).to.deep.equal(['31.25', '0.23', '59.97']);
    expect(t.lines.map((l) => l.baseQuantity?.toFixed())).to.deep.equal(['100', '10', undefined]);
    expect(t.subtotal.toFixed()).to.equal('91.45');
  });

  it('rounds each adjustment on its own, a percent one of the gross; allowances first, then charges, each as sent', function () {
    const t = totals([
      {
        quantity: 3,
        unit_cost: '19.99',
        charges: [{ amount: '2.005', reason: 'Packing' }],
        allowances: [
          { percent: 10, reason: 'Early bird' },
          { amount: 1, reason_code: '95' },
        ],
      },
    ]);
    // 59.97 − 6.00 (5.997) − 1.00 + 2.01 (2.005) = 54.98
    expect(plain(t)).to.deep.equal([
      {
        gross: '59.97',
        amount: '54.98',
        adjustments: [
          ['-', '6', '10', '59.97', 'Early bird'],
          ['-', '1', undefined, undefined, '95'],
          ['+', '2.01', undefined, undefined, 'Packing'],
        ],
      },
    ]);
    expect(t.subtotal.toFixed()).to.equal('54.98');
  });

  it('JPY: no decimals, 3 × 333.5 = 1,001 less 5 % (50.05 → 50) = 951', function () {
    const t = totals([{ quantity: 3, unit_cost: 333.5, allowances: [{ percent: 5, reason: 'Volume' }] }], 'JPY');
    expect(plain(t)[0]).to.deep.include({ gross: '1001', amount: '951' });
  });

  it('negative lines: a 10 % allowance on a credit of 100 leaves a credit of 90; an allowance over the line makes it negative', function () {
    const t = totals([
      { quantity: 2, unit_cost: -50, allowances: [{ percent: 10, reason: 'Discount' }] },
      { quantity: 1, unit_cost: 100, allowances: [{ amount: 150, reason: 'Goodwill' }] },
    ]);
    expect(t.lines.map((l) => [l.gross.toFixed(), l.adjustments[0]!.amount.toFixed(), l.amount.toFixed()])).to.deep.equal([
      ['-100', '-10', '-90'],
      ['100', '150', '-50'],
    ]);
    expect(t.subtotal.toFixed()).to.equal('-140');
  });

  it('seven figures exactly: 1,234,567 × 1.23 = 1,518,517.41 less 2.5 % (37,962.93525 → 37,962.94) plus 0.5 %', function () {
    const t = totals([
      {
        quantity: 1234567,
        unit_cost: '1.23',
        allowances: [{ percent: '2.5', reason: 'Contract' }],
        charges: [{ percent: '0.5', reason: 'Insurance' }],
      },
    ]);
    // 0.5 % of 1,518,517.41 = 7,592.58705 → 7,592.59
    expect(plain(t)[0]!.amount).to.equal('1488147.06');
  });

  it('a packing slip carries no money: no adjustment is computed', function () {
    const t = computeTotals({
      type: 'packing_slip',
      currency: 'EUR',
      items: [{ quantity: 2, unit_cost: 5, allowances: [{ amount: 1, reason: 'x' }] }],
      fields: FIELDS,
    });
    expect([t.lines[0]!.amount.toFixed(), t.lines[0]!.adjustments.length]).to.deep.equal(['0', 0]);
  });

  it('refuses an adjustment that sends both an amount and a percent, naming it', function () {
    try {
      totals([
        {
          quantity: 1,
          unit_cost: 10,
          allowances: [
            { amount: 1, reason: 'a' },
            { amount: 1, percent: 5, reason: 'b' },
          ],
        },
      ]);
      expect.fail('no error');
    } catch (err) {
      expect(err).to.be.instanceOf(DomainError);
      expect((err as DomainError).facts.details).to.deep.equal([
        { field: 'items[0].allowances[1]', message: 'items[0].allowances[1] needs an amount or a percent, not both' },
      ]);
    }
  });
});
