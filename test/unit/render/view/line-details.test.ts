// What a line says besides its name (render/view/line-details.ts, render/labels/units.ts, render/view/line-adjustments.ts): the unit's
// short name beside the quantity in the language (locales/units.json), the identifiers, origin, attributes, period
// and note under the name, and the line's allowances and charges as sub-rows under it. The allowances are given to
// the view as money/ computes them (LineTotal.adjustments), set here directly on the totals.
import { expect } from 'chai';
import { type Assets } from '../../../../server/assets';
import { validateDocument } from '../../../../server/documents/validate';
import { computeTotals, Decimal, type LineAdjustment, type Totals } from '../../../../server/money/totals';
import { negotiateLocale } from '../../../../server/render/labels/locale';
import { languagePreferences } from '../../../../server/http/accept-language';
import { buildView, type DocumentView } from '../../../../server/render/view/view-model';
import { projectAssets } from '../../../helpers/project-assets';

const plain = (t: string) => t.replace(/\s/g, ' ');

describe('document view: units, line details, line allowances and charges', function () {
  let assets: Assets;
  before(function () {
    assets = projectAssets();
  });
  function view(body: Record<string, unknown>, acceptLanguage?: string, edit?: (totals: Totals) => void): DocumentView {
    const doc = validateDocument(assets.schemas, { from: 'Acme GmbH', to: 'Client', currency: 'EUR', ...body });
    const locale = negotiateLocale(languagePreferences(acceptLanguage), assets.catalogues.defaultTags);
    const totals = computeTotals(doc);
    edit?.(totals);
    return buildView(doc, totals, { catalogues: assets.catalogues, locale, timeZone: 'UTC' });
  }
  const quantities = (v: DocumentView) => v.rows.map((r) => plain(r[1]!.text));

  const UNITS = [
    { name: 'Consulting', quantity: 16, unit: 'HUR', unit_cost: 100 },
    { name: 'Coffee', quantity: 12.5, unit: 'KGM', unit_cost: 18 },
    { name: 'Hosting', quantity: 1, unit: 'MON', unit_cost: 49 },
    { name: 'Rent', quantity: 3, unit: 'DAY', unit_cost: 10 },
    { name: 'Licence', quantity: 3, unit: 'C62', unit_cost: 200 },
    { name: 'Widget', quantity: 2, unit: 'H87', unit_cost: 5 },
    { name: 'Crates', quantity: 4, unit: 'XCR', unit_cost: 5 },
    { name: 'Plain', quantity: 5, unit_cost: 1 },
  ];

  it("prints each unit's short name beside the quantity in the language, none for a count, the code when unknown", function () {
    expect(quantities(view({ items: UNITS }))).to.deep.equal(['16 h', '12.5 kg', '1 month', '3 days', '3', '2', '4 XCR', '5']);
    expect(quantities(view({ items: UNITS }, 'de-DE'))).to.deep.equal(['16 Std.', '12,5 kg', '1 Monat', '3 Tage', '3', '2', '4 XCR', '5']);
    expect(quantities(view({ items: UNITS }, 'fr'))).to.deep.equal(['16 h', '12,5 kg', '1 mois', '3 jours', '3', '2', '4 XCR', '5']);
    expect(quantities(view({ items: UNITS }, 'th')).slice(0, 2)).to.deep.equal(['16 ชม.', '12.5 กก.']);
    // Plural forms follow the language's rules: 1.5 days in English, 1,5 jour in French.
    const half = { items: [{ name: 'a', quantity: 1.5, unit: 'DAY', unit_cost: 1 }] };
    expect([quantities(view(half))[0], quantities(view(half, 'fr'))[0]]).to.deep.equal(['1.5 days', '1,5 jour']);
  });

  it('keeps the quantity and its unit together on one line', function () {
    const cell = view({ items: [{ name: 'a', quantity: 16, unit: 'HUR', unit_cost: 1 }] }, 'de').rows[0]![1]!;
    expect(cell.text).to.equal('16\u00a0Std.');
    expect(cell.nowrap).to.equal(true);
  });

  it('prints a packing slip quantity with its unit', function () {
    const v = view({ type: 'packing_slip', items: [{ name: 'Cable', quantity: 25, unit: 'MTR' }] }, 'es');
    expect(plain(v.rows[0]![2]!.text)).to.equal('25 m');
  });

  const DETAILED = {
    name: 'Coffee beans',
    description: 'Single origin',
    quantity: 2,
    unit_cost: 10,
    seller_item_id: 'CB-1',
    buyer_item_id: 'PO-77-3',
    standard_item_id: { scheme: '0160', id: '4012345678901' },
    origin_country: 'ET',
    attributes: [
      { name: 'Colour', value: 'red' },
      { name: 'Roast', value: 'medium' },
    ],
    period: { start: '2026-03-01', end: '2026-03-15' },
    note: 'Delivered in two parts',
  };

  it('lists identifiers, origin and attributes, period and note under the item, in the language', function () {
    const en = view({ items: [DETAILED] }).rows[0]![0]!;
    expect(en).to.deep.include({ text: 'Coffee beans', sub: 'Single origin' });
    expect(en.details).to.deep.equal([
      'Art. No.: CB-1 · Your Ref.: PO-77-3 · GTIN 4012345678901',
      'Origin: Ethiopia · Colour: red · Roast: medium',
      'Period: Mar 1, 2026 – Mar 15, 2026',
      'Delivered in two parts',
    ]);
    const de = view({ items: [DETAILED] }, 'de-DE').rows[0]![0]!;
    expect(de.details!.map(plain)).to.deep.equal([
      'Art.-Nr.: CB-1 · Ihre Art.-Nr.: PO-77-3 · GTIN 4012345678901',
      'Herkunft: Äthiopien · Colour: red · Roast: medium',
      'Leistungszeitraum: 01.03.2026 – 15.03.2026',
      'Delivered in two parts',
    ]);
    const fr = view({ items: [DETAILED] }, 'fr-FR').rows[0]![0]!;
    expect(fr.details![1]).to.equal('Origine\u00a0: Éthiopie · Colour\u00a0: red · Roast\u00a0: medium');
  });

  it('fields.line_numbers: a first column numbers the item rows, not their allowance rows; off by default; in every layout', function () {
    const items = [
      { name: 'a', quantity: 1, unit_cost: 10, allowances: [{ reason: 'Loyalty', percent: 10 }] },
      { name: 'b', quantity: 2, unit_cost: 5 },
      { name: 'c', quantity: 3, unit_cost: 1 },
    ];
    const on = view({ items, fields: { line_numbers: true } });
    expect(on.columns.map((c) => c.key)).to.deep.equal(['number', 'item', 'quantity', 'rate', 'amount']);
    expect(on.columns[0]!.label).to.equal('#');
    expect(on.rows.map((r) => r[0]!.text)).to.deep.equal(['1', '', '2', '3']);
    expect(on.rows[1]!.every((c) => c.adjustment)).to.equal(true);
    expect(view({ items }).columns[0]!.key).to.equal('item');
    expect(view({ items, fields: { line_numbers: true } }, 'de').columns[0]!.label).to.equal('Nr.');
    for (const type of ['packing_slip', 'statement', 'timesheet']) {
      const dated = items.map(({ allowances: _a, ...i }) => ({ ...i, date: '2026-11-02' }));
      const v = view({ type, items: dated, fields: { line_numbers: true } });
      expect(v.columns[0]!.key, type).to.equal('number');
      expect(
        v.rows.map((r) => r[0]!.text),
        type,
      ).to.deep.equal(['1', '2', '3']);
      expect(
        v.rows.every((r) => r.length === v.columns.length),
        type,
      ).to.equal(true);
    }
  });

  it('sku: printed under the name before the seller item id, labelled in the language', function () {
    const v = view({ items: [{ name: 'a', sku: 'ESP-2000', seller_item_id: 'A-1' }] }, 'de');
    expect(v.rows[0]![0]!.details).to.deep.equal(['SKU: ESP-2000 · Art.-Nr.: A-1']);
  });

  it('names a scheme it does not know by its code, and prints nothing for a line without details', function () {
    const v = view({ items: [{ name: 'a', standard_item_id: { scheme: '0003', id: '123' } }, { name: 'b' }] });
    expect(v.rows[0]![0]!.details).to.deep.equal(['Item ID: 123 (0003)']);
    expect(v.rows[1]![0]!.details).to.equal(undefined);
  });

  it('puts the details of a statement line under its item, and of a packing slip line under its description', function () {
    const statement = view({ type: 'statement', items: [{ name: 'Order 7', seller_item_id: 'A-1', unit_cost: 5 }] });
    expect(statement.rows[0]![2]!.details).to.deep.equal(['Art. No.: A-1']);
    const slip = view({ type: 'packing_slip', items: [{ name: 'Cable', description: 'Cat 6', origin_country: 'DE' }] });
    expect(slip.rows[0]![1]!.details).to.deep.equal(['Origin: Germany']);
  });

  const TEN_PERCENT: LineAdjustment = {
    charge: false,
    amount: new Decimal('12.00'),
    percent: new Decimal(10),
    base: new Decimal('120.00'),
    reason: 'Early bird',
  };
  const PACKAGING: LineAdjustment = { charge: true, amount: new Decimal('3.00'), reason: 'Packaging' };

  it("prints a line's allowances and charges as sub-rows under it, the signed amount in the amount column", function () {
    const items = [
      { name: 'Course', quantity: 1, unit_cost: 120 },
      { name: 'Book', quantity: 1, unit_cost: 30 },
    ];
    const v = view({ items }, undefined, (t) => {
      t.lines[0]!.adjustments = [TEN_PERCENT, PACKAGING];
    });
    expect(v.rows.map((r) => r.map((c) => c.text))).to.deep.equal([
      ['Course', '1', '€120.00', '€120.00'],
      ['less 10% Early bird', '', '', '-€12.00'],
      ['plus Packaging', '', '', '+€3.00'],
      ['Book', '1', '€30.00', '€30.00'],
    ]);
    expect(v.rows[1]!.every((c) => c.adjustment === true)).to.equal(true);
    expect(v.rows[0]!.some((c) => c.adjustment)).to.equal(false);
    expect(v.rows[1]![3]!.nowrap).to.equal(true);
  });

  it('takes them from the request through money/: the line before them, each after it, the subtotal their sum', function () {
    const v = view({
      items: [
        {
          name: 'Course',
          quantity: 2,
          unit_cost: 60,
          allowances: [{ percent: 10, reason: 'Early bird' }],
          charges: [{ amount: 3, reason: 'Packaging' }],
        },
        { name: 'Book', quantity: 1, unit_cost: 30 },
      ],
      fields: { tax: false },
    });
    expect(v.rows.map((r) => r.map((c) => c.text))).to.deep.equal([
      ['Course', '2', '€60.00', '€120.00'],
      ['less 10% Early bird', '', '', '-€12.00'],
      ['plus Packaging', '', '', '+€3.00'],
      ['Book', '1', '€30.00', '€30.00'],
    ]);
    expect(v.totals.map((t) => [t.label, t.value])).to.deep.equal([['Total', '€141.00']]);
  });

  it('words them in the language, and names one without a reason by its kind', function () {
    const edit = (t: Totals) => {
      t.lines[0]!.adjustments = [TEN_PERCENT, { ...PACKAGING, reason: undefined }, { ...TEN_PERCENT, reason: undefined }];
    };
    const items = [{ name: 'Kurs', quantity: 1, unit_cost: 120 }];
    expect(view({ items }, 'de-DE', edit).rows.map((r) => plain(`${r[0]!.text} | ${r[3]!.text}`))).to.deep.equal([
      'Kurs | 120,00 €',
      'abzüglich 10 % Early bird | -12,00 €',
      'Zuschlag | +3,00 €',
      'Nachlass (10 %) | -12,00 €',
    ]);
    expect(view({ items }, 'fr', edit).rows[1]![0]!.text).to.equal('moins 10\u00a0% Early bird');
  });

  it('keeps sub-rows in the amount column with a VAT rate column and on a timesheet with rates', function () {
    const edit = (t: Totals) => {
      t.lines[0]!.adjustments = [PACKAGING];
    };
    const rates = view(
      {
        items: [
          { name: 'a', unit_cost: 10, tax: 19 },
          { name: 'b', unit_cost: 10, tax: 7 },
        ],
        fields: { tax: '%' },
      },
      undefined,
      edit,
    );
    expect(rates.columns.map((c) => c.key)).to.deep.equal(['item', 'quantity', 'rate', 'tax', 'amount']);
    expect(rates.rows[1]!.map((c) => c.text)).to.deep.equal(['plus Packaging', '', '', '', '+€3.00']);
    const timesheet = view({ type: 'timesheet', items: [{ name: 'a', date: '2026-03-02', quantity: 8, unit_cost: 90 }] }, undefined, edit);
    expect(timesheet.rows[1]!.map((c) => c.text)).to.deep.equal(['', 'plus Packaging', '', '', '+€3.00']);
  });
});
