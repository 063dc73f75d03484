// The marks a document carries beside its content: the stamp (`stamp`: a kind or its own words, across the first page
// or every page) and the letterhead footer (`footer`). Reads them as sent into what the view prints, and names what a
// document cannot carry: a "paid" stamp on a document that asks for no payment, a footer beside the Swiss QR-bill,
// whose payment part takes the foot of the page. Knows no HTML or CSS (render/ prints them).
import type { DocumentBody } from './schema-types';
import type { DocumentType, Stamp, StampKind } from './model';
import type { FieldProblem } from '../errors';

/** The documents that ask for a payment, which a "paid" stamp can settle. */
const PAYABLE: ReadonlySet<DocumentType> = new Set([
  'invoice',
  'receipt',
  'proforma_invoice',
  'statement',
  'purchase_order',
  'sales_order',
  'work_order',
]);

/** The stamp as sent (a kind, or an object) as printed: its kind, its words, its pages (first by default). */
export function stampOf(sent: DocumentBody['stamp']): Stamp | undefined {
  if (sent === undefined) return undefined;
  if (typeof sent === 'string') return { kind: sent, pages: 'first' };
  return { kind: sent.kind, text: sent.text?.trim(), pages: sent.pages ?? 'first' };
}

/** What the document cannot carry of its marks, each naming its field. */
export function markProblems(doc: { type: DocumentType; stamp?: Stamp; footer?: string; payment_code?: string }): FieldProblem[] {
  const problems: FieldProblem[] = [];
  const kind: StampKind | undefined = doc.stamp?.kind;
  if (kind === 'paid' && !PAYABLE.has(doc.type)) {
    const field = doc.stamp?.text === undefined && typeof kind === 'string' ? 'stamp' : 'stamp.kind';
    problems.push({
      field,
      message: `${field} "paid" is for a document that asks for payment, not a ${doc.type.replace(/_/g, ' ')}; send {"text": …} for words of your own`,
    });
  }
  if (doc.footer !== undefined && doc.payment_code === 'swiss_qr_bill') {
    problems.push({
      field: 'footer',
      message: 'footer cannot be combined with payment_code "swiss_qr_bill": the QR-bill\'s payment part takes the foot of the page',
    });
  }
  return problems;
}
