// The e-invoice acceptance matrix's request bodies (test/e2e/e-invoices*.test.ts): realistic invoices, receipts and
// credit notes, each with the outputs and profiles it is sent to and the totals worked out BY HAND from the request
// (never read back from the service), and which rule sets each (syntax, profile) must pass with zero fatal rules.
// Data only: it sends nothing and checks nothing.

export type Output = 'ubl' | 'cii' | 'factur-x';
export type Profile = 'peppol' | 'en16931' | 'xrechnung';
export type RuleSetName = 'en16931' | 'peppol' | 'en16931Cii' | 'xrechnungUbl' | 'xrechnungCii' | 'facturX';

export interface Target {
  output: Output;
  profile: Profile;
}

export interface EInvoiceCase {
  name: string;
  body: Record<string, unknown>;
  targets: Target[];
  /** BT-110 tax total, BT-112 total with VAT, BT-115 amount due, and the VAT rates of the breakdown (BG-23). */
  totals: { tax: string; grandTotal: string; payable: string; rates: string[] };
}

/** The profile each output makes when the request names none (docs/e-invoices.md): peppol for /ubl, en16931 otherwise. */
export const DEFAULT_PROFILE: Record<Output, Profile> = { ubl: 'peppol', cii: 'en16931', 'factur-x': 'en16931' };

/** BT-24 of each profile, as the published specifications spell it. */
export const SPECIFICATION_ID: Record<Profile, string> = {
  peppol: 'urn:cen.eu:en16931:2017#compliant#urn:fdc:peppol.eu:2017:poacc:billing:3.0',
  en16931: 'urn:cen.eu:en16931:2017',
  xrechnung: 'urn:cen.eu:en16931:2017#compliant#urn:xeinkauf.de:kosit:xrechnung_3.0',
};

/** The rule sets that apply to a (syntax, profile): a Peppol or XRechnung document must pass the norm's rules too. */
export function ruleSetsFor({ output, profile }: Target): RuleSetName[] {
  if (output === 'ubl')
    return profile === 'peppol' ? ['en16931', 'peppol'] : profile === 'xrechnung' ? ['en16931', 'xrechnungUbl'] : ['en16931'];
  if (profile === 'xrechnung') return ['en16931Cii', 'xrechnungCii'];
  return output === 'factur-x' ? ['en16931Cii', 'facturX'] : ['en16931Cii'];
}

/** The request for one target: the profile is named only when it is not the output's default, so defaults are tested. */
export function bodyFor(c: EInvoiceCase, t: Target): Record<string, unknown> {
  if (t.profile === DEFAULT_PROFILE[t.output]) return c.body;
  const e = (c.body.e_invoice ?? {}) as Record<string, unknown>;
  return { ...c.body, e_invoice: { ...e, profile: t.profile } };
}

const ALL: Target[] = [
  { output: 'ubl', profile: 'peppol' },
  { output: 'ubl', profile: 'en16931' },
  { output: 'ubl', profile: 'xrechnung' },
  { output: 'cii', profile: 'en16931' },
  { output: 'cii', profile: 'xrechnung' },
  { output: 'factur-x', profile: 'en16931' },
  { output: 'factur-x', profile: 'xrechnung' },
];
const pick = (...keys: string[]): Target[] => ALL.filter((t) => keys.includes(`${t.output}/${t.profile}`));

/** A party both ways: the free text of `from` / `to` (name, street, postcode and city, VAT ID line) and the
 * structured `e_invoice.seller` / `.buyer` (whose address, when given, replaces the free text's). */
function party(name: string, country: string, vatId: string | undefined, street: string, postcode: string, city: string, endpoint: string) {
  const [scheme, id] = endpoint.split(':') as [string, string];
  return {
    text: [name, street, `${postcode} ${city}`, ...(vatId ? [`VAT ID: ${vatId}`] : [])].join('\n'),
    data: { name, country, vat_id: vatId, street, city, postal_code: postcode, endpoint: { scheme, id } },
  };
}
/** The document's number and dates, in euros. */
const head = (number: string, date: string, due_date?: string) => ({ number, date, due_date, currency: 'EUR' });

