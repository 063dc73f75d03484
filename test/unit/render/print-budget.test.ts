// The print budget (render/print-budget.ts): how many lines a document would print, and which fields a refusal names.
import { expect } from 'chai';
import { linesIn, printBudgetProblems } from '../../../server/render/print-budget';

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
    const problems = printBudgetProblems(doc({ notes: 'x'.repeat(100 * 7000), terms: 'y'.repeat(100 * 300) }), 6000);
    expect(problems.map((p) => p.field)).to.deep.equal(['notes', 'terms']);
    expect(problems[0]!.message).to.equal('notes prints about 7,000 lines; a whole document may print at most 6,000 (about 150 pages)');
    // The lines of from, to and the one item are a hundredth of nothing: not named beside the notes.
    expect(printBudgetProblems(doc({ notes: 'x'.repeat(100 * 6001) }), 6000).map((p) => p.field)).to.deep.equal(['notes']);
    const single = printBudgetProblems(doc({ from: 'A', to: 'B', items: [] }), 1);
    expect(single[0]!.message).to.match(/^from prints about 1 line;/);
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
