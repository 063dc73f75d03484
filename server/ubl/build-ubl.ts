// The UBL 2.1 document (decisions §8): Invoice for invoice and receipt, CreditNote for credit_note, declared as
// Peppol BIS Billing 3.0. Built from the validated document and the shared totals, so every amount equals the PDF's.
// Element order follows the UBL XSD sequences. No empty elements are written (PEPPOL-EN16931-R008).
// Must not validate (xsd-validator.ts does) or render.
import { create } from 'xmlbuilder2';
import type { XMLBuilder } from 'xmlbuilder2/lib/interfaces';
import { isEInvoiceType, type DocumentRequest } from '../documents/model';
import { parseDocumentDate, todayIso } from '../documents/dates';
import { DomainError, errors, type FieldProblem } from '../errors';
import type { Decimal, Totals } from '../money/totals';
import { partyFrom, type UblParty } from './parties';
import { taxBreakdown, type TaxCategory } from './tax-breakdown';

const NS = {
  Invoice: 'urn:oasis:names:specification:ubl:schema:xsd:Invoice-2',
  CreditNote: 'urn:oasis:names:specification:ubl:schema:xsd:CreditNote-2',
  cac: 'urn:oasis:names:specification:ubl:schema:xsd:CommonAggregateComponents-2',
  cbc: 'urn:oasis:names:specification:ubl:schema:xsd:CommonBasicComponents-2',
};
export const CUSTOMIZATION_ID = 'urn:cen.eu:en16931:2017#compliant#urn:fdc:peppol.eu:2017:poacc:billing:3.0';
export const PROFILE_ID = 'urn:fdc:peppol.eu:2017:poacc:billing:01:1.0';
/** Marks where the base64 PDF goes; replaced after validation (see pipeline.ts). */
export const PDF_PLACEHOLDER = 'UERGUExBQ0VIT0xERVI=';

export type UblRoot = 'Invoice' | 'CreditNote';

export interface UblInput {
  doc: DocumentRequest;
  totals: Totals;
  /** BCP 47 tag of the request, for reading numeric dates (en-US month first). */
  localeTag: string;
  timeZone: string;
  pdfFilename: string;
  /** Localized labels used as allowance/charge reasons, like the PDF's lines. */
  labels: { discount: string; shipping: string };
  now?: Date;
}

export interface UblDocument {
  root: UblRoot;
  /** The XML, with PDF_PLACEHOLDER where the PDF's base64 goes. */
  xml: string;
}

type Node = XMLBuilder;

function cbc(parent: Node, name: string, text: string | undefined, attrs?: Record<string, string>): void {
  if (text === undefined || text.trim() === '') return;
  parent.ele(NS.cbc, `cbc:${name}`, attrs).txt(text);
}

function cac(parent: Node, name: string): Node {
  return parent.ele(NS.cac, `cac:${name}`);
}

/** Decimal text without exponent or trailing zeros (quantities, rates). */
function plain(value: Decimal): string {
  return value.toFixed();
}

function dates(doc: DocumentRequest, localeTag: string, timeZone: string, now?: Date): { issue: string; due?: string } {
  const problems: FieldProblem[] = [];
  const read = (field: 'date' | 'due_date'): string | undefined => {
    const value = doc[field];
    if (value === undefined) return undefined;
    const iso = parseDocumentDate(value, localeTag);
    if (!iso) {
      problems.push({
        field,
        message: `${field} must be a date such as 2015-02-09 or Feb 9, 2015 (numeric dates are read ${localeTag === 'en-US' ? 'month first' : 'day first'} for ${localeTag})`,
      });
    }
    return iso;
  };
  const issue = read('date') ?? todayIso(timeZone, now);
  const due = read('due_date');
  if (problems.length) throw errors.validation(problems);
  return { issue, due };
}

