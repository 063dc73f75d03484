// The money of the EN 16931 model in real e-invoices and PDFs: line allowances and charges with a price base quantity,
// document allowances and charges in their own VAT category, several taxes that are one VAT rate per line, the VAT
// total in a tax currency and a rounded amount due, each through POST /ubl and checked against the UBL XSD (xmllint)
// and the EN 16931 and Peppol BIS 3.0 rules (0 fatal), with the amounts worked out by hand; taxes an e-invoice cannot
// carry refused naming `taxes`; the same requests through POST /cii under the EN 16931 CII rules; and the PDF's total
// lines read back with pdftotext, in both themes.
import { expect } from 'chai';
import { pdfFlatText } from '../helpers/pdf';
import { rules, standards, type Failure } from '../helpers/schematron';
import { post, sharedService, type TestService } from '../helpers/service';
import { embeddedPdf, xmlValue, xsdErrors } from '../helpers/ubl';
import { BUYER, SELLER } from '../helpers/e-invoice-request';
import { THEMES } from '../helpers/themes';

const E_INVOICE = { seller: SELLER, buyer: BUYER, buyer_reference: 'PO-77', payment_means: { code: '30', iban: 'BE71096123456769' } };

const BASE = {
  from: 'Nikolaus BV\nRue Neuve 1\n1000 Brussels',
  to: 'Foster Moen BV\nOudegracht 10\n3511 Utrecht',
  number: 'INV-25-001',
  date: '2026-11-02',
  due_date: '2026-12-02',
  currency: 'EUR',
};

interface Case {
  name: string;
  body: Record<string, unknown>;
  /** Values the XML must carry, by element (the first of its name) or by a regular expression that must match. */
  xml: Record<string, string>;
  matches?: RegExp[];
  /** Text the embedded PDF must show. */
  pdf: string[];
}

