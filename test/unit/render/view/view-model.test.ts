// The document as the templates see it (render/view/view-model.ts), built from real requests with the real schemas and
// label catalogues: amounts formatted for the locale, labels resolved (request title > per-type default > shared),
// total lines chosen ("null or zero is omitted"), parties and notes made printable. Invoices here; the other document
// types' columns and totals in view-model-types.test.ts.
import { expect } from 'chai';
import { type Assets } from '../../../../server/assets';
import { validateDocument } from '../../../../server/documents/validate';
import { computeTotals } from '../../../../server/money/totals';
import { negotiateLocale } from '../../../../server/render/labels/locale';
import { languagePreferences } from '../../../../server/http/accept-language';
import { buildView, CUSTOM_FIELDS_IN_DETAILS, type DocumentView } from '../../../../server/render/view/view-model';
import { projectAssets } from '../../../helpers/project-assets';

/** 23:30 UTC on 23 November: already the 24th in Tokyo. */
const NOW = new Date('2026-11-23T23:30:00Z');

describe('document view: invoices', function () {
  let assets: Assets;
  before(function () {
    assets = projectAssets();
  });
  function view(body: Record<string, unknown>, acceptLanguage?: string, logoDataUri?: string): DocumentView {
    const doc = validateDocument(assets.schemas, { from: 'Acme Corp', to: 'Client', ...body });
    const locale = negotiateLocale(languagePreferences(acceptLanguage), assets.catalogues.defaultTags);
    return buildView(doc, computeTotals(doc), { catalogues: assets.catalogues, locale, timeZone: 'Asia/Tokyo', now: NOW, logoDataUri });
  }
  const totals = (v: DocumentView) => v.totals.map((t) => [t.label, t.value, t.strong ?? null]);

  const BIG = [
    { name: 'Licences', description: 'Phase 1\nPhase 2', quantity: 3, unit_cost: 411522.63 },
    { name: 'API calls', quantity: 0, unit_cost: 0.0013 },
    { name: 'Return', quantity: -2, unit_cost: 50 },
  ];

  it('a seven-figure invoice with a percent discount, a sub-percent tax rate, shipping and a payment', function () {
    const v = view({
      number: '2024-0042',
      items: BIG,
      fields: { tax: '%', discounts: '%', shipping: true },
      tax: 8.875,
      discounts: 10,
      shipping: 25,
      amount_paid: 1000,
    });
    expect(v.rows.map((r) => r.map((c) => c.text))).to.deep.equal([
      ['Licences', '3', '$411,522.63', '$1,234,567.89'],
      ['API calls', '0', '$0.0013', '$0.00'],
      ['Return', '-2', '$50.00', '-$100.00'],
    ]);
    expect(v.rows[0]![0]!.sub).to.equal('Phase 1\nPhase 2');
    expect(totals(v)).to.deep.equal([
      ['Subtotal', '$1,234,467.89', null],
      ['Discounts (10%)', '-$123,446.79', null],
      ['Tax (8.875%)', '$98,603.12', null],
      ['Shipping', '$25.00', null],
      ['Total', '$1,209,649.22', false],
      ['Amount Paid', '$1,000.00', null],
      ['Balance', '$1,208,649.22', true],
    ]);
    expect(v.summary).to.deep.equal({ label: 'Balance', value: '$1,208,649.22', oneLineLabel: true });
    expect(v.title).to.equal('Invoice 2024-0042');
    expect(v.number).to.deep.equal({ label: '#', value: '2024-0042' });
  });

  it('several VAT rates: a rate column, then shipping and the tax of each rate on its base, in German', function () {
    const v = view(
      {
        items: [
          { name: 'Akkuschrauber', quantity: 2, unit_cost: 119.99, tax: 19 },
          { name: 'Fachbuch', quantity: 3, unit_cost: 24.5, tax: 7 },
        ],
        currency: 'EUR',
        fields: { tax: '%', discounts: false, shipping: true },
        tax: 19,
        shipping: 4.9,
      },
      'de-DE',
    );
    expect(v.columns.map((c) => c.label)).to.deep.equal(['Artikel', 'Menge', 'Einzelpreis', 'MwSt.', 'Betrag']);
    // (German puts a no-break space before % and €: compared here as plain spaces.)
    const plain = (t: string) => t.replace(/\s/g, ' ');
    expect(v.rows.map((r) => plain(r[3]!.text))).to.deep.equal(['19 %', '7 %']);
    // Shipping 4.90 shared 3.75 / 1.15 (239.98 : 73.50, the cent left to the larger fraction); 19 % of 243.73 = 46.31;
    // 7 % of 74.65 = 5.23.
    expect(totals(v).map(([l, value, strong]) => [plain(String(l)), plain(String(value)), strong])).to.deep.equal([
      ['Zwischensumme', '313,48 €', null],
      ['Versandkosten', '4,90 €', null],
      ['MwSt. (19 % auf 243,73 €)', '46,31 €', null],
      ['MwSt. (7 % auf 74,65 €)', '5,23 €', null],
      ['Gesamtbetrag', '369,92 €', true],
    ]);
    // One rate for every line: printed as before, one tax line and no rate column.
    const one = view({ items: [{ name: 'a', unit_cost: 10, tax: 19 }], fields: { tax: '%' }, tax: 19 }, 'de-DE');
    expect(one.columns.map((c) => c.key)).to.not.include('tax');
    expect(totals(one).map((t) => plain(String(t[0])))).to.include('MwSt. (19 %)');
  });

  it('shows only the Total when no adjustment is charged, and it is the strong line', function () {
    const v = view({ items: [{ name: 'a', quantity: 2, unit_cost: 50 }], fields: { tax: '%', discounts: true, shipping: true }, tax: 0 });
    expect(totals(v)).to.deep.equal([['Total', '$100.00', true]]);
  });

  it('names a flat adjustment without a rate, and uses the titles the request sends', function () {
    const v = view({
      items: [{ name: 'a', unit_cost: 100 }],
      fields: { tax: true, discounts: true, shipping: false },
      tax: 21,
      discounts: 5,
      tax_title: 'VAT',
      discounts_title: 'Loyalty',
      total_title: 'Total due',
    });
    expect(totals(v)).to.deep.equal([
      ['Subtotal', '$100.00', null],
      ['Loyalty', '-$5.00', null],
      ['VAT', '$21.00', null],
      ['Total due', '$116.00', true],
    ]);
    expect(view({ items: [{ name: 'a', unit_cost: 100 }], tax: 20, tax_title: 'TVA' }, 'fr').totals[1]!.label).to.equal('TVA (20\u00a0%)');
  });

  it('formats amounts, rates and dates for the locale, with the labels of its language', function () {
    const body = { items: BIG, fields: { tax: '%', discounts: false, shipping: false }, tax: 19, date: '2024-03-06', currency: 'EUR' };
    const de = view(body, 'de-DE,de;q=0.9');
    expect(de.lang).to.equal('de-DE');
    expect(de.header).to.equal('RECHNUNG');
    expect(de.title).to.equal('Rechnung');
    expect(de.details).to.deep.equal([{ label: 'Datum', value: '06.03.2024', nowrap: true, oneLineLabel: true }]);
    expect(de.columns.map((c) => c.label)).to.deep.equal(['Artikel', 'Menge', 'Einzelpreis', 'Betrag']);
    expect(de.rows[1]!.map((c) => c.text)).to.deep.equal(['API calls', '0', '0,0013\u00a0€', '0,00\u00a0€']);
    expect(totals(de)[1]).to.deep.equal(['MwSt. (19\u00a0%)', '234.548,90\u00a0€', null]);
    expect(de.pageOf).to.equal('Seite {{page}} von {{pages}}');
    const fr = view({ ...body, tax: 8.875 }, 'fr-CA');
    expect(fr.lang).to.equal('fr-CA');
    expect(totals(fr)[1]![0]).to.equal('TVA (8,875\u00a0%)');
    const jpy = view({ items: [{ name: 'a', quantity: 3, unit_cost: 3333333 }], currency: 'JPY' });
    expect(totals(jpy)).to.deep.equal([['Total', '¥9,999,999', true]]);
  });

  it("prints today's date in the configured time zone when the request has none", function () {
    expect(view({ items: [{ name: 'a' }] }).details[0]).to.deep.equal({
      label: 'Date',
      value: 'Nov 24, 2026',
      nowrap: true,
      oneLineLabel: true,
    });
    expect(view({ items: [{ name: 'a' }], date: 'Upon receipt' }).details[0]!.value).to.equal('Upon receipt');
  });

  it('lets a label, heading or value with a word over 20 characters break anywhere; dates never; short labels on one line', function () {
    const v = view({
      items: [{ name: 'a' }],
      date_title: 'Date of issue according to the contract',
      payment_terms_title: 'Q'.repeat(21),
      payment_terms: 'REF-' + '9'.repeat(30),
      due_date: '2024-02-02',
      due_date_title: 'Z'.repeat(40),
      purchase_order: 'PO 4711',
      balance_title: 'W'.repeat(200),
      amount_header: 'A'.repeat(21),
      quantity_header: 'Number of units delivered to the site',
    });
    const flags = (row: { breakLabel?: boolean; breakValue?: boolean; nowrap?: boolean; oneLineLabel?: boolean }) => [
      !!row.breakLabel,
      !!row.breakValue,
      !!row.nowrap,
      !!row.oneLineLabel,
    ];
    expect(v.details.map(flags)).to.deep.equal([
      [false, false, true, false], // a phrase of short words (over 20 characters: it may wrap), and a date
      [true, true, false, false], // 21 Qs, and a 34-character reference
      [true, false, true, false], // a date, whatever its label
      [false, false, false, true], // "Purchase Order": a short label stays on one line beside a long value
    ]);
    expect(flags(v.summary!)).to.deep.equal([true, false, false, false]);
    const columns = Object.fromEntries(v.columns.map((c) => [c.key, [!!c.wrap, !!c.breakLabel]]));
    expect(columns).to.deep.include({ amount: [true, true], quantity: [true, false], item: [false, false] });
  });

  it('splits the sender into its name and the rest, and keeps multi-line addresses printable', function () {
    const v = view({
      from: '  Acme Corp  \r\n1 Main St\r\n\r\n\r\n\r\nSpringfield, IL 62701\r\nVAT: US123',
      to: 'Client Ltd\n\n\n\n\nAttn: Accounts\u2028Floor 3',
      ship_to: 'Warehouse 9',
      items: [{ name: 'a' }],
    });
    expect(v.author).to.equal('Acme Corp');
    expect(v.fromName).to.equal('  Acme Corp  ');
    expect(v.fromRest).to.equal('1 Main St\n\nSpringfield, IL 62701\nVAT: US123');
    expect(v.to).to.deep.equal({ title: 'Bill To', text: 'Client Ltd\n\nAttn: Accounts\nFloor 3' });
    expect(v.shipTo).to.deep.equal({ title: 'Ship To', text: 'Warehouse 9' });
    expect(view({ from: 'Solo', items: [{ name: 'a' }] })).to.include({ fromName: 'Solo', fromRest: '', shipTo: undefined });
  });

  it('keeps right-to-left and CJK text as sent, and caps stacked combining marks', function () {
    const v = view({
      from: 'شركة المثال\nالرياض',
      to: '台灣測試股份有限公司\n臺北市',
      notes: 'Z' + '\u0301'.repeat(500),
      items: [{ name: 'خدمات استشارية', description: 'مُحَمَّد' }],
    });
    expect([v.fromName, v.fromRest, v.author]).to.deep.equal(['شركة المثال', 'الرياض', 'شركة المثال']);
    expect(v.to.text).to.equal('台灣測試股份有限公司\n臺北市');
    expect(v.rows[0]![0]).to.deep.include({ text: 'خدمات استشارية', sub: 'مُحَمَّد' });
    expect(v.notes).to.deep.equal({ title: 'Notes', text: 'Z' + '\u0301'.repeat(4) });
  });

  it('lists a few custom fields with the details, and more than that in a block of their own', function () {
    const fields = (n: number) => Array.from({ length: n }, (_, i) => ({ name: `Field ${i + 1}`, value: `v${i + 1}` }));
    const few = view({ items: [{ name: 'a' }], custom_fields: fields(CUSTOM_FIELDS_IN_DETAILS), purchase_order: 'PO-7' });
    expect(few.details.map((d) => d.label)).to.deep.equal(['Date', 'Purchase Order', 'Field 1', 'Field 2', 'Field 3', 'Field 4']);
    expect(few.fields).to.equal(undefined);
    const many = view({ items: [{ name: 'a' }], custom_fields: fields(CUSTOM_FIELDS_IN_DETAILS + 1) });
    expect(many.details.map((d) => d.label)).to.deep.equal(['Date']);
    expect(many.fields).to.have.length(CUSTOM_FIELDS_IN_DETAILS + 1);
    expect(many.fields!.at(-1)).to.deep.equal({
      label: `Field ${CUSTOM_FIELDS_IN_DETAILS + 1}`,
      value: `v${CUSTOM_FIELDS_IN_DETAILS + 1}`,
    });
  });

  it('keeps number cells on one line, and wraps only long number headings', function () {
    const v = view({ items: [{ name: 'a', unit_cost: 1 }], quantity_header: 'Quantity delivered to the site' });
    expect(v.columns.map((c) => [c.key, c.wrap])).to.deep.equal([
      ['item', false],
      ['quantity', true],
      ['rate', false],
      ['amount', false],
    ]);
    expect(v.rows[0]!.map((c) => c.nowrap ?? false)).to.deep.equal([false, true, true, true]);
  });

  it('passes the logo data: URI through untouched, and leaves out absent parts', function () {
    const logo = 'data:image/svg+xml;utf8,<svg>\r\n\r\n\r\n</svg>';
    const v = view({ items: [{ name: 'a' }] }, undefined, logo);
    expect(v.logo).to.equal(logo);
    expect(v).to.include({ number: undefined, notes: undefined, terms: undefined, title: 'Invoice' });
  });
});
