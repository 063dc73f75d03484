// The settlement of a CII document (ram:ApplicableHeaderTradeSettlement) in the D16B / Factur-X sequence: creditor
// and payment reference (BT-90, BT-83), currencies (BT-5, BT-6), payee (BG-10), payment instructions (BG-16 … BG-19),
// VAT breakdown (BG-23 with BT-7, BT-8), invoicing period (BG-14), document allowances and charges (BG-20, BG-21),
// payment terms and due date (BT-20, BT-9, BT-89), totals (BG-22, BT-111), preceding invoices (BG-3) and the buyer's
// accounting reference (BT-19). Writes what the model holds; `keyFigures` (MINIMUM) leaves out by definition what
// that profile has no place for (the breakdown and the line total). Decides nothing else.
import { breakdownCategory } from '../profiles';
import { termsText } from '../skonto';
import type { EInvoice, PaymentInstructions, VatBreakdown } from '../model';
import { allowanceCharge } from './lines';
import { any, date, money, period, plain, ram, text, wrapped, type Amount, type Node } from './cii-xml';
import { payee } from './parties';

/** BT-8: the model holds the UNTDID 2005 code (UBL's), CII the UNTDID 2475 code of the same event. */
const DUE_DATE_TYPE: Record<NonNullable<EInvoice['taxPointDateCode']>, string> = { '3': '5', '35': '29', '432': '72' };

/** BG-16 … BG-19 (BT-89 and BT-90 are written with the terms and the creditor reference). */
function paymentMeans(settlement: Node, pay: PaymentInstructions): void {
  const means = ram(settlement, 'SpecifiedTradeSettlementPaymentMeans');
  text(means, 'TypeCode', pay.code); // BT-81
  text(means, 'Information', pay.text); // BT-82
  if (pay.card) {
    const card = ram(means, 'ApplicableTradeSettlementFinancialCard'); // BG-18
    text(card, 'ID', pay.card.number); // BT-87
    text(card, 'CardholderName', pay.card.holder); // BT-88
  }
  wrapped(means, 'PayerPartyDebtorFinancialAccount', 'IBANID', pay.directDebit?.debitedAccount); // BT-91
  if (any(pay.iban, pay.accountId, pay.accountName)) {
    const account = ram(means, 'PayeePartyCreditorFinancialAccount'); // BG-17
    text(account, 'IBANID', pay.iban); // BT-84
    text(account, 'AccountName', pay.accountName); // BT-85
    text(account, 'ProprietaryID', pay.accountId); // BT-84, an account that is not an IBAN
  }
  wrapped(means, 'PayeeSpecifiedCreditorFinancialInstitution', 'BICID', pay.bic); // BT-86
  // BG-17 repeated: each further account in a payment means of its own, under the same code.
  for (const a of pay.additionalAccounts ?? []) {
    const more = ram(settlement, 'SpecifiedTradeSettlementPaymentMeans');
    text(more, 'TypeCode', pay.code);
    text(more, 'Information', pay.text);
    const account = ram(more, 'PayeePartyCreditorFinancialAccount');
    text(account, 'IBANID', a.iban);
    text(account, 'AccountName', a.accountName);
    text(account, 'ProprietaryID', a.accountId);
    wrapped(more, 'PayeeSpecifiedCreditorFinancialInstitution', 'BICID', a.bic);
  }
}

/** BG-23, in the TradeTaxType order. BT-7 and BT-8 have no document-level place in CII: they sit in the first
 * breakdown only (CII-SR-461: one TaxPointDate), `first`. */
function breakdown(settlement: Node, b: VatBreakdown, invoice: EInvoice, amount: Amount, first: boolean): void {
  const el = ram(settlement, 'ApplicableTradeTax');
  text(el, 'CalculatedAmount', amount(b.tax)); // BT-117
  text(el, 'TypeCode', 'VAT');
  text(el, 'ExemptionReason', b.exemptionReason); // BT-120
  text(el, 'BasisAmount', amount(b.taxable)); // BT-116
  text(el, 'CategoryCode', b.category.code); // BT-118
  text(el, 'ExemptionReasonCode', b.exemptionReasonCode); // BT-121
  if (first) {
    date(el, 'TaxPointDate', invoice.taxPointDate, 'udt', 'DateString'); // BT-7
    text(el, 'DueDateTypeCode', invoice.taxPointDateCode && DUE_DATE_TYPE[invoice.taxPointDateCode]); // BT-8
  }
  // BT-119: a rate where the breakdown has one (an O breakdown of a received invoice may state 0, XRechnung wants it).
  const rate = breakdownCategory(invoice, b.category).rate;
  if (rate !== undefined) text(el, 'RateApplicablePercent', plain(rate));
}

