// POST /ubl: UBL 2.1 e-invoices that pass the XSD, EN 16931 and Peppol BIS 3.0 (zero fatal rules), with the PDF of the
// same request inside and the same amounts; free-text documents that are always XSD-valid; 400s that name the field.
import { expect } from 'chai';
import { isPdf, pdfFlatText } from '../helpers/pdf';
import { standards, type Failure } from '../helpers/schematron';
import { post, sharedService, type TestService } from '../helpers/service';
import { embeddedPdf, rootOf, xmlValue, xsdErrors } from '../helpers/ubl';
import { E_INVOICE } from '../helpers/e-invoice-request';

const BASE = {
  from: 'Nikolaus BV\nRue Neuve 1\n1000 Brussels\nVAT ID: BE0123456749',
  to: 'Foster Moen BV\nOudegracht 10\n3511 Utrecht\nVAT ID: NL123456789B01',
  number: 'INV-2026-001',
  date: '2026-11-02',
  due_date: 'Dec 2, 2026',
  currency: 'EUR',
  e_invoice: E_INVOICE,
  items: [{ name: 'Starter plan', quantity: 1, unit_cost: 99 }],
};

interface Case {
  name: string;
  body: Record<string, unknown>;
  root: 'Invoice' | 'CreditNote';
  /** Amounts the XML must carry. */
  xml?: Record<string, string>;
}

