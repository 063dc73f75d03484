// Every business term of EN 16931, group by group: a request that sets each BT of a BG, sent to /ubl and /cii, and
// each value read back at its place by KoSIT's official mapping of the syntax into the semantic model
// (test/helpers/semantic.ts: where a term is read from is the norm's syntax binding). Every output is XSD-valid with
// 0 fatal under the rule sets of its profile (EN 16931 for both syntaxes, Peppol BIS 3.0 for /ubl's default profile).
import { expect } from 'chai';
import { loadConfig } from '../../server/config';
import { rules } from '../helpers/schematron';
import { comparable, semanticModel, termValues } from '../helpers/semantic';
import { post, sharedService, type TestService } from '../helpers/service';
import { rootOf, xmllintErrors, xsdErrors } from '../helpers/ubl';
import { BUYER, SELLER } from '../helpers/e-invoice-request';

const BASE = {
  from: 'Nikolaus BV',
  to: 'Foster Moen BV',
  number: 'INV-2026-001',
  date: '2026-11-02',
  due_date: '2026-12-02',
  currency: 'EUR',
  tax: 21,
  items: [{ name: 'Consulting', quantity: 2, unit_cost: 150 }],
};

interface Case {
  group: string;
  body: Record<string, unknown>;
  e_invoice?: Record<string, unknown>;
  /** `path=value`: the value KoSIT's mapping reads at that path of the semantic model. */
  terms: string[];
  /** UBL's terms where they differ from CII's (the syntax binds a term differently). */
  ubl?: string[];
}

