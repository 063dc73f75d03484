// A parsed body to a DocumentRequest or one validation_failed naming every bad field (server/documents/validate.ts),
// on the project's real schemas: every broken field of a request named at once (any combination: fast-check), missing
// fields first, in words per kind of problem; the type read and its fields kept or refused; the bounds (list lengths
// before anything is validated, text lengths, at most 100 details); characters XML cannot carry; blank fields dropped
// and the defaults filled in.

import { expect } from 'chai';
import fc from 'fast-check';
import { loadConfig } from '../../../server/config';
import { type SchemaRegistry } from '../../../server/documents/schema-registry';
import { validateDocument } from '../../../server/documents/validate';
import { DomainError, type FieldProblem } from '../../../server/errors';
import { THEMES } from '../../helpers/themes';
import { projectAssets } from '../../helpers/project-assets';

const LIMITS = loadConfig({}).limits;
const VALID = { from: 'Acme NV', to: 'Client BV', items: [{ name: 'Consulting', quantity: 2, unit_cost: 150 }] };

/** One way to break a valid request, and the field the error must name for it. */
const BREAKS: { field: string; apply: (body: Record<string, unknown>) => void }[] = [
  { field: 'to', apply: (b) => (b.to = '') },
  { field: 'currency', apply: (b) => (b.currency = 'EURO') },
  { field: 'page_size', apply: (b) => (b.page_size = 'a5') },
  { field: 'theme', apply: (b) => (b.theme = 'neon') },
  { field: 'items[0].quantity', apply: (b) => ((b.items as Record<string, unknown>[])[0]!.quantity = 'two') },
  { field: 'from', apply: (b) => (b.from = 'x'.repeat(2001)) },
  { field: 'custom_fields[0].value', apply: (b) => (b.custom_fields = [{ name: 'Ref', value: 'A\u0007B' }]) },
  { field: 'e_invoice.payment_means.iban', apply: (b) => (b.e_invoice = { payment_means: { code: '30', iban: 'BE71096123456768' } }) },
  { field: 'discounts', apply: (b) => ((b.fields = { discounts: '%' }), (b.discounts = 120)) },
];

