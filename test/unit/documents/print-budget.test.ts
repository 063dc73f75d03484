// The print budget (documents/print-budget.ts): how many lines a document would print, and which fields a refusal names.
import { expect } from 'chai';
import { linesIn, printBudgetProblems } from '../../../server/documents/print-budget';

type Budgeted = Parameters<typeof printBudgetProblems>[0];

/** A document with a two-line sender and one short item, `over` replacing its fields. */
const doc = (over: Partial<Record<keyof Budgeted, unknown>> = {}): Budgeted =>
  ({ from: 'Acme\nMain Street 1', to: 'Client', custom_fields: [], items: [{ name: 'Widget' }], ...over }) as unknown as Budgeted;

describe('print budget', function () {
  it('lets a document within the limit print, counting wrapped lines and blank runs once', function () {
    expect(printBudgetProblems(doc({ notes: 'x'.repeat(100 * 50) }), 60)).to.deep.equal([]);
    expect(printBudgetProblems(doc({ notes: 'a\n\n\n\n\n\n\n\nb' }), 10)).to.deep.equal([]);
  });

  it('names only the fields that make it long, the longest first, with the limit, in good English', function () {
    const problems = printBudgetProblems(
      doc({ notes: 'x'.repeat(100 * 7000), terms: 'y'.repeat(100 * 1000), ship_to: 'z'.repeat(100 * 300) }),
      6000,
    );
    expect(problems.map((p) => p.field)).to.deep.equal(['notes', 'terms']);
    expect(problems[0]!.message).to.equal('notes prints about 7,000 lines; a whole document may print at most 6,000 (about 150 pages)');
    // Parts under a tenth of what it prints (ship_to's 300 lines, from, to, the item) are not named beside them.
    expect(printBudgetProblems(doc({ notes: 'x'.repeat(100 * 6001) }), 6000).map((p) => p.field)).to.deep.equal(['notes']);
    const single = printBudgetProblems(doc({ from: 'A', to: 'B', items: [] }), 1);
    expect(single[0]!.message).to.match(/^from prints about 1 line;/);
  });

  it("counts every text a line prints: its note, its small lines (attributes, identifiers), a statement's narrow reference", function () {
    const many = (item: Record<string, unknown>) => doc({ items: Array.from({ length: 120 }, () => ({ name: 'x', ...item })) });
    // 120 items of a 1,000-line note: the items as a whole say why; one item of a 7,000-line note says it itself.
    expect(printBudgetProblems(many({ note: 'a\n'.repeat(1000) }), 6000)[0]!.message).to.match(/^items prints about 120,\d{3} lines/);
    expect(printBudgetProblems(doc({ items: [{ name: 'x', note: 'a\n'.repeat(7000) }] }), 6000)[0]!.field).to.equal('items[0].note');
    const attributes = Array.from({ length: 50 }, (_, i) => ({ name: `Attribute ${i}`, value: 'v'.repeat(1900) }));
    expect(printBudgetProblems(doc({ items: [{ name: 'x', attributes }] }), 900)[0]!.field).to.equal('items[0].attributes');
    // A statement's reference wraps in a column a third as wide: 400 references of 2,000 characters are 26,800 lines.
    const statement = doc({
      items: Array.from({ length: 400 }, () => ({ name: 'Charge', date: '2026-10-01', reference: 'r'.repeat(2000) })),
    });
    expect(printBudgetProblems(statement, 6000)[0]!.message).to.match(/^items prints about 26,800 lines/);
    const one = doc({ items: [{ name: 'Charge', date: '2026-10-01', reference: 'r'.repeat(2000) }] });
    expect(printBudgetProblems(one, 60)[0]!.message).to.match(/^items\[0\]\.reference prints about 67 lines/);
    // A 1,000-line statement and a 1,000-line e-invoice of rich lines stay within it.
    const lines = (item: Record<string, unknown>) => doc({ items: Array.from({ length: 1000 }, () => item) });
    expect(printBudgetProblems(lines({ name: 'Charge 1', date: '2026-10-01', reference: 'INV-1' }), 6000)).to.deep.equal([]);
    const rich = {
      name: 'Espresso beans',
      description: 'Single origin, 1 kg bag\nroasted weekly',
      seller_item_id: 'A-1',
      classifications: [{ code: '12345', scheme: 'STI' }],
      attributes: [{ name: 'Colour', value: 'brown' }],
    };
    expect(printBudgetProblems(lines(rich), 6000)).to.deep.equal([]);
    // What a line never prints counts nothing: its id, its order and accounting references, its taxes' titles.
    const unprinted = {
      name: 'x',
      description: '1\n2\n3\n4',
      line_id: '1',
      order_line_reference: 'OL-1',
      accounting_reference: 'AC-1',
      taxes: [{ title: 'GST', rate: 5 }],
    };
    expect(printBudgetProblems(lines(unprinted), 6000)).to.deep.equal([]);
  });

  it('names the items as a whole when no one item says why', function () {
    const items = Array.from({ length: 400 }, () => ({ name: 'x', description: 'd\n'.repeat(21) }));
    expect(printBudgetProblems(doc({ items }), 6000).map((p) => p.field)).to.deep.equal(['items']);
  });

  it("names a long item's own field, and counts a received invoice's other parts by name", function () {
    const items = [{ name: 'Widget', description: 'd\n'.repeat(7000) }];
    expect(printBudgetProblems(doc({ items }), 6000).map((p) => p.field)).to.deep.equal(['items[0].description']);
    const received = printBudgetProblems(doc(), 6000, [
      ['the notes (BT-21, BT-22)', linesIn([{ label: 'AAI', value: 'n'.repeat(100 * 6500) }])],
    ]);
    expect(received.map((p) => p.field)).to.deep.equal(['the notes (BT-21, BT-22)']);
    expect(linesIn({ a: ['one', 'two\nlines'], b: 3, c: null })).to.equal(3);
  });
});
