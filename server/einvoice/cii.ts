// The CII syntax of the EN 16931 model: a UN/CEFACT Cross Industry Invoice D16B (rsm:CrossIndustryInvoice), for /cii
// (profiles en16931 and xrechnung) and for the XML inside a Factur-X PDF (the EN 16931 profile, whose XSD is a
// subset of D16B that this writer keeps to). Element order follows the D16B XSD sequences; no empty element is
// written except ram:ApplicableHeaderTradeDelivery, which the XSD requires. Amounts are written as the model holds
// them (cii-xml.ts). Knows no request and computes nothing: every value comes from the model (map.ts fills it).
// Must not validate (xsd-validator.ts does) nor write the PDF attachment (Factur-X carries the XML in the
// PDF, not the PDF in the XML).
import { create } from 'xmlbuilder2';
import type { Decimal } from '../money/totals';
import type { AllowanceCharge, EInvoice, Line, Profile, VatBreakdown, VatCategory } from './model';
import { any, date, money, NS, plain, ram, text, type Node } from './cii-xml';
import { xmlText } from './xml-text';
import { party } from './cii-parties';
import { SPECIFICATION_ID } from './profiles';

function guideline(profile: Profile): string {
  // Peppol BIS Billing 3.0 exists in UBL only; the mapping never asks for it in CII.
  if (profile === 'peppol') throw new Error('the peppol profile is UBL only: there is no Peppol CII document');
  // BT-24 by profile (profiles.ts); Factur-X EN 16931 uses the bare norm's.
  return SPECIFICATION_ID[profile];
}

/** ApplicableTradeTax on a line, CategoryTradeTax on an allowance or charge: the category and its rate. `O` (not
 * subject to VAT) has no rate at all (BR-O-05, BR-O-06, BR-O-07). */
function category(el: Node, vat: VatCategory): void {
  text(el, 'TypeCode', 'VAT');
  text(el, 'CategoryCode', vat.code);
  if (vat.code !== 'O' && vat.rate !== undefined) text(el, 'RateApplicablePercent', plain(vat.rate));
}

export function buildCii(invoice: EInvoice): string {
  const context = guideline(invoice.profile);
  const amount = (value: Decimal): string => money(value, invoice.minorUnits);

  const root = create({ version: '1.0', encoding: 'UTF-8' }).ele(NS.rsm, 'rsm:CrossIndustryInvoice', {
    'xmlns:qdt': NS.qdt,
    'xmlns:ram': NS.ram,
    'xmlns:udt': NS.udt,
  });
  // BT-24. BT-23 (the business process) is optional in EN 16931 and XRechnung, and the model has none.
  text(ram(root.ele(NS.rsm, 'rsm:ExchangedDocumentContext'), 'GuidelineSpecifiedDocumentContextParameter'), 'ID', context);

  const doc = root.ele(NS.rsm, 'rsm:ExchangedDocument');
  text(doc, 'ID', invoice.number); // BT-1
  text(doc, 'TypeCode', invoice.typeCode); // BT-3
  date(doc, 'IssueDateTime', invoice.issueDate); // BT-2
  for (const note of invoice.notes) {
    if (!any(note.text)) continue;
    const el = ram(doc, 'IncludedNote');
    text(el, 'Content', note.text); // BT-22
    text(el, 'SubjectCode', note.subjectCode); // BT-21
  }

  const transaction = root.ele(NS.rsm, 'rsm:SupplyChainTradeTransaction');
  for (const line of invoice.lines) addLine(transaction, line, amount);

  const agreement = ram(transaction, 'ApplicableHeaderTradeAgreement');
  text(agreement, 'BuyerReference', invoice.buyerReference); // BT-10
  party(agreement, 'SellerTradeParty', invoice.seller);
  party(agreement, 'BuyerTradeParty', invoice.buyer);
  if (any(invoice.orderReference)) text(ram(agreement, 'BuyerOrderReferencedDocument'), 'IssuerAssignedID', invoice.orderReference); // BT-13

  // Required by the XSD; the model has no delivery information (BG-13), so it stays empty.
  ram(transaction, 'ApplicableHeaderTradeDelivery');

  addSettlement(ram(transaction, 'ApplicableHeaderTradeSettlement'), invoice, amount);
  return xmlText(root);
}

