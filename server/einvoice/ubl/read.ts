// A received UBL 2.1 Invoice or CreditNote read into the EN 16931 model (model.ts), every business term UBL carries
// at the place KoSIT's official mapping reads it (xrechnung-visualization: ubl-invoice-xr.xsl, ubl-creditnote-xr.xsl),
// so that the writers (build.ts, cii/build.ts) write it back, or across, with nothing lost. Amounts, quantities and
// prices are Decimals exactly as sent; texts as sent, trimmed. Called on documents that passed the UBL XSD: any
// optional part may still be missing, and is then undefined ('' for a missing required text, 0 for a missing required
// amount): never a TypeError. Parties are read-parties.ts's, lines read-lines.ts's. Decides nothing, validates nothing.
import type { EInvoice, PaymentInstructions, Profile, SupportingDocument, VatBreakdown } from '../model';
import { Decimal } from '../../money/totals';
import { PROFILES, receivedProfile } from '../profiles';
import { readDocumentAllowancesCharges, readLines } from './read-lines';
import { readDelivery, readParty, readPayee, readTaxRepresentative } from './read-parties';
import { amount, attr, category, decimal, defined, identifier, period, U, type XmlNode } from './read-xml';

/** The profile a UBL document's CustomizationID (BT-24) names: Peppol BIS 3.0, XRechnung 3.0, else the norm. */
export function ublProfile(customizationId: string | undefined): Profile {
  return receivedProfile(customizationId, 'ubl') ?? 'en16931';
}

/** BT-8 as the model holds it: UNTDID 2005 3 (invoice date), 35 (delivery date), 432 (payment date). */
const TAX_POINT_CODES = ['3', '35', '432'] as const;

/** BG-1: Peppol's one note with a `#code#` prefix per subject code (BT-21), read back as the code and its text. */
function notes(root: XmlNode): EInvoice['notes'] {
  return U.all(root, 'cbc:Note').flatMap((n) => {
    const text = U.text(n);
    if (text === undefined) return [];
    const coded = /^#([A-Za-z0-9]{1,10})#([\s\S]*)$/.exec(text);
    return coded ? [{ subjectCode: coded[1]!, text: coded[2]!.trim() }] : [{ text }];
  });
}

/** cac:AdditionalDocumentReference with this DocumentTypeCode (130 an invoiced object, 50 a credit note's project). */
function typed(root: XmlNode, code: string): XmlNode | undefined {
  return U.all(root, 'cac:AdditionalDocumentReference').find((r) => U.text(r, 'cbc:DocumentTypeCode') === code);
}

/** BG-24: every additional document reference that is not BT-18 (nor a credit note's BT-11). */
function documents(root: XmlNode, credit: boolean): SupportingDocument[] {
  const skip = [typed(root, '130'), credit ? typed(root, '50') : undefined];
  return U.all(root, 'cac:AdditionalDocumentReference')
    .filter((r) => !skip.includes(r))
    .map((r) => {
      const binary = U.one(r, 'cac:Attachment/cbc:EmbeddedDocumentBinaryObject');
      const base64 = U.text(binary);
      return defined({
        id: U.text(r, 'cbc:ID') ?? '', // BT-122
        description: U.text(r, 'cbc:DocumentDescription'), // BT-123
        url: U.text(r, 'cac:Attachment/cac:ExternalReference/cbc:URI'), // BT-124
        content:
          base64 === undefined ? undefined : { base64, mimeCode: attr(binary, 'mimeCode') ?? '', filename: attr(binary, 'filename') ?? '' }, // BT-125
      });
    });
}

/** BG-3: BT-25 and BT-26. */
function precedingInvoices(root: XmlNode): EInvoice['precedingInvoices'] {
  return U.all(root, 'cac:BillingReference/cac:InvoiceDocumentReference').map((r) =>
    defined({ number: U.text(r, 'cbc:ID') ?? '', date: U.text(r, 'cbc:IssueDate') }),
  );
}

/** BT-11 … BT-19 (a credit note has its project as a document reference of type 50). */
function references(root: XmlNode, credit: boolean): Partial<EInvoice> {
  const object = typed(root, '130');
  return {
    projectReference: credit ? U.text(typed(root, '50'), 'cbc:ID') : U.text(root, 'cac:ProjectReference/cbc:ID'), // BT-11
    contractReference: U.text(root, 'cac:ContractDocumentReference/cbc:ID'), // BT-12
    orderReference: U.text(root, 'cac:OrderReference/cbc:ID'), // BT-13
    salesOrderReference: U.text(root, 'cac:OrderReference/cbc:SalesOrderID'), // BT-14
    receivingAdvice: U.text(root, 'cac:ReceiptDocumentReference/cbc:ID'), // BT-15
    despatchAdvice: U.text(root, 'cac:DespatchDocumentReference/cbc:ID'), // BT-16
    tenderReference: U.text(root, 'cac:OriginatorDocumentReference/cbc:ID'), // BT-17
    invoicedObject: identifier(object, 'cbc:ID'), // BT-18
    buyerAccountingReference: U.text(root, 'cbc:AccountingCost'), // BT-19
  };
}

