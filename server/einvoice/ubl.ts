// The EN 16931 model (model.ts) as a UBL 2.1 Invoice (380) or CreditNote (381), declared per profile (Peppol BIS
// Billing 3.0, EN 16931, XRechnung 3.0). Element order follows the UBL XSD sequences; no empty element is written
// (PEPPOL-EN16931-R008). Writes what the model holds, rounds nothing (amounts arrive rounded). Must not validate
// (xsd-validator.ts does) or decide content (map.ts does).
import { create } from 'xmlbuilder2';
import type { XMLBuilder } from 'xmlbuilder2/lib/interfaces';
import { xmlText } from './xml-text';
import { amountText, decimalText } from '../money/amount-text';
import type { Decimal } from '../money/totals';
import type { AllowanceCharge, EInvoice, Party, VatCategory } from './model';
import { BUSINESS_PROCESS, SPECIFICATION_ID } from './profiles';

const NS = {
  Invoice: 'urn:oasis:names:specification:ubl:schema:xsd:Invoice-2',
  CreditNote: 'urn:oasis:names:specification:ubl:schema:xsd:CreditNote-2',
  cac: 'urn:oasis:names:specification:ubl:schema:xsd:CommonAggregateComponents-2',
  cbc: 'urn:oasis:names:specification:ubl:schema:xsd:CommonBasicComponents-2',
};
/** Marks where the base64 PDF goes; replaced after validation (see pipeline.ts). */
export const PDF_PLACEHOLDER = 'UERGUExBQ0VIT0xERVI=';

export type UblRoot = 'Invoice' | 'CreditNote';

