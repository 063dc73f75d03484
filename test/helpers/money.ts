// Shared shapes of the money tests: totals of a partial input (no lines, a percent tax, no discount nor shipping
// switched on, unless the test says otherwise), and the field problems of an input the money refuses.
import { expect } from 'chai';
import type { DocumentRequest } from '../../server/documents/model';
import { DomainError } from '../../server/errors';
import { computeTotals, type TotalsInput } from '../../server/money/totals';

export const PERCENT_TAX = { tax: '%' as const, discounts: false, shipping: false };

/** The totals of `input` over an empty document in `currency`. */
export function totalsIn(currency: string, input: Partial<TotalsInput>): ReturnType<typeof computeTotals> {
  return computeTotals({ currency, items: [], fields: PERCENT_TAX, ...input });
}

/** The problems of the 400 that `compute` throws (fails when it throws nothing or something else). */
export function refusalOf(compute: () => unknown): { field: string; message: string }[] {
  try {
    compute();
  } catch (err) {
    expect(err).to.be.instanceOf(DomainError);
    return (err as DomainError).facts.details!;
  }
  return expect.fail('no error') as never;
}

/** A validated document request with its defaults: an invoice from Acme NV to Client BV, one line of 100 EUR. */
export function documentRequest(fields: Partial<DocumentRequest>): DocumentRequest {
  return {
    type: 'invoice',
    theme: 'classic',
    page_size: 'a4',
    prices_include_tax: false,
    from: 'Acme NV',
    to: 'Client BV',
    currency: 'EUR',
    custom_fields: [],
    items: [{ name: 'Consulting', quantity: 1, unit_cost: 100 }],
    fields: PERCENT_TAX,
    payment_methods: [],
    preceding_invoices: [],
    labels: {},
    ...fields,
  };
}
