// The document as the templates see it: labels resolved (request title > localized per-type default > shared
// default), every value formatted for the locale, the columns, rows and total lines of the type's layout (the table
// LAYOUTS below, a module per document family: layout-*.ts) (docs/decisions.md §2, §3, §7).
// Plain data, no HTML: the templates do the markup and Handlebars does the escaping. Must not compute money.
import { parseIsoDate } from '../../documents/dates';
import type { DocumentRequest, DocumentType } from '../../documents/model';
import type { Totals, Decimal } from '../../money/totals';
import type { Catalogues } from '../labels/catalogues';
import { Formatter } from '../labels/format';
import type { Locale } from '../labels/locale';
import { footerView, stampView } from './marks';
import { adjustmentLines, includedTaxLines, type AdjustmentTextKey } from './adjustment-lines';
import { payeeDetails, precedingInvoiceDetails, supplyDetails } from './document-details';
import type { LayoutOf } from './document-layout';
import { packingSlipLayout } from './layout-packing-slip';
import { pricedLayout, timesheetLayout } from './layout-priced';
import { statementLayout } from './layout-statement';
import { lineContext, type LineContext } from './line-details';
import { printable } from '../../documents/printable-text';
import { qrDrawing } from '../../payments/qr';
import type { PaymentCode } from '../../payments/request';
import { qrBillView } from './qr-bill-view';
import type { BrandStyle, Cell, Column, DocumentView, LabelledValue, PaymentCodeView, TotalLine, ViewLabelKey } from './view-types';

export type { BrandStyle, Cell, Column, DocumentView, LabelledValue, PaymentCodeView, TotalLine, ViewLabelKey } from './view-types';

/** More custom fields than this leave the details column for a full-width block of their own (themes/base.css). */
export const CUSTOM_FIELDS_IN_DETAILS = 4;

/** Words up to this many characters are kept whole in a table's labels and values (a column is at least as wide as
 * its longest word); a longer one (a label of 40 Qs, an id of 60 characters) may break anywhere, or it would push
 * the table past the page's edge and the values beside it off the paper. */
const LONG_WORD = 20;

/** Headings of number columns up to this many characters stay on one line ("Unit Price", "Menge", "Qty X"). */
const ONE_LINE_HEADING = 16;
/** Labels of the details and the summary up to this many characters stay on one line ("Customer No.", "Referenced
 * Invoice", Thai "จำนวนเงินรวมทั้งสิ้น"): a long value beside them would otherwise take the width and break them. */
const ONE_LINE_LABEL = 20;

/** The smallest printed module (mm). A symbol is 30 mm across unless its modules would be smaller: a long EPC payload
 * (version 13, 77 modules with the quiet zone) at a fixed 30 mm had 0.39 mm modules, about 3 pixels at 200 dpi,
 * where a scan's pixel grid falling across them made ZXing miss it. At 0.5 mm it is 38.5 mm across. */
export const QR_MODULE_MM = 0.5;

/** The printed width (mm) of a symbol `size` modules across (quiet zone included). */
export const qrWidthMm = (size: number): number => Math.max(30, Math.ceil(size * QR_MODULE_MM * 10) / 10);

export interface ViewContext {
  catalogues: Catalogues;
  locale: Locale;
  timeZone: string;
  now?: Date;
  /** The logo as a data: URI, already fetched by the server (or absent). */
  logoDataUri?: string;
  /** The payment code the request asked for, checked (server/payments/request.ts). */
  paymentCode?: PaymentCode;
  /** The account's brand colours and font (documents/brand.ts). */
  brand?: BrandStyle;
}

/** The payment code as the page shows it: the drawing, a caption and the alternate text in the document's language. */
function paymentCodeView(code: PaymentCode, text: Catalogues['text'], lang: string, money: (v: Decimal) => string): PaymentCodeView {
  const { path, size } = qrDrawing(code.payload);
  const widthMm = qrWidthMm(size);
  if (code.kind === 'link')
    return { path, size, widthMm, caption: code.name, alt: text(lang, 'payment_code_link_alt', { name: code.name }) };
  return {
    path,
    size,
    widthMm,
    caption: text(lang, 'payment_code_epc'),
    alt: text(lang, 'payment_code_epc_alt', { amount: money(code.amount!), name: code.name }),
  };
}

