// The header agreement and delivery of a CII document, in the D16B / Factur-X sequence: buyer reference (BT-10), the
// parties (BG-4, BG-7, BG-11), the order, contract and other references (BT-11 … BT-14, BT-17, BT-18), the supporting
// documents (BG-24) and, under ram:ApplicableHeaderTradeDelivery, the delivery (BG-13, BG-15) with the despatch and
// receiving advices (BT-15, BT-16). Writes what the model holds; decides nothing.
import type { EInvoice, Identifier, SupportingDocument } from '../model';
import { date, ram, text, wrapped, type Node } from './cii-xml';
import { party, shipTo, taxRepresentative } from './parties';

/** ram:AdditionalReferencedDocument: 916 a supporting document (BG-24), 50 a tender or lot (BT-17), 130 an
 * invoiced object (BT-18, its scheme as ReferenceTypeCode). */
function additional(parent: Node, ref: Identifier, typeCode: '916' | '50' | '130', doc?: SupportingDocument): void {
  const el = ram(parent, 'AdditionalReferencedDocument');
  text(el, 'IssuerAssignedID', ref.id); // BT-122 / BT-17 / BT-18
  text(el, 'URIID', doc?.url); // BT-124
  text(el, 'TypeCode', typeCode);
  text(el, 'Name', doc?.description); // BT-123
  const c = doc?.content;
  if (c) text(el, 'AttachmentBinaryObject', c.base64, { mimeCode: c.mimeCode, filename: c.filename }); // BT-125
  if (typeCode === '130') text(el, 'ReferenceTypeCode', ref.scheme); // BT-18-1
}

/** `keyFigures`: MINIMUM (the parties reduced to what it has a place for, parties.ts). */
export function agreement(transaction: Node, invoice: EInvoice, keyFigures: boolean): void {
  const el = ram(transaction, 'ApplicableHeaderTradeAgreement');
  text(el, 'BuyerReference', invoice.buyerReference); // BT-10
  party(el, 'SellerTradeParty', invoice.seller, keyFigures);
  party(el, 'BuyerTradeParty', invoice.buyer, keyFigures);
  taxRepresentative(el, invoice.taxRepresentative); // BG-11
  wrapped(el, 'SellerOrderReferencedDocument', 'IssuerAssignedID', invoice.salesOrderReference); // BT-14
  wrapped(el, 'BuyerOrderReferencedDocument', 'IssuerAssignedID', invoice.orderReference); // BT-13
  wrapped(el, 'ContractReferencedDocument', 'IssuerAssignedID', invoice.contractReference); // BT-12
  // The service's own PDF rendering is UBL's supporting document; CII carries none (Factur-X carries the XML in it).
  for (const d of invoice.documents) if (!d.pdf) additional(el, { id: d.id }, '916', d);
  if (invoice.tenderReference) additional(el, { id: invoice.tenderReference }, '50');
  if (invoice.invoicedObject) additional(el, invoice.invoicedObject, '130');
  if (invoice.projectReference) {
    const project = ram(el, 'SpecifiedProcuringProject');
    text(project, 'ID', invoice.projectReference); // BT-11
    text(project, 'Name', 'Project reference'); // required by the XSD, not a business term
  }
}

/** ram:ApplicableHeaderTradeDelivery: required by the XSD, so written even when empty. */
export function delivery(transaction: Node, invoice: EInvoice): void {
  const el = ram(transaction, 'ApplicableHeaderTradeDelivery');
  const d = invoice.delivery;
  shipTo(el, d); // BT-70, BT-71, BG-15
  if (d?.date) date(ram(el, 'ActualDeliverySupplyChainEvent'), 'OccurrenceDateTime', d.date); // BT-72
  wrapped(el, 'DespatchAdviceReferencedDocument', 'IssuerAssignedID', invoice.despatchAdvice); // BT-16
  wrapped(el, 'ReceivingAdviceReferencedDocument', 'IssuerAssignedID', invoice.receivingAdvice); // BT-15
}