const CASES: Case[] = [
  {
    name: 'line allowances and charges with a price base quantity',
    body: {
      ...BASE,
      tax: 21,
      e_invoice: E_INVOICE,
      items: [
        {
          name: 'Copy paper',
          quantity: 250,
          unit_cost: '12.50',
          price_base_quantity: 100,
          allowances: [{ percent: 10, reason: 'Volume' }],
          charges: [{ amount: '2.50', reason: 'Packing', reason_code: 'ABL' }],
        },
        { name: 'Consulting', quantity: 10, unit_cost: 95, allowances: [{ amount: 50, reason_code: '95' }] },
      ],
    },
    // 31.25 − 3.13 (3.125) + 2.50 = 30.62; 950 − 50 = 900; 930.62 × 21 % = 195.4302
    xml: {
      'cbc:LineExtensionAmount': '930.62',
      'cbc:TaxExclusiveAmount': '930.62',
      'cbc:TaxAmount': '195.43',
      'cbc:PayableAmount': '1126.05',
    },
    matches: [
      /<cbc:LineExtensionAmount currencyID="EUR">30\.62<\/cbc:LineExtensionAmount>/,
      /<cbc:AllowanceChargeReason>Volume<\/cbc:AllowanceChargeReason>\s*<cbc:MultiplierFactorNumeric>10<\/cbc:MultiplierFactorNumeric>\s*<cbc:Amount currencyID="EUR">3\.13<\/cbc:Amount>\s*<cbc:BaseAmount currencyID="EUR">31\.25<\/cbc:BaseAmount>/,
      /<cbc:BaseQuantity unitCode="C62">100<\/cbc:BaseQuantity>/,
    ],
    pdf: ['Subtotal €930.62 Tax (21%) €195.43 Total €1,126.05'],
  },
  {
    name: 'document allowances and charges, one shared, two in VAT categories of their own',
    body: {
      ...BASE,
      tax: 21,
      e_invoice: {
        ...E_INVOICE,
        allowances: [{ percent: 5, reason: 'Loyalty' }],
        charges: [
          { amount: 25, reason: 'Pallet deposit', tax_category: 'Z' },
          { amount: 10, reason: 'Installation', reason_code: 'IS', tax_category: 'S', tax_rate: 10 },
        ],
      },
      items: [{ name: 'Shelving', quantity: 2, unit_cost: 150 }],
    },
    // 300 − 15 = 285 at 21 % = 59.85; 25 at 0 %; 10 at 10 % = 1.00: 320 + 60.85 = 380.85
    xml: {
      'cbc:AllowanceTotalAmount': '15.00',
      'cbc:ChargeTotalAmount': '35.00',
      'cbc:TaxExclusiveAmount': '320.00',
      'cbc:TaxInclusiveAmount': '380.85',
      'cbc:PayableAmount': '380.85',
    },
    matches: [
      /<cbc:TaxableAmount currencyID="EUR">285\.00<\/cbc:TaxableAmount>\s*<cbc:TaxAmount currencyID="EUR">59\.85<\/cbc:TaxAmount>/,
      /<cbc:TaxableAmount currencyID="EUR">10\.00<\/cbc:TaxableAmount>\s*<cbc:TaxAmount currencyID="EUR">1\.00<\/cbc:TaxAmount>\s*<cac:TaxCategory>\s*<cbc:ID>S<\/cbc:ID>\s*<cbc:Percent>10<\/cbc:Percent>/,
      /<cbc:AllowanceChargeReason>Loyalty<\/cbc:AllowanceChargeReason>\s*<cbc:MultiplierFactorNumeric>5<\/cbc:MultiplierFactorNumeric>/,
    ],
    pdf: ['Loyalty (5%) -€15.00', 'Pallet deposit €25.00', 'Installation €10.00', '€380.85'],
  },
  {
    name: 'several taxes that are one VAT rate per line, with a discount and untaxed shipping',
    body: {
      ...BASE,
      currency: 'GBP',
      e_invoice: E_INVOICE,
      fields: { discounts: true, shipping: true },
      discounts: 10,
      shipping: '4.99',
      taxes: [
        { title: 'VAT 20%', rate: 20 },
        { title: 'VAT 5%', rate: '5' },
      ],
      items: [
        { name: 'Lamp', quantity: 2, unit_cost: '49.99', taxes: ['VAT 20%'] },
        { name: 'Child seat', quantity: 1, unit_cost: 30, taxes: ['VAT 5%'] },
      ],
    },
    // Discount 7.69 / 2.31; 92.29 × 20 % = 18.458; 27.69 × 5 % = 1.3845; shipping 4.99 zero rated
    xml: { 'cbc:TaxExclusiveAmount': '124.97', 'cbc:TaxAmount': '19.84', 'cbc:PayableAmount': '144.81' },
    matches: [
      /<cbc:TaxableAmount currencyID="GBP">92\.29<\/cbc:TaxableAmount>\s*<cbc:TaxAmount currencyID="GBP">18\.46<\/cbc:TaxAmount>/,
      /<cbc:TaxableAmount currencyID="GBP">27\.69<\/cbc:TaxableAmount>\s*<cbc:TaxAmount currencyID="GBP">1\.38<\/cbc:TaxAmount>/,
      /<cbc:TaxableAmount currencyID="GBP">4\.99<\/cbc:TaxableAmount>\s*<cbc:TaxAmount currencyID="GBP">0\.00<\/cbc:TaxAmount>\s*<cac:TaxCategory>\s*<cbc:ID>Z<\/cbc:ID>/,
    ],
    pdf: ['VAT 20% (20% of £92.29) £18.46', 'VAT 5% (5% of £27.69) £1.38', '£144.81'],
  },
  {
    name: 'the VAT total in a tax currency and a rounded amount due',
    body: {
      ...BASE,
      tax: 21,
      e_invoice: { ...E_INVOICE, tax_currency: { code: 'DKK', exchange_rate: '7.4604' }, rounding_amount: '0.01' },
      items: [{ name: 'Licence', quantity: 3, unit_cost: '33.33' }],
    },
    // 99.99 × 21 % = 20.9979 → 21.00; × 7.4604 = 156.6684 DKK; 120.99 + 0.01 = 121.00
    xml: {
      'cbc:TaxCurrencyCode': 'DKK',
      'cbc:TaxInclusiveAmount': '120.99',
      'cbc:PayableRoundingAmount': '0.01',
      'cbc:PayableAmount': '121.00',
    },
    matches: [/<cac:TaxTotal>\s*<cbc:TaxAmount currencyID="DKK">156\.67<\/cbc:TaxAmount>\s*<\/cac:TaxTotal>/],
    pdf: ['Total €120.99 Rounding €0.01 Balance €121.00'],
  },
];

function fatal(failures: Failure[]): string[] {
  return failures.filter((f) => f.flag === 'fatal').map((f) => `${f.id}: ${f.message.slice(0, 160)}`);
}

