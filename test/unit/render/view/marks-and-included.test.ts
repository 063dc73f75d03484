// The view of prices with tax included, stamps and footers (render/view/adjustment-lines.ts includedTaxLines,
// render/view/marks.ts): the total lines of prices with tax included in the five languages, with one rate, several and
// several taxes, and none without tax; the stamp's words and size in each language and script; the footer's CSS
// (escaped, with line breaks) and the margin that grows with it.
import { expect } from 'chai';
import { type Assets } from '../../../../server/assets';
import { validateDocument } from '../../../../server/documents/validate';
import { languagePreferences } from '../../../../server/http/accept-language';
import { computeTotals } from '../../../../server/money/totals';
import { negotiateLocale } from '../../../../server/render/labels/locale';
import { cssText, footerView, stampView } from '../../../../server/render/view/marks';
import { buildView, type DocumentView } from '../../../../server/render/view/view-model';
import { projectAssets } from '../../../helpers/project-assets';

const plain = (t: string) => t.replace(/\s/g, ' ');

describe('view: prices with tax included, stamps and footers', function () {
  let assets: Assets;
  before(function () {
    assets = projectAssets();
  });
  function view(body: Record<string, unknown>, acceptLanguage?: string): DocumentView {
    const doc = validateDocument(assets.schemas, { from: 'Acme GmbH', to: 'Client', currency: 'EUR', ...body });
    const locale = negotiateLocale(languagePreferences(acceptLanguage), assets.catalogues.defaultTags);
    return buildView(doc, computeTotals(doc), { catalogues: assets.catalogues, locale, timeZone: 'UTC' });
  }
  const totals = (v: DocumentView) => v.totals.map((t) => `${plain(t.label)} = ${plain(t.value)}${t.included ? ' (incl)' : ''}`);
  const GROSS = { prices_include_tax: true, tax: 19, items: [{ name: 'a', quantity: 1, unit_cost: 119 }] };

  it('one rate: the total, then the net amount and the tax included, in five languages', function () {
    expect(totals(view(GROSS))).to.deep.equal(['Total = €119.00', 'Net amount = €100.00 (incl)', 'Incl. Tax (19%) = €19.00 (incl)']);
    expect(totals(view(GROSS, 'de')).slice(1)).to.deep.equal(['Nettobetrag = 100,00 € (incl)', 'inkl. MwSt. (19 %) = 19,00 € (incl)']);
    expect(totals(view(GROSS, 'fr')).slice(1)).to.deep.equal(['Total HT = 100,00 € (incl)', 'dont TVA (19 %) = 19,00 € (incl)']);
    expect(totals(view(GROSS, 'es')).slice(1)).to.deep.equal(['Base imponible = 100,00 € (incl)', 'IVA incluido (19 %) = 19,00 € (incl)']);
    expect(totals(view(GROSS, 'th')).slice(1)).to.deep.equal(['มูลค่าก่อนภาษี = €100.00 (incl)', 'รวมภาษีมูลค่าเพิ่ม (19%) = €19.00 (incl)']);
  });

  it('several rates say each base; several taxes each tax; no tax says nothing', function () {
    const two = view({ ...GROSS, items: [...GROSS.items, { name: 'b', quantity: 1, unit_cost: 10.7, tax: 7 }] });
    expect(totals(two)).to.deep.equal([
      'Total = €129.70',
      'Net amount = €110.00 (incl)',
      'Incl. Tax (19% of €100.00) = €19.00 (incl)',
      'Incl. Tax (7% of €10.00) = €0.70 (incl)',
    ]);
    const taxes = view({
      prices_include_tax: true,
      taxes: [
        { title: 'GST', rate: 5 },
        { title: 'PST', rate: 8, compound: true },
      ],
      items: [{ name: 'a', quantity: 1, unit_cost: 113.4 }],
    });
    expect(totals(taxes).slice(1)).to.deep.equal([
      'Net amount = €100.00 (incl)',
      'Incl. GST (5% of €100.00) = €5.00 (incl)',
      'Incl. PST (8% of €105.00) = €8.40 (incl)',
    ]);
    expect(totals(view({ ...GROSS, fields: { tax: false } }))).to.deep.equal(['Total = €119.00']);
  });

  it("the stamp's words in the document's language, or its own; its size keeps it inside the page", function () {
    const words = (lang: string) => (kind: string) => assets.catalogues.text(lang, `stamp_${kind}`);
    expect(['en', 'de', 'fr', 'es', 'th'].map((l) => stampView({ kind: 'paid', pages: 'first' }, words(l))!.text)).to.deep.equal([
      'PAID',
      'BEZAHLT',
      'PAYÉ',
      'PAGADO',
      'ชำระแล้ว',
    ]);
    for (const kind of ['draft', 'copy', 'void', 'duplicate'])
      for (const l of ['en', 'de', 'fr', 'es', 'th']) expect(words(l)(kind), `${l} ${kind}`).to.not.match(/^stamp_/);
    const own = stampView({ text: 'x'.repeat(40), kind: 'void', pages: 'all' }, words('en'))!;
    expect([own.kind, own.every]).to.deep.equal(['void', true]);
    // 40 characters: 430 pt ÷ (40 × 0.78 + 0.8) em = 13 pt; 4 characters hit the 60 pt cap; 20 CJK 20 pt.
    expect([own.size, stampView({ kind: 'paid', pages: 'first' }, words('en'))!.size]).to.deep.equal([13, 60]);
    expect(stampView({ text: '副'.repeat(20), pages: 'first' }, words('en'))!.size).to.equal(20);
    expect(stampView({ text: '副', pages: 'first' }, words('en'))!.kind).to.equal('custom');
  });

  it('the footer as CSS: escaped, its lines joined by line breaks, its margin growing with its rows', function () {
    expect(cssText('a "b" \\ </style> & >')).to.equal('"a \\"b\\" \\\\ \\3c /style\\3e  \\26  \\3e "');
    const one = footerView('Acme GmbH · HRB 1')!;
    expect([one.css, one.marginIn]).to.deep.equal(['"Acme GmbH · HRB 1"', 0.75]);
    const three = footerView('a\nb\nc')!;
    expect(three.css).to.equal('"a" "\\A " "b" "\\A " "c"');
    // 6 lines of 150 W: 150 × 1 em × 7 pt = 1,050 pt, 4 rows of 340 pt each: 24 rows, (12 + 24 × 9.45 + 26) ÷ 72 in.
    const widest = footerView(Array.from({ length: 6 }, () => 'W'.repeat(150)).join('\n'))!;
    expect(widest.marginIn).to.equal(3.678);
    expect(widest.css).to.include('\u200b'); // breakable: a margin box does not break a long word itself
    expect(footerView(' \n ')).to.equal(undefined);
  });
});