/** An account (BG-17) as the model holds it: an IBAN when it has the shape of one, else the account identifier. */
function account(a: XmlNode): NonNullable<PaymentInstructions['additionalAccounts']>[number] {
  const id = U.text(a, 'cbc:ID');
  const iban = id !== undefined && /^[A-Z]{2}[0-9]{2}[A-Z0-9]{11,30}$/.test(id.replace(/\s+/g, ''));
  return defined({
    iban: iban ? id : undefined, // BT-84
    accountId: iban ? undefined : id,
    accountName: U.text(a, 'cbc:Name'), // BT-85
    bic: U.text(a, 'cac:FinancialInstitutionBranch/cbc:ID'), // BT-86
  });
}

/** BG-16 … BG-19: the first payment means' code, with every account, card and mandate of the means under that code
 * (UBL repeats cac:PaymentMeans per account, UBL-SR-47). BT-90 comes from the seller or payee (scheme SEPA). */
function payment(root: XmlNode, creditorId: string | undefined): PaymentInstructions | undefined {
  const all = U.all(root, 'cac:PaymentMeans');
  if (all.length === 0) return undefined;
  const code = U.text(all[0], 'cbc:PaymentMeansCode');
  const means = all.filter((m) => U.text(m, 'cbc:PaymentMeansCode') === code);
  const accounts = means.flatMap((m) => U.all(m, 'cac:PayeeFinancialAccount')).map(account);
  const card = means.map((m) => U.one(m, 'cac:CardAccount')).find((c) => c !== undefined);
  const mandate = means.map((m) => U.one(m, 'cac:PaymentMandate')).find((c) => c !== undefined);
  const directDebit = defined({
    mandateReference: U.text(mandate, 'cbc:ID'), // BT-89
    creditorId, // BT-90
    debitedAccount: U.text(mandate, 'cac:PayerFinancialAccount/cbc:ID'), // BT-91
  });
  const [first, ...more] = accounts;
  return defined({
    code: code ?? '', // BT-81
    text: attr(U.one(all[0], 'cbc:PaymentMeansCode'), 'name'), // BT-82
    paymentId: means.map((m) => U.text(m, 'cbc:PaymentID')).find((t) => t !== undefined), // BT-83
    ...first,
    additionalAccounts: more.length > 0 ? more : undefined,
    card: card && defined({ number: U.text(card, 'cbc:PrimaryAccountNumberID') ?? '', holder: U.text(card, 'cbc:HolderName') }), // BG-18
    directDebit: Object.keys(directDebit).length > 0 ? directDebit : undefined, // BG-19
    notes: means.flatMap((m) => U.all(m, 'cbc:InstructionNote').flatMap((n) => U.text(n) ?? [])),
  });
}

/** BG-23 (every cac:TaxSubtotal, as KoSIT reads them), BT-110 and BT-6 with BT-111. */
function taxes(
  root: XmlNode,
  currency: string,
): Pick<EInvoice, 'vatBreakdown' | 'taxCurrency'> & Pick<EInvoice['totals'], 'tax' | 'taxAbsent'> {
  const totals = U.all(root, 'cac:TaxTotal');
  const inCurrency = (code: string | undefined) => totals.find((t) => attr(U.one(t, 'cbc:TaxAmount'), 'currencyID') === code);
  const code = U.text(root, 'cbc:TaxCurrencyCode');
  const inTaxCurrency = code === undefined || code === currency ? undefined : inCurrency(code);
  const own = inCurrency(currency) ?? totals.find((t) => t !== inTaxCurrency);
  const vatBreakdown = totals
    .flatMap((t) => U.all(t, 'cac:TaxSubtotal'))
    .map((s): VatBreakdown => {
      const c = U.one(s, 'cac:TaxCategory');
      return defined({
        taxable: amount(s, 'cbc:TaxableAmount'), // BT-116
        tax: amount(s, 'cbc:TaxAmount'), // BT-117
        category: category(c), // BT-118, BT-119
        exemptionReason: U.text(c, 'cbc:TaxExemptionReason'), // BT-120
        exemptionReasonCode: U.text(c, 'cbc:TaxExemptionReasonCode'), // BT-121
      });
    });
  const taxInOther = decimal(inTaxCurrency, 'cbc:TaxAmount');
  const tax = decimal(own, 'cbc:TaxAmount');
  return {
    vatBreakdown,
    tax: tax ?? new Decimal(0), // BT-110
    taxAbsent: tax === undefined ? true : undefined,
    taxCurrency: code !== undefined && taxInOther ? { code, tax: taxInOther, minorUnits: 2 } : undefined, // BT-6, BT-111
  };
}

