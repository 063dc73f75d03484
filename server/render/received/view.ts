// A received e-invoice as the view the templates print (ReceivedView): the request it reads as
// (render/received/document.ts) and its stated totals (render/received/stated-totals.ts) through the view of every document
// (render/view/view-model.ts), so that it looks like every other document in every theme and language; then the block
// of the terms that view does not print (parties' identifiers, payee, tax representative, delivery, VAT
// breakdown, payment, references, notes, attached documents) and the line saying how it was checked. Every text
// made printable like the rest of the view. Computes no money; the pipeline prints the result.
import type { DocumentRequest } from '../../documents/model';
import type { EInvoice, Line } from '../../einvoice/model';
import { statedTotals } from './stated-totals';
import type { Totals } from '../../money/totals';
import { Formatter } from '../labels/format';
import { printable } from '../../documents/printable-text';
import { checkLine, type ReceivedCheck } from './check';
import { receivedContext, type ReceivedContext } from './context';
import { receivedDocument, type ReceivedDocumentOptions } from './document';
import { partySections } from './parties';
import { paymentSection, vatTable } from './payment';
import { attachmentSection, notesSection, referenceSection } from './references';
import type { ReceivedBlock, ReceivedRow, ReceivedView } from './sections';
import { buildView, type Cell, type ViewContext } from '../view/view-model';

export type { ReceivedCheck } from './check';
export type { ReceivedView } from './sections';

export interface ReceivedPage {
  doc: DocumentRequest;
  totals: Totals;
  view: ReceivedView;
}

/** Every string of the block made printable (documents/printable-text.ts), as buildView does with the rest. */
function printableBlock<T>(value: T): T {
  if (typeof value === 'string') return printable(value) as T;
  if (Array.isArray(value)) return value.map((v: unknown) => printableBlock(v)) as T;
  if (value && typeof value === 'object') {
    const out: Record<string, unknown> = {};
    for (const [k, v] of Object.entries(value)) out[k] = printableBlock(v);
    return out as T;
  }
  return value;
}

/** The view of `invoice` checked as `check` says, in `ctx.locale`, with `options`' theme and page size. */
export function receivedView(invoice: EInvoice, check: ReceivedCheck, ctx: ViewContext, options: ReceivedDocumentOptions): ReceivedPage {
  return receivedPage(receivedParts(invoice, check, ctx, options), ctx);
}

/** What the received page is made of, before its view is built (two steps, so that each is a turn of its own). */
export interface ReceivedParts {
  invoice: EInvoice;
  rctx: ReceivedContext;
  doc: ReceivedPage['doc'];
  totals: ReceivedPage['totals'];
  block: ReceivedBlock;
  /** Each printed line's depth: 0 for the invoice's lines, 1, 2 … for sub-lines. */
  depths: number[];
}

/** The lines with their sub-lines after each, depth first, and the depth of each (0 for a line of the invoice). */
function flatLines(lines: readonly Line[], depth = 0, out: { lines: Line[]; depths: number[] } = { lines: [], depths: [] }) {
  for (const line of lines) {
    out.lines.push(line);
    out.depths.push(depth);
    if (line.subLines) flatLines(line.subLines, depth + 1, out);
  }
  return out;
}

/** The sub-lines' rows marked with their depth (their allowance and charge rows follow their line's). */
function markDepths(rows: Cell[][], depths: readonly number[]): Cell[][] {
  let item = -1;
  return rows.map((row) => {
    if (!row[0]?.adjustment) item++;
    const depth = Math.min(depths[item] ?? 0, 4);
    return depth > 0 && !row[0]?.adjustment ? [{ ...row[0]!, depth }, ...row.slice(1)] : row;
  });
}

/** The first step of receivedView: the invoice as a document, its stated totals and the received block. */
export function receivedParts(invoice: EInvoice, check: ReceivedCheck, ctx: ViewContext, options: ReceivedDocumentOptions): ReceivedParts {
  // A received currency code is whatever the sender wrote (BR-05 and BR-CL-04 report it): a code Intl cannot format
  // is shown as ISO 4217's "no currency" (XXX), never a failure to show the invoice.
  const currency = /^[A-Z]{3}$/.test(invoice.currency) ? invoice.currency : 'XXX';
  if (currency !== invoice.currency) invoice = { ...invoice, currency };
  const fmt = new Formatter(ctx.locale.tag, currency, invoice.minorUnits);
  const rctx = receivedContext(fmt, ctx.catalogues, ctx.locale);
  // Sub-lines are printed as lines under their line; the sums are the invoice's own (stated.ts), which count the line.
  const flat = flatLines(invoice.lines);
  const shown = flat.lines.length > invoice.lines.length ? { ...invoice, lines: flat.lines } : invoice;
  const doc = receivedDocument(shown, options, rctx);
  const totals = statedTotals(shown);
  const block: ReceivedBlock = {
    check: checkLine(check, rctx),
    vat: vatTable(invoice, rctx),
    sections: [
      ...paymentSection(invoice, rctx),
      ...referenceSection(invoice, check, rctx),
      ...partySections(invoice, rctx),
      ...attachmentSection(invoice, rctx),
    ],
    notes: notesSection(invoice, rctx),
  };
  return { invoice, rctx, doc, totals, block, depths: flat.depths };
}

/** The second step of receivedView: the page's view. */
export function receivedPage({ invoice, rctx, doc, totals, block, depths }: ReceivedParts, ctx: ViewContext): ReceivedPage {
  const built = buildView(doc, totals, ctx);
  const view = depths.some((d) => d > 0) ? { ...built, rows: markDepths(built.rows, depths) } : built;
  return { doc, totals, view: { ...view, details: [...typeDetail(invoice, rctx), ...view.details], received: printableBlock(block) } };
}

/** BT-3 in words first in the details, when it is not a plain invoice or credit note (384 corrected, 389 self-billed). */
function typeDetail(invoice: EInvoice, { text, code }: ReceivedContext): ReceivedRow[] {
  return invoice.typeCode === '380' || invoice.typeCode === '381'
    ? []
    : [{ label: text('document_type'), value: printable(code('document_type', invoice.typeCode)) }];
}