function addParty(parent: Node, wrapper: string, party: UblParty): void {
  const p = cac(cac(parent, wrapper), 'Party');
  if (party.endpoint) cbc(p, 'EndpointID', party.endpoint.id, { schemeID: party.endpoint.scheme });
  cbc(cac(p, 'PartyName'), 'Name', party.name);
  // An address with nothing in it is left out (an empty element is a Peppol error, PEPPOL-EN16931-R008).
  if (party.street || party.additionalStreet || party.city || party.postalZone || party.region || party.addressLine || party.country) {
    const address = cac(p, 'PostalAddress');
    cbc(address, 'StreetName', party.street);
    cbc(address, 'AdditionalStreetName', party.additionalStreet);
    cbc(address, 'CityName', party.city);
    cbc(address, 'PostalZone', party.postalZone);
    cbc(address, 'CountrySubentity', party.region);
    if (party.addressLine) cbc(cac(address, 'AddressLine'), 'Line', party.addressLine);
    if (party.country) cbc(cac(address, 'Country'), 'IdentificationCode', party.country);
  }
  if (party.vatId) {
    const scheme = cac(p, 'PartyTaxScheme');
    cbc(scheme, 'CompanyID', party.vatId);
    cbc(cac(scheme, 'TaxScheme'), 'ID', 'VAT');
  }
  const legal = cac(p, 'PartyLegalEntity');
  cbc(legal, 'RegistrationName', party.name);
  cbc(legal, 'CompanyID', party.companyId);
  if (party.email || party.contactName || party.phone) {
    const contact = cac(p, 'Contact');
    cbc(contact, 'Name', party.contactName);
    cbc(contact, 'Telephone', party.phone);
    cbc(contact, 'ElectronicMail', party.email);
  }
}

function addTaxCategory(parent: Node, name: 'TaxCategory' | 'ClassifiedTaxCategory', category: TaxCategory, withExemption: boolean): void {
  const c = cac(parent, name);
  cbc(c, 'ID', category.id);
  // "Not subject to VAT" carries no rate at all (BR-O-05 … BR-O-09).
  if (category.id !== 'O') cbc(c, 'Percent', plain(category.percent));
  if (withExemption) {
    cbc(c, 'TaxExemptionReasonCode', category.exemptionReasonCode);
    cbc(c, 'TaxExemptionReason', category.exemptionReason);
  }
  cbc(cac(c, 'TaxScheme'), 'ID', 'VAT');
}

