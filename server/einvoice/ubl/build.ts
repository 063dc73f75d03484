// The EN 16931 model (model.ts) as a UBL 2.1 Invoice (380) or CreditNote (381), declared per profile (profiles.ts).
// Element order follows the UBL XSD sequences (the two roots differ: a credit note has its VAT point date before its
// type code, its references in another order, no due date and no project reference); no empty element is written
// (PEPPOL-EN16931-R008). Writes what the model holds, rounds nothing (amounts arrive rounded). Must not validate
// (xsd-validator.ts does) or decide content (map.ts does).
import { create } from 'xmlbuilder2';
import type { XMLBuilder } from 'xmlbuilder2/lib/interfaces';
import type { EInvoice, SupportingDocument } from '../model';
import { breakdownCategory, PROFILES } from '../profiles';
import { termsText } from '../skonto';
import { xmlText } from '../xml-text';
import { addAllowanceCharge, addCategory, addLine, type Money } from './lines';
import { addParty, addPayee, addTaxRepresentative } from './parties';
import { address, any, cac, cbc, id, money, NS, period, type Node } from './ubl-xml';

/** Marks where the base64 PDF goes; replaced after validation (see outputs.ts). */
export const PDF_PLACEHOLDER = 'UERGUExBQ0VIT0xERVI=';

export type UblRoot = 'Invoice' | 'CreditNote';

export interface UblDocument {
  root: UblRoot;
  /** The XML, with PDF_PLACEHOLDER where the PDF's base64 goes (when the model attaches the PDF). */
  xml: string;
}

/** BT-8 as UBL writes it: the UNTDID 2005 code itself. */
function header(xml: Node, invoice: EInvoice, root: UblRoot): void {
  cbc(xml, 'CustomizationID', invoice.specification ?? PROFILES[invoice.profile].specification); // BT-24
  cbc(xml, 'ProfileID', invoice.businessProcess); // BT-23
  cbc(xml, 'ID', invoice.number); // BT-1
  cbc(xml, 'IssueDate', invoice.issueDate); // BT-2
  if (root === 'Invoice') {
    cbc(xml, 'DueDate', invoice.dueDate); // BT-9
    cbc(xml, 'InvoiceTypeCode', invoice.typeCode); // BT-3
  } else {
    cbc(xml, 'TaxPointDate', invoice.taxPointDate); // BT-7
    cbc(xml, 'CreditNoteTypeCode', invoice.typeCode);
  }
  for (const note of invoice.notes) cbc(xml, 'Note', note.subjectCode ? `#${note.subjectCode}#${note.text}` : note.text); // BG-1
  if (root === 'Invoice') cbc(xml, 'TaxPointDate', invoice.taxPointDate); // BT-7
  cbc(xml, 'DocumentCurrencyCode', invoice.currency); // BT-5
  cbc(xml, 'TaxCurrencyCode', invoice.taxCurrency?.code); // BT-6
  cbc(xml, 'AccountingCost', invoice.buyerAccountingReference); // BT-19
  cbc(xml, 'BuyerReference', invoice.buyerReference); // BT-10
  period(xml, invoice.period, invoice.taxPointDateCode); // BG-14, BT-8
}

function reference(xml: Node, name: string, value: string | undefined): void {
  if (any(value)) cbc(cac(xml, name), 'ID', value);
}

function supportingDocument(xml: Node, d: SupportingDocument): void {
  const ref = cac(xml, 'AdditionalDocumentReference');
  cbc(ref, 'ID', d.id); // BT-122
  cbc(ref, 'DocumentDescription', d.description); // BT-123
  if (d.pdf || d.content || d.url) {
    const attachment = cac(ref, 'Attachment');
    if (d.pdf) {
      cbc(attachment, 'EmbeddedDocumentBinaryObject', PDF_PLACEHOLDER, { mimeCode: 'application/pdf', filename: d.pdf.filename });
    } else if (d.content) {
      cbc(attachment, 'EmbeddedDocumentBinaryObject', d.content.base64, { mimeCode: d.content.mimeCode, filename: d.content.filename }); // BT-125
    }
    if (d.url) cbc(cac(attachment, 'ExternalReference'), 'URI', d.url); // BT-124
  }
}

/** An AdditionalDocumentReference that stands for a reference UBL has no element for (BT-18: 130; a credit note's
 * BT-11: 50). */
function typedReference(xml: Node, value: { id: string; scheme?: string } | undefined, typeCode: string): void {
  if (!value) return;
  const ref = cac(xml, 'AdditionalDocumentReference');
  id(ref, 'ID', value);
  cbc(ref, 'DocumentTypeCode', typeCode);
}

