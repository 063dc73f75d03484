// A received e-invoice (the EN 16931 model, einvoice/model.ts) as the request the view of every document reads: the
// way back of einvoice/map.ts, for printing only. Invoice or credit note by BT-3; from / to / ship-to as the seller's,
// buyer's and delivery's name and address lines; number, dates, payment terms, the purchase order (an invoice's),
// the preceding invoices, the period and the payee's name in the details; the lines with their units, identifiers,
// origin, attributes, period and note, and what of a line the service's own PDF does not print (its price base
// quantity and gross price with the discount, BT-147 … BT-150; BT-128, BT-132, BT-133, BT-158) as labelled
// attributes after the item's own. BT-3's credit note codes are credit notes (the codes the validators' check reads
// as one), every other code an invoice (its name is printed in the details: view.ts). No amounts: a
// received invoice's amounts are the ones it states (render/received/stated-totals.ts), never recomputed from this request. The terms
// the request has no place for are printed from the model itself (render/received-*.ts).
import type { DocumentRequest, LineItem } from '../../documents/model';
import type { EInvoice, Line, Party } from '../../einvoice/model';
import { addressLines, type ReceivedContext } from './context';

export interface ReceivedDocumentOptions {
  theme: DocumentRequest['theme'];
  pageSize: DocumentRequest['page_size'];
}

type Texts = ReceivedContext;

/** The UNTDID 1001 codes of EN 16931's list whose name is a credit note (a UBL CreditNote takes 81, 83, 381, 396, 532). */
const CREDIT_NOTE_TYPES: ReadonlySet<string> = new Set(['81', '83', '261', '262', '296', '308', '381', '396', '420', '458', '532']);

/** A credit note for BT-3's credit note codes, else an invoice. */
export function receivedType(invoice: Pick<EInvoice, 'typeCode'>): 'invoice' | 'credit_note' {
  return CREDIT_NOTE_TYPES.has(invoice.typeCode) ? 'credit_note' : 'invoice';
}

/** A party's name, then its address lines. */
function partyText(party: Pick<Party, 'name' | 'address'>, ctx: Texts): string {
  return [party.name, ...addressLines(party.address, ctx.country)].join('\n');
}

/** BG-13 as the ship-to: the delivery's name and address, when it has either. */
function shipTo(invoice: EInvoice, ctx: Texts): string | undefined {
  const d = invoice.delivery;
  const lines = [d?.name, ...addressLines(d?.address, ctx.country)].filter((l): l is string => Boolean(l));
  return lines.length > 0 ? lines.join('\n') : undefined;
}

/** A price's base quantity with its unit's name ("100 kg"). */
function perQuantity(line: Line, { fmt, catalogues, locale }: Texts): string {
  const quantity = fmt.formatQuantity(line.baseQuantity!);
  const unit = catalogues.unit(locale.language, line.baseQuantityUnitCode ?? line.unitCode, line.baseQuantity!.toNumber());
  return unit ? catalogues.text(locale.language, 'quantity_unit', { quantity, unit }) : quantity;
}

/** The line's price terms and references beside its own attributes (BG-32), each with its label. */
function lineReferences(line: Line, ctx: Texts): { name: string; value: string }[] {
  const { text, scheme, fmt } = ctx;
  const out: { name: string; value: string }[] = [];
  if (line.baseQuantity && !line.baseQuantity.eq(1)) out.push({ name: text('price_per'), value: perQuantity(line, ctx) });
  if (line.grossPrice) out.push({ name: text('gross_price'), value: fmt.formatRate(line.grossPrice) });
  if (line.priceDiscount && !line.priceDiscount.isZero())
    out.push({ name: text('price_discount'), value: fmt.formatRate(line.priceDiscount) });
  if (line.orderLineReference) out.push({ name: text('order_line'), value: line.orderLineReference });
  if (line.accountingReference) out.push({ name: text('line_account'), value: line.accountingReference });
  if (line.objectId) out.push({ name: text('object'), value: scheme(line.objectId.id, line.objectId.scheme) });
  for (const c of line.classifications ?? [])
    out.push({ name: text('classification'), value: scheme(c.id, c.version ? `${c.scheme} ${c.version}` : c.scheme) });
  return out;
}

function item(line: Line, ctx: Texts): LineItem {
  const attributes = [...(line.attributes ?? []), ...lineReferences(line, ctx)];
  return {
    name: line.name,
    description: line.description,
    unit: line.unitCode,
    seller_item_id: line.sellerItemId,
    buyer_item_id: line.buyerItemId,
    standard_item_id: line.standardItemId,
    origin_country: line.originCountry,
    period: line.period,
    note: line.note,
    attributes: attributes.length > 0 ? attributes : undefined,
    line_id: line.id,
  };
}

/** The request the view prints a received invoice from (see the header). */
export function receivedDocument(invoice: EInvoice, options: ReceivedDocumentOptions, ctx: Texts): DocumentRequest {
  const type = receivedType(invoice);
  return {
    type,
    theme: options.theme,
    page_size: options.pageSize,
    prices_include_tax: false,
    from: partyText(invoice.seller, ctx),
    to: partyText(invoice.buyer, ctx),
    ship_to: shipTo(invoice, ctx),
    number: invoice.number,
    currency: invoice.currency,
    custom_fields: [],
    date: invoice.issueDate,
    due_date: invoice.dueDate,
    payment_terms: invoice.paymentTerms,
    // A credit note's purchase_order would be titled "Referenced Invoice": its order is with the other references.
    purchase_order: type === 'invoice' ? invoice.orderReference : undefined,
    delivery_date: invoice.delivery?.date,
    tax_point_date: invoice.taxPointDate,
    invoice_period: invoice.period,
    preceding_invoices: invoice.precedingInvoices.map((p) => ({ number: p.number, date: p.date })),
    items: invoice.lines.map((line) => item(line, ctx)),
    fields: { tax: '%', discounts: false, shipping: false },
    payment_methods: [],
    labels: {},
    e_invoice: invoice.payee ? { payee: { name: invoice.payee.name } } : undefined,
  };
}