export function buildUbl(input: UblInput): UblDocument {
  const { doc, totals } = input;
  if (!isEInvoiceType(doc.type)) throw errors.ublType(doc.type);
  // Every problem UBL has with the request is reported at once (the number, the dates, the tax), not the first.
  const problems: FieldProblem[] = [];
  const collect = <T>(step: () => T): T | undefined => {
    try {
      return step();
    } catch (err) {
      if (!(err instanceof DomainError) || err.code !== 'validation_failed' || !err.facts.details) throw err;
      problems.push(...err.facts.details);
      return undefined;
    }
  };
  if (!doc.number) problems.push({ field: 'number', message: 'number is required for a UBL e-invoice (the invoice number, BT-1)' });
  const root: UblRoot = doc.type === 'credit_note' ? 'CreditNote' : 'Invoice';
  const when = collect(() => dates(doc, input.localeTag, input.timeZone, input.now));
  const seller = partyFrom(doc.from, doc.e_invoice?.seller);
  const buyer = partyFrom(doc.to, doc.e_invoice?.buyer);
  const tax = collect(() => taxBreakdown(doc, totals, Boolean(seller.vatId || buyer.vatId)));
  if (problems.length > 0 || !when || !tax) throw errors.validation(problems);
  const { issue, due } = when;
  const currency = totals.currency;
  const money = (parent: Node, name: string, value: Decimal): void => {
    parent.ele(NS.cbc, `cbc:${name}`, { currencyID: currency }).txt(value.toFixed(totals.minorUnits));
  };

  const xml = create({ version: '1.0', encoding: 'UTF-8' }).ele(NS[root], root, { 'xmlns:cac': NS.cac, 'xmlns:cbc': NS.cbc });
  cbc(xml, 'CustomizationID', CUSTOMIZATION_ID);
  cbc(xml, 'ProfileID', PROFILE_ID);
  cbc(xml, 'ID', doc.number);
  cbc(xml, 'IssueDate', issue);
  if (root === 'Invoice') {
    cbc(xml, 'DueDate', due);
    cbc(xml, 'InvoiceTypeCode', '380');
  } else {
    cbc(xml, 'CreditNoteTypeCode', '381');
  }
  // Peppol allows one document note: notes and terms share it.
  cbc(xml, 'Note', [doc.notes, doc.terms].filter(Boolean).join('\n\n') || undefined);
  cbc(xml, 'DocumentCurrencyCode', currency);
  // Peppol wants a buyer reference or an order reference (PEPPOL-EN16931-R003). A client that sends e_invoice data
  // asks for a conformant document; without either reference, the document number stands in as the buyer reference.
  const buyerReference =
    doc.e_invoice?.buyer_reference ?? (doc.e_invoice && !(doc.purchase_order && doc.type === 'invoice') ? doc.number : undefined);
  cbc(xml, 'BuyerReference', buyerReference);
  if (doc.purchase_order && doc.type === 'invoice') cbc(cac(xml, 'OrderReference'), 'ID', doc.purchase_order);
  if (doc.purchase_order && doc.type !== 'invoice') {
    cbc(cac(cac(xml, 'BillingReference'), 'InvoiceDocumentReference'), 'ID', doc.purchase_order);
  }
  const attachment = cac(xml, 'AdditionalDocumentReference');
  cbc(attachment, 'ID', doc.number);
  cbc(attachment, 'DocumentDescription', 'PDF rendering');
  cbc(cac(attachment, 'Attachment'), 'EmbeddedDocumentBinaryObject', PDF_PLACEHOLDER, {
    mimeCode: 'application/pdf',
    filename: input.pdfFilename,
  });

  addParty(xml, 'AccountingSupplierParty', seller);
  addParty(xml, 'AccountingCustomerParty', buyer);

  // One payment means (UBL-SR-47: every payment means code of a document must be equal): the structured one, with a
  // receipt's payment method text as its name, and each payment URL as an instruction note. URLs alone are 68
  // (UNCL4461: online payment service).
  const means = doc.e_invoice?.payment_means;
  const methodText = doc.type === 'receipt' ? doc.payment_terms : undefined;
  if (means || methodText || doc.payment_methods.length > 0) {
    const pm = cac(xml, 'PaymentMeans');
    const code = means?.code ?? (means?.iban ? '30' : doc.payment_methods.length > 0 ? '68' : 'ZZZ');
    const name = methodText ?? (doc.payment_methods.length === 1 && !means ? doc.payment_methods[0]!.name : undefined);
    cbc(pm, 'PaymentMeansCode', code, name ? { name } : undefined);
    if (root === 'CreditNote') cbc(pm, 'PaymentDueDate', due);
    for (const method of doc.payment_methods) cbc(pm, 'InstructionNote', `${method.name}: ${method.url}`);
    cbc(pm, 'PaymentID', means?.payment_id);
    if (means?.iban) {
      const account = cac(pm, 'PayeeFinancialAccount');
      cbc(account, 'ID', means.iban);
      cbc(account, 'Name', means.account_name);
      if (means.bic) cbc(cac(account, 'FinancialInstitutionBranch'), 'ID', means.bic);
    }
  }
  // EN 16931 wants a due date or payment terms when an amount is due (BR-CO-25); for a client that sends e_invoice data
  // and neither, the terms say what an invoice without a due date means.
  const terms = doc.type === 'invoice' ? doc.payment_terms : undefined;
  const dueWithoutTerms = doc.e_invoice && !terms && !due && totals.balance.isPositive() && !totals.balance.isZero();
  if (terms) cbc(cac(xml, 'PaymentTerms'), 'Note', terms);
  else if (dueWithoutTerms) cbc(cac(xml, 'PaymentTerms'), 'Note', 'Payment due on receipt');

  if (!totals.discount.amount.isZero()) {
    const ac = cac(xml, 'AllowanceCharge');
    cbc(ac, 'ChargeIndicator', 'false');
    cbc(ac, 'AllowanceChargeReasonCode', '95'); // UNCL5189 95: discount
    cbc(ac, 'AllowanceChargeReason', input.labels.discount);
    if (totals.discount.mode === 'percent') cbc(ac, 'MultiplierFactorNumeric', plain(totals.discount.rate!));
    money(ac, 'Amount', totals.discount.amount);
    if (totals.discount.mode === 'percent') money(ac, 'BaseAmount', totals.subtotal);
    addTaxCategory(ac, 'TaxCategory', tax.lines, false);
  }
  if (!totals.shipping.amount.isZero()) {
    const ac = cac(xml, 'AllowanceCharge');
    cbc(ac, 'ChargeIndicator', 'true');
    cbc(ac, 'AllowanceChargeReasonCode', 'FC'); // UNCL7161 FC: freight service
    cbc(ac, 'AllowanceChargeReason', input.labels.shipping);
    if (totals.shipping.mode === 'percent') cbc(ac, 'MultiplierFactorNumeric', plain(totals.shipping.rate!));
    money(ac, 'Amount', totals.shipping.amount);
    if (totals.shipping.mode === 'percent') money(ac, 'BaseAmount', totals.afterDiscount);
    addTaxCategory(ac, 'TaxCategory', tax.shipping, false);
  }

  const taxTotal = cac(xml, 'TaxTotal');
  money(taxTotal, 'TaxAmount', tax.total);
  for (const sub of tax.subtotals) {
    const st = cac(taxTotal, 'TaxSubtotal');
    money(st, 'TaxableAmount', sub.taxable);
    money(st, 'TaxAmount', sub.tax);
    addTaxCategory(st, 'TaxCategory', sub.category, true);
  }

  const monetary = cac(xml, 'LegalMonetaryTotal');
  money(monetary, 'LineExtensionAmount', totals.subtotal);
  money(monetary, 'TaxExclusiveAmount', totals.taxExclusive);
  money(monetary, 'TaxInclusiveAmount', totals.total);
  if (!totals.discount.amount.isZero()) money(monetary, 'AllowanceTotalAmount', totals.discount.amount);
  if (!totals.shipping.amount.isZero()) money(monetary, 'ChargeTotalAmount', totals.shipping.amount);
  if (!totals.amountPaid.isZero()) money(monetary, 'PrepaidAmount', totals.amountPaid);
  money(monetary, 'PayableAmount', totals.balance);

  const lineName = root === 'Invoice' ? 'InvoiceLine' : 'CreditNoteLine';
  const quantityName = root === 'Invoice' ? 'InvoicedQuantity' : 'CreditedQuantity';
  doc.items.forEach((item, i) => {
    const t = totals.lines[i]!;
    // EN 16931 forbids a negative price (BR-27): a credit line is a negative quantity at a positive price.
    const negativePrice = t.unitCost.isNegative();
    const line = cac(xml, lineName);
    cbc(line, 'ID', String(i + 1));
    line.ele(NS.cbc, `cbc:${quantityName}`, { unitCode: 'C62' }).txt(plain(negativePrice ? t.quantity.neg() : t.quantity));
    money(line, 'LineExtensionAmount', t.amount);
    const it = cac(line, 'Item');
    cbc(it, 'Description', item.description);
    cbc(it, 'Name', item.name ?? item.description ?? `Line ${i + 1}`);
    addTaxCategory(it, 'ClassifiedTaxCategory', tax.lines, false);
    const price = cac(line, 'Price');
    price.ele(NS.cbc, 'cbc:PriceAmount', { currencyID: currency }).txt(plain(negativePrice ? t.unitCost.neg() : t.unitCost));
  });

  return { root, xml: xml.end({ prettyPrint: false }) };
}
