// French invoices written by hand, as another platform would send them, for the reading side of the France tests
// (/validate, the PDF view, conversion): seven cases of the reform (goods, services, mixed, a credit note, a self-billed
// invoice, a sub-contractor's invoice, VAT on receipts), each in UBL and in CII, with their totals computed here (never
// by the service), and for each a broken copy with the French rule it breaks. The XML is written here element by
// element in each syntax's order; nothing comes from the service's writers.

export interface FrenchLine {
  name: string;
  quantity: number;
  unitCode: string;
  price: number;
  rate: number;
}

export interface FrenchCase {
  name: string;
  /** BT-23: the billing framework. */
  framework: string;
  /** BT-3 */
  typeCode: string;
  creditNote: boolean;
  number: string;
  /** BT-8 in UBL (3 debits, 432 receipts), absent when not stated. */
  vatOn?: '3' | '432';
  seller: { name: string; siren: string; siret: string; vat: string; endpoint: string; city: string; postcode: string; street: string };
  buyer: { name: string; siren: string; vat: string; endpoint: string; city: string; postcode: string; street: string };
  lines: FrenchLine[];
  preceding?: { number: string; date: string };
  /** Notes beyond the legal ones (subject code, text). */
  notes?: [string, string][];
  /** A copy that breaks one French rule: how, and the rule (the start of its id in the report). */
  broken: { what: string; rule: string; ubl: (xml: string) => string; cii: (xml: string) => string };
}

const SELLER = {
  name: 'Boulangerie Dupont SARL',
  siren: '552100554',
  siret: '55210055400013',
  vat: 'FR40552100554',
  endpoint: '552100554',
  city: 'Bordeaux',
  postcode: '33000',
  street: '4 cours de l’Intendance',
};
const BUYER = {
  name: 'Hôtel des Quais SAS',
  siren: '732829320',
  vat: 'FR18732829320',
  endpoint: '732829320',
  city: 'Nantes',
  postcode: '44000',
  street: '2 quai de la Fosse',
};

const LEGAL: [string, string][] = [
  ['PMT', 'Indemnité forfaitaire pour frais de recouvrement : 40 €'],
  ['PMD', 'Pénalités de retard : 3 fois le taux d’intérêt légal'],
  ['AAB', 'Pas d’escompte pour paiement anticipé'],
  ['BAR', 'B2B'],
];

const cut = (xml: string, re: RegExp) => {
  if (!re.test(xml)) throw new Error(`the broken copy changes nothing: ${re}`);
  return xml.replace(re, '');
};
const swap = (xml: string, from: string, to: string) => {
  if (!xml.includes(from)) throw new Error(`the broken copy changes nothing: ${from}`);
  return xml.split(from).join(to);
};