const CASES: Case[] = [
  {
    group: 'BG-0 document (BT-1 … BT-24 without BT-6, BT-8)',
    body: { tax_point_date: '2026-10-31', purchase_order: 'PO-77' },
    e_invoice: {
      buyer_reference: 'REF-9',
      project_reference: 'PRJ-1',
      contract_reference: 'CT-2',
      sales_order_reference: 'SO-3',
      receiving_advice: 'RA-4',
      despatch_advice: 'DA-5',
      tender_reference: 'LOT-6',
      invoiced_object: { id: 'METER-7', scheme: 'AAB' },
      buyer_accounting_reference: 'ACC-8',
      business_process: 'urn:fdc:peppol.eu:2017:poacc:billing:01:1.0',
    },
    terms: [
      'BT-1=INV-2026-001',
      'BT-2=2026-11-02',
      'BT-3=380',
      'BT-5=EUR',
      'BT-7=2026-10-31',
      'BT-9=2026-12-02',
      'BT-10=REF-9',
      'BT-11=PRJ-1',
      'BT-12=CT-2',
      'BT-13=PO-77',
      'BT-14=SO-3',
      'BT-15=RA-4',
      'BT-16=DA-5',
      'BT-17=LOT-6',
      'BT-18=METER-7',
      'ubl:BT-18@scheme_identifier=AAB',
      // KoSIT's CII mapping reads BT-18-1 and BT-128-1 only from a schemeID attribute; the CII binding puts them in
      // ram:ReferenceTypeCode, where the test reads them.
      'cii:xml:<ram:IssuerAssignedID>METER-7</ram:IssuerAssignedID><ram:TypeCode>130</ram:TypeCode><ram:ReferenceTypeCode>AAB</ram:ReferenceTypeCode>',
      'BT-19=ACC-8',
      'BG-2 > BT-23=urn:fdc:peppol.eu:2017:poacc:billing:01:1.0',
    ],
  },
  {
    group: 'BT-8 VAT point date code, BG-14 invoicing period',
    body: { invoice_period: { start: '2026-10-01', end: '2026-10-31' } },
    e_invoice: { vat_point_date_code: '35' },
    terms: ['BG-14 > BT-73=2026-10-01', 'BG-14 > BT-74=2026-10-31'],
  },
  {
    group: 'BG-1 invoice notes (BT-21, BT-22)',
    body: { notes: 'Thank you.' },
    e_invoice: { notes: [{ subject_code: 'AAI', text: 'General information' }] },
    terms: ['BG-1 > BT-22=Thank you.', 'BG-1 > BT-21=AAI', 'BG-1 > BT-22=General information'],
    // Peppol BIS allows one note (PEPPOL-EN16931-R002): both in one, the subject code as the norm's `#code#` prefix
    // (BR-CL-08 checks it); KoSIT's mapping reads a code only from a note of its own (XRechnung's convention).
    ubl: ['BG-1 > BT-22=Thank you.\n\n#AAI#General information'],
  },
  {
    group: 'BG-3 preceding invoices (BT-25, BT-26)',
    body: { preceding_invoices: [{ number: 'INV-2026-000', date: '2026-10-02' }] },
    terms: ['BG-3 > BT-25=INV-2026-000', 'BG-3 > BT-26=2026-10-02'],
  },
  {
    group: 'BG-4 seller, BG-5 its address, BG-6 its contact (BT-27 … BT-43)',
    body: {},
    e_invoice: {
      seller: {
        ...SELLER,
        name: 'Nikolaus BV',
        trading_name: 'Nikolaus Design',
        identifiers: [{ id: '5790000435975', scheme: '0088' }],
        company_id_scheme: '0208',
        tax_registration_id: 'TAX-123',
        legal_info: 'Share capital EUR 18,600',
        additional_street: 'Box 4',
        address_line_3: 'Building C',
        region: 'Brussels-Capital',
        contact_name: 'Jana Berger',
        phone: '+32 2 123 45 67',
      },
    },
    terms: [
      'BG-4 > BT-27=Nikolaus BV',
      'BG-4 > BT-28=Nikolaus Design',
      'BG-4 > BT-29=5790000435975',
      'BG-4 > BT-29@scheme_identifier=0088',
      'BG-4 > BT-30=0123456749',
      'BG-4 > BT-30@scheme_identifier=0208',
      'BG-4 > BT-31=BE0123456749',
      'BG-4 > BT-32=TAX-123',
      'BG-4 > BT-33=Share capital EUR 18,600',
      'BG-4 > BT-34=0123456749',
      'BG-4 > BT-34@scheme_identifier=0208',
      'BG-4 > BG-5 > BT-35=Rue Neuve 1',
      'BG-4 > BG-5 > BT-36=Box 4',
      'BG-4 > BG-5 > BT-162=Building C',
      'BG-4 > BG-5 > BT-37=Brussels',
      'BG-4 > BG-5 > BT-38=1000',
      'BG-4 > BG-5 > BT-39=Brussels-Capital',
      'BG-4 > BG-5 > BT-40=BE',
      'BG-4 > BG-6 > BT-41=Jana Berger',
      'BG-4 > BG-6 > BT-42=+32 2 123 45 67',
      'BG-4 > BG-6 > BT-43=billing@example.be',
    ],
  },
  {
    group: 'BG-7 buyer, BG-8 its address, BG-9 its contact (BT-44 … BT-58, BT-163)',
    body: {},
    e_invoice: {
      buyer: {
        ...BUYER,
        name: 'Foster Moen BV',
        trading_name: 'Foster',
        identifiers: [{ id: '4000001123452', scheme: '0088' }],
        company_id: '12345678',
        company_id_scheme: '0106',
        additional_street: 'Floor 2',
        address_line_3: 'Unit 9',
        region: 'Utrecht',
        contact_name: 'Piet Moen',
        phone: '+31 30 123 4567',
        email: 'ap@foster.example',
      },
    },
    terms: [
      'BG-7 > BT-44=Foster Moen BV',
      'BG-7 > BT-45=Foster',
      'BG-7 > BT-46=4000001123452',
      'BG-7 > BT-46@scheme_identifier=0088',
      'BG-7 > BT-47=12345678',
      'BG-7 > BT-47@scheme_identifier=0106',
      'BG-7 > BT-48=NL123456789B01',
      'BG-7 > BT-49=12345678',
      'BG-7 > BG-8 > BT-50=Oudegracht 10',
      'BG-7 > BG-8 > BT-51=Floor 2',
      'BG-7 > BG-8 > BT-163=Unit 9',
      'BG-7 > BG-8 > BT-52=Utrecht',
      'BG-7 > BG-8 > BT-53=3511',
      'BG-7 > BG-8 > BT-54=Utrecht',
      'BG-7 > BG-8 > BT-55=NL',
      'BG-7 > BG-9 > BT-56=Piet Moen',
      'BG-7 > BG-9 > BT-57=+31 30 123 4567',
      'BG-7 > BG-9 > BT-58=ap@foster.example',
    ],
  },
  {
    group: 'BG-10 payee (BT-59 … BT-61)',
    body: {},
    e_invoice: {
      payee: { name: 'Factor NV', id: '5412345000013', id_scheme: '0088', company_id: '0403019261', company_id_scheme: '0208' },
    },
    terms: [
      'BG-10 > BT-59=Factor NV',
      'BG-10 > BT-60=5412345000013',
      'BG-10 > BT-60@scheme_identifier=0088',
      'BG-10 > BT-61=0403019261',
      'BG-10 > BT-61@scheme_identifier=0208',
    ],
  },
  {
    group: 'BG-11 tax representative, BG-12 its address (BT-62 … BT-69, BT-164)',
    body: {},
    e_invoice: {
      tax_representative: {
        name: 'Tax Rep BV',
        vat_id: 'NL987654321B01',
        street: 'Kade 1',
        additional_street: 'Suite 5',
        address_line_3: 'Wing A',
        city: 'Rotterdam',
        postal_code: '3011',
        region: 'Zuid-Holland',
        country: 'NL',
      },
    },
    terms: [
      'BG-11 > BT-62=Tax Rep BV',
      'BG-11 > BT-63=NL987654321B01',
      'BG-11 > BG-12 > BT-64=Kade 1',
      'BG-11 > BG-12 > BT-65=Suite 5',
      'BG-11 > BG-12 > BT-164=Wing A',
      'BG-11 > BG-12 > BT-66=Rotterdam',
      'BG-11 > BG-12 > BT-67=3011',
      'BG-11 > BG-12 > BT-68=Zuid-Holland',
      'BG-11 > BG-12 > BT-69=NL',
    ],
  },
  {
    group: 'BG-13 delivery, BG-15 its address (BT-70 … BT-80, BT-165)',
    body: { delivery_date: '2026-10-30' },
    e_invoice: {
      delivery: {
        name: 'Warehouse 3',
        location_id: '5412345000020',
        location_id_scheme: '0088',
        street: 'Dock 4',
        additional_street: 'Gate B',
        address_line_3: 'Bay 12',
        city: 'Antwerp',
        postal_code: '2000',
        region: 'Antwerp',
        country: 'BE',
      },
    },
    terms: [
      'BG-13 > BT-70=Warehouse 3',
      'BG-13 > BT-71=5412345000020',
      'BG-13 > BT-71@scheme_identifier=0088',
      'BG-13 > BT-72=2026-10-30',
      'BG-13 > BG-15 > BT-75=Dock 4',
      'BG-13 > BG-15 > BT-76=Gate B',
      'BG-13 > BG-15 > BT-165=Bay 12',
      'BG-13 > BG-15 > BT-77=Antwerp',
      'BG-13 > BG-15 > BT-78=2000',
      'BG-13 > BG-15 > BT-79=Antwerp',
      'BG-13 > BG-15 > BT-80=BE',
    ],
  },
  {
    group: 'BG-16 payment instructions, BG-17 credit transfer (BT-81 … BT-86, BT-20)',
    body: { payment_terms: 'Net 30 days' },
    e_invoice: {
      payment_means: {
        code: '58',
        text: 'SEPA credit transfer',
        payment_id: 'RF18539007547034',
        iban: 'BE71096123456769',
        account_name: 'Nikolaus BV',
        bic: 'GKCCBEBB',
      },
    },
    terms: [
      'BT-20=Net 30 days',
      'BG-16 > BT-81=58',
      'BG-16 > BT-82=SEPA credit transfer',
      'BG-16 > BT-83=RF18539007547034',
      'BG-16 > BG-17 > BT-84=BE71096123456769',
      'BG-16 > BG-17 > BT-85=Nikolaus BV',
      'BG-16 > BG-17 > BT-86=GKCCBEBB',
    ],
  },
  {
    group: 'BG-17 repeated: a second account under the same payment means',
    body: {},
    e_invoice: {
      payment_means: {
        code: '30',
        iban: 'BE71096123456769',
        additional_accounts: [{ iban: 'nl91 abna 0417 1643 00', account_name: 'Nikolaus NL', bic: 'ABNANL2A' }],
      },
    },
    terms: [
      'BG-16 > BG-17 > BT-84=BE71096123456769',
      'BG-16 > BG-17 > BT-84=NL91ABNA0417164300',
      'BG-16 > BG-17 > BT-85=Nikolaus NL',
      'BG-16 > BG-17 > BT-86=ABNANL2A',
    ],
  },
  {
    group: 'BG-18 payment card (BT-87, BT-88)',
    body: {},
    e_invoice: { payment_means: { code: '48', card: { number: '1234', holder: 'J. Berger' } } },
    terms: ['BG-16 > BT-81=48', 'BG-16 > BG-18 > BT-87=1234', 'BG-16 > BG-18 > BT-88=J. Berger'],
  },
  {
    group: 'BG-19 direct debit (BT-89 … BT-91)',
    body: {},
    e_invoice: {
      payment_means: {
        code: '59',
        direct_debit: { mandate_reference: 'MANDATE-1', creditor_id: 'BE69ZZZ050D000000008', debited_account: 'NL91ABNA0417164300' },
      },
    },
    terms: [
      'BG-16 > BT-81=59',
      'BG-16 > BG-19 > BT-89=MANDATE-1',
      'BG-16 > BG-19 > BT-90=BE69ZZZ050D000000008',
      'BG-16 > BG-19 > BT-91=NL91ABNA0417164300',
    ],
  },
  {
    group: 'BG-20 document allowances, BG-21 document charges (BT-92 … BT-105)',
    body: {},
    e_invoice: {
      allowances: [{ percent: 10, base_amount: 200, reason: 'Loyalty', reason_code: '95', tax_category: 'S', tax_rate: 21 }],
      charges: [{ amount: 15, reason: 'Packing', reason_code: 'ABL', tax_category: 'S', tax_rate: 21 }],
    },
    terms: [
      'BG-20 > BT-92=20',
      'BG-20 > BT-93=200',
      'BG-20 > BT-94=10',
      'BG-20 > BT-95=S',
      'BG-20 > BT-96=21',
      'BG-20 > BT-97=Loyalty',
      'BG-20 > BT-98=95',
      'BG-21 > BT-99=15',
      'BG-21 > BT-102=S',
      'BG-21 > BT-103=21',
      'BG-21 > BT-104=Packing',
      'BG-21 > BT-105=ABL',
      'BG-22 > BT-107=20',
      'BG-22 > BT-108=15',
    ],
  },
  {
    group: 'BG-22 totals with BT-6 and BT-111 (tax currency), BT-113 (paid) and BT-114 (rounding)',
    body: { amount_paid: 50 },
    e_invoice: { tax_currency: { code: 'DKK', exchange_rate: 7.4604 }, rounding_amount: 0.01 },
    terms: [
      'BT-6=DKK',
      'BG-22 > BT-106=300',
      'BG-22 > BT-109=300',
      'BG-22 > BT-110=63',
      'BG-22 > BT-111=470.01',
      'BG-22 > BT-112=363',
      'BG-22 > BT-113=50',
      'BG-22 > BT-114=0.01',
      'BG-22 > BT-115=313.01',
    ],
  },
  {
    group: 'BG-27 line allowances, BG-28 line charges (BT-136 … BT-145)',
    body: {
      items: [
        {
          name: 'Consulting',
          quantity: 2,
          unit_cost: 150,
          allowances: [{ percent: 10, reason: 'Early bird', reason_code: '95' }],
          charges: [{ amount: 5, reason: 'Handling', reason_code: 'HD' }],
        },
      ],
    },
    terms: [
      'BG-25 > BT-131=275',
      'BG-25 > BG-27 > BT-136=30',
      'BG-25 > BG-27 > BT-137=300',
      'BG-25 > BG-27 > BT-138=10',
      'BG-25 > BG-27 > BT-139=Early bird',
      'BG-25 > BG-27 > BT-140=95',
      'BG-25 > BG-28 > BT-141=5',
      'BG-25 > BG-28 > BT-144=Handling',
      'BG-25 > BG-28 > BT-145=HD',
    ],
  },
  {
    group: 'BG-23 VAT breakdown with an exemption reason per category (BT-116 … BT-121)',
    body: { tax: 0 },
    e_invoice: { tax_category: 'E', tax_exemptions: [{ category: 'E', reason: 'Exempt under Article 132', reason_code: 'VATEX-EU-132' }] },
    terms: [
      'BG-23 > BT-116=300',
      'BG-23 > BT-117=0',
      'BG-23 > BT-118=E',
      'BG-23 > BT-119=0',
      'BG-23 > BT-120=Exempt under Article 132',
      'BG-23 > BT-121=VATEX-EU-132',
    ],
  },
  {
    group: 'BG-24 supporting documents (BT-122 … BT-125)',
    body: {},
    e_invoice: {
      embed_pdf: false,
      attachments: [
        {
          id: 'TS-1',
          description: 'Timesheet',
          url: 'https://example.com/ts/1',
        },
        {
          id: 'TS-2',
          description: 'Hours',
          content: Buffer.from('day;hours\n1;8\n').toString('base64'),
          mime_type: 'text/csv',
          filename: 'hours.csv',
        },
      ],
    },
    terms: [
      'BG-24 > BT-122=TS-1',
      'BG-24 > BT-123=Timesheet',
      'BG-24 > BT-124=https://example.com/ts/1',
      'BG-24 > BT-122=TS-2',
      'BG-24 > BT-125@mime_code=text/csv',
      'BG-24 > BT-125@filename=hours.csv',
    ],
  },
  {
    group: 'BT-124 an external document at an address of non-ASCII letters (an IRI), carried in ASCII',
    body: {},
    e_invoice: { embed_pdf: false, attachments: [{ id: 'TS-3', description: 'Belege', url: 'https://bücher.de/belege/für-1' }] },
    terms: ['BG-24 > BT-122=TS-3', 'BG-24 > BT-124=https://xn--bcher-kva.de/belege/f%C3%BCr-1'],
  },
  {
    group: 'BG-25 … BG-32 a line with every term but its allowances and charges',
    body: {
      items: [
        {
          line_id: 'A-1',
          name: 'Espresso beans',
          description: 'Single origin, 1 kg bags',
          quantity: 12,
          unit: 'KGM',
          unit_cost: 18.5,
          gross_price: 20,
          price_base_quantity: 1,
          note: 'Roasted to order',
          object_id: { id: 'SUB-2026-7', scheme: 'AAB' },
          order_line_reference: '3',
          accounting_reference: 'COGS-4010',
          period: { start: '2026-10-01', end: '2026-10-31' },
          seller_item_id: 'ESP-1KG',
          buyer_item_id: 'B-77',
          standard_item_id: { id: '4012345678901', scheme: '0160' },
          classifications: [{ id: '09012100', scheme: 'HS', version: '2022' }],
          origin_country: 'ET',
          attributes: [{ name: 'Roast', value: 'Medium' }],
        },
      ],
    },
    terms: [
      'BG-25 > BT-126=A-1',
      'BG-25 > BT-127=Roasted to order',
      'BG-25 > BT-128=SUB-2026-7',
      'ubl:BG-25 > BT-128@scheme_identifier=AAB',
      'cii:xml:<ram:IssuerAssignedID>SUB-2026-7</ram:IssuerAssignedID><ram:TypeCode>130</ram:TypeCode><ram:ReferenceTypeCode>AAB</ram:ReferenceTypeCode>',
      'BG-25 > BT-129=12',
      'BG-25 > BT-130=KGM',
      'BG-25 > BT-131=222',
      'BG-25 > BT-132=3',
      'BG-25 > BT-133=COGS-4010',
      'BG-25 > BG-26 > BT-134=2026-10-01',
      'BG-25 > BG-26 > BT-135=2026-10-31',
      'BG-25 > BG-29 > BT-146=18.5',
      'BG-25 > BG-29 > BT-147=1.5',
      'BG-25 > BG-29 > BT-148=20',
      'BG-25 > BG-29 > BT-149=1',
      'BG-25 > BG-29 > BT-150=KGM',
      'BG-25 > BG-30 > BT-151=S',
      'BG-25 > BG-30 > BT-152=21',
      'BG-25 > BG-31 > BT-153=Espresso beans',
      'BG-25 > BG-31 > BT-154=Single origin, 1 kg bags',
      'BG-25 > BG-31 > BT-155=ESP-1KG',
      'BG-25 > BG-31 > BT-156=B-77',
      'BG-25 > BG-31 > BT-157=4012345678901',
      'BG-25 > BG-31 > BT-157@scheme_identifier=0160',
      'BG-25 > BG-31 > BT-158=09012100',
      'BG-25 > BG-31 > BT-158@scheme_identifier=HS',
      'BG-25 > BG-31 > BT-158@scheme_version_identifier=2022',
      'BG-25 > BG-31 > BT-159=ET',
      'BG-25 > BG-31 > BG-32 > BT-160=Roast',
      'BG-25 > BG-31 > BG-32 > BT-161=Medium',
    ],
  },
];