// A German seller with everything XRechnung asks for (BR-DE-2 … BR-DE-7, an electronic address, a VAT id).
const MUELLER = party('Müller Werkzeugbau GmbH', 'DE', 'DE123456789', 'Hauptstraße 5', '10115', 'Berlin', '9930:DE123456789');
const MUELLER_CONTACT = {
  company_id: 'HRB 123456 B',
  contact_name: 'Anna Schmidt',
  phone: '+49 30 1234567',
  email: 'rechnung@mueller.example.de',
};
const SELLER = { ...MUELLER.data, ...MUELLER_CONTACT };
const SEPA = { code: '58', iban: 'DE02120300000000202051', bic: 'BYLADEM1001', account_name: 'Müller Werkzeugbau GmbH' };
// A German public buyer reached by its Leitweg-ID (EAS 0204), as XRechnung's receivers are; it has no VAT id.
const MUSTERSTADT = party(
  'Stadtverwaltung Musterstadt',
  'DE',
  undefined,
  'Rathausplatz 1',
  '12345',
  'Musterstadt',
  '0204:991-33333TEST-33',
);
// A Dutch supplier (Peppol's NL rules want its street, city and postal code, NL-R-002) and a Belgian company.
const DE_BOON = party('Koffiebranderij De Boon B.V.', 'NL', 'NL123456789B01', 'Oudegracht 10', '3511', 'Utrecht', '0106:12345678');
const NIKOLAUS = party('Nikolaus BV', 'BE', 'BE0123456749', 'Rue Neuve 1', '1000', 'Brussels', '0208:0123456749');

