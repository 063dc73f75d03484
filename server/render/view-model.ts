// The document as the templates see it: labels resolved (request title > localized per-type default > shared
// default), every value formatted for the locale, the per-type columns and total lines chosen (docs/decisions.md §2, §3, §7).
// Plain data, no HTML: the templates do the markup and Handlebars does the escaping. Must not compute money.
import type { DocumentRequest, LabelKey } from '../documents/model';
import type { Totals, Decimal } from '../money/totals';
import type { Catalogues } from './catalogues';
import { Formatter } from './format';
import type { Locale } from './locale';
import { adjustmentLines, type AdjustmentLabelKey } from './adjustment-lines';
import { payeeDetails, precedingInvoiceDetails, supplyDetails, type DetailLabelKey } from './document-details';
import { adjustmentRows } from './line-adjustments';
import { lineContext, lineDetails, quantityWithUnit } from './line-details';
import { printable } from './printable-text';
import { qrDrawing } from '../payments/qr';
import type { PaymentCode } from '../payments/request';
import { qrBillView, type QrBillView } from './qr-bill-view';

/** More custom fields than this leave the details column for a full-width block of their own (themes/base.css). */
export const CUSTOM_FIELDS_IN_DETAILS = 4;

export interface Cell {
  text: string;
  /** A second, lighter line (the item description). */
  sub?: string;
  /** Small lines under the item (identifiers, attributes, period, note: render/line-details.ts). */
  details?: string[];
  align: 'left' | 'right';
  /** A number or date: printed on one line, whatever the column's width (money, quantities, rates, dates). */
  nowrap?: boolean;
  /** A cell of a line's allowance or charge, the sub-row under its line (render/line-adjustments.ts). */
  adjustment?: boolean;
}

export interface Column {
  key: string;
  label: string;
  align: 'left' | 'right';
  /** Width class (themes/base.css): `wide` takes the space the others leave. */
  width: 'wide' | 'date' | 'ref' | 'money' | 'qty';
  /** A number column's heading is kept on one line unless it is longer than a short phrase. */
  wrap?: boolean;
}

/** Headings of number columns up to this many characters stay on one line ("Unit Price", "Menge", "Qty X"). */
const ONE_LINE_HEADING = 16;

export interface LabelledValue {
  label: string;
  value: string;
  /** The value has several lines, each printed on its own (the preceding invoices). */
  multiline?: boolean;
}

export interface TotalLine extends LabelledValue {
  strong?: boolean;
}

export interface DocumentView {
  type: string;
  lang: string;
  /** PDF metadata title, e.g. `Invoice 1`. */
  title: string;
  /** PDF metadata author: the first line of `from`. */
  author: string;
  header: string;
  number?: LabelledValue;
  logo?: string;
  /** The logo's alternate text (the logo_alt field, else "Logo of" and the first line of from). */
  logoAlt: string;
  fromName: string;
  fromRest: string;
  to: { title: string; text: string };
  shipTo?: { title: string; text: string };
  details: LabelledValue[];
  /** Custom fields when there are too many for the details column. */
  fields?: LabelledValue[];
  summary?: LabelledValue;
  columns: Column[];
  rows: Cell[][];
  totals: TotalLine[];
  notes?: { title: string; text: string };
  terms?: { title: string; text: string };
  /** Localized page counter text with `{{page}}` / `{{pages}}` placeholders. */
  pageOf: string;
  /** The payment QR code beside the totals: its drawing, caption and alternate text. */
  paymentCode?: PaymentCodeView;
  /** The Swiss QR-bill's payment part and receipt, at the foot of the last page. */
  qrBill?: QrBillView;
}

export interface PaymentCodeView {
  /** The dark modules as an SVG path in module units; `size` modules across, quiet zone included. */
  path: string;
  size: number;
  caption: string;
  alt: string;
}

export interface ViewContext {
  catalogues: Catalogues;
  locale: Locale;
  timeZone: string;
  now?: Date;
  /** The logo as a data: URI, already fetched by the server (or absent). */
  logoDataUri?: string;
  /** The payment code the request asked for, checked (server/payments/request.ts). */
  paymentCode?: PaymentCode;
}

