// The validated document: the one shape every later stage (totals, HTML, UBL) reads.
// Owns the list of types and the TypeScript view of the request after validation, with defaults applied; the shapes
// the schemas define (line items, custom fields, payment methods, e-invoice data) are the ones generated from them
// (schema-types.ts). No I/O, no engine imports.
import type { CustomField, DocumentBody, EInvoice, LineItem, PaymentMethod, StampKind } from './schema-types';

export type { CustomField, EInvoice, EInvoiceParty, LineItem, PaymentMethod, StampKind } from './schema-types';

export const DOCUMENT_TYPES = [
  'invoice',
  'receipt',
  'credit_note',
  'quote',
  'estimate',
  'proforma_invoice',
  'purchase_order',
  'sales_order',
  'statement',
  'timesheet',
  'work_order',
  'packing_slip',
] as const;
export type DocumentType = (typeof DOCUMENT_TYPES)[number];

export function isDocumentType(value: unknown): value is DocumentType {
  return typeof value === 'string' && (DOCUMENT_TYPES as readonly string[]).includes(value);
}

/** The types an e-invoice is made of (UBL Invoice / CreditNote; CII 380 / 381). */
export const E_INVOICE_TYPES = ['invoice', 'receipt', 'credit_note'] as const satisfies readonly DocumentType[];
export type EInvoiceType = (typeof E_INVOICE_TYPES)[number];

export function isEInvoiceType(type: DocumentType): type is EInvoiceType {
  return (E_INVOICE_TYPES as readonly DocumentType[]).includes(type);
}

/** The 21 template parameters, the statement/timesheet column headers, and the titles of the EN 16931 details the
 * PDF prints (date of supply, period, payee, item identifiers, allowances, charges, rounding). */
export const LABEL_KEYS = [
  'header',
  'to_title',
  'ship_to_title',
  'number_title',
  'date_title',
  'payment_terms_title',
  'due_date_title',
  'purchase_order_title',
  'quantity_header',
  'item_header',
  'unit_cost_header',
  'amount_header',
  'subtotal_title',
  'discounts_title',
  'tax_title',
  'shipping_title',
  'total_title',
  'amount_paid_title',
  'balance_title',
  'terms_title',
  'notes_title',
  'date_header',
  'reference_header',
  'charges_header',
  'payments_header',
  'payments_title',
  'allowance_title',
  'charge_title',
  'rounding_title',
  'delivery_date_title',
  'period_title',
  'tax_point_date_title',
  'preceding_invoice_title',
  'payee_title',
  'seller_item_id_title',
  'buyer_item_id_title',
  'standard_item_id_title',
  'origin_country_title',
  'sku_title',
  'line_number_header',
] as const;
export type LabelKey = (typeof LABEL_KEYS)[number];

/** `true`: flat amount; `'%'`: percent rate; `false`: off. */
export type SubtotalMode = boolean | '%';

export interface DocumentRequest {
  type: DocumentType;
  /** A theme id (documents/theme-ids.ts): one of the folders of themes/. */
  theme: string;
  page_size: 'letter' | 'a4';
  logo?: string;
  /** The logo's alternate text (a Figure's /Alt in the tagged PDF); by default from the `logo_alt` text. */
  logo_alt?: string;
  /** A mark across the first page or every page (documents/marks.ts), and the letterhead footer of every page. */
  stamp?: Stamp;
  footer?: string;
  /** Every price and amount sent includes the tax (money/inclusive.ts). */
  prices_include_tax: boolean;
  /** The payment QR code printed beside the totals (server/payments/request.ts). */
  payment_code?: 'epc' | 'swiss_qr_bill' | 'link';
  from: string;
  to: string;
  ship_to?: string;
  number?: string;
  /** ISO 4217, upper case. */
  currency: string;
  custom_fields: CustomField[];
  date?: string;
  items: LineItem[];
  /** What the totals show (tax, discounts, shipping), and whether the item rows are numbered. */
  fields: { tax: SubtotalMode; discounts: SubtotalMode; shipping: SubtotalMode; line_numbers?: boolean };
  discounts?: number;
  tax?: number;
  shipping?: number;
  notes?: string;
  terms?: string;
  purchase_order?: string;
  payment_terms?: string;
  due_date?: string;
  amount_paid?: number;
  amount_refunded?: number;
  payment_methods: PaymentMethod[];
  /** BT-72 the date of supply, BT-7 the VAT point date, BG-14 the invoicing period (dates as sent). */
  delivery_date?: string;
  tax_point_date?: string;
  invoice_period?: DocumentBody['invoice_period'];
  /** BG-3: the invoices this one refers to. */
  preceding_invoices: NonNullable<DocumentBody['preceding_invoices']>;
  /** Several taxes (GST + PST …) instead of `tax` (money/ computes them). */
  taxes?: DocumentBody['taxes'];
  /** Title and header overrides sent in the request (template parameters). */
  labels: Partial<Record<LabelKey, string>>;
  /** Structured e-invoice data (docs/decisions.md §8); the e-invoice outputs read it, the PDF prints what a reader needs. */
  e_invoice?: EInvoice;
}

/** A stamp as the document prints it (documents/marks.ts): its kind (the colour, and the word unless `text`), its
 * own words, and on which pages. */
export interface Stamp {
  kind?: StampKind;
  text?: string;
  pages: 'first' | 'all';
}

/** UNCL5305 VAT category of the lines. */
export type TaxCategoryCode = NonNullable<EInvoice['tax_category']>;