/** BT-13 … BT-18, BG-3, BG-24 and BT-11 in the order of the root's XSD sequence. */
function references(xml: Node, invoice: EInvoice, root: UblRoot): void {
  if (any(invoice.orderReference, invoice.salesOrderReference)) {
    const order = cac(xml, 'OrderReference');
    // A sales order alone still needs the order ID the XSD requires: "NA", as Peppol directs.
    cbc(order, 'ID', invoice.orderReference ?? 'NA'); // BT-13
    cbc(order, 'SalesOrderID', invoice.salesOrderReference); // BT-14
  }
  for (const p of invoice.precedingInvoices) {
    const ref = cac(cac(xml, 'BillingReference'), 'InvoiceDocumentReference');
    cbc(ref, 'ID', p.number); // BT-25
    cbc(ref, 'IssueDate', p.date); // BT-26
  }
  reference(xml, 'DespatchDocumentReference', invoice.despatchAdvice); // BT-16
  reference(xml, 'ReceiptDocumentReference', invoice.receivingAdvice); // BT-15
  const others = () => {
    typedReference(xml, invoice.invoicedObject, '130'); // BT-18
    for (const d of invoice.documents) supportingDocument(xml, d); // BG-24
  };
  if (root === 'Invoice') {
    reference(xml, 'OriginatorDocumentReference', invoice.tenderReference); // BT-17
    reference(xml, 'ContractDocumentReference', invoice.contractReference); // BT-12
    others();
    reference(xml, 'ProjectReference', invoice.projectReference); // BT-11
  } else {
    reference(xml, 'ContractDocumentReference', invoice.contractReference);
    others();
    typedReference(xml, invoice.projectReference ? { id: invoice.projectReference } : undefined, '50');
    reference(xml, 'OriginatorDocumentReference', invoice.tenderReference);
  }
}

function delivery(xml: Node, invoice: EInvoice): void {
  const d = invoice.delivery;
  if (!d) return;
  const el = cac(xml, 'Delivery');
  cbc(el, 'ActualDeliveryDate', d.date); // BT-72
  if (d.locationId || d.address) {
    const location = cac(el, 'DeliveryLocation');
    id(location, 'ID', d.locationId); // BT-71
    address(location, 'Address', d.address); // BG-15
  }
  if (any(d.name)) cbc(cac(cac(el, 'DeliveryParty'), 'PartyName'), 'Name', d.name); // BT-70
}

function payment(xml: Node, invoice: EInvoice, root: UblRoot): void {
  const pay = invoice.payment;
  if (pay) {
    const pm = cac(xml, 'PaymentMeans');
    cbc(pm, 'PaymentMeansCode', pay.code, { name: pay.text }); // BT-81, BT-82
    if (root === 'CreditNote') cbc(pm, 'PaymentDueDate', invoice.dueDate);
    for (const note of pay.notes) cbc(pm, 'InstructionNote', note);
    cbc(pm, 'PaymentID', pay.paymentId); // BT-83
    if (pay.card) {
      const card = cac(pm, 'CardAccount'); // BG-18
      cbc(card, 'PrimaryAccountNumberID', pay.card.number); // BT-87
      cbc(card, 'NetworkID', 'NA'); // required by UBL, not a business term
      cbc(card, 'HolderName', pay.card.holder); // BT-88
    }
    if (pay.iban || pay.accountId) {
      const account = cac(pm, 'PayeeFinancialAccount'); // BG-17
      cbc(account, 'ID', pay.iban ?? pay.accountId); // BT-84
      cbc(account, 'Name', pay.accountName); // BT-85
      if (any(pay.bic)) cbc(cac(account, 'FinancialInstitutionBranch'), 'ID', pay.bic); // BT-86
    }
    const debit = pay.directDebit;
    if (debit && any(debit.mandateReference, debit.debitedAccount)) {
      const mandate = cac(pm, 'PaymentMandate'); // BG-19
      cbc(mandate, 'ID', debit.mandateReference); // BT-89
      if (any(debit.debitedAccount)) cbc(cac(mandate, 'PayerFinancialAccount'), 'ID', debit.debitedAccount); // BT-91
    }
  }
  // BG-17 repeated: each further account in a payment means of its own, under the same code (UBL-SR-47).
  for (const a of pay?.additionalAccounts ?? []) {
    const pm = cac(xml, 'PaymentMeans');
    // The text once, on the first (UBL-SR-46).
    cbc(pm, 'PaymentMeansCode', pay!.code);
    cbc(pm, 'PaymentID', pay!.paymentId);
    const account = cac(pm, 'PayeeFinancialAccount');
    cbc(account, 'ID', a.iban ?? a.accountId);
    cbc(account, 'Name', a.accountName);
    if (any(a.bic)) cbc(cac(account, 'FinancialInstitutionBranch'), 'ID', a.bic);
  }
  if (invoice.paymentTerms) cbc(cac(xml, 'PaymentTerms'), 'Note', termsText(invoice.paymentTerms)); // BT-20
}