/** The payment code as the page shows it: the drawing, a caption and the alternate text in the document's language. */
function paymentCodeView(code: PaymentCode, text: Catalogues['text'], lang: string, money: (v: Decimal) => string): PaymentCodeView {
  const { path, size } = qrDrawing(code.payload);
  if (code.kind === 'link') return { path, size, caption: code.name, alt: text(lang, 'payment_code_link_alt', { name: code.name }) };
  return {
    path,
    size,
    caption: text(lang, 'payment_code_epc'),
    alt: text(lang, 'payment_code_epc_alt', { amount: money(code.amount!), name: code.name }),
  };
}

function titleCase(text: string, tag: string): string {
  return text.toLocaleLowerCase(tag).replace(/(^|[\s-])(\p{L})/gu, (_, sep: string, ch: string) => sep + ch.toLocaleUpperCase(tag));
}

/** Every label the view prints: the request's template parameters and the catalogue's own. */
export type ViewLabelKey = LabelKey | 'description_header' | 'total_quantity_title' | DetailLabelKey | AdjustmentLabelKey;

/** A label as printed: the title sent in the request, else the type's default in the language (docs/decisions.md §3). */
export function labelFor(
  doc: Pick<DocumentRequest, 'labels' | 'type'>,
  catalogues: Catalogues,
  language: string,
  key: ViewLabelKey,
): string {
  return (doc.labels as Record<string, string | undefined>)[key] ?? catalogues.label(language, doc.type, key);
}

