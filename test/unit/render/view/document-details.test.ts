// What a reader of an EU invoice needs beside the number and the dates (render/view/document-details.ts), built from
// real requests with the real schemas and catalogues: the date of supply, the invoicing period, the VAT point date, the
// preceding invoices (a credit note's original invoice) and the payee, as labelled detail rows in the details block,
// dates formatted like the document's others, in the language asked.
import { expect } from 'chai';
import { type Assets } from '../../../../server/assets';
import { validateDocument } from '../../../../server/documents/validate';
import { computeTotals } from '../../../../server/money/totals';
import { negotiateLocale } from '../../../../server/render/labels/locale';
import { languagePreferences } from '../../../../server/http/accept-language';
import { buildView, type DocumentView } from '../../../../server/render/view/view-model';
import { projectAssets } from '../../../helpers/project-assets';

const NOW = new Date('2026-11-23T12:00:00Z');
/** French and German put a no-break space in some texts: compared here as plain spaces. */
const plain = (t: string) => t.replace(/[^\S\n]/g, ' ');

describe('document view: dates of supply, preceding invoices, payee', function () {
  let assets: Assets;
  before(function () {
    assets = projectAssets();
  });
  function view(body: Record<string, unknown>, acceptLanguage?: string): DocumentView {
    const doc = validateDocument(assets.schemas, { from: 'Acme GmbH', to: 'Client', items: [{ name: 'a', unit_cost: 1 }], ...body });
    const locale = negotiateLocale(languagePreferences(acceptLanguage), assets.catalogues.defaultTags);
    return buildView(doc, computeTotals(doc), { catalogues: assets.catalogues, locale, timeZone: 'UTC', now: NOW });
  }
  const details = (v: DocumentView) => v.details.map((d) => [plain(d.label), plain(d.value)]);

  const FULL = {
    number: 'RE-2026-0107',
    date: '2026-04-02',
    due_date: '2026-04-16',
    delivery_date: '2026-03-31',
    invoice_period: { start: '2026-03-01', end: '2026-03-31' },
    tax_point_date: '2026-03-30',
    purchase_order: 'PO-7',
    preceding_invoices: [{ number: 'RE-2026-0042', date: '2026-03-02' }, { number: 'RE-2026-0043' }],
    e_invoice: { payee: { name: 'Factoring Bank AG' } },
  };

  it('lists them in the details block, beside the date and the due date, in English', function () {
    expect(details(view(FULL))).to.deep.equal([
      ['Date', 'Apr 2, 2026'],
      ['Date of Supply', 'Mar 31, 2026'],
      ['Period', 'Mar 1, 2026 – Mar 31, 2026'],
      ['Tax Point Date', 'Mar 30, 2026'],
      ['Due Date', 'Apr 16, 2026'],
      ['Payee', 'Factoring Bank AG'],
      ['Purchase Order', 'PO-7'],
      ['Preceding Invoice', 'RE-2026-0042 of Mar 2, 2026\nRE-2026-0043'],
    ]);
    expect(view(FULL).details.map((d) => d.multiline ?? false)).to.deep.equal([false, false, false, false, false, false, false, true]);
  });

  it('in German and French, with their dates and words', function () {
    expect(details(view(FULL, 'de-DE'))).to.deep.equal([
      ['Datum', '02.04.2026'],
      ['Leistungsdatum', '31.03.2026'],
      ['Leistungszeitraum', '01.03.2026 – 31.03.2026'],
      ['Steuerfälligkeit', '30.03.2026'],
      ['Fällig am', '16.04.2026'],
      ['Zahlungsempfänger', 'Factoring Bank AG'],
      ['Bestellnummer', 'PO-7'],
      ['Vorherige Rechnung', 'RE-2026-0042 vom 02.03.2026\nRE-2026-0043'],
    ]);
    const fr = details(view(FULL, 'fr'));
    expect(fr.slice(1, 3)).to.deep.equal([
      ['Date de livraison', '31 mars 2026'],
      ['Période', '1 mars 2026 – 31 mars 2026'],
    ]);
    expect(fr[7]).to.deep.equal(['Facture antérieure', 'RE-2026-0042 du 2 mars 2026\nRE-2026-0043']);
  });

  it("names a credit note's preceding invoice as the one it corrects, right after the date", function () {
    const v = view({
      type: 'credit_note',
      delivery_date: '2026-03-31',
      purchase_order: 'PO-7',
      preceding_invoices: [{ number: 'RE-2026-0042', date: '2026-03-02' }],
    });
    expect(details(v)).to.deep.equal([
      ['Date', 'Nov 23, 2026'],
      ['Original Invoice', 'RE-2026-0042 of Mar 2, 2026'],
      ['Date of Supply', 'Mar 31, 2026'],
      ['Referenced Invoice', 'PO-7'],
    ]);
    expect(v.details[1]!.multiline).to.equal(false);
    expect(details(view({ type: 'credit_note', preceding_invoices: [{ number: 'R-1' }] }, 'es'))[1]).to.deep.equal([
      'Factura rectificada',
      'R-1',
    ]);
  });

  it('prints a period with one end as from / until, and dates that are not ISO as sent', function () {
    expect(details(view({ invoice_period: { start: '2026-03-01' } }))[1]).to.deep.equal(['Period', 'from Mar 1, 2026']);
    expect(details(view({ invoice_period: { end: '2026-03-31' } }, 'de'))[1]).to.deep.equal(['Leistungszeitraum', 'bis 31.03.2026']);
    expect(details(view({ delivery_date: 'March 2026' }))[1]).to.deep.equal(['Date of Supply', 'March 2026']);
  });

  it('adds nothing when the request has none of them', function () {
    expect(details(view({ date: '2026-04-02' }))).to.deep.equal([['Date', 'Apr 2, 2026']]);
  });

  it('keeps the titles a request sends for the labels it already could', function () {
    const v = view({ ...FULL, due_date_title: 'Pay by', purchase_order_title: 'Your order' });
    expect(details(v).map(([label]) => label)).to.include.members(['Pay by', 'Your order', 'Date of Supply']);
  });
});
