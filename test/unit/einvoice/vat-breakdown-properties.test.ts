// The VAT breakdown of an e-invoice (einvoice/vat-categories.ts from money/'s totals) on generated documents
// (fast-check, fixed seed): any mix of standard rates (sub-percent ones too), zero-rated and exempt lines of every
// exemption category, prices up to seven figures, quantities with decimals, credit lines, a percent or flat discount
// and shipping, in currencies of 0, 2 and 3 decimals. Whatever the mix: one subtotal per category and rate, the
// subtotals add up to the tax and to the total without tax (BR-CO-14, BR-CO-13), each category's taxable amount is its
// lines less its allowances plus its charges (BR-S-08 and its kin), each standard-rated tax is that amount times the
// rate rounded once, half away from zero (worked out here with decimal.js apart from money/), and every category that
// charges no VAT says why (BR-E-10, BR-AE-10, …) but Z. The worked examples are vat-categories.test.ts's.
import { expect } from 'chai';
import Decimal from 'decimal.js';
import fc from 'fast-check';
import type { DocumentRequest } from '../../../server/documents/model';
import { invoiceVat } from '../../../server/einvoice/vat-categories';
import { computeTotals } from '../../../server/money/totals';
import { documentRequest } from '../../helpers/money';

const LABELS = { discount: 'Discount', shipping: 'Shipping' };
const DIGITS: Record<string, number> = { EUR: 2, JPY: 0, KWD: 3, BHD: 3, CHF: 2 };
const ZERO_CATEGORIES = ['E', 'Z', 'AE', 'K', 'G', 'O'] as const;

type Item = DocumentRequest['items'][number];

const line = fc.record({
  quantity: fc
    .integer({ min: -2_000, max: 50_000 })
    .filter((n) => n !== 0)
    .map((n) => n / 100),
  cents: fc.integer({ min: 1, max: 999_999_999 }),
  rate: fc.constantFrom<number | (typeof ZERO_CATEGORIES)[number]>(25, 21, 19, 8.875, 7, 5.5, 2.1, 0.375, ...ZERO_CATEGORIES),
});

const documentArb = fc.record({
  lines: fc.array(line, { minLength: 1, maxLength: 10 }),
  currency: fc.constantFrom('EUR', 'JPY', 'KWD', 'BHD', 'CHF'),
  discount: fc.option(
    fc.oneof(fc.record({ percent: fc.integer({ min: 1, max: 60 }) }), fc.record({ flat: fc.integer({ min: 1, max: 500 }) })),
    {
      nil: undefined,
    },
  ),
  shipping: fc.option(
    fc.integer({ min: 1, max: 100_000 }).map((c) => c / 100),
    { nil: undefined },
  ),
});

type Generated = typeof documentArb extends fc.Arbitrary<infer T> ? T : never;

function requestOf(g: Generated): DocumentRequest {
  const items: Item[] = g.lines.map((l, i) => ({
    name: `Line ${i + 1}`,
    quantity: l.quantity,
    unit_cost: l.cents / 100,
    ...(typeof l.rate === 'number' ? { tax: l.rate } : { tax: 0, tax_category: l.rate }),
  }));
  return documentRequest({
    from: 'Acme NV\nVAT: BE0123456749',
    currency: g.currency,
    items,
    fields: {
      tax: '%',
      discounts: g.discount === undefined ? false : 'percent' in g.discount ? '%' : true,
      shipping: g.shipping !== undefined,
    },
    tax: 21,
    discounts: g.discount && ('percent' in g.discount ? g.discount.percent : g.discount.flat),
    shipping: g.shipping,
    // E has no default reason (BR-E-10): the client gives one; AE, K, G and O have theirs.
    e_invoice: { tax_exemption_reason_code: 'VATEX-EU-132' },
  });
}

describe('e-invoice VAT breakdown, on generated documents', function () {
  it('adds up, per category and rate, for any mix of rates, exemptions, credits, discount, shipping and currency', function () {
    let refused = 0;
    let checked = 0;
    fc.assert(
      fc.property(documentArb, (g) => {
        const doc = requestOf(g);
        const totals = computeTotals(doc);
        let vat: ReturnType<typeof invoiceVat>;
        try {
          vat = invoiceVat(doc, totals, true, LABELS);
        } catch (err) {
          // A flat discount larger than what it discounts, and the like: refused with a named field, never a crash.
          expect((err as { code?: string }).code, String(err)).to.equal('validation_failed');
          refused++;
          return;
        }
        checked++;
        const digits = DIGITS[g.currency]!;
        const keys = vat.breakdown.map((b) => `${b.category.code} ${b.category.rate?.toFixed() ?? '-'}`);
        expect(new Set(keys).size, 'one subtotal per category and rate').to.equal(keys.length);
        const total = (values: Decimal.Value[]) => values.reduce<Decimal>((s, v) => s.add(v), new Decimal(0));
        expect(total(vat.breakdown.map((b) => b.tax.toFixed())).eq(totals.tax.amount.toFixed()), 'BR-CO-14').to.equal(true);
        expect(total(vat.breakdown.map((b) => b.taxable.toFixed())).eq(totals.taxExclusive.toFixed()), 'BR-CO-13').to.equal(true);
        for (const b of vat.breakdown) {
          const mine = (c: { code: string; rate?: { toFixed(): string } }) =>
            c.code === b.category.code && c.rate?.toFixed() === b.category.rate?.toFixed();
          const lines = total(vat.lines.flatMap((c, i) => (mine(c) ? [totals.lines[i]!.amount.toFixed()] : [])));
          const adjusted = vat.adjustments
            .filter((a) => mine(a.vat))
            .reduce((s, a) => (a.charge ? s.add(a.amount.toFixed()) : s.sub(a.amount.toFixed())), lines);
          expect(adjusted.eq(b.taxable.toFixed()), `taxable of ${b.category.code} ${b.category.rate?.toFixed()}`).to.equal(true);
          if (b.category.code === 'S') {
            const expected = new Decimal(b.taxable.toFixed())
              .mul(b.category.rate!.toFixed())
              .div(100)
              .toDecimalPlaces(digits, Decimal.ROUND_HALF_UP);
            expect(b.tax.toFixed(digits), `S ${b.category.rate!.toFixed()} % of ${b.taxable.toFixed()}`).to.equal(expected.toFixed(digits));
          } else {
            expect(b.tax.isZero(), `no VAT in ${b.category.code}`).to.equal(true);
            const why = b.exemptionReason ?? b.exemptionReasonCode;
            if (b.category.code === 'Z') expect(why).to.equal(undefined);
            else expect(why, `why ${b.category.code} charges no VAT`).to.be.a('string');
          }
        }
      }),
      { seed: 29, numRuns: 600 },
    );
    expect(checked, `${refused} refused`).to.be.above(550);
  });
});