export const CASES: EInvoiceCase[] = [
  {
    // 19 % and 7 % lines; the flat discount and shipping are shared in proportion (largest remainders to the cent):
    // discount 100 → 95.28 / 4.72, shipping 24.90 → 23.72 / 1.18; bases 1938.34 and 96.06; VAT 368.28 + 6.72.
    name: 'German invoice 19/7 % with discount and shipping',
    body: {
      from: MUELLER.text,
      to: MUSTERSTADT.text,
      ...head('RE-2026-0815', '2026-11-02', '2026-12-02'),
      fields: { tax: '%', discounts: true, shipping: true },
      tax: 19,
      discounts: 100,
      shipping: 24.9,
      payment_terms: '30 Tage netto',
      items: [
        { name: 'Wartung CNC-Fräse', description: 'Oktober 2026, 8 Stunden', quantity: 8, unit_cost: 95 },
        { name: 'Ersatzteil Spindel', quantity: 1, unit_cost: 1249.9, tax: 19 },
        { name: 'Fachbuch Zerspanungstechnik', quantity: 2, unit_cost: 49.8, tax: 7 },
      ],
      e_invoice: { seller: SELLER, buyer: MUSTERSTADT.data, buyer_reference: '991-33333TEST-33', payment_means: SEPA },
    },
    targets: ALL,
    totals: { tax: '375.00', grandTotal: '2409.40', payable: '2409.40', rates: ['19', '7'] },
  },
  (() => {
    // 20 %, 5.5 % and an exempt training line (E, with its reason); a 5 % discount: 67.50 / 30.00 / 40.00.
    const seller = party('Éditions Lumière SARL', 'FR', 'FR40303265045', '12 rue de Rivoli', '75001', 'Paris', '0009:30326504500012');
    const buyer = party('Lycée Victor Hugo', 'FR', 'FR23334175221', '8 place Bellecour', '69002', 'Lyon', '0009:33417522100019');
    return {
      name: 'French invoice 20/5.5/0 % exempt with a percent discount',
      body: {
        from: seller.text,
        to: buyer.text,
        ...head('FA-2026-00412', '2026-11-03', '2026-12-03'),
        fields: { tax: '%', discounts: '%' },
        tax: 20,
        discounts: 5,
        items: [
          { name: 'Conseil éditorial', quantity: 3, unit_cost: 450 },
          { name: 'Manuels scolaires', quantity: 48, unit_cost: 12.5, tax: 5.5 },
          { name: 'Formation professionnelle continue', quantity: 1, unit_cost: 800, tax: 0, tax_category: 'E' },
        ],
        e_invoice: {
          seller: { ...seller.data, company_id: '303265045' },
          buyer: buyer.data,
          buyer_reference: 'BC-2026-118',
          tax_exemption_reason: 'Exonération de TVA, article 261-4-4° a du CGI',
          payment_means: { code: '30', iban: 'FR7630006000011234567890189', bic: 'AGRIFRPP' },
        },
      },
      targets: pick('ubl/peppol', 'ubl/en16931', 'cii/en16931', 'factur-x/en16931'),
      totals: { tax: '287.85', grandTotal: '2900.35', payable: '2900.35', rates: ['20', '5.5', '0'] },
    };
  })(),
  (() => {
    const buyer = party('Alpenholz Handels GmbH', 'AT', 'ATU12345678', 'Mariahilfer Straße 20', '1070', 'Wien', '9915:ATU12345678');
    return {
      name: 'reverse charge (AE) from Germany to Austria',
      body: {
        from: MUELLER.text,
        to: buyer.text,
        ...head('RE-2026-0816', '2026-11-04', '2026-12-04'),
        tax: 0,
        notes: 'Steuerschuldnerschaft des Leistungsempfängers (reverse charge).',
        items: [
          { name: 'Montage Produktionslinie', quantity: 40, unit_cost: 85 },
          { name: 'Steuerungsmodul', quantity: 2, unit_cost: 1150 },
        ],
        e_invoice: { seller: SELLER, buyer: buyer.data, buyer_reference: 'AH-4711', tax_category: 'AE', payment_means: SEPA },
      },
      targets: pick('ubl/peppol', 'ubl/xrechnung', 'cii/en16931', 'factur-x/en16931'),
      totals: { tax: '0.00', grandTotal: '5700.00', payable: '5700.00', rates: ['0'] },
    };
  })(),
  {
    // A flat tax of 30.60 on 340.00: stated as the rate that reproduces it, 9 %.
    name: 'flat tax',
    body: {
      from: DE_BOON.text,
      to: NIKOLAUS.text,
      ...head('F-2026-117', '2026-11-05', '2026-11-19'),
      fields: { tax: true },
      tax: 30.6,
      items: [
        { name: 'Koffiebonen 1 kg', quantity: 12, unit_cost: 22.5 },
        { name: 'Thee assortiment', quantity: 4, unit_cost: 17.5 },
      ],
      e_invoice: { seller: DE_BOON.data, buyer: NIKOLAUS.data, payment_means: { code: '30', iban: 'NL91ABNA0417164300' } },
    },
    targets: pick('ubl/peppol', 'ubl/en16931', 'cii/en16931'),
    totals: { tax: '30.60', grandTotal: '370.60', payable: '370.60', rates: ['9'] },
  },
  (() => {
    // Seven figures, an Arabic buyer name, a down payment: 1 975 000 + 19 % = 2 350 250, less 1 000 000 paid.
    const buyer = party('شركة النور للتجارة GmbH', 'DE', 'DE811907980', 'Königsallee 60', '40212', 'Düsseldorf', '9930:DE811907980');
    return {
      name: 'seven-figure invoice to an Arabic-named buyer, amount paid',
      body: {
        from: MUELLER.text,
        to: buyer.text,
        ...head('RE-2026-0900', '2026-11-06', '2026-12-06'),
        tax: 19,
        amount_paid: 1000000,
        items: [
          { name: 'Industrieanlage X-500', quantity: 1, unit_cost: 1850000 },
          { name: 'Inbetriebnahme und Schulung', quantity: 1, unit_cost: 125000 },
        ],
        e_invoice: { seller: SELLER, buyer: buyer.data, buyer_reference: 'NUR-PO-2026-7', payment_means: SEPA },
      },
      targets: pick('ubl/peppol', 'cii/en16931', 'factur-x/en16931'),
      totals: { tax: '375250.00', grandTotal: '2350250.00', payable: '1350250.00', rates: ['19'] },
    };
  })(),
  (() => {
    // A negative price is a negative quantity in the XML (BR-27): 450 − 50 − 60 = 340, 21 % = 71.40.
    const buyer = party('বাংলা টেক্সটাইল লিমিটেড', 'BE', 'BE0477472701', 'Meir 50', '2000', 'Antwerpen', '0208:0477472701');
    return {
      name: 'negative lines, Bengali buyer name',
      body: {
        from: NIKOLAUS.text,
        to: buyer.text,
        ...head('INV-2026-311', '2026-11-07', '2026-12-07'),
        tax: 21,
        items: [
          { name: 'Textile samples', quantity: 10, unit_cost: 45 },
          { name: 'Goodwill credit', quantity: 1, unit_cost: -50 },
          { name: 'Returned roll', quantity: -2, unit_cost: 30 },
        ],
        e_invoice: {
          seller: NIKOLAUS.data,
          buyer: buyer.data,
          buyer_reference: 'BTL-88',
          payment_means: { code: '30', iban: 'BE71096123456769', bic: 'GKCCBEBB' },
        },
      },
      targets: pick('ubl/peppol', 'ubl/en16931', 'cii/en16931', 'factur-x/en16931'),
      totals: { tax: '71.40', grandTotal: '411.40', payable: '411.40', rates: ['21'] },
    };
  })(),
  {
    // 9 % coffee and a 21 % machine, paid in full: 13.47 + 136.29 VAT, 948.46 paid, nothing due.
    name: 'receipt paid in full, 9/21 %',
    body: {
      type: 'receipt',
      from: DE_BOON.text,
      to: NIKOLAUS.text,
      ...head('BON-2026-5521', '2026-11-08'),
      tax: 21,
      amount_paid: 948.46,
      payment_terms: 'Pinbetaling (Maestro)',
      items: [
        { name: 'Koffiebonen 1 kg', quantity: 6, unit_cost: 24.95, tax: 9 },
        { name: 'Espressomachine', quantity: 1, unit_cost: 649 },
      ],
      e_invoice: { seller: DE_BOON.data, buyer: NIKOLAUS.data },
    },
    targets: pick('ubl/peppol', 'cii/en16931', 'factur-x/en16931'),
    totals: { tax: '149.76', grandTotal: '948.46', payable: '0.00', rates: ['9', '21'] },
  },
  {
    // A credit note on RE-2026-0815: 190.00 at 19 % (36.10) and 49.80 at 7 % (3.49).
    name: 'German credit note 19/7 %',
    body: {
      type: 'credit_note',
      from: MUELLER.text,
      to: MUSTERSTADT.text,
      ...head('GS-2026-0042', '2026-11-20'),
      purchase_order: 'RE-2026-0815',
      tax: 19,
      notes: 'Gutschrift zur Rechnung RE-2026-0815.',
      items: [
        { name: 'Gutschrift Wartung', quantity: 2, unit_cost: 95 },
        { name: 'Rückgabe Fachbuch', quantity: 1, unit_cost: 49.8, tax: 7 },
      ],
      e_invoice: { seller: SELLER, buyer: MUSTERSTADT.data, buyer_reference: '991-33333TEST-33', payment_means: SEPA },
    },
    targets: pick('ubl/peppol', 'ubl/xrechnung', 'cii/en16931', 'cii/xrechnung', 'factur-x/en16931'),
    totals: { tax: '39.59', grandTotal: '279.39', payable: '279.39', rates: ['19', '7'] },
  },
];