function totals(xml: Node, invoice: EInvoice, m: Money): void {
  for (const a of invoice.allowancesCharges) if (!a.charge) addAllowanceCharge(xml, a, m, a.vat); // BG-20
  for (const a of invoice.allowancesCharges) if (a.charge) addAllowanceCharge(xml, a, m, a.vat); // BG-21
  const taxTotal = cac(xml, 'TaxTotal');
  money(taxTotal, 'TaxAmount', invoice.totals.tax, m.currency, m.digits); // BT-110
  for (const b of invoice.vatBreakdown) {
    const st = cac(taxTotal, 'TaxSubtotal'); // BG-23
    money(st, 'TaxableAmount', b.taxable, m.currency, m.digits); // BT-116
    money(st, 'TaxAmount', b.tax, m.currency, m.digits); // BT-117
    addCategory(st, 'TaxCategory', breakdownCategory(invoice, b.category), { reason: b.exemptionReason, code: b.exemptionReasonCode });
  }
  const tc = invoice.taxCurrency;
  if (tc) money(cac(xml, 'TaxTotal'), 'TaxAmount', tc.tax, tc.code, tc.minorUnits); // BT-111
  const t = invoice.totals;
  const sum = cac(xml, 'LegalMonetaryTotal'); // BG-22
  money(sum, 'LineExtensionAmount', t.lineNet, m.currency, m.digits); // BT-106
  money(sum, 'TaxExclusiveAmount', t.taxExclusive, m.currency, m.digits); // BT-109
  money(sum, 'TaxInclusiveAmount', t.taxInclusive, m.currency, m.digits); // BT-112
  money(sum, 'AllowanceTotalAmount', t.allowances, m.currency, m.digits); // BT-107
  money(sum, 'ChargeTotalAmount', t.charges, m.currency, m.digits); // BT-108
  money(sum, 'PrepaidAmount', t.prepaid, m.currency, m.digits); // BT-113
  money(sum, 'PayableRoundingAmount', t.rounding, m.currency, m.digits); // BT-114
  money(sum, 'PayableAmount', t.payable, m.currency, m.digits); // BT-115
}

/** The UNTDID 1001 codes of a credit note in the EN 16931 code list (BR-CL-01), each written as a UBL CreditNote:
 * 81 credit note related to goods or services, 83 credit note related to financial adjustments, 381 credit note,
 * 396 factored credit note, 532 forwarder's credit note, 261 self-billed credit note, 262 consolidated credit note
 * (goods and services). Every other code is an Invoice. */
const CREDIT_NOTE_TYPES = new Set(['81', '83', '261', '262', '381', '396', '532']);

export function buildUbl(invoice: EInvoice): UblDocument {
  const { root, tree } = ublTree(invoice);
  return { root, xml: xmlText(tree) };
}

/** The UBL document as a tree, before it is written as text (outputs.ts writes it at a turn of its own). */
export function ublTree(invoice: EInvoice): { root: UblRoot; tree: XMLBuilder } {
  const root: UblRoot = CREDIT_NOTE_TYPES.has(invoice.typeCode) ? 'CreditNote' : 'Invoice';
  const m: Money = { currency: invoice.currency, digits: invoice.minorUnits };
  const xml = create({ version: '1.0', encoding: 'UTF-8' }).ele(NS[root], root, { 'xmlns:cac': NS.cac, 'xmlns:cbc': NS.cbc });
  header(xml, invoice, root);
  references(xml, invoice, root);
  // BT-90 goes with the payee when there is one, else with the seller.
  const creditorId = invoice.payment?.directDebit?.creditorId;
  addParty(xml, 'AccountingSupplierParty', invoice.seller, invoice.payee ? undefined : creditorId);
  addParty(xml, 'AccountingCustomerParty', invoice.buyer);
  addPayee(xml, invoice.payee, creditorId);
  addTaxRepresentative(xml, invoice.taxRepresentative);
  delivery(xml, invoice);
  payment(xml, invoice, root);
  totals(xml, invoice, m);
  for (const l of invoice.lines) addLine(xml, root === 'CreditNote', l, m);
  return { root, tree: xml };
}
