// The settlement of a received CII document (ram:ApplicableHeaderTradeSettlement), read as KoSIT's cii-xr.xsl reads
// it: currencies (BT-5, BT-6, BT-111), payee (BG-10), payment instructions (BG-16 … BG-19), VAT breakdown (BG-23) with
// the VAT point date and its code (BT-7, BT-8), invoicing period (BG-14), document allowances and charges (BG-20,
// BG-21), payment terms and due date (BT-20, BT-9), totals (BG-22), preceding invoices (BG-3) and the buyer's
// accounting reference (BT-19). The mirror of settlement.ts; never throws on a missing part.
import type { EInvoice, PaymentInstructions, VatBreakdown } from '../model';
import { readCategory, readDocumentAllowancesCharges } from './read-lines';
import { readPayee } from './read-parties';
import { amount, any, date, decimal, defined, period, X, type XmlNode } from './read-xml';

/** BT-8: CII's UNTDID 2475 code back to the model's UNTDID 2005 code (settlement.ts writes the reverse). */
const TAX_POINT_CODE: Record<string, NonNullable<EInvoice['taxPointDateCode']>> = { '5': '3', '29': '35', '72': '432' };

type Account = NonNullable<PaymentInstructions['additionalAccounts']>[number];

/** BG-17 of one payment means: the creditor account and the payee's bank. */
function account(means: XmlNode): Account {
  const a = X.one(means, 'ram:PayeePartyCreditorFinancialAccount');
  return defined({
    iban: X.text(a, 'ram:IBANID'), // BT-84
    accountId: X.text(a, 'ram:ProprietaryID'), // BT-84, an account that is not an IBAN
    accountName: X.text(a, 'ram:AccountName'), // BT-85
    bic: X.text(means, 'ram:PayeeSpecifiedCreditorFinancialInstitution/ram:BICID'), // BT-86
  });
}

/** BG-16 … BG-19. CII repeats the payment means for each further account (BG-17, under one code: CII-SR-467): the
 * first means gives the code, its text and its account, the others their accounts; a card (BG-18) and the debited
 * account (BT-91) wherever they are. Absent when the document has no payment means and no payment reference,
 * creditor or mandate (the code is then ''). */
function readPayment(st: XmlNode | undefined): PaymentInstructions | undefined {
  const means = X.all(st, 'ram:SpecifiedTradeSettlementPaymentMeans');
  const mandateReference = X.all(st, 'ram:SpecifiedTradePaymentTerms/ram:DirectDebitMandateID')
    .map((m) => X.text(m))
    .find(any);
  const creditorId = X.text(st, 'ram:CreditorReferenceID');
  const debitedAccount = means.map((m) => X.text(m, 'ram:PayerPartyDebtorFinancialAccount/ram:IBANID')).find(any);
  const paymentId = X.text(st, 'ram:PaymentReference');
  if (means.length === 0 && !any(mandateReference, creditorId, paymentId)) return undefined;
  const first = means[0];
  const card = means.map((m) => X.one(m, 'ram:ApplicableTradeSettlementFinancialCard')).find(any);
  const more = means
    .slice(1)
    .map(account)
    .filter((a) => Object.keys(a).length > 0);
  const directDebit = defined({ mandateReference, creditorId, debitedAccount });
  return defined({
    code: X.text(first, 'ram:TypeCode') ?? '', // BT-81
    text: X.text(first, 'ram:Information'), // BT-82
    paymentId, // BT-83
    ...(first ? account(first) : {}),
    additionalAccounts: more.length > 0 ? more : undefined,
    card: card && defined({ number: X.text(card, 'ram:ID') ?? '', holder: X.text(card, 'ram:CardholderName') }), // BT-87, BT-88
    directDebit: Object.keys(directDebit).length > 0 ? directDebit : undefined, // BT-89, BT-90, BT-91
    notes: [],
  });
}

