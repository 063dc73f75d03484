// Five languages on every type: the type's localized header, localized labels and money, numbers and dates
// formatted for the locale; Accept-Language negotiation end to end; request titles win in every locale.
import fs from 'node:fs';
import path from 'node:path';
import { expect } from 'chai';
import { projectRoot } from '../../server/config';
import { DOCUMENT_TYPES } from '../../server/documents/model';
import { pdfFlatText } from '../helpers/pdf';
import { post, sharedService, type TestService } from '../helpers/service';

type Catalogue = { labels: Record<string, string>; types: Record<string, Record<string, string>> };
const catalogue = (lang: string): Catalogue =>
  JSON.parse(fs.readFileSync(path.join(projectRoot(), 'locales', `${lang}.json`), 'utf8')) as Catalogue;
const label = (lang: string, type: string, key: string): string => {
  const c = catalogue(lang);
  return c.types[type]?.[key] ?? c.labels[key]!;
};

/** Per locale: the tag sent, the currency used, and how 1,234.50 of it must print. */
const LOCALES = [
  { lang: 'en', tag: 'en-US', currency: 'USD', money: '$1,234.50', date: 'Feb 9, 2015' },
  { lang: 'fr', tag: 'fr-FR', currency: 'EUR', money: '1 234,50 €', date: '9 févr. 2015' },
  { lang: 'de', tag: 'de-DE', currency: 'EUR', money: '1.234,50 €', date: '09.02.2015' },
  { lang: 'es', tag: 'es-ES', currency: 'EUR', money: '1234,50 €', date: '9 feb 2015' },
  { lang: 'th', tag: 'th-TH', currency: 'THB', money: '฿1,234.50', date: '9 ก.พ. 2558' },
];

function docFor(type: string, currency: string): Record<string, unknown> {
  const base = { type, currency, from: 'Northwind Traders Ltd', to: 'Client Co', number: 'N-1', date: '2015-02-09' };
  if (type === 'statement')
    return { ...base, items: [{ date: '2015-02-01', reference: 'R-1', name: 'Charge', quantity: 1, unit_cost: 1234.5 }] };
  if (type === 'timesheet') return { ...base, items: [{ date: '2015-02-02', name: 'Work', quantity: 2.5, unit_cost: 493.8 }] };
  return { ...base, items: [{ name: 'Widget', quantity: 1, unit_cost: 1234.5 }] };
}

async function pdfText(service: TestService, body: unknown, acceptLanguage: string): Promise<{ text: string; res: Response }> {
  const res = await post(service, body, { headers: { 'accept-language': acceptLanguage } });
  expect(res.status, res.status === 200 ? '' : await res.clone().text()).to.equal(200);
  return { text: pdfFlatText(new Uint8Array(await res.arrayBuffer())), res };
}

