// The totals of a received e-invoice (render/received/stated-totals.ts): every amount the view reads is the one the invoice states
// (line net amounts, BT-106 … BT-115, the VAT breakdown), never recomputed, even one cent away from what totals.ts
// would compute; a line's amount before its allowances and charges is its net with them taken back out.
import { expect } from 'chai';
import type { EInvoice } from '../../../../server/einvoice/model';
import { statedTotals } from '../../../../server/render/received/stated-totals';
import { computeTotals, Decimal, type Totals } from '../../../../server/money/totals';
import { fullInvoice } from '../../../helpers/einvoice-full';
import { makeInvoice, vat } from '../../../helpers/einvoice-model';

const text = (d: Decimal | undefined): string | undefined => d?.toFixed();

/** Every field of Totals that render/view/view-model.ts and render/view/adjustment-lines.ts read for an invoice. */
function read(t: Totals) {
  return {
    currency: t.currency,
    minorUnits: t.minorUnits,
    lines: t.lines.map((l) => [l.quantity, l.unitCost, l.gross, l.amount].map(text)),
    lineAdjustments: t.lines.map((l) => l.adjustments.map((a) => `${a.charge ? '+' : '-'}${a.amount.toFixed()} ${a.reason}`)),
    subtotal: text(t.subtotal),
    discount: t.discount.shown,
    shipping: t.shipping.shown,
    documentAdjustments: t.documentAdjustments.map((a) => [a.charge, text(a.amount), text(a.percent), a.reason]),
    tax: [text(t.tax.amount), text(t.tax.rate), t.tax.shown],
    vat: [t.vat.perLine, t.vat.groups.map((g) => [g.category, text(g.rate), g.lines, text(g.taxable), text(g.tax)])],
    taxes: t.taxes,
    total: text(t.total),
    amountPaid: text(t.amountPaid),
    rounding: text(t.rounding),
    balance: text(t.balance),
    show: t.show,
  };
}

describe('stated totals of a received e-invoice (render/received/stated-totals.ts)', function () {
  it('reads every amount the view prints from the invoice: lines, allowances and charges, totals, VAT groups', function () {
    expect(read(statedTotals(fullInvoice()))).to.deep.equal({
      currency: 'EUR',
      minorUnits: 2,
      lines: [
        ['3', '49.9', '149.7', '149.7'],
        ['2', '40', '80', '80'],
      ],
      lineAdjustments: [['-10 Loyalty', '+10 Express'], []],
      subtotal: '229.7',
      discount: false,
      shipping: false,
      documentAdjustments: [
        [false, '14.97', '10', 'Discount'],
        [true, '5', undefined, 'Freight'],
      ],
      tax: ['26.55', undefined, true],
      vat: [
        true,
        [
          ['S', '19', [0], '139.73', '26.55'],
          ['E', '0', [1], '80', '0'],
        ],
      ],
      taxes: undefined,
      total: '246.28',
      amountPaid: '20',
      rounding: '0.01',
      balance: '226.29',
      show: { subtotal: true, amountPaid: true, payments: false, rounding: true },
    });
  });

  it("keeps a line's own net amount when it is a cent off quantity × price, and totals nobody recomputed", function () {
    const invoice = fullInvoice();
    const lines = invoice.lines.map((l, i) => (i === 1 ? { ...l, net: new Decimal('80.01') } : l));
    const totals = { ...invoice.totals, lineNet: new Decimal('229.71'), tax: new Decimal('26.56'), payable: new Decimal('226.31') };
    const t = statedTotals({ ...invoice, lines, totals });
    expect([t.lines[1]!.gross, t.lines[1]!.amount, t.subtotal, t.tax.amount, t.balance].map(text)).to.deep.equal([
      '80.01',
      '80.01',
      '229.71',
      '26.56',
      '226.31',
    ]);
  });

  it('a line with its allowance and charge: the amount before them is the net with them taken back out', function () {
    const invoice = fullInvoice();
    const first = invoice.lines[0]!;
    const adjustments = [
      { charge: false, amount: new Decimal('12.00'), reason: 'Early bird' },
      { charge: true, amount: new Decimal('2.50'), reason: 'Packing' },
    ];
    const t = statedTotals({ ...invoice, lines: [{ ...first, net: new Decimal('140.20'), allowancesCharges: adjustments }] });
    expect([t.lines[0]!.gross, t.lines[0]!.amount].map(text)).to.deep.equal(['149.7', '140.2']);
  });

  it('one VAT category: its rate on the tax line; none stated: the VAT total alone; O without a rate prints 0%', function () {
    const one = makeInvoice({ lines: [{ quantity: '2', price: '10', vat: vat('S', '21') }] });
    expect([statedTotals(one).tax.rate?.toFixed(), statedTotals(one).vat.perLine]).to.deep.equal(['21', true]);
    const none: EInvoice = { ...one, vatBreakdown: [] };
    expect([text(statedTotals(none).tax.amount), statedTotals(none).vat]).to.deep.equal(['4.2', { perLine: false, groups: [] }]);
    const outside = makeInvoice({ lines: [{ quantity: '1', price: '10', vat: vat('O') }] });
    expect(statedTotals(outside).vat.groups.map((g) => [g.category, text(g.rate), g.lines])).to.deep.equal([['O', '0', [0]]]);
  });

  it('agrees with totals.ts wherever the invoice is what our own arithmetic makes (the same view either way)', function () {
    const sent = {
      currency: 'EUR',
      items: [{ quantity: 3, unit_cost: 49.9 }],
      fields: { tax: '%' as const, discounts: false, shipping: false },
      tax: 19,
    };
    const ours = computeTotals(sent);
    const invoice = makeInvoice({ lines: [{ quantity: '3', price: '49.90', vat: vat('S', '19') }] });
    const stated = statedTotals(invoice);
    expect([stated.subtotal, stated.tax.amount, stated.total, stated.balance].map(text)).to.deep.equal(
      [ours.subtotal, ours.tax.amount, ours.total, ours.balance].map(text),
    );
  });
});