/** BT-20, BT-9, BT-89. The payment links ride with the payment terms, one per line: CII has no instruction note per
 * payment means (UBL's cbc:InstructionNote), and BT-82 is the means' own text. */
function terms(settlement: Node, invoice: EInvoice): void {
  const pay = invoice.payment;
  const description = termsText([invoice.paymentTerms, ...(pay?.notes ?? [])].filter((t): t is string => any(t)).join('\n'));
  const mandate = pay?.directDebit?.mandateReference;
  if (!any(description, invoice.dueDate, mandate)) return;
  const el = ram(settlement, 'SpecifiedTradePaymentTerms');
  text(el, 'Description', description);
  date(el, 'DueDateDateTime', invoice.dueDate);
  text(el, 'DirectDebitMandateID', mandate);
}

/** BG-22. Only the tax totals name their currency: BT-110 in the invoice's, BT-111 in the tax currency. */
function summation(settlement: Node, invoice: EInvoice, amount: Amount, keyFigures: boolean): void {
  const t = invoice.totals;
  const sum = ram(settlement, 'SpecifiedTradeSettlementHeaderMonetarySummation');
  if (!keyFigures) text(sum, 'LineTotalAmount', amount(t.lineNet)); // BT-106
  if (t.charges) text(sum, 'ChargeTotalAmount', amount(t.charges)); // BT-108
  if (t.allowances) text(sum, 'AllowanceTotalAmount', amount(t.allowances)); // BT-107
  text(sum, 'TaxBasisTotalAmount', amount(t.taxExclusive)); // BT-109
  if (!t.taxAbsent) text(sum, 'TaxTotalAmount', amount(t.tax), { currencyID: invoice.currency }); // BT-110
  const tc = invoice.taxCurrency;
  if (tc) text(sum, 'TaxTotalAmount', money(tc.tax, tc.minorUnits), { currencyID: tc.code }); // BT-111
  if (t.rounding) text(sum, 'RoundingAmount', amount(t.rounding)); // BT-114
  text(sum, 'GrandTotalAmount', amount(t.taxInclusive)); // BT-112
  if (t.prepaid) text(sum, 'TotalPrepaidAmount', amount(t.prepaid)); // BT-113
  text(sum, 'DuePayableAmount', amount(t.payable)); // BT-115
}

export function settlement(transaction: Node, invoice: EInvoice, amount: Amount, keyFigures: boolean): void {
  const el = ram(transaction, 'ApplicableHeaderTradeSettlement');
  const pay = invoice.payment;
  text(el, 'CreditorReferenceID', pay?.directDebit?.creditorId); // BT-90
  text(el, 'PaymentReference', pay?.paymentId); // BT-83
  text(el, 'TaxCurrencyCode', invoice.taxCurrency?.code); // BT-6
  text(el, 'InvoiceCurrencyCode', invoice.currency); // BT-5
  payee(el, invoice.payee); // BG-10
  // A received document may carry a payment reference, creditor or mandate without any payment means (code '').
  if (pay && any(pay.code)) paymentMeans(el, pay);
  if (!keyFigures) invoice.vatBreakdown.forEach((b, i) => breakdown(el, b, invoice, amount, i === 0));
  period(el, invoice.period); // BG-14
  for (const ac of invoice.allowancesCharges) allowanceCharge(el, ac, amount, ac.vat);
  terms(el, invoice);
  summation(el, invoice, amount, keyFigures);
  for (const p of invoice.precedingInvoices) {
    const ref = ram(el, 'InvoiceReferencedDocument');
    text(ref, 'IssuerAssignedID', p.number); // BT-25
    date(ref, 'FormattedIssueDateTime', p.date, 'qdt'); // BT-26
  }
  wrapped(el, 'ReceivableSpecifiedTradeAccountingAccount', 'ID', invoice.buyerAccountingReference); // BT-19
}