const CASES: Case[] = [
  {
    name: 'percent tax, three lines',
    root: 'Invoice',
    body: {
      ...BASE,
      tax: 21,
      items: [
        { name: 'Consulting', description: 'October', quantity: 12, unit_cost: 150 },
        { name: 'Licence', quantity: 3, unit_cost: 299.99 },
        { name: 'Travel', quantity: 1, unit_cost: 245.5 },
      ],
    },
    xml: { 'cbc:LineExtensionAmount': '2945.47', 'cbc:TaxAmount': '618.55', 'cbc:PayableAmount': '3564.02' },
  },
  {
    name: 'flat tax',
    root: 'Invoice',
    body: { ...BASE, fields: { tax: true }, tax: 17.5, items: [{ name: 'Service', quantity: 2, unit_cost: 50 }] },
    xml: { 'cbc:TaxAmount': '17.50', 'cbc:Percent': '17.5', 'cbc:PayableAmount': '117.50' },
  },
  {
    name: 'zero tax with an exemption',
    root: 'Invoice',
    body: {
      ...BASE,
      tax: 0,
      e_invoice: {
        ...E_INVOICE,
        tax_category: 'E',
        tax_exemption_reason: 'Exempt under Article 132 of Directive 2006/112/EC',
        tax_exemption_reason_code: 'VATEX-EU-132',
      },
    },
    xml: { 'cbc:TaxAmount': '0.00', 'cbc:TaxExemptionReasonCode': 'VATEX-EU-132', 'cbc:PayableAmount': '99.00' },
  },
  {
    name: 'percent discount',
    root: 'Invoice',
    body: { ...BASE, tax: 21, fields: { discounts: '%' }, discounts: 10, items: [{ name: 'A', quantity: 4, unit_cost: 25 }] },
    xml: { 'cbc:AllowanceTotalAmount': '10.00', 'cbc:TaxAmount': '18.90', 'cbc:PayableAmount': '108.90' },
  },
  {
    name: 'flat discount',
    root: 'Invoice',
    body: { ...BASE, tax: 6, fields: { discounts: true }, discounts: 12.34, items: [{ name: 'A', quantity: 3, unit_cost: 33.33 }] },
    xml: { 'cbc:AllowanceTotalAmount': '12.34', 'cbc:TaxAmount': '5.26', 'cbc:PayableAmount': '92.91' },
  },
  {
    name: 'shipping with tax',
    root: 'Invoice',
    body: { ...BASE, tax: 21, fields: { shipping: true }, shipping: 15 },
    xml: { 'cbc:ChargeTotalAmount': '15.00', 'cbc:TaxAmount': '20.79', 'cbc:PayableAmount': '134.79' },
  },
  {
    name: 'amount paid',
    root: 'Invoice',
    body: { ...BASE, tax: 21, amount_paid: 50 },
    xml: { 'cbc:PrepaidAmount': '50.00', 'cbc:PayableAmount': '69.79' },
  },
  {
    name: 'JPY',
    root: 'Invoice',
    body: {
      ...BASE,
      currency: 'JPY',
      tax: 10,
      items: [
        { name: 'Tea set', quantity: 5, unit_cost: 1200 },
        { name: 'Tray', quantity: 2, unit_cost: 3333 },
      ],
    },
    xml: { 'cbc:LineExtensionAmount': '12666', 'cbc:TaxAmount': '1267', 'cbc:PayableAmount': '13933' },
  },
  {
    name: 'negative lines on an invoice',
    root: 'Invoice',
    body: {
      ...BASE,
      tax: 21,
      items: [
        { name: 'Hardware', quantity: 2, unit_cost: 100 },
        { name: 'Goodwill credit', quantity: 1, unit_cost: -30 },
        { name: 'Returned cable', quantity: -1, unit_cost: 10 },
      ],
    },
    xml: { 'cbc:LineExtensionAmount': '160.00', 'cbc:TaxAmount': '33.60', 'cbc:PayableAmount': '193.60' },
  },
  {
    name: 'percent discount, percent shipping and tax together',
    root: 'Invoice',
    body: {
      ...BASE,
      tax: 19,
      fields: { discounts: '%', shipping: '%' },
      discounts: 5,
      shipping: 2.5,
      items: [
        { name: 'A', quantity: 7, unit_cost: 19.99 },
        { name: 'B', quantity: 1, unit_cost: 0.99 },
      ],
    },
    xml: { 'cbc:AllowanceTotalAmount': '7.05', 'cbc:ChargeTotalAmount': '3.35', 'cbc:TaxAmount': '25.44' },
  },
  {
    name: 'receipt, fully paid',
    root: 'Invoice',
    body: {
      ...BASE,
      type: 'receipt',
      number: 'R-1001',
      tax: 21,
      amount_paid: 119.79,
      payment_terms: 'Visa ending 4242',
      purchase_order: 'INV-1000',
    },
    xml: { 'cbc:PrepaidAmount': '119.79', 'cbc:PayableAmount': '0.00' },
  },
  {
    name: 'credit note referencing an invoice',
    root: 'CreditNote',
    body: {
      ...BASE,
      type: 'credit_note',
      number: 'CN-17',
      due_date: undefined,
      purchase_order: 'INV-2026-001',
      tax: 21,
      items: [{ name: 'Returned monitor stand', quantity: 1, unit_cost: 80 }],
    },
    xml: { 'cbc:TaxAmount': '16.80', 'cbc:PayableAmount': '96.80' },
  },
  {
    name: 'credit note partly refunded',
    root: 'CreditNote',
    body: {
      ...BASE,
      type: 'credit_note',
      number: 'CN-18',
      due_date: undefined,
      purchase_order: 'INV-2026-002',
      tax: 21,
      amount_refunded: 50,
    },
    xml: { 'cbc:PrepaidAmount': '50.00', 'cbc:PayableAmount': '69.79' },
  },
  {
    name: 'reverse charge',
    root: 'Invoice',
    body: { ...BASE, tax: 0, e_invoice: { ...E_INVOICE, tax_category: 'AE' } },
    xml: { 'cbc:TaxExemptionReasonCode': 'VATEX-EU-AE', 'cbc:PayableAmount': '99.00' },
  },
  {
    name: 'online payment link and payment terms',
    root: 'Invoice',
    body: {
      ...BASE,
      tax: 21,
      payment_terms: 'Net 30',
      payment_methods: [{ type: 'url', name: 'Pay online', url: 'https://pay.example.com/inv/2026-001' }],
    },
    xml: { 'cbc:InstructionNote': 'Pay online: https://pay.example.com/inv/2026-001', 'cbc:PaymentMeansCode': '30' },
  },
  {
    name: 'only the docs/decisions.md §8 minimum: countries, VAT ids, endpoints (no dates, terms or references)',
    root: 'Invoice',
    body: {
      from: 'Nikolaus BV',
      to: 'Foster Moen BV',
      number: 'MIN-1',
      currency: 'EUR',
      tax: 21,
      items: [{ name: 'Service', quantity: 1, unit_cost: 100 }],
      e_invoice: {
        seller: { country: 'BE', vat_id: 'BE0123456749', endpoint: { scheme: '0208', id: '0123456749' } },
        buyer: { country: 'NL', endpoint: { scheme: '0106', id: '12345678' } },
      },
    },
    xml: { 'cbc:BuyerReference': 'MIN-1', 'cbc:PayableAmount': '121.00' },
  },
  {
    name: 'credit note with the minimum',
    root: 'CreditNote',
    body: {
      type: 'credit_note',
      from: 'Nikolaus BV',
      to: 'Foster Moen BV',
      number: 'MIN-CN',
      currency: 'EUR',
      tax: 21,
      items: [{ name: 'Refund', quantity: 1, unit_cost: 10 }],
      e_invoice: {
        seller: { country: 'BE', vat_id: 'BE0123456749', endpoint: { scheme: '0208', id: '0123456749' } },
        buyer: { country: 'NL', endpoint: { scheme: '0106', id: '12345678' } },
      },
    },
    xml: { 'cbc:PayableAmount': '12.10' },
  },
  {
    name: 'no tax, VAT-registered parties (zero rated)',
    root: 'Invoice',
    body: { ...BASE, tax: 0, notes: 'Zero-rated supply', terms: 'Net 30' },
    xml: { 'cbc:TaxAmount': '0.00', 'cbc:PayableAmount': '99.00' },
  },
];