function titleCase(text: string, tag: string): string {
  return text.toLocaleLowerCase(tag).replace(/(^|[\s-])(\p{L})/gu, (_, sep: string, ch: string) => sep + ch.toLocaleUpperCase(tag));
}

/** A label as printed: the title sent in the request, else the type's default in the language (docs/decisions.md §3). */
export function labelFor(
  doc: Pick<DocumentRequest, 'labels' | 'type'>,
  catalogues: Catalogues,
  language: string,
  key: ViewLabelKey,
): string {
  return (doc.labels as Record<string, string | undefined>)[key] ?? catalogues.label(language, doc.type, key);
}

/** Each type's layout (docs/decisions.md §2): the statement, the packing slip, the timesheet, and the documents that
 * price their lines. */
const LAYOUTS: Readonly<Record<DocumentType, LayoutOf>> = {
  invoice: pricedLayout,
  receipt: pricedLayout,
  credit_note: pricedLayout,
  quote: pricedLayout,
  estimate: pricedLayout,
  proforma_invoice: pricedLayout,
  purchase_order: pricedLayout,
  sales_order: pricedLayout,
  work_order: pricedLayout,
  statement: statementLayout,
  timesheet: timesheetLayout,
  packing_slip: packingSlipLayout,
};

/** The documents whose payment_terms is a date: a period's start, an estimate's Valid Until. Sent as an ISO date it
 * prints as the other dates do; any other text prints as sent. */
const DATED_TERMS: ReadonlySet<DocumentType> = new Set(['statement', 'timesheet', 'estimate']);

export function buildView(doc: DocumentRequest, totals: Totals, ctx: ViewContext): DocumentView {
  const { catalogues, locale } = ctx;
  const lang = locale.language;
  const label = (key: ViewLabelKey): string => labelFor(doc, catalogues, lang, key);
  const fmt = new Formatter(locale.tag, totals.currency, totals.minorUnits);
  const line = lineContext(fmt, label, catalogues, locale);
  const money = (v: Decimal): string => fmt.formatMoney(v);
  const adjustments = (): TotalLine[] => {
    return adjustmentLines(totals, { fmt, label, text: adjustmentText });
  };
  const adjustmentText = (key: AdjustmentTextKey, values?: Record<string, string>) => catalogues.text(lang, key, values);
  const included = (): TotalLine[] => includedTaxLines(totals, { fmt, label, text: adjustmentText }).map((l) => ({ ...l, included: true }));
  const { details, fields } = detailsOf(doc, ctx, label, line);
  const laidOut = LAYOUTS[doc.type]({ doc, totals, fmt, label, line, adjustments, included });
  const { columns, rows } = doc.fields.line_numbers ? numbered(laidOut, label('line_number_header')) : laidOut;
  const { totals: totalLines, summary } = laidOut;
  keepNumbersOnOneLine(columns, rows);
  longWords(columns, [...details, ...(summary ? [summary] : [])]);

  const header = label('header');
  const fromLines = doc.from.split(/\r?\n/);
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
    ...paymentParts(ctx, money),
    fromName: fromLines[0]!,
    fromRest: fromLines.slice(1).join('\n'),
    to: { title: label('to_title'), text: doc.to },
    shipTo: doc.ship_to ? { title: label('ship_to_title'), text: doc.ship_to } : undefined,
    details,
    fields,
    summary,
    columns,
    rows,
    itemsDescribed: rows.some((row) => row.some((cell) => cell.sub !== undefined)),
    totals: totalLines,
    notes: doc.notes ? { title: label('notes_title'), text: doc.notes } : undefined,
    terms: doc.terms ? { title: label('terms_title'), text: doc.terms } : undefined,
    pageOf: catalogues.text(lang, 'page_of', { page: '{{page}}', pages: '{{pages}}' }),
    stamp: stampView(doc.stamp, (kind) => catalogues.text(lang, `stamp_${kind}`)),
    footer: footerView(doc.footer === undefined ? undefined : printable(doc.footer)),
    brand: ctx.brand,
  });
}

/** `fields.line_numbers`: a first column numbering the item rows 1, 2, 3 … (a line's allowance and charge rows, which
 * follow it, have none). */
