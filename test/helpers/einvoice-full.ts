// One EN 16931 model with every business term set (test/helpers/einvoice-model.ts does the arithmetic), for the
// syntax tests that read each term back at its place: all groups BG-1 … BG-32, both the VAT point date (BT-7) and
// its code (BT-8) as two variants (never both: BR-CO-3), a second currency for VAT (BT-6, BT-111), a rounding
// amount (BT-114), line allowances and charges that cancel out (so every derived amount stays the helper's).
import { Decimal } from '../../server/money/totals';
import type { EInvoice, Line, Profile } from '../../server/einvoice/model';
import { makeInvoice, SELLER, vat } from './einvoice-model';

export const FULL_LINE_EXTRAS: Partial<Line> = {
  note: 'Work on the harbour project',
  objectId: { id: 'METER-0815', scheme: 'AAB' },
  orderLineReference: '3',
  accountingReference: 'ACC-4410',
  period: { start: '2026-02-01', end: '2026-02-14' },
  allowancesCharges: [
    {
      charge: false,
      amount: new Decimal('10.00'),
      base: new Decimal('100.00'),
      percent: new Decimal('10'),
      reason: 'Loyalty',
      reasonCode: '95',
    },
    { charge: true, amount: new Decimal('10.00'), reason: 'Express', reasonCode: 'FC' },
  ],
  grossPrice: new Decimal('60'),
  priceDiscount: new Decimal('10.10'),
  baseQuantity: new Decimal('1'),
  description: 'Senior developer, on site',
  sellerItemId: 'DEV-SR',
  buyerItemId: 'EXT-DEV-01',
  standardItemId: { id: '4012345000009', scheme: '0160' },
  classifications: [{ id: '72260000', scheme: 'TST', version: '19.0501' }],
  originCountry: 'DE',
  attributes: [{ name: 'Level', value: 'Senior' }],
};

/** Every term; `variant` 'point date' sets BT-7 instead of BT-8. */
export function fullInvoice(profile: Profile = 'en16931', variant: 'point code' | 'point date' = 'point code'): EInvoice {
  const base = makeInvoice({
    profile,
    businessProcess: 'urn:fdc:peppol.eu:2017:poacc:billing:01:1.0',
    lines: [
      { quantity: '3', price: '49.90', vat: vat('S', '19'), name: 'Development', unitCode: 'HUR' },
      { quantity: '2', price: '40', vat: vat('E', '0'), name: 'Training' },
    ],
    adjustments: [
      { charge: false, vat: vat('S', '19'), percent: '10', base: '149.70', reason: 'Discount', reasonCode: '95' },
      { charge: true, vat: vat('S', '19'), amount: '5.00', reason: 'Freight', reasonCode: 'FC' },
    ],
    exemptions: { E: { reason: 'Exempt education', code: 'VATEX-EU-132-1I' } },
    prepaid: '20.00',
    notes: [{ text: 'Thank you for your business.' }, { subjectCode: 'AAI', text: 'General information' }],
    buyerReference: '04011000-12345-03',
    orderReference: 'PO-7781',
    projectReference: 'PRJ-77',
    contractReference: 'CON-2026-1',
    salesOrderReference: 'SO-55',
    receivingAdvice: 'RA-9',
    despatchAdvice: 'DA-8',
    tenderReference: 'LOT-3',
    invoicedObject: { id: 'OBJ-1', scheme: 'AAA' },
    buyerAccountingReference: '4711-000',
    precedingInvoices: [{ number: 'RE-2026-0001', date: '2026-01-15' }],
    paymentTerms: 'Net 30 days',
    period: { start: '2026-02-01', end: '2026-02-28' },
    ...(variant === 'point code' ? { taxPointDateCode: '3' as const } : { taxPointDate: '2026-02-28' }),
    seller: {
      ...SELLER,
      endpoint: { scheme: 'EM', id: 'invoices@nordlicht.example' },
      tradingName: 'Nordlicht',
      identifiers: [{ id: 'SUP-001' }, { id: '4000001123452', scheme: '0088' }],
      taxRegistrationId: '22/815/08150',
      companyId: { id: 'HRB 123456', scheme: '0002' },
      legalInfo: 'Stammkapital 25.000 EUR',
      address: {
        street: 'Hafenstraße 12',
        additionalStreet: 'Kontor 3',
        line3: '2. OG',
        city: 'Hamburg',
        postalCode: '20457',
        region: 'HH',
        country: 'DE',
      },
    },
    buyer: {
      name: 'Kunde AG',
      endpoint: { scheme: '9930', id: 'DE987654321' },
      tradingName: 'Kunde',
      identifiers: [{ id: '4000001987658', scheme: '0088' }],
      vatId: 'DE987654321',
      companyId: { id: '987654321', scheme: '0002' },
      address: {
        street: 'Marktplatz 3',
        additionalStreet: 'Gebäude B',
        line3: 'Tor 2',
        city: 'München',
        postalCode: '80331',
        region: 'BY',
        country: 'DE',
      },
      contact: { name: 'Max Kunde', phone: '+49 89 7654321', email: 'ap@kunde.example' },
    },
    payee: { name: 'Factoring Bank AG', id: { id: '4000001000005', scheme: '0088' }, companyId: { id: 'HRB 999', scheme: '0002' } },
    taxRepresentative: {
      name: 'Steuervertreter GmbH',
      vatId: 'DE111111111',
      address: {
        street: 'Am Zoll 1',
        additionalStreet: 'Hof',
        line3: 'Büro 4',
        city: 'Bremen',
        postalCode: '28195',
        region: 'HB',
        country: 'DE',
      },
    },
    delivery: {
      name: 'Lager Nord',
      locationId: { id: '4000001000012', scheme: '0088' },
      date: '2026-02-27',
      address: {
        street: 'Kaistraße 9',
        additionalStreet: 'Halle 2',
        line3: 'Rampe 5',
        city: 'Kiel',
        postalCode: '24103',
        region: 'SH',
        country: 'DE',
      },
    },
    payment: {
      code: '58',
      text: 'SEPA credit transfer',
      paymentId: 'RE-2026-0042',
      iban: 'DE02120300000000202051',
      accountName: 'Nordlicht Software GmbH',
      bic: 'BYLADEM1001',
      additionalAccounts: [{ iban: 'DE89370400440532013000', accountName: 'Nordlicht Software GmbH', bic: 'COBADEFFXXX' }],
      card: { number: '1234', holder: 'Jana Berger' },
      directDebit: { mandateReference: 'MANDATE-1', creditorId: 'DE98ZZZ09999999999', debitedAccount: 'DE75512108001245126199' },
      notes: ['PayPal: https://pay.example/42'],
    },
    documents: [
      { id: 'TS-1', description: 'Timesheet', url: 'https://docs.example/ts-1' },
      {
        id: 'DN-2',
        description: 'Delivery note',
        content: { base64: 'JVBERi0xLjQK', mimeCode: 'application/pdf', filename: 'delivery.pdf' },
      },
    ],
  });
  const rounding = new Decimal('0.01');
  // XRechnung allows no card nor direct debit beside a credit transfer (BR-DE-23-b).
  const payment = profile === 'xrechnung' ? { ...base.payment!, card: undefined, directDebit: undefined } : base.payment;
  return {
    ...base,
    payment,
    taxCurrency: { code: 'USD', tax: new Decimal('28.00'), minorUnits: 2 },
    lines: base.lines.map((l, i) => (i === 0 ? { ...l, ...FULL_LINE_EXTRAS } : l)),
    totals: { ...base.totals, rounding, payable: base.totals.payable.add(rounding) },
  };
}