function fatal(failures: Failure[]): string[] {
  return failures.filter((f) => f.flag === 'fatal').map((f) => `${f.id}: ${f.message.slice(0, 160)}`);
}

const summary: string[] = [];

describe('POST /ubl with e_invoice data: XSD, EN 16931 and Peppol BIS 3.0', function () {
  this.timeout(60000);
  let service: TestService;
  before(async function () {
    service = await sharedService();
  });
  after(function () {
    if (summary.length)
      console.log(`      validation summary (case: XSD / EN 16931 fatal / Peppol fatal):\n        ${summary.join('\n        ')}`);
  });

  it(`has at least 12 cases (${CASES.length})`, function () {
    expect(CASES.length).to.be.greaterThanOrEqual(12);
  });

  for (const c of CASES) {
    it(c.name, async function () {
      const res = await post(service, c.body, { path: '/ubl' });
      const xml = await res.text();
      expect(res.status, xml.slice(0, 500)).to.equal(200);
      expect(res.headers.get('content-type')).to.match(/^application\/xml/);
      expect(rootOf(xml)).to.equal(c.root);
      const xsd = xsdErrors(xml, c.root);
      const { en16931, peppol } = standards();
      const en = fatal(en16931.validate(xml));
      const pe = fatal(peppol.validate(xml));
      summary.push(`${c.name}: ${xsd.length === 0 ? 'valid' : 'INVALID'} / ${en.length} / ${pe.length}`);
      expect(xsd, 'XSD').to.deep.equal([]);
      expect(en, 'EN 16931 fatal').to.deep.equal([]);
      expect(pe, 'Peppol fatal').to.deep.equal([]);
      for (const [name, value] of Object.entries(c.xml ?? {})) expect(xmlValue(xml, name), name).to.equal(value);

      // The PDF inside is the same document: its text shows the XML's amount due and total.
      const pdf = embeddedPdf(xml);
      expect(isPdf(pdf)).to.equal(true);
      const text = pdfFlatText(pdf);
      const currency = xmlValue(xml, 'cbc:DocumentCurrencyCode')!;
      const fmt = (v: string) =>
        new Intl.NumberFormat('en-US', { style: 'currency', currency, minimumFractionDigits: currency === 'JPY' ? 0 : 2 }).format(
          v as unknown as number,
        );
      expect(text).to.contain(fmt(xmlValue(xml, 'cbc:PayableAmount')!));
      expect(text).to.contain(fmt(xmlValue(xml, 'cbc:TaxInclusiveAmount')!));
    });
  }
});