/** The terms `terms` lists that the model does not hold at their place. A term marked `ubl:` or `cii:` is checked in
 * that syntax only; `xml:` is a text the XML must hold. */
function missing(xml: string, all: string[]): string[] {
  const model = semanticModel(xml);
  const syntax = xml.includes('CrossIndustryInvoice') ? 'cii:' : 'ubl:';
  const terms = all.filter((t) => !/^(ubl|cii):/.test(t) || t.startsWith(syntax)).map((t) => (t.startsWith(syntax) ? t.slice(4) : t));
  return terms.filter((t) => {
    if (t.startsWith('xml:')) return !xml.includes(t.slice(4));
    const at = t.indexOf('=');
    return !termValues(model, t.slice(0, at))
      .map(comparable)
      .includes(comparable(t.slice(at + 1)));
  });
}

const SYNTAXES = [
  { route: '/ubl', rules: ['en16931', 'peppol'] as const, schema: (xml: string) => xsdErrors(xml, rootOf(xml)) },
  { route: '/cii', rules: ['en16931Cii'] as const, schema: (xml: string) => xmllintErrors(xml, loadConfig({}).ciiXsdFile) },
];

describe('every EN 16931 business term, read back at its place in UBL and CII', function () {
  this.timeout(60000);
  let service: TestService;
  before(async () => (service = await sharedService()));

  for (const c of CASES) {
    for (const s of SYNTAXES) {
      it(`${c.group}: ${s.route.slice(1).toUpperCase()}`, async function () {
        const body = {
          ...BASE,
          ...c.body,
          e_invoice: { seller: SELLER, buyer: BUYER, ...(s.route === '/ubl' ? { embed_pdf: false } : {}), ...c.e_invoice },
        };
        const res = await post(service, body, { path: s.route });
        const xml = await res.text();
        expect(res.status, xml.slice(0, 600)).to.equal(200);
        const terms = s.route === '/ubl' ? (c.ubl ?? c.terms) : c.terms;
        expect(missing(xml, terms), 'terms not read back at their place').to.deep.equal([]);
        expect(s.schema(xml)).to.deep.equal([]);
        for (const set of s.rules) {
          const fatal = rules(set)
            .validate(xml)
            .filter((f) => f.flag === 'fatal');
          expect(fatal, set).to.deep.equal([]);
        }
      });
    }
  }
});