/** BG-22 with BT-110 from taxes(): the optional totals as sent, zero included. */
function totals(root: XmlNode, tax: Pick<EInvoice['totals'], 'tax' | 'taxAbsent'>): EInvoice['totals'] {
  const t = U.one(root, 'cac:LegalMonetaryTotal');
  return defined({
    lineNet: amount(t, 'cbc:LineExtensionAmount'), // BT-106
    allowances: decimal(t, 'cbc:AllowanceTotalAmount'), // BT-107
    charges: decimal(t, 'cbc:ChargeTotalAmount'), // BT-108
    taxExclusive: amount(t, 'cbc:TaxExclusiveAmount'), // BT-109
    ...tax, // BT-110
    taxInclusive: amount(t, 'cbc:TaxInclusiveAmount'), // BT-112
    prepaid: decimal(t, 'cbc:PrepaidAmount'), // BT-113
    rounding: decimal(t, 'cbc:PayableRoundingAmount'), // BT-114
    payable: amount(t, 'cbc:PayableAmount'), // BT-115
  });
}

/** BT-1 … BT-10, BT-20, BT-23, BT-24, BG-1, BG-14. */
function header(root: XmlNode, profile: Profile, credit: boolean): Omit<EInvoice, 'seller' | 'buyer' | 'totals' | 'lines'> {
  const customization = U.text(root, 'cbc:CustomizationID');
  const descriptionCode = U.text(root, 'cac:InvoicePeriod/cbc:DescriptionCode');
  const dueDate = credit ? U.text(root, 'cac:PaymentMeans/cbc:PaymentDueDate') : U.text(root, 'cbc:DueDate');
  return {
    profile,
    specification: customization !== undefined && customization !== PROFILES[profile].specification ? customization : undefined, // BT-24
    businessProcess: U.text(root, 'cbc:ProfileID'), // BT-23
    typeCode: U.text(root, credit ? 'cbc:CreditNoteTypeCode' : 'cbc:InvoiceTypeCode') ?? (credit ? '381' : '380'), // BT-3
    number: U.text(root, 'cbc:ID') ?? '', // BT-1
    issueDate: U.text(root, 'cbc:IssueDate') ?? '', // BT-2
    dueDate, // BT-9
    taxPointDate: U.text(root, 'cbc:TaxPointDate'), // BT-7
    taxPointDateCode: TAX_POINT_CODES.find((c) => c === descriptionCode), // BT-8
    currency: U.text(root, 'cbc:DocumentCurrencyCode') ?? '', // BT-5
    buyerReference: U.text(root, 'cbc:BuyerReference'), // BT-10
    precedingInvoices: precedingInvoices(root), // BG-3
    notes: notes(root), // BG-1
    paymentTerms: texts(root, 'cac:PaymentTerms/cbc:Note'), // BT-20
    period: period(root), // BG-14
    allowancesCharges: readDocumentAllowancesCharges(root), // BG-20, BG-21
    vatBreakdown: [],
    documents: [],
    minorUnits: 2,
  };
}

/** Every text at `path`, line by line (BT-20 is one text; UBL allows several notes). */
function texts(node: XmlNode, path: string): string | undefined {
  const all = U.all(node, path).flatMap((n) => U.text(n) ?? []);
  return all.length > 0 ? all.join('\n') : undefined;
}

/** The model of a received UBL document; `root` its document element, `profile` what its BT-24 names (ublProfile). */
export function readUbl(root: XmlNode, profile: Profile): EInvoice {
  const credit = root.name === 'CreditNote';
  const head = header(root, profile, credit);
  const seller = readParty(root, 'AccountingSupplierParty');
  const { payee, creditorId } = readPayee(root);
  const { tax, taxAbsent, ...vat } = taxes(root, head.currency);
  return defined({
    ...head,
    ...references(root, credit),
    seller: seller.party, // BG-4
    buyer: readParty(root, 'AccountingCustomerParty').party, // BG-7
    payee, // BG-10
    taxRepresentative: readTaxRepresentative(root), // BG-11
    delivery: readDelivery(root), // BG-13
    payment: payment(root, creditorId ?? seller.creditorId), // BG-16
    ...vat, // BG-23, BT-6, BT-111
    totals: totals(root, { tax, taxAbsent }), // BG-22
    lines: readLines(root, credit), // BG-25
    documents: documents(root, credit), // BG-24
  });
}