function addSettlement(settlement: Node, invoice: EInvoice, amount: (v: Decimal) => string): void {
  const payment = invoice.payment;
  text(settlement, 'PaymentReference', payment?.paymentId); // BT-83
  text(settlement, 'InvoiceCurrencyCode', invoice.currency); // BT-5
  if (payment) {
    const means = ram(settlement, 'SpecifiedTradeSettlementPaymentMeans');
    text(means, 'TypeCode', payment.code); // BT-81
    text(means, 'Information', payment.text); // BT-82
    if (any(payment.iban, payment.accountName)) {
      const account = ram(means, 'PayeePartyCreditorFinancialAccount');
      text(account, 'IBANID', payment.iban); // BT-84
      text(account, 'AccountName', payment.accountName); // BT-85
    }
    if (any(payment.bic)) text(ram(means, 'PayeeSpecifiedCreditorFinancialInstitution'), 'BICID', payment.bic); // BT-86
  }
  for (const b of invoice.vatBreakdown) addBreakdown(settlement, b, amount);
  for (const ac of invoice.allowancesCharges) addAllowanceCharge(settlement, ac, amount);

  // BT-20 and BT-9. The payment links ride with the payment terms, one per line: CII has no instruction note per
  // payment means (UBL's cbc:InstructionNote), the payment means text (BT-82) is the means' own, and the Factur-X
  // EN 16931 subset allows a single terms description. Document notes (BT-22) would hide them among general remarks.
  const terms = [invoice.paymentTerms, ...(payment?.notes ?? [])].filter((t): t is string => any(t)).join('\n');
  if (any(terms, invoice.dueDate)) {
    const el = ram(settlement, 'SpecifiedTradePaymentTerms');
    text(el, 'Description', terms);
    date(el, 'DueDateDateTime', invoice.dueDate);
  }

  // BG-22. Only the tax total names its currency (BT-110 may be given in a second, tax currency; the others may not).
  const t = invoice.totals;
  const sum = ram(settlement, 'SpecifiedTradeSettlementHeaderMonetarySummation');
  text(sum, 'LineTotalAmount', amount(t.lineNet)); // BT-106
  if (t.charges) text(sum, 'ChargeTotalAmount', amount(t.charges)); // BT-108
  if (t.allowances) text(sum, 'AllowanceTotalAmount', amount(t.allowances)); // BT-107
  text(sum, 'TaxBasisTotalAmount', amount(t.taxExclusive)); // BT-109
  text(sum, 'TaxTotalAmount', amount(t.tax), { currencyID: invoice.currency }); // BT-110
  text(sum, 'GrandTotalAmount', amount(t.taxInclusive)); // BT-112
  if (t.prepaid) text(sum, 'TotalPrepaidAmount', amount(t.prepaid)); // BT-113
  text(sum, 'DuePayableAmount', amount(t.payable)); // BT-115

  for (const p of invoice.precedingInvoices) {
    const el = ram(settlement, 'InvoiceReferencedDocument');
    text(el, 'IssuerAssignedID', p.number); // BT-25
    date(el, 'FormattedIssueDateTime', p.date, 'qdt'); // BT-26
  }
}

/** BG-23, in the D16B TradeTaxType order (the exemption reason sits between the type and the basis). */
function addBreakdown(settlement: Node, b: VatBreakdown, amount: (v: Decimal) => string): void {
  const el = ram(settlement, 'ApplicableTradeTax');
  text(el, 'CalculatedAmount', amount(b.tax)); // BT-117
  text(el, 'TypeCode', 'VAT');
  text(el, 'ExemptionReason', b.exemptionReason); // BT-120
  text(el, 'BasisAmount', amount(b.taxable)); // BT-116
  text(el, 'CategoryCode', b.category.code); // BT-118
  text(el, 'ExemptionReasonCode', b.exemptionReasonCode); // BT-121
  if (b.category.code !== 'O' && b.category.rate !== undefined) text(el, 'RateApplicablePercent', plain(b.category.rate)); // BT-119
}

/** BG-20 / BG-21. */
function addAllowanceCharge(settlement: Node, ac: AllowanceCharge, amount: (v: Decimal) => string): void {
  const el = ram(settlement, 'SpecifiedTradeAllowanceCharge');
  ram(el, 'ChargeIndicator')
    .ele(NS.udt, 'udt:Indicator')
    .txt(ac.charge ? 'true' : 'false');
  if (ac.percent) text(el, 'CalculationPercent', plain(ac.percent)); // BT-94 / BT-101
  if (ac.base) text(el, 'BasisAmount', amount(ac.base)); // BT-93 / BT-100
  text(el, 'ActualAmount', amount(ac.amount)); // BT-92 / BT-99
  text(el, 'ReasonCode', ac.reasonCode); // BT-98 / BT-105
  text(el, 'Reason', ac.reason); // BT-97 / BT-104
  category(ram(el, 'CategoryTradeTax'), ac.vat); // BT-95/96, BT-102/103
}

/** BG-25. The price is per one unit (no BT-149 base quantity); a credit line is a negative quantity (BR-27). */
function addLine(transaction: Node, line: Line, amount: (v: Decimal) => string): void {
  const item = ram(transaction, 'IncludedSupplyChainTradeLineItem');
  text(ram(item, 'AssociatedDocumentLineDocument'), 'LineID', line.id); // BT-126
  const product = ram(item, 'SpecifiedTradeProduct');
  text(product, 'Name', line.name); // BT-153
  text(product, 'Description', line.description); // BT-154
  text(ram(ram(item, 'SpecifiedLineTradeAgreement'), 'NetPriceProductTradePrice'), 'ChargeAmount', plain(line.price)); // BT-146
  text(ram(item, 'SpecifiedLineTradeDelivery'), 'BilledQuantity', plain(line.quantity), { unitCode: line.unitCode }); // BT-129/130
  const settlement = ram(item, 'SpecifiedLineTradeSettlement');
  category(ram(settlement, 'ApplicableTradeTax'), line.vat); // BT-151 / BT-152
  text(ram(settlement, 'SpecifiedTradeSettlementLineMonetarySummation'), 'LineTotalAmount', amount(line.net)); // BT-131
}