/** BG-23 each, and BT-7 / BT-8 from the first breakdown that states them (CII has no document-level place). */
function readTaxes(st: XmlNode | undefined): Pick<EInvoice, 'vatBreakdown' | 'taxPointDate' | 'taxPointDateCode'> {
  const taxes = X.all(st, 'ram:ApplicableTradeTax');
  const vatBreakdown = taxes.map((t): VatBreakdown =>
    defined({
      category: readCategory(t), // BT-118, BT-119
      taxable: amount(t, 'ram:BasisAmount'), // BT-116
      tax: amount(t, 'ram:CalculatedAmount'), // BT-117
      exemptionReason: X.text(t, 'ram:ExemptionReason'), // BT-120
      exemptionReasonCode: X.text(t, 'ram:ExemptionReasonCode'), // BT-121
    }),
  );
  const code = taxes.map((t) => X.text(t, 'ram:DueDateTypeCode')).find(any);
  return defined({
    vatBreakdown,
    taxPointDate: taxes.map((t) => date(t, 'ram:TaxPointDate')).find(any), // BT-7
    taxPointDateCode: code === undefined ? undefined : TAX_POINT_CODE[code], // BT-8
  });
}

/** BG-22 with BT-111. BT-110 is the tax total in the invoice's currency (or without one), BT-111 the one in the VAT
 * accounting currency. */
function readTotals(st: XmlNode | undefined, currency: string): Pick<EInvoice, 'totals' | 'taxCurrency'> {
  const sum = X.one(st, 'ram:SpecifiedTradeSettlementHeaderMonetarySummation');
  const taxTotals = X.all(sum, 'ram:TaxTotalAmount');
  const taxCode = X.text(st, 'ram:TaxCurrencyCode'); // BT-6
  const inCurrency = taxTotals.find((t) => t.attrs.currencyID?.trim() === currency) ?? taxTotals.find((t) => !t.attrs.currencyID?.trim());
  const inTaxCurrency =
    taxCode !== undefined ? taxTotals.find((t) => t !== inCurrency && t.attrs.currencyID?.trim() === taxCode) : undefined;
  const totals = defined({
    lineNet: amount(sum, 'ram:LineTotalAmount'), // BT-106
    allowances: decimal(sum, 'ram:AllowanceTotalAmount'), // BT-107
    charges: decimal(sum, 'ram:ChargeTotalAmount'), // BT-108
    taxExclusive: amount(sum, 'ram:TaxBasisTotalAmount'), // BT-109
    tax: amount(inCurrency), // BT-110
    taxAbsent: inCurrency ? undefined : true,
    taxInclusive: amount(sum, 'ram:GrandTotalAmount'), // BT-112
    prepaid: decimal(sum, 'ram:TotalPrepaidAmount'), // BT-113
    rounding: decimal(sum, 'ram:RoundingAmount'), // BT-114
    payable: amount(sum, 'ram:DuePayableAmount'), // BT-115
  });
  const taxCurrency = taxCode === undefined ? undefined : { code: taxCode, tax: amount(inTaxCurrency), minorUnits: 2 };
  return defined({ totals, taxCurrency });
}

/** BT-20: the payment terms' descriptions, several joined by ';' as KoSIT's mapping joins them (CII-SR-452 asks for
 * one). */
function paymentTerms(st: XmlNode | undefined): string | undefined {
  const texts = X.all(st, 'ram:SpecifiedTradePaymentTerms/ram:Description')
    .map((d) => X.text(d))
    .filter((t): t is string => t !== undefined);
  return texts.length > 0 ? texts.join(';') : undefined;
}

/** Every term of the settlement, as the parts of the model it fills. */
export function readSettlement(st: XmlNode | undefined) {
  const currency = X.text(st, 'ram:InvoiceCurrencyCode') ?? ''; // BT-5
  const preceding = X.all(st, 'ram:InvoiceReferencedDocument').map((r) =>
    defined({ number: X.text(r, 'ram:IssuerAssignedID') ?? '', date: date(r, 'ram:FormattedIssueDateTime') }),
  );
  return {
    currency,
    ...readTotals(st, currency),
    payee: readPayee(st),
    payment: readPayment(st),
    ...readTaxes(st),
    period: period(st), // BG-14
    allowancesCharges: readDocumentAllowancesCharges(st), // BG-20, BG-21
    paymentTerms: paymentTerms(st), // BT-20
    dueDate: X.all(st, 'ram:SpecifiedTradePaymentTerms')
      .map((t) => date(t, 'ram:DueDateDateTime'))
      .find(any), // BT-9
    precedingInvoices: preceding.filter((p) => p.number !== '' || p.date !== undefined), // BG-3: BT-25, BT-26
    buyerAccountingReference: X.text(st, 'ram:ReceivableSpecifiedTradeAccountingAccount/ram:ID'), // BT-19
  };
}