describe('document validation (validate.ts)', function () {
  let registry: SchemaRegistry;
  before(function () {
    registry = projectAssets(LIMITS).schemas;
  });

  function sentenceOf(body: unknown): string {
    try {
      validateDocument(registry, body as never);
    } catch (err) {
      return (err as DomainError).message;
    }
    throw new Error('the request was accepted');
  }

  function problems(body: unknown): FieldProblem[] {
    try {
      validateDocument(registry, body as never);
    } catch (err) {
      expect(err).to.be.instanceOf(DomainError);
      expect((err as DomainError).code).to.equal('validation_failed');
      return (err as DomainError).facts.details!;
    }
    throw new Error('the request was accepted');
  }
  const fieldsOf = (body: unknown) => problems(body).map((p) => p.field);
  const copy = (): Record<string, unknown> => structuredClone(VALID);

  it('a request with several bad fields: one error naming every one, missing fields first, each in words', function () {
    const body: Record<string, unknown> = {
      ...copy(),
      to: undefined,
      currency: 'EURO',
      theme: 'neon',
      e_invoice: { seller: { vat_id: '123' } },
    };
    (body.items as Record<string, unknown>[])[0]!.quantity = 'two';
    const found = problems(body);
    expect(found.map((p) => p.field)).to.deep.equal([
      'to',
      'theme',
      'currency',
      'items[0].quantity',
      'e_invoice.seller.vat_id',
      'e_invoice.seller.vat_id',
    ]);
    expect(found.map((p) => p.message)).to.deep.equal([
      'to is required',
      `theme must be one of ${THEMES.map((t) => `"${t}"`).join(', ')}`,
      'currency must be an ISO 4217 currency code such as USD, EUR or JPY',
      'items[0].quantity must be a number',
      'e_invoice.seller.vat_id must be a VAT identifier with its country prefix, e.g. BE0123456749',
      "e_invoice.seller.vat_id must start with its country's code (BE, DE, …; EL for Greece), EN 16931 BR-CO-09",
    ]);
  });

  it('any combination of broken fields: exactly those fields are named', function () {
    fc.assert(
      fc.property(fc.subarray(BREAKS, { minLength: 1 }), (breaks) => {
        const body = copy();
        for (const b of breaks) b.apply(body);
        expect(new Set(fieldsOf(body))).to.deep.equal(new Set(breaks.map((b) => b.field)));
      }),
      { seed: 29, numRuns: 150 },
    );
  });

  it('types: the type read trimmed and in any case; an unknown one named; fields the type does not take refused', function () {
    expect(validateDocument(registry, { ...copy(), type: ' Quote ' }).type).to.equal('quote');
    expect(problems({ ...copy(), type: 'bill' })).to.deep.equal([
      {
        field: 'type',
        message:
          'type must be one of invoice, receipt, credit_note, quote, estimate, proforma_invoice, purchase_order, sales_order, statement, timesheet, work_order, packing_slip',
      },
    ]);
    const slip = { type: 'packing_slip', from: 'A', to: 'B', items: [{ name: 'Box', quantity: 1 }], tax: 5, discounts: 3 };
    expect(problems(slip)).to.deep.equal([
      { field: 'tax', message: 'tax is not accepted for type packing_slip' },
      { field: 'discounts', message: 'discounts is not accepted for type packing_slip' },
    ]);
  });

  it('bounds: a list over its bound refused alone, whatever its entries hold; text past its length; at most 100 details', function () {
    const many = (n: number, item: unknown) => Array.from({ length: n }, () => item);
    expect(problems({ ...copy(), items: many(LIMITS.maxItems + 1, 'not even an object') })).to.deep.equal([
      { field: 'items', message: `items must have at most ${LIMITS.maxItems} line items (it has ${LIMITS.maxItems + 1})` },
    ]);
    expect(validateDocument(registry, { ...copy(), items: many(LIMITS.maxItems, VALID.items[0]) }).items).to.have.length(LIMITS.maxItems);
    expect(problems({ ...copy(), from: 'x'.repeat(2001) })).to.deep.equal([
      { field: 'from', message: 'from must be at most 2000 characters' },
    ]);
    expect(validateDocument(registry, { ...copy(), from: 'x'.repeat(2000) }).from).to.have.length(2000);
    const bad = problems({ ...copy(), items: many(300, { name: 'x', quantity: 'a', unit_cost: 'b' }) });
    expect(bad).to.have.length(100);
    expect(bad[99]!.field).to.equal('items[49].unit_cost');
    // The sentence says how many more than it names: with the list full, a floor (there were 600 problems).
    expect(sentenceOf({ ...copy(), items: many(300, { name: 'x', quantity: 'a', unit_cost: 'b' }) })).to.match(
      /; and at least 97 more \(see details\)\.$/,
    );
    expect(sentenceOf({ ...copy(), items: many(3, { name: 'x', quantity: 'a', unit_cost: 'b' }) })).to.match(
      /; and 3 more \(see details\)\.$/,
    );
    expect(problems({ ...copy(), items: [] })).to.deep.equal([{ field: 'items', message: 'items must contain at least one line item' }]);
  });

  it('characters XML cannot carry are named in every text field, at any depth', function () {
    const body = {
      ...copy(),
      to: 'B\u0000',
      notes: 'ok\ttab\r\nline',
      items: [{ name: 'x\uFFFE', description: '\uD800', quantity: 1, unit_cost: 1 }],
    };
    expect(fieldsOf(body)).to.deep.equal(['to', 'items[0].name', 'items[0].description']);
    expect(problems(body)[0]!.message).to.match(/^to contains a control character/);
    expect(validateDocument(registry, { ...copy(), notes: 'tab\tand\r\nbreaks, 😀 whole' }).notes).to.equal('tab\tand\r\nbreaks, 😀 whole');
  });

  it('not an object: the body itself is named', function () {
    for (const body of [null, [VALID], 'invoice', 42]) expect(fieldsOf(body)).to.deep.equal(['(body)']);
  });

  it('the document: defaults filled in, blank optional fields dropped, blank labels kept, numbers from text', function () {
    const doc = validateDocument(registry, {
      ...copy(),
      number: '  ',
      notes: '\n',
      amount_paid: '12.50',
      payment_terms: '',
      subtotal_title: ' ',
    });
    expect(doc).to.include({ type: 'invoice', theme: 'classic', page_size: 'letter', currency: 'USD', amount_paid: 12.5 });
    expect(doc.fields).to.deep.equal({ tax: '%', discounts: false, shipping: false, line_numbers: false });
    expect(doc.number).to.equal(undefined);
    expect(doc.notes).to.equal(undefined);
    expect(doc.payment_terms).to.equal(undefined);
    expect(doc.labels).to.deep.equal({ subtotal_title: ' ' });
    expect([doc.custom_fields, doc.payment_methods, doc.preceding_invoices]).to.deep.equal([[], [], []]);
  });

  it('a zero number, as a JSON number or as text, is no number; other spellings of it are kept as sent', function () {
    for (const number of [0, '0', ' 0 ', -0]) {
      expect(validateDocument(registry, { ...copy(), number } as never).number, JSON.stringify(number)).to.equal(undefined);
    }
    for (const number of ['00', '0.0', 'INV-0', '10']) {
      expect(validateDocument(registry, { ...copy(), number } as never).number).to.equal(number);
    }
  });

  it('a number sent as a JSON number is refused when it is no longer the number sent; kept as text otherwise', function () {
    // 12345678901234567890 as JSON.parse reads it (its last digits lost: what the check is for).
    for (const number of [JSON.parse('12345678901234567890') as number, 1e21, -9007199254740992, 1.5e-7]) {
      const found = problems({ ...copy(), number });
      expect(
        found.map((p) => p.field),
        String(number),
      ).to.deep.equal(['number']);
      expect(found[0]!.message).to.match(/^number .* is not the number as sent: .*send the number as a string$/);
    }
    for (const [number, printed] of [
      [9007199254740991, '9007199254740991'],
      [42, '42'],
      [42.5, '42.5'],
      ['12345678901234567890', '12345678901234567890'],
      ['1e21', '1e21'],
    ] as const) {
      expect(validateDocument(registry, { ...copy(), number } as never).number, String(number)).to.equal(printed);
    }
  });
});