/** The full invoice less what `profile` has no place for (written out by hand from the Factur-X XSDs, apart from
 * server/einvoice/profile-terms.ts, so that each checks the other): BASIC loses the references BT-11, BT-14, BT-15,
 * BT-17, BT-18, the documents (BG-24), BT-7, BT-33, the contacts, BT-82, BT-85, BT-86, the card, BT-114, BT-45, a
 * line adjustment's base and percentage and the item details but BT-157; BASIC WL also the lines' own terms; MINIMUM
 * keeps its key figures, the parties' names and legal ids, the seller's VAT ids, BT-10, BT-13 and BT-23. */
export function invoiceFor(profile: 'minimum' | 'basic_wl' | 'basic'): EInvoice {
  const full = fullInvoice(profile);
  const noContact = (p: EInvoice['seller']) => ({ ...p, contact: undefined, legalInfo: undefined });
  const basic: EInvoice = {
    ...full,
    projectReference: undefined,
    salesOrderReference: undefined,
    receivingAdvice: undefined,
    tenderReference: undefined,
    invoicedObject: undefined,
    documents: [],
    seller: noContact(full.seller),
    buyer: { ...noContact(full.buyer), tradingName: undefined },
    payment: {
      ...full.payment!,
      text: undefined,
      accountName: undefined,
      bic: undefined,
      card: undefined,
      additionalAccounts: full.payment!.additionalAccounts!.map((a) => ({ iban: a.iban })),
    },
    totals: { ...full.totals, rounding: undefined, payable: full.totals.payable.sub('0.01') },
    lines: full.lines.map((l) => ({
      ...l,
      objectId: undefined,
      orderLineReference: undefined,
      accountingReference: undefined,
      description: undefined,
      sellerItemId: undefined,
      buyerItemId: undefined,
      classifications: undefined,
      originCountry: undefined,
      attributes: undefined,
      allowancesCharges: l.allowancesCharges?.map((a) => ({ ...a, base: undefined, percent: undefined })),
    })),
  };
  if (profile === 'basic') return basic;
  const lines = basic.lines.map((l) => ({
    id: l.id,
    quantity: l.quantity,
    unitCode: 'C62',
    net: l.net,
    price: l.price,
    name: l.name,
    vat: l.vat,
  }));
  const basicWl: EInvoice = { ...basic, lines };
  if (profile === 'basic_wl') return basicWl;
  const t = basicWl.totals;
  return {
    ...basicWl,
    notes: [],
    taxPointDateCode: undefined,
    dueDate: undefined,
    paymentTerms: undefined,
    taxCurrency: undefined,
    contractReference: undefined,
    despatchAdvice: undefined,
    buyerAccountingReference: undefined,
    precedingInvoices: [],
    period: undefined,
    seller: { ...basicWl.seller, tradingName: undefined, identifiers: undefined, endpoint: undefined },
    buyer: { ...basicWl.buyer, identifiers: undefined, endpoint: undefined, vatId: undefined },
    payee: undefined,
    taxRepresentative: undefined,
    delivery: undefined,
    payment: undefined,
    allowancesCharges: [],
    // The key figures as the full invoice has them: the allowances and charges are in BT-109, not stated apart.
    totals: { lineNet: t.lineNet, taxExclusive: t.taxExclusive, tax: t.tax, taxInclusive: t.taxInclusive, payable: t.taxInclusive },
  };
}