describe('localization: 12 types × 5 locales', function () {
  let service: TestService;
  before(async function () {
    service = await sharedService();
  });

  it('every locale has a distinct header for every type (no English left in other languages)', function () {
    for (const { lang } of LOCALES.filter((l) => l.lang !== 'en')) {
      for (const type of DOCUMENT_TYPES) {
        expect(label(lang, type, 'header'), `${lang}/${type}`).not.to.equal(label('en', type, 'header'));
      }
    }
  });

  for (const loc of LOCALES) {
    for (const type of DOCUMENT_TYPES) {
      it(`${type} in ${loc.tag}`, async function () {
        const { text, res } = await pdfText(service, docFor(type, loc.currency), loc.tag);
        expect(res.headers.get('content-language')).to.equal(loc.tag);
        expect(text).to.contain(label(loc.lang, type, 'header'));
        expect(text).to.contain(`${label(loc.lang, type, 'date_title')} ${loc.date}`);
        if (type === 'packing_slip') {
          expect(text).to.contain(`${label(loc.lang, type, 'total_quantity_title')} 1`);
        } else if (type === 'statement') {
          expect(text).to.contain(`${label(loc.lang, type, 'balance_title')} ${loc.money}`);
          expect(text).to.contain(`${label(loc.lang, type, 'subtotal_title')} ${loc.money}`);
        } else {
          expect(text).to.contain(`${label(loc.lang, type, 'total_title')} ${loc.money}`);
        }
        expect(text).to.match(new RegExp(`${label(loc.lang, type, 'header').replace(/[.*+?^${}()|[\]\\]/g, '\\$&')}`));
      });
    }
  }

  it('native wording for the best-known headers', async function () {
    const expected: [string, string, string][] = [
      ['fr-FR', 'credit_note', 'AVOIR'],
      ['fr-FR', 'quote', 'DEVIS'],
      ['fr-FR', 'purchase_order', 'BON DE COMMANDE'],
      ['fr-FR', 'statement', 'RELEVÉ'],
      ['de-DE', 'invoice', 'RECHNUNG'],
      ['de-DE', 'credit_note', 'GUTSCHRIFT'],
      ['de-DE', 'quote', 'ANGEBOT'],
      ['de-DE', 'packing_slip', 'LIEFERSCHEIN'],
      ['es-ES', 'invoice', 'FACTURA'],
      ['es-ES', 'quote', 'PRESUPUESTO'],
      ['th-TH', 'invoice', 'ใบแจ้งหนี้'],
      ['th-TH', 'receipt', 'ใบเสร็จรับเงิน'],
    ];
    for (const [tag, type, header] of expected) {
      const { text } = await pdfText(service, docFor(type, 'EUR'), tag);
      expect(text, `${tag} ${type}`).to.contain(header);
    }
  });

  it('percent labels, quantities and JPY follow the locale', async function () {
    const body = {
      from: 'A',
      to: 'B',
      currency: 'EUR',
      items: [{ name: 'W', quantity: 1234.5, unit_cost: 2 }],
      tax: 19,
      tax_title: 'USt',
      fields: { discounts: '%' },
      discounts: 2.5,
    };
    const de = (await pdfText(service, body, 'de-DE')).text;
    expect(de).to.contain('USt (19 %)');
    expect(de).to.contain('Rabatt (2,5 %)');
    expect(de).to.contain('1.234,5'); // the quantity, as a locale number
    const jpy = (
      await pdfText(service, { from: 'A', to: 'B', currency: 'JPY', items: [{ name: 'W', quantity: 1, unit_cost: 1234.5 }] }, 'en-US')
    ).text;
    expect(jpy).to.contain('¥1,235');
  });
});

describe('Accept-Language end to end', function () {
  const cases: { header: string | undefined; tag: string; header_label: string; money: string }[] = [
    { header: 'fr-CA', tag: 'fr-CA', header_label: 'FACTURE', money: '1 234,50 €' },
    { header: 'de-CH;q=0.9, en;q=0.5', tag: 'de-CH', header_label: 'RECHNUNG', money: "EUR 1'234.50" },
    { header: '*', tag: 'en-US', header_label: 'INVOICE', money: '€1,234.50' },
    { header: 'xx-YY', tag: 'en-US', header_label: 'INVOICE', money: '€1,234.50' },
    { header: '', tag: 'en-US', header_label: 'INVOICE', money: '€1,234.50' },
    { header: 'de;q=abc, ;;, th-TH;q=0.3', tag: 'th-TH', header_label: 'ใบแจ้งหนี้', money: '€1,234.50' },
    { header: '@@@ not a language @@@', tag: 'en-US', header_label: 'INVOICE', money: '€1,234.50' },
  ];
  for (const c of cases) {
    it(`${JSON.stringify(c.header)} → ${c.tag}`, async function () {
      const service = await sharedService();
      const res = await post(service, docFor('invoice', 'EUR'), { headers: c.header === undefined ? {} : { 'accept-language': c.header } });
      expect(res.status).to.equal(200);
      expect(res.headers.get('content-language')).to.equal(c.tag);
      const text = pdfFlatText(new Uint8Array(await res.arrayBuffer()));
      expect(text).to.contain(c.header_label);
      expect(text.replace(/[’']/g, "'")).to.contain(c.money);
    });
  }
});

describe('request titles win in every locale', function () {
  for (const loc of LOCALES) {
    it(loc.tag, async function () {
      const service = await sharedService();
      const body = {
        ...docFor('invoice', loc.currency),
        header: 'MY HEADER',
        total_title: 'Grand Sum',
        to_title: 'Customer',
        tax: 10,
        tax_title: 'Levy',
      };
      const text = (await pdfText(service, body, loc.tag)).text;
      expect(text).to.contain('MY HEADER');
      expect(text).to.contain('Grand Sum');
      expect(text).to.contain('Customer');
      expect(text).to.match(/Levy \(10\s?%\)/);
      expect(text).not.to.contain(label(loc.lang, 'invoice', 'header'));
      expect(text).not.to.contain(`${label(loc.lang, 'invoice', 'total_title')} `);
    });
  }
});