/** The cases one document can hold together: one payment means, no BT-8 beside BT-7, a standard-rated document, one
 * list of attachments (BG-24's; the IRI case's would replace it). */
const TOGETHER = CASES.filter(
  (c) => !['BT-8', 'BG-17', 'BG-18', 'BG-19', 'BG-20', 'BG-22', 'BG-23', 'BG-27', 'BT-124'].some((g) => c.group.startsWith(g)),
);

/** Every group at once, for XRechnung. */
function everything(): Record<string, unknown> {
  const chosen = TOGETHER;
  const body: Record<string, unknown> = { ...BASE };
  const e: Record<string, unknown> = {};
  for (const c of chosen) {
    Object.assign(body, c.body);
    for (const [k, v] of Object.entries(c.e_invoice ?? {})) {
      e[k] = k === 'seller' || k === 'buyer' ? { ...(e[k] as object), ...(v as object) } : v;
    }
  }
  const seller = { ...SELLER, ...(e.seller as object) };
  return { ...body, e_invoice: { ...e, seller, buyer: { ...BUYER, ...(e.buyer as object) }, profile: 'xrechnung' } };
}

describe('every EN 16931 business term in one XRechnung', function () {
  this.timeout(60000);
  let service: TestService;
  before(async () => (service = await sharedService()));

  for (const s of SYNTAXES) {
    it(`${s.route.slice(1).toUpperCase()}: every term read back, 0 fatal under EN 16931 and XRechnung 3.0`, async function () {
      const res = await post(service, everything(), { path: s.route });
      const xml = await res.text();
      expect(res.status, xml.slice(0, 600)).to.equal(200);
      // XRechnung keeps notes apart (only Peppol has one); in UBL a subject code is its text's `#code#` prefix.
      const ublNotes = ['BG-1 > BT-22=Thank you.', 'BG-1 > BT-22=#AAI#General information'];
      const terms = TOGETHER.flatMap((c) =>
        s.route === '/ubl' && c.group.startsWith('BG-1 ') ? ublNotes : c.terms.filter((t) => !t.startsWith('BG-2 >')),
      );
      expect(missing(xml, terms), 'terms not read back at their place').to.deep.equal([]);
      expect(s.schema(xml)).to.deep.equal([]);
      for (const set of [s.route === '/ubl' ? 'en16931' : 'en16931Cii', s.route === '/ubl' ? 'xrechnungUbl' : 'xrechnungCii'] as const) {
        const fatal = rules(set)
          .validate(xml)
          .filter((f) => f.flag === 'fatal');
        expect(fatal, set).to.deep.equal([]);
      }
    });
  }
});