function numbered(layout: { columns: Column[]; rows: Cell[][] }, header: string): { columns: Column[]; rows: Cell[][] } {
  let n = 0;
  return {
    columns: [{ key: 'number', label: header, align: 'right', width: 'qty' }, ...layout.columns],
    rows: layout.rows.map((row) => {
      const adjustment = Boolean(row[0]?.adjustment);
      const cell: Cell = adjustment ? { text: '', align: 'right', adjustment: true } : { text: String(++n), align: 'right', nowrap: true };
      return [cell, ...row];
    }),
  };
}

/** The details column (date, supply, terms, due date, payee, order, preceding invoices, a few custom fields) and the
 * custom fields' own block when there are too many for it. */
function detailsOf(
  doc: DocumentRequest,
  ctx: ViewContext,
  label: (key: ViewLabelKey) => string,
  line: LineContext,
): Pick<DocumentView, 'details' | 'fields'> {
  const { fmt } = line;
  const details: LabelledValue[] = [];
  details.push({ label: label('date_title'), value: doc.date ? fmt.formatDate(doc.date) : fmt.today(ctx.timeZone, ctx.now), nowrap: true });
  details.push(...supplyDetails(doc, line));
  if (doc.payment_terms) {
    const dated = DATED_TERMS.has(doc.type) && parseIsoDate(doc.payment_terms) !== undefined;
    details.push({
      label: label('payment_terms_title'),
      value: dated ? fmt.formatDate(doc.payment_terms) : doc.payment_terms,
      nowrap: dated || undefined,
    });
  }
  if (doc.due_date) details.push({ label: label('due_date_title'), value: fmt.formatDate(doc.due_date), nowrap: true });
  details.push(...payeeDetails(doc, line));
  if (doc.purchase_order) details.push({ label: label('purchase_order_title'), value: doc.purchase_order });
  details.push(...precedingInvoiceDetails(doc, line));
  const customFields = doc.custom_fields.map((cf) => ({ label: cf.name, value: cf.value ?? '' }));
  const ownBlock = customFields.length > CUSTOM_FIELDS_IN_DETAILS;
  if (!ownBlock) details.push(...customFields);
  return { details, fields: ownBlock ? customFields : undefined };
}

/** The payment code beside the totals, or the Swiss QR-bill at the foot of the last page. */
function paymentParts(ctx: ViewContext, money: (v: Decimal) => string): Pick<DocumentView, 'paymentCode' | 'qrBill'> {
  const { paymentCode: code, catalogues, locale } = ctx;
  return {
    paymentCode: code && code.kind !== 'swiss_qr_bill' ? paymentCodeView(code, catalogues.text, locale.language, money) : undefined,
    qrBill: code?.bill && qrBillView(code.bill, code.payload, locale.qrBill ?? 'en', catalogues.qrBill(locale.qrBill ?? 'en')),
  };
}

/** Whether `text` has a word longer than LONG_WORD characters (words as CSS breaks them: a no-break space joins). */
const hasLongWord = (text: string): boolean => text.split(/[ \t\n\r\f]+/).some((word) => [...word].length > LONG_WORD);

/** Marks the headings, labels and values with a word longer than LONG_WORD, which may break anywhere. */
function longWords(columns: Column[], labelled: LabelledValue[]): void {
  for (const column of columns) if (hasLongWord(column.label)) column.wrap = column.breakLabel = true;
  for (const row of labelled) {
    if (hasLongWord(row.label)) row.breakLabel = true;
    else if ([...row.label].length <= ONE_LINE_LABEL) row.oneLineLabel = true;
    if (!row.nowrap && hasLongWord(row.value)) row.breakValue = true;
  }
}

/** Numbers are never wrapped (right-aligned cells are money, quantities and rates; dates say so themselves), nor
 * number headings up to a short phrase. */
function keepNumbersOnOneLine(columns: Column[], rows: Cell[][]): void {
  for (const column of columns) column.wrap = column.label.length > ONE_LINE_HEADING;
  for (const cells of rows) for (const cell of cells) if (cell.align === 'right') cell.nowrap = true;
}

/** Every text of the view made printable (documents/printable-text.ts); the logo's data: URI is left alone. */
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
