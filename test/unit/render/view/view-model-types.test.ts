// The document view per type (render/view/view-model.ts, docs/decisions.md §2): statements with running balances, timesheets
// with or without rates, packing slips without money, and which figure each type puts in its summary. Built from real
// requests with the real schemas and label catalogues (invoices: view-model.test.ts).
import { expect } from 'chai';
import { type Assets } from '../../../../server/assets';
import { validateDocument } from '../../../../server/documents/validate';
import { computeTotals } from '../../../../server/money/totals';
import { negotiateLocale } from '../../../../server/render/labels/locale';
import { languagePreferences } from '../../../../server/http/accept-language';
import { buildView, type DocumentView } from '../../../../server/render/view/view-model';
import { projectAssets } from '../../../helpers/project-assets';

describe('document view: columns and totals per type', function () {
  let assets: Assets;
  before(function () {
    assets = projectAssets();
  });
  function view(body: Record<string, unknown>, acceptLanguage?: string): DocumentView {
    const doc = validateDocument(assets.schemas, { from: 'Acme Corp', to: 'Client', date: '2024-03-31', ...body });
    const locale = negotiateLocale(languagePreferences(acceptLanguage), assets.catalogues.defaultTags);
    return buildView(doc, computeTotals(doc), { catalogues: assets.catalogues, locale, timeZone: 'UTC' });
  }
  const columns = (v: DocumentView) => v.columns.map((c) => `${c.key}:${c.label}`);
  const cells = (v: DocumentView) => v.rows.map((r) => r.map((c) => c.text));
  const totals = (v: DocumentView) => v.totals.map((t) => [t.label, t.value, t.strong ?? null]);

  it('statement: dated rows with charges, payments and the running balance from the opening balance', function () {
    const v = view({
      type: 'statement',
      amount_paid: 1000000,
      payment_terms: '2024-03-01',
      due_date: '2024-03-31',
      items: [
        { date: '2024-03-01', reference: 'INV-1', description: 'Invoice 1', unit_cost: 250000.5 },
        { date: '2024-03-05', description: 'Wire transfer', payment: 1200000 },
        { reference: 'CN-2', description: 'Credit note', unit_cost: -0.5 },
      ],
    });
    expect(columns(v)).to.deep.equal([
      'date:Date',
      'reference:Reference',
      'item:Description',
      'charges:Charges',
      'payments:Payments',
      'balance:Balance',
    ]);
    expect(cells(v)).to.deep.equal([
      ['Mar 1, 2024', 'INV-1', 'Invoice 1', '$250,000.50', '', '$1,250,000.50'],
      ['Mar 5, 2024', '', 'Wire transfer', '', '$1,200,000.00', '$50,000.50'],
      ['', 'CN-2', 'Credit note', '-$0.50', '', '$50,000.00'],
    ]);
    expect(totals(v)).to.deep.equal([
      ['Opening Balance', '$1,000,000.00', null],
      ['Total Charges', '$250,000.00', null],
      ['Total Payments', '$1,200,000.00', null],
      ['Balance', '$50,000.00', true],
    ]);
    expect(v.summary).to.deep.equal({ label: 'Balance', value: '$50,000.00', oneLineLabel: true });
    // The period is printed as dates on a statement.
    expect(v.details).to.deep.equal([
      { label: 'Date', value: 'Mar 31, 2024', nowrap: true, oneLineLabel: true },
      { label: 'Period Start', value: 'Mar 1, 2024', nowrap: true, oneLineLabel: true },
      { label: 'Period End', value: 'Mar 31, 2024', nowrap: true, oneLineLabel: true },
    ]);
  });

  it('statement: no opening balance or payments lines when there are none, adjustments after the charges', function () {
    const v = view({
      type: 'statement',
      items: [{ description: 'Service', unit_cost: 100 }],
      fields: { tax: '%', discounts: false, shipping: false },
      tax: 10,
    });
    expect(totals(v)).to.deep.equal([
      ['Total Charges', '$100.00', null],
      ['Tax (10%)', '$10.00', null],
      ['Balance', '$110.00', true],
    ]);
  });

  it('timesheet without rates: hours only, their total the strong line and the summary', function () {
    const v = view({
      type: 'timesheet',
      payment_terms: '2024-03-01',
      items: [
        { date: '2024-03-01', name: 'Design review', quantity: 7.5 },
        { date: '2024-03-02', name: 'Build', quantity: 0.25 },
      ],
    });
    expect(columns(v)).to.deep.equal(['date:Date', 'item:Description', 'quantity:Hours']);
    expect(cells(v)).to.deep.equal([
      ['Mar 1, 2024', 'Design review', '7.5'],
      ['Mar 2, 2024', 'Build', '0.25'],
    ]);
    expect(totals(v)).to.deep.equal([['Total Hours', '7.75', true]]);
    expect(v.summary).to.deep.equal({ label: 'Total Hours', value: '7.75', oneLineLabel: true });
    expect(v.details[1]).to.deep.equal({ label: 'Period Start', value: 'Mar 1, 2024', nowrap: true, oneLineLabel: true });
  });

  it("an estimate's Valid Until sent as an ISO date prints as a date; other text as sent, free to wrap", function () {
    const items = [{ name: 'Work', quantity: 1, unit_cost: 10 }];
    // Before: "2026-12-31" printed as sent under the date "Nov 2, 2026" (and beside a Buddhist-era date in Thai).
    expect(view({ type: 'estimate', payment_terms: '2026-12-31', items }).details[1]).to.deep.equal({
      label: 'Valid Until',
      value: 'Dec 31, 2026',
      nowrap: true,
      oneLineLabel: true,
    });
    expect(view({ type: 'estimate', payment_terms: '30 days from issue', items }).details[1]).to.deep.equal({
      label: 'Valid Until',
      value: '30 days from issue',
      nowrap: undefined,
      oneLineLabel: true,
    });
    // A statement's period start that is not a date is text too, free to wrap.
    expect(view({ type: 'statement', payment_terms: 'the first of March', items }).details[1]).to.deep.equal({
      label: 'Period Start',
      value: 'the first of March',
      nowrap: undefined,
      oneLineLabel: true,
    });
    // Quotes keep their payment terms as text, whatever they look like.
    expect(view({ type: 'quote', payment_terms: '2026-12-31', items }).details[1]).to.deep.equal({
      label: 'Payment Terms',
      value: '2026-12-31',
      nowrap: undefined,
      oneLineLabel: true,
    });
  });

  it('timesheet with rates: the money columns and the total come back', function () {
    const v = view({ type: 'timesheet', items: [{ name: 'Consulting', quantity: 7.5, unit_cost: 180 }], fields: { tax: '%' }, tax: 20 });
    expect(columns(v)).to.deep.equal(['date:Date', 'item:Description', 'quantity:Hours', 'rate:Rate', 'amount:Amount']);
    expect(totals(v)).to.deep.equal([
      ['Total Hours', '7.5', false],
      ['Tax (20%)', '$270.00', null],
      ['Total', '$1,620.00', true],
    ]);
    expect(v.summary).to.deep.equal({ label: 'Total', value: '$1,620.00', oneLineLabel: true });
  });

  it('packing slip: item, description and quantity, the total quantity, no money and no summary', function () {
    const v = view({
      type: 'packing_slip',
      items: [
        { name: 'SKU-1', description: 'Boxes', quantity: 1200 },
        { name: 'SKU-2', quantity: 0.5 },
      ],
    });
    expect(columns(v)).to.deep.equal(['item:Item', 'description:Description', 'quantity:Quantity']);
    expect(cells(v)).to.deep.equal([
      ['SKU-1', 'Boxes', '1,200'],
      ['SKU-2', '', '0.5'],
    ]);
    expect(totals(v)).to.deep.equal([['Total Quantity', '1,200.5', true]]);
    expect(v.summary).to.equal(undefined);
    expect(view({ type: 'packing_slip', items: [{ name: 'a', quantity: 3 }] }, 'de').totals[0]!.value).to.equal('3');
  });

  it('summaries: the balance on invoices and credit notes, the amount received on receipts, the total elsewhere', function () {
    const items = [{ name: 'a', unit_cost: 100 }];
    expect(view({ type: 'credit_note', items, amount_refunded: 40 }).summary).to.deep.equal({
      label: 'Balance',
      value: '$60.00',
      oneLineLabel: true,
    });
    const receipt = view({ type: 'receipt', items, amount_paid: 100 });
    expect(receipt.summary).to.deep.equal({ label: 'Amount Received', value: '$100.00', oneLineLabel: true });
    expect(receipt.to.title).to.equal('Received From');
    expect(totals(receipt)).to.deep.equal([
      ['Total', '$100.00', false],
      ['Amount Received', '$100.00', null],
      ['Balance', '$0.00', true],
    ]);
    expect(view({ type: 'quote', items }).summary).to.deep.equal({ label: 'Total', value: '$100.00', oneLineLabel: true });
    expect(view({ type: 'purchase_order', items, number: '7' }).title).to.equal('Purchase Order 7');
  });

  it('uses the localized per-type labels', function () {
    const v = view({ type: 'timesheet', items: [{ name: 'Arbeit', quantity: 8 }] }, 'de');
    const en = view({ type: 'timesheet', items: [{ name: 'Work', quantity: 8 }] });
    expect(v.header).to.not.equal(en.header);
    expect(v.columns.map((c) => c.label)).to.deep.equal(
      ['date_header', 'item_header', 'quantity_header'].map((key) => assets.catalogues.label('de', 'timesheet', key)),
    );
    expect(view({ type: 'credit_note', items: [{ name: 'a' }] }, 'fr').header).to.equal(
      assets.catalogues.label('fr', 'credit_note', 'header'),
    );
  });
});