describe('the business rules catch broken e-invoices (so that passing them means something)', function () {
  this.timeout(60000);

  it('a wrong amount due fails EN 16931 (BR-CO-16); no buyer or order reference fails Peppol (R003)', async function () {
    const service = await sharedService();
    const res = await post(service, { ...BASE, tax: 21, purchase_order: undefined }, { path: '/ubl' });
    const xml = await res.text();
    expect(res.status).to.equal(200);
    const { en16931, peppol } = standards();
    expect(fatal(en16931.validate(xml))).to.deep.equal([]);
    const wrongTotal = xml.replace(/(<cbc:PayableAmount currencyID="EUR">)[^<]+/, '$1999.99');
    expect(wrongTotal).not.to.equal(xml);
    expect(fatal(en16931.validate(wrongTotal)).join('\n')).to.match(/BR-CO-16/);
    const noReference = xml
      .replace(/<cbc:BuyerReference>[^<]*<\/cbc:BuyerReference>/, '')
      .replace(/<cac:OrderReference>[\s\S]*?<\/cac:OrderReference>/, '');
    expect(noReference).not.to.equal(xml);
    expect(fatal(peppol.validate(noReference)).join('\n')).to.match(/R003/);
  });
});

describe('POST /ubl with free-text parties only: always XSD-valid', function () {
  this.timeout(60000);
  const bodies: [string, Record<string, unknown>][] = [
    ['minimal invoice', { from: 'A', to: 'B', number: 1, items: [{ name: 'x' }] }],
    [
      'markup and odd characters',
      {
        from: 'Smith & <Sons> "Ltd"\n1 Road',
        to: "O'Brien ]]> & Co",
        number: 'A&B/1',
        notes: '<script>x</script>',
        items: [{ name: '<b>bold</b> & more', quantity: 1, unit_cost: 1 }],
      },
    ],
    [
      'unicode names',
      {
        from: 'บริษัท ไทยเทรด จำกัด\nกรุงเทพฯ',
        to: '株式会社さくら商事',
        number: '請求-1',
        currency: 'THB',
        tax: 7,
        items: [{ name: '주식회사 품목', quantity: 2, unit_cost: 10 }],
      },
    ],
    [
      'receipt without structure',
      {
        type: 'receipt',
        from: 'Shop',
        to: 'Customer',
        number: 'R-1',
        amount_paid: 5,
        payment_terms: 'Cash',
        items: [{ name: 'x', unit_cost: 5 }],
      },
    ],
    [
      'credit note without structure',
      { type: 'credit_note', from: 'Shop', to: 'Customer', number: 'C-1', purchase_order: 'I-1', items: [{ name: 'x', unit_cost: 5 }] },
    ],
    [
      'KWD, three decimals',
      { from: 'A', to: 'B', number: 2, currency: 'KWD', tax: 5, items: [{ name: 'x', quantity: 3, unit_cost: 12.345 }] },
    ],
    [
      'flat everything and amount paid',
      {
        from: 'A\nVAT: DE123456789',
        to: 'B',
        number: 3,
        fields: { tax: true, discounts: true, shipping: true },
        tax: 3,
        discounts: 2,
        shipping: 4,
        amount_paid: 1,
        items: [{ name: 'x', quantity: 2, unit_cost: 10 }],
      },
    ],
    [
      'many lines',
      {
        from: 'A',
        to: 'B',
        number: 4,
        tax: 10,
        items: Array.from({ length: 200 }, (_, i) => ({ name: `Line ${i}`, quantity: i % 5, unit_cost: i / 7 })),
      },
    ],
  ];
  for (const [name, body] of bodies) {
    it(name, async function () {
      const service = await sharedService();
      const res = await post(service, body, { path: '/ubl' });
      const xml = await res.text();
      expect(res.status, xml.slice(0, 300)).to.equal(200);
      expect(xsdErrors(xml, rootOf(xml))).to.deep.equal([]);
      expect(isPdf(embeddedPdf(xml))).to.equal(true);
    });
  }

  it('the published e-invoice example', async function () {
    const service = await sharedService();
    // (also run by the examples test; here its XML is checked against the XSD too)
    const body =
      'from=Nikolaus Ltd%0AVAT ID: 1234&to=Foster Moen%0AVAT ID: 4567&number=1&date=Feb 9, 2015&due_date=Mar 9, 2015&payment_terms=NET 30&items[0][name]=Starter Plan Monthly&items[0][quantity]=1&items[0][unit_cost]=99&tax_title=VAT&fields[tax]=%&tax=8';
    const res = await post(service, body, { path: '/ubl' });
    const xml = await res.text();
    expect(res.status).to.equal(200);
    expect(xsdErrors(xml, 'Invoice')).to.deep.equal([]);
    expect(xml).to.contain('<cbc:IssueDate>2015-02-09</cbc:IssueDate>');
    expect(xml).to.contain('<cbc:DueDate>2015-03-09</cbc:DueDate>');
    expect(xmlValue(xml, 'cbc:PayableAmount')).to.equal('106.92');
  });
});