export const FRENCH_CASES: FrenchCase[] = [
  {
    name: 'goods (B1)',
    framework: 'B1',
    typeCode: '380',
    creditNote: false,
    number: 'FA-2026-1001',
    vatOn: '3',
    seller: SELLER,
    buyer: BUYER,
    lines: [
      { name: 'Baguettes tradition', quantity: 120, unitCode: 'H87', price: 1.1, rate: 5.5 },
      { name: 'Croissants', quantity: 80, unitCode: 'H87', price: 1.25, rate: 5.5 },
    ],
    broken: {
      what: 'the recovery fee note (PMT) left out',
      rule: 'BR-FR-05',
      ubl: (x) => cut(x, /<cbc:Note>#PMT#[^<]*<\/cbc:Note>/),
      cii: (x) => cut(x, /<ram:IncludedNote><ram:Content>[^<]*<\/ram:Content><ram:SubjectCode>PMT<\/ram:SubjectCode><\/ram:IncludedNote>/),
    },
  },
  {
    name: 'services (S1)',
    framework: 'S1',
    typeCode: '380',
    creditNote: false,
    number: 'FA-2026-1002',
    seller: SELLER,
    buyer: BUYER,
    lines: [{ name: 'Formation boulangerie, 2 jours', quantity: 14, unitCode: 'HUR', price: 75, rate: 20 }],
    broken: {
      what: 'a billing framework that is none (S0)',
      rule: 'BR-FR-08',
      ubl: (x) => swap(x, '<cbc:ProfileID>S1</cbc:ProfileID>', '<cbc:ProfileID>S0</cbc:ProfileID>'),
      cii: (x) => swap(x, '<ram:ID>S1</ram:ID>', '<ram:ID>S0</ram:ID>'),
    },
  },
  {
    name: 'goods and services (M1), two rates',
    framework: 'M1',
    typeCode: '380',
    creditNote: false,
    number: 'FA-2026-1003',
    vatOn: '3',
    seller: SELLER,
    buyer: BUYER,
    lines: [
      { name: 'Four à sole', quantity: 1, unitCode: 'H87', price: 12400, rate: 20 },
      { name: 'Livraison et mise en service', quantity: 1, unitCode: 'C62', price: 850.5, rate: 20 },
      { name: 'Sacs de farine T65', quantity: 40, unitCode: 'H87', price: 18.35, rate: 5.5 },
    ],
    broken: {
      what: 'a SIRET that does not start with the SIREN',
      rule: 'BR-FR-09',
      ubl: (x) => swap(x, '>55210055400013<', '>99999999900013<'),
      cii: (x) => swap(x, '>55210055400013<', '>99999999900013<'),
    },
  },
  {
    name: 'a credit note (381) of an earlier invoice',
    framework: 'B1',
    typeCode: '381',
    creditNote: true,
    number: 'AV-2026-0007',
    seller: SELLER,
    buyer: BUYER,
    lines: [{ name: 'Croissants retournés', quantity: 10, unitCode: 'H87', price: 1.25, rate: 5.5 }],
    preceding: { number: 'FA-2026-1001', date: '2026-11-03' },
    broken: {
      what: 'the credited invoice left out',
      rule: 'BR-FR-CO-05',
      ubl: (x) => cut(x, /<cac:BillingReference>.*?<\/cac:BillingReference>/s),
      cii: (x) => cut(x, /<ram:InvoiceReferencedDocument>.*?<\/ram:InvoiceReferencedDocument>/s),
    },
  },
  {
    name: 'a self-billed invoice (389): the buyer issues it for the seller',
    framework: 'B1',
    typeCode: '389',
    creditNote: false,
    number: 'AF-2026-0311',
    seller: {
      ...SELLER,
      name: 'Moulin de la Garonne EARL',
      siren: '418734121',
      siret: '41873412100026',
      vat: 'FR61418734121',
      endpoint: '418734121_41873412100026',
    },
    buyer: BUYER,
    lines: [{ name: 'Farine de meule, quintal', quantity: 12.5, unitCode: 'KGM', price: 61.4, rate: 5.5 }],
    broken: {
      what: "a seller's address that does not start with its SIREN",
      rule: 'BR-FR-22',
      ubl: (x) => swap(x, '>418734121_41873412100026<', '>MOULIN-GARONNE<'),
      cii: (x) => swap(x, '>418734121_41873412100026<', '>MOULIN-GARONNE<'),
    },
  },
  {
    name: "a sub-contractor's invoice (S5)",
    framework: 'S5',
    typeCode: '380',
    creditNote: false,
    number: 'ST-2026/045',
    vatOn: '432',
    seller: {
      ...SELLER,
      name: 'Électricité Morel EURL',
      siren: '801234562',
      siret: '80123456200018',
      vat: 'FR27801234562',
      endpoint: '801234562',
    },
    buyer: BUYER,
    lines: [{ name: 'Câblage du fournil (sous-traitance, lot 3)', quantity: 3, unitCode: 'DAY', price: 520, rate: 20 }],
    notes: [['AAI', 'Marché n° 2026-17, lot 3 : électricité']],
    broken: {
      what: 'an invoice number with a space',
      rule: 'BR-FR-02',
      ubl: (x) => swap(x, '>ST-2026/045<', '>ST 2026/045<'),
      cii: (x) => swap(x, '>ST-2026/045<', '>ST 2026/045<'),
    },
  },
  {
    name: 'services with VAT on receipts (BT-8 432 / 72)',
    framework: 'S1',
    typeCode: '380',
    creditNote: false,
    number: 'FA-2026-1007',
    vatOn: '432',
    seller: SELLER,
    buyer: BUYER,
    lines: [
      { name: 'Maintenance mensuelle', quantity: 1, unitCode: 'MON', price: 240, rate: 20 },
      { name: 'Intervention d’urgence', quantity: 2.5, unitCode: 'HUR', price: 68, rate: 20 },
    ],
    broken: {
      what: 'a VAT rate France does not have (19 %)',
      rule: 'BR-FR-16',
      ubl: (x) => swap(x, '<cbc:Percent>20</cbc:Percent>', '<cbc:Percent>19</cbc:Percent>'),
      cii: (x) =>
        swap(x, '<ram:RateApplicablePercent>20</ram:RateApplicablePercent>', '<ram:RateApplicablePercent>19</ram:RateApplicablePercent>'),
    },
  },
];

const ISSUE = '2026-11-20';
const DUE = '2026-12-20';
const money = (n: number) => n.toFixed(2);
const round = (n: number) => Math.round((n + Number.EPSILON) * 100) / 100;
const d102 = (iso: string) => iso.replaceAll('-', '');
const esc = (s: string) => s.replace(/&/g, '&amp;').replace(/</g, '&lt;');

interface Totals {
  lines: number[];
  groups: { rate: number; base: number; tax: number }[];
  net: number;
  tax: number;
  total: number;
}

function totals(c: FrenchCase): Totals {
  const lines = c.lines.map((l) => round(l.quantity * l.price));
  const rates = [...new Set(c.lines.map((l) => l.rate))];
  const groups = rates.map((rate) => {
    const base = round(c.lines.reduce((s, l, i) => (l.rate === rate ? s + lines[i]! : s), 0));
    return { rate, base, tax: round((base * rate) / 100) };
  });
  const net = round(lines.reduce((s, v) => s + v, 0));
  const tax = round(groups.reduce((s, g) => s + g.tax, 0));
  return { lines, groups, net, tax, total: round(net + tax) };
}

const notesOf = (c: FrenchCase): [string, string][] => [...(c.notes ?? []), ...LEGAL];

function ublParty(p: FrenchCase['seller'] | FrenchCase['buyer'], siret?: string): string {
  return (
    `<cac:Party><cbc:EndpointID schemeID="0225">${p.endpoint}</cbc:EndpointID>` +
    (siret ? `<cac:PartyIdentification><cbc:ID schemeID="0009">${siret}</cbc:ID></cac:PartyIdentification>` : '') +
    `<cac:PostalAddress><cbc:StreetName>${esc(p.street)}</cbc:StreetName><cbc:CityName>${p.city}</cbc:CityName>` +
    `<cbc:PostalZone>${p.postcode}</cbc:PostalZone><cac:Country><cbc:IdentificationCode>FR</cbc:IdentificationCode></cac:Country></cac:PostalAddress>` +
    `<cac:PartyTaxScheme><cbc:CompanyID>${p.vat}</cbc:CompanyID><cac:TaxScheme><cbc:ID>VAT</cbc:ID></cac:TaxScheme></cac:PartyTaxScheme>` +
    `<cac:PartyLegalEntity><cbc:RegistrationName>${esc(p.name)}</cbc:RegistrationName><cbc:CompanyID schemeID="0002">${p.siren}</cbc:CompanyID></cac:PartyLegalEntity></cac:Party>`
  );
}

const vatCategory = (tag: string, rate: number) =>
  `<cac:${tag}><cbc:ID>S</cbc:ID><cbc:Percent>${rate}</cbc:Percent><cac:TaxScheme><cbc:ID>VAT</cbc:ID></cac:TaxScheme></cac:${tag}>`;

/** The case as a UBL 2.1 Invoice or CreditNote. */
export function frenchUbl(c: FrenchCase): string {
  const t = totals(c);
  const root = c.creditNote ? 'CreditNote' : 'Invoice';
  const line = c.creditNote ? 'CreditNoteLine' : 'InvoiceLine';
  const qty = c.creditNote ? 'CreditedQuantity' : 'InvoicedQuantity';
  return (
    `<?xml version="1.0" encoding="UTF-8"?>\n<${root} xmlns="urn:oasis:names:specification:ubl:schema:xsd:${root}-2" ` +
    `xmlns:cac="urn:oasis:names:specification:ubl:schema:xsd:CommonAggregateComponents-2" ` +
    `xmlns:cbc="urn:oasis:names:specification:ubl:schema:xsd:CommonBasicComponents-2">` +
    `<cbc:CustomizationID>urn:cen.eu:en16931:2017</cbc:CustomizationID><cbc:ProfileID>${c.framework}</cbc:ProfileID>` +
    `<cbc:ID>${c.number}</cbc:ID><cbc:IssueDate>${ISSUE}</cbc:IssueDate>` +
    (c.creditNote ? '' : `<cbc:DueDate>${DUE}</cbc:DueDate>`) +
    `<cbc:${root}TypeCode>${c.typeCode}</cbc:${root}TypeCode>` +
    notesOf(c)
      .map(([code, text]) => `<cbc:Note>#${code}#${esc(text)}</cbc:Note>`)
      .join('') +
    `<cbc:DocumentCurrencyCode>EUR</cbc:DocumentCurrencyCode><cbc:BuyerReference>SERVICE-ACHATS</cbc:BuyerReference>` +
    (c.vatOn ? `<cac:InvoicePeriod><cbc:DescriptionCode>${c.vatOn}</cbc:DescriptionCode></cac:InvoicePeriod>` : '') +
    (c.preceding
      ? `<cac:BillingReference><cac:InvoiceDocumentReference><cbc:ID>${c.preceding.number}</cbc:ID><cbc:IssueDate>${c.preceding.date}</cbc:IssueDate></cac:InvoiceDocumentReference></cac:BillingReference>`
      : '') +
    `<cac:AccountingSupplierParty>${ublParty(c.seller, c.seller.siret)}</cac:AccountingSupplierParty>` +
    `<cac:AccountingCustomerParty>${ublParty(c.buyer)}</cac:AccountingCustomerParty>` +
    `<cac:PaymentMeans><cbc:PaymentMeansCode>30</cbc:PaymentMeansCode>${c.creditNote ? `<cbc:PaymentDueDate>${DUE}</cbc:PaymentDueDate>` : ''}` +
    `<cac:PayeeFinancialAccount><cbc:ID>FR7630006000011234567890189</cbc:ID></cac:PayeeFinancialAccount></cac:PaymentMeans>` +
    `<cac:TaxTotal><cbc:TaxAmount currencyID="EUR">${money(t.tax)}</cbc:TaxAmount>` +
    t.groups
      .map(
        (g) =>
          `<cac:TaxSubtotal><cbc:TaxableAmount currencyID="EUR">${money(g.base)}</cbc:TaxableAmount><cbc:TaxAmount currencyID="EUR">${money(g.tax)}</cbc:TaxAmount>${vatCategory('TaxCategory', g.rate)}</cac:TaxSubtotal>`,
      )
      .join('') +
    `</cac:TaxTotal><cac:LegalMonetaryTotal><cbc:LineExtensionAmount currencyID="EUR">${money(t.net)}</cbc:LineExtensionAmount>` +
    `<cbc:TaxExclusiveAmount currencyID="EUR">${money(t.net)}</cbc:TaxExclusiveAmount><cbc:TaxInclusiveAmount currencyID="EUR">${money(t.total)}</cbc:TaxInclusiveAmount>` +
    `<cbc:PayableAmount currencyID="EUR">${money(t.total)}</cbc:PayableAmount></cac:LegalMonetaryTotal>` +
    c.lines
      .map(
        (l, i) =>
          `<cac:${line}><cbc:ID>${i + 1}</cbc:ID><cbc:${qty} unitCode="${l.unitCode}">${l.quantity}</cbc:${qty}>` +
          `<cbc:LineExtensionAmount currencyID="EUR">${money(t.lines[i]!)}</cbc:LineExtensionAmount>` +
          `<cac:Item><cbc:Name>${esc(l.name)}</cbc:Name>${vatCategory('ClassifiedTaxCategory', l.rate)}</cac:Item>` +
          `<cac:Price><cbc:PriceAmount currencyID="EUR">${l.price}</cbc:PriceAmount></cac:Price></cac:${line}>`,
      )
      .join('') +
    `</${root}>\n`
  );
}

function ciiParty(tag: string, p: FrenchCase['seller'] | FrenchCase['buyer'], siret?: string): string {
  return (
    `<ram:${tag}>` +
    (siret ? `<ram:GlobalID schemeID="0009">${siret}</ram:GlobalID>` : '') +
    `<ram:Name>${esc(p.name)}</ram:Name><ram:SpecifiedLegalOrganization><ram:ID schemeID="0002">${p.siren}</ram:ID></ram:SpecifiedLegalOrganization>` +
    `<ram:PostalTradeAddress><ram:PostcodeCode>${p.postcode}</ram:PostcodeCode><ram:LineOne>${esc(p.street)}</ram:LineOne>` +
    `<ram:CityName>${p.city}</ram:CityName><ram:CountryID>FR</ram:CountryID></ram:PostalTradeAddress>` +
    `<ram:URIUniversalCommunication><ram:URIID schemeID="0225">${p.endpoint}</ram:URIID></ram:URIUniversalCommunication>` +
    `<ram:SpecifiedTaxRegistration><ram:ID schemeID="VA">${p.vat}</ram:ID></ram:SpecifiedTaxRegistration></ram:${tag}>`
  );
}

/** BT-8 in CII (UNTDID 2475): 5 the invoice date, 72 payment. */
const DUE_DATE_TYPE = { '3': '5', '432': '72' } as const;

/** The case as a UN/CEFACT CII CrossIndustryInvoice (D16B, valid under D22B too). */
export function frenchCii(c: FrenchCase): string {
  const t = totals(c);
  const date = (iso: string, ns = 'udt') => `<${ns}:DateTimeString format="102">${d102(iso)}</${ns}:DateTimeString>`;
  return (
    `<?xml version="1.0" encoding="UTF-8"?>\n<rsm:CrossIndustryInvoice xmlns:rsm="urn:un:unece:uncefact:data:standard:CrossIndustryInvoice:100" ` +
    `xmlns:ram="urn:un:unece:uncefact:data:standard:ReusableAggregateBusinessInformationEntity:100" ` +
    `xmlns:udt="urn:un:unece:uncefact:data:standard:UnqualifiedDataType:100" xmlns:qdt="urn:un:unece:uncefact:data:standard:QualifiedDataType:100">` +
    `<rsm:ExchangedDocumentContext><ram:BusinessProcessSpecifiedDocumentContextParameter><ram:ID>${c.framework}</ram:ID></ram:BusinessProcessSpecifiedDocumentContextParameter>` +
    `<ram:GuidelineSpecifiedDocumentContextParameter><ram:ID>urn:cen.eu:en16931:2017</ram:ID></ram:GuidelineSpecifiedDocumentContextParameter></rsm:ExchangedDocumentContext>` +
    `<rsm:ExchangedDocument><ram:ID>${c.number}</ram:ID><ram:TypeCode>${c.typeCode}</ram:TypeCode><ram:IssueDateTime>${date(ISSUE)}</ram:IssueDateTime>` +
    notesOf(c)
      .map(
        ([code, text]) =>
          `<ram:IncludedNote><ram:Content>${esc(text)}</ram:Content><ram:SubjectCode>${code}</ram:SubjectCode></ram:IncludedNote>`,
      )
      .join('') +
    `</rsm:ExchangedDocument><rsm:SupplyChainTradeTransaction>` +
    c.lines
      .map(
        (l, i) =>
          `<ram:IncludedSupplyChainTradeLineItem><ram:AssociatedDocumentLineDocument><ram:LineID>${i + 1}</ram:LineID></ram:AssociatedDocumentLineDocument>` +
          `<ram:SpecifiedTradeProduct><ram:Name>${esc(l.name)}</ram:Name></ram:SpecifiedTradeProduct>` +
          `<ram:SpecifiedLineTradeAgreement><ram:NetPriceProductTradePrice><ram:ChargeAmount>${l.price}</ram:ChargeAmount></ram:NetPriceProductTradePrice></ram:SpecifiedLineTradeAgreement>` +
          `<ram:SpecifiedLineTradeDelivery><ram:BilledQuantity unitCode="${l.unitCode}">${l.quantity}</ram:BilledQuantity></ram:SpecifiedLineTradeDelivery>` +
          `<ram:SpecifiedLineTradeSettlement><ram:ApplicableTradeTax><ram:TypeCode>VAT</ram:TypeCode><ram:CategoryCode>S</ram:CategoryCode>` +
          `<ram:RateApplicablePercent>${l.rate}</ram:RateApplicablePercent></ram:ApplicableTradeTax>` +
          `<ram:SpecifiedTradeSettlementLineMonetarySummation><ram:LineTotalAmount>${money(t.lines[i]!)}</ram:LineTotalAmount></ram:SpecifiedTradeSettlementLineMonetarySummation>` +
          `</ram:SpecifiedLineTradeSettlement></ram:IncludedSupplyChainTradeLineItem>`,
      )
      .join('') +
    `<ram:ApplicableHeaderTradeAgreement><ram:BuyerReference>SERVICE-ACHATS</ram:BuyerReference>${ciiParty('SellerTradeParty', c.seller, c.seller.siret)}${ciiParty('BuyerTradeParty', c.buyer)}</ram:ApplicableHeaderTradeAgreement>` +
    `<ram:ApplicableHeaderTradeDelivery><ram:ActualDeliverySupplyChainEvent><ram:OccurrenceDateTime>${date('2026-11-18')}</ram:OccurrenceDateTime></ram:ActualDeliverySupplyChainEvent></ram:ApplicableHeaderTradeDelivery>` +
    `<ram:ApplicableHeaderTradeSettlement><ram:InvoiceCurrencyCode>EUR</ram:InvoiceCurrencyCode>` +
    `<ram:SpecifiedTradeSettlementPaymentMeans><ram:TypeCode>30</ram:TypeCode><ram:PayeePartyCreditorFinancialAccount><ram:IBANID>FR7630006000011234567890189</ram:IBANID></ram:PayeePartyCreditorFinancialAccount></ram:SpecifiedTradeSettlementPaymentMeans>` +
    t.groups
      .map(
        (g) =>
          `<ram:ApplicableTradeTax><ram:CalculatedAmount>${money(g.tax)}</ram:CalculatedAmount><ram:TypeCode>VAT</ram:TypeCode><ram:BasisAmount>${money(g.base)}</ram:BasisAmount>` +
          `<ram:CategoryCode>S</ram:CategoryCode>${c.vatOn ? `<ram:DueDateTypeCode>${DUE_DATE_TYPE[c.vatOn]}</ram:DueDateTypeCode>` : ''}<ram:RateApplicablePercent>${g.rate}</ram:RateApplicablePercent></ram:ApplicableTradeTax>`,
      )
      .join('') +
    `<ram:SpecifiedTradePaymentTerms><ram:DueDateDateTime>${date(DUE)}</ram:DueDateDateTime></ram:SpecifiedTradePaymentTerms>` +
    `<ram:SpecifiedTradeSettlementHeaderMonetarySummation><ram:LineTotalAmount>${money(t.net)}</ram:LineTotalAmount><ram:TaxBasisTotalAmount>${money(t.net)}</ram:TaxBasisTotalAmount>` +
    `<ram:TaxTotalAmount currencyID="EUR">${money(t.tax)}</ram:TaxTotalAmount><ram:GrandTotalAmount>${money(t.total)}</ram:GrandTotalAmount>` +
    `<ram:DuePayableAmount>${money(t.total)}</ram:DuePayableAmount></ram:SpecifiedTradeSettlementHeaderMonetarySummation>` +
    (c.preceding
      ? `<ram:InvoiceReferencedDocument><ram:IssuerAssignedID>${c.preceding.number}</ram:IssuerAssignedID><ram:FormattedIssueDateTime>${date(c.preceding.date, 'qdt')}</ram:FormattedIssueDateTime></ram:InvoiceReferencedDocument>`
      : '') +
    `</ram:ApplicableHeaderTradeSettlement></rsm:SupplyChainTradeTransaction></rsm:CrossIndustryInvoice>\n`
  );
}