describe('EN 16931 rules between fields, refused before anything is written', function () {
  this.timeout(60000);
  let service: TestService;
  before(async () => (service = await sharedService()));

  const refused: [string, Record<string, unknown>, string][] = [
    [
      'a delivery address without its country (BR-57)',
      { delivery: { name: 'Dock', street: 'Kade 1', city: 'Antwerp' } },
      'e_invoice.delivery.country',
    ],
    ['a credit transfer without an account (BR-61)', { payment_means: { code: '58' } }, 'e_invoice.payment_means.iban'],
    ['a VAT point date and its code together (BR-CO-3)', { vat_point_date_code: '3' }, 'e_invoice.vat_point_date_code'],
    [
      'an attachment without its MIME code (BT-125)',
      { attachments: [{ id: 'A', content: 'QUJD', filename: 'a.pdf' }] },
      'e_invoice.attachments[0]',
    ],
    ['a unit that is not a Rec 20 code', {}, 'items[0].unit'],
    [
      "the seller's legal information sent for the buyer (BT-33)",
      { buyer: { ...BUYER, legal_info: 'Capital 1 EUR' } },
      'e_invoice.buyer.legal_info',
    ],
    [
      'two buyer identifiers (BT-46 is one)',
      { buyer: { ...BUYER, identifiers: [{ id: 'A' }, { id: 'B' }] } },
      'e_invoice.buyer.identifiers',
    ],
    ['a period that ends before it starts (BR-29)', {}, 'invoice_period.end'],
    ['a gross price below the price (a negative price discount, BT-147)', {}, 'items[0].gross_price'],
  ];
  for (const [name, e, field] of refused) {
    for (const route of ['/ubl', '/cii']) {
      it(`${name}: ${route} answers 400 naming ${field}`, async function () {
        const body: Record<string, unknown> = { ...BASE, tax_point_date: '2026-11-01', e_invoice: { seller: SELLER, buyer: BUYER, ...e } };
        if (field === 'items[0].unit') body.items = [{ name: 'Beans', quantity: 1, unit_cost: 5, unit: 'KILO' }];
        if (field === 'items[0].gross_price') body.items = [{ name: 'Beans', quantity: 1, unit_cost: 5, gross_price: 4 }];
        if (field === 'invoice_period.end') body.invoice_period = { start: '2026-10-31', end: '2026-10-01' };
        const res = await post(service, body, { path: route });
        const json = (await res.json()) as { details: { field: string; message: string }[] };
        expect(res.status).to.equal(400);
        expect(json.details.map((d) => d.field)).to.include(field);
      });
    }
  }
});

describe('numbers with more decimals than a document can hold', function () {
  this.timeout(60000);
  let service: TestService;
  before(async () => (service = await sharedService()));

  it('are read to 10 decimals: float noise, a 50-decimal gross price and 1e-300 give valid XML (xmllint) with the sent number rounded', async function () {
    for (const s of SYNTAXES) {
      const body = {
        ...BASE,
        items: [
          { name: 'Float noise', quantity: 0.1 + 0.2, unit_cost: 10, gross_price: '10.0000000000000000000000000000000000000000000000001' },
          { name: 'Tiny rate', quantity: 1, unit_cost: 1e-300, tax: 1e-300, price_base_quantity: 1.00000000004 },
        ],
        e_invoice: { seller: SELLER, buyer: BUYER, embed_pdf: false },
      };
      const res = await post(service, body, { path: s.route });
      const xml = await res.text();
      expect(res.status, xml.slice(0, 400)).to.equal(200);
      expect(s.schema(xml), s.route).to.deep.equal([]);
      expect(xml).to.match(/>0\.3</);
      expect(xml).not.to.match(/0\.0{11,}/);
    }
  });
});