describe('allowances, charges, several taxes and rounding in UBL: XSD, EN 16931 and Peppol BIS 3.0', function () {
  this.timeout(60000);
  let service: TestService;
  before(async function () {
    service = await sharedService();
  });

  for (const c of CASES) {
    it(c.name, async function () {
      const res = await post(service, c.body, { path: '/ubl' });
      const xml = await res.text();
      expect(res.status, xml.slice(0, 500)).to.equal(200);
      const { en16931, peppol } = standards();
      expect(xsdErrors(xml, 'Invoice'), 'XSD').to.deep.equal([]);
      expect(fatal(en16931.validate(xml)), 'EN 16931 fatal').to.deep.equal([]);
      expect(fatal(peppol.validate(xml)), 'Peppol fatal').to.deep.equal([]);
      for (const [name, value] of Object.entries(c.xml)) expect(xmlValue(xml, name), name).to.equal(value);
      for (const re of c.matches ?? []) expect(xml).to.match(re);
      const text = pdfFlatText(embeddedPdf(xml));
      for (const t of c.pdf) expect(text).to.contain(t);
    });

    it(`${c.name}, in CII (the service checks its XSD): 0 fatal under EN 16931, the same amount due`, async function () {
      const res = await post(service, c.body, { path: '/cii' });
      const xml = await res.text();
      expect(res.status, xml.slice(0, 500)).to.equal(200);
      expect(fatal(rules('en16931Cii').validate(xml)), 'EN 16931 fatal').to.deep.equal([]);
      expect(xmlValue(xml, 'ram:DuePayableAmount')).to.equal(c.xml['cbc:PayableAmount']);
    });
  }

  it('refuses taxes that are not one VAT rate per line (GST + PST), naming taxes and saying why', async function () {
    const res = await post(
      service,
      {
        ...BASE,
        currency: 'CAD',
        e_invoice: E_INVOICE,
        taxes: [
          { title: 'GST', rate: 5 },
          { title: 'PST', rate: 7 },
        ],
        items: [{ name: 'Widget', quantity: 2, unit_cost: '49.99' }],
      },
      { path: '/ubl' },
    );
    const body = (await res.json()) as { details: { field: string; message: string }[] };
    expect(res.status).to.equal(400);
    expect(body.details).to.deep.equal([
      {
        field: 'taxes',
        message:
          'an e-invoice carries one VAT rate per line: line 1 is subject to 2 taxes; send taxes where each line is subject to exactly one tax with a rate, not compound',
      },
    ]);
  });

  it('refuses a tax currency equal to the document currency, and 0x10 as a nested number', async function () {
    const res = await post(
      service,
      {
        ...BASE,
        tax: 21,
        e_invoice: { ...E_INVOICE, tax_currency: { code: 'EUR', exchange_rate: 1 } },
        items: [{ name: 'a', unit_cost: 1 }],
      },
      { path: '/ubl' },
    );
    expect(res.status).to.equal(400);
    expect(((await res.json()) as { details: { field: string }[] }).details.map((d) => d.field)).to.deep.equal([
      'e_invoice.tax_currency.code',
    ]);
    const hex = await post(service, { ...BASE, taxes: [{ title: 'GST', rate: '0x10' }], items: [{ name: 'a', unit_cost: 1 }] });
    expect(hex.status).to.equal(400);
    expect(((await hex.json()) as { details: { field: string; message: string }[] }).details).to.deep.equal([
      { field: 'taxes[0].rate', message: 'taxes[0].rate must be a number' },
    ]);
  });
});

describe('the money in the PDF: a total line per tax, allowance and charge, and the rounding, in both themes', function () {
  this.timeout(60000);

  for (const theme of THEMES) {
    it(`Canada, GST + PST with a PST-exempt line, a discount, a charge and shipping (${theme})`, async function () {
      const service = await sharedService();
      const res = await post(service, {
        ...BASE,
        theme,
        currency: 'CAD',
        fields: { discounts: true, shipping: true },
        discounts: 10,
        shipping: 12,
        taxes: [
          { title: 'GST', rate: 5 },
          { title: 'PST', rate: 7 },
        ],
        e_invoice: { charges: [{ amount: 5, reason_code: 'ABL' }], rounding_amount: '-0.02' },
        items: [
          { name: 'Widget', quantity: 2, unit_cost: '49.99' },
          { name: 'Book', quantity: 1, unit_cost: 25, taxes: ['GST'] },
        ],
      });
      expect(res.status).to.equal(200);
      const text = pdfFlatText(new Uint8Array(await res.arrayBuffer()));
      // Discount 8.00 / 2.00 and charge 4.00 / 1.00 shared by line amount: GST on 119.98 = 5.999 → 6.00, PST on
      // 95.98 = 6.7186 → 6.72; 119.98 + 12.72 + 12 shipping = 144.70, less 0.02 rounding.
      expect(text).to.contain(
        'Subtotal CA$124.98 Discounts -CA$10.00 Charge CA$5.00 GST (5%) CA$6.00 PST (7% of CA$95.98) CA$6.72 Shipping CA$12.00',
      );
      expect(text).to.contain('Total CA$144.70 Rounding -CA$0.02 Balance CA$144.68');
    });
  }
});