describe('POST /ubl rejects what it cannot express, naming the field', function () {
  const cases: [string, Record<string, unknown>, string, string?][] = [
    ['impossible date', { ...BASE, date: '31/31/2024' }, 'date'],
    ['unreadable due date', { ...BASE, due_date: 'next Tuesday' }, 'due_date'],
    ['February 30', { ...BASE, date: '2026-02-30' }, 'date'],
    ['a quote', { ...BASE, type: 'quote' }, 'type', 'not quote'],
    ['a statement', { ...BASE, type: 'statement' }, 'type', 'not statement'],
    ['no number', { ...BASE, number: undefined }, 'number'],
    [
      'unknown seller country',
      { ...BASE, e_invoice: { ...E_INVOICE, seller: { ...E_INVOICE.seller, country: 'XX' } } },
      'e_invoice.seller.country',
    ],
    [
      'VAT id without a country prefix',
      { ...BASE, e_invoice: { ...E_INVOICE, buyer: { ...E_INVOICE.buyer, vat_id: '123' } } },
      'e_invoice.buyer.vat_id',
    ],
    [
      'endpoint without an id',
      { ...BASE, e_invoice: { ...E_INVOICE, seller: { ...E_INVOICE.seller, endpoint: { scheme: '0208' } } } },
      'e_invoice.seller.endpoint.id',
    ],
    [
      'endpoint scheme not an EAS code',
      { ...BASE, e_invoice: { ...E_INVOICE, seller: { ...E_INVOICE.seller, endpoint: { scheme: 'GLN', id: '1' } } } },
      'e_invoice.seller.endpoint.scheme',
    ],
    ['unknown tax category', { ...BASE, e_invoice: { ...E_INVOICE, tax_category: 'Q' } }, 'e_invoice.tax_category'],
    ['bad IBAN', { ...BASE, e_invoice: { ...E_INVOICE, payment_means: { iban: 'not an iban' } } }, 'e_invoice.payment_means.iban'],
    ['e_invoice is a string', { ...BASE, e_invoice: 'yes' }, 'e_invoice'],
    ['standard rate without tax', { ...BASE, tax: 0, e_invoice: { ...E_INVOICE, tax_category: 'S' } }, 'e_invoice.tax_category'],
    [
      'exempt with tax',
      { ...BASE, tax: 21, e_invoice: { ...E_INVOICE, tax_category: 'E', tax_exemption_reason: 'x' } },
      'e_invoice.tax_category',
    ],
    ['exempt without a reason', { ...BASE, tax: 0, e_invoice: { ...E_INVOICE, tax_category: 'E' } }, 'e_invoice.tax_exemption_reason'],
    ['flat tax on nothing', { ...BASE, fields: { tax: true }, tax: 5, items: [{ name: 'free', unit_cost: 0 }] }, 'tax'],
  ];
  for (const [name, body, field, words] of cases) {
    it(`${name} → 400 naming ${field}`, async function () {
      const service = await sharedService();
      const res = await post(service, body, { path: '/ubl' });
      const json = (await res.json()) as { error: string; details?: { field: string }[] };
      expect(res.status, JSON.stringify(json)).to.equal(400);
      // The type error is worded as docs/decisions.md §6 has it; every other message names its field.
      if (field !== 'type') expect(json.error).to.contain(field);
      if (words) expect(json.error).to.contain(words);
      expect((json.details ?? []).map((d) => d.field)).to.include(field);
    });
  }

  it('numeric dates are read by the locale: en-US month first, others day first', async function () {
    const service = await sharedService();
    const us = await (
      await post(service, { ...BASE, date: '03/06/2026', due_date: undefined }, { path: '/ubl', headers: { 'accept-language': 'en-US' } })
    ).text();
    expect(us).to.contain('<cbc:IssueDate>2026-03-06</cbc:IssueDate>');
    const fr = await (
      await post(service, { ...BASE, date: '03/06/2026', due_date: undefined }, { path: '/ubl', headers: { 'accept-language': 'fr-FR' } })
    ).text();
    expect(fr).to.contain('<cbc:IssueDate>2026-06-03</cbc:IssueDate>');
  });
});
