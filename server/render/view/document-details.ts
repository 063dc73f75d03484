// The details a reader of an EU invoice needs beside its number and dates (EN 16931): the date of supply (BT-72), the
// invoicing period (BG-14), the VAT point date (BT-7), the invoices it refers to (BG-3; a credit note's original
// invoice) and the payee when someone other than the seller is paid (BG-10, factoring). Each as a labelled detail
// row, dates formatted like the document's others. Plain data for the view model; computes nothing.
import type { DocumentRequest } from '../../documents/model';
import type { Period } from '../../documents/schema-types';
import type { Formatter } from '../labels/format';

/** The label keys of the catalogues (locales/*.json `labels`) the new details and line details use. */
export type DetailLabelKey =
  | 'delivery_date_title'
  | 'period_title'
  | 'tax_point_date_title'
  | 'preceding_invoice_title'
  | 'payee_title'
  | 'seller_item_id_title'
  | 'buyer_item_id_title'
  | 'standard_item_id_title'
  | 'origin_country_title'
  | 'sku_title'
  | 'allowance_title'
  | 'charge_title';

/** The fixed texts (locales/*.json `text`) they are written with. */
export type DetailTextKey =
  'labelled' | 'period' | 'period_from' | 'period_until' | 'invoice_of' | 'line_allowance' | 'line_charge' | 'quantity_unit';

export interface DetailContext {
  fmt: Formatter;
  label: (key: DetailLabelKey) => string;
  /** A fixed text of the catalogue with its placeholders filled in. */
  text: (key: DetailTextKey, values: Record<string, string>) => string;
}

export interface DetailRow {
  label: string;
  value: string;
  multiline?: boolean;
}

/** A period as printed: "1 Mar 2026 – 31 Mar 2026", "from 1 Mar 2026", "until …"; undefined when it has no date. */
export function periodText(period: Period | undefined, { fmt, text }: Pick<DetailContext, 'fmt' | 'text'>): string | undefined {
  const start = period?.start ? fmt.formatDate(period.start) : undefined;
  const end = period?.end ? fmt.formatDate(period.end) : undefined;
  if (start && end) return text('period', { start, end });
  if (start) return text('period_from', { start });
  if (end) return text('period_until', { end });
  return undefined;
}

/** A credit note's most important reference is the invoice it corrects: it comes right after the issue date. */
const leadsWithPrecedingInvoice = (doc: DocumentRequest): boolean => doc.type === 'credit_note';

/** The rows after the issue date: a credit note's original invoice, then the date of supply, the invoicing period
 * and the VAT point date. */
export function supplyDetails(doc: DocumentRequest, ctx: DetailContext): DetailRow[] {
  const { fmt, label } = ctx;
  const out: DetailRow[] = leadsWithPrecedingInvoice(doc) ? precedingInvoices(doc, ctx) : [];
  if (doc.delivery_date) out.push({ label: label('delivery_date_title'), value: fmt.formatDate(doc.delivery_date) });
  const period = periodText(doc.invoice_period, ctx);
  if (period) out.push({ label: label('period_title'), value: period });
  if (doc.tax_point_date) out.push({ label: label('tax_point_date_title'), value: fmt.formatDate(doc.tax_point_date) });
  return out;
}

/** Who is paid, when not the seller (after the payment terms and the due date). */
export function payeeDetails(doc: DocumentRequest, { label }: DetailContext): DetailRow[] {
  const name = doc.e_invoice?.payee?.name;
  return name ? [{ label: label('payee_title'), value: name }] : [];
}

/** The rows after the purchase order: the preceding invoices of any document but a credit note. */
export function precedingInvoiceDetails(doc: DocumentRequest, ctx: DetailContext): DetailRow[] {
  return leadsWithPrecedingInvoice(doc) ? [] : precedingInvoices(doc, ctx);
}

/** The preceding invoices, "RE-2026-0042 of Mar 2, 2026": one row, an invoice a line, beside one label. */
function precedingInvoices(doc: DocumentRequest, { fmt, label, text }: DetailContext): DetailRow[] {
  if (doc.preceding_invoices.length === 0) return [];
  const lines = doc.preceding_invoices.map((invoice) =>
    invoice.date ? text('invoice_of', { number: invoice.number, date: fmt.formatDate(invoice.date) }) : invoice.number,
  );
  return [{ label: label('preceding_invoice_title'), value: lines.join('\n'), multiline: lines.length > 1 }];
}