export function buildView(doc: DocumentRequest, totals: Totals, ctx: ViewContext): DocumentView {
  const { catalogues, locale } = ctx;
  const lang = locale.language;
  const label = (key: ViewLabelKey): string => labelFor(doc, catalogues, lang, key);
  const fmt = new Formatter(locale.tag, totals.currency, totals.minorUnits);
  const lineCtx = lineContext(fmt, label, catalogues, locale);
  const money = (v: Decimal): string => fmt.formatMoney(v);
  const qty = (v: Decimal): string => fmt.formatQuantity(v);
  const isStatement = doc.type === 'statement';
  const isTimesheet = doc.type === 'timesheet';
  const isPackingSlip = doc.type === 'packing_slip';
  const periodTypes = isStatement || isTimesheet;

  const header = label('header');
  const fromLines = doc.from.split(/\r?\n/);
  const details: LabelledValue[] = [];
  details.push({ label: label('date_title'), value: doc.date ? fmt.formatDate(doc.date) : fmt.today(ctx.timeZone, ctx.now) });
  details.push(...supplyDetails(doc, lineCtx));
  if (doc.payment_terms) {
    details.push({ label: label('payment_terms_title'), value: periodTypes ? fmt.formatDate(doc.payment_terms) : doc.payment_terms });
  }
  if (doc.due_date) details.push({ label: label('due_date_title'), value: fmt.formatDate(doc.due_date) });
  details.push(...payeeDetails(doc, lineCtx));
  if (doc.purchase_order) details.push({ label: label('purchase_order_title'), value: doc.purchase_order });
  details.push(...precedingInvoiceDetails(doc, lineCtx));
  const customFields = doc.custom_fields.map((cf) => ({ label: cf.name, value: cf.value ?? '' }));
  const ownBlock = customFields.length > CUSTOM_FIELDS_IN_DETAILS;
  if (!ownBlock) details.push(...customFields);

  const hasRates = totals.lines.some((l) => !l.unitCost.isZero());
  const showMoney = !isPackingSlip && (!isTimesheet || hasRates);

  // Columns and rows per type (docs/decisions.md §2).
  let columns: Column[];
  let rows: Cell[][];
  const itemCell = (item: DocumentRequest['items'][number]): Cell => ({
    text: item.name ?? item.description ?? '',
    sub: item.name ? item.description : undefined,
    details: lineDetails(item, lineCtx),
    align: 'left',
  });
  if (isStatement) {
    columns = [
      { key: 'date', label: label('date_header'), align: 'left', width: 'date' },
      { key: 'reference', label: label('reference_header'), align: 'left', width: 'ref' },
      { key: 'item', label: label('item_header'), align: 'left', width: 'wide' },
      { key: 'charges', label: label('charges_header'), align: 'right', width: 'money' },
      { key: 'payments', label: label('payments_header'), align: 'right', width: 'money' },
      { key: 'balance', label: label('amount_header'), align: 'right', width: 'money' },
    ];
    rows = doc.items.map((item, i) => {
      const line = totals.lines[i]!;
      return [
        { text: item.date ? fmt.formatDate(item.date) : '', align: 'left', nowrap: true },
        { text: item.reference ?? '', align: 'left' },
        itemCell(item),
        { text: line.amount.isZero() ? '' : money(line.amount), align: 'right' },
        { text: line.payment.isZero() ? '' : money(line.payment), align: 'right' },
        { text: money(line.runningBalance), align: 'right' },
      ];
    });
  } else if (isPackingSlip) {
    columns = [
      { key: 'item', label: label('item_header'), align: 'left', width: 'ref' },
      { key: 'description', label: label('description_header'), align: 'left', width: 'wide' },
      { key: 'quantity', label: label('quantity_header'), align: 'right', width: 'qty' },
    ];
    rows = doc.items.map((item, i) => [
      { text: item.name ?? '', align: 'left' },
      { text: item.description ?? '', details: lineDetails(item, lineCtx), align: 'left' },
      { text: quantityWithUnit(totals.lines[i]!.quantity, item.unit, lineCtx), align: 'right' },
    ]);
  } else {
    columns = [];
    if (isTimesheet) columns.push({ key: 'date', label: label('date_header'), align: 'left', width: 'date' });
    columns.push(
      { key: 'item', label: label('item_header'), align: 'left', width: 'wide' },
      { key: 'quantity', label: label('quantity_header'), align: 'right', width: 'qty' },
    );
    // Several VAT rates: each line says its own, so that each amount can be traced to its rate in the breakdown.
    const lineRates = showMoney && totals.vat.perLine && totals.tax.rate === undefined ? lineRateTexts(totals, fmt) : undefined;
    if (showMoney) {
      columns.push({ key: 'rate', label: label('unit_cost_header'), align: 'right', width: 'money' });
      if (lineRates) columns.push({ key: 'tax', label: label('tax_title'), align: 'right', width: 'qty' });
      columns.push({ key: 'amount', label: label('amount_header'), align: 'right', width: 'money' });
    }
    rows = doc.items.flatMap((item, i) => {
      const line = totals.lines[i]!;
      const cells: Cell[] = [];
      if (isTimesheet) cells.push({ text: item.date ? fmt.formatDate(item.date) : '', align: 'left', nowrap: true });
      cells.push(itemCell(item), { text: quantityWithUnit(line.quantity, item.unit, lineCtx), align: 'right' });
      if (showMoney) {
        cells.push({ text: fmt.formatRate(line.unitCost), align: 'right' });
        if (lineRates) cells.push({ text: lineRates[i]!, align: 'right' });
        // Before its allowances and charges, which follow as sub-rows: the column adds up to the subtotal.
        cells.push({ text: money(line.gross), align: 'right' });
      }
      return [cells, ...(showMoney ? adjustmentRows(line.adjustments, columns, lineCtx) : [])];
    });
  }

  // Total lines: "null or zero is omitted"; Subtotal only when an adjustment line shows.
  const totalsOut: TotalLine[] = [];
  const adjustments = (): void => {
    const text = (key: 'rate_label' | 'tax_on', values: Record<string, string>) => catalogues.text(lang, key, values);
    totalsOut.push(...adjustmentLines(totals, { fmt, label, text }));
  };
  let summary: LabelledValue | undefined;
  if (isPackingSlip) {
    totalsOut.push({ label: label('total_quantity_title'), value: qty(totals.totalQuantity), strong: true });
  } else if (isStatement) {
    if (totals.show.amountPaid) totalsOut.push({ label: label('amount_paid_title'), value: money(totals.amountPaid) });
    totalsOut.push({ label: label('subtotal_title'), value: money(totals.subtotal) });
    adjustments();
    if (totals.show.payments) totalsOut.push({ label: label('payments_title'), value: money(totals.payments) });
    if (totals.show.rounding) totalsOut.push({ label: label('rounding_title'), value: money(totals.rounding) });
    totalsOut.push({ label: label('balance_title'), value: money(totals.balance), strong: true });
    summary = { label: label('balance_title'), value: money(totals.balance) };
  } else {
    if (isTimesheet) totalsOut.push({ label: label('subtotal_title'), value: qty(totals.totalQuantity), strong: !showMoney });
    if (showMoney) {
      if (totals.show.subtotal && !isTimesheet) totalsOut.push({ label: label('subtotal_title'), value: money(totals.subtotal) });
      adjustments();
      // The amount due after a payment or a rounding (BT-114): Balance, after what it takes into account.
      const due = totals.show.amountPaid || totals.show.rounding;
      totalsOut.push({ label: label('total_title'), value: money(totals.total), strong: !due });
      if (totals.show.amountPaid) totalsOut.push({ label: label('amount_paid_title'), value: money(totals.amountPaid) });
      if (totals.show.rounding) totalsOut.push({ label: label('rounding_title'), value: money(totals.rounding) });
      if (due) totalsOut.push({ label: label('balance_title'), value: money(totals.balance), strong: true });
    }
    if (doc.type === 'invoice' || doc.type === 'credit_note') {
      summary = { label: label('balance_title'), value: money(totals.balance) };
    } else if (doc.type === 'receipt') {
      summary = { label: label('amount_paid_title'), value: money(totals.amountPaid) };
    } else if (showMoney) {
      summary = { label: label('total_title'), value: money(totals.total) };
    } else if (isTimesheet) {
      summary = { label: label('subtotal_title'), value: qty(totals.totalQuantity) };
    }
  }

  for (const column of columns) column.wrap = column.label.length > ONE_LINE_HEADING;
  // Numbers are never wrapped (right-aligned cells are money, quantities and rates; dates say so themselves).
  for (const cells of rows) for (const cell of cells) if (cell.align === 'right') cell.nowrap = true;

  const titleWord = titleCase(header, locale.tag);
  return printableView({
    type: doc.type,
    lang: locale.tag,
    title: doc.number ? catalogues.text(lang, 'document_title', { title: titleWord, number: doc.number }) : titleWord,
    author: fromLines[0]!.trim(),
    header,
    number: doc.number ? { label: label('number_title'), value: doc.number } : undefined,
    logo: ctx.logoDataUri,
    logoAlt: doc.logo_alt ?? catalogues.text(lang, 'logo_alt', { name: fromLines[0]!.trim() }),
    paymentCode:
      ctx.paymentCode && ctx.paymentCode.kind !== 'swiss_qr_bill'
        ? paymentCodeView(ctx.paymentCode, catalogues.text, lang, money)
        : undefined,
    qrBill:
      ctx.paymentCode?.bill &&
      qrBillView(ctx.paymentCode.bill, ctx.paymentCode.payload, locale.qrBill ?? 'en', catalogues.qrBill(locale.qrBill ?? 'en')),
    fromName: fromLines[0]!,
    fromRest: fromLines.slice(1).join('\n'),
    to: { title: label('to_title'), text: doc.to },
    shipTo: doc.ship_to ? { title: label('ship_to_title'), text: doc.ship_to } : undefined,
    details,
    fields: ownBlock ? customFields : undefined,
    summary,
    columns,
    rows,
    totals: totalsOut,
    notes: doc.notes ? { title: label('notes_title'), text: doc.notes } : undefined,
    terms: doc.terms ? { title: label('terms_title'), text: doc.terms } : undefined,
    pageOf: catalogues.text(lang, 'page_of', { page: '{{page}}', pages: '{{pages}}' }),
  });
}

/** Each line's VAT rate as printed, from its group (money/vat.ts). */
function lineRateTexts(totals: Totals, fmt: Formatter): string[] {
  const out: string[] = [];
  for (const group of totals.vat.groups) for (const i of group.lines) out[i] = fmt.formatPercent(group.rate!);
  return out;
}

/** Every text of the view made printable (render/printable-text.ts); the logo's data: URI is left alone. */
function printableView(view: DocumentView): DocumentView {
  // A plain loop rather than Object.entries/fromEntries: a 1,000-line statement has 6,000 cells.
  const walk = (value: unknown, key?: string): unknown => {
    if (typeof value === 'string') return key === 'logo' ? value : printable(value);
    if (Array.isArray(value)) return value.map((v) => walk(v));
    if (value && typeof value === 'object') {
      const out: Record<string, unknown> = {};
      for (const k of Object.keys(value)) out[k] = walk((value as Record<string, unknown>)[k], k);
      return out;
    }
    return value;
  };
  return walk(view) as DocumentView;
}