export interface UblDocument {
  root: UblRoot;
  /** The XML, with PDF_PLACEHOLDER where the PDF's base64 goes (when the model has an attachment). */
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

function addParty(parent: Node, wrapper: string, party: Party): void {
  const p = cac(cac(parent, wrapper), 'Party');
  if (party.endpoint) cbc(p, 'EndpointID', party.endpoint.id, { schemeID: party.endpoint.scheme });
  cbc(cac(p, 'PartyName'), 'Name', party.name);
  const a = party.address;
  // An address with nothing in it is left out (an empty element is a Peppol error, PEPPOL-EN16931-R008).
  if (Object.values(a).some((v) => v !== undefined)) {
    const address = cac(p, 'PostalAddress');
    cbc(address, 'StreetName', a.street);
    cbc(address, 'AdditionalStreetName', a.additionalStreet);
    cbc(address, 'CityName', a.city);
    cbc(address, 'PostalZone', a.postalCode);
    cbc(address, 'CountrySubentity', a.region);
    if (a.line3) cbc(cac(address, 'AddressLine'), 'Line', a.line3);
    if (a.country) cbc(cac(address, 'Country'), 'IdentificationCode', a.country);
  }
  if (party.vatId) {
    const scheme = cac(p, 'PartyTaxScheme');
    cbc(scheme, 'CompanyID', party.vatId);
    cbc(cac(scheme, 'TaxScheme'), 'ID', 'VAT');
  }
  const legal = cac(p, 'PartyLegalEntity');
  cbc(legal, 'RegistrationName', party.name);
  cbc(legal, 'CompanyID', party.companyId);
  if (party.contact) {
    const contact = cac(p, 'Contact');
    cbc(contact, 'Name', party.contact.name);
    cbc(contact, 'Telephone', party.contact.phone);
    cbc(contact, 'ElectronicMail', party.contact.email);
  }
}

function addCategory(
  parent: Node,
  name: 'TaxCategory' | 'ClassifiedTaxCategory',
  category: VatCategory,
  exemption?: { reason?: string; code?: string },
): void {
  const c = cac(parent, name);
  cbc(c, 'ID', category.code);
  // "Not subject to VAT" carries no rate at all (BR-O-05 … BR-O-09).
  if (category.rate) cbc(c, 'Percent', decimalText(category.rate));
  if (exemption) {
    cbc(c, 'TaxExemptionReasonCode', exemption.code);
    cbc(c, 'TaxExemptionReason', exemption.reason);
  }
  cbc(cac(c, 'TaxScheme'), 'ID', 'VAT');
}

export function buildUbl(invoice: EInvoice): UblDocument {
  const root: UblRoot = invoice.typeCode === '381' ? 'CreditNote' : 'Invoice';
  const money = (parent: Node, name: string, value: Decimal | undefined): void => {
    if (value !== undefined) parent.ele(NS.cbc, `cbc:${name}`, { currencyID: invoice.currency }).txt(amountText(value, invoice.minorUnits));
  };

  const xml = create({ version: '1.0', encoding: 'UTF-8' }).ele(NS[root], root, { 'xmlns:cac': NS.cac, 'xmlns:cbc': NS.cbc });
  cbc(xml, 'CustomizationID', SPECIFICATION_ID[invoice.profile]);
  cbc(xml, 'ProfileID', BUSINESS_PROCESS[invoice.profile]);
  cbc(xml, 'ID', invoice.number);
  cbc(xml, 'IssueDate', invoice.issueDate);
  if (root === 'Invoice') {
    cbc(xml, 'DueDate', invoice.dueDate);
    cbc(xml, 'InvoiceTypeCode', invoice.typeCode);
  } else {
    cbc(xml, 'CreditNoteTypeCode', invoice.typeCode);
  }
  for (const note of invoice.notes) cbc(xml, 'Note', note);
  cbc(xml, 'DocumentCurrencyCode', invoice.currency);
  cbc(xml, 'BuyerReference', invoice.buyerReference);
  if (invoice.orderReference) cbc(cac(xml, 'OrderReference'), 'ID', invoice.orderReference);
  if (invoice.precedingInvoice) cbc(cac(cac(xml, 'BillingReference'), 'InvoiceDocumentReference'), 'ID', invoice.precedingInvoice);
  if (invoice.attachment) {
    const reference = cac(xml, 'AdditionalDocumentReference');
    cbc(reference, 'ID', invoice.attachment.id);
    cbc(reference, 'DocumentDescription', invoice.attachment.description);
    cbc(cac(reference, 'Attachment'), 'EmbeddedDocumentBinaryObject', PDF_PLACEHOLDER, {
      mimeCode: invoice.attachment.mimeCode,
      filename: invoice.attachment.filename,
    });
  }

  addParty(xml, 'AccountingSupplierParty', invoice.seller);
  addParty(xml, 'AccountingCustomerParty', invoice.buyer);

  const pay = invoice.payment;
  if (pay) {
    const pm = cac(xml, 'PaymentMeans');
    cbc(pm, 'PaymentMeansCode', pay.code, pay.text ? { name: pay.text } : undefined);
    if (root === 'CreditNote') cbc(pm, 'PaymentDueDate', invoice.dueDate);
    for (const note of pay.notes) cbc(pm, 'InstructionNote', note);
    cbc(pm, 'PaymentID', pay.paymentId);
    if (pay.iban) {
      const account = cac(pm, 'PayeeFinancialAccount');
      cbc(account, 'ID', pay.iban);
      cbc(account, 'Name', pay.accountName);
      if (pay.bic) cbc(cac(account, 'FinancialInstitutionBranch'), 'ID', pay.bic);
    }
  }
  if (invoice.paymentTerms) cbc(cac(xml, 'PaymentTerms'), 'Note', invoice.paymentTerms);

  const adjustment = (a: AllowanceCharge) => {
    const ac = cac(xml, 'AllowanceCharge');
    cbc(ac, 'ChargeIndicator', a.charge ? 'true' : 'false');
    cbc(ac, 'AllowanceChargeReasonCode', a.reasonCode);
    cbc(ac, 'AllowanceChargeReason', a.reason);
    if (a.percent) cbc(ac, 'MultiplierFactorNumeric', decimalText(a.percent));
    money(ac, 'Amount', a.amount);
    money(ac, 'BaseAmount', a.base);
    addCategory(ac, 'TaxCategory', a.vat);
  };
  // UBL lists allowances and charges in one sequence; allowances first, as EN 16931 numbers them (BG-20, BG-21).
  for (const a of invoice.allowancesCharges) if (!a.charge) adjustment(a);
  for (const a of invoice.allowancesCharges) if (a.charge) adjustment(a);

  const taxTotal = cac(xml, 'TaxTotal');
  money(taxTotal, 'TaxAmount', invoice.totals.tax);
  for (const b of invoice.vatBreakdown) {
    const st = cac(taxTotal, 'TaxSubtotal');
    money(st, 'TaxableAmount', b.taxable);
    money(st, 'TaxAmount', b.tax);
    addCategory(st, 'TaxCategory', b.category, { reason: b.exemptionReason, code: b.exemptionReasonCode });
  }

  const t = invoice.totals;
  const monetary = cac(xml, 'LegalMonetaryTotal');
  money(monetary, 'LineExtensionAmount', t.lineNet);
  money(monetary, 'TaxExclusiveAmount', t.taxExclusive);
  money(monetary, 'TaxInclusiveAmount', t.taxInclusive);
  money(monetary, 'AllowanceTotalAmount', t.allowances);
  money(monetary, 'ChargeTotalAmount', t.charges);
  money(monetary, 'PrepaidAmount', t.prepaid);
  money(monetary, 'PayableAmount', t.payable);

  const lineName = root === 'Invoice' ? 'InvoiceLine' : 'CreditNoteLine';
  const quantityName = root === 'Invoice' ? 'InvoicedQuantity' : 'CreditedQuantity';
  for (const l of invoice.lines) {
    const line = cac(xml, lineName);
    cbc(line, 'ID', l.id);
    line.ele(NS.cbc, `cbc:${quantityName}`, { unitCode: l.unitCode }).txt(decimalText(l.quantity));
    money(line, 'LineExtensionAmount', l.net);
    const item = cac(line, 'Item');
    cbc(item, 'Description', l.description);
    cbc(item, 'Name', l.name);
    addCategory(item, 'ClassifiedTaxCategory', l.vat);
    const price = cac(line, 'Price');
    price.ele(NS.cbc, 'cbc:PriceAmount', { currencyID: invoice.currency }).txt(decimalText(l.price));
  }

  return { root, xml: xmlText(xml) };
}
