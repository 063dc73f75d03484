// What a received e-invoice refers to, says and carries, for the block after its totals: the references (BT-10
// buyer reference, BT-11 project, BT-12 contract, BT-13 purchase order of a credit note (an invoice prints it at the
// top), BT-14 sales order, BT-15 receiving advice, BT-16 despatch advice, BT-17 tender or lot, BT-18 invoiced object
// with its scheme, BT-19 buyer accounting reference, BT-23 business process, BT-24 specification); the notes (BG-1)
// each with its subject code; the attached documents (BG-24) by id, description, file name or address: never their
// content. Plain data for the view.
import type { EInvoice, SupportingDocument } from '../../einvoice/model';
import type { ReceivedCheck } from './check';
import type { ReceivedContext } from './context';
import { receivedType } from './document';
import { rows, section, type ReceivedSection } from './sections';

export function referenceSection(invoice: EInvoice, check: ReceivedCheck, { text, scheme, code }: ReceivedContext): ReceivedSection[] {
  const object = invoice.invoicedObject;
  return section(
    'references',
    text('references'),
    rows(
      [text('buyer_reference'), invoice.buyerReference],
      [text('purchase_order'), receivedType(invoice) === 'credit_note' ? invoice.orderReference : undefined],
      [text('project'), invoice.projectReference],
      [text('contract'), invoice.contractReference],
      [text('sales_order'), invoice.salesOrderReference],
      [text('receiving_advice'), invoice.receivingAdvice],
      [text('despatch_advice'), invoice.despatchAdvice],
      [text('tender'), invoice.tenderReference],
      [text('invoiced_object'), object && scheme(object.id, object.scheme)],
      [text('accounting_reference'), invoice.buyerAccountingReference],
      // France's billing frameworks (B1, S1, M1 …) in words; any other process as it is.
      [text('business_process'), invoice.businessProcess && code('billing_framework', invoice.businessProcess)],
      [text('specification'), invoice.specification ?? check.specification ?? undefined],
    ),
  );
}

/** Each note with its subject (UNCL4451: AAI, REG, France's PMT, PMD, AAB …) in words as its label, or its text alone. */
export function notesSection(invoice: EInvoice, { text, code }: ReceivedContext): ReceivedSection | undefined {
  if (invoice.notes.length === 0) return undefined;
  const list = invoice.notes.map((n) => ({
    label: n.subjectCode ? code('note_subject', n.subjectCode) : '',
    value: n.text,
    multiline: true,
  }));
  return { key: 'notes', title: text('notes'), rows: list };
}

/** Where the document is: its file name, its address, or both. */
function whereText(d: SupportingDocument): string | undefined {
  const where = [d.content?.filename ?? d.pdf?.filename, d.url].filter(Boolean);
  return where.length > 0 ? where.join('\n') : undefined;
}

export function attachmentSection(invoice: EInvoice, { text }: ReceivedContext): ReceivedSection[] {
  const list = invoice.documents.map((d) => {
    return { label: d.id, value: [d.description, whereText(d)].filter(Boolean).join('\n'), multiline: true };
  });
  return section('attachments', text('attachments'), list);
}
